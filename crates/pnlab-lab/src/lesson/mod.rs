//! Lessons (`*.lesson.toml`, docs/formats.md "Lessons", docs/teaching.md):
//! a prepared sequence of steps a teacher plays in class. Each step has a
//! caption and may set the position, the algorithm and its parameters,
//! run the search to an iteration, point at nodes or board cells, show
//! panels, and ask a question whose answer the engine computes when the
//! step is reached.
//!
//! Everything here is plain engine code, tested headless: [`format`]
//! reads and checks a file, [`Lesson::setting`] folds the steps into the
//! setting of step k (from the lesson alone, never from what was played
//! before), [`player`] runs the search to the step and resolves its
//! highlights and question, [`question`] checks an answer and explains it
//! with the inspector's own formulas. The app (and the browser build)
//! only draw what [`player::StepState`] holds.

pub mod bundled;
pub mod caption;
pub mod cells;
pub mod error;
pub mod format;
pub mod frames;
pub mod giveaway;
pub mod path;
pub mod player;
pub mod question;
pub mod slide_tree;
pub mod source;

use std::path::Path;
use std::sync::Arc;

use pnlab_core::positions::PositionEntry;
use pnlab_core::search::QuestionKind;

pub use caption::{Block, Caption, Span, Style};
pub use error::{LessonError, LessonErrorKind, StepCost};
pub use format::{Iteration, Lesson, Loc, Located, RaceSpec, Step, MAX_ITERATIONS};
pub use path::NodePath;
pub use player::{play, ResolvedNode, StepState};
pub use question::{Answer, Question, Response, Verdict};
pub use source::{Bundled, DiskThenBundled, Source};

/// The algorithm a lesson runs when neither a step nor its position
/// names one: every front end's default.
pub const DEFAULT_ALGO: &str = pnlab_core::search::DEFAULT_ALGO;

/// The seed of a lesson's searches when no step sets one.
pub const DEFAULT_SEED: u64 = 0;

/// A lesson file's extension (`pnlab FILE.lesson.toml` opens a lesson).
pub const EXTENSION: &str = ".lesson.toml";

/// Whether `path` names a lesson file.
pub fn is_lesson_path(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(EXTENSION))
}

/// A panel a step shows (the app lays them out; phase-independent names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Panel {
    /// The search tree.
    Tree,
    /// The game board (games with a board only).
    Board,
    /// The inspector: the selected node's values and formulas.
    Inspector,
    /// The live curves (root values, switches, nodes per iteration).
    Curves,
    /// Two settings side by side on the same position (needs `race`).
    Race,
    /// Conspiracy-number searches: the proof and disproof functions and
    /// the search interval.
    Functions,
    /// Alpha-beta: the value and the single conspiracy number per depth.
    Scn,
}

impl Panel {
    /// Every panel, in menu order.
    pub const ALL: [Panel; 7] = [
        Panel::Tree,
        Panel::Board,
        Panel::Inspector,
        Panel::Curves,
        Panel::Race,
        Panel::Functions,
        Panel::Scn,
    ];

    /// The name a lesson file uses.
    pub fn name(self) -> &'static str {
        match self {
            Panel::Tree => "tree",
            Panel::Board => "board",
            Panel::Inspector => "inspector",
            Panel::Curves => "curves",
            Panel::Race => "race",
            Panel::Functions => "functions",
            Panel::Scn => "scn",
        }
    }

    /// The panel a lesson file names (exactly: `"tree "` is no panel).
    pub fn from_name(name: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The kind of a step's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AskKind {
    /// Click the node the search expands next (the most-proving node).
    MostProving,
    /// Click the child the search chooses at a node on its path.
    Child,
    /// Type a value of a node (`pn`, `dn`, `deep`, …).
    Value,
}

