//! The catalogue of what ships with pnlab: every bundled position and
//! every lesson of the course, with a one-line description, grouped by
//! game and by topic (lessons, teaching trees, puzzles, endgames, game
//! records, experiments). The app's browser and the web page draw it;
//! the grouping and the descriptions are decided here, once, and tested.
//!
//! Every bundled file has its topic and description in [`FILES`]; a test
//! fails when a file is bundled without one, so a new file is always
//! placed. A position that two files hold (a `.tree` file and the TOML
//! entry that names it) is listed once, from the TOML file, whose notes
//! describe it.

use std::collections::HashSet;

use crate::lesson::{bundled_lessons, Lesson};
use pnlab_core::game::GameKind;
use pnlab_core::positions::{bundled_entries, PositionEntry};

/// What a catalogue item is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topic {
    /// The course of `lessons/`.
    Lessons,
    /// Hand-written trees that show one idea each.
    TeachingTrees,
    /// Small positions with a known answer to solve or predict.
    Puzzles,
    /// Endgame test sets of real games (FFO, Pons, …).
    Endgames,
    /// Recorded games.
    Records,
    /// The inputs of the papers' experiments and benchmarks.
    Experiments,
}

impl Topic {
    /// Every topic, in the browser's order.
    pub const ALL: [Topic; 6] = [
        Topic::Lessons,
        Topic::TeachingTrees,
        Topic::Puzzles,
        Topic::Endgames,
        Topic::Records,
        Topic::Experiments,
    ];

    /// The heading the browser shows.
    pub fn title(self) -> &'static str {
        match self {
            Topic::Lessons => "Lessons",
            Topic::TeachingTrees => "Teaching trees",
            Topic::Puzzles => "Puzzles",
            Topic::Endgames => "Endgames",
            Topic::Records => "Game records",
            Topic::Experiments => "Experiments",
        }
    }
}

/// The topic and a one-line description of every bundled file.
pub const FILES: &[(&str, Topic, &str)] = &[
    (
        "positions/trees.toml",
        Topic::TeachingTrees,
        "Hand-written trees for the lecture's ideas",
    ),
    (
        "positions/alphabeta.toml",
        Topic::Experiments,
        "Positions of the single-conspiracy-number runs",
    ),
    (
        "positions/trees/seesaw.tree",
        Topic::TeachingTrees,
        "Two alike subtrees: the seesaw effect",
    ),
    (
        "positions/trees/suitable-depth4.tree",
        Topic::TeachingTrees,
        "DeepPN's suitable tree of depth 4",
    ),
    (
        "positions/trees/lecture-mpn.tree",
        Topic::TeachingTrees,
        "A most-proving node (lecture notes)",
    ),
    (
        "positions/trees/lecture-mdn.tree",
        Topic::TeachingTrees,
        "Most-disproving nodes (lecture notes)",
    ),
    (
        "positions/trees/lecture-pn-dn.tree",
        Topic::TeachingTrees,
        "Proof and disproof numbers (lecture notes)",
    ),
    (
        "positions/trees/shared-node.tree",
        Topic::TeachingTrees,
        "A transposition: one node, two parents",
    ),
    (
        "positions/trees/scores.tree",
        Topic::TeachingTrees,
        "Scores at the leaves: the value search",
    ),
    (
        "positions/trees/ppn-hints.tree",
        Topic::TeachingTrees,
        "Misleading win rates for PPN and MCPN",
    ),
    (
        "positions/trees/scn-vs-minimax.tree",
        Topic::TeachingTrees,
        "Single conspiracy number against minimax",
    ),
    (
        "positions/trees/scn-cutoff.tree",
        Topic::TeachingTrees,
        "A cut-off child changes the SCN",
    ),
    (
        "positions/trees/cns-interval.tree",
        Topic::TeachingTrees,
        "CNS narrows its interval to the value",
    ),
    (
        "positions/trees/chance-star1.tree",
        Topic::TeachingTrees,
        "Chance nodes and a Star1 cut-off",
    ),
    (
        "positions/trees/ghi-lecture.tree",
        Topic::TeachingTrees,
        "The graph history interaction (loops draw)",
    ),
    (
        "positions/trees/ghi-lecture-h-first.tree",
        Topic::TeachingTrees,
        "The GHI graph with the moves reordered",
    ),
    (
        "positions/trees/ghi-lecture-looper-wins.tree",
        Topic::TeachingTrees,
        "The GHI graph when the looper wins",
    ),
    (
        "positions/trees/om-trap.tree",
        Topic::TeachingTrees,
        "Opponent-model search: a trap",
    ),
    (
        "positions/ewn.toml",
        Topic::Puzzles,
        "EinStein würfelt nicht! positions with dice",
    ),
    (
        "positions/tictactoe.toml",
        Topic::Puzzles,
        "Tic-tac-toe openings with their results",
    ),
    (
        "positions/tictactoe.ttt",
        Topic::Puzzles,
        "Tic-tac-toe openings, one per line",
    ),
    (
        "positions/connect4/Test_L3_R1-first12",
        Topic::Endgames,
        "Connect Four endgames (Pons's Test_L3_R1)",
    ),
    (
        "positions/hex.toml",
        Topic::Puzzles,
        "Hex openings from 3×3 to 8×8 with their results",
    ),
    (
        "positions/hex/openings-3x3.hex",
        Topic::Puzzles,
        "Every Hex 3×3 opening move",
    ),
    (
        "positions/othello/ffo-1-7.obf",
        Topic::Endgames,
        "Othello FFO endgames #1-7 (14 empties)",
    ),
    (
        "positions/othello/jeffreyan11-13-empties.toml",
        Topic::Endgames,
        "Othello endgames with 13 empties and exact scores",
    ),
    (
        "positions/pgame.toml",
        Topic::Experiments,
        "P-game trees of the PPN paper",
    ),
    (
        "positions/connect6/generated.toml",
        Topic::Experiments,
        "Connect6 positions for Deep df-pn",
    ),
    (
        "positions/xiangqi/mate-puzzles.toml",
        Topic::Puzzles,
        "Xiangqi mate-in-N puzzles",
    ),
    (
        "positions/xiangqi/start-and-perft.fen",
        Topic::Experiments,
        "Xiangqi start and perft test positions",
    ),
    (
        "positions/xiangqi/master-game.pgn",
        Topic::Records,
        "A recorded xiangqi master game",
    ),
];

