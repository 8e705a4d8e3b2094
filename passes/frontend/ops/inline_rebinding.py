"""Where an inline function rebinds a parameter to another tensor (tools/attack/found/23).

A call of an inline function substitutes its arguments for its parameters (reference-surface.md
section 5; ``inlining``), so ``y = other`` in the function rebinds the caller's variable passed as
``y``: after the call it names ``other``. A Python reader expects the caller's variable to be left
alone (rebinding a parameter is local in Python). The two readings agree when the parameter ends
on the tensor it started as: rebound only to the tensor it names (a kernel's result that is the
Out/InOut argument it writes in place, ``y = self.k(x, y)``; ``pl.assemble(y, ...)`` or
``pl.store(..., y)`` into it; a copy or a loop carry of it), or moved and moved back. They agree
too when the call's results are assigned to the caller's variable (``a = self.f(x, a)``): both
readings then bind it to the returned value. ``rebindings`` reads the function once in source
order (a loop's body as its first iteration, both branches of an if one after the other).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.passes.kernels import output_param_of_result

from ..names import dsl_call, self_method
from .block_uses import WRITES

if TYPE_CHECKING:
    from ..program import ProgramParser

# the loop iterators whose init_values= the loop's carries start as
_CARRYING = ("range", "parallel", "pipeline", "while_")


def rebindings(program: ProgramParser, fdef: ast.FunctionDef, reading: frozenset = frozenset()) -> dict[str, list[ast.Name]]:
    """The tensor parameters of ``fdef`` (an inline function) that end bound to another tensor
    than they start as, each with the assignment targets that moved it, in order (computed once per
    function: ``program.rebindings``). ``reading``: the functions whose reading asks (a cycle, which
    the expansion refuses, reads as moving nothing)."""
    if fdef.name in program.rebindings:
        return program.rebindings[fdef.name]
    reader = _Reader(program, program.inline_params(fdef), reading | {fdef.name})
    reader.block(fdef.body)
    found = {name: sites for name, sites in reader.moved.items() if reader.roots.get(name) != name}
    if not reading:
        program.rebindings[fdef.name] = found
    return found


class _Reader:
    def __init__(self, program: ProgramParser, params: list[Any], reading: frozenset):
        self.program = program
        self.reading = reading
        self.inline_params = {p.name for p in params if p.type._production == "TensorType"}
        self.roots: dict[str, Any] = {p.name: p.name for p in params}  # name -> the tensor it names
        self.made = 0
        self.moved: dict[str, list[ast.Name]] = {}  # parameter -> the targets that bound it to another tensor

    def new(self) -> tuple[str, int]:
        self.made += 1
        return ("made", self.made)

    def root(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Call) and dsl_call(node) == "no_dep" and node.args:
            node = node.args[0]
        if isinstance(node, ast.Name) and node.id in self.roots:
            return self.roots[node.id]
        return self.new()

    def bind(self, target: ast.expr, root: Any) -> None:
        if isinstance(target, ast.Name):
            if target.id in self.inline_params and self.roots.get(target.id) != root:
                self.moved.setdefault(target.id, []).append(target)
            self.roots[target.id] = root
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element, self.new())

    def bind_all(self, target: ast.expr, roots: list[Any]) -> None:
        elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if len(roots) == 1 and len(elements) == 1:
            self.bind(elements[0], roots[0])
        elif len(roots) == len(elements) and isinstance(target, (ast.Tuple, ast.List)):
            for element, root in zip(elements, roots):
                self.bind(element, root)
        else:
            self.bind(target, self.new())

    def block(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            width = len(targets[0].elts) if isinstance(targets[0], (ast.Tuple, ast.List)) else 1
            roots = self.values(stmt.value, width)
            for target in targets:
                self.bind_all(target, roots)
        elif isinstance(stmt, ast.For):
            self.loop(stmt)
        elif isinstance(stmt, ast.If):
            self.block(stmt.body)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.With):
            self.block(stmt.body)

    def loop(self, stmt: ast.For) -> None:
        inits = next((kw.value for kw in stmt.iter.keywords if kw.arg == "init_values"), None) if isinstance(
            stmt.iter, ast.Call) and dsl_call(stmt.iter) in _CARRYING else None
        target = stmt.target
        if inits is not None and isinstance(inits, (ast.Tuple, ast.List)):
            carries = target.elts[-1] if isinstance(target, ast.Tuple) and dsl_call(stmt.iter) != "while_" else target
            if isinstance(target, ast.Tuple) and dsl_call(stmt.iter) != "while_":
                for index in target.elts[:-1]:
                    self.bind(index, self.new())
            self.bind_all(carries, [self.root(init) for init in inits.elts])
        else:
            self.bind(target, self.new())
        self.block(stmt.body)

    def values(self, value: ast.expr, width: int) -> list[Any]:
        """The tensors the ``width`` values of ``value`` are (a new one for each unknown)."""
        if isinstance(value, ast.Name):
            return [self.root(value)]
        if isinstance(value, (ast.Tuple, ast.List)):
            return [self.root(e) for e in value.elts]
        if not isinstance(value, ast.Call):
            return [self.new() for _ in range(width)]
        op = dsl_call(value)
        if op in WRITES and len(value.args) > WRITES[op]:
            return [self.root(value.args[WRITES[op]])]
        if op == "yield_":
            return [self.root(a) for a in value.args]
        if op == "submit" and value.args:
            method, args = self_method(value.args[0]), value.args[1:]
            return [*self.call(method, args, width - 1), self.new()]
        method = self_method(value.func)
        if method is not None:
            return self.call(method, value.args, width)
        return [self.new() for _ in range(width)]

    def call(self, method: str | None, args: list[ast.expr], width: int) -> list[Any]:
        """The results of ``self.method(*args)``: a kernel's result is the argument it writes in place, an
        inline function's the argument of the parameter it returns, unless the function moves that
        parameter to another tensor."""
        kernel = self.program.kernel_nodes.get(method)
        if kernel is not None:
            out = []
            for j in range(len(kernel.results)):
                i = output_param_of_result(kernel, j)
                out.append(self.root(args[i]) if i is not None and i < len(args) else self.new())
            return out
        fdef = self.program.inlines.get(method)
        if fdef is not None:
            names = [p.name for p in self.program.inline_params(fdef)]
            moved = rebindings(self.program, fdef, self.reading) if fdef.name not in self.reading else {}
            names = [name if name not in moved else None for name in names]
            last = fdef.body[-1] if fdef.body else None
            returned = last.value if isinstance(last, ast.Return) else None
            values = returned.elts if isinstance(returned, ast.Tuple) else [returned] if returned is not None else []
            return [self.root(args[names.index(v.id)]) if isinstance(v, ast.Name) and v.id in names
                    and names.index(v.id) < len(args) else self.new() for v in values]
        return [self.new() for _ in range(width)]
