"""Small queries over statement trees shared by several passes (no pass logic here)."""

from __future__ import annotations

from typing import Any, NamedTuple

from nanopass.languages.statements import BODY_FIELDS, LOOPS, defined_binders, iter_stmts  # noqa: F401 - re-exported
from nanopass.languages.terms import BinOp, ScopeOrigin


def binders_of(stmt) -> list[Any]:
    """The Binders a statement defines at its own level: a loop's results, but not its variable
    or iter_args, which are bound inside it."""
    if stmt._production in LOOPS:
        return list(stmt.results)
    return defined_binders(stmt)


def assigned_names(stmts) -> set[str]:
    """Names bound anywhere in ``stmts`` (nested bodies included), loop variables excluded."""
    names: set[str] = set()
    for stmt in iter_stmts(stmts):
        for binder in binders_of(stmt):
            names.add(binder.name)
    return names


def assigned_names_by_body(stmts) -> dict[int, set[str]]:
    """``id(body) -> assigned_names(body)`` for ``stmts`` and every body nested in it, in one
    bottom-up walk (a body's names are its statements' own binders and its nested bodies' names).

    For a caller that needs the names of every nested body: calling ``assigned_names`` on each
    would walk a statement again for every body enclosing it. Keys are ids of the body tuples
    of the (immutable) tree, valid while the caller holds it; do not mutate the sets.
    """
    out: dict[int, set[str]] = {}

    def names_of(body) -> set[str]:
        names: set[str] = set()
        for stmt in body:
            for binder in binders_of(stmt):
                names.add(binder.name)
            for field in BODY_FIELDS.get(stmt._production, ()):
                names |= names_of(getattr(stmt, field))
        out[id(body)] = names
        return names

    names_of(stmts)
    return out


