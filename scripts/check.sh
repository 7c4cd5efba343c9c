#!/usr/bin/env bash
# Exactly what CI runs (after installing system packages): formatting,
# lints, the build, the app's real-window screenshots under Xvfb, the web
# page in headless Chromium, the whole test suite, then the Python module
# (scripts/python_check.sh). Without xvfb-run the screenshots are skipped
# with a notice, and without chromium the web page test, unless
# REQUIRE_SCREENSHOTS=1 / REQUIRE_WEB=1 (set by .ci/run) make that an error.
set -euo pipefail
cd "$(dirname "$0")/.."

# A one-off build gains nothing from incremental compilation, whose caches
# were the largest part of target/ (disk on a fresh machine is not known).
export CARGO_INCREMENTAL=0
disk() { echo "   (disk: $(df -h --output=avail . | tail -1 | tr -d ' ') free, target/ $(du -sh target 2>/dev/null | cut -f1))"; }
disk

# A part that cannot run on this machine: an error when the variable
# REQUIRE (REQUIRE_SCREENSHOTS, REQUIRE_WEB) is 1, else a notice that the
# part is skipped. Arguments: REQUIRE, why it is an error, the notice (up
# to the word SKIPPED), how to install what is missing.
cannot_run() {
  local require=$1 why=$2 notice=$3 install=$4
  if [ "${!require:-0}" = 1 ]; then
    echo "error: $why and $require=1" >&2
    exit 1
  fi
  echo "NOTICE: $notice SKIPPED" >&2
  echo "NOTICE: ($install)" >&2
}

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets -- -D warnings

echo "== cargo clippy --no-default-features --all-targets -- -D warnings (the engine without the GUI)"
cargo clippy --no-default-features --all-targets -- -D warnings

echo "== fidelity table (results/README.md) up to date, every source present"
python3 scripts/fidelity_table.py --check

disk
echo "== cargo build"
cargo build --bins

disk
echo "== app screenshots under Xvfb"
if command -v xvfb-run >/dev/null 2>&1; then
  scripts/screenshots.sh
else
  cannot_run REQUIRE_SCREENSHOTS "xvfb-run is not installed" \
    "xvfb-run is not installed: the app's screenshots are" \
    "install xvfb, xauth and libgl1-mesa-dri, or see .ci/run"
fi

disk
echo "== the web page in headless Chromium"
# Builds web/dist once (scripts/web.sh installs the wasm32 target and
# wasm-bindgen-cli when missing), then opens it in Debian's chromium
# through playwright-core (no browser download) and checks what the page
# reports against the desktop binary built above.
if command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
  web_start=$SECONDS
  scripts/web.sh
  # The page's own code (src/app/web, the wasm32 cfgs) is linted too.
  cargo clippy --target wasm32-unknown-unknown --bin pnlab --no-default-features --features gui -- -D warnings
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error && node --test page.test.mjs live.test.mjs)
  echo "web page: built and tested in $((SECONDS - web_start)) s"
  disk
  # The wasm32 intermediates are not needed again (web/dist holds the page).
  rm -rf target/wasm32-unknown-unknown
else
  cannot_run REQUIRE_WEB "chromium or node is missing" \
    "chromium or node is not installed: the web page test is" \
    "apt-get install chromium nodejs npm, or see .ci/run"
fi

# The tests run once: every test that needs no GUI (the engine, the CLI,
# the live-class server, the doc tests) in the build without the GUI, which the README promises
# works; then only the GUI's own tests in the default build.
disk
echo "== cargo test --no-default-features --features serve (the crates pnlab-core and pnlab-lab, the CLI, the live-class server, the Nim example, doc tests)"
cargo test --no-default-features --features serve

disk
echo "== cargo test: the app's tests (default features)"
cargo test -p pnlab --lib app::
# tests/app/ (one test binary) drives the GUI.
cargo test -p pnlab --test app

disk
echo "== Python module"
scripts/python_check.sh
disk
