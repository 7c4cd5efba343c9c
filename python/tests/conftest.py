"""Shared fixtures: the command-line program the module is compared with.

The tests compare the module with the `pnlab` binary of the same checkout
(`cargo build --bins` makes target/debug/pnlab; CI builds it before
pytest runs). PNLAB_BIN names another binary. A missing binary fails the
tests that need it: it never skips them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli_path() -> Path:
    env = os.environ.get("PNLAB_BIN")
    if env:
        return Path(env)
    return ROOT / "target" / "debug" / "pnlab"


class Cli:
    """Runs the `pnlab` program and parses what it prints."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.path), *args], cwd=cwd, capture_output=True, text=True, timeout=600
        )

    def solve_json(self, *args: str) -> tuple[list[dict], list[str], int]:
        """`pnlab solve ARGS --json`: the records, the error messages (the
        text after `error: `), the exit status."""
        p = self.run("solve", *args, "--json")
        records = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
        errors = [
            line[len("error: ") :] for line in p.stderr.splitlines() if line.startswith("error: ")
        ]
        return records, errors, p.returncode


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = cli_path()
    if not path.is_file():
        pytest.fail(
            f"{path} is missing: build the command line first (`cargo build --bins`) "
            "or name it with PNLAB_BIN"
        )
    return Cli(path)


def without_time(record: dict) -> dict:
    """A record without its wall-clock field (the only one that may differ
    between two runs of the same search)."""
    return {k: v for k, v in record.items() if k != "time_ms"}


# The command line's flags and the keyword arguments Python says instead,
# for comparing messages: `--algo pns:` is `algo="pns":` from Python.
FLAG_WORDS = [
    ("--algo ", "algo="),
    ("--time-limit ", "time_limit="),
    ("--threads ", "threads="),
    ("--entry ", "entry="),
    ("--repetition:", "repetition:"),
    ("--game", "game="),
]


def python_words(cli_message: str) -> str:
    """A command-line error message as the module words it: each flag as
    its keyword argument, a text value quoted."""
    out = cli_message
    for flag, keyword in FLAG_WORDS:
        while flag in out:
            head, tail = out.split(flag, 1)
            if keyword.endswith("=") and flag.endswith(" "):
                value, rest = tail.split(":", 1)
                try:
                    float(value)
                    shown = value
                except ValueError:
                    shown = f'"{value}"'
                out = f"{head}{keyword}{shown}:{rest}"
            else:
                out = f"{head}{keyword}{tail}"
    return out
