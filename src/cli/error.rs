//! The command line's errors. What a lower layer refuses arrives as that
//! layer's own typed error (a solve request, a lesson, an experiment, a
//! file), kept whole behind [`UserError`] so its source chain survives;
//! what only the command line can get wrong (flags that conflict, a
//! malformed flag value, a feature this build lacks) is a [`UsageError`].
//! Either way the user reads `error: …` and the exit status is 2.

use std::error::Error;
use std::fmt;

/// Any error the user is told about, with exit status 2.
pub struct UserError(Box<dyn Error + Send + Sync + 'static>);

impl UserError {
    /// The typed error behind the message (tests downcast it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn cause(&self) -> &(dyn Error + Send + Sync + 'static) {
        &*self.0
    }
}

/// Every typed error reaches the user through `?`.
impl<E: Error + Send + Sync + 'static> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(Box::new(e))
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A build of pnlab without one of its optional parts. (Which variants a
/// build constructs depends on its features.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub enum Feature {
    /// The app window (`gui`).
    Gui,
    /// The live classroom server (`serve`).
    Serve,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Feature::Gui => "gui",
            Feature::Serve => "serve",
        })
    }
}

/// What only the command line can get wrong. (Which variants a build
/// constructs depends on its features.)
#[derive(Debug, thiserror::Error)]
#[allow(dead_code)]
pub enum UsageError {
    /// A `--set` (or similar) value without `=`.
    #[error("expected NAME=VALUE, found `{0}`")]
    NotAPair(String),
    /// Two flags that exclude each other.
    #[error("give {a} or {b}, not both")]
    Exclusive {
        /// One flag.
        a: &'static str,
        /// The other.
        b: &'static str,
    },
    /// A flag that needs another one.
    #[error("{flags} need {needed} ({why})")]
    Needs {
        /// The flags given.
        flags: &'static str,
        /// The flag they need.
        needed: &'static str,
        /// Why.
        why: &'static str,
    },
    /// A flag's value is not of the expected form.
    #[error("{flag} {value}: expected {expected}")]
    BadValue {
        /// The flag, with its dashes.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What the flag takes.
        expected: &'static str,
    },
    /// `--game-index` past the file's last game.
    #[error("--game-index {index}: the file has {games} game(s) (1-based)")]
    NoSuchGame {
        /// The index given.
        index: usize,
        /// How many games the file has.
        games: usize,
    },
    /// `--step` outside the lesson.
    #[error("--step {step}: `{lesson}` has steps 1 to {steps}")]
    NoSuchStep {
        /// The step given.
        step: usize,
        /// The lesson's title.
        lesson: String,
        /// How many steps it has.
        steps: usize,
    },
    /// This build lacks the part a command needs.
    #[error("this pnlab was built without the `{feature}` feature{consequence}")]
    NotBuiltWith {
        /// The missing feature.
        feature: Feature,
        /// What that means for the command, with the way out.
        consequence: &'static str,
    },
    /// A command that needs at least one position got none.
    #[error("no position given: name files, inline positions (with --game) or `-` for stdin")]
    NoPosition,
    /// An entry of a game-record file that holds no moves to follow.
    #[error("{file}:{line}:1: nothing to follow: not a game record; give --self-play (the engine plays to the end) or --moves \"M1 M2 …\"")]
    NothingToFollow {
        /// The file.
        file: String,
        /// The entry's line.
        line: usize,
    },
    /// `experiment merge` without its folders.
    #[error("experiment merge OUT DIR...: name the output directory and the shards' directories")]
    MergeFolders,
    /// An experiment given a positional argument.
    #[error("experiment {name}: unexpected argument `{argument}` (settings are given with --set NAME=VALUE)")]
    ExtraArgument {
        /// The experiment.
        name: String,
        /// The argument.
        argument: String,
    },
    /// `tune` for an algorithm without a tuner.
    #[error("--algo {0}: only deep-dfpn has a parameter tuner (hill-climbing over E and D)")]
    NoTuner(String),
    /// A parameter that does not fit the algorithm a command runs.
    #[error("--algo {algo}: {source}")]
    AlgoParam {
        /// The algorithm.
        algo: String,
        /// What is wrong with the parameter.
        source: pnlab::params::ParamError,
    },
    /// A parameter of a fixed engine (`scn`'s and `rscn`'s alpha-beta).
    #[error("{engine}: {source}")]
    EngineParam {
        /// The engine.
        engine: &'static str,
        /// What is wrong with the parameter.
        source: pnlab::params::ParamError,
    },
    /// A path that names nothing.
    #[error("{}:1:1: no such file or directory", .0.display())]
    NoSuchPath(std::path::PathBuf),
    /// A folder that cannot be listed.
    #[error("{}:1:1: cannot read the directory: {source}", dir.display())]
    ReadDir {
        /// The folder.
        dir: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A folder without lessons.
    #[error("{}:1:1: the directory holds no lesson (files named *{})", .0.display(), pnlab::lesson::EXTENSION)]
    NoLessonInDir(std::path::PathBuf),
    /// `lesson` without a file.
    #[error("expected a lesson file (or, with --check, lesson files and directories)")]
    NoLessonFile,
    /// `lesson` with several files but no `--check`.
    #[error("expected one lesson file (several only with --check)")]
    SeveralLessons,
    /// A position file that holds none.
    #[error("{0}:1:1: the file holds no position")]
    EmptyFile(String),
    /// A failure at one position of a file, located at its entry.
    #[error("{file}:{line}:1: {source}")]
    AtEntry {
        /// The file.
        file: String,
        /// The entry's line.
        line: usize,
        /// What failed there.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The server's runtime could not start.
    #[error("cannot start the server's threads: {0}")]
    ServerThreads(#[source] std::io::Error),
    /// The server ended with an error.
    #[error("the server stopped with an error: {0}")]
    ServerStopped(#[source] std::io::Error),
    /// A bundled benchmark line that does not read.
    #[error("bench suite: bad line `{0}`")]
    SuiteLine(String),
    /// A bundled benchmark position that does not read.
    #[error("bench suite: {0}")]
    SuitePosition(#[source] pnlab::game::ParseError),
    /// A bundled perft count that the move generator does not reproduce.
    #[error("xiangqi perft({depth}) of {position} = {counted}, published {published}")]
    PerftMismatch {
        /// The depth.
        depth: u32,
        /// The position's notation.
        position: String,
        /// What the generator counted.
        counted: u64,
        /// The published count.
        published: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_error_keeps_its_type_behind_the_message() {
        let e: UserError = UsageError::NoPosition.into();
        assert!(e.to_string().starts_with("no position given"));
        assert!(matches!(
            e.cause().downcast_ref::<UsageError>(),
            Some(UsageError::NoPosition)
        ));
    }

    #[test]
    fn messages_name_the_flag_and_what_it_takes() {
        let e = UsageError::BadValue {
            flag: "--driver",
            value: "fast".into(),
            expected: "`thread` or `cooperative`",
        };
        assert_eq!(
            e.to_string(),
            "--driver fast: expected `thread` or `cooperative`"
        );
        let e = UsageError::NotBuiltWith {
            feature: Feature::Serve,
            consequence: ", so it cannot serve; build it with `--features serve`",
        };
        assert_eq!(
            e.to_string(),
            "this pnlab was built without the `serve` feature, so it cannot serve; build it with `--features serve`"
        );
    }
}
