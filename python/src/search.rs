//! `pnlab.Search`: a search stepped from Python by the same run machine
//! the app and the page drive (`pnlab::run`), called synchronously;
//! drawn, copied, pickled and continued with a raised budget.
//!
//! A budget that runs out pauses the search instead of ending it (the
//! machine's rule): the search reports `unknown` with the budget's stop
//! reason (as `solve` does), and `run` with a larger budget goes on from
//! there. Copies and pickles are replays: the search is built again from
//! its arguments and stepped to the same iteration, which gives the same
//! tree for a seed (runs with several threads are not deterministic, so
//! their copies may differ). The machine here makes no pictures, curve
//! samples or checkpoints (`Feeds::BARE`): Python reads the search itself
//! between calls.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use pnlab::positions::PositionEntry;
use pnlab::run::{Command, Event, Feeds, RunMachine, RunSpec};
use pnlab::search::{
    Budget, Search as EngineSearch, SearchSetup, Snapshot, Status, StopReason, ViewRequest,
    DEFAULT_ALGO,
};
use pnlab::solve::Solver;

use crate::convert::to_py;
use crate::errors::{input_error, solve_error};
use crate::pygame::Shared;
use crate::snapshot::{bounded, node_dicts};
use crate::solve::{resolve, Options};

/// How long the machine works with the interpreter released before the
/// search looks for signals (Ctrl-C) again.
const SLICE: Duration = Duration::from_millis(20);

/// Calls of `step(n)` with `n` up to this run without releasing the
/// interpreter: a few steps take microseconds, less than a release costs.
const SHORT: u64 = 16;

/// No budget at all: a replay goes where the search already went.
const UNLIMITED: Budget = Budget {
    max_iterations: None,
    max_nodes: None,
    time_limit: None,
    max_memory_bytes: None,
};

struct Inner {
    solver: Solver,
    entry: PositionEntry,
    setup: SearchSetup,
    /// The run machine holding the search.
    machine: RunMachine,
    /// The budget `run` stops at (the constructor's, raised by `run`'s
    /// own budget arguments).
    budget: Budget,
    /// The budget that ran out, while the search waits for more.
    paused: Option<StopReason>,
    /// Where a game written in Python puts its callbacks' errors.
    shared: Option<Arc<Shared>>,
}

impl Inner {
    /// The machine's search (gone only after it panicked).
    fn engine(&self) -> PyResult<&dyn EngineSearch> {
        self.machine.search().ok_or_else(|| {
            PyRuntimeError::new_err("the search failed earlier (it panicked): make a new Search")
        })
    }

    /// The status as `solve` would report it: a search paused by its
    /// budget is `unknown` with that budget's reason.
    fn status(&self) -> PyResult<Status> {
        let s = self.engine()?.status();
        Ok(match self.paused {
            Some(r) if !s.is_final() => Status::Unknown(r),
            _ => s,
        })
    }

