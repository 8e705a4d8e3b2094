"""``@pl.jit`` programs read as the ``@pl.program`` class they stand for.

The existing DSL's ``@pl.jit`` marks a module-level orchestration entry; ``@pl.jit.incore``
(``level=`` allowed) and ``@pl.jit.opaque`` mark module-level kernels, which the entry calls as
plain functions ``k(...)``. nanopass reads such a file without running it: each ``@pl.jit`` entry
becomes a class of its name holding the entry (``FunctionType.Orchestration``) and every kernel
of the module (``InCore`` / ``Opaque``), methods taking ``self``, with each call ``k(...)`` of a
kernel read as ``self.k(...)``. The nodes keep their positions, so messages point into the file.

``@pl.jit.inline`` functions become ``FunctionType.Inline`` methods, spliced into their callers
as in the class form (their own calls of kernels and inline functions read as ``self.k(...)``).

What needs torch is refused, saying so: a parameter annotated without its shape or dtype
(``pl.Tensor``), which the existing DSL fills in from the torch tensor of the first call.
``.host`` and ``.extern(...)`` are refused too, each saying what nanopass lacks for it.
"""

from __future__ import annotations

import ast
import copy

from nanopass.errors import Span, UserError

from .names import attr_path
from .source import char_span, wide_lines

KERNEL_FORMS = {"incore": "InCore", "opaque": "Opaque", "inline": "Inline"}  # form -> the method's FunctionType
UNSHAPED = (
    "parameter '{param}' of '{func}' has no shape and dtype: the existing DSL takes them from the torch tensor "
    "of the first call, and nanopass compiles without running the program (or torch)"
)


REFUSED = {
    "jit.host": "a host function runs on the CPU beside the runtime, and nanopass compiles orchestration "
                "functions only: it has no language for host code, nor a way to call it from the C++ it emits",
    "jit.extern": "a hand-written C++ kernel is declared by the stub's arguments, which the existing DSL reads "
                  "when it builds the kernel library; nanopass would need that library's kernel signature "
                  "(parameter directions, core type), which the stub does not state",
}


def jit_form(fdef: ast.stmt) -> tuple[str, ast.expr] | None:
    """``("jit" | "jit.incore" | ..., decorator)`` of a module-level ``@pl.jit...`` function."""
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for decorator in fdef.decorator_list:
        node = decorator.func if isinstance(decorator, ast.Call) else decorator
        path = attr_path(node)
        if path is not None and len(path) >= 2 and path[1] == "jit":
            return ".".join(path[1:]), decorator
    return None


def jit_classes(tree: ast.Module, filename: str, text: str) -> list[ast.ClassDef]:
    """One class per ``@pl.jit`` entry of ``tree``, in file order (none when it has no entry)."""
    entries, kernels = [], []
    for stmt in tree.body:
        found = jit_form(stmt)
        if found is None:
            continue
        form, decorator = found
        span = Span(filename, decorator.lineno, stmt.col_offset)
        if isinstance(stmt, ast.AsyncFunctionDef):
            raise UserError(f"a @pl.{form} function cannot be async", span)
        if form == "jit":
            entries.append(stmt)
        elif form.removeprefix("jit.") in KERNEL_FORMS:
            kernels.append((stmt, KERNEL_FORMS[form.removeprefix("jit.")]))
        else:
            raise UserError(f"@pl.{form} is not supported: {REFUSED.get(form, 'it is not a form nanopass reads')}",
                            span, "@pl.jit programs may use @pl.jit (the entry), @pl.jit.incore, @pl.jit.opaque "
                                  "and @pl.jit.inline")
    names = {fdef.name for fdef, _ in kernels}
    inlines = {fdef.name for fdef, kind in kernels if kind == "Inline"}
    classes = []
    for entry in entries:
        for fdef in [entry, *(k for k, _ in kernels)]:
            _check_shapes(fdef, filename, wide_lines(text))
        # an inline function's body is read as the entry's (its calls k(...) are self.k(...) too)
        body = [_method(entry, "Orchestration", names),
                *(_method(k, kind, names if k.name in inlines else set()) for k, kind in kernels)]
        cls = ast.ClassDef(name=entry.name, bases=[], keywords=[], body=body, decorator_list=[])
        ast.copy_location(cls, entry)
        classes.append(cls)
    return classes


def _method(fdef: ast.FunctionDef, kind: str, kernels: set[str]) -> ast.FunctionDef:
    method = copy.deepcopy(fdef)
    decorator = next(d for d in fdef.decorator_list if jit_form_of(d))
    function = ast.Attribute(ast.Name("pl", ast.Load()), "function", ast.Load())
    kind_node = ast.Attribute(ast.Attribute(ast.Name("pl", ast.Load()), "FunctionType", ast.Load()), kind, ast.Load())
    method.decorator_list = [ast.Call(function, [], [ast.keyword("type", kind_node)])]
    for node in ast.walk(method.decorator_list[0]):
        ast.copy_location(node, decorator)
    method.args.args.insert(0, ast.copy_location(ast.arg("self"), fdef))
    for node in ast.walk(method):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in kernels:
            node.func = ast.copy_location(ast.Attribute(ast.copy_location(ast.Name("self", ast.Load()), node.func),
                                                        node.func.id, ast.Load()), node.func)
    return method


def jit_form_of(decorator: ast.expr) -> bool:
    node = decorator.func if isinstance(decorator, ast.Call) else decorator
    path = attr_path(node)
    return path is not None and len(path) >= 2 and path[1] == "jit"


def _check_shapes(fdef: ast.FunctionDef, filename: str, wide: dict[int, bytes]) -> None:
    for arg in fdef.args.args:
        node = arg.annotation
        if isinstance(node, ast.Subscript) and (attr_path(node.value) or [""])[-1] in ("Out", "InOut"):
            node = node.slice
        if node is None or (attr_path(node) or [""])[-1] == "Tensor":
            raise UserError(UNSHAPED.format(param=arg.arg, func=fdef.name),
                            char_span(filename, wide, arg.lineno, arg.col_offset),
                            "annotate it fully: pl.Tensor[[16, 16], pl.FP32]")
