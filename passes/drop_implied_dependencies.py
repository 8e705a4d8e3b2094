"""drop_implied_dependencies: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import LOOPS, kept_result, walk_of
from nanopass.languages.terms import BinOp, CmpOp, DType, UnOp
from nanopass.rewrite import register

from .lean import LeanPass, trips_any_is, trips_parity_is
from .cells import taken_names, without_unread_cells
from .edge_census import body_has
from .loop_facts import invariant_conditions
from .runtime_order import ASSUME, MIN, PARITY, RAN, gives_up, runtime_order
from .util import FreshVersions, iter_stmts, loop_counters, places, var_reads

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)
_NEGATED = {CmpOp.lt: CmpOp.ge, CmpOp.ge: CmpOp.lt, CmpOp.gt: CmpOp.le, CmpOp.le: CmpOp.gt,
            CmpOp.eq: CmpOp.ne, CmpOp.ne: CmpOp.eq}
CONJUNCTION_WALKS = 512  # ``conjunctions`` looks at the walks of a task of at most this many scalars


@register
class DropImpliedDependencies(LeanPass):
    """Drop the compiler's dependency edges that the runtime or the task's other edges imply.

    Host fences too: a fence's edge goes when its lookup of the tensor (which the host access
    after it makes as well) or its other edges imply it, and a fence left with no edge goes.
    A compiler edge on the latest run of a task ``S`` (a ``DerivedDep`` on ``S``'s TaskId, or a
    ``CellDep`` on a cell that stores only ``S``'s TaskId) goes when the task is ordered after
    that run anyway: by the TensorMap entries or the creator of a tensor it looks up, or through
    another of its edges on a task ordered after ``S`` (``runtime_order``, which says why this
    keeps every order). ping_pong's write-after-read edge on the previous step, whose output the
    step reads, is the runtime's own edge. A compiler edge on a join cell of ``S`` (every run of
    ``S``) goes when the task is ordered after every run of ``S`` anyway: after the latest run
    of a task that came after them all, or after the latest run of ``S`` where that run came
    after every earlier one. A derived edge of a task or a fence (of a task, an edge on a
    latest-run cell too, where the walks that imply it ran the task it names:
    ``RuntimeOrder.implied_each_run``; its cell holds a copy of that cell) implied in the
    iterations where
    the counter of the innermost loop around it (or of an outer loop, where the task's runs are
    not chained: 45029) has given values (every walk of them implies it,
    ``RuntimeOrder.implied_where``: a loop that swaps its carries, say), or is at least a value
    where no such value says it (``RuntimeOrder.implied_from``: the later iterations, walked as
    one), or where a loop before it made no trip or some (``(RAN, k)``), waits on a cell of its own,
    set before it to no task there, else to the TaskId (not where the task's runs are chained
    and a loop around the counter's loop is not around ``S`` either: ``drop_edges_after_first_run``
    inserts that edge once per run of ``S``, ``guardable``); where the counter of an outer loop
    around it has values, or a lower bound, in every walk of which it is implied too, the guard
    tests those as well (``RuntimeOrder.implied_each``, ``implied_from``: seed 36199), and so it
    does the trips' parity of a loop before it,
    and whether that loop made a trip; where the edge is implied only where two or more such
    conditions hold together (an inner counter at 0 and a loop before it that made a trip: seed
    41165; the value of an ``if``'s condition on the scalar parameters among them, seed
    48092), the guard tests their conjunction (``conjunctions``; on a task whose runs are not
    chained, or beside a guard on one condition, whose runs it only adds to; such a condition on
    the parameters alone only there); where the edge is also implied in the iterations after
    the first of a loop around the counter's (as below), the guard's cell is set, where the
    counters do not say, to what the cell below holds. A compiler edge of a task ``T`` on the latest run of
    a task ``S`` outside a loop around ``T``, implied in every walk of that loop's iterations
    after its first (``RuntimeOrder.implied_after_first``: ``T`` in a later iteration looks up
    the region its run in the first wrote, say), where ``T``'s runs are not chained (there
    ``drop_edges_after_first_run`` inserts it once), a derived edge or one on a latest-run cell
    of ``S``, waits on a cell of its own, set to ``S``'s TaskId (a copy of that cell) before the
    outermost such loop and cleared at the end of its body. User edges stay. Cells no edge
    reads any more lose their declaration and stores (and so do join barriers only they held),
    and a TaskId binder this pass left unread goes. Off with the option ``lean_edges=False``.
    Afterwards no compiler edge on a task's latest run, or on every run of it, is implied in
    every run of the program point that inserts it, nor in the iterations of its innermost loop
    where each walk implies it, nor (of a task whose runs are not chained) in the iterations
    after the first of a loop around it where each walk implies it; a task no walk reaches (in
    a branch no iteration of the loops around it takes, their bounds and the branch's condition
    known) has no compiler edge. Every order the edges made still holds. Every change drops a
    ``DerivedDep`` or ``CellDep`` of a task or host fence: where the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body) finds none, the program is returned at once.
    """

    name = "drop_implied_dependencies"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        out = self.lean_once(program)
        if out is not program and _count(out, "WriteTensor") and _count(out, "HostFence") < _count(program, "HostFence"):
            # (a fence it dropped wrote its tensor in the walk: without it, a host write after it
            # waits for the consumers of the tensor's producers, ``runtime_order``'s ``producers``)
            out = self.lean_once(out)
        return out

    def lean_once(self, program):
        func = program.orch
        if not body_has(func.body, "derived_or_cell_edge"):
            return program  # (no task or host fence has an edge this pass may drop, ``_removable_kind``)
        if gives_up(program):  # (whatever it tracks)
            return program
        # The analysis of the relevant tasks alone that the pass before made of this program (it
        # changed nothing), where there is one: the other two questions asked of their own when
        # they arise. Else one analysis tracking every task in a loop with an edge this pass may
        # drop answers the three (which edges are implied, ``first_iteration_loops``,
        # ``runs_chained``: they ask of those tasks); where it gives up, the analysis of the
        # relevant tasks alone, the others asked of their own
        order = kept_result(runtime_order, (program,))
        self.shared = False
        if order is None:
            waiters = _waiters_in_loops(func.body)
            order = runtime_order(program, track=waiters) if waiters else None
            self.shared = order is not None
            if order is None:
                order = runtime_order(program)
        if order is None:
            return program
        self.order = order
        self.program = program
        self.where = places(func.body, ("Task", "HostFence", "For", "While"))
        self.tracked = order if self.shared else None  # ``runs_chained``'s analysis, once asked
        self.conditions = None  # ``assumed``, once asked
        self.dropped: set[str] = set()  # TaskId binders a dropped edge named
        self.unread: set[str] | None = None  # set: the second walk unbinds these TaskIds
        self.names = FreshVersions(taken_names(func))
        self.counters = dict(loop_counters(func.body))  # counter name -> (its binder, id(its loop))
        self.decls: list = []  # the cells of the edges inserted only where a counter says
        self.first_only: dict[int, list] = {}  # id(loop) -> [(cell, its value before the loop)]
        self.first_loops = self.first_iteration_loops(program)
        body = self.visit_all(func.body)
        if body is func.body:
            return program
        body = tuple(self.decls) + tuple(without_unread_cells(body))
        reads = var_reads(body)
        self.unread = {name for name in self.dropped if not reads.get(name)}
        if self.unread:
            body = self.visit_all(body)
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        if self.unread is not None:
            return task.replace(tid=None) if task.tid is not None and task.tid.name in self.unread else task
        n = self.order.number.get(id(task))
        implied = self.order.implied.get(n, frozenset()) if n is not None else frozenset()
        if n is not None and n not in self.order.ordered and task.deps:  # (no walk reaches it: it never runs)
            deps = self.kept(task.deps, frozenset(range(len(task.deps))), f"task {task.kernel}", None, task.span)
            return task if len(deps) == len(task.deps) else task.replace(deps=deps)
        deps = self.kept(task.deps, implied, f"task {task.kernel}",
                         lambda s: "the runtime" if self.order.by_runtime(n, s) else "its other edges", task.span)
        if n is not None:
            guarded = self.with_guards(task, deps, implied, lambda k, run: self.order.implied_each_run(n, k) if run
                                       else self.order.implied_each(n, k) + self.order.implied_from(n, k),
                                       f"task {task.kernel}")
            if guarded is not None:
                return guarded
        return task if len(deps) == len(task.deps) else task.replace(deps=deps)

    def with_guards(self, stmt, deps, implied, each_of, what: str) -> list | None:
        """The guards and ``stmt`` with ``deps`` whose edges implied where a counter says
        (``guards``; ``each_of(position, run)``: ``RuntimeOrder.implied_each``, of which the
        largest decides and the other counters of loops around ``stmt`` add their values; ``run``
        for an edge on a latest-run cell, ``implied_each_run``) wait on cells of their own; None
        if there are none."""
        guards = []
        for k, dep in enumerate(stmt.deps):
            if k in implied or not self.removable(dep):
                continue
            each = each_of(k, dep._production == "CellDep") if self.guards(dep) else []
            loop = self.first_loops.get((id(stmt), k)) if stmt._production == "Task" else None
            loops = self.where[id(stmt)].loops
            where = also = None
            for c in sorted(each, key=lambda c: -len(c[1])):  # (the first of the largest that a guard may test)
                others = [o for o in each if o[0] != c[0] and (
                          not isinstance(o[0], str) and not _is_at_least(o[0])  # (a trips' parity: its loop's bounds hold at ``stmt``)
                          or _counter_name(o[0]) in self.counters and self.counters[_counter_name(o[0])][1] in loops)]
                if self.guardable(stmt, dep, c[0], loop is not None or bool(others)):
                    where, also = c, others
                    break
            singles = [[where]] + [[o] for o in also] if where is not None else []
            cubes = self.conjunctions(stmt, k, dep._production == "CellDep", singles) if self.guards(dep) else []
            if where is None and cubes:
                # (one condition on the parameters alone only beside a guard on a counter: seed
                # 35136; any other only where the edge would stay on every run of the task: a
                # chained task's edge ``drop_edges_after_first_run`` may insert once, 32182)
                cubes = [cube for cube in cubes if len(cube) >= 2 or _counter_name(cube[0][0]) is not None]
                if not (loop is not None or stmt._production == "Task" and self.order.number.get(id(stmt)) is not None
                        and self.runs_unchained(stmt)):
                    cubes = []
            if where is not None or cubes:
                first = self.first_only_in(stmt, dep, loop, what)[1] if loop is not None else None
                guards.append(self.guarded(stmt, dep, singles + cubes, what, first))
            elif stmt._production == "Task":
                loop = self.first_loops.get((id(stmt), k))
                if loop is not None:
                    guards.append(self.first_only_in(stmt, dep, loop, what))
        if not guards:
            return None
        swap = {id(old): new for old, new, _ in guards}
        return [g for _, _, g in guards if g is not None] + [stmt.replace(deps=[swap.get(id(d), d) for d in deps])]

    def conjunctions(self, stmt, k: int, run: bool, singles: list) -> list:
        """The conjunctions of conditions a guard before ``stmt`` can test (a counter of a loop
        around it at a value or at least one, the trips' parity of a loop before it or whether
        it made a trip, of bounds that read only the function's scalar parameters) in every run
        of which dependency ``k`` is implied, where no one of them alone says so: for each walk
        that implies it (``RuntimeOrder.implied_at``; with ``run``, an edge on a latest-run cell,
        a walk after a run of the task it names, ``implied_run_at``), the conditions its scalars
        hold, less each that the walks leaving the edge needed do not need to be told apart
        (each such walk knows one of the rest false: ``_contradicts``), kept where two or more
        are left (seed 41165: an inner counter at 0 and a loop before it that made a trip; 50046:
        an outer counter's value and an inner one's lower bound, a walk of the second iteration
        apart telling the counter's value, ``known``), or one (a counter's bound that only such
        a walk tells, or a condition on the parameters). Each is a list of (condition, its
        values), as ``guarded`` takes; none is within one of ``singles`` (the guard's
        one-condition tests) or another."""
        fence = stmt._production == "HostFence"
        if fence and run:
            return []
        walks = (self.order.fence_implied_at.get(id(stmt), {}) if fence else
                 self.order.implied_at.get(self.order.number.get(id(stmt)), {}))
        seeds = self.order.implied_run_at.get(self.order.number.get(id(stmt)), {}) if run else walks
        needed = [self.known(key) for key, implied in walks.items() if k not in implied]
        if not needed or len(walks) > CONJUNCTION_WALKS:
            return []
        loops = self.where[id(stmt)].loops
        cubes: list[dict] = []
        tried = set()
        for key, implied in seeds.items():
            if k not in implied:
                continue
            atoms = {name: value for name, value in self.known(key).items() if self.testable(name, loops)
                     and (isinstance(value, int) and not isinstance(value, bool) or _is_assumed(name))}
            frozen = frozenset(atoms.items())
            if frozen in tried:
                continue
            tried.add(frozen)
            if not all(_contradicts(w, atoms) for w in needed):
                continue
            for name in sorted(atoms, key=_atom_order):
                trial = {a: v for a, v in atoms.items() if a != name}
                if trial and all(_contradicts(w, trial) for w in needed):
                    atoms = trial
            cube = [(name, (value,)) for name, value in sorted(atoms.items(), key=lambda a: _atom_order(a[0]))]
            if any(_within(cube, other) for other in singles + cubes):
                continue
            cubes = [other for other in cubes if not _within(other, cube)] + [cube]
        return _merged(cubes)

    def known(self, key) -> dict:
        """A walk's scalars ``key`` as a dict, with the counter's value where its lower bound is
        that of a second iteration walked apart (``RuntimeOrder.peeled``: seed 50046)."""
        known = dict(key)
        for name, value in key:
            if _is_at_least(name) and name[0] not in known and (name[0], value) in self.order.peeled:
                known[name[0]] = value
        return known

    def assumed(self) -> dict:
        """The key of each condition ``invariant_conditions`` says an ``if`` in a loop tests (it
        reads only the function's scalar parameters) -> that condition."""
        if self.conditions is None:
            func = self.program.orch
            ifs = {id(s): s for s in iter_stmts(func.body) if s._production == "If"}
            self.conditions = {key: ifs[n].cond for n, key in invariant_conditions(func, list(iter_stmts(func.body))).items()}
        return self.conditions

    def testable(self, name, loops) -> bool:
        """Whether a guard at a statement in ``loops`` may test ``name`` of a walk's scalars: a
        loop counter (its value or a lower bound) of a loop around it, or the trips' parity of a
        loop, or whether it made a trip, of bounds that read only the function's scalar
        parameters (their value is that of the loop's every run)."""
        counter = _counter_name(name)
        if counter is not None:
            return counter in self.counters and self.counters[counter][1] in loops
        if _is_assumed(name):
            return name[1] in self.assumed()
        if isinstance(name, tuple) and len(name) == 2 and name[0] in (PARITY, RAN):
            loop = self.order.parity_loops[name[1]]
            params = {p.name for p in self.program.orch.params if p.type._production == "ScalarType"}
            return set(var_reads([loop.start, loop.stop])) <= params
        return False

    def guardable(self, task, dep, counter, first: bool = False) -> bool:
        """A guard on ``counter`` inserts no more than ``drop_edges_after_first_run`` would: it
        counts the innermost loop around ``task``, or an outer loop around it where the task's
        runs are not chained (``runs_chained``; where they are, a guard on an outer loop's counter
        would insert the edge on every run of the inner loop, where that pass inserts it on the
        first; where they are not, the edge is on every run either way: 45029), or it is
        the trips' parity of a loop before ``task`` and every loop around ``task`` is around
        the task ``dep`` names too. Not where ``task``'s runs are chained (every run ordered
        after the one before, ``runs_chained``: seed 35013) and a loop around the counter's loop
        is not around the task
        ``dep`` names either: there ``drop_edges_after_first_run`` inserts the edge on the first
        run after that task's only, where the guard would insert it in each run of the inner
        loop (32182). A lower bound of the counter (``implied_from``) only where the counter's
        loop is around that task too, or where the edge waits on a cell of ``first_only_in``
        anyway, or other counters imply it too (``first``: the guard's other branch takes that
        cell's value, so it inserts no more than that cell alone; seed 50046: ``S`` before a
        loop of a loop whose later iterations, and the inner loop's, look up what ``S`` wrote;
        the guard tests the others too, so it inserts in fewer runs than the first of each run
        of the inner loop: seed 48092)."""
        loops = self.where[id(task)].loops
        source_loops = self.where[id(self.order.tasks[self.order.source_of(dep)])].loops
        if (_is_at_least(counter) and counter[0] in self.counters and self.counters[counter[0]][1] not in source_loops
                and not first):
            return False  # (``first_iteration_loop`` inserts such an edge on ``S`` outside the loop once)
        counter = _counter_name(counter) or counter
        if not isinstance(counter, str):
            return loops <= source_loops
        if counter not in self.counters:
            return False
        loop = self.counters[counter][1]
        n = self.order.number.get(id(task))
        if task._production == "Task" and n is not None and loops - source_loops - {loop} and self.runs_chained(task):
            return False
        if loop not in loops:
            return False
        if self.where[loop].loops == loops - {loop}:
            return True
        # (an outer loop's counter: the guard inserts the edge on each run of the loops inside
        # it, as the edge itself does where the task's runs are not chained: 45029)
        return task._production == "Task" and n is not None and not self.runs_chained(task)

    def runs_chained(self, task) -> bool:
        """Every run of ``task`` is ordered after its previous run: known where ``task`` is
        tracked by ``order`` (an edge names it, or ``order`` is the analysis tracking every task
        in a loop with an edge this pass may drop), else from one more analysis that tracks the tasks in
        two loops or more with a compiler edge (asked once; where it gives up, no)."""
        n = self.order.number[id(task)]
        if n in self.order.chained_at:
            return self.order.is_ordered(n, n)
        if self.tracked is None:
            nested = [p.stmt for p in self.where.values() if p.stmt._production == "Task" and len(p.loops) >= 2
                      and any(self.removable(d) for d in p.stmt.deps)]
            self.tracked = runtime_order(self.program, track=nested) or False
        if self.tracked is False:
            return False
        m = self.tracked.number[id(task)]
        return m in self.tracked.chained_at and self.tracked.is_ordered(m, m)

    def runs_unchained(self, task) -> bool:
        """Some run of ``task`` is not ordered after its previous run: known where an analysis
        tracks it (``runs_chained``'s), else not (a task in one loop that no edge names, whose
        runs may be chained: test_war's loop of writers)."""
        if self.runs_chained(task):
            return False
        n = self.order.number[id(task)]
        if n in self.order.chained_at:
            return True
        return bool(self.tracked) and self.tracked.number[id(task)] in self.tracked.chained_at

    def first_iteration_loop(self, task, k: int, dep):
        """The outermost loop around ``task`` in whose iterations after the first dependency
        ``k`` (``dep``, on the latest run of a task ``S`` outside that loop: its TaskId) is
        implied in every walk
        (``RuntimeOrder.implied_after_first``), where ``task``'s runs are not chained (there
        ``drop_edges_after_first_run`` inserts the edge once); else None."""
        order = self.order
        n = order.number[id(task)]
        if dep._production != "DerivedDep" and not (dep._production == "CellDep" and dep.cell in order.cells.task):
            return None  # (a derived edge, or one on a latest-run cell of one task: its cell is copied)
        loops = self.where[id(task)].loops
        if not loops:
            return None
        d = order.implied_after_first(n, k, len(loops))
        if d is None:
            return None
        loop = next(loop for loop in loops if len(self.where[loop].loops) == d - 1)
        source = order.source_of(dep)
        if source is None or loop in self.where[id(order.tasks[source])].loops:
            return None
        return loop

    def first_iteration_loops(self, program) -> dict:
        """(id(task), position) -> ``first_iteration_loop``, for the tasks whose runs are not
        chained (``order``, where it tracks every task in a loop with an edge this pass may drop; else one
        more analysis, tracking them, where there are any)."""
        found = {}
        for place in self.where.values():
            task = place.stmt
            if task._production != "Task" or not place.loops or not task.deps:
                continue
            implied = self.order.implied.get(self.order.number[id(task)], frozenset())
            for k, dep in enumerate(task.deps):
                if k not in implied and self.removable(dep):
                    loop = self.first_iteration_loop(task, k, dep)
                    if loop is not None:
                        found[(id(task), k)] = loop
        if not found:
            return found
        tasks = {id(self.where[key[0]].stmt): self.where[key[0]].stmt for key in found}
        chained = self.order if self.shared else runtime_order(program, track=list(tasks.values()))
        if chained is None:
            return {}
        return {key: loop for key, loop in found.items()
                if not chained.is_ordered(chained.number[key[0]], chained.number[key[0]])}

    def first_only_in(self, task, dep, loop: int, what: str) -> tuple:
        """(``dep``, a dependency on a cell of its own, no guard): the cell holds ``dep``'s
        TaskId (a ``CellDep``'s: a copy of its cell, ``cells.copied_cell``) from before ``loop``
        to the end of its first iteration (``For``), no task after."""
        source = self.order.tasks[self.order.source_of(dep)]
        cell = self.names.fresh(f"{source.kernel}_first_iteration", "cell")
        self.decls.append(D.CellDecl(cell, span=task.span))
        value = dep.value if dep._production == "DerivedDep" else D.Var(dep.cell, span=dep.span)
        self.first_only.setdefault(loop, []).append((cell, value))
        around = self.where[loop].stmt
        over = f"the loop over {around.var.name}" if around._production == "For" else "a while loop"
        self.ctx.note("dropped-edge", f"{what} waits for {source.kernel} through the runtime or its other edges "
                      f"in the iterations of {over} after its first: its compiler edge goes there", task.span)
        return dep, D.CellDep(cell, span=dep.span), None

    def For(self, loop):
        body = self.visit_all(loop.body)
        out = loop if body is loop.body else self.build(loop, body=body)
        cells = self.first_only.get(id(loop)) if self.unread is None else None
        if not cells:
            return out
        none = self.names.fresh("no_task", "none")
        clear = [D.Let(D.Binder(none, TID_TYPE), D.NoTask(), span=loop.span)]
        clear += [D.CellSet(cell, D.Var(none), span=loop.span) for cell, _ in cells]
        sets = [D.CellSet(cell, value, span=loop.span) for cell, value in cells]
        return sets + [out.replace(body=_before_yield(out.body, clear))]

    While = For

    def guarded(self, task, dep, where: list, what: str, first=None) -> tuple:
        """(``dep``, a dependency on a cell of its own, the ``if`` that sets the cell before
        ``task``: no task where, for some list of ``where``, each of its (``counter``,
        ``values``) holds (``counter`` is one of its ``values``: one ``&&`` of tests for each
        list, ``conjunctions``), else ``dep``'s TaskId, or what the cell of ``first`` holds (a
        ``CellDep`` of ``first_only_in``: the edge is implied in the iterations after the first
        of a loop around the counter's too, ``first_iteration_loop``))."""
        source = self.order.tasks[self.order.source_of(dep)]
        cell = self.names.fresh(f"{source.kernel}_unless_implied", "cell")
        none = self.names.fresh("no_task", "none")
        self.decls.append(D.CellDecl(cell, span=task.span))
        cond = None
        said = []
        for cube in where:
            if len(cube) == 1:  # (one condition: its values' tests join the others')
                counter, values = cube[0]
                for value in values:
                    test = self.test(counter, value)
                    cond = test if cond is None else D.Bin(BinOp.or_, cond, test)
                said.append(self.told(counter, values))
                continue
            both = None
            for counter, values in cube:
                test = None
                for value in values:
                    one = self.test(counter, value)
                    test = one if test is None else D.Bin(BinOp.or_, test, one)
                both = test if both is None else D.Bin(BinOp.and_, both, test)
            cond = both if cond is None else D.Bin(BinOp.or_, cond, both)
            said.append(" and ".join(self.told(counter, values) for counter, values in cube))
        held = dep.value if dep._production == "DerivedDep" else D.Var(dep.cell, span=dep.span)  # (a copy of the cell)
        guard = D.If(cond, (D.Let(D.Binder(none, TID_TYPE), D.NoTask()), D.CellSet(cell, D.Var(none))),
                     (D.CellSet(cell, held if first is None else D.Var(first.cell)),), (), span=task.span)
        self.ctx.note("dropped-edge", f"{what} waits for {source.kernel} through the runtime or its "
                      f"other edges where {' or '.join(said)}: its compiler edge goes there", task.span)
        return dep, D.CellDep(cell, span=dep.span), guard

    def test(self, counter, value):
        """The test that ``counter`` (``guarded``'s) is ``value``."""
        if _is_at_least(counter):
            name = counter[0]
            return D.Cmp(CmpOp.ge, D.Var(name), D.Int(value, self.counters[name][0].type.dtype))
        if isinstance(counter, str):
            return D.Cmp(CmpOp.eq, D.Var(counter), D.Int(value, self.counters[counter][0].type.dtype))
        if _is_assumed(counter):
            cond = self.assumed()[counter[1]]
            if value:
                return cond
            flipped = _NEGATED.get(cond.op) if cond._production == "Cmp" else None
            return cond.replace(op=flipped) if flipped is not None else D.Un(UnOp.not_, cond)
        if counter[0] == RAN:
            return trips_any_is(self.order.parity_loops[counter[1]], value)
        return trips_parity_is(self.order.parity_loops[counter[1]], value)

    def told(self, counter, values) -> str:
        """What ``guarded``'s note says of ``counter`` at ``values``."""
        if _is_at_least(counter):
            return f"{counter[0]} is at least {values[0]}"
        if isinstance(counter, str):
            return f"{counter} is {', '.join(map(str, values))}"
        if _is_assumed(counter):
            return f"the condition of an if on the parameters is {'true' if values[0] else 'false'}"
        if counter[0] == RAN:
            trips = " or ".join("some trips" if value else "no trip" for value in values)
            return f"the loop over {self.order.parity_loops[counter[1]].var.name} made {trips}"
        parity = " or ".join("odd" if value else "even" for value in values)
        return f"the loop over {self.order.parity_loops[counter[1]].var.name} ran an {parity} number of times"

    def HostFence(self, fence):
        if self.unread is not None:
            return fence
        consumed = self.order.fence_consumed.get(id(fence))
        if consumed is not None and len(consumed) == len(fence.deps) and all(self.removable(d) for d in fence.deps):
            # (each walk of it: the host write after it, without it, waits for what its edges name)
            self.ctx.note("dropped-edge", "the host fence: the host write after it waits for the consumers of the "
                          "tensor's producers, which its edges name: it goes", fence.span)
            for dep in fence.deps:
                if dep._production == "DerivedDep":
                    self.dropped.add(dep.value.name)
            return []
        implied = self.order.fence_implied.get(id(fence), frozenset())
        deps = self.kept(fence.deps, implied, "the host fence", lambda s: "the tensor or its other edges", fence.span)
        guarded = self.with_guards(fence, deps, implied, lambda k, run: [] if run else self.order.implied_each(None, k, fence) + self.order.implied_from(None, k, fence),
                                   "the host fence")
        if guarded is not None:
            return guarded
        if len(deps) == len(fence.deps):
            return fence
        return fence.replace(deps=deps) if deps else []  # (a fence with no dependency is never submitted)

    def kept(self, deps, implied, what: str, why, span) -> list:
        """``deps`` without the implied compiler edges (noted; ``why`` None: the node never runs)."""
        out = []
        for k, dep in enumerate(deps):
            if k in implied and self.removable(dep):
                source = self.order.source_of(dep)
                if why is None:
                    self.ctx.note("dropped-edge", f"{what} never runs (no iteration takes the branch it is in): "
                                  f"its compiler edge on {self.order.tasks[source].kernel} goes", span)
                else:
                    self.ctx.note("dropped-edge", f"{what} waits for {self.order.tasks[source].kernel} through "
                                  f"{why(source)}: its compiler edge goes", span)
                if dep._production == "DerivedDep":
                    self.dropped.add(dep.value.name)
                else:
                    self.dropped.update(n for n in self.order.cells.tids.get(dep.cell, ()) if n is not None)
                    tid = self.order.tasks[source].tid
                    if dep.cell in self.order.joins and tid is not None:  # (its barriers may go with the cell)
                        self.dropped.add(tid.name)
                continue
            out.append(dep)
        return out

    def guards(self, dep) -> bool:
        """Whether ``dep`` may wait on a guard's cell where a counter says it is implied: an edge
        on the latest run of one task, a derived one, or one on a latest-run cell (whose guard's
        cell then holds a copy of it) where the walks that imply it are walks after a run of that
        task (``RuntimeOrder.implied_each_run``: where the task has not run the cell holds
        no run and its edge inserts nothing, and a guard there would only keep the passes after
        this one from clearing the cell where other tasks imply it); not one on a join cell
        (every run)."""
        return dep._production == "DerivedDep" or dep._production == "CellDep" and dep.cell in self.order.cells.task

    def removable(self, dep) -> bool:
        if dep._production == "DerivedDep":
            return dep.value._production == "Var" and dep.value.name in self.order.tid_task
        return dep._production == "CellDep" and (dep.cell in self.order.cells.task or dep.cell in self.order.joins)


def _is_at_least(counter) -> bool:
    """``counter`` is ``implied_each``'s ``(v, MIN)``: loop counter ``v`` at least a value."""
    return isinstance(counter, tuple) and len(counter) == 2 and counter[1] == MIN


def _counter_name(counter) -> str | None:
    """The loop counter a key of ``implied_each`` tests (None: a trips' parity)."""
    if isinstance(counter, str):
        return counter
    return counter[0] if _is_at_least(counter) else None


def _waiters_in_loops(body) -> list:
    """The tasks in a loop of ``body`` with an edge of a kind this pass may drop (derived, or on a
    cell); none without a walk where ``body`` has no loop."""
    if not any(s._production in LOOPS for s in walk_of(body).compound):
        return []
    out = []
    stack = [(body, False)]
    while stack:
        stmts, in_loop = stack.pop()
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                if in_loop and any(map(_removable_kind, stmt.deps)):
                    out.append(stmt)
            elif kind in LOOPS:
                stack.append((stmt.body, True))
            elif kind == "If":
                stack += [(stmt.then, in_loop), (stmt.orelse, in_loop)]
            elif kind in ("Scope", "CompilerScope"):
                stack.append((stmt.body, in_loop))
    return out


def _removable_kind(dep) -> bool:
    return dep._production in ("DerivedDep", "CellDep")


def _before_yield(body, stmts: list) -> tuple:
    """``body`` with ``stmts`` at its end: before its closing ``Yield`` (in the scope that ends it,
    where one does)."""
    body = tuple(body)
    if body and body[-1]._production == "Yield":
        return body[:-1] + tuple(stmts) + body[-1:]
    if body and body[-1]._production in ("Scope", "CompilerScope"):
        last = body[-1]
        return body[:-1] + (last.replace(body=_before_yield(last.body, stmts)),)
    return body + tuple(stmts)


def _count(program, kind: str) -> int:
    """The statements of ``kind`` in ``program``'s orchestration function."""
    return sum(1 for s in iter_stmts(program.orch.body) if s._production == kind)


def _contradicts(known: dict, atoms: dict) -> bool:
    """Some condition of ``atoms`` (a walk's scalars' names -> values, ``conjunctions``') is
    false in every run of a walk whose scalars are ``known``."""
    for name, value in atoms.items():
        if _is_at_least(name):
            exact = known.get(name[0])
            if isinstance(exact, int) and not isinstance(exact, bool) and exact < value:
                return True
        elif isinstance(name, str):
            exact, low = known.get(name), known.get((name, MIN))
            if isinstance(exact, int) and not isinstance(exact, bool) and exact != value:
                return True
            if isinstance(low, int) and not isinstance(low, bool) and low > value:
                return True
        elif name in known and known[name] != value:
            return True
    return False


def _is_assumed(name) -> bool:
    """``name`` is a walk's ``(ASSUME, key)``: the value of a condition on the parameters."""
    return isinstance(name, tuple) and len(name) == 2 and name[0] == ASSUME


def _atom_order(name) -> tuple:
    """The order in which ``conjunctions`` tries to leave a condition out: a counter's value or
    lower bound first, a loop's trips last."""
    counter = _counter_name(name)
    return (0, counter, _is_at_least(name)) if counter is not None else (1, str(name[0]), repr(name[1]))


def _within(cube: list, other: list) -> bool:
    """Every run in which each condition of ``cube`` holds is one in which each of ``other``'s
    does (both lists of (condition, values), ``guarded``'s)."""
    mine = dict(cube)
    for name, values in other:
        if _is_at_least(name):
            low = mine.get(name)
            exact = mine.get(name[0])
            if not (low is not None and low[0] >= values[0] or exact is not None and min(exact) >= values[0]):
                return False
        elif name not in mine or not set(mine[name]) <= set(values):
            return False
    return True


def _merged(cubes: list) -> list:
    """``cubes`` with those that differ in one counter's value alone made one (its values)."""
    out: list = []
    for cube in cubes:
        for i, other in enumerate(out):
            names = [name for name, _ in cube]
            if names != [name for name, _ in other]:
                continue
            differ = [n for (n, a), (_, b) in zip(cube, other) if a != b]
            if len(differ) == 1 and isinstance(differ[0], str):
                out[i] = [(n, tuple(sorted(set(a) | set(b))) if n == differ[0] else a)
                          for (n, a), (_, b) in zip(other, cube)]
                break
        else:
            out.append(cube)
    return out
