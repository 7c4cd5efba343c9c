//! The app tells the truth: every panel describes the position just
//! opened (each bundled file opened after one of another game), every
//! control works for every registered algorithm, and the counters agree
//! with each other after every step of every algorithm.
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use pnlab::app::driver::Command;
use pnlab::app::{counters, fit, PnlabApp, Settings};
use pnlab::game::AnyPosition;
use pnlab::positions::{self, PositionEntry};
use pnlab::search::correct_moves;
use pnlab::search::{registry, Algorithm, Params, QuestionKind, SearchSetup, ViewRequest};

const WAIT: Duration = Duration::from_secs(120);

fn app() -> PnlabApp {
    PnlabApp::new(&egui::Context::default(), Settings::default())
}

fn position_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_none_or(|e| e != "md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("positions"),
        &mut out,
    );
    out
}

/// The first entry of a file, read here (not through the app).
fn first_entry(path: &Path) -> PositionEntry {
    positions::load_file(path).unwrap().remove(0)
}

/// Opening every bundled file, each right after a file of another game:
/// the title, the board (or the tree's text), the moves and the correct
/// moves describe the file just opened, and the run that starts is of an
/// algorithm that can search it.
#[test]
fn every_bundled_file_replaces_everything_shown() {
    let files = position_files();
    assert!(files.len() >= 25, "{files:?}");
    let game_of = |p: &Path| first_entry(p).game;
    let mut app = app();
    let mut last_game = None;
    let mut opened = 0;
    for path in &files {
        let game = game_of(path);
        if last_game == Some(game) {
            // Open a file of another game in between.
            let other = files.iter().find(|f| game_of(f) != game).unwrap();
            app.open_path(other);
            assert!(app.settle(WAIT), "{}", other.display());
        }
        app.open_path(path);
        assert!(app.settle(WAIT), "{}", path.display());
        last_game = Some(game);
        opened += 1;
        let file = first_entry(path);
        let what = path.display().to_string();
        let run = app.run();
        assert_eq!(app.opened.title(), file.name, "{what}: title");
        assert!(run.load_failed.is_none(), "{what}: {:?}", app.messages);
        let snap = run
            .snapshot
            .as_ref()
            .unwrap_or_else(|| panic!("{what}: no snapshot; messages {:?}", app.messages));
        assert_eq!(
            snap.algo,
            app.algorithm.algo.name(),
            "{what}: the run is the chosen algorithm's"
        );
        // The root the app searches is the file's position (a game
        // record's at the ply it opened on).
        let root: AnyPosition = match (&file.record, app.opened.record()) {
            (Some(line), Some(view)) => line.position_after(view.ply).unwrap(),
            _ => file.position.clone(),
        };
        assert_eq!(
            app.opened.root().notation(),
            root.notation(),
            "{what}: root"
        );
        let shown = snap.position.as_ref().map(|p| p.notation());
        assert_eq!(shown, Some(root.notation()), "{what}: board or tree text");
        // The moves: the opened position's legal moves, and the tree's
        // root children among them (zone searches restrict them).
        let legal = root.legal_move_names();
        assert_eq!(app.opened.moves(), legal.as_slice(), "{what}: moves");
        for c in &snap.root_children {
            assert!(
                legal.contains(&c.move_label),
                "{what}: child {}",
                c.move_label
            );
        }
        // The correct moves: the exhaustive reference of this position.
        let setup = SearchSetup {
            position: root.clone(),
            params: Params::default(),
            seed: 0,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        };
        let best = match (&file.record, &file.expected) {
            (Some(_), _) if app.opened.record().is_some_and(|v| v.ply != v.len()) => Vec::new(),
            (_, Some(e)) => e.best_moves.clone(),
            _ => Vec::new(),
        };
        let reference = correct_moves::for_position(
            &root,
            &setup.root_question(),
            &best,
            correct_moves::DEFAULT_MAX_POSITIONS,
        )
        .map(|c| c.labels);
        let shown = app.opened.correct.correct().map(|c| c.labels.clone());
        assert_eq!(shown, reference, "{what}: correct moves");
        // The status is the run's own, never "running" before a step.
        assert_ne!(run.status_word.word(), "running", "{what}");
        if run.iteration() == 0 && !snap.status.is_final() {
            assert_eq!(run.status_word.word(), "idle", "{what}");
        }
    }
    assert_eq!(opened, files.len());
}

