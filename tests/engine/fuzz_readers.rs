//! A fuzz harness per reader of outside input, run as ordinary tests for
//! a fixed number of cases from a fixed seed (so CI runs the same cases
//! every time): position files, trees, lessons, certificates and the web
//! page's URL parameters. Each case is a committed corpus file
//! (`tests/data/fuzz/READER/`) mutated a few times (bytes flipped,
//! deleted, repeated, spliced from another file, or replaced by the
//! values that break readers: huge numbers, deep indentation, stray
//! quotes); the reader must return a value or an error, never panic, and
//! its errors must say where (`LINE:COL`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Cases per reader.
const CASES: usize = 1_500;

/// Texts that break careless readers.
const NASTY: &[&str] = &[
    "18446744073709551616",
    "-9223372036854775809",
    "1e308",
    "NaN",
    "-inf",
    "\"",
    "'",
    "[[",
    "]]",
    "{",
    "=",
    "&",
    "*",
    "#",
    "\t",
    "\u{feff}",
    "é",
    "\u{0}",
    "\r\n",
    "                                                                ",
    "%",
    "%ZZ",
    "..",
    "/",
];

fn corpus(reader: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(reader);
    let texts: Vec<String> = crate::helpers::sorted_entries(&dir)
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!texts.is_empty(), "no corpus in {}", dir.display());
    texts
}

/// One mutation of `text` (on characters, so the text stays UTF-8).
fn mutate(rng: &mut SmallRng, text: &str, corpus: &[String]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = |rng: &mut SmallRng, len: usize| rng.random_range(0..=len);
    match rng.random_range(0..7) {
        0 if !chars.is_empty() => {
            // Flip one character to a printable ASCII one.
            let i = rng.random_range(0..chars.len());
            chars[i] = rng.random_range(b' '..=b'~') as char;
        }
        1 if !chars.is_empty() => {
            // Delete a span.
            let i = rng.random_range(0..chars.len());
            let j = (i + rng.random_range(1..40)).min(chars.len());
            chars.drain(i..j);
        }
        2 if !chars.is_empty() => {
            // Repeat a span.
            let i = rng.random_range(0..chars.len());
            let j = (i + rng.random_range(1..80)).min(chars.len());
            let span: Vec<char> = chars[i..j].to_vec();
            let k = at(rng, chars.len());
            chars.splice(k..k, span);
        }
        3 => {
            // Insert a nasty text.
            let n = NASTY[rng.random_range(0..NASTY.len())];
            let k = at(rng, chars.len());
            chars.splice(k..k, n.chars());
        }
        4 => {
            // Splice in lines of another corpus file.
            let other = &corpus[rng.random_range(0..corpus.len())];
            let lines: Vec<&str> = other.lines().collect();
            if !lines.is_empty() {
                let i = rng.random_range(0..lines.len());
                let j = (i + rng.random_range(1..6)).min(lines.len());
                let piece = lines[i..j].join("\n") + "\n";
                let k = at(rng, chars.len());
                chars.splice(k..k, piece.chars());
            }
        }
        5 => {
            // Indent a line far deeper.
            let k = at(rng, chars.len());
            let depth = rng.random_range(1..200);
            chars.splice(
                k..k,
                std::iter::once('\n').chain(std::iter::repeat_n(' ', depth)),
            );
        }
        _ => {
            // Replace a number by a huge or negative one.
            if let Some(i) = chars.iter().position(|c| c.is_ascii_digit()) {
                let n = NASTY[rng.random_range(0..3)];
                chars.splice(i..i + 1, n.chars());
            }
        }
    }
    chars.into_iter().collect()
}

/// Runs `read` on `CASES` mutants of the corpus; `read` returns the
/// error's message, if any, which must carry a location.
fn fuzz(reader: &str, seed: u64, read: impl Fn(&str) -> Option<String>) {
    let corpus = corpus(reader);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut errors = 0;
    for case in 0..CASES {
        let mut text = corpus[case % corpus.len()].clone();
        for _ in 0..rng.random_range(1..4) {
            text = mutate(&mut rng, &text, &corpus);
        }
        let result = catch_unwind(AssertUnwindSafe(|| read(&text)));
        let message = match result {
            Ok(m) => m,
            Err(_) => panic!("{reader}: case {case} panicked on:\n{text}"),
        };
        if let Some(m) = message {
            errors += 1;
            assert!(
                has_location(&m),
                "{reader}: case {case}: the error `{m}` says not where, for:\n{text}"
            );
        }
    }
    // The mutants must reach the readers' error paths, or the harness
    // tests nothing.
    assert!(
        errors > CASES / 10,
        "{reader}: only {errors} errors in {CASES} cases"
    );
}

/// Whether a message carries `LINE:COL` (two numbers joined by a colon).
fn has_location(m: &str) -> bool {
    let b = m.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b':' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

#[test]
fn position_files() {
    let names = [
        "fuzz.toml",
        "fuzz.ttt",
        "fuzz.hex",
        "fuzz.obf",
        "fuzz.fen",
        "fuzz.pgn",
        "fuzz",
    ];
    let which = std::cell::Cell::new(0usize);
    fuzz("positions", 1, |text| {
        let name = names[which.get() % names.len()];
        which.set(which.get() + 1);
        let (_, errors) = pnlab::positions::load_text_partial(name, text);
        errors.first().map(|e| e.to_string())
    });
}

#[test]
fn trees() {
    fuzz("trees", 2, |text| {
        pnlab::game::tree::Tree::parse(text)
            .err()
            .map(|e| e.to_string())
    });
}

#[test]
fn lessons() {
    fuzz("lessons", 3, |text| {
        pnlab::lesson::Lesson::load_text("lessons/fuzz.lesson.toml", text, &pnlab::lesson::Bundled)
            .err()
            .map(|e| e.to_string())
    });
}

#[test]
fn certificates() {
    fuzz("certificates", 4, |text| {
        match pnlab::certificate::Certificate::parse(text) {
            Err(e) => Some(e.to_string()),
            // A certificate that reads is checked: a verdict either way,
            // or an error that says where.
            Ok(c) => pnlab::certificate::verify(&c).err().map(|e| e.to_string()),
        }
    });
}

#[cfg(feature = "gui")]
#[test]
fn url_parameters() {
    let corpus = corpus("urls");
    assert!(corpus[0].lines().count() > 3);
    let mut rng = SmallRng::seed_from_u64(5);
    let lines: Vec<String> = corpus
        .iter()
        .flat_map(|t| t.lines().map(str::to_string))
        .collect();
    let mut errors = 0;
    for case in 0..CASES {
        let mut q = lines[case % lines.len()].clone();
        for _ in 0..rng.random_range(1..4) {
            q = mutate(&mut rng, &q, &lines);
        }
        let r = catch_unwind(AssertUnwindSafe(|| pnlab::app::launch_url::parse(&q)));
        match r {
            Err(_) => panic!("url case {case} panicked on `{q}`"),
            Ok(Err(e)) => {
                errors += 1;
                // A page error names the parameter it is about.
                assert!(e.to_string().starts_with("page address"), "{e}");
            }
            Ok(Ok(l)) => {
                // What reads back encodes and reads back the same.
                let again = pnlab::app::launch_url::parse(&pnlab::app::launch_url::encode(&l));
                assert_eq!(again.as_ref().ok(), Some(&l), "`{q}`");
            }
        }
    }
    assert!(errors > CASES / 10, "only {errors} errors");
}
