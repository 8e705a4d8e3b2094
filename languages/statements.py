"""Statement-level traversal shared by the languages' invariants and the passes.

Statements nest only through the body fields below, so a walk over statements never needs to
enter expressions or types (which are most of a tree's nodes).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

BODY_FIELDS = {"For": ("body",), "If": ("then", "orelse"), "Scope": ("body",), "CompilerScope": ("body",)}


def iter_stmts(stmts) -> Iterator[Any]:
    """Every statement in a body, nested bodies included, in program order (no recursion).

    Inside ``reusing_walks()`` the order of the last tuple walked is kept: the invariants of a
    language and the analyses of a pass walk the same (immutable) body many times in a row.
    """
    global _last_walk
    last = _last_walk
    if last[0] is stmts:
        return iter(last[1])
    order = _statements_of(stmts)
    if _reusing and type(stmts) is tuple:
        _last_walk = (stmts, order)
    return iter(order)


_NO_WALK: tuple[Any, list] = (None, [])
_last_walk = _NO_WALK
_reusing = 0


@contextmanager
def reusing_walks():
    """Keep the last statement walk while compiling; forget it after (it holds a whole tree)."""
    global _reusing, _last_walk
    _reusing += 1
    try:
        yield
    finally:
        _reusing -= 1
        if not _reusing:
            _last_walk = _NO_WALK


def _statements_of(stmts) -> list:
    out: list = []
    append = out.append
    stack = list(stmts)
    stack.reverse()
    pop, extend, fields_of = stack.pop, stack.extend, BODY_FIELDS.get
    while stack:
        stmt = pop()
        append(stmt)
        fields = fields_of(stmt._production)
        if fields:
            for field in reversed(fields):
                extend(reversed(getattr(stmt, field)))
    return out


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
        return [getattr(r, "var", r) for r in getattr(stmt, "results", ())]  # surface: none
    if kind == "Alloc":
        return [c.var for c in stmt.creates]
    return []


def binders_in_order(stmts) -> Iterator[Any]:
    """Every Binder under a body, Declare's included, in the order a pre-order tree walk meets
    them (a loop's variable and iter_args before its body, its results after), without entering
    expressions or types."""
    stack: list = list(stmts)
    stack.reverse()
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        if type(item) is list:  # binders a statement defines after its bodies
            yield from item
            continue
        kind = item._production
        if kind == "For":
            yield item.var
            for it in item.iters:
                yield it.var
            push([getattr(r, "var", r) for r in item.results])
            stack.extend(reversed(item.body))
        elif kind == "If":
            push([getattr(r, "var", r) for r in item.results])
            stack.extend(reversed(item.orelse))
            stack.extend(reversed(item.then))
        elif kind in ("Scope", "CompilerScope"):
            stack.extend(reversed(item.body))
        elif kind == "Declare":
            yield item.var
        else:
            yield from defined_binders(item)
