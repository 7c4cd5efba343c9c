//! The page's address as launch options: a teacher sends one link per
//! exercise, e.g. `…/?open=trees/seesaw.tree&algo=pns&autoplay=12`.
//!
//! The query carries the same options as the desktop's command line
//! (`pnlab FILE --entry K --algo A --set NAME=VALUE --autoplay N`):
//!
//! | key        | meaning                                                 |
//! |------------|---------------------------------------------------------|
//! | `open`     | a bundled position file, relative to `positions/`       |
//! | `entry`    | which of its positions, 1-based (default the first)     |
//! | `algo`     | the algorithm's registry name                           |
//! | `set`      | `NAME=VALUE`, one parameter; repeat the key for more    |
//! | `autoplay` | iterations to run once the page has loaded              |
//! | `lesson`   | a bundled lesson, relative to `lessons/` (the `.lesson.toml` may be left out) |
//! | `step`     | with `lesson`, the step to open on, 1-based (default the first) |
//! | `join`     | a live class's join code: this device joins it as a student |
//! | `teach`    | a bundled lesson: this page starts a live class on it (the teacher's projector) |
//!
//! A lesson opens the way `pnlab FILE.lesson.toml` opens it on the
//! desktop: in the lesson player, on its first step or on `step` (position,
//! algorithm, parameters, iteration). Each step runs its search to its own
//! iteration and never further (its question is about that tree), so with
//! a lesson `autoplay` only waits for the step to be ready; `open`,
//! `entry`, `algo` and `set` would contradict the lesson and are refused.
//!
//! `join` and `teach` need the page to come from `pnlab serve` (the room
//! lives on the server that served it) and stand alone in the address.
//!
//! Parsing is plain code (tested on the desktop); the web shell reads
//! `location.search`, resolves it with [`UrlLaunch::resolve`] and hands
//! the result to [`super::configure`]. A bad address is a located,
//! user-facing error, shown in the page's status line; the page still
//! opens on its default position.

use std::path::PathBuf;

use crate::lesson::{self, bundled::LESSONS, Lesson};

use super::LaunchOptions;

/// The keys the page understands, in the order the docs list them.
pub const KEYS: [&str; 9] = [
    "open", "entry", "algo", "set", "autoplay", "lesson", "step", "join", "teach",
];

/// What the page's address asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlLaunch {
    /// The bundled file to open, relative to `positions/`.
    pub open: Option<String>,
    /// Which of its positions (1-based).
    pub entry: Option<usize>,
    /// The algorithm.
    pub algo: Option<String>,
    /// Parameters `NAME=VALUE`, in the address's order.
    pub set: Vec<(String, String)>,
    /// Iterations to run after loading.
    pub autoplay: Option<u64>,
    /// The bundled lesson to open, relative to `lessons/`.
    pub lesson: Option<String>,
    /// The lesson's step to open on (1-based).
    pub step: Option<usize>,
    /// A live class to join as a student (its code).
    pub join: Option<String>,
    /// A bundled lesson to start a live class on, relative to `lessons/`.
    pub teach: Option<String>,
}

impl UrlLaunch {
    /// True when the address asks for nothing (the plain page).
    pub fn is_empty(&self) -> bool {
        *self == UrlLaunch::default()
    }

    /// The bundled file's name as the engine knows it
    /// (`positions/trees/seesaw.tree`).
    pub fn bundled_path(&self) -> Option<String> {
        self.open.as_deref().map(|p| format!("positions/{p}"))
    }

    /// The bundled lesson's name as the engine knows it
    /// (`lessons/02-pns-step-by-step.lesson.toml`); the extension is
    /// added when the address leaves it out.
    pub fn lesson_path(&self) -> Option<String> {
        self.lesson.as_deref().map(bundled_lesson)
    }

    /// The lesson a live class is started on, as the server names it
    /// (`lessons/03-most-proving.lesson.toml`).
    pub fn teach_path(&self) -> Option<String> {
        self.teach.as_deref().map(bundled_lesson)
    }

