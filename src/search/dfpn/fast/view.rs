//! Snapshots of the fast df-pn: the explored DAG rebuilt from the root by
//! replaying moves and looking positions up in the shared table (node ids
//! are position hashes, as in the plain df-pn's view), and the first
//! thread's MID path as frames. Children the table does not hold and that
//! are not finished games are not listed.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::game::{Game, GameKind};
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{
    collect_nodes, ChildSummary, Frame as SnapFrame, Inspection, NodeId, NodeKind, SnapNode,
    Snapshot, TreeAccess, ViewRequest,
};
use crate::search::Search;

use super::super::mid::solved;
use super::super::view::node_status;
use super::rules::Rules;
use super::FastDfpn;

/// Tree access over the table, remembering the positions met so far (ids
/// are hashes; a position is found again from its id).
struct TableTree<'a, G: Game, R: Rules<G>> {
    search: &'a FastDfpn<G, R>,
    positions: RefCell<HashMap<NodeId, (G, u32)>>,
}

impl<G: Game, R: Rules<G>> TableTree<'_, G, R> {
    fn numbers(&self, g: &G) -> (Pn, Pn, bool) {
        match g.outcome() {
            Some(o) => {
                let (p, d) = solved(self.search.question.holds(o));
                (p, d, true)
            }
            None if *g == self.search.root => {
                let (p, d) = self.search.root_numbers();
                (p, d, false)
            }
            None => match self.search.probe_position(g) {
                Some(e) => (e.pn, e.dn, false),
                None => (1, 1, false),
            },
        }
    }
}

impl<G: Game, R: Rules<G>> TreeAccess for TableTree<'_, G, R> {
    fn root_id(&self) -> NodeId {
        self.search.root.hash()
    }

    fn children(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let Some((g, d)) = self.positions.borrow().get(&id).cloned() else {
            return;
        };
        if g.outcome().is_some()
            || (g != self.search.root && self.search.probe_position(&g).is_none())
        {
            return;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for m in moves {
            let mut c = g.clone();
            c.play(m);
            let h = c.hash();
            if c.outcome().is_some() || self.search.probe_position(&c).is_some() {
                self.positions.borrow_mut().entry(h).or_insert((c, d + 1));
                out.push(h);
            }
        }
    }

    fn describe(&self, id: NodeId) -> SnapNode {
        let (g, d) = self
            .positions
            .borrow()
            .get(&id)
            .cloned()
            .unwrap_or((self.search.root.clone(), 0));
        let (p, q, terminal) = self.numbers(&g);
        let label = String::new();
        SnapNode {
            id,
            parent: None,
            child_index: 0,
            depth: d,
            move_label: label,
            kind: if g.to_move() == self.search.question.attacker {
                NodeKind::Or
            } else {
                NodeKind::And
            },
            status: node_status(p, q),
            values: pn::pn_dn_values(p, q),
            expanded: !terminal && self.search.probe_position(&g).is_some(),
            n_children: if terminal { 0 } else { g.move_count() as u32 },
            descendants: 0,
            truncated: false,
            on_path: false,
            terminal,
            source: Default::default(),
        }
    }
}

