//! `pnlab experiment NAME`: the papers' experiments, headless.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use pnlab::experiments::{self, ExperimentOptions};

use super::{parse_pair, UserError};

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Experiment name (omit to list them), or `merge` to merge the
    /// outputs of the shards of one run: `experiment merge OUT DIR...`.
    pub name: Option<String>,
    /// For `merge`: the output directory, then the shards' directories.
    #[arg(value_name = "OUT DIR")]
    pub dirs: Vec<PathBuf>,
    /// Parallel jobs.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Run the K-th of N slices of the job list (1-based), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Output directory for CSV and JSON.
    #[arg(long, default_value = "results")]
    pub out: PathBuf,
    /// Base seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Experiment setting NAME=VALUE (repeatable; each experiment lists its own).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// No progress bar on stderr.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_shard(s: &str) -> Result<(usize, usize), UserError> {
    let bad = || UserError(format!("--shard {s}: expected K/N with 1 ≤ K ≤ N"));
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || k == 0 || k > n {
        return Err(bad());
    }
    Ok((k - 1, n))
}

pub fn run(args: ExperimentArgs) -> Result<ExitCode, UserError> {
    let Some(name) = args.name else {
        for e in experiments::EXPERIMENTS {
            println!("{:<16} {}", e.name, e.summary);
        }
        return Ok(ExitCode::SUCCESS);
    };
    if name == "merge" {
        let Some((out, dirs)) = args.dirs.split_first() else {
            return Err(UserError(
                "experiment merge OUT DIR...: name the output directory and the shards' directories".into(),
            ));
        };
        let report = experiments::merge(out, dirs, args.jobs)?;
        println!("{}", report.summary);
        for p in &report.outputs {
            println!("wrote {}", p.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(extra) = args.dirs.first() {
        return Err(UserError(format!(
            "experiment {name}: unexpected argument `{}` (settings are given with --set NAME=VALUE)",
            extra.display()
        )));
    }
    let info = experiments::find(&name)?;
    let opts = ExperimentOptions {
        jobs: args.jobs.max(1),
        shard: match &args.shard {
            Some(s) => parse_shard(s)?,
            None => (0, 1),
        },
        out_dir: args.out,
        seed: args.seed,
        settings: args
            .set
            .iter()
            .map(|s| parse_pair(s))
            .collect::<Result<Vec<_>, _>>()?,
        progress: !args.quiet,
        log: Default::default(),
    };
    let report = experiments::run_experiment(info, &opts)?;
    println!("{}", report.summary);
    for p in &report.outputs {
        println!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
