//! The course of `lessons/`, embedded in the binary like the positions
//! (so the app, the browser build and `pnlab lesson --check` find it
//! anywhere). Paths are relative to the package root, so a lesson's
//! `../positions/…` finds its embedded neighbour.

use pnlab_core::positions::BundledFile;

macro_rules! bundle {
    ($($path:literal),* $(,)?) => {
        &[$(BundledFile { path: concat!("lessons/", $path), text: include_str!(concat!("../../../../lessons/", $path)) }),*]
    };
}

/// Every lesson of `lessons/`, in course order.
pub static LESSONS: &[BundledFile] = bundle![
    "01-and-or-trees.lesson.toml",
    "02-pns-step-by-step.lesson.toml",
    "03-seesaw-and-deep-pn.lesson.toml",
    "04-dfpn-thresholds.lesson.toml",
    "05-one-plus-eps-and-deep-dfpn.lesson.toml",
    "06-ppn-monte-carlo-leaves.lesson.toml",
    "07-mcts-solver-vs-pns.lesson.toml",
    "08-conspiracy-numbers-and-scn.lesson.toml",
    "09-graph-history-interaction.lesson.toml",
    "10-chance-nodes-and-star1.lesson.toml",
];
