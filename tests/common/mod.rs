//! Helpers shared by more than one test binary. Each binary uses a part
//! of them, so the others are dead code there.
#![allow(dead_code)]

#[cfg(feature = "gui")]
pub mod app_window;
pub mod cyclic_graph;
pub mod search_run;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use rand::rngs::SmallRng;
use rand::Rng;

use pnlab::game::{AnyPosition, Game, GameKind};
use pnlab::search::dfpn::{Dfpn, DfpnOptions};
use pnlab::search::{Question, Search};

/// The sequence of MID calls of a df-pn-family run: after each step,
/// (depth, node, thφ, thδ) of the call just entered; then the final status
/// and counters in one line. Two runs perform exactly alike when their
/// traces are equal (docs/algorithms.md §4's special cases).
pub fn dfpn_trace<G: Game>(
    g: &G,
    q: Question,
    opts: DfpnOptions,
) -> (Vec<(u32, u64, u32, u32)>, String) {
    let mut s = Dfpn::new("dfpn", g.clone(), q, opts);
    let mut calls = Vec::new();
    while !Search::status(&s).is_final() {
        Search::step(&mut s);
        if let Some(f) = s.frames().last() {
            let (tp, td) = f.thresholds_phi_delta();
            calls.push((f.depth, f.hash, tp, td));
        }
        assert!(calls.len() < 3_000_000, "no end");
    }
    let c = Search::counters(&s);
    let summary = format!(
        "{:?} it={} created={} expanded={} depth={} revisits={} root_sw={} sw={} live={}",
        Search::status(&s),
        c.iterations,
        c.nodes_created,
        c.nodes_expanded,
        c.max_depth,
        c.revisits,
        c.seesaw_root_switches,
        c.seesaw_switches,
        c.live_nodes
    );
    (calls, summary)
}

/// Runs the `pnlab` binary with `args`: (exit code, stdout, stderr).
pub fn pnlab(args: &[&str]) -> (i32, String, String) {
    output(Command::new(env!("CARGO_BIN_EXE_pnlab")).args(args))
}

/// Runs `pnlab` with `args`, expecting success and one JSON record on
/// its standard output (the `--json` line of one position): that record.
pub fn pnlab_json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = pnlab(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// Runs `pnlab` with `args`, expecting it to refuse them with the exit
/// code of bad input (2): its standard error.
pub fn pnlab_refused(args: &[&str]) -> String {
    let (code, out, err) = pnlab(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    err
}

/// Runs `pnlab` with `args` from the crate's root, where the bundled
/// `positions/`, `lessons/` and `tests/data/` resolve.
pub fn pnlab_at_root(args: &[&str]) -> (i32, String, String) {
    pnlab_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs `pnlab` with `args` in the folder `dir` (relative paths resolve
/// there).
pub fn pnlab_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    output(
        Command::new(env!("CARGO_BIN_EXE_pnlab"))
            .current_dir(dir)
            .args(args),
    )
}

/// Runs `pnlab` with `args` in the folder `dir` with nothing on its
/// standard input: the whole output (status and bytes as written).
pub fn pnlab_output<S: AsRef<std::ffi::OsStr>>(args: &[S], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run pnlab")
}

/// Runs `pnlab` with `args` and `input` on its standard input.
pub fn pnlab_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    let child = spawn_with_input(args, input, Stdio::piped());
    result(child.wait_with_output().expect("wait"))
}

/// Starts `pnlab` with `args`, its standard output piped and its standard
/// error sent to `stderr`; writes `input` to its standard input and
/// closes it.
pub fn spawn_with_input(args: &[&str], input: &str, stderr: Stdio) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("run pnlab");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child
}

fn output(cmd: &mut Command) -> (i32, String, String) {
    result(cmd.output().expect("run pnlab"))
}

fn result(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A position in `kind`'s inline notation (the test's own text: a typo
/// panics with the parser's message).
pub fn parse(kind: GameKind, s: &str) -> AnyPosition {
    AnyPosition::parse(kind, s).unwrap_or_else(|e| panic!("{kind} `{s}`: {e}"))
}

/// `plies` uniformly random moves from `start`; `None` if the game ended
/// on the way or at the end.
pub fn random_walk(start: &AnyPosition, plies: usize, rng: &mut SmallRng) -> Option<AnyPosition> {
    let mut p = start.clone();
    for _ in 0..plies {
        let moves = p.legal_move_names();
        if moves.is_empty() {
            return None;
        }
        let m = &moves[rng.random_range(0..moves.len())];
        p = p.after_move(m).ok()?;
    }
    p.outcome().is_none().then_some(p)
}

/// The positions one legal move from `g`, in move-generation order
/// (none when the game is over).
pub fn children<G: Game>(g: &G) -> Vec<G> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut c = g.clone();
            c.play(m);
            c
        })
        .collect()
}

/// `count` positions, each a random walk from `start` of a number of
/// plies drawn from `plies`; a walk that ends the game is drawn again
/// (up to 50 tries a position).
pub fn random_walks(
    start: &AnyPosition,
    count: usize,
    plies: std::ops::Range<usize>,
    rng: &mut SmallRng,
) -> Vec<AnyPosition> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(
            tries <= count * 50,
            "only {} of {count} walks from {} went on",
            out.len(),
            start.notation()
        );
        let n = rng.random_range(plies.clone());
        out.extend(random_walk(start, n, rng));
    }
    out
}

/// Plain minimax by full enumeration, no pruning and no table: the first
/// player's score. Slow on purpose: it shares nothing with the searches it
/// checks (nor with `reference`, which prunes).
pub fn full_minimax<G: Game>(g: &G) -> i32 {
    if let Some(o) = g.outcome() {
        return o.score;
    }
    let vals = children(g).into_iter().map(|c| full_minimax(&c));
    if g.to_move() == pnlab::game::Player::First {
        vals.max().expect("a game that is not over has a move")
    } else {
        vals.min().expect("a game that is not over has a move")
    }
}

/// A test's own naive board, written apart from the game it checks, so
/// that the two move generators can be compared by their perft counts.
pub trait NaiveBoard: Clone {
    /// A move of the naive board.
    type Move;
    /// Every legal move (none when the game is over).
    fn legal(&self) -> Vec<Self::Move>;
    /// Plays one legal move.
    fn play(&mut self, m: Self::Move);
}

/// Leaf count of `b`'s move tree at `depth` plies.
pub fn naive_perft<B: NaiveBoard>(b: &B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = b.legal();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = b.clone();
            c.play(m);
            naive_perft(&c, depth - 1)
        })
        .sum()
}

/// Runs the binary with `args` and no display in its environment.
pub fn without_display(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("the binary runs")
}
