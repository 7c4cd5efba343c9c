//! The app in a test window (egui_kittest), as the desktop shell draws
//! it, for the tests that drive it by its AccessKit labels.

use std::time::Duration;

use egui_kittest::Harness;
use pnlab::app::PnlabApp;

/// `app` in a window of `w` × `h` logical pixels; nothing drawn yet.
pub fn app_window(w: f32, h: f32, app: PnlabApp) -> Harness<'static, PnlabApp> {
    Harness::builder()
        .with_size([w, h])
        .build_ui_state(|ui, app: &mut PnlabApp| app.show(ui), app)
}

/// Lets the UI send what the last input asked for, waits up to `timeout`
/// for the worker to carry it out, then draws `frames` frames of the
/// result.
pub fn settle_within(h: &mut Harness<'static, PnlabApp>, timeout: Duration, frames: usize) {
    h.run_steps(2);
    assert!(h.state_mut().settle(timeout), "worker did not answer");
    h.run_steps(frames);
}
