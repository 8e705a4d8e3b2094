"""Statement-level traversal shared by the languages' invariants and the passes.

Statements nest only through the body fields below, so a walk over statements never needs to
enter expressions or types (which are most of a tree's nodes).

While compiling (inside ``reusing_walks()``) walks are kept and invariants remember what passed:
trees are immutable and a pass hands unchanged statements from its input to its output, so the
statements an invariant has already checked need not be checked again (see
``unverified_stmts``), and an analysis asked again of the same nodes is not made again (``kept``).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from operator import attrgetter
from typing import Any, Hashable, Iterator

LOOPS = frozenset({"For", "While"})  # the loop statements: a counted loop, and one that runs while a condition holds
BODY_FIELDS = {"For": ("body",), "While": ("body",), "If": ("then", "orelse"), "Scope": ("body",), "CompilerScope": ("body",)}
_COMPOUND = frozenset(BODY_FIELDS)  # the statements with bodies
# production -> the getters of its first body and of its second (None for a statement of one)
_BODY_GETTERS = {
    production: (attrgetter(fields[0]), attrgetter(fields[1]) if len(fields) > 1 else None)
    for production, fields in BODY_FIELDS.items()
}
_production_of = attrgetter("_production")


class Walk:
    """One walk over a body: every statement under it in program order (``order``), and the
    statements with bodies among them (``compound``, in program order).

    ``spans()`` and ``extents()`` locate the parts of the walk in ``order`` (computed when first
    asked for): the walk of a nested body, and the subtree of each compound statement.

    A ``deferred`` walk is made when first asked for (``made``; ``order`` is None until then):
    a body marked as passing a rule without a check (``mark_verified``) is walked only if some
    check or pass asks for its walk.
    """

    __slots__ = ("body", "order", "compound", "_spans", "_extents", "_compound_ids", "_binder_names", "_binder_name_set",
                 "_shared")

    def __init__(self, body, deferred: bool = False):
        self.body = body
        self.order: list | None = None
        self.compound: list | None = None
        self._spans: dict[int, tuple[int, int]] | None = None
        self._extents: list[tuple[int, int]] | None = None
        self._compound_ids: set[int] | None = None
        self._binder_names: list[str] | None = None
        self._binder_name_set: frozenset[str] | None = None
        self._shared: tuple[Walk, bool] | None = None  # the last answer of shares_compound_with
        if not deferred:
            self._make()

    def made(self) -> "Walk":
        """This walk, made if it was deferred."""
        if self.order is None:
            self._make()
        return self

    def _make(self) -> None:
        body = self.body
        self.order, self.compound = [], []
        # The iterator of the body being walked (``current``) and, on a stack, those of the bodies
        # to go on with after it: a compound statement pushes the current one (and its second
        # body above it, if it has one) and the walk goes on in its first body.
        if type(body) is tuple and _COMPOUND.isdisjoint(map(_production_of, body)):  # straight-line code
            self.order += body  # (its statements' kinds tested in one C-level scan)
            return
        stack: list = []
        push, pop, append, add_compound = stack.append, stack.pop, self.order.append, self.compound.append
        getters_of = _BODY_GETTERS.get
        current = iter(body)
        while True:
            for stmt in current:
                append(stmt)
                getters = getters_of(stmt._production)
                if getters is not None:
                    add_compound(stmt)
                    push(current)
                    first, second = getters
                    if second is not None:
                        push(iter(second(stmt)))
                    current = iter(first(stmt))
                    break
            else:  # this body is done
                if not stack:
                    break
                current = pop()

    def spans(self) -> dict[int, tuple[int, int]]:
        """``id(nested body) -> (start, end)``: the walk of that body is ``order[start:end]``
        (the ids stay unique: the walk holds the statements, which hold their bodies)."""
        if self._spans is None:
            self._locate()
        return self._spans

    def extents(self) -> list[tuple[int, int]]:
        """``(start, end)`` of each compound statement (as listed in ``compound``) and its whole
        subtree in ``order``."""
        if self._extents is None:
            self._locate()
        return self._extents

    def _locate(self) -> None:
        # The same walk again, one iterator per body on the stack; a body ends when its iterator
        # is exhausted, a compound statement's subtree when its last body does.
        spans: dict[int, list[int]] = {}
        extents: list[list[int]] = []
        count = 0
        stack: list = [(iter(self.body), None, None)]
        fields_of = BODY_FIELDS.get
        while stack:
            stmts, span, subtree = stack[-1]
            if span is not None and span[0] < 0:  # the body begins
                span[0] = count
            for stmt in stmts:
                count += 1
                fields = fields_of(stmt._production)
                if fields:
                    whole = [count - 1, 0]
                    extents.append(whole)
                    ends = whole  # the last body's end ends the statement's subtree
                    for field in reversed(fields):
                        inner = getattr(stmt, field)
                        spans[id(inner)] = inner_span = [-1, 0]
                        stack.append((iter(inner), inner_span, ends))
                        ends = None
                    break
            else:
                stack.pop()
                if span is not None:
                    span[1] = count
                if subtree is not None:
                    subtree[1] = count
        self._spans = {key: (start, end) for key, (start, end) in spans.items()}
        self._extents = [(start, end) for start, end in extents]

    def compound_ids(self) -> set[int]:
        """The ids of the compound statements (computed once)."""
        if self._compound_ids is None:
            self._compound_ids = set(map(id, self.made().compound))
        return self._compound_ids

    def shares_compound_with(self, other: "Walk") -> bool:
        """Whether a compound statement of ``other`` is among this walk's. The last answer is
        kept: the rules checked on a body mostly last passed on the same earlier body."""
        if self._shared is None or self._shared[0] is not other:
            self._shared = (other, not other.compound_ids().isdisjoint(map(id, self.compound)))
        return self._shared[1]

    def binder_names(self) -> list[str]:
        """The names of the Binders the statements define (``defined_binders``), in order
        (computed once)."""
        if self._binder_names is None:
            names: list[str] = []
            add = names.append
            for stmt in self.order:
                kind = stmt._production
                if kind == "Task":  # the usual statements: defined_binders(stmt), inlined
                    for out in stmt.outs:
                        add(out.name if out._production == "Binder" else out.var.name)
                    if stmt.tid is not None:
                        add(stmt.tid.name)
                elif kind == "Let" or kind == "Dummy":
                    add(stmt.var.name)
                elif kind == "For" or kind == "While":
                    if kind == "For":
                        add(stmt.var.name)
                    for it in stmt.iters:
                        add(it.var.name)
                    for result in stmt.results:
                        add(result.name)
                elif kind in DEFINING:
                    names += [b.name for b in defined_binders(stmt)]
            self._binder_names = names
        return self._binder_names

    def binder_name_set(self) -> frozenset[str]:
        """The distinct names of ``binder_names()`` (computed once)."""
        if self._binder_name_set is None:
            self._binder_name_set = frozenset(self.binder_names())
        return self._binder_name_set


def iter_stmts(stmts) -> Iterator[Any]:
    """Every statement in a body, nested bodies included, in program order (no recursion).

    Inside ``reusing_walks()`` walks of tuples are kept (see ``walk_of``): the invariants of a
    language and the analyses of a pass walk the same (immutable) body many times in a row, and
    the bodies nested in it (the walk of one is a slice of the kept walk).
    """
    last = _reuse.last_walk
    if last.body is stmts:
        return iter(last.order)
    if not stmts:
        return iter(())
    if type(stmts) is tuple and last is not _NO_WALK:
        if _marked_walk(stmts) is not None:  # (a marked body: not looked for in the last walk)
            return iter(walk_of(stmts).order)
        span = last.spans().get(id(stmts))
        if span is not None:  # a body nested in the last one walked
            return iter(last.order[span[0] : span[1]])
    return iter(walk_of(stmts).order)


def walk_of(stmts) -> Walk:
    """The walk of a body. Inside ``reusing_walks()`` the last walk made is kept, and so is the
    walk of the last body to pass each rule (``mark_verified``); both are reused for the same
    tuple."""
    reuse = _reuse
    if reuse.last_walk.body is stmts:
        return reuse.last_walk
    walk = _marked_walk(stmts)
    if walk is not None:
        if walk.order is None:  # deferred: made now, and the last walk made
            walk.made()
            reuse.last_walk = walk
        return walk
    walk = Walk(stmts)
    if reuse.depth and type(stmts) is tuple:
        reuse.last_walk = walk
    return walk


def _marked_walk(stmts) -> Walk | None:
    """The walk, made or deferred, of ``stmts`` if it is marked as passing some rule."""
    for walk in _reuse.verified.values():
        if walk.body is stmts:
            return walk
    return None


def unverified_stmts(stmts, rule: Hashable) -> list:
    """The statements of ``iter_stmts(stmts)`` that ``rule`` has yet to check, in program order.

    A statement that was part of the last body to pass ``rule`` (``mark_verified``) is left out
    with its whole subtree: the same object is the same immutable subtree. Only for a rule that
    holds of each statement on its own, whatever surrounds it (not for context-dependent rules).
    """
    walk = walk_of(stmts)
    passed = _reuse.verified.get(rule)
    if passed is walk:
        return []
    if passed is None or not walk.shares_compound_with(passed):
        return walk.order
    known = passed.compound_ids()
    order = walk.order
    out: list = []
    start = 0  # order[start:] is not yet decided
    for stmt, (position, end) in zip(walk.compound, walk.extents()):
        if position >= start and id(stmt) in known:
            out += order[start:position]
            start = end
    out += order[start:]
    return out


def unverified_compound(stmts, rule: Hashable) -> list:
    """The compound statements (those with bodies) of ``unverified_stmts(stmts, rule)``: for a
    rule that only concerns them."""
    walk = walk_of(stmts)
    passed = _reuse.verified.get(rule)
    if passed is walk:
        return []
    if passed is None or not walk.shares_compound_with(passed):
        return walk.compound
    known = passed.compound_ids()  # a compound statement known holds known ones only
    return [stmt for stmt in walk.compound if id(stmt) not in known]


def passed_last(stmts, rule: Hashable) -> bool:
    """Whether the body ``stmts`` is the last body to pass ``rule`` (``mark_verified``): the same
    object, so the same immutable statements. For a rule that depends on the body alone."""
    passed = _reuse.verified.get(rule)
    return passed is not None and passed.body is stmts


def mark_verified(stmts, rule: Hashable) -> None:
    """Record that the body ``stmts`` passed ``rule`` (an invariant, or a key naming one), every
    statement under it included. Kept until the next body passes it, inside ``reusing_walks()``.
    The body's walk is not made for the mark (deferred, ``Walk``): a pass's output known to meet
    a rule it preserves is marked so, and no one may ask for its walk."""
    reuse = _reuse
    if reuse.depth and type(stmts) is tuple:
        walk = reuse.last_walk
        if walk.body is not stmts:
            walk = _marked_walk(stmts) or Walk(stmts, deferred=True)
        reuse.verified[rule] = walk


def forget_verified(rule: Hashable) -> None:
    """Forget the body that last passed ``rule`` (``mark_verified``): for a rule whose record hook
    marks a body only while the last body checked passed it (``remark_verified``)."""
    _reuse.verified.pop(rule, None)


def remark_verified(stmts, rule: Hashable) -> bool:
    """If some body is marked as having passed ``rule`` (``mark_verified``, not forgotten since),
    mark ``stmts`` in its place, and return True. For a record hook whose rule holds of a pass's
    output whenever it held of the pass's input, the last body checked (see the hook's contract)."""
    if _reuse.verified.get(rule) is None:
        return False
    if not passed_last(stmts, rule):
        mark_verified(stmts, rule)
    return True


def recorder(rule: Hashable):
    """The ``record`` hook (``Language.verify``) of an invariant whose check marks the body it
    passes under ``rule`` (``mark_verified``): the body of a tree known to meet it is marked so."""

    def record(program) -> None:
        body = program.orch.body
        if not passed_last(body, rule):
            mark_verified(body, rule)

    return record


def kept(analysis: Hashable, of: tuple, compute):
    """``compute()``, the result of ``analysis`` on the nodes ``of``; inside ``reusing_walks()``
    the last result of each analysis is kept and returned again while it is asked of the same
    nodes (by identity: trees are immutable, and a pass hands the nodes it leaves unchanged to
    the next). For an analysis whose result depends on those nodes alone, and that no caller
    changes."""
    if not _reuse.depth:
        return compute()
    kept_results = _reuse.kept
    last = kept_results.get(analysis)
    if last is not None and len(last[0]) == len(of) and all(a is b for a, b in zip(last[0], of)):
        return last[1]
    result = compute()
    kept_results[analysis] = (of, result)
    return result


def kept_result(analysis: Hashable, of: tuple):
    """The result ``kept`` holds for ``analysis`` asked of the nodes ``of`` (by identity), or None
    when it holds none (outside ``reusing_walks()``, or not asked of these nodes last): for an
    asker with a cheaper way of its own when no earlier pass made the analysis."""
    if not _reuse.depth:
        return None
    last = _reuse.kept.get(analysis)
    if last is not None and len(last[0]) == len(of) and all(a is b for a, b in zip(last[0], of)):
        return last[1]
    return None


def carry_kept(analysis: Hashable, old, new) -> None:
    """Inside ``reusing_walks()``: if the kept result of ``analysis`` (``kept``) was asked of
    nodes among which is ``old``, keep it as the result for the same nodes with ``new`` in
    ``old``'s place. For a pass whose output ``new`` differs from its input ``old`` only in what
    ``analysis`` does not read: the next pass to ask gets the result without a new walk."""
    last = _reuse.kept.get(analysis)
    if last is not None and any(node is old for node in last[0]):
        _reuse.kept[analysis] = (tuple(new if node is old else node for node in last[0]), last[1])


_NO_WALK = Walk(())


class _Reuse(threading.local):
    """What ``reusing_walks()`` keeps, one set per thread (compiles in threads share nothing)."""

    def __init__(self) -> None:
        self.last_walk: Walk = _NO_WALK
        self.verified: dict[Hashable, Walk] = {}  # rule (an invariant, or a key naming one) -> the walk of the last body that passed it
        self.kept: dict[Hashable, tuple[tuple, Any]] = {}  # analysis -> (the nodes it was asked of, its result) (see ``kept``)
        self.depth = 0  # nested ``reusing_walks()`` of this thread


_reuse = _Reuse()


@contextmanager
def reusing_walks():
    """Keep walks and what passed the invariants while compiling; forget them after (they hold
    whole trees)."""
    reuse = _reuse
    reuse.depth += 1
    try:
        yield
    finally:
        reuse.depth -= 1
        if not reuse.depth:
            reuse.last_walk = _NO_WALK
            reuse.verified.clear()
            reuse.kept.clear()


DEFINING = frozenset({"Let", "Dummy", "Task", "For", "While", "If", "Alloc"})  # the statements that define Binders


def defined_binders(stmt) -> list:
    """Every Binder a statement itself defines (loop variables and carries included)."""
    # (Plain loops: a comprehension costs a call of its own, and these lists are short.)
    kind = stmt._production
    if kind == "Task":
        binders = list(stmt.outs)
        if stmt.tid is not None:
            binders.append(stmt.tid)
        return binders
    if kind == "Let" or kind == "Dummy":
        return [stmt.var]
    if kind == "For" or kind == "While":
        binders = [stmt.var] if kind == "For" else []
        for it in stmt.iters:
            binders.append(it.var)
        binders += stmt.results
        return binders
    if kind == "If":  # results: Binders, or Phis holding one (none in surface)
        binders = []
        for result in stmt.results if "results" in stmt._fields else ():
            binders.append(result.var if "var" in result._fields else result)
        return binders
    if kind == "Alloc":
        return [create.var for create in stmt.creates]
    return []


def binders_in_order(stmts, if_results_first: bool = False) -> Iterator[Any]:
    """Every Binder under a body, Declare's included, in the order a pre-order tree walk meets
    them (a loop's variable and iter_args before its body, its results after; an if's results
    after its branches, or before them with ``if_results_first``), without entering expressions
    or types."""
    return iter(binder_list(stmts, if_results_first))


def binder_list(stmts, if_results_first: bool = False) -> list:
    """``binders_in_order`` as a list (built in one loop: no generator step per binder)."""
    out: list = []
    add, more = out.append, out.extend
    stack: list = list(stmts)
    stack.reverse()
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        item = pop()
        if type(item) is list:  # binders a statement defines after its bodies
            more(item)
            continue
        kind = item._production
        if kind == "Task":  # the usual statements first: defined_binders(item), inlined
            for binder in item.outs:
                add(binder if binder._production == "Binder" else binder.var)
            if item.tid is not None:
                add(item.tid)
        elif kind == "Let" or kind == "Dummy" or kind == "Declare":
            add(item.var)
        elif kind == "For" or kind == "While":
            if kind == "For":
                add(item.var)
            for it in item.iters:
                add(it.var)
            push([r.var if "var" in r._fields else r for r in item.results])
            extend(reversed(item.body))
        elif kind == "If":
            results = [r.var if "var" in r._fields else r for r in item.results]
            if if_results_first:
                more(results)
            else:
                push(results)
            extend(reversed(item.orelse))
            extend(reversed(item.then))
        elif kind == "Scope" or kind == "CompilerScope":
            extend(reversed(item.body))
        elif kind in DEFINING:  # (the others, a Yield, a Return..., define nothing)
            more(defined_binders(item))
    return out


def statement_kinds(stmts: list) -> list:
    """The productions of ``stmts`` (a list ``unverified_stmts`` returned), in order: read in C,
    and kept while the same list is asked again (``kept``: the invariants of a stage that no
    earlier one checked get the same list, the body's walk)."""
    return kept(statement_kinds, (stmts,), lambda: list(map(_production_of, stmts)))


def statement_kind_set(stmts: list) -> frozenset:
    """The distinct productions of ``stmts`` (``statement_kinds``), kept as they are: whether a
    kind is among them asked in one lookup (made when first asked)."""
    return kept(statement_kind_set, (stmts,), lambda: frozenset(statement_kinds(stmts)))
