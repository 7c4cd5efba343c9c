//! Lesson frames for slides (`pnlab lesson FILE --export-frames DIR`):
//! one picture per step, and for a step with a question a second one
//! with the answer revealed. A frame is a 16:9 slide, 1920×1080 pixels
//! unless `--frame-size WxH` says otherwise, whatever the tree: the step
//! counter, the caption (styled as the Markdown says), the search's
//! state, the tree drawn by the tree export
//! ([`crate::export::svg::tree_drawing_styled`]) with the step's
//! highlights, beside it the board (board games), the inspector's lines
//! for the selected node and the race's counters, and the question at
//! the bottom. Every text is at least 24 pixels high, tree labels
//! included: a tree larger than its area is cropped around the selection
//! path and the asked nodes rather than shrunk. Each frame is written as
//! SVG and, in builds with the `raster` feature, as PNG from the same
//! drawing.

use std::path::{Path, PathBuf};

use crate::export::drawing::{Anchor, Colour, Drawing, Shape, Stroke, TextStyle};
use crate::export::svg::{
    tree_drawing_styled, TreeMarks, TreePicture, ANSWER_COLOUR, HIGHLIGHT_COLOUR,
};
use crate::layout::{Bounds, Measure, SceneStyle};
use pnlab_core::files::IoError;
use pnlab_core::search::NodeId;

use super::caption::{Block, Span, Style};
use super::player::StepState;
use super::{play, AskKind, Lesson, LessonError};

const TEXT: Colour = Colour(0x1f, 0x23, 0x28);
const MUTED: Colour = Colour(0x55, 0x5d, 0x66);
const BOX: Colour = Colour(0xf3, 0xf4, 0xf6);

/// The smallest text of a frame, tree labels included, in pixels: read
/// from the back of a lecture room.
pub const MIN_TEXT_PX: f32 = 24.0;

/// A frame's size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameSize {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Default for FrameSize {
    /// Full HD, 16:9.
    fn default() -> Self {
        FrameSize {
            width: 1920,
            height: 1080,
        }
    }
}

impl FrameSize {
    /// Reads `WIDTHxHEIGHT` (640 to 7680 pixels wide, 360 to 4320 high).
    pub fn parse(text: &str) -> Result<FrameSize, FrameSizeError> {
        text.split_once(['x', 'X'])
            .and_then(|(a, b)| Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?)))
            .filter(|&(w, h)| (640..=7680).contains(&w) && (360..=4320).contains(&h))
            .map(|(width, height)| FrameSize { width, height })
            .ok_or_else(|| FrameSizeError {
                given: text.to_string(),
            })
    }
}

/// A `--frame-size` that is not `WIDTHxHEIGHT` within the limits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--frame-size {given}: expected WIDTHxHEIGHT in pixels, 640 to 7680 wide and 360 to 4320 high, such as 1920x1080")]
pub struct FrameSizeError {
    /// The text given.
    pub given: String,
}

/// Text sizes of a frame, from its height (1080 pixels: the sizes below),
/// never under [`MIN_TEXT_PX`].
#[derive(Clone, Copy, Debug)]
struct Sizes {
    margin: f32,
    small: f32,
    caption: f32,
    head: f32,
}

impl Sizes {
    fn of(size: FrameSize) -> Sizes {
        let u = size.height as f32 / 1080.0;
        Sizes {
            margin: 36.0 * u,
            small: (24.0 * u).max(MIN_TEXT_PX),
            caption: (30.0 * u).max(MIN_TEXT_PX + 2.0),
            head: (42.0 * u).max(MIN_TEXT_PX + 6.0),
        }
    }
}

