"""Static hazards of a program in the ``directed`` language, and how the runtime orders them.

Storage: every tensor variable names one or more *roots* (a tensor parameter or a created
buffer) and a *region* of each: the whole buffer, a constant box (from ``pl.tensor.slice`` with
constant shape and offset), or unknown (overlaps everything, covers nothing); a transpose or
reshape of the whole buffer is the whole buffer indexed otherwise, so a slice of it is unknown. Tensors created
with ``manual_dep=True`` are not tracked (the user opted out), nor are views that may alias only
such tensors (``decide_view_tracking`` makes the runtime agree); neither are NoDep slots.

Accesses: a task reads its Input and InOut arguments and writes its InOut, OutputExisting and
Output ones, and each output the runtime allocates for it (a fresh buffer: it pairs with no
earlier access of the same root, which was another buffer). A host element read or write
(``host_accesses``) is an access too, but only ever the later one of a pair: it returns once
what it waits for has completed, so it pairs with the facts it meets and then kills those it
shares an element with on every run (the runtime's wait is by region: an unknown region may
share none).

The pairs are the solution of a forward *may* dataflow problem over the program's control flow:

- a *fact* is a live access (one that no later write has certainly superseded) together with
  which runs of its submit site it stands for: ``stale`` False for the site's latest run, True
  for runs older than the latest one (the site has run again since: several runs may be live);
  ``closed`` when its run's MANUAL scope instance has ended (a task of a later instance of the
  same static scope is across a boundary from it); ``earlier_iteration`` the ``pl.parallel``
  loops it ran in an earlier iteration of;
- the lattice is the sets of facts ordered by inclusion; the join, at branch merges and at loop
  heads, is union; a loop's head is the least fixpoint of ``head = before | end_of_body(head)``
  (the back edge tags the facts of ``pl.parallel`` iterations as from an earlier iteration);
- the transfer of a task with accesses ``A``: (1) *meet*: every live fact on the root of an access
  of ``A`` whose region overlaps it forms a pair with it (facts of writes with every access, facts
  of reads with writes), except facts of another iteration of a ``pl.parallel`` loop around both;
  (2) *rerun*: every live fact of this site becomes stale; (3) *kill*: a *must* write of ``A``
  (its argument is one region of one root, not a carry or branch result that may hold one of
  several) removes the facts its region covers that it is ordered after (not those of another
  iteration of a ``pl.parallel`` loop around both), and nothing else kills: a kill in one branch is
  undone at the merge unless the other branch kills too, and after a loop that may not run (not
  a known trip count of at least one, ``trip_count``: constant bounds, or a ``While`` counting a
  carry from a constant to a constant; any other ``While``'s condition is known only at run time)
  the head flows on, the state before the loop included; (4) *gen*: ``A``'s accesses, fresh;
- every transfer maps each fact on its own (and adds its own accesses), so a pass over a
  ``pl.parallel`` loop's body whose new head facts no transfer of the body changes (each of an
  earlier iteration, not rerun, its covering names untouched, its root not renewed, its scope not
  closed: ``settled``) is the last one: the next would end where it did and form no other pair;
  and a pass after the first follows the facts the head gained alone (``follow``): a fact of an
  earlier iteration meets and is killed by no access of the body, so the pass from the whole
  head would form the first pass's pairs again and end in the union of where the first pass
  ended and where the gained facts alone end; over a body without branches or loops that pass
  applies to each gained fact the transfers the first pass logged (``replays_follow``), and a
  loop that certainly runs keeps the state its first pass ends in, the head's facts of earlier
  iterations apart (``keeps_first_pass``);
- a loop of a known trip count (``trip_count``) of exactly one has no back edge: its body is analysed
  once, as straight-line code; a sequential one of a few known iterations (``UNROLL_LIMIT``) whose
  tensor carries hold other places in other iterations (a carry started from one tensor and
  yielded another, a swap) has none either: its body is analysed once per iteration, in order,
  each time with the places the carries and what the body makes from them have in that
  iteration (``iteration_stores``), so an access of a carry is of the one root it is on that
  trip, not of every root it is on some trip;
- the transfer of a ``pl.create_tensor`` running again: its root names a new buffer, so every
  fact of the root is removed, unless a loop carry may still hold the buffer an earlier run made
  (``carried_allocations``);
- the transfer of leaving the outermost MANUAL scope: every live fact of its instance is closed.

Two iterations of one ``pl.parallel`` loop are independent (that is what the user asserts by
writing ``pl.parallel``), so accesses in different iterations of it form no pair.

What a pair needs is the edge writer's business (``dep_edges``): a fresh fact stands for exactly
the latest run of its site, a stale one for possibly several, which only a join (or a chain of the
runs, ``Hazards.chained``) waits for. ``runtime_orders`` is the PTO2 runtime's own ordering
(runtime-api.md section 11): in AUTO scopes a reader or InOut writer waits for earlier published
writers; readers are never recorded, so a write-after-read is ordered only between two InOut
tasks; nothing is ordered inside, into or out of a MANUAL scope.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

from nanopass.languages.terms import ArgDir, LoopKind, ScopeMode

from nanopass.languages.statements import binders_in_order, kept

from .aliases import buffer_roots
from .allocations import allocated_by, held_allocations, made_in, makes_allocations
from .kernels import output_params
from .holders import Holders, covers_after, dep_names, held_by, is_task_id_value, touched_names
from .host_accesses import host_accesses
from .live_accesses import LiveAccesses, RegionIndex
from .regions import FULL, FULL_VIEW, UNKNOWN, Box, Full, covers, overlaps
from .util import BODY_FIELDS, defined_binders, iter_stmts, last_yield, unscoped, var_reads

__all__ = [
    # the regions, re-exported: callers take them from here with the accesses
    "FULL", "FULL_VIEW", "UNKNOWN", "Box", "Full", "covers", "overlaps",
    "NONE", "READS", "WRITES", "UNROLL_LIMIT",
    "Access", "Hazards", "Site", "WalkState",
    "carried_allocations", "find_hazards", "hazard_kind", "host_accessed_roots", "is_parallel", "iteration_stores",
    "keeps_first_pass", "prework", "Prework", "replays_follow", "war_roots", "WAR_ROOTS",
    "MetPastRuntime", "placed_in_manual_scopes", "roots_met_past_runtime", "runtime_orders", "shared_in_loops", "storage_map", "storage_with_slices", "sub_region", "task_accesses", "trip_count",
    "unordered_war_possible", "untracked_roots", "untracked_unless_manual", "walk_storage",
]

def trip_count(loop) -> int | None:
    """How many times ``loop`` runs, when that is known before it runs: a ``For`` of constant
    bounds (``static_trip_count``), or a ``While`` that counts one carry up from a constant by a
    constant step while it is below (or at most) a constant (``pl.while_(init_values=(0, ...))``,
    ``pl.cond(i < 2)``, yielding ``i + 1``: nothing else changes the carry)."""
    if loop._production != "While":
        if loop._production != "For":
            return None
        start, stop, step = loop.start, loop.stop, loop.step  # (``static_trip_count``, without its generator)
        if start._production != "Int" or stop._production != "Int" or step._production != "Int" or step.value <= 0:
            return None
        return max(0, (stop.value - start.value + step.value - 1) // step.value)
    cond, yld = loop.cond, last_yield(loop.body)
    if yld is None or cond._production != "Cmp" or cond.op.name not in ("lt", "le"):
        return None
    if cond.a._production != "Var" or cond.b._production != "Int":
        return None
    for k, it in enumerate(loop.iters):
        if it.var.name != cond.a.name:
            continue
        step = yld.values[k]
        if it.init._production != "Int" or step._production != "Bin" or step.op.name != "add":
            return None
        operands = (step.a, step.b) if step.a._production == "Var" else (step.b, step.a)
        if operands[0]._production != "Var" or operands[0].name != it.var.name or operands[1]._production != "Int":
            return None
        by = operands[1].value
        stop = cond.b.value + (1 if cond.op.name == "le" else 0)
        return max(0, (stop - it.init.value + by - 1) // by) if by > 0 else None
    return None


# -- storage -----------------------------------------------------------------------------------------


def sub_region(parent, shape, offset):
    """The region of ``parent`` a slice of constant ``shape`` at constant ``offset`` takes (relative
    to ``parent``: a box of it, or the whole buffer's box); UNKNOWN when either is not constant or
    ``parent`` is no box of as many dimensions."""
    offs = []
    for e in offset:
        if e._production != "Int":
            return UNKNOWN
        offs.append(e.value)
    dims = []
    for e in shape:
        if e._production != "Int":
            return UNKNOWN
        dims.append(e.value)
    # (C-level maps and the tuple constructor, not generators and Box's Python-level __new__)
    if parent is FULL:
        lo = tuple(offs)  # (0 + o: an Int's value is an int)
    elif isinstance(parent, Box) and len(parent.lo) == len(offs):
        lo = tuple(map(_add, parent.lo, offs))
    else:
        return UNKNOWN
    return _tuple_new(Box, (lo, tuple(map(_add, lo, dims))))


_add, _tuple_new = operator.add, tuple.__new__


def storage_map(func, kernels: dict[str, Any]) -> dict[str, frozenset]:
    """name -> frozenset of (root, region) for every tensor variable (loop carries to a fixpoint).

    One walk in program order: a value's places are final once the places of the values it is
    made from are (each is defined before it is used), except around a loop, whose iter_args
    also hold what its body yields; a loop's body is walked again until its yields add nothing.
    The result of a loop of constant bounds that runs holds what its last iteration yields (a
    yielded iter_arg of the loop, a swap or rotation of carries, followed iteration by iteration
    from the inits); of any other loop, its init's and its yielded value's places.

    Cost: a loop's body is walked once each time its parent body is, plus once each time its
    yields add places to its iter_args. Each of those adds at least one (name, place) pair, so
    no body is walked more than ``1 + G`` times, ``G`` being the number of pairs yields add in
    the whole walk (at most names times places): ``O(size * (1 + G))``, not a product over the
    nesting depth; where no carry changes buffers (``G = 0``) every body is walked once.
    """
    # (asked by several passes of the same function: check_output_params_written, then
    # order_write_after_read, whose inputs are the same tree unless a pass between changed it)
    return kept(storage_map, (func, *kernels.values()), lambda: _storage_map(func, kernels))


def _storage_map(func, kernels: dict[str, Any]) -> dict[str, frozenset]:
    store: dict[str, frozenset] = {}
    for param in func.params:
        if param.type._production == "TensorType":
            store[param.name] = frozenset({(param.name, FULL)})
    walk_storage(func.body, store, kernels)
    return store


def storage_with_slices(store: dict[str, frozenset], sliced: dict[str, tuple], holders: dict[str, set]) -> dict[str, frozenset]:
    """``storage_map`` of the function whose map is ``store`` with the create of each name of
    ``sliced`` made ``pl.tensor.slice(base, shape, offset)`` (``sliced[name] = (base, shape,
    offset, rows)``, a base defined before the create; ``rows``, if not None, the places of the
    slice when no place of the base is another such name's), nothing else changed: without a walk.
    ``holders[name]`` holds (at least) every name with a place of the buffer ``name``. A place
    ``(name, region)`` becomes ``(root, region within it)`` for each place ``(root, rows)`` the
    slice is: the walk reaches it through the same copies, results, carries and views, and every
    step of it maps each place on its own (a view's region is the same box shifted by ``rows``'
    corner, or UNKNOWN where ``sub_region`` would give it)."""
    nothing: frozenset = frozenset()
    rows_of: dict[str, frozenset] = {}

    def rows(name: str) -> frozenset:  # the places of the slice ``name`` is
        got = rows_of.get(name)
        if got is None:
            base, shape, offset, made = sliced[name]
            rows_of[name] = nothing  # (a base is defined before the slice: never asked again here)
            places = store.get(base, nothing)
            moved = mapped(places)
            if made is not None and moved is places:  # (the slice's places, as the caller made them)
                got = rows_of[name] = made
            else:
                got = rows_of[name] = frozenset([(r, sub_region(g, shape, offset)) for r, g in moved])
        return got

    def mapped(places: frozenset) -> frozenset:
        if len(places) == 1:  # (mostly: one place, a source's whole buffer or none)
            for root, region in places:
                if root not in sliced:
                    return places
                if region is FULL:
                    return rows(root)
        out = None
        for root, region in places:
            if root in sliced:
                out = []
                break
        if out is None:
            return places
        for root, region in places:
            if root not in sliced:
                out.append((root, region))
            elif region is FULL:
                out += rows(root)
            else:
                for r, g in rows(root):  # (g: a box or UNKNOWN, never the whole buffer)
                    if isinstance(region, Box) and isinstance(g, Box) and len(g.lo) == len(region.lo):
                        out.append((r, _tuple_new(Box, (tuple(map(_add, g.lo, region.lo)), tuple(map(_add, g.lo, region.hi))))))
                    else:
                        out.append((r, UNKNOWN))
        return frozenset(out)

    out = dict(store)
    get = store.get
    for src, (base, _, _, made) in sliced.items():
        whole = rows_of.get(src)
        if whole is None:
            clean = made is not None  # (``rows``' answer, when the base's places are no slice's)
            if clean:
                for root, _ in get(base, nothing):
                    if root in sliced:
                        clean = False
                        break
            whole = rows_of[src] = made if clean else rows(src)
        for name in holders.get(src, ()):
            places = get(name)
            if places is None:
                continue
            if len(places) == 1 and (src, FULL) in places:  # (``mapped``'s answer)
                out[name] = whole
            else:
                out[name] = mapped(places)
    return out


# Whether ``walk_storage`` takes its loop shortcuts (a loop without tensor carries, a loop none of
# whose carries yields a carry); off only in the tests that compare the two.
LOOP_SHORTCUTS = True


def walk_storage(stmts, store: dict[str, frozenset], kernels: dict[str, Any]) -> None:
    """``storage_map``'s walk of ``stmts``, adding to ``store`` the places of what they define."""
    nothing: frozenset = frozenset()
    shortcuts = LOOP_SHORTCUTS

    def of(expr) -> frozenset:
        return store.get(expr.name, nothing) if expr is not None and expr._production == "Var" else nothing

    def grow(name: str, value: frozenset) -> bool:
        """Add ``value`` to the places of ``name``; whether that added anything."""
        old = store.get(name, nothing)
        if value <= old:
            return False
        store[name] = old | value
        return True

    def last_yields(carries, runs: int) -> list[frozenset]:
        """The places each carry's yielded value may have in the last of ``runs`` iterations: a
        yielded iter_arg of the loop (a swap or rotation of carries) holds what its carry held one
        iteration before, from the inits on; any other value, its places in every iteration."""
        index = {it.var.name: k for k, (it, _, _) in enumerate(carries)}
        source = [index.get(y.name) if y is not None and y._production == "Var" else None for _, _, y in carries]
        if shortcuts and source.count(None) == len(source):  # (no carry yields a carry: each holds its yielded value's places)
            return [of(y) for _, _, y in carries]
        held = tuple(of(it.init) for it, _, _ in carries)  # each iter_arg's places in iteration t
        seen: dict[tuple, int] = {}
        t = 0
        while t < runs - 1:
            if held in seen:  # periodic from here: skip the whole periods left
                period = t - seen[held]
                t += (runs - 1 - t) // period * period
                seen = {}
                if t >= runs - 1:
                    break
            seen[held] = t
            held = tuple(held[j] if j is not None else of(y) for j, (_, _, y) in zip(source, carries))
            t += 1
        return [held[j] if j is not None else of(y) for j, (_, _, y) in zip(source, carries)]

    def flow_once(carries) -> None:
        """A loop that runs exactly once: its iter_args hold the inits only, its results the
        yielded values only."""
        for it, _, _ in carries:
            grow(it.var.name, of(it.init))

    outs_of: dict[str, tuple] = {}  # kernel -> output_params, read once

    def body(stmts) -> None:
        # (a let's and a task's ``grow`` and ``of`` written out: most statements are those)
        get = store.get
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                var = stmt.var
                if var.type._production != "TensorType":
                    continue
                v = stmt.value
                vk = v._production
                if vk == "Var":
                    value = get(v.name, nothing)
                elif vk == "CreateTensor":
                    value = frozenset(((var.name, FULL),))
                elif vk == "SliceTensor":
                    value = frozenset([(r, sub_region(g, v.shape, v.offset)) for r, g in of(v.tensor)])
                elif vk in ("TransposeTensor", "ReshapeTensor"):  # the whole buffer, indexed otherwise
                    value = frozenset([(r, FULL_VIEW if isinstance(g, Full) else UNKNOWN) for r, g in of(v.tensor)])
                elif vk == "AssembleTensor":
                    value = of(v.target)
                else:
                    continue
                old = get(var.name)
                if old is None:  # (mostly: a name defined once; its places are the value's own set)
                    if value:
                        store[var.name] = value
                elif not (value is old or value <= old):
                    store[var.name] = old | value
            elif kind == "Task":
                outs = outs_of.get(stmt.kernel)
                if outs is None:
                    outs = outs_of[stmt.kernel] = output_params(kernels[stmt.kernel])
                args = stmt.args
                for i, binder in enumerate(stmt.outs):
                    p = outs[i]
                    if p is not None and p < len(args):
                        arg = args[p].value
                        value = get(arg.name, nothing) if arg._production == "Var" else nothing
                    else:  # a runtime-allocated output: a new buffer
                        value = frozenset(((binder.name, FULL),))
                    old = get(binder.name)
                    if old is None:  # (as a let's)
                        if value:
                            store[binder.name] = value
                    elif not (value is old or value <= old):
                        store[binder.name] = old | value
            elif kind == "For" or kind == "While":
                inner = stmt.body
                iters = stmt.iters
                if shortcuts and not iters:  # (no carry: its body once, whatever it runs)
                    body(inner)
                    continue
                if kind == "For":  # (``trip_count`` of a For written out)
                    start, stop, step = stmt.start, stmt.stop, stmt.step
                    if start._production == "Int" and stop._production == "Int" and step._production == "Int" and step.value > 0:
                        runs = (stop.value - start.value + step.value - 1) // step.value
                        runs = runs if runs > 0 else 0
                    else:
                        runs = 0  # 0: unknown (or none)
                else:
                    runs = trip_count(stmt) or 0
                # (plain loops, not comprehensions: each of those is a function call of its own)
                last = unscoped(inner) if len(inner) == 1 else inner  # (``last_yield`` written out)
                yld = last[-1] if last and last[-1]._production == "Yield" else None
                yielded = yld.values if yld is not None else None
                results = stmt.results
                # (one carry, mostly, or one tensor carry beside carries of other types (a
                # TaskId's, which hold no places), that does not yield itself: the path below for
                # it alone, without its lists and loops)
                alone = shortcuts and runs != 1 and len(iters) == 1 and len(results) == 1
                if alone:
                    at = 0  # (the carry it is)
                elif shortcuts and runs != 1 and len(iters) == len(results):
                    at = -1  # (the index of the one tensor carry; -2: several)
                    for k in range(len(iters)):
                        if iters[k].var.type._production == "TensorType":
                            at = k if at == -1 else -2
                    if at == -1:  # (no tensor carry: the body once, as below)
                        body(inner)
                        continue
                    alone = at >= 0
                if alone:
                    it = iters[at]
                    y = yielded[at] if yielded is not None else None
                    yname = y.name if y is not None and y._production == "Var" else None
                    alone = not runs or yname != it.var.name
                if alone:
                    if it.var.type._production != "TensorType":
                        body(inner)
                        continue
                    name, rname = it.var.name, results[at].name
                    init = it.init
                    first = get(init.name, nothing) if init is not None and init._production == "Var" else nothing
                    unknown, walked = not runs, False
                    while True:
                        merged = first
                        if yname is not None:
                            more = get(yname)
                            if more is not None and more is not merged and not more <= merged:
                                merged = more if merged <= more else merged | more
                        old = get(name)
                        if old is None:
                            grew = bool(merged)
                            if grew:
                                store[name] = merged
                        elif merged is old or merged <= old:
                            grew = False
                        else:
                            store[name] = old | merged
                            grew = True
                        if unknown:
                            old = get(rname)
                            if old is None:
                                if merged:
                                    store[rname] = merged
                            elif not (merged is old or merged <= old):
                                store[rname] = old | merged
                        if walked and not grew:
                            break
                        body(inner)
                        walked = True
                    if runs:  # (runs > 1: the result is the last iteration's yield)
                        grow(rname, get(yname, nothing) if yname is not None else nothing)
                    continue
                carries = []
                k = 0
                for it, result in zip(iters, results):
                    if it.var.type._production == "TensorType":
                        carries.append((it, result, yielded[k] if yielded is not None else None))
                    k += 1
                if shortcuts and not carries:  # (nothing flows around the loop: its body once, whatever it runs)
                    body(inner)
                    continue
                if runs == 1:
                    flow_once(carries)
                    body(inner)
                    for it, result, y in carries:
                        grow(result.name, of(y))
                    continue
                # Each carry (iter_arg, and its result too where runs is unknown) takes its init's
                # and its yielded value's places; then the body; again, and the body again while
                # that grew an iter_arg (the body's yields reached it). An init's places are read
                # once: they are final before the loop.
                inits = []
                for it, _, _ in carries:
                    init = it.init
                    inits.append(get(init.name, nothing) if init is not None and init._production == "Var" else nothing)
                unknown, walked = not runs, False
                while True:
                    grew = False
                    k = 0
                    for it, result, y in carries:
                        # (a union made only when it is new: the yielded value mostly holds the
                        # init's own set, or nothing yet, or the iter_arg's, and sets are shared)
                        merged = inits[k]
                        k += 1
                        if y is not None and y._production == "Var":
                            more = get(y.name)
                            if more is not None and more is not merged and not more <= merged:
                                merged = more if merged <= more else merged | more
                        name = it.var.name
                        old = get(name)
                        if old is None:
                            if merged:
                                store[name] = merged
                                grew = True
                        elif not (merged is old or merged <= old):
                            store[name] = old | merged
                            grew = True
                        if unknown:
                            old = get(result.name)
                            if old is None:
                                if merged:
                                    store[result.name] = merged
                            elif not (merged is old or merged <= old):
                                store[result.name] = old | merged
                    if walked and not grew:
                        break
                    body(inner)
                    walked = True
                if runs:  # runs > 1: the results are the last iteration's yields
                    carried = False  # whether a carry yields a carry of the loop (a swap or rotation)
                    for _, _, y in carries:
                        if y is not None and y._production == "Var":
                            for it, _, _ in carries:
                                if it.var.name == y.name:
                                    carried = True
                    if shortcuts and not carried:  # (``last_yields``' first answer: each its yielded value's places)
                        for it, result, y in carries:
                            value = get(y.name, nothing) if y is not None and y._production == "Var" else nothing
                            old = get(result.name)
                            if old is None:
                                if value:
                                    store[result.name] = value
                            elif not (value is old or value <= old):
                                store[result.name] = old | value
                    else:
                        for (it, result, y), places in zip(carries, last_yields(carries, runs)):
                            grow(result.name, places)
            elif kind == "If":
                body(stmt.then)
                body(stmt.orelse)
                results = getattr(stmt, "results", ())
                if not results:
                    continue
                # (each result the union of what the branches yield, made only when it is new)
                then_y, else_y = last_yield(stmt.then), last_yield(stmt.orelse)
                k = 0
                for res in results:
                    binder = getattr(res, "var", res)
                    if binder.type._production == "TensorType":
                        a = of(then_y.values[k]) if then_y is not None else nothing
                        b = of(else_y.values[k]) if else_y is not None else nothing
                        grow(binder.name, a if b is a or b <= a else b if a <= b else a | b)
                    k += 1
            elif kind in ("Scope", "CompilerScope"):
                body(stmt.body)

    body(stmts)
    body = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)


# A sequential loop of constant bounds whose tensor carries hold other places in other iterations
# is analysed iteration by iteration (``iteration_stores``) while the body passes that costs, its
# trip count times those of the loops so analysed around it, are at most this many.
UNROLL_LIMIT = 16


def iteration_stores(
    loop, store: dict[str, frozenset], kernels: dict[str, Any], around: int = 1
) -> list[dict] | None:
    """For a sequential loop of constant bounds that runs at least twice, at most
    ``UNROLL_LIMIT // around`` times (``around``: the product of the trip counts of the loops
    around it analysed so), and whose tensor carries do not hold the same places in every
    iteration (a carry started from one tensor and yielded another, a swap): ``store`` as it is
    in each iteration, in order (the carries' places in that iteration, followed from the inits,
    and the places of what the body defines from them); else None. The iterations' stores differ
    from ``store`` only in the names the body binds (iter_args included)."""
    if is_parallel(loop):
        return None
    runs = trip_count(loop)
    if runs is None or not 2 <= runs <= UNROLL_LIMIT // around:
        return None
    yld = last_yield(loop.body)
    carries = [
        (it, yld.values[k] if yld is not None else None)
        for k, it in enumerate(loop.iters)
        if it.var.type._production == "TensorType"
    ]
    if not carries or carries_keep_their_places(carries, store):
        return None

    def of(s: dict, expr) -> frozenset:
        return s.get(expr.name, frozenset()) if expr is not None and expr._production == "Var" else frozenset()

    inside = {b.name for b in binders_in_order(loop.body)} | {it.var.name for it, _ in carries}
    base = {name: places for name, places in store.items() if name not in inside}
    held = [of(store, it.init) for it, _ in carries]
    stores, differs = [], False
    for _ in range(runs):
        differs |= any(h != store.get(it.var.name) for h, (it, _) in zip(held, carries))
        s = dict(base)
        for h, (it, _) in zip(held, carries):
            s[it.var.name] = h
        walk_storage(loop.body, s, kernels)
        stores.append(s)
        held = [of(s, y) for _, y in carries]
    return stores if differs else None


def carries_keep_their_places(carries, store: dict[str, frozenset]) -> bool:
    """Whether each tensor carry of a loop (``(iter_arg, yielded value)``) holds its places in
    ``store`` (``storage_map``'s, or an iteration's) in every iteration without following them:
    so it does when its init and its yielded value have the iter_arg's places. The body's names
    then have their places in ``store`` in every iteration: ``store`` gives each the places one
    walk of the body gives from the iter_args' final places (every walk of ``walk_storage`` only
    adds places, so the last, from the final places, gives them all), and iteration by iteration
    the iter_args start at those places and are yielded them again. ``iteration_stores`` then
    finds no iteration that differs, without copying ``store`` once per loop."""
    nothing: frozenset = frozenset()
    for it, yielded in carries:
        held = store.get(it.var.name, nothing)
        if it.init is None or it.init._production != "Var" or store.get(it.init.name, nothing) != held:
            return False
        if yielded is None or yielded._production != "Var" or store.get(yielded.name, nothing) != held:
            return False
    return True


# -- accesses and their ordering -------------------------------------------------------------------

NONE: frozenset = frozenset()

# (tuples: a membership test compares members by identity, where a set would hash the enum in Python)
READS = (ArgDir.Input, ArgDir.InOut)
WRITES = (ArgDir.InOut, ArgDir.OutputExisting, ArgDir.Output)
# (enum members read once: a member read through its class costs a descriptor call)
_INOUT, _OUTPUT, _MANUAL, _AUTO, _PARALLEL = ArgDir.InOut, ArgDir.Output, ScopeMode.manual, ScopeMode.auto, LoopKind.parallel
_INPUT, _OUTPUT_EXISTING = ArgDir.Input, ArgDir.OutputExisting
_READ, _WRITE, _READ_WRITE = (False,), (True,), (False, True)  # (``task_accesses``: the kinds of access an argument makes, a write last)


class Access:
    """One task's read or write of a region of one root, and which runs of the task it stands
    for (hashable, compared by value): a dataflow fact of ``find_hazards``.

    The walk hashes each fact many times (every set and dict of live facts files it), so the hash
    is computed once, from the key: ``__hash__`` is a slot holding that value's ``__index__``,
    a built-in method that returns it, which ``hash()`` calls without running Python code."""

    __slots__ = (
        "site", "write", "root", "region", "dir", "scope", "parallel", "earlier_iteration", "stale", "closed",
        "covers", "_key", "__hash__",
    )
    host = False  # (a task's access; ``HostAccess`` is a host element access's)

    def __init__(
        self,
        site: int,  # index of the task (program order)
        write: bool,  # a write (else a read)
        root: str,
        region: Any,
        dir: ArgDir,  # noqa: A002
        scope: int | None,  # the outermost manual scope it is submitted in (None: AUTO)
        parallel: frozenset = frozenset(),  # pl.parallel loops around it, in this iteration
        earlier_iteration: frozenset = frozenset(),  # pl.parallel loops it ran in an earlier iteration of
        stale: bool = False,  # runs of the site older than its latest run (else: the latest run)
        closed: bool = False,  # its manual scope's instance has ended
        covers: frozenset = frozenset(),  # TaskId values whose wait waits for every run it stands for
    ):
        self.site, self.write, self.root, self.region = site, write, root, region
        self.dir, self.scope, self.parallel, self.earlier_iteration = dir, scope, parallel, earlier_iteration
        self.stale, self.closed, self.covers = stale, closed, covers
        # (``_value_``: the value, read without the enum's ``value`` property)
        self._key = (site, write, root, region, dir._value_, scope, parallel, earlier_iteration, stale, closed, covers)
        self.__hash__ = hash(self._key).__index__

    def __eq__(self, other):
        return isinstance(other, Access) and self._key == other._key

    def __repr__(self) -> str:
        runs = ("~" if self.stale else "") + ("|" if self.closed else "")
        covers = "{" + ",".join(sorted(self.covers)) + "}" if self.covers else ""
        return f"Access(t{self.site}{runs} {'W' if self.write else 'R'} {self.root}{self.region!r} {self.dir.name}{covers})"

    def _with(self, earlier_iteration: frozenset, stale: bool, closed: bool, covers: frozenset) -> "Access":
        # (``Access(...)`` with the first seven fields copied, key included: the walk makes many)
        new = _new_access(Access)
        new.site, new.write, new.root, new.region = self.site, self.write, self.root, self.region
        new.dir, new.scope, new.parallel = self.dir, self.scope, self.parallel
        new.earlier_iteration, new.stale, new.closed, new.covers = earlier_iteration, stale, closed, covers
        new._key = self._key[:7] + (earlier_iteration, stale, closed, covers)
        new.__hash__ = hash(new._key).__index__
        return new

    def retagged(self, earlier_iteration: frozenset) -> "Access":
        return self._with(earlier_iteration, self.stale, self.closed, self.covers)

    def older(self) -> "Access":
        """This fact once its site has run again: it stands for runs before the latest."""
        return self._with(self.earlier_iteration, True, self.closed, self.covers)

    def ended(self) -> "Access":
        """This fact once its manual scope's instance has ended."""
        return self._with(self.earlier_iteration, self.stale, True, self.covers)

    def covered(self, covers: frozenset) -> "Access":
        """This fact with the TaskId values that hold its runs replaced."""
        return self._with(self.earlier_iteration, self.stale, self.closed, covers)

    @property
    def published(self) -> bool:
        """The runtime records this write (a later reader or InOut writer can find it)."""
        return self.write and self.scope is None


_new_access = object.__new__


def _fresh_access(site: int, write: bool, root: str, region, dir: ArgDir, scope, parallel: frozenset, covers: frozenset) -> Access:  # noqa: A002
    """``Access(site, write, root, region, dir, scope, parallel, NONE, False, False, covers)``,
    without the call of ``__init__`` through the type (``task_accesses`` makes one per argument)."""
    new = _new_access(Access)
    new.site, new.write, new.root, new.region = site, write, root, region
    new.dir, new.scope, new.parallel = dir, scope, parallel
    new.earlier_iteration, new.stale, new.closed, new.covers = NONE, False, False, covers
    new._key = (site, write, root, region, dir._value_, scope, parallel, NONE, False, False, covers)
    new.__hash__ = hash(new._key).__index__
    return new


def hazard_kind(earlier: Access, later: Access) -> str | None:
    if earlier.write and later.write:
        return "WAW"
    if earlier.write:
        return "RAW"
    if later.write:
        return "WAR"
    return None


def runtime_orders(earlier: Access, later: Access) -> bool:
    """Whether the runtime itself makes ``later`` wait for ``earlier`` (section 11)."""
    if earlier.scope is not None or later.scope is not None:
        return False  # MANUAL scopes: explicit dependencies only, nothing published
    kind = hazard_kind(earlier, later)
    if kind == "RAW":
        return earlier.published and later.dir in READS
    if kind == "WAW":
        return earlier.published and later.dir is _INOUT
    if kind == "WAR":
        return earlier.dir is _INOUT and later.dir is _INOUT
    return True


@dataclass(slots=True)
class Site:
    """One task (a submit site), or one host element access, with where it stands in the program."""

    index: int
    task: Any  # the Task (or the host access's Let or WriteTensor)
    path: tuple  # ids of the blocks enclosing it, outermost first
    loops: tuple  # ids of the loops enclosing it, outermost first
    scope: int | None  # enclosing user manual scope (id) or None
    position: tuple  # its position in program order (indices into nested bodies)
    auto_scope: int | None = None  # innermost enclosing user AUTO scope (id) or None
    host: bool = False  # a host element access (a pair's later access only)
    # a host access in a manual scope: where a producer it waits for can be submitted, just before
    # the outermost manual scope around it (the scope statement in ``task``; None: at the access)
    fence: "Site | None" = None


@dataclass
class Hazards:
    """Every hazard pair of a function (earlier access, later access), and its sites."""

    sites: list[Site] = field(default_factory=list)
    pairs: set[tuple[Access, Access]] = field(default_factory=set)
    # sites whose runs the runtime chains in an AUTO scope: an InOut argument that is certainly one
    # known region of one root whose buffer is the same every run (not created in a loop around the
    # task): each run then waits for the one before
    chained: set[int] = field(default_factory=set)
    hosts: bool = False  # whether a site is a host element access


class WalkState:
    """Where ``find_hazards``'s walk stands: the live facts its transfers change (``live``, which
    ``holds``, the covering transfers, change too), and whether it is in a pass over a
    ``pl.parallel`` loop's body that follows only the facts the loop's head gained (``following``:
    a task then neither meets, kills nor gens, and host accesses are skipped; see ``follow``)."""

    __slots__ = ("live", "holds", "following")

    def __init__(self, live: LiveAccesses, holds: Holders):
        self.live, self.holds, self.following = live, holds, False

    def follow(self, facts) -> tuple:
        """Enter a pass that follows ``facts`` alone, in a live state of their own (its sites filed
        as in the state left); returns what ``resume`` takes to come back to the state left."""
        saved = (self.live, self.following)
        live = self.live = self.holds.live = LiveAccesses(self.live.filed)
        self.following = True
        for e in facts:
            live.add(e)
        return saved

    def resume(self, saved) -> None:
        """Come back to the state ``follow`` left (its return value)."""
        self.live, self.following = saved
        self.holds.live = self.live


def find_hazards(
    func,
    kernels: dict[str, Any],
    untracked_roots: set[str],
    *,
    track_writes: bool = True,
    keep=None,
    store: dict[str, frozenset] | None = None,
    met_after=None,
    scan: "Prework | None" = None,
    followed: frozenset | None = None,
    close_run_once: bool = True,
    forget_unread: bool = False,
    inout_reads_meet: bool = True,
) -> Hazards:
    """Every hazard pair of ``func`` that ``keep(earlier, later)`` accepts (all by default).

    With ``track_writes=False`` only reads stay live (writes still cover them), so only
    write-after-read pairs are found: a caller that needs nothing else avoids following every
    writer that a maybe-skipped loop leaves possibly live. ``store`` is ``storage_map(func,
    kernels)`` when the caller has it already, ``scan`` ``prework(func, store, untracked_roots)``.
    With ``followed`` only the accesses of those roots are followed (``Hazards.chained`` is the
    same): for a caller whose ``keep`` accepts no pair of another root (``war_roots``).
    With ``close_run_once=False`` the facts of a manual scope with no loop around it are never
    marked ``closed`` (nor filed by site): no later access is in that scope, so a caller that
    tells one instance from another only between accesses of one scope loses nothing.
    With ``forget_unread`` (and ``scan.dep_sources``) a fact's ``covers`` hold only those names (the
    transfers of other names are not made): no task waits for another name, nor does one reach
    another name, so every pair is found as without it (only facts that differ in those names merge).
    With ``inout_reads_meet=False`` the read of an InOut argument meets nothing (it is still made
    live): the argument's write meets every fact it would, so a caller whose ``keep`` takes the
    pair of a write and the write wherever it takes that of the write and the read loses nothing.

    With ``met_after`` (a function that makes ``roots_met_past_runtime``'s answer, called when a
    task outside every MANUAL scope first writes a tracked root; None from it: no such walk), the write of a task outside every MANUAL
    scope stays live only on the roots an access the runtime need not order after it may be of
    (writes still cover): for a caller whose ``keep`` accepts a pair of such a write and a later
    access only when the later one is a host access or in a MANUAL scope, no pair is lost, and
    after a loop that may not run the writes of the tasks that follow in AUTO scopes do not pile
    up in the state (each transfer maps each fact on its own, so the facts left out change
    no other fact).
    """
    if store is None:
        store = storage_map(func, kernels)
    result = Hazards()
    site_of: dict[int, int] = {}
    # Reads of a root nobody writes can never be part of a hazard and are not tracked (read-only
    # inputs would otherwise pile up one entry per task).
    if scan is None:
        scan = prework(func, store, untracked_roots)
    written, made_in = scan.written, scan.made_in
    used = var_reads(func.body) if scan.host_reads else {}  # (a host read whose value is unused is dead)
    renewed = carried_allocations(func, kernels) if scan.carrying and scan.allocates else NONE
    met: list = []  # (``met_after()``, once made)

    def met_past_runtime():
        if not met:
            met.append(met_after())
        return met[0]
    roots: list = []  # buffer_roots, made at the first host access

    # the store of the iteration being analysed (``iteration_stores``: a loop analysed iteration
    # by iteration), else ``store``; every store met is kept, so its id names it
    current = [store]
    product = [1]  # the product of the trip counts of the loops around analysed iteration by iteration
    stores_met: dict[tuple[int, int], list[dict] | None] = {}  # (loop, store around it) -> iteration_stores


    # The live facts, changed in place: a branch or a pass over a loop body starts from the state
    # before it and is undone after (see live_accesses), so none of them costs more than its own
    # accesses.
    holds = Holders(LiveAccesses(), scan.dep_sources if forget_unread else None)
    read = holds.read
    state = WalkState(holds.live, holds)
    pairs = result.pairs
    # (site, id of the current store) -> task_facts(...) (the same each visit with that store)
    found_at: dict[tuple[int, int], tuple[list[Access], set[Access]]] = {}
    scope_sites: dict[int, list[int]] = {}  # manual scope -> the sites in it
    # outermost manual scope -> where it stands (a site of its own; a tuple of its fields until a host access asks)
    scope_at: dict[int, Site | tuple] = {}
    # What the walk did besides meeting and killing facts by their regions, in order (for
    # ``settled``; emptied as an outermost loop begins): the task sites stepped (their live facts
    # become stale), the roots renewed, the manual scopes closed; ``holds.transfers`` logs the
    # covering transfers (``touched_names``: the names whose covering facts they may change).
    stepped: list[int] = []
    renewed_roots: list[str] = []
    closed_scopes: list[int] = []

    def step(site: int, task, found: tuple[list[Access], set[Access], frozenset, list[Access]]) -> None:
        mine, certain, waits, gen, untracked = found  # (``mine``: the accesses that meet facts)
        stepped.append(site)
        live = state.live
        if state.following:
            mine = gen = ()
        indexes = live.indexes  # (root, is a write) -> its RegionIndex
        for a in mine:  # meet
            if a.dir is _OUTPUT:  # a fresh buffer follows no earlier access
                continue
            index = indexes.get((a.root, True))
            met = index.overlapping(a.region) if index is not None and index.by_region else None
            if a.write:
                index = indexes.get((a.root, False))
                if index is not None and index.by_region:
                    if met:
                        met += index.overlapping(a.region)
                    else:
                        met = index.overlapping(a.region)
            if not met:
                continue
            parallel = a.parallel
            for e in met:
                if e.earlier_iteration and parallel and not e.earlier_iteration.isdisjoint(parallel):
                    continue  # two iterations of one pl.parallel loop: independent by the user's word
                if e.covers and not e.covers.isdisjoint(waits):
                    continue  # the task's own dependencies wait for every run the fact stands for
                if keep is None or keep(e, a):
                    pairs.add((e, a))
        earlier = live.sites.get(site)
        if earlier:  # rerun: the facts of this site's earlier runs (a filed site's, if any)
            for e in list(earlier):
                if not e.stale:
                    live.replace(e, e.older())
        if task.tid is not None:  # its TaskId now holds this run, which waits for what its deps hold
            holds.assign([(task.tid.name, waits)])
        for a in gen:
            if a.write:
                if a in certain:  # kill: a write that may not happen to this root supersedes nothing
                    for write in (False, True):
                        index = indexes.get((a.root, write))
                        if index is not None and index.by_region:
                            for e in index.covered_by(a.region):
                                if not (e.earlier_iteration and a.parallel and e.earlier_iteration & a.parallel):
                                    live.remove(e)  # (another iteration of a pl.parallel loop: not after it)
                if a not in untracked:  # gen
                    live.add(a)
            else:
                live.add(a)

    def host_step(found: list) -> None:
        """A host access: it pairs with the facts it conflicts with and waits for each (through the
        runtime or a fence the pairs call for), so they have completed after it: a certain access
        (one place on every run) kills those whose region covers its own (the element's box, or
        a region around the element when its place in the root is not known: a fact that only
        overlaps that region may miss the element, and the runtime's wait, by the element, then
        does not wait for it; so does a fact of an unknown region). Nor does an access of a
        tensor that may be another root (a swapped carry) on this run wait for anything on this
        root."""
        live = state.live
        done = []
        for a in found:
            writes = live.of(a.root, True)
            met = writes.overlapping(a.region) if writes else []
            if a.write:
                reads = live.of(a.root, False)
                if reads:
                    met += reads.overlapping(a.region)
            for e in met:
                if e.earlier_iteration and a.parallel and e.earlier_iteration & a.parallel:
                    continue
                if keep is None or keep(e, a):
                    pairs.add((e, a))
                if a.certain and covers(e.region, a.region):
                    done.append(e)
        for e in done:
            live.remove(e)

    def renew(root: str) -> None:
        """A create runs again: its root names a new buffer, and no name reaches the one an
        earlier run made (``renewed`` holds those a loop carry may still hold), so no access of
        that buffer meets a later one."""
        renewed_roots.append(root)
        live = state.live
        for write in (False, True):
            index = live.of(root, write)
            if index:
                for e in list(index.all()):
                    live.remove(e)

    def close(scope: int) -> None:
        """Leaving a manual scope: the facts of its instance are of an ended instance."""
        closed_scopes.append(scope)
        live = state.live
        for site in scope_sites.get(scope, ()):
            for e in live.of_site(site):
                if not e.closed:
                    live.replace(e, e.ended())

    def branch_join(deltas) -> None:
        """After an if: what either branch left live (each branch's changes already undone)."""
        (plus_then, minus_then), (plus_else, minus_else) = deltas
        live = state.live
        for e in set(minus_then).intersection(minus_else):
            live.remove(e)
        for e in plus_then + plus_else:
            live.add(e)

    def retagged(accesses, loop: int, entering: bool) -> list[Access]:
        """``loop``'s body accesses marked as from an earlier iteration (or no longer, on exit)."""
        out = []
        for e in accesses:
            if entering and loop in e.parallel:
                e = e.retagged(e.earlier_iteration | {loop})
            elif not entering and loop in e.earlier_iteration:
                e = e.retagged(e.earlier_iteration - {loop})
            out.append(e)
        return out

    heads: dict[tuple[int, int], list[Access]] = {}  # (loop, store around it) -> what its last fixpoint added to its head

    def logs() -> tuple[int, int, int, int]:
        return len(stepped), len(renewed_roots), len(closed_scopes), len(holds.transfers)

    def settled(new: list[Access], loop: int, since: tuple[int, int, int, int]) -> bool:
        """Whether another pass over the body of ``pl.parallel`` loop ``loop``, from its head
        with ``new`` added, would add nothing to the head and form no pair the pass that began
        at ``since`` (``logs()``) did not. So it is when no transfer of that pass changes a new
        fact (every pass over a body runs the same transfers): none is met or killed by an
        access (it is of an earlier iteration of ``loop``, and every access in the body is of
        this one), a stale fact or one of a site the pass did not step reruns to itself, none
        of its covering names is touched, its root is not renewed, and its scope (if not closed
        already) not closed. Each transfer maps every fact on its own, so that pass would end
        in the state this one did, with ``new`` in it unchanged."""
        sites, names = set(stepped[since[0]:]), touched_names(holds.transfers[since[3]:])
        roots, scopes = set(renewed_roots[since[1]:]), set(closed_scopes[since[2]:])
        for e in new:
            if (
                loop not in e.earlier_iteration
                or (not e.stale and e.site in sites)
                or not e.covers.isdisjoint(names)
                or e.root in roots
                or (not e.closed and e.scope in scopes)
            ):
                return False
        return True

    once = ONCE_OUTSIDE_LOOPS
    # (each kernel's output parameters, read once: ``task_accesses`` asks them of every task)
    outputs = {name: output_params(kernel) for name, kernel in kernels.items()}

    def task_site(task, path, loops, scope, position, auto) -> int:
        """A new site for ``task``, filed where the walk looks for it."""
        site = len(result.sites)
        result.sites.append(Site(site, task, path, loops, scope, position, auto))
        if scope is not None:
            scope_sites.setdefault(scope, []).append(site)
        if loops or (scope is not None and close_run_once):  # it may run again, or its scope close
            state.live.file_site(site)
        return site

    def task_facts(task, site: int, scope, parallel, loops) -> tuple:
        """What ``step`` takes of ``task`` at ``site`` (the same on every visit with the current store):
        its accesses, which of them are certain, its dependencies, what it makes live and what not."""
        # whether its runs are chained depends on every run's places: ``store``'s
        mine, certain = task_accesses(
            task, site, scope, parallel, store, written, kernels, untracked_roots, result.chained, loops, made_in,
            renewed, followed, read, inout_reads_meet, outputs,
        )
        if current[-1] is not store:
            mine, certain = task_accesses(
                task, site, scope, parallel, current[-1], written, kernels, untracked_roots, set(), loops, made_in,
                renewed, followed, read, inout_reads_meet, outputs,
            )
        gen = _gen(mine, certain)
        return (mine if inout_reads_meet else _meeting(mine), certain, dep_names(task), gen,
                _untracked_writes(gen, track_writes, met_after and met_past_runtime, task))

    def block(stmts, path, loops, scope, position, parallel=frozenset(), auto=None) -> None:
        """Analyse ``stmts`` from the live state, leaving the state after them."""
        for i, stmt in enumerate(stmts):
            kind = stmt._production
            if kind == "Task":
                if loops or not once:  # (a task in a loop is met again: its site and its facts are kept for that)
                    key = id(stmt)
                    site = site_of.get(key)
                    if site is None:
                        site = site_of[key] = task_site(stmt, path, loops, scope, position + (i,), auto)
                    found = found_at.get((site, id(current[-1])))
                    if found is None:
                        found = found_at[site, id(current[-1])] = task_facts(stmt, site, scope, parallel, loops)
                else:  # (outside every loop a task is met once: nothing kept)
                    site = task_site(stmt, path, loops, scope, position + (i,), auto)
                    found = task_facts(stmt, site, scope, parallel, loops)
                step(site, stmt, found)
            elif kind == "Let":
                value = stmt.value
                if value._production == "ReadTensor":
                    if stmt.var.name in used and not state.following:
                        host_site(stmt, path, loops, scope, position + (i,), parallel, auto)
                elif is_task_id_value(stmt.var):
                    holds.assign([(stmt.var.name, held_by(value))])
                elif (loops or not once) and value._production == "CreateTensor" and stmt.var.name not in renewed:
                    # (outside every loop a create runs once, before every access of its root: no
                    # fact of the root is live to remove)
                    renew(stmt.var.name)
            elif kind == "For" or kind == "While":
                loop(stmt, path, loops, scope, position + (i,), parallel, auto)
            elif kind == "Scope" or kind == "CompilerScope":
                opens = stmt.mode is _MANUAL and scope is None
                pos = position + (i,)
                if opens and id(stmt) not in scope_at:
                    scope_at[id(stmt)] = (stmt, path, loops, pos, auto)  # (a ``Site`` made when a host access asks)
                inner_scope = id(stmt) if opens else scope
                inner_auto = id(stmt) if stmt.mode is _AUTO else auto
                block(stmt.body, path + (id(stmt),), loops, inner_scope, pos, parallel, inner_auto)
                if opens and (loops or close_run_once):
                    close(id(stmt))
            elif kind == "Dummy":
                holds.assign([(stmt.var.name, dep_names(stmt))])
            elif kind == "WriteTensor":
                if not state.following:
                    host_site(stmt, path, loops, scope, position + (i,), parallel, auto)
            elif kind == "If":
                deltas = []
                results = [r for r in stmt.results if is_task_id_value(r)]
                live = state.live
                pos = position + (i,)
                for k, branch in enumerate((stmt.then, stmt.orelse)):
                    mark = live.mark()
                    block(branch, path + (id(stmt), k), loops, scope, pos + (k,), parallel, auto)
                    if results:  # each result holds what its branch yields
                        holds.yielded(results, stmt.results, last_yield(branch))
                    deltas.append(live.delta(mark))
                    live.undo(mark)
                branch_join(deltas)

    def host_site(stmt, path, loops, scope, pos, parallel, auto) -> None:
        key = id(stmt)
        site = site_of.get(key)
        if site is None:
            site = site_of[key] = len(result.sites)
            result.hosts = True
            fence = None
            if scope is not None:
                fence = scope_at[scope]
                if type(fence) is tuple:  # (its first host access: the scope's ``Site`` made now)
                    stmt_of, path_of, loops_of, pos_of, auto_of = fence
                    fence = scope_at[scope] = Site(-1, stmt_of, path_of, loops_of, None, pos_of, auto_of)
            result.sites.append(Site(site, stmt, path, loops, scope, pos, auto, True, fence))
        found = found_at.get((site, id(current[-1])))
        if found is None:
            if not roots:
                roots.append(buffer_roots(func, kernels))
            found = found_at[site, id(current[-1])] = host_accesses(
                stmt, site, scope, parallel, current[-1], written, renewed, roots[0])
        host_step(found)

    def loop(stmt, path, loops, scope, pos, parallel, auto) -> None:
        """The loop's head is the state before it joined with the end of every pass over its
        body, to a fixpoint; a pass over the body from the head is analysed and undone, and
        what it leaves that the head lacks is added to the head."""
        key = id(stmt)
        if not loops and STRAIGHT_LOOPS and OUTERMOST_REPLAYED and is_parallel(stmt) and straight_loop(stmt, path, scope, pos, parallel, auto):
            return
        live = state.live  # (the same after the body: ``follow`` resumes the state it left)
        if not loops:  # (the logs ``settled`` reads: what is before an outermost loop is not)
            del stepped[:], renewed_roots[:], closed_scopes[:], holds.transfers[:]
        inner_path, inner_loops = path + (key,), loops + (key,)
        par = is_parallel(stmt)
        inner_parallel = parallel | {key} if par else parallel
        carries = holds.carries(stmt, scope)
        if carries:
            carries.enter()
        runs = trip_count(stmt)
        if runs == 1:  # it runs once: no back edge, no other iteration
            block(stmt.body, inner_path, inner_loops, scope, pos, inner_parallel, auto)
            if carries:
                carries.back_edge()
                carries.leave()
            return
        outer = current[-1]
        unrolled = None  # (a pl.parallel loop is never analysed iteration by iteration)
        if not par:
            if (key, id(outer)) not in stores_met:
                stores_met[key, id(outer)] = iteration_stores(stmt, outer, kernels, product[-1])
            unrolled = stores_met[key, id(outer)]
        if unrolled is not None:  # its carries differ by iteration: each iteration in turn, no back edge
            product.append(product[-1] * len(unrolled))
            for iteration in unrolled:
                current.append(iteration)
                block(stmt.body, inner_path, inner_loops, scope, pos, inner_parallel, auto)
                current.pop()
                if carries:
                    carries.back_edge()
            product.pop()
            if carries:
                carries.leave()
            return
        # An earlier head of this loop (from an earlier pass over an enclosing loop) is below the
        # true fixpoint: starting there keeps nested loops from re-iterating (not in a pass that
        # follows gained facts only: its head holds what they become, not the whole head).
        cached = () if state.following else heads.get((key, id(outer)), ())
        grown = []  # what the fixpoint adds to the head
        for e in cached:
            if live.add(e):
                grown.append(e)
        new: list[Access] = []  # what the last pass added to the head
        added: set[Access] = set()  # what the passes that end the walk added and removed (set by the first pass)
        removed: list[Access] = []
        # (``keeps_first_pass``: the live state stays where the first pass ends, and the head's
        # facts of earlier iterations are kept apart, in ``gained``, until the loop's exit)
        gained: set[Access] | None = None
        logged = None  # (the logs of the first pass, when a pass following gained facts replays them)
        while True:
            since = logs()
            if new and logged:  # (a pl.parallel loop's: the passes after the first follow what the head gained)
                plus, minus = replay(new, *logged)
                added.update(plus)
                removed += minus
            elif new:
                plus, minus = follow(new, stmt.body, inner_path, inner_loops, scope, pos, inner_parallel, auto, carries)
                added.update(plus)
                removed += minus
            else:  # a pass from the whole head
                mark = live.mark()
                block(stmt.body, inner_path, inner_loops, scope, pos, inner_parallel, auto)
                if carries:
                    carries.back_edge()
                if par and replays_follow(stmt.body):
                    logged = (since, logs())
                plus, minus = live.delta(mark)
                if par and keeps_first_pass(runs, bool(cached) or state.following, plus, key):
                    if logged and not loops and OUTERMOST_REPLAYED:
                        # (an outermost loop: no enclosing pass reads the logs or the head; the
                        # first pass's end and the later passes' gains, untagged, without them)
                        replayed_to_fixpoint(plus, *logged)
                        if carries:
                            carries.leave()
                        return
                    gained = set()
                    tagged = retagged(plus, key, True)
                else:
                    tagged = retagged(plus, key, True) if par else plus
                    live.undo(mark)
                    added, removed = set(tagged), minus  # what the passes that end the walk added and removed
                plus = tagged
            new = []
            for e in plus:  # (a loop: no comprehension made per pass)
                if gained is None:
                    if live.add(e):
                        new.append(e)
                elif e not in gained:
                    gained.add(e)
                    new.append(e)
            if not new:
                break
            grown += new
            if not par:
                new = []  # (the next pass is from the whole head)
            elif settled(new, key, since):  # (the next pass would end as this one did)
                break
        if not state.following:
            heads[key, id(outer)] = grown
        if gained is not None:  # the first pass's end, and what the other passes gained, of this iteration
            for e in retagged(grown, key, False):
                live.add(e)  # (the first pass's own facts are live already: nothing changes)
        else:
            # After a loop that certainly runs: the state some last pass ends in (the head less
            # what that pass removed; what it added is in the head). After one that may not run,
            # that or the state before it: the head.
            if (runs or 0) > 0:
                for e in removed:
                    if e not in added:  # (a retagged access the pass re-made stays, though it removed it)
                        live.remove(e)
            if par:
                for e, untagged in zip(grown, retagged(grown, key, False)):
                    if untagged is not e:
                        live.replace(e, untagged)
        if carries:
            carries.leave()

    def straight_loop(stmt, path, scope, pos, parallel, auto) -> bool:
        """``loop`` on an outermost ``pl.parallel`` loop that runs more than once (``trip_count``)
        and whose body is straight (``replays_follow``): one pass over the body from the state
        before it, and its end replayed to the fixpoint (``replayed_to_fixpoint``), no head, no
        mark of earlier iterations, no ``settled``; whether it took the loop (else it left the
        state as it was, for the general walk).

        The general walk does the same there (``keeps_first_pass``, ``OUTERMOST_REPLAYED``): it
        meets the loop once (an outermost loop: no cached head, no pass that follows facts), so
        its first pass is this pass, from the same state; when every fact that pass added is of
        an access of the body it keeps the state where the pass ended and replays that end.
        When one is not (a fact from before the loop that a transfer of the body changed), this
        undoes the pass and the carries' entry and leaves the loop to the general walk, whose
        first pass then meets what this one met (the sites and the facts of the body's tasks
        are kept by task, as that walk keeps them: no site is made twice, no pair differs)."""
        key = id(stmt)
        if (key, id(current[-1])) in heads:
            return False
        runs = trip_count(stmt)
        if runs is None or runs < 2 or not replays_follow(stmt.body):
            return False
        live = state.live
        start = live.mark()
        del stepped[:], renewed_roots[:], closed_scopes[:], holds.transfers[:]
        carries = holds.carries(stmt, scope)
        if carries:
            carries.enter()
        since = (0, 0, 0, len(holds.transfers))  # (``logs()``: the carries' entry is not replayed)
        mark = live.mark()
        block(stmt.body, path + (key,), (key,), scope, pos, parallel | {key}, auto)
        if carries:
            carries.back_edge()
        plus, _ = live.delta(mark)
        if not keeps_first_pass(runs, False, plus, key):
            live.undo(start)
            return False
        replayed_to_fixpoint(plus, since, logs())
        if carries:
            carries.leave()
        return True

    def replay(new, start, end) -> tuple[list[Access], list[Access]]:
        """``follow`` on a body without branches or loops (``replays_follow``): a pass that
        follows facts runs there the transfers the first pass logged between ``start`` and
        ``end`` (``logs()``) that can change a fact of an earlier iteration, and only those: the
        reruns of the sites it steps, the covering transfers, the renewals of roots and the
        closes of manual scopes; each maps each fact on its own, the reruns, renewals and closes
        each one field, whatever the order. They are applied to each fact of ``new``, and logged
        again as that pass would log them; what they added and removed."""
        stepped.extend(stepped[start[0]:end[0]])
        renewed_roots.extend(renewed_roots[start[1]:end[1]])
        closed_scopes.extend(closed_scopes[start[2]:end[2]])
        holds.transfers.extend(holds.transfers[start[3]:end[3]])
        return replayed(new, transfers_between(start, end))

    def transfers_between(start, end) -> tuple:
        """What ``replayed`` applies of the transfers logged between ``start`` and ``end``: the
        sites stepped, the names' transfers, the roots renewed, the sites of the scopes closed."""
        ended = set()
        for closed in closed_scopes[start[2]:end[2]]:
            ended.update(scope_sites.get(closed, ()))
        return (set(stepped[start[0]:end[0]]), holds.transfers[start[3]:end[3]],
                set(renewed_roots[start[1]:end[1]]), ended)

    def replayed(new, logged) -> tuple[list[Access], list[Access]]:
        """Each fact of ``new`` through the transfers ``logged`` (``transfers_between``): what that
        added and removed."""
        out: dict[Access, None] = {}
        for e in new:
            e = replayed_one(e, logged)
            if e is not None:
                out[e] = None
        before = set(new)
        plus, minus = [], []
        for e in out:
            if e not in before:
                plus.append(e)
        for e in new:
            if e not in out:
                minus.append(e)
        return plus, minus

    def replayed_one(e, logged) -> Access | None:
        """Fact ``e`` through the transfers ``logged`` (``transfers_between``); None where it
        does not come through (its root is renewed)."""
        sites, transfers, roots, ended = logged
        if e.root in roots:
            return None
        stale = e.stale or e.site in sites
        closed = e.closed or e.site in ended
        covers = covers_after(e.covers, transfers)
        if stale is not e.stale or closed is not e.closed or covers != e.covers:
            e = e._with(e.earlier_iteration, stale, closed, covers)
        return e

    def replayed_to_fixpoint(plus, start, end) -> None:
        """After the first pass over the straight body of an outermost ``pl.parallel`` loop that
        certainly runs, every fact of whose end is of an access of the body (``keeps_first_pass``):
        the state the passes that replay it (``replay``) end in, made live. Each pass replays the
        facts the one before gained, as ``loop`` does, with no fact marked as of an earlier
        iteration (which only the passes' meets, none here, and the logs read) and no log kept
        (no enclosing loop reads them, nor the head: the loop is met once)."""
        logged = transfers_between(start, end)
        seen = set(plus)
        live = state.live
        while plus:  # (each fact replayed on its own: no pass's sets of what it added and removed made)
            gains = []
            for e in plus:
                e = replayed_one(e, logged)
                if e is not None and e not in seen:
                    seen.add(e)
                    gains.append(e)
                    live.add(e)
            plus = gains

    def follow(new, body, path, loops, scope, pos, parallel, auto, carries) -> tuple[list[Access], list[Access]]:
        """A pass over the body of a ``pl.parallel`` loop from the facts ``new`` its head gained
        alone, in a state of their own: what it added to them and removed from them. Each transfer
        maps each fact on its own, so a pass from the whole head ends in the union of what the
        last pass from the rest of the head ended in and what this one ends in. Each of ``new``
        and each fact made from one is of an earlier iteration of the loop and every access in
        the body of this one: no access meets or kills it (so none forms a pair), and what the
        tasks gen is what every pass gens. The tasks skip meet, kill and gen, the host accesses
        are skipped."""
        left = state.follow(new)
        mark = state.live.mark()
        block(body, path, loops, scope, pos, parallel, auto)
        if carries:
            carries.back_edge()
        found = state.live.delta(mark)
        state.resume(left)
        return found

    block(func.body, (), (), None, ())
    # block calls itself, and loop and follow call it, through this frame's cell of it: a cycle
    # that would keep every fact alive until the (paused) cyclic collector runs; emptying the
    # cell cuts every such cycle, so that they go now
    block = None
    return result


def replays_follow(body) -> bool:
    """Whether ``find_hazards`` replays, for each pass over this ``pl.parallel`` loop body that
    follows gained facts, the transfers its first pass logged instead of walking the body again:
    so it may when the body has no branch and no loop (every pass runs each of its statements
    once, in order: the same transfers)."""
    for stmt in body:  # (its own walk: a ``Walk`` made per loop would cost more than the check)
        kind = stmt._production
        if kind == "If" or kind == "For" or kind == "While":
            return False
        if (kind == "Scope" or kind == "CompilerScope") and not replays_follow(stmt.body):
            return False
    return True


def keeps_first_pass(runs: int | None, resumed: bool, plus: list[Access], loop: int) -> bool:
    """Whether ``find_hazards`` leaves the live state where the first pass over the body of
    ``pl.parallel`` loop ``loop`` ended (``plus``: what that pass added), instead of undoing the
    pass and adding its end to the head: so it may when the loop certainly runs (``runs``,
    ``trip_count``, at least one), its head starts from the state before it alone (not
    ``resumed`` from an earlier head, nor in a pass that follows gained facts), and every fact
    the pass added is of an access of the body (one the back edge marks as of an earlier
    iteration).

    Then the state before the loop holds no fact of an earlier iteration of it, and the passes
    after the first follow facts of earlier iterations alone, which no fact of the state before
    equals: the head is that state and those facts, kept apart. A loop that certainly runs leaves
    the state some pass ends in; the first pass ends in the state before less what it removed
    and with what it added, and each later pass in that and its own gains (a later pass removes
    only facts an earlier one gained, which stay): the first pass's end with the later gains of
    this iteration, as the undone walk finds (``test_hazard_shortcuts``)."""
    if runs is None or runs < 1 or resumed:
        return False
    for e in plus:
        if loop not in e.parallel:
            return False
    return True


def _meeting(mine: list[Access]) -> list[Access]:
    """``mine`` less the reads of InOut arguments (``task_accesses`` makes such a read only with
    the argument's write, of the same root and region: that write meets every fact the read
    does, the writes, and the reads too)."""
    out = []
    for a in mine:
        if a.write or a.dir is not _INOUT:
            out.append(a)
    return out if len(out) != len(mine) else mine


def _gen(mine: list[Access], certain: set[Access]) -> list[Access]:
    """The accesses of one task that ``find_hazards`` makes live, in order: ``mine`` less each
    read that a later certain write of the same task supersedes (an InOut argument's own read):
    added, it would only be killed again, to the same live state."""
    if not certain:
        return mine
    kills = []
    reads = False  # (a write supersedes only the reads before it: one with none before kills nothing)
    for i, w in enumerate(mine):
        if not w.write:
            reads = True
        elif reads and w in certain:
            kills.append((i, w))
    if not kills:
        return mine
    out = []
    for k, a in enumerate(mine):
        if not a.write:
            for i, w in kills:
                if i > k and w.root == a.root and covers(w.region, a.region):
                    break  # (superseded)
            else:
                out.append(a)
            continue
        out.append(a)
    return out


def _untracked_writes(gen: list[Access], track_writes: bool, met_after, task) -> frozenset:
    """The writes of ``gen`` that ``find_hazards`` does not make live: all without
    ``track_writes``; with ``met_after`` (a function that gives a ``MetPastRuntime``, or None),
    a task's outside every MANUAL scope on a root no access the runtime need not order after it
    may be of (asked only of a task that writes outside every MANUAL scope)."""
    writes = None  # (plain loops: no comprehension or generator made per task)
    if not track_writes:
        for a in gen:
            if a.write:
                if writes is None:
                    writes = [a]
                else:
                    writes.append(a)
        return frozenset(writes) if writes else NONE
    if not met_after:
        return NONE
    for a in gen:
        if a.write and a.scope is None:
            if writes is None:
                writes = [a]
            else:
                writes.append(a)
    met = met_after() if writes else None
    if met is None:
        return NONE
    return frozenset(a for a in writes if not met.follows(task, a.root))


class Prework:
    """What ``find_hazards`` reads off a function before its walk, in one walk of it
    (``prework``): the roots some task or host element access writes (``written``: the only ones
    whose accesses can form a hazard), allocation -> the loops around the statement that makes it
    (``made_in``), whether it reads a tensor element (``host_reads``), has a user MANUAL scope
    (``manual``) or any MANUAL scope (``any_manual``: a compiler's too) or a loop with carries (``carrying``: else no allocation is ``carried``),
    whether a statement makes an allocation (``allocates``: a create, an ``Alloc``, a task's output
    the runtime allocates; True where ``store`` was not given: not known; else none is ``carried``), and the
    buffers created with ``manual_dep=True`` (``untracked``: ``untracked_roots``); whether a ``Let``
    copies a name (``copies``: else ``shared_in_loops`` finds none) or is an assemble's source placed
    in its target (``places``: else ``placed_in_manual_scopes`` finds none); asked for, the
    roots an unordered write-after-read may be of (``war``: ``war_roots``). ``dep_sources``: every
    name a dependency, a let's copied or stored value, a yield, a loop carry or its init names (a
    superset of the TaskId values a task waits for and of the sources of ``Holders``' transfers; None
    where not asked for). ``cells``: the cells a ``CellDecl`` or ``CellSet`` names (``EdgeWriter``
    reads them instead of a walk of its own: ``cells.taken_names``, and none set, no cell to reuse)."""

    __slots__ = (
        "written", "made_in", "host_reads", "manual", "any_manual", "carrying", "untracked", "war", "allocates", "dep_sources",
        "copies", "places", "cells",
    )


def prework(func, store: dict, untracked: set[str] | None = None, war: bool = False, sources: bool = False) -> Prework:
    """``Prework`` of ``func`` (``store``: its ``storage_map``); ``untracked``: the untracked roots
    ``written`` leaves out (default: the function's own, ``Prework.untracked``); with ``war``, its
    ``war`` too; with ``sources``, its ``dep_sources`` (else None)."""
    return _prework(func.body, store, untracked, war, sources)


# Whether ``find_hazards`` keeps no site or facts for another visit of a task outside every loop,
# nor renews the root of a create outside every loop (each runs once there, and a create before
# every access of its root: no fact of it is live); off only in the tests that compare the two.
ONCE_OUTSIDE_LOOPS = True

# Whether ``find_hazards`` replays the first pass over an outermost ``pl.parallel`` loop's straight
# body to its fixpoint without marking facts or keeping logs (``replayed_to_fixpoint``); off only
# in the tests that compare the two.
OUTERMOST_REPLAYED = True

# Whether ``find_hazards`` takes an outermost ``pl.parallel`` loop that runs more than once and
# whose body is straight by a path of its own (``straight_loop``: the general walk's first pass
# and replay, without its head, marks and logs); off only in the tests that compare the two.
STRAIGHT_LOOPS = True

# Whether order_write_after_read follows only the roots of ``war_roots`` outside MANUAL scopes;
# off only in the tests that compare the two.
WAR_ROOTS = True


def war_roots(input_read: set, inout: set, existing: set, host_written: set) -> set[str]:
    """The roots of a function without MANUAL scopes whose accesses can form a write-after-read
    pair the runtime does not order (the only pairs ``order_write_after_read`` keeps there): a root
    some Input argument reads that an InOut or OutputExisting argument writes, one some InOut
    argument reads that an OutputExisting argument writes, and one a host element write writes
    (roots by ``storage_map``; program order not looked at). Outside MANUAL scopes the runtime
    orders a write after a read only between two InOut tasks; a runtime-allocated output or an
    Output argument follows no read (a fresh buffer); a host read waits for no read."""
    return (input_read & (inout | existing)) | (inout & existing) | host_written


def _prework(body, store: dict | None, untracked, war: bool = False, wanted: bool = False) -> Prework:
    """``prework``'s walk (without ``store``: ``written`` is not made)."""
    out = Prework()
    written: set[str] = set()  # (roots of written arguments, before the untracked are left out)
    allocated: set[str] = set()  # runtime-allocated outputs (a write of a new root)
    made: dict[str, frozenset] = {}
    manual_dep: set[str] = set()
    # host reads, a user manual scope, a loop with carries, any manual scope, a create or an Alloc,
    # a copy of a name, a placed assemble source
    flags = [False, False, False, False, False, False, False]
    input_read: set[str] = set()  # (with ``war``: the roots of Input, InOut and OutputExisting arguments, of host writes)
    inout: set[str] = set()
    existing: set[str] = set()
    host_written: set[str] = set()
    sources: set[str] = set()  # (``dep_sources``)
    cells: set[str] = set()
    add, source = written.add, sources.add
    nothing: tuple = ()
    manual_mode = ScopeMode.manual

    def walk(stmts, loops: frozenset) -> None:
        for stmt in stmts:  # (plain loops: no comprehension made per statement or argument)
            kind = stmt._production
            if kind == "Task":
                outs = stmt.outs  # (a task's outputs are Binders)
                if loops:
                    for binder in outs:  # (``allocated_by``, written out)
                        made[binder.name] = loops
                if wanted:
                    for dep in stmt.deps:  # (``dep_names``, written out)
                        dk = dep._production
                        if (dk == "DepVar" or dk == "DerivedDep") and dep.value._production == "Var":
                            source(dep.value.name)
                if store is None:
                    continue
                for arg in stmt.args:
                    direction = arg.dir
                    # (members compared by identity: a dict keyed by them would hash each in Python)
                    if direction in WRITES:
                        value = arg.value
                        if value._production != "Var":
                            continue
                        places = store.get(value.name, nothing)
                        for r, _ in places:
                            add(r)
                        if war and places:
                            roots = inout if direction is _INOUT else existing if direction is _OUTPUT_EXISTING else None
                            if roots is not None:
                                for r, _ in places:
                                    roots.add(r)
                    elif war and direction is _INPUT:
                        value = arg.value
                        if value._production == "Var":
                            for r, _ in store.get(value.name, nothing):
                                input_read.add(r)
                for binder in outs:
                    name = binder.name
                    for r, _ in store.get(name, nothing):
                        if r == name:
                            allocated.add(r)
            elif kind == "Let":
                vk = stmt.value._production
                if vk == "ReadTensor":
                    flags[0] = True
                elif vk == "CreateTensor":
                    flags[4] = True
                    if loops:
                        made[stmt.var.name] = loops
                    if stmt.value.manual_dep:
                        manual_dep.add(stmt.var.name)
                elif vk == "Var":
                    flags[5] = True
                    if wanted:
                        source(stmt.value.name)
                elif vk == "SliceTensor":
                    if stmt.value.placed:
                        flags[6] = True
                elif wanted and vk == "SetItem" and stmt.value.value._production == "Var":
                    source(stmt.value.value.name)
            elif kind == "WriteTensor":
                if store is not None and stmt.tensor._production == "Var":
                    for r, _ in store.get(stmt.tensor.name, nothing):
                        add(r)
                        host_written.add(r)
            elif kind == "For" or kind == "While":
                if stmt.iters:
                    flags[2] = True
                    for it in stmt.iters if wanted else nothing:
                        source(it.var.name)
                        if it.init._production == "Var":
                            source(it.init.name)
                walk(stmt.body, loops | {id(stmt)})
            elif kind == "If":
                walk(stmt.then, loops)
                walk(stmt.orelse, loops)
            elif kind == "Scope" or kind == "CompilerScope":
                if stmt.mode is manual_mode:
                    flags[3] = True
                    if kind == "Scope":
                        flags[1] = True
                walk(stmt.body, loops)
            elif kind == "Alloc":
                flags[4] = True
                if loops:
                    made.update(dict.fromkeys(allocated_by(stmt), loops))
            elif kind == "Yield":
                for value in stmt.values if wanted else nothing:
                    if value._production == "Var":
                        source(value.name)
            elif kind == "Dummy":
                if wanted:
                    sources.update(dep_names(stmt))
            elif kind == "CellDecl" or kind == "CellSet":
                cells.add(stmt.cell)

    walk(body, frozenset())
    walk = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)
    out.untracked, out.dep_sources, out.cells = manual_dep, sources if wanted else None, cells
    out.written = (written - (manual_dep if untracked is None else untracked)) | allocated
    out.made_in, (out.host_reads, out.manual, out.carrying, out.any_manual, creates, out.copies, out.places) = made, flags
    # (a task's output the runtime allocates is a root named for itself in ``store``: ``allocated``)
    out.allocates = creates or bool(allocated) or store is None
    out.war = war_roots(input_read, inout, existing, host_written) if war else None
    return out


