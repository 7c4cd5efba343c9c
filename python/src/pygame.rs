//! Games written in Python: any object with the game protocol of
//! docs/python.md (`legal_moves`, `play`, `is_terminal`, `result`, and
//! optionally `to_move`, `key`, `move_name`, `evaluate`, `score_range`;
//! `render` is Python's own, for pictures) becomes an engine
//! position ([`pnlab::game::external`]), so every registry algorithm
//! searches it.
//!
//! The searches run with the interpreter released; each callback attaches
//! to it only for the call. A position asks the object each question once
//! (its facts are kept), so a node costs one `is_terminal` (and `result`
//! or `legal_moves`), one `key` and, for the moves played from it, one
//! `play` each. A callback that raises is recorded in the game's
//! [`Shared`] slot and the position counts as finished; the stepping loops
//! look at the slot between slices and raise the error.

use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyInt, PyList, PyString, PyTuple};

use pnlab::game::external::{External, ExternalState};
use pnlab::game::mix::{finalize, zobrist_key, GOLDEN};
use pnlab::game::{Outcome, Player};

/// The methods every game object must have.
const REQUIRED: [&str; 4] = ["legal_moves", "play", "is_terminal", "result"];

/// What every position of one Python game shares: the game's name, which
/// optional methods it has, and the first error a callback raised.
pub struct Shared {
    name: String,
    has_to_move: bool,
    has_key: bool,
    has_move_name: bool,
    has_evaluate: bool,
    has_score_range: bool,
    error: Mutex<Option<PyErr>>,
}

impl Shared {
    /// Keeps the first error a callback raised (later ones follow from it).
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// The error a callback raised, if any (taken: asked once).
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// The facts of a position, asked of the object once.
struct Facts {
    outcome: Option<Outcome>,
    moves: Vec<Py<PyAny>>,
}

/// One position of a Python game.
pub struct PyState {
    obj: Py<PyAny>,
    shared: Arc<Shared>,
    /// The player to move when the object has no `to_move`: the first
    /// player at the root, then turns alternate.
    alternate: Player,
    /// The key when the object has no `key`: a hash of the move indices
    /// from the root (so no two positions are merged).
    path_key: u64,
    facts: OnceLock<Facts>,
    player: OnceLock<Player>,
    key: OnceLock<u64>,
}

impl fmt::Debug for PyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PyState({})", self.shared.name)
    }
}

/// Whether `obj` follows the game protocol (has its four required
/// methods): what `solve` and `Search` check to tell a game object from a
/// file name.
pub fn is_game(obj: &Bound<'_, PyAny>) -> bool {
    REQUIRED
        .iter()
        .all(|m| obj.hasattr(*m).unwrap_or(false) && !obj.is_instance_of::<PyString>())
}

/// The shared slot of a Python game's position, when `p` is one.
pub fn shared_of(p: &pnlab::game::AnyPosition) -> Option<Arc<Shared>> {
    match p.shown() {
        pnlab::game::AnyPosition::External(e) => e
            .state()
            .as_any()
            .downcast_ref::<PyState>()
            .map(|s| s.shared.clone()),
        _ => None,
    }
}

/// The root position of the game `obj` (checked against the protocol).
pub fn root(obj: &Bound<'_, PyAny>) -> PyResult<External> {
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|m| !obj.hasattr(*m).unwrap_or(false))
        .collect();
    let ty = obj.get_type();
    let name: String = ty.qualname()?.extract()?;
    if !missing.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "{name} is not a pnlab game: it lacks {} (a game has legal_moves(), play(move), is_terminal() and result(); see docs/python.md)",
            missing.join(", ")
        )));
    }
    let shared = Arc::new(Shared {
        name,
        has_to_move: obj.hasattr("to_move")?,
        has_key: obj.hasattr("key")?,
        has_move_name: obj.hasattr("move_name")?,
        has_evaluate: obj.hasattr("evaluate")?,
        has_score_range: obj.hasattr("score_range")?,
        error: Mutex::new(None),
    });
    let state = PyState::new(obj.clone().unbind(), shared, Player::First, GOLDEN);
    Ok(External::new(Arc::new(state)))
}

