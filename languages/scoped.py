"""scoped: runtime scopes are explicit nodes, and say who placed them.

Replaces ``(Scope mode body)`` and ``(CompilerScope mode body)`` by ``(Scope mode origin body)``. Invariant (D14): in a function
with ``auto_scope``, the body is one scope, and every for body and if branch outside a manual
scope is one scope; nothing AUTO is nested inside a manual scope.
"""

from nanopass.errors import VerifyError

from . import directed
from .statements import mark_verified, verified_ids
from .terms import ScopeMode, scope_origin


def check_scope_placement(program) -> None:
    func = program.orch
    if func.auto_scope and not _is_scope(func.body):
        raise VerifyError("an auto_scope function body must be exactly one runtime scope", node=func)
    # What a statement must meet depends on the function (auto_scope) and on the scopes around it
    # (manual or not); one that passed before is skipped only where both are the same: outside
    # manual scopes, in a function with the same auto_scope, when the last body to pass had no
    # manual scope at all (so each of its statements passed outside manual scopes).
    rule = (check_scope_placement, func.auto_scope)
    if not _check_bodies(func.body, func.auto_scope, verified_ids(rule)):
        mark_verified(func.body, rule)


def _is_scope(body) -> bool:
    return len(body) == 1 and body[0]._production == "Scope"


def _check_bodies(body, require_scopes: bool, passed: set[int]) -> bool:
    """Check the bodies; statements in ``passed`` met the rules outside manual scopes and are
    skipped there. Returns whether a manual scope was seen."""
    seen_manual = False
    stack = [(body, False)]
    while stack:
        stmts, manual = stack.pop()
        for stmt in stmts:
            production = stmt._production
            if production == "Scope":
                if manual and stmt.mode is ScopeMode.auto:
                    raise VerifyError("an AUTO scope inside a manual scope", node=stmt)
                if passed and not manual and id(stmt) in passed:
                    continue
                inner = manual or stmt.mode is ScopeMode.manual
                seen_manual = seen_manual or inner
                stack.append((stmt.body, inner))
                continue
            if production == "For":
                bodies = (stmt.body,)
            elif production == "If":
                bodies = (stmt.then, stmt.orelse)
            else:
                continue
            if passed and not manual and id(stmt) in passed:
                continue
            for branch in bodies:
                if require_scopes and not manual and branch and not _is_scope(branch):
                    raise VerifyError("a for body or if branch outside manual scopes must be one runtime scope", node=stmt)
                stack.append((branch, manual))
    return seen_manual


LANGUAGE = directed.LANGUAGE.extend(
    "scoped",
    doc="runtime scopes explicit: the function body and every for/if body outside manual scopes",
    add_terminals=[scope_origin],
    remove={"Stmt": ["Scope", "CompilerScope"]},
    add={"Stmt": [directed.LANGUAGE.production("Scope").with_fields("origin:scope_origin", before="body")]},
    invariants=[check_scope_placement],
)
