//! The alpha-beta state machine: frames on an explicit stack, one node
//! visit per step (see the parent module for the rules).

use crate::game::eval::{order_tactical_first, WIN};
use crate::game::{Game, Player};
use crate::search::pn::{self, Pn, INF};
use crate::search::{Counters, QuestionKind, StatsSample, Status, StopReason};

use super::trace::{Role, Trace};
use super::{AlphaBetaOptions, CurvePoint, MoveOrder};

/// Window bounds beyond every evaluation (values are `i32`).
pub(super) const NEG_INF: i64 = i64::MIN;
pub(super) const POS_INF: i64 = i64::MAX;

/// One open node of the recursion.
#[derive(Clone)]
pub(super) struct Frame<G: Game> {
    pub(super) pos: G,
    /// Children in search order.
    pub(super) moves: Vec<G::Move>,
    /// Index of the next child to search.
    pub(super) next: usize,
    /// The window: MAX raises α, MIN lowers β (fail-hard).
    pub(super) alpha: i64,
    pub(super) beta: i64,
    pub(super) is_max: bool,
    /// min (MAX) or sum (MIN) of the children's SCNs so far.
    pub(super) scn: Pn,
    /// The child that set the value, if any.
    pub(super) best: Option<u32>,
    /// A cut-off ended the loop over the children.
    pub(super) cut: bool,
    /// This node in the recorded tree ([`NO_NODE`] when not recorded).
    pub(super) trace: u32,
}

/// What a leaf is worth: its value (MAX's view), SCN and kind.
#[derive(Clone, Copy, Debug)]
pub(super) struct LeafScore {
    pub(super) value: i64,
    pub(super) scn: Pn,
    pub(super) terminal: bool,
}

/// Alpha-beta with single conspiracy numbers on a game `G`, stepped from
/// outside (one node visit per step).
#[derive(Clone)]
pub struct AlphaBeta<G: Game> {
    pub(super) root: G,
    /// The MAX player (the root player).
    pub(super) max: Player,
    pub(super) question: QuestionKind,
    pub(super) opts: AlphaBetaOptions,
    /// The depth being searched (0 before the first).
    pub(super) depth: u32,
    /// Frames; the first `sp` are open, the rest keep their buffers.
    pub(super) frames: Vec<Frame<G>>,
    pub(super) sp: usize,
    /// Triangular principal-variation table, one line per ply.
    pv: Vec<Vec<G::Move>>,
    /// Node visits in the current depth.
    iter_nodes: u64,
    /// Whether the current depth met a leaf at its depth limit.
    iter_horizon: bool,
    pub(super) curve: Vec<CurvePoint>,
    /// The recorded tree of the current depth.
    pub(super) trace: Trace<G>,
    pub(super) counters: Counters,
    /// Cut-off children scored as leaves, over the whole run (without a
    /// recorded tree, children that cannot change the SCN are skipped).
    pub(super) cutoff_leaves: u64,
    status: Status,
}

impl<G: Game> AlphaBeta<G> {
    /// A search of `root` with `max` as the MAX player; `question` decides
    /// what a proven value answers.
    pub fn new(root: G, max: Player, question: QuestionKind, opts: AlphaBetaOptions) -> Self {
        let depth_cap = opts.max_depth as usize + 2;
        AlphaBeta {
            root,
            max,
            question,
            opts,
            depth: 0,
            frames: Vec::new(),
            sp: 0,
            pv: (0..depth_cap).map(|_| Vec::new()).collect(),
            iter_nodes: 0,
            iter_horizon: false,
            curve: Vec::new(),
            trace: Trace::new(opts.record_limit),
            counters: Counters::default(),
            cutoff_leaves: 0,
            status: Status::Running,
        }
    }

    /// The options of the run.
    pub fn options(&self) -> &AlphaBetaOptions {
        &self.opts
    }

    /// The completed depths so far: the value and SCN curves.
    pub fn curve(&self) -> &[CurvePoint] {
        &self.curve
    }

