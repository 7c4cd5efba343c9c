//! Constant constructors of [`ParamSpec`]: a description written outside
//! the [`options!`](crate::options) declarations (a setting several
//! algorithms or experiments share, a function that gives the description
//! with a caller-chosen default, a test fixture) names only its name,
//! range, default and help, and the struct literal is written once, here.

use super::{ListItem, ParamKind, ParamSpec};

impl ParamSpec {
    /// The one place the struct is put together from its three parts.
    const fn described(name: &'static str, kind: ParamKind, help: &'static str) -> ParamSpec {
        ParamSpec { name, kind, help }
    }

    /// An integer parameter in `[min, max]` with `default`.
    pub const fn int(
        name: &'static str,
        min: i64,
        max: i64,
        default: i64,
        help: &'static str,
    ) -> ParamSpec {
        Self::described(name, ParamKind::Int { min, max, default }, help)
    }

    /// A real parameter in `[min, max]` with `default`.
    pub const fn real(
        name: &'static str,
        min: f64,
        max: f64,
        default: f64,
        help: &'static str,
    ) -> ParamSpec {
        Self::described(name, ParamKind::Real { min, max, default }, help)
    }

    /// A real parameter in `[min, max]` that may also be left to the
    /// position ([`AUTO`](super::AUTO), its default).
    pub const fn real_or_auto(
        name: &'static str,
        min: f64,
        max: f64,
        help: &'static str,
    ) -> ParamSpec {
        Self::described(name, ParamKind::RealOrAuto { min, max }, help)
    }

    /// One word of `options` (shown in that order), `default` among them.
    pub const fn choice(
        name: &'static str,
        options: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> ParamSpec {
        Self::described(name, ParamKind::Choice { options, default }, help)
    }

    /// Free text (a file path, say) with `default`.
    pub const fn text(name: &'static str, default: &'static str, help: &'static str) -> ParamSpec {
        Self::described(name, ParamKind::Text { default }, help)
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
        let item = ListItem::Real { min, max };
        Self::described(name, ParamKind::List { item, default }, help)
    }

    /// A list setting of `spec`'s values under `spec`'s name, its items of
    /// `spec`'s kind and range: an experiment that sweeps an algorithm's
    /// parameter takes the range from the algorithm's own declaration
    /// instead of declaring it again. `spec` is a real, integer or choice
    /// parameter (anything else stops the build: this is evaluated in a
    /// constant).
    pub const fn list_of(spec: ParamSpec, default: &'static str, help: &'static str) -> ParamSpec {
        let item = match spec.kind {
            ParamKind::Real { min, max, .. } => ListItem::Real { min, max },
            ParamKind::Int { min, max, .. } => ListItem::Int { min, max },
            ParamKind::Choice { options, .. } => ListItem::Choice(options),
            _ => panic!("ParamSpec::list_of: a real, integer or choice parameter"),
        };
        Self::described(spec.name, ParamKind::List { item, default }, help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamValue, FLAG};

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

    #[test]
    fn a_real_is_range_checked_and_defaults() {
        const R: ParamSpec = ParamSpec::real("theta", 1e-9, 0.5, 0.01, "help theta");
        assert_eq!((R.name, R.help), ("theta", "help theta"));
        assert_eq!(R.range_text(), "real in [1e-9, 0.5], default 0.01");
        assert!(R.parse_value("0.6").is_err());
        assert_eq!(R.parse_value("0.5"), Ok(ParamValue::Real(0.5)));
    }

    #[test]
    fn real_or_auto_defaults_to_auto() {
        const L: ParamSpec = ParamSpec::real_or_auto("L", -10.0, 10.0, "help L");
        assert_eq!((L.name, L.help), ("L", "help L"));
        assert_eq!(
            L.range_text(),
            "real in [-10, 10] or auto (from the position), default auto"
        );
        assert!(L.parse_value("11").is_err());
    }

    #[test]
    fn a_choice_takes_its_words_only() {
        const C: ParamSpec = ParamSpec::choice("tie", &["leftmost", "deepest"], "leftmost", "h");
        assert_eq!((C.name, C.help), ("tie", "h"));
        assert_eq!(C.range_text(), "one of leftmost|deepest, default leftmost");
        assert!(C.parse_value("middle").is_err());
        const F: ParamSpec = ParamSpec::choice("climb", FLAG, "true", "h");
        assert_eq!(F.range_text(), "true|false (or on|off), default true");
    }

    #[test]
    fn text_keeps_its_default() {
        const T: ParamSpec = ParamSpec::text("file", "a.toml", "help file");
        assert_eq!((T.name, T.help), ("file", "help file"));
        assert_eq!(T.range_text(), "text, default a.toml");
        assert_eq!(
            ParamSpec::text("f", "", "").range_text(),
            "text, default empty"
        );
    }
}
