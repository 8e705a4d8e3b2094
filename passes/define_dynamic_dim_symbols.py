"""define_dynamic_dim_symbols: named -> dimmed."""

from __future__ import annotations

from nanopass.languages import DIMMED, NAMED
from nanopass.rewrite import Pass, register

from .util import var_reads

M = DIMMED


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
        used = set(var_reads(func.body)) if func.dyn_dims else set()  # no symbol: nothing to look for
        slots = {s.param: s.index for s in func.slots if s._production == "TensorSlot"}
        defs = [M.DynDef(d.name, slots[d.param], d.axis) for d in func.dyn_dims if d.name in used]
        return M.Function(
            func.name, func.params, func.results, func.auto_scope, defs, func.slots, func.arg_count, func.tids,
            func.body, span=func.span,
        )
