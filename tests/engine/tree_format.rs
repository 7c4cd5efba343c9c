//! The hand-written tree format (crates/pnlab-core/src/game/tree): parsing, errors with
//! exact line and column, the game semantics, round trips through
//! `notation()`, and every tree shipped in positions/trees/ solved by PNS
//! and by the exhaustive reference (which must agree).

use std::sync::Arc;

use pnlab::game::tree::{LeafValue, NodeKind, Tree, TreeGame};
use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::pns::{Pns, PnsOptions};
use pnlab::search::{reference, Goal, Question, Search, Status};

use crate::common;
use common::search_run::{pns_option_variants, win_and_not_lose};

/// The shipped trees (positions/trees/), by file name.
const SHIPPED: &[(&str, &str)] = &[
    (
        "seesaw.tree",
        include_str!("../../positions/trees/seesaw.tree"),
    ),
    (
        "suitable-depth4.tree",
        include_str!("../../positions/trees/suitable-depth4.tree"),
    ),
    (
        "lecture-mpn.tree",
        include_str!("../../positions/trees/lecture-mpn.tree"),
    ),
    (
        "lecture-mdn.tree",
        include_str!("../../positions/trees/lecture-mdn.tree"),
    ),
    (
        "lecture-pn-dn.tree",
        include_str!("../../positions/trees/lecture-pn-dn.tree"),
    ),
    (
        "shared-node.tree",
        include_str!("../../positions/trees/shared-node.tree"),
    ),
    (
        "scores.tree",
        include_str!("../../positions/trees/scores.tree"),
    ),
    (
        "ppn-hints.tree",
        include_str!("../../positions/trees/ppn-hints.tree"),
    ),
];

