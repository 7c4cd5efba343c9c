//! Virtual connections by H-search (Anshelevich 2002): which pairs of a
//! player's "nodes" (their groups, the two edges and the empty cells) the
//! player can connect whatever the opponent does.
//!
//! - A **virtual connection** (VC) between x and y with carrier C (a set
//!   of empty cells): the player joins x and y inside C even moving
//!   second. Adjacent nodes have one with an empty carrier.
//! - A **semi-connection** (SC): the player joins them moving first; its
//!   carrier includes the key cell to play.
//! - **AND rule**: VCs x–z and z–y with disjoint carriers that avoid x and
//!   y give a VC x–y when z is the player's group (the carriers' union), an
//!   SC when z is an empty cell (the union plus z, the key).
//! - **OR rule**: SCs x–y whose carriers have no common cell give a VC x–y
//!   (the opponent cannot break them all with one stone; the union is its
//!   carrier).
//!
//! The search keeps at most [`MAX_VCS`] VCs and [`MAX_SCS`] SCs per pair
//! and stops after [`MAX_WORK`] combinations, so it finds a subset of the
//! connections: every connection it reports is real, none is promised.
//!
//! What the solvers use: a VC between the player's two edges means the
//! player has won even moving second, an SC that the player wins moving
//! first, and when the opponent is to move every SC between the player's
//! edges must be broken, so the opponent's useful moves lie in the
//! intersection of their carriers, the **mustplay** region (empty: the
//! opponent has lost).

use super::{edges, flood, neighbours, GEOMETRY};
use crate::game::Player;

/// VCs kept per pair of nodes.
pub const MAX_VCS: usize = 4;
/// SCs kept per pair of nodes.
pub const MAX_SCS: usize = 8;
/// Carrier combinations tried before the search stops, by default.
pub const DEFAULT_MAX_WORK: u32 = 200_000;

/// How far H-search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HSearchRules {
    /// Carrier combinations tried before the search stops.
    pub max_work: u32,
    /// Whether the AND rule may join two connections at an edge (x–edge
    /// and edge–y give x–y). A chain between the two edges seldom needs
    /// such a connection (it could start at y), while every pair of cells
    /// near an edge gets them: on the empty 7×7 board's search, H-search
    /// without them did a sixth of the combinations and the solver found
    /// nearly as many early wins; off by default.
    pub over_edges: bool,
}

impl Default for HSearchRules {
    fn default() -> Self {
        HSearchRules {
            max_work: DEFAULT_MAX_WORK,
            over_edges: false,
        }
    }
}

/// Most nodes: 121 cells and 2 edges.
const MAX_NODES: usize = 123;

/// What H-search found between a player's two edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeConnections {
    /// The carrier of a VC between the edges, if one was found.
    pub vc: Option<u128>,
    /// Carriers (keys included) of the SCs between the edges found.
    pub semis: Vec<u128>,
}

impl EdgeConnections {
    /// The cells common to every SC carrier (all cells when there is none):
    /// the opponent, to move, must play there or lose.
    pub fn mustplay(&self, board: u128) -> u128 {
        if self.vc.is_some() {
            return 0;
        }
        self.semis.iter().fold(board, |m, &c| m & c)
    }
}

/// For each pair of nodes, a list of at most `K` carriers. The lengths
/// are apart from the carriers so that a new search clears only them.
#[derive(Default)]
struct CarrierLists<const K: usize> {
    len: Vec<u8>,
    items: Vec<[u128; K]>,
}

impl<const K: usize> CarrierLists<K> {
    /// `pairs` empty lists.
    fn reset(&mut self, pairs: usize) {
        self.len.clear();
        self.len.resize(pairs, 0);
        if self.items.len() < pairs {
            self.items.resize(pairs, [0; K]);
        }
    }

    fn get(&self, pair: usize) -> &[u128] {
        &self.items[pair][..usize::from(self.len[pair])]
    }

    /// Adds `c` to `pair`'s list unless a kept carrier is a subset of it;
    /// drops kept carriers that are supersets of `c`. Whether `c` was
    /// added.
    fn add(&mut self, pair: usize, c: u128) -> bool {
        if self.get(pair).iter().any(|&k| k & !c == 0) {
            return false;
        }
        let items = &mut self.items[pair];
        let mut w = 0;
        for r in 0..usize::from(self.len[pair]) {
            let k = items[r];
            if k & c != c {
                items[w] = k;
                w += 1;
            }
        }
        if w == K {
            self.len[pair] = w as u8;
            return false;
        }
        items[w] = c;
        self.len[pair] = w as u8 + 1;
        true
    }
}

/// What one H-search works with, kept per thread between searches (a
/// solver runs one for each of thousands of positions).
#[derive(Default)]
struct Workspace {
    vcs: CarrierLists<MAX_VCS>,
    scs: CarrierLists<MAX_SCS>,
    queue: Vec<(usize, usize, u128)>,
}

