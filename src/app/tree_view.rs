//! The tree view (issue #5 item 1, docs/architecture.md "Tree view"): a custom
//! painter over the bounded [`Snapshot`] the worker sends.
//!
//! OR nodes are squares and AND nodes circles (the papers' convention);
//! colour says proven / disproven / unknown; the selection path to the
//! most-proving node is drawn thick; each node carries the values its
//! algorithm names in `Snapshot::label_values`, and each edge its move.
//! The layout is layered (one row per depth) and tidy (leaves side by side,
//! a parent centred over its children); node positions glide from their
//! old place to the new one, keyed by the stable [`NodeId`], so a growing
//! tree does not jump. Only the requested part of the tree is ever here:
//! the view turns its depth, focus and collapsed set into the
//! [`ViewRequest`] the worker answers, so a tree of millions of nodes costs
//! the same to draw as one of a thousand (level of detail).

mod tidy;

use std::collections::{HashMap, HashSet};

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use crate::layout::{Point, Tidy};
use crate::search::snapshot::{fmt_value, NodeKind, NodeStatus, SnapNode, ValueSource};
use crate::search::{NodeId, Snapshot, ViewRequest};

/// The smallest zoom an automatic fit goes down to: below it node labels
/// are no longer drawn, so wider trees are scrolled instead.
const READABLE_ZOOM: f32 = 0.65;

/// Horizontal distance between two leaves at zoom 1, in points.
const SLOT: f32 = 62.0;
/// Vertical distance between two levels at zoom 1.
const LEVEL: f32 = 78.0;
/// Node half-size at zoom 1.
const RADIUS: f32 = 12.0;

/// What the user asked the tree view for during a frame.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeAction {
    /// Select a node (inspector, board).
    Select(NodeId),
    /// The view request changed (collapse, focus, depth).
    ViewChanged,
    /// Class mode: the user predicts this node is the most-proving one.
    Predict(NodeId),
}

/// Which picture of the tree the view draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeMode {
    /// The path view once the tree is larger than the view, else the tidy
    /// tree.
    Auto,
    /// The tidy tree (levels below the focus).
    Tidy,
    /// The selection path with each level's siblings.
    Path,
}

/// Whether the automatic mode shows the path view: when the tidy tree
/// of `total_nodes` would not fit `width` points at a readable zoom (its
/// leaves, about half the nodes, side by side).
pub fn auto_path_view(total_nodes: u64, width: f32) -> bool {
    let leaves_that_fit = (width / (SLOT * READABLE_ZOOM)).max(1.0);
    total_nodes as f32 > 2.0 * leaves_that_fit
}

/// The toolbar's count of what the view shows. A table search's view also
/// shows frontier children that have no entry (moves not searched yet),
/// so its total is the table's, said so.
pub fn shown_text(s: &Snapshot, proof: Option<&Snapshot>) -> String {
    let shown = s.nodes.len() as u64;
    if let Some(p) = proof {
        let what = if p
            .nodes
            .first()
            .is_some_and(|n| n.status == NodeStatus::Proven)
        {
            "proof"
        } else {
            "disproof"
        };
        return format!(
            "{what} tree: {} of the {shown} nodes in view (the search holds {})",
            p.nodes.len(),
            s.total_nodes
        );
    }
    if super::counters::shows_part_of_its_tree(&s.algo) {
        format!("showing {shown} of {} nodes", s.total_nodes)
    } else if shown > s.total_nodes {
        format!(
            "showing {shown} nodes: {} held by the search, the rest moves not searched yet",
            s.total_nodes
        )
    } else {
        format!("showing {shown} nodes (the search holds {})", s.total_nodes)
    }
}

/// Colours of the view, from the theme.
pub struct Palette {
    /// Proven nodes (green).
    pub proven: Color32,
    /// Disproven nodes (red).
    pub disproven: Color32,
    /// Unsolved nodes (grey-blue, lighter in the light theme).
    pub unknown: Color32,
    /// The current selection path (orange).
    pub path: Color32,
    /// The node the user selected (blue).
    pub selected: Color32,
    /// Tree edges, a muted version of the theme's text colour.
    pub edge: Color32,
    /// Back-edges of a cyclic graph (a move into a position on the path).
    pub back: Color32,
    /// Labels, the theme's text colour.
    pub text: Color32,
}

