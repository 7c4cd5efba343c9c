//! Writing proof certificates (see [`crate::certificate`]) for a search
//! that proved or disproved its root.
//!
//! The writer walks the game from the root and builds the proof (or
//! disproof) tree position by position. Where one move is needed, it
//! takes a move the search itself marked as solved the right way
//! ([`Search::solved_at`]: the tree searches read their tree, the df-pn
//! family its table); where the search holds nothing for a position (a
//! table entry replaced, a subtree answered by a frontier solver, a search
//! that keeps no tree), it finds a move by an exhaustive AND/OR evaluation
//! of its own ([`reference::answer_bounded`]). Where every move must be
//! answered, every child is built. A position reached twice is written
//! once. The certificate's comment says how many choices came from the
//! search and how many the writer worked out, so a certificate of a
//! search's own proof is told apart from one the writer had to complete.
//!
//! Nothing here is trusted by `pnlab verify`, which checks the result with
//! the game rules alone.

use std::collections::{HashMap, HashSet};

use crate::certificate::{CertNode, Certificate, CertificateGoal, NodeBody};
use crate::game::Game;

use super::{reference, Goal, Question, Search, SearchSetup, Status};

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

/// Builds the certificate of `search`'s answer on `setup` (which must be
/// final: proved or disproved). `max_positions` caps the writer's own
/// evaluation; past it the writing fails.
pub fn certificate(
    search: &dyn Search,
    setup: &SearchSetup,
    max_positions: u64,
) -> Result<(Certificate, ProofStats), String> {
    let want = match search.status() {
        Status::Proved => true,
        Status::Disproved => false,
        other => {
            return Err(format!(
                "no certificate: the search ended {} (not proved or disproved)",
                other.outcome_name()
            ))
        }
    };
    let q = setup.root_question();
    crate::with_position!(&setup.position, g => write(g, q, want, search, max_positions))
}

/// The certificate's goal for question `q`.
fn goal_of(q: &Question) -> CertificateGoal {
    match q.goal {
        Goal::Win => CertificateGoal::Win,
        Goal::NotLose => CertificateGoal::NotLose,
        Goal::AtLeast(v) => CertificateGoal::AtLeast(v),
    }
}

/// Builds the certificate that `q` evaluates to `want` at `root`.
pub fn write<G: Game>(
    root: &G,
    q: Question,
    want: bool,
    search: &dyn Search,
    max_positions: u64,
) -> Result<(Certificate, ProofStats), String> {
    let mut b = Builder {
        search,
        q,
        want,
        ids: HashMap::new(),
        nodes: Vec::new(),
        failed: HashSet::new(),
        on_path: HashSet::new(),
        memo: HashMap::new(),
        budget: max_positions,
        path: Vec::new(),
        stats: ProofStats::default(),
        _game: std::marker::PhantomData,
    };
    let Some(root_id) = b.build(root)? else {
        return Err(format!(
            "the search's answer ({}) could not be certified: no {} tree exists from the root",
            if want { "proved" } else { "disproved" },
            if want { "proof" } else { "disproof" }
        ));
    };
    let nodes = compact(&b.nodes, root_id);
    let mut stats = b.stats;
    stats.positions = nodes.len();
    let cert = Certificate {
        game: root.kind(),
        position: root.notation(),
        attacker: q.attacker,
        goal: goal_of(&q),
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

struct Builder<'a, G: Game> {
    search: &'a dyn Search,
    q: Question,
    want: bool,
    /// Position hash → node (built nodes only).
    ids: HashMap<u64, u32>,
    /// Built nodes, in the order they were finished (children first).
    nodes: Vec<NodeBody>,
    /// Positions known to have no tree.
    failed: HashSet<u64>,
    /// Positions on the current path (a cycle is no proof).
    on_path: HashSet<u64>,
    /// The writer's own exact evaluation: position → does q hold.
    memo: HashMap<u64, bool>,
    budget: u64,
    /// Child indices from the root (for [`Search::solved_at`]).
    path: Vec<u32>,
    stats: ProofStats,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Builder<'_, G> {
    /// Does `q` evaluate to `want` at `g`, by the writer's own evaluation?
    fn holds(&mut self, g: &G) -> Result<bool, String> {
        reference::answer_bounded(g, &self.q, &mut self.memo, &mut self.budget)
            .map(|v| v == self.want)
            .ok_or_else(|| "the certificate writer's position budget ran out".to_string())
    }

    /// Builds the tree of `g`: `Ok(Some(node))`, `Ok(None)` when `g` has
    /// none (the answer there is the other one, or only a cycle).
    fn build(&mut self, g: &G) -> Result<Option<u32>, String> {
        let h = g.hash();
        if let Some(&id) = self.ids.get(&h) {
            return Ok(Some(id));
        }
        if self.failed.contains(&h) || self.on_path.contains(&h) {
            return Ok(None);
        }
        if let Some(o) = g.outcome() {
            if self.q.holds(o) != self.want {
                self.failed.insert(h);
                return Ok(None);
            }
            return Ok(Some(self.add(h, NodeBody::End(o.score))));
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let one = (g.to_move() == self.q.attacker) == self.want;
        self.on_path.insert(h);
        let body = if one {
            self.build_one(g, &moves)?
        } else {
            self.build_all(g, &moves)?
        };
        self.on_path.remove(&h);
        Ok(match body {
            Some(body) => Some(self.add(h, body)),
            None => {
                self.failed.insert(h);
                None
            }
        })
    }

    fn add(&mut self, h: u64, body: NodeBody) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(body);
        self.ids.insert(h, id);
        id
    }

    /// Tries `g`'s child by move index `i`.
    fn child(&mut self, g: &G, moves: &[G::Move], i: usize) -> Result<Option<u32>, String> {
        let mut c = g.clone();
        c.play(moves[i]);
        self.path.push(i as u32);
        let r = self.build(&c);
        self.path.pop();
        r
    }

    /// A node that needs one move: a finished game that meets the claim or
    /// a child the search solved that way (searches keep finished games out
    /// of their tables, so both count as the search's choices), then a
    /// child the writer's evaluation confirms.
    fn build_one(&mut self, g: &G, moves: &[G::Move]) -> Result<Option<NodeBody>, String> {
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
        for i in claimed {
            if let Some(id) = self.child(g, moves, i)? {
                self.stats.from_search += 1;
                return Ok(Some(NodeBody::One(g.format_move(moves[i]), id)));
            }
        }
        for i in others {
            let mut c = g.clone();
            c.play(moves[i]);
            if !self.holds(&c)? {
                continue;
            }
            if let Some(id) = self.child(g, moves, i)? {
                self.stats.by_writer += 1;
                return Ok(Some(NodeBody::One(g.format_move(moves[i]), id)));
            }
        }
        Ok(None)
    }

    /// A node where every move must be answered.
    fn build_all(&mut self, g: &G, moves: &[G::Move]) -> Result<Option<NodeBody>, String> {
        let mut list = Vec::with_capacity(moves.len());
        for i in 0..moves.len() {
            match self.child(g, moves, i)? {
                Some(id) => list.push((g.format_move(moves[i]), id)),
                None => return Ok(None),
            }
        }
        Ok(Some(NodeBody::All(list)))
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
