"""pnlab: a laboratory for proof-number search, from Python.

The engine of the ``pnlab`` program (games, proof-number searches and their
relatives, certificates, the papers' experiments) as a module::

    >>> import pnlab
    >>> pnlab.solve(".........", game="tictactoe")["answer"]
    'not-win'

Every function goes through the same engine code as the command line, so
``solve`` returns the fields of ``pnlab solve --json`` and ``experiment``
the rows of the CSV that ``pnlab experiment`` writes. A position is
notation (with ``game``), a file, a :class:`Position`, or a game written
in Python (any object with ``legal_moves``, ``play``, ``is_terminal`` and
``result``: the game protocol of docs/python.md); ``pnlab.openspiel``
searches OpenSpiel's games. Long calls release the
interpreter and stop on Ctrl-C (``KeyboardInterrupt``); bad input raises
:class:`InputError`, a ``ValueError`` with the command line's located
message (``FILE:LINE:COL: what was expected``). See docs/python.md.
"""

from __future__ import annotations

import os
import sys

from . import _pnlab
from ._pnlab import (
    DEFAULT_ALGO,
    InputError,
    Position,
    Search,
    __version__,
    algorithms,
    experiments,
    games,
    perft,
    solve,
    verify,
    verify_file,
)

__all__ = [
    "DEFAULT_ALGO",
    "ExperimentResult",
    "InputError",
    "Position",
    "Search",
    "__version__",
    "algorithms",
    "experiment",
    "experiments",
    "games",
    "perft",
    "solve",
    "solve_file",
    "verify",
    "verify_file",
]


class _TextBar:
    """A one-line progress bar on standard error, for when tqdm is absent."""

    def __init__(self, desc: str) -> None:
        self.desc = desc
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        sys.stderr.write(
            f"\r{self.desc}: [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        )
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()


class _TqdmBar:
    """tqdm's bar (``tqdm.auto``: a widget in notebooks, text in a terminal);
    an experiment may run several job lists, each gets its own bar."""

    def __init__(self, tqdm, desc: str) -> None:
        self.tqdm = tqdm
        self.desc = desc
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None or self.bar.total != total or done < self.bar.n:
            self.close()
            self.bar = self.tqdm(total=total, desc=self.desc, unit="job")
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _progress(progress, desc: str):
    """``progress`` as a ``(callback, closer)`` pair: ``False``/``None`` for
    none, ``True`` for tqdm's bar when tqdm is installed (else a text bar on
    standard error), or a callable ``progress(done, total)``."""
    if not progress:
        return None, lambda: None
    if callable(progress):
        return progress, lambda: None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        bar = _TextBar(desc)
    else:
        bar = _TqdmBar(tqdm, desc)
    return bar, bar.close


def solve_file(path, *args, progress=False, **kwargs) -> list:
    """Solves every position of a file in file order; returns one record
    (the fields of ``pnlab solve --json``) per position. Takes the options
    of :func:`solve`; ``progress=True`` shows a bar (tqdm when installed),
    a callable gets ``(done, total)`` after each position."""
    callback, close = _progress(progress, "solve")
    try:
        return _pnlab.solve_file(path, *args, progress=callback, **kwargs)
    finally:
        close()


class ExperimentResult(list):
    """The per-run records of an experiment: the rows of its first table
    (its first CSV file) as dicts of typed values, ready for
    ``pandas.DataFrame(result)``.

    Attributes:
        name: the experiment.
        summary: its JSON summary as a dict (the first JSON file it writes).
        summaries: every JSON summary, by name.
        tables: every table (CSV file), by name, as lists of row dicts
            (some experiments write more than one: ``pgame-compare`` its runs
            and its error curve).
        outputs: the files written (empty when ``out`` was not given).
        text: the summary table the command line prints.
    """

    def __init__(self, name: str, raw: dict) -> None:
        tables = raw["tables"]
        super().__init__(tables[0]["rows"] if tables else [])
        self.name = name
        self.tables = {t["name"]: t["rows"] for t in tables}
        self.columns = {t["name"]: t["columns"] for t in tables}
        self.summaries = raw["summaries"]
        self.summary = next(iter(self.summaries.values()), {})
        self.outputs = raw["outputs"]
        self.text = raw["text"]

    def __repr__(self) -> str:
        return f"<pnlab.ExperimentResult {self.name}: {len(self)} records>"


def _shard(shard):
    if shard is None:
        return None
    if isinstance(shard, str):
        k, sep, n = shard.partition("/")
        try:
            return int(k), int(n)
        except ValueError:
            raise InputError(f"shard={shard!r}: expected 'K/N' with 1 ≤ K ≤ N") from None
    k, n = shard
    return int(k), int(n)


def experiment(
    name: str,
    *,
    jobs: int = 1,
    seed: int = 0,
    shard=None,
    out=None,
    progress=False,
    **settings,
) -> ExperimentResult:
    """Runs one of the papers' experiments as ``pnlab experiment NAME`` does
    and returns its per-run records (:class:`ExperimentResult`).

    ``settings`` are the experiment's ``--set NAME=VALUE`` settings as
    keyword arguments (lists for list settings, e.g. ``R=[0.5, 0.65]``);
    :func:`experiments` lists them with their ranges and defaults. ``jobs``
    runs jobs in parallel, ``shard=(K, N)`` or ``"K/N"`` runs the K-th of N
    slices (it needs ``out``: a shard's job file is what a merge reads).
    The records are typed as the experiment's rows are (ints, floats,
    None for an empty cell, words as str) and stay in memory; ``out``
    also writes the CSV and JSON files into that folder, as ``pnlab
    experiment --out`` does (only when the run completes). ``progress=True`` shows a bar (tqdm when
    installed), a callable gets ``(done, total)`` as jobs finish. Ctrl-C
    stops the run after the jobs under way and raises KeyboardInterrupt.
    """
    callback, close = _progress(progress, name)
    try:
        raw = _pnlab.run_experiment(
            name,
            None if out is None else os.fspath(out),
            jobs=jobs,
            seed=seed,
            shard=_shard(shard),
            progress=callback,
            **settings,
        )
        return ExperimentResult(name, raw)
    finally:
        close()
