//! `pnlab experiment NAME --help` and the checks of `--set NAME=VALUE`
//! for every registered experiment (docs/cli.md): the help lists every
//! setting with its default, and an unknown setting or a bad value is exit
//! 2 with a message naming the valid settings or the range. None of these
//! runs an experiment: the checks come before any work.

use std::process::Command;

use pnlab::experiments::EXPERIMENTS;
use pnlab::search::{ParamKind, ParamValue};

fn pnlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .output()
        .expect("run pnlab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_lists_every_setting_with_its_default() {
    for e in EXPERIMENTS {
        for flag in ["--help", "-h"] {
            let (code, out, err) = pnlab(&["experiment", e.name, flag]);
            assert_eq!(code, 0, "{} {flag}: {err}", e.name);
            assert!(out.contains(e.summary), "{}: {out}", e.name);
            for s in e.settings {
                let default = match s.default_value() {
                    ParamValue::Choice(t) if t.is_empty() => "default empty".to_string(),
                    v => format!("default {v}"),
                };
                let line = out
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{} ", s.name)))
                    .unwrap_or_else(|| panic!("{}: no line for `{}` in\n{out}", e.name, s.name));
                assert!(
                    line.contains(&default),
                    "{}: `{line}` lacks {default}",
                    e.name
                );
                assert!(line.contains(s.help), "{}: `{line}` lacks the help", e.name);
            }
            for common in ["--jobs", "--shard", "--out", "--seed", "--set", "--quiet"] {
                assert!(out.contains(common), "{}: {common} missing", e.name);
            }
        }
    }
}

#[test]
fn an_unknown_setting_names_every_valid_one() {
    for e in EXPERIMENTS {
        let (code, _, err) = pnlab(&[
            "experiment",
            e.name,
            "--quiet",
            "--out",
            "/nonexistent/pnlab-never-written",
            "--set",
            "no_such_setting=1",
        ]);
        assert_eq!(code, 2, "{}: {err}", e.name);
        assert!(err.contains("`no_such_setting`"), "{}: {err}", e.name);
        for s in e.settings {
            assert!(err.contains(s.name), "{}: {err} lacks {}", e.name, s.name);
        }
    }
}

/// A value just outside a numeric range (or an unknown word), per kind.
fn bad_value(kind: ParamKind) -> Option<String> {
    use pnlab::search::ListItem;
    match kind {
        ParamKind::Int { min, .. } if min > i64::MIN => Some((min - 1).to_string()),
        ParamKind::Int { max, .. } => Some((max as i128 + 1).to_string()),
        ParamKind::Real { max, .. } => Some(format!("{}", max * 2.0 + 1.0)),
        ParamKind::Choice { .. } => Some("no-such-word".into()),
        ParamKind::List { item, .. } => Some(match item {
            ListItem::Real { max, .. } => format!("{},{}", max, max * 2.0 + 1.0),
            ListItem::Int { max, .. } => format!("{max},{}", max as i128 + 1),
            ListItem::Choice(_) => "no-such-word".into(),
        }),
        // Any text is accepted.
        ParamKind::Text { .. } | ParamKind::RealOrAuto { .. } => None,
    }
}

#[test]
fn a_bad_value_names_the_range() {
    let mut checked = 0;
    for e in EXPERIMENTS {
        for s in e.settings {
            let Some(v) = bad_value(s.kind) else { continue };
            let set = format!("{}={v}", s.name);
            let (code, _, err) = pnlab(&[
                "experiment",
                e.name,
                "--quiet",
                "--out",
                "/nonexistent/pnlab-never-written",
                "--set",
                &set,
            ]);
            assert_eq!(code, 2, "{} {set}: {err}", e.name);
            assert!(
                err.contains(&format!("`{}`", s.name)) && err.contains(&s.range_text()),
                "{} {set}: {err}",
                e.name
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} settings checked");
}

#[test]
fn the_brief_examples_are_rejected_with_their_ranges() {
    let (code, _, err) = pnlab(&["experiment", "eps-sweep", "--set", "positions=-3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`-3`") && err.contains("integer ≥ 1"), "{err}");
    let (code, _, err) = pnlab(&["experiment", "deep-pn-sweep", "--set", "r=0.5,1.5"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`1.5`") && err.contains("reals in [0, 1]"),
        "{err}"
    );
}

#[test]
fn the_list_points_to_the_settings_help_and_plain_help_stays_claps() {
    let (code, out, _) = pnlab(&["experiment"]);
    assert_eq!(code, 0);
    assert!(out.contains("pnlab experiment NAME --help"), "{out}");
    for e in EXPERIMENTS {
        assert!(out.contains(e.name), "{out}");
    }
    let (code, out, _) = pnlab(&["experiment", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Usage: pnlab experiment") && out.contains("--shard"),
        "{out}"
    );
    let (code, _, err) = pnlab(&["experiment", "no-such-experiment", "--help"]);
    assert_eq!(code, 2);
    assert!(err.contains("known experiments"), "{err}");
}
