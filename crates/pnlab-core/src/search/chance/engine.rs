//! The depth-first engine behind `expectimax`, `star1` and `star2`: the
//! recursion of the lecture notes (Hsu, after Ballard 1983) run on an
//! explicit stack, one node entry per [`ChanceSearch::step`].
//!
//! Values are from the attacker's point of view (the OR player of a tree,
//! else the side to move at the root): MAX nodes are the attacker's, MIN
//! nodes the opponent's, and a chance node's value is the
//! probability-weighted mean of its children. Every leaf lies in the
//! score range [L, U].
//!
//! The searches are *fail-soft*: called with a window (α, β), a node
//! returns v with: α < v < β ⇒ v is exact; v ≤ α ⇒ the value is ≤ v;
//! v ≥ β ⇒ the value is ≥ v.
//! - MAX/MIN nodes: alpha-beta (`star1`, `star2`), or plain minimax
//!   without a window (`expectimax`).
//! - Chance node with children 1…c and probabilities p_i: each child has
//!   known bounds lo_i ≤ v_i ≤ hi_i, first [L, U]; the node's value lies
//!   in [m, M] with m = Σ p_i·lo_i, M = Σ p_i·hi_i (the lecture's m_i and
//!   M_i after i children). Child i is searched with the window
//!   (max(A_i, lo_i), min(B_i, hi_i)), where A_i and B_i are the values of
//!   v_i that would bring M down to α or m up to β:
//!   A_i = (α − (M − p_i·hi_i)) / p_i, B_i = (β − (m − p_i·lo_i)) / p_i.
//!   A result ≥ B_i raises m to ≥ β: *cut-off I*, return max(m, β); a
//!   result ≤ A_i lowers M to ≤ α: *cut-off II*, return min(M, α).
//!   Returning the window's edge rather than the bound itself keeps a
//!   rounding error in m or M from turning a bound into a value the
//!   caller would take as exact. `expectimax` searches every child with
//!   (L, U) and never cuts.
//! - `star2` first *probes* (Ballard's Star2): for each child that is a
//!   MIN node it searches that child's first move, whose value is an upper
//!   bound on the child's (MIN takes the least); for a MAX child the first
//!   move gives a lower bound. The probe's window aims at a cut-off
//!   (the lower side for a MIN child: (max(A_i, L), U)); its result
//!   tightens hi_i or lo_i, and a cut-off may end the node before any
//!   full search. Then it runs the Star1 loop with the tightened bounds.
//!
//!   The full pass does not search a probed move again when the probe's
//!   result already answers the full pass's question (Ballard's probes
//!   are part of the search, not a separate estimate): the probe's
//!   fail-soft result for child i's first move, with the window it was
//!   searched with, is kept with child i, and when the full search of
//!   child i reaches its first move it takes that result instead of
//!   entering the move again if the result is exact, or a bound on the
//!   side where it also falls outside the full pass's window. Only a
//!   result that says nothing inside the new window (which needs a
//!   different window) is searched again.
//!
//! Children known exactly after probing (lo_i = hi_i) are not searched
//! again.

use crate::game::{Game, Player};

use super::record::{Bound, ChanceStep, Cut, Phase, RecKind, Records};

/// Which search of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// No pruning: the reference.
    Expectimax,
    /// Alpha-beta and the chance cut-offs I and II.
    Star1,
    /// Star1 after a probing phase at each chance node.
    Star2,
}

impl Variant {
    /// The registry name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Expectimax => "expectimax",
            Variant::Star1 => "star1",
            Variant::Star2 => "star2",
        }
    }
}

/// A node kind the engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The attacker to move: takes the largest child value.
    Max,
    /// The opponent to move: takes the smallest child value.
    Min,
    /// A die roll: the probability-weighted mean of its children.
    Chance,
}

/// How the parent uses the result of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Root,
    /// The full search of child i.
    Child(u32),
    /// A probe of child i (the frame is that child's first move).
    Probe(u32),
}

