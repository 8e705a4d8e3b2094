"""Where a function body reads each name: one walk of every expression (hoist_scope_escapes asks
when each name is last read: is it read after a scope?)."""

from __future__ import annotations

from typing import NamedTuple

from nanopass.languages import BATCHED
from nanopass.languages.statements import walk_of

from .util import BODY_FIELDS, TYPE_PRODUCTIONS

# Nodes that read no name (a type's extents are never printed as reads): the walk goes no
# further into them. A binder is a name and its type; a carry plan and a TaskId's source are
# terminals only.
READS_NOTHING = TYPE_PRODUCTIONS | {"Int", "Binder", "Carry", "TidSource", "NoTask"}
# Statements none of whose fields reads a name (a scope's body is walked on its own; a return emits nothing)
READ_NONE = frozenset({"Scope", "CellDecl", "Declare", "Return"})


class Reads(NamedTuple):
    """What ``read_walk`` found of the reads of the statements' own expressions (returns left
    out), by places in the body's walk (``walk_of(body).order``)."""

    last: dict[str, int]  # name -> the place of the last statement that reads it
    marked: dict[int, int]  # id of each statement the walk was asked to place -> its place


def read_walk(body, marks: frozenset | set = frozenset()) -> Reads:
    """Every statement of the body in program order, each read field entered (the usual
    statements' taken apart inline: a Var met as a child is read where it is met, an Int
    skipped, a Bin's operands looked at, any other expression pushed); the place of each
    statement whose id is in ``marks`` noted on the way."""
    marked: dict[int, int] = {}
    last: dict[str, int] = {}
    nodes: list = []  # the expressions of the statement met last, to walk
    push = nodes.append
    reading: dict[type, tuple] = {}  # statement class -> its fields that may read a name
    here = -1
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
            for it in stmt.iters:
                node = it.init
                if node._production == "Var":
                    last[node.name] = here
                else:
                    push(node)
            deps = ()
        elif production == "Let" or production == "CellSet":
            node = stmt.value
            kind = node._production
            if kind == "Var":
                last[node.name] = here
            elif kind not in READS_NOTHING:
                push(node)
            deps = ()
        else:
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
            else:
                nodes += node._children()
    return Reads(last, marked)


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
