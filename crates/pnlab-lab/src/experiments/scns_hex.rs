//! `pnlab experiment scns-hex`: SCNS against an MCTS player and an
//! alpha-beta player on 7×7 and 8×8 Hex — an honest, small-scale
//! substitute for the tournament of Pawlewicz & Hayward (2015), which
//! pitted DeepHex (SCNS) against MoHex and Wolve on 11×11 at 30 s to
//! 8 min per move with Benzene's virtual-connection engine. None of that
//! can be rerun here; what this measures is pnlab's own three searches,
//! with no virtual connections, patterns or tuning, on boards small enough
//! for a laptop, at budgets of milliseconds.
//!
//! Players (each with its registry defaults): `scns` (SCEF over the
//! resistance move scores), `uct-solver` (UCT with random playouts and
//! solver back-up), `alphabeta` (iterative deepening alpha-beta over the
//! resistance evaluation ln(R_W/R_B), Wolve's evaluation; it also counts
//! the single conspiracy number on the way, which costs it some time).
//!
//! **Budgets.** Moves get equal *time* budgets (`budgets`, nominal ms per
//! move). On a shared machine wall time is noisy, so by default
//! (`budget=units`) each budget is turned into a number of search
//! iterations per algorithm and board size with calibrated rates
//! (iterations per ms, `rates`; `calibrate=1` measures them on this
//! machine and prints them), which makes the run deterministic and
//! reproducible; `budget=time` uses the wall clock instead. Default
//! budgets 10, 20, 40, 80 ms; the default run (16 openings on each board)
//! takes about 35 CPU minutes.
//!
//! **Games.** Competitors are (player, budget). Every pair of players
//! meets at every budget, and (`cross=adjacent`, default) every player
//! meets itself at the next larger budget, which ties the budgets together
//! for the rating fit (`cross=all`: every competitor meets every other;
//! `cross=none`). Each pairing plays from each opening cell (`openings=N`:
//! N cells spread evenly over the board, default 16; `openings=0`: every cell)
//! twice, once with each side as Black (no swap rule).
//!
//! **Outputs.** `scns-hex-games.csv` (one row per game),
//! `scns-hex-first-moves.csv`, and `scns-hex.json`: win rates per pairing
//! with 95 % Wilson intervals, Elo ratings per competitor (Bradley–Terry
//! maximum likelihood, bootstrap 95 % intervals), each player's rating
//! across budgets, and the first-move quality: for each player, budget and
//! board, the share of its opening moves on the empty board (over
//! `first_moves` seeds) that win according to the Benzene tables.

use pnlab_core::clock::Instant;

use serde_json::json;

use pnlab_core::game::hex::Hex;
use pnlab_core::game::{Game, GameKind, Player};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::registry::{build, find_algo};
use pnlab_core::search::{run as drive, Budget, Params, QuestionKind, SearchSetup};

use super::rating::{self, fit_with_intervals, wilson};
use super::rows::Colour;
use super::{
    instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed, Real,
};