impl Palette {
    /// The palette for the current theme (dark or light).
    pub fn for_visuals(v: &egui::Visuals) -> Palette {
        Palette {
            proven: Color32::from_rgb(46, 160, 67),
            disproven: Color32::from_rgb(207, 57, 57),
            unknown: if v.dark_mode {
                Color32::from_rgb(96, 112, 140)
            } else {
                Color32::from_rgb(150, 165, 190)
            },
            path: Color32::from_rgb(255, 150, 20),
            selected: Color32::from_rgb(30, 160, 255),
            edge: v.widgets.noninteractive.fg_stroke.color.gamma_multiply(0.6),
            back: Color32::from_rgb(170, 80, 220),
            text: v.text_color(),
        }
    }

    /// The fill colour of a node with status `s`.
    pub fn status(&self, s: NodeStatus) -> Color32 {
        match s {
            NodeStatus::Proven => self.proven,
            NodeStatus::Disproven => self.disproven,
            NodeStatus::Unknown => self.unknown,
        }
    }
}

/// A layout point as an egui vector.
fn to_vec(p: Point) -> Vec2 {
    Vec2::new(p.x, p.y)
}

/// The tree view's state (persisted parts are plain values).
pub struct TreeView {
    /// Scale: 1 = default size.
    pub zoom: f32,
    /// Screen offset of the layout origin from the view's top-left corner.
    pub pan: Vec2,
    /// Keep the end of the selection path in view.
    pub follow_mpn: bool,
    /// Nodes whose subtrees the user folded (hidden from the snapshot).
    pub collapsed: HashSet<NodeId>,
    /// The node the user clicked (shown in the inspector).
    pub selected: Option<NodeId>,
    /// Subtree shown instead of the root.
    pub focus: Option<NodeId>,
    /// Levels requested below the focus.
    pub max_depth: u32,
    /// Node cap of the request.
    pub max_nodes: usize,
    /// Class mode: the selection path is hidden and clicks are
    /// predictions (docs/architecture.md "Class mode").
    pub hide_path: bool,
    /// Conspiracy-number searches: label nodes with CN at this target.
    pub cn_target: Option<f64>,
    layout: Tidy,
    /// The node ids of `layout`'s positions (to keep a grown tree in
    /// place, see [`TreeView::keep_in_place`]).
    layout_ids: Vec<NodeId>,
    layout_generation: u64,
    /// Displayed positions (layout units), gliding toward the layout.
    shown: HashMap<NodeId, Vec2>,
    fit_pending: bool,
    /// Fit every new layout until the user pans or zooms.
    pub auto_fit: bool,
    last_time: f64,
    /// Tidy tree, path view or automatic.
    pub mode: TreeMode,
    /// The path view is what the worker is asked for.
    pub path_active: bool,
    /// Show the overview strip above the tree.
    pub show_overview: bool,
    /// Path view: siblings opened in place.
    pub open: HashSet<NodeId>,
    /// Path view: first shown item of rows the user scrolled sideways.
    pub row_starts: HashMap<NodeId, usize>,
    /// Path view: vertical scroll in points.
    pub path_scroll: f32,
    /// Path view: scroll to the path's end on the next frame.
    pub path_follow_pending: bool,
    /// Once the root is solved, draw only its proof (or disproof) tree.
    pub proof_only: bool,
    /// Presenter mode: every label drawn at this size in points,
    /// whatever the zoom (`None`: labels follow the zoom).
    pub label_px: Option<f32>,
    /// Nodes ringed in a colour of their own (a lesson's highlights,
    /// class mode's prediction and answer).
    pub marks: Vec<(NodeId, Color32)>,
    /// Counts drawn beside nodes in a ringed badge (a live class's
    /// answers: how many students picked each node).
    pub badges: Vec<(NodeId, usize)>,
    /// What the last frame of the tidy tree drew (layout tests).
    pub drawn: DrawnTree,
}

