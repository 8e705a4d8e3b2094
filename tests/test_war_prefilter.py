"""``hazards.unordered_war_possible``, the proof order_write_after_read makes before its walk in
a function without MANUAL scopes: its answer on hand-made programs (each way, and each of its two
phases, roots then regions, deciding), and that it is a necessary condition (where it says no, the
full walk finds no pair that needs an edge) on the corpus, the bench shapes and random programs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import CORPUS, SHAPES, bench_file, pass_inputs, random_file
from test_war import PRELUDE

from nanopass.languages.statements import iter_stmts
from nanopass.languages.terms import ScopeMode
from nanopass.passes import hazards
from nanopass.passes.kernels import kernel_table
from nanopass.passes.order_write_after_read import needs_edge

WAR = "order_write_after_read"


def answers(program) -> tuple[bool, bool, bool] | None:
    """(unordered_war_possible, its roots phase, the full walk's verdict) on ``program``'s
    function; None with a MANUAL scope (the pass does not ask there)."""
    func = program.orch
    if any(s._production == "Scope" and s.mode is ScopeMode.manual for s in iter_stmts(func.body)):
        return None
    kernels, untracked = kernel_table(program), hazards.untracked_roots(func)
    store = hazards.storage_map(func, kernels)
    possible = hazards.unordered_war_possible(func, store, untracked)
    by_roots = hazards._write_after_read(func, store, untracked, hazards._ReadRoots)
    walk = hazards.find_hazards(func, kernels, untracked, track_writes=False, keep=needs_edge, store=store)
    return possible, by_roots, bool(walk.pairs)


def program_of(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + textwrap.indent(textwrap.dedent(body), " " * 8))
    (program,) = pass_inputs(path, WAR, refusals=False)
    return program


# body -> (possible, by roots alone, the walk finds a pair)
CASES = {
    "an InOut write after an Input read": ("y = self.read(x, y)\nx = self.write(z, x)\nreturn x\n", (True, True, True)),
    "a host write after an InOut read (which the runtime orders)": (
        "x, y = self.touch(x, y)\npl.tensor.write(x, [0, 0], 1.0)\nreturn x\n", (True, True, False)),
    "a host write before an InOut read": ("pl.tensor.write(x, [0, 0], 1.0)\nx, y = self.touch(x, y)\nreturn x\n", (False, False, False)),
    "an InOut write after an InOut read (the runtime's)": (
        "x, y = self.touch(x, y)\nx = self.write(z, x)\nreturn x\n", (False, False, False)),
    "a write before the read": ("x = self.write(z, x)\ny = self.read(x, y)\nreturn x\n", (False, False, False)),
    "a read in one branch, the write in the other": (
        "if n > 0:\n    y = self.read(x, y)\nelse:\n    x = self.write(z, x)\nreturn x\n", (False, False, False)),
    "a read in a branch, the write after the if": (
        "if n > 0:\n    y = self.read(x, y)\nelse:\n    y = self.write(z, y)\nx = self.write(z, x)\nreturn x\n",
        (True, True, True)),
    "a read after the write in a loop (a later iteration)": (
        "for i in pl.range(n):\n    x = self.write(z, x)\n    y = self.read(x, y)\nreturn x\n", (True, True, True)),
    "disjoint constant boxes (roots say yes, regions no)": (
        "top = pl.tensor.slice(x, [8, 16], [0, 0])\nbottom = pl.tensor.slice(x, [8, 16], [8, 0])\n"
        "s = pl.create_tensor([8, 16], dtype=pl.FP32)\ns = self.half(top, s)\nbottom = self.half(s, bottom)\nreturn x\n",
        (False, True, False)),
    "a manual_dep tensor (untracked)": (
        "t = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)\n"
        "t = self.fill(z, t)\ny = self.read(t, y)\nt = self.write(z, t)\nreturn x\n", (False, False, False)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_proof_on_hand_made_programs(tmp_path, name):
    body, expected = CASES[name]
    assert answers(program_of(tmp_path, body)) == expected


def check_necessary(path: Path) -> int:
    """Asks on each program of ``path`` the pass is given; how many it asked on."""
    asked = 0
    for program in pass_inputs(path, WAR):
        found = answers(program)
        if found is None:
            continue
        possible, by_roots, paired = found
        assert possible <= by_roots and paired <= possible, path.name
        asked += 1
    return asked


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_a_necessary_condition_on_the_corpus(path: Path):
    check_necessary(path)
    for program in pass_inputs(path, WAR):  # (and the pass's one walk for its scopes and untracked roots)
        func = program.orch
        manual = any(s._production == "Scope" and s.mode is ScopeMode.manual for s in iter_stmts(func.body))
        assert hazards.untracked_unless_manual(func) == (None if manual else hazards.untracked_roots(func))


def test_a_necessary_condition_on_shapes_and_random_programs(tmp_path):
    paths = [bench_file(tmp_path, shape, size) for shape in SHAPES for size in (6, 24)]
    paths += [random_file(tmp_path, seed) for seed in range(4100, 4140)]
    assert sum(check_necessary(path) for path in paths) >= len(SHAPES) * 2 + 20


@pytest.mark.parametrize("shape", ["straight", "nested", "mixed"])
def test_the_proof_holds_on_the_shapes_it_is_for(tmp_path, shape):
    (program,) = pass_inputs(bench_file(tmp_path, shape, 24), WAR, refusals=False)
    assert answers(program)[0] is False
