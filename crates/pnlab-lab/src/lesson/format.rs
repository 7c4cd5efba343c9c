//! Reading a `*.lesson.toml` file (docs/formats.md, "Lessons") into a
//! [`Lesson`]: everything that can be checked without running a search is
//! checked here (keys, types, captions, positions, algorithms, parameters,
//! panel and question names, the syntax of node paths and cells); what
//! needs the search (an iteration it reaches, a path that names a node, a
//! question it can answer) is checked when a step is played
//! ([`super::player`]), at the same file locations.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use pnlab_core::positions::reference::{self, Reach};
use pnlab_core::positions::toml_format::{content_start, line_col};
use pnlab_core::positions::PositionEntry;
use pnlab_core::search::{find_algo, Params, QuestionKind};

use super::caption::Caption;

/// A step's parameters as written: `NAME = VALUE` pairs, in order.
type ParamPairs = Vec<(String, String)>;
use super::error::{LessonError, LessonErrorKind as K};
use super::source::Source;
use super::{Ask, AskKind, NodePath, Panel, DEFAULT_ALGO};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    lesson: Option<Spanned<RawHeader>>,
    #[serde(default)]
    step: Vec<Spanned<RawStep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    title: Spanned<String>,
    summary: Option<String>,
    topic: Option<String>,
    #[serde(default)]
    sources: Vec<String>,
    minutes: Option<u32>,
}

type RawParams = Spanned<BTreeMap<String, Spanned<toml::Value>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    title: Option<String>,
    caption: Option<Spanned<String>>,
    reveal: Option<Spanned<String>>,
    position: Option<Spanned<RawPosition>>,
    goal: Option<Spanned<String>>,
    algo: Option<Spanned<String>>,
    params: Option<RawParams>,
    seed: Option<Spanned<i64>>,
    iteration: Option<Spanned<toml::Value>>,
    select: Option<Spanned<String>>,
    #[serde(default)]
    highlight: Vec<Spanned<String>>,
    #[serde(default)]
    cells: Vec<Spanned<String>>,
    show: Option<Vec<Spanned<String>>>,
    race: Option<Spanned<RawRace>>,
    ask: Option<Spanned<RawAsk>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPosition {
    file: Option<Spanned<String>>,
    entry: Option<Spanned<toml::Value>>,
    game: Option<Spanned<String>>,
    notation: Option<Spanned<String>>,
    goal: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRace {
    algo: Spanned<String>,
    params: Option<RawParams>,
    label: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAsk {
    kind: Spanned<String>,
    node: Option<Spanned<String>>,
    value: Option<Spanned<String>>,
    prompt: Option<String>,
}

/// A place in the lesson file (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Loc {
    /// Line.
    pub line: usize,
    /// Column, in characters.
    pub col: usize,
}

/// A value with the place it was written.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it stands in the lesson file.
    pub at: Loc,
    /// Where the *content* of a string value starts, when columns inside
    /// it map one to one onto the file (no escapes): errors about a part
    /// of the string point at that part.
    #[serde(skip)]
    pub inner: Option<Loc>,
}

/// How far a step runs its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Iteration {
    /// After exactly this many iterations (`step()` calls).
    At(u64),
    /// Until the search finishes (within [`MAX_ITERATIONS`]).
    End,
}

/// The most iterations a step may run (`iteration = "end"` included):
/// lessons are for class, where every step appears at once.
pub const MAX_ITERATIONS: u64 = 1_000_000;

/// The second setting of a race panel.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RaceSpec {
    /// Its algorithm.
    pub algo: Located<String>,
    /// Its parameters, `NAME=VALUE`, checked against the registry.
    pub params: Vec<(String, String)>,
    /// A label for the panel (default: the algorithm and its parameters).
    pub label: Option<String>,
}

