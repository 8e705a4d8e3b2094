"""dimmed: the dynamic-dim symbols the body uses are defined at entry.

Replaces ``dyn_dims`` (every ``pl.dynamic`` symbol of the signature) by ``dyn_defs``: only the
symbols the body uses, each read once from the first parameter declaring it, by entry slot and
axis: ``(DynDef name slot axis)``.
"""

from nanopass.language import Nonterminal, Production

from . import named

BEFORE = named.LANGUAGE

LANGUAGE = BEFORE.extend(
    "dimmed",
    doc="used dynamic-dim symbols defined from their declaring entry tensor",
    remove={"Function": ["Function"]},
    remove_nonterminals=["DynDim"],
    add={
        "Function": [
            BEFORE.production("Function").without_fields("dyn_dims").with_fields("dyn_defs:DynDef*", before="slots")
        ]
    },
    add_nonterminals=[Nonterminal("DynDef", Production("DynDef", "name:symbol", "slot:integer", "axis:integer"))],
)