/// A frame export that failed.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// A step does not play.
    #[error("{0}")]
    Lesson(#[from] LessonError),
    /// A file or the folder cannot be written.
    #[error(transparent)]
    Write(#[from] pnlab_core::files::IoError),
    /// A frame cannot be drawn as a PNG (too large a picture, or the
    /// encoder's error). Only builds that draw PNGs have it.
    #[cfg(feature = "raster")]
    #[error("{path}: {reason}", path = path.display())]
    Png {
        /// The PNG file it was for.
        path: PathBuf,
        /// Why the picture cannot be drawn.
        reason: crate::export::raster::RasterError,
    },
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

/// Lays text out line by line from `y` down, between `left` and `right`.
struct Writer<'a> {
    d: Drawing,
    y: f32,
    left: f32,
    right: f32,
    measure: &'a dyn Measure,
}

impl Writer<'_> {
    fn new(width: f32, left: f32, right: f32, measure: &dyn Measure) -> Writer<'_> {
        Writer {
            d: Drawing::new(width, 0.0, Colour(255, 255, 255)),
            y: 0.0,
            left,
            right,
            measure,
        }
    }

    /// One line of plain text (wrapped when it is too long).
    fn text(&mut self, indent: f32, style: TextStyle, text: &str) {
        let spans = [Span {
            text: text.to_string(),
            style: Style {
                strong: style.bold,
                code: style.mono,
                ..Style::default()
            },
        }];
        self.spans_coloured(indent, &spans, style.size, style.colour);
    }

    fn span_style(&self, s: Style, size: f32, colour: Colour) -> TextStyle {
        TextStyle {
            size,
            bold: s.strong,
            italic: s.emphasis,
            mono: s.code,
            colour,
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

    fn spans(&mut self, indent: f32, spans: &[Span], size: f32) {
        self.spans_coloured(indent, spans, size, TEXT);
    }

    /// Styled spans wrapped into lines from `left + indent` to `right`; a
    /// word longer than a line is cut where it reaches the edge.
    fn spans_coloured(&mut self, indent: f32, spans: &[Span], size: f32, colour: Colour) {
        let x = self.left + indent;
        let right = self.right;
        let mut words: Vec<(String, TextStyle)> = Vec::new();
        for s in spans {
            let style = self.span_style(s.style, size, colour);
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
        for (w, style) in words {
            let mut w = w;
            loop {
                let trimmed = self.measure(w.trim_end(), &style);
                if cx > x && cx + trimmed > right {
                    self.y += size * 1.4;
                    cx = x;
                }
                // A word wider than the whole line: cut it at the edge.
                let room = right - cx;
                let (part, rest) = if self.measure(w.trim_end(), &style) > room {
                    let mut cut = w.chars().count();
                    while cut > 1 {
                        cut -= 1;
                        let head: String = w.chars().take(cut).collect();
                        if self.measure(&head, &style) <= room {
                            break;
                        }
                    }
                    let head: String = w.chars().take(cut).collect();
                    let tail: String = w.chars().skip(cut).collect();
                    (head, Some(tail))
                } else {
                    (w.clone(), None)
                };
                let text = if cx == x {
                    part.trim_start().to_string()
                } else {
                    part.clone()
                };
                if !text.trim().is_empty() {
                    self.d.shapes.push(Shape::Text {
                        at: (cx, self.y + size),
                        anchor: Anchor::Start,
                        style,
                        text: text.trim_end().to_string(),
                    });
                }
                cx += self.measure(&text, &style);
                match rest {
                    Some(t) if !t.is_empty() => {
                        self.y += size * 1.4;
                        cx = x;
                        w = t;
                    }
                    _ => break,
                }
            }
        }
        self.y += size * 1.4;
    }

    fn caption(&mut self, blocks: &[Block], size: f32) {
        for b in blocks {
            match b {
                Block::Paragraph(spans) => self.spans(0.0, spans, size),
                Block::List(items) => {
                    for it in items {
                        self.d.shapes.push(Shape::Text {
                            at: (self.left + 4.0, self.y + size),
                            anchor: Anchor::Start,
                            style: TextStyle::plain(size, TEXT),
                            text: "•".into(),
                        });
                        self.spans(size * 1.3, it, size);
                    }
                }
                Block::Formula(f) => {
                    let fsize = size - 2.0;
                    let top = self.y;
                    let start = self.d.shapes.len();
                    self.y += 5.0;
                    for l in f.lines() {
                        let style = TextStyle {
                            mono: true,
                            ..TextStyle::plain(fsize, TEXT)
                        };
                        self.text(size * 0.8, style, l);
                    }
                    self.y += 5.0;
                    self.d.shapes.insert(
                        start,
                        Shape::Rect {
                            at: (self.left + size * 0.5, top),
                            size: (self.right - self.left - size, self.y - top),
                            fill: Some(BOX),
                            stroke: None,
                        },
                    );
                }
            }
            self.y += size * 0.3;
        }
    }
}

/// A frame and what the tests check of it.
pub struct FramePicture {
    /// The slide.
    pub drawing: Drawing,
    /// The tree's labels as placed (frame pixels), with their font sizes.
    pub tree_labels: Vec<(String, Bounds, f32)>,
    /// The snapshot nodes whose shapes are inside the crop.
    pub tree_nodes: Vec<NodeId>,
    /// The tree (even reduced to what the step names) is taller than its
    /// area at the frame's label size, so the crop keeps the asked node
    /// or the path's end and may cut the levels above.
    pub too_deep: bool,
    /// Whether a board is drawn beside the tree.
    pub board: bool,
}

/// The nodes a crop must keep: the root (where the class starts
/// reading), the selection path, the highlighted and selected nodes and
/// the node a question asks about.
fn wanted_nodes(st: &StepState) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = st
        .snapshot
        .nodes
        .first()
        .map(|n| n.id)
        .into_iter()
        .collect();
    out.extend(&st.snapshot.selection_path);
    out.extend(st.highlights.iter().map(|h| h.id));
    out.extend(st.select.as_ref().map(|s| s.id));
    out.extend(
        st.question
            .as_ref()
            .and_then(|q| q.node.as_ref())
            .map(|n| n.id),
    );
    out
}

/// Where a `tw × th` picture goes in an `aw × ah` area: its scale (up to
/// 1.5 when it is small, never below 1) and the window of it shown,
/// centred on `want` (the box of the nodes that matter) where it fits.
fn fit_window(
    tw: f32,
    th: f32,
    aw: f32,
    ah: f32,
    want: Bounds,
    focus: (f32, f32),
) -> (f32, Bounds) {
    if tw <= aw && th <= ah {
        let scale = (aw / tw).min(ah / th).clamp(1.0, 1.5);
        return (scale, Bounds::from_min_size(0.0, 0.0, tw, th));
    }
    let (ww, wh) = (tw.min(aw), th.min(ah));
    // Centre on the wanted box when it fits the window, else on the
    // focus (the asked node, or the path's end).
    let along = |lo: f32, hi: f32, f: f32, win: f32, total: f32| {
        let c = if hi - lo <= win { (lo + hi) / 2.0 } else { f };
        (c - win / 2.0).clamp(0.0, (total - win).max(0.0))
    };
    let x = along(want.min_x, want.max_x, focus.0, ww, tw);
    // Vertically the root's side first: keep the top when the wanted
    // nodes fit below it.
    let y = if want.max_y <= wh {
        0.0
    } else {
        along(want.min_y, want.max_y, focus.1, wh, th)
    };
    (1.0, Bounds::from_min_size(x, y, ww, wh))
}

/// The frame of a played step; `reveal` shows the question's answer.
pub fn frame(
    lesson: &Lesson,
    st: &StepState,
    reveal: bool,
    measure: &dyn Measure,
    size: FrameSize,
) -> FramePicture {
    Slide::new(lesson, st, reveal, measure, size).picture()
}

/// Spans of one line of code (a formula, a reason): monospace text.
fn code(t: &str) -> Vec<Span> {
    vec![Span {
        text: t.to_string(),
        style: Style {
            code: true,
            ..Style::default()
        },
    }]
}

/// The area of a frame left to the tree, in frame pixels.
#[derive(Clone, Copy)]
struct TreeArea {
    left: f32,
    top: f32,
    width: f32,
    height: f32,
}

/// The tree of a frame, cropped to its area.
struct CroppedTree {
    /// The part of the tree's drawing shown, at scale 1.
    shown: Drawing,
    /// Where `shown` lies in the whole tree's drawing.
    window: Bounds,
    scale: f32,
    /// The frame's x of the crop's left edge (the crop is centred in
    /// the area when narrower).
    x: f32,
    labels: Vec<(String, Bounds, f32)>,
    nodes: Vec<NodeId>,
    too_deep: bool,
}

/// A frame being laid out: the step, whether the answer shows, and the
/// frame's sizes, shared by the parts (head, foot, side column, tree).
struct Slide<'a> {
    lesson: &'a Lesson,
    st: &'a StepState,
    reveal: bool,
    measure: &'a dyn Measure,
    sz: Sizes,
    width: f32,
    height: f32,
    /// The question asks for a path or a child: the path is hidden until
    /// the answer shows.
    asks_path: bool,
    /// The node whose value the question asks, hidden until the answer.
    concealed: Option<NodeId>,
}

