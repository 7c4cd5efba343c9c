//! Proof and disproof functions stored as staircases (McAllester 1988;
//! Pawlewicz & Hayward 2015, §2.3–2.8).
//!
//! A proof function p(v) counts the leaves that must change for a node's
//! minimax value to reach at least v; it never decreases as v grows. A
//! disproof function d(v) (value at most v) never increases. Both are step
//! functions with few steps, so a node stores the steps rather than an
//! array over every possible value.
//!
//! Values are exact integers ([`Value`]) with the two ends −∞ and +∞
//! reserved ([`NEG_INF`], [`POS_INF`]); a search whose evaluation is real
//! (the SCNS relative errors) counts it in fixed-point units, so every
//! breakpoint stays exact and comparisons never round. Heights are proof
//! numbers ([`Pn`]): sums saturate, `INF` means "impossible".
//!
//! One type serves both functions: [`Staircase`] is a *non-decreasing*
//! step function, and a disproof function is kept mirrored,
//! d̃(w) = d(−w), which is non-decreasing too. Pointwise minimum and sum
//! commute with the mirror, so MAX and MIN nodes use the same two
//! operations. [`Staircase::approx`] is the η upper-bound approximation of
//! the SCNS paper (Definition 4), which keeps the number of steps
//! logarithmic in the largest height.

use crate::search::pn::{self, Pn, INF};

/// A minimax value: an exact integer in the search's fixed-point unit,
/// with [`NEG_INF`] and [`POS_INF`] for a certain loss and win.
pub type Value = i64;

/// −∞ (chosen so that negation maps −∞ and +∞ onto each other).
pub const NEG_INF: Value = -i64::MAX;
/// +∞.
pub const POS_INF: Value = i64::MAX;

/// One step: from value `from` on (inclusive) the function is `height`,
/// up to the next step's `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// First value of the step.
    pub from: Value,
    /// The function's value on the step.
    pub height: Pn,
}

/// A non-decreasing step function from [`NEG_INF`]..=[`POS_INF`] to proof
/// numbers. Invariants: the first step starts at `NEG_INF`, starts and
/// heights both strictly increase (equal neighbours are merged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staircase {
    steps: Vec<Step>,
}

impl Default for Staircase {
    /// The zero function.
    fn default() -> Self {
        Staircase::constant(0)
    }
}

/// The value after `v` (+∞ stays +∞).
#[inline]
pub fn succ(v: Value) -> Value {
    if v == POS_INF {
        POS_INF
    } else {
        v + 1
    }
}

/// Steps that do not make a staircase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StaircaseError {
    /// The first step does not start at −∞.
    #[error("the first step must start at −∞")]
    FirstStep,
    /// Two neighbouring steps whose starts or heights do not increase.
    #[error("steps {0:?} and {1:?} do not increase")]
    NotIncreasing(Step, Step),
}

impl Staircase {
    /// The function that is `h` everywhere.
    pub fn constant(h: Pn) -> Staircase {
        Staircase {
            steps: vec![Step {
                from: NEG_INF,
                height: h,
            }],
        }
    }

    /// 0 for v ≤ `x`, `h` for v > `x`: a leaf of value `x` whose value
    /// can rise at cost `h` (1 for a heuristic leaf, `INF` for a finished
    /// game; Fact 2 of the SCNS paper).
    pub fn step_after(x: Value, h: Pn) -> Staircase {
        let mut s = Staircase::constant(0);
        if x != POS_INF {
            s.push(x + 1, h);
        }
        s
    }

