"""Type stubs of the pnlab module (see docs/python.md)."""

import os
from typing import Any, Callable, Literal, Optional, Protocol, TypedDict, Union, overload

__version__: str
DEFAULT_ALGO: str

PathLike = Union[str, os.PathLike[str]]
Question = Literal["win", "not-lose"]
Status = Literal["running", "proved", "disproved", "unknown"]
Outcome = Literal["proved", "disproved", "unknown"]
ParamValue = Union[int, float, str, bool, list[Union[int, float, str]]]
Progress = Union[bool, None, Callable[[int, int], object]]

class Game(Protocol):
    """The game protocol: any object with these methods is a position pnlab
    searches (see docs/python.md). Optional: ``to_move() -> 0 | 1`` (turns
    alternate from the first player without it), ``key()`` (an int, str,
    bytes or tuple of them telling positions apart, for transposition
    tables), ``move_name(move) -> str``, ``evaluate() -> int``."""

    def legal_moves(self) -> Any: ...
    def play(self, move: Any) -> "Game": ...
    def is_terminal(self) -> bool: ...
    def result(self) -> Union[int, float]: ...

class Position:
    """A position of one of pnlab's games, immutable."""

    def __init__(self, game: str, notation: str) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def notation(self) -> str: ...
    def legal_moves(self) -> list[str]: ...
    def play(self, move: str) -> "Position":
        """The position after ``move``; this one is unchanged."""
    def child(self, move: str) -> "Position": ...
    def is_terminal(self) -> bool: ...
    def result(self) -> Optional[int]:
        """First player's view: > 0 a first-player win, None while going on."""
    def to_move(self) -> int: ...
    def key(self) -> int: ...
    def to_svg(self) -> str: ...
    def _repr_svg_(self) -> str: ...

AnyPosition = Union[PathLike, Position, Game]

class InputError(ValueError):
    """Bad input: the message is the command line's, located as
    FILE:LINE:COL where the input has a place."""

class ParamDescription(TypedDict):
    name: str
    kind: Literal["real", "integer", "choice", "real-or-auto", "list", "text"]
    default: Union[int, float, str]
    min: Optional[Union[int, float]]
    max: Optional[Union[int, float]]
    options: Optional[list[str]]
    item: Optional[Literal["real", "integer", "choice"]]
    range: str
    help: str

class GameDescription(TypedDict):
    name: str
    summary: str

class AlgorithmDescription(TypedDict):
    name: str
    summary: str
    params: list[ParamDescription]
    # Parameters taken only on some games' positions, by game name.
    game_params: dict[str, list[ParamDescription]]

class ExperimentDescription(TypedDict):
    name: str
    summary: str
    settings: list[ParamDescription]

class Expected(TypedDict, total=False):
    result: str
    value: int
    best_moves: list[str]

class SolveRecord(TypedDict, total=False):
    """The fields of ``pnlab solve --json``; algorithm-specific fields
    (``value``, ``nodes_visited``, ``curve``, …) may follow."""

    name: str
    game: str
    position: str
    algo: str
    params: dict[str, Union[int, float, str]]
    seed: int
    question: Question
    within: int
    repetition: str
    outcome: Outcome
    answer: str
    best_move: Optional[str]
    iterations: int
    nodes_created: int
    nodes_expanded: int
    max_depth: int
    seesaw_root_switches: int
    seesaw_switches: int
    revisits: int
    time_ms: float
    peak_tree_bytes: int
    stop_reason: str
    playouts: int
    expected: Expected
    proof_file: str
    proof_positions: int
    value: Any

class Counters(TypedDict):
    iterations: int
    nodes_created: int
    nodes_expanded: int
    max_depth: int
    seesaw_root_switches: int
    seesaw_switches: int
    revisits: int
    time_ms: float
    peak_tree_bytes: int
    live_nodes: int
    playouts: int

class Verdict(TypedDict, total=False):
    valid: bool
    answer: str
    positions: int
    path: list[str]
    reason: str

def games() -> list[GameDescription]:
    """The games: name (``game=``) and one line on the game and its inline
    notation."""

def algorithms() -> list[AlgorithmDescription]:
    """The algorithms (``algo=``) with their parameters: kind, range,
    default and help, from the description the command line uses."""

def experiments() -> list[ExperimentDescription]:
    """The experiments (``experiment(name)``) with their settings."""

def solve(
    position: AnyPosition,
    game: Optional[str] = None,
    algo: str = "pns",
    question: Question = "win",
    within: Optional[int] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    seed: int = 0,
    *,
    max_iterations: Optional[int] = None,
    memory: Optional[int] = None,
    threads: Optional[int] = None,
    repetition: Optional[str] = None,
    entry: Optional[int] = None,
    proof: Optional[PathLike] = None,
    certify: bool = False,
    **params: ParamValue,
) -> SolveRecord:
    """Solves one position and returns the record ``pnlab solve --json``
    prints for it.

    ``position`` is inline notation (with ``game``) or a file holding one
    position (``entry=K``, 1-based, picks one of several); a path of the
    bundled ``positions/`` folder works from anywhere. ``question`` asks
    whether the side to move wins or at least draws; ``within`` limits the
    attacker to N of its own moves. Budgets (``max_nodes``,
    ``max_iterations``, ``time_limit`` in seconds, ``memory`` in MiB) stop
    the search as ``unknown`` with its ``stop_reason``. ``params`` are the
    algorithm's parameters (see :func:`algorithms`). ``proof`` writes the
    certificate of a solved position to that file. Raises
    :class:`InputError` for bad input; Ctrl-C raises KeyboardInterrupt.
    """