impl<G: Game, R: Rules<G>> FastDfpn<G, R> {
    /// The snapshot (see the module comment).
    pub fn make_snapshot(&self, req: &ViewRequest) -> Snapshot {
        let tree = TableTree {
            search: self,
            positions: RefCell::new(HashMap::from([(self.root.hash(), (self.root.clone(), 0))])),
        };
        let frames = self.workers.first().map_or(&[][..], |w| w.frames());
        let path: Vec<NodeId> = frames.iter().map(|f| f.pos.hash()).collect();
        for f in frames {
            tree.positions
                .borrow_mut()
                .entry(f.pos.hash())
                .or_insert((f.pos.clone(), f.depth));
        }
        let mut req = req.clone();
        if req
            .focus
            .is_some_and(|id| !tree.positions.borrow().contains_key(&id))
        {
            req.focus = None;
        }
        let mut nodes = collect_nodes(&tree, &req, &path);
        // Move labels: from each node's parent position.
        let positions = tree.positions.borrow();
        for i in 0..nodes.len() {
            if let Some(p) = nodes[i].parent {
                let parent = nodes[p as usize].id;
                let child = nodes[i].id;
                if let Some((g, _)) = positions.get(&parent) {
                    let mut moves = Vec::new();
                    g.legal_moves(&mut moves);
                    for m in moves {
                        let mut c = g.clone();
                        c.play(m);
                        if c.hash() == child {
                            nodes[i].move_label = g.format_move(m);
                            break;
                        }
                    }
                }
            }
        }
        let labels: Vec<String> = frames
            .windows(2)
            .map(|w| w[0].pos.format_move(w[1].mv))
            .collect();
        let snap_frames = frames
            .iter()
            .enumerate()
            .map(|(i, f)| SnapFrame {
                node: f.pos.hash(),
                move_label: if i == 0 {
                    String::new()
                } else {
                    labels[i - 1].clone()
                },
                values: vec![
                    ("th_pn".into(), pn::to_f64(f.th_pn)),
                    ("th_dn".into(), pn::to_f64(f.th_dn)),
                    ("pn".into(), pn::to_f64(f.pn)),
                    ("dn".into(), pn::to_f64(f.dn)),
                ],
            })
            .collect();
        let root_children = self
            .root_moves
            .iter()
            .map(|&m| {
                let mut c = self.root.clone();
                c.play(m);
                let (p, d) = self.child_numbers(m);
                ChildSummary {
                    id: c.hash(),
                    move_label: self.root.format_move(m),
                    status: node_status(p, d),
                    values: pn::pn_dn_values(p, d),
                }
            })
            .collect();
        let inspection = req.inspect.and_then(|id| {
            let (g, d) = positions.get(&id)?.clone();
            let (p, q, terminal) = tree.numbers(&g);
            let mut formulas = vec![
                ("pn".to_string(), format!("pn = {}", pn::fmt(p))),
                ("dn".to_string(), format!("dn = {}", pn::fmt(q))),
            ];
            if terminal {
                formulas.push(("terminal".into(), "game over".into()));
            } else if let Some(e) = self.probe_position(&g) {
                formulas.push((
                    "table".into(),
                    format!(
                        "table entry: work ≈ {}{}",
                        e.work,
                        if e.left { ", searched before" } else { "" }
                    ),
                ));
            }
            Some(Inspection {
                node: id,
                path: vec![format!("depth {d}")],
                formulas,
                choice: None,
            })
        });
        let events = &self.root_switches.events;
        let o = self.options();
        let mut extras = vec![
            ("threads".into(), self.workers.len().to_string()),
            (
                "table slots used".into(),
                self.engine.table.used().to_string(),
            ),
            (
                "table capacity".into(),
                self.engine.table.capacity().to_string(),
            ),
        ];
        // The frontier threshold of the game that has one.
        match (self.root.kind(), o.connect4) {
            (GameKind::Othello, _) => {
                extras.push(("leaf_empties".into(), o.leaf_empties.to_string()));
            }
            (GameKind::Connect4, Some(c4)) => {
                extras.push(("leaf_cells".into(), c4.leaf_cells.to_string()));
            }
            _ => {}
        }
        let overview = crate::search::overview::if_requested(&req, &nodes);
        Snapshot {
            algo: self.algo().to_string(),
            status: self.status,
            counters: self.counters.clone(),
            value_names: pn::PN_DN_NAMES.iter().map(|s| s.to_string()).collect(),
            label_values: vec![0, 1],
            nodes,
            extra_edges: Vec::new(),
            selection_path: path,
            selection_moves: labels,
            root_children,
            frames: snap_frames,
            total_nodes: self.engine.table.used(),
            inspection,
            position: req.want_position.then(|| self.root.clone().into_any()),
            position_path: Vec::new(),
            switch_events: events[events.len().saturating_sub(1000)..].to_vec(),
            extras,
            overview,
            functions: None,
        }
    }
}
