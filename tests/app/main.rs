//! The app's integration tests (they drive the GUI: headless contexts,
//! egui_kittest, the driver), as one test binary for the same reason as
//! `tests/engine`. Built only with the `gui` feature.

#![cfg(feature = "gui")]

#[path = "../common/mod.rs"]
mod common;

mod driver;
mod headless;
mod kittest;
mod teaching;
mod trust;
mod web_page;
