//! The quiz state: while a lesson's question is open, nothing on screen
//! may give its answer away. A class that sees "picked child 2 (R)" in the
//! inspector or "best move R" in the status bar while it is asked which
//! child the search takes has been told, not asked.
//!
//! One rule, applied where the data enters the window: [`Quiz::mask`]
//! rewrites the run's snapshot (every view, the `--state` file and the
//! board overlay draw from it), and the status bar, the curves and the
//! caption ask [`Quiz`] what they may show. The reveal asks the run for a
//! fresh snapshot, so everything comes back at once.
//!
//! What is hidden while the question is open:
//! - every question: the inspector's "why this child" line, the best move
//!   and its verdict, the df-pn path's frames, the curves' last point
//!   (the root's values and its choice at the asked iteration) and the
//!   caption written for after the reveal;
//! - `most-proving` and `child`: the selection path (its highlight and
//!   its moves on the board); `child`: the asked node's formulas too (its
//!   min or sum is the choice worked out);
//! - `value`: the asked node's values, and the formulas of the asked node
//!   and of its parent (whose formula lists the asked value).

use crate::lesson::{AskKind, Question};
use crate::search::{NodeId, Snapshot, StatsSample};

/// An open question, as far as hiding its answer goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Quiz {
    /// What kind of answer is asked.
    pub kind: AskKind,
    /// The node asked about (value and child questions).
    pub asked: Option<NodeId>,
    /// The iteration the question is asked at: the curves stop before it.
    pub iteration: u64,
}

/// What the inspector writes instead of a hidden line.
pub const HIDDEN: &str = "hidden until the answer";

impl Quiz {
    /// The quiz of an open question.
    pub fn of(question: &Question, iteration: u64) -> Quiz {
        Quiz {
            kind: question.kind,
            asked: question.node.as_ref().map(|n| n.id),
            iteration,
        }
    }

