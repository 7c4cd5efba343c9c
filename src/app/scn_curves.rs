//! Alpha-beta's own panels: the value-vs-depth and SCN-vs-depth curves
//! that grow one point per finished depth of iterative deepening (with the
//! threshold T shown and adjustable: a new T re-runs from depth 1), and
//! the inspector's table of a node's children (value, SCN, cut-off).
//!
//! The points come from the run's JSON facts (`curve`, the same array
//! `pnlab solve --algo alphabeta --json` prints), so the app draws exactly
//! what the CLI reports.

use egui_plot::{Legend, Line, MarkerShape, Plot, Points};

use crate::search::snapshot::fmt_value;
use crate::search::Snapshot;

/// One finished depth of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthPoint {
    /// The depth limit.
    pub depth: u32,
    /// The root's value at this depth (root player's view).
    pub value: f64,
    /// The root's SCN; `None` is ∞.
    pub scn: Option<f64>,
    /// The best move at this depth.
    pub best_move: Option<String>,
}

/// The points of the run's `curve` fact (empty when there is none).
pub fn depth_points(extra: &serde_json::Map<String, serde_json::Value>) -> Vec<DepthPoint> {
    let Some(curve) = extra.get("curve").and_then(|c| c.as_array()) else {
        return Vec::new();
    };
    curve
        .iter()
        .filter_map(|p| {
            Some(DepthPoint {
                depth: u32::try_from(p.get("depth")?.as_u64()?).ok()?,
                value: p.get("value")?.as_f64()?,
                scn: p.get("scn").and_then(|s| s.as_f64()),
                best_move: p
                    .get("best_move")
                    .and_then(|m| m.as_str())
                    .map(str::to_string),
            })
        })
        .collect()
}

/// Where an infinite SCN is drawn: one above the largest finite SCN (at
/// least 1), so ∞ stays visible as the top of the plot.
pub fn infinity_height(points: &[DepthPoint]) -> f64 {
    points
        .iter()
        .filter_map(|p| p.scn)
        .fold(0.0f64, f64::max)
        .max(1.0)
        + 1.0
}

/// The two curves and the T control. Returns the new T when the user
/// changed it (the caller re-runs the search).
pub fn depth_curves_ui(ui: &mut egui::Ui, points: &[DepthPoint], threshold: i64) -> Option<i64> {
    let mut t = threshold;
    let mut changed = None;
    ui.horizontal(|ui| {
        let l = ui
            .label("Threshold T")
            .on_hover_text("SCN counts the leaves that must change for the root player to reach a value ≥ T; changing T re-runs from depth 1");
        let r = ui
            .add(egui::DragValue::new(&mut t).range(-100_000..=100_000).speed(10))
            .labelled_by(l.id);
        if r.changed() && t != threshold {
            changed = Some(t);
        }
    });
    let h = ((ui.available_height() - 60.0) / 2.0).clamp(90.0, 200.0);
    let inf = infinity_height(points);
    let scn: Vec<[f64; 2]> = points
        .iter()
        .map(|p| [f64::from(p.depth), p.scn.unwrap_or(inf)])
        .collect();
    let infinite: Vec<[f64; 2]> = points
        .iter()
        .filter(|p| p.scn.is_none())
        .map(|p| [f64::from(p.depth), inf])
        .collect();
    ui.label(format!(
        "SCN against depth (T = {threshold}; ∞ drawn at the top)"
    ));
    Plot::new("alphabeta-scn")
        .height(h)
        .legend(Legend::default())
        .allow_scroll(false)
        .include_y(0.0)
        .include_x(1.0)
        .x_axis_label("depth")
        .show(ui, |plot| {
            plot.line(Line::new("SCN", scn.clone()));
            plot.points(Points::new("SCN", scn).radius(3.0));
            if !infinite.is_empty() {
                plot.points(
                    Points::new("SCN = ∞", infinite)
                        .shape(MarkerShape::Up)
                        .radius(5.0),
                );
            }
        });
    let value: Vec<[f64; 2]> = points
        .iter()
        .map(|p| [f64::from(p.depth), p.value])
        .collect();
    ui.label("Value against depth (root player's view)");
    Plot::new("alphabeta-value")
        .height(h)
        .legend(Legend::default())
        .allow_scroll(false)
        .include_x(1.0)
        .x_axis_label("depth")
        .show(ui, |plot| {
            plot.line(Line::new("value", value.clone()));
            plot.points(Points::new("value", value).radius(3.0));
            plot.hline(egui_plot::HLine::new("T", threshold as f64));
        });
    if let Some(p) = points.last() {
        ui.label(format!(
            "depth {}: value {}, SCN {}{}",
            p.depth,
            fmt_value(p.value),
            p.scn.map_or("∞".to_string(), fmt_value),
            p.best_move
                .as_ref()
                .map_or(String::new(), |m| format!(", best {m}"))
        ));
    }
    changed
}

