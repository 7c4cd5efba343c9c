//! `pnlab.perft` and `pnlab.verify`: the move-generator check and the
//! certificate checker of `pnlab perft` and `pnlab verify`.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use pnlab::certificate::{verify as check, Certificate, Verdict};
use pnlab::game::notation::FileError;
use pnlab::game::{perft as count, AnyPosition, GameKind};
use pnlab::with_position;

use crate::convert::path_or_text;
use crate::errors::input_error;
use crate::interrupt::run_interruptible;

/// The number of move sequences of exactly `depth` plies from `position`
/// (inline notation of `game`); passes count as moves, a game that ends
/// earlier counts nothing. Ctrl-C stops it between first moves.
#[pyfunction]
pub fn perft(py: Python<'_>, game: &str, position: &str, depth: u32) -> PyResult<u64> {
    let kind: GameKind = game.parse().map_err(|e| input_error(format!("{e}")))?;
    let pos = AnyPosition::parse(kind, position)
        .map_err(|e| input_error(format!("<inline>:{e}")))?
        .for_perft();
    if depth == 0 {
        return Ok(1);
    }
    let cancel = AtomicBool::new(false);
    let total = run_interruptible(
        py,
        &cancel,
        || -> Result<u64, pnlab::game::MoveError> {
            let mut n = 0;
            for mv in pos.legal_move_names() {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let child = pos.after_move(&mv)?;
                n += with_position!(&child, g => count::perft_parallel(g, depth - 1));
            }
            Ok(n)
        },
        |_| Ok(()),
    )?;
    total.map_err(input_error)
}

/// Checks a proof certificate (the text `Search.proof()` returns or
/// `pnlab solve --proof` writes) with the game rules alone. Returns
/// `{"valid": True, "answer": …, "positions": N}` or `{"valid": False,
/// "path": [moves to the first bad node], "reason": …}`; text that is not
/// a certificate raises `InputError` located in it.
#[pyfunction]
#[pyo3(signature = (text, name="<text>"))]
pub fn verify<'py>(py: Python<'py>, text: &str, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let located = |error| {
        input_error(
            FileError {
                file: name.to_string(),
                error,
            }
            .to_string(),
        )
    };
    let verdict = py.detach(|| Certificate::parse(text).and_then(|c| check(&c)));
    let verdict = verdict.map_err(located)?;
    let d = PyDict::new(py);
    match verdict {
        Verdict::Valid { answer, positions } => {
            d.set_item("valid", true)?;
            d.set_item("answer", answer)?;
            d.set_item("positions", positions)?;
        }
        Verdict::Invalid { path, reason } => {
            d.set_item("valid", false)?;
            d.set_item("path", path)?;
            d.set_item("reason", reason.to_string())?;
        }
    }
    Ok(d)
}

/// [`verify`] of a certificate file.
#[pyfunction]
pub fn verify_file<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let name = path_or_text(path)?;
    let text = pnlab::files::read_text(std::path::Path::new(&name))
        .map_err(|e| input_error(format!("{name}:1:1: cannot read: {}", e.source)))?;
    verify(py, &text, &name)
}
