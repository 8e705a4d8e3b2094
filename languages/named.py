"""named: every variable has the C++ identifier the emission will give it.

The identifiers are a map on the function, not a rename of the tree: ``Function`` gains
``renamed``, every variable, parameter, cell or TaskId storage whose C++ identifier is not its
own name (a name not listed is its own identifier), in the order remap_output_aliases named
them, and ``identifiers``, their identifiers, index for index (two tuples of symbols rather than
a node per name: most variables are in the map), and ``scalars_renamed``: whether a data scalar (a
variable of a ScalarType other than TASK_ID) is among them (a task's scalar argument and the
shapes, offsets and fill values of creates and views read data scalars only: while it is false,
they read no name that has another identifier). Only ``Function`` changes: every statement is
the input's, with its SSA names (and its meaning: every name read is defined); the pass that
spells C++ (lower_to_emission) looks each name up in the map. One physical tensor has one
identifier: ``ext_<p>`` for tensor parameters, one shared identifier for all SSA versions that
are the same storage (a kernel's output *is* the Out/InOut argument it writes, an assemble's
result *is* its target, a carry that is not rebound *is* its init), and unique identifiers
elsewhere. A let of one identifier to another name of it (a tensor copy) copies nothing.
``Function`` loses ``buffer_groups``: the variables of one storage now share an identifier.
Invariant: the map is one: as many identifiers as renamed names, no name renamed twice.
"""

from nanopass.errors import VerifyError

from . import carried, hoisted, ssa


def check_name_map(program) -> None:
    func = program.orch
    renamed = func.renamed
    if len(renamed) != len(func.identifiers) or len(set(renamed)) != len(renamed):
        raise VerifyError("the name map is not one identifier per renamed name", node=func)


LANGUAGE = hoisted.LANGUAGE.extend(
    "named",
    doc="C++ identifiers in a map on the function; physical aliases share one identifier",
    remove={"Function": ["Function"]},
    remove_nonterminals=["BufferGroup"],
    add={
        "Function": [
            hoisted.LANGUAGE.production("Function")
            .without_fields("buffer_groups")
            .with_fields("renamed:symbol*", "identifiers:symbol*", "scalars_renamed:boolean", before="body")
        ],
    },
    drop_invariants=[ssa.check_single_definition, carried.check_buffer_groups],
    invariants=[check_name_map],
)
