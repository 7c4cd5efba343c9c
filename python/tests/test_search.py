"""`pnlab.Search`: stepping from Python gives the counters the command line
reports for the same number of iterations; `run` gives `solve`'s record;
snapshots, the most-proving path and certificates agree with each other and
with the program."""

from __future__ import annotations

import math

import pytest

import pnlab
from conftest import ROOT, without_time

COUNTERS = [
    "iterations",
    "nodes_created",
    "nodes_expanded",
    "max_depth",
    "seesaw_root_switches",
    "seesaw_switches",
    "revisits",
    "peak_tree_bytes",
]
SEESAW = ROOT / "positions/trees/seesaw.tree"
CHANCE = ROOT / "positions/trees/chance-star1.tree"
CHANCE_ALGOS = {"expectimax", "star1", "star2"}


OM_TRAP = ROOT / "positions/trees/om-trap.tree"


def same_nodes(xs: list, ys: list) -> bool:
    """Snapshot records equal, NaN (a value that does not apply) included."""

    def key(v):
        return "nan" if isinstance(v, float) and math.isnan(v) else v

    return [{k: key(v) for k, v in x.items()} for x in xs] == [
        {k: key(v) for k, v in y.items()} for y in ys
    ]


def position_for(algo: str):
    """A position each algorithm searches: Hex 4×4 from an opening, a
    chance tree for the chance searches, and for opponent-model search a
    tree with the two evaluations it needs."""
    if algo in CHANCE_ALGOS:
        return dict(position=CHANCE), [str(CHANCE)]
    if algo == "om":
        return dict(position=OM_TRAP), [str(OM_TRAP)]
    return dict(position="4:b2", game="hex"), ["--game", "hex", "4:b2"]


@pytest.mark.parametrize("algo", [a["name"] for a in pnlab.algorithms()])
def test_stepping_counts_what_the_command_line_counts(cli, algo):
    kwargs, args = position_for(algo)
    n = 37
    s = pnlab.Search(algo=algo, seed=5, **kwargs)
    status = s.step(n)
    records, errors, code = cli.solve_json(
        *args, "--algo", algo, "--seed", "5", "--max-iterations", str(n)
    )
    assert not errors and code == 0, errors
    expected = records[0]
    counters = s.counters
    assert {k: counters[k] for k in COUNTERS} == {k: expected[k] for k in COUNTERS}
    if status == "running":
        assert expected["stop_reason"] == "max-iterations"
        assert s.iterations == n
    else:
        # Solved within the n steps: the whole record is the program's.
        assert without_time(s.record()) == without_time(expected)


@pytest.mark.parametrize("algo", ["pns", "dfpn", "deep-pn", "ppn", "mcts-solver"])
def test_one_step_at_a_time_is_the_same_as_a_batch(algo):
    a = pnlab.Search("4:b2", game="hex", algo=algo)
    b = pnlab.Search("4:b2", game="hex", algo=algo)
    for _ in range(200):
        a.step()
    b.step(200)
    ca, cb = a.counters, b.counters
    del ca["time_ms"], cb["time_ms"]
    assert ca == cb
    assert same_nodes(a.snapshot(max_nodes=300), b.snapshot(max_nodes=300))


@pytest.mark.parametrize("algo", ["pns", "dfpn", "deep-pn", "pn-value", "alphabeta", "ppn"])
def test_run_gives_the_record_of_solve(algo):
    s = pnlab.Search("x...o....", game="tictactoe", algo=algo)
    assert s.status == "running" and s.stop_reason is None
    status = s.run()
    record = pnlab.solve("x...o....", game="tictactoe", algo=algo)
    assert without_time(s.record()) == without_time(record)
    assert status != "running" and s.outcome == record["outcome"]
    assert s.stop_reason == record["stop_reason"]


