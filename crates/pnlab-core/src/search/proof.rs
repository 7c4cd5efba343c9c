//! Writing proof certificates (see [`crate::certificate`]) for a search
//! that proved or disproved its root.
//!
//! The writer walks the game from the root and builds the proof (or
//! disproof) tree position by position. Where one move is needed, it
//! first tries the moves the search itself marked as solved the right way
//! ([`Search::solved_at`]: the tree searches read their tree, the df-pn
//! family its table), then the others; where every move must be
//! answered, every child is built. Building a child either completes its
//! whole subtree down to finished games or finds that none exists, so the
//! writer is an exhaustive AND/OR evaluation of its own wherever the
//! search holds nothing (a table entry replaced, a subtree answered by a
//! frontier solver, a search that keeps no tree, a result that held only
//! on the path it was found on). The certificate's comment says how many
//! choices came from the search and how many the writer worked out, so a
//! certificate of a search's own proof is told apart from one the writer
//! had to complete.
//!
//! A position is written once and shared between the paths that reach it
//! only when the checker will accept the sharing: the same position with
//! the same [`Game::history_key`]. Where the value depends on the path (a
//! cyclic graph's loop rule, xiangqi's repetition rule, the mate
//! question's count), positions are told apart by that key, so the proof
//! is a tree over (position, history) pairs, which is finite and acyclic
//! for a repetition rule: a repeated position ends the play.
//!
//! Nothing here is trusted by `pnlab verify`, which checks the result with
//! the game rules alone.

use std::collections::{HashMap, HashSet};

use crate::certificate::{self, CertNode, Certificate, CertificateGoal, NodeBody};
use crate::game::{AnyPosition, Game};

use super::{Goal, Question, Search, SearchSetup, Status};

/// How a certificate was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Positions in the certificate.
    pub positions: usize,
    /// Single-move choices taken from the search's solved nodes.
    pub from_search: u64,
    /// Single-move choices the writer worked out itself.
    pub by_writer: u64,
}

/// Why a certificate could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The search has no answer to certify.
    #[error("no certificate: the search ended {0} (not proved or disproved)")]
    NotSolved(&'static str),
    /// A `within` position counting the other side's moves.
    #[error(
        "no certificate: the move limit counts {counted}'s moves but the question is {asked}'s"
    )]
    LimitOfTheOtherSide {
        /// The side whose moves the limit counts.
        counted: String,
        /// The side the question is about.
        asked: String,
    },
    /// The root's notation does not read back.
    #[error("no certificate: the root does not read back from its notation ({0})")]
    RootUnreadable(#[source] crate::game::ParseError),
    /// The root carries a history its notation cannot hold.
    #[error("no certificate: the root carries a history (earlier positions a repetition can reach) that a certificate cannot hold; search it from its notation")]
    RootHasHistory,
    /// The writer found no proof (or disproof) tree below the root.
    #[error("the search's answer ({}) could not be certified: no {} tree exists from the root", if *.proved { "proved" } else { "disproved" }, if *.proved { "proof" } else { "disproof" })]
    NoTree {
        /// The answer was "proved".
        proved: bool,
    },
    /// The writer's position budget ran out.
    #[error("the certificate writer's position budget ran out")]
    Budget,
}

/// Builds the certificate of `search`'s answer on `setup` (which must be
/// final: proved or disproved). `max_positions` caps the positions the
/// writer builds; past it the writing fails.
pub fn certificate(
    search: &dyn Search,
    setup: &SearchSetup,
    max_positions: u64,
) -> Result<(Certificate, ProofStats), ProofError> {
    let want = match search.status() {
        Status::Proved => true,
        Status::Disproved => false,
        other => return Err(ProofError::NotSolved(other.outcome_name())),
    };
    let q = setup.root_question();
    let (mut cert, stats) =
        crate::with_position!(&setup.position, g => write(g, q, want, search, max_positions))?;
    if let AnyPosition::Within(w) = &setup.position {
        if w.attacker() != q.attacker {
            return Err(ProofError::LimitOfTheOtherSide {
                counted: format!("{:?}", w.attacker()),
                asked: format!("{:?}", q.attacker),
            });
        }
        cert.within = Some(w.moves_left());
    }
    if let AnyPosition::Xiangqi(x) = setup.position.shown() {
        cert.repetition = Some(x.repetition());
    }
    // The checker starts from the root's notation: a root that carries a
    // history the notation does not hold (a xiangqi position reached by
    // moves, whose earlier positions can still repeat) would be checked
    // as another position.
    let rebuilt = certificate::verify::root(&cert).map_err(ProofError::RootUnreadable)?;
    if state(&rebuilt) != state(&setup.position) {
        return Err(ProofError::RootHasHistory);
    }
    Ok((cert, stats))
}

