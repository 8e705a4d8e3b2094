"""place_scope_escaping_outputs: ssa -> ssa."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .allocations import held_allocations
from .kernels import kernel_table, output_param_of_result
from .util import BODY_FIELDS, iter_stmts, var_reads

S = SSA


@register
class PlaceScopeEscapingOutputs(Pass):
    """Give an output the runtime would allocate inside a ``with`` block, and that is read after
    it, a buffer made before the block.

    The runtime frees a task's runtime-allocated (``Out`` without an argument) buffer once the
    task completed, its consumers released it and *its scope ended* (runtime-api.md section 11),
    so a use after the block would use freed memory. For each task directly in a user scope, or
    in its ``if`` branches, whose runtime-allocated result is read after the scope (in SSA a name
    escapes a ``with`` block by being read after it; a copy, view or carry of it counts,
    ``passes/allocations.py``; a read by a copy or view that nothing reads does not), this pass
    adds ``(Let t (CreateTensor shape dtype))`` of the kernel parameter's static type just before
    the task and passes ``t`` as that ``Out`` argument (the result then aliases ``t``), and so for
    the ``Out`` arguments left out before it (arguments are positional); ``hoist_scope_escapes``
    later moves the allocation before the scope, into the enclosing one. A parameter shape's
    extents are constants or ``pl.dynamic`` symbols the orchestration declares (read at entry:
    ``define_dynamic_dim_symbols`` refuses an output of a symbol it does not declare); such
    outputs are placed too. Allocations in a loop inside the
    scope (``place_loop_allocations_before_scopes``, which runs next, places those). Afterwards no runtime-allocated output of a task directly in a user scope or in its
    branches is read after that scope.
    """

    name = "place_scope_escaping_outputs"
    source = SSA
    target = SSA

    def __init__(self, ctx=None):
        super().__init__(ctx)
        # (kernel, number of arguments, number of outputs) -> whether such a task has an output
        # the runtime allocates (``may_allocate``)
        self.allocating: dict[tuple, bool] = {}

    def run(self, program):
        func = program.orch
        self.kernels = kernel_table(program)
        self.dyn_dims = {d.name for d in func.dyn_dims}
        if not self.applies(func):
            return program
        # allocation -> the names that may hold it (``held_allocations`` inverted)
        self.holders: dict[str, list[str]] = {}
        for name, allocations in held_allocations(func, self.kernels).items():
            for allocation in allocations:
                self.holders.setdefault(allocation, []).append(name)
        self.dead = _dead_copies(func.body)
        self.counter = 0
        self.taken = {b for b in _binder_names(func.body)} | {p.name for p in func.params}
        body = self.sequence(func.body, after=())
        return S.Program(program.name, program.kernels, func.replace(body=body), span=program.span)

    def applies(self, func) -> bool:
        """Whether the program has a statement this pass may change (a cheap early exit)."""
        return any(self.may_allocate(stmt) for scope in iter_stmts(func.body) if scope._production == "Scope"
                   for stmt in _in_branches(scope.body))

    def place_scope(self, scope, after: tuple) -> list:
        """The statements that stand for ``scope`` (its inner scopes placed already by ``sequence``)."""
        return [scope.replace(body=self.place(scope.body, after))]

    def sequence(self, stmts, after: tuple) -> tuple:
        """``after``: the names read after this statement list (outside it), as layers of read
        counts: a name is read after it when one of them holds it (``_read_in``)."""
        out = []
        stmts = tuple(stmts)
        each = [self.live_reads((stmt,)) for stmt in stmts]
        # the live reads of the statements after the current one: each statement's are taken out
        # before it is handled (in place: ``later`` holds this dict)
        rest: dict[str, int] = {}
        for reads in each:
            for name, count in reads.items():
                rest[name] = rest.get(name, 0) + count
        later = after + (rest,)
        for stmt, reads in zip(stmts, each):
            for name, count in reads.items():
                left = rest[name] - count
                if left:
                    rest[name] = left
                else:
                    del rest[name]
            fields = BODY_FIELDS.get(stmt._production)
            if not fields:
                out.append(stmt)
            elif stmt._production == "Scope":
                out += self.place_scope(stmt.replace(body=self.sequence(stmt.body, later)), later)
            else:
                # a loop body's reads in later iterations are reads after an inner scope too
                inner_after = later + (reads,) if stmt._production in ("For", "While") else later
                out.append(stmt.replace(**{f: self.sequence(getattr(stmt, f), inner_after) for f in fields}))
        return tuple(out)

    def live_reads(self, stmts) -> dict[str, int]:
        """How often ``stmts`` read each name, but for the reads of copies and views nothing reads."""
        out: dict[str, int] = {}

        def add(counts) -> None:
            for name, count in counts.items():
                out[name] = out.get(name, 0) + count

        for stmt in stmts:
            if stmt._production == "Let" and stmt.var.name in self.dead:
                continue
            fields = BODY_FIELDS.get(stmt._production, ())
            if not fields:
                add(var_reads(stmt))
                continue
            for name, many in stmt._child_fields:
                if name in fields:
                    add(self.live_reads(getattr(stmt, name)))
                else:
                    value = getattr(stmt, name)
                    add(var_reads(list(value) if many else [] if value is None else [value]))
        return out

    def place(self, stmts, after) -> tuple:
        """Allocate the escaping outputs of the tasks in a scope's body, directly or in its ``if``
        branches (``hoist_scope_escapes`` moves their allocations out of both)."""
        out = []
        for stmt in stmts:
            if stmt._production == "Task":
                out += self.allocate(stmt, after)
            elif stmt._production == "If":
                out.append(stmt.replace(then=self.place(stmt.then, after), orelse=self.place(stmt.orelse, after)))
            else:
                out.append(stmt)
        return tuple(out)

    def may_allocate(self, stmt) -> bool:
        """Whether ``stmt`` is a task with an output the runtime allocates (``allocate`` changes
        no other statement): a fact of its kernel and how many arguments and outputs it has,
        found once for each (``allocating``)."""
        if stmt._production != "Task":
            return False
        key = (stmt.kernel, len(stmt.args), len(stmt.outs))
        known = self.allocating.get(key)
        if known is None:
            kernel = self.kernels[stmt.kernel]
            known = self.allocating[key] = any(
                (p := output_param_of_result(kernel, i)) is not None and p >= key[1] for i in range(key[2]))
        return known

    def allocate(self, task, after) -> list:
        kernel = self.kernels[task.kernel]
        args = list(task.args)
        missing = {}  # parameter index -> its result, for the Out arguments the call leaves out
        for i, out in enumerate(task.outs):
            p = output_param_of_result(kernel, i)
            if p is not None and p >= len(args):
                missing[p] = out
        # (a copy, view or carry read after the scope may hold the output too)
        escaping = [p for p, out in missing.items() if any(_read_in(n, after) for n in self.holders.get(out.name, ()))]
        if not escaping:
            return [task]
        before = []
        for p in range(len(args), max(escaping) + 1):  # arguments are positional: the ones before too
            out, param = missing.get(p), kernel.params[p]
            if out is None or param.dir is not ParamDir.Out or param.type._production != "TensorType":
                break
            shape = self.shape_of(param)
            if shape is None:
                break
            name = self.fresh(out.name)
            var = S.Binder(name, out.type, span=out.span)
            before.append(S.Let(var, S.CreateTensor(shape, param.type.dtype, False, None), span=task.span))
            args.append(S.Arg(S.Var(name), False, None))
        if not before:
            return [task]
        return before + [task.replace(args=tuple(args))]

    def shape_of(self, param) -> tuple | None:
        """``param``'s shape as the orchestration can create it: constants, and ``pl.dynamic``
        symbols it declares; None for another symbol."""
        shape = []
        for d in param.type.shape:
            if d._production == "Int":
                shape.append(d)
            elif d._production == "Var" and d.name in self.dyn_dims:
                shape.append(S.Var(d.name, span=d.span))
            else:
                return None
        return tuple(shape)

    def fresh(self, base: str) -> str:
        stem = base.split("__", 1)[0]
        while True:
            name = f"{stem}__out_v{self.counter}"
            self.counter += 1
            if name not in self.taken:
                self.taken.add(name)
                return name


_COPIES = frozenset({"Var", "SliceTensor", "TransposeTensor", "ReshapeTensor"})


def _dead_copies(body) -> set[str]:
    """The binders of copies and views (``Let``s of a name or a view) that nothing reads, also
    through other such binders: a swap left unused reads nothing (``remove_dead_values`` drops
    them later)."""
    reads = var_reads(body)
    copies = [s for s in iter_stmts(body) if s._production == "Let" and s.value._production in _COPIES]
    dead: set[str] = set()
    changed = True
    while changed:
        changed = False
        for let in copies:
            if let.var.name not in dead and not reads.get(let.var.name):
                dead.add(let.var.name)
                for name, count in var_reads(let.value).items():
                    reads[name] -= count
                changed = True
    return dead


def _read_in(name: str, layers: tuple) -> bool:
    return any(name in layer for layer in layers)


def _in_branches(stmts):
    """The statements of ``stmts`` and of their ``if`` branches, at any depth (what ``place``
    visits)."""
    for stmt in stmts:
        yield stmt
        if stmt._production == "If":
            yield from _in_branches(stmt.then)
            yield from _in_branches(stmt.orelse)


def _binder_names(stmts) -> set[str]:
    from nanopass.language import walk

    return {node.name for node in walk(tuple(stmts)) if node._production == "Binder"}
