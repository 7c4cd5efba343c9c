//! Time travel: rebuilding a run at an earlier iteration by deterministic
//! replay gives exactly the state the run had then (same snapshot, same
//! counters), for every registered algorithm on a shared position.

use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::recorder::Recorder;
use pnlab::search::{self, Params, QuestionKind, SearchSetup, ViewRequest};

fn setup(algo: &str, pos: &str) -> SearchSetup {
    let info = search::find_algo(algo).unwrap();
    // Tic-tac-toe has one evaluation: opponent-model search models the
    // opponent with it too.
    let pairs: Vec<(String, String)> = match algo {
        "om" => vec![("model".into(), "f1".into()), ("eval".into(), "f1".into())],
        _ => Vec::new(),
    };
    SearchSetup {
        position: AnyPosition::parse(GameKind::TicTacToe, pos).unwrap(),
        params: Params::from_pairs(info.params, &pairs).unwrap(),
        seed: 7,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    }
}

#[test]
fn replay_reproduces_every_earlier_iteration() {
    let req = ViewRequest::default();
    for info in search::algorithms() {
        let st = setup(info.name, "x...o....");
        let mut live = search::build(info.name, &st).unwrap();
        let mut rec = Recorder::new(info.name, st, live.sample());
        let mut snaps = vec![live.snapshot(&req)];
        for _ in 0..40 {
            if live.step().is_final() {
                break;
            }
            rec.push(live.sample());
            snaps.push(live.snapshot(&req));
        }
        assert!(snaps.len() > 5, "{}: too few iterations to test", info.name);
        for k in [0usize, 1, snaps.len() / 2, snaps.len() - 1] {
            let again = rec.rebuild_at(k as u64).unwrap();
            let mut a = again.snapshot(&req);
            let mut b = snaps[k].clone();
            // time is the only thing allowed to differ
            a.counters.time_ms = 0.0;
            b.counters.time_ms = 0.0;
            // Debug text compares NaN ("value does not apply") as equal.
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "{} at iteration {k}",
                info.name
            );
            assert_eq!(
                format!("{:?}", again.sample()),
                format!("{:?}", rec.samples[k]),
                "{} sample {k}",
                info.name
            );
        }
    }
}

#[test]
fn snapshots_are_bounded_by_the_request() {
    let st = setup("pns", ".........");
    let mut s = search::build("pns", &st).unwrap();
    for _ in 0..2000 {
        if s.step().is_final() {
            break;
        }
    }
    assert!(s.counters().nodes_created > 1000);
    let req = ViewRequest {
        max_nodes: 50,
        max_depth: 20,
        ..ViewRequest::default()
    };
    let snap = s.snapshot(&req);
    // The cap may be exceeded only by the selection path, which is always
    // included so it can be highlighted.
    assert!(
        snap.nodes.len() <= 50 + snap.selection_path.len(),
        "{}",
        snap.nodes.len()
    );
    for id in &snap.selection_path {
        assert!(
            snap.nodes.iter().any(|n| n.id == *id),
            "path node {id} missing"
        );
    }
    // Parents precede their children.
    for (i, n) in snap.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            assert!((p as usize) < i);
        }
    }
}

#[test]
fn registry_names_are_unique() {
    let names: Vec<&str> = search::algorithms().iter().map(|a| a.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "{names:?}");
}
