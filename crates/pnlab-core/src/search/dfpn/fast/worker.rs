//! One thread of the fast df-pn: the MID procedure (Nagai 2002) as
//! an explicit-stack state machine over the shared [`FastTable`], like
//! [`super::super::mid`] but with the options of `dfpn-fast`.
//!
//! One *event* is the entry of a MID call or its exit; [`Worker::step`]
//! runs events up to and including the next entry (one MID call). On
//! entry, a node the table already puts over its thresholds returns at
//! once; a node the frontier solver can answer is answered and returns;
//! otherwise its moves are generated and each child gets its numbers:
//! solved if the game is over there, the table's if it holds the child,
//! else the initial numbers of the chosen [`Init`]. With ordering on, the
//! children are sorted by their initial numbers (the loop's leftmost-least
//! rule then prefers them on ties) and the game's static preference.
//!
//! The loop at a node takes its children's numbers from the frame: c1's
//! are written by c1's exit. A parallel search has one main thread and
//! helpers. The main thread runs the sequential search: its loops keep
//! their own numbers and take from the table only children the helpers
//! have solved, so it does the sequential search's work less what the
//! helpers' proofs save it (it also starts the children it expands from
//! the table's numbers, as the sequential search does). A
//! helper's loop reads every unsolved child from the table again (other
//! threads change them) and chooses among the children under its
//! threshold by the child's number made worse by the threads working at
//! or below it ([`helper_penalty`], after Kaneko's (2010) virtual proof
//! and disproof numbers), which steers the helpers off the main thread's
//! path and off each other's and keeps them out of frontier solves under
//! way; its φ, δ and thresholds come from the children's own numbers.
//! The main thread paces the search: a step ends when it has run its
//! calls, and the helpers stop with it.
//!
//! Why the main thread: when every thread read every number from the
//! table, no thread kept df-pn's guarantee that a call returns only after
//! its node's numbers passed thresholds set from numbers it had itself
//! seen: threads entered nodes on one another's passing values and
//! returned at once, over and over. On two 16-empty Othello positions,
//! two threads then made 3–25 times the sequential calls or did not
//! finish in 8 s (and counting the virtual numbers into φ and δ, as an
//! earlier version did, was worse). `tests/dfpn_parallel.rs` holds every
//! variant to a few times the sequential calls.
//!
//! Solved numbers are never changed by the virtual part, and sums of
//! finite numbers stay finite, so a proof or disproof is only ever read
//! from a solved child: the answer is the sequential search's.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::clock::{self, Duration};
use crate::game::Game;
use crate::search::pn::{Pn, INF};
use crate::search::Question;

use super::super::mid::{solved, DfpnOptions};
use super::super::mid_loop::{self, ChildRead};
use super::root_move;
use super::rules::Rules;
use super::table::{Busy, FastTable};

/// At most this many yields of the main thread waiting for a helper's
/// frontier solve of the node it is entering (then it solves the node
/// itself).
const FRONTIER_WAIT_SPINS: u32 = 10_000;

/// How unknown children not in the table are initialised.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Init {
    /// (1, 1): plain df-pn (and the 1+ε trick).
    Unit,
    /// Deep df-pn's E^(D−d) (the [`DfpnOptions::deep`] pair).
    Deep,
    /// df-pn+ style (Nagai 2002) mobility: a node where the attacker moves
    /// needs one good move to be proved and a refutation of each of its m
    /// moves to be disproved, so it starts at (1, m); a defender's node at
    /// (m, 1).
    Mobility,
}

