//! Hand-written AND/OR trees and DAGs (docs/architecture.md "Games"): the teaching
//! trees of the papers and the lecture notes, written by hand in a small
//! indentation-based text format.
//!
//! # The format
//!
//! ```text
//! # seesaw effect: two near-equal subtrees        <- `#` starts a comment
//! tree "Seesaw"                                   <- optional title line
//! A or                                            <- LABEL KIND
//!   B and p=0.55                                  <- hints: p=, eval=
//!     D = win                                     <- LABEL = VALUE (a leaf)
//!     E or &shared                                <- &NAME defines a shared node
//!       F = loss
//!       G = 3                                     <- integer score
//!   C and
//!     *shared                                     <- *NAME reuses it (a DAG)
//!     H = draw
//! ```
//!
//! - One node per line. Children are indented deeper than their parent,
//!   all siblings at the same depth; indent with spaces or with tabs but
//!   not both in one file.
//! - `LABEL or` / `LABEL and` is an internal node: OR nodes are moves of
//!   the OR player ([`Player::First`], who asks the question), AND nodes of
//!   the other player. An internal node needs at least one child and has
//!   no value.
//! - `LABEL = VALUE` is a leaf, i.e. a finished game: `win`, `loss`, `draw`
//!   (from the OR player's point of view, scores +1, −1, 0) or an integer
//!   score (OR player's view) for multi-valued searches. `D=win` is accepted
//!   too. A leaf must have a value: a line with only a label is an error.
//! - Hints, on any node, in any order after the kind or value: `p=0.7` is
//!   the probability that the OR player wins from this node (returned by
//!   [`Game::leaf_win_rate_hint`], used by Monte-Carlo searches instead of
//!   playouts); `eval=12` is the node's static evaluation (OR player's
//!   view, strictly between −10000 and 10000): what a depth-limited search
//!   such as alpha-beta sees when its horizon cuts the tree at this inner
//!   node, or when it counts an unsearched (cut-off) child as a leaf. An
//!   inner node without `eval=` evaluates to 0. A leaf is always worth its
//!   value (its `eval=` is ignored by those searches).
//! - On the evaluation scale ([`crate::game::eval`]) a leaf `= win` is
//!   worth +10000, `= loss` −10000, `= draw` 0 and `= N` exactly N.
//! - `&NAME` after a node defines a shared node; a line `*NAME` elsewhere
//!   makes that same node a child there too (it may come before or after
//!   the definition). The graph must stay acyclic: a shared node that
//!   contains itself is rejected, naming the cycle.
//! - Labels are single words (no spaces, `#`, `=`; not starting with `*`
//!   or `&`); siblings must have different labels so that a move (the
//!   child's label) is unambiguous.
//! - `tree "TITLE"`, if present, is the first line that is not blank or a
//!   comment.
//!
//! A position ([`TreeGame`]) is a node of a parsed tree; the moves are its
//! children (`Move = u16`, the child index, written as the child's label).
//! [`Game::notation`] prints the subtree below the current node in this
//! format, so it parses back to the same tree.

mod checks;
mod format;
mod write;

use std::sync::Arc;

use super::{Game, GameKind, MoveError, Outcome, ParseError, Player};

/// The value of a leaf, from the OR player's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LeafValue {
    /// The OR player wins (score +1).
    Win,
    /// The OR player loses (score −1).
    Loss,
    /// Neither side wins (score 0).
    Draw,
    /// An integer score for scored trees (OR player's view).
    Score(i32),
    /// A real score (trees with chance nodes only, where values are
    /// expectations anyway).
    Real(f64),
}

impl LeafValue {
    /// The score used for [`Outcome`]: win +1, loss −1, draw 0, the
    /// integer itself, or the sign of a real score (the proof searches,
    /// which read [`Outcome`], refuse trees with chance nodes, so they
    /// never see one).
    pub fn score(self) -> i32 {
        match self {
            LeafValue::Win => 1,
            LeafValue::Loss => -1,
            LeafValue::Draw => 0,
            LeafValue::Score(s) => s,
            LeafValue::Real(x) => {
                if x > 0.0 {
                    1
                } else if x < 0.0 {
                    -1
                } else {
                    0
                }
            }
        }
    }

    /// The exact score as a real number.
    pub fn real(self) -> f64 {
        match self {
            LeafValue::Real(x) => x,
            v => f64::from(v.score()),
        }
    }

