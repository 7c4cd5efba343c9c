//! The game-progress view: RSCN along a game (a game record's moves, or
//! the engine's self-play from the loaded position), computed ply by ply
//! on a background thread and drawn as it grows: RSCN per ply with the
//! high / normal / low bands shaded, the first player's (Red's) and the
//! second player's (Black's) points in their colours, Vl on a second axis
//! on the right. Clicking a ply selects it: its two curves (SCN and value
//! against depth) are drawn below and the app shows the position.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::{bounded, Receiver, TryRecvError};
use egui::Color32;
use egui_plot::{AxisHints, HPlacement, Legend, Line, Plot, PlotPoints, Points, Polygon};

use crate::game::{AnyPosition, Game, Player};
use crate::search::alphabeta::rscn::{self, Rscn, RscnEntry, HIGH_BAND, LOW_BAND, NORMAL_BAND};
use crate::search::alphabeta::sequence::{along_moves, self_play, Flow, PositionCurves};
use crate::search::alphabeta::{AlphaBetaOptions, CurvePoint};
use crate::with_position;

/// Red's colour (the first player).
pub const RED: Color32 = Color32::from_rgb(215, 40, 40);
/// Black's colour (the second player), drawn with a light ring.
pub const BLACK: Color32 = Color32::from_rgb(10, 10, 10);

/// One analysed position of the game.
#[derive(Clone, Debug)]
pub struct PlyRow {
    /// Side to move.
    pub side: Player,
    /// The position.
    pub position: AnyPosition,
    /// The move played from it, if any.
    pub played: Option<String>,
    /// Its value and SCN per depth.
    pub curve: Vec<CurvePoint>,
}

/// Worker → view.
enum Msg {
    Row(Box<PlyRow>),
    Done,
    Error(String),
}

/// Self-play stops after this many moves if the game has not ended.
pub const MAX_PLIES: usize = 300;

/// The view's state.
#[derive(Default)]
pub struct RscnView {
    /// The window is shown.
    pub open: bool,
    title: String,
    rows: Vec<PlyRow>,
    entries: Vec<RscnEntry>,
    /// The clicked ply.
    pub selected: Option<usize>,
    rx: Option<Receiver<Msg>>,
    cancel: Arc<AtomicBool>,
    error: Option<String>,
    opts: Option<AlphaBetaOptions>,
}

impl RscnView {
    /// Starts a new analysis of `start` followed by `moves` (a game
    /// record), or of the engine's self-play from `start` when `moves` is
    /// `None`; `wake` repaints the window as rows arrive.
    pub fn start(
        &mut self,
        title: String,
        start: AnyPosition,
        moves: Option<Vec<String>>,
        opts: AlphaBetaOptions,
        wake: impl Fn() + Send + 'static,
    ) {
        self.stop();
        self.open = true;
        self.title = title;
        self.rows.clear();
        self.entries.clear();
        self.selected = None;
        self.error = None;
        self.opts = Some(opts);
        if !start.has_evaluation() {
            self.error = Some(format!(
                "RSCN needs a static evaluation, which {} does not have",
                start.kind()
            ));
            return;
        }
        let (tx, rx) = bounded(64);
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = cancel.clone();
        self.rx = Some(rx);
        let spawned = super::driver::jobs::detached("pnlab-rscn", 8 << 20, move || {
            let result: Result<(), String> = with_position!(&start, g => {
                let each = |_: usize, p: &PositionCurves<_>| -> Flow {
                    let row = Box::new(row_of(p));
                    let sent = tx.send(Msg::Row(row)).is_ok();
                    wake();
                    if sent && !cancel.load(Ordering::Relaxed) {
                        Flow::Continue
                    } else {
                        Flow::Stop
                    }
                };
                match &moves {
                    Some(m) => along_moves(g, m, &opts, each).map(|_| ()),
                    None => {
                        self_play(g, &opts, MAX_PLIES, each);
                        Ok(())
                    }
                }
            });
            let _ = tx.send(match result {
                Ok(()) => Msg::Done,
                Err(e) => Msg::Error(e),
            });
        });
        if let Err(e) = spawned {
            self.error = Some(e);
            self.rx = None;
        }
    }

