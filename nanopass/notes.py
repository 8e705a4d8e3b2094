"""One line per pass about the notes it left: ``order_write_after_read: 335 orderings added``.

Passes leave notes (``PassContext.note``) of a few kinds; ``summarise(notes)`` counts them per
pass and kind and says so in a phrase of the kind's own (an unknown kind is counted as notes).
A pass with one note is summarised by that note itself.

An ``added-edge`` or ``derived-edge`` note says that one task now waits for another: an
*ordering*, counted as such. The task graph may draw an ordering as more than one edge (through
a barrier the pass adds to join several TaskIds, or from each submit site a TaskId may come
from), so the graph's edge count changes by a different number (the report shows both).
"""

from __future__ import annotations

from typing import Iterable

from .rewrite import Note

# kind -> (one, many): what one note of the kind stands for, and many
PHRASES: dict[str, tuple[str, str]] = {
    "added-edge": ("ordering added", "orderings added"),
    "derived-edge": ("ordering derived", "orderings derived"),
    "dropped-edge": ("compiler edge dropped", "compiler edges dropped"),
    "dropped-barrier": ("join barrier dropped", "join barriers dropped"),
    "merged-cells": ("cell group merged into a chain", "cell groups merged into chains"),
    "phase-fence": ("phase fence placed", "phase fences placed"),
    "manual-region": ("function made a MANUAL scope", "functions made MANUAL scopes"),
    "fallback": ("fallback", "fallbacks"),
}


def summarise(notes: Iterable[Note]) -> list[str]:
    """One line per pass, in the order the passes left their first note."""
    by_pass: dict[str, list[Note]] = {}
    for note in notes:
        by_pass.setdefault(note.pass_name, []).append(note)
    return [f"{name}: {describe(items)}" for name, items in by_pass.items()]


def describe(notes: list[Note]) -> str:
    """What one pass's notes amount to, without the pass's name."""
    if len(notes) == 1:
        return notes[0].message
    counts: dict[str, int] = {}
    for note in notes:
        counts[note.kind] = counts.get(note.kind, 0) + 1
    return ", ".join(_phrase(kind, count) for kind, count in counts.items())


def _phrase(kind: str, count: int) -> str:
    one, many = PHRASES.get(kind, (f"{kind} note", f"{kind} notes"))
    return f"{count} {one if count == 1 else many}"
