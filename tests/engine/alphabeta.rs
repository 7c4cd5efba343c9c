//! `alphabeta` against references written here, independently of the
//! engine: a plain recursive fail-hard alpha-beta that computes the single
//! conspiracy number (SCN) by the rules (finished games 0/∞, horizon
//! leaves 0/1, cut-off children as leaves with their static evaluation,
//! MAX min, MIN sum), and — for `prune = false` — the conspiracy-number
//! proof function p_root(v) (McAllester 1988) computed as a whole function
//! of v over the full-width depth-limited tree, then read at T.
//!
//! Compared at every depth on hundreds of seeded random trees (varied
//! branching, depth, evaluation ranges, terminal leaves, root kinds), on
//! random P-games, and on tic-tac-toe, Connect Four and Othello positions
//! with both move orders.

use pnlab::game::connect4::Connect4;
use pnlab::game::eval::WIN;
use pnlab::game::othello::Othello;
use pnlab::game::tictactoe::TicTacToe;
use pnlab::game::tree::TreeGame;
use pnlab::game::{Game, Player};
use pnlab::search::alphabeta::{AlphaBeta, AlphaBetaOptions, MoveOrder};
use pnlab::search::pn::INF;
use pnlab::search::{QuestionKind, Search};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::common;
use crate::helpers::cycled_p_games;
use common::children;

/// SCN in the reference: `None` is ∞.
type Scn = Option<u64>;

fn scn_add(a: Scn, b: Scn) -> Scn {
    Some(a? + b?)
}

fn scn_min(a: Scn, b: Scn) -> Scn {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(x.min(y)),
    }
}

/// The engine's SCN in the reference's form.
fn engine_scn(p: u32) -> Scn {
    (p != INF).then_some(u64::from(p))
}

/// A value on the evaluation scale seen by `max`.
fn view(max: Player, first_view: i32) -> i64 {
    if max == Player::First {
        i64::from(first_view)
    } else {
        -i64::from(first_view)
    }
}

/// What the reference needs to know.
struct Ref {
    max: Player,
    t: i64,
    prune: bool,
    tactical_first: bool,
    nodes: u64,
}

impl Ref {
    /// Value and SCN of `g` as a leaf (horizon or cut-off child).
    fn as_leaf<G: Game>(&self, g: &G) -> (i64, Scn) {
        if let Some(o) = g.outcome() {
            let v = view(self.max, g.terminal_value(o));
            (v, if v >= self.t { Some(0) } else { None })
        } else {
            let v = view(self.max, g.evaluate().expect("game has an evaluation"));
            (v, Some(u64::from(v < self.t)))
        }
    }

    fn moves<G: Game>(&self, g: &G) -> Vec<G::Move> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        if self.tactical_first {
            // A stable sort puts tactical moves first, each group in order.
            v.sort_by_key(|&m| !g.is_tactical(m));
        }
        v
    }

    /// Fail-hard alpha-beta with SCN; returns (value, scn, best child).
    fn search<G: Game>(
        &mut self,
        g: &G,
        left: u32,
        alpha: i64,
        beta: i64,
    ) -> (i64, Scn, Option<usize>) {
        self.nodes += 1;
        if g.outcome().is_some() || left == 0 {
            let (v, s) = self.as_leaf(g);
            return (v, s, None);
        }
        let moves = self.moves(g);
        let maxing = g.to_move() == self.max;
        let (mut a, mut b) = (alpha, beta);
        let mut scn: Scn = if maxing { None } else { Some(0) };
        let mut best = None;
        for (i, &m) in moves.iter().enumerate() {
            let mut c = g.clone();
            c.play(m);
            let (v, s, _) = if self.prune {
                self.search(&c, left - 1, a, b)
            } else {
                self.search(&c, left - 1, i64::MIN, i64::MAX)
            };
            if maxing {
                scn = scn_min(scn, s);
                if v > a {
                    a = v;
                    best = Some(i);
                }
            } else {
                scn = scn_add(scn, s);
                if v < b {
                    b = v;
                    best = Some(i);
                }
            }
            if self.prune && a >= b {
                for &r in &moves[i + 1..] {
                    let mut c = g.clone();
                    c.play(r);
                    let (_, s) = self.as_leaf(&c);
                    scn = if maxing {
                        scn_min(scn, s)
                    } else {
                        scn_add(scn, s)
                    };
                }
                return (if maxing { b } else { a }, scn, best);
            }
        }
        (if maxing { a } else { b }, scn, best)
    }
}

