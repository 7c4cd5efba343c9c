//! The relevance-zone-oriented game (thesis §3.3.2, Wu & Lin 2010): a
//! connect position whose moves are restricted the way the zone searches
//! generate them, so that PNS and the df-pn family run on it unchanged.
//!
//! For the attacker of the question:
//!
//! - **At the start of an attacker turn** the VCDT solver runs first; if it
//!   proves a win, the position counts as a finished game won by the
//!   attacker (the thesis' "if the VCDT solver finds a winning strategy,
//!   then it returns a win").
//! - **Attacker stones**: the top `attacker_moves` empty cells by the
//!   [`heuristic`](super::heuristic) (all cells when 0).
//! - **Defender stones**: if the defender can complete k with the stones
//!   left in its turn, the cells of that window (it wins, so nothing else
//!   matters). Otherwise the defender passes the rest of its turn (a null
//!   move for its first stone, a *seminull* move after it) and the VCDT
//!   solver looks for an attacker win; if it finds one, the defender's next
//!   stone is restricted to the proof's relevance zone
//!   ([`zone`](super::zone)); if not, every empty cell is a move. So a
//!   defender turn of two stones is "one stone in Z, then one in Z′ of
//!   that seminull move", as in the thesis.
//!
//! Exactness. A defender stone outside the zone loses (the zone's
//! soundness, see [`zone`](super::zone)), so the restricted defender loses
//! nothing: a **proof** in this game is a proof in the real game. The
//! attacker's top-N restriction can hide its winning moves, so a
//! **disproof** is not a real disproof unless `attacker_moves` is 0 (all
//! moves), in which case this game and the real one have the same value.
//!
//! VCDT results are cached by position hash ([`VcdtCache`]; a solve is a
//! pure function of the position and the settings, so the cache changes
//! speed, not answers); the nodes of each distinct solve a run asks for
//! are counted in [`ZoneContext::vcdt_nodes`]. A solve cut short by the
//! run's deadline ([`crate::clock`]) answers "no VCDT" (more moves
//! for the defender, no early win: the step can only prove less) and is
//! not cached. The cache holds at most [`CACHE_LIMIT`] positions, fewer
//! under a memory budget ([`VcdtCache::for_memory`]).
//!
//! The VCDT test at attacker turn starts runs when a position is
//! generated as a child (it decides whether the child is a finished game),
//! so a defender node without a zone, whose every second stone is a
//! child, costs one solve per empty cell: such nodes are what makes a
//! zone search slow.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::clock;
use crate::game::{AnyPosition, Game, GameKind, MoveError, Outcome, Player};

use super::board::Cell;
use super::threats::immediate_win;
use super::vcdt::{Vcdt, VcdtOptions};
use super::{heuristic, turn_at, zone, Connect};

/// Positions whose VCDT result the cache keeps before it starts over.
pub const CACHE_LIMIT: usize = 1 << 20;

/// Bytes one cached position takes, about (the map's slot and a zone of a
/// few dozen cells), for [`VcdtCache::for_memory`].
const ENTRY_BYTES: u64 = 160;

/// The settings of a zone search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneSettings {
    /// The player whose win is asked about.
    pub attacker: Player,
    /// The attacker's moves per stone: the top N by the heuristic (0 = all).
    pub attacker_moves: usize,
    /// Limits of each VCDT solve.
    pub vcdt: VcdtOptions,
}

/// What the cache holds for a position.
#[derive(Clone, Debug)]
enum Cached {
    /// Attacker to move at a turn start: whether a VCDT proves a win.
    Win(bool),
    /// Defender to move: the relevance zone, if a VCDT was found.
    Zone(Option<Arc<[Cell]>>),
}

/// VCDT results by position hash with the nodes each solve took. A VCDT
/// result depends only on the position and the settings, so runs with the
/// same settings on one position may share a cache (the experiments do:
/// the second run of a grid needs no VCDT work), while each run still
/// counts the nodes of every distinct solve it asks for
/// ([`ZoneContext::vcdt_nodes`]) as if it had done the work itself.
#[derive(Debug)]
pub struct VcdtCache {
    map: Mutex<HashMap<u64, (Cached, u64)>>,
    /// Positions kept before the cache starts over.
    limit: usize,
}

