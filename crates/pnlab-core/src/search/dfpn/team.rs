//! Parallel `dfpn`, `dfpn-eps` and `deep-dfpn` (`threads` > 1): a team of
//! the same sequential search, one per thread, each with its own table.
//!
//! Why not one shared table (as `dfpn-fast` does): the plain searches'
//! table is a hash map read once per child per MID call and kept in the
//! frame; a table several threads can write needs a probe per child per
//! loop, and that probe made the main thread of a two-thread `dfpn` so
//! much slower per call that two threads took twice as long as one on
//! short Othello positions. Here the main thread runs exactly the
//! sequential search, with its own table, and the team talks through a
//! small board ([`Board`]) that is cheap to read:
//!
//! - **Proofs.** Every thread posts the positions it solves with some work
//!   behind them ([`SHARE_MIN_WORK`] MID calls) as one word each (the key
//!   and the answer) in a direct-mapped array; every thread looks a
//!   position up there when it enters it and when it reads a child the
//!   table does not hold solved. A position found there is solved at once
//!   and its answer stored in the thread's own table, as if it had been
//!   searched.
//! - **Paths.** Every thread publishes the keys of its MID path (the first
//!   [`PATH_DEPTH`] plies). Helper k, choosing the child to enter at a
//!   node that an earlier thread's path runs through, adds to that
//!   thread's child the virtual numbers of Kaneko (2010) in the form
//!   `dfpn-fast`'s helpers use ((1 + v)·a + v for v earlier threads
//!   below it): it turns to a sibling up to about twice as costly — the
//!   work the main thread is likeliest to need next — instead of
//!   repeating the main thread's. The additions only steer the choice of
//!   the child; the numbers a helper computes and stores are the true
//!   ones, and a posted proof is a proof.
//!
//! - **Wider thresholds.** Under `dfpn` and `dfpn-eps` the helpers
//!   search with the 1+ε trick at ε ≥ [`HELPER_EPS`] (see [`helper_eps`]
//!   for why and what it was measured to spare).
//!
//! The answer is the first solved root: the main thread's, or a helper's
//! (its solved root children are then copied into the main thread's table
//! so that the main thread names the same best move). Stepping is by
//! rounds as in `dfpn-fast`: the main thread runs MID calls for
//! [`ROUND_TIME`] while the helpers run until it is done (scoped threads
//! that end with the step, at the least priority), so the search still
//! owns no thread between steps. `iterations` counts the main thread's MID
//! calls and the helpers' (as in `dfpn-fast`); the helpers' part is in the
//! JSON (`helper_iterations`). Memory: the helpers' tables together get a
//! quarter of the budget, the main thread's the rest.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::game::Game;
use crate::search::pn::Pn;
use crate::search::{Question, Status};

use super::fast::helper_priority;
use super::fast::{CALLS_PER_STEP, HELPER_CALLS_CAP, ROUND_TIME};
use super::mid::{solved, Dfpn, DfpnOptions};

/// Plies of each thread's MID path that are published for steering.
pub const PATH_DEPTH: usize = 32;

/// Entries of the proof board (a power of two; 16 bytes each, 1 MiB:
/// small enough to stay in the cores' caches, which the main thread's
/// probes need to stay cheap).
pub const BOARD_SLOTS: usize = 1 << 16;

/// Solved positions with at least this many MID calls below them are
/// posted: cheaper ones are quicker to search again than to share, and
/// would crowd the board.
pub const SHARE_MIN_WORK: u32 = 8;

/// A helper re-reads the earlier threads' paths every this many of its
/// own MID calls: the main thread writes its path on every call, and a
/// cache line read by the other core after every write would cost the
/// main thread a transfer per call.
const STEER_REFRESH: u32 = 32;

/// What the threads of one parallel search share.
pub struct Board {
    /// Proofs in buckets of [`WAYS`] entries of two words: the key with
    /// its lowest bit replaced by the answer (1 = proved; 0 = empty), and
    /// the MID calls behind it. The answer is one word, written and read
    /// atomically; a torn pair only misjudges which entry to replace.
    proofs: Box<[AtomicU64]>,
    /// Thread t's path key at depth d is `paths[t * PATH_DEPTH + d]`.
    paths: Box<[AtomicU64]>,
}

/// Entries per bucket of the proof board.
const WAYS: usize = 2;

