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
    let mut parser = Parser::default();
    for (i, raw) in text.lines().enumerate() {
        parser.line(&Line { ln: i + 1, raw })?;
    }
    parser.finish(text)
}

/// One line of the text, kept whole so that errors can give the column of
/// a byte offset.
struct Line<'a> {
    ln: usize,
    raw: &'a str,
}

impl Line<'_> {
    /// An error at byte `byte` of this line.
    fn err(&self, byte: usize, msg: impl Into<String>) -> ParseError {
        ParseError::new(self.ln, col_of(self.raw, byte), msg)
    }
}

/// The hints that may follow a node's kind or value on its line.
#[derive(Default)]
struct Hints {
    win_rate: Option<f64>,
    eval: Option<i32>,
    eval2: Option<i32>,
    /// The `prob=` of the edge from the parent, with its line and column.
    prob: Option<(f64, usize, usize)>,
    share_name: Option<String>,
}

/// The state of the parse, line after line: what has been read so far and
/// the indentation stack that says where the next node goes.
#[derive(Default)]
struct Parser {
    title: Option<String>,
    title_line: usize,
    loops: Option<(LoopRule, usize)>,
    nodes: Vec<TreeNode>,
    edges: EdgePositions,
    probs: EdgeProbs,
    /// The indentation of each node's children, and the line that set it.
    child_indent: Vec<Option<(usize, usize)>>,
    stack: Vec<Frame>,
    refs: Vec<Reference>,
    anchors: HashMap<String, (u32, usize)>,
    /// The indentation character of the file and the line that set it.
    indent_style: Option<(char, usize)>,
    /// Whether a title, loop rule or node has been read (the title must
    /// come first).
    seen_content: bool,
}

impl Parser {
    /// Reads one line: a blank or comment line, a header (title, loop
    /// rule), a reference `*NAME` or a node.
    fn line(&mut self, at: &Line) -> Result<(), ParseError> {
        let line = strip_comment(at.raw);
        if line.trim().is_empty() {
            return Ok(());
        }
        let ws_end = line
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map(|(b, _)| b)
            .unwrap_or(line.len());
        let indent = &line[..ws_end];
        self.check_indent(at, indent)?;
        let width = indent.chars().count();
        let content = line[ws_end..].trim_end();
        if self.title_header(at, line, content, ws_end)?
            || self.loops_header(at, content, ws_end)?
        {
            return Ok(());
        }
        self.seen_content = true;

        let toks = tokens(content, ws_end);
        let (t0_at, t0) = toks[0];
        let parent = self.parent_of(at, width, t0_at)?;
        match t0.strip_prefix('*') {
            Some(name) => self.reference(at, &toks, name, parent, width),
            None => self.node(at, &toks, parent, width),
        }
    }