/// Where the tidy tree's last frame put things, in screen points: the
/// presenter layout test checks label sizes and that nothing is clipped.
#[derive(Clone, Debug, Default)]
pub struct DrawnTree {
    /// The tree's area.
    pub area: Option<Rect>,
    /// Each drawn label's text and painted rectangle.
    pub labels: Vec<(String, Rect)>,
    /// Each snapshot node's shape, by id.
    pub nodes: Vec<(NodeId, Rect)>,
    /// Labels left out because they would overlap (shown on hover).
    pub dropped: usize,
}

impl Default for TreeView {
    fn default() -> Self {
        TreeView {
            zoom: 1.0,
            pan: Vec2::new(40.0, 40.0),
            follow_mpn: true,
            collapsed: HashSet::new(),
            selected: None,
            focus: None,
            max_depth: 8,
            max_nodes: 2_000,
            hide_path: false,
            cn_target: None,
            layout: Tidy::default(),
            layout_ids: Vec::new(),
            layout_generation: u64::MAX,
            shown: HashMap::new(),
            fit_pending: true,
            auto_fit: true,
            last_time: 0.0,
            mode: TreeMode::Auto,
            path_active: false,
            show_overview: true,
            open: HashSet::new(),
            row_starts: HashMap::new(),
            path_scroll: 0.0,
            path_follow_pending: true,
            proof_only: true,
            label_px: None,
            marks: Vec::new(),
            badges: Vec::new(),
            drawn: DrawnTree::default(),
        }
    }
}

/// The accessible name of a node: its move and every value, e.g.
/// `node b2: pn 1, dn 3` (the root is `node root`).
pub fn node_name(snap: &Snapshot, node: &SnapNode) -> String {
    let values = snap
        .value_names
        .iter()
        .zip(&node.values)
        .map(|(n, v)| format!("{n} {}", fmt_value(*v)))
        .collect::<Vec<_>>()
        .join(", ");
    let mv = if node.parent.is_none() {
        "root"
    } else {
        node.move_label.as_str()
    };
    format!("node {mv}: {values}")
}

impl TreeView {
    /// The request the worker should answer for this view.
    pub fn request(&self) -> ViewRequest {
        ViewRequest {
            focus: self.focus,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            collapsed: self.collapsed.clone(),
            inspect: self.selected,
            want_position: true,
            overview: self.show_overview,
            path_view: self.path_active,
            open: self.open.clone(),
            cn_target: self.cn_target,
        }
    }

    /// Forgets per-run state (new position or algorithm).
    pub fn reset_run(&mut self) {
        self.collapsed.clear();
        self.selected = None;
        self.focus = None;
        self.shown.clear();
        self.fit_pending = true;
        self.auto_fit = true;
        self.open.clear();
        self.row_starts.clear();
        self.path_scroll = 0.0;
        self.path_follow_pending = true;
        self.path_active = self.mode == TreeMode::Path;
    }

    /// Fit the tidy tree (and scroll the path view to its end) on the
    /// next frame.
    pub fn request_fit(&mut self) {
        self.fit_pending = true;
        self.path_follow_pending = true;
    }