/// What an item opens.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// Position `entry` (1-based) of the file.
    Position {
        /// 1-based entry in the file.
        entry: usize,
        /// The position itself (for a thumbnail).
        position: Box<PositionEntry>,
    },
    /// A lesson.
    Lesson {
        /// Its steps.
        steps: usize,
        /// Class time in minutes, if the lesson says.
        minutes: Option<u32>,
        /// Its subject within the course (`proof numbers`, `df-pn`, …).
        subject: Option<String>,
    },
}

/// One entry of the catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The bundled file (`positions/…`, `lessons/…`).
    pub path: &'static str,
    /// Its name in the browser.
    pub title: String,
    /// One line saying what it shows.
    pub description: String,
    /// The games it uses (a lesson may use several; a position one).
    pub games: Vec<GameKind>,
    /// Its topic.
    pub topic: Topic,
    /// A position or a lesson.
    pub kind: ItemKind,
}

/// The topic and description of a bundled file, if [`FILES`] has it.
pub fn file_info(path: &str) -> Option<(Topic, &'static str)> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, t, d)| (t, d))
}

/// The first sentence of `text` on one line (at most about 120
/// characters, cut at a word).
pub fn one_line(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = flat
        .char_indices()
        .find(|&(i, c)| c == '.' && flat[i + 1..].starts_with(' ') && i > 20)
        .map(|(i, _)| i + 1)
        .unwrap_or(flat.len());
    let mut s = flat[..end].to_string();
    if s.chars().count() > 120 {
        let cut: String = s.chars().take(117).collect();
        let at = cut.rfind(' ').unwrap_or(cut.len());
        s = format!("{}…", &cut[..at]);
    }
    s
}

fn lesson_item(path: &'static str, l: &Lesson) -> Item {
    let mut games = Vec::new();
    for s in &l.steps {
        if let Some(p) = &s.position {
            if !games.contains(&p.value.game) {
                games.push(p.value.game);
            }
        }
    }
    Item {
        path,
        title: l.title.clone(),
        description: if l.summary.is_empty() {
            one_line(&l.steps[0].caption.plain_text())
        } else {
            one_line(&l.summary)
        },
        games,
        topic: Topic::Lessons,
        kind: ItemKind::Lesson {
            steps: l.steps.len(),
            minutes: l.minutes,
            subject: l.topic.clone(),
        },
    }
}

/// Every bundled position and lesson, lessons first (in course order),
/// then the positions in file order. Files that do not load in this
/// build are left out (the position and lesson tests load them all).
pub fn catalogue() -> Vec<Item> {
    let mut items: Vec<Item> = bundled_lessons()
        .into_iter()
        .filter_map(|(path, l)| l.ok().map(|l| lesson_item(path, &l)))
        .collect();
    let mut seen: HashSet<(GameKind, String)> = HashSet::new();
    for (path, entries) in bundled_entries() {
        let Ok(entries) = entries else { continue };
        let (topic, file_line) = file_info(path).unwrap_or((Topic::Experiments, ""));
        for (k, e) in entries.into_iter().enumerate() {
            if !seen.insert((e.game, e.position.notation())) {
                continue;
            }
            let description = if e.notes.is_empty() {
                file_line.to_string()
            } else {
                one_line(&e.notes)
            };
            items.push(Item {
                path,
                title: e.name.clone(),
                description,
                games: vec![e.game],
                topic,
                kind: ItemKind::Position {
                    entry: k + 1,
                    position: Box::new(e),
                },
            });
        }
    }
    items
}

/// Items grouped by topic, topics in [`Topic::ALL`] order, empty ones left out.
pub fn by_topic(items: &[Item]) -> Vec<(Topic, Vec<&Item>)> {
    Topic::ALL
        .iter()
        .map(|&t| (t, items.iter().filter(|i| i.topic == t).collect::<Vec<_>>()))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

/// Items grouped by game (a lesson under every game it uses), games in
/// the order they first appear.
pub fn by_game(items: &[Item]) -> Vec<(GameKind, Vec<&Item>)> {
    let mut out: Vec<(GameKind, Vec<&Item>)> = Vec::new();
    for i in items {
        for &g in &i.games {
            match out.iter_mut().find(|(k, _)| *k == g) {
                Some((_, v)) => v.push(i),
                None => out.push((g, vec![i])),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_keeps_the_first_sentence() {
        assert_eq!(
            one_line("Two subtrees of the same shape: PNS switches between them. More."),
            "Two subtrees of the same shape: PNS switches between them."
        );
        assert_eq!(one_line("Short.\nSecond line."), "Short. Second line.");
        assert_eq!(
            one_line("Hsu's slides: h is a most-proving node for a. Then"),
            "Hsu's slides: h is a most-proving node for a."
        );
        let long = "word ".repeat(60);
        let l = one_line(&long);
        assert!(l.ends_with('…') && l.chars().count() <= 120, "{l}");
    }
}