/// A game's `result()` as a score (first player's view): an int, or a
/// float rounded to the nearest int with its sign kept (0.5 is a win).
fn score_of(v: &Bound<'_, PyAny>) -> PyResult<i32> {
    if v.is_instance_of::<PyInt>() {
        let x: i64 = v.extract()?;
        return Ok(x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32);
    }
    if v.is_instance_of::<PyFloat>() {
        let x: f64 = v.extract()?;
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "result() returned {x}: expected a finite number"
            )));
        }
        let r = x.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
        return Ok(if r == 0 && x != 0.0 {
            x.signum() as i32
        } else {
            r
        });
    }
    Err(PyTypeError::new_err(format!(
        "result() returned {}: expected a number from the first player's view (> 0 a win for the first player, < 0 for the second, 0 a draw)",
        v.repr()?
    )))
}

/// A 64-bit hash of a `key()` value that does not change between runs
/// (Python's own `hash` of a string does): ints, strings, bytes, bools,
/// None, and tuples or lists of them.
fn key_hash(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    fn bytes_hash(tag: u64, b: &[u8]) -> u64 {
        let mut h = finalize(tag ^ b.len() as u64);
        for chunk in b.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = finalize(h ^ u64::from_le_bytes(word).wrapping_mul(GOLDEN));
        }
        h
    }
    if v.is_none() {
        return Ok(zobrist_key(1));
    }
    if v.is_instance_of::<PyInt>() {
        // Any size: the low 64 bits and the sign, mixed.
        if let Ok(x) = v.extract::<i64>() {
            return Ok(finalize(x as u64 ^ zobrist_key(2)));
        }
        let text: String = v.str()?.extract()?;
        return Ok(bytes_hash(3, text.as_bytes()));
    }
    if v.is_instance_of::<PyString>() {
        let s: String = v.extract()?;
        return Ok(bytes_hash(4, s.as_bytes()));
    }
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(bytes_hash(5, b.as_bytes()));
    }
    if v.is_instance_of::<PyTuple>() || v.is_instance_of::<PyList>() {
        let mut h = zobrist_key(6);
        for item in v.try_iter()? {
            h = finalize(h.wrapping_mul(GOLDEN) ^ key_hash(&item?)?);
        }
        return Ok(h);
    }
    if v.is_instance_of::<PyFloat>() {
        let x: f64 = v.extract()?;
        return Ok(finalize(x.to_bits() ^ zobrist_key(7)));
    }
    Err(PyTypeError::new_err(format!(
        "key() returned {}: expected an int, a str, bytes or a tuple of them (hashed the same way in every run)",
        v.repr()?
    )))
}

impl PyState {
    fn new(obj: Py<PyAny>, shared: Arc<Shared>, alternate: Player, path_key: u64) -> PyState {
        PyState {
            obj,
            shared,
            alternate,
            path_key,
            facts: OnceLock::new(),
            player: OnceLock::new(),
            key: OnceLock::new(),
        }
    }

    /// Runs a callback with the interpreter; a raised error is recorded
    /// and `fallback` answers instead.
    fn call<T>(&self, fallback: T, f: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> T {
        Python::attach(|py| match f(self.obj.bind(py)) {
            Ok(v) => v,
            Err(e) => {
                self.shared.fail(e);
                fallback
            }
        })
    }

    fn facts(&self) -> &Facts {
        self.facts.get_or_init(|| {
            let finished = Facts {
                outcome: Some(Outcome::DRAW),
                moves: Vec::new(),
            };
            self.call(finished, |o| {
                let py = o.py();
                if o.call_method0(intern!(py, "is_terminal"))?.is_truthy()? {
                    let score = score_of(&o.call_method0(intern!(py, "result"))?)?;
                    return Ok(Facts {
                        outcome: Some(Outcome { score }),
                        moves: Vec::new(),
                    });
                }
                let mut moves = Vec::new();
                for m in o.call_method0(intern!(py, "legal_moves"))?.try_iter()? {
                    moves.push(m?.unbind());
                }
                if moves.is_empty() {
                    return Err(PyValueError::new_err(format!(
                        "{}: legal_moves() returned no move where is_terminal() is False, at {}",
                        self.shared.name,
                        o.str()?
                    )));
                }
                Ok(Facts {
                    outcome: None,
                    moves,
                })
            })
        })
    }
}

impl ExternalState for PyState {
    fn game_name(&self) -> String {
        self.shared.name.clone()
    }

