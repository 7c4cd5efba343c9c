//! An algorithm written outside pnlab: "root by root", a memoised
//! depth-first solver that settles one move of the root per iteration.
//!
//! It is here to show what an outside algorithm implements: the
//! [`Search`] trait (one `step()` is one iteration, the driver calls it
//! from outside and checks the budget between steps), its counters, a
//! sample for the curves and a snapshot (empty: it keeps no tree to draw).
//! Any game of pnlab, or one from outside like [`crate::Nim`], runs under
//! it through the [`Game`] trait, and [`pnlab_core::search::run`] drives it
//! like any registry algorithm.

use std::collections::HashMap;

use pnlab_core::game::{Game, Player};
use pnlab_core::search::{
    Counters, Search, Snapshot, StatsSample, Status, StopReason, ViewRequest,
};

/// The solver on one root position: does the player to move win?
pub struct RootByRoot<G: Game> {
    root: G,
    /// The root's moves, and how many of them are settled.
    moves: Vec<G::Move>,
    settled: usize,
    /// Whether the mover wins from each position met, by key.
    memo: HashMap<u64, bool>,
    winning_move: Option<G::Move>,
    status: Status,
    counters: Counters,
}

impl<G: Game> RootByRoot<G> {
    /// The search on `root`, nothing settled yet.
    pub fn new(root: G) -> RootByRoot<G> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let status = match root.outcome() {
            Some(o) if o.score_for(root.to_move()) > 0 => Status::Proved,
            Some(_) => Status::Disproved,
            None => Status::Running,
        };
        RootByRoot {
            root,
            moves,
            settled: 0,
            memo: HashMap::new(),
            winning_move: None,
            status,
            counters: Counters::default(),
        }
    }

    /// Whether the player to move at `g` wins (a win is a score above 0
    /// from the mover's view), memoised by the position's key.
    fn mover_wins(&mut self, g: &G) -> bool {
        if let Some(o) = g.outcome() {
            return o.score_for(g.to_move()) > 0;
        }
        if let Some(&w) = self.memo.get(&g.hash()) {
            return w;
        }
        self.counters.nodes_expanded += 1;
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let me: Player = g.to_move();
        let wins = moves.into_iter().any(|m| {
            let mut child = g.clone();
            child.play(m);
            self.counters.nodes_created += 1;
            // A move may leave the same player to move (a pass).
            let child_mover_wins = self.mover_wins(&child);
            if child.to_move() == me {
                child_mover_wins
            } else {
                !child_mover_wins
            }
        });
        self.memo.insert(g.hash(), wins);
        wins
    }
}

impl<G: Game> Search for RootByRoot<G> {
    fn algo(&self) -> &'static str {
        "root-by-root"
    }

    fn step(&mut self) -> Status {
        if self.status.is_final() {
            return self.status;
        }
        self.counters.iterations += 1;
        let m = self.moves[self.settled];
        self.settled += 1;
        let mut child = self.root.clone();
        child.play(m);
        self.counters.nodes_created += 1;
        let child_mover_wins = self.mover_wins(&child);
        let move_wins = if child.to_move() == self.root.to_move() {
            child_mover_wins
        } else {
            !child_mover_wins
        };
        if move_wins {
            self.winning_move = Some(m);
            self.status = Status::Proved;
        } else if self.settled == self.moves.len() {
            self.status = Status::Disproved;
        }
        self.status
    }

    fn status(&self) -> Status {
        self.status
    }

    fn stop(&mut self, reason: StopReason) {
        self.status.stop(reason);
    }

    fn counters(&self) -> &Counters {
        &self.counters
    }

    fn counters_mut(&mut self) -> &mut Counters {
        &mut self.counters
    }

    fn value_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn snapshot(&self, _req: &ViewRequest) -> Snapshot {
        Snapshot::empty(self.algo(), self.status, self.counters.clone())
    }

    fn sample(&self) -> StatsSample {
        StatsSample {
            iteration: self.counters.iterations,
            nodes: self.counters.nodes_created,
            ..StatsSample::default()
        }
    }

    fn best_move(&self) -> Option<String> {
        self.winning_move.map(|m| self.root.format_move(m))
    }
}
