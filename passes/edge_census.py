"""What a directed body holds of dependency edges and manual scopes, found in one walk and shared.

Several passes of the directed language change a program only where it has something of their
kind (a compiler edge, a cell a task waits on, a manual scope, a user edge on a plain call), and
most programs have none: each pass looking for it would walk the whole body to return it
unchanged. ``body_has`` answers those questions from one census of the body, kept per body
(``languages.statements.kept``): a pass that returns its input unchanged hands the next the same
body, whose census is then not made again. A walk that meets what it was asked about stops there
(the pass has work to do, and a cheap answer matters less), and keeps nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from nanopass.languages.statements import kept, kept_result
from nanopass.languages.terms import ScopeMode

from .util import iter_stmts


class EdgeCensus(NamedTuple):
    """What the statements of a body (nested bodies included) hold."""

    manual_scope: bool  # a Scope or CompilerScope in manual mode
    user_edge_on_plain_task: bool  # a Task without a TaskId has a user edge (DepVar or DepItem)
    compiler_edge: bool  # a Task or HostFence has a compiler edge (``lean.compiler_edge``)
    two_compiler_edges: bool  # a Task has two compiler edges or more
    cell_waiting_task: bool  # a Task has a CellDep
    derived_or_cell_edge: bool  # a Task or HostFence has a DerivedDep (on any value) or a CellDep


def body_has(body, fact: str) -> bool:
    """Whether ``body`` (a directed function's body) has ``fact``, a field of ``EdgeCensus``.

    The census kept for the same body object answers (trees are immutable); else a walk makes
    the census and keeps it when it reaches the end (``fact`` does not hold); where it meets
    ``fact`` it stops there, keeps nothing and answers True."""
    census = kept_result(EdgeCensus, (body,))
    if census is None:
        census = _census(body, fact)
        if census is None:
            return True
        kept(EdgeCensus, (body,), lambda: census)
    return getattr(census, fact)


_USER_EDGES = frozenset({"DepVar", "DepItem"})
_DERIVED_OR_CELL = frozenset({"DerivedDep", "CellDep"})
_SCOPES = frozenset({"Scope", "CompilerScope"})
# the places of the census's fields (``EdgeCensus._fields``), and of a fact never set
_MANUAL, _USER, _COMPILER, _TWO, _CELL_WAIT, _DERIVED_OR_CELL_EDGE, _NEVER = range(7)


def _census(body, stop: str | None) -> EdgeCensus | None:
    """The census of ``body``; None as soon as the fact ``stop`` holds (where ``stop`` is given)."""
    facts = [False] * 7
    asked = _NEVER if stop is None else EdgeCensus._fields.index(stop)
    for stmt in iter_stmts(body):
        kind = stmt._production
        if kind == "Task" or kind == "HostFence":
            deps = stmt.deps
            if not deps:  # (most tasks have no edge)
                continue
            edges = 0  # this statement's compiler edges
            for dep in deps:  # (a plain loop: a comprehension costs a call per task)
                dep_kind = dep._production
                if dep_kind in _DERIVED_OR_CELL:
                    facts[_DERIVED_OR_CELL_EDGE] = True
                    if dep_kind == "CellDep":
                        edges += 1
                        if kind == "Task":
                            facts[_CELL_WAIT] = True
                    elif dep.value._production == "Var":
                        edges += 1
                elif kind == "Task" and stmt.tid is None and dep_kind in _USER_EDGES:
                    facts[_USER] = True
            if edges:
                facts[_COMPILER] = True
                if edges > 1 and kind == "Task":
                    facts[_TWO] = True
            if facts[asked]:
                return None
        elif kind in _SCOPES and stmt.mode is ScopeMode.manual:
            facts[_MANUAL] = True
            if asked == _MANUAL:
                return None
    return EdgeCensus(*facts[:_NEVER])