impl AskKind {
    /// The names a lesson file uses, in the order of the docs.
    pub const NAMES: [&'static str; 3] = ["most-proving", "child", "value"];

    /// The kind a lesson file names.
    pub fn from_name(name: &str) -> Option<AskKind> {
        match name {
            "most-proving" => Some(AskKind::MostProving),
            "child" => Some(AskKind::Child),
            "value" => Some(AskKind::Value),
            _ => None,
        }
    }
}

/// A question as written in the file: what is asked, never the answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ask {
    /// What kind of answer is expected.
    pub kind: AskKind,
    /// The node asked about (`child`: where the search chooses, default
    /// the root; `value`: whose value).
    pub node: Option<Located<NodePath>>,
    /// `value` questions: the value's name as the algorithm shows it.
    pub value: Option<Located<String>>,
    /// The prompt shown to the class (a default is written from the kind).
    pub prompt: Option<String>,
}

/// The setting of one step: the steps up to it folded together.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// The position, and where the step that set it set it.
    pub position: Located<Arc<PositionEntry>>,
    /// The attacker's question.
    pub goal: QuestionKind,
    /// The algorithm (with the place that set it, if a step did).
    pub algo: String,
    /// Where the algorithm was set (the position's suggestion: its `position` key).
    pub algo_at: Loc,
    /// Parameters `NAME=VALUE` (the algorithm's defaults for the rest).
    pub params: Vec<(String, String)>,
    /// The searches' seed.
    pub seed: u64,
    /// How far the search runs.
    pub iteration: Iteration,
    /// Where the iteration was set (`None`: 0 by default).
    pub iteration_at: Option<Loc>,
    /// The panels shown.
    pub show: Vec<Panel>,
    /// Where the panels were set.
    pub show_at: Option<Loc>,
    /// The race's second setting.
    pub race: Option<RaceSpec>,
}

impl Lesson {
    /// Reads a lesson from disk (its position files from disk, then the
    /// embedded ones).
    pub fn load_file(path: &Path) -> Result<Lesson, LessonError> {
        let name = path.display().to_string();
        let text = pnlab_core::files::read_text(path).map_err(|e| {
            LessonError::new(
                &name,
                1,
                1,
                LessonErrorKind::Unreadable {
                    reason: e.source.to_string(),
                },
            )
        })?;
        Lesson::load_text(&name, &text, &DiskThenBundled)
    }

    /// Reads a lesson from its text (`file` names it in errors and is the
    /// base of its relative paths; `source` reads the files it names).
    pub fn load_text(file: &str, text: &str, source: &dyn Source) -> Result<Lesson, LessonError> {
        format::read(file, text, source)
    }

    /// The number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when the lesson has no step (never, for a lesson that loaded).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The setting of step `k` (0-based), from the steps `0..=k` alone:
    /// the position, goal, algorithm, parameters, seed, panels and race
    /// are kept from the last step that set them; the iteration too,
    /// unless the position, goal, algorithm, parameters or seed change
    /// (then the search starts again at iteration 0). A new algorithm
    /// starts from its default parameters; a position's suggested
    /// algorithm and parameters apply until a step names an algorithm.
    pub fn setting(&self, k: usize) -> Setting {
        let k = k.min(self.steps.len().saturating_sub(1));
        let mut fold = Fold::default();
        for s in self.steps.iter().take(k + 1) {
            fold.apply(s);
        }
        fold.setting()
    }

    /// The setting of every step, in one pass over the steps (the same
    /// as [`Lesson::setting`] of each, at a cost linear in the steps).
    pub fn settings(&self) -> Vec<Setting> {
        let mut fold = Fold::default();
        self.steps
            .iter()
            .map(|s| {
                fold.apply(s);
                fold.setting()
            })
            .collect()
    }

