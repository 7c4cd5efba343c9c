//! The search drivers on their own: commands in, events out, samples
//! never dropped, time travel, errors and panics reported without killing
//! the run -- each test for both drivers (the desktop thread and the
//! cooperative one stepped on the caller's thread), and the two compared
//! event for event on seeded runs.
#![cfg(feature = "gui")]

use std::time::{Duration, Instant};

use pnlab::app::driver::{self, Command, DriverKind, Event, RunSpec, SearchDriver};
use pnlab::app::logic::RunState;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::AnyPosition;
use pnlab::search::{registry, Params, QuestionKind, SearchSetup, Status};

fn spec(params: Params) -> RunSpec {
    RunSpec {
        algo: "pns".into(),
        setup: SearchSetup {
            position: AnyPosition::TicTacToe(TicTacToe::new()),
            params,
            seed: 1,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        },
    }
}

fn defaults() -> Params {
    Params::defaults(registry::find_algo("pns").unwrap().params)
}

const KINDS: [DriverKind; 2] = [DriverKind::Thread, DriverKind::Cooperative];

struct Rig {
    w: Box<dyn SearchDriver>,
    run: RunState,
    next: u64,
}

impl Rig {
    fn new(kind: DriverKind) -> Rig {
        Rig {
            w: driver::start(kind, || {}).unwrap(),
            run: RunState::default(),
            next: 0,
        }
    }
    fn send(&mut self, c: Command) {
        self.w.send(c).unwrap();
    }
    fn settle(&mut self) {
        self.next += 1;
        let id = self.next;
        self.send(Command::Sync(id));
        assert!(self
            .run
            .wait_synced(self.w.as_mut(), id, Duration::from_secs(20)));
    }
}

#[test]
fn steps_produce_one_sample_per_iteration_and_a_snapshot() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Step(5));
        r.settle();
        assert_eq!(r.run.iteration(), 5);
        let its: Vec<u64> = r.run.samples.iter().map(|s| s.iteration).collect();
        assert_eq!(its, vec![0, 1, 2, 3, 4, 5]);
        assert!(!r.run.running);
    }
}

#[test]
fn going_back_replays_to_the_same_state() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Step(3));
        r.settle();
        let at3 = r.run.snapshot.clone().unwrap();
        r.send(Command::Step(4));
        r.settle();
        assert_eq!(r.run.iteration(), 7);
        r.send(Command::GoTo(3));
        r.settle();
        let again = r.run.snapshot.clone().unwrap();
        assert_eq!(again.nodes, at3.nodes);
        assert_eq!(again.selection_path, at3.selection_path);
        r.send(Command::Back(3));
        r.settle();
        assert_eq!(r.run.iteration(), 0);
    }
}

#[test]
fn run_reaches_the_known_result_and_finished_is_delivered() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Run);
        r.settle();
        // Tic-tac-toe is a draw: "the first player wins" is disproved.
        assert_eq!(r.run.finished, Some(Status::Disproved));
        // Every iteration up to SAMPLE_BLOCK is sampled, none dropped.
        let n = r.run.iteration();
        assert_eq!(r.run.samples.len() as u64, n + 1);
        assert_eq!(r.run.samples.last().unwrap().iteration, n);
    }
}

/// `RunTo(k)` stops at iteration k like the lesson player, and
/// `RunTo(u64::MAX)` at the end: for df-pn the step that returns to the
/// root and finishes counts no iteration, so the headless search stepped
/// to its end is the reference (same iteration, same status, same root
/// numbers).
#[test]
fn run_to_stops_where_a_headless_search_does() {
    let mut dfpn = spec(Params::defaults(
        registry::find_algo("dfpn").unwrap().params,
    ));
    dfpn.algo = "dfpn".into();
    let mut reference = registry::build("dfpn", &dfpn.setup).unwrap();
    let mut calls = 0u64;
    while !reference.step().is_final() {
        calls += 1;
    }
    let end = reference.counters().iterations;
    let root = reference.sample().root_values;
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(dfpn.clone()));
        r.send(Command::RunTo(5));
        r.settle();
        assert_eq!(r.run.iteration(), 5, "{kind:?}");
        assert!(r.run.finished.is_none());
        r.send(Command::RunTo(u64::MAX));
        r.settle();
        assert_eq!(r.run.iteration(), end, "{kind:?}");
        assert_eq!(r.run.finished, Some(reference.status()), "{kind:?}");
        let last = r.run.samples.last().unwrap();
        assert_eq!(last.root_values, root, "{kind:?}");
        // A count of steps equal to the iterations stops one step short
        // of the end (the case `RunTo` exists for).
        let mut r = Rig::new(kind);
        r.send(Command::Load(dfpn.clone()));
        r.send(Command::Step(end));
        r.settle();
        assert_eq!(
            calls, end,
            "{kind:?}: one step returns without an iteration"
        );
        assert!(r.run.finished.is_none(), "{kind:?}");
    }
}

