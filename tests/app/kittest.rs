//! The app driven by AccessKit labels (issue #2 item 7, issue #5 "What it
//! must show"): load → step → select a node (the inspector shows its
//! formula) → step back → forward again to the same tree → reset, and a
//! malformed file that gives the error and keeps the session.
#![cfg(feature = "gui")]

use std::time::Duration;

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use pnlab::app::{PnlabApp, Settings};
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::AnyPosition;
use pnlab::positions::PositionEntry;

use crate::common;
use common::app_window::{app_window, settle_within};

/// A position entry with PNS suggested, as a file would give it.
fn entry(name: &str, position: AnyPosition) -> PositionEntry {
    PositionEntry {
        algo: Some("pns".into()),
        ..PositionEntry::new(name, position, 1)
    }
}

fn harness() -> Harness<'static, PnlabApp> {
    // The worker wakes a context of its own; the tests wait on it with
    // `settle` instead of on repaints.
    let mut app = PnlabApp::new(&egui::Context::default(), Settings::default());
    // A fixed position whatever the app opens on: the empty tic-tac-toe
    // board (9 legal moves).
    app.load_entry(entry(
        "empty board",
        AnyPosition::TicTacToe(TicTacToe::new()),
    ));
    let mut h = app_window(1500.0, 950.0, app);
    settle(&mut h);
    h
}

/// Clicks the widget labelled `label`, then lets the app settle.
fn click(h: &mut Harness<'static, PnlabApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Clicks the widget whose label contains `part`, then lets the app
/// settle.
fn click_containing(h: &mut Harness<'static, PnlabApp>, part: &str) {
    h.get_by_label_contains(part).click();
    settle(h);
}

/// Presses `key`, then lets the app settle.
fn press(h: &mut Harness<'static, PnlabApp>, key: egui::Key) {
    h.key_press(key);
    settle(h);
}

/// Lets the UI send what a click asked for, waits for the worker to carry
/// it out, then draws the result.
fn settle(h: &mut Harness<'static, PnlabApp>) {
    settle_within(h, Duration::from_secs(20), 3);
}

fn tree_labels(h: &Harness<'static, PnlabApp>) -> Vec<String> {
    let mut v: Vec<String> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("node ")))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    v.sort();
    v
}

#[test]
fn load_step_inspect_back_forward_reset() {
    let mut h = harness();
    h.get_by_label("iterations 0");
    h.get_by_label_contains("search tree: 1 nodes");

    click(&mut h, "Step");
    h.get_by_label("iterations 1");
    let after_one = tree_labels(&h);
    // The empty tic-tac-toe board has 9 moves: the root and its children.
    assert_eq!(after_one.len(), 10, "{after_one:?}");

    click(&mut h, "Step");
    h.get_by_label("iterations 2");
    let after_two = tree_labels(&h);
    assert!(after_two.len() > after_one.len());

    // Select the root: the inspector explains its pn as a min over the
    // children (OR node, docs/algorithms.md §1).
    click_containing(&mut h, "node root");
    h.get_by_label_contains("pn = min(");

    click(&mut h, "Back");
    h.get_by_label("iterations 1");
    assert_eq!(tree_labels(&h), after_one);

    click(&mut h, "Step");
    h.get_by_label("iterations 2");
    assert_eq!(
        tree_labels(&h),
        after_two,
        "forward again gives the same tree"
    );

    click(&mut h, "Reset");
    h.get_by_label("iterations 0");
}

#[test]
fn keyboard_shortcuts_step_and_go_back() {
    let mut h = harness();
    press(&mut h, egui::Key::ArrowRight);
    h.get_by_label("iterations 1");
    press(&mut h, egui::Key::ArrowLeft);
    h.get_by_label("iterations 0");
}