thread_local! {
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::default();
}

/// H-search for `player` on an `n`×`n` board with `stones` = [Black,
/// White]; only the connections between the player's edges are returned.
/// A player already joined has a VC with an empty carrier. The search
/// follows `rules` and stops at the first VC between the edges, and with
/// `first_semi` at the first SC between them (enough to know the player
/// wins moving first; the mustplay needs them all).
pub fn edge_connections(
    n: u8,
    stones: [u128; 2],
    player: Player,
    rules: HSearchRules,
    first_semi: bool,
) -> EdgeConnections {
    connections::<true>(n, stones, player, rules, first_semi)
}

/// What the connections between the edges decide about a position with
/// `mover` to move (no game over yet), given the moves it could make:
///
/// - the mover wins when H-search finds it a VC or an SC between its
///   edges (it plays the SC's key);
/// - it loses when the opponent has a VC;
/// - otherwise, with `mustplay`, only the moves inside the intersection
///   of the carriers of the opponent's SCs are kept (a move outside one
///   of them lets the opponent connect), and none left is a loss.
///
/// `Err` is the winner, `Ok` the moves worth trying. Every part keeps the
/// game's value: the solvers and the searches that play use it alike.
pub fn decide(
    n: u8,
    stones: [u128; 2],
    mover: Player,
    rules: HSearchRules,
    mustplay: bool,
    moves: u128,
) -> Result<u128, Player> {
    let mine = edge_connections(n, stones, mover, rules, true);
    if mine.vc.is_some() || !mine.semis.is_empty() {
        return Err(mover);
    }
    let theirs = edge_connections(n, stones, mover.other(), rules, false);
    if theirs.vc.is_some() {
        return Err(mover.other());
    }
    if !mustplay {
        return Ok(moves);
    }
    match moves & theirs.mustplay(super::board_cells(n)) {
        0 => Err(mover.other()),
        kept => Ok(kept),
    }
}

/// [`edge_connections`], with (`SKIP_USELESS`) or without the shortcuts
/// that skip the combinations whose result an existing VC already makes
/// useless (the tests compare the two).
fn connections<const SKIP_USELESS: bool>(
    n: u8,
    stones: [u128; 2],
    player: Player,
    rules: HSearchRules,
    first_semi: bool,
) -> EdgeConnections {
    let g = &GEOMETRY[n as usize];
    let nn = u32::from(n);
    let own = stones[player.index()];
    let empty = g.board & !(stones[0] | stones[1]);
    let (e1, e2) = edges(player, g);
    // Nodes: 0 and 1 the edges (with the groups touching them), then the
    // other groups, then the empty cells. `cells` are a node's stones (or
    // its one empty cell), `touch` the cells next to it.
    let mut cells: Vec<u128> = Vec::with_capacity(MAX_NODES);
    let mut touch: Vec<u128> = Vec::with_capacity(MAX_NODES);
    let mut is_empty: Vec<bool> = Vec::with_capacity(MAX_NODES);
    let edge1 = flood(own, e1 & own, nn, g);
    let edge2 = flood(own, e2 & own, nn, g);
    if edge1 & edge2 != 0 {
        return EdgeConnections {
            vc: Some(0),
            semis: Vec::new(),
        };
    }
    for (stones_at, row) in [(edge1, e1), (edge2, e2)] {
        cells.push(stones_at);
        touch.push((neighbours(stones_at, nn, g) | row) & !stones_at);
        is_empty.push(false);
    }
    let mut rest = own & !edge1 & !edge2;
    while rest != 0 {
        let group = flood(own, rest & rest.wrapping_neg(), nn, g);
        rest &= !group;
        cells.push(group);
        touch.push(neighbours(group, nn, g) & !group);
        is_empty.push(false);
    }
    let mut e = empty;
    while e != 0 {
        let bit = e & e.wrapping_neg();
        e &= e - 1;
        cells.push(bit);
        touch.push(neighbours(bit, nn, g));
        is_empty.push(true);
    }
    WORKSPACE.with(|ws| {
        let ws = &mut *ws.borrow_mut();
        close::<SKIP_USELESS>(&cells, &touch, &is_empty, rules, first_semi, ws)
    })
}

