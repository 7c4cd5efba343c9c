//! The path view: the selection path from the root to the most-proving
//! node as a spine, one row per level listing the path node's children in
//! move order (the one on the path marked), each as a small box with its
//! move and its numbers. A row wider than the view shows a window of it
//! with "… 12 more" at the ends (clicking one scrolls the row). A sibling
//! the user opened lists its own children in a row right under its row,
//! indented, however deep. Nothing is drawn outside the view's width;
//! the height grows with the path and is scrolled.

use std::collections::HashMap;

use pnlab_core::search::snapshot::SnapNode;
use pnlab_core::search::{NodeId, Snapshot};

use super::children_of;
use super::labels::{short_label, Bounds, Measure};

/// One row of the path view.
#[derive(Clone, Debug, PartialEq)]
pub struct PathRow {
    /// Snapshot index of the node whose children the row lists (`None`
    /// for the first row, which holds the focus node alone).
    pub parent: Option<usize>,
    /// Snapshot indices of the items, in move order.
    pub items: Vec<usize>,
    /// 0 on the spine; k for a row opened k levels off the spine.
    pub indent: u32,
}

/// The rows of a path-view snapshot (see `ViewRequest::path_view`): the
/// spine's rows, each followed by the rows of the siblings opened in it.
pub fn rows(nodes: &[SnapNode]) -> Vec<PathRow> {
    if nodes.is_empty() {
        return Vec::new();
    }
    let children = children_of(nodes);
    let mut out = vec![PathRow {
        parent: None,
        items: vec![0],
        indent: 0,
    }];
    let mut cur = 0;
    loop {
        let kids = &children[cur];
        if kids.is_empty() {
            break;
        }
        out.push(PathRow {
            parent: Some(cur),
            items: kids.clone(),
            indent: 0,
        });
        // Opened siblings, depth first in move order.
        let mut stack: Vec<(usize, u32)> = kids
            .iter()
            .rev()
            .filter(|&&k| !nodes[k].on_path)
            .map(|&k| (k, 1))
            .collect();
        while let Some((k, indent)) = stack.pop() {
            if children[k].is_empty() {
                continue;
            }
            out.push(PathRow {
                parent: Some(k),
                items: children[k].clone(),
                indent,
            });
            stack.extend(children[k].iter().rev().map(|&c| (c, indent + 1)));
        }
        match kids.iter().find(|&&k| nodes[k].on_path) {
            Some(&next) => cur = next,
            None => break,
        }
    }
    out
}

/// Sizes of the path view, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathStyle {
    /// Font size of the items' text.
    pub font: f32,
    /// Space between items and between rows.
    pub gap: f32,
    /// Width of the row headers (depth or opened move).
    pub header: f32,
    /// Indentation per level off the spine.
    pub indent: f32,
    /// Narrowest and widest item.
    pub item_width: (f32, f32),
    /// Empty border.
    pub margin: f32,
}

impl Default for PathStyle {
    fn default() -> Self {
        PathStyle {
            font: 12.0,
            gap: 6.0,
            header: 56.0,
            indent: 22.0,
            item_width: (46.0, 120.0),
            margin: 8.0,
        }
    }
}

/// One drawn item: a node with its move and its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct PathItem {
    /// Snapshot index.
    pub node: usize,
    /// The box.
    pub bounds: Bounds,
    /// First line: the move (`root` for the first row).
    pub move_text: String,
    /// Second line: the label values, shortened to fit.
    pub value_text: String,
}

/// An elision marker: `count` items of a row are not shown on this side;
/// clicking it scrolls the row so that it starts at `new_start`.
#[derive(Clone, Debug, PartialEq)]
pub struct More {
    /// Id of the node whose children the row lists.
    pub row: NodeId,
    /// Items hidden on this side.
    pub count: usize,
    /// The marker's box.
    pub bounds: Bounds,
    /// The text, e.g. `… 12 more`.
    pub text: String,
    /// The row's first shown item after a click.
    pub new_start: usize,
}

/// A row's header and the item it hangs from.
#[derive(Clone, Debug, PartialEq)]
pub struct RowHeader {
    /// The header text (`d3` on the spine, the opened move off it).
    pub text: String,
    /// Where it goes.
    pub bounds: Bounds,
    /// Snapshot index of the node whose children the row lists.
    pub parent: Option<usize>,
}

/// The path view ready to draw.
#[derive(Clone, Debug, Default)]
pub struct PathScene {
    /// Items, row by row.
    pub items: Vec<PathItem>,
    /// Elision markers.
    pub mores: Vec<More>,
    /// One header per row.
    pub headers: Vec<RowHeader>,
    /// Everything drawn (the width is at most the view's).
    pub content: Bounds,
}

