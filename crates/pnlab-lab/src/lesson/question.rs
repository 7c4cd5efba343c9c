//! A step's question: its answer, computed by the engine when the step
//! is reached, the reason in the inspector's own words (the algorithm's
//! [`Inspection`] formulas and choice lines, with the numbers), and the
//! verdict on an answer. Nothing of an answer is ever written in a
//! lesson file.
//!
//! - `most-proving`: the node the next iteration expands, i.e. the end of
//!   the search's selection path. It is asked only where that holds: the
//!   player runs the search one iteration further and checks that the
//!   node was expanded (an algorithm whose path does not end at the node
//!   it expands gets a located error, not a wrong answer).
//! - `child`: the child the search chooses at a node of its path.
//! - `value`: a value the algorithm shows for a node (`pn`, `dn`, …).

use pnlab_core::search::snapshot::{fmt_value, Inspection};
use pnlab_core::search::{NodeId, Search, Snapshot, ViewRequest};

use super::error::{LessonError, LessonErrorKind as K};
use super::format::{Iteration, Loc};
use super::path::{path_of, ChildIndex, NodePath};
use super::player::{lesson_view, resolve, run, ResolvedNode};
use super::{Ask, AskKind, Lesson, Located, Setting};

/// The engine's answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// A node (most-proving and child questions).
    Node(ResolvedNode),
    /// A number (value questions); `shown` is how the inspector writes it.
    Number {
        /// The value (∞ for INF).
        value: f64,
        /// As the inspector writes it (`2`, `∞`, `0.350`).
        shown: String,
    },
}

/// A question with its answer and the reason.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Question {
    /// What kind of answer is expected.
    pub kind: AskKind,
    /// The prompt shown to the class.
    pub prompt: String,
    /// The node asked about (child and value questions).
    pub node: Option<ResolvedNode>,
    /// Value questions: the value's name.
    pub value_name: Option<String>,
    /// The answer.
    pub answer: Answer,
    /// Why: the inspector's lines with the numbers filled in.
    pub reason: Vec<String>,
    /// Child questions: the children to choose from (clickable).
    pub choices: Vec<ResolvedNode>,
}

/// An answer given by the class.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// A node clicked in the tree.
    Node(NodeId),
    /// A node named by its path.
    Path(NodePath),
    /// A typed value (`3`, `inf`, `∞`).
    Text(String),
}

/// Right or wrong, with the explanation to show.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// Whether the answer was right.
    pub correct: bool,
    /// One line: "Right: …" or "Not … : …".
    pub headline: String,
    /// The reason, and for a wrong node where it parts from the answer.
    pub explanation: Vec<String>,
}

/// A node's name for sentences: `the root` or `node b e`.
fn name(p: &NodePath) -> String {
    if p.is_root() {
        "the root".into()
    } else {
        format!("node {}", p.moves.join(" "))
    }
}

