"""Which user TaskId values wait for the runs a hazard fact stands for (``Access.covers``).

A TaskId value *covers* a fact when a dependency on it orders every run the fact stands for
before the dependent task: a submit's TaskId covers the facts of its run and, through that run's
own dependencies, what they cover; a barrier covers what its dependencies cover; a copy, an
array slot written with a value, a loop carry and an if result cover what the values they may
hold all cover. A task whose dependencies cover a fact needs no compiler edge for the pairs it
forms with it (``find_hazards`` does not report them).

This is part of the dataflow of ``find_hazards``: a value's covers are in the facts' identity,
so that where paths meet, a fact covered on one path and not on another is two facts, and the
uncovered one still forms its pairs (a *must* property carried by the *may* set). Assigning a
value (a task, let, barrier, carry or if result running again) first takes its name from every
fact it covered: it holds other runs now.

Loop carries: a TaskId carried through a ``pl.parallel`` loop in a manual scope is the same value
(its init) in every iteration, and the loop's result holds every iteration's yielded value; any
other carry of a sequential loop holds its init, then each iteration's yielded value, and the
result the last of them. A ``pl.parallel`` loop outside a manual scope covers nothing through its
carries (a compiler scope made around it later reads them per iteration).
"""

from __future__ import annotations

from nanopass.languages.terms import DType, LoopKind

from .util import last_yield


NONE: frozenset = frozenset()
_TASK_ID, _PARALLEL = DType.TASK_ID, LoopKind.parallel  # (read once: a member read through its class costs a descriptor call)


def is_task_id_value(binder) -> bool:
    """A TaskId or a TaskId array."""
    ty = binder.type
    return ty._production in ("ScalarType", "ArrayType") and ty.dtype is _TASK_ID


def dep_names(stmt) -> frozenset:
    """The TaskId values a task's or barrier's dependencies name whole (a user ``DepVar`` or a
    compiler ``DerivedDep``; one slot of an array, ``arr[i]``, covers nothing the array covers)."""
    if not stmt.deps:
        return NONE
    names = []
    for d in stmt.deps:  # (a loop: no comprehension made per statement)
        if d._production in ("DepVar", "DerivedDep") and d.value._production == "Var":
            names.append(d.value.name)
    return frozenset(names) if names else NONE


def held_by(rhs) -> frozenset:
    """The values a TaskId let's right-hand side holds all of: a copy, or the value written into
    an array slot (the other slots are the old array's, minus one: nothing certain)."""
    kind = rhs._production
    if kind == "Var":
        return frozenset({rhs.name})
    if kind == "SetItem" and rhs.value._production == "Var":
        return frozenset({rhs.value.name})
    return frozenset()


def assigned_covers(covers: frozenset, names: set, assignments) -> frozenset:
    """A fact's covering names after the parallel assignment ``assignments`` (``names``: the names
    it assigns, ``Holders.assign``): less those names, plus each name one of whose sources it
    covers."""
    out = covers - names
    gained = []
    for name, sources in assignments:  # (a loop: no comprehension made per fact)
        if not covers.isdisjoint(sources):
            gained.append(name)
    return out | frozenset(gained) if gained else out


def added_covers(covers: frozenset, name: str, sources) -> frozenset:
    """A fact's covering names once ``name`` also holds what ``sources`` hold (``Holders.add``)."""
    if name in covers or covers.isdisjoint(sources):
        return covers
    return covers | {name}


def covers_after(covers: frozenset, transfers) -> frozenset:
    """A fact's covering names after ``transfers`` (``Holders.transfers``), in order: each maps a
    fact's covers on their own, whatever else is live. A fact no value covers stays so: each
    transfer gives a fact a name only for a name it covers already (none is looked at)."""
    if not covers:
        return covers
    for assigns, what in transfers:
        if assigns:
            covers = assigned_covers(covers, {name for name, _ in what}, what)
        else:
            covers = added_covers(covers, *what)
    return covers


def touched_names(transfers) -> set[str]:
    """The names whose covering facts ``transfers`` (``Holders.transfers``) may change: the names
    an assignment assigns, and the sources of either transfer."""
    names: set[str] = set()
    for assigns, what in transfers:
        if assigns:
            for name, sources in what:
                names.add(name)
                names.update(sources)
        else:
            names.update(what[1])
    return names


