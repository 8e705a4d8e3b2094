"""merge_cells_into_chains: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import copied_cell, latest_run_cells, taken_names
from .edge_census import body_has
from .runtime_order import known_to_give_up, runtime_order
from .util import FreshVersions, iter_stmts, places

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class MergeCellsIntoChains(LeanPass):
    """Order a group of tasks' latest runs through one chained cell when that needs fewer edges.

    Tasks that wait for several latest runs together (a ``CellDep`` on a latest-run cell, or a
    compiler ``DerivedDep`` on a task's TaskId, which counts as a cell stored right after the
    task), each for every one of the group that may have run before it, pay one insertion per
    cell: a chain of ``k`` ifs that each write a tensor in one branch and read it in the other
    makes write ``j`` wait for the ``j - 1`` reads before it, ``k (k - 1) / 2`` in all
    (docs/semantics.md gap 4). Here the group's cells become one *chain cell* (derive_boxes: a
    task in a loop waits for a task before the loop and its own previous run, and so does a task
    after the loop: one edge each on the chain, which holds the task before the loop until the
    loop's task runs): after each of the group's tasks ``S`` the chain stores ``S``'s TaskId when
    ``S`` is ordered after every group task that may have run before it (by the runtime or its
    edges, ``runtime_order``), else a dummy barrier after both (``b = task_dummy(deps=[chain,
    S])``, whose purpose names the group's kernels); each waiting task has one edge on the chain. The order is the same: a waiting task
    waited for every group task that may have run before it, or (waiting for two of the group
    or more; one waiting for one keeps the cells apart, for ``clear_edges_where_implied``) is
    ordered after its latest run already, and now waits for a node after all of them and nothing else (each task of the group runs once per program run, or its runs are
    ordered among themselves, so its latest run stands for all of them). The pass applies only
    where the new insertions (one per waiting task, two per barrier) are fewer than the old ones,
    counted in the program text; cells a dummy, a host fence or a copy reads are left alone, and so are
    the dummies' and host fences' ``DerivedDep`` edges. Off with the option ``lean_edges=False``. Afterwards no
    waiting task names two cells (or TaskIds) of a merged group. A group needs a task waiting
    through two compiler edges or more: where the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body) finds none, the program is returned at once.
    """

    name = "merge_cells_into_chains"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        if known_to_give_up(program):  # (every change needs ``runtime_order``)
            return program
        func = program.orch
        if not body_has(func.body, "two_compiler_edges"):
            return program  # (a task's keys below are its compiler edges: none has two)
        stmts = list(iter_stmts(func.body))
        waits = {id(s): _waited(s) for s in stmts if s._production == "Task"}
        if not any(len(c) > 1 for c in waits.values()):
            return program
        order = runtime_order(program)
        if order is None:
            return program
        cells = latest_run_cells(func, order.tid_task)
        for key in {k for ks in waits.values() for k in ks if k.startswith(TID)}:
            task = order.tid_task.get(key[len(TID):])
            if task is not None:
                cells.task[key] = task
        # cells a dummy, a host fence or a copy (``copied_cell``) reads stay as they are
        by_dummies = {d.cell for s in stmts if s._production in ("Dummy", "HostFence")
                      for d in s.deps if d._production == "CellDep"}
        by_dummies |= {c for s in stmts if (c := copied_cell(s, cells.task)) is not None}
        merge = {c for c in cells.task if c not in by_dummies}
        groups = _groups([{c for c in cs if c in merge} for cs in waits.values()])
        loops = {order.number[k]: p.loops for k, p in places(func.body, ("Task",)).items()}  # task number -> loops
        self.chain: dict[str, str] = {}  # merged cell -> its chain cell
        self.chained_tid: dict[str, bool] = {}  # merged cell -> its task's TaskId goes in directly
        self.purpose: dict[str, str] = {}  # chain cell -> what its barriers join
        self.names = names = FreshVersions(taken_names(func))
        decls = []
        for group in groups:
            plan = _plan(group, cells, order, waits, loops)
            if plan is None:
                continue
            # (the hazard passes' cells hold write-after-read readers; TaskIds, derived edges' sources)
            chain = names.fresh("chain" if any(c.startswith(TID) for c in group) else "readers", "chain")
            decls.append(D.CellDecl(chain))
            kernels = sorted({order.tasks[cells.task[c]].kernel for c in group})
            self.purpose[chain] = f"chains the latest runs of {', '.join(kernels)} so far"
            for cell in group:
                self.chain[cell] = chain
                self.chained_tid[cell] = plan[cell]
            self.ctx.note("merged-cells", f"{len(group)} cells and TaskIds merged into one chain cell {chain}",
                          func.span)
        if not self.chain:
            return program
        body = tuple(decls) + self.visit_all(func.body)
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        deps, seen = [], set()
        for dep in task.deps:
            key = _key(dep)
            if key in self.chain:
                chain = self.chain[key]
                if chain in seen:
                    continue
                seen.add(chain)
                dep = D.CellDep(chain, span=dep.span)
            deps.append(dep)
        out = task if not seen else task.replace(deps=deps)
        if task.tid is not None and TID + task.tid.name in self.chain:
            return [out] + self.store(TID + task.tid.name, D.Var(task.tid.name, span=task.span), task.span)
        return out

    def CellSet(self, cell_set):
        if cell_set.cell not in self.chain:
            return cell_set
        return self.store(cell_set.cell, cell_set.value, cell_set.span)

    def store(self, key: str, tid, span) -> list:
        """The chain's store of a run of the task of ``key`` (a cell or a TaskId), whose TaskId is ``tid``."""
        chain = self.chain[key]
        if self.chained_tid[key]:
            return [D.CellSet(chain, tid, span=span)]
        barrier = self.names.fresh("readers", "join")
        return [
            D.Dummy(D.Binder(barrier, TID_TYPE, span=span), [D.CellDep(chain), D.DerivedDep(tid)], self.purpose[chain],
                    span=span),
            D.CellSet(chain, D.Var(barrier), span=span),
        ]

    def CellDecl(self, decl):
        return [] if decl.cell in self.chain else decl


