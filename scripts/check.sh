#!/usr/bin/env bash
# Exactly what CI runs (after installing system packages): formatting,
# lints, the build, the app's real-window screenshots under Xvfb when a
# display server is available, then the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets -- -D warnings

echo "== cargo build"
cargo build --bins

if [ -x scripts/screenshots.sh ]; then
  echo "== app screenshots under Xvfb"
  scripts/screenshots.sh
fi

echo "== cargo test"
cargo test