def static_trip_count(loop) -> int | None:
    """How many times ``loop`` runs, when its bounds and a positive step are constants (never for a
    ``While``: its trip count is known only at run time)."""
    if loop._production != "For":
        return None
    start, stop, step = loop.start, loop.stop, loop.step  # (tested in line: a generator costs a call per loop)
    if start._production == "Int" and stop._production == "Int" and step._production == "Int" and step.value > 0:
        return max(0, (stop.value - start.value + step.value - 1) // step.value)
    return None


_COMPILER = ScopeOrigin.compiler  # (read once: an enum member read through its class costs a descriptor call)


def unscoped(body):
    """A body seen through the compiler's scopes: a body that is one compiler Scope is its contents."""
    while len(body) == 1 and body[0]._production == "Scope" and getattr(body[0], "origin", None) is _COMPILER:
        body = body[0].body
    return body


def last_yield(body):
    while len(body) == 1 and body[0]._production == "Scope" and getattr(body[0], "origin", None) is _COMPILER:
        body = body[0].body  # (``unscoped``, inlined: a call per body asked)
    if body and body[-1]._production == "Yield":
        return body[-1]
    return None


def unrebound_positions(stmt) -> tuple:
    """The positions of the carries (if results) of a loop or if ``stmt`` (carried language on)
    that are not rebound: such a carry is its init's variable (such an if's result, the value
    both branches yield), which the Yields ending its bodies assign nothing."""
    at = ()
    i = 0
    for carry in stmt.results if stmt._production == "If" else stmt.iters:
        if not carry.plan.rebind:
            at += (i,)
        i += 1
    return at


def note_unrebound_yields(stmt, into: dict[int, tuple], at: tuple | None = None) -> None:
    """``at`` (``unrebound_positions`` of the loop or if ``stmt``, found when None; not empty) in
    ``into`` under the id of each Yield that ends one of its bodies."""
    if at is None:
        at = unrebound_positions(stmt)
    for body in (stmt.then, stmt.orelse) if stmt._production == "If" else (stmt.body,):
        while len(body) == 1 and body[0]._production == "Scope" and getattr(body[0], "origin", None) is _COMPILER:
            body = body[0].body  # (``last_yield``, inlined)
        if body and body[-1]._production == "Yield":
            into[id(body[-1])] = at


def carry_arrays(func) -> dict[str, int]:
    """Loop results and if results that hold a TaskId array (carried language on): name -> N."""
    out: dict[str, int] = {}
    for stmt in iter_stmts(func.body):
        if stmt._production in LOOPS:
            for it, result in zip(stmt.iters, stmt.results):
                if it.plan.array > 0:
                    out[result.name] = it.plan.array
        elif stmt._production == "If":
            for phi in stmt.results:
                if phi.plan.array > 0:
                    out[phi.var.name] = phi.plan.array
    return out


def scalar_names(exprs) -> set[str]:
    """The names the scalar expressions ``exprs`` read (through Bin, Cmp and Un; Nones skipped)."""
    names: set[str] = set()
    stack = [e for e in exprs if e is not None]
    while stack:
        e = stack.pop()
        if e._production == "Var":
            names.add(e.name)
        elif e._production in ("Bin", "Cmp"):
            stack += [e.a, e.b]
        elif e._production == "Un":
            stack.append(e.a)
    return names


TYPE_PRODUCTIONS = frozenset({"TensorType", "ScalarType", "ArrayType", "TileType"})


def var_reads(nodes) -> dict[str, int]:
    """How often each name is read by ``nodes`` (types excluded: they are never printed)."""
    counts: dict[str, int] = {}
    stack = list(nodes) if isinstance(nodes, (list, tuple)) else [nodes]
    pop, extend = stack.pop, stack.extend
    push = stack.append
    while stack:
        node = pop()
        production = node._production
        if production == "Var":
            counts[node.name] = counts.get(node.name, 0) + 1
        elif production == "Arg":
            push(node.value)  # (the usual nodes, with one child: their _children() inlined)
        elif production == "Bin":
            push(node.a)
            push(node.b)
        elif production == "Int":
            continue
        elif production not in TYPE_PRODUCTIONS:
            extend(node._children())  # language.children_of, without the extra call
    return counts


class FreshVersions:
    """Fresh IR names of the form ``base__role_vK`` that no name in ``taken`` (nor an earlier
    ``fresh``) has. The search for a base resumes where the last one stopped: names are only
    ever added, so the versions below it stay taken (linear in the names made)."""

    def __init__(self, taken):
        self.taken: set[str] = set(taken)
        self.next_version: dict[str, int] = {}  # base__role -> the first version not yet probed

    def fresh(self, base: str, role: str) -> str:
        stem = f"{base}__{role}"
        k = self.next_version.get(stem, 0)
        name = f"{stem}_v{k}"
        while name in self.taken:
            k += 1
            name = f"{stem}_v{k}"
        self.taken.add(name)
        self.next_version[stem] = k + 1
        return name


class Place(NamedTuple):
    """Where a statement sits: ``loops``, the ids of the loop statements around it; ``block``, the
    id of the statement list it runs in whenever its innermost loop's body (or the function's) runs
    that far (an if branch starts a block, a scope does not); ``next``, the statement after it in
    its list, or None."""

    stmt: Any
    loops: frozenset
    block: int
    next: Any


def places(body, kinds) -> dict[int, Place]:
    """id(statement) -> its ``Place``, for the statements of ``body`` (at any depth, through
    loops, branches and scopes) whose production is in ``kinds``."""
    out: dict[int, Place] = {}

    def walk(stmts, loops, block):
        for i, stmt in enumerate(stmts):
            kind = stmt._production
            if kind in kinds:
                out[id(stmt)] = Place(stmt, loops, block, stmts[i + 1] if i + 1 < len(stmts) else None)
            if kind in LOOPS:
                walk(stmt.body, loops | {id(stmt)}, id(stmt.body))
            elif kind == "If":
                walk(stmt.then, loops, id(stmt.then))
                walk(stmt.orelse, loops, id(stmt.orelse))
            elif kind in ("Scope", "CompilerScope"):
                walk(stmt.body, loops, block)

    walk(tuple(body), frozenset(), id(body))
    return out


_SCALARS = frozenset({"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un"})


def pure_scalar(expr) -> bool:
    """A scalar expression that computes the same value wherever it runs, and cannot fail."""
    if expr._production not in _SCALARS:
        return False
    if expr._production == "Bin" and expr.op in (BinOp.div, BinOp.floordiv, BinOp.mod):
        if expr.b._production != "Int" or expr.b.value == 0:
            return False
    return all(pure_scalar(child) for child in _children(expr))


def _children(expr) -> list:
    out = []
    for name, many in expr._child_fields:
        value = getattr(expr, name)
        out += list(value) if many else [] if value is None else [value]
    return out


def renamed(expr, names: dict[str, str]):
    """``expr`` (an expression or a statement) reading ``names[n]`` for each name ``n`` of
    ``names`` it reads; a subtree that reads none of them is returned as it is (binders, types
    and numbers are not entered: ``names`` holds no dimension). A node is rebuilt unchecked
    (``make_trusted``): its new fields are a name of ``names`` for a Var's, else nodes of the
    same productions as the fields' (a renamed node is of its input's production). Only the
    fields that may read a name are looked at (``_reading_fields``); a name, and an argument
    or dependency whose value is a name that stays, without a call."""
    if expr._production == "Var":
        new = names.get(expr.name)
        return expr if new is None else type(expr).make_trusted(new, span=expr.span)
    changes = None
    fields = _READING.get(type(expr))
    if fields is None:
        fields = _reading_fields(type(expr))
    for name, many in fields:
        value = getattr(expr, name)
        if many:
            out = None  # (a list only once an element changes)
            i = 0
            for v in value:
                kind = v._production
                if kind == "Var":  # (a name read: no call)
                    to = names.get(v.name)
                    new = v if to is None else type(v).make_trusted(to, span=v.span)
                elif kind in _NAMELESS or (kind in _WRAPPERS and v.value._production == "Var" and v.value.name not in names):
                    new = v
                else:
                    new = renamed(v, names)
                if new is not v:
                    if out is None:
                        out = list(value)
                    out[i] = new
                i += 1
            if out is not None:
                changes = changes or {}
                changes[name] = tuple(out)
        elif value is not None:
            kind = value._production
            if kind in _NAMELESS:
                continue
            if kind == "Var":  # (a name read: no call)
                to = names.get(value.name)
                new = value if to is None else type(value).make_trusted(to, span=value.span)
            else:
                new = renamed(value, names)
            if new is not value:
                changes = changes or {}
                changes[name] = new
    if changes is None:
        return expr
    values = []
    for name in expr._fields:
        values.append(changes[name] if name in changes else getattr(expr, name))
    return type(expr).make_trusted(*values, span=expr.span)


def has_let(body, value) -> bool:
    """Whether a ``Let`` under ``body`` has a value ``value(expr)`` accepts: one scan of the kept
    statement walk (``iter_stmts``), for the shortcuts that tell a pass it has nothing to look for."""
    for stmt in iter_stmts(body):
        if stmt._production == "Let" and value(stmt.value):
            return True
    return False


_NAMELESS = TYPE_PRODUCTIONS | {"Binder", "Int", "Float", "Bool", "CellDep", "NoTask"}  # (nodes that read no name: ``renamed`` does not enter them)


# (``renamed``'s facts: the kinds of field that read no name, the wrappers of one value it looks
# into in place, and per node class the fields it looks at, found once)
_NAMELESS_KINDS = frozenset({"Binder", "Type"})  # (every production of these is in _NAMELESS: tests/test_renamed_fields.py)
_WRAPPERS = frozenset({"Arg", "DepVar", "DerivedDep"})  # (a ``value`` field and no other that reads a name)
_READING: dict[type, tuple[tuple[str, bool], ...]] = {}


def _reading_fields(cls) -> tuple[tuple[str, bool], ...]:
    """The child fields of node class ``cls`` that may read a name (``_child_fields`` but those
    of a nameless kind), kept in ``_READING``."""
    kinds = {spec.name: spec.kind for spec in cls._field_specs}
    fields = tuple((name, many) for name, many in cls._child_fields if kinds[name] not in _NAMELESS_KINDS)
    _READING[cls] = fields
    return fields


def last_of_subtree(stmt):
    """The last statement of ``stmt``'s subtree in program order (``stmt`` when its bodies are empty)."""
    fields_of = BODY_FIELDS.get
    while True:
        fields = fields_of(stmt._production)
        if fields is None:
            return stmt
        body = getattr(stmt, fields[-1])  # (the last body that has a statement)
        if not body and len(fields) > 1:
            body = getattr(stmt, fields[0])
        if not body:
            return stmt
        stmt = body[-1]


def loop_counters(body):
    """(name, (binder, id(loop))) of the loop variables and scalar loop carries under ``body``."""
    for stmt in iter_stmts(body):
        if stmt._production == "For":
            yield stmt.var.name, (stmt.var, id(stmt))
        if stmt._production in ("For", "While"):
            yield from ((it.var.name, (it.var, id(stmt))) for it in stmt.iters
                        if it.var.type._production == "ScalarType")
