//! Teaching in class, driven through the app (issue #24): presenter mode's
//! layout at projector sizes, the lesson player's keys, step counter,
//! rebuilt state and questions, class mode's verdict and reveal, and the
//! browser by topic.
#![cfg(feature = "gui")]

use std::path::Path;
use std::time::Duration;

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use pnlab::app::lesson_player::ShownVerdict;
use pnlab::app::{PnlabApp, Settings};
use pnlab::lesson::{self, Answer, AskKind, Lesson};

use crate::common;
use common::app_window::{app_window, settle_within};

fn harness_sized(w: f32, h: f32, app: PnlabApp) -> Harness<'static, PnlabApp> {
    let mut h = app_window(w, h, app);
    settle(&mut h);
    h
}

fn settle(h: &mut Harness<'static, PnlabApp>) {
    // Enough frames for the node glide to end (12 per second of 1/60 s).
    settle_within(h, Duration::from_secs(60), 90);
}

/// The accessible name of node `id` in the app's tree.
fn node_label(h: &Harness<'static, PnlabApp>, id: u64) -> String {
    let snap = h.state().run().snapshot.clone().expect("snapshot");
    let node = snap
        .nodes
        .iter()
        .find(|n| n.id == id)
        .expect("node in the app's tree");
    pnlab::app::tree_view::node_name(&snap, node)
}

/// The verdict the lesson player shows on the step's question.
fn lesson_verdict(h: &Harness<'static, PnlabApp>) -> ShownVerdict {
    h.state()
        .teach
        .lesson
        .as_ref()
        .unwrap()
        .verdict
        .clone()
        .expect("verdict")
}

fn app() -> PnlabApp {
    PnlabApp::new(&egui::Context::default(), Settings::default())
}

/// Every step of the bundled course, played by the lesson player: where
/// it is (`PATH step K`, K 1-based), its lesson, its index and its state.
fn course_steps() -> impl Iterator<Item = (String, Lesson, usize, lesson::StepState)> {
    lesson::bundled_lessons().into_iter().flat_map(|(path, l)| {
        let l = l.expect("lesson loads");
        (0..l.len()).map(move |k| {
            let st = lesson::play(&l, k).expect("step plays");
            (format!("{path} step {}", k + 1), l.clone(), k, st)
        })
    })
}

/// The app (1280×800) with lesson `l` open at step `k`, settled.
fn app_at_step(l: &Lesson, k: usize) -> Harness<'static, PnlabApp> {
    let mut app = app();
    app.open_lesson(l.clone());
    app.go_to_step(k);
    harness_sized(1280.0, 800.0, app)
}

fn seesaw_app() -> PnlabApp {
    let mut app = app();
    let entries =
        pnlab::app::files::load_path(Path::new("positions/trees/seesaw.tree")).expect("seesaw");
    app.open_entry(entries[0].clone());
    app.set_algo("pns", &[("tie".into(), "leftmost".into())])
        .expect("pns");
    app
}

/// Presenter mode at the two projector sizes: the seesaw tree after 12
/// PNS iterations fills the window with labels at least 16 px high, none
/// dropped for lack of room and nothing outside the tree's area.
#[test]
fn presenter_mode_labels_are_large_and_nothing_is_clipped() {
    for (w, h) in [(1024.0, 768.0), (1280.0, 720.0)] {
        let mut app = seesaw_app();
        app.set_presenting(true);
        let mut hs = harness_sized(w, h, app);
        hs.state_mut().apply(pnlab::app::driver::Command::Step(12));
        settle(&mut hs);
        hs.get_by_label_contains("iteration 12");
        let drawn = hs.state().tree.drawn.clone();
        let area = drawn.area.expect("the tree was drawn");
        assert!(
            area.width() > w * 0.95,
            "{w}×{h}: the tree fills the width ({})",
            area.width()
        );
        let nodes = drawn.nodes.len();
        assert!(nodes > 12, "{w}×{h}: {nodes} nodes");
        let min_h = drawn
            .labels
            .iter()
            .map(|(_, r)| r.height())
            .fold(f32::INFINITY, f32::min);
        eprintln!(
            "{w}×{h}: {nodes} nodes, {} labels, smallest {min_h:.1} px high, {} dropped, tree area {:.0}×{:.0}",
            drawn.labels.len(),
            drawn.dropped,
            area.width(),
            area.height()
        );
        assert!(min_h >= 16.0, "{w}×{h}: labels {min_h} px high");
        // Every node has its values label, every edge its move.
        assert!(
            drawn.labels.len() >= 2 * nodes - 1,
            "{w}×{h}: {} labels",
            drawn.labels.len()
        );
        assert_eq!(drawn.dropped, 0, "{w}×{h}: labels dropped");
        for (text, r) in &drawn.labels {
            assert!(
                area.contains_rect(*r),
                "{w}×{h}: label {text} at {r:?} outside {area:?}"
            );
        }
        for (id, r) in &drawn.nodes {
            assert!(
                area.contains_rect(*r),
                "{w}×{h}: node {id:?} at {r:?} outside {area:?}"
            );
        }
        // Ctrl + grows the labels, and the size is what Settings keeps.
        let before = hs.state().settings.tree_label_px;
        hs.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
        hs.run_steps(3);
        assert_eq!(hs.state().settings.tree_label_px, before + 2.0);
        assert_eq!(hs.state().settings_to_save().tree_label_px, before + 2.0);
        // Esc leaves presenter mode: the menus are back.
        hs.key_press(egui::Key::Escape);
        hs.run_steps(3);
        hs.get_by_label("Teach");
    }
}

