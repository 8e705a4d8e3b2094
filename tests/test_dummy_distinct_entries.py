"""A ``pl.system.task_dummy`` whose dependencies name one TaskId through several names (the name
twice, a copy of it, one array slot twice, a copy of a copy, a carry of a ``pl.parallel`` loop
and its init) has one entry: it is not submitted, its TaskId is that entry's (docs/semantics.md,
the one-entry rule). The C++ has always put such an entry in the barrier's array once
(resolve_dep_edges: one edge per storage and slot); the reference interpreter counted each name,
submitted a dummy the C++ never submits, and ``nanopass check`` reported a trace mismatch (found
by fuzz_frontend --runs on a mutant of tests/golden/tid_sources.py). Names that only happen to
hold one task (a slot snapshot beside the slot, a barrier beside the task it stands for) stay
two entries in both: the barrier is submitted."""

from __future__ import annotations

import pytest

from conftest import GOLDEN, load_program

from nanopass.tools.check import check_program

HEAD = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            y, first = pl.submit(self.step, x, y, deps=[])
            tids = pl.array.create(2, pl.TASK_ID)
            tids[0] = first
'''

# name -> (the statements after HEAD's, ending in the submit of ``last``; the deps of each dummy
# task submitted, in order; the deps of ``last``), task ids as submitted: ``first`` is 0
CASES = {
    "the name twice": ("""
b = pl.system.task_dummy(deps=[first, first])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "a copy beside its source": ("""
chosen = first
b = pl.system.task_dummy(deps=[chosen, first])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "a copy, None and the source": ("""
seed = None
chosen = first
b = pl.system.task_dummy(deps=[seed, chosen, first])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "one array slot twice": ("""
b = pl.system.task_dummy(deps=[tids[0], tids[0]])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "a whole array twice": ("""
b = pl.system.task_dummy(deps=[tids, tids])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "a copy of a slot snapshot and the snapshot": ("""
snap = tids[0]
again = snap
b = pl.system.task_dummy(deps=[snap, again])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (0,)),
    "a copy of a loop's carry result and the result": ("""
prev = first
for i in pl.range(n):
    y, prev = pl.submit(self.step, x, y, deps=[prev])
other = prev
b = pl.system.task_dummy(deps=[other, prev])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [], (4,)),
    # every iteration of a pl.parallel loop in a manual scope sees the carry's init: one entry
    "a pl.parallel carry and its init": ("""
prev = first
for i in pl.parallel(4):
    b = pl.system.task_dummy(deps=[prev, first])
    y, prev = pl.submit(self.step, x, y, deps=[b])
y, last = pl.submit(self.step, x, y, deps=[prev])
""", [], (1, 2, 3, 4)),
    "one entry and an empty dummy": ("""
b = pl.system.task_dummy(deps=[first])
empty = pl.system.task_dummy(deps=[])
y, last = pl.submit(self.step, x, y, deps=[b, empty])
""", [()], (0, 1)),
    # two names holding one task: two entries, the barrier is submitted
    "a slot and the task it holds": ("""
b = pl.system.task_dummy(deps=[tids[0], first])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [(0,)], (1,)),
    "a slot snapshot and the slot": ("""
snap = tids[0]
b = pl.system.task_dummy(deps=[snap, tids[0]])
y, last = pl.submit(self.step, x, y, deps=[b])
""", [(0,)], (1,)),
    # nested: the inner barrier (one entry) is ``first``'s TaskId under its own name
    "a one-entry barrier beside the task it stands for": ("""
chosen = first
inner = pl.system.task_dummy(deps=[chosen, first])
outer = pl.system.task_dummy(deps=[inner, chosen])
y, last = pl.submit(self.step, x, y, deps=[outer])
""", [(0,)], (1,)),
    "copies of a barrier of copies": ("""
b1 = pl.system.task_dummy(deps=[first, first])
b2 = pl.system.task_dummy(deps=[b1, b1])
b3 = b2
b4 = pl.system.task_dummy(deps=[b3, b2, first])
y, last = pl.submit(self.step, x, y, deps=[b4])
""", [(0,)], (1,)),
}


def dummies_and_last(trace) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The fanins of each dummy task and of the last task (the runtime drops a duplicate fanin)."""
    tasks = trace.tasks()
    return [tuple(sorted(set(t.deps))) for t in tasks if t.kind == "dummy"], tuple(sorted(set(tasks[-1].deps)))


@pytest.mark.parametrize("name", list(CASES))
def test_a_dummy_counts_each_taskid_its_dependencies_name_once(name, tmp_path):
    body, dummies, last = CASES[name]
    path = tmp_path / "program.py"
    path.write_text(HEAD + "".join(" " * 12 + line + "\n" for line in body.strip("\n").splitlines()) + "        return y\n")
    result = check_program(load_program(path), {"n": "4"}, gxx=name == "a copy beside its source")
    assert result.failing == []
    assert dummies_and_last(result.reference) == (dummies, last)
    assert dummies_and_last(result.emission) == (dummies, last)


def test_the_tid_sources_mutant_of_the_fuzzer_checks(tmp_path):
    """tid_sources with ``chosen = fourth`` for the if: ``barrier`` is ``fourth``'s TaskId (no
    dummy), ``empty`` is submitted, and ``last`` waits for both."""
    source = (GOLDEN / "tid_sources.py").read_text()
    branch = """\
            if n > 3:
                y, chosen = pl.submit(self.step, x, y, deps=[third])
            else:
                chosen = fourth
"""
    assert branch in source
    mutant = source.replace(branch, "            chosen = fourth\n")
    path = tmp_path / "tid_sources_mutant.py"
    path.write_text(mutant)
    result = check_program(load_program(path), {"n": "16"})
    for trace in (result.reference, result.emission):
        tasks = trace.tasks()
        fourth, empty, last = tasks[-3:]
        assert (fourth.kind, empty.kind, last.kind) == ("kernel", "dummy", "kernel")
        assert empty.deps == () and sorted(set(last.deps)) == [fourth.id, empty.id]