    /// The logarithmic leaf initialisation of SCNS (paper eq. 14): 0 for
    /// v ≤ `x`, and `i` where iᵟ < 2^(v−x) ≤ (i+1)ᵟ above, i.e. height k
    /// from just above x + δ·log₂k on. `delta_units` is δ in value units
    /// (δ times the search's fixed-point unit). Heights stop growing at
    /// `cap`, which holds up to +∞, so a leaf can always still be raised
    /// to a win at a finite (large) cost.
    pub fn log_init(x: Value, delta_units: f64, cap: Pn) -> Staircase {
        let mut s = Staircase::constant(0);
        if x == POS_INF {
            return s;
        }
        let cap = cap.max(1);
        for k in 1..=cap {
            // p(v) ≥ k ⇔ v > x + δ·log₂k (k = 1: v > x).
            let offset = (delta_units * (k as f64).log2()).floor();
            let start = if offset >= (POS_INF - x) as f64 {
                POS_INF
            } else {
                succ(x + offset as Value)
            };
            s.push(start, k);
            if start == POS_INF {
                break;
            }
        }
        s
    }

    /// A staircase from raw steps, checking the invariants (the first step
    /// starts at −∞, starts and heights strictly increase).
    pub fn from_steps(steps: Vec<Step>) -> Result<Staircase, StaircaseError> {
        if steps.first().map(|s| s.from) != Some(NEG_INF) {
            return Err(StaircaseError::FirstStep);
        }
        for w in steps.windows(2) {
            if w[1].from <= w[0].from || w[1].height <= w[0].height {
                return Err(StaircaseError::NotIncreasing(w[0], w[1]));
            }
        }
        Ok(Staircase { steps })
    }

    /// The steps, first to last.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Number of steps.
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Appends a step, merging it when it does not raise the height and
    /// replacing the last one when it starts at the same value.
    fn push(&mut self, from: Value, height: Pn) {
        if let Some(last) = self.steps.last_mut() {
            if height <= last.height {
                return;
            }
            if from == last.from {
                last.height = height;
                // The one before may now equal it (cannot: heights grow).
                return;
            }
        }
        self.steps.push(Step { from, height });
    }

    /// f(v).
    #[inline]
    pub fn at(&self, v: Value) -> Pn {
        let i = self.steps.partition_point(|s| s.from <= v);
        self.steps[i - 1].height
    }

    /// f(+∞), the largest height.
    #[inline]
    pub fn top(&self) -> Pn {
        self.steps[self.steps.len() - 1].height
    }

    /// max{v : f(v) ≤ h}, or `None` when even f(−∞) > h.
    pub fn last_at_most(&self, h: Pn) -> Option<Value> {
        let i = self.steps.partition_point(|s| s.height <= h);
        if i == 0 {
            None
        } else if i == self.steps.len() {
            Some(POS_INF)
        } else {
            Some(self.steps[i].from - 1)
        }
    }

    /// The pointwise combination `op(a(v), b(v))` of two staircases; `op`
    /// must be non-decreasing in both arguments (min, saturating sum).
    fn combine(a: &Staircase, b: &Staircase, op: impl Fn(Pn, Pn) -> Pn) -> Staircase {
        let (sa, sb) = (&a.steps, &b.steps);
        let mut out = Staircase {
            steps: Vec::with_capacity(sa.len() + sb.len()),
        };
        let (mut i, mut j) = (0, 0);
        // Both start at −∞.
        while i < sa.len() || j < sb.len() {
            let from = match (sa.get(i), sb.get(j)) {
                (Some(x), Some(y)) => x.from.min(y.from),
                (Some(x), None) => x.from,
                (None, Some(y)) => y.from,
                (None, None) => unreachable!(),
            };
            while i < sa.len() && sa[i].from == from {
                i += 1;
            }
            while j < sb.len() && sb[j].from == from {
                j += 1;
            }
            out.push(from, op(sa[i - 1].height, sb[j - 1].height));
        }
        out
    }

    /// Pointwise minimum (a MAX node's proof function, a MIN node's
    /// mirrored disproof function).
    pub fn min(a: &Staircase, b: &Staircase) -> Staircase {
        Staircase::combine(a, b, Pn::min)
    }