/// Outside presenter mode at 1024×768 the side panels leave the tree a
/// usable width, and each of them can be hidden.
#[test]
fn side_panels_shrink_at_1024_and_can_be_hidden() {
    let mut hs = harness_sized(1024.0, 768.0, seesaw_app());
    hs.state_mut().apply(pnlab::app::driver::Command::Step(12));
    settle(&mut hs);
    let with_panels = hs.state().tree.drawn.area.expect("drawn").width();
    assert!(with_panels >= 420.0, "tree width {with_panels} at 1024");
    hs.state_mut().settings.show_side = false;
    hs.state_mut().settings.show_inspector = false;
    hs.run_steps(5);
    let alone = hs.state().tree.drawn.area.expect("drawn").width();
    eprintln!("tree width at 1024×768: {with_panels:.0} with the panels, {alone:.0} without");
    assert!(
        alone > 1024.0 - 40.0,
        "tree width {alone} with the panels hidden"
    );
}

fn bundled_lesson(path: &str) -> Lesson {
    lesson::bundled_lessons()
        .into_iter()
        .find(|(p, _)| *p == path)
        .expect("lesson bundled")
        .1
        .expect("lesson loads")
}

/// The tree's node names as the accessibility tree has them.
fn node_labels(h: &Harness<'static, PnlabApp>) -> usize {
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("node ")))
        .count()
}

/// A whole lesson played with the keyboard: → to the last step, ← back,
/// each step's state rebuilt from the lesson (the app's run sits at the
/// step's iteration with the step's algorithm), one question answered
/// right and one wrong, with the engine's verdicts.
#[test]
fn a_lesson_is_played_with_the_keyboard_and_its_questions_judged() {
    let l = bundled_lesson("lessons/02-pns-step-by-step.lesson.toml");
    let steps = l.len();
    let mut app = app();
    app.open_lesson(l.clone());
    let mut h = harness_sized(1280.0, 720.0, app);
    h.get_by_label(&format!("step 1 / {steps}"));

    // Step 1 asks for the most-proving node: answer it right by clicking it.
    let q = lesson::play(&l, 0).unwrap().question.expect("a question");
    assert_eq!(q.kind, AskKind::MostProving);
    let Answer::Node(right) = &q.answer else {
        panic!()
    };
    assert_eq!(h.state().run().iteration(), 1);
    h.get_by_label(&node_label(&h, right.id)).click();
    settle(&mut h);
    let v = lesson_verdict(&h);
    assert!(v.correct, "{v:?}");
    assert!(v.headline.starts_with("Right"), "{}", v.headline);
    h.get_by_label(&v.headline);

    // → goes on; the state is the lesson's step 2, not a step of the old run.
    h.key_press(egui::Key::ArrowRight);
    settle(&mut h);
    h.get_by_label(&format!("step 2 / {steps}"));
    assert_eq!(h.state().run().iteration(), 2);
    // Step 2 asks which child the root chooses: answer wrong.
    let q2 = lesson::play(&l, 1).unwrap().question.expect("a question");
    assert_eq!(q2.kind, AskKind::Child);
    let Answer::Node(right2) = &q2.answer else {
        panic!()
    };
    let wrong = q2
        .choices
        .iter()
        .find(|c| c.id != right2.id)
        .expect("another child");
    h.get_by_label(&node_label(&h, wrong.id)).click();
    settle(&mut h);
    let v2 = lesson_verdict(&h);
    assert!(!v2.correct, "{v2:?}");
    assert!(!v2.lines.is_empty(), "the reason is shown");
    h.get_by_label(&v2.headline);
    assert_eq!(h.state().teach.lesson.as_ref().unwrap().score, (1, 2));

    // To the last step with Space and →, then back with ←.
    for k in 2..steps {
        if k % 2 == 0 {
            h.key_press(egui::Key::Space);
        } else {
            h.key_press(egui::Key::ArrowRight);
        }
        settle(&mut h);
        h.get_by_label(&format!("step {} / {steps}", k + 1));
        let st = lesson::play(&l, k).unwrap();
        assert_eq!(
            h.state().run().iteration(),
            st.search.counters().iterations,
            "step {}",
            k + 1
        );
        assert_eq!(h.state().algorithm.algo, st.setting.algo.as_str());
        assert!(node_labels(&h) > 0);
    }
    // A further → stays on the last step.
    h.key_press(egui::Key::ArrowRight);
    settle(&mut h);
    h.get_by_label(&format!("step {steps} / {steps}"));
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    h.get_by_label(&format!("step {} / {steps}", steps - 1));
    let st = lesson::play(&l, steps - 2).unwrap();
    assert_eq!(h.state().run().iteration(), st.search.counters().iterations);
}

