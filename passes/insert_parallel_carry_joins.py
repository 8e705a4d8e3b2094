"""insert_parallel_carry_joins: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import binders_in_order, walk_of
from nanopass.languages.terms import DType
from nanopass.rewrite import Pass, register

from .classify_iter_arg_carry import TidShapes, is_task_id, per_iteration_loops
from .naming import base_name
from .util import LOOPS, iter_stmts, last_yield, unscoped

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
    yields it, waits for what the init holds. An iteration yielding a nested ``pl.parallel``
    loop's ids yields one barrier over them (``yield_join_<k>_tid``); when they reach the yield
    through an ``if``, the barrier is in the branch that yields them, before its yield, so the
    ``if`` result holds one id on every path. Each barrier's purpose names the carry it joins.
    Left alone: a body that may index the carry, an init of one id.
    """

    name = "insert_parallel_carry_joins"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        func = program.orch
        if not _may_join(func.body):
            return program
        self.taken: set[str] | None = None  # the names a barrier may not take (made at the first barrier)
        self.body = func.body
        self.count = 0
        while True:  # a join changes the shapes of what follows: again until none is needed
            self.joins = self.carries_to_join(func.body)
            if not self.joins:
                return program
            func = self.build(func, body=tuple(self.block(func.body)))
            program = self.build(program, orch=func)

    def carries_to_join(self, body) -> dict[int, set[int]]:
        """id(loop) -> the indices of its TaskId carries to join: ``k`` for a join of carry
        ``k``'s init, ``-1 - k`` for a join of what the body yields for it."""
        per_iteration = per_iteration_loops(body, check=False)
        if not per_iteration:
            return {}
        loops = {id(s): s for s in iter_stmts(body) if id(s) in per_iteration}
        if all(map(yields_fresh_ids, loops.values())):
            return {}  # (no carry may hold several ids: what TidShapes would find)
        shapes = TidShapes(per_iteration, strict=False)
        shapes.run(body)
        if not shapes.several:
            return {}  # no carry may hold several ids
        # the results of those loops (names outlive the nodes, which a rewrite builds anew)
        self.nested = {r.name for s in loops.values() for r in s.results}
        out: dict[int, set[int]] = {}
        for key, k in shapes.several:
            loop = loops[key]
            init = loop.iters[k].init
            # the carry may be indexed: a slot of an array the body binds, or of a carry
            inside = {b.name for b in binders_in_order(loop.body)} | {it.var.name for it in loop.iters}
            indexed = any(
                d._production == "DepItem" and (d.array._production != "Var" or d.array.name in inside)
                for s in iter_stmts(loop.body)
                if s._production in ("Task", "Dummy")
                for d in s.deps
            )
            yld = last_yield(loop.body)
            if init._production == "Var" and shapes.of(init) and not indexed:
                out.setdefault(key, set()).add(k)
            elif yld is not None and _joinable(loop.body, yld.values[k], self.nested):
                out.setdefault(key, set()).add(-1 - k)
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
                yielded = sorted(-1 - k for k in self.joins[id(stmt)] if k < 0)
                if yielded:
                    loop = loop.replace(body=tuple(self.join_yields(loop, yielded)))
                for k in sorted(k for k in self.joins[id(stmt)] if k >= 0):
                    it = iters[k]
                    barrier = self.fresh()
                    joined = D.DepVar(D.Var(it.init.name))
                    purpose = f"joins the TaskIds {base_name(it.init.name)} holds before the pl.parallel loop"
                    out.append(D.Dummy(D.Binder(barrier, TID_TYPE), [joined], purpose, span=loop.span))
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

    def join_yields(self, loop, indices) -> list:
        """The loop's body with each yielded value of ``indices`` replaced by a barrier just before
        the yield that waits for it (one id per iteration, whatever the value holds); a value that
        is an ``if`` result is joined in the branches that yield a nested loop's ids instead, so
        that the ``if`` result holds one id on every path."""

        def rewrite(stmts, indices) -> list:
            stmts = list(stmts)
            last = stmts[-1]
            if last._production != "Yield":  # (a compiler scope around the body)
                stmts[-1] = last.replace(body=tuple(rewrite(last.body, indices)))
                return stmts
            values = list(last.values)
            for k in indices:
                if values[k]._production != "Var":
                    continue
                at, j = _if_result(stmts, values[k])
                if at is not None and not _nested_result(stmts, values[k], self.nested):
                    branch = stmts[at]
                    arms = {}
                    for arm in ("then", "orelse"):
                        body = getattr(branch, arm)
                        yielded = last_yield(body)
                        joinable = yielded is not None and _joinable(body, yielded.values[j], self.nested)
                        arms[arm] = tuple(rewrite(body, [j])) if joinable else body
                    stmts[at] = branch.replace(**arms)
                    continue
                barrier = self.fresh("yield_join")
                purpose = f"joins the TaskIds a pl.parallel iteration yields as {base_name(values[k].name)}"
                stmts.insert(len(stmts) - 1, D.Dummy(D.Binder(barrier, TID_TYPE), [D.DepVar(values[k])], purpose, span=loop.span))
                self.ctx.note(
                    "carry-join",
                    f"an iteration of the pl.parallel loop at line {loop.span.line if loop.span else '?'} may yield "
                    f"several ids ('{base_name(values[k].name)}'): it yields one barrier that waits for them",
                    loop.span,
                )
                values[k] = D.Var(barrier)
            stmts[-1] = last.replace(values=values)
            return stmts

        return rewrite(loop.body, indices)

    def fresh(self, kind: str = "carry_join") -> str:
        if self.taken is None:  # (the names of the input: a barrier made since is taken when made)
            binders = [b.name for b in binders_in_order(self.body)]
            self.taken = set(binders) | {base_name(n) for n in binders}
        while True:
            name = f"{kind}_{self.count}_tid"
            self.count += 1
            if name not in self.taken:
                self.taken.add(name)
                return name


