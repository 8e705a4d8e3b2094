"""carried (carry-classified): every loop carry and branch merge has a plan.

Replaces ``(IterArg var init)`` by ``(IterArg var init plan)`` and the ``If`` results
(``Binder*``) by ``Phi*`` = ``(Phi var plan)``. A plan ``(Carry rebind array)`` says whether the
value needs a C++ variable of its own (``rebind``: no when every path carries the same physical
tensor, D9) and, for a TaskId carried through a ``pl.parallel`` loop in a manual scope, the size
of the ``PTO2TaskId[N]`` array that holds one id per iteration (0 otherwise).
"""

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production, walk

from . import scoped


def check_plans(program) -> None:
    for node in walk(program.orch):
        if node._production == "Carry" and node.array < 0:
            raise VerifyError("a carry's array size cannot be negative", node=node)
        if node._production == "Carry" and node.array > 0 and not node.rebind:
            raise VerifyError("an array carry must be a rebind carry", node=node)


LANGUAGE = scoped.LANGUAGE.extend(
    "carried",
    doc="carry plans on every loop carry and branch merge",
    remove={"IterArg": ["IterArg"], "Stmt": ["If"]},
    add={
        "IterArg": [scoped.LANGUAGE.production("IterArg").with_fields("plan:Carry")],
        "Stmt": [scoped.LANGUAGE.production("If").without_fields("results").with_fields("results:Phi*")],
    },
    add_nonterminals=[
        Nonterminal("Carry", Production("Carry", "rebind:boolean", "array:integer")),
        Nonterminal("Phi", Production("Phi", "var:Binder", "plan:Carry")),
    ],
    invariants=[check_plans],
)
