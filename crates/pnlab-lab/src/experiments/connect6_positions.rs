//! `pnlab experiment connect6-positions`: the generator of
//! `positions/connect6/`, a substitute for the thesis' eight Connect6
//! positions (Zhang 2019, Figs. 3-4, 3-5, 6-1 to 6-6, shown only as
//! pictures).
//!
//! Each seeded game starts with Black on j10; every stone is drawn
//! uniformly from the `width` best cells of the side to move by the zone
//! searches' heuristic (`game::connect::heuristic`), which gives the
//! tactical middle games of real play. At each turn start from
//! `min_stones` stones on, the side to move X is tested:
//!
//! 1. If a VCDT proves X's win at once (its proof replayed step by step),
//!    the game ends there. The position is kept only when the VCDT needs
//!    at least `keep_vcdt` nodes (the easy end of the set: every zone
//!    search proves it before its first iteration); by default it is not.
//! 2. Otherwise df-pn with relevance zones (the defaults of `pnlab solve
//!    --game connect6`) gets `cap` on the node number (MID calls plus VCDT
//!    nodes). If it proves X's win, the proof is checked
//!    ([`check_proof`](super::connect6_runs::check_proof)) and the
//!    position is kept: X to move wins. The game ends there.
//!
//! Settings: `games` (24), `width` (6), `min_stones` (9), `max_stones`
//! (45), `cap` (1000000), `vcdt_depth` (6), `vcdt_nodes` (20000),
//! `keep_vcdt` (0).
//! Outputs: `connect6-positions.toml` (the kept positions, ready for
//! `positions/`) and `connect6-positions.csv` (every test made).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use pnlab_core::game::connect::heuristic::top_cells;
use pnlab_core::game::connect::vcdt::{Vcdt, VcdtOptions};
use pnlab_core::game::connect::zone_game::VcdtCache;
use pnlab_core::game::connect::Connect;
use pnlab_core::game::{Game, Player};
use pnlab_core::search::dfpn::DfpnOptions;
use pnlab_core::search::params::ParamSpec;
use pnlab_core::search::{Search, Status};

use super::connect6_runs::{
    check_proof, settings, vcdt_depth_setting, vcdt_nodes_setting, zone_run, zone_search,
};
use super::{instance_seed, run_jobs, ExperimentError, ExperimentOptions, ExperimentReport};

pnlab_core::options! {
    /// The settings (`--set NAME=VALUE`; `pnlab experiment
    /// connect6-positions --help` lists them with their ranges and
    /// defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Connect6PositionsSettings {
        /// Seeded games played.
        pub games: usize => {
            "games", int(1, i64::MAX) = 24,
            "Seeded games played (one position kept per game at most)."
        },
        /// How many best-scored moves heuristic play picks among.
        pub width: usize => {
            "width", int(1, i64::MAX) = 6,
            "Heuristic play picks uniformly among this many best-scored moves."
        },
        /// Stones before the first proof attempt.
        pub min_stones: usize => {
            "min_stones", int(0, i64::MAX) = 9,
            "Stones on the board before the first proof attempt."
        },
        /// Stones at which a game without a proof is dropped.
        pub max_stones: usize => {
            "max_stones", int(0, i64::MAX) = 45,
            "A game that reaches this many stones without a proof is dropped."
        },
        /// MID-call cap of each proof attempt.
        pub cap: u64 => {
            "cap", int(1, i64::MAX) = 1_000_000,
            "MID-call cap of each df-pn proof attempt."
        },
        /// VCDT's most attacker moves.
        pub vcdt_depth: u32 => (vcdt_depth_setting(6)),
        /// VCDT's node cap.
        pub vcdt_nodes: u64 => (vcdt_nodes_setting(20_000)),
        /// Least VCDT nodes of a kept proof.
        pub keep_vcdt: u64 => {
            "keep_vcdt", int(0, i64::MAX) = 0,
            "Keep only positions whose proof needed at least this many VCDT nodes."
        },
    }
}

