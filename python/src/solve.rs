//! `pnlab.solve` and `pnlab.solve_file`: the engine's solve flow
//! (`pnlab::solve`, the one `pnlab solve` runs), records as dicts.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use pnlab::game::xiangqi::Repetition;
use pnlab::game::Game;
use pnlab::game::GameKind;
use pnlab::positions::PositionEntry;
use pnlab::search::{Algorithm, QuestionKind, UnknownQuestion, DEFAULT_ALGO};
use pnlab::solve::{SolveRequest, Solver};

use crate::convert::{path_or_text, settings, to_py};
use crate::errors::{input_error, solve_error};
use crate::interrupt::run_interruptible;
use crate::position::Position;
use crate::pygame::{self, Shared};

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
        // Each word is parsed once here, by the engine's own parsers (the
        // command line uses the same ones).
        let question: QuestionKind = self.question.parse().map_err(|e: UnknownQuestion| {
            input_error(format!(
                "question={:?}: expected \"win\", \"not-lose\" or \"score\"",
                e.given
            ))
        })?;
        let algo: Algorithm = self.algo.parse().map_err(input_error)?;
        let game: Option<GameKind> = match &self.game {
            Some(g) => Some(g.parse().map_err(|e| input_error(format!("{e}")))?),
            None => None,
        };
        let repetition = match &self.repetition {
            Some(r) => Some(
                Repetition::from_name(r)
                    .map_err(|e| input_error(format!("repetition={r:?}: {e}")))?,
            ),
            None => None,
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
            game,
            algo,
            settings: settings(self.params)?,
            threads: self.threads,
            question,
            within: self.within,
            repetition,
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

/// A position argument as the engine takes it: a `Position`, a game
/// object following the protocol, or text (inline notation with `game`,
/// or a file) read through the solver; `entry` picks one of a file's
/// positions. Returns the checked solver, the entry and, for a game
/// written in Python, the slot its callbacks' errors go to.
pub fn resolve(
    position: &Bound<'_, PyAny>,
    options: &Options<'_, '_>,
    entry: Option<usize>,
    configure: impl FnOnce(&mut SolveRequest) -> PyResult<()>,
) -> PyResult<(Solver, PositionEntry, Option<Arc<Shared>>)> {
    let own = if let Ok(p) = position.cast::<Position>() {
        Some(PositionEntry::new(
            p.get().position.notation(),
            p.get().position.clone(),
            1,
        ))
    } else if pygame::is_game(position) {
        let root = pygame::root(position)?;
        let name = pnlab::game::external::ExternalState::game_name(&**root.state());
        Some(PositionEntry::new(name, root.into_any(), 1))
    } else {
        None
    };
    match own {
        Some(e) => {
            if let Some(g) = &options.game {
                return Err(input_error(format!(
                    "game={g:?}: a Position or a game object carries its own game; leave game out"
                )));
            }
            if let Some(k) = entry.filter(|&k| k != 1) {
                return Err(input_error(format!(
                    "entry={k}: a Position or a game object is a single position (entry=1)"
                )));
            }
            let mut request = options.request(vec![e.name.clone()])?;
            configure(&mut request)?;
            let solver = Solver::new(request).map_err(solve_error)?;
            let shared = pygame::shared_of(&e.position);
            Ok((solver, e, shared))
        }
        None => {
            let named = position.extract::<String>().is_ok() || position.hasattr("__fspath__")?;
            if !named {
                // Neither text nor a path: a game object that lacks part
                // of the protocol says which part.
                pygame::root(position)?;
            }
            let text = path_or_text(position)?;
            let mut request = options.request(vec![text.clone()])?;
            configure(&mut request)?;
            let solver = Solver::new(request).map_err(solve_error)?;
            let e = pick_entry(read_all(&solver)?, entry, &text)?;
            Ok((solver, e, None))
        }
    }
}

/// Declares a Python function that takes the solve options. pyo3 wants
/// each keyword as a parameter of the function itself, so the options
/// `solve` and `solve_file` share are listed here once, in the signature
/// pyo3 reads and in the `Options` handed on: the function is
/// `$name(py, first, the shared options…, extras…, **params)` and calls
/// `$run(py, first, options, extras…)`.
macro_rules! with_solve_options {
    (
        $(#[$doc:meta])*
        fn $name:ident<$py:lifetime>($first:ident: $first_ty:ty;
            $($extra:ident: $extra_ty:ty = $default:tt),* $(,)?) -> $ret:ty => $run:ident
    ) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (
            $first, game=None, algo=DEFAULT_ALGO, question="win", within=None, max_nodes=None,
            time_limit=None, seed=0, *, max_iterations=None, memory=None, threads=None,
            repetition=None, $($extra=$default,)* **params
        ))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name<$py>(
            py: Python<$py>,
            $first: $first_ty,
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
            $($extra: $extra_ty,)*
            params: Option<&Bound<$py, PyDict>>,
        ) -> $ret {
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
            $run(py, $first, &options, $($extra),*)
        }
    };
}

