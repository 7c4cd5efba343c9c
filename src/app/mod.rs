//! The egui app (written on its own branch).
