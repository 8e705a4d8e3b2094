"""batched: tensor creation is batched into ``alloc_tensors`` calls (D8).

Removes ``CreateTensor`` from ``Rhs``; adds the statement ``(Alloc creates)`` with
``Create`` = ``(Create var shape dtype manual_dep init)``. Each ``Alloc`` becomes one
``alloc_tensors(...)`` call. Invariant: no ``Alloc`` holds more creates than one runtime ``Arg``
holds tensors (32).

The grammar also has hoisted's ``(Declare var)``, which no batched program holds (invariant
``check_no_declare``, dropped by hoisted): with it, hoisted shares batched's node classes, so
``hoist_scope_escapes`` rebuilds only the statements it changes (none when nothing escapes).
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


def check_no_declare(program) -> None:
    """No ``Declare`` before ``hoist_scope_escapes`` makes them (batched's grammar has it only
    to share its classes with hoisted)."""
    for node in unverified_stmts(program.orch.body, check_no_declare):
        if node._production == "Declare":
            raise VerifyError("a Declare before hoist_scope_escapes", node=node)
    mark_verified(program.orch.body, check_no_declare)


check_no_declare.record = recorder(check_no_declare)  # (see ``Language.verify``)


LANGUAGE = dep_annotated.LANGUAGE.extend(
    "batched",
    doc="tensor creates batched per statement sequence into alloc_tensors calls",
    remove={"Rhs": ["CreateTensor"]},
    add={"Stmt": [Production("Alloc", "creates:Create*"), Production("Declare", "var:Binder")]},
    add_nonterminals=[
        Nonterminal(
            "Create",
            Production("Create", "var:Binder", "shape:Expr*", "dtype:dtype", "manual_dep:boolean", "init:Expr?"),
        )
    ],
    invariants=[check_alloc_size, check_no_declare],
)
