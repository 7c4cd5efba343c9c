//! The headless lesson player: the state of step k, built from the lesson
//! alone. It builds the step's search from the registry (the algorithm's
//! own parameter description checks the parameters), runs it to the
//! step's iteration, resolves the highlighted nodes and cells, runs the
//! race's second setting, and computes the question's answer. The app
//! draws a [`StepState`]; `pnlab lesson --check` plays every step.

use std::fmt;

use pnlab_core::clock::{Duration, Instant};
use pnlab_core::search::{
    driver, registry, NodeId, Search, SearchSetup, Snapshot, StatsSample, ViewRequest,
};

use super::cells::{parse_cell, Cell};
use super::error::{LessonError, LessonErrorKind as K, StepCost};
use super::format::{Iteration, Loc, Located, MAX_ITERATIONS};
use super::path::{ChildIndex, NodePath};
use super::question::{self, Question};
use super::{Caption, Lesson, Panel, Setting};

/// A node a step points at: its path as written and its id in the search.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedNode {
    /// The moves from the root.
    pub path: NodePath,
    /// The search's stable id for it (the same in the app's run, which
    /// uses the same position, algorithm, parameters and seed).
    pub id: NodeId,
}

/// The race's second setting, run on the same position.
#[derive(Clone, Debug)]
pub struct RaceState {
    /// What the panel calls it.
    pub label: String,
    /// Its algorithm.
    pub algo: String,
    /// Its parameters.
    pub params: Vec<(String, String)>,
    /// Its tree at the step's iteration (or where it finished).
    pub snapshot: Snapshot,
    /// Its curves.
    pub samples: Vec<StatsSample>,
}

/// Everything a step shows, computed.
pub struct StepState {
    /// 0-based index of the step.
    pub index: usize,
    /// Steps in the lesson.
    pub count: usize,
    /// The step's title.
    pub title: Option<String>,
    /// The caption (shown from the start).
    pub caption: Caption,
    /// The caption shown once the question is answered.
    pub reveal: Option<Caption>,
    /// The setting folded from the steps up to this one.
    pub setting: Setting,
    /// The search, run to the step's iteration (the app may go on from here).
    pub search: Box<dyn Search>,
    /// Its tree as the lesson sees it ([`lesson_view`]), with the selected
    /// node inspected.
    pub snapshot: Snapshot,
    /// The curves up to the step's iteration.
    pub samples: Vec<StatsSample>,
    /// The node the inspector shows.
    pub select: Option<ResolvedNode>,
    /// Highlighted nodes.
    pub highlights: Vec<ResolvedNode>,
    /// Highlighted board cells.
    pub cells: Vec<Cell>,
    /// The race's other setting, when the race panel is shown.
    pub race: Option<RaceState>,
    /// The question, with its answer.
    pub question: Option<Question>,
}

impl fmt::Debug for StepState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StepState")
            .field("index", &self.index)
            .field("title", &self.title)
            .field("algo", &self.setting.algo)
            .field("iteration", &self.search.counters().iterations)
            .field("status", &self.search.status())
            .finish_non_exhaustive()
    }
}

/// The part of the tree a lesson resolves paths in and draws: deep enough
/// for teaching trees; bigger trees are cut (the selection path is always
/// in).
pub fn lesson_view() -> ViewRequest {
    ViewRequest {
        max_depth: 64,
        max_nodes: 3_000,
        ..ViewRequest::default()
    }
}

/// The memory one step's search may take (its tree or table): a lesson
/// is shown in class, where a step appears at once, so a step that needs
/// more is a mistake of the lesson, reported at its `iteration`.
pub const STEP_MEMORY_BYTES: u64 = 512 << 20;

/// The time one step's search may take, for the same reason.
pub const STEP_TIME: Duration = Duration::from_secs(60);

/// A search run so far, with its curves: what a step hands to the next
/// one that goes on with it.
pub(crate) type Resume = (Box<dyn Search>, Vec<StatsSample>);