/// A position's hash and history key.
fn state(p: &AnyPosition) -> (u64, Vec<u64>) {
    crate::with_position!(p, g => (g.hash(), g.history_key()))
}

/// The certificate's goal for question `q`.
fn goal_of(q: &Question) -> CertificateGoal {
    match q.goal {
        Goal::Win => CertificateGoal::Win,
        Goal::NotLose => CertificateGoal::NotLose,
        Goal::AtLeast(v) => CertificateGoal::AtLeast(v),
    }
}

/// Builds the certificate that `q` evaluates to `want` at `root` (without
/// the mate limit and the repetition rule, which [`certificate`] adds
/// from the position it was given).
pub fn write<G: Game>(
    root: &G,
    q: Question,
    want: bool,
    search: &dyn Search,
    max_positions: u64,
) -> Result<(Certificate, ProofStats), ProofError> {
    let mut b = Builder {
        search,
        q,
        want,
        ids: HashMap::new(),
        nodes: Vec::new(),
        failed: HashSet::new(),
        on_path: HashSet::new(),
        budget: max_positions,
        path: Vec::new(),
        stats: ProofStats::default(),
        _game: std::marker::PhantomData,
    };
    let Some(root_id) = b.build(root)? else {
        return Err(ProofError::NoTree { proved: want });
    };
    let nodes = compact(&b.nodes, root_id);
    let mut stats = b.stats;
    stats.positions = nodes.len();
    let cert = Certificate {
        game: root.kind(),
        position: root.notation(),
        attacker: q.attacker,
        goal: goal_of(&q),
        within: None,
        repetition: None,
        proved: want,
        comments: vec![format!(
            "written by pnlab ({}): {} positions; {} single-move choices from the search's solved nodes, {} worked out by the writer",
            search.algo(),
            nodes.len(),
            stats.from_search,
            stats.by_writer
        )],
        nodes,
        position_line: 0,
    };
    Ok((cert, stats))
}

/// A position as the writer (and the checker) tells positions apart: its
/// hash and its history key.
type Key = (u64, Vec<u64>);

fn key_of<G: Game>(g: &G) -> Key {
    (g.hash(), g.history_key())
}

struct Builder<'a, G: Game> {
    search: &'a dyn Search,
    q: Question,
    want: bool,
    /// Position → node (built nodes only).
    ids: HashMap<Key, u32>,
    /// Built nodes, in the order they were finished (children first).
    nodes: Vec<NodeBody>,
    /// Positions known to have no tree.
    failed: HashSet<Key>,
    /// Positions on the current path (a cycle is no proof).
    on_path: HashSet<Key>,
    /// Positions the writer may still build.
    budget: u64,
    /// Child indices from the root (for [`Search::solved_at`]).
    path: Vec<u32>,
    stats: ProofStats,
    _game: std::marker::PhantomData<fn() -> G>,
}

/// A position whose node is being built: its moves, the order they are
/// tried in, and what its children gave so far. The writer keeps these
/// on a stack of its own rather than recursing, so a proof of any depth
/// is written (the call stack would end a few thousand plies down).
struct Frame<G: Game> {
    g: G,
    key: Key,
    moves: Vec<G::Move>,
    /// One move is needed here (else every move must be answered).
    one: bool,
    /// Child indices in the order they are tried.
    order: Vec<usize>,
    /// Of `order`, the first this many are the search's own choices.
    claimed: usize,
    /// The next entry of `order` to try.
    next: usize,
    /// The children answered so far (every-move nodes).
    list: Vec<(String, u32)>,
}

/// What entering a position gave: its node at once (a finished game, a
/// position already built or known to fail), or a frame to work through.
enum Entered<G: Game> {
    Done(Option<u32>),
    Open(Frame<G>),
}

