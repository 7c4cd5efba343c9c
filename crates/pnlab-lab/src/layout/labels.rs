//! Labels that fit: numbers shortened for small places (`1.2k`, `∞`,
//! `0.07`), text measured by the caller's [`Measure`], and a greedy
//! placement that keeps a label only where it overlaps no label kept
//! before it and no node (the others are shown on hover). The tree views
//! and the board painters all go through here, so "labels never overlap"
//! is one rule, tested once.

use pnlab_core::search::Snapshot;

/// An axis-aligned box in points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bounds {
    /// Left edge.
    pub min_x: f32,
    /// Top edge.
    pub min_y: f32,
    /// Right edge.
    pub max_x: f32,
    /// Bottom edge.
    pub max_y: f32,
}

impl Bounds {
    /// The box with corner `(x, y)` and size `w × h`.
    pub fn from_min_size(x: f32, y: f32, w: f32, h: f32) -> Bounds {
        Bounds {
            min_x: x,
            min_y: y,
            max_x: x + w,
            max_y: y + h,
        }
    }

    /// The box of size `w × h` centred on `(cx, cy)`.
    pub fn from_center_size(cx: f32, cy: f32, w: f32, h: f32) -> Bounds {
        Bounds::from_min_size(cx - w / 2.0, cy - h / 2.0, w, h)
    }

    /// Width.
    pub fn width(&self) -> f32 {
        self.max_x - self.min_x
    }

    /// Height.
    pub fn height(&self) -> f32 {
        self.max_y - self.min_y
    }

    /// True when the two boxes share an area (touching edges do not).
    pub fn intersects(&self, o: &Bounds) -> bool {
        self.min_x < o.max_x && o.min_x < self.max_x && self.min_y < o.max_y && o.min_y < self.max_y
    }

    /// True when `o` lies inside this box (edges included, with a
    /// rounding tolerance of a hundredth of a point).
    pub fn contains(&self, o: &Bounds) -> bool {
        const EPS: f32 = 0.01;
        o.min_x >= self.min_x - EPS
            && o.min_y >= self.min_y - EPS
            && o.max_x <= self.max_x + EPS
            && o.max_y <= self.max_y + EPS
    }

    /// The box moved by `(dx, dy)`.
    pub fn translate(&self, dx: f32, dy: f32) -> Bounds {
        Bounds::from_min_size(
            self.min_x + dx,
            self.min_y + dy,
            self.width(),
            self.height(),
        )
    }
}

/// Text width in points for a font size: the app measures with its own
/// fonts (the same ones it draws with); tests and the SVG export use
/// [`ApproxMeasure`].
pub trait Measure {
    /// Width of `text` drawn on one line at `font_size` points.
    fn width(&self, text: &str, font_size: f32) -> f32;
}

/// A generous estimate: every character 0.62 em wide (wider than any
/// digit, letter or sign in the proportional fonts the app uses).
#[derive(Clone, Copy, Debug, Default)]
pub struct ApproxMeasure;

impl Measure for ApproxMeasure {
    fn width(&self, text: &str, font_size: f32) -> f32 {
        text.chars().count() as f32 * font_size * 0.62
    }
}

impl<F: Fn(&str, f32) -> f32> Measure for F {
    fn width(&self, text: &str, font_size: f32) -> f32 {
        self(text, font_size)
    }
}

