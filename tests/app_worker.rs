//! The worker thread on its own (issue #2 item 7): commands in, events
//! out, samples never dropped, time travel by replay, errors and panics
//! reported without killing the thread.
#![cfg(feature = "gui")]

use std::time::{Duration, Instant};

use pnlab::app::logic::RunState;
use pnlab::app::worker::{Command, RunSpec, WorkerHandle};
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

struct Rig {
    w: WorkerHandle,
    run: RunState,
    next: u64,
}

impl Rig {
    fn new() -> Rig {
        Rig {
            w: WorkerHandle::spawn(|| {}).unwrap(),
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
        assert!(self.run.wait_synced(&self.w, id, Duration::from_secs(20)));
    }
}

#[test]
fn steps_produce_one_sample_per_iteration_and_a_snapshot() {
    let mut r = Rig::new();
    r.send(Command::Load(spec(defaults())));
    r.send(Command::Step(5));
    r.settle();
    assert_eq!(r.run.iteration(), 5);
    let its: Vec<u64> = r.run.samples.iter().map(|s| s.iteration).collect();
    assert_eq!(its, vec![0, 1, 2, 3, 4, 5]);
    assert!(!r.run.running);
}

#[test]
fn going_back_replays_to_the_same_state() {
    let mut r = Rig::new();
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

#[test]
fn run_reaches_the_known_result_and_finished_is_delivered() {
    let mut r = Rig::new();
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

#[test]
fn a_bad_algorithm_is_an_error_and_keeps_the_loaded_run() {
    let mut r = Rig::new();
    r.send(Command::Load(spec(defaults())));
    r.send(Command::Step(2));
    r.settle();
    let mut bad = spec(defaults());
    bad.algo = "no-such-algo".into();
    r.send(Command::Load(bad));
    r.settle();
    assert!(
        r.run.errors.iter().any(|e| e.contains("unknown algorithm")),
        "{:?}",
        r.run.errors
    );
    r.send(Command::Step(1));
    r.settle();
    assert_eq!(r.run.iteration(), 3);
}

#[test]
fn an_incomplete_parameter_set_is_reported_and_the_thread_survives() {
    let mut r = Rig::new();
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

#[test]
fn pause_interrupts_a_long_run_quickly() {
    let mut r = Rig::new();
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

/// File › Export › Proof certificate: the worker writes the certificate of
/// the solved run, reports its size, and the file verifies with the rules
/// alone (`pnlab verify`'s checker, which shares no code with the search).
/// Before the run is solved the request is refused with a message.
#[test]
fn the_worker_saves_a_verifiable_proof_of_the_solved_run() {
    use pnlab::certificate::{verify, Certificate, Verdict};
    let dir = std::env::temp_dir().join(format!("pnlab-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ttt.proof");
    let mut r = Rig::new();
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
