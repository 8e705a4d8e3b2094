"""carried (carry-classified): every loop carry and branch merge has a plan.

Replaces ``(IterArg var init)`` by ``(IterArg var init plan)`` and the ``If`` results
(``Binder*``) by ``Phi*`` = ``(Phi var plan)``. A plan ``(Carry rebind array per_iteration body)``
says whether the value needs a C++ variable of its own (``rebind``: no when every path carries
the same physical tensor, D9) and, for a TaskId, how many ids the result holds (``array``: 0 for
one ``PTO2TaskId``, N for a ``PTO2TaskId[N]``; an array holding fewer ids has invalid slots),
whether each iteration of its ``pl.parallel`` loop writes its own slot (``per_iteration``), and
how many the carry holds inside the loop's body (``body``): ``array`` for a carry stored in the
result's variable, its init's for a per-iteration carry (which stands for its init in the body),
and more than ``array`` for a carry of a loop that certainly runs whose init holds more ids
than what the body yields (the carry then has a variable of its own, named after its iter_arg,
and the result's variable holds the last value yielded).

``Function`` gains ``buffer_groups``: one ``(BufferGroup root aliases)`` per variable (``root``)
whose storage other variables (``aliases``) name too (``buffer_roots`` with the plans'
predicate: a carry that is not rebound is its init), roots and aliases in program order; a
variable in no group's aliases is its own root. Every later pass keeps the list as it is until
remap_output_aliases gives the aliases their root's name (the named language drops it).
Invariant: a variable is an alias in one group at most and is not itself a group's root (a
root is final).
"""

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import scoped
from .statements import kept, mark_verified, recorder, unverified_compound


def check_plans(program) -> None:
    """Every carry's plan is consistent (``_check_plan``). It holds of each ``Carry`` node on its
    own: the class's constructors run the rule (``node_rules``), so every tree of the language
    meets the invariant (``Language.proves``) and the pipeline does not walk one for it; this
    walk checks a tree all the same."""
    seen: set[int] = set()  # the plans checked (carries with the same plan share one node)
    for stmt in unverified_compound(program.orch.body, check_plans):
        production = stmt._production
        if production == "For" or production == "While":
            carries = stmt.iters
        elif production == "If":
            carries = stmt.results
        else:
            continue
        for carry in carries:
            node = carry.plan
            if id(node) in seen:
                continue
            seen.add(id(node))
            _check_plan(node)
    mark_verified(program.orch.body, check_plans)


def _check_plan(node) -> None:
    if node.array < 0:
        raise VerifyError("a carry's array size cannot be negative", node=node)
    if node.array > 0 and not node.rebind:
        raise VerifyError("an array carry must be a rebind carry", node=node)
    if node.per_iteration and node.array <= 0:
        raise VerifyError("a per-iteration carry needs an array", node=node)
    if node.body < 0 or (not node.per_iteration and node.body < node.array):
        raise VerifyError("a carry holds at least as many ids in the body as its result", node=node)
    if node.body != node.array and not node.rebind:
        raise VerifyError("a carry with a variable of its own must be a rebind carry", node=node)


# (the rule's condition, inlined in the constructors: ``_check_plan`` raises where it fails)
_check_plan.inline = (
    "{array} >= 0 and ({array} <= 0 or {rebind}) and (not {per_iteration} or {array} > 0) and {body} >= 0 "
    "and ({per_iteration} or {body} >= {array}) and ({body} == {array} or {rebind})"
)
check_plans.node_rules = {"Carry": _check_plan}
check_plans.record = recorder(check_plans)  # (see ``Language.verify``)


def check_buffer_groups(program) -> None:
    groups = program.orch.buffer_groups
    kept(check_buffer_groups, (groups,), lambda: _check_buffer_groups(groups))  # (once per list: passes keep it)


def _check_buffer_groups(groups) -> bool:
    aliases: set[str] = set()
    count = 0
    for group in groups:
        aliases.update(group.aliases)
        count += len(group.aliases)
    if len(aliases) != count:
        raise VerifyError("a variable is an alias in two buffer groups, or twice in one", node=groups[0])
    for group in groups:
        if group.root in aliases or not group.aliases:
            raise VerifyError("a buffer group's root must be its own root, and the group have aliases", node=group)
    return True


LANGUAGE = scoped.LANGUAGE.extend(
    "carried",
    doc="carry plans on every loop carry and branch merge",
    remove={"IterArg": ["IterArg"], "Stmt": ["If"], "Function": ["Function"]},
    add={
        "IterArg": [scoped.LANGUAGE.production("IterArg").with_fields("plan:Carry")],
        "Stmt": [scoped.LANGUAGE.production("If").without_fields("results").with_fields("results:Phi*")],
        "Function": [scoped.LANGUAGE.production("Function").with_fields("buffer_groups:BufferGroup*", before="body")],
    },
    add_nonterminals=[
        Nonterminal(
            "Carry", Production("Carry", "rebind:boolean", "array:integer", "per_iteration:boolean", "body:integer")
        ),
        Nonterminal("Phi", Production("Phi", "var:Binder", "plan:Carry")),
        Nonterminal("BufferGroup", Production("BufferGroup", "root:symbol", "aliases:symbol*")),
    ],
    invariants=[check_plans, check_buffer_groups],
)
