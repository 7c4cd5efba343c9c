//! Conspiracy-number searches (`cns`, `scns`) in the app: the selected
//! node's proof and disproof functions as step plots with the root's
//! search interval [v_min, v_max] shaded, the root's conspiracy numbers
//! p(v_max) and d(v_min), the interval narrowing as a live curve, and the
//! target t at which the tree labels show CN(t) = p(t) + d(t).
//!
//! The plain functions below turn the snapshot's staircases
//! ([`FunctionPlot`]) and the stats samples into plot points; [`ui`] only
//! draws them and reports a changed target.

use egui_plot::{Legend, Line, LineStyle, Plot, Span, VLine};

use crate::search::snapshot::{fmt_value, FunctionPlot, PlotStep};
use crate::search::StatsSample;

use super::logic::RunState;
use super::tree_view::TreeView;

/// Interval-curve points drawn at most (every k-th sample beyond).
const MAX_CURVE_POINTS: usize = 2_000;

/// The value range a function plot shows: every finite breakpoint, the
/// node's value and the finite ends of the interval, with a margin (a
/// single point gets ±1).
pub fn x_range(f: &FunctionPlot) -> (f64, f64) {
    let xs =
        f.p.iter()
            .chain(&f.d)
            .flat_map(|s| [s.lo, s.hi])
            .chain([f.value, f.v_min, f.v_max])
            .filter(|x| x.is_finite());
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if lo > hi {
        return (-1.0, 1.0);
    }
    let margin = ((hi - lo) * 0.15).max(1.0);
    (lo - margin, hi + margin)
}

/// The height at which infinite steps are drawn: one above the largest
/// finite height (and at least 1).
pub fn infinity_height(f: &FunctionPlot) -> f64 {
    f.p.iter()
        .chain(&f.d)
        .map(|s| s.height)
        .filter(|h| h.is_finite())
        .fold(0.0, f64::max)
        + 1.0
}

/// A staircase as a polyline over `[lo, hi]`: horizontal at each step's
/// height, vertical at the breakpoints; infinite heights at `inf`. Steps
/// outside the range are clipped away.
pub fn step_line(steps: &[PlotStep], (lo, hi): (f64, f64), inf: f64) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = Vec::new();
    for s in steps {
        let (a, b) = (s.lo.max(lo), s.hi.min(hi));
        if a > b {
            continue;
        }
        let h = if s.height.is_finite() { s.height } else { inf };
        out.push([a, h]);
        out.push([b, h]);
    }
    out
}

/// The interval curves from the samples: (iteration, v_min) and
/// (iteration, v_max), infinite ends left out, thinned to at most
/// [`MAX_CURVE_POINTS`] points each.
pub fn interval_curves(samples: &[StatsSample]) -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let with: Vec<(u64, [f64; 2])> = samples
        .iter()
        .filter_map(|s| s.interval.map(|iv| (s.iteration, iv)))
        .collect();
    let stride = with.len().div_ceil(MAX_CURVE_POINTS).max(1);
    let mut lows = Vec::new();
    let mut highs = Vec::new();
    for (k, (it, [lo, hi])) in with.iter().enumerate() {
        // Keep the last sample so the curve ends at the current interval.
        if k % stride != 0 && k + 1 != with.len() {
            continue;
        }
        if lo.is_finite() {
            lows.push([*it as f64, *lo]);
        }
        if hi.is_finite() {
            highs.push([*it as f64, *hi]);
        }
    }
    (lows, highs)
}

/// Draws the conspiracy-number plots; true when the CN target changed (the
/// tree view must ask for new labels).
pub fn ui(ui: &mut egui::Ui, run: &RunState, tree: &mut TreeView) -> bool {
    let Some(snap) = run.snapshot.as_ref() else {
        return false;
    };
    let changed = target_ui(ui, tree);
    let h = 150.0;
    ui.label("Search interval [v_min, v_max] per iteration");
    let (lows, highs) = interval_curves(&run.samples);
    Plot::new("cns-interval")
        .height(h)
        .legend(Legend::default())
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("v_max", highs).width(2.0));
            plot.line(Line::new("v_min", lows).width(2.0));
        });
    let Some(f) = snap.functions.as_ref() else {
        return changed;
    };
    let node = snap
        .nodes
        .iter()
        .find(|n| n.id == f.node)
        .map_or("root".to_string(), |n| {
            if n.parent.is_none() {
                "root".to_string()
            } else {
                n.move_label.clone()
            }
        });
    ui.label(format!(
        "Proof p(v) and disproof d(v) of {node} (value {}; ∞ drawn at the top step)",
        fmt_value(f.value)
    ));
    ui.label(format!(
        "root: interval [{}, {}], p(v_max) = {}, d(v_min) = {}",
        fmt_value(f.v_min),
        fmt_value(f.v_max),
        fmt_value(f.root_p),
        fmt_value(f.root_d)
    ));
    let range = x_range(f);
    let inf = infinity_height(f);
    let p = step_line(&f.p, range, inf);
    let d = step_line(&f.d, range, inf);
    let (lo, hi) = (f.v_min.max(range.0), f.v_max.min(range.1));
    let resp = Plot::new("cns-functions")
        .height(h * 1.3)
        .legend(Legend::default())
        .allow_scroll(false)
        .default_x_bounds(range.0, range.1)
        .default_y_bounds(-0.2, inf + 0.5)
        .x_axis_label("target value v")
        .show(ui, |plot| {
            if lo <= hi {
                plot.span(Span::new("interval", lo..=hi));
            }
            plot.line(Line::new("p(v)", p).width(2.0));
            plot.line(
                Line::new("d(v)", d)
                    .width(2.0)
                    .style(LineStyle::dashed_loose()),
            );
            if f.value.is_finite() {
                plot.vline(VLine::new("value", f.value));
            }
        });
    resp.response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, "proof and disproof functions")
    });
    changed
}

