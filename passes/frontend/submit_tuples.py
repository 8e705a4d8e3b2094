"""A ``pl.submit`` / ``pl.spmd_submit`` assigned to a single name: the name binds the whole tuple
``(results..., task_id)`` (reference-surface.md section 1: "a single LHS binds the whole tuple";
frontend-behaviour.md 3.5: the Submit's type is the flat ``Tuple[<declared returns>..., TID]``).

``r = pl.submit(self.k, x, out)`` binds ``r``; ``r[0]`` is the kernel's result, ``r[1]`` (or
``r[-1]``) its TaskId, with as many result elements before the TaskId as the kernel declares
returns. The tuple is the front end's alone: each element is bound to a variable of the compiler's
(``r__res<k>``, ``r__tid``, whose C++ name is ``r``: ``naming.base_name``), and an index
``r[k]`` (a constant, anywhere an expression or a ``deps=`` entry is read) is that variable. ``r``
itself is no value: used bare (``deps=[r]``, ``self.k(r, ...)``, ``y = r``) it is refused at the
use, naming the element to write instead, as the existing compiler refuses a tuple in ``deps=``
(frontend-behaviour.md 3.6: an entry must be a TaskId variable).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S

from .scope import new_binding
from .type_reader import type_text

if TYPE_CHECKING:
    from .context import FunctionContext

L = S.LANGUAGE


class SubmitTuple:
    """The type of a name bound to a submit's whole tuple: its elements' variables and types, the
    TaskId last, and the line of the submit (for messages)."""

    _production = "SubmitTuple"
    __slots__ = ("names", "types", "line", "what")

    def __init__(self, names: tuple[str, ...], types: tuple[Any, ...], line: int, what: str):
        self.names, self.types, self.line, self.what = names, types, line, what

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubmitTuple) and self.names == other.names and self.types == other.types

    def __hash__(self) -> int:
        return hash(self.names)

    def text(self) -> str:
        return f"pl.Tuple[{', '.join(type_text(t) for t in self.types)}]"


def element_names(name: str, results: int) -> tuple[list[str], str]:
    """The variables of the elements of the tuple ``name``: its results' and its TaskId's. The same
    name every time ``name`` is assigned, so a tuple assigned again in a loop carries its elements."""
    return [f"{name}__res{k}" for k in range(results)], f"{name}__tid"


def bind_element(cx: FunctionContext, name: str, ty: Any, node: ast.AST) -> Any:
    """``Scope.bind`` for an element variable: its name has the ``__`` a user's name may not have."""
    existing = cx.visible.get(name)
    span = cx.span(node)
    if existing is None:
        cx.set_binding(name, new_binding(ty, "local", span))
        if name in cx.closed:
            del cx.closed[name]
    return L.Binder.make(name, ty if existing is None else existing.type, span=span)


def is_tuple_name(cx: FunctionContext, node: ast.expr) -> bool:
    if not isinstance(node, ast.Name):
        return False
    binding = cx.visible.get(node.id)
    return binding is not None and type(binding.type) is SubmitTuple


def element(cx: FunctionContext, node: ast.Subscript) -> tuple[Any, Any]:
    """``r[k]`` of a tuple name ``r``: the element's variable and type."""
    tup = cx.visible[node.value.id].type
    index = node.slice
    k = None
    if isinstance(index, ast.Constant) and type(index.value) is int:
        k = index.value
    elif (isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant)
          and type(index.operand.value) is int):
        k = -index.operand.value
    size = len(tup.names)
    if k is None:
        raise cx.error(f"'{node.value.id}' is the tuple of the {tup.what} at line {tup.line}: index it with a "
                       f"constant, 0 to {size - 1} (or -1 for the TaskId)", index)
    if not -size <= k < size:
        raise cx.error(f"'{node.value.id}' has {size} element(s) ({tup.text()}), index {k} is out of range", index)
    k %= size
    return L.Var.make(tup.names[k], span=cx.span(node)), tup.types[k]


def refuse_bare(cx: FunctionContext, name: str, node: ast.AST, dep: bool = False) -> None:
    """A tuple name used as a value (``dep``: as a ``deps=`` entry): refused, naming its elements."""
    tup = cx.visible[name].type
    results = len(tup.names) - 1
    tid = f"the TaskId {name}[{results}] (or {name}[-1])"
    if dep:
        use = tid
    elif results:
        use = f"the result {name}[0], {tid}" if results == 1 else f"the results {name}[0]..{name}[{results - 1}], {tid}"
    else:
        use = tid
    unpacked = ("()", "out", "(a, b)")[min(results, 2)]
    raise cx.error(f"'{name}' is the whole tuple {tup.text()} of the {tup.what} at line {tup.line}, not one value",
                   node, hint=f"use {use}; or unpack it: {unpacked}, tid = {tup.what}(...)")
