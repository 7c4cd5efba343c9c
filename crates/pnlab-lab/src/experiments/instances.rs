//! What several experiments share: the seeded instances (random Othello
//! endgames) and the descriptions of the settings that choose them, so
//! that no experiment imports another for them.

use pnlab_core::game::othello::Othello;
use pnlab_core::search::params::ParamSpec;

use super::{ExperimentError, ExperimentOptions};

pub use pnlab_core::game::othello::random::random_othello;

/// The seed of instance `i` of an experiment run with base seed `base`
/// (instances stay the same when `--shard` splits the list).
pub fn instance_seed(base: u64, i: usize) -> u64 {
    base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i as u64)
}

/// The instances: seeded random Othello positions with `empties` empty
/// squares (as in `deep-pn-sweep`).
pub fn othello_instances(
    opts: &ExperimentOptions,
    positions: usize,
    empties: u32,
) -> Result<Vec<Othello>, ExperimentError> {
    if !(1..=60).contains(&empties) {
        return Err(ExperimentError::EmptiesOutOfRange { empties });
    }
    (0..positions)
        .map(|i| othello_instance(instance_seed(opts.seed, i), empties))
        .collect()
}

/// The random Othello position of instance seed `seed` with `empties`
/// empty squares, or the error that names both when random play finds
/// none.
pub fn othello_instance(seed: u64, empties: u32) -> Result<Othello, ExperimentError> {
    random_othello(seed, empties).ok_or(ExperimentError::NoRandomPosition { empties, seed })
}

/// The `positions` setting of the experiments on random Othello
/// positions ([`othello_instances`]), with its default.
pub const fn positions_setting(default: i64) -> ParamSpec {
    ParamSpec::int(
        "positions",
        1,
        i64::MAX,
        default,
        "Random Othello positions (instances) drawn.",
    )
}

/// The `empties` setting of the experiments on random Othello positions.
pub const fn empties_setting(default: i64) -> ParamSpec {
    ParamSpec::int(
        "empties",
        1,
        59,
        default,
        "Empty squares of each random Othello position.",
    )
}

/// The `e_max` / `d_max` settings: the largest E and D of the Deep df-pn
/// (E, D) grid (the grid is 1..=e_max × 1..=d_max).
pub const fn grid_setting(name: &'static str, default: i64) -> ParamSpec {
    let help = if name.as_bytes()[0] == b'e' {
        "Largest E of the Deep df-pn (E, D) grid (E runs from 1)."
    } else {
        "Largest D of the Deep df-pn (E, D) grid (D runs from 1)."
    };
    ParamSpec::int(name, 1, 1000, default, help)
}

/// The `max_nodes` setting: the cap of every run.
pub const fn max_nodes_setting(default: i64) -> ParamSpec {
    ParamSpec::int(
        "max_nodes",
        1,
        i64::MAX,
        default,
        "Cap per run; a capped run counts as unsolved.",
    )
}

/// The `eps` setting: the ε values of the 1+ε runs (the range of the
/// `dfpn-eps` parameter).
pub const fn eps_setting(default: &'static str, help: &'static str) -> ParamSpec {
    ParamSpec::real_list("eps", 1e-12, 1000.0, default, help)
}
