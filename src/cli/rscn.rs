//! `pnlab rscn`: relative single conspiracy numbers along a sequence of
//! positions — a start position followed by a move list (`--moves`), or
//! the engine's self-play from it to the end of the game (`--self-play`),
//! or the moves of a game record (a xiangqi `.pgn` file: every game, or
//! the one chosen by `--game-index`).
//! Every position gets its value and SCN curves (alpha-beta per depth,
//! side to move as MAX); then RSCN, Vl and the bands per position and the
//! per-side averages per game.

use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Map, Value};

use pnlab::game::{AnyPosition, GameKind, Player};
use pnlab::search::alphabeta::rscn::{self, RscnEntry, Summary};
use pnlab::search::alphabeta::sequence::{along_moves, self_play, Flow};
use pnlab::search::alphabeta::{AlphaBetaOptions, CurvePoint};
use pnlab::search::pn;
use pnlab::with_position;

use super::scn::alphabeta_params;
use super::solve::read_inputs;
use super::{UsageError, UserError};

#[derive(Args, Debug)]
pub struct RscnArgs {
    /// The start: a position file (every position in it is a game, or
    /// the one chosen by --game-index) or an inline position with --game.
    #[arg(value_name = "RECORD")]
    pub record: String,
    /// Game of an inline position.
    #[arg(long, value_enum)]
    pub game: Option<GameKind>,
    /// Only the K-th game (position) of the file, 1-based.
    #[arg(long, value_name = "K")]
    pub game_index: Option<usize>,
    /// Let the engine play both sides from the start to the end of the
    /// game (the same iterative deepening; deterministic).
    #[arg(long)]
    pub self_play: bool,
    /// The moves played from the start, in the game's notation,
    /// separated by spaces.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Self-play stops after this many moves if the game has not ended.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// alphabeta parameter NAME=VALUE: T (threshold), depth, prune, order.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// One JSON object per position, then one summary object per game.
    #[arg(long)]
    pub json: bool,
}

/// One searched position, game-independent.
pub(super) struct Row {
    pub side: Player,
    pub notation: String,
    pub played: Option<String>,
    pub curve: Vec<CurvePoint>,
    pub nodes: u64,
}

