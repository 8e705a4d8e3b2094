"""Types in annotations (``pl.Tensor[[16, 16], pl.FP32]`` ...) -> surface types; how messages spell
a type; which types a variable may hold interchangeably."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import DType, ParamDir

from .consteval import constant_value, describe
from .limits import MAX_ARRAY_SIZE, MAX_DIM, MAX_TENSOR_DIMS
from .names import attr_path, check_user_name

if TYPE_CHECKING:
    from .program import ProgramParser

L = S.LANGUAGE

MEMORY_SPACES = {"Vec", "Left", "Right", "Acc", "Mat"}
SCALAR_T = {dt: L.ScalarType.make(dt) for dt in DType}
INDEX_T = SCALAR_T[DType.INDEX]
BOOL_T = SCALAR_T[DType.BOOL]
TID_T = SCALAR_T[DType.TASK_ID]
# For the readers' inner loops: a DType property, and an Enum member read off its class, is a
# Python call each time; a set of members is looked up without one (Term hashes by identity).
INDEX, BOOL, TASK_ID = DType.INDEX, DType.BOOL, DType.TASK_ID
FLOAT_DTYPES = frozenset(d for d in DType if d.is_float)
INT_DTYPES = frozenset(d for d in DType if d.is_int)
_INT = L.Int
_DTYPE_NAMED = dict(DType.__members__)  # pl.<name> -> its dtype (DType[name] is a call of the metaclass)


def type_text(t: Any) -> str:
    """A type as the DSL spells it, for messages."""
    name = t._production
    if name == "SubmitTuple":
        return t.text()
    if name == "ScalarType":
        return f"pl.Scalar[pl.{t.dtype.name}]"
    if name == "ArrayType":
        return f"pl.Array[{t.size}, pl.{t.dtype.name}]"
    dims = ", ".join(_dim_text(d) for d in t.shape)
    kind = "Tensor" if name == "TensorType" else "Tile"
    return f"pl.{kind}[[{dims}], pl.{t.dtype.name}]"


def _dim_text(d: Any) -> str:
    """A dimension as the DSL spells it: a constant, a name, or host arithmetic over them (each
    operand of an operation that is itself one in parentheses); any other expression ``?``."""
    kind = d._production
    if kind == "Int":
        return str(d.value)
    if kind == "Var":
        return d.name
    if kind == "Bin":
        return f"{_operand_text(d.a)} {d.op.value} {_operand_text(d.b)}"
    if kind == "Un" and d.op.value in ("-", "~"):
        return f"{d.op.value}{_operand_text(d.a)}"
    return "?"


def _operand_text(d: Any) -> str:
    text = _dim_text(d)
    return f"({text})" if d._production in ("Bin", "Un") else text


class TypeReader:
    """Annotation ASTs -> surface types. Names resolve through the program's closure."""

    def __init__(self, program: ProgramParser):
        self.program = program
        self.closure = program.src.closure
        self.error = program.error
        # a tensor type -> the one object of that type the reader gives: equal annotations (a
        # kernel's parameter and the tensor passed to it) read as the same object, which
        # ``shapes_match`` and ``compatible`` answer by identity (types carry no span); a type of
        # constant extents is found by its extents and dtype (``constant_tensor_type``), without a node's hash
        self._tensor_types: dict[Any, Any] = {}
        self._constant_tensor_types: dict[tuple, Any] = {}
        # while an assignment's annotation is read: a dimension computed on the host, which the
        # printed IR annotates by the expression over the function's variables (``annotation``)
        self.local_dim: Callable[[ast.expr], Any] | None = None

    def annotation(self, cx: Any, node: ast.expr) -> tuple[Any, bool]:
        """An assignment's annotation read in ``cx`` (a function's reading, or a block of it outlined
        into a kernel), and whether it is exact: a dimension that names a variable visible in ``cx``,
        or an expression over dynamic dimensions, is read as ``cx`` reads an integer expression, as
        the value's shape holds it; the annotation must then be the value's type itself."""
        with _LocalDims(self, cx) as local:
            return self.value_type(node), local.used

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
            params.append(L.Param.make(arg.arg, ptype, direction, span=self.program.src.span(arg)))
        return params

    def results(self, fdef: ast.FunctionDef) -> list[Any]:
        node = fdef.returns
        if node is None or (isinstance(node, ast.Constant) and node.value is None):
            return []
        if isinstance(node, ast.Subscript) and attr_path(node.value) in (["tuple"], ["typing", "Tuple"]) or (
            isinstance(node, ast.Subscript) and (attr_path(node.value) or [""])[-1] == "Tuple"
        ):
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [self.value_type(e) for e in elts]
        return [self.value_type(node)]

    def param_type(self, node: ast.expr) -> tuple[ParamDir, Any]:
        if isinstance(node, ast.Subscript):
            head = (attr_path(node.value) or [""])[-1]
            if head in ("Out", "InOut"):
                return ParamDir[head], self.value_type(node.slice)
        return ParamDir.In, self.value_type(node)

    def value_type(self, node: ast.expr) -> Any:
        path = attr_path(node)
        if path and path[-1] == "TaskId":
            return TID_T
        if isinstance(node, ast.Subscript):
            head = (attr_path(node.value) or [""])[-1]
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
                    tensor = self.constant_tensor_type(shape, dtype)
                    if tensor is None:  # a dynamic extent: found by the node's value
                        tensor = L.TensorType.make(shape, dtype)
                        tensor = self._tensor_types.setdefault(tensor, tensor)
                    return tensor
                space = None
                for extra in items[2:]:
                    name = (attr_path(extra) or [""])[-1]
                    if name in MEMORY_SPACES:
                        space = name
                return L.TileType.make(shape, dtype, space)
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
                return L.ArrayType.make(size, self.dtype(items[1]))
            if head in ("Out", "InOut"):
                raise self.error(f"pl.{head}[...] is only allowed on a parameter", node)
        raise self.error(f"unsupported type annotation {quoted(ast.unparse(node))}", node)

    def constant_tensor_type(self, shape: list[Any], dtype: DType) -> Any | None:
        """The one ``TensorType`` object of ``shape`` and ``dtype`` when every extent is a constant
        (see ``_constant_tensor_types``): an annotation's, or a created tensor's; None otherwise."""
        extents = []
        for dim in shape:
            if type(dim) is not _INT or dim.dtype is not INDEX:
                return None
            extents.append(dim.value)
        key = (*extents, dtype)
        tensor = self._constant_tensor_types.get(key)
        if tensor is None:
            tensor = self._constant_tensor_types[key] = L.TensorType.make(shape, dtype)
        return tensor

    def shape(self, node: ast.expr) -> list[Any]:
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.dim(e) for e in node.elts]
        if isinstance(node, ast.Name) and isinstance(self.program.src.closure_get(node.id, node), (list, tuple)):
            return [self.dim_value(v, node) for v in self.closure[node.id]]
        raise self.error("a shape must be a list of dimensions, like [16, 16]", node)

    def dim(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Call) and (attr_path(node.func) or [""])[-1] == "dynamic":
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or not isinstance(
                node.args[0].value, str
            ):
                raise self.error('pl.dynamic takes one name: pl.dynamic("M")', node)
            name = node.args[0].value
            check_user_name(self.program, name, node)
            return L.Var.make(name)
        if isinstance(node, ast.Name) and node.id in self.closure:
            return self.dim_value(self.program.src.closure_get(node.id, node), node)
        if self.local_dim is not None and (computed := self.local_dim(node)) is not None:
            return computed
        return self.dim_value(self.const_int(node), node)

    def dim_value(self, value: Any, node: ast.expr) -> Any:
        from nanopass.dsl import DynamicDim

        if isinstance(value, DynamicDim):
            return L.Var.make(value.name)
        if isinstance(value, int) and not isinstance(value, bool):
            check_extent(self.program, value, node)
            return L.Int.make(value, DType.INDEX)
        raise self.error(f"a dimension must be an int or pl.dynamic(...), got {describe(value)}", node)

    def const_int(self, node: ast.expr) -> int:
        value = constant_value(self.program, node)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"expected an integer constant, got {quoted(ast.unparse(node))}", node)
        return value

    def dtype(self, node: ast.expr) -> DType:
        if type(node) is ast.Attribute and type(node.value) is ast.Name:  # pl.FP32, the usual spelling
            named = _DTYPE_NAMED.get(node.attr)
            if named is not None:
                return named
        path = attr_path(node)
        if path:
            named = _DTYPE_NAMED.get(path[-1])
            if named is not None:
                return named
            if len(path) == 1 and isinstance(self.program.src.closure_get(path[0], node), DType):
                return self.closure[path[0]]
        names = " ".join(DType.__members__)
        raise self.error(f"unknown dtype {quoted(ast.unparse(node))}", node, hint=f"dtypes: {names}")