def task_accesses(
    task, site: int, scope: int | None, parallel: frozenset, store: dict, written: set[str], kernels: dict[str, Any],
    untracked_roots: set[str], chained: set[int], loops: tuple = (), made_in: dict | None = None,
    renewed: frozenset = frozenset(), followed: frozenset | None = None, read: set[str] | None = None,
    inout_reads: bool = True, outputs: dict[str, tuple] | None = None,
) -> tuple[list[Access], set[Access]]:
    """The task's accesses of ``written`` roots (of those in ``followed`` too, if given), and those of its writes that are certain (the
    argument is one region of one root; a carry or branch result that may be one of several is
    not; nor is a write of a root in ``renewed``, an allocation a loop carry may hold: the root
    names a new buffer on every run, and the one an earlier run made stays reachable through the
    carry, so a write of this run's buffer supersedes none of the earlier one's accesses). A site in an AUTO scope whose InOut argument is certainly one known region of one root,
    a buffer not created anew in a loop around the task (``made_in``: buffer -> the loops around
    its create), is added to ``chained`` (``Hazards.chained``). With ``read``, the task's TaskId
    covers its accesses only if it is among those names (``Holders.read``). With ``inout_reads``
    False an InOut argument whose write is certain makes no read (for ``find_hazards`` with
    ``inout_reads_meet=False``: such a read meets nothing, and the write supersedes it, ``_gen``).
    ``outputs``: kernel name -> its ``output_params``, when the caller has them (else read from
    ``kernels``)."""
    out, certain = [], set()
    covers = frozenset({task.tid.name}) if task.tid is not None and (read is None or task.tid.name in read) else NONE
    for arg in task.args:
        direction = arg.dir
        # what the argument does: a read, a write or both (members compared by identity)
        if direction is _INPUT:
            kinds = _READ
        elif direction is _INOUT:
            kinds = _READ_WRITE
        elif direction is _OUTPUT_EXISTING or direction is _OUTPUT:
            kinds = _WRITE
        else:
            continue
        value = arg.value
        if value._production != "Var":
            continue
        writes = kinds[-1]
        places = store.get(value.name, ())
        for root, region in places:
            if root not in written:  # untracked, or only ever read
                continue
            follow = followed is None or root in followed
            if follow:
                dv = direction._value_
                # (an InOut argument's read left out where asked, when its write is certain, as
                # below, and supersedes it: a region that covers itself, not UNKNOWN)
                made = kinds if (
                    inout_reads or kinds is not _READ_WRITE or len(places) != 1 or root in renewed or region is UNKNOWN
                ) else _WRITE
                for write in made:  # (``_fresh_access`` written out: one per argument, root and kind)
                    new = _new_access(Access)
                    new.site, new.write, new.root, new.region = site, write, root, region
                    new.dir, new.scope, new.parallel = direction, scope, parallel
                    new.earlier_iteration, new.stale, new.closed, new.covers = NONE, False, False, covers
                    new._key = (site, write, root, region, dv, scope, parallel, NONE, False, False, covers)
                    new.__hash__ = hash(new._key).__index__
                    out.append(new)
            if writes:  # (chained or not whatever is followed)
                if len(places) == 1 and root not in renewed:
                    if follow:
                        certain.add(new)
                    if (
                        direction is _INOUT
                        and scope is None
                        and region is not UNKNOWN
                        and not (made_in and made_in.get(root, NONE).intersection(loops))
                    ):
                        chained.add(site)
    if not task.outs:
        return out, certain
    params = outputs[task.kernel] if outputs is not None else output_params(kernels[task.kernel])
    for i, binder in enumerate(task.outs):  # (a task's outputs are Binders)
        p = params[i]
        if (p is None or p >= len(task.args)) and binder.name not in untracked_roots and (
            followed is None or binder.name in followed
        ):
            out.append(_fresh_access(site, True, binder.name, FULL, _OUTPUT, scope, parallel, covers))
            if binder.name not in renewed:
                certain.add(out[-1])
    return out, certain


