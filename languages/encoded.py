"""encoded: task arguments are split into tensor slots and encoded scalar slots.

Replaces ``(Arg value dir)`` by ``(TensorArg value dir)`` and ``(ScalarArg value encoding)``
(D4: ``to_u64`` for floats, ``(uint64_t)`` otherwise). Invariant: in every task, all tensor
arguments come before all scalar arguments, and no task exceeds the runtime's limits (32
tensors, 16 scalars).
"""

from nanopass.errors import VerifyError
from nanopass.language import Production

from . import dimmed
from .statements import mark_verified, unverified_stmts
from .terms import encoding

MAX_TENSOR_ARGS = 32
MAX_SCALAR_ARGS = 16


def check_argument_order(program) -> None:
    for node in unverified_stmts(program.orch.body, check_argument_order):
        if node._production != "Task":
            continue
        # An argument is a TensorArg or a ScalarArg: the scalars must be the tail, all from
        # the first one on.
        tensors = scalars = 0
        for arg in node.args:
            if arg._production == "TensorArg":
                if scalars:
                    raise VerifyError("tensor arguments must precede scalar arguments", node=node)
                tensors += 1
            else:
                scalars += 1
        if tensors > MAX_TENSOR_ARGS or scalars > MAX_SCALAR_ARGS:
            raise VerifyError("a task exceeds the runtime's argument limits", node=node)
    mark_verified(program.orch.body, check_argument_order)


LANGUAGE = dimmed.LANGUAGE.extend(
    "encoded",
    doc="tensor arguments first, scalar arguments encoded",
    add_terminals=[encoding],
    remove={"Arg": ["Arg"]},
    add={
        "Arg": [
            Production("TensorArg", "value:Expr", "dir:arg_dir"),
            Production("ScalarArg", "value:Expr", "encoding:encoding"),
        ]
    },
    invariants=[check_argument_order],
)
