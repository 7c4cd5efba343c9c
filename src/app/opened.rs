//! The open position and everything derived from it, in one owner: the
//! title, the notes (following the game record's ply), the root position
//! the search starts from (the record's ply and the mate question
//! applied), its moves, the exhaustive "correct moves" reference and the
//! error-rate curve's basis. Everything is worked out again whenever the
//! position changes, by whatever route it was opened (command line, File
//! › Open, the browser, recent files, a record's ply, drag and drop), so
//! no panel can show a previous position's facts: the panels read them
//! from here.

use crate::game::AnyPosition;
use crate::positions::PositionEntry;
use crate::search::{Algorithm, Params, QuestionKind, SearchSetup};

use super::error::AppError;
use super::error_rate::CorrectMovesTask;
use super::record_view::{self, RecordView};

/// The open position (see the module docs).
pub struct Opened {
    entry: PositionEntry,
    record: Option<RecordView>,
    within: Option<u32>,
    root: AnyPosition,
    moves: Vec<String>,
    notes: String,
    /// The correct root moves (worked out in the background).
    pub correct: CorrectMovesTask,
    /// Bumped whenever the position changes (a cache key for panels).
    pub generation: u64,
}

impl Opened {
    /// Opens `entry`. A game record opens on the last position that has
    /// something to search (a finished game on the position before the
    /// end), or its start.
    pub fn new(entry: PositionEntry) -> Opened {
        let record = entry.record.clone().map(|line| {
            let mut view = RecordView::new(line);
            let ply = (0..=view.len())
                .rev()
                .find(|&k| {
                    view.line
                        .position_after(k)
                        .is_ok_and(|p| p.outcome().is_none())
                })
                .unwrap_or(0);
            view.go(ply);
            view
        });
        let within = entry.position.within_limit();
        let mut opened = Opened {
            root: entry.position.clone(),
            entry,
            record,
            within,
            moves: Vec::new(),
            notes: String::new(),
            correct: CorrectMovesTask::default(),
            generation: 0,
        };
        opened.derive();
        opened
    }

    /// Works out everything that depends on the position.
    fn derive(&mut self) {
        let base = match &self.record {
            Some(view) => view
                .position()
                .unwrap_or_else(|_| self.entry.position.clone()),
            None => self.entry.position.clone(),
        };
        self.root = record_view::with_question(&base, self.within);
        self.moves = self.root.legal_move_names();
        self.notes = match &self.record {
            Some(view) => record_notes(&self.entry.notes, view),
            None => self.entry.notes.clone(),
        };
        let best = self
            .entry
            .expected
            .as_ref()
            .filter(|_| self.record.as_ref().is_none_or(|v| v.ply == v.len()))
            .map(|e| e.best_moves.clone())
            .unwrap_or_default();
        let q = self.setup_with(Params::default(), 0).root_question();
        self.correct.start(&self.root, q, &best);
        self.generation += 1;
    }

    /// The entry as it was read.
    pub fn entry(&self) -> &PositionEntry {
        &self.entry
    }

    /// The title: the entry's name.
    pub fn title(&self) -> &str {
        &self.entry.name
    }

    /// The notes, for the ply shown when the entry is a game record.
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// The position the search starts from.
    pub fn root(&self) -> &AnyPosition {
        &self.root
    }

    /// The root's legal moves in notation, in legal-move order.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The game record viewer, when the entry is a recorded game.
    pub fn record(&self) -> Option<&RecordView> {
        self.record.as_ref()
    }

    /// The mate question's limit (`None`: a plain win).
    pub fn within(&self) -> Option<u32> {
        self.within
    }

    /// Makes the position after `ply` moves of the record the root;
    /// whether anything changed (an error when the record's move does not
    /// play).
    pub fn go_to_ply(&mut self, ply: usize) -> Result<bool, AppError> {
        let Some(view) = self.record.as_mut() else {
            return Ok(false);
        };
        let old = view.ply;
        if !view.go(ply) {
            return Ok(false);
        }
        if let Err(e) = view.position() {
            view.go(old);
            return Err(AppError::Record {
                record: self.entry.name.clone(),
                error: e,
            });
        }
        self.derive();
        Ok(true)
    }

    /// Asks the mate question with `within` moves (`None`: a plain win).
    pub fn set_within(&mut self, within: Option<u32>) {
        if self.within != within {
            self.within = within;
            self.derive();
        }
    }

    /// The setup of a run of `algo` on the root, with the `params` that
    /// apply to the root's game (see
    /// [`AlgoInfo::params_on`](crate::search::registry::AlgoInfo::params_on)).
    pub fn setup(&self, algo: Algorithm, params: &Params, seed: u64) -> SearchSetup {
        self.setup_with(algo.params_on(self.root.kind(), params), seed)
    }

    /// The setup of a run on the root with `params` as they are.
    fn setup_with(&self, params: Params, seed: u64) -> SearchSetup {
        SearchSetup {
            position: self.root.clone(),
            params,
            seed,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        }
    }

    /// The file's stated result, when the root is the entry's position.
    pub fn expected_result(&self) -> Option<&str> {
        if self.record.as_ref().is_some_and(|v| v.ply != v.len()) {
            return None;
        }
        self.entry.expected.as_ref()?.result.as_deref()
    }
}

/// A record's notes at the viewer's ply: which position it is, then the
/// record's tags (the entry's notes after their first line).
fn record_notes(entry_notes: &str, view: &RecordView) -> String {
    let here = match view.last_move() {
        None => format!("{} plies; the start position.", view.len()),
        Some(mv) if view.ply == view.len() => {
            format!(
                "{} plies; the position after the last move ({mv}).",
                view.len()
            )
        }
        Some(mv) => format!(
            "{} plies; the position after ply {} ({mv}).",
            view.len(),
            view.ply
        ),
    };
    let tags: Vec<&str> = entry_notes.lines().skip(1).collect();
    if tags.is_empty() {
        here
    } else {
        format!("{here}\n{}", tags.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions;

    fn load(rel: &str) -> PositionEntry {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        positions::load_file(&path).unwrap().remove(0)
    }

    #[test]
    fn a_finished_game_record_opens_before_its_end_and_the_notes_follow_the_ply() {
        let entry = load("positions/xiangqi/master-game.pgn");
        let plies = entry.record.as_ref().unwrap().moves.len();
        assert!(entry.position.outcome().is_some(), "the game is finished");
        let mut o = Opened::new(entry);
        let view = o.record().unwrap();
        assert!(view.ply < plies, "opens before the end");
        assert!(o.root().outcome().is_none(), "something to search");
        assert!(!o.moves().is_empty());
        o.go_to_ply(14).unwrap();
        assert!(
            o.notes()
                .starts_with(&format!("{plies} plies; the position after ply 14")),
            "{}",
            o.notes()
        );
        o.go_to_ply(0).unwrap();
        assert!(o.notes().contains("the start position"), "{}", o.notes());
        assert_eq!(o.expected_result(), None);
    }

    #[test]
    fn the_mate_question_changes_the_root_and_keeps_the_moves() {
        let entry = load("positions/trees/seesaw.tree");
        let mut o = Opened::new(entry);
        let moves = o.moves().to_vec();
        let g = o.generation;
        o.set_within(Some(3));
        assert_eq!(o.root().within_limit(), Some(3));
        assert_eq!(o.moves(), moves.as_slice());
        assert!(o.generation > g);
    }
}
