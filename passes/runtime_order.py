"""Which latest runs of earlier tasks a task is ordered after, by the runtime and by its edges
(directed language). Used by the passes that drop compiler edges and barriers the rest of the
order makes unnecessary. It reads only what the directed language carries (task arguments with
their directions, SSA values, scopes, cells and dependency edges), not a hazard analysis, so it
composes with whichever analysis added the edges.

Only the *relevant* tasks are tracked: those a dependency edge names (directly, through a cell,
through a join cell), and those a caller asks for. For such a task ``S``:

- ``S in facts[v]`` (``v`` a tensor SSA name): a lookup of ``v`` by a task in an AUTO scope (an
  Input or InOut argument, runtime-api.md section 11) is ordered after the latest run of ``S``
  so far, or ``S`` has not run yet. A task ``W`` that writes ``v`` in an AUTO scope (InOut or
  OutputExisting: its TensorMap entry covers ``v``) or makes it (a runtime-allocated output,
  whose creator a later use retains) adds itself and everything it is ordered after. Nothing
  but a new run of ``S`` makes the fact false: the runtime removes an entry only when an InOut
  writer covers it, and that writer looked the entry up first, so a lookup that finds the
  writer is ordered after ``S`` too; a write in a MANUAL scope touches no entry.
- ``S in order[W]``: the latest run of ``W`` is ordered after the latest run of ``S``, or ``S``
  has not run. A task is ordered after what its lookups' facts hold and, for each dependency on
  the latest run of a task (a ``DerivedDep`` or user ``DepVar`` on a task's TaskId binder, which
  only tasks after it in the same block see; a cell that stores one task's TaskId; a join cell
  of one task), that task and what it is ordered after.
- ``NR``: the relevant tasks that have not run on any path to a point (every set holds them).
- ``done``: the relevant tasks whose latest run a host element access outside a MANUAL scope
  waited for (the tensor's ``facts``: its creator and TensorMap producers, which cover the whole
  tensor); the access blocks the orchestration thread until they complete, so every task
  submitted after it is ordered after them.

A dependency of a task on the latest run of ``S`` is *implied* when it repeats an earlier one or
the task's lookups or its dependencies on other tasks order it after ``S`` already. Dropping
every implied dependency at once keeps the order: the latest runs of distinct tasks that have
run are strictly ordered, so "implied by" has no cycle but among dependencies on tasks that have
not run, which insert nothing.

Merges (if results, loop headers, the state after an ``if`` or a loop) intersect; a loop's body
is walked until its header state is stable (the sets only shrink). A task's results are the
intersection over every walk of it. A ``Let`` copy keeps its value's facts; every other value
starts from ``NR`` (a view's lookups may miss the entries of its base).

A ``manual_dep`` tensor (``manual_dep_names``: any value that may hold one) is neither looked up
nor inserted: it adds no fact, and a task's argument of it orders the task after nothing. (A
view of it made without ``manual_dep`` is tracked, like any view, from ``NR``.)

The analysis gives up (``None``) on a program where the relevant tasks times the statements
exceed ``BUDGET``: a relevant task's run updates
every fact that names it, so the walk costs up to that product (a program of thousands of
compiler edges keeps them as the hazard passes made them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nanopass.languages.terms import ArgDir, LoopKind, ScopeMode

from .cells import join_cells, latest_run_cells
from .kernels import kernel_table, output_param_of_result
from .util import iter_stmts, last_yield

BUDGET = 300_000
WRITES = (ArgDir.InOut, ArgDir.OutputExisting)
LOOKUPS = (ArgDir.Input, ArgDir.InOut)


class State:
    """The facts at one point of the walk (mutable; ``copy`` before a branch or a loop). Sets of
    tasks are bitsets (ints) over task numbers."""

    __slots__ = ("never_ran", "facts", "order", "done")

    def __init__(self, never_ran: int, facts: dict, order: dict, done: int = 0):
        self.never_ran = never_ran
        self.facts = facts  # SSA name -> bitset (absent: never_ran)
        self.order = order  # task number -> bitset (absent: never_ran)
        self.done = done  # the tasks whose latest run a host access waited for (with never_ran)

    def copy(self) -> "State":
        return State(self.never_ran, dict(self.facts), dict(self.order), self.done)

    def of(self, name: str) -> int:
        return self.facts.get(name, self.never_ran)

    def after(self, task: int) -> int:
        return self.order.get(task, self.never_ran)

    def ran(self, task: int) -> None:
        """``task`` (a relevant one) has run: every fact about its earlier runs goes."""
        bit = 1 << task
        keep = ~bit
        self.never_ran &= keep
        self.done &= keep
        for table in (self.facts, self.order):
            for key, held in table.items():
                if held & bit:
                    table[key] = held & keep

    def __eq__(self, other) -> bool:
        return (self.never_ran, self.facts, self.order, self.done) == (other.never_ran, other.facts, other.order, other.done)


def meet(a: State, b: State) -> State:
    never_ran = a.never_ran & b.never_ran
    facts = {n: a.of(n) & b.of(n) for n in a.facts.keys() | b.facts.keys()}
    order = {t: a.after(t) & b.after(t) for t in a.order.keys() | b.order.keys()}
    return State(never_ran, facts, order, (a.done | a.never_ran) & (b.done | b.never_ran))


@dataclass
class RuntimeOrder:
    """The analysis' result for one function."""

    tasks: list  # task statements in program order (a task's number is its index)
    number: dict  # id(task statement) -> its number
    tid_task: dict  # TaskId binder name -> the number of the task that binds it
    cells: object  # cells.Cells: the latest-run cells
    joins: dict  # join cell -> the number of the task it joins
    runtime: dict = field(default_factory=dict)  # task number -> bitset of tasks its lookups order it after
    implied: dict = field(default_factory=dict)  # task number -> positions of its implied dependencies
    fence_implied: dict = field(default_factory=dict)  # id(HostFence) -> positions of its implied dependencies
    # task number -> bitset of the relevant tasks whose latest run it is ordered after, by its
    # lookups or its edges (its own number: every run is ordered after the one before)
    ordered: dict = field(default_factory=dict)

    def is_ordered(self, task: int, before: int) -> bool:
        """Every run of ``task`` is ordered after the latest run of ``before`` (or none ran)."""
        return bool(self.ordered.get(task, 0) >> before & 1)

    def by_runtime(self, task: int, before: int) -> bool:
        return bool(self.runtime.get(task, 0) >> before & 1)

    def source_of(self, dep) -> int | None:
        """The task whose latest run ``dep`` names, if it names one."""
        kind = dep._production
        if kind in ("DerivedDep", "DepVar") and dep.value._production == "Var":
            return self.tid_task.get(dep.value.name)
        if kind == "CellDep":
            found = self.cells.task.get(dep.cell)
            return found if found is not None else self.joins.get(dep.cell)
        return None


