"""derive_call_directions: ssa -> directed."""

from __future__ import annotations

from operator import itemgetter

from nanopass.languages import DIRECTED, SSA
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import carry_kept
from nanopass.languages.terms import ArgDir, LoopKind, ParamDir
from nanopass.rewrite import Pass, register, trusted_maker

from .hazards import FULL, storage_map
from .kernels import kernel_table
from .naming import base_name
from .util import iter_stmts

D = DIRECTED


# what each direction orders: after the slot's last writer (a read or an InOut write), and
# publishing this task as the slot's writer (runtime-api.md section 11's table)
ORDERS = {
    ArgDir.Input: {"waits"},
    ArgDir.OutputExisting: {"publishes"},
    ArgDir.InOut: {"waits", "publishes"},
}


_NOTHING: frozenset[str] = frozenset()

# For the per-argument and per-loop decisions: an Enum member read off its class is a Python call
# each time (Python 3.11's EnumType.__getattr__), a module-level name is not.
_SCALAR, _NO_DEP, _IN_OUT, _OUTPUT_EXISTING = ArgDir.Scalar, ArgDir.NoDep, ArgDir.InOut, ArgDir.OutputExisting
_IN, _SEQ = ParamDir.In, LoopKind.seq
_ROOT = itemgetter(0)  # (a place's root: places are (root, region) pairs)


def fixed_direction(param) -> ArgDir | None:
    """The direction of an argument at ``param`` when the parameter alone decides it (``pl.no_dep``
    aside): ``Scalar``, ``Input`` or ``InOut``; None for an Out tensor."""
    if param.type._production != "TensorType":
        return ArgDir.Scalar
    if param.dir is ParamDir.In:
        return ArgDir.Input
    if param.dir is ParamDir.InOut:
        return ArgDir.InOut
    return None


