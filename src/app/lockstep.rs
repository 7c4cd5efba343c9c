//! The race's lockstep driver: the main run (A) and the challenger (B)
//! take chunks of [`RACE_CHUNK`] iterations, and a new chunk starts only
//! when both answered the previous chunk's sync. Plain logic: the app
//! feeds in where each run stands and sends the commands it is told to.

/// Lockstep chunk while racing: both runs take this many iterations, then
/// wait for each other.
pub const RACE_CHUNK: u64 = 25;

/// What "lockstep" counts while racing: by iterations or by nodes.
/// Algorithms differ in what one iteration costs (a PNS expansion, a df-pn
/// MID call, an MCTS simulation), so comparing them at equal tree size is
/// often the fairer race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// Both runs take the same number of iterations.
    #[default]
    Iterations,
    /// The run with fewer nodes steps until it catches up.
    Nodes,
}

impl Pace {
    /// The label of the pace selector.
    pub fn label(self) -> &'static str {
        match self {
            Pace::Iterations => "by iterations",
            Pace::Nodes => "by nodes",
        }
    }

    /// The selector's hover text.
    pub fn help(self) -> &'static str {
        match self {
            Pace::Iterations => "Both runs take the same number of iterations",
            Pace::Nodes => "The run with fewer nodes steps until it catches up",
        }
    }
}

/// Where one run stands between two lockstep chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The run reached a final status (or has none to show).
    pub done: bool,
    /// Iterations done.
    pub iterations: u64,
    /// Nodes in its tree.
    pub nodes: u64,
    /// Highest sync id the run's driver answered.
    pub synced: u64,
}

/// Which runs take the next chunk: by iterations both (each chunk is the
/// same number of iterations); by nodes only the one behind in nodes, or
/// both when level, so neither gets ahead by more than one chunk. A
/// finished run never steps; the other goes on alone.
pub fn next_chunk(pace: Pace, a: Progress, b: Progress) -> (bool, bool) {
    match (a.done, b.done) {
        (true, true) => (false, false),
        (true, false) => (false, true),
        (false, true) => (true, false),
        (false, false) => match pace {
            Pace::Iterations => (true, true),
            Pace::Nodes => (a.nodes <= b.nodes, b.nodes <= a.nodes),
        },
    }
}

/// What the app does next for the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// Not racing (paused, or never started).
    Idle,
    /// A chunk is under way: wait for both syncs.
    Waiting,
    /// Send `Step(RACE_CHUNK)` to the runs marked true, then a sync to
    /// each and report their ids with [`Lockstep::chunk_sent`].
    Chunk {
        /// Step the main run.
        a: bool,
        /// Step the challenger.
        b: bool,
    },
    /// Both runs are done: the race stopped by itself.
    Finished,
}

/// The lockstep state of a race.
#[derive(Clone, Debug, Default)]
pub struct Lockstep {
    /// Run in chunks until both finish or the user pauses.
    pub racing: bool,
    /// What lockstep counts.
    pub pace: Pace,
    /// Sync ids (A's, B's) that end the current chunk.
    chunk_sync: Option<(u64, u64)>,
}

impl Lockstep {
    /// Starts racing (Run while racing).
    pub fn start(&mut self) {
        self.racing = true;
    }

    /// Stops racing (Pause, a new position, a new challenger).
    pub fn stop(&mut self) {
        self.racing = false;
        self.chunk_sync = None;
    }

    /// The next thing to do, given both runs' progress.
    pub fn tick(&mut self, a: Progress, b: Progress) -> Tick {
        if !self.racing {
            return Tick::Idle;
        }
        if let Some((ia, ib)) = self.chunk_sync {
            if a.synced < ia || b.synced < ib {
                return Tick::Waiting;
            }
        }
        match next_chunk(self.pace, a, b) {
            (false, false) => {
                self.stop();
                Tick::Finished
            }
            (a, b) => Tick::Chunk { a, b },
        }
    }

    /// The chunk ordered by [`Tick::Chunk`] was sent, ending with syncs
    /// `a` (main run) and `b` (challenger).
    pub fn chunk_sent(&mut self, a: u64, b: u64) {
        self.chunk_sync = Some((a, b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(done: bool, nodes: u64) -> Progress {
        Progress {
            done,
            iterations: 7,
            nodes,
            synced: 0,
        }
    }

    #[test]
    fn by_nodes_only_the_run_behind_steps() {
        // (pace, main run, challenger, which of the two step).
        let cases = [
            (Pace::Nodes, p(false, 10), p(false, 30), (true, false)),
            (Pace::Nodes, p(false, 30), p(false, 10), (false, true)),
            (Pace::Nodes, p(false, 30), p(false, 30), (true, true)),
            (Pace::Iterations, p(false, 10), p(false, 30), (true, true)),
            // A finished run waits; the other goes on alone.
            (Pace::Nodes, p(true, 10), p(false, 30), (false, true)),
            (Pace::Iterations, p(true, 1), p(true, 2), (false, false)),
        ];
        for (pace, a, b, steps) in cases {
            assert_eq!(next_chunk(pace, a, b), steps, "{pace:?} {a:?} {b:?}");
        }
    }

    #[test]
    fn a_chunk_starts_only_when_both_runs_answered_the_last_sync() {
        let mut l = Lockstep::default();
        assert_eq!(l.tick(p(false, 1), p(false, 1)), Tick::Idle);
        l.start();
        assert_eq!(
            l.tick(p(false, 1), p(false, 1)),
            Tick::Chunk { a: true, b: true }
        );
        l.chunk_sent(4, 4);
        let synced = |mut x: Progress, id| {
            x.synced = id;
            x
        };
        // A answered, B not yet.
        assert_eq!(
            l.tick(synced(p(false, 9), 4), synced(p(false, 9), 3)),
            Tick::Waiting
        );
        assert_eq!(
            l.tick(synced(p(false, 9), 4), synced(p(false, 9), 4)),
            Tick::Chunk { a: true, b: true }
        );
        // Both finished: the race stops itself, and stays stopped.
        assert_eq!(
            l.tick(synced(p(true, 9), 4), synced(p(true, 9), 4)),
            Tick::Finished
        );
        assert!(!l.racing);
        assert_eq!(l.tick(p(false, 1), p(false, 1)), Tick::Idle);
    }

    #[test]
    fn pause_forgets_the_chunk_in_flight() {
        let mut l = Lockstep::default();
        l.start();
        l.chunk_sent(9, 9);
        l.stop();
        l.start();
        // Without the stale sync id the next tick orders a chunk at once.
        assert_eq!(
            l.tick(p(false, 1), p(false, 1)),
            Tick::Chunk { a: true, b: true }
        );
    }
}
