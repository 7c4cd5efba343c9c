//! Proof-number search (Allis et al. 1994), docs/algorithms.md §1.
//!
//! Best-first over the compact [`Arena`]: select the most-proving node
//! (MPN) from the root, expand it (all children, terminal ones evaluated at
//! once), update the ancestors bottom-up, stopping early once a node's
//! values no longer change. Options:
//! - `tie = leftmost | deepest`: among children tied for the least number,
//!   the leftmost, or the one leading to the deepest MPN (the modified PNS
//!   of the DeepPN paper). For `deepest` each node keeps, in the arena's
//!   spare `aux` field, the height of the MPN below it, so the choice costs
//!   nothing extra at selection time.
//! - `selection = allis | directed` (the lecture notes' variant).
//! - `init = unit | mobility`.

use crate::game::Game;

use super::arena::{Arena, Idx, Node, NONE, TERMINAL};
use super::arena_search::{delegate_to_core, next_on_path, ArenaSearch, SnapshotParts};
use super::pn::{self, Pn, INF};
use super::snapshot::{Inspection, NodeStatus, Snapshot, ViewRequest};
use super::{Counters, Question, Search, SearchError, SearchSetup, StatsSample, Status};

crate::choice_enum! {
    /// Tie rule among children with equal numbers.
    pub enum Tie {
        /// The leftmost of the equal children (Allis).
        Leftmost = "leftmost",
        /// The child leading to the deepest most-proving node (modified PNS).
        Deepest = "deepest",
    }
}

crate::choice_enum! {
    /// Selection rule.
    pub enum Selection {
        /// Least pn at OR nodes, least dn at AND nodes.
        Allis = "allis",
        /// The root decides to prove (pn ≤ dn) or disprove, and every node picks for that aim.
        Directed = "directed",
    }
}

crate::choice_enum! {
    /// How a new frontier node's numbers start.
    pub enum Init {
        /// (1, 1).
        Unit = "unit",
        /// The number of legal moves on the side that must refute.
        Mobility = "mobility",
    }
}

crate::options! {
    /// PNS options (described once; CLI, UI and JSON use `PnsOptions::PARAMS`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct PnsOptions {
        /// Tie rule among equally good children (`tie=`).
        pub tie: Tie => {
            "tie", choice = Tie::Leftmost,
            "Tie rule among equally good children: leftmost (Allis) or the one leading to the deepest most-proving node (modified PNS, DeepPN paper)"
        },
        /// Selection rule (`selection=`).
        pub selection: Selection => {
            "selection", choice = Selection::Allis,
            "allis: least pn at OR, least dn at AND; directed: the root decides to prove (pn ≤ dn) or disprove and nodes pick accordingly (lecture notes)"
        },
        /// Frontier initialisation (`init=`).
        pub init: Init => {
            "init", choice = Init::Unit,
            "Frontier initialisation: unit (1, 1) or mobility (the number of legal moves on the side that must refute)"
        },
    }
}

/// Per-node payload: the proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnDn {
    /// Proof number.
    pub pn: Pn,
    /// Disproof number.
    pub dn: Pn,
}

impl PnDn {
    /// A node's numbers from the least and the sum of its children's: at
    /// an OR node pn is the least pn and dn the sum of the dns, at an AND
    /// node the other way round.
    #[inline]
    pub fn from_min_sum(or: bool, min: Pn, sum: Pn) -> PnDn {
        if or {
            PnDn { pn: min, dn: sum }
        } else {
            PnDn { pn: sum, dn: min }
        }
    }
}

/// A tree of [`PnDn`] nodes holding only `root`, for `question`: a
/// terminal root is solved at once, any other starts at (1, 1). Shared
/// by PNS and DeepPN.
pub(crate) fn pn_dn_core<G: Game>(root: G, question: Question) -> ArenaSearch<G, PnDn> {
    let (flags, data) = match root.outcome() {
        Some(o) => (TERMINAL, terminal_numbers(question.holds(o))),
        None => (0, PnDn { pn: 1, dn: 1 }),
    };
    ArenaSearch::new(
        root,
        question,
        flags,
        data,
        pn_status(data),
        Counters::default(),
    )
}

