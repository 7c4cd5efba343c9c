//! `pnlab.games()`, `pnlab.algorithms()`, `pnlab.experiments()`: the
//! engine's registries (the descriptions the CLI's help and checks come
//! from), as lists of dicts.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use pnlab::game::GameKind;
use pnlab::search::{self, ListItem, ParamKind, ParamSpec};

use crate::convert::to_py;

/// The bounds of a number (or of a list's items).
enum Bounds {
    None,
    Real(f64, f64),
    /// `i64::MAX` as the upper bound means "no bound".
    Int(i64, i64),
}

/// One parameter: name, kind, default, range (bounds or options, and the
/// kind of a list's items), the range in words as `--help` prints it, and
/// the help sentence.
fn param<'py>(py: Python<'py>, spec: &ParamSpec) -> PyResult<Bound<'py, PyDict>> {
    let (bounds, options, item) = match spec.kind {
        ParamKind::Real { min, max, .. } | ParamKind::RealOrAuto { min, max } => {
            (Bounds::Real(min, max), None, None)
        }
        ParamKind::Int { min, max, .. } => (Bounds::Int(min, max), None, None),
        ParamKind::Choice { options, .. } => (Bounds::None, Some(options), None),
        ParamKind::List { item, .. } => match item {
            ListItem::Real { min, max } => (Bounds::Real(min, max), None, Some("real")),
            ListItem::Int { min, max } => (Bounds::Int(min, max), None, Some("integer")),
            ListItem::Choice(options) => (Bounds::None, Some(options), Some("choice")),
        },
        ParamKind::Text { .. } => (Bounds::None, None, None),
    };
    let d = PyDict::new(py);
    d.set_item("name", spec.name)?;
    d.set_item("kind", spec.kind_name())?;
    d.set_item("default", to_py(py, &spec.default_value())?)?;
    match bounds {
        Bounds::None => {
            d.set_item("min", py.None())?;
            d.set_item("max", py.None())?;
        }
        Bounds::Real(min, max) => {
            d.set_item("min", min)?;
            d.set_item("max", max)?;
        }
        Bounds::Int(min, max) => {
            d.set_item("min", min)?;
            d.set_item("max", (max != i64::MAX).then_some(max))?;
        }
    }
    d.set_item("options", options.map(<[&str]>::to_vec))?;
    d.set_item("item", item)?;
    d.set_item("range", spec.range_text())?;
    d.set_item("help", spec.help)?;
    Ok(d)
}

fn params<'py>(py: Python<'py>, specs: &[ParamSpec]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for s in specs {
        list.append(param(py, s)?)?;
    }
    Ok(list)
}

/// The games: name (the `game=` argument) and one line on the game and
/// its inline notation.
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for g in GameKind::ALL {
        let d = PyDict::new(py);
        d.set_item("name", g.name())?;
        d.set_item("summary", g.summary())?;
        list.append(d)?;
    }
    Ok(list)
}

/// The algorithms: name (the `algo=` argument), summary, and parameters
/// (the keyword arguments of `solve` and `Search`) with their kinds,
/// ranges, defaults and help; `game_params` adds those it takes only on
/// some games' positions.
#[pyfunction]
pub fn algorithms(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for a in search::algorithms() {
        let d = PyDict::new(py);
        d.set_item("name", a.name)?;
        d.set_item("summary", a.summary)?;
        d.set_item("params", params(py, a.params)?)?;
        // Parameters it has on some games' positions only, by game name.
        let per_game = PyDict::new(py);
        for (game, specs) in a.game_params {
            per_game.set_item(game.name(), params(py, specs)?)?;
        }
        d.set_item("game_params", per_game)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The experiments: name, summary and settings (the keyword arguments of
/// `experiment`), described like the algorithms' parameters.
#[pyfunction]
pub fn experiments(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for e in pnlab::experiments::EXPERIMENTS {
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("summary", e.summary)?;
        d.set_item("settings", params(py, e.settings)?)?;
        list.append(d)?;
    }
    Ok(list)
}
