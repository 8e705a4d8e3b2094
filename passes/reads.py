"""Where a function body reads each name: one walk of every expression, made once and handed on.

hoist_scope_escapes asks when each name is last read (is it read after a scope?) and
lower_to_emission which names are read at all (is a value, a TaskId, an output used?). Both ask
``body_reads(body)`` of the same body (the statements from batched to encoded are the same
nodes: hoisted, named, dimmed and encoded share batched's statement classes and keep the body),
so inside ``reusing_walks()`` the second asker gets the first one's walk (``kept``).
"""

from __future__ import annotations

from typing import NamedTuple

from nanopass.languages import BATCHED
from nanopass.languages.statements import kept, walk_of

from .util import BODY_FIELDS, TYPE_PRODUCTIONS, note_unrebound_yields

# Nodes that read no name (a type's extents are never printed as reads): the walk goes no
# further into them. A binder is a name and its type; a carry plan and a TaskId's source are
# terminals only.
READS_NOTHING = TYPE_PRODUCTIONS | {"Int", "Binder", "Carry", "TidSource", "NoTask"}
VIEWS = frozenset({"SliceTensor", "TransposeTensor", "ReshapeTensor"})  # (a let of one reads its tensor as a whole value)
# Statements none of whose fields reads a name (a scope's body is walked on its own; a return emits nothing)
READ_NONE = frozenset({"Scope", "CellDecl", "Declare", "Return"})


class Reads(NamedTuple):
    """What ``body_reads`` found of the reads of the statements' own expressions (returns left
    out), by places in the body's walk (``walk_of(body).order``). A name read as a whole value
    (a let's value, a carry's init: a read that lower_to_emission may not count, when it copies
    nothing), or as the tensor of a view's let (emitted only where the view is read), is read
    there: ``whole``, name -> the places of each such read, in order. A Yield's
    value where the carry (if result) is not rebound, which the Yield assigns nothing
    (``note_unrebound_yields``): ``unassigned``, name -> the place of the last such read. Any
    other read: ``last``, name -> the place of the last statement that reads it so."""

    last: dict[str, int]
    whole: dict[str, list[int]]
    marked: dict[int, int]  # id of each statement the walk was asked to place -> its place
    unassigned: dict[str, int]

    def last_read(self) -> dict[str, int]:
        """name -> the place of the last statement that reads it, in any way."""
        last = dict(self.last)
        for name, places in self.whole.items():
            if last.get(name, -1) < places[-1]:
                last[name] = places[-1]
        for name, place in self.unassigned.items():
            if last.get(name, -1) < place:
                last[name] = place
        return last


def body_reads(body, marks: frozenset | set = frozenset()) -> Reads:
    """``Reads`` of ``body`` (``read_walk``), kept for the next asker of the same body (the
    places of the statements ``marks`` names are those of the first asker's marks)."""
    return kept(body_reads, (body,), lambda: read_walk(body, marks))