/// A child of a frame.
#[derive(Clone, Copy, Debug)]
pub struct Kid<M> {
    /// The move from the frame's position to this child.
    pub mv: M,
    /// Its probability (chance nodes; 1 elsewhere).
    pub prob: f64,
    /// Known bounds on its value.
    pub lo: f64,
    /// Upper bound on its value (starts at the score range's U).
    pub hi: f64,
    /// `star2`: what the probe of this child's first move returned, with
    /// the window it was searched with (reused by the full pass).
    pub probe: Option<ProbeResult>,
}

/// A probe's fail-soft result for a child's first move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeResult {
    /// The value the probe returned.
    pub value: f64,
    /// The window (α, β) it was searched with.
    pub window: (f64, f64),
}

impl ProbeResult {
    /// Whether the result is also a valid fail-soft result for a search
    /// with `window`: exact inside its own window, or a bound that lies
    /// outside `window` on the same side.
    pub fn answers(&self, window: (f64, f64)) -> bool {
        let (a, b) = self.window;
        let v = self.value;
        (a < v && v < b) || (v <= a && v <= window.0) || (v >= b && v >= window.1)
    }
}

/// One node being searched.
#[derive(Clone)]
pub struct Frame<G: Game> {
    /// The node's position; a child is made by playing its `mv` on it.
    pub pos: G,
    /// Max, min or chance: how the children's values combine.
    pub kind: Kind,
    /// Lower edge α of the fail-soft window.
    pub alpha: f64,
    /// Upper edge β of the fail-soft window.
    pub beta: f64,
    /// The node's index in the record (`record::NONE` past the cap).
    pub rec: u32,
    /// Plies from the root.
    pub depth: u32,
    /// Children in `ChanceSearch::kids[first..first + count]`.
    pub first: usize,
    /// Number of children (0 until expanded).
    pub count: usize,
    /// The next child to search (full phase).
    pub next: usize,
    /// The next child to probe (`star2`, chance nodes).
    pub probe_next: usize,
    /// `star2` chance nodes: still in the probing phase.
    pub probing: bool,
    /// MAX/MIN: the best value so far and its child.
    pub best: f64,
    /// The child that gave `best` (`None` before the first child returns).
    pub best_child: Option<u32>,
    /// Chance nodes: m = Σ p·lo and M = Σ p·hi.
    pub m: f64,
    /// Upper bound M on the chance node's value (m's partner).
    pub big_m: f64,
    /// The window the child being searched got.
    pub child_window: (f64, f64),
    /// The kind of the child being probed.
    pub probe_kind: Kind,
    /// `star2`, a MAX/MIN node searched in full after its first move was
    /// probed: that probe's result, taken instead of entering the move
    /// again when it answers the full search's window.
    pub first_probed: Option<ProbeResult>,
    role: Role,
    /// Inside a probe (its nodes count as probe nodes).
    in_probe: bool,
}

/// What the engine counts besides the common counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChanceCounters {
    /// Every node entered, leaves included.
    pub nodes_visited: u64,
    /// Inner (MAX, MIN, chance) nodes entered.
    pub expanded: u64,
    /// Chance cut-off I (m reached β), docs/algorithms.md §7.
    pub cutoffs_1: u64,
    /// Chance cut-off II (M fell to α), docs/algorithms.md §7.
    pub cutoffs_2: u64,
    /// Nodes entered during `star2`'s probes.
    pub probe_nodes: u64,
    /// `star2`: probed first moves whose result the full pass took
    /// without searching them again.
    pub probes_reused: u64,
    /// Alpha-beta cut-offs at MAX and MIN nodes.
    pub ab_cutoffs: u64,
    /// Nodes entered that have no record (past the record's cap): with
    /// the records they make the nodes created.
    pub unrecorded: u64,
}

/// The engine on a game `G`.
#[derive(Clone)]
pub struct Engine<G: Game> {
    /// Expectimax, Star1 or Star2.
    pub variant: Variant,
    /// The player whose values the engine maximises.
    pub attacker: Player,
    /// The score range's lower end L (no leaf is worth less).
    pub low: f64,
    /// The score range's upper end U (no leaf is worth more).
    pub high: f64,
    /// The path being searched, root first (an explicit recursion stack).
    pub stack: Vec<Frame<G>>,
    /// The children of every frame on the stack, in one flat vector.
    pub kids: Vec<Kid<G::Move>>,
    /// What the viewers show of the searched tree.
    pub records: Records<G::Move>,
    /// The family's own counters (cut-offs, probes).
    pub counts: ChanceCounters,
    /// Deepest frame so far, in plies.
    pub max_depth: u32,
    /// The root's value once known.
    pub value: Option<f64>,
    /// The root's best child (MAX or MIN root).
    pub best_child: Option<u32>,
    /// A result waiting to be delivered to the top frame, with the role
    /// of the node it comes from.
    pending: Option<(f64, Role)>,
    moves: Vec<G::Move>,
    probs: Vec<f64>,
}

