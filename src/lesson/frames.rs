//! Lesson frames for slides (`pnlab lesson FILE --export-frames DIR`):
//! one picture per step, and for a step with a question a second one
//! with the answer revealed. A frame is the step counter, the caption
//! (styled as the Markdown says), the search's state, the tree drawn by
//! the tree export ([`crate::export::svg::tree_drawing`]) with the step's
//! highlights, the inspector's lines for the selected node, the race's
//! counters and the question. Each frame is written as SVG and, in builds
//! with the `raster` feature, as PNG from the same drawing.

use std::path::{Path, PathBuf};

use crate::export::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};
use crate::export::svg::{tree_drawing, TreeMarks, ANSWER_COLOUR, HIGHLIGHT_COLOUR};
use crate::layout::Measure;

use super::caption::{Block, Span, Style};
use super::player::StepState;
use super::{play, AskKind, Lesson, LessonError};

const MARGIN: f32 = 28.0;
const MIN_WIDTH: f32 = 1024.0;
const TEXT: Colour = Colour(0x1f, 0x23, 0x28);
const MUTED: Colour = Colour(0x65, 0x6d, 0x76);
const BOX: Colour = Colour(0xf3, 0xf4, 0xf6);
const CAPTION_SIZE: f32 = 18.0;

/// A frame export that failed.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// A step does not play.
    #[error("{0}")]
    Lesson(#[from] LessonError),
    /// A file cannot be written.
    #[error("{0}")]
    Write(String),
}

/// Text widths for the frame layout: the raster font's own advances when
/// the PNG writer is built in (so the PNG's words sit where the layout
/// put them), else an estimate of a sans-serif font.
pub fn frame_measure() -> Box<dyn Measure> {
    #[cfg(feature = "raster")]
    {
        Box::new(crate::export::raster::FontMeasure::new())
    }
    #[cfg(not(feature = "raster"))]
    {
        Box::new(|t: &str, size: f32| t.chars().count() as f32 * size * 0.56)
    }
}

/// Lays text out line by line from the top of a frame.
struct Writer<'a> {
    d: Drawing,
    y: f32,
    width: f32,
    measure: &'a dyn Measure,
}

impl Writer<'_> {
    fn text(&mut self, x: f32, size: f32, style: TextStyle, text: &str) {
        self.d.shapes.push(Shape::Text {
            at: (x, self.y + size),
            anchor: Anchor::Start,
            style: TextStyle { size, ..style },
            text: text.to_string(),
        });
        self.y += size * 1.45;
    }

    fn span_style(&self, s: Style, size: f32) -> TextStyle {
        TextStyle {
            size,
            bold: s.strong,
            italic: s.emphasis,
            mono: s.code,
            colour: TEXT,
        }
    }

    fn measure(&self, text: &str, style: &TextStyle) -> f32 {
        // A monospace font is 0.6 em per character in every font we draw.
        if style.mono {
            text.chars().count() as f32 * style.size * 0.6
        } else {
            self.measure.width(text, style.size) * if style.bold { 1.03 } else { 1.0 }
        }
    }

    /// Styled spans wrapped into lines from `x` to the right margin.
    fn spans(&mut self, x: f32, spans: &[Span], size: f32) {
        let right = self.width - MARGIN;
        let mut words: Vec<(String, TextStyle)> = Vec::new();
        for s in spans {
            let style = self.span_style(s.style, size);
            // Keep the spaces with the words so spans join as written.
            let mut word = String::new();
            for c in s.text.chars() {
                word.push(c);
                if c == ' ' {
                    words.push((std::mem::take(&mut word), style));
                }
            }
            if !word.is_empty() {
                words.push((word, style));
            }
        }
        let mut cx = x;
        let baseline = |y: f32| y + size;
        for (w, style) in words {
            let ww = self.measure(&w, &style);
            let trimmed = self.measure(w.trim_end(), &style);
            if cx > x && cx + trimmed > right {
                self.y += size * 1.45;
                cx = x;
            }
            let text = if cx == x {
                w.trim_start().to_string()
            } else {
                w.clone()
            };
            if !text.trim().is_empty() {
                self.d.shapes.push(Shape::Text {
                    at: (cx, baseline(self.y)),
                    anchor: Anchor::Start,
                    style,
                    text: text.trim_end().to_string(),
                });
            }
            cx += if cx == x {
                self.measure(&text, &style)
            } else {
                ww
            };
        }
        self.y += size * 1.45;
    }

    fn caption(&mut self, blocks: &[Block]) {
        for b in blocks {
            match b {
                Block::Paragraph(spans) => self.spans(MARGIN, spans, CAPTION_SIZE),
                Block::List(items) => {
                    for it in items {
                        self.d.shapes.push(Shape::Text {
                            at: (MARGIN + 4.0, self.y + CAPTION_SIZE),
                            anchor: Anchor::Start,
                            style: TextStyle::plain(CAPTION_SIZE, TEXT),
                            text: "•".into(),
                        });
                        self.spans(MARGIN + 24.0, it, CAPTION_SIZE);
                    }
                }
                Block::Formula(f) => {
                    let size = CAPTION_SIZE - 1.0;
                    let lines: Vec<&str> = f.lines().collect();
                    let h = lines.len() as f32 * size * 1.45 + 10.0;
                    self.d.shapes.push(Shape::Rect {
                        at: (MARGIN + 16.0, self.y),
                        size: (self.width - 2.0 * MARGIN - 32.0, h),
                        fill: Some(BOX),
                        stroke: None,
                    });
                    self.y += 5.0;
                    for l in lines {
                        let style = TextStyle {
                            mono: true,
                            ..TextStyle::plain(size, TEXT)
                        };
                        self.text(MARGIN + 28.0, size, style, l);
                    }
                    self.y += 5.0;
                }
            }
            self.y += 6.0;
        }
    }
}

