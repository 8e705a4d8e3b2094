"""Values for ``nanopass check`` when ``--set`` does not pin them: chosen from the program.

``choose_values`` reads the program's ``surface`` tree and gives each scalar parameter and each
``pl.dynamic`` dimension a few values that exercise different paths:

- its *base* value (integers 3, floats 1.5, booleans true, dimensions 32), always;
- for every loop whose trip count depends on it alone (the other names at their base values),
  the smallest value giving 0, 1 and 2 trips and at least ``LARGE_TRIPS``;
- for every comparison with it, the values on both sides of each change of the comparison's
  result (the first two changes; floats: the constant compared with, and half a unit on each
  side); booleans both values.

Values are searched for, not solved: integers over 0..``SEARCH_LIMIT`` (dimensions from 1, as
an entry tensor's extent must be positive), by evaluating the expressions; a comparison's second
change is looked for within ``SECOND_CHANGE_WINDOW`` of its first. A parameter keeps at most
``MAX_VALUES`` values (base first, then in the order the program shows them); once it has them,
the program's other loops and comparisons are not searched for it (equal loop headers and
comparisons are searched once), so the search costs at most a few thousand evaluations per
distinct loop or comparison that can still add a value.

The number of runs is bounded: every combination of the parameters' values when there are at
most ``MAX_COMBINATIONS``; otherwise each value of each parameter once with every other parameter
at its base value (``1 + sum(len(values) - 1)`` runs), cut at ``MAX_RUNS``.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass
from typing import Any

from nanopass.language import Node, walk
from nanopass.languages.terms import DType

BASE_INT, BASE_FLOAT, BASE_DIM = 3, 1.5, 32
LARGE_TRIPS = 5
SEARCH_LIMIT = 4096
SECOND_CHANGE_WINDOW = 64  # how far past a comparison's first change its second is looked for
MAX_VALUES = 8
MAX_COMBINATIONS = 16
MAX_RUNS = 64


@dataclass(frozen=True)
class Choice:
    """The value sets of one ``check`` without (or with partial) ``--set``."""

    values: dict[str, list[Any]]  # name -> candidate values, base first
    runs: list[dict[str, Any]]  # name -> value, one per run
    exhaustive: bool  # every combination (else: one parameter varied at a time)
    cut: int = 0  # runs not made (over MAX_RUNS)

    def describe(self) -> str:
        if not self.values:
            return ""
        shown = "; ".join(f"{name} in {{{', '.join(_text(v) for v in vs)}}}" for name, vs in self.values.items())
        how = "every combination" if self.exhaustive else "each value with the others at their first value"
        cut = f", {self.cut} more not run" if self.cut else ""
        return f"values chosen from the program: {shown} ({len(self.runs)} run{'s' if len(self.runs) != 1 else ''}, {how}{cut})"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def as_set_text(values: dict[str, Any]) -> dict[str, str]:
    """A run's values as ``--set`` would give them."""
    return {name: _text(value) for name, value in values.items()}


def choose_values(surface_program, pinned: dict[str, str]) -> Choice:
    """Candidate values for every scalar parameter and dynamic dimension not in ``pinned``."""
    func = surface_program.orch
    kinds: dict[str, str] = {}  # name -> "int" | "float" | "bool" | "dim"
    for param in func.params:
        if param.type._production == "ScalarType" and param.name not in pinned:
            dtype = param.type.dtype
            kinds[param.name] = "bool" if dtype is DType.BOOL else "float" if dtype.is_float else "int"
    for dim in sorted(func.dyn_dims, key=lambda d: d.name):
        if dim.name not in pinned:
            kinds[dim.name] = "dim"
    base = {name: _base(kind) for name, kind in kinds.items()}
    found: dict[str, list[Any]] = {name: [value] for name, value in base.items()}
    for name, kind in kinds.items():
        if kind == "bool":
            found[name].append(False)
    seen: set[Node] = set()  # loop headers and comparisons already searched (equal ones give equal values)
    for node in walk(func.body):
        production = getattr(node, "_production", None)
        if production == "For":
            header = node.start, node.stop, node.step
            if header not in seen:
                seen.add(header)
                _loop_values(node, kinds, base, found)
        elif production == "While" and node not in seen:
            seen.add(node)
            _while_values(node, kinds, base, found)
        elif production == "Cmp" and node not in seen:
            seen.add(node)
            _comparison_values(node, kinds, base, found)
    values = {name: _dedupe(vs)[:MAX_VALUES] for name, vs in found.items()}
    return _runs(values)


def _base(kind: str) -> Any:
    return {"int": BASE_INT, "float": BASE_FLOAT, "bool": True, "dim": BASE_DIM}[kind]


def _full(values: list[Any]) -> bool:
    return len(_dedupe(values)) >= MAX_VALUES


