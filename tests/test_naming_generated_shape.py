"""``generated_shape`` tests a name's start before the pattern: it says what ``GENERATED`` says,
and ``take_first`` (its helpers written out) hands out what its plain steps do."""

from __future__ import annotations

import random

from nanopass.passes.naming import GENERATED, GENERATED_STARTS, NameTable, generated_shape

SHAPED = ["params_t0", "params_t12_synth_out_2", "task_3_outs", "alloc_0", "mixed_4", "params_phase_fence_barrier_1",
          "params_phase_fence_barrier_1_x", "phase_fence_barrier_2_outs", "ext_x", "ext_", "indices_y"]
NOT_SHAPED = ["params", "params_x", "task_outs", "task_3", "alloc_x", "mixed", "phase_fence_barrier_2", "ex", "x", "t0",
              "indices", "user_ext_x", "_ext_x", "Params_t0"]


def test_generated_shape_is_the_pattern():
    for name in SHAPED:
        assert generated_shape(name) and GENERATED.match(name), name
    for name in NOT_SHAPED:
        assert not generated_shape(name) and not GENERATED.match(name), name
    rng = random.Random(373)
    pieces = [*GENERATED_STARTS, "params_t", "0", "12", "_", "outs", "x", "t", "barrier_", "phase_"]
    for _ in range(3000):
        name = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 4)))
        assert generated_shape(name) == bool(GENERATED.match(name)), name


def plain_take_first(table: NameTable, preferred, fallback, derived=()):
    """``take_first`` as its docstring says it, through the table's plain steps."""
    if preferred is not None and table.free(preferred) and table.derived_free(preferred, derived):
        if GENERATED.match(preferred):
            return table.reserve(preferred, derived=derived)
        table.hand_out(preferred, derived)
        return preferred
    return fallback if table.take(fallback, derived) else table.reserve(fallback, derived=derived)


def test_take_first_hands_out_what_its_plain_steps_do():
    rng = random.Random(37)
    bases = ["t", "x", "ext_x", "params_t0", "int", "t_ci", "y", "a__ssa_v0", "out", "alloc_1", None]
    suffixes = [(), ("_ci", "_ci_shapes"), ("_shapes", "_offsets")]
    for _ in range(200):
        fast, plain = NameTable(["x", "t_1", "y_ci"]), NameTable(["x", "t_1", "y_ci"])
        for _ in range(12):
            preferred, fallback = rng.choice(bases), rng.choice(bases[:-1]) + "__ssa_v1"
            derived = rng.choice(suffixes)
            assert fast.take_first(preferred, fallback, derived) == plain_take_first(plain, preferred, fallback, derived)
        assert fast.taken == plain.taken
