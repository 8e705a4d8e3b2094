"""The intermediate languages of the orchestration compiler, in pipeline order.

Each module declares one language as a delta of the one before it; ``ALL`` lists them in order.
"""

from . import (
    batched,
    carried,
    core_typed,
    dep_annotated,
    dimmed,
    directed,
    emission,
    encoded,
    hoisted,
    named,
    numbered,
    scoped,
    slotted,
    ssa,
    surface,
    tid_bound,
)

SURFACE = surface.LANGUAGE
SSA = ssa.LANGUAGE
DIRECTED = directed.LANGUAGE
SCOPED = scoped.LANGUAGE
CARRIED = carried.LANGUAGE
CORE_TYPED = core_typed.LANGUAGE
NUMBERED = numbered.LANGUAGE
SLOTTED = slotted.LANGUAGE
TID_BOUND = tid_bound.LANGUAGE
DEP_ANNOTATED = dep_annotated.LANGUAGE
BATCHED = batched.LANGUAGE
HOISTED = hoisted.LANGUAGE
NAMED = named.LANGUAGE
DIMMED = dimmed.LANGUAGE
ENCODED = encoded.LANGUAGE
EMISSION = emission.LANGUAGE

ALL = [
    SURFACE, SSA, DIRECTED, SCOPED, CARRIED, CORE_TYPED, NUMBERED, SLOTTED, TID_BOUND,
    DEP_ANNOTATED, BATCHED, HOISTED, NAMED, DIMMED, ENCODED, EMISSION,
]
BY_NAME = {language.name: language for language in ALL}