class Holders:
    """The covering transfer functions, applied to ``live`` (a ``LiveAccesses``) in place.

    ``transfers`` logs every transfer applied: a fact none of whose ``covers`` is among the
    names they may change it by (``touched_names``) is left as it is by all of them."""

    def __init__(self, live, read: set[str] | None = None):
        self.live = live
        # the only names a fact's covers hold (None: every name): with every name a task waits
        # for and every source of a transfer among them, a transfer to another name is not made
        self.read = read
        # every transfer applied, in order: ``(True, assignments)`` for ``assign``, ``(False,
        # (name, sources))`` for ``add`` (``covers_after`` replays them on one fact's covers)
        self.transfers: list[tuple] = []

    def assign(self, assignments) -> None:
        """A parallel assignment: each ``(name, sources)`` now holds every run its sources all
        hold (read before any name changes: a swap of carries stays right)."""
        read = self.read
        if read is not None:
            for name, _ in assignments:
                if name not in read:
                    assignments = [a for a in assignments if a[0] in read]
                    if not assignments:
                        return
                    break
        self.transfers.append((True, assignments))
        # Each fact a name or a source covers is replaced once, by the fact with its covers less
        # the names, plus each name one of whose sources it covers. Every old fact goes before
        # any new one comes: a new fact may equal another old one that changes too.
        covering = self.live.holders  # TaskId value -> the live facts it covers (read only here)
        touched: dict = {}  # fact -> None, in the order met
        for name, sources in assignments:
            for source in sources:
                found = covering.get(source)
                if found:
                    touched.update(dict.fromkeys(found))
            found = covering.get(name)
            if found:
                touched.update(dict.fromkeys(found))
        if not touched:
            return
        live = self.live
        names = set()
        for name, _ in assignments:
            names.add(name)
        changed = []
        # (plain loops, here and below: no comprehension made per assignment or per fact)
        for e in touched:
            covers = assigned_covers(e.covers, names, assignments)
            if covers != e.covers:
                changed.append((e, covers))
        if len(changed) == 1:  # (no other old fact for the new one to equal)
            e, covers = changed[0]
            live.replace(e, e.covered(covers))
            return
        for e, _ in changed:
            live.remove(e)
        for e, covers in changed:
            live.add(e.covered(covers))

    def add(self, name: str, sources) -> None:
        """``name`` also holds every run its sources hold (it accumulates them)."""
        if self.read is not None and name not in self.read:
            return
        self.transfers.append((False, (name, sources)))
        live = self.live
        for source in sources:
            for e in live.covered_by(source):
                if name not in e.covers:
                    live.replace(e, e.covered(added_covers(e.covers, name, sources)))

    def yielded(self, binders, results, yld) -> None:
        """The end of an if branch: each TaskId result among ``binders`` holds what the branch
        yields for it (``results`` in yield order)."""
        assignments = []
        for k, result in enumerate(results):
            if result in binders:
                value = yld.values[k] if yld is not None else None
                sources = frozenset({value.name}) if value is not None and value._production == "Var" else frozenset()
                assignments.append((result.name, sources))
        self.assign(assignments)

    def carries(self, loop, scope) -> LoopCarries | None:
        """The TaskId carries of ``loop`` (in manual scope ``scope``, None for AUTO), or None."""
        tids, at = [], []
        for k, it in enumerate(loop.iters):
            ty = it.var.type  # (``is_task_id_value``, inlined)
            if ty._production in ("ScalarType", "ArrayType") and ty.dtype is _TASK_ID:
                tids.append((it, loop.results[k]))
                at.append(k)
        if not tids:
            return None
        return LoopCarries(self, loop, tids, scope, at)


class LoopCarries:
    """What a loop's TaskId carries hold at its entry, at its back edge and after it: the
    transfers of each, made once (those of the names ``Holders.read`` keeps, as ``Holders.assign``
    and ``Holders.add`` would keep them)."""

    def __init__(self, holders: Holders, loop, tids, scope, at):
        """``tids``: (iter_arg, result) of each TaskId carry, ``at`` the index of each among the loop's carries."""
        self.holders = holders
        parallel = loop._production == "For" and loop.kind is _PARALLEL
        self.per_iteration = per_iteration = parallel and scope is not None
        opaque = parallel and scope is None
        yld = False  # (the body's yield, found when a carry's transfer reads what it yields)
        read = holders.read
        results, inits, back, leave = [], [], [], []
        for k, (it, result) in zip(at, tids):
            name, result_name = it.var.name, result.name
            if read is None or result_name in read:
                if per_iteration:
                    if yld is False:
                        yld = last_yield(loop.body)
                    results.append((result_name, NONE))
                    back.append((result_name, _names(yld.values[k] if yld is not None else None)))
                else:
                    leave.append((result_name, NONE if opaque else frozenset({name})))
            if (read is None or name in read):
                inits.append((name, NONE if opaque else _names(it.init)))
                if not per_iteration:
                    if not opaque and yld is False:
                        yld = last_yield(loop.body)
                    back.append((name, NONE if opaque else _names(yld.values[k] if yld is not None else None)))
        # (each a list of assignments, or of adds for ``back`` of a per-iteration loop; empty: none made)
        self.entering = [assigned for assigned in (results, inits) if assigned]
        self.back, self.leaving = back, leave

    def enter(self) -> None:
        for assignments in self.entering:
            self.holders.assign(assignments)

    def back_edge(self) -> None:
        """The end of a pass over the body (before the back edge or the exit)."""
        holders = self.holders
        if self.per_iteration:
            for name, sources in self.back:
                holders.add(name, sources)
        elif self.back:
            holders.assign(self.back)

    def leave(self) -> None:
        if self.leaving:
            self.holders.assign(self.leaving)


def _names(value) -> frozenset:
    return frozenset({value.name}) if value is not None and value._production == "Var" else NONE
