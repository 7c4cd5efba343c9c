//! `star2` keeps its probes: the full pass takes a probed first move's
//! result instead of searching the move again. Checked on a tree worked
//! by hand (the node counts below follow Ballard's windows step by step)
//! and, for the value, against `expectimax` on many seeded random chance
//! trees of every leaf-score distribution `chance-compare` draws.

use pnlab::experiments::chance_trees::{random_tree_text, LeafScores};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::{self, Budget, SearchSetup};

/// Runs `algo` to the end; its JSON extras.
fn run(algo: &str, pos: &AnyPosition) -> serde_json::Map<String, serde_json::Value> {
    let setup = SearchSetup::new(algo, pos.clone(), &[]).unwrap();
    let mut s = search::build(algo, &setup).unwrap();
    let st = search::run(s.as_mut(), &Budget::default(), None);
    assert!(st.is_final(), "{algo}: {st:?}");
    s.extra_json()
}

fn count(j: &serde_json::Map<String, serde_json::Value>, key: &str) -> u64 {
    j[key].as_u64().unwrap()
}

/// A MAX root over two chance nodes of two MIN nodes of two leaves
/// (L = 0, U = 9 from the leaves). Worked by hand:
///
/// - `expectimax` enters all 15 nodes.
/// - `star1`: the root, `ra` and its whole subtree (7 nodes, value 5), then
///   `rb` with α = 5: outcome `rba` gets the window (1, 9) (M = 9 would
///   fall to α if rba were ≤ 1), its first move 0 ends it (≤ α) and
///   cut-off II ends `rb`: 11 nodes.
/// - `star2`: under `ra` the probes of `raa` and `rab` enter one leaf each
///   (5 and 5, exact in their windows (0, 9)); the full pass enters `raa`
///   and `rab` and takes those results for their first moves, entering
///   only the second leaves: 1 + 1 + 2 + 2·2 = 8 nodes so far. Under `rb`
///   the probe of `rba` enters its first leaf, 0, which makes M = 4.5 ≤ 5:
///   cut-off II before any full search. 8 + 1 + 1 = 10 nodes, 3 of them
///   probe nodes, 2 probes reused. (Searching the probed moves again, as
///   `star2` did before, costs 12.)
const HAND_TREE: &str = "\
r or
  ra chance
    raa and
      raaa = 5
      raab = 5
    rab and
      raba = 5
      rabb = 5
  rb chance
    rba and
      rbaa = 0
      rbab = 9
    rbb and
      rbba = 0
      rbbb = 9
";

#[test]
fn star2_takes_its_probes_on_a_tree_worked_by_hand() {
    let pos = AnyPosition::parse(GameKind::Tree, HAND_TREE).unwrap();
    let e = run("expectimax", &pos);
    let s1 = run("star1", &pos);
    let s2 = run("star2", &pos);
    for j in [&e, &s1, &s2] {
        assert_eq!(j["value"].as_f64(), Some(5.0));
    }
    assert_eq!(count(&e, "nodes_visited"), 15);
    assert_eq!(count(&s1, "nodes_visited"), 11);
    assert_eq!(count(&s2, "nodes_visited"), 10);
    assert_eq!(count(&s2, "probe_nodes"), 3);
    assert_eq!(count(&s2, "probes_reused"), 2);
    assert_eq!(count(&s2, "cutoffs_2"), 1);
}

/// Under a chance root with four equally likely outcomes (MIN `ra` over
/// 6 and 8, MIN `rb` over 1 and 0, leaves 9 and 0; L = 0, U = 9) the
/// probes enter `ra`'s and `rb`'s first leaves (6 and 1, exact in their
/// windows (0, 9)); no cut-off (m stays 0). The full pass searches `ra`
/// with the window (0, 6) and `rb` with (0, 1), takes both probes for
/// their first moves and enters only the second leaves (8, then 0, which
/// ends `rb` by alpha-beta), then the two leaf outcomes. Value
/// (6 + 0 + 9 + 0) / 4 = 3.75; nodes: the root, 2 probe leaves, `ra` and
/// one leaf, `rb` and one leaf, 2 leaf outcomes = 9 (searching the
/// probed moves again would make it 11).
#[test]
fn exact_probes_are_taken_under_a_chance_root() {
    let text = "r chance\n  ra and\n    raa = 6\n    rab = 8\n  rb and\n    rba = 1\n    rbb = 0\n  rc = 9\n  rd = 0\n";
    let pos = AnyPosition::parse(GameKind::Tree, text).unwrap();
    let s2 = run("star2", &pos);
    let e = run("expectimax", &pos);
    assert_eq!(s2["value"].as_f64(), Some(3.75));
    assert_eq!(e["value"].as_f64(), Some(3.75));
    assert_eq!(count(&s2, "probes_reused"), 2);
    assert_eq!(count(&s2, "nodes_visited"), 9);
}

/// Every distribution, depths 1–2, branchings 2–3, 30 trees each: the
/// three searches return the same value (within 1e-9).
#[test]
fn star2_agrees_with_expectimax_on_seeded_random_trees() {
    let mut reused = 0;
    for how in [
        LeafScores::Uniform,
        LeafScores::Ordered,
        LeafScores::Correlated,
    ] {
        for depth in 1..=2 {
            for b in 2..=3 {
                for seed in 0..30u64 {
                    let text =
                        random_tree_text(seed * 977 + u64::from(depth * 10 + b), depth, b, how);
                    let pos = AnyPosition::parse(GameKind::Tree, &text).unwrap();
                    let want = run("expectimax", &pos)["value"].as_f64().unwrap();
                    for algo in ["star1", "star2"] {
                        let j = run(algo, &pos);
                        let v = j["value"].as_f64().unwrap();
                        assert!(
                            (v - want).abs() <= 1e-9 * (1.0 + want.abs()),
                            "{algo} {v} ≠ {want} ({how:?}, d={depth}, b={b}, seed {seed})"
                        );
                        if algo == "star2" {
                            reused += count(&j, "probes_reused");
                        }
                    }
                }
            }
        }
    }
    assert!(reused > 0);
}