impl Board {
    fn new(threads: usize) -> Board {
        let words = |n: usize| (0..n).map(|_| AtomicU64::new(0)).collect();
        Board {
            proofs: words(BOARD_SLOTS * 2),
            paths: words(threads * PATH_DEPTH),
        }
    }

    /// Bytes the board takes.
    pub fn bytes(&self) -> u64 {
        ((self.proofs.len() + self.paths.len()) * std::mem::size_of::<AtomicU64>()) as u64
    }

    /// The words of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let b = (key >> 1) as usize & (BOARD_SLOTS / WAYS - 1);
        &self.proofs[b * 2 * WAYS..(b + 1) * 2 * WAYS]
    }

    /// The posted answer for `key` (true = proved), if any.
    #[inline]
    pub fn proof(&self, key: u64) -> Option<bool> {
        self.bucket(key).chunks_exact(2).find_map(|e| {
            let w = e[0].load(Ordering::Relaxed);
            (w != 0 && (w ^ key) & !1 == 0).then_some(w & 1 == 1)
        })
    }

    /// Posts the answer for `key` with `work` MID calls behind it, in its
    /// own entry if present, else over the bucket's entry with the least
    /// work (so the answers that saved most survive the cheap ones).
    #[inline]
    pub fn post(&self, key: u64, proven: bool, work: u32) {
        let bucket = self.bucket(key);
        let mut victim = &bucket[0..2];
        let mut least = u64::MAX;
        for e in bucket.chunks_exact(2) {
            let w = e[0].load(Ordering::Relaxed);
            if w != 0 && (w ^ key) & !1 == 0 {
                victim = e;
                break;
            }
            let v = if w == 0 {
                0
            } else {
                e[1].load(Ordering::Relaxed)
            };
            if v < least {
                least = v;
                victim = e;
            }
        }
        if least != u64::MAX && least > u64::from(work) {
            return;
        }
        victim[1].store(u64::from(work), Ordering::Relaxed);
        victim[0].store((key & !1) | u64::from(proven), Ordering::Relaxed);
    }

    /// Publishes that `thread`'s path holds `key` at `depth`.
    #[inline]
    fn publish(&self, thread: usize, depth: u32, key: u64) {
        if let Some(w) = self.paths.get(thread * PATH_DEPTH + depth as usize) {
            if (depth as usize) < PATH_DEPTH {
                w.store(key, Ordering::Relaxed);
            }
        }
    }
}

/// One thread's place in the team: the board and its own index (0 = the
/// main thread), with a helper's copy of the earlier threads' paths.
#[derive(Clone)]
pub struct Link {
    board: Arc<Board>,
    thread: usize,
    /// `thread` × [`PATH_DEPTH`] keys: the earlier threads' paths as last
    /// read.
    steer: Vec<u64>,
    calls_since_read: u32,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("thread", &self.thread)
            .finish()
    }
}

impl Link {
    fn new(board: Arc<Board>, thread: usize) -> Link {
        Link {
            board,
            thread,
            steer: vec![0; thread * PATH_DEPTH],
            calls_since_read: 0,
        }
    }

    /// Whether this thread is a helper (steered off earlier paths).
    #[inline]
    pub fn steers(&self) -> bool {
        self.thread > 0
    }

    /// The board this thread posts to and reads from.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Called when the thread enters MID at `key`, `depth` plies down:
    /// publishes the path and, in a helper, re-reads the earlier threads'
    /// paths now and then.
    #[inline]
    pub fn entered(&mut self, depth: u32, key: u64) {
        self.board.publish(self.thread, depth, key);
        if self.thread == 0 {
            return;
        }
        self.calls_since_read += 1;
        if self.calls_since_read >= STEER_REFRESH {
            self.calls_since_read = 0;
            for (i, w) in self.steer.iter_mut().enumerate() {
                *w = self.board.paths[i].load(Ordering::Relaxed);
            }
        }
    }

    /// How many earlier threads' paths run from the node `parent` at
    /// `depth` into its child `child` (0 in the main thread).
    #[inline]
    pub fn threads_below(&self, depth: u32, parent: u64, child: u64) -> u32 {
        let d = depth as usize;
        if d + 1 >= PATH_DEPTH {
            return 0;
        }
        self.steer
            .chunks_exact(PATH_DEPTH)
            .filter(|p| p[d] == parent && p[d + 1] == child)
            .count() as u32
    }
}

