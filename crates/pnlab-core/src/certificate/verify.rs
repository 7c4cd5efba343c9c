//! `pnlab verify`: checks a certificate with the game rules alone.
//!
//! This file uses the [`Game`] trait, the positions' parsers and the
//! certificate's own format, nothing of the searches: the root is parsed
//! from its notation (under the certificate's repetition rule, and wrapped
//! in the mate question's move count when the goal says `within N`);
//! every `one` move is parsed (which checks it is legal) and played; at
//! every `all` node the legal moves are generated again and must be
//! exactly the listed ones; every `end` must be a finished game whose
//! outcome is the written score and meets (for a proof) or misses (for a
//! disproof) the goal; no node may lie below itself (a cycle proves
//! nothing). The walk is depth first in the order the certificate lists
//! the moves, so the node reported is the first bad one in that order,
//! with the moves that lead to it.
//!
//! **Shared nodes.** A node reached by several paths is checked in full
//! on the first and, on every later one, must be the same position *with
//! the same history key* ([`Game::history_key`]): the part of the path
//! that can still change the play (in a cyclic graph the set of nodes on
//! the path, in xiangqi the earlier positions since the last irreversible
//! move, under `within N` the attacker's moves left). Why that is sound:
//! the rules make the legal moves and the outcome of every later position
//! a function of the position and that key, so every play from the second
//! arrival is a play from the first, with the same moves and the same
//! results; the subtree checked at the first arrival is a proof at the
//! second. Comparing the position alone would not do: in a graph with a
//! loop rule the same node can be won on one path and lost on another
//! (a move back into the path ends the play by the rule), and a
//! certificate sharing it between the two could prove a lost root.

use crate::game::within::{Within, HORIZON_SCORE};
use crate::game::{AnyPosition, Game, Outcome, ParseError};

use super::flaw::Flaw;
use super::format::{Certificate, CertificateGoal, NodeBody};

/// The outcome of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The certificate holds: the answer in words and the number of
    /// distinct positions checked.
    Valid {
        /// The question's answer in words (`win`, `not-lose`, …).
        answer: String,
        /// Distinct positions the check visited.
        positions: usize,
    },
    /// The first bad node: the moves from the root to it and what is wrong.
    Invalid {
        /// Moves from the root to the bad node, in notation.
        path: Vec<String>,
        /// What is wrong there.
        reason: Flaw,
    },
}

impl Verdict {
    /// `valid: …` / `invalid: …` as `pnlab verify` prints it.
    pub fn line(&self) -> String {
        match self {
            Verdict::Valid { answer, positions } => {
                format!("valid: {answer} ({positions} positions)")
            }
            Verdict::Invalid { path, reason } => {
                let at = if path.is_empty() {
                    "(root)".to_string()
                } else {
                    path.join(" ")
                };
                format!("invalid: {at}: {reason}")
            }
        }
    }
}

/// Checks `c`. A root position that does not parse is an error of the
/// file (located at the `position` line); everything else is a verdict.
pub fn verify(c: &Certificate) -> Result<Verdict, ParseError> {
    let root = root(c)?;
    Ok(crate::with_position!(&root, g => check(c, g.clone())))
}

/// The position a certificate starts from: its `position` in its game's
/// notation, under its repetition rule and, with a mate limit, wrapped so
/// that the attacker's moves are counted. A root that does not parse is an
/// error of the file (located at the `position` line).
pub fn root(c: &Certificate) -> Result<AnyPosition, ParseError> {
    let mut root = AnyPosition::parse(c.game, &c.position).map_err(|e| {
        ParseError::new(
            c.position_line,
            10,
            format!("expected a {} position: {}", c.game, e),
        )
    })?;
    if let Some(rule) = c.repetition {
        root = root
            .with_repetition(rule)
            .map_err(|e| ParseError::new(c.position_line, 1, e.to_string()))?;
    }
    if let Some(n) = c.within {
        // The mate question: the wrapper ends a play, lost by the
        // attacker, once the attacker has made `n` moves.
        root = AnyPosition::Within(Within::new(root, c.attacker, n));
    }
    Ok(root)
}