/// Everything a worker reads but does not own.
pub struct Shared<'a, G: Game, R: Rules<G>> {
    /// The transposition table all threads share.
    pub table: &'a FastTable,
    /// Game-specific speed-ups (frontier solver, move ordering hints).
    pub rules: &'a R,
    /// The attacker's question at the root.
    pub question: Question,
    /// The df-pn options common with `dfpn` (thresholds, 1+ε, deep pair).
    pub base: &'a DfpnOptions,
    /// How children missing from the table start.
    pub init: Init,
    /// Sort children by their initial numbers before the loop.
    pub order: bool,
    /// Read every child from the table at every loop (parallel searches).
    pub reread: bool,
    /// Set when some thread has solved the root (others stop).
    pub stop: &'a AtomicBool,
    /// Ties the struct to the game without holding a position.
    pub _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, R: Rules<G>> Shared<'_, G, R> {
    /// The initial numbers of an unknown node `g` with `m` legal moves
    /// (its mobility, from [`Rules::inspect`]) at depth `d`: what a
    /// parent counts for a child the table does not hold.
    pub fn initial(&self, g: &G, or: bool, m: u32, d: u32) -> (Pn, Pn) {
        match self.init {
            Init::Unit => (1, 1),
            Init::Deep => {
                let v = self.base.unknown_value(d);
                (v, v)
            }
            Init::Mobility => self.rules.initial(g, or, m),
        }
    }
}

/// A child of a frame.
#[derive(Clone, Debug)]
pub(super) struct Kid<G: Game> {
    pos: G,
    /// The child's table key.
    pub(super) hash: u64,
    mv: G::Move,
    /// The attacker moves at the child.
    or: bool,
    /// Numbers as the parent's loop last read them.
    pub(super) pn: Pn,
    /// See `pn`.
    pub(super) dn: Pn,
    /// Initial numbers when the table does not hold the child.
    pub(super) init: (Pn, Pn),
    /// Solved (game over, or read as solved): never read again.
    solved: bool,
}

/// One MID call on the path.
#[derive(Clone, Debug)]
pub struct Frame<G: Game> {
    /// The node's position.
    pub pos: G,
    /// The position's hash, the table key.
    pub hash: u64,
    /// The move from the parent (unused at the root).
    pub mv: G::Move,
    /// Index among the parent's children (after ordering).
    pub child_index: u32,
    /// Plies from the root.
    pub depth: u32,
    /// The attacker moves here (an OR node).
    pub or: bool,
    /// Proof-number threshold the parent gave this call.
    pub th_pn: Pn,
    /// Disproof-number threshold the parent gave this call.
    pub th_dn: Pn,
    /// The node's current proof number.
    pub pn: Pn,
    /// The node's current disproof number.
    pub dn: Pn,
    first: usize,
    count: usize,
    /// Work the table held for the node at entry.
    work0: u64,
    /// `calls` at entry.
    entered_at: u64,
    /// Write the numbers to the table on exit.
    store: bool,
    /// Counted in the busy array (parallel).
    busy: bool,
}

/// What one event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A MID call was entered (the step boundary).
    Enter,
    /// A MID call returned to its parent.
    Exit,
    /// The root call has returned: the worker has nothing left to do.
    Done,
}

/// Counts of one worker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerCounters {
    /// MID calls.
    pub calls: u64,
    /// Nodes whose moves were generated.
    pub expanded: u64,
    /// Positions written to the table that it did not hold.
    pub created: u64,
    /// Deepest frame so far, in plies.
    pub max_depth: u32,
    /// Entries into a node the search had left before (docs/algorithms.md §9).
    pub revisits: u64,
    /// Nodes answered by [`Rules::solve_leaf`]: the frontier solver, or
    /// the rules alone (a score threshold out of reach).
    pub leaf_solves: u64,
    /// Positions the frontier solver visited.
    pub leaf_nodes: u64,
    /// Calls that expanded a node and returned without entering a child:
    /// its numbers, read again from its children, were already over the
    /// thresholds the parent gave (wasted work; in a parallel search the
    /// sign of threads disagreeing about a node).
    pub idle_exits: u64,
    /// Main thread of a parallel search: children it found solved in the
    /// table while its own numbers had them open, and frontier solves it
    /// waited for a helper to finish instead of repeating them (work the
    /// helpers did for it).
    pub solved_by_helpers: u64,
}