/// What a helper adds to a child's a when choosing c1, with `v` earlier
/// threads below the child: (1 + v)·a + v less a, i.e. v·(a + 1), capped
/// so that sums stay finite.
#[inline]
pub fn steering(a: Pn, v: u32) -> Pn {
    if v == 0 {
        0
    } else {
        a.saturating_add(1).saturating_mul(v).min(1 << 24)
    }
}

/// The 1+ε of a helper whose main thread searches with plain thresholds
/// or a smaller ε (see [`helper_eps`]).
pub const HELPER_EPS: f64 = 2.0;

/// The ε a helper searches with: at least [`HELPER_EPS`] under a plain or
/// 1+ε main thread, the main thread's own under Deep df-pn.
///
/// Why: a helper that searches as the main thread does, from the same
/// root with its own table, mostly repeats it, and a helper costs the main
/// thread about a fifth of its speed on two cores (the two share caches
/// and memory). Measured on `bench --suite othello-16-random`, a plain
/// helper spared the main thread of `dfpn` 5–15% of its MID calls, too
/// little to pay for that, so two threads were slower than one. A helper
/// with wide thresholds stays longer in each subtree before it turns to a
/// sibling, so it finishes the subtrees the main thread keeps coming back
/// to and posts their proofs: with ε = 2 the main thread made 33% fewer
/// calls under `dfpn` and 32% fewer under `dfpn-eps` (against 19% with a
/// helper like itself). Under Deep df-pn, whose helpers already spared
/// 30% of the calls, a widened helper spared less (12%), so it keeps the
/// main thread's options.
pub fn helper_eps(main: &DfpnOptions) -> Option<f64> {
    if main.deep.is_some() {
        return main.eps;
    }
    Some(main.eps.map_or(HELPER_EPS, |e| e.max(HELPER_EPS)))
}

/// The helpers of a main thread's search.
#[derive(Clone)]
pub struct Team<G: Game> {
    pub(super) helpers: Vec<Dfpn<G>>,
    /// The helpers' calls already added to the main thread's `iterations`.
    counted: u64,
}

/// The main thread's search of a team of `threads` on `root`, its
/// helpers attached (see the module comment for the memory split).
pub fn new_team<G: Game>(
    name: &'static str,
    root: &G,
    question: Question,
    opts: DfpnOptions,
    threads: u32,
) -> Dfpn<G> {
    let threads = threads.max(2) as usize;
    let board = Arc::new(Board::new(threads));
    let tables = opts.budget_bytes.saturating_sub(board.bytes());
    let helper_budget = tables / 4 / (threads as u64 - 1);
    let helper_opts = DfpnOptions {
        budget_bytes: helper_budget.max(1),
        eps: helper_eps(&opts),
        ..opts
    };
    let main_opts = DfpnOptions {
        budget_bytes: tables
            .saturating_sub(helper_budget * (threads as u64 - 1))
            .max(1),
        ..opts
    };
    let helpers = (1..threads)
        .map(|t| {
            let mut h = Dfpn::new(name, root.clone(), question, helper_opts);
            h.link = Some(Link::new(board.clone(), t));
            h
        })
        .collect();
    let mut main = Dfpn::new(name, root.clone(), question, main_opts);
    main.link = Some(Link::new(board, 0));
    main.team = Some(Box::new(Team {
        helpers,
        counted: 0,
    }));
    main
}

