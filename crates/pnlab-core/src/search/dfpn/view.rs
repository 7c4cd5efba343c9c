//! Snapshots of df-pn (docs/algorithms.md §4, docs/architecture.md): the current MID path
//! as frames with their thresholds, the explored DAG rebuilt from the
//! root by replaying moves and looking children up in the table (drawn by
//! [`super::dag_view`], which this file feeds), and the inspector's
//! formulas.

use crate::game::Game;
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{Inspection, NodeId, Snapshot, ViewRequest};

use super::dag_snapshot::{dag_snapshot, option_extras, DagSnapshotParts};
pub use super::dag_view::node_status;
use super::dag_view::{counted, find_position, Counted, DagSource};
use super::mid::{solved, Dfpn, Frame};

impl<G: Game> DagSource<G> for Dfpn<G> {
    fn root_position(&self) -> &G {
        &self.root_pos
    }

    fn node_key(&self, g: &G) -> NodeId {
        self.key(g)
    }

    fn is_or(&self, g: &G) -> bool {
        g.to_move() == self.question.attacker
    }

    type Call = Frame<G>;

    fn calls(&self) -> &[Frame<G>] {
        &self.stack
    }

    /// A position's numbers: terminal, table, or unknown at depth `d`.
    fn numbers_at(&self, g: &G, d: u32) -> (Pn, Pn, bool) {
        match g.outcome() {
            Some(o) => {
                let (p, q) = solved(self.question.holds(o));
                (p, q, true)
            }
            None => {
                if d == 0 {
                    // The root's numbers are the ones the curves plot: its
                    // frame's while the call runs (the table keeps the
                    // numbers it had on entry until the call returns).
                    let (p, q) = self.root_numbers();
                    return (p, q, false);
                }
                let key = self.key(g);
                if let Some(f) = self.stack.iter().rev().find(|f| f.hash == key) {
                    // Likewise a node on the MID path: its loop's latest.
                    return (f.pn, f.dn, false);
                }
                let (p, q) = self.stored_numbers(g, d);
                (p, q, false)
            }
        }
    }

    fn expanded(&self, _g: &G, id: NodeId) -> bool {
        self.table.get(id).is_some()
    }

    /// Every child once `g` is in the table; held: in the table, a
    /// finished game, or a result the table keeps by position.
    fn counted_children(&self, g: &G) -> Vec<Counted<G>> {
        if g.outcome().is_some() || self.table.get(self.key(g)).is_none() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        // `dfpn-ghi` also takes a position's path-independent result from
        // the table without an entry under the path.
        counted(g, &moves, |c| {
            c.outcome().is_some()
                || self.table.get(self.key(c)).is_some()
                || (self.exact && self.shortcut(c).is_some())
        })
    }

    /// 1, or the Deep df-pn value at depth `d`.
    fn unknown_numbers(&self, _g: &G, d: u32) -> (Pn, Pn) {
        let v = self.opts.unknown_value(d);
        (v, v)
    }

    fn child_count(&self, g: &G) -> u32 {
        g.move_count() as u32
    }

    fn just_entered(&self, id: NodeId) -> bool {
        self.stack
            .last()
            .is_some_and(|f| f.hash == id && f.pick.is_none())
    }
}