/// One search thread's state.
#[derive(Clone, Debug)]
pub struct Worker<G: Game> {
    root: G,
    stack: Vec<Frame<G>>,
    kids: Vec<Kid<G>>,
    moves: Vec<G::Move>,
    started: bool,
    /// A helper thread of a parallel search (every worker but the
    /// first): it reads its children's numbers from the table at every
    /// loop and is steered by the virtual numbers. The first worker is
    /// the main thread: it runs the sequential search, taking only
    /// solved entries from the table (see the module comment).
    helper: bool,
    /// What this worker has done so far.
    pub counters: WorkerCounters,
    /// The root's (pn, dn) once this worker's root call returned.
    pub result: Option<(Pn, Pn)>,
    /// Root picks (the MID call's number and the move), oldest first, not
    /// yet collected by the search (root-switch events).
    pub root_picks: Vec<(u64, G::Move)>,
    /// The root child that settled the root for its mover, when the
    /// worker's root loop saw one (a root answered at entry has none).
    pub root_win: Option<G::Move>,
}

impl<G: Game> Worker<G> {
    /// A worker that will start at `root`; `helper` for every thread of
    /// a parallel search but the first.
    pub fn new(root: G, helper: bool) -> Worker<G> {
        Worker {
            root,
            stack: Vec::new(),
            kids: Vec::new(),
            moves: Vec::new(),
            started: false,
            helper,
            counters: WorkerCounters::default(),
            result: None,
            root_picks: Vec::new(),
            root_win: None,
        }
    }

    /// The current MID path, root first.
    pub fn frames(&self) -> &[Frame<G>] {
        &self.stack
    }

    /// The children of path frame `i` with the numbers its loop counts
    /// (empty when the call was answered at entry).
    pub(super) fn frame_kids(&self, i: usize) -> &[Kid<G>] {
        let f = &self.stack[i];
        &self.kids[f.first..f.first + f.count]
    }

    /// Runs events until the next MID entry (one call) or the end.
    pub fn step<R: Rules<G>>(&mut self, sh: &Shared<G, R>) -> Event {
        loop {
            match self.event(sh) {
                Event::Exit => {}
                e => return e,
            }
        }
    }

    /// Runs up to `calls` MID calls, stopping early when the root is
    /// solved here or elsewhere (`sh.stop`).
    pub fn run<R: Rules<G>>(&mut self, sh: &Shared<G, R>, calls: u64) {
        for _ in 0..calls {
            if sh.stop.load(Ordering::Relaxed) || self.step(sh) == Event::Done {
                return;
            }
        }
    }

    /// The main thread's share of a round: MID calls until `time` has
    /// passed (the clock is read every 64 calls) or `calls` are made, or
    /// the root is solved here or elsewhere.
    pub fn run_for<R: Rules<G>>(&mut self, sh: &Shared<G, R>, time: Duration, calls: u64) {
        let start = clock::now();
        for i in 0..calls {
            if sh.stop.load(Ordering::Relaxed) || self.step(sh) == Event::Done {
                return;
            }
            if i % 64 == 63 && start.elapsed() >= time {
                return;
            }
        }
    }

    /// A helper's share of a round: MID calls until `round_over` is set
    /// (the main thread has run its calls) or the root is solved, at most
    /// `cap`. Pacing helpers by the main thread, rather than giving every
    /// thread the same number of calls, keeps the main thread — the
    /// critical path — from waiting at the end of a round for a helper
    /// whose calls happened to be dearer (a frontier solve costs from
    /// microseconds to milliseconds).
    pub fn run_until<R: Rules<G>>(&mut self, sh: &Shared<G, R>, round_over: &AtomicBool, cap: u64) {
        for _ in 0..cap {
            if round_over.load(Ordering::Relaxed)
                || sh.stop.load(Ordering::Relaxed)
                || self.step(sh) == Event::Done
            {
                return;
            }
        }
    }

