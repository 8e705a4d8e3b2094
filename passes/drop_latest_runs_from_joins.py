"""drop_latest_runs_from_joins: directed -> directed."""

from __future__ import annotations

import itertools

from nanopass.languages import DIRECTED
from nanopass.languages.statements import BODY_FIELDS, LOOPS
from nanopass.languages.terms import BinOp, CmpOp, DType, UnOp
from nanopass.rewrite import register

from .lean import LeanPass, trips_any_is, trips_parity_is
from .cells import cell_readers, join_cells, taken_names
from .loop_facts import evaluate_scalar
from .runtime_order import ASSUME, PARITY, RAN, gives_up, runtime_order
from .split_joins_by_iteration import MAX_TRIPS, counted_iterations
from .util import FreshVersions, assigned_names, iter_stmts, loop_counters, places, var_reads

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)
SAVED_ENTRIES = 2  # the entries of the barrier a chain saves: the join cell and the latest run


@register
class DropLatestRunsFromJoins(LeanPass):
    """Leave a task's latest run out of its join cell when the runtime orders the waiters after it.

    A join cell ``J`` of a task ``S`` chains a barrier after every run of ``S``. A waiter that
    the runtime orders after the latest run of ``S`` (``runtime_order``) needs the earlier runs
    only: a latest-run cell ``c`` takes ``S``'s TaskId after ``S``, and ``J`` chains ``c`` just
    before ``S`` runs again (``b = task_dummy(deps=[J, c]); J = b``, its purpose saying so), one
    barrier fewer a chain.
    A waiter the runtime does not so order waits on both cells (one entry more), only where it
    waits at most once a chain (in no loop, or both cells cleared after it), and, where no
    waiter clears them, at most two such waiters (the barrier's entries saved). Both cells are
    cleared after a waiter every later waiter is ordered after, and after a task a waiter's
    dependency names that every run of which is ordered after every run of ``S`` so far and
    every later waiter after (``_clearers``: an outer loop's task after the inner loop that runs
    ``S``, seed 38101). A host fence waits like a task
    (``fence_ordered``); nothing is cleared after it; cells another dummy reads are left alone. A
    join of a task in a loop of a few iterations known before it runs whose waiters are in no loop is left
    to ``split_joins_by_iteration`` unless every waiter is ordered after the latest run; where
    every waiter is (and the loop, of ``3 .. MAX_TRIPS`` iterations, is in no other), the join
    becomes a cell per iteration but the last (``_older_by_iteration``: after the loop the join
    holds the runs of those iterations, and each such cell the run of its own), where the
    waiters' entries on them cost no more than the barriers and entries of the lagged join. Where a
    counter ``v`` of a loop around ``S`` says a run of ``S`` is ordered after the one before
    (``v >= m``, ``RuntimeOrder.chained_from``: the swap loop's read under ``if i >= 1``'s
    writer), the barrier is left out there (``if v < m``): ``J`` keeps the runs before the
    previous one, which the new latest run is ordered after; where the counter says the run is
    ordered after every earlier one (``v >= e``, ``chained_from(..., every=True)``, with the
    joins its waiters waited on: seed 36084) ``J`` is cleared there instead, ``c`` standing for
    every run. Off with ``lean_edges=False``. Afterwards every order stays: a waiter waits for
    the older runs through
    ``J`` and for the latest through ``c`` or by the runtime, and for the runs a left-out
    barrier did not join (or a clear took out of ``J``) through the latest (tests/test_lean_loop_joins.py: a
    loop's reader and an InOut writer of what it reads under ``if i >= 1``).
    A join of a task whose innermost loop ``L`` has ``2 .. MAX_TRIPS`` iterations known before it
    runs, ``L`` in a loop, whose waiters are in the loops around ``L`` (and in others only where
    the join is cleared after them) and not in ``L``, one of them cleared (as above) and run after
    each run of ``L`` before it runs again (after ``L`` in its block, or in loops that make a trip
    and branches the known counters decide there: seed 45065), becomes a cell per iteration of ``L``
    instead (``j == k: join_k = tid``; each waiter waits on every cell, cleared with the join)
    where that costs fewer entries (``by_iteration``; seed 37117): each run of ``L`` finds the
    cells cleared and sets each, so a waiter finds in them the runs since the last clear, as in
    the join.
    A join of a task whose innermost loop ``L`` (``2 .. MAX_TRIPS`` iterations known before it
    runs, in a loop, or with a waiter in a loop) has no waiter in ``L`` is folded once a run of
    ``L`` instead (``fold_after_loop``): a cell per iteration, and after ``L`` one barrier that
    joins the join and the cells (``T + 1`` entries and a dummy, where the chain costs two and a
    dummy a run), where that costs no run of ``L`` more than the lagged join (seed 47000; the
    ``scopes`` shape's scopes). A join left a chain of barriers (a waiter in a loop that may
    wait on it again before the next run, or too many waiters on the latest run) takes the run
    itself, its barrier left out, where the counter of a loop around the task has values in which
    the run is ordered after every earlier run (``RuntimeOrder.chained_each``,
    ``guard_where_chained``: a swap loop's reader whose writer waits on the join in some
    iterations, seeds 53013 and 53144); a lagged join leaves its barrier out, as where
    ``chained_from`` says so, where such values say the run is ordered after the previous one
    (``chained_each``: seed 53144's writer of a carry swapped by the outer loop). Such values
    include those of an invariant condition (an ``if n == 0`` in a loop, ``RuntimeOrder.conditions``:
    the test is the condition or its ``not``; seed 53144, where ``n != 0`` runs a waiter of
    the join after each inner loop). A lagged join of a task whose innermost loop ``L`` (``2 ..
    MAX_TRIPS`` iterations known before it runs, in a loop) has no waiter in ``L``, the task
    running in every iteration of a run of ``L`` or in none, takes a run of ``L`` at once (``fold_lagged``): a cell per iteration but the last, and
    in the last, before the run, one barrier joins the join, the latest-run cell and those cells
    (``T + 1`` entries and a dummy a run of ``L``, where the chain costs two entries and a dummy
    a run of the task); the run goes to the latest-run cell, which the waiters wait on as before
    (the nests grammar's ``pl.range(2)`` of readers in ``pl.range(n)``, seed 70000060).
    A waiter of a join kept as a chain or lagged, in a loop around the joined task, whose
    dependency on the join is implied where its innermost loop's counter has given values or is
    at least a value, or where a loop before it made an even or odd number of trips
    (``RuntimeOrder.implied_each``, ``implied_from``: every run of the task
    comes before it by the runtime or its other edges there) waits on a cell of its own instead,
    which a guard right before it sets to no task there and to a copy of the join elsewhere (and
    so on a second for the latest-run cell, where it waits on both: ``guard_waiters``; the
    swap loop's accumulate from its third iteration on, seeds 53013 and 53020). Such a copy
    keeps the join out of ``split_joins_by_iteration``.
    """

    name = "drop_latest_runs_from_joins"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        joins = join_cells(func)
        if not joins or gives_up(program):  # (``runtime_order`` would give up whatever it tracks)
            return program
        stmts = list(iter_stmts(func.body))
        tasks_of, others = cell_readers(stmts)
        candidates = {cell: joined for cell, joined in joins.items()
                      if len(joined) == 1 and tasks_of.get(cell)
                      and all(s._production == "HostFence" for s in others.get(cell, ()))}
        if not candidates:
            return program
        order = runtime_order(program, track=[t for cell in candidates for t in tasks_of[cell]])
        if order is None:
            return program
        self.conditions = order.conditions
        where = places(func.body, ("Task", "HostFence"))
        position = {id(s): k for k, s in enumerate(stmts)}
        loops = {id(s): s for s in stmts if s._production in LOOPS}
        reads = var_reads(func.body)
        self.names = FreshVersions(taken_names(func))
        self.lagged: dict[str, str] = {}  # join cell -> its latest-run cell
        self.barriers: dict[int, str] = {}  # id(the join's barrier) -> the join cell
        self.before: dict[str, str] = {}  # TaskId binder of the joined task -> the join cell
        self.clear: dict[int, list[str]] = {}  # id(waiter) -> the cells cleared after it
        self.both: set[tuple[int, str]] = set()  # (id(waiter), join cell): it waits on the latest-run cell too
        # join cell -> (the binder of a counter ``v`` of a loop around its task, ``m``, ``e`` or
        # None): the runs with ``v >= m`` are ordered after the task's previous run, those with
        # ``v >= e`` after every earlier run (``RuntimeOrder.chained_from``)
        self.chained: dict[str, tuple] = {}
        # join cell -> (the counter's binder, its values, a cell per iteration): ``by_iteration``
        self.split: dict[str, tuple] = {}
        self.split_after: dict[str, str] = {}  # TaskId binder of a task whose join is split -> the join cell
        self.older: set[str] = set()  # the split joins with no cell for the last iteration (``_older_by_iteration``)
        self.body = func.body
        self.loop_places = None  # ``places`` of the loops (once asked)
        self.stmt_places = None  # ``places`` of the dummies and cell declarations (once asked)
        self.decl_loops = None  # cell -> the ids of the loops around its declarations (once asked)
        # join cell -> (the counter's binder, its values, a cell per iteration): ``fold_after_loop``
        self.folded: dict[str, tuple] = {}
        self.fold_loops: dict[int, list[str]] = {}  # id(loop) -> the join cells folded after it
        self.fold_after: dict[str, str] = {}  # TaskId binder of a task whose join is folded -> the join cell
        # id(barrier) of a join left as it is -> (its TaskId, a counter's binder, its values): the
        # barrier is left out where the counter has one of the values (``guard_where_chained``)
        self.guarded: dict[int, tuple] = {}
        self.held: dict[str, tuple] = {}  # such a barrier's name -> (it, its TaskId, counter, values)
        self.counters = None  # ``loop_counters`` (once asked)
        # lagged join cell -> (a counter's binder, its values) of each counter whose values say
        # the run is ordered after the previous one (``counter_tests``): no barrier there
        self.chained_values: dict[str, list] = {}
        # lagged join cell -> (its task's innermost loop, the counter's binder, its values, a cell
        # per iteration but the last): ``fold_lagged``
        self.once: dict[str, tuple] = {}
        self.once_before: dict[int, str] = {}  # id(a task whose join is so folded) -> the join cell
        # id(a waiter) -> [(a join cell it waits on, the tests in any of which the runtime or its
        # other edges order it after every run the join holds)]: ``guard_waiters``
        self.join_guards: dict[int, list] = {}
        self.guard_decls: list = []

        def ordered_after(waiter, task: int, fences: dict, tasks: dict) -> bool:
            """Every run of ``waiter`` (a task, or the host access after a fence) is ordered
            after the latest run of ``task``."""
            if waiter._production == "HostFence":
                return bool(fences.get(id(waiter), 0) >> task & 1)
            return bool(tasks.get(order.number[id(waiter)], 0) >> task & 1)

        for cell, [(barrier, tid)] in sorted(candidates.items()):
            source = order.joins.get(cell)
            if source is None or order.tasks[source].tid is None or order.tasks[source].tid.name != tid:
                continue
            if reads.get(barrier.var.name, 0) != 1:  # (its TaskId is read elsewhere than by the join)
                continue
            waiting = sorted(tasks_of[cell] + others.get(cell, []), key=lambda s: position[id(s)])
            cleared = set()  # ids of the waiting tasks every later waiter is ordered after
            for w in tasks_of[cell]:
                n = order.number[id(w)]
                later = [t for t in waiting if (t is w and where[id(w)].loops)
                         or (t is not w and _may_follow(w, t, position, where))]
                if later and all(ordered_after(t, n, order.fence_ordered, order.ordered) for t in later):
                    cleared.add(id(w))
            unordered = [w for w in waiting if not ordered_after(w, source, order.fence_runtime, order.runtime)]
            split = self.by_iteration(order.tasks[source], waiting, cleared, unordered, where, loops, position)
            if split is not None and order.chained_from(source) is None:
                counter, values = split
                self.split[cell] = (counter, values, [self.names.fresh(cell, f"it{k}") for k in range(len(values))])
                self.barriers[id(barrier)] = cell
                self.split_after[tid] = cell
                for w in tasks_of[cell]:
                    if id(w) in cleared:
                        self.clear.setdefault(id(w), []).append(cell)
                self.ctx.note("split-join", f"the join of {tid}'s runs in a loop of {len(values)} iterations becomes "
                              "one cell per iteration, cleared after its waiter", order.tasks[source].span)
                continue
            fold = None if order.chained_from(source) is not None else self.fold_after_loop(
                order.tasks[source], barrier, cell, waiting, len(unordered), where, loops)
            if fold is not None:  # (each iteration keeps its run in a cell; the join takes them after the loop)
                loop, counter, values = fold
                for w in tasks_of[cell]:
                    if id(w) in cleared:
                        self.clear.setdefault(id(w), []).append(cell)
                self.folded[cell] = (counter, values, [self.names.fresh(cell, f"it{k}") for k in range(len(values))])
                self.fold_loops.setdefault(id(loop), []).append(cell)
                self.barriers[id(barrier)] = cell
                self.fold_after[tid] = cell
                self.ctx.note("folded-join", f"every waiter of {tid}'s join is outside its loop of {len(values)} "
                              "iterations: each iteration keeps its run in a cell, and one barrier after the loop "
                              "joins them", order.tasks[source].span)
                continue
            if any(where[id(w)].loops and id(w) not in cleared for w in unordered):
                # (it may wait on the latest run again before the next run of the source)
                self.guard_where_chained(cell, barrier, tid, order.chained_each(source, every=True), func.body)
                self.guard_waiters(cell, source, tasks_of[cell], order, where, loops)
                continue
            if unordered and _split_later(order.tasks[source], waiting, where, loops):
                continue
            older = None if unordered or order.chained_from(source) is not None else _older_by_iteration(
                order.tasks[source], waiting, where, loops)
            if older is not None:  # (each waiter waits on the cells of the iterations before the last)
                counter, values = older
                self.split[cell] = (counter, values[:-1], [self.names.fresh(cell, f"it{k}") for k in range(len(values) - 1)])
                self.older.add(cell)
                self.barriers[id(barrier)] = cell
                self.split_after[tid] = cell
                self.ctx.note("split-older-join", f"the waiters of {tid}'s join are ordered after its latest run by the "
                              f"runtime: the join becomes one cell per iteration but the last of a loop of "
                              f"{len(values)} iterations", order.tasks[source].span)
                continue
            if len(unordered) > SAVED_ENTRIES and not any(id(w) in cleared for w in tasks_of[cell]):
                # (each waits on the latest-run cell too: more entries a chain than the barrier saves)
                self.guard_where_chained(cell, barrier, tid, order.chained_each(source, every=True), func.body)
                self.guard_waiters(cell, source, tasks_of[cell], order, where, loops)
                continue
            latest = self.names.fresh(cell, "latest")
            tests = self.counter_tests(order.chained_each(source), where[id(order.tasks[source])].loops, func.body)
            clearers = _clearers(cell, source, tasks_of[cell], waiting, order, position, where, ordered_after)
            once = None if tests or order.chained_from(source) is not None else self.fold_lagged(
                order.tasks[source], barrier, cell, waiting, clearers, where, loops)
            if once is not None:  # (the join takes a run of its loop at once, before its last iteration's run)
                loop, counter, values = once
                self.lagged[cell] = latest
                self.barriers[id(barrier)] = cell
                self.both.update((id(w), cell) for w in unordered)
                self.once[cell] = (loop, counter, values, [self.names.fresh(cell, f"it{k}") for k in range(len(values) - 1)])
                self.once_before[id(order.tasks[source])] = cell
                for w in tasks_of[cell]:
                    if id(w) in cleared:
                        self.clear.setdefault(id(w), []).append(cell)
                for x in clearers:
                    self.clear.setdefault(id(x), []).append(cell)
                self.ctx.note("lagged-folded-join", f"every waiter of {tid}'s join is outside its loop of {len(values)} "
                              "iterations: the join takes the runs of a run of the loop but its last iteration's "
                              "once, before that iteration's run, which the latest-run cell keeps",
                              order.tasks[source].span)
                continue
            self.lagged[cell] = latest
            self.barriers[id(barrier)] = cell
            self.before[tid] = cell
            self.guard_waiters(cell, source, tasks_of[cell], order, where, loops)
            self.both.update((id(w), cell) for w in unordered)
            chained = order.chained_from(source)
            counter = _counter_binder(chained[0], where[id(order.tasks[source])].loops, loops) if chained else None
            if counter is not None:
                every = order.chained_from(source, every=True)
                self.chained[cell] = (counter, chained[1], every[1] if every and every[0] == chained[0] else None)
            if tests:
                self.chained_values[cell] = tests
            for w in tasks_of[cell]:
                if id(w) in cleared:
                    self.clear.setdefault(id(w), []).append(cell)
            for x in clearers:
                self.clear.setdefault(id(x), []).append(cell)
                self.ctx.note("cleared-join", f"{x.kernel} is ordered after every run of {tid} and every later "
                              "waiter of its join after it: the join is cleared after it", x.span)
        if not self.lagged and not self.split and not self.folded and not self.guarded and not self.join_guards:
            return program
        self.dropped: set[str] = set()  # the join barriers' binders
        body = tuple(self.visit_all(func.body))
        return self.build(program, orch=self.build(func, body=tuple(self.guard_decls) + body))

    def guard_waiters(self, cell: str, source: int, waiters: list, order, where, loops: dict) -> None:
        """Record in ``join_guards`` each waiter ``W`` of the join ``cell`` (kept as a join, or
        lagged: each waiter still waits on the join and, where ``both``, its latest-run cell)
        whose dependency on it is implied where the counter of ``W``'s innermost loop, a ``For``,
        has given values (``RuntimeOrder.implied_each``) or is at least a value
        (``implied_from``), or where a loop before ``W`` of bounds that read only the scalar
        parameters made an even or odd number of trips, or some or none (``(PARITY, k)``,
        ``(RAN, k)``; ``W`` in no loop the joined task is not in; not "none" of a loop in no
        other loop around the joined task: the join then holds no run): there every walk orders ``W``
        after every run of the joined task by the runtime or ``W``'s other edges (the swap loop's
        accumulate from its third iteration on, after the copy whose output it reads, which came
        after the previous accumulate; a reader after the swap loop, of what its accumulate
        wrote where it made an even number of trips, seed 47184). ``W`` then waits on cells of
        its own that a guard sets to no task there and to a copy of the join (and of the
        latest-run cell) elsewhere (``Task``). Not the joined task itself, nor a waiter of two
        dependencies on the cell; where its loop is not around the joined task, only a loop of
        known iterations whose values the guard tests, not all those after the first (there
        ``drop_edges_after_first_run`` inserts the edge once a run of the task)."""
        if self.loop_places is None:
            self.loop_places = places(self.body, LOOPS)
        for w in waiters:
            n = order.number.get(id(w))
            at = [k for k, d in enumerate(w.deps) if d._production == "CellDep" and d.cell == cell]
            if n is None or n == source or len(at) != 1:
                continue
            around = where[id(w)].loops
            source_loops = where[id(order.tasks[source])].loops
            tests = []  # (a counter's binder, CmpOp, value), or (PARITY or RAN, the loop, value)
            if around <= source_loops:
                for v, values in order.implied_each(n, at[0]):
                    if isinstance(v, tuple) and v[0] in (PARITY, RAN) and len(values) == 1:
                        loop = order.parity_loops[v[1]]
                        if v[0] == RAN and not values[0] and id(loop) in source_loops and not self.loop_places[id(loop)].loops:
                            continue  # (no trip of the one loop around the task: the join holds no run)
                        tests.append((v[0], loop, values[0]))
            inner = [k for k in around if self.loop_places[k].loops == around - {k}]
            if len(inner) == 1 and loops[inner[0]]._production == "For":
                counter = loops[inner[0]].var
                mine = []
                for v, values in order.implied_each(n, at[0]):
                    if v == counter.name:
                        mine += [(counter, CmpOp.eq, k) for k in values if isinstance(k, int) and not isinstance(k, bool)]
                for (v, _), (m,) in order.implied_from(n, at[0]):
                    if v == counter.name:
                        mine.append((counter, CmpOp.ge, m))
                if mine and inner[0] not in source_loops:
                    # (a loop not around the joined task: where the edge is implied in every
                    # iteration after the first, ``drop_edges_after_first_run`` inserts it once)
                    counted = counted_iterations(loops[inner[0]])
                    if (counted is None or any(op != CmpOp.eq for _, op, _ in mine)
                            or set(counted[1][1:]) <= {k for _, _, k in mine}):
                        mine = []
                tests += mine
            if tests:
                self.join_guards.setdefault(id(w), []).append((cell, tests))

    def guarded_joins(self, key: int, task) -> tuple:
        """(the guards before ``task``, ``task`` waiting on their cells) for the joins
        ``guard_waiters`` recorded of it: a guard ``if`` a cell, each right before the task, so
        that ``clear_cells_after_waiters`` reads the last as a guard's copy."""
        guards = []
        swap: dict[str, str] = {}
        span = task.span
        for cell, tests in self.join_guards.get(key, ()):
            cond = None
            for what, op, value in tests:
                if what == PARITY:
                    test = trips_parity_is(op, value)
                elif what == RAN:
                    test = trips_any_is(op, value)
                else:
                    test = D.Cmp(op, D.Var(what.name, span=span), D.Int(value, what.type.dtype, span=span), span=span)
                cond = test if cond is None else D.Bin(BinOp.or_, cond, test, span=span)
            copied = [cell] + ([self.lagged[cell]] if (key, cell) in self.both else [])
            for c in copied:
                mine = self.names.fresh(f"{cell}_unless_implied", "cell")
                none = self.names.fresh("no_task", "none")
                self.guard_decls.append(D.CellDecl(mine, span=span))
                guards.append(D.If(cond, (D.Let(D.Binder(none, TID_TYPE, span=span), D.NoTask(), span=span),
                                          D.CellSet(mine, D.Var(none, span=span), span=span)),
                                   (D.CellSet(mine, D.Var(c, span=span), span=span),), (), span=span))
                swap[c] = mine
            said = " or ".join(f"the loop over {op.var.name} made {'an odd' if value else 'an even'} number of trips" if what == PARITY
                               else f"the loop over {op.var.name} made {'some trips' if value else 'no trip'}" if what == RAN
                               else f"{what.name} {'is' if op == CmpOp.eq else 'is at least'} {value}" for what, op, value in tests)
            self.ctx.note("dropped-edge", f"{task.kernel} waits for every run {cell} joins through the runtime or its "
                          f"other edges where {said}: its edge on the join goes there", span)
        if not guards:
            return [], task
        return guards, task.replace(deps=[D.CellDep(swap[d.cell], span=d.span) if d._production == "CellDep"
                                          and d.cell in swap else d for d in task.deps])

    def by_iteration(self, source, waiting, cleared: set, unordered: list, where, loops: dict, position: dict):
        """(the counter's binder, its values: ``counted_iterations``) of the loop ``L`` of ``2 ..
        MAX_TRIPS`` iterations known before it runs that is the innermost loop around ``source``,
        where a cell per iteration of ``L`` may stand for ``source``'s join: ``L`` is in a loop,
        every waiter (``waiting``) is in the loops around ``L``, not in ``L``, and in no other
        loop unless the join is cleared after it (``cleared``: it waits on the cells once a run of
        ``L``), and a waiter that runs after each run of ``L`` before ``L`` runs again (after ``L``
        in its block, or reached there through loops that make a trip and branches the counters of
        the loops around decide: ``_runs_after``) is one after which the join is cleared: a run of
        ``L`` finds the cells empty, and every
        iteration sets its own, so that a waiter finds in them the runs of ``source`` since the
        last clear, as it would in the join. And the cells cost fewer entries than the lagged
        join's barriers and entries a run of ``L`` (two a barrier from the third iteration on, one
        of a single entry is not submitted, and one a waiter, two where ``unordered``), or as many
        where the barriers cost a dummy (``T >= 3``). Else None."""
        around = where[id(source)].loops
        if not around:
            return None
        if self.loop_places is None:
            self.loop_places = places(self.body, LOOPS)
        inner = [k for k in around if self.loop_places[k].loops == around - {k}]
        if len(inner) != 1:
            return None
        loop = inner[0]
        counted = counted_iterations(loops[loop])
        if counted is None or not 2 <= len(counted[1]) <= MAX_TRIPS:
            return None
        outer = around - {loop}
        if not outer or any(not where[id(w)].loops >= outer or loop in where[id(w)].loops
                            or where[id(w)].loops != outer and id(w) not in cleared for w in waiting):
            return None  # (in no loop: ``split_joins_by_iteration``'s, or the lagged join's)
        trips, late = len(counted[1]), {id(w) for w in unordered}
        cost, lagged = trips * len(waiting), 2 * (trips - 2) + sum(1 + (id(w) in late) for w in waiting)
        if cost > lagged or cost == lagged and trips < 3:
            return None
        block = self.loop_places[loop].block
        if any(id(w) in cleared and where[id(w)].block == block and position[id(w)] > position[loop]
               for w in waiting):
            return counted
        clearing = {id(w) for w in waiting if id(w) in cleared}
        return counted if clearing and _runs_after(self.body, loops[loop], clearing, self.known(outer, loops)) else None

    def guard_where_chained(self, cell: str, barrier, tid: str, where: list, body) -> None:
        """Leave the barrier of the join ``cell`` (kept as it is) out where a counter ``v`` of a
        loop around it has one of the values ``K`` (each of ``where``,
        ``RuntimeOrder.chained_each``: there the run of the joined task is ordered after every
        earlier run of it, and so after every run the join holds), the join storing the TaskId
        there instead (``if v == k or ...: join = tid``, else the barrier and its store): a later
        waiter waits for that run, after which every run the join held came. Only where the
        statement after the barrier stores it in the join; not on the first iteration of a loop
        in no loop (the join is empty there)."""
        if not where:
            return
        if self.stmt_places is None:
            self.stmt_places = places(self.body, ("Dummy", "CellDecl"))
        place = self.stmt_places[id(barrier)]
        after = place.next
        if (after is None or after._production != "CellSet" or after.cell != cell or after.value._production != "Var"
                or after.value.name != barrier.var.name):
            return
        tests = self.counter_tests(where, place.loops, body)
        if tests:
            self.guarded[id(barrier)] = (tid, tests)

    def counter_tests(self, where: list, around, body) -> list:
        """(a counter's binder, its values) of each of ``where`` (``RuntimeOrder.chained_each``)
        that names the counter of one of the loops ``around`` (ids), less the first value of a
        loop in no loop (the join is empty there: its barrier would have one entry, which is not
        submitted, and a guard would cost a join kept as it is its clears)."""
        if self.counters is None:
            self.counters = dict(loop_counters(body))
        if self.loop_places is None:
            self.loop_places = places(self.body, LOOPS)
        tests = []  # (a counter's binder, its values): a run in which any holds is so ordered
        for v, values in where:
            if isinstance(v, tuple) and v[0] == ASSUME:
                cond = self.conditions.get(v)
                if cond is not None and len(values) == 1:  # (an invariant condition: ``_any_value``)
                    tests.append((cond, values))
                continue
            counter = self.counters.get(v) if isinstance(v, str) else None
            if counter is None or counter[1] not in around or not all(
                    isinstance(k, int) and not isinstance(k, bool) for k in values):
                continue
            loop = self.loop_places[counter[1]]
            if not loop.loops and loop.stmt._production == "For" and loop.stmt.start._production == "Int":
                values = tuple(k for k in values if k != loop.stmt.start.value)
            if values:
                tests.append((counter[0], values))
        return tests

    def fold_after_loop(self, source, barrier, cell: str, waiting, late: int, where, loops: dict):
        """(the loop ``L``, its counter's binder, its values: ``counted_iterations``) where the join
        ``cell`` of ``source`` may be folded once a run of ``L`` instead of once a run of ``source``:
        ``L`` is the innermost loop around ``source`` and its barrier, of ``2 .. MAX_TRIPS``
        iterations known before it runs, the join is declared outside ``L`` and no waiter
        (``waiting``: tasks and host fences) is in ``L``, so that nothing reads the join while
        ``L`` runs. Each iteration ``k`` then keeps its run in a cell ``join_k`` (``j == k: join_k
        = tid``), and after ``L`` one barrier joins the join and the cells (``b = task_dummy(deps=
        [join, join_0, ...]); join = b``, the cells cleared): ``T + 1`` entries and a dummy a run
        of ``L``, where the chain costs two entries and a dummy a run of ``source`` (``2 * T`` a
        run of ``L``), and a waiter one entry either way. Where a waiter clears the join (``T``
        entries a run of ``L`` that finds it cleared), the lagged join costs ``2 * (T - 2)`` such a
        run and one entry more each waiter that waits on its latest-run cell too (``late`` of
        them): taken where ``T >= 4 - late``, so that no run of ``L`` costs more than the lagged
        join's; where ``L`` is in no loop, only where ``T >= 4``: its one run starts from an empty
        join, where the chain costs ``2 * (T - 2)`` entries and ``T - 2`` dummies (its first two
        barriers hold one run at the most and submit nothing; manual seed 24183: ``pl.parallel(2)``,
        2 entries where the fold costs 3 and a dummy). Not where ``split_joins_by_iteration`` or ``_older_by_iteration`` (``L`` and every
        waiter in no other loop) need no barrier at all. Else None."""
        found = self.loop_to_fold(source, barrier, cell, waiting, where, loops, max(2, 4 - late))
        if found is None:
            return None
        key, counted = found
        if not self.loop_places[key].loops and not any(where[id(w)].loops for w in waiting):
            return None  # (a cell per iteration and no barrier: ``split_joins_by_iteration``'s)
        if not self.loop_places[key].loops and len(counted[1]) < 4:
            return None  # (the join is empty when ``L`` starts: the chain's first two barriers submit nothing)
        return loops[key], counted[0], counted[1]

    def loop_to_fold(self, source, barrier, cell: str, waiting, where, loops: dict, fewest: int):
        """(id of ``L``, ``counted_iterations`` of it) for the folds of the join ``cell`` of
        ``source`` (``fold_after_loop``, ``fold_lagged``): ``L`` is the innermost loop around
        ``source`` and its barrier, of ``fewest .. MAX_TRIPS`` iterations known before it runs,
        the join is declared outside ``L``, and none of ``waiting`` is in ``L``; else None."""
        around = where[id(source)].loops
        if not around:
            return None
        if self.loop_places is None:
            self.loop_places = places(self.body, LOOPS)
        if self.stmt_places is None:
            self.stmt_places = places(self.body, ("Dummy", "CellDecl"))
        inner = [k for k in around if self.loop_places[k].loops == around - {k}]
        if len(inner) != 1:
            return None
        key = inner[0]
        counted = counted_iterations(loops[key])
        if counted is None or not fewest <= len(counted[1]) <= MAX_TRIPS:
            return None
        if self.stmt_places[id(barrier)].loops != around:
            return None
        if self.decl_loops is None:  # (cell -> the loops around its declarations, once asked)
            self.decl_loops = {}
            for place in self.stmt_places.values():
                if place.stmt._production == "CellDecl":
                    self.decl_loops.setdefault(place.stmt.cell, set()).update(place.loops)
        if key in self.decl_loops.get(cell, ()):
            return None
        if any(key in where[id(w)].loops for w in waiting):
            return None
        return key, counted

    def fold_lagged(self, source, barrier, cell: str, waiting, clearers, where, loops: dict):
        """(the loop ``L``, its counter's binder, its values: ``counted_iterations``) where the
        lagged join ``cell`` of ``source`` may take the runs of a run of ``L`` at once: ``L`` is
        the innermost loop around ``source`` and its barrier, in a loop, of ``2 .. MAX_TRIPS``
        iterations known before it runs, the join is declared outside ``L``, no waiter nor task
        that clears the join (``clearers``) is in ``L``, and ``source`` runs in every iteration
        of a run of ``L`` or in none (``_every_iteration``). Each iteration ``k`` but the last
        keeps its run in a cell ``join_k``, and in the last, before the run, one barrier joins the
        join, the latest-run cell and those cells (``b = task_dummy(deps=[join, latest, join_0,
        ...]); join = b``); the run goes to the latest-run cell, as in the lagged join, whose
        waiters wait alike. A run of ``L`` then costs ``T + 1`` entries and a dummy where the
        lagged join's costs ``2 * T`` and ``T`` dummies (seed 70000060 of the nests grammar: a
        ``pl.range(2)`` of readers in ``pl.range(n)`` and their writer after both, 10 entries
        at ``n = 3`` where the lagged join inserts 10 and the fold 9: 8), and ``T - 1`` where
        it starts from an empty join and latest-run cell, as the lagged join's (whose first two
        barriers submit nothing) and no more. Else None."""
        found = self.loop_to_fold(source, barrier, cell, list(waiting) + list(clearers), where, loops, 2)
        if found is None or not self.loop_places[found[0]].loops:
            return None
        key, counted = found
        if not _every_iteration(loops[key], source):
            return None
        return loops[key], counted[0], counted[1]

    def For(self, loop):
        out = self.build(loop, body=self.visit_all(loop.body))
        cells = self.fold_loops.get(id(loop))
        if not cells:
            return out
        out, span = [out], loop.span
        for cell in cells:
            _, _, kept = self.folded[cell]
            barrier = self.names.fresh(cell, "folded")
            none = self.names.fresh("no_task", "none")
            out += [D.Dummy(D.Binder(barrier, TID_TYPE, span=span), [D.CellDep(cell)] + [D.CellDep(c) for c in kept],
                            "joins every run of the loop's task so far, once the loop has run", span=span),
                    D.CellSet(cell, D.Var(barrier), span=span),
                    D.Let(D.Binder(none, TID_TYPE, span=span), D.NoTask(), span=span)]
            out += [D.CellSet(c, D.Var(none), span=span) for c in kept]
        return out

    While = For

    def known(self, outer, loops: dict) -> dict:
        """counter name -> its values (``counted_iterations``), of the loops ``outer`` (ids) whose
        iterations are known before they run."""
        out = {}
        for key in outer:
            values = counted_iterations(loops[key])
            if values is not None:
                out[values[0].name] = values[1]
        return out

    def CellDecl(self, decl):
        split = self.split.get(decl.cell)
        if split is not None:
            return [D.CellDecl(c, span=decl.span) for c in split[2]]
        folded = self.folded.get(decl.cell)
        if folded is not None:
            return [decl] + [D.CellDecl(c, span=decl.span) for c in folded[2]]
        latest = self.lagged.get(decl.cell)
        if latest is None:
            return decl
        once = self.once.get(decl.cell)
        return [decl, D.CellDecl(latest, span=decl.span)] + [D.CellDecl(c, span=decl.span) for c in (once[3] if once else ())]

    def Dummy(self, dummy):
        guarded = self.guarded.get(id(dummy))
        if guarded is not None:
            self.held[dummy.var.name] = (dummy, *guarded)
            return []
        cell = self.barriers.get(id(dummy))
        if cell is None:
            return dummy
        self.dropped.add(dummy.var.name)
        return []

    def CellSet(self, cell_set):
        held = self.held.pop(cell_set.value.name, None) if cell_set.value._production == "Var" else None
        if held is not None:
            dummy, tid, tests = held
            span = cell_set.span
            cond = _any_value(tests, span)
            where = _said(tests)
            self.ctx.note("chained-join", f"where {where} the runtime orders {tid}'s run after every earlier one: "
                          "the join takes the run, and its barrier goes there", dummy.span)
            return D.If(cond, (cell_set.replace(value=D.Var(tid, span=cell_set.value.span)),), (dummy, cell_set), (),
                        span=span)
        if ((cell_set.cell in self.lagged or cell_set.cell in self.split or cell_set.cell in self.folded) and cell_set.value._production == "Var"
                and cell_set.value.name in self.dropped):
            return []
        return cell_set

    def HostFence(self, fence):
        return self.with_latest(fence)

    def with_latest(self, stmt):
        """``stmt`` waiting on the latest-run cell of each join it waits on that it must (``both``)."""
        key = id(stmt)
        if self.split and any(d._production == "CellDep" and d.cell in self.split for d in stmt.deps):
            stmt = stmt.replace(deps=[x for d in stmt.deps for x in (
                [D.CellDep(c, span=d.span) for c in self.split[d.cell][2]]
                if d._production == "CellDep" and d.cell in self.split else [d])])
        if not any((key, d.cell) in self.both for d in stmt.deps if d._production == "CellDep"):
            return stmt
        return stmt.replace(deps=[x for d in stmt.deps for x in (
            [d, D.CellDep(self.lagged[d.cell], span=d.span)]
            if d._production == "CellDep" and (key, d.cell) in self.both else [d])])

    def Task(self, task):
        key = id(task)
        task = self.with_latest(task)
        guards, task = self.guarded_joins(key, task)
        out = []
        once = self.once_before.get(key)
        if once is not None:  # (the last iteration's barrier joins the join, the latest run and the iterations' cells)
            _, counter, values, kept = self.once[once]
            span = task.span
            barrier = self.names.fresh(once, "once")
            tid = D.Var(task.tid.name, span=span)
            last = D.Cmp(CmpOp.eq, D.Var(counter.name, span=span), D.Int(values[-1], counter.type.dtype, span=span), span=span)
            out.append(D.If(last, (D.Dummy(D.Binder(barrier, TID_TYPE, span=span),
                                           [D.CellDep(once), D.CellDep(self.lagged[once])] + [D.CellDep(c) for c in kept],
                                           f"joins every run of {task.kernel} so far, before its loop's last iteration's",
                                           span=span),
                                   D.CellSet(once, D.Var(barrier), span=span)), (), (), span=span))
            out += guards
            out.append(task)
            chain = [D.CellSet(self.lagged[once], tid, span=span)]
            for k in range(len(kept) - 1, -1, -1):
                at = D.Cmp(CmpOp.eq, D.Var(counter.name, span=span), D.Int(values[k], counter.type.dtype, span=span), span=span)
                chain = [D.If(at, (D.CellSet(kept[k], tid, span=span),), tuple(chain), (), span=span)]
            out += chain
            for cleared in self.clear.get(key, ()):
                none = self.names.fresh("no_task", "none")
                out.append(D.Let(D.Binder(none, TID_TYPE, span=span), D.NoTask(), span=span))
                out += [D.CellSet(c, D.Var(none), span=span) for c in (cleared, self.lagged[cleared])]
            return out
        cell = self.before.get(task.tid.name) if task.tid is not None else None
        if cell is not None:
            span = task.span
            barrier = self.names.fresh(cell, "older")
            chain = [D.Dummy(D.Binder(barrier, TID_TYPE, span=span), [D.CellDep(cell), D.CellDep(self.lagged[cell])],
                             f"joins every run of {task.kernel} so far, before its next run", span=span),
                     D.CellSet(cell, D.Var(barrier), span=span)]
            tests = self.chained_values.get(cell)
            if tests is not None:
                chain = [D.If(_any_value(tests, span), (), tuple(chain), (), span=span)]
                where = _said(tests)
                self.ctx.note("chained-join", f"where {where} the runtime orders {task.kernel} after its previous run: "
                              "the join keeps its older runs and the latest-run cell stands for the previous one", span)
            chained = self.chained.get(cell)
            if chained is not None:
                counter, m, every = chained
                test = D.Cmp(CmpOp.lt, D.Var(counter.name), D.Int(m, counter.type.dtype))
                rest = ()
                if every is not None:  # (the join is cleared: the latest-run cell stands for every run)
                    none = self.names.fresh("no_task", "none")
                    rest = (D.Let(D.Binder(none, TID_TYPE, span=span), D.NoTask(), span=span),
                            D.CellSet(cell, D.Var(none), span=span))
                    if every > m:
                        at = D.Cmp(CmpOp.ge, D.Var(counter.name), D.Int(every, counter.type.dtype))
                        rest = (D.If(at, rest, (), (), span=span),)
                    self.ctx.note("chained-join", f"where {counter.name} >= {every} the runtime orders {task.kernel} "
                                  "after every earlier run: the join is cleared before it", span)
                chain = [D.If(test, tuple(chain), rest, (), span=span)]
                self.ctx.note("chained-join", f"where {counter.name} >= {m} the runtime orders {task.kernel} after "
                              "its previous run: the join keeps its older runs and the latest-run cell stands "
                              "for the previous one", span)
            out += chain
            self.ctx.note("lagged-join", f"the waiters of {task.kernel}'s join are ordered after its latest run by the "
                          "runtime: the join takes each run when the next one starts", span)
        out += guards
        out.append(task)
        if cell is not None:
            out.append(D.CellSet(self.lagged[cell], D.Var(task.tid.name), span=task.span))
        split = self.split_after.get(task.tid.name) if task.tid is not None else None
        if split is None and task.tid is not None and task.tid.name in self.fold_after:
            split = self.fold_after[task.tid.name]
        if split is not None:  # (the cell of the iteration takes the run)
            counter, values, cells = self.split[split] if split in self.split else self.folded[split]
            span = task.span
            tid = D.Var(task.tid.name, span=span)
            guarded = len(cells) if split in self.older else len(cells) - 1  # (older: the last iteration sets none)
            chain = [] if split in self.older else [D.CellSet(cells[-1], tid, span=span)]
            for k in range(guarded - 1, -1, -1):
                at = D.Cmp(CmpOp.eq, D.Var(counter.name, span=span), D.Int(values[k], counter.type.dtype, span=span), span=span)
                chain = [D.If(at, (D.CellSet(cells[k], tid, span=span),), tuple(chain), (), span=span)]
            out += chain
        for cleared in self.clear.get(key, ()):
            none = self.names.fresh("no_task", "none")
            out.append(D.Let(D.Binder(none, TID_TYPE, span=task.span), D.NoTask(), span=task.span))
            cells = (self.split[cleared][2] if cleared in self.split else [cleared] if cleared in self.folded
                     else [cleared, self.lagged[cleared]])
            out += [D.CellSet(c, D.Var(none), span=task.span) for c in cells]
        return out if len(out) > 1 else task


