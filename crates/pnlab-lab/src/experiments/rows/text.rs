//! Text forms of a few cells, so the CSV files keep the text they have
//! always had while the typed rows keep numbers: each form writes its
//! text to a human-readable serializer (the CSV writer) and its value to
//! the others (the typed cells of [`super::cells`]).

use serde::{Serialize, Serializer};

/// A real number written as Rust shows it (`1`, `0.25`, `inf`, `NaN`),
/// not in the shortest round-trip form the CSV writer would pick (`1.0`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Real(pub f64);

impl Serialize for Real {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(&self.0)
        } else {
            s.serialize_f64(self.0)
        }
    }
}

/// A real number written with `D` decimals (`inf` stays `inf`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fixed<const D: usize>(pub f64);

impl<const D: usize> Serialize for Fixed<D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(&format_args!("{:.*}", D, self.0))
        } else {
            s.serialize_f64(self.0)
        }
    }
}

/// An absent value written as `word` in the CSV (and missing in the typed
/// row).
fn or_word<T: Serialize, S: Serializer>(
    v: &Option<T>,
    word: &str,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => v.serialize(s),
        None if s.is_human_readable() => s.serialize_str(word),
        None => s.serialize_none(),
    }
}

/// `#[serde(serialize_with = "or_none")]`: an absent value is `none`.
pub fn or_none<T: Serialize, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    or_word(v, "none", s)
}

/// `#[serde(serialize_with = "or_unknown")]`: an absent value is
/// `unknown`.
pub fn or_unknown<T: Serialize, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    or_word(v, "unknown", s)
}