    /// Toolbar above the tree.
    pub fn toolbar(&mut self, ui: &mut egui::Ui, snap: Option<&Snapshot>) -> Vec<TreeAction> {
        let mut actions = Vec::new();
        ui.horizontal_wrapped(|ui| {
            let before = self.mode;
            egui::ComboBox::from_label("view")
                .selected_text(match self.mode {
                    TreeMode::Auto => "auto",
                    TreeMode::Tidy => "tree",
                    TreeMode::Path => "path",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.mode, TreeMode::Auto, "auto")
                        .on_hover_text("The path view once the tree is larger than the view");
                    ui.selectable_value(&mut self.mode, TreeMode::Tidy, "tree");
                    ui.selectable_value(&mut self.mode, TreeMode::Path, "path");
                });
            if self.mode != before {
                match self.mode {
                    TreeMode::Tidy => self.path_active = false,
                    TreeMode::Path => self.path_active = true,
                    TreeMode::Auto => {}
                }
                self.request_fit();
                actions.push(TreeAction::ViewChanged);
            }
            if ui
                .checkbox(&mut self.show_overview, "Overview")
                .on_hover_text("The whole tree by subtree size, one band per depth")
                .changed()
            {
                actions.push(TreeAction::ViewChanged);
            }
            if ui
                .button("Fit")
                .on_hover_text("Fit the tree in the view")
                .clicked()
            {
                self.fit_pending = true;
            }
            if ui.button("−").on_hover_text("Zoom out").clicked() {
                self.zoom = (self.zoom / 1.25).max(0.05);
            }
            if ui.button("+").on_hover_text("Zoom in").clicked() {
                self.zoom = (self.zoom * 1.25).min(4.0);
            }
            ui.checkbox(&mut self.follow_mpn, "Follow MPN")
                .on_hover_text("Keep the most-proving node in view");
            let l = ui.label("Depth");
            let r = ui
                .add(egui::DragValue::new(&mut self.max_depth).range(1..=64))
                .labelled_by(l.id);
            if r.changed() {
                actions.push(TreeAction::ViewChanged);
            }
            if self.focus.is_some() && ui.button("Whole tree").clicked() {
                self.focus = None;
                self.fit_pending = true;
                actions.push(TreeAction::ViewChanged);
            }
            if !self.collapsed.is_empty() && ui.button("Expand all").clicked() {
                self.collapsed.clear();
                actions.push(TreeAction::ViewChanged);
            }
            if let Some(s) = snap {
                let solved = s
                    .nodes
                    .first()
                    .is_some_and(|n| n.status != NodeStatus::Unknown);
                if solved && self.focus.is_none() && self.mode != TreeMode::Path {
                    let r = ui
                        .checkbox(&mut self.proof_only, "Proof only")
                        .on_hover_text(
                            "The solved root's proof (or disproof) tree: the winning move \
                             and every reply to it; off: the whole search tree",
                        );
                    if r.changed() {
                        self.layout_generation = u64::MAX;
                        self.request_fit();
                        actions.push(TreeAction::ViewChanged);
                    }
                }
                ui.label(shown_text(s, self.proof_shown(s).as_ref()));
            }
        });
        actions
    }

    /// Draws the tree; `generation` changes whenever a new snapshot
    /// arrived. In class mode (`hide_path`) clicks are predictions.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: Option<&Snapshot>,
        generation: u64,
    ) -> Vec<TreeAction> {
        let mut actions = Vec::new();
        let Some(snap) = snap else {
            let (response, painter) =
                ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
            painter.text(
                response.rect.center(),
                Align2::CENTER_CENTER,
                "no search loaded",
                FontId::proportional(16.0),
                ui.visuals().weak_text_color(),
            );
            return actions;
        };
        // A solved root: its proof tree, drawn as a tree (the path view
        // of a solved search would hide the winning move among the tries).
        let proof = self.proof_shown(snap);
        let snap = proof.as_ref().unwrap_or(snap);
        if self.mode == TreeMode::Auto {
            let want = proof.is_none() && auto_path_view(snap.total_nodes, ui.available_width());
            if want != self.path_active {
                self.path_active = want;
                self.request_fit();
                actions.push(TreeAction::ViewChanged);
            }
        }
        if self.show_overview {
            self.overview_ui(ui, snap, &mut actions);
        }
        if generation != self.layout_generation {
            self.path_follow_pending = true;
        }
        // Draw what the snapshot holds (the worker may still be answering
        // the previous request after a switch).
        if snap.nodes.first().is_some_and(|_| self.path_active) {
            self.layout_generation = generation;
            self.path_ui(ui, snap, &mut actions);
        } else {
            self.tidy_ui(ui, snap, generation, &mut actions);
        }
        actions
    }

    /// Announces a node's button (its name, whether it is selected) and
    /// handles a click on it: a prediction in class mode (`hide_path`), a
    /// selection otherwise. Both views draw nodes this way.
    pub(super) fn node_button(
        &mut self,
        hit: &egui::Response,
        name: &str,
        selected: bool,
        id: u64,
        actions: &mut Vec<TreeAction>,
    ) {
        hit.widget_info(|| {
            let mut info = egui::WidgetInfo::labeled(egui::Role::Button, true, name);
            info.selected = Some(selected);
            info
        });
        if hit.clicked() {
            if self.hide_path {
                actions.push(TreeAction::Predict(id));
            } else {
                self.selected = Some(id);
                actions.push(TreeAction::Select(id));
            }
        }
    }

    /// The proof (or disproof) tree to draw instead of `snap`, when the
    /// root is solved, the user wants it and the whole tree is in view.
    pub fn proof_shown(&self, snap: &Snapshot) -> Option<Snapshot> {
        if !self.proof_only || self.focus.is_some() || self.mode == TreeMode::Path {
            return None;
        }
        super::proof_view::proof_part(snap, None)
    }

    /// Scrolls so the deepest shown node of the selection path is inside
    /// the view (docs/architecture.md "follow the MPN").
    fn follow(&mut self, snap: &Snapshot, rect: Rect) {
        let Some(last) = snap
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.on_path)
            .max_by_key(|(_, n)| n.depth)
            .map(|(i, _)| i)
        else {
            return;
        };
        let p = to_vec(self.layout.pos[last]);
        let screen = self.pan + Vec2::new(p.x * SLOT * self.zoom, p.y * LEVEL * self.zoom);
        let margin = 60.0f32.min(rect.width() / 4.0).min(rect.height() / 4.0);
        let size = rect.size();
        if screen.x < margin || screen.x > size.x - margin {
            self.pan.x += size.x / 2.0 - screen.x;
        }
        if screen.y < margin || screen.y > size.y - margin {
            self.pan.y += size.y / 2.0 - screen.y;
        }
    }

    /// A tree that grew a little (one iteration, a class mode reveal)
    /// stays where the class was looking: the node that grew children
    /// (else the root) stays on the same spot of the screen, and the zoom
    /// shrinks about it only as much as the new layout needs to stay
    /// inside the view (it is kept when the layout still fits). Outside
    /// presenter mode. `before` maps each node of the
    /// previous layout to its position and child count. Returns false
    /// when the whole layout must be fitted again.
    fn keep_in_place(
        &mut self,
        snap: &Snapshot,
        rect: Rect,
        before: &HashMap<NodeId, (Point, usize)>,
    ) -> bool {
        // Presenter mode's labels keep their size whatever the zoom, so
        // only a full fit knows how much room they need at the edges.
        if self.label_px.is_some()
            || before.is_empty()
            || snap.nodes.is_empty()
            || snap.nodes.len() > before.len() + 64
        {
            return false;
        }
        let (zoom, pan) = (self.zoom, self.pan);
        self.fit(rect);
        let fitted = self.zoom;
        self.zoom = zoom;
        self.pan = pan;
        if fitted > zoom * 1.5 || fitted < READABLE_ZOOM {
            return false;
        }
        let grew = snap
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| {
                before
                    .get(&n.id)
                    .is_some_and(|&(_, kids)| kids == 0 && !self.layout.children[*i].is_empty())
            })
            .max_by_key(|(_, n)| n.depth)
            .map(|(i, _)| i);
        let Some(anchor) = grew.or_else(|| before.contains_key(&snap.nodes[0].id).then_some(0))
        else {
            return false;
        };
        // The anchor's spot on the screen, and where it and the layout's
        // far corner now are at zoom 1.
        let unit = Vec2::new(SLOT, LEVEL);
        let screen = pan + to_vec(before[&snap.nodes[anchor].id].0) * unit * zoom;
        let at = to_vec(self.layout.pos[anchor]) * unit;
        let extent = Vec2::new(
            (self.layout.width - 1.0).max(0.0) * SLOT,
            self.layout.depth * LEVEL,
        );
        // The largest zoom (not above the current one) at which the whole
        // layout, scaled about the anchor's fixed spot, stays a node and a
        // margin inside the view on every side.
        let size = rect.size();
        let mut z = zoom;
        for (spot, before_it, after_it, room) in [
            (screen.x, at.x, extent.x - at.x, size.x),
            (screen.y, at.y, extent.y - at.y, size.y),
        ] {
            z = z
                .min((spot - 10.0) / (before_it + 2.0 * RADIUS))
                .min((room - 10.0 - spot) / (after_it + 2.0 * RADIUS));
        }
        if z < fitted * 0.75 || z < READABLE_ZOOM {
            // The anchor sits too near an edge to keep: fit again.
            return false;
        }
        self.zoom = z;
        self.pan = screen - at * z;
        true
    }

    /// Zoom and pan so the whole layout fits.
    fn fit(&mut self, rect: Rect) {
        let w = (self.layout.width - 1.0).max(0.0) * SLOT + 4.0 * RADIUS;
        let h = self.layout.depth * LEVEL + 5.0 * RADIUS;
        let zx = (rect.width() - 40.0).max(50.0) / w.max(1.0);
        let zy = (rect.height() - 40.0).max(50.0) / h.max(1.0);
        self.zoom = zx.min(zy).clamp(0.05, 1.6);
        let content = Vec2::new(
            (self.layout.width - 1.0).max(0.0) * SLOT * self.zoom,
            self.layout.depth * LEVEL * self.zoom,
        );
        self.pan = (rect.size() - content) / 2.0;
        self.pan.y = self.pan.y.min(30.0 * self.zoom.max(0.5));
    }
}