/// One step as written (unset keys are `None`: the step keeps what the
/// steps before it set, see [`super::Lesson::setting`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Step {
    /// A short title (the step counter shows it).
    pub title: Option<String>,
    /// The caption, parsed: shown from the start, so it must not give
    /// the step's answer away (the player checks).
    pub caption: Caption,
    /// The caption shown once the step's question is answered (the
    /// `reveal` key): where the answer and its why are written.
    pub reveal: Option<Caption>,
    /// Where the `caption` is written (an answer found in it is
    /// reported there).
    pub caption_at: Loc,
    /// The line of the step's `[[step]]` header.
    pub line: usize,
    /// A new position (with the place of its `position` key).
    #[serde(skip)]
    pub position: Option<Located<Arc<PositionEntry>>>,
    /// A new question for the search (`win` or `not-lose`).
    pub goal: Option<QuestionKind>,
    /// A new algorithm.
    pub algo: Option<Located<String>>,
    /// New parameters (`NAME=VALUE`; the algorithm's defaults otherwise).
    pub params: Option<Located<Vec<(String, String)>>>,
    /// A new seed.
    pub seed: Option<u64>,
    /// How far to run.
    pub iteration: Option<Located<Iteration>>,
    /// The node the inspector shows.
    pub select: Option<Located<NodePath>>,
    /// Nodes to highlight.
    pub highlight: Vec<Located<NodePath>>,
    /// Board cells to highlight.
    pub cells: Vec<Located<String>>,
    /// The panels to show (kept by later steps until one sets them).
    pub show: Option<Located<Vec<Panel>>>,
    /// The race's second setting (kept like `show`).
    pub race: Option<RaceSpec>,
    /// The question of this step.
    pub ask: Option<Located<Ask>>,
}

/// A whole lesson file, read and checked as far as a file can be
/// without searching.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Lesson {
    /// The file name the lesson was read under (errors name it).
    pub file: String,
    /// Its title.
    pub title: String,
    /// One line for the catalogue.
    pub summary: String,
    /// The catalogue topic (default `lessons`).
    pub topic: Option<String>,
    /// The papers and notes it is written from ("Allis et al. 1994", …).
    pub sources: Vec<String>,
    /// Class time, in minutes.
    pub minutes: Option<u32>,
    /// The steps in order.
    pub steps: Vec<Step>,
}

struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    source: &'a dyn Source,
}