/// Whether a finished game meets the certificate's goal.
fn goal_met(c: &Certificate, o: Outcome) -> bool {
    let s = o.score_for(c.attacker);
    match c.goal {
        CertificateGoal::Win => s > 0,
        CertificateGoal::NotLose => s >= 0,
        CertificateGoal::AtLeast(v) => s >= v,
    }
}

fn answer_words(c: &Certificate) -> String {
    let words = goal_words(c);
    match c.within {
        Some(n) => format!("{words} within {n}"),
        None => words,
    }
}

fn goal_words(c: &Certificate) -> String {
    match (c.goal, c.proved) {
        (CertificateGoal::Win, true) => "win".into(),
        (CertificateGoal::Win, false) => "not-win".into(),
        (CertificateGoal::NotLose, true) => "not-lose".into(),
        (CertificateGoal::NotLose, false) => "loss".into(),
        (CertificateGoal::AtLeast(v), true) => format!("at-least {v}"),
        (CertificateGoal::AtLeast(v), false) => format!("less-than {v}"),
    }
}

/// Whether two paths reached the same position (see the module comment):
/// the same history key first (where the value depends on the path, the
/// part of it that matters must agree), then the same position, or one
/// with the same hash, side to move and legal moves (games whose
/// positions remember their move order, such as Connect Four, compare
/// unequal across transpositions).
fn same_position<G: Game>(a: &G, b: &G) -> bool {
    if a.history_key() != b.history_key() {
        return false;
    }
    if a == b {
        return true;
    }
    if a.hash() != b.hash() || a.to_move() != b.to_move() {
        return false;
    }
    let (mut ma, mut mb) = (Vec::new(), Vec::new());
    a.legal_moves(&mut ma);
    b.legal_moves(&mut mb);
    ma.len() == mb.len()
        && ma
            .iter()
            .zip(&mb)
            .all(|(&x, &y)| a.format_move(x) == b.format_move(y))
}

/// A node on the walk's stack: its id, position and the children still to
/// visit (move, child id, child position), in listed order.
struct Visit<G: Game> {
    id: u32,
    pending: Vec<(String, u32, G)>,
    next: usize,
}

const UNSEEN: u8 = 0;
const ON_PATH: u8 = 1;
const DONE: u8 = 2;

/// Walks the certificate depth first from `root`, checking each node
/// against the game's position there; a node reached again must stand
/// for the same position.
fn check<G: Game>(c: &Certificate, root: G) -> Verdict {
    let invalid = |path: &[String], reason: Flaw| Verdict::Invalid {
        path: path.to_vec(),
        reason,
    };
    if c.nodes.is_empty() {
        return invalid(&[], Flaw::NoNodes);
    }
    let mut state = vec![UNSEEN; c.nodes.len()];
    let mut seen_at: Vec<Option<G>> = vec![None; c.nodes.len()];
    let mut path: Vec<String> = Vec::new();
    let mut stack: Vec<Visit<G>> = Vec::new();
    let mut positions = 0usize;
    // The node to enter next: (move label, id, position).
    let mut enter: Option<(Option<String>, u32, G)> = Some((None, 0, root));
    loop {
        if let Some((mv, id, g)) = enter.take() {
            if let Some(m) = mv {
                path.push(m);
            }
            let i = id as usize;
            match state[i] {
                ON_PATH => {
                    return invalid(&path, Flaw::Cycle { node: id });
                }
                DONE => {
                    if !seen_at[i].as_ref().is_some_and(|s| same_position(s, &g)) {
                        return invalid(
                            &path,
                            Flaw::Transposition {
                                node: id,
                                here: g.notation(),
                            },
                        );
                    }
                    path.pop();
                    continue;
                }
                _ => {}
            }
            positions += 1;
            let pending = match children(c, id, &g) {
                Ok(pending) => pending,
                Err(reason) => return invalid(&path, reason),
            };
            state[i] = ON_PATH;
            seen_at[i] = Some(g);
            stack.push(Visit {
                id,
                pending,
                next: 0,
            });
        }
        // Continue the deepest node with children left, or finish it.
        let Some(top) = stack.last_mut() else {
            break;
        };
        if top.next < top.pending.len() {
            let (m, child, g) = top.pending[top.next].clone();
            top.next += 1;
            enter = Some((Some(m), child, g));
        } else {
            state[top.id as usize] = DONE;
            stack.pop();
            path.pop();
        }
    }
    Verdict::Valid {
        answer: answer_words(c),
        positions,
    }
}