/// The step's search and its curves, run as far as the setting says.
/// `extra` more iterations are run after that (0 normally; 1 to see what
/// the next iteration does). `resume`, the search of an earlier step with
/// the same setting that has not gone past this step's iteration, is
/// continued instead of starting again. The search runs within
/// [`STEP_MEMORY_BYTES`] and [`STEP_TIME`]; past either, the step's error.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    lesson: &Lesson,
    setting: &Setting,
    algo: &str,
    params: &[(String, String)],
    algo_at: Loc,
    race: bool,
    extra: u64,
    resume: Option<Resume>,
) -> Result<(Box<dyn Search>, Vec<StatsSample>), LessonError> {
    let err = |at: Loc, kind: K| LessonError::new(&lesson.file, at.line, at.col, kind);
    let target = match setting.iteration {
        Iteration::At(n) => Some(n + extra),
        Iteration::End => None,
    };
    let resume = resume.filter(|(s, _)| target.is_none_or(|t| s.counters().iterations <= t));
    let (mut search, mut samples) = match resume {
        Some(r) => r,
        None => start(lesson, setting, algo, params, algo_at)?,
    };
    let began = Instant::now();
    let mut steps = 0u64;
    loop {
        let it = search.counters().iterations;
        if target.is_some_and(|t| it >= t) || (target.is_none() && search.status().is_final()) {
            break;
        }
        if search.status().is_final() {
            if race {
                break;
            }
            let at = setting.iteration_at.unwrap_or(algo_at);
            return Err(err(
                at,
                K::Unreachable {
                    asked: target.unwrap_or(it),
                    ended: it,
                    status: status_words(search.as_ref()),
                },
            ));
        }
        if it >= MAX_ITERATIONS {
            let at = setting.iteration_at.unwrap_or(algo_at);
            return Err(err(
                at,
                K::NeverFinishes {
                    algo: algo.to_string(),
                    max: MAX_ITERATIONS,
                },
            ));
        }
        let bytes = search.counters().peak_tree_bytes;
        let late = steps.is_multiple_of(256) && steps > 0 && began.elapsed() > STEP_TIME;
        if bytes > STEP_MEMORY_BYTES || late {
            let at = setting.iteration_at.unwrap_or(algo_at);
            let cost = if late {
                StepCost::Seconds(STEP_TIME.as_secs())
            } else {
                StepCost::Mebibytes(STEP_MEMORY_BYTES >> 20)
            };
            return Err(err(
                at,
                K::TooCostly {
                    algo: algo.to_string(),
                    cost,
                    iteration: it,
                },
            ));
        }
        let st = search.step();
        steps += 1;
        if driver::sampled(search.counters().iterations) || st.is_final() {
            samples.push(search.sample());
        }
    }
    Ok((search, samples))
}

/// The step's search, built and not yet stepped, with its first sample.
fn start(
    lesson: &Lesson,
    setting: &Setting,
    algo: &str,
    params: &[(String, String)],
    algo_at: Loc,
) -> Result<Resume, LessonError> {
    let err = |at: Loc, kind: K| LessonError::new(&lesson.file, at.line, at.col, kind);
    let info = registry::find_algo(algo).map_err(|e| err(algo_at, K::UnknownAlgorithm(e)))?;
    let game = setting.position.value.position.kind();
    let params = info.params_from_pairs(game, params).map_err(|e| {
        err(
            algo_at,
            K::Parameter {
                algo: algo.to_string(),
                error: e,
            },
        )
    })?;
    let setup = SearchSetup {
        position: setting.position.value.position.clone(),
        params,
        seed: setting.seed,
        question: setting.goal,
        memory_limit_bytes: None,
    };
    let search = registry::build(algo, &setup).map_err(|e| err(algo_at, K::Search(e)))?;
    let samples = vec![search.sample()];
    Ok((search, samples))
}

/// "running", "proved", "disproved" or "stopped: cycles".
pub fn status_words(s: &dyn Search) -> String {
    match s.status() {
        pnlab_core::search::Status::Running => "running".into(),
        pnlab_core::search::Status::Unknown(r) => format!("stopped: {}", r.name()),
        st => st.outcome_name().to_string(),
    }
}

/// The column of move `k` of a located path (the path's start when the
/// string's columns do not map one to one).
fn move_loc(p: &Located<NodePath>, k: usize) -> Loc {
    match (p.inner, p.value.offsets.get(k)) {
        (Some(inner), Some(&off)) => Loc {
            line: inner.line,
            col: inner.col + off,
        },
        _ => p.at,
    }
}

/// Resolves a located path in `snap`.
pub(crate) fn resolve(
    lesson: &Lesson,
    setting: &Setting,
    snap: &Snapshot,
    p: &Located<NodePath>,
) -> Result<ResolvedNode, LessonError> {
    let index = ChildIndex::new(snap);
    let it = snap.counters.iterations;
    index
        .resolve_id(&p.value, Some(&setting.position.value.position))
        .map(|id| ResolvedNode {
            path: p.value.clone(),
            id,
        })
        .map_err(|e| {
            let at = move_loc(p, e.at_move);
            LessonError::new(
                &lesson.file,
                at.line,
                at.col,
                K::NoSuchNode {
                    moves: p.value.moves.clone(),
                    iteration: it,
                    reason: e.message,
                },
            )
        })
}

