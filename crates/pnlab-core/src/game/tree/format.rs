//! The parser of the tree text format (documented in `tree/mod.rs`), with
//! line/column errors: this file reads the lines into nodes, edges and
//! references; [`super::checks`] then resolves the references and checks
//! the graph as a whole.

use std::collections::HashMap;

use super::checks::{self, Parsed};
use super::{LeafValue, LoopRule, NodeKind, ParseError, Tree, TreeNode};
use crate::game::eval::{MAX_EVAL, WIN};
use crate::game::notation::col_of;

/// A `*NAME` child waiting for its definition.
pub(super) struct Reference {
    pub name: String,
    pub parent: u32,
    pub slot: usize,
    pub line: usize,
    pub col: usize,
}

/// An open node on the indentation stack.
struct Frame {
    indent: usize,
    /// `None` for a `*NAME` line (which cannot have children).
    node: Option<u32>,
    text: String,
}

/// Position (line, col) of every child edge, parallel to `children`.
pub(super) type EdgePositions = Vec<Vec<(usize, usize)>>;

/// The `prob=` of every child edge (with its line and column), parallel
/// to `children`.
pub(super) type EdgeProbs = Vec<Vec<Option<(f64, usize, usize)>>>;

/// The part of a line before a `#` that is not inside double quotes.
fn strip_comment(line: &str) -> &str {
    let mut in_quote = false;
    for (i, ch) in line.char_indices() {
        match ch {
            '"' => in_quote = !in_quote,
            '#' if !in_quote => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(s: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        if ch.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((base + st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((base + st, &s[st..]));
    }
    out
}

fn parse_value(t: &str) -> Option<LeafValue> {
    match t.to_ascii_lowercase().as_str() {
        "win" => Some(LeafValue::Win),
        "loss" => Some(LeafValue::Loss),
        "draw" => Some(LeafValue::Draw),
        _ => match t.parse::<i32>() {
            Ok(v) => Some(LeafValue::Score(v)),
            Err(_) => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && t.contains(['.', 'e', 'E']))
                .map(LeafValue::Real),
        },
    }
}

/// The probability of a `prob=` hint: a number in (0, 1].
fn parse_prob(p: &str) -> Option<f64> {
    p.parse::<f64>().ok().filter(|x| *x > 0.0 && *x <= 1.0)
}

fn valid_name(s: &str) -> bool {
    !s.is_empty() && !s.contains(['"', '=', '*', '&'])
}

/// Parses a tree text.
pub(super) fn parse(text: &str) -> Result<Tree, ParseError> {
    let mut title: Option<String> = None;
    let mut title_line = 0;
    let mut loops: Option<(LoopRule, usize)> = None;
    let mut nodes: Vec<TreeNode> = Vec::new();
    let mut edges: EdgePositions = Vec::new();
    let mut probs: EdgeProbs = Vec::new();
    let mut child_indent: Vec<Option<(usize, usize)>> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut refs: Vec<Reference> = Vec::new();
    let mut anchors: HashMap<String, (u32, usize)> = HashMap::new();
    let mut indent_style: Option<(char, usize)> = None;
    let mut seen_content = false;

    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = strip_comment(raw);
        if line.trim().is_empty() {
            continue;
        }
        let err = |byte: usize, msg: String| ParseError::new(ln, col_of(raw, byte), msg);

        // Indentation: spaces or tabs, never both in one file.
        let ws_end = line
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map(|(b, _)| b)
            .unwrap_or(line.len());
        let indent = &line[..ws_end];
        for (b, ch) in indent.char_indices() {
            if ch != ' ' && ch != '\t' {
                return Err(err(
                    b,
                    format!("indent with spaces or tabs only, found {ch:?}"),
                ));
            }
            match indent_style {
                None => indent_style = Some((ch, ln)),
                Some((style, since)) if style != ch => {
                    let (used, other) = if style == ' ' {
                        ("spaces", "a tab")
                    } else {
                        ("tabs", "a space")
                    };
                    return Err(err(
                        b,
                        format!("mixed tabs and spaces: this file indents with {used} (since line {since}), found {other}"),
                    ));
                }
                Some(_) => {}
            }
        }
        let width = indent.chars().count();
        let content = line[ws_end..].trim_end();

        // The optional title line.
        if let Some(rest) = content.strip_prefix("tree") {
            let after = rest.trim_start();
            if after.starts_with('"') && rest.len() > after.len() {
                let q = ws_end + 4 + (rest.len() - after.len());
                if seen_content {
                    return Err(err(
                        ws_end,
                        "the title line `tree \"…\"` must come before the nodes".into(),
                    ));
                }
                let inner = &after[1..];
                let Some(close) = inner.find('"') else {
                    return Err(err(
                        line.len(),
                        "expected a closing `\"` after the title".into(),
                    ));
                };
                let trailing = inner[close + 1..].trim();
                if !trailing.is_empty() {
                    let at = q + 1 + close + 1 + inner[close + 1..].find(trailing).unwrap_or(0);
                    return Err(err(
                        at,
                        format!("expected the end of the line after the title, found `{trailing}`"),
                    ));
                }
                title = Some(inner[..close].to_string());
                title_line = ln;
                seen_content = true;
                continue;
            }
        }
        // The optional loop rule of a cyclic graph, a header before the
        // root (after it, `loops = …` is a leaf named `loops`).
        if let Some(rest) = content.strip_prefix("loops").filter(|_| nodes.is_empty()) {
            if let Some(after) = rest.trim_start().strip_prefix('=') {
                if let Some((_, first)) = loops {
                    return Err(err(
                        ws_end,
                        format!("`loops = …` is given twice (first on line {first})"),
                    ));
                }
                let name = after.trim();
                let at = ws_end + content.len() - after.trim_start().len();
                let Some(rule) = LoopRule::from_name(name) else {
                    let names: Vec<&str> = LoopRule::ALL.iter().map(|r| r.name()).collect();
                    return Err(err(
                        at,
                        format!("unknown loop rule `{name}`: expected {}", names.join(", ")),
                    ));
                };
                loops = Some((rule, ln));
                seen_content = true;
                continue;
            }
        }
        seen_content = true;

        let toks = tokens(content, ws_end);
        let (t0_at, t0) = toks[0];

        // Where the node goes: pop the frames that are not its ancestors.
        while stack.last().is_some_and(|f| f.indent >= width) {
            stack.pop();
        }
        let parent = match stack.last() {
            None if nodes.is_empty() => None,
            None => {
                return Err(err(
                    t0_at,
                    format!("a tree has one root (`{}` on line {}): indent this line under a node", nodes[0].label, nodes[0].line),
                ))
            }
            Some(f) => match f.node {
                None => {
                    return Err(err(
                        t0_at,
                        format!("`{}` is a reference and cannot have children here; give them where the shared node is defined", f.text),
                    ))
                }
                Some(p) => {
                    if let NodeKind::Leaf(v) = nodes[p as usize].kind {
                        return Err(err(
                            t0_at,
                            format!(
                                "`{}` is a leaf (`= {}`) and cannot have children (an internal node is written `{} or` or `{} and`, without a value)",
                                f.text,
                                v.text(),
                                f.text,
                                f.text
                            ),
                        ));
                    }
                    match child_indent[p as usize] {
                        None => child_indent[p as usize] = Some((width, ln)),
                        Some((w, first)) if w != width => {
                            return Err(err(
                                t0_at,
                                format!(
                                    "bad indentation: the children of `{}` are indented {w} columns (line {first}), this line {width}",
                                    f.text
                                ),
                            ))
                        }
                        Some(_) => {}
                    }
                    if nodes[p as usize].children.len() >= u16::MAX as usize {
                        return Err(err(t0_at, format!("too many children under `{}` (at most {})", f.text, u16::MAX)));
                    }
                    Some(p)
                }
            },
        };

        // A reference line `*NAME`.
        if let Some(name) = t0.strip_prefix('*') {
            if !valid_name(name) {
                return Err(err(
                    t0_at + 1,
                    "expected a shared-node name after `*`".into(),
                ));
            }
            let mut prob = None;
            for &(at, extra) in &toks[1..] {
                match extra.strip_prefix("prob=") {
                    Some(_) if prob.is_some() => {
                        return Err(err(at, "`prob=` is given twice".into()))
                    }
                    Some(p) => match parse_prob(p) {
                        Some(x) => prob = Some((x, ln, col_of(raw, at))),
                        None => return Err(err(at + 5, format!("expected a probability in (0, 1] after `prob=`, found `{p}`"))),
                    },
                    None => return Err(err(at, format!("expected the end of the line or `prob=…` after `{t0}` (a reference stands alone), found `{extra}`"))),
                }
            }
            let Some(p) = parent else {
                return Err(err(t0_at, "the root cannot be a reference `*NAME`".into()));
            };
            let col = col_of(raw, t0_at);
            probs[p as usize].push(prob);
            refs.push(Reference {
                name: name.to_string(),
                parent: p,
                slot: nodes[p as usize].children.len(),
                line: ln,
                col,
            });
            nodes[p as usize].children.push(u32::MAX);
            edges[p as usize].push((ln, col));
            stack.push(Frame {
                indent: width,
                node: None,
                text: t0.to_string(),
            });
            continue;
        }

        // A node line: LABEL (or|and|= VALUE) [p=…] [eval=…] [&NAME].
        let mut rest: Vec<(usize, &str)> = toks[1..].to_vec();
        let (label, inline_value) = match t0.find('=') {
            Some(eq) => (&t0[..eq], Some((t0_at + eq, &t0[eq + 1..]))),
            None => (t0, None),
        };
        if label.is_empty() || label.starts_with('&') || label.contains('"') {
            return Err(err(
                t0_at,
                format!("expected a node label (one word), found `{t0}`"),
            ));
        }
        let after_label = t0_at + label.len();
        let kind = {
            // The value text and its offset, if the line is a leaf.
            let value_tok: Option<(usize, &str)> = match inline_value {
                Some((eq_at, v)) if !v.is_empty() => Some((eq_at + 1, v)),
                Some((eq_at, _)) => {
                    if rest.is_empty() {
                        return Err(err(eq_at + 1, "expected a value after `=`: win, loss, draw or an integer".into()));
                    }
                    Some(rest.remove(0))
                }
                None => match rest.first().copied() {
                    None => {
                        return Err(err(
                            after_label,
                            format!("expected `or`, `and`, `chance` or `= VALUE` after `{label}` (a leaf needs a value: win, loss, draw or a number)"),
                        ))
                    }
                    Some((_, k)) if k.eq_ignore_ascii_case("or") => {
                        rest.remove(0);
                        None
                    }
                    Some((_, k)) if k.eq_ignore_ascii_case("and") => {
                        rest.remove(0);
                        None
                    }
                    Some((_, k)) if k.eq_ignore_ascii_case("chance") => {
                        rest.remove(0);
                        None
                    }
                    Some((at, "=")) => {
                        rest.remove(0);
                        if rest.is_empty() {
                            return Err(err(at + 1, "expected a value after `=`: win, loss, draw or an integer".into()));
                        }
                        Some(rest.remove(0))
                    }
                    Some((at, v)) if v.starts_with('=') => {
                        rest.remove(0);
                        Some((at + 1, &v[1..]))
                    }
                    Some((at, k)) => {
                        return Err(err(at, format!("unknown node kind `{k}`: expected `or`, `and`, `chance` or `= VALUE`")))
                    }
                },
            };
            match value_tok {
                Some((at, v)) => match parse_value(v) {
                    Some(val) => NodeKind::Leaf(val),
                    None => {
                        return Err(err(
                            at,
                            format!("bad value `{v}`: expected win, loss, draw, an integer or (in a tree with chance nodes) a real number such as 2.5"),
                        ))
                    }
                },
                None => {
                    let k = toks[1].1;
                    if k.eq_ignore_ascii_case("or") {
                        NodeKind::Or
                    } else if k.eq_ignore_ascii_case("chance") {
                        NodeKind::Chance
                    } else {
                        NodeKind::And
                    }
                }
            }
        };

        let mut win_rate = None;
        let mut eval = None;
        let mut eval2 = None;
        let mut prob = None;
        let mut share_name: Option<String> = None;
        for (at, t) in rest {
            if let Some(p) = t.strip_prefix("prob=") {
                if prob.is_some() {
                    return Err(err(at, "`prob=` is given twice".into()));
                }
                match parse_prob(p) {
                    Some(x) => prob = Some((x, ln, col_of(raw, at))),
                    None => {
                        return Err(err(
                            at + 5,
                            format!("expected a probability in (0, 1] after `prob=`, found `{p}`"),
                        ))
                    }
                }
            } else if let Some(p) = t.strip_prefix("p=") {
                if win_rate.is_some() {
                    return Err(err(at, "`p=` is given twice".into()));
                }
                match p.parse::<f64>() {
                    Ok(x) if (0.0..=1.0).contains(&x) => win_rate = Some(x),
                    _ => {
                        return Err(err(
                            at + 2,
                            format!("expected a win rate between 0 and 1 after `p=`, found `{p}`"),
                        ))
                    }
                }
            } else if let Some(e) = t.strip_prefix("eval2=") {
                if eval2.is_some() {
                    return Err(err(at, "`eval2=` is given twice".into()));
                }
                match e.parse::<i32>() {
                    Ok(x) if x.abs() <= MAX_EVAL => eval2 = Some(x),
                    Ok(_) => {
                        return Err(err(
                            at + 6,
                            format!("expected an evaluation between -{MAX_EVAL} and {MAX_EVAL} after `eval2=` (±{WIN} is a won game), found `{e}`"),
                        ))
                    }
                    Err(_) => {
                        return Err(err(
                            at + 6,
                            format!("expected an integer after `eval2=`, found `{e}`"),
                        ))
                    }
                }
            } else if let Some(e) = t.strip_prefix("eval=") {
                if eval.is_some() {
                    return Err(err(at, "`eval=` is given twice".into()));
                }
                match e.parse::<i32>() {
                    Ok(x) if x.abs() <= MAX_EVAL => eval = Some(x),
                    Ok(_) => {
                        return Err(err(
                            at + 5,
                            format!("expected an evaluation between -{MAX_EVAL} and {MAX_EVAL} after `eval=` (±{WIN} is a won game), found `{e}`"),
                        ))
                    }
                    Err(_) => {
                        return Err(err(
                            at + 5,
                            format!("expected an integer after `eval=`, found `{e}`"),
                        ))
                    }
                }
            } else if let Some(name) = t.strip_prefix('&') {
                if share_name.is_some() {
                    return Err(err(at, "a node has at most one `&NAME`".into()));
                }
                if !valid_name(name) {
                    return Err(err(at + 1, "expected a shared-node name after `&`".into()));
                }
                share_name = Some(name.to_string());
            } else if t.starts_with('=')
                || t.eq_ignore_ascii_case("or")
                || t.eq_ignore_ascii_case("and")
                || t.eq_ignore_ascii_case("chance")
            {
                let msg = if matches!(kind, NodeKind::Leaf(_)) {
                    format!("`{label}` already has a value; a node is either a leaf (`= VALUE`) or internal (`or`/`and`/`chance`)")
                } else {
                    format!("an internal node (or/and/chance) cannot have a value: `{label}` gets its value from its children")
                };
                return Err(err(at, msg));
            } else {
                return Err(err(at, format!("expected a hint `p=0.7`, `eval=N`, `eval2=N`, `prob=0.25` or a shared-node name `&NAME`, found `{t}`")));
            }
        }

        let idx = nodes.len() as u32;
        if let Some(name) = &share_name {
            if let Some(&(_, first)) = anchors.get(name) {
                let at = toks
                    .iter()
                    .find(|(_, t)| t.strip_prefix('&') == Some(name))
                    .map(|&(a, _)| a)
                    .unwrap_or(t0_at);
                return Err(err(
                    at,
                    format!("duplicate shared-node name `&{name}` (first defined on line {first})"),
                ));
            }
            anchors.insert(name.clone(), (idx, ln));
        }
        let col = col_of(raw, t0_at);
        nodes.push(TreeNode {
            label: label.to_string(),
            kind,
            win_rate,
            eval,
            eval2,
            children: Vec::new(),
            probs: Vec::new(),
            share_name,
            line: ln,
        });
        edges.push(Vec::new());
        probs.push(Vec::new());
        child_indent.push(None);
        match parent {
            Some(p) => {
                nodes[p as usize].children.push(idx);
                edges[p as usize].push((ln, col));
                probs[p as usize].push(prob);
            }
            None => {
                if let Some((_, l, c)) = prob {
                    return Err(ParseError::new(l, c, "the root has no parent chance node: `prob=` belongs on the child lines of a `chance` node"));
                }
            }
        }
        stack.push(Frame {
            indent: width,
            node: Some(idx),
            text: label.to_string(),
        });
    }

    if nodes.is_empty() {
        return Err(if title.is_some() {
            ParseError::new(title_line + 1, 1, "expected the root node after the title (e.g. `A or` with its children indented below)")
        } else {
            ParseError::new(1, 1, "an empty tree: expected a root node such as `A or` with children indented below it, or a leaf `A = win`")
        });
    }

    checks::finish(
        text,
        Parsed {
            title,
            loops,
            nodes,
            edges,
            probs,
            refs,
            anchors,
        },
    )
}