TID = "@"  # the key of a DerivedDep on TaskId ``name`` is ``TID + name`` (no cell name starts with it)


def _key(dep) -> str | None:
    """The cell, or the TaskId as a key, that a compiler edge waits on."""
    if dep._production == "CellDep":
        return dep.cell
    if dep._production == "DerivedDep" and dep.value._production == "Var":
        return TID + dep.value.name
    return None


def _waited(task) -> list:
    return [k for k in map(_key, task.deps) if k is not None]


def _groups(sets) -> list:
    """The connected groups of cells waited for together (union of overlapping sets of two or more)."""
    parent: dict = {}

    def find(c):
        while parent.setdefault(c, c) != c:
            c = parent[c]
        return c

    for cs in sets:
        cs = sorted(cs)
        for a, b in zip(cs, cs[1:]):
            parent[find(a)] = find(b)
    groups: dict = {}
    for c in parent:
        groups.setdefault(find(c), set()).add(c)
    return [sorted(g) for _, g in sorted(groups.items()) if len(g) > 1]


def _plan(group, cells, order, waits, loops) -> dict | None:
    """merged cell -> whether its task's TaskId may go in the chain directly (else a barrier),
    or None when the group cannot be merged or merging costs more."""
    source = {c: cells.task[c] for c in group}
    if len(set(source.values())) < len(source):
        return None  # a task both stored in a cell and waited on by its TaskId: stored twice

    def may_precede(s: int, t: int) -> bool:
        return s < t or bool(loops[s] & loops[t])

    for s in source.values():
        if loops[s] and not order.is_ordered(s, s):
            return None  # runs several times, its runs not ordered among themselves
    old = new = 0
    for task_id, waited in waits.items():
        mine = set(waited) & set(group)
        if not mine:
            continue
        t = order.number[task_id]
        missing = {c for c in group if may_precede(source[c], t)} - mine
        if any(not may_precede(source[c], t) for c in mine) or missing and (
                len(mine) < 2 or not all(order.is_ordered(t, source[c]) for c in missing)):
            return None  # the chain would make it wait for a task it was not ordered after
        old += len(mine)
        new += 1
    plan = {}
    for c in group:
        s = source[c]
        earlier = {source[o] for o in group if may_precede(source[o], s) and (o != c or loops[s])}
        plan[c] = all(order.is_ordered(s, e) for e in earlier)
        new += 0 if plan[c] else 2
    return plan if new < old else None

