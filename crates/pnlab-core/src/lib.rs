//! pnlab-core: the games and the searches of pnlab, with what they need
//! and nothing above them.
//!
//! This crate is the bottom layer. It holds the games (`game`: rules,
//! notation, perft, the game table), the searches of the proof-number
//! family and their references (`search`: every algorithm, the registry,
//! the driver that steps a search from outside, snapshots and the
//! recorder), typed parameters (`params`, with the `options!` and
//! `choice_enum!` macros), the one clock with its deadline (`clock`),
//! position files (`positions`), proof certificates (`certificate`) and
//! reading files with located errors (`files`).
//!
//! It knows nothing of experiments, lessons, drawings or the app: those
//! live in `pnlab-lab` and the `pnlab` package, which depend on this crate,
//! never the reverse, so the compiler rejects an upward import.
//!
//! # Adding a game or an algorithm from outside
//!
//! A game from another crate implements [`game::external::ExternalState`]
//! and runs as [`game::AnyPosition::External`] (wrapping a
//! [`game::external::External`]); every algorithm of the
//! [`search::registry`] then accepts it.
//!
//! An algorithm from another crate implements [`search::Search`]: one
//! `step()` is one iteration, and `status()`, `counters()`, `sample()` and
//! `snapshot()` report on it ([`search::Snapshot::empty`] is a start for a
//! search that draws no tree yet). [`search::run`] then drives it under a
//! [`search::Budget`] exactly as it drives the registry's algorithms, on
//! any game of pnlab or from outside.
//!
//! The `examples/nim` crate of the repository does both: it defines Nim,
//! runs every registry algorithm on it, and brings an algorithm of its own
//! (`RootByRoot`), each answer checked against Bouton's theorem.

#![warn(missing_docs)]

pub mod certificate;
pub mod clock;
pub mod files;
pub mod game;
pub mod params;
pub mod positions;
pub mod search;
