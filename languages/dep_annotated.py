"""dep-annotated: every dependency edge is resolved.

Replaces the ``Dep`` nonterminal by ``DepEdge`` = ``(DepEdge tid index source guarded user size)``:
``tid`` names the C++ storage of the TaskId (a ``Var``), ``index`` the slot when the edge is one
element ``arr[i]`` of an array (else ``_``), ``source`` its kind, ``guarded`` whether insertion
needs an ``is_valid()`` test, ``user`` whether the user wrote the edge (else the compiler derived
it), ``size`` 0 for one id or N for the N slots of a whole array. ``Task``, ``Dummy`` and
``HostFence`` carry ``DepEdge*`` plus ``capacity``, the exact size of the dependency array.

The grammar also has batched's ``Alloc`` and ``Create`` and hoisted's ``Declare``, which no
program holds before the pass that makes them (``check_no_alloc``, ``check_no_declare``): the
three languages then share their node classes, and those passes rebuild only what they change.
"""

from itertools import compress
from operator import attrgetter

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import tid_bound
from .statements import kept, mark_verified, recorder, unverified_stmts


_WITH_DEPS = frozenset({"Task", "Dummy", "HostFence"})  # the statements with a dependency array
_production_of = attrgetter("_production")


def statement_kinds(stmts: list) -> list:
    """The productions of ``stmts`` (a list ``unverified_stmts`` returned), in order: read in C,
    and kept while the same list is asked again (``kept``: the invariants of a stage that no
    earlier one checked get the same list, the body's walk)."""
    return kept(statement_kinds, (stmts,), lambda: list(map(_production_of, stmts)))


def statement_kind_set(stmts: list) -> frozenset:
    """The distinct productions of ``stmts`` (``statement_kinds``), kept as they are: whether a
    kind is among them asked in one lookup (made when first asked)."""
    return kept(statement_kind_set, (stmts,), lambda: frozenset(statement_kinds(stmts)))


def check_capacity(program) -> None:
    stmts = unverified_stmts(program.orch.body, check_capacity)
    for node in compress(stmts, map(_WITH_DEPS.__contains__, statement_kinds(stmts))):  # (the others skipped in C)
        need = len(node.deps)  # one slot per edge, N for an edge of a whole array of N
        for edge in node.deps:
            if edge.size:
                need += edge.size - 1
        if node.capacity != need:
            raise VerifyError(f"dependency array capacity {node.capacity} != {need} edges", node=node)
    mark_verified(program.orch.body, check_capacity)


check_capacity.record = recorder(check_capacity)  # (see ``Language.verify``)


def check_no_alloc(program) -> None:
    """No ``Alloc`` before ``batch_tensor_creates`` makes them (the grammar has it only to share
    its classes with batched)."""
    _refuse(program.orch.body, check_no_alloc, "Alloc", "an Alloc before batch_tensor_creates")


def check_no_declare(program) -> None:
    """No ``Declare`` before ``hoist_scope_escapes`` makes them (the grammar has it only to share
    its classes with batched and hoisted)."""
    _refuse(program.orch.body, check_no_declare, "Declare", "a Declare before hoist_scope_escapes")


def _refuse(body, rule, production: str, message: str) -> None:
    """No statement of ``production`` under ``body`` (the statements' kinds compared in C)."""
    stmts = unverified_stmts(body, rule)
    if production in statement_kind_set(stmts):
        raise VerifyError(message, node=next(s for s in stmts if s._production == production))
    mark_verified(body, rule)


check_no_alloc.record = recorder(check_no_alloc)  # (see ``Language.verify``)
check_no_declare.record = recorder(check_no_declare)


LANGUAGE = tid_bound.LANGUAGE.extend(
    "dep-annotated",
    doc="dependency edges resolved to sources, guards and exact array sizes",
    remove_nonterminals=["Dep"],
    remove={"Stmt": ["Task", "Dummy", "HostFence"]},
    add_nonterminals=[
        Nonterminal(
            "DepEdge",
            Production("DepEdge", "tid:Expr", "index:Expr?", "source:dep_source", "guarded:boolean", "user:boolean", "size:integer"),
        ),
        Nonterminal(
            "Create",
            Production("Create", "var:Binder", "shape:Expr*", "dtype:dtype", "manual_dep:boolean", "init:Expr?"),
        ),
    ],
    add={
        "Stmt": [
            tid_bound.LANGUAGE.production(name).without_fields("deps").with_fields("deps:DepEdge*", "capacity:integer")
            for name in ("Task", "Dummy", "HostFence")
        ]
        + [Production("Alloc", "creates:Create*"), Production("Declare", "var:Binder")]
    },
    invariants=[check_capacity, check_no_alloc, check_no_declare],
)
