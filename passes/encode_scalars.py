"""encode_scalars: dimmed -> encoded."""

from __future__ import annotations

from nanopass.languages import DIMMED, ENCODED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.encoded import parameter_encodings
from nanopass.languages.named import check_name_map
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_yields
from nanopass.rewrite import Pass, register

E = ENCODED


@register
class EncodeScalars(Pass):
    """Decide how each scalar argument becomes the runtime's uint64 slot (D4), by its parameter.

    Every kernel gets ``encodings``: one per scalar parameter, in order, ``to_u64`` (a bit copy)
    for a float dtype, ``cast_u64`` for any other (``parameter_encodings``); a task's scalar
    arguments, after its tensors, are encoded as their parameters say (the front end refuses a
    float argument for an integer parameter and the reverse). The function is the input's node.

    Preserves every invariant of the function (``preserves``): the yields, the scope placement,
    the carry plans, the dependency capacities, the allocation sizes and the name map.
    """

    name = "encode_scalars"
    source = DIMMED
    target = ENCODED
    preserves = frozenset({check_yields, check_scope_placement, check_plans, check_capacity, check_alloc_size, check_name_map})

    def run(self, program):
        kernels = [self.encoded(kernel) for kernel in program.kernels]
        # (the function's class is the input's: encoded changes the kernels only)
        return E.Program.make_trusted(program.name, kernels, program.orch, span=program.span)

    def encoded(self, kernel):
        """``kernel`` with its scalar parameters' encodings (unchecked: every other field is the
        input's, of the same kind, and the encodings are ``Encoding`` members)."""
        return E.Kernel.make_trusted(*kernel.fields(), parameter_encodings(kernel.params), span=kernel.span)