/// The settings' descriptions (the registry lists them).
pub const SETTINGS: &[ParamSpec] = Connect6PositionsSettings::PARAMS;

/// The generator's parameters.
#[derive(Clone, Copy, Debug)]
struct Gen {
    width: usize,
    min_stones: usize,
    max_stones: usize,
    cap: u64,
    vcdt: VcdtOptions,
    /// Keep a VCDT win at the root when its VCDT needs at least this many
    /// nodes (0: never).
    keep_vcdt: u64,
}

/// The words a [`Test`] records as its result.
const TEST_RESULTS: &[&str] = &["vcdt-at-root", "proved", "not-proved"];

/// Reads a [`Test`]'s result back from a job log.
fn test_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    super::name_in(d, TEST_RESULTS)
}

/// One test of a position.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Test {
    position: String,
    to_move: Player,
    /// `vcdt-at-root`, `proved`, `not-proved`.
    #[serde(deserialize_with = "test_result")]
    result: super::StaticName,
    mid_calls: u64,
    vcdt_nodes: u64,
    /// Positions of the checked proof.
    checked: usize,
}

/// One row of `connect6-positions.csv`: one test of a position.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TestRow {
    /// The game's number.
    pub game: usize,
    /// The game's seed.
    pub seed: u64,
    /// The position tested.
    pub position: String,
    /// `Black` or `White`.
    pub to_move: &'static str,
    /// `vcdt-at-root`, `proved` or `not-proved`.
    pub result: &'static str,
    /// df-pn's MID calls.
    pub mid_calls: u64,
    /// Nodes of the VCDT solves.
    pub vcdt_nodes: u64,
    /// Positions of the checked proof.
    pub proof_positions: usize,
}

/// Plays game `seed` and tests its turn starts; the last test is the kept
/// position when its result is `proved`.
fn play(seed: u64, gen: &Gen) -> Vec<Test> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut g = match Connect::parse_connect6("j10") {
        Ok(g) => g,
        Err(_) => return Vec::new(),
    };
    let mut tests = Vec::new();
    loop {
        if g.outcome().is_some() || g.moves().len() >= gen.max_stones {
            return tests;
        }
        let turn_start = g.stones_left() == g.rules().p;
        if turn_start && g.moves().len() >= gen.min_stones {
            let me = g.to_move();
            let mut v = Vcdt::new(g.board(), me, g.rules().p, gen.vcdt);
            if v.solve(g.stones_left()).is_some() && v.proof_holds(g.stones_left()) {
                tests.push(Test {
                    position: g.notation(),
                    to_move: me,
                    result: "vcdt-at-root",
                    mid_calls: 0,
                    vcdt_nodes: v.nodes(),
                    checked: 0,
                });
                return tests;
            }
            let zone = settings(&g, 5, gen.vcdt);
            let cache = VcdtCache::new();
            let run = zone_run(&g, "dfpn", DfpnOptions::default(), zone, &cache, gen.cap);
            let mut test = Test {
                position: g.notation(),
                to_move: me,
                result: "not-proved",
                mid_calls: run.mid_calls,
                vcdt_nodes: run.vcdt_nodes,
                checked: 0,
            };
            if run.proved() {
                // Solve again (the cache makes it cheap) to keep the table.
                let (mut s, _) = zone_search(&g, "dfpn", DfpnOptions::default(), zone, &cache);
                while !Search::status(&s).is_final() {
                    Search::step(&mut s);
                }
                if Search::status(&s) == Status::Proved {
                    if let Ok(n) = check_proof(&s, zone) {
                        test.result = "proved";
                        test.checked = n;
                        tests.push(test);
                        return tests;
                    }
                }
            }
            tests.push(test);
        }
        let top = top_cells(g.board(), g.to_move(), gen.width);
        if top.is_empty() {
            return tests;
        }
        g.play(top[rng.random_range(0..top.len())]);
    }
}