impl<G: Game> Dfpn<G> {
    /// One step of a team's main thread: a round (see the module comment),
    /// or one MID call without a team.
    pub(super) fn run_round(&mut self) -> Status {
        let Some(mut team) = self.team.take() else {
            return self.run_step();
        };
        if self.status.is_final() {
            self.team = Some(team);
            return self.status;
        }
        let round_over = AtomicBool::new(false);
        let main_cpu = helper_priority::current_cpu();
        std::thread::scope(|s| {
            for h in team.helpers.iter_mut().filter(|h| !h.status.is_final()) {
                let over = &round_over;
                s.spawn(move || {
                    helper_priority::stay_off_cpu(main_cpu);
                    helper_priority::yield_to_other_work();
                    h.run_until(over, HELPER_CALLS_CAP);
                });
            }
            self.run_for_round();
            round_over.store(true, Ordering::Relaxed);
        });
        // `iterations` counts every thread's MID calls, as in `dfpn-fast`;
        // the frames on the main thread's path keep counting only its own
        // calls as their work (the replacement policy's measure).
        let helper_calls = team
            .helpers
            .iter()
            .map(|h| h.counters.iterations)
            .sum::<u64>();
        let new_calls = helper_calls - team.counted;
        team.counted = helper_calls;
        self.counters.iterations += new_calls;
        for f in &mut self.stack {
            f.entered_at += new_calls;
        }
        // The team's memory: every table and the board.
        self.counters.peak_tree_bytes = self.table.peak_bytes()
            + team
                .helpers
                .iter()
                .map(|h| h.table.peak_bytes())
                .sum::<u64>()
            + self.link.as_ref().map_or(0, |l| l.board().bytes());
        if !self.status.is_final() {
            self.take_posted_proofs();
            let won = team
                .helpers
                .iter()
                .find(|h| matches!(h.status, Status::Proved | Status::Disproved));
            if let Some(h) = won {
                self.adopt_root(h);
            }
        }
        self.team = Some(team);
        self.status
    }

    /// Between rounds: the children of the main thread's path that another
    /// thread has solved meanwhile are taken as solved. When one of them
    /// solves its parent (a proved child of an OR node, a disproved child
    /// of an AND node), the frames below that parent return at once with
    /// the numbers they have, so the parent's next loop returns solved
    /// instead of the main thread finishing a subtree it no longer needs.
    fn take_posted_proofs(&mut self) {
        let Some(board) = self.link.as_ref().map(|l| l.board.clone()) else {
            return;
        };
        let mut found = Vec::new();
        let mut cut = None;
        for (depth, f) in self.stack.iter().enumerate() {
            for i in f.first..f.first + f.count {
                if self.children[i].terminal.is_some() {
                    continue;
                }
                if let Some(proven) = board.proof(self.children[i].hash) {
                    found.push((i, proven));
                    if proven == f.or && cut.is_none() {
                        cut = Some(depth);
                    }
                }
            }
        }
        if let Some(depth) = cut {
            while self.stack.len() > depth + 1 {
                let Some(top) = self.stack.last() else { break };
                let (pn, dn) = (top.pn, top.dn);
                self.exit(pn, dn);
            }
        }
        for (i, proven) in found {
            if i >= self.children.len() {
                continue;
            }
            let t = solved(proven);
            self.children[i].terminal = Some(t);
            (self.kids[i].pn, self.kids[i].dn) = t;
            let key = self.children[i].hash;
            self.store_solved(key, proven);
        }
    }

    /// The main thread's share of a round: MID calls for [`ROUND_TIME`],
    /// at most [`CALLS_PER_STEP`].
    fn run_for_round(&mut self) {
        let start = crate::clock::now();
        for i in 0..CALLS_PER_STEP {
            if self.run_step().is_final() {
                return;
            }
            if i % 64 == 63 && start.elapsed() >= ROUND_TIME {
                return;
            }
        }
    }

    /// A helper's share of a round: MID events until the round is over or
    /// its root is solved, at most `cap` MID calls.
    fn run_until(&mut self, round_over: &AtomicBool, cap: u64) {
        let end = self.counters.iterations.saturating_add(cap);
        while self.counters.iterations < end && !round_over.load(Ordering::Relaxed) {
            if self.run_step().is_final() {
                return;
            }
        }
    }

    /// Takes a helper's solved root as the search's answer, with the
    /// helper's solved root children, so the best move is named from them.
    fn adopt_root(&mut self, helper: &Dfpn<G>) {
        let Some((pn, dn)) = helper.root_result else {
            return;
        };
        let mut moves = Vec::new();
        self.root_pos.legal_moves(&mut moves);
        for m in moves {
            let mut c = self.root_pos.clone();
            c.play(m);
            let key = self.key(&c);
            if let Some(e) = helper.table.get(key) {
                if e.pn == 0 || e.dn == 0 {
                    self.store_solved(key, e.pn == 0);
                }
            }
        }
        // The main thread's path is abandoned: its frames are over.
        self.abandon_path();
        self.root_result = Some((pn, dn));
        self.status = helper.status;
    }

    /// The helpers' MID calls so far.
    pub fn helper_iterations(&self) -> u64 {
        self.team
            .as_ref()
            .map_or(0, |t| t.helpers.iter().map(|h| h.counters.iterations).sum())
    }

