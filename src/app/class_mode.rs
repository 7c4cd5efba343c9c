//! Class mode: the selection path is hidden, the student clicks the node
//! they predict is most-proving, the app reveals the true one (the end of
//! the snapshot's selection path), keeps the score and runs the iteration.
//! Plain logic; the side panel shows the score and the tree view turns
//! clicks into predictions.

use crate::search::{NodeId, Snapshot};

/// The class's score and the last verdict.
#[derive(Clone, Debug, Default)]
pub struct ClassMode {
    /// Predictions are being taken (the path is hidden).
    pub on: bool,
    /// Correct predictions.
    pub score: u32,
    /// Predictions made.
    pub attempts: u32,
    /// The last verdict shown to the class.
    pub verdict: Option<String>,
}

impl ClassMode {
    /// Scores a prediction of node `id`; true when it was scored (the
    /// caller then runs the iteration that reveals the answer). Nothing
    /// is scored while the run is going or after it finished.
    pub fn predict(&mut self, snap: &Snapshot, running: bool, id: NodeId) -> bool {
        if snap.status.is_final() || running {
            return false;
        }
        let Some(&truth) = snap.selection_path.last() else {
            return false;
        };
        let moves = if snap.selection_moves.is_empty() {
            "the root".to_string()
        } else {
            snap.selection_moves.join(" ")
        };
        self.attempts += 1;
        self.verdict = Some(if truth == id {
            self.score += 1;
            format!("correct: the most-proving node was {moves}")
        } else {
            format!("not this one: the most-proving node was {moves}")
        });
        true
    }

    /// "score 3 / 5".
    pub fn score_text(&self) -> String {
        format!("score {} / {}", self.score, self.attempts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::on_empty_tictactoe;
    use crate::search::ViewRequest;

    fn snapshot_after(steps: u32) -> Snapshot {
        let mut s = on_empty_tictactoe("pns", &[]);
        for _ in 0..steps {
            s.step();
        }
        s.snapshot(&ViewRequest::default())
    }

    #[test]
    fn the_end_of_the_selection_path_scores_and_any_other_node_does_not() {
        let snap = snapshot_after(1);
        let truth = *snap.selection_path.last().unwrap();
        let other = snap.nodes.iter().find(|n| n.id != truth).unwrap().id;
        let mut c = ClassMode::default();
        assert!(c.predict(&snap, false, other));
        assert_eq!(c.score_text(), "score 0 / 1");
        assert!(c.verdict.as_deref().unwrap().starts_with("not this one"));
        assert!(c.predict(&snap, false, truth));
        assert_eq!(c.score_text(), "score 1 / 2");
        assert!(c.verdict.as_deref().unwrap().starts_with("correct"));
    }

    #[test]
    fn nothing_is_scored_while_running() {
        let snap = snapshot_after(1);
        let mut c = ClassMode::default();
        assert!(!c.predict(&snap, true, snap.selection_path[0]));
        assert_eq!(c.attempts, 0);
    }
}
