#!/usr/bin/env python3
"""Lists the Othello positions where DeepPN costs many times PN-search's
iterations in a deep-pn-sweep run, and sets the two ways of averaging the
per-position costs side by side: the mean of the per-position ratios
(DeepPN / PNS, what our table reports) and the ratio of the means (total
DeepPN iterations over total PNS iterations), with the mean of the ratios
again after leaving out the positions above a threshold.

    python3 scripts/deep_pn_runaways.py SWEEP.csv OUT.json [R] [THRESHOLD]

Only positions that both searches solved count (PNS hits the node cap on
a few). R defaults to 0.4, THRESHOLD (the ratio that makes a runaway) to 10.
"""

import csv
import json
import statistics
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    r_value = float(sys.argv[3]) if len(sys.argv) > 3 else 0.4
    threshold = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    solved = ("proved", "disproved")
    with open(src, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["game"] == "othello"]
    pns = {r["instance"]: r for r in rows if r["algo"] == "pns"}
    forms = sorted({r["dpn"] for r in rows if r["algo"] == "deep-pn"})
    result = {"source": src, "R": r_value, "threshold": threshold, "forms": []}
    for form in forms:
        deep = {
            r["instance"]: r
            for r in rows
            if r["algo"] == "deep-pn" and r["dpn"] == form and abs(float(r["R"]) - r_value) < 1e-9
        }
        both = [
            i for i in deep if deep[i]["outcome"] in solved and pns.get(i, {}).get("outcome") in solved
        ]
        ratio = {i: int(deep[i]["iterations"]) / int(pns[i]["iterations"]) for i in both}
        runaways = sorted((i for i in both if ratio[i] > threshold), key=lambda i: -ratio[i])
        rest = [ratio[i] for i in both if ratio[i] <= threshold]
        result["forms"].append(
            {
                "dpn": form,
                "positions": len(both),
                "mean_of_ratios": statistics.mean(ratio.values()),
                "median_ratio": statistics.median(ratio.values()),
                "ratio_of_means": sum(int(deep[i]["iterations"]) for i in both)
                / sum(int(pns[i]["iterations"]) for i in both),
                "mean_of_ratios_without_runaways": statistics.mean(rest),
                "runaways": [
                    {
                        "instance": int(i),
                        "position": deep[i]["position"],
                        "ratio": ratio[i],
                        "pns_iterations": int(pns[i]["iterations"]),
                        "deep_pn_iterations": int(deep[i]["iterations"]),
                        "outcome": deep[i]["outcome"],
                    }
                    for i in runaways
                ],
            }
        )
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    for x in result["forms"]:
        print(
            f"{x['dpn']}: {x['positions']} positions, mean of ratios {x['mean_of_ratios']:.3f}, "
            f"median {x['median_ratio']:.3f}, ratio of means {x['ratio_of_means']:.3f}, "
            f"{len(x['runaways'])} above {threshold:g}x, mean of the others {x['mean_of_ratios_without_runaways']:.3f}"
        )
        for r in x["runaways"]:
            print(f"  #{r['instance']}: {r['ratio']:.1f}x ({r['deep_pn_iterations']} vs {r['pns_iterations']})")


if __name__ == "__main__":
    main()