    /// Gives up the path (the search is over): the busy counters are
    /// released.
    pub fn abandon<R: Rules<G>>(&mut self, sh: &Shared<G, R>) {
        for f in self.stack.drain(..) {
            if f.busy {
                sh.table.leave_busy(f.hash, Busy::Path);
            }
        }
        self.kids.clear();
    }

    /// One event: a MID entry or exit.
    fn event<R: Rules<G>>(&mut self, sh: &Shared<G, R>) -> Event {
        if self.result.is_some() {
            return Event::Done;
        }
        if !self.started {
            self.started = true;
            let root = self.root.clone();
            let or = root.to_move() == sh.question.attacker;
            let init = match sh.rules.inspect(&root) {
                Ok(m) => sh.initial(&root, or, m, 0),
                Err(o) => solved(sh.question.holds(o)),
            };
            self.enter(sh, root, G::Move::default(), 0, 0, or, (INF, INF), init);
            return Event::Enter;
        }
        let Some(top) = self.stack.last() else {
            return Event::Done;
        };
        if top.count == 0 {
            let (p, d) = (top.pn, top.dn);
            return self.exit(sh, p, d);
        }
        let (first, count, or) = (top.first, top.count, top.or);
        let th = (top.th_pn, top.th_dn);
        // The loop's numbers (Nagai 2002). φ, δ and the thresholds use the
        // children's own numbers; the virtual numbers of a parallel search
        // (a child's a plus the threads below it) only choose which child
        // to enter, among those under thφ(n) (see the module comment:
        // counting them in φ and δ made threads push each other out of
        // their nodes). The chosen child's own a is at most its virtual
        // a ≤ δ2 < thδ(c1), so it never returns at once.
        let kids = &mut self.kids[first..first + count];
        let counters = &mut self.counters;
        let helper = self.helper;
        let read = |i: usize| {
            let k = &mut kids[i];
            if k.solved || !sh.reread {
                return ChildRead::plain(k.pn, k.dn);
            }
            if !helper {
                // The main thread keeps the sequential search's numbers
                // (its own frames) and takes from the table only what
                // the helpers have solved.
                match sh.table.probe(k.hash) {
                    Some(e) if e.pn == 0 || e.dn == 0 => {
                        (k.pn, k.dn) = (e.pn, e.dn);
                        k.solved = true;
                        counters.solved_by_helpers += 1;
                    }
                    _ => {}
                }
                return ChildRead::plain(k.pn, k.dn);
            }
            (k.pn, k.dn) = match sh.table.probe(k.hash) {
                Some(e) => (e.pn, e.dn),
                None => k.init,
            };
            if k.pn == 0 || k.dn == 0 {
                k.solved = true;
                return ChildRead::plain(k.pn, k.dn);
            }
            let a = if or { k.pn } else { k.dn };
            ChildRead {
                pn: k.pn,
                dn: k.dn,
                extra: helper_penalty(a, sh.table.busy(k.hash)),
            }
        };
        let pass = mid_loop::pass(or, th, count, read, |d| sh.base.second_threshold(d));
        let top = self.stack.last_mut().expect("a frame");
        (top.pn, top.dn) = (pass.pn, pass.dn);
        let Some((best, th)) = pass.descend else {
            return self.exit(sh, pass.pn, pass.dn);
        };
        let best = best as usize;
        let depth = top.depth;
        let k = &self.kids[first + best];
        if depth == 0 {
            self.root_picks.push((self.counters.calls + 1, k.mv));
        }
        let (pos, mv, kid_or, init) = (k.pos.clone(), k.mv, k.or, (k.pn, k.dn));
        self.enter(sh, pos, mv, best as u32, depth + 1, kid_or, th, init);
        Event::Enter
    }