    /// The value as written in the format.
    pub fn text(self) -> String {
        match self {
            LeafValue::Win => "win".into(),
            LeafValue::Loss => "loss".into(),
            LeafValue::Draw => "draw".into(),
            LeafValue::Score(s) => s.to_string(),
            LeafValue::Real(x) => format!("{x:?}"),
        }
    }
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeKind {
    /// The OR player ([`Player::First`]) moves.
    Or,
    /// The AND player ([`Player::Second`]) moves.
    And,
    /// Chance picks the child, with the probabilities of the child lines'
    /// `prob=` hints (uniform without them).
    Chance,
    /// A finished game with its value.
    Leaf(LeafValue),
}

/// What happens when a move enters a node already on the path from the
/// root (the `loops = …` header of a cyclic graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopRule {
    /// The game is drawn.
    Draw,
    /// The player who made that move loses.
    LooperLoses,
    /// The player who made that move wins.
    LooperWins,
}

impl LoopRule {
    /// Every rule, in the order the error messages list them.
    pub const ALL: [LoopRule; 3] = [LoopRule::Draw, LoopRule::LooperLoses, LoopRule::LooperWins];

    /// The name in the `loops = …` header.
    pub fn name(self) -> &'static str {
        match self {
            LoopRule::Draw => "draw",
            LoopRule::LooperLoses => "looper-loses",
            LoopRule::LooperWins => "looper-wins",
        }
    }

    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<LoopRule> {
        LoopRule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The result when `looper` closes a loop.
    pub fn outcome(self, looper: Player) -> Outcome {
        match self {
            LoopRule::Draw => Outcome::DRAW,
            LoopRule::LooperLoses => Outcome::win_for(looper.other()),
            LoopRule::LooperWins => Outcome::win_for(looper),
        }
    }
}

/// One node of a parsed tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// The move label on the edge into the node (its name in the file).
    pub label: String,
    /// OR, AND or chance.
    pub kind: NodeKind,
    /// `p=`: probability that the OR player wins from here.
    pub win_rate: Option<f64>,
    /// `eval=`: a heuristic evaluation, OR player's view.
    pub eval: Option<i32>,
    /// `eval2=`: a second evaluation, the opponent model's f2 (OR
    /// player's view).
    pub eval2: Option<i32>,
    /// Children, in file order (indices into [`Tree::nodes`]).
    pub children: Vec<u32>,
    /// At a chance node, the probability of each child (parallel to
    /// `children`, summing to 1); empty elsewhere.
    pub probs: Vec<f64>,
    /// The `&NAME` of a shared node.
    pub share_name: Option<String>,
    /// 1-based line where the node is defined.
    pub line: usize,
}

/// A parsed tree (a DAG when shared nodes are used); node 0 is the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// The title line `tree "…"`, if the file has one.
    pub title: Option<String>,
    /// The loop rule of a cyclic graph (`loops = …`); `None` for the
    /// acyclic trees and DAGs.
    pub loops: Option<LoopRule>,
    /// All nodes, root first; edges are the `children` lists.
    pub nodes: Vec<TreeNode>,
}

impl Tree {
    /// Parses the text format (see the module documentation).
    pub fn parse(text: &str) -> Result<Tree, ParseError> {
        format::parse(text)
    }

    /// The node at `index`.
    pub fn node(&self, index: u32) -> &TreeNode {
        &self.nodes[index as usize]
    }

    /// The subtree below `index` in the text format (with the header
    /// lines).
    pub fn write_subtree(&self, index: u32) -> String {
        write::write(self, index)
    }

    /// Whether the tree has a chance node.
    pub fn has_chance(&self) -> bool {
        self.nodes.iter().any(|n| n.kind == NodeKind::Chance)
    }

    /// The least and greatest leaf score (OR player's view).
    pub fn leaf_range(&self) -> Option<(f64, f64)> {
        self.nodes
            .iter()
            .filter_map(|n| match n.kind {
                NodeKind::Leaf(v) => Some(v.real()),
                _ => None,
            })
            .fold(None, |acc, x| match acc {
                None => Some((x, x)),
                Some((lo, hi)) => Some((f64::min(lo, x), f64::max(hi, x))),
            })
    }
}

/// A well-mixed 64-bit hash of a node index.
fn mix(x: u64) -> u64 {
    super::mix::zobrist_key(x)
}

/// A position in a hand-written tree: the shared parsed tree and the
/// current node.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeGame {
    tree: Arc<Tree>,
    node: u32,
    /// The nodes from the root to the current one, kept only when the
    /// tree has a loop rule (the outcome of a repeated node depends on the
    /// path); empty otherwise.
    path: Vec<u32>,
    /// XOR of [`path_key`] over `path` ([`Game::path_hash`]).
    path_hash: u64,
}