/// One child of the inspected node, as the inspector's table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildRow {
    /// The move to the child.
    pub label: String,
    /// The child's value (its evaluation for a cut-off child).
    pub value: f64,
    /// The child's SCN (`f64::INFINITY` is ∞).
    pub scn: f64,
    /// Never searched: counted as a leaf with its static evaluation.
    pub cut_off: bool,
}

/// The inspected node's children in the snapshot (those the view
/// includes), with the values alpha-beta names `value`, `scn` and
/// `cut-off`.
pub fn child_rows(snap: &Snapshot, node: u64) -> Vec<ChildRow> {
    let idx = |name: &str| snap.value_names.iter().position(|n| n == name);
    let (Some(v), Some(s), Some(c)) = (idx("value"), idx("scn"), idx("cut-off")) else {
        return Vec::new();
    };
    let Some(parent) = snap.nodes.iter().position(|n| n.id == node) else {
        return Vec::new();
    };
    snap.nodes
        .iter()
        .filter(|n| n.parent == Some(parent as u32))
        .map(|n| ChildRow {
            label: n.move_label.clone(),
            value: n.values.get(v).copied().unwrap_or(f64::NAN),
            scn: n.values.get(s).copied().unwrap_or(f64::NAN),
            cut_off: n.values.get(c).copied() == Some(1.0),
        })
        .collect()
}

/// The inspector's alpha-beta section: the inspected node's children,
/// cut-off ones marked, and how the node's SCN combines them.
pub fn inspector_section(ui: &mut egui::Ui, snap: &Snapshot) {
    let Some(ins) = snap.inspection.as_ref() else {
        return;
    };
    let rows = child_rows(snap, ins.node);
    if rows.is_empty() {
        return;
    }
    let is_max = snap
        .nodes
        .iter()
        .find(|n| n.id == ins.node)
        .map(|n| n.kind == crate::search::snapshot::NodeKind::Or);
    ui.add_space(4.0);
    ui.label(match is_max {
        Some(true) => "Children (MAX node: SCN = the minimum of theirs)",
        Some(false) => "Children (MIN node: SCN = the sum of theirs)",
        None => "Children",
    });
    egui::Grid::new("alphabeta-children")
        .striped(true)
        .show(ui, |ui| {
            ui.strong("move");
            ui.strong("value");
            ui.strong("SCN");
            ui.strong("");
            ui.end_row();
            for r in &rows {
                ui.monospace(&r.label);
                ui.monospace(fmt_value(r.value));
                ui.monospace(fmt_value(r.scn));
                if r.cut_off {
                    ui.label("✂ cut off: a leaf with its evaluation")
                        .on_hover_text("alpha-beta never searched this child; for the SCN it counts as a leaf (0 if its evaluation ≥ T, else 1; a finished game 0 or ∞)");
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn points_come_from_the_curve_fact() {
        let extra = json!({
            "curve": [
                {"depth": 1, "value": 50, "scn": 1, "nodes": 3, "best_move": "B"},
                {"depth": 2, "value": 40, "scn": null, "nodes": 6, "best_move": null},
            ]
        });
        let pts = depth_points(extra.as_object().unwrap());
        assert_eq!(pts.len(), 2);
        assert_eq!(pts[0].scn, Some(1.0));
        assert_eq!(pts[0].best_move.as_deref(), Some("B"));
        assert_eq!(pts[1].scn, None);
        assert_eq!(pts[1].value, 40.0);
        // ∞ is drawn one above the largest finite SCN.
        assert_eq!(infinity_height(&pts), 2.0);
        assert!(depth_points(json!({}).as_object().unwrap()).is_empty());
    }
}
