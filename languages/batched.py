"""batched: tensor creation is batched into ``alloc_tensors`` calls (D8).

Removes ``CreateTensor`` from ``Rhs``; adds the statement ``(Alloc creates)`` with
``Create`` = ``(Create var shape dtype manual_dep init)``. Each ``Alloc`` becomes one
``alloc_tensors(...)`` call. Invariant: no ``Alloc`` holds more creates than one runtime ``Arg``
holds tensors (32).
"""

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import dep_annotated
from .statements import mark_verified, recorder, unverified_stmts

MAX_TENSORS_PER_ARG = 32


def check_alloc_size(program) -> None:
    for node in unverified_stmts(program.orch.body, check_alloc_size):
        if node._production == "Alloc" and not 1 <= len(node.creates) <= MAX_TENSORS_PER_ARG:
            raise VerifyError(f"an Alloc must hold 1..{MAX_TENSORS_PER_ARG} creates", node=node)
    mark_verified(program.orch.body, check_alloc_size)


check_alloc_size.record = recorder(check_alloc_size)  # (see ``Language.verify``)


LANGUAGE = dep_annotated.LANGUAGE.extend(
    "batched",
    doc="tensor creates batched per statement sequence into alloc_tensors calls",
    remove={"Rhs": ["CreateTensor"]},
    add={"Stmt": [Production("Alloc", "creates:Create*")]},
    add_nonterminals=[
        Nonterminal(
            "Create",
            Production("Create", "var:Binder", "shape:Expr*", "dtype:dtype", "manual_dep:boolean", "init:Expr?"),
        )
    ],
    invariants=[check_alloc_size],
)
