//! The lessons a live-class server offers, and each one played once.
//!
//! A room judges its students' answers with the engine's own verdict, so
//! it needs every question step's tree and question. Playing a lesson
//! costs its searches (a second or so for the longer ones), so each
//! lesson is played at most once per server and shared by every room
//! that teaches it.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::lesson::bundled::LESSONS;
use crate::lesson::path::{path_of, ChildIndex, NodePath};
use crate::lesson::question::{Question, Response, Verdict};
use crate::lesson::source::{Bundled, DiskThenBundled};
use crate::lesson::{AskKind, Lesson};

use super::error::CatalogueError;
use pnlab_core::search::Snapshot;

/// A step's question with what judging an answer needs.
pub struct StepQuestion {
    /// The question and the engine's answer.
    pub question: Question,
    /// The step's tree as the lesson draws it (the verdict names nodes in it).
    pub snapshot: Snapshot,
    /// The paths of the tree's nodes (an answer naming another is refused).
    pub paths: HashSet<Vec<String>>,
}

impl StepQuestion {
    /// Whether the question wants a node (most-proving, child) rather
    /// than a typed value.
    pub fn wants_node(&self) -> bool {
        !matches!(self.question.kind, AskKind::Value)
    }

    /// Whether `moves` names a node of the step's tree (a tree path, or
    /// a path through a shared node's second parent).
    pub fn knows(&self, moves: &[String]) -> bool {
        self.paths.contains(moves)
            || ChildIndex::new(&self.snapshot)
                .resolve(&NodePath::from_moves(moves.to_vec()), None)
                .is_ok()
    }

    /// The engine's verdict on a node answer.
    pub fn judge_node(&self, moves: &[String]) -> Verdict {
        self.question.check(
            &self.snapshot,
            &Response::Path(NodePath::from_moves(moves.to_vec())),
        )
    }

    /// The engine's verdict on a typed value.
    pub fn judge_value(&self, text: &str) -> Verdict {
        self.question
            .check(&self.snapshot, &Response::Text(text.to_string()))
    }
}

/// A lesson played through: its text (the devices play it themselves)
/// and, per step, its question if it asks one.
pub struct PlayedLesson {
    /// The name the server offers it under.
    pub name: String,
    /// The lesson file's text.
    pub text: String,
    /// One entry per step: the question, or `None` for a step that asks nothing.
    pub questions: Vec<Option<StepQuestion>>,
}

impl PlayedLesson {
    /// Plays `lesson` (named `name`, read from `text`) once, keeping each
    /// question step's question and tree.
    pub fn play(name: &str, text: &str, lesson: &Lesson) -> Result<PlayedLesson, CatalogueError> {
        let mut questions = Vec::with_capacity(lesson.len());
        lesson.play_all(|state| {
            questions.push(state.question.as_ref().map(|q| {
                StepQuestion {
                    question: q.clone(),
                    paths: (0..state.snapshot.nodes.len())
                        .map(|i| path_of(&state.snapshot, i).moves)
                        .collect(),
                    snapshot: state.snapshot.clone(),
                }
            }));
            Ok(())
        })?;
        Ok(PlayedLesson {
            name: name.to_string(),
            text: text.to_string(),
            questions,
        })
    }

    /// The number of steps.
    pub fn steps(&self) -> usize {
        self.questions.len()
    }
}

/// Where a lesson's text comes from, so it reads the files it names the
/// same way the page does.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Origin {
    /// Embedded in the binary (positions from the embedded files).
    Bundled,
    /// A file of `--lessons DIR` (positions beside it on disk, then embedded).
    Disk(std::path::PathBuf),
}

/// One offered lesson: its text, read once.
struct Offered {
    name: String,
    text: String,
    origin: Origin,
}

/// The lessons a server offers: every bundled lesson under its bundled
/// path (`lessons/02-pns-step-by-step.lesson.toml`), then the
/// `*.lesson.toml` files of a folder under their file names.
pub struct Catalogue {
    offered: Vec<Offered>,
    played: Mutex<HashMap<String, Arc<PlayedLesson>>>,
}

impl Catalogue {
    /// The bundled lessons only.
    pub fn bundled() -> Catalogue {
        Catalogue {
            offered: LESSONS
                .iter()
                .map(|f| Offered {
                    name: f.path.to_string(),
                    text: f.text.to_string(),
                    origin: Origin::Bundled,
                })
                .collect(),
            played: Mutex::new(HashMap::new()),
        }
    }

    /// The bundled lessons and the `*.lesson.toml` files of `dir`, each
    /// read and checked as a file now (a broken one is the error, with
    /// its file, line and column).
    pub fn with_folder(dir: &Path) -> Result<Catalogue, CatalogueError> {
        let mut c = Catalogue::bundled();
        let entries = std::fs::read_dir(dir).map_err(|source| CatalogueError::Folder {
            dir: dir.to_path_buf(),
            source,
        })?;
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && crate::lesson::is_lesson_path(p))
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(CatalogueError::NoLessons {
                dir: dir.to_path_buf(),
            });
        }
        for p in paths {
            let text = pnlab_core::files::read_text(&p).map_err(CatalogueError::Unreadable)?;
            Lesson::load_text(&p.display().to_string(), &text, &DiskThenBundled)?;
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if c.offered.iter().any(|o| o.name == name) {
                return Err(CatalogueError::Twice {
                    dir: dir.to_path_buf(),
                    name,
                });
            }
            c.offered.push(Offered {
                name,
                text,
                origin: Origin::Disk(p),
            });
        }
        Ok(c)
    }

    /// The names offered, in order.
    pub fn names(&self) -> Vec<&str> {
        self.offered.iter().map(|o| o.name.as_str()).collect()
    }

    /// A lesson's text.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.find(name).map(|o| o.text.as_str())
    }

    fn find(&self, name: &str) -> Option<&Offered> {
        self.offered.iter().find(|o| o.name == name)
    }

    /// The lesson played through (played now if no room asked before).
    pub fn played(&self, name: &str) -> Result<Arc<PlayedLesson>, CatalogueError> {
        if let Some(p) = self.lock().get(name) {
            return Ok(p.clone());
        }
        let o = self
            .find(name)
            .ok_or_else(|| CatalogueError::NoSuchLesson {
                name: name.to_string(),
            })?;
        let lesson = match &o.origin {
            Origin::Bundled => Lesson::load_text(&o.name, &o.text, &Bundled),
            Origin::Disk(p) => {
                Lesson::load_text(&p.display().to_string(), &o.text, &DiskThenBundled)
            }
        }?;
        let played = Arc::new(PlayedLesson::play(&o.name, &o.text, &lesson)?);
        self.lock().insert(name.to_string(), played.clone());
        Ok(played)
    }

    /// Whether `name` was played already (creating its room costs nothing).
    pub fn is_played(&self, name: &str) -> bool {
        self.lock().contains_key(name)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<PlayedLesson>>> {
        self.played.lock().unwrap_or_else(|e| e.into_inner())
    }
}