def check_extent(owner: Any, value: int, node: ast.AST) -> None:
    """A constant tensor extent: positive, and within the runtime's uint32_t shapes."""
    if value <= 0:
        raise owner.error(f"a dimension must be positive, got {value}", node)
    if value >= MAX_DIM:
        raise owner.error(f"a dimension must be below 2**32 (the runtime's extents are uint32_t), got {value}", node)


def shapes_match(declared: tuple, actual: tuple) -> bool:
    if declared is actual:
        return True
    if len(declared) != len(actual):
        return False
    for d, a in zip(declared, actual):
        if d._production == "Int" and a._production == "Int" and d.value != a.value:
            return False
    return True


def compatible(a: Any, b: Any) -> bool:
    """Two types a variable may hold interchangeably (dynamic dims match anything)."""
    if a is b:
        return True
    if a._production != b._production:
        return False
    if a._production == "SubmitTuple":  # (ops.submit_tuples: a name bound to a whole submit tuple)
        return a == b
    if a._production == "ScalarType":
        return a.dtype == b.dtype or (DType.INDEX in (a.dtype, b.dtype) and a.dtype.is_int and b.dtype.is_int)
    if a._production == "ArrayType":
        return a == b
    return a.dtype == b.dtype and shapes_match(a.shape, b.shape)


