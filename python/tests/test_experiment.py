"""`pnlab.experiment` returns the experiment's rows typed as the
experiment's own row structs are (ints, floats, None for an empty cell,
words as str), without an output folder; they are the rows of the CSV
that `pnlab experiment` writes (read here with Python's csv module and
typed independently), and its JSON summary."""

from __future__ import annotations

import csv
import json
import math

import pytest

import pnlab


def typed(cell: str):
    """A CSV cell typed independently of the module: empty is missing,
    then int, float, true/false, text."""
    if cell == "":
        return None
    for kind in (int, float):
        try:
            return kind(cell)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(cell, cell)


def same(a, cell: str) -> bool:
    """Whether the module's value `a` is what the CSV cell says. A real
    the CSV rounds to a fixed number of decimals is compared to within
    that rounding: Python gets the value itself, not its printed text."""
    b = typed(cell)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    if numbers and isinstance(a, float) and "." in cell and "e" not in cell.lower():
        decimals = len(cell.split(".")[1])
        return abs(a - b) <= 0.5 * 10.0**-decimals + 1e-12
    return a == b


def is_time(column: str) -> bool:
    # Wall-clock columns are the only ones two runs may disagree on.
    return "time" in column or column.endswith("_ms")


CASES = [
    ("deep-pn-sweep", dict(positions=3, empties=8, games="othello", r=[0.8, 0.4])),
    ("eps-sweep", dict(positions=2, empties=8, eps=[0.25, 1])),
]


@pytest.mark.parametrize("name,settings", CASES)
def test_records_are_the_rows_of_the_command_line_s_csv(cli, tmp_path, name, settings):
    args = ["experiment", name, "--out", str(tmp_path), "--quiet", "--seed", "7"]
    for k, v in settings.items():
        v = ",".join(map(str, v)) if isinstance(v, list) else str(v)
        args += ["--set", f"{k}={v}"]
    p = cli.run(*args)
    assert p.returncode == 0, p.stderr
    with open(tmp_path / f"{name}.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    result = pnlab.experiment(name, seed=7, **settings)
    assert len(result) == len(rows) > 0
    assert list(result[0]) == list(rows[0])
    for got, want in zip(result, rows):
        for column, cell in want.items():
            if not is_time(column):
                assert same(got[column], cell), (column, got[column], cell)
    with open(tmp_path / f"{name}.json") as f:
        summary = json.load(f)
    assert result.summary.keys() == summary.keys()
    assert result.summary["settings"] == summary["settings"]


def test_a_data_frame_and_files_on_request(tmp_path):
    pd = pytest.importorskip("pandas", reason="pandas is not installed in this environment")
    out = tmp_path / "sweep"
    seen = []
    result = pnlab.experiment(
        "deep-pn-sweep",
        out=out,
        progress=lambda d, t: seen.append((d, t)),
        positions=2,
        empties=6,
        games="othello",
        R=[0.5],
    )
    df = pd.DataFrame(result)
    assert set(df["algo"]) >= {"pns"} and len(df) == len(result)
    assert sorted(p.split("/")[-1] for p in result.outputs) == sorted(
        x.name for x in out.iterdir()
    )
    assert seen and seen[-1][0] == seen[-1][1]


def test_progress_true_draws_a_bar(capsys):
    pnlab.experiment("eps-sweep", progress=True, positions=1, empties=6, eps=[1])
    err = capsys.readouterr().err
    assert "eps-sweep" in err and "1/1" in err


def test_without_a_folder_the_rows_are_typed_values_in_memory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    eps = [0.25, 1]
    result = pnlab.experiment("eps-sweep", seed=3, positions=3, empties=8, eps=eps)
    # Nothing was written anywhere: no folder was given.
    assert result.outputs == []
    assert list(tmp_path.iterdir()) == []
    # One df-pn run and one run per ε for each of the 3 positions asked.
    assert len(result) == 3 * (1 + len(eps))
    assert sorted({r["instance"] for r in result}) == [0, 1, 2]
    for r in result:
        assert type(r["instance"]) is int
        assert type(r["iterations"]) is int and r["iterations"] > 0
        assert type(r["position"]) is str and type(r["outcome"]) is str
        if r["algo"] == "dfpn":
            assert r["eps"] is None
        else:
            assert type(r["eps"]) is float
    # The ε of the runs are the ε asked for, in order, for every position.
    for i in range(3):
        mine = [r["eps"] for r in result if r["instance"] == i]
        assert mine == [None, 0.25, 1.0]
    assert result.summary["settings"]["positions"] == 3
    assert result.columns["eps-sweep"][:4] == ["instance", "position", "algo", "eps"]


def test_a_sharded_run_needs_a_folder():
    with pytest.raises(pnlab.InputError, match="output folder"):
        pnlab.experiment("eps-sweep", shard=(1, 2), positions=2, empties=6, eps=[1])


def test_the_r_list_is_named_R_and_r_is_still_read_as_R():
    by_name = pnlab.experiment("deep-pn-sweep", positions=1, empties=6, games="othello", R=[0.5])
    by_alias = pnlab.experiment("deep-pn-sweep", positions=1, empties=6, games="othello", r=[0.5])
    assert by_name.summary["settings"]["R"] == by_alias.summary["settings"]["R"]
    # PNS once, then DeepPN at R = 0.5 in both forms.
    assert sorted(r["R"] for r in by_alias) == [0.5, 0.5, 1.0]
    assert [r["iterations"] for r in by_name] == [r["iterations"] for r in by_alias]