def _every_iteration(loop, task) -> bool:
    """Whether ``task`` runs in every iteration of a run of ``loop`` or in none: it is in the
    loop's body, through scopes and branches whose conditions read no name the loop binds (its
    counter, carries and every name bound in it), which take the same branch in each iteration."""
    bound = assigned_names(loop.body) | {it.var.name for it in loop.iters}
    if loop._production == "For":
        bound.add(loop.var.name)

    def find(stmts) -> bool:
        for stmt in stmts:
            if stmt is task:
                return True
            kind = stmt._production
            if kind in ("Scope", "CompilerScope") and find(stmt.body):
                return True
            if kind == "If" and not (set(var_reads(stmt.cond)) & bound) and (find(stmt.then) or find(stmt.orelse)):
                return True
        return False

    return find(loop.body)


def _any_value(tests: list, span):
    """``v == k or ...`` for each (counter binder ``v``, its values) of ``tests`` and each value;
    an invariant condition's (``counter_tests``: its expression, True or False) is it or ``not``
    it."""
    cond = None
    for counter, values in tests:
        for k in values:
            if counter._production != "Binder":
                test = counter if k else D.Un(UnOp.not_, counter, span=span)
            else:
                test = D.Cmp(CmpOp.eq, D.Var(counter.name, span=span), D.Int(k, counter.type.dtype, span=span), span=span)
            cond = test if cond is None else D.Bin(BinOp.or_, cond, test, span=span)
    return cond