/// Plays step `k` (0-based) of `lesson`: the state it shows, or the
/// located error that makes it unplayable.
pub fn play(lesson: &Lesson, k: usize) -> Result<StepState, LessonError> {
    play_with(lesson, k, lesson.setting(k), None)
}

/// [`play`] of step `k` whose setting is `setting`, going on from the
/// state of the step before (`prev`) when that step ran the same search
/// (see [`Lesson::play_all`]).
pub(crate) fn play_with(
    lesson: &Lesson,
    k: usize,
    setting: Setting,
    prev: Option<StepState>,
) -> Result<StepState, LessonError> {
    let step = &lesson.steps[k.min(lesson.steps.len() - 1)];
    let err = |at: Loc, kind: K| LessonError::new(&lesson.file, at.line, at.col, kind);
    let resume = prev
        .filter(|p| same_search(&p.setting, &setting))
        .map(|p| (p.search, p.samples));
    let (search, samples) = run(
        lesson,
        &setting,
        &setting.algo,
        &setting.params,
        setting.algo_at,
        false,
        0,
        resume,
    )?;
    let full = search.snapshot(&lesson_view());
    let select = step
        .select
        .as_ref()
        .map(|p| resolve(lesson, &setting, &full, p))
        .transpose()?;
    let highlights = step
        .highlight
        .iter()
        .map(|p| resolve(lesson, &setting, &full, p))
        .collect::<Result<Vec<_>, _>>()?;
    let cells = step
        .cells
        .iter()
        .map(|c| {
            parse_cell(&setting.position.value.position, &c.value)
                .map_err(|e| err(c.at, K::Cell(e)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let snapshot = match &select {
        Some(s) => search.snapshot(&ViewRequest {
            inspect: Some(s.id),
            ..lesson_view()
        }),
        None => full,
    };
    let show_at = setting.show_at.unwrap_or(Loc {
        line: step.line,
        col: 1,
    });
    for panel in &setting.show {
        let problem = match panel {
            Panel::Race if setting.race.is_none() => Some(K::RaceWithoutSetting),
            Panel::Functions if snapshot.functions.is_none() => Some(K::NoFunctions {
                algo: setting.algo.clone(),
            }),
            Panel::Scn if setting.algo != "alphabeta" => Some(K::ScnNotAlphabeta {
                algo: setting.algo.clone(),
            }),
            _ => None,
        };
        if let Some(m) = problem {
            return Err(err(show_at, m));
        }
    }
    let race = match (&setting.race, setting.show.contains(&Panel::Race)) {
        (Some(r), true) => {
            let (other, samples) = run(
                lesson,
                &setting,
                &r.algo.value,
                &r.params,
                r.algo.at,
                true,
                0,
                None,
            )?;
            let label = r.label.clone().unwrap_or_else(|| {
                if r.params.is_empty() {
                    r.algo.value.clone()
                } else {
                    let ps: Vec<String> =
                        r.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("{} ({})", r.algo.value, ps.join(", "))
                }
            });
            Some(RaceState {
                label,
                algo: r.algo.value.clone(),
                params: r.params.clone(),
                snapshot: other.snapshot(&lesson_view()),
                samples,
            })
        }
        _ => None,
    };
    let question = step
        .ask
        .as_ref()
        .map(|a| question::compute(lesson, &setting, search.as_ref(), &snapshot, a))
        .transpose()?;
    if let Some(why) = question
        .as_ref()
        .and_then(|q| super::giveaway::gives_away(&step.caption, q))
    {
        return Err(err(step.caption_at, K::GivesAway { why }));
    }
    Ok(StepState {
        index: k,
        count: lesson.steps.len(),
        title: step.title.clone(),
        caption: step.caption.clone(),
        reveal: step.reveal.clone(),
        setting,
        search,
        snapshot,
        samples,
        select,
        highlights,
        cells,
        race,
        question,
    })
}

/// Whether two settings run the same search (the same position, goal,
/// algorithm, parameters and seed), so one can go on from the other.
fn same_search(a: &Setting, b: &Setting) -> bool {
    (std::sync::Arc::ptr_eq(&a.position.value, &b.position.value)
        || a.position.value == b.position.value)
        && a.goal == b.goal
        && a.algo == b.algo
        && a.params == b.params
        && a.seed == b.seed
}
