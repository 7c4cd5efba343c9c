//! The Shannon/Anshelevich resistor model of Hex (Shannon's Bridg-it
//! machine, Gardner 1961; Anshelevich 2002): each player's board is an
//! electric circuit between that player's two edges, and how easily
//! current flows says how close the player is to connecting.
//!
//! For player P: every cell has a resistance — 1 when empty, 0 when P
//! holds it (P's groups are contracted into single nodes, a group touching
//! an edge into that edge), and the cell is cut out of the circuit when
//! the opponent holds it. Two adjacent cells are joined by a resistor of
//! r(a) + r(b); a cell on P's first edge is joined to the first terminal
//! by r(cell), likewise for the second. With 1 volt across the terminals,
//! the node voltages solve a sparse symmetric positive-definite system
//! (the circuit's Laplacian with the terminals fixed), done with `sprs`'s
//! LDLᵀ factorisation.
//!
//! From the solution:
//! - **R(P)**, the resistance between P's edges (1 / the current);
//! - **the energy of a cell**: the power the cell's own resistance
//!   dissipates, Σ over its resistors of I²·r(cell), as a *share* of the
//!   circuit's total power (the shares of all empty cells sum to 1). A
//!   cell most of P's current must cross has a large share.
//!
//! The **move score** E(n → s) used by SCNS as its local heuristic is
//! the sum of cell s's energy shares in the two circuits, plus 10⁻⁶ so it
//! is always positive: a cell matters when it carries the mover's current
//! (taking it shortens the mover's path) or the opponent's (taking it
//! cuts theirs). As the SCNS paper notes (after Henderson 2010), this
//! compares sibling moves reliably but positions poorly.
//!
//! The **global evaluation** (Wolve's, Arneson, Hayward & Henderson 2009)
//! is ln(R(White) / R(Black)) from Black's side: positive when Black's
//! circuit conducts better.

use sprs::TriMat;
use sprs_ldl::Ldl;

use super::{edges, flood, neighbours, Geometry, Hex, GEOMETRY};
use crate::game::Player;

/// Added to every move score so that E(n → s) > 0.
pub const SCORE_FLOOR: f64 = 1e-6;

/// One player's circuit, solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Circuit {
    /// Resistance between the player's two edges (0 when connected, ∞
    /// when no path is left).
    pub resistance: f64,
    /// Per cell index `r·N + c`: the share of the circuit's power the
    /// cell dissipates (0 for stones and for cells no current reaches).
    pub energy: Vec<f64>,
}

/// Both circuits of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Resistance {
    /// Black's circuit (top to bottom).
    pub black: Circuit,
    /// White's circuit (left to right).
    pub white: Circuit,
}

impl Resistance {
    /// Both circuits of `g`.
    pub fn of(g: &Hex) -> Resistance {
        Resistance {
            black: circuit(g, Player::First),
            white: circuit(g, Player::Second),
        }
    }

    /// The circuit of `p`.
    pub fn of_player(&self, p: Player) -> &Circuit {
        match p {
            Player::First => &self.black,
            Player::Second => &self.white,
        }
    }

    /// ln(R(White) / R(Black)): Black's view of the position, clamped to
    /// ±30 where a side is connected or cut off.
    pub fn evaluation(&self) -> f64 {
        let (b, w) = (self.black.resistance, self.white.resistance);
        let v = if b == 0.0 && w == 0.0 {
            0.0
        } else {
            (w / b).ln()
        };
        if v.is_nan() {
            0.0
        } else {
            v.clamp(-30.0, 30.0)
        }
    }

    /// The move score of empty cell `i`: its energy shares in both
    /// circuits plus [`SCORE_FLOOR`].
    pub fn move_score(&self, i: usize) -> f64 {
        self.black.energy[i] + self.white.energy[i] + SCORE_FLOOR
    }
}

/// The node a cell belongs to in `p`'s circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// The opponent holds it: not in the circuit.
    Cut,
    /// Terminal 0 (first edge, 1 volt) or 1 (second edge, 0 volts).
    Terminal(usize),
    /// Unknown number k.
    Free(usize),
}

