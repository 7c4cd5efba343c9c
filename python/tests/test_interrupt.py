"""Ctrl-C stops a long call promptly. Each case runs in a child Python
that starts a search which would run for hours (or a lot longer), gets
SIGINT once it has started, and must end with KeyboardInterrupt well
before the search could have finished; the bound is generous (a check for
"stops at all, soon", not a speed measurement)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

# Whole-board Connect Four and 8×8 Hex: far beyond any budget here.
CASES = {
    "solve": 'pnlab.solve("", game="connect4", algo="pns")',
    "search-run": textwrap.dedent(
        """
        s = pnlab.Search("8:", game="hex", algo="pns")
        try:
            s.run()
        except KeyboardInterrupt:
            # The search stays where it was and goes on stepping.
            it = s.iterations
            assert it > 0 and s.status == "running", (it, s.status)
            assert s.step(10) == "running" and s.iterations == it + 10
            raise
        """
    ),
    "search-step": 's = pnlab.Search("", game="connect4", algo="dfpn"); s.step(10**12)',
    # An experiment stops between jobs (the jobs under way finish): many
    # short jobs.
    "experiment": 'pnlab.experiment("eps-sweep", positions=100000, empties=10, eps=[0.5])',
}

PROMPT = 20.0  # seconds from the signal to the end of the child


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_interrupts_promptly(case):
    body = textwrap.indent(textwrap.dedent(CASES[case]).strip(), "    ")
    # A child started from a background job inherits SIGINT ignored, and
    # Python then leaves it ignored; the child asks for Python's handler
    # as an interactive session has it.
    script = (
        "import signal, sys, pnlab\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('started', flush=True)\n"
        f"try:\n{body}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(0)\n"
        "print('finished', flush=True)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(1.0)  # well inside the search
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=PROMPT)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.strip() == "interrupted", (out, err)
    assert child.returncode == 0, err
    assert took < PROMPT