def carried_allocations(func, kernels: dict[str, Any]) -> frozenset:
    """The allocations (``passes/allocations.py``) made in a loop that its carry may hold: each
    run of their create or task makes a new buffer while the carry may still hold an earlier
    run's. A function with no loop carry, or that makes no allocation, has none (the allocations
    its names hold are not followed)."""
    carrying = [s for s in iter_stmts(func.body) if (s._production == "For" or s._production == "While") and s.iters]
    if not carrying or not makes_allocations(func, kernels):
        return NONE
    held = held_allocations(func, kernels)
    out: set[str] = set()
    for stmt in carrying:
        inside = None  # (made when a carry holds an allocation)
        for it in stmt.iters:
            holds = held.get(it.var.name)
            if holds:
                if inside is None:
                    inside = made_in(stmt.body)
                out |= holds & inside
    return frozenset(out)


def shared_in_loops(func) -> frozenset:
    """The buffers every iteration of a loop inside a MANUAL scope shares although the program
    allocated one per iteration: created before the scope, and copied in a loop inside it (where
    ``place_loop_allocations_before_scopes`` leaves a copy of the buffer it made for them). A
    user's own copy of such a buffer in such a loop counts too: its pairs get edges the user's
    ``deps=`` may have made needless, never fewer. (A function whose ``Prework.copies`` is
    False has none: no walk is needed to know.)"""
    copied: dict[int, tuple[Any, list[str]]] = {}  # id(manual scope) -> (it, the names copied in loops in it)

    def walk(stmts, scope, holder) -> None:
        # scope: the innermost manual scope around; holder: the innermost manual scope around a
        # loop around (where a copy counts if the scope does not define the name: an outer
        # scope defines all the inner one does)
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                if holder is not None and stmt.value._production == "Var":
                    copied.setdefault(id(holder), (holder, []))[1].append(stmt.value.name)
            elif kind == "For" or kind == "While":
                walk(stmt.body, scope, scope)
            elif kind == "If":
                walk(stmt.then, scope, holder)
                walk(stmt.orelse, scope, holder)
            elif kind in ("Scope", "CompilerScope"):
                walk(stmt.body, stmt if stmt.mode is ScopeMode.manual else scope, holder)

    walk(func.body, None, None)
    walk = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)
    out: set[str] = set()
    for scope, names in copied.values():
        inside = {b.name for s in iter_stmts(scope.body) for b in defined_binders(s)}
        out.update(name for name in names if name not in inside)
    if not out:
        return frozenset()
    lets = {s.var.name: s.value for s in iter_stmts(func.body) if s._production == "Let"}
    roots: set[str] = set()
    for name in out:  # (through the copies an enclosing scope's placement left)
        while name in lets and lets[name]._production == "Var":
            name = lets[name].name
        if name in lets and lets[name]._production == "CreateTensor":
            roots.add(name)
    return frozenset(roots)


