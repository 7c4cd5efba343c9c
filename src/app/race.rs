//! Race mode: a second algorithm or parameter set on the same position,
//! on its own worker, advanced in lockstep with the main run by iterations
//! or by nodes (`lockstep`); two trees side by side, overlaid root curves
//! and a diff of which nodes each expanded (nodes are matched by their
//! move path, which both runs share).

use std::collections::HashSet;

use egui_plot::{Legend, Line, Plot};

use crate::search::correct_moves::CorrectMoves;
use crate::search::{registry, Params, Snapshot, StatsSample};

use super::lockstep::Lockstep;
use super::logic::RunState;
use super::tree_view::TreeView;
use super::worker::WorkerHandle;
use crate::search::error_rate::error_points;

/// The challenger's state.
pub struct Race {
    /// The challenger's algorithm (registry name).
    pub algo: String,
    /// The challenger's parameters.
    pub params: Params,
    /// Its own search thread (`None` until the race starts).
    pub worker: Option<WorkerHandle>,
    /// Its run as the UI shows it, like the main run's.
    pub run: RunState,
    /// The challenger's tree view (its own focus and collapsed nodes).
    pub tree: TreeView,
    /// The lockstep driver (racing or not, by iterations or by nodes).
    pub lockstep: Lockstep,
}

impl Race {
    /// A challenger running `algo` with default parameters.
    pub fn new(ctx: &egui::Context, algo: &str) -> Result<Race, String> {
        let info = registry::find_algo(algo)?;
        let wake = ctx.clone();
        let worker = WorkerHandle::spawn(move || wake.request_repaint())?;
        Ok(Race {
            algo: info.name.to_string(),
            params: Params::defaults(info.params),
            worker: Some(worker),
            run: RunState::default(),
            tree: TreeView::default(),
            lockstep: Lockstep::default(),
        })
    }
}

/// Move paths of the expanded nodes of a snapshot (root = empty path).
pub fn expanded_paths(snap: &Snapshot) -> HashSet<String> {
    let mut paths: Vec<String> = Vec::with_capacity(snap.nodes.len());
    let mut out = HashSet::new();
    for n in &snap.nodes {
        let p = match n.parent.and_then(|p| paths.get(p as usize)) {
            Some(pp) if pp.is_empty() => n.move_label.clone(),
            Some(pp) => format!("{pp} {}", n.move_label),
            None => String::new(),
        };
        if n.expanded {
            out.insert(p.clone());
        }
        paths.push(p);
    }
    out
}

/// Counts of nodes expanded by both runs, only the first, only the second.
pub fn expansion_diff(a: &Snapshot, b: &Snapshot) -> (usize, usize, usize) {
    let ea = expanded_paths(a);
    let eb = expanded_paths(b);
    let both = ea.intersection(&eb).count();
    (both, ea.len() - both, eb.len() - both)
}

/// Root values of both runs on one log-scale plot.
pub fn overlaid_curves(
    ui: &mut egui::Ui,
    a: (&str, &[StatsSample], &[String]),
    b: (&str, &[StatsSample], &[String]),
    correct: Option<&CorrectMoves>,
) {
    let series = |samples: &[StatsSample], k: usize| -> Vec<[f64; 2]> {
        let step = (samples.len() / 2_000).max(1);
        samples
            .iter()
            .step_by(step)
            .filter_map(|s| {
                let v = *s.root_values.get(k)?;
                (v > 0.0 && v.is_finite()).then(|| [s.iteration as f64, v.log10()])
            })
            .collect()
    };
    Plot::new("race-curves")
        .height(180.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .y_axis_formatter(|m, _| super::plots::log_tick(m.value))
        .show(ui, |plot| {
            for (label, samples, names) in [a, b] {
                for (k, name) in names.iter().enumerate() {
                    plot.line(Line::new(format!("{label} {name}"), series(samples, k)));
                }
            }
        });
    let Some(correct) = correct else {
        return;
    };
    ui.label("Share of iterations with a wrong chosen move");
    Plot::new("race-errors")
        .height(120.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .default_y_bounds(-0.05, 1.05)
        .show(ui, |plot| {
            for (label, samples, _) in [a, b] {
                let share = error_points(samples, correct).share;
                let step = (share.len() / 2_000).max(1);
                let thin: Vec<[f64; 2]> = share.into_iter().step_by(step).collect();
                plot.line(Line::new(format!("{label} error share"), thin));
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::test_support::on_empty_tictactoe;
    use crate::search::ViewRequest;

    fn snap_after(tie: &str, steps: u32) -> Snapshot {
        let mut s = on_empty_tictactoe("pns", &[("tie", tie)]);
        for _ in 0..steps {
            s.step();
        }
        s.snapshot(&ViewRequest {
            max_depth: 64,
            max_nodes: 100_000,
            ..ViewRequest::default()
        })
    }

    #[test]
    fn a_run_against_itself_differs_nowhere() {
        let a = snap_after("leftmost", 5);
        let (both, only_a, only_b) = expansion_diff(&a, &a);
        // Each PNS iteration expands exactly one node (Allis et al. 1994).
        assert_eq!((both, only_a, only_b), (5, 0, 0));
    }

    #[test]
    fn expanded_paths_name_the_root_and_the_moves() {
        let a = snap_after("leftmost", 2);
        let p = expanded_paths(&a);
        assert!(p.contains(""), "{p:?}");
        assert_eq!(p.len(), 2);
    }
}