/// The AND and OR rules applied to the new connections until none is
/// left (or the work limit): the search proper, on the nodes built by
/// [`edge_connections`].
fn close<const SKIP_USELESS: bool>(
    cells: &[u128],
    touch: &[u128],
    is_empty: &[bool],
    rules: HSearchRules,
    first_semi: bool,
    ws: &mut Workspace,
) -> EdgeConnections {
    let count = cells.len();
    let Workspace { vcs, scs, queue } = ws;
    vcs.reset(count * count);
    scs.reset(count * count);
    queue.clear();
    // Partners of each node with at least one VC, as a bitset of nodes.
    let mut partners = [0u128; MAX_NODES];
    // Partners joined by a VC with an empty carrier (neighbours, or two
    // nodes next to one group): no other connection between them can be
    // of use, so the AND rule does not look for one.
    let mut joined = [0u128; MAX_NODES];
    let at = |x: usize, y: usize| if x < y { x * count + y } else { y * count + x };
    for x in 0..count {
        for y in x + 1..count {
            // Two groups are never adjacent (they would be one group); an
            // empty cell next to a node is, and one on an edge's row
            // touches that edge.
            if touch[x] & cells[y] != 0 || touch[y] & cells[x] != 0 {
                vcs.add(at(x, y), 0);
                partners[x] |= 1 << y;
                partners[y] |= 1 << x;
                joined[x] |= 1 << y;
                joined[y] |= 1 << x;
                queue.push((x, y, 0));
            }
        }
    }
    let mut work = 0u32;
    let mut head = 0;
    'search: while head < queue.len() {
        let (x, y, c) = queue[head];
        head += 1;
        // The new VC x–y combined, through its end z, with VCs z–w.
        for (a, z) in [(x, y), (y, x)] {
            if z < 2 && !rules.over_edges {
                continue;
            }
            // Empty end cells may not lie in the other carrier.
            let a_cell = if is_empty[a] { cells[a] } else { 0 };
            let mut ws = partners[z] & !(1u128 << a);
            if SKIP_USELESS {
                ws &= !joined[a];
            }
            while ws != 0 {
                let w = ws.trailing_zeros() as usize;
                ws &= ws - 1;
                let w_cell = if is_empty[w] { cells[w] } else { 0 };
                if c & w_cell != 0 {
                    continue;
                }
                let (zw, aw) = (at(z, w), at(a, w));
                for i in 0..usize::from(vcs.len[zw]) {
                    let d = vcs.items[zw][i];
                    work += 1;
                    if work > rules.max_work {
                        break 'search;
                    }
                    if c & d != 0 || d & a_cell != 0 {
                        continue;
                    }
                    if is_empty[z] {
                        let s = c | d | cells[z];
                        // A VC whose carrier lies inside s makes the SC
                        // useless (as do its OR combinations, whose
                        // carriers contain s). Pairs joined with an empty
                        // carrier never get here (`joined` above).
                        if SKIP_USELESS && vcs.get(aw).iter().any(|&k| k & !s == 0) {
                            continue;
                        }
                        if scs.add(aw, s) {
                            // OR rule: intersect this SC with the others.
                            let (mut inter, mut union) = (s, s);
                            for &t in scs.get(aw) {
                                if inter & t != inter {
                                    inter &= t;
                                    union |= t;
                                    if inter == 0 {
                                        break;
                                    }
                                }
                            }
                            if inter == 0 && vcs.add(aw, union) {
                                partners[a] |= 1 << w;
                                partners[w] |= 1 << a;
                                queue.push((a, w, union));
                            }
                        }
                    } else if vcs.add(aw, c | d) {
                        partners[a] |= 1 << w;
                        partners[w] |= 1 << a;
                        if c | d == 0 {
                            joined[a] |= 1 << w;
                            joined[w] |= 1 << a;
                        }
                        queue.push((a, w, c | d));
                    }
                }
            }
        }
        if vcs.len[at(0, 1)] > 0 || (first_semi && scs.len[at(0, 1)] > 0) {
            break;
        }
    }
    EdgeConnections {
        vc: vcs.get(at(0, 1)).first().copied(),
        semis: scs.get(at(0, 1)).to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::game::hex::Hex;
    use crate::game::Game;

    /// Skipping the combinations an existing VC makes useless (an SC
    /// whose carrier holds a VC's, any connection between two nodes joined
    /// with an empty carrier) changes nothing the search reports: on random
    /// 5×5 to 8×8 positions, for both players and both stopping rules,
    /// the same VC and the same SCs between the edges.
    #[test]
    fn skipping_useless_combinations_changes_no_answer() {
        let mut rng = SmallRng::seed_from_u64(71);
        let mut claims = 0;
        for k in 0..400 {
            let n = 5 + (k % 4) as u8;
            let mut g = Hex::new(n).expect("a board size");
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(0..usize::from(n) * 2) {
                moves.clear();
                g.legal_moves(&mut moves);
                if g.outcome().is_some() || moves.is_empty() {
                    break;
                }
                g.play(moves[rng.random_range(0..moves.len())]);
            }
            let rules = HSearchRules::default();
            for p in [Player::First, Player::Second] {
                for first_semi in [false, true] {
                    let fast = connections::<true>(n, g.stones(), p, rules, first_semi);
                    let full = connections::<false>(n, g.stones(), p, rules, first_semi);
                    assert_eq!(fast, full, "{} {p:?}", g.notation());
                    if fast.vc.is_some() || !fast.semis.is_empty() {
                        claims += 1;
                    }
                }
            }
        }
        assert!(claims > 100, "only {claims} connections between edges");
    }
}