/// The chance tree with a proof search asked for: the app switches to a
/// chance search, says so, and judges the best move against the tree's
/// own answer (A).
#[test]
fn a_chance_tree_opened_with_pns_runs_a_chance_search() {
    let mut app = app();
    app.set_algo("pns", &[]).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
    app.open_path(&dir.join("chance-star1.tree"));
    assert!(app.settle(WAIT));
    assert!(
        registry::handles_chance(app.algorithm.algo.name()),
        "{}",
        app.algorithm.algo
    );
    assert!(
        app.messages.iter().any(|m| m.contains("switched to")),
        "{:?}",
        app.messages
    );
    app.set_algo("star1", &[]).unwrap();
    app.apply(Command::Run);
    assert!(app.settle(WAIT));
    let run = app.run();
    assert_eq!(run.status_word.word(), "proved", "{:?}", app.messages);
    assert_eq!(run.facts.best_move.as_deref(), Some("A"));
    // Both moves win (A is worth 5, B 1 > 0): A is judged correct.
    let c = app.opened.correct.correct().expect("the tree is small");
    assert!(c.labels.contains(&"A".to_string()), "{:?}", c.labels);
}

/// A position each algorithm can search: tic-tac-toe, else one of the
/// bundled trees.
fn position_for(algo: &str) -> PositionEntry {
    let info = registry::find_algo(algo).unwrap();
    let params = Params::defaults(info.params);
    let mut candidates = vec![PositionEntry::new(
        "tic-tac-toe",
        AnyPosition::parse(pnlab::game::GameKind::TicTacToe, "x...o....").unwrap(),
        1,
    )];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees");
    for f in [
        "chance-star1.tree",
        "om-trap.tree",
        "scores.tree",
        "seesaw.tree",
    ] {
        candidates.push(first_entry(&dir.join(f)));
    }
    candidates
        .into_iter()
        .find(|e| {
            let setup = SearchSetup {
                position: e.position.clone(),
                params: params.clone(),
                seed: 0,
                question: QuestionKind::Win,
                memory_limit_bytes: None,
            };
            fit::quick_refusal(Algorithm::named(algo).unwrap(), &params, &e.position).is_none()
                && registry::build(algo, &setup).is_ok()
        })
        .unwrap_or_else(|| panic!("no position for {algo}"))
}

/// Step, Back, the scrubber, Reset, Run/Pause, race mode and class mode
/// work for every registered algorithm: each moves the run where it says.
#[test]
fn every_control_works_for_every_algorithm() {
    for info in registry::algorithms() {
        let a = info.name;
        let mut app = app();
        let mut entry = position_for(a);
        entry.algo = Some(a.to_string());
        app.open_entry(entry);
        assert!(app.settle(WAIT), "{a}");
        assert_eq!(app.algorithm.algo, a, "{a}: {:?}", app.messages);
        let it = |app: &PnlabApp| app.run().iteration();
        let done = |app: &PnlabApp| app.run().status().is_some_and(|s| s.is_final());
        // Step.
        app.apply(Command::Step(1));
        assert!(app.settle(WAIT));
        assert!(it(&app) == 1 || done(&app), "{a}: step");
        app.apply(Command::Step(5));
        assert!(app.settle(WAIT));
        let top = it(&app);
        assert!(top == 6 || done(&app), "{a}: step 5 -> {top}");
        assert!(top >= 1, "{a}");
        // Back one, then the scrubber, then Reset.
        app.apply(Command::Back(1));
        assert!(app.settle(WAIT));
        assert_eq!(it(&app), top - 1, "{a}: back");
        assert_eq!(
            app.run().max_iteration,
            top,
            "{a}: the scrubber keeps its range"
        );
        app.apply(Command::GoTo(top));
        assert!(app.settle(WAIT));
        assert_eq!(it(&app), top, "{a}: forward with the scrubber");
        app.apply(Command::Reset);
        assert!(app.settle(WAIT));
        assert_eq!(it(&app), 0, "{a}: reset");
        assert_eq!(app.run().status_word.word(), "idle", "{a}");
        // Run to a budget, then Pause.
        app.settings.controls.use_budget = true;
        app.settings.controls.budget_iterations = 40;
        app.apply(Command::SetBudget(app.settings.controls.budget()));
        app.apply(Command::Run);
        assert!(app.settle(WAIT));
        assert!(
            it(&app) == 40 || done(&app),
            "{a}: run to the budget: {}",
            it(&app)
        );
        assert!(!app.run().running, "{a}");
        let word = app.run().status_word.word();
        assert!(
            ["paused", "proved", "disproved", "unknown"].contains(&word),
            "{a}: {word}"
        );
        app.apply(Command::Pause);
        assert!(app.settle(WAIT));
        // Race mode mid-run: B is brought to A's iteration first.
        let at = it(&app);
        app.set_race(&egui::Context::default(), true);
        assert!(app.settle(WAIT), "{a}: race");
        let b = app.race.as_ref().unwrap().link.state.iteration();
        assert_eq!(b, at, "{a}: B catches up with A");
        app.apply(Command::Back(1));
        assert!(app.settle(WAIT));
        let b = app.race.as_ref().unwrap().link.state.iteration();
        assert_eq!((it(&app), b), (at - 1, at - 1), "{a}: back in both runs");
        app.set_race(&egui::Context::default(), false);
        // Class mode: a prediction is judged, and its reveal runs the
        // iteration.
        app.apply(Command::Reset);
        assert!(app.settle(WAIT));
        let snap = app.run().snapshot.clone().unwrap();
        app.class.on = true;
        let Some(root) = snap.nodes.first().map(|n| n.id) else {
            // Nothing recorded before the first visit (alpha-beta, om):
            // no node to click, and no most-proving node to predict.
            assert!(snap.selection_path.is_empty(), "{a}: a path without nodes");
            continue;
        };
        app.predict(root);
        app.reveal_class_step();
        assert!(app.settle(WAIT));
        if snap.status.is_final() || snap.selection_path.is_empty() {
            // Nothing to predict: the prediction is refused (the panel
            // says why) and the run stays.
            assert_eq!((it(&app), app.class.attempts), (0, 0), "{a}: class mode");
        } else {
            assert_eq!((it(&app), app.class.attempts), (1, 1), "{a}: class mode");
        }
    }
}

