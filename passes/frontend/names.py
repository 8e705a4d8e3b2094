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
