//! pnlab: a laboratory for proof-number search.
//!
//! The project is three crates, one per layer; the compiler rejects an
//! upward import (docs/architecture.md draws them):
//! - `pnlab-core`: games, searches, parameters, the clock, positions and
//!   certificates;
//! - `pnlab-lab`: solve requests, lessons, drawings and exports,
//!   experiments, benchmarks and the live class, without any GUI;
//! - this package: the egui app (`app`, behind the `gui` feature) and the
//!   `pnlab` binary (the command line, and the page when built for wasm).
//!
//! This library re-exports the two lower crates' modules under their old
//! names (`pnlab::game`, `pnlab::solve`, …), so code written against one
//! `pnlab` crate keeps working.

#![warn(missing_docs)]

pub use pnlab_core::{certificate, clock, files, game, params, positions, search};
pub use pnlab_core::{choice_enum, game_table, options, with_position};
pub use pnlab_lab::{bench, catalogue, experiments, export, layout, lesson, live, run, solve};

#[cfg(feature = "gui")]
pub mod app;
