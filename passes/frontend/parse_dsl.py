"""The front end: a ``@pl.program`` class's source (``ast``) -> the ``surface`` language.

Reads the kernels (signatures, plus a summary of their bodies), then elaborates one
orchestration function: resolves every name (DSL variables first, then the Python names visible
where the program was decorated), infers the type of every variable, checks calls against the
kernel signatures, and reports every mistake as a ``UserError`` at the file, line and column of
the offending syntax. Nothing of the program is executed.

Scoping follows what the generated C++ can express: a name first bound inside a loop body or in
only one branch of an ``if`` is not visible after it (assign it before, so that it becomes a
carry or a branch result); ``with`` blocks do not hide names.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from nanopass.errors import Span, UsageError, UserError, quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import BinOp, CmpOp, DType, FuncKind, LoopKind, ParamDir, ScopeMode, UnOp

from nanopass.suggest import did_you_mean

from .source import ProgramSource

L = S.LANGUAGE

MAX_NESTING = 48  # blocks (loops, ifs, scopes); the runtime allows 64 scopes in all
MAX_PARALLEL_NESTING = 8  # pl.parallel loops within one another: the hazard analysis grows ~3x per level
MAX_EXPR_DEPTH = 100  # nodes on the longest path of one expression, as expr_depth counts them; bounds every pass's recursion
MAX_TENSOR_DIMS = 5
MAX_DIM = 2**32  # extents are uint32_t in the runtime
MAX_ARRAY_SIZE = 65536  # elements of a pl.array.create: a C array on the orchestration function's stack
MAX_ENTRY_TENSORS = 128
MAX_ENTRY_SCALARS = 128
MAX_TASK_TENSORS = 32  # tensors one runtime Arg holds
MAX_TASK_SCALARS = 16  # scalars one runtime Arg holds
MEMORY_SPACES = {"Vec", "Left", "Right", "Acc", "Mat"}
SCALAR_T = {dt: L.ScalarType(dt) for dt in DType}
INDEX_T = SCALAR_T[DType.INDEX]
BOOL_T = SCALAR_T[DType.BOOL]
TID_T = SCALAR_T[DType.TASK_ID]

_BINOPS = {
    ast.Add: BinOp.add,
    ast.Sub: BinOp.sub,
    ast.Mult: BinOp.mul,
    ast.Div: BinOp.div,
    ast.FloorDiv: BinOp.floordiv,
    ast.Mod: BinOp.mod,
    ast.LShift: BinOp.shl,
    ast.RShift: BinOp.shr,
}
_CMPOPS = {
    ast.Eq: CmpOp.eq,
    ast.NotEq: CmpOp.ne,
    ast.Lt: CmpOp.lt,
    ast.LtE: CmpOp.le,
    ast.Gt: CmpOp.gt,
    ast.GtE: CmpOp.ge,
}
_SHIFTS = (BinOp.shl, BinOp.shr)
_INTEGER_OPS = (BinOp.floordiv, BinOp.mod, *_SHIFTS)
_NOT_NUMBERS = (DType.TASK_ID, DType.BOOL)  # scalars no arithmetic takes
_COUNTER = L.Var("i")  # a loop's counter (an int64_t), compared with the loop's stop
_INT_FLOAT_HINT = "write a float literal (2.0) or keep both sides integers"


def _c_quotient(a: int, b: int) -> int:
    """``a / b`` on C++ integers: the quotient rounded toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# Integer constants folded in the orchestration body, with the meaning the C++ gives them: the
# DSL's ``//`` and ``%`` print as C ``/`` and ``%`` (reference-behaviour: C semantics, not floor),
# so folding ``-7 // 2`` must give -3, as the unfolded C++ would compute.
_C_FOLD: dict[BinOp, Callable[[Any, Any], Any]] = {
    BinOp.add: lambda a, b: a + b,
    BinOp.sub: lambda a, b: a - b,
    BinOp.mul: lambda a, b: a * b,
    BinOp.floordiv: _c_quotient,
    BinOp.mod: lambda a, b: a - b * _c_quotient(a, b),
    BinOp.shl: lambda a, b: a << b,
    BinOp.shr: lambda a, b: a >> b,
}


def parse_program(src: ProgramSource, func_name: str | None = None) -> Any:
    """The ``surface`` program for one orchestration function of a program class."""
    try:
        return _ProgramParser(src).parse(func_name)
    except RecursionError:
        raise UserError("this statement is nested too deeply for the compiler", src.span(_deepest_statement(src.classdef)),
                        hint="split it with intermediate variables") from None


def orchestration_function_names(src: ProgramSource) -> list[str]:
    """The names of a program class's orchestration functions, in source order."""
    parser = _ProgramParser(src)
    parser._collect_functions()
    return [fdef.name for fdef, kind, _auto, _dual in parser.functions if kind is FuncKind.Orchestration]


def expr_depth(node: ast.AST) -> int:
    """How deep ``node`` nests (iteratively), counting every ``ast`` node on the way down, a name's
    context (``ast.Load``) too: ``a + b`` is 3 deep. A chain ``a and b and c`` counts as the nesting
    it becomes."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        step = len(current.values) - 1 if isinstance(current, ast.BoolOp) else 1
        stack.extend((child, depth + step) for child in ast.iter_child_nodes(current))
    return deepest


def check_expr_depth(program: "_ProgramParser", node: ast.expr) -> None:
    if expr_depth(node) > MAX_EXPR_DEPTH:
        raise too_deep(program, node)


def too_deep(program: "_ProgramParser", node: ast.expr) -> UserError:
    return program.error(
        f"expression nested more than {MAX_EXPR_DEPTH} deep", node, hint="split it with intermediate variables"
    )


def _deepest_statement(root: ast.AST) -> ast.AST:
    """The statement below ``root`` whose expressions nest deepest (iteratively)."""
    best, best_depth = root, 0
    for node in ast.walk(root):
        if isinstance(node, ast.stmt) and node is not root:
            depth = max((expr_depth(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)), default=0)
            if depth > best_depth:
                best, best_depth = node, depth
    return best


# ---------------------------------------------------------------------------------------------
# Helpers


def _attr_path(node: ast.AST) -> list[str] | None:
    """``pl.tensor.read`` -> ['pl', 'tensor', 'read']; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def _dsl_call(node: ast.AST) -> str | None:
    """The DSL op a call spells (``pl.tensor.read(...)`` -> 'tensor.read'); None otherwise."""
    if not isinstance(node, ast.Call):
        return None
    path = _attr_path(node.func)
    if path is None or len(path) < 2 or path[0] == "self":
        return None
    return ".".join(path[1:])


