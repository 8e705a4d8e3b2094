"""resolve_dep_edges: tid-bound -> dep-annotated."""

from __future__ import annotations

from nanopass.errors import InternalError, UserError
from nanopass.languages import DEP_ANNOTATED, TID_BOUND
from nanopass.languages.carried import check_buffer_groups, check_plans
from nanopass.languages.scoped import check_no_alloc, check_no_declare, check_scope_placement, dependencies
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import DepSource
from nanopass.rewrite import Pass, register, trusted_maker

from .naming import base_name

A = DEP_ANNOTATED
FRESH, CELL = DepSource.fresh, DepSource.cell  # (read once: an enum member read through its class costs a descriptor call)
UNTRACKED = ("For", "While", "If", "Scope", "Let")  # the handlers of the statements that open C++ blocks or declare


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
    origin.

    A function that binds no TaskId has only cell edges, alive in every block: its blocks are
    not tracked (loops, branches and scopes are rebuilt by their identity clauses), and one
    without dependencies is returned as it is (``nothing_to_resolve``). The two
    languages share their node classes: a statement without dependencies, and a body or function
    none of whose statements has one, is returned as it is.

    Preserves every invariant of tid-bound (``preserves``): it changes the dependencies of the
    statements that have some and nothing else (each statement becomes one of the same
    production, with the same binders, bodies, carries, plans and buffer groups).
    """

    name = "resolve_dep_edges"
    source = TID_BOUND
    target = DEP_ANNOTATED
    preserves = frozenset({check_single_definition, check_yields, check_scope_placement, check_plans, check_buffer_groups,
                           check_no_alloc, check_no_declare})

    def Function(self, func):
        self.table = {t.var: t for t in func.tids}
        # the names whose binder declares a TaskId storage (``declare``)
        self.storages = {t.var for t in func.tids if t.storage == t.var}
        if not self.table:
            if self.nothing_to_resolve(func):
                return func
            self.untrack_blocks()
        self.decl: dict[str, int] = {}  # TaskId storage -> the block that declares it
        self.where: dict[str, object] = {}
        # The blocks open where the walk is (0: the function's), and the innermost of them. A
        # storage is alive where the block declaring it is open (blocks are numbered as met, so
        # an open block's number is on the path from the function to here, and only then).
        self.open: set[int] = {0}
        self.block = 0
        self.blocks = 0
        body = self.visit_all(func.body)
        if body is func.body:
            return func
        return _make_function(func.name, func.params, func.results, func.auto_scope, func.dyn_dims, func.buffer_groups,
                              func.slots, func.arg_count, func.tids, body, func.span)

    def nothing_to_resolve(self, func) -> bool:
        """No statement of ``func`` has a dependency: the function is its own output. Asked only
        of a function that binds no TaskId (one that binds some has edges to them, or dropped
        ones); read from the body's walk (``dependencies``, kept: the output's check of the
        resolved edges, ``check_capacity``, asks it of the same walk)."""
        return not dependencies(walk_of(func.body).order)[0]

    # -- blocks and declarations -----------------------------------------------------------------

    def untrack_blocks(self) -> None:
        """Visit blocks without tracking them: with no TaskId in the table, no edge asks whether
        one is alive (the handlers below would only declare nothing and count blocks)."""
        for production in UNTRACKED:  # (of the pass's source language: a subclass may read another)
            del self._dispatch[self.source.nodes[production]]  # (``visit`` then takes the identity clause)

    def declare(self, binder) -> None:
        """A binder of a TaskId storage declares it in the current block (the first one only)."""
        name = binder.name
        if name in self.storages and name not in self.decl:
            self.decl[name] = self.block
            self.where[name] = binder.span

    def inside(self, visit, node):
        """``visit(node)`` in a new C++ block (nested in the current one)."""
        self.blocks += 1
        saved = self.block
        self.block = block = self.blocks
        self.open.add(block)
        out = visit(node)
        self.open.discard(block)
        self.block = saved
        return out

    def Scope(self, scope):
        return self.inside(self.rebuild, scope)

    def For(self, loop):
        storages = self.storages
        for result in loop.results:
            if result.name in storages:
                self.declare(result)
        for it in loop.iters:
            if it.var.name in storages:
                self.declare(it.var)
        return self.inside(self.rebuild, loop)

    While = For

    def If(self, branch):
        for phi in branch.results:
            if phi.var.name in self.storages:
                self.declare(phi.var)
        then = self.inside(self.visit_all, branch.then)
        orelse = self.inside(self.visit_all, branch.orelse)
        if then is branch.then and orelse is branch.orelse:
            return branch
        return _make_if(branch.cond, then, orelse, branch.results, branch.span)

    def Let(self, let):
        if let.var.name in self.storages:
            self.declare(let.var)
        return let

    # -- edges --------------------------------------------------------------------------------------

    def Task(self, task):
        deps = task.deps and self.edges(task.deps, task)  # (none: the input's, and the input's task)
        if task.tid is not None and task.tid.name in self.storages:
            self.declare(task.tid)
        if deps is task.deps:
            return task
        return _make_task(task.outs, task.tid, task.kernel, task.args, task.dumps, task.early_resolve, deps, task.launch,
                          task.span)

    def Dummy(self, dummy):
        deps = dummy.deps and self.edges(dummy.deps, dummy)
        self.declare(dummy.var)
        if deps is dummy.deps:
            return dummy
        return _make_dummy(dummy.var, deps, dummy.purpose, dummy.span)

    def HostFence(self, fence):
        if not fence.deps:
            return fence
        deps = self.edges(fence.deps, fence)
        return A.HostFence(tensor=fence.tensor, deps=deps, wait=fence.wait, span=fence.span)

    def edges(self, deps, owner) -> list:
        """The resolved edges of ``owner``'s dependencies ``deps`` (not empty)."""
        out = []
        seen = None  # the (storage, slot) keys of the edges made (made at the second dependency)
        table, decl, open_blocks = self.table, self.decl, self.open
        # (DepEdge and Var made unchecked: a cell and a storage are symbols, the index the input's
        # expression, the source, size and flags those of a TidSource, the span the dependency's)
        make_edge, make_var = A.DepEdge.make_trusted, A.Var.make_trusted
        for dep in deps:
            kind = dep._production
            if kind == "CellDep":
                key = (dep.cell, None)
                if seen is None:
                    seen = {key}
                elif key in seen:
                    continue
                else:
                    seen.add(key)
                out.append(make_edge(make_var(dep.cell), None, CELL, True, False, 0, span=dep.span))
                continue
            if kind == "DepItem":
                ref, index = dep.array, dep.index
            else:
                ref, index = dep.value, None
            entry = table.get(ref.name)
            if entry is None:
                raise InternalError(f"dependency on '{ref.name}', which is not a bound TaskId", pass_name=self.name, node=dep)
            storage = entry.storage
            if decl.get(storage, -1) not in open_blocks:
                self.owner_span = owner.span  # where a dependency the compiler wrote is reported
                self.unresolvable(dep, ref.name, storage, kind != "DerivedDep")
                continue
            key = (storage, "None" if index is None else repr(index))
            if seen is None:
                seen = {key}
            elif key in seen:
                continue
            else:
                seen.add(key)
            if index is None:
                size = entry.size
                guarded = entry.source is not FRESH
            else:
                size = 0
                guarded = True
            tid = ref if ref.name == storage and ref.span is None else make_var(storage)  # (a Var as make_var's)
            out.append(make_edge(tid, index, entry.source, guarded, kind != "DerivedDep", size, span=dep.span))
        return out

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


# A task's fields but its dependencies are its input's: set unchecked (proved by the grammar); so are
# a dummy's but those, an if's but its branches and a function's but its body
_make_task = trusted_maker(ResolveDepEdges, "Task", ("deps",))
_make_dummy = trusted_maker(ResolveDepEdges, "Dummy", ("deps",))
_make_if = trusted_maker(ResolveDepEdges, "If", ("then", "orelse"))
_make_function = trusted_maker(ResolveDepEdges, "Function", ("body",))