impl<G: Game> Engine<G> {
    /// A search of `root` with scores in [low, high] from `attacker`'s
    /// view, recording at most `max_records` nodes for the viewers.
    pub fn new(
        variant: Variant,
        root: G,
        attacker: Player,
        (low, high): (f64, f64),
        max_records: usize,
    ) -> Engine<G> {
        let mut e = Engine {
            variant,
            attacker,
            low,
            high,
            stack: Vec::new(),
            kids: Vec::new(),
            records: Records::new(max_records),
            counts: ChanceCounters::default(),
            max_depth: 0,
            value: None,
            best_child: None,
            pending: None,
            moves: Vec::new(),
            probs: Vec::new(),
        };
        let rec = e.records.root();
        if let Some(v) = e.enter(root, (low, high), Role::Root, rec, 0, false) {
            e.value = Some(v);
        }
        e
    }

    /// Whether the root's value is known.
    pub fn done(&self) -> bool {
        self.value.is_some()
    }

    /// The leaf value from the attacker's view.
    fn leaf_value(&self, g: &G) -> Option<f64> {
        let s = g.final_score()?;
        Some(match self.attacker {
            Player::First => s,
            Player::Second => -s,
        })
    }

    /// Enters a node: a leaf returns its value at once, an inner node
    /// gets a frame.
    fn enter(
        &mut self,
        pos: G,
        window: (f64, f64),
        role: Role,
        rec: u32,
        depth: u32,
        in_probe: bool,
    ) -> Option<f64> {
        self.counts.nodes_visited += 1;
        if rec == super::record::NONE {
            self.counts.unrecorded += 1;
        }
        if in_probe {
            self.counts.probe_nodes += 1;
        }
        self.max_depth = self.max_depth.max(depth);
        if let Some(v) = self.leaf_value(&pos) {
            self.records.visit(rec, RecKind::Leaf, window, in_probe);
            self.records.finish(rec, v, Bound::Exact);
            return Some(v);
        }
        let kind = if pos.is_chance() {
            Kind::Chance
        } else if pos.to_move() == self.attacker {
            Kind::Max
        } else {
            Kind::Min
        };
        self.counts.expanded += 1;
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        self.probs.clear();
        if kind == Kind::Chance {
            pos.chance_probabilities(&mut self.probs);
        }
        let first = self.kids.len();
        for (i, &mv) in self.moves.iter().enumerate() {
            self.kids.push(Kid {
                mv,
                prob: self.probs.get(i).copied().unwrap_or(1.0),
                lo: self.low,
                hi: self.high,
                probe: None,
            });
        }
        let count = self.moves.len();
        let rec_kind = match kind {
            Kind::Max => RecKind::Max,
            Kind::Min => RecKind::Min,
            Kind::Chance => RecKind::Chance,
        };
        self.records.visit(rec, rec_kind, window, in_probe);
        self.records
            .expand(rec, self.kids[first..].iter().map(|k| (k.mv, k.prob)));
        let probing = kind == Kind::Chance && self.variant == Variant::Star2;
        self.stack.push(Frame {
            pos,
            kind,
            alpha: window.0,
            beta: window.1,
            rec,
            depth,
            first,
            count,
            next: 0,
            probe_next: 0,
            probing,
            best: match kind {
                Kind::Max => f64::NEG_INFINITY,
                _ => f64::INFINITY,
            },
            best_child: None,
            m: self.low,
            big_m: self.high,
            child_window: window,
            probe_kind: Kind::Min,
            first_probed: None,
            role,
            in_probe,
        });
        None
    }

