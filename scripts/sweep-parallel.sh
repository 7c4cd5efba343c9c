#!/usr/bin/env bash
# Runs the shards of a pnlab experiment with GNU parallel, on this machine
# or over ssh, then merges them into the outputs of one unsharded run.
#
#   scripts/sweep-parallel.sh [--shards N] [--jobs J] [--sshloginfile FILE]
#                             [--out DIR] [--pnlab CMD] EXPERIMENT [OPTIONS...]
#
# --shards N        number of shards (default: the number of CPUs here)
# --jobs J          shards run at once per machine (default: GNU parallel's,
#                   one per CPU)
# --sshloginfile F  run the shards on the machines listed in F (GNU
#                   parallel's format; `:` is this machine). Each machine
#                   needs pnlab (see --pnlab); shard outputs are copied back.
# --out DIR         merged outputs (default results/EXPERIMENT); the shards'
#                   outputs go to DIR/shards/K
# --pnlab CMD       the pnlab command (default: target/release/pnlab if
#                   built here, else `pnlab` on the PATH; on remote machines
#                   it must be valid there)
# OPTIONS           passed to every shard: --set NAME=VALUE, --seed N, …
#
# Example: scripts/sweep-parallel.sh --shards 8 deep-pn-sweep --set positions=40
set -euo pipefail

shards=$(nproc 2>/dev/null || echo 2)
jobs=""
sshlogin=""
out=""
pnlab=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --shards) shards="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --sshloginfile) sshlogin="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --pnlab) pnlab="$2"; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
if [[ $# -lt 1 ]]; then
    echo "usage: $0 [--shards N] [--jobs J] [--sshloginfile FILE] [--out DIR] [--pnlab CMD] EXPERIMENT [OPTIONS...]" >&2
    exit 2
fi
experiment="$1"; shift
if ! command -v parallel >/dev/null; then
    echo "error: GNU parallel is not installed (Debian/Ubuntu: apt-get install parallel)" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "$pnlab" ]]; then
    if [[ -x "$here/target/release/pnlab" ]]; then
        pnlab="$here/target/release/pnlab"
    else
        pnlab=pnlab
    fi
fi
out="${out:-results/$experiment}"
mkdir -p "$out/shards"
out=$(cd "$out" && pwd)

args=(--halt now,fail=1)
[[ -n "$jobs" ]] && args+=(--jobs "$jobs")
if [[ -n "$sshlogin" ]]; then
    # Remote shards write into a scratch folder that parallel copies back
    # (--return) and removes (--cleanup).
    args+=(--sshloginfile "$sshlogin" --workdir ... --return "shards/{}" --cleanup)
fi
# Quote the extra options once for the shell that runs each shard.
extra=$(printf ' %q' "$@")
(
    cd "$out"
    parallel "${args[@]}" \
        "$pnlab experiment $experiment --shard {}/$shards --out shards/{} --quiet$extra" \
        ::: $(seq 1 "$shards")
)
"$pnlab" experiment merge "$out" "$out"/shards/*