    /// What the page opens: the launch options, and the lesson when the
    /// address names one (read from the embedded files, its first step's
    /// setting in the options). The error is the user-facing sentence: an
    /// unknown lesson lists the bundled ones; a broken one is located.
    pub fn resolve(&self) -> Result<(LaunchOptions, Option<Lesson>), ResolveError> {
        let Some(path) = self.lesson_path() else {
            return Ok((self.launch_options(), None));
        };
        let Some(file) = LESSONS.iter().find(|f| f.path == path) else {
            let names: Vec<&str> = LESSONS
                .iter()
                .map(|f| f.path.trim_start_matches("lessons/"))
                .collect();
            return Err(ResolveError::UnknownLesson {
                lesson: self.lesson.clone().unwrap_or_default(),
                bundled: names.join(", "),
            });
        };
        let l = Lesson::load_text(file.path, file.text, &lesson::Bundled)
            .map_err(|e| ResolveError::Lesson(Box::new(e)))?;
        if let Some(k) = self.step.filter(|&k| k > l.len()) {
            return Err(ResolveError::NoSuchStep {
                step: k,
                lesson: l.title.clone(),
                steps: l.len(),
            });
        }
        let setting = l.setting(self.step.map_or(0, |k| k - 1));
        // The lesson player (→ / Space, ←) takes over from the first
        // step's setting, as it does for `pnlab FILE.lesson.toml`.
        let opts = LaunchOptions {
            position: Some((*setting.position.value).clone()),
            algo: Some(setting.algo.clone()),
            set: setting.params.clone(),
            autoplay: self.autoplay,
            lesson: Some(l.clone()),
            step: self.step,
            ..LaunchOptions::default()
        };
        Ok((opts, Some(l)))
    }

    /// The desktop's launch options for the same request (`open` names
    /// the embedded file; the page loads it from the binary).
    pub fn launch_options(&self) -> LaunchOptions {
        LaunchOptions {
            open: self.bundled_path().map(PathBuf::from),
            entry: self.entry,
            algo: self.algo.clone(),
            set: self.set.clone(),
            autoplay: self.autoplay,
            ..LaunchOptions::default()
        }
    }
}

/// Why an address was not understood: the parameter (its position in the
/// query, 1-based) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("page address, parameter {index} (`{text}`): {expected}")]
pub struct UrlError {
    /// 1-based position of the `key=value` pair in the query.
    pub index: usize,
    /// The pair as written (decoded).
    pub text: String,
    /// What was expected instead.
    pub expected: String,
}

/// Why an address that parsed names nothing the page can open.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ResolveError {
    /// `lesson=` names no bundled lesson.
    #[error("page address: lesson={lesson}: no bundled lesson of that name; the bundled lessons are {bundled}")]
    UnknownLesson {
        /// The name given.
        lesson: String,
        /// The bundled lessons' names.
        bundled: String,
    },
    /// A bundled lesson that does not load (located in its file).
    #[error(transparent)]
    Lesson(Box<lesson::LessonError>),
    /// `step=` past the lesson's last step.
    #[error("page address: step={step}: `{lesson}` has steps 1 to {steps}")]
    NoSuchStep {
        /// The step given.
        step: usize,
        /// The lesson's title.
        lesson: String,
        /// How many steps it has.
        steps: usize,
    },
}