/// A value in at most about five characters: integers below 1,000 as
/// they are, larger ones as `1.2k`, `45k`, `3.1M`, `2.0G`; fractions with
/// two significant digits (`0.07`, `0.0012`); `∞`, `-∞`, and `–` for a
/// value that does not apply.
pub fn short_value(v: f64) -> String {
    if v.is_nan() {
        return "–".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.into();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let a = v.abs();
    if a >= 999.5 {
        // The largest unit that keeps the number at least 1 after
        // rounding (999,999 is "1.0M", not "1000k").
        let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
        let (div, unit) = units
            .iter()
            .copied()
            .find(|(d, _)| a / d >= 0.9995)
            .unwrap_or((1e3, "k"));
        let scaled = a / div;
        return if scaled < 9.95 {
            format!("{sign}{scaled:.1}{unit}")
        } else {
            format!("{sign}{scaled:.0}{unit}")
        };
    }
    if v.fract() == 0.0 {
        return format!("{}", v as i64);
    }
    if a >= 100.0 {
        format!("{sign}{a:.0}")
    } else if a >= 10.0 {
        format!("{sign}{a:.1}")
    } else if a >= 1.0 {
        format!("{sign}{a:.2}")
    } else if a >= 0.001 {
        // Two significant digits.
        let digits = (-a.log10()).floor() as usize + 2;
        format!("{sign}{a:.digits$}")
    } else {
        format!("{sign}{a:.1e}")
    }
}

/// A node's label in short form: the algorithm's label values
/// (`Snapshot::label_values`), shortened and joined by `/`.
pub fn short_label(snap: &Snapshot, values: &[f64]) -> String {
    snap.label_values
        .iter()
        .filter_map(|&i| values.get(i))
        .map(|&v| short_value(v))
        .collect::<Vec<_>>()
        .join("/")
}

/// The smallest font a board label is drawn with; a cell too small for
/// it shows its values on hover only.
pub const MIN_CELL_FONT: f32 = 7.0;

/// A label fitted to a board cell: its lines and font size.
#[derive(Clone, Debug, PartialEq)]
pub struct CellLabel {
    /// One or two lines of shortened values.
    pub lines: Vec<String>,
    /// Font size in points.
    pub font: f32,
}

impl CellLabel {
    /// Width and height the label takes.
    pub fn size(&self, measure: &dyn Measure) -> (f32, f32) {
        let w = self
            .lines
            .iter()
            .map(|l| measure.width(l, self.font))
            .fold(0.0, f32::max);
        (w, self.lines.len() as f32 * self.font * LINE)
    }
}

/// Line height as a multiple of the font size.
const LINE: f32 = 1.2;

/// Every board painter's label rule: the first `shown` of `values`
/// (the third value of DeepPN and the like only on hover or by a
/// toggle), shortened by [`short_value`], on one line (`12/3`) or one per
/// line, at the largest font up to `max_font` that fits a `w × h` box.
/// `None` when even [`MIN_CELL_FONT`] does not fit: the painter then draws
/// nothing and the values show on hover.
pub fn fit_cell(
    values: &[f64],
    shown: usize,
    w: f32,
    h: f32,
    max_font: f32,
    measure: &dyn Measure,
) -> Option<CellLabel> {
    let parts: Vec<String> = values.iter().take(shown).map(|&v| short_value(v)).collect();
    if parts.is_empty() {
        return None;
    }
    let one_line = vec![parts.join("/")];
    let mut best: Option<CellLabel> = None;
    for lines in [one_line, parts] {
        // Width and height grow linearly with the font.
        let w1 = lines
            .iter()
            .map(|l| measure.width(l, 1.0))
            .fold(0.0, f32::max);
        let h1 = lines.len() as f32 * LINE;
        let font = (w / w1.max(1e-6)).min(h / h1).min(max_font);
        let font = (font * 4.0).floor() / 4.0;
        if font >= MIN_CELL_FONT && best.as_ref().is_none_or(|b| font > b.font) {
            best = Some(CellLabel { lines, font });
        }
    }
    best
}

/// Greedy placement: `candidates` in priority order; each is kept when
/// it overlaps none kept before it and none of the `obstacles` (node
/// shapes). Returns which were kept.
pub fn place(candidates: &[Bounds], obstacles: &[Bounds]) -> Vec<bool> {
    let mut placer = Placer::new(obstacles);
    candidates.iter().map(|b| placer.try_take(b)).collect()
}

/// The occupied area of a drawing, for placing labels one by one: a
/// uniform grid of the boxes taken so far keeps each test near constant.
pub struct Placer {
    grid: std::collections::HashMap<(i64, i64), Vec<Bounds>>,
}

impl Placer {
    const CELL: f32 = 48.0;

    /// An area where `obstacles` (node shapes) are taken.
    pub fn new(obstacles: &[Bounds]) -> Placer {
        let mut p = Placer {
            grid: std::collections::HashMap::new(),
        };
        for o in obstacles {
            p.take(*o);
        }
        p
    }

    fn cells(b: &Bounds) -> impl Iterator<Item = (i64, i64)> {
        let key = |x: f32, y: f32| {
            (
                (x / Self::CELL).floor() as i64,
                (y / Self::CELL).floor() as i64,
            )
        };
        let (x0, y0) = key(b.min_x, b.min_y);
        let (x1, y1) = key(b.max_x, b.max_y);
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    /// Whether `b` overlaps nothing taken.
    pub fn is_free(&self, b: &Bounds) -> bool {
        if !b.width().is_finite() || !b.height().is_finite() {
            return false;
        }
        Self::cells(b).all(|c| {
            self.grid
                .get(&c)
                .is_none_or(|v| v.iter().all(|o| !o.intersects(b)))
        })
    }

    /// Marks `b` as taken, free or not.
    pub fn take(&mut self, b: Bounds) {
        if !b.width().is_finite() || !b.height().is_finite() {
            return;
        }
        for c in Self::cells(&b) {
            self.grid.entry(c).or_default().push(b);
        }
    }

    /// Takes `b` when it is free; says whether it did.
    pub fn try_take(&mut self, b: &Bounds) -> bool {
        let free = self.is_free(b);
        if free {
            self.take(*b);
        }
        free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_stay_short_and_keep_their_magnitude() {
        let cases = [
            (0.0, "0"),
            (7.0, "7"),
            (999.0, "999"),
            (1000.0, "1.0k"),
            (1234.0, "1.2k"),
            (45_678.0, "46k"),
            (999_999.0, "1.0M"),
            (3_100_000.0, "3.1M"),
            (2.0e9, "2.0G"),
            (f64::INFINITY, "∞"),
            (f64::NEG_INFINITY, "-∞"),
            (f64::NAN, "–"),
            (0.0701, "0.070"),
            (0.5, "0.50"),
            (0.001234, "0.0012"),
            (0.00001234, "1.2e-5"),
            (12.345, "12.3"),
            (-3.5, "-3.50"),
        ];
        for (v, want) in cases {
            assert_eq!(short_value(v), want, "{v}");
        }
        for v in [
            1.0, 12.0, 999.0, 1e3, 5e5, 9.999e5, 1e7, 4e11, 0.123456, 1e-9,
        ] {
            assert!(
                short_value(v).chars().count() <= 6,
                "{v}: {}",
                short_value(v)
            );
        }
    }

    #[test]
    fn a_fitted_cell_label_fits_and_is_legible_or_absent() {
        let values = [123_456.0, f64::INFINITY, 0.0701];
        for (w, h) in [(60.0, 60.0), (30.0, 20.0), (24.0, 14.0), (8.0, 8.0)] {
            match fit_cell(&values, 2, w, h, 14.0, &ApproxMeasure) {
                Some(l) => {
                    let (lw, lh) = l.size(&ApproxMeasure);
                    assert!(lw <= w + 0.01 && lh <= h + 0.01, "{w}x{h}: {l:?}");
                    assert!(l.font >= MIN_CELL_FONT && l.font <= 14.0);
                    assert!(l.lines.join("/").contains("123k"));
                    assert!(!l.lines.join("/").contains("0.070"), "third value hidden");
                }
                None => assert!(w < 40.0, "{w}x{h} is big enough"),
            }
        }
    }

    #[test]
    fn placement_drops_what_overlaps_a_kept_label_or_a_node() {
        let b = |x: f32, y: f32| Bounds::from_min_size(x, y, 30.0, 10.0);
        let node = Bounds::from_min_size(200.0, 0.0, 10.0, 10.0);
        let kept = place(
            &[
                b(0.0, 0.0),
                b(20.0, 5.0),
                b(30.0, 0.0),
                b(195.0, 5.0),
                b(0.0, 10.0),
            ],
            &[node],
        );
        // Touching edges are fine (30 and 0/10); overlaps are not.
        assert_eq!(kept, vec![true, false, true, false, true]);
    }
}