def solve_file(
    path: PathLike,
    game: Optional[str] = None,
    algo: str = "pns",
    question: Question = "win",
    within: Optional[int] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    seed: int = 0,
    *,
    max_iterations: Optional[int] = None,
    memory: Optional[int] = None,
    threads: Optional[int] = None,
    repetition: Optional[str] = None,
    proof: Optional[PathLike] = None,
    certify: bool = False,
    progress: Progress = False,
    **params: ParamValue,
) -> list[SolveRecord]:
    """Solves every position of a file, in file order (the options of
    :func:`solve`); ``progress=True`` shows a bar."""

class Search:
    """A search on one position, stepped from Python. Takes the arguments
    of :func:`solve`; nothing runs until :meth:`step` or :meth:`run`."""

    def __init__(
        self,
        position: AnyPosition,
        game: Optional[str] = None,
        algo: str = "pns",
        question: Question = "win",
        within: Optional[int] = None,
        max_nodes: Optional[int] = None,
        time_limit: Optional[float] = None,
        seed: int = 0,
        *,
        max_iterations: Optional[int] = None,
        memory: Optional[int] = None,
        threads: Optional[int] = None,
        repetition: Optional[str] = None,
        entry: Optional[int] = None,
        certify: bool = False,
        **params: ParamValue,
    ) -> None: ...
    def step(self, n: int = 1) -> Status:
        """Runs ``n`` iterations (fewer if the search ends first); returns
        the status. Budgets apply to :meth:`run`, not here."""
    def run(
        self,
        until: Union[None, int, Callable[["Search"], object]] = None,
        *,
        max_iterations: Optional[int] = None,
        max_nodes: Optional[int] = None,
        time_limit: Optional[float] = None,
        memory: Optional[int] = None,
    ) -> Status:
        """Steps until the search ends or a budget runs out, as
        :func:`solve` does; ``until`` stops earlier, at that iteration (an
        int) or once ``until(search)`` is true (asked after every step).
        The budget arguments replace the constructor's: a search paused by
        its budget goes on with a larger one. Ctrl-C raises
        KeyboardInterrupt and leaves the search resumable."""
    @property
    def status(self) -> Status: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def stop_reason(self) -> Optional[str]: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def counters(self) -> Counters: ...
    @property
    def value_names(self) -> list[str]:
        """The per-node values of this algorithm: ``pn``, ``dn``, ``deep``,
        ``dpn``, ``ppn``, ``visits``, …"""
    @property
    def algo(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def position(self) -> str: ...
    def record(self) -> SolveRecord:
        """The record :func:`solve` would return if the search stopped here."""
    @overload
    def snapshot(
        self,
        max_nodes: int = 2000,
        max_depth: int = 6,
        nested: Literal[False] = False,
        columns: Literal[False] = False,
    ) -> list[dict[str, Any]]: ...
    @overload
    def snapshot(
        self, max_nodes: int = 2000, max_depth: int = 6, *, nested: Literal[True]
    ) -> dict[str, Any]: ...
    @overload
    def snapshot(
        self, max_nodes: int = 2000, max_depth: int = 6, *, columns: Literal[True]
    ) -> dict[str, Any]:
        """One array per field (numpy arrays when numpy is installed)."""
    def to_svg(self, max_depth: int = 6, max_nodes: int = 2000) -> str:
        """The tree as ``pnlab solve --export tree.svg`` draws it."""
    def to_dot(self, max_depth: int = 6, max_nodes: int = 2000) -> str:
        """The tree as Graphviz DOT."""
    def _repr_svg_(self) -> str: ...
    def __copy__(self) -> "Search": ...
    def __deepcopy__(self, memo: Any) -> "Search": ...
    def most_proving_path(self) -> list[str]:
        """The moves from the root to the node the search expands next."""
    def proof(self) -> str:
        """The certificate of a solved search, as text :func:`verify` checks."""

def perft(game: str, position: str, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies from ``position``."""

def verify(text: str, name: str = "<text>") -> Verdict:
    """Checks a certificate with the game rules alone."""

def verify_file(path: PathLike) -> Verdict:
    """:func:`verify` of a certificate file."""

class ExperimentResult(list[dict[str, Any]]):
    """The per-run records of an experiment (its first CSV table)."""

    name: str
    summary: dict[str, Any]
    summaries: dict[str, dict[str, Any]]
    tables: dict[str, list[dict[str, Any]]]
    columns: dict[str, list[str]]
    outputs: list[str]
    text: str

def experiment(
    name: str,
    *,
    jobs: int = 1,
    seed: int = 0,
    shard: Union[None, str, tuple[int, int]] = None,
    out: Optional[PathLike] = None,
    progress: Progress = False,
    **settings: ParamValue,
) -> ExperimentResult:
    """Runs one of the papers' experiments as ``pnlab experiment NAME``
    does; returns its per-run records."""
