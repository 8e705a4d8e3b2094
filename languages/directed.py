"""directed: every task argument carries its call-site direction.

Replaces ``(Arg value no_dep)`` by ``(Arg value dir)`` with ``dir`` one of Input, Output, InOut,
OutputExisting, NoDep, Scalar (how the runtime will track the slot). Adds ``DerivedDep``: a
dependency edge the compiler derived (user edges stay ``DepVar``/``DepItem``).
"""

from nanopass.language import Production

from . import ssa
from .terms import arg_dir

LANGUAGE = ssa.LANGUAGE.extend(
    "directed",
    doc="call-site argument directions; compiler-derived dependency edges",
    add_terminals=[arg_dir],
    remove={"Arg": ["Arg"]},
    add={
        "Arg": [Production("Arg", "value:Expr", "dir:arg_dir")],
        "Dep": [Production("DerivedDep", "value:Expr", doc="an edge the compiler derived, not the user")],
    },
)
