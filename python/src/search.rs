//! `pnlab.Search`: a search stepped from Python, as the app steps it.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use pnlab::positions::PositionEntry;
use pnlab::search::{
    Budget, Search as EngineSearch, SearchSetup, Snapshot, Status, StopReason, ViewRequest,
};
use pnlab::solve::{certificate_text, Solver};

use crate::convert::{path_or_text, to_py};
use crate::errors::{input_error, solve_error};
use crate::solve::{pick_entry, read_all, Options};

/// How long a stepping call runs with the interpreter released before it
/// looks for signals (Ctrl-C) again.
const SLICE: Duration = Duration::from_millis(20);

/// Steps between two looks at the clock.
const CLOCK_EVERY: u64 = 64;

/// Calls of `step(n)` with `n` up to this run without releasing the
/// interpreter: a few steps take microseconds, less than a release costs.
const SHORT: u64 = 16;

struct Inner {
    solver: Solver,
    entry: PositionEntry,
    setup: SearchSetup,
    search: Box<dyn EngineSearch>,
}

/// A search on one position, stepped from Python (`step`, `run`) and
/// looked at between steps (`counters`, `snapshot`, `most_proving_path`,
/// `proof`, `record`).
#[pyclass(frozen, module = "pnlab")]
pub struct Search {
    inner: Mutex<Inner>,
}

/// Why a stepping slice ended.
enum Slice {
    /// The search is final, reached its target, or met its budget.
    Done,
    /// The slice's time is up: look for signals and go on.
    Paused,
}

/// Stops `s` if `budget` is spent (`began`: when this run started);
/// returns whether it did.
fn budget_stop(s: &mut dyn EngineSearch, budget: &Budget, began: Instant) -> bool {
    let c = s.counters();
    let reason = budget
        .exceeded(c.iterations, c.nodes_created, c.peak_tree_bytes)
        .or_else(|| {
            budget
                .time_limit
                .is_some_and(|t| began.elapsed() >= t)
                .then_some(StopReason::TimeLimit)
        });
    match reason {
        Some(r) => {
            s.stop(r);
            true
        }
        None => false,
    }
}

/// Steps `s` until iteration `target`, a final status, a budget (`run`
/// only; the clock is read every [`CLOCK_EVERY`] steps, as the driver
/// does) or the end of the slice. The time spent is added to the
/// counters' `time_ms`, as the driver does.
fn slice(
    s: &mut dyn EngineSearch,
    target: u64,
    budget: Option<(&Budget, Instant)>,
    pause_at: Option<Instant>,
) -> Slice {
    let start = Instant::now();
    let mut steps = 0u64;
    let result = loop {
        if s.status().is_final() || s.counters().iterations >= target {
            break Slice::Done;
        }
        if let Some((b, _)) = budget {
            let c = s.counters();
            if let Some(reason) = b.exceeded(c.iterations, c.nodes_created, c.peak_tree_bytes) {
                s.stop(reason);
                break Slice::Done;
            }
        }
        s.step();
        steps += 1;
        if steps.is_multiple_of(CLOCK_EVERY) {
            if let Some((b, began)) = budget {
                if budget_stop(s, b, began) {
                    break Slice::Done;
                }
            }
            if pause_at.is_some_and(|p| Instant::now() >= p) {
                break Slice::Paused;
            }
        }
    };
    s.counters_mut().time_ms += start.elapsed().as_secs_f64() * 1000.0;
    result
}