/// Reads a query string (`location.search`, with or without its `?`).
pub fn parse(query: &str) -> Result<UrlLaunch, UrlError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut out = UrlLaunch::default();
    let pairs = query.split('&').filter(|p| !p.is_empty());
    for (i, raw) in pairs.enumerate() {
        let (key, value) = match raw.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(raw), String::new()),
        };
        let fail = |expected: String| UrlError {
            index: i + 1,
            text: if value.is_empty() {
                key.clone()
            } else {
                format!("{key}={value}")
            },
            expected,
        };
        if value.is_empty() {
            return Err(fail(format!("a value after `{key}=`")));
        }
        match key.as_str() {
            "open" => {
                out.open = Some(relative_path(&value).ok_or_else(|| fail(BUNDLED_PATH.into()))?)
            }
            "lesson" => {
                out.lesson = Some(relative_path(&value).ok_or_else(|| fail(BUNDLED_PATH.into()))?)
            }
            "algo" => out.algo = Some(value.clone()),
            "teach" => {
                out.teach = Some(relative_path(&value).ok_or_else(|| fail(BUNDLED_PATH.into()))?)
            }
            "join" => {
                let code = value.trim().to_ascii_uppercase();
                let ok = (4..=12).contains(&code.len())
                    && code.chars().all(|c| c.is_ascii_alphanumeric());
                if !ok {
                    return Err(fail("a join code: 4 to 12 letters and digits".into()));
                }
                out.join = Some(code);
            }
            "entry" => match value.parse::<usize>() {
                Ok(k) if k >= 1 => out.entry = Some(k),
                _ => return Err(fail("a position number 1, 2, …".into())),
            },
            "step" => match value.parse::<usize>() {
                Ok(k) if k >= 1 => out.step = Some(k),
                _ => return Err(fail("a step number 1, 2, …".into())),
            },
            "autoplay" => match value.parse::<u64>() {
                Ok(n) => out.autoplay = Some(n),
                Err(_) => return Err(fail("a number of iterations 0, 1, 2, …".into())),
            },
            "set" => match value.split_once('=') {
                Some((name, v)) if !name.trim().is_empty() => out
                    .set
                    .push((name.trim().to_string(), v.trim().to_string())),
                _ => return Err(fail("set=NAME=VALUE, e.g. set=tie=leftmost".into())),
            },
            _ => {
                return Err(fail(format!(
                    "one of the keys {} (an unknown key is not ignored, so a typo in a link \
                     does not go unnoticed)",
                    KEYS.join(", ")
                )))
            }
        }
    }
    if out.lesson.is_some() {
        let clash = [
            ("open", out.open.is_some()),
            ("entry", out.entry.is_some()),
            ("algo", out.algo.is_some()),
            ("set", !out.set.is_empty()),
        ];
        if let Some((key, _)) = clash.iter().find(|(_, given)| *given) {
            return Err(UrlError {
                index: 0,
                text: (*key).into(),
                expected: format!(
                    "lesson=… alone (with step=K and autoplay=N at most): a lesson sets its own \
                     position, algorithm and parameters, so `{key}` would contradict it"
                ),
            });
        }
    }
    let live = [("join", out.join.is_some()), ("teach", out.teach.is_some())];
    if let Some((key, _)) = live.iter().find(|(_, given)| *given) {
        let alone = UrlLaunch {
            join: None,
            teach: None,
            ..out.clone()
        };
        if !alone.is_empty() || (out.join.is_some() && out.teach.is_some()) {
            return Err(UrlError {
                index: 0,
                text: (*key).into(),
                expected: format!(
                    "{key}=… alone: a live class's step, position and algorithm come from its \
                     lesson"
                ),
            });
        }
    }
    if out.step.is_some() && out.lesson.is_none() {
        return Err(UrlError {
            index: 0,
            text: "step".into(),
            expected: "lesson=NAME as well: step chooses a step of that lesson".into(),
        });
    }
    if out.entry.is_some() && out.open.is_none() {
        return Err(UrlError {
            index: 0,
            text: "entry".into(),
            expected: "open=FILE as well: entry chooses a position of that file".into(),
        });
    }
    Ok(out)
}

/// What `open=`, `lesson=` and `teach=` take.
const BUNDLED_PATH: &str = "a path inside the bundled folder, like trees/seesaw.tree";

/// A path inside the bundled folders: relative, `/`-separated, no `..`.
fn relative_path(value: &str) -> Option<String> {
    let ok = !value.starts_with('/')
        && !value.contains('\\')
        && value
            .split('/')
            .all(|part| !part.is_empty() && part != "..");
    ok.then(|| value.trim_start_matches("./").to_string())
}

