//! The P-game (Kocsis & Szepesvári 2006), docs/algorithms.md §10.
//!
//! A uniform tree of branching `b` and depth `d`. MAX (`Player::First`)
//! moves at even depths, MIN at odd depths. Every move carries an integer
//! value, uniform in [0, 127] for MAX's moves and in [−127, 0] for MIN's; a
//! leaf's score is the sum of the values along its path (> 0 MAX wins,
//! < 0 MIN wins, 0 draw) and is the leaf's `Outcome::score`.
//!
//! No tree is stored: a node is identified by a 64-bit *path hash* (a
//! chain of splitmix64 steps seeded by `(seed, b, d)` and extended by each
//! child index), and a move's value is a hash of the parent's path hash and
//! the child index. So the same `(b, d, seed)` always gives the same tree,
//! positions are a few words plus the path (kept for the notation), and a
//! random playout is a loop of integer hashes without any allocation.
//!
//! The value distribution above is the one Kocsis & Szepesvári and the
//! PPN paper give; `values=symmetric` draws every move's value from
//! [−127, 127] for both players instead (no side's moves are all good),
//! the alternative `pgame-compare` uses to test whether the generator
//! decides the solvers' order.
//!
//! Notation (docs/cli.md): `b=2,d=20,seed=17` for the root (with
//! `,values=symmetric` for the other distribution); inner nodes append
//! `,path=0.1.1` (child indices from the root, 0-based), so `notation()`
//! round-trips everywhere. Moves are written `INDEX:VALUE`, e.g. `1:+87`,
//! so every view shows the move's value; `parse_move` accepts `1` or
//! `1:+87` (the value, if given, must match).

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};

/// Largest branching factor accepted (moves are `u8`, and wider trees are
/// not useful for the experiments).
pub const MAX_BRANCHING: u32 = 64;
/// Largest depth accepted (the path is kept in a fixed array).
pub const MAX_DEPTH: u32 = 64;
/// Move values lie in [0, MOVE_VALUE_MAX] for MAX and its negation for MIN.
pub const MOVE_VALUE_MAX: i32 = 127;

use super::mix::{finalize as mix, GOLDEN};

/// The path hash of the root of tree `(b, d, seed)`.
#[inline]
fn root_hash(b: u32, d: u32, seed: u64) -> u64 {
    mix(mix(seed.wrapping_add(GOLDEN)) ^ ((b as u64) << 8 | d as u64).wrapping_mul(GOLDEN))
}

/// The path hash of child `i` of the node with path hash `h`.
#[inline]
fn child_hash(h: u64, i: u32) -> u64 {
    mix(h.wrapping_add((i as u64 + 1).wrapping_mul(GOLDEN)))
}

crate::choice_enum! {
    /// How move values are drawn (the notation's `values=…` and
    /// `pgame-compare`'s `values` setting).
    #[derive(Default)]
    pub enum MoveValues {
        /// MAX's moves uniform in [0, 127], MIN's in [−127, 0] (the papers').
        #[default]
        Signed = "signed",
        /// Every move uniform in [−127, 127], whoever moves.
        Symmetric = "symmetric",
    }
}

/// The value of move `i` at the node with path hash `h`, where `max_moves`
/// says whether MAX is to move: `Signed`, uniform in [0, 127] or
/// [−127, 0] (the low 7 bits of an independent hash; 128 divides 2⁶⁴, so
/// exactly uniform); `Symmetric`, uniform in [−127, 127] (the hash modulo
/// 255, bias below 2⁻⁵⁶).
#[inline]
fn move_value_at(h: u64, i: u32, max_moves: bool, values: MoveValues) -> i32 {
    let x = mix(h ^ (i as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    match values {
        MoveValues::Signed => {
            let v = (x & 127) as i32;
            if max_moves {
                v
            } else {
                -v
            }
        }
        MoveValues::Symmetric => (x % 255) as i32 - 127,
    }
}

/// A node of a P-game tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PGame {
    b: u8,
    d: u8,
    /// Moves played from the root (the node's depth).
    depth: u8,
    seed: u64,
    /// How the move values are drawn.
    values: MoveValues,
    /// Sum of the move values along the path (MAX's point of view).
    sum: i32,
    /// Path hash: identifies the node; the Zobrist-equivalent hash.
    hash: u64,
    /// Child indices from the root; entries `depth..` are zero.
    path: [u8; MAX_DEPTH as usize],
}

/// A P-game shape outside the supported range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PGameSizeError {
    /// The branching factor b.
    #[error("branching b must be in 1..={MAX_BRANCHING}, got {0}")]
    Branching(u32),
    /// The depth d.
    #[error("depth d must be in 1..={MAX_DEPTH}, got {0}")]
    Depth(u32),
}