    /// The error a Python game's callback raised, if any.
    fn game_error(&self) -> PyResult<()> {
        match self.shared.as_ref().and_then(|s| s.take_error()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Reads the machine's answer: a budget that ran out pauses the
    /// search; an error becomes Python's.
    fn take(&mut self, events: Vec<Event>) -> PyResult<()> {
        for ev in events {
            match ev {
                Event::BudgetReached(r) => self.paused = Some(r),
                Event::Error(e) | Event::LoadFailed(e) => {
                    return Err(PyRuntimeError::new_err(e.to_string()))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Hands the machine a command that needs no stepping.
    fn tell(&mut self, cmd: Command) -> PyResult<()> {
        let events = self.machine.apply(cmd);
        self.take(events)
    }

    /// Stops the machine where it is (Ctrl-C, a game's error), ready to
    /// go on later, and hands `err` back.
    fn halt(&mut self, err: PyErr) -> PyErr {
        let _ = self.machine.apply(Command::Pause);
        err
    }
}

/// A search on one position, stepped from Python (`step`, `run`) and
/// looked at between steps (`counters`, `snapshot`, `most_proving_path`,
/// `proof`, `record`, `to_svg`).
#[pyclass(frozen, module = "pnlab")]
pub struct Search {
    inner: Mutex<Inner>,
    /// The constructor's arguments, for copies and pickles.
    recipe: Py<PyDict>,
}

impl Search {
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        self.inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this Search is being stepped in another thread"))
    }

    /// Runs the machine to iteration `target` (or the end, or its budget)
    /// with the interpreter released, looking for signals (and a Python
    /// game's errors) every slice.
    fn drive(&self, py: Python<'_>, target: u64) -> PyResult<String> {
        let mut inner = self.lock()?;
        inner.paused = None;
        let budget = inner.budget;
        inner.tell(Command::SetBudget(budget))?;
        let mut events = Vec::new();
        inner
            .machine
            .handle(Command::RunTo(target), SLICE, &mut events);
        while !inner.machine.settled() {
            let machine = &mut inner.machine;
            let out = &mut events;
            py.detach(|| machine.work(SLICE, &|| false, out));
            if let Err(e) = inner.game_error().and_then(|()| py.check_signals()) {
                return Err(inner.halt(e));
            }
        }
        inner.take(events)?;
        Ok(status_name(inner.status()?).to_string())
    }

    /// The snapshot a drawing or `snapshot` starts from.
    fn view(&self, max_nodes: usize, max_depth: u32) -> PyResult<Snapshot> {
        let inner = self.lock()?;
        let req = ViewRequest {
            max_depth,
            max_nodes,
            want_position: false,
            ..ViewRequest::default()
        };
        let snap = inner.engine()?.snapshot(&req);
        inner.game_error()?;
        Ok(snap)
    }

    /// `run(until=callable)`: one iteration at a time, asking `until`
    /// after each; the time limit counts from the call.
    fn run_until_true(slf: &Bound<'_, Self>, until: &Bound<'_, PyAny>) -> PyResult<String> {
        let py = slf.py();
        let this = slf.get();
        let began = Instant::now();
        {
            let mut inner = this.lock()?;
            inner.paused = None;
            let budget = inner.budget;
            inner.tell(Command::SetBudget(budget))?;
        }
        loop {
            {
                let mut inner = this.lock()?;
                let over_time = inner
                    .budget
                    .time_limit
                    .is_some_and(|t| began.elapsed() >= t);
                if over_time && !inner.engine()?.status().is_final() {
                    inner.paused = Some(StopReason::TimeLimit);
                } else {
                    let target = inner.engine()?.counters().iterations.saturating_add(1);
                    inner.tell(Command::RunTo(target))?;
                }
                inner.game_error()?;
                if inner.status()?.is_final() {
                    return Ok(status_name(inner.status()?).to_string());
                }
            }
            if until.call1((slf,))?.is_truthy()? {
                return Ok(status_name(this.lock()?.status()?).to_string());
            }
            py.check_signals()?;
        }
    }
}

/// The status as an interned Python string (no allocation per step).
fn status_str(py: Python<'_>, s: Status) -> Bound<'_, PyString> {
    match s {
        Status::Running => intern!(py, "running").clone(),
        Status::Proved => intern!(py, "proved").clone(),
        Status::Disproved => intern!(py, "disproved").clone(),
        Status::Unknown(_) => intern!(py, "unknown").clone(),
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Running => "running",
        Status::Proved => "proved",
        Status::Disproved => "disproved",
        Status::Unknown(_) => "unknown",
    }
}

#[pymethods]
impl Search {
    /// Builds the search of one position exactly as ``solve`` would (same
    /// arguments: a :class:`Position`, a game object, inline notation
    /// with ``game`` or a file); nothing runs until ``step`` or ``run``.
    ///
    /// The budgets (``max_iterations``, ``max_nodes``, ``time_limit``,
    /// ``memory``) apply to ``run``; when one runs out the search pauses
    /// as ``unknown`` with that stop reason, and ``run`` with a larger
    /// budget goes on. ``copy.copy``, ``copy.deepcopy`` and ``pickle``
    /// rebuild the search and replay it to the same iteration.
    #[new]
    #[pyo3(signature = (
        position, game=None, algo=DEFAULT_ALGO, question="win", within=None, max_nodes=None,
        time_limit=None, seed=0, *, max_iterations=None, memory=None, threads=None,
        repetition=None, entry=None, certify=false, **params
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
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
        certify: bool,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Search> {
        let recipe = PyDict::new(py);
        recipe.set_item("position", position)?;
        recipe.set_item("game", &game)?;
        recipe.set_item("algo", algo)?;
        recipe.set_item("question", question)?;
        recipe.set_item("within", within)?;
        recipe.set_item("max_nodes", max_nodes)?;
        recipe.set_item("time_limit", time_limit)?;
        recipe.set_item("seed", seed)?;
        recipe.set_item("max_iterations", max_iterations)?;
        recipe.set_item("memory", memory)?;
        recipe.set_item("threads", threads)?;
        recipe.set_item("repetition", &repetition)?;
        recipe.set_item("entry", entry)?;
        recipe.set_item("certify", certify)?;
        if let Some(p) = params {
            recipe.update(p.as_mapping())?;
        }
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
        let (solver, entry, shared) = resolve(position, &options, entry, |r| {
            r.certify = certify;
            Ok(())
        })?;
        let (entry, setup, search) = solver.prepare(entry).map_err(solve_error)?;
        let budget = *solver.budget();
        let mut machine = RunMachine::with_feeds(Feeds::BARE);
        let spec = RunSpec {
            algo: solver.algo(),
            setup: setup.clone(),
        };
        let mut events = Vec::new();
        machine.install(spec, search, &mut events);
        let mut inner = Inner {
            solver,
            entry,
            setup,
            machine,
            budget,
            paused: None,
            shared,
        };
        inner.take(events)?;
        inner.tell(Command::SetBudget(budget))?;
        Ok(Search {
            inner: Mutex::new(inner),
            recipe: recipe.unbind(),
        })
    }

    /// Runs ``n`` iterations (fewer if the search ends first or a budget
    /// given at construction runs out, as in ``run``; the time limit
    /// counts from this call) and returns the status: "running",
    /// "proved", "disproved" or "unknown". ``n`` must be 0 or more
    /// (``ValueError`` otherwise).
    #[pyo3(signature = (n=1))]
    fn step<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyString>> {
        let n = u64::try_from(n).map_err(|_| {
            PyValueError::new_err(format!(
                "step(n={n}): n is a number of iterations, 0 or more"
            ))
        })?;
        let external = self.lock()?.shared.is_some();
        if n <= SHORT && !external {
            let mut inner = self.lock()?;
            inner.paused = None;
            let budget = inner.budget;
            inner.tell(Command::SetBudget(budget))?;
            let target = inner.engine()?.counters().iterations.saturating_add(n);
            inner.tell(Command::RunTo(target))?;
            return Ok(status_str(py, inner.status()?));
        }
        let target = self
            .lock()?
            .engine()?
            .counters()
            .iterations
            .saturating_add(n);
        self.drive(py, target)?;
        Ok(status_str(py, self.lock()?.status()?))
    }

    /// Steps until the search ends or a budget runs out, as ``solve``
    /// does; ``until`` stops earlier: at that iteration (an int), or
    /// once ``until(search)`` returns true (a callable, asked after every
    /// step). ``max_iterations``, ``max_nodes``, ``time_limit`` (seconds,
    /// for this call) and ``memory`` (MiB) replace the budget given at
    /// construction, for this run and the later ones: a search paused by
    /// its budget goes on with a larger one. Ctrl-C raises
    /// KeyboardInterrupt and leaves the search where it was, ready to go
    /// on.
    #[pyo3(signature = (until=None, *, max_iterations=None, max_nodes=None, time_limit=None, memory=None))]
    fn run(
        slf: &Bound<'_, Self>,
        until: Option<&Bound<'_, PyAny>>,
        max_iterations: Option<u64>,
        max_nodes: Option<u64>,
        time_limit: Option<f64>,
        memory: Option<u64>,
    ) -> PyResult<String> {
        let py = slf.py();
        let this = slf.get();
        {
            let mut inner = this.lock()?;
            if let Some(m) = max_iterations {
                inner.budget.max_iterations = Some(m);
            }
            if let Some(m) = max_nodes {
                inner.budget.max_nodes = Some(m);
            }
            if let Some(t) = time_limit {
                if !(t.is_finite() && t > 0.0) {
                    return Err(input_error(format!(
                        "time_limit={t}: expected a positive number of seconds"
                    )));
                }
                inner.budget.time_limit = Some(Duration::from_secs_f64(t));
            }
            if let Some(m) = memory {
                inner.budget.max_memory_bytes = Some(m.saturating_mul(1 << 20));
            }
        }
        // Keep the raised budget for copies and pickles.
        let recipe = this.recipe.bind(py);
        for (k, v) in [
            ("max_iterations", max_iterations),
            ("max_nodes", max_nodes),
            ("memory", memory),
        ] {
            if v.is_some() {
                recipe.set_item(k, v)?;
            }
        }
        if time_limit.is_some() {
            recipe.set_item("time_limit", time_limit)?;
        }
        match until {
            None => this.drive(py, u64::MAX),
            Some(u) if u.is_callable() => Search::run_until_true(slf, u),
            Some(u) => {
                let target: u64 = u.extract().map_err(|_| {
                    PyValueError::new_err(
                        "until: expected an iteration number (0 or more) or a callable",
                    )
                })?;
                this.drive(py, target)
            }
        }
    }

    /// "running", "proved", "disproved" or "unknown" (stopped without an
    /// answer: see ``stop_reason``).
    #[getter]
    fn status(&self) -> PyResult<&'static str> {
        Ok(status_name(self.lock()?.status()?))
    }

    /// The record's ``outcome``: "proved", "disproved" or "unknown" (also
    /// while running).
    #[getter]
    fn outcome(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.status()?.outcome_name())
    }

    /// Why the search stopped ("solved", "max-nodes", …), None while it
    /// runs.
    #[getter]
    fn stop_reason(&self) -> PyResult<Option<&'static str>> {
        let st = self.lock()?.status()?;
        Ok(st.is_final().then(|| st.stop_reason_name()))
    }

    /// The root move the algorithm names best now, in notation.
    #[getter]
    fn best_move(&self) -> PyResult<Option<String>> {
        Ok(self.lock()?.engine()?.best_move())
    }

    /// Iterations so far.
    #[getter]
    fn iterations(&self) -> PyResult<u64> {
        Ok(self.lock()?.engine()?.counters().iterations)
    }

    /// The counters under the record's names (plus ``live_nodes`` and
    /// ``playouts``).
    #[getter]
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.lock()?.engine()?.counters())
    }

    /// The names of the per-node values of this algorithm ("pn", "dn", …).
    #[getter]
    fn value_names(&self) -> PyResult<Vec<&'static str>> {
        Ok(self.lock()?.engine()?.value_names().to_vec())
    }

