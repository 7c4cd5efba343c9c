//! The search drivers, the app's shells around the run machine: pausing
//! a long run, the certificate the machine makes written by the shell,
//! the cooperative driver's frame budget, and both drivers and the
//! machine's synchronous call compared event for event on seeded runs.
//! (The machine's own protocol is tested in pnlab-lab, `run::tests`.)
#![cfg(feature = "gui")]

use std::time::{Duration, Instant};

use pnlab::app::driver::{self, Command, DriverKind, Event, RunSpec, SearchDriver};
use pnlab::app::logic::RunState;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::AnyPosition;
use pnlab::search::{registry, Algorithm, Params, QuestionKind, SearchSetup, Status};

fn spec(params: Params) -> RunSpec {
    RunSpec {
        algo: Algorithm::named("pns").unwrap(),
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

/// File › Export › Proof certificate: the machine makes the certificate
/// of the solved run, the app's run state writes it and reports its size,
/// and the file verifies with the rules alone (`pnlab verify`'s checker, which shares no code with the search).
/// Before the run is solved the request is refused with a message.
#[test]
fn the_shell_saves_a_verifiable_proof_of_the_solved_run() {
    for kind in KINDS {
        use pnlab::certificate::{verify, Certificate, Verdict};
        let dir = std::env::temp_dir().join(format!("pnlab-proof-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ttt.proof");
        let mut r = Rig::new(kind);
        let mut s = spec(defaults());
        s.setup.question = QuestionKind::NotLose;
        r.send(Command::Load(s));
        r.send(Command::Certificate(path.clone()));
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
        r.send(Command::Certificate(path.clone()));
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

/// The script the stories below follow: loading, stepping, time travel
/// back and forward, a view change, a budget and a run to the end.
fn script(algo: &str) -> Vec<Command> {
    use pnlab::search::{Budget, ViewRequest};
    let info = registry::find_algo(algo).unwrap();
    let mut s = spec(Params::defaults(info.params));
    s.algo = Algorithm::named(algo).unwrap();
    s.setup.seed = 0;
    vec![
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
    ]
}

/// One protocol, one machine: the same commands give the same events
/// through the desktop's thread driver, the page's cooperative driver
/// and the machine's synchronous call (Python's way), for several
/// algorithms on seeded runs.
#[test]
fn both_drivers_and_the_synchronous_machine_tell_the_same_story_for_a_seeded_run() {
    for algo in ["pns", "dfpn", "mcts-solver", "deep-pn"] {
        let mut stories = Vec::new();
        for kind in KINDS {
            let mut w = driver::start(kind, || {}).unwrap();
            let mut story = Vec::new();
            for (i, c) in script(algo).into_iter().enumerate() {
                w.send(c).unwrap();
                w.send(Command::Sync(i as u64 + 1)).unwrap();
                story.extend(normalise(events_until_sync(w.as_mut(), i as u64 + 1)));
            }
            stories.push(story);
        }
        let mut machine = pnlab::run::RunMachine::new();
        let mut story = Vec::new();
        for (i, c) in script(algo).into_iter().enumerate() {
            let mut events = machine.apply(c);
            events.extend(machine.apply(Command::Sync(i as u64 + 1)));
            story.extend(normalise(events));
        }
        stories.push(story);
        assert!(stories[0].len() > 20, "{algo}: {:?}", stories[0]);
        assert!(
            stories[0].iter().any(|e| e.starts_with("finished")),
            "{algo}: the run reaches its end"
        );
        for (k, other) in stories.iter().enumerate().skip(1) {
            for (i, (a, b)) in stories[0].iter().zip(other).enumerate() {
                assert_eq!(a, b, "{algo}: event {i} differs (story {k})");
            }
            assert_eq!(stories[0].len(), other.len(), "{algo} (story {k})");
        }
    }
}

/// A pump steps only until its time budget is spent (looking at the
/// clock every `LOOK_EVERY` steps), so a page stays responsive while a
/// long run goes on: with no budget at all, each pump takes exactly one
/// stride of steps.
#[test]
fn the_cooperative_driver_steps_only_within_its_frame_budget() {
    use pnlab::app::driver::cooperative::CooperativeDriver;
    use pnlab::game::connect4::Connect4;
    use pnlab::run::LOOK_EVERY;
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
