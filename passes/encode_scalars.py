"""encode_scalars: dimmed -> encoded."""

from __future__ import annotations

from nanopass.languages import DIMMED, ENCODED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.named import check_name_map
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_yields
from nanopass.rewrite import Pass, register

from .types import float_scalar_names

E = ENCODED

# Whether ``Function.binds_float_scalars`` false is taken as "no float scalar" without a walk
# (tests/test_encode_scalars_handed.py sets it False: the same trees on every program).
FLOATS_HANDED_FORWARD = True


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
        # (none bound, as remap_output_aliases found: none to find)
        floats = float_scalar_names(func) if func.binds_float_scalars or not FLOATS_HANDED_FORWARD else None
        # (unchecked: every field is the input's, of the same kind, but ``float_scalars``, names of its binders)
        return E.Function.make_trusted(
            func.name, func.params, func.results, func.auto_scope, func.dyn_defs, func.slots, func.arg_count, func.tids,
            func.renamed, func.identifiers, func.scalars_renamed, func.binds_float_scalars, sorted(floats) if floats else (),
            func.body, span=func.span,
        )