impl PGame {
    /// The root of tree `(b, d, seed)`; `b` in 1..=64, `d` in 1..=64.
    pub fn new(b: u32, d: u32, seed: u64) -> Result<PGame, PGameSizeError> {
        PGame::with_values(b, d, seed, MoveValues::Signed)
    }

    /// The root of tree `(b, d, seed)` with move values drawn as `values`
    /// says (the same tree shape and hashes as [`PGame::new`]'s).
    pub fn with_values(
        b: u32,
        d: u32,
        seed: u64,
        values: MoveValues,
    ) -> Result<PGame, PGameSizeError> {
        if !(1..=MAX_BRANCHING).contains(&b) {
            return Err(PGameSizeError::Branching(b));
        }
        if !(1..=MAX_DEPTH).contains(&d) {
            return Err(PGameSizeError::Depth(d));
        }
        Ok(PGame {
            b: b as u8,
            d: d as u8,
            depth: 0,
            seed,
            values,
            sum: 0,
            hash: root_hash(b, d, seed),
            path: [0; MAX_DEPTH as usize],
        })
    }

    /// Parses `b=B,d=D,seed=S[,path=I.J.K]` (keys in any order, spaces
    /// around items allowed). Errors carry the 1-based column.
    pub fn parse(text: &str) -> Result<PGame, ParseError> {
        let mut b: Option<u32> = None;
        let mut d: Option<u32> = None;
        let mut seed: Option<u64> = None;
        let mut path: Option<(Vec<u32>, usize)> = None;
        let mut values: Option<MoveValues> = None;
        let mut offset = 0usize; // byte offset of the current item
        for item in text.split(',') {
            let lead = item.len() - item.trim_start().len();
            let start = offset + lead;
            offset += item.len() + 1;
            let item_t = item.trim();
            let col = super::notation::col_of(text, start);
            if item_t.is_empty() {
                return Err(ParseError::at_col(
                    col,
                    "expected `KEY=VALUE` (keys b, d, seed, path)",
                ));
            }
            let Some(eq) = item_t.find('=') else {
                return Err(ParseError::at_col(
                    col,
                    format!("expected `KEY=VALUE`, found `{item_t}`"),
                ));
            };
            let key = item_t[..eq].trim();
            let value = item_t[eq + 1..].trim();
            let vcol = super::notation::col_of(text, start + eq + 1);
            let int = |max: u64| -> Result<u64, ParseError> {
                match value.parse::<u64>() {
                    Ok(v) if v <= max => Ok(v),
                    Ok(v) => Err(ParseError::at_col(
                        vcol,
                        format!("`{key}` out of range: {v} (at most {max})"),
                    )),
                    Err(_) => Err(ParseError::at_col(
                        vcol,
                        format!("expected a non-negative integer for `{key}`, found `{value}`"),
                    )),
                }
            };
            // The branching factor and the depth: at least 1.
            let positive = |max: u64| -> Result<u32, ParseError> {
                match int(max)? {
                    0 => Err(ParseError::at_col(
                        vcol,
                        format!("`{key}` out of range: must be ≥ 1"),
                    )),
                    v => Ok(v as u32),
                }
            };
            let dup = |seen: bool| -> Result<(), ParseError> {
                if seen {
                    Err(ParseError::at_col(col, format!("key `{key}` given twice")))
                } else {
                    Ok(())
                }
            };
            match key {
                "b" => {
                    dup(b.is_some())?;
                    b = Some(positive(MAX_BRANCHING as u64)?);
                }
                "d" => {
                    dup(d.is_some())?;
                    d = Some(positive(MAX_DEPTH as u64)?);
                }
                "seed" => {
                    dup(seed.is_some())?;
                    seed = Some(int(u64::MAX)?);
                }
                "values" => {
                    dup(values.is_some())?;
                    values = Some(value.parse::<MoveValues>().map_err(|_| {
                        ParseError::at_col(
                            vcol,
                            format!(
                                "expected `signed` or `symmetric` for `values`, found `{value}`"
                            ),
                        )
                    })?);
                }
                "path" => {
                    dup(path.is_some())?;
                    let mut steps = Vec::new();
                    if !value.is_empty() {
                        for s in value.split('.') {
                            match s.trim().parse::<u32>() {
                                Ok(v) => steps.push(v),
                                Err(_) => {
                                    return Err(ParseError::at_col(
                                        vcol,
                                        format!(
                                            "expected child indices like `0.1.1`, found `{value}`"
                                        ),
                                    ))
                                }
                            }
                        }
                    }
                    path = Some((steps, vcol));
                }
                _ => {
                    return Err(ParseError::at_col(
                        col,
                        format!("unknown key `{key}`; expected b, d, seed, values or path"),
                    ))
                }
            }
        }
        let end = text.chars().count() + 1;
        let missing = |k: &str| {
            ParseError::at_col(
                end,
                format!("missing key `{k}` (expected `b=2,d=20,seed=17`)"),
            )
        };
        let b = b.ok_or_else(|| missing("b"))?;
        let d = d.ok_or_else(|| missing("d"))?;
        let seed = seed.ok_or_else(|| missing("seed"))?;
        let mut g = PGame::with_values(b, d, seed, values.unwrap_or_default())
            .map_err(|e| ParseError::at_col(1, e.to_string()))?;
        if let Some((steps, vcol)) = path {
            if steps.len() > d as usize {
                return Err(ParseError::at_col(
                    vcol,
                    format!(
                        "path has {} steps but the tree is only {d} deep",
                        steps.len()
                    ),
                ));
            }
            for s in steps {
                if s >= b {
                    return Err(ParseError::at_col(
                        vcol,
                        format!(
                            "child index {s} out of range (b = {b}: indices 0..{})",
                            b - 1
                        ),
                    ));
                }
                g.play(s as u8);
            }
        }
        Ok(g)
    }

