//! The opponent-model search as a state machine: frames on an explicit
//! stack, one node visit per step (see the parent module for the rules).

use crate::game::{Game, Player};
use crate::search::Counters;

use super::{Model, OmOptions};

/// What kind of node a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OmKind {
    /// Not visited (left out by an opponent-model cut-off).
    Unvisited,
    /// An inner node searched to its children.
    Inner,
    /// An unfinished position at the depth limit (evaluated).
    Horizon,
    /// A finished game.
    Terminal,
}

/// One recorded node.
#[derive(Clone, Copy, Debug)]
pub struct OmRec<M> {
    /// The parent record ([`NO_REC`] at the root).
    pub parent: u32,
    /// Index among the parent's children (move order).
    pub child_index: u32,
    /// The move from the parent.
    pub mv: M,
    /// Whether MAX (the searcher) moves here.
    pub is_max: bool,
    /// Inner, horizon, terminal or unvisited.
    pub kind: OmKind,
    /// The searcher's value v (f1, MAX's choices, the model's replies).
    pub v: i64,
    /// The model's value v₂ (plain minimax on f2).
    pub v2: i64,
    /// The child that decided the node (MAX: highest v; MIN: the model's
    /// reply, lowest v₂).
    pub best: Option<u32>,
    /// The node stopped early: the opponent would not pick it.
    pub cut: bool,
    /// The first child's record ([`NO_REC`] when not recorded).
    pub first_child: u32,
    /// Number of children recorded.
    pub n_children: u32,
}

/// "No record".
pub const NO_REC: u32 = u32::MAX;

/// One open node.
#[derive(Clone)]
pub(super) struct Frame<G: Game> {
    pub(super) pos: G,
    pub(super) moves: Vec<G::Move>,
    pub(super) next: usize,
    pub(super) is_max: bool,
    pub(super) v: i64,
    pub(super) v2: i64,
    pub(super) best: Option<u32>,
    /// A MAX child of a MIN node stops once its v₂ reaches the parent's
    /// best v₂ (the opponent would not pick it).
    pub(super) bound2: i64,
    pub(super) cut: bool,
    pub(super) rec: u32,
    pub(super) ply: u32,
}

/// The opponent-model search on a game `G`.
#[derive(Clone)]
pub struct Engine<G: Game> {
    pub(super) root: G,
    pub(super) max: Player,
    pub(super) opts: OmOptions,
    pub(super) stack: Vec<Frame<G>>,
    pub(super) recs: Vec<OmRec<G::Move>>,
    pub(super) counters: Counters,
    /// The root's (v, v₂, best child) once done.
    pub(super) result: Option<(i64, i64, Option<u32>)>,
    /// Whether some leaf was cut by the depth limit.
    pub(super) horizon: bool,
    pub(super) om_cutoffs: u64,
    started: bool,
}

impl<G: Game> Engine<G> {
    /// A search of `root` for MAX player `max`.
    pub fn new(root: G, max: Player, opts: OmOptions) -> Engine<G> {
        Engine {
            root,
            max,
            opts,
            stack: Vec::new(),
            recs: Vec::new(),
            counters: Counters::default(),
            result: None,
            horizon: false,
            om_cutoffs: 0,
            started: false,
        }
    }

    /// A first-player value seen from MAX.
    fn for_max(&self, v: i32) -> i64 {
        let v = i64::from(v);
        if self.max == Player::First {
            v
        } else {
            -v
        }
    }

    /// (v, v₂, kind) of `g` as a leaf at `ply`, or `None` for an inner
    /// node.
    fn leaf(&mut self, g: &G, ply: u32) -> Option<(i64, i64, OmKind)> {
        if let Some(o) = g.outcome() {
            let t = self.for_max(g.terminal_value(o));
            // The contempt factor: MAX values a draw at −c (the model at 0).
            let v = if o.score == 0 {
                -i64::from(self.opts.contempt)
            } else {
                t
            };
            return Some((v, t, OmKind::Terminal));
        }
        if ply < self.opts.depth {
            return None;
        }
        self.horizon = true;
        let f = |m: Model| match m {
            Model::F1 => g.evaluate(),
            Model::F2 => g.evaluate_model().or(g.evaluate()),
        };
        let own = self.for_max(f(self.opts.own).unwrap_or(0));
        let model = self.for_max(f(self.opts.model).unwrap_or(0));
        Some((own, model, OmKind::Horizon))
    }

    fn record(&mut self, parent: u32, child_index: u32, mv: G::Move, is_max: bool) -> u32 {
        if self.recs.len() >= self.opts.record_limit {
            return NO_REC;
        }
        self.recs.push(OmRec {
            parent,
            child_index,
            mv,
            is_max,
            kind: OmKind::Unvisited,
            v: 0,
            v2: 0,
            best: None,
            cut: false,
            first_child: NO_REC,
            n_children: 0,
        });
        (self.recs.len() - 1) as u32
    }

