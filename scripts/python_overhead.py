#!/usr/bin/env python3
"""What the Python module adds to the engine's own time (docs/python.md
"Speed"): a short `solve` against the search time its record reports, and
`Search.step()` one iteration per call against `Search.step(n)`, which runs
the engine's stepping loop in Rust. Needs the module (`pip install .`).

    python3 scripts/python_overhead.py [--steps N] [--reps N]

Each figure is the median of 5 rounds; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import pnlab


def median_of(rounds: int, f) -> float:
    return statistics.median(f() for _ in range(rounds))


def solve_overhead(reps: int) -> None:
    for pos, game, algo in [("x...o....", "tictactoe", "pns"), ("3:", "hex", "dfpn")]:
        rec = pnlab.solve(pos, game=game, algo=algo)

        def one_round() -> float:
            t = time.perf_counter()
            for _ in range(reps):
                pnlab.solve(pos, game=game, algo=algo)
            return (time.perf_counter() - t) / reps * 1e6

        per_call = median_of(5, one_round)
        print(
            f"solve {game} {pos!r} {algo}: {per_call:8.1f} us per call "
            f"({rec['iterations']} iterations; the record's search time {rec['time_ms'] * 1000:.1f} us)"
        )


def step_overhead(steps: int) -> None:
    for pos, game, algo in [("8:", "hex", "pns"), ("", "connect4", "dfpn"), ("8:", "hex", "mcts-solver")]:

        def single() -> float:
            s = pnlab.Search(pos, game=game, algo=algo)
            step = s.step
            t = time.perf_counter()
            for _ in range(steps):
                step()
            return (time.perf_counter() - t) / steps * 1e9

        def batched() -> float:
            s = pnlab.Search(pos, game=game, algo=algo)
            t = time.perf_counter()
            s.step(steps)
            return (time.perf_counter() - t) / steps * 1e9

        one, many = median_of(5, single), median_of(5, batched)
        print(
            f"step {game} {pos!r} {algo}: step() {one:7.1f} ns per call, "
            f"step({steps}) {many:7.1f} ns per step, difference {one - many:6.1f} ns"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--reps", type=int, default=2_000)
    a = ap.parse_args()
    solve_overhead(a.reps)
    step_overhead(a.steps)


if __name__ == "__main__":
    main()
