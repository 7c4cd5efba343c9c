#!/usr/bin/env bash
# The Python module's checks (part of scripts/check.sh): lints of the
# extension, then what docs/python.md says a user does (a virtual
# environment, `pip install .`) and the pytest suite, which compares the
# module with the command line built by `cargo build --bins`.
#
# The extension is built with the dev profile here, so it reuses the
# dependencies `cargo build` and `cargo test` compiled; `pip install .`
# without MATURIN_PEP517_ARGS builds it in release mode, as users get it.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo clippy -p pnlab-python -- -D warnings"
cargo clippy -p pnlab-python -- -D warnings

venv="${PNLAB_VENV:-target/python-venv}"
echo "== python venv ($venv), pip install . and the examples' packages"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest pandas matplotlib tqdm open_spiel
MATURIN_PEP517_ARGS="${MATURIN_PEP517_ARGS:---profile dev}" \
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps .

echo "== pytest (python/tests)"
PNLAB_BIN="${PNLAB_BIN:-$PWD/target/debug/pnlab}" "$venv/bin/python" -m pytest
