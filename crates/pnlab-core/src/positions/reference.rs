//! References from one file to another: a TOML position file's
//! `file = "…"`, a lesson's `position = { file = "…" }`.
//!
//! A reference is joined to the folder of the file that makes it by the
//! standard library's path rules ([`Path::join`]), never by collapsing
//! `..` in the text, so it names the same file from any working folder.
//! Files come from others (a downloaded lesson, a shared list), so a
//! reference must stay inside the referring file's folder tree: an
//! absolute path, or one whose `..` climbs out of that folder (also
//! through a symbolic link), is refused with a message saying so, unless
//! the user allows it for the run ([`allow_outside`], the command line's
//! `--allow-absolute-paths`). A lesson may also reach the `positions/`
//! folder beside its own folder (`../positions/…`), the layout of the
//! bundled course. What is then read is read with a size cap and only
//! from a regular file ([`crate::files::read_text`]).

use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether references may leave the referring file's folder tree.
static ALLOW_OUTSIDE: AtomicBool = AtomicBool::new(false);

/// Allows (or forbids again) references by absolute path or outside the
/// referring file's folder tree, for the rest of the run: the user's
/// choice on the command line (`--allow-absolute-paths`).
pub fn allow_outside(allow: bool) {
    ALLOW_OUTSIDE.store(allow, Ordering::Relaxed);
}

/// Whether [`allow_outside`] is on.
pub fn outside_allowed() -> bool {
    ALLOW_OUTSIDE.load(Ordering::Relaxed)
}

/// Where a reference may lead, besides the referring file's own folder
/// tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The referring file's folder tree only (position files).
    OwnFolder,
    /// Also the `positions/` folder beside it (lessons).
    OwnFolderAndPositions,
}

/// Why a file named inside another is not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefusedPath {
    /// The name is blank.
    #[error("the file name is empty")]
    Empty,
    /// An absolute path, without `--allow-absolute-paths`.
    #[error("`{0}` is an absolute path; a file is named relative to the folder of the file naming it (pass --allow-absolute-paths to allow absolute paths and paths outside that folder)")]
    Absolute(String),
    /// A path that climbs out of the naming file's folder.
    #[error("`{rel}` leads outside the folder of `{file}` (pass --allow-absolute-paths to allow paths outside it)")]
    Outside {
        /// The path as written.
        rel: String,
        /// The file that names it.
        file: String,
    },
}

/// `rel` as named by the file `file_name`: the path to read (joined to
/// the file's folder, `..` kept for the operating system to follow), or
/// the reason it is refused.
pub fn resolve(file_name: &str, rel: &str, reach: Reach) -> Result<String, RefusedPath> {
    let base = Path::new(file_name).parent().unwrap_or(Path::new(""));
    if rel.trim().is_empty() {
        return Err(RefusedPath::Empty);
    }
    let relp = Path::new(rel);
    let allowed = outside_allowed();
    if relp.is_absolute() || relp.has_root() {
        if allowed {
            return Ok(rel.to_string());
        }
        return Err(RefusedPath::Absolute(rel.to_string()));
    }
    let joined = base.join(relp);
    if allowed {
        return Ok(joined.to_string_lossy().into_owned());
    }
    let inside = match climbs(relp) {
        Climb::Inside => true,
        Climb::IntoPositions => reach == Reach::OwnFolderAndPositions,
        Climb::Outside => false,
    };
    if !inside || !stays_inside_on_disk(base, &joined, reach) {
        return Err(RefusedPath::Outside {
            rel: rel.to_string(),
            file: file_name.to_string(),
        });
    }
    Ok(joined.to_string_lossy().into_owned())
}

/// Where a relative path leads, read component by component.
#[derive(Debug, PartialEq, Eq)]
enum Climb {
    /// It never leaves its starting folder.
    Inside,
    /// It leaves it once, into a sibling folder called `positions`, and
    /// stays there.
    IntoPositions,
    /// Anywhere else.
    Outside,
}

