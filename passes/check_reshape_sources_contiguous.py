"""check_reshape_sources_contiguous: ssa -> ssa (a check)."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import SSA
from nanopass.rewrite import Pass, register

from .kernels import kernel_table, output_param_of_result
from .naming import base_name
from .util import iter_stmts, last_yield

# Values that are their operand's memory under another handle: the runtime copies the operand's
# first cache line (``is_contiguous`` with it) into theirs (runtime-api.md section 4).
_SAME_FLAG = {"SliceTensor": "tensor", "ReshapeTensor": "tensor", "AssembleTensor": "target", "Var": None}


@register
class CheckReshapeSourcesContiguous(Pass):
    """Refuse a ``pl.tensor.reshape`` (or ``pl.tensor.view``) of a tensor that may be a transposed
    view: the runtime's ``Tensor::reshape`` requires ``is_contiguous`` (an ``always_assert``,
    runtime-api.md section 4), which ``transpose`` clears and every other view op copies from
    its operand (``view``/``slice``), so a slice of a transposed view is not contiguous either.
    A transpose of a transposed view is taken as not contiguous too, as the stand-in runtime
    header (``tools/pto_orchestration_api.h``) computes it. A slice of a contiguous tensor keeps the
    flag, so its reshape is accepted (the runtime restrides it row-major from the slice's
    origin, as the trace model does).

    "May be" follows values through copies, views, a kernel's results (the argument each
    aliases), ``pl.assemble``'s result, ``if`` results and loop carries, to a fixpoint. The
    error is located at the reshape and names the transpose. The program is returned unchanged; afterwards no reshape's source may
    be a transposed view.
    """

    name = "check_reshape_sources_contiguous"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        stmts = list(iter_stmts(func.body))
        if not any(s._production == "Let" and s.value._production == "TransposeTensor" for s in stmts):
            return program
        kernels = kernel_table(program)
        transposed: dict[str, object] = {}  # name -> the Let of a transpose it may be a view of

        def of(expr):
            return transposed.get(expr.name) if expr is not None and expr._production == "Var" else None

        def mark(name: str, origin) -> bool:
            if origin is None or name in transposed:
                return False
            transposed[name] = origin
            return True

        changed = True
        while changed:  # the flag only grows: a walk that marks nothing new is the fixpoint
            changed = False
            for stmt in stmts:
                kind = stmt._production
                if kind == "Let":
                    value = stmt.value
                    if value._production == "TransposeTensor":
                        changed |= mark(stmt.var.name, of(value.tensor) or stmt)
                    elif value._production in _SAME_FLAG:
                        field = _SAME_FLAG[value._production]
                        changed |= mark(stmt.var.name, of(getattr(value, field) if field else value))
                elif kind == "Task":
                    kernel = kernels[stmt.kernel]
                    for i, out in enumerate(stmt.outs):
                        p = output_param_of_result(kernel, i)
                        if p is not None and p < len(stmt.args):
                            changed |= mark(out.name, of(stmt.args[p].value))
                elif kind in ("For", "While"):
                    yld = last_yield(stmt.body)
                    for k, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
                        origin = of(it.init) or (of(yld.values[k]) if yld is not None else None)
                        changed |= mark(it.var.name, origin)
                        changed |= mark(result.name, origin)
                elif kind == "If":
                    yields = [y for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None]
                    for k, res in enumerate(stmt.results):
                        origin = next((of(y.values[k]) for y in yields if of(y.values[k]) is not None), None)
                        changed |= mark(getattr(res, "var", res).name, origin)
        for stmt in stmts:
            if stmt._production == "Let" and stmt.value._production == "ReshapeTensor":
                origin = of(stmt.value.tensor)
                if origin is not None:
                    source, view = base_name(stmt.value.tensor.name), base_name(origin.var.name)
                    where = f"line {origin.span.line}" if origin.span is not None else "in the program"
                    what = (
                        f"'{source}', a transposed view ({where})"
                        if source == view
                        else f"'{source}', which may be a view of the transposed '{view}' ({where})"
                    )
                    raise UserError(
                        f"cannot reshape {what}: the runtime's reshape requires a contiguous tensor and asserts, and "
                        "a transposed view, or any view of one, is not contiguous",
                        stmt.value.span or stmt.span,
                        hint="reshape before transposing, or give the transposed view to a kernel as it is",
                    )
        return program
