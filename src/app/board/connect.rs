//! Connect(m, n, k, p, q) and Connect6 as a Go board: stones on the
//! intersections of an m × n grid (`a1` top-left, columns lettered left to
//! right, rows numbered downwards, as the notation), star points on the
//! usual boards, coordinates on the edges. Options under the board: the
//! stones' play order as numbers (otherwise only the selection path's
//! moves are numbered), and an overlay of the threats and the relevance
//! zone. The last turn's stones carry a red mark; the root's moves carry
//! the algorithm's labels (pn/dn) like the other boards.
//!
//! The overlay, for the side to move X with s stones left in its turn:
//! green dots on the cells of windows X completes with its s stones (a win
//! now), orange crosses on the cells of windows the opponent completes on
//! its next turn (X's stones must hit them all), and a blue tint on the
//! relevance zone: the cells where X must place a stone or lose to the
//! opponent's VCDT (computed with the solver's default limits; absent when
//! no VCDT is found).

use egui::{Color32, Pos2, Rect, Stroke, Vec2};

use super::{canvas, centered_text, overlay_color, path_number, stone, BoardInput};
use crate::game::connect::board::Cell;
use crate::game::connect::threats::{threat_windows, CellSets};
use crate::game::connect::vcdt::VcdtOptions;
use crate::game::connect::zone::relevance_zone;
use crate::game::connect::{turn_index, Connect};
use crate::game::{Game, Player};

/// What the board shows besides the grid, worked out from the position
/// alone (plain data, unit-tested).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// Every stone: cell, owner, 1-based play order.
    pub stones: Vec<(Cell, Player, usize)>,
    /// The stones of the last turn (the current one if it is under way).
    pub last_turn: Vec<Cell>,
    /// Empty cells of windows the side to move completes now.
    pub wins: Vec<Cell>,
    /// Empty cells of windows the opponent completes on its next turn.
    pub blocks: Vec<Cell>,
    /// The side to move's relevance zone (see the module comment).
    pub zone: Option<Vec<Cell>>,
}

/// Sorted union of the cells of `sets`.
fn union(sets: &CellSets) -> Vec<Cell> {
    let mut v = sets.union();
    v.sort_unstable();
    v.dedup();
    v
}

/// The marks of `g`; the threats and the zone only when `overlay`.
pub fn marks(g: &Connect, overlay: bool) -> Marks {
    let rules = g.rules();
    let board = g.board();
    let stones: Vec<(Cell, Player, usize)> = g
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, board.at(c).unwrap_or(Player::First), i + 1))
        .collect();
    let last_turn = match g.moves().len() {
        0 => Vec::new(),
        len => {
            let t = turn_index(rules, len - 1);
            g.moves()
                .iter()
                .enumerate()
                .filter(|(i, _)| turn_index(rules, *i) == t)
                .map(|(_, &c)| c)
                .collect()
        }
    };
    let mut out = Marks {
        stones,
        last_turn,
        ..Marks::default()
    };
    if !overlay || g.outcome().is_some() {
        return out;
    }
    let me = g.to_move();
    let mut sets = CellSets::default();
    threat_windows(board, me, g.stones_left(), &mut sets);
    out.wins = union(&sets);
    threat_windows(board, me.other(), rules.p, &mut sets);
    out.blocks = union(&sets);
    if out.wins.is_empty() {
        let (zone, _) = relevance_zone(board, me, g.stones_left(), rules.p, VcdtOptions::default());
        out.zone = zone;
    }
    out
}

/// Star points of an m × n board (the Go boards' hoshi; none on small
/// boards).
pub fn star_points(m: u8, n: u8) -> Vec<(u8, u8)> {
    let axis = |len: u8| -> Vec<u8> {
        match len {
            0..=8 => Vec::new(),
            9..=12 => vec![2, len - 3],
            _ if len & 1 == 1 => vec![3, len / 2, len - 4],
            _ => vec![3, len - 4],
        }
    };
    let (xs, ys) = (axis(m), axis(n));
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
        .collect()
}