impl Reader<'_> {
    fn loc(&self, byte: usize) -> Loc {
        let (line, col) = line_col(self.text, byte);
        Loc { line, col }
    }

    fn err(&self, at: Loc, kind: K) -> LessonError {
        LessonError::new(self.file, at.line, at.col, kind)
    }

    fn err_at(&self, byte: usize, kind: K) -> LessonError {
        self.err(self.loc(byte), kind)
    }

    fn located<T>(&self, value: T, span: &Range<usize>) -> Located<T> {
        let (start, exact) = content_start(self.text, span);
        Located {
            value,
            at: self.loc(span.start),
            inner: exact.then(|| self.loc(start)),
        }
    }

    fn params(&self, raw: &RawParams, algo: &str) -> Result<Vec<(String, String)>, LessonError> {
        let info =
            find_algo(algo).map_err(|e| self.err_at(raw.span().start, K::UnknownAlgorithm(e)))?;
        let mut pairs = Vec::new();
        for (name, v) in raw.get_ref() {
            let value = match v.get_ref() {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(self.err_at(
                        v.span().start,
                        K::ParameterType {
                            name: name.clone(),
                            found: other.type_str(),
                        },
                    ))
                }
            };
            let pair = (name.clone(), value);
            // Checked here against every game's parameters of the
            // algorithm (the step's position may come later in the file);
            // the player checks them against the position's game.
            let any_game = info.params_on_any_game();
            Params::from_pairs(&any_game, std::slice::from_ref(&pair)).map_err(|e| {
                self.err_at(
                    v.span().start,
                    K::Parameter {
                        algo: algo.to_string(),
                        error: e,
                    },
                )
            })?;
            pairs.push(pair);
        }
        Ok(pairs)
    }

    fn goal(&self, raw: &Spanned<String>) -> Result<QuestionKind, LessonError> {
        match raw.get_ref().as_str() {
            "win" => Ok(QuestionKind::Win),
            "not-lose" => Ok(QuestionKind::NotLose),
            other => Err(self.err_at(
                raw.span().start,
                K::BadGoal {
                    found: other.to_string(),
                },
            )),
        }
    }

    fn position(&self, raw: &Spanned<RawPosition>) -> Result<Arc<PositionEntry>, LessonError> {
        let p = raw.get_ref();
        let at = raw.span().start;
        let entry = match (&p.file, &p.game, &p.notation) {
            (Some(f), None, None) => {
                let path = reference::resolve(self.file, f.get_ref(), Reach::OwnFolderAndPositions)
                    .map_err(|reason| self.err_at(f.span().start, K::Reference { reason }))?;
                let body = self
                    .source
                    .read(&path)
                    .map_err(|e| self.err_at(f.span().start, K::Source(e)))?;
                // Named without `x/..` steps in messages (as the bundled
                // files are); the file itself was read by `path`.
                let name = reference::bundled_name(&path);
                let entries = pnlab_core::positions::load_text(&name, &body)
                    .map_err(LessonError::from_file_error)?;
                self.pick_entry(entries, p.entry.as_ref(), &name, f.span().start)?
            }
            (None, Some(g), Some(n)) => {
                if let Some(e) = &p.entry {
                    return Err(self.err_at(e.span().start, K::EntryWithNotation));
                }
                let kind: pnlab_core::game::GameKind =
                    g.get_ref()
                        .parse()
                        .map_err(|e: pnlab_core::game::UnknownGame| {
                            self.err_at(g.span().start, K::UnknownGame(e))
                        })?;
                let span = n.span();
                let position =
                    pnlab_core::game::AnyPosition::parse(kind, n.get_ref()).map_err(|e| {
                        let (start, exact) = content_start(self.text, &span);
                        let base = self.loc(start);
                        if exact {
                            let line = base.line + e.line - 1;
                            let col = if e.line == 1 {
                                base.col + e.col - 1
                            } else {
                                e.col
                            };
                            self.err(Loc { line, col }, K::Notation(e))
                        } else {
                            self.err(base, K::NotationWithin(e))
                        }
                    })?;
                PositionEntry::new(
                    format!("{} (inline)", kind.name()),
                    position,
                    self.loc(at).line,
                )
            }
            _ => return Err(self.err_at(at, K::PositionForm)),
        };
        if let Some(g) = &p.goal {
            self.goal(g)?;
        }
        Ok(Arc::new(entry))
    }

    fn pick_entry(
        &self,
        mut entries: Vec<PositionEntry>,
        entry: Option<&Spanned<toml::Value>>,
        path: &str,
        file_at: usize,
    ) -> Result<PositionEntry, LessonError> {
        let names = || {
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| format!("{} `{}`", i + 1, e.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let k = match entry.map(|e| (e, e.get_ref())) {
            None => 1,
            Some((_, toml::Value::Integer(k))) if *k >= 1 && (*k as usize) <= entries.len() => {
                *k as usize
            }
            Some((e, toml::Value::String(name))) => {
                match entries.iter().position(|x| &x.name == name) {
                    Some(i) => i + 1,
                    None => {
                        return Err(self.err_at(
                            e.span().start,
                            K::NoSuchEntry {
                                file: path.to_string(),
                                name: name.clone(),
                                holds: names(),
                            },
                        ))
                    }
                }
            }
            Some((e, _)) => {
                return Err(self.err_at(
                    e.span().start,
                    K::BadEntry {
                        file: path.to_string(),
                        count: entries.len(),
                        holds: names(),
                    },
                ))
            }
        };
        if entries.is_empty() {
            return Err(self.err_at(
                file_at,
                K::EmptyPositionFile {
                    file: path.to_string(),
                },
            ));
        }
        Ok(entries.swap_remove(k - 1))
    }

    fn panels(&self, raw: &[Spanned<String>]) -> Result<Vec<Panel>, LessonError> {
        raw.iter()
            .map(|s| {
                Panel::from_name(s.get_ref()).ok_or_else(|| {
                    self.err_at(
                        s.span().start,
                        K::UnknownPanel {
                            name: s.get_ref().clone(),
                            known: Panel::ALL
                                .iter()
                                .map(|p| p.name())
                                .collect::<Vec<_>>()
                                .join(", "),
                        },
                    )
                })
            })
            .collect()
    }

    /// A caption's text parsed, its errors located inside the string.
    fn caption(&self, raw: &Spanned<String>) -> Result<Caption, LessonError> {
        Caption::parse(raw.get_ref()).map_err(|e| {
            let (start, exact) = content_start(self.text, &raw.span());
            let byte = if exact {
                start + e.offset
            } else {
                raw.span().start
            };
            self.err_at(byte, K::Caption { message: e.message })
        })
    }

    fn path(&self, raw: &Spanned<String>) -> Located<NodePath> {
        self.located(NodePath::parse(raw.get_ref()), &raw.span())
    }

    fn ask(&self, raw: &Spanned<RawAsk>) -> Result<Located<Ask>, LessonError> {
        let a = raw.get_ref();
        let kind = AskKind::from_name(a.kind.get_ref()).ok_or_else(|| {
            self.err_at(
                a.kind.span().start,
                K::UnknownAskKind {
                    name: a.kind.get_ref().clone(),
                    known: AskKind::NAMES.join(", "),
                },
            )
        })?;
        let node = a.node.as_ref().map(|n| self.path(n));
        let value = a
            .value
            .as_ref()
            .map(|v| self.located(v.get_ref().clone(), &v.span()));
        match kind {
            AskKind::MostProving => {
                if let Some(n) = &a.node {
                    return Err(self.err_at(n.span().start, K::MostProvingNamesNode));
                }
            }
            AskKind::Child => {}
            AskKind::Value => {
                if a.value.is_none() {
                    return Err(self.err_at(raw.span().start, K::ValueNotNamed));
                }
            }
        }
        if kind != AskKind::Value {
            if let Some(v) = &a.value {
                return Err(self.err_at(v.span().start, K::ValueOnValueQuestionsOnly));
            }
        }
        Ok(self.located(
            Ask {
                kind,
                node,
                value,
                prompt: a.prompt.clone(),
            },
            &raw.span(),
        ))
    }

    fn step(
        &self,
        raw: &Spanned<RawStep>,
        k: usize,
        algo_so_far: &mut Option<String>,
        explicit_algo: &mut bool,
    ) -> Result<Step, LessonError> {
        let s = raw.get_ref();
        let header_line = self.step_header_line(raw, k);
        let Some(caption_raw) = &s.caption else {
            return Err(self.err(
                Loc {
                    line: header_line,
                    col: 1,
                },
                K::NoCaption { step: k + 1 },
            ));
        };
        let caption = self.caption(caption_raw)?;
        let reveal = self.reveal(s)?;
        let position = self.step_position(s, algo_so_far, *explicit_algo)?;
        let goal = self.step_goal(s)?;
        let algo = self.step_algo(s, algo_so_far, explicit_algo)?;
        let params = self.step_params(s, algo_so_far.as_deref())?;
        let seed = self.seed(s)?;
        let iteration = self.iteration(s)?;
        let show = self.show(s, raw)?;
        let race = self.race(s)?;
        Ok(Step {
            title: s.title.clone(),
            caption,
            reveal,
            caption_at: self.loc(caption_raw.span().start),
            line: header_line,
            position,
            goal,
            algo,
            params,
            seed,
            iteration,
            select: s.select.as_ref().map(|p| self.path(p)),
            highlight: s.highlight.iter().map(|p| self.path(p)).collect(),
            cells: s
                .cells
                .iter()
                .map(|c| self.located(c.get_ref().trim().to_string(), &c.span()))
                .collect(),
            show,
            race,
            ask: s.ask.as_ref().map(|a| self.ask(a)).transpose()?,
        })
    }

    /// The `k`-th `[[step]]` header line (a table's span starts at its
    /// first key, and an empty table has none).
    fn step_header_line(&self, raw: &Spanned<RawStep>, k: usize) -> usize {
        self.text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim() == "[[step]]")
            .nth(k)
            .map(|(i, _)| i + 1)
            .unwrap_or_else(|| self.loc(raw.span().start).line)
    }

    /// The caption shown once the step's question is answered; only a
    /// step with an `ask` has one.
    fn reveal(&self, s: &RawStep) -> Result<Option<Caption>, LessonError> {
        match &s.reveal {
            Some(r) if s.ask.is_none() => Err(self.err_at(r.span().start, K::RevealWithoutAsk)),
            Some(r) => Ok(Some(self.caption(r)?)),
            None => Ok(None),
        }
    }

    /// The step's position. Unless a step set `algo` explicitly, the
    /// position's suggested algorithm (else the default) becomes the
    /// algorithm so far.
    fn step_position(
        &self,
        s: &RawStep,
        algo_so_far: &mut Option<String>,
        explicit_algo: bool,
    ) -> Result<Option<Located<Arc<PositionEntry>>>, LessonError> {
        let Some(p) = &s.position else {
            return Ok(None);
        };
        let entry = self.position(p)?;
        if !explicit_algo {
            *algo_so_far = Some(
                entry
                    .algo
                    .clone()
                    .unwrap_or_else(|| DEFAULT_ALGO.to_string()),
            );
        }
        Ok(Some(Located {
            value: entry,
            at: self.loc(p.span().start),
            inner: None,
        }))
    }

    /// The step's goal, else its position's.
    fn step_goal(&self, s: &RawStep) -> Result<Option<QuestionKind>, LessonError> {
        let goal = s.goal.as_ref().map(|g| self.goal(g)).transpose()?;
        if goal.is_some() {
            return Ok(goal);
        }
        match s.position.as_ref().and_then(|p| p.get_ref().goal.as_ref()) {
            Some(g) => Ok(Some(self.goal(g)?)),
            None => Ok(None),
        }
    }

    /// The step's algorithm, checked by name; it becomes the algorithm so
    /// far, set explicitly.
    fn step_algo(
        &self,
        s: &RawStep,
        algo_so_far: &mut Option<String>,
        explicit_algo: &mut bool,
    ) -> Result<Option<Located<String>>, LessonError> {
        let Some(a) = &s.algo else {
            return Ok(None);
        };
        find_algo(a.get_ref()).map_err(|e| self.err_at(a.span().start, K::UnknownAlgorithm(e)))?;
        *algo_so_far = Some(a.get_ref().clone());
        *explicit_algo = true;
        Ok(Some(self.located(a.get_ref().clone(), &a.span())))
    }

    /// The step's parameters, checked against the algorithm so far.
    fn step_params(
        &self,
        s: &RawStep,
        algo_so_far: Option<&str>,
    ) -> Result<Option<Located<ParamPairs>>, LessonError> {
        let Some(p) = &s.params else {
            return Ok(None);
        };
        let Some(name) = algo_so_far else {
            return Err(self.err_at(p.span().start, K::ParamsBeforeAlgo));
        };
        Ok(Some(Located {
            value: self.params(p, name)?,
            at: self.loc(p.span().start),
            inner: None,
        }))
    }

    fn seed(&self, s: &RawStep) -> Result<Option<u64>, LessonError> {
        match &s.seed {
            Some(v) if *v.get_ref() >= 0 => Ok(Some(*v.get_ref() as u64)),
            Some(v) => Err(self.err_at(v.span().start, K::NegativeSeed)),
            None => Ok(None),
        }
    }

    /// The iteration the step shows: a number or `"end"`.
    fn iteration(&self, s: &RawStep) -> Result<Option<Located<Iteration>>, LessonError> {
        let Some(v) = &s.iteration else {
            return Ok(None);
        };
        let it = match v.get_ref() {
            toml::Value::Integer(n) if *n >= 0 && (*n as u64) <= MAX_ITERATIONS => {
                Iteration::At(*n as u64)
            }
            toml::Value::String(w) if w == "end" => Iteration::End,
            _ => {
                return Err(self.err_at(
                    v.span().start,
                    K::BadIteration {
                        max: MAX_ITERATIONS,
                    },
                ))
            }
        };
        Ok(Some(self.located(it, &v.span())))
    }

    /// The panels the step shows, located at the first (else at the
    /// step).
    fn show(
        &self,
        s: &RawStep,
        raw: &Spanned<RawStep>,
    ) -> Result<Option<Located<Vec<Panel>>>, LessonError> {
        let Some(v) = &s.show else {
            return Ok(None);
        };
        Ok(Some(Located {
            value: self.panels(v)?,
            at: v
                .first()
                .map(|x| self.loc(x.span().start))
                .unwrap_or_else(|| self.loc(raw.span().start)),
            inner: None,
        }))
    }

    /// The second search the step races against its own.
    fn race(&self, s: &RawStep) -> Result<Option<RaceSpec>, LessonError> {
        let Some(r) = &s.race else {
            return Ok(None);
        };
        let rr = r.get_ref();
        find_algo(rr.algo.get_ref())
            .map_err(|e| self.err_at(rr.algo.span().start, K::UnknownAlgorithm(e)))?;
        let params = match &rr.params {
            Some(p) => self.params(p, rr.algo.get_ref())?,
            None => Vec::new(),
        };
        Ok(Some(RaceSpec {
            algo: self.located(rr.algo.get_ref().clone(), &rr.algo.span()),
            params,
            label: rr.label.clone(),
        }))
    }
}

