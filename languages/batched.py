"""batched: tensor creation is batched into ``alloc_tensors`` calls (D8).

Admits the statement ``(Alloc creates)`` with ``Create`` = ``(Create var shape dtype manual_dep
init)`` (in the grammar from scoped on, kept out of the programs before batched by ``check_no_alloc``,
which batched drops). Each ``Alloc`` becomes one ``alloc_tensors(...)`` call. Invariant
(``check_alloc_size``): no ``CreateTensor`` let is left (the grammar keeps ``CreateTensor`` in
``Rhs``), and no ``Alloc`` holds more creates than one runtime ``Arg`` holds tensors (32).

The grammar is dep-annotated's, so the two share their node classes: ``batch_tensor_creates``
rebuilds only the bodies it batches (none when nothing is created); hoisted's ``Declare`` stays
kept out by ``check_no_declare`` until hoisted drops it.
"""

from itertools import compress

from nanopass.errors import VerifyError

from . import dep_annotated
from .dep_annotated import statement_kinds
from .statements import mark_verified, recorder, unverified_stmts

MAX_TENSORS_PER_ARG = 32


_ALLOC_OR_LET = frozenset({"Alloc", "Let"})


def check_alloc_size(program) -> None:
    stmts = unverified_stmts(program.orch.body, check_alloc_size)
    for node in compress(stmts, map(_ALLOC_OR_LET.__contains__, statement_kinds(stmts))):  # (the others skipped in C)
        kind = node._production
        if kind == "Alloc":
            if not 1 <= len(node.creates) <= MAX_TENSORS_PER_ARG:
                raise VerifyError(f"an Alloc must hold 1..{MAX_TENSORS_PER_ARG} creates", node=node)
        elif kind == "Let" and node.value._production == "CreateTensor":
            raise VerifyError("a create_tensor let left unbatched", node=node)
    mark_verified(program.orch.body, check_alloc_size)


check_alloc_size.record = recorder(check_alloc_size)  # (see ``Language.verify``)


LANGUAGE = dep_annotated.LANGUAGE.extend(
    "batched",
    doc="tensor creates batched per statement sequence into alloc_tensors calls",
    drop_invariants=[dep_annotated.check_no_alloc],
    invariants=[check_alloc_size],
)
