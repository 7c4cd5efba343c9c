//! pnlab: a laboratory for proof-number search.
//!
//! The engine (`game`, `search`, `solve`, `experiments`, `positions`, and the
//! `export` and `layout` of trees and curves that the app and the CLI
//! share) is usable without any GUI; the egui app lives in `app` behind the `gui` feature and
//! depends on the engine, never the reverse.

#![warn(missing_docs)]

pub mod bench;
pub mod catalogue;
pub mod certificate;
pub mod clock;
pub mod experiments;
pub mod export;
pub mod files;
pub mod game;
pub mod layout;
pub mod lesson;
pub mod live;
pub mod params;
pub mod positions;
pub mod search;
pub mod solve;

#[cfg(feature = "gui")]
pub mod app;
