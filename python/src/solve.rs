//! `pnlab.solve` and `pnlab.solve_file`: the engine's solve flow
//! (`pnlab::solve`, the one `pnlab solve` runs), records as dicts.

use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use pnlab::positions::PositionEntry;
use pnlab::search::QuestionKind;
use pnlab::solve::{SolveRequest, Solver};

use crate::convert::{path_or_text, settings, to_py};
use crate::errors::{input_error, solve_error};
use crate::interrupt::run_interruptible;

/// The options `solve`, `solve_file` and `Search` share, as Python gives
/// them.
pub struct Options<'a, 'py> {
    pub game: Option<String>,
    pub algo: &'a str,
    pub question: &'a str,
    pub within: Option<u32>,
    pub max_nodes: Option<u64>,
    pub time_limit: Option<f64>,
    pub seed: u64,
    pub max_iterations: Option<u64>,
    pub memory: Option<u64>,
    pub threads: Option<u32>,
    pub repetition: Option<String>,
    pub params: Option<&'a Bound<'py, PyDict>>,
}

impl Options<'_, '_> {
    /// The engine request for `positions`.
    pub fn request(&self, positions: Vec<String>) -> PyResult<SolveRequest> {
        let question = match self.question {
            "win" => QuestionKind::Win,
            "not-lose" | "not_lose" => QuestionKind::NotLose,
            other => {
                return Err(input_error(format!(
                    "question={other:?}: expected \"win\" or \"not-lose\""
                )))
            }
        };
        if positions.iter().any(|p| p == "-") {
            // The command line's standard input: the interpreter's would
            // block the call (past Ctrl-C) waiting for a terminal.
            return Err(input_error(
                "\"-\" (standard input) is for the command line; pass the positions' text or a file path",
            ));
        }
        Ok(SolveRequest {
            positions,
            game: self.game.clone(),
            algo: self.algo.to_string(),
            settings: settings(self.params)?,
            threads: self.threads,
            question,
            within: self.within,
            repetition: self.repetition.clone(),
            max_iterations: self.max_iterations,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            memory_mib: self.memory,
            seed: self.seed,
            ..SolveRequest::default()
        })
    }
}

/// Every position the solver's input names; the first unreadable part is
/// an error.
pub fn read_all(solver: &Solver) -> PyResult<Vec<PositionEntry>> {
    let mut out = Vec::new();
    for group in solver.read() {
        out.extend(group.map_err(solve_error)?);
    }
    Ok(out)
}

/// The one position `solve` and `Search` work on: the only one, or the
/// `entry`-th (1-based) of a file with several.
pub fn pick_entry(
    mut entries: Vec<PositionEntry>,
    entry: Option<usize>,
    what: &str,
) -> PyResult<PositionEntry> {
    let n = entries.len();
    match entry {
        None if n == 1 => Ok(entries.remove(0)),
        None if n == 0 => Err(input_error(format!("{what}: no position in it"))),
        None => Err(input_error(format!(
            "{what}: holds {n} positions; pick one with entry=K (1-based), or use solve_file for all"
        ))),
        Some(k) if (1..=n).contains(&k) => Ok(entries.swap_remove(k - 1)),
        Some(k) => Err(input_error(format!(
            "entry={k}: {what} holds {n} position(s) (entry is 1-based)"
        ))),
    }
}

/// Solves one position (inline notation with `game`, or a file holding
/// one position, or the `entry`-th of a file) and returns the record
/// `pnlab solve --json` prints for it, as a dict.
#[pyfunction]
#[pyo3(signature = (
    position, game=None, algo="dfpn", question="win", within=None, max_nodes=None,
    time_limit=None, seed=0, *, max_iterations=None, memory=None, threads=None,
    repetition=None, entry=None, proof=None, **params
))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    game: Option<String>,
    algo: &str,
    question: &str,
    within: Option<u32>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    seed: u64,
    max_iterations: Option<u64>,
    memory: Option<u64>,
    threads: Option<u32>,
    repetition: Option<String>,
    entry: Option<usize>,
    proof: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = Options {
        game,
        algo,
        question,
        within,
        max_nodes,
        time_limit,
        seed,
        max_iterations,
        memory,
        threads,
        repetition,
        params,
    };
    let text = path_or_text(position)?;
    let mut request = options.request(vec![text.clone()])?;
    request.proof = proof.map(path_or_text).transpose()?.map(Into::into);
    let mut solver = Solver::new(request).map_err(solve_error)?;
    let entry = pick_entry(read_all(&solver)?, entry, &text)?;
    let cancel = AtomicBool::new(false);
    let solved = run_interruptible(
        py,
        &cancel,
        || solver.solve_entry(entry, (1, 1), Some(&cancel)),
        |_| Ok(()),
    )?
    .map_err(solve_error)?;
    to_py(py, &solved.record)
}

/// Solves every position of a file, in file order; returns the list of
/// records. `progress(done, total)` is called after each position.
#[pyfunction]
#[pyo3(signature = (
    path, game=None, algo="dfpn", question="win", within=None, max_nodes=None,
    time_limit=None, seed=0, *, max_iterations=None, memory=None, threads=None,
    repetition=None, proof=None, progress=None, **params
))]
#[allow(clippy::too_many_arguments)]
pub fn solve_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    game: Option<String>,
    algo: &str,
    question: &str,
    within: Option<u32>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    seed: u64,
    max_iterations: Option<u64>,
    memory: Option<u64>,
    threads: Option<u32>,
    repetition: Option<String>,
    proof: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let options = Options {
        game,
        algo,
        question,
        within,
        max_nodes,
        time_limit,
        seed,
        max_iterations,
        memory,
        threads,
        repetition,
        params,
    };
    let mut request = options.request(vec![path_or_text(path)?])?;
    request.proof = proof.map(path_or_text).transpose()?.map(Into::into);
    let mut solver = Solver::new(request).map_err(solve_error)?;
    let entries = read_all(&solver)?;
    let total = entries.len();
    let out = PyList::empty(py);
    for (i, entry) in entries.into_iter().enumerate() {
        let cancel = AtomicBool::new(false);
        let solved = run_interruptible(
            py,
            &cancel,
            || solver.solve_entry(entry, (i + 1, total), Some(&cancel)),
            |_| Ok(()),
        )?
        .map_err(solve_error)?;
        out.append(to_py(py, &solved.record)?)?;
        if let Some(p) = progress {
            p.call1((i + 1, total))?;
        }
    }
    Ok(out)
}