impl Default for VcdtCache {
    fn default() -> Self {
        VcdtCache {
            map: Mutex::new(HashMap::new()),
            limit: CACHE_LIMIT,
        }
    }
}

impl VcdtCache {
    /// An empty cache to share between runs with the same settings.
    pub fn new() -> Arc<VcdtCache> {
        Arc::new(VcdtCache::default())
    }

    /// An empty cache that takes at most about a quarter of `bytes` (a
    /// run's memory budget, which the search's own tree or table must fit
    /// in too), and no more than [`CACHE_LIMIT`] positions.
    pub fn for_memory(bytes: Option<u64>) -> Arc<VcdtCache> {
        let limit = bytes.map_or(CACHE_LIMIT, |b| {
            usize::try_from(b / 4 / ENTRY_BYTES)
                .unwrap_or(CACHE_LIMIT)
                .clamp(64, CACHE_LIMIT)
        });
        Arc::new(VcdtCache {
            map: Mutex::new(HashMap::new()),
            limit,
        })
    }

    fn get(&self, key: u64) -> Option<(Cached, u64)> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&key).cloned()
    }

    fn put(&self, key: u64, v: Cached, nodes: u64) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.limit {
            map.clear();
        }
        map.insert(key, (v, nodes));
    }
}

/// State shared by every copy of one search's positions: the settings,
/// the VCDT cache and the work counters.
pub struct ZoneContext {
    /// The settings.
    pub settings: ZoneSettings,
    cache: Arc<VcdtCache>,
    /// Positions whose solve this run has counted.
    counted: Mutex<HashSet<u64>>,
    /// VCDT nodes of the distinct solves this run asked for.
    pub vcdt_nodes: AtomicU64,
    /// Distinct VCDT solves this run asked for.
    pub vcdt_solves: AtomicU64,
}

impl ZoneContext {
    /// A context with a cache of its own.
    pub fn new(settings: ZoneSettings) -> Arc<ZoneContext> {
        ZoneContext::with_cache(settings, VcdtCache::new())
    }

    /// A context using `cache` (filled by runs with the same settings).
    pub fn with_cache(settings: ZoneSettings, cache: Arc<VcdtCache>) -> Arc<ZoneContext> {
        Arc::new(ZoneContext {
            settings,
            cache,
            counted: Mutex::new(HashSet::new()),
            vcdt_nodes: AtomicU64::new(0),
            vcdt_solves: AtomicU64::new(0),
        })
    }

    /// The cached result for `key`, computing it with `solve` (which
    /// returns the result and its node count) when absent; the nodes are
    /// counted the first time this run asks. A result computed once the
    /// run's deadline has passed may be cut short and is not cached.
    fn lookup(&self, key: u64, solve: impl FnOnce() -> (Cached, u64)) -> Cached {
        let (v, nodes) = match self.cache.get(key) {
            Some(hit) => hit,
            None => {
                let (v, nodes) = solve();
                if !clock::tripped() {
                    self.cache.put(key, v.clone(), nodes);
                }
                (v, nodes)
            }
        };
        let mut counted = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        if counted.len() >= CACHE_LIMIT {
            counted.clear();
        }
        if counted.insert(key) {
            self.vcdt_nodes.fetch_add(nodes, Ordering::Relaxed);
            self.vcdt_solves.fetch_add(1, Ordering::Relaxed);
        }
        v
    }
}

/// A connect position with the zone search's moves (see the module
/// comment).
#[derive(Clone)]
pub struct ZoneGame {
    pos: Connect,
    ctx: Arc<ZoneContext>,
}

impl PartialEq for ZoneGame {
    fn eq(&self, other: &ZoneGame) -> bool {
        self.pos == other.pos && self.ctx.settings == other.ctx.settings
    }
}

