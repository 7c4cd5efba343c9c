//! Typed options written once: [`options!`](crate::options) declares an
//! options struct and generates from that one declaration its
//! [`ParamSpec`](super::ParamSpec) list (names, kinds, ranges, defaults,
//! help), its reading from a checked [`Params`] set, its `Default` and its
//! writing back to a `Params` set (for records and display);
//! [`choice_enum!`](crate::choice_enum) declares an enumerated option as a
//! Rust enum whose words are parsed exactly (an unknown word is an error
//! that lists the allowed ones).
//!
//! ```
//! pnlab_core::choice_enum! {
//!     /// How ties are broken.
//!     pub enum Tie {
//!         /// The leftmost child.
//!         Leftmost = "leftmost",
//!         /// The deepest one.
//!         Deepest = "deepest",
//!     }
//! }
//! pnlab_core::options! {
//!     /// A search's options.
//!     #[derive(Clone, Copy, Debug, PartialEq)]
//!     pub struct Example {
//!         /// The weight R.
//!         pub r: f64 => { "R", real(0.0, 1.0) = 0.65, "Weight of the proof numbers" },
//!         /// The tie rule.
//!         pub tie: Tie => { "tie", choice = Tie::Leftmost, "Tie rule among equal children" },
//!     }
//! }
//! let p = pnlab_core::params::Params::from_pairs(Example::PARAMS, &[("tie", "deepest")]).unwrap();
//! assert_eq!(Example::from_params(&p).unwrap(), Example { r: 0.65, tie: Tie::Deepest });
//! assert!("middle".parse::<Tie>().unwrap_err().to_string().contains("leftmost, deepest"));
//! ```
//!
//! A field's description is either written in braces — `{ "NAME",
//! KIND = DEFAULT, "help" }` with KIND one of `real(min, max)`,
//! `int(min, max)`, `choice` (a [`choice_enum!`](crate::choice_enum) type),
//! `flag` (a `bool`), `real_or_auto(min, max)` (an `Option<f64>`, default
//! `auto`, written without `= DEFAULT`), `text` (a `String`) or a
//! comma-separated list — `real_list(min, max)` (`Vec<f64>`),
//! `int_list(min, max)` (`Vec<i64>`), `choice_list(WORDS)`
//! (`Vec<String>`), each with its default written as text — or the name
//! of a `ParamSpec` constant that several algorithms share (playouts' `K`,
//! df-pn's `threads`), or a parenthesised constant expression giving one
//! (`(positions_setting(30))`, a shared description with this user's
//! default), so that a parameter shared by several searches is still
//! described once. Fields that are not parameters (a recording limit
//! that callers set in code) follow in an `extra { field: Type = DEFAULT }`
//! block after the struct.

use super::{ParamError, ParamValue, Params, AUTO};

/// A Rust type an options field can have: how its value is read from a
/// checked parameter set and written back.
pub trait ParamField: Sized {
    /// The value of parameter `name` in `p` (checked against its
    /// description when `p` was built).
    fn read(p: &Params, name: &str) -> Result<Self, ParamError>;
    /// The value as a parameter value.
    fn to_value(&self) -> ParamValue;
}

