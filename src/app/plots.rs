//! Counters and live curves (issue #5 item 5, docs/architecture.md "Counters and
//! plots"): the counters of docs/algorithms.md §0/§9 under their CLI names, the
//! root's values against iterations on a log scale, and the cumulative
//! seesaw switches with the root-switch events marked; clicking an event
//! jumps the time-travel scrubber there.
//!
//! Series are kept in the view's state and appended to as samples arrive
//! (egui_plot examples: no copy of the whole history per frame); each
//! series thins itself to at most [`MAX_POINTS`] points by dropping every
//! second point and doubling its stride, so a long run stays cheap to draw.

use egui_plot::{Legend, Line, MarkerShape, Plot, PlotPoint, Points};

use crate::search::correct_moves::CorrectMoves;
use crate::search::snapshot::fmt_value;
use crate::search::{Snapshot, StatsSample};

use crate::search::error_rate::ErrorTally;

/// Points per drawn series at most.
pub const MAX_POINTS: usize = 4_000;

/// One thinned series.
#[derive(Default)]
struct Series {
    points: Vec<PlotPoint>,
    stride: u64,
    seen: u64,
}

impl Series {
    fn clear(&mut self) {
        self.points.clear();
        self.stride = 1;
        self.seen = 0;
    }

    fn push(&mut self, x: f64, y: f64) {
        let keep = self.seen.is_multiple_of(self.stride.max(1));
        self.seen += 1;
        if !keep || !y.is_finite() {
            return;
        }
        self.points.push(PlotPoint::new(x, y));
        if self.points.len() > MAX_POINTS {
            let mut i = 0;
            self.points.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.stride = self.stride.max(1) * 2;
        }
    }
}

/// The curves' state.
#[derive(Default)]
pub struct Curves {
    names: Vec<String>,
    /// log10 of each root value.
    values: Vec<Series>,
    root_switches: Series,
    all_switches: Series,
    /// Error of the chosen move (0/1) and the share of wrong iterations,
    /// when the correct moves are known.
    error_now: Series,
    error_share: Series,
    error_tally: ErrorTally,
    /// The correct moves the error series were scored against (their
    /// generation; 0 = none).
    correct_generation: u64,
    has_errors: bool,
    /// Samples already turned into points, and the run epoch they belong to.
    consumed: usize,
    epoch: u64,
}

/// A click on a switch event: jump there.
pub type Jump = Option<u64>;

impl Curves {
    /// Brings the series up to date with `samples` (appending only, unless
    /// the run or the known correct moves changed). `correct` comes with
    /// its generation number (see `error_rate::CorrectMovesTask`).
    pub fn sync(
        &mut self,
        samples: &[StatsSample],
        names: &[String],
        epoch: u64,
        correct: (Option<&CorrectMoves>, u64),
    ) {
        let (correct, correct_generation) = correct;
        if epoch != self.epoch
            || samples.len() < self.consumed
            || names != self.names.as_slice()
            || correct_generation != self.correct_generation
        {
            self.epoch = epoch;
            self.correct_generation = correct_generation;
            self.has_errors = correct.is_some();
            self.error_now.clear();
            self.error_share.clear();
            self.error_tally = ErrorTally::default();
            self.consumed = 0;
            self.names = names.to_vec();
            self.values = names.iter().map(|_| Series::default()).collect();
            for s in &mut self.values {
                s.clear();
            }
            self.root_switches.clear();
            self.all_switches.clear();
        }
        for s in &samples[self.consumed..] {
            let x = s.iteration as f64;
            for (series, v) in self.values.iter_mut().zip(&s.root_values) {
                // log scale: 0 and ∞ have no place on it.
                if *v > 0.0 && v.is_finite() {
                    series.push(x, v.log10());
                } else {
                    series.push(x, f64::NAN);
                }
            }
            self.root_switches.push(x, s.seesaw_root_switches as f64);
            self.all_switches.push(x, s.seesaw_switches as f64);
            if let Some(c) = correct {
                let (x, now, share) = self.error_tally.add(s, c);
                self.error_now.push(x, now);
                self.error_share.push(x, share);
            }
        }
        self.consumed = samples.len();
    }