/// The CNS proof function p_n(v) of the full-width depth-limited tree,
/// evaluated for every v in `grid` at once (leaves: 0 for v ≤ x, else 1
/// or ∞ for finished games; MAX: pointwise min; MIN: pointwise sum).
fn proof_function<G: Game>(g: &G, left: u32, max: Player, grid: &[i64]) -> Vec<Scn> {
    let leaf = |x: i64, finished: bool| -> Vec<Scn> {
        grid.iter()
            .map(|&v| {
                if v <= x {
                    Some(0)
                } else if finished {
                    None
                } else {
                    Some(1)
                }
            })
            .collect()
    };
    if let Some(o) = g.outcome() {
        return leaf(view(max, g.terminal_value(o)), true);
    }
    if left == 0 {
        return leaf(view(max, g.evaluate().unwrap()), false);
    }
    let maxing = g.to_move() == max;
    let mut acc: Vec<Scn> = vec![if maxing { None } else { Some(0) }; grid.len()];
    for c in children(g) {
        let f = proof_function(&c, left - 1, max, grid);
        for (a, x) in acc.iter_mut().zip(f) {
            *a = if maxing {
                scn_min(*a, x)
            } else {
                scn_add(*a, x)
            };
        }
    }
    acc
}

/// Every static value of the depth-limited tree (the breakpoints of the
/// proof function are at x and x + 1).
fn leaf_values<G: Game>(g: &G, left: u32, max: Player, out: &mut Vec<i64>) {
    if let Some(o) = g.outcome() {
        out.push(view(max, g.terminal_value(o)));
        return;
    }
    if left == 0 {
        out.push(view(max, g.evaluate().unwrap()));
        return;
    }
    for c in children(g) {
        leaf_values(&c, left - 1, max, out);
    }
}

/// p_root(T) from the proof function: constant on [x_j + 1, x_(j+1)], so
/// read it at the largest grid point ≤ T (0 below every leaf).
fn p_root_at(grid: &[i64], p: &[Scn], t: i64) -> Scn {
    match grid.iter().rposition(|&v| v <= t) {
        Some(k) => p[k],
        None => Some(0),
    }
}

/// The engine's options: threshold `t`, `depth` plies, pruning on or
/// off, moves in `order`, no records kept.
fn options(t: i32, depth: u32, prune: bool, order: MoveOrder) -> AlphaBetaOptions {
    AlphaBetaOptions {
        threshold: t,
        max_depth: depth,
        prune,
        order,
        record_limit: 0,
    }
}

fn run_engine<G: Game>(g: &G, max: Player, opts: AlphaBetaOptions) -> AlphaBeta<G> {
    let mut s = AlphaBeta::new(g.clone(), max, QuestionKind::Win, opts);
    s.run_to_end();
    s
}

/// Checks every depth 1..=`opts.max_depth` of the engine against the
/// recursive reference (value, SCN, nodes, best move), and with `prune = false`
/// against the proof function too.
fn check_position<G: Game>(g: &G, max: Player, opts: AlphaBetaOptions, what: &str) {
    let (t, depth, prune) = (opts.threshold, opts.max_depth, opts.prune);
    let s = run_engine(g, max, opts);
    let curve = s.curve();
    assert_eq!(curve.len(), depth as usize, "{what}");
    for (k, p) in curve.iter().enumerate() {
        let d = k as u32 + 1;
        assert_eq!(p.depth, d, "{what}");
        let mut r = Ref {
            max,
            t: i64::from(t),
            prune,
            tactical_first: opts.order == MoveOrder::CapturesFirst,
            nodes: 0,
        };
        let (v, scn, best) = r.search(g, d, i64::MIN, i64::MAX);
        assert_eq!(i64::from(p.value), v, "{what}: value at depth {d}");
        assert_eq!(engine_scn(p.scn), scn, "{what}: scn at depth {d} (T = {t})");
        assert_eq!(p.nodes, r.nodes, "{what}: nodes at depth {d}");
        let expected_best = best.map(|i| {
            let m = r.moves(g)[i];
            g.format_move(m)
        });
        assert_eq!(p.best_move, expected_best, "{what}: best move at depth {d}");
        if !prune {
            let mut xs = Vec::new();
            leaf_values(g, d, max, &mut xs);
            let mut grid: Vec<i64> = xs.iter().flat_map(|&x| [x, x + 1]).collect();
            grid.sort_unstable();
            grid.dedup();
            let f = proof_function(g, d, max, &grid);
            assert_eq!(
                engine_scn(p.scn),
                p_root_at(&grid, &f, i64::from(t)),
                "{what}: scn vs p_root(T) at depth {d}"
            );
        }
    }
}

/// `check_position` of `g` for its side to move, in both move orders:
/// pruned to `depth` plies at each threshold of `thresholds`, and full
/// width at threshold `full.0` to `full.1` plies.
fn check_both_orders<G: Game>(g: &G, thresholds: &[i32], depth: u32, full: (i32, u32), what: &str) {
    let max = g.to_move();
    for order in [MoveOrder::Game, MoveOrder::CapturesFirst] {
        for &t in thresholds {
            let opts = options(t, depth, true, order);
            check_position(g, max, opts, &format!("{what} {order:?} T={t}"));
        }
        let (t, depth) = full;
        let opts = options(t, depth, false, order);
        check_position(g, max, opts, &format!("{what} {order:?} full"));
    }
}

