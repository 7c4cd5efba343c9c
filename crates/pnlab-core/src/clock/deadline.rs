//! The deadline that long loops inside a single search step obey.
//!
//! **Why a deadline inside a step.** The driver ([`crate::search::driver`]) checks
//! a run's budget between steps, but some single steps are long: a zone
//! search on Connect6 runs a VCDT solve (the threat search) for every
//! child it generates, inside the game's move generation; `dfpn-fast` on
//! Othello answers a node by an exhaustive alpha-beta below it. A time
//! limit checked only between steps is overrun by a whole step. So the
//! driver publishes the run's deadline for the thread it runs on
//! ([`deadline_scope`]) and those loops poll [`interrupted`], which reads
//! the clock once every [`POLL_EVERY`] calls and, once the deadline has
//! passed, answers `true` for the rest of the scope. A loop that sees it
//! gives up at once with the weakest answer it can give ("no VCDT found",
//! "not solved"), which can only make the step prove less, never prove
//! something false; the driver then ends the run with reason
//! `time-limit` (a step that still finished the search keeps its answer).
//! Results computed under an interruption are never cached, so a later
//! run sharing a cache sees only complete results.
//!
//! Runs without a time limit never touch the clock here, and a search
//! stepped from outside (the app, which pauses and resumes) has no
//! deadline, so its steps always run to the end: the state machine is
//! never left half-stepped where it could be resumed.

use std::cell::Cell;

use super::Instant;

/// Calls of [`interrupted`] between two readings of the clock.
pub const POLL_EVERY: u32 = 256;

#[derive(Clone, Copy)]
struct State {
    deadline: Option<Instant>,
    /// Calls left before the next reading of the clock.
    countdown: u32,
    /// The deadline has passed (sticky for the scope).
    tripped: bool,
}

const IDLE: State = State {
    deadline: None,
    countdown: POLL_EVERY,
    tripped: false,
};

thread_local! {
    static STATE: Cell<State> = const { Cell::new(IDLE) };
}

/// The deadline of the run driven on this thread, until dropped (which
/// restores the one before, so scopes nest).
#[must_use = "the deadline holds only while the scope lives"]
pub struct DeadlineScope {
    before: State,
}

/// Sets `deadline` (none: no limit) for the inner loops of the steps run
/// on this thread while the returned scope lives.
pub fn deadline_scope(deadline: Option<Instant>) -> DeadlineScope {
    let before = STATE.with(|s| {
        s.replace(State {
            deadline,
            countdown: POLL_EVERY,
            tripped: false,
        })
    });
    DeadlineScope { before }
}

impl Drop for DeadlineScope {
    fn drop(&mut self) {
        STATE.with(|s| s.set(self.before));
    }
}

/// Whether the deadline of the run on this thread has passed (always
/// false without one). Cheap: the clock is read once every
/// [`POLL_EVERY`] calls; once true it stays true for the scope.
#[inline]
pub fn interrupted() -> bool {
    STATE.with(|s| {
        let mut st = s.get();
        if st.tripped {
            return true;
        }
        let Some(deadline) = st.deadline else {
            return false;
        };
        st.countdown -= 1;
        if st.countdown == 0 {
            st.countdown = POLL_EVERY;
            st.tripped = Instant::now() >= deadline;
        }
        s.set(st);
        st.tripped
    })
}

/// Whether an inner loop has already seen the deadline pass in this
/// scope (no clock reading): the driver asks after every step.
#[inline]
pub fn tripped() -> bool {
    STATE.with(|s| s.get().tripped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Duration;

    #[test]
    fn no_deadline_is_never_interrupted() {
        let _scope = deadline_scope(None);
        assert!((0..10 * POLL_EVERY).all(|_| !interrupted()));
        assert!(!tripped());
    }

    #[test]
    fn a_past_deadline_trips_within_one_poll_and_the_scope_restores() {
        {
            let _outer = deadline_scope(Some(Instant::now()));
            let calls = (1..=POLL_EVERY).find(|_| interrupted());
            assert_eq!(calls, Some(POLL_EVERY));
            assert!(tripped() && interrupted());
            {
                let _inner = deadline_scope(None);
                assert!(!interrupted() && !tripped());
            }
            assert!(tripped(), "the outer scope is back");
        }
        assert!(!tripped() && !interrupted());
    }

    #[test]
    fn a_far_deadline_does_not_trip() {
        let _scope = deadline_scope(Some(Instant::now() + Duration::from_secs(3600)));
        assert!((0..4 * POLL_EVERY).all(|_| !interrupted()));
    }
}
