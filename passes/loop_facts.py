"""What a loop's syntax says, for the model of the runtime's order (``runtime_order``): its
counter and trips (``loop_counter``, ``trip_bounds``, ``first_and_later``, ``second_and_rest``,
``surely_runs``), whether its body branches on the counter, moves, replaces or swaps carries,
sets array slots or slices at the counter (``slice_writes``), the regions a loop of parameter
bounds slices the same way in every run (``repeated_regions``), the conditions and swap loops
invariant in a function (``invariant_conditions``, ``invariant_parity_loops``), and the value of
a scalar expression (``evaluate_scalar``). Functions of the ``directed`` language's nodes alone:
none reads the walk's state."""

from __future__ import annotations

from nanopass.languages.terms import ArgDir, BinOp, CmpOp, DType, LoopKind, ScopeMode, UnOp

from .util import assigned_names, iter_stmts, last_yield, scalar_names

COUNTER = "the loop counter"  # (``_renamed_key``)
MIN = "at least"  # ``(name, MIN)`` in the walk's scalars: a lower bound of a loop's counter ``name``
MAX = "at most"  # ``(name, MAX)`` in the walk's scalars: an upper bound of a scalar ``name`` (``trip_bounds``)
_FLIPPED = {CmpOp.lt: CmpOp.gt, CmpOp.gt: CmpOp.lt, CmpOp.le: CmpOp.ge, CmpOp.ge: CmpOp.le}
WRITES = (ArgDir.InOut, ArgDir.OutputExisting)


def invariant_conditions(func, stmts: list) -> dict[int, tuple]:
    """``id(if) -> a key of its condition`` for the ``if``s in a loop whose condition reads only
    the function's scalar parameters: it has the same value wherever and whenever it is tested
    in one run of the function. The walk is made once per value of each such condition (at most
    ``runtime_order.ASSUMED`` of them, equal conditions counted once; ``(ASSUME, key)`` in its
    scalars), each ``if`` on it taking one branch, and the results meet: an edge is implied where
    every walk of its task implies it (an ``if n > 1`` in a loop runs the same branch in every iteration, so
    an edge on a task of the other branch waits for a task that never ran there)."""
    params = {p.name for p in func.params if p.type._production == "ScalarType"}
    out = {}
    for loop in stmts:
        if loop._production in ("For", "While"):
            for stmt in iter_stmts(loop.body):
                if stmt._production == "If" and id(stmt) not in out:
                    key = _condition_key(stmt.cond, params)
                    if key is not None:
                        out[id(stmt)] = key
    return out


def invariant_parity_loops(func, stmts: list) -> list:
    """The loops in a loop that ``_Walker.parities`` splits by their trips' parity (a sequential
    ``For`` of a positive constant step, bounds not both constant, that swaps or rotates its
    carries) whose bounds read only the function's scalar parameters: each time such a loop runs
    in one run of the function it makes the same number of trips. The walk is made once per
    parity of each (at most ``ASSUMED`` with the conditions of ``invariant_conditions``;
    ``(PARITY, k)`` in its scalars from the start, ``k`` its index in
    ``RuntimeOrder.parity_loops``), each walk leaving such a loop by the exits of its parity
    alone (``_Walker.consistent``), and the results meet: what an iteration of an outer loop
    finds of the tensors the carries held after the inner loop's trips in the iteration before
    is that of the same parity (the meet of the exits at the end of an outer iteration's walk
    would part them)."""
    params = {p.name for p in func.params if p.type._production == "ScalarType"}
    out, seen = [], set()
    for outer in stmts:
        if outer._production not in ("For", "While"):
            continue
        for loop in iter_stmts(outer.body):
            if (id(loop) not in seen and loop._production == "For" and loop.kind is LoopKind.seq
                    and loop.step._production == "Int" and loop.step.value > 0
                    and not (loop.start._production == "Int" and loop.stop._production == "Int")
                    and _condition_key(loop.start, params) is not None
                    and _condition_key(loop.stop, params) is not None and moves_carries(loop)):
                seen.add(id(loop))
                out.append(loop)
    return out


