//! Algorithm-specific panels: the one place where an algorithm's extra
//! inspector section and extra plots are chosen. Everything common (the
//! values, the formulas, the root curves, the switches) is drawn for every
//! algorithm from the snapshot alone; an algorithm that has more to show
//! (df-pn's recursion frames with their thresholds; later alpha-beta
//! windows, conspiracy-number staircases, chance nodes) adds a match arm
//! here and a function beside it, and no other file changes.

use crate::search::snapshot::fmt_value;
use crate::search::Snapshot;

use super::logic::RunState;

/// Draws the algorithm's extra inspector section, if it has one.
pub fn inspector_section(ui: &mut egui::Ui, snap: &Snapshot) {
    match snap.algo.as_str() {
        "dfpn" | "dfpn-eps" | "deep-dfpn" | "dfs" => recursion_frames(ui, snap),
        _ => {}
    }
}

/// Draws the algorithm's extra plots below the common curves, if any.
pub fn plots_section(ui: &mut egui::Ui, run: &RunState) {
    let Some(snap) = run.snapshot.as_ref() else {
        return;
    };
    // Add `"algo-name" => its_plots(ui, run),` arms here; no algorithm
    // has plots of its own yet.
    #[allow(clippy::match_single_binding)]
    match snap.algo.as_str() {
        _ => {
            let _ = ui;
        }
    }
}

/// Depth-first searches: the recursion stack, each frame with the
/// thresholds it was called with.
fn recursion_frames(ui: &mut egui::Ui, snap: &Snapshot) {
    if snap.frames.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.label("Recursion frames");
    for f in &snap.frames {
        let vals = f
            .values
            .iter()
            .map(|(n, v)| format!("{n}={}", fmt_value(*v)))
            .collect::<Vec<_>>()
            .join(" ");
        ui.monospace(format!("{} {vals}", f.move_label));
    }
}