    /// The algorithm's registry name.
    #[getter]
    fn algo(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.solver.algo().name)
    }

    /// The game's name ("external" for a game written in Python).
    #[getter]
    fn game(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.entry.game.name())
    }

    /// The position in the game's notation.
    #[getter]
    fn position(&self) -> PyResult<String> {
        Ok(self.lock()?.entry.position.notation())
    }

    /// The record ``solve`` would return if the search stopped here.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut inner = self.lock()?;
        let final_now = inner.engine()?.status().is_final();
        let paused = inner.paused.filter(|_| !final_now);
        let Inner {
            solver,
            entry,
            setup,
            machine,
            ..
        } = &mut *inner;
        let search = machine
            .search()
            .ok_or_else(|| PyRuntimeError::new_err("the search failed"))?;
        let (mut record, _) = solver
            .finish(entry, setup, search, &[], (1, 1))
            .map_err(solve_error)?;
        if let Some(r) = paused {
            record.stop_reason = pnlab::search::RunEnd::Stopped(r);
        }
        inner.game_error()?;
        to_py(py, &record)
    }

    /// The tree as the search holds it now: the nodes at most
    /// ``max_depth`` levels below the root, at most ``max_nodes`` of them.
    /// A node whose children are not all listed has ``truncated`` True.
    /// Flat records (one dict per node, parents before children,
    /// ``parent`` the parent's id) ready for a DataFrame; with
    /// ``nested=True`` the root as a dict whose ``children`` hold its
    /// children; with ``columns=True`` one array per field (numpy arrays
    /// when numpy is installed, lists otherwise), the form
    /// ``pandas.DataFrame(columns)`` or a plot takes directly.
    #[pyo3(signature = (max_nodes=2000, max_depth=6, nested=false, columns=false))]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
        max_nodes: usize,
        max_depth: u32,
        nested: bool,
        columns: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let snap = bounded(self.view(max_nodes, max_depth)?, max_depth);
        if columns {
            return crate::snapshot::columns(py, &snap);
        }
        let nodes = node_dicts(py, &snap)?;
        if !nested {
            return Ok(PyList::new(py, nodes)?.into_any());
        }
        // Parents come before their children, in move order.
        let children: Vec<Bound<'py, PyList>> = nodes.iter().map(|_| PyList::empty(py)).collect();
        for (i, n) in snap.nodes.iter().enumerate() {
            nodes[i].set_item("children", &children[i])?;
            if let Some(p) = n.parent {
                children[p as usize].append(&nodes[i])?;
            }
        }
        match nodes.into_iter().next() {
            Some(root) => Ok(root.into_any()),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The tree as an SVG picture, drawn as ``pnlab solve --export
    /// tree.svg`` draws it (same depth and size limits by default).
    #[pyo3(signature = (max_depth=6, max_nodes=2000))]
    fn to_svg(&self, max_depth: u32, max_nodes: usize) -> PyResult<String> {
        Ok(pnlab::export::to_svg(&self.view(max_nodes, max_depth)?))
    }

    /// The tree as Graphviz DOT, as ``pnlab solve --export tree.dot``
    /// writes it.
    #[pyo3(signature = (max_depth=6, max_nodes=2000))]
    fn to_dot(&self, max_depth: u32, max_nodes: usize) -> PyResult<String> {
        Ok(pnlab::export::to_dot(&self.view(max_nodes, max_depth)?))
    }

    /// A notebook shows the tree (``to_svg()``).
    fn _repr_svg_(&self) -> PyResult<String> {
        self.to_svg(6, 2000)
    }

    /// The moves from the root to the node the search would expand next
    /// (the most-proving node, or the algorithm's selected node).
    fn most_proving_path(&self) -> PyResult<Vec<String>> {
        Ok(self.view(1, 0)?.selection_moves)
    }

    /// The proof (or disproof) certificate of a solved search, as text
    /// that ``verify`` checks.
    fn proof(&self, py: Python<'_>) -> PyResult<String> {
        let mut inner = self.lock()?;
        if !matches!(inner.engine()?.status(), Status::Proved | Status::Disproved) {
            return Err(input_error(format!(
                "no certificate: the search is {} (not proved or disproved)",
                status_name(inner.status()?)
            )));
        }
        let machine = &mut inner.machine;
        let text = py
            .detach(move || machine.certificate())
            .map(|(text, _, _)| text)
            .map_err(|e| input_error(e.to_string()));
        inner.game_error()?;
        text
    }

    /// Pickles as the constructor's arguments and the iteration reached:
    /// unpickling rebuilds the search and replays it there.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let (iterations, paused) = {
            let inner = this.lock()?;
            (
                inner.engine()?.counters().iterations,
                inner.paused.map(|r| r.name()),
            )
        };
        let restore = py.import("pnlab._pnlab")?.getattr("_restore_search")?;
        let args = PyTuple::new(
            py,
            [
                this.recipe.bind(py).copy()?.into_any(),
                iterations.into_pyobject(py)?.into_any(),
                paused.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((restore, args))
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<Py<Search>> {
        let (f, args) = Search::__reduce__(slf)?;
        Ok(f.call1(args)?.cast_into::<Search>()?.unbind())
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<Search>> {
        Search::__copy__(slf)
    }

    fn __repr__(&self) -> PyResult<String> {
        let inner = self.lock()?;
        Ok(format!(
            "<pnlab.Search {} on {} {:?}: {} after {} iterations>",
            inner.solver.algo().name,
            inner.entry.game.name(),
            inner.entry.name,
            status_name(inner.status()?),
            inner.engine()?.counters().iterations
        ))
    }
}

/// Rebuilds a pickled or copied search: the constructor with `recipe`,
/// then `iterations` steps (the budget that had paused it, by name, pauses
/// it again).
#[pyfunction]
pub fn _restore_search<'py>(
    py: Python<'py>,
    recipe: &Bound<'py, PyDict>,
    iterations: u64,
    paused: Option<String>,
) -> PyResult<Bound<'py, Search>> {
    let search_type = py.get_type::<Search>();
    let kwargs = recipe.copy()?;
    let position = kwargs
        .get_item("position")?
        .ok_or_else(|| PyValueError::new_err("a pickled Search without its position"))?;
    kwargs.del_item("position")?;
    let s = search_type
        .call((position,), Some(&kwargs))?
        .cast_into::<Search>()?;
    {
        let this = s.get();
        let mut inner = this.lock()?;
        // Where the search already went once: no budget stops the replay.
        inner.tell(Command::SetBudget(UNLIMITED))?;
        let machine = &mut inner.machine;
        let events = py.detach(|| machine.apply(Command::RunTo(iterations)));
        inner.game_error()?;
        inner.take(events)?;
        let budget = inner.budget;
        inner.tell(Command::SetBudget(budget))?;
        inner.paused = paused.and_then(|name| stop_reason_named(&name));
    }
    Ok(s)
}

/// A budget's stop reason by its record name.
fn stop_reason_named(name: &str) -> Option<StopReason> {
    [
        StopReason::MaxIterations,
        StopReason::MaxNodes,
        StopReason::TimeLimit,
        StopReason::Memory,
    ]
    .into_iter()
    .find(|r| r.name() == name)
}
