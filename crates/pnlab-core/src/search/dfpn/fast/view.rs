//! Snapshots of the fast df-pn: the explored DAG rebuilt from the root by
//! replaying moves and looking positions up in the shared table, drawn by
//! the df-pn family's [`dag_view`] (node ids are table keys; stored
//! numbers and ghost children marked as in the plain df-pn's view), and
//! the first thread's MID path as frames with their thresholds.
//!
//! The numbers drawn are the ones the first worker counts: a node on its
//! path shows its frame's, a child of a path node the numbers that node's
//! loop counts for it (the worker reads a child's table entry when it
//! expands the node, then keeps its own copy), any other node its table
//! entry, and a child the search does not hold the initial numbers the
//! worker gives it (`init`: (1, 1), Deep df-pn's value, or the mobility
//! pair). A position answered by the frontier solver is a leaf: MID never
//! generates its moves.

use std::collections::HashMap;

use crate::game::{Game, GameKind};
use crate::search::pn::{self, Pn};
use crate::search::snapshot::{Inspection, NodeId, Snapshot, ViewRequest};

use super::super::dag_snapshot::{dag_snapshot, option_extras, DagSnapshotParts};
use super::super::dag_view::{self, counted, find_position, Counted, DagSource};
use super::super::mid::solved;
use super::rules::Rules;
use super::worker::{Frame, Shared};
use super::FastDfpn;

/// A path frame's child as its loop counts it: its numbers now and its
/// initial numbers.
#[derive(Clone, Copy)]
struct KidNumbers {
    now: (Pn, Pn),
    init: (Pn, Pn),
}

/// The first worker's path, indexed for the view.
struct FastDag<'a, G: Game, R: Rules<G>> {
    search: &'a FastDfpn<G, R>,
    shared: Shared<'a, G, R>,
    frames: &'a [Frame<G>],
    /// Path frame of each key on the path (the deepest).
    frame_of: HashMap<NodeId, usize>,
    /// Numbers and initial numbers that path frames' loops count for
    /// their children (the deepest frame's, if several).
    kid_numbers: HashMap<NodeId, KidNumbers>,
}

impl<'a, G: Game, R: Rules<G>> FastDag<'a, G, R> {
    fn new(search: &'a FastDfpn<G, R>) -> Self {
        let frames = search.workers.first().map_or(&[][..], |w| w.frames());
        let mut frame_of = HashMap::new();
        let mut kid_numbers = HashMap::new();
        if let Some(w) = search.workers.first() {
            for (i, f) in frames.iter().enumerate() {
                frame_of.insert(f.hash, i);
                for k in w.frame_kids(i) {
                    kid_numbers.insert(
                        k.hash,
                        KidNumbers {
                            now: (k.pn, k.dn),
                            init: k.init,
                        },
                    );
                }
            }
        }
        FastDag {
            search,
            shared: search.engine.shared(),
            frames,
            frame_of,
            kid_numbers,
        }
    }

    fn in_table(&self, key: NodeId) -> Option<(Pn, Pn)> {
        self.search.engine.table.probe(key).map(|e| (e.pn, e.dn))
    }
}

