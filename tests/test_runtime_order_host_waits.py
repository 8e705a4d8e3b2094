"""What `passes/runtime_order.py` takes a host element access to wait for, against runtime-api.md
section 11, where the lean passes drop an edge on the strength of it.

`get_tensor_data` spin-waits until the creator and every overlapping TensorMap producer of the
Tensor passed complete; `set_tensor_data` also waits for each producer's consumers. runtime_order
assumes the facts of the name accessed (its creator and the producers whose entries cover the
whole tensor) and those of the slices of it (at offsets the analysis knows) that hold the
element, outside a MANUAL scope, and of a host write the consumers of the producers it follows
(``_Walker.producers``: a task that looked the tensor up, or waited on the producer's TaskId,
before the producer's scope ended); the hazard checker's runtime model (`tools/runtime_model.py`)
waits for the consumers too. Each program below has a task `step(x, y)` reading `x` before the host access and
a writer of `x` after it: the write-after-read edge is implied exactly when the access waited
for the reader. The counts pin where the lean passes drop it (the access waits for that task)
and where they keep it (a view, rows a task wrote through another
name that do not hold the element, a rebound name, a MANUAL scope, a read nothing uses,
which remove_dead_values removes); the checker runs on both compilations for trip counts 0 to 3."""

from __future__ import annotations

import pytest

T = "pl.Tensor[[16, 16], pl.FP32]"
H = "pl.Tensor[[8, 16], pl.FP32]"
HEAD = f'''import nanopass.dsl as pl


@pl.program
class HostWaits:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: {T}, y: pl.InOut[{T}]) -> {T}:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def make(self, x: {T}, out: pl.Out[{T}]) -> {T}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def half(self, x: {T}, y: pl.InOut[{H}]) -> {H}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[{T}], y: pl.InOut[{T}], z: pl.InOut[{T}], w: pl.InOut[{T}], n: pl.Scalar[pl.INT64]) -> {T}:
'''
READ = "h = pl.tensor.read({}, [{}, 0])\npl.tensor.write(z, [0, 0], h)\n"


def program(body: str) -> str:
    return HEAD + "".join(f"        {line}\n" for line in body.strip("\n").splitlines()) + "        return x\n"


# name -> (body, insertions with lean_edges=False, with the default; each for n = 0 and n = 2)
CASES = {
    # the access waits for step, y's TensorMap producer: the edge goes
    "the producer of the name read": (
        "y = self.step(x, y)\n" + READ.format("y", 0) + "x = self.step(z, x)", (1, 1), (0, 0)),
    "a host write of the name": (
        "y = self.step(x, y)\npl.tensor.write(y, [0, 0], 1.0)\nx = self.step(z, x)", (1, 1), (0, 0)),
    "the creator of a runtime output": (
        "t, m = pl.submit(self.make, x)\n" + READ.format("t", 0) + "x = self.step(z, x)", (1, 1), (0, 0)),
    # half wrote the view it is read through (its entry overlaps every element of the view)
    "the producer of the view read": (
        "y = self.step(x, y)\ns = pl.slice(y, [8, 16], [0, 0])\ns = self.half(w, s)\n"
        + READ.format("s", 0) + "w = self.step(z, w)", (1, 1), (0, 0)),
    # the runtime waits for step here too (its entry covers y), but a view's facts start empty
    "a view of the tensor step wrote": (
        "y = self.step(x, y)\nv = pl.slice(y, [8, 16], [8, 0])\n" + READ.format("v", 0) + "x = self.step(z, x)",
        (1, 1), (1, 1)),
    # half wrote rows 0-7 through a view: its entry does not overlap row 12, and overlaps row 2
    # (runtime_order: the slice of those rows holds the element read)
    "rows a task wrote through a view, read outside them": (
        "s = pl.slice(y, [8, 16], [0, 0])\ns = self.half(x, s)\n" + READ.format("y", 12) + "x = self.step(z, x)",
        (1, 1), (1, 1)),
    "rows a task wrote through a view, read inside them": (
        "s = pl.slice(y, [8, 16], [0, 0])\ns = self.half(x, s)\n" + READ.format("y", 2) + "x = self.step(z, x)",
        (1, 1), (0, 0)),
    # an assemble's source placed in rows 0-7 of y: half writes them through a view of y
    "the assembled rows read through the target": (
        "t = pl.create_tensor([8, 16], dtype=pl.FP32)\nt = self.half(x, t)\ny = pl.assemble(y, t, [0, 0])\n"
        + READ.format("y", 2) + "x = self.step(z, x)", (1, 1), (0, 0)),
    "the assembled rows read through the source": (
        "t = pl.create_tensor([8, 16], dtype=pl.FP32)\nt = self.half(x, t)\ny = pl.assemble(y, t, [0, 0])\n"
        + READ.format("t", 2) + "x = self.step(z, x)", (1, 1), (0, 0)),
    "a name rebound to another tensor": (
        "y = self.step(x, y)\ny = w\n" + READ.format("y", 0) + "x = self.step(z, x)", (1, 1), (1, 1)),
    "a name rebound in a branch": (
        "y = self.step(x, y)\nif n > 1:\n    y = w\n" + READ.format("y", 0) + "x = self.step(z, x)", (1, 1), (1, 1)),
    # loop carries that swap at a run-time trip count: the read holds y in odd runs only
    "carries swapped by a loop": (
        "y = self.step(x, y)\np = y\nq = w\nfor i in pl.range(n):\n"
        + "".join("    " + line + "\n" for line in (READ.format("p", 0) + "x = self.step(z, x)\nt = p\np = q\nq = t").splitlines()),
        (0, 3), (0, 1)),
    # a read nothing uses is removed (remove_dead_values): it waits for nothing (it was taken for
    # a wait on step until branch tester23: tests/found/class1_dead_host_read_stands_for_no_wait.py);
    # one whose value a branch may use stays, and waits
    "a host read nothing uses": (
        "y = self.step(x, y)\nh = pl.tensor.read(y, [0, 0])\nx = self.step(z, x)", (1, 1), (1, 1)),
    "a host read a branch may use": (
        "y = self.step(x, y)\nh = pl.tensor.read(y, [0, 0])\nif n > 5:\n    pl.tensor.write(z, [0, 0], h)\n"
        "x = self.step(z, x)", (1, 1), (0, 0)),
    # a host access in a MANUAL scope (inside the function's AUTO one) waits as one outside does
    # (runtime-api.md section 11: get_tensor_data waits for the creator and the TensorMap
    # producers, here the AUTO step that wrote y, and blocks the orchestration thread), so the
    # second step's write-after-read edge on the first goes
    "a read in a manual scope": (
        "y = self.step(x, y)\nwith pl.manual_scope():\n" + "".join("    " + line + "\n" for line in READ.format("y", 0).splitlines())
        + "x = self.step(z, x)", (1, 1), (0, 0)),
    # set_tensor_data waits for the consumers of y's producer (runtime-api.md 11): the second
    # step looked y up while the first's scope (the function's) goes on, so it is a consumer of
    # the first, and the host fence's edge on that reader is the write's own wait: the fence
    # goes (``runtime_order``'s ``producers``; the checker's runtime model reads it so too)
    "a host write after a consumer of the producer": (
        "y = self.step(x, y)\nw = self.step(y, w)\npl.tensor.write(y, [0, 0], 1.0)\ny = self.step(x, y)", (1, 1), (0, 0)),
    # the output of a manual task, used after the scope, is allocated before the scope: its
    # creator is no task, and the host read waits through the compiler's host wait
    "a runtime output of a manual scope read after it": (
        "with pl.manual_scope():\n    m = None\n    t, m = pl.submit(self.make, x, deps=[m])\n"
        + READ.format("t", 0) + "x = self.step(z, x)", (2, 2), (1, 1)),
}


