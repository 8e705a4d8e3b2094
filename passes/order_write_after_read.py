"""order_write_after_read: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import ScopeMode
from nanopass.rewrite import Pass, register

from .dep_edges import EdgeWriter, needed_edges
from .hazards import find_hazards, hazard_kind, runtime_orders, storage_map, unordered_war_possible, untracked_roots
from .kernels import kernel_table
from .util import iter_stmts

D = DIRECTED


def in_one_instance(earlier, later) -> bool:
    """Both accesses run in one instance of one MANUAL scope (the user owns that ordering)."""
    return earlier.scope is not None and earlier.scope == later.scope and not earlier.closed


def crosses_manual_boundary(earlier, later) -> bool:
    """The pair straddles a MANUAL scope boundary (the scopes differ, or it is the same static
    scope in two of its instances): the runtime orders none of it."""
    return (earlier.scope is not None or later.scope is not None) and not in_one_instance(earlier, later)


def needs_edge(earlier, later) -> bool:
    if in_one_instance(earlier, later):
        return False
    if crosses_manual_boundary(earlier, later):
        return True
    return hazard_kind(earlier, later) == "WAR" and not runtime_orders(earlier, later)


@register
class OrderWriteAfterRead(Pass):
    """Add a dependency for every hazard the runtime will not order by itself.

    The runtime never records readers, so a task that writes a tensor does not wait for earlier
    readers of it (unless both are InOut): each such write-after-read pair on overlapping
    regions (same storage root; whole tensor, constant box, unknown = overlapping) gets the
    reader's TaskId as an explicit dependency of the writer, across loop iterations and
    branches too. At a MANUAL scope's boundaries the runtime tracks nothing: a task inside the
    scope touching a tensor last written (or, for a write, read) before it, and a task after the
    scope touching a tensor written inside it, get the other task's TaskId as well; so do two
    tasks of one static manual scope in two of its instances (a scope in a loop). Nothing is
    added for pairs the runtime orders, pairs inside one instance of a manual scope (the user's), NoDep slots
    and manual_dep tensors, or edges the user already wrote. Off with the option ``order_war=False``
    (``--no-war-ordering``).
    Afterwards every write-after-read and every manual-boundary hazard is ordered.
    """

    name = "order_write_after_read"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        if not self.ctx.option("order_war", True):
            return program
        func = program.orch
        manual = any(s._production == "Scope" and s.mode is ScopeMode.manual for s in iter_stmts(func.body))
        kernels, untracked = kernel_table(program), untracked_roots(func)
        store = storage_map(func, kernels)
        # without manual scopes only write-after-read pairs the runtime leaves unordered can need
        # an edge: writers need no tracking, and no pair at all needs one if no root can form one
        if not manual and not unordered_war_possible(func, store, untracked):
            return program
        hazards = find_hazards(func, kernels, untracked, track_writes=manual, keep=needs_edge, store=store)
        needed = needed_edges(hazards, needs_edge)
        if not needed:
            return program
        self.writer = EdgeWriter(func, hazards, needed, "war")
        for target, sources in sorted(needed.items()):
            t = hazards.sites[target]
            for source in sorted(sources):
                s = hazards.sites[source]
                self.ctx.note(
                    "added-edge",
                    f"task {t.task.kernel} (line {t.task.span.line if t.task.span else '?'}) now waits for "
                    f"{s.task.kernel} (line {s.task.span.line if s.task.span else '?'})",
                    t.task.span,
                )
        body = self.visit_all(func.body)
        body = tuple(self.writer.declarations()) + body
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        return self.writer.rewrite_task(task)
