"""tid-bound: every TaskId the program uses as a dependency is bound to its source.

``Function`` gains ``tids``: one ``(TidSource var source storage size)`` per TaskId variable,
saying what kind of value it is (``dep_source``), which variable's C++ declaration holds it
(``storage``: the submit's TaskId, the None seed, the carry, the array...) and how many slots it
has (0: a single ``PTO2TaskId``; N: ``PTO2TaskId[N]``).
"""

from nanopass.language import Nonterminal, Production

from . import slotted

BEFORE = slotted.LANGUAGE

LANGUAGE = BEFORE.extend(
    "tid-bound",
    doc="TaskId variables bound to their sources",
    remove={"Function": ["Function"]},
    add={"Function": [BEFORE.production("Function").with_fields("tids:TidSource*", before="body")]},
    add_nonterminals=[
        Nonterminal(
            "TidSource",
            Production("TidSource", "var:symbol", "source:dep_source", "storage:symbol", "size:integer"),
        )
    ],
)