#[test]
fn a_refused_load_is_reported_and_leaves_no_run_to_step() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Step(2));
        r.settle();
        let mut bad = spec(defaults());
        bad.algo = "no-such-algo".into();
        r.send(Command::Load(bad));
        r.settle();
        assert!(
            r.run
                .load_failed
                .as_deref()
                .is_some_and(|e| e.contains("unknown algorithm")),
            "{:?}",
            r.run.errors
        );
        // The old run is gone: a step changes nothing.
        let arrivals = r.run.arrivals;
        r.send(Command::Step(1));
        r.settle();
        assert_eq!(
            r.run.arrivals, arrivals,
            "{kind:?}: no snapshot of a stale run"
        );
        assert!(!r.run.running);
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Step(1));
        r.settle();
        assert_eq!(r.run.iteration(), 1);
    }
}

#[test]
fn an_incomplete_parameter_set_is_reported_and_the_thread_survives() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        // An empty parameter set lacks PNS's `tie`: the build is refused with
        // a message naming it, and the worker takes the next command.
        r.send(Command::Load(spec(Params::default())));
        r.settle();
        assert!(
            r.run.errors.iter().any(|e| e.contains("`tie` missing")),
            "{:?}",
            r.run.errors
        );
        r.send(Command::Load(spec(defaults())));
        r.send(Command::Step(1));
        r.settle();
        assert_eq!(r.run.iteration(), 1);
    }
}

#[test]
fn pause_interrupts_a_long_run_quickly() {
    for kind in KINDS {
        let mut r = Rig::new(kind);
        r.send(Command::Load(spec(defaults())));
        // Paced at 2 iterations per second: a run that would take minutes.
        r.send(Command::SetSpeed(Some(2.0)));
        r.send(Command::Run);
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        r.send(Command::Pause);
        r.settle();
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(!r.run.running);
        assert!(r.run.iteration() <= 2, "{}", r.run.iteration());
    }
}

