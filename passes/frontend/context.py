"""The orchestration function: its scope, its statements, the DSL calls in them, and its scalar
expressions, elaborated into the ``surface`` language.

Scoping follows what the generated C++ can express: a name first bound inside a loop body or in
only one branch of an ``if`` is not visible after it (assign it before, so that it becomes a
carry or a branch result); ``with`` blocks do not hide names."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import Span, UserError, quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from . import exprs, ops  # noqa: F401 - ops: importing it registers the DSL operations
from .ops.host_access import array_write, subscript
from .ops.submits import kernel_call
from .limits import MAX_ENTRY_SCALARS, MAX_ENTRY_TENSORS, MAX_NESTING
from .names import dsl_call, self_method
from .registry import (BINDING, CONTEXT, EXPRESSION, ITERATOR, OPS, STATEMENT, STATEMENTS,
                       TARGETS, VALUE, names_in, refusal, spelled_list, statement)
from .scope import Binding, Scope
from .source import short_source
from .type_reader import BOOL_T, SCALAR_T, TID_T, TypeReader, compatible, type_text

if TYPE_CHECKING:
    from .program import ProgramParser

L = S.LANGUAGE


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
        self.span: Callable[[ast.AST], Span] = self.src.span  # a node's position (called for most nodes built)
        Scope.__init__(self, program, self.span)

    # -- infrastructure --------------------------------------------------------------------------

    def error(self, message: str, node: ast.AST, hint: str | None = None) -> UserError:
        return UserError(message, self.span(node), hint)

    expr = exprs.expr  # an expression's IR and type
    scalar_expr = exprs.scalar_expr  # the same, refusing a tensor, an array or a tile

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
        method = STATEMENTS.get(type(stmt))
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
            method = self_method(value.func)
            if method is not None:
                return [kernel_call(self, value, None, stmt)]
            spelled = dsl_call(value)
            op = OPS.get(spelled) if spelled is not None else None
            if op is not None:
                form = op.forms.get(STATEMENT)
                if form is not None:
                    return [form.handler(self, value, op.bind(self, value, form))]
                if STATEMENT in op.misplaced:
                    raise refusal(self, spelled, op, STATEMENT, value)
        raise self.error(
            f"this expression has no effect as a statement: {quoted(short_source(stmt))}", stmt
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
            return [array_write(self, target, stmt.value, stmt)]
        if isinstance(target, (ast.Tuple, ast.List)):
            return self.assign(list(target.elts), stmt.value, stmt, None, tuple_target=True)
        return self.assign([target], stmt.value, stmt, None)

    def assign(
        self, targets: list[ast.expr], value: ast.expr, stmt: ast.stmt, annotated: Any, tuple_target: bool = False
    ) -> list[Any]:
        if isinstance(value, ast.Call) and self_method(value.func) is not None:
            return [kernel_call(self, value, targets if (tuple_target or targets) else None, stmt)]
        spelled = dsl_call(value)
        op = OPS.get(spelled) if spelled is not None else None
        if op is not None and TARGETS in op.forms:
            return op.forms[TARGETS].handler(self, value, targets, tuple_target, stmt)
        for target in targets:
            if not isinstance(target, ast.Name):
                raise self.error("the target of an assignment must be a variable name", target)
        if tuple_target:
            unpacked = spelled_list(names_in(TARGETS), "", "and")
            raise self.error(f"only kernel calls, {unpacked} can be unpacked into several names", stmt)
        name = targets[0].id
        if op is not None and BINDING in op.forms:
            return op.forms[BINDING].handler(self, value, targets[0], stmt)
        rhs, ty = self.value(value, spelled, op)
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
        spelled = dsl_call(call)
        op = OPS.get(spelled) if spelled is not None else None
        form = op.forms.get(ITERATOR) if op is not None else None
        if form is None:
            iterators = spelled_list(names_in(ITERATOR), "(...)", "or")
            raise self.error(f"a for loop must iterate over {iterators}", call)
        return form.handler(self, stmt, call)

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
            self.push()
            then = self.block(stmt.body)
            then_frame = self.pop()
            self.push()
            orelse = self.block(stmt.orelse)
            else_frame = self.pop()
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
        if item.optional_vars is not None:  # (a form that binds a name, as pl.at will, is to say so in the registry)
            raise self.error("'with ... as' is not supported for scopes", item.optional_vars)
        spelled = dsl_call(item.context_expr)
        op = OPS.get(spelled) if spelled is not None else None
        form = op.forms.get(CONTEXT) if op is not None else None
        if form is None:
            managers = spelled_list(names_in(CONTEXT), "()", "or")
            raise self.error(f"unsupported context manager: use {managers}", item.context_expr)
        return form.handler(self, stmt, item.context_expr)

    def enter(self, node: ast.AST) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            hint = "an elif nests in the else before it: a long if/elif chain counts one level per branch" if isinstance(
                node, ast.If) else None
            raise self.error(f"blocks are nested more than {MAX_NESTING} deep", node, hint=hint)

    def leave(self) -> None:
        self.depth -= 1

    # -- tasks ------------------------------------------------------------------------------------

    # -- right-hand sides --------------------------------------------------------------------------

    def rhs(self, node: ast.expr) -> tuple[Any, Any]:
        """The value of an assignment (its IR and type)."""
        spelled = dsl_call(node)
        return self.value(node, spelled, OPS.get(spelled) if spelled is not None else None)

    def value(self, node: ast.expr, spelled: str | None, op: Any) -> tuple[Any, Any]:
        """``rhs`` once the callee is known: ``pl.<spelled>``, ``op`` when it is registered."""
        if isinstance(node, ast.Constant) and node.value is None:
            return L.NoTask(), TID_T
        if spelled is not None:
            form = op.forms.get(VALUE) if op is not None else None
            if form is not None:
                return form.handler(self, node, op.bind(self, node, form))
            if op is None or EXPRESSION not in op.forms:
                raise refusal(self, spelled, op, VALUE, node)
        if isinstance(node, ast.Subscript):
            return subscript(self, node)
        return self.expr(node)

# The reader of each statement class: stmt_Assign reads ast.Assign, and so on.
for _name, _method in list(vars(FunctionContext).items()):
    if _name.startswith("stmt_"):
        statement(getattr(ast, _name.removeprefix("stmt_")))(_method)


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
    return special.get(name, f"unsupported statement: {quoted(short_source(stmt).splitlines()[0])}")


