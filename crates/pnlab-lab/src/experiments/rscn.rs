//! `pnlab experiment rscn`: the three RSCN studies of Zhang's 2019 thesis
//! (§4.3; Song & Iida 2018) on substitute data.
//!
//! - `set=tactical`: the thesis composed 96 tactical positions in which
//!   Red forces mate; pnlab uses 96 verified mate-in-3 puzzles with Red to
//!   move (`assets/rscn/tactical-96.tsv`, from real games). The engine
//!   (alpha-beta with SCN, the same iterative deepening) plays both sides
//!   to the end of the game; RSCN_red, RSCN_black, Vl_red and Vl_black of
//!   each game are the histogram data (T = 600).
//! - `set=drawn`: the same positions with every rook, horse, cannon and
//!   pawn removed (only generals, advisors and elephants: nobody can
//!   mate); positions the removal makes illegal are skipped and counted.
//!   Self-play ends by repetition (a draw) or at `max-plies`.
//! - `set=long`: the same study on positions with a longer forced mate
//!   (`assets/rscn/long-mates.tsv`: puzzles from real games whose mate in
//!   5 or more pnlab's mate search proved and whose "no mate in N − 1"
//!   it disproved, both with verified certificates), so the losing side's
//!   SCN stays finite for more depths than in a mate in 3.
//! - `set=handicap`: the start position and six handicap openings (Red
//!   without one rook, both rooks, one horse, both horses, one cannon,
//!   both cannons), two moves per side (four positions), T = 200 and 600.
//!
//! Outputs: `rscn-SET.csv` (one row per game), `rscn-SET-positions.csv`
//! (one row per position) and `rscn-SET.json` (settings, the substitute
//! data statement, per-series histograms and the separation figures).

use pnlab_core::clock::Instant;

use serde_json::json;

use pnlab_core::game::xiangqi::{EvalTerms, EvalVariant, Xiangqi};
use pnlab_core::game::{Game, Player};
use pnlab_core::search::alphabeta::rscn::{self, Band, RscnEntry, Summary};
use pnlab_core::search::alphabeta::sequence::{self_play, Flow};
use pnlab_core::search::alphabeta::{AlphaBetaOptions, MoveOrder};
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::pn;

use super::{run_jobs, ExperimentError, ExperimentOptions, ExperimentReport, Fixed, Real};

/// The tactical positions (see the module documentation and the file's
/// header for the source).
const TACTICAL: &str = include_str!("../../../../assets/rscn/tactical-96.tsv");

/// The standard start position.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The handicap openings: name and FEN (Red gives the handicap and moves
/// first).
const OPENINGS: [(&str, &str); 7] = [
    ("normal", START),
    (
        "one-rook",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
    ),
    (
        "two-rooks",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1",
    ),
    (
        "one-horse",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1",
    ),
    (
        "two-horses",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w - - 0 1",
    ),
    (
        "one-cannon",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "two-cannons",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/9/9/RNBAKABNR w - - 0 1",
    ),
];

