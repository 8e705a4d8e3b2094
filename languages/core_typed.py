"""core-typed: every kernel says where it runs.

``Kernel`` gains ``core`` (AIC, AIV, or MIX for a Group of an AIC and an AIV kernel) and
``members``: for a Group, the names of the kernels it launches (AIC first, then AIV); empty
otherwise.
"""

from . import carried
from .terms import core_type

BEFORE = carried.LANGUAGE

LANGUAGE = BEFORE.extend(
    "core-typed",
    doc="kernels carry their core type (D6)",
    add_terminals=[core_type],
    remove={"Kernel": ["Kernel"]},
    add={"Kernel": [BEFORE.production("Kernel").with_fields("core:core_type", "members:symbol*")]},
)
