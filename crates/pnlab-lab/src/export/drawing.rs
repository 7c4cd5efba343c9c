//! A picture as a list of plain shapes (lines, boxes, circles, polygons,
//! text), written as SVG here and rasterised to PNG by
//! [`super::raster`]: the tree export and the lesson frames draw once and
//! get both formats, so the PNG cannot drift from the SVG.

use std::fmt::Write as _;

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// Reads `#rrggbb` (black for anything else: colours are constants
    /// of the code, not user input).
    pub const fn hex(s: &str) -> Colour {
        let b = s.as_bytes();
        if b.len() != 7 {
            return Colour(0, 0, 0);
        }
        const fn d(c: u8) -> u8 {
            match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => 0,
            }
        }
        Colour(
            d(b[1]) * 16 + d(b[2]),
            d(b[3]) * 16 + d(b[4]),
            d(b[5]) * 16 + d(b[6]),
        )
    }

    fn svg(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A stroke: colour, width, dashed or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Colour.
    pub colour: Colour,
    /// Width in points.
    pub width: f32,
    /// Dashed (a selection ring) or solid.
    pub dashed: bool,
}

impl Stroke {
    /// A solid stroke.
    pub const fn solid(colour: Colour, width: f32) -> Stroke {
        Stroke {
            colour,
            width,
            dashed: false,
        }
    }
}

/// Horizontal anchor of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is the left end.
    Start,
    /// `x` is the middle.
    Middle,
}

/// How a text is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextStyle {
    /// Size in points.
    pub size: f32,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Monospace.
    pub mono: bool,
    /// Colour.
    pub colour: Colour,
}

impl TextStyle {
    /// Plain text of `size` points in `colour`.
    pub const fn plain(size: f32, colour: Colour) -> TextStyle {
        TextStyle {
            size,
            bold: false,
            italic: false,
            mono: false,
            colour,
        }
    }

    /// Bold text of `size` points in `colour` (headings).
    pub const fn bold(size: f32, colour: Colour) -> TextStyle {
        TextStyle {
            bold: true,
            ..TextStyle::plain(size, colour)
        }
    }
}