#[test]
fn malformed_file_reports_file_line_and_keeps_the_session() {
    let mut h = harness();
    click(&mut h, "Step");
    h.get_by_label("iterations 1");

    let dir = std::env::temp_dir().join(format!("pnlab-app-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ttt");
    std::fs::write(&bad, "# a comment\nxxq......\n").unwrap();
    h.state_mut().open_path(&bad);
    settle(&mut h);
    let msg = h
        .get_by_label_contains("error:")
        .value()
        .unwrap_or_default();
    assert!(msg.contains("bad.ttt:2:3:"), "{msg}");
    // The session is kept: same run, same iteration.
    h.get_by_label("iterations 1");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_solves_the_default_position() {
    let mut h = harness();
    click(&mut h, "Run");
    // Tic-tac-toe is a draw, so "x wins" is disproved (the known result
    // of the game, not this code's output).
    h.get_by_label("disproved");
}

#[test]
fn class_mode_scores_predictions() {
    let mut h = harness();
    click(&mut h, "Predict the most-proving node");
    // Before the first iteration the only node, the root, is most-proving.
    click_containing(&mut h, "node root");
    // The score is in the side panel and under the verdict over the tree.
    assert!(h.query_all_by_label("score 1 / 1").count() >= 1);
    // The search waits for the reveal (Enter, or the verdict's button).
    h.get_by_label("iterations 0");
    press(&mut h, egui::Key::Enter);
    h.get_by_label("iterations 1");
    // All nine children start at pn = dn = 1 (unit initialisation); the
    // leftmost tie rule (docs/algorithms.md §1) makes the first move, a1,
    // most-proving: predicting b2 is wrong, a1 right.
    click_containing(&mut h, "node b2:");
    assert!(h.query_all_by_label("score 1 / 2").count() >= 1);
    assert!(h.query_all_by_label_contains("Not this one").count() >= 1);
}

#[test]
fn race_two_parameter_sets_in_lockstep() {
    let mut h = harness();
    h.get_by_label("Race a second run (B)").click();
    settle(&mut h);
    {
        let app = h.state_mut();
        let race = app.race.as_mut().expect("race mode is on");
        let info = pnlab::search::registry::find_algo("pns").unwrap();
        race.params.set(info.params, "tie", "deepest").unwrap();
        app.restart_race();
    }
    settle(&mut h);
    click(&mut h, "Step ×10");
    h.get_by_label("iterations 10");
    h.get_by_label_contains("B: iterations 10 ·");
    // PNS expands exactly one node per iteration (docs/algorithms.md §1), so
    // the three counts add up to 10 expansions on each side.
    let diff = h
        .get_by_label_contains("expanded by both")
        .value()
        .unwrap_or_default();
    let nums: Vec<usize> = diff
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(nums.len(), 3, "{diff}");
    assert_eq!(nums[0] + nums[1], 10, "{diff}");
    assert_eq!(nums[0] + nums[2], 10, "{diff}");
}

#[test]
fn error_rate_scores_the_chosen_move_against_the_winning_moves() {
    let mut h = harness();
    // x: a1 b1, o: a2 b2, x to move. The winning moves are worked out here
    // by plain negamax (the reference), not by the app.
    let g = TicTacToe::parse("xx./oo./...").unwrap();
    let q = pnlab::search::Question {
        attacker: pnlab::game::Player::First,
        goal: pnlab::search::Goal::Win,
    };
    let winning: Vec<String> = {
        use pnlab::game::Game;
        pnlab::search::reference::winning_moves(&g, &q)
            .into_iter()
            .map(|m| g.format_move(m))
            .collect()
    };
    assert!(!winning.is_empty());
    h.state_mut()
        .load_entry(entry("x to win", AnyPosition::TicTacToe(g)));
    settle(&mut h);
    h.get_by_label(&format!(
        "correct moves (exhaustive, moves that achieve the question): {}",
        winning.join(" ")
    ));
    h.get_by_label("Error rate of the chosen move");
    click(&mut h, "Run");
    h.get_by_label("proved");
    // A proof names a winning move, so the final choice is shown as
    // correct, and it is one of the reference's winning moves.
    let shown: Vec<&String> = winning
        .iter()
        .filter(|w| {
            h.query_by_label(&format!("best move {w} (correct)"))
                .is_some()
        })
        .collect();
    assert_eq!(shown.len(), 1, "{winning:?}");
    assert!(h.query_by_label_contains("(wrong)").is_none());
}

#[test]
fn race_by_nodes_keeps_tree_sizes_level_not_iterations() {
    let mut h = harness();
    h.state_mut().load_entry(entry(
        "Othello start",
        AnyPosition::Othello(pnlab::game::othello::Othello::start()),
    ));
    settle(&mut h);
    h.get_by_label("Race a second run (B)").click();
    settle(&mut h);
    {
        // B: the MCTS solver adds one node per simulation, PNS a whole
        // expansion (about ten children here) per iteration.
        let app = h.state_mut();
        let race = app.race.as_mut().expect("race mode is on");
        let algo = pnlab::search::Algorithm::named("mcts-solver").unwrap();
        race.algo = algo;
        race.params = pnlab::search::Params::defaults(algo.params);
        app.restart_race();
    }
    settle(&mut h);
    click(&mut h, "by nodes");
    h.get_by_label("Run").click();
    for _ in 0..60 {
        h.run_steps(1);
        assert!(h.state_mut().settle(Duration::from_secs(20)));
    }
    click(&mut h, "Pause");
    let app = h.state();
    let a = app.run().samples.last().cloned().unwrap_or_default();
    let b = app
        .race
        .as_ref()
        .and_then(|r| r.link.state.samples.last().cloned())
        .unwrap_or_default();
    assert!(a.iteration > 0 && b.iteration > 0, "{a:?} {b:?}");
    // Level in nodes, to within one chunk of the bigger mover (25 PNS
    // expansions of at most 33 children: Othello has fewer than 33 moves).
    assert!(a.nodes.abs_diff(b.nodes) <= 25 * 33, "{a:?} {b:?}");
    // ...which took B several times A's iterations.
    assert!(b.iteration >= 3 * a.iteration, "{a:?} {b:?}");
}

#[test]
fn every_algorithm_steps_and_explains_the_root_with_glyphs_the_fonts_have() {
    // kittest panics on a glyph no installed font has, so this also checks
    // every algorithm's labels and formulas render (no boxes).
    let mut h = harness();
    for info in pnlab::search::registry::algorithms() {
        // Tic-tac-toe has one evaluation: opponent-model search models
        // the opponent with it too.
        let pairs: Vec<(String, String)> = match info.name {
            "om" => vec![("model".into(), "f1".into()), ("eval".into(), "f1".into())],
            _ => Vec::new(),
        };
        {
            let app = h.state_mut();
            app.set_algo(info.name, &pairs).unwrap();
        }
        settle(&mut h);
        click(&mut h, "Step ×10");
        // The root may be scrolled out of view (follow the MPN): select it
        // as a click would.
        let root = {
            let snap = h.state().run().snapshot.as_ref().expect("snapshot");
            snap.nodes
                .iter()
                .find(|n| n.parent.is_none())
                .expect("root")
                .id
        };
        h.state_mut().inspect(root);
        settle(&mut h);
        let app = h.state();
        let snap = app.run().snapshot.as_ref().expect("snapshot");
        assert_eq!(snap.algo, info.name);
        assert!(snap.counters.iterations > 0, "{}", info.name);
        assert!(snap.inspection.is_some(), "{}: no inspection", info.name);
    }
}

#[test]
fn the_app_exports_the_same_json_fields_as_the_command_line() {
    let mut h = harness();
    click(&mut h, "Step ×10");
    let app_json: serde_json::Value = serde_json::from_str(
        &h.state()
            .export_text(pnlab::export::ExportFormat::Json)
            .unwrap(),
    )
    .unwrap();
    // The same run from the command line: same position and algorithm,
    // both on their default seed (0 in both), stopped after ten
    // iterations (runs are deterministic).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args([
            "solve",
            "--game",
            "tictactoe",
            ".........",
            "--max-iterations",
            "10",
            "--json",
        ])
        .output()
        .unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (k, v) in cli.as_object().unwrap() {
        let Some(mine) = app_json.get(k) else {
            panic!("the app's JSON lacks {k}");
        };
        match k.as_str() {
            // Names differ (file entry vs inline), time and the stop
            // reason too (paused vs budget).
            "name" | "time_ms" | "stop_reason" => {}
            _ => assert_eq!(mine, v, "field {k}"),
        }
    }
}

