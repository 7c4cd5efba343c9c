//! Relative single conspiracy numbers (RSCN) along a sequence of positions
//! (Song & Iida 2018; Zhang's 2019 thesis, §4.2–4.3): pure arithmetic on
//! the value and SCN curves that alpha-beta produces for each position.
//!
//! For positions P0 … Pk (a game record, or the engine's self-play to the
//! end of the game), each searched with its own side to move as MAX:
//! 1. fit a least-squares line f̂_i(d) to P_i's SCN curve (depth d against
//!    SCN), leaving out the infinite points, and drop the curve when fewer
//!    than [`MIN_POINTS`] depths remain; r_i = f̂_i(10);
//! 2. for a position of the first player (Red): RSCN_i = r_i − r_(i+1)
//!    (i < k), ∞ at i = k; for a position of the second player:
//!    RSCN_i = r_i − r_(i−1). "First/second player" is the side to move
//!    of P_i, so sequences that start with the second player, or where one
//!    side moves twice (an Othello pass), are read correctly; a neighbour
//!    without a line (dropped, or missing) leaves RSCN_i undefined;
//! 3. Vl_i = ĝ_i(10), the same fit on the value curve (values are never
//!    infinite here: a won game is +10000, a finite number, and is kept);
//! 4. RSCN_red, RSCN_black, Vl_red, Vl_black: averages over each side's
//!    finite entries;
//! 5. bands, the thesis' hypothesis for T = 600 on the ±10000 scale:
//!    [−1021.3, −53.7] a *high* possibility of reaching T before the
//!    opponent, [−36.2, 36.2] *normal*, [53.7, 1021.3] *low*; other values
//!    fall in no band.
//!
//! Smaller RSCN means the side to move needs fewer leaf changes than its
//! opponent to reach T: a higher chance to get there first.

use crate::game::Player;
use crate::search::pn::INF;

use super::CurvePoint;

/// Fewest finite points a curve needs to be fitted (thesis: curves with
/// fewer than 4 depths are abandoned).
pub const MIN_POINTS: usize = 4;

/// The depth at which the fitted lines are read.
pub const READ_DEPTH: f64 = 10.0;

/// The thesis' bands (T = 600, ±10000 scale).
pub const HIGH_BAND: (f64, f64) = (-1021.3, -53.7);
/// See [`HIGH_BAND`].
pub const NORMAL_BAND: (f64, f64) = (-36.2, 36.2);
/// See [`HIGH_BAND`].
pub const LOW_BAND: (f64, f64) = (53.7, 1021.3);

/// A least-squares line y = intercept + slope · x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// Value at x = 0.
    pub intercept: f64,
    /// Change per unit of x.
    pub slope: f64,
}

impl Line {
    /// The line's value at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.intercept + self.slope * x
    }
}

/// The ordinary least-squares line through `points`; `None` with fewer
/// than two points or when every x is the same.
pub fn fit_line(points: &[(f64, f64)]) -> Option<Line> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    if sxx == 0.0 {
        return None;
    }
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = sxy / sxx;
    Some(Line {
        intercept: my - slope * mx,
        slope,
    })
}

/// r = f̂(10) for an SCN curve: infinite points left out, `None` when
/// fewer than [`MIN_POINTS`] remain.
pub fn scn_at_read_depth(curve: &[CurvePoint]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = curve
        .iter()
        .filter(|p| p.scn != INF)
        .map(|p| (f64::from(p.depth), f64::from(p.scn)))
        .collect();
    read(&pts)
}

/// Vl = ĝ(10) for a value curve (`None` with fewer than [`MIN_POINTS`]
/// depths).
pub fn value_at_read_depth(curve: &[CurvePoint]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (f64::from(p.depth), f64::from(p.value)))
        .collect();
    read(&pts)
}

fn read(pts: &[(f64, f64)]) -> Option<f64> {
    if pts.len() < MIN_POINTS {
        return None;
    }
    fit_line(pts).map(|l| l.at(READ_DEPTH))
}

/// An RSCN entry. In JSON: a number, `"inf"`, or `null` when undefined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rscn {
    /// A finite difference of two fitted lines.
    Finite(f64),
    /// The first player's last position (it has lost or the game is over:
    /// the lowest possibility).
    Infinite,
    /// A line it needs was dropped (too few finite points) or is missing.
    Undefined,
}

impl serde::Serialize for Rscn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Rscn::Finite(x) => s.serialize_f64(*x),
            Rscn::Infinite => s.serialize_str("inf"),
            Rscn::Undefined => s.serialize_none(),
        }
    }
}

