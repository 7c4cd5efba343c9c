//! The tree format's chance nodes (`chance`, `prob=`, real scores) and
//! cyclic graphs (`loops = …`): what parses, what the positions do, what
//! round-trips, and the located errors.

use pnlab::game::tree::{LeafValue, LoopRule, NodeKind, Tree, TreeGame};
use pnlab::game::{Game, Outcome};

fn err(text: &str) -> (usize, usize, String) {
    let e = Tree::parse(text).expect_err("should fail");
    (e.line, e.col, e.expected)
}

#[test]
fn chance_nodes_keep_their_probabilities() {
    let t =
        Tree::parse("r chance\n  a = 1 prob=0.25\n  b and prob=0.75 &b\n    x = 2.5\n    y = -1\n")
            .unwrap();
    assert_eq!(t.nodes[0].kind, NodeKind::Chance);
    assert_eq!(t.nodes[0].probs, vec![0.25, 0.75]);
    assert_eq!(t.nodes[3].kind, NodeKind::Leaf(LeafValue::Real(2.5)));
    // Uniform without prob=.
    let u = Tree::parse("r chance\n  a = 1\n  b = 2\n  c = 3\n").unwrap();
    assert_eq!(u.nodes[0].probs, vec![1.0 / 3.0; 3]);
    // A reference line may carry the probability of its edge.
    let s =
        Tree::parse("r or\n  a = 1 &a\n  c chance\n    *a prob=0.5\n    d = 0 prob=0.5\n").unwrap();
    assert_eq!(s.nodes[2].probs, vec![0.5, 0.5]);
}

#[test]
fn chance_positions_report_their_outcomes() {
    let g = TreeGame::parse("r chance\n  a = 1 prob=0.25\n  b = 3 prob=0.75\n").unwrap();
    assert!(g.is_chance() && g.has_chance_nodes());
    let mut p = Vec::new();
    g.chance_probabilities(&mut p);
    assert_eq!(p, vec![0.25, 0.75]);
    assert_eq!(g.score_range(), Some((1.0, 3.0)));
    let leaf = TreeGame::parse("r chance\n  a = 1.5\n  b = -2\n").unwrap();
    let mut a = leaf.clone();
    a.play(0);
    assert_eq!(a.final_score(), Some(1.5));
    assert_eq!(a.outcome(), Some(Outcome { score: 1 }));
    assert!(!TreeGame::parse("r or\n  a = 1\n")
        .unwrap()
        .has_chance_nodes());
}

#[test]
fn chance_and_cyclic_trees_round_trip() {
    for text in [
        "tree \"t\"\nr chance\n  a = 1 prob=0.25\n  b and prob=0.75\n    x = 2.5\n    y = -1\n",
        "r chance\n  a = 1\n  b = 2\n",
        "loops = looper-wins\nA or &A\n  B and\n    *A\n    C = win\n",
    ] {
        let t = Tree::parse(text).unwrap();
        let again = Tree::parse(&t.write_subtree(0)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.nodes.len(), again.nodes.len(), "{text}");
        assert_eq!(t.loops, again.loops);
        for (x, y) in t.nodes.iter().zip(&again.nodes) {
            assert_eq!((&x.label, x.kind, &x.probs), (&y.label, y.kind, &y.probs));
        }
    }
}

/// Asserts that `text` is refused with a message holding `words`, at
/// `line` and `col` where they are given.
fn assert_error(text: &str, line: Option<usize>, col: Option<usize>, words: &str) {
    let (l, c, m) = err(text);
    assert!(m.contains(words), "{text:?}: `{words}` missing in {m}");
    if let Some(line) = line {
        assert_eq!(l, line, "{text:?}: {m}");
    }
    if let Some(col) = col {
        assert_eq!(c, col, "{text:?}: {m}");
    }
}

#[test]
fn chance_errors_are_located() {
    assert_error(
        "r chance\n  a = 1 prob=0.5\n  b = 2 prob=0.4\n",
        Some(1),
        Some(1),
        "sum to 0.9",
    );
    assert_error(
        "r chance\n  a = 1 prob=0.5\n  b = 2\n",
        Some(3),
        Some(3),
        "no `prob=`",
    );
    assert_error(
        "r or\n  a = 1 prob=0.5\n  b = 2 prob=0.5\n",
        Some(2),
        Some(9),
        "not a chance node",
    );
    assert_error("r chance prob=1\n  a = 1\n", Some(1), None, "root");
    assert_error("r chance\n  a = 1 prob=1.5\n", None, Some(14), "(0, 1]");
    assert_error("r or\n  a = 1.5\n  b = 2\n", Some(2), None, "real score");
    assert_error("r chance\n  a = 1 prob=0.5 prob=0.5\n", None, None, "twice");
}

#[test]
fn cyclic_graphs_need_a_loop_rule() {
    let body = "A or &A\n  B and\n    *A\n    C = win\n";
    assert_error(body, Some(3), Some(5), "cycle: A → B → A");
    for (rule, name) in [
        (LoopRule::Draw, "draw"),
        (LoopRule::LooperLoses, "looper-loses"),
        (LoopRule::LooperWins, "looper-wins"),
    ] {
        let t = Tree::parse(&format!("tree \"x\"\nloops = {name}\n{body}")).unwrap();
        assert_eq!(t.loops, Some(rule));
    }
    assert_error(
        &format!("loops = sometimes\n{body}"),
        Some(1),
        Some(9),
        "draw, looper-loses, looper-wins",
    );
    assert_error(
        &format!("loops = draw\nloops = draw\n{body}"),
        Some(2),
        None,
        "twice",
    );
    assert_error(
        "loops = draw\nA chance\n  B = 1\n",
        None,
        None,
        "cannot have chance nodes",
    );
}

#[test]
fn a_repetition_ends_the_game_by_the_rule() {
    // A (OR) → B (AND) → A: B's move closes the loop, so the looper is the
    // second player.
    let body = "A or &A\n  B and\n    *A\n    C = win\n";
    for (rule, score) in [("draw", 0), ("looper-loses", 1), ("looper-wins", -1)] {
        let g = TreeGame::parse(&format!("loops = {rule}\n{body}")).unwrap();
        assert!(g.history_dependent());
        let mut x = g.clone();
        x.play(0); // B
        assert!(!x.is_repetition() && x.outcome().is_none());
        let before = x.path_hash();
        x.play(0); // A again
        assert!(x.is_repetition());
        assert_eq!(x.outcome(), Some(Outcome { score }), "{rule}");
        assert_eq!(x.move_count(), 0);
        let mut moves = Vec::new();
        x.legal_moves(&mut moves);
        assert!(moves.is_empty());
        // The same node with another history is another path hash.
        assert_eq!(x.hash(), g.hash());
        assert_ne!(x.path_hash(), g.path_hash());
        assert_ne!(before, g.path_hash());
    }
    let acyclic = TreeGame::parse("A or\n  B = win\n").unwrap();
    assert!(!acyclic.history_dependent());
    assert_eq!(acyclic.path_hash(), 0);
}