    /// Enters MID at `pos` with thresholds `th` = (th_pn, th_dn); `init`
    /// are its numbers as the parent saw them.
    #[allow(clippy::too_many_arguments)]
    fn enter<R: Rules<G>>(
        &mut self,
        sh: &Shared<G, R>,
        pos: G,
        mv: G::Move,
        child_index: u32,
        depth: u32,
        or: bool,
        th: (Pn, Pn),
        init: (Pn, Pn),
    ) {
        self.counters.calls += 1;
        self.counters.max_depth = self.counters.max_depth.max(depth);
        let hash = sh.rules.key(&pos);
        let known = sh.table.probe(hash);
        let (pn0, dn0, work0) = match known {
            Some(e) => {
                if e.left {
                    self.counters.revisits += 1;
                }
                (e.pn, e.dn, e.work)
            }
            None => (init.0, init.1, 0),
        };
        let mut frame = Frame {
            pos,
            hash,
            mv,
            child_index,
            depth,
            or,
            th_pn: th.0,
            th_dn: th.1,
            pn: pn0,
            dn: dn0,
            first: self.kids.len(),
            count: 0,
            work0,
            entered_at: self.counters.calls,
            store: false,
            busy: false,
        };
        let solved_now = pn0 == 0 || dn0 == 0;
        if solved_now || (known.is_some() && (pn0 >= th.0 || dn0 >= th.1)) {
            // The table already answers the call (Algorithm 2, step 1).
            self.stack.push(frame);
            return;
        }
        if sh.reread && !self.helper && sh.table.busy(hash).1 > 0 {
            // A helper is answering this node with the frontier solver:
            // its answer comes sooner than the main thread's own solve
            // would, so the main thread waits for it (a frontier solve
            // always ends; a shared counter slot only delays the wait).
            // Helpers run at idle priority: on a busy machine one may
            // not be scheduled for a while, so the wait is bounded and
            // the main thread then solves the node itself.
            let mut spins = 0u32;
            while sh.table.busy(hash).1 > 0
                && !sh.stop.load(Ordering::Relaxed)
                && spins < FRONTIER_WAIT_SPINS
            {
                std::thread::yield_now();
                spins += 1;
            }
            if let Some(e) = sh.table.probe(hash) {
                if e.pn == 0 || e.dn == 0 {
                    self.counters.solved_by_helpers += 1;
                    (frame.pn, frame.dn) = (e.pn, e.dn);
                    self.stack.push(frame);
                    return;
                }
            }
        }
        let mut leaf_nodes = 0;
        if sh.reread {
            sh.table.enter_busy(hash, Busy::Frontier);
        }
        let leaf = sh
            .rules
            .solve_leaf(&frame.pos, &sh.question, &mut leaf_nodes);
        if sh.reread {
            sh.table.leave_busy(hash, Busy::Frontier);
        }
        if let Some(win) = leaf {
            self.counters.leaf_solves += 1;
            self.counters.leaf_nodes += leaf_nodes;
            (frame.pn, frame.dn) = solved(win);
            if sh
                .table
                .store(hash, frame.pn, frame.dn, work0 + leaf_nodes, true)
            {
                self.counters.created += 1;
            }
            self.stack.push(frame);
            return;
        }
        self.counters.expanded += 1;
        self.moves.clear();
        sh.rules.moves(&frame.pos, &mut self.moves);
        for &m in &self.moves {
            let mut c = frame.pos.clone();
            c.play(m);
            let h = sh.rules.key(&c);
            let c_or = c.to_move() == sh.question.attacker;
            let (numbers, init, is_solved) = match sh.rules.inspect(&c) {
                Err(o) => {
                    let t = solved(sh.question.holds(o));
                    (t, t, true)
                }
                Ok(mobility) => {
                    let init = sh.initial(&c, c_or, mobility, depth + 1);
                    match sh.table.probe(h) {
                        Some(e) => ((e.pn, e.dn), init, e.pn == 0 || e.dn == 0),
                        None => (init, init, false),
                    }
                }
            };
            self.kids.push(Kid {
                pos: c,
                hash: h,
                mv: m,
                or: c_or,
                pn: numbers.0,
                dn: numbers.1,
                init,
                solved: is_solved,
            });
        }
        frame.count = self.moves.len();
        if sh.order {
            let kids = &mut self.kids[frame.first..];
            let key = |k: &Kid<G>| {
                let a = if or { k.pn } else { k.dn };
                (a, sh.rules.order_key(&frame.pos, k.mv))
            };
            kids.sort_by_key(key);
        }
        frame.store = true;
        if sh.reread {
            sh.table.enter_busy(hash, Busy::Path);
            frame.busy = true;
        }
        self.stack.push(frame);
    }

