"""The passes that drop or merge the dependency insertions the runtime or other edges make needless (issue 24)."""

from __future__ import annotations

from nanopass.rewrite import Pass


class LeanPass(Pass):
    """A pass that drops or merges dependency insertions: with the option ``lean_edges=False``
    it returns its input, else what ``lean`` makes of it."""

    def run(self, program):
        if not self.ctx.option("lean_edges", True):
            return program
        return self.lean(program)

    def lean(self, program):
        raise NotImplementedError


def compiler_edge(dep) -> bool:
    """Whether a dependency is a compiler edge on a TaskId binder or a cell (not a user's ``deps=``
    entry, which is a ``DepVar``)."""
    return dep._production == "CellDep" or (dep._production == "DerivedDep" and dep.value._production == "Var")
