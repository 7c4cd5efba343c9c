//! The certificate text format (see the [module](super) documentation):
//! the typed form, the writer and the parser with located errors.

use crate::game::xiangqi::Repetition;
use crate::game::{GameKind, ParseError, Player};

/// The magic first line.
pub const MAGIC: &str = "pnlab-certificate 1";

/// The question a certificate answers, as the verifier checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertificateGoal {
    /// The attacker's final score is > 0.
    Win,
    /// The attacker's final score is ≥ 0.
    NotLose,
    /// The attacker's final score is ≥ v.
    AtLeast(i32),
}

/// What a node line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeBody {
    /// One move (in notation) and the node it leads to.
    One(String, u32),
    /// Every legal move with the node it leads to.
    All(Vec<(String, u32)>),
    /// A finished game and its score (first player's view).
    End(i32),
}

/// One node line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertNode {
    /// The node's number, which `All` lines refer to.
    pub id: u32,
    /// What the line says: one attacker move, every defender move, or a finished game.
    pub body: NodeBody,
    /// 1-based line of the node in the text it was read from (0 when built
    /// in memory).
    pub line: usize,
}

/// A certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The game, which fixes how `position` and the moves read.
    pub game: GameKind,
    /// The root in the game's notation.
    pub position: String,
    /// The player whose question the certificate answers.
    pub attacker: Player,
    /// What the attacker was asked to reach.
    pub goal: CertificateGoal,
    /// The mate question's limit: the attacker must reach the goal within
    /// this many of its own moves (a play ends, lost by the attacker, once
    /// it has made them all without reaching it). `None`: no limit.
    pub within: Option<u32>,
    /// The xiangqi repetition rule the play follows (`None` for other
    /// games; a xiangqi certificate without the line means the default
    /// rule, `draw`).
    pub repetition: Option<Repetition>,
    /// True for a proof, false for a disproof.
    pub proved: bool,
    /// Nodes by id (node `i` at index `i`).
    pub nodes: Vec<CertNode>,
    /// Free comment lines written after the header (e.g. how the
    /// certificate was made).
    pub comments: Vec<String>,
    /// 1-based line of the `position` header in the text it was read from
    /// (0 when built in memory), for locating a bad position.
    pub position_line: usize,
}

/// A move token: bare when it has no whitespace and does not start with a
/// quote, else a JSON string.
fn move_token(m: &str) -> String {
    if m.is_empty() || m.starts_with('"') || m.chars().any(char::is_whitespace) {
        serde_json::Value::String(m.to_string()).to_string()
    } else {
        m.to_string()
    }
}

impl Certificate {
    /// The certificate as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        out.push_str(MAGIC);
        out.push('\n');
        for c in &self.comments {
            out.push_str("# ");
            out.push_str(c);
            out.push('\n');
        }
        out.push_str(&format!("game {}\n", self.game.name()));
        out.push_str(&format!(
            "position {}\n",
            serde_json::Value::String(self.position.clone())
        ));
        if let Some(r) = self.repetition {
            out.push_str(&format!("repetition {}\n", r.name()));
        }
        out.push_str(match self.attacker {
            Player::First => "attacker first\n",
            Player::Second => "attacker second\n",
        });
        out.push_str(&match self.goal {
            CertificateGoal::Win => "goal win".to_string(),
            CertificateGoal::NotLose => "goal not-lose".to_string(),
            CertificateGoal::AtLeast(v) => format!("goal at-least {v}"),
        });
        if let Some(n) = self.within {
            out.push_str(&format!(" within {n}"));
        }
        out.push('\n');
        out.push_str(if self.proved {
            "answer proved\n"
        } else {
            "answer disproved\n"
        });
        out.push_str(&format!("nodes {}\n", self.nodes.len()));
        for n in &self.nodes {
            match &n.body {
                NodeBody::One(m, c) => {
                    out.push_str(&format!("{} one {} {c}\n", n.id, move_token(m)))
                }
                NodeBody::All(list) => {
                    out.push_str(&format!("{} all", n.id));
                    for (m, c) in list {
                        out.push_str(&format!(" {} {c}", move_token(m)));
                    }
                    out.push('\n');
                }
                NodeBody::End(s) => out.push_str(&format!("{} end {s}\n", n.id)),
            }
        }
        out.push_str("end\n");
        out
    }

    /// Number of positions (nodes) in the certificate.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Parses a certificate; errors are located (line, column) and say
    /// what was expected.
    pub fn parse(text: &str) -> Result<Certificate, ParseError> {
        Parser::new(text).certificate()
    }
}