    /// Visits `g` (one iteration): a leaf is scored, an inner node gets a
    /// frame. Returns the leaf's (v, v₂).
    fn visit(&mut self, g: G, ply: u32, bound2: i64, rec: u32) -> Option<(i64, i64)> {
        self.counters.iterations += 1;
        // A node is created once: the root when it is visited, a recorded
        // child when its parent records it (below), an unrecorded one
        // when it is visited. So the recorded tree (`live_nodes`) never
        // holds more than was created.
        if rec == NO_REC || ply == 0 {
            self.counters.nodes_created += 1;
        }
        self.counters.max_depth = self.counters.max_depth.max(ply);
        if let Some((v, v2, kind)) = self.leaf(&g, ply) {
            if let Some(r) = self.recs.get_mut(rec as usize) {
                (r.v, r.v2, r.kind) = (v, v2, kind);
            }
            return Some((v, v2));
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let is_max = g.to_move() == self.max;
        self.counters.nodes_expanded += 1;
        if rec != NO_REC {
            let first = self.recs.len() as u32;
            let mut all = true;
            for (i, &m) in moves.iter().enumerate() {
                let mut c = g.clone();
                c.play(m);
                let child_max = c.to_move() == self.max;
                all &= self.record(rec, i as u32, m, child_max) != NO_REC;
            }
            if all {
                self.counters.nodes_created += moves.len() as u64;
            } else {
                // The cap cut the children short: record none of them
                // (they are created when visited).
                self.recs.truncate(first as usize);
            }
            let r = &mut self.recs[rec as usize];
            r.kind = OmKind::Inner;
            if all {
                r.first_child = first;
                r.n_children = moves.len() as u32;
            }
        }
        self.stack.push(Frame {
            pos: g,
            moves,
            next: 0,
            is_max,
            v: 0,
            v2: 0,
            best: None,
            bound2,
            cut: false,
            rec,
            ply,
        });
        self.counters.live_nodes = self.recs.len() as u64;
        None
    }

    /// One step: one node visit, then the frames that are done close.
    pub fn step(&mut self) {
        if self.result.is_some() {
            return;
        }
        if !self.started {
            self.started = true;
            let root = self.root.clone();
            let is_max = root.to_move() == self.max;
            let rec = self.record(NO_REC, 0, G::Move::default(), is_max);
            if let Some((v, v2)) = self.visit(root, 0, i64::MAX, rec) {
                self.result = Some((v, v2, None));
            }
            return;
        }
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        let i = top.next;
        top.next += 1;
        let mut child = top.pos.clone();
        child.play(top.moves[i]);
        // The opponent (MIN) picks the least v₂: a MAX child needs no more
        // than to show that its v₂ is not below the best so far.
        let bound2 = if !top.is_max && top.best.is_some() && self.opts.prune {
            top.v2
        } else {
            i64::MAX
        };
        let (ply, rec) = (top.ply + 1, top.rec);
        let child_rec = match self.recs.get(rec as usize) {
            Some(r) if r.first_child != NO_REC => r.first_child + i as u32,
            _ => NO_REC,
        };
        if let Some((v, v2)) = self.visit(child, ply, bound2, child_rec) {
            self.integrate(v, v2, i as u32);
        }
        self.unwind();
    }

    /// Folds child `i`'s values into the top frame.
    fn integrate(&mut self, v: i64, v2: i64, i: u32) {
        let prune = self.opts.prune;
        let f = self.stack.last_mut().expect("a frame");
        let first = f.best.is_none();
        if f.is_max {
            if first || v > f.v {
                f.v = v;
                f.best = Some(i);
            }
            // The model thinks MAX plays minimax on f2 too.
            f.v2 = if first { v2 } else { f.v2.max(v2) };
            if prune && f.v2 >= f.bound2 && f.next < f.moves.len() {
                f.cut = true;
            }
        } else if first || v2 < f.v2 {
            // The opponent replies as the model says: least v₂.
            f.v2 = v2;
            f.v = v;
            f.best = Some(i);
        }
    }

    /// Closes finished frames, passing their values up.
    fn unwind(&mut self) {
        while let Some(f) = self.stack.last() {
            if !f.cut && f.next < f.moves.len() {
                return;
            }
            let f = self.stack.pop().expect("a frame");
            if f.cut {
                self.om_cutoffs += 1;
            }
            if let Some(r) = self.recs.get_mut(f.rec as usize) {
                (r.v, r.v2, r.best, r.cut) = (f.v, f.v2, f.best, f.cut);
            }
            if self.stack.is_empty() {
                self.result = Some((f.v, f.v2, f.best));
                return;
            }
            let i = (self.stack.last().expect("a parent").next - 1) as u32;
            self.integrate(f.v, f.v2, i);
        }
    }
}
