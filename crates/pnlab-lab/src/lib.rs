//! pnlab-lab: what pnlab does with the engine, without any GUI.
//!
//! The middle layer, on top of `pnlab-core`: one solve request and its
//! record (`solve`), the lessons and their frames (`lesson`), drawings,
//! curves and exports of trees (`layout`, `export`), the papers'
//! experiments (`experiments`), the benchmark sets (`bench`), the catalogue
//! of bundled positions and lessons (`catalogue`) and the live class's
//! rooms and server (`live`).
//!
//! The app and the command line (the `pnlab` package) build on this crate;
//! it never imports them, and `pnlab-core` never imports it.

#![warn(missing_docs)]

pub mod bench;
pub mod catalogue;
pub mod experiments;
pub mod export;
pub mod layout;
pub mod lesson;
pub mod live;
pub mod run;
pub mod solve;