/// One shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A straight line.
    Line {
        /// Start.
        from: (f32, f32),
        /// End.
        to: (f32, f32),
        /// How it is drawn.
        stroke: Stroke,
    },
    /// An axis-aligned box.
    Rect {
        /// Left, top.
        at: (f32, f32),
        /// Width, height.
        size: (f32, f32),
        /// Fill.
        fill: Option<Colour>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A circle.
    Circle {
        /// Centre.
        centre: (f32, f32),
        /// Radius.
        r: f32,
        /// Fill.
        fill: Option<Colour>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A closed polygon.
    Polygon {
        /// Corners.
        points: Vec<(f32, f32)>,
        /// Fill.
        fill: Option<Colour>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A line of text; `y` is the baseline.
    Text {
        /// Anchor point.
        at: (f32, f32),
        /// Which end `at` is.
        anchor: Anchor,
        /// Font and colour.
        style: TextStyle,
        /// The text (one line).
        text: String,
    },
}

/// A picture of `width × height` points on a plain background.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// Background colour.
    pub background: Colour,
    /// Shapes, drawn in order.
    pub shapes: Vec<Shape>,
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn paint(fill: Option<Colour>, stroke: Option<Stroke>) -> String {
    let mut s = match fill {
        Some(c) => format!("fill=\"{}\"", c.svg()),
        None => "fill=\"none\"".to_string(),
    };
    if let Some(st) = stroke {
        let _ = write!(
            s,
            " stroke=\"{}\" stroke-width=\"{}\"",
            st.colour.svg(),
            st.width
        );
        if st.dashed {
            s.push_str(" stroke-dasharray=\"5 3\"");
        }
    }
    s
}

impl Drawing {
    /// An empty picture.
    pub fn new(width: f32, height: f32, background: Colour) -> Drawing {
        Drawing {
            width,
            height,
            background,
            shapes: Vec::new(),
        }
    }

    /// Adds `other`'s shapes moved by `(dx, dy)`.
    pub fn place(&mut self, other: &Drawing, dx: f32, dy: f32) {
        self.place_scaled(other, dx, dy, 1.0);
    }

    /// Adds `other`'s shapes scaled by `s` (text sizes and stroke widths
    /// too), then moved by `(dx, dy)`.
    pub fn place_scaled(&mut self, other: &Drawing, dx: f32, dy: f32, s: f32) {
        let m = |(x, y): (f32, f32)| (x * s + dx, y * s + dy);
        let ms = |st: Option<Stroke>| {
            st.map(|st| Stroke {
                width: st.width * s,
                ..st
            })
        };
        for shape in &other.shapes {
            self.shapes.push(match shape.clone() {
                Shape::Line { from, to, stroke } => Shape::Line {
                    from: m(from),
                    to: m(to),
                    stroke: Stroke {
                        width: stroke.width * s,
                        ..stroke
                    },
                },
                Shape::Rect {
                    at,
                    size,
                    fill,
                    stroke,
                } => Shape::Rect {
                    at: m(at),
                    size: (size.0 * s, size.1 * s),
                    fill,
                    stroke: ms(stroke),
                },
                Shape::Circle {
                    centre,
                    r,
                    fill,
                    stroke,
                } => Shape::Circle {
                    centre: m(centre),
                    r: r * s,
                    fill,
                    stroke: ms(stroke),
                },
                Shape::Polygon {
                    points,
                    fill,
                    stroke,
                } => Shape::Polygon {
                    points: points.into_iter().map(m).collect(),
                    fill,
                    stroke: ms(stroke),
                },
                Shape::Text {
                    at,
                    anchor,
                    style,
                    text,
                } => Shape::Text {
                    at: m(at),
                    anchor,
                    style: TextStyle {
                        size: style.size * s,
                        ..style
                    },
                    text,
                },
            });
        }
    }

    /// The part of the picture inside the `w × h` window at `(x, y)`, moved
    /// to the origin: lines are clipped to the window; boxes, circles,
    /// polygons and texts are kept when they lie inside it whole (a cut
    /// node or half a word would only mislead). Texts are measured
    /// generously (0.62 em a character).
    pub fn cropped(&self, x: f32, y: f32, w: f32, h: f32) -> Drawing {
        let mut out = Drawing::new(w, h, self.background);
        let inside = |(a, b): (f32, f32), (c, d): (f32, f32)| {
            a >= x - 0.5 && b >= y - 0.5 && c <= x + w + 0.5 && d <= y + h + 0.5
        };
        let moved = |(a, b): (f32, f32)| (a - x, b - y);
        for shape in &self.shapes {
            let kept = match shape {
                Shape::Line { from, to, stroke } => clip_line(*from, *to, (x, y, x + w, y + h))
                    .map(|(f, t)| Shape::Line {
                        from: moved(f),
                        to: moved(t),
                        stroke: *stroke,
                    }),
                Shape::Rect { at, size, .. } => {
                    inside(*at, (at.0 + size.0, at.1 + size.1)).then(|| {
                        let mut s = shape.clone();
                        if let Shape::Rect { at, .. } = &mut s {
                            *at = moved(*at);
                        }
                        s
                    })
                }
                Shape::Circle { centre, r, .. } => {
                    inside((centre.0 - r, centre.1 - r), (centre.0 + r, centre.1 + r)).then(|| {
                        let mut s = shape.clone();
                        if let Shape::Circle { centre, .. } = &mut s {
                            *centre = moved(*centre);
                        }
                        s
                    })
                }
                Shape::Polygon { points, .. } => points.iter().all(|&p| inside(p, p)).then(|| {
                    let mut s = shape.clone();
                    if let Shape::Polygon { points, .. } = &mut s {
                        for p in points.iter_mut() {
                            *p = moved(*p);
                        }
                    }
                    s
                }),
                Shape::Text {
                    at,
                    anchor,
                    style,
                    text,
                } => {
                    let tw = text.chars().count() as f32 * style.size * 0.62;
                    let left = match anchor {
                        Anchor::Start => at.0,
                        Anchor::Middle => at.0 - tw / 2.0,
                    };
                    inside(
                        (left, at.1 - style.size),
                        (left + tw, at.1 + style.size * 0.25),
                    )
                    .then(|| {
                        let mut s = shape.clone();
                        if let Shape::Text { at, .. } = &mut s {
                            *at = moved(*at);
                        }
                        s
                    })
                }
            };
            out.shapes.extend(kept);
        }
        out
    }

    /// The picture as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"11\">",
            self.width, self.height
        );
        let _ = writeln!(
            out,
            "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
            self.background.svg()
        );
        for s in &self.shapes {
            let _ = match s {
                Shape::Line { from, to, stroke } => writeln!(
                    out,
                    "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" {}/>",
                    from.0,
                    from.1,
                    to.0,
                    to.1,
                    paint(None, Some(*stroke))
                ),
                Shape::Rect {
                    at,
                    size,
                    fill,
                    stroke,
                } => writeln!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" {}/>",
                    at.0,
                    at.1,
                    size.0,
                    size.1,
                    paint(*fill, *stroke)
                ),
                Shape::Circle {
                    centre,
                    r,
                    fill,
                    stroke,
                } => writeln!(
                    out,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\" {}/>",
                    centre.0,
                    centre.1,
                    paint(*fill, *stroke)
                ),
                Shape::Polygon {
                    points,
                    fill,
                    stroke,
                } => writeln!(
                    out,
                    "<polygon points=\"{}\" {}/>",
                    points
                        .iter()
                        .map(|(x, y)| format!("{x:.1},{y:.1}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                    paint(*fill, *stroke)
                ),
                Shape::Text {
                    at,
                    anchor,
                    style,
                    text,
                } => {
                    let mut attrs = String::new();
                    if *anchor == Anchor::Middle {
                        attrs.push_str(" text-anchor=\"middle\"");
                    }
                    if style.size != 11.0 {
                        let _ = write!(attrs, " font-size=\"{}\"", style.size);
                    }
                    if style.bold {
                        attrs.push_str(" font-weight=\"bold\"");
                    }
                    if style.italic {
                        attrs.push_str(" font-style=\"italic\"");
                    }
                    if style.mono {
                        attrs.push_str(" font-family=\"monospace\"");
                    }
                    if style.colour != Colour(0, 0, 0) {
                        let _ = write!(attrs, " fill=\"{}\"", style.colour.svg());
                    }
                    writeln!(
                        out,
                        "<text x=\"{:.1}\" y=\"{:.1}\"{attrs}>{}</text>",
                        at.0,
                        at.1,
                        xml_escape(text)
                    )
                }
            };
        }
        out.push_str("</svg>\n");
        out
    }
}

/// The part of the segment `a`–`b` inside the box `(x0, y0, x1, y1)`
/// (Liang–Barsky), or `None` when it misses the box.
fn clip_line(
    a: (f32, f32),
    b: (f32, f32),
    (x0, y0, x1, y1): (f32, f32, f32, f32),
) -> Option<((f32, f32), (f32, f32))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-dx, a.0 - x0),
        (dx, x1 - a.0),
        (-dy, a.1 - y0),
        (dy, y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1).then_some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_hex_and_shapes_write_svg() {
        assert_eq!(Colour::hex("#ff9614"), Colour(255, 150, 20));
        let mut d = Drawing::new(100.0, 50.0, Colour::hex("#ffffff"));
        d.shapes.push(Shape::Text {
            at: (10.0, 20.0),
            anchor: Anchor::Middle,
            style: TextStyle {
                bold: true,
                ..TextStyle::plain(14.0, Colour::hex("#333333"))
            },
            text: "a < b".into(),
        });
        let mut outer = Drawing::new(200.0, 100.0, Colour::hex("#ffffff"));
        outer.place(&d, 5.0, 5.0);
        let svg = outer.to_svg();
        assert!(svg.contains("<text x=\"15.0\" y=\"25.0\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\" fill=\"#333333\">a &lt; b</text>"), "{svg}");
    }
}
