"""dep-annotated: every dependency edge is resolved.

Every dependency of a ``Task``, ``Dummy`` or ``HostFence`` is a ``(DepEdge tid index source
guarded user size)`` (``check_capacity``): ``tid`` names the C++ storage of the TaskId (a
``Var``), ``index`` the slot when the edge is one element ``arr[i]`` of an array (else ``_``),
``source`` its kind, ``guarded`` whether insertion needs an ``is_valid()`` test, ``user`` whether
the user wrote the edge (else the compiler derived it), ``size`` 0 for one id or N for the N slots
of a whole array. The exact size of a dependency array follows from its edges (``capacity``).

The grammar is tid-bound's (``DepEdge`` is one of ``Dep``'s alternatives from scoped on, kept out
of the programs before this one by ``check_no_dep_edge``, which dep-annotated drops), so the two
share their node classes: ``resolve_dep_edges`` rebuilds only the statements with dependencies
and the bodies holding them. Batched's ``Alloc`` and hoisted's ``Declare`` stay kept out
(``check_no_alloc``, ``check_no_declare``).
"""

from nanopass.errors import VerifyError

from . import scoped, tid_bound
from .scoped import check_no_alloc, check_no_declare, dependencies
from .statements import mark_verified, recorder, statement_kind_set, statement_kinds, unverified_stmts

__all__ = ["LANGUAGE", "capacity", "check_capacity", "check_no_alloc", "check_no_declare", "statement_kind_set",
           "statement_kinds"]


def capacity(deps) -> int:
    """The exact size of a dependency array of resolved edges: one slot per edge, N for an edge
    of a whole array of N."""
    need = len(deps)
    for edge in deps:
        if edge.size:
            need += edge.size - 1
    return need


def check_capacity(program) -> None:
    """Every dependency array is resolved: each entry a ``DepEdge``, so its size is ``capacity``."""
    deps, kinds = dependencies(unverified_stmts(program.orch.body, check_capacity))
    if kinds - {"DepEdge"}:
        dep = next(dep for dep in deps if dep._production != "DepEdge")
        raise VerifyError(f"an unresolved dependency ({dep._production}) after resolve_dep_edges", node=dep)
    mark_verified(program.orch.body, check_capacity)


check_capacity.record = recorder(check_capacity)  # (see ``Language.verify``)


LANGUAGE = tid_bound.LANGUAGE.extend(
    "dep-annotated",
    doc="dependency edges resolved to sources, guards and exact array sizes",
    drop_invariants=[scoped.check_no_dep_edge, check_no_alloc, check_no_declare],
    invariants=[check_capacity, check_no_alloc, check_no_declare],
)