def _dedupe(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if not any(type(value) is type(seen) and value == seen for seen in out):
            out.append(value)
    return out


def _runs(values: dict[str, list[Any]]) -> Choice:
    names = list(values)
    total = 1
    for vs in values.values():
        total *= len(vs)
    if total <= MAX_COMBINATIONS:
        runs = [dict(zip(names, combo)) for combo in itertools.product(*(values[n] for n in names))]
        return Choice(values, runs, True)
    base = {name: vs[0] for name, vs in values.items()}
    runs = [dict(base)]
    for name in names:
        for value in values[name][1:]:
            runs.append({**base, name: value})
    return Choice(values, runs[:MAX_RUNS], False, max(0, len(runs) - MAX_RUNS))


def _names(expr: Node) -> set[str]:
    return {n.name for n in walk(expr) if getattr(n, "_production", None) == "Var"}


def _domain(kind: str) -> range:
    return range(1 if kind == "dim" else 0, SEARCH_LIMIT + 1)


def _loop_values(loop: Node, kinds, base, found) -> None:
    used = (_names(loop.start) | _names(loop.stop) | _names(loop.step)) & set(kinds)
    if len(used) != 1:
        return
    (name,) = used
    if kinds[name] not in ("int", "dim") or _full(found[name]):
        return
    wanted = {0: None, 1: None, 2: None, LARGE_TRIPS: None}
    for value in _domain(kinds[name]):
        env = {**base, name: value}
        try:
            start, stop, step = (_eval(e, env) for e in (loop.start, loop.stop, loop.step))
            trips = len(range(int(start), int(stop), int(step)))
        except (ArithmeticError, ValueError, TypeError, KeyError):
            continue
        key = min(trips, LARGE_TRIPS) if trips >= LARGE_TRIPS else trips
        if key in wanted and wanted[key] is None:
            wanted[key] = value
        if all(v is not None for v in wanted.values()):
            break
    found[name].extend(v for v in wanted.values() if v is not None)


def _while_values(loop: Node, kinds, base, found) -> None:
    """Values of the one parameter a while loop's condition reads that make it run 0, 1, 2 and
    many times, when the scalar carries it reads are yielded as expressions of the carries and
    parameters (``i2 = pl.yield_(i + 1)``): the loop is run on them."""
    used = _names(loop.cond) & set(kinds)
    yld = loop.body[-1] if loop.body and loop.body[-1]._production == "Yield" else None
    if len(used) != 1 or yld is None:
        return
    (name,) = used
    if kinds[name] not in ("int", "dim") or _full(found[name]):
        return
    wanted = {0: None, 1: None, 2: None, LARGE_TRIPS: None}
    for value in _domain(kinds[name]):
        env = {**base, name: value}
        try:
            trips = _while_trips(loop, yld, env)
        except (ArithmeticError, ValueError, TypeError, KeyError):
            continue
        if trips in wanted and wanted[trips] is None:
            wanted[trips] = value
        if all(v is not None for v in wanted.values()):
            break
    found[name].extend(v for v in wanted.values() if v is not None)


def _while_trips(loop: Node, yld: Node, env: dict[str, Any]) -> int:
    """How many times ``loop`` runs (at most LARGE_TRIPS) on the scalar carries whose inits and
    yielded values ``env`` evaluates; KeyError when the condition reads another value."""
    carries: dict[str, Any] = {}
    for it, value in zip(loop.iters, yld.values):
        if it.var.type._production == "ScalarType":
            carries[it.var.name] = _eval(it.init, env)
    trips = 0
    while trips < LARGE_TRIPS and _eval(loop.cond, {**env, **carries}):
        now = {**env, **carries}
        carries = {it.var.name: _eval(value, now) for it, value in zip(loop.iters, yld.values) if it.var.name in carries}
        trips += 1
    return trips


def _comparison_values(cmp: Node, kinds, base, found) -> None:
    for name in sorted(_names(cmp) & set(kinds)):
        kind = kinds[name]
        if kind == "bool" or _full(found[name]):
            continue
        if kind == "float":
            found[name].extend(_float_sides(cmp, name))
            continue
        previous = None
        changes = 0
        last = SEARCH_LIMIT
        for value in _domain(kind):
            if value > last:
                break
            try:
                result = bool(_eval(cmp, {**base, name: value}))
            except (ArithmeticError, ValueError, TypeError, KeyError):
                previous = None
                continue
            if previous is not None and result != previous:
                found[name].extend([value - 1, value])
                changes += 1
                if changes == 2:
                    break
                last = value + SECOND_CHANGE_WINDOW
            previous = result


def _float_sides(cmp: Node, name: str) -> list[float]:
    """For ``x < c`` (``c`` a literal, either side): c - 0.5, c and c + 0.5."""
    a, b = cmp.a, cmp.b
    constant = next((e for e in (a, b) if e._production in ("Int", "Float")), None)
    other = b if constant is a else a
    if constant is None or other._production != "Var" or other.name != name:
        return []
    c = float(constant.value)
    return [c - 0.5, c, c + 0.5]


_BIN = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "mod": operator.mod,
    "shl": operator.lshift, "shr": operator.rshift,
}
_CMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}


def _eval(expr: Node, env: dict[str, Any]) -> Any:
    """A scalar expression's value (Python arithmetic, division truncating toward zero as in C)."""
    kind = expr._production
    if kind in ("Int", "Float", "Bool"):
        return expr.value
    if kind == "Var":
        return env[expr.name]
    if kind == "Un":
        value = _eval(expr.a, env)
        return {"neg": operator.neg, "not_": operator.not_, "invert": operator.invert}[expr.op.name](value)
    a, b = _eval(expr.a, env), _eval(expr.b, env)
    op = expr.op.name
    if kind == "Cmp":
        return _CMP[op](a, b)
    if op in ("div", "floordiv"):
        if isinstance(a, float) or isinstance(b, float):
            return a / b
        quotient = abs(a) // abs(b)
        return quotient if (a >= 0) == (b >= 0) else -quotient
    if op == "and_":
        return a and b
    if op == "or_":
        return a or b
    return _BIN[op](a, b)