impl<G: Game, R: Rules<G>> DagSource<G> for FastDag<'_, G, R> {
    fn root_position(&self) -> &G {
        &self.search.root
    }

    fn node_key(&self, g: &G) -> NodeId {
        self.shared.rules.key(g)
    }

    fn is_or(&self, g: &G) -> bool {
        g.to_move() == self.search.question.attacker
    }

    type Call = Frame<G>;

    fn calls(&self) -> &[Frame<G>] {
        self.frames
    }

    fn numbers_at(&self, g: &G, d: u32) -> (Pn, Pn, bool) {
        if let Err(o) = self.shared.rules.inspect(g) {
            // A finished game, or one the rules settle (Connect Four's
            // tactics): the worker counts it solved and never enters it.
            let (p, q) = solved(self.search.question.holds(o));
            return (p, q, true);
        }
        let key = self.node_key(g);
        if *g == self.search.root {
            let (p, q) = self.search.root_numbers();
            return (p, q, false);
        }
        let (p, q) = if let Some(&i) = self.frame_of.get(&key) {
            (self.frames[i].pn, self.frames[i].dn)
        } else if let Some(k) = self.kid_numbers.get(&key) {
            k.now
        } else if let Some(n) = self.in_table(key) {
            n
        } else {
            self.unknown_numbers(g, d)
        };
        (p, q, false)
    }

    fn expanded(&self, g: &G, id: NodeId) -> bool {
        let on_path = self
            .frame_of
            .get(&id)
            .and_then(|&i| self.search.workers.first().map(|w| w.frame_kids(i)))
            .is_some_and(|k| !k.is_empty());
        on_path || (self.in_table(id).is_some() && !self.shared.rules.at_frontier(g))
    }

    /// The moves the worker expands (`Rules::moves`: all legal moves, or
    /// the ones the game's rules keep), in that order.
    fn counted_children(&self, g: &G) -> Vec<Counted<G>> {
        if self.shared.rules.inspect(g).is_err() || !self.expanded(g, self.node_key(g)) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.shared.rules.moves(g, &mut moves);
        counted(g, &moves, |c| {
            let k = self.node_key(c);
            // A path frame's child whose table entry was replaced still
            // has the numbers the frame counts.
            self.shared.rules.inspect(c).is_err()
                || self.frame_of.contains_key(&k)
                || self.in_table(k).is_some()
                || self.kid_numbers.get(&k).is_some_and(|n| n.now != n.init)
        })
    }

    /// The worker's initial numbers for `g` (its `init` option).
    fn unknown_numbers(&self, g: &G, d: u32) -> (Pn, Pn) {
        match self.shared.rules.inspect(g) {
            Ok(m) => self.shared.initial(g, self.is_or(g), m, d),
            Err(o) => solved(self.search.question.holds(o)),
        }
    }

    fn child_count(&self, g: &G) -> u32 {
        let mut moves = Vec::new();
        self.shared.rules.moves(g, &mut moves);
        moves.len() as u32
    }

    fn just_entered(&self, id: NodeId) -> bool {
        let top = self.frames.len().wrapping_sub(1);
        self.frames.last().is_some_and(|f| f.hash == id)
            && self
                .search
                .workers
                .first()
                .is_some_and(|w| !w.frame_kids(top).is_empty())
    }
}

impl<G: Game, R: Rules<G>> FastDfpn<G, R> {
    /// The inspector's lines for node `id`: its numbers, what its
    /// children's numbers give when it is expanded, the thresholds of its
    /// MID call when it is on the path, and its table entry.
    fn explain(&self, dag: &FastDag<'_, G, R>, id: NodeId) -> Option<Inspection> {
        let (g, path) = find_position(dag, id)?;
        let d = path.len() as u32;
        let (p, q, terminal) = dag.numbers_at(&g, d);
        let mut formulas = vec![
            ("pn".to_string(), format!("pn = {}", pn::fmt(p))),
            ("dn".to_string(), format!("dn = {}", pn::fmt(q))),
        ];
        if terminal {
            formulas.push(("terminal".into(), "settled by the game's rules".into()));
        } else if dag.expanded(&g, id) {
            let (rp, rq) = dag_view::rule_numbers(dag, &g, d);
            let rule = if dag.is_or(&g) {
                "pn = min pn(c), dn = Σ dn(c)"
            } else {
                "pn = Σ pn(c), dn = min dn(c)"
            };
            formulas.push((
                "children".into(),
                format!("{rule} = {} / {}", pn::fmt(rp), pn::fmt(rq)),
            ));
            if dag_view::is_stored(dag, &g, id, d, (p, q)) {
                formulas.push((
                    "stored".into(),
                    "drawn numbers are stored ones: MID updates them when it loops here again"
                        .into(),
                ));
            }
        } else {
            let (a, b) = dag.unknown_numbers(&g, d);
            formulas.push((
                "unknown".into(),
                format!(
                    "not expanded: counted {} / {} by its parent",
                    pn::fmt(a),
                    pn::fmt(b)
                ),
            ));
        }
        if let Some(&i) = dag.frame_of.get(&id) {
            let f = &dag.frames[i];
            formulas.push((
                "thresholds".into(),
                format!("th_pn = {}, th_dn = {}", pn::fmt(f.th_pn), pn::fmt(f.th_dn)),
            ));
        }
        if let Some(e) = self.engine.table.probe(id) {
            formulas.push((
                "table".into(),
                format!(
                    "table entry: {} / {}, work ≈ {}{}",
                    pn::fmt(e.pn),
                    pn::fmt(e.dn),
                    e.work,
                    if e.left { ", searched before" } else { "" }
                ),
            ));
        }
        Some(Inspection {
            node: id,
            path,
            formulas,
            choice: None,
        })
    }

    /// The snapshot (see the module comment).
    pub fn make_snapshot(&self, req: &ViewRequest) -> Snapshot {
        let dag = FastDag::new(self);
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
        // The unknown-node parameters a ghost's numbers come from.
        extras.extend(option_extras(&o.base));
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
        let parts = DagSnapshotParts {
            root_moves: &self.root_moves,
            total_nodes: self.engine.table.used(),
            inspection: req.inspect.and_then(|id| self.explain(&dag, id)),
            extras,
        };
        dag_snapshot(self, &dag, req, parts)
    }
}
