//! The `pnlab` Python module (`pnlab._pnlab`, re-exported by
//! `python/pnlab/__init__.py`): the engine's games, algorithms, solve
//! flow, stepping, certificates and experiments, for notebooks.
//!
//! Every call goes through the engine functions the CLI uses
//! (`pnlab::solve`, `pnlab::experiments::run_experiment`, the registry),
//! so a dict here has the fields and values of the CLI's `--json` line or
//! CSV row. Positions are notation, files, [`position::Position`]s, or
//! games written in Python ([`pygame`]), which the engine searches as an
//! external game. Long calls release the interpreter and look for Ctrl-C
//! between steps ([`interrupt`]); bad input raises `pnlab.InputError`, a
//! `ValueError` carrying the CLI's located message.

mod convert;
mod describe;
mod errors;
mod experiment;
mod interrupt;
mod position;
mod pygame;
mod search;
mod snapshot;
mod solve;
mod tools;

use pyo3::prelude::*;

#[pymodule]
fn _pnlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InputError", m.py().get_type::<errors::InputError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<search::Search>()?;
    m.add_class::<position::Position>()?;
    m.add("DEFAULT_ALGO", pnlab::search::DEFAULT_ALGO)?;
    m.add_function(wrap_pyfunction!(search::_restore_search, m)?)?;
    m.add_function(wrap_pyfunction!(describe::games, m)?)?;
    m.add_function(wrap_pyfunction!(describe::algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(describe::experiments, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(tools::perft, m)?)?;
    m.add_function(wrap_pyfunction!(tools::verify, m)?)?;
    m.add_function(wrap_pyfunction!(tools::verify_file, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_experiment, m)?)?;
    Ok(())
}
