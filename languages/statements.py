"""Statement-level traversal shared by the languages' invariants and the passes.

Statements nest only through the body fields below, so a walk over statements never needs to
enter expressions or types (which are most of a tree's nodes).
"""

from __future__ import annotations

from typing import Any, Iterator

BODY_FIELDS = {"For": ("body",), "If": ("then", "orelse"), "Scope": ("body",), "CompilerScope": ("body",)}


def iter_stmts(stmts) -> Iterator[Any]:
    """Every statement in a body, nested bodies included, in program order (no recursion)."""
    stack = list(stmts)
    stack.reverse()
    pop, extend, fields_of = stack.pop, stack.extend, BODY_FIELDS.get
    while stack:
        stmt = pop()
        yield stmt
        fields = fields_of(stmt._production)
        if fields:
            for field in reversed(fields):
                extend(reversed(getattr(stmt, field)))


def defined_binders(stmt) -> list:
    """Every Binder a statement itself defines (loop variables and carries included)."""
    kind = stmt._production
    if kind in ("Let", "Dummy"):
        return [stmt.var]
    if kind == "Task":
        outs = [getattr(o, "var", o) for o in stmt.outs]
        return outs + ([stmt.tid] if stmt.tid is not None else [])
    if kind == "For":
        return [stmt.var] + [it.var for it in stmt.iters] + list(stmt.results)
    if kind == "If":
        return [getattr(r, "var", r) for r in stmt.results]
    if kind == "Alloc":
        return [c.var for c in stmt.creates]
    return []
