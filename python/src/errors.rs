//! The exceptions the module raises.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;

use pnlab::solve::SolveError;

create_exception!(
    pnlab,
    InputError,
    PyValueError,
    "Bad input (a position, a file, a parameter, a setting): the message is the command line's, located as FILE:LINE:COL where the input has a place."
);

/// A solve error as a Python exception: bad input is an [`InputError`]
/// (a `ValueError`), a certificate that cannot be written an `OSError`.
pub fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Proof(m) => PyOSError::new_err(m),
        SolveError::Request(m) | SolveError::Input(m) => InputError::new_err(m),
    }
}

/// Any other message of bad input.
pub fn input_error(msg: impl std::fmt::Display) -> PyErr {
    InputError::new_err(msg.to_string())
}