/// Solves `p`'s circuit on `g`.
pub fn circuit(g: &Hex, p: Player) -> Circuit {
    let n = g.size() as usize;
    let geo = GEOMETRY[n];
    let (e1, e2) = edges(p, &geo);
    let board = Sides {
        own: g.stones[p.index()],
        theirs: g.stones[p.other().index()],
        e1,
        e2,
        nn: n as u32,
        geo,
        cells: n * n,
    };
    let mut energy = vec![0.0; board.cells];
    // Own groups touching an edge become that terminal.
    let at1 = board.group_of(board.own & e1);
    let at2 = board.group_of(board.own & e2);
    if at1 & at2 != 0 {
        return Circuit {
            resistance: 0.0,
            energy,
        };
    }
    let (slot, free) = board.number_nodes(at1, at2);
    let resistors = board.resistors(&slot);
    // Only nodes connected to a terminal take part (others would make the
    // system singular and carry no current anyway).
    let unknowns = Unknowns::of(&reachable_from_terminals(free, &resistors));
    let (volts, source_to_sink) = unknowns.solve(&resistors);
    let voltage =
        |s: Slot| -> Option<f64> { fixed(s).or_else(|| unknowns.get(s).map(|x| volts[x])) };
    // Power and per-cell energy.
    let mut power = 0.0;
    let mut current = source_to_sink;
    for &(a, b, gc, owners) in &resistors {
        let (Some(va), Some(vb)) = (voltage(a), voltage(b)) else {
            continue;
        };
        let dv = va - vb;
        let i2 = gc * gc * dv * dv;
        power += gc * dv * dv;
        for c in owners.into_iter().flatten() {
            energy[c] += i2 * board.resistance_of(c);
        }
        // Current leaving the 1-volt terminal.
        match (a, b) {
            (_, Slot::Terminal(0)) => current += gc * (1.0 - va),
            (Slot::Terminal(0), _) => current += gc * (1.0 - vb),
            _ => {}
        }
    }
    if power > 0.0 {
        for e in &mut energy {
            *e /= power;
        }
    }
    Circuit {
        resistance: if current > 0.0 {
            1.0 / current
        } else {
            f64::INFINITY
        },
        energy,
    }
}

/// A resistor: (node a, node b, conductance, cell whose resistance counts
/// for energy on each side).
type Resistor = (Slot, Slot, f64, [Option<usize>; 2]);

/// The board as `p`'s circuit sees it: `p`'s stones, the opponent's, and
/// the two edges `p` joins.
struct Sides {
    own: u128,
    theirs: u128,
    e1: u128,
    e2: u128,
    nn: u32,
    geo: Geometry,
    cells: usize,
}

impl Sides {
    /// The own stones connected to `seed`.
    fn group_of(&self, seed: u128) -> u128 {
        flood(self.own, seed, self.nn, &self.geo)
    }

    /// A cell's resistance: none for an own stone, 1 for an empty cell.
    fn resistance_of(&self, i: usize) -> f64 {
        if self.own >> i & 1 == 1 {
            0.0
        } else {
            1.0
        }
    }

    /// Numbers the nodes: the terminals (the own groups `at1` and `at2`
    /// touching the edges), then own groups and empty cells; the slot of
    /// every cell and the number of free nodes.
    fn number_nodes(&self, at1: u128, at2: u128) -> (Vec<Slot>, usize) {
        let mut slot = vec![Slot::Cut; self.cells];
        let mut free = 0usize;
        let mut seen: u128 = 0;
        for i in 0..self.cells {
            let bit = 1u128 << i;
            if self.theirs & bit != 0 {
                continue;
            }
            if at1 & bit != 0 {
                slot[i] = Slot::Terminal(0);
            } else if at2 & bit != 0 {
                slot[i] = Slot::Terminal(1);
            } else if self.own & bit != 0 {
                if seen & bit == 0 {
                    let group = self.group_of(bit);
                    seen |= group;
                    let mut m = group;
                    while m != 0 {
                        slot[m.trailing_zeros() as usize] = Slot::Free(free);
                        m &= m - 1;
                    }
                    free += 1;
                }
            } else {
                slot[i] = Slot::Free(free);
                free += 1;
            }
        }
        (slot, free)
    }

    /// The resistors between neighbouring cells in different nodes, and
    /// from empty edge cells to their terminal.
    fn resistors(&self, slot: &[Slot]) -> Vec<Resistor> {
        let mut resistors: Vec<Resistor> = Vec::new();
        for i in 0..self.cells {
            if slot[i] == Slot::Cut {
                continue;
            }
            let bit = 1u128 << i;
            // Each pair once: neighbours with a larger index.
            let mut nb = neighbours(bit, self.nn, &self.geo) & !self.theirs;
            while nb != 0 {
                let j = nb.trailing_zeros() as usize;
                nb &= nb - 1;
                if j < i || slot[i] == slot[j] {
                    continue;
                }
                let r = self.resistance_of(i) + self.resistance_of(j);
                resistors.push((slot[i], slot[j], 1.0 / r, [Some(i), Some(j)]));
            }
            // Edge resistors of empty cells (own edge cells are terminals).
            if self.own & bit == 0 {
                if self.e1 & bit != 0 {
                    resistors.push((slot[i], Slot::Terminal(0), 1.0, [Some(i), None]));
                }
                if self.e2 & bit != 0 {
                    resistors.push((slot[i], Slot::Terminal(1), 1.0, [Some(i), None]));
                }
            }
        }
        resistors
    }
}

