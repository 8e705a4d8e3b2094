"""ssa: every variable is defined exactly once.

Adds results to ``If`` (the values merged from its branches, "phis"). Loop carries are explicit:
a name re-assigned in a loop body is an iter_arg whose init is the value before the loop, whose
new value is yielded at the end of the body, and whose value after the loop is a result.

Invariants: every name is bound once (parameters included); a loop with iter_args ends its body
with a ``Yield`` of as many values; an ``If`` with results ends both branches with such a
``Yield``; no other ``Yield`` appears.
"""

import threading

from nanopass.errors import VerifyError

from . import surface
from .statements import defined_binders, iter_stmts, mark_verified, passed_last, recorder, unverified_compound, walk_of


_STRAY_YIELD = "a Yield outside the end of a loop or branch body"


class _Handed(threading.local):
    """The names of the Binders of a body, as the pass that built it defined them
    (``hand_binder_names``): one body at a time, per thread."""

    body: tuple | None = None
    names: list[str] = []


_handed = _Handed()


def hand_binder_names(body, names: list[str]) -> None:
    """A pass's word that ``names`` lists the name of every Binder under ``body`` (its
    ``Walk.binder_names()``, in any order), each once per definition: the pass recorded each
    name as it made the binder. ``check_single_definition`` of that body reads them instead of
    walking its binders (once: the word is dropped when read; tests check it on every program)."""
    _handed.body, _handed.names = body, names


def check_single_definition(program) -> None:
    func = program.orch
    # A Declare announces a later definition: not one itself. (The body's names are kept with
    # its walk, which is kept while the body is the last one to pass this check; or handed by
    # the pass that built it.) A body that passed last with the same parameter names passes again.
    outer = [p.name for p in func.params] + [d.name for d in func.dyn_dims]
    rule = _single_definition_rule(outer)
    handed = _handed.body is func.body
    if handed:
        body_names = _handed.names
        _handed.body, _handed.names = None, []
    if passed_last(func.body, rule):
        return
    if handed:
        distinct = set(body_names)
    else:
        walk = walk_of(func.body)
        body_names = walk.binder_names()
        distinct = walk.binder_name_set()
    if len(distinct) == len(body_names) and len(set(outer)) == len(outer) and distinct.isdisjoint(outer):
        mark_verified(func.body, rule)
        return
    seen: set[str] = set()
    nodes = list(func.params) + list(func.dyn_dims)
    nodes += [b for stmt in iter_stmts(func.body) for b in defined_binders(stmt)]
    for node in nodes:
        if node.name in seen:
            raise VerifyError(f"'{node.name}' is defined more than once", node=node)
        seen.add(node.name)


def _single_definition_rule(outer: list[str]) -> tuple:
    """The key under which a body that passed ``check_single_definition`` with the parameter
    (and dynamic dimension) names ``outer`` is remembered."""
    return (check_single_definition, tuple(outer))


def _record_single_definition(program) -> None:
    func = program.orch
    rule = _single_definition_rule([p.name for p in func.params] + [d.name for d in func.dyn_dims])
    if not passed_last(func.body, rule):
        mark_verified(func.body, rule)


def check_yields(program) -> None:
    body = program.orch.body
    for node in unverified_compound(body, check_yields):
        production = node._production
        if production == "For" or production == "While":
            arity = len(node.iters)
            if len(node.results) != arity:
                raise VerifyError("a loop needs one result per iter_arg", node=node)
            stmts = node.body
            last = stmts[-1] if stmts else None
            # (the usual loop that carries: its body ends with its Yield, no scope to see through;
            # ``_check_carry_body``'s verdict on it, inline; an if's branch that merges too)
            if arity and last is not None and last._production == "Yield" and len(last.values) == arity:
                if len(stmts) == 2:
                    if stmts[0]._production == "Yield":
                        raise VerifyError(_STRAY_YIELD, node=stmts[0])
                elif len(stmts) > 2:
                    _check_no_inner_yield(stmts)
                continue
            _check_carry_body(stmts, arity, node)
        elif production == "If":
            arity = len(node.results)
            for stmts in (node.then, node.orelse):  # (each branch as the usual loop body above, inline)
                last = stmts[-1] if stmts else None
                if arity and last is not None and last._production == "Yield" and len(last.values) == arity:
                    if len(stmts) == 2:
                        if stmts[0]._production == "Yield":
                            raise VerifyError(_STRAY_YIELD, node=stmts[0])
                    elif len(stmts) > 2:
                        _check_no_inner_yield(stmts)
                    continue
                _check_carry_body(stmts, arity, node)
        elif production == "Scope" or production == "CompilerScope":  # (a scope an earlier pass placed too)
            stmts = node.body
            if len(stmts) == 2:  # (the usual scope of a loop body: a statement and the Yield, inline)
                if stmts[0]._production == "Yield":
                    raise VerifyError(_STRAY_YIELD, node=stmts[0])
            else:
                _check_no_inner_yield(stmts)
    for stmt in body:
        if stmt._production == "Yield":
            raise VerifyError(_STRAY_YIELD, node=stmt)
    mark_verified(body, check_yields)


def _check_carry_body(body, arity: int, owner) -> None:
    """A loop or branch body: a Yield of ``arity`` values ends it (seen through compiler-inserted
    scopes) when ``arity`` is not 0, and no Yield ends it otherwise; no Yield comes before its end."""
    stmts = body
    last = stmts[-1] if stmts else None
    # (Scope [...]) put there by the compiler, alone in the body, stands for its contents
    while last is not None and len(stmts) == 1 and last._production == "Scope" and getattr(last, "origin", None) is not None:
        stmts = last.body
        last = stmts[-1] if stmts else None
    if arity == 0:
        if last is not None and last._production == "Yield":
            raise VerifyError("a Yield in a body that has nothing to carry", node=owner)
    elif last is None or last._production != "Yield" or len(last.values) != arity:
        raise VerifyError(f"body must end with a Yield of {arity} value(s)", node=owner)
    if len(body) > 1:
        _check_no_inner_yield(body)


def _check_no_inner_yield(stmts) -> None:
    for i in range(len(stmts) - 1):
        if stmts[i]._production == "Yield":
            raise VerifyError(_STRAY_YIELD, node=stmts[i])


# What the pipeline knows to hold of a tree without a check (``Language.verify``'s ``known``: a
# pass that preserves it made the tree) is remembered as a check that passed would remember it.
check_single_definition.record = _record_single_definition
check_yields.record = recorder(check_yields)

LANGUAGE = surface.LANGUAGE.extend(
    "ssa",
    doc="single assignment: loop carries and branch merges explicit",
    remove={"Stmt": ["If"]},
    add={"Stmt": [surface.LANGUAGE.production("If").with_fields("results:Binder*")]},
    invariants=[check_single_definition, check_yields],
)
