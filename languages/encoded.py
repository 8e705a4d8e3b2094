"""encoded: the float scalars are known, so every scalar argument's encoding is.

Adds ``float_scalars`` to ``Function``: the names of the data scalars of a float dtype (by the
tree's names; a name bound again takes its last binding's type). A task's scalar argument that
a float reaches through arithmetic (one of these names, or a float literal, not through
``and``/``or``, a comparison or ``not``: ``types.reaches_float``) is encoded ``to_u64`` (D4: a
bit copy), any other ``(uint64_t)``; tensor arguments come before scalar arguments in the C++
(the runtime rejects a tensor added after a scalar). Only ``Function`` changes: every statement
is the input's. Invariant: no task exceeds the runtime's limits (32 tensor arguments, 16 scalar
arguments).
"""

from nanopass.errors import VerifyError

from . import dimmed
from .statements import mark_verified, recorder, unverified_stmts
from .terms import ArgDir

MAX_TENSOR_ARGS = 32
MAX_SCALAR_ARGS = 16
SCALAR = ArgDir.Scalar  # (read once: an enum member read through its class costs a descriptor call)


def check_argument_limits(program) -> None:
    for node in unverified_stmts(program.orch.body, check_argument_limits):
        if node._production != "Task":
            continue
        args = node.args
        if len(args) <= MAX_SCALAR_ARGS:
            continue  # (within both limits whatever their kinds)
        scalars = 0
        for arg in args:
            if arg.dir is SCALAR:
                scalars += 1
        if len(args) - scalars > MAX_TENSOR_ARGS or scalars > MAX_SCALAR_ARGS:
            raise VerifyError("a task exceeds the runtime's argument limits", node=node)
    mark_verified(program.orch.body, check_argument_limits)


check_argument_limits.record = recorder(check_argument_limits)  # (see ``Language.verify``)


LANGUAGE = dimmed.LANGUAGE.extend(
    "encoded",
    doc="float scalars named: each scalar argument's encoding known",
    remove={"Function": ["Function"]},
    add={"Function": [dimmed.LANGUAGE.production("Function").with_fields("float_scalars:symbol*", before="body")]},
    invariants=[check_argument_limits],
)
