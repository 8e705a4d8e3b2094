"""Debugging tags: the reference DSL's selective tensor dump.

- ``pl.dump_tag(t)`` (a statement): from here on, in program order, every task that passes the
  tensor ``t`` as an argument marks it for the runtime's dump (``params.dump(t)``). The tag
  follows the name ``t`` while a task's result rebinds it (the task wrote that tensor) and ends
  where ``t`` is bound to another value (``statements.assign`` calls ``untag``). A tag no later
  task uses prints nothing.
- ``dumps=[t, ...]`` on ``pl.submit`` (and, through ``dump_positions``, on any task form that
  takes it): those arguments of that one task.

A task carries the positions of the marked tensors among its tensor arguments (``Task.dumps``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted

from ..registry import STATEMENT, dsl_op

if TYPE_CHECKING:
    from ..context import FunctionContext


@dsl_op("dump_tag", STATEMENT, params=("tensor",))
def dump_tag(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> None:
    node = a["tensor"]
    binding = cx.lookup(node.id) if isinstance(node, ast.Name) else None
    if binding is None or binding.type._production != "TensorType":
        raise cx.error(f"pl.dump_tag takes a tensor variable, got {quoted(ast.unparse(node))}", node)
    cx.dump_tags.add(node.id)
    return None


def untag(cx: FunctionContext, name: str) -> None:
    """``name`` is bound to a value no task wrote: a tag on it ends."""
    cx.dump_tags.discard(name)


def dump_positions(cx: FunctionContext, args: list[Any], dumps: ast.expr | None, what: str) -> list[int]:
    """The positions, among the tensor ``args`` (surface ``Arg`` nodes) of one task, of those it
    dumps: the tagged ones and those ``dumps`` (a ``dumps=[...]`` list, or None) names."""
    tensors = [arg.value.name for arg in args if arg.value._production == "Var" and _is_tensor(cx, arg.value.name)]
    marked = {name for name in tensors if name in cx.dump_tags}
    if dumps is not None:
        if not isinstance(dumps, (ast.List, ast.Tuple)):
            raise cx.error(f"{what}'s dumps= must be a list of tensor variables", dumps)
        for entry in dumps.elts:
            if not (isinstance(entry, ast.Name) and entry.id in tensors):
                raise cx.error(
                    f"{what}'s dumps= entries must be tensors the task takes as arguments; "
                    f"{quoted(ast.unparse(entry))} is not one",
                    entry,
                )
            marked.add(entry.id)
    return [k for k, name in enumerate(tensors) if name in marked]


def _is_tensor(cx: FunctionContext, name: str) -> bool:
    binding = cx.lookup(name)
    return binding is not None and binding.type._production == "TensorType"