/// The board's options (kept in egui's memory across frames).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Options {
    numbers: bool,
    overlay: bool,
}

fn options_id(ui: &egui::Ui) -> egui::Id {
    ui.scope_id().with("connect-board-options")
}

/// Font size that fits `text` into a cell of width `cell`.
fn fit(text: &str, cell: f32) -> f32 {
    let chars = text.chars().count().max(1) as f32;
    (cell * 0.52).min(cell * 1.05 / (0.58 * chars)).max(6.0)
}

/// Where the board's intersections land on screen.
#[derive(Clone, Copy)]
struct Grid {
    /// The canvas.
    rect: Rect,
    /// The first intersection (one cell in from the corner, for labels).
    origin: Pos2,
    /// Distance between two lines.
    cell: f32,
}

impl Grid {
    /// The screen point of cell `c` of `g`.
    fn at(self, g: &Connect, c: Cell) -> Pos2 {
        let (x, y) = g.board().geometry().xy(c);
        self.origin + Vec2::new(f32::from(x), f32::from(y)) * self.cell
    }
}

/// Draws a connect position; `false` when the position is not one.
pub fn draw(ui: &mut egui::Ui, _side: f32, input: &BoardInput<'_>) -> bool {
    let crate::game::AnyPosition::Connect(g) = input.position.shown() else {
        return false;
    };
    let opts = options_ui(ui);
    let marks = cached_marks(ui, g, opts.overlay);
    let rules = g.rules();
    let (m, n) = (f32::from(rules.m), f32::from(rules.n));
    // A 19 × 19 board gets up to 640 px, so numbers stay legible.
    let width = ui.available_width().clamp(160.0, 640.0);
    let cell = width / (m + 1.0);
    let size = Vec2::new(width, cell * (n + 1.0));
    let (rect, p) = canvas(ui, size, format!("connect board {}", g.notation()));
    let grid = Grid {
        rect,
        origin: rect.min + Vec2::splat(cell),
        cell,
    };
    draw_lines(&p, grid, g);
    draw_marks(&p, grid, g, &marks);
    draw_stones(&p, grid, g, &marks, opts, input.path);
    draw_overlays(&p, grid, g, input);
    summary_ui(ui, g, &marks, opts);
    true
}

/// The board's options (stone numbers, threats and zone), kept per view.
fn options_ui(ui: &mut egui::Ui) -> Options {
    let mut opts = ui
        .data(|d| d.get_temp::<Options>(options_id(ui)))
        .unwrap_or(Options {
            numbers: true,
            overlay: false,
        });
    ui.horizontal(|ui| {
        ui.checkbox(&mut opts.numbers, "stone numbers");
        ui.checkbox(&mut opts.overlay, "threats and zone");
    });
    let id = options_id(ui);
    ui.data_mut(|d| d.insert_temp(id, opts));
    opts
}

/// The marks, worked out once per position and option (the zone runs a
/// VCDT solver).
fn cached_marks(ui: &egui::Ui, g: &Connect, overlay: bool) -> Marks {
    let key = ui
        .scope_id()
        .with(("connect-board-marks", g.notation(), overlay));
    match ui.data(|d| d.get_temp::<Marks>(key)) {
        Some(m) => m,
        None => {
            let m = marks(g, overlay);
            ui.data_mut(|d| d.insert_temp(key, m.clone()));
            m
        }
    }
}