def test_budgets_apply_to_run_as_to_solve():
    s = pnlab.Search("", game="connect4", algo="pns", max_nodes=2000)
    assert s.run() == "unknown"
    assert s.stop_reason == "max-nodes"
    assert without_time(s.record()) == without_time(
        pnlab.solve("", game="connect4", algo="pns", max_nodes=2000)
    )


def test_run_until_an_iteration_then_on_to_the_end():
    whole = pnlab.Search("4:", game="hex", algo="pns")
    whole.run()
    parts = pnlab.Search("4:", game="hex", algo="pns")
    assert parts.run(until=100) == "running" and parts.iterations == 100
    assert parts.run(until=lambda s: s.iterations >= 150) == "running"
    assert parts.iterations == 150
    parts.run()
    assert without_time(parts.record()) == without_time(whole.record())


def test_snapshot_records_and_the_nested_tree_hold_the_same_nodes():
    s = pnlab.Search(SEESAW, algo="pns")
    s.step(6)
    flat = s.snapshot()
    assert flat[0]["parent"] is None and flat[0]["depth"] == 0
    ids = {n["id"] for n in flat}
    seen = set()
    for n in flat:
        assert set(s.value_names) <= n.keys()
        assert n["parent"] is None or n["parent"] in seen  # parents first
        seen.add(n["id"])
    assert seen == ids

    def walk(node, parent):
        yield node, parent
        for c in node["children"]:
            yield from walk(c, node["id"])

    nested = list(walk(s.snapshot(nested=True), None))
    assert sorted((n["id"], p) for n, p in nested) == sorted(
        (n["id"], n["parent"]) for n in flat
    )
    # Children keep the flat order (move order) under their parent.
    for node, _ in nested:
        assert [c["id"] for c in node["children"]] == [
            n["id"] for n in flat if n["parent"] == node["id"]
        ]
    # pn and dn at an OR root are the min and the sum over its children
    # (Allis 1994), read straight off the records.
    root = flat[0]
    kids = [n for n in flat if n["parent"] == root["id"]]
    if root["kind"] == "or" and kids and not any(n["truncated"] for n in flat[:1]):
        assert root["pn"] == min(k["pn"] for k in kids)
        assert root["dn"] == sum(k["dn"] for k in kids)


def test_the_most_proving_path_is_the_path_the_snapshot_marks():
    s = pnlab.Search(SEESAW, algo="pns")
    for _ in range(8):
        if s.step() != "running":
            break
        path = s.most_proving_path()
        marked = sorted((n for n in s.snapshot() if n["on_path"]), key=lambda n: n["depth"])
        assert path == [n["move"] for n in marked if n["depth"] > 0]
        # The most-proving node is unexpanded: the path ends at a leaf.
        assert not marked[-1]["expanded"]


def test_a_solved_search_gives_a_certificate_that_verifies(cli, tmp_path):
    s = pnlab.Search("x...o....", game="tictactoe", algo="dfpn")
    with pytest.raises(pnlab.InputError, match="not proved or disproved"):
        s.proof()
    s.run()
    text = s.proof()
    verdict = pnlab.verify(text)
    assert verdict["valid"], verdict
    f = tmp_path / "cert.txt"
    f.write_text(text)
    p = cli.run("verify", str(f))
    assert p.returncode == 0 and p.stdout.strip() == (
        f"valid: {verdict['answer']} ({verdict['positions']} positions)"
    )
    # A leaf whose stated result the rules contradict makes it invalid,
    # located by the moves that lead there.
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.endswith(" end -1"))
    lines[k] = lines[k][: -len("-1")] + "1"
    bad = pnlab.verify("\n".join(lines) + "\n")
    assert not bad["valid"] and bad["path"] and bad["reason"], bad


def test_values_are_floats_with_infinity_for_solved_nodes():
    s = pnlab.Search("x...o....", game="tictactoe", algo="pns")
    s.run()
    root = s.snapshot(max_depth=1)[0]
    assert (root["pn"], root["dn"]) in ((0.0, math.inf), (math.inf, 0.0))