    /// The samples the curves may draw: those before the asked
    /// iteration (the last point holds the root's values and choice).
    pub fn curve_samples<'a>(&self, samples: &'a [StatsSample]) -> &'a [StatsSample] {
        let k = samples.partition_point(|s| s.iteration < self.iteration);
        &samples[..k]
    }

    /// Whether the selection path (highlight, moves, frames) is hidden.
    pub fn hides_path(&self) -> bool {
        matches!(self.kind, AskKind::MostProving | AskKind::Child)
    }

    /// Whether node `id`'s values are hidden.
    pub fn hides_values_of(&self, id: NodeId) -> bool {
        self.kind == AskKind::Value && self.asked == Some(id)
    }

    /// Rewrites `snap` so it shows nothing of the answer. Idempotent: a
    /// snapshot masked twice is masked once.
    pub fn mask(&self, snap: &mut Snapshot) {
        if let Some(ins) = snap.inspection.as_mut() {
            if ins.choice.is_some() {
                ins.choice = Some(HIDDEN.to_string());
            }
        }
        // The frames carry the path and the current numbers of the nodes
        // on it (the asked node's among them).
        snap.frames.clear();
        if self.hides_path() {
            for n in &mut snap.nodes {
                n.on_path = false;
            }
            snap.selection_path.clear();
            snap.selection_moves.clear();
        }
        let Some(asked) = self.asked else { return };
        if self.kind == AskKind::Child {
            // The asked node's formula is the choice worked out (`pn =
            // min(2, 1) = 1`): the class works it out from the children.
            if let Some(ins) = snap.inspection.as_mut().filter(|i| i.node == asked) {
                for (_, text) in &mut ins.formulas {
                    *text = HIDDEN.to_string();
                }
            }
            return;
        }
        if self.kind != AskKind::Value {
            return;
        }
        let index = snap.nodes.iter().position(|n| n.id == asked);
        let parent = index
            .and_then(|i| snap.nodes[i].parent)
            .map(|p| snap.nodes[p as usize].id);
        // The asked node, and each ancestor whose only child is the node
        // below it: its numbers are that child's (a lone child decides
        // both min and sum), so they would say the answer too. Their
        // status goes with them: a node coloured proved or disproved
        // tells a 0 or an ∞.
        let mut hidden: Vec<NodeId> = Vec::new();
        let mut at = index;
        while let Some(i) = at {
            hidden.push(snap.nodes[i].id);
            for v in &mut snap.nodes[i].values {
                *v = f64::NAN;
            }
            snap.nodes[i].status = crate::search::snapshot::NodeStatus::Unknown;
            at = snap.nodes[i].parent.map(|p| p as usize).filter(|&p| {
                let children = snap
                    .nodes
                    .iter()
                    .filter(|n| n.parent == Some(p as u32))
                    .count()
                    + snap
                        .extra_edges
                        .iter()
                        .filter(|e| e.from == p as u32)
                        .count();
                children == 1
            });
        }
        for c in &mut snap.root_children {
            if hidden.contains(&c.id) {
                for v in &mut c.values {
                    *v = f64::NAN;
                }
                c.status = crate::search::snapshot::NodeStatus::Unknown;
            }
        }
        if let Some(ins) = snap.inspection.as_mut() {
            if hidden.contains(&ins.node) || Some(ins.node) == parent {
                for (_, text) in &mut ins.formulas {
                    *text = HIDDEN.to_string();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Root with children a and b; a has the lone child c, which has the
    /// lone child d (the asked node): d's numbers are c's and a's.
    #[test]
    fn a_lone_childs_ancestors_are_hidden_with_it() {
        use crate::search::test_nodes::{node, snapshot};
        let mut v = vec![
            node(1, None, 0, 0),
            node(2, Some(0), 0, 1),
            node(3, Some(0), 1, 1),
            node(4, Some(1), 0, 2),
            node(5, Some(3), 0, 3),
        ];
        for n in &mut v {
            n.values = vec![1.0, 2.0];
            n.status = crate::search::snapshot::NodeStatus::Disproven;
        }
        let mut snap = snapshot(v, 2);
        let q = Quiz::of(&question(AskKind::Value, Some(5)), 3);
        q.mask(&mut snap);
        let hidden: Vec<u64> = snap
            .nodes
            .iter()
            .filter(|n| n.values.iter().all(|v| v.is_nan()))
            .map(|n| n.id)
            .collect();
        assert_eq!(hidden, vec![2, 4, 5], "d, its lone-child parent c, and a");
        let unknown = snap
            .nodes
            .iter()
            .filter(|n| hidden.contains(&n.id))
            .all(|n| n.status == crate::search::snapshot::NodeStatus::Unknown);
        assert!(unknown, "their colours do not tell a solved value");
    }
    use crate::lesson::ResolvedNode;
    use crate::lesson::{Answer, NodePath};
    use crate::search::test_support::on_empty_tictactoe;
    use crate::search::ViewRequest;

    fn snapshot(steps: u32, inspect_root: bool) -> Snapshot {
        let mut s = on_empty_tictactoe("pns", &[]);
        for _ in 0..steps {
            s.step();
        }
        let root = s.snapshot(&ViewRequest::default()).nodes[0].id;
        s.snapshot(&ViewRequest {
            inspect: inspect_root.then_some(root),
            ..ViewRequest::default()
        })
    }

    fn question(kind: AskKind, node: Option<NodeId>) -> Question {
        let resolved = |id| ResolvedNode {
            id,
            path: NodePath::from_moves(Vec::new()),
        };
        Question {
            kind,
            prompt: "?".into(),
            node: node.map(resolved),
            value_name: None,
            answer: Answer::Number {
                value: 1.0,
                shown: "1".into(),
            },
            reason: Vec::new(),
            choices: Vec::new(),
        }
    }

    #[test]
    fn a_child_question_hides_the_path_and_the_choice_but_not_the_values() {
        let mut snap = snapshot(3, true);
        assert!(!snap.selection_path.is_empty());
        let root = snap.nodes[0].id;
        let values: Vec<Vec<f64>> = snap.nodes.iter().map(|n| n.values.clone()).collect();
        let q = Quiz::of(&question(AskKind::Child, Some(root)), 3);
        q.mask(&mut snap);
        assert!(snap.selection_path.is_empty() && snap.selection_moves.is_empty());
        assert!(snap.nodes.iter().all(|n| !n.on_path));
        let choice = snap.inspection.as_ref().and_then(|i| i.choice.clone());
        assert_eq!(choice.as_deref(), Some(HIDDEN));
        // The class needs the children's numbers to predict.
        let after: Vec<Vec<f64>> = snap.nodes.iter().map(|n| n.values.clone()).collect();
        assert_eq!(format!("{values:?}"), format!("{after:?}"));
    }

    #[test]
    fn a_value_question_hides_the_asked_node_and_its_formula_only() {
        let mut snap = snapshot(3, true);
        let root = snap.nodes[0].id;
        let q = Quiz::of(&question(AskKind::Value, Some(root)), 3);
        let before = snap.clone();
        q.mask(&mut snap);
        assert!(snap.nodes[0].values.iter().all(|v| v.is_nan()));
        assert!(snap.nodes[1..]
            .iter()
            .zip(&before.nodes[1..])
            .all(|(a, b)| a.values == b.values));
        let ins = snap.inspection.as_ref().unwrap();
        assert!(ins.formulas.iter().all(|(_, t)| t == HIDDEN));
        // The path stays: a value question is not about the path.
        assert_eq!(snap.selection_path, before.selection_path);
        // Masking twice changes nothing more.
        let once = format!("{snap:?}");
        q.mask(&mut snap);
        assert_eq!(once, format!("{snap:?}"));
    }
}