pnlab_core::choice_enum! {
    /// Which pairs play besides equal budgets (`cross`).
    pub enum Cross {
        /// A player's next budget.
        Adjacent = "adjacent",
        /// No other pairs.
        None = "none",
        /// Every competitor against every other.
        All = "all",
    }
}

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment scns-hex
    /// --help` lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct ScnsHexSettings {
        /// Hex board sizes played.
        pub sizes: Vec<i64> => {
            "sizes", int_list(3, 11) = "7,8",
            "Hex board sizes played."
        },
        /// Nominal budgets in ms per move.
        pub budgets: Vec<f64> => {
            "budgets", real_list(0.001, 1e6) = "10,20,40,80",
            "Nominal budgets in ms per move, one competitor per player and budget."
        },
        /// How budgets are enforced.
        pub budget: BudgetMode => {
            "budget", choice = BudgetMode::Units,
            "units: ms turned into iterations by the rates (deterministic); time: a wall-clock limit."
        },
        /// The players of the round robin.
        pub players: Vec<String> => {
            "players", choice_list(PLAYERS) = "scns,uct-solver,alphabeta",
            "The players of the round robin."
        },
        /// Opening cells per pairing (0: every cell).
        pub openings: usize => {
            "openings", int(0, i64::MAX) = 16,
            "Opening cells each pairing plays from (0 = every cell)."
        },
        /// Which pairs play besides equal budgets.
        pub cross: Cross => {
            "cross", choice = Cross::Adjacent,
            "Pairs that play besides equal budgets: a player's next budget, none or all."
        },
        /// Positions per size for first-move quality.
        pub first_moves: usize => {
            "first_moves", int(0, i64::MAX) = 5,
            "Positions per size on which first-move quality is measured."
        },
        /// Calibrated rates overridden: `PLAYER@SIZE=RATE,…`.
        pub rates: String => {
            "rates", text = "",
            "Iterations per ms overriding the calibrated ones: PLAYER@SIZE=RATE,…"
        },
        /// 1: only calibrate (an integer, as recorded commands write it).
        pub calibrate: u32 => {
            "calibrate", int(0, 1) = 0,
            "1: only measure every player's iterations per ms and write them."
        },
        /// Bootstrap resamples.
        pub bootstrap: usize => {
            "bootstrap", int(0, i64::MAX) = 200,
            "Bootstrap resamples for the Elo intervals."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = ScnsHexSettings::PARAMS;

/// The players: registry names, and `scns-vc`, SCNS with Hex's virtual
/// connections (`--set vcs=on`: the connections settle nodes and narrow
/// the moves to the mustplay region, as DeepHex uses Benzene's).
pub const PLAYERS: &[&str] = &["scns", "scns-vc", "uct-solver", "alphabeta"];

/// The registry algorithm a player runs.
fn algo_of(player: &str) -> &str {
    match player {
        "scns-vc" => "scns",
        other => other,
    }
}

/// Calibrated iterations per ms of CPU, per (player, board size):
/// measured with `calibrate=1` (release build, 2026-11-23; see
/// `results/2026-11-23/scns-hex/`). An SCNS iteration solves the resistance
/// circuits of the expanded node, hence its low rate.
const DEFAULT_RATES: &[(&str, u8, f64)] = &[
    ("scns", 7, 0.73),
    ("scns", 8, 0.54),
    // Measured 2026-11-29 next to `scns` (0.73 and 0.62 then), scaled to
    // its rates above: `results/2026-11-29/scns-hex-vcs/`.
    ("scns-vc", 7, 0.85),
    ("scns-vc", 8, 0.60),
    ("uct-solver", 7, 135.82),
    ("uct-solver", 8, 111.41),
    ("alphabeta", 7, 8.68),
    ("alphabeta", 8, 8.01),
];

/// The Benzene first-move tables (7×7 and 8×8, no swap).
const BENZENE: &str = include_str!("../../../../assets/hex/benzene-first-moves.csv");

/// Whether Black's first move `cell` wins on an `n`×`n` board, from the
/// Benzene tables (8×8 lists columns a–d; the rest by the 180° rotation).
pub fn first_move_wins(n: u8, cell: &str) -> Option<bool> {
    let g = Hex::new(n)?;
    let mv = g.parse_move(cell).ok()?;
    let (c, r) = (mv % n, mv / n);
    let rotated = g.name_of((n - 1 - r) * n + (n - 1 - c));
    let board = format!("{n}x{n}");
    BENZENE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f.len() == 3 && f[0] == board).then(|| (f[1], f[2]))
        })
        .find(|(c, _)| *c == cell || *c == rotated)
        .map(|(_, w)| w == "black")
}

pnlab_core::choice_enum! {
    /// How budgets are enforced (`budget`).
    pub enum BudgetMode {
        /// Milliseconds turned into iterations by the rates.
        Units = "units",
        /// A wall-clock limit.
        Time = "time",
    }
}

/// A player at a budget.
#[derive(Clone, Debug, PartialEq)]
struct Competitor {
    player: &'static str,
    budget_ms: f64,
}

impl Competitor {
    fn name(&self) -> String {
        format!("{}@{}ms", self.player, self.budget_ms)
    }
}

