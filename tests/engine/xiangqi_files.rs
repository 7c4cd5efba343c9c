//! Xiangqi in files and on the command line: `.fen` lines, game-record
//! files (a broken game fails alone), TOML `within` and `repetition`, and
//! `pnlab perft` / `pnlab solve --within --repetition` (docs/cli.md).

use pnlab::game::xiangqi::{Repetition, START_FEN};
use pnlab::game::{AnyPosition, GameKind};
use pnlab::positions::{load_text, load_text_partial, Format};

use crate::common;
use common::{pnlab, pnlab_json, pnlab_refused};

/// A mate in 1 (puzzle_0 of the data: e7e8 mates) and a mate in 2
/// (puzzle_1061).
const MATE1: &str = "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1";
const MATE2: &str = "5aC2/3k5/3a1P3/4c4/2b1N1n1p/9/P8/B8/4A4/3A1K3 w - - 0 1";

#[test]
fn fen_files_name_and_locate() {
    let text = format!("; two positions\n{START_FEN}\n  {MATE1} ; a mate in one\n");
    assert_eq!(Format::sniff(&text), Some(Format::Fen));
    let entries = load_text("p.fen", &text).unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].name, "p #1");
    assert_eq!(entries[1].name, "a mate in one");
    assert_eq!((entries[1].line, entries[1].game), (3, GameKind::Xiangqi));
    // A bad piece letter on line 3, column 3 + its column in the FEN.
    let bad = text.replace("2Rckab1C", "2Rckab1Q");
    let e = load_text("p.fen", &bad).unwrap_err();
    assert_eq!((e.error.line, e.error.col), (3, 10));
    assert!(
        e.to_string()
            .starts_with("p.fen:3:10: unknown piece letter `Q`"),
        "{e}"
    );
}

#[test]
fn record_files_keep_the_good_games() {
    let text = include_str!("../data/xiangqi/sample_15_UCI_games.pgn");
    assert_eq!(Format::sniff(text), Some(Format::Records));
    let (entries, errors) = load_text_partial("s.pgn", text);
    assert_eq!((entries.len(), errors.len()), (15, 0));
    let first = &entries[0];
    let rec = first
        .record
        .as_ref()
        .expect("a record entry carries its game");
    assert_eq!(rec.moves.len(), 127); // "… 63. d3f3 f1g1 64. f3g3": 63 pairs and one move
    assert_eq!(rec.position_after(rec.moves.len()).unwrap(), first.position);
    assert_eq!(
        rec.position_after(0).unwrap().notation(),
        START_FEN,
        "records start from the standard position"
    );
    assert!(
        first.name.starts_with("s #1: ZHAO GuoRong – KE YongQing"),
        "{}",
        first.name
    );

    // Game 2 broken: an error naming game 2 and the ply; 14 games load.
    let broken = text.replacen("1. h2e2 b9c7 2. h0g2 h7f7", "1. h2e2 b9c7 2. h0h9 h7f7", 1);
    let (entries, errors) = load_text_partial("s.pgn", &broken);
    assert_eq!((entries.len(), errors.len()), (14, 1));
    let msg = errors[0].to_string();
    // Game 2: tags on lines 7-9, moves on line 11; `h0h9` is its 17th character.
    assert!(msg.starts_with("s.pgn:11:17: "), "{msg}");
    assert!(msg.contains("game 2 (LIU DianZhong – LIU DaHua"), "{msg}");
    assert!(msg.contains("ply 3: illegal move `h0h9`"), "{msg}");
    // The strict reader reports the same error.
    assert_eq!(load_text("s.pgn", &broken).unwrap_err(), errors[0]);
}

