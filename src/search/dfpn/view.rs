//! Snapshots of df-pn (docs/algorithms.md §4, docs/architecture.md): the current MID path
//! as frames with their thresholds, and the explored DAG rebuilt from the
//! root by replaying moves and looking children up in the table.
//!
//! Node ids are position hashes, so a position reached by two paths is one
//! node: it is listed once and every further edge into it goes to
//! `Snapshot::extra_edges`. Only positions in the table (searched by MID)
//! and terminal children of searched nodes appear; children never searched
//! count (1, 1) (or the Deep df-pn value) and are not listed. The work is
//! bounded by the request's node cap times the branching factor.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::game::Game;
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{
    ChildSummary, ExtraEdge, Frame as SnapFrame, Inspection, NodeId, NodeKind, NodeStatus,
    SnapNode, Snapshot, ValueSource, ViewRequest,
};
use crate::search::Search;

use super::mid::{solved, Dfpn};

/// How many table positions a search for a focus or inspected node (not
/// on the MID path) may visit.
const FIND_LIMIT: usize = 200_000;

/// Status from (pn, dn).
pub fn node_status(p: Pn, d: Pn) -> NodeStatus {
    if p == 0 {
        NodeStatus::Proven
    } else if d == 0 {
        NodeStatus::Disproven
    } else {
        NodeStatus::Unknown
    }
}

impl<G: Game> Dfpn<G> {
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

    /// The children of `g` a snapshot shows: in the table or terminal,
    /// with their move labels and indices in move order.
    fn shown_children(&self, g: &G) -> Vec<(u32, G, String)> {
        if self.table.get(self.key(g)).is_none() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves
            .iter()
            .enumerate()
            .filter_map(|(i, &m)| {
                let mut c = g.clone();
                c.play(m);
                let shown = c.outcome().is_some() || self.table.get(self.key(&c)).is_some();
                shown.then(|| (i as u32, c, g.format_move(m)))
            })
            .collect()
    }

