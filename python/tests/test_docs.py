"""The examples of docs/python.md run as written: every ```python block is a
complete script, run on its own in a fresh interpreter (in an empty
folder, with matplotlib drawing to files)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), flags=re.S | re.M)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_example_runs_as_written(k, tmp_path):
    code = BLOCKS[k]
    for module in ("pandas", "matplotlib", "tqdm"):
        if re.search(rf"^\s*(import|from) {module}\b", code, flags=re.M):
            pytest.importorskip(module, reason=f"example {k + 1} needs {module}, not installed here")
    env = dict(os.environ, MPLBACKEND="Agg")
    p = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=900,
    )
    assert p.returncode == 0, f"example {k + 1} failed:\n{code}\n--- stderr:\n{p.stderr}"
    # An example that saves a figure leaves a non-empty file.
    for name in re.findall(r"savefig\(\"([^\"]+)\"", code):
        assert (tmp_path / name).stat().st_size > 0, name