/// The position after the first `n` moves of `moves` from the xiangqi
/// start, played through the engine (independent of the viewer).
fn xiangqi_after(moves: &[&str], n: usize) -> pnlab::game::xiangqi::Xiangqi {
    use pnlab::game::Game;
    let mut g = pnlab::game::xiangqi::Xiangqi::start();
    for m in &moves[..n] {
        let mv = g.parse_move(m).expect("legal record move");
        g.play(mv);
    }
    g
}

/// A game record opens with its move list beside the board: a click on a
/// move makes the position after it the search root (one step expands
/// exactly that position's legal moves), the ply buttons and ←/→ over the
/// move list walk through the game, and the board shows the position the
/// engine reaches by playing the moves itself.
#[test]
fn game_record_viewer_roots_the_search_at_a_chosen_ply() {
    use pnlab::game::Game;
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let text = "[Event \"test\"]\n[Red \"A\"]\n[Black \"B\"]\n1. h2e2 h9g7 2. h0g2 i9h9\n";
    let mut entries = pnlab::positions::load_text("game.pgn", text).expect("record reads");
    let mut h = harness();
    h.state_mut().load_entry(entries.remove(0));
    settle(&mut h);
    h.get_by_label("ply 4 of 4");
    let board = |n: usize| format!("xiangqi board {}", xiangqi_after(&moves, n).notation());
    h.get_by_label(&board(4));

    click(&mut h, "h9g7");
    h.get_by_label("ply 2 of 4");
    h.get_by_label(&board(2));
    h.get_by_label("iterations 0");
    click(&mut h, "Step");
    let children = xiangqi_after(&moves, 2).board_moves().len();
    // The tidy tree or, once wider than the view, the path view.
    let count = format!("{} nodes", 1 + children);
    assert!(
        h.query_by_label(&format!("search tree: {count}")).is_some()
            || h.query_by_label(&format!("search tree, path view: {count}"))
                .is_some(),
        "no tree view with {count}"
    );

    click(&mut h, "Previous ply");
    h.get_by_label("ply 1 of 4");
    h.get_by_label(&board(1));
    h.get_by_label("iterations 0");

    // ←/→ walk the game while the pointer is over the move list.
    h.get_by_label("ply 1 of 4").hover();
    h.run_steps(1);
    press(&mut h, egui::Key::ArrowRight);
    h.get_by_label("ply 2 of 4");
    click(&mut h, "Start");
    h.get_by_label("ply 0 of 4");
    h.get_by_label(&board(0));
}