/// The children to visit of node `id` at position `g` (move, child id,
/// child position), once the node is checked against the game: an end
/// where the game ends as it says, one move where the goal's side moves,
/// every legal move where the other side does. The reason when it is
/// wrong.
fn children<G: Game>(c: &Certificate, id: u32, g: &G) -> Result<Vec<(String, u32, G)>, Flaw> {
    let node = &c.nodes[id as usize];
    let one_side = if c.proved {
        c.attacker
    } else {
        c.attacker.other()
    };
    match (&node.body, g.outcome()) {
        (NodeBody::End(score), Some(o)) => {
            check_end(c, id, *score, o)?;
            Ok(Vec::new())
        }
        (NodeBody::End(_), None) => Err(Flaw::NotOver { node: id }),
        (_, Some(o)) if c.within.is_some() && o.score.abs() == HORIZON_SCORE => {
            Err(Flaw::PastTheLimit {
                node: id,
                attacker: c.attacker,
                moves: c.within.unwrap_or(0),
            })
        }
        (_, Some(o)) => Err(Flaw::Over {
            node: id,
            score: o.score,
        }),
        (NodeBody::One(m, child), None) => {
            if g.to_move() != one_side {
                return Err(Flaw::OneWhereAll {
                    node: id,
                    mover: g.to_move(),
                });
            }
            Ok(vec![(m.clone(), *child, after(id, g, m)?)])
        }
        (NodeBody::All(list), None) => {
            if g.to_move() == one_side {
                return Err(Flaw::AllWhereOne {
                    node: id,
                    mover: g.to_move(),
                });
            }
            check_all_listed(id, g, list)?;
            list.iter()
                .map(|(m, child)| Ok((m.clone(), *child, after(id, g, m)?)))
                .collect()
        }
    }
}

/// An end node: the game ends with the `score` it says, on the side of
/// the goal the certificate claims.
fn check_end(c: &Certificate, id: u32, score: i32, o: Outcome) -> Result<(), Flaw> {
    if o.score != score {
        return Err(Flaw::WrongScore {
            node: id,
            actual: o.score,
            claimed: score,
        });
    }
    if goal_met(c, o) != c.proved {
        return Err(Flaw::WrongSide {
            node: id,
            score: o.score,
            proved: c.proved,
        });
    }
    Ok(())
}

/// An `all` node lists exactly the legal moves of `g`.
fn check_all_listed<G: Game>(id: u32, g: &G, list: &[(String, u32)]) -> Result<(), Flaw> {
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    let mut names: Vec<String> = legal.iter().map(|&m| g.format_move(m)).collect();
    let mut listed: Vec<&str> = list.iter().map(|(m, _)| m.as_str()).collect();
    names.sort();
    listed.sort_unstable();
    if names.iter().map(String::as_str).eq(listed.iter().copied()) {
        return Ok(());
    }
    let missing: Vec<String> = names
        .iter()
        .filter(|n| !listed.contains(&n.as_str()))
        .cloned()
        .collect();
    Err(if missing.is_empty() {
        Flaw::NotTheLegalMoves {
            node: id,
            legal: names,
        }
    } else {
        Flaw::Unanswered { node: id, missing }
    })
}

/// The position after move `m` (in notation) of node `id` at `g`.
fn after<G: Game>(id: u32, g: &G, m: &str) -> Result<G, Flaw> {
    let mv = g.parse_move(m).map_err(|error| Flaw::BadMove {
        node: id,
        text: m.to_string(),
        error,
    })?;
    let mut next = g.clone();
    next.play(mv);
    Ok(next)
}
