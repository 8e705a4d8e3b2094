"""resolve_dep_edges: tid-bound -> dep-annotated."""

from __future__ import annotations

from nanopass.errors import InternalError, UserError
from nanopass.languages import DEP_ANNOTATED, TID_BOUND
from nanopass.languages.carried import check_buffer_groups, check_plans
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.terms import DepSource
from nanopass.rewrite import Pass, register

from .util import trusted_maker

A = DEP_ANNOTATED
FRESH, CELL = DepSource.fresh, DepSource.cell  # (read once: an enum member read through its class costs a descriptor call)
BLOCKS = ("For", "While", "If", "Scope")  # the statements that open C++ blocks


def base_name(name: str) -> str:
    """The user's name of an SSA version: ``x__ssa_v3`` -> ``x``."""
    return name.split("__", 1)[0] or name


@register
class ResolveDepEdges(Pass):
    """Resolve every dependency edge to a TaskId storage that is alive where the edge is used.

    Each ``deps=`` entry becomes ``(DepEdge tid index source guarded user size)`` from the
    TaskId's binding: a fresh producer is inserted unguarded, every other source under an
    ``is_valid()`` guard; a whole array contributes its N slots. A TaskId is alive only inside
    the C++ block that declares it (a loop body, an if branch, a ``PTO2_SCOPE``); carries and
    if results are declared before their statement. A user edge to a TaskId that is no longer
    alive is a user error naming it and where it was produced (D11); a compiler-derived one is
    dropped (and noted). A cell edge (``CellDep``) is always alive (cells are declared at the start
    of the function) and guarded. Edges are deduplicated by storage and slot, the first keeping its
    origin. Afterwards each task's ``capacity`` is the exact size of its dependency array.

    A function that binds no TaskId has only cell edges, alive in every block: its blocks are
    not tracked (loops, branches and scopes are rebuilt by their identity clauses).

    Preserves every invariant of tid-bound (``preserves``): it changes the dependencies of the
    statements that have some and nothing else (each statement becomes one of the same
    production, with the same binders, bodies, carries, plans and buffer groups).
    """

    name = "resolve_dep_edges"
    source = TID_BOUND
    target = DEP_ANNOTATED
    preserves = frozenset({check_single_definition, check_yields, check_scope_placement, check_plans, check_buffer_groups})

    def Function(self, func):
        self.table = {t.var: t for t in func.tids}
        if not self.table:
            self.untrack_blocks()
        self.decl: dict[str, tuple[int, ...]] = {}
        self.where: dict[str, object] = {}
        self.path: tuple[int, ...] = ()
        self.blocks = 0
        body = self.visit_all(func.body)
        return A.Function(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, func.buffer_groups, func.slots, func.arg_count,
            func.tids, body, span=func.span,
        )

    # -- blocks and declarations -----------------------------------------------------------------

    def untrack_blocks(self) -> None:
        """Visit blocks without tracking them: with no TaskId in the table, no edge asks whether
        one is alive (the handlers below would only declare nothing and count paths)."""
        for production in BLOCKS:  # (of the pass's source language: a subclass may read another)
            del self._dispatch[self.source.nodes[production]]  # (``visit`` then takes the identity clause)

    def declare(self, binder) -> None:
        entry = self.table.get(binder.name)
        if entry is not None and entry.storage == binder.name and binder.name not in self.decl:
            self.decl[binder.name] = self.path
            self.where[binder.name] = binder.span

    def inside(self, visit, node):
        """``visit(node)`` in a new C++ block (nested in the current one)."""
        self.blocks += 1
        saved = self.path
        self.path = saved + (self.blocks,)
        try:
            return visit(node)
        finally:
            self.path = saved

    def Scope(self, scope):
        return self.inside(self.rebuild, scope)

    def For(self, loop):
        declare = self.declare
        for result in loop.results:
            declare(result)
        for it in loop.iters:
            declare(it.var)
        return self.inside(self.rebuild, loop)

    While = For

    def If(self, branch):
        for phi in branch.results:
            self.declare(phi.var)
        then = self.inside(self.visit_all, branch.then)
        orelse = self.inside(self.visit_all, branch.orelse)
        return A.If.make(branch.cond, then, orelse, branch.results, span=branch.span)

    def Let(self, let):
        self.declare(let.var)
        return let

    # -- edges --------------------------------------------------------------------------------------

    def Task(self, task):
        deps, capacity = self.edges(task.deps, task)
        if task.tid is not None:
            self.declare(task.tid)
        return _make_task(task.outs, task.tid, task.kernel, task.args, task.dumps, task.early_resolve, task.launch, deps,
                          capacity, task.span)

    def Dummy(self, dummy):
        deps, capacity = self.edges(dummy.deps, dummy)
        self.declare(dummy.var)
        return A.Dummy(dummy.var, deps, capacity, span=dummy.span)

    def HostFence(self, fence):
        deps, capacity = self.edges(fence.deps, fence)
        return A.HostFence(tensor=fence.tensor, deps=deps, capacity=capacity, wait=fence.wait, span=fence.span)

    def edges(self, deps, owner):
        if not deps:
            return deps, 0
        self.owner_span = owner.span  # where a dependency the compiler wrote is reported
        out = []
        seen = set()
        for dep in deps:
            if dep._production == "CellDep":
                key = (dep.cell, None)
                if key not in seen:
                    seen.add(key)
                    out.append(A.DepEdge.make(A.Var.make(dep.cell), None, CELL, True, False, 0, span=dep.span))
                continue
            user = dep._production not in ("DerivedDep",)
            ref = dep.array if dep._production == "DepItem" else dep.value
            index = dep.index if dep._production == "DepItem" else None
            entry = self.table.get(ref.name)
            if entry is None:
                raise InternalError(f"dependency on '{ref.name}', which is not a bound TaskId", pass_name=self.name, node=dep)
            storage = entry.storage
            alive = storage in self.decl and self.path[: len(self.decl[storage])] == self.decl[storage]
            if not alive:
                self.unresolvable(dep, ref.name, storage, user)
                continue
            key = (storage, repr(index))
            if key in seen:
                continue
            seen.add(key)
            size = entry.size if index is None else 0
            guarded = entry.source is not FRESH or index is not None
            out.append(A.DepEdge.make(A.Var.make(storage), index, entry.source, guarded, user, size, span=dep.span))
        return out, sum(edge.size or 1 for edge in out)

    def unresolvable(self, dep, name: str, storage: str, user: bool) -> None:
        shown = base_name(name)
        where = self.where.get(storage)
        origin = f" (produced at line {where.line})" if where is not None else ""
        if not user:
            self.ctx.note("dropped-edge", f"compiler-derived dependency on '{shown}'{origin} dropped: its scope has closed", dep.span)
            return
        where_made = f"at line {where.line}, " if where is not None else ""
        raise UserError(
            f"task dependency deps=[{shown}] cannot be honored: its TaskId is produced {where_made}inside a scope "
            "that has already closed here, so the ordering edge would be lost",
            dep.span or self.owner_span,
            hint="consume the TaskId inside the scope that produces it, or produce it before that scope",
        )


# A task's fields but its dependencies and capacity are its input's: set unchecked (proved by the grammar)
_make_task = trusted_maker(ResolveDepEdges, "Task", ("deps", "capacity"))