/// The experiment's configuration.
#[derive(Clone)]
struct Config {
    sizes: Vec<u8>,
    budgets: Vec<f64>,
    mode: BudgetMode,
    players: Vec<&'static str>,
    openings: Option<usize>,
    rates: Vec<(&'static str, u8, f64)>,
    first_moves: usize,
    bootstrap: usize,
    seed: u64,
    /// `calibrate=1`: measure the rates instead of playing.
    calibrate: bool,
    /// Which pairs play (`cross`).
    cross: Cross,
    /// Every setting with the defaults filled in (for the JSON summary).
    settings: Params,
}

impl Config {
    fn rate(&self, player: &str, n: u8) -> f64 {
        self.rates
            .iter()
            .find(|(p, s, _)| *p == player && *s == n)
            .or_else(|| self.rates.iter().find(|(p, _, _)| *p == player))
            .map_or(10.0, |r| r.2)
    }

    /// The search budget of `c` on an `n`×`n` board.
    fn budget(&self, c: &Competitor, n: u8) -> (Budget, u64) {
        match self.mode {
            BudgetMode::Units => {
                let units = (c.budget_ms * self.rate(c.player, n)).round().max(1.0) as u64;
                (
                    Budget {
                        max_iterations: Some(units),
                        ..Budget::default()
                    },
                    units,
                )
            }
            BudgetMode::Time => (
                Budget {
                    time_limit: Some(pnlab_core::clock::Duration::from_secs_f64(
                        c.budget_ms / 1000.0,
                    )),
                    ..Budget::default()
                },
                0,
            ),
        }
    }
}

/// The parameters a player runs with: its registry defaults (alpha-beta
/// deepens as far as its budget lets it).
fn player_params(player: &str) -> Result<Params, ExperimentError> {
    let info = find_algo(algo_of(player))?;
    let specs = info.params_for(GameKind::Hex);
    let mut p = Params::defaults(&specs);
    if player == "alphabeta" {
        p.set(&specs, "depth", "64")?;
    }
    if player == "scns-vc" {
        p.set(&specs, "vcs", "on")?;
    }
    Ok(p)
}

/// `c`'s move at `g` (`seed` for randomised players), with the iterations
/// used.
fn choose_move(
    cfg: &Config,
    c: &Competitor,
    g: &Hex,
    seed: u64,
) -> Result<(u8, u64), ExperimentError> {
    let setup = SearchSetup {
        position: g.into_any(),
        params: player_params(c.player)?,
        seed,
        question: QuestionKind::Win,
        memory_limit_bytes: None,
    };
    let mut s = build(algo_of(c.player), &setup)?;
    let (budget, _) = cfg.budget(c, g.size());
    drive(s.as_mut(), &budget, None);
    let used = s.counters().iterations;
    let named = s.best_move().and_then(|m| g.parse_move(&m).ok());
    // A search stopped before it named a move (alpha-beta inside its
    // first depth) plays the first legal move.
    let mv = match named {
        Some(m) => m,
        None => {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            *moves.first().ok_or_else(|| ExperimentError::NoLegalMove {
                position: g.notation(),
            })?
        }
    };
    Ok((mv, used))
}

/// One game to play.
struct GameJob {
    index: usize,
    size: u8,
    opening: u8,
    black: usize,
    white: usize,
}

/// Its result (kept in a shard's job file for `experiment merge`).
#[derive(serde::Serialize, serde::Deserialize)]
struct GameResult {
    winner: Player,
    plies: usize,
    moves: String,
    units: [u64; 2],
    time_ms: f64,
}

/// The empty `n`×`n` board.
fn hex_board(n: u8) -> Result<Hex, ExperimentError> {
    Hex::new(n).ok_or(ExperimentError::NoHexBoard { size: n })
}

/// Plays one game of the round robin from its opening cell to the end.
fn play(cfg: &Config, comps: &[Competitor], job: &GameJob) -> Result<GameResult, ExperimentError> {
    let start = Instant::now();
    let mut g = hex_board(job.size)?;
    g.play(job.opening);
    let mut units = [0u64; 2];
    let mut ply = 1usize;
    while g.outcome().is_none() {
        let side = g.to_move();
        let c = &comps[if side == Player::First {
            job.black
        } else {
            job.white
        }];
        let seed = instance_seed(cfg.seed, job.index * 1000 + ply);
        let (mv, used) = choose_move(cfg, c, &g, seed)?;
        units[side.index()] += used;
        g.play(mv);
        ply += 1;
    }
    Ok(GameResult {
        winner: g
            .outcome()
            .and_then(|o| o.winner())
            .ok_or(ExperimentError::DrawInDrawlessGame { game: "Hex" })?,
        plies: g.moves_played().len(),
        moves: g.notation(),
        units,
        time_ms: start.elapsed().as_secs_f64() * 1000.0,
    })
}

/// The first moves played: every cell, or `k` cells spread evenly over
/// the board (cell ⌊j·cells/k⌋ for j < k).
fn opening_cells(cells: u32, k: Option<usize>) -> Vec<u8> {
    match k {
        None => (0..cells as u8).collect(),
        Some(k) => {
            let k = (k as u32).min(cells);
            (0..k).map(|j| (j * cells / k) as u8).collect()
        }
    }
}

/// The pairings: (competitor a, competitor b), each played both ways.
fn pairings(comps: &[Competitor], cfg: &Config) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..comps.len() {
        for j in i + 1..comps.len() {
            let (a, b) = (&comps[i], &comps[j]);
            let same_budget = a.budget_ms == b.budget_ms && a.player != b.player;
            let next = |x: &Competitor, y: &Competitor| {
                x.player == y.player
                    && cfg
                        .budgets
                        .windows(2)
                        .any(|w| w[0] == x.budget_ms && w[1] == y.budget_ms)
            };
            let keep = match cfg.cross {
                Cross::Adjacent => same_budget || next(a, b) || next(b, a),
                Cross::None => same_budget,
                Cross::All => true,
            };
            if keep {
                out.push((i, j));
            }
        }
    }
    out
}

