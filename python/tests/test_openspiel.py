"""OpenSpiel's games through `pnlab.openspiel`: every answer is checked
against OpenSpiel's own exhaustive solver (alpha-beta over the whole game,
`open_spiel.python.algorithms.minimax`), on tic-tac-toe, Breakthrough,
Clobber, an m,n,k-game, Nim and dots and boxes, from the start and from
positions part-way through. OpenSpiel is a test dependency (CI installs the
`open_spiel` wheel): without it these tests fail, they do not skip."""

from __future__ import annotations

import random

import pytest
import pyspiel
from open_spiel.python.algorithms import minimax

import pnlab
import pnlab.openspiel

GAMES = [
    ("tic_tac_toe", {}),
    ("breakthrough", {"rows": 4, "columns": 3}),
    ("clobber", {"rows": 3, "columns": 3}),
    ("mnk", {"m": 3, "n": 4, "k": 3}),
    ("nim", {"pile_sizes": "1;2;3", "is_misere": False}),
    ("dots_and_boxes", {"num_rows": 1, "num_cols": 2}),
]


def states(game, n: int, seed: int):
    """The initial state and `n` states after a few random moves."""
    rng = random.Random(seed)
    yield game.new_initial_state()
    for _ in range(n):
        s = game.new_initial_state()
        for _ in range(rng.randint(1, 4)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            yield s


def exact_value(state) -> float:
    """The value for the player to move, by OpenSpiel's exhaustive
    alpha-beta (deep enough for the whole game)."""
    value, _ = minimax.alpha_beta_search(
        state.get_game(),
        state=state.clone(),
        maximum_depth=100,
        maximizing_player_id=state.current_player(),
    )
    return value


@pytest.mark.parametrize("name,params", GAMES, ids=[g for g, _ in GAMES])
def test_answers_are_openspiel_s(name, params):
    game = pyspiel.load_game(name, params)
    checked = 0
    for state in states(game, 4, seed=len(name)):
        v = exact_value(state)
        for algo in ["pns", "dfpn"]:
            win = pnlab.openspiel.solve(state, algo=algo)
            assert win["outcome"] == ("proved" if v > 0 else "disproved"), (name, str(state), algo)
            draw = pnlab.openspiel.solve(state, algo=algo, question="not-lose")
            assert draw["outcome"] == ("proved" if v >= 0 else "disproved"), (name, str(state))
            checked += 1
    assert checked >= 4


def test_a_winning_move_wins_by_openspiel_s_count():
    game = pyspiel.load_game("breakthrough", {"rows": 4, "columns": 3})
    state = game.new_initial_state()
    r = pnlab.openspiel.solve(state, algo="dfpn")
    assert r["outcome"] == "proved"
    names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
    after = state.child(names[r["best_move"]])
    # After the winning move the opponent, to move, loses.
    assert exact_value(after) < 0


def test_transpositions_change_the_work_not_the_answer():
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    merged = pnlab.openspiel.solve(state, algo="dfpn")
    apart = pnlab.openspiel.solve(state, algo="dfpn", transpositions=False)
    assert merged["answer"] == apart["answer"] == "not-win"
    assert merged["nodes_created"] < apart["nodes_created"]


def test_a_search_steps_an_openspiel_game():
    s = pnlab.openspiel.Search(pyspiel.load_game("tic_tac_toe"), algo="pns")
    s.step(10)
    assert s.status == "running" and len(s.most_proving_path()) >= 1
    assert s.run() == "disproved"


def test_games_pnlab_cannot_search_are_refused():
    with pytest.raises(pnlab.InputError, match="hidden information"):
        pnlab.openspiel.solve(pyspiel.load_game("kuhn_poker"))