/// Wood, lines, star points and coordinates.
fn draw_lines(p: &egui::Painter, grid: Grid, g: &Connect) {
    let rules = g.rules();
    let (m, n) = (f32::from(rules.m), f32::from(rules.n));
    let (origin, cell) = (grid.origin, grid.cell);
    p.rect_filled(grid.rect, 4.0, Color32::from_rgb(222, 184, 110));
    let line = Stroke::new(1.0, Color32::from_rgb(60, 45, 20));
    for x in 0..rules.m {
        let x = origin.x + f32::from(x) * cell;
        p.line_segment(
            [
                Pos2::new(x, origin.y),
                Pos2::new(x, origin.y + (n - 1.0) * cell),
            ],
            line,
        );
    }
    for y in 0..rules.n {
        let y = origin.y + f32::from(y) * cell;
        p.line_segment(
            [
                Pos2::new(origin.x, y),
                Pos2::new(origin.x + (m - 1.0) * cell, y),
            ],
            line,
        );
    }
    for (x, y) in star_points(rules.m, rules.n) {
        let c = origin + Vec2::new(f32::from(x), f32::from(y)) * cell;
        p.circle_filled(c, (cell * 0.1).max(1.5), line.color);
    }
    let label = Color32::from_rgb(70, 50, 20);
    let coord = (cell * 0.38).clamp(7.0, 14.0);
    for x in 0..u16::from(rules.m) {
        let c = Pos2::new(
            origin.x + f32::from(x) * cell,
            grid.rect.min.y + cell * 0.45,
        );
        let name = crate::game::connect::notation::column_name(x);
        centered_text(p, c, &name, coord, label);
    }
    for y in 0..rules.n {
        let c = Pos2::new(
            grid.rect.min.x + cell * 0.45,
            origin.y + f32::from(y) * cell,
        );
        centered_text(p, c, &(u16::from(y) + 1).to_string(), coord, label);
    }
}

/// The relevance zone (blue), the cells to block (orange crosses) and
/// the winning cells (green dots).
fn draw_marks(p: &egui::Painter, grid: Grid, g: &Connect, marks: &Marks) {
    let cell = grid.cell;
    if let Some(zone) = &marks.zone {
        for &c in zone {
            let r = Rect::from_center_size(grid.at(g, c), Vec2::splat(cell * 0.9));
            p.rect_filled(r, 2.0, Color32::from_rgba_unmultiplied(40, 110, 200, 90));
        }
    }
    for &c in &marks.blocks {
        let (q, d) = (grid.at(g, c), cell * 0.22);
        let s = Stroke::new(2.0, Color32::from_rgb(230, 120, 20));
        p.line_segment([q - Vec2::splat(d), q + Vec2::splat(d)], s);
        p.line_segment([q + Vec2::new(-d, d), q + Vec2::new(d, -d)], s);
    }
    for &c in &marks.wins {
        p.circle_filled(grid.at(g, c), cell * 0.18, Color32::from_rgb(46, 160, 67));
    }
}

/// The stones: numbered in play order (or, without numbers, the path's
/// own stones by their move on the path), the last turn's marked red.
fn draw_stones(
    p: &egui::Painter,
    grid: Grid,
    g: &Connect,
    marks: &Marks,
    opts: Options,
    path: &[String],
) {
    let cell = grid.cell;
    let first_path = marks.stones.len().saturating_sub(path.len());
    for &(c, owner, order) in &marks.stones {
        let q = grid.at(g, c);
        let r = cell * 0.46;
        p.circle_filled(q, r, stone(owner));
        p.circle_stroke(q, r, Stroke::new(1.0, Color32::from_gray(40)));
        let ink = match owner {
            Player::First => Color32::WHITE,
            Player::Second => Color32::BLACK,
        };
        let number = if opts.numbers {
            Some(order)
        } else if order > first_path {
            path_number(path, &g.cell_name(c))
        } else {
            None
        };
        if let Some(k) = number {
            let t = k.to_string();
            centered_text(p, q, &t, fit(&t, cell), ink);
        }
        if marks.last_turn.contains(&c) {
            let s = cell * 0.16;
            let mark = Rect::from_center_size(q + Vec2::new(r * 0.62, -r * 0.62), Vec2::splat(s));
            p.rect_filled(mark, 1.0, Color32::from_rgb(220, 40, 40));
        }
    }
}