    /// The tree's branching factor `b` (children per inner node).
    pub fn branching(&self) -> u32 {
        self.b as u32
    }
    /// The tree's depth `d`.
    pub fn tree_depth(&self) -> u32 {
        self.d as u32
    }
    /// Moves played from the root.
    pub fn depth(&self) -> u32 {
        self.depth as u32
    }
    /// The seed that generated the tree (the same seed gives the same tree).
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// How the tree's move values are drawn.
    pub fn values(&self) -> MoveValues {
        self.values
    }
    /// Sum of the move values so far (MAX's point of view).
    pub fn sum(&self) -> i32 {
        self.sum
    }
    /// The child indices from the root to this node.
    pub fn path(&self) -> &[u8] {
        &self.path[..self.depth as usize]
    }

    /// The value of move `i` here (MAX's point of view): in [0, 127] when
    /// MAX moves, in [−127, 0] when MIN moves (both in [−127, 127] with
    /// `values=symmetric`). For the board view.
    pub fn move_value(&self, i: u8) -> i32 {
        move_value_at(self.hash, i as u32, self.depth & 1 == 0, self.values)
    }

    /// The values of the moves along the path from the root (they sum to
    /// [`PGame::sum`]).
    pub fn path_values(&self) -> Vec<i32> {
        let mut g = PGame::with_values(self.b as u32, self.d as u32, self.seed, self.values)
            .expect("a constructed P-game has valid b and d");
        self.path()
            .iter()
            .map(|&i| {
                let v = g.move_value(i);
                g.play(i);
                v
            })
            .collect()
    }
}

impl Game for PGame {
    /// Child index 0..b.
    type Move = u8;

    fn kind(&self) -> GameKind {
        GameKind::PGame
    }