def placed_in_manual_scopes(func) -> dict[str, bool]:
    """The assemble sources ``fuse_create_assemble_to_slice`` placed in their targets (a
    ``SliceTensor`` marked ``placed``) inside a MANUAL scope -> whether a loop inside the
    outermost such scope encloses the placement (its instance then runs it more than once: two
    iterations' sources share the target's rows, which the user wrote as two fresh tensors).
    (A function whose ``Prework.places`` is False has none: no walk is needed to know.)"""
    out: dict[str, bool] = {}

    def walk(stmts, manual: bool, looped: bool) -> None:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let" and manual and stmt.value._production == "SliceTensor" and stmt.value.placed:
                out[stmt.var.name] = looped
            inner = manual or (kind in ("Scope", "CompilerScope") and stmt.mode is ScopeMode.manual)
            for f in BODY_FIELDS.get(kind, ()):
                walk(getattr(stmt, f), inner, looped or (manual and kind in ("For", "While")))

    walk(func.body, False, False)
    return out


def unordered_war_possible(func, store: dict, untracked: set[str]) -> bool:
    """Whether a tracked root may be written after a task argument read an overlapping region of
    it where the runtime does not order the two: an InOut write after an Input read, an
    OutputExisting write after an Input or InOut read. Outside manual scopes these are the only
    write-after-read pairs the runtime does not order (it orders a write after a read only between
    two InOut tasks; an Output argument or a runtime-allocated output is a fresh buffer and follows
    no read); a host element write counts as an OutputExisting write (it does not wait for a task
    that only read). A necessary condition only: a task's reads count as before its own writes,
    and a read may come before a write when it comes first in program order (not in the other
    branch of an if) or when a loop holds both (a later iteration runs after every read of its
    body). Roots are compared first, program order left out (``war_roots_meet``), then in program
    order; regions only if both find a pair.
    """
    return (
        war_roots_meet(func, store, untracked)
        and _write_after_read(func, store, untracked, _ReadRoots)
        and _write_after_read(func, store, untracked, _ReadRegions)
    )


