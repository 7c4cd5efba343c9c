//! The run machine on its own, through its synchronous call
//! ([`RunMachine::apply`]): commands in, events out, samples never
//! dropped, time travel, budgets that pause, errors reported without
//! losing the machine, and certificates the independent verifier accepts.
//! (The app's tests drive the same machine through its thread and its
//! cooperative driver and compare the stories.)

use pnlab_core::certificate::{verify, Certificate, Verdict};
use pnlab_core::game::tictactoe::TicTacToe;
use pnlab_core::game::AnyPosition;
use pnlab_core::search::{
    registry, Algorithm, Budget, ParamError, Params, QuestionKind, SearchError, SearchSetup,
    Snapshot, StatsSample, Status, StopReason,
};

use super::*;

fn spec(algo: &str, params: Params) -> RunSpec {
    RunSpec {
        algo: Algorithm::named(algo).expect("a registered algorithm"),
        setup: SearchSetup {
            position: AnyPosition::TicTacToe(TicTacToe::new()),
            params,
            seed: 1,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        },
    }
}

fn defaults(algo: &str) -> Params {
    Params::defaults(registry::find_algo(algo).unwrap().params)
}

/// PNS with its default parameters on the empty board (most tests' run).
fn pns() -> RunSpec {
    spec("pns", defaults("pns"))
}

/// A fresh machine that has loaded `spec`, and what a shell saw of it.
fn loaded(spec: RunSpec) -> (RunMachine, Seen) {
    let mut m = RunMachine::new();
    let mut seen = Seen::default();
    seen.apply(&mut m, Command::Load(spec));
    (m, seen)
}

/// What a shell would keep of the events (the app's run state, in small).
#[derive(Default)]
struct Seen {
    snapshot: Option<Box<Snapshot>>,
    snapshots: usize,
    samples: Vec<StatsSample>,
    finished: Option<Status>,
    budget: Option<StopReason>,
    running: bool,
    load_failed: Option<RunFault>,
    errors: Vec<RunFault>,
    certificates: Vec<CertificateReady>,
}

impl Seen {
    fn apply(&mut self, m: &mut RunMachine, cmd: Command) {
        for ev in m.apply(cmd) {
            match ev {
                Event::Started { .. } => {
                    self.samples.clear();
                    self.finished = None;
                }
                Event::Snapshot { snapshot, .. } => {
                    self.snapshot = Some(snapshot);
                    self.snapshots += 1;
                }
                Event::Samples(v) => self.samples.extend(v),
                Event::Rewound { .. } => self.finished = None,
                Event::Running(r) => self.running = r,
                Event::Finished(st) => self.finished = Some(st),
                Event::BudgetReached(r) => self.budget = Some(r),
                Event::LoadFailed(e) => self.load_failed = Some(e),
                Event::Error(e) => self.errors.push(e),
                Event::CertificateReady(c) => self.certificates.push(c),
                _ => {}
            }
        }
    }

    fn iteration(&self) -> u64 {
        self.snapshot.as_ref().map_or(0, |s| s.counters.iterations)
    }
}

#[test]
fn steps_produce_one_sample_per_iteration_and_a_snapshot() {
    let (mut m, mut seen) = loaded(pns());
    seen.apply(&mut m, Command::Step(5));
    assert_eq!(seen.iteration(), 5);
    let its: Vec<u64> = seen.samples.iter().map(|s| s.iteration).collect();
    assert_eq!(its, vec![0, 1, 2, 3, 4, 5]);
    assert!(!seen.running);
}

#[test]
fn going_back_replays_to_the_same_state() {
    let (mut m, mut seen) = loaded(pns());
    seen.apply(&mut m, Command::Step(3));
    let at3 = seen.snapshot.clone().unwrap();
    seen.apply(&mut m, Command::Step(4));
    assert_eq!(seen.iteration(), 7);
    seen.apply(&mut m, Command::GoTo(3));
    let again = seen.snapshot.clone().unwrap();
    assert_eq!(again.nodes, at3.nodes);
    assert_eq!(again.selection_path, at3.selection_path);
    seen.apply(&mut m, Command::Back(3));
    assert_eq!(seen.iteration(), 0);
}