@register
class DeriveCallDirections(Pass):
    """Decide how the runtime tracks each task argument (its call-site direction).

    Scalars are ``Scalar``; a tensor at an In parameter is ``Input``, at an InOut parameter
    ``InOut``; ``pl.no_dep(t)`` makes it ``NoDep``. A tensor at an Out parameter is
    ``OutputExisting`` (the runtime registers the writer without waiting for earlier writers)
    only when this task is the first writer of that buffer; it is ``InOut`` (so the runtime
    orders it after earlier writers) inside a sequential loop, when an earlier task may have
    written a buffer the argument may be, or when it may be an InOut parameter of the
    orchestration function, all of it (not a view of one). Which buffers a name may be is
    ``storage_map``'s answer (through copies, views, kernel results, loop carries and if
    results; the result of a loop of constant bounds holds its last iteration's), asked of the
    same function by the passes around this one. Afterwards every ``Arg`` carries its direction.

    A call site's direction hint (``attrs={"arg_directions": [...]}``) is kept where it orders
    at least what the derived direction orders (``InOut`` for a read, say); where it orders less
    (``Input`` for a slot the kernel writes, ``OutputExisting`` for one it reads), the argument
    gets the weakest direction that orders both, ``InOut``. A note names every slot whose
    direction the hint changed or would have weakened.

    Preserves the single definitions and the yields (``preserves``): it sets the ``Arg``s'
    directions and changes nothing else (every statement, binder, body and yield is the input's).
    """

    name = "derive_call_directions"
    source = SSA
    target = DIRECTED
    preserves = frozenset({check_single_definition, check_yields})

    def run(self, program):
        self.kernels = kernel_table(program)
        # kernel -> each parameter's direction where the parameter alone decides it (None: an Out
        # tensor, decided by the writes before the task, or by pl.no_dep)
        self.fixed = {name: [fixed_direction(p) for p in kernel.params] for name, kernel in self.kernels.items()}
        func = program.orch
        body = self.analyze_writers(func)
        if body is None:  # (no task: the input in the target language's classes)
            result = self.visit(program)
        else:
            result = self.build(program, orch=self.build(func, body=body))
        # storage_map reads names, values, kernels and loops, none of which this pass changes
        # (it sets the Args' directions only): its result for the input holds for the output
        carry_kept(storage_map, func, result.orch)
        return result

    def analyze_writers(self, func) -> tuple | None:
        """Decide every task's directions from the buffers written before it (only an Out tensor
        parameter's direction depends on them: without one in a kernel called, no write is
        followed); the function's body with them (None: it calls no kernel)."""
        called = {stmt.kernel for stmt in iter_stmts(func.body) if stmt._production == "Task"}
        if not called:  # (no task to decide)
            return None
        follow = any(d is None for name in called for d in self.fixed[name])
        # kernel -> (fixed direction, whether the buffers of its argument are written) per parameter
        self.params = {name: [(fixed, follow and p.dir is not _IN) for fixed, p in zip(self.fixed[name], kernel.params)]
                       for name, kernel in self.kernels.items()}
        # the buffers each name may be: storage_map's roots (through copies, views, kernel results,
        # loop carries and if results), the walk the passes before and after this one ask of the
        # same function (``kept``)
        self.store = storage_map(func, self.kernels) if follow else {}
        # storage_map's places (shared by the names a copy, a carry or a result makes) -> their
        # roots, and a name without places -> itself: one set per distinct value, not per name
        self.held: dict[frozenset | str, set[str]] = {}
        self.inout_params = {p.name for p in func.params if p.dir is ParamDir.InOut}
        # the buffers written before the statement being decided; each addition is logged, so
        # that a branch's additions are undone in time proportional to them
        self.seen: set[str] = set()
        self.added: list[str] = []
        self.tables = (self.seen, self.added, self.inout_params, self.params, self.held_buffers, _SHARED, self.visit)
        return self.analyze(func.body, 0)

    def held_buffers(self, expr) -> set[str]:
        """The buffers ``expr`` may be (``storage_map``'s roots; a name it has no places for is its
        own buffer), computed once per distinct set of places (names that share ``storage_map``'s
        places share it). Callers do not change it."""
        if expr._production != "Var":
            return _NOTHING
        key = self.store.get(expr.name) or expr.name
        held = self.held.get(key)
        if held is None:
            held = self.held[key] = {key} if key is expr.name else set(map(_ROOT, key))  # (C-level calls)
        return held

    def may_be_inout_param(self, expr, held: set[str]) -> bool:
        """Whether ``expr``, which may be the buffers ``held``, may be an InOut parameter of the
        function itself (through copies, kernel results, carries and if results: storage_map's
        whole buffer), not a view of one."""
        inout = self.inout_params
        if inout.isdisjoint(held):  # (no InOut parameter's buffer at all: most arguments)
            return False
        return any(region is FULL and root in inout for root, region in self.store.get(expr.name, ()))

    def see(self, written) -> None:
        seen, added = self.seen, self.added
        for name in written:
            if name not in seen:
                seen.add(name)
                added.append(name)

    def unsee(self, mark: int) -> None:
        """Forget the buffers seen since ``self.added`` was ``mark`` long."""
        seen, added = self.seen, self.added
        while len(added) > mark:
            seen.discard(added.pop())

    def analyze(self, stmts: tuple, seq_depth: int) -> tuple:
        """Decide the directions of the tasks in ``stmts``, which run after the writes of the
        buffers in ``self.seen``, and add the buffers ``stmts`` may write to ``self.seen``;
        ``stmts`` in the target language (the tuple itself when every statement is the input's:
        a statement of a class both languages share is returned as it is)."""
        # (the buffers a body adds to ``self.seen`` are those it may write and that were not seen
        # before it: ``self.added`` past its mark, which is all an If needs of a branch)
        seen, added, inout, params, held_buffers, shared, visit = self.tables  # (one attribute: a loop's body is a call)
        out = []
        changed = False
        for stmt in stmts:
            kind = stmt._production
            if type(stmt) in shared:
                out.append(stmt)
                continue
            changed = True
            if kind == "Task":
                # the task's directions decided, its arguments built and its writes listed in one
                # loop (a method call per task costs about what an argument's decision does)
                args, written = [], []
                for arg, (fixed, writes) in zip(stmt.args, params[stmt.kernel]):
                    value = arg.value
                    if fixed is _SCALAR:
                        d = fixed
                    elif arg.no_dep:
                        d = _NO_DEP
                    elif fixed is not None:
                        d = fixed
                    elif seq_depth:
                        d = _IN_OUT
                    else:
                        held = held_buffers(value)
                        if not seen.isdisjoint(held) or (not inout.isdisjoint(held) and self.may_be_inout_param(value, held)):
                            d = _IN_OUT
                        else:
                            d = _OUTPUT_EXISTING
                        if writes:  # (the buffers it may write: those just read)
                            written.append(held)
                            writes = False
                    args.append(_ARG(value, d if arg.hint is None else self.weigh_hint(arg, d, stmt), arg.span))
                    if writes:
                        written.append(held_buffers(value))
                out.append(_TASK(stmt.outs, stmt.tid, stmt.kernel, args, stmt.dumps, stmt.early_resolve, stmt.deps,
                                 stmt.launch, stmt.span))
                for held in written:  # (seen from the next statement on)
                    for name in held:
                        if name not in seen:
                            seen.add(name)
                            added.append(name)
            elif kind == "For":  # the body's writes are seen after the loop as they are in it
                body = self.analyze(stmt.body, seq_depth + (stmt.kind is _SEQ))
                out.append(_FOR(stmt.var, stmt.start, stmt.stop, stmt.step, stmt.kind, stmt.iters, body, stmt.results, stmt.span))
            elif kind == "While":
                body = self.analyze(stmt.body, seq_depth + 1)
                out.append(_WHILE(stmt.iters, stmt.cond, body, stmt.results, stmt.span))
            elif kind == "If":  # each branch runs after what came before, not after the other
                mark = len(added)
                then = self.analyze(stmt.then, seq_depth)
                written = added[mark:]
                self.unsee(mark)
                orelse = self.analyze(stmt.orelse, seq_depth)
                self.see(written)  # (after the If: what either branch may write)
                out.append(_IF(stmt.cond, then, orelse, stmt.results, stmt.span))
            elif kind == "Scope":
                out.append(_SCOPE(stmt.mode, self.analyze(stmt.body, seq_depth), stmt.span))
            else:  # (a statement holding no statement, of a class the languages do not share: a Dummy)
                out.append(visit(stmt))
        return tuple(out) if changed else stmts

    def Dummy(self, dummy):
        """The user's ``pl.system.task_dummy``, of no purpose: a dependency-only dummy task."""
        return _DUMMY(dummy.var, self.visit_all(dummy.deps), None, dummy.span)

    def weigh_hint(self, arg, derived: ArgDir, task) -> ArgDir:
        """The direction of a slot whose call site asks for ``arg.hint``; ``derived`` is this pass's."""
        hint = arg.hint
        if derived not in ORDERS or hint is derived:
            return derived
        name = base_name(arg.value.name) if arg.value._production == "Var" else "?"
        if ORDERS[derived] <= ORDERS[hint]:
            self.ctx.note("direction-hint", f"{task.kernel}: argument {name} is {hint.name} as attrs asks "
                          f"(derived: {derived.name}, which orders less)", arg.span)
            return hint
        self.ctx.note("direction-hint", f"{task.kernel}: attrs asks for {hint.name} on argument {name}, which "
                      f"orders less than the derived {derived.name}; passed as InOut", arg.span)
        return ArgDir.InOut