def _said(tests: list) -> str:
    """``tests`` (``counter_tests``) in words, for a note."""
    return " or ".join(f"{c.name} is {' or '.join(map(str, values))}" if c._production == "Binder"
                       else f"the condition at line {c.span.line if c.span else '?'} is {values[0]}" for c, values in tests)


def _counter_binder(name: str, around, loops: dict):
    """The binder of the counter ``name`` of one of the loops ``around`` (ids): a ``For``'s
    variable or a ``while``'s carry; or None."""
    for key in around:
        loop = loops[key]
        binders = [loop.var] if loop._production == "For" else [it.var for it in loop.iters]
        for binder in binders:
            if binder.name == name:
                return binder
    return None


def _split_later(source, tasks, where, loops: dict) -> bool:
    """Whether ``split_joins_by_iteration`` may replace the join of ``source`` by a cell per
    iteration, which costs its waiters no barrier: every waiter is outside every loop, and
    ``source`` is in one loop of ``2 .. MAX_TRIPS`` iterations known before it runs
    (``counted_iterations``)."""
    if any(where[id(w)].loops for w in tasks) or len(where[id(source)].loops) != 1:
        return False
    (loop,) = where[id(source)].loops
    counted = counted_iterations(loops[loop])
    return counted is not None and 2 <= len(counted[1]) <= MAX_TRIPS