#[test]
fn run_reaches_the_known_result_and_finished_is_delivered() {
    let (mut m, mut seen) = loaded(pns());
    seen.apply(&mut m, Command::Run);
    // Tic-tac-toe is a draw: "the first player wins" is disproved.
    assert_eq!(seen.finished, Some(Status::Disproved));
    // Every iteration up to SAMPLE_BLOCK is sampled, none dropped.
    let n = seen.iteration();
    assert_eq!(seen.samples.len() as u64, n + 1);
    assert_eq!(seen.samples.last().unwrap().iteration, n);
}

/// `RunTo(k)` stops at iteration k like the lesson player, and
/// `RunTo(u64::MAX)` at the end: for df-pn the step that returns to the
/// root and finishes counts no iteration, so the search stepped by hand
/// to its end is the reference (same iteration, same status, same root
/// numbers).
#[test]
fn run_to_stops_where_a_search_stepped_by_hand_does() {
    let dfpn = spec("dfpn", defaults("dfpn"));
    let mut reference = registry::build("dfpn", &dfpn.setup).unwrap();
    let mut calls = 0u64;
    while !reference.step().is_final() {
        calls += 1;
    }
    let end = reference.counters().iterations;
    let root = reference.sample().root_values;
    let (mut m, mut seen) = loaded(dfpn.clone());
    seen.apply(&mut m, Command::RunTo(5));
    assert_eq!(seen.iteration(), 5);
    assert!(seen.finished.is_none());
    seen.apply(&mut m, Command::RunTo(u64::MAX));
    assert_eq!(seen.iteration(), end);
    assert_eq!(seen.finished, Some(reference.status()));
    assert_eq!(seen.samples.last().unwrap().root_values, root);
    // A count of steps equal to the iterations stops one step short of
    // the end (the case `RunTo` exists for).
    let (mut m, mut seen) = loaded(dfpn);
    seen.apply(&mut m, Command::Step(end));
    assert_eq!(calls, end, "one step returns without an iteration");
    assert!(seen.finished.is_none());
}

#[test]
fn a_refused_load_is_reported_and_leaves_no_run_to_step() {
    let (mut m, mut seen) = loaded(pns());
    seen.apply(&mut m, Command::Step(2));
    // PNS answers yes/no questions, not the score question: the registry
    // refuses the build.
    let mut score = pns();
    score.setup.question = QuestionKind::Score;
    seen.apply(&mut m, Command::Load(score));
    assert!(
        matches!(
            &seen.load_failed,
            Some(RunFault::Search(SearchError::Unsupported { algo, .. })) if algo == "pns"
        ),
        "{:?}",
        seen.load_failed
    );
    // The old run is gone: a step changes nothing.
    let snapshots = seen.snapshots;
    seen.apply(&mut m, Command::Step(1));
    assert_eq!(seen.snapshots, snapshots, "no snapshot of a stale run");
    assert!(m.search().is_none());
    seen.apply(&mut m, Command::Load(pns()));
    seen.apply(&mut m, Command::Step(1));
    assert_eq!(seen.iteration(), 1);
}

#[test]
fn an_incomplete_parameter_set_is_reported_and_the_machine_goes_on() {
    // An empty parameter set lacks PNS's `tie`: the build is refused with
    // a message naming it, and the machine takes the next command.
    let (mut m, mut seen) = loaded(spec("pns", Params::default()));
    assert!(
        matches!(
            &seen.load_failed,
            Some(RunFault::Search(SearchError::Param(ParamError::Missing { name, .. }))) if name == "tie"
        ),
        "{:?}",
        seen.load_failed
    );
    seen.apply(&mut m, Command::Load(pns()));
    seen.apply(&mut m, Command::Step(1));
    assert_eq!(seen.iteration(), 1);
}

/// The samples the machine sends are those of the search stepped by hand
/// (an independent path: no machine, no recorder).
#[test]
fn the_samples_are_the_searchs_own() {
    let (mut m, mut seen) = loaded(pns());
    seen.apply(&mut m, Command::Step(40));
    let mut s = registry::build("pns", &pns().setup).unwrap();
    let mut by_hand = vec![s.sample()];
    for _ in 0..40 {
        s.step();
        by_hand.push(s.sample());
    }
    assert_eq!(seen.samples, by_hand);
}

