//! Race mode: a second algorithm or parameter set on the same position,
//! on its own worker, advanced in lockstep with the main run by iterations
//! or by nodes (`lockstep`); two trees side by side, overlaid root curves
//! and a diff of which nodes each expanded (nodes are matched by their
//! move path, which both runs share).

use std::collections::HashSet;

use egui_plot::{Legend, Line, Plot};

use crate::search::correct_moves::CorrectMoves;
use crate::search::{Algorithm, Params, Snapshot, StatsSample};

use super::driver::{self, DriverKind};
use super::error::AppError;
use super::lockstep::Lockstep;
use super::logic::{RunLink, RunState};
use super::tree_view::TreeView;
use crate::search::error_rate::error_points;

/// The challenger's state.
pub struct Race {
    /// The challenger's algorithm.
    pub algo: Algorithm,
    /// The challenger's parameters.
    pub params: Params,
    /// Its run (its own driver), like the main run's.
    pub link: RunLink,
    /// The challenger's tree view (its own focus and collapsed nodes).
    pub tree: TreeView,
    /// The lockstep driver (racing or not, by iterations or by nodes).
    pub lockstep: Lockstep,
    /// The overlay's numbers, recomputed only when a run changed.
    pub overlay: OverlayCache,
}

impl Race {
    /// A challenger running `algo` with default parameters.
    pub fn new(ctx: &egui::Context, kind: DriverKind, algo: Algorithm) -> Result<Race, AppError> {
        let wake = ctx.clone();
        let driver = driver::start(kind, move || wake.request_repaint())?;
        Ok(Race {
            algo,
            params: Params::defaults(algo.params),
            link: RunLink::new(driver),
            tree: TreeView::default(),
            lockstep: Lockstep::default(),
            overlay: OverlayCache::default(),
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

/// One named line of a plot.
type Series = (String, Vec<[f64; 2]>);

/// What the race panel shows, kept between frames: the expansion diff
/// (two hash sets of move paths) and the thinned curves are rebuilt only
/// when a run received a new snapshot or new samples, not every frame.
#[derive(Default)]
pub struct OverlayCache {
    diff_key: Option<(u64, u64)>,
    diff: (usize, usize, usize),
    curves_key: Option<(u64, usize, u64, usize, bool)>,
    curves: Vec<Series>,
    errors: Vec<Series>,
}

impl OverlayCache {
    /// Nodes expanded by both runs, only the main one, only the
    /// challenger (see [`expansion_diff`]); `None` before both have a
    /// snapshot.
    pub fn diff(&mut self, a: &RunState, b: &RunState) -> Option<(usize, usize, usize)> {
        let (sa, sb) = (a.snapshot.as_ref()?, b.snapshot.as_ref()?);
        let key = (a.arrivals, b.arrivals);
        if self.diff_key != Some(key) {
            self.diff = expansion_diff(sa, sb);
            self.diff_key = Some(key);
        }
        Some(self.diff)
    }

    /// Rebuilds the curves when either run's samples changed.
    fn refresh_curves(&mut self, a: &RunState, b: &RunState, correct: Option<&CorrectMoves>) {
        let key = (
            a.epoch,
            a.samples.len(),
            b.epoch,
            b.samples.len(),
            correct.is_some(),
        );
        if self.curves_key == Some(key) {
            return;
        }
        self.curves_key = Some(key);
        self.curves.clear();
        self.errors.clear();
        for (label, run) in [("A", a), ("B", b)] {
            let names = run
                .snapshot
                .as_ref()
                .map(|s| s.value_names.clone())
                .unwrap_or_default();
            for (k, name) in names.iter().enumerate() {
                self.curves
                    .push((format!("{label} {name}"), log_series(&run.samples, k)));
            }
            if let Some(correct) = correct {
                let share = error_points(&run.samples, correct).share;
                let step = (share.len() / 2_000).max(1);
                let thin: Vec<[f64; 2]> = share.into_iter().step_by(step).collect();
                self.errors.push((format!("{label} error share"), thin));
            }
        }
    }
}

/// Root value `k` of every sample on a log scale, thinned to about 2,000
/// points (non-positive and infinite values have no place on it).
fn log_series(samples: &[StatsSample], k: usize) -> Vec<[f64; 2]> {
    let step = (samples.len() / 2_000).max(1);
    samples
        .iter()
        .step_by(step)
        .filter_map(|s| {
            let v = *s.root_values.get(k)?;
            (v > 0.0 && v.is_finite()).then(|| [s.iteration as f64, v.log10()])
        })
        .collect()
}

/// Root values of both runs (A the main run, B the challenger) on one
/// log-scale plot, and their error shares when the correct moves are
/// known; the lines come from `cache`.
pub fn overlaid_curves(
    ui: &mut egui::Ui,
    cache: &mut OverlayCache,
    a: &RunState,
    b: &RunState,
    correct: Option<&CorrectMoves>,
) {
    cache.refresh_curves(a, b, correct);
    Plot::new("race-curves")
        .height(180.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .y_axis_formatter(|m, _| super::plots::log_tick(m.value))
        .show(ui, |plot| {
            for (name, points) in &cache.curves {
                plot.line(Line::new(name.clone(), points.clone()));
            }
        });
    if correct.is_none() {
        return;
    }
    ui.label("Share of iterations with a wrong chosen move");
    Plot::new("race-errors")
        .height(120.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .default_y_bounds(-0.05, 1.05)
        .show(ui, |plot| {
            for (name, points) in &cache.errors {
                plot.line(Line::new(name.clone(), points.clone()));
            }
        });
}

/// The race's verdict on tree size: which side created fewer nodes, and
/// where each stands (the counts are only comparable at equal iterations
/// or once both finished, and the line says which it is).
pub fn fewer_nodes(a: &RunState, b: &RunState) -> Option<String> {
    let (sa, sb) = (a.snapshot.as_ref()?, b.snapshot.as_ref()?);
    let (na, nb) = (sa.counters.nodes_created, sb.counters.nodes_created);
    let (ia, ib) = (sa.counters.iterations, sb.counters.iterations);
    let where_ = if sa.status.is_final() && sb.status.is_final() {
        "both finished".to_string()
    } else if ia == ib {
        format!("both at iteration {ia}")
    } else {
        format!("A at iteration {ia}, B at {ib}")
    };
    let who = match na.cmp(&nb) {
        std::cmp::Ordering::Less => format!("A created fewer nodes: {na} against B's {nb}"),
        std::cmp::Ordering::Greater => format!("B created fewer nodes: {nb} against A's {na}"),
        std::cmp::Ordering::Equal => format!("A and B created as many nodes: {na}"),
    };
    Some(format!("{who} ({where_})"))
}

/// The header of one run of a race, e.g. `A: dfpn (ghi = exact, threads
/// = 1)`: the parameters separated by spaces so a narrow column wraps
/// between them (one long word would be broken letter by letter).
pub fn run_header(side: &str, algo: Algorithm, params: &crate::search::Params) -> String {
    let pairs: Vec<String> = params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    if pairs.is_empty() {
        format!("{side}: {algo}")
    } else {
        format!("{side}: {algo} ({})", pairs.join(", "))
    }
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

    /// Two different runs: the same deterministic PNS stopped after 5 and
    /// after 3 iterations. One expansion per iteration, and the shorter run
    /// is the longer one's prefix, so 3 nodes are shared and the longer
    /// run alone has 2 more (whichever side it is on).
    #[test]
    fn a_longer_run_differs_by_its_extra_expansions() {
        let long = snap_after("leftmost", 5);
        let short = snap_after("leftmost", 3);
        assert_eq!(expansion_diff(&long, &short), (3, 2, 0));
        assert_eq!(expansion_diff(&short, &long), (3, 0, 2));
    }

    #[test]
    fn expanded_paths_name_the_root_and_the_moves() {
        let a = snap_after("leftmost", 2);
        let p = expanded_paths(&a);
        assert!(p.contains(""), "{p:?}");
        assert_eq!(p.len(), 2);
    }
}
