//! Class mode: the selection path is hidden, the student clicks the node
//! they predict is most-proving, the app judges it against the true one
//! (the end of the snapshot's selection path) and shows the verdict with
//! the search's choices along the path, keeps the score, and runs the
//! iteration only at the reveal, so nothing moves while the class looks.
//! Plain logic; the side panel shows the score and the tree view turns
//! clicks into predictions.

use crate::search::snapshot::NodeKind;
use crate::search::{NodeId, Snapshot};

use super::lesson_player::ShownVerdict;

/// A prediction made and judged, waiting for the reveal (the iteration
/// runs only then, so the tree does not move under the class).
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The node the class clicked.
    pub predicted: NodeId,
    /// The most-proving node.
    pub truth: NodeId,
    /// The verdict shown over the tree.
    pub verdict: ShownVerdict,
}

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
    /// The prediction waiting for its reveal.
    pub pending: Option<Prediction>,
}

/// How the search chose, node by node along its path: at each node of
/// the selection path, its children's label values and the one taken
/// (the rule PNS follows: least pn at OR nodes, least dn at AND nodes).
pub fn path_reason(snap: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    let path = &snap.selection_path;
    for w in path.windows(2) {
        let (Some(pi), Some(ci)) = (
            snap.nodes.iter().position(|n| n.id == w[0]),
            snap.nodes.iter().position(|n| n.id == w[1]),
        ) else {
            continue;
        };
        let parent = &snap.nodes[pi];
        let name = |i: usize| {
            let n = &snap.nodes[i];
            if n.parent.is_none() {
                "root".to_string()
            } else {
                n.move_label.clone()
            }
        };
        let children: Vec<String> = snap
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.parent == Some(pi as u32))
            .map(|(i, n)| format!("{} {}", name(i), snap.label(&n.values, "/")))
            .collect();
        let side = match parent.kind {
            NodeKind::Or => "OR",
            NodeKind::And => "AND",
            NodeKind::Chance => "chance",
        };
        let tie = tie_note(snap, pi, ci)
            .map(|t| format!("; {t}"))
            .unwrap_or_default();
        out.push(format!(
            "at {} ({side}): {} → {}{tie}",
            name(pi),
            children.join(", "),
            name(ci)
        ));
    }
    out
}

/// When the chosen child ties with others on the number the node chooses
/// by (pn at OR nodes, dn at AND nodes), why it was taken: "L and R tie on
/// pn 2: the tie rule takes the leftmost".
fn tie_note(snap: &Snapshot, parent: usize, chosen: usize) -> Option<String> {
    let by = match snap.nodes[parent].kind {
        NodeKind::Or => "pn",
        NodeKind::And => "dn",
        NodeKind::Chance => return None,
    };
    let k = snap.value_names.iter().position(|n| n == by)?;
    let key = *snap.nodes[chosen].values.get(k)?;
    let tied: Vec<(usize, &str)> = snap
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.parent == Some(parent as u32) && n.values.get(k) == Some(&key))
        .map(|(i, n)| (i, n.move_label.as_str()))
        .collect();
    if tied.len() < 2 {
        return None;
    }
    let names: Vec<&str> = tied.iter().map(|(_, m)| *m).collect();
    let rule = if tied.first().map(|(i, _)| *i) == Some(chosen) {
        "the tie rule takes the leftmost"
    } else {
        "the tie rule (`tie`) takes this one, not the leftmost"
    };
    Some(format!(
        "{} tie on {by} {}: {rule}",
        names.join(" and "),
        crate::search::snapshot::fmt_value(key)
    ))
}

impl ClassMode {
    /// Scores a prediction of node `id`; true when it was scored. The
    /// search does not move: the verdict waits over the tree until
    /// [`reveal`](ClassMode::reveal). Nothing is scored while the run is
    /// going, after it finished, or while a verdict waits.
    pub fn predict(&mut self, snap: &Snapshot, running: bool, id: NodeId) -> bool {
        if snap.status.is_final() || running || self.pending.is_some() {
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
        let correct = truth == id;
        let headline = if correct {
            self.score += 1;
            format!("Right! The most-proving node is {moves}")
        } else {
            format!("Not this one: the most-proving node is {moves}")
        };
        self.verdict = Some(headline.clone());
        let mut lines = path_reason(snap);
        lines.push(self.score_text());
        self.pending = Some(Prediction {
            predicted: id,
            truth,
            verdict: ShownVerdict {
                correct,
                headline,
                lines,
            },
        });
        true
    }

    /// The reveal: the waiting prediction is taken, if there was one (the
    /// caller then runs the iteration and marks the node it expands).
    pub fn reveal(&mut self) -> Option<Prediction> {
        self.pending.take()
    }

    /// The verdict to show over the tree, while one waits.
    pub fn shown(&self) -> Option<ShownVerdict> {
        self.pending.as_ref().map(|p| p.verdict.clone())
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
        assert!(c.verdict.as_deref().unwrap().starts_with("Not this one"));
        // The verdict waits for the reveal; no second prediction meanwhile.
        assert!(!c.predict(&snap, false, truth));
        assert_eq!(c.reveal().map(|p| p.truth), Some(truth));
        assert!(c.predict(&snap, false, truth));
        assert_eq!(c.score_text(), "score 1 / 2");
        assert!(c.verdict.as_deref().unwrap().starts_with("Right"));
    }

    /// A tie is explained: on the empty tic-tac-toe board after one PNS
    /// iteration, the root's nine children all have pn 1 (each is an
    /// unexpanded leaf), so the choice is the tie rule's.
    #[test]
    fn a_tie_says_the_tie_rule_chose() {
        let snap = snapshot_after(1);
        let lines = path_reason(&snap);
        assert!(lines[0].contains("tie on pn 1"), "{lines:?}");
        assert!(lines[0].contains("leftmost"), "{lines:?}");
    }

    #[test]
    fn nothing_is_scored_while_running() {
        let snap = snapshot_after(1);
        let mut c = ClassMode::default();
        assert!(!c.predict(&snap, true, snap.selection_path[0]));
        assert_eq!(c.attempts, 0);
    }
}
