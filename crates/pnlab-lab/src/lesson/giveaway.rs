//! Does a caption give the step's answer away? A step's `caption` is on
//! screen while its question is open, so it must neither name the node
//! the engine answers nor state the value it computes; those sentences
//! belong in the step's `reveal` caption, shown after the answer.
//!
//! The rule is deliberately plain, so an author can predict it:
//! - a node answer is given away when the caption names the answer's
//!   move (the last move of its path, as the tree labels its edge) as a
//!   whole word, or says "the root" when the root is the answer;
//! - a value answer is given away when a sentence of the caption names
//!   the asked value (`pn`, `dpn`, …) and writes a number equal to the
//!   answer (∞ as `∞`, `inf` or `infinity`); or names the asked node
//!   (its move, or "root") and relates it to the answer (`= 2`, `≤ 2`,
//!   `is 2`, `at most 2`); or, for a pn or dn of 0 or ∞, names the node
//!   and says it is proved or disproved (unless the question's own prompt
//!   says so and asks what it means for the numbers).
//!
//! Single lower-case letters that are English words (`a`, `i`) are not
//! looked for: "a node" names no node `a`.

use super::caption::{Block, Caption};
use super::question::{Answer, Question};

/// The words a caption is read as: maximal runs of letters, digits and
/// the characters moves are written with (`:`, `+`, `-`, `.`, `@`), with
/// a trailing `.`, `:` or `-` (sentence punctuation) cut off.
fn words(text: &str) -> Vec<&str> {
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, ':' | '+' | '-' | '.' | '@' | '∞');
    text.split(|c: char| !is_word(c))
        .map(|w| w.trim_end_matches(['.', ':', '-']))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Sentences: split after `.`, `!`, `?` or `;` followed by white space,
/// and at blank lines.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        let next_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if matches!(c, '.' | '!' | '?' | ';' | '\n') && next_space {
            out.push(std::mem::take(&mut cur));
        }
    }
    out.push(cur);
    out.retain(|s| !s.trim().is_empty());
    out
}

/// The caption's sentences: those of its paragraphs and list items, and
/// each line of its formulas (a formula is a rule, one per line).
fn caption_sentences(caption: &Caption) -> Vec<String> {
    let spans = |s: &[super::caption::Span]| s.iter().map(|x| x.text.as_str()).collect::<String>();
    let mut out = Vec::new();
    for b in &caption.blocks {
        match b {
            Block::Paragraph(s) => out.extend(sentences(&spans(s))),
            Block::List(items) => {
                for it in items {
                    out.extend(sentences(&spans(it)));
                }
            }
            Block::Formula(f) => out.extend(f.lines().map(str::to_string)),
        }
    }
    out
}

/// A word read as a number (`2`, `0.87`, `∞`, `inf`).
fn number(word: &str) -> Option<f64> {
    match word {
        "∞" | "inf" | "infinity" => Some(f64::INFINITY),
        _ => word.parse::<f64>().ok().filter(|v| v.is_finite()),
    }
}

/// Whether a written number is the answer: equal, or equal to the
/// precision it is written with (`0.87` for 0.8714).
fn same_number(written: &str, value: f64) -> bool {
    let Some(w) = number(written) else {
        return false;
    };
    if w.is_infinite() || value.is_infinite() {
        return w == value;
    }
    let decimals = written.split('.').nth(1).map_or(0, str::len) as i32;
    (w - value).abs() < 0.5 * 10f64.powi(-decimals)
}

/// Whether `sentence` relates something to the answer: `= 2`, `≤ 2`,
/// `at most 2` and the like.
fn related_number(sentence: &str, value: f64) -> bool {
    const RELATIONS: [&str; 9] = [
        "=", "≤", "≥", "<", ">", "at most", "at least", "is", "equals",
    ];
    let ws: Vec<(usize, &str)> = {
        let mut out = Vec::new();
        for r in RELATIONS {
            let mut from = 0;
            while let Some(i) = sentence[from..].find(r) {
                out.push((from + i + r.len(), r));
                from += i + r.len();
            }
        }
        out
    };
    ws.into_iter().any(|(end, _)| {
        let rest = sentence[end..].trim_start();
        let first = words(rest).into_iter().next();
        rest.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '∞' | '-' | '−'))
            && first.is_some_and(|w| same_number(&w.replace('−', "-"), value))
    })
}