_ONE_BODY = frozenset({"For", "While", "Scope", "CompilerScope"})  # (the statements with a body and nothing else to walk)
# (``war_roots_meet``: the ways a root is accessed, read by an Input argument, read and written by
# an InOut one, written by an OutputExisting one or a host write; and the unions that hold a read
# and a write the runtime does not order)
_BY_INPUT, _BY_INOUT, _BY_EXISTING = 1, 2, 4
_UNORDERED_WAYS = frozenset({_BY_INPUT | _BY_INOUT, _BY_INPUT | _BY_EXISTING, _BY_INOUT | _BY_EXISTING, 7})


def war_roots_meet(func, store: dict, untracked: set[str]) -> bool:
    """Whether some tracked root (by ``store``, ``untracked`` left out) is read by an Input
    argument and written by an InOut one, or read by an Input or InOut argument and written by an
    OutputExisting one or a host element write, wherever in ``func`` those are: a necessary
    condition of ``unordered_war_possible`` (which asks, of the same pairs of accesses, that the
    read may come before the write). One walk of the statements its walk visits (a task, a host
    write, the bodies of loops, ifs and scopes), which stops at the first root so met."""
    ways: dict[str, int] = {}  # root -> how arguments met so far access it (_BY_INPUT | _BY_INOUT | _BY_EXISTING)
    nothing: tuple = ()
    stack = [func.body]
    while stack:
        for stmt in stack.pop():
            kind = stmt._production
            if kind == "Task":
                for arg in stmt.args:
                    direction = arg.dir
                    if direction is _INPUT:
                        way = _BY_INPUT
                    elif direction is _INOUT:
                        way = _BY_INOUT
                    elif direction is _OUTPUT_EXISTING:
                        way = _BY_EXISTING
                    else:
                        continue
                    value = arg.value
                    if value._production != "Var":
                        continue
                    for root, _ in store.get(value.name, nothing):
                        was = ways.get(root, 0)
                        if not was & way and not (untracked and root in untracked):
                            now = ways[root] = was | way
                            if now in _UNORDERED_WAYS:
                                return True
            elif kind in _ONE_BODY:
                stack.append(stmt.body)
            elif kind == "If":
                stack += (stmt.then, stmt.orelse)
            elif kind == "WriteTensor":
                value = stmt.tensor
                if value._production == "Var":
                    for root, _ in store.get(value.name, nothing):
                        was = ways.get(root, 0)
                        if not was & _BY_EXISTING and not (untracked and root in untracked):
                            now = ways[root] = was | _BY_EXISTING
                            if now in _UNORDERED_WAYS:
                                return True
    return False


