"""derive_auto_scope_dependencies: directed -> directed (opt-in; the seed's AutoDeriveTaskDependencies)."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import ScopeMode
from nanopass.rewrite import Pass, register

from .dep_edges import EdgeWriter, needed_edges
from .hazards import find_hazards, hazard_kind, host_accessed_roots, untracked_roots
from .kernels import kernel_table

D = DIRECTED


@register
class DeriveAutoScopeDependencies(Pass):
    """Derive an explicit dependency for every hazard in AUTO regions (only when asked).

    Off unless ``analyze_auto_scopes_for_deps`` is set. The analysed regions are the whole
    function in the default ``auto_scope=True`` mode, else each hand-placed ``pl.scope()``;
    user manual scopes are never analysed (their ordering is the user's; their boundaries are
    ``order_write_after_read``'s). For every read-after-write, write-after-write and
    write-after-read pair ending in an analysed region (storage roots and regions as in
    ``hazards``), the later task gets the earlier one's TaskId (directly, through a cell, or
    through a join; edges the user wrote are not duplicated). When the function's region is
    fully covered and nothing needs the runtime's tracking — no element of a task-touched
    tensor is read or written by the host (``get/set_tensor_data`` waits only for published
    writers) — the body becomes a compiler-owned MANUAL scope, so the runtime tracks nothing;
    otherwise the region stays AUTO and the edges add to the runtime's tracking (fallback,
    noted). Afterwards every hazard of an analysed region is an explicit edge.
    """

    name = "derive_auto_scope_dependencies"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        if not self.ctx.option("analyze_auto_scopes_for_deps", False):
            return program
        func = program.orch
        kernels = kernel_table(program)
        hazards = find_hazards(func, kernels, untracked_roots(func))

        def analysed(site) -> bool:
            return site.scope is None and (func.auto_scope or site.auto_scope is not None)

        def keep(earlier, later) -> bool:
            return (
                not later.host  # (order_write_after_read's: a host fence is in place)
                and analysed(hazards.sites[later.site])
                and earlier.scope is None
                and hazard_kind(earlier, later) is not None
            )

        needed = needed_edges(hazards, keep)
        host = host_accessed_roots(func, kernels)
        touched = {a.root for pair in hazards.pairs for a in pair}
        manualize = func.auto_scope and bool(hazards.sites) and not (host & touched)
        if func.auto_scope and host & touched:
            self.ctx.note(
                "fallback",
                "the function stays an AUTO region: the host reads or writes elements of "
                + ", ".join(sorted(host & touched))
                + ", which only runtime tracking orders",
                func.span,
            )
        if not needed and not manualize:
            return program
        self.writer = EdgeWriter(func, hazards, needed, "auto", tracked=not manualize)
        for target, sources in sorted(needed.items()):
            t = hazards.sites[target].task
            for source in sorted(sources):
                s = hazards.sites[source].task
                self.ctx.note("derived-edge", f"{t.kernel} (line {_line(t)}) waits for {s.kernel} (line {_line(s)})", t.span)
        body = self.visit_all(func.body)
        body = tuple(self.writer.declarations()) + body
        if manualize:
            cells = tuple(s for s in body if s._production == "CellDecl")
            rest = tuple(s for s in body if s._production != "CellDecl")
            body = cells + (D.CompilerScope(ScopeMode.manual, rest, span=func.span),)
            self.ctx.note("manual-region", f"'{func.name}' runs as a compiler-owned MANUAL scope", func.span)
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        return self.writer.rewrite_task(task)


def _line(task) -> str:
    return str(task.span.line) if task.span is not None else "?"