/// Why `caption` gives `q`'s answer away, or `None`.
pub fn gives_away(caption: &Caption, q: &Question) -> Option<String> {
    let text = caption.plain_text();
    match &q.answer {
        Answer::Node(n) => {
            // The root is "the root" in nearly every caption; a root
            // answer is not looked for.
            let name = n.path.moves.last()?.clone();
            let english = name.chars().count() == 1 && matches!(name.as_str(), "a" | "i");
            if english {
                return None;
            }
            words(&text)
                .contains(&name.as_str())
                .then(|| format!("it names `{name}`, the node the engine answers"))
        }
        Answer::Number { value, shown } => {
            let value_name = q.value_name.as_deref().unwrap_or("");
            // The asked node as captions name it: its move, or "root".
            let node_name = match &q.node {
                Some(n) => n
                    .path
                    .moves
                    .last()
                    .cloned()
                    .unwrap_or_else(|| "root".into()),
                None => "root".into(),
            };
            // "J is disproved" tells dn(J) = 0, unless the question itself
            // says it is solved and asks what that means for its numbers.
            let premise = q.prompt.to_lowercase().contains("proved");
            let solved = matches!(value_name, "pn" | "dn")
                && (*value == 0.0 || value.is_infinite())
                && !premise;
            caption_sentences(caption).into_iter().find_map(|s| {
                let ws = words(&s);
                let names_value = ws.iter().any(|w| w.eq_ignore_ascii_case(value_name));
                let names_node = ws.contains(&node_name.as_str());
                let states = ws.iter().any(|w| same_number(w, *value));
                let relates = related_number(&s, *value);
                let settles = solved
                    && ws.iter().any(|w| {
                        matches!(
                            w.to_lowercase().as_str(),
                            "proved" | "disproved" | "proves" | "disproves"
                        )
                    });
                ((names_value && states) || (names_node && (relates || settles))).then(|| {
                    format!(
                        "the sentence \"{}\" tells {value_name} = {shown}, the value the engine answers",
                        s.trim()
                    )
                })
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::{AskKind, NodePath, ResolvedNode};

    fn node_q(moves: &[&str]) -> Question {
        let n = ResolvedNode {
            path: NodePath::from_moves(moves.iter().map(|m| m.to_string()).collect()),
            id: 7,
        };
        Question {
            kind: AskKind::Child,
            prompt: "Which child?".into(),
            node: None,
            value_name: None,
            answer: Answer::Node(n),
            reason: Vec::new(),
            choices: Vec::new(),
        }
    }

    fn value_q(name: &str, value: f64, shown: &str) -> Question {
        Question {
            kind: AskKind::Value,
            prompt: "What?".into(),
            node: None,
            value_name: Some(name.into()),
            answer: Answer::Number {
                value,
                shown: shown.into(),
            },
            reason: Vec::new(),
            choices: Vec::new(),
        }
    }

    fn cap(t: &str) -> Caption {
        Caption::parse(t).unwrap()
    }

    #[test]
    fn naming_the_answer_node_gives_it_away_and_other_words_do_not() {
        let q = node_q(&["R"]);
        assert!(gives_away(&cap("The search leaves L for R."), &q).is_some());
        assert!(gives_away(&cap("Compare pn(R) with the other child."), &q).is_some());
        assert!(gives_away(&cap("Which child does the search take? RSCN is later."), &q).is_none());
        // Moves with digits and signs are whole words too.
        let q = node_q(&["c1"]);
        assert!(gives_away(&cap("It plays c1 first."), &q).is_some());
        assert!(gives_away(&cap("It plays c12 first."), &q).is_none());
        // "a" is an English word, not a name.
        assert!(gives_away(&cap("Pick a node."), &node_q(&["a"])).is_none());
    }

    #[test]
    fn stating_the_value_in_a_sentence_that_names_it_gives_it_away() {
        let q = value_q("pn", 2.0, "2");
        assert!(gives_away(&cap("So pn = 2 at the root."), &q).is_some());
        assert!(gives_away(&cap("Here pn(L) = 2."), &q).is_some());
        // The number in another sentence, or another number, is fine.
        assert!(gives_away(&cap("The tree has depth 2. What is pn?"), &q).is_none());
        assert!(gives_away(&cap("Count pn by hand: 3 children."), &q).is_none());
        let q = value_q("dpn", 0.8714, "0.871");
        assert!(gives_away(&cap("Its dpn is 0.87 now."), &q).is_some());
        assert!(gives_away(&cap("Its dpn is 0.9 now."), &q).is_some());
        assert!(gives_away(&cap("Its dpn is 0.85 now."), &q).is_none());
        let q = value_q("dn", f64::INFINITY, "∞");
        assert!(gives_away(&cap("A won child makes dn ∞."), &q).is_some());
    }

    #[test]
    fn relating_the_asked_node_to_the_answer_or_settling_it_gives_it_away() {
        let mut q = value_q("v", 2.0, "2");
        q.node = Some(ResolvedNode {
            path: NodePath::from_moves(vec!["B".into()]),
            id: 3,
        });
        assert!(gives_away(&cap("So B ≤ ½·(−6) + ½·10 = 2 here."), &q).is_some());
        assert!(gives_away(&cap("B is at most 2."), &q).is_some());
        // B named, 2 written, but not as its value.
        assert!(gives_away(&cap("B has 2 outcomes."), &q).is_none());
        let mut q = value_q("pn", f64::INFINITY, "∞");
        q.node = None;
        assert!(gives_away(&cap("In the end the root is disproved."), &q).is_some());
        assert!(gives_away(&cap("Is the root proved? Run it."), &q).is_some());
        assert!(gives_away(&cap("The root waits."), &q).is_none());
    }
}