def _self_method(node: ast.AST) -> str | None:
    """``self.k`` -> 'k'."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def type_text(t: Any) -> str:
    """A type as the DSL spells it, for messages."""
    name = t._production
    if name == "ScalarType":
        return f"pl.Scalar[pl.{t.dtype.name}]"
    if name == "ArrayType":
        return f"pl.Array[{t.size}, pl.{t.dtype.name}]"
    dims = ", ".join(_dim_text(d) for d in t.shape)
    kind = "Tensor" if name == "TensorType" else "Tile"
    return f"pl.{kind}[[{dims}], pl.{t.dtype.name}]"


def unsigned_mix(a: Any, da: DType, b: Any, db: DType) -> DType | None:
    """The unsigned dtype when C++'s usual arithmetic conversions compute ``a op b`` in unsigned.

    Integers narrower than 32 bits promote to int first; then unsigned wins unless the signed side
    is wider (UINT32 with INT64 stays signed). A constant that is not negative keeps its value
    either way (None); a negative one (a C++ int) would wrap.
    """
    if da is db or not (da.is_int and db.is_int) or da.is_signed == db.is_signed:
        return None
    (s, ds), du = ((a, da), db) if da.is_signed else ((b, db), da)
    if s._production == "Int":
        if s.value >= 0:
            return None
        ds = DType.INT32
    return du if du.bits >= max(ds.bits, 32) else None


def _dim_text(d: Any) -> str:
    if d._production == "Int":
        return str(d.value)
    if d._production == "Var":
        return d.name
    return "?"


@dataclass
class KernelSig:
    name: str
    kind: FuncKind
    params: list[Any]  # surface Param nodes
    results: list[Any]  # surface Type nodes
    span: Span


class Binding(NamedTuple):
    """What a visible name is bound to (immutable: a name bound again gets a new Binding)."""

    type: Any
    kind: str  # param | local | loopvar | iter | dyn
    span: Span


# ---------------------------------------------------------------------------------------------
# Program level


class _ProgramParser:
    def __init__(self, src: ProgramSource):
        self.src = src
        self.functions: list[tuple[ast.FunctionDef, FuncKind, bool, bool]] = []
        self.kernels: dict[str, KernelSig] = {}

    def error(self, message: str, node: ast.AST | None = None, hint: str | None = None) -> UserError:
        return UserError(message, self.src.span(node) if node is not None else self.src.span(self.src.classdef), hint)

    def parse(self, func_name: str | None):
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
        types = _TypeReader(self)
        kernel_nodes = []
        for fdef, kind, _auto, dual in self.functions:
            if kind is FuncKind.Orchestration:
                continue
            params = types.params(fdef, kernel=True)
            results = types.results(fdef)
            self.kernels[fdef.name] = KernelSig(fdef.name, kind, params, results, self.src.span(fdef))
            body = _KernelSummary(self, types).summarize(fdef)
            self._check_returned_params(fdef.name, params, results, body)
            kernel_nodes.append(
                L.Kernel(fdef.name, kind, params, results, body, dual, span=self.src.span(fdef))
            )
        fdef, _kind, auto_scope, _dual = orch
        func = _FunctionParser(self, types, fdef, auto_scope).parse()
        return L.Program(self.src.name, kernel_nodes, func, span=self.src.span(self.src.classdef))

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
            deco = next((d for d in stmt.decorator_list if _is_function_decorator(d)), None)
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
            elif kw.arg in ("attrs", "level", "role", "strict_ssa"):
                continue
            else:
                raise self.error(f"@pl.function has no keyword argument '{kw.arg}'", kw.value)
        return kind, auto_scope, dual

    def _function_kind(self, node: ast.expr) -> FuncKind:
        path = _attr_path(node)
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


def _is_function_decorator(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    path = _attr_path(node)
    return bool(path) and path[-1] == "function"


# ---------------------------------------------------------------------------------------------
# Types in annotations


class _TypeReader:
    """Annotation ASTs -> surface types. Names resolve through the program's closure."""

    def __init__(self, program: _ProgramParser):
        self.program = program
        self.closure = program.src.closure
        self.error = program.error

    def params(self, fdef: ast.FunctionDef, kernel: bool) -> list[Any]:
        args = fdef.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise self.error(f"function '{fdef.name}' may only take plain positional parameters", fdef)
        if args.defaults:
            raise self.error(f"parameters of '{fdef.name}' cannot have default values", args.defaults[0])
        positional = list(args.args)
        if not positional or positional[0].arg != "self":
            raise self.error(f"function '{fdef.name}' must take 'self' as its first parameter", fdef)
        params = []
        seen = set()
        for arg in positional[1:]:
            if arg.annotation is None:
                raise self.error(f"parameter '{arg.arg}' has no type annotation", arg)
            if arg.arg in seen:
                raise self.error(f"parameter '{arg.arg}' is declared twice", arg)
            check_user_name(self.program, arg.arg, arg)
            seen.add(arg.arg)
            direction, ptype = self.param_type(arg.annotation)
            if ptype._production == "TileType" and not kernel:
                raise self.error("an orchestration parameter cannot be a pl.Tile", arg.annotation)
            if ptype._production != "TensorType" and direction is not ParamDir.In:
                raise self.error(f"only tensor parameters can be pl.{direction.name}", arg.annotation)
            params.append(L.Param(arg.arg, ptype, direction, span=self.program.src.span(arg)))
        return params

    def results(self, fdef: ast.FunctionDef) -> list[Any]:
        node = fdef.returns
        if node is None or (isinstance(node, ast.Constant) and node.value is None):
            return []
        if isinstance(node, ast.Subscript) and _attr_path(node.value) in (["tuple"], ["typing", "Tuple"]) or (
            isinstance(node, ast.Subscript) and (_attr_path(node.value) or [""])[-1] == "Tuple"
        ):
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [self.value_type(e) for e in elts]
        return [self.value_type(node)]

    def param_type(self, node: ast.expr) -> tuple[ParamDir, Any]:
        if isinstance(node, ast.Subscript):
            head = (_attr_path(node.value) or [""])[-1]
            if head in ("Out", "InOut"):
                return ParamDir[head], self.value_type(node.slice)
        return ParamDir.In, self.value_type(node)

    def value_type(self, node: ast.expr) -> Any:
        path = _attr_path(node)
        if path and path[-1] == "TaskId":
            return TID_T
        if isinstance(node, ast.Subscript):
            head = (_attr_path(node.value) or [""])[-1]
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in ("Tensor", "Tile"):
                if len(items) < 2:
                    raise self.error(f"pl.{head} needs a shape and a dtype: pl.{head}[[16, 16], pl.FP32]", node)
                shape = self.shape(items[0])
                dtype = self.dtype(items[1])
                if head == "Tensor" and dtype.runtime is None:
                    raise self.error(f"the runtime has no tensor dtype for {dtype.name}", items[1])
                if head == "Tensor":
                    if not 1 <= len(shape) <= MAX_TENSOR_DIMS:
                        raise self.error(
                            f"a tensor has 1 to {MAX_TENSOR_DIMS} dimensions, got {len(shape)}", items[0]
                        )
                    return L.TensorType(shape, dtype)
                space = None
                for extra in items[2:]:
                    name = (_attr_path(extra) or [""])[-1]
                    if name in MEMORY_SPACES:
                        space = name
                return L.TileType(shape, dtype, space)
            if head == "Scalar":
                if len(items) != 1:
                    raise self.error("pl.Scalar takes one dtype: pl.Scalar[pl.INT64]", node)
                return SCALAR_T[self.dtype(items[0])]
            if head == "Array":
                if len(items) != 2:
                    raise self.error("pl.Array takes a size and a dtype: pl.Array[4, pl.TASK_ID]", node)
                size = self.const_int(items[0])
                if not 0 < size <= MAX_ARRAY_SIZE:
                    raise self.error(f"an array size must be a constant from 1 to {MAX_ARRAY_SIZE}, got {size}", items[0])
                return L.ArrayType(size, self.dtype(items[1]))
            if head in ("Out", "InOut"):
                raise self.error(f"pl.{head}[...] is only allowed on a parameter", node)
        raise self.error(f"unsupported type annotation {quoted(ast.unparse(node))}", node)

    def shape(self, node: ast.expr) -> list[Any]:
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.dim(e) for e in node.elts]
        if isinstance(node, ast.Name) and isinstance(self.program.src.closure_get(node.id, node), (list, tuple)):
            return [self.dim_value(v, node) for v in self.closure[node.id]]
        raise self.error("a shape must be a list of dimensions, like [16, 16]", node)

    def dim(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Call) and (_attr_path(node.func) or [""])[-1] == "dynamic":
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or not isinstance(
                node.args[0].value, str
            ):
                raise self.error('pl.dynamic takes one name: pl.dynamic("M")', node)
            name = node.args[0].value
            check_user_name(self.program, name, node)
            return L.Var(name)
        if isinstance(node, ast.Name) and node.id in self.closure:
            return self.dim_value(self.program.src.closure_get(node.id, node), node)
        return self.dim_value(self.const_int(node), node)

    def dim_value(self, value: Any, node: ast.expr) -> Any:
        from nanopass.dsl import DynamicDim

        if isinstance(value, DynamicDim):
            return L.Var(value.name)
        if isinstance(value, int) and not isinstance(value, bool):
            check_extent(self.program, value, node)
            return L.Int(value, DType.INDEX)
        raise self.error(f"a dimension must be an int or pl.dynamic(...), got {describe(value)}", node)

    def const_int(self, node: ast.expr) -> int:
        value = constant_value(self.program, node)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"expected an integer constant, got {quoted(ast.unparse(node))}", node)
        return value

    def dtype(self, node: ast.expr) -> DType:
        path = _attr_path(node)
        if path:
            if path[-1] in DType.__members__:
                return DType[path[-1]]
            if len(path) == 1 and isinstance(self.program.src.closure_get(path[0], node), DType):
                return self.closure[path[0]]
        names = " ".join(DType.__members__)
        raise self.error(f"unknown dtype {quoted(ast.unparse(node))}", node, hint=f"dtypes: {names}")


def constant_value(program: _ProgramParser, node: ast.expr) -> Any:
    """A Python constant: a literal, a closure name, or arithmetic over those."""
    check_expr_depth(program, node)
    return _constant_value(program, node)


def _constant_value(program: _ProgramParser, node: ast.expr) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in program.src.closure:
            value = program.src.closure_get(node.id, node)
            if isinstance(value, (int, float, bool)):
                return value
            raise program.error(f"'{node.id}' is {describe(value)}; a constant number is needed here", node)
        raise program.error(f"'{node.id}' is not a constant defined at module level", node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant_value(program, node.operand)
    if isinstance(node, ast.BinOp) and (type(node.op) in _CONST_OPS):
        a = _constant_value(program, node.left)
        b = _constant_value(program, node.right)
        try:
            return _CONST_OPS[type(node.op)](a, b)
        except (ZeroDivisionError, ValueError, OverflowError) as error:
            raise program.error(f"cannot evaluate constant {quoted(ast.unparse(node))}: {error}", node) from None
    if isinstance(node, ast.Constant):
        raise program.error(f"expected a number, got {describe(node.value)}", node)
    raise program.error(f"expected a constant, got {quoted(_short_source(node))}", node)


# Operators allowed between Python constants (evaluated with Python's semantics).
_CONST_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b if abs(b) <= 256 else _too_big(),
    ast.LShift: lambda a, b: a << b if 0 <= b <= 256 else _too_big(),
    ast.RShift: lambda a, b: a >> b,
}


def _too_big():
    raise ValueError("exponent too large")


def check_extent(owner: Any, value: int, node: ast.AST) -> None:
    """A constant tensor extent: positive, and within the runtime's uint32_t shapes."""
    if value <= 0:
        raise owner.error(f"a dimension must be positive, got {value}", node)
    if value >= MAX_DIM:
        raise owner.error(f"a dimension must be below 2**32 (the runtime's extents are uint32_t), got {value}", node)


def describe(value: Any) -> str:
    """A Python value as a message names it: 'a dtype (pl.FP16)', 'the string 'x'', 'a list' ..."""
    from nanopass.dsl import DynamicDim, _Annotation, _TypeConstructor

    if isinstance(value, DType):
        return f"a dtype (pl.{value.name})"
    if isinstance(value, FuncKind):
        return f"a function type (pl.FunctionType.{value.name})"
    if isinstance(value, _Annotation):
        return f"a type ({value!r})"
    if isinstance(value, _TypeConstructor):
        return f"a type constructor ({value!r})"
    if isinstance(value, DynamicDim):
        return f"a dynamic dimension ({value!r})"
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return repr(value)
    if isinstance(value, (str, bytes, int, float, complex)):
        text = repr(value)
        kind = {str: "string", int: "integer", complex: "complex number"}.get(type(value), type(value).__name__)
        return f"the {kind} {text if len(text) <= 40 else text[:37] + '...'}"
    if isinstance(value, type):
        return f"the class '{value.__name__}'"
    if callable(value):
        return f"a function ('{getattr(value, '__name__', '?')}')"
    if type(value).__name__ == "module":
        return f"a module ('{value.__name__}')"
    article = "an" if type(value).__name__[:1] in "aeiou" else "a"
    return f"{article} {type(value).__name__}"


def check_user_name(program: _ProgramParser, name: str, node: ast.AST) -> None:
    if "__" in name:
        raise program.error(
            f"'{name}': names containing '__' are reserved for the compiler's variable versions", node
        )


# ---------------------------------------------------------------------------------------------
# Kernel bodies


