//! The curated `positions/` folder, embedded in the binary (docs/architecture.md:
//! "a browser of the bundled positions/", issue #2 "embedded in the binary
//! so the app works from anywhere"). Paths are relative to the package
//! root, so a TOML file's `file = …` finds its embedded neighbour.

use super::BundledFile;

macro_rules! bundle {
    ($($path:literal),* $(,)?) => {
        &[$(BundledFile { path: concat!("positions/", $path), text: include_str!(concat!("../../../../positions/", $path)) }),*]
    };
}

/// Every file of `positions/`, README first.
pub static BUNDLED: &[BundledFile] = bundle![
    "README.md",
    "trees.toml",
    "alphabeta.toml",
    "trees/seesaw.tree",
    "trees/suitable-depth4.tree",
    "trees/lecture-mpn.tree",
    "trees/lecture-mdn.tree",
    "trees/lecture-pn-dn.tree",
    "trees/shared-node.tree",
    "trees/scores.tree",
    "trees/ppn-hints.tree",
    "trees/scn-vs-minimax.tree",
    "trees/scn-cutoff.tree",
    "trees/cns-interval.tree",
    "trees/chance-star1.tree",
    "trees/ghi-lecture.tree",
    "trees/ghi-lecture-h-first.tree",
    "trees/ghi-lecture-looper-wins.tree",
    "trees/om-trap.tree",
    "ewn.toml",
    "tictactoe.toml",
    "tictactoe.ttt",
    "connect4/Test_L3_R1-first12",
    "hex.toml",
    "hex/openings-3x3.hex",
    "othello/ffo-1-7.obf",
    "othello/jeffreyan11-13-empties.toml",
    "pgame.toml",
    "connect6/generated.toml",
    "xiangqi/mate-puzzles.toml",
    "xiangqi/start-and-perft.fen",
    "xiangqi/master-game.pgn",
];