pnlab_core::choice_enum! {
    /// The position set of the study (`set`).
    pub enum RscnSet {
        /// The mate-in-3 puzzles.
        Tactical = "tactical",
        /// The puzzles without attackers.
        Drawn = "drawn",
        /// The handicap openings.
        Handicap = "handicap",
        /// The long mates (mate in 5 or more).
        Long = "long",
    }
}

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment rscn --help`
    /// lists them with their ranges and defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct RscnSettings {
        /// The position set.
        pub set: RscnSet => {
            "set", choice = RscnSet::Tactical,
            "Mate-in-3 puzzles, the puzzles without attackers, handicap openings, or long mates (mate in 5 or more)."
        },
        /// Alpha-beta depth of the self-play.
        pub depth: u32 => {
            "depth", int(1, pnlab_core::search::alphabeta::MAX_DEPTH) = DEFAULT_DEPTH,
            "Alpha-beta search depth of the self-play."
        },
        /// RSCN threshold T (0: the set's own).
        pub t: i32 => {
            "T", int(0, i32::MAX) = 0,
            "RSCN threshold T; 0 = the set's own (600, or 200 and 600 for handicap)."
        },
        /// How many positions of the set.
        pub positions: usize => {
            "positions", int(1, i64::MAX) = 96,
            "Use the first N positions of the tactical, drawn or long set."
        },
        /// Longest self-play game, in plies.
        pub max_plies: usize => {
            "max-plies", int(1, i64::MAX) = 200,
            "Longest self-play game of the tactical and drawn sets, in plies."
        },
        /// Move order of the alpha-beta search.
        pub order: MoveOrder => {
            "order", choice = MoveOrder::Game,
            "Move order of the alpha-beta search."
        },
        /// Terms of the static evaluation.
        pub eval: EvalTerms => {
            "eval", choice = EvalTerms::Full,
            "Static evaluation: material and piece-square terms (full) or material only."
        },
        /// Percentage applied to the static evaluation.
        pub eval_scale: u32 => {
            "eval-scale", int(1, 300) = 100,
            "Static evaluation times this percentage (won games stay at 10000; 34 = about Xiangqi Wizard Light's scale)."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = RscnSettings::PARAMS;

/// The default depth (chosen so the tactical set runs in under ten
/// minutes on two cores; see the closing note of the RSCN issue).
pub const DEFAULT_DEPTH: u32 = 6;

/// One row of `rscn-SET.csv`: one self-play game.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RscnGameRow {
    /// The set.
    pub set: String,
    /// The game's id.
    pub id: String,
    /// The threshold T.
    #[serde(rename = "T")]
    pub t: i32,
    /// Alpha-beta depth of the self-play.
    pub depth: u32,
    /// Positions searched.
    pub positions: usize,
    /// How the game ended.
    pub end: String,
    /// Red's mean RSCN (empty: none finite).
    pub rscn_red: Option<Fixed<3>>,
    /// Black's mean RSCN.
    pub rscn_black: Option<Fixed<3>>,
    /// Red's mean Vl.
    pub vl_red: Option<Fixed<3>>,
    /// Black's mean Vl.
    pub vl_black: Option<Fixed<3>>,
    /// The band of Red's RSCN.
    pub band_red: &'static str,
    /// The band of Black's RSCN.
    pub band_black: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: Fixed<1>,
}

/// One row of `rscn-SET-positions.csv`: one searched position.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RscnPositionRow {
    /// The set.
    pub set: String,
    /// The game's id.
    pub id: String,
    /// The threshold T.
    #[serde(rename = "T")]
    pub t: i32,
    /// The ply.
    pub ply: usize,
    /// `red` or `black`: the side to move.
    pub side: &'static str,
    /// The position.
    pub fen: String,
    /// The move played from it (empty at the end).
    pub r#move: Option<String>,
    /// The search's value.
    pub value: Option<i32>,
    /// The SCN (an integer, or `inf`).
    pub scn: Option<Real>,
    /// r_i (empty when the curve was dropped).
    pub r: Option<Fixed<3>>,
    /// RSCN_i (`inf`, or empty when undefined).
    pub rscn: Option<Fixed<3>>,
    /// Vl_i.
    pub vl: Option<Fixed<3>>,
    /// The band of RSCN_i.
    pub band: &'static str,
    /// Nodes searched.
    pub nodes: u64,
}

/// One game of the study.
struct Job {
    id: String,
    fen: String,
    threshold: i32,
}

/// What one game produced (kept in a shard's job file for `experiment
/// merge`).
#[derive(serde::Serialize, serde::Deserialize)]
struct GameResult {
    rows: Vec<PositionRow>,
    entries: Vec<RscnEntry>,
    summary: Summary,
    end: String,
    nodes: u64,
    time_ms: f64,
}

/// One searched position.
#[derive(serde::Serialize, serde::Deserialize)]
struct PositionRow {
    side: Player,
    fen: String,
    played: Option<String>,
    value: Option<i32>,
    scn: Option<pn::Pn>,
    nodes: u64,
}

/// A FEN with every rook, horse, cannon and pawn taken off the board.
pub fn without_attackers(fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut out = String::new();
            let mut empty = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    empty += d;
                } else if "rRnNhHcCpP".contains(c) {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

/// The long mates (see the module documentation and the file's header
/// for the source and how each length was proved).
const LONG: &str = include_str!("../../../../assets/rscn/long-mates.tsv");

/// The tactical positions: (id, FEN).
fn tactical() -> Vec<(String, String)> {
    id_fen_rows(TACTICAL)
}

/// The (id, FEN) rows of a tab-separated position list (`#` comments).
fn id_fen_rows(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_string(), f.next()?.to_string()))
        })
        .collect()
}