/// PN-search on a game `G`.
#[derive(Clone)]
pub struct Pns<G: Game> {
    core: ArenaSearch<G, PnDn>,
    opts: PnsOptions,
}

/// Registry constructor.
pub fn build(setup: &SearchSetup) -> Result<Box<dyn Search>, SearchError> {
    let opts = PnsOptions::from_params(&setup.params)?;
    let q = setup.root_question();
    if let Some(s) =
        super::zones::build_on_zones(setup, |g| Box::new(Pns::new(g.clone(), q, opts)))?
    {
        return Ok(s);
    }
    Ok(
        crate::with_position!(&setup.position, g => Box::new(Pns::new(g.clone(), q, opts)) as Box<dyn Search>),
    )
}

impl<G: Game> Pns<G> {
    /// A search of `root` for `question`; a terminal root is solved at once.
    pub fn new(root: G, question: Question, opts: PnsOptions) -> Pns<G> {
        Pns {
            core: pn_dn_core(root, question),
            opts,
        }
    }

    /// The arena (for tests and other algorithms' comparisons).
    pub fn arena(&self) -> &Arena<G::Move, PnDn> {
        &self.core.arena
    }

    /// Root pn and dn.
    pub fn root_numbers(&self) -> PnDn {
        self.core.arena.get(0).data
    }

    /// The selection path from the root to the current MPN (root first).
    pub fn selection_path(&self) -> Vec<Idx> {
        let (opts, proving) = (self.opts, proving(self.root_numbers()));
        self.core.path_by(|a, n| {
            a.get(n)
                .is_expanded()
                .then(|| pick_child(a, opts, n, proving))
        })
    }

    fn explain(&self, id: Idx, path: &[Idx]) -> Inspection {
        let arena = &self.core.arena;
        let node = arena.get(id);
        let init = if self.opts.init == Init::Mobility {
            "mobility initialisation"
        } else {
            "unit initialisation"
        };
        let formulas = pn_dn_formulas(arena, id, init);
        let choice = next_on_path(path, id).map(|c| {
            let k = c - node.first_child;
            let mv = self.core.move_label(c);
            let what = if node.is_or() { "pn" } else { "dn" };
            let v = if node.is_or() {
                arena.get(c).data.pn
            } else {
                arena.get(c).data.dn
            };
            let ties = node
                .children()
                .filter(|&o| {
                    let od = arena.get(o).data;
                    (if node.is_or() { od.pn } else { od.dn }) == v
                })
                .count();
            let rule = match (self.opts.selection, ties > 1, self.opts.tie) {
                (Selection::Directed, _, _) => "directed selection".to_string(),
                (_, false, _) => "unique least".to_string(),
                (_, true, Tie::Leftmost) => format!("{ties} children tie; leftmost wins"),
                (_, true, Tie::Deepest) => {
                    format!("{ties} children tie; the one leading to the deepest MPN wins")
                }
            };
            format!(
                "picked child {} ({mv}): least {what} = {} ({rule})",
                k + 1,
                pn::fmt(v)
            )
        });
        self.core.inspection(id, formulas, choice)
    }

    /// The root child the search names as best: at an OR root the least pn
    /// (a proven child if any), at an AND root the least dn.
    pub fn best_child(&self) -> Option<u32> {
        let root = self.core.arena.get(0);
        if !root.is_expanded() {
            return None;
        }
        let c = least_child(&self.core.arena, root, root.is_or(), self.opts.tie);
        Some(c - root.first_child)
    }
}

/// Whether selection tries to prove the root (pn ≤ dn) rather than
/// disprove it (the directed rule reads this).
#[inline]
fn proving(root: PnDn) -> bool {
    root.pn <= root.dn
}