    /// Leaves the top MID call with (pn, dn).
    fn exit<R: Rules<G>>(&mut self, sh: &Shared<G, R>, pn_now: Pn, dn_now: Pn) -> Event {
        let f = self.stack.pop().expect("exit with a frame");
        if self.stack.is_empty() {
            let kids = &self.kids[f.first..f.first + f.count];
            self.root_win = root_move::solving_child(f.or, kids.iter().map(|k| (k.mv, k.pn, k.dn)));
        }
        self.kids.truncate(f.first);
        if f.busy {
            sh.table.leave_busy(f.hash, Busy::Path);
        }
        if f.store {
            if self.counters.calls == f.entered_at {
                self.counters.idle_exits += 1;
            }
            let work = f.work0 + (self.counters.calls - f.entered_at + 1);
            if sh.table.store(f.hash, pn_now, dn_now, work, true) {
                self.counters.created += 1;
            }
        }
        match self.stack.last() {
            Some(parent) => {
                let k = &mut self.kids[parent.first + f.child_index as usize];
                (k.pn, k.dn) = (pn_now, dn_now);
                k.solved = pn_now == 0 || dn_now == 0;
            }
            None => {
                self.result = Some((pn_now, dn_now));
                sh.stop.store(true, Ordering::Relaxed);
                return Event::Done;
            }
        }
        Event::Exit
    }

    /// The move of the root child the worker's root frame would pick now,
    /// and all root children's numbers, while the root call runs.
    pub fn root_children(&self) -> Vec<(G::Move, Pn, Pn)> {
        match self.stack.first() {
            Some(f) => self.kids[f.first..f.first + f.count]
                .iter()
                .map(|k| (k.mv, k.pn, k.dn))
                .collect(),
            None => Vec::new(),
        }
    }
}

/// What a helper adds to a child's number `a` (the one the loop
/// minimises) when choosing among children: Kaneko's (2010) virtual
/// numbers, from the child's busy counts (MID frames open at or below it,
/// frontier solves of it).
///
/// - A child some thread is answering with the frontier solver is all but
///   ruled out: its answer is at most milliseconds away, and a second
///   solve would repeat all of it.
/// - A child with v threads' frames below it counts (1 + v)·a + v: a
///   helper leaves the path of the main thread (and of other helpers) for
///   a sibling up to twice as costly, which is the work the main thread
///   is likeliest to need next (the sibling it turns to when its child's
///   number passes the threshold, or the next child to prove at a node
///   that needs all of them). Kaneko's + v alone only breaks ties: a
///   helper then mostly followed the main thread down and solved nodes
///   next to it that it never needed (on the first 7 `connect4-l1r3`
///   positions the main thread's frontier work fell by 16 % with + v, by
///   about 40 % with (1 + v)·a + v).
fn helper_penalty(a: Pn, (frames, frontier): (u32, u32)) -> Pn {
    if frontier > 0 {
        FRONTIER_PENALTY
    } else {
        a.saturating_mul(frames)
            .saturating_add(frames)
            .min(FRONTIER_PENALTY)
    }
}

/// A helper's virtual addition for a child under a frontier solve (the
/// most it adds to any child): large, so it goes anywhere else under its
/// threshold first, but finite, so sums and thresholds stay finite and it
/// can still enter the child when it has nowhere else to go.
const FRONTIER_PENALTY: Pn = 1 << 24;