/// `pn 2, dn 1`: a node's values as the tree labels them.
fn values_text(snap: &Snapshot, i: usize) -> String {
    snap.value_names
        .iter()
        .zip(&snap.nodes[i].values)
        .filter(|(_, v)| !v.is_nan())
        .map(|(n, v)| format!("{n} {}", fmt_value(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The inspection of node `id` (a fresh snapshot that inspects it).
fn inspect(search: &dyn Search, id: NodeId) -> Option<Inspection> {
    search
        .snapshot(&ViewRequest {
            inspect: Some(id),
            max_depth: 1,
            max_nodes: 64,
            ..ViewRequest::default()
        })
        .inspection
}

/// The choice lines along the selection path: "at the root: picked …".
fn path_reasons(search: &dyn Search, snap: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let moves = &snap.selection_moves;
    for (k, &id) in snap.selection_path.iter().enumerate() {
        if k + 1 == snap.selection_path.len() {
            break;
        }
        let at = NodePath::from_moves(moves[..k.min(moves.len())].to_vec());
        if let Some(choice) = inspect(search, id).and_then(|i| i.choice) {
            out.push(format!("at {}: {choice}", name(&at)));
        }
    }
    out
}

/// Computes the question of a step from its search.
pub(crate) fn compute(
    lesson: &Lesson,
    setting: &Setting,
    search: &dyn Search,
    snap: &Snapshot,
    ask: &Located<Ask>,
) -> Result<Question, LessonError> {
    let asking = Asking {
        lesson,
        setting,
        search,
        snap,
        ask,
        index: ChildIndex::new(snap),
    };
    match ask.value.kind {
        AskKind::MostProving => asking.most_proving(),
        AskKind::Child => asking.child(),
        AskKind::Value => asking.value(),
    }
}

/// A question being computed: the `ask` line and the step's lesson,
/// setting, search and snapshot it is asked of.
struct Asking<'a> {
    lesson: &'a Lesson,
    setting: &'a Setting,
    search: &'a dyn Search,
    snap: &'a Snapshot,
    ask: &'a Located<Ask>,
    index: ChildIndex<'a>,
}

impl Asking<'_> {
    /// An error at `at` in the lesson file.
    fn err(&self, at: Loc, kind: K) -> LessonError {
        LessonError::new(&self.lesson.file, at.line, at.col, kind)
    }

    /// The error of a most-proving or child question asked of a search
    /// that is over: it expands and chooses nothing more.
    fn over(&self) -> LessonError {
        let it = self.snap.counters.iterations;
        self.err(
            self.ask.at,
            K::SearchOver {
                iteration: it,
                status: super::player::status_words(self.search),
            },
        )
    }

    /// The snapshot index of the node at `p`, if the snapshot has it.
    fn node_of(&self, p: &NodePath) -> Option<usize> {
        self.index
            .resolve(p, Some(&self.setting.position.value.position))
            .ok()
    }

    /// The node the question names, or the root when it names none.
    fn asked_node(&self) -> Result<ResolvedNode, LessonError> {
        Ok(match &self.ask.value.node {
            Some(p) => resolve(self.lesson, self.setting, self.snap, p)?,
            None => ResolvedNode {
                path: NodePath::default(),
                id: self.snap.nodes.first().map(|n| n.id).unwrap_or_default(),
            },
        })
    }

    /// "Which node will the search expand next?": the end of the
    /// selection path, checked by running one more iteration.
    fn most_proving(&self) -> Result<Question, LessonError> {
        let (a, snap) = (&self.ask.value, self.snap);
        if self.search.status().is_final() {
            return Err(self.over());
        }
        let (&id, path) = match snap.selection_path.last() {
            Some(id) => (id, NodePath::from_moves(snap.selection_moves.clone())),
            None => {
                return Err(self.err(
                    self.ask.at,
                    K::NoSelectionPath {
                        algo: self.setting.algo.clone(),
                    },
                ))
            }
        };
        self.check_expanded_next(id, &path)?;
        let mut reason = path_reasons(self.search, snap);
        if let Some(i) = self.node_of(&path) {
            reason.push(format!(
                "{} is a frontier node ({}): the next iteration expands it",
                name(&path),
                values_text(snap, i)
            ));
        }
        Ok(Question {
            kind: a.kind,
            prompt: a
                .prompt
                .clone()
                .unwrap_or_else(|| "Which node will the search expand next? Click it.".into()),
            node: None,
            value_name: None,
            answer: Answer::Node(ResolvedNode { path, id }),
            reason,
            choices: Vec::new(),
        })
    }

    /// The engine checks a most-proving claim: one more iteration expands
    /// node `id` (at `path`), which is not expanded yet.
    fn check_expanded_next(&self, id: NodeId, path: &NodePath) -> Result<(), LessonError> {
        let setting = self.setting;
        let next = match setting.iteration {
            Iteration::At(_) => {
                run(
                    self.lesson,
                    setting,
                    &setting.algo,
                    &setting.params,
                    setting.algo_at,
                    false,
                    1,
                    None,
                )?
                .0
            }
            Iteration::End => return Err(self.over()),
        };
        let after = next.snapshot(&lesson_view());
        let expanded = after.nodes.iter().find(|n| n.id == id).is_some_and(|n| {
            n.expanded
                || n.terminal
                || n.status != pnlab_core::search::snapshot::NodeStatus::Unknown
        });
        let before = self.snap.nodes.iter().find(|n| n.id == id);
        if before.is_some_and(|n| n.expanded) || !expanded {
            return Err(self.err(
                self.ask.at,
                K::NotExpandedNext {
                    algo: setting.algo.clone(),
                    node: name(path),
                },
            ));
        }
        Ok(())
    }

    /// "Which child of … will the search choose next?": the next node of
    /// the selection path after the asked one.
    fn child(&self) -> Result<Question, LessonError> {
        let (a, snap) = (&self.ask.value, self.snap);
        if self.search.status().is_final() {
            return Err(self.over());
        }
        let asked = self.asked_node()?;
        let k = self.place_on_path(&asked)?;
        let mut moves = asked.path.moves.clone();
        moves.push(snap.selection_moves[k].clone());
        let chosen = ResolvedNode {
            path: NodePath::from_moves(moves),
            id: snap.selection_path[k + 1],
        };
        let mut reason: Vec<String> = Vec::new();
        if let Some(ins) = inspect(self.search, asked.id) {
            if let Some(c) = ins.choice {
                reason.push(format!("at {}: {c}", name(&asked.path)));
            }
            reason.extend(ins.formulas.into_iter().map(|(_, f)| f));
        }
        let choices = self.children_of(&asked);
        Ok(Question {
            kind: a.kind,
            prompt: a.prompt.clone().unwrap_or_else(|| {
                format!(
                    "Which child of {} will the search choose next?",
                    name(&asked.path)
                )
            }),
            node: Some(asked),
            value_name: None,
            answer: Answer::Node(chosen),
            reason,
            choices,
        })
    }

    /// Where the asked node is on the selection path, which must go on
    /// from it to a child already in the tree.
    fn place_on_path(&self, asked: &ResolvedNode) -> Result<usize, LessonError> {
        let snap = self.snap;
        let it = snap.counters.iterations;
        let at = self
            .ask
            .value
            .node
            .as_ref()
            .map(|p| p.at)
            .unwrap_or(self.ask.at);
        let k = snap.selection_path.iter().position(|&x| x == asked.id);
        if let Some(k) = k.filter(|&k| k + 1 == snap.selection_path.len()) {
            if let Some(mv) = snap.selection_moves.get(k) {
                return Err(self.err(
                    at,
                    K::ChildNotInTree {
                        iteration: it,
                        node: name(&asked.path),
                        chosen: mv.clone(),
                        algo: self.setting.algo.clone(),
                    },
                ));
            }
        }
        let Some(k) = k.filter(|&k| k + 1 < snap.selection_path.len()) else {
            let route = if snap.selection_moves.is_empty() {
                "it ends at the root".to_string()
            } else {
                format!("it goes {}", snap.selection_moves.join(" → "))
            };
            return Err(self.err(
                at,
                K::OffPath {
                    iteration: it,
                    node: name(&asked.path),
                    route,
                },
            ));
        };
        Ok(k)
    }

    /// The children of the asked node in the snapshot: the choices the
    /// class clicks among.
    fn children_of(&self, asked: &ResolvedNode) -> Vec<ResolvedNode> {
        let Some(pi) = self.node_of(&asked.path) else {
            return Vec::new();
        };
        self.snap
            .nodes
            .iter()
            .filter(|n| n.parent == Some(pi as u32))
            .map(|n| {
                let mut m = asked.path.moves.clone();
                m.push(n.move_label.clone());
                ResolvedNode {
                    path: NodePath::from_moves(m),
                    id: n.id,
                }
            })
            .collect()
    }

    /// "What is VALUE of …?": the number the snapshot shows.
    fn value(&self) -> Result<Question, LessonError> {
        let (a, snap) = (&self.ask.value, self.snap);
        let asked = self.asked_node()?;
        let vname = a
            .value
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default();
        let vat = a.value.as_ref().map(|v| v.at).unwrap_or(self.ask.at);
        let Some(vi) = snap.value_names.iter().position(|n| *n == vname) else {
            return Err(self.err(
                vat,
                K::NoSuchValue {
                    algo: self.setting.algo.clone(),
                    value: vname.to_string(),
                    known: snap.value_names.join(", "),
                },
            ));
        };
        let i = self.node_of(&asked.path).unwrap_or(0);
        let value = snap.nodes[i].values.get(vi).copied().unwrap_or(f64::NAN);
        if value.is_nan() {
            return Err(self.err(
                vat,
                K::UndefinedValue {
                    node: name(&asked.path),
                    value: vname.to_string(),
                },
            ));
        }
        let reason = self.value_reason(&asked, &vname, value);
        Ok(Question {
            kind: a.kind,
            prompt: a.prompt.clone().unwrap_or_else(|| {
                format!(
                    "What is {vname} of {}? Type the number (∞ as inf).",
                    name(&asked.path)
                )
            }),
            node: Some(asked),
            value_name: Some(vname),
            answer: Answer::Number {
                value,
                shown: fmt_value(value),
            },
            reason,
            choices: Vec::new(),
        })
    }

    /// Why the asked node has `value` as `vname`: the inspector's formula
    /// for that value (else all its formulas), else the value itself.
    fn value_reason(&self, asked: &ResolvedNode, vname: &str, value: f64) -> Vec<String> {
        let mut reason = Vec::new();
        if let Some(ins) = inspect(self.search, asked.id) {
            let own: Vec<String> = ins
                .formulas
                .iter()
                .filter(|(n, _)| *n == vname)
                .map(|(_, f)| f.clone())
                .collect();
            if own.is_empty() {
                reason.extend(ins.formulas.into_iter().map(|(n, f)| format!("{n}: {f}")));
            } else {
                reason.extend(own);
            }
        }
        if reason.is_empty() {
            reason.push(format!("{vname} = {}", fmt_value(value)));
        }
        reason
    }
}

/// Reads a typed number: `3`, `-2`, `0.35`, `inf`, `∞`.
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "inf" | "∞" | "infinity" | "+inf" | "+∞" => Some(f64::INFINITY),
        "-inf" | "-∞" | "−∞" | "-infinity" => Some(f64::NEG_INFINITY),
        _ => t
            .replace('−', "-")
            .parse::<f64>()
            .ok()
            .filter(|v| !v.is_nan()),
    }
}

