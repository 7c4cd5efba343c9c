"""`pnlab.games()`, `pnlab.algorithms()`, `pnlab.experiments()` describe
what the program describes: the same names, and parameters whose
defaults and ranges the engine accepts and enforces."""

from __future__ import annotations

import inspect

import pytest

import pnlab


def test_algorithm_names_and_parameters_are_the_command_line_s(cli):
    # One unindented line per algorithm, then its indented parameter
    # lines (the algorithm's own, and for some the connect games' options).
    listing = cli.run("solve", "--list-algos").stdout.splitlines()
    blocks: list[list[str]] = []
    for line in listing:
        if line and not line[0].isspace():
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    names = [b[0].split()[0] for b in blocks]
    assert [a["name"] for a in pnlab.algorithms()] == names
    for algo, block in zip(pnlab.algorithms(), blocks):
        params_line = block[1]
        for p in algo["params"]:
            assert p["name"] in params_line, (algo["name"], p["name"])


def test_per_game_parameters_are_listed_by_game_as_the_command_line_lists_them(cli):
    listing = cli.run("solve", "--list-algos").stdout
    fast = next(a for a in pnlab.algorithms() if a["name"] == "dfpn-fast")
    assert sorted(fast["game_params"]) == ["connect4", "hex", "othello"]
    hex_names = [p["name"] for p in fast["game_params"]["hex"]]
    assert hex_names == ["dead", "captured", "dominated", "vcs", "mustplay", "resistance_order", "fill_key", "vc_work", "vc_over_edges", "vc_children"]
    assert "on hex positions also: dead" in listing
    assert [p["name"] for p in fast["game_params"]["othello"]] == ["leaf_empties"]
    c4 = [p["name"] for p in fast["game_params"]["connect4"]]
    assert c4 == ["tactics", "threat_init", "mirror", "leaf_cells"]
    assert "on connect4 positions also: tactics" in listing
    own = [p["name"] for p in fast["params"]]
    assert not set(own) & set(c4 + hex_names + ["leaf_empties"])
    scns = next(a for a in pnlab.algorithms() if a["name"] == "scns")
    assert sorted(scns["game_params"]) == ["hex"]
    assert [p["name"] for p in scns["game_params"]["hex"]] == ["vcs", "mustplay", "vc_work"]
    assert "on hex positions also: vcs" in listing
    with_own = {"dfpn-fast", "scns"}
    assert all(a["game_params"] == {} for a in pnlab.algorithms() if a["name"] not in with_own)


def test_game_names_are_the_command_line_s(cli):
    p = cli.run("solve", "--game", "chess", "x")
    assert p.returncode == 2
    known = p.stderr.split("[possible values:")[1].split("]")[0]
    assert [g["name"] for g in pnlab.games()] == [n.strip() for n in known.split(",")]
    assert all(g["summary"] for g in pnlab.games())


def test_experiment_names_are_the_command_line_s(cli):
    listing = cli.run("experiment").stdout.splitlines()
    names = [line.split()[0] for line in listing if line and not line.startswith("`")]
    assert [e["name"] for e in pnlab.experiments()] == names


def test_descriptions_are_complete():
    kinds = {"real", "integer", "choice", "real-or-auto", "list", "text"}
    for entry in pnlab.algorithms() + pnlab.experiments():
        params = entry.get("params", entry.get("settings"))
        for p in params:
            assert p["kind"] in kinds and p["help"] and p["range"], p
            if p["kind"] in ("real", "integer"):
                assert p["min"] is not None
                assert p["min"] <= p["default"] and (p["max"] is None or p["default"] <= p["max"])
            if p["kind"] == "choice":
                assert p["default"] in p["options"]


def test_parameter_names_never_shadow_the_keyword_arguments():
    api = set(inspect.signature(pnlab.solve_file).parameters) | {"entry", "position", "path"}
    for a in pnlab.algorithms():
        clash = {p["name"] for p in a["params"]} & api
        assert not clash, (a["name"], clash)
    for e in pnlab.experiments():
        clash = {p["name"] for p in e["settings"]} & {"jobs", "seed", "shard", "out", "progress"}
        assert not clash, (e["name"], clash)


@pytest.mark.parametrize("algo", ["deep-pn", "dfpn-eps", "mcts-solver"])
def test_the_range_is_enforced_at_both_ends(algo):
    spec = next(a for a in pnlab.algorithms() if a["name"] == algo)
    real = next(p for p in spec["params"] if p["kind"] == "real" and p["max"] is not None)
    name, hi = real["name"], real["max"]
    r = pnlab.solve("3:", game="hex", algo=algo, **{name: hi})
    assert r["params"][name] == hi
    with pytest.raises(pnlab.InputError) as e:
        pnlab.solve("3:", game="hex", algo=algo, **{name: hi * 2 + 1})
    assert f"`{name}`" in str(e.value) and real["range"] in str(e.value)