def repeated_regions(loop, params: frozenset, number: dict) -> tuple | None:
    """(id(slice let) -> a key of its extents and offsets, the ids of the writers, the bitset
    (both bits) of the tasks of the body, a key of the loop) of a ``For`` whose bounds read only
    the function's scalar parameters (a positive constant step): each time it runs, its counter
    takes the same values. Its slices are those its body makes (not in a branch or an inner loop:
    once per iteration) of a tensor at offsets computed from its counter and those parameters
    alone, of constant extents: each time the loop runs, the iteration of a counter value views
    the same region (of the tensor its name holds). Its writers are the tasks of its body (not
    in a branch or an inner loop) that write such a slice. After a trip or more, a lookup of the
    region of any counter value in a later run of the loop finds what the writer of that value
    wrote (or an InOut writer after it, which looked it up): it is ordered after what each of
    those writes was, less the tasks of the loop's body (``_Walker.walk_loop``); a slice of the
    loop's next run starts from those facts (``_Walker.Let``), and so does one of another loop of
    the same bounds whose offsets compute the same from its counter (the keys name the bounds,
    and the counter as ``COUNTER``: its counter takes the same values, and the iteration of each
    views the same region; seed 41133). None where it has no such slice written."""
    if (loop._production != "For" or loop.step._production != "Int" or loop.step.value <= 0
            or _condition_key(loop.start, params) is None or _condition_key(loop.stop, params) is None):
        return None
    names = params | {loop.var.name}
    slices, writers, sliced = {}, set(), {}

    def direct(body):
        for stmt in body:
            if stmt._production in ("Scope", "CompilerScope"):
                yield from direct(stmt.body)
            else:
                yield stmt
    for stmt in direct(loop.body):
        if stmt._production == "Let" and stmt.value._production == "SliceTensor":
            value = stmt.value
            if value.clamp or value.manual_dep or value.tensor._production != "Var":
                continue
            if any(e._production != "Int" for e in value.shape):
                continue
            keys = [_condition_key(e, names) for e in value.offset]
            if None in keys or loop.var.name not in scalar_names(value.offset):
                continue
            keys = [_renamed_key(k, loop.var.name) for k in keys]
            sliced[stmt.var.name] = id(stmt)
            slices[id(stmt)] = repr(([e.value for e in value.shape], keys))
        elif stmt._production == "Task":
            if any(a.dir in WRITES and a.value._production == "Var" and a.value.name in sliced for a in stmt.args):
                writers.add(id(stmt))
    if not writers:
        return None
    width = len(number)
    tasks = 0
    for stmt in iter_stmts(loop.body):
        n = number.get(id(stmt)) if stmt._production == "Task" else None
        if n is not None:
            tasks |= (1 << n) | (1 << (width + n))
    bounds = (_condition_key(loop.start, params), _condition_key(loop.stop, params), loop.step.value)
    return slices, writers, tasks, repr(bounds)


def _renamed_key(key, counter: str):
    """``key`` (``_condition_key``) with the variable ``counter`` read as the counter of any loop
    (``COUNTER``): two loops of the same bounds whose slices' offsets compute the same from their
    counters view the same regions, iteration by iteration (``repeated_regions``)."""
    if key == ("Var", counter):
        return "Var", COUNTER
    if isinstance(key, tuple) and key and key[0] in ("Un", "Bin", "Cmp"):
        return key[:2] + tuple(_renamed_key(k, counter) for k in key[2:])
    return key


def _condition_key(expr, params: set):
    """A hashable key of ``expr``, equal for equal expressions, when it reads only ``params``;
    else None."""
    kind = expr._production
    if kind == "Int" or kind == "Bool":
        return kind, expr.value
    if kind == "Var":
        return (kind, expr.name) if expr.name in params else None
    if kind == "Un":
        a = _condition_key(expr.a, params)
        return None if a is None else (kind, expr.op, a)
    if kind == "Bin" or kind == "Cmp":
        a, b = _condition_key(expr.a, params), _condition_key(expr.b, params)
        return None if a is None or b is None else (kind, expr.op, a, b)
    return None