/// Plays one game by self-play and works out its RSCN.
fn play(
    job: &Job,
    opts: &AlphaBetaOptions,
    variant: EvalVariant,
    max_plies: usize,
) -> Result<GameResult, ExperimentError> {
    let start = Instant::now();
    let g = Xiangqi::parse_fen(&job.fen)
        .map_err(|error| ExperimentError::BadFen {
            id: job.id.clone(),
            error,
        })?
        .with_eval_variant(variant);
    let seq = self_play(&g, opts, max_plies, |_, _| Flow::Continue);
    let curves: Vec<(Player, &[pnlab_core::search::alphabeta::CurvePoint])> =
        seq.iter().map(|p| (p.side, p.curve.as_slice())).collect();
    let entries = rscn::along(&curves);
    let summary = rscn::summarize(&entries);
    let last = seq.last().map(|p| p.position.clone());
    let end = match last.and_then(|p| p.outcome()) {
        Some(o) => match o.winner() {
            Some(Player::First) => "red-wins",
            Some(Player::Second) => "black-wins",
            None => "draw",
        },
        None => "max-plies",
    }
    .to_string();
    let rows = seq
        .iter()
        .map(|p| PositionRow {
            side: p.side,
            fen: p.position.notation(),
            played: p.played.clone(),
            value: p.curve.last().map(|c| c.value),
            scn: p.curve.last().map(|c| c.scn),
            nodes: p.nodes,
        })
        .collect();
    Ok(GameResult {
        rows,
        entries,
        summary,
        end,
        nodes: seq.iter().map(|p| p.nodes).sum(),
        time_ms: start.elapsed().as_secs_f64() * 1000.0,
    })
}