/// The legend's lines laid out for `rect` at the presenter's label size
/// (empty when the snapshot needs no legend).
fn legend_galleys(
    painter: &egui::Painter,
    rect: Rect,
    snap: &Snapshot,
    label_px: Option<f32>,
    pal: &Palette,
) -> Vec<std::sync::Arc<egui::Galley>> {
    let size = label_px.map_or(12.0, |p| (p * 0.7).max(12.0));
    let wrap = (rect.width() - 16.0).max(50.0);
    crate::layout::scene::legend(snap)
        .into_iter()
        .map(|l| painter.layout(l, FontId::proportional(size), pal.text, wrap))
        .collect()
}

/// The tree's legend ([`crate::layout::scene::legend`]) in the bottom
/// left corner over a backdrop, at the presenter's label size when there
/// is one (so it grows with Ctrl ±).
fn legend_ui(
    ui: &egui::Ui,
    painter: &egui::Painter,
    rect: Rect,
    galleys: Vec<std::sync::Arc<egui::Galley>>,
    pal: &Palette,
) {
    if galleys.is_empty() {
        return;
    }
    let height: f32 = galleys.iter().map(|g| g.size().y).sum();
    let width = galleys.iter().map(|g| g.size().x).fold(0.0, f32::max);
    let top = rect.bottom() - 6.0 - height;
    let back = Rect::from_min_size(Pos2::new(rect.left() + 8.0, top), Vec2::new(width, height));
    painter.rect_filled(
        back.expand(3.0),
        3.0,
        ui.visuals().panel_fill.gamma_multiply(0.92),
    );
    let mut y = top;
    for g in galleys {
        let h = g.size().y;
        painter.galley(Pos2::new(rect.left() + 8.0, y), g, pal.text);
        y += h;
    }
}

