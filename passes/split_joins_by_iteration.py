"""split_joins_by_iteration: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import LOOPS, walk_of
from nanopass.languages.terms import CmpOp
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import WITH_DEPS, join_cells
from .loop_facts import evaluate_scalar, loop_counter
from .util import FreshVersions, iter_stmts, places, static_trip_count, var_reads

D = DIRECTED
MAX_TRIPS = 8  # at most this many cells replace one join


def counted_iterations(loop) -> tuple | None:
    """(the counter's binder, its value in each iteration) of a loop whose iterations are known
    before it runs: a ``For`` of constant bounds and a positive step (its variable), or a
    ``while`` whose counter (``loop_facts.loop_counter``: a carry started from a constant and
    yielded plus a positive constant) alone decides its condition, which ends it within
    ``MAX_TRIPS`` iterations. Else None."""
    trips = static_trip_count(loop)
    if trips is not None:
        return loop.var, [loop.start.value + k * loop.step.value for k in range(trips)]
    if loop._production != "While":
        return None
    counter = loop_counter(loop)
    if counter is None or counter[1]._production != "Int":
        return None
    name, init, step = counter
    binder = next(it.var for it in loop.iters if it.var.name == name)
    values, value = [], init.value
    while True:
        going = evaluate_scalar(loop.cond, {name: value})
        if going is None or going and len(values) > MAX_TRIPS:
            return None
        if not going:
            return binder, values
        values.append(value)
        value += step


def outside_loops(body) -> set[int]:
    """The ids of the statements of ``body`` outside every loop (through branches and scopes; a
    loop statement itself is outside the loops it is not in)."""
    out: set[int] = set()
    stack = [body]
    while stack:
        for stmt in stack.pop():
            out.add(id(stmt))
            kind = stmt._production
            if kind == "If":
                stack += (stmt.then, stmt.orelse)
            elif kind == "Scope" or kind == "CompilerScope":
                stack.append(stmt.body)
    return out


def waited_in_loops(body, joins: dict) -> bool:
    """Whether every join cell of ``joins`` (``join_cells``) is waited on in a loop by a statement
    other than its barriers: then ``used_outside_loops`` holds of none, and no join is split. Each
    statement in a loop is read once, under its innermost loop; the scan stops at the last join."""
    pending = set(joins)
    barriers = {id(dummy) for joined in joins.values() for dummy, _ in joined}
    for loop in walk_of(body).compound:
        if loop._production not in LOOPS:
            continue
        stack = [loop.body]
        while stack:
            for stmt in stack.pop():
                kind = stmt._production
                if kind in WITH_DEPS:
                    if id(stmt) not in barriers:
                        for d in stmt.deps:
                            if d._production == "CellDep":
                                pending.discard(d.cell)
                elif kind == "If":
                    stack += (stmt.then, stmt.orelse)
                elif kind == "Scope" or kind == "CompilerScope":
                    stack.append(stmt.body)
        if not pending:
            return True
    return False


def used_outside_loops(joined, uses, outside: set[int]) -> bool:
    """Whether every declaration of a join cell and every statement that waits on it but its
    barriers (``joined``: (barrier, TaskId) pairs; ``uses``: the cell's declarations and waiters)
    is outside every loop (``outside``, ``outside_loops``): ``_loop_of`` splits no other join."""
    barriers = {id(dummy) for dummy, _ in joined}
    return all(id(s) in outside or id(s) in barriers for s in uses)


@register
class SplitJoinsByIteration(LeanPass):
    """Replace the join of a task's runs in a loop of a few constant iterations by one latest-run
    cell per iteration.

    A join cell holds a barrier after every run of one task ``S`` (``barrier = task_dummy(deps=[join,
    tid]); join = barrier``), which costs two insertions and a dummy per run after the first, where a
    task waiting for every run needs one entry per run. When every barrier of the join is in one
    loop of ``T`` iterations (constant bounds, ``2 <= T <= MAX_TRIPS``) that no loop encloses, the join
    is declared outside every loop, and only tasks and host fences outside every loop wait on it
    (no other statement reads the join or its barriers, a guard's copy of the join included; a waiter in a loop would insert ``T``
    entries a run where it inserts one), the join becomes ``T`` cells ``join_k``: the
    barrier goes, and where it was stored ``join_k = tid`` is stored in the iteration ``k`` (an
    ``if`` on the loop variable or counter); each wait on the join waits on the ``T`` cells. The loop runs
    once and every iteration runs (its iterations are known), so after it ``join_k`` holds the run of
    ``S`` in iteration ``k`` when ``S`` ran there: the same runs the join held. A waiter then
    inserts at most ``T`` entries and no dummy is submitted. Off with the option
    ``lean_edges=False``.
    """

    name = "split_joins_by_iteration"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        joins = join_cells(func)
        if not joins or waited_in_loops(func.body, joins):
            return program
        stmts = list(iter_stmts(func.body))
        # (what the statements read, and the names taken, are needed only once a join's barriers
        # and waiters are placed as a split needs: a program whose joins are waited on in loops
        # reads no name)
        self.reads: dict[str, int] | None = None
        self.stmts = stmts
        names = None
        self.split: dict[str, tuple] = {}  # join cell -> (the loop, its cells in iteration order)
        self.barriers: dict[str, tuple] = {}  # barrier name -> (the TaskId it joins, the join cell)
        uses: dict[str, list] = {}  # cell -> its declarations and the statements that wait on it
        for s in stmts:
            kind = s._production
            if kind == "CellDecl":
                uses.setdefault(s.cell, []).append(s)
            elif kind in WITH_DEPS:
                for d in s.deps:
                    if d._production == "CellDep":
                        waiting = uses.setdefault(d.cell, [])
                        if not waiting or waiting[-1] is not s:  # (once per statement)
                            waiting.append(s)
        # (the statements' places are found only for the joins whose declarations and waiters are
        # all outside every loop, as a split needs: a program whose joins are waited on in loops
        # places no statement)
        outside = outside_loops(func.body)
        copied = {s.value.name for s in stmts if s._production == "CellSet" and s.value._production == "Var"}
        joins = {cell: joined for cell, joined in joins.items() if cell not in copied  # (a guard's copy: one cell)
                 and used_outside_loops(joined, uses.get(cell, ()), outside)}
        if not joins:
            return program
        where = places(func.body, ("Dummy", "Task", "HostFence", "CellDecl"))
        loops = {id(s): s for s in stmts if s._production in ("For", "While")}
        for cell, joined in joins.items():
            loop = self._loop_of(cell, joined, uses.get(cell, ()), where, loops)
            if loop is None:
                continue
            if names is None:
                names = FreshVersions({p.name for p in func.params} | set(self.statement_reads())
                                      | {s.cell for s in stmts if s._production in ("CellDecl", "CellSet")})
            counter, values = counted_iterations(loop)
            trips = len(values)
            self.split[cell] = (counter, values, [names.fresh(cell, f"it{k}") for k in range(trips)])
            self.barriers.update((dummy.var.name, (tid, cell)) for dummy, tid in joined)
            self.ctx.note("split-join", f"the join of {joined[0][1]}'s runs in a loop of {trips} iterations "
                          "becomes one cell per iteration", loop.span)
        if not self.split:
            return program
        return self.visit(program)

    def statement_reads(self) -> dict[str, int]:
        """How often each name is read by the statements' own expressions (their nested bodies
        apart), made when first asked."""
        if self.reads is None:
            self.reads = var_reads([s for s in self.stmts if s._production not in ("For", "While", "If", "Scope", "CompilerScope")])
        return self.reads

    def _loop_of(self, cell, joined, uses, where, loops):
        """The loop whose iterations can each keep the run of ``cell``'s task in a cell of its own,
        or None (``uses``: the declarations of ``cell`` and the statements that wait on it)."""
        around = {where[id(dummy)].loops for dummy, _ in joined}
        if len(around) != 1:
            return None
        (ids,) = around
        if len(ids) != 1:
            return None
        loop = loops[next(iter(ids))]
        counted = counted_iterations(loop)
        if counted is None or not 2 <= len(counted[1]) <= MAX_TRIPS:
            return None
        barrier_ids = {id(dummy) for dummy, _ in joined}
        for s in uses:
            kind = s._production
            if kind == "CellDecl":
                if where[id(s)].loops:
                    return None
                continue
            if id(s) in barrier_ids:
                continue
            if kind not in ("Task", "HostFence") or where[id(s)].loops:
                return None  # (a waiter in a loop would insert ``trips`` entries a run, not one)
        reads = self.statement_reads()
        if any(reads.get(dummy.var.name, 0) != 1 for dummy, _ in joined):
            return None  # (the CellSet of the join reads it; nothing else may)
        return loop

    def CellDecl(self, decl):
        split = self.split.get(decl.cell)
        if split is None:
            return decl
        return [D.CellDecl(c, span=decl.span) for c in split[2]]

    def Dummy(self, dummy):
        return [] if dummy.var.name in self.barriers else dummy

    def CellSet(self, cell_set):
        value = cell_set.value
        if cell_set.cell not in self.split or value._production != "Var" or value.name not in self.barriers:
            return cell_set
        tid, _ = self.barriers[value.name]
        counter, values, cells = self.split[cell_set.cell]
        span = cell_set.span
        index = D.Var(counter.name, span=span)
        chain = [D.CellSet(cells[-1], D.Var(tid, span=span), span=span)]
        for k in range(len(cells) - 2, -1, -1):
            at = D.Int(values[k], counter.type.dtype, span=span)
            chain = [D.If(D.Cmp(CmpOp.eq, index, at, span=span), (D.CellSet(cells[k], D.Var(tid, span=span), span=span),),
                          tuple(chain), (), span=span)]
        return chain

    def Task(self, task):
        if not any(d._production == "CellDep" and d.cell in self.split for d in task.deps):
            return task
        deps = []
        for dep in task.deps:
            if dep._production == "CellDep" and dep.cell in self.split:
                deps += [D.CellDep(c, span=dep.span) for c in self.split[dep.cell][2]]
            else:
                deps.append(dep)
        return task.replace(deps=deps)

    HostFence = Task
