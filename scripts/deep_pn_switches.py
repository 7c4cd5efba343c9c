#!/usr/bin/env python3
"""DeepPN's runaway Othello positions re-solved with each implementation
switch (`ties` = delta | leftmost, `solved` = skip | count) and with PNS,
to see whether a choice the paper leaves open causes the runaways.

Usage: deep_pn_switches.py PNLAB RUNAWAYS.json OUT.csv [R]
  RUNAWAYS.json: written by scripts/deep_pn_runaways.py (its paper-form
  list is used). R defaults to the list's R.
Prints a summary (iterations per switch, and the ratio to PNS).
"""
import csv
import json
import subprocess
import sys

SWITCHES = [
    ("delta", "skip"),
    ("leftmost", "skip"),
    ("delta", "count"),
    ("leftmost", "count"),
]


def solve(pnlab, position, algo, sets):
    cmd = [pnlab, "solve", position, "--game", "othello", "--algo", algo, "--json"]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[0])


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    pnlab, src, out_path = argv[1], argv[2], argv[3]
    data = json.load(open(src))
    r = float(argv[4]) if len(argv) > 4 else data["R"]
    form = next(f for f in data["forms"] if f["dpn"] == "paper")
    rows = []
    for run in form["runaways"]:
        pos = run["position"]
        pns = solve(pnlab, pos, "pns", [])
        rows.append([run["instance"], "pns", "", "", pns["outcome"], pns["iterations"], pns["best_move"], ""])
        for ties, solved in SWITCHES:
            d = solve(pnlab, pos, "deep-pn", [f"R={r}", "dpn=paper", f"ties={ties}", f"solved={solved}"])
            ratio = d["iterations"] / max(pns["iterations"], 1)
            rows.append([run["instance"], "deep-pn", ties, solved, d["outcome"], d["iterations"], d["best_move"], f"{ratio:.1f}"])
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["instance", "algo", "ties", "solved", "outcome", "iterations", "best_move", "vs_pns"])
        w.writerows(rows)
    print(f"R = {r}, paper form; iterations (× PNS)")
    print("instance       PNS  " + "  ".join(f"{t}/{s:>5}" for t, s in SWITCHES))
    by = {}
    for row in rows:
        by.setdefault(row[0], []).append(row)
    for inst, rs in by.items():
        cells = "  ".join(f"{x[5]:>8} ({x[7]:>5}×)" for x in rs[1:])
        print(f"{inst:>8} {rs[0][5]:>9}  {cells}")


if __name__ == "__main__":
    main(sys.argv)