class _ReadRoots:
    """The roots some reads may have read (regions not looked at), and whether an Input argument
    may have read each."""

    def __init__(self):
        self.roots: dict[str, bool] = {}  # root -> whether an Input argument (else only InOut ones) may have read it

    def note(self, places, by_input: bool, trail: list) -> None:
        """Note a read of each of ``places`` ((root, region) pairs), by an Input argument or not;
        what it changes goes on ``trail`` as (self, what ``remove`` takes to take it back, root,
        region, by_input)."""
        roots = self.roots
        for root, region in places:
            was = roots.get(root)
            if was is None or (by_input and not was):
                roots[root] = by_input
                trail.append((self, (root, was), root, region, by_input))

    def remove(self, token) -> None:
        root, was = token
        if was is None:
            del self.roots[root]
        else:
            self.roots[root] = was

    def met(self, places, by_input: bool) -> bool:
        """Whether a read noted (by an Input argument, with ``by_input``) may overlap one of ``places``."""
        roots = self.roots
        for root, _ in places:
            was = roots.get(root)
            if was is not None and (was or not by_input):
                return True
        return False


class _Read(tuple):
    """A read noted in a ``RegionIndex`` (which files accesses by their ``region``)."""

    __slots__ = ()

    @property
    def region(self):
        return self[0]


