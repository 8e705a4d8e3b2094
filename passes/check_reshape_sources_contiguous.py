"""check_reshape_sources_contiguous: ssa -> ssa (a check)."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import SSA
from nanopass.languages.terms import LoopKind
from nanopass.rewrite import Pass, register

from .kernels import kernel_table, output_param_of_result
from .naming import base_name
from .util import BODY_FIELDS, iter_stmts, last_yield, static_trip_count

# Values that are their operand's memory under another handle: the runtime copies the operand's
# first cache line (``is_contiguous`` with it) into theirs (runtime-api.md section 4).
_SAME_FLAG = {"SliceTensor": "tensor", "ReshapeTensor": "tensor", "AssembleTensor": "target", "Var": None}


@register
class CheckReshapeSourcesContiguous(Pass):
    """Refuse a ``pl.tensor.reshape`` (or ``pl.tensor.view``) of a tensor that may be a transposed
    view: the runtime's ``Tensor::reshape`` requires ``is_contiguous`` (an ``always_assert``,
    runtime-api.md section 4), which ``transpose`` clears and every other view op copies from
    its operand (``view``/``slice``), so a slice of a transposed view is not contiguous either.
    A transpose of a transposed view is taken as not contiguous too, as the stand-in runtime
    header (``tools/pto_orchestration_api.h``) computes it. A slice of a contiguous tensor keeps the
    flag, so its reshape is accepted (the runtime restrides it row-major from the slice's
    origin, as the trace model does).

    "May be" follows values through copies, views, a kernel's results (the argument each
    aliases), ``pl.assemble``'s result, ``if`` results (either branch) and loop carries, in
    program order. A sequential ``pl.range`` of constant bounds is followed iteration by
    iteration (until the carries' flags repeat), so its results hold what its last iteration
    yields: a carry that swaps a transposed view with a buffer holds the buffer after an even
    number of trips. Any other loop (a bound known at run time, ``pl.parallel``, a while loop,
    a constant loop whose carries take more than ``_EXACT_TRIPS`` states) may run any number of
    times: its carries and results may be what the init or any yield may be (a fixpoint). The
    error is located at the reshape and names the transpose. The program is returned unchanged;
    afterwards no reshape's source may be a transposed view.
    """

    name = "check_reshape_sources_contiguous"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        stmts = list(iter_stmts(func.body))
        if not any(s._production == "Let" and s.value._production == "TransposeTensor" for s in stmts):
            return program
        refused = _Flags(kernel_table(program)).refused(func.body)
        for stmt in stmts:
            origin = refused.get(id(stmt))
            if origin is not None:
                source, view = base_name(stmt.value.tensor.name), base_name(origin.var.name)
                where = f"line {origin.span.line}" if origin.span is not None else "in the program"
                what = (
                    f"'{source}', a transposed view ({where})"
                    if source == view
                    else f"'{source}', which may be a view of the transposed '{view}' ({where})"
                )
                raise UserError(
                    f"cannot reshape {what}: the runtime's reshape requires a contiguous tensor and asserts, and "
                    "a transposed view, or any view of one, is not contiguous",
                    stmt.value.span or stmt.span,
                    hint="reshape before transposing, or give the transposed view to a kernel as it is",
                )
        return program


_EXACT_TRIPS = 64  # the walks of a constant loop's body at the most before it is taken as any loop


class _Flags:
    """Which names may hold a transposed view where they are defined: ``flags`` maps such a name to
    the Let of a transpose it may be a view of (a name not in it is contiguous), for the
    iteration being walked; ``bad`` maps the id of each reshape whose source may be one, in some
    walk, to that transpose."""

    def __init__(self, kernels):
        self.kernels = kernels
        self.flags: dict[str, object] = {}
        self.bad: dict[int, object] = {}

    def refused(self, body) -> dict[int, object]:
        self.block(body)
        return self.bad

    def of(self, expr):
        return self.flags.get(expr.name) if expr is not None and expr._production == "Var" else None

    def set(self, name: str, origin) -> None:
        if origin is None:
            self.flags.pop(name, None)
        else:
            self.flags[name] = origin

    def block(self, body) -> None:
        for stmt in body:
            kind = stmt._production
            if kind == "Let":
                value = stmt.value
                if value._production == "TransposeTensor":
                    self.set(stmt.var.name, self.of(value.tensor) or stmt)
                elif value._production in _SAME_FLAG:
                    field = _SAME_FLAG[value._production]
                    origin = self.of(getattr(value, field) if field else value)
                    if value._production == "ReshapeTensor" and origin is not None:
                        self.bad.setdefault(id(stmt), origin)
                    self.set(stmt.var.name, origin)
            elif kind == "Task":
                kernel = self.kernels[stmt.kernel]
                for i, out in enumerate(stmt.outs):
                    p = output_param_of_result(kernel, i)
                    self.set(out.name, self.of(stmt.args[p].value) if p is not None and p < len(stmt.args) else None)
            elif kind == "For" or kind == "While":
                self.loop(stmt)
            elif kind == "If":
                self.block(stmt.then)
                self.block(stmt.orelse)
                yields = [y for y in (last_yield(stmt.then), last_yield(stmt.orelse)) if y is not None]
                for k, res in enumerate(stmt.results):
                    origin = next((self.of(y.values[k]) for y in yields if self.of(y.values[k]) is not None), None)
                    self.set(getattr(res, "var", res).name, origin)
            else:
                for field in BODY_FIELDS.get(kind, ()):
                    self.block(getattr(stmt, field))

    def loop(self, stmt) -> None:
        yld = last_yield(stmt.body)
        state = tuple(self.of(it.init) for it in stmt.iters)
        trips = static_trip_count(stmt) if stmt._production == "For" and stmt.kind is LoopKind.seq else None
        if trips is not None:
            final = self.trips(stmt, yld, state, trips)
            if final is not None:
                for result, origin in zip(stmt.results, final):
                    self.set(result.name, origin)
                return
        while True:  # any number of trips: the flags only grow, a walk that adds none is the fixpoint
            for it, origin in zip(stmt.iters, state):
                self.set(it.var.name, origin)
            self.block(stmt.body)
            grown = tuple(o or (self.of(yld.values[k]) if yld is not None else None) for k, o in enumerate(state))
            if [o is None for o in grown] == [o is None for o in state]:
                break
            state = grown
        for result, origin in zip(stmt.results, state):
            self.set(result.name, origin)

    def trips(self, stmt, yld, state: tuple, trips: int) -> tuple | None:
        """The carries' flags after ``trips`` trips from ``state``, each trip's body walked (a
        state walked before is not walked again: the trips after it repeat the cycle);
        ``None`` when the carries take more than ``_EXACT_TRIPS`` states first."""
        seen: dict[tuple, int] = {}
        states: list[tuple] = []
        while len(states) < trips:
            key = tuple(id(o) if o is not None else None for o in state)
            if key in seen:  # the trips from seen[key] on repeat with period len(states) - seen[key]
                first = seen[key]
                return states[first + (trips - first) % (len(states) - first)]
            if len(states) >= _EXACT_TRIPS:
                return None
            seen[key] = len(states)
            states.append(state)
            for it, origin in zip(stmt.iters, state):
                self.set(it.var.name, origin)
            self.block(stmt.body)
            state = tuple(self.of(v) for v in yld.values) if yld is not None else state
        return state