/// A budget pauses the run where the budget says (not ends it), and a
/// larger budget goes on from there to the answer a run without a
/// budget gives.
#[test]
fn a_budget_pauses_the_run_and_a_larger_one_goes_on() {
    let (mut m, mut seen) = loaded(pns());
    let ten = Budget {
        max_iterations: Some(10),
        ..Budget::default()
    };
    seen.apply(&mut m, Command::SetBudget(ten));
    seen.apply(&mut m, Command::Run);
    assert_eq!(seen.budget, Some(StopReason::MaxIterations));
    assert_eq!(seen.iteration(), 10);
    assert!(seen.finished.is_none() && !seen.running);
    seen.apply(&mut m, Command::SetBudget(Budget::default()));
    seen.apply(&mut m, Command::Run);
    assert_eq!(seen.finished, Some(Status::Disproved));
    let mut unbudgeted = registry::build("pns", &pns().setup).unwrap();
    while !unbudgeted.step().is_final() {}
    assert_eq!(seen.iteration(), unbudgeted.counters().iterations);
}

/// A machine that makes nothing for a window (Python's) runs the same
/// search: no pictures, no samples, no checkpoints, and the same state
/// after every command, a trip back included.
#[test]
fn a_bare_machine_runs_the_same_search_without_pictures_or_samples() {
    let mut full = RunMachine::new();
    let mut bare = RunMachine::with_feeds(Feeds::BARE);
    let script = [
        Command::Load(pns()),
        Command::Step(30),
        Command::Back(12),
        Command::RunTo(25),
        Command::Run,
    ];
    for cmd in script {
        let mut seen = Seen::default();
        seen.apply(&mut bare, cmd.clone());
        full.apply(cmd);
        assert_eq!(seen.snapshots, 0);
        assert!(seen.samples.is_empty());
        assert_eq!(bare.checkpoint_bytes(), 0);
        let (a, b) = (full.search().unwrap(), bare.search().unwrap());
        assert_eq!(a.counters().iterations, b.counters().iterations);
        assert_eq!(a.sample().root_values, b.sample().root_values);
        assert_eq!(a.status(), b.status());
    }
}

/// File › Export › Proof certificate: the machine hands the shell the
/// certificate's text, which the verifier (`pnlab verify`'s checker,
/// which shares no code with the searches) accepts with as many
/// positions as the event says, for a proof and for a disproof. Before
/// the run is solved the request is refused with a message.
#[test]
fn the_certificate_event_carries_text_the_verifier_accepts() {
    for (question, expected) in [
        // Tic-tac-toe is a draw: X does not lose, and X does not win.
        (QuestionKind::NotLose, Status::Proved),
        (QuestionKind::Win, Status::Disproved),
    ] {
        let mut s = pns();
        s.setup.question = question;
        let path = std::path::PathBuf::from("ttt.proof");
        let (mut m, mut seen) = loaded(s);
        seen.apply(&mut m, Command::Certificate(path.clone()));
        assert!(seen.certificates.is_empty());
        assert!(
            seen.errors.contains(&RunFault::NotSolved),
            "{:?}",
            seen.errors
        );
        seen.apply(&mut m, Command::Run);
        assert_eq!(seen.finished, Some(expected));
        seen.apply(&mut m, Command::Certificate(path.clone()));
        let ready = seen.certificates.pop().expect("the certificate event");
        assert_eq!(ready.path, path);
        assert_eq!(ready.proved, expected == Status::Proved);
        let cert = Certificate::parse(&ready.text).expect("the certificate parses");
        match verify(&cert).expect("its root parses") {
            Verdict::Valid { positions, .. } => assert_eq!(positions, ready.positions),
            v => panic!("{}", v.line()),
        }
    }
}

#[test]
fn a_driven_bench_set_does_what_the_bare_search_does() {
    use super::driven::DrivenSet;
    let sets = crate::bench::pns_sets().unwrap();
    let set = sets.iter().find(|s| s.name == "hex-4").unwrap();
    let bare = crate::bench::run_set(set, "pns", &defaults("pns")).unwrap();
    let frame = pnlab_core::clock::Duration::from_millis(6);
    let pns = Algorithm::named("pns").unwrap();
    let mut driven = DrivenSet::new(set, pns, &defaults("pns"), frame);
    let mut slices = 0;
    while !driven.slice(set.max_iterations).unwrap() {
        slices += 1;
        assert!(slices < 10_000_000, "the driven set never finished");
    }
    assert_eq!(driven.row.runs, bare.runs);
    assert_eq!(driven.row.solved, bare.solved);
    assert_eq!(driven.row.iterations, bare.iterations);
}
