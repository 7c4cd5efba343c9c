#!/bin/sh
# Regenerates positions/connect6/generated.toml (minutes of CPU): the
# Connect6 generator with the settings the file's header records.
set -eu
PNLAB=${PNLAB:-target/release/pnlab}
OUT=${OUT:-results/2026-11-23/connect6-positions}
"$PNLAB" experiment connect6-positions --jobs 2 --seed 2 --out "$OUT" \
  --set games=24 --set cap=300000 --set vcdt_nodes=5000 --set keep_vcdt=1200
cp "$OUT/connect6-positions.toml" positions/connect6/generated.toml
