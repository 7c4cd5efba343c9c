//! Parameter descriptions: every algorithm and every experiment describes
//! its parameters once (name, range, default, help) and the CLI flags
//! (`--set NAME=VALUE`, `pnlab experiment NAME --help`), the app's
//! parameter panel and the JSON output are all generated from that
//! description (docs/architecture.md, house rules).
//!
//! The module sits below the games and the searches: an algorithm's
//! options and a game's own search options (Connect6's relevance zones)
//! are both declared with [`options!`](crate::options) (see [`options`]).

pub mod bounds;
mod options;
mod spec_builders;

pub use options::{ParamField, UnknownChoice};

use std::collections::BTreeMap;
use std::fmt;

/// The type and range of one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A real number in `[min, max]`.
    Real {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
        /// The value when `--set` does not give one.
        default: f64,
    },
    /// An integer in `[min, max]`.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
        /// The value when `--set` does not give one.
        default: i64,
    },
    /// One of a fixed list of words.
    Choice {
        /// The accepted words, in the order the UI lists them.
        options: &'static [&'static str],
        /// The word used when `--set` does not give one (one of `options`).
        default: &'static str,
    },
    /// A real number in `[min, max]`, or the word `auto` (the default):
    /// the algorithm then takes the value from the position (e.g. the
    /// score range of the game).
    RealOrAuto {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// A comma-separated, non-empty list of items of one kind (e.g. the R
    /// values of a sweep, or the algorithms to compare). The value is kept
    /// as normalised text (items trimmed, joined by `,`); read it with
    /// [`Params::real_list`], [`Params::int_list`] or
    /// [`Params::choice_list`].
    List {
        /// What every item must be.
        item: ListItem,
        /// The list used when `--set` does not give one (must be valid).
        default: &'static str,
    },
    /// Free text (e.g. a file path), read with [`Params::text`].
    Text {
        /// The text used when `--set` does not give one.
        default: &'static str,
    },
}

/// The kind of the items of a [`ParamKind::List`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ListItem {
    /// A real number in `[min, max]`.
    Real {
        /// Smallest accepted item.
        min: f64,
        /// Largest accepted item.
        max: f64,
    },
    /// An integer in `[min, max]`.
    Int {
        /// Smallest accepted item.
        min: i64,
        /// Largest accepted item.
        max: i64,
    },
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
}

impl ListItem {
    /// Whether one (trimmed) item is of this kind and in range.
    fn accepts(&self, item: &str) -> bool {
        match *self {
            ListItem::Real { min, max } => item
                .parse::<f64>()
                .is_ok_and(|v| v.is_finite() && v >= min && v <= max),
            ListItem::Int { min, max } => item.parse::<i64>().is_ok_and(|v| v >= min && v <= max),
            ListItem::Choice(options) => options.contains(&item),
        }
    }

    /// The accepted items in words.
    fn range_text(&self) -> String {
        match *self {
            ListItem::Real { min, max } => format!("reals in [{}, {}]", num(min), num(max)),
            ListItem::Int { min, max } if max == i64::MAX => format!("integers ≥ {min}"),
            ListItem::Int { min, max } => format!("integers in [{min}, {max}]"),
            ListItem::Choice(options) => format!("items from {}", options.join("|")),
        }
    }
}

/// A range bound for help text: plain decimals, but very small or very
/// large magnitudes in exponent form (`1e-12`, not `0.000000000001`).
fn num(v: f64) -> String {
    if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e7) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// The options of a yes/no parameter: a [`ParamKind::Choice`] with these
/// options is read with [`Params::flag`]. `true` and `false` are the words
/// shown and recorded; [`FLAG_SYNONYMS`] are accepted on input too.
pub const FLAG: &[&str] = &["true", "false"];

/// Other spellings a yes/no parameter accepts, with the word each stands
/// for (`dfpn-fast`'s switches took `on`/`off`, and older command lines
/// and recorded parameters keep them).
pub const FLAG_SYNONYMS: &[(&str, &str)] = &[("on", "true"), ("off", "false")];

/// The word that asks a [`ParamKind::RealOrAuto`] parameter to take its
/// value from the position.
pub const AUTO: &str = "auto";

/// One parameter of an algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name used by `--set`, the JSON `params` object and the UI.
    pub name: &'static str,
    /// Its type, range and default.
    pub kind: ParamKind,
    /// One sentence for `--help` and the UI tooltip.
    pub help: &'static str,
}