impl<'a> Slide<'a> {
    fn new(
        lesson: &'a Lesson,
        st: &'a StepState,
        reveal: bool,
        measure: &'a dyn Measure,
        size: FrameSize,
    ) -> Slide<'a> {
        let q = st.question.as_ref();
        Slide {
            lesson,
            st,
            reveal,
            measure,
            sz: Sizes::of(size),
            width: size.width as f32,
            height: size.height as f32,
            asks_path: q.is_some_and(|q| matches!(q.kind, AskKind::MostProving | AskKind::Child)),
            concealed: q
                .filter(|q| q.kind == AskKind::Value && !reveal)
                .and_then(|q| q.node.as_ref())
                .map(|n| n.id),
        }
    }

    /// The whole slide: the head on top, the foot at the bottom, the side
    /// column on the right (when it has something) and the tree with its
    /// legend in what is left.
    fn picture(&self) -> FramePicture {
        let (width, height, sz) = (self.width, self.height, self.sz);
        let m = sz.margin;
        let top = self.head();
        let head_end = top.y;
        let foot = self.foot();
        let foot_h = foot.y;
        let side_w = (width * 0.32).round();
        let side_left = width - m - side_w;
        let middle_bottom =
            height - m * 0.6 - foot_h - if foot_h > 0.0 { sz.small * 0.5 } else { 0.0 };
        let (side, has_board) = self.side(side_left, side_w, head_end, middle_bottom);
        let side_used = side.y > head_end + sz.small;

        let tree_left = m;
        let tree_right = if side_used { side_left - m } else { width - m };
        let leg = self.legend(tree_left, tree_right);
        let legend_h = leg.y + sz.small * 0.2;
        let tree_top = head_end + sz.small * 0.4;
        let tree_bottom = (middle_bottom - legend_h).max(tree_top + 2.0 * sz.small);
        let tree = self.tree(TreeArea {
            left: tree_left,
            top: tree_top,
            width: tree_right - tree_left,
            height: tree_bottom - tree_top,
        });

        let mut d = Drawing::new(width, height, Colour(255, 255, 255));
        d.place_scaled(&tree.shown, tree.x, tree_top, tree.scale);
        d.place(
            &leg.d,
            0.0,
            tree_top + tree.window.height() * tree.scale + sz.small * 0.2,
        );
        d.shapes.extend(top.d.shapes);
        d.shapes.extend(side.d.shapes);
        d.place(&foot.d, 0.0, height - m * 0.6 - foot_h);
        FramePicture {
            drawing: d,
            tree_labels: tree.labels,
            tree_nodes: tree.nodes,
            too_deep: tree.too_deep,
            board: has_board,
        }
    }

    /// The marks of the tree: the step's highlights and selection, and
    /// the question's answer (or what it hides until then).
    fn marks(&self) -> TreeMarks {
        let (st, reveal) = (self.st, self.reveal);
        let q = st.question.as_ref();
        TreeMarks {
            highlight: st.highlights.iter().map(|h| h.id).collect(),
            selected: st.select.as_ref().map(|s| s.id),
            answer: q.filter(|_| reveal).and_then(|q| match &q.answer {
                super::Answer::Node(n) => Some(n.id),
                super::Answer::Number { .. } => q.node.as_ref().map(|n| n.id),
            }),
            hide_path: self.asks_path && !reveal,
            conceal: self.concealed.into_iter().collect(),
            label_boxes: true,
        }
    }

    /// The head: lesson, step, caption, the search's state.
    fn head(&self) -> Writer<'a> {
        let (sz, st, width) = (self.sz, self.st, self.width);
        let m = sz.margin;
        let mut top = Writer::new(width, m, width - m, self.measure);
        top.y = m * 0.6;
        top.text(0.0, TextStyle::plain(sz.small, MUTED), &self.lesson.title);
        let head = match &st.title {
            Some(t) => format!("Step {} of {}: {t}", st.index + 1, st.count),
            None => format!("Step {} of {}", st.index + 1, st.count),
        };
        top.text(0.0, TextStyle::bold(sz.head, TEXT), &head);
        top.caption(&st.caption.blocks, sz.caption);
        top.text(0.0, TextStyle::plain(sz.small, MUTED), &self.search_line());
        top
    }

    /// The head's last line: position, algorithm and parameters,
    /// iteration, nodes, status.
    fn search_line(&self) -> String {
        let s = &self.st.setting;
        let params = if s.params.is_empty() {
            String::new()
        } else {
            let ps: Vec<String> = s.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(" ({})", ps.join(", "))
        };
        let counters = self.st.search.counters();
        format!(
            "{} · {}{params} · iteration {} · {} nodes · {}",
            s.position.value.name,
            s.algo,
            counters.iterations,
            counters.nodes_created,
            super::player::status_words(self.st.search.as_ref())
        )
    }

    /// The foot: the question (and its answer) in a box; empty without a
    /// question.
    fn foot(&self) -> Writer<'a> {
        let (sz, width, reveal) = (self.sz, self.width, self.reveal);
        let m = sz.margin;
        let mut foot = Writer::new(
            width,
            m + sz.small * 0.5,
            width - m - sz.small * 0.5,
            self.measure,
        );
        let Some(q) = self.st.question.as_ref() else {
            return foot;
        };
        foot.y = sz.small * 0.4;
        foot.text(
            0.0,
            TextStyle::bold(sz.caption, TEXT),
            &format!("Question: {}", q.prompt),
        );
        if reveal {
            foot.text(
                0.0,
                TextStyle::bold(sz.caption, ANSWER_COLOUR),
                &format!("Answer: {}", q.answer_text()),
            );
            for r in &q.reason {
                foot.spans(sz.small * 0.6, &code(r), sz.small);
            }
        }
        foot.y += sz.small * 0.2;
        foot.d.shapes.insert(
            0,
            Shape::Rect {
                at: (m, 0.0),
                size: (width - 2.0 * m, foot.y),
                fill: Some(BOX),
                stroke: Some(Stroke::solid(
                    if reveal { ANSWER_COLOUR } else { MUTED },
                    2.0,
                )),
            },
        );
        foot
    }

    /// The side column from `side_left`, `side_w` wide, below the head:
    /// board, inspector, race, cells; and whether it has a board.
    fn side(
        &self,
        side_left: f32,
        side_w: f32,
        head_end: f32,
        middle_bottom: f32,
    ) -> (Writer<'a>, bool) {
        let (sz, width) = (self.sz, self.width);
        let mut side = Writer::new(width, side_left, width - sz.margin, self.measure);
        side.y = head_end + sz.small * 0.4;
        let board_side = side_w.min((middle_bottom - side.y) * 0.55);
        let position = self.st.snapshot.position.as_ref();
        let board =
            position.and_then(|p| crate::export::board::board_drawing(p, board_side, sz.small));
        let has_board = board.is_some();
        if let Some(b) = &board {
            side.d.place(b, side_left, side.y);
            side.y += b.height + sz.small * 0.6;
        }
        self.inspector(&mut side);
        self.race(&mut side);
        if !self.st.cells.is_empty() {
            let cells: Vec<&str> = self.st.cells.iter().map(|c| c.name.as_str()).collect();
            side.text(
                0.0,
                TextStyle::plain(sz.small, HIGHLIGHT_COLOUR),
                &format!("Board cells: {}", cells.join(", ")),
            );
        }
        (side, has_board)
    }

    /// The inspector's lines for the selected node, unless they would
    /// give the answer away or repeat it.
    fn inspector(&self, side: &mut Writer) {
        let (sz, reveal) = (self.sz, self.reveal);
        // An answer frame shows the reason, which is the inspector's text:
        // the inspector itself would repeat it.
        let inspector_shown = if reveal {
            self.st
                .question
                .as_ref()
                .is_none_or(|q| q.reason.is_empty())
        } else {
            self.concealed.is_none()
        };
        let Some(ins) = self
            .st
            .snapshot
            .inspection
            .as_ref()
            .filter(|_| inspector_shown)
        else {
            return;
        };
        let who = if ins.path.is_empty() {
            "the root".to_string()
        } else {
            ins.path.join(" ")
        };
        side.text(
            0.0,
            TextStyle::bold(sz.small, TEXT),
            &format!("Inspector: {who}"),
        );
        for (_, f) in &ins.formulas {
            side.spans(sz.small * 0.6, &code(f), sz.small);
        }
        // The choice line names the child the search takes: the answer
        // of a path question.
        if let Some(c) = ins.choice.as_ref().filter(|_| reveal || !self.asks_path) {
            side.spans(sz.small * 0.6, &code(c), sz.small);
        }
    }

    /// The counters of both searches of a race.
    fn race(&self, side: &mut Writer) {
        let Some(r) = &self.st.race else {
            return;
        };
        let sz = self.sz;
        let line = |label: &str, snap: &pnlab_core::search::Snapshot| {
            format!(
                "{label}: iteration {}, {} nodes, {}",
                snap.counters.iterations,
                snap.counters.nodes_created,
                snap.status.outcome_name()
            )
        };
        side.text(0.0, TextStyle::bold(sz.small, TEXT), "Race");
        side.spans(
            sz.small * 0.6,
            &code(&line(&self.st.setting.algo, &self.st.snapshot)),
            sz.small,
        );
        side.spans(
            sz.small * 0.6,
            &code(&line(&r.label, &r.snapshot)),
            sz.small,
        );
    }

    /// The legend's lines as they wrap in the tree's width.
    fn legend(&self, tree_left: f32, tree_right: f32) -> Writer<'a> {
        let legend = crate::layout::scene::legend(&self.st.snapshot);
        let mut leg = Writer::new(self.width, tree_left, tree_right, self.measure);
        for l in &legend {
            leg.text(0.0, TextStyle::plain(self.sz.small, MUTED), l);
        }
        leg
    }

    /// The tree drawn at the frame's label size and cropped to `area`
    /// around the nodes the step names.
    fn tree(&self, area: TreeArea) -> CroppedTree {
        let (aw, ah) = (area.width, area.height);
        let marks = self.marks();
        let wanted = wanted_nodes(self.st);
        // A tree wider than its area shows what the step names (with the
        // path to it and, if that fits, its neighbours) rather than a crop
        // that cuts the path from the root.
        let mut snap = std::borrow::Cow::Borrowed(&self.st.snapshot);
        let mut pic = self.draw_tree(&snap, &marks, ah);
        for children in [true, false] {
            if pic.drawing.width <= aw {
                break;
            }
            let smaller = super::slide_tree::around(&self.st.snapshot, &wanted, children);
            pic = self.draw_tree(&smaller, &marks, ah);
            snap = std::borrow::Cow::Owned(smaller);
        }
        let (tw, th) = (pic.drawing.width, pic.drawing.height);
        let (want, focus) = self.want_and_focus(&snap, &pic, &wanted);
        let want = want.unwrap_or(Bounds::from_min_size(0.0, 0.0, tw.min(aw), th.min(ah)));
        let focus = focus.unwrap_or((tw / 2.0, 0.0));
        let (scale, window) = fit_window(tw, th, aw, ah, want, focus);
        let shown =
            pic.drawing
                .cropped(window.min_x, window.min_y, window.width(), window.height());
        let x = area.left + ((aw - window.width() * scale) / 2.0).max(0.0);
        let labels = placed_labels(&pic, window, (x, area.top), scale);
        let nodes = snap
            .nodes
            .iter()
            .zip(&pic.scene.nodes)
            .filter(|(_, b)| window.contains(b))
            .map(|(n, _)| n.id)
            .collect();
        CroppedTree {
            shown,
            window,
            scale,
            x,
            labels,
            nodes,
            too_deep: th > ah,
        }
    }

    /// The tree of `snap` drawn for an area `ah` high. Levels are as far
    /// apart as the labels like (4.6 label heights) when the tree's depth
    /// fits the area, closer (down to 3.4, still clear of the value and
    /// move labels) when it does not.
    fn draw_tree(
        &self,
        snap: &pnlab_core::search::Snapshot,
        marks: &TreeMarks,
        ah: f32,
    ) -> TreePicture {
        let f = self.sz.small;
        let levels = snap.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
            - snap.nodes.first().map_or(0, |n| n.depth);
        let level = (ah - 2.6 * f) / (levels as f32).max(1.0);
        let style = SceneStyle {
            slot: 4.2 * f,
            level: level.clamp(3.4 * f, 4.6 * f),
            radius: 0.75 * f,
            font: f,
            small_font: f,
            margin: 0.8 * f,
        };
        tree_drawing_styled(snap, marks, &style, self.measure)
    }

    /// The box around the wanted nodes of the drawn tree (with room for
    /// their labels), and the point to centre on when that box does not
    /// fit: the asked node, else the deepest node of the path, else the
    /// first node named.
    fn want_and_focus(
        &self,
        snap: &pnlab_core::search::Snapshot,
        pic: &TreePicture,
        wanted: &[NodeId],
    ) -> (Option<Bounds>, Option<(f32, f32)>) {
        let f = self.sz.small;
        let asked = self
            .st
            .question
            .as_ref()
            .and_then(|q| q.node.as_ref())
            .map(|n| n.id);
        let mut want: Option<Bounds> = None;
        let mut focus = None;
        for (i, n) in snap.nodes.iter().enumerate() {
            if !wanted.contains(&n.id) {
                continue;
            }
            let b = pic.scene.nodes[i];
            let grown = Bounds::from_min_size(
                b.min_x - 2.0 * f,
                b.min_y - f,
                b.width() + 4.0 * f,
                b.height() + 2.5 * f,
            );
            want = Some(match want {
                None => grown,
                Some(w) => Bounds {
                    min_x: w.min_x.min(grown.min_x),
                    min_y: w.min_y.min(grown.min_y),
                    max_x: w.max_x.max(grown.max_x),
                    max_y: w.max_y.max(grown.max_y),
                },
            });
            let rank = if asked == Some(n.id) {
                (2, 0)
            } else if n.on_path {
                (1, n.depth)
            } else {
                (0, 0)
            };
            if focus.is_none_or(|(r, _)| rank > r) {
                focus = Some((rank, ((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0)));
            }
        }
        (want, focus.map(|(_, at)| at))
    }
}