/// A node's share of [`Game::path_hash`] (the XOR over the path: the set
/// of nodes on it, since a node is on a path once before it repeats).
fn path_key(node: u32) -> u64 {
    mix(0x7061_7468_0000_0000 ^ u64::from(node))
}

impl TreeGame {
    /// Parses a tree; the position is its root.
    pub fn parse(text: &str) -> Result<TreeGame, ParseError> {
        Ok(TreeGame::from_tree(Arc::new(Tree::parse(text)?)))
    }

    /// The root of an already parsed tree.
    pub fn from_tree(tree: Arc<Tree>) -> TreeGame {
        TreeGame::at_node(tree, 0)
    }

    /// The same tree at another node (as a fresh start: an empty history).
    pub fn at(&self, node: u32) -> TreeGame {
        TreeGame::at_node(Arc::clone(&self.tree), node)
    }

    fn at_node(tree: Arc<Tree>, node: u32) -> TreeGame {
        let (path, path_hash) = if tree.loops.is_some() {
            (vec![node], path_key(node))
        } else {
            (Vec::new(), 0)
        };
        TreeGame {
            tree,
            node,
            path,
            path_hash,
        }
    }

    /// The nodes from the start to the current one in a cyclic graph
    /// (empty in a tree without a loop rule).
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The player who closed a loop, when the current node repeats one on
    /// the path (the mover at the previous node).
    fn looper(&self) -> Option<Player> {
        let (&last, before) = self.path.split_last()?;
        if !before.contains(&last) {
            return None;
        }
        let prev = *before.last()?;
        Some(match self.tree.node(prev).kind {
            NodeKind::And => Player::Second,
            _ => Player::First,
        })
    }

    /// The probabilities of the current chance node's children.
    pub fn probabilities(&self) -> &[f64] {
        &self.cur().probs
    }

    /// The whole parsed tree (the "board" of this game).
    pub fn tree(&self) -> &Arc<Tree> {
        &self.tree
    }

    /// Index of the current node in [`Tree::nodes`].
    pub fn node_index(&self) -> u32 {
        self.node
    }

    fn cur(&self) -> &TreeNode {
        self.tree.node(self.node)
    }

    /// The current node's label.
    pub fn label(&self) -> &str {
        &self.cur().label
    }

    /// The current node's kind.
    pub fn node_kind(&self) -> NodeKind {
        self.cur().kind
    }

    /// The current node's value, if it is a leaf.
    pub fn value(&self) -> Option<LeafValue> {
        match self.cur().kind {
            NodeKind::Leaf(v) => Some(v),
            _ => None,
        }
    }

    /// The `eval=` hint of the current node.
    pub fn eval_hint(&self) -> Option<i32> {
        self.cur().eval
    }

    /// The children of the current node (indices into [`Tree::nodes`]).
    pub fn children(&self) -> &[u32] {
        &self.cur().children
    }

    /// The tree's title, if it has one.
    pub fn title(&self) -> Option<&str> {
        self.tree.title.as_deref()
    }
}

impl Game for TreeGame {
    /// Index of the child in the current node's child list.
    type Move = u16;

    fn kind(&self) -> GameKind {
        GameKind::Tree
    }

    /// OR → first player, AND → second; a leaf (no move left) and a
    /// chance node say the first player, which no search reads.
    fn to_move(&self) -> Player {
        match self.cur().kind {
            NodeKind::And => Player::Second,
            NodeKind::Or | NodeKind::Chance | NodeKind::Leaf(_) => Player::First,
        }
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        if self.looper().is_some() {
            return;
        }
        // The parser caps the number of children at u16::MAX.
        out.extend(0..self.cur().children.len() as u16);
    }

    fn play(&mut self, m: u16) {
        self.node = self.cur().children[m as usize];
        if self.tree.loops.is_some() {
            self.path.push(self.node);
            self.path_hash ^= path_key(self.node);
        }
    }

    /// A leaf's value, or in a cyclic graph the loop rule's result when
    /// the current node repeats one on the path.
    fn outcome(&self) -> Option<Outcome> {
        match self.cur().kind {
            NodeKind::Leaf(v) => Some(Outcome { score: v.score() }),
            _ => {
                let looper = self.looper()?;
                Some(self.tree.loops?.outcome(looper))
            }
        }
    }

    fn final_score(&self) -> Option<f64> {
        match self.cur().kind {
            NodeKind::Leaf(v) => Some(v.real()),
            _ => self.outcome().map(|o| f64::from(o.score)),
        }
    }