    /// Stops the background analysis (its thread ends at the next ply).
    pub fn stop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.rx = None;
    }

    /// The analysis is still running.
    pub fn is_computing(&self) -> bool {
        self.rx.is_some()
    }

    /// The analysed plies so far.
    pub fn rows(&self) -> &[PlyRow] {
        &self.rows
    }

    /// RSCN, Vl and band of each ply so far.
    pub fn entries(&self) -> &[RscnEntry] {
        &self.entries
    }

    /// Takes the rows that arrived (call once per frame).
    pub fn poll(&mut self) {
        let Some(rx) = self.rx.as_ref() else { return };
        let mut grew = false;
        loop {
            match rx.try_recv() {
                Ok(Msg::Row(r)) => {
                    self.rows.push(*r);
                    grew = true;
                }
                Ok(Msg::Done) | Err(TryRecvError::Disconnected) => {
                    self.rx = None;
                    break;
                }
                Ok(Msg::Error(e)) => {
                    self.error = Some(e);
                    self.rx = None;
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        if grew {
            self.entries = analyse(&self.rows);
        }
    }

    /// Draws the window; returns the ply the user clicked (the app shows
    /// its position).
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<usize> {
        let mut open = self.open;
        let mut clicked = None;
        egui::Window::new("RSCN along the game")
            .open(&mut open)
            .default_size([720.0, 620.0])
            .show(ctx, |ui| clicked = self.contents(ui));
        self.open = open;
        if !open {
            self.stop();
        }
        clicked
    }

    fn contents(&mut self, ui: &mut egui::Ui) -> Option<usize> {
        ui.label(&self.title);
        if let Some(o) = &self.opts {
            ui.label(format!(
                "T = {}, depth 1 to {}: {} plies analysed{}",
                o.threshold,
                o.max_depth,
                self.rows.len(),
                if self.is_computing() {
                    " (running…)"
                } else {
                    ""
                }
            ));
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, format!("error: {e}"));
        }
        let s = rscn::summarize(&self.entries);
        let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1}"));
        ui.label(format!(
            "RSCN_red {}  RSCN_black {}  Vl_red {}  Vl_black {}",
            f(s.rscn_red),
            f(s.rscn_black),
            f(s.vl_red),
            f(s.vl_black)
        ));
        let clicked = self.progress_plot(ui);
        if let Some(k) = clicked {
            self.selected = Some(k);
        }
        if let Some(k) = self.selected {
            self.ply_curves(ui, k);
        }
        clicked
    }

    /// RSCN per ply with the bands, Vl on the right axis.
    fn progress_plot(&self, ui: &mut egui::Ui) -> Option<usize> {
        let n = self.rows.len().max(1) as f64;
        let (x0, x1) = (-0.5, n - 0.5);
        let band = |(lo, hi): (f64, f64)| vec![[x0, lo], [x1, lo], [x1, hi], [x0, hi]];
        let points = |side: Player| -> Vec<[f64; 2]> {
            self.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.side == side)
                .filter_map(|(i, e)| e.rscn.finite().map(|x| [i as f64, x]))
                .collect()
        };
        let (red, black) = (points(Player::First), points(Player::Second));
        let scale = vl_scale(&self.entries);
        let vl: Vec<[f64; 2]> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.vl.map(|v| [i as f64, v * scale]))
            .collect();
        let ring = ui.visuals().text_color();
        let resp = Plot::new("rscn-progress")
            .height(300.0)
            .legend(Legend::default())
            .allow_scroll(false)
            .x_axis_label("ply")
            .custom_y_axes(vec![
                AxisHints::new_y().label("RSCN"),
                AxisHints::new_y()
                    .label("Vl")
                    .placement(HPlacement::Right)
                    .formatter(move |m, _| format!("{:.0}", m.value / scale)),
            ])
            .show(ui, |plot| {
                let shades = [
                    (
                        "high band",
                        HIGH_BAND,
                        Color32::from_rgba_unmultiplied(60, 170, 60, 40),
                    ),
                    (
                        "normal band",
                        NORMAL_BAND,
                        Color32::from_rgba_unmultiplied(150, 150, 150, 40),
                    ),
                    (
                        "low band",
                        LOW_BAND,
                        Color32::from_rgba_unmultiplied(230, 140, 30, 40),
                    ),
                ];
                for (name, b, c) in shades {
                    plot.polygon(
                        Polygon::new(name, PlotPoints::from(band(b)))
                            .fill_color(c)
                            .stroke(egui::Stroke::NONE),
                    );
                }
                plot.line(Line::new("Vl (right axis)", vl).color(Color32::from_rgb(70, 130, 220)));
                plot.points(Points::new("Red", red).color(RED).radius(4.0));
                plot.points(Points::new("Black", black.clone()).color(BLACK).radius(4.0));
                plot.points(
                    Points::new("Black", black)
                        .color(ring)
                        .filled(false)
                        .radius(4.5),
                );
                if let Some(k) = self.selected {
                    plot.vline(egui_plot::VLine::new("selected ply", k as f64));
                }
                plot.response()
                    .clicked()
                    .then(|| plot.pointer_coordinate())
                    .flatten()
            });
        let p = resp.inner?;
        nearest_ply(p.x, self.rows.len())
    }

    /// The selected ply's value and SCN curves.
    fn ply_curves(&self, ui: &mut egui::Ui, k: usize) {
        let (Some(row), Some(e)) = (self.rows.get(k), self.entries.get(k)) else {
            return;
        };
        let side = if row.side == Player::First {
            "Red"
        } else {
            "Black"
        };
        let rs = match e.rscn {
            Rscn::Finite(x) => format!("{x:.1}"),
            Rscn::Infinite => "∞".into(),
            Rscn::Undefined => "-".into(),
        };
        ui.label(format!(
            "ply {k}: {side} to move{}; RSCN {rs} ({}), Vl {}",
            row.played
                .as_ref()
                .map_or(String::new(), |m| format!(", played {m}")),
            e.band.name(),
            e.vl.map_or("-".into(), |v| format!("{v:.1}"))
        ));
        let inf = row
            .curve
            .iter()
            .filter(|p| p.scn != crate::search::pn::INF)
            .map(|p| f64::from(p.scn))
            .fold(1.0f64, f64::max)
            + 1.0;
        let scn: Vec<[f64; 2]> = row
            .curve
            .iter()
            .map(|p| {
                let s = if p.scn == crate::search::pn::INF {
                    inf
                } else {
                    f64::from(p.scn)
                };
                [f64::from(p.depth), s]
            })
            .collect();
        let value: Vec<[f64; 2]> = row
            .curve
            .iter()
            .map(|p| [f64::from(p.depth), f64::from(p.value)])
            .collect();
        let colour = if row.side == Player::First {
            RED
        } else {
            ui.visuals().text_color()
        };
        ui.columns(2, |cols| {
            cols[0].label("SCN against depth (∞ at the top)");
            Plot::new("rscn-ply-scn")
                .height(150.0)
                .allow_scroll(false)
                .include_y(0.0)
                .show(&mut cols[0], |plot| {
                    plot.line(Line::new("SCN", scn).color(colour));
                });
            cols[1].label("Value against depth");
            Plot::new("rscn-ply-value")
                .height(150.0)
                .allow_scroll(false)
                .show(&mut cols[1], |plot| {
                    plot.line(Line::new("value", value).color(colour));
                });
        });
    }
}