class _ReadRegions:
    """The regions of each root some reads may have read (all, and those an Input argument may have)."""

    def __init__(self):
        self.indexes: dict[tuple[str, bool], RegionIndex] = {}  # (root, read by an Input argument) -> its reads

    def note(self, places, by_input: bool, trail: list) -> None:
        """``_ReadRoots.note``'s, by region."""
        for root, region in places:
            for key in ((root, True), (root, False)) if by_input else ((root, False),):
                index = self.indexes.get(key)
                if index is None:
                    index = self.indexes[key] = RegionIndex()
                read = _Read((region,))
                if index.add(read):
                    trail.append((self, (index, read), root, region, by_input))

    def remove(self, token) -> None:
        index, read = token
        index.discard(read)

    def met(self, places, by_input: bool) -> bool:
        for root, region in places:
            index = self.indexes.get((root, by_input))
            if index and index.overlapping(region):
                return True
        return False


def _write_after_read(func, store: dict, untracked: set[str], reads_class) -> bool:
    """``unordered_war_possible`` with the reads noted in a ``reads_class`` object."""
    reads = reads_class()  # what an Input or InOut argument may have read before this point
    note, met = reads.note, reads.met
    trail: list = []  # (reads, token, root, region, by_input) of what was noted, oldest first (to undo a branch)
    nothing: tuple = ()
    # variable -> the places of tracked roots it may be (``store`` itself where every root is tracked)
    places_of = (store if not untracked else _tracked_places(store, untracked)).get

    def note_reads(task) -> None:
        for arg in task.args:
            direction = arg.dir
            if direction is _INPUT or direction is _INOUT:
                value = arg.value
                if value._production == "Var":
                    note(places_of(value.name, nothing), direction is _INPUT, trail)

    def writes_after_read(stmt) -> bool:
        """An InOut write after an Input read, an OutputExisting or host write after any read."""
        if stmt._production == "WriteTensor":
            value = stmt.tensor
            return value._production == "Var" and met(places_of(value.name, nothing), False)
        for arg in stmt.args:
            direction = arg.dir
            if direction is _INOUT or direction is _OUTPUT_EXISTING:
                value = arg.value
                if value._production == "Var" and met(places_of(value.name, nothing), direction is _INOUT):
                    return True
        return False

    def undo(mark: int) -> list:
        """Take back what was noted since ``mark``; returns it."""
        undone = trail[mark:]
        del trail[mark:]
        for noted, token, _, _, _ in reversed(undone):
            noted.remove(token)
        return undone

    def loop_body(body) -> bool:
        """A later iteration runs after every read of the body: each write in it is checked once
        all of them are noted."""
        writes = []
        stack = [body]
        while stack:
            for stmt in stack.pop():
                kind = stmt._production
                if kind == "Task":
                    note_reads(stmt)
                    writes.append(stmt)
                elif kind == "WriteTensor":
                    writes.append(stmt)
                elif kind == "If":
                    stack += (stmt.then, stmt.orelse)
                elif kind in ("For", "While", "Scope", "CompilerScope"):
                    stack.append(stmt.body)
        for stmt in writes:
            if writes_after_read(stmt):
                return True
        return False

    def block(stmts) -> bool:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                note_reads(stmt)
                if writes_after_read(stmt):
                    return True
            elif kind == "WriteTensor":
                if writes_after_read(stmt):
                    return True
            elif kind == "For" or kind == "While":
                if loop_body(stmt.body):
                    return True
            elif kind == "If":
                mark = len(trail)
                if block(stmt.then):
                    return True
                then_reads = undo(mark)
                if block(stmt.orelse):
                    return True
                for _, _, root, region, by_input in then_reads:  # after the if: what either branch read
                    note(((root, region),), by_input, trail)
            elif kind in ("Scope", "CompilerScope"):
                if block(stmt.body):
                    return True
        return False

    found = block(func.body)
    block = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)
    return found