/// The counters keep their definitions (docs/algorithms.md §0) after
/// every step of every algorithm on several positions: one iteration per
/// step; the tree view's total is at most the nodes (or entries) held; in
/// the searches that keep their whole tree, nothing is expanded that was
/// not created, every created node is live and the view shows at most
/// the nodes there are (a table search's view also shows frontier
/// children that have no entry); where an algorithm keeps both seesaw
/// counters the root's switches are among all switches; a counter the
/// app hides stays 0.
#[test]
fn counters_agree_after_every_step_of_every_algorithm() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut positions: Vec<PositionEntry> = vec![
        PositionEntry::new(
            "ttt",
            AnyPosition::parse(pnlab::game::GameKind::TicTacToe, ".........").unwrap(),
            1,
        ),
        first_entry(&dir.join("trees/seesaw.tree")),
        first_entry(&dir.join("trees/ghi-lecture.tree")),
        first_entry(&dir.join("trees/chance-star1.tree")),
        first_entry(&dir.join("trees/om-trap.tree")),
    ];
    positions.push(first_entry(&dir.join("xiangqi/mate-puzzles.toml")));
    let req = ViewRequest {
        max_nodes: 100_000,
        max_depth: 64,
        ..ViewRequest::default()
    };
    let mut checked = 0;
    for info in registry::algorithms() {
        for entry in &positions {
            let params = Params::defaults(info.params);
            let algo = Algorithm::named(info.name).unwrap();
            if fit::quick_refusal(algo, &params, &entry.position).is_some() {
                continue;
            }
            let setup = SearchSetup {
                position: entry.position.clone(),
                params,
                seed: 0,
                question: QuestionKind::Win,
                memory_limit_bytes: None,
            };
            let Ok(mut s) = registry::build(info.name, &setup) else {
                continue;
            };
            checked += 1;
            let what = format!("{} on {}", info.name, entry.name);
            let mut steps = 0u64;
            loop {
                let c = s.counters().clone();
                // One iteration per step; in the depth-first searches the
                // step that returns to the root and ends the run is no MID
                // call of its own.
                let final_return = s.status().is_final() && c.iterations + 1 == steps;
                assert!(
                    c.iterations == steps || final_return,
                    "{what}: {} iterations after {steps} steps",
                    c.iterations
                );
                // The MCTS solvers hold room for children no simulation
                // reached yet; alpha-beta's recorded tree keeps the
                // children it cut off, scored as leaves, unentered.
                if !matches!(info.name, "mcts-solver" | "uct-solver" | "alphabeta") {
                    assert!(
                        c.live_nodes <= c.nodes_created.max(1),
                        "{what} at {steps}: live {} > created {}",
                        c.live_nodes,
                        c.nodes_created
                    );
                }
                if counters::WHOLE_TREE.contains(&info.name) {
                    assert!(
                        c.nodes_expanded <= c.nodes_created,
                        "{what}: expanded {} > created {}",
                        c.nodes_expanded,
                        c.nodes_created
                    );
                    assert_eq!(c.live_nodes, c.nodes_created, "{what}: live = created");
                }
                if counters::applies(info.name, "seesaw_switches")
                    && counters::applies(info.name, "seesaw_root_switches")
                {
                    assert!(
                        c.seesaw_root_switches <= c.seesaw_switches,
                        "{what} at {steps}: root switches {} > switches {}",
                        c.seesaw_root_switches,
                        c.seesaw_switches
                    );
                }
                for key in [
                    "seesaw_switches",
                    "seesaw_root_switches",
                    "revisits",
                    "playouts",
                ] {
                    if !counters::applies(info.name, key) {
                        let v = match key {
                            "seesaw_switches" => c.seesaw_switches,
                            "seesaw_root_switches" => c.seesaw_root_switches,
                            "revisits" => c.revisits,
                            _ => c.playouts,
                        };
                        assert_eq!(v, 0, "{what}: {key} is hidden but counts");
                    }
                }
                let snap = s.snapshot(&req);
                // The tree view's "of N": the nodes or entries held.
                assert!(
                    snap.total_nodes <= c.live_nodes,
                    "{what} at {steps}: the view's total {} > live {}",
                    snap.total_nodes,
                    c.live_nodes
                );
                if counters::shows_part_of_its_tree(info.name) {
                    assert!(
                        snap.nodes.len() as u64 <= snap.total_nodes,
                        "{what} at {steps}: showing {} of {} nodes",
                        snap.nodes.len(),
                        snap.total_nodes
                    );
                }
                if steps >= 150 || s.status().is_final() {
                    break;
                }
                s.step();
                steps += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// The memory budget: on by default (shown in the status bar), a run
/// that passes it pauses and says why, and Run stays paused there.
#[test]
fn a_run_pauses_at_the_memory_budget_and_says_why() {
    let mut app = app();
    assert!(app.settings.controls.use_memory_budget, "on by default");
    assert!(app.settings.controls.memory_budget_mb > 0);
    app.settings.controls.memory_budget_mb = 1;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut entry = positions::load_file(&dir.join("hex.toml"))
        .unwrap()
        .into_iter()
        .find(|e| e.name == "Hex 7x7, empty")
        .unwrap();
    entry.algo = Some("pns".into());
    app.open_entry(entry);
    assert!(app.settle(WAIT));
    app.apply(Command::SetBudget(app.settings.controls.budget()));
    app.apply(Command::Run);
    assert!(app.settle(WAIT));
    let run = app.run();
    assert!(!run.running);
    assert_eq!(run.status_word.word(), "paused", "{:?}", app.messages);
    assert_eq!(
        run.budget_reached,
        Some(pnlab::search::StopReason::Memory),
        "{} after {} iterations",
        run.status_word.describe(),
        run.iteration()
    );
    assert!(!run.status().is_some_and(|s| s.is_final()));
}

/// The command line's algorithm is judged against the file it opens:
/// `pnlab chance-star1.tree --algo star1` runs star1 with no note about
/// switching away from the start-up algorithm; `--algo pns` on the same
/// file switches to a chance search and says so once.
#[test]
fn the_command_line_algorithm_is_chosen_for_the_file_it_opens() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees/chance-star1.tree");
    let ctx = egui::Context::default();
    for (algo, switched) in [("star1", false), ("pns", true)] {
        let mut app = app();
        let opts = pnlab::app::LaunchOptions {
            open: Some(path.clone()),
            algo: Some(algo.to_string()),
            ..Default::default()
        };
        pnlab::app::configure(&mut app, &ctx, &opts).unwrap();
        assert!(app.settle(WAIT));
        let notes = app
            .messages
            .iter()
            .filter(|m| m.contains("switched to"))
            .count();
        assert_eq!(notes, usize::from(switched), "{algo}: {:?}", app.messages);
        assert!(
            registry::handles_chance(app.algorithm.algo.name()),
            "{algo}"
        );
        if !switched {
            assert_eq!(app.algorithm.algo, algo);
        }
    }
}

/// An algorithm's per-game parameters follow the open position: with
/// `dfpn-fast` chosen, the panel's parameters (the state's `params`) and
/// the run hold Connect Four's options on a Connect Four position and
/// Othello's on an Othello position, never the other game's.
#[test]
fn per_game_parameters_follow_the_open_position() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut app = app();
    app.open_path(&dir.join("connect4/Test_L3_R1-first12"));
    assert!(app.settle(WAIT));
    let pairs = [("leaf_cells".to_string(), "20".to_string())];
    app.set_algo("dfpn-fast", &pairs).unwrap();
    assert!(app.settle(WAIT));
    let params = |app: &PnlabApp| pnlab::app::state_json::value(app)["params"].clone();
    let p = params(&app);
    assert_eq!(p["leaf_cells"], 20, "{p}");
    assert!(p.get("leaf_empties").is_none(), "{p}");

    // The algorithm and its settings stay chosen across files.
    app.open_path(&dir.join("othello/ffo-1-7.obf"));
    assert!(app.settle(WAIT));
    assert_eq!(app.algorithm.algo, "dfpn-fast", "{:?}", app.messages);
    let p = params(&app);
    assert!(p.get("leaf_empties").is_some(), "{p}");
    for name in ["tactics", "threat_init", "mirror", "leaf_cells"] {
        assert!(p.get(name).is_none(), "{name} in {p}");
    }
    let snap = app.run().snapshot.clone().expect("a run");
    assert_eq!(snap.algo, "dfpn-fast");
}

/// What the panels say about the shown iteration: the iteration, the
/// best move and its verdict as `--state` writes them, the status bar's
/// best move (the shown sample's choice) and the selection path.
fn derived_texts(app: &PnlabApp) -> (serde_json::Value, Option<String>, Vec<String>) {
    let state = pnlab::app::state_json::value(app);
    let run = app.run();
    let snap = run.snapshot.as_ref().expect("snapshot");
    let status_best = run
        .shown_sample()
        .and_then(|s| s.best_child)
        .and_then(|i| snap.root_children.get(i as usize))
        .map(|c| c.move_label.clone());
    let picked = serde_json::json!({
        "iteration": state["iteration"],
        "best_move": state["best_move"],
        "verdict": state["verdict"],
        "outcome": state["outcome"],
    });
    (picked, status_best, snap.selection_moves.clone())
}

/// Back and the scrubber (issue #38): after stepping back, every derived
/// text (best move, its verdict, the status bar's best move, the path)
/// is the one a fresh run shows at that iteration, for five algorithms
/// (PNS on the seesaw from 7 back to 6 once said "best move R" while the
/// path went through L; SCNS on Hex 4×4 kept a later best move).
#[test]
fn back_then_every_verdict_matches_a_fresh_run_at_that_iteration() {
    let seesaw = || {
        positions::load_file(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/trees/seesaw.tree"),
        )
        .unwrap()
        .remove(0)
    };
    let hex4 = || {
        PositionEntry::new(
            "hex 4",
            AnyPosition::parse(pnlab::game::GameKind::Hex, "4:").unwrap(),
            1,
        )
    };
    // (algorithm, position, parameters, run to, back to)
    type Case = (&'static str, PositionEntry, Vec<(String, String)>, u64, u64);
    let runs: Vec<Case> = vec![
        (
            "pns",
            seesaw(),
            vec![("tie".into(), "leftmost".into())],
            7,
            6,
        ),
        ("deep-pn", seesaw(), vec![("R".into(), "0.4".into())], 9, 5),
        ("dfpn", seesaw(), vec![], 12, 8),
        ("scns", hex4(), vec![], 12, 11),
        ("mcts-solver", hex4(), vec![], 40, 23),
    ];
    for (algo, entry, params, top, back_to) in runs {
        let mut a = app();
        a.open_entry(entry.clone());
        a.set_algo(algo, &params).expect(algo);
        assert!(a.settle(WAIT));
        a.apply(Command::Step(top));
        assert!(a.settle(WAIT), "{algo}");
        if back_to + 1 == top {
            a.apply(Command::Back(1));
        } else {
            a.apply(Command::GoTo(back_to));
        }
        assert!(a.settle(WAIT), "{algo}");
        let mut fresh = app();
        fresh.open_entry(entry);
        fresh.set_algo(algo, &params).expect(algo);
        assert!(fresh.settle(WAIT));
        fresh.apply(Command::Step(back_to));
        assert!(fresh.settle(WAIT), "{algo}");
        let (back, fresh_view) = (derived_texts(&a), derived_texts(&fresh));
        assert_eq!(back.0["iteration"], back_to, "{algo}");
        assert_eq!(back, fresh_view, "{algo}: back to {back_to} from {top}");
    }
}
