"""Shapes the compiler does not handle yet (issue 21), and the switch that turns them on.

The generators (``gen_programs`` with ``gen_shapes``, ``enumerate_programs``) cover every
construct of issue 21's surface; the shapes on which today's compiler fails stay out of the CI
properties and of the tools' default runs while ``ISSUE_21_PENDING`` is True: ``--all-shapes``
(the tools) or ``NANOPASS_ALL_SHAPES=1`` (the tests) puts them back. The fix of issue 21 has
landed: ``ISSUE_21_PENDING`` is False, and every property runs on every shape.
"""

from __future__ import annotations

import os

ISSUE_21_PENDING = False

# The features of gen_shapes (random programs).
FEATURES = frozenset({
    "host_reads", "host_reads_after_scope", "host_reads_derived", "host_writes", "host_in_manual",
    "manual_in_loop", "manual_in_branch", "manual_n_loops", "cond_write", "init_swap", "slice_loop",
    "slice_loop_before_scope", "assemble", "assemble_around", "assemble_in_manual", "carry_chain", "phases",
    "while_loops",
})

# The features today's compiler gets wrong (issue 21's classes): of random programs (gen_shapes)
# and of enumerated ones (enumerate_programs.features).
PENDING = frozenset({
    "host_reads_after_scope", "host_reads_derived", "host_writes", "host_in_manual", "manual_in_loop",
    "cond_write", "slice_loop_before_scope", "assemble_around", "assemble_in_manual", "carry_chain", "phases",
    "host_write_after_read", "host_after_manual_task", "cond_write_in_loop",
})


def all_shapes() -> bool:
    """Are the pending shapes on (the fix has landed, or the caller asks for them)?"""
    return not ISSUE_21_PENDING or os.environ.get("NANOPASS_ALL_SHAPES", "") not in ("", "0")


def default_features() -> frozenset[str]:
    return FEATURES if all_shapes() else FEATURES - PENDING


def handled(features) -> bool:
    return all_shapes() or not (set(features) & PENDING)

