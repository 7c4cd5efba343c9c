#!/usr/bin/env bash
# Builds the Python module `pnlab` as one wheel:
#
#   scripts/wheel.sh          # release build: what users install
#   scripts/wheel.sh --dev    # dev profile: quicker, reuses the test build's
#                             # compiled dependencies (scripts/python_check.sh)
#
# and writes target/wheels/pnlab-VERSION-cp39-abi3-PLATFORM.whl. One wheel
# serves every CPython from 3.9 on (PyO3's stable ABI, `abi3-py39`); the
# platform tag is the oldest manylinux policy the extension's glibc
# symbols allow on the machine that built it (maturin checks the symbols;
# the release workflow, .github/workflows/release.yml, builds in the
# manylinux2014 container for the widest Linux reach). Installing the
# wheel needs no Rust: `pip install target/wheels/pnlab-*.whl`.
#
# maturin comes from PyPI into target/maturin-venv the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
case "${1:-}" in
  "") ;;
  --dev) profile=dev ;;
  *)
    echo "usage: scripts/wheel.sh [--dev]" >&2
    exit 2
    ;;
esac

tools=target/maturin-venv
if [ ! -x "$tools/bin/maturin" ]; then
  echo "== maturin (PyPI) into $tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
fi

mkdir -p target/wheels
rm -f target/wheels/pnlab-*.whl
echo "== maturin build --profile $profile"
start=$SECONDS
"$tools/bin/maturin" build --profile "$profile" --out target/wheels
wheel=$(ls target/wheels/pnlab-*.whl)
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1), built in $((SECONDS - start)) s)"
