"""clear_edges_where_implied: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.rewrite import register

from .lean import LeanPass, compiler_edge
from .cells import MirroredCells
from .edge_census import body_has
from .runtime_order import gives_up, known_to_give_up, runtime_order
from .util import iter_stmts, places


@register
class ClearEdgesWhereImplied(LeanPass):
    """Route a compiler edge that a task implies on some paths through a cell cleared after
    that task.

    A task or host fence ``T`` with a compiler edge on the latest run of a task ``U`` (a
    ``DerivedDep`` on ``U``'s TaskId, or a ``CellDep`` on a cell that stores only ``U``'s TaskId)
    that ``drop_implied_dependencies`` kept, because some path from ``U`` to ``T`` leaves it
    needed, inserts it on the other paths too, where a task ``X`` runs after ``U``, with every run
    of ``X`` ordered after the latest run of ``U`` and every run of ``T`` ordered after the latest
    run of ``X`` (by the runtime or their edges, ``runtime_order``; tests/test_lean_cleared_edges.py). Only
    an ``X`` that may run between them counts: after ``U`` and before ``T`` in program order, or
    after ``T`` in a loop around both that leads back to ``T`` with no run of ``U`` between. The
    edge then goes through a cell of its own: ``c = tid`` wherever ``U``'s TaskId (or the cell's
    value) is stored, ``c = None`` after each such ``X`` (a ``NoTask`` let), and ``T`` waits on
    ``c``. Every order stays: where no such ``X`` ran since ``U``'s latest run, the cell holds
    that run; else the latest such ``X`` ran after it, is ordered after it, and ``T`` is ordered
    after that ``X`` not through the edge on ``U`` (whose latest run was submitted before that
    ``X``), so through what stays (a fence left with no valid dependency is not submitted: the
    host access after it waits for what the fence's lookup would find). The cell costs nothing
    where cleared. User edges stay. Off with the option ``lean_edges=False``. Afterwards no
    compiler edge on a task's latest run is inserted on a path where a task that may run between
    them, which its waiter is ordered after, ran after that run and is ordered after it. Every
    change clears a compiler edge of a task or host fence: where the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body) counts none, the program is returned at once.
    """

    name = "clear_edges_where_implied"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        if known_to_give_up(program):  # (every change needs ``runtime_order``)
            return program
        func = program.orch
        if not body_has(func.body, "compiler_edge"):
            return program  # (no task or host fence has a compiler edge: ``waiters`` below is empty)
        stmts = list(iter_stmts(func.body))
        waiters = [s for s in stmts if s._production in ("Task", "HostFence") and any(map(compiler_edge, s.deps))]
        if not waiters or gives_up(program):
            return program
        tasks = [s for s in stmts if s._production == "Task"]
        order = runtime_order(program, track=tasks)
        if order is None:
            return program
        self.pos = {id(s): i for i, s in enumerate(stmts)}
        self.loops = {k: p.loops for k, p in places(func.body, ("Task", "HostFence")).items()}
        edges = []  # (waiter, dependency position, its source, the tasks the waiter is ordered after)
        for waiter in waiters:
            if waiter._production == "Task":
                t = order.number[id(waiter)]
                implied = order.implied.get(t, frozenset())
                after = order.ordered.get(t, 0) & ~(1 << t)
            else:
                implied = order.fence_implied.get(id(waiter), frozenset())
                after = order.fence_ordered.get(id(waiter), 0)
            for k, dep in enumerate(waiter.deps):
                if k in implied or not compiler_edge(dep) or (
                        dep._production == "CellDep" and dep.cell not in order.cells.task):
                    continue
                u = order.source_of(dep)
                if u is not None:
                    edges.append((waiter, k, u, after))
        if not edges:
            return program
        later = _ordered_after(order, {u for _, _, u, _ in edges})
        self.cells = MirroredCells(func)
        self.clear_after: dict[int, list[str]] = {}  # id(X) -> cells cleared after it
        for waiter, k, u, after in edges:
            source = order.tasks[u]
            implying = [order.tasks[x] for x in later[u] if after >> x & 1 and self.between(source, order.tasks[x], waiter)]
            if implying:
                self.plan(waiter, k, source, implying)
        if not self.cells.decls:
            return program
        body = tuple(self.cells.decls) + self.visit_all(func.body)
        return self.build(program, orch=self.build(func, body=body))

    def between(self, source, x, waiter) -> bool:
        """``x`` may run after the latest run of ``source`` and before ``waiter`` (so clearing
        after it can matter): it comes between them, or a loop around it and ``waiter`` takes
        it back to ``waiter`` with no run of ``source`` between."""
        pos, loops = self.pos, self.loops
        s, at, w = pos[id(source)], pos[id(x)], pos[id(waiter)]
        if s < at < w:
            return True
        return at > w and any(loop not in loops[id(source)] or w < s < at
                              for loop in loops[id(x)] & loops[id(waiter)])

    def plan(self, waiter, k: int, source, implying: list) -> None:
        """``waiter``'s dependency ``k`` waits on a cell of its own: stored with ``source``'s
        TaskId, cleared after each task of ``implying``."""
        cell = self.cells.route(waiter, k, f"{source.kernel}_unless_implied", "cell")
        for x in implying:
            self.clear_after.setdefault(id(x), []).append(cell)
        what = f"task {waiter.kernel}" if waiter._production == "Task" else "the host fence"
        self.ctx.note("cleared-edge", f"{what} waits for {source.kernel} through a cell cleared after "
                      f"{', '.join(x.kernel for x in implying)}, which imply it", waiter.span)

    def Task(self, task):
        cells = self.cells
        after = cells.sets(task)
        cleared = self.clear_after.get(id(task))
        if cleared:
            after += cells.cleared(cleared, task.span)
        out = cells.waiting(task)
        return [out] + after if after else out

    HostFence = Task

    def CellSet(self, cell_set):
        return self.cells.mirrored(cell_set)


def _ordered_after(order, sources: set) -> dict[int, list[int]]:
    """source -> the other tasks ordered after its latest run (``order.is_ordered``), in program
    order, for each of ``sources``: each task's bits read once."""
    mask = sum(1 << u for u in sources)
    out: dict[int, list[int]] = {u: [] for u in sources}
    for x in range(len(order.tasks)):
        bits = order.ordered.get(x, 0) & mask & ~(1 << x)
        while bits:
            low = bits & -bits
            out[low.bit_length() - 1].append(x)
            bits ^= low
    return out