/// The child the expanded node `n` selects.
#[inline]
fn pick_child<M: Copy>(arena: &Arena<M, PnDn>, opts: PnsOptions, n: Idx, proving: bool) -> Idx {
    let node = arena.get(n);
    let or = node.is_or();
    match opts.selection {
        Selection::Allis => least_child(arena, node, or, opts.tie),
        Selection::Directed => {
            // Proving: OR picks the least non-zero pn, AND the leftmost
            // child not yet proven. Disproving: symmetric.
            let want_least = if proving { or } else { !or };
            if want_least {
                least_child(arena, node, or, opts.tie)
            } else {
                node.children()
                    .find(|&c| {
                        let d = arena.get(c).data;
                        if proving {
                            d.pn != 0
                        } else {
                            d.dn != 0
                        }
                    })
                    .unwrap_or(node.first_child)
            }
        }
    }
}

/// The child with the least pn (OR) or dn (AND), ties by the tie rule.
#[inline]
fn least_child<M: Copy>(arena: &Arena<M, PnDn>, node: &Node<M, PnDn>, or: bool, tie: Tie) -> Idx {
    let mut best = NONE;
    let mut best_v = INF;
    let mut best_h = 0u16;
    for c in node.children() {
        let cn = arena.get(c);
        let v = if or { cn.data.pn } else { cn.data.dn };
        let better = match tie {
            Tie::Leftmost => best == NONE || v < best_v,
            Tie::Deepest => best == NONE || v < best_v || (v == best_v && cn.aux > best_h),
        };
        if better {
            best = c;
            best_v = v;
            best_h = cn.aux;
        }
    }
    best
}

/// Flags and numbers of a new child (`is_or`: the attacker moves there);
/// DeepPN's children always start at unit numbers.
#[inline]
pub(crate) fn leaf_numbers<G: Game>(
    child: &G,
    is_or: bool,
    q: &Question,
    mobility: bool,
) -> (u8, PnDn) {
    match child.outcome() {
        Some(o) => (TERMINAL, terminal_numbers(q.holds(o))),
        None => {
            if mobility {
                let k = child.move_count() as Pn;
                if is_or {
                    (0, PnDn { pn: 1, dn: k })
                } else {
                    (0, PnDn { pn: k, dn: 1 })
                }
            } else {
                (0, PnDn { pn: 1, dn: 1 })
            }
        }
    }
}

/// Recomputes `n` from its children (and, for `tie = deepest`, the height
/// of the MPN below it in `aux`); returns whether anything changed.
#[inline]
fn recompute<M: Copy>(arena: &mut Arena<M, PnDn>, tie: Tie, n: Idx) -> bool {
    let node = *arena.get(n);
    let or = node.is_or();
    let (mut min_v, mut sum_v) = (INF, 0 as Pn);
    let mut best_h: u16 = 0;
    for c in node.children() {
        let cd = arena.get(c);
        let (m, s) = if or {
            (cd.data.pn, cd.data.dn)
        } else {
            (cd.data.dn, cd.data.pn)
        };
        sum_v = pn::add(sum_v, s);
        if m < min_v {
            min_v = m;
            best_h = cd.aux;
        } else if m == min_v && cd.aux > best_h && tie == Tie::Deepest {
            best_h = cd.aux;
        }
    }
    let height = if tie == Tie::Deepest {
        best_h.saturating_add(1)
    } else {
        0
    };
    arena.set_values(n, PnDn::from_min_sum(or, min_v, sum_v), height)
}

/// The values a viewer shows for a node: pn and dn.
fn values(d: PnDn) -> Vec<f64> {
    vec![pn::to_f64(d.pn), pn::to_f64(d.dn)]
}

/// The status a pn/dn pair shows (proven, disproven or unknown).
pub fn pn_status(d: PnDn) -> NodeStatus {
    if d.pn == 0 {
        NodeStatus::Proven
    } else if d.dn == 0 {
        NodeStatus::Disproven
    } else {
        NodeStatus::Unknown
    }
}