impl Search {
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        self.inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this Search is being stepped in another thread"))
    }

    /// Steps until `target` or the budget, releasing the interpreter and
    /// looking for signals every slice.
    fn drive(&self, py: Python<'_>, target: u64) -> PyResult<String> {
        let mut inner = self.lock()?;
        let Inner { solver, search, .. } = &mut *inner;
        let began = Instant::now();
        let budget = Some((*solver.budget(), began));
        loop {
            let s = search.as_mut();
            let r = py.detach(|| {
                slice(
                    s,
                    target,
                    budget.as_ref().map(|(b, t)| (b, *t)),
                    Some(Instant::now() + SLICE),
                )
            });
            if let Slice::Done = r {
                break;
            }
            py.check_signals()?;
        }
        Ok(status_name(search.status()).to_string())
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
    /// Builds the search of one position exactly as `solve` would (same
    /// arguments); nothing runs until `step` or `run`.
    #[new]
    #[pyo3(signature = (
        position, game=None, algo="dfpn", question="win", within=None, max_nodes=None,
        time_limit=None, seed=0, *, max_iterations=None, memory=None, threads=None,
        repetition=None, entry=None, **params
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
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
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Search> {
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
        let solver = Solver::new(options.request(vec![text.clone()])?).map_err(solve_error)?;
        let entry = pick_entry(read_all(&solver)?, entry, &text)?;
        let (entry, setup, search) = solver.prepare(entry).map_err(solve_error)?;
        Ok(Search {
            inner: Mutex::new(Inner {
                solver,
                entry,
                setup,
                search,
            }),
        })
    }

    /// Runs `n` iterations (fewer if the search ends first or a budget
    /// given at construction runs out, as in `run`; the time limit counts
    /// from this call) and returns the status: "running", "proved",
    /// "disproved" or "unknown".
    #[pyo3(signature = (n=1))]
    fn step<'py>(&self, py: Python<'py>, n: u64) -> PyResult<Bound<'py, PyString>> {
        if n <= SHORT {
            let mut inner = self.lock()?;
            let Inner { solver, search, .. } = &mut *inner;
            let budget = *solver.budget();
            let s = search.as_mut();
            let target = s.counters().iterations.saturating_add(n);
            slice(s, target, Some((&budget, Instant::now())), None);
            return Ok(status_str(py, s.status()));
        }
        let target = self.lock()?.search.counters().iterations.saturating_add(n);
        self.drive(py, target)?;
        Ok(status_str(py, self.lock()?.search.status()))
    }

    /// Steps until the search ends or a budget given at construction
    /// (max_iterations, max_nodes, time_limit, memory) runs out, as
    /// `solve` does; `until` stops earlier: at that iteration (an int),
    /// or once `until(search)` returns true (a callable, asked after
    /// every step). Ctrl-C raises KeyboardInterrupt and leaves the
    /// search where it was, ready to go on.
    #[pyo3(signature = (until=None))]
    fn run(slf: &Bound<'_, Self>, until: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let py = slf.py();
        let this = slf.get();
        match until {
            None => this.drive(py, u64::MAX),
            Some(u) if u.is_callable() => {
                let began = Instant::now();
                loop {
                    {
                        let mut inner = this.lock()?;
                        let Inner { solver, search, .. } = &mut *inner;
                        let budget = *solver.budget();
                        let s = search.as_mut();
                        if !s.status().is_final() && !budget_stop(s, &budget, began) {
                            let t = Instant::now();
                            s.step();
                            s.counters_mut().time_ms += t.elapsed().as_secs_f64() * 1000.0;
                        }
                        if s.status().is_final() {
                            return Ok(status_name(s.status()).to_string());
                        }
                    }
                    if u.call1((slf,))?.is_truthy()? {
                        return Ok(status_name(this.lock()?.search.status()).to_string());
                    }
                    py.check_signals()?;
                }
            }
            Some(u) => {
                let target: u64 = u.extract().map_err(|_| {
                    PyValueError::new_err("until: expected an iteration number or a callable")
                })?;
                this.drive(py, target)
            }
        }
    }

    /// "running", "proved", "disproved" or "unknown" (stopped without an
    /// answer: see `stop_reason`).
    #[getter]
    fn status(&self) -> PyResult<&'static str> {
        Ok(status_name(self.lock()?.search.status()))
    }

    /// The record's `outcome`: "proved", "disproved" or "unknown" (also
    /// while running).
    #[getter]
    fn outcome(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.search.status().outcome_name())
    }

    /// Why the search stopped ("solved", "max-nodes", …), None while it
    /// runs.
    #[getter]
    fn stop_reason(&self) -> PyResult<Option<&'static str>> {
        let st = self.lock()?.search.status();
        Ok(st.is_final().then(|| st.stop_reason_name()))
    }

    /// The root move the algorithm names best now, in notation.
    #[getter]
    fn best_move(&self) -> PyResult<Option<String>> {
        Ok(self.lock()?.search.best_move())
    }

    /// Iterations so far.
    #[getter]
    fn iterations(&self) -> PyResult<u64> {
        Ok(self.lock()?.search.counters().iterations)
    }

    /// The counters under the record's names (plus `live_nodes` and
    /// `playouts`).
    #[getter]
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.lock()?.search.counters())
    }

    /// The names of the per-node values of this algorithm ("pn", "dn", …).
    #[getter]
    fn value_names(&self) -> PyResult<Vec<&'static str>> {
        Ok(self.lock()?.search.value_names().to_vec())
    }

    /// The algorithm's registry name.
    #[getter]
    fn algo(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.solver.algo().name)
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.entry.game.name())
    }

    /// The position in the game's notation.
    #[getter]
    fn position(&self) -> PyResult<String> {
        Ok(self.lock()?.entry.position.notation())
    }

    /// The record `solve` would return if the search stopped here.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut inner = self.lock()?;
        let Inner {
            solver,
            entry,
            setup,
            search,
        } = &mut *inner;
        let (record, _) = solver
            .finish(entry, setup, search.as_ref(), &[], (1, 1))
            .map_err(solve_error)?;
        to_py(py, &record)
    }

    /// The tree as the search holds it now, bounded: `max_depth` levels
    /// below the root and at most `max_nodes` nodes (the most-proving
    /// path always included). Flat records (one dict per node, parents
    /// before children, `parent` the parent's id) ready for a DataFrame,
    /// or with `nested=True` the root as a dict whose `children` hold its
    /// children.
    #[pyo3(signature = (max_nodes=2000, max_depth=6, nested=false))]
    fn snapshot<'py>(
        &self,
        py: Python<'py>,
        max_nodes: usize,
        max_depth: u32,
        nested: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let snap = {
            let inner = self.lock()?;
            let req = ViewRequest {
                max_depth,
                max_nodes,
                want_position: false,
                ..ViewRequest::default()
            };
            inner.search.snapshot(&req)
        };
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

    /// The moves from the root to the node the search would expand next
    /// (the most-proving node, or the algorithm's selected node).
    fn most_proving_path(&self) -> PyResult<Vec<String>> {
        let inner = self.lock()?;
        let req = ViewRequest {
            max_depth: 0,
            max_nodes: 1,
            want_position: false,
            ..ViewRequest::default()
        };
        Ok(inner.search.snapshot(&req).selection_moves)
    }

    /// The proof (or disproof) certificate of a solved search, as text
    /// that `verify` checks.
    fn proof(&self, py: Python<'_>) -> PyResult<String> {
        let mut inner = self.lock()?;
        if !matches!(inner.search.status(), Status::Proved | Status::Disproved) {
            return Err(input_error(format!(
                "no certificate: the search is {} (not proved or disproved)",
                status_name(inner.search.status())
            )));
        }
        let Inner { setup, search, .. } = &mut *inner;
        let s: &mut dyn EngineSearch = search.as_mut();
        let setup: &SearchSetup = setup;
        py.detach(move || certificate_text(&*s, setup))
            .map(|(text, _)| text)
            .map_err(input_error)
    }

    fn __repr__(&self) -> PyResult<String> {
        let inner = self.lock()?;
        Ok(format!(
            "<pnlab.Search {} on {} {:?}: {} after {} iterations>",
            inner.solver.algo().name,
            inner.entry.game.name(),
            inner.entry.name,
            status_name(inner.search.status()),
            inner.search.counters().iterations
        ))
    }
}

/// One dict per snapshot node: id, parent id, depth, move, kind, status,
/// the values by name and the tree facts.
fn node_dicts<'py>(py: Python<'py>, snap: &Snapshot) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mut out = Vec::with_capacity(snap.nodes.len());
    for n in &snap.nodes {
        let d = PyDict::new(py);
        d.set_item("id", n.id)?;
        d.set_item("parent", n.parent.map(|p| snap.nodes[p as usize].id))?;
        d.set_item("depth", n.depth)?;
        d.set_item("move", &n.move_label)?;
        d.set_item("kind", to_py(py, &n.kind)?)?;
        d.set_item("status", to_py(py, &n.status)?)?;
        for (name, v) in snap.value_names.iter().zip(&n.values) {
            let key = if d.contains(name)? {
                format!("value_{name}")
            } else {
                name.clone()
            };
            d.set_item(key, *v)?;
        }
        d.set_item("expanded", n.expanded)?;
        d.set_item("n_children", n.n_children)?;
        d.set_item("on_path", n.on_path)?;
        d.set_item("terminal", n.terminal)?;
        d.set_item("truncated", n.truncated)?;
        out.push(d);
    }
    Ok(out)
}
