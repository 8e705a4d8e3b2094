"""classify_iter_arg_carry: scoped -> carried."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import CARRIED, SCOPED
from nanopass.languages.scoped import check_no_alloc, check_no_declare, check_no_dep_edge, check_scope_placement
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import BODY_FIELDS, walk_of
from nanopass.languages.terms import DType, LoopKind, ScopeMode, ScopeOrigin
from nanopass.rewrite import Pass, register, trusted_maker

from .aliases import buffer_groups, buffer_roots
from .kernels import kernel_table
from .util import LOOPS, iter_stmts, last_yield, static_trip_count

C = CARRIED


# (read once: an enum member read through its class costs a descriptor call)
TASK_ID, MANUAL, PARALLEL = DType.TASK_ID, ScopeMode.manual, LoopKind.parallel
COMPILER = ScopeOrigin.compiler
# The roots walked once and the carries checked by the visit (``run_in_one_walk``); off, the
# carries are read in a walk of their own and the roots found to their fixpoint (the tests
# compare the two)
ONE_WALK = True
_COMPOUND = frozenset(BODY_FIELDS)  # the statements with bodies


def is_task_id(binder) -> bool:
    return binder.type._production == "ScalarType" and binder.type.dtype is TASK_ID


@register
class ClassifyIterArgCarry(Pass):
    """Decide, for every loop carry and if result, whether it needs a C++ variable of its own.

    A carry is *not* rebound (no variable, D9) when the value yielded at the end of the body is
    the same physical tensor or array as the carry itself (the kernel wrote it in place); an if
    result is not rebound when both branches yield the same physical value from before the if.
    Everything else is rebound: ``Tensor c = init;`` before the loop, ``c = v;`` at the yield.

    TaskIds are always rebound, and get a shape: one id, or an array of N. A TaskId carried
    through a ``pl.parallel`` loop in a manual scope becomes an array with one slot per
    iteration (``per_iteration``; its static trip count — a dynamic one is a user error), and
    stands in the body for its init, whatever its shape; any other carry or if result holds an
    array when a value flowing into it does (the seed's case1 and #1811: a sequential loop around
    such a loop inherits its N), as many slots as the largest (a single id flowing into it fills
    every slot, a smaller array the first slots, the others invalid). The result of a loop that
    certainly runs (constant bounds, one iteration at least) holds what its last iteration
    yields: when that holds fewer ids than the init, the carry keeps the init's shape in the body
    (``body``) in a variable of its own, and the result its own shape (a fixed-trip ``pl.range``
    inside a ``pl.parallel`` branch, whose carry starts from the ids of the phase before, yields
    one TaskId per branch). Afterwards every IterArg and if result has a ``Carry`` plan.

    Preserves the single definitions, the yields, the scope placement and the absence of later
    languages' statements and edges (``preserves``): the statements, their binders (the same objects) and the carries' counts are the input's, one
    plan added to each IterArg and one ``Phi`` made of each if result; each statement becomes
    one of the same production with bodies of the same statements (scopes keep their modes).
    For the same reason it reflects the placement and the absence of resolved edges
    (``reflects``: the output meets them only if the input does).
    """

    name = "classify_iter_arg_carry"
    source = SCOPED
    target = CARRIED
    preserves = frozenset({check_single_definition, check_yields, check_scope_placement, check_no_dep_edge, check_no_alloc,
                           check_no_declare})
    reflects = frozenset({check_scope_placement, check_no_dep_edge})

    def run(self, program):
        func = program.orch
        self._target_scope = self.target.nodes["Scope"]
        kernels = kernel_table(program)
        self.plans: dict[tuple, object] = {}  # (rebind, array, per_iteration, body) -> its Carry (``plan``)
        if ONE_WALK:
            try:
                return self.run_in_one_walk(program, func, kernels)
            except _Rebinds:  # a guess proved wrong: the carries are classified to their fixpoint
                self.release_handlers()
        self.deciding = False
        rebound, candidates, tid_loops, tid_ifs = self.carries_of(func.body)
        while True:  # loop carries inside other loops decide the roots outer carries see
            roots = buffer_roots(func, kernels, lambda it: it.var.name not in rebound)
            changed = False
            for it, value in candidates:
                name = it.var.name
                if name in rebound:
                    continue
                if roots.get(value.name, value.name) != roots.get(it.init.name, it.init.name):
                    rebound.add(name)
                    changed = True
            if not changed:
                break
        self.rebound = rebound
        self.roots = roots
        self.plan_task_ids(func.body, tid_loops, tid_ifs)
        return self.visit(program)

    def run_in_one_walk(self, program, func, kernels):
        """The pass with the roots walked once, the carries read by the visit: the roots are
        found as if every tensor or array carry whose init is a variable were its init
        (``trivial``), which the fixpoint of ``run`` finds when each such carry yields a
        variable of the same root as its init; the visit checks that of each loop it rebuilds
        (``decide``) and raises ``_Rebinds`` where it does not hold (the guess was wrong: ``run``
        starts again). A TaskId if result is met only in the visit: it raises too (its shapes
        are found before the visit)."""
        tid_loops = []

        def trivial(it) -> bool:
            kind = it.var.type._production
            if kind == "TensorType" or kind == "ArrayType":
                return it.init._production == "Var"
            if kind == "ScalarType" and it.var.type.dtype is TASK_ID:
                tid_loops.append(it)
            return False

        self.roots = buffer_roots(func, kernels, trivial)
        self.rebound = set()  # the carries not ``trivial``, added by ``decide`` as the visit meets them
        self.deciding = True
        if tid_loops:  # (a TaskId carry is never trivial, and always rebound)
            self.rebound.update(it.var.name for it in tid_loops)
        self.plan_task_ids(func.body, bool(tid_loops), False)
        return self.visit(program)

    def plan_task_ids(self, body, tid_loops: bool, tid_ifs: bool) -> None:
        """The per-iteration loops and TaskId shapes, looked for only with a TaskId carry (if
        result); without shapes the carries are planned alone."""
        # Without a TaskId loop carry no loop has a slot per iteration; without one or a TaskId
        # if result every TaskId value holds one id.
        self.per_iteration = self.per_iteration_loops(body) if tid_loops else {}
        self.shapes = TidShapes(self.per_iteration).run(body) if tid_loops or tid_ifs else {}
        if not self.shapes:
            self.plan_carries_alone()

    def decide(self, loop) -> None:
        """``run_in_one_walk``'s check of a loop's carries (``carries_of``'s rule): a carry that is
        not ``trivial`` is rebound; a trivial one must yield a variable of its init's root."""
        yld = final_yield(loop.body)
        roots, rebound = self.roots, self.rebound
        for i, it in enumerate(loop.iters):
            kind = it.var.type._production
            if (kind == "TensorType" or kind == "ArrayType") and it.init._production == "Var":
                value = yld.values[i] if yld is not None else None
                init = it.init.name
                if value is None or value._production != "Var" or roots.get(value.name, value.name) != roots.get(init, init):
                    raise _Rebinds
            else:
                rebound.add(it.var.name)

    def release_handlers(self) -> None:
        """The loops' handlers back to ``For`` and ``While`` (``plan_carries_alone`` replaced them)."""
        dispatch, nodes = self._dispatch, self.source.nodes
        dispatch[nodes["For"]], dispatch[nodes["While"]] = self.For, self.While

    def plan_carries_alone(self) -> None:
        """Without TaskId shapes a carry's plan depends on the carry alone (rebound or not): loops
        are rebuilt by ``loop_alone``, which gives each carry one of two plans."""
        self.alone = (self.plan(False, 0, False, 0), self.plan(True, 0, False, 0))  # (not rebound, rebound)
        dispatch, nodes = self._dispatch, self.source.nodes  # (of the pass's source language: a subclass may read another)
        dispatch[nodes["For"]] = dispatch[nodes["While"]] = self.loop_alone

    def loop_alone(self, loop):
        """A loop rebuilt with each carry planned alone (``plan_carries_alone``) and its body visited."""
        iters = loop.iters
        if self.deciding and iters:
            self.decide(loop)
        if len(iters) == 1:  # (most loops that carry carry one name)
            it = iters[0]
            iters = (_make_iter_arg(it.var, it.init, self.alone[it.var.name in self.rebound], it.span),)
        elif iters:
            rebound, alone = self.rebound, self.alone
            iters = tuple([_make_iter_arg(it.var, it.init, alone[it.var.name in rebound], it.span) for it in iters])
        body = self.visit_body(loop.body)
        if loop._production == "For":
            return _make_for(loop.var, loop.start, loop.stop, loop.step, loop.kind, iters, body, loop.results, loop.span)
        return _make_while(iters, loop.cond, body, loop.results, loop.span)

    def carries_of(self, body) -> tuple[set[str], list, bool, bool]:
        """The carries that must be rebound whatever the roots say, the others (iter_arg, value
        yielded), and whether a loop carry (an if result) is a TaskId (``carries_task_ids``,
        found in the same walk).

        A carry may be the same physical value as its init only when it is a tensor or array
        (not a TaskId) whose init and yielded value are variables."""
        rebound: set[str] = set()
        candidates = []
        tid_loops = tid_ifs = False
        for stmt in walk_of(body).compound:  # (loops and ifs are compound: the rest is not looked at)
            kind = stmt._production
            if kind == "If":
                if not tid_ifs:
                    tid_ifs = any(is_task_id(getattr(res, "var", res)) for res in stmt.results)
                continue
            if kind not in LOOPS:
                continue
            yld = final_yield(stmt.body)
            for i, it in enumerate(stmt.iters):
                value = yld.values[i] if yld is not None else None
                var = it.var
                if var.type._production == "ScalarType" and var.type.dtype is TASK_ID:  # (is_task_id, inlined)
                    tid_loops = True
                    rebound.add(var.name)
                elif (
                    value is not None
                    and value._production == "Var"
                    and it.init._production == "Var"
                    and var.type._production in ("TensorType", "ArrayType")
                ):
                    candidates.append((it, value))
                else:
                    rebound.add(var.name)
        return rebound, candidates, tid_loops, tid_ifs

    def per_iteration_loops(self, body) -> dict[int, int]:
        """id -> N for the pl.parallel loops inside a manual scope (checked: static trip count)."""
        return per_iteration_loops(body, lambda it: is_task_id(it.var) and it.var.name in self.rebound)

    def Function(self, func):
        # (unchecked: a root and its aliases are names of the function's params and binders, symbols
        # checked where those were made; ``trusted_checked`` tests the claim)
        make_group = C.BufferGroup.make_trusted
        groups = [make_group(root, aliases) for root, aliases in buffer_groups(self.roots).items()]
        return C.Function.make(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, groups, self.visit_body(func.body),
            span=func.span,
        )

    def For(self, loop):
        iters, body = self.carries(loop)
        return _make_for(loop.var, loop.start, loop.stop, loop.step, loop.kind, iters, body, loop.results, loop.span)

    def While(self, loop):
        iters, body = self.carries(loop)
        return _make_while(iters, loop.cond, body, loop.results, loop.span)

    def carries(self, loop):
        """The loop's IterArgs with their plans, and its body rewritten."""
        if self.deciding:
            self.decide(loop)
        per_iteration = id(loop) in self.per_iteration
        shapes, rebound = self.shapes, self.rebound  # (no shapes: every TaskId holds one id)
        iters = []
        for it, result in zip(loop.iters, loop.results):
            var = it.var
            rebind = var.name in rebound
            if shapes and is_task_id(var):
                array, body = shapes.get(result.name, 0), shapes.get(var.name, 0)
            else:
                array = body = 0
            each = per_iteration and array > 0  # (a shape only a TaskId has)
            plan = self.plan(rebind, array, each, body if each or body > array else array)
            iters.append(_make_iter_arg(it.var, it.init, plan, it.span))
        return iters, self.visit_body(loop.body)

    def plan(self, rebind: bool, array: int, per_iteration: bool, body: int):
        """The Carry of these fields: one node for every carry with the same plan (plans are
        immutable values, and most carries share one or two)."""
        key = (rebind, array, per_iteration, body)
        plan = self.plans.get(key)
        if plan is None:
            plan = self.plans[key] = C.Carry.make(rebind, array, per_iteration, body)
        return plan

    def If(self, branch):
        then, orelse = self.visit_body(branch.then), self.visit_body(branch.orelse)
        then_y, else_y = final_yield(branch.then), final_yield(branch.orelse)
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
            if is_task_id(res):
                if self.deciding and not self.shapes:
                    raise _Rebinds  # (its shape is found before the visit: ``run`` looks for it)
                array = self.shapes.get(res.name, 0)
            else:
                array = 0
            phis.append(C.Phi.make_trusted(res, self.plan(not same, array, False, array)))
        # (the condition and each Phi's binder are the input's; the bodies ``visit_body``'s, the plans ``plan``'s)
        return C.If.make_trusted(branch.cond, then, orelse, phis, span=branch.span)

    def visit_body(self, body) -> tuple:
        """``visit_all(body)`` (a loop's, a branch's or the function's). A body of statements of the
        pass's ``_inert`` classes (no loop, no if, no scope: each its own output) is itself, and a
        body that is one scope of such statements is that scope in the target's class, both
        looked at in place without a visit: most branches and innermost loop bodies, and the
        function body of straight-line code."""
        if len(body) != 1:
            inert = self._inert
            for stmt in body:  # (a plain loop: it stops at the first statement to visit)
                if type(stmt) not in inert:
                    return self.visit_all(body)
            return body
        stmt = body[0]  # (``visit_all``'s case of one statement, inlined)
        if stmt._production == "Scope" and self._inert.issuperset(map(type, stmt.body)):
            scope = self._target_scope
            if type(stmt) is scope:
                return body
            # (its fields the input's: a mode, an origin, and statements of classes the target keeps)
            return (scope.make_trusted(stmt.mode, stmt.origin, stmt.body, span=stmt.span),)
        step = self._dispatch.get(type(stmt))
        new = step(stmt) if step is not None else self.visit(stmt)
        if new is stmt:
            return body
        return tuple(new) if type(new) is list else (new,)


# A loop's fields but its carries and body, and a carry's but its plan, are their input's: set
# unchecked (proved by the grammar)
_make_for = trusted_maker(ClassifyIterArgCarry, "For", ("iters", "body"))
_make_while = trusted_maker(ClassifyIterArgCarry, "While", ("iters", "body"))
_make_iter_arg = trusted_maker(ClassifyIterArgCarry, "IterArg", ("plan",))


class _Rebinds(Exception):
    """``run_in_one_walk``'s guess of the roots was wrong: a carry it took for its init is rebound."""


def final_yield(body):
    """The ``Yield`` ending a loop's body, seen through the compiler's scopes (``last_yield``'s
    answer for a loop body), or None."""
    while len(body) == 1:
        inner = body[0]
        if inner._production != "Scope" or inner.origin is not COMPILER:
            break
        body = inner.body
    return body[-1] if body and body[-1]._production == "Yield" else None


def per_iteration_loops(body, carries_tid=lambda it: is_task_id(it.var), check: bool = True) -> dict[int, int]:
    """id -> N for the pl.parallel loops inside a manual scope with an iter_arg ``carries_tid``
    accepts (with ``check``, a dynamic trip count is a user error; without, such a loop is left
    out)."""
    found: dict[int, int] = {}
    if not any(s._production == "Scope" and s.mode is MANUAL for s in walk_of(body).compound):
        return found  # no manual scope: nothing to look for
    # Each body's statements last to first, a compound statement's bodies (last to first) before
    # the statements ahead of it: the order of the first error found. One iterator per body on
    # the stack (with whether a manual scope encloses it): no entry per statement.
    stack = [(reversed(body), False)]
    while stack:
        stmts, manual = stack[-1]
        for stmt in stmts:
            kind = stmt._production
            if kind not in _COMPOUND:
                continue
            if kind == "Scope" or kind == "CompilerScope":
                stack.append((reversed(stmt.body), manual or stmt.mode is MANUAL))
            elif kind == "If":
                stack.append((reversed(stmt.then + stmt.orelse), manual))
            else:  # a loop
                if manual and kind == "For" and stmt.kind is PARALLEL and any(map(carries_tid, stmt.iters)):
                    count = static_trip_count(stmt)
                    if count is None or count <= 0:
                        if check:
                            raise UserError(
                                "a pl.parallel loop that carries a TaskId in a manual scope must have a "
                                "statically-known trip count: the runtime fence needs a PTO2TaskId[N] array of fixed N",
                                stmt.span,
                                hint="make the trip count a Python int, e.g. pl.parallel(4)",
                            )
                    else:
                        found[id(stmt)] = count
                stack.append((reversed(stmt.body), manual))
            break
        else:  # this body is done
            stack.pop()
    return found


def carries_task_ids(body) -> bool:
    """Whether a loop carry or an if result under ``body`` is a TaskId."""
    for stmt in iter_stmts(body):
        kind = stmt._production
        if kind in LOOPS and any(is_task_id(it.var) for it in stmt.iters):
            return True
        if kind == "If" and any(is_task_id(getattr(res, "var", res)) for res in stmt.results):
            return True
    return False


class TidShapes:
    """How many TaskIds each TaskId value holds (0: one id; N: an array of N), to a fixpoint."""

    def __init__(self, per_iteration: dict[int, int], strict: bool = True):
        self.per_iteration = per_iteration
        # not ``strict``: what would be a user error is recorded instead (``several``) or skipped
        self.strict = strict
        self.several: set[tuple[int, int]] = set()  # (id(per-iteration loop), k): its yield k may hold several ids
        self.shape: dict[str, int] = {}
        self.yielded: dict[str, int] = {}  # iter_arg -> the shape of what its loop's body yields

    def set(self, name: str, shape: int) -> None:
        self.shape[name] = shape

    def run(self, body) -> dict[str, int]:
        self.block(body)
        return self.shape

    def of(self, expr) -> int:
        return self.shape.get(expr.name, 0) if expr is not None and expr._production == "Var" else 0

    def join(self, a: int, b: int, node) -> int:
        """The shape of a value that may be either: as many slots as the larger."""
        return max(a, b)

    def block(self, stmts) -> None:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let" and is_task_id(stmt.var) and stmt.value._production == "Var":
                self.set(stmt.var.name, self.of(stmt.value))
            elif kind == "Let" and stmt.value._production == "SetItem" and self.of(stmt.value.value) and self.strict:
                name = stmt.value.value.name.split("__")[0]
                raise UserError(
                    f"TaskId '{name}' stands here for the {self.of(stmt.value.value)} ids of a pl.parallel loop; "
                    "it cannot be stored in one array slot",
                    stmt.span,
                    hint=f"depend on it directly, or join it first: b = pl.system.task_dummy(deps=[{name}])",
                )
            elif kind in LOOPS:
                self.loop(stmt)
            elif kind == "If":
                self.block(stmt.then)
                self.block(stmt.orelse)
                yields = [y for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None]
                for k, res in enumerate(stmt.results):
                    res = getattr(res, "var", res)
                    if is_task_id(res):
                        shape = 0
                        for y in yields:
                            shape = self.join(shape, self.of(y.values[k]), stmt)
                        self.set(res.name, shape)
            elif kind in ("Scope", "CompilerScope"):
                self.block(stmt.body)

    def loop(self, loop) -> None:
        fan_in = self.per_iteration.get(id(loop), 0)
        tids = [(k, it, r) for k, (it, r) in enumerate(zip(loop.iters, loop.results)) if is_task_id(it.var)]
        shapes = self.shape
        while True:
            for k, it, result in tids:
                init = self.of(it.init)
                if fan_in:  # inside the body the carry stands for its init; the loop yields N slots
                    self.set(it.var.name, init)
                    self.set(result.name, fan_in)
                else:
                    self.carried(loop, it, result)
            seen = [shapes[it.var.name] for _, it, _ in tids]  # the carries' shapes this walk of the body sees
            self.block(loop.body)
            yld = last_yield(loop.body)
            if yld is not None and fan_in:
                for k, it, result in tids:
                    if self.of(yld.values[k]) and not self.strict:
                        self.several.add((id(loop), k))
                    elif self.of(yld.values[k]):
                        raise UserError(
                            "a pl.parallel loop that gives each iteration one TaskId slot must yield one TaskId "
                            "per iteration, but this one may yield several (the ids of a nested pl.parallel loop that "
                            "reach the yield other than directly or through ifs, or, in a loop whose body names one "
                            "slot of a TaskId "
                            "array the body binds or the loop carries, the ids its carry starts from)",
                            loop.span,
                        )
            if yld is not None and not fan_in:
                for k, it, result in tids:
                    value = yld.values[k]
                    # (a carry yielded unchanged keeps the shape the body sees)
                    shape = self.shape[it.var.name] if _same(value, it.var) else self.of(value)
                    self.yielded[it.var.name] = max(self.yielded.get(it.var.name, 0), shape)
                    self.carried(loop, it, result)
            # The fixpoint: the carries' shapes are what this walk saw, so another walk, seeing
            # the same, would set every shape under the body as this one did. (Not "no shape set
            # changed": a body's first walk sets all its names, so every loop walked its body
            # twice, and a body nested d deep was walked d + 1 times.)
            if [shapes[it.var.name] for _, it, _ in tids] == seen:
                return

    def carried(self, loop, it, result) -> None:
        """A sequential carry holds its init or what the body yields; the result of a loop that
        certainly runs holds what the body yields (its last iteration's)."""
        init, yielded = self.of(it.init), self.yielded.get(it.var.name)
        self.set(it.var.name, self.join(init, yielded or 0, loop))
        runs = (static_trip_count(loop) or 0) > 0 and yielded is not None
        self.set(result.name, yielded if runs else self.join(init, yielded or 0, loop))


def _same(value, binder) -> bool:
    return value is not None and value._production == "Var" and value.name == binder.name
