//! Xiangqi game records: every game of the two master collections
//! (tests/data/xiangqi) replays move by move, and their final positions
//! agree with the counts tests/data/xiangqi/SOURCE.md records from the
//! data set's notes for the 2,531 games of the three files (checked there
//! with an independent generator and Fairy-Stockfish: 15 games end in
//! checkmate, 221 with the side to move in check, none in stalemate; the
//! 221 are the checks that are not mate); a broken record is a located error naming the game and the
//! ply, while the other games of the file still load.

use pnlab::game::xiangqi::record::{self, GameRecord};
use pnlab::game::xiangqi::Repetition;
use pnlab::game::{Game, Outcome};

const LIU: &str = include_str!("../data/xiangqi/Liu_Dahua_1125_UCI_games.pgn");
const HU: &str = include_str!("../data/xiangqi/Hu_Ronghua_1391_UCI_games.pgn");
const SAMPLE: &str = include_str!("../data/xiangqi/sample_15_UCI_games.pgn");

fn read_all(name: &str, text: &str) -> Vec<GameRecord> {
    record::read(text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// Number of moves written in a game's text (tokens that are not move
/// numbers), counted without the reader.
fn written_moves(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|t| !t.ends_with('.'))
        .count()
}

#[test]
fn every_master_game_replays() {
    let mut games = 0;
    let mut plies = 0;
    let (mut mates, mut in_check, mut stalemates) = (0, 0, 0);
    for (name, text, expected) in [
        ("Liu Dahua", LIU, 1125),
        ("Hu Ronghua", HU, 1391),
        ("sample", SAMPLE, 15),
    ] {
        let records = read_all(name, text);
        assert_eq!(records.len(), expected, "{name}");
        assert_eq!(records.len(), text.matches("[Event ").count());
        let moves: usize = records.iter().map(|r| r.moves.len()).sum();
        assert_eq!(moves, written_moves(text), "{name}");
        for r in &records {
            assert!(r.tag("Red").is_some() && r.tag("Black").is_some());
            // The final position, by the board alone (a record may repeat
            // positions, which real play allows).
            let last = r
                .position_after(r.moves.len())
                .with_repetition(Repetition::None);
            let no_moves = last.move_count() == 0;
            match (no_moves, last.in_check()) {
                (true, true) => mates += 1,
                (true, false) => stalemates += 1,
                _ => {}
            }
            if last.in_check() && !no_moves {
                in_check += 1;
            }
            if no_moves {
                // The side to move has lost.
                assert_eq!(
                    last.outcome(),
                    Some(Outcome::win_for(last.to_move().other()))
                );
            }
        }
        games += records.len();
        plies += moves;
    }
    eprintln!("replayed {games} games, {plies} plies");
    assert_eq!(games, 2531);
    assert_eq!((mates, in_check, stalemates), (15, 221, 0));
}

/// Along a game each position carries the path since the start; under the
/// rule `draw` a position that repeats an earlier one of the game is a
/// finished play, and the record still replays past it.
#[test]
fn record_positions_carry_their_path() {
    let records = read_all("sample", SAMPLE);
    let r = &records[0];
    let positions = r.positions();
    assert_eq!(positions.len(), r.moves.len() + 1);
    for (k, p) in positions.iter().enumerate() {
        assert_eq!(p, &r.position_after(k));
    }
    // Repeated positions: count them across both collections (for the
    // notes), and check each is a draw under the default rule.
    let mut repeated = 0;
    for text in [LIU, HU] {
        for r in read_all("", text) {
            for p in r.positions() {
                if p.is_repetition() {
                    repeated += 1;
                    assert_eq!(p.outcome(), Some(Outcome::DRAW));
                }
            }
        }
    }
    eprintln!("positions repeating an earlier one of their game: {repeated}");
}

/// An illegal move, a bad token and a bad FEN tag each fail their own
/// game, with the game's number, title and ply and the place in the file;
/// the games around them load.
#[test]
fn broken_records_fail_alone() {
    let games: Vec<&str> = SAMPLE.split("\n\n[").collect();
    assert!(games.len() >= 4);
    // Game 2: its 5th move (Red's 3rd) replaced by an illegal one.
    let g2 = games[1];
    let moves_line = g2.lines().find(|l| l.starts_with("1. ")).unwrap();
    let third_red = moves_line.split_whitespace().nth(7).unwrap();
    let bad2 = g2.replacen(&format!(" {third_red} "), " a0a9 ", 1);
    // Game 3: a token that is no move.
    let bad3 = games[2].replacen("1. ", "1. zz99 ", 1);
    // Game 4: a FEN tag that does not parse.
    let bad4 = games[3].replacen("]\n", "]\n[FEN \"rnbakabnr/9 w\"]\n", 1);
    let mut parts: Vec<String> = games.iter().map(|s| s.to_string()).collect();
    parts[1] = bad2;
    parts[2] = bad3;
    parts[3] = bad4;
    let text = parts.join("\n\n[");
    let read = record::read(&text);
    assert_eq!(read.len(), games.len());
    for (i, r) in read.iter().enumerate() {
        if !(1..=3).contains(&i) {
            assert!(r.is_ok(), "game {}: {:?}", i + 1, r.as_ref().err());
        }
    }
    let e2 = read[1].as_ref().unwrap_err();
    assert_eq!((e2.game, e2.ply), (2, Some(5)));
    assert!(e2.title.contains("LIU DianZhong"), "{e2}");
    let line = text[..text.find("a0a9").unwrap()].matches('\n').count() + 1;
    assert_eq!(e2.line, line);
    assert!(e2.message.contains("illegal move `a0a9`"), "{e2}");
    let e3 = read[2].as_ref().unwrap_err();
    assert_eq!((e3.game, e3.ply), (3, Some(1)));
    assert!(e3.message.contains("UCCI coordinates"), "{e3}");
    let e4 = read[3].as_ref().unwrap_err();
    assert_eq!((e4.game, e4.ply), (4, None));
    assert!(e4.message.contains("bad FEN tag"), "{e4}");
    // The message reads `LINE:COL: game N (title), ply P: …`.
    assert!(
        e2.to_string()
            .starts_with(&format!("{}:{}: game 2 (", e2.line, e2.col)),
        "{e2}"
    );
}