/// The inspector's pn and dn lines for node `id` with the children's
/// numbers filled in (docs/algorithms.md §1); `init` names the frontier
/// initialisation. Shared by every arena search that keeps [`PnDn`].
pub fn pn_dn_formulas<M: Copy>(
    arena: &Arena<M, PnDn>,
    id: Idx,
    init: &str,
) -> Vec<(String, String)> {
    let node = arena.get(id);
    let mut formulas = Vec::new();
    let d = node.data;
    if node.is_terminal() {
        let what = if d.pn == 0 {
            "proven (the attacker's goal holds)"
        } else {
            "disproven (the goal fails)"
        };
        formulas.push(("terminal".to_string(), format!("game over: {what}")));
        formulas.push(("pn".into(), format!("pn = {}", pn::fmt(d.pn))));
        formulas.push(("dn".into(), format!("dn = {}", pn::fmt(d.dn))));
    } else if !node.is_expanded() {
        formulas.push((
            "pn".into(),
            format!("pn = {} (frontier, {init})", pn::fmt(d.pn)),
        ));
        formulas.push((
            "dn".into(),
            format!("dn = {} (frontier, {init})", pn::fmt(d.dn)),
        ));
    } else {
        let pns: Vec<String> = node
            .children()
            .map(|c| pn::fmt(arena.get(c).data.pn))
            .collect();
        let dns: Vec<String> = node
            .children()
            .map(|c| pn::fmt(arena.get(c).data.dn))
            .collect();
        // The number the node minimises (pn at OR, dn at AND) is the least
        // of its children's, the other one their sum.
        let line = |name: &str, children: &[String], least: bool, v: Pn| {
            let rule = if least {
                format!("min({})", children.join(", "))
            } else {
                children.join(" + ")
            };
            (
                name.to_string(),
                format!("{name} = {rule} = {}", pn::fmt(v)),
            )
        };
        formulas.push(line("pn", &pns, node.is_or(), d.pn));
        formulas.push(line("dn", &dns, !node.is_or(), d.dn));
    }
    formulas
}

/// The numbers of a solved leaf (shared with DeepPN and the value search).
#[inline]
pub fn terminal_numbers(proven: bool) -> PnDn {
    if proven {
        PnDn { pn: 0, dn: INF }
    } else {
        PnDn { pn: INF, dn: 0 }
    }
}

impl<G: Game> Search for Pns<G> {
    delegate_to_core!(status: |n: &crate::search::arena::Node<G::Move, PnDn>| pn_status(n.data));

    fn algo(&self) -> &'static str {
        "pns"
    }

    fn step(&mut self) -> Status {
        let core = &mut self.core;
        let Some(iteration) = core.next_iteration() else {
            return core.status;
        };
        // 1. Selection, noting each node's pick for the seesaw counters.
        let (opts, proving) = (self.opts, proving(core.arena.get(0).data));
        let (pos, n, depth) = core.descend(iteration, |a, n| pick_child(a, opts, n, proving));
        // 2. Expansion: all children, terminal ones evaluated at once.
        let q = core.question;
        core.expand(iteration, n, depth, &pos, |child, is_or, _| {
            leaf_numbers(child, is_or, &q, opts.init == Init::Mobility)
        });
        // 3. Update ancestors bottom-up, stopping once nothing changes.
        core.update_from(n, |a, x| recompute(a, opts.tie, x));
        core.settle(pn_status(core.arena.get(0).data))
    }

    fn value_names(&self) -> &'static [&'static str] {
        pn::PN_DN_NAMES
    }

    fn snapshot(&self, req: &ViewRequest) -> Snapshot {
        let view = self.core.view(|n| (values(n.data), pn_status(n.data)));
        let parts = SnapshotParts {
            algo: self.algo(),
            value_names: self.value_names(),
            label_values: vec![0, 1],
            selection_path: || self.selection_path(),
            explain: |i, path: &[Idx]| self.explain(i, path),
            extras: vec![
                ("tie".into(), self.opts.tie.to_string()),
                ("selection".into(), self.opts.selection.to_string()),
            ],
        };
        self.core.snapshot(req, &view, parts)
    }

    fn sample(&self) -> StatsSample {
        self.core
            .sample(values(self.root_numbers()), self.best_child())
    }
}
