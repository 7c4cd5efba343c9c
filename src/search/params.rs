//! Parameter descriptions: every algorithm describes its parameters once
//! (name, range, default, help) and the CLI flags (`--set NAME=VALUE`), the
//! app's parameter panel and the JSON output are all generated from that
//! description (PRODUCT.md, house rules).

use std::collections::BTreeMap;
use std::fmt;

/// The type and range of one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A real number in `[min, max]`.
    Real { min: f64, max: f64, default: f64 },
    /// An integer in `[min, max]`.
    Int { min: i64, max: i64, default: i64 },
    /// One of a fixed list of words.
    Choice {
        options: &'static [&'static str],
        default: &'static str,
    },
}

/// One parameter of an algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name used by `--set`, the JSON `params` object and the UI.
    pub name: &'static str,
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
        }
    }

    /// The accepted range in words, for error messages and help text.
    pub fn range_text(&self) -> String {
        match self.kind {
            ParamKind::Real { min, max, default } => {
                format!("real in [{min}, {max}], default {default}")
            }
            ParamKind::Int { min, max, default } => {
                if max == i64::MAX {
                    format!("integer ≥ {min}, default {default}")
                } else {
                    format!("integer in [{min}, {max}], default {default}")
                }
            }
            ParamKind::Choice { options, default } => {
                format!("one of {}, default {default}", options.join("|"))
            }
        }
    }

    /// Parses and range-checks a value given as text.
    pub fn parse_value(&self, text: &str) -> Result<ParamValue, String> {
        let bad = || {
            format!(
                "invalid value `{text}` for parameter `{}`: expected {}",
                self.name,
                self.range_text()
            )
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
                let t = text.trim();
                if options.contains(&t) {
                    Ok(ParamValue::Choice(t.to_string()))
                } else {
                    Err(bad())
                }
            }
        }
    }
}

/// A parameter value.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Real(f64),
    Choice(String),
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

/// A complete, validated set of parameter values for one algorithm (every
/// described parameter present).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[serde(transparent)]
pub struct Params(pub BTreeMap<String, ParamValue>);

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
    pub fn from_pairs(specs: &[ParamSpec], pairs: &[(String, String)]) -> Result<Params, String> {
        let mut p = Params::defaults(specs);
        for (name, value) in pairs {
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                return Err(format!(
                    "unknown parameter `{name}`; valid parameters: {}",
                    describe(specs)
                ));
            };
            p.0.insert(name.clone(), spec.parse_value(value)?);
        }
        Ok(p)
    }

    /// Sets one value given as text, validating it against `specs`.
    pub fn set(&mut self, specs: &[ParamSpec], name: &str, value: &str) -> Result<(), String> {
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            return Err(format!(
                "unknown parameter `{name}`; valid parameters: {}",
                describe(specs)
            ));
        };
        self.0.insert(name.to_string(), spec.parse_value(value)?);
        Ok(())
    }

    /// A real parameter (an integer value is widened).
    pub fn real(&self, name: &str) -> f64 {
        match self.0.get(name) {
            Some(ParamValue::Real(v)) => *v,
            Some(ParamValue::Int(v)) => *v as f64,
            _ => panic!("parameter `{name}` is not a described real parameter"),
        }
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> i64 {
        match self.0.get(name) {
            Some(ParamValue::Int(v)) => *v,
            _ => panic!("parameter `{name}` is not a described integer parameter"),
        }
    }

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> &str {
        match self.0.get(name) {
            Some(ParamValue::Choice(v)) => v,
            _ => panic!("parameter `{name}` is not a described choice parameter"),
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
        ParamSpec {
            name: "R",
            kind: ParamKind::Real {
                min: 0.0,
                max: 1.0,
                default: 0.65,
            },
            help: "",
        },
        ParamSpec {
            name: "tie",
            kind: ParamKind::Choice {
                options: &["leftmost", "deepest"],
                default: "leftmost",
            },
            help: "",
        },
    ];

    #[test]
    fn defaults_and_overrides() {
        let p = Params::from_pairs(SPECS, &[("R".into(), "0.5".into())]).unwrap();
        assert_eq!(p.real("R"), 0.5);
        assert_eq!(p.choice("tie"), "leftmost");
    }

    #[test]
    fn unknown_name_lists_valid_ones() {
        let e = Params::from_pairs(SPECS, &[("Q".into(), "1".into())]).unwrap_err();
        assert!(e.contains("unknown parameter `Q`"), "{e}");
        assert!(e.contains("R (real in [0, 1]"), "{e}");
        assert!(e.contains("tie (one of leftmost|deepest"), "{e}");
    }

    #[test]
    fn out_of_range_is_rejected() {
        assert!(Params::from_pairs(SPECS, &[("R".into(), "1.5".into())]).is_err());
        assert!(Params::from_pairs(SPECS, &[("R".into(), "nan".into())]).is_err());
        assert!(Params::from_pairs(SPECS, &[("tie".into(), "middle".into())]).is_err());
    }
}
