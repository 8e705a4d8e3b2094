"""normalize_return_order: ssa -> ssa (ReturnParamsExplicit)."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

# Kernel ops whose result is (aliases) one of their arguments: op -> argument index.
WRITEBACK_OPS = {"store": 2, "assemble": 0, "tensor.assemble": 0, "=": 0}


@register
class NormalizeReturnOrder(Pass):
    """Make every kernel's return name the parameters it writes back.

    Follows each returned value of a kernel body back through plain copies, ``pl.store``
    (result = the stored-to tensor) and ``pl.assemble`` (result = the target) to a parameter,
    and rewrites the return to name that parameter directly (``(KReturn [(Var output)])``).
    Afterwards the result -> written parameter map of a kernel is a lookup on its return
    statement (ReturnParamsExplicit); values that reach no Out/InOut parameter are unchanged.
    """

    name = "normalize_return_order"
    source = SSA
    target = SSA

    def Kernel(self, kernel):
        written = {p.name for p in kernel.params if p.dir is not ParamDir.In}
        lineage: dict[str, str] = {}
        for stmt in kernel.body:
            if stmt._production != "KAssign":
                continue
            source_index = WRITEBACK_OPS.get(stmt.op)
            source = stmt.args[source_index] if source_index is not None and source_index < len(stmt.args) else None
            for target in stmt.targets:
                lineage.pop(target, None)
            if source is not None and source._production == "Var" and len(stmt.targets) == 1:
                root = lineage.get(source.name, source.name)
                lineage[stmt.targets[0]] = root
        body = []
        changed = False
        for stmt in kernel.body:
            if stmt._production == "KReturn":
                values = []
                for value in stmt.values:
                    root = lineage.get(value.name, value.name) if value._production == "Var" else None
                    if root in written and root != value.name:
                        values.append(SSA.Var(root))
                        changed = True
                    else:
                        values.append(value)
                stmt = SSA.KReturn(values, span=stmt.span)
            body.append(stmt)
        return kernel.replace(body=body) if changed else kernel
