//! `pnlab.experiment`: a paper's experiment as `pnlab experiment` runs it,
//! its tables handed over as typed rows (an integer column gives ints, a
//! real column floats, an empty cell None: the row structs' own types, no
//! text read back) and its JSON summaries as dicts. The files are written
//! only when an output folder is given.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use pnlab::experiments::{self, Cell, ExperimentOptions, JobObserver};

use crate::convert::{json_to_py, path_or_text, settings};
use crate::errors::input_error;
use crate::interrupt::run_interruptible;

fn cell<'py>(py: Python<'py>, c: &Cell) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    match c {
        Cell::Missing => Ok(py.None().into_bound(py)),
        Cell::Int(i) => i.into_bound_py_any(py),
        Cell::Real(r) => r.into_bound_py_any(py),
        Cell::Bool(b) => b.into_bound_py_any(py),
        Cell::Text(t) => t.into_bound_py_any(py),
    }
}

/// Runs experiment `name` (writing its files into the folder `out` when
/// given) and returns what it produced: `{"tables": [{"name", "file",
/// "columns", "rows": [dict per row]}], "summaries": {name: dict},
/// "outputs": [paths written], "text": summary}`.
/// `progress(done, total)` is called from this thread as jobs finish
/// (`total`: the jobs of the current job list). The `pnlab.experiment`
/// wrapper in `__init__.py` makes the result a list of records.
#[pyfunction]
#[pyo3(signature = (name, out=None, jobs=1, seed=0, shard=None, progress=None, **kwargs))]
#[allow(clippy::too_many_arguments)]
pub fn run_experiment<'py>(
    py: Python<'py>,
    name: &str,
    out: Option<&Bound<'py, PyAny>>,
    jobs: usize,
    seed: u64,
    shard: Option<(usize, usize)>,
    progress: Option<&Bound<'py, PyAny>>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let info = experiments::find(name).map_err(input_error)?;
    let shard = match shard {
        None => (0, 1),
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => (k - 1, n),
        Some((k, n)) => {
            return Err(input_error(format!(
                "shard=({k}, {n}): expected (K, N) with 1 ≤ K ≤ N"
            )))
        }
    };
    let done = Arc::new(AtomicUsize::new(0));
    let total = Arc::new(AtomicUsize::new(0));
    let (d, t) = (done.clone(), total.clone());
    let observer = JobObserver {
        on_progress: Some(Arc::new(move |dn, tot| {
            t.store(tot, Ordering::Relaxed);
            d.store(dn, Ordering::Relaxed);
        })),
        ..JobObserver::default()
    };
    let jobs = pnlab::params::bounds::count("jobs", jobs as u64, 1, 1024).map_err(input_error)?;
    let opts = ExperimentOptions {
        jobs: jobs as usize,
        shard,
        out_dir: out
            .map(|o| path_or_text(o).map(PathBuf::from))
            .transpose()?,
        seed,
        settings: settings(kwargs)?,
        progress: false,
        log: Default::default(),
        observer,
    };
    // Settings are checked before anything runs, with the CLI's message.
    opts.params(info.settings).map_err(input_error)?;
    let mut shown = (usize::MAX, usize::MAX);
    let report = run_interruptible(
        py,
        &opts.observer.cancel,
        || experiments::run_experiment(info, &opts),
        |_| {
            let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
            if let Some(p) = progress {
                if now != shown && now.1 > 0 {
                    shown = now;
                    p.call1(now)?;
                }
            }
            Ok(())
        },
    )?
    .map_err(input_error)?;
    if let Some(p) = progress {
        let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
        if now != shown && now.1 > 0 {
            p.call1(now)?;
        }
    }
    let result = PyDict::new(py);
    let tables = PyList::empty(py);
    for t in &report.tables {
        let rows = PyList::empty(py);
        for r in &t.rows {
            let row = PyDict::new(py);
            for (col, c) in t.columns.iter().zip(r) {
                row.set_item(col, cell(py, c)?)?;
            }
            rows.append(row)?;
        }
        let table = PyDict::new(py);
        table.set_item("name", &t.name)?;
        table.set_item("file", t.file.display().to_string())?;
        table.set_item("columns", &t.columns)?;
        table.set_item("rows", rows)?;
        tables.append(table)?;
    }
    let summaries = PyDict::new(py);
    for s in &report.summaries {
        summaries.set_item(&s.name, json_to_py(py, &s.value)?)?;
    }
    result.set_item("tables", tables)?;
    result.set_item("summaries", summaries)?;
    result.set_item(
        "outputs",
        report
            .outputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
    )?;
    result.set_item("text", &report.summary)?;
    Ok(result)
}