/// The same three forms read back (a sharded experiment's job file).
impl<'de> serde::Deserialize<'de> for Rscn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Number(f64),
            Text(String),
        }
        match Option::<Repr>::deserialize(d)? {
            None => Ok(Rscn::Undefined),
            Some(Repr::Number(x)) => Ok(Rscn::Finite(x)),
            Some(Repr::Text(t)) if t == "inf" => Ok(Rscn::Infinite),
            Some(Repr::Text(t)) => Err(serde::de::Error::custom(format!(
                "expected a number, \"inf\" or null, found \"{t}\""
            ))),
        }
    }
}

impl Rscn {
    /// The finite value, if any.
    pub fn finite(self) -> Option<f64> {
        match self {
            Rscn::Finite(x) => Some(x),
            _ => None,
        }
    }
}

/// Where an RSCN falls among the thesis' bands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// [−1021.3, −53.7]: high possibility of reaching T first.
    High,
    /// [−36.2, 36.2]: normal possibility.
    Normal,
    /// [53.7, 1021.3]: low possibility.
    Low,
    /// Between or beyond the bands, or no finite RSCN.
    None,
}

impl Band {
    /// The band of `x`.
    pub fn of(x: Rscn) -> Band {
        let Some(x) = x.finite() else {
            return Band::None;
        };
        let inside = |(lo, hi): (f64, f64)| lo <= x && x <= hi;
        if inside(HIGH_BAND) {
            Band::High
        } else if inside(NORMAL_BAND) {
            Band::Normal
        } else if inside(LOW_BAND) {
            Band::Low
        } else {
            Band::None
        }
    }

    /// The JSON/CSV name.
    pub fn name(self) -> &'static str {
        match self {
            Band::High => "high",
            Band::Normal => "normal",
            Band::Low => "low",
            Band::None => "none",
        }
    }
}

/// One position's numbers.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RscnEntry {
    /// The side to move at this position.
    pub side: Player,
    /// r_i = f̂_i(10), `None` when the curve was dropped.
    pub r: Option<f64>,
    /// RSCN_i.
    pub rscn: Rscn,
    /// Vl_i = ĝ_i(10).
    pub vl: Option<f64>,
    /// The band of RSCN_i.
    pub band: Band,
}

/// RSCN for every position of a sequence, given each position's side to
/// move and curves (see the module documentation).
pub fn along(sequence: &[(Player, &[CurvePoint])]) -> Vec<RscnEntry> {
    let r: Vec<Option<f64>> = sequence.iter().map(|(_, c)| scn_at_read_depth(c)).collect();
    let k = sequence.len();
    sequence
        .iter()
        .enumerate()
        .map(|(i, &(side, curve))| {
            let diff = |other: Option<Option<f64>>| match (r[i], other.flatten()) {
                (Some(a), Some(b)) => Rscn::Finite(a - b),
                _ => Rscn::Undefined,
            };
            let rscn = match side {
                Player::First if i + 1 == k => Rscn::Infinite,
                Player::First => diff(r.get(i + 1).copied()),
                Player::Second => diff(i.checked_sub(1).map(|j| r[j])),
            };
            RscnEntry {
                side,
                r: r[i],
                rscn,
                vl: value_at_read_depth(curve),
                band: Band::of(rscn),
            }
        })
        .collect()
}

/// The per-side averages of a sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// RSCN_red: the mean of the first player's finite RSCNs.
    pub rscn_red: Option<f64>,
    /// RSCN_black: the mean of the second player's finite RSCNs.
    pub rscn_black: Option<f64>,
    /// Vl_red: the mean of the first player's Vl.
    pub vl_red: Option<f64>,
    /// Vl_black: the mean of the second player's Vl.
    pub vl_black: Option<f64>,
    /// How many finite RSCNs each side contributed (first, second).
    pub counts: (usize, usize),
}