/// Counts of `xs` in `bins` equal bins over [lo, hi].
fn histogram(xs: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<usize> {
    let mut h = vec![0; bins];
    let w = (hi - lo) / bins as f64;
    for &x in xs {
        let k = if w > 0.0 {
            (((x - lo) / w) as usize).min(bins - 1)
        } else {
            0
        };
        h[k] += 1;
    }
    h
}

/// The mean of `xs`, none when it is empty.
fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Histogram data and overlap figures of two series (Red's and Black's).
fn compare(name: &str, red: &[f64], black: &[f64]) -> serde_json::Value {
    let all: Vec<f64> = red.iter().chain(black).copied().collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if all.is_empty() { (0.0, 0.0) } else { (lo, hi) };
    let bins = 20;
    let max_red = red.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min_red = red.iter().copied().fold(f64::INFINITY, f64::min);
    let max_black = black.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min_black = black.iter().copied().fold(f64::INFINITY, f64::min);
    let pairs = red.len().min(black.len());
    json!({
        "series": name,
        "red_mean": mean(red),
        "black_mean": mean(black),
        "red_count": red.len(),
        "black_count": black.len(),
        "edges": (0..=bins).map(|i| lo + (hi - lo) * i as f64 / bins as f64).collect::<Vec<_>>(),
        "red_histogram": histogram(red, lo, hi, bins),
        "black_histogram": histogram(black, lo, hi, bins),
        "red_min": (min_red.is_finite()).then_some(min_red),
        "red_max": (max_red.is_finite()).then_some(max_red),
        "black_min": (min_black.is_finite()).then_some(min_black),
        "black_max": (max_black.is_finite()).then_some(max_black),
        // Whether the two ranges overlap at all, whichever side lies higher
        // (a "clear boundary" means they do not: a winning Red's RSCN lies
        // below Black's, its Vl above). With no finite number on one side
        // there is nothing to separate: null, not a boundary.
        "ranges_overlap": (!red.is_empty() && !black.is_empty())
            .then_some(min_red <= max_black && min_black <= max_red),
        "paired_games": pairs,
    })
}

/// The games of one set: the jobs, the game length and the substitute
/// data statement, with the positions that could not be used.
struct SetJobs {
    jobs: Vec<Job>,
    max_plies: usize,
    substitute: &'static str,
    skipped: Vec<String>,
}

/// The jobs of `set`: the puzzle sets (tactical, drawn, long) play their
/// first `wanted` positions for `max_plies`; the handicap openings two
/// moves per side, at T = `t` or at both 200 and 600.
fn set_jobs(set: RscnSet, t: Option<i32>, wanted: usize, max_plies: usize) -> SetJobs {
    match set {
        RscnSet::Tactical | RscnSet::Drawn | RscnSet::Long => {
            puzzle_jobs(set, t.unwrap_or(600), wanted, max_plies)
        }
        RscnSet::Handicap => handicap_jobs(t),
    }
}

/// The jobs of a puzzle set; a position the removal of attackers makes
/// illegal is skipped (and listed) rather than played.
fn puzzle_jobs(set: RscnSet, t: i32, wanted: usize, max_plies: usize) -> SetJobs {
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    let rows = if set == RscnSet::Long {
        id_fen_rows(LONG)
    } else {
        tactical()
    };
    for (id, fen) in rows.into_iter().take(wanted) {
        let fen = if set == RscnSet::Drawn {
            without_attackers(&fen)
        } else {
            fen
        };
        match Xiangqi::parse_fen(&fen) {
            Ok(_) => jobs.push(Job {
                id,
                fen,
                threshold: t,
            }),
            Err(e) => skipped.push(format!("{id}: {e}")),
        }
    }
    let substitute = match set {
        RscnSet::Tactical => "96 verified mate-in-3 puzzles with Red to move (real games, maksimKorzh/wukong-xiangqi) replace the thesis' 96 composed tactical positions",
        RscnSet::Long => "puzzles from real games (maksimKorzh/wukong-xiangqi) with a certified mate in 5 or more, Red to move, replace the thesis' 96 composed tactical positions",
        _ => "the tactical set's puzzles with every rook, horse, cannon and pawn removed replace the thesis' 96 drawn positions",
    };
    SetJobs {
        jobs,
        max_plies,
        substitute,
        skipped,
    }
}

/// The jobs of the handicap openings (three plies each: the thesis' "two
/// moves per side" from Red's first).
fn handicap_jobs(t: Option<i32>) -> SetJobs {
    let ts = match t {
        Some(t) => vec![t],
        None => vec![200, 600],
    };
    let mut jobs = Vec::new();
    for t in ts {
        for (name, fen) in OPENINGS {
            jobs.push(Job {
                id: name.to_string(),
                fen: fen.to_string(),
                threshold: t,
            });
        }
    }
    SetJobs {
        jobs,
        max_plies: 3,
        substitute: "the start position without Red's pieces as named (a0 rook, both rooks, b0 horse, both horses, b2 cannon, both cannons) replace the thesis' handicap openings; two moves per side",
        skipped: Vec::new(),
    }
}

/// The band of a side's mean RSCN (none finite: undefined).
fn band_of(x: Option<f64>) -> Band {
    Band::of(x.map_or(rscn::Rscn::Undefined, rscn::Rscn::Finite))
}

/// What the games produced, gathered for the tables and the summary.
#[derive(Default)]
struct Gathered {
    games: Vec<RscnGameRow>,
    positions: Vec<RscnPositionRow>,
    /// RSCN_red, RSCN_black, Vl_red, Vl_black of every game that has one.
    series: [Vec<f64>; 4],
    per_game: Vec<serde_json::Value>,
    total_ms: f64,
}

impl Gathered {
    /// Adds one game's rows, series values and JSON record.
    fn add(&mut self, set: &str, depth: u32, job: &Job, r: &GameResult) {
        self.total_ms += r.time_ms;
        let s = &r.summary;
        self.games.push(RscnGameRow {
            set: set.to_string(),
            id: job.id.clone(),
            t: job.threshold,
            depth,
            positions: r.rows.len(),
            end: r.end.clone(),
            rscn_red: s.rscn_red.map(Fixed),
            rscn_black: s.rscn_black.map(Fixed),
            vl_red: s.vl_red.map(Fixed),
            vl_black: s.vl_black.map(Fixed),
            band_red: band_of(s.rscn_red).name(),
            band_black: band_of(s.rscn_black).name(),
            nodes: r.nodes,
            time_ms: Fixed(r.time_ms),
        });
        for (x, v) in [s.rscn_red, s.rscn_black, s.vl_red, s.vl_black]
            .into_iter()
            .zip(self.series.iter_mut())
        {
            if let Some(x) = x {
                v.push(x);
            }
        }
        self.per_game.push(json!({
            "id": job.id, "T": job.threshold, "end": r.end, "positions": r.rows.len(),
            "rscn_red": s.rscn_red, "rscn_black": s.rscn_black,
            "vl_red": s.vl_red, "vl_black": s.vl_black,
            "band_red": band_of(s.rscn_red).name(), "band_black": band_of(s.rscn_black).name(),
        }));
        for (ply, (row, e)) in r.rows.iter().zip(&r.entries).enumerate() {
            self.positions.push(position_row(set, job, ply, row, e));
        }
    }
}

/// The row of one searched position of a game.
fn position_row(
    set: &str,
    job: &Job,
    ply: usize,
    row: &PositionRow,
    e: &RscnEntry,
) -> RscnPositionRow {
    RscnPositionRow {
        set: set.to_string(),
        id: job.id.clone(),
        t: job.threshold,
        ply,
        side: if row.side == Player::First {
            "red"
        } else {
            "black"
        },
        fen: row.fen.clone(),
        r#move: row.played.clone(),
        value: row.value,
        // An integer, or INF: a real keeps both.
        scn: row.scn.map(|s| {
            Real(if s == pn::INF {
                f64::INFINITY
            } else {
                s as f64
            })
        }),
        r: e.r.map(Fixed),
        rscn: match e.rscn {
            rscn::Rscn::Finite(x) => Some(Fixed(x)),
            rscn::Rscn::Infinite => Some(Fixed(f64::INFINITY)),
            rscn::Rscn::Undefined => None,
        },
        vl: e.vl.map(Fixed),
        band: e.band.name(),
        nodes: row.nodes,
    }
}

/// How many of `xs` (finite RSCN values) lie in band `b`.
fn in_band(xs: &[f64], b: Band) -> usize {
    xs.iter()
        .filter(|&&x| Band::of(rscn::Rscn::Finite(x)) == b)
        .count()
}

/// Games that gave Red, and Black, no finite RSCN: a curve needs four
/// finite depths, and the losing side's SCN is INF from the depth at
/// which its loss comes inside the horizon (short mates leave too few).
fn without_rscn(g: &Gathered) -> (usize, usize) {
    let games = g.games.len();
    (games - g.series[0].len(), games - g.series[1].len())
}

/// The JSON summary: settings, the substitute data statement, histograms
/// and separation figures of both series, band counts and every game.
fn summary_json(
    settings: &pnlab_core::search::Params,
    s: &RscnSettings,
    jobs: &SetJobs,
    g: &Gathered,
) -> serde_json::Value {
    let [rr, rb, vr, vb] = &g.series;
    let no_rscn = without_rscn(g);
    let bands = |xs: &[f64]| json!({"high": in_band(xs, Band::High), "normal": in_band(xs, Band::Normal), "low": in_band(xs, Band::Low)});
    json!({
        "experiment": "rscn",
        "settings": settings,
        "set": s.set.name(),
        "substitute_data": jobs.substitute,
        "depth": s.depth,
        "order": if s.order == MoveOrder::Game { "game" } else { "captures-first" },
        "max_plies": jobs.max_plies,
        "eval": {"terms": s.eval.name(), "scale_percent": s.eval_scale},
        "games": g.games.len(),
        "skipped": jobs.skipped,
        "games_without_finite_rscn": {"red": no_rscn.0, "black": no_rscn.1},
        "rscn": compare("rscn", rr, rb),
        "vl": compare("vl", vr, vb),
        "bands": {
            "red": bands(rr),
            "black": bands(rb),
        },
        "time_ms": g.total_ms,
        "per_game": g.per_game,
    })
}

/// The lines the command line prints: means, overlaps and band counts.
fn summary_text(
    s: &RscnSettings,
    jobs: &SetJobs,
    g: &Gathered,
    summary: &serde_json::Value,
) -> String {
    let [rr, rb, vr, vb] = &g.series;
    let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1}"));
    let overlap = |v: &serde_json::Value| {
        v.as_bool()
            .map_or("– (a side has no numbers)".to_string(), |b| b.to_string())
    };
    let mut text = format!(
        "rscn set={} depth={} eval={}@{}%: {} games ({} skipped), substitute data: {}\n  mean RSCN_red {}  RSCN_black {}  Vl_red {}  Vl_black {}\n  RSCN ranges overlap: {}; Vl ranges overlap: {}\n  Red's RSCN in bands high/normal/low: {}/{}/{}; Black's: {}/{}/{}",
        s.set.name(),
        s.depth,
        s.eval.name(),
        s.eval_scale,
        g.games.len(),
        jobs.skipped.len(),
        jobs.substitute,
        f(mean(rr)),
        f(mean(rb)),
        f(mean(vr)),
        f(mean(vb)),
        overlap(&summary["rscn"]["ranges_overlap"]),
        overlap(&summary["vl"]["ranges_overlap"]),
        in_band(rr, Band::High),
        in_band(rr, Band::Normal),
        in_band(rr, Band::Low),
        in_band(rb, Band::High),
        in_band(rb, Band::Normal),
        in_band(rb, Band::Low),
    );
    let no_rscn = without_rscn(g);
    if no_rscn != (0, 0) {
        text.push_str(&format!(
            "\n  no finite RSCN in {} games for Red, {} for Black: an SCN curve needs 4 finite depths, and a side's SCN is INF once its loss is inside the horizon",
            no_rscn.0, no_rscn.1
        ));
    }
    text
}

