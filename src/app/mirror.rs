//! Command mirroring in race mode: which worker gets a command the user
//! gave. Stepping, time travel, speed and budgets go to both runs (they
//! stay comparable); Run becomes lockstep chunks; per-run commands (load,
//! view, sync) stay with the run they were made for.

use super::driver::Command;

/// What a user command becomes.
#[derive(Clone, Debug, Default)]
pub struct Route {
    /// For the main run (A).
    pub main: Option<Command>,
    /// For the challenger (B), when racing.
    pub challenger: Option<Command>,
    /// Start lockstep chunks (Run while racing).
    pub start_lockstep: bool,
    /// Stop lockstep chunks (Pause).
    pub stop_lockstep: bool,
}

/// Routes one command of the toolbar, the keyboard or the curves.
pub fn route(cmd: Command, racing: bool) -> Route {
    if !racing {
        return Route {
            stop_lockstep: matches!(cmd, Command::Pause),
            main: Some(cmd),
            ..Route::default()
        };
    }
    match cmd {
        Command::Run => Route {
            start_lockstep: true,
            ..Route::default()
        },
        Command::Pause => Route {
            main: Some(Command::Pause),
            challenger: Some(Command::Pause),
            stop_lockstep: true,
            ..Route::default()
        },
        Command::Step(_)
        | Command::RunTo(_)
        | Command::Back(_)
        | Command::GoTo(_)
        | Command::Reset
        | Command::SetSpeed(_)
        | Command::SetBudget(_) => Route {
            challenger: Some(cmd.clone()),
            main: Some(cmd),
            ..Route::default()
        },
        // A proof is saved from the main run only.
        Command::Load(_)
        | Command::SetView(_)
        | Command::Sync(_)
        | Command::Certificate(_)
        | Command::Stop => Route {
            main: Some(cmd),
            ..Route::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Budget;

    fn kinds(r: &Route) -> (Option<String>, Option<String>, bool, bool) {
        (
            r.main.as_ref().map(|c| format!("{c:?}")),
            r.challenger.as_ref().map(|c| format!("{c:?}")),
            r.start_lockstep,
            r.stop_lockstep,
        )
    }

    #[test]
    fn alone_every_command_goes_to_the_main_run() {
        for c in [Command::Run, Command::Step(3), Command::Reset] {
            let r = route(c.clone(), false);
            assert_eq!(kinds(&r), (Some(format!("{c:?}")), None, false, false));
        }
    }

    #[test]
    fn racing_mirrors_steps_and_time_travel_and_turns_run_into_lockstep() {
        for c in [
            Command::Step(10),
            Command::Back(1),
            Command::GoTo(7),
            Command::Reset,
            Command::SetSpeed(Some(2.0)),
            Command::SetBudget(Budget::default()),
        ] {
            let r = route(c.clone(), true);
            let name = Some(format!("{c:?}"));
            assert_eq!(kinds(&r), (name.clone(), name, false, false));
        }
        assert_eq!(kinds(&route(Command::Run, true)), (None, None, true, false));
        let p = Some("Pause".to_string());
        assert_eq!(
            kinds(&route(Command::Pause, true)),
            (p.clone(), p, false, true)
        );
        // A sync belongs to one run.
        assert_eq!(
            kinds(&route(Command::Sync(3), true)),
            (Some("Sync(3)".into()), None, false, false)
        );
    }
}