/// File › Export › Proof certificate: the worker writes the certificate of
/// the solved run, reports its size, and the file verifies with the rules
/// alone (`pnlab verify`'s checker, which shares no code with the search).
/// Before the run is solved the request is refused with a message.
#[test]
fn the_worker_saves_a_verifiable_proof_of_the_solved_run() {
    for kind in KINDS {
        use pnlab::certificate::{verify, Certificate, Verdict};
        let dir = std::env::temp_dir().join(format!("pnlab-proof-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ttt.proof");
        let mut r = Rig::new(kind);
        let mut s = spec(defaults());
        s.setup.question = QuestionKind::NotLose;
        r.send(Command::Load(s));
        r.send(Command::SaveProof(path.clone()));
        r.settle();
        assert!(r.run.proof.is_none());
        assert!(
            r.run
                .errors
                .iter()
                .any(|e| e.contains("not proved or disproved")),
            "{:?}",
            r.run.errors
        );
        r.send(Command::Run);
        r.settle();
        assert_eq!(
            r.run.finished,
            Some(Status::Proved),
            "tic-tac-toe is a draw: X does not lose"
        );
        r.send(Command::SaveProof(path.clone()));
        r.settle();
        let saved = r
            .run
            .proof
            .clone()
            .expect("the worker reports the certificate");
        assert!(saved.proved);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(saved.bytes, text.len() as u64);
        let cert = Certificate::parse(&text).expect("the certificate parses");
        match verify(&cert).expect("its root parses") {
            Verdict::Valid { positions, .. } => assert_eq!(positions, saved.positions),
            v => panic!("{}", v.line()),
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Every event a driver sends until it answers sync `id`.
fn events_until_sync(w: &mut dyn SearchDriver, id: u64) -> Vec<Event> {
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Some(ev) = w.wait(Duration::from_millis(200)) {
            let done = matches!(ev, Event::Synced(s) if s == id);
            out.push(ev);
            if done {
                return out;
            }
        }
    }
    panic!("sync {id} never came: {} events", out.len());
}

/// The events of a run with what depends on the clock taken out: sample
/// batches are joined (their cut depends on chunk lengths), live
/// snapshots taken while running are dropped except the last one of each
/// run (the one the pause or the end forces), time-travel progress reports
/// are dropped, and snapshots are compared without `time_ms` and the
/// checkpoints' bytes.
fn normalise(events: Vec<Event>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut running = false;
    let mut live_snapshot: Option<String> = None;
    for ev in events {
        match ev {
            Event::Samples(v) => {
                let text: Vec<String> = v.iter().map(|s| format!("{s:?}")).collect();
                match out.last_mut() {
                    Some(last) if last.starts_with("samples") => {
                        last.push_str(&text.join(";"));
                        last.push(';');
                    }
                    _ => out.push(format!("samples {};", text.join(";"))),
                }
            }
            Event::Snapshot {
                mut snapshot,
                mut facts,
            } => {
                snapshot.counters.time_ms = 0.0;
                // Which checkpoints a run keeps depends on the time its
                // copies took (they get a share of the run's time).
                facts.checkpoint_bytes = 0;
                let text = format!("snapshot {snapshot:?} {facts:?}");
                if running {
                    live_snapshot = Some(text);
                } else {
                    out.push(text);
                }
            }
            Event::Travelling(_) => {}
            Event::Running(r) => {
                if !r {
                    out.extend(live_snapshot.take());
                }
                running = r;
                out.push(format!("running {r}"));
            }
            Event::Finished(st) => {
                out.extend(live_snapshot.take());
                out.push(format!("finished {st:?}"));
            }
            other => out.push(format!("{other:?}")),
        }
    }
    out
}

/// One protocol, two drivers: the same commands give the same events --
/// loading, stepping, time travel back and forward, a budget, a view
/// change and a run to the end -- for several algorithms on seeded runs.
#[test]
fn both_drivers_tell_the_same_story_for_a_seeded_run() {
    use pnlab::search::{Budget, ViewRequest};
    for algo in ["pns", "dfpn", "mcts-solver", "deep-pn"] {
        let info = registry::find_algo(algo).unwrap();
        let mut stories = Vec::new();
        for kind in KINDS {
            let mut w = driver::start(kind, || {}).unwrap();
            let mut s = spec(Params::defaults(info.params));
            s.algo = algo.into();
            s.setup.seed = 0;
            let script = [
                Command::Load(s),
                Command::Step(37),
                Command::GoTo(10),
                Command::Step(5),
                Command::Back(3),
                Command::SetView(ViewRequest {
                    max_depth: 3,
                    ..ViewRequest::default()
                }),
                Command::GoTo(30),
                Command::SetBudget(Budget {
                    max_iterations: Some(60),
                    ..Budget::default()
                }),
                Command::Run,
                Command::SetBudget(Budget::default()),
                Command::Run,
            ];
            let mut story = Vec::new();
            for (i, c) in script.into_iter().enumerate() {
                w.send(c).unwrap();
                w.send(Command::Sync(i as u64 + 1)).unwrap();
                story.extend(normalise(events_until_sync(w.as_mut(), i as u64 + 1)));
            }
            stories.push(story);
        }
        assert!(stories[0].len() > 20, "{algo}: {:?}", stories[0]);
        assert!(
            stories[0].iter().any(|e| e.starts_with("finished")),
            "{algo}: the run reaches its end"
        );
        for (i, (a, b)) in stories[0].iter().zip(&stories[1]).enumerate() {
            assert_eq!(a, b, "{algo}: event {i} differs");
        }
        assert_eq!(stories[0].len(), stories[1].len(), "{algo}");
    }
}

/// The samples a driver sends are those of the search stepped by hand
/// (an independent path: no driver, no recorder).
#[test]
fn the_cooperative_drivers_samples_are_the_searchs_own() {
    let mut r = Rig::new(DriverKind::Cooperative);
    r.send(Command::Load(spec(defaults())));
    r.send(Command::Step(40));
    r.settle();
    let mut s = registry::build("pns", &spec(defaults()).setup).unwrap();
    let mut by_hand = vec![s.sample()];
    for _ in 0..40 {
        s.step();
        by_hand.push(s.sample());
    }
    assert_eq!(r.run.samples, by_hand);
}

/// A pump steps only until its time budget is spent (looking at the
/// clock every `LOOK_EVERY` steps), so a page stays responsive while a
/// long run goes on: with no budget at all, each pump takes exactly one
/// stride of steps.
#[test]
fn the_cooperative_driver_steps_only_within_its_frame_budget() {
    use pnlab::app::driver::cooperative::CooperativeDriver;
    use pnlab::app::driver::machine::LOOK_EVERY;
    use pnlab::game::connect4::Connect4;
    let mut d = CooperativeDriver::new(|| {});
    d.set_budget(Duration::ZERO);
    let mut s = spec(defaults());
    s.setup.position = AnyPosition::Connect4(Connect4::default());
    d.send(Command::Load(s)).unwrap();
    d.send(Command::Run).unwrap();
    let mut run = RunState::default();
    for k in 1..=3u64 {
        d.pump();
        while let Some(ev) = d.poll() {
            run.apply(ev);
        }
        // The live snapshot is throttled: read the samples instead.
        let last = run.samples.last().map_or(0, |s| s.iteration);
        assert_eq!(last, k * LOOK_EVERY, "pump {k}");
    }
}

#[test]
fn a_driven_bench_set_does_what_the_bare_search_does() {
    use pnlab::app::driver::driven::DrivenSet;
    let sets = pnlab::bench::pns_sets().unwrap();
    let set = sets.iter().find(|s| s.name == "hex-4").unwrap();
    let bare = pnlab::bench::run_set(set, "pns", &defaults()).unwrap();
    let mut driven = DrivenSet::new(set, "pns", &defaults());
    let mut slices = 0;
    while !driven.slice(set.max_iterations).unwrap() {
        slices += 1;
        assert!(slices < 10_000_000, "the driven set never finished");
    }
    assert_eq!(driven.row.runs, bare.runs);
    assert_eq!(driven.row.solved, bare.solved);
    assert_eq!(driven.row.iterations, bare.iterations);
}