/// A tap whose press and release are 1.5 s apart in the app's clock (one
/// slow frame between them on a loaded phone or projector laptop) still
/// answers the question: egui's own limit (0.8 s) had turned such taps
/// into long presses that answered nothing.
#[test]
fn a_slow_tap_on_a_node_still_answers() {
    let l = bundled_lesson("lessons/02-pns-step-by-step.lesson.toml");
    let mut app = app();
    app.open_lesson(l.clone());
    let mut h = harness_sized(1280.0, 720.0, app);
    let q = lesson::play(&l, 0).unwrap().question.expect("a question");
    let Answer::Node(right) = &q.answer else {
        panic!("step 1 asks for a node")
    };
    let at = h.get_by_label(&node_label(&h, right.id)).rect().center();
    let t0 = h.ctx.input(|i| i.time) + 1.0;
    h.hover_at(at);
    h.input_mut().time = Some(t0);
    h.step();
    h.drag_at(at);
    h.input_mut().time = Some(t0 + 0.1);
    h.step();
    h.drop_at(at);
    h.input_mut().time = Some(t0 + 1.6);
    h.step();
    // The clock runs on from there.
    h.input_mut().time = None;
    settle(&mut h);
    let v = lesson_verdict(&h);
    assert!(v.correct, "{v:?}");
}

/// A value question typed in the lesson strip.
#[test]
fn a_typed_value_is_judged_by_the_engine() {
    let l = bundled_lesson("lessons/02-pns-step-by-step.lesson.toml");
    let k = (0..l.len())
        .find(|&k| {
            l.steps[k]
                .ask
                .as_ref()
                .is_some_and(|a| a.value.kind == AskKind::Value)
        })
        .expect("a value question");
    let st = lesson::play(&l, k).unwrap();
    let Answer::Number { shown, .. } = st.question.unwrap().answer else {
        panic!()
    };
    let mut app = app();
    app.open_lesson(l);
    app.go_to_step(k);
    let mut h = harness_sized(1280.0, 720.0, app);
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run_steps(2);
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text(&shown);
    h.run_steps(2);
    h.get_by_label("Answer").click();
    settle(&mut h);
    let v = lesson_verdict(&h);
    assert!(v.correct, "{v:?}");
}

