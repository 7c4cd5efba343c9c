//! `bench.html`: `pnlab bench`'s PNS rows, measured in the browser
//! (`crate::bench`). Each set runs between two frames, the results go to
//! the page and to the console (one JSON line per set, prefixed
//! [`BENCH_PREFIX`]), and the page ends with [`BENCH_DONE`].

use wasm_bindgen::JsCast;

use crate::app::driver::cooperative::FRAME_BUDGET;
use crate::bench::{pns_sets, run_set};
use crate::run::driven::DrivenSet;
use crate::search::{self, Params};

/// The id of the element the results are written into (`bench.html`).
pub const BENCH_ID: &str = "pnlab_bench";
/// The console line of one set's result starts with this.
pub const BENCH_PREFIX: &str = "pnlab-bench ";
/// The console line that ends the run.
pub const BENCH_DONE: &str = "pnlab-bench-done";

/// Lets the browser draw (and the console flush) before the next set.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w
                .set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 30);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Hands the thread back to the browser for a moment (a page's frame
/// loop does the same between the driver's slices).
async fn next_tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn append(out: &web_sys::Element, line: &str) {
    let text = out.text_content().unwrap_or_default();
    out.set_text_content(Some(&format!("{text}{line}\n")));
}

/// Runs every set with PNS and reports as it goes.
pub async fn run_page(out: web_sys::Element) {
    let result = async {
        let info = search::Algorithm::named("pns")?;
        let params = Params::defaults(info.params);
        append(
            &out,
            "suite        runs solved   iterations      ms        it/s",
        );
        for set in pns_sets()? {
            next_frame().await;
            let row = run_set(&set, "pns", &params)?;
            append(
                &out,
                &format!(
                    "{:<12} {:>4} {:>6} {:>12} {:>7.0} {:>11.0}",
                    row.suite,
                    row.runs,
                    row.solved,
                    row.iterations,
                    row.time_ms,
                    row.iterations_per_sec()
                ),
            );
            let mut json = serde_json::to_value(&row)?;
            json["iterations_per_sec"] = serde_json::json!(row.iterations_per_sec().round());
            super::console_line(&format!("{BENCH_PREFIX}{json}"));
            // The same runs as the app drives them: one slice per frame
            // of the page, the browser drawing in between.
            let mut driven = DrivenSet::new(&set, info, &params, FRAME_BUDGET);
            while !driven.slice(set.max_iterations)? {
                next_tick().await;
            }
            let d = &driven.row;
            let ratio = d.iterations_per_sec() / row.iterations_per_sec().max(1e-9);
            append(
                &out,
                &format!(
                    "{:<12} {:>4} {:>6} {:>12} {:>7.0} {:>11.0}  driven by the app, in its slices: {:.2}× the bare search",
                    format!("{}*", d.suite),
                    d.runs,
                    d.solved,
                    d.iterations,
                    d.slice_ms,
                    d.iterations_per_sec(),
                    ratio
                ),
            );
            let mut json = serde_json::to_value(d)?;
            json["driven"] = serde_json::json!(true);
            json["iterations_per_sec"] = serde_json::json!(d.iterations_per_sec().round());
            json["vs_bare"] = serde_json::json!((ratio * 1000.0).round() / 1000.0);
            super::console_line(&format!("{BENCH_PREFIX}{json}"));
        }
        // Any layer's error ends the page's run with its message.
        Ok::<(), Box<dyn std::error::Error>>(())
    }
    .await;
    if let Err(e) = result {
        append(&out, &format!("error: {e}"));
        log::error!("pnlab-bench error: {e}");
    }
    append(&out, "done");
    super::console_line(BENCH_DONE);
}