/// CPU time of the calling thread in ms: calibration on a shared machine
/// must not count the time other processes ran (wall time would). Where
/// the system has no thread clock: wall time since the first call.
fn thread_cpu_ms() -> f64 {
    if let Some(t) = pnlab_core::clock::thread_cpu_time() {
        return t.as_secs_f64() * 1000.0;
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Iterations per ms of each player on positions from the early and
/// middle game of random games (CPU time of the thread, so other load on
/// the machine does not lower the rates).
fn calibrate(cfg: &Config) -> Result<Vec<(&'static str, u8, f64)>, ExperimentError> {
    let mut out = Vec::new();
    for &n in &cfg.sizes {
        let cells = n as usize * n as usize;
        // Positions after 0, ¼, ½ of the board filled at random.
        let mut positions = Vec::new();
        for k in 0..6u64 {
            let mut g = hex_board(n)?;
            let plies = (cells * (k as usize % 3)) / 6;
            let mut x = instance_seed(cfg.seed ^ 0xCA1, k as usize);
            let mut moves = Vec::new();
            for _ in 0..plies {
                moves.clear();
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                x = pnlab_core::game::mix::splitmix64(x);
                let m = moves[(x % moves.len() as u64) as usize];
                let mut h = g;
                h.play(m);
                if h.outcome().is_none() {
                    g = h;
                }
            }
            positions.push(g);
        }
        for &p in &cfg.players {
            let c = Competitor {
                player: p,
                budget_ms: 200.0,
            };
            let time_cfg = Config {
                mode: BudgetMode::Time,
                ..cfg.clone()
            };
            let (mut units, mut ms) = (0u64, 0.0);
            for (k, g) in positions.iter().enumerate() {
                let t = thread_cpu_ms();
                let (_, used) = choose_move(&time_cfg, &c, g, k as u64)?;
                ms += thread_cpu_ms() - t;
                units += used;
            }
            out.push((p, n, units as f64 / ms.max(1e-9)));
        }
    }
    Ok(out)
}

/// The calibrated rates with the overrides of the `rates` setting
/// (`PLAYER@SIZE=ITERATIONS_PER_MS,…`) applied.
fn rates_with(text: &str) -> Result<Vec<(&'static str, u8, f64)>, ExperimentError> {
    let mut rates: Vec<(&'static str, u8, f64)> = DEFAULT_RATES.to_vec();
    if text.is_empty() {
        return Ok(rates);
    }
    for item in text.split(',') {
        let bad = || ExperimentError::BadSettingValue {
            setting: "rates",
            part: "item",
            value: item.to_string(),
            expected: "PLAYER@SIZE=ITERATIONS_PER_MS",
        };
        let (lhs, r) = item.split_once('=').ok_or_else(bad)?;
        let (p, n) = lhs.split_once('@').ok_or_else(bad)?;
        let player = PLAYERS.iter().find(|&&x| x == p.trim()).ok_or_else(bad)?;
        let n: u8 = n.trim().parse().map_err(|_| bad())?;
        let r: f64 = r
            .trim()
            .parse()
            .ok()
            .filter(|r: &f64| *r > 0.0)
            .ok_or_else(bad)?;
        rates.retain(|(q, s, _)| !(q == player && *s == n));
        rates.push((player, n, r));
    }
    Ok(rates)
}

/// The run's configuration from its settings.
fn parse_config(opts: &ExperimentOptions) -> Result<Config, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, ScnsHexSettings::from_params)?;
    Ok(Config {
        // Sizes are in 3..=11 (checked when the settings were read).
        sizes: s.sizes.iter().map(|&n| n as u8).collect(),
        budgets: s.budgets,
        mode: s.budget,
        players: super::static_names(&s.players, PLAYERS),
        openings: (s.openings != 0).then_some(s.openings),
        rates: rates_with(&s.rates)?,
        first_moves: s.first_moves,
        bootstrap: s.bootstrap,
        seed: opts.seed,
        calibrate: s.calibrate == 1,
        cross: s.cross,
        settings,
    })
}

/// One row of `scns-hex-games.csv`: one game of the round robin.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct HexGameRow {
    /// Board size.
    pub size: u8,
    /// The opening cell.
    pub opening: String,
    /// The player with Black (`player@budget`).
    pub black: String,
    /// The player with White.
    pub white: String,
    /// Black's work units.
    pub black_units: u64,
    /// White's work units.
    pub white_units: u64,
    /// The winner.
    pub winner: String,
    /// The winner's colour.
    pub winner_side: Colour,
    /// Moves played.
    pub plies: usize,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<1>,
    /// The game's moves.
    pub moves: String,
}