/// Why a sequence cannot be made.
#[derive(Debug, thiserror::Error)]
pub(super) enum SequenceError {
    /// RSCN reads the evaluation's curve; this game has none.
    #[error("rscn needs a static evaluation, which {0} does not have")]
    NoEvaluation(GameKind),
    /// A move of the given sequence does not play.
    #[error(transparent)]
    Ply(#[from] pnlab::search::alphabeta::sequence::PlyError),
}

/// How the sequence is made.
pub(super) enum Mode<'a> {
    SelfPlay { max_plies: usize },
    Moves(&'a [String]),
}

/// The curves of every position of the sequence from `start`.
pub(super) fn sequence(
    start: &AnyPosition,
    mode: &Mode,
    opts: &AlphaBetaOptions,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Row>, SequenceError> {
    if !start.has_evaluation() {
        return Err(SequenceError::NoEvaluation(start.kind()));
    }
    with_position!(start, g => {
        let each = |i: usize, _: &_| {
            progress(i);
            Flow::Continue
        };
        let seq = match mode {
            Mode::SelfPlay { max_plies } => self_play(g, opts, *max_plies, each),
            Mode::Moves(m) => along_moves(g, m, opts, each)?,
        };
        Ok(seq
            .into_iter()
            .map(|p| Row {
                side: p.side,
                notation: pnlab::game::Game::notation(&p.position),
                played: p.played,
                curve: p.curve,
                nodes: p.nodes,
            })
            .collect())
    })
}

/// RSCN entries and the summary of a sequence.
pub(super) fn analyse(rows: &[Row]) -> (Vec<RscnEntry>, Summary) {
    let seq: Vec<(Player, &[CurvePoint])> =
        rows.iter().map(|r| (r.side, r.curve.as_slice())).collect();
    let entries = rscn::along(&seq);
    let summary = rscn::summarize(&entries);
    (entries, summary)
}

/// The side's name: Red/Black in xiangqi, first/second elsewhere.
pub(super) fn side_name(kind: GameKind, p: Player) -> &'static str {
    match (kind.name(), p) {
        ("xiangqi", Player::First) => "red",
        ("xiangqi", Player::Second) => "black",
        (_, Player::First) => "first",
        (_, Player::Second) => "second",
    }
}

fn opt(x: Option<f64>) -> Value {
    x.map_or(Value::Null, |v| json!((v * 1000.0).round() / 1000.0))
}

pub fn run(args: RscnArgs) -> Result<ExitCode, UserError> {
    let params = alphabeta_params(&args.set)?;
    let opts = AlphaBetaOptions::from_params(&params)?;
    let moves: Vec<String> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let chosen = match (args.self_play, args.moves.is_some()) {
        (true, false) => Some(Mode::SelfPlay {
            max_plies: args.max_plies,
        }),
        (false, true) => Some(Mode::Moves(&moves)),
        (true, true) => {
            return Err(UsageError::Exclusive {
                a: "--self-play",
                b: "--moves",
            }
            .into())
        }
        // A game record follows its own moves.
        (false, false) => None,
    };
    let mut groups = read_inputs(std::slice::from_ref(&args.record), args.game);
    let entries = groups.pop().unwrap_or_else(|| Ok(Vec::new()))?;
    if let Some(k) = args.game_index {
        if k == 0 || k > entries.len() {
            return Err(UsageError::NoSuchGame {
                index: k,
                games: entries.len(),
            }
            .into());
        }
    }
    for (idx, entry) in entries.iter().enumerate() {
        let k = idx + 1;
        if args.game_index.is_some_and(|want| want != k) {
            continue;
        }
        let (start, mode) = match (&chosen, &entry.record) {
            (Some(m), _) => (&entry.position, m),
            (None, Some(rec)) => (&rec.start, &Mode::Moves(&rec.moves)),
            (None, None) => {
                return Err(UsageError::NothingToFollow {
                    file: entry.name.clone(),
                    line: entry.line,
                }
                .into())
            }
        };
        let rows = sequence(start, mode, &opts, |_| {}).map_err(|e| UsageError::AtEntry {
            file: entry.name.clone(),
            line: entry.line,
            source: Box::new(e),
        })?;
        let (rscns, summary) = analyse(&rows);
        let kind = entry.position.kind();
        let mut lines = Vec::new();
        if !args.json {
            lines.push(format!(
                "{} ({}), T = {}, depth {}: {} positions\n   ply  side    move      r        rscn       vl   band",
                entry.name,
                kind,
                opts.threshold,
                opts.max_depth,
                rows.len()
            ));
        }
        for (i, (row, e)) in rows.iter().zip(&rscns).enumerate() {
            if args.json {
                let mut o = Map::new();
                o.insert("game".into(), json!(k));
                o.insert("ply".into(), json!(i));
                o.insert("side".into(), json!(side_name(kind, row.side)));
                let key = if kind.name() == "xiangqi" {
                    "fen"
                } else {
                    "position"
                };
                o.insert(key.into(), json!(row.notation));
                o.insert("move".into(), json!(row.played));
                o.insert(
                    "curve".into(),
                    serde_json::to_value(&row.curve).unwrap_or(Value::Null),
                );
                o.insert("nodes".into(), json!(row.nodes));
                o.insert("r".into(), opt(e.r));
                o.insert(
                    "rscn".into(),
                    serde_json::to_value(e.rscn).unwrap_or(Value::Null),
                );
                o.insert("vl".into(), opt(e.vl));
                o.insert("band".into(), json!(e.band.name()));
                lines.push(Value::Object(o).to_string());
            } else {
                let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}", v + 0.0));
                let rs = match e.rscn {
                    rscn::Rscn::Finite(x) => format!("{x:.1}"),
                    rscn::Rscn::Infinite => "∞".to_string(),
                    rscn::Rscn::Undefined => "-".to_string(),
                };
                let last_scn = row.curve.last().map_or("-".into(), |p| pn::fmt(p.scn));
                lines.push(format!(
                    "  {i:>4}  {:<6}  {:<6}  {:>7}  {:>9}  {:>7}   {} (scn {last_scn})",
                    side_name(kind, row.side),
                    row.played.as_deref().unwrap_or("-"),
                    f(e.r),
                    rs,
                    f(e.vl),
                    e.band.name()
                ));
            }
        }
        if args.json {
            let mut o = Map::new();
            o.insert("game".into(), json!(k));
            o.insert("positions".into(), json!(rows.len()));
            o.insert("T".into(), json!(opts.threshold));
            o.insert("depth".into(), json!(opts.max_depth));
            o.insert("rscn_red".into(), opt(summary.rscn_red));
            o.insert("rscn_black".into(), opt(summary.rscn_black));
            o.insert("vl_red".into(), opt(summary.vl_red));
            o.insert("vl_black".into(), opt(summary.vl_black));
            lines.push(Value::Object(o).to_string());
        } else {
            let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}", v + 0.0));
            lines.push(format!(
                "  RSCN_red {}  RSCN_black {}  Vl_red {}  Vl_black {}  (red = the first player)",
                f(summary.rscn_red),
                f(summary.rscn_black),
                f(summary.vl_red),
                f(summary.vl_black)
            ));
        }
        for l in lines {
            outln!("{l}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