    /// Plays every step headless, in order, handing each step's state to
    /// `each`; stops at the first broken step's error. A step that goes
    /// on with the search of the step before (same position, goal,
    /// algorithm, parameters and seed, a later iteration) continues that
    /// search instead of running it again from the start, so a lesson
    /// costs what its last iterations cost, not the sum over its steps.
    pub fn play_all(
        &self,
        mut each: impl FnMut(&StepState) -> Result<(), LessonError>,
    ) -> Result<(), LessonError> {
        let mut prev: Option<StepState> = None;
        for (k, setting) in self.settings().into_iter().enumerate() {
            let state = player::play_with(self, k, setting, prev.take())?;
            each(&state)?;
            prev = Some(state);
        }
        Ok(())
    }

    /// Plays every step headless; the first broken one's error.
    pub fn check(&self) -> Result<(), LessonError> {
        self.play_all(|_| Ok(()))
    }
}

/// The steps folded so far into a setting (see [`Lesson::setting`]).
struct Fold {
    position: Option<Located<Arc<PositionEntry>>>,
    goal: QuestionKind,
    algo: String,
    algo_at: Loc,
    explicit_algo: bool,
    params: Vec<(String, String)>,
    seed: u64,
    iteration: Iteration,
    iteration_at: Option<Loc>,
    show: Vec<Panel>,
    show_at: Option<Loc>,
    race: Option<RaceSpec>,
}

impl Default for Fold {
    fn default() -> Self {
        Fold {
            position: None,
            goal: QuestionKind::Win,
            algo: DEFAULT_ALGO.to_string(),
            algo_at: Loc::default(),
            explicit_algo: false,
            params: Vec::new(),
            seed: DEFAULT_SEED,
            iteration: Iteration::At(0),
            iteration_at: None,
            show: vec![Panel::Tree],
            show_at: None,
            race: None,
        }
    }
}

impl Fold {
    /// Folds in one more step.
    fn apply(&mut self, s: &Step) {
        let mut restart = false;
        if let Some(p) = &s.position {
            if !self.explicit_algo {
                self.algo = p.value.algo.clone().unwrap_or_else(|| DEFAULT_ALGO.into());
                self.params = p.value.params.clone();
                self.algo_at = p.at;
            }
            self.position = Some(p.clone());
            restart = true;
        }
        if let Some(g) = s.goal {
            restart |= g != self.goal;
            self.goal = g;
        }
        if let Some(a) = &s.algo {
            self.algo = a.value.clone();
            self.algo_at = a.at;
            self.explicit_algo = true;
            self.params = Vec::new();
            restart = true;
        }
        if let Some(p) = &s.params {
            self.params = p.value.clone();
            restart = true;
        }
        if let Some(v) = s.seed {
            restart |= v != self.seed;
            self.seed = v;
        }
        if restart {
            self.iteration = Iteration::At(0);
            self.iteration_at = None;
        }
        if let Some(it) = &s.iteration {
            self.iteration = it.value;
            self.iteration_at = Some(it.at);
        }
        if let Some(v) = &s.show {
            self.show = v.value.clone();
            self.show_at = Some(v.at);
        }
        if let Some(r) = &s.race {
            self.race = Some(r.clone());
        }
    }

    /// The setting folded so far.
    fn setting(&self) -> Setting {
        Setting {
            // The reader refuses a lesson whose first step sets no position.
            position: self.position.clone().unwrap_or_else(|| Located {
                value: Arc::new(pnlab_core::positions::default_position()),
                at: Loc::default(),
                inner: None,
            }),
            goal: self.goal,
            algo: self.algo.clone(),
            algo_at: self.algo_at,
            params: self.params.clone(),
            seed: self.seed,
            iteration: self.iteration,
            iteration_at: self.iteration_at,
            show: self.show.clone(),
            show_at: self.show_at,
            race: self.race.clone(),
        }
    }
}

/// Every embedded lesson, read from the embedded files only.
pub fn bundled_lessons() -> Vec<(&'static str, Result<Lesson, LessonError>)> {
    bundled::LESSONS
        .iter()
        .map(|f| (f.path, Lesson::load_text(f.path, f.text, &Bundled)))
        .collect()
}