/// The voltage of a terminal: 1 for the first edge, 0 for the second.
fn fixed(s: Slot) -> Option<f64> {
    match s {
        Slot::Terminal(0) => Some(1.0),
        Slot::Terminal(_) => Some(0.0),
        _ => None,
    }
}

/// The unknowns of the system: the free nodes that take part, numbered.
struct Unknowns {
    /// Each free node's unknown, `usize::MAX` for a node left out.
    index: Vec<usize>,
    /// How many unknowns.
    k: usize,
}

impl Unknowns {
    /// Numbers the free nodes marked `live`.
    fn of(live: &[bool]) -> Unknowns {
        let mut index = vec![usize::MAX; live.len()];
        let mut k = 0;
        for (f, &l) in live.iter().enumerate() {
            if l {
                index[f] = k;
                k += 1;
            }
        }
        Unknowns { index, k }
    }

    /// The unknown of node `s`, if it is one.
    fn get(&self, s: Slot) -> Option<usize> {
        match s {
            Slot::Free(f) if self.index[f] != usize::MAX => Some(self.index[f]),
            _ => None,
        }
    }

    /// The unknowns' voltages (Kirchhoff's current law, solved by LDLᵀ),
    /// and the conductance of the resistors straight from terminal to
    /// terminal.
    fn solve(&self, resistors: &[Resistor]) -> (Vec<f64>, f64) {
        let k = self.k;
        let mut tri = TriMat::new((k, k));
        let mut diag = vec![0.0; k];
        let mut rhs = vec![0.0; k];
        let mut source_to_sink = 0.0; // resistors straight across
        for &(a, b, gc, _) in resistors {
            match (self.get(a), self.get(b), fixed(a), fixed(b)) {
                (Some(x), Some(y), _, _) => {
                    diag[x] += gc;
                    diag[y] += gc;
                    tri.add_triplet(x, y, -gc);
                    tri.add_triplet(y, x, -gc);
                }
                (Some(x), None, _, Some(v)) | (None, Some(x), Some(v), _) => {
                    diag[x] += gc;
                    rhs[x] += gc * v;
                }
                (None, None, Some(va), Some(vb)) if va != vb => source_to_sink += gc,
                _ => {}
            }
        }
        for (x, &d) in diag.iter().enumerate() {
            tri.add_triplet(x, x, d);
        }
        let volts = if k <= 1 {
            // (sprs-ldl wants at least two unknowns.)
            diag.iter().zip(&rhs).map(|(d, b)| b / d).collect()
        } else {
            let m = tri.to_csc::<usize>();
            match Ldl::new()
                .check_symmetry(sprs::SymmetryCheck::DontCheckSymmetry)
                .numeric(m.view())
            {
                Ok(ldl) => ldl.solve(&rhs),
                // A Laplacian grounded at a terminal is positive definite.
                Err(_) => vec![0.0; k],
            }
        };
        (volts, source_to_sink)
    }
}

/// Which free nodes a path of resistors joins to a terminal.
fn reachable_from_terminals(free: usize, resistors: &[Resistor]) -> Vec<bool> {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); free];
    let mut live = vec![false; free];
    let mut stack = Vec::new();
    for &(a, b, _, _) in resistors {
        match (a, b) {
            (Slot::Free(x), Slot::Free(y)) => {
                adj[x].push(y);
                adj[y].push(x);
            }
            (Slot::Free(x), Slot::Terminal(_)) | (Slot::Terminal(_), Slot::Free(x)) if !live[x] => {
                live[x] = true;
                stack.push(x);
            }
            _ => {}
        }
    }
    while let Some(x) = stack.pop() {
        for &y in &adj[x] {
            if !live[y] {
                live[y] = true;
                stack.push(y);
            }
        }
    }
    live
}

impl Hex {
    /// The resistance model of this position (both circuits).
    pub fn resistance(&self) -> Resistance {
        Resistance::of(self)
    }

    /// The resistance evaluation ln(R(White)/R(Black)), Black's view.
    pub fn resistance_evaluation(&self) -> f64 {
        Resistance::of(self).evaluation()
    }
}
