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
_TASK, _DUMMY, _HOST_FENCE, _LET = A.Task, A.Dummy, A.HostFence, A.Let  # (the statement classes ``stmts`` tells apart:
_FOR, _WHILE, _IF, _SCOPE = A.For, A.While, A.If, A.Scope  # tid-bound's too, which shares them)
# The statements with neither dependencies nor a body (no field of kind Dep or Stmt) nor a TaskId
# to declare (a let's): each its own output
_PLAIN = frozenset(
    cls for cls in A.classes("Stmt")
    if cls is not _LET and not any(spec.kind in ("Dep", "Stmt") for spec in cls._field_specs)
)


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
    not tracked (loops, branches and scopes are walked in the block of the function), and one
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
        self.tracking = True
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
        body = self.stmts(func.body)
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

    # -- the walk: statements by class, blocks and declarations ----------------------------------

    def untrack_blocks(self) -> None:
        """Walk blocks without tracking them: with no TaskId in the table, no edge asks whether
        one is alive (the walk would only declare nothing and count blocks)."""
        self.tracking = False

    def stmts(self, body) -> tuple:
        """``body`` with its dependencies resolved: the same tuple when no statement changes. A
        direct walk over the statement classes (the two languages share them): a task, dummy or
        host fence gets its edges; a loop, an if and a scope open C++ blocks (``inside``) and
        are rebuilt only when their bodies change; a let may declare a TaskId storage; a
        statement of none of these (``_PLAIN``) is its own output, and one of a class the walk
        does not know goes through the visitor."""
        out = None  # (a list only once a statement changes)
        i = 0
        for stmt in body:
            kind = type(stmt)
            if kind in _PLAIN:  # (one test for the statements of neither: cells, yields, returns, ...)
                if out is not None:
                    out.append(stmt)
                i += 1
                continue
            if kind is _TASK:
                new = self.Task(stmt)
            elif kind is _LET:
                if stmt.var.name in self.storages:
                    self.declare(stmt.var)
                new = stmt
            elif kind is _FOR or kind is _WHILE:
                new = self.loop(stmt)
            elif kind is _IF:
                new = self.branch(stmt)
            elif kind is _SCOPE:
                inner = self.inside(stmt.body)
                new = stmt if inner is stmt.body else _make_scope(stmt.mode, stmt.origin, inner, stmt.span)
            elif kind is _DUMMY:
                new = self.Dummy(stmt)
            elif kind is _HOST_FENCE:
                new = self.HostFence(stmt)
            else:
                new = self.visit(stmt)  # (a class added to the language since: the visitor's rebuild)
            if new is not stmt and out is None:
                out = list(body[:i])
            if out is not None:
                out.append(new)
            i += 1
        return body if out is None else tuple(out)

    def declare(self, binder) -> None:
        """A binder of a TaskId storage declares it in the current block (the first one only)."""
        name = binder.name
        if name in self.storages and name not in self.decl:
            self.decl[name] = self.block
            self.where[name] = binder.span

    def inside(self, body) -> tuple:
        """``stmts(body)`` in a new C++ block (nested in the current one); without tracking, in
        the current one."""
        if not self.tracking:
            return self.stmts(body)
        self.blocks += 1
        saved = self.block
        self.block = block = self.blocks
        self.open.add(block)
        out = self.stmts(body)
        self.open.discard(block)
        self.block = saved
        return out

    def loop(self, loop):
        storages = self.storages
        if storages:
            for result in loop.results:
                if result.name in storages:
                    self.declare(result)
            for it in loop.iters:
                if it.var.name in storages:
                    self.declare(it.var)
        body = self.inside(loop.body)
        if body is loop.body:
            return loop
        if type(loop) is _FOR:
            return _make_for(loop.var, loop.start, loop.stop, loop.step, loop.kind, loop.iters, body, loop.results,
                             loop.span)
        return _make_while(loop.iters, loop.cond, body, loop.results, loop.span)

    def branch(self, branch):
        storages = self.storages
        if storages:
            for phi in branch.results:
                if phi.var.name in storages:
                    self.declare(phi.var)
        then = self.inside(branch.then)
        orelse = self.inside(branch.orelse)
        if then is branch.then and orelse is branch.orelse:
            return branch
        return _make_if(branch.cond, then, orelse, branch.results, branch.span)

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
# a dummy's but those, an if's but its branches and a function's, a loop's and a scope's but its body
_make_task = trusted_maker(ResolveDepEdges, "Task", ("deps",))
_make_dummy = trusted_maker(ResolveDepEdges, "Dummy", ("deps",))
_make_if = trusted_maker(ResolveDepEdges, "If", ("then", "orelse"))
_make_function = trusted_maker(ResolveDepEdges, "Function", ("body",))
_make_for = trusted_maker(ResolveDepEdges, "For", ("body",))
_make_while = trusted_maker(ResolveDepEdges, "While", ("body",))
_make_scope = trusted_maker(ResolveDepEdges, "Scope", ("body",))
