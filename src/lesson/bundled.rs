//! The course of `lessons/`, embedded in the binary like the positions
//! (so the app, the browser build and `pnlab lesson --check` find it
//! anywhere). Paths are relative to the package root, so a lesson's
//! `../positions/…` finds its embedded neighbour.

use crate::positions::BundledFile;

macro_rules! bundle {
    ($($path:literal),* $(,)?) => {
        &[$(BundledFile { path: concat!("lessons/", $path), text: include_str!(concat!("../../lessons/", $path)) }),*]
    };
}

/// Every lesson of `lessons/`, in course order.
pub static LESSONS: &[BundledFile] = bundle![
    "01-and-or-trees.lesson.toml",
];