/// A ghost node's dashed outline (a square or a circle): a child the
/// search counts in its parent's numbers but does not hold.
fn dashed_outline(painter: &egui::Painter, kind: NodeKind, c: Pos2, r: f32, stroke: Stroke) {
    let pts: Vec<Pos2> = match kind {
        NodeKind::Or => [
            (-1.0, -1.0),
            (1.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
            (-1.0, -1.0),
        ]
        .iter()
        .map(|&(x, y)| c + Vec2::new(x * r, y * r))
        .collect(),
        _ => (0..=32)
            .map(|k| {
                let a = k as f32 / 32.0 * std::f32::consts::TAU;
                c + Vec2::new(a.cos() * r, a.sin() * r)
            })
            .collect(),
    };
    painter.extend(egui::Shape::dashed_line(&pts, stroke, 4.0, 3.0));
}

/// A back-edge from the node at `from` up to its ancestor at `to`: a
/// dashed curve bulging to the right with an arrowhead at the ancestor,
/// so the loop reads as a loop and not as a tree edge.
fn back_edge(painter: &egui::Painter, from: Pos2, to: Pos2, r: f32, scale: f32, pal: &Palette) {
    let stroke = Stroke::new((2.0 * scale).clamp(1.0, 3.0), pal.back);
    let a = from + Vec2::new(r, 0.0);
    let b = to + Vec2::new(r, 0.0);
    let bulge = ((a - b).length() * 0.35).max(3.0 * r);
    let c1 = a + Vec2::new(bulge, 0.0);
    let c2 = b + Vec2::new(bulge, 0.0);
    let pts: Vec<Pos2> = (0..=24)
        .map(|k| {
            let t = k as f32 / 24.0;
            let u = 1.0 - t;
            (a.to_vec2() * (u * u * u)
                + c1.to_vec2() * (3.0 * u * u * t)
                + c2.to_vec2() * (3.0 * u * t * t)
                + b.to_vec2() * (t * t * t))
                .to_pos2()
        })
        .collect();
    painter.extend(egui::Shape::dashed_line(&pts, stroke, 6.0, 4.0));
    // Arrowhead at the ancestor, along the curve's last direction.
    let dir = (pts[24] - pts[22]).normalized();
    let side = Vec2::new(-dir.y, dir.x);
    let tip = pts[24];
    let len = (7.0 * scale).clamp(4.0, 10.0);
    painter.add(egui::Shape::convex_polygon(
        vec![
            tip,
            tip - dir * len + side * len * 0.5,
            tip - dir * len - side * len * 0.5,
        ],
        pal.back,
        Stroke::NONE,
    ));
}

/// What a stored or ghost node's values are, in words (legends, tooltips).
pub fn source_words(source: ValueSource) -> Option<&'static str> {
    match source {
        ValueSource::Computed => None,
        ValueSource::Stored => Some(
            "* stored: the table's numbers, not yet updated from the children (MID updates them when it returns here)",
        ),
        ValueSource::Ghost => Some(
            "dashed: a child counted with the unknown-node value but not in the table (never searched)",
        ),
    }
}