/// Class mode: a prediction shows a large verdict and does not step the
/// search; nodes do not move until the reveal, which runs the iteration.
#[test]
fn class_mode_waits_for_the_reveal_and_nodes_stay_put() {
    let mut app = seesaw_app();
    app.set_class_mode(true);
    let mut h = harness_sized(1280.0, 720.0, app);
    h.state_mut().apply(pnlab::app::driver::Command::Step(3));
    settle(&mut h);
    let before = h.state().tree.drawn.nodes.clone();
    let snap = h.state().run().snapshot.clone().expect("snapshot");
    let truth = *snap.selection_path.last().unwrap();
    let other = snap
        .nodes
        .iter()
        .find(|n| n.id != truth && !n.expanded)
        .unwrap();
    h.get_by_label(&pnlab::app::tree_view::node_name(&snap, other))
        .click();
    settle(&mut h);
    assert_eq!(
        h.state().run().iteration(),
        3,
        "the prediction does not step"
    );
    let v = h.state().class.shown().expect("a verdict waits");
    assert!(!v.correct);
    assert!(h.query_all_by_label(&v.headline).count() >= 1);
    assert_eq!(h.state().tree.drawn.nodes, before, "nodes stay put");
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    assert_eq!(
        h.state().run().iteration(),
        4,
        "the reveal runs the iteration"
    );
    assert!(h.state().class.shown().is_none());
    assert_eq!(h.state().class.score_text(), "score 0 / 1");
    // The layout stays where the class looked: the node the reveal
    // expanded (the most-proving one) keeps its spot on the screen, and
    // every other node that was drawn stays in the view.
    let after = &h.state().tree.drawn.nodes;
    let centre = |v: &[(u64, egui::Rect)], id: u64| {
        v.iter()
            .find(|(n, _)| *n == id)
            .map(|(_, r)| r.center())
            .expect("node drawn")
    };
    let (a, b) = (centre(&before, truth), centre(after, truth));
    assert!(
        (a - b).length() < 1.0,
        "the expanded node moved from {a:?} to {b:?}"
    );
    let area = h.state().tree.drawn.area.expect("tree area");
    for (id, r) in after {
        assert!(area.contains_rect(*r), "node {id} left the view: {r:?}");
    }
}

/// The browser groups the catalogue by topic, plays a lesson, and closes.
#[test]
fn the_browser_opens_a_lesson_and_closes() {
    let mut app = app();
    app.open_browser();
    let mut h = harness_sized(1280.0, 720.0, app);
    h.get_by_label_contains("Lessons (");
    let title = bundled_lesson("lessons/01-and-or-trees.lesson.toml").title;
    h.get_by_label(&title).click();
    settle(&mut h);
    assert!(h.state().teach.lesson.is_some());
    assert!(
        h.query_by_label_contains("Lessons (").is_none(),
        "the browser closed"
    );
}