/// A token of a line with its 1-based column.
struct Token<'a> {
    text: std::borrow::Cow<'a, str>,
    col: usize,
}

/// Splits a line into tokens: runs of non-space characters, or JSON
/// strings.
fn tokens(line: &str, line_no: usize) -> Result<Vec<Token<'_>>, ParseError> {
    let mut out = Vec::new();
    let mut rest = line;
    let mut offset = 0;
    loop {
        let trimmed = rest.trim_start();
        offset += rest.len() - trimmed.len();
        rest = trimmed;
        if rest.is_empty() {
            return Ok(out);
        }
        let col = line[..offset].chars().count() + 1;
        if rest.starts_with('"') {
            // The end of the JSON string: the first quote not escaped.
            let bytes = rest.as_bytes();
            let mut i = 1;
            let mut end = None;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => {
                        end = Some(i);
                        break;
                    }
                    _ => i += 1,
                }
            }
            let end = end.ok_or_else(|| {
                ParseError::new(line_no, col, "expected a closing `\"` of the string")
            })?;
            let s: String = serde_json::from_str(&rest[..=end]).map_err(|e| {
                ParseError::new(line_no, col, format!("expected a JSON string ({e})"))
            })?;
            out.push(Token {
                text: s.into(),
                col,
            });
            offset += end + 1;
            rest = &rest[end + 1..];
        } else {
            let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(Token {
                text: rest[..len].into(),
                col,
            });
            offset += len;
            rest = &rest[len..];
        }
    }
}

