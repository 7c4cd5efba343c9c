//! The MID procedure of df-pn (Nagai 2002) as an explicit-stack state
//! machine, docs/algorithms.md §4, with the 1+ε threshold and the Deep df-pn
//! initialisation as options.
//!
//! One *event* is either the entry of a MID call (a frame is pushed, the
//! node's moves are generated and its table entry is created) or its exit
//! (the frame's (pn, dn) are stored and the frame is popped). [`Dfpn::step`]
//! runs events up to and including the next entry, so one step is exactly
//! one MID call (`iterations` = MID calls, §0); [`Dfpn::step_event`] runs a
//! single event for the app's finer stepping.
//!
//! Choices the spec leaves open, written down here:
//! - Children that are terminal positions are evaluated when their parent
//!   is entered (as PNS evaluates terminal children at expansion) and are
//!   not stored in the table; MID is never called on them.
//! - The loop of MID at node n uses its children's numbers as the table
//!   holds them each time control comes back to n (kept in the frame and
//!   re-read only where they may have changed, which gives the same
//!   numbers; see `refresh_top_children`). A child not in the table counts
//!   (1, 1) in df-pn and E^(D−d) at depth d in Deep df-pn.
//! - `nodes_expanded` counts MID entries that generated the node's moves
//!   (entries that exit at once because the table already puts the node
//!   over its thresholds do not); `nodes_created` counts new table
//!   entries.
//! - Numbers are handled in the parent's frame: "a" is the child number
//!   the parent minimises (its φ side: pn at OR, dn at AND), "b" the one it
//!   sums. With alternating moves a = δ(c) and b = φ(c), which is the
//!   textbook formula; a child of the same kind as its parent (a player
//!   moving twice) is handled by the same code.

use crate::game::Game;
use crate::search::pn::{Pn, INF};
use crate::search::seesaw::{note_pick, RootSwitches, NO_PICK};
use crate::search::{Counters, Question, Status, StopReason};

use super::ghi::{self, Ghi};
pub use super::mid_loop::LoopValues;
use super::mid_loop::{self, ChildRead};
pub use super::options::DfpnOptions;
use super::path_filter::PathFilter;
use super::team::{self, Link, Team};
use super::tt::{Entry, KeySet, Table, DEP, LEFT};

/// A child of a frame, recorded when the frame's node is entered.
#[derive(Clone, Copy, Debug)]
pub struct Child<M> {
    /// The move from the frame's node to this child.
    pub mv: M,
    /// The child's hash, its table key.
    pub hash: u64,
    /// The attacker moves at the child.
    pub or: bool,
    /// (pn, dn) of a terminal child.
    pub terminal: Option<(Pn, Pn)>,
    /// Its solved numbers rest on the path (a repetition, or a result
    /// stored under the path set; `dfpn-ghi` only).
    pub dep: bool,
}

/// One MID call on the path.
#[derive(Clone, Debug)]
pub struct Frame<G: Game> {
    /// The node's position.
    pub pos: G,
    /// The position's hash, the table key.
    pub hash: u64,
    /// Move from the parent frame (meaningless at the root).
    pub mv: G::Move,
    /// Index of this node among the parent's children.
    pub child_index: u32,
    /// Plies from the root.
    pub depth: u32,
    /// The attacker moves here (an OR node).
    pub or: bool,
    /// Thresholds on pn and dn (thφ/thδ are these seen from `or`).
    pub th_pn: Pn,
    /// See `th_pn`.
    pub th_dn: Pn,
    /// The node's numbers as last computed by the loop.
    pub pn: Pn,
    /// See `pn`.
    pub dn: Pn,
    /// This frame's children in `Dfpn::children[first..first + count]`.
    pub first: usize,
    /// Number of children (0 for a terminal node).
    pub count: usize,
    /// The child being searched (index), if any.
    pub pick: Option<u32>,
    /// `iterations` when the call was entered (its work on exit).
    pub entered_at: u64,
    /// The node's last pick (seesaw, §9), kept here during the call and
    /// written back to the table entry on exit.
    pub last_pick: u16,
    /// The `Dfpn::epoch` of the frame's last full read of its children.
    epoch: u64,
}

