//! `pnlab` with no display (a server, a container, CI without Xvfb): the
//! app says how to work headless instead of failing inside the window
//! system (docs/cli.md, "The app"). The binary runs with every variable
//! that names a display removed. (The build without the GUI and the
//! subcommands: `tests/engine/headless.rs`.)

use crate::common::without_display;

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