/// The CN target: off, or a value at which the tree labels show CN.
fn target_ui(ui: &mut egui::Ui, tree: &mut TreeView) -> bool {
    let mut on = tree.cn_target.is_some();
    let mut t = tree.cn_target.unwrap_or(0.0);
    let before = tree.cn_target;
    ui.horizontal(|ui| {
        ui.checkbox(&mut on, "Tree labels: CN at target")
            .on_hover_text(
                "CN(t) = p(t) + d(t): how many leaves must change for the node's value to become t",
            );
        let l = ui.label("t");
        ui.add_enabled(on, egui::DragValue::new(&mut t).speed(0.25))
            .labelled_by(l.id);
    });
    tree.cn_target = on.then_some(t);
    tree.cn_target != before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(lo: f64, hi: f64, height: f64) -> PlotStep {
        PlotStep { lo, hi, height }
    }

    fn plot() -> FunctionPlot {
        // p: 0 up to 3, 1 on [4, 6], ∞ above; d (mirrored): ∞ below −2,
        // 2 on [−2, 0], 0 from 1 on.
        FunctionPlot {
            node: 0,
            p: vec![
                step(f64::NEG_INFINITY, 3.0, 0.0),
                step(4.0, 6.0, 1.0),
                step(7.0, f64::INFINITY, f64::INFINITY),
            ],
            d: vec![
                step(f64::NEG_INFINITY, -3.0, f64::INFINITY),
                step(-2.0, 0.0, 2.0),
                step(1.0, f64::INFINITY, 0.0),
            ],
            value: 2.0,
            v_min: -2.0,
            v_max: 6.0,
            root_p: 1.0,
            root_d: 2.0,
        }
    }

    #[test]
    fn the_range_covers_every_finite_breakpoint_with_a_margin() {
        let (lo, hi) = x_range(&plot());
        // Breakpoints from −3 to 7: span 10, margin 1.5.
        assert_eq!((lo, hi), (-4.5, 8.5));
        let empty = FunctionPlot {
            p: vec![step(f64::NEG_INFINITY, f64::INFINITY, 0.0)],
            d: vec![],
            value: f64::INFINITY,
            v_min: f64::NEG_INFINITY,
            v_max: f64::INFINITY,
            ..plot()
        };
        assert_eq!(x_range(&empty), (-1.0, 1.0));
    }

    #[test]
    fn steps_become_a_clipped_polyline_with_infinity_on_top() {
        let f = plot();
        assert_eq!(infinity_height(&f), 3.0);
        let line = step_line(&f.p, (-4.5, 8.5), 3.0);
        assert_eq!(
            line,
            vec![
                [-4.5, 0.0],
                [3.0, 0.0],
                [4.0, 1.0],
                [6.0, 1.0],
                [7.0, 3.0],
                [8.5, 3.0]
            ]
        );
        // A range between breakpoints keeps only what it covers.
        assert_eq!(
            step_line(&f.p, (5.0, 5.5), 3.0),
            vec![[5.0, 1.0], [5.5, 1.0]]
        );
    }

    #[test]
    fn interval_curves_skip_infinite_ends_and_other_searches() {
        let s = |iteration, interval| StatsSample {
            iteration,
            interval,
            ..StatsSample::default()
        };
        let samples = vec![
            s(1, Some([f64::NEG_INFINITY, f64::INFINITY])),
            s(2, Some([-1.0, f64::INFINITY])),
            s(3, Some([2.0, 5.0])),
            s(4, None),
        ];
        let (lows, highs) = interval_curves(&samples);
        assert_eq!(lows, vec![[2.0, -1.0], [3.0, 2.0]]);
        assert_eq!(highs, vec![[3.0, 5.0]]);
    }

    #[test]
    fn long_runs_are_thinned_but_keep_the_last_interval() {
        let samples: Vec<StatsSample> = (0..10_001u64)
            .map(|i| StatsSample {
                iteration: i,
                interval: Some([-(i as f64), i as f64]),
                ..StatsSample::default()
            })
            .collect();
        let (lows, highs) = interval_curves(&samples);
        assert!(lows.len() <= MAX_CURVE_POINTS + 1, "{}", lows.len());
        assert_eq!(highs.last(), Some(&[10_000.0, 10_000.0]));
    }
}