def insertions(text: str, n: int, lean: bool) -> int:
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs
    from nanopass.tools.measure_edges import measure_stages, options_of
    from nanopass.tools.properties import compile_text

    stages, dsl = compile_text(text, {**options_of(text), "lean_edges": lean})
    return measure_stages(stages, program_inputs(surface_of(dsl), {"n": str(n)})).insertions


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_host_access_lets_the_lean_passes_drop_only_what_the_runtime_waits_for(name):
    from nanopass.tools.properties import Findings, check_text

    body, off, lean = CASES[name]
    text = program(body)
    assert (insertions(text, 0, False), insertions(text, 2, False)) == off
    assert (insertions(text, 0, True), insertions(text, 2, True)) == lean
    for options in ({"lean_edges": True}, {"lean_edges": False}):
        findings = Findings()
        failures = check_text(text, [{"n": str(n)} for n in range(4)], findings, options=options)
        assert not failures, failures[0].message
        assert findings.refused_by_design == 0


def test_the_liveness_of_host_reads_is_computed_once_per_body(monkeypatch):
    """``runtime_order`` asked of one program for other tasks to track (as the lean passes do)
    takes the host reads ``remove_dead_values`` keeps from one liveness of the body."""
    from nanopass.languages.statements import reusing_walks
    from nanopass.passes.remove_dead_values import RemoveDeadValues
    from nanopass.passes.runtime_order import runtime_order
    from nanopass.passes.util import iter_stmts
    from nanopass.tools.properties import compile_text

    body, _, _ = CASES["the producer of the name read"]
    stages, _ = compile_text(program(body), {"lean_edges": False})
    tree = next(s.tree for s in stages if s.name.endswith("expand_manual_phase_fence"))
    tasks = [s for s in iter_stmts(tree.orch.body) if s._production == "Task"]
    calls = []
    liveness = RemoveDeadValues.liveness
    monkeypatch.setattr(RemoveDeadValues, "liveness", staticmethod(lambda *a, **k: (calls.append(a), liveness(*a, **k))[1]))
    with reusing_walks():
        orders = [runtime_order(tree, track=[task]) for task in tasks]
    assert len(tasks) == 2 and all(orders)
    assert len(calls) == 1