/// `text` cut to `width` points with a trailing `…` when it is wider.
fn fit_text(text: &str, width: f32, font: f32, measure: &dyn Measure) -> String {
    if measure.width(text, font) <= width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (1..chars.len()).rev() {
        let t: String = chars[..n].iter().chain(std::iter::once(&'…')).collect();
        if measure.width(&t, font) <= width {
            return t;
        }
    }
    // Never nothing: a label too wide for any shortening keeps its first
    // character and the ellipsis (the hover names the whole move).
    chars.first().map_or_else(String::new, |c| format!("{c}…"))
}

impl PathScene {
    /// Lays out `rows` of `snap` in a view `width` points wide. `starts`
    /// holds the first shown item of rows the user scrolled (by the id of
    /// the node whose children the row lists); other rows centre their
    /// path item.
    pub fn build(
        snap: &Snapshot,
        rows: &[PathRow],
        width: f32,
        style: &PathStyle,
        starts: &HashMap<NodeId, usize>,
        measure: &dyn Measure,
    ) -> PathScene {
        let nodes = &snap.nodes;
        let line = style.font * 1.3;
        let row_h = 2.0 * line + 6.0;
        let mut scene = PathScene::default();
        let mut y = style.margin;
        let (min_w, max_w) = style.item_width;
        for row in rows {
            let x0 = style.margin + row.indent as f32 * style.indent;
            let header_text = match row.parent {
                None => "root".to_string(),
                Some(p) if row.indent == 0 => format!("d{}", nodes[p].depth + 1),
                Some(p) => format!("▸ {}", nodes[p].move_label),
            };
            let header_w = style.header;
            scene.headers.push(RowHeader {
                text: fit_text(&header_text, header_w - 4.0, style.font, measure),
                bounds: Bounds::from_min_size(x0, y, header_w - 4.0, row_h),
                parent: row.parent,
            });
            let texts: Vec<(String, String)> = row
                .items
                .iter()
                .map(|&i| {
                    let n = &nodes[i];
                    let mv = if n.parent.is_none() || n.move_label.is_empty() {
                        "root".to_string()
                    } else {
                        n.move_label.clone()
                    };
                    (mv, short_label(snap, &n.values))
                })
                .collect();
            let widest = texts
                .iter()
                .map(|(a, b)| {
                    measure
                        .width(a, style.font)
                        .max(measure.width(b, style.font))
                })
                .fold(0.0f32, f32::max);
            let item_w = (widest + 10.0).clamp(min_w, max_w);
            let left = x0 + header_w;
            // The path item is as wide as its whole move (the line the
            // class follows is never shortened); the others share
            // `item_w` and shorten a move longer than it.
            let path_w = row
                .items
                .iter()
                .zip(&texts)
                .find(|(&i, _)| nodes[i].on_path)
                .map(|(_, (mv, _))| measure.width(mv, style.font) + 10.0)
                .filter(|&w| w > item_w);
            let extra = path_w.map_or(0.0, |w| w - item_w);
            let avail = (width - style.margin - left - extra).max(item_w);
            let n = row.items.len();
            let step = item_w + style.gap;
            let (start, shown) = if n as f32 * step - style.gap <= avail {
                (0, n)
            } else {
                let more_w = measure.width(&format!("… {n} more"), style.font) + 8.0;
                let fit = (((avail - 2.0 * (more_w + style.gap)) + style.gap) / step)
                    .floor()
                    .max(1.0) as usize;
                let fit = fit.min(n);
                let focus = row.items.iter().position(|&i| nodes[i].on_path);
                let wanted = row
                    .parent
                    .and_then(|p| starts.get(&nodes[p].id).copied())
                    .unwrap_or_else(|| focus.unwrap_or(0).saturating_sub(fit / 2));
                (wanted.min(n - fit), fit)
            };
            let mut x = left;
            let row_id = row.parent.map(|p| nodes[p].id).unwrap_or(nodes[0].id);
            // The `… N more` marker at `x` for `count` hidden items, which
            // scrolls the row to `new_start`; with its width.
            let more = |count: usize, x: f32, new_start: usize| {
                let text = format!("… {count} more");
                let w = measure.width(&text, style.font) + 8.0;
                let bounds = Bounds::from_min_size(x, y, w, row_h);
                let marker = More {
                    row: row_id,
                    count,
                    bounds,
                    text,
                    new_start,
                };
                (marker, w)
            };
            if start > 0 {
                let (marker, w) = more(start, x, start.saturating_sub(shown));
                scene.mores.push(marker);
                x += w + style.gap;
            }
            for (k, &i) in row.items.iter().enumerate().skip(start).take(shown) {
                let (mv, vals) = &texts[k];
                let w = match path_w {
                    Some(w) if nodes[i].on_path => w,
                    _ => item_w,
                };
                scene.items.push(PathItem {
                    node: i,
                    bounds: Bounds::from_min_size(x, y, w, row_h),
                    move_text: fit_text(mv, w - 6.0, style.font, measure),
                    value_text: fit_text(vals, w - 6.0, style.font, measure),
                });
                x += w + style.gap;
            }
            let rest = n - start - shown;
            if rest > 0 {
                let (marker, w) = more(rest, x, (start + shown).min(n - shown));
                scene.mores.push(marker);
                x += w + style.gap;
            }
            scene.content.max_x = scene.content.max_x.max(x - style.gap + style.margin);
            y += row_h + style.gap;
        }
        scene.content.max_y = y + style.margin;
        scene
    }

