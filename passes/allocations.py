"""Which allocations a tensor name may hold: the facts ``materialize_runtime_scopes`` needs to keep
a yielded buffer alive.

An *allocation* is the binder of a ``pl.create_tensor`` let (or of a create in an ``Alloc``
batch) or of a task result the runtime allocates (its ``Out`` parameter has no argument). ``held_allocations(func, kernels)`` maps each
tensor name to the allocations it may stand for: a view, copy or assemble result holds its
source's (target's); a task result holds its written argument's; a loop carry and its result hold
the init's and every yield's (joined to a fixpoint; a ``pl.range``, ``pl.parallel`` or
``pl.while_`` loop); an if result holds both branches' yields.
``escaping_allocations(body, held)`` are the allocations made in ``body`` (at any depth) that
its final ``Yield`` may pass out.
"""

from __future__ import annotations

from .kernels import output_param_of_result
from .util import BODY_FIELDS, LOOPS, iter_stmts, last_yield

VIEWS = {"SliceTensor": "tensor", "TransposeTensor": "tensor", "ReshapeTensor": "tensor", "AssembleTensor": "target"}


def _last_yield(body):
    """A body's final yield, seen through a compiler scope around it (a verifier asks again after
    ``materialize_runtime_scopes`` wrapped the body)."""
    return last_yield(body)


def held_allocations(func, kernels) -> dict[str, frozenset]:
    """One walk in program order: a name's allocations are final once those of the names it is
    made from are (each is defined before it is read), except around a loop, whose iter_args
    also hold what its body yields: a loop's body is walked again until its yields add nothing
    to them (as ``hazards.storage_map`` does), and its results are set after that."""
    held: dict[str, frozenset] = {}

    def of(expr) -> frozenset:
        if expr is None or expr._production != "Var":
            return frozenset()
        return held.get(expr.name, frozenset())

    def body(stmts) -> bool:
        changed = False

        def put(name: str, value: frozenset) -> None:
            nonlocal changed
            old = held.get(name, frozenset())
            if not value <= old:
                held[name] = old | value
                changed = True

        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                value, vk = stmt.value, stmt.value._production
                if vk == "CreateTensor":
                    put(stmt.var.name, frozenset({stmt.var.name}))
                elif vk == "Var":
                    put(stmt.var.name, of(value))
                elif vk in VIEWS:
                    put(stmt.var.name, of(getattr(value, VIEWS[vk])))
            elif kind == "Alloc":  # batched creates (batch_tensor_creates on)
                for create in stmt.creates:
                    put(create.var.name, frozenset({create.var.name}))
            elif kind == "Task":
                kernel = kernels[stmt.kernel]
                for i, out in enumerate(stmt.outs):
                    binder = getattr(out, "var", out)
                    p = output_param_of_result(kernel, i)
                    if p is not None and p < len(stmt.args):
                        put(binder.name, of(stmt.args[p].value))
                    else:
                        put(binder.name, frozenset({binder.name}))
            elif kind in LOOPS:
                for it in stmt.iters:
                    put(it.var.name, of(it.init))
                y = _last_yield(stmt.body)
                while True:  # until the body's yields add nothing to the iter_args
                    changed |= body(stmt.body)
                    grew = False
                    for i, it in enumerate(stmt.iters):
                        more = of(y.values[i]) if y is not None and i < len(y.values) else frozenset()
                        if not more <= held.get(it.var.name, frozenset()):
                            put(it.var.name, more)
                            grew = True
                    if not grew:
                        break
                for it, result in zip(stmt.iters, stmt.results):
                    put(result.name, held.get(it.var.name, frozenset()))
            elif kind == "If":
                changed |= body(stmt.then)
                changed |= body(stmt.orelse)
                for branch in (stmt.then, stmt.orelse):
                    y = _last_yield(branch)
                    for i, res in enumerate(getattr(stmt, "results", ())):
                        binder = getattr(res, "var", res)
                        if y is not None and i < len(y.values):
                            put(binder.name, of(y.values[i]))
            else:
                for field in BODY_FIELDS.get(kind, ()):
                    changed |= body(getattr(stmt, field))
        return changed

    body(func.body)
    body = None  # noqa: F841 - (it calls itself through this frame's cell: cut the cycle)
    return held


def makes_allocations(func, kernels) -> bool:
    """Whether a statement of ``func`` makes an allocation (without one, every name of
    ``held_allocations`` holds none)."""
    for stmt in iter_stmts(func.body):
        kind = stmt._production
        if kind == "Alloc" or kind == "Let" and stmt.value._production == "CreateTensor":
            return True
        if kind == "Task":
            kernel, args = kernels[stmt.kernel], len(stmt.args)
            for i in range(len(stmt.outs)):
                p = output_param_of_result(kernel, i)
                if p is None or p >= args:
                    return True
    return False


def allocated_by(stmt) -> list[str]:
    """The allocations ``stmt`` itself makes (not those of its bodies): a create's, an alloc's,
    a task's results (a result that is an argument's buffer is named too, but is no allocation
    ``held`` or a storage map ever names)."""
    kind = stmt._production
    if kind == "Let" and stmt.value._production == "CreateTensor":
        return [stmt.var.name]
    if kind == "Alloc":
        return [create.var.name for create in stmt.creates]
    if kind == "Task":
        return [getattr(o, "var", o).name for o in stmt.outs]
    return []


def made_in(stmts) -> set[str]:
    """The allocations made in ``stmts``, at any depth."""
    out: set[str] = set()
    for stmt in stmts:
        out.update(allocated_by(stmt))
        for field in BODY_FIELDS.get(stmt._production, ()):
            out |= made_in(getattr(stmt, field))
    return out


def escaping_allocations(body, held: dict[str, frozenset]) -> set[str]:
    y = _last_yield(tuple(body))
    if y is None:
        return set()
    passed = set().union(*(held.get(v.name, frozenset()) for v in y.values if v._production == "Var"))
    return passed & made_in(body) if passed else set()
