//! `pnlab scn`: the value and single-conspiracy-number curves of positions
//! (alpha-beta per depth of iterative deepening, side to move as MAX).

use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Map, Value};

use pnlab::params::bounds;
use pnlab::search::{self, Budget, Params, QuestionKind, SearchSetup};

use super::solve::read_inputs;
use super::{parse_pairs, UsageError, UserError};

#[derive(Args, Debug)]
pub struct ScnArgs {
    /// Position files, inline positions (with --game) or `-` for stdin.
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    /// Game of inline positions.
    #[arg(long, value_enum)]
    pub game: Option<pnlab::game::GameKind>,
    /// alphabeta parameter NAME=VALUE: T (threshold), depth, prune, order.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Stop a position after this many seconds (its curve then ends early).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// One JSON object per position per line.
    #[arg(long)]
    pub json: bool,
}

/// The alphabeta parameters from `--set` pairs.
pub(super) fn alphabeta_params(set: &[String]) -> Result<Params, UserError> {
    let info = search::find_algo("alphabeta")?;
    let pairs = parse_pairs(set)?;
    Ok(
        Params::from_pairs(info.params, &pairs).map_err(|source| UsageError::EngineParam {
            engine: "alphabeta",
            source,
        })?,
    )
}

pub fn run(args: ScnArgs) -> Result<ExitCode, UserError> {
    let params = alphabeta_params(&args.set)?;
    if args.positions.is_empty() {
        return Err(UsageError::NoPosition.into());
    }
    let budget = Budget {
        time_limit: args
            .time_limit
            .map(|t| bounds::time_limit("--time-limit", t))
            .transpose()?,
        ..Budget::default()
    };
    let mut bad_input = false;
    for group in read_inputs(&args.positions, args.game) {
        let entries = match group {
            Ok(e) => e,
            Err(msg) => {
                eprintln!("error: {msg}");
                bad_input = true;
                continue;
            }
        };
        for entry in entries {
            let setup = SearchSetup {
                position: entry.position.clone(),
                params: params.clone(),
                seed: 0,
                question: QuestionKind::Win,
                memory_limit_bytes: None,
            };
            let mut s = match search::build("alphabeta", &setup) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {}:{}:1: {e}", entry.name, entry.line);
                    bad_input = true;
                    continue;
                }
            };
            let status = search::run(s.as_mut(), &budget, None);
            let extra = s.extra_json();
            let text = if args.json {
                let mut obj = Map::new();
                obj.insert("name".into(), json!(entry.name));
                obj.insert("game".into(), json!(entry.game.name()));
                obj.insert("position".into(), json!(entry.position.notation()));
                obj.insert(
                    "params".into(),
                    serde_json::to_value(&params).unwrap_or(Value::Null),
                );
                obj.insert("best_move".into(), json!(s.best_move()));
                obj.insert("stop_reason".into(), json!(status.stop_reason_name()));
                obj.insert(
                    "time_ms".into(),
                    json!((s.counters().time_ms * 1000.0).round() / 1000.0),
                );
                for (k, v) in extra {
                    obj.insert(k, v);
                }
                Value::Object(obj).to_string()
            } else {
                let mut t = format!(
                    "{} ({})\n  depth  value      scn      nodes  best",
                    entry.name, entry.game
                );
                if let Some(Value::Array(points)) = extra.get("curve") {
                    for p in points {
                        let int =
                            |k: &str| p[k].as_i64().map_or("-".to_string(), |x| x.to_string());
                        let scn = p["scn"].as_u64().map_or("∞".to_string(), |x| x.to_string());
                        t.push_str(&format!(
                            "\n  {:>5}  {:>6}  {:>7}  {:>9}  {}",
                            int("depth"),
                            int("value"),
                            scn,
                            int("nodes"),
                            p["best_move"].as_str().unwrap_or("-")
                        ));
                    }
                }
                t
            };
            outln!("{text}");
        }
    }
    Ok(if bad_input {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