def _nested_result(body, value, nested: set[str]) -> bool:
    """``value`` is a result of a ``pl.parallel`` loop with one TaskId slot per iteration directly
    in ``body`` (its ids, one per iteration of that loop); ``nested``: those loops' results."""
    if value is None or value._production != "Var" or value.name not in nested:
        return False
    return any(
        any(r.name == value.name for r in s.results)
        for s in unscoped(body)
        if s._production == "For"
    )


def _if_result(body, value) -> tuple[int | None, int]:
    """(the index in ``body`` of the ``if`` whose result ``value`` is, that result's index), or
    (None, -1)."""
    for at, s in enumerate(body):
        if s._production == "If":
            for j, r in enumerate(s.results):
                if getattr(r, "var", r).name == value.name:
                    return at, j
    return None, -1


def yields_fresh_ids(loop) -> bool:
    """Whether each TaskId carry of ``loop`` is yielded the TaskId of a task or dummy of its body
    (a statement of the body itself), or nothing: one id of this iteration, never several. A
    TaskId carry may hold several ids only when its body yields one that does (``TidShapes``
    gives a shape to copies, if results and loop carries and results, never to a task's or a
    dummy's own TaskId), so for a loop of which this holds ``TidShapes`` finds none."""
    yld = last_yield(loop.body)
    if yld is None:
        return True
    fresh = set()
    for stmt in loop.body:
        if stmt._production == "Task" and stmt.tid is not None:
            fresh.add(stmt.tid.name)
        elif stmt._production == "Dummy":
            fresh.add(stmt.var.name)
    for k, it in enumerate(loop.iters):
        if is_task_id(it.var):
            value = yld.values[k]
            if value._production == "Var" and value.name not in fresh:
                return False
    return True


def _may_join(body) -> bool:
    """Whether ``carries_to_join`` may find a carry to join: some loop with a TaskId carry yields
    one other than its body's own (``yields_fresh_ids``). The loops it asks, the per-iteration
    ones, carry a TaskId: when every such loop yields fresh ids, so do those, and it finds none
    (one walk of the body, without the per-iteration loops or the shapes)."""
    for stmt in walk_of(body).compound:  # (loops are compound: the rest is not looked at)
        if stmt._production in LOOPS:
            for it in stmt.iters:
                if is_task_id(it.var):
                    if not yields_fresh_ids(stmt):
                        return True
                    break
    return False


def _joinable(body, value, nested: set[str]) -> bool:
    """``value`` holds the ids of a ``pl.parallel`` loop nested in ``body`` on some path: a result
    of such a loop directly in ``body``, or a result of an ``if`` directly in ``body`` whose branch
    yields such a value (at any depth of ``if``s), or a copy of one of these."""
    if value is None or value._production != "Var":
        return False
    stmts = list(unscoped(body))
    copied = {s.var.name: s.value for s in stmts if s._production == "Let" and s.value._production == "Var"}
    while value.name in copied:  # a copy of a TaskId (``e = r1``): the value it copies
        value = copied[value.name]
    if _nested_result(body, value, nested):
        return True
    at, j = _if_result(stmts, value)
    if at is None:
        return False
    for arm in (stmts[at].then, stmts[at].orelse):
        yielded = last_yield(arm)
        if yielded is not None and _joinable(arm, yielded.values[j], nested):
            return True
    return False
