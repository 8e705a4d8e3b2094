"""bind_task_ids: slotted -> tid-bound."""

from __future__ import annotations

from nanopass.languages import SLOTTED, TID_BOUND
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import DepSource, DType
from nanopass.rewrite import Pass, register

from .util import last_yield

B = TID_BOUND
TASK_ID = DType.TASK_ID  # (read once: an enum member read through its class costs a descriptor call)
FRESH, BARRIER, NONE_SEED, SLOT_SNAPSHOT = DepSource.fresh, DepSource.barrier, DepSource.none_seed, DepSource.slot_snapshot
ARRAY, ARRAY_CARRY, SCALAR_CARRY, PHI = DepSource.array, DepSource.array_carry, DepSource.scalar_carry, DepSource.phi
_TID_TYPES = frozenset({"ScalarType", "ArrayType"})  # the types of a TaskId and of a TaskId array


def is_tid(ty) -> bool:
    return ty._production == "ScalarType" and ty.dtype is TASK_ID


def is_tid_array(ty) -> bool:
    return ty._production == "ArrayType" and ty.dtype is TASK_ID


def binds_task_ids(body) -> bool:
    """Whether a statement under ``body`` binds a TaskId or TaskId array: a task's id, a dummy
    barrier, or a let, loop carry or if result of either type (every TaskId value is bound by
    one of these; without one no name has a source to bind)."""
    for stmt in walk_of(body).order:  # (the walk kept with the body: no walk of its own)
        kind = stmt._production
        if kind == "Task":
            if stmt.tid is not None:
                return True
        elif kind == "Let":
            ty = stmt.var.type
            if ty._production in _TID_TYPES and ty.dtype is TASK_ID:
                return True
        elif kind == "Dummy":
            return True
        elif kind == "For" or kind == "While":
            for it in stmt.iters:
                ty = it.var.type
                if ty._production in _TID_TYPES and ty.dtype is TASK_ID:
                    return True
        elif kind == "If":
            for phi in stmt.results:
                ty = phi.var.type
                if ty._production in _TID_TYPES and ty.dtype is TASK_ID:
                    return True
    return False


