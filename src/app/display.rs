//! Whether the app's window has somewhere to go. On a machine without a
//! display (a server, a container, CI) the window system's own failure is
//! a cryptic line from deep inside winit; a user there most likely wants
//! the headless subcommands, or the app under a virtual display. So the
//! desktop shell checks first and says that instead, and adds the same
//! advice when the window system refuses a window anyway.

use std::ffi::OsString;

use super::error::RunError;

/// What to do without a display: the subcommands, or a virtual display.
pub const HEADLESS_HINT: &str = "the subcommands need no display: \
`pnlab solve FILE`, `pnlab bench`, `pnlab experiment`, `pnlab lesson --check DIR` \
(`pnlab --help` lists them all); to run the app itself here, give it a \
virtual display: `xvfb-run -a pnlab [FILE]` (add `--autoplay N --screenshot OUT.png` \
to save a picture of the window and exit)";

/// Why no window can open in this environment, known before trying: on
/// Linux and the BSDs a window needs an X11 or a Wayland display, and a
/// process is told of one by `DISPLAY`, `WAYLAND_DISPLAY` or
/// `WAYLAND_SOCKET`. (macOS and Windows always have their window system.)
pub fn missing_display() -> Option<RunError> {
    if cfg!(all(
        unix,
        not(target_os = "macos"),
        not(target_os = "ios"),
        not(target_os = "android")
    )) {
        missing_display_in(|name| std::env::var_os(name))
    } else {
        None
    }
}

/// [`missing_display`] with the environment read through `var` (tests
/// pass their own).
pub fn missing_display_in(var: impl Fn(&str) -> Option<OsString>) -> Option<RunError> {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET") {
        return None;
    }
    Some(RunError::NoDisplay)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn any_display_variable_lets_the_window_try() {
        assert!(missing_display_in(env(&[("DISPLAY", ":0")])).is_none());
        assert!(missing_display_in(env(&[("WAYLAND_DISPLAY", "wayland-0")])).is_none());
        assert!(missing_display_in(env(&[("WAYLAND_SOCKET", "3")])).is_none());
    }

    #[test]
    fn no_display_says_how_to_run_headless() {
        let cases: [&'static [(&'static str, &'static str)]; 2] = [&[], &[("DISPLAY", "")]];
        for vars in cases {
            let msg = missing_display_in(env(vars))
                .expect("no display")
                .to_string();
            assert!(msg.contains("pnlab solve"), "{msg}");
            assert!(msg.contains("xvfb-run"), "{msg}");
        }
    }
}
