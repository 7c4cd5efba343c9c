//! What CNS shows: per-node values for the tree view, the inspector's
//! formulas, the proof/disproof functions for the step plots, the live
//! curve sample and the JSON fields.

use serde_json::json;

use crate::game::Game;
use crate::search::arena::{ArenaView, Idx, Node};
use crate::search::arena_search::{next_on_path, SnapshotParts};
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{
    fmt_value, FunctionPlot, Inspection, NodeId, NodeStatus, PlotStep, SnapNode, Snapshot,
    TreeAccess, ViewRequest,
};

use super::staircase::{Staircase, Value, NEG_INF, POS_INF};
use super::values::Model;
use super::{display_value, Cns, CnsData};

/// The per-node values: the minimax value, p(v_max), d(v_min), CN at the
/// viewer's target (NaN without one) and the expansions beneath.
pub const VALUE_NAMES: &[&str] = &["value", "p", "d", "CN", "expansions"];

/// A proof number as a float (∞ for `INF`).
fn f(h: Pn) -> f64 {
    pn::to_f64(h)
}

impl<G: Game> Cns<G> {
    /// The value in display units.
    fn shown(&self, v: Value) -> f64 {
        display_value(v, self.unit())
    }

    /// `v` as text in display units.
    fn text(&self, v: Value) -> String {
        fmt_value(self.shown(v))
    }

    /// A displayed target value on the fixed-point scale.
    fn target_units(&self, t: f64) -> Value {
        if t == f64::INFINITY {
            POS_INF
        } else if t == f64::NEG_INFINITY {
            NEG_INF
        } else {
            super::values::clamp((t * self.unit() as f64).round() as Value)
        }
    }

    /// Node `i`'s values ([`VALUE_NAMES`]), CN at `target` (value units).
    pub fn node_values(&self, i: Idx, target: Option<f64>) -> Vec<f64> {
        let iv = self.interval();
        let cn = target.map_or(f64::NAN, |t| {
            let t = self.target_units(t);
            f(pn::add(self.p_at(i, t), self.d_at(i, t)))
        });
        vec![
            self.shown(self.minimax(i)),
            f(self.p_at(i, iv.v_max)),
            f(self.d_at(i, iv.v_min)),
            cn,
            self.core.arena.get(i).data.expansions as f64,
        ]
    }

    /// A staircase as plot steps; `mirrored` for a disproof function.
    fn plot_steps(&self, s: &Staircase, mirrored: bool) -> Vec<PlotStep> {
        let ranges = if mirrored {
            s.mirrored_ranges()
        } else {
            s.ranges()
        };
        ranges
            .into_iter()
            .map(|(lo, hi, h)| PlotStep {
                lo: self.shown(lo),
                hi: self.shown(hi),
                height: f(h),
            })
            .collect()
    }

    /// Node `i`'s functions and the root interval, for the step plots.
    pub fn function_plot(&self, i: Idx) -> FunctionPlot {
        let iv = self.interval();
        FunctionPlot {
            node: i as NodeId,
            p: self.plot_steps(&self.p_function(i), false),
            d: self.plot_steps(&self.dm_function(i), true),
            value: self.shown(self.minimax(i)),
            v_min: self.shown(iv.v_min),
            v_max: self.shown(iv.v_max),
            root_p: f(self.p_at(0, iv.v_max)),
            root_d: f(self.d_at(0, iv.v_min)),
        }
    }

