//! `pnlab verify`: checks a certificate with the game rules alone.
//!
//! This file uses the [`Game`] trait, the positions' parsers and the
//! certificate's own format, nothing of the searches: the root is parsed
//! from its notation; every `one` move is parsed (which checks it is
//! legal) and played; at every `all` node the legal moves are generated
//! again and must be exactly the listed ones; every `end` must be a
//! finished game whose outcome is the written score and meets (for a
//! proof) or misses (for a disproof) the goal; a node reached by several
//! paths must be the same position on each, and no node may lie below
//! itself (a cycle proves nothing). The walk is depth first in the order
//! the certificate lists the moves, so the node reported is the first bad
//! one in that order, with the moves that lead to it.

use crate::game::{AnyPosition, Game, Outcome, ParseError, Player};

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
        reason: String,
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
    let root = AnyPosition::parse(c.game, &c.position).map_err(|e| {
        ParseError::new(
            c.position_line,
            10,
            format!("expected a {} position: {}", c.game, e),
        )
    })?;
    Ok(crate::with_position!(&root, g => check(c, g.clone())))
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
    match (c.goal, c.proved) {
        (CertificateGoal::Win, true) => "win".into(),
        (CertificateGoal::Win, false) => "not-win".into(),
        (CertificateGoal::NotLose, true) => "not-lose".into(),
        (CertificateGoal::NotLose, false) => "loss".into(),
        (CertificateGoal::AtLeast(v), true) => format!("at-least {v}"),
        (CertificateGoal::AtLeast(v), false) => format!("less-than {v}"),
    }
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "the first player",
        Player::Second => "the second player",
    }
}

/// Whether two paths reached the same position (see the module comment).
fn same_position<G: Game>(a: &G, b: &G) -> bool {
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

fn check<G: Game>(c: &Certificate, root: G) -> Verdict {
    let invalid = |path: &[String], reason: String| Verdict::Invalid {
        path: path.to_vec(),
        reason,
    };
    if c.nodes.is_empty() {
        return invalid(&[], "the certificate has no nodes".into());
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
                    return invalid(&path, format!("node {id} lies below itself (a cycle)"));
                }
                DONE => {
                    if !seen_at[i].as_ref().is_some_and(|s| same_position(s, &g)) {
                        return invalid(
                            &path,
                            format!(
                                "node {id} is `{}` here but another position on an earlier path",
                                g.notation()
                            ),
                        );
                    }
                    path.pop();
                    continue;
                }
                _ => {}
            }
            positions += 1;
            let node = &c.nodes[i];
            let outcome = g.outcome();
            let one_side = if c.proved {
                c.attacker
            } else {
                c.attacker.other()
            };
            let pending = match (&node.body, outcome) {
                (NodeBody::End(score), Some(o)) => {
                    if o.score != *score {
                        return invalid(
                            &path,
                            format!(
                                "node {id}: the game ends with score {} here, not {score}",
                                o.score
                            ),
                        );
                    }
                    if goal_met(c, o) != c.proved {
                        return invalid(
                            &path,
                            format!(
                                "node {id}: the final score {} {} the goal, so it cannot end a {}",
                                o.score,
                                if c.proved { "misses" } else { "meets" },
                                if c.proved { "proof" } else { "disproof" }
                            ),
                        );
                    }
                    Vec::new()
                }
                (NodeBody::End(_), None) => {
                    return invalid(&path, format!("node {id}: the game is not over here"));
                }
                (_, Some(o)) => {
                    return invalid(
                        &path,
                        format!(
                            "node {id}: the game is over here (score {}) but the node lists moves",
                            o.score
                        ),
                    );
                }
                (NodeBody::One(m, child), None) => {
                    if g.to_move() != one_side {
                        return invalid(
                            &path,
                            format!(
                                "node {id}: {} moves here, so every move must be listed (`all`), not one",
                                player_name(g.to_move())
                            ),
                        );
                    }
                    let mv = match g.parse_move(m) {
                        Ok(mv) => mv,
                        Err(e) => return invalid(&path, format!("node {id}: move `{m}`: {e}")),
                    };
                    let mut next = g.clone();
                    next.play(mv);
                    vec![(m.clone(), *child, next)]
                }
                (NodeBody::All(list), None) => {
                    if g.to_move() == one_side {
                        return invalid(
                            &path,
                            format!(
                                "node {id}: {} moves here and needs one move (`one`), not a list",
                                player_name(g.to_move())
                            ),
                        );
                    }
                    let mut legal = Vec::new();
                    g.legal_moves(&mut legal);
                    let mut names: Vec<String> = legal.iter().map(|&m| g.format_move(m)).collect();
                    let mut listed: Vec<&str> = list.iter().map(|(m, _)| m.as_str()).collect();
                    names.sort();
                    listed.sort_unstable();
                    if names.iter().map(String::as_str).ne(listed.iter().copied()) {
                        let missing: Vec<&str> = names
                            .iter()
                            .map(String::as_str)
                            .filter(|n| !listed.contains(n))
                            .collect();
                        let reason = if missing.is_empty() {
                            format!(
                                "node {id}: the listed moves are not the legal moves ({})",
                                names.join(" ")
                            )
                        } else {
                            format!(
                                "node {id}: legal move(s) {} not answered",
                                missing.join(" ")
                            )
                        };
                        return invalid(&path, reason);
                    }
                    let mut out = Vec::with_capacity(list.len());
                    for (m, child) in list {
                        let mv = match g.parse_move(m) {
                            Ok(mv) => mv,
                            Err(e) => return invalid(&path, format!("node {id}: move `{m}`: {e}")),
                        };
                        let mut next = g.clone();
                        next.play(mv);
                        out.push((m.clone(), *child, next));
                    }
                    out
                }
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
