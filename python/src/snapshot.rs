//! A search's tree for Python: bounded by depth as `snapshot(max_depth=…)`
//! promises, and given as records or as column arrays.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use pnlab::search::Snapshot;

use crate::convert::to_py;

/// `snap` without the nodes deeper than `max_depth` below the root (the
/// engine's view keeps the path to the most-proving node whatever its
/// depth), and with `truncated` set on every node whose children are not
/// all listed, whatever left them out (depth, the node cap, or a table
/// that keeps only some children).
pub fn bounded(mut snap: Snapshot, max_depth: u32) -> Snapshot {
    let root_depth = snap.nodes.first().map_or(0, |n| n.depth);
    let keep: Vec<bool> = snap
        .nodes
        .iter()
        .map(|n| n.depth - root_depth <= max_depth)
        .collect();
    // Old index → new index of every kept node (parents precede children,
    // and a kept node's parent is kept: it is shallower).
    let mut new_index = vec![None; snap.nodes.len()];
    let mut next = 0u32;
    for (i, k) in keep.iter().enumerate() {
        if *k {
            new_index[i] = Some(next);
            next += 1;
        }
    }
    let mut nodes: Vec<_> = std::mem::take(&mut snap.nodes)
        .into_iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(mut n, _)| {
            n.parent = n.parent.and_then(|p| new_index[p as usize]);
            n
        })
        .collect();
    let mut listed = vec![0u32; nodes.len()];
    for n in &nodes {
        if let Some(p) = n.parent {
            listed[p as usize] += 1;
        }
    }
    for (n, l) in nodes.iter_mut().zip(&listed) {
        if n.n_children > *l {
            n.truncated = true;
        }
    }
    snap.nodes = nodes;
    snap.extra_edges = std::mem::take(&mut snap.extra_edges)
        .into_iter()
        .filter_map(|mut e| {
            e.from = new_index[e.from as usize]?;
            e.to = new_index[e.to as usize]?;
            Some(e)
        })
        .collect();
    snap
}

/// One dict per snapshot node: id, parent id, depth, move, kind, status,
/// the values by name and the tree facts.
pub fn node_dicts<'py>(py: Python<'py>, snap: &Snapshot) -> PyResult<Vec<Bound<'py, PyDict>>> {
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
            d.set_item(value_key(&d, name)?, *v)?;
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

/// A value's key: its name, or `value_NAME` where the name is a field's.
fn value_key(d: &Bound<'_, PyDict>, name: &str) -> PyResult<String> {
    Ok(if d.contains(name)? {
        format!("value_{name}")
    } else {
        name.to_string()
    })
}

/// The snapshot as columns: one list per field of [`node_dicts`] (the
/// same names), in node order; numpy arrays when numpy can be imported.
pub fn columns<'py>(py: Python<'py>, snap: &Snapshot) -> PyResult<Bound<'py, PyAny>> {
    let rows = node_dicts(py, snap)?;
    let out = PyDict::new(py);
    let names: Vec<String> = match rows.first() {
        Some(r) => r.keys().extract()?,
        None => {
            let mut v: Vec<String> = ["id", "parent", "depth", "move", "kind", "status"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            v.extend(snap.value_names.iter().cloned());
            v.extend(
                ["expanded", "n_children", "on_path", "terminal", "truncated"]
                    .iter()
                    .map(|s| s.to_string()),
            );
            v
        }
    };
    let numpy = py.import("numpy").ok();
    for name in names {
        let col = PyList::empty(py);
        for r in &rows {
            col.append(r.get_item(&name)?)?;
        }
        let value = match (&numpy, name.as_str()) {
            // A root's parent is None: keep that column a list of ids.
            (Some(np), n) if n != "parent" => np.call_method1("asarray", (col,))?,
            _ => col.into_any(),
        };
        out.set_item(name, value)?;
    }
    Ok(out.into_any())
}