/// Settles until the main run has finished (proved or disproved).
fn settle_until_finished(h: &mut Harness<'static, PnlabApp>) -> String {
    for _ in 0..100 {
        settle(h);
        for status in ["proved", "disproved"] {
            if h.query_by_label(status).is_some() {
                return status.to_string();
            }
        }
    }
    panic!("the run did not finish");
}

/// The mate question's field: ticking `within` (1 move) on a mate-in-2
/// puzzle of the verified data asks "does the side to move win within one
/// move?", which the run disproves; with 2 moves it proves it.
#[test]
fn within_field_asks_the_mate_question() {
    let fen = "5aC2/3k5/3a1P3/4c4/2b1N1n1p/9/P8/B8/4A4/3A1K3 w - - 0 1";
    let pos = AnyPosition::parse(pnlab::game::GameKind::Xiangqi, fen).expect("FEN");
    let mut h = harness();
    h.state_mut().load_entry(entry("mate in 2", pos));
    settle(&mut h);
    assert_eq!(h.state().within(), None);
    click(&mut h, "within");
    assert_eq!(h.state().within(), Some(1));
    h.get_by_label("Run").click();
    assert_eq!(settle_until_finished(&mut h), "disproved");
    h.state_mut().set_within(Some(2));
    settle(&mut h);
    h.get_by_label("Run").click();
    assert_eq!(settle_until_finished(&mut h), "proved");
}

#[test]
fn cns_plots_the_selected_nodes_functions_and_labels_cn_at_a_target() {
    let mut h = harness();
    let text = include_str!("../../positions/trees/cns-interval.tree");
    let pos = AnyPosition::parse(pnlab::game::GameKind::Tree, text).unwrap();
    h.state_mut().load_entry(PositionEntry {
        algo: Some("cns".into()),
        ..PositionEntry::new("cns interval", pos, 1)
    });
    settle(&mut h);
    for _ in 0..2 {
        click(&mut h, "Step");
    }
    h.get_by_label("proof and disproof functions");
    let labels = tree_labels(&h);
    assert!(!labels.is_empty());
    // No target yet: the CN column is empty ("–") on every node.
    assert!(labels.iter().all(|l| l.contains("CN –")), "{labels:?}");
    let root = {
        let snap = h.state().run().snapshot.as_ref().expect("snapshot");
        let f = snap.functions.as_ref().expect("CNS sends the functions");
        assert!(f.v_min <= f.v_max);
        snap.nodes.iter().find(|n| n.parent.is_none()).unwrap().id
    };
    // A target: every node shows a number there.
    h.state_mut().tree.cn_target = Some(5.0);
    h.state_mut().inspect(root);
    settle(&mut h);
    let labels = tree_labels(&h);
    assert!(labels.iter().all(|l| !l.contains("CN –")), "{labels:?}");
    let snap = h.state().run().snapshot.as_ref().unwrap();
    assert_eq!(snap.functions.as_ref().unwrap().node, root);
}

/// Hex's cell status: the board's toggle shows the knowledge's summary
/// for the shown position, the same report the solver's moves come from,
/// and hides it again.
#[test]
fn hex_cell_status_shows_the_knowledge_summary() {
    let mut app = PnlabApp::new(&egui::Context::default(), Settings::default());
    let g = pnlab::game::hex::Hex::parse("5:c3 b3 c2 d2").unwrap();
    let report = pnlab::game::hex::knowledge::Knowledge::of(&g);
    app.load_entry(entry("hex", AnyPosition::Hex(g)));
    let mut h = app_window(1500.0, 950.0, app);
    settle(&mut h);
    assert!(h.query_by_label(&report.summary()).is_none());
    click_containing(&mut h, "Cell status");
    h.get_by_label(&report.summary());
    h.get_by_label(pnlab::app::board::KNOWLEDGE_LEGEND);
    click_containing(&mut h, "Cell status");
    assert!(h.query_by_label(&report.summary()).is_none());
}