    /// Runs until the next node entry (one iteration) or the end.
    pub fn step(&mut self) {
        loop {
            if self.value.is_some() {
                return;
            }
            if let Some((v, role)) = self.pending.take() {
                self.deliver(v, role);
                continue;
            }
            let Some(top) = self.stack.last() else {
                return;
            };
            match top.kind {
                Kind::Max | Kind::Min => {
                    if top.next >= top.count {
                        let v = top.best;
                        self.leave(v, Bound::Exact);
                        continue;
                    }
                    let i = top.next;
                    let window = if self.variant == Variant::Expectimax {
                        (self.low, self.high)
                    } else if top.kind == Kind::Max {
                        (top.alpha.max(top.best), top.beta)
                    } else {
                        (top.alpha, top.beta.min(top.best))
                    };
                    if i == 0 && self.reuse_probe(window) {
                        continue;
                    }
                    if self.enter_child(i, window, Role::Child(i as u32)) {
                        return;
                    }
                }
                Kind::Chance => {
                    if top.probing {
                        match self.next_probe() {
                            Some(true) => return,
                            Some(false) => continue,
                            None => {
                                let top = self.stack.last_mut().expect("a frame");
                                top.probing = false;
                            }
                        }
                        continue;
                    }
                    // Skip children known exactly (after probing).
                    let top = self.stack.last_mut().expect("a frame");
                    while top.next < top.count {
                        let k = self.kids[top.first + top.next];
                        if k.lo < k.hi || self.variant == Variant::Expectimax {
                            break;
                        }
                        top.next += 1;
                    }
                    if top.next >= top.count {
                        let kids = &self.kids[top.first..top.first + top.count];
                        let v: f64 = kids.iter().map(|k| k.prob * k.lo).sum();
                        self.leave(v, Bound::Exact);
                        continue;
                    }
                    let i = top.next;
                    let window = self.chance_window(i);
                    self.stack.last_mut().expect("a frame").child_window = window;
                    if self.enter_child(i, window, Role::Child(i as u32)) {
                        return;
                    }
                }
            }
        }
    }

