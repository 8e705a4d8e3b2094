"""A ``@pl.program`` class: its functions and their decorators, the kernels' signatures and body
summaries; the orchestration function is elaborated by ``context``."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from nanopass.errors import Span, UsageError, UserError, quoted
from nanopass.inline_copies import InlineCopy
from nanopass.suggest import did_you_mean
from nanopass.languages import surface as S
from nanopass.languages.terms import FuncKind
from nanopass.rewrite import PassWarning

from .context import FunctionContext
from .kernels import KernelSummary
from .names import attr_path, check_call_receivers
from .source import ProgramSource
from .type_reader import TypeReader, type_text

L = S.LANGUAGE


@dataclass
class KernelSig:
    name: str
    kind: FuncKind
    params: list[Any]  # surface Param nodes
    results: list[Any]  # surface Type nodes
    span: Span

    def __post_init__(self) -> None:
        # a result's shape names a dimension symbol (submits.result_types binds it call by call)
        self.symbolic_results = any(r._production == "TensorType" and any(d._production != "Int" for d in r.shape)
                                    for r in self.results)


class ProgramParser:
    def __init__(self, src: ProgramSource):
        self.src = src
        self.functions: list[tuple[ast.FunctionDef, FuncKind, bool, bool]] = []
        self.kernels: dict[str, KernelSig] = {}
        self.inlines: dict[str, ast.FunctionDef] = {}  # FunctionType.Inline functions, copied into their callers
        self._inline_types: dict[str, tuple[list[Any], list[Any]]] = {}
        self.outlined: list[Any] = []  # kernels made of outlined blocks (ops/outlining.py), in order
        # name_hint= -> the block's position and its kernels: kernel shape -> name (ops/outlining.py)
        self.named_blocks: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}
        self.kernel_nodes: dict[str, Any] = {}  # the class's kernels (surface Kernel nodes) by name
        self.warnings: list[PassWarning] = []  # likely mistakes that do not stop the compile (located)
        self.inline_copies: list[InlineCopy] = []  # every expansion of an inline function, in order (ops/inlining.py)
        # inline function -> its parameters that end on another tensor, and where (ops/inline_rebinding.py)
        self.rebindings: dict[str, dict[str, list[ast.Name]]] = {}
        self.rebindings_warned: set[int] = set()  # the rebinding targets warned of (their node ids)

    def warn(self, message: str, node: ast.AST, hint: str | None = None) -> None:
        self.warnings.append(PassWarning("parse_dsl", message, self.src.span(node), hint))

    def error(self, message: str, node: ast.AST | None = None, hint: str | None = None) -> UserError:
        return UserError(message, self.src.span(node) if node is not None else self.src.span(self.src.classdef), hint)

    def parse(self, func_name: str | None):
        try:
            return self._parse(func_name)
        finally:
            # the type reader refers back to this parser: a cycle, which would keep the file's
            # AST alive for the whole compile while the cyclic collector is paused
            self.types = None

    def _parse(self, func_name: str | None):
        self._collect_functions()
        orchs = [f for f in self.functions if f[1] is FuncKind.Orchestration]
        if not orchs:
            raise self.error(
                f"program '{self.src.name}' has no @pl.function(type=pl.FunctionType.Orchestration)",
                self.src.classdef,
            )
        if func_name is None:
            if len(orchs) > 1:
                names = ", ".join(f[0].name for f in orchs)
                raise self.error(
                    f"program '{self.src.name}' has several orchestration functions ({names}); choose one with "
                    "--func NAME", self.src.classdef, hint="from Python: generate_orchestration(program, func_name)",
                )
            orch = orchs[0]
        else:
            matching = [f for f in orchs if f[0].name == func_name]
            if not matching:
                names = ", ".join(f[0].name for f in orchs)
                raise UsageError(f"program '{self.src.name}' has no orchestration function '{func_name}' ({names})",
                                 self.src.span(self.src.classdef), did_you_mean(func_name, [f[0].name for f in orchs]))
            orch = matching[0]
        types = self.types = TypeReader(self)
        kernel_nodes = []
        for fdef, kind, _auto, dual in self.functions:
            if kind is FuncKind.Orchestration:
                continue
            if kind is FuncKind.Inline:
                self.inlines[fdef.name] = fdef
                continue
            params = types.params(fdef, kernel=True)
            results = types.results(fdef)
            self.kernels[fdef.name] = KernelSig(fdef.name, kind, params, results, self.src.span(fdef))
            body = KernelSummary(self, types).summarize(fdef)
            self._check_returned_params(fdef.name, params, results, body)
            kernel_nodes.append(
                L.Kernel.make(fdef.name, kind, params, results, body, dual, span=self.src.span(fdef))
            )
            self.kernel_nodes[fdef.name] = kernel_nodes[-1]
        fdef, _kind, auto_scope, _dual = orch
        for read in [fdef, *self.inlines.values()]:  # the functions whose bodies are elaborated
            check_call_receivers(self, read)
        func = FunctionContext(self, types, fdef, auto_scope).parse()
        return L.Program.make(self.src.name, kernel_nodes + self.outlined, func, span=self.src.span(self.src.classdef))

    def add_outlined(self, name: str, kind: FuncKind, params: list[Any], results: list[Any], body: list[Any],
                     node: ast.AST) -> None:
        """A kernel made of a block of the orchestration function (``ops/outlining.py``)."""
        span = self.src.span(node)
        self.kernels[name] = KernelSig(name, kind, params, results, span)
        self.outlined.append(L.Kernel.make(name, kind, params, results, body, False, span=span))

    def inline_params(self, fdef: ast.FunctionDef) -> list[Any]:
        """The parameters of inline function ``fdef`` (read once)."""
        return self._inline_signature(fdef)[0]

    def inline_results(self, fdef: ast.FunctionDef) -> list[Any]:
        return self._inline_signature(fdef)[1]

    def _inline_signature(self, fdef: ast.FunctionDef) -> tuple[list[Any], list[Any]]:
        if fdef.name not in self._inline_types:
            self._inline_types[fdef.name] = (self.types.params(fdef, kernel=True), self.types.results(fdef))
        return self._inline_types[fdef.name]

    def orchestration_names(self) -> list[str]:
        """The names of the class's orchestration functions, in source order; only the decorators
        are read."""
        self._collect_functions()
        return [fdef.name for fdef, kind, _auto, _dual in self.functions if kind is FuncKind.Orchestration]

    def _check_returned_params(self, name: str, params: list[Any], results: list[Any], body: list[Any]) -> None:
        """A result the kernel returns as one of its parameters is that tensor: it must have the result's type."""
        by_name = {p.name: p for p in params}
        for ret in (s for s in body if s._production == "KReturn"):
            for value, rtype in zip(ret.values, results):
                param = by_name.get(value.name) if value._production == "Var" else None
                if param is not None and param.type != rtype:
                    raise UserError(
                        f"kernel '{name}' returns parameter '{param.name}', a {type_text(param.type)}, as its "
                        f"{type_text(rtype)} result", ret.span,
                        hint="a kernel's results are the Out/InOut tensors it writes",
                    )

    def _collect_functions(self) -> None:
        seen: dict[str, ast.FunctionDef] = {}
        for stmt in self.src.classdef.body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            deco = next((d for d in stmt.decorator_list if is_function_decorator(d)), None)
            if deco is None:
                continue
            if isinstance(stmt, ast.AsyncFunctionDef):
                raise self.error("a @pl.function cannot be async", stmt)
            if stmt.name in seen:
                raise self.error(
                    f"function '{stmt.name}' is defined twice in program '{self.src.name}'",
                    stmt,
                    hint=f"first defined at line {seen[stmt.name].lineno}",
                )
            seen[stmt.name] = stmt
            kind, auto_scope, dual = self._decorator_options(deco)
            self.functions.append((stmt, kind, auto_scope, dual))
        if not self.functions:
            raise self.error(f"class '{self.src.name}' contains no @pl.function methods", self.src.classdef)
        holding = blocks_after_inlining([stmt for stmt, kind, _, _ in self.functions if kind is FuncKind.Inline])
        self.functions = [  # the reference's outlining promotes them (reference-surface 3 and 5)
            (stmt, FuncKind.Orchestration if kind is FuncKind.Opaque and holds_block(stmt, holding) else kind, a, d)
            for stmt, kind, a, d in self.functions
        ]

    def _decorator_options(self, deco: ast.expr) -> tuple[FuncKind, bool, bool]:
        kind, auto_scope, dual = FuncKind.Opaque, True, False
        if not isinstance(deco, ast.Call):
            return kind, auto_scope, dual
        if deco.args:
            raise self.error("@pl.function takes keyword arguments only", deco.args[0])
        for kw in deco.keywords:
            if kw.arg == "type":
                kind = self._function_kind(kw.value)
            elif kw.arg == "auto_scope":
                auto_scope = self._bool_literal(kw.value, "auto_scope")
            elif kw.arg == "dual_aiv_dispatch":
                dual = self._bool_literal(kw.value, "dual_aiv_dispatch")
            elif kw.arg == "attrs":
                dual = self._split_attr(kw.value) or dual
            elif kw.arg in ("level", "role", "strict_ssa"):
                continue
            else:
                raise self.error(f"@pl.function has no keyword argument '{kw.arg}'", kw.value)
        return kind, auto_scope, dual

    def _split_attr(self, node: ast.expr) -> bool:
        """``attrs={"split": pl.SplitMode.UP_DOWN | LEFT_RIGHT | NONE}``: whether the vector kernel is split
        across both AIV sub-cores (in a Group, both AIV slots of ``MixedKernels`` carry its id:
        reference-surface 1). Other attributes are the kernel compiler's."""
        if not isinstance(node, ast.Dict):
            raise self.error("attrs= must be a dict literal", node)
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and key.value == "split"):
                continue
            mode = (attr_path(value) or [""])[-1]
            if mode not in ("NONE", "UP_DOWN", "LEFT_RIGHT"):
                raise self.error("attrs={'split': ...} takes pl.SplitMode.NONE, UP_DOWN or LEFT_RIGHT", value)
            return mode != "NONE"
        return False

    def _function_kind(self, node: ast.expr) -> FuncKind:
        path = attr_path(node)
        if path:
            if path[-1] in FuncKind.__members__:
                return FuncKind[path[-1]]
            value = self.src.closure_get(path[0], node) if len(path) == 1 else None
            if isinstance(value, FuncKind):
                return value
        kinds = ", ".join(f"pl.FunctionType.{k}" for k in FuncKind.__members__)
        raise self.error(f"unsupported @pl.function type {quoted(ast.unparse(node))}", node, hint=f"use one of {kinds}")

    def _bool_literal(self, node: ast.expr, what: str) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return node.value
        raise self.error(f"{what}= must be True or False", node)