    fn is_chance(&self) -> bool {
        self.cur().kind == NodeKind::Chance && self.looper().is_none()
    }

    fn chance_probabilities(&self, out: &mut Vec<f64>) {
        if self.is_chance() {
            out.extend_from_slice(&self.cur().probs);
        }
    }

    fn has_chance_nodes(&self) -> bool {
        self.tree.has_chance()
    }

    /// The least and greatest leaf score of the whole tree (win/loss/draw
    /// count ±1/0; the loop rules give ±1 or 0).
    fn score_range(&self) -> Option<(f64, f64)> {
        let (lo, hi) = self.tree.leaf_range().unwrap_or((0.0, 0.0));
        Some(match self.tree.loops {
            Some(LoopRule::Draw) => (lo.min(0.0), hi.max(0.0)),
            Some(_) => (lo.min(-1.0), hi.max(1.0)),
            None => (lo, hi),
        })
    }

    fn is_repetition(&self) -> bool {
        self.looper().is_some()
    }

    /// True in a cyclic graph: the position carries its path.
    fn history_dependent(&self) -> bool {
        self.tree.loops.is_some()
    }

    fn path_hash(&self) -> u64 {
        self.path_hash
    }

    /// The set of nodes before the current one on the path (sorted), then,
    /// when the current node repeats one of them, a marker and the node
    /// the loop was closed from (whose mover is the looper). Play from a
    /// node depends on its path only through these: a move into a member
    /// of the set (or into the current node) ends the play.
    fn history_key(&self) -> Vec<u64> {
        let Some((&last, before)) = self.path.split_last() else {
            return Vec::new();
        };
        let mut key: Vec<u64> = before.iter().map(|&n| u64::from(n)).collect();
        key.sort_unstable();
        key.dedup();
        if before.contains(&last) {
            key.push(u64::MAX);
            key.push(before.last().map_or(u64::MAX, |&p| u64::from(p)));
        }
        key
    }

    /// The node's identity: a shared node hashes the same from every
    /// parent (transpositions), distinct nodes differ.
    fn hash(&self) -> u64 {
        mix(0x7472_6565_0000_0000 ^ u64::from(self.node))
    }

    fn format_move(&self, m: u16) -> String {
        match self.cur().children.get(m as usize) {
            Some(&c) => self.tree.node(c).label.clone(),
            None => format!("#{m}"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        let t = text.trim();
        self.cur()
            .children
            .iter()
            .position(|&c| self.tree.node(c).label == t)
            .map(|i| i as u16)
            .ok_or_else(|| {
                let names: Vec<&str> = self
                    .cur()
                    .children
                    .iter()
                    .map(|&c| self.tree.node(c).label.as_str())
                    .collect();
                if names.is_empty() {
                    MoveError::illegal(t, format!("`{}` is a leaf", self.label()))
                } else {
                    MoveError::illegal(
                        t,
                        format!(
                            "the children of `{}` are {}",
                            self.label(),
                            names.join(", ")
                        ),
                    )
                }
            })
    }

    fn notation(&self) -> String {
        self.tree.write_subtree(self.node)
    }

    fn into_any(self) -> super::AnyPosition {
        super::AnyPosition::Tree(self)
    }

    fn move_count(&self) -> usize {
        if self.looper().is_some() {
            0
        } else {
            self.cur().children.len()
        }
    }

    /// The OR player asks the question, whoever moves at the root.
    fn default_attacker(&self) -> Option<Player> {
        Some(Player::First)
    }

    fn leaf_win_rate_hint(&self) -> Option<f64> {
        self.cur().win_rate
    }

    /// The `eval=` hint, or 0 without one (see the module documentation).
    fn evaluate(&self) -> Option<i32> {
        Some(self.cur().eval.unwrap_or(0))
    }

    /// The `eval2=` hint, else the `eval=` hint, else 0: the opponent
    /// model's evaluation f2.
    fn evaluate_model(&self) -> Option<i32> {
        let n = self.cur();
        Some(n.eval2.or(n.eval).unwrap_or(0))
    }

    /// A leaf's value: `win`/`loss`/`draw` are ±WIN/0, a scored leaf keeps
    /// its score.
    fn terminal_value(&self, o: Outcome) -> i32 {
        match self.value() {
            Some(LeafValue::Score(s)) => s,
            Some(v) => super::eval::terminal_value(Outcome { score: v.score() }),
            None => super::eval::terminal_value(o),
        }
    }
}
