//! SCNS on Hex with virtual connections, as DeepHex plays (Pawlewicz &
//! Hayward 2015 ran SCNS over Benzene's connection engine).
//!
//! With `vcs` on, each node SCNS expands is first looked at with
//! H-search ([`crate::game::hex::vc::decide`], the one `dfpn-fast` uses):
//!
//! - a node whose mover has a virtual or semi-connection between its
//!   edges is a win for the mover, one whose opponent has a virtual
//!   connection a loss: the node becomes a finished leaf (value ±∞)
//!   instead of growing children, so a won or lost line is settled many
//!   moves before the board fills up;
//! - with `mustplay` (on by default, read only with `vcs`), only the moves
//!   inside the intersection of the carriers of the opponent's
//!   semi-connections are expanded: every other move lets the opponent
//!   connect, so leaving it out changes no value, and the sibling
//!   comparison evaluation ranks the moves that matter.
//!
//! The root is the exception: it is always expanded, so that a run names
//! the move that wins (the children settle in turn when expanded).
//!
//! Only expanded nodes pay for the search (two H-searches each), not the
//! children an expansion creates: an SCNS node is expanded once, and most
//! children never are.

use std::any::Any;

use crate::game::hex::vc::{decide, HSearchRules};
use crate::game::hex::{board_cells, Hex};
use crate::game::{Game, Player};
use crate::search::dfpn::fast::VC_WORK;
use crate::search::params::{ParamSpec, Params};
use crate::search::SearchError;

crate::options! {
    /// `scns`'s parameters on Hex positions.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ScnsHexParams {
        /// H-search at every expanded node.
        pub vcs: bool => {
            "vcs", flag = false,
            "H-search at every node SCNS expands, as DeepHex does: a virtual or semi-connection between the mover's edges wins, the opponent's virtual connection loses (the node becomes a finished leaf)"
        },
        /// Must-play restriction.
        pub mustplay: bool => {
            "mustplay", flag = true,
            "With vcs: expand only the moves inside the common cells of the opponent's semi-connections between its edges"
        },
        /// H-search work limit.
        pub vc_work: u32 => VC_WORK,
    }
}

/// `scns`'s parameters on Hex positions.
pub const SCNS_HEX_PARAMS: &[ParamSpec] = ScnsHexParams::PARAMS;

/// The knowledge an SCNS run on Hex uses (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexVcs {
    /// How far each H-search goes.
    pub rules: HSearchRules,
    /// Expand only the mustplay region.
    pub mustplay: bool,
}

impl HexVcs {
    /// The knowledge `params` ask for (a set holding [`SCNS_HEX_PARAMS`]),
    /// `None` when `vcs` is off.
    pub fn from_params(params: &Params) -> Result<Option<HexVcs>, SearchError> {
        let p = ScnsHexParams::from_params(&Params::taken_from(SCNS_HEX_PARAMS, params))?;
        Ok(p.vcs.then_some(HexVcs {
            rules: HSearchRules {
                max_work: p.vc_work,
                ..HSearchRules::default()
            },
            mustplay: p.mustplay,
        }))
    }

    /// What the connections say about `pos` (a Hex position with no
    /// winner yet; `None` for any other game): `Err` the winner, `Ok` the
    /// cells worth playing as a bit set.
    pub fn verdict<G: Game>(&self, pos: &G) -> Option<Result<u128, Player>> {
        let g = (pos as &dyn Any).downcast_ref::<Hex>()?;
        let n = g.size();
        let stones = g.stones();
        let empty = board_cells(n) & !(stones[0] | stones[1]);
        Some(decide(
            n,
            stones,
            g.to_move(),
            self.rules,
            self.mustplay,
            empty,
        ))
    }
}

/// Whether move `m`, a move of the Hex position whose [`HexVcs::verdict`]
/// gave `cells`, lies in `cells` (a move of another type always does).
pub fn move_in<M: Any>(cells: u128, m: M) -> bool {
    (&m as &dyn Any)
        .downcast_ref::<u8>()
        .is_none_or(|&c| cells.checked_shr(u32::from(c)).is_some_and(|b| b & 1 == 1))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::game::tictactoe::TicTacToe;
    use crate::search::reference::memo_value;

    #[test]
    fn other_games_are_left_alone() {
        let k = HexVcs {
            rules: HSearchRules::default(),
            mustplay: true,
        };
        assert_eq!(k.verdict(&TicTacToe::new()), None);
    }

    #[test]
    fn a_bridge_to_both_edges_is_a_win_for_the_mover() {
        // 3×3, Black at the centre b2: a two-cell template to each of
        // its edges, so a VC between them.
        let g = Hex::parse("3:b2").expect("a position");
        let k = HexVcs {
            rules: HSearchRules::default(),
            mustplay: true,
        };
        // White to move has lost.
        assert_eq!(k.verdict(&g), Some(Err(Player::First)));
        // One White stone in each of Black's two templates at the top
        // (b1) leaves Black an SC there, and Black, to move, wins.
        let g = Hex::parse("3:b2 b1").expect("a position");
        assert_eq!(k.verdict(&g), Some(Err(Player::First)));
    }

    #[test]
    fn verdicts_agree_with_the_exhaustive_values() {
        // Random 4×4 positions: a winner the connections name wins, and
        // every move outside the kept cells loses for the mover.
        let k = HexVcs {
            rules: HSearchRules::default(),
            mustplay: true,
        };
        let mut rng = SmallRng::seed_from_u64(36);
        let mut memo = HashMap::new();
        let (mut settled, mut narrowed) = (0, 0);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let plies = rng.random_range(3..9);
            let g = crate::game::hex::random_walk(4, plies, &mut rng);
            if g.outcome().is_some() {
                continue;
            }
            let mover = g.to_move();
            match k.verdict(&g).expect("a Hex position") {
                Err(winner) => {
                    settled += 1;
                    let v = memo_value(&g, &mut memo);
                    assert_eq!(v > 0, winner == mover, "{}", g.notation());
                }
                Ok(cells) => {
                    moves.clear();
                    g.legal_moves(&mut moves);
                    for &m in moves.iter().filter(|&&m| !move_in(cells, m)) {
                        let mut c = g;
                        c.play(m);
                        // The child's value is the opponent's: it wins.
                        assert!(memo_value(&c, &mut memo) > 0, "{} {m}", g.notation());
                    }
                    if moves.iter().any(|&m| !move_in(cells, m)) {
                        narrowed += 1;
                    }
                }
            }
        }
        assert!(
            settled > 100 && narrowed > 20,
            "{settled} settled, {narrowed} narrowed"
        );
    }
}