/// The experiment entry point.
pub fn run(opts: &ExperimentOptions) -> Result<ExperimentReport, ExperimentError> {
    let (_, s) = opts.typed_settings(SETTINGS, Connect6PositionsSettings::from_params)?;
    let games = s.games;
    let gen = Gen {
        width: s.width,
        min_stones: s.min_stones,
        max_stones: s.max_stones,
        cap: s.cap,
        vcdt: VcdtOptions {
            max_depth: s.vcdt_depth,
            max_nodes: s.vcdt_nodes,
        },
        keep_vcdt: s.keep_vcdt as _,
    };
    let seeds: Vec<u64> = (0..games).map(|i| instance_seed(opts.seed, i)).collect();
    let results = run_jobs(opts, &seeds, |&s| play(s, &gen));
    let mut rows = Vec::new();
    let mut toml = format!(
        "# Connect6 positions where the side to move wins, generated by\n\
         #   pnlab experiment connect6-positions --seed {} --set games={games} --set width={} --set min_stones={} --set max_stones={} --set cap={} --set vcdt_depth={} --set vcdt_nodes={} --set keep_vcdt={}\n\
         # (seeded heuristic play from j10; each kept position is the first turn start of\n\
         # its game where df-pn with relevance zones proves a win and the proof checks,\n\
         # or where a VCDT of at least keep_vcdt nodes wins at once).\n\
         # A substitute for the thesis' eight positions (Zhang 2019), shown only as figures.\n",
        opts.seed, gen.width, gen.min_stones, gen.max_stones, gen.cap, gen.vcdt.max_depth, gen.vcdt.max_nodes, gen.keep_vcdt
    );
    let mut kept = 0;
    for (i, tests) in &results {
        for t in tests {
            rows.push(TestRow {
                game: *i,
                seed: seeds[*i],
                position: t.position.clone(),
                to_move: side(t.to_move),
                result: t.result,
                mid_calls: t.mid_calls,
                vcdt_nodes: t.vcdt_nodes,
                proof_positions: t.checked,
            });
            let by_vcdt =
                t.result == "vcdt-at-root" && gen.keep_vcdt > 0 && t.vcdt_nodes >= gen.keep_vcdt;
            if t.result == "proved" || by_vcdt {
                kept += 1;
                let how = if by_vcdt {
                    format!(
                        "a VCDT at the root ({} VCDT nodes; every zone search proves it before its first iteration)",
                        t.vcdt_nodes
                    )
                } else {
                    format!(
                        "df-pn with zones: {} MID calls, {} VCDT nodes; proof checked over {} positions",
                        t.mid_calls, t.vcdt_nodes, t.checked
                    )
                };
                let stones = t.position.split_whitespace().count();
                toml.push_str(&format!(
                    "\n[[position]]\nname = \"connect6 seed {} game {i} ({} to move, {stones} stones)\"\ngame = \"connect6\"\nposition = \"{}\"\nexpected = \"win\"\nalgo = \"dfpn\"\nparams = {{ vcdt_depth = {}, vcdt_nodes = {} }}\nnotes = \"{} to move wins. Game {i} of the generator (seed {}). {how}.\"\n",
                    opts.seed,
                    side(t.to_move),
                    t.position,
                    gen.vcdt.max_depth,
                    gen.vcdt.max_nodes,
                    side(t.to_move),
                    seeds[*i],
                ));
            }
        }
    }
    let tested: usize = results.iter().map(|(_, t)| t.len()).sum();
    let report = ExperimentReport::new(format!(
        "{games} games, {tested} positions tested, {kept} kept\n"
    ))
    .table("connect6-positions.csv", &rows)?
    .file("connect6-positions.toml", toml.into_bytes());
    opts.deliver(report)
}

fn side(p: Player) -> &'static str {
    match p {
        Player::First => "Black",
        Player::Second => "White",
    }
}
