"""derive_call_directions decides a task's directions, builds its arguments and adds the buffers it
writes in one loop over the arguments (``analyze``), and follows an ``if``'s writes by what each
branch added to the seen buffers: the output equals the one of the decision made task by task
(``directions``, ``written_roots`` and the sets of buffers each body writes, as the pass did
before) on every example and golden program, the bench shapes, random programs and programs of
the directions grammar (two ``pl.Out`` parameters through if results, carries and copies)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program
from test_analysis_shortcuts import TaskByTaskDirections

from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.languages.statements import reusing_walks
from nanopass.languages.terms import ArgDir, LoopKind
from nanopass.passes.derive_call_directions import DeriveCallDirections
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext
from nanopass.tools.attack import directions as directions_grammar
from nanopass.tools.attack import program as attack_program
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses"]


class TaskByTask(TaskByTaskDirections):
    """The pass with each task decided by ``directions`` and each body's writes a set of its own."""

    def analyze(self, stmts, seq_depth):
        writes = set()
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                self.decided[id(stmt)] = self.directions(stmt, seq_depth)
                written = self.written_roots(stmt)
            elif kind in ("For", "While"):
                written = self.analyze(stmt.body, seq_depth + (kind == "While" or stmt.kind is LoopKind.seq))
            elif kind == "If":
                mark = len(self.added)
                written = self.analyze(stmt.then, seq_depth)
                self.unsee(mark)
                written |= self.analyze(stmt.orelse, seq_depth)
                self.unsee(mark)
            elif kind in ("Scope", "CompilerScope"):
                written = self.analyze(stmt.body, seq_depth)
            else:
                continue
            self.see(written)
            writes |= written
        return writes


def both_ways(path: Path):
    """The pass's output on its input in the compile of ``path``, and TaskByTask's."""
    stages = run_pipeline(load_program(path), stop_after="derive_call_directions")
    tree = stages[-2].tree
    with reusing_walks():
        fast = DeriveCallDirections(PassContext()).run(tree)
    with reusing_walks():
        slow = TaskByTask(PassContext()).run(tree)
    assert fast == stages[-1].tree
    return fast, slow


def dirs(tree) -> list:
    from nanopass.passes.util import iter_stmts

    return [a.dir for s in iter_stmts(tree.orch.body) if s._production == "Task" for a in s.args]


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_one_loop_decides_as_task_by_task_on_examples_and_golden_programs(path: Path):
    fast, slow = both_ways(path)
    assert fast == slow


def corpus(tmp_path: Path, seed: int, grammar, sizes, count: int) -> list[Path]:
    """The bench shapes (N = 24), 24 random programs (seeds from ``seed`` on) and ``count``
    programs of an attack grammar (``grammar.programs`` of ``sizes``, shuffled by ``seed``)."""
    paths = []
    for shape in SHAPES:
        paths.append(tmp_path / f"{shape}.py")
        paths[-1].write_text(source_of(shape, 24))
    for k in range(24):
        paths.append(tmp_path / f"random_{k}.py")
        paths[-1].write_text(generate(RandomChooser(seed + k), manual=k % 3 == 1).render())
    chosen = [prog for size in sizes for prog in grammar.programs(size, max_atoms=None, patterns=[])]
    random.Random(seed).shuffle(chosen)
    for k, prog in enumerate(chosen[:count]):
        paths.append(tmp_path / f"grammar_{k}.py")
        paths[-1].write_text(attack_program.render(prog).source)
    return paths


def test_one_loop_decides_as_task_by_task_on_shapes_random_and_directions_programs(tmp_path):
    paths = corpus(tmp_path, 3700, directions_grammar, (3,), 40)
    found = set()
    for path in paths:
        try:
            fast, slow = both_ways(path)
        except (UserError, PipelineError):
            continue  # (a program the compiler refuses before the pass)
        assert fast == slow, path.name
        found.update(dirs(fast))
    # the programs decide both ways an Out argument can go, and more
    assert {ArgDir.InOut, ArgDir.OutputExisting, ArgDir.Input, ArgDir.Scalar} <= found