impl ParamSpec {
    /// The default value.
    pub fn default_value(&self) -> ParamValue {
        match self.kind {
            ParamKind::Real { default, .. } => ParamValue::Real(default),
            ParamKind::Int { default, .. } => ParamValue::Int(default),
            ParamKind::Choice { default, .. } => ParamValue::Choice(default.to_string()),
            ParamKind::RealOrAuto { .. } => ParamValue::Choice(AUTO.to_string()),
            ParamKind::List { default, .. } | ParamKind::Text { default } => {
                ParamValue::Choice(default.to_string())
            }
        }
    }

    /// The accepted range in words, for error messages and help text.
    pub fn range_text(&self) -> String {
        match self.kind {
            ParamKind::Real { min, max, default } => {
                format!("real in [{}, {}], default {default}", num(min), num(max))
            }
            ParamKind::Int { min, max, default } => {
                if max == i64::MAX {
                    format!("integer ≥ {min}, default {default}")
                } else {
                    format!("integer in [{min}, {max}], default {default}")
                }
            }
            ParamKind::Choice { options, default } if options == FLAG => {
                format!("true|false (or on|off), default {default}")
            }
            ParamKind::Choice { options, default } => {
                format!("one of {}, default {default}", options.join("|"))
            }
            ParamKind::RealOrAuto { min, max } => {
                format!(
                    "real in [{}, {}] or {AUTO} (from the position), default {AUTO}",
                    num(min),
                    num(max)
                )
            }
            ParamKind::List { item, default } => {
                format!("comma-separated {}, default {default}", item.range_text())
            }
            ParamKind::Text { default: "" } => "text, default empty".into(),
            ParamKind::Text { default } => format!("text, default {default}"),
        }
    }

    /// Parses and range-checks a value given as text.
    pub fn parse_value(&self, text: &str) -> Result<ParamValue, ParamError> {
        let bad = || ParamError::BadValue {
            name: self.name.to_string(),
            value: text.to_string(),
            expected: self.range_text(),
        };
        match self.kind {
            ParamKind::Real { min, max, .. } => {
                let v: f64 = text.trim().parse().map_err(|_| bad())?;
                if !v.is_finite() || v < min || v > max {
                    return Err(bad());
                }
                Ok(ParamValue::Real(v))
            }
            ParamKind::Int { min, max, .. } => {
                let v: i64 = text.trim().parse().map_err(|_| bad())?;
                if v < min || v > max {
                    return Err(bad());
                }
                Ok(ParamValue::Int(v))
            }
            ParamKind::Choice { options, .. } => {
                let mut t = text.trim();
                if options == FLAG {
                    if let Some((_, word)) = FLAG_SYNONYMS.iter().find(|(s, _)| *s == t) {
                        t = word;
                    }
                }
                if options.contains(&t) {
                    Ok(ParamValue::Choice(t.to_string()))
                } else {
                    Err(bad())
                }
            }
            ParamKind::RealOrAuto { min, max } => {
                let t = text.trim();
                if t == AUTO {
                    return Ok(ParamValue::Choice(AUTO.to_string()));
                }
                let v: f64 = t.parse().map_err(|_| bad())?;
                if !v.is_finite() || v < min || v > max {
                    return Err(bad());
                }
                Ok(ParamValue::Real(v))
            }
            ParamKind::List { item, .. } => {
                let items: Vec<&str> = text.split(',').map(str::trim).collect();
                if text.trim().is_empty() {
                    return Err(bad());
                }
                if let Some(b) = items.iter().find(|t| !item.accepts(t)) {
                    return Err(ParamError::BadItem {
                        name: self.name.to_string(),
                        item: b.to_string(),
                        value: text.to_string(),
                        expected: self.range_text(),
                    });
                }
                Ok(ParamValue::Choice(items.join(",")))
            }
            ParamKind::Text { .. } => Ok(ParamValue::Choice(text.trim().to_string())),
        }
    }

    /// Whether `value` has this parameter's type and lies in its range.
    pub fn accepts(&self, value: &ParamValue) -> bool {
        match (self.kind, value) {
            (ParamKind::Real { min, max, .. }, ParamValue::Real(v)) => {
                v.is_finite() && *v >= min && *v <= max
            }
            (ParamKind::Int { min, max, .. }, ParamValue::Int(v)) => *v >= min && *v <= max,
            (ParamKind::Choice { options, .. }, ParamValue::Choice(v)) => {
                options.contains(&v.as_str())
            }
            (ParamKind::RealOrAuto { min, max }, ParamValue::Real(v)) => {
                v.is_finite() && *v >= min && *v <= max
            }
            (ParamKind::RealOrAuto { .. }, ParamValue::Choice(v)) => v == AUTO,
            (ParamKind::List { .. }, ParamValue::Choice(v)) => {
                self.parse_value(v).as_ref() == Ok(value)
            }
            (ParamKind::Text { .. }, ParamValue::Choice(_)) => true,
            _ => false,
        }
    }

