"""The passes that drop or merge the dependency insertions the runtime or other edges make needless (issue 24)."""

from __future__ import annotations

from nanopass.languages import DIRECTED as D
from nanopass.languages.statements import LOOPS
from nanopass.languages.terms import BinOp, CmpOp
from nanopass.rewrite import Pass


class LeanPass(Pass):
    """A pass that drops or merges dependency insertions: with the option ``lean_edges=False``
    it returns its input, else what ``lean`` makes of it."""

    def run(self, program):
        if not self.ctx.option("lean_edges", True):
            return program
        return self.lean(program)

    def lean(self, program):
        raise NotImplementedError


def compiler_edge(dep) -> bool:
    """Whether a dependency is a compiler edge on a TaskId binder or a cell (not a user's ``deps=``
    entry, which is a ``DepVar``)."""
    return dep._production == "CellDep" or (dep._production == "DerivedDep" and dep.value._production == "Var")


def waiters_on_held_runs(body) -> dict[str, list]:
    """cell -> the tasks that wait through a ``DerivedDep`` on the TaskId the cell holds whenever
    they run: a ``CellSet`` of the cell to that TaskId comes before them in the same loop
    iteration, in their block or one around it, with no other ``CellSet`` of the cell between."""
    out: dict[str, list] = {}
    held: dict[str, tuple] = {}  # cell -> (TaskId name or None, blocks around, loops) of its last CellSet
    holding: dict[str, dict] = {}  # TaskId name -> the cells whose last CellSet stores it (as keys)

    def walk(stmts, loops, blocks):
        for stmt in stmts:
            kind = stmt._production
            if kind == "CellSet":
                name = stmt.value.name if stmt.value._production == "Var" else None
                before = held.get(stmt.cell)
                if before is not None and before[0] is not None:
                    del holding[before[0]][stmt.cell]
                held[stmt.cell] = (name, blocks, loops)
                if name is not None:
                    holding.setdefault(name, {})[stmt.cell] = None
            elif kind == "Task":
                waited = {dep.value.name for dep in stmt.deps
                          if dep._production == "DerivedDep" and dep.value._production == "Var"}
                for name in waited:
                    for cell in holding.get(name, ()):
                        _, around, at = held[cell]
                        if at == loops and blocks[:len(around)] == around:
                            out.setdefault(cell, []).append(stmt)
            if kind in LOOPS:
                walk(stmt.body, loops | {id(stmt)}, blocks + (id(stmt.body),))
            elif kind == "If":
                walk(stmt.then, loops, blocks + (id(stmt.then),))
                walk(stmt.orelse, loops, blocks + (id(stmt.orelse),))
            elif kind in ("Scope", "CompilerScope"):
                walk(stmt.body, loops, blocks)

    walk(tuple(body), frozenset(), (id(body),))
    return out


def trips_parity_is(loop, parity: int):
    """Whether ``loop`` (a sequential ``For`` of a positive constant step) ran an odd (``parity``
    1) or even number of times, as an expression of its bounds (``//`` and ``%`` of a positive
    length)."""
    dtype, step = loop.var.type.dtype, loop.step.value
    start_zero = loop.start._production == "Int" and loop.start.value == 0
    length = loop.stop if start_zero else D.Bin(BinOp.sub, loop.stop, loop.start)
    if step != 1:
        length = D.Bin(BinOp.floordiv, D.Bin(BinOp.add, length, D.Int(step - 1, dtype)), D.Int(step, dtype))
    rest = D.Bin(BinOp.mod, length, D.Int(2, dtype))  # (the trips)
    if parity:
        return D.Bin(BinOp.and_, D.Cmp(CmpOp.gt, loop.stop, loop.start), D.Cmp(CmpOp.ne, rest, D.Int(0, dtype)))
    return D.Bin(BinOp.or_, D.Cmp(CmpOp.le, loop.stop, loop.start), D.Cmp(CmpOp.eq, rest, D.Int(0, dtype)))


def trips_any_is(loop, ran: int):
    """Whether ``loop`` (a ``For`` of a positive constant step) made a trip (``ran`` 1) or none,
    as an expression of its bounds."""
    return D.Cmp(CmpOp.gt if ran else CmpOp.le, loop.stop, loop.start)