struct Parser<'a> {
    lines: Vec<(usize, &'a str)>,
    next: usize,
    last_line: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .collect();
        let last_line = text.lines().count().max(1);
        Parser {
            lines,
            next: 0,
            last_line,
        }
    }

    /// The next significant line, or an error at the end of the text.
    fn line(&mut self, what: &str) -> Result<(usize, &'a str), ParseError> {
        let l = self.lines.get(self.next).copied().ok_or_else(|| {
            ParseError::new(
                self.last_line + 1,
                1,
                format!("expected {what}, found the end of the file (cut short?)"),
            )
        })?;
        self.next += 1;
        Ok(l)
    }

    /// The first word of the next significant line, if any (for optional
    /// header lines).
    fn peek_key(&self) -> Option<&'a str> {
        self.lines
            .get(self.next)
            .and_then(|(_, l)| l.split_whitespace().next())
    }

    /// A `KEY VALUE…` header line; returns the tokens after the key.
    fn header(&mut self, key: &str) -> Result<(usize, Vec<Token<'a>>), ParseError> {
        let (n, l) = self.line(&format!("`{key} …`"))?;
        let toks = tokens(l, n)?;
        match toks.first() {
            Some(t) if t.text == key => Ok((n, toks.into_iter().skip(1).collect())),
            Some(t) => Err(ParseError::new(
                n,
                t.col,
                format!("expected `{key}`, found `{}`", t.text),
            )),
            None => Err(ParseError::new(n, 1, format!("expected `{key}`"))),
        }
    }

    fn one_value(&mut self, key: &str) -> Result<(usize, Token<'a>), ParseError> {
        let (n, toks) = self.header(key)?;
        let end_col = toks.last().map_or(key.len() + 2, |t| t.col);
        let mut it = toks.into_iter();
        let v = it.next().ok_or_else(|| {
            ParseError::new(n, end_col, format!("expected a value after `{key}`"))
        })?;
        if let Some(extra) = it.next() {
            return Err(ParseError::new(
                n,
                extra.col,
                format!("expected the end of the line, found `{}`", extra.text),
            ));
        }
        Ok((n, v))
    }

    fn certificate(mut self) -> Result<Certificate, ParseError> {
        let (n, l) = self.line("the first line `pnlab-certificate 1`")?;
        if l.trim() != MAGIC {
            return Err(ParseError::new(
                n,
                1,
                format!("expected `{MAGIC}` (a pnlab proof certificate)"),
            ));
        }
        let (n, g) = self.one_value("game")?;
        let game: GameKind = g
            .text
            .parse()
            .map_err(|e: crate::game::UnknownGame| ParseError::new(n, g.col, e.to_string()))?;
        let (position_line, position) = self.one_value("position")?;
        let repetition = if self.peek_key() == Some("repetition") {
            let (n, r) = self.one_value("repetition")?;
            let rule = Repetition::from_name(&r.text)
                .map_err(|e| ParseError::new(n, r.col, e.to_string()))?;
            if game != GameKind::Xiangqi {
                return Err(ParseError::new(
                    n,
                    1,
                    format!("expected `attacker …`: a repetition rule applies to xiangqi only, not to {game}"),
                ));
            }
            Some(rule)
        } else {
            None
        };
        let (n, a) = self.one_value("attacker")?;
        let attacker = match a.text.as_ref() {
            "first" => Player::First,
            "second" => Player::Second,
            other => {
                return Err(ParseError::new(
                    n,
                    a.col,
                    format!("expected `first` or `second`, found `{other}`"),
                ))
            }
        };
        let (n, mut toks) = self.header("goal")?;
        let within = match toks.len().checked_sub(2).map(|i| &toks[i]) {
            Some(t) if t.text == "within" => {
                let v = &toks[toks.len() - 1];
                let limit = v.text.parse::<u32>().map_err(|_| {
                    ParseError::new(
                        n,
                        v.col,
                        format!(
                            "expected the attacker's number of moves after `within`, found `{}`",
                            v.text
                        ),
                    )
                })?;
                toks.truncate(toks.len() - 2);
                Some(limit)
            }
            _ => None,
        };
        let goal = match toks.as_slice() {
            [t] if t.text == "win" => CertificateGoal::Win,
            [t] if t.text == "not-lose" => CertificateGoal::NotLose,
            [t, v] if t.text == "at-least" => {
                CertificateGoal::AtLeast(v.text.parse().map_err(|_| {
                    ParseError::new(n, v.col, format!("expected an integer, found `{}`", v.text))
                })?)
            }
            _ => {
                return Err(ParseError::new(
                    n,
                    6,
                    "expected `win`, `not-lose` or `at-least <integer>`, optionally followed by `within <moves>`",
                ))
            }
        };
        let (n, a) = self.one_value("answer")?;
        let proved = match a.text.as_ref() {
            "proved" => true,
            "disproved" => false,
            other => {
                return Err(ParseError::new(
                    n,
                    a.col,
                    format!("expected `proved` or `disproved`, found `{other}`"),
                ))
            }
        };
        let (n, c) = self.one_value("nodes")?;
        let count: usize = c.text.parse().map_err(|_| {
            ParseError::new(
                n,
                c.col,
                format!("expected a node count, found `{}`", c.text),
            )
        })?;
        let mut nodes = Vec::with_capacity(count.min(1 << 24));
        for i in 0..count {
            let (n, l) = self.line(&format!("node {i}"))?;
            nodes.push(node_line(l, n, i, count)?);
        }
        let (n, l) = self.line("`end`")?;
        if l.trim() != "end" {
            return Err(ParseError::new(
                n,
                1,
                format!("expected `end` after {count} nodes"),
            ));
        }
        if let Some(&(n, _)) = self.lines.get(self.next) {
            return Err(ParseError::new(n, 1, "expected nothing after `end`"));
        }
        Ok(Certificate {
            game,
            position: position.text.into_owned(),
            attacker,
            goal,
            within,
            repetition,
            proved,
            nodes,
            comments: Vec::new(),
            position_line,
        })
    }
}

