"""A seed names one program of the scalars grammar in every process, whatever the hash seed
(tools/attack/scalars.py picked a comparison's dtype from a set's order: RUNS.md, "Printed IR
(session 23)")."""

from __future__ import annotations

import os
import subprocess
import sys

PRINT_PROGRAMS = ("from nanopass.tools.attack import scalars as SC; "
                  "print(repr([SC.generate(s) for s in range(40)]))")


def programs_under(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", PRINT_PROGRAMS], env=env, check=True,
                          capture_output=True, text=True).stdout


def test_the_programs_of_a_seed_do_not_depend_on_the_hash_seed():
    first = programs_under("1")
    assert "Program(" in first and first == programs_under("2") == programs_under("3")