#[test]
fn toml_within_and_repetition() {
    let toml = format!(
        "[[position]]\ngame = \"xiangqi\"\nposition = \"{MATE2}\"\nwithin = 2\nrepetition = \"perpetual-check-loses\"\nexpected = \"win\"\n"
    );
    let e = &load_text("x.toml", &toml).unwrap()[0];
    assert_eq!(e.position.within_limit(), Some(2));
    match e.position.shown() {
        AnyPosition::Xiangqi(g) => assert_eq!(g.repetition(), Repetition::PerpetualCheckLoses),
        other => panic!("{other:?}"),
    }
    let bad = toml.replace("perpetual-check-loses", "sometimes");
    let err = load_text("x.toml", &bad).unwrap_err();
    assert_eq!(err.error.line, 5);
    assert!(
        err.error
            .expected
            .contains("unknown repetition rule `sometimes`"),
        "{err}"
    );
    let neg = toml.replace("within = 2", "within = -1");
    assert_eq!(load_text("x.toml", &neg).unwrap_err().error.line, 4);
    // A repetition rule on a game without one.
    let ttt =
        "[[position]]\ngame = \"tictactoe\"\nposition = \".........\"\nrepetition = \"draw\"\n";
    let err = load_text("t.toml", ttt).unwrap_err();
    assert!(
        err.error.expected.contains("xiangqi positions only"),
        "{err}"
    );
}

#[test]
fn perft_on_the_command_line() {
    // Published counts (chessprogramming.org, via the data's sources).
    let (code, out, _) = pnlab(&["perft", "--game", "xiangqi", START_FEN, "--depth", "3"]);
    assert_eq!((code, out.trim()), (0, "79666"));
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let (code, out, _) = pnlab(&["perft", "--game", "xiangqi", fen, "--depth", "3"]);
    assert_eq!((code, out.trim()), (0, "43929"));
    let err = pnlab_refused(&["perft", "--game", "xiangqi", "4k4/9 w", "--depth", "1"]);
    assert!(err.contains("<inline>:1:"), "{err}");
}

#[test]
fn solve_within_and_repetition_on_the_command_line() {
    let v = pnlab_json(&[
        "solve", "--game", "xiangqi", MATE2, "--within", "2", "--algo", "dfpn", "--json",
    ]);
    assert_eq!(v["outcome"], "proved");
    assert_eq!(v["within"], 2);
    assert_eq!(v["repetition"], "draw");
    assert_eq!(v["game"], "xiangqi");
    let v = pnlab_json(&[
        "solve",
        "--game",
        "xiangqi",
        MATE2,
        "--within",
        "1",
        "--json",
        "--repetition",
        "perpetual-check-loses",
    ]);
    assert_eq!(
        (v["outcome"].as_str(), v["repetition"].as_str()),
        (Some("disproved"), Some("perpetual-check-loses"))
    );
    // Any game: x wins tic-tac-toe within 1 here, not within 0.
    let (_, out, _) = pnlab(&["solve", "--game", "tictactoe", "xx.oo....", "--within", "1"]);
    assert!(out.contains("proved (win)"), "{out}");
    let err = pnlab_refused(&[
        "solve",
        "--game",
        "tictactoe",
        "xx.oo....",
        "--repetition",
        "draw",
    ]);
    assert!(err.contains("xiangqi positions only"), "{err}");
    let err = pnlab_refused(&["solve", "--game", "xiangqi", MATE2, "--repetition", "never"]);
    assert!(err.contains("unknown repetition rule `never`"), "{err}");
}

/// A record file with one broken game: the error on stderr names the game
/// and ply, the other games are solved, the exit status is 2.
#[test]
fn solve_a_record_file_with_a_broken_game() {
    let text = include_str!("../data/xiangqi/sample_15_UCI_games.pgn").replacen(
        "1. h2e2 b9c7 2. h0g2 h7f7",
        "1. h2e2 b9c7 2. h0h9 h7f7",
        1,
    );
    let dir = std::env::temp_dir().join(format!("pnlab-xq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = pnlab(&[
        "solve",
        path.to_str().unwrap(),
        "--within",
        "1",
        "--algo",
        "dfpn",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), 14, "{out}");
    assert!(err.contains("game 2 (") && err.contains("ply 3"), "{err}");
}
