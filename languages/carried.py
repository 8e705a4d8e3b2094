"""carried (carry-classified): every loop carry and branch merge has a plan.

Replaces ``(IterArg var init)`` by ``(IterArg var init plan)`` and the ``If`` results
(``Binder*``) by ``Phi*`` = ``(Phi var plan)``. A plan ``(Carry rebind array)`` says whether the
value needs a C++ variable of its own (``rebind``: no when every path carries the same physical
tensor, D9) and, for a TaskId, how many ids it holds (``array``: 0 for one ``PTO2TaskId``, N
for a ``PTO2TaskId[N]``) and whether each iteration of its ``pl.parallel`` loop writes its own
slot (``per_iteration``).
"""

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import scoped
from .statements import mark_verified, unverified_compound


def check_plans(program) -> None:
    for stmt in unverified_compound(program.orch.body, check_plans):
        if stmt._production == "For":
            carries = stmt.iters
        elif stmt._production == "If":
            carries = stmt.results
        else:
            continue
        for carry in carries:
            node = carry.plan
            if node.array < 0:
                raise VerifyError("a carry's array size cannot be negative", node=node)
            if node.array > 0 and not node.rebind:
                raise VerifyError("an array carry must be a rebind carry", node=node)
            if node.per_iteration and node.array <= 0:
                raise VerifyError("a per-iteration carry needs an array", node=node)
    mark_verified(program.orch.body, check_plans)


LANGUAGE = scoped.LANGUAGE.extend(
    "carried",
    doc="carry plans on every loop carry and branch merge",
    remove={"IterArg": ["IterArg"], "Stmt": ["If"]},
    add={
        "IterArg": [scoped.LANGUAGE.production("IterArg").with_fields("plan:Carry")],
        "Stmt": [scoped.LANGUAGE.production("If").without_fields("results").with_fields("results:Phi*")],
    },
    add_nonterminals=[
        Nonterminal("Carry", Production("Carry", "rebind:boolean", "array:integer", "per_iteration:boolean")),
        Nonterminal("Phi", Production("Phi", "var:Binder", "plan:Carry")),
    ],
    invariants=[check_plans],
)