def runtime_order(program, track=()) -> RuntimeOrder | None:
    """The analysis of ``program``'s orchestration function; ``track``: task statements to track
    besides the relevant ones (whose order after their own previous run a caller asks about).
    The result is the callers' to read, not to change: the passes after one that changed nothing
    are handed the same (``kept``)."""
    from nanopass.languages.statements import kept

    track = tuple(track)
    return kept(runtime_order, (program, *track), lambda: _runtime_order(program, track))


def _runtime_order(program, track: tuple) -> RuntimeOrder | None:
    func = program.orch
    stmts = list(iter_stmts(func.body))
    kernels = kernel_table(program)
    tasks = [s for s in stmts if s._production == "Task"]
    tid_task = {t.tid.name: i for i, t in enumerate(tasks) if t.tid is not None}
    joins = {}
    for cell, joined in join_cells(func).items():
        sources = {tid_task.get(tid) for _, tid in joined}
        if len(sources) == 1 and None not in sources:
            joins[cell] = next(iter(sources))
    out = RuntimeOrder(tasks, {id(t): i for i, t in enumerate(tasks)}, tid_task, latest_run_cells(func, tid_task), joins)
    relevant = 0
    for task in track:
        relevant |= 1 << out.number[id(task)]
    for s in stmts:
        if s._production in ("Task", "Dummy", "HostFence"):
            for n in map(out.source_of, s.deps):
                relevant |= 0 if n is None else 1 << n
    if relevant.bit_count() * len(stmts) > BUDGET:
        return None
    _Walker(kernels, out, relevant, manual_dep_names(stmts, kernels)).run(func.body, State(relevant, {}, {}))
    return out