    /// The kind in one word, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            ParamKind::Real { .. } => "real",
            ParamKind::Int { .. } => "integer",
            ParamKind::Choice { .. } => "choice",
            ParamKind::RealOrAuto { .. } => "real-or-auto",
            ParamKind::List { .. } => "list",
            ParamKind::Text { .. } => "text",
        }
    }
}

/// A parameter value.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// An integer parameter's value.
    Int(i64),
    /// A real parameter's value.
    Real(f64),
    /// A choice parameter's value (one of its options), or the text of a
    /// list or text parameter.
    Choice(String),
}

impl ParamValue {
    /// The kind in one word, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ParamValue::Int(_) => "integer",
            ParamValue::Real(_) => "real",
            ParamValue::Choice(_) => "choice",
        }
    }
}

/// What can be wrong with a parameter (the messages list what is valid, so
/// a user can fix the command without reading the docs).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// A name no parameter of the algorithm has.
    #[error("unknown parameter `{name}`; valid parameters: {valid}")]
    Unknown {
        /// The name given.
        name: String,
        /// Every valid name with its range.
        valid: String,
    },
    /// A value that does not parse or lies outside the range.
    #[error("invalid value `{value}` for parameter `{name}`: expected {expected}")]
    BadValue {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// The range in words.
        expected: String,
    },
    /// An item of a list that does not parse or lies outside the range.
    #[error("invalid item `{item}` in `{value}` for parameter `{name}`: expected {expected}")]
    BadItem {
        /// The parameter.
        name: String,
        /// The bad item.
        item: String,
        /// The whole text given.
        value: String,
        /// The range in words.
        expected: String,
    },
    /// A described parameter absent from a parameter set.
    #[error("parameter `{name}` missing; valid parameters: {valid}")]
    Missing {
        /// The parameter.
        name: String,
        /// Every valid name with its range.
        valid: String,
    },
    /// A game's search option, or an algorithm's parameter for some
    /// games only, given for a position of another game.
    #[error("parameter `{name}` applies to {games} positions only, not to {game}")]
    OtherGame {
        /// The parameter.
        name: String,
        /// The game of the position.
        game: &'static str,
        /// The games that have the option.
        games: String,
    },
    /// A value of another kind than the description says.
    #[error("parameter `{name}` holds a {found} value, expected {expected}")]
    WrongKind {
        /// The parameter.
        name: String,
        /// The described kind and range.
        expected: String,
        /// The kind found.
        found: &'static str,
    },
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Real(v) => write!(f, "{v}"),
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Choice(v) => f.write_str(v),
        }
    }
}

/// A set of parameter values for one algorithm. It is built only from the
/// algorithm's description ([`Params::defaults`], [`Params::from_pairs`],
/// [`Params::set`], [`Params::set_value`]), so every value in it has been
/// checked against its [`ParamSpec`]; the field is private to keep it so.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(transparent)]
pub struct Params(BTreeMap<String, ParamValue>);

