"""derive_call_directions: ssa -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED, SSA
from nanopass.languages.terms import ArgDir, LoopKind, ParamDir
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .kernels import kernel_table
from .util import iter_stmts, last_yield

D = DIRECTED
VIEWS = ("SliceTensor", "TransposeTensor", "ReshapeTensor")


@register
class DeriveCallDirections(Pass):
    """Decide how the runtime tracks each task argument (its call-site direction).

    Scalars are ``Scalar``; a tensor at an In parameter is ``Input``, at an InOut parameter
    ``InOut``; ``pl.no_dep(t)`` makes it ``NoDep``. A tensor at an Out parameter is
    ``OutputExisting`` (the runtime registers the writer without waiting for earlier writers)
    only when this task is the first writer of that buffer; it is ``InOut`` (so the runtime
    orders it after earlier writers) inside a sequential loop, when an earlier task may have
    written the same buffer, or when the buffer is an InOut parameter of the orchestration
    function. Afterwards every ``Arg`` carries its direction.
    """

    name = "derive_call_directions"
    source = SSA
    target = DIRECTED

    def run(self, program):
        self.kernels = kernel_table(program)
        func = program.orch
        self.roots = buffer_roots(func, self.kernels)
        self.views = {
            stmt.var.name: stmt.value.tensor.name
            for stmt in iter_stmts(func.body)
            if stmt._production == "Let" and stmt.value._production in VIEWS and stmt.value.tensor._production == "Var"
        }
        self.may = self.may_hold(func)
        self.inout_params = {p.name for p in func.params if p.dir is ParamDir.InOut}
        self.decided: dict[int, list[ArgDir]] = {}
        self.analyze(func.body, set(), 0)
        return self.visit(program)

    def root(self, expr) -> str | None:
        return self.roots.get(expr.name, expr.name) if expr._production == "Var" else None

    def storage(self, expr) -> str | None:
        """The root of the buffer ``expr`` is (a view's is the viewed buffer's)."""
        name = self.root(expr)
        while name in self.views:
            name = self.roots.get(self.views[name], self.views[name])
        return name

    def buffers(self, expr) -> set[str]:
        """Every buffer root ``expr`` may be (a rebound carry or if result: each value it takes)."""
        name = self.storage(expr)
        if name is None:
            return set()
        return self.may.get(name, set()) | {name}

    def may_hold(self, func) -> dict[str, set[str]]:
        """Carry / if-result root -> the buffer roots of the values it may take (a fixpoint)."""
        may: dict[str, set[str]] = {}
        self.may = may
        joins = []
        for stmt in iter_stmts(func.body):
            if stmt._production == "For":
                yld = last_yield(stmt.body)
                for k, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
                    values = [it.init] + ([yld.values[k]] if yld is not None else [])
                    joins.append(([it.var.name, result.name], values))
            elif stmt._production == "If":
                for k, result in enumerate(stmt.results):
                    values = [y.values[k] for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None]
                    joins.append(([result.name], values))
        changed = True
        while changed:
            changed = False
            for names, values in joins:
                held = set().union(*(self.buffers(v) for v in values))
                for name in names:
                    key = self.roots.get(name, name)
                    if not held <= may.get(key, set()):
                        may[key] = may.get(key, set()) | held
                        changed = True
        return may

    def written_roots(self, stmt) -> set[str]:
        kernel = self.kernels[stmt.kernel]
        out: set[str] = set()
        for arg, param in zip(stmt.args, kernel.params):
            if param.dir is not ParamDir.In:
                out |= self.buffers(arg.value)
        return out

    def analyze(self, stmts, seen: set[str], seq_depth: int) -> None:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                self.decided[id(stmt)] = self.directions(stmt, seen, seq_depth)
                seen |= self.written_roots(stmt)
            elif kind == "For":
                self.analyze(stmt.body, set(seen), seq_depth + (stmt.kind is LoopKind.seq))
                seen |= self.subtree_writes(stmt.body)
            elif kind == "If":
                self.analyze(stmt.then, set(seen), seq_depth)
                self.analyze(stmt.orelse, set(seen), seq_depth)
                seen |= self.subtree_writes(stmt.then) | self.subtree_writes(stmt.orelse)
            elif kind in ("Scope", "CompilerScope"):
                self.analyze(stmt.body, seen, seq_depth)

    def subtree_writes(self, stmts) -> set[str]:
        out: set[str] = set()
        for stmt in iter_stmts(stmts):
            if stmt._production == "Task":
                out |= self.written_roots(stmt)
        return out

    def directions(self, task, seen: set[str], seq_depth: int) -> list[ArgDir]:
        kernel = self.kernels[task.kernel]
        dirs = []
        for arg, param in zip(task.args, kernel.params):
            if param.type._production != "TensorType":
                dirs.append(ArgDir.Scalar)
            elif arg.no_dep:
                dirs.append(ArgDir.NoDep)
            elif param.dir is ParamDir.In:
                dirs.append(ArgDir.Input)
            elif param.dir is ParamDir.InOut:
                dirs.append(ArgDir.InOut)
            else:
                root = self.root(arg.value)
                if seq_depth > 0 or self.buffers(arg.value) & seen or root in self.inout_params:
                    dirs.append(ArgDir.InOut)
                else:
                    dirs.append(ArgDir.OutputExisting)
        return dirs

    def Task(self, task):
        dirs = self.decided[id(task)]
        args = [D.Arg(arg.value, d, span=arg.span) for arg, d in zip(task.args, dirs)]
        return D.Task(task.outs, task.tid, task.kernel, args, task.deps, span=task.span)
