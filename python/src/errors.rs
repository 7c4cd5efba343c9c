//! The exceptions the module raises, and the engine's messages in
//! Python's words.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

use pnlab::solve::SolveError;

create_exception!(
    pnlab,
    InputError,
    PyValueError,
    "Bad input (a position, a file, a parameter, a setting): the command line's message in Python's words (keyword arguments instead of flags), located as FILE:LINE:COL where the input has a place."
);

/// A solve error as a Python exception: bad input is an [`InputError`]
/// (a `ValueError`), a certificate that cannot be written an `OSError`.
pub fn solve_error(e: SolveError) -> PyErr {
    let words = python_words(&e.to_string());
    match e {
        SolveError::Proof(_) => PyOSError::new_err(words),
        SolveError::Request(_) | SolveError::Input(_) => InputError::new_err(words),
    }
}

/// Any other message of bad input.
pub fn input_error(msg: impl std::fmt::Display) -> PyErr {
    InputError::new_err(msg.to_string())
}

/// A message of the shared solve flow with its command-line flags said as
/// the keyword arguments they are in Python: `--algo pns: …` becomes
/// `algo="pns": …`, `--time-limit -1: …` becomes `time_limit=-1: …`,
/// a bare `--game` becomes `game=`, and `--set` (the parameters) becomes
/// "keyword arguments". Text that is not a flag stays as it is.
pub fn python_words(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("--") {
        let (before, flag_on) = rest.split_at(at);
        out.push_str(before);
        let name_len = flag_on[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag_on.len() - 2);
        let name = &flag_on[2..2 + name_len];
        let boundary_ok = before
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == '(' || c == '`');
        if name.is_empty() || !boundary_ok {
            out.push_str("--");
            rest = &flag_on[2..];
            continue;
        }
        let after = &flag_on[2 + name_len..];
        let keyword = name.replace('-', "_");
        if name == "set" {
            out.push_str("keyword arguments");
            rest = after;
            continue;
        }
        // `--flag VALUE:` (the value given) becomes `flag=VALUE:`.
        let value = after
            .strip_prefix(' ')
            .and_then(|v| v.find(':').map(|end| &v[..end]))
            .filter(|v| !v.is_empty() && !v.contains(' '));
        match value {
            Some(v) => {
                let shown = if v.parse::<f64>().is_ok() {
                    v.to_string()
                } else {
                    format!("{v:?}")
                };
                out.push_str(&format!("{keyword}={shown}"));
                rest = &after[1 + v.len()..];
            }
            None if after.starts_with(':') => {
                out.push_str(&keyword);
                rest = after;
            }
            None => {
                out.push_str(&format!("{keyword}="));
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
