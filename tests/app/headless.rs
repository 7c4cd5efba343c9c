//! `pnlab` with no display (a server, a container, CI without Xvfb): the
//! binary says how to work headless instead of failing inside the window
//! system (docs/cli.md, "The app"). The binary runs with every variable
//! that names a display removed.

use std::process::{Command, Output};

/// Runs the binary with `args` and no display in its environment.
fn without_display(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("the binary runs")
}

#[cfg(feature = "gui")]
#[test]
fn the_app_without_a_display_says_how_to_run_headless() {
    for args in [
        &[][..],
        &["positions/trees/seesaw.tree"][..],
        &[
            "--open",
            "positions/hex.toml",
            "--autoplay",
            "5",
            "--screenshot",
            "x.png",
        ][..],
        &["lesson", "lessons/03-seesaw-and-deep-pn.lesson.toml"][..],
    ] {
        let out = without_display(args);
        let err = String::from_utf8_lossy(&out.stderr);
        // A run that could not start (docs/cli.md: 1), not bad input (2).
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: no display"), "{args:?}: {err}");
        for advice in ["pnlab solve", "pnlab --help", "xvfb-run"] {
            assert!(err.contains(advice), "{args:?}: no `{advice}` in {err}");
        }
        assert!(!err.to_lowercase().contains("winit"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("x.png")
        .exists());
}

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