/// The field types one [`Params`] accessor reads (`TYPE => accessor`),
/// each with how its value is written back (`|v| VALUE`).
macro_rules! param_fields {
    ($($(#[$m:meta])* $t:ty => $read:ident, |$v:ident| $write:expr;)*) => {$(
        $(#[$m])*
        impl ParamField for $t {
            fn read(p: &Params, name: &str) -> Result<$t, ParamError> {
                p.$read(name)
            }
            fn to_value(&self) -> ParamValue {
                let $v = self;
                $write
            }
        }
    )*};
}

param_fields! {
    f64 => real, |v| ParamValue::Real(*v);
    bool => flag, |v| ParamValue::Choice(v.to_string());
    /// A real-or-`auto` parameter: `None` is `auto`.
    Option<f64> => real_or_auto, |v| match v {
        Some(v) => ParamValue::Real(*v),
        None => ParamValue::Choice(AUTO.to_string()),
    };
    /// A list of words (kind `choice_list`).
    Vec<String> => choice_list, |v| list_value(v);
    /// A list of reals (kind `real_list`).
    Vec<f64> => real_list, |v| list_value(v);
    /// A list of integers (kind `int_list`).
    Vec<i64> => int_list, |v| list_value(v);
}

/// A list written back as its comma-separated text.
fn list_value<T: ToString>(items: &[T]) -> ParamValue {
    ParamValue::Choice(items.iter().map(T::to_string).collect::<Vec<_>>().join(","))
}

/// A text parameter (kind `text`).
impl ParamField for String {
    fn read(p: &Params, name: &str) -> Result<String, ParamError> {
        p.text(name).map(str::to_string)
    }
    fn to_value(&self) -> ParamValue {
        ParamValue::Choice(self.clone())
    }
}

macro_rules! int_fields {
    ($($t:ty),*) => {$(
        impl ParamField for $t {
            fn read(p: &Params, name: &str) -> Result<$t, ParamError> {
                let v = p.int(name)?;
                <$t>::try_from(v).map_err(|_| ParamError::BadValue {
                    name: name.to_string(),
                    value: v.to_string(),
                    expected: format!("an integer that fits {}", stringify!($t)),
                })
            }
            fn to_value(&self) -> ParamValue {
                // Every field type fits i64 for the ranges options declare.
                ParamValue::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_fields!(i64, i32, u32, u64, usize);

/// A word that is not one of an enumerated option's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown value `{value}`; expected one of {}", allowed.join(", "))]
pub struct UnknownChoice {
    /// The word given.
    pub value: String,
    /// The accepted words.
    pub allowed: &'static [&'static str],
}

/// Declares an enumerated option: a `Copy` enum with one word per variant,
/// `ALL`, `NAMES`, a `const fn name`, `Display`, an exact `FromStr` (an
/// unknown word is an [`UnknownChoice`] listing the allowed ones) and
/// [`ParamField`], so an [`options!`](crate::options) field can have it as
/// its type (kind `choice`). See the [module documentation](self).
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Name:ident {
            $( $(#[$vmeta:meta])* $Var:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $Name {
            $( $(#[$vmeta])* $Var ),+
        }

        impl $Name {
            /// Every value, in the order menus list them.
            #[allow(dead_code)]
            pub const ALL: &'static [$Name] = &[$($Name::$Var),+];
            /// The words, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($word),+];

            /// The option's word.
            pub const fn name(self) -> &'static str {
                match self {
                    $($Name::$Var => $word),+
                }
            }
        }

        impl ::std::str::FromStr for $Name {
            type Err = $crate::params::UnknownChoice;

            fn from_str(s: &str) -> ::std::result::Result<$Name, $crate::params::UnknownChoice> {
                match s.trim() {
                    $($word => Ok($Name::$Var),)+
                    other => Err($crate::params::UnknownChoice {
                        value: other.to_string(),
                        allowed: $Name::NAMES,
                    }),
                }
            }
        }

        impl ::std::fmt::Display for $Name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl $crate::params::ParamField for $Name {
            fn read(
                p: &$crate::params::Params,
                name: &str,
            ) -> ::std::result::Result<$Name, $crate::params::ParamError> {
                p.choice(name)?.parse().map_err(|e: $crate::params::UnknownChoice| {
                    $crate::params::ParamError::BadValue {
                        name: name.to_string(),
                        value: e.value,
                        expected: format!("one of {}", $Name::NAMES.join("|")),
                    }
                })
            }
            fn to_value(&self) -> $crate::params::ParamValue {
                $crate::params::ParamValue::Choice(self.name().to_string())
            }
        }
    };
}

/// Declares an options struct whose fields are described once; generates
/// `PARAMS` (the [`ParamSpec`](crate::params::ParamSpec) list),
/// `from_params`, `to_params` and `Default` (the described defaults). See
/// the [module documentation](self) for the field syntax.
#[macro_export]
macro_rules! options {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident {
            $(
                $(#[$fmeta:meta])*
                $fvis:vis $field:ident : $ty:ty => $spec:tt
            ),* $(,)?
        }
        $(extra {
            $(
                $(#[$xmeta:meta])*
                $xvis:vis $xfield:ident : $xty:ty = $xdefault:expr
            ),* $(,)?
        })?
    ) => {
        $(#[$meta])*
        $vis struct $Name {
            $( $(#[$fmeta])* $fvis $field: $ty, )*
            $($( $(#[$xmeta])* $xvis $xfield: $xty, )*)?
        }

        impl $Name {
            /// The parameters, described once (names, kinds, ranges,
            /// defaults, help): the CLI's `--set`, the app's controls and
            /// the JSON record all read this list.
            pub const PARAMS: &'static [$crate::params::ParamSpec] =
                &[ $( $crate::options!(@spec $ty; $spec) ),* ];

            /// The options a checked parameter set holds (fields that are
            /// not parameters, in the `extra` block, take their defaults).
            pub fn from_params(
                p: &$crate::params::Params,
            ) -> ::std::result::Result<$Name, $crate::params::ParamError> {
                Ok($Name {
                    $( $field: <$ty as $crate::params::ParamField>::read(
                        p,
                        $crate::options!(@name $spec),
                    )?, )*
                    $($( $xfield: $xdefault, )*)?
                })
            }

            /// The options as a parameter set, checked against
            /// [`PARAMS`](Self::PARAMS) (a field set out of its range is
            /// an error).
            pub fn to_params(
                &self,
            ) -> ::std::result::Result<$crate::params::Params, $crate::params::ParamError> {
                let mut p = $crate::params::Params::defaults(Self::PARAMS);
                $( p.set_value(
                    Self::PARAMS,
                    $crate::options!(@name $spec),
                    $crate::params::ParamField::to_value(&self.$field),
                )?; )*
                Ok(p)
            }
        }

        impl ::std::default::Default for $Name {
            /// The described defaults (checked by the registry's tests).
            fn default() -> $Name {
                match $Name::from_params(&$crate::params::Params::defaults($Name::PARAMS)) {
                    Ok(o) => o,
                    Err(e) => panic!("the defaults of {} do not read back: {e}", stringify!($Name)),
                }
            }
        }
    };

    (@name { $name:literal, $($rest:tt)* }) => { $name };
    (@name $shared:ident) => { $shared.name };
    (@name ($shared:expr)) => { $shared.name };

    (@spec $ty:ty; $shared:ident) => { $shared };
    (@spec $ty:ty; ($shared:expr)) => { $shared };
    (@spec $ty:ty; {
        $name:literal, $kind:ident $(( $($arg:expr),* ))? $(= $default:expr)?, $help:expr $(,)?
    }) => {
        $crate::params::ParamSpec {
            name: $name,
            kind: $crate::options!(@kind $ty; $kind ( $($($arg),*)? ); $($default)?),
            help: $help,
        }
    };

    (@kind $ty:ty; real($min:expr, $max:expr); $d:expr) => {
        $crate::params::ParamKind::Real { min: $min, max: $max, default: $d }
    };
    (@kind $ty:ty; int($min:expr, $max:expr); $d:expr) => {
        $crate::params::ParamKind::Int { min: $min as i64, max: $max as i64, default: $d as i64 }
    };
    (@kind $ty:ty; choice(); $d:expr) => {
        $crate::params::ParamKind::Choice { options: <$ty>::NAMES, default: <$ty>::name($d) }
    };
    (@kind $ty:ty; flag(); $d:expr) => {
        $crate::params::ParamKind::Choice {
            options: $crate::params::FLAG,
            default: if $d { "true" } else { "false" },
        }
    };
    (@kind $ty:ty; real_or_auto($min:expr, $max:expr);) => {
        $crate::params::ParamKind::RealOrAuto { min: $min, max: $max }
    };
    (@kind $ty:ty; text(); $d:expr) => {
        $crate::params::ParamKind::Text { default: $d }
    };
    (@kind $ty:ty; real_list($min:expr, $max:expr); $d:expr) => {
        $crate::params::ParamKind::List {
            item: $crate::params::ListItem::Real { min: $min, max: $max },
            default: $d,
        }
    };
    (@kind $ty:ty; int_list($min:expr, $max:expr); $d:expr) => {
        $crate::params::ParamKind::List {
            item: $crate::params::ListItem::Int { min: $min as i64, max: $max as i64 },
            default: $d,
        }
    };
    (@kind $ty:ty; choice_list($words:expr); $d:expr) => {
        $crate::params::ParamKind::List {
            item: $crate::params::ListItem::Choice($words),
            default: $d,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSpec;

    crate::choice_enum! {
        /// A test choice.
        pub enum Form {
            /// First.
            Paper = "paper",
            /// Second.
            Thesis = "thesis",
        }
    }

    const SHARED: ParamSpec = ParamSpec::int("K", 1, 100, 10, "shared");

    crate::options! {
        /// Test options.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Opts {
            /// A real.
            pub r: f64 => { "R", real(0.0, 1.0) = 0.65, "r" },
            /// A choice.
            pub form: Form => { "dpn", choice = Form::Paper, "form" },
            /// A flag.
            pub prune: bool => { "prune", flag = true, "prune" },
            /// An integer.
            pub depth: u32 => { "depth", int(1, 64) = 6, "depth" },
            /// Real or auto.
            pub low: Option<f64> => { "L", real_or_auto(-5.0, 5.0), "low" },
            /// A shared description.
            pub k: u32 => SHARED,
        }
    }

    #[test]
    fn one_declaration_gives_specs_defaults_and_reading() {
        let names: Vec<&str> = Opts::PARAMS.iter().map(|s| s.name).collect();
        assert_eq!(names, ["R", "dpn", "prune", "depth", "L", "K"]);
        assert_eq!(
            Opts::default(),
            Opts {
                r: 0.65,
                form: Form::Paper,
                prune: true,
                depth: 6,
                low: None,
                k: 10
            }
        );
        let pairs = [
            ("dpn", "thesis"),
            ("L", "-2"),
            ("prune", "false"),
            ("K", "3"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()));
        let p = Params::from_pairs(Opts::PARAMS, &pairs).unwrap();
        let o = Opts::from_params(&p).unwrap();
        assert_eq!(
            (o.form, o.low, o.prune, o.k),
            (Form::Thesis, Some(-2.0), false, 3)
        );
        assert_eq!(o.to_params().unwrap(), p);
        let bad = Opts { depth: 99, ..o };
        assert!(bad.to_params().is_err());
    }

    #[test]
    fn enumerated_options_parse_exactly() {
        assert_eq!("thesis".parse::<Form>(), Ok(Form::Thesis));
        let e = "Thesis".parse::<Form>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown value `Thesis`; expected one of paper, thesis"
        );
        let e = Params::from_pairs(Opts::PARAMS, &[("dpn", "papr")]).unwrap_err();
        assert!(e.to_string().contains("paper|thesis"), "{e}");
    }
}
