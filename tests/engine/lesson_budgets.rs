//! Lessons within budgets: captions have a length limit, panel names are
//! exact, every step runs under a memory budget with a located error,
//! and steps that go on with the step before continue its search: the
//! states are the same as playing each step on its own, and a lesson of
//! thousands of steps checks.

use std::fmt::Write as _;

use pnlab::lesson::{self, Lesson, LessonError};

fn load(text: &str) -> Result<Lesson, LessonError> {
    Lesson::load_text("lessons/t.lesson.toml", text, &lesson::Bundled)
}

const HEAD: &str = "[lesson]\ntitle = \"t\"\n\n[[step]]\n";

#[test]
fn a_caption_over_the_limit_is_a_located_error() {
    let long = "a".repeat(lesson::caption::MAX_CAPTION_CHARS + 1);
    let text = format!(
        "{HEAD}position = {{ file = \"../positions/trees/seesaw.tree\" }}\ncaption = \"{long}\"\n"
    );
    let e = load(&text).unwrap_err().to_string();
    assert!(e.starts_with("lessons/t.lesson.toml:6:4012:"), "{e}");
    assert!(e.contains("longer than 4000 characters"), "{e}");
    let ok = format!(
        "{HEAD}position = {{ file = \"../positions/trees/seesaw.tree\" }}\ncaption = \"{}\"\n",
        "a".repeat(lesson::caption::MAX_CAPTION_CHARS)
    );
    assert!(load(&ok).is_ok());
}

#[test]
fn panel_names_are_exact() {
    let text = format!(
        "{HEAD}position = {{ file = \"../positions/trees/seesaw.tree\" }}\ncaption = \"c\"\nshow = [\"tree \"]\n"
    );
    let e = load(&text).unwrap_err().to_string();
    assert!(e.contains("unknown panel `tree `"), "{e}");
}

/// Every bundled lesson played step after step (each step going on from
/// the one before where it can) shows what each step played on its own
/// shows.
#[test]
fn playing_in_order_gives_the_states_of_playing_each_step_alone() {
    for (path, l) in lesson::bundled_lessons() {
        let l = l.unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut k = 0;
        l.play_all(|st| {
            let alone = lesson::play(&l, k)?;
            assert_eq!(st.index, k);
            assert_eq!(
                st.search.counters().iterations,
                alone.search.counters().iterations,
                "{path} step {}",
                k + 1
            );
            assert_eq!(st.search.status(), alone.search.status());
            assert_eq!(st.snapshot.nodes.len(), alone.snapshot.nodes.len());
            assert_eq!(
                st.samples.len(),
                alone.samples.len(),
                "{path} step {}",
                k + 1
            );
            assert_eq!(st.select, alone.select);
            assert_eq!(st.highlights, alone.highlights);
            assert_eq!(
                st.question.as_ref().map(|q| q.answer_text()),
                alone.question.as_ref().map(|q| q.answer_text())
            );
            k += 1;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(k, l.len());
    }
}

/// 3,000 steps, each one iteration further on the same search: checked
/// in one pass (each step continues the search of the step before).
#[test]
fn a_lesson_of_thousands_of_steps_checks() {
    let mut text = String::from("[lesson]\ntitle = \"many\"\n");
    let n = 3_000;
    for k in 0..n {
        text.push_str("\n[[step]]\ncaption = \"one more\"\n");
        if k == 0 {
            text.push_str("position = { game = \"hex\", notation = \"5:\" }\nalgo = \"pns\"\n");
        }
        let _ = writeln!(text, "iteration = {}", k + 1);
    }
    let l = load(&text).unwrap();
    assert_eq!(l.settings().len(), n);
    let mut last = 0;
    l.play_all(|st| {
        last = st.search.counters().iterations;
        Ok(())
    })
    .unwrap();
    assert_eq!(last, n as u64);
}

/// A step whose search outgrows the step budget is an error at its
/// `iteration`, not a machine out of memory.
#[test]
fn a_step_over_the_memory_budget_is_a_located_error() {
    let text = format!(
        "{HEAD}position = {{ game = \"hex\", notation = \"11:\" }}\nalgo = \"pns\"\ncaption = \"c\"\niteration = 1000000\n"
    );
    let l = load(&text).unwrap();
    let e = l.check().unwrap_err().to_string();
    assert!(e.starts_with("lessons/t.lesson.toml:8:"), "{e}");
    assert!(e.contains("more than 512 MiB"), "{e}");
}
