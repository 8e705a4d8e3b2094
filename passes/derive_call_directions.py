"""derive_call_directions: ssa -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED, SSA
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import carry_kept
from nanopass.languages.terms import ArgDir, LoopKind, ParamDir
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .hazards import storage_map
from .kernels import kernel_table
from .naming import base_name
from .util import iter_stmts, last_yield

D = DIRECTED
VIEWS = ("SliceTensor", "TransposeTensor", "ReshapeTensor")


# what each direction orders: after the slot's last writer (a read or an InOut write), and
# publishing this task as the slot's writer (runtime-api.md section 11's table)
ORDERS = {
    ArgDir.Input: {"waits"},
    ArgDir.OutputExisting: {"publishes"},
    ArgDir.InOut: {"waits", "publishes"},
}


_NOTHING: frozenset[str] = frozenset()

# For the per-argument and per-loop decisions: an Enum member read off its class is a Python call
# each time (Python 3.11's EnumType.__getattr__), a module-level name is not.
_SCALAR, _NO_DEP, _IN_OUT, _OUTPUT_EXISTING = ArgDir.Scalar, ArgDir.NoDep, ArgDir.InOut, ArgDir.OutputExisting
_IN, _SEQ = ParamDir.In, LoopKind.seq


def is_out_tensor(param) -> bool:
    return param.dir is ParamDir.Out and param.type._production == "TensorType"


def fixed_direction(param) -> ArgDir | None:
    """The direction of an argument at ``param`` when the parameter alone decides it (``pl.no_dep``
    aside): ``Scalar``, ``Input`` or ``InOut``; None for an Out tensor."""
    if param.type._production != "TensorType":
        return ArgDir.Scalar
    if param.dir is ParamDir.In:
        return ArgDir.Input
    if param.dir is ParamDir.InOut:
        return ArgDir.InOut
    return None


@register
class DeriveCallDirections(Pass):
    """Decide how the runtime tracks each task argument (its call-site direction).

    Scalars are ``Scalar``; a tensor at an In parameter is ``Input``, at an InOut parameter
    ``InOut``; ``pl.no_dep(t)`` makes it ``NoDep``. A tensor at an Out parameter is
    ``OutputExisting`` (the runtime registers the writer without waiting for earlier writers)
    only when this task is the first writer of that buffer; it is ``InOut`` (so the runtime
    orders it after earlier writers) inside a sequential loop, when an earlier task may have
    written the same buffer, or when the buffer is an InOut parameter of the orchestration
    function. Afterwards every ``Arg`` carries its direction.

    A call site's direction hint (``attrs={"arg_directions": [...]}``) is kept where it orders
    at least what the derived direction orders (``InOut`` for a read, say); where it orders less
    (``Input`` for a slot the kernel writes, ``OutputExisting`` for one it reads), the argument
    gets the weakest direction that orders both, ``InOut``. A note names every slot whose
    direction the hint changed or would have weakened.

    Preserves the single definitions and the yields (``preserves``): it sets the ``Arg``s'
    directions and changes nothing else (every statement, binder, body and yield is the input's).
    """

    name = "derive_call_directions"
    source = SSA
    target = DIRECTED
    preserves = frozenset({check_single_definition, check_yields})

    def run(self, program):
        self.kernels = kernel_table(program)
        # kernel -> each parameter's direction where the parameter alone decides it (None: an Out
        # tensor, decided by the writes before the task, or by pl.no_dep)
        self.fixed = {name: [fixed_direction(p) for p in kernel.params] for name, kernel in self.kernels.items()}
        self.decided: dict[int, list[ArgDir]] = {}  # id(task) -> its directions, when analysed
        func = program.orch
        called = {stmt.kernel for stmt in iter_stmts(func.body) if stmt._production == "Task"}
        if any(is_out_tensor(p) for name in called for p in self.kernels[name].params):
            self.analyze_writers(func)
        result = self.visit(program)
        # storage_map reads names, values, kernels and loops, none of which this pass changes
        # (it sets the Args' directions only): its result for the input holds for the output
        carry_kept(storage_map, func, result.orch)
        return result

    def analyze_writers(self, func) -> None:
        """Decide every task's directions from the buffers written before it (only an Out
        parameter's direction depends on them: without one, ``Task`` decides alone)."""
        self.roots = buffer_roots(func, self.kernels)
        self.views = {
            stmt.var.name: stmt.value.tensor.name
            for stmt in iter_stmts(func.body)
            if stmt._production == "Let" and stmt.value._production in VIEWS and stmt.value.tensor._production == "Var"
        }
        self.may = self.may_hold(func)
        self.held: dict[str, set[str]] = {}  # name -> held_buffers of a Var of it (may is complete)
        self.inout_params = {p.name for p in func.params if p.dir is ParamDir.InOut}
        # the buffers written before the statement being decided; each addition is logged, so
        # that a branch's additions are undone in time proportional to them
        self.seen: set[str] = set()
        self.added: list[str] = []
        self.analyze(func.body, 0)

    def root(self, expr) -> str | None:
        return self.roots.get(expr.name, expr.name) if expr._production == "Var" else None

    def storage(self, expr) -> str | None:
        """The root of the buffer ``expr`` is (a view's is the viewed buffer's)."""
        return self.storage_of(self.root(expr)) if expr._production == "Var" else None

    def storage_of(self, name: str) -> str:
        while name in self.views:
            name = self.roots.get(self.views[name], self.views[name])
        return name

    def buffers(self, expr) -> set[str]:
        """Every buffer root ``expr`` may be (a rebound carry or if result: each value it takes)."""
        name = self.storage(expr)
        if name is None:
            return set()
        return self.may.get(name, set()) | {name}

    def held_buffers(self, expr) -> set[str]:
        """``buffers(expr)``, computed once per name: only once ``self.may`` is complete (the
        fixpoint of ``may_hold`` asks ``buffers`` while it grows). Callers do not change it."""
        if expr._production != "Var":
            return _NOTHING
        held = self.held.get(expr.name)
        if held is None:
            held = self.held[expr.name] = self.buffers(expr)
        return held

    def may_hold(self, func) -> dict[str, set[str]]:
        """Carry / if-result root -> the buffer roots of the values it may take (a fixpoint)."""
        # An edge (root, storage): the carry or if result ``root`` may take a value stored in
        # ``storage``, so it may hold that buffer and whatever that buffer may hold.
        edges: dict[str, dict[str, None]] = {}  # root -> its storages, in the order found

        def join(names, values) -> None:
            for storage in map(self.storage, values):
                if storage is not None:
                    for name in names:
                        edges.setdefault(self.storage_of(self.roots.get(name, name)), {})[storage] = None

        for stmt in iter_stmts(func.body):
            if stmt._production in ("For", "While"):
                yld = last_yield(stmt.body)
                for k, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
                    join([it.var.name, result.name], [it.init] + ([yld.values[k]] if yld is not None else []))
            elif stmt._production == "If":
                for k, result in enumerate(stmt.results):
                    join([result.name], [y.values[k] for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None])
        return reachable(edges)

    def written_roots(self, stmt) -> set[str]:
        kernel = self.kernels[stmt.kernel]
        out: set[str] = set()
        for arg, param in zip(stmt.args, kernel.params):
            if param.dir is not _IN:
                out |= self.held_buffers(arg.value)
        return out

    def see(self, written: set[str]) -> None:
        seen, added = self.seen, self.added
        for name in written:
            if name not in seen:
                seen.add(name)
                added.append(name)

    def unsee(self, mark: int) -> None:
        """Forget the buffers seen since ``self.added`` was ``mark`` long."""
        seen, added = self.seen, self.added
        while len(added) > mark:
            seen.discard(added.pop())

    def analyze(self, stmts, seq_depth: int) -> set[str]:
        """Decide the directions of the tasks in ``stmts``, which run after the writes of the
        buffers in ``self.seen`` (the writes of ``stmts`` are added); returns the buffers
        ``stmts`` may write."""
        writes: set[str] = set()
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task":
                self.decided[id(stmt)] = self.directions(stmt, seq_depth)
                written = self.written_roots(stmt)
            elif kind == "For" or kind == "While":  # the body's writes are seen after the loop as they are in it
                written = self.analyze(stmt.body, seq_depth + (kind == "While" or stmt.kind is _SEQ))
            elif kind == "If":  # each branch runs after what came before, not after the other
                mark = len(self.added)
                written = self.analyze(stmt.then, seq_depth)
                self.unsee(mark)
                written |= self.analyze(stmt.orelse, seq_depth)
                self.unsee(mark)
            elif kind in ("Scope", "CompilerScope"):
                written = self.analyze(stmt.body, seq_depth)
            else:
                continue
            self.see(written)
            writes |= written
        return writes

    def directions(self, task, seq_depth: int, seen: set[str] | None = None) -> list[ArgDir]:
        """The task's argument directions, after the writes of ``seen`` (default ``self.seen``)."""
        if seen is None:
            seen = self.seen
        dirs = []
        for arg, fixed in zip(task.args, self.fixed[task.kernel]):
            if fixed is _SCALAR:
                dirs.append(fixed)
            elif arg.no_dep:
                dirs.append(_NO_DEP)
            elif fixed is not None:
                dirs.append(fixed)
            elif seq_depth > 0 or self.root(arg.value) in self.inout_params or not seen.isdisjoint(
                    self.held_buffers(arg.value)):
                dirs.append(_IN_OUT)
            else:
                dirs.append(_OUTPUT_EXISTING)
        return dirs

    def weigh_hint(self, arg, derived: ArgDir, task) -> ArgDir:
        """The direction of a slot whose call site asks for ``arg.hint``; ``derived`` is this pass's."""
        hint = arg.hint
        if derived not in ORDERS or hint is derived:
            return derived
        name = base_name(arg.value.name) if arg.value._production == "Var" else "?"
        if ORDERS[derived] <= ORDERS[hint]:
            self.ctx.note("direction-hint", f"{task.kernel}: argument {name} is {hint.name} as attrs asks "
                          f"(derived: {derived.name}, which orders less)", arg.span)
            return hint
        self.ctx.note("direction-hint", f"{task.kernel}: attrs asks for {hint.name} on argument {name}, which "
                      f"orders less than the derived {derived.name}; passed as InOut", arg.span)
        return ArgDir.InOut

    def Task(self, task):
        dirs = self.decided.get(id(task))
        if dirs is None:  # no kernel has an Out tensor parameter: nothing depends on earlier writers
            dirs = self.directions(task, 0, set())
        make = D.Arg.make
        args = [make(arg.value, d if arg.hint is None else self.weigh_hint(arg, d, task), span=arg.span)
                for arg, d in zip(task.args, dirs)]
        return D.Task.make(task.outs, task.tid, task.kernel, args, task.dumps, task.early_resolve, task.deps, task.launch,
                           span=task.span)


def reachable(edges: dict[str, dict]) -> dict[str, set[str]]:
    """Each node with edges -> the nodes it reaches by one edge or more: the least fixpoint of
    ``may[a] >= {b} | may[b]`` for each edge ``a -> b``. The strongly connected components
    (Tarjan's, without recursion) come sinks first, so each component's set is made once, from
    its members' edges and the sets of the components they lead to: time linear in the edges
    plus the sets' sizes, where iterating the edges to the fixpoint took a pass per link of the
    longest chain (a chain of ifs that swap two buffers: quadratic passes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: dict[str, set[str]] = {}
    nothing: dict = {}
    for start in edges:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(edges[start]))]
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(edges.get(succ, nothing))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    # (in a cycle every member is another's successor: each reaches every member)
                    members = set(component)
                    reach: set[str] = set()
                    for member in component:
                        for succ in edges.get(member, nothing):
                            reach.add(succ)
                            if succ not in members:
                                reach.update(out.get(succ, ()))
                    for member in component:
                        if member in edges:
                            out[member] = set(reach) if len(component) > 1 else reach
    return out
