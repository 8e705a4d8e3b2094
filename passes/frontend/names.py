"""Name resolution: what a callee spells, and which names a program may bind."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .program import ProgramParser


def attr_path(node: ast.AST) -> list[str] | None:
    """``pl.tensor.read`` -> ['pl', 'tensor', 'read']; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def dsl_call(node: ast.AST) -> str | None:
    """The DSL op a call spells (``pl.tensor.read(...)`` -> 'tensor.read'); None otherwise."""
    if not isinstance(node, ast.Call):
        return None
    path = attr_path(node.func)
    if path is None or len(path) < 2 or path[0] == "self":
        return None
    return ".".join(path[1:])


def check_call_receivers(program: ProgramParser, fdef: ast.FunctionDef) -> None:
    """Every ``x.op(...)`` in ``fdef`` calls on ``self`` or on the DSL module (``x`` bound to
    ``nanopass.dsl`` under any name, and not re-bound in ``fdef``): ``dsl_call`` reads the spelling
    only, so a call on another module, a constant or a variable would be taken for ``pl.op(...)``."""
    from nanopass import dsl

    nodes = list(ast.walk(fdef))
    local = {arg.arg for arg in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs}
    local.update(n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    for node in nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        path = attr_path(node.func)
        if path is None or path[0] == "self" or (path[0] not in local and program.src.closure.get(path[0]) is dsl):
            continue
        raise program.error(
            f"'{'.'.join(path)}' is not an operation of the DSL: '{path[0]}' is not the DSL module (nanopass.dsl)",
            node, hint=f"DSL operations are called on the imported module: pl.{'.'.join(path[1:])}(...)")


def self_method(node: ast.AST) -> str | None:
    """``self.k`` -> 'k'."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def check_user_name(program: ProgramParser, name: str, node: ast.AST) -> None:
    if "__" in name and not program.src.printed:
        raise program.error(
            f"'{name}': names containing '__' are reserved for the compiler's variable versions", node
        )
