//! A [`Drawing`] as a PNG image (lesson frames for slides), without a
//! browser or an SVG renderer: shapes are filled and stroked by
//! `vello_cpu`, glyph outlines come from `skrifa` in egui's own fonts
//! (Ubuntu Light, Hack for monospace), and `png` encodes the pixels. All
//! three are already built for the app (egui draws its text with them),
//! so the `raster` feature adds no crate to a GUI build.
//!
//! Text is set glyph by glyph with the fonts' advances (no kerning or
//! shaping: the frames hold Latin text, digits and a few symbols). Bold
//! is drawn by stroking the outline thinly, italic by a shear: the fonts
//! have no bold or italic faces.

use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, GlyphId, MetadataProvider};
use vello_cpu::kurbo::{Affine, BezPath, Circle, Rect, Shape as _, Stroke as KStroke};
use vello_cpu::peniko::Color;
use vello_cpu::{Pixmap, RenderContext, RenderMode, RenderSettings, Resources};

use super::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};

/// The largest image side in pixels (vello_cpu counts in u16).
const MAX_SIDE: f32 = 16_000.0;

/// The frames' fonts: a proportional face and a monospace face, each
/// with a fallback for characters it lacks.
struct Fonts {
    sans: FontRef<'static>,
    mono: FontRef<'static>,
}

impl Fonts {
    fn load() -> Fonts {
        // The bytes are egui's bundled fonts, which egui itself loads the
        // same way; a failure here would be a broken build of that crate.
        let sans = FontRef::new(epaint_default_fonts::UBUNTU_LIGHT)
            .expect("egui's bundled Ubuntu Light font parses");
        let mono = FontRef::new(epaint_default_fonts::HACK_REGULAR)
            .expect("egui's bundled Hack font parses");
        Fonts { sans, mono }
    }

    /// The face and glyph for `c`: the style's face, else the other one.
    fn glyph(&self, c: char, mono: bool) -> Option<(&FontRef<'static>, GlyphId)> {
        let (first, second) = if mono {
            (&self.mono, &self.sans)
        } else {
            (&self.sans, &self.mono)
        };
        [first, second].into_iter().find_map(|f| {
            f.charmap()
                .map(c)
                .filter(|g| g.to_u32() != 0)
                .map(|g| (f, g))
        })
    }

    fn advance(&self, c: char, style: &TextStyle) -> f32 {
        match self.glyph(c, style.mono) {
            Some((f, g)) => f
                .glyph_metrics(Size::new(style.size), LocationRef::default())
                .advance_width(g)
                .unwrap_or(style.size * 0.5),
            None => style.size * 0.5,
        }
    }

    fn width(&self, text: &str, style: &TextStyle) -> f32 {
        text.chars().map(|c| self.advance(c, style)).sum()
    }
}

/// Text widths in the fonts the PNG is drawn with.
pub struct FontMeasure {
    fonts: Fonts,
}

impl FontMeasure {
    /// Loads the fonts.
    pub fn new() -> FontMeasure {
        FontMeasure {
            fonts: Fonts::load(),
        }
    }
}

impl Default for FontMeasure {
    fn default() -> Self {
        FontMeasure::new()
    }
}

impl crate::layout::Measure for FontMeasure {
    fn width(&self, text: &str, font_size: f32) -> f32 {
        self.fonts
            .width(text, &TextStyle::plain(font_size, Colour(0, 0, 0)))
    }
}

/// Collects a glyph outline as a path, flipped (fonts grow upwards) and
/// moved to its place on the line.
struct Pen {
    path: BezPath,
    x: f64,
    y: f64,
    shear: f64,
}

impl Pen {
    fn p(&self, x: f32, y: f32) -> (f64, f64) {
        let (x, y) = (f64::from(x), f64::from(y));
        (self.x + x + self.shear * y, self.y - y)
    }
}

