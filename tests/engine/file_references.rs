//! Files named inside files (a position list's `file = …`, a lesson's
//! position file) and files named on the command line are read safely:
//! a reference is joined to the naming file's folder by the standard
//! library's path rules, so it names the same file from any working
//! folder; a reference that leaves that folder, an absolute one, a device
//! and a file over the size cap are refused with a located message
//! (`--allow-absolute-paths` lets the first two through).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::pnlab_output as pnlab;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pnlab-refs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `root/t.tree` is a win for the OR player; `root/a/b/t.tree`, the file
/// a collapsed `../../t.tree` read from `root/a/b` would find, a loss.
fn two_trees(root: &Path) {
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    std::fs::write(root.join("t.tree"), "A or\n  B = win\n  C = loss\n").unwrap();
    std::fs::write(root.join("a/b/t.tree"), "A or\n  B = loss\n  C = loss\n").unwrap();
    std::fs::write(
        root.join("a/b/list.toml"),
        "[[position]]\nname = \"up two\"\ngame = \"tree\"\nfile = \"../../t.tree\"\n",
    )
    .unwrap();
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `pnlab ARGS` in `dir`, which must refuse them (exit 2) with a
/// message that holds `words`.
fn assert_refused(args: &[&str], dir: &Path, words: &str) {
    let o = pnlab(args, dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}{err}", stdout(&o));
    assert!(err.contains(words), "{args:?}: `{words}` missing in {err}");
}

#[test]
fn parent_steps_name_the_same_file_from_any_working_folder() {
    let root = scratch("two-folders");
    two_trees(&root);
    let runs = [
        (root.join("a/b"), "list.toml"),
        (root.clone(), "a/b/list.toml"),
    ];
    for (dir, file) in &runs {
        let o = pnlab(&["solve", file, "--allow-absolute-paths", "--json"], dir);
        assert!(o.status.success(), "from {}: {}", dir.display(), stderr(&o));
        // `root/t.tree`: the OR player wins (B); the decoy is a loss.
        assert!(
            stdout(&o).contains("\"outcome\":\"proved\""),
            "from {}: {}",
            dir.display(),
            stdout(&o)
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn references_outside_the_folder_are_refused_without_the_flag() {
    let root = scratch("outside");
    two_trees(&root);
    let o = pnlab(&["solve", "list.toml"], &root.join("a/b"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("list.toml:4:"),
        "not located at the `file` line: {e}"
    );
    assert!(e.contains("--allow-absolute-paths"), "{e}");
    assert!(stdout(&o).is_empty());

    std::fs::write(
        root.join("abs.toml"),
        "[[position]]\nname = \"abs\"\ngame = \"tree\"\nfile = \"/etc/hostname\"\n",
    )
    .unwrap();
    assert_refused(&["solve", "abs.toml"], &root, "absolute path");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_symbolic_link_out_of_the_folder_is_refused() {
    let root = scratch("link");
    two_trees(&root);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("t.tree"), root.join("a/b/link.tree")).unwrap();
        std::fs::write(
            root.join("a/b/linked.toml"),
            "[[position]]\nname = \"l\"\ngame = \"tree\"\nfile = \"link.tree\"\n",
        )
        .unwrap();
        assert_refused(
            &["solve", "linked.toml"],
            &root.join("a/b"),
            "leads outside",
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn devices_are_refused_not_read() {
    let here = std::env::temp_dir();
    for args in [
        &["verify", "/dev/zero"][..],
        &["solve", "/dev/zero"][..],
        &["lesson", "--check", "/dev/zero"][..],
    ] {
        assert_refused(args, &here, "not a regular file");
    }
    // A list naming a device, with the flag that lets absolute paths in.
    let root = scratch("device");
    std::fs::write(
        root.join("dev.toml"),
        "[[position]]\nname = \"zero\"\ngame = \"tree\"\nfile = \"/dev/zero\"\n",
    )
    .unwrap();
    let args = ["solve", "dev.toml", "--allow-absolute-paths"];
    assert_refused(&args, &root, "not a regular file");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_file_over_the_cap_is_refused() {
    let root = scratch("big");
    let f = std::fs::File::create(root.join("big.tree")).unwrap();
    // Sparse: no disk is used for the 65 MiB of zeros.
    f.set_len(65 << 20).unwrap();
    assert_refused(&["solve", "big.tree"], &root, "longer than 64 MiB");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_lesson_reads_its_positions_beside_it_from_any_folder() {
    let root = scratch("lesson");
    std::fs::create_dir_all(root.join("course/lessons")).unwrap();
    std::fs::create_dir_all(root.join("course/positions")).unwrap();
    std::fs::write(
        root.join("course/positions/t.tree"),
        "A or\n  B = win\n  C = loss\n",
    )
    .unwrap();
    let lesson = "[lesson]\ntitle = \"refs\"\n\n[[step]]\ncaption = \"A tree.\"\nposition = { file = \"../positions/t.tree\" }\n";
    std::fs::write(root.join("course/lessons/a.lesson.toml"), lesson).unwrap();
    for (dir, file) in [
        (root.join("course/lessons"), "a.lesson.toml"),
        (root.clone(), "course/lessons/a.lesson.toml"),
    ] {
        let o = pnlab(&["lesson", "--check", file], &dir);
        assert!(o.status.success(), "from {}: {}", dir.display(), stderr(&o));
    }
    // Elsewhere than `positions/` beside it: refused, at the `file` key.
    let bad = lesson.replace("../positions/t.tree", "../../course/positions/t.tree");
    std::fs::write(root.join("course/lessons/b.lesson.toml"), bad).unwrap();
    let args = ["lesson", "--check", "b.lesson.toml"];
    assert_refused(&args, &root.join("course/lessons"), "b.lesson.toml:6:");
    let _ = std::fs::remove_dir_all(&root);
}