/// Decodes `%XX` escapes and `+` (a space in form-encoded queries);
/// malformed escapes stay as written. Invalid UTF-8 is replaced.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A query string for `launch` (the inverse of [`parse`]): the README's
/// and the tests' links are made with it.
pub fn encode(launch: &UrlLaunch) -> String {
    let mut parts = Vec::new();
    let mut push = |k: &str, v: &str| parts.push(format!("{k}={}", encode_component(v)));
    if let Some(v) = &launch.open {
        push("open", v);
    }
    if let Some(k) = launch.entry {
        push("entry", &k.to_string());
    }
    if let Some(v) = &launch.algo {
        push("algo", v);
    }
    for (n, v) in &launch.set {
        push("set", &format!("{n}={v}"));
    }
    if let Some(n) = launch.autoplay {
        push("autoplay", &n.to_string());
    }
    if let Some(v) = &launch.lesson {
        push("lesson", v);
    }
    if let Some(k) = launch.step {
        push("step", &k.to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Escapes what a query value cannot hold as is (`/` and `=` may stay:
/// they mean nothing inside a value).
fn encode_component(v: &str) -> String {
    let mut out = String::new();
    for b in v.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' | b'=' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A bundled lesson's name as the engine knows it: under `lessons/`,
/// with the extension added when the address leaves it out.
fn bundled_lesson(l: &str) -> String {
    if l.ends_with(lesson::EXTENSION) {
        format!("lessons/{l}")
    } else {
        format!("lessons/{l}{}", lesson::EXTENSION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example_reads_as_the_command_line_would() {
        let l = parse("?open=trees/seesaw.tree&algo=pns&autoplay=12").unwrap();
        assert_eq!(l.open.as_deref(), Some("trees/seesaw.tree"));
        assert_eq!(l.algo.as_deref(), Some("pns"));
        assert_eq!(l.autoplay, Some(12));
        let o = l.launch_options();
        assert_eq!(o.open, Some(PathBuf::from("positions/trees/seesaw.tree")));
        assert_eq!(o.autoplay, Some(12));
        assert_eq!(o.entry, None);
        assert!(parse("").unwrap().is_empty());
        assert!(parse("?").unwrap().is_empty());
    }

    #[test]
    fn every_key_reads_and_set_repeats_in_order() {
        let l = parse(
            "open=xiangqi%2Fmate-puzzles.toml&entry=3&algo=dfpn&set=tie%3Dleftmost\
             &set=eps=0.5&autoplay=0",
        )
        .unwrap();
        assert_eq!(l.open.as_deref(), Some("xiangqi/mate-puzzles.toml"));
        assert_eq!(l.entry, Some(3));
        assert_eq!(
            l.set,
            vec![
                ("tie".to_string(), "leftmost".to_string()),
                ("eps".to_string(), "0.5".to_string())
            ]
        );
        assert_eq!(l.autoplay, Some(0));
        // encode is parse's inverse.
        assert_eq!(parse(&encode(&l)).unwrap(), l);
        let l = parse("lesson=02-pns.lesson.toml&autoplay=3").unwrap();
        assert_eq!(l.lesson.as_deref(), Some("02-pns.lesson.toml"));
        assert_eq!(parse(&encode(&l)).unwrap(), l);
    }

    #[test]
    fn a_lesson_stands_alone_apart_from_autoplay() {
        for clash in ["open=trees/seesaw.tree", "algo=dfpn", "set=tie=leftmost"] {
            let e = parse(&format!("?lesson=02-pns-step-by-step&{clash}")).unwrap_err();
            let key = clash.split('=').next().unwrap();
            assert_eq!(e.text, key, "{e}");
            assert!(e.expected.contains("would contradict it"), "{e}");
        }
    }

    /// Every bundled lesson opens from a link, with or without its
    /// extension, on its first step's setting as the lesson reader
    /// computes it (position, algorithm, parameters), and the autoplay
    /// count passes through.
    #[test]
    fn every_bundled_lesson_opens_on_its_first_step() {
        assert!(LESSONS.len() >= 10);
        for file in LESSONS {
            let name = file.path.trim_start_matches("lessons/");
            let short = name.trim_end_matches(lesson::EXTENSION);
            for value in [name, short] {
                let url = parse(&format!("?lesson={value}&autoplay=5")).unwrap();
                let (opts, l) = url.resolve().unwrap_or_else(|e| panic!("{value}: {e}"));
                let l = l.expect("a lesson");
                let want = Lesson::load_text(file.path, file.text, &lesson::Bundled)
                    .unwrap()
                    .setting(0);
                let pos = opts.position.expect("the first step's position");
                assert_eq!(&pos, &*want.position.value, "{value}");
                assert_eq!(opts.algo.as_deref(), Some(want.algo.as_str()), "{value}");
                assert_eq!(opts.set, want.params, "{value}");
                assert_eq!(opts.autoplay, Some(5));
                assert_eq!(opts.open, None);
                assert_eq!(l.file, file.path);
            }
        }
    }

    /// `step=K` opens the lesson on step K (its setting), only with a
    /// lesson and only a step it has.
    #[test]
    fn a_lesson_link_opens_on_its_step() {
        let url = parse("?lesson=03-seesaw-and-deep-pn&step=2&autoplay=20").unwrap();
        assert_eq!(url.step, Some(2));
        let (opts, l) = url.resolve().unwrap();
        assert_eq!(opts.step, Some(2));
        let want = l.expect("a lesson").setting(1);
        assert_eq!(opts.position.as_ref(), Some(&*want.position.value));
        assert!(encode(&url).contains("step=2"));
        let e = parse("?open=trees/seesaw.tree&step=2").unwrap_err();
        assert_eq!(e.text, "step");
        let e = parse("?lesson=03-seesaw-and-deep-pn&step=0").unwrap_err();
        assert!(e.expected.contains("step number"), "{e}");
        let e = parse("?lesson=03-seesaw-and-deep-pn&step=99")
            .unwrap()
            .resolve()
            .unwrap_err();
        assert!(
            matches!(e, ResolveError::NoSuchStep { step: 99, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("step=99: `"), "{e}");
    }

    #[test]
    fn an_unknown_lesson_lists_the_bundled_ones() {
        let e = parse("?lesson=99-nothing").unwrap().resolve().unwrap_err();
        let ResolveError::UnknownLesson { lesson, bundled } = &e else {
            panic!("{e}")
        };
        assert_eq!(lesson, "99-nothing");
        assert!(bundled.contains("02-pns-step-by-step.lesson.toml"), "{e}");
        assert!(e.to_string().contains("lesson=99-nothing"), "{e}");
        // Plain positions resolve without a lesson.
        let (opts, l) = parse("?open=trees/seesaw.tree").unwrap().resolve().unwrap();
        assert!(l.is_none());
        assert_eq!(
            opts.open,
            Some(PathBuf::from("positions/trees/seesaw.tree"))
        );
    }

    #[test]
    fn bad_addresses_name_the_parameter_and_what_was_expected() {
        let e = parse("?open=trees/seesaw.tree&autoplay=lots").unwrap_err();
        assert_eq!(e.index, 2);
        assert_eq!(e.text, "autoplay=lots");
        assert!(e.expected.contains("number of iterations"), "{e}");
        let e = parse("?algo=pns&autplay=12").unwrap_err();
        assert_eq!((e.index, e.text.as_str()), (2, "autplay=12"));
        assert!(e.to_string().contains("one of the keys open, entry"), "{e}");
        let e = parse("?open=../secret").unwrap_err();
        assert!(e.expected.contains("bundled folder"), "{e}");
        let e = parse("?open=/etc/passwd").unwrap_err();
        assert_eq!(e.index, 1);
        assert!(parse("?open=trees/seesaw.tree&entry=0").is_err());
        assert!(parse("?set=novalue").is_err());
        assert!(parse("?set==1").is_err());
        assert!(parse("?algo=").is_err());
        assert!(parse("?algo").is_err());
        let e = parse("?entry=2").unwrap_err();
        assert!(e.expected.contains("open=FILE"), "{e}");
    }

    #[test]
    fn decoding_handles_escapes_plus_and_broken_escapes() {
        assert_eq!(decode("a%20b+c"), "a b c");
        assert_eq!(decode("%E2%86%90"), "←");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(encode_component("a b&c"), "a%20b%26c");
    }
}

#[cfg(test)]
mod live_keys {
    use super::*;

    #[test]
    fn join_and_teach_stand_alone() {
        assert_eq!(
            parse("?join=k7p2qx").unwrap().join.as_deref(),
            Some("K7P2QX")
        );
        let t = parse("?teach=03-most-proving").unwrap();
        assert_eq!(
            t.teach_path().as_deref(),
            Some("lessons/03-most-proving.lesson.toml")
        );
        assert!(parse("?join=K7P2QX&algo=pns")
            .unwrap_err()
            .expected
            .contains("alone"));
        assert!(parse("?join=K7&teach=x").is_err());
        assert!(parse("?join=no-code!")
            .unwrap_err()
            .expected
            .contains("join code"));
        assert!(parse("?teach=../x").is_err());
    }
}