impl OutlinePen for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        let p = self.p(x, y);
        self.path.move_to(p);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let p = self.p(x, y);
        self.path.line_to(p);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        let (c, p) = (self.p(cx0, cy0), self.p(x, y));
        self.path.quad_to(c, p);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        let (c0, c1, p) = (self.p(cx0, cy0), self.p(cx1, cy1), self.p(x, y));
        self.path.curve_to(c0, c1, p);
    }
    fn close(&mut self) {
        self.path.close_path();
    }
}

fn colour(c: Colour) -> Color {
    Color::from_rgb8(c.0, c.1, c.2)
}

fn kstroke(s: &Stroke) -> KStroke {
    let k = KStroke::new(f64::from(s.width));
    if s.dashed {
        k.with_dashes(0.0, [5.0, 3.0])
    } else {
        k
    }
}

fn polygon(points: &[(f32, f32)]) -> BezPath {
    let mut p = BezPath::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        let q = (f64::from(x), f64::from(y));
        if i == 0 {
            p.move_to(q);
        } else {
            p.line_to(q);
        }
    }
    p.close_path();
    p
}

fn fill_and_stroke(
    ctx: &mut RenderContext,
    path: &BezPath,
    fill: Option<Colour>,
    stroke: Option<&Stroke>,
) {
    if let Some(f) = fill {
        ctx.set_paint(colour(f));
        ctx.fill_path(path);
    }
    if let Some(s) = stroke {
        ctx.set_paint(colour(s.colour));
        ctx.set_stroke(kstroke(s));
        ctx.stroke_path(path);
    }
}

fn text(
    ctx: &mut RenderContext,
    fonts: &Fonts,
    at: (f32, f32),
    anchor: Anchor,
    style: &TextStyle,
    s: &str,
) {
    let width = fonts.width(s, style);
    let mut x = f64::from(at.0)
        - if anchor == Anchor::Middle {
            f64::from(width) / 2.0
        } else {
            0.0
        };
    let mut path = BezPath::new();
    for c in s.chars() {
        if let Some((f, g)) = fonts.glyph(c, style.mono) {
            if let Some(outline) = f.outline_glyphs().get(g) {
                let mut pen = Pen {
                    path: BezPath::new(),
                    x,
                    y: f64::from(at.1),
                    shear: if style.italic { 0.2 } else { 0.0 },
                };
                let settings =
                    DrawSettings::unhinted(Size::new(style.size), LocationRef::default());
                if outline.draw(settings, &mut pen).is_ok() {
                    path.extend(pen.path);
                }
            }
        }
        x += f64::from(fonts.advance(c, style));
    }
    ctx.set_paint(colour(style.colour));
    ctx.fill_path(&path);
    if style.bold {
        ctx.set_stroke(KStroke::new(f64::from(style.size) * 0.045));
        ctx.stroke_path(&path);
    }
}