    /// Indentation: spaces or tabs, never both in one file.
    fn check_indent(&mut self, at: &Line, indent: &str) -> Result<(), ParseError> {
        for (b, ch) in indent.char_indices() {
            if ch != ' ' && ch != '\t' {
                return Err(at.err(b, format!("indent with spaces or tabs only, found {ch:?}")));
            }
            match self.indent_style {
                None => self.indent_style = Some((ch, at.ln)),
                Some((style, since)) if style != ch => {
                    let (used, other) = if style == ' ' {
                        ("spaces", "a tab")
                    } else {
                        ("tabs", "a space")
                    };
                    return Err(at.err(
                        b,
                        format!("mixed tabs and spaces: this file indents with {used} (since line {since}), found {other}"),
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The optional title line `tree "…"`; whether this line is one.
    fn title_header(
        &mut self,
        at: &Line,
        line: &str,
        content: &str,
        ws_end: usize,
    ) -> Result<bool, ParseError> {
        let Some(rest) = content.strip_prefix("tree") else {
            return Ok(false);
        };
        let after = rest.trim_start();
        if !(after.starts_with('"') && rest.len() > after.len()) {
            return Ok(false);
        }
        let q = ws_end + 4 + (rest.len() - after.len());
        if self.seen_content {
            return Err(at.err(
                ws_end,
                "the title line `tree \"…\"` must come before the nodes",
            ));
        }
        let inner = &after[1..];
        let Some(close) = inner.find('"') else {
            return Err(at.err(line.len(), "expected a closing `\"` after the title"));
        };
        let trailing = inner[close + 1..].trim();
        if !trailing.is_empty() {
            let at_byte = q + 1 + close + 1 + inner[close + 1..].find(trailing).unwrap_or(0);
            return Err(at.err(
                at_byte,
                format!("expected the end of the line after the title, found `{trailing}`"),
            ));
        }
        self.title = Some(inner[..close].to_string());
        self.title_line = at.ln;
        self.seen_content = true;
        Ok(true)
    }

    /// The optional loop rule of a cyclic graph, a header before the root
    /// (after it, `loops = …` is a leaf named `loops`); whether this line
    /// is one.
    fn loops_header(
        &mut self,
        at: &Line,
        content: &str,
        ws_end: usize,
    ) -> Result<bool, ParseError> {
        let Some(rest) = content
            .strip_prefix("loops")
            .filter(|_| self.nodes.is_empty())
        else {
            return Ok(false);
        };
        let Some(after) = rest.trim_start().strip_prefix('=') else {
            return Ok(false);
        };
        if let Some((_, first)) = self.loops {
            return Err(at.err(
                ws_end,
                format!("`loops = …` is given twice (first on line {first})"),
            ));
        }
        let name = after.trim();
        let name_at = ws_end + content.len() - after.trim_start().len();
        let Some(rule) = LoopRule::from_name(name) else {
            let names: Vec<&str> = LoopRule::ALL.iter().map(|r| r.name()).collect();
            return Err(at.err(
                name_at,
                format!("unknown loop rule `{name}`: expected {}", names.join(", ")),
            ));
        };
        self.loops = Some((rule, at.ln));
        self.seen_content = true;
        Ok(true)
    }

    /// Where a node indented `width` columns goes: pops the frames that
    /// are not its ancestors and checks that the parent may take it as a
    /// child. `None` for the root.
    fn parent_of(
        &mut self,
        at: &Line,
        width: usize,
        t0_at: usize,
    ) -> Result<Option<u32>, ParseError> {
        while self.stack.last().is_some_and(|f| f.indent >= width) {
            self.stack.pop();
        }
        let Some(f) = self.stack.last() else {
            if self.nodes.is_empty() {
                return Ok(None);
            }
            return Err(at.err(
                t0_at,
                format!(
                    "a tree has one root (`{}` on line {}): indent this line under a node",
                    self.nodes[0].label, self.nodes[0].line
                ),
            ));
        };
        let Some(p) = f.node else {
            return Err(at.err(
                t0_at,
                format!("`{}` is a reference and cannot have children here; give them where the shared node is defined", f.text),
            ));
        };
        if let NodeKind::Leaf(v) = self.nodes[p as usize].kind {
            return Err(at.err(
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
        match self.child_indent[p as usize] {
            None => self.child_indent[p as usize] = Some((width, at.ln)),
            Some((w, first)) if w != width => {
                return Err(at.err(
                    t0_at,
                    format!(
                        "bad indentation: the children of `{}` are indented {w} columns (line {first}), this line {width}",
                        f.text
                    ),
                ))
            }
            Some(_) => {}
        }
        if self.nodes[p as usize].children.len() >= u16::MAX as usize {
            return Err(at.err(
                t0_at,
                format!(
                    "too many children under `{}` (at most {})",
                    f.text,
                    u16::MAX
                ),
            ));
        }
        Ok(Some(p))
    }

    /// A reference line `*NAME [prob=…]`: a child slot that
    /// [`checks::finish`] fills with the node defined by `&NAME`.
    fn reference(
        &mut self,
        at: &Line,
        toks: &[(usize, &str)],
        name: &str,
        parent: Option<u32>,
        width: usize,
    ) -> Result<(), ParseError> {
        let (t0_at, t0) = toks[0];
        if !valid_name(name) {
            return Err(at.err(t0_at + 1, "expected a shared-node name after `*`"));
        }
        let mut prob = None;
        for &(tok_at, extra) in &toks[1..] {
            match extra.strip_prefix("prob=") {
                Some(p) => read_prob(at, tok_at, p, &mut prob)?,
                None => return Err(at.err(tok_at, format!("expected the end of the line or `prob=…` after `{t0}` (a reference stands alone), found `{extra}`"))),
            }
        }
        let Some(p) = parent else {
            return Err(at.err(t0_at, "the root cannot be a reference `*NAME`"));
        };
        let col = col_of(at.raw, t0_at);
        self.probs[p as usize].push(prob);
        self.refs.push(Reference {
            name: name.to_string(),
            parent: p,
            slot: self.nodes[p as usize].children.len(),
            line: at.ln,
            col,
        });
        self.nodes[p as usize].children.push(u32::MAX);
        self.edges[p as usize].push((at.ln, col));
        self.stack.push(Frame {
            indent: width,
            node: None,
            text: t0.to_string(),
        });
        Ok(())
    }

    /// A node line: LABEL (or|and|chance|= VALUE) [p=…] [eval=…] [eval2=…]
    /// [prob=…] [&NAME].
    fn node(
        &mut self,
        at: &Line,
        toks: &[(usize, &str)],
        parent: Option<u32>,
        width: usize,
    ) -> Result<(), ParseError> {
        let (t0_at, t0) = toks[0];
        let mut rest: Vec<(usize, &str)> = toks[1..].to_vec();
        let (label, inline_value) = match t0.find('=') {
            Some(eq) => (&t0[..eq], Some((t0_at + eq, &t0[eq + 1..]))),
            None => (t0, None),
        };
        if label.is_empty() || label.starts_with('&') || label.contains('"') {
            return Err(at.err(
                t0_at,
                format!("expected a node label (one word), found `{t0}`"),
            ));
        }
        let head = LabelHead {
            label,
            after_label: t0_at + label.len(),
            inline_value,
        };
        let kind = node_kind(at, &head, &mut rest)?;
        let hints = read_hints(at, label, &kind, rest)?;
        let idx = self.nodes.len() as u32;
        if let Some(name) = &hints.share_name {
            if let Some(&(_, first)) = self.anchors.get(name) {
                let name_at = toks
                    .iter()
                    .find(|(_, t)| t.strip_prefix('&') == Some(name))
                    .map(|&(a, _)| a)
                    .unwrap_or(t0_at);
                return Err(at.err(
                    name_at,
                    format!("duplicate shared-node name `&{name}` (first defined on line {first})"),
                ));
            }
            self.anchors.insert(name.clone(), (idx, at.ln));
        }
        self.push_node(at, t0_at, label, kind, hints, parent)?;
        self.stack.push(Frame {
            indent: width,
            node: Some(idx),
            text: label.to_string(),
        });
        Ok(())
    }

    /// Adds a node read from line `at` and its edge from `parent`.
    fn push_node(
        &mut self,
        at: &Line,
        t0_at: usize,
        label: &str,
        kind: NodeKind,
        hints: Hints,
        parent: Option<u32>,
    ) -> Result<(), ParseError> {
        let idx = self.nodes.len() as u32;
        let col = col_of(at.raw, t0_at);
        self.nodes.push(TreeNode {
            label: label.to_string(),
            kind,
            win_rate: hints.win_rate,
            eval: hints.eval,
            eval2: hints.eval2,
            children: Vec::new(),
            probs: Vec::new(),
            share_name: hints.share_name,
            line: at.ln,
        });
        self.edges.push(Vec::new());
        self.probs.push(Vec::new());
        self.child_indent.push(None);
        match parent {
            Some(p) => {
                self.nodes[p as usize].children.push(idx);
                self.edges[p as usize].push((at.ln, col));
                self.probs[p as usize].push(hints.prob);
            }
            None => {
                if let Some((_, l, c)) = hints.prob {
                    return Err(ParseError::new(l, c, "the root has no parent chance node: `prob=` belongs on the child lines of a `chance` node"));
                }
            }
        }
        Ok(())
    }

    /// Hands what was read to [`checks::finish`], once every line is read.
    fn finish(self, text: &str) -> Result<Tree, ParseError> {
        if self.nodes.is_empty() {
            return Err(if self.title.is_some() {
                ParseError::new(self.title_line + 1, 1, "expected the root node after the title (e.g. `A or` with its children indented below)")
            } else {
                ParseError::new(1, 1, "an empty tree: expected a root node such as `A or` with children indented below it, or a leaf `A = win`")
            });
        }
        checks::finish(
            text,
            Parsed {
                title: self.title,
                loops: self.loops,
                nodes: self.nodes,
                edges: self.edges,
                probs: self.probs,
                refs: self.refs,
                anchors: self.anchors,
            },
        )
    }
}

/// A node line's first word: the label, the offset just after it, and
/// the value written onto it (`LABEL=VALUE`: the `=`'s offset and the
/// text after it), if any.
struct LabelHead<'a> {
    label: &'a str,
    after_label: usize,
    inline_value: Option<(usize, &'a str)>,
}

/// The kind of a node from what follows its label: `or`, `and`, `chance`
/// or a value (`= VALUE`, `=VALUE` or `LABEL=VALUE`). Takes the tokens it
/// reads off the front of `rest`.
fn node_kind<'a>(
    at: &Line,
    head: &LabelHead<'a>,
    rest: &mut Vec<(usize, &'a str)>,
) -> Result<NodeKind, ParseError> {
    let kind_word = rest.first().map_or("", |&(_, k)| k);
    match value_token(at, head, rest)? {
        Some((value_at, v)) => match parse_value(v) {
            Some(val) => Ok(NodeKind::Leaf(val)),
            None => Err(at.err(
                value_at,
                format!("bad value `{v}`: expected win, loss, draw, an integer or (in a tree with chance nodes) a real number such as 2.5"),
            )),
        },
        None if kind_word.eq_ignore_ascii_case("or") => Ok(NodeKind::Or),
        None if kind_word.eq_ignore_ascii_case("chance") => Ok(NodeKind::Chance),
        None => Ok(NodeKind::And),
    }
}

/// The value text of a leaf and its offset, or `None` for an internal
/// node (whose kind word it takes off `rest`).
fn value_token<'a>(
    at: &Line,
    head: &LabelHead<'a>,
    rest: &mut Vec<(usize, &'a str)>,
) -> Result<Option<(usize, &'a str)>, ParseError> {
    const NO_VALUE: &str = "expected a value after `=`: win, loss, draw or an integer";
    let (label, after_label) = (head.label, head.after_label);
    match head.inline_value {
        Some((eq_at, v)) if !v.is_empty() => return Ok(Some((eq_at + 1, v))),
        Some((eq_at, _)) => {
            if rest.is_empty() {
                return Err(at.err(eq_at + 1, NO_VALUE));
            }
            return Ok(Some(rest.remove(0)));
        }
        None => {}
    }
    match rest.first().copied() {
        None => Err(at.err(
            after_label,
            format!("expected `or`, `and`, `chance` or `= VALUE` after `{label}` (a leaf needs a value: win, loss, draw or a number)"),
        )),
        Some((_, k))
            if k.eq_ignore_ascii_case("or")
                || k.eq_ignore_ascii_case("and")
                || k.eq_ignore_ascii_case("chance") =>
        {
            rest.remove(0);
            Ok(None)
        }
        Some((eq_at, "=")) => {
            rest.remove(0);
            if rest.is_empty() {
                return Err(at.err(eq_at + 1, NO_VALUE));
            }
            Ok(Some(rest.remove(0)))
        }
        Some((v_at, v)) if v.starts_with('=') => {
            rest.remove(0);
            Ok(Some((v_at + 1, &v[1..])))
        }
        Some((k_at, k)) => Err(at.err(
            k_at,
            format!("unknown node kind `{k}`: expected `or`, `and`, `chance` or `= VALUE`"),
        )),
    }
}

/// The hints after a node's kind or value: `p=`, `eval=`, `eval2=`,
/// `prob=` and `&NAME`, each at most once.
fn read_hints(
    at: &Line,
    label: &str,
    kind: &NodeKind,
    rest: Vec<(usize, &str)>,
) -> Result<Hints, ParseError> {
    let mut hints = Hints::default();
    for (tok_at, t) in rest {
        if let Some(p) = t.strip_prefix("prob=") {
            read_prob(at, tok_at, p, &mut hints.prob)?;
        } else if let Some(p) = t.strip_prefix("p=") {
            read_win_rate(at, tok_at, p, &mut hints.win_rate)?;
        } else if let Some(e) = t.strip_prefix("eval2=") {
            read_eval(at, tok_at, "eval2", e, &mut hints.eval2)?;
        } else if let Some(e) = t.strip_prefix("eval=") {
            read_eval(at, tok_at, "eval", e, &mut hints.eval)?;
        } else if let Some(name) = t.strip_prefix('&') {
            if hints.share_name.is_some() {
                return Err(at.err(tok_at, "a node has at most one `&NAME`"));
            }
            if !valid_name(name) {
                return Err(at.err(tok_at + 1, "expected a shared-node name after `&`"));
            }
            hints.share_name = Some(name.to_string());
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
            return Err(at.err(tok_at, msg));
        } else {
            return Err(at.err(tok_at, format!("expected a hint `p=0.7`, `eval=N`, `eval2=N`, `prob=0.25` or a shared-node name `&NAME`, found `{t}`")));
        }
    }
    Ok(hints)
}

/// A `prob=P` hint at byte `tok_at` (P is the text after `prob=`), on a
/// node or a reference line.
fn read_prob(
    at: &Line,
    tok_at: usize,
    p: &str,
    prob: &mut Option<(f64, usize, usize)>,
) -> Result<(), ParseError> {
    if prob.is_some() {
        return Err(at.err(tok_at, "`prob=` is given twice"));
    }
    match parse_prob(p) {
        Some(x) => {
            *prob = Some((x, at.ln, col_of(at.raw, tok_at)));
            Ok(())
        }
        None => Err(at.err(
            tok_at + 5,
            format!("expected a probability in (0, 1] after `prob=`, found `{p}`"),
        )),
    }
}

/// A `p=P` hint (a win rate in [0, 1]) at byte `tok_at`.
fn read_win_rate(
    at: &Line,
    tok_at: usize,
    p: &str,
    win_rate: &mut Option<f64>,
) -> Result<(), ParseError> {
    if win_rate.is_some() {
        return Err(at.err(tok_at, "`p=` is given twice"));
    }
    match p.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => {
            *win_rate = Some(x);
            Ok(())
        }
        _ => Err(at.err(
            tok_at + 2,
            format!("expected a win rate between 0 and 1 after `p=`, found `{p}`"),
        )),
    }
}

/// An `eval=N` or `eval2=N` hint (`key` says which) at byte `tok_at`.
fn read_eval(
    at: &Line,
    tok_at: usize,
    key: &str,
    e: &str,
    eval: &mut Option<i32>,
) -> Result<(), ParseError> {
    if eval.is_some() {
        return Err(at.err(tok_at, format!("`{key}=` is given twice")));
    }
    let value_at = tok_at + key.len() + 1;
    match e.parse::<i32>() {
        Ok(x) if x.abs() <= MAX_EVAL => {
            *eval = Some(x);
            Ok(())
        }
        Ok(_) => Err(at.err(
            value_at,
            format!("expected an evaluation between -{MAX_EVAL} and {MAX_EVAL} after `{key}=` (±{WIN} is a won game), found `{e}`"),
        )),
        Err(_) => Err(at.err(
            value_at,
            format!("expected an integer after `{key}=`, found `{e}`"),
        )),
    }
}