# the output's Arg: its direction checked, its value and span the input's (the grammar proves
# them: ``trusted_maker``). A Task and a compound statement built trusted (``make_trusted``): their
# arguments are Args ``_ARG`` built, their bodies the statements ``analyze`` returns (the input's,
# of a class the output keeps, or built by these makers), every other field the input's node's of
# a kind the two languages share (the grammar's proof, ``trusted_maker``'s, checked below at import)
_ARG = trusted_maker(DeriveCallDirections, "Arg", ("dir",))
_DUMMY = trusted_maker(DeriveCallDirections, "Dummy", ("deps", "purpose"))
_TASK = D.Task.make_trusted
_FOR = D.For.make_trusted
_WHILE = D.While.make_trusted
_IF = D.If.make_trusted
_SCOPE = D.Scope.make_trusted
for _production, _built in (("Task", ("args",)), ("For", ("body",)), ("While", ("body",)), ("If", ("then", "orelse")),
                            ("Scope", ("body",))):
    trusted_maker(DeriveCallDirections, _production, _built)  # (raises unless the grammar proves the fields passed on)
# the classes the output keeps as they are (the framework's proof: the target language has the
# class, and nothing inside it is of a kind this pass changes): such a statement is the output's
_SHARED = DeriveCallDirections._inert
