#!/usr/bin/env python3
"""What a game written in Python costs per node (docs/python.md "Games
written in Python"): tic-tac-toe written in Python (python/tests/pygames.py)
against pnlab's own tic-tac-toe, the same search on the same position, so
both create the same nodes (the script checks it). The overhead per node is
the difference of the two search times divided by the nodes created. Needs
the module (`pip install .`).

    python3 scripts/python_game_overhead.py [--rounds N]

Each figure is the median of N rounds (5 by default); run it on a quiet
machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import pnlab

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python" / "tests"))
from pygames import TicTacToe  # noqa: E402

CASES = [("pns", "........."), ("dfpn", "........."), ("dfpn", "x...o....")]


def timed(position, algo: str, rounds: int):
    def once():
        t = time.perf_counter()
        r = pnlab.solve(position, algo=algo, **({} if not isinstance(position, str) else {"game": "tictactoe"}))
        return time.perf_counter() - t, r

    runs = [once() for _ in range(rounds)]
    return statistics.median(t for t, _ in runs), runs[0][1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    for algo, cells in CASES:
        native, rn = timed(cells, algo, args.rounds)
        python, rp = timed(TicTacToe(cells), algo, args.rounds)
        assert rn["nodes_created"] == rp["nodes_created"], (rn, rp)
        assert rn["answer"] == rp["answer"]
        nodes = rn["nodes_created"]
        print(
            f"{algo:5} {cells}: {nodes:6} nodes; built-in {native * 1e3:8.2f} ms, "
            f"Python game {python * 1e3:8.2f} ms: {(python - native) / nodes * 1e6:6.2f} us per node "
            f"({python / native:.0f}x)"
        )


if __name__ == "__main__":
    main()
