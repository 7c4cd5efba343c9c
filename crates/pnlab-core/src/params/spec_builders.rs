//! Constant constructors of [`ParamSpec`] for the descriptions that are
//! shared with a caller-chosen default (an experiment setting that
//! several experiments take, each with its own default): the function
//! that gives the description names only what varies, and the literal
//! is written once, here.

use super::{ListItem, ParamKind, ParamSpec};

impl ParamSpec {
    /// An integer parameter in `[min, max]` with `default`.
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: i64,
        help: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            kind: ParamKind::Int { min, max, default },
            help,
        }
    }

    /// A comma-separated list of reals, each in `[min, max]`, whose
    /// default is the text `default`.
    pub const fn real_list(
        name: &'static str,
        min: f64,
        max: f64,
        default: &'static str,
        help: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            kind: ParamKind::List {
                item: ListItem::Real { min, max },
                default,
            },
            help,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constructors_give_the_described_kind_range_and_default() {
        const N: ParamSpec = ParamSpec::int("n", 1, 9, 4, "help n");
        assert_eq!(N.name, "n");
        assert_eq!(N.help, "help n");
        assert_eq!(N.range_text(), "integer in [1, 9], default 4");
        assert!(N.parse_value("10").is_err());
        const L: ParamSpec = ParamSpec::real_list("eps", 0.5, 2.0, "1,1.5", "help eps");
        assert_eq!(
            L.range_text(),
            "comma-separated reals in [0.5, 2], default 1,1.5"
        );
        assert!(L.parse_value("1,3").is_err());
        assert!(L.parse_value("0.5, 2").is_ok());
    }
}