/// A finished position as the view keeps it.
fn row_of<G: Game>(p: &PositionCurves<G>) -> PlyRow {
    PlyRow {
        side: p.side,
        position: p.position.clone().into_any(),
        played: p.played.clone(),
        curve: p.curve.clone(),
    }
}

/// RSCN entries of the rows so far.
pub fn analyse(rows: &[PlyRow]) -> Vec<RscnEntry> {
    let seq: Vec<(Player, &[CurvePoint])> =
        rows.iter().map(|r| (r.side, r.curve.as_slice())).collect();
    rscn::along(&seq)
}

/// The factor that draws Vl on the RSCN axis: the largest |Vl| lands on
/// the largest |RSCN| (at least the normal band's edge), so both fill the
/// plot; the right axis divides it out again.
pub fn vl_scale(entries: &[RscnEntry]) -> f64 {
    let max_r = entries
        .iter()
        .filter_map(|e| e.rscn.finite())
        .fold(NORMAL_BAND.1, |m, x| m.max(x.abs()));
    let max_v = entries
        .iter()
        .filter_map(|e| e.vl)
        .fold(0.0f64, |m, x| m.max(x.abs()));
    if max_v > 0.0 {
        max_r / max_v
    } else {
        1.0
    }
}

/// The ply under plot coordinate `x` (rounded), if the game has it.
pub fn nearest_ply(x: f64, plies: usize) -> Option<usize> {
    let k = x.round();
    (k >= 0.0 && (k as usize) < plies).then_some(k as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::rscn::Band;

    fn entry(rscn: Rscn, vl: Option<f64>) -> RscnEntry {
        RscnEntry {
            side: Player::First,
            r: None,
            rscn,
            vl,
            band: Band::None,
        }
    }

    #[test]
    fn a_click_selects_the_nearest_ply_inside_the_game() {
        assert_eq!(nearest_ply(2.4, 5), Some(2));
        assert_eq!(nearest_ply(2.6, 5), Some(3));
        assert_eq!(nearest_ply(-0.7, 5), None);
        assert_eq!(nearest_ply(4.6, 5), None);
    }

    #[test]
    fn vl_is_scaled_onto_the_rscn_range() {
        // |RSCN| up to 200, |Vl| up to 50: Vl is drawn four times larger.
        let e = [
            entry(Rscn::Finite(-200.0), Some(50.0)),
            entry(Rscn::Infinite, Some(-10.0)),
        ];
        assert_eq!(vl_scale(&e), 4.0);
        // Small RSCN: the normal band's edge is the reference.
        let e = [entry(Rscn::Finite(1.0), Some(362.0))];
        assert!((vl_scale(&e) - NORMAL_BAND.1 / 362.0).abs() < 1e-12);
        assert_eq!(vl_scale(&[entry(Rscn::Undefined, None)]), 1.0);
    }

    #[test]
    fn self_play_rows_arrive_from_the_background_thread() {
        let mut v = RscnView::default();
        let opts = AlphaBetaOptions {
            threshold: 0,
            max_depth: 9,
            record_limit: 0,
            ..AlphaBetaOptions::default()
        };
        let start = crate::game::tictactoe::TicTacToe::new().into_any();
        v.start("ttt".into(), start, None, opts, || {});
        let t0 = std::time::Instant::now();
        while v.is_computing() && t0.elapsed().as_secs() < 60 {
            v.poll();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // Perfect play fills the board: nine moves, ten positions, sides
        // alternating from the first player.
        assert_eq!(v.rows().len(), 10);
        assert_eq!(v.rows()[9].position.outcome().map(|o| o.score), Some(0));
        assert_eq!(v.entries().len(), 10);
        assert_eq!(v.rows()[1].side, Player::Second);
    }
}
