"""place_scope_escaping_outputs: ssa -> ssa."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .allocations import held_allocations
from .kernels import kernel_table, output_param_of_result
from .util import BODY_FIELDS, var_reads

S = SSA


@register
class PlaceScopeEscapingOutputs(Pass):
    """Give an output the runtime would allocate inside a ``with`` block, and that is read after
    it, a buffer made before the block.

    The runtime frees a task's runtime-allocated (``Out`` without an argument) buffer once the
    task completed, its consumers released it and *its scope ended* (runtime-api.md section 11),
    so a use after the block would use freed memory. For each task directly in a user scope whose
    runtime-allocated result is read after the scope (in SSA a name escapes a ``with`` block by
    being read after it; a copy, view or carry of it counts, ``passes/allocations.py``), this pass adds ``(Let t (CreateTensor shape dtype))`` of the kernel
    parameter's static type just before the task and passes ``t`` as that ``Out`` argument (the
    result then aliases ``t``); ``hoist_scope_escapes`` later moves the allocation before the
    scope, into the enclosing one. Outputs whose parameter shape is not a constant are left as
    they are. Afterwards no runtime-allocated output of a task directly in a user scope is read
    after that scope.
    """

    name = "place_scope_escaping_outputs"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        self.kernels = kernel_table(program)
        if not any(self.may_allocate(stmt) for scope in _walk(func.body) if scope._production == "Scope"
                   for stmt in scope.body):
            return program
        # allocation -> the names that may hold it (``held_allocations`` inverted)
        self.holders: dict[str, list[str]] = {}
        for name, allocations in held_allocations(func, self.kernels).items():
            for allocation in allocations:
                self.holders.setdefault(allocation, []).append(name)
        self.counter = 0
        self.taken = {b for b in _binder_names(func.body)} | {p.name for p in func.params}
        body = self.sequence(func.body, after=())
        return S.Program(program.name, program.kernels, func.replace(body=body), span=program.span)

    def sequence(self, stmts, after: tuple) -> tuple:
        """``after``: the names read after this statement list (outside it), as layers: a name is
        read after it when it is in one of them (``_read_in``)."""
        out = []
        stmts = tuple(stmts)
        # the read counts of the statements after the current one (a name whose count falls to
        # 0 is removed): every statement's reads are taken out before it is handled
        rest = var_reads(stmts)
        later = after + (rest,)
        for stmt in stmts:
            reads = var_reads(stmt)
            for name, count in reads.items():
                left = rest[name] - count
                if left:
                    rest[name] = left
                else:
                    del rest[name]
            fields = BODY_FIELDS.get(stmt._production)
            if not fields:
                out.append(stmt)
                continue
            if stmt._production == "Scope":
                body = []
                for inner in self.sequence(stmt.body, later):
                    body += self.allocate(inner, later) if inner._production == "Task" else [inner]
                out.append(stmt.replace(body=tuple(body)))
            else:
                # a loop body's reads in later iterations are reads after an inner scope too
                inner_after = later + (reads,) if stmt._production in ("For", "While") else later
                out.append(stmt.replace(**{f: self.sequence(getattr(stmt, f), inner_after) for f in fields}))
        return tuple(out)

    def may_allocate(self, stmt) -> bool:
        """Whether ``stmt`` is a task with an output the runtime allocates (``allocate`` changes
        no other statement)."""
        if stmt._production != "Task":
            return False
        kernel = self.kernels[stmt.kernel]
        for i in range(len(stmt.outs)):
            p = output_param_of_result(kernel, i)
            if p is not None and p >= len(stmt.args):
                return True
        return False

    def allocate(self, task, after) -> list:
        kernel = self.kernels[task.kernel]
        args = list(task.args)
        before = []
        for i, out in enumerate(task.outs):
            p = output_param_of_result(kernel, i)
            if p is None or p != len(args) or not any(_read_in(n, after) for n in self.holders.get(out.name, ())):
                continue  # (a copy, view or carry read after the scope may hold the output too)
            param = kernel.params[p]
            if param.dir is not ParamDir.Out or param.type._production != "TensorType":
                break
            if any(d._production != "Int" for d in param.type.shape):
                break
            name = self.fresh(out.name)
            var = S.Binder(name, out.type, span=out.span)
            before.append(S.Let(var, S.CreateTensor(param.type.shape, param.type.dtype, False, None), span=task.span))
            args.append(S.Arg(S.Var(name), False, None))
        if not before:
            return [task]
        return before + [task.replace(args=tuple(args))]

    def fresh(self, base: str) -> str:
        stem = base.split("__", 1)[0]
        while True:
            name = f"{stem}__out_v{self.counter}"
            self.counter += 1
            if name not in self.taken:
                self.taken.add(name)
                return name


def _read_in(name: str, layers: tuple) -> bool:
    return any(name in layer for layer in layers)


def _walk(stmts):
    for stmt in stmts:
        yield stmt
        for field in BODY_FIELDS.get(stmt._production, ()):
            yield from _walk(getattr(stmt, field))


def _binder_names(stmts) -> set[str]:
    from nanopass.language import walk

    return {node.name for node in walk(tuple(stmts)) if node._production == "Binder"}