/// The root moves' values on their cells.
fn draw_overlays(p: &egui::Painter, grid: Grid, g: &Connect, input: &BoardInput<'_>) {
    let rules = g.rules();
    let cell = grid.cell;
    for o in &input.overlays {
        let Some(c) = (0..rules.m as usize * rules.n as usize)
            .map(|c| c as Cell)
            .find(|&c| g.cell_name(c) == o.mv)
        else {
            continue;
        };
        let q = grid.at(g, c);
        let box_ = Rect::from_center_size(q, Vec2::new(cell * 0.98, cell * 0.62));
        p.rect_filled(
            box_,
            2.0,
            Color32::from_rgba_unmultiplied(255, 255, 255, 200),
        );
        centered_text(p, q, &o.text, fit(&o.text, cell), overlay_color(o.status));
    }
}

/// The rules, the stone counts and whose turn it is; with the overlay,
/// what its colours count.
fn summary_ui(ui: &mut egui::Ui, g: &Connect, marks: &Marks, opts: Options) {
    let rules = g.rules();
    let count = |pl: Player| marks.stones.iter().filter(|s| s.1 == pl).count();
    let turn = match g.outcome() {
        Some(_) => "game over".to_string(),
        None => format!(
            "{} to place {} stone{}",
            side_name(g.to_move()),
            g.stones_left(),
            if g.stones_left() == 1 { "" } else { "s" }
        ),
    };
    ui.label(format!(
        "Connect({},{},{},{},{}): Black {} stones, White {}; {turn}",
        rules.m,
        rules.n,
        rules.k,
        rules.p,
        rules.q,
        count(Player::First),
        count(Player::Second)
    ));
    if opts.overlay {
        let zone = match &marks.zone {
            Some(z) => format!("relevance zone: {} cells", z.len()),
            None => "no relevance zone (no opponent VCDT found)".to_string(),
        };
        ui.label(format!(
            "green: wins now ({}), orange: to block ({}), blue: {zone}",
            marks.wins.len(),
            marks.blocks.len()
        ));
    }
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "Black",
        Player::Second => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(g: &Connect, cells: &[Cell]) -> Vec<String> {
        let mut v: Vec<String> = cells.iter().map(|&c| g.cell_name(c)).collect();
        v.sort();
        v
    }

    #[test]
    fn the_last_turn_is_the_last_group_of_p_stones() {
        // Connect6: Black j10 (q = 1), White k10 k11, Black j11 (turn under way).
        let g = Connect::parse_connect6("j10 k10 k11 j11").unwrap();
        let m = marks(&g, false);
        assert_eq!(names(&g, &m.last_turn), ["j11"]);
        let g = Connect::parse_connect6("j10 k10 k11").unwrap();
        assert_eq!(names(&g, &marks(&g, false).last_turn), ["k10", "k11"]);
        assert_eq!(
            marks(&g, false)
                .stones
                .iter()
                .map(|s| (s.1, s.2))
                .collect::<Vec<_>>(),
            [(Player::First, 1), (Player::Second, 2), (Player::Second, 3)]
        );
    }

    #[test]
    fn the_overlay_shows_wins_and_blocks() {
        // Tic-tac-toe as Connect(3,3,3,1,1): X a1 b1, O a2 b2, X to move.
        // X wins now at c1; O's next turn would complete row 2 at c2.
        let g = Connect::parse("3,3,3,1,1:a1 a2 b1 b2").unwrap();
        let m = marks(&g, true);
        assert_eq!(names(&g, &m.wins), ["c1"]);
        assert_eq!(names(&g, &m.blocks), ["c2"]);
        // X has a win: no zone is computed.
        assert_eq!(m.zone, None);
        // Without the overlay nothing is computed.
        assert_eq!(marks(&g, false).wins, Vec::<Cell>::new());
    }

    #[test]
    fn star_points_are_the_go_boards() {
        let s = star_points(19, 19);
        assert_eq!(s.len(), 9);
        assert!(s.contains(&(3, 3)) && s.contains(&(9, 9)) && s.contains(&(15, 15)));
        assert_eq!(star_points(9, 9).len(), 4);
        assert!(star_points(6, 6).is_empty());
    }
}
