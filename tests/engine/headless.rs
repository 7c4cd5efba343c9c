//! `pnlab` with no display, the parts that need no GUI: a build without
//! the app points at the subcommands, and the subcommands run without a
//! display. (The app's own advice: `tests/app/headless.rs`.)

use crate::common::without_display;

/// A build without the GUI has no window to open at all: it says so and
/// points at the subcommands, display or not.
#[cfg(not(feature = "gui"))]
#[test]
fn a_build_without_the_app_points_at_the_subcommands() {
    let out = without_display(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("without the `gui` feature"), "{err}");
    assert!(err.contains("subcommand"), "{err}");
}

/// The subcommands need no display.
#[test]
fn subcommands_run_without_a_display() {
    let out = without_display(&["solve", "--game", "tictactoe", "x...o....", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("one JSON record on stdout");
    assert!(v["outcome"].is_string(), "{v}");
}
