"""`pnlab.Position`: moves, play and results agree with the games' rules
(perft counts, known finished positions), positions go where notation goes,
and a notebook gets a board picture."""

from __future__ import annotations

import copy
import pickle

import pytest

import pnlab
from conftest import without_time


def perft(p: pnlab.Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(p.play(m), depth - 1) for m in p.legal_moves())


def test_moves_and_play_count_what_perft_counts():
    # Tic-tac-toe: 9, 72, 504 move sequences of 1, 2, 3 plies (every
    # game lasts at least 5 plies, so nothing ends before).
    empty = pnlab.Position("tictactoe", ".........")
    assert [perft(empty, d) for d in (1, 2, 3)] == [9, 72, 504]
    # Othello's start: 4, 12, 56 (the published perft of the opening).
    start = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
    assert [perft(pnlab.Position("othello", start), d) for d in (1, 2, 3)] == [4, 12, 56]
    # And what the engine's own perft counts for Connect Four.
    c4 = pnlab.Position("connect4", "")
    assert perft(c4, 3) == pnlab.perft("connect4", "", 3)


def test_positions_are_immutable_and_compare_by_value():
    p = pnlab.Position("tictactoe", "x...o....")
    q = p.play("c1")
    assert p.notation == "x...o...." and q.notation == "x.x.o...."
    assert p.child("c1") == q and p != q
    assert q.to_move() == 1 and p.to_move() == 0
    assert hash(p.play("c1")) == hash(q)
    assert repr(q) == 'Position("tictactoe", "x.x.o....")'
    assert pickle.loads(pickle.dumps(q)) == q and copy.copy(q) == q


def test_finished_games_have_results_from_the_first_player_s_view():
    won_by_x = pnlab.Position("tictactoe", "xxxoo....")
    assert won_by_x.is_terminal() and won_by_x.result() == 1
    assert won_by_x.legal_moves() == []
    won_by_o = pnlab.Position("tictactoe", "ooo.xx.x.")
    assert won_by_o.result() == -1
    drawn = pnlab.Position("tictactoe", "xoxxoooxx")
    assert drawn.is_terminal() and drawn.result() == 0
    going_on = pnlab.Position("tictactoe", "x...o....")
    assert not going_on.is_terminal() and going_on.result() is None


def test_bad_positions_and_moves_are_input_errors():
    with pytest.raises(pnlab.InputError, match="unknown game"):
        pnlab.Position("chess", "")
    with pytest.raises(pnlab.InputError, match="1:4"):
        pnlab.Position("tictactoe", "x..?.....")
    with pytest.raises(pnlab.InputError, match="a1"):
        pnlab.Position("tictactoe", "x........").play("a1")


def test_a_position_is_solved_as_its_notation_is():
    p = pnlab.Position("connect4", "4453")
    a = pnlab.solve(p, algo="dfpn", max_nodes=3000)
    b = pnlab.solve("4453", game="connect4", algo="dfpn", max_nodes=3000)
    assert without_time(a) == {**without_time(b), "name": "4453"}
    s = pnlab.Search(p.play("4"), algo="pns")
    t = pnlab.Search("44534", game="connect4", algo="pns")
    assert s.step(100) == t.step(100) and s.counters["nodes_created"] == t.counters["nodes_created"]


def test_boards_are_drawn():
    p = pnlab.Position("tictactoe", "x...o...x")
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    # Connect Four after 4 4 5 3: four discs in the 7×6 grid.
    c4 = pnlab.Position("connect4", "4453")._repr_svg_()
    assert c4.count("<circle") == 4 and c4.count("<rect") >= 42
    # A game without a board picture shows its notation.
    assert "3:a1 b2" in pnlab.Position("hex", "3:a1 b2").to_svg()
