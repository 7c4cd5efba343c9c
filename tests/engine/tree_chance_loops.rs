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

#[test]
fn chance_errors_are_located() {
    let (l, c, m) = err("r chance\n  a = 1 prob=0.5\n  b = 2 prob=0.4\n");
    assert_eq!((l, c), (1, 1));
    assert!(m.contains("sum to 0.9"), "{m}");
    let (l, c, m) = err("r chance\n  a = 1 prob=0.5\n  b = 2\n");
    assert_eq!((l, c), (3, 3));
    assert!(m.contains("no `prob=`"), "{m}");
    let (l, c, m) = err("r or\n  a = 1 prob=0.5\n  b = 2 prob=0.5\n");
    assert_eq!((l, c), (2, 9));
    assert!(m.contains("not a chance node"), "{m}");
    let (l, _, m) = err("r chance prob=1\n  a = 1\n");
    assert_eq!(l, 1);
    assert!(m.contains("root"), "{m}");
    let (_, c, m) = err("r chance\n  a = 1 prob=1.5\n");
    assert_eq!(c, 14);
    assert!(m.contains("(0, 1]"), "{m}");
    let (l, _, m) = err("r or\n  a = 1.5\n  b = 2\n");
    assert_eq!(l, 2);
    assert!(m.contains("real score"), "{m}");
    let (_, _, m) = err("r chance\n  a = 1 prob=0.5 prob=0.5\n");
    assert!(m.contains("twice"), "{m}");
}

#[test]
fn cyclic_graphs_need_a_loop_rule() {
    let body = "A or &A\n  B and\n    *A\n    C = win\n";
    let (l, c, m) = err(body);
    assert_eq!((l, c), (3, 5));
    assert!(m.contains("cycle: A → B → A"), "{m}");
    for (rule, name) in [
        (LoopRule::Draw, "draw"),
        (LoopRule::LooperLoses, "looper-loses"),
        (LoopRule::LooperWins, "looper-wins"),
    ] {
        let t = Tree::parse(&format!("tree \"x\"\nloops = {name}\n{body}")).unwrap();
        assert_eq!(t.loops, Some(rule));
    }
    let (l, c, m) = err(&format!("loops = sometimes\n{body}"));
    assert_eq!((l, c), (1, 9));
    assert!(m.contains("draw, looper-loses, looper-wins"), "{m}");
    let (l, _, m) = err(&format!("loops = draw\nloops = draw\n{body}"));
    assert_eq!(l, 2);
    assert!(m.contains("twice"), "{m}");
    let (_, _, m) = err("loops = draw\nA chance\n  B = 1\n");
    assert!(m.contains("cannot have chance nodes"), "{m}");
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
