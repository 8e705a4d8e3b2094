"""How many runs ago the buffer a name holds was allocated, for an allocation made once in every
iteration of a loop: what ``place_loop_allocations_before_scopes`` needs to give such a loop as
many buffers as it keeps at once.

``generations(loop, allocation, kernels)`` maps each name bound in ``loop`` (its carries
included) to the *generations* of ``allocation`` it may hold: 0 for the buffers the current
iteration made (once its allocation ran; every run of an allocation in a loop nested in
``loop``), ``d`` for those made ``d`` iterations before. The facts flow as
``passes/allocations.py``'s do (a view, copy or assemble result holds its source's; a task
result its written argument's; an inner loop's carries the init's and every yield's, its
results its carries', or the last yield's for a loop of a constant trip count that runs; an if
result both branches'), and along ``loop``'s back edge a carry holds what its yield held, one
generation older; joined to a fixpoint. ``None`` when a name may hold a generation older than
``limit`` (a carry that may keep a buffer forever).

``run_index(loop)`` and ``linear_index(loops, counts)``: the number of the running iteration of a
``For`` loop, and of a nest of loops of constant trip counts, from 0 (what selects a run's block).
"""

from __future__ import annotations

from .allocations import VIEWS
from .kernels import output_param_of_result
from nanopass.languages import SSA as S
from nanopass.languages.terms import BinOp, DType

from .util import BODY_FIELDS, last_yield, static_trip_count


def generations(loop, allocation: str, kernels, limit: int = 8) -> dict[str, frozenset[int]] | None:
    held: dict[str, frozenset[int]] = {}
    changed = False

    def of(expr) -> frozenset[int]:
        if expr is None or expr._production != "Var":
            return frozenset()
        return held.get(expr.name, frozenset())

    def put(name: str, value: frozenset[int]) -> None:
        nonlocal changed
        old = held.get(name, frozenset())
        if not value <= old:
            held[name] = old | value
            changed = True

    def body(stmts) -> None:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                value, vk = stmt.value, stmt.value._production
                if stmt.var.name == allocation:
                    put(allocation, frozenset({0}))
                elif vk == "Var":
                    put(stmt.var.name, of(value))
                elif vk in VIEWS:
                    put(stmt.var.name, of(getattr(value, VIEWS[vk])))
            elif kind == "Task":
                kernel = kernels[stmt.kernel]
                for i, out in enumerate(stmt.outs):
                    binder = getattr(out, "var", out)
                    p = output_param_of_result(kernel, i)
                    if binder.name == allocation:
                        put(allocation, frozenset({0}))
                    elif p is not None and p < len(stmt.args):
                        put(binder.name, of(stmt.args[p].value))
            elif kind in ("For", "While"):
                carry(stmt, 0)
            elif kind == "If":
                body(stmt.then)
                body(stmt.orelse)
                for branch in (stmt.then, stmt.orelse):
                    y = last_yield(branch)
                    for i, res in enumerate(getattr(stmt, "results", ())):
                        if y is not None and i < len(y.values):
                            put(getattr(res, "var", res).name, of(y.values[i]))
            else:
                for field in BODY_FIELDS.get(kind, ()):
                    body(getattr(stmt, field))

    def carry(inner, older: int) -> None:
        """A loop's carries: the init's, every yield's (``older`` generations older), the results
        the carries'."""
        runs = static_trip_count(inner) or 0
        for it in inner.iters:
            put(it.var.name, of(it.init))
        body(inner.body)
        y = last_yield(inner.body)
        for i, (it, result) in enumerate(zip(inner.iters, inner.results)):
            if y is not None and i < len(y.values):
                put(it.var.name, frozenset(d + older for d in of(y.values[i])))
            # (a loop of a constant trip count that runs ends with its last iteration's yield)
            put(result.name, of(y.values[i]) if runs and y is not None and i < len(y.values)
                else held.get(it.var.name, frozenset()))

    while True:
        changed = False
        carry(loop, 1)
        if any(d > limit for ds in held.values() for d in ds):
            return None
        if not changed:
            return held


def linear_index(loops: tuple, counts: list):
    """The number of the running iteration of the nest ``loops`` (outermost first, ``counts``
    their trip counts) from 0: ``((i0 * T1) + i1) * T2 + i2 ...``; ``None`` for no loop."""
    index = None
    for loop, count in zip(loops, counts):
        index = run_index(loop) if index is None else plus(times(index, count), run_index(loop))
    return index


def times(expr, count: int):
    return expr if count == 1 else S.Bin(BinOp.mul, expr, S.Int(count, DType.INDEX))


def plus(a, b):
    return S.Bin(BinOp.add, a, b)


def run_index(loop):
    """The number of the running iteration of the ``For`` ``loop``, from 0."""
    index = S.Var(loop.var.name)
    if not (loop.start._production == "Int" and loop.start.value == 0):
        index = S.Bin(BinOp.sub, index, loop.start)
    if not (loop.step._production == "Int" and loop.step.value == 1):
        index = S.Bin(BinOp.floordiv, index, loop.step)
    return index
