//! Time travel: rebuilding a run at an earlier iteration by deterministic
//! replay gives exactly the state the run had then (same snapshot, same
//! counters), for every registered algorithm on a shared position.

use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::recorder::Recorder;
use pnlab::search::{self, Params, QuestionKind, Search, SearchSetup, Snapshot, ViewRequest};

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

/// A search of `algo` on the tic-tac-toe position `pos`, built but not
/// stepped, and a recorder of it with its first sample.
fn run_and_recorder(algo: &str, pos: &str) -> (Box<dyn Search>, Recorder) {
    let st = setup(algo, pos);
    let live = search::build(algo, &st).unwrap();
    let rec = Recorder::new(algo, st, live.sample());
    (live, rec)
}

/// A snapshot as compared across runs: its Debug text (where NaN, "the
/// value does not apply", equals itself) with the run time zeroed, the
/// only thing allowed to differ; and, unless `with_bytes`, the tree bytes
/// too (counted from buffer capacities, which a copy sizes to their
/// contents).
fn state_text(mut snap: Snapshot, with_bytes: bool) -> String {
    snap.counters.time_ms = 0.0;
    if !with_bytes {
        snap.counters.peak_tree_bytes = 0;
    }
    format!("{snap:?}")
}

#[test]
fn replay_reproduces_every_earlier_iteration() {
    let req = ViewRequest::default();
    for info in search::algorithms() {
        let (mut live, mut rec) = run_and_recorder(info.name, "x...o....");
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
            assert_eq!(
                state_text(again.snapshot(&req), true),
                state_text(snaps[k].clone(), true),
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

/// pns on the empty board, stepped `limit` times or to its end.
fn pns_on_the_empty_board(limit: usize) -> Box<dyn Search> {
    let mut s = search::build("pns", &setup("pns", ".........")).unwrap();
    for _ in 0..limit {
        if s.step().is_final() {
            break;
        }
    }
    s
}

#[test]
fn snapshots_are_bounded_by_the_request() {
    let s = pns_on_the_empty_board(2000);
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

/// The algorithms whose search state cannot be copied: the parallel
/// df-pn keeps its table shared between worker threads. They are
/// replayed from iteration 0 instead.
const NOT_COPYABLE: &[&str] = &["dfpn-fast"];

/// Checkpoints: with one every 3 iterations, rebuilding any earlier
/// iteration from the nearest checkpoint gives exactly the state the run
/// had then, for every registered algorithm; and a copy steps on as the
/// original does (the copy taken mid-run, stepped to the end, agrees
/// with the run).
#[test]
fn checkpoints_reproduce_every_earlier_iteration_and_step_on_alike() {
    let req = ViewRequest::default();
    for info in search::algorithms() {
        let (mut live, mut rec) = run_and_recorder(info.name, "x...o....");
        rec.set_first_spacing(3);
        let mut snaps = vec![live.snapshot(&req)];
        for _ in 0..40 {
            let done = live.step().is_final();
            rec.after_step(live.as_ref());
            snaps.push(live.snapshot(&req));
            if done {
                break;
            }
        }
        let kept = rec.checkpoint_iterations();
        if NOT_COPYABLE.contains(&info.name) {
            assert!(kept.is_empty() && !rec.keeps_checkpoints(), "{}", info.name);
        } else {
            assert!(
                !kept.is_empty() && kept.iter().all(|k| k % 3 == 0),
                "{}: {kept:?}",
                info.name
            );
        }
        for (k, snap) in snaps.iter().enumerate() {
            let again = rec.rebuild_at(k as u64).unwrap();
            assert_eq!(
                state_text(again.snapshot(&req), false),
                state_text(snap.clone(), false),
                "{} at iteration {k}",
                info.name
            );
        }
        // A copy taken now steps on exactly as the live search.
        if let Some(mut copy) = live.checkpoint() {
            for _ in 0..20 {
                let (x, y) = (live.step(), copy.step());
                assert_eq!(x, y, "{}", info.name);
            }
            assert_eq!(
                state_text(live.snapshot(&req), false),
                state_text(copy.snapshot(&req), false),
                "{}",
                info.name
            );
        }
    }
}

/// The recent checkpoint (off the spacing) is handed over once, not
/// copied, and replays to the same state as a fresh replay from the
/// start; a second travel past it falls back on the regular ones.
#[test]
fn the_recent_checkpoint_is_handed_over_once_and_replays_alike() {
    let req = ViewRequest::default();
    let st = setup("pns", ".........");
    let mut live = search::build("pns", &st).unwrap();
    let mut rec = Recorder::new("pns", st.clone(), live.sample());
    rec.set_first_spacing(64);
    for _ in 0..300 {
        live.step();
        rec.after_step(live.as_ref());
    }
    let mut recent = search::build("pns", &st).unwrap();
    for _ in 0..280 {
        recent.step();
    }
    assert!(rec.keep_recent(recent));
    assert!(rec.checkpoint_iterations().contains(&280));
    let (mut from_recent, at) = rec.take_start_for(299).unwrap();
    assert_eq!(at, 280);
    assert!(
        !rec.checkpoint_iterations().contains(&280),
        "handed over, not kept"
    );
    while from_recent.counters().iterations < 299 {
        from_recent.step();
    }
    let mut fresh = search::build("pns", &st).unwrap();
    for _ in 0..299 {
        fresh.step();
    }
    assert_eq!(
        state_text(from_recent.snapshot(&req), false),
        state_text(fresh.snapshot(&req), false)
    );
    let (_, at) = rec.take_start_for(299).unwrap();
    assert_eq!(at, 256, "the regular checkpoint, copied");
    assert!(rec.checkpoint_iterations().contains(&256));
}

/// The checkpoints stay within their byte limit: when a new one would
/// pass it, every second one goes and the spacing doubles.
#[test]
fn checkpoints_thin_out_to_stay_within_their_limit() {
    // The tree's final size, from a first run.
    let limit = 5 * pns_on_the_empty_board(3000).counters().peak_tree_bytes;
    let (mut live, mut rec) = run_and_recorder("pns", ".........");
    rec.set_first_spacing(8);
    rec.set_checkpoint_limit(limit);
    for i in 0..3000 {
        if live.step().is_final() {
            break;
        }
        rec.after_step(live.as_ref());
        assert!(rec.checkpoint_bytes() <= limit, "iteration {i}");
    }
    let kept = rec.checkpoint_iterations();
    assert!(rec.spacing() > 8, "the spacing grew: {}", rec.spacing());
    assert!(kept.iter().all(|k| k % rec.spacing() == 0), "{kept:?}");
    assert!(kept.len() >= 2, "{kept:?}");
}

#[test]
fn a_copy_share_skips_checkpoints_until_the_run_has_earned_them() {
    let (mut live, mut rec) = run_and_recorder("pns", ".........");
    rec.set_first_spacing(2);
    // No run time reported yet: the first copy is free (nothing copied
    // so far), every later one waits.
    rec.set_copy_share(Some(0.1));
    for _ in 0..12 {
        live.step();
        rec.after_step(live.as_ref());
    }
    assert_eq!(rec.checkpoint_iterations(), vec![2]);
    // A long run time earns the next checkpoint on the spacing.
    rec.add_run_time(1e6);
    for _ in 0..2 {
        live.step();
        rec.after_step(live.as_ref());
    }
    assert_eq!(rec.checkpoint_iterations(), vec![2, 14]);
    // Without a share every spacing gets its checkpoint.
    rec.set_copy_share(None);
    for _ in 0..4 {
        live.step();
        rec.after_step(live.as_ref());
    }
    assert_eq!(rec.checkpoint_iterations(), vec![2, 14, 16, 18]);
    // And the runs replay alike from them.
    let again = rec.rebuild_at(15).unwrap();
    assert_eq!(again.counters().iterations, 15);
}
