#!/usr/bin/env bash
# The Python module's checks (part of scripts/check.sh): lints of the
# extension, then what a user of the wheel does. The wheel is built once
# (scripts/wheel.sh --dev: the dev profile reuses the dependencies
# `cargo build` and `cargo test` compiled; users get the release build)
# and installed into a fresh virtual environment by a pip that has no
# Rust on its PATH and takes binary packages only, so nothing is compiled
# at install time; then the pytest suite (python/tests) runs against the
# installed module and compares it with the command line built by
# `cargo build --bins`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo clippy -p pnlab-python -- -D warnings"
cargo clippy -p pnlab-python -- -D warnings

echo "== the wheel"
scripts/wheel.sh "${WHEEL_PROFILE:---dev}"
wheel=$(ls "$PWD"/target/wheels/pnlab-*.whl)

# The PATH of the install and the tests: the venv's own bin and the
# system's directories, less any that holds cargo or rustc.
venv="${PNLAB_VENV:-target/python-venv}"
python3 -m venv --clear "$venv"
venv=$(cd "$venv" && pwd)
no_rust="$venv/bin"
IFS=: read -r -a dirs <<< "${PATH}"
for d in "${dirs[@]}"; do
  if [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ] && [ ! -e "$d/rustup" ]; then
    no_rust="$no_rust:$d"
  fi
done
if env PATH="$no_rust" bash -c 'command -v cargo || command -v rustc' >/dev/null; then
  echo "error: Rust is still on the PATH meant to have none: $no_rust" >&2
  exit 1
fi

# The extras the project declares (the tests' and the examples' packages).
extras=$(python3 - <<'PY'
try:
    import tomllib
    with open("pyproject.toml", "rb") as f:
        print(",".join(tomllib.load(f)["project"].get("optional-dependencies", {})))
except ImportError:  # Python < 3.11: the two extras the tests need
    print("test,notebook")
PY
)
target="$wheel${extras:+[$extras]}"
echo "== pip install $(basename "$target") into $venv (no Rust on the PATH, binaries only)"
start=$SECONDS
env PATH="$no_rust" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --only-binary=:all: "$target"
echo "installed in $((SECONDS - start)) s"

# The tests must see the installed module, not the sources in python/.
env PATH="$no_rust" "$venv/bin/python" - <<'PY'
import pathlib, sys
import pnlab
where = pathlib.Path(pnlab.__file__).resolve()
assert "site-packages" in where.parts, f"pnlab imported from {where}, not the installed wheel"
print(f"pnlab from {where.parent}")
PY

echo "== pytest (python/tests) against the installed wheel"
PNLAB_BIN="${PNLAB_BIN:-$PWD/target/debug/pnlab}" env PATH="$no_rust" "$venv/bin/python" -m pytest