impl<G: Game> Builder<'_, G> {
    /// Builds the tree of `root`: `Ok(Some(node))`, `Ok(None)` when it has
    /// none (the answer there is the other one, or only a cycle).
    fn build(&mut self, root: &G) -> Result<Option<u32>, ProofError> {
        let mut stack: Vec<Frame<G>> = Vec::new();
        let mut result = match self.enter(root)? {
            Entered::Done(r) => return Ok(r),
            Entered::Open(f) => {
                stack.push(f);
                None
            }
        };
        loop {
            // The root's frame closed: its result is the tree's.
            let Some(top) = stack.last_mut() else {
                return Ok(result.flatten());
            };
            // Hand the last child's result to its parent.
            if let Some(r) = result.take() {
                self.path.pop();
                let i = top.order[top.next - 1];
                let from_search = top.next <= top.claimed;
                let finished = match (top.one, r) {
                    (true, Some(id)) => {
                        if from_search {
                            self.stats.from_search += 1;
                        } else {
                            self.stats.by_writer += 1;
                        }
                        Some(Some(NodeBody::One(top.g.format_move(top.moves[i]), id)))
                    }
                    (true, None) => None,
                    (false, Some(id)) => {
                        top.list.push((top.g.format_move(top.moves[i]), id));
                        None
                    }
                    (false, None) => Some(None),
                };
                if let Some(body) = finished {
                    result = Some(self.close(&mut stack, body));
                    continue;
                }
            }
            if top.next == top.order.len() {
                let body = if top.one {
                    None
                } else {
                    Some(NodeBody::All(std::mem::take(&mut top.list)))
                };
                result = Some(self.close(&mut stack, body));
                continue;
            }
            let i = top.order[top.next];
            top.next += 1;
            let mut c = top.g.clone();
            c.play(top.moves[i]);
            self.path.push(i as u32);
            match self.enter(&c)? {
                Entered::Done(r) => result = Some(r),
                Entered::Open(f) => stack.push(f),
            }
        }
    }

    /// Starts on position `g`: its node when known at once, else its frame
    /// (the position is then on the path until [`Builder::close`]).
    fn enter(&mut self, g: &G) -> Result<Entered<G>, ProofError> {
        let key = key_of(g);
        if let Some(&id) = self.ids.get(&key) {
            return Ok(Entered::Done(Some(id)));
        }
        if self.failed.contains(&key) || self.on_path.contains(&key) {
            return Ok(Entered::Done(None));
        }
        if let Some(o) = g.outcome() {
            if self.q.holds(o) != self.want {
                self.failed.insert(key);
                return Ok(Entered::Done(None));
            }
            return Ok(Entered::Done(Some(self.add(key, NodeBody::End(o.score)))));
        }
        self.budget = self.budget.checked_sub(1).ok_or(ProofError::Budget)?;
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let one = (g.to_move() == self.q.attacker) == self.want;
        let (order, claimed) = if one {
            self.one_move_order(g, &moves)
        } else {
            ((0..moves.len()).collect(), 0)
        };
        self.on_path.insert(key.clone());
        Ok(Entered::Open(Frame {
            g: g.clone(),
            key,
            moves,
            one,
            order,
            claimed,
            next: 0,
            list: Vec::new(),
        }))
    }

    /// Ends the top frame with `body` (`None`: no tree there).
    fn close(&mut self, stack: &mut Vec<Frame<G>>, body: Option<NodeBody>) -> Option<u32> {
        let f = stack.pop()?;
        self.on_path.remove(&f.key);
        match body {
            Some(body) => Some(self.add(f.key, body)),
            None => {
                self.failed.insert(f.key);
                None
            }
        }
    }

    fn add(&mut self, key: Key, body: NodeBody) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(body);
        self.ids.insert(key, id);
        id
    }

    /// The order in which a node that needs one move tries its children:
    /// first a finished game that meets the claim or a child the search
    /// solved that way (searches keep finished games out of their
    /// tables, so both count as the search's choices), then the others.
    /// Returns the order and how many of it are the search's choices.
    fn one_move_order(&mut self, g: &G, moves: &[G::Move]) -> (Vec<usize>, usize) {
        let mut claimed = Vec::new();
        let mut others = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let mut c = g.clone();
            c.play(m);
            self.path.push(i as u32);
            let says = match c.outcome() {
                Some(o) => Some(self.q.holds(o)),
                None => self.search.solved_at(&self.path, c.hash()),
            };
            self.path.pop();
            if says == Some(self.want) {
                claimed.push(i);
            } else {
                others.push(i);
            }
        }
        let n = claimed.len();
        claimed.extend(others);
        (claimed, n)
    }
}

/// The nodes reachable from `root`, renumbered in depth-first order from
/// the root (node 0), children in listed order.
fn compact(nodes: &[NodeBody], root: u32) -> Vec<CertNode> {
    let mut new_id: HashMap<u32, u32> = HashMap::new();
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if new_id.contains_key(&n) {
            continue;
        }
        new_id.insert(n, order.len() as u32);
        order.push(n);
        let kids: Vec<u32> = match &nodes[n as usize] {
            NodeBody::One(_, c) => vec![*c],
            NodeBody::All(list) => list.iter().map(|(_, c)| *c).collect(),
            NodeBody::End(_) => Vec::new(),
        };
        stack.extend(kids.into_iter().rev());
    }
    order
        .iter()
        .enumerate()
        .map(|(i, &n)| CertNode {
            id: i as u32,
            body: match &nodes[n as usize] {
                NodeBody::One(m, c) => NodeBody::One(m.clone(), new_id[c]),
                NodeBody::All(list) => {
                    NodeBody::All(list.iter().map(|(m, c)| (m.clone(), new_id[c])).collect())
                }
                NodeBody::End(s) => NodeBody::End(*s),
            },
            line: 0,
        })
        .collect()
}