fn shipped(name: &str) -> TreeGame {
    let text = SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .expect("a shipped tree");
    TreeGame::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run_pns(g: &TreeGame, q: Question, opts: PnsOptions) -> Pns<TreeGame> {
    let mut s = Pns::new(g.clone(), q, opts);
    let mut guard = 0;
    while !s.step().is_final() {
        guard += 1;
        assert!(guard < 100_000, "PNS did not terminate");
    }
    s
}

const EXAMPLE: &str = "\
# a comment line
tree \"Example\"   # the title
A or
  B and p=0.25
    D = win
    E or &e eval=-3
      F = loss
      G = 3
  C and
    *e
    H=draw
";

#[test]
fn example_parses_with_all_features() {
    let g = TreeGame::parse(EXAMPLE).unwrap();
    assert_eq!(g.title(), Some("Example"));
    assert_eq!(g.label(), "A");
    assert_eq!(g.node_kind(), NodeKind::Or);
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(g.default_attacker(), Some(Player::First));
    assert_eq!(g.kind(), GameKind::Tree);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(
        moves.iter().map(|&m| g.format_move(m)).collect::<Vec<_>>(),
        ["B", "C"]
    );

    let b = g.clone().after("B");
    assert_eq!(b.to_move(), Player::Second);
    assert_eq!(b.leaf_win_rate_hint(), Some(0.25));
    let d = b.clone().after("D");
    assert_eq!(d.value(), Some(LeafValue::Win));
    assert_eq!(d.outcome().map(|o| o.score), Some(1));
    assert!(d.children().is_empty());
    let e_from_b = b.after("E");
    assert_eq!(e_from_b.eval_hint(), Some(-3));
    let c = g.clone().after("C");
    let e_from_c = c.clone().after("E");
    // A shared node is one node: same index, same hash, same moves.
    assert_eq!(e_from_b.node_index(), e_from_c.node_index());
    assert_eq!(e_from_b.hash(), e_from_c.hash());
    assert_ne!(e_from_b.hash(), c.hash());
    assert_eq!(
        e_from_c.clone().after("G").outcome().map(|o| o.score),
        Some(3)
    );
    assert_eq!(e_from_c.after("F").outcome().map(|o| o.score), Some(-1));
    assert_eq!(c.after("H").value(), Some(LeafValue::Draw));
}

/// Plays a move given by label.
trait After {
    fn after(self, label: &str) -> TreeGame;
}
impl After for TreeGame {
    fn after(mut self, label: &str) -> TreeGame {
        let m = self.parse_move(label).unwrap_or_else(|e| panic!("{e}"));
        self.play(m);
        self
    }
}

#[test]
fn evaluation_scale_of_trees() {
    use pnlab::game::eval::{value_of, WIN};
    let g = TreeGame::parse(EXAMPLE).unwrap();
    // Inner nodes: their `eval=` hint, 0 without one.
    assert_eq!(g.evaluate(), Some(0));
    let e = g.clone().after("B").after("E");
    assert_eq!(e.evaluate(), Some(-3));
    assert_eq!(value_of(&e), Some(-3));
    // Leaves: win/loss/draw are ±WIN/0, a score is itself.
    let b = g.clone().after("B");
    assert_eq!(value_of(&b.clone().after("D")), Some(WIN));
    assert_eq!(value_of(&e.clone().after("F")), Some(-WIN));
    assert_eq!(value_of(&e.after("G")), Some(3));
    assert_eq!(value_of(&g.after("C").after("H")), Some(0));
}

#[test]
fn parse_move_rejects_unknown_labels() {
    let g = TreeGame::parse(EXAMPLE).unwrap();
    let err = g.parse_move("Z").unwrap_err().to_string();
    assert!(err.contains("B, C"), "{err}");
    let leaf = g.after("B").after("D");
    assert!(leaf.parse_move("x").is_err());
}

/// Two trees are the same if they have the same shape, labels, kinds,
/// values and hints from the root (node numbering may differ).
fn same_tree(a: &TreeGame, b: &TreeGame) -> bool {
    a.label() == b.label()
        && a.node_kind() == b.node_kind()
        && a.leaf_win_rate_hint() == b.leaf_win_rate_hint()
        && a.eval_hint() == b.eval_hint()
        && a.children().len() == b.children().len()
        && (0..a.children().len())
            .all(|i| same_tree(&a.at(a.children()[i]), &b.at(b.children()[i])))
}

#[test]
fn notation_round_trips_for_every_shipped_tree_and_subtree() {
    let mut checked = 0;
    for (name, text) in SHIPPED.iter().copied().chain([("example", EXAMPLE)]) {
        let g = TreeGame::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for i in 0..g.tree().nodes.len() as u32 {
            let sub = g.at(i);
            let printed = sub.notation();
            let back = TreeGame::parse(&printed)
                .unwrap_or_else(|e| panic!("{name} node {i}: {e}\n{printed}"));
            assert!(same_tree(&sub, &back), "{name} node {i}:\n{printed}");
            assert_eq!(
                back.notation(),
                printed,
                "{name} node {i}: printing is stable"
            );
            checked += 1;
        }
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn shared_nodes_are_kept_shared_by_notation() {
    let g = TreeGame::parse(EXAMPLE).unwrap();
    let printed = g.notation();
    assert!(
        printed.contains("&e") && printed.contains("*e"),
        "{printed}"
    );
    let back = TreeGame::parse(&printed).unwrap();
    assert_eq!(back.tree().nodes.len(), g.tree().nodes.len());
    // The subtree below C alone mentions E once: no anchor needed.
    let c = g.after("C");
    assert!(!c.notation().contains('&'), "{}", c.notation());
}

#[test]
fn tabs_indentation_is_accepted() {
    let g = TreeGame::parse("A and\n\tB = win\n\tC or\n\t\tD = loss\n").unwrap();
    assert_eq!(g.children().len(), 2);
    assert_eq!(g.to_move(), Player::Second);
}

#[test]
fn single_leaf_tree_is_a_finished_game() {
    let g = TreeGame::parse("A = -5").unwrap();
    assert_eq!(g.outcome().map(|o| o.score), Some(-5));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.is_empty());
}

/// (text, line, col, words the message must contain)
const ERRORS: &[(&str, usize, usize, &str)] = &[
    ("", 1, 1, "empty"),
    ("# only a comment\n\n", 1, 1, "empty"),
    ("tree \"T\"\n", 2, 1, "root"),
    ("A or\n  B = win\n C = loss\n", 3, 2, "bad indentation"),
    ("A or\n  B = win\n    C = loss\n", 3, 5, "leaf"),
    ("A xor\n  B = win\n", 1, 3, "unknown node kind `xor`"),
    ("A or\n  B = maybe\n", 2, 7, "bad value `maybe`"),
    ("A or\n  B\n", 2, 4, "a leaf needs a value"),
    ("A or = win\n  B = win\n", 1, 6, "internal node"),
    ("A or\n  B = win or\n", 2, 11, "already has a value"),
    ("A or\n", 1, 1, "without children"),
    ("A or\n  B and\n  C = win\n", 2, 3, "without children"),
    ("A or\n  B = win\nC = loss\n", 3, 1, "one root"),
    (
        "A or\n  B = win\n\tC = loss\n",
        3,
        1,
        "mixed tabs and spaces",
    ),
    ("A or\n \tB = win\n", 2, 2, "mixed tabs and spaces"),
    (
        "A or\n  B = win &x\n  C = loss &x\n",
        3,
        12,
        "duplicate shared-node name `&x`",
    ),
    (
        "A or\n  B = win &x\n  *y\n",
        3,
        3,
        "undefined shared node `*y`",
    ),
    (
        "A or\n  B and &b\n    C or\n      *b\n",
        4,
        7,
        "cycle: B → C → B",
    ),
    ("A or &a\n  *a\n", 2, 3, "cycle"),
    (
        "A or\n  B = win\n  B = loss\n",
        3,
        3,
        "duplicate child label `B`",
    ),
    ("A or\n  B = win p=1.5\n", 2, 13, "win rate between 0 and 1"),
    ("A or\n  B = win eval=x\n", 2, 16, "integer after `eval=`"),
    (
        "A or\n  B and eval=10000\n    C = win\n",
        2,
        14,
        "between -9999 and 9999",
    ),
    ("A or\n  B = win foo\n", 2, 11, "expected a hint"),
    ("A or\n  *b extra\n  C = win &b\n", 2, 6, "stands alone"),
    ("A or\n  B = win\ntree \"late\"\n", 3, 1, "must come before"),
    (
        "tree \"T\" junk\nA = win\n",
        1,
        10,
        "end of the line after the title",
    ),
    ("A or\n  B =\n", 2, 6, "expected a value after `=`"),
    ("A or\n  *b\n    C = win\n  D = win &b\n", 3, 5, "reference"),
];

#[test]
fn errors_have_exact_line_and_column() {
    for &(text, line, col, words) in ERRORS {
        let e = TreeGame::parse(text).expect_err(text);
        assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
        assert!(
            e.expected.contains(words),
            "{text:?}: `{}` lacks `{words}`",
            e.expected
        );
    }
}

#[test]
fn any_position_parses_trees() {
    let p = AnyPosition::parse(GameKind::Tree, EXAMPLE).unwrap();
    assert_eq!(p.kind(), GameKind::Tree);
    assert_eq!(p.legal_move_names(), ["B", "C"]);
    assert_eq!(p.default_attacker(), Player::First);
    let p2 = p.after_move("C").unwrap();
    assert_eq!(p2.to_move(), Player::Second);
    // The OR player stays the attacker below an AND node.
    assert_eq!(p2.default_attacker(), Player::First);
}

#[test]
fn pns_agrees_with_reference_on_every_shipped_tree_and_subtree() {
    let mut checked = 0;
    for &(name, text) in SHIPPED {
        let root = TreeGame::parse(text).unwrap();
        for i in 0..root.tree().nodes.len() as u32 {
            let g = root.at(i);
            for q in win_and_not_lose(Player::First) {
                let goal = q.goal;
                let expected = reference::answer(&g, &q);
                for opts in pns_option_variants() {
                    let s = run_pns(&g, q, opts);
                    let got = s.status() == Status::Proved;
                    assert!(s.status() == Status::Proved || s.status() == Status::Disproved);
                    assert_eq!(got, expected, "{name} node {} {goal:?} {opts:?}", g.label());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
}

/// The answers the comments of the shipped trees state, from the
/// exhaustive reference (an independent second check of the files).
#[test]
fn shipped_trees_have_the_answers_their_comments_state() {
    let win = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    for (name, expect) in [
        ("seesaw.tree", true),
        ("suitable-depth4.tree", true),
        ("lecture-mpn.tree", true),
        ("lecture-mdn.tree", false),
        ("shared-node.tree", true),
        ("ppn-hints.tree", true),
    ] {
        assert_eq!(reference::answer(&shipped(name), &win), expect, "{name}");
    }
    // scores.tree: exact minimax value 3, best move C.
    let g = shipped("scores.tree");
    assert_eq!(reference::value_for(&g, Player::First), 3);
    for (mv, v) in [("B", 2), ("C", 3), ("D", -1)] {
        assert_eq!(
            reference::value_for(&g.clone().after(mv), Player::First),
            v,
            "{mv}"
        );
    }
    // suitable tree: the proof goes through R, L is a loss.
    let s = shipped("suitable-depth4.tree");
    assert!(!reference::answer(&s.clone().after("L"), &win));
    assert!(reference::answer(&s.after("R"), &win));
    // ppn-hints: the hints mislead on purpose (L looks good, is lost).
    let h = shipped("ppn-hints.tree");
    let l = h.clone().after("L");
    assert!(
        l.leaf_win_rate_hint().unwrap_or(0.0)
            > h.clone().after("R").leaf_win_rate_hint().unwrap_or(1.0)
    );
    assert!(!reference::answer(&l, &win));
}

#[test]
fn seesaw_tree_makes_pns_switch_root_children() {
    let g = shipped("seesaw.tree");
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let s = run_pns(&g, q, PnsOptions::default());
    assert_eq!(s.status(), Status::Proved);
    let c = s.counters();
    assert!(
        c.seesaw_root_switches >= 5,
        "only {} root switches",
        c.seesaw_root_switches
    );
    assert_eq!(s.switch_events().len() as u64, c.seesaw_root_switches);
    // It really alternates: both root children are selected repeatedly.
    let to_left = s.switch_events().iter().filter(|e| e.to == 0).count();
    let to_right = s.switch_events().iter().filter(|e| e.to == 1).count();
    assert!(to_left >= 2 && to_right >= 2, "{to_left} {to_right}");
}

#[test]
fn lecture_pn_dn_tree_reaches_the_slide_numbers() {
    // After expanding a, b, c and d the slide's numbers hold at the root:
    // pn(a) = 2 (prove e and f), dn(a) = 2 (disprove i and e or f).
    let g = shipped("lecture-pn-dn.tree");
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let mut s = Pns::new(g, q, PnsOptions::default());
    for _ in 0..4 {
        s.step();
    }
    let r = s.root_numbers();
    assert_eq!((r.pn, r.dn), (2, 2));
}

#[test]
fn lecture_mpn_and_mdn_trees_match_the_slides() {
    let win = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    // MPN tree: with g = win known, h decides c and so a.
    let g = shipped("lecture-mpn.tree");
    let c = g.clone().after("c");
    assert_eq!(c.clone().after("g").value(), Some(LeafValue::Win));
    let h = c.after("h");
    assert_eq!(reference::answer(&h, &win), reference::answer(&g, &win));
    // MDN tree: c is lost at once (g = loss), so a is lost iff b is.
    let g = shipped("lecture-mdn.tree");
    assert_eq!(
        g.clone().after("c").after("g").value(),
        Some(LeafValue::Loss)
    );
    let b = g.clone().after("b");
    assert!(!reference::answer(&b, &win));
    assert!(!reference::answer(&g, &win));
}

#[test]
fn parsed_trees_share_one_allocation() {
    let g = TreeGame::parse(EXAMPLE).unwrap();
    let h = g.clone().after("B");
    assert!(Arc::ptr_eq(g.tree(), h.tree()));
    let t = Tree::parse(EXAMPLE).unwrap();
    assert_eq!(t.nodes.len(), g.tree().nodes.len());
}

#[test]
fn suitable_tree_has_the_papers_tie_at_level_one() {
    // DeepPN paper §3.1: "the proof numbers of child nodes under the root
    // node are the same (i.e., 2)" once the root and its children are
    // expanded (three PNS iterations).
    let g = shipped("suitable-depth4.tree");
    let q = Question {
        attacker: Player::First,
        goal: Goal::Win,
    };
    let mut s = Pns::new(g.clone(), q, PnsOptions::default());
    for _ in 0..3 {
        s.step();
    }
    let arena = s.arena();
    let root = arena.get(0);
    let pns: Vec<u32> = root.children().map(|c| arena.get(c).data.pn).collect();
    assert_eq!(pns, [2, 2]);
    // Uniform depth 4 as drawn: every node at depth 4 on the right is the
    // end of the game, on the left none is.
    let mut right_ends = 0;
    let mut left_ends = 0;
    for (side, counter) in [("L", &mut left_ends), ("R", &mut right_ends)] {
        let mut frontier = vec![g.clone().after(side)];
        for _ in 1..4 {
            frontier = frontier
                .into_iter()
                .flat_map(|n| n.children().iter().map(|&c| n.at(c)).collect::<Vec<_>>())
                .collect();
        }
        assert_eq!(frontier.len(), 8, "{side}");
        *counter = frontier.iter().filter(|n| n.outcome().is_some()).count();
    }
    assert_eq!((left_ends, right_ends), (0, 8));
}

/// A random tree text with hints and shared nodes (references only to
/// finished definitions, so the graph stays acyclic).
fn random_tree_text(rng: &mut rand::rngs::SmallRng) -> String {
    use rand::Rng;
    struct Gen<'a> {
        rng: &'a mut rand::rngs::SmallRng,
        out: String,
        count: usize,
        closed: Vec<String>,
    }
    impl Gen<'_> {
        fn node(&mut self, depth: usize, max_depth: usize) {
            let indent = "  ".repeat(depth);
            let label = format!("n{}", self.count);
            self.count += 1;
            let leaf = depth == max_depth || (depth > 0 && self.rng.random_bool(0.25));
            let mut line = format!("{indent}{label}");
            if leaf {
                let v = match self.rng.random_range(0..4) {
                    0 => "win".to_string(),
                    1 => "loss".to_string(),
                    2 => "draw".to_string(),
                    _ => self.rng.random_range(-5..=5).to_string(),
                };
                line.push_str(&format!(" = {v}"));
            } else {
                line.push_str(if self.rng.random_bool(0.5) {
                    " or"
                } else {
                    " and"
                });
            }
            if self.rng.random_bool(0.2) {
                line.push_str(&format!(
                    " p={}",
                    self.rng.random_range(0..=100) as f64 / 100.0
                ));
            }
            if self.rng.random_bool(0.1) {
                line.push_str(&format!(" eval={}", self.rng.random_range(-50..50)));
            }
            let anchor = depth > 0 && self.rng.random_bool(0.3);
            if anchor {
                line.push_str(&format!(" &s{label}"));
            }
            self.out.push_str(&line);
            self.out.push('\n');
            if !leaf {
                let n = self.rng.random_range(1..=3);
                let mut used = Vec::new();
                for _ in 0..n {
                    if !self.closed.is_empty() && self.rng.random_bool(0.25) {
                        let k = self.rng.random_range(0..self.closed.len());
                        let name = self.closed[k].clone();
                        // The label of the shared node is its name without `s`.
                        let label = name[1..].to_string();
                        if !used.contains(&label) {
                            self.out.push_str(&format!("{indent}  *{name}\n"));
                            used.push(label);
                        }
                    } else {
                        used.push(format!("n{}", self.count));
                        self.node(depth + 1, max_depth);
                    }
                }
            }
            if anchor {
                self.closed.push(format!("s{label}"));
            }
        }
    }
    let max_depth = rng.random_range(1..=6);
    let mut g = Gen {
        rng,
        out: String::from("# random\n"),
        count: 0,
        closed: Vec::new(),
    };
    g.node(0, max_depth);
    g.out
}

#[test]
fn random_dags_parse_round_trip_and_solve_like_the_reference() {
    use rand::SeedableRng;
    use std::collections::HashSet;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut shared_seen = 0;
    for i in 0..1000 {
        let text = random_tree_text(&mut rng);
        let g = TreeGame::parse(&text).unwrap_or_else(|e| panic!("tree {i}: {e}\n{text}"));
        let printed = g.notation();
        let back = TreeGame::parse(&printed).unwrap_or_else(|e| panic!("tree {i}: {e}\n{printed}"));
        assert!(same_tree(&g, &back), "tree {i}\n{text}\n{printed}");
        assert_eq!(back.notation(), printed);
        // Shared nodes: one node, one hash, however it is reached.
        let distinct_hashes: HashSet<u64> = (0..g.tree().nodes.len() as u32)
            .map(|n| g.at(n).hash())
            .collect();
        assert_eq!(distinct_hashes.len(), g.tree().nodes.len());
        if text.contains('*') {
            shared_seen += 1;
        }
        for q in win_and_not_lose(Player::First) {
            let goal = q.goal;
            let expected = reference::answer(&g, &q);
            for opts in pns_option_variants() {
                assert_eq!(
                    run_pns(&g, q, opts).status() == Status::Proved,
                    expected,
                    "tree {i} {goal:?} {opts:?}\n{text}"
                );
            }
        }
    }
    assert!(shared_seen >= 100, "{shared_seen}");
}