impl Params {
    /// All defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Params {
        Params(
            specs
                .iter()
                .map(|s| (s.name.to_string(), s.default_value()))
                .collect(),
        )
    }

    /// Defaults overridden by `NAME=VALUE` pairs; an unknown name or a bad
    /// value is an error listing the valid names and ranges.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        specs: &[ParamSpec],
        pairs: &[(K, V)],
    ) -> Result<Params, ParamError> {
        let mut p = Params::defaults(specs);
        for (name, value) in pairs {
            p.set(specs, name.as_ref(), value.as_ref())?;
        }
        Ok(p)
    }

    /// The parameters of `specs` with the values `from` holds for them
    /// (a value that does not fit its spec is left at the default), and
    /// nothing else: a set narrowed to the parameters that apply.
    pub fn taken_from(specs: &[ParamSpec], from: &Params) -> Params {
        let mut out = Params::defaults(specs);
        for s in specs {
            if let Some(v) = from.get(s.name) {
                // Rejected values keep the default (see above).
                let _ = out.set_value(specs, s.name, v.clone());
            }
        }
        out
    }

    /// Adds the default of every parameter of `specs` that the set does
    /// not hold (a game's search options that a caller did not give).
    pub fn fill_defaults(&mut self, specs: &[ParamSpec]) {
        for s in specs {
            self.0
                .entry(s.name.to_string())
                .or_insert_with(|| s.default_value());
        }
    }

    /// Sets one value given as text, validating it against `specs`.
    pub fn set(&mut self, specs: &[ParamSpec], name: &str, value: &str) -> Result<(), ParamError> {
        let spec = find_spec(specs, name)?;
        self.0.insert(name.to_string(), spec.parse_value(value)?);
        Ok(())
    }

    /// Sets one typed value (the app's controls), validating it against
    /// `specs`.
    pub fn set_value(
        &mut self,
        specs: &[ParamSpec],
        name: &str,
        value: ParamValue,
    ) -> Result<(), ParamError> {
        let spec = find_spec(specs, name)?;
        // A yes/no value in its other spelling (`on`/`off`) is read as text.
        let value = match (&spec.kind, value) {
            (ParamKind::Choice { options, .. }, ParamValue::Choice(v)) if *options == FLAG => {
                spec.parse_value(&v)?
            }
            (_, value) => value,
        };
        if !spec.accepts(&value) {
            return Err(ParamError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                expected: spec.range_text(),
            });
        }
        self.0.insert(name.to_string(), value);
        Ok(())
    }

    /// Checks that every parameter of `specs` is present with a value of
    /// its kind and range (what [`registry::build`](super::registry::build)
    /// asks before it builds a search).
    pub fn check(&self, specs: &[ParamSpec]) -> Result<(), ParamError> {
        for spec in specs {
            let Some(v) = self.0.get(spec.name) else {
                return Err(ParamError::Missing {
                    name: spec.name.to_string(),
                    valid: describe(specs),
                });
            };
            if !spec.accepts(v) {
                return Err(ParamError::WrongKind {
                    name: spec.name.to_string(),
                    expected: format!("{} ({})", spec.kind_name(), spec.range_text()),
                    found: v.kind_name(),
                });
            }
        }
        Ok(())
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.0.get(name)
    }

    /// Every `(name, value)` in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// A real parameter (an integer value is widened).
    pub fn real(&self, name: &str) -> Result<f64, ParamError> {
        match self.0.get(name) {
            Some(ParamValue::Real(v)) => Ok(*v),
            Some(ParamValue::Int(v)) => Ok(*v as f64),
            other => Err(self.kind_error(name, "real", other)),
        }
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> Result<i64, ParamError> {
        match self.0.get(name) {
            Some(ParamValue::Int(v)) => Ok(*v),
            other => Err(self.kind_error(name, "integer", other)),
        }
    }

    /// A real-or-auto parameter: `None` for `auto`.
    pub fn real_or_auto(&self, name: &str) -> Result<Option<f64>, ParamError> {
        match self.0.get(name) {
            Some(ParamValue::Real(v)) => Ok(Some(*v)),
            Some(ParamValue::Int(v)) => Ok(Some(*v as f64)),
            Some(ParamValue::Choice(v)) if v == AUTO => Ok(None),
            other => Err(self.kind_error(name, "real or auto", other)),
        }
    }

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> Result<&str, ParamError> {
        match self.0.get(name) {
            Some(ParamValue::Choice(v)) => Ok(v),
            other => Err(self.kind_error(name, "choice", other)),
        }
    }

    /// A yes/no parameter (a choice of [`FLAG`]): true for `true`.
    pub fn flag(&self, name: &str) -> Result<bool, ParamError> {
        match self.0.get(name) {
            Some(ParamValue::Choice(v)) if v == "true" => Ok(true),
            Some(ParamValue::Choice(v)) if v == "false" => Ok(false),
            other => Err(self.kind_error(name, "true or false", other)),
        }
    }

    /// A text parameter (also the normalised text of a list).
    pub fn text(&self, name: &str) -> Result<&str, ParamError> {
        self.choice(name)
    }

    /// The items of a list parameter, as text.
    pub fn choice_list(&self, name: &str) -> Result<Vec<String>, ParamError> {
        Ok(self
            .text(name)?
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect())
    }

    /// The items of a list of reals.
    pub fn real_list(&self, name: &str) -> Result<Vec<f64>, ParamError> {
        self.parsed_list(name, "list of reals")
    }

    /// The items of a list of integers.
    pub fn int_list(&self, name: &str) -> Result<Vec<i64>, ParamError> {
        self.parsed_list(name, "list of integers")
    }

    /// The items of a list parsed as `T` (they were checked when set).
    fn parsed_list<T: std::str::FromStr>(
        &self,
        name: &str,
        expected: &str,
    ) -> Result<Vec<T>, ParamError> {
        self.choice_list(name)?
            .iter()
            .map(|t| {
                t.parse().map_err(|_| ParamError::WrongKind {
                    name: name.to_string(),
                    expected: expected.to_string(),
                    found: "text",
                })
            })
            .collect()
    }

    /// The error for a missing or wrongly typed value.
    fn kind_error(&self, name: &str, expected: &str, found: Option<&ParamValue>) -> ParamError {
        match found {
            None => ParamError::Missing {
                name: name.to_string(),
                valid: self.0.keys().cloned().collect::<Vec<_>>().join(", "),
            },
            Some(v) => ParamError::WrongKind {
                name: name.to_string(),
                expected: expected.to_string(),
                found: v.kind_name(),
            },
        }
    }

    /// `name=value,…` for titles and logs.
    pub fn summary(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The description of `name` in `specs`, or the error listing the valid ones.
pub fn find_spec<'a>(specs: &'a [ParamSpec], name: &str) -> Result<&'a ParamSpec, ParamError> {
    specs
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| ParamError::Unknown {
            name: name.to_string(),
            valid: describe(specs),
        })
}