/// One row of `scns-hex-first-moves.csv`: one player's first move.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct FirstMoveRow {
    /// Board size.
    pub size: u8,
    /// The player.
    pub player: &'static str,
    /// Its budget in milliseconds.
    pub budget_ms: Real,
    /// The seed of the probe.
    pub seed: u64,
    /// The move chosen.
    pub r#move: String,
    /// Whether the move wins, by the published tables (`unknown` where
    /// they do not say).
    #[serde(serialize_with = "super::rows::or_unknown")]
    pub wins: Option<bool>,
}

/// `calibrate=1`: measures the rates on this machine and reports them in
/// the form the `rates` setting takes.
fn calibration_report(
    opts: &ExperimentOptions,
    cfg: &Config,
) -> Result<ExperimentReport, ExperimentError> {
    let rates = calibrate(cfg)?;
    let text = rates
        .iter()
        .map(|(p, n, r)| format!("{p}@{n}={r:.2}"))
        .collect::<Vec<_>>()
        .join(",");
    let report = ExperimentReport::new(format!(
        "iterations per ms on this machine (pass as --set rates=…):\n{text}\n"
    ))
    .json("scns-hex-calibration.json", json!({ "rates": text }));
    opts.deliver(report)
}

/// The competitors: every player at every budget, budget by budget.
fn competitors(cfg: &Config) -> Vec<Competitor> {
    cfg.budgets
        .iter()
        .flat_map(|&b| {
            cfg.players.iter().map(move |&p| Competitor {
                player: p,
                budget_ms: b,
            })
        })
        .collect()
}

