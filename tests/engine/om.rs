//! Opponent-model search (`om`) against an opponent-model search written
//! here on the test's own random trees (two evaluations per node,
//! depth-limited, contempt, with and without the opponent-model cut-off),
//! plain minimax as the special case model = eval, and the teaching tree
//! played out against opponents that judge by f2 and by f1.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::experiments::om_match::{play_game, MatchPlayer};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{self, Budget, SearchSetup};

const WIN: i64 = 10_000;

/// The test's own tree: inner nodes with (f1, f2), leaves win/loss/draw.
enum Node {
    Leaf(i64),
    Inner {
        max: bool,
        f1: i64,
        f2: i64,
        kids: Vec<Node>,
    },
}

fn random_node(rng: &mut SmallRng, depth: u32, max: bool) -> Node {
    if depth == 0 || rng.random_range(0..5) == 0 {
        return Node::Leaf([WIN, -WIN, 0][rng.random_range(0..3)]);
    }
    let n = rng.random_range(1..=3);
    Node::Inner {
        max,
        f1: rng.random_range(-9..=9),
        f2: rng.random_range(-9..=9),
        kids: (0..n).map(|_| random_node(rng, depth - 1, !max)).collect(),
    }
}

fn write(n: &Node, depth: usize, label: &str, out: &mut String) {
    out.push_str(&"  ".repeat(depth));
    match n {
        Node::Leaf(v) => {
            let w = match *v {
                WIN => "win",
                0 => "draw",
                _ => "loss",
            };
            out.push_str(&format!("{label} = {w}\n"));
        }
        Node::Inner { max, f1, f2, kids } => {
            let k = if *max { "or" } else { "and" };
            out.push_str(&format!("{label} {k} eval={f1} eval2={f2}\n"));
            for (i, c) in kids.iter().enumerate() {
                write(
                    c,
                    depth + 1,
                    &format!("{label}{}", (b'a' + i as u8) as char),
                    out,
                );
            }
        }
    }
}

/// (v, v₂, best child) by the definition: at the depth limit (f_own,
/// f_model); a draw is −contempt for the searcher; MAX takes the highest
/// v (first on ties) and the model's minimax v₂; MIN takes the child with
/// the least v₂ (first on ties) and passes its v on.
fn om(
    n: &Node,
    depth: u32,
    own_f1: bool,
    model_f1: bool,
    contempt: i64,
) -> (i64, i64, Option<usize>) {
    match n {
        Node::Leaf(v) => (if *v == 0 { -contempt } else { *v }, *v, None),
        Node::Inner { f1, f2, .. } if depth == 0 => {
            let pick = |f1_: bool| if f1_ { *f1 } else { *f2 };
            (pick(own_f1), pick(model_f1), None)
        }
        Node::Inner { max, kids, .. } => {
            let vals: Vec<_> = kids
                .iter()
                .map(|c| om(c, depth - 1, own_f1, model_f1, contempt))
                .collect();
            let mut best = 0;
            for (i, x) in vals.iter().enumerate() {
                let better = if *max {
                    x.0 > vals[best].0
                } else {
                    x.1 < vals[best].1
                };
                if better {
                    best = i;
                }
            }
            let v2 = if *max {
                vals.iter().map(|x| x.1).max().unwrap()
            } else {
                vals[best].1
            };
            (vals[best].0, v2, Some(best))
        }
    }
}

fn run_om(
    pos: &AnyPosition,
    params: &[(&str, String)],
) -> serde_json::Map<String, serde_json::Value> {
    let pairs: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let setup = SearchSetup::new("om", pos.clone(), &pairs).unwrap();
    let mut s = search::build("om", &setup).unwrap();
    let st = search::run(s.as_mut(), &Budget::default(), None);
    assert!(st.is_final());
    let mut m = s.extra_json();
    m.insert("best_move".into(), s.best_move().into());
    m
}

