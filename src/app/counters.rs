//! Which counters the app shows for a run, under their `--json` names
//! (docs/algorithms.md §0 defines each once). A counter an algorithm does
//! not keep is hidden rather than shown as 0: the seesaw counters belong
//! to the searches that follow a selection path, playouts to the
//! Monte-Carlo ones.

use crate::search::Counters;

/// Algorithms that select along a path from the root and note every
/// node's pick (`seesaw_switches`, docs/algorithms.md §9).
const PATH_SWITCHES: &[&str] = &[
    "pns",
    "deep-pn",
    "pn-value",
    "dfpn",
    "dfpn-ghi",
    "dfpn-eps",
    "deep-dfpn",
    "dfs",
    "ppn",
    "mcpn",
    "mcts-solver",
    "uct-solver",
    "cns",
    "scns",
];

/// Algorithms that note the root's pick (`seesaw_root_switches`) but no
/// other node's; every one of [`PATH_SWITCHES`] notes the root's too.
const ROOT_ONLY_SWITCHES: &[&str] = &["dfpn-fast"];

/// Depth-first searches that count going back into a subtree they left
/// (`revisits`).
const REVISITS: &[&str] = &[
    "dfpn",
    "dfpn-ghi",
    "dfpn-eps",
    "deep-dfpn",
    "dfpn-fast",
    "pn-value",
];

/// Searches that keep the whole tree they built (the arena searches):
/// every node created stays (`live_nodes` = `nodes_created`) and each is
/// expanded at most once. In the table and depth-first searches a
/// position can be expanded again after its entry was replaced or its
/// frame left, so there `nodes_expanded` counts expansions; `pn-value`
/// runs one tree per target, so its created nodes add up over the trees
/// while only the last one is live; the MCTS solvers make room for a
/// node's children at once but count a child as created only when a
/// simulation first reaches it, so they hold more than they created.
pub const WHOLE_TREE: &[&str] = &["pns", "deep-pn", "ppn", "mcpn", "cns", "scns"];

/// Searches whose tree view shows part of the tree they hold, so the
/// view's "of N" is a total it never exceeds: the whole-tree searches
/// and the MCTS solvers (whose N is the nodes simulations reached).
pub fn shows_part_of_its_tree(algo: &str) -> bool {
    WHOLE_TREE.contains(&algo) || matches!(algo, "mcts-solver" | "uct-solver")
}

/// Algorithms that run Monte-Carlo playouts.
const PLAYOUTS: &[&str] = &["ppn", "mcpn", "mcts-solver", "uct-solver"];

/// One counter of the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The `--json` name.
    pub key: &'static str,
    /// The label the status bar shows.
    pub label: &'static str,
    /// Its value.
    pub value: u64,
}

/// Whether `algo` keeps the counter named `key` (`--json` name).
pub fn applies(algo: &str, key: &str) -> bool {
    match key {
        "seesaw_switches" => PATH_SWITCHES.contains(&algo),
        "seesaw_root_switches" => {
            PATH_SWITCHES.contains(&algo) || ROOT_ONLY_SWITCHES.contains(&algo)
        }
        "revisits" => REVISITS.contains(&algo),
        "playouts" => PLAYOUTS.contains(&algo),
        _ => true,
    }
}

/// The counters `algo` keeps, in the status bar's order.
pub fn items(algo: &str, c: &Counters) -> Vec<Item> {
    let all = [
        ("iterations", "iterations", c.iterations),
        ("nodes_created", "created", c.nodes_created),
        ("nodes_expanded", "expanded", c.nodes_expanded),
        ("live_nodes", "live", c.live_nodes),
        ("max_depth", "depth", u64::from(c.max_depth)),
        (
            "seesaw_root_switches",
            "root switches",
            c.seesaw_root_switches,
        ),
        ("seesaw_switches", "switches", c.seesaw_switches),
        ("revisits", "revisits", c.revisits),
        ("playouts", "playouts", c.playouts),
    ];
    all.into_iter()
        .filter(|(key, _, _)| applies(algo, key))
        .map(|(key, label, value)| Item { key, label, value })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::registry;

    #[test]
    fn every_named_algorithm_is_registered() {
        for list in [PATH_SWITCHES, ROOT_ONLY_SWITCHES, REVISITS, PLAYOUTS] {
            for a in list {
                assert!(registry::find_algo(a).is_ok(), "{a}");
            }
        }
    }

    #[test]
    fn alpha_beta_shows_no_seesaw_counters() {
        let keys: Vec<&str> = items("alphabeta", &Counters::default())
            .iter()
            .map(|i| i.key)
            .collect();
        assert!(!keys.contains(&"seesaw_switches") && !keys.contains(&"playouts"));
        assert!(keys.contains(&"iterations") && keys.contains(&"live_nodes"));
    }
}
