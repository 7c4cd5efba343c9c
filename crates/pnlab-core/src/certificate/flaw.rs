//! What is wrong at the first bad node of a certificate: typed, so that a
//! caller (a test, Python, a teacher's tool) can tell a forged end score
//! from a missing reply without reading the sentence.

use crate::game::{MoveError, Player};

/// Why a certificate does not hold, at its first bad node.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Flaw {
    /// The certificate lists no node at all.
    #[error("the certificate has no nodes")]
    NoNodes,
    /// A node is reached again below itself.
    #[error("node {node} lies below itself (a cycle)")]
    Cycle {
        /// The node.
        node: u32,
    },
    /// A shared node stands for different positions on two paths.
    #[error("node {node} is `{here}` here but another position on an earlier path")]
    Transposition {
        /// The node.
        node: u32,
        /// The position on this path, in notation.
        here: String,
    },
    /// An `end` node where the game goes on.
    #[error("node {node}: the game is not over here")]
    NotOver {
        /// The node.
        node: u32,
    },
    /// A node listing moves after the attacker's last allowed move.
    #[error("node {node}: {} has made its {moves} moves here, so the play ends without the goal, but the node lists moves", side_words(*attacker))]
    PastTheLimit {
        /// The node.
        node: u32,
        /// The side whose moves are counted.
        attacker: Player,
        /// Its move limit.
        moves: u32,
    },
    /// A node listing moves where the game is over.
    #[error("node {node}: the game is over here (score {score}) but the node lists moves")]
    Over {
        /// The node.
        node: u32,
        /// The game's final score there.
        score: i32,
    },
    /// One move where the defending side moves (every reply is needed).
    #[error("node {node}: {} moves here, so every move must be listed (`all`), not one", side_words(*mover))]
    OneWhereAll {
        /// The node.
        node: u32,
        /// The side to move.
        mover: Player,
    },
    /// A list where the proving side moves (one move is needed).
    #[error("node {node}: {} moves here and needs one move (`one`), not a list", side_words(*mover))]
    AllWhereOne {
        /// The node.
        node: u32,
        /// The side to move.
        mover: Player,
    },
    /// An end node with another score than the game's.
    #[error("node {node}: the game ends with score {actual} here, not {claimed}")]
    WrongScore {
        /// The node.
        node: u32,
        /// The game's score.
        actual: i32,
        /// The score the node claims.
        claimed: i32,
    },
    /// An end node on the wrong side of the goal.
    #[error("node {node}: the final score {score} {} the goal, so it cannot end a {}", if *proved { "misses" } else { "meets" }, if *proved { "proof" } else { "disproof" })]
    WrongSide {
        /// The node.
        node: u32,
        /// The final score.
        score: i32,
        /// The certificate claims a proof (true) or a disproof.
        proved: bool,
    },
    /// An `all` node whose moves are not the legal ones (extra or
    /// repeated moves).
    #[error("node {node}: the listed moves are not the legal moves ({})", legal.join(" "))]
    NotTheLegalMoves {
        /// The node.
        node: u32,
        /// The legal moves, sorted.
        legal: Vec<String>,
    },
    /// An `all` node that leaves legal replies out.
    #[error("node {node}: legal move(s) {} not answered", missing.join(" "))]
    Unanswered {
        /// The node.
        node: u32,
        /// The replies left out, sorted.
        missing: Vec<String>,
    },
    /// A listed move that does not play.
    #[error("node {node}: move `{text}`: {error}")]
    BadMove {
        /// The node.
        node: u32,
        /// The move as written.
        text: String,
        /// Why it does not play.
        error: MoveError,
    },
}

impl Flaw {
    /// The node the flaw is at (none for an empty certificate).
    pub fn node(&self) -> Option<u32> {
        match self {
            Flaw::NoNodes => None,
            Flaw::Cycle { node }
            | Flaw::Transposition { node, .. }
            | Flaw::NotOver { node }
            | Flaw::PastTheLimit { node, .. }
            | Flaw::Over { node, .. }
            | Flaw::OneWhereAll { node, .. }
            | Flaw::AllWhereOne { node, .. }
            | Flaw::WrongScore { node, .. }
            | Flaw::WrongSide { node, .. }
            | Flaw::NotTheLegalMoves { node, .. }
            | Flaw::Unanswered { node, .. }
            | Flaw::BadMove { node, .. } => Some(*node),
        }
    }
}

fn side_words(p: Player) -> &'static str {
    match p {
        Player::First => "the first player",
        Player::Second => "the second player",
    }
}
