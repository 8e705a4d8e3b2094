"""A task or a tensor operation used as a value where a tensor is expected: a kernel call as a
task's argument (``self.k(self.j(x, t), y)``), as a returned value (``return self.k(...)``) or
as a view's operand, and a view as a task's argument (``self.k(pl.slice(t, ...), y)``).

Each such call is flattened, as the existing compiler's call flattening does: it becomes a
statement of its own before the statement that holds it, in evaluation order (innermost first),
binding a temporary the enclosing call reads. A temporary's name holds ``__`` (which a user name
cannot): ``<kernel>_out__call<k>`` for a kernel's result, ``<op>__call<k>`` for a view
(``slice__call0``), ``k`` counting per function. Elsewhere in an expression (arithmetic, a
condition) a task or tensor operation is still refused: it must be assigned to a name.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S

from ..names import dsl_call, self_method
from ..registry import OPS, VALUE

from ..scope import new_binding

VIEWS = ("tensor.slice", "tensor.reshape", "tensor.transpose", "tensor.view")  # the operations flattened here

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


def tensor_value(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    """``node``'s IR and type, a nested call flattened into ``cx.hoist``'s statements first."""
    if type(node) is ast.Call:
        if self_method(node.func) is not None:
            return kernel_result(cx, node)
        spelled = dsl_call(node)
        op = OPS.get(spelled) if spelled is not None else None
        if op is not None and op.name in VIEWS:
            form = op.forms[VALUE]
            value, ty = form.handler(cx, node, op.bind(cx, node, form))
            var = temporary(cx, op.name.rsplit(".", 1)[-1], ty, node)
            cx.hoist(L.Let.make(var, value, span=cx.span(node)))
            return L.Var.make(var.name, span=cx.span(node)), ty
    return cx.expr(node)


def kernel_result(cx: FunctionContext, call: ast.Call) -> tuple[Any, Any]:
    """``self.k(...)`` read as a value: the task, hoisted, and its one tensor result."""
    from .submits import kernel_call  # (submits reads its arguments with tensor_value)

    name = self_method(call.func)
    sig = cx.program.kernels.get(name)
    if sig is not None and (len(sig.results) != 1 or sig.results[0]._production != "TensorType"):
        raise cx.error(
            f"kernel '{name}' returns {len(sig.results)} value(s); a kernel call used as a value must return "
            "one tensor",
            call,
            hint="assign its results to names first",
        )
    task = kernel_call(cx, call, None, call)
    var = temporary(cx, f"{name}_out", sig.results[0], call)
    cx.hoist(task.replace(outs=(var,)))
    return L.Var.make(var.name, span=cx.span(call)), var.type


def temporary(cx: FunctionContext, stem: str, ty: Any, node: ast.AST) -> Any:
    name = f"{stem}__call{cx.temporaries}"
    cx.temporaries += 1
    cx.set_binding(name, new_binding(ty, "local", cx.span(node)))
    return L.Binder.make(name, ty, span=cx.span(node))
