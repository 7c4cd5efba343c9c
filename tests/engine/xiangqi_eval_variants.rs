//! The xiangqi evaluation variants (`eval` and `eval-scale` of `pnlab
//! experiment rscn`): material only counts the published piece values
//! (Yen, Chen, Yang & Hsu 2004: pawn 30, advisor and elephant 120, horse
//! 270, cannon 285, rook 600), the scale multiplies the evaluation, and
//! the alpha-beta search sees the variant.

use pnlab::game::xiangqi::{EvalTerms, EvalVariant, Xiangqi};
use pnlab::game::Game;
use pnlab::search::alphabeta::sequence::curves_of;
use pnlab::search::alphabeta::{AlphaBetaOptions, MoveOrder};

use crate::common;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn material(fen: &str, scale: u32) -> i32 {
    Xiangqi::parse(fen)
        .unwrap()
        .with_eval_variant(EvalVariant {
            terms: EvalTerms::Material,
            scale,
        })
        .evaluate()
        .unwrap()
}

/// The handicap openings of the RSCN study lack exactly the named pieces:
/// material only gives minus their published values.
#[test]
fn material_only_counts_the_missing_pieces() {
    assert_eq!(material(START, 100), 0);
    let handicaps = [
        ("1NBAKABNR", -600),
        ("1NBAKABN1", -1200),
        ("R1BAKABNR", -270),
        ("R1BAKAB1R", -540),
    ];
    for (back_rank, want) in handicaps {
        let fen = START.replace("RNBAKABNR", back_rank);
        assert_eq!(material(&fen, 100), want, "{back_rank}");
    }
    let no_cannon = START.replace("1C5C1/9/RNBAKABNR", "7C1/9/RNBAKABNR");
    assert_eq!(material(&no_cannon, 100), -285);
    // A third of a rook, rounded toward zero.
    assert_eq!(material(&START.replace("RNBAKABNR", "1NBAKABNR"), 34), -204);
    // Colours swapped and the board turned: the sign flips.
    assert_eq!(material("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", 100), 600);
    assert_eq!(material("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", 100), -600);
}

/// The default variant is the evaluation every other part uses; a scale
/// multiplies it (rounded toward zero) on positions of a real opening.
#[test]
fn the_scale_multiplies_the_full_evaluation() {
    let mut g = Xiangqi::parse(START).unwrap();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "e2e6"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
        let full = g.static_eval();
        assert_eq!(g.evaluate(), Some(full), "default after {m}");
        for scale in [1, 34, 50, 250] {
            let scaled = g.clone().with_eval_variant(EvalVariant {
                terms: EvalTerms::Full,
                scale,
            });
            let want = (i64::from(full) * i64::from(scale) / 100) as i32;
            assert_eq!(scaled.evaluate(), Some(want), "{scale}% after {m}");
        }
    }
    assert_ne!(
        g.static_eval(),
        g.material_balance(),
        "the tables add something"
    );
}

/// A lone rook against a bare general, two plies deep: Red cannot
/// mate or stalemate in one move (the general on f9 keeps e9 or f8
/// whatever the rook covers, and Red's general on d0 does not face it),
/// and no move changes the material, so material only values the root at
/// exactly a rook (600, or 300 at half scale), while the full evaluation
/// adds the rook's best square (more than 600). The variant survives the
/// moves the search makes.
#[test]
fn the_search_sees_the_variant() {
    let g = Xiangqi::parse("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    let opts = AlphaBetaOptions {
        threshold: 600,
        max_depth: 2,
        prune: true,
        order: MoveOrder::Game,
        record_limit: 0,
    };
    let value = |variant: EvalVariant| {
        let (curve, _) = curves_of(&g.clone().with_eval_variant(variant), &opts);
        curve.last().unwrap().value
    };
    let terms = |terms, scale| EvalVariant { terms, scale };
    assert_eq!(value(terms(EvalTerms::Material, 100)), 600);
    assert_eq!(value(terms(EvalTerms::Material, 50)), 300);
    assert!(value(terms(EvalTerms::Full, 100)) > 600);
}

/// The experiment's settings reject an unknown variant and a scale out of
/// range, naming the setting (exit 2).
#[test]
fn the_experiment_checks_its_evaluation_settings() {
    let dir = std::env::temp_dir().join(format!("pnlab-eval-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.to_str().unwrap();
    for (set, named) in [
        ("eval=wizard", "eval"),
        ("eval-scale=0", "eval-scale"),
        ("eval-scale=301", "eval-scale"),
    ] {
        let (code, _, err) = common::pnlab(&[
            "experiment",
            "rscn",
            "--set",
            "set=handicap",
            "--set",
            set,
            "--out",
            out,
        ]);
        assert_eq!(code, 2, "{set}: {err}");
        assert!(err.contains(named), "{set}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
