//! `expectimax`, `star1` and `star2` against an exact expectimax written
//! here with rational numbers: on hundreds of seeded random chance trees
//! (uniform and non-uniform probabilities, integer and half-integer
//! leaves, MAX/MIN/chance nodes in any order, L and U from the leaves or
//! wider), on EinStein würfelt nicht! endgames and on tic-tac-toe
//! positions (no chance nodes: the value is the minimax value). All three
//! must return the exact value (within 1e-9); the pruning ones must visit
//! fewer nodes than expectimax overall and actually cut.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab::game::{AnyPosition, Game, GameKind, Player};
use pnlab::search::{self, reference, Budget, Params, QuestionKind, SearchSetup, Status};

/// An exact rational p/q (q > 0, reduced).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Q(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(p: i128, q: i128) -> Q {
        let g = gcd(p, q).max(1);
        let s = if q < 0 { -1 } else { 1 };
        Q(s * p / g, s * q / g)
    }
    fn int(v: i128) -> Q {
        Q(v, 1)
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn mul(self, o: Q) -> Q {
        Q::new(self.0 * o.0, self.1 * o.1)
    }
    fn less(self, o: Q) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
    fn f64(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// The test's own tree: the exact value is computed on this, the text
/// written from it goes through pnlab's parser.
enum Node {
    Leaf(Q),
    Max(Vec<Node>),
    Min(Vec<Node>),
    /// Children with their probabilities (`None`: uniform, no `prob=`).
    Chance(Vec<Node>, Option<Vec<Q>>),
}

fn exact(n: &Node) -> Q {
    match n {
        Node::Leaf(v) => *v,
        Node::Max(c) => c
            .iter()
            .map(exact)
            .reduce(|a, b| if a.less(b) { b } else { a })
            .unwrap(),
        Node::Min(c) => c
            .iter()
            .map(exact)
            .reduce(|a, b| if b.less(a) { b } else { a })
            .unwrap(),
        Node::Chance(c, probs) => {
            let k = c.len() as i128;
            c.iter().enumerate().fold(Q::int(0), |acc, (i, x)| {
                let p = probs.as_ref().map_or(Q::new(1, k), |ps| ps[i]);
                acc.add(p.mul(exact(x)))
            })
        }
    }
}

fn random_node(rng: &mut SmallRng, depth: u32, halves: bool) -> Node {
    if depth == 0 || rng.random_range(0..6) == 0 {
        let v = rng.random_range(-8..=8);
        return Node::Leaf(if halves && rng.random_bool(0.3) {
            Q::new(2 * v + 1, 2)
        } else {
            Q::int(v)
        });
    }
    let n = rng.random_range(1..=4);
    let kids: Vec<Node> = (0..n)
        .map(|_| random_node(rng, depth - 1, halves))
        .collect();
    match rng.random_range(0..3) {
        0 => Node::Max(kids),
        1 => Node::Min(kids),
        _ => {
            let probs = rng.random_bool(0.5).then(|| {
                // Weights out of 20 (exact in decimal), each at least 1.
                let mut w = vec![1i128; n];
                for _ in n..20 {
                    w[rng.random_range(0..n)] += 1;
                }
                w.into_iter().map(|x| Q::new(x, 20)).collect::<Vec<_>>()
            });
            Node::Chance(kids, probs)
        }
    }
}

fn has_chance(n: &Node) -> bool {
    match n {
        Node::Leaf(_) => false,
        Node::Chance(..) => true,
        Node::Max(c) | Node::Min(c) => c.iter().any(has_chance),
    }
}

fn decimal(q: Q) -> String {
    // Denominators here are 1, 2 or divide 20: exact with 2 decimals.
    format!("{:.2}", q.f64())
}

fn write(n: &Node, depth: usize, label: &str, prob: Option<Q>, out: &mut String) {
    out.push_str(&"  ".repeat(depth));
    out.push_str(label);
    match n {
        Node::Leaf(v) if v.1 == 1 => out.push_str(&format!(" = {}", v.0)),
        Node::Leaf(v) => out.push_str(&format!(" = {}", decimal(*v))),
        Node::Max(_) => out.push_str(" or"),
        Node::Min(_) => out.push_str(" and"),
        Node::Chance(..) => out.push_str(" chance"),
    }
    if let Some(p) = prob {
        out.push_str(&format!(" prob={}", decimal(p)));
    }
    out.push('\n');
    let (kids, probs) = match n {
        Node::Leaf(_) => return,
        Node::Max(c) | Node::Min(c) => (c, None),
        Node::Chance(c, p) => (c, p.as_ref()),
    };
    for (i, c) in kids.iter().enumerate() {
        let l = format!("{label}{}", (b'a' + i as u8) as char);
        write(c, depth + 1, &l, probs.map(|p| p[i]), out);
    }
}

/// Runs `algo` to the end; its value and its extra counters.
fn run(
    algo: &str,
    pos: &AnyPosition,
    params: &[(&str, &str)],
) -> (f64, serde_json::Map<String, serde_json::Value>) {
    let setup = SearchSetup {
        memory_limit_bytes: Some(8 << 20),
        ..SearchSetup::new(algo, pos.clone(), params).unwrap()
    };
    let mut s = search::build(algo, &setup).unwrap_or_else(|e| panic!("{algo}: {e}"));
    let st = search::run(s.as_mut(), &Budget::default(), None);
    assert!(
        matches!(st, Status::Proved | Status::Disproved),
        "{algo}: {st:?}"
    );
    let extra = s.extra_json();
    let v = extra["value"].as_f64().expect("a value");
    // The answer follows the value (expected score > 0 for `win`).
    assert_eq!(
        st == Status::Proved,
        v > 0.0,
        "{algo}: status {st:?}, value {v}"
    );
    (v, extra)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + b.abs())
}

const ALGOS: [&str; 3] = ["expectimax", "star1", "star2"];

#[test]
fn random_chance_trees_get_the_exact_expectimax_value() {
    let mut rng = SmallRng::seed_from_u64(0xC4A5CE);
    let mut nodes = [0u64; 3];
    let (mut cut1, mut cut2, mut probes) = (0, 0, 0);
    let mut trees = 0;
    while trees < 400 {
        let halves = rng.random_bool(0.5);
        let depth = rng.random_range(2..=6);
        let root = random_node(&mut rng, depth, halves);
        if !has_chance(&root) {
            continue;
        }
        trees += 1;
        let mut text = String::new();
        write(&root, 0, "r", None, &mut text);
        let pos =
            AnyPosition::parse(GameKind::Tree, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let truth = exact(&root).f64();
        // L and U from the leaves, or a wider range given by hand.
        let wide = [("L", "-20"), ("U", "30")];
        let params: &[(&str, &str)] = if trees % 3 == 0 { &wide } else { &[] };
        for (k, algo) in ALGOS.iter().enumerate() {
            let (v, extra) = run(algo, &pos, params);
            assert!(
                close(v, truth),
                "{algo}: {v} ≠ {truth} (tree #{trees})\n{text}"
            );
            nodes[k] += extra["nodes_visited"].as_u64().unwrap();
            cut1 += extra["cutoffs_1"].as_u64().unwrap();
            cut2 += extra["cutoffs_2"].as_u64().unwrap();
            probes += extra["probe_nodes"].as_u64().unwrap();
        }
    }
    eprintln!("nodes expectimax/star1/star2: {nodes:?}; cut-offs I {cut1}, II {cut2}; probe nodes {probes}");
    assert!(nodes[1] < nodes[0], "star1 prunes: {nodes:?}");
    assert!(cut1 > 0 && cut2 > 0 && probes > 0, "{cut1} {cut2} {probes}");
}

#[test]
fn bad_score_ranges_are_refused() {
    let pos = AnyPosition::parse(GameKind::Tree, "a chance\n  b = 3\n  c = -2\n").unwrap();
    let info = search::find_algo("star1").unwrap();
    for (pairs, want) in [
        (vec![("L", "-1")], "L = -1 is above"),
        (vec![("U", "2")], "U = 2 is below"),
    ] {
        let setup = SearchSetup {
            position: pos.clone(),
            params: Params::from_pairs(info.params, &pairs).unwrap(),
            seed: 0,
            question: QuestionKind::Win,
            memory_limit_bytes: None,
        };
        let err = search::build("star1", &setup)
            .err()
            .expect("refused")
            .to_string();
        assert!(err.contains(want), "{err}");
    }
}

/// Exact expectimax over the game rules, with rationals, counting nodes;
/// `None` once more than `cap` nodes were needed.
fn game_exact<G: Game>(g: &G, me: Player, cap: &mut u64) -> Option<Q> {
    *cap = cap.checked_sub(1)?;
    if let Some(o) = g.outcome() {
        return Some(Q::int(i128::from(o.score_for(me))));
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut vals = Vec::new();
    for &m in &moves {
        let mut c = g.clone();
        c.play(m);
        vals.push(game_exact(&c, me, cap)?);
    }
    Some(if g.is_chance() {
        // EinStein's six rolls are equally likely.
        let k = vals.len() as i128;
        vals.into_iter()
            .fold(Q::int(0), |a, v| a.add(v.mul(Q::new(1, k))))
    } else if g.to_move() == me {
        vals.into_iter()
            .reduce(|a, b| if a.less(b) { b } else { a })?
    } else {
        vals.into_iter()
            .reduce(|a, b| if b.less(a) { b } else { a })?
    })
}

#[test]
fn einstein_endgames_get_the_exact_value() {
    let mut rng = SmallRng::seed_from_u64(0xE1);
    let mut tested = 0;
    let mut tries = 0;
    while tested < 40 {
        tries += 1;
        assert!(tries < 20_000, "only {tested} small endgames found");
        // The experiment chance-compare draws its EWN endgames the same way.
        let Some(g) = pnlab::experiments::chance_compare::random_ewn(rng.random()) else {
            continue;
        };
        let mut cap = 60_000u64;
        let Some(truth) = game_exact(&g, g.to_move(), &mut cap) else {
            continue;
        };
        tested += 1;
        let pos = AnyPosition::Ewn(g.clone());
        for algo in ALGOS {
            let (v, _) = run(algo, &pos, &[]);
            assert!(
                close(v, truth.f64()),
                "{algo} on {}: {v} ≠ {}",
                g.notation(),
                truth.f64()
            );
        }
    }
}

#[test]
fn without_chance_nodes_the_value_is_the_minimax_value() {
    for text in ["x...o....", "xo..x..o.", ".........", "xx.oo...."] {
        let pos = AnyPosition::parse(GameKind::TicTacToe, text).unwrap();
        let AnyPosition::TicTacToe(g) = &pos else {
            unreachable!()
        };
        let truth = reference::value_for(g, g.to_move());
        for algo in ALGOS {
            let (v, _) = run(algo, &pos, &[]);
            assert_eq!(v, f64::from(truth), "{algo} on {text}");
        }
    }
}