def _tracked_places(store: dict, untracked: set[str]) -> dict[str, tuple]:
    """``store`` without the places of ``untracked`` roots."""
    out = {}
    for name, places in store.items():
        out[name] = tuple(p for p in places if p[0] not in untracked)
    return out


def untracked_roots(func) -> set[str]:
    """Buffers created with manual_dep=True: the runtime does not track them, nor do we."""
    return {
        s.var.name
        for s in iter_stmts(func.body)
        if s._production == "Let" and s.value._production == "CreateTensor" and s.value.manual_dep
    }


def untracked_unless_manual(func) -> set[str] | None:
    """None if ``func`` has a user MANUAL scope, else ``untracked_roots(func)``, in one walk that
    stops at the first such scope (for a caller that asks the roots only without one;
    ``untracked_roots`` alone is cheaper by a test per statement)."""
    untracked = set()
    for s in iter_stmts(func.body):
        kind = s._production
        if kind == "Let":
            if s.value._production == "CreateTensor" and s.value.manual_dep:
                untracked.add(s.var.name)
        elif kind == "Scope" and s.mode is _MANUAL:
            return None
    return untracked


class MetPastRuntime:
    """Where accesses the runtime need not order after a write in an AUTO scope may come
    (``roots_met_past_runtime``): each statement numbered in program order (a body's statements
    after the statement that holds them), a task outside every MANUAL scope by its number
    (``positions``), and per root the number below which a task can be followed by such an access
    of the root (``reach``; ``anywhere``: by one of any root)."""

    __slots__ = ("positions", "reach", "anywhere")

    def __init__(self):
        self.positions: dict[int, int] = {}
        self.reach: dict[str, int] = {}
        self.anywhere = -1

    def follows(self, task, root: str) -> bool:
        """Whether such an access of ``root`` can run after ``task`` (any task in a MANUAL scope: yes)."""
        at = self.positions.get(id(task))
        return at is None or at < self.reach.get(root, -1) or at < self.anywhere


def roots_met_past_runtime(func, store: dict) -> MetPastRuntime:
    """Where the accesses the runtime need not order after a write in an AUTO scope may come: a
    task's in a MANUAL scope (nothing is ordered into one) and a host element access's (it waits
    only for its tensor's creator and producers), each on any place of its tensor (``store``; a
    host access of a tensor that is no variable, on any root). An access ``t`` can run after a
    statement ``s`` when it comes later in program order (the other branch of an if included) or
    when a loop holds both: when ``s``'s number is below ``t``'s, or at most the last number in
    ``t``'s outermost loop. One walk; per root, the greatest such bound."""
    met = MetPastRuntime()
    counter = [0]

    def reach(roots, bound: int) -> None:
        for root in roots:
            if met.reach.get(root, -1) < bound:
                met.reach[root] = bound

    def walk(stmts, manual: bool, loop: list | None) -> None:
        """``loop``: the outermost loop around, as the list of its accesses' roots (None: no loop)."""
        for stmt in stmts:
            kind = stmt._production
            at = counter[0]
            counter[0] += 1
            roots = None  # the roots this statement accesses past the runtime
            if kind == "Task":
                if manual:
                    roots = [root for arg in stmt.args if arg.value._production == "Var"
                             for root, _ in store.get(arg.value.name, ())]
                else:
                    met.positions[id(stmt)] = at
            elif kind == "WriteTensor" or (kind == "Let" and stmt.value._production == "ReadTensor"):
                tensor = stmt.tensor if kind == "WriteTensor" else stmt.value.tensor
                if tensor._production == "Var":
                    roots = [root for root, _ in store.get(tensor.name, ())]
                else:
                    roots = ["*"]
            if roots is not None:
                if loop is None:
                    reach(roots, at)
                else:
                    loop.extend(roots)
            fields = BODY_FIELDS.get(kind)
            if fields:
                inner = manual or ((kind == "Scope" or kind == "CompilerScope") and stmt.mode is ScopeMode.manual)
                outermost = loop is None and (kind == "For" or kind == "While")
                held = [] if outermost else loop
                for f in fields:
                    walk(getattr(stmt, f), inner, held)
                if outermost and held:  # (everything in the loop can follow everything in it)
                    reach(held, counter[0])

    walk(func.body, False, None)
    walk = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)
    met.anywhere = met.reach.pop("*", -1)
    return met


def is_parallel(loop) -> bool:
    return loop._production == "For" and loop.kind is _PARALLEL


def host_accessed_roots(func, kernels: dict[str, Any]) -> set[str]:
    """Roots the orchestration code itself reads or writes element by element (get/set_tensor_data)."""
    store = storage_map(func, kernels)
    roots: set[str] = set()
    for stmt in iter_stmts(func.body):
        target = None
        if stmt._production == "Let" and stmt.value._production == "ReadTensor":
            target = stmt.value.tensor
        elif stmt._production == "WriteTensor":
            target = stmt.tensor
        if target is not None and target._production == "Var":
            roots |= {r for r, _ in store.get(target.name, ())}
    return roots
