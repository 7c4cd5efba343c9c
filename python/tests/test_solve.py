"""`pnlab.solve` and `pnlab.solve_file` give the records `pnlab solve --json`
prints: every algorithm on positions of every game, with the same budget
and seed (runs are deterministic for a seed, so every field but the wall
time must agree), and the same errors where an algorithm does not handle
a game."""

from __future__ import annotations

import pytest

import pnlab
from conftest import python_words
from conftest import ROOT, without_time

ALGOS = [a["name"] for a in pnlab.algorithms()]

# (game, inline position) or (game, file): positions of every game, small
# enough for every algorithm to take a few hundred iterations quickly.
POSITIONS = [
    ("tictactoe", "........."),
    ("tictactoe", "x...o...."),
    ("connect4", "4453"),
    ("hex", "3:"),
    ("hex", "4:b2"),
    ("pgame", "b=2,d=8,seed=3"),
    ("connect", "4,4,3,1,1:"),
    ("connect6", "7:d4"),
    ("othello", "XXXXX----XXXXX--OOXOX-O--OOXOOO-XOOOXXO--OOOXXXO-OOOOXXXXXXXXXOO O"),
    ("xiangqi", "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1"),
    ("ewn", "...../...../.a.1./...../..... r"),
    ("tree", ROOT / "positions/trees/seesaw.tree"),
    ("tree", ROOT / "positions/trees/scores.tree"),
    ("tree", ROOT / "positions/trees/chance-star1.tree"),
    ("tictactoe", ROOT / "positions/tictactoe.toml"),
]

# Small budgets: the searches stop early on the big games, and a stopped
# search must agree as exactly as a finished one.
BUDGET = 150


def test_every_game_is_covered():
    assert {g for g, _ in POSITIONS} == {g["name"] for g in pnlab.games()}


@pytest.mark.parametrize("algo", ALGOS)
def test_every_algorithm_agrees_with_the_command_line(cli, algo):
    compared = 0
    for game, position in POSITIONS:
        inline = isinstance(position, str)
        args = ["--algo", algo, "--max-iterations", str(BUDGET), "--seed", "3"]
        if inline:
            records, errors, code = cli.solve_json("--game", game, position, *args)
        else:
            records, errors, code = cli.solve_json(str(position), *args)
        opts = dict(algo=algo, max_iterations=BUDGET, seed=3)
        if errors:
            # Where the program refuses a position, the module raises the
            # same message (the first one, for a file).
            assert code == 2
            with pytest.raises(pnlab.InputError) as e:
                if inline:
                    pnlab.solve(position, game=game, **opts)
                else:
                    pnlab.solve_file(position, **opts)
            assert str(e.value) == python_words(errors[0]), (algo, position)
            continue
        assert code == 0, (algo, position)
        if inline:
            got = [pnlab.solve(position, game=game, **opts)]
        else:
            got = pnlab.solve_file(position, **opts)
        assert [without_time(r) for r in got] == [without_time(r) for r in records], (
            algo,
            position,
        )
        compared += len(records)
    assert compared > 0, f"{algo} solved nothing"


def test_solve_defaults_match_the_documented_signature(cli):
    # The module's default algorithm is the command line's (PNS) and the
    # question "win".
    r = pnlab.solve(".........", game="tictactoe")
    assert (r["algo"], r["question"]) == ("pns", "win")
    # Tic-tac-toe is a draw: the first player does not win, but does not
    # lose either.
    assert (r["outcome"], r["answer"]) == ("disproved", "not-win")
    r = pnlab.solve(".........", game="tictactoe", question="not-lose")
    assert r["answer"] == "not-lose"
    records, _, _ = cli.solve_json("--game", "tictactoe", ".........")
    assert without_time(records[0]) == without_time(
        pnlab.solve(".........", game="tictactoe")
    )


def test_parameters_are_keyword_arguments(cli):
    records, _, _ = cli.solve_json(
        "--game", "hex", "4:", "--algo", "deep-pn", "--set", "R=0.4", "--set", "dpn=thesis"
    )
    r = pnlab.solve("4:", game="hex", algo="deep-pn", R=0.4, dpn="thesis")
    assert r["params"]["R"] == 0.4 and r["params"]["dpn"] == "thesis"
    assert without_time(r) == without_time(records[0])


def test_within_and_budgets_are_the_command_line_s(cli):
    records, _, _ = cli.solve_json(
        "--game", "connect4", "", "--algo", "pns", "--max-nodes", "3000", "--within", "3"
    )
    r = pnlab.solve("", game="connect4", algo="pns", max_nodes=3000, within=3)
    assert without_time(r) == without_time(records[0])
    assert r["within"] == 3


def test_a_file_with_several_positions_needs_an_entry(cli):
    path = "positions/tictactoe.toml"
    with pytest.raises(pnlab.InputError, match="entry=K"):
        pnlab.solve(ROOT / path)
    all_records = pnlab.solve_file(ROOT / path)
    assert len(all_records) > 1
    second = pnlab.solve(ROOT / path, entry=2)
    assert without_time(second) == without_time(all_records[1])
    with pytest.raises(pnlab.InputError, match="entry=99"):
        pnlab.solve(ROOT / path, entry=99)


def test_bundled_positions_are_found_from_any_directory(tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    r = pnlab.solve("positions/trees/seesaw.tree", algo="pns")
    records, errors, _ = cli.solve_json("positions/trees/seesaw.tree", "--algo", "pns")
    assert not errors
    assert without_time(r) == without_time(records[0])


def test_solve_file_reports_progress():
    seen = []
    out = pnlab.solve_file(
        ROOT / "positions/tictactoe.toml", progress=lambda d, t: seen.append((d, t))
    )
    n = len(out)
    assert seen == [(k, n) for k in range(1, n + 1)]


def test_a_proof_file_is_written_and_verifies(tmp_path, cli):
    proof = tmp_path / "ttt.proof"
    r = pnlab.solve("x...o....", game="tictactoe", algo="pns", proof=proof)
    assert r["proof_file"] == str(proof)
    verdict = pnlab.verify_file(proof)
    assert verdict["valid"] and verdict["positions"] == r["proof_positions"]
    p = cli.run("verify", str(proof))
    assert p.returncode == 0 and p.stdout.startswith("valid:")