fn climbs(rel: &Path) -> Climb {
    let parts: Vec<Component> = rel.components().collect();
    let mut depth: i64 = 0;
    let mut low: i64 = 0;
    for c in &parts {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Climb::Outside,
        }
        low = low.min(depth);
    }
    if low == 0 {
        return Climb::Inside;
    }
    // `../positions/…` with no `..` after it.
    let rest: Vec<&Component> = parts
        .iter()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    let into_positions = rest.len() >= 3
        && matches!(rest[0], Component::ParentDir)
        && matches!(rest[1], Component::Normal(n) if *n == "positions")
        && rest[2..].iter().all(|c| matches!(c, Component::Normal(_)));
    if into_positions {
        Climb::IntoPositions
    } else {
        Climb::Outside
    }
}

/// Whether `joined`, where it exists, lies inside `base` (or, for a
/// lesson, inside `base/../positions`) once symbolic links are followed.
/// A path that does not exist yet stays as the lexical check left it: it
/// reads nothing.
fn stays_inside_on_disk(base: &Path, joined: &Path, reach: Reach) -> bool {
    let Ok(target) = joined.canonicalize() else {
        return true;
    };
    let base = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base
    };
    let mut roots: Vec<PathBuf> = base.canonicalize().into_iter().collect();
    if reach == Reach::OwnFolderAndPositions {
        roots.extend(base.join("../positions").canonicalize());
    }
    roots.iter().any(|r| target.starts_with(r))
}

/// `path` with `x/..` pairs and `.` removed lexically, for looking it up
/// among the embedded files (whose names have neither); a leading `..`
/// is kept.
pub fn bundled_name(path: &str) -> String {
    let mut out: Vec<Component> = Vec::new();
    for c in Path::new(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.iter()
        .collect::<PathBuf>()
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_joined_not_collapsed() {
        assert_eq!(
            resolve("positions/trees.toml", "trees/a.tree", Reach::OwnFolder).unwrap(),
            "positions/trees/a.tree"
        );
        assert_eq!(
            resolve("a/b/c.toml", "d/../e.tree", Reach::OwnFolder).unwrap(),
            "a/b/d/../e.tree"
        );
        assert_eq!(
            resolve(
                "lessons/x.lesson.toml",
                "../positions/t.tree",
                Reach::OwnFolderAndPositions
            )
            .unwrap(),
            "lessons/../positions/t.tree"
        );
    }

    #[test]
    fn references_that_leave_the_folder_are_refused() {
        for (file, rel, reach) in [
            ("list.toml", "../../t.tree", Reach::OwnFolder),
            ("a/list.toml", "../t.tree", Reach::OwnFolder),
            ("a/list.toml", "b/../../t.tree", Reach::OwnFolder),
            (
                "a/x.lesson.toml",
                "../positions/../t.tree",
                Reach::OwnFolderAndPositions,
            ),
            (
                "a/x.lesson.toml",
                "../other/t.tree",
                Reach::OwnFolderAndPositions,
            ),
            ("a/list.toml", "../positions/t.tree", Reach::OwnFolder),
            ("list.toml", "/etc/passwd", Reach::OwnFolder),
        ] {
            let e = resolve(file, rel, reach).unwrap_err();
            let absolute = rel.starts_with('/');
            assert!(
                matches!(
                    (&e, absolute),
                    (RefusedPath::Absolute(_), true) | (RefusedPath::Outside { .. }, false)
                ),
                "{file} {rel}: {e}"
            );
            assert!(
                e.to_string().contains("--allow-absolute-paths"),
                "{file} {rel}: {e}"
            );
        }
    }

    #[test]
    fn bundled_names_drop_inner_parent_steps_only() {
        assert_eq!(
            bundled_name("lessons/../positions/t.tree"),
            "positions/t.tree"
        );
        assert_eq!(bundled_name("../../t.tree"), "../../t.tree");
        assert_eq!(bundled_name("./a/./b"), "a/b");
    }
}
