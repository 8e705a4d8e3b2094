"""numbered: every dispatched AIC/AIV kernel has its kernel id (D5).

``Kernel`` gains ``id``: the index of the kernel in order of first dispatch (through a Group
too), or ``_`` for kernels never dispatched and for Groups (which launch their members' ids).
"""

from . import core_typed

BEFORE = core_typed.LANGUAGE

LANGUAGE = BEFORE.extend(
    "numbered",
    doc="kernel ids in order of first dispatch",
    remove={"Kernel": ["Kernel"]},
    add={"Kernel": [BEFORE.production("Kernel").with_fields("id:integer?")]},
)