    /// The children whose numbers count in `g`'s (all of them once `g` is
    /// in the table), with their move labels, indices in move order and
    /// whether the search holds them (in the table, a finished game, or
    /// a result the table keeps by position); the others count the
    /// unknown-node value.
    fn counted_children(&self, g: &G) -> Vec<(u32, G, String, bool)> {
        if g.outcome().is_some() || self.table.get(self.key(g)).is_none() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut c = g.clone();
                c.play(m);
                // `dfpn-ghi` also takes a position's path-independent
                // result from the table without an entry under the path.
                let held = c.outcome().is_some()
                    || self.table.get(self.key(&c)).is_some()
                    || (self.exact && self.shortcut(&c).is_some());
                (i as u32, c, g.format_move(m), held)
            })
            .collect()
    }

    /// The position with hash `id` and its move labels from the root: from
    /// the MID path, else a bounded breadth-first walk over table nodes.
    pub fn find_position(&self, id: NodeId) -> Option<(G, Vec<String>)> {
        if self.key(&self.root_pos) == id {
            return Some((self.root_pos.clone(), Vec::new()));
        }
        let labels = self.path_labels();
        for (i, f) in self.stack.iter().enumerate() {
            if f.hash == id {
                return Some((f.pos.clone(), labels[..i].to_vec()));
            }
        }
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        queue.push_back((self.root_pos.clone(), Vec::<String>::new()));
        seen.insert(self.key(&self.root_pos));
        while let Some((g, path)) = queue.pop_front() {
            if seen.len() > FIND_LIMIT {
                break;
            }
            for (_, c, label) in self.shown_children(&g) {
                let h = self.key(&c);
                if !seen.insert(h) {
                    continue;
                }
                let mut p = path.clone();
                p.push(label);
                if h == id {
                    return Some((c, p));
                }
                queue.push_back((c, p));
            }
        }
        None
    }

    /// Move labels along the MID path (one per frame below the root).
    fn path_labels(&self) -> Vec<String> {
        self.stack
            .windows(2)
            .map(|w| w[0].pos.format_move(w[1].mv))
            .collect()
    }

    /// (pn, dn) as the min/sum rule gives them from the children's
    /// current numbers (what MID will store for `g` when it next loops
    /// there).
    fn rule_numbers(&self, g: &G, d: u32) -> (Pn, Pn) {
        let or = g.to_move() == self.question.attacker;
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let (mut min, mut sum) = (pn::INF, 0);
        for &m in &moves {
            let mut c = g.clone();
            c.play(m);
            let (cp, cd, _) = self.numbers_at(&c, d + 1);
            let (a, b) = if or { (cp, cd) } else { (cd, cp) };
            min = min.min(a);
            sum = pn::add(sum, b);
        }
        if or {
            (min, sum)
        } else {
            (sum, min)
        }
    }

    /// Whether the numbers drawn for `g` (table or frame) are stored ones
    /// that MID has not yet brought up to date: the MID call just entered
    /// (its loop has not run), or numbers that differ from what the
    /// children now give (a path node while MID works below it, a node
    /// whose child was updated through a transposition or evicted).
    fn is_stored(&self, g: &G, id: NodeId, d: u32, numbers: (Pn, Pn)) -> bool {
        let top = self.stack.last().filter(|f| f.hash == id);
        if top.is_some_and(|f| f.pick.is_none()) {
            return true;
        }
        numbers != self.rule_numbers(g, d)
    }

    /// A child counted in its parent's numbers but not held (not in the
    /// table, not a finished game): drawn dashed with the unknown-node
    /// value it counts.
    fn ghost(&self, g: &G, d: u32, label: String) -> SnapNode {
        let v = self.opts.unknown_value(d);
        SnapNode {
            id: self.key(g),
            parent: None,
            child_index: 0,
            depth: d,
            move_label: label,
            kind: if g.to_move() == self.question.attacker {
                NodeKind::Or
            } else {
                NodeKind::And
            },
            status: NodeStatus::Unknown,
            values: pn::pn_dn_values(v, v),
            expanded: false,
            n_children: g.move_count() as u32,
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal: false,
            source: ValueSource::Ghost,
        }
    }

    fn describe(&self, g: &G, id: NodeId, d: u32, label: String) -> SnapNode {
        let (p, q, terminal) = self.numbers_at(g, d);
        let in_table = self.table.get(id).is_some();
        let stored = in_table && !terminal && self.is_stored(g, id, d, (p, q));
        SnapNode {
            id,
            parent: None,
            child_index: 0,
            depth: d,
            move_label: label,
            kind: if g.to_move() == self.question.attacker {
                NodeKind::Or
            } else {
                NodeKind::And
            },
            status: node_status(p, q),
            values: pn::pn_dn_values(p, q),
            expanded: in_table && !terminal,
            n_children: if terminal { 0 } else { g.move_count() as u32 },
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal,
            source: if stored {
                ValueSource::Stored
            } else {
                ValueSource::Computed
            },
        }
    }

    /// Breadth-first DAG from the focus (docs/algorithms.md §4 visualiser).
    fn collect_dag(&self, req: &ViewRequest) -> (Vec<SnapNode>, Vec<ExtraEdge>) {
        let path: HashSet<NodeId> = self.stack.iter().map(|f| f.hash).collect();
        let (focus, focus_depth) = match req.focus.and_then(|id| self.find_position(id)) {
            Some((g, labels)) => (g, labels.len() as u32),
            None => (self.root_pos.clone(), 0),
        };
        let mut nodes: Vec<SnapNode> = Vec::new();
        let mut extra = Vec::new();
        let mut index: HashMap<NodeId, u32> = HashMap::new();
        // Each listed node's position hash (without its path), to find the
        // ancestor a repetition returns to.
        let mut plain: Vec<u64> = Vec::new();
        let mut queue = VecDeque::new();
        queue.push_back((focus, None::<u32>, 0u32, 0u32, String::new(), false));
        while let Some((g, parent, child_index, rel, label, ghost)) = queue.pop_front() {
            if let (true, Some(p)) = (g.is_repetition(), parent) {
                // A move back into a position on the path: drawn as a
                // back-edge to that ancestor rather than as a leaf.
                let h = g.hash();
                let mut at = Some(p);
                while let Some(x) = at {
                    if plain[x as usize] == h {
                        break;
                    }
                    at = nodes[x as usize].parent;
                }
                if let Some(to) = at {
                    extra.push(ExtraEdge {
                        from: p,
                        to,
                        label,
                        back: true,
                    });
                    continue;
                }
            }
            let id = self.key(&g);
            if let Some(&seen) = index.get(&id) {
                if let Some(p) = parent {
                    extra.push(ExtraEdge {
                        from: p,
                        to: seen,
                        label,
                        back: false,
                    });
                }
                continue;
            }
            let forced = path.contains(&id);
            if nodes.len() >= req.max_nodes && !forced {
                if let Some(p) = parent {
                    nodes[p as usize].truncated = true;
                }
                continue;
            }
            let mut n = if ghost {
                self.ghost(&g, focus_depth + rel, label)
            } else {
                self.describe(&g, id, focus_depth + rel, label)
            };
            n.parent = parent;
            n.child_index = child_index;
            n.on_path = forced;
            let me = nodes.len() as u32;
            index.insert(id, me);
            plain.push(g.hash());
            if ghost {
                nodes.push(n);
                continue;
            }
            let expand_all = req.expands(id, rel, forced);
            let kids = self.shown_children(&g);
            if !kids.is_empty() && !expand_all {
                n.truncated = true;
            }
            nodes.push(n);
            if expand_all {
                // Every child the node's numbers count: the held ones and
                // the ghosts, in move order.
                for (i, c, l, held) in self.counted_children(&g) {
                    queue.push_back((c, Some(me), i, rel + 1, l, !held));
                }
            } else {
                for (i, c, l) in kids {
                    if path.contains(&self.key(&c)) {
                        queue.push_back((c, Some(me), i, rel + 1, l, false));
                    }
                }
            }
        }
        (nodes, extra)
    }

    /// The inspector's formulas for node `id` (φ = min δ(c), δ = Σ φ(c)
    /// with the children's numbers, and the thresholds on the MID path).
    pub fn explain(&self, id: NodeId) -> Option<Inspection> {
        let (g, path) = self.find_position(id)?;
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
        let mut choice = None;
        if let Some(f) = self.stack.iter().find(|f| f.hash == id) {
            let (tp, td) = f.thresholds_phi_delta();
            formulas.push((
                "thresholds".into(),
                format!("thφ = {}, thδ = {}", pn::fmt(tp), pn::fmt(td)),
            ));
            if f.count > 0 {
                let v = self.loop_values(f);
                let c = self.frame_children(f)[v.best as usize];
                // In the parent's frame: c1's summed number gets
                // thφ(c1), its minimised number thδ(c1) (§4).
                let th_b = pn::add_sub(f.thresholds_phi_delta().1, v.best_b, v.delta);
                let th_a = f
                    .thresholds_phi_delta()
                    .0
                    .min(self.opts.second_threshold(v.delta2));
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
                choice = Some(if over {
                    "φ or δ reached its threshold: MID returns".to_string()
                } else {
                    format!(
                        "searching child {} ({}): least δ = {}, second least δ2 = {}",
                        v.best + 1,
                        f.pos.format_move(c.mv),
                        pn::fmt(v.phi),
                        pn::fmt(v.delta2)
                    )
                });
            }
        }
        Some(Inspection {
            node: id,
            path,
            formulas,
            choice,
        })
    }

    /// The snapshot (see the module comment).
    pub fn make_snapshot(&self, req: &ViewRequest) -> Snapshot {
        let (nodes, extra_edges) = self.collect_dag(req);
        let labels = self.path_labels();
        let frames = self
            .stack
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (tp, td) = f.thresholds_phi_delta();
                let (phi, delta) = f.phi_delta();
                SnapFrame {
                    node: f.hash,
                    move_label: if i == 0 {
                        String::new()
                    } else {
                        labels[i - 1].clone()
                    },
                    values: vec![
                        ("thφ".into(), pn::to_f64(tp)),
                        ("thδ".into(), pn::to_f64(td)),
                        ("φ".into(), pn::to_f64(phi)),
                        ("δ".into(), pn::to_f64(delta)),
                    ],
                }
            })
            .collect();
        let mut root_moves = Vec::new();
        self.root_pos.legal_moves(&mut root_moves);
        let root_children = root_moves
            .iter()
            .map(|&m| {
                let mut c = self.root_pos.clone();
                c.play(m);
                let (p, q, _) = self.numbers_at(&c, 1);
                ChildSummary {
                    id: self.key(&c),
                    move_label: self.root_pos.format_move(m),
                    status: node_status(p, q),
                    values: pn::pn_dn_values(p, q),
                }
            })
            .collect();
        let inspection = req.inspect.and_then(|id| self.explain(id));
        let (position, position_path) = match req.inspect.and_then(|id| self.find_position(id)) {
            Some((g, p)) => (g, p),
            None => (self.root_pos.clone(), Vec::new()),
        };
        let events = &self.root_switches.events;
        let mut extras = vec![
            ("table entries".into(), self.table.len().to_string()),
            ("table capacity".into(), self.table.capacity().to_string()),
            ("evicted".into(), self.table.evicted.to_string()),
        ];
        if let Some(e) = self.opts.eps {
            extras.push(("eps".into(), e.to_string()));
        }
        if let Some((e, d)) = self.opts.deep {
            extras.push(("E".into(), e.to_string()));
            extras.push(("D".into(), d.to_string()));
        }
        let overview = crate::search::overview::if_requested(req, &nodes);
        Snapshot {
            algo: self.algo().to_string(),
            status: self.status,
            counters: self.counters.clone(),
            value_names: pn::PN_DN_NAMES.iter().map(|s| s.to_string()).collect(),
            label_values: vec![0, 1],
            nodes,
            extra_edges,
            selection_path: self.stack.iter().map(|f| f.hash).collect(),
            selection_moves: labels,
            root_children,
            frames,
            total_nodes: self.table.len() as u64,
            inspection,
            position: req.want_position.then(|| position.into_any()),
            position_path,
            switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
            extras,
            functions: None,
            overview,
        }
    }
}
