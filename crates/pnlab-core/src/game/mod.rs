//! Games: the rules the searches run on, one file per game, plus notation.
//!
//! Every game implements [`Game`]. The searches are generic over it; the
//! dynamic side of the program (CLI, app, position files) holds positions as
//! an [`AnyPosition`] and reaches the generic code through
//! [`with_position!`](crate::with_position), the one place that lists the
//! games.

pub mod connect;
pub mod connect4;
pub mod connect4_bits;
pub mod eval;
pub mod ewn;
pub mod external;
pub mod hex;
pub mod mix;
pub mod notation;
pub mod othello;
pub mod perft;
pub mod pgame;
pub mod shuffled;
pub mod tictactoe;
pub mod tree;
pub mod within;
pub mod xiangqi;

use std::fmt::Debug;
use std::hash::Hash;

pub use notation::{MoveError, ParseError};

/// The two players. `First` moves first from a game's initial position
/// (X in tic-tac-toe and Connect Four, Black in Hex and Othello, MAX in a
/// P-game, the OR player of a hand-written tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Player {
    /// Moves first: X, Black in Hex and Othello, Red in xiangqi and EWN, MAX, a tree's OR player.
    First,
    /// Moves second.
    Second,
}

impl Player {
    /// The opponent.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// Who holds a cell, from whether the first and the second player's
    /// stone set contains it (`None`: neither; the sets never share one).
    #[inline]
    pub fn holding(first: bool, second: bool) -> Option<Player> {
        if first {
            Some(Player::First)
        } else if second {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// 0 for `First`, 1 for `Second` (array index).
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

/// The result of a finished game as a score from the **first** player's
/// point of view: > 0 first player wins, < 0 second player wins, 0 draw.
///
/// Games without a natural score use ±1/0; Othello uses the final disc
/// difference with empties given to the winner (FFO/Edax convention);
/// P-games use the sum of the move values along the path (docs/algorithms.md §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Positive when the first player won, negative when the second did, 0 for a draw.
    pub score: i32,
}

impl Outcome {
    /// Neither player won (score 0).
    pub const DRAW: Outcome = Outcome { score: 0 };

    /// A plain win for `p` (score ±1).
    pub fn win_for(p: Player) -> Outcome {
        Outcome {
            score: match p {
                Player::First => 1,
                Player::Second => -1,
            },
        }
    }

    /// The score seen from `p`'s side.
    #[inline]
    pub fn score_for(self, p: Player) -> i32 {
        match p {
            Player::First => self.score,
            Player::Second => -self.score,
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Player> {
        match self.score.signum() {
            1 => Some(Player::First),
            -1 => Some(Player::Second),
            _ => None,
        }
    }
}

/// The rules of a two-player, perfect-information, turn-based game.
///
/// Contract (checked by each game's tests): `legal_moves` is deterministic
/// for a position and empty exactly when `outcome` is `Some`; a pass, where
/// a game has one (Othello), is a move like any other.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// A move; small and `Copy` so the tree arena can store one per node.
    type Move: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;

    /// Which game this is.
    fn kind(&self) -> GameKind;
    /// The player to move.
    fn to_move(&self) -> Player;
    /// Appends the legal moves, in a deterministic order, to `out` (which the
    /// caller clears). Empty iff the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);
    /// `Some` when the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A 64-bit hash of the position including the side to move (Zobrist or
    /// equivalent); equal positions hash equally.
    fn hash(&self) -> u64;
    /// The move in the game's notation (`d3`, `4`, `pass`, a tree label …).
    fn format_move(&self, m: Self::Move) -> String;
    /// Parses a move in the game's notation, checking it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// The position in the game's native notation (round-trips through the
    /// game's parser).
    fn notation(&self) -> String;
    /// Wraps the position for the dynamic side of the program.
    fn into_any(self) -> AnyPosition;

    /// The position after the legal move `m` (a copy; `self` stays as it
    /// is), for code that walks the children of a position one by one.
    fn played(&self, m: Self::Move) -> Self {
        let mut child = self.clone();
        child.play(m);
        child
    }

    /// Whether `m` is among the legal moves here (a scan of the list: for
    /// checking moves read from text, not for searches).
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&m)
    }

    /// Number of legal moves (mobility initialisation, docs/algorithms.md §1).
    fn move_count(&self) -> usize {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.len()
    }

    /// The player whose question a search answers by default. `None` means
    /// the side to move (docs/algorithms.md §0); a hand-written tree says its OR
    /// player.
    fn default_attacker(&self) -> Option<Player> {
        None
    }

    /// Whether [`outcome`](Game::outcome) may depend on the path that led
    /// to this position (a repetition rule, a cyclic graph with a loop
    /// rule): the position then carries its path, and a transposition
    /// table keyed by [`hash`](Game::hash) alone can give wrong answers
    /// (the graph history interaction, Kishimoto & Müller 2004).
    fn history_dependent(&self) -> bool {
        false
    }

    /// Whether chance, not a player, decides the next move here (a die
    /// roll): the legal moves are then the outcomes of the random event,
    /// with the probabilities [`chance_probabilities`](Game::chance_probabilities)
    /// gives. [`to_move`](Game::to_move) still names the player whose turn
    /// the event belongs to (in EinStein würfelt nicht!, the player who
    /// rolls and then moves).
    ///
    /// The proof-number searches answer yes/no questions about games where
    /// players choose every move; they cannot search positions with chance
    /// nodes, and [`has_chance_nodes`](Game::has_chance_nodes) lets the
    /// registry refuse such positions before a search starts. The
    /// expectimax family (`expectimax`, `star1`, `star2`) handles them.
    fn is_chance(&self) -> bool {
        false
    }

    /// At a chance node, appends the probability of each legal move, in
    /// legal-move order (they sum to 1); appends nothing elsewhere.
    fn chance_probabilities(&self, _out: &mut Vec<f64>) {}

    /// Whether this position or any position after it can be a chance node
    /// (a property of the game or of the whole hand-written tree, checked
    /// once before a search starts).
    fn has_chance_nodes(&self) -> bool {
        false
    }

    /// The final score of a finished game as a real number, first player's
    /// view: [`outcome`](Game::outcome)'s score, or the exact value where a
    /// tree with chance nodes gives a leaf a real score (its `outcome`
    /// carries only the sign then).
    fn final_score(&self) -> Option<f64> {
        self.outcome().map(|o| f64::from(o.score))
    }

    /// The smallest and largest final score any game from here can end
    /// with, first player's view (`None` when the game does not say). The
    /// chance-node searches take their score range [L, U] from here by
    /// default.
    fn score_range(&self) -> Option<(f64, f64)> {
        None
    }

    /// Whether this position ends the game only because it repeats a
    /// position on its own path (a loop rule; see
    /// [`history_dependent`](Game::history_dependent)). Its outcome then
    /// depends on the path, so a search must not store it, or anything
    /// computed from it, as the value of the position alone.
    fn is_repetition(&self) -> bool {
        false
    }

    /// For a history-dependent position, a hash of the positions on its
    /// path that a repetition can still reach (in a cyclic graph: the set
    /// of nodes on the path); 0 for positions without history. Two
    /// positions with equal [`hash`](Game::hash) and equal `path_hash`
    /// have the same value, so a search may store values under the pair.
    fn path_hash(&self) -> u64 {
        0
    }

    /// Everything besides the position itself that decides how play goes
    /// on from here, written out in full (not hashed, unlike
    /// [`path_hash`](Game::path_hash)): two equal positions with equal
    /// keys have the same legal moves and the same outcome at every
    /// position of every continuation. Empty for positions without history;
    /// a cyclic graph gives the nodes before the current one on its path
    /// (sorted: only the set matters) and, when the current node repeats
    /// one of them, the node the loop was closed from; xiangqi its earlier
    /// positions since the last irreversible move; the mate question the
    /// attacker's moves left. A proof certificate may share a node between
    /// two paths only when the key agrees ([`crate::certificate`]).
    fn history_key(&self) -> Vec<u64> {
        Vec::new()
    }

    /// An optional hint for a non-terminal leaf of a hand-written tree: the
    /// probability that the first player wins (used instead of playouts).
    fn leaf_win_rate_hint(&self) -> Option<f64> {
        None
    }

    /// The static evaluation of an unfinished position, from the first
    /// player's point of view, strictly inside ±[`eval::WIN`] (the scale is
    /// described in [`eval`]); `None` when the game has no evaluation
    /// function, for every position. Depth-limited searches (alpha-beta
    /// with single conspiracy numbers, CNS, opponent models) call it on the
    /// leaves they cut at their horizon. On a finished position the result
    /// says nothing (callers ask [`outcome`](Game::outcome) first and use
    /// [`terminal_value`](Game::terminal_value)), so a game need not test
    /// for the end of the game twice.
    fn evaluate(&self) -> Option<i32> {
        None
    }

    /// A second static evaluation, the *model* f2 of opponent-model
    /// search (Carmel & Markovitch 1996): how a modelled opponent judges
    /// unfinished positions, on the same scale and from the same (first
    /// player's) point of view as [`evaluate`](Game::evaluate). `None`
    /// when the game has no second evaluation. Each game documents its
    /// choice (a hand-written tree's `eval2=` hints; Othello's plain disc
    /// count).
    fn evaluate_model(&self) -> Option<i32> {
        None
    }

    /// The value of a finished game on the evaluation scale (first
    /// player's view): ±[`eval::WIN`] or 0 ([`eval::terminal_value`]);
    /// hand-written trees give a scored leaf its own score.
    fn terminal_value(&self, o: Outcome) -> i32 {
        eval::terminal_value(o)
    }

    /// Whether `m` (legal here) is a *tactical* move, searched first by the
    /// "captures first" move ordering of depth-limited searches: captures
    /// in chess-like games, moves that win at once or stop the opponent's
    /// immediate win in connection games, corners in Othello. Each game
    /// documents its choice; the default is none.
    fn is_tactical(&self, _m: Self::Move) -> bool {
        false
    }

    /// Plays uniformly random legal moves to the end and returns the result
    /// (docs/algorithms.md §5). Games override this with a faster version.
    fn random_playout(&self, rng: &mut dyn rand::RngCore) -> Outcome {
        let mut g = self.clone();
        let mut moves = Vec::new();
        loop {
            if let Some(o) = g.outcome() {
                return o;
            }
            moves.clear();
            g.legal_moves(&mut moves);
            let i = (rng.next_u64() % moves.len() as u64) as usize;
            g.play(moves[i]);
        }
    }

    /// A *local* heuristic: a positive score E(n → s) for each of `moves`
    /// (legal here), written to `out` in the same order, that compares
    /// sibling moves reliably even if it says little across positions
    /// (SCNS, Pawlewicz & Hayward 2015). Returns `false`, leaving `out`
    /// empty, when the game has no such score; searches then fall back to
    /// the children's static values. Hex scores a cell by its energy in
    /// the Shannon/Anshelevich resistor model.
    fn move_scores(&self, _moves: &[Self::Move], _out: &mut Vec<f64>) -> bool {
        false
    }
}

/// The one table of games: each row is a position type (an
/// [`AnyPosition`] variant), the board painter of the app that draws it,
/// and the games (the [`GameKind`]s, with their stable CLI names) whose
/// positions it holds, each with its inline parser (`parse` unless named)
/// and its own search options. Everything that lists the games comes from
/// here: `GameKind`, [`GameKind::ALL`], names and parsing,
/// [`AnyPosition`] and [`AnyPosition::parse`],
/// [`with_position!`](crate::with_position), the app's board painter
/// dispatch and the CLI's `--game` values (`clap::ValueEnum`). Adding a
/// game is one row here plus the game's own files (docs/architecture.md).
///
/// The table is a macro so that each consumer expands the part it needs:
/// `game_table!(define)` (here), `game_table!(dispatch POS, g => BODY)`
/// (behind `with_position!`) and `game_table!(paint POS, (ARGS))` (the
/// app's painters).
#[macro_export]
macro_rules! game_table {
    ($($mode:tt)*) => {
        $crate::__game_table! { [$($mode)*]
            /// A tic-tac-toe position.
            TicTacToe(tictactoe::TicTacToe) painter tictactoe {
                /// Tic-tac-toe on the 3×3 board.
                TicTacToe "tictactoe"
                    summary "Tic-tac-toe: 9 cells x, o, . row by row (x moves first), e.g. `x...o....`",
            }
            /// A Connect Four position.
            Connect4(connect4::Connect4) painter connect4 {
                /// Connect Four on the 7×6 board.
                Connect4 "connect4"
                    summary "Connect Four on 7×6: the 1-based columns played from the empty board, e.g. `4453` (`` is the empty board)",
            }
            /// A Hex position.
            Hex(hex::Hex) painter hex {
                /// Hex on an N×N rhombus (N = 2…11), without the swap rule.
                Hex "hex"
                    summary "Hex on N×N, N = 2…11, no swap: `SIZE:` then the cells played alternately from the empty board, Black first, e.g. `5:c3 b4`",
            }
            /// An Othello position.
            Othello(othello::Othello) painter othello {
                /// Othello (Reversi) on the 8×8 board.
                Othello "othello"
                    summary "Othello: OBF, 64 squares X, O, - from a1 to h8 row by row, a space, the side to move X or O",
            }
            /// A P-game node.
            PGame(pgame::PGame) painter pgame {
                /// A random P-game tree (docs/algorithms.md §10).
                PGame "pgame"
                    summary "A random P-game tree: `b=BRANCHING,d=DEPTH,seed=SEED`, e.g. `b=2,d=20,seed=17`",
            }
            /// A node of a hand-written tree.
            Tree(tree::TreeGame) painter tree {
                /// A hand-written tree file (`.tree`).
                Tree "tree"
                    summary "A hand-written tree (a .tree file's text: `LABEL or|and …` lines)",
            }
            /// An EinStein würfelt nicht! position.
            Ewn(ewn::Ewn) painter ewn {
                /// EinStein würfelt nicht! (a game with chance nodes).
                Ewn "ewn"
                    summary "EinStein würfelt nicht! (chance nodes): `ROW/ROW/ROW/ROW/ROW SIDE[DIE]`, cubes 1–6 red, a–f blue",
            }
            /// A xiangqi position.
            Xiangqi(xiangqi::Xiangqi) painter xiangqi {
                /// Xiangqi (Chinese chess, docs/algorithms.md §11.1).
                Xiangqi "xiangqi"
                    summary "Xiangqi (Chinese chess): a UCCI FEN",
            }
            /// Any position under the mate question "win within N moves"
            /// ([`within`]); not a game of its own, so it has no kind.
            Within(within::Within) {}
            /// A position of a game whose rules a host program supplies
            /// ([`external`]); its kind is [`GameKind::External`], kept
            /// out of the table's list because no text names its positions.
            External(external::External) {}
            /// Game `connect` or `connect6` (the position knows which).
            Connect(connect::Connect) painter connect {
                /// The connect family Connect(m, n, k, p, q), notation `m,n,k,p,q:stones`.
                Connect "connect"
                    summary "The connect family Connect(m, n, k, p, q): `m,n,k,p,q:stones`" options connect::zone_options::ZoneOptions::PARAMS,
                /// Connect6 = Connect(19, 19, 6, 2, 1), notation `[SIZE:]stones`.
                Connect6 "connect6"
                    summary "Connect6 = Connect(19, 19, 6, 2, 1): `[SIZE:]stones`" parse parse_connect6
                    options connect::zone_options::ZoneOptions::PARAMS,
            }
        }
    };
}

/// The expansions of [`game_table!`](crate::game_table) (not for direct use).
#[doc(hidden)]
#[macro_export]
macro_rules! __game_table {
    ([define] $(
        $(#[$vm:meta])*
        $Var:ident($Ty:ty) $(painter $painter:ident)? {
            $( $(#[$km:meta])* $Kind:ident $name:literal summary $summary:literal
                $(parse $parse:ident)? $(options $opts:expr)? ),* $(,)?
        }
    )*) => {
        /// The games pnlab knows, by their stable CLI names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum GameKind {
            $($( $(#[$km])* #[serde(rename = $name)] $Kind, )*)*
            /// A game whose rules a host program supplies (a Python object
            /// following the module's game protocol, [`external`]). Not in
            /// [`GameKind::ALL`]: no notation names its positions, so no
            /// menu, file or `--game` offers it.
            #[serde(rename = "external")]
            External,
        }

        impl GameKind {
            /// Every game, in the order menus list them.
            pub const ALL: &'static [GameKind] = &[$($(GameKind::$Kind,)*)*];

            /// The CLI name (docs/cli.md `GAME`).
            pub fn name(self) -> &'static str {
                match self {
                    $($(GameKind::$Kind => $name,)*)*
                    GameKind::External => "external",
                }
            }

            /// One line about the game and its inline notation (the
            /// `--game` help, Python's `pnlab.games()`).
            pub fn summary(self) -> &'static str {
                match self {
                    $($(GameKind::$Kind => $summary,)*)*
                    GameKind::External => "A game whose rules a program supplies (a Python object following pnlab's game protocol)",
                }
            }

            /// The game's own search options (Connect6's relevance zones),
            /// offered next to an algorithm's parameters to the algorithms
            /// that take game options (`search::registry::AlgoInfo::params_for`).
            pub fn search_options(self) -> &'static [$crate::params::ParamSpec] {
                match self {
                    $($(GameKind::$Kind => $crate::__game_table!(@options $($opts)?),)*)*
                    GameKind::External => &[],
                }
            }
        }

        /// The CLI's `--game` values come from the table (a page has no
        /// command line).
        #[cfg(not(target_arch = "wasm32"))]
        impl clap::ValueEnum for GameKind {
            fn value_variants<'a>() -> &'a [GameKind] {
                GameKind::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.name()))
            }
        }

        /// A position of any game: what files, the CLI and the app pass around.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyPosition {
            $( $(#[$vm])* $Var($Ty), )*
        }

        impl AnyPosition {
            /// Parses an inline position in `kind`'s native notation (docs/cli.md).
            pub fn parse(kind: GameKind, text: &str) -> Result<AnyPosition, ParseError> {
                Ok(match kind {
                    $($(GameKind::$Kind => AnyPosition::$Var(
                        $crate::__game_table!(@parse $Ty; $($parse)?)(text)?
                    ),)*)*
                    GameKind::External => return Err(ParseError::new(
                        1,
                        1,
                        "a position of a listed game: an external game's positions come from the program that supplies its rules, not from text",
                    )),
                })
            }
        }
    };

    ([dispatch $pos:expr, $g:ident => $body:expr] $(
        $(#[$vm:meta])*
        $Var:ident($Ty:ty) $(painter $painter:ident)? { $($rest:tt)* }
    )*) => {
        match $pos {
            $(
                #[allow(clippy::clone_on_copy)]
                $crate::game::AnyPosition::$Var($g) => $body,
            )*
        }
    };

    ([paint $pos:expr, $args:tt] $(
        $(#[$vm:meta])*
        $Var:ident($Ty:ty) $(painter $painter:ident)? { $($rest:tt)* }
    )*) => {
        match $pos {
            $(
                $crate::game::AnyPosition::$Var(_) =>
                    $crate::__game_table!(@paint [$($painter)?] $args),
            )*
        }
    };

    (@paint [] ($($args:tt)*)) => { false };
    (@paint [$painter:ident] ($($args:tt)*)) => { $painter::draw($($args)*) };
    (@parse $Ty:ty;) => { <$Ty>::parse };
    (@parse $Ty:ty; $parse:ident) => { <$Ty>::$parse };
    (@options) => { &[] };
    (@options $opts:expr) => { $opts };
}

game_table!(define);

impl GameKind {
    /// Parses a CLI name (the `Option` form of [`str::parse`]).
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Names of all games, for error messages.
    pub fn all_names() -> String {
        GameKind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Runs `$body` with `$g` bound to the concrete game inside an
/// [`AnyPosition`]: the single place where generic code meets the list of
/// games (its arms come from [`game_table!`](crate::game_table)).
#[macro_export]
macro_rules! with_position {
    ($pos:expr, $g:ident => $body:expr) => {
        $crate::game_table!(dispatch $pos, $g => $body)
    };
}

/// A repetition rule asked of a game that has none (only xiangqi has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a repetition rule applies to xiangqi positions only, not to {game}")]
pub struct NoRepetitionRule {
    /// The game of the position.
    pub game: GameKind,
}

/// A game name that pnlab does not know; the message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game `{name}`; known games: {}", GameKind::all_names())]
pub struct UnknownGame {
    /// The name that was given.
    pub name: String,
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::from_name(name).ok_or_else(|| UnknownGame {
            name: name.to_string(),
        })
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl AnyPosition {
    /// Which game the position belongs to.
    pub fn kind(&self) -> GameKind {
        with_position!(self, g => g.kind())
    }

    /// The position in its native notation.
    pub fn notation(&self) -> String {
        with_position!(self, g => g.notation())
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        with_position!(self, g => g.to_move())
    }

    /// `Some` when the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(self, g => g.outcome())
    }

    /// The legal moves in notation.
    pub fn legal_move_names(&self) -> Vec<String> {
        with_position!(self, g => {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.into_iter().map(|m| g.format_move(m)).collect()
        })
    }

    /// The position after a move given in notation.
    pub fn after_move(&self, mv: &str) -> Result<AnyPosition, MoveError> {
        let mut p = self.clone();
        with_position!(&mut p, g => {
            let m = g.parse_move(mv)?;
            g.play(m);
        });
        Ok(p)
    }

    /// The position under the question "does the attacker (the default
    /// attacker, normally the side to move) win within `moves` of its own
    /// moves?" ([`within`]).
    /// An existing limit is replaced, not nested.
    pub fn within(self, moves: u32) -> AnyPosition {
        let inner = match self {
            AnyPosition::Within(w) => w.inner().clone(),
            other => other,
        };
        let attacker = inner.default_attacker();
        AnyPosition::Within(within::Within::new(inner, attacker, moves))
    }

    /// The limit of a mate question, if the position carries one.
    pub fn within_limit(&self) -> Option<u32> {
        match self {
            AnyPosition::Within(w) => Some(w.moves_left()),
            _ => None,
        }
    }

    /// The position a board shows: the inner one of a [`within::Within`].
    pub fn shown(&self) -> &AnyPosition {
        match self {
            AnyPosition::Within(w) => w.inner().shown(),
            other => other,
        }
    }

    /// The same position under another repetition rule; an error for a
    /// game without one (only xiangqi has a repetition rule).
    pub fn with_repetition(
        self,
        rule: xiangqi::Repetition,
    ) -> Result<AnyPosition, NoRepetitionRule> {
        match self {
            AnyPosition::Xiangqi(g) => Ok(AnyPosition::Xiangqi(g.with_repetition(rule))),
            AnyPosition::Within(w) => {
                let (attacker, left) = (w.attacker(), w.moves_left());
                let inner = w.inner().clone().with_repetition(rule)?;
                Ok(AnyPosition::Within(within::Within::new(
                    inner, attacker, left,
                )))
            }
            other => Err(NoRepetitionRule { game: other.kind() }),
        }
    }

    /// The position as perft counts it: repetition plays no part.
    pub fn for_perft(self) -> AnyPosition {
        match self {
            AnyPosition::Xiangqi(g) => {
                AnyPosition::Xiangqi(g.with_repetition(xiangqi::Repetition::None))
            }
            other => other,
        }
    }

    /// Whether the game has chance nodes (a die, a tree's `chance`
    /// nodes): only the chance searches take such positions.
    pub fn has_chance_nodes(&self) -> bool {
        with_position!(self, g => g.has_chance_nodes())
    }

    /// Whether the game has a static evaluation ([`Game::evaluate`]), which
    /// depth-limited searches such as alpha-beta need.
    pub fn has_evaluation(&self) -> bool {
        with_position!(self, g => g.evaluate().is_some())
    }

    /// The attacker of a default question (docs/algorithms.md §0).
    pub fn default_attacker(&self) -> Player {
        with_position!(self, g => g.default_attacker().unwrap_or_else(|| g.to_move()))
    }
}