/// Tooltip: every value of a node and its status.
pub(super) fn node_tooltip(ui: &mut egui::Ui, snap: &Snapshot, node: &SnapNode) {
    let mv = if node.move_label.is_empty() {
        "root".to_string()
    } else {
        node.move_label.clone()
    };
    ui.strong(format!(
        "{mv} ({}, depth {})",
        match node.kind {
            NodeKind::Or => "OR",
            NodeKind::And => "AND",
            NodeKind::Chance => "chance",
        },
        node.depth
    ));
    for (n, v) in snap.value_names.iter().zip(&node.values) {
        ui.label(format!("{n} = {}", fmt_value(*v)));
    }
    ui.label(format!(
        "{:?}{}",
        node.status,
        if node.terminal { ", terminal" } else { "" }
    ));
    ui.label(format!(
        "{} children{}",
        node.n_children,
        if node.expanded { "" } else { " (not expanded)" }
    ));
    if node.descendants > 0 {
        ui.label(format!("{} nodes below", node.descendants));
    }
    if let Some(why) = source_words(node.source) {
        ui.label(why);
    }
    ui.weak("click: inspect · double-click: collapse/expand · right-click: menu");
}

/// A live class's count on a node: the node ringed in the badge colour
/// (thicker for more picks) and the count in a filled disc at its top
/// right, large enough to read from the back of a room.
fn live_badge(painter: &egui::Painter, node_rect: Rect, count: usize, r: f32) {
    const BADGE: Color32 = Color32::from_rgb(130, 60, 200);
    let width = (2.0 + count as f32).min(8.0);
    painter.rect_stroke(
        node_rect.expand(3.0 + width / 2.0),
        6.0,
        Stroke::new(width, BADGE),
        StrokeKind::Outside,
    );
    let text = count.to_string();
    let radius = (r * 0.7).max(11.0) + 3.0 * (text.len() as f32 - 1.0);
    let centre = node_rect.right_top() + Vec2::new(radius * 0.4, -radius * 0.4);
    painter.circle_filled(centre, radius, BADGE);
    painter.text(
        centre,
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(radius * 1.2),
        Color32::WHITE,
    );
}