impl<G: Game> Frame<G> {
    /// (thφ, thδ).
    pub fn thresholds_phi_delta(&self) -> (Pn, Pn) {
        if self.or {
            (self.th_pn, self.th_dn)
        } else {
            (self.th_dn, self.th_pn)
        }
    }
    /// (φ, δ).
    pub fn phi_delta(&self) -> (Pn, Pn) {
        if self.or {
            (self.pn, self.dn)
        } else {
            (self.dn, self.pn)
        }
    }
}

/// What one event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A MID call was entered at this depth.
    Enter {
        /// Plies from the root of the entered node.
        depth: u32,
    },
    /// A MID call at this depth returned.
    Exit {
        /// Plies from the root of the node that returned.
        depth: u32,
    },
    /// The search is over (status is final).
    Done,
}

/// df-pn and its variants on a game `G`.
#[derive(Clone)]
pub struct Dfpn<G: Game> {
    pub(super) name: &'static str,
    pub(super) root_pos: G,
    pub(super) question: Question,
    pub(super) opts: DfpnOptions,
    pub(super) table: Table,
    pub(super) stack: Vec<Frame<G>>,
    pub(super) children: Vec<Child<G::Move>>,
    /// The positions and numbers of `children`, index for index.
    pub(super) kids: Vec<Kid<G>>,
    /// Which positions may be children of path nodes.
    filter: PathFilter,
    /// Bumped when the filter reports a possible transposition: frames
    /// whose `epoch` differs re-read all their children.
    epoch: u64,
    pub(super) status: Status,
    pub(super) counters: Counters,
    pub(super) root_switches: RootSwitches,
    /// Root (pn, dn) once the root call has returned or the root is
    /// terminal.
    pub(super) root_result: Option<(Pn, Pn)>,
    started: bool,
    moves: Vec<G::Move>,
    /// Positions expanded so far, when re-expansions are counted (the
    /// memory-budget experiment; instrumentation outside the budget).
    expanded_once: Option<std::collections::HashSet<u64>>,
    /// Expansions of positions expanded before in this run.
    re_expansions: u64,
    /// The root's game is history-dependent (repetitions may occur).
    pub(super) history: bool,
    /// `history` and [`Ghi::Exact`]: table keys include the path
    /// ([`Dfpn::key`]).
    pub(super) exact: bool,
    /// This thread's place in a parallel search ([`super::team`]).
    pub(super) link: Option<Link>,
    /// A parallel search's helpers, held by its main thread.
    pub(super) team: Option<Box<Team<G>>>,
}

/// A child's position (MID enters c1 from it instead of replaying the
/// move) and its numbers as the node's loop last read them.
#[derive(Clone, Debug)]
pub(super) struct Kid<G> {
    pub(super) pos: G,
    pub(super) pn: Pn,
    pub(super) dn: Pn,
}

/// (pn, dn) of a child from the table (`unknown` when absent), noting a
/// child read as solved in `c.terminal` so that later reads skip it.
#[inline]
fn read_child<M>(table: &Table, c: &mut Child<M>, unknown: Pn) -> (Pn, Pn) {
    match c.terminal {
        Some(t) => t,
        None => match table.get(c.hash) {
            Some(e) => {
                if e.pn == 0 || e.dn == 0 {
                    c.terminal = Some((e.pn, e.dn));
                }
                (e.pn, e.dn)
            }
            None => (unknown, unknown),
        },
    }
}

/// The keys a collection pass must keep besides the path's entries
/// (which are marked): the children of every node on the MID path.
pub(super) fn protected_keys<M>(children: &[Child<M>]) -> KeySet {
    children.iter().map(|c| c.hash).collect()
}

/// [`Dfpn::key`] without borrowing the search.
#[inline]
fn key_of<G: Game>(exact: bool, g: &G) -> u64 {
    if exact {
        ghi::path_entry_key(g.hash(), g.path_hash())
    } else {
        g.hash()
    }
}

/// The numbers of a solved node.
#[inline]
pub fn solved(proven: bool) -> (Pn, Pn) {
    if proven {
        (0, INF)
    } else {
        (INF, 0)
    }
}