/// The games: on every size, every pairing from every opening cell, once
/// with each competitor as Black.
fn game_jobs(cfg: &Config, pairs: &[(usize, usize)]) -> Vec<GameJob> {
    let mut games = Vec::new();
    for &n in &cfg.sizes {
        let cells = n as u32 * n as u32;
        for &(a, b) in pairs {
            for opening in opening_cells(cells, cfg.openings) {
                for (black, white) in [(a, b), (b, a)] {
                    games.push(GameJob {
                        index: games.len(),
                        size: n,
                        opening,
                        black,
                        white,
                    });
                }
            }
        }
    }
    games
}

/// The first-move probes: (size, competitor, seed).
fn probe_jobs(cfg: &Config, comps: &[Competitor]) -> Vec<(u8, usize, u64)> {
    let mut probes = Vec::new();
    for &n in &cfg.sizes {
        for ci in 0..comps.len() {
            for seed in 0..cfg.first_moves as u64 {
                probes.push((n, ci, seed));
            }
        }
    }
    probes
}

/// Runs the experiment (see the module documentation).
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let cfg = parse_config(opts)?;
    if cfg.calibrate {
        return calibration_report(opts, &cfg);
    }
    let comps = competitors(&cfg);
    let pairs = pairings(&comps, &cfg);
    // Jobs: games, then first-move probes.
    let games = game_jobs(&cfg, &pairs);
    let results = run_jobs(opts, &games, |job| play(&cfg, &comps, job));
    let probes = probe_jobs(&cfg, &comps);
    let probe_results = run_jobs(opts, &probes, |&(n, ci, seed)| {
        let g = hex_board(n)?;
        choose_move(&cfg, &comps[ci], &g, seed).map(|(m, _)| g.name_of(m))
    });
    let played = Played::gather(&comps, &games, results)?;
    let first = FirstMoves::gather(&comps, &probes, probe_results)?;
    report(opts, &cfg, &comps, played, first)
}

/// The games' rows and their results for the ratings.
struct Played {
    rows: Vec<HexGameRow>,
    /// (board size, winner and loser by competitor).
    decided: Vec<(u8, rating::Game)>,
}

impl Played {
    /// The games' rows and results, in job order (a failed game stops
    /// the run).
    fn gather(
        comps: &[Competitor],
        games: &[GameJob],
        results: Vec<(usize, Result<GameResult, ExperimentError>)>,
    ) -> Result<Played, ExperimentError> {
        let mut rows = Vec::new();
        let mut decided = Vec::new();
        for (i, r) in results {
            let r = r?;
            let job = &games[i];
            let (b, w) = (&comps[job.black], &comps[job.white]);
            let (win, lose) = if r.winner == Player::First {
                (job.black, job.white)
            } else {
                (job.white, job.black)
            };
            decided.push((
                job.size,
                rating::Game {
                    winner: win,
                    loser: lose,
                },
            ));
            rows.push(HexGameRow {
                size: job.size,
                opening: Hex::new(job.size)
                    .map(|g| g.name_of(job.opening))
                    .unwrap_or_default(),
                black: b.name(),
                white: w.name(),
                black_units: r.units[0],
                white_units: r.units[1],
                winner: comps[win].name(),
                winner_side: if r.winner == Player::First {
                    Colour::Black
                } else {
                    Colour::White
                },
                plies: r.plies,
                time_ms: Fixed(r.time_ms),
                moves: r.moves,
            });
        }
        Ok(Played { rows, decided })
    }

