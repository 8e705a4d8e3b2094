"""directed: every task argument carries its call-site direction; compiler edges can be added.

Replaces ``(Arg value no_dep hint)`` by ``(Arg value dir)`` with ``dir`` one of Input, Output, InOut,
OutputExisting, NoDep, Scalar (how the runtime will track the slot). Adds what passes that
derive dependencies need (``(DerivedDep value)``, an edge the compiler derived, is surface's):

- TaskId *cells*: ``(CellDecl cell)`` declares a TaskId holder initialised to invalid at the
  start of the function; ``(CellSet cell value)`` stores a task's TaskId in it after the task
  (or, a ``Var`` naming another cell, the TaskId that cell holds: a copy); ``(CellDep cell)``
  is a compiler edge on the latest TaskId stored (possibly none, so always guarded). A cell
  outlives every scope, so such an edge is always resolvable;
- ``(Dummy var deps purpose)``: surface's dummy with what the barrier joins, when a pass made it
  (``purpose``, the words its C++ comment says after ``Barrier <b>:``); none for the user's
  ``pl.system.task_dummy`` and a phase fence, a dependency-only dummy task;
- ``(CompilerScope mode body)``: a runtime scope the compiler placed;
- ``(HostFence tensor deps wait)``: a dummy task taking ``tensor`` as INOUT and waiting for
  ``deps`` (submitted only when one of them stands for a task): in an AUTO scope it becomes a
  TensorMap producer of the tensor, which a later host element access of it waits for
  (runtime-api.md section 11), so the access waits for ``deps`` too. With ``wait`` (a host
  access inside a manual scope after a task of the same scope instance, where nothing is
  published) it is instead a dummy task creating a one-element OUTPUT and waiting for ``deps``,
  followed by a host read of that element, which waits for its creator: the orchestration
  thread goes on, to the access of ``tensor``, only once ``deps`` have completed.

The grammar also has dep-annotated's resolved edge ``(DepEdge tid index source guarded user size)``
as an alternative of ``Dep``, so that the languages from directed to hoisted share the classes of
the statements with dependencies; no pass makes one before resolve_dep_edges, and scoped's
invariant ``check_no_dep_edge`` keeps it out of the programs of the languages before dep-annotated.
"""

from nanopass.language import Nonterminal, Production

from . import ssa
from .terms import dep_source

LANGUAGE = ssa.LANGUAGE.extend(
    "directed",
    doc="call-site argument directions; compiler-derived dependency edges",
    remove={"Arg": ["Arg"], "Stmt": ["Dummy"]},
    add_terminals=[dep_source],
    add_nonterminals=[
        Nonterminal(
            "DepEdge",
            Production("DepEdge", "tid:Expr", "index:Expr?", "source:dep_source", "guarded:boolean", "user:boolean", "size:integer"),
        ),
    ],
    add={
        "Arg": [Production("Arg", "value:Expr", "dir:arg_dir")],
        "Dep": [Production("CellDep", "cell:symbol", doc="a compiler edge on the TaskId a cell holds"), "DepEdge"],
        "Stmt": [
            Production(
                "Dummy",
                "var:Binder",
                "deps:Dep*",
                "purpose:text?",
                doc="a dummy task after deps; purpose: what the barrier a pass made joins, the words of its "
                "C++ comment after 'Barrier <b>: ' (none: the user's task_dummy or a phase fence, a "
                "'dependency-only dummy task')",
            ),
            Production("CellDecl", "cell:symbol", doc="PTO2TaskId cell = PTO2TaskId::invalid();"),
            Production("CellSet", "cell:symbol", "value:Expr", doc="cell = <TaskId>;"),
            Production("CompilerScope", "mode:scope_mode", "body:Stmt*", doc="a scope the compiler placed"),
            Production(
                "HostFence",
                "tensor:Expr",
                "deps:Dep*",
                "wait:boolean",
                doc="a dummy task with tensor as INOUT after deps: a producer the next host access waits for "
                "(wait: a dummy creating one element after deps, and a host read of it)",
            ),
        ],
    },
)