    /// Pointwise sum, saturating at `INF` (a MIN node's proof function, a
    /// MAX node's mirrored disproof function).
    pub fn sum(a: &Staircase, b: &Staircase) -> Staircase {
        Staircase::combine(a, b, pn::add)
    }

    /// The minimum of many (the constant `INF` for none), merged pairwise
    /// in a balanced tree so that n children of k steps cost O(nk log n).
    pub fn min_all(fs: &[&Staircase]) -> Staircase {
        Staircase::fold_balanced(fs, INF, Staircase::min)
    }

    /// The sum of many (the constant 0 for none), merged like
    /// [`min_all`](Self::min_all).
    pub fn sum_all(fs: &[&Staircase]) -> Staircase {
        Staircase::fold_balanced(fs, 0, Staircase::sum)
    }

    fn fold_balanced(
        fs: &[&Staircase],
        empty: Pn,
        op: fn(&Staircase, &Staircase) -> Staircase,
    ) -> Staircase {
        match fs {
            [] => Staircase::constant(empty),
            [f] => (*f).clone(),
            [a, b] => op(a, b),
            _ => {
                let (l, r) = fs.split_at(fs.len() / 2);
                op(
                    &Staircase::fold_balanced(l, empty, op),
                    &Staircase::fold_balanced(r, empty, op),
                )
            }
        }
    }

    /// g(v) = f(v − x): the same steps moved right by `x` (the ends ±∞
    /// stay where they are).
    pub fn shifted(&self, x: Value) -> Staircase {
        let mut out = Staircase {
            steps: Vec::with_capacity(self.steps.len()),
        };
        for s in &self.steps {
            let from = if s.from == NEG_INF || s.from == POS_INF {
                s.from
            } else {
                s.from.saturating_add(x).clamp(NEG_INF + 1, POS_INF)
            };
            out.push(from, s.height);
        }
        out
    }

    /// `self.shifted(x).at(v)` without building the shifted staircase.
    #[inline]
    pub fn at_shifted(&self, v: Value, x: Value) -> Pn {
        if v == POS_INF || v == NEG_INF {
            self.at(v)
        } else {
            self.at(v.saturating_sub(x).clamp(NEG_INF, POS_INF))
        }
    }

    /// The η upper-bound approximation (SCNS paper, Definition 4 with its
    /// Lemma 1): heights are grouped so that every height h of a group
    /// satisfies h·(1 + η) ≥ the group's top, and each step is raised to
    /// its group's top; steps that become equal merge. Groups are formed
    /// from the largest finite height down (the top T takes every height
    /// ≥ T/(1 + η), the next group starts below), so
    /// - f ≤ f̂ ≤ (1 + η)·f and f̂ takes only heights of f, as the
    ///   definition's f̂(v) = max{f(v′) : f(v)(1 + η) ≥ f(v′)} bounds it;
    /// - consecutive heights of f̂ differ by more than the factor (Lemma 1),
    ///   so a function whose largest finite height is p keeps
    ///   O(log p / η) steps (Theorem 1).
    ///
    /// (The definition read literally, each height raised to the largest
    /// height within its own factor, keeps dense heights such as
    /// 100, 101, …, 125 all apart and so does not give Lemma 1.) 0 and
    /// `INF` stay as they are, so the minimax value and proven bounds read
    /// from the function are exact; η = 0 returns the function unchanged.
    pub fn approx(&self, eta: f64) -> Staircase {
        if eta <= 0.0 || self.steps.len() <= 1 {
            return self.clone();
        }
        // Group tops, assigned from the largest finite height down.
        let mut raised: Vec<Pn> = self.steps.iter().map(|s| s.height).collect();
        let mut top: Option<Pn> = None;
        for h in raised.iter_mut().rev() {
            if *h == INF || *h == 0 {
                continue;
            }
            match top {
                Some(t) if (*h as f64) * (1.0 + eta) >= t as f64 => *h = t,
                _ => top = Some(*h),
            }
        }
        let mut out = Staircase {
            steps: Vec::with_capacity(self.steps.len()),
        };
        for (s, &h) in self.steps.iter().zip(&raised) {
            out.push(s.from, h);
        }
        out
    }