    /// Root values (log scale), the switch curves and, when the correct
    /// moves are known, the error rate of the chosen move (`error_note`
    /// says what is known); returns the iteration of a clicked switch
    /// event.
    pub fn ui(&self, ui: &mut egui::Ui, snap: Option<&Snapshot>, error_note: &str) -> Jump {
        // The switch curves only for a search that keeps those counters
        // (for the others they would be a flat 0 that means nothing).
        let switches = snap.is_none_or(|s| {
            super::counters::applies(&s.algo, "seesaw_switches")
                || super::counters::applies(&s.algo, "seesaw_root_switches")
        });
        let plots = 1.0 + f32::from(u8::from(self.has_errors)) + f32::from(u8::from(switches));
        let h = ((ui.available_height() - 60.0) / plots).clamp(90.0, 260.0);
        ui.label("Root values (log scale)");
        Plot::new("root-values")
            .height(h)
            .legend(Legend::default())
            .y_axis_formatter(|m, _| log_tick(m.value))
            .label_formatter(|hp| {
                let p = match hp {
                    egui_plot::HoverPosition::NearDataPoint { position, .. } => *position,
                    egui_plot::HoverPosition::Elsewhere { position } => *position,
                };
                Some(format!(
                    "iteration {:.0}\nvalue {}",
                    p.x,
                    fmt_value((10f64.powf(p.y) * 100.0).round() / 100.0)
                ))
            })
            .allow_scroll(false)
            .show(ui, |plot| {
                for (name, s) in self.names.iter().zip(&self.values) {
                    plot.line(Line::new(format!("root {name}"), s.points.as_slice()));
                }
            });
        if !switches {
            if !error_note.is_empty() {
                ui.label(egui::RichText::new(error_note).small());
            }
            self.error_rate_ui(ui, h);
            return None;
        }
        ui.label("Cumulative seesaw switches (dots: root switch events, click to jump)");
        let events: Vec<[f64; 2]> = snap
            .map(|s| {
                s.switch_events
                    .iter()
                    .map(|e| {
                        let y = self.root_count_at(e.iteration);
                        [e.iteration as f64, y]
                    })
                    .collect()
            })
            .unwrap_or_default();
        let resp = Plot::new("switches")
            .height(h)
            .legend(Legend::default())
            // Counts: whole-number ticks on a labelled axis from 0.
            .y_axis_label("switches")
            .x_axis_label("iteration")
            .y_axis_min_width(28.0)
            .include_y(0.0)
            .include_y(2.0)
            .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
                let span = (input.bounds.1 - input.bounds.0).max(1.0);
                let step = 10f64.powf(span.log10().floor() - 1.0).max(1.0);
                [step * 10.0, step * 5.0, step]
            }))
            .y_axis_formatter(|m, _| {
                if m.value.fract() == 0.0 && m.value >= 0.0 {
                    format!("{:.0}", m.value)
                } else {
                    String::new()
                }
            })
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(Line::new(
                    "root switches",
                    self.root_switches.points.as_slice(),
                ));
                plot.line(Line::new(
                    "all switches",
                    self.all_switches.points.as_slice(),
                ));
                plot.points(
                    Points::new("switch events", events.clone())
                        .shape(MarkerShape::Diamond)
                        .radius(4.0),
                );
                plot.response()
                    .clicked()
                    .then(|| plot.pointer_coordinate())
                    .flatten()
            });
        if !error_note.is_empty() {
            ui.label(egui::RichText::new(error_note).small());
        }
        self.error_rate_ui(ui, h);
        let clicked = resp.inner?;
        // Nearest event in screen distance.
        let t = &resp.transform;
        let click = t.position_from_point(&clicked);
        events
            .iter()
            .map(|e| {
                (
                    e,
                    t.position_from_point(&PlotPoint::new(e[0], e[1]))
                        .distance(click),
                )
            })
            .filter(|(_, d)| *d < 12.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(e, _)| e[0] as u64)
    }

    /// The error rate of the chosen move, when the correct moves are known.
    fn error_rate_ui(&self, ui: &mut egui::Ui, h: f32) {
        if !self.has_errors {
            return;
        }
        ui.label("Error rate of the chosen move");
        Plot::new("error-rate")
            .height(h)
            .legend(Legend::default())
            .allow_scroll(false)
            .default_y_bounds(-0.05, 1.05)
            .show(ui, |plot| {
                plot.line(Line::new(
                    "chosen move wrong (0/1)",
                    self.error_now.points.as_slice(),
                ));
                plot.line(Line::new(
                    "share of iterations wrong",
                    self.error_share.points.as_slice(),
                ));
            });
    }

    fn root_count_at(&self, it: u64) -> f64 {
        let pts = &self.root_switches.points;
        let i = pts.partition_point(|p| p.x <= it as f64);
        if i == 0 {
            0.0
        } else {
            pts[i - 1].y
        }
    }
}

/// A tick label of a log10 axis: the value itself, one decimal below 10.
pub fn log_tick(log_value: f64) -> String {
    let v = 10f64.powf(log_value);
    if v < 10.0 {
        format!("{v:.1}")
    } else {
        fmt_value(v.round())
    }
}

/// The run's status in words.
pub fn status_text(s: &Snapshot) -> String {
    use crate::search::Status;
    match s.status {
        Status::Running => "running".into(),
        Status::Proved => "proved".into(),
        Status::Disproved => "disproved".into(),
        Status::Unknown(r) => format!("unknown ({})", r.name()),
    }
}