    /// Win rates per pairing (both colours and all sizes together), with
    /// their Wilson intervals: the summary's lines and the JSON rows.
    fn pairing_rates(&self, comps: &[Competitor], summary: &mut String) -> Vec<serde_json::Value> {
        let mut keys: Vec<(usize, usize)> = Vec::new();
        for (_, g) in &self.decided {
            let k = (g.winner.min(g.loser), g.winner.max(g.loser));
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let mut rows = Vec::new();
        for &(a, b) in &keys {
            let (mut wins, mut n) = (0usize, 0usize);
            for (_, g) in &self.decided {
                if (g.winner, g.loser) == (a, b) {
                    wins += 1;
                    n += 1;
                } else if (g.winner, g.loser) == (b, a) {
                    n += 1;
                }
            }
            let (lo, hi) = wilson(wins, n);
            let rate = wins as f64 / n.max(1) as f64;
            summary.push_str(&format!(
                "{:<40} {n:>5}  {wins:>10}  {rate:.3}  [{lo:.3}, {hi:.3}]\n",
                format!("{} vs {}", comps[a].name(), comps[b].name())
            ));
            rows.push(json!({
                "a": comps[a].name(), "b": comps[b].name(), "games": n, "a_wins": wins,
                "a_rate": rate, "a_rate_low": lo, "a_rate_high": hi,
            }));
        }
        rows
    }

    /// Elo per competitor (Bradley–Terry fit with bootstrap intervals):
    /// the summary's lines and the JSON rows.
    fn elo(
        &self,
        comps: &[Competitor],
        cfg: &Config,
        summary: &mut String,
    ) -> Vec<serde_json::Value> {
        let all: Vec<rating::Game> = self.decided.iter().map(|(_, g)| *g).collect();
        let ratings = fit_with_intervals(comps.len(), &all, cfg.bootstrap, cfg.seed ^ 0xE10);
        summary.push_str("\nElo (mean 0, bootstrap 95% interval)\n");
        let mut rows = Vec::new();
        for (c, r) in comps.iter().zip(&ratings) {
            summary.push_str(&format!(
                "{:<24} {:>7.1}  [{:.1}, {:.1}]\n",
                c.name(),
                r.elo,
                r.low,
                r.high
            ));
            rows.push(json!({
                "player": c.player, "budget_ms": c.budget_ms, "elo": r.elo, "low": r.low, "high": r.high,
            }));
        }
        rows
    }
}

/// The first-move probes' rows and what the Benzene tables say of them.
struct FirstMoves {
    rows: Vec<FirstMoveRow>,
    /// The competitor of each row.
    by: Vec<usize>,
}

impl FirstMoves {
    /// The probes' rows, in job order (a failed probe stops the run).
    fn gather(
        comps: &[Competitor],
        probes: &[(u8, usize, u64)],
        results: Vec<(usize, Result<String, ExperimentError>)>,
    ) -> Result<FirstMoves, ExperimentError> {
        let (mut rows, mut by) = (Vec::new(), Vec::new());
        for (i, r) in results {
            let (n, ci, seed) = probes[i];
            let mv = r?;
            by.push(ci);
            rows.push(FirstMoveRow {
                size: n,
                player: comps[ci].player,
                budget_ms: Real(comps[ci].budget_ms),
                seed,
                wins: first_move_wins(n, &mv),
                r#move: mv,
            });
        }
        Ok(FirstMoves { rows, by })
    }

