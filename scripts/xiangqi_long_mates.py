#!/usr/bin/env python3
"""Collect xiangqi positions with a proved mate in 5 or more for the side
to move, for `pnlab experiment rscn --set set=long`.

Usage: xiangqi_long_mates.py PNLAB PUZZLES.tsv OUT.tsv [MAX_N] [SECONDS] [CLAIMS]

For every puzzle whose mate length is not yet verified (the `-` rows of
tests/data/xiangqi/xiangqi_mate_puzzles.tsv), pnlab's mate search
(`pnlab solve --within N --algo dfpn --certify`, every answer checked
against its certificate) is asked for a mate within MAX_N (default 9)
attacker moves; a proved position is then searched within 4, 5, ...
moves: the smallest N that is proved is its length, and the certified
disproof of "within N − 1" shows that no shorter mate exists. Positions
of mate length >= 5 are written with Red to move (a Black-to-move
position is mirrored: ranks reversed and colours swapped, which the
rules do not see). A search for a mate stops after SECONDS (default 10),
one that may have to disprove after three times that. CLAIMS:
the source's claimed lengths to look at (default "4,?").
"""
import json
import subprocess
import sys


def mirror(fen):
    """The same position with the colours swapped and the board turned."""
    board, side, *rest = fen.split()
    ranks = [r.swapcase() for r in reversed(board.split("/"))]
    return " ".join(["/".join(ranks), "w" if side == "b" else "b", *rest])


def mate_within(pnlab, fen, n, seconds):
    """'proved', 'disproved' or 'unknown' for a certified mate within n."""
    cmd = [pnlab, "solve", fen, "--game", "xiangqi", "--algo", "dfpn",
           "--within", str(n), "--certify", "--time-limit", str(seconds),
           "--memory", "512", "--json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if not run.stdout.strip():
        return "unknown", None
    r = json.loads(run.stdout.splitlines()[0])
    if not r.get("certified"):
        return "unknown", r
    return r["outcome"], r


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    pnlab, src, out = argv[1], argv[2], argv[3]
    max_n = int(argv[4]) if len(argv) > 4 else 9
    seconds = float(argv[5]) if len(argv) > 5 else 10
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
            outcome, _ = mate_within(pnlab, fen, max_n, seconds)
            if outcome != "proved":
                print(f"{row['id']}: no certified mate within {max_n} ({outcome})", flush=True)
                continue
            # Disproofs take longer than proofs: three times the time.
            if mate_within(pnlab, fen, 4, 3 * seconds)[0] != "disproved":
                print(f"{row['id']}: mate within 4 (or unknown)", flush=True)
                continue
            length, best = None, None
            for n in range(5, max_n + 1):
                outcome, r = mate_within(pnlab, fen, n, 3 * seconds)
                if outcome == "proved":
                    length, best = n, r["best_move"]
                    break
                if outcome != "disproved":
                    break
            if length is None:
                print(f"{row['id']}: length not settled", flush=True)
                continue
            red = fen if fen.split()[1] == "w" else mirror(fen)
            found.append((row["id"], red, length, fen.split()[1], best))
            sink.write("\t".join(map(str, found[-1])) + "\n")
            sink.flush()
            print(f"{row['id']}: mate in {length}", flush=True)
    sink.close()
    print(f"{len(found)} positions with a certified mate in 5 or more")


if __name__ == "__main__":
    main(sys.argv)