    /// The number of threads searching (1 without a team).
    pub fn threads(&self) -> usize {
        1 + self.team.as_ref().map_or(0, |t| t.helpers.len())
    }

    /// The answer the board holds for `key`, as (pn, dn).
    #[inline]
    pub(super) fn posted(&self, key: u64) -> Option<(Pn, Pn)> {
        let l = self.link.as_ref()?;
        l.board().proof(key).map(solved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of one bucket: equal above the bucket bits, apart below.
    fn same_bucket(i: u64) -> u64 {
        (((BOARD_SLOTS as u64) << 8) * (i + 1)) | (0x2a << 1)
    }

    #[test]
    fn the_board_returns_what_was_posted_and_nothing_else() {
        let b = Board::new(2);
        assert_eq!(b.proof(0x1234_5678_9abc_def0), None);
        b.post(0x1234_5678_9abc_def0, true, 10);
        b.post(0x0fed_cba9_8765_4320, false, 10);
        assert_eq!(b.proof(0x1234_5678_9abc_def0), Some(true));
        assert_eq!(b.proof(0x0fed_cba9_8765_4320), Some(false));
        assert_eq!(b.proof(0x1234_5678_9abc_def2), None);
    }

    #[test]
    fn a_full_bucket_keeps_the_answers_with_more_work() {
        let b = Board::new(2);
        let (k1, k2, k3) = (same_bucket(0), same_bucket(1), same_bucket(2));
        assert!(std::ptr::eq(b.bucket(k1), b.bucket(k3)));
        b.post(k1, true, 100);
        b.post(k2, false, 20);
        // Less work than both: not stored.
        b.post(k3, true, 10);
        assert_eq!(b.proof(k3), None);
        // More than the least: replaces k2, keeps k1.
        b.post(k3, true, 50);
        assert_eq!(b.proof(k3), Some(true));
        assert_eq!(b.proof(k1), Some(true));
        assert_eq!(b.proof(k2), None);
        // A key already held is updated in place whatever its work.
        b.post(k1, true, 1);
        assert_eq!(b.proof(k1), Some(true));
        assert_eq!(b.proof(k3), Some(true));
    }

    #[test]
    fn helpers_widen_plain_and_eps_thresholds_but_not_deep_ones() {
        let plain = DfpnOptions::default();
        assert_eq!(helper_eps(&plain), Some(HELPER_EPS));
        let narrow = DfpnOptions {
            eps: Some(0.25),
            ..plain
        };
        assert_eq!(helper_eps(&narrow), Some(HELPER_EPS));
        let wide = DfpnOptions {
            eps: Some(5.0),
            ..plain
        };
        assert_eq!(helper_eps(&wide), Some(5.0));
        let deep = DfpnOptions {
            deep: Some((2, 12)),
            ..plain
        };
        assert_eq!(helper_eps(&deep), None);
        // The team's helper is built with them; the main thread keeps its own.
        let root = crate::game::tictactoe::TicTacToe::new();
        let q = Question {
            attacker: root.to_move(),
            goal: crate::search::Goal::Win,
        };
        let main = new_team("dfpn", &root, q, plain, 2);
        assert_eq!(main.opts.eps, None);
        let helpers = &main.team.as_ref().expect("a team").helpers;
        assert_eq!(helpers[0].opts.eps, Some(HELPER_EPS));
    }

    #[test]
    fn helpers_are_steered_off_earlier_paths_only() {
        assert_eq!(steering(5, 0), 0);
        assert_eq!(steering(5, 1), 6);
        assert_eq!(steering(5, 2), 12);
        assert_eq!(steering(Pn::MAX, 1), 1 << 24);
        let board = Arc::new(Board::new(2));
        let mut main = Link::new(board.clone(), 0);
        let mut helper = Link::new(board, 1);
        main.entered(0, 11);
        main.entered(1, 22);
        for _ in 0..STEER_REFRESH {
            helper.entered(0, 11);
        }
        assert!(!main.steers() && helper.steers());
        assert_eq!(helper.threads_below(0, 11, 22), 1);
        assert_eq!(helper.threads_below(0, 11, 33), 0);
        assert_eq!(helper.threads_below(1, 11, 22), 0);
        assert_eq!(main.threads_below(0, 11, 22), 0);
    }
}
