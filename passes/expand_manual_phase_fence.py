"""expand_manual_phase_fence: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType, LoopKind, ScopeMode
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .edge_census import body_has
from .kernels import kernel_table
from .naming import base_name
from .util import assigned_names, has_let, iter_stmts, static_trip_count

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


def _fence_array(task, array_vars: dict[str, int]) -> str | None:
    """The TaskId array a task's user dependencies name, when that is its only user edge."""
    user = [d for d in task.deps if d._production in ("DepVar", "DepItem")]
    if len(user) == 1 and user[0]._production == "DepVar" and user[0].value._production == "Var":
        name = user[0].value.name
        if name in array_vars:
            return name
    return None


@register
class ExpandManualPhaseFence(Pass):
    """Compress all-to-all phase dependencies in manual scopes through one dummy barrier.

    In a manual scope, C tasks of a loop that each depend on a whole TaskId array of P slots
    cost P*C dependency insertions. When ``P*C - (P+C) >= 1`` and it is safe — the array is not
    a carry of the loop or of a loop inside it, not defined in its body, and not updated (``arr[i] = ...``) in it —
    one barrier ``phase_fence_barrier_<k>_tid = pl.system.task_dummy(deps=[arr])`` (k counts the
    function's barriers from 0) goes right before the loop and those consumers depend on the
    barrier instead (P + C insertions). Consumers in nested loops count
    (times their static trip count) when the outer loop is sequential. A loop without a known
    positive trip count is left alone. Afterwards no such loop has a profitable fence left.
    Whether the function has a manual scope at all is asked first of the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body): without one there is no consumer to fence, and the program is returned as it is.
    """

    name = "expand_manual_phase_fence"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        func = program.orch
        if not body_has(func.body, "manual_scope"):
            return program  # fences are for manual scopes only (the census saw every scope's mode)
        if not makes_task_id_arrays(func):
            return program  # (no binder can then be a TaskId array: the full search below finds none)
        binders = _binders(func)
        self.arrays = {
            b.name: b.type.size
            for b in binders
            if b.type._production == "ArrayType" and b.type.dtype is DType.TASK_ID
        }
        if not self.arrays:
            return program  # a fence's consumers depend on a TaskId array
        self.roots = buffer_roots(func, kernel_table(program))
        binders = [b.name for b in binders]
        self.taken = set(binders) | {base_name(n) for n in binders}
        self.barriers = 0
        self.manual = 0
        self.rewrite: dict[int, str] = {}  # id(consumer task) -> barrier name
        return self.visit(program)

    def Scope(self, scope):
        manual = scope.mode is ScopeMode.manual
        self.manual += manual
        body = self.block(scope.body)
        self.manual -= manual
        return scope if body is scope.body else self.build(scope, body=body)

    def CompilerScope(self, scope):
        return self.Scope(scope)

    def For(self, loop):
        body = self.block(loop.body)
        return loop if body is loop.body else self.build(loop, body=body)

    While = For

    def If(self, branch):
        then, orelse = self.block(branch.then), self.block(branch.orelse)
        if then is branch.then and orelse is branch.orelse:
            return branch
        return self.build(branch, then=then, orelse=orelse)

    def Task(self, task):
        barrier = self.rewrite.get(id(task))
        if barrier is None:
            return task
        deps = [
            D.DepVar(D.Var(barrier), span=d.span) if d._production == "DepVar" and d.value.name in self.arrays else d
            for d in task.deps
        ]
        return task.replace(deps=deps)

    def block(self, stmts) -> tuple:
        """``stmts`` with the fences before their loops and the statements visited (``stmts``
        itself when that changed nothing: the program is then returned as it is)."""
        out: list = []
        changed = False
        for stmt in stmts:
            if stmt._production == "For" and self.manual:
                fences = self.fences(stmt)
                if fences:
                    out.extend(fences)
                    changed = True
            new = self.visit(stmt)
            if isinstance(new, list):
                out.extend(new)
                changed = True
            else:
                out.append(new)
                changed = changed or new is not stmt
        return tuple(out) if changed else stmts

    def fences(self, loop) -> list:
        trips = static_trip_count(loop)
        if trips is None or trips <= 0:
            return []
        consumers = self.consumers(loop)
        if not consumers:
            return []
        carries = [it.var.name for s in (loop, *iter_stmts(loop.body)) if s._production in ("For", "While") for it in s.iters]
        unsafe = set(carries) | assigned_names(loop.body)
        updated = {
            self.roots.get(s.value.array.name, s.value.array.name)
            for s in iter_stmts(loop.body)
            if s._production == "Let" and s.value._production == "SetItem"
        }
        barriers = []
        for array, tasks in consumers.items():
            if array in unsafe or self.roots.get(array, array) in updated:
                continue
            producers = self.arrays[array]
            count = sum(weight for _, weight in tasks) * trips
            if producers * count - (producers + count) < 1:
                continue
            barrier = self.fresh()
            barriers.append(
                D.Dummy(D.Binder(barrier, TID_TYPE), [D.DepVar(D.Var(array))], None, span=tasks[0][0].span)
            )
            for task, _ in tasks:
                self.rewrite[id(task)] = barrier
            self.ctx.note(
                "phase-fence",
                f"{len(tasks)} consumer(s) of '{array.split('__')[0]}' in the loop at line "
                f"{loop.span.line if loop.span else '?'} wait for one barrier: {producers * count} dependency "
                f"insertions become {producers + count}",
                loop.span,
            )
        return barriers

    def consumers(self, loop) -> dict[str, list]:
        """array -> [(consumer task, runs per iteration)] in first-seen order."""
        found: dict[str, list] = {}

        def walk(stmts, weight: int) -> None:
            for stmt in stmts:
                kind = stmt._production
                if kind == "Task" and id(stmt) not in self.rewrite:
                    array = _fence_array(stmt, self.arrays)
                    if array is not None:
                        found.setdefault(array, []).append((stmt, weight))
                elif kind == "For":
                    inner = static_trip_count(stmt)
                    if loop.kind is LoopKind.seq and inner is not None and inner > 0:
                        walk(stmt.body, weight * inner)
                elif kind == "If":
                    walk(stmt.then, weight)
                    walk(stmt.orelse, weight)
                elif kind in ("Scope", "CompilerScope"):
                    walk(stmt.body, weight)

        walk(loop.body, 1)
        return found

    def fresh(self) -> str:
        """``phase_fence_barrier_<k>_tid``, k counting this function's barriers from 0 (the
        reference's name, reference-behaviour.md section 5), skipping a name the program uses."""
        while True:
            name = f"phase_fence_barrier_{self.barriers}_tid"
            self.barriers += 1
            if name not in self.taken:
                self.taken.add(name)
                return name


def makes_task_id_arrays(func) -> bool:
    """Whether ``func`` can hold a TaskId array: a parameter is one, or a ``Let`` makes one
    (``pl.array``: ``CreateArray``). A binder of any other statement that is one (a loop carry, an
    if result, a copy) holds a value first made so, so without them ``run`` finds no TaskId array
    among the binders, and the pass has nothing to do (one scan of the kept statement walk, where
    the binders' list costs a walk of its own)."""
    if any(p.type._production == "ArrayType" and p.type.dtype is DType.TASK_ID for p in func.params):
        return True
    return has_let(func.body, _makes_task_id_array)


def _makes_task_id_array(value) -> bool:
    return value._production == "CreateArray" and value.dtype is DType.TASK_ID


def _binders(func):
    from nanopass.languages.statements import binders_in_order

    return list(binders_in_order(func.body))