impl fmt::Debug for ZoneGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ZoneGame({:?})", self.pos)
    }
}

impl ZoneGame {
    /// Wraps `pos` for a search sharing `ctx`.
    pub fn new(pos: Connect, ctx: Arc<ZoneContext>) -> ZoneGame {
        ZoneGame { pos, ctx }
    }

    /// The real position.
    pub fn inner(&self) -> &Connect {
        &self.pos
    }

    /// The shared context.
    pub fn context(&self) -> &Arc<ZoneContext> {
        &self.ctx
    }

    /// Whether the attacker is about to place the first stone of a turn.
    fn attacker_turn_start(&self) -> bool {
        let s = self.pos.moves().len();
        let (who, _) = turn_at(self.pos.rules(), s);
        who == self.ctx.settings.attacker && (s == 0 || turn_at(self.pos.rules(), s - 1).0 != who)
    }

    /// Whether the VCDT solver proves a win for the attacker to move at a
    /// turn start (cached).
    pub fn vcdt_win(&self) -> bool {
        if self.pos.winner().is_some() || !self.attacker_turn_start() {
            return false;
        }
        let v = self.ctx.lookup(self.pos.hash(), || {
            let s = &self.ctx.settings;
            let mut v = Vcdt::new(self.pos.board(), s.attacker, self.pos.rules().p, s.vcdt);
            let left = self.pos.stones_left();
            let win = v.solve(left).is_some() && v.proof_holds(left);
            (Cached::Win(win), v.nodes())
        });
        matches!(v, Cached::Win(true))
    }

    /// The relevance zone for the defender to move (cached): `None` when
    /// no VCDT is found after its null move.
    pub fn defender_zone(&self) -> Option<Arc<[Cell]>> {
        let v = self.ctx.lookup(self.pos.hash(), || {
            let s = &self.ctx.settings;
            let (z, nodes) = zone::relevance_zone(
                self.pos.board(),
                s.attacker.other(),
                self.pos.stones_left(),
                self.pos.rules().p,
                s.vcdt,
            );
            (Cached::Zone(z.map(Arc::from)), nodes)
        });
        match v {
            Cached::Zone(z) => z,
            Cached::Win(_) => None,
        }
    }
}

impl Game for ZoneGame {
    type Move = Cell;

    fn kind(&self) -> GameKind {
        self.pos.kind()
    }

    fn to_move(&self) -> Player {
        self.pos.to_move()
    }

    /// The restricted moves (module comment), in a deterministic order:
    /// the attacker's best first, the defender's in cell order.
    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if self.outcome().is_some() {
            return;
        }
        let s = &self.ctx.settings;
        let board = self.pos.board();
        let me = self.pos.to_move();
        if me == s.attacker {
            if s.attacker_moves == 0 {
                self.pos.legal_moves(out);
            } else {
                out.extend(heuristic::top_cells(board, me, s.attacker_moves));
            }
            return;
        }
        if let Some(w) = immediate_win(board, me, self.pos.stones_left()) {
            board.empty_cells_of(w, out);
            return;
        }
        match self.defender_zone() {
            Some(z) => out.extend(z.iter().copied()),
            None => self.pos.legal_moves(out),
        }
    }

    fn play(&mut self, m: Cell) {
        self.pos.play(m);
    }

    /// The real outcome, or a win for the attacker when a VCDT proves one
    /// at the start of its turn.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.pos.outcome() {
            return Some(o);
        }
        self.vcdt_win()
            .then(|| Outcome::win_for(self.ctx.settings.attacker))
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn format_move(&self, m: Cell) -> String {
        self.pos.format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let m = self.pos.parse_move(text)?;
        let why = "not among the zone search's moves";
        MoveError::unless_illegal(self.is_legal(m), m, text, why)
    }

    fn notation(&self) -> String {
        self.pos.notation()
    }

    /// The real position (viewers show the board).
    fn into_any(self) -> AnyPosition {
        self.pos.into_any()
    }

    fn default_attacker(&self) -> Option<Player> {
        Some(self.ctx.settings.attacker)
    }
}