def read_walk(body, marks: frozenset | set = frozenset()) -> Reads:
    """The walk ``body_reads`` makes: every statement of the body in program order, each read
    field entered (the usual statements' taken apart inline: a Var met as a child is read where
    it is met, an Int skipped, a Bin's operands looked at, any other expression pushed); the
    place of each statement whose id is in ``marks`` noted on the way."""
    marked: dict[int, int] = {}
    last: dict[str, int] = {}
    whole: dict[str, list[int]] = {}
    places = whole.setdefault
    nodes: list = []  # the expressions of the statement met last, to walk
    push = nodes.append
    reading: dict[type, tuple] = {}  # statement class -> its fields that may read a name
    here = -1
    unrebound: dict[int, tuple] = {}  # id of a Yield -> the positions it assigns nothing (``note_unrebound_yields``)
    unassigned: dict[str, int] = {}
    for stmt in walk_of(body).order:
        here += 1
        if id(stmt) in marks:
            marked[id(stmt)] = here
        production = stmt._production
        if production in READ_NONE:
            continue
        if production == "Task":
            for arg in stmt.args:
                node = arg.value
                kind = node._production
                if kind == "Var":
                    last[node.name] = here
                elif kind == "Bin":
                    nodes += (node.a, node.b)
                elif kind != "Int":
                    push(node)
            if stmt.launch is not None:
                push(stmt.launch)
            deps = stmt.deps
        elif production == "Dummy":
            deps = stmt.deps
        elif production == "Yield":
            skipped = unrebound.get(id(stmt)) if unrebound else None
            if skipped:
                for i, node in enumerate(stmt.values):
                    if node._production != "Var":
                        push(node)
                    elif i in skipped:  # (a carry not rebound: assigned nothing)
                        unassigned[node.name] = here
                    else:
                        last[node.name] = here
            else:
                for node in stmt.values:
                    if node._production == "Var":
                        last[node.name] = here
                    else:
                        push(node)
            deps = ()
        elif production == "For":
            for node in (stmt.start, stmt.stop, stmt.step):
                if node._production != "Int":
                    push(node)
            rebound = True
            for it in stmt.iters:
                node = it.init
                if node._production == "Var":
                    places(node.name, []).append(here)
                else:
                    push(node)
                if not it.plan.rebind:
                    rebound = False
            if not rebound:
                note_unrebound_yields(stmt, unrebound)
            deps = ()
        elif production == "Let":
            node = stmt.value
            kind = node._production
            if kind == "Var":
                places(node.name, []).append(here)
            elif kind in VIEWS and node.tensor._production == "Var":  # (its tensor a whole value: read where the view is)
                places(node.tensor.name, []).append(here)
                nodes += [child for child in node._children() if child is not node.tensor]
            elif kind not in READS_NOTHING:
                push(node)
            deps = ()
        elif production == "CellSet":
            node = stmt.value
            kind = node._production
            if kind == "Var":
                last[node.name] = here
            elif kind not in READS_NOTHING:
                push(node)
            deps = ()
        else:
            if production == "If" or production == "While":
                for carry in stmt.results if production == "If" else stmt.iters:
                    if not carry.plan.rebind:
                        note_unrebound_yields(stmt, unrebound)
                        break
            read_fields = reading.get(type(stmt))
            if read_fields is None:
                read_fields = reading[type(stmt)] = reading_fields(type(stmt), BODY_FIELDS.get(production, ()))
            for name, many in read_fields:
                value = getattr(stmt, name)
                if many:
                    nodes += value
                elif value is not None:
                    push(value)
            deps = ()
        for edge in deps:  # (DepEdge: its TaskId and its slot)
            node = edge.tid
            if node._production == "Var":
                last[node.name] = here
            else:
                push(node)
            if edge.index is not None:
                push(edge.index)
        while nodes:
            node = nodes.pop()
            kind = node._production
            if kind == "Var":
                last[node.name] = here
            elif kind in READS_NOTHING:
                continue
            elif kind == "Arg":  # (the usual ones, with one child that may read a name: inlined)
                push(node.value)
            elif kind == "DepEdge":
                push(node.tid)
                if node.index is not None:
                    push(node.index)
            elif kind == "IterArg":  # (a While's: its init a whole value)
                init = node.init
                if init._production == "Var":
                    places(init.name, []).append(here)
                else:
                    push(init)
            else:
                nodes += node._children()
    return Reads(last, whole, marked, unassigned)


def reading_fields(cls: type, bodies: tuple) -> tuple:
    """The child fields of statement class ``cls`` (of batched, whose statement classes the languages
    after it share) other than its ``bodies`` whose nodes may read a name: not those whose every
    production reads nothing (``READS_NOTHING``: a result's Binder, a carry's plan)."""
    kinds = {spec.name: spec.kind for spec in cls._field_specs}
    return tuple(
        (name, many)
        for name, many in cls._child_fields
        if name not in bodies and not all(c._production in READS_NOTHING for c in BATCHED.classes(kinds[name]))
    )