impl<G: Game> Dfpn<G> {
    /// Stores a new entry for `hash` with numbers (`pn`, `dn`), marked as
    /// on the MID path, keeping the path's children through any
    /// collection, and counts it as created. `None` when the table is full.
    fn insert_on_path(&mut self, hash: u64, pn: Pn, dn: Pn) -> Option<&mut Entry> {
        let fresh = Entry {
            pn,
            dn,
            work: 0,
            last_pick: NO_PICK,
            flags: 0,
            on_path: 1,
        };
        let children = &self.children;
        let protect = || protected_keys(children);
        let e = self.table.insert_absent(hash, fresh, protect)?;
        self.counters.nodes_created += 1;
        Some(e)
    }

    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(name: &'static str, root: G, question: Question, opts: DfpnOptions) -> Dfpn<G> {
        let mut s = Dfpn {
            name,
            table: Table::with_budget(opts.budget_bytes),
            root_pos: root,
            question,
            opts,
            stack: Vec::new(),
            children: Vec::new(),
            kids: Vec::new(),
            filter: PathFilter::default(),
            epoch: 0,
            status: Status::Running,
            counters: Counters::default(),
            root_switches: RootSwitches::default(),
            root_result: None,
            started: false,
            moves: Vec::new(),
            expanded_once: None,
            re_expansions: 0,
            history: false,
            exact: false,
            link: None,
            team: None,
        };
        s.history = s.root_pos.history_dependent();
        s.exact = s.history && opts.ghi == Ghi::Exact;
        if s.history && opts.ghi == Ghi::Stop && !s.status.is_final() {
            // See `super::ghi`: a table keyed by position alone can loop
            // on a cyclic graph even without meeting a repetition.
            s.status = Status::Unknown(StopReason::Cycles);
        }
        if let Some(o) = s.root_pos.outcome() {
            let r = solved(question.holds(o));
            s.root_result = Some(r);
            s.status = if r.0 == 0 {
                Status::Proved
            } else {
                Status::Disproved
            };
        }
        s
    }

    /// Starts counting re-expansions: expansions (move generations) of a
    /// position this run has expanded before, whether its table entry was
    /// kept (a revisit) or replaced under the memory budget. The set of
    /// expanded positions this needs is not counted in the budget.
    pub fn count_re_expansions(&mut self) {
        self.expanded_once.get_or_insert_with(Default::default);
    }

    /// Re-expansions so far, when counted.
    pub fn re_expansions(&self) -> Option<u64> {
        self.expanded_once.as_ref().map(|_| self.re_expansions)
    }

    /// The table key of a position: its hash, or in `dfpn-ghi` on a
    /// history-dependent game its hash and its path's ([`super::ghi`]).
    #[inline]
    pub fn key(&self, g: &G) -> u64 {
        key_of(self.exact, g)
    }

    /// The options.
    pub fn options(&self) -> &DfpnOptions {
        &self.opts
    }

    /// The table (tests, snapshots).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The current MID path, root first.
    pub fn frames(&self) -> &[Frame<G>] {
        &self.stack
    }

    /// The children recorded for frame `f`.
    pub fn frame_children(&self, f: &Frame<G>) -> &[Child<G::Move>] {
        &self.children[f.first..f.first + f.count]
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root_pos
    }

    /// Root (pn, dn): from the table while running, final once solved.
    pub fn root_numbers(&self) -> (Pn, Pn) {
        if let Some(r) = self.root_result {
            return r;
        }
        if let Some(f) = self.stack.first() {
            return (f.pn, f.dn);
        }
        let d = self.opts.unknown_value(0);
        (d, d)
    }

    /// (pn, dn) of a non-terminal position with hash `hash` at depth `d`:
    /// the table's, or the unknown-node value.
    #[inline]
    pub fn lookup(&self, hash: u64, d: u32) -> (Pn, Pn) {
        match self.table.get(hash) {
            Some(e) => (e.pn, e.dn),
            None => {
                let v = self.opts.unknown_value(d);
                (v, v)
            }
        }
    }

    /// (pn, dn) of a child of a node at depth `parent_depth`.
    #[inline]
    pub fn child_numbers(&self, c: &Child<G::Move>, parent_depth: u32) -> (Pn, Pn) {
        match c.terminal {
            Some(t) => t,
            None => self.lookup(c.hash, parent_depth + 1),
        }
    }

