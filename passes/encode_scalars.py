"""encode_scalars: dimmed -> encoded."""

from __future__ import annotations

from nanopass.languages import DIMMED, ENCODED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.ssa import check_yields
from nanopass.languages.terms import ArgDir, Encoding
from nanopass.rewrite import Pass, register

from .types import float_scalar_names, reaches_float

E = ENCODED
# the enum members it reads (an enum member read through its class costs a descriptor call)
SCALAR, TO_U64, CAST_U64 = ArgDir.Scalar, Encoding.to_u64, Encoding.cast_u64
LITERALS = frozenset({"Int", "Float", "Bool"})  # the scalar expressions that read no name


@register
class EncodeScalars(Pass):
    """Split task arguments into tensor slots and encoded scalar slots (D4).

    Tensor arguments become ``(TensorArg value dir)`` and keep their order; scalar arguments
    become ``(ScalarArg value encoding)`` and move after all tensors (the runtime rejects a
    tensor added after a scalar). A float scalar is encoded ``to_u64`` (bit copy), any other
    ``cast_u64``. Afterwards every task lists its tensors first.

    Preserves the yields, the carry plans, the dependency capacities and the allocation sizes
    (``preserves``): only task arguments change; every statement, body, carry, dependency and
    ``Alloc`` is the input's. (Not the scope placement: its check asks which allocations a body
    yields, through the task arguments this pass rewrites.)
    """

    name = "encode_scalars"
    source = DIMMED
    target = ENCODED
    preserves = frozenset({check_yields, check_plans, check_capacity, check_alloc_size})

    def Function(self, func):
        self.func = func
        self.floats: set[str] | None = None  # made when first asked (``float_scalars``)
        return self.rebuild(func)

    def float_scalars(self) -> set[str]:
        """The function's float scalar names (``float_scalar_names``, a walk of the body), made
        when a scalar argument that is not a literal first asks: a literal's encoding is its own
        dtype's, and a program whose scalar arguments are all literals, or that has none, needs
        no walk."""
        if self.floats is None:
            self.floats = float_scalar_names(self.func)
        return self.floats

    def Task(self, task):
        tensors, scalars = [], []
        for a in task.args:
            if a.dir is SCALAR:
                value = a.value
                floats = self.floats
                if floats is None:
                    floats = () if value._production in LITERALS else self.float_scalars()
                encoding = TO_U64 if reaches_float(value, floats) else CAST_U64
                scalars.append(E.ScalarArg.make(a.value, encoding, span=a.span))
            else:
                tensors.append(E.TensorArg.make(a.value, a.dir, span=a.span))
        if scalars:
            tensors += scalars
        return E.Task.make(task.outs, task.tid, task.kernel, tensors, task.dumps, task.early_resolve,
                           task.launch, task.deps, task.capacity, span=task.span)