    /// A function in words: `0 on (−∞, 3], 1 on [4, 9], ∞ on [10, +∞]`.
    fn describe_steps(&self, steps: &[PlotStep]) -> String {
        let end = |v: f64, left: bool| {
            if v.is_infinite() {
                (
                    if left { "(" } else { ")" },
                    if v > 0.0 { "+∞" } else { "−∞" }.to_string(),
                )
            } else {
                (if left { "[" } else { "]" }, fmt_value(v))
            }
        };
        steps
            .iter()
            .map(|s| {
                let (lb, lo) = end(s.lo, true);
                let (rb, hi) = end(s.hi, false);
                format!("{} on {lb}{lo}, {hi}{rb}", fmt_value(s.height))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The inspector's text for node `id`.
    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let arena = &self.core.arena;
        let node = arena.get(id);
        let iv = self.interval();
        let plot = self.function_plot(id);
        let mut formulas = vec![
            (
                "value".to_string(),
                format!(
                    "MINIMAX = {} (where p and d meet at 0){}",
                    self.text(self.minimax(id)),
                    if self.is_exact(id) {
                        ", proven exact"
                    } else {
                        ""
                    }
                ),
            ),
            ("p(v)".into(), self.describe_steps(&plot.p)),
            ("d(v)".into(), self.describe_steps(&plot.d)),
        ];
        let (vmax, vmin) = (self.text(iv.v_max), self.text(iv.v_min));
        if node.is_terminal() {
            let over = arena
                .position_at(&self.core.root_pos, id)
                .outcome()
                .is_some();
            formulas.push((
                "leaf".into(),
                if over {
                    format!(
                        "finished game of value {}: p and d jump to ∞ beyond it",
                        self.text(node.data.value)
                    )
                } else {
                    format!(
                        "settled by a virtual connection (vcs): value {}, as if the game were over; p and d jump to ∞ beyond it",
                        self.text(node.data.value)
                    )
                },
            ));
        } else if !node.is_expanded() {
            let how = match (self.opts.log_delta, self.opts.model) {
                (Some(d), _) => format!("logarithmic steps, δ = {d} (eq. 14)"),
                (None, _) => "one conspirator beyond it".to_string(),
            };
            let source = match self.opts.model {
                Model::WinLoss => "two-valued model".to_string(),
                Model::Score => "static evaluation".to_string(),
                Model::Scef => format!(
                    "SCEF: parent's value {} the relative error e = {}",
                    if node.is_or() { "+" } else { "−" },
                    self.text(node.data.err)
                ),
            };
            formulas.push((
                "leaf".into(),
                format!(
                    "frontier of value {} ({source}); {how}",
                    self.text(node.data.value)
                ),
            ));
        } else {
            let kids: Vec<Idx> = node.children().collect();
            let ps: Vec<String> = kids
                .iter()
                .map(|&c| pn::fmt(self.p_at(c, iv.v_max)))
                .collect();
            let ds: Vec<String> = kids
                .iter()
                .map(|&c| pn::fmt(self.d_at(c, iv.v_min)))
                .collect();
            let (pj, dj) = if node.is_or() {
                (format!("min({})", ps.join(", ")), ds.join(" + "))
            } else {
                (ps.join(" + "), format!("min({})", ds.join(", ")))
            };
            formulas.push((
                "p(v_max)".into(),
                format!("p({vmax}) = {pj} = {}", pn::fmt(self.p_at(id, iv.v_max))),
            ));
            formulas.push((
                "d(v_min)".into(),
                format!("d({vmin}) = {dj} = {}", pn::fmt(self.d_at(id, iv.v_min))),
            ));
        }
        let choice = next_on_path(path, id).map(|c| {
            let k = c - node.first_child;
            let mv = self.core.move_label(c);
            let (what, h) = if node.is_or() {
                (format!("p({vmax})"), self.p_at(c, iv.v_max))
            } else {
                (format!("d({vmin})"), self.d_at(c, iv.v_min))
            };
            let ties = node
                .children()
                .filter(|&o| {
                    (if node.is_or() {
                        self.p_at(o, iv.v_max)
                    } else {
                        self.d_at(o, iv.v_min)
                    }) == h
                })
                .count();
            let rule = match (ties > 1, self.opts.model) {
                (false, _) => "unique least".to_string(),
                (true, Model::Scef) => format!(
                    "{ties} children tie; the smallest relative error wins (e = {})",
                    self.text(arena.get(c).data.err)
                ),
                (true, _) => format!("{ties} children tie; leftmost wins"),
            };
            format!(
                "picked child {} ({mv}): least {what} = {} ({rule})",
                k + 1,
                pn::fmt(h)
            )
        });
        self.core.inspection(id, formulas, choice)
    }

    /// The snapshot: the tree with [`VALUE_NAMES`], the selection path, the
    /// inspector and the inspected node's functions.
    pub(super) fn make_snapshot(&self, req: &ViewRequest) -> Snapshot {
        let view = CnsView {
            inner: self
                .core
                .view(|_: &Node<G::Move, CnsData>| (Vec::new(), NodeStatus::Unknown)),
            search: self,
            target: req.cn_target,
        };
        let iv = self.interval();
        let mut extras = vec![
            (
                "interval".to_string(),
                format!("[{}, {}]", self.text(iv.v_min), self.text(iv.v_max)),
            ),
            ("value".into(), self.text(iv.value)),
            (
                "root CN".into(),
                format!(
                    "p(v_max) = {}, d(v_min) = {}",
                    pn::fmt(self.p_at(0, iv.v_max)),
                    pn::fmt(self.d_at(0, iv.v_min))
                ),
            ),
            (
                "Pmax, Dmax".into(),
                format!("{}, {}", self.opts.pmax, self.opts.dmax),
            ),
            ("Δ".into(), fmt_value(self.opts.delta)),
            ("η".into(), fmt_value(self.opts.eta)),
        ];
        if let Some(d) = self.opts.log_delta {
            extras.push(("δ (log init)".into(), fmt_value(d)));
        }
        if let Some(t) = req.cn_target {
            extras.push(("CN target".into(), fmt_value(t)));
        }
        let parts = SnapshotParts {
            algo: self.algo,
            value_names: VALUE_NAMES,
            label_values: if req.cn_target.is_some() {
                vec![0, 3]
            } else {
                vec![0, 1, 2]
            },
            selection_path: || self.selection_path(),
            explain: |i, path: &[Idx]| self.explain(i, path),
            extras,
        };
        let mut snap = self.core.snapshot(req, &view, parts);
        let target = req
            .inspect
            .map(|i| i as Idx)
            .filter(|&i| (i as usize) < self.core.arena.len())
            .unwrap_or(0);
        snap.functions = Some(self.function_plot(target));
        snap
    }

    /// The JSON fields: the exact value (a game score) once proven, the
    /// interval and the root value in value units.
    pub(super) fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let num = |v: Value| {
            let x = self.shown(v);
            if x.is_finite() {
                json!(x)
            } else {
                json!(if x > 0.0 { "+inf" } else { "-inf" })
            }
        };
        let iv = self.interval();
        let mut m = serde_json::Map::new();
        m.insert(
            "value".into(),
            self.exact_score()
                .map_or(serde_json::Value::Null, |v| json!(v)),
        );
        m.insert("root_value".into(), num(iv.value));
        m.insert("exact".into(), json!(self.is_exact(0)));
        m.insert("v_min".into(), num(iv.v_min));
        m.insert("v_max".into(), num(iv.v_max));
        m.insert("value_unit".into(), json!(self.unit()));
        m
    }
}

/// The arena seen through the search's functions (values need the node's
/// index, which the plain arena view's reader does not get).
struct CnsView<'a, G: Game, F>
where
    F: Fn(&Node<G::Move, CnsData>) -> (Vec<f64>, NodeStatus),
{
    inner: ArenaView<'a, G, CnsData, F>,
    search: &'a Cns<G>,
    target: Option<f64>,
}

impl<G: Game, F> TreeAccess for CnsView<'_, G, F>
where
    F: Fn(&Node<G::Move, CnsData>) -> (Vec<f64>, NodeStatus),
{
    fn root_id(&self) -> NodeId {
        0
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        self.inner.children(id, out)
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let mut n = self.inner.describe(id);
        n.values = self.search.node_values(id as Idx, self.target);
        n.status = self.search.node_status(id as Idx);
        n
    }
}
