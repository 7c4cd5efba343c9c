"""`pnlab.perft` counts what the program counts, and what was published."""

from __future__ import annotations

import pytest

import pnlab

OTHELLO_START = "-" * 27 + "OX------XO" + "-" * 27 + " X"


def test_othello_counts_are_the_published_ones():
    # OEIS A124004: Othello perft from the start position (passes count).
    published = [1, 4, 12, 56, 244, 1396, 8200, 55092]
    assert [pnlab.perft("othello", OTHELLO_START, d) for d in range(8)] == published


def test_tictactoe_games_that_fill_the_board():
    # 255,168 games of tic-tac-toe, of which 127,872 last all nine moves
    # (81,792 won by the first player on the last move, 46,080 drawn).
    assert pnlab.perft("tictactoe", ".........", 9) == 127_872


@pytest.mark.parametrize(
    "game,position,depth",
    [("connect4", "", 6), ("hex", "4:", 4), ("tictactoe", "x...o....", 5), ("connect", "5,5,4,1,1:", 3)],
)
def test_the_same_counts_as_the_command_line(cli, game, position, depth):
    p = cli.run("perft", "--game", game, position, "--depth", str(depth))
    assert p.returncode == 0, p.stderr
    assert pnlab.perft(game, position, depth) == int(p.stdout.split()[-1])