/// Replaces the tree text window's text as a user would: focus the
/// editor, select everything, type.
fn replace_tree_text(h: &mut Harness<'static, PnlabApp>, text: &str) {
    h.get_by_role(egui::accesskit::Role::MultilineTextInput)
        .focus();
    h.run_steps(2);
    assert!(
        h.get_by_role(egui::accesskit::Role::MultilineTextInput)
            .is_focused(),
        "the editor has the focus"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_role(egui::accesskit::Role::MultilineTextInput)
        .type_text(text);
    h.run_steps(2);
    settle(h);
}

/// The moves of the run's root, read from the run's snapshot after one
/// iteration (which expands the root).
fn run_root_moves(h: &mut Harness<'static, PnlabApp>) -> Vec<String> {
    h.state_mut().apply(pnlab::app::driver::Command::Step(1));
    settle(h);
    let snap = h.state().run().snapshot.as_ref().expect("snapshot");
    let root = snap
        .nodes
        .iter()
        .position(|n| n.parent.is_none())
        .expect("root") as u32;
    snap.nodes
        .iter()
        .filter(|n| n.parent == Some(root))
        .map(|n| n.move_label.clone())
        .collect()
}

/// The tree text window (item 6): an edit that reads opens as the
/// position and the search restarts on it; a broken edit shows its
/// located error under the editor and the previous tree keeps running.
#[test]
fn tree_text_edits_reopen_the_tree_and_errors_keep_the_last_good_one() {
    let mut h = harness_sized(1280.0, 900.0, seesaw_app());
    assert_eq!(run_root_moves(&mut h), ["L", "R"]);
    h.get_by_label("Edit tree text…").click();
    h.run_steps(3);
    let shown = h
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .value()
        .unwrap_or_default();
    assert!(shown.contains("Laaaaa = win"), "{shown}");

    let small = "tree \"Three ways\"\nroot or\n  p and\n    p1 = win\n    p2 = loss\n  q = loss\n  r and\n    r1 = win\n    r2 = win\n";
    replace_tree_text(&mut h, small);
    assert_eq!(
        h.state().opened.title(),
        "Three ways",
        "{:?} {}",
        h.state().tree_text.error(),
        h.state().tree_text.text()
    );
    assert_eq!(h.state().tree_text.error(), None);
    assert_eq!(run_root_moves(&mut h), ["p", "q", "r"]);

    // `wim` is no result: the error names line 4 and its column.
    let broken = "tree \"Broken\"\nroot or\n  p and\n    p1 = wim\n";
    replace_tree_text(&mut h, broken);
    let err = h.state().tree_text.error().expect("an error").to_string();
    assert!(err.starts_with("4:"), "{err}");
    h.get_by_label_contains(&format!("error at {err}"));
    assert_eq!(h.state().opened.title(), "Three ways");
    assert_eq!(h.state().opened.moves(), ["p", "q", "r"]);
    assert_eq!(run_root_moves(&mut h), ["p", "q", "r"]);
}

/// The browser's thumbnails (item 5): grouped by game, the open group's
/// positions in view carry a picture drawn by the board painter, and the
/// rows scrolled out of view are not drawn.
#[test]
fn browser_position_items_have_board_thumbnails_drawn_lazily() {
    let items = pnlab::catalogue::catalogue();
    let groups = pnlab::catalogue::by_game(&items);
    let (_, xiangqi) = groups
        .iter()
        .find(|(g, _)| *g == pnlab::game::GameKind::Xiangqi)
        .expect("bundled xiangqi positions");
    let n = xiangqi.len();
    assert!(n > 10, "{n}");
    let mut app = app();
    app.open_browser();
    let mut h = harness_sized(1280.0, 600.0, app);
    h.get_by_label("game").click();
    h.run_steps(3);
    // The trees come first and have no picture.
    let thumbnails = |h: &Harness<'static, PnlabApp>| -> Vec<String> {
        h.query_all_by_role(egui::accesskit::Role::Image)
            .filter_map(|n| n.accesskit_node().label())
            .filter(|l| l.contains(" board "))
            .collect()
    };
    assert!(thumbnails(&h).is_empty(), "{:?}", thumbnails(&h));
    let trees = groups
        .iter()
        .find(|(g, _)| *g == pnlab::game::GameKind::Tree)
        .map(|(_, v)| v.len())
        .expect("bundled trees");
    h.get_by_label(&format!("tree ({trees})")).click();
    h.run_steps(3);
    h.get_by_label(&format!("xiangqi ({n})")).click();
    h.run_steps(3);
    let drawn = thumbnails(&h);
    eprintln!("{} of {n} xiangqi thumbnails drawn", drawn.len());
    assert!(!drawn.is_empty(), "no thumbnail drawn");
    assert!(
        drawn.iter().all(|l| l.starts_with("xiangqi board ")),
        "{drawn:?}"
    );
    // Each is the position of an item of the group.
    for l in &drawn {
        let notation = l.trim_start_matches("xiangqi board ");
        assert!(
            xiangqi.iter().any(|i| matches!(&i.kind,
                pnlab::catalogue::ItemKind::Position { position, .. }
                    if position.position.notation() == notation)),
            "{l}"
        );
    }
    assert!(drawn.len() < n, "rows out of view were drawn too");
}

/// Every text the window shows through its accessibility tree (widget
/// labels and values: captions, inspector, status bar, verdict, node
/// names).
fn visible_texts(h: &Harness<'static, PnlabApp>) -> Vec<String> {
    h.root()
        .children_recursive()
        .flat_map(|n| {
            let a = n.accesskit_node();
            [a.label(), a.value()]
        })
        .flatten()
        .collect()
}