/// Averages over each side's finite entries.
pub fn summarize(entries: &[RscnEntry]) -> Summary {
    let mean = |xs: Vec<f64>| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    let side = |p: Player| entries.iter().filter(move |e| e.side == p);
    let rscn = |p: Player| side(p).filter_map(|e| e.rscn.finite()).collect::<Vec<_>>();
    let vl = |p: Player| side(p).filter_map(|e| e.vl).collect::<Vec<_>>();
    let (rf, rs) = (rscn(Player::First), rscn(Player::Second));
    Summary {
        counts: (rf.len(), rs.len()),
        rscn_red: mean(rf),
        rscn_black: mean(rs),
        vl_red: mean(vl(Player::First)),
        vl_black: mean(vl(Player::Second)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(depth: u32, value: i32, scn: u32) -> CurvePoint {
        CurvePoint {
            depth,
            value,
            scn,
            nodes: 0,
            best_move: None,
            pv: Vec::new(),
            exact: false,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn least_squares_by_hand() {
        // y = 2x + 1 exactly.
        let l = fit_line(&[(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)]).unwrap();
        assert!(close(l.slope, 2.0) && close(l.intercept, 1.0));
        // (1,1), (2,2), (3,2), (4,4): x̄ = 2.5, ȳ = 2.25,
        // Sxy = (−1.5)(−1.25) + (−0.5)(−0.25) + (0.5)(−0.25) + (1.5)(1.75)
        //     = 1.875 + 0.125 − 0.125 + 2.625 = 4.5, Sxx = 5 → slope 0.9,
        // intercept 2.25 − 0.9 · 2.5 = 0; at 10: 9.
        let l = fit_line(&[(1.0, 1.0), (2.0, 2.0), (3.0, 2.0), (4.0, 4.0)]).unwrap();
        assert!(close(l.slope, 0.9) && close(l.intercept, 0.0), "{l:?}");
        assert!(close(l.at(10.0), 9.0));
        assert_eq!(fit_line(&[(1.0, 1.0)]), None);
        assert_eq!(fit_line(&[(2.0, 1.0), (2.0, 3.0)]), None);
    }

    #[test]
    fn infinite_points_and_short_curves_are_dropped() {
        // Five depths, one infinite: the four others lie on scn = d.
        let c = [
            point(1, 0, 1),
            point(2, 0, 2),
            point(3, 0, INF),
            point(4, 0, 4),
            point(5, 0, 5),
        ];
        assert!(close(scn_at_read_depth(&c).unwrap(), 10.0));
        // Two infinite points leave three: dropped.
        let c = [
            point(1, 0, 1),
            point(2, 0, INF),
            point(3, 0, INF),
            point(4, 0, 4),
        ];
        assert_eq!(scn_at_read_depth(&c), None);
        // Values are never dropped, but three depths are too few.
        assert_eq!(value_at_read_depth(&c[..3]), None);
        assert!(close(value_at_read_depth(&c).unwrap(), 0.0));
    }

    /// A curve whose SCN line reads `r` at depth 10 (constant SCN).
    fn flat(r: u32, value: i32) -> Vec<CurvePoint> {
        (1..=4).map(|d| point(d, value, r)).collect()
    }

    #[test]
    fn rscn_pairs_each_side_with_its_neighbour() {
        let curves = [flat(3, 100), flat(7, -100), flat(2, 50), flat(9, -40)];
        let seq: Vec<(Player, &[CurvePoint])> = curves
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let p = if i % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                (p, c.as_slice())
            })
            .collect();
        let e = along(&seq);
        // Red: r0 − r1 = 3 − 7, r2 − r3 = 2 − 9; Black: r1 − r0, r3 − r2.
        assert_eq!(e[0].rscn, Rscn::Finite(-4.0));
        assert_eq!(e[1].rscn, Rscn::Finite(4.0));
        assert_eq!(e[2].rscn, Rscn::Finite(-7.0));
        assert_eq!(e[3].rscn, Rscn::Finite(7.0));
        let s = summarize(&e);
        assert_eq!(s.rscn_red, Some(-5.5));
        assert_eq!(s.rscn_black, Some(5.5));
        assert_eq!(s.vl_red, Some(75.0));
        assert_eq!(s.vl_black, Some(-70.0));
        assert_eq!(s.counts, (2, 2));
        // A sequence ending on Red: its last RSCN is ∞ and not averaged.
        let e = along(&seq[..3]);
        assert_eq!(e[2].rscn, Rscn::Infinite);
        assert_eq!(e[2].band, Band::None);
        assert_eq!(summarize(&e).rscn_red, Some(-4.0));
        // Starting with Black: no predecessor, undefined.
        let e = along(&seq[1..]);
        assert_eq!(e[0].rscn, Rscn::Undefined);
        // A dropped curve makes its neighbours undefined.
        let short = [point(1, 0, 1)];
        let e = along(&[
            (Player::First, &curves[0][..]),
            (Player::Second, &short[..]),
        ]);
        assert_eq!((e[0].rscn, e[1].rscn), (Rscn::Undefined, Rscn::Undefined));
    }

    #[test]
    fn bands_have_the_thesis_limits() {
        let band = |x| Band::of(Rscn::Finite(x));
        assert_eq!(band(-1021.3), Band::High);
        assert_eq!(band(-53.7), Band::High);
        assert_eq!(band(-53.6), Band::None);
        assert_eq!(band(-36.2), Band::Normal);
        assert_eq!(band(0.0), Band::Normal);
        assert_eq!(band(36.2), Band::Normal);
        assert_eq!(band(40.0), Band::None);
        assert_eq!(band(53.7), Band::Low);
        assert_eq!(band(1021.3), Band::Low);
        assert_eq!(band(1100.0), Band::None);
        assert_eq!(Band::of(Rscn::Infinite), Band::None);
        assert_eq!(Band::of(Rscn::Undefined).name(), "none");
    }
}