def _older_by_iteration(source, waiting, where, loops: dict):
    """(the counter's binder, its values: ``counted_iterations``) where every waiter of
    ``source``'s join is ordered after the latest run of ``source`` by the runtime, is in no loop,
    and ``source`` is in one loop ``L`` of ``3 .. MAX_TRIPS`` iterations known before it runs, in
    no other: ``L`` runs once, and after it the join holds the runs of the iterations before the
    last, which a cell per such iteration holds as well (``j == k: join_k = tid``). ``W`` waiters
    then insert ``W * (T - 1)`` entries where the lagged join costs ``2 * (T - 2) + W`` and
    ``T - 2`` dummies: taken where that is no more. Else None."""
    if any(where[id(w)].loops for w in waiting) or len(where[id(source)].loops) != 1:
        return None
    (loop,) = where[id(source)].loops
    counted = counted_iterations(loops[loop])
    if counted is None:
        return None
    trips = len(counted[1])
    if not 3 <= trips <= MAX_TRIPS or len(waiting) * (trips - 1) > 2 * (trips - 2) + len(waiting):
        return None
    return counted


def _clearers(cell: str, source: int, tasks: list, waiting: list, order, position: dict, where, ordered_after) -> list:
    """The tasks other than the join's waiters (``tasks``) after which the lagged join ``cell`` of
    task number ``source`` is cleared: those a waiter's dependency names (relevant ones: a
    waiter's other edge, on a latest-run cell say), each of whose runs is ordered after every
    run of ``source`` so far (``RuntimeOrder.is_ordered_every``), and after whose latest run every
    waiter of ``cell`` that may follow it (``waiting``: tasks and host fences) is ordered. A later
    waiter waits for the runs since the clear through the cells and for the earlier ones through
    that task (seed 38101: ``k_add_last``, after an inner loop whose task's runs the join holds)."""
    named, seen = [], {id(t) for t in tasks}
    for w in tasks:
        for dep in w.deps:
            n = order.source_of(dep)
            if n is None or n == source:
                continue
            x = order.tasks[n]
            if id(x) not in seen:
                seen.add(id(x))
                named.append(x)
    out = []
    for x in named:
        n = order.number[id(x)]
        if not order.is_ordered_every(n, source):
            continue
        later = [t for t in waiting if _may_follow(x, t, position, where)]
        if later and all(ordered_after(t, n, order.fence_ordered, order.ordered) for t in later):
            out.append(x)
    return out


