//! The tree view, the path view and the curves show a proof-number
//! search's root from one source: at every step the snapshot's root node,
//! the root frame of the MID path and the sample the curves plot carry the
//! same (pn, dn). (A teacher compares these three on the screen.)

use pnlab::game::{AnyPosition, GameKind};
use pnlab::search::snapshot::NodeKind;
use pnlab::search::{self, QuestionKind, SearchSetup, ViewRequest};

use crate::common;

fn check(algo: &str, kind: GameKind, notation: &str, pairs: &[(&str, &str)], steps: usize) {
    let position: AnyPosition = common::parse(kind, notation);
    let info = search::find_algo(algo).expect("registered");
    let setup = SearchSetup {
        position,
        params: info.params_from_pairs(kind, pairs).expect("parameters"),
        seed: 0,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let mut s = search::build(algo, &setup).expect("builds");
    let mut unit_only = true;
    for _ in 0..steps {
        if s.step().is_final() {
            break;
        }
        let sample = s.sample();
        let plotted = &sample.root_values[..2];
        // The tree view's request and the path view's (large trees).
        let tree = s.snapshot(&ViewRequest::default());
        let path = s.snapshot(&ViewRequest {
            path_view: true,
            ..ViewRequest::default()
        });
        assert_eq!(
            &path.nodes[0].values[..2],
            plotted,
            "{algo} on {notation:?}: path view's root against the curves at {} calls",
            sample.iteration
        );
        let snap = tree;
        let root = &snap.nodes[0];
        assert_eq!(
            &root.values[..2],
            plotted,
            "{algo} on {notation:?}: tree root against the curves at {} calls",
            sample.iteration
        );
        if let Some(f) = snap.frames.first() {
            // The path view shows (φ, δ): pn and dn as the mover sees them.
            let shown: Vec<f64> = f.values.iter().skip(2).map(|(_, v)| *v).collect();
            let mut want = plotted.to_vec();
            if root.kind != NodeKind::Or {
                want.reverse();
            }
            assert_eq!(shown, want, "{algo}: path root against the curves");
        }
        unit_only &= plotted == [1.0, 1.0];
    }
    assert!(!unit_only, "{algo}: the root's numbers never moved");
}

/// An Othello endgame with 13 empty squares (line 2 of jeffreyan11's
/// `eg_13_14.txt`, as bundled in positions/othello/).
const OTHELLO: &str = "XXXXX----XXXXX--OOXOX-O--OOXOOO-XOOOXXO--OOOXXXO-OOOOXXXXXXXXXOO O";

#[test]
fn every_df_pn_variant_shows_one_root() {
    for algo in ["dfpn", "dfpn-eps", "deep-dfpn"] {
        check(algo, GameKind::TicTacToe, ".........", &[], 800);
        check(algo, GameKind::Connect4, "4453", &[], 800);
        check(algo, GameKind::Othello, OTHELLO, &[], 400);
    }
    // The fast engine, with the frontier solver off so MID does the work.
    check("dfpn-fast", GameKind::TicTacToe, ".........", &[], 800);
    check(
        "dfpn-fast",
        GameKind::Connect4,
        "4453",
        &[("leaf_cells", "0")],
        800,
    );
}