/// The tree's labels inside `window`, placed in the frame: the window's
/// corner at `at`, scaled by `scale`; with their font sizes.
fn placed_labels(
    pic: &TreePicture,
    window: Bounds,
    at: (f32, f32),
    scale: f32,
) -> Vec<(String, Bounds, f32)> {
    let (tx, ty) = at;
    pic.scene
        .labels
        .iter()
        .filter(|l| window.contains(&l.bounds))
        .map(|l| {
            let b = l.bounds.translate(-window.min_x, -window.min_y);
            let b = Bounds::from_min_size(
                tx + b.min_x * scale,
                ty + b.min_y * scale,
                b.width() * scale,
                b.height() * scale,
            );
            (l.text.clone(), b, l.font * scale)
        })
        .collect()
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), FrameError> {
    pnlab_core::files::write_atomic(path, bytes).map_err(FrameError::Write)
}

/// Writes every frame of `lesson` into `dir` (created if missing) at
/// `size`: `step-01.svg`, `step-01.png`, and for a question
/// `step-01-answer.*`. Returns the files written.
pub fn export(lesson: &Lesson, dir: &Path, size: FrameSize) -> Result<Vec<PathBuf>, FrameError> {
    std::fs::create_dir_all(dir).map_err(|e| IoError::new("create the directory", dir, e))?;
    let measure = frame_measure();
    let mut written = Vec::new();
    for k in 0..lesson.len() {
        let st = play(lesson, k)?;
        let mut variants = vec![(format!("step-{:02}", k + 1), false)];
        if st.question.is_some() {
            variants.push((format!("step-{:02}-answer", k + 1), true));
        }
        for (stem, reveal) in variants {
            let d = frame(lesson, &st, reveal, measure.as_ref(), size).drawing;
            let svg = dir.join(format!("{stem}.svg"));
            write(&svg, d.to_svg().as_bytes())?;
            written.push(svg);
            #[cfg(feature = "raster")]
            {
                let png = dir.join(format!("{stem}.png"));
                let bytes =
                    crate::export::raster::to_png(&d, 1.0).map_err(|reason| FrameError::Png {
                        path: png.clone(),
                        reason,
                    })?;
                write(&png, &bytes)?;
                written.push(png);
            }
        }
    }
    Ok(written)
}