def first_and_later(loop, values: dict) -> tuple[dict, dict]:
    """The scalars of the walk of a loop's first iteration and of its later ones, where the loop
    counts: a sequential ``For`` of a known start and a positive constant step (its variable), or
    a ``while`` with a carry started from a known value and yielded plus a positive constant
    (``pl.while_(init_values=(0, ...))`` ... ``i + 1``). The counter is its start in the first
    iteration and at least the start plus the step in the later ones (the key ``(name, MIN)``,
    read by ``evaluate_scalar``'s comparisons). Else ``values`` for both."""
    counter = loop_counter(loop)
    if counter is None:
        return values, values
    name, start, step = counter
    start = evaluate_scalar(start, values)
    if start is None:
        return values, values
    return {**values, name: start}, {**values, (name, MIN): start + step}


def trip_bounds(loop, values: dict, paths: int) -> list:
    """Per exit of ``loop`` (``_Walker.exits``), what the walk of the rest of its block knows of
    its bounds: of a ``For`` of a positive constant step, a known start ``s`` and a stop ``v``
    the walk does not know (a scalar name), that exits by no trip (``v <= s``: ``(v, MAX)``) or
    after one or more (``v >= s + 1``: ``(v, MIN)``), so that an ``if n >= 1`` after ``for i in
    pl.range(n)`` takes one branch on each exit. Else nothing."""
    none = [{}] * paths
    if (paths != 2 or loop._production != "For" or loop.step._production != "Int" or loop.step.value <= 0
            or loop.stop._production != "Var"):
        return none
    start, name = evaluate_scalar(loop.start, values), loop.stop.name
    if start is None or isinstance(start, bool) or evaluate_scalar(loop.stop, values) is not None:
        return none
    low, high = values.get((name, MIN)), values.get((name, MAX))
    return [{(name, MAX): start if high is None else min(high, start)},
            {(name, MIN): start + 1 if low is None else max(low, start + 1)}]


def second_and_rest(loop, values: dict) -> tuple | None:
    """(a counting loop's counter, its value in the second iteration: the start plus the step,
    the scalars of the walk of the iterations after it: the counter at least the start plus
    twice the step, as ``first_and_later``), where an ``if`` in it tests the counter (``if i >=
    1``: the task it guards runs from the second iteration on, so the third is the first after
    a run of it) or it gives a carry a tensor named before it (``replaces_carries``: the second
    iteration is the first in which the carry holds that tensor, and the runs of the first wrote
    the init); else None. The second iteration is walked with the scalars of the later ones,
    its counter's value in ``_Walker.exact`` (``chained_at`` and ``implied_at`` record the walk
    under both: an edge implied there is implied where the counter has that value); such a loop of
    bounds not both constant leaves three ways (no trip, one, two or more: ``walk_loop``), one of
    constant bounds of two trips or more after the second trip or a later one."""
    counter = loop_counter(loop)
    if counter is None:
        return None
    name, start, step = counter
    start = evaluate_scalar(start, values)
    if start is None or not (any(s._production == "If" and name in scalar_names([s.cond]) for s in iter_stmts(loop.body))
                             or replaces_carries(loop)):
        return None  # (or neither: the second iteration is walked as the later ones)
    return name, start + step, {**values, (name, MIN): start + 2 * step}


def loop_counter(loop) -> tuple | None:
    """(the counter's name, its start expression, its positive constant step) of a counting loop
    (``first_and_later``), or None."""
    if loop._production == "For":
        if loop.kind is not LoopKind.seq or loop.step._production != "Int" or loop.step.value <= 0:
            return None
        return loop.var.name, loop.start, loop.step.value
    yld = last_yield(loop.body)
    if yld is None:
        return None
    for it, value in zip(loop.iters, yld.values):
        if value._production != "Bin" or value.op is not BinOp.add:
            continue
        operands = (value.a, value.b) if value.a._production == "Var" else (value.b, value.a)
        if (operands[0]._production == "Var" and operands[0].name == it.var.name
                and operands[1]._production == "Int" and operands[1].value > 0):
            return it.var.name, it.init, operands[1].value
    return None