    /// Every box drawn: headers, items and markers.
    pub fn boxes(&self) -> impl Iterator<Item = &Bounds> {
        self.headers
            .iter()
            .map(|h| &h.bounds)
            .chain(self.items.iter().map(|i| &i.bounds))
            .chain(self.mores.iter().map(|m| &m.bounds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::labels::ApproxMeasure;
    use pnlab_core::search::test_nodes::{node, snapshot};

    /// The scene of `snap` in `width` with the default style, nothing
    /// opened, labels measured approximately.
    fn scene(snap: &Snapshot, width: f32) -> PathScene {
        let r = rows(&snap.nodes);
        let style = PathStyle::default();
        PathScene::build(snap, &r, width, &style, &HashMap::new(), &ApproxMeasure)
    }

    /// Root with `n` children; child `on` is on the path and has two
    /// children, child `open` has three (opened by the viewer).
    fn fan(n: u32, on: u32, open: u32) -> Vec<SnapNode> {
        let mut v = vec![node(0, None, 0, 0)];
        v[0].on_path = true;
        for k in 0..n {
            let mut c = node(k as u64 + 1, Some(0), k, 1);
            c.move_label = format!("m{k}");
            c.values = vec![k as f64, 1.0];
            c.on_path = k == on;
            v.push(c);
        }
        for (owner, count) in [(on, 2u32), (open, 3)] {
            for j in 0..count {
                let mut c = node(1000 + owner as u64 * 10 + j as u64, Some(owner + 1), j, 2);
                c.move_label = format!("x{j}");
                c.on_path = owner == on && j == 0;
                v.push(c);
            }
        }
        v
    }

    #[test]
    fn rows_follow_the_spine_and_put_opened_rows_under_their_row() {
        let nodes = fan(5, 3, 1);
        let r = rows(&nodes);
        let parents: Vec<Option<usize>> = r.iter().map(|x| x.parent).collect();
        assert_eq!(parents, vec![None, Some(0), Some(2), Some(4)]);
        assert_eq!(r[2].indent, 1);
        assert_eq!(r[3].indent, 0);
        assert_eq!(r[1].items, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_wide_row_is_elided_around_the_path_item_and_counts_what_it_hides() {
        let nodes = fan(1000, 700, 1);
        let snap = snapshot(nodes, 2);
        let s = scene(&snap, 900.0);
        let row1: Vec<&PathItem> = s
            .items
            .iter()
            .filter(|i| snap.nodes[i.node].depth == 1)
            .collect();
        let hidden: usize = s.mores.iter().filter(|m| m.row == 0).map(|m| m.count).sum();
        assert_eq!(row1.len() + hidden, 1000);
        assert!(row1.iter().any(|i| snap.nodes[i.node].on_path));
        let boxes: Vec<&Bounds> = s.boxes().collect();
        for (i, a) in boxes.iter().enumerate() {
            assert!(a.min_x >= 0.0 && a.max_x <= 900.0, "{a:?}");
            for b in &boxes[i + 1..] {
                assert!(!a.intersects(b), "{a:?} {b:?}");
            }
        }
    }

    /// Every item shows a move (shortened at worst, never empty), and the
    /// path item the whole of its move however long.
    #[test]
    fn every_item_names_its_move_and_the_path_item_in_full() {
        let mut nodes = fan(40, 7, 1);
        for n in nodes.iter_mut().skip(1) {
            n.move_label = format!("{}-a-long-move-name-{}", n.move_label, n.id);
        }
        let snap = snapshot(nodes, 2);
        let s = scene(&snap, 700.0);
        assert!(!s.items.is_empty());
        for it in &s.items {
            let n = &snap.nodes[it.node];
            assert!(!it.move_text.is_empty(), "{}", n.move_label);
            if n.on_path && n.parent.is_some() {
                assert_eq!(it.move_text, n.move_label);
            }
        }
        assert!(s
            .items
            .iter()
            .any(|i| snap.nodes[i.node].on_path && snap.nodes[i.node].depth == 1));
        let boxes: Vec<&Bounds> = s.boxes().collect();
        for (i, a) in boxes.iter().enumerate() {
            assert!(a.max_x <= 700.0, "{a:?}");
            for b in &boxes[i + 1..] {
                assert!(!a.intersects(b), "{a:?} {b:?}");
            }
        }
    }
}
