"""insert_parallel_carry_joins: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import binders_in_order
from nanopass.languages.terms import DType
from nanopass.rewrite import Pass, register

from .classify_iter_arg_carry import TidShapes, carries_task_ids, is_task_id, per_iteration_loops
from .naming import base_name
from .util import iter_stmts

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class InsertParallelCarryJoins(Pass):
    """Join the TaskIds a ``pl.parallel`` iteration starts from when it may yield them.

    A TaskId carried through a ``pl.parallel`` loop in a manual scope gets one slot per iteration
    (``classify_iter_arg_carry``), and in the body it stands for its init, which may hold several
    ids (the slots of the phase before). An iteration that submits nothing on some path (an ``if``
    that does not submit, a ``pl.range(n)`` chain that may not run) yields those ids, which one
    slot cannot hold (nor can a slot of as many ids: in a loop of phases each phase would need
    more). Such a carry's init becomes a barrier ``carry_join_<k>_tid =
    pl.system.task_dummy(deps=[init])`` just before the loop: one id that completes after every
    id of the init, so a task that waits for the carry, or for the slot of an iteration that
    yields it, waits for what the init holds, as before. Left alone: a loop whose body names one
    slot of a TaskId array (``arr[i]``: the carry may be indexed) and an init that is one id.
    Afterwards every per-iteration carry whose body may yield its own ids starts from one id.
    """

    name = "insert_parallel_carry_joins"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        func = program.orch
        if not carries_task_ids(func.body):
            return program
        binders = [b.name for b in binders_in_order(func.body)]
        self.taken = set(binders) | {base_name(n) for n in binders}
        self.count = 0
        while True:  # a join changes the shapes of what follows: again until none is needed
            self.joins = self.carries_to_join(func.body)
            if not self.joins:
                return program
            func = self.build(func, body=tuple(self.block(func.body)))
            program = self.build(program, orch=func)

    def carries_to_join(self, body) -> dict[int, set[int]]:
        """id(loop) -> the indices of its TaskId carries to join."""
        per_iteration = per_iteration_loops(body, check=False)
        if not per_iteration:
            return {}
        shapes = TidShapes(per_iteration, strict=False)
        shapes.run(body)
        loops = {id(s): s for s in iter_stmts(body) if id(s) in per_iteration}
        out: dict[int, set[int]] = {}
        for key, k in shapes.several:
            loop = loops[key]
            init = loop.iters[k].init
            indexed = any(
                d._production == "DepItem"
                for s in iter_stmts(loop.body)
                if s._production in ("Task", "Dummy")
                for d in s.deps
            )
            if init._production == "Var" and shapes.of(init) and not indexed:
                out.setdefault(key, set()).add(k)
        return out

    def For(self, loop):
        return self.build(loop, body=tuple(self.block(loop.body)))

    While = For

    def If(self, branch):
        return self.build(branch, then=tuple(self.block(branch.then)), orelse=tuple(self.block(branch.orelse)))

    def Scope(self, scope):
        return self.build(scope, body=tuple(self.block(scope.body)))

    CompilerScope = Scope

    def block(self, stmts) -> list:
        out: list = []
        for stmt in stmts:
            new = self.visit(stmt)
            new = new if isinstance(new, list) else [new]
            if stmt._production == "For" and id(stmt) in self.joins:
                loop = new[-1]
                iters = list(loop.iters)
                for k in sorted(self.joins[id(stmt)]):
                    it = iters[k]
                    barrier = self.fresh()
                    out.append(D.Dummy(D.Binder(barrier, TID_TYPE), [D.DepVar(D.Var(it.init.name))], span=loop.span))
                    iters[k] = it.replace(init=D.Var(barrier))
                    self.ctx.note(
                        "carry-join",
                        f"the pl.parallel loop at line {loop.span.line if loop.span else '?'} may yield the ids "
                        f"'{base_name(it.init.name)}' holds: it starts from one barrier that waits for them",
                        loop.span,
                    )
                new[-1] = loop.replace(iters=iters)
            out.extend(new)
        return out

    def fresh(self) -> str:
        while True:
            name = f"carry_join_{self.count}_tid"
            self.count += 1
            if name not in self.taken:
                self.taken.add(name)
                return name
