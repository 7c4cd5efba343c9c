#!/usr/bin/env python3
"""Checks `pnlab solve --json` answers on an OBF file against the file's
published scores (the `expected` field pnlab reads from the OBF line) and
prints one row per position and a total.

    pnlab solve --algo dfpn-fast --json FILE.obf | scripts/ffo_check.py [FIRST]

FIRST numbers the rows (e.g. 40 for the FFO #40-59 file). Exit status 1
when an answer contradicts the published score.
"""
import json
import sys

first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
wrong = unsolved = 0
total_ms = 0.0
for i, line in enumerate(sys.stdin):
    r = json.loads(line)
    exp = r.get("expected", {}).get("result")
    got = {"proved": "win", "disproved": "not-win"}.get(r["outcome"])
    want = None if exp is None else ("win" if exp == "win" else "not-win")
    ok = "?" if got is None else ("ok" if want is None or got == want else "WRONG")
    wrong += ok == "WRONG"
    unsolved += got is None
    total_ms += r["time_ms"]
    print(f"#{first + i:<3} {r['position'].count('-'):>2} empties  {r['outcome']:<9} "
          f"expected {exp!s:<5} {ok:<5} {r['time_ms'] / 1000:8.2f} s  "
          f"{r['iterations']:>10} MID calls  {r.get('leaf_nodes', 0):>12} leaf nodes")
print(f"total {total_ms / 1000:.2f} s wall, {wrong} wrong, {unsolved} unsolved")
sys.exit(1 if wrong else 0)
