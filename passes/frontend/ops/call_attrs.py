"""Call-site ``attrs={...}`` on a kernel call or ``pl.submit`` (the existing DSL's per-call attributes).

- ``"arg_directions": [pl.adir.input, ...]``: one direction per argument. They are hints:
  ``pl.adir.no_dep`` is ``pl.no_dep(t)``; ``input``, ``inout`` and ``output_existing`` (``output``
  too: the slot holds an existing tensor) go onto the argument, and ``derive_call_directions``
  keeps the hint only where it orders at least what the derived direction orders (else it uses
  the weakest direction that orders both, and leaves a note); ``scalar`` marks a scalar slot.
- ``"compiler_manual_dep_edges": [tid, ...]``: TaskIds the task depends on, as edges the
  compiler derived (``DerivedDep``): one made in a ``with`` block that has ended is dropped with a
  warning (D11's rule for compiler edges), never a user error (``edge``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import ArgDir, DType

from ..names import attr_path
from ..type_reader import TID_T

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE

KEYS = ("arg_directions", "compiler_manual_dep_edges")
# pl.adir.<name> -> the hint it gives (None: a scalar slot); "no_dep" is pl.no_dep
DIRECTIONS = {
    "input": ArgDir.Input,
    "inout": ArgDir.InOut,
    "output_existing": ArgDir.OutputExisting,
    "output": ArgDir.OutputExisting,
    "no_dep": ArgDir.NoDep,
    "scalar": ArgDir.Scalar,
}
NAMESPACES = ("adir", "arg_direction", "ArgDirection")


class CallAttrs:
    """The attributes of one call: ``directions`` (one per argument given, or None) and ``edges``."""

    def __init__(self, directions: list[tuple[ArgDir, ast.expr]] | None = None, edges: list[Any] | None = None):
        self.directions = directions
        self.edges = edges or []


NO_ATTRS = CallAttrs()  # the attributes of every call without attrs= (shared: read, never changed)


def read_attrs(cx: FunctionContext, node: ast.expr | None, n_args: int, kernel: str) -> CallAttrs:
    """``attrs=`` of a call of ``kernel`` with ``n_args`` arguments (None: the call has none)."""
    if node is None:
        return NO_ATTRS
    if not isinstance(node, ast.Dict):
        raise cx.error("attrs= must be a dict literal: attrs={'arg_directions': [...]}", node)
    attrs = CallAttrs()
    for key, value in zip(node.keys, node.values):
        if key is None or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise cx.error("attrs= keys must be strings", key or value)
        if key.value not in KEYS:
            known = ", ".join(f"'{k}'" for k in KEYS)
            raise cx.error(f"unknown call attribute '{key.value}'", key, hint=f"call attributes: {known}")
        if not isinstance(value, (ast.List, ast.Tuple)):
            raise cx.error(f"attrs['{key.value}'] must be a list", value)
        if key.value == "arg_directions":
            if len(value.elts) != n_args:
                raise cx.error(
                    f"attrs['arg_directions'] has {len(value.elts)} entries; the call of '{kernel}' passes "
                    f"{n_args} argument(s)",
                    value,
                )
            attrs.directions = [(direction(cx, elt), elt) for elt in value.elts]
        else:
            edges = [edge(cx, elt) for elt in value.elts if not (isinstance(elt, ast.Constant) and elt.value is None)]
            attrs.edges = [e for e in edges if e is not None]
    return attrs


def direction(cx: FunctionContext, node: ast.expr) -> ArgDir:
    path = attr_path(node)
    if path is not None and len(path) >= 2 and path[-2] in NAMESPACES and path[-1].lower() in DIRECTIONS:
        return DIRECTIONS[path[-1].lower()]
    names = ", ".join(f"pl.adir.{n}" for n in DIRECTIONS)
    raise cx.error(f"not an argument direction: {quoted(ast.unparse(node))}", node, hint=names)


def edge(cx: FunctionContext, node: ast.expr) -> Any:
    """The ``DerivedDep`` of one entry; None for a TaskId made in a ``with`` block that has ended
    (D11's rule for a compiler edge whose TaskId no longer lives: dropped, with a warning). It is
    dropped here, before any analysis, so that the passes order the task themselves where the
    program needs it; kept, the hazard passes took it for an ordering that resolve_dep_edges then
    dropped from the C++."""
    if isinstance(node, ast.Name):
        expr, ty = cx.expr(node)
        if ty == TID_T or (ty._production == "ArrayType" and ty.dtype is DType.TASK_ID):
            if node.id in cx.closed_tids:
                cx.program.warn(
                    f"attrs['compiler_manual_dep_edges'] names '{node.id}', last bound in a 'with' block that has "
                    "ended here: the entry is dropped (a compiler edge to a TaskId no longer alive), and the "
                    "compiler orders this task after what it needs by itself",
                    node,
                    hint=f"use '{node.id}' inside that block, or make the task in it",
                )
                return None
            return L.DerivedDep.make(expr, span=cx.span(node))
    raise cx.error(
        f"attrs['compiler_manual_dep_edges'] entries must be TaskId variables; got {quoted(ast.unparse(node))}", node
    )


def apply_direction(cx: FunctionContext, arg: Any, param: Any, given: tuple[ArgDir, ast.expr] | None) -> Any:
    """``arg`` (a surface ``Arg`` for ``param``) with the hint of ``given``."""
    if given is None:
        return arg
    hint, node = given
    tensor = param.type._production == "TensorType"
    if (hint is ArgDir.Scalar) == tensor:
        what = "a tensor" if tensor else "a scalar"
        raise cx.error(f"parameter '{param.name}' is {what}; {quoted(ast.unparse(node))} does not apply to it", node)
    if hint is ArgDir.Scalar:
        return arg
    if arg.no_dep and hint is not ArgDir.NoDep:
        raise cx.error(f"the argument is pl.no_dep(...) but attrs gives it {quoted(ast.unparse(node))}", node)
    if hint is ArgDir.NoDep:
        return arg.replace(no_dep=True)
    return arg.replace(hint=hint)
