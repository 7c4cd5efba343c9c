//! A small SVG line plot for experiment outputs (log axes, one polyline
//! per series, filled markers, hollow ones for flagged points, a legend),
//! so an experiment can draw its figure without a plotting dependency.

use std::fmt::Write;

/// One line of the plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// (x, y, flagged): flagged points get a hollow marker.
    pub points: Vec<(f64, f64, bool)>,
}

/// Colours of the series, in order (a colour-blind-safe palette).
const COLOURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// Text safe inside SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Tick values for a log axis over [lo, hi] with the given base.
fn log_ticks(lo: f64, hi: f64, base: f64) -> Vec<f64> {
    let mut t = base.powf((lo.log(base)).floor());
    let mut out = Vec::new();
    while t <= hi * 1.0001 {
        if t >= lo / 1.0001 {
            out.push(t);
        }
        t *= base;
    }
    out
}

/// A number for a tick label: 1.5k, 2M, 512 …
fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{}G", trim(v / 1e9))
    } else if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Draws `series` on log-log axes: x ticks at powers of `x_base`, y ticks
/// at powers of 10. Points with non-positive coordinates are skipped.
pub fn log_log_plot(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_base: f64,
    series: &[Series],
) -> String {
    let (w, h) = (860.0, 520.0);
    let (left, right, top, bottom) = (80.0, 230.0, 40.0, 60.0);
    let pts = series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.0 > 0.0 && p.1 > 0.0);
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in pts {
        x0 = x0.min(p.0);
        x1 = x1.max(p.0);
        y0 = y0.min(p.1);
        y1 = y1.max(p.1);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (1.0, 2.0, 1.0, 10.0);
    }
    if x1 <= x0 {
        x1 = x0 * x_base;
    }
    let (y0, y1) = (
        10f64.powf(y0.log10().floor()),
        10f64.powf(y1.log10().ceil().max(y0.log10().floor() + 1.0)),
    );
    let pw = w - left - right;
    let ph = h - top - bottom;
    let sx = |x: f64| left + (x.ln() - x0.ln()) / (x1.ln() - x0.ln()) * pw;
    let sy = |y: f64| top + ph - (y.ln() - y0.ln()) / (y1.ln() - y0.ln()) * ph;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="24" font-size="15" text-anchor="middle">{}</text>"#,
        left + pw / 2.0,
        esc(title)
    );
    for t in log_ticks(x0, x1, x_base) {
        let x = sx(t);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            top + ph,
            top + ph + 16.0,
            short(t)
        );
    }
    for t in log_ticks(y0, y1, 10.0) {
        let y = sy(t);
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            left + pw,
            left - 6.0,
            y + 4.0,
            short(t)
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        left + pw / 2.0,
        h - 18.0,
        esc(x_label)
    );
    let _ = writeln!(
        out,
        r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
        top + ph / 2.0,
        top + ph / 2.0,
        esc(y_label)
    );
    for (i, s) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let visible: Vec<&(f64, f64, bool)> =
            s.points.iter().filter(|p| p.0 > 0.0 && p.1 > 0.0).collect();
        let line: Vec<String> = visible
            .iter()
            .map(|p| format!("{:.1},{:.1}", sx(p.0), sy(p.1)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            line.join(" ")
        );
        for p in visible {
            let fill = if p.2 { "white" } else { c };
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{c}" stroke-width="2"/>"#,
                sx(p.0),
                sy(p.1)
            );
        }
        let ly = top + 10.0 + 20.0 * i as f64;
        let lx = left + pw + 16.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{c}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            esc(&s.label)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_has_one_polyline_per_series_and_hollow_flagged_points() {
        let s = vec![
            Series {
                label: "a <b>".into(),
                points: vec![(1.0, 10.0, false), (2.0, 100.0, true)],
            },
            Series {
                label: "c".into(),
                points: vec![(1.0, 5.0, false), (4.0, 0.0, false)],
            },
        ];
        let svg = log_log_plot("t", "x", "y", 2.0, &s);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches(r#"fill="white" stroke"#).count(), 1);
        assert!(svg.contains("a &lt;b&gt;"));
        // The point with y = 0 cannot be drawn on a log axis.
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(log_ticks(1.0, 8.0, 2.0), vec![1.0, 2.0, 4.0, 8.0]);
        assert_eq!(short(1_500_000.0), "1.5M");
    }
}
