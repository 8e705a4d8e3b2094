"""assign_kernel_ids: core-typed -> numbered."""

from __future__ import annotations

from nanopass.languages import CORE_TYPED, NUMBERED
from nanopass.rewrite import Pass, register

from .util import iter_stmts

N = NUMBERED


@register
class AssignKernelIds(Pass):
    """Number the kernels the orchestration dispatches, in order of first dispatch (D5).

    Walks the orchestration body in program order; each task's kernel (for a Group: its AIC
    member, then its AIV member) gets the next id the first time it is dispatched, and keeps it
    for every later dispatch. Groups and kernels never dispatched have no id. Afterwards every
    dispatched AIC/AIV kernel has an id.
    """

    name = "assign_kernel_ids"
    source = CORE_TYPED
    target = NUMBERED

    def run(self, program):
        table = {k.name: k for k in program.kernels}
        ids: dict[str, int] = {}
        for stmt in iter_stmts(program.orch.body):
            if stmt._production != "Task":
                continue
            kernel = table[stmt.kernel]
            for name in kernel.members or [kernel.name]:
                if name not in ids:
                    ids[name] = len(ids)
        kernels = [
            N.Kernel(
                k.name, k.kind, k.params, k.results, k.body, k.dual_dispatch, k.core, k.members,
                None if k.members else ids.get(k.name), span=k.span,
            )
            for k in program.kernels
        ]
        return N.Program(program.name, kernels, program.orch, span=program.span)
