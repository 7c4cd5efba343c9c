//! Variants of the static evaluation, so that an experiment can ask how
//! much of a result comes from the evaluation rather than the search.
//!
//! The thesis' RSCN study ran on Xiangqi Wizard, whose evaluation differs
//! from ours ([`eval`](super::eval)) in two ways that can be expressed
//! here without inventing numbers:
//!
//! - **which terms**: material and piece-square terms ([`EvalTerms::Full`],
//!   the default), or material alone ([`EvalTerms::Material`]);
//! - **the scale**: a percentage applied to the sum ([`EvalVariant::scale`]).
//!   The threshold T of single conspiracy numbers is compared with these
//!   values while a won game stays at ±[`WIN`], so the scale decides how
//!   far T = 600 is from the largest values a position can reach. Xiangqi
//!   Wizard Light's piece-square values (xqbase/xqwlight,
//!   `Applet/src/xqwlight/Position.java`, `PIECE_VALUE`) put a rook on its
//!   start square at 206, a horse at 88, a cannon at 96: about a third of
//!   ours (598, 270, 289), so `scale = 34` brings our numbers to that
//!   engine's scale.
//!
//! The default variant (full, 100%) is the evaluation every other part of
//! pnlab uses, read from the board's incremental sum; the others are
//! computed from it or from the pieces on the board.

use super::board::BLACK;
use super::eval::{material, WIN};
use super::Xiangqi;

crate::choice_enum! {
    /// Which terms the static evaluation sums.
    pub enum EvalTerms {
        /// Material plus piece-square terms ([`eval`](super::eval)).
        Full = "full",
        /// Material only (the published piece values, no position).
        Material = "material",
    }
}

/// The evaluation a position's [`Game::evaluate`](crate::game::Game::evaluate)
/// returns: which terms, times `scale` percent (rounded toward zero and
/// kept strictly inside ±[`WIN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvalVariant {
    /// The terms summed.
    pub terms: EvalTerms,
    /// Percentage applied to the sum (100: unchanged).
    pub scale: u32,
}

impl Default for EvalVariant {
    /// Material and position at 100%: pnlab's evaluation.
    fn default() -> Self {
        EvalVariant {
            terms: EvalTerms::Full,
            scale: 100,
        }
    }
}

impl Xiangqi {
    /// The evaluation variant this position is scored with.
    pub fn eval_variant(&self) -> EvalVariant {
        self.variant
    }

    /// The same position scored with another evaluation variant (the
    /// positions reached from it keep the variant).
    pub fn with_eval_variant(mut self, variant: EvalVariant) -> Xiangqi {
        self.variant = variant;
        self
    }

    /// Red's material minus Black's, by the published piece values alone
    /// (no piece-square terms).
    pub fn material_balance(&self) -> i32 {
        self.board()
            .pieces()
            .map(|(_, piece)| {
                let v = material(piece);
                if piece & BLACK != 0 {
                    -v
                } else {
                    v
                }
            })
            .sum()
    }

    /// The static evaluation under this position's variant, Red's view.
    pub fn variant_eval(&self) -> i32 {
        let v = self.variant;
        let raw = match v.terms {
            EvalTerms::Full => self.static_eval(),
            EvalTerms::Material => self.material_balance(),
        };
        if v.scale == 100 {
            return raw;
        }
        let scaled = i64::from(raw) * i64::from(v.scale) / 100;
        scaled.clamp(-i64::from(WIN - 1), i64::from(WIN - 1)) as i32
    }
}
