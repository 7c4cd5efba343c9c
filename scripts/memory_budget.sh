#!/usr/bin/env bash
# Does `--memory` hold? Runs `pnlab solve --game hex "11:"` (too big to
# solve, so every run grows until a budget stops it) for each algorithm
# under two memory budgets, measures the process's largest resident size
# with /usr/bin/time -v, and prints a Markdown table: the resident growth
# over a one-iteration run of the same command with the same budget (the
# program's own code, buffers and empty tables), that growth as a share
# of the budget, the stop reason and the `peak_tree_bytes` the record
# reports.
#
#   scripts/memory_budget.sh [PNLAB] > table.md
#
# PNLAB defaults to target/debug/pnlab. Each run has a time limit of
# TIME_LIMIT seconds (default 300) in case a budget is never reached.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/pnlab}"
limit="${TIME_LIMIT:-300}"
algos="${ALGOS:-pns dfpn deep-dfpn dfpn-fast mcts-solver}"
budgets="${BUDGETS:-64 256}"

# Largest resident size in KiB of a command.
max_rss_kib() {
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
}

echo "| algo | --memory MiB | resident growth MiB | growth / budget | stop reason | peak_tree_bytes MiB |"
echo "|---|---|---|---|---|---|"
for algo in $algos; do
  for m in $budgets; do
    base=$(max_rss_kib "$bin" solve --game hex "11:" --algo "$algo" --memory "$m" --max-iterations 1 --json)
    out=$(mktemp)
    rss=$( { /usr/bin/time -v "$bin" solve --game hex "11:" --algo "$algo" --memory "$m" \
               --time-limit "$limit" --json >"$out"; } 2>&1 \
           | awk -F': ' '/Maximum resident set size/ {print $2}')
    stop=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stop_reason"])' "$out")
    peak=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["peak_tree_bytes"])' "$out")
    rm -f "$out"
    python3 - "$algo" "$m" "$base" "$rss" "$stop" "$peak" <<'EOF'
import sys
algo, m, base, rss, stop, peak = sys.argv[1:]
growth = (int(rss) - int(base)) / 1024
print(f"| {algo} | {m} | {growth:.1f} | {growth / int(m):.2f} | {stop} | {int(peak) / 2**20:.1f} |")
EOF
  done
done