#[test]
fn random_trees_get_the_defined_values() {
    let mut rng = SmallRng::seed_from_u64(0x0A);
    let (mut cut, mut differ) = (0, 0);
    for t in 0..400 {
        let root = random_node(&mut rng, 5, true);
        if matches!(root, Node::Leaf(_)) {
            continue;
        }
        let mut text = String::new();
        write(&root, 0, "r", &mut text);
        let pos = AnyPosition::parse(GameKind::Tree, &text).unwrap();
        let depth = rng.random_range(1..=5);
        let contempt = [0, 50, -50][t % 3];
        for (own, model) in [("f1", "f2"), ("f1", "f1"), ("f2", "f2"), ("f2", "f1")] {
            let want = om(&root, depth, own == "f1", model == "f1", contempt);
            for prune in ["true", "false"] {
                let got = run_om(
                    &pos,
                    &[
                        ("depth", depth.to_string()),
                        ("eval", own.into()),
                        ("model", model.into()),
                        ("contempt", contempt.to_string()),
                        ("prune", prune.into()),
                    ],
                );
                let ctx = format!("{own}/{model} depth {depth} c {contempt} prune {prune}\n{text}");
                assert_eq!(got["value"].as_i64(), Some(want.0), "{ctx}");
                assert_eq!(got["model_value"].as_i64(), Some(want.1), "{ctx}");
                let label = want.2.map(|i| format!("r{}", (b'a' + i as u8) as char));
                assert_eq!(
                    got["best_move"].as_str().map(str::to_string),
                    label,
                    "{ctx}"
                );
                cut += got["om_cutoffs"].as_u64().unwrap();
            }
            if own != model && want.2 != om(&root, depth, own == "f1", own == "f1", contempt).2 {
                differ += 1;
            }
        }
    }
    // The cut-off happens, and the model changes the move now and then.
    assert!(cut > 0 && differ > 0, "{cut} {differ}");
}

fn trap() -> AnyPosition {
    let text = std::fs::read_to_string("positions/trees/om-trap.tree").unwrap();
    AnyPosition::parse(GameKind::Tree, &text).unwrap()
}

#[test]
fn the_teaching_tree_pays_against_the_modelled_opponent() {
    let pos = trap();
    let d2 = ("depth", "2".to_string());
    let om_move = run_om(&pos, std::slice::from_ref(&d2));
    let mm_move = run_om(&pos, &[d2.clone(), ("model", "f1".into())]);
    assert_eq!(om_move["best_move"], "B");
    assert_eq!(mm_move["best_move"], "A");
    let om = MatchPlayer::om("f1", "f2", 2);
    let minimax = MatchPlayer::om("f1", "f1", 2);
    // Opponents deciding one move ahead, by f2 (as modelled) or by f1.
    let by_f2 = MatchPlayer::om("f2", "f2", 1);
    let by_f1 = MatchPlayer::om("f1", "f1", 1);
    let score = |a: &MatchPlayer, b: &MatchPlayer| play_game(&pos, [a, b], 0).unwrap().0.score;
    assert_eq!(
        score(&om, &by_f2),
        1,
        "OM wins against the opponent it models"
    );
    assert_eq!(score(&minimax, &by_f2), 0, "minimax only draws");
    assert_eq!(score(&om, &by_f1), -1, "the model is wrong: OM loses");
    assert_eq!(score(&minimax, &by_f1), 0);
}

#[test]
fn contempt_turns_down_a_draw() {
    // A draw now, or an unclear position judged slightly bad (−20).
    let text = "R or\n  D = draw\n  X or eval=-20\n    x = win\n";
    let pos = AnyPosition::parse(GameKind::Tree, text).unwrap();
    let pick = |c: i64| {
        run_om(&pos, &[("depth", "1".into()), ("contempt", c.to_string())])["best_move"].clone()
    };
    assert_eq!(pick(0), "D");
    assert_eq!(pick(10), "D");
    assert_eq!(pick(50), "X");
}
