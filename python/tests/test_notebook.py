"""What a notebook relies on: the command line's defaults and words, trees
drawn as `pnlab solve --export` draws them, searches copied, pickled and
continued with a larger budget, snapshots bounded by depth and as columns,
full docstrings."""

from __future__ import annotations

import copy
import pickle

import pytest

import pnlab
from conftest import ROOT, without_time

COUNTERS = ["iterations", "nodes_created", "nodes_expanded", "max_depth", "revisits"]


def counters(record: dict) -> dict:
    return {k: record[k] for k in COUNTERS}


def test_the_default_algorithm_is_the_command_line_s(cli):
    records, _, _ = cli.solve_json("--game", "tictactoe", ".........")
    r = pnlab.solve(".........", game="tictactoe")
    assert r["algo"] == records[0]["algo"] == pnlab.DEFAULT_ALGO == "pns"
    assert without_time(r) == without_time(records[0])
    assert pnlab.Search(".........", game="tictactoe").algo == "pns"


def test_entry_and_certify_in_both(cli):
    path = str(ROOT / "positions/tictactoe.toml")
    records, errors, code = cli.solve_json(path, "--entry", "2", "--certify")
    assert code == 0 and not errors, errors
    r = pnlab.solve(path, entry=2, certify=True)
    assert r["certified"] is True and r["stop_reason"] == "certified"
    assert without_time(r) == {**without_time(records[0]), "certify_ms": r["certify_ms"]}
    _, errors, code = cli.solve_json(path, "--entry", "99")
    assert code == 2 and "--entry 99" in errors[0]


def test_errors_are_in_python_s_words():
    with pytest.raises(pnlab.InputError) as e:
        pnlab.solve("3:", game="hex", time_limit=-1)
    assert str(e.value).startswith("time_limit=-1: ") and "--" not in str(e.value)
    with pytest.raises(pnlab.InputError) as e:
        pnlab.solve("3:", game="hex", algo="deep-pn", Q=1)
    assert str(e.value).startswith('algo="deep-pn": ') and "--" not in str(e.value)
    with pytest.raises(pnlab.InputError) as e:
        pnlab.solve("nowhere.txt")
    assert "game=" in str(e.value) and "--game" not in str(e.value)


def test_step_takes_no_negative_count():
    s = pnlab.Search(".........", game="tictactoe")
    with pytest.raises(ValueError, match="0 or more"):
        s.step(-1)
    assert s.step(0) == "running" and s.iterations == 0


def test_a_stopped_search_goes_on_with_a_larger_budget():
    full = pnlab.solve("4:b2", game="hex", algo="pns")
    s = pnlab.Search("4:b2", game="hex", algo="pns", max_iterations=50)
    assert s.run() == "unknown" and s.stop_reason == "max-iterations"
    assert s.record()["stop_reason"] == "max-iterations" and s.iterations == 50
    assert s.run() == "unknown"  # the same budget: nothing more to do
    assert s.run(max_iterations=10**6) == full["outcome"]
    assert counters(s.record()) == counters(full)


def test_copies_and_pickles_replay_to_the_same_tree():
    s = pnlab.Search("4:b2", game="hex", algo="dfpn", max_nodes=200)
    s.step(30)
    for t in [copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))]:
        assert t.counters["nodes_created"] == s.counters["nodes_created"]
        assert t.snapshot(max_depth=3) == s.snapshot(max_depth=3)
        assert t.most_proving_path() == s.most_proving_path()
    s.run()
    t = pickle.loads(pickle.dumps(s))
    assert (t.status, t.stop_reason) == (s.status, s.stop_reason) == ("unknown", "max-nodes")
    assert t.run(max_nodes=10**7) == s.run(max_nodes=10**7) != "unknown"


def test_the_tree_is_drawn_as_the_command_line_exports_it(cli, tmp_path):
    svg, dot = tmp_path / "tree.svg", tmp_path / "tree.dot"
    _, errors, code = cli.solve_json(
        "--game", "tictactoe", "x...o....", "--export", str(svg), "--export", str(dot)
    )
    assert code == 0, errors
    s = pnlab.Search("x...o....", game="tictactoe")
    s.run()
    assert s.to_svg() == svg.read_text() == s._repr_svg_()
    assert s.to_dot() == dot.read_text()


def test_snapshots_are_bounded_by_depth_and_say_what_they_leave_out():
    s = pnlab.Search("", game="connect4", algo="dfpn")
    s.step(3)
    nodes = s.snapshot(max_depth=2)
    assert max(n["depth"] for n in nodes) <= 2
    listed = {}
    for n in nodes:
        listed[n["parent"]] = listed.get(n["parent"], 0) + 1
    for n in nodes:
        if listed.get(n["id"], 0) < n["n_children"]:
            assert n["truncated"], n
    root = nodes[0]
    assert root["n_children"] == 7
    assert root["truncated"] == (listed.get(root["id"], 0) < 7)


def test_snapshots_as_columns():
    np = pytest.importorskip("numpy", reason="numpy is not installed in this environment")
    s = pnlab.Search("x...o....", game="tictactoe")
    s.step(20)
    rows = s.snapshot()
    cols = s.snapshot(columns=True)
    assert set(cols) == set(rows[0])
    assert isinstance(cols["pn"], np.ndarray) and len(cols["pn"]) == len(rows)
    assert list(cols["id"]) == [r["id"] for r in rows]
    assert cols["parent"] == [r["parent"] for r in rows]


def test_help_shows_the_whole_documentation():
    for name in ["certify", "entry", "max_iterations", "game protocol", '"pns"']:
        assert name in pnlab.solve.__doc__, name
    assert "goes on with a larger one" in " ".join(pnlab.Search.run.__doc__.split())
    assert "legal_moves" in pnlab.Position.__doc__ or "play(move)" in pnlab.Position.__doc__


def test_experiment_files_are_laid_out_as_the_command_line_lays_them_out(cli, tmp_path):
    settings = dict(trees=1, series="2", cap=200, algos=["pns"])
    cli_out, py_out = tmp_path / "cli", tmp_path / "py"
    args = ["experiment", "pgame-compare", "--out", str(cli_out), "--quiet"]
    for k, v in settings.items():
        args += ["--set", f"{k}={','.join(v) if isinstance(v, list) else v}"]
    p = cli.run(*args)
    assert p.returncode == 0, p.stderr
    pnlab.experiment("pgame-compare", out=py_out, **settings)

    def files(d):
        return sorted(str(f.relative_to(d)) for f in d.rglob("*") if f.is_file())

    assert files(py_out) == files(cli_out) and files(cli_out)