/// The frame of a played step; `reveal` shows the question's answer.
pub fn frame(lesson: &Lesson, st: &StepState, reveal: bool, measure: &dyn Measure) -> Drawing {
    let q = st.question.as_ref();
    let asks_path = q.is_some_and(|q| matches!(q.kind, AskKind::MostProving | AskKind::Child));
    let concealed = q
        .filter(|q| q.kind == AskKind::Value && !reveal)
        .and_then(|q| q.node.as_ref())
        .map(|n| n.id);
    let marks = TreeMarks {
        highlight: st.highlights.iter().map(|h| h.id).collect(),
        selected: st.select.as_ref().map(|s| s.id),
        answer: q.filter(|_| reveal).and_then(|q| match &q.answer {
            super::Answer::Node(n) => Some(n.id),
            super::Answer::Number { .. } => q.node.as_ref().map(|n| n.id),
        }),
        hide_path: asks_path && !reveal,
        conceal: concealed.into_iter().collect(),
        label_boxes: true,
    };
    let tree = tree_drawing(&st.snapshot, &marks);
    // Slides are read from afar: small trees are drawn larger.
    let scale = ((MIN_WIDTH - 2.0 * MARGIN) / tree.width).clamp(1.0, 1.6);
    let width = (tree.width * scale + 2.0 * MARGIN).max(MIN_WIDTH);
    let mut w = Writer {
        d: Drawing::new(width, 0.0, Colour(255, 255, 255)),
        y: MARGIN - 8.0,
        width,
        measure,
    };
    w.text(MARGIN, 13.0, TextStyle::plain(13.0, MUTED), &lesson.title);
    let head = match &st.title {
        Some(t) => format!("Step {} of {}: {t}", st.index + 1, st.count),
        None => format!("Step {} of {}", st.index + 1, st.count),
    };
    let bold = TextStyle::bold(24.0, TEXT);
    w.text(MARGIN, 24.0, bold, &head);
    w.y += 4.0;
    w.caption(&st.caption.blocks);
    let s = &st.setting;
    let params = if s.params.is_empty() {
        String::new()
    } else {
        let ps: Vec<String> = s.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!(" ({})", ps.join(", "))
    };
    let counters = st.search.counters();
    let info = format!(
        "{} · {}{params} · iteration {} · {} nodes · {}",
        s.position.value.name,
        s.algo,
        counters.iterations,
        counters.nodes_created,
        super::player::status_words(st.search.as_ref())
    );
    w.text(MARGIN, 14.0, TextStyle::plain(14.0, MUTED), &info);
    let tx = ((width - tree.width * scale) / 2.0).max(0.0);
    w.d.place_scaled(&tree, tx, w.y, scale);
    w.y += tree.height * scale;
    let code = |t: &str| {
        vec![Span {
            text: t.to_string(),
            style: Style {
                code: true,
                ..Style::default()
            },
        }]
    };
    let mono = |size: f32, colour: Colour| TextStyle {
        mono: true,
        ..TextStyle::plain(size, colour)
    };
    // An answer frame shows the reason, which is the inspector's text:
    // the inspector itself would repeat it.
    let inspector_shown = if reveal {
        q.is_none_or(|q| q.reason.is_empty())
    } else {
        concealed.is_none()
    };
    if let Some(ins) = st.snapshot.inspection.as_ref().filter(|_| inspector_shown) {
        let who = if ins.path.is_empty() {
            "the root".to_string()
        } else {
            ins.path.join(" ")
        };
        w.text(
            MARGIN,
            15.0,
            TextStyle::bold(15.0, TEXT),
            &format!("Inspector: {who}"),
        );
        for (_, f) in &ins.formulas {
            w.spans(MARGIN + 16.0, &code(f), 14.0);
        }
        // The choice line names the child the search takes: the answer
        // of a path question.
        if let Some(c) = ins.choice.as_ref().filter(|_| reveal || !asks_path) {
            w.spans(MARGIN + 16.0, &code(c), 14.0);
        }
    }
    if let Some(r) = &st.race {
        let line = |label: &str, snap: &crate::search::Snapshot| {
            format!(
                "{label}: iteration {}, {} nodes, {}",
                snap.counters.iterations,
                snap.counters.nodes_created,
                snap.status.outcome_name()
            )
        };
        w.text(MARGIN, 15.0, TextStyle::bold(15.0, TEXT), "Race");
        w.text(
            MARGIN + 16.0,
            14.0,
            mono(14.0, TEXT),
            &line(&s.algo, &st.snapshot),
        );
        w.text(
            MARGIN + 16.0,
            14.0,
            mono(14.0, TEXT),
            &line(&r.label, &r.snapshot),
        );
    }
    if !st.cells.is_empty() {
        let cells: Vec<&str> = st.cells.iter().map(|c| c.name.as_str()).collect();
        w.text(
            MARGIN,
            14.0,
            TextStyle::plain(14.0, HIGHLIGHT_COLOUR),
            &format!("Board cells: {}", cells.join(", ")),
        );
    }
    if let Some(q) = q {
        w.y += 6.0;
        let top = w.y;
        let start = w.d.shapes.len();
        w.y += 8.0;
        w.text(
            MARGIN + 12.0,
            18.0,
            TextStyle::bold(18.0, TEXT),
            &format!("Question: {}", q.prompt),
        );
        if reveal {
            w.text(
                MARGIN + 12.0,
                18.0,
                TextStyle::bold(18.0, ANSWER_COLOUR),
                &format!("Answer: {}", q.answer_text()),
            );
            for r in &q.reason {
                w.spans(MARGIN + 24.0, &code(r), 14.0);
            }
        }
        w.y += 4.0;
        w.d.shapes.insert(
            start,
            Shape::Rect {
                at: (MARGIN, top),
                size: (width - 2.0 * MARGIN, w.y - top),
                fill: Some(BOX),
                stroke: Some(Stroke::solid(
                    if reveal { ANSWER_COLOUR } else { MUTED },
                    1.5,
                )),
            },
        );
    }
    w.d.height = w.y + MARGIN;
    w.d.width = width;
    w.d
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), FrameError> {
    crate::export::write(path, bytes).map_err(|e| FrameError::Write(e.to_string()))
}

/// Writes every frame of `lesson` into `dir` (created if missing):
/// `step-01.svg`, `step-01.png`, and for a question `step-01-answer.*`.
/// Returns the files written.
pub fn export(lesson: &Lesson, dir: &Path) -> Result<Vec<PathBuf>, FrameError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        FrameError::Write(format!(
            "{}: cannot create the directory: {e}",
            dir.display()
        ))
    })?;
    let measure = frame_measure();
    let mut written = Vec::new();
    for k in 0..lesson.len() {
        let st = play(lesson, k)?;
        let mut variants = vec![(format!("step-{:02}", k + 1), false)];
        if st.question.is_some() {
            variants.push((format!("step-{:02}-answer", k + 1), true));
        }
        for (stem, reveal) in variants {
            let d = frame(lesson, &st, reveal, measure.as_ref());
            let svg = dir.join(format!("{stem}.svg"));
            write(&svg, d.to_svg().as_bytes())?;
            written.push(svg);
            #[cfg(feature = "raster")]
            {
                let png = dir.join(format!("{stem}.png"));
                let bytes = crate::export::raster::to_png(&d, 1.0).map_err(FrameError::Write)?;
                write(&png, &bytes)?;
                written.push(png);
            }
        }
    }
    Ok(written)
}
