//! Captions: the short Markdown a lesson step shows, parsed into a small
//! typed tree that the app draws with its own fonts and the frame export
//! writes as SVG text. Only what a caption needs is read:
//!
//! - paragraphs (separated by a blank line; single line breaks join lines),
//! - bullet lists (`- item`; an indented line continues the item),
//! - display formulas (lines indented by four spaces, or a ```` ``` ````
//!   fence), kept verbatim and drawn in a monospace font,
//! - inline `*emphasis*`, `**strong**` and `` `code` `` (formulas in plain
//!   text such as `` `pn(a) = min(2, ∞, 3)` ``); `\*`, `` \` `` and `\\`
//!   stand for the character itself. Underscores are plain text, so names
//!   such as `v_min` need no escape.
//!
//! A marker left open (an emphasis or a code span never closed) is an
//! error at the marker, so a lesson never shows stray asterisks.

/// How a run of text is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Style {
    /// `**strong**`.
    pub strong: bool,
    /// `*emphasis*`.
    pub emphasis: bool,
    /// `` `code` `` (monospace; strong and emphasis do not apply inside).
    pub code: bool,
}

/// A run of text in one style.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    /// The text, markers removed.
    pub text: String,
    /// Its style.
    pub style: Style,
}

/// One block of a caption.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "block", content = "content")]
pub enum Block {
    /// A paragraph of styled text.
    Paragraph(Vec<Span>),
    /// A bullet list: each item a run of styled text.
    List(Vec<Vec<Span>>),
    /// A display formula, verbatim (may hold several lines).
    Formula(String),
}

/// A parsed caption.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Caption {
    /// The blocks in order.
    pub blocks: Vec<Block>,
}

/// A caption error at a byte offset of the caption's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptionError {
    /// Byte offset in the caption text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// The longest caption, in characters: a caption is read on a slide or
/// under the board in a few seconds (the longest bundled one is under
/// 1,000); a longer text belongs in the lesson's notes, and a huge one
/// would only cost memory and time at every drawing of the step.
pub const MAX_CAPTION_CHARS: usize = 4_000;

