"""classify_iter_arg_carry: scoped -> carried."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import CARRIED, SCOPED
from nanopass.languages.terms import DType, LoopKind, ScopeMode
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .kernels import kernel_table
from .util import iter_stmts, last_yield

C = CARRIED


def is_task_id(binder) -> bool:
    return binder.type._production == "ScalarType" and binder.type.dtype is DType.TASK_ID


def static_trip_count(loop) -> int | None:
    if all(e._production == "Int" for e in (loop.start, loop.stop, loop.step)) and loop.step.value > 0:
        return max(0, (loop.stop.value - loop.start.value + loop.step.value - 1) // loop.step.value)
    return None


@register
class ClassifyIterArgCarry(Pass):
    """Decide, for every loop carry and if result, whether it needs a C++ variable of its own.

    A carry is *not* rebound (no variable, D9) when the value yielded at the end of the body is
    the same physical tensor or array as the carry itself (the kernel wrote it in place); an if
    result is not rebound when both branches yield the same physical value from before the if.
    Everything else is rebound: ``Tensor c = init;`` before the loop, ``c = v;`` at the yield.
    TaskId carries are always rebound; inside a manual scope, a TaskId carried through a
    ``pl.parallel`` loop becomes an array with one slot per iteration (its static trip count; a
    dynamic one is a user error), and a sequential loop whose yield is such a loop's result
    inherits the array size (inside the manual scope or around it, the seed's #1811 case). Afterwards every IterArg and if result has a ``Carry`` plan.
    """

    name = "classify_iter_arg_carry"
    source = SCOPED
    target = CARRIED

    def run(self, program):
        func = program.orch
        kernels = kernel_table(program)
        rebound: set[str] = set()
        while True:  # loop carries inside other loops decide the roots outer carries see
            roots = buffer_roots(func, kernels, lambda it: it.var.name not in rebound)
            changed = False
            for stmt in iter_stmts(func.body):
                if stmt._production != "For":
                    continue
                yld = last_yield(stmt.body)
                for i, it in enumerate(stmt.iters):
                    if it.var.name in rebound:
                        continue
                    value = yld.values[i] if yld is not None else None
                    hypothesis = roots.get(it.init.name, it.init.name) if it.init._production == "Var" else None
                    same = (
                        value is not None
                        and value._production == "Var"
                        and not is_task_id(it.var)
                        and it.var.type._production in ("TensorType", "ArrayType")
                        and hypothesis is not None
                        and roots.get(value.name, value.name) == hypothesis
                    )
                    if not same:
                        rebound.add(it.var.name)
                        changed = True
            if not changed:
                break
        self.rebound = rebound
        self.roots = roots
        self.in_manual = self.parallel_loops_in_manual_scopes(func.body)
        self.manual = 0
        return self.visit(program)

    def parallel_loops_in_manual_scopes(self, body) -> set[int]:
        """ids of the pl.parallel loops that sit inside a manual scope."""
        found: set[int] = set()
        stack = [(s, False) for s in body]
        while stack:
            stmt, manual = stack.pop()
            kind = stmt._production
            if kind == "Scope":
                stack += [(s, manual or stmt.mode is ScopeMode.manual) for s in stmt.body]
            elif kind == "For":
                if manual and stmt.kind is LoopKind.parallel:
                    found.add(id(stmt))
                stack += [(s, manual) for s in stmt.body]
            elif kind == "If":
                stack += [(s, manual) for s in stmt.then + stmt.orelse]
        return found

    def Scope(self, scope):
        manual = scope.mode is ScopeMode.manual
        self.manual += manual
        body = self.visit_all(scope.body)
        self.manual -= manual
        return C.Scope(scope.mode, scope.origin, body, span=scope.span)

    def For(self, loop):
        iters = []
        for i, it in enumerate(loop.iters):
            rebind = it.var.name in self.rebound
            array = 0
            if rebind and is_task_id(it.var) and (self.manual or loop.kind is LoopKind.seq):
                array = self.array_size(loop, i)
            iters.append(C.IterArg(it.var, it.init, C.Carry(rebind, array), span=it.span))
        body = self.visit_all(loop.body)
        return C.For(loop.var, loop.start, loop.stop, loop.step, loop.kind, iters, body, loop.results, span=loop.span)

    def array_size(self, loop, slot: int) -> int:
        if loop.kind is LoopKind.parallel:
            if id(loop) not in self.in_manual:
                return 0  # outside manual scopes a parallel loop's TaskId carry is one variable
            count = static_trip_count(loop)
            if count is None or count <= 0:
                raise UserError(
                    "a pl.parallel loop that carries a TaskId in a manual scope must have a statically-known "
                    "trip count: the runtime fence needs a PTO2TaskId[N] array of fixed N",
                    loop.span,
                    hint="make the trip count a Python int, e.g. pl.parallel(4)",
                )
            return count
        yld = last_yield(loop.body)
        value = yld.values[slot] if yld is not None else None
        if value is None or value._production != "Var":
            return 0
        for stmt in iter_stmts(loop.body):
            if stmt._production == "For":
                for k, result in enumerate(stmt.results):
                    if result.name == value.name:
                        return self.array_size(stmt, k)
        return 0

    def If(self, branch):
        then = self.visit_all(branch.then)
        orelse = self.visit_all(branch.orelse)
        then_y, else_y = last_yield(branch.then), last_yield(branch.orelse)
        phis = []
        for i, res in enumerate(branch.results):
            res = getattr(res, "var", res)  # a Phi when this pass runs again on its own output
            a = then_y.values[i] if then_y else None
            b = else_y.values[i] if else_y else None
            ra = self.roots.get(a.name, a.name) if a is not None and a._production == "Var" else None
            rb = self.roots.get(b.name, b.name) if b is not None and b._production == "Var" else None
            same = (
                ra is not None
                and ra == rb
                and res.type._production in ("TensorType", "ArrayType")
                and self.roots.get(res.name) == ra
            )
            phis.append(C.Phi(res, C.Carry(not same, 0)))
        return C.If(branch.cond, then, orelse, phis, span=branch.span)
