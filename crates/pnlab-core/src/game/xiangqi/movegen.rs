//! Move generation: pseudo-legal moves piece by piece, then the legality
//! filter (a move may not leave the mover's general attacked, which
//! includes the two generals facing each other on an open file).
//!
//! Order (deterministic, docs/algorithms.md §0): the pieces of the side to move
//! by ascending point (a0, b0, …, i0, a1, …, i9), each piece's moves in a
//! fixed direction order (up, right, down, left for lines and steps).
//!
//! The legality filter does the full attack test ([`attacked`] on a
//! scratch copy of the cells) only for moves of the general and for every
//! move while in check. Otherwise the general stays where it is and was not
//! attacked, so a move can only expose it by opening the ray from the
//! general through its origin (a rook, cannon or the other general behind
//! it, or a cannon losing one of two screens), by closing the ray through
//! its target (becoming a cannon's screen), or by vacating one of the four
//! points diagonally next to the general (a horse's leg). Pawns attack
//! regardless of what stands between. A move touching none of these is
//! legal at once; the others test just those rays and the horses.

use super::board::{
    attacked, cell_of, color_bit, encode, file_of, horse_attacks, in_palace, on_own_half, rank_of,
    ray_attacked, step, Board, Move, ADVISOR, CANNON, CELLS, DIAGONAL, EAST, ELEPHANT, EMPTY,
    HORSE, KING, NORTH, OFF, ORTHOGONAL, PAWN, ROOK,
};

/// The quiet moves of a rook or cannon from `from` along direction `d`
/// (each given to `f`, in order), up to the first cell that is not empty.
/// Returns that cell (a piece or the padding), or `None` when `f` asked to
/// stop.
#[inline(always)]
fn quiet_slide(
    cells: &[u8],
    from: usize,
    d: isize,
    f: &mut impl FnMut(usize, usize) -> bool,
) -> Option<usize> {
    let mut t = step(from, d);
    while cells[t] == EMPTY {
        if !f(from, t) {
            return None;
        }
        t = step(t, d);
    }
    Some(t)
}

/// Calls `f(from, to)` for every pseudo-legal move of the side to move
/// (piece rules only, the general's safety not checked) in generation
/// order. `f` returns `false` to stop early; the result says whether the
/// generation ran to the end.
#[inline(always)]
fn pseudo(b: &Board, mut f: impl FnMut(usize, usize) -> bool) -> bool {
    let us = b.side().index();
    let own = color_bit(b.side());
    let them = color_bit(b.side().other());
    let cells = b.cells();
    // A target is reachable when it holds neither an own piece nor padding.
    let free = |t: usize| cells[t] & (own | OFF) == 0;
    let forward = if us == 0 { NORTH } else { -NORTH };
    let mut bits = b.occupancy(us);
    while bits != 0 {
        let from = cell_of(bits.trailing_zeros() as usize);
        bits &= bits - 1;
        match cells[from] & 7 {
            ROOK => {
                for d in ORTHOGONAL {
                    let Some(t) = quiet_slide(cells, from, d, &mut f) else {
                        return false;
                    };
                    if cells[t] & them != 0 && !f(from, t) {
                        return false;
                    }
                }
            }
            CANNON => {
                for d in ORTHOGONAL {
                    let Some(mut t) = quiet_slide(cells, from, d, &mut f) else {
                        return false;
                    };
                    if cells[t] == OFF {
                        continue;
                    }
                    // `t` is the screen: capture the first piece beyond it.
                    t = step(t, d);
                    while cells[t] == EMPTY {
                        t = step(t, d);
                    }
                    if cells[t] & them != 0 && !f(from, t) {
                        return false;
                    }
                }
            }
            HORSE => {
                for d in ORTHOGONAL {
                    let leg = step(from, d);
                    if cells[leg] != EMPTY {
                        continue;
                    }
                    let side = if d == NORTH || d == -NORTH {
                        EAST
                    } else {
                        NORTH
                    };
                    for t in [step(leg, d + side), step(leg, d - side)] {
                        if free(t) && !f(from, t) {
                            return false;
                        }
                    }
                }
            }
            PAWN => {
                let t = step(from, forward);
                if free(t) && !f(from, t) {
                    return false;
                }
                if !on_own_half(from, us) {
                    for t in [step(from, EAST), step(from, -EAST)] {
                        if free(t) && !f(from, t) {
                            return false;
                        }
                    }
                }
            }
            KING => {
                for d in ORTHOGONAL {
                    let t = step(from, d);
                    if in_palace(t, us) && free(t) && !f(from, t) {
                        return false;
                    }
                }
            }
            ADVISOR => {
                for (v, h) in DIAGONAL {
                    let t = step(from, v + h);
                    if in_palace(t, us) && free(t) && !f(from, t) {
                        return false;
                    }
                }
            }
            ELEPHANT => {
                for (v, h) in DIAGONAL {
                    let eye = step(from, v + h);
                    if cells[eye] != EMPTY {
                        continue;
                    }
                    let t = step(eye, v + h);
                    if on_own_half(t, us) && free(t) && !f(from, t) {
                        return false;
                    }
                }
            }
            _ => unreachable!("occupancy names a cell without a piece of the side"),
        }
    }
    true
}

