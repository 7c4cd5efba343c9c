#!/usr/bin/env python3
"""Which root move a best-first search is working under, iteration by
iteration: a small CSV and SVG plot from the curve exports of `pnlab solve
--export run.csv` (the `best_child` column: the root child the next
iteration descends into, or a child already solved in the root's favour).

Usage: deep_pn_hold.py OUT_PREFIX MOVES NAME=CURVE.csv [NAME=CURVE.csv ...]
  MOVES: the root moves in move-generation order, comma-separated (the
  labels of best_child 0, 1, 2, ...).
Writes OUT_PREFIX.csv (the iterations where the focus changes, plus the
last one) and OUT_PREFIX.svg (focus against log10 of the iteration).
"""
import csv
import math
import sys


def focus_changes(path):
    """(iteration, best_child, root_pn, root_dn) rows where best_child changes."""
    rows = []
    last = None
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            child = r["best_child"]
            if child == "":
                continue
            row = (int(r["iteration"]), int(child), r["root_pn"], r["root_dn"])
            if child != last:
                rows.append(row)
                last = child
            final = row
    if rows and rows[-1] != final:
        rows.append(final)
    return rows


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    prefix, moves = argv[1], argv[2].split(",")
    runs = []
    for arg in argv[3:]:
        name, _, path = arg.rpartition("=")
        runs.append((name, focus_changes(path)))
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["algo", "iteration", "focus_move", "root_pn", "root_dn"])
        for name, rows in runs:
            for it, child, pn, dn in rows:
                w.writerow([name, it, moves[child], pn, dn])
    width, height, left, top, bottom = 640, 300, 60, 30, 40
    plot_h = height - top - bottom
    last_it = max(rows[-1][0] for _, rows in runs)
    xmax = math.log10(max(last_it, 10))

    def x(it):
        return left + (width - left - 20) * math.log10(max(it, 1)) / xmax

    def y(child):
        return top + plot_h * child / max(len(moves) - 1, 1)

    colours = ["#d1495b", "#00798c", "#edae49", "#30638e"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    for k, m in enumerate(moves):
        out.append(f'<text x="{left - 8}" y="{y(k) + 4:.1f}" text-anchor="end">{m}</text>')
        out.append(f'<line x1="{left}" y1="{y(k):.1f}" x2="{width - 20}" y2="{y(k):.1f}" stroke="#eeeeee"/>')
    for e in range(0, int(xmax) + 1):
        out.append(f'<text x="{x(10 ** e):.1f}" y="{height - bottom + 16}" text-anchor="middle">10^{e}</text>')
    out.append(f'<text x="{(left + width) / 2:.0f}" y="{height - 6}" text-anchor="middle">iteration (log scale)</text>')
    out.append(f'<text x="8" y="16">root move the search works under</text>')
    for i, (name, rows) in enumerate(runs):
        c = colours[i % len(colours)]
        pts = []
        for j, (it, child, _, _) in enumerate(rows):
            nxt = rows[j + 1][0] if j + 1 < len(rows) else it
            pts.append(f"{x(it):.1f},{y(child) + 3 * i:.1f} {x(nxt):.1f},{y(child) + 3 * i:.1f}")
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{width - 150}" y="{top + 14 * i}" fill="{c}">{name} ({rows[-1][0]:,} it.)</text>')
    out.append("</svg>")
    with open(prefix + ".svg", "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
