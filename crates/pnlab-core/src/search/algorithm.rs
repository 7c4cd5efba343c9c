//! A handle on one registered algorithm, made once from its name where
//! the user gives it (a flag, a keyword argument, a menu) and passed on
//! typed, so no layer above looks a name up again or carries a string
//! that might name nothing.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use super::registry::{find_algo, AlgoInfo, DEFAULT_ALGO};
use super::SearchError;

/// A registered algorithm ([`AlgoInfo`]); equal when the names are.
#[derive(Clone, Copy)]
pub struct Algorithm(&'static AlgoInfo);

impl Algorithm {
    /// The algorithm registered as `name`, or the error listing the known
    /// names.
    pub fn named(name: &str) -> Result<Algorithm, SearchError> {
        find_algo(name).map(Algorithm)
    }

    /// Every registered algorithm, in the registry's order (a menu's
    /// entries).
    pub fn all() -> impl Iterator<Item = Algorithm> {
        super::algorithms().iter().map(Algorithm)
    }

    /// The algorithm every front end runs when none is named
    /// ([`DEFAULT_ALGO`]).
    pub fn default_algorithm() -> Algorithm {
        // DEFAULT_ALGO is registered (this file's test checks it); the
        // fallback only keeps a broken registry from panicking.
        find_algo(DEFAULT_ALGO).map_or(Algorithm(&super::algorithms()[0]), Algorithm)
    }

    /// The registry entry.
    pub fn info(self) -> &'static AlgoInfo {
        self.0
    }

    /// The CLI name.
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl Default for Algorithm {
    fn default() -> Algorithm {
        Algorithm::default_algorithm()
    }
}

impl Deref for Algorithm {
    type Target = AlgoInfo;

    fn deref(&self) -> &AlgoInfo {
        self.0
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, other: &Algorithm) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Algorithm {}

/// A handle equals the name it was made from (a test or a front end
/// comparing with a name it was given).
impl PartialEq<str> for Algorithm {
    fn eq(&self, name: &str) -> bool {
        self.0.name == name
    }
}

impl PartialEq<&str> for Algorithm {
    fn eq(&self, name: &&str) -> bool {
        self.0.name == *name
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.0.name)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

impl FromStr for Algorithm {
    type Err = SearchError;

    fn from_str(name: &str) -> Result<Algorithm, SearchError> {
        Algorithm::named(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_name_makes_a_handle_and_others_do_not() {
        assert_eq!(Algorithm::all().count(), super::super::algorithms().len());
        for info in super::super::algorithms() {
            let a: Algorithm = info.name.parse().unwrap();
            assert_eq!(a.name(), info.name);
            assert_eq!(a.to_string(), info.name);
        }
        assert_eq!(Algorithm::default().name(), DEFAULT_ALGO);
        assert_eq!(Algorithm::named("dfpn").unwrap(), "dfpn");
        assert!(Algorithm::named("dfpn").unwrap() != "dfpn-fast");
        let e = "pnz".parse::<Algorithm>().unwrap_err();
        assert!(matches!(e, SearchError::UnknownAlgo { .. }), "{e}");
        assert!(e.to_string().contains("dfpn"), "{e}");
    }
}