    fn to_move(&self) -> Player {
        if self.depth & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.depth < self.d {
            out.extend(0..self.b);
        }
    }

    fn play(&mut self, m: u8) {
        debug_assert!(m < self.b && self.depth < self.d, "illegal P-game move {m}");
        self.sum += self.move_value(m);
        self.path[self.depth as usize] = m;
        self.hash = child_hash(self.hash, m as u32);
        self.depth += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.depth >= self.d).then_some(Outcome { score: self.sum })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, m: u8) -> String {
        format!("{m}:{:+}", self.move_value(m))
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let t = text.trim();
        let (idx, value) = match t.split_once(':') {
            Some((i, v)) => (i.trim(), Some(v.trim())),
            None => (t, None),
        };
        let i: u32 = idx
            .parse()
            .map_err(|_| MoveError::notation(text, "a child index like `1` or `1:+87`"))?;
        if self.depth >= self.d {
            return Err(MoveError::game_over(text));
        }
        if i >= self.b as u32 {
            return Err(MoveError::illegal(
                text,
                format!("child indices are 0..{}", self.b - 1),
            ));
        }
        if let Some(v) = value {
            let v: i32 = v
                .parse()
                .map_err(|_| MoveError::notation(v, "a move value like `+87`"))?;
            if v != self.move_value(i as u8) {
                return Err(MoveError::illegal(
                    text,
                    format!(
                        "move {i} has value {:+} here, not {v:+}",
                        self.move_value(i as u8)
                    ),
                ));
            }
        }
        Ok(i as u8)
    }

    fn notation(&self) -> String {
        let mut s = format!("b={},d={},seed={}", self.b, self.d, self.seed);
        if self.values != MoveValues::Signed {
            s.push_str(",values=");
            s.push_str(self.values.name());
        }
        if self.depth > 0 {
            let steps: Vec<String> = self.path().iter().map(|i| i.to_string()).collect();
            s.push_str(",path=");
            s.push_str(&steps.join("."));
        }
        s
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::PGame(self)
    }

    /// The sum so far, moved by at most 127 per move still to play (a valid, not tight, range).
    fn score_range(&self) -> Option<(f64, f64)> {
        let left = f64::from(u32::from(self.d) - u32::from(self.depth)) * 127.0;
        let sum = f64::from(self.sum);
        Some((sum - left, sum + left))
    }

    /// The sum of the move values so far (first player's view): the score
    /// the path has collected, which the remaining moves shift by at most
    /// 127 each. At most 64 · 127 = 8128 in magnitude, inside ±WIN.
    fn evaluate(&self) -> Option<i32> {
        Some(self.sum)
    }

    fn move_count(&self) -> usize {
        if self.depth < self.d {
            self.b as usize
        } else {
            0
        }
    }

    /// Hash-chain playout: no clone of the path, no allocation.
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        let (b, d) = (self.b as u64, self.d);
        let mut h = self.hash;
        let mut sum = self.sum;
        let mut depth = self.depth;
        while depth < d {
            // Uniform over 0..b: b ≤ 64, so the modulo bias is < 2⁻⁵⁸.
            let i = (rng.next_u64() % b) as u32;
            sum += move_value_at(h, i, depth & 1 == 0, self.values);
            h = child_hash(h, i);
            depth += 1;
        }
        Outcome { score: sum }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lie_in_their_ranges_and_are_spread() {
        let g = PGame::new(8, 8, 3).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![g];
        while let Some(n) = stack.pop() {
            if n.depth() >= 3 {
                continue;
            }
            for i in 0..8u8 {
                let v = n.move_value(i);
                if n.to_move() == Player::First {
                    assert!((0..=127).contains(&v));
                } else {
                    assert!((-127..=0).contains(&v));
                }
                seen.insert(v);
                let mut c = n.clone();
                c.play(i);
                stack.push(c);
            }
        }
        // 584 moves drawn from 255 values: far more than a handful appear.
        assert!(seen.len() > 150, "{}", seen.len());
    }

    #[test]
    fn leaf_score_is_the_path_sum() {
        let mut g = PGame::parse("b=3,d=5,seed=9").unwrap();
        let mut total = 0;
        for m in [2u8, 0, 1, 1, 2] {
            total += g.move_value(m);
            g.play(m);
        }
        assert_eq!(g.outcome(), Some(Outcome { score: total }));
        assert_eq!(g.path_values().iter().sum::<i32>(), total);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty());
    }

    #[test]
    fn notation_round_trips_at_inner_nodes() {
        let mut g = PGame::parse(" b=2 , d=20,seed=17").unwrap();
        assert_eq!(g.notation(), "b=2,d=20,seed=17");
        for m in [0u8, 1, 1] {
            g.play(m);
        }
        assert_eq!(g.notation(), "b=2,d=20,seed=17,path=0.1.1");
        let back = PGame::parse(&g.notation()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.hash(), g.hash());
    }

    #[test]
    fn symmetric_values_round_trip_and_take_both_signs_for_both_sides() {
        let mut g = PGame::parse("b=8,d=4,seed=5,values=symmetric").unwrap();
        assert_eq!(g.values(), MoveValues::Symmetric);
        assert_eq!(g.notation(), "b=8,d=4,seed=5,values=symmetric");
        g.play(3);
        let back = PGame::parse(&g.notation()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.path_values(), g.path_values());
        // Over many positions both MAX's and MIN's moves take both signs,
        // and every value lies in [−127, 127].
        let (mut signs_max, mut signs_min) = ([false; 2], [false; 2]);
        for seed in 0..40 {
            let mut p = PGame::with_values(8, 2, seed, MoveValues::Symmetric).unwrap();
            for side in 0..2 {
                for i in 0..8 {
                    let v = p.move_value(i);
                    assert!((-127..=127).contains(&v));
                    let signs = if side == 0 {
                        &mut signs_max
                    } else {
                        &mut signs_min
                    };
                    signs[usize::from(v > 0)] = true;
                }
                p.play(0);
            }
        }
        assert_eq!((signs_max, signs_min), ([true; 2], [true; 2]));
        let e = PGame::parse("b=2,d=4,seed=1,values=odd").unwrap_err();
        assert!(e.expected.contains("`signed` or `symmetric`"), "{e}");
    }

    #[test]
    fn parse_errors_name_the_column() {
        let e = PGame::parse("b=2,x=3,d=4,seed=1").unwrap_err();
        assert_eq!(e.col, 5);
        assert!(e.expected.contains("unknown key `x`"));
        let e = PGame::parse("b=2,d=4").unwrap_err();
        assert!(e.expected.contains("missing key `seed`"), "{e}");
        let e = PGame::parse("b=99,d=4,seed=1").unwrap_err();
        assert_eq!(e.col, 3);
        assert!(e.expected.contains("out of range"));
        let e = PGame::parse("b=2,d=4,seed=1,path=0.2").unwrap_err();
        assert_eq!(e.col, 21);
        assert!(PGame::parse("b=2,d=2,seed=1,path=0.1.0").is_err());
        assert!(PGame::parse("b=2,d=0,seed=1").is_err());
        assert!(PGame::parse("b=2,d=4,seed=-1").is_err());
    }

    #[test]
    fn moves_show_their_values_and_parse_back() {
        let g = PGame::parse("b=4,d=4,seed=5").unwrap();
        for i in 0..4u8 {
            let s = g.format_move(i);
            assert_eq!(g.parse_move(&s), Ok(i));
            assert_eq!(g.parse_move(&i.to_string()), Ok(i));
        }
        assert!(g.parse_move("4").is_err());
        let wrong = format!("0:{:+}", g.move_value(0) + 1);
        assert!(g.parse_move(&wrong).is_err());
    }

    #[test]
    fn different_seeds_give_different_trees() {
        let a = PGame::new(2, 4, 1).unwrap();
        let b = PGame::new(2, 4, 2).unwrap();
        let va: Vec<i32> = (0..2).map(|i| a.move_value(i)).collect();
        let vb: Vec<i32> = (0..2).map(|i| b.move_value(i)).collect();
        assert!(va != vb || a.hash() != b.hash());
        assert_ne!(a.hash(), b.hash());
    }
}