class _KernelSummary:
    """A kernel body -> KStmt*: assignments (targets, op, args, memory spaces) and returns."""

    def __init__(self, program: _ProgramParser, types: _TypeReader):
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
            out.append(L.KReturn(values, span=self.program.src.span(stmt)))
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
            method = _self_method(value.func)
            path = _attr_path(value.func)
            op = f"self.{method}" if method else ".".join(path[1:] if path and len(path) > 1 else (path or ["?"]))
            if op == "yield_":
                return L.KAssign(targets, "yield_", [self.arg(a) for a in value.args], spaces, span=span)
            args = [self.arg(a) for a in value.args]
            for kw in value.keywords:
                spaces += [s for s in self.spaces(kw.value) if s not in spaces]
            return L.KAssign(targets, op, args, spaces, span=span)
        return L.KAssign(targets, "=", [self.arg(value)], spaces, span=span)

    def targets(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.Name):
            return [node.id]
        if isinstance(node, (ast.Tuple, ast.List)):
            return [n for e in node.elts for n in self.targets(e)]
        return []

    def arg(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            return L.Var(node.id)
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return L.Bool(node.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return L.Int(node.value, DType.INDEX)
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            return L.Float(node.value, DType.FP32)
        return L.KOther(ast.unparse(node))

    def spaces(self, node: ast.expr | None) -> list[str]:
        if node is None:
            return []
        found = []
        for sub in ast.walk(node):
            name = sub.attr if isinstance(sub, ast.Attribute) else sub.id if isinstance(sub, ast.Name) else None
            if name in MEMORY_SPACES and name not in found:
                found.append(name)
        return found


# ---------------------------------------------------------------------------------------------
# The orchestration function


class _FunctionParser:
    def __init__(self, program: _ProgramParser, types: _TypeReader, fdef: ast.FunctionDef, auto_scope: bool):
        self.program = program
        self.src = program.src
        self.types = types
        self.fdef = fdef
        self.auto_scope = auto_scope
        self.frames: list[dict[str, Binding]] = [{}]
        self.closed: dict[str, str] = {}  # name -> why it is no longer visible
        self.depth = 0
        self.manual_depth = 0
        self.loop_stack: list[ast.For] = []
        self.results: list[Any] = []
        self.expr_root: ast.expr | None = None  # the expression expr() is reading
        self.expr_level = 0  # the expr_depth level of the node being read in it (0: none is)
        self.dispatchable: set[str] = set()  # kernels kernel_sig has accepted (checked once each)
        self.span: Callable[[ast.AST], Span] = self.src.span  # a node's position (called for most nodes built)

    # -- infrastructure --------------------------------------------------------------------------

    def error(self, message: str, node: ast.AST, hint: str | None = None) -> UserError:
        return UserError(message, self.span(node), hint)

    def lookup(self, name: str) -> Binding | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def define(self, name: str, ty: Any, node: ast.AST, kind: str = "local") -> Binding:
        """Bind ``name`` in the innermost frame; returns the binding (its span: ``node``'s)."""
        check_user_name(self.program, name, node)
        if name in self.program.kernels or name == "self":
            raise self.error(f"'{name}' cannot be used as a variable name", node)
        binding = self.frames[-1][name] = Binding(ty, kind, self.span(node))
        self.closed.pop(name, None)
        return binding

    def bind(self, name: str, ty: Any, node: ast.AST) -> Any:
        """Assign ``name``: re-assign a visible variable (same type) or define a new one."""
        if name == "_":
            return L.Binder("_", ty)
        existing = self.lookup(name)
        if existing is not None:
            if existing.kind in ("loopvar", "dyn"):
                raise self.error(f"cannot assign to '{name}' (a {'loop variable' if existing.kind == 'loopvar' else 'dynamic dimension'})", node)
            if not compatible(existing.type, ty):
                raise self.error(
                    f"cannot re-assign '{name}' with a different type: was {type_text(existing.type)}, "
                    f"got {type_text(ty)}",
                    node,
                    hint="use a new name for a value of another type",
                )
            return L.Binder.make(name, existing.type, span=self.span(node))
        return L.Binder.make(name, ty, span=self.define(name, ty, node).span)

    # -- entry -----------------------------------------------------------------------------------

    def parse(self):
        fdef = self.fdef
        params = self.types.params(fdef, kernel=False)
        self.results = self.types.results(fdef)
        dyn_dims = []
        n_tensors = n_scalars = 0
        for param in params:
            self.frames[0][param.name] = Binding(param.type, "param", param.span)
            if param.type._production == "TensorType":
                n_tensors += 1
            elif param.type._production == "ScalarType":
                n_scalars += 1
                if param.type.dtype.c_type is None or param.type.dtype is DType.TASK_ID:
                    raise UserError(
                        f"scalar parameter '{param.name}' of dtype {param.type.dtype.name} cannot be passed "
                        "to an orchestration function (no host C++ type)",
                        param.span,
                    )
            else:
                raise UserError(f"parameter '{param.name}': orchestration parameters are tensors or scalars", param.span)
        if n_tensors > MAX_ENTRY_TENSORS or n_scalars > MAX_ENTRY_SCALARS:
            raise self.error(
                f"'{fdef.name}' takes {n_tensors} tensors and {n_scalars} scalars; the runtime's entry "
                f"arguments hold at most {MAX_ENTRY_TENSORS} of each",
                fdef,
            )
        for param in params:
            if param.type._production != "TensorType":
                continue
            for axis, dim in enumerate(param.type.shape):
                if dim._production == "Var" and dim.name not in self.frames[0]:
                    self.frames[0][dim.name] = Binding(SCALAR_T[DType.INT64], "dyn", param.span)
                    dyn_dims.append(L.DynDim(dim.name, param.name, axis))
                elif dim._production == "Var" and self.frames[0][dim.name].kind != "dyn":
                    raise UserError(f"dynamic dimension '{dim.name}' has the name of a parameter", param.span)
        self.check_result_dims(fdef)
        body = self.block(fdef.body)
        if self.results and not _ends_with_return(fdef.body):
            raise self.error(
                f"'{fdef.name}' declares a return type but does not end with a return statement", fdef
            )
        return L.Function(
            fdef.name, params, self.results, self.auto_scope, dyn_dims, body, span=self.span(fdef)
        )

    def check_result_dims(self, fdef: ast.FunctionDef) -> None:
        """A dynamic dimension in the declared return type must be the extent of a tensor parameter."""
        for rtype in self.results:
            for dim in getattr(rtype, "shape", ()):
                binding = self.frames[0].get(dim.name) if dim._production == "Var" else None
                if dim._production == "Var" and (binding is None or binding.kind != "dyn"):
                    raise self.error(
                        f"the return type uses dynamic dimension '{dim.name}', which is not the extent of any "
                        "tensor parameter",
                        fdef.returns,
                    )

    # -- statements -------------------------------------------------------------------------------

    def block(self, stmts: list[ast.stmt]) -> list[Any]:
        out: list[Any] = []
        for index, stmt in enumerate(stmts):
            if (
                index == 0
                and isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                continue  # docstring
            out.extend(self.stmt(stmt))
        return out

    def stmt(self, stmt: ast.stmt) -> list[Any]:
        method = _STATEMENTS.get(type(stmt))
        if method is None:
            raise self.error(_unsupported_statement(stmt), stmt)
        return method(self, stmt)

    def stmt_Pass(self, stmt: ast.Pass) -> list[Any]:
        return []

    def stmt_Expr(self, stmt: ast.Expr) -> list[Any]:
        value = stmt.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return []
        if isinstance(value, ast.Call):
            method = _self_method(value.func)
            if method is not None:
                return [self.kernel_call(value, None, stmt)]
            op = _dsl_call(value)
            if op == "tensor.write":
                return [self.tensor_write(value)]
            if op == "submit":
                raise self.error("pl.submit(...) must be unpacked: out, tid = pl.submit(...)", value)
            if op == "system.task_dummy":
                raise self.error("assign the barrier's TaskId: b = pl.system.task_dummy(deps=[...])", value)
            if op == "yield_":
                raise self.error("pl.yield_ must be assigned: a, b = pl.yield_(x, y)", value)
        raise self.error(
            f"this expression has no effect as a statement: {quoted(_short_source(stmt))}", stmt
        )

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> list[Any]:
        if not isinstance(stmt.target, ast.Name):
            raise self.error("only a variable can be the target of an augmented assignment", stmt.target)
        expr = ast.BinOp(left=ast.Name(stmt.target.id, ast.Load()), op=stmt.op, right=stmt.value)
        ast.copy_location(expr, stmt)
        ast.copy_location(expr.left, stmt.target)
        value, ty = self.scalar_expr(expr)
        return [L.Let(self.bind(stmt.target.id, ty, stmt), value, span=self.span(stmt))]

    def stmt_AnnAssign(self, stmt: ast.AnnAssign) -> list[Any]:
        if stmt.value is None:
            raise self.error("a declaration needs a value: x: T = ...", stmt)
        if not isinstance(stmt.target, ast.Name):
            raise self.error("only a variable can be annotated", stmt.target)
        annotated = self.types.value_type(stmt.annotation)
        return self.assign([stmt.target], stmt.value, stmt, annotated)

    def stmt_Assign(self, stmt: ast.Assign) -> list[Any]:
        if len(stmt.targets) != 1:
            raise self.error("chained assignment (a = b = ...) is not supported", stmt)
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            return [self.array_write(target, stmt.value, stmt)]
        if isinstance(target, (ast.Tuple, ast.List)):
            return self.assign(list(target.elts), stmt.value, stmt, None, tuple_target=True)
        return self.assign([target], stmt.value, stmt, None)

    def assign(
        self, targets: list[ast.expr], value: ast.expr, stmt: ast.stmt, annotated: Any, tuple_target: bool = False
    ) -> list[Any]:
        if isinstance(value, ast.Call) and _self_method(value.func) is not None:
            return [self.kernel_call(value, targets if (tuple_target or targets) else None, stmt)]
        op = _dsl_call(value)
        if op == "submit":
            return [self.submit(value, targets, tuple_target, stmt)]
        if op == "yield_":
            return self.yield_(value, targets, stmt)
        for target in targets:
            if not isinstance(target, ast.Name):
                raise self.error("the target of an assignment must be a variable name", target)
        if tuple_target:
            raise self.error("only kernel calls, pl.submit and pl.yield_ can be unpacked into several names", stmt)
        name = targets[0].id
        if op == "system.task_dummy":
            deps = self.dummy_deps(value)
            return [L.Dummy(self.bind(name, TID_T, targets[0]), deps, span=self.span(value))]
        rhs, ty = self.rhs(value, annotated)
        if annotated is not None:
            ty = self.check_annotation(annotated, ty, stmt, name)
            if rhs._production == "Int" and ty._production == "ScalarType":
                rhs = L.Int(rhs.value, ty.dtype)
        return [L.Let.make(self.bind(name, ty, targets[0]), rhs, span=self.span(stmt))]

    def check_annotation(self, annotated: Any, inferred: Any, stmt: ast.stmt, name: str) -> Any:
        if annotated._production != inferred._production:
            raise self.error(
                f"type annotation of '{name}' is {type_text(annotated)} but the value is {type_text(inferred)}", stmt
            )
        if annotated._production == "ScalarType":
            a, b = annotated.dtype, inferred.dtype
            if a == b or (b is DType.INDEX and a.is_int):
                return annotated
            raise self.error(f"type annotation of '{name}' has dtype {a.name} but the value has {b.name}", stmt)
        if not compatible(annotated, inferred):
            raise self.error(
                f"type annotation of '{name}' is {type_text(annotated)} but the value is {type_text(inferred)}", stmt
            )
        return annotated

    def stmt_Return(self, stmt: ast.Return) -> list[Any]:
        if self.depth:
            raise self.error("return is only allowed at the end of the orchestration function", stmt)
        values = []
        if stmt.value is not None:
            elts = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
            for elt in elts:
                expr, ty = self.expr(elt)
                if ty._production != "TensorType":
                    raise self.error("an orchestration function returns tensors (its Out/InOut parameters)", elt)
                values.append((expr, ty, elt))
        if len(values) != len(self.results):
            raise self.error(
                f"'{self.fdef.name}' declares {len(self.results)} return value(s) but returns {len(values)}", stmt
            )
        for (_expr, ty, elt), declared in zip(values, self.results):
            if ty != declared:
                raise self.error(f"'{self.fdef.name}' returns a {type_text(ty)} where its return type declares "
                                 f"{type_text(declared)}", elt)
        values = [expr for expr, _ty, _elt in values]
        return [L.Return(values, span=self.span(stmt))]

    def stmt_For(self, stmt: ast.For) -> list[Any]:
        if stmt.orelse:
            raise self.error("for ... else is not supported", stmt.orelse[0])
        call = stmt.iter
        op = _dsl_call(call)
        if op not in ("range", "parallel"):
            raise self.error("a for loop must iterate over pl.range(...) or pl.parallel(...)", call)
        kind = LoopKind.seq if op == "range" else LoopKind.parallel
        if kind is LoopKind.parallel and self.parallel_depth() >= MAX_PARALLEL_NESTING:
            raise self.error(f"pl.parallel loops are nested more than {MAX_PARALLEL_NESTING} deep", stmt)
        bounds = self.loop_bounds(call)
        init_node = next((kw.value for kw in call.keywords if kw.arg == "init_values"), None)
        for kw in call.keywords:
            if kw.arg not in ("init_values", "attrs"):
                raise self.error(f"pl.{op} has no keyword argument '{kw.arg}'", kw.value)
        self.enter(stmt)
        self.frames.append({})
        self.loop_stack.append(stmt)
        try:
            iters: list[Any] = []
            explicit = init_node is not None
            if explicit:
                var_node, iter_names = self.explicit_loop_target(stmt.target, init_node)
                inits = init_node.elts
                for name_node, init in zip(iter_names, inits):
                    init_expr, init_ty = self.frame_outside(lambda init=init: self.expr(init))
                    if init_ty._production not in ("TensorType", "ScalarType", "ArrayType"):
                        raise self.error("an init value must be a tensor, a scalar or an array", init)
                    binding = self.define(name_node.id, init_ty, name_node, "iter")
                    iters.append(L.IterArg(L.Binder(name_node.id, init_ty, span=binding.span), init_expr))
            else:
                var_node = stmt.target
                if not isinstance(var_node, ast.Name):
                    raise self.error(
                        "the loop target must be a name (or i, (a, b) with init_values=...)", var_node
                    )
            var = L.Binder.make(var_node.id, INDEX_T, span=self.define(var_node.id, INDEX_T, var_node, "loopvar").span)
            body_nodes = stmt.body
            results: list[Any] = []
            yield_values: list[Any] = []
            if explicit:
                last = body_nodes[-1]
                if not _is_yield_assign(last):
                    raise self.error(
                        "a loop with init_values must end with an assignment from pl.yield_(...)",
                        last,
                        hint="for i, (a,) in pl.range(n, init_values=(x,)): ...; a_out = pl.yield_(a_next)",
                    )
                body = self.block(body_nodes[:-1])
                yield_values, result_names = self.loop_yield(last, iters)
                body.append(L.Yield(yield_values, span=self.span(last)))
            else:
                body = self.block(body_nodes)
        finally:
            self.loop_stack.pop()
            frame = self.frames.pop()
            self.leave()
        for name in frame:
            if self.lookup(name) is None:
                self.closed[name] = f"defined inside the loop at line {stmt.lineno}"
        if explicit:
            for name_node, it in zip(result_names, iters):
                results.append(self.bind(name_node.id, it.var.type, name_node))
        start, stop, step = bounds
        return [L.For.make(var, start, stop, step, kind, iters, body, results, span=self.span(stmt))]

    def parallel_depth(self) -> int:
        return sum(1 for loop in self.loop_stack if _dsl_call(loop.iter) == "parallel")

    def frame_outside(self, thunk):
        """Evaluate ``thunk`` with the innermost frame hidden (init values see the outer scope)."""
        inner = self.frames.pop()
        try:
            return thunk()
        finally:
            self.frames.append(inner)

    def explicit_loop_target(self, target: ast.expr, init_node: ast.expr) -> tuple[ast.Name, list[ast.Name]]:
        if not isinstance(init_node, (ast.Tuple, ast.List)):
            raise self.error("init_values must be a tuple or list", init_node)
        if not (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and isinstance(target.elts[0], ast.Name)
            and isinstance(target.elts[1], (ast.Tuple, ast.List))
        ):
            raise self.error("with init_values the loop target must be i, (a, b, ...)", target)
        names = list(target.elts[1].elts)
        for n in names:
            if not isinstance(n, ast.Name):
                raise self.error("loop carries must be plain names", n)
        if len(names) != len(init_node.elts):
            raise self.error(
                f"{len(names)} loop carries but {len(init_node.elts)} init values", init_node
            )
        return target.elts[0], names

    def loop_yield(self, stmt: ast.stmt, iters: list[Any]) -> tuple[list[Any], list[ast.Name]]:
        call = stmt.value
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        names = list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]
        for n in names:
            if not isinstance(n, ast.Name):
                raise self.error("pl.yield_ results must be plain names", n)
        if len(call.args) != len(iters):
            raise self.error(
                f"pl.yield_ gives {len(call.args)} value(s) but the loop carries {len(iters)}", call
            )
        if len(names) != len(iters):
            raise self.error(f"pl.yield_ is unpacked into {len(names)} name(s) but the loop carries {len(iters)}", stmt)
        values = []
        for arg, it in zip(call.args, iters):
            expr, ty = self.expr(arg)
            if not compatible(it.var.type, ty):
                raise self.error(
                    f"the carry '{it.var.name}' changes type in the loop: {type_text(it.var.type)} before, "
                    f"{type_text(ty)} yielded",
                    arg,
                )
            values.append(expr)
        return values, names

    def loop_bounds(self, call: ast.Call) -> tuple[Any, Any, Any]:
        args = call.args
        if not 1 <= len(args) <= 3:
            raise self.error("pl.range takes 1 to 3 arguments: (stop), (start, stop) or (start, stop, step)", call)
        exprs = []
        for arg in args:
            expr, ty = self.expr(arg)
            if ty._production != "ScalarType" or not ty.dtype.is_int:
                raise self.error(f"a loop bound must be an integer, got {type_text(ty)}", arg)
            if arg is args[min(1, len(args) - 1)] and unsigned_mix(_COUNTER, DType.INDEX, expr, ty.dtype):
                raise self.error(
                    f"a loop stop cannot be a {type_text(ty)}: C++ compares the int64_t counter with it as "
                    f"{ty.dtype.c_type}, where a negative counter is a huge one", arg, hint="declare it pl.INT64",
                )
            exprs.append(expr)
        zero, one = L.Int.make(0, DType.INDEX), L.Int.make(1, DType.INDEX)
        if len(exprs) == 1:
            return zero, exprs[0], one
        if len(exprs) == 2:
            return exprs[0], exprs[1], one
        if exprs[2]._production == "Int" and exprs[2].value <= 0:
            raise self.error("a loop step must be positive", args[2])
        return exprs[0], exprs[1], exprs[2]

    def yield_(self, call: ast.Call, targets: list[ast.expr], stmt: ast.stmt) -> list[Any]:
        # pl.yield_ inside an if branch names the branch's results: x = pl.yield_(v) is x = v.
        if len(call.args) != len(targets):
            raise self.error(f"pl.yield_ gives {len(call.args)} value(s) to {len(targets)} name(s)", call)
        out = []
        for target, arg in zip(targets, call.args):
            if not isinstance(target, ast.Name):
                raise self.error("pl.yield_ results must be plain names", target)
            expr, ty = self.rhs(arg, None)
            out.append(L.Let(self.bind(target.id, ty, target), expr, span=self.span(stmt)))
        return out

    def stmt_If(self, stmt: ast.If) -> list[Any]:
        cond, ty = self.expr(stmt.test)
        if ty != BOOL_T:
            raise self.error(
                f"an if condition must be a comparison or another bool expression, got {type_text(ty)}",
                stmt.test,
                hint="write n != 0 for an integer",
            )
        self.enter(stmt)
        try:
            self.frames.append({})
            then = self.block(stmt.body)
            then_frame = self.frames.pop()
            self.frames.append({})
            orelse = self.block(stmt.orelse)
            else_frame = self.frames.pop()
        finally:
            self.leave()
        for name, binding in then_frame.items():
            other = else_frame.get(name)
            if other is not None and compatible(binding.type, other.type):
                self.frames[-1][name] = binding
            elif other is not None:
                raise self.error(
                    f"'{name}' gets different types in the two branches: {type_text(binding.type)} and "
                    f"{type_text(other.type)}",
                    stmt,
                )
            elif self.lookup(name) is None:
                self.closed[name] = f"defined only in the then-branch of the if at line {stmt.lineno}"
        for name in else_frame:
            if name not in then_frame and self.lookup(name) is None:
                self.closed[name] = f"defined only in the else-branch of the if at line {stmt.lineno}"
        return [L.If.make(cond, then, orelse, span=self.span(stmt))]

    def stmt_With(self, stmt: ast.With) -> list[Any]:
        if len(stmt.items) != 1:
            raise self.error("a with statement takes one context manager", stmt)
        item = stmt.items[0]
        if item.optional_vars is not None:
            raise self.error("'with ... as' is not supported for scopes", item.optional_vars)
        op = _dsl_call(item.context_expr)
        if op == "manual_scope":
            mode = ScopeMode.manual
            if item.context_expr.args or item.context_expr.keywords:
                raise self.error("pl.manual_scope() takes no arguments", item.context_expr)
        elif op == "scope":
            mode = self.scope_mode(item.context_expr)
        else:
            raise self.error(
                "unsupported context manager: use pl.manual_scope() or pl.scope()", item.context_expr
            )
        if mode is ScopeMode.manual and self.manual_depth:
            raise self.error("a manual scope may not be nested inside another manual scope", stmt)
        if mode is ScopeMode.auto:
            if self.auto_scope:
                raise self.error(
                    "a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)", stmt
                )
            if self.manual_depth:
                raise self.error("an AUTO scope may not be nested inside a manual scope", stmt)
        self.enter(stmt)
        self.manual_depth += mode is ScopeMode.manual
        try:
            body = self.block(stmt.body)
        finally:
            self.manual_depth -= mode is ScopeMode.manual
            self.leave()
        return [L.Scope(mode, body, span=self.span(stmt))]

    def scope_mode(self, call: ast.Call) -> ScopeMode:
        if call.args:
            raise self.error("pl.scope takes only mode=", call.args[0])
        mode = ScopeMode.auto
        for kw in call.keywords:
            if kw.arg != "mode":
                raise self.error(f"pl.scope has no keyword argument '{kw.arg}'", kw.value)
            name = (_attr_path(kw.value) or [""])[-1]
            if name not in ("AUTO", "MANUAL"):
                raise self.error("mode= must be pl.ScopeMode.AUTO or pl.ScopeMode.MANUAL", kw.value)
            mode = ScopeMode.auto if name == "AUTO" else ScopeMode.manual
        return mode

    def enter(self, node: ast.AST) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            hint = "an elif nests in the else before it: a long if/elif chain counts one level per branch" if isinstance(
                node, ast.If) else None
            raise self.error(f"blocks are nested more than {MAX_NESTING} deep", node, hint=hint)

    def leave(self) -> None:
        self.depth -= 1

    # -- tasks ------------------------------------------------------------------------------------

    def kernel_sig(self, name: str, node: ast.AST) -> KernelSig:
        sig = self.program.kernels.get(name)
        if name in self.dispatchable:
            return sig
        if sig is None:
            if name == self.fdef.name or any(f[0].name == name for f in self.program.functions):
                raise self.error(f"'{name}' is an orchestration function, not a kernel", node)
            available = ", ".join(sorted(self.program.kernels)) or "none"
            raise self.error(
                f"function '{name}' is not defined in program '{self.src.name}'", node,
                hint=did_you_mean(name, self.program.kernels, "self.") or f"kernels: {available}",
            )
        if sig.kind is FuncKind.Opaque:
            raise self.error(f"'{name}' has no pl.FunctionType: it cannot be dispatched as a task", node)
        tensors = sum(1 for p in sig.params if p.type._production == "TensorType")
        scalars = len(sig.params) - tensors
        if tensors > MAX_TASK_TENSORS or scalars > MAX_TASK_SCALARS:
            raise self.error(
                f"a task of '{name}' would pass {tensors} tensors and {scalars} scalars; one runtime task "
                f"takes at most {MAX_TASK_TENSORS} tensors and {MAX_TASK_SCALARS} scalars",
                node,
            )
        self.dispatchable.add(name)
        return sig

    def kernel_call(self, call: ast.Call, targets: list[ast.expr] | None, stmt: ast.stmt) -> Any:
        name = _self_method(call.func)
        sig = self.kernel_sig(name, call.func)
        for kw in call.keywords:
            hint = "use pl.submit(self.k, ..., deps=[...]) for explicit dependencies" if kw.arg == "deps" else None
            raise self.error(f"kernel '{name}' does not accept keyword argument '{kw.arg}'", kw.value, hint)
        if len(call.args) != len(sig.params):
            raise self.error(
                f"kernel '{name}' expects {len(sig.params)} argument(s), got {len(call.args)}",
                call,
                hint=_signature_hint(sig),
            )
        args = [self.task_arg(arg, param, name) for arg, param in zip(call.args, sig.params)]
        outs = self.task_outs(targets or [], sig, call, stmt, statement=targets is None)
        return L.Task.make(outs, None, name, args, (), span=self.span(call))

    def submit(self, call: ast.Call, targets: list[ast.expr], tuple_target: bool, stmt: ast.stmt) -> Any:
        if not call.args or _self_method(call.args[0]) is None:
            raise self.error("pl.submit's first argument must be a kernel: pl.submit(self.k, ...)", call)
        name = _self_method(call.args[0])
        sig = self.kernel_sig(name, call.args[0])
        args_nodes = call.args[1:]
        deps_node = None
        for kw in call.keywords:
            if kw.arg == "deps":
                deps_node = kw.value
            else:
                raise self.error(f"pl.submit has no keyword argument '{kw.arg}'", kw.value)
        n_params = len(sig.params)
        if len(args_nodes) != n_params:
            omitted = sig.params[len(args_nodes) :]
            if len(args_nodes) > n_params or any(p.dir is not ParamDir.Out for p in omitted):
                raise self.error(
                    f"kernel '{name}' expects {n_params} argument(s), got {len(args_nodes)}",
                    call,
                    hint=_signature_hint(sig) + "; only trailing pl.Out parameters may be left out",
                )
        args = [self.task_arg(arg, param, name) for arg, param in zip(args_nodes, sig.params)]
        deps = self.deps(deps_node, name) if deps_node is not None else []
        # targets: (outs, tid) or tid alone
        if tuple_target:
            if len(targets) != 2:
                raise self.error(
                    f"pl.submit must be unpacked as exactly 2 targets (results, task_id), got {len(targets)}", stmt
                )
            result_node, tid_node = targets
            if isinstance(result_node, (ast.Tuple, ast.List)):
                result_targets = list(result_node.elts)
            else:
                result_targets = [result_node]
                if len(sig.results) != 1 and not (isinstance(result_node, ast.Name) and result_node.id == "_"):
                    raise self.error(
                        f"kernel '{name}' returns {len(sig.results)} value(s); unpack them as (a, b), tid", result_node
                    )
            if len(sig.results) == 0 and result_targets and not (
                len(result_targets) == 1 and isinstance(result_targets[0], ast.Name) and result_targets[0].id == "_"
            ):
                raise self.error(f"kernel '{name}' returns nothing; write (), tid = pl.submit(...)", result_node)
            if len(sig.results) == 0:
                result_targets = []
        else:
            tid_node = targets[0]
            result_targets = []
        if not isinstance(tid_node, ast.Name):
            raise self.error("the task_id target must be a plain variable name", tid_node)
        outs = self.task_outs(result_targets, sig, call, stmt, statement=not result_targets)
        tid = self.bind(tid_node.id, TID_T, tid_node)
        return L.Task(outs, tid, name, args, deps, span=self.span(call))

    def task_outs(
        self, targets: list[ast.expr], sig: KernelSig, call: ast.Call, stmt: ast.stmt, statement: bool
    ) -> list[Any]:
        if statement:
            return []
        if len(targets) != len(sig.results):
            raise self.error(
                f"kernel '{sig.name}' returns {len(sig.results)} value(s) but {len(targets)} name(s) receive them",
                stmt,
            )
        outs = []
        for target, rtype in zip(targets, sig.results):
            if not isinstance(target, ast.Name):
                raise self.error("results must be received by plain variable names", target)
            if rtype._production != "TensorType":
                raise self.error(f"kernel '{sig.name}' returns a {type_text(rtype)}; kernels return tensors", call)
            outs.append(self.bind(target.id, rtype, target))
        return outs

    def task_arg(self, node: ast.expr, param: Any, kernel: str) -> Any:
        no_dep = False
        while isinstance(node, ast.Call) and _dsl_call(node) == "no_dep":
            if len(node.args) != 1 or node.keywords:
                raise self.error("pl.no_dep takes one tensor: pl.no_dep(t)", node)
            no_dep = True
            node = node.args[0]
        ptype = param.type
        if isinstance(node, ast.Constant) and node.value is None:
            raise self.error(f"None is not a value for parameter '{param.name}' of '{kernel}'", node)
        expr, ty = self.expr(node)
        if ptype._production == "TensorType":
            if ty._production != "TensorType":
                raise self.error(
                    f"parameter '{param.name}' of '{kernel}' is a tensor but the argument is a {type_text(ty)}", node
                )
            if expr._production != "Var":
                raise self.error("a tensor argument must be a variable", node)
            if ty.dtype != ptype.dtype or not _shapes_match(ptype.shape, ty.shape):
                raise self.error(
                    f"parameter '{param.name}' of '{kernel}' is {type_text(ptype)} but the argument is "
                    f"{type_text(ty)}",
                    node,
                )
            return L.Arg.make(expr, no_dep, span=self.span(node))
        if no_dep:
            raise self.error("pl.no_dep applies to tensor arguments only", node)
        if ptype._production != "ScalarType":
            raise self.error(f"parameter '{param.name}' of '{kernel}' cannot be passed to a task", node)
        if ty._production != "ScalarType" or ty.dtype is DType.TASK_ID:
            raise self.error(
                f"parameter '{param.name}' of '{kernel}' is a {type_text(ptype)} but the argument is a {type_text(ty)}",
                node,
            )
        want, got = ptype.dtype, ty.dtype
        if want.is_float and got.is_int and expr._production == "Int":
            expr = L.Float(float(expr.value), want)
        elif want.is_float != got.is_float or (want is DType.BOOL) != (got is DType.BOOL):
            raise self.error(
                f"parameter '{param.name}' of '{kernel}' is a {type_text(ptype)} but the argument is a {type_text(ty)}",
                node,
            )
        elif expr._production in ("Int", "Float"):
            expr = expr.replace(dtype=want)
        return L.Arg.make(expr, False, span=self.span(node))

    def deps(self, node: ast.expr, what: str) -> list[Any]:
        if not isinstance(node, (ast.List, ast.Tuple)):
            raise self.error(f"'{what}' deps= must be a list of TaskId values", node)
        out = []
        for entry in node.elts:
            if isinstance(entry, ast.Constant) and entry.value is None:
                continue
            if isinstance(entry, ast.Subscript):
                arr, aty = self.expr(entry.value)
                if aty._production != "ArrayType" or aty.dtype is not DType.TASK_ID:
                    raise self.error("deps= entries arr[i] need a TaskId array", entry.value)
                index, ity = self.expr(entry.slice)
                if ity._production != "ScalarType" or not ity.dtype.is_int:
                    raise self.error("an array index must be an integer", entry.slice)
                out.append(L.DepItem(arr, index, span=self.span(entry)))
                continue
            if isinstance(entry, ast.Name):
                expr, ty = self.expr(entry)
                if ty == TID_T or (ty._production == "ArrayType" and ty.dtype is DType.TASK_ID):
                    out.append(L.DepVar(expr, span=self.span(entry)))
                    continue
            raise self.error(
                f"'{what}' deps= entries must be a TaskId variable, a TaskId array, arr[i] or None; "
                f"got {quoted(_short_source(entry))}",
                entry,
            )
        return out

    def dummy_deps(self, call: ast.Call) -> list[Any]:
        if call.args:
            raise self.error("pl.system.task_dummy takes only deps=[...]", call.args[0])
        deps_node = None
        for kw in call.keywords:
            if kw.arg != "deps":
                raise self.error(f"pl.system.task_dummy has no keyword argument '{kw.arg}'", kw.value)
            deps_node = kw.value
        if deps_node is None:
            raise self.error("pl.system.task_dummy requires deps=[...] (use deps=[] for none)", call)
        return self.deps(deps_node, "task_dummy")

    # -- right-hand sides --------------------------------------------------------------------------

    def rhs(self, node: ast.expr, annotated: Any) -> tuple[Any, Any]:
        if isinstance(node, ast.Constant) and node.value is None:
            return L.NoTask(), TID_T
        op = _dsl_call(node)
        if op is not None and op not in _SCALAR_CALLS:
            handler = _RHS_OPS.get(op)
            if handler is None:
                raise self.error(f"unknown or unsupported operation 'pl.{op}' in an orchestration function", node,
                                 hint=did_you_mean(op, [*_RHS_OPS, "submit", "yield_", "system.task_dummy"], "pl."))
            return handler(self, node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        return self.expr(node)

    def op_args(self, call: ast.Call, names: list[str], required: int, what: str) -> dict[str, ast.expr]:
        """Bind positional and keyword arguments of a DSL op by name."""
        if len(call.args) > len(names):
            raise self.error(f"pl.{what} takes at most {len(names)} positional argument(s)", call)
        bound = dict(zip(names, call.args))
        for kw in call.keywords:
            if kw.arg not in names:
                raise self.error(f"pl.{what} has no keyword argument '{kw.arg}'", kw.value)
            if kw.arg in bound:
                raise self.error(f"pl.{what} got '{kw.arg}' twice", kw.value)
            bound[kw.arg] = kw.value
        missing = [n for n in names[:required] if n not in bound]
        if missing:
            raise self.error(f"pl.{what} is missing argument '{missing[0]}'", call)
        return bound

    def tensor_operand(self, node: ast.expr, what: str) -> tuple[Any, Any]:
        expr, ty = self.expr(node)
        if ty._production != "TensorType" or expr._production != "Var":
            raise self.error(f"pl.{what} needs a tensor variable, got {quoted(ast.unparse(node))}", node)
        return expr, ty

    def index_list(self, node: ast.expr, what: str, shape: bool = False) -> list[Any]:
        if not isinstance(node, (ast.List, ast.Tuple)):
            example = "a shape must be a list, like [16, 16]" if shape else "indices must be a list, like [i, j]"
            raise self.error(f"pl.{what}: {example}", node)
        out = []
        for elt in node.elts:
            expr, ty = self.expr(elt)
            if ty._production != "ScalarType" or not ty.dtype.is_int:
                raise self.error(f"{'a dimension' if shape else 'an index'} must be an integer, got {type_text(ty)}", elt)
            out.append(expr)
        return out

    def shape_list(self, node: ast.expr, what: str) -> list[Any]:
        if isinstance(node, ast.Name) and self.lookup(node.id) is None and isinstance(
            self.src.closure_get(node.id, node), (list, tuple)
        ):
            dims = [self.types.dim_value(v, node) for v in self.src.closure[node.id]]
        else:
            dims = self.index_list(node, what, shape=True)
            for dim, elt in zip(dims, node.elts):
                if dim._production == "Int":
                    check_extent(self, dim.value, elt)
        if not 1 <= len(dims) <= MAX_TENSOR_DIMS:
            raise self.error(f"a tensor has 1 to {MAX_TENSOR_DIMS} dimensions, got {len(dims)}", node)
        return dims

    def op_create_tensor(self, call: ast.Call) -> tuple[Any, Any]:
        what = "create_tensor"
        a = self.op_args(call, ["shape", "dtype", "layout", "manual_dep", "init_value"], 2, what)
        shape = self.shape_list(a["shape"], what)
        dtype = self.types.dtype(a["dtype"])
        if dtype.runtime is None:
            raise self.error(f"the runtime has no tensor dtype for {dtype.name}", a["dtype"])
        manual_dep = False
        if "manual_dep" in a:
            manual_dep = self.program._bool_literal(a["manual_dep"], "manual_dep")
        init = None
        if "init_value" in a and not (isinstance(a["init_value"], ast.Constant) and a["init_value"].value is None):
            init = self.init_value(a["init_value"], dtype)
        return L.CreateTensor.make(shape, dtype, manual_dep, init), L.TensorType.make(shape, dtype)

    def init_value(self, node: ast.expr, dtype: DType) -> Any:
        value = constant_value(self.program, node)
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.error(f"init_value must be finite, got {value}", node)
        if value == 0:
            return L.Int(0, DType.INDEX)
        if dtype in (DType.FP16, DType.BF16):
            raise self.error(
                f"a non-zero init_value is not supported for {dtype.name} (a sub-32-bit float); "
                "only init_value=0 is",
                node,
                hint="use a 32-bit dtype or init_value=0",
            )
        if dtype.is_float:
            return L.Float(float(value), dtype)
        if isinstance(value, float) and not value.is_integer():
            raise self.error(
                f"init_value {value} is not an integer but the tensor dtype is {dtype.name}", node
            )
        ivalue = int(value)
        if abs(ivalue) > 2**53:
            raise self.error(f"init_value {ivalue} exceeds the exactly-representable integer range (+/-2^53)", node)
        if not _fits(ivalue, dtype):
            raise self.error(f"init_value {ivalue} does not fit in {dtype.name}", node)
        return L.Int(ivalue, dtype)

    def op_read(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["tensor", "indices"], 2, "tensor.read")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.read")
        index = self.index_list(a["indices"], "tensor.read")
        if len(index) != len(ty.shape):
            raise self.error(
                f"pl.tensor.read of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices, got {len(index)}",
                a["indices"],
            )
        if ty.dtype.c_type is None:
            raise self.error(f"elements of a {ty.dtype.name} tensor cannot be read on the host", call)
        return L.ReadTensor(tensor, index), SCALAR_T[ty.dtype]

    def op_slice(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["tensor", "shape", "offset"], 3, "tensor.slice")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.slice")
        shape = self.shape_list(a["shape"], "tensor.slice")
        offset = self.index_list(a["offset"], "tensor.slice")
        if len(shape) != len(ty.shape) or len(offset) != len(ty.shape):
            raise self.error(
                f"pl.tensor.slice of a rank-{len(ty.shape)} tensor needs a shape and an offset of rank {len(ty.shape)}",
                call,
            )
        for dim, off, full, node in zip(shape, offset, ty.shape, a["shape"].elts if isinstance(a["shape"], (ast.List, ast.Tuple)) else [call] * len(shape)):
            if all(x._production == "Int" for x in (dim, off, full)) and off.value + dim.value > full.value:
                raise self.error(
                    f"the slice [{off.value}, {off.value + dim.value}) is outside the dimension of extent {full.value}",
                    node,
                )
        return L.SliceTensor.make(tensor, shape, offset, False), L.TensorType.make(shape, ty.dtype)

    def op_transpose(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["tensor", "axis1", "axis2"], 3, "tensor.transpose")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.transpose")
        rank = len(ty.shape)
        axes = []
        for key in ("axis1", "axis2"):
            axis = self.types.const_int(a[key])
            if axis < 0:
                axis += rank
            if not 0 <= axis < rank:
                raise self.error(f"pl.tensor.transpose {key} is out of range for a rank-{rank} tensor", a[key])
            axes.append(axis)
        if axes[0] == axes[1]:
            raise self.error("pl.tensor.transpose needs two different axes", call)
        shape = list(ty.shape)
        shape[axes[0]], shape[axes[1]] = shape[axes[1]], shape[axes[0]]
        return L.TransposeTensor(tensor, axes[0], axes[1], False), L.TensorType(shape, ty.dtype)

    def op_reshape(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["tensor", "shape"], 2, "tensor.reshape")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.reshape")
        shape = self.shape_list(a["shape"], "tensor.reshape")
        old, new = _static_numel(ty.shape), _static_numel(shape)
        if old is not None and new is not None and old != new:
            raise self.error(f"pl.tensor.reshape cannot change the element count ({old} to {new})", a["shape"])
        return L.ReshapeTensor(tensor, shape, False), L.TensorType(shape, ty.dtype)

    def op_dim(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["tensor", "axis"], 2, "tensor.dim")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.dim")
        axis = self.types.const_int(a["axis"])
        rank = len(ty.shape)
        if axis < 0:
            axis += rank
        if not 0 <= axis < rank:
            raise self.error(f"pl.tensor.dim axis is out of range for a rank-{rank} tensor", a["axis"])
        dim = ty.shape[axis]
        int64 = SCALAR_T[DType.INT64]
        if dim._production == "Int":
            return L.Int(dim.value, DType.INT64), int64
        if dim._production == "Var" and self.lookup(dim.name) is not None and self.lookup(dim.name).kind == "dyn":
            return L.Var(dim.name), int64
        return L.DimTensor(tensor, axis), int64

    def op_assemble(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["target", "source", "offset"], 3, "assemble")
        target, tty = self.tensor_operand(a["target"], "assemble")
        source, sty = self.tensor_operand(a["source"], "assemble")
        offset = self.index_list(a["offset"], "assemble")
        if len(offset) != len(tty.shape) or len(sty.shape) != len(tty.shape):
            raise self.error("pl.assemble needs a source and an offset of the target's rank", call)
        if sty.dtype != tty.dtype:
            raise self.error("pl.assemble needs a source of the target's dtype", a["source"])
        return L.AssembleTensor(target, source, offset), tty

    def op_array_create(self, call: ast.Call) -> tuple[Any, Any]:
        a = self.op_args(call, ["size", "dtype"], 2, "array.create")
        if isinstance(a["size"], ast.Name) and (binding := self.lookup(a["size"].id)) is not None:
            raise self.error(f"an array size must be a constant, but '{a['size'].id}' is a {type_text(binding.type)} "
                             "variable", a["size"])
        size = self.types.const_int(a["size"])
        if not 0 < size <= MAX_ARRAY_SIZE:
            raise self.error(f"an array size must be a constant from 1 to {MAX_ARRAY_SIZE}, got {size}", a["size"])
        dtype = self.types.dtype(a["dtype"])
        if dtype.c_type is None:
            raise self.error(f"an array of {dtype.name} has no host C++ type", a["dtype"])
        return L.CreateArray(size, dtype), L.ArrayType(size, dtype)

    def op_task_invalid(self, call: ast.Call) -> tuple[Any, Any]:
        if call.args or call.keywords:
            raise self.error("pl.system.task_invalid() takes no arguments", call)
        return L.NoTask(), TID_T

    def subscript(self, node: ast.Subscript) -> tuple[Any, Any]:
        base, ty = self.expr(node.value)
        if ty._production == "ArrayType":
            index, ity = self.expr(node.slice)
            if ity._production != "ScalarType" or not ity.dtype.is_int:
                raise self.error("an array index must be an integer", node.slice)
            return L.GetItem(base, index), SCALAR_T[ty.dtype]
        if ty._production == "TensorType":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if any(isinstance(e, ast.Slice) for e in elts):
                raise self.error("slice subscripts of tensors are not supported; use pl.tensor.slice", node)
            fake = ast.List(elts=elts, ctx=ast.Load())
            ast.copy_location(fake, node.slice)
            index = self.index_list(fake, "tensor.read")
            if len(index) != len(ty.shape):
                raise self.error(
                    f"reading an element of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices", node
                )
            if base._production != "Var":
                raise self.error("only a tensor variable can be subscripted", node.value)
            return L.ReadTensor(base, index), SCALAR_T[ty.dtype]
        raise self.error(f"a {type_text(ty)} cannot be subscripted", node)

    def array_write(self, target: ast.Subscript, value: ast.expr, stmt: ast.stmt) -> Any:
        if not isinstance(target.value, ast.Name):
            raise self.error("only an array variable can be assigned by index", target.value)
        arr, aty = self.expr(target.value)
        if aty._production == "TensorType":
            raise self.error(
                "element writes 't[i, j] = v' are not supported for tensors; use pl.tensor.write(t, [i, j], v)",
                target,
            )
        if aty._production != "ArrayType":
            raise self.error(f"a {type_text(aty)} cannot be assigned by index", target)
        if isinstance(target.slice, ast.Tuple):
            raise self.error("an array subscript-write takes a single index", target.slice)
        index, ity = self.expr(target.slice)
        if ity._production != "ScalarType" or not ity.dtype.is_int:
            raise self.error("an array index must be an integer", target.slice)
        val, vty = self.expr(value)
        if vty._production != "ScalarType" or (vty.dtype is DType.TASK_ID) != (aty.dtype is DType.TASK_ID):
            raise self.error(f"cannot store a {type_text(vty)} in a {type_text(aty)}", value)
        if val._production == "Int":
            val = L.Int(val.value, aty.dtype)
        binder = self.bind(target.value.id, aty, target.value)
        return L.Let(binder, L.SetItem(arr, index, val), span=self.span(stmt))

    def tensor_write(self, call: ast.Call) -> Any:
        a = self.op_args(call, ["tensor", "indices", "value"], 3, "tensor.write")
        tensor, ty = self.tensor_operand(a["tensor"], "tensor.write")
        index = self.index_list(a["indices"], "tensor.write")
        if len(index) != len(ty.shape):
            raise self.error(
                f"pl.tensor.write of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices, got {len(index)}",
                a["indices"],
            )
        value, vty = self.expr(a["value"])
        if vty._production != "ScalarType" or vty.dtype is DType.TASK_ID:
            raise self.error("pl.tensor.write stores a scalar", a["value"])
        if ty.dtype.c_type is None:
            raise self.error(f"elements of a {ty.dtype.name} tensor cannot be written on the host", call)
        if value._production in ("Int", "Float"):
            if ty.dtype.is_float:
                value = L.Float(float(value.value), ty.dtype)
            elif value._production == "Float":
                raise self.error(f"cannot write a float into a {ty.dtype.name} tensor", a["value"])
            else:
                value = L.Int(value.value, ty.dtype)
        elif vty.dtype.is_float != ty.dtype.is_float:
            raise self.error(f"cannot write a {vty.dtype.name} value into a {ty.dtype.name} tensor", a["value"])
        return L.WriteTensor(tensor, index, value, span=self.span(call))

    # -- scalar expressions ------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> tuple[Any, Any]:
        """An expression's IR and type; one nested more than MAX_EXPR_DEPTH is refused first.

        The depth is counted while the expression is read rather than by a walk of its own: each
        node is read at its ``expr_depth`` level (``descend``), and a node past the limit stops the
        reading (there, and at a name's context in ``_expr``), so the reader never recurses deeper
        than the limit. When the reading stops on another error, the depth of the whole expression
        is measured: if it is too deep, that error is the one reported.
        """
        if self.expr_level:  # a sub-expression of the one being read
            return self._expr(node)
        self.expr_root, self.expr_level = node, 1
        try:
            return self._expr(node)
        except UserError:
            check_expr_depth(self.program, node)
            raise
        finally:
            self.expr_root, self.expr_level = None, 0

    def descend(self, levels: int) -> None:
        """Read the next sub-expressions, ``levels`` deeper (``expr_level`` goes back up after)."""
        self.expr_level += levels
        if self.expr_level > MAX_EXPR_DEPTH:
            raise too_deep(self.program, self.expr_root)

    def scalar_expr(self, node: ast.expr) -> tuple[Any, Any]:
        expr, ty = self.expr(node)
        if ty._production != "ScalarType":
            raise self.error(f"expected a scalar, got a {type_text(ty)}", node)
        return expr, ty

    def scalar_operand(self, node: ast.expr) -> tuple[Any, Any]:
        """``scalar_expr`` for an operand of the expression being read (its level already set)."""
        expr, ty = self._expr(node)
        if ty._production != "ScalarType":
            raise self.error(f"expected a scalar, got a {type_text(ty)}", node)
        return expr, ty

    def _expr(self, node: ast.expr) -> tuple[Any, Any]:
        kind = type(node)  # (the usual kinds first, by class: ast.parse makes no subclasses)
        if kind is ast.Name:
            if self.expr_level >= MAX_EXPR_DEPTH:  # its child, the context (ast.Load), is one deeper
                raise too_deep(self.program, self.expr_root)
            return self.name(node)
        if kind is ast.BinOp:
            return self.binop(node)
        if kind is ast.Constant:
            return self.constant(node.value, node)
        if isinstance(node, ast.UnaryOp):
            return self.unop(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Subscript):
            raise self.error(
                "subscripts are allowed only as a whole right-hand side (x = t[i, j]); assign them to a name first",
                node,
            )
        if isinstance(node, ast.Call):
            op = _dsl_call(node)
            if op in _RHS_OPS or op == "submit" or _self_method(node.func):
                raise self.error(
                    "tasks and tensor operations must be assigned to a name, not used inside an expression", node
                )
            raise self.error(f"unsupported function call {quoted(_short_source(node))}", node)
        if isinstance(node, ast.IfExp):
            raise self.error("conditional expressions (x if c else y) are not supported; use an if statement", node)
        raise self.error(f"unsupported expression {quoted(_short_source(node))}", node)

    def constant(self, value: Any, node: ast.expr) -> tuple[Any, Any]:
        if isinstance(value, bool):
            return L.Bool(value), BOOL_T
        if isinstance(value, int):
            if not -(2**63) <= value < 2**64:
                raise self.error(f"integer {value} does not fit in 64 bits", node)
            return L.Int.make(value, DType.INDEX), INDEX_T
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.error(f"a float constant must be finite, got {value}", node)
            return L.Float(value, DType.FP32), SCALAR_T[DType.FP32]
        if value is None:
            raise self.error("None is only allowed as a TaskId value (x = None, deps=[None])", node)
        raise self.error(f"{describe(value)} cannot be used as a value here", node)

    def name(self, node: ast.Name) -> tuple[Any, Any]:
        binding = self.lookup(node.id)
        if binding is not None:
            return L.Var.make(node.id, span=self.span(node)), binding.type
        if node.id in self.closed:
            raise self.error(
                f"'{node.id}' is not visible here: it was {self.closed[node.id]}",
                node,
                hint="assign it before the loop or in both branches so that it is carried out",
            )
        if node.id in self.src.closure:
            return self.closure_value(self.src.closure_get(node.id, node), node)
        raise self.error(f"undefined variable '{node.id}'", node)

    def closure_value(self, value: Any, node: ast.expr) -> tuple[Any, Any]:
        from nanopass.dsl import DynamicDim

        if isinstance(value, bool):
            return L.Bool(value), BOOL_T
        if isinstance(value, (int, float)):
            return self.constant(value, node)
        if isinstance(value, DynamicDim):
            binding = self.lookup(value.name)
            if binding is not None and binding.kind == "dyn":
                return L.Var(value.name), binding.type
            raise self.error(
                f"dynamic dimension '{value.name}' is not the extent of any tensor parameter", node
            )
        raise self.error(
            f"'{node.id}' is {describe(value)}; only int, float and bool values can be used here", node
        )

    def binop(self, node: ast.BinOp) -> tuple[Any, Any]:
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.error(f"unsupported operator '{_OP_TEXT.get(type(node.op), type(node.op).__name__)}'", node)
        self.expr_level += 1  # self.descend(1) and self.scalar_operand, inlined: most expressions are these
        if self.expr_level > MAX_EXPR_DEPTH:
            raise too_deep(self.program, self.expr_root)
        a, aty = self._expr(node.left)
        if aty._production != "ScalarType":
            raise self.error(f"expected a scalar, got a {type_text(aty)}", node.left)
        b, bty = self._expr(node.right)
        if bty._production != "ScalarType":
            raise self.error(f"expected a scalar, got a {type_text(bty)}", node.right)
        self.expr_level -= 1
        da, db = aty.dtype, bty.dtype
        if da in _NOT_NUMBERS or db in _NOT_NUMBERS:
            bad = aty if da in _NOT_NUMBERS else bty
            raise self.error(f"arithmetic needs numbers, got a {type_text(bad)}", node)
        if da is not db and da.is_float != db.is_float:
            raise self.error(
                f"cannot mix {da.name} and {db.name} in arithmetic (int and float)", node,
                hint=_INT_FLOAT_HINT,
            )
        if op is BinOp.div and da.is_int:
            raise self.error("'/' on integers is ambiguous; use '//' for integer division", node)
        if op in _INTEGER_OPS and da.is_float:
            raise self.error(f"'{op.value}' needs integers", node)
        mixed = unsigned_mix(a, da, b, db) if da is not db and op not in _SHIFTS else None
        if mixed:  # the unsigned type C++ computes in
            dtype, ty = mixed, SCALAR_T[mixed]
        else:  # an INDEX operand (an integer literal) takes the other one's type
            dtype, ty = (db, bty) if da is DType.INDEX else (da, aty)
        if a._production == "Int" and b._production == "Int" and op in _C_FOLD:
            try:
                return L.Int(_C_FOLD[op](a.value, b.value), dtype), ty
            except (ZeroDivisionError, ValueError):
                raise self.error("division by zero in a constant expression", node) from None
        return L.Bin.make(op, a, b), ty

    def unop(self, node: ast.UnaryOp) -> tuple[Any, Any]:
        self.descend(1)
        a, ty = self.scalar_operand(node.operand)
        self.expr_level -= 1
        if isinstance(node.op, ast.USub):
            if a._production in ("Int", "Float"):
                return a.replace(value=-a.value), ty
            if ty.dtype is DType.BOOL or ty.dtype is DType.TASK_ID:
                raise self.error("unary minus needs a number", node)
            return L.Un(UnOp.neg, a), ty
        if isinstance(node.op, ast.Not):
            if ty != BOOL_T:
                raise self.error("'not' needs a bool (a comparison)", node)
            return L.Un(UnOp.not_, a), BOOL_T
        if isinstance(node.op, ast.Invert):
            if not ty.dtype.is_int:
                raise self.error("'~' needs an integer", node)
            return L.Un(UnOp.invert, a), ty
        if isinstance(node.op, ast.UAdd):
            return a, ty
        raise self.error("unsupported unary operator", node)

    def compare(self, node: ast.Compare) -> tuple[Any, Any]:
        if len(node.ops) != 1:
            raise self.error("chained comparisons are not supported; use 'and'", node)
        op = _CMPOPS.get(type(node.ops[0]))
        if op is None:
            raise self.error(f"unsupported comparison '{type(node.ops[0]).__name__}'", node)
        self.descend(1)
        a, aty = self.scalar_operand(node.left)
        b, bty = self.scalar_operand(node.comparators[0])
        self.expr_level -= 1
        if DType.TASK_ID in (aty.dtype, bty.dtype):
            raise self.error("TaskIds cannot be compared", node)
        if aty.dtype.is_float != bty.dtype.is_float:
            raise self.error(f"cannot compare {aty.dtype.name} with {bty.dtype.name}", node, hint=_INT_FLOAT_HINT)
        unsigned = unsigned_mix(a, aty.dtype, b, bty.dtype)
        if unsigned is not None:
            left, right = (str(e.value) if e._production == "Int" else t.dtype.name for e, t in ((a, aty), (b, bty)))
            raise self.error(
                f"cannot compare {left} with {right}: C++ compares them as {unsigned.c_type}, where a "
                "negative value is a huge one", node, hint="give both sides the same signedness",
            )
        if a == b and not aty.dtype.is_float:
            # an integer compared with itself has a known result (and C++ warns about it)
            return L.Bool(op in (CmpOp.eq, CmpOp.le, CmpOp.ge)), BOOL_T
        return L.Cmp.make(op, a, b), BOOL_T

    def boolop(self, node: ast.BoolOp) -> tuple[Any, Any]:
        op = BinOp.and_ if isinstance(node.op, ast.And) else BinOp.or_
        exprs = []
        self.descend(len(node.values) - 1)  # the chain becomes that many nested Bins
        for value in node.values:
            expr, ty = self.scalar_operand(value)
            if ty != BOOL_T:
                raise self.error(f"'{op.value}' needs bools (comparisons)", value)
            exprs.append(expr)
        self.expr_level -= len(node.values) - 1
        result = exprs[0]
        for expr in exprs[1:]:
            result = L.Bin(op, result, expr)
        return result, BOOL_T


# The reader of each statement class: stmt_Assign reads ast.Assign, and so on.
_STATEMENTS = {
    getattr(ast, name.removeprefix("stmt_")): method
    for name, method in vars(_FunctionParser).items()
    if name.startswith("stmt_")
}
_SCALAR_CALLS: set[str] = set()
_RHS_OPS = {
    "create_tensor": _FunctionParser.op_create_tensor,
    "tensor.create": _FunctionParser.op_create_tensor,
    "tensor.read": _FunctionParser.op_read,
    "tensor.slice": _FunctionParser.op_slice,
    "tensor.transpose": _FunctionParser.op_transpose,
    "tensor.reshape": _FunctionParser.op_reshape,
    "tensor.dim": _FunctionParser.op_dim,
    "assemble": _FunctionParser.op_assemble,
    "tensor.assemble": _FunctionParser.op_assemble,
    "array.create": _FunctionParser.op_array_create,
    "system.task_invalid": _FunctionParser.op_task_invalid,
}

_OP_TEXT = {ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.MatMult: "@"}


def _is_yield_assign(stmt: ast.stmt) -> bool:
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
    return value is not None and _dsl_call(value) == "yield_"


def _ends_with_return(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return)


def _unsupported_statement(stmt: ast.stmt) -> str:
    name = type(stmt).__name__
    special = {
        "While": "while loops are not supported; use pl.range",
        "Break": "'break' is not supported in orchestration loops",
        "Continue": "'continue' is not supported in orchestration loops",
        "Try": "try statements are not supported",
        "Import": "import statements are not allowed in an orchestration function",
        "ImportFrom": "import statements are not allowed in an orchestration function",
        "FunctionDef": "nested function definitions are not supported",
        "ClassDef": "nested classes are not supported",
        "Delete": "del is not supported",
        "Assert": "assert is not supported in orchestration functions",
        "Raise": "raise is not supported in orchestration functions",
        "Global": "global is not supported",
        "Nonlocal": "nonlocal is not supported",
        "Match": "match statements are not supported",
        "AsyncFunctionDef": "nested function definitions are not supported",
        "AsyncFor": "async for is not supported; use pl.range",
        "AsyncWith": "async with is not supported",
    }
    return special.get(name, f"unsupported statement: {quoted(_short_source(stmt).splitlines()[0])}")


def _short_source(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _signature_hint(sig: KernelSig) -> str:
    params = ", ".join(f"{p.name}: {p.dir.name}" for p in sig.params)
    return f"{sig.name}({params})"


def _shapes_match(declared: tuple, actual: tuple) -> bool:
    if len(declared) != len(actual):
        return False
    for d, a in zip(declared, actual):
        if d._production == "Int" and a._production == "Int" and d.value != a.value:
            return False
    return True


def compatible(a: Any, b: Any) -> bool:
    """Two types a variable may hold interchangeably (dynamic dims match anything)."""
    if a._production != b._production:
        return False
    if a._production == "ScalarType":
        return a.dtype == b.dtype or (DType.INDEX in (a.dtype, b.dtype) and a.dtype.is_int and b.dtype.is_int)
    if a._production == "ArrayType":
        return a == b
    return a.dtype == b.dtype and _shapes_match(a.shape, b.shape)


def _static_numel(shape: tuple) -> int | None:
    total = 1
    for d in shape:
        if d._production != "Int":
            return None
        total *= d.value
    return total


def _fits(value: int, dtype: DType) -> bool:
    bits = dtype.bits
    if dtype is DType.BOOL:
        return value in (0, 1)
    if dtype.is_signed:
        return -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)
    return 0 <= value < 2**bits