def manual_dep_names(stmts, kernels) -> frozenset:
    """The tensor SSA names that may hold a ``manual_dep`` tensor (made by a create or a view with
    ``manual_dep=True``, or holding one through a copy, an assemble into it, a task result
    aliasing its argument, a loop carry or an if result): the runtime neither looks them up nor
    inserts them."""
    out: set = set()
    rules = []  # (name, the names it may hold the value of)
    for s in stmts:
        kind = s._production
        if kind == "Let":
            if getattr(s.value, "manual_dep", False):
                out.add(s.var.name)
            elif s.value._production == "Var":
                rules.append((s.var.name, (s.value.name,)))
            elif s.value._production == "AssembleTensor" and s.value.target._production == "Var":
                rules.append((s.var.name, (s.value.target.name,)))  # the result is the target
        elif kind == "Task":
            kernel = kernels[s.kernel]
            for i, binder in enumerate(getattr(o, "var", o) for o in s.outs):
                p = output_param_of_result(kernel, i)
                if p is not None and p < len(s.args) and s.args[p].value._production == "Var":
                    rules.append((binder.name, (s.args[p].value.name,)))
        elif kind in ("For", "While"):
            yld = last_yield(s.body)
            for k, (it, result) in enumerate(zip(s.iters, s.results)):
                held = [e.name for e in (it.init, yld.values[k] if yld is not None else None)
                        if e is not None and e._production == "Var"]
                rules += [(it.var.name, tuple(held)), (result.name, tuple(held))]
        elif kind == "If":
            for k, result in enumerate(s.results):
                held = []
                for body in (s.then, s.orelse):
                    yld = last_yield(body)
                    if yld is not None and k < len(yld.values) and yld.values[k]._production == "Var":
                        held.append(yld.values[k].name)
                rules.append((result.name, tuple(held)))
    if not out:
        return frozenset()
    while True:
        grown = {name for name, held in rules if name not in out and any(h in out for h in held)}
        if not grown:
            return frozenset(out)
        out |= grown


