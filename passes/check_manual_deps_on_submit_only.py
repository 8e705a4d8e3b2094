"""check_manual_deps_on_submit_only: directed -> directed (a check)."""

from __future__ import annotations

from nanopass.errors import InternalError
from nanopass.languages import DIRECTED
from nanopass.rewrite import Pass, register

from .edge_census import body_has
from .util import iter_stmts


@register
class CheckManualDepsOnSubmitOnly(Pass):
    """Check that user-written dependency edges live only on submits and dummy barriers.

    A ``Task`` without a TaskId (a plain ``self.k(...)`` call) may carry only edges the compiler
    derived (``DerivedDep``); a user edge (``DepVar``/``DepItem``) needs ``pl.submit``, which
    names the task's TaskId. ``Dummy`` barriers carry their own user edge lists. The program is
    returned unchanged. The body's census (``edge_census.body_has``: one walk, shared with the
    passes after this one that receive the same body) tells first whether such a task exists at all: where it
    does not, nothing is looked for.
    """

    name = "check_manual_deps_on_submit_only"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        if not body_has(program.orch.body, "user_edge_on_plain_task"):
            return program  # (the census looked at every task's edges: none is the error's)
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