with_solve_options! {
    /// Solves one position and returns the record ``pnlab solve --json``
    /// prints for it, as a dict.
    ///
    /// ``position`` is a :class:`Position`, a game object following pnlab's
    /// game protocol (docs/python.md: ``legal_moves``, ``play``,
    /// ``is_terminal``, ``result``, optional ``to_move``, ``key``,
    /// ``move_name``, ``evaluate``, ``score_range``), inline notation with
    /// ``game``, or a file holding one position (``entry=K``, 1-based, picks
    /// one of several; a path of the bundled ``positions/`` folder works from
    /// anywhere).
    ///
    /// ``algo`` is the algorithm (default ``"pns"``, as for the command
    /// line; :func:`algorithms` lists them). ``question`` asks whether the
    /// side to move wins (``"win"``) or at least draws (``"not-lose"``);
    /// ``within`` limits the attacker to N of its own moves. The budgets
    /// ``max_nodes``, ``max_iterations``, ``time_limit`` (seconds) and
    /// ``memory`` (MiB) stop the search as ``unknown`` with its
    /// ``stop_reason``; ``seed`` seeds its random choices; ``threads`` runs
    /// the df-pn family in parallel; ``repetition`` is xiangqi's repetition
    /// rule. ``proof`` writes the certificate of a solved position to that
    /// file; ``certify=True`` checks the certificate in memory before the
    /// answer is reported (``certified``, and stop reason ``certified``, or
    /// ``unknown`` with ``uncertified``). Other keyword arguments are the
    /// algorithm's parameters (``R=0.4``).
    ///
    /// Raises :class:`InputError` (a ``ValueError``) for bad input, the
    /// error a game object's callback raised, and ``KeyboardInterrupt`` on
    /// Ctrl-C.
    fn solve<'py>(
        position: &Bound<'py, PyAny>;
        entry: Option<usize> = None,
        proof: Option<&Bound<'py, PyAny>> = None,
        certify: bool = false,
    ) -> PyResult<Bound<'py, PyAny>> => solve_one
}

/// The body of `solve`.
fn solve_one<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    options: &Options<'_, 'py>,
    entry: Option<usize>,
    proof: Option<&Bound<'py, PyAny>>,
    certify: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (mut solver, entry, shared) = resolve(position, options, entry, |r| {
        r.proof = proof.map(path_or_text).transpose()?.map(Into::into);
        r.certify = certify;
        Ok(())
    })?;
    let cancel = AtomicBool::new(false);
    let python_game = shared.is_some();
    let solved = run_interruptible(
        py,
        &cancel,
        || {
            let work = || solver.solve_entry(entry, (1, 1), Some(&cancel));
            if python_game {
                // The worker keeps one interpreter thread state for the
                // whole search (attached once, then released): each
                // callback then only takes the lock, instead of making
                // and dropping a thread state every time.
                Python::attach(|py| py.detach(work))
            } else {
                work()
            }
        },
        |_| match shared.as_ref().and_then(|s| s.take_error()) {
            Some(e) => Err(e),
            None => Ok(()),
        },
    )?;
    if let Some(e) = shared.as_ref().and_then(|s| s.take_error()) {
        return Err(e);
    }
    to_py(py, &solved.map_err(solve_error)?.record)
}

with_solve_options! {
    /// Solves every position of a file, in file order; returns the list of
    /// records (the fields of ``pnlab solve --json``). Takes the options of
    /// :func:`solve`; ``progress(done, total)`` is called after each
    /// position.
    fn solve_file<'py>(
        path: &Bound<'py, PyAny>;
        proof: Option<&Bound<'py, PyAny>> = None,
        certify: bool = false,
        progress: Option<&Bound<'py, PyAny>> = None,
    ) -> PyResult<Bound<'py, PyList>> => solve_each
}

/// The body of `solve_file`.
fn solve_each<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    options: &Options<'_, 'py>,
    proof: Option<&Bound<'py, PyAny>>,
    certify: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let mut request = options.request(vec![path_or_text(path)?])?;
    request.proof = proof.map(path_or_text).transpose()?.map(Into::into);
    request.certify = certify;
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