/// Calls `f(move)` for every legal move in generation order; `f` returns
/// `false` to stop early. Returns whether the generation ran to the end.
#[inline]
pub fn legal(b: &Board, mut f: impl FnMut(Move) -> bool) -> bool {
    let us = b.side().index();
    let them = color_bit(b.side().other());
    let king = b.king(us);
    let mut scratch: [u8; CELLS] = *b.cells();
    let in_check = attacked(&scratch, king, them);
    let (kf, kr) = (file_of(king), rank_of(king));
    // The ray from the general through a cell on its file or rank.
    let ray = |file: usize, rank: usize| -> Option<isize> {
        if file == kf {
            Some(if rank > kr { NORTH } else { -NORTH })
        } else if rank == kr {
            Some(if file > kf { EAST } else { -EAST })
        } else {
            None
        }
    };
    pseudo(b, |from, to| {
        let safe = if in_check || from == king {
            // Anything may change: the full attack test on the new board.
            let (moved, captured) = (scratch[from], scratch[to]);
            scratch[to] = moved;
            scratch[from] = EMPTY;
            let k = if from == king { to } else { king };
            let safe = !attacked(&scratch, k, them);
            scratch[from] = moved;
            scratch[to] = captured;
            safe
        } else {
            // Not in check and the general stays: only the rays the move
            // opens or closes, and the horse legs it vacates, can matter.
            let (ff, fr, tf, tr) = (file_of(from), rank_of(from), file_of(to), rank_of(to));
            let opened = ray(ff, fr);
            let closed = ray(tf, tr);
            let leg = ff.abs_diff(kf) == 1 && fr.abs_diff(kr) == 1;
            if opened.is_none() && closed.is_none() && !leg {
                true
            } else {
                let (moved, captured) = (scratch[from], scratch[to]);
                scratch[to] = moved;
                scratch[from] = EMPTY;
                let safe = !(opened.is_some_and(|d| ray_attacked(&scratch, king, d, them))
                    || closed.is_some_and(|d| {
                        Some(d) != opened && ray_attacked(&scratch, king, d, them)
                    })
                    || (leg && horse_attacks(&scratch, king, them)));
                scratch[from] = moved;
                scratch[to] = captured;
                safe
            }
        };
        !safe || f(encode(from, to))
    })
}

/// Number of legal moves.
#[inline]
pub fn count(b: &Board) -> usize {
    let mut n = 0;
    legal(b, |_| {
        n += 1;
        true
    });
    n
}

/// Whether the side to move has at least one legal move.
#[inline]
pub fn has_move(b: &Board) -> bool {
    !legal(b, |_| false)
}

/// Leaf count of the legal-move tree, `depth` plies deep, counting the
/// last ply in bulk (the legal moves of the nodes one ply above the
/// leaves are counted, not played). Repetition plays no part.
pub fn perft(b: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count(b) as u64,
        _ => {
            let mut total = 0;
            legal(b, |m| {
                let mut child = *b;
                child.make(m);
                total += perft(&child, depth - 1);
                true
            });
            total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Xiangqi;
    use super::*;

    fn moves(fen: &str) -> Vec<String> {
        let g = Xiangqi::parse(fen).expect("test FEN");
        let mut v = Vec::new();
        legal(g.board(), |m| {
            v.push(super::super::fen::move_name(m));
            true
        });
        v
    }

    /// The published perft count of the start position at depth 1.
    #[test]
    fn start_position_has_44_moves() {
        assert_eq!(moves(super::super::START_FEN).len(), 44);
    }

    /// A horse between the two generals on the e file is pinned (every
    /// horse move leaves the file); the general may step aside or forward.
    #[test]
    fn flying_general_pins_the_piece_between() {
        let mut got = moves("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
        got.sort();
        assert_eq!(got, ["e0d0", "e0e1", "e0f0"]);
    }

    /// A general may not step onto a file where it would face the other
    /// general with nothing between.
    #[test]
    fn general_may_not_step_onto_the_open_file() {
        assert_eq!(moves("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), ["d0d1"]);
    }

    /// Horse legs and elephant eyes block; a cannon needs exactly one
    /// screen to capture; an uncrossed pawn only moves forward.
    #[test]
    fn blocking_rules() {
        // Horse b0: the leg b1 (a red cannon) blocks a2 and c2, the leg c0
        // is free (d1); jumps to the left or down leave the board.
        let got = moves("3k5/9/9/9/9/9/9/9/1C7/1N2K4 w - - 0 1");
        let horse: Vec<&String> = got.iter().filter(|m| m.starts_with("b0")).collect();
        assert_eq!(horse, ["b0d1"]);
        // The cannon on b1 takes the rook on b9 over the screen b5, not
        // the screen itself.
        let got = moves("1r1k5/9/9/9/1n7/9/9/9/1C7/4K4 w - - 0 1");
        assert!(got.contains(&"b1b9".to_string()));
        assert!(
            !got.contains(&"b1b5".to_string()),
            "a cannon cannot take its screen"
        );
        assert!(got.contains(&"b1b4".to_string()));
        // Elephant c0: the eye d1 (a red horse) blocks e2; a2 is free.
        let got = moves("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1");
        let el: Vec<&String> = got.iter().filter(|m| m.starts_with("c0")).collect();
        assert_eq!(el, ["c0a2"]);
        // A red pawn on a3 moves forward only; one on a5 also sideways.
        let got = moves("3k5/9/9/9/P8/9/P8/9/9/4K4 w - - 0 1");
        let pawns: Vec<&String> = got.iter().filter(|m| m.starts_with('a')).collect();
        assert_eq!(pawns, ["a3a4", "a5a6", "a5b5"]);
    }
}
