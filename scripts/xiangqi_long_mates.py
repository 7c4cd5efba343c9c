#!/usr/bin/env python3
"""Collect xiangqi positions with a proved mate in 5 or more for the side
to move, for `pnlab experiment rscn --set set=long`.

Usage: xiangqi_long_mates.py PNLAB PUZZLES.tsv OUT.tsv [MAX_N] [MAX_NODES] [CLAIMS]

For every puzzle whose mate length is not yet verified (the `-` rows of
tests/data/xiangqi/xiangqi_mate_puzzles.tsv, those with a claimed length
in CLAIMS, default "4,?"), pnlab's mate search (`pnlab solve --within N
--algo dfpn`) looks for a mate within 4, then within 5, 6, ... MAX_N
(default 9) attacker moves, each search capped at MAX_NODES created
nodes (default 1,000,000). A position with no mate within 4 whose
smallest found length N is 5 or more is kept only if both answers are
certified (`--certify`: the certificate is verified before the answer
counts): the mate within N, and no mate within N − 1 (with three times
the cap). Kept positions are written with Red to move (a Black-to-move
position is mirrored: ranks reversed and colours swapped, which the rules
do not see) as they are found.
"""
import json
import subprocess
import sys


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
    if certify:
        cmd.append("--certify")
    run = subprocess.run(cmd, capture_output=True, text=True)
    if not run.stdout.strip():
        return "unknown", None
    r = json.loads(run.stdout.splitlines()[0])
    if certify and not r.get("certified"):
        return "unknown", r
    return r["outcome"], r


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    pnlab, src, out = argv[1], argv[2], argv[3]
    max_n = int(argv[4]) if len(argv) > 4 else 9
    max_nodes = int(argv[5]) if len(argv) > 5 else 1_000_000
    claims = (argv[6] if len(argv) > 6 else "4,?").split(",")
    found = []
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
            if mate_within(pnlab, fen, 4, max_nodes)[0] == "proved":
                print(f"{row['id']}: mate within 4", flush=True)
                continue
            length, best = None, None
            for n in range(5, max_n + 1):
                outcome, r = mate_within(pnlab, fen, n, max_nodes)
                if outcome == "proved":
                    length = n
                    break
            if length is None:
                print(f"{row['id']}: no mate within {max_n} found", flush=True)
                continue
            # The length, certified both ways: a mate within it, none
            # within one move less.
            proof, r = mate_within(pnlab, fen, length, max_nodes, certify=True)
            shorter, _ = mate_within(pnlab, fen, length - 1, 3 * max_nodes, certify=True)
            if proof != "proved" or shorter != "disproved":
                print(f"{row['id']}: mate in {length} not certified ({proof}, {shorter})", flush=True)
                continue
            best = r["best_move"]
            red = fen if fen.split()[1] == "w" else mirror(fen)
            found.append((row["id"], red, length, fen.split()[1], best))
            sink.write("\t".join(map(str, found[-1])) + "\n")
            sink.flush()
            print(f"{row['id']}: mate in {length}", flush=True)
    sink.close()
    print(f"{len(found)} positions with a certified mate in 5 or more")


if __name__ == "__main__":
    main(sys.argv)