    /// Nodes visited over all depths: the nodes created less the cut-off
    /// children that were only scored.
    pub fn nodes_visited(&self) -> u64 {
        self.counters.nodes_created - self.cutoff_leaves
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// Steps until the run ends; returns the final status.
    pub fn run_to_end(&mut self) -> Status {
        while !self.status.is_final() {
            self.step_once();
        }
        self.status
    }

    /// A value on the evaluation scale (first player's view) seen by MAX.
    #[inline]
    fn for_max(&self, v: i32) -> i64 {
        let v = i64::from(v);
        if self.max == Player::First {
            v
        } else {
            -v
        }
    }

    /// Value and SCN of `g` taken as a leaf (at the depth limit, or an
    /// unsearched cut-off child): terminal value or static evaluation.
    #[inline]
    pub(super) fn leaf_score(&self, g: &G) -> LeafScore {
        let t = i64::from(self.opts.threshold);
        match g.outcome() {
            Some(o) => {
                let value = self.for_max(g.terminal_value(o));
                LeafScore {
                    value,
                    scn: if value >= t { 0 } else { INF },
                    terminal: true,
                }
            }
            None => {
                let value = self.for_max(g.evaluate().unwrap_or(0));
                LeafScore {
                    value,
                    scn: if value >= t { 0 } else { 1 },
                    terminal: false,
                }
            }
        }
    }

    /// Value and SCN of a finished game.
    #[inline]
    fn terminal_score(&self, g: &G) -> LeafScore {
        let t = i64::from(self.opts.threshold);
        let value = match g.outcome() {
            Some(o) => self.for_max(g.terminal_value(o)),
            // The contract says no moves ⇔ finished; stay total anyway.
            None => self.for_max(g.evaluate().unwrap_or(0)),
        };
        LeafScore {
            value,
            scn: if value >= t { 0 } else { INF },
            terminal: true,
        }
    }

    /// Runs one step: visits one node, then closes finished frames.
    fn step_once(&mut self) {
        self.counters.iterations += 1;
        if self.sp == 0 {
            self.start_depth();
        } else {
            self.visit_next_child();
        }
        self.unwind();
    }

    /// Begins the next depth (or finishes the run): visits the root.
    fn start_depth(&mut self) {
        if self.depth >= self.opts.max_depth {
            // Not reached: the last depth ends the run when it closes.
            self.finish();
            return;
        }
        self.depth += 1;
        self.iter_nodes = 0;
        self.iter_horizon = false;
        if let Some(last) = self.curve.last() {
            if last.exact {
                // The whole game tree fitted: a deeper search repeats it.
                let mut p = last.clone();
                p.depth = self.depth;
                self.curve.push(p);
                self.finish_if_last();
                return;
            }
        }
        self.trace.clear(self.depth);
        self.ensure_slot(0);
        self.frames[0].pos.clone_from(&self.root);
        self.counters.nodes_created += 1;
        self.iter_nodes = 1;
        let t = self.trace.add_root();
        if !self.open_frame(0, NEG_INF, POS_INF, t) {
            // A finished game at the root: one leaf.
            let s = self.terminal_score(&self.root);
            let is_max = self.root.to_move() == self.max;
            self.trace
                .set_leaf(t, s, Role::Terminal, is_max, NEG_INF, POS_INF);
            self.push_point(s.value, s.scn, None);
        }
    }

    /// Makes sure slot `ply` exists (slots keep their position and move
    /// buffer from one use to the next, so a game whose position owns heap
    /// memory reuses it through `clone_from`).
    #[inline]
    fn ensure_slot(&mut self, ply: usize) {
        while self.frames.len() <= ply {
            self.frames.push(Frame {
                pos: self.root.clone(),
                moves: Vec::new(),
                next: 0,
                alpha: NEG_INF,
                beta: POS_INF,
                is_max: true,
                scn: 0,
                best: None,
                cut: false,
                trace: super::trace::NO_NODE,
            });
        }
    }

    /// Opens the position already in slot `ply` as a frame (its ordered
    /// moves, window, empty SCN); false (nothing opened) when the position
    /// is a finished game.
    fn open_frame(&mut self, ply: usize, alpha: i64, beta: i64, trace: u32) -> bool {
        let order = self.opts.order;
        let max = self.max;
        let f = &mut self.frames[ply];
        f.moves.clear();
        f.pos.legal_moves(&mut f.moves);
        if f.moves.is_empty() {
            return false;
        }
        if order == MoveOrder::CapturesFirst {
            order_tactical_first(&f.pos, &mut f.moves);
        }
        let is_max = f.pos.to_move() == max;
        f.next = 0;
        f.alpha = alpha;
        f.beta = beta;
        f.is_max = is_max;
        f.scn = if is_max { INF } else { 0 };
        f.best = None;
        f.cut = false;
        f.trace = trace;
        let n = f.moves.len();
        self.counters.nodes_expanded += 1;
        self.counters.max_depth = self.counters.max_depth.max(ply as u32);
        self.pv[ply].clear();
        self.trace.open(trace, is_max, alpha, beta, n);
        self.sp = ply + 1;
        true
    }

    /// Searches the next child of the deepest open frame: a leaf is scored
    /// at once, an inner node gets a frame of its own.
    fn visit_next_child(&mut self) {
        let ply = self.sp; // the child's ply
        self.ensure_slot(ply);
        let (parents, rest) = self.frames.split_at_mut(ply);
        let top = &mut parents[ply - 1];
        let i = top.next;
        let m = top.moves[i];
        top.next += 1;
        let child = &mut rest[0];
        child.pos.clone_from(&top.pos);
        child.pos.play(m);
        let (alpha, beta) = if self.opts.prune {
            (top.alpha, top.beta)
        } else {
            (NEG_INF, POS_INF)
        };
        let parent_trace = top.trace;
        self.counters.nodes_created += 1;
        self.iter_nodes += 1;
        let t = self.trace.add_child(parent_trace, m, ply as u32);
        self.counters.max_depth = self.counters.max_depth.max(ply as u32);
        if ply as u32 >= self.depth {
            // The depth limit: finished games stay terminal.
            let s = self.leaf_score(&self.frames[ply].pos);
            let role = if s.terminal {
                Role::Terminal
            } else {
                self.iter_horizon = true;
                Role::Horizon
            };
            if self.trace.recording() {
                let is_max = self.frames[ply].pos.to_move() == self.max;
                self.trace.set_leaf(t, s, role, is_max, alpha, beta);
            }
            self.integrate(s.value, s.scn, i as u32, false);
        } else if !self.open_frame(ply, alpha, beta, t) {
            let s = self.terminal_score(&self.frames[ply].pos);
            if self.trace.recording() {
                let is_max = self.frames[ply].pos.to_move() == self.max;
                self.trace
                    .set_leaf(t, s, Role::Terminal, is_max, alpha, beta);
            }
            self.integrate(s.value, s.scn, i as u32, false);
        }
    }

    /// Folds child `i`'s value and SCN into the deepest open frame.
    fn integrate(&mut self, v: i64, scn: Pn, i: u32, inner: bool) {
        let ply = self.sp - 1;
        let prune = self.opts.prune;
        let f = &mut self.frames[ply];
        let improved = if f.is_max {
            f.scn = f.scn.min(scn);
            let up = v > f.alpha;
            if up {
                f.alpha = v;
            }
            f.cut = prune && f.alpha >= f.beta;
            up
        } else {
            f.scn = pn::add(f.scn, scn);
            let down = v < f.beta;
            if down {
                f.beta = v;
            }
            f.cut = prune && f.beta <= f.alpha;
            down
        };
        if improved {
            f.best = Some(i);
            let m = f.moves[i as usize];
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            let line = &mut head[ply];
            line.clear();
            line.push(m);
            if inner {
                line.extend_from_slice(&tail[0]);
            }
        }
    }

    /// Closes every frame that has searched its last child or been cut
    /// off, passing its value and SCN up; records the depth's point when
    /// the root closes.
    fn unwind(&mut self) {
        while self.sp > 0 {
            let k = self.sp - 1;
            let f = &self.frames[k];
            if !f.cut && f.next < f.moves.len() {
                return;
            }
            let mut scn = f.scn;
            let (is_max, cut, trace) = (f.is_max, f.cut, f.trace);
            if cut {
                scn = self.score_cutoff_children(k, scn);
            }
            let f = &self.frames[k];
            // Fail-hard: the value stays inside the window.
            let value = match (is_max, cut) {
                (true, true) => f.beta,
                (true, false) => f.alpha,
                (false, true) => f.alpha,
                (false, false) => f.beta,
            };
            let best = f.best;
            self.trace.close(trace, value, scn, best, cut);
            self.sp -= 1;
            if self.sp == 0 {
                self.push_point(value, scn, best);
                return;
            }
            let i = (self.frames[self.sp - 1].next - 1) as u32;
            self.integrate(value, scn, i, true);
        }
    }

    /// Scores the unsearched children of frame `k` after a cut-off as
    /// leaves and folds them into its SCN `scn`.
    fn score_cutoff_children(&mut self, k: usize, mut scn: Pn) -> Pn {
        let (is_max, next, n, trace) = {
            let f = &self.frames[k];
            (f.is_max, f.next, f.moves.len(), f.trace)
        };
        // Slot k + 1 is free once frame k closes: score the children there.
        self.ensure_slot(k + 1);
        let recording = self.trace.recording();
        for j in next..n {
            // min(0, ·) stays 0 and ∞ + · stays ∞: the remaining children
            // cannot change the SCN, so an unrecorded search skips them.
            if !recording && scn == if is_max { 0 } else { INF } {
                break;
            }
            let (parents, rest) = self.frames.split_at_mut(k + 1);
            let f = &parents[k];
            let m = f.moves[j];
            let child = &mut rest[0].pos;
            child.clone_from(&f.pos);
            child.play(m);
            let s = self.leaf_score(&self.frames[k + 1].pos);
            // A scored cut-off child is a created node (the recorded tree
            // holds it), though never visited: `nodes_visited` leaves it out.
            self.cutoff_leaves += 1;
            self.counters.nodes_created += 1;
            if self.trace.recording() {
                let t = self.trace.add_child(trace, m, k as u32 + 1);
                let child_max = self.frames[k + 1].pos.to_move() == self.max;
                self.trace
                    .set_leaf(t, s, Role::CutOff, child_max, NEG_INF, POS_INF);
            }
            scn = if is_max {
                scn.min(s.scn)
            } else {
                pn::add(scn, s.scn)
            };
        }
        scn
    }

    /// Records a finished depth.
    fn push_point(&mut self, value: i64, scn: Pn, best: Option<u32>) {
        let value = value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let pv = self.pv_names(best.is_some());
        self.curve.push(CurvePoint {
            depth: self.depth,
            value,
            scn,
            nodes: self.iter_nodes,
            best_move: pv.first().cloned(),
            pv,
            exact: !self.iter_horizon,
        });
        self.counters.live_nodes = self.trace.len() as u64;
        self.counters.peak_tree_bytes =
            self.counters.peak_tree_bytes.max(self.trace.bytes() as u64);
        self.finish_if_last();
    }

    /// Ends the run once the deepest depth has its point.
    fn finish_if_last(&mut self) {
        if self.depth >= self.opts.max_depth {
            self.finish();
        }
    }

    /// The root's principal variation in notation.
    fn pv_names(&self, has_best: bool) -> Vec<String> {
        if !has_best {
            return Vec::new();
        }
        let mut g = self.root.clone();
        let mut out = Vec::new();
        for &m in &self.pv[0] {
            out.push(g.format_move(m));
            g.play(m);
        }
        out
    }

    /// Ends the run after the last depth.
    fn finish(&mut self) {
        let Some(last) = self.curve.last() else {
            self.status = Status::Unknown(StopReason::DepthLimit);
            return;
        };
        let v = last.value;
        let holds = match self.question {
            QuestionKind::Win | QuestionKind::Score => v > 0,
            QuestionKind::NotLose => v >= 0,
        };
        self.status = if last.exact {
            if holds {
                Status::Proved
            } else {
                Status::Disproved
            }
        } else if v >= WIN {
            Status::Proved
        } else if v <= -WIN {
            Status::Disproved
        } else {
            Status::Unknown(StopReason::DepthLimit)
        };
    }

    /// The status of the run.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps once (the [`Search`](crate::search::Search) entry point).
    pub(super) fn step_search(&mut self) -> Status {
        if !self.status.is_final() {
            self.step_once();
        }
        self.status
    }

    /// Ends the run with `Unknown(reason)`.
    pub(super) fn stop_search(&mut self, reason: StopReason) {
        self.status.stop(reason);
    }

    /// A sample for the live curves: the root's numbers at the last
    /// completed depth.
    pub(super) fn sample_now(&self) -> StatsSample {
        let (value, scn) = self.curve.last().map_or((f64::NAN, f64::NAN), |p| {
            (f64::from(p.value), pn::to_f64(p.scn))
        });
        let root_values = vec![value, f64::NAN, f64::NAN, scn, f64::NAN, 0.0];
        StatsSample::of_tree(&self.counters, root_values, None)
    }
}
