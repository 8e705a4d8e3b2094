"""encode_scalars: dimmed -> encoded."""

from __future__ import annotations

from nanopass.languages import DIMMED, ENCODED
from nanopass.languages.terms import ArgDir, Encoding
from nanopass.rewrite import Pass, register

from .types import float_scalar_names, reaches_float

E = ENCODED
# the enum members it reads (an enum member read through its class costs a descriptor call)
SCALAR, TO_U64, CAST_U64 = ArgDir.Scalar, Encoding.to_u64, Encoding.cast_u64


@register
class EncodeScalars(Pass):
    """Split task arguments into tensor slots and encoded scalar slots (D4).

    Tensor arguments become ``(TensorArg value dir)`` and keep their order; scalar arguments
    become ``(ScalarArg value encoding)`` and move after all tensors (the runtime rejects a
    tensor added after a scalar). A float scalar is encoded ``to_u64`` (bit copy), any other
    ``cast_u64``. Afterwards every task lists its tensors first.
    """

    name = "encode_scalars"
    source = DIMMED
    target = ENCODED

    def Function(self, func):
        self.floats = float_scalar_names(func)
        return self.rebuild(func)

    def Task(self, task):
        tensors, scalars = [], []
        floats = self.floats
        for a in task.args:
            if a.dir is SCALAR:
                encoding = TO_U64 if reaches_float(a.value, floats) else CAST_U64
                scalars.append(E.ScalarArg.make(a.value, encoding, span=a.span))
            else:
                tensors.append(E.TensorArg.make(a.value, a.dir, span=a.span))
        if scalars:
            tensors += scalars
        return E.Task.make(task.outs, task.tid, task.kernel, tensors, task.dumps, task.early_resolve,
                           task.launch, task.deps, task.capacity, span=task.span)
