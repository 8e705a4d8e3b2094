"""Kernel bodies -> ``KStmt*``: a summary of what each statement assigns, for the passes that infer
core types and check returned parameters."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from .names import attr_path, self_method
from .type_reader import MEMORY_SPACES, TypeReader

if TYPE_CHECKING:
    from .program import ProgramParser

L = S.LANGUAGE


class KernelSummary:
    """A kernel body -> KStmt*: assignments (targets, op, args, memory spaces) and returns."""

    def __init__(self, program: ProgramParser, types: TypeReader):
        self.program = program
        self.types = types

    def summarize(self, fdef: ast.FunctionDef) -> list[Any]:
        out: list[Any] = []
        self.block(fdef.body, out)
        return out

    def block(self, stmts: list[ast.stmt], out: list[Any]) -> None:
        for stmt in stmts:
            self.stmt(stmt, out)

    def stmt(self, stmt: ast.stmt, out: list[Any]) -> None:
        if isinstance(stmt, ast.Return):
            values = []
            if stmt.value is not None:
                elts = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
                values = [self.arg(e) for e in elts]
            out.append(L.KReturn.make(values, span=self.program.src.span(stmt)))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = self.targets(stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target)
            spaces = self.spaces(stmt.annotation) if isinstance(stmt, ast.AnnAssign) else []
            if stmt.value is not None:
                out.append(self.assign(targets, stmt.value, spaces, stmt))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            out.append(self.assign([], stmt.value, [], stmt))
        elif isinstance(stmt, ast.For):
            self.block(stmt.body, out)
            # a loop's named results (yield targets) alias the loop's init values in order
        elif isinstance(stmt, ast.If):
            self.block(stmt.body, out)
            self.block(stmt.orelse, out)
        elif isinstance(stmt, ast.With):
            self.block(stmt.body, out)

    def assign(self, targets: list[str], value: ast.expr, spaces: list[str], stmt: ast.stmt) -> Any:
        span = self.program.src.span(stmt)
        if isinstance(value, ast.Call):
            method = self_method(value.func)
            path = attr_path(value.func)
            op = f"self.{method}" if method else ".".join(path[1:] if path and len(path) > 1 else (path or ["?"]))
            if op == "yield_":
                return L.KAssign.make(targets, "yield_", [self.arg(a) for a in value.args], spaces, span=span)
            args = [self.arg(a) for a in value.args]
            for kw in value.keywords:
                spaces += [s for s in self.spaces(kw.value) if s not in spaces]
            return L.KAssign.make(targets, op, args, spaces, span=span)
        return L.KAssign.make(targets, "=", [self.arg(value)], spaces, span=span)

    def targets(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.Name):
            return [node.id]
        if isinstance(node, (ast.Tuple, ast.List)):
            return [n for e in node.elts for n in self.targets(e)]
        return []

    def arg(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            return L.Var.make(node.id)
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return L.Bool.make(node.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return L.Int.make(node.value, DType.INDEX)
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            return L.Float.make(node.value, DType.FP32)
        return L.KOther.make(ast.unparse(node))

    def spaces(self, node: ast.expr | None) -> list[str]:
        if node is None:
            return []
        found = []
        for sub in ast.walk(node):
            name = sub.attr if isinstance(sub, ast.Attribute) else sub.id if isinstance(sub, ast.Name) else None
            if name in MEMORY_SPACES and name not in found:
                found.append(name)
        return found