    /// The loop's numbers at frame `f` from its children (docs/algorithms.md
    /// §4), every child read (δ2 is the second least δ of all of them).
    pub fn loop_values(&self, f: &Frame<G>) -> LoopValues {
        let children = self.frame_children(f);
        mid_loop::select(f.or, INF, f.count, false, |i| {
            let (p, d) = self.child_numbers(&children[i], f.depth);
            ChildRead::plain(p, d)
        })
    }

    /// Brings the top frame's copy of its children's numbers up to date
    /// before its loop, the hot path. The numbers are kept in the frame
    /// between loops and re-read from the table only where they can have
    /// changed: c1's are written by its call's exit (the numbers it stores
    /// in the table), every child's are read again after the
    /// [`PathFilter`] saw a possible transposition (see there). A child
    /// read as solved is remembered as such (a proof or disproof never
    /// changes). The loop then gives the same numbers as `loop_values`.
    fn refresh_top_children(&mut self) {
        let epoch = self.epoch;
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        if f.epoch == epoch {
            return;
        }
        f.epoch = epoch;
        let (first, count) = (f.first, f.count);
        let unknown = self.opts.unknown_value(f.depth + 1);
        let children = &mut self.children[first..first + count];
        let kids = &mut self.kids[first..first + count];
        for (c, k) in children.iter_mut().zip(kids.iter_mut()) {
            (k.pn, k.dn) = read_child(&self.table, c, unknown);
        }
    }

    /// The thresholds (th_pn, th_dn) MID passes to the loop's c1 at frame
    /// `f` (docs/algorithms.md §4): thφ(c1) = thδ(n) + φ(c1) − δ(n) and
    /// thδ(c1) = min(thφ(n), δ2 + 1) (or ⌈δ2(1+ε)⌉), in the parent's frame.
    pub fn child_thresholds(&self, f: &Frame<G>, v: &LoopValues) -> (Pn, Pn) {
        mid_loop::child_thresholds(f.or, (f.th_pn, f.th_dn), v, |d| {
            self.opts.second_threshold(d)
        })
    }

    /// Runs events until the next MID entry (one iteration) or the end.
    pub fn run_step(&mut self) -> Status {
        loop {
            match self.step_event() {
                Event::Enter { .. } | Event::Done => break,
                Event::Exit { .. } => {}
            }
        }
        // Entries are also written on exits: the counters say what the
        // table holds after every step.
        self.refresh_memory();
        self.status
    }

    /// Runs one event: a MID entry or a MID exit.
    pub fn step_event(&mut self) -> Event {
        if self.status.is_final() {
            return Event::Done;
        }
        if !self.started {
            self.started = true;
            let root = self.root_pos.clone();
            let or = root.to_move() == self.question.attacker;
            self.enter(root, G::Move::default(), 0, 0, or, INF, INF);
            return self.after_enter();
        }
        let Some(top) = self.stack.last() else {
            return Event::Done;
        };
        if top.count == 0 {
            // Entered without generating moves (the table already put the
            // node over its thresholds) or, defensively, a terminal node:
            // return its own numbers.
            let (p, d) = match top.pos.outcome() {
                Some(o) => solved(self.question.holds(o)),
                None => (top.pn, top.dn),
            };
            return self.exit(p, d);
        }
        self.refresh_top_children();
        let Some(top) = self.stack.last_mut() else {
            return Event::Done;
        };
        let kids = &self.kids[top.first..top.first + top.count];
        let opts = &self.opts;
        let pass = match self.link.as_ref().filter(|l| l.steers()) {
            None => mid_loop::pass(
                top.or,
                (top.th_pn, top.th_dn),
                kids.len(),
                |i| ChildRead::plain(kids[i].pn, kids[i].dn),
                |d| opts.second_threshold(d),
            ),
            Some(l) => {
                // A helper of a parallel search: steered off the earlier
                // threads' paths (see `super::team`).
                let children = &self.children[top.first..top.first + top.count];
                let (depth, hash, or) = (top.depth, top.hash, top.or);
                mid_loop::pass(
                    or,
                    (top.th_pn, top.th_dn),
                    kids.len(),
                    |i| {
                        let (pn, dn) = (kids[i].pn, kids[i].dn);
                        let v = l.threads_below(depth, hash, children[i].hash);
                        let extra = team::steering(if or { pn } else { dn }, v);
                        ChildRead { pn, dn, extra }
                    },
                    |d| opts.second_threshold(d),
                )
            }
        };
        let Some((best, (th_pn, th_dn))) = pass.descend else {
            return self.exit(pass.pn, pass.dn);
        };
        top.pn = pass.pn;
        top.dn = pass.dn;
        top.pick = Some(best);
        let depth = top.depth;
        let c = self.children[top.first + best as usize];
        let pos = self.kids[top.first + best as usize].pos.clone();
        // Seesaw counters (§9): the node's pick versus its last one, and
        // the root's pick per root-level iteration.
        let iteration = self.counters.iterations + 1;
        if depth == 0 {
            self.root_switches
                .observe(iteration, best, &mut self.counters);
        }
        note_pick(&mut top.last_pick, best as u16, &mut self.counters);
        self.enter(pos, c.mv, best, depth + 1, c.or, th_pn, th_dn);
        self.after_enter()
    }