impl<G: Game> Dfpn<G> {
    /// The inspector's formulas for node `id` (φ = min δ(c), δ = Σ φ(c)
    /// with the children's numbers, and the thresholds on the MID path).
    pub fn explain(&self, id: NodeId) -> Option<Inspection> {
        let (g, path) = find_position(self, id)?;
        let d = path.len() as u32;
        let or = g.to_move() == self.question.attacker;
        let (p, q, terminal) = self.numbers_at(&g, d);
        let (phi, delta) = if or { (p, q) } else { (q, p) };
        let mut formulas = Vec::new();
        let kind = if or {
            "OR: φ = pn, δ = dn"
        } else {
            "AND: φ = dn, δ = pn"
        };
        formulas.push(("kind".to_string(), kind.to_string()));
        if terminal {
            let what = if p == 0 {
                "proven (the attacker's goal holds)"
            } else {
                "disproven (the goal fails)"
            };
            formulas.push(("terminal".into(), format!("game over: {what}")));
        } else if self.table.get(id).is_none() {
            let init = self.opts.unknown_value(d);
            formulas.push((
                "φ".into(),
                format!("φ = δ = {init} (not in the table: unknown node at depth {d})"),
            ));
        } else {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let mut mins = Vec::new();
            let mut sums = Vec::new();
            let (mut min, mut sum) = (pn::INF, 0);
            for &m in &moves {
                let mut c = g.clone();
                c.play(m);
                let (cp, cd, _) = self.numbers_at(&c, d + 1);
                let (a, b) = if or { (cp, cd) } else { (cd, cp) };
                mins.push(pn::fmt(a));
                sums.push(pn::fmt(b));
                min = min.min(a);
                sum = pn::add(sum, b);
            }
            // The formulas give what the children say now; the table
            // keeps a node's own numbers from when MID last returned from
            // it, which lag behind while MID is still below the node.
            formulas.push((
                "φ".into(),
                format!("φ = min δ(c) = min({}) = {}", mins.join(", "), pn::fmt(min)),
            ));
            formulas.push((
                "δ".into(),
                format!("δ = Σ φ(c) = {} = {}", sums.join(" + "), pn::fmt(sum)),
            ));
            if (min, sum) != (phi, delta) {
                formulas.push((
                    "stored".into(),
                    format!(
                        "the table holds φ = {}, δ = {} for this node until MID returns from it",
                        pn::fmt(phi),
                        pn::fmt(delta)
                    ),
                ));
            }
        }
        formulas.push(("pn".into(), format!("pn = {}", pn::fmt(p))));
        formulas.push(("dn".into(), format!("dn = {}", pn::fmt(q))));
        if let Some(e) = self.table.get(id) {
            formulas.push((
                "table".into(),
                format!(
                    "table entry: work {} MID calls{}",
                    e.work,
                    if e.flags & super::tt::LEFT != 0 {
                        ", searched before"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let choice = self.threshold_formulas(id, phi, delta, &mut formulas);
        Some(Inspection {
            node: id,
            path,
            formulas,
            choice,
        })
    }

    /// The thresholds of node `id` while it is on the MID path, with the
    /// formulas that give its best child's thresholds; the sentence saying
    /// which child MID searches next (or that it returns), if any.
    fn threshold_formulas(
        &self,
        id: NodeId,
        phi: u32,
        delta: u32,
        formulas: &mut Vec<(String, String)>,
    ) -> Option<String> {
        if let Some(f) = self.stack.iter().find(|f| f.hash == id) {
            let (tp, td) = f.thresholds_phi_delta();
            formulas.push((
                "thresholds".into(),
                format!("thφ = {}, thδ = {}", pn::fmt(tp), pn::fmt(td)),
            ));
            if f.count > 0 {
                let v = self.loop_values(f);
                let best = v.best.unwrap_or(0);
                let c = self.frame_children(f)[best as usize];
                // In the parent's frame: c1's summed number gets
                // thφ(c1), its minimised number thδ(c1) (§4).
                let (th_a, th_b) = {
                    let (p, d) = self.child_thresholds(f, &v);
                    if f.or {
                        (p, d)
                    } else {
                        (d, p)
                    }
                };
                let (th_phi, th_delta) = f.thresholds_phi_delta();
                let second = match self.opts.eps {
                    None => format!("δ2 + 1 = {}", pn::fmt(pn::add(v.delta2, 1))),
                    Some(e) => format!(
                        "⌈δ2·(1+ε)⌉ = ⌈{}·{}⌉ = {}",
                        pn::fmt(v.delta2),
                        1.0 + e,
                        pn::fmt(self.opts.second_threshold(v.delta2))
                    ),
                };
                formulas.push((
                    "thφ(c1)".into(),
                    format!(
                        "thφ(c1) = thδ(n) + φ(c1) − δ(n) = {} + {} − {} = {}",
                        pn::fmt(th_delta),
                        pn::fmt(v.best_b),
                        pn::fmt(v.delta),
                        pn::fmt(th_b)
                    ),
                ));
                formulas.push((
                    "thδ(c1)".into(),
                    format!(
                        "thδ(c1) = min(thφ(n), {second}) = min({}, {}) = {}",
                        pn::fmt(th_phi),
                        pn::fmt(self.opts.second_threshold(v.delta2)),
                        pn::fmt(th_a)
                    ),
                ));
                let over = phi >= th_phi || delta >= th_delta;
                return Some(if over {
                    "φ or δ reached its threshold: MID returns".to_string()
                } else {
                    format!(
                        "searching child {} ({}): least δ = {}, second least δ2 = {}",
                        best + 1,
                        f.pos.format_move(c.mv),
                        pn::fmt(v.phi),
                        pn::fmt(v.delta2)
                    )
                });
            }
        }
        None
    }

    /// The snapshot (see the module comment).
    pub fn make_snapshot(&self, req: &ViewRequest) -> Snapshot {
        let mut root_moves = Vec::new();
        self.root_pos.legal_moves(&mut root_moves);
        let mut extras = vec![
            ("table entries".into(), self.table.len().to_string()),
            ("table capacity".into(), self.table.capacity().to_string()),
            ("evicted".into(), self.table.evicted.to_string()),
        ];
        extras.extend(option_extras(&self.opts));
        let parts = DagSnapshotParts {
            root_moves: &root_moves,
            total_nodes: self.table.len() as u64,
            inspection: req.inspect.and_then(|id| self.explain(id)),
            extras,
        };
        dag_snapshot(self, self, req, parts)
    }
}
