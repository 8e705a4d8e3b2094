"""named: every variable is named as the C++ will name it.

Variables now carry C++ identifiers: ``ext_<p>`` for tensor parameters, one shared name for all
SSA versions that are the same physical tensor (a kernel's output *is* the Out/InOut argument it
writes, an assemble's result *is* its target, a carry that is not rebound *is* its init), and
unique names elsewhere. So a name may be bound more than once, and single definition no longer
holds. ``Task`` outputs become ``TaskOut``: ``(Alias var)`` (the output is an argument, no code)
or ``(Allocated var index)`` (a runtime-allocated output, ``task_<n>_outs.get_ref(index)``).
``AssembleTensor`` is gone (its result is its target). ``WriteTensor`` gains ``indices``: the name
of its index array, ``indices_<the tensor's DSL name>`` (a parameter's, not its ``ext_`` name).
``Function`` loses ``buffer_groups``: the variables of one storage now share its name.
"""

from nanopass.language import Nonterminal, Production

from . import carried, hoisted, ssa

LANGUAGE = hoisted.LANGUAGE.extend(
    "named",
    doc="C++ identifiers; physical aliases share one name",
    remove={"Rhs": ["AssembleTensor"], "Stmt": ["Task", "WriteTensor"], "Function": ["Function"]},
    remove_nonterminals=["BufferGroup"],
    add={
        "Function": [hoisted.LANGUAGE.production("Function").without_fields("buffer_groups")],
        "Stmt": [
            hoisted.LANGUAGE.production("Task").without_fields("outs").with_fields("outs:TaskOut*", before="tid"),
            hoisted.LANGUAGE.production("WriteTensor").with_fields(
                "indices:symbol", doc="set_tensor_data through the index array `indices`, in a block of its own"
            ),
        ]
    },
    add_nonterminals=[
        Nonterminal(
            "TaskOut",
            Production("Alias", "var:Binder"),
            Production("Allocated", "var:Binder", "index:integer"),
        )
    ],
    drop_invariants=[ssa.check_single_definition, carried.check_buffer_groups],
)