    fn to_move(&self) -> Player {
        if !self.shared.has_to_move {
            return self.alternate;
        }
        *self.player.get_or_init(|| {
            self.call(self.alternate, |o| {
                let v = o.call_method0(intern!(o.py(), "to_move"))?;
                match v.extract::<i64>() {
                    Ok(0) => Ok(Player::First),
                    Ok(1) => Ok(Player::Second),
                    _ => Err(PyValueError::new_err(format!(
                        "to_move() returned {}: expected 0 (the first player) or 1 (the second)",
                        v.repr()?
                    ))),
                }
            })
        })
    }

    fn move_count(&self) -> usize {
        self.facts().moves.len()
    }

    fn move_name(&self, index: usize) -> String {
        let Some(m) = self.facts().moves.get(index) else {
            return format!("#{index}");
        };
        self.call(format!("#{index}"), |o| {
            let py = o.py();
            let name = if self.shared.has_move_name {
                o.call_method1(intern!(py, "move_name"), (m.bind(py),))?
            } else {
                m.bind(py).str()?.into_any()
            };
            name.extract::<String>()
        })
    }

    fn play(&self, index: usize) -> Arc<dyn ExternalState> {
        let path_key = finalize(self.path_key.wrapping_mul(GOLDEN) ^ (index as u64 + 1));
        let next_player = self.to_move().other();
        let child = Python::attach(|py| {
            let o = self.obj.bind(py);
            let played = match self.facts().moves.get(index) {
                Some(m) => o.call_method1(intern!(py, "play"), (m.bind(py),)),
                None => Err(PyValueError::new_err(format!(
                    "move #{index} is not among the legal moves"
                ))),
            };
            match played {
                Ok(c) if c.is_none() => Err(PyTypeError::new_err(format!(
                    "{}.play(move) returned None: it must return the position after the move and leave its own position as it was",
                    self.shared.name
                ))),
                Ok(c) => Ok(c.unbind()),
                Err(e) => Err(e),
            }
        });
        let obj = match child {
            Ok(c) => c,
            Err(e) => {
                self.shared.fail(e);
                // A finished stand-in: the search stops at the next look.
                let s = PyState::new(
                    Python::attach(|py| self.obj.clone_ref(py)),
                    self.shared.clone(),
                    next_player,
                    path_key,
                );
                let _ = s.facts.set(Facts {
                    outcome: Some(Outcome::DRAW),
                    moves: Vec::new(),
                });
                return Arc::new(s);
            }
        };
        Arc::new(PyState::new(
            obj,
            self.shared.clone(),
            next_player,
            path_key,
        ))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.facts().outcome
    }

    fn key(&self) -> u64 {
        let side = match self.to_move() {
            Player::First => 0,
            Player::Second => zobrist_key(0x5059_0000),
        };
        if !self.shared.has_key {
            return self.path_key ^ side;
        }
        *self.key.get_or_init(|| {
            let k = self.call(self.path_key, |o| {
                key_hash(&o.call_method0(intern!(o.py(), "key"))?)
            });
            k ^ side
        })
    }

    fn notation(&self) -> String {
        self.call(self.shared.name.clone(), |o| Ok(o.str()?.to_string()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn score_range(&self) -> Option<(f64, f64)> {
        if !self.shared.has_score_range {
            return None;
        }
        self.call(None, |o| {
            let v = o.call_method0(intern!(o.py(), "score_range"))?;
            let (low, high): (f64, f64) = v.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "score_range() returned {}: expected (lowest, highest) final scores",
                    v.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            Ok(Some((low, high)))
        })
    }

    fn evaluate(&self) -> Option<i32> {
        if !self.shared.has_evaluate {
            return None;
        }
        self.call(Some(0), |o| {
            let v = o.call_method0(intern!(o.py(), "evaluate"))?;
            Ok(Some(score_of(&v).map_err(|_| {
                PyTypeError::new_err(format!(
                    "evaluate() returned {}: expected a number from the first player's view",
                    v.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?))
        })
    }
}