    fn after_enter(&mut self) -> Event {
        match self.stack.last() {
            Some(f) if !self.status.is_final() => Event::Enter { depth: f.depth },
            _ => Event::Done,
        }
    }

    /// Enters MID at `pos`: counts the call, notes a revisit, records the
    /// children and creates or marks the table entry.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        pos: G,
        mv: G::Move,
        child_index: u32,
        depth: u32,
        or: bool,
        th_pn: Pn,
        th_dn: Pn,
    ) {
        self.counters.iterations += 1;
        self.counters.max_depth = self.counters.max_depth.max(depth);
        let hash = self.key(&pos);
        if let Some(l) = &mut self.link {
            l.entered(depth, hash);
        }
        // `dfpn-ghi`: a position solved without its path is not searched
        // again (see `super::ghi`); in a parallel search, nor is one
        // another thread has solved.
        let shortcut = if self.exact {
            self.shortcut(&pos)
        } else {
            self.posted(hash)
        };
        // A position that may be a child of a path node (besides being its
        // parent's c1) makes every frame re-read its children.
        if self.filter.may_hold_more_than(hash, u32::from(depth > 0)) {
            self.epoch += 1;
        }
        // One table lookup per call: the entry found here is held (the
        // move generation below touches other fields only) and marked on
        // the path at the end.
        let known = self.table.get_mut(hash);
        let (pn0, dn0, last_pick) = match &known {
            _ if shortcut.is_some() => {
                let (p, d) = shortcut.unwrap_or((1, 1));
                (p, d, known.as_ref().map_or(NO_PICK, |e| e.last_pick))
            }
            Some(e) => {
                if e.flags & LEFT != 0 {
                    self.counters.revisits += 1;
                }
                (e.pn, e.dn, e.last_pick)
            }
            None => {
                let v = self.opts.unknown_value(depth);
                (v, v, NO_PICK)
            }
        };
        let first = self.children.len();
        let known_before = known.is_some();
        let mut count = 0;
        // A call whose node the table already puts over its thresholds
        // returns at once without generating moves (Algorithm 2, step 1).
        let already_over = shortcut.is_some() || known.is_some() && (pn0 >= th_pn || dn0 >= th_dn);
        if !already_over {
            self.moves.clear();
            pos.legal_moves(&mut self.moves);
            for &m in &self.moves {
                let mut c = pos.clone();
                c.play(m);
                let hash = key_of(self.exact, &c);
                self.filter.add(hash);
                self.children.push(Child {
                    mv: m,
                    hash,
                    or: c.to_move() == self.question.attacker,
                    terminal: None,
                    dep: false,
                });
                self.kids.push(Kid {
                    pos: c,
                    pn: 0,
                    dn: 0,
                });
            }
            count = self.moves.len();
            self.counters.nodes_expanded += 1;
            if let Some(seen) = &mut self.expanded_once {
                if !seen.insert(hash) {
                    self.re_expansions += 1;
                }
            }
        }
        match known {
            Some(e) => e.on_path = e.on_path.saturating_add(1),
            None => {
                if self.insert_on_path(hash, pn0, dn0).is_none() {
                    self.drop_children(first);
                    self.status = Status::Unknown(StopReason::Memory);
                    self.refresh_memory();
                    return;
                }
            }
        }
        // The children's numbers for the first loop. Terminal positions
        // are never stored in the table, so only a child the table does
        // not hold needs the (costly) test for the end of the game; with
        // repetitions the test comes first (a repeated position has its
        // ancestor's hash).
        let unknown = self.opts.unknown_value(depth + 1);
        if self.history {
            self.history_children(first, unknown);
        }
        let kids = self.children[first..]
            .iter_mut()
            .zip(&mut self.kids[first..]);
        // Children are looked up on the board only at a node entered
        // before: another thread's proofs are of the siblings of this
        // thread's path, and a fresh node's children are rarely among them
        // (a probe per child would cost every call).
        let board = self
            .link
            .as_ref()
            .map(|l| l.board())
            .filter(|_| known_before);
        let mut posted = Vec::new();
        for (c, k) in kids {
            if self.history {
                // Set above; a solved entry by position is terminal (in
                // `Exact` only path-independent results are stored so).
                if c.terminal.is_none() && (k.pn == 0 || k.dn == 0) {
                    c.terminal = Some((k.pn, k.dn));
                }
                continue;
            }
            (k.pn, k.dn) = match self.table.get(c.hash) {
                Some(e) => {
                    if e.pn == 0 || e.dn == 0 {
                        c.terminal = Some((e.pn, e.dn));
                    }
                    (e.pn, e.dn)
                }
                None => match k.pos.outcome() {
                    Some(o) => {
                        let t = solved(self.question.holds(o));
                        c.terminal = Some(t);
                        t
                    }
                    None => (unknown, unknown),
                },
            };
            // Another thread's proof of a child the table does not hold
            // solved: taken, and stored as if searched here.
            if let (None, Some(b)) = (c.terminal, board) {
                if let Some(proven) = b.proof(c.hash) {
                    let t = solved(proven);
                    c.terminal = Some(t);
                    (k.pn, k.dn) = t;
                    posted.push((c.hash, proven));
                }
            }
        }
        for (key, proven) in posted {
            self.store_solved(key, proven);
        }
        self.stack.push(Frame {
            pos,
            hash,
            mv,
            child_index,
            depth,
            or,
            th_pn,
            th_dn,
            pn: pn0,
            dn: dn0,
            first,
            count,
            pick: None,
            entered_at: self.counters.iterations,
            last_pick,
            epoch: self.epoch,
        });
        self.refresh_memory();
    }

    /// Leaves the top MID call storing (pn, dn).
    pub(super) fn exit(&mut self, pn_now: Pn, dn_now: Pn) -> Event {
        let f = self.stack.pop().expect("exit with a frame");
        let dep = self.result_of_frame_dependent(&f, pn_now, dn_now);
        self.drop_children(f.first);
        let work = self.counters.iterations - f.entered_at + 1;
        let work = work.min(u32::MAX as u64) as u32;
        // The entry is on the path, so it cannot have been evicted; the
        // insert is only a fallback.
        let e = match self.table.get_mut(f.hash) {
            Some(e) => e,
            None => {
                // A new entry (the old one was replaced, or the path keys
                // it afresh): created like any other.
                match self.insert_on_path(f.hash, pn_now, dn_now) {
                    Some(e) => e,
                    None => {
                        self.status = Status::Unknown(StopReason::Memory);
                        return Event::Done;
                    }
                }
            }
        };
        e.pn = pn_now;
        e.dn = dn_now;
        if dep {
            e.flags |= DEP;
        }
        e.last_pick = f.last_pick;
        e.work = e.work.saturating_add(work);
        e.flags |= LEFT;
        e.on_path = e.on_path.saturating_sub(1);
        let solved_now = pn_now == 0 || dn_now == 0;
        let total_work = e.work;
        if let Some(l) = &self.link {
            if solved_now && !dep && total_work >= team::SHARE_MIN_WORK {
                l.board().post(f.hash, pn_now == 0, total_work);
            }
        }
        if self.exact && solved_now && !dep && !self.store_shortcut(&f.pos, pn_now, dn_now) {
            return Event::Done;
        }
        // The parent's loop takes c1's new numbers from here, as it would
        // read them from the entry just written.
        if let Some(parent) = self.stack.last() {
            let i = parent.first + f.child_index as usize;
            (self.kids[i].pn, self.kids[i].dn) = (pn_now, dn_now);
            if pn_now == 0 || dn_now == 0 {
                self.children[i].terminal = Some((pn_now, dn_now));
                self.children[i].dep = dep;
            }
        }
        if self.stack.is_empty() {
            self.root_result = Some((pn_now, dn_now));
            self.status = if pn_now == 0 {
                Status::Proved
            } else if dn_now == 0 {
                Status::Disproved
            } else {
                // Root thresholds are (INF, INF): only a solved root
                // returns. Kept as a clean stop rather than a panic.
                Status::Unknown(StopReason::Exhausted)
            };
        }
        Event::Exit { depth: f.depth }
    }

    /// Stores `key` as solved (another thread's answer) in the table; a
    /// full table just goes without it.
    pub(super) fn store_solved(&mut self, key: u64, proven: bool) {
        let (pn, dn) = solved(proven);
        self.store_off_path(key, pn, dn);
    }

    /// Writes (pn, dn) for `key` into its entry, or into a new entry off
    /// the path (counted as created); false when the table is full.
    pub(super) fn store_off_path(&mut self, key: u64, pn: Pn, dn: Pn) -> bool {
        if let Some(e) = self.table.get_mut(key) {
            (e.pn, e.dn) = (pn, dn);
            return true;
        }
        let fresh = Entry {
            pn,
            dn,
            work: 0,
            last_pick: NO_PICK,
            flags: LEFT,
            on_path: 0,
        };
        let children = &self.children;
        let protect = || protected_keys(children);
        if self.table.insert_absent(key, fresh, protect).is_none() {
            return false;
        }
        self.counters.nodes_created += 1;
        true
    }

    /// Gives up the MID path (the search was answered by another thread).
    pub(super) fn abandon_path(&mut self) {
        while let Some(f) = self.stack.pop() {
            if let Some(e) = self.table.get_mut(f.hash) {
                e.on_path = e.on_path.saturating_sub(1);
            }
        }
        self.drop_children(0);
    }

    /// Takes the children from `first` on off the path.
    fn drop_children(&mut self, first: usize) {
        for c in &self.children[first..] {
            self.filter.remove(c.hash);
        }
        self.children.truncate(first);
        self.kids.truncate(first);
    }

    fn refresh_memory(&mut self) {
        self.counters.live_nodes = self.table.len() as u64;
        self.counters.peak_tree_bytes = self.table.peak_bytes();
    }

    /// The root child the search names as best: least δ (a child that
    /// solves the root when there is one).
    pub fn best_child(&self) -> Option<u32> {
        let f = self.stack.first();
        match f {
            Some(f) => {
                let v = self.loop_values(f);
                (f.count > 0).then_some(v.best.unwrap_or(0))
            }
            None => self.root_best_child_from_table(),
        }
    }

    /// After the root call returned: rebuild the root's children from the
    /// table to name the best move.
    fn root_best_child_from_table(&self) -> Option<u32> {
        self.root_result?;
        let root = &self.root_pos;
        let or = root.to_move() == self.question.attacker;
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut best = None;
        let mut best_a = INF;
        for (i, &m) in moves.iter().enumerate() {
            let mut c = root.clone();
            c.play(m);
            let (p, d) = match c.outcome() {
                Some(o) => solved(self.question.holds(o)),
                None => self.stored_numbers(&c, 1),
            };
            let a = if or { p } else { d };
            if best.is_none() || a < best_a {
                best = Some(i as u32);
                best_a = a;
            }
        }
        best
    }

    /// The root's switch events so far (docs/algorithms.md §9).
    pub fn root_switches(&self) -> &RootSwitches {
        &self.root_switches
    }

    /// The attacker's question this search answers.
    pub fn question(&self) -> Question {
        self.question
    }

    /// The registry name (`dfpn`, `dfpn-ghi`, …).
    pub fn name(&self) -> &'static str {
        self.name
    }
}