def is_task_id(binder) -> bool:
    return binder.type._production == "ScalarType" and binder.type.dtype is DType.TASK_ID


def is_parallel(loop) -> bool:
    return loop._production == "For" and loop.kind is LoopKind.parallel


def branches_on(loop) -> bool:
    """An ``if`` in ``loop``'s body tests the loop variable."""
    name = loop.var.name
    for stmt in iter_stmts(loop.body):
        if stmt._production == "If" and name in scalar_names([stmt.cond]):
            return True
    return False


def moves_carries(loop) -> bool:
    """``loop`` yields a carry into another carry's place (a swap or rotation of carries): which
    tensor a carry holds depends on the iteration."""
    yld = last_yield(loop.body)
    if yld is None:
        return False
    names = [it.var.name for it in loop.iters]
    return any(v._production == "Var" and v.name in names and v.name != names[k] for k, v in enumerate(yld.values))


def replaces_carries(loop) -> bool:
    """``loop`` yields a carry a name bound before it that is not its init: the carry holds
    another tensor from the second iteration on."""
    yld = last_yield(loop.body)
    if yld is None:
        return False
    inner = None
    for it, value in zip(loop.iters, yld.values):
        if value._production != "Var" or value.name == it.var.name:
            continue
        if it.init._production == "Var" and it.init.name == value.name:
            continue
        if inner is None:
            inner = assigned_names(loop.body) | {i.var.name for i in loop.iters}
        if value.name not in inner:
            return True
    return False


def sets_slots(loop) -> bool:
    """``loop``'s body sets an array slot at an index computed from the loop variable."""
    name = loop.var.name
    return any(s._production == "Let" and s.value._production == "SetItem" and name in scalar_names([s.value.index])
               for s in iter_stmts(loop.body))


def slices_at(loop) -> bool:
    """``loop``'s body slices a tensor at an offset computed from the loop variable (each
    iteration's view is a region of its own: ``_Walker.region``)."""
    name = loop.var.name
    return any(s._production == "Let" and s.value._production == "SliceTensor"
               and name in scalar_names(s.value.offset) for s in iter_stmts(loop.body))


def slice_writes(loop, untracked: frozenset, number: dict) -> tuple:
    """The (slice ``Let``, task, the bits of every task in ``loop``'s body) where a statement of
    the body (in no ``if``, loop or MANUAL scope) slices a tensor at an offset computed from the
    loop variable (no ``manual_dep`` view, of a tensor that is none) and a later task statement
    of the body writes that view (InOut or OutputExisting) each iteration
    (``_Walker.summarize_slice_writes``)."""
    if not slices_at(loop):
        return ()
    body = loop.body
    while len(body) == 1 and body[0]._production == "Scope" and body[0].mode is not ScopeMode.manual:
        body = body[0].body
    var = loop.var.name
    lets, out = {}, []
    inside = 0
    for stmt in iter_stmts(loop.body):
        if stmt._production == "Task":
            n = number[id(stmt)]
            inside |= 1 << n
    for stmt in body:
        kind = stmt._production
        if kind == "Let":
            value = stmt.value
            if (value._production == "SliceTensor" and not value.manual_dep and not value.clamp
                    and value.tensor._production == "Var" and value.tensor.name not in untracked
                    and var in scalar_names(value.offset)):
                lets[stmt.var.name] = stmt
        elif kind == "Task":
            for arg in stmt.args:
                if (arg.dir in WRITES and arg.value._production == "Var" and arg.value.name in lets
                        and arg.value.name not in untracked):
                    out.append((lets[arg.value.name], stmt))
    return tuple((let, task, inside) for let, task in out)


