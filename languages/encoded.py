"""encoded: every scalar argument's encoding is decided, by its kernel parameter.

Adds ``encodings`` to ``Kernel``: one per scalar parameter, in order, ``to_u64`` (D4: a bit
copy) for a float dtype, ``cast_u64`` (``(uint64_t)``) for any other. A task's scalar arguments
are its kernel's scalar parameters' (a task omits only trailing Out tensors), so the encodings
are its scalar arguments' too: the front end refuses a float argument for an integer parameter
and the reverse. Tensor arguments come before scalar arguments in the C++ (the runtime rejects
a tensor added after a scalar). Only the kernels change: the function is the input's.
Invariants: a kernel has one encoding per scalar parameter, by its dtype; no task exceeds the
runtime's limits (32 tensor arguments, 16 scalar arguments).
"""

from nanopass.errors import VerifyError

from . import dimmed
from .statements import mark_verified, recorder, unverified_stmts
from .terms import ArgDir, DType, Encoding, encoding

MAX_TENSOR_ARGS = 32
MAX_SCALAR_ARGS = 16
SCALAR = ArgDir.Scalar  # (read once: an enum member read through its class costs a descriptor call)
FLOAT_DTYPES = frozenset(d for d in DType if d.is_float)


def parameter_encodings(params) -> tuple:
    """The encoding of each scalar parameter of ``params``, in order (D4): ``to_u64`` for a float
    dtype, else ``cast_u64``."""
    return tuple(
        Encoding.to_u64 if p.type.dtype in FLOAT_DTYPES else Encoding.cast_u64
        for p in params
        if p.type._production == "ScalarType"
    )


def check_encodings(program) -> None:
    for kernel in program.kernels:
        if kernel.encodings != parameter_encodings(kernel.params):
            raise VerifyError(f"kernel {kernel.name}: its encodings are not its scalar parameters'", node=kernel)


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
    doc="each kernel's scalar parameters' encodings decided, so every scalar argument's",
    add_terminals=[encoding],
    remove={"Kernel": ["Kernel"]},
    add={"Kernel": [dimmed.LANGUAGE.production("Kernel").with_fields("encodings:encoding*")]},
    invariants=[check_encodings, check_argument_limits],
)
