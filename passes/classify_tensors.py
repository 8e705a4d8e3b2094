"""classify_tensors: numbered -> slotted."""

from __future__ import annotations

from nanopass.languages import NUMBERED, SLOTTED
from nanopass.rewrite import Pass, register

T = SLOTTED


@register
class ClassifyTensors(Pass):
    """Decide the orchestration function's entry ABI.

    Tensor parameters are the external tensors: the i-th one (in declaration order) is
    ``orch_args.tensor(i)``; scalar parameters are ``orch_args.scalar(j)``, numbered separately.
    ``arg_count`` (the config's ``expected_arg_count``) is their total. Tensors created in the
    body are internal. Afterwards ``Function.slots`` lists one slot per parameter.
    """

    name = "classify_tensors"
    source = NUMBERED
    target = SLOTTED

    def Function(self, func):
        slots = []
        tensors = scalars = 0
        for param in func.params:
            if param.type._production == "TensorType":
                slots.append(T.TensorSlot(param.name, tensors))
                tensors += 1
            else:
                slots.append(T.ScalarSlot(param.name, scalars))
                scalars += 1
        return T.Function(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, func.buffer_groups, slots, tensors + scalars,
            func.body, span=func.span,
        )