/// Reads a lesson from its text; `file` names it in errors and is the
/// base of the relative position files it names, which `source` reads.
pub fn read(file: &str, text: &str, source: &dyn Source) -> Result<Lesson, LessonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let r = Reader { file, text, source };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let byte = e.span().map(|s| s.start).unwrap_or(0);
        r.err_at(
            byte,
            K::Toml {
                message: e.message().trim().to_string(),
            },
        )
    })?;
    let Some(header) = raw.lesson else {
        return Err(r.err(Loc { line: 1, col: 1 }, K::NoLessonTable));
    };
    let h = header.into_inner();
    if h.title.get_ref().trim().is_empty() {
        return Err(r.err_at(h.title.span().start, K::EmptyTitle));
    }
    if raw.step.is_empty() {
        return Err(r.err(Loc { line: 1, col: 1 }, K::NoSteps));
    }
    let (mut algo_so_far, mut explicit_algo) = (None, false);
    let mut steps = Vec::with_capacity(raw.step.len());
    for (k, s) in raw.step.iter().enumerate() {
        steps.push(r.step(s, k, &mut algo_so_far, &mut explicit_algo)?);
    }
    let first = &raw.step[0];
    if first.get_ref().position.is_none() {
        return Err(r.err(
            Loc {
                line: steps[0].line,
                col: 1,
            },
            K::FirstStepWithoutPosition,
        ));
    }
    Ok(Lesson {
        file: file.to_string(),
        title: h.title.into_inner().trim().to_string(),
        summary: h.summary.unwrap_or_default().trim().to_string(),
        topic: h.topic,
        sources: h.sources,
        minutes: h.minutes,
        steps,
    })
}
