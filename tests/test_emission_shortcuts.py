"""lower_to_emission asks which outputs of a task the runtime allocates (``allocated_outs``)
only when its kernel has a result written to a parameter past the task's arguments
(``last_output_param``): on every example and golden program, the bench shapes and random
programs, the emission equals the one made with the question asked of every task, and the
shortcut is taken where no output is allocated (counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program

from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.pipeline import PipelineError
from nanopass.languages.statements import reusing_walks
from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses"]


def lowered_both_ways(path: Path):
    """The pass's output on its input in the compile of ``path``, with the shortcut and with
    every task asked."""
    stages = run_pipeline(load_program(path))
    tree = stages["encode_scalars"].tree
    with reusing_walks():
        fast = LowerToEmission(PassContext()).run(tree)
    with pytest.MonkeyPatch.context() as patch, reusing_walks():
        patch.setattr(lower_to_emission, "last_output_param", lambda kernel: 1 << 30)
        full = LowerToEmission(PassContext()).run(tree)
    assert fast == stages["lower_to_emission"].tree
    return fast, full


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_emission(path: Path):
    fast, full = lowered_both_ways(path)
    assert fast == full


def test_the_shortcut_changes_no_emission_of_a_shape_or_random_program(tmp_path):
    paths = []
    for shape in SHAPES:
        paths.append(tmp_path / f"{shape}.py")
        paths[-1].write_text(source_of(shape, 24))
    for seed in range(24):
        paths.append(tmp_path / f"random_{seed}.py")
        paths[-1].write_text(generate(RandomChooser(3600 + seed), manual=seed % 3 == 1).render())
    compiled = 0
    for path in paths:
        try:
            fast, full = lowered_both_ways(path)
        except PipelineError as error:  # (a random program the front end refuses, located)
            assert path.name.startswith("random_") and isinstance(error.__cause__, UserError), path.name
            continue
        assert fast == full, path.name
        compiled += 1
    assert compiled >= len(SHAPES) + 12


@pytest.mark.parametrize("name, asked", [("straight", False), ("runtime_outputs", True)])
def test_allocated_outputs_are_asked_only_of_kernels_that_may_have_them(tmp_path, monkeypatch, name, asked):
    calls = []
    original = LowerToEmission.allocated_outs
    monkeypatch.setattr(LowerToEmission, "allocated_outs", lambda self, task: calls.append(task) or original(self, task))
    if name in SHAPES:
        path = tmp_path / f"{name}.py"
        path.write_text(source_of(name, 8))
    else:
        path = EXAMPLES / f"{name}.py"
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
