//! The list of experiments (`pnlab experiment NAME`) and the two ways to
//! run one: [`run_experiment`] (all jobs, or one shard of them) and
//! [`merge`] (the shards' recorded results, replayed into the outputs of
//! an unsharded run).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pnlab_core::search::ParamSpec;

use super::runner::shards::{self, JobLog};
use super::*;

/// One registered experiment.
pub struct ExperimentInfo {
    /// The CLI name (`pnlab experiment NAME`).
    pub name: &'static str,
    /// One line for the list `pnlab experiment` prints without a name.
    pub summary: &'static str,
    /// Its settings (`--set NAME=VALUE`): names, ranges, defaults and help,
    /// listed by `pnlab experiment NAME --help`.
    pub settings: &'static [ParamSpec],
    /// The entry point: runs the jobs of this shard and writes the outputs.
    pub run: fn(&ExperimentOptions) -> Result<ExperimentReport, ExperimentError>,
}

/// Every experiment, by stable CLI name (docs/cli.md).
pub static EXPERIMENTS: &[ExperimentInfo] = &[
    ExperimentInfo {
        name: "deep-pn-sweep",
        summary: "DeepPN R sweep vs PNS on random 16-empty Othello and shuffled Hex 4×4 (Ishitobi et al. 2015)",
        settings: deep_pn_sweep::SETTINGS,
        run: deep_pn_sweep::run_sweep,
    },
    ExperimentInfo {
        name: "deep-dfpn-grid",
        summary: "Deep df-pn (E, D) grid and 1+ε sweep vs df-pn on random Othello endgames (Zhang 2019 §3.3)",
        settings: deep_dfpn_grid::SETTINGS,
        run: deep_dfpn_grid::run,
    },
    ExperimentInfo {
        name: "pgame-compare",
        summary: "PPN paper: PPN, PNS, MCPN, UCT and MCTS solvers on 200 P-games b=2,d=20 and 200 b=8,d=8",
        settings: pgame_compare::SETTINGS,
        run: pgame_compare::run,
    },
    ExperimentInfo {
        name: "eps-sweep",
        summary: "1+ε trick vs df-pn over a list of ε on random Othello endgames: MID calls and revisits (Pawlewicz & Lew 2007; Zhang 2019)",
        settings: eps_sweep::SETTINGS,
        run: eps_sweep::run,
    },
    ExperimentInfo {
        name: "memory-sweep",
        summary: "df-pn family and PNS under table/tree memory budgets on Othello and Connect Four: work, re-expansions, peak bytes; answers never change, only become unknown",
        settings: memory_sweep::SETTINGS,
        run: memory_sweep::run,
    },
    ExperimentInfo {
        name: "scns-hex",
        summary: "SCNS vs the UCT solver vs alpha-beta (resistance evaluation) on 7×7 and 8×8 Hex: round robin at equal budgets, win rates, Elo, first-move quality (a small substitute for Pawlewicz & Hayward 2015)",
        settings: scns_hex::SETTINGS,
        run: scns_hex::run,
    },
    ExperimentInfo {
        name: "hill-climb",
        summary: "Hill-climbing for Deep df-pn's (E, D) vs the best of the (E, D) grid and df-pn, on random Othello endgames (Zhang 2019, Algorithm 1)",
        settings: hill_climb::SETTINGS,
        run: hill_climb::run,
    },
    ExperimentInfo {
        name: "connect6-positions",
        summary: "Generates Connect6 positions where the side to move wins: seeded heuristic play until df-pn with relevance zones proves a win",
        settings: connect6_positions::SETTINGS,
        run: connect6_positions::run,
    },
    ExperimentInfo {
        name: "connect6-deep-dfpn",
        summary: "Thesis Table 3.2 on the Connect6 set: relevance-zone df-pn vs 1+ε (ε list) and Deep df-pn ((E, D) grid and hill-climb), nodes (MID calls + VCDT nodes), seesaw, time (Zhang 2019 §3.3)",
        settings: connect6_deep_dfpn::SETTINGS,
        run: connect6_deep_dfpn::run,
    },
    ExperimentInfo {
        name: "rscn",
        summary: "RSCN of alpha-beta self-play on xiangqi: set=tactical (mate puzzles), drawn (attackers removed), handicap (openings; T=200, 600) (Zhang 2019 §4.3)",
        settings: rscn::SETTINGS,
        run: rscn::run,
    },
    ExperimentInfo {
        name: "chance-compare",
        summary: "Expectimax, Star1 and Star2: nodes visited on random chance trees by depth and branching and on EinStein endgames (Ballard 1983; lecture notes)",
        settings: chance_compare::SETTINGS,
        run: chance_compare::run,
    },
    ExperimentInfo {
        name: "om-match",
        summary: "Opponent-model search vs minimax on Othello against the modelled opponent (disc count) and weaker ones (Carmel & Markovitch 1996; lecture notes)",
        settings: om_match::SETTINGS,
        run: om_match::run,
    },
];

/// Runs experiment `info` with `opts`; a sharded run (`--shard K/N`, N >
/// 1) also writes its job file for `experiment merge` (see [`merge`]).
pub fn run_experiment(
    info: &ExperimentInfo,
    opts: &ExperimentOptions,
) -> Result<ExperimentReport, ExperimentError> {
    opts.params(info.settings)?;
    // A shard's job file is what a merge reads: it needs a folder.
    let shard_dir = match (&opts.out_dir, opts.shard.1 > 1) {
        (Some(dir), true) => Some(dir),
        (None, true) => return Err(ExperimentError::ShardWithoutFolder),
        (_, false) => None,
    };
    let mut report = (info.run)(opts)?;
    if opts.observer.cancelled() {
        return Err(ExperimentError::Cancelled {
            experiment: info.name,
        });
    }
    if let Some(dir) = shard_dir {
        report
            .outputs
            .push(shards::write_log(info.name, dir, opts)?);
    }
    Ok(report)
}

/// Looks an experiment up.
pub fn find(name: &str) -> Result<&'static ExperimentInfo, ExperimentError> {
    EXPERIMENTS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| ExperimentError::Unknown {
            name: name.to_string(),
            known: EXPERIMENTS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// `pnlab experiment merge OUT DIR...` (see the module comment): writes the
/// unsharded outputs to `out` and returns the experiment's report.
pub fn merge(
    out: &Path,
    dirs: &[PathBuf],
    jobs: usize,
) -> Result<ExperimentReport, ExperimentError> {
    let run = shards::gather(dirs)?;
    let info = find(&run.experiment)?;
    let opts = ExperimentOptions {
        jobs: jobs.max(1),
        shard: (0, 1),
        out_dir: Some(out.to_path_buf()),
        seed: run.seed,
        settings: run.settings,
        progress: false,
        log: Arc::new(JobLog::replaying(run.replay)),
        observer: Default::default(),
    };
    opts.params(info.settings)?;
    let mut report = (info.run)(&opts)?;
    let computed = opts.log.computed();
    if computed > 0 {
        report.summary.push_str(&format!(
            "\nnote: {computed} job(s) were not in the shards' files and were run by the merge\n"
        ));
    }
    Ok(report)
}
