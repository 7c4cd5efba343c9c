"""Games written in Python: tic-tac-toe written in Python gives the
answers and counters of pnlab's own tic-tac-toe under every algorithm;
Nim's answers are Bouton's; a game that breaks the protocol raises its own
error."""

from __future__ import annotations

import pickle

import pytest

import pnlab
from pygames import Nim, TicTacToe

ALGOS = [a["name"] for a in pnlab.algorithms()]
# Fields that name the position or the time, not the search.
NOT_COMPARED = {"name", "game", "time_ms", "peak_tree_bytes"}
# Algorithms that use knowledge the protocol does not carry: dfpn-fast
# orders moves by the game's own tactics; conspiracy-number search takes
# tic-tac-toe's results as plain signs (wins beyond every evaluation) by
# the game's kind, where a Python game keeps its scores. Answers compared
# only.
ANSWERS_ONLY = {"dfpn-fast", "cns"}
POSITIONS = [".........", "x...o....", "xx..o.o..", "xoxoxo..."]


def comparable(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in NOT_COMPARED}


@pytest.mark.parametrize("algo", ALGOS)
def test_python_tictactoe_is_the_built_in_one(algo):
    for cells in POSITIONS:
        opts = dict(algo=algo, max_iterations=400, seed=2)
        try:
            want = pnlab.solve(cells, game="tictactoe", **opts)
        except pnlab.InputError as e:
            # What the engine refuses on its own game (opponent-model search
            # without a second evaluation) it refuses on the Python one, for
            # the same reason.
            with pytest.raises(pnlab.InputError) as again:
                pnlab.solve(TicTacToe(cells), **opts)
            why = str(e).split(": ", 1)[1].replace("tictactoe", "external")
            assert why == str(again.value).split(": ", 1)[1]
            continue
        got = pnlab.solve(TicTacToe(cells), **opts)
        assert got["game"] == "external" and got["name"] == "TicTacToe"
        if algo in ANSWERS_ONLY:
            assert (got["outcome"], got["answer"]) == (want["outcome"], want["answer"])
        else:
            assert comparable(got) == comparable(want), (algo, cells)


def test_python_tictactoe_counters_with_pns_and_dfpn_to_the_end():
    for algo in ["pns", "dfpn"]:
        want = pnlab.solve(".........", game="tictactoe", algo=algo)
        got = pnlab.solve(TicTacToe(), algo=algo)
        assert want["answer"] == "not-win"
        assert comparable(got) == comparable(want)


def test_searches_step_python_games_as_the_built_in_ones():
    a = pnlab.Search(TicTacToe(), algo="pns")
    b = pnlab.Search(".........", game="tictactoe", algo="pns")
    for n in [1, 5, 50]:
        assert a.step(n) == b.step(n)
        assert a.counters["nodes_created"] == b.counters["nodes_created"]
        assert a.most_proving_path() == b.most_proving_path()
    assert a.run() == b.run() == "disproved"
    assert a.record()["iterations"] == b.record()["iterations"]


def bouton(heaps) -> bool:
    x = 0
    for h in heaps:
        x ^= h
    return x != 0


@pytest.mark.parametrize("algo", ["pns", "dfpn", "deep-pn", "dfs", "mcts-solver"])
def test_nim_follows_bouton(algo):
    for heaps in [(1,), (1, 1), (1, 2), (2, 2), (1, 2, 3), (1, 3, 4), (2, 3)]:
        r = pnlab.solve(Nim(heaps), algo=algo, seed=1)
        assert r["outcome"] == ("proved" if bouton(heaps) else "disproved"), (algo, heaps)


def test_a_winning_move_is_named_in_the_game_s_words():
    r = pnlab.solve(Nim((1, 2)), algo="pns")
    # The only winning move leaves two equal heaps: take 1 from heap 1.
    assert r["best_move"] == "1from1"


class Broken(TicTacToe):
    def legal_moves(self):
        if self.cells.count(".") < 7:
            raise RuntimeError("no moves here")
        return super().legal_moves()

    def play(self, i):
        return Broken(super().play(i).cells)


def test_a_callback_error_is_raised_as_it_was():
    with pytest.raises(RuntimeError, match="no moves here"):
        pnlab.solve(Broken(), algo="pns")
    s = pnlab.Search(Broken(), algo="dfpn")
    with pytest.raises(RuntimeError, match="no moves here"):
        s.run()


class Mutating(TicTacToe):
    def play(self, i):
        self.cells = super().play(i).cells


def test_protocol_breaches_are_explained():
    with pytest.raises(TypeError, match="returned None"):
        pnlab.solve(Mutating(), algo="pns")

    class NotAGame:
        def legal_moves(self):
            return []

    with pytest.raises(TypeError, match="lacks play, is_terminal, result"):
        pnlab.solve(NotAGame())
    with pytest.raises(pnlab.InputError, match="game="):
        pnlab.solve(TicTacToe(), game="tictactoe")


def test_a_search_of_a_python_game_pickles_when_the_game_does():
    s = pnlab.Search(TicTacToe(), algo="pns")
    s.step(40)
    t = pickle.loads(pickle.dumps(s))
    assert t.counters["nodes_created"] == s.counters["nodes_created"]
    assert t.run() == s.run() == "disproved"