    /// The mirror image g(w) = f(−w) of a *non-increasing* function given
    /// by its mirrored staircase is again non-decreasing; this turns a
    /// mirrored disproof function back into readable steps: the value
    /// ranges (lo, hi inclusive) of d with their heights, left to right.
    pub fn mirrored_ranges(&self) -> Vec<(Value, Value, Pn)> {
        // Step k of d̃ covers w ∈ [from_k, from_{k+1} − 1], i.e.
        // v = −w ∈ [−(from_{k+1} − 1), −from_k].
        let mut out = Vec::with_capacity(self.steps.len());
        for (k, s) in self.steps.iter().enumerate().rev() {
            let hi = -s.from;
            let lo = match self.steps.get(k + 1) {
                Some(next) => -(next.from - 1),
                None => NEG_INF,
            };
            out.push((lo, hi, s.height));
        }
        out
    }

    /// The value ranges (lo, hi inclusive) of the steps with their
    /// heights, left to right.
    pub fn ranges(&self) -> Vec<(Value, Value, Pn)> {
        self.steps
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let hi = match self.steps.get(k + 1) {
                    Some(next) => next.from - 1,
                    None => POS_INF,
                };
                (s.from, hi, s.height)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    //! Property tests against a dense-array implementation: every function
    //! is also kept as an array over a small value range (plus ±∞), the
    //! operations are done pointwise on the arrays, and the staircase
    //! results must agree at every value.

    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Values −K..=K plus ±∞.
    const K: Value = 12;

    fn domain() -> Vec<Value> {
        let mut d = vec![NEG_INF];
        d.extend(-K..=K);
        d.push(POS_INF);
        d
    }

    /// A random non-decreasing function as a dense array over `domain()`.
    fn random_dense(rng: &mut SmallRng) -> Vec<Pn> {
        let d = domain();
        let mut h: Pn = if rng.random_bool(0.3) {
            0
        } else {
            rng.random_range(0..4)
        };
        let mut out = Vec::with_capacity(d.len());
        for _ in &d {
            if rng.random_bool(0.25) {
                h = if h == INF || rng.random_bool(0.08) {
                    INF
                } else {
                    h + rng.random_range(1..40)
                };
            }
            out.push(h);
        }
        out
    }

    /// The staircase of a dense array (steps where the height changes).
    fn staircase_of(dense: &[Pn]) -> Staircase {
        let d = domain();
        let mut steps = vec![Step {
            from: NEG_INF,
            height: dense[0],
        }];
        for (i, &h) in dense.iter().enumerate().skip(1) {
            if h != steps.last().unwrap().height {
                steps.push(Step {
                    from: d[i],
                    height: h,
                });
            }
        }
        Staircase::from_steps(steps).expect("a dense non-decreasing array gives valid steps")
    }

    fn dense_of(s: &Staircase) -> Vec<Pn> {
        domain().iter().map(|&v| s.at(v)).collect()
    }

    /// The η approximation over the dense array: the distinct finite
    /// non-zero heights grouped from the top down, each mapped to its
    /// group's top.
    fn dense_approx(f: &[Pn], eta: f64) -> Vec<Pn> {
        let mut hs: Vec<Pn> = f.iter().copied().filter(|&h| h != 0 && h != INF).collect();
        hs.sort_unstable();
        hs.dedup();
        let mut top_of = std::collections::HashMap::new();
        let mut top: Option<Pn> = None;
        for &h in hs.iter().rev() {
            let t = match top {
                Some(t) if h as f64 * (1.0 + eta) >= t as f64 => t,
                _ => h,
            };
            top = Some(t);
            top_of.insert(h, t);
        }
        f.iter()
            .map(|h| top_of.get(h).copied().unwrap_or(*h))
            .collect()
    }

    /// Runs `check` on `count` random functions drawn from a generator
    /// seeded with `seed`: each as a dense array and as a staircase, with
    /// the generator for any further draws.
    fn for_random_functions(
        seed: u64,
        count: usize,
        mut check: impl FnMut(&mut SmallRng, Vec<Pn>, Staircase),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..count {
            let f = random_dense(&mut rng);
            let s = staircase_of(&f);
            check(&mut rng, f, s);
        }
    }

    #[test]
    fn random_functions_round_trip_through_the_dense_form() {
        for_random_functions(1, 2000, |_, f, s| assert_eq!(dense_of(&s), f));
    }

    #[test]
    fn min_and_sum_agree_with_pointwise_arrays() {
        let mut rng = SmallRng::seed_from_u64(2);
        for _ in 0..5000 {
            let (fa, fb) = (random_dense(&mut rng), random_dense(&mut rng));
            let (a, b) = (staircase_of(&fa), staircase_of(&fb));
            let min: Vec<Pn> = fa.iter().zip(&fb).map(|(&x, &y)| x.min(y)).collect();
            let sum: Vec<Pn> = fa.iter().zip(&fb).map(|(&x, &y)| pn::add(x, y)).collect();
            let smin = Staircase::min(&a, &b);
            let ssum = Staircase::sum(&a, &b);
            assert_eq!(dense_of(&smin), min);
            assert_eq!(dense_of(&ssum), sum);
            // Results keep the invariants (merged steps).
            assert_eq!(Staircase::from_steps(smin.steps.clone()), Ok(smin.clone()));
            assert_eq!(smin, staircase_of(&min), "minimal representation");
            assert_eq!(ssum, staircase_of(&sum), "minimal representation");
        }
    }

    #[test]
    fn folds_over_many_children_agree_with_arrays() {
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..1000 {
            let n = rng.random_range(0..7);
            let fs: Vec<Vec<Pn>> = (0..n).map(|_| random_dense(&mut rng)).collect();
            let owned: Vec<Staircase> = fs.iter().map(|f| staircase_of(f)).collect();
            let ss: Vec<&Staircase> = owned.iter().collect();
            let len = domain().len();
            let min: Vec<Pn> = (0..len)
                .map(|i| fs.iter().map(|f| f[i]).min().unwrap_or(INF))
                .collect();
            let sum: Vec<Pn> = (0..len)
                .map(|i| fs.iter().fold(0, |a, f| pn::add(a, f[i])))
                .collect();
            assert_eq!(dense_of(&Staircase::min_all(&ss)), min);
            assert_eq!(dense_of(&Staircase::sum_all(&ss)), sum);
        }
    }

    #[test]
    fn approximation_follows_definition_4_and_lemma_1() {
        for_random_functions(4, 5000, |rng, f, s| {
            let eta = [0.0, 0.01, 0.1, 0.25, 0.5, 0.99][rng.random_range(0..6)];
            let s = s.approx(eta);
            let got = dense_of(&s);
            if eta > 0.0 {
                assert_eq!(got, dense_approx(&f, eta), "eta {eta} on {f:?}");
            } else {
                assert_eq!(got, f);
            }
            assert_eq!(s, staircase_of(&got), "minimal representation");
            for (&a, &b) in got.iter().zip(&f) {
                // Within Definition 4's bound: an upper bound by at most
                // the factor, taking only heights of f, 0 and ∞ unchanged.
                assert!(a >= b);
                assert!(f.contains(&a));
                assert_eq!(a == 0, b == 0);
                assert_eq!(a == INF, b == INF);
                if b != INF {
                    assert!(a as f64 <= b as f64 * (1.0 + eta));
                }
            }
            if eta > 0.0 {
                for w in s.steps().windows(2) {
                    let (p1, p2) = (w[0].height, w[1].height);
                    if p2 != INF && p1 > 0 {
                        assert!(p1 as f64 * (1.0 + eta) < p2 as f64, "Lemma 1: {p1}, {p2}");
                    }
                }
            }
        });
        // The paper's example: with η = 0.01, heights 100 and 101 merge
        // into one step of height 101.
        let s = Staircase::from_steps(vec![
            Step {
                from: NEG_INF,
                height: 0,
            },
            Step {
                from: 3,
                height: 100,
            },
            Step {
                from: 5,
                height: 101,
            },
        ])
        .unwrap();
        assert_eq!(s.approx(0.01), Staircase::step_after(2, 101));
    }

    #[test]
    fn last_at_most_is_the_largest_value_within_the_bound() {
        let d = domain();
        for_random_functions(5, 3000, |rng, f, s| {
            let h = rng.random_range(0..60);
            let want = d
                .iter()
                .zip(&f)
                .filter(|(_, &x)| x <= h)
                .map(|(&v, _)| v)
                .max();
            // Between grid values the function is constant up to the next
            // breakpoint, which the dense grid contains: compare on the
            // grid by mapping the staircase answer to the last grid value
            // not above it.
            let got = s
                .last_at_most(h)
                .map(|v| *d.iter().filter(|&&g| g <= v).max().unwrap());
            assert_eq!(got, want);
        });
    }

    #[test]
    fn leaves_follow_fact_2_and_equation_14() {
        let p = Staircase::step_after(5, 1);
        assert_eq!(
            (p.at(5), p.at(6), p.at(POS_INF), p.at(NEG_INF)),
            (0, 1, 1, 0)
        );
        let t = Staircase::step_after(NEG_INF, INF);
        assert_eq!((t.at(NEG_INF), t.at(NEG_INF + 1)), (0, INF));
        assert_eq!(Staircase::step_after(POS_INF, INF), Staircase::constant(0));
        // Eq. 14 (δ in value units): p(v) = i where iᵟ < 2^(v−x) ≤ (i+1)ᵟ,
        // i.e. δ·log₂i < v − x ≤ δ·log₂(i+1), checked at every v.
        for &delta in &[0.5, 1.0, 2.5, 7.0] {
            let s = Staircase::log_init(0, delta, 10_000);
            for v in 1..60 {
                let i = s.at(v) as f64;
                assert!(delta * i.log2() < v as f64, "δ={delta} v={v} i={i}");
                if i < 10_000.0 {
                    // Below the cap the step is exactly eq. 14's.
                    assert!(
                        v as f64 <= delta * (i + 1.0).log2(),
                        "δ={delta} v={v} i={i}"
                    );
                }
            }
            assert_eq!(s.at(0), 0);
            assert!(s.at(1) >= 1);
        }
        let capped = Staircase::log_init(0, 1.0, 4);
        assert_eq!(capped.top(), 4);
        assert_eq!(capped.at(POS_INF), 4);
    }

    #[test]
    fn shifting_moves_every_step() {
        let d = domain();
        for_random_functions(6, 2000, |rng, f, s| {
            let x = rng.random_range(-5..=5);
            let g = s.shifted(x);
            for (i, &v) in d.iter().enumerate() {
                // g(v) = f(v − x) on the grid (±∞ stay put).
                let want = if v == NEG_INF || v == POS_INF {
                    f[i]
                } else {
                    s.at(v - x)
                };
                assert_eq!(g.at(v), want);
                assert_eq!(s.at_shifted(v, x), want);
            }
        });
    }

    #[test]
    fn mirrored_ranges_read_a_disproof_function_back() {
        // d(v) = 0 for v ≥ 3, 1 for v < 3: mirrored d̃(w) = 0 for w ≤ −3.
        let dm = Staircase::step_after(-3, 1);
        assert_eq!(dm.mirrored_ranges(), vec![(NEG_INF, 2, 1), (3, POS_INF, 0)]);
        assert_eq!(
            Staircase::step_after(3, 2).ranges(),
            vec![(NEG_INF, 3, 0), (4, POS_INF, 2)]
        );
    }
}