def check_annotation(cx: Any, annotated: Any, inferred: Any, stmt: ast.stmt, name: str,
                     exact: bool = False) -> Any:
    """The type of ``name``, annotated ``annotated`` (``TypeReader.annotation``; ``exact``: it must
    be ``inferred`` itself) and assigned a value of type ``inferred``, in ``cx`` (a function's
    reading); a user error at ``stmt`` when the value cannot have that type."""
    if annotated._production != inferred._production:
        raise cx.error(
            f"type annotation of '{name}' is {type_text(annotated)} but the value is {type_text(inferred)}", stmt
        )
    if annotated._production == "ScalarType":
        a, b = annotated.dtype, inferred.dtype
        if a == b or (b is DType.INDEX and a.is_int):
            return annotated
        if cx.src.printed and a is DType.INDEX and b.is_int:  # the printed IR's index-typed variables
            return annotated
        raise cx.error(f"type annotation of '{name}' has dtype {a.name} but the value has {b.name}", stmt)
    if not (annotated == inferred if exact else compatible(annotated, inferred)):
        raise cx.error(
            f"type annotation of '{name}' is {type_text(annotated)} but the value is {type_text(inferred)}", stmt
        )
    return annotated


class _LocalDims:
    def __init__(self, reader: TypeReader, cx: Any):
        self.reader, self.cx, self.used = reader, cx, False

    def read(self, node: ast.expr) -> Any:
        """The dimension ``node`` computes from the function's variables or, in an expression,
        from dynamic dimensions; None when it names none of them (or is no integer)."""
        if not any(type(n) is ast.Name and self.computes(n.id, node) for n in ast.walk(node)):
            return None
        expr, ty = self.cx.scalar_expr(node)
        if ty._production != "ScalarType" or not ty.dtype.is_int:
            return None
        self.used = True
        return expr

    def computes(self, name: str, node: ast.expr) -> bool:
        if name not in self.reader.closure:
            return self.cx.lookup(name) is not None
        from nanopass.dsl import DynamicDim

        return type(node) is not ast.Name and isinstance(self.reader.closure[name], DynamicDim)

    def __enter__(self) -> "_LocalDims":
        self.reader.local_dim = self.read
        return self

    def __exit__(self, *exc) -> None:
        self.reader.local_dim = None