/// Why a drawing did not become a PNG.
#[derive(Clone, Debug, thiserror::Error)]
pub enum RasterError {
    /// A picture too large (or empty) for a PNG frame, in pixels.
    #[error("a {width}×{height} picture is too large for a PNG frame (at most {MAX_SIDE} pixels a side)")]
    TooLarge {
        /// Its width.
        width: f32,
        /// Its height.
        height: f32,
    },
    /// The encoder's own error.
    #[error("PNG: {0}")]
    Png(#[source] std::sync::Arc<png::EncodingError>),
}

/// The drawing as PNG bytes, `scale` pixels per point.
pub fn to_png(d: &Drawing, scale: f32) -> Result<Vec<u8>, RasterError> {
    let (w, h) = ((d.width * scale).ceil(), (d.height * scale).ceil());
    if !(1.0..=MAX_SIDE).contains(&w) || !(1.0..=MAX_SIDE).contains(&h) {
        return Err(RasterError::TooLarge {
            width: w,
            height: h,
        });
    }
    let (w, h) = (w as u16, h as u16);
    let fonts = Fonts::load();
    let mut ctx = RenderContext::new_with(w, h, RenderSettings::default());
    ctx.set_transform(Affine::scale(f64::from(scale)));
    ctx.set_paint(colour(d.background));
    ctx.fill_rect(&Rect::new(
        0.0,
        0.0,
        f64::from(d.width),
        f64::from(d.height),
    ));
    for s in &d.shapes {
        match s {
            Shape::Line { from, to, stroke } => {
                let mut p = BezPath::new();
                p.move_to((f64::from(from.0), f64::from(from.1)));
                p.line_to((f64::from(to.0), f64::from(to.1)));
                fill_and_stroke(&mut ctx, &p, None, Some(stroke));
            }
            Shape::Rect {
                at,
                size,
                fill,
                stroke,
            } => {
                let r = Rect::new(
                    f64::from(at.0),
                    f64::from(at.1),
                    f64::from(at.0 + size.0),
                    f64::from(at.1 + size.1),
                );
                fill_and_stroke(&mut ctx, &r.to_path(0.1), *fill, stroke.as_ref());
            }
            Shape::Circle {
                centre,
                r,
                fill,
                stroke,
            } => {
                let c = Circle::new((f64::from(centre.0), f64::from(centre.1)), f64::from(*r));
                fill_and_stroke(&mut ctx, &c.to_path(0.1), *fill, stroke.as_ref());
            }
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => fill_and_stroke(&mut ctx, &polygon(points), *fill, stroke.as_ref()),
            Shape::Text {
                at,
                anchor,
                style,
                text: s,
            } => text(&mut ctx, &fonts, *at, *anchor, style, s),
        }
    }
    ctx.flush();
    let mut pixmap = Pixmap::new(w, h);
    let mut resources = Resources::new();
    ctx.render_with(
        &mut pixmap,
        &mut resources,
        vello_cpu::RasterizerSettings {
            render_mode: RenderMode::OptimizeSpeed,
            ..Default::default()
        },
    );
    // Every pixel is opaque (the background is filled first), so the
    // premultiplied pixels are the plain ones.
    let data = pixmap.data_as_u8_slice().to_vec();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, u32::from(w), u32::from(h));
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| RasterError::Png(e.into()))?;
        writer
            .write_image_data(&data)
            .map_err(|e| RasterError::Png(e.into()))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::drawing::TextStyle;

    /// The pixel at (x, y) of decoded PNG bytes.
    fn pixel(png_bytes: &[u8], x: usize, y: usize) -> [u8; 4] {
        let dec = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        let i = (y * info.width as usize + x) * 4;
        [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]
    }

    #[test]
    fn shapes_and_text_land_where_the_drawing_puts_them() {
        let mut d = Drawing::new(120.0, 60.0, Colour(255, 255, 255));
        d.shapes.push(Shape::Rect {
            at: (10.0, 10.0),
            size: (20.0, 20.0),
            fill: Some(Colour(255, 0, 0)),
            stroke: None,
        });
        d.shapes.push(Shape::Text {
            at: (50.0, 40.0),
            anchor: Anchor::Start,
            style: TextStyle::plain(30.0, Colour(0, 0, 255)),
            text: "HH".into(),
        });
        let png_bytes = to_png(&d, 1.0).unwrap();
        assert_eq!(pixel(&png_bytes, 20, 20), [255, 0, 0, 255]);
        assert_eq!(pixel(&png_bytes, 5, 5), [255, 255, 255, 255]);
        // Some ink of the text lies left of x = 50 + 30 and above the baseline.
        let blue = (50..80).any(|x| {
            (15..40).any(|y| pixel(&png_bytes, x, y)[2] > 200 && pixel(&png_bytes, x, y)[0] < 100)
        });
        assert!(blue, "the glyph was drawn");
        let m = FontMeasure::new();
        use crate::layout::Measure;
        assert!(m.width("mmmm", 20.0) > m.width("iiii", 20.0));
    }
}
