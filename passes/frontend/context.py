"""The reading of one orchestration function into the ``surface`` language: ``FunctionContext``.

The context holds what the reading needs to know at each statement (the names in scope, how
deep blocks and manual scopes and parallel loops nest, the expression being read, the kernels
checked already) and offers the services every handler uses: ``error``, ``span``, ``block`` and
``stmt`` (a statement is read by its class's reader, ``registry.STATEMENTS``), ``enter`` and
``leave`` (a block), ``expr``, ``scalar_expr`` and ``rhs`` (a value), ``lookup``, ``define``,
``bind`` and the frames of ``Scope``. The readers themselves are in ``statements``, ``exprs`` and
the families of ``ops/``; importing this module imports them all.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import Span, UserError
from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from . import exprs, ops, statements
from .limits import MAX_ENTRY_SCALARS, MAX_ENTRY_TENSORS, MAX_NESTING
from .registry import STATEMENTS
from .scope import Scope, new_binding
from .statements import unsupported_statement
from .type_reader import SCALAR_T, TypeReader

if TYPE_CHECKING:
    from .program import ProgramParser

L = S.LANGUAGE
OPERATIONS = ops.registered_families()  # the readers of every DSL operation (statements' are registered as it is imported)


class FunctionContext(Scope):
    """The reading of one orchestration function: its scope (the base class: a handler binds with
    ``cx.bind``), its other state, and the services handlers call."""

    def __init__(self, program: ProgramParser, types: TypeReader, fdef: ast.FunctionDef, auto_scope: bool):
        self.program = program
        self.src = program.src
        self.types = types
        self.fdef = fdef
        self.auto_scope = auto_scope
        self.depth = 0
        self.manual_depth = 0
        self.parallel_depth = 0  # pl.parallel loops around the statement being read
        self.results: list[Any] = []
        self.expr_root: ast.expr | None = None  # the expression expr() is reading
        self.expr_level = 0  # the expr_depth level of the node being read in it (0: none is)
        self.dispatchable: set[str] = set()  # kernels kernel_sig has accepted (checked once each)
        self.hoisted: list[Any] | None = None  # statements a nested call put before the one being read
        self.temporaries = 0  # temporaries made for nested calls (ops/nested_calls.py)
        self.dump_tags: set[str] = set()  # tensors pl.dump_tag marked for every later task (ops/debug_tags.py)
        self.unrolled: dict[str, Any] = {}  # a pl.unroll variable -> its value in the copy being read
        self.unreachable = 0  # branches around the statement being read whose constant condition skips them
        self._names_read: frozenset[str] | None = None  # see names_read
        self.span: Callable[[ast.AST], Span] = self.src.span_reader()  # a node's position (called for most nodes built)
        # (what exprs.name builds a name's span from itself: a name has a position of its own, and in
        # a file of ASCII text its column is ast's)
        self.filename = self.src.filename
        self.ascii_columns = not self.src.wide_line_numbers()
        Scope.__init__(self, program, self.span)

    # -- services ----------------------------------------------------------------------------------

    def error(self, message: str, node: ast.AST, hint: str | None = None) -> UserError:
        return UserError(message, self.span(node), hint)

    def names_read(self) -> frozenset[str]:
        """Every name the function's text reads (an ``ast.Name`` loaded) anywhere in it: a name
        not in it is read by nothing, before or after, in any iteration."""
        if self._names_read is None:
            self._names_read = frozenset(
                node.id for node in ast.walk(self.fdef) if type(node) is ast.Name and type(node.ctx) is ast.Load
            )
        return self._names_read

    expr = exprs.expr  # an expression's IR and type
    scalar_expr = exprs.scalar_expr  # the same, refusing a tensor, an array or a tile
    rhs = statements.rhs  # the value of an assignment: a DSL operation's, a subscript's or an expression's

    # -- entry -----------------------------------------------------------------------------------

    def parse(self):
        """The ``Function`` node: parameters and the entry's limits, dynamic dimensions, the body."""
        fdef = self.fdef
        params = self.types.params(fdef, kernel=False)
        self.results = self.types.results(fdef)
        dyn_dims = []
        n_tensors = n_scalars = 0
        for param in params:
            self.set_binding(param.name, new_binding(param.type, "param", param.span))  # (the one frame)
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
                    self.set_binding(dim.name, new_binding(SCALAR_T[DType.INT64], "dyn", param.span))
                    dyn_dims.append(L.DynDim.make(dim.name, param.name, axis))
                elif dim._production == "Var" and self.frames[0][dim.name].kind != "dyn":
                    raise UserError(f"dynamic dimension '{dim.name}' has the name of a parameter", param.span)
        self.check_result_dims(fdef)
        body = self.block(fdef.body)
        if self.results and not _ends_with_return(fdef.body):
            raise self.error(
                f"'{fdef.name}' declares a return type but does not end with a return statement", fdef
            )
        return L.Function.make(
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

    # -- blocks and statements ---------------------------------------------------------------------

    def block(self, stmts: list[ast.stmt]) -> list[Any]:
        out: list[Any] = []
        first = stmts[0] if stmts else None
        readers = STATEMENTS
        # (self.stmt(stmt) per statement, inlined: a call less per statement; what a statement
        # hoists goes before it, and the block keeps the hoisted list of the statement reading it)
        outer, self.hoisted = self.hoisted, None
        try:
            for stmt in stmts:  # (no enumerate: the first is the one at index 0, an ast node is in one place)
                if (
                    stmt is first
                    and isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                ):
                    continue  # docstring
                method = readers.get(type(stmt))
                if method is None:
                    raise self.error(unsupported_statement(stmt), stmt)
                read = method(self, stmt)
                hoisted = self.hoisted
                if hoisted:
                    out += hoisted
                    self.hoisted = None
                out += read
        finally:
            self.hoisted = outer
        return out

    def stmt(self, stmt: ast.stmt) -> list[Any]:
        method = STATEMENTS.get(type(stmt))
        if method is None:
            raise self.error(unsupported_statement(stmt), stmt)
        outer, self.hoisted = self.hoisted, None
        try:
            out = method(self, stmt)
        finally:
            hoisted, self.hoisted = self.hoisted, outer
        return hoisted + out if hoisted else out

    def hoist(self, stmt: Any) -> None:
        """Put ``stmt`` before the statement being read (a nested call, flattened)."""
        if self.hoisted is None:
            self.hoisted = []
        self.hoisted.append(stmt)

    def enter(self, node: ast.AST) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            hint = "an elif nests in the else before it: a long if/elif chain counts one level per branch" if isinstance(
                node, ast.If) else None
            raise self.error(f"blocks are nested more than {MAX_NESTING} deep", node, hint=hint)

    def leave(self) -> None:
        self.depth -= 1


def _ends_with_return(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return)
