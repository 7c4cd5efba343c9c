#!/usr/bin/env python3
"""Collect xiangqi positions with a proved mate in 5 or more for the side
to move, for `pnlab experiment rscn --set set=long`.

Usage: xiangqi_long_mates.py PNLAB CANDIDATES.tsv OUT.tsv [MAX_N] [MAX_NODES] [CLAIMS] [LOG.tsv] [SCREEN_NODES] [RETRY] [TIME_LIMIT]

CANDIDATES.tsv has the columns of tests/data/xiangqi/xiangqi_mate_puzzles.tsv
(at least `id`, `fen`, `claimed_mate_in`, `verified_mate_in`; `#` lines
before the header are comments). A row is a candidate when its mate
length is not yet verified (`-`) and its claimed length is in CLAIMS
(default "4,?").

Every candidate goes through pnlab's mate search (`pnlab solve --within N
--algo dfpn`), each search capped at MAX_NODES created nodes (default
200,000), in the order that spends the least on positions that are
dropped:

1. a mate within 5, 6, ... MAX_N (default 7) attacker moves, each capped
   at SCREEN_NODES (default MAX_NODES), until one is proved; a position
   where none is proved is dropped (no mate that short, or none found
   under the cap). Proofs of mates this short are small (about a thousand
   nodes for a mate in 5), while a position without one can use the
   whole cap, so a low screening cap saves most of the time (a search
   within 7 straight away was tried and missed mates that the search
   within 5 finds under the same cap);
2. then, certified (`--certify`: an answer counts only when its
   certificate verifies), a mate within 4, 5, ... MAX_N in turn; a
   search that ends without an answer is tried again with RETRY times
   the cap (default 3; 1: no second try). A proof within 4 drops the
   position (a short mate); the first certified proof within N >= 5 whose
   search within N - 1 was a certified disproof keeps it as a mate in N.
   Any search that ends without a certified answer drops the position.

TIME_LIMIT (seconds, default none) caps each search's time as well
(`--time-limit`); a search stopped by it is an unanswered one, so the
cap changes only which positions are dropped, never a kept length.

So a kept position's shortest forced mate is exactly N, with both
certificates verified. Kept positions are written with Red to move (a
Black-to-move position is mirrored: ranks reversed and colours swapped,
which the rules do not see) as they are found; LOG.tsv (optional) gets
one line per candidate with what happened to it ("-": none).
"""
import json
import subprocess
import sys

# Seconds per search (`--time-limit`), None for no cap; set from argv.
TIME_LIMIT = None


def mirror(fen):
    """The same position with the colours swapped and the board turned."""
    board, side, *rest = fen.split()
    ranks = [r.swapcase() for r in reversed(board.split("/"))]
    return " ".join(["/".join(ranks), "w" if side == "b" else "b", *rest])


def mate_within(pnlab, fen, n, max_nodes, certify=False):
    """'proved', 'disproved' or 'unknown' for a mate within n (with
    `certify`, an answer counts only when its certificate verifies)."""
    cmd = [pnlab, "solve", fen, "--game", "xiangqi", "--algo", "dfpn",
           "--within", str(n), "--max-nodes", str(max_nodes),
           "--memory", "512", "--json"]
    if TIME_LIMIT is not None:
        cmd += ["--time-limit", str(TIME_LIMIT)]
    if certify:
        cmd.append("--certify")
    run = subprocess.run(cmd, capture_output=True, text=True)
    if not run.stdout.strip():
        return "unknown", None
    r = json.loads(run.stdout.splitlines()[0])
    if certify and not r.get("certified"):
        return "unknown", r
    return r["outcome"], r


def shortest_mate(pnlab, fen, max_n, max_nodes, screen_nodes, retry):
    """(length, first move, what happened): the certified length of the
    shortest mate when it is 5 to max_n, else (None, None, reason)."""
    for n in range(5, max_n + 1):
        outcome, _ = mate_within(pnlab, fen, n, screen_nodes)
        if outcome == "proved":
            break
    else:
        return None, None, f"no mate within {max_n} found"
    for n in range(4, max_n + 1):
        outcome, r = mate_within(pnlab, fen, n, max_nodes, certify=True)
        if outcome not in ("proved", "disproved") and retry > 1:
            # An unanswered search is tried again with a larger cap before
            # the position is given up.
            outcome, r = mate_within(pnlab, fen, n, retry * max_nodes, certify=True)
        if outcome == "proved":
            if n == 4:
                return None, None, "mate within 4"
            return n, r["best_move"], f"mate in {n}"
        if outcome != "disproved":
            # Without a certified "no mate within n", a mate found at n + 1
            # would not be known to be the shortest.
            return None, None, f"within {n} not certified ({outcome})"
    return None, None, f"mate within {max_n} not certified"


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    pnlab, src, out = argv[1], argv[2], argv[3]
    max_n = int(argv[4]) if len(argv) > 4 else 7
    max_nodes = int(argv[5]) if len(argv) > 5 else 200_000
    claims = (argv[6] if len(argv) > 6 else "4,?").split(",")
    log = open(argv[7], "w") if len(argv) > 7 and argv[7] != "-" else None
    screen_nodes = int(argv[8]) if len(argv) > 8 else max_nodes
    retry = int(argv[9]) if len(argv) > 9 else 3
    global TIME_LIMIT
    TIME_LIMIT = float(argv[10]) if len(argv) > 10 else None
    found = 0
    kept = set()
    # Rows are written as they are found, so a long collection can be
    # stopped and still leave its results.
    sink = open(out, "w")
    sink.write("# id\tfen (Red to move)\tmate_in\toriginal side to move\tfirst move found (original position)\n")
    with open(src, newline="\n") as f:
        header = f.readline()
        while header.startswith("#"):
            header = f.readline()
        header = header.rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row.get("verified_mate_in") != "-" or row.get("claimed_mate_in") not in claims:
                continue
            fen = row["fen"]
            length, best, what = shortest_mate(pnlab, fen, max_n, max_nodes, screen_nodes, retry)
            print(f"{row['id']}: {what}", flush=True)
            if log:
                log.write(f"{row['id']}\t{what}\n")
                log.flush()
            if length is None:
                continue
            red = fen if fen.split()[1] == "w" else mirror(fen)
            if red in kept:
                # The puzzle file repeats some positions under other ids;
                # a game of the study must not count twice.
                print(f"{row['id']}: same position as an earlier one, left out", flush=True)
                continue
            kept.add(red)
            sink.write("\t".join(map(str, (row["id"], red, length, fen.split()[1], best))) + "\n")
            sink.flush()
            found += 1
    sink.close()
    print(f"{found} positions with a certified mate in 5 or more")


if __name__ == "__main__":
    main(sys.argv)