impl Caption {
    /// Parses caption text (at most [`MAX_CAPTION_CHARS`] characters).
    pub fn parse(text: &str) -> Result<Caption, CaptionError> {
        if let Some((offset, _)) = text.char_indices().nth(MAX_CAPTION_CHARS) {
            return Err(CaptionError {
                offset,
                message: format!(
                    "the caption is longer than {MAX_CAPTION_CHARS} characters (it has {}); a caption is read in a few seconds, so shorten it or split the step",
                    text.chars().count()
                ),
            });
        }
        let lines = lines_with_offsets(text);
        let mut blocks = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let (off, line) = lines[i];
            if line.trim().is_empty() {
                i += 1;
                continue;
            }
            if line.trim_start().starts_with("```") {
                let mut body = Vec::new();
                i += 1;
                let mut closed = false;
                while i < lines.len() {
                    if lines[i].1.trim_start().starts_with("```") {
                        closed = true;
                        i += 1;
                        break;
                    }
                    body.push(lines[i].1);
                    i += 1;
                }
                if !closed {
                    return Err(CaptionError {
                        offset: off,
                        message: "a ``` fence opened here is never closed".into(),
                    });
                }
                blocks.push(Block::Formula(dedent(&body)));
            } else if line.starts_with("    ") || line.starts_with('\t') {
                let mut body = Vec::new();
                while i < lines.len()
                    && (lines[i].1.starts_with("    ") || lines[i].1.starts_with('\t'))
                {
                    body.push(lines[i].1);
                    i += 1;
                }
                blocks.push(Block::Formula(dedent(&body)));
            } else if let Some(first) = bullet(line) {
                let mut items = Vec::new();
                let mut current = vec![(off + (line.len() - first.len()), first)];
                i += 1;
                loop {
                    let next = lines.get(i).copied();
                    match next {
                        Some((o, l)) if bullet(l).is_some() => {
                            items.push(inline(&current)?);
                            let b = bullet(l).unwrap_or("");
                            current = vec![(o + (l.len() - b.len()), b)];
                            i += 1;
                        }
                        Some((o, l))
                            if !l.trim().is_empty()
                                && l.starts_with(|c: char| c.is_whitespace()) =>
                        {
                            let t = l.trim_start();
                            current.push((o + (l.len() - t.len()), t));
                            i += 1;
                        }
                        _ => break,
                    }
                }
                items.push(inline(&current)?);
                blocks.push(Block::List(items));
            } else {
                let mut body = Vec::new();
                while i < lines.len() {
                    let (o, l) = lines[i];
                    if l.trim().is_empty()
                        || (!body.is_empty() && (bullet(l).is_some() || l.starts_with("```")))
                    {
                        break;
                    }
                    let t = l.trim_start();
                    body.push((o + (l.len() - t.len()), t));
                    i += 1;
                }
                blocks.push(Block::Paragraph(inline(&body)?));
            }
        }
        Ok(Caption { blocks })
    }

    /// The caption as plain text: blocks separated by blank lines, list
    /// items by `- `, markers removed.
    pub fn plain_text(&self) -> String {
        let spans = |s: &[Span]| s.iter().map(|s| s.text.as_str()).collect::<String>();
        self.blocks
            .iter()
            .map(|b| match b {
                Block::Paragraph(s) => spans(s),
                Block::List(items) => items
                    .iter()
                    .map(|s| format!("- {}", spans(s)))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Block::Formula(f) => f.clone(),
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// `(byte offset, line)` of every line (without its line ending).
fn lines_with_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut off = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        out.push((off, line));
        off += raw.len();
    }
    out
}

/// The item text when `line` is a bullet (`- ` or `* ` at its start).
fn bullet(line: &str) -> Option<&str> {
    line.strip_prefix("- ")
        .or_else(|| line.strip_prefix("* "))
        .map(str::trim_start)
}

/// Lines with their common leading whitespace removed, joined by `\n`.
fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses the inline markers of lines that form one paragraph or item
/// (each with the byte offset where it starts); lines are joined by a
/// space.
fn inline(lines: &[(usize, &str)]) -> Result<Vec<Span>, CaptionError> {
    let mut spans: Vec<Span> = Vec::new();
    let mut style = Style::default();
    let mut text = String::new();
    // Where each open marker was opened, for the error.
    let (mut strong_at, mut em_at) = (0usize, 0usize);
    let flush = |text: &mut String, style: Style, spans: &mut Vec<Span>| {
        if text.is_empty() {
            return;
        }
        match spans.last_mut() {
            Some(last) if last.style == style => last.text.push_str(text),
            _ => spans.push(Span {
                text: text.clone(),
                style,
            }),
        }
        text.clear();
    };
    for (k, &(off, line)) in lines.iter().enumerate() {
        if k > 0 {
            text.push(' ');
        }
        let line = line.trim_end();
        let mut chars = line.char_indices().peekable();
        while let Some((b, c)) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some(&(_, n)) if matches!(n, '*' | '`' | '\\') => {
                        text.push(n);
                        chars.next();
                    }
                    _ => text.push('\\'),
                },
                '`' => {
                    let rest = &line[b + 1..];
                    let Some(end) = rest.find('`') else {
                        return Err(CaptionError {
                            offset: off + b,
                            message: "a code span opened with ` is never closed on its line".into(),
                        });
                    };
                    flush(&mut text, style, &mut spans);
                    spans.push(Span {
                        text: rest[..end].to_string(),
                        style: Style {
                            code: true,
                            ..Style::default()
                        },
                    });
                    // Skip the code and its closing backtick.
                    let stop = b + 1 + end;
                    while chars.peek().is_some_and(|&(i, _)| i <= stop) {
                        chars.next();
                    }
                }
                '*' => {
                    flush(&mut text, style, &mut spans);
                    if chars.peek().is_some_and(|&(_, n)| n == '*') {
                        chars.next();
                        style.strong = !style.strong;
                        strong_at = off + b;
                    } else {
                        style.emphasis = !style.emphasis;
                        em_at = off + b;
                    }
                }
                _ => text.push(c),
            }
        }
    }
    if style.strong {
        return Err(CaptionError {
            offset: strong_at,
            message: "`**` opens strong text that is never closed (write \\* for a star)".into(),
        });
    }
    if style.emphasis {
        return Err(CaptionError {
            offset: em_at,
            message: "`*` opens emphasis that is never closed (write \\* for a star)".into(),
        });
    }
    flush(&mut text, style, &mut spans);
    Ok(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(t: &str) -> Span {
        Span {
            text: t.into(),
            style: Style::default(),
        }
    }

    #[test]
    fn paragraphs_lists_formulas_and_inline_styles() {
        let text = "PNS picks the *most-proving* node:\nthe **least** `pn` at OR nodes.\n\n- first item\n  goes on\n- second\n\n    pn(a) = min(2, ∞, 3) = 2\n    dn(a) = 1 + 0 + 1\n\nA star \\* and v_min.";
        let c = Caption::parse(text).unwrap();
        assert_eq!(c.blocks.len(), 4);
        let Block::Paragraph(p) = &c.blocks[0] else {
            panic!("{:?}", c.blocks[0])
        };
        assert_eq!(p[0], plain("PNS picks the "));
        assert_eq!(p[1].text, "most-proving");
        assert!(p[1].style.emphasis && !p[1].style.strong);
        assert_eq!(p[2], plain(" node: the "));
        assert!(p[3].style.strong);
        assert_eq!(p[5].text, "pn");
        assert!(p[5].style.code);
        let Block::List(items) = &c.blocks[1] else {
            panic!()
        };
        assert_eq!(items.len(), 2);
        assert_eq!(items[0], vec![plain("first item goes on")]);
        assert_eq!(
            c.blocks[2],
            Block::Formula("pn(a) = min(2, ∞, 3) = 2\ndn(a) = 1 + 0 + 1".into())
        );
        assert_eq!(
            c.blocks[3],
            Block::Paragraph(vec![plain("A star * and v_min.")])
        );
        assert!(c.plain_text().contains("- second"));
    }

    #[test]
    fn a_fence_is_a_formula() {
        let c = Caption::parse("Look:\n```\nthφ(c1) = thφ + φc − ΣΦ\n```\nDone.").unwrap();
        assert_eq!(
            c.blocks[1],
            Block::Formula("thφ(c1) = thφ + φc − ΣΦ".into())
        );
        assert_eq!(c.blocks.len(), 3);
    }

    #[test]
    fn open_markers_are_errors_at_the_marker() {
        let e = Caption::parse("one\ntwo *three").unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(e.message.contains("never closed"));
        let e = Caption::parse("a **b").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = Caption::parse("x `pn").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = Caption::parse("x\n```\nf").unwrap_err();
        assert_eq!(e.offset, 2);
    }
}