/// `name (range)` for every spec; "none" when there are none.
pub fn describe(specs: &[ParamSpec]) -> String {
    if specs.is_empty() {
        return "none (this algorithm takes no parameters)".to_string();
    }
    specs
        .iter()
        .map(|s| format!("{} ({})", s.name, s.range_text()))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec::real("R", 0.0, 1.0, 0.65, ""),
        ParamSpec::choice("tie", &["leftmost", "deepest"], "leftmost", ""),
    ];

    #[test]
    fn defaults_and_overrides() {
        let p = Params::from_pairs(SPECS, &[("R", "0.5")]).unwrap();
        assert_eq!(p.real("R"), Ok(0.5));
        assert_eq!(p.choice("tie"), Ok("leftmost"));
    }

    #[test]
    fn unknown_name_lists_valid_ones() {
        let e = Params::from_pairs(SPECS, &[("Q", "1")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown parameter `Q`"), "{e}");
        assert!(e.contains("R (real in [0, 1]"), "{e}");
        assert!(e.contains("tie (one of leftmost|deepest"), "{e}");
    }

    #[test]
    fn accessors_report_missing_and_wrong_kinds() {
        let p = Params::defaults(SPECS);
        assert!(matches!(p.int("R"), Err(ParamError::WrongKind { .. })));
        assert!(matches!(p.real("tie"), Err(ParamError::WrongKind { .. })));
        assert!(matches!(p.choice("K"), Err(ParamError::Missing { .. })));
        assert!(p.check(SPECS).is_ok());
        let mut q = p.clone();
        assert!(q
            .set_value(SPECS, "R", ParamValue::Choice("x".into()))
            .is_err());
        assert!(Params::default().check(SPECS).is_err());
    }

    #[test]
    fn real_or_auto_takes_a_number_or_auto() {
        const SPECS: &[ParamSpec] = &[ParamSpec::real_or_auto("L", -10.0, 10.0, "")];
        let p = Params::defaults(SPECS);
        assert_eq!(p.real_or_auto("L"), Ok(None));
        assert!(p.check(SPECS).is_ok());
        let p = Params::from_pairs(SPECS, &[("L", "-2.5")]).unwrap();
        assert_eq!(p.real_or_auto("L"), Ok(Some(-2.5)));
        assert!(Params::from_pairs(SPECS, &[("L", "11")]).is_err());
        assert!(Params::from_pairs(SPECS, &[("L", "automatic")]).is_err());
    }

    #[test]
    fn out_of_range_is_rejected() {
        assert!(Params::from_pairs(SPECS, &[("R", "1.5")]).is_err());
        assert!(Params::from_pairs(SPECS, &[("R", "nan")]).is_err());
        assert!(Params::from_pairs(SPECS, &[("tie", "middle")]).is_err());
    }

    const LISTS: &[ParamSpec] = &[
        ParamSpec::real_list("r", 0.0, 1.0, "1,0.5", ""),
        ParamSpec::list_of(ParamSpec::int("sizes", 3, 11, 7, ""), "7,8", ""),
        ParamSpec::list_of(
            ParamSpec::choice("algos", &["pns", "dfpn"], "pns", ""),
            "pns,dfpn",
            "",
        ),
        ParamSpec::text("file", "a.toml", ""),
        ParamSpec::choice("climb", FLAG, "true", ""),
    ];

    fn set(name: &str, value: &str) -> Result<Params, ParamError> {
        Params::from_pairs(LISTS, &[(name, value)])
    }

    #[test]
    fn list_defaults_parse_into_items() {
        let p = Params::defaults(LISTS);
        assert!(p.check(LISTS).is_ok());
        assert_eq!(p.real_list("r"), Ok(vec![1.0, 0.5]));
        assert_eq!(p.int_list("sizes"), Ok(vec![7, 8]));
        assert_eq!(
            p.choice_list("algos"),
            Ok(vec!["pns".to_string(), "dfpn".to_string()])
        );
        assert_eq!(p.text("file"), Ok("a.toml"));
        assert_eq!(p.flag("climb"), Ok(true));
    }

    #[test]
    fn lists_are_normalised_and_checked_item_by_item() {
        let p = set("r", " 0.25 , 1 ").unwrap();
        assert_eq!(p.get("r"), Some(&ParamValue::Choice("0.25,1".into())));
        assert_eq!(p.real_list("r"), Ok(vec![0.25, 1.0]));
        let e = set("r", "0.5,1.5").unwrap_err();
        assert!(
            matches!(&e, ParamError::BadItem { item, .. } if item == "1.5"),
            "{e}"
        );
        assert!(e.to_string().contains("reals in [0, 1]"), "{e}");
        assert_eq!(num(1e-12), "1e-12");
        assert_eq!(num(1e9), "1e9");
        assert_eq!(num(0.25), "0.25");
        let e = set("algos", "pns,uct").unwrap_err().to_string();
        assert!(e.contains("`uct`") && e.contains("pns|dfpn"), "{e}");
        assert!(set("sizes", "7,8.5").is_err());
        assert!(set("sizes", "2").is_err());
        assert!(set("sizes", "11").is_ok());
        assert!(set("r", "").is_err());
        assert!(set("r", "0.5,").is_err());
        assert!(set("r", "nan").is_err());
    }

    #[test]
    fn text_and_flags() {
        assert_eq!(set("file", " b c ").unwrap().text("file"), Ok("b c"));
        assert_eq!(set("climb", "false").unwrap().flag("climb"), Ok(false));
        assert!(set("climb", "1").is_err());
        let p = Params::defaults(LISTS);
        assert!(matches!(p.flag("file"), Err(ParamError::WrongKind { .. })));
        assert!(matches!(
            p.real_list("algos"),
            Err(ParamError::WrongKind { .. })
        ));
    }

    /// Yes/no parameters show and record `true`/`false` and take `on`/`off`
    /// as well; any other word is an error naming the parameter and the
    /// words it takes; `on` is no word for a choice that is not yes/no.
    #[test]
    fn flags_take_both_spellings_and_refuse_other_words() {
        assert_eq!(set("climb", "on").unwrap().flag("climb"), Ok(true));
        assert_eq!(set("climb", "off").unwrap().flag("climb"), Ok(false));
        assert_eq!(
            set("climb", " off ").unwrap().get("climb"),
            Some(&ParamValue::Choice("false".into()))
        );
        assert_eq!(set("climb", "true").unwrap().flag("climb"), Ok(true));
        for word in ["yes", "1", "On", "maybe", ""] {
            let e = set("climb", word).unwrap_err().to_string();
            assert!(e.contains("`climb`"), "{e}");
            assert!(e.contains("true|false") && e.contains("on|off"), "{e}");
        }
        let spec = ParamSpec::choice("order", &["game", "captures-first"], "game", "h");
        assert!(spec.parse_value("on").is_err());
        assert_eq!(
            spec.range_text(),
            "one of game|captures-first, default game"
        );
    }

    #[test]
    fn typed_list_values_are_checked_like_text() {
        let mut p = Params::defaults(LISTS);
        assert!(p
            .set_value(LISTS, "r", ParamValue::Choice("0.1,0.2".into()))
            .is_ok());
        assert!(p
            .set_value(LISTS, "r", ParamValue::Choice("0.1, 2".into()))
            .is_err());
        assert!(p.set_value(LISTS, "r", ParamValue::Real(0.1)).is_err());
        assert!(p
            .set_value(LISTS, "file", ParamValue::Choice(String::new()))
            .is_ok());
    }
}
