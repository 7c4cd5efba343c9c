"""OpenSpiel's games searched by pnlab: ``pnlab.openspiel.solve(state)``.

Any two-player, perfect-information, deterministic, sequential pyspiel
game (tic-tac-toe, Connect Four, Breakthrough, Clobber, Nim, m,n,k-games,
…) becomes a pnlab game (the protocol of docs/python.md) through
:class:`Game`, so every pnlab algorithm searches it::

    >>> import pyspiel, pnlab.openspiel
    >>> state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    >>> pnlab.openspiel.solve(state, algo="dfpn")["answer"]
    'not-win'

OpenSpiel itself is not a dependency of pnlab: install it with
``pip install pnlab[openspiel]`` (the ``open_spiel`` wheel). Moves are
OpenSpiel's actions, named in records and trees by
``state.action_to_string``; a result is ``returns()`` of player 0 (the
first player), so a win for player 0 is a positive score.

Transpositions: positions are told apart by ``str(state)`` and the player
to move, which for OpenSpiel's board games is the whole state. For a game
whose text leaves out something its future depends on, pass
``transpositions=False``: every path is then its own position (slower,
never wrong).
"""

from __future__ import annotations

from . import _pnlab


def _check(game) -> None:
    """Refuses the games pnlab's searches cannot answer, saying why."""
    import pyspiel

    t = game.get_type()
    why = []
    if game.num_players() != 2:
        why.append(f"it has {game.num_players()} players (pnlab searches two-player games)")
    if t.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        why.append("it has hidden information")
    if t.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        why.append("it has chance events")
    if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        why.append("its players move simultaneously")
    if why:
        raise _pnlab.InputError(
            f"OpenSpiel game {t.short_name!r} cannot be searched: " + "; ".join(why)
        )


class Game:
    """A pyspiel state following pnlab's game protocol (immutable: ``play``
    returns the state after the action, through ``state.child``). Without
    ``key``: every path is its own position (see :func:`game`)."""

    __slots__ = ("state", "mover")

    def __init__(self, state, mover: int = 0) -> None:
        self.state = state
        # OpenSpiel names no player to move once the game is over; pnlab
        # wants one: the player after the one who made the last move.
        player = state.current_player()
        self.mover = player if player >= 0 else mover

    def legal_moves(self) -> list:
        return self.state.legal_actions()

    def play(self, action) -> "Game":
        return type(self)(self.state.child(action), 1 - self.mover)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def result(self) -> float:
        """Player 0's return: > 0 when the first player won."""
        return self.state.returns()[0]

    def to_move(self) -> int:
        return self.mover

    def move_name(self, action) -> str:
        return self.state.action_to_string(self.state.current_player(), action)

    def __str__(self) -> str:
        return str(self.state)

    def __repr__(self) -> str:
        return f"pnlab.openspiel.Game({self.state.get_game()}: {self.state.history()})"


class KeyedGame(Game):
    """A :class:`Game` whose positions meet in the searches' tables when
    their text (``str(state)``) and player to move agree."""

    __slots__ = ()

    def key(self):
        return (self.mover, str(self.state))


def game(state, transpositions: bool = True) -> Game:
    """``state`` (a pyspiel state, or a game for its initial state) as a
    pnlab game object. Raises :class:`pnlab.InputError` for a game pnlab
    cannot search (more or fewer than two players, hidden information,
    chance events, simultaneous moves)."""
    if hasattr(state, "new_initial_state"):
        state = state.new_initial_state()
    _check(state.get_game())
    return (KeyedGame if transpositions else Game)(state.clone())


def solve(state, *, transpositions: bool = True, **options) -> dict:
    """Solves the OpenSpiel ``state`` (or a game's initial state) as
    :func:`pnlab.solve` does and returns its record: the question is about
    the player to move (``question="win"`` or ``"not-lose"``), the options
    are :func:`pnlab.solve`'s (``algo``, budgets, parameters)."""
    return _pnlab.solve(game(state, transpositions), **options)


def Search(state, *, transpositions: bool = True, **options) -> _pnlab.Search:  # noqa: N802
    """A :class:`pnlab.Search` on the OpenSpiel ``state`` (or a game's
    initial state), with :class:`pnlab.Search`'s options."""
    return _pnlab.Search(game(state, transpositions), **options)
