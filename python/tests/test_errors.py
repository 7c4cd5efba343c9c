"""Bad input raises `pnlab.InputError` (a ValueError) with the message the
program prints after `error: ` (its flags said as keyword arguments), located as FILE:LINE:COL where the input
has a place."""

from __future__ import annotations

import pytest

import pnlab
from conftest import python_words


def cli_error(cli, *args: str) -> str:
    p = cli.run(*args)
    assert p.returncode == 2, p
    line = next(x for x in p.stderr.splitlines() if x.startswith("error: "))
    # The module says the keyword arguments where the program says flags.
    return python_words(line[len("error: ") :])


def raised(call, *args, **kwargs) -> str:
    with pytest.raises(pnlab.InputError) as e:
        call(*args, **kwargs)
    assert isinstance(e.value, ValueError)
    return str(e.value)


def test_a_bad_inline_position_is_located(cli):
    msg = raised(pnlab.solve, "x..?.....", game="tictactoe")
    assert msg.startswith("<inline>:1:4:")
    assert msg == cli_error(cli, "solve", "--game", "tictactoe", "x..?.....")
    msg = raised(pnlab.solve, "5:c3 z9", game="hex")
    assert msg == cli_error(cli, "solve", "--game", "hex", "5:c3 z9")


def test_a_bad_file_is_located_at_its_line_and_column(cli, tmp_path):
    f = tmp_path / "bad.ttt"
    f.write_text("x...o....\nxx..q....\n")
    msg = raised(pnlab.solve_file, f)
    assert msg.startswith(f"{f}:2:")
    assert msg == cli_error(cli, "solve", str(f))
    missing = tmp_path / "missing.obf"
    assert raised(pnlab.solve, missing) == cli_error(cli, "solve", str(missing))


def test_unknown_names_list_what_is_known(cli):
    # The command line's `--game` values are checked by its argument
    # parser, which words the error its own way; both name the bad value
    # and list the same games.
    msg = raised(pnlab.solve, "x", game="chess")
    assert msg.startswith("unknown game `chess`; known games: ")
    p = cli.run("solve", "--game", "chess", "x")
    assert p.returncode == 2 and "'chess'" in p.stderr
    listed = p.stderr.split("[possible values:")[1].split("]")[0]
    assert msg.split("known games: ")[1] == listed.strip()
    # `--algo` too: the argument parser puts its own words before the
    # engine's; the module says the engine's alone.
    msg = raised(pnlab.solve, ".........", game="tictactoe", algo="pnz")
    assert msg.startswith("unknown algorithm `pnz`; known algorithms: pns, ")
    assert cli_error(cli, "solve", "--game", "tictactoe", ".........", "--algo", "pnz").endswith(": " + msg)


def test_bad_parameters_give_the_command_line_s_message(cli):
    base = ["solve", "--game", "hex", "3:", "--algo", "deep-pn"]
    msg = raised(pnlab.solve, "3:", game="hex", algo="deep-pn", Q=1)
    assert "valid parameters" in msg and msg == cli_error(cli, *base, "--set", "Q=1")
    msg = raised(pnlab.solve, "3:", game="hex", algo="deep-pn", R=1.5)
    assert msg == cli_error(cli, *base, "--set", "R=1.5")
    msg = raised(pnlab.solve, "3:", game="hex", algo="deep-pn", dpn="both")
    assert msg == cli_error(cli, *base, "--set", "dpn=both")
    with pytest.raises(ValueError, match="expected a number"):
        pnlab.solve("3:", game="hex", algo="deep-pn", R={"a": 1})
    msg = raised(pnlab.solve, "3:", game="hex", time_limit=-1)
    assert msg == cli_error(
        cli, "solve", "--game", "hex", "3:", "--algo", "dfpn", "--time-limit=-1"
    )
    assert "question" in raised(pnlab.solve, "3:", game="hex", question="draw")


def test_an_algorithm_that_cannot_search_a_game_says_so(cli):
    # Opponent-model search with the default second evaluation needs a
    # game that has one.
    msg = raised(pnlab.solve, "x...o....", game="tictactoe", algo="om")
    assert msg.startswith("x...o....:1:1: ")
    assert msg == cli_error(cli, "solve", "--game", "tictactoe", "x...o....", "--algo", "om")


def test_experiment_settings_are_checked_before_anything_runs(cli, tmp_path):
    msg = raised(pnlab.experiment, "eps-sweep", empties=60)
    assert msg == cli_error(
        cli, "experiment", "eps-sweep", "--set", "empties=60", "--out", str(tmp_path)
    )
    assert "known experiments" in raised(pnlab.experiment, "no-such-sweep")
    assert "shard" in raised(pnlab.experiment, "eps-sweep", shard=(3, 2))


def test_perft_and_verify_locate_their_errors(cli):
    msg = raised(pnlab.perft, "tictactoe", "x..?.....", 2)
    assert msg == cli_error(cli, "perft", "--game", "tictactoe", "x..?.....", "--depth", "2")
    msg = raised(pnlab.verify, "pnlab-certificate 1\ngame chess\n")
    assert msg.startswith("<text>:2:")


def test_a_parameter_of_another_game_is_refused_as_on_the_command_line(cli):
    # `leaf_empties` is dfpn-fast's Othello frontier: on a Connect Four
    # position it is an error naming the game it belongs to.
    msg = raised(pnlab.solve, "4444", game="connect4", algo="dfpn-fast", leaf_empties=12)
    assert "applies to othello positions only" in msg
    assert msg == cli_error(
        cli, "solve", "--game", "connect4", "4444", "--algo", "dfpn-fast", "--set", "leaf_empties=12"
    )


EXTREMES = [0, -1, float("nan"), float("inf"), float("-inf"), 1e308, 1e20, 2**64 - 1, 2**64]


@pytest.mark.parametrize(
    "option",
    ["time_limit", "memory", "max_nodes", "max_iterations", "within", "threads", "seed"],
)
def test_extreme_numbers_are_input_errors_never_panics(option):
    # Every extreme value either runs (it is in range) or raises an
    # ordinary exception: InputError for a number out of range,
    # OverflowError/TypeError where Python cannot pass it as that integer.
    # A panic would raise pyo3's PanicException, a BaseException, which
    # `pytest.raises(Exception)` does not catch.
    for value in EXTREMES:
        try:
            pnlab.solve("xx.oo....", game="tictactoe", **{option: value})
        except (pnlab.InputError, OverflowError, TypeError):
            pass
    for value in [0, -5.0, float("nan"), float("inf"), 1e20, 1e30]:
        with pytest.raises(pnlab.InputError):
            pnlab.solve("xx.oo....", game="tictactoe", time_limit=value)
    for value in [0, 2**50]:
        with pytest.raises(pnlab.InputError):
            pnlab.solve("xx.oo....", game="tictactoe", memory=value)


def test_standard_input_is_refused_instead_of_blocking():
    msg = raised(pnlab.solve, "-", game="tictactoe")
    assert "standard input" in msg


def test_step_honours_the_budgets_given_at_construction():
    s = pnlab.Search("7:", game="hex", algo="pns", max_nodes=2000)
    status = s.step(1_000_000)
    assert status == "unknown"
    assert s.stop_reason == "max-nodes"
    assert s.iterations < 1_000_000