/// Parses node line `l` (number `n`), which must be node `id` of `count`.
fn node_line(l: &str, n: usize, id: usize, count: usize) -> Result<CertNode, ParseError> {
    let toks = tokens(l, n)?;
    let num = |t: &Token, what: &str| -> Result<u32, ParseError> {
        t.text
            .parse::<u32>()
            .ok()
            .filter(|v| (*v as usize) < count)
            .ok_or_else(|| {
                ParseError::new(
                    n,
                    t.col,
                    format!(
                        "expected {what} (0 to {}), found `{}`",
                        count.saturating_sub(1),
                        t.text
                    ),
                )
            })
    };
    let first = toks
        .first()
        .ok_or_else(|| ParseError::new(n, 1, "expected a node line"))?;
    if num(first, "a node number")? as usize != id {
        return Err(ParseError::new(
            n,
            first.col,
            format!("expected node {id} (nodes are numbered in order)"),
        ));
    }
    let kind = toks
        .get(1)
        .ok_or_else(|| ParseError::new(n, l.len() + 1, "expected `one`, `all` or `end`"))?;
    let rest = &toks[2..];
    let body = match kind.text.as_ref() {
        "one" => match rest {
            [m, c] => NodeBody::One(m.text.to_string(), num(c, "a child node number")?),
            _ => {
                return Err(ParseError::new(
                    n,
                    kind.col,
                    "expected `one <move> <child>`",
                ))
            }
        },
        "all" => {
            if rest.len() % 2 != 0 {
                return Err(ParseError::new(
                    n,
                    rest.last().map_or(kind.col, |t| t.col),
                    "expected pairs `<move> <child>` after `all`",
                ));
            }
            let mut list = Vec::with_capacity(rest.len() / 2);
            for pair in rest.chunks(2) {
                list.push((
                    pair[0].text.to_string(),
                    num(&pair[1], "a child node number")?,
                ));
            }
            NodeBody::All(list)
        }
        "end" => match rest {
            [s] => NodeBody::End(s.text.parse().map_err(|_| {
                ParseError::new(n, s.col, format!("expected a score, found `{}`", s.text))
            })?),
            _ => return Err(ParseError::new(n, kind.col, "expected `end <score>`")),
        },
        other => {
            return Err(ParseError::new(
                n,
                kind.col,
                format!("expected `one`, `all` or `end`, found `{other}`"),
            ))
        }
    };
    Ok(CertNode {
        id: id as u32,
        body,
        line: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Certificate {
        Certificate {
            game: GameKind::Tree,
            position: "root\n  a b".into(),
            attacker: Player::First,
            goal: CertificateGoal::AtLeast(-3),
            within: None,
            repetition: None,
            proved: true,
            nodes: vec![
                CertNode {
                    id: 0,
                    body: NodeBody::One("a move".into(), 1),
                    line: 0,
                },
                CertNode {
                    id: 1,
                    body: NodeBody::All(vec![("x".into(), 2), ("\"y\"".into(), 2)]),
                    line: 0,
                },
                CertNode {
                    id: 2,
                    body: NodeBody::End(4),
                    line: 0,
                },
            ],
            comments: vec!["made by a test".into()],
            position_line: 0,
        }
    }

    #[test]
    fn text_round_trips() {
        let c = sample();
        let text = c.to_text();
        let mut back = Certificate::parse(&text).expect("parses");
        for (n, line) in back.nodes.iter_mut().zip([9, 10, 11]) {
            assert_eq!(n.line, line, "{text}");
            n.line = 0;
        }
        back.comments = c.comments.clone();
        assert_eq!(back.position_line, 4);
        back.position_line = 0;
        assert_eq!(back, c);
    }

    #[test]
    fn the_mate_limit_and_the_repetition_rule_round_trip() {
        let mut c = sample();
        c.game = GameKind::Xiangqi;
        c.goal = CertificateGoal::Win;
        c.within = Some(3);
        c.repetition = Some(Repetition::PerpetualCheckLoses);
        let text = c.to_text();
        assert!(text.contains("\ngoal win within 3\n"), "{text}");
        assert!(
            text.contains("\nrepetition perpetual-check-loses\n"),
            "{text}"
        );
        let back = Certificate::parse(&text).expect("parses");
        assert_eq!(
            (back.within, back.repetition, back.goal),
            (c.within, c.repetition, c.goal)
        );
        // `at-least` keeps its value next to the limit.
        c.goal = CertificateGoal::AtLeast(-2);
        let back = Certificate::parse(&c.to_text()).expect("parses");
        assert_eq!((back.goal, back.within), (c.goal, Some(3)));
        // A bad limit, and a repetition rule on a game without one.
        let e = Certificate::parse(&text.replace("within 3", "within x")).unwrap_err();
        assert!(e.expected.contains("after `within`"), "{e}");
        assert_eq!(e.line, 7, "{e}");
        let e = Certificate::parse(&text.replace("game xiangqi", "game tree")).unwrap_err();
        assert!(e.expected.contains("xiangqi only"), "{e}");
        let e = Certificate::parse(&text.replace("perpetual-check-loses", "forever")).unwrap_err();
        assert_eq!((e.line, e.col), (5, 12), "{e}");
    }

    #[test]
    fn errors_are_located() {
        let text = sample().to_text();
        let e = Certificate::parse(&text.replace("1 all x", "1 al x")).unwrap_err();
        assert_eq!((e.line, e.col), (10, 3), "{e}");
        let e = Certificate::parse(&text.replace(" 2\n2 end", " 7\n2 end")).unwrap_err();
        assert_eq!(e.line, 10, "{e}");
        assert!(e.expected.contains("child node number"), "{e}");
        // Cut short: the end marker is missing.
        let cut: String = text.lines().take(11).map(|l| format!("{l}\n")).collect();
        let e = Certificate::parse(&cut).unwrap_err();
        assert!(e.expected.contains("end of the file"), "{e}");
        let e = Certificate::parse("hello").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
    }
}
