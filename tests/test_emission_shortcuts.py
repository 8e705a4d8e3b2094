"""lower_to_emission asks which outputs of a task the runtime allocates (``allocated_outs``)
only when its kernel has a result written to a parameter past the task's arguments
(``last_output_param``): on every example and golden program, the bench shapes and random
programs, the emission equals the one made with the question asked of every task, and the
shortcut is taken where no output is allocated (counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, EXAMPLES_AND_GOLDEN, SHAPES, bench_file, load_program, pass_runs, run_both_ways, running, sample_paths

from nanopass.api import run_pipeline
from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission


def lowered_both_ways(path: Path, refusals: bool = False) -> list[tuple]:
    """The pass's output on its input in the compile of ``path``, with the shortcut and with
    every task asked (none for a program refused, located, where ``refusals``)."""
    out = []
    for given, compiled in pass_runs(path, "lower_to_emission", refusals=refusals):
        fast, full = run_both_ways(running(LowerToEmission), given,
                                   [(lower_to_emission, "last_output_param", lambda kernel: 1 << 30)])
        assert fast == compiled
        out.append((fast, full))
    return out


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_emission(path: Path):
    ((fast, full),) = lowered_both_ways(path)
    assert fast == full


def test_the_shortcut_changes_no_emission_of_a_shape_or_random_program(tmp_path):
    compiled = 0
    for path in sample_paths(tmp_path, SHAPES, 24, range(3600, 3624), manual=lambda seed: seed % 3 == 1):
        for fast, full in lowered_both_ways(path, refusals=path.name.startswith("random_")):
            assert fast == full, path.name
            compiled += 1
    assert compiled >= len(SHAPES) + 12


@pytest.mark.parametrize("name, asked", [("straight", False), ("runtime_outputs", True)])
def test_allocated_outputs_are_asked_only_of_kernels_that_may_have_them(tmp_path, monkeypatch, name, asked):
    calls = []
    original = LowerToEmission.allocated_outs
    monkeypatch.setattr(LowerToEmission, "allocated_outs", lambda self, task: calls.append(task) or original(self, task))
    path = bench_file(tmp_path, name, 8) if name in SHAPES else EXAMPLES / f"{name}.py"
    stages = run_pipeline(load_program(path))
    assert bool(calls) is asked
    assert any(s._production == "BindRef" and "_outs" in s.source for s in emission_stmts(stages[-1].tree.body)) is asked


def emission_stmts(body) -> list:
    """Every statement of an emission body, nested blocks included, in order."""
    out, stack = [], list(reversed(body))
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        for field in ("body", "then", "orelse"):
            stack.extend(reversed(getattr(stmt, field, ())))
    return out