/// A random hand-written tree: varied branching, depth, kinds (not
/// necessarily alternating), evaluation ranges and terminal leaves.
fn random_tree(rng: &mut SmallRng) -> String {
    #[allow(clippy::too_many_arguments)]
    fn node(
        rng: &mut SmallRng,
        out: &mut String,
        count: &mut usize,
        depth: usize,
        max_depth: usize,
        range: i32,
        branching: u32,
        parent_or: bool,
    ) {
        let indent = "  ".repeat(depth);
        let label = format!("n{count}");
        *count += 1;
        let leaf = depth == max_depth || (depth > 0 && rng.random_bool(0.2));
        if leaf {
            let v = match rng.random_range(0..6) {
                0 => "win".to_string(),
                1 => "loss".to_string(),
                2 => "draw".to_string(),
                _ => rng.random_range(-range..=range).to_string(),
            };
            out.push_str(&format!("{indent}{label} = {v}\n"));
            return;
        }
        // Mostly alternating kinds (cut-offs need both), sometimes the
        // same player twice (as after a pass).
        let or = if rng.random_bool(0.8) {
            !parent_or
        } else {
            parent_or
        };
        let kind = if or { "or" } else { "and" };
        let hint = if rng.random_bool(0.85) {
            format!(" eval={}", rng.random_range(-range..=range))
        } else {
            String::new()
        };
        out.push_str(&format!("{indent}{label} {kind}{hint}\n"));
        for _ in 0..rng.random_range(1..=branching) {
            node(rng, out, count, depth + 1, max_depth, range, branching, or);
        }
    }
    let max_depth = rng.random_range(1..=6);
    let range = [3, 20, 150, 2000][rng.random_range(0..4)];
    let branching = rng.random_range(1..=5);
    let mut out = String::new();
    let root_or = rng.random_bool(0.5);
    node(
        rng, &mut out, &mut 0, 0, max_depth, range, branching, !root_or,
    );
    out
}

#[test]
fn random_trees_match_the_reference_at_every_depth() {
    let mut rng = SmallRng::seed_from_u64(2018);
    let (mut with_cutoffs, mut cutoff_changed) = (0, 0);
    for i in 0..400 {
        let text = random_tree(&mut rng);
        let g = TreeGame::parse(&text).unwrap_or_else(|e| panic!("tree {i}: {e}\n{text}"));
        let depth = 7; // deeper than every tree: later depths repeat
        let ts = [
            0,
            rng.random_range(-30..=30),
            rng.random_range(-300..=300),
            WIN,
            -WIN + 1,
        ];
        for t in ts {
            for prune in [true, false] {
                check_position(
                    &g,
                    Player::First,
                    options(t, depth, prune, MoveOrder::Game),
                    &format!("tree {i} T={t} prune={prune}\n{text}"),
                );
            }
            // Cut-off children occur, and sometimes change the root's SCN
            // against full width: the comparison above covers both.
            let a = run_engine(&g, Player::First, options(t, depth, true, MoveOrder::Game));
            let b = run_engine(&g, Player::First, options(t, depth, false, MoveOrder::Game));
            if a.extra_json()["cutoff_leaves"].as_u64() > Some(0) {
                with_cutoffs += 1;
            }
            if a.curve().iter().zip(b.curve()).any(|(x, y)| x.scn != y.scn) {
                cutoff_changed += 1;
            }
        }
    }
    assert!(with_cutoffs > 600, "only {with_cutoffs} runs with cut-offs");
    assert!(
        cutoff_changed >= 5,
        "only {cutoff_changed} runs where pruning changed the SCN"
    );
}

#[test]
fn random_p_games_match_the_reference() {
    for (seed, b, d, g) in cycled_p_games(0..60, 2..=4, 3..=7) {
        for t in [0, 60, 200] {
            for prune in [true, false] {
                check_position(
                    &g,
                    Player::First,
                    options(t, d + 1, prune, MoveOrder::Game),
                    &format!("pgame b={b} d={d} seed={seed}"),
                );
            }
        }
    }
}

#[test]
fn tictactoe_positions_match_the_reference() {
    for pos in [
        ".........",
        "x...o....",
        "xo..x....",
        "x.o.x..o.",
        "xoxoxo...",
    ] {
        let g = TicTacToe::parse(pos).unwrap();
        let depth = 9 - pos.chars().filter(|&c| c != '.').count() as u32;
        let what = format!("ttt {pos}");
        check_both_orders(
            &g,
            &[-5, 0, 10, WIN],
            depth.min(6),
            (10, depth.min(4)),
            &what,
        );
    }
}