def evaluate_scalar(expr, values: dict):
    """The value of an integer or boolean expression of constants and ``values`` (the C++
    semantics: ``//`` and ``%`` truncate), or None when it is not known."""
    kind = expr._production
    if kind == "Int":
        return expr.value
    if kind == "Bool":
        return bool(expr.value)
    if kind == "Var":
        return values.get(expr.name)
    if kind == "Un":
        a = evaluate_scalar(expr.a, values)
        if a is None:
            return None
        return {UnOp.neg: lambda: -a, UnOp.not_: lambda: not a, UnOp.invert: lambda: ~a}[expr.op]()
    if kind not in ("Bin", "Cmp"):
        return None
    a, b = evaluate_scalar(expr.a, values), evaluate_scalar(expr.b, values)
    op = expr.op
    if a is None or b is None:
        if kind == "Cmp":
            return _compare_at_least(expr, a, b, values)
        if op is BinOp.and_ and (a is not None and not a or b is not None and not b):
            return False  # (one side false decides it)
        if op is BinOp.or_ and (a is not None and a or b is not None and b):
            return True
        return None
    if kind == "Cmp":
        return {CmpOp.eq: a == b, CmpOp.ne: a != b, CmpOp.lt: a < b, CmpOp.le: a <= b, CmpOp.gt: a > b,
                CmpOp.ge: a >= b}[op]
    if op is BinOp.and_:
        return bool(a) and bool(b)
    if op is BinOp.or_:
        return bool(a) or bool(b)
    if op in (BinOp.floordiv, BinOp.mod):
        if b == 0:
            return None
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return quotient if op is BinOp.floordiv else a - b * quotient
    arithmetic = {BinOp.add: lambda: a + b, BinOp.sub: lambda: a - b, BinOp.mul: lambda: a * b}
    return arithmetic[op]() if op in arithmetic else None


def _compare_at_least(cmp, a, b, values: dict):
    """The value of the comparison ``cmp`` of a variable ``v`` known to be at least ``low``
    (``values[(v, MIN)]``) or at most ``high`` (``values[(v, MAX)]``: ``trip_bounds``) with a
    known ``c`` (``a`` or ``b``, the other None), when that decides it."""
    if a is None and b is not None and cmp.a._production == "Var":
        name, c, op = cmp.a.name, b, cmp.op
    elif b is None and a is not None and cmp.b._production == "Var":
        name, c, op = cmp.b.name, a, _FLIPPED.get(cmp.op, cmp.op)
    else:
        return None
    low = values.get((name, MIN))
    if low is not None:
        if op is CmpOp.ge and low >= c or op is CmpOp.gt and low > c or op is CmpOp.ne and low > c:
            return True
        if op is CmpOp.lt and low >= c or op is CmpOp.le and low > c or op is CmpOp.eq and low > c:
            return False
    high = values.get((name, MAX))
    if high is not None:  # (``v`` at most ``high``)
        if op is CmpOp.lt and high < c or op is CmpOp.le and high <= c or op is CmpOp.ne and high < c:
            return True
        if op is CmpOp.ge and high < c or op is CmpOp.gt and high <= c or op is CmpOp.eq and high < c:
            return False
    return None


def surely_runs(loop) -> bool:
    """A counted loop (sequential or ``pl.parallel``: the orchestration thread submits a
    parallel loop's iterations in order as well) whose constant bounds run its body at least once."""
    if loop._production != "For":
        return False
    start, stop, step = loop.start, loop.stop, loop.step
    if not all(e._production == "Int" for e in (start, stop, step)):
        return False
    return (start.value < stop.value) if step.value > 0 else (start.value > stop.value) if step.value < 0 else False


def yielded_name(body, k: int) -> str | None:
    """The name ``body``'s yield gives as its ``k``-th value, if it gives a name."""
    yld = last_yield(body)
    value = yld.values[k] if yld is not None and k < len(yld.values) else None
    return value.name if value is not None and value._production == "Var" else None