/// Runs the experiment: the set's games by self-play (one job each),
/// then the tables and the summary.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (settings, s) = opts.typed_settings(SETTINGS, RscnSettings::from_params)?;
    let variant = EvalVariant {
        terms: s.eval,
        scale: s.eval_scale,
    };
    let t_given = (s.t != 0).then_some(s.t);
    let set_jobs = set_jobs(s.set, t_given, s.positions, s.max_plies);
    let results = run_jobs(opts, &set_jobs.jobs, |job| {
        let ab = AlphaBetaOptions {
            threshold: job.threshold,
            max_depth: s.depth,
            prune: true,
            order: s.order,
            record_limit: 0,
        };
        play(job, &ab, variant, set_jobs.max_plies)
    });
    let set = s.set.name();
    let mut gathered = Gathered::default();
    for (i, r) in &results {
        let r = r.as_ref().map_err(ExperimentError::clone)?;
        gathered.add(set, s.depth, &set_jobs.jobs[*i], r);
    }
    let summary = summary_json(&settings, &s, &set_jobs, &gathered);
    let text = summary_text(&s, &set_jobs, &gathered, &summary);
    let shard = if opts.shard.1 > 1 {
        format!("-shard{}of{}", opts.shard.0 + 1, opts.shard.1)
    } else {
        String::new()
    };
    let report = ExperimentReport::new(text)
        .table(format!("rscn-{set}{shard}.csv"), &gathered.games)?
        .table(
            format!("rscn-{set}{shard}-positions.csv"),
            &gathered.positions,
        )?
        .json(format!("rscn-{set}{shard}.json"), summary);
    opts.deliver(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_attackers_keeps_generals_advisors_and_elephants() {
        assert_eq!(
            without_attackers(START),
            "2bakab2/9/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1"
        );
        assert_eq!(
            without_attackers(
                "3k1ab2/2r1a1N2/1R2b1C2/p5R1p/9/4p4/P2p2P1P/4r4/N3A4/4KAB1c w - - 0 1"
            ),
            "3k1ab2/4a4/4b4/9/9/9/9/9/4A4/4KAB2 w - - 0 1"
        );
    }

    #[test]
    fn an_empty_side_separates_nothing() {
        assert_eq!(compare("rscn", &[], &[1.0])["ranges_overlap"], json!(null));
        assert_eq!(compare("rscn", &[2.0], &[])["ranges_overlap"], json!(null));
        assert_eq!(
            compare("rscn", &[-3.0], &[1.0])["ranges_overlap"],
            json!(false)
        );
        assert_eq!(
            compare("rscn", &[1.0], &[1.0])["ranges_overlap"],
            json!(true)
        );
        assert_eq!(
            compare("vl", &[5.0, 9.0], &[-2.0, 1.0])["ranges_overlap"],
            json!(false)
        );
        assert_eq!(
            compare("vl", &[0.0, 9.0], &[-2.0, 1.0])["ranges_overlap"],
            json!(true)
        );
    }

    #[test]
    fn ninety_six_tactical_positions_parse() {
        let t = tactical();
        assert_eq!(t.len(), 96);
        for (id, fen) in &t {
            let g = Xiangqi::parse_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(g.to_move(), Player::First, "{id}");
        }
        for (name, fen) in OPENINGS {
            assert!(Xiangqi::parse_fen(fen).is_ok(), "{name}");
        }
    }

    #[test]
    fn the_long_mates_parse_with_red_to_move() {
        let t = id_fen_rows(LONG);
        assert!(!t.is_empty());
        for (id, fen) in &t {
            let g = Xiangqi::parse_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(g.to_move(), Player::First, "{id}");
        }
    }
}
