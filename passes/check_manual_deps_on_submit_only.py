"""check_manual_deps_on_submit_only: directed -> directed (a check)."""

from __future__ import annotations

from nanopass.errors import InternalError
from nanopass.languages import DIRECTED
from nanopass.rewrite import Pass, register

from .util import iter_stmts


@register
class CheckManualDepsOnSubmitOnly(Pass):
    """Check that user-written dependency edges live only on submits and dummy barriers.

    A ``Task`` without a TaskId (a plain ``self.k(...)`` call) may carry only edges the compiler
    derived (``DerivedDep``); a user edge (``DepVar``/``DepItem``) needs ``pl.submit``, which
    names the task's TaskId. ``Dummy`` barriers carry their own user edge lists. The program is
    returned unchanged.
    """

    name = "check_manual_deps_on_submit_only"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        for stmt in iter_stmts(program.orch.body):
            if stmt._production == "Task" and stmt.tid is None and stmt.deps:  # (most tasks have no edge)
                for dep in stmt.deps:  # (a plain loop: a comprehension costs a call per task)
                    if dep._production in _USER_EDGES:
                        raise InternalError(
                            "a plain kernel call carries user-written dependency edges (only pl.submit may)",
                            pass_name=self.name,
                            node=stmt,
                        )
        return program


_USER_EDGES = frozenset({"DepVar", "DepItem"})  # the edges a user writes (``DerivedDep``: the compiler's)
