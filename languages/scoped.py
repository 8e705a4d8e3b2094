"""scoped: runtime scopes are explicit nodes, and say who placed them.

Replaces ``(Scope mode body)`` and ``(CompilerScope mode body)`` by ``(Scope mode origin body)``. Invariant (D14): in a function
with ``auto_scope``, the body is one scope, and every for body and if branch outside a manual
scope is one scope, except one that yields a tensor it allocated, which has no AUTO scope of the
compiler's at its top level (the runtime frees a scope's buffers when it ends, and the yielded
buffer is used after the body; ``passes/allocations.py`` says what a body allocates and yields);
nothing AUTO is nested inside a manual scope.

The grammar also has the later languages' statements and edges, kept out of scoped programs by
invariants until the pass that makes them (then the languages up to hoisted share their node
classes, and a pass rebuilds only what it changes): dep-annotated's resolved edge ``(DepEdge tid
index source guarded user size)``, one more alternative of ``Dep`` from directed on (so the
statements with dependencies are directed's too: ``check_no_dep_edge``); batched's ``(Alloc
creates)`` of ``(Create var shape dtype manual_dep init)`` (``check_no_alloc``) and hoisted's
``(Declare var)`` (``check_no_declare``), which directed's grammar lacks (``Language.proves``).
"""

from itertools import chain, compress
from operator import attrgetter

from nanopass.errors import VerifyError
from nanopass.language import Nonterminal, Production

from . import directed
from .statements import (
    forget_verified,
    kept,
    mark_verified,
    passed_last,
    recorder,
    remark_verified,
    statement_kind_set,
    statement_kinds,
    unverified_compound,
    unverified_stmts,
)
from .terms import ScopeMode, ScopeOrigin, scope_origin

_production_of = attrgetter("_production")


# (read once: an enum member read through its class costs a descriptor call)
_AUTO, _MANUAL, _COMPILER = ScopeMode.auto, ScopeMode.manual, ScopeOrigin.compiler


def check_scope_placement(program) -> None:
    func = program.orch
    if func.auto_scope and not _is_scope(func.body):
        raise VerifyError("an auto_scope function body must be exactly one runtime scope", node=func)
    # Without manual scopes the rules hold of each statement on its own: with auto_scope, a
    # for body or if branch is one scope (else nothing to check). Statements of the last body
    # that passed so (same auto_scope) are skipped (a skipped statement holds no manual scope).
    # A manual scope, or a body breaking the rule, sends the function to the general walk (which
    # meets the first error in program order).
    rule = _quick_rule(func.auto_scope)
    for stmt in unverified_compound(func.body, rule):
        production = stmt._production
        if production == "Scope":
            if stmt.mode is not _MANUAL:
                continue
        elif not func.auto_scope:
            continue
        elif production == "For" or production == "While":
            body = stmt.body  # (one scope, or empty: ``_is_scope`` inlined)
            if not body or len(body) == 1 and body[0]._production == "Scope":
                continue
        elif production == "If":
            then, orelse = stmt.then, stmt.orelse  # (each one scope, or empty: ``_is_scope`` inlined)
            if (not then or len(then) == 1 and then[0]._production == "Scope") and (
                not orelse or len(orelse) == 1 and orelse[0]._production == "Scope"
            ):
                continue
        else:
            continue
        # The general walk's verdict depends on the body alone unless it had to ask which
        # allocations a body yields (the program's kernels decide those): only then is it not
        # remembered. The body that last passed it is not walked again. Only the route this
        # body took stays marked (the record hook marks a pass's output as its input passed).
        _forget_routes_but(_general_rule(func.auto_scope))
        general = _general_rule(func.auto_scope)
        if not passed_last(func.body, general):
            consulted = _check_bodies(func.body, require_scopes=func.auto_scope, program=program)  # raises on a bad body
            if consulted:
                forget_verified(general)
            else:
                mark_verified(func.body, general)
        return
    mark_verified(func.body, rule)
    _forget_routes_but(rule)


def _quick_rule(auto_scope: bool) -> tuple:
    """The key under which a body every compound statement of which passed the quick
    per-statement test (``check_scope_placement``) with this ``auto_scope`` is remembered."""
    return (check_scope_placement, bool(auto_scope))


def _general_rule(auto_scope: bool) -> tuple:
    """The key under which a body that passed the general walk (``_check_bodies``) with this
    ``auto_scope``, without asking which allocations a body yields, is remembered."""
    return (check_scope_placement, "general", bool(auto_scope))


def _forget_routes_but(kept) -> None:
    """Forget the marks of every route of the check but ``kept``: the marks say how the last
    body checked passed (``_record_scope_placement``)."""
    for auto_scope in (True, False):
        for rule in (_quick_rule(auto_scope), _general_rule(auto_scope)):
            if rule != kept:
                forget_verified(rule)


def _record_scope_placement(program) -> None:
    """The record hook (``Language.verify``): ``program`` is the output of a pass that preserves
    the placement and, by the contract its declaration states, each compound statement's verdict
    of the quick per-statement test (its production, a scope's mode, whether a loop body or if
    branch is one scope or empty), the body each statement is in, and the function's
    ``auto_scope``; its input met the placement, and was the last body checked or recorded (the
    pipeline verifies its stages in order, and the first stage of a run to have the invariant is
    checked in full). Its body is
    marked as passing the quick test only when that input's did, and as passing the general walk
    without asking which allocations a body yields only when that input's did (the contract
    keeps each statement in the body it was in, so what a manual scope encloses too); after a
    general walk that asked, nothing is marked (those verdicts rest on which allocations a body
    yields, which another pass may change), and the next check walks as it would have."""
    func = program.orch
    if not remark_verified(func.body, _quick_rule(func.auto_scope)):
        remark_verified(func.body, _general_rule(func.auto_scope))