@register
class BindTaskIds(Pass):
    """Bind every TaskId variable (and TaskId array) to its source.

    Each TaskId-typed name gets ``(TidSource var source storage size)``: a submit's TaskId is
    ``fresh``; ``None`` is ``none_seed``; ``arr[i]`` is a ``slot_snapshot``; a
    ``pl.array.create(N, pl.TASK_ID)`` (and every later version of it) is an ``array`` of N
    slots; a dummy barrier's result is a ``barrier``; a TaskId carried by a loop is a
    ``scalar_carry`` (one C++ variable for the carry and the loop's result) or, with an array
    plan, an ``array_carry`` of N slots; inside a ``pl.parallel`` loop with an array plan the
    carry stands for its init (every iteration depends on what came before the loop); a carry
    that holds more ids in the body than its result (``Carry.body``) is stored in a variable of
    its own, named after its iter_arg, apart from the result's; an if result is a ``phi``. ``storage`` names the variable whose C++ declaration holds the value.
    Copies share their source's entry. The body is unchanged.

    A function none of whose statements binds a TaskId (``binds_task_ids``, one scan of the
    body's kept walk) gets no entry, its body not walked.
    """

    name = "bind_task_ids"
    source = SLOTTED
    target = TID_BOUND

    def Function(self, func):
        # name -> its entry, in the order the names were first bound (a rebinding keeps the place)
        self.table: dict[str, object] = {}
        # (read when the pass runs: inside ``trusted_checked()`` it is the checked ``make``)
        self.make_tid = B.TidSource.make_trusted
        if binds_task_ids(func.body):
            self.body(func.body)
        tids = list(self.table.values())
        return B.Function.make_trusted(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, func.buffer_groups, func.slots, func.arg_count,
            tids, func.body, span=func.span,
        )

    def bind(self, name: str, source: DepSource, storage: str, size: int = 0) -> None:
        # (unchecked: a symbol, a dep_source and a size, each of the kind of its field)
        self.table[name] = self.make_tid(name, source, storage, size)

    def alias(self, name: str, other: str) -> None:
        entry = self.table.get(other)
        if entry is not None:
            self.table[name] = self.make_tid(name, entry.source, entry.storage, entry.size)

    def body(self, stmts) -> None:
        table, make_tid = self.table, self.make_tid
        for stmt in stmts:
            kind = stmt._production
            if kind == "Task" or kind == "Dummy":  # (``bind``, inlined: the usual statements)
                var = stmt.tid if kind == "Task" else stmt.var
                if var is not None:
                    name = var.name
                    table[name] = make_tid(name, FRESH if kind == "Task" else BARRIER, name, 0)
            elif kind == "Let":
                ty = stmt.var.type
                if ty._production in _TID_TYPES and ty.dtype is TASK_ID:  # (``let`` binds nothing else)
                    self.let(stmt)
            elif kind == "For" or kind == "While":
                self.loop(stmt)
            elif kind == "If":
                self.body(stmt.then)
                self.body(stmt.orelse)
                self.branch(stmt)
            elif kind == "Scope" or kind == "CompilerScope":
                self.body(stmt.body)

    def let(self, stmt) -> None:
        """Bind a let of a TaskId or TaskId array (``body`` hands on no other let)."""
        var, value = stmt.var, stmt.value
        vk = value._production
        if var.type._production == "ScalarType":  # (a TaskId; else a TaskId array)
            if vk == "NoTask":
                self.bind(var.name, NONE_SEED, var.name)
            elif vk == "GetItem":
                self.bind(var.name, SLOT_SNAPSHOT, var.name)
            elif vk == "Var":
                self.alias(var.name, value.name)
        else:
            if vk == "CreateArray":
                self.bind(var.name, ARRAY, var.name, value.size)
            elif vk == "SetItem":
                self.alias(var.name, value.array.name)
            elif vk == "Var":
                self.alias(var.name, value.name)

    def loop(self, loop) -> None:
        for it, result in zip(loop.iters, loop.results):
            ty = it.var.type
            if ty._production not in _TID_TYPES or ty.dtype is not TASK_ID:
                continue
            array = ty._production == "ArrayType"  # (a TaskId array; else a TaskId)
            plan = it.plan
            init = it.init.name if it.init._production == "Var" else None
            if array and not plan.rebind:
                if init is not None:
                    self.alias(it.var.name, init)
                    self.alias(result.name, init)
                continue
            if array:
                self.bind(it.var.name, ARRAY, result.name, ty.size)
                self.bind(result.name, ARRAY, result.name, ty.size)
            elif plan.per_iteration:  # inside the body the carry stands for its init
                self.bind(result.name, ARRAY_CARRY, result.name, plan.array)
                if init is not None:
                    self.alias(it.var.name, init)
            elif plan.body != plan.array:  # the carry has a variable of its own, the result another
                self.bind(it.var.name, _carry_source(plan.body), it.var.name, plan.body)
                self.bind(result.name, _carry_source(plan.array), result.name, plan.array)
            elif plan.array > 0:
                self.bind(result.name, ARRAY_CARRY, result.name, plan.array)
                self.bind(it.var.name, ARRAY_CARRY, result.name, plan.array)
            else:
                self.bind(it.var.name, SCALAR_CARRY, result.name)
                self.bind(result.name, SCALAR_CARRY, result.name)
        self.body(loop.body)

    def branch(self, branch) -> None:
        then_y, else_y = last_yield(branch.then), last_yield(branch.orelse)
        for i, phi in enumerate(branch.results):
            var = phi.var
            if is_tid(var.type) and phi.plan.array > 0:
                self.bind(var.name, ARRAY_CARRY, var.name, phi.plan.array)
            elif is_tid(var.type):
                self.bind(var.name, PHI, var.name)
            elif is_tid_array(var.type) and not phi.plan.rebind and then_y is not None:
                value = then_y.values[i]
                if value._production == "Var":
                    self.alias(var.name, value.name)
            elif is_tid_array(var.type):
                self.bind(var.name, ARRAY, var.name, var.type.size)
        del else_y


def _carry_source(size: int) -> DepSource:
    return ARRAY_CARRY if size > 0 else SCALAR_CARRY
