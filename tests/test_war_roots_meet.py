"""``hazards.war_roots_meet``, the first test of ``unordered_war_possible``: roots read and written
as an unordered write-after-read pairs them, program order left out. It must never say no where
the walk in program order says yes (so ``unordered_war_possible`` answers as the walk alone did),
on hand-made programs, the corpus, the bench shapes and random programs; and on the shapes whose
tasks only read ``x`` and update ``y`` in place (nested, branches) it answers without that walk."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import CORPUS, SHAPES, bench_file, counting, pass_input, pass_inputs, random_file, running
from test_war import PRELUDE

from nanopass.languages.statements import iter_stmts
from nanopass.languages.terms import ScopeMode
from nanopass.passes import hazards
from nanopass.passes.kernels import kernel_table
from nanopass.passes.order_write_after_read import OrderWriteAfterRead

WAR = "order_write_after_read"


def answers(program) -> tuple[bool, bool, bool] | None:
    """(war_roots_meet, the walk's answer by roots in program order, unordered_war_possible) on
    ``program``'s function; None with a MANUAL scope (the pass does not ask there)."""
    func = program.orch
    if any(s._production == "Scope" and s.mode is ScopeMode.manual for s in iter_stmts(func.body)):
        return None
    untracked = hazards.untracked_roots(func)
    store = hazards.storage_map(func, kernel_table(program))
    return (
        hazards.war_roots_meet(func, store, untracked),
        hazards._write_after_read(func, store, untracked, hazards._ReadRoots),
        hazards.unordered_war_possible(func, store, untracked),
    )


def check_answers(path: Path) -> int:
    """On each program of ``path`` the pass is given: the first test is necessary, and
    ``unordered_war_possible`` is the walk's answer (roots, then regions); how many it asked on."""
    asked = 0
    for program in pass_inputs(path, WAR):
        found = answers(program)
        if found is None:
            continue
        meet, by_roots, possible = found
        assert by_roots <= meet, path.name
        func, untracked = program.orch, hazards.untracked_roots(program.orch)
        store = hazards.storage_map(func, kernel_table(program))
        walked = by_roots and hazards._write_after_read(func, store, untracked, hazards._ReadRegions)
        assert possible == walked, path.name
        asked += 1
    return asked


def program_of(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + textwrap.indent(textwrap.dedent(body), " " * 8))
    (program,) = pass_inputs(path, WAR, refusals=False)
    return program


# body -> (war_roots_meet, the walk by roots, unordered_war_possible); PRELUDE's read and write
# take an Input then an InOut tensor, touch two InOut ones, fill an Input and an Out one
CASES = {
    "an InOut write after an Input read": ("y = self.read(x, y)\nx = self.write(z, x)\nreturn x\n", (True, True, True)),
    "an InOut write before the Input read (order left out)": (
        "x = self.write(z, x)\ny = self.read(x, y)\nreturn x\n", (True, False, False)),
    "the read in one branch, the write in the other (order left out)": (
        "if n > 0:\n    y = self.read(x, y)\nelse:\n    x = self.write(z, x)\nreturn x\n", (True, False, False)),
    "only InOut accesses (the runtime orders them)": ("x, y = self.touch(x, y)\nx, y = self.touch(x, y)\nreturn x\n", (False, False, False)),
    "only Input reads of z, InOut updates of x and y": (
        "for i in pl.range(n):\n    x = self.write(z, x)\n    if n > i:\n        y = self.read(z, y)\nreturn x\n",
        (False, False, False)),
    "a host write after an InOut read": ("x, y = self.touch(x, y)\npl.tensor.write(x, [0, 0], 1.0)\nreturn x\n", (True, True, True)),
    "a host write of a tensor no task reads": ("pl.tensor.write(x, [0, 0], 1.0)\ny = self.read(z, y)\nreturn x\n", (False, False, False)),
    "a manual_dep tensor (untracked)": (
        "t = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)\n"
        "t = self.fill(z, t)\ny = self.read(t, y)\nt = self.write(z, t)\nreturn x\n", (False, False, False)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_first_test_on_hand_made_programs(tmp_path, name):
    body, expected = CASES[name]
    assert answers(program_of(tmp_path, body)) == expected


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_answer_is_the_walks_on_the_corpus(path: Path):
    check_answers(path)


def test_the_answer_is_the_walks_on_shapes_and_random_programs(tmp_path):
    paths = [bench_file(tmp_path, shape, size) for shape in SHAPES for size in (6, 24)]
    paths += [random_file(tmp_path, seed) for seed in range(4200, 4260)]
    assert sum(check_answers(path) for path in paths) >= len(SHAPES) * 2 + 30


@pytest.mark.parametrize("shape", ["nested", "branches"])
def test_no_walk_in_program_order_on_the_shapes_it_is_for(tmp_path, monkeypatch, shape):
    given = pass_input(bench_file(tmp_path, shape, 24), WAR)
    first = counting(monkeypatch, hazards, "war_roots_meet")
    walks = counting(monkeypatch, hazards, "_write_after_read")
    assert running(OrderWriteAfterRead)(given) is given  # (no edge added)
    assert len(first) == 1 and walks == []