    /// The share of winning first moves per size and competitor: the
    /// summary's lines and the JSON rows.
    fn quality(
        &self,
        comps: &[Competitor],
        cfg: &Config,
        summary: &mut String,
    ) -> Vec<serde_json::Value> {
        summary.push_str("\nfirst-move quality (share of opening moves on the empty board that win, Benzene tables)\n");
        let mut out = Vec::new();
        for &n in &cfg.sizes {
            for (ci, c) in comps.iter().enumerate() {
                let mine: Vec<&FirstMoveRow> = self
                    .rows
                    .iter()
                    .zip(&self.by)
                    .filter(|(r, &by)| r.size == n && by == ci)
                    .map(|(r, _)| r)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let good = mine.iter().filter(|r| r.wins == Some(true)).count();
                let mut moves: Vec<String> = mine.iter().map(|r| r.r#move.clone()).collect();
                moves.sort();
                moves.dedup();
                summary.push_str(&format!(
                    "{n}x{n} {:<24} {good}/{}  ({})\n",
                    c.name(),
                    mine.len(),
                    moves.join(" ")
                ));
                out.push(json!({
                    "size": n, "player": c.player, "budget_ms": c.budget_ms,
                    "winning": good, "probes": mine.len(), "moves": moves,
                }));
            }
        }
        out
    }
}

/// The tables, the JSON summary and the printed summary of a finished
/// round robin.
fn report(
    opts: &ExperimentOptions,
    cfg: &Config,
    comps: &[Competitor],
    played: Played,
    first: FirstMoves,
) -> Result<ExperimentReport, ExperimentError> {
    let mut summary = String::from(
        "Substitute for Pawlewicz & Hayward (2015): pnlab's scns, uct-solver and alphabeta on small Hex, equal budgets per move.\n\npairing                                  games  first wins  rate   95% interval\n",
    );
    let pair_rows = played.pairing_rates(comps, &mut summary);
    let elo_rows = played.elo(comps, cfg, &mut summary);
    let fm_json = first.quality(comps, cfg, &mut summary);
    let json = json!({
            "experiment": "scns-hex",
            "settings": cfg.settings,
            "note": "pnlab's scns, uct-solver and alphabeta (resistance evaluation) on 7x7/8x8 Hex: a small substitute for the DeepHex/MoHex/Wolve tournament of Pawlewicz & Hayward (2015), which cannot be rerun here",
            "budget": if cfg.mode == BudgetMode::Units { "units" } else { "time" },
            "budgets_ms": cfg.budgets,
            "rates_iterations_per_ms": cfg.rates.iter().map(|(p, n, r)| json!({"player": p, "size": n, "rate": r})).collect::<Vec<_>>(),
            "cross": cfg.cross.name(),
            "shard": format!("{}/{}", opts.shard.0 + 1, opts.shard.1),
            "seed": cfg.seed,
            "games": played.decided.len(),
            "pairings": pair_rows,
            "elo": elo_rows,
            "first_moves": fm_json,
    });
    let report = ExperimentReport::new(summary)
        .table("scns-hex-games.csv", &played.rows)?
        .table("scns-hex-first-moves.csv", &first.rows)?
        .json("scns-hex.json", json);
    opts.deliver(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::test_run::TestRun;

    #[test]
    fn the_benzene_tables_give_the_published_counts() {
        // 27 of 49 first moves win on 7×7 and 32 of 64 on 8×8 (Benzene).
        for (n, want) in [(7u8, 27), (8, 32)] {
            let g = Hex::new(n).unwrap();
            let wins = (0..n * n)
                .filter(|&c| first_move_wins(n, &g.name_of(c)) == Some(true))
                .count();
            assert_eq!(wins, want, "{n}x{n}");
            assert!((0..n * n).all(|c| first_move_wins(n, &g.name_of(c)).is_some()));
        }
        assert_eq!(first_move_wins(7, "d4"), Some(true));
        assert_eq!(first_move_wins(7, "a1"), Some(false));
    }

    #[test]
    fn a_few_openings_spread_over_the_board() {
        assert_eq!(opening_cells(49, Some(4)), vec![0, 12, 24, 36]);
        assert_eq!(opening_cells(9, Some(20)).len(), 9);
        assert_eq!(opening_cells(9, None), (0..9).collect::<Vec<u8>>());
    }

    #[test]
    fn a_tiny_run_plays_every_pairing_both_ways_and_rates_them() {
        let t = TestRun::new(
            "scns-hex",
            &[
                ("sizes", "4"),
                ("budgets", "1,2"),
                ("openings", "2"),
                ("first_moves", "1"),
                ("bootstrap", "10"),
                ("rates", "scns@4=5,uct-solver@4=5,alphabeta@4=5"),
            ],
            run,
        );
        let games = t.text("scns-hex-games.csv");
        // 3 players × 2 budgets: 3 same-budget pairs per budget + 3
        // adjacent self-pairs = 9 pairings, 2 openings, both colours.
        assert_eq!(games.lines().count(), 1 + 9 * 2 * 2);
        let v = t.json("scns-hex.json");
        assert_eq!(v["games"], 36);
        assert_eq!(v["elo"].as_array().unwrap().len(), 6);
        assert!(t.report.summary.contains("Elo"));
    }
}
