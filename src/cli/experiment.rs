//! `pnlab experiment NAME`: the papers' experiments, headless.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgAction, Args, CommandFactory};

use pnlab::experiments::{self, ExperimentInfo, ExperimentOptions};
use pnlab::params::bounds;

use super::{parse_pairs, UsageError, UserError};

/// The most parallel jobs `--jobs` accepts (each is a thread).
const MAX_JOBS: u64 = 1024;

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
    /// Print help; with an experiment NAME, its settings with their ranges
    /// and defaults.
    #[arg(short = 'h', long = "help", action = ArgAction::SetTrue)]
    pub help: bool,
}

/// The common flags, for `experiment NAME --help` (clap's help lists them
/// for `experiment --help`).
const COMMON_FLAGS: &[(&str, &str)] = &[
    ("--jobs N", "parallel jobs, 1 to 1024 (default 1)"),
    ("--shard K/N", "run the K-th of N slices of the job list (1-based); merge with `experiment merge OUT DIR...`"),
    ("--out DIR", "output directory for CSV and JSON (default results)"),
    ("--seed N", "base seed (default 0)"),
    ("--set NAME=VALUE", "an experiment setting (repeatable; listed above)"),
    ("--quiet", "no progress bar on stderr"),
];

/// `pnlab experiment NAME --help`: the summary, one line per setting
/// (name, type, range and default, help), then the common flags.
pub fn settings_help(info: &ExperimentInfo) -> String {
    let mut out = format!(
        "{}\n\nUsage: pnlab experiment {} [--set NAME=VALUE]... [OPTIONS]\n\nSettings (--set NAME=VALUE):\n",
        info.summary, info.name
    );
    let name_w = info
        .settings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0);
    let ranges: Vec<String> = info.settings.iter().map(|s| s.range_text()).collect();
    // Ranges are aligned up to a width; a longer one (a long default
    // list) just pushes its help to the right.
    let range_w = ranges
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for (s, range) in info.settings.iter().zip(&ranges) {
        let pad = range_w.saturating_sub(range.chars().count());
        out.push_str(&format!(
            "  {:<name_w$}  {range}{}  {}\n",
            s.name,
            " ".repeat(pad),
            s.help
        ));
    }
    out.push_str("\nOptions:\n");
    let flag_w = COMMON_FLAGS.iter().map(|(f, _)| f.len()).max().unwrap_or(0);
    for (flag, help) in COMMON_FLAGS {
        out.push_str(&format!("  {flag:<flag_w$}  {help}\n"));
    }
    out.push_str(&format!("  {:<flag_w$}  print this help\n", "-h, --help"));
    out
}

fn parse_shard(s: &str) -> Result<(usize, usize), UserError> {
    let bad = || UsageError::BadValue {
        flag: "--shard",
        value: s.to_string(),
        expected: "K/N with 1 ≤ K ≤ N",
    };
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || k == 0 || k > n {
        return Err(bad().into());
    }
    Ok((k - 1, n))
}

pub fn run(args: ExperimentArgs) -> Result<ExitCode, UserError> {
    let Some(name) = args.name else {
        if args.help {
            let mut cli = super::Cli::command();
            cli.build();
            if let Some(sub) = cli.find_subcommand_mut("experiment") {
                let _ = sub.print_long_help();
            }
            return Ok(ExitCode::SUCCESS);
        }
        for e in experiments::EXPERIMENTS {
            outln!("{:<18} {}", e.name, e.summary);
        }
        outln!("\n`pnlab experiment NAME --help` shows an experiment's settings.");
        return Ok(ExitCode::SUCCESS);
    };
    if args.help {
        if name == "merge" {
            outln!("Usage: pnlab experiment merge OUT DIR...\n\nMerges the outputs of the shards of one run (`--shard K/N --out DIR`) into OUT.");
            return Ok(ExitCode::SUCCESS);
        }
        let help = settings_help(experiments::find(&name)?);
        outln!("{}", help.strip_suffix('\n').unwrap_or(&help));
        return Ok(ExitCode::SUCCESS);
    }
    if name == "merge" {
        let Some((out, dirs)) = args.dirs.split_first() else {
            return Err(UsageError::MergeFolders.into());
        };
        let jobs = bounds::count("--jobs", args.jobs as u64, 1, MAX_JOBS)? as usize;
        let report = experiments::merge(out, dirs, jobs)?;
        outln!("{}", report.summary);
        for p in &report.outputs {
            outln!("wrote {}", p.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(extra) = args.dirs.first() {
        return Err(UsageError::ExtraArgument {
            name: name.to_string(),
            argument: extra.display().to_string(),
        }
        .into());
    }
    let info = experiments::find(&name)?;
    let jobs = bounds::count("--jobs", args.jobs as u64, 1, MAX_JOBS)? as usize;
    let opts = ExperimentOptions {
        jobs,
        shard: match &args.shard {
            Some(s) => parse_shard(s)?,
            None => (0, 1),
        },
        out_dir: Some(args.out),
        seed: args.seed,
        settings: parse_pairs(&args.set)?,
        progress: !args.quiet,
        log: Default::default(),
        observer: Default::default(),
    };
    let report = experiments::run_experiment(info, &opts)?;
    outln!("{}", report.summary);
    for p in &report.outputs {
        outln!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