def _may_follow(first, then, position: dict, where) -> bool:
    """A run of ``then`` may come after a run of ``first``."""
    return position[id(then)] > position[id(first)] or bool(where[id(first)].loops & where[id(then)].loops)


def _runs_after(body, loop, waiters: set, known: dict) -> bool:
    """Whether a statement of ``waiters`` (ids) runs after each run of ``loop`` before control
    leaves the block of ``loop`` (scopes see through): one after ``loop`` in it, reached through
    loops that make a trip (``counted_iterations``) and branches whose condition has one value for
    every value of the known counters (``known``: name -> values, those of the loops on the way
    added)."""

    def flat(stmts):
        for stmt in stmts:
            if stmt._production in ("Scope", "CompilerScope"):
                yield from flat(stmt.body)
            else:
                yield stmt

    def reaches(stmt, counters: dict) -> bool:
        kind = stmt._production
        if id(stmt) in waiters:
            return True
        if kind in LOOPS:
            counted = counted_iterations(stmt)
            if counted is None or not counted[1]:
                return False
            inner = {**counters, counted[0].name: counted[1]}
            return any(reaches(s, inner) for s in flat(stmt.body))
        if kind == "If":
            taken = _decided(stmt.cond, counters)
            if taken is None:
                return False
            return any(reaches(s, counters) for s in flat(stmt.then if taken else stmt.orelse))
        return False

    def find(stmts) -> bool | None:
        block = list(flat(stmts))
        for k, stmt in enumerate(block):
            if stmt is loop:
                return any(reaches(s, known) for s in block[k + 1:])
            for field in BODY_FIELDS.get(stmt._production, ()):
                found = find(getattr(stmt, field))
                if found is not None:
                    return found
        return None

    return bool(find(body))


def _decided(cond, counters: dict, most: int = 64):
    """The value ``cond`` has for every combination of the counters' values (at most ``most``
    combinations), or None where it differs or is not known."""
    names = sorted(counters)
    combos = 1
    for name in names:
        combos *= len(counters[name])
    if combos > most:
        return None
    values = set()
    for combo in itertools.product(*(counters[name] for name in names)):
        value = evaluate_scalar(cond, dict(zip(names, combo)))
        if value is None:
            return None
        values.add(bool(value))
    return values.pop() if len(values) == 1 else None
