//! Proof certificates: a proved (or disproved) root written out as the
//! positions of a proof (or disproof) tree, checkable by the game rules
//! alone (`pnlab verify`).
//!
//! A proof of "the attacker's goal holds" picks one move at every node
//! where the attacker moves and lists every move where the defender
//! moves, down to finished games that meet the goal; a disproof is the
//! mirror image (the defender picks, the attacker's moves are all
//! listed, the leaves miss the goal). A position reached by two paths is
//! written once and referenced by its number from both.
//!
//! The text format (one item per line, `#` starts a comment line):
//!
//! ```text
//! pnlab-certificate 1
//! game othello
//! position "<the root in the game's notation, as a JSON string>"
//! repetition draw|perpetual-check-loses|none      (xiangqi only, optional)
//! attacker first|second
//! goal win|not-lose|at-least <v> [within <n>]
//! answer proved|disproved
//! nodes <count>
//! <id> one <move> <child id>
//! <id> all <move> <child id> <move> <child id> …
//! <id> end <score>
//! end
//! ```
//!
//! Node 0 is the root. `one` nodes are where the side that needs a single
//! good move moves, `all` nodes where every legal move must be answered,
//! `end` nodes finished games with their score from the first player's
//! point of view ([`crate::game::Outcome`]). Moves are in the game's
//! notation; a move containing spaces is written as a JSON string.
//!
//! `within n` is the mate question: the attacker must reach the goal
//! within `n` of its own moves. The checker counts the attacker's moves
//! along every line; a position where the attacker has made its `n` moves
//! without reaching the goal ends the play, lost by the attacker, with
//! the score ±[`HORIZON_SCORE`](crate::game::within::HORIZON_SCORE)
//! (beyond any game's scores; its sign is the defender's win) — a leaf of
//! a disproof, never of a proof.
//!
//! On a cyclic graph (a tree file with `loops = …`) and under a repetition
//! rule the value of a position depends on the path that reached it; a
//! node is then shared between paths only when the part of the path that
//! matters agrees ([`verify`] explains the rule and why it is sound).
//!
//! [`format`] reads and writes this text; [`verify`] checks a certificate
//! and shares nothing with the searches: it replays every move from the
//! root with the [`Game`](crate::game::Game) trait, regenerates the legal
//! moves of every `all` node, and checks every `end` against the game's
//! own outcome. The writer lives on the search side
//! ([`crate::search::proof`]).

mod flaw;
pub mod format;
pub mod verify;

pub use flaw::Flaw;
pub use format::{CertNode, Certificate, CertificateGoal, NodeBody};
pub use verify::{verify, Verdict};