# with pl.<op>(...): blocks the front end outlines into kernels (ops/outlining.py, ops/spmd.py: a
# pl.cluster block's kernel calls become one Group kernel, as the reference's outlining makes it)
OUTLINED_BLOCKS = ("at", "spmd", "cluster")


def has_outlined_block(fdef: ast.FunctionDef) -> bool:
    """Whether ``fdef`` holds a ``with pl.at(...)``, ``with pl.spmd(...)`` or ``with pl.cluster(...)``
    block, or a ``for i in pl.spmd(...)`` loop (the region outlined, as the ``with`` form's)."""
    for node in ast.walk(fdef):
        if isinstance(node, ast.With):
            for item in node.items:
                path = attr_path(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else None
                if path and len(path) == 2 and path[1] in OUTLINED_BLOCKS:
                    return True
        elif isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            path = attr_path(node.iter.func)
            if path and len(path) == 2 and path[1] == "spmd":
                return True
    return False


def blocks_after_inlining(inlines: list[ast.FunctionDef]) -> set[str]:
    """The names of the Inline functions that hold an outlined block once the Inline functions they
    call are copied into them (the reference inlines every call before it outlines)."""
    holding = {f.name for f in inlines if has_outlined_block(f)}
    grown = True
    while grown:
        grown = False
        for f in inlines:
            if f.name not in holding and holds_block(f, holding):
                holding.add(f.name)
                grown = True
    return holding


def holds_block(fdef: ast.FunctionDef, holding: set[str]) -> bool:
    """Whether ``fdef`` holds an outlined block, or calls (``self.f(...)``) an Inline function of
    ``holding`` (``blocks_after_inlining``)."""
    if has_outlined_block(fdef):
        return True
    receiver = fdef.args.args[0].arg if fdef.args.args else "self"
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in holding
        and isinstance(node.func.value, ast.Name) and node.func.value.id == receiver
        for node in ast.walk(fdef)
    )


def is_function_decorator(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    path = attr_path(node)
    return bool(path) and path[-1] == "function"
