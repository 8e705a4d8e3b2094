"""drop_overwritten_cell_stores: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import BODY_FIELDS
from nanopass.rewrite import register

from .cells import declared_cells
from .lean import LeanPass
from .util import iter_stmts


@register
class DropOverwrittenCellStores(LeanPass):
    """Drop a cell store that a later store of the same cell in the same statement list
    overwrites before anything reads the cell.

    A ``CellSet c`` followed, in its list, by another ``CellSet c`` with no statement between
    that mentions ``c`` (a task's, dummy's or fence's ``CellDep c``, a copy of ``c``, a store of
    ``c`` in a nested body: any mention counts as a read) holds its value for no reader: the
    statements of a list run in order and none of them leaves it early. Such stores come from
    lean passes that clear a cell at the end of a loop body (``c = None``) just before another
    sets it (``c = tid``). The ``NoTask`` lets only dropped stores read go with
    ``remove_dead_values``. Off with the option ``lean_edges=False``. Afterwards every cell store
    may be read: no store is followed in its list by a store of the same cell with no mention of
    the cell between; every dependency inserted is the same.
    """

    name = "drop_overwritten_cell_stores"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        stored = [s.cell for s in iter_stmts(func.body) if s._production == "CellSet"]
        if len(set(stored)) == len(stored):  # no cell stored twice: no store for a later one to overwrite
            return program
        self.cells = declared_cells(iter_stmts(func.body))
        body = self.block(func.body)
        if body is func.body:
            return program
        return self.build(program, orch=self.build(func, body=body))

    def block(self, stmts):
        """``stmts`` without its overwritten stores, and so each nested list (the same object if
        nothing goes)."""
        out = []
        overwritten: set[str] = set()  # cells stored later in the list with no mention between
        changed = False
        for stmt in reversed(stmts):
            kind = stmt._production
            if kind == "CellSet":
                if stmt.cell in overwritten:
                    self.ctx.note("dropped-store", f"the store of cell {stmt.cell} is overwritten before any read: it goes",
                                  stmt.span)
                    changed = True
                    continue
                read = self.mentions(stmt.value)
                overwritten -= read
                if stmt.cell not in read:
                    overwritten.add(stmt.cell)
            else:
                fields = BODY_FIELDS.get(kind)
                if fields:
                    bodies = {field: self.block(getattr(stmt, field)) for field in fields}
                    if any(bodies[f] is not getattr(stmt, f) for f in fields):
                        stmt = stmt.replace(**bodies)
                        changed = True
                if overwritten:  # (a mention matters only to a store met later in the list)
                    overwritten -= self.mentions(stmt)
            out.append(stmt)
        if not changed:
            return stmts
        return type(stmts)(reversed(out))

    def mentions(self, node) -> set[str]:
        """The cells ``node``'s subtree names (read, stored or declared)."""
        found: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            kind = n._production
            if kind == "Var":
                if n.name in self.cells:
                    found.add(n.name)
                continue
            if kind in ("CellDep", "CellSet", "CellDecl"):
                found.add(n.cell)
            for name, many in n._child_fields:
                value = getattr(n, name)
                if many:
                    stack.extend(value)
                elif value is not None:
                    stack.append(value)
        return found
