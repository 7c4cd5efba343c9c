//! Rust values to Python objects and Python arguments to the engine's
//! `NAME=VALUE` text.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use serde_json::Value;

/// A JSON value as the Python object `json.loads` would give.
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_bound_py_any(py)?
            } else if let Some(u) = n.as_u64() {
                u.into_bound_py_any(py)?
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?
            }
        }
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(a) => {
            let list = PyList::empty(py);
            for item in a {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let dict = PyDict::new(py);
            for (k, item) in o {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// A serialisable Rust value as a Python object (through its JSON form).
pub fn to_py<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_to_py(py, &value)
}

/// A keyword argument's value as the text `--set NAME=VALUE` takes:
/// `True`/`False` as `true`/`false`, numbers as Python prints them, a list
/// or tuple as its items joined by commas, a string as it is.
pub fn setting_text(name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.is_instance_of::<PyBool>() {
        return Ok(if v.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .into());
    }
    if v.is_instance_of::<PyString>()
        || v.is_instance_of::<PyInt>()
        || v.is_instance_of::<PyFloat>()
    {
        return Ok(v.str()?.to_string());
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for item in v.try_iter()? {
            items.push(setting_text(name, &item?)?);
        }
        return Ok(items.join(","));
    }
    Err(PyValueError::new_err(format!(
        "{name}={}: expected a number, a string, True/False or a list of them",
        v.repr()?
    )))
}

/// `**kwargs` as `NAME=VALUE` pairs, in the order given.
pub fn settings(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            let text = setting_text(&name, &v)?;
            out.push((name, text));
        }
    }
    Ok(out)
}

/// A position or file argument: a `str`, or any path-like object.
pub fn path_or_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(s);
    }
    let os = v.py().import("os")?;
    os.call_method1("fspath", (v,))?.extract()
}
