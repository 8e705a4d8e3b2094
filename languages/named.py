"""named: every variable has the C++ identifier the emission will give it.

The identifiers are a map on the function, not a rename of the tree: ``Function`` gains
``names`` and ``scalar_names``, one ``(CName var cpp)`` for every variable, parameter, cell or
TaskId storage whose C++ identifier ``cpp`` is not its own name ``var`` (a name not listed is its
own identifier), in the order remap_output_aliases named them: the data scalars (a variable of
a ScalarType other than TASK_ID) in ``scalar_names``, all others in ``names``. (A task's scalar
argument and the shapes, offsets and fill values of creates and views read data scalars only:
while ``scalar_names`` is empty, they read no name that has another identifier.) The tree keeps its SSA names (and its meaning: every name
read is defined); the pass that spells C++ (lower_to_emission) looks each name up in the map.
One physical tensor has one identifier: ``ext_<p>`` for tensor parameters,
one shared identifier for all SSA versions that are the same storage (a kernel's output *is* the
Out/InOut argument it writes, an assemble's result *is* its target, a carry that is not rebound
*is* its init), and unique identifiers elsewhere. ``Task`` outputs become ``TaskOut``: ``(Alias
var)`` (the output is an argument, no code) or ``(Allocated var index)`` (a runtime-allocated
output, ``task_<n>_outs.get_ref(index)``). ``AssembleTensor`` is gone: its result is its target,
``(Let r (Var target))``. Such a let, and any tensor copy, gives one storage another name of the
same identifier: the C++ copies nothing. ``WriteTensor`` gains ``indices``: the name of its index
array, ``indices_<the tensor's DSL name>`` (a parameter's, not its ``ext_`` name).
``Function`` loses ``buffer_groups``: the variables of one storage now share an identifier.
"""

from nanopass.language import Nonterminal, Production

from . import carried, hoisted, ssa

LANGUAGE = hoisted.LANGUAGE.extend(
    "named",
    doc="C++ identifiers in a map on the function; physical aliases share one identifier",
    remove={"Rhs": ["AssembleTensor"], "Stmt": ["Task", "WriteTensor"], "Function": ["Function"]},
    remove_nonterminals=["BufferGroup"],
    add={
        "Function": [
            hoisted.LANGUAGE.production("Function")
            .without_fields("buffer_groups")
            .with_fields("names:CName*", "scalar_names:CName*", before="body")
        ],
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
        ),
        Nonterminal("CName", Production("CName", "var:symbol", "cpp:symbol", doc="the C++ identifier of `var`")),
    ],
    drop_invariants=[ssa.check_single_definition, carried.check_buffer_groups],
)