_NOT_ONE_SCOPE = "a for body or if branch outside manual scopes must be one runtime scope"


def _is_scope(body) -> bool:
    return len(body) == 1 and body[0]._production == "Scope"


def _keeps_its_buffers(branch, program, held: dict) -> bool:
    """An unscoped body that yields a tensor it allocated (no compiler AUTO scope at its top)."""
    from nanopass.passes.allocations import escaping_allocations, held_allocations
    from nanopass.passes.kernels import kernel_table

    if "facts" not in held:
        held["facts"] = held_allocations(program.orch, kernel_table(program))
    if not escaping_allocations(branch, held["facts"]):
        return False
    return not any(s._production == "Scope" and s.mode is _AUTO and s.origin is _COMPILER
                   for s in branch)


def _check_bodies(body, require_scopes: bool, program=None) -> bool:
    """Raise on the first body in program order that breaks the scope rules. Returns whether it
    asked which allocations a body keeps (``_keeps_its_buffers``)."""
    held: dict = {}
    stack = [(body, False)]
    while stack:
        stmts, manual = stack.pop()
        for stmt in stmts:
            production = stmt._production
            if production == "Scope":
                if manual and stmt.mode is _AUTO:
                    raise VerifyError("an AUTO scope inside a manual scope", node=stmt)
                stack.append((stmt.body, manual or stmt.mode is _MANUAL))
                continue
            if production == "For" or production == "While":
                bodies = (stmt.body,)
            elif production == "If":
                bodies = (stmt.then, stmt.orelse)
            else:  # (no body: the usual statement)
                continue
            for branch in bodies:
                if require_scopes and not manual and branch and not _is_scope(branch):
                    if program is None or not _keeps_its_buffers(branch, program, held):
                        raise VerifyError(_NOT_ONE_SCOPE, node=stmt)
                stack.append((branch, manual))
    return bool(held)


check_scope_placement.record = _record_scope_placement  # (see ``Language.verify``)


WITH_DEPS = frozenset({"Task", "Dummy", "HostFence"})  # the statements with a dependency array
_deps_of = attrgetter("deps")


def dependencies(stmts: list) -> list:
    """The dependencies of the statements ``stmts`` (a list ``unverified_stmts`` returned) in
    order, and their productions: read in C, and kept while the same list is asked again."""

    def compute():
        deps = list(chain.from_iterable(map(_deps_of, compress(stmts, map(WITH_DEPS.__contains__, statement_kinds(stmts))))))
        return deps, set(map(_production_of, deps))

    return kept(dependencies, (stmts,), compute)


def check_no_dep_edge(program) -> None:
    """No resolved edge (``DepEdge``) before ``resolve_dep_edges`` makes them."""
    stmts = unverified_stmts(program.orch.body, check_no_dep_edge)
    deps, kinds = dependencies(stmts)
    if "DepEdge" in kinds:
        edge = next(dep for dep in deps if dep._production == "DepEdge")
        raise VerifyError("a resolved dependency edge (DepEdge) before resolve_dep_edges", node=edge)
    mark_verified(program.orch.body, check_no_dep_edge)


def check_no_alloc(program) -> None:
    """No ``Alloc`` before ``batch_tensor_creates`` makes them."""
    _refuse(program.orch.body, check_no_alloc, "Alloc", "an Alloc before batch_tensor_creates")


def check_no_declare(program) -> None:
    """No ``Declare`` before ``hoist_scope_escapes`` makes them."""
    _refuse(program.orch.body, check_no_declare, "Declare", "a Declare before hoist_scope_escapes")


def _refuse(body, rule, production: str, message: str) -> None:
    """No statement of ``production`` under ``body`` (the statements' kinds compared in C)."""
    stmts = unverified_stmts(body, rule)
    if production in statement_kind_set(stmts):
        raise VerifyError(message, node=next(s for s in stmts if s._production == production))
    mark_verified(body, rule)


check_no_dep_edge.record = recorder(check_no_dep_edge)  # (see ``Language.verify``)
check_no_alloc.record = recorder(check_no_alloc)
check_no_declare.record = recorder(check_no_declare)
# (what each refuses: a tree of a language without it meets it, ``Language.proves``)
check_no_dep_edge.excludes = ("DepEdge",)
check_no_alloc.excludes = ("Alloc", "Create")
check_no_declare.excludes = ("Declare",)


LANGUAGE = directed.LANGUAGE.extend(
    "scoped",
    doc="runtime scopes explicit: the function body and every for/if body outside manual scopes",
    add_terminals=[scope_origin],
    remove={"Stmt": ["Scope", "CompilerScope"]},
    add_nonterminals=[
        Nonterminal(
            "Create",
            Production("Create", "var:Binder", "shape:Expr*", "dtype:dtype", "manual_dep:boolean", "init:Expr?"),
        ),
    ],
    add={
        "Stmt": [
            directed.LANGUAGE.production("Scope").with_fields("origin:scope_origin", before="body"),
            Production("Alloc", "creates:Create*"),
            Production("Declare", "var:Binder"),
        ],
    },
    invariants=[check_scope_placement, check_no_dep_edge, check_no_alloc, check_no_declare],
)