#[test]
fn connect4_positions_match_the_reference() {
    for pos in ["", "44", "4453", "3344556", "1212437"] {
        let g = Connect4::parse(pos).unwrap();
        check_both_orders(&g, &[0, 50, WIN], 5, (40, 3), &format!("c4 {pos}"));
    }
}

#[test]
fn othello_positions_match_the_reference() {
    let start = Othello::start();
    let mut mid = start;
    for m in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
        mid.play(mid.parse_move(m).unwrap());
    }
    // A 14-empties endgame (FFO #1) where passes and the end appear.
    let end = Othello::parse("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        .unwrap();
    for (name, g) in [("start", start), ("mid", mid), ("ffo1", end)] {
        check_both_orders(&g, &[0, 40, 200], 4, (40, 3), &format!("othello {name}"));
    }
}

#[test]
fn the_min_player_at_the_root_is_handled() {
    // A tree whose root is an AND node: MAX is still the OR player.
    let g = TreeGame::parse("r and eval=5\n  a or eval=3\n    x = 4\n  b or eval=9\n    y = 8\n")
        .unwrap();
    let s = run_engine(&g, Player::First, options(5, 2, true, MoveOrder::Game));
    // Depth 1: a (3), b (9) are horizon leaves; MIN takes 3; scn = 1 + 0.
    assert_eq!((s.curve()[0].value, s.curve()[0].scn), (3, 1));
    // Depth 2: x = 4 and y = 8 are finished; MIN takes 4; scn = ∞ + 0.
    assert_eq!((s.curve()[1].value, s.curve()[1].scn), (4, INF));
    // Searching for the second player (MAX = AND player) flips the view.
    let s = run_engine(&g, Player::Second, options(-5, 2, true, MoveOrder::Game));
    assert_eq!(s.curve()[1].value, -4);
}

fn teaching_tree(name: &str) -> TreeGame {
    let path = format!("{}/positions/trees/{name}", env!("CARGO_MANIFEST_DIR"));
    TreeGame::parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// (value, scn, nodes, best move) per depth.
fn points(s: &AlphaBeta<TreeGame>) -> Vec<(i32, Scn, u64, String)> {
    s.curve()
        .iter()
        .map(|p| {
            (
                p.value,
                engine_scn(p.scn),
                p.nodes,
                p.best_move.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn teaching_trees_have_their_hand_worked_numbers() {
    // The numbers are worked out by hand in each file's comments.
    let curve = |file: &str| {
        let g = teaching_tree(file);
        points(&run_engine(
            &g,
            Player::First,
            options(100, 3, true, MoveOrder::Game),
        ))
    };
    let point =
        |value: i32, scn: Scn, nodes: u64, best: &str| (value, scn, nodes, best.to_string());
    assert_eq!(
        curve("scn-vs-minimax.tree"),
        [
            point(55, Some(1), 3, "B"),
            point(60, Some(1), 8, "B"),
            point(120, Some(0), 13, "C"),
        ]
    );
    let g = teaching_tree("scn-vs-minimax.tree");
    let full = run_engine(&g, Player::First, options(100, 2, false, MoveOrder::Game));
    assert_eq!(full.curve()[1].value, 60);
    assert_eq!(engine_scn(full.curve()[1].scn), Some(1));
    assert_eq!(
        curve("scn-cutoff.tree"),
        [
            point(50, Some(1), 3, "B"),
            point(40, Some(2), 6, "B"),
            point(40, None, 9, "B"),
        ]
    );
}

#[test]
fn status_follows_exact_and_forced_values() {
    use pnlab::search::{Status, StopReason};
    let run = |g: TicTacToe, depth: u32, q: QuestionKind| {
        let opts = AlphaBetaOptions {
            threshold: 0,
            max_depth: depth,
            prune: true,
            order: MoveOrder::Game,
            record_limit: 0,
        };
        let mut s = AlphaBeta::new(g, g.to_move(), q, opts);
        s.run_to_end()
    };
    // The whole game fits in 9 plies: tic-tac-toe is a draw (a published
    // fact), so "win" is disproved and "not-lose" proved.
    let empty = TicTacToe::new();
    assert_eq!(run(empty, 9, QuestionKind::Win), Status::Disproved);
    assert_eq!(run(empty, 9, QuestionKind::NotLose), Status::Proved);
    // Two plies see no finished game: unknown.
    assert_eq!(
        run(empty, 2, QuestionKind::Win),
        Status::Unknown(StopReason::DepthLimit)
    );
    // x to move wins at once on a3 (cell 2): a forced win inside the
    // horizon proves the question even though the tree is not exhausted.
    let g = TicTacToe::parse("xx.oo....").unwrap();
    assert_eq!(run(g, 1, QuestionKind::Win), Status::Proved);
}
