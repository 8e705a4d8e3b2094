"""Regions of a buffer that a task argument may touch, as the static hazard analysis sees them.

A region is ``FULL`` (the whole buffer), ``FULL_VIEW`` (the whole buffer through a transpose or
reshape: its indices are not the buffer's, so a slice of it is ``UNKNOWN``), ``UNKNOWN`` (some
part, not known statically: it overlaps everything and covers nothing) or a ``Box`` of constant
bounds.
"""

from __future__ import annotations

from typing import NamedTuple


class Full:
    """The whole buffer."""

    def __init__(self, name: str = "full"):
        self.name = name

    def __repr__(self) -> str:
        return self.name


class Unknown:
    """Some part of the buffer, not known statically."""

    def __repr__(self) -> str:
        return "unknown"


FULL, FULL_VIEW, UNKNOWN = Full(), Full("full view"), Unknown()


class Box(NamedTuple):
    """Elements lo[d] <= i[d] < hi[d] of the buffer."""

    lo: tuple[int, ...]
    hi: tuple[int, ...]

    def __repr__(self) -> str:
        return "[" + ", ".join(f"{a}:{b}" for a, b in zip(self.lo, self.hi)) + "]"


def overlaps(a, b) -> bool:
    if isinstance(a, Box) and isinstance(b, Box):
        if len(a.lo) != len(b.lo):
            return True
        return all(al < bh and bl < ah for al, ah, bl, bh in zip(a.lo, a.hi, b.lo, b.hi))
    return True


def covers(a, b) -> bool:
    """Every element of ``b`` is in ``a`` (so a write to ``a`` supersedes earlier accesses of ``b``)."""
    if isinstance(a, Full):
        return True
    if isinstance(a, Box) and isinstance(b, Box) and len(a.lo) == len(b.lo):
        return all(al <= bl and bh <= ah for al, ah, bl, bh in zip(a.lo, a.hi, b.lo, b.hi))
    return False