    /// `star2`: takes the probe's result for the top frame's first move
    /// when it answers `window` (the move is then not entered again);
    /// false when there is none or it says nothing inside `window`.
    fn reuse_probe(&mut self, window: (f64, f64)) -> bool {
        let top = self.stack.last_mut().expect("a frame");
        let Some(probe) = top.first_probed.take() else {
            return false;
        };
        if !probe.answers(window) {
            return false;
        }
        // The frame's own visit reset its children's records; the probed
        // move's record gets its probe result back.
        let mut pos = top.pos.clone();
        pos.play(self.kids[top.first].mv);
        let rec = self.records.child(top.rec, 0);
        let kind = if pos.final_score().is_some() {
            RecKind::Leaf
        } else if pos.is_chance() {
            RecKind::Chance
        } else if pos.to_move() == self.attacker {
            RecKind::Max
        } else {
            RecKind::Min
        };
        let (a, b, v) = (probe.window.0, probe.window.1, probe.value);
        let bound = if kind == RecKind::Leaf {
            Bound::Exact
        } else if v <= a && v > self.low {
            Bound::Upper
        } else if v >= b && v < self.high {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.records
            .restore_probe(rec, kind, probe.window, v, bound);
        self.counts.probes_reused += 1;
        self.pending = Some((probe.value, Role::Child(0)));
        true
    }

    /// The window of child `i` of the top (chance) frame.
    fn chance_window(&self, i: usize) -> (f64, f64) {
        let top = self.stack.last().expect("a frame");
        let k = self.kids[top.first + i];
        if self.variant == Variant::Expectimax {
            return (k.lo, k.hi);
        }
        let a = (top.alpha - (top.big_m - k.prob * k.hi)) / k.prob;
        let b = (top.beta - (top.m - k.prob * k.lo)) / k.prob;
        let (lo, hi) = (a.max(k.lo), b.min(k.hi));
        if lo < hi {
            (lo, hi)
        } else {
            // Only rounding can close the window (no cut-off has
            // happened, so A_i < hi_i, B_i > lo_i and A_i < B_i): search
            // for the exact value instead.
            (k.lo, k.hi)
        }
    }

    /// Enters child `i` of the top frame; true when a frame was pushed
    /// (the iteration ends there), false when it was a leaf whose value is
    /// now pending.
    fn enter_child(&mut self, i: usize, window: (f64, f64), role: Role) -> bool {
        let top = self.stack.last().expect("a frame");
        let mut pos = top.pos.clone();
        pos.play(self.kids[top.first + i].mv);
        let rec = self.records.child(top.rec, i);
        let (depth, in_probe) = (top.depth + 1, top.in_probe);
        let probed = match (top.kind, role) {
            (Kind::Chance, Role::Child(_)) => self.kids[top.first + i].probe,
            _ => None,
        };
        match self.enter(pos, window, role, rec, depth, in_probe) {
            Some(v) => {
                self.pending = Some((v, role));
                false
            }
            None => {
                let child = self.stack.last_mut().expect("the child's frame");
                if child.kind != Kind::Chance {
                    child.first_probed = probed;
                }
                true
            }
        }
    }

    /// Starts the next probe of the top (chance) frame: `Some(true)` when
    /// a frame was pushed, `Some(false)` when the probe was a leaf (its
    /// value is pending) or the child was skipped, `None` when probing is
    /// over.
    fn next_probe(&mut self) -> Option<bool> {
        let top = self.stack.last_mut().expect("a frame");
        if top.probe_next >= top.count {
            return None;
        }
        let i = top.probe_next;
        top.probe_next += 1;
        let k = self.kids[top.first + i];
        let mut child = top.pos.clone();
        child.play(k.mv);
        let child_kind = if child.outcome().is_some() || child.is_chance() {
            None
        } else if child.to_move() == self.attacker {
            Some(Kind::Max)
        } else {
            Some(Kind::Min)
        };
        let Some(child_kind) = child_kind else {
            return Some(false);
        };
        self.moves.clear();
        child.legal_moves(&mut self.moves);
        let Some(&first_move) = self.moves.first() else {
            return Some(false);
        };
        let (alpha, beta, m, big_m, depth, parent_rec) =
            (top.alpha, top.beta, top.m, top.big_m, top.depth, top.rec);
        // The probe aims at cut-off II through a MIN child's upper bound,
        // at cut-off I through a MAX child's lower bound.
        let window = match child_kind {
            Kind::Min => (((alpha - (big_m - k.prob * k.hi)) / k.prob).max(k.lo), k.hi),
            _ => (k.lo, ((beta - (m - k.prob * k.lo)) / k.prob).min(k.hi)),
        };
        let window = if window.0 < window.1 {
            window
        } else {
            (k.lo, k.hi)
        };
        let top = self.stack.last_mut().expect("a frame");
        top.child_window = window;
        top.probe_kind = child_kind;
        // The child itself is not entered: record it as probed and its
        // first move as the probe.
        let child_rec = self.records.child(parent_rec, i);
        let rk = match child_kind {
            Kind::Max => RecKind::Max,
            _ => RecKind::Min,
        };
        self.records.visit(child_rec, rk, (k.lo, k.hi), true);
        let probs = vec![1.0; self.moves.len()];
        self.records.expand(
            child_rec,
            self.moves.iter().copied().zip(probs.iter().copied()),
        );
        let grand_rec = self.records.child(child_rec, 0);
        child.play(first_move);
        match self.enter(
            child,
            window,
            Role::Probe(i as u32),
            grand_rec,
            depth + 2,
            true,
        ) {
            Some(v) => {
                self.pending = Some((v, Role::Probe(i as u32)));
                Some(false)
            }
            None => Some(true),
        }
    }

    /// Takes a child's (or a probe's) result at the top frame.
    fn deliver(&mut self, v: f64, role: Role) {
        let plain = self.variant == Variant::Expectimax;
        let top = self.stack.last_mut().expect("a frame");
        match (top.kind, role) {
            (Kind::Max | Kind::Min, Role::Child(i)) => {
                top.next += 1;
                let better = match top.kind {
                    Kind::Max => v > top.best,
                    _ => v < top.best,
                };
                if better || top.best_child.is_none() {
                    top.best = v;
                    top.best_child = Some(i);
                }
                let (best, kind) = (top.best, top.kind);
                if !plain && kind == Kind::Max && best >= top.beta {
                    self.counts.ab_cutoffs += 1;
                    self.leave(best, Bound::Lower);
                } else if !plain && kind == Kind::Min && best <= top.alpha {
                    self.counts.ab_cutoffs += 1;
                    self.leave(best, Bound::Upper);
                }
            }
            (Kind::Chance, Role::Probe(i)) => {
                let window = top.child_window;
                let k = &mut self.kids[top.first + i as usize];
                k.probe = Some(ProbeResult { value: v, window });
                let bound = match top.probe_kind {
                    // MIN takes the least: its first move bounds it above.
                    Kind::Min => {
                        k.hi = k.hi.min(v).max(k.lo);
                        Bound::Upper
                    }
                    _ => {
                        k.lo = k.lo.max(v).min(k.hi);
                        Bound::Lower
                    }
                };
                self.after_chance_result(i, v, bound, Phase::Probe, None);
            }
            (Kind::Chance, Role::Child(i)) => {
                top.next += 1;
                let (lo_w, hi_w) = top.child_window;
                let k = &mut self.kids[top.first + i as usize];
                let (bound, forced) = if plain {
                    (Bound::Exact, None)
                } else if v >= hi_w && hi_w < k.hi {
                    (Bound::Lower, Some(Cut::One))
                } else if v <= lo_w && lo_w > k.lo {
                    (Bound::Upper, Some(Cut::Two))
                } else {
                    (Bound::Exact, None)
                };
                match bound {
                    Bound::Lower => k.lo = v.max(k.lo).min(k.hi),
                    Bound::Upper => k.hi = v.min(k.hi).max(k.lo),
                    _ => {
                        let x = v.clamp(k.lo, k.hi);
                        (k.lo, k.hi) = (x, x);
                    }
                }
                self.after_chance_result(i, v, bound, Phase::Search, forced);
            }
            // A chance frame never starts a probe as `Root`, and MAX/MIN
            // frames never probe.
            _ => {}
        }
    }

    /// Updates the top chance frame's m and M after child `i` returned
    /// `v`, logs the step and takes a cut-off when there is one (`forced`:
    /// the result fell outside the child's window on that side, which
    /// implies the cut-off even where rounding leaves m a hair below β).
    fn after_chance_result(
        &mut self,
        i: u32,
        v: f64,
        bound: Bound,
        phase: Phase,
        forced: Option<Cut>,
    ) {
        let plain = self.variant == Variant::Expectimax;
        let top = self.stack.last_mut().expect("a frame");
        let kids = &self.kids[top.first..top.first + top.count];
        top.m = kids.iter().map(|k| k.prob * k.lo).sum();
        top.big_m = kids.iter().map(|k| k.prob * k.hi).sum();
        let cut = if plain {
            None
        } else if forced == Some(Cut::One) || top.m >= top.beta {
            Some(Cut::One)
        } else if forced == Some(Cut::Two) || top.big_m <= top.alpha {
            Some(Cut::Two)
        } else {
            None
        };
        let step = ChanceStep {
            phase,
            child: i,
            value: v,
            bound,
            window: top.child_window,
            m: top.m,
            big_m: top.big_m,
            cut,
        };
        let (rec, m, big_m, alpha, beta) = (top.rec, top.m, top.big_m, top.alpha, top.beta);
        self.records.log(rec, step);
        match cut {
            Some(Cut::One) => {
                self.counts.cutoffs_1 += 1;
                self.leave(m.max(beta), Bound::Lower);
            }
            Some(Cut::Two) => {
                self.counts.cutoffs_2 += 1;
                self.leave(big_m.min(alpha), Bound::Upper);
            }
            None => {}
        }
    }

    /// Pops the top frame with its result.
    fn leave(&mut self, v: f64, bound: Bound) {
        let f = self.stack.pop().expect("a frame");
        self.kids.truncate(f.first);
        let bound = match bound {
            Bound::Exact if v <= f.alpha && v > self.low => Bound::Upper,
            Bound::Exact if v >= f.beta && v < self.high => Bound::Lower,
            b => b,
        };
        self.records.finish(f.rec, v, bound);
        if f.role == Role::Root {
            self.value = Some(v);
            self.best_child = f.best_child;
        } else {
            self.pending = Some((v, f.role));
        }
    }
}
