//! The inspector (issue #5 item 3, docs/architecture.md "Inspector"): every value of
//! the selected node, the formula that produced it with the children's
//! numbers filled in, and on the selection path why that child was picked.
//! The text comes from the algorithm (`Snapshot::inspection`), so every
//! algorithm explains itself without UI code of its own.

use crate::search::snapshot::fmt_value;
use crate::search::Snapshot;

/// Draws the inspector for the snapshot's inspected node (or a hint).
pub fn ui(ui: &mut egui::Ui, snap: Option<&Snapshot>, selected: Option<u64>) {
    let Some(snap) = snap else {
        ui.weak("No search loaded.");
        return;
    };
    let Some(ins) = snap.inspection.as_ref() else {
        ui.weak("Click a node in the tree to inspect it.");
        if !snap.extras.is_empty() {
            extras(ui, snap);
        }
        return;
    };
    if selected.is_some_and(|s| s != ins.node) {
        ui.weak("(updating…)");
    }
    let path = if ins.path.is_empty() {
        "root".to_string()
    } else {
        ins.path.join(" ")
    };
    ui.strong(format!("Node {path}"));
    if let Some(node) = snap.nodes.iter().find(|n| n.id == ins.node) {
        egui::Grid::new("inspector-values")
            .striped(true)
            .show(ui, |ui| {
                for (n, v) in snap.value_names.iter().zip(&node.values) {
                    ui.label(n);
                    ui.monospace(fmt_value(*v));
                    ui.end_row();
                }
                ui.label("status");
                ui.label(format!("{:?}", node.status));
                ui.end_row();
                ui.label("kind");
                ui.label(format!("{:?}", node.kind));
                ui.end_row();
                ui.label("children");
                ui.label(node.n_children.to_string());
                ui.end_row();
            });
    }
    ui.add_space(4.0);
    ui.label("Formulas");
    for (name, text) in &ins.formulas {
        ui.horizontal_wrapped(|ui| {
            ui.weak(format!("{name}:"));
            ui.monospace(text);
        });
    }
    if let Some(choice) = &ins.choice {
        ui.add_space(4.0);
        ui.label("Why this child");
        ui.label(egui::RichText::new(choice).monospace());
    }
    super::algo_sections::inspector_section(ui, snap);
    extras(ui, snap);
}

fn extras(ui: &mut egui::Ui, snap: &Snapshot) {
    if snap.extras.is_empty() {
        return;
    }
    ui.add_space(4.0);
    egui::Grid::new("inspector-extras").show(ui, |ui| {
        for (k, v) in &snap.extras {
            ui.weak(k);
            ui.monospace(v);
            ui.end_row();
        }
    });
}