/// The quiz state (issue #38): on every question step of the course,
/// nothing on screen gives the answer away while the question is open
/// (none of the engine's reason lines, which name the chosen child or
/// write the asked value; no best move; the asked node's values hidden;
/// `--state` says the question is open and leaves best move, correct
/// moves and verdict null), and after the right answer all of it shows.
#[test]
fn no_question_of_the_course_shows_its_answer_before_the_reveal() {
    let mut asked = 0;
    for (at, l, k, st) in course_steps() {
        let Some(q) = st.question.clone() else {
            continue;
        };
        asked += 1;
        let mut h = app_at_step(&l, k);
        let state = pnlab::app::state_json::value(h.state());
        assert_eq!(state["question"]["open"], true, "{at}");
        for key in ["best_move", "correct_moves", "verdict"] {
            assert!(state[key].is_null(), "{at}: {key} = {}", state[key]);
        }
        assert!(state["question"]["answer"].is_null(), "{at}");
        let texts = visible_texts(&h);
        for r in &q.reason {
            let shown: Vec<&String> = texts.iter().filter(|t| t.contains(r.as_str())).collect();
            assert!(
                shown.is_empty(),
                "{at}: the reason line {r:?} is on screen: {shown:?}"
            );
        }
        assert!(
            !texts
                .iter()
                .any(|t| t.starts_with("best move ") && !t.contains("hidden")),
            "{at}: a best move is on screen"
        );
        // The asked node's own values are hidden (value questions).
        let asked_label = |h: &Harness<'static, PnlabApp>| {
            let n = q.node.as_ref()?;
            let snap = h.state().run().snapshot.clone()?;
            let node = snap.nodes.iter().find(|x| x.id == n.id)?;
            Some(pnlab::app::tree_view::node_name(&snap, node))
        };
        let told = match (&q.answer, &q.value_name) {
            (Answer::Number { shown, .. }, Some(v)) => Some(format!("{v} {shown}")),
            _ => None,
        };
        if let (Some(told), Some(label)) = (&told, asked_label(&h)) {
            assert!(!label.contains(told.as_str()), "{at}: {label} tells {told}");
        }

        // The reveal: the right answer, given the way the class would.
        let response = match &q.answer {
            Answer::Node(n) => lesson::Response::Node(n.id),
            Answer::Number { shown, .. } => lesson::Response::Text(shown.replace('∞', "inf")),
        };
        h.state_mut().answer_lesson(response);
        settle(&mut h);
        let v = lesson_verdict(&h);
        assert!(v.correct, "{at}: {v:?}");
        let texts = visible_texts(&h);
        assert!(
            texts.iter().any(|t| t.contains(&v.headline)),
            "{at}: no verdict"
        );
        for r in &q.reason {
            assert!(
                texts.iter().any(|t| t.contains(r.as_str())),
                "{at}: the reason line {r:?} is not shown after the reveal"
            );
        }
        // Nothing stays hidden: the asked node reads exactly as in the
        // lesson player's own snapshot of the step.
        if let (Some(n), Some(label)) = (q.node.as_ref(), asked_label(&h)) {
            let node = st
                .snapshot
                .nodes
                .iter()
                .find(|x| x.id == n.id)
                .expect("asked node");
            let engine = pnlab::app::tree_view::node_name(&st.snapshot, node);
            assert_eq!(
                label, engine,
                "{at}: after the reveal the app and the lesson player's snapshot disagree"
            );
        }
        let state = pnlab::app::state_json::value(h.state());
        assert_eq!(state["question"]["open"], false, "{at}");
        assert_eq!(state["question"]["correct"], true, "{at}");
        assert!(!state["question"]["answer"].is_null(), "{at}");
    }
    assert!(asked >= 30, "{asked} questions in the course");
}

/// Race steps (issue #38): every step of the course that shows a race
/// starts both sides with the step, A at the step's iteration and B where
/// the lesson player ran it; Step and Run stay enabled while either side
/// can go on; the header names the side with fewer nodes.
#[test]
fn race_steps_start_both_sides_at_the_step() {
    let mut races = 0;
    for (at, l, k, st) in course_steps() {
        let Some(race) = st.race.as_ref() else {
            continue;
        };
        races += 1;
        let h = app_at_step(&l, k);
        let a = h.state().run();
        let r = h.state().race.as_ref().expect("the race runs");
        let b = &r.link.state;
        assert_eq!(
            a.iteration(),
            st.search.counters().iterations,
            "{at}: side A"
        );
        assert_eq!(
            b.iteration(),
            race.snapshot.counters.iterations,
            "{at}: side B"
        );
        assert!(b.iteration() > 0, "{at}: side B never started");
        let (na, nb) = (
            a.snapshot.as_ref().unwrap().counters.nodes_created,
            b.snapshot.as_ref().unwrap().counters.nodes_created,
        );
        let fewer = match na.cmp(&nb) {
            std::cmp::Ordering::Less => "A created fewer nodes",
            std::cmp::Ordering::Greater => "B created fewer nodes",
            std::cmp::Ordering::Equal => "created as many nodes",
        };
        h.get_by_label_contains(fewer);
        // Step is on while a side can still go on.
        let over = |s: &pnlab::app::logic::RunState| s.status().is_some_and(|x| x.is_final());
        if !over(a) || !over(b) {
            assert!(
                !h.get_by_label("Step").accesskit_node().is_disabled(),
                "{at}"
            );
        }
    }
    assert!(races >= 3, "{races} race steps");
}