/// Whether a typed number matches the answer as the inspector shows it
/// (integers exactly, reals to the three decimals shown).
fn same_number(given: f64, answer: f64) -> bool {
    if answer.is_infinite() || given.is_infinite() {
        return given == answer;
    }
    if answer.fract() == 0.0 {
        return given == answer;
    }
    (given - answer).abs() < 0.000_5 + 1e-12
}

impl Question {
    /// The answer in words (`the node c h`, `2`).
    pub fn answer_text(&self) -> String {
        match &self.answer {
            Answer::Node(n) => name(&n.path),
            Answer::Number { shown, .. } => shown.clone(),
        }
    }

    /// Judges a response; `snap` is the step's snapshot (to name and
    /// describe a clicked node).
    pub fn check(&self, snap: &Snapshot, response: &Response) -> Verdict {
        match (&self.answer, response) {
            (Answer::Number { value, shown }, Response::Text(t)) => {
                let what = match (&self.value_name, &self.node) {
                    (Some(v), Some(n)) => format!("{v} of {}", name(&n.path)),
                    _ => "the value".into(),
                };
                match parse_number(t) {
                    Some(g) if same_number(g, *value) => Verdict {
                        correct: true,
                        headline: format!("Right: {what} is {shown}."),
                        explanation: self.reason.clone(),
                    },
                    Some(g) => Verdict {
                        correct: false,
                        headline: format!("Not {}: {what} is {shown}.", fmt_value(g)),
                        explanation: self.reason.clone(),
                    },
                    None => Verdict {
                        correct: false,
                        headline: format!("`{}` is not a number: {what} is {shown}.", t.trim()),
                        explanation: self.reason.clone(),
                    },
                }
            }
            (Answer::Number { shown, .. }, _) => Verdict {
                correct: false,
                headline: format!("This question wants a number: the answer is {shown}."),
                explanation: self.reason.clone(),
            },
            (Answer::Node(truth), r) => {
                let index = ChildIndex::new(snap);
                let given: Option<(NodeId, NodePath)> = match r {
                    Response::Node(id) => snap
                        .nodes
                        .iter()
                        .position(|n| n.id == *id)
                        .map(|i| (*id, path_of(snap, i))),
                    Response::Path(p) => index.resolve_id(p, None).ok().map(|id| (id, p.clone())),
                    Response::Text(t) => {
                        let p = NodePath::parse(t);
                        index.resolve_id(&p, None).ok().map(|id| (id, p))
                    }
                };
                let Some((gid, gpath)) = given else {
                    return Verdict {
                        correct: false,
                        headline: format!(
                            "That is no node of the tree: the answer is {}.",
                            name(&truth.path)
                        ),
                        explanation: self.reason.clone(),
                    };
                };
                if gid == truth.id {
                    return Verdict {
                        correct: true,
                        headline: format!("Right: {}.", name(&truth.path)),
                        explanation: self.reason.clone(),
                    };
                }
                let mut explanation = self.reason.clone();
                let common = gpath
                    .moves
                    .iter()
                    .zip(&truth.path.moves)
                    .take_while(|(a, b)| a == b)
                    .count();
                if common == gpath.moves.len() {
                    explanation.push(format!(
                        "{} lies on the search's way, but the search goes on below it to {}.",
                        name(&gpath),
                        name(&truth.path)
                    ));
                } else if common < truth.path.moves.len() {
                    let at = NodePath::from_moves(gpath.moves[..common].to_vec());
                    let mine = NodePath::from_moves(gpath.moves[..=common].to_vec());
                    let theirs = NodePath::from_moves(truth.path.moves[..=common].to_vec());
                    let vals = |p: &NodePath| {
                        index
                            .resolve(p, None)
                            .map(|i| values_text(snap, i))
                            .unwrap_or_default()
                    };
                    explanation.push(format!(
                        "At {} the search takes {} ({}), not {} ({}).",
                        name(&at),
                        name(&theirs),
                        vals(&theirs),
                        name(&mine),
                        vals(&mine)
                    ));
                }
                Verdict {
                    correct: false,
                    headline: format!("Not {}: the answer is {}.", name(&gpath), name(&truth.path)),
                    explanation,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_read_like_the_inspector_writes_them() {
        assert_eq!(parse_number(" 3 "), Some(3.0));
        assert_eq!(parse_number("∞"), Some(f64::INFINITY));
        assert_eq!(parse_number("INF"), Some(f64::INFINITY));
        assert_eq!(parse_number("−2"), Some(-2.0));
        assert_eq!(parse_number("x"), None);
        assert!(same_number(0.35, 0.350_2));
        assert!(!same_number(0.35, 0.351));
        assert!(!same_number(2.0, 3.0));
        assert!(same_number(f64::INFINITY, f64::INFINITY));
    }
}
