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
use super::tree_view::TreeView;

/// Draws the algorithm's extra inspector section, if it has one.
pub fn inspector_section(ui: &mut egui::Ui, snap: &Snapshot) {
    match snap.algo.as_str() {
        "dfpn" | "dfpn-eps" | "deep-dfpn" | "dfs" => recursion_frames(ui, snap),
        "alphabeta" => super::scn_curves::inspector_section(ui, snap),
        _ => {}
    }
}

/// What the algorithm's own plots asked for this frame.
#[derive(Debug, Default)]
pub struct PlotRequests {
    /// The tree view's request changed (new labels wanted).
    pub view_changed: bool,
    /// A parameter to set (`NAME`, `VALUE`); the caller sets it and re-runs.
    pub set_param: Option<(String, i64)>,
}

/// Draws the algorithm's extra plots above the common curves, if any
/// (CNS's step plots, alpha-beta's curves per depth).
pub fn plots_section(ui: &mut egui::Ui, run: &RunState, tree: &mut TreeView) -> PlotRequests {
    let Some(snap) = run.snapshot.as_ref() else {
        return PlotRequests::default();
    };
    match snap.algo.as_str() {
        "cns" | "scns" => PlotRequests {
            view_changed: super::conspiracy::ui(ui, run, tree),
            ..PlotRequests::default()
        },
        "alphabeta" => {
            ui.separator();
            let points = super::scn_curves::depth_points(&run.facts.extra);
            let set_param = run
                .facts
                .extra
                .get("T")
                .and_then(|t| t.as_i64())
                .and_then(|t| super::scn_curves::depth_curves_ui(ui, &points, t))
                .map(|t| ("T".to_string(), t));
            PlotRequests {
                set_param,
                ..PlotRequests::default()
            }
        }
        _ => PlotRequests::default(),
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
