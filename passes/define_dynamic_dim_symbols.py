"""define_dynamic_dim_symbols: named -> dimmed."""

from __future__ import annotations

from nanopass.language import iter_children
from nanopass.languages import DIMMED, NAMED
from nanopass.rewrite import Pass, register

M = DIMMED
TYPES = {"TensorType", "ScalarType", "ArrayType", "TileType"}


def used_names(stmts) -> set[str]:
    """Names read by the statements' expressions (types, which are never printed, excluded)."""
    names: set[str] = set()
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if node._production in TYPES:
            continue
        if node._production == "Var":
            names.add(node.name)
        stack.extend(iter_children(node))
    return names


@register
class DefineDynamicDimSymbols(Pass):
    """Define, once at entry, each ``pl.dynamic`` symbol the body uses.

    A symbol is the runtime extent of the first tensor parameter that declares it; it becomes
    ``(DynDef name slot axis)``, read from that parameter's entry slot. Symbols that appear only
    in parameter types define nothing. Afterwards ``dyn_defs`` lists exactly the used symbols,
    in declaration order.
    """

    name = "define_dynamic_dim_symbols"
    source = NAMED
    target = DIMMED

    def Function(self, func):
        used = used_names(func.body)
        slots = {s.param: s.index for s in func.slots if s._production == "TensorSlot"}
        defs = [M.DynDef(d.name, slots[d.param], d.axis) for d in func.dyn_dims if d.name in used]
        return M.Function(
            func.name, func.params, func.results, func.auto_scope, defs, func.slots, func.arg_count, func.tids,
            func.body, span=func.span,
        )
