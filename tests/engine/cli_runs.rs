//! Small runs of subcommands that finish at once, shared by the tests
//! that run every subcommand under odd conditions (extreme option
//! values, a closed standard output): one command line per subcommand,
//! so the two checks look at the same run.

/// A single-conspiracy-number search, two plies deep.
pub const SCN: &[&str] = &[
    "scn",
    "--game",
    "tictactoe",
    "xx.oo....",
    "--set",
    "depth=2",
];

/// A self-play game of the rational searcher, two plies deep.
pub const RSCN: &[&str] = &[
    "rscn",
    "--game",
    "tictactoe",
    "xx.oo....",
    "--self-play",
    "--set",
    "depth=2",
];

/// A parameter tuning run of 200 nodes.
pub const TUNE: &[&str] = &[
    "tune",
    "--game",
    "tictactoe",
    "xx.oo....",
    "--max-nodes",
    "200",
];

/// A benchmark suite's first steps: ten iterations of PNS on the 4×4 Hex set.
pub const BENCH: &[&str] = &[
    "bench",
    "--suite",
    "hex-4",
    "--algo",
    "pns",
    "--max-iterations",
    "10",
];
