"""convert_printed_ssa: surface -> ssa, for a program that is in single-assignment form already.

The existing compiler prints its IR after its pipeline in SSA form: every name defined once,
loop carries explicit (``init_values=``, ``pl.yield_`` and the loop's results), and each if's
results written as ``r = pl.yield_(v)`` at the end of both branches (the front end reads each
as ``Let r v``). This pass takes such a program into the ``ssa`` language as it is, names and
carries included, instead of deriving them again (``convert_to_ssa``).

It is used in place of ``convert_to_ssa`` for the printed IR (``nanopass.printed_ir``); it is
not in the pipeline list.
"""

from __future__ import annotations

from collections import Counter

from nanopass.languages import SSA, SURFACE
from nanopass.rewrite import Pass

from .convert_to_ssa import ConvertToSsa
from .util import defined_binders, iter_stmts

S = SSA


class ConvertPrintedSsa(Pass):
    """Take a program in single-assignment form into ``ssa`` with its own names and carries.

    The program is in that form when every name is defined once, but for the results of an
    if: a name bound by the last statements of both branches of one if (and nowhere else),
    which becomes a result of the if, each branch ending with a ``Yield`` of the values bound
    (a loop's carries are explicit in ``surface`` already). Any other program (the printed IR
    as written, where names are re-assigned) is converted by ``convert_to_ssa``, with a note.
    Afterwards what ``convert_to_ssa`` guarantees holds: every name is defined exactly once.
    """

    name = "convert_printed_ssa"
    source = SURFACE
    target = SSA

    def run(self, program):
        func = program.orch
        counts = Counter(p.name for p in func.params)
        counts.update(d.name for d in func.dyn_dims)
        for stmt in iter_stmts(func.body):
            counts.update(b.name for b in defined_binders(stmt))
        twice = {name for name, n in counts.items() if n == 2}
        if any(n > 2 for n in counts.values()):
            return self.convert(program)
        self.phis: set[str] = set()
        body = self.block(func.body, twice)
        if twice - self.phis:
            return self.convert(program)
        new_func = S.Function(func.name, func.params, func.results, func.auto_scope, func.dyn_dims, body, span=func.span)
        return S.Program(program.name, program.kernels, new_func, span=program.span)

    def convert(self, program):
        self.ctx.note("converted", "the program is not in single-assignment form: convert_to_ssa derives it")
        return ConvertToSsa(self.ctx).run(program)

    def block(self, stmts, twice: set[str]) -> list:
        return [self.stmt(stmt, twice) for stmt in stmts]

    def stmt(self, stmt, twice: set[str]):
        kind = stmt._production
        if kind == "If":
            then, orelse = self.block(stmt.then, twice), self.block(stmt.orelse, twice)
            then_tail, else_tail = _trailing_lets(then, twice), _trailing_lets(orelse, twice)
            names = [let.var.name for let in then_tail]
            if not names or names != [let.var.name for let in else_tail] and sorted(names) != sorted(
                let.var.name for let in else_tail
            ):
                return S.If(stmt.cond, then, orelse, [], span=stmt.span)
            order = {name: i for i, name in enumerate(names)}
            else_tail = sorted(else_tail, key=lambda let: order[let.var.name])
            self.phis.update(names)
            then = then[: len(then) - len(then_tail)] + [S.Yield.make([let.value for let in then_tail])]
            orelse = orelse[: len(orelse) - len(else_tail)] + [S.Yield.make([let.value for let in else_tail])]
            results = [S.Binder.make(let.var.name, let.var.type, span=let.var.span) for let in then_tail]
            return S.If.make(stmt.cond, then, orelse, results, span=stmt.span)
        if kind == "For":
            return S.For.make(stmt.var, stmt.start, stmt.stop, stmt.step, stmt.kind, stmt.iters,
                              self.block(stmt.body, twice), stmt.results, span=stmt.span)
        if kind == "While":
            return S.While.make(stmt.iters, stmt.cond, self.block(stmt.body, twice), stmt.results, span=stmt.span)
        if kind == "Scope":
            return S.Scope(stmt.mode, self.block(stmt.body, twice), span=stmt.span)
        return stmt


def _trailing_lets(stmts: list, twice: set[str]) -> list:
    """The ``Let``s of names defined twice that end ``stmts``, in order."""
    tail: list = []
    for stmt in reversed(stmts):
        if stmt._production != "Let" or stmt.var.name not in twice:
            break
        tail.insert(0, stmt)
    return tail