class _Walker:
    def __init__(self, kernels, out: RuntimeOrder, relevant: int, untracked: frozenset = frozenset()):
        self.kernels = kernels
        self.out = out
        self.relevant = relevant
        self.manual = 0
        self.untracked = untracked  # manual_dep tensors: no lookup, no insert

    def run(self, body, state: State) -> State:
        for stmt in body:
            handler = getattr(self, stmt._production, None)
            if handler is not None:
                state = handler(stmt, state)
        return state

    def Let(self, let, state: State) -> State:
        value = let.value
        name = let.var.name
        if value._production == "ReadTensor":
            self.wait(value.tensor, state)
        if value._production == "Var" and value.name in state.facts:
            state.facts[name] = state.facts[value.name]
        else:
            state.facts.pop(name, None)
        return state

    def Task(self, task, state: State) -> State:
        n = self.out.number[id(task)]
        auto = not self.manual
        lookups = 0
        if auto:
            for arg in task.args:
                if arg.dir in LOOKUPS and arg.value._production == "Var" and arg.value.name not in self.untracked:
                    lookups |= state.of(arg.value.name)
        sources, through, implied = self.implied(task.deps, lookups | state.done, state)
        self._meet(self.out.runtime, n, lookups | state.done)
        self._meet(self.out.implied, n, frozenset(implied))
        after = lookups | state.never_ran | state.done
        for t in through:
            after |= t
        after &= self.relevant
        self._meet(self.out.ordered, n, after)
        mine = after
        if self.relevant >> n & 1:
            state.ran(n)
            after &= ~(1 << n)
            state.order[n] = after
            mine = after | (1 << n)
        kernel = self.kernels[task.kernel]
        for arg in task.args:
            if auto and arg.dir in WRITES and arg.value._production == "Var" and arg.value.name not in self.untracked:
                name = arg.value.name
                state.facts[name] = state.of(name) | mine
        for i, out in enumerate(task.outs):
            binder = getattr(out, "var", out)
            p = output_param_of_result(kernel, i)
            if p is None or p >= len(task.args):
                state.facts[binder.name] = state.never_ran | mine  # runtime-allocated: the creator is retained
            elif task.args[p].value._production == "Var" and task.args[p].value.name in state.facts:
                state.facts[binder.name] = state.facts[task.args[p].value.name]
            else:
                state.facts.pop(binder.name, None)
        return state

    def WriteTensor(self, write, state: State) -> State:
        self.wait(write.tensor, state)
        return state

    def wait(self, tensor, state: State) -> None:
        """A host element access of ``tensor`` outside a MANUAL scope waits for the tensor's
        creator and TensorMap producers, which cover the whole tensor (``facts``: a task that
        wrote it all, or one ordered before such a task), and blocks the orchestration thread
        until they complete: every later task and host fence is submitted after their latest runs."""
        if not self.manual and tensor._production == "Var" and tensor.name not in self.untracked:
            state.done |= state.of(tensor.name) & self.relevant

    def implied(self, deps, lookups: int, state: State) -> tuple[list, list, set]:
        """(the task each dependency names or None, what each orders after, the positions of the
        implied ones) for dependencies ``deps`` of a node whose lookups order it after ``lookups``."""
        sources = [self.out.source_of(dep) for dep in deps]
        through = [0 if s is None else (1 << s) | state.after(s) for s in sources]
        implied = set()
        for i, s in enumerate(sources):
            if s is None:
                continue
            if s in sources[:i]:
                implied.add(i)  # a second edge on the same run (the first one stays)
                continue
            others = lookups
            for t, o in zip(through, sources):
                if o is not None and o != s:
                    others |= t
            if others >> s & 1:
                implied.add(i)
        return sources, through, implied

    def HostFence(self, fence, state: State) -> State:
        """A host fence's implied dependencies (its INOUT lookup of the tensor counts: the host
        access after it waits for the same producers). Its own effects are left out: an InOut
        writer that looked the entries up first removes no fact."""
        lookups = 0
        if not self.manual and fence.tensor._production == "Var" and fence.tensor.name not in self.untracked:
            lookups = state.of(fence.tensor.name)
        implied = self.implied(fence.deps, lookups | state.done, state)[2]
        self._meet(self.out.fence_implied, id(fence), frozenset(implied))
        return state

    @staticmethod
    def _meet(table: dict, n: int, value) -> None:
        seen = table.get(n)
        table[n] = value if seen is None else seen & value

    def Scope(self, scope, state: State) -> State:
        manual = scope.mode is ScopeMode.manual
        self.manual += manual
        try:
            return self.run(scope.body, state)
        finally:
            self.manual -= manual

    CompilerScope = Scope

    def If(self, branch, state: State) -> State:
        then = self.run(branch.then, state.copy())
        orelse = self.run(branch.orelse, state)
        merged = meet(then, orelse)
        for k, result in enumerate(branch.results):
            merged.facts[result.name] = _yielded(branch.then, k, then) & _yielded(branch.orelse, k, orelse)
        return merged

    def For(self, loop, state: State) -> State:
        header = self.enter(loop, state, None)
        while True:
            end = self.run(loop.body, header.copy())
            again = meet(header, self.enter(loop, end, end))
            if again == header:
                break
            header = again
        if _runs(loop):
            # it leaves after a run of its body, which starts from at least the header's facts
            # (the walk is monotone): the state at the end of that run holds at least ``end``'s
            header = self.enter(loop, end, end)
        for it, result in zip(loop.iters, loop.results):
            header.facts[result.name] = header.of(it.var.name)
        return header

    While = For  # (the header is also the state after a loop that may not run)

    def enter(self, loop, state: State, end: State | None) -> State:
        """The state at the loop's header reached from ``state`` (before the loop, or the end of
        the body ``end``)."""
        out = state.copy()
        yld = last_yield(loop.body)
        for k, it in enumerate(loop.iters):
            source = it.init if end is None else (yld.values[k] if yld is not None else None)
            out.facts[it.var.name] = _value(source, state)
        if loop._production == "For":
            out.facts.pop(loop.var.name, None)
        return out


def _runs(loop) -> bool:
    """A sequential counted loop whose constant bounds run its body at least once."""
    if loop._production != "For" or loop.kind is not LoopKind.seq:
        return False
    start, stop, step = loop.start, loop.stop, loop.step
    if not all(e._production == "Int" for e in (start, stop, step)):
        return False
    return (start.value < stop.value) if step.value > 0 else (start.value > stop.value) if step.value < 0 else False


def _value(expr, state: State) -> int:
    return state.of(expr.name) if expr is not None and expr._production == "Var" else state.never_ran


def _yielded(body, k: int, state: State) -> int:
    yld = last_yield(body)
    return _value(yld.values[k], state) if yld is not None and k < len(yld.values) else state.never_ran
