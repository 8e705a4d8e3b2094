"""materialize_result_buffers: ssa -> ssa."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.language import walk
from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .kernels import written_param_of_result
from .naming import base_name

S = SSA


def result_buffer_name(index: int) -> str:
    """The parameter (and the caller's first buffer) for a kernel's result ``index``: the
    reference's ``ret<i>__out`` (role ``out``, so the C++ keeps the whole name)."""
    return f"ret{index}__out"


@register
class MaterializeResultBuffers(Pass):
    """Give each new tensor a kernel returns a buffer its caller creates (reference-surface S6).

    A tensor result of a kernel that no parameter holds (its return names no parameter, and no
    Out/InOut parameter is left that another result does not name) has nowhere to live: the
    kernel gains an Out parameter ``ret<i>__out`` of the result's type (i = the result's
    position), which its return now names. Every dispatch that passes all of the kernel's other
    parameters creates the buffer right before it (``ret<i>__out``, then ``ret<i>__out_v1``, ...
    a create batched into ``alloc_tensors`` like any other) and passes it; a ``pl.submit`` that
    omits trailing Out parameters omits this one too, and the runtime allocates it. A result
    whose shape names a dynamic dimension the orchestration function does not declare is a user
    error (the caller cannot size it). Afterwards every tensor result of every kernel is one of
    its parameters.
    """

    name = "materialize_result_buffers"
    source = SSA
    target = SSA

    def run(self, program):
        self.added: dict[str, list[tuple[int, object]]] = {}  # kernel -> [(result index, type)]
        kernels = [self.kernel(k) for k in program.kernels]
        if not self.added:
            return program
        self.params = {k.name: len(k.params) for k in program.kernels}
        func = program.orch
        self.dims = {d.name for d in func.dyn_dims} | {p.name for p in func.params}
        self.taken = {b.name for b in walk(func.body) if b._production == "Binder"}
        self.taken |= {p.name for p in func.params}
        self.count: dict[str, int] = {}
        orch = func.replace(body=self.visit_all(func.body))
        return S.Program(program.name, kernels, orch, span=program.span)

    def kernel(self, kernel):
        missing = [
            (i, ty) for i, ty in enumerate(kernel.results)
            if ty._production == "TensorType" and written_param_of_result(kernel, i) is None
        ]
        if not missing:
            return kernel
        self.added[kernel.name] = missing
        params = list(kernel.params)
        ret = next((s for s in kernel.body if s._production == "KReturn"), None)
        values = list(ret.values) if ret is not None else []
        values += [S.KOther("") for _ in range(len(kernel.results) - len(values))]
        for i, ty in missing:
            params.append(S.Param(result_buffer_name(i), ty, ParamDir.Out, span=kernel.span))
            values[i] = S.Var(result_buffer_name(i))
        new_ret = S.KReturn(values, span=ret.span if ret is not None else kernel.span)
        body = [new_ret if s is ret else s for s in kernel.body]
        if ret is None:
            body.append(new_ret)
        return kernel.replace(params=params, body=body)

    def fresh(self, index: int) -> str:
        base = result_buffer_name(index)
        k = self.count.get(base, 0)
        while True:
            name = f"{base}_v{k}" if k else base
            k += 1
            if name not in self.taken:
                self.count[base] = k
                self.taken.add(name)
                return name

    def Task(self, task):
        added = self.added.get(task.kernel)
        if not added or len(task.args) < self.params[task.kernel]:
            return task  # a submit omitting trailing Out parameters: the runtime allocates them
        creates, args = [], list(task.args)
        for i, ty in added:
            for dim in ty.shape:
                for node in walk(dim):
                    if node._production == "Var" and node.name not in self.dims:
                        raise UserError(
                            f"kernel '{task.kernel}' returns a new tensor (result {i}) whose shape uses "
                            f"'{base_name(node.name)}', which no parameter of the orchestration function declares",
                            task.span,
                            hint=f"give '{task.kernel}' an Out parameter for it and pass a buffer",
                        )
            name = self.fresh(i)
            create = S.CreateTensor(ty.shape, ty.dtype, False, None)
            creates.append(S.Let(S.Binder(name, ty, span=task.span), create, span=task.span))
            args.append(S.Arg(S.Var(name, span=task.span), False, None, span=task.span))
        return creates + [task.replace(args=args)]
