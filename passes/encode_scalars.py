"""encode_scalars: dimmed -> encoded."""

from __future__ import annotations

from nanopass.languages import DIMMED, ENCODED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.named import check_name_map
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_yields
from nanopass.languages.statements import DEFINING, defined_binders, iter_stmts
from nanopass.languages.terms import DType
from nanopass.rewrite import Pass, register

from .types import float_scalar_names

E = ENCODED
FLOAT_DTYPES = frozenset(d for d in DType if d.is_float)
SCALAR_TYPE = DIMMED.ScalarType
TASK, FOR, YIELD, SCOPE = DIMMED.Task, DIMMED.For, DIMMED.Yield, DIMMED.Scope
VAR_STMTS = frozenset({DIMMED.Let, DIMMED.Dummy, DIMMED.Declare})  # (the statements that define their one ``var``)


@register
class EncodeScalars(Pass):
    """Name the float scalars, which decide how each scalar argument is encoded (D4).

    ``float_scalars`` lists, sorted, the names whose last binding (a parameter first, then each
    Binder in program order) is a float scalar (``float_scalar_names``): a scalar argument a float
    reaches is encoded ``to_u64`` (a bit copy), any other ``cast_u64``, after the tensors. The
    body is the input's, every statement of it the same node.

    Preserves every invariant of the body (``preserves``): the yields, the scope placement (the
    record hook's contract: the same statements, ``auto_scope`` kept), the carry plans, the
    dependency capacities, the allocation sizes and the name map.
    """

    name = "encode_scalars"
    source = DIMMED
    target = ENCODED
    preserves = frozenset({check_yields, check_scope_placement, check_plans, check_capacity, check_alloc_size, check_name_map})

    def Program(self, program):
        return E.Program(program.name, program.kernels, self.visit(program.orch), span=program.span)

    def Function(self, func):
        floats = float_scalar_names(func) if binds_a_float_scalar(func) else None
        # (unchecked: every field is the input's, of the same kind, but ``float_scalars``, names of its binders)
        return E.Function.make_trusted(
            func.name, func.params, func.results, func.auto_scope, func.dyn_defs, func.slots, func.arg_count, func.tids,
            func.renamed, func.identifiers, func.scalars_renamed, sorted(floats) if floats else (), func.body, span=func.span,
        )


def binds_a_float_scalar(func) -> bool:
    """``types.binds_a_float_scalar(func)`` for this pass's input, by node class: whether a
    parameter or a Binder of the body has a float scalar type (tested against it on every
    example, golden, shape and random program)."""
    floats, scalar_type = FLOAT_DTYPES, SCALAR_TYPE
    for param in func.params:
        ty = param.type
        if type(ty) is scalar_type and ty.dtype in floats:
            return True
    task, for_, yield_, scope, var_stmts = TASK, FOR, YIELD, SCOPE, VAR_STMTS
    for stmt in iter_stmts(func.body):
        kind = type(stmt)
        if kind is task:  # (its outs are Binders in this language)
            for out in stmt.outs:
                ty = out.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
            tid = stmt.tid
            if tid is not None:
                ty = tid.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
        elif kind is yield_ or kind is scope:
            continue
        elif kind is for_:
            ty = stmt.var.type
            if type(ty) is scalar_type and ty.dtype in floats:
                return True
            for it in stmt.iters:
                ty = it.var.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
            for result in stmt.results:
                ty = result.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
        elif kind in var_stmts:
            ty = stmt.var.type
            if type(ty) is scalar_type and ty.dtype in floats:
                return True
        elif stmt._production in DEFINING:
            for binder in defined_binders(stmt):
                ty = binder.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
    return False
