"""The live accesses of the static hazard walk: indexed by region, changed in place, undone by a trail.

``find_hazards`` walks a function in program order holding, for every root, the reads and the
writes not yet superseded (*live*). A task meets the live accesses whose regions overlap its
own; a certain write removes the ones its region covers. A branch or a loop body is analysed
from the state before it and its changes are then undone, so the cost of a branch or of one
pass over a loop body is that of its own accesses, whatever else is live.

- ``RegionIndex`` holds the live reads (or writes) of one root, grouped by region. Once it holds
  more than ``GRID_FROM`` regions, boxes of the rank of its first box are also filed in a grid
  whose cells are that box's size, so that a query meets the boxes near it, not every box (a
  program that writes N tiles of one buffer meets O(1) boxes per task, not N); an index of
  fewer regions (mostly one or two: a buffer and a tile of it) is searched through, no grid made.
- ``LiveAccesses`` is the state of the walk: an index per root and kind, the live accesses of
  each site (to retag them when the site runs again or its manual scope closes) and of each
  TaskId value that covers them, and a trail of every change. ``delta(mark)`` gives the net change since a mark, ``undo(mark)`` reverts it.
"""

from __future__ import annotations

from itertools import product
from typing import Iterator

from .regions import Box, Full, covers, overlaps

MAX_CELLS = 16  # a box spanning more grid cells than this is met by every query instead
GRID_FROM = 8  # an index files its boxes in a grid once it holds more regions than this


class RegionIndex:
    """Accesses grouped by region, with a grid of boxes for overlap and cover queries."""

    __slots__ = ("by_region", "rank", "cell", "grid", "unfiled", "cells_of", "gridded")

    def __init__(self):
        self.by_region: dict = {}  # region -> set of accesses
        # (the grid, made when the index first holds more than ``GRID_FROM`` regions: ``gridded``)
        self.gridded = False
        self.rank: int | None = None  # the rank of the boxes in the grid (fixed by the first box filed)
        self.cell: tuple[int, ...] = ()
        self.grid: dict[tuple[int, ...], set] = {}  # cell -> boxes that intersect it
        self.unfiled: set = set()  # regions every query meets: FULL, UNKNOWN, other boxes
        self.cells_of: dict = {}  # box -> its ``_cells`` (the grid's terms, once fixed, stay)

    def __bool__(self) -> bool:
        return bool(self.by_region)

    def __contains__(self, access) -> bool:
        group = self.by_region.get(access.region)
        return group is not None and access in group

    def add(self, access) -> bool:
        """Add ``access``; whether it was not there yet."""
        region = access.region
        group = self.by_region.get(region)
        if group is None:
            self.by_region[region] = {access}
            if self.gridded:
                self._file(region)
            elif len(self.by_region) > GRID_FROM:
                self.gridded = True
                for filed in self.by_region:
                    self._file(filed)
            return True
        size = len(group)
        group.add(access)  # (one hash of the access: its size tells whether it was there)
        return len(group) != size

    def swap(self, old, new) -> tuple[bool, bool]:
        """Replace ``old`` by ``new``, an access of the same region: whether ``old`` was there, and
        whether ``new`` was not (the region's group never empties on the way)."""
        group = self.by_region.get(old.region)
        if group is None:
            return False, False
        size = len(group)
        group.discard(old)
        if len(group) == size:
            return False, False
        group.add(new)
        return True, len(group) == size

    def discard(self, access) -> bool:
        """Remove ``access``; whether it was there."""
        region = access.region
        group = self.by_region.get(region)
        if group is None:
            return False
        size = len(group)
        group.discard(access)  # (one hash of the access: its size tells whether it was there)
        if len(group) == size:
            return False
        if not group:
            del self.by_region[region]
            if self.gridded:
                self._unfile(region)
        return True

    def all(self) -> Iterator:
        for group in self.by_region.values():
            yield from group

    def overlapping(self, region) -> list:
        """The accesses whose regions overlap ``region``."""
        if not isinstance(region, Box):  # (the whole buffer or an unknown part: it overlaps every region)
            return [a for group in self.by_region.values() for a in group]
        return [a for r in self._near(region) if overlaps(r, region) for a in self.by_region[r]]

    def covered_by(self, region) -> list:
        """The accesses whose regions ``region`` covers."""
        if isinstance(region, Full):  # (every access: no generator, as ``overlapping``)
            return [a for group in self.by_region.values() for a in group]
        if not isinstance(region, Box):
            return []  # UNKNOWN covers nothing
        return [a for r in self._near(region) if covers(region, r) for a in self.by_region[r]]

    # -- the grid ---------------------------------------------------------------------------------

    def _near(self, region):
        """Regions that may overlap or be covered by ``region`` (a superset of those that are)."""
        cells = self._cells(region) if self.gridded and isinstance(region, Box) else None
        if cells is None:
            return self.by_region  # (its regions: the callers read it, they do not change it)
        grid = self.grid
        near = set(self.unfiled)
        for cell in cells:
            boxes = grid.get(cell)
            if boxes:
                near |= boxes
        return near

    def _cells(self, box: Box) -> list | None:
        """The grid cells ``box`` intersects (None: not in the grid's terms, or too many)."""
        if self.rank is None:
            return None
        cells = self.cells_of.get(box, False)
        if cells is False:
            cells = self.cells_of[box] = self._grid_cells(box)
        return cells

    def _grid_cells(self, box: Box) -> list | None:
        if len(box.lo) != self.rank:
            return None
        spans = []
        count = 1
        for lo, hi, size in zip(box.lo, box.hi, self.cell):
            if hi <= lo:
                return None  # an empty box: met by every query
            first, last = lo // size, (hi - 1) // size
            count *= last - first + 1
            if count > MAX_CELLS:
                return None
            spans.append(range(first, last + 1))
        return list(product(*spans))

    def _file(self, region) -> None:
        if isinstance(region, Box) and self.rank is None and all(hi > lo for lo, hi in zip(region.lo, region.hi)):
            self.rank = len(region.lo)
            self.cell = tuple(hi - lo for lo, hi in zip(region.lo, region.hi))
        cells = self._cells(region) if isinstance(region, Box) else None
        if cells is None:
            self.unfiled.add(region)
            return
        for cell in cells:
            self.grid.setdefault(cell, set()).add(region)

    def _unfile(self, region) -> None:
        cells = self._cells(region) if isinstance(region, Box) else None
        if cells is None:
            self.unfiled.discard(region)
            return
        for cell in cells:
            boxes = self.grid[cell]
            boxes.discard(region)
            if not boxes:
                del self.grid[cell]


class LiveAccesses:
    """The live reads and writes of every root, changed in place; every change is on the trail."""

    __slots__ = ("indexes", "sites", "holders", "trail", "filed")

    def __init__(self, filed: set[int] | None = None):
        self.indexes: dict[tuple[str, bool], RegionIndex] = {}  # (root, is a write) -> its accesses
        # the sites whose accesses are filed by site (see ``file_site``; shared with ``filed``'s owner)
        self.filed: set[int] = set() if filed is None else filed
        # (the sets below stay when they empty: a site or a name is filed again and again)
        self.sites: dict[int, set] = {}  # site -> its live accesses (filed sites only)
        self.holders: dict[str, set] = {}  # TaskId value -> the live accesses it covers
        self.trail: list[tuple[bool, object]] = []  # (added: else removed, access), oldest first

    def of(self, root: str, write: bool) -> RegionIndex | None:
        return self.indexes.get((root, write))

    def file_site(self, site: int) -> None:
        """File the accesses of ``site`` by site from now on (a site that runs more than once, or
        one in a manual scope: the only ones ``of_site`` is asked about; a program that is one
        straight run of tasks files none)."""
        self.filed.add(site)

    def of_site(self, site: int) -> list:
        """The live accesses of filed ``site`` (a copy: the caller may change the state while using it)."""
        found = self.sites.get(site)
        return list(found) if found else []

    def covered_by(self, name: str) -> list:
        """The live accesses TaskId value ``name`` covers (a copy)."""
        found = self.holders.get(name)
        return list(found) if found else []

    def __contains__(self, access) -> bool:
        index = self.indexes.get((access.root, access.write))
        return index is not None and access in index

    def add(self, access) -> bool:
        key = (access.root, access.write)
        index = self.indexes.get(key)
        if index is None:
            index = self.indexes[key] = RegionIndex()
        if index.add(access):
            self._file_site(access)
            self.trail.append((True, access))
            return True
        return False

    def remove(self, access) -> bool:
        index = self.indexes.get((access.root, access.write))
        if index is not None and index.discard(access):
            if access.site in self.filed:  # (``_unfile_site``, inlined)
                self.sites[access.site].discard(access)
            if access.covers:
                self._unfile_covers(access)
            self.trail.append((False, access))
            return True
        return False

    def replace(self, old, new) -> None:
        """``old`` (live) becomes ``new``, the same access of another run or covering (its site,
        root, kind and region are ``old``'s)."""
        index = self.indexes.get((old.root, old.write))
        if index is None:
            return
        removed, added = index.swap(old, new)
        if not removed:
            return
        trail = self.trail
        trail.append((False, old))
        if not added:
            self._unfile_site(old)
            return
        trail.append((True, new))
        if old.site in self.filed:
            found = self.sites[old.site]
            found.discard(old)
            found.add(new)
        covers = old.covers
        if covers is new.covers:  # (a rerun, a scope's end, a retag: the same covering names)
            holders = self.holders
            for name in covers:
                found = holders[name]
                found.discard(old)
                found.add(new)
        else:
            self._unfile_covers(old)
            self._file_covers(new)

    def _file_site(self, access) -> None:
        site = access.site
        if site in self.filed:
            found = self.sites.get(site)
            if found is None:
                self.sites[site] = {access}
            else:
                found.add(access)
        if access.covers:
            self._file_covers(access)

    def _file_covers(self, access) -> None:
        holders = self.holders
        for name in access.covers:
            found = holders.get(name)
            if found is None:
                holders[name] = {access}
            else:
                found.add(access)

    def _unfile_site(self, access) -> None:
        if access.site in self.filed:
            self.sites[access.site].discard(access)
        if access.covers:
            self._unfile_covers(access)

    def _unfile_covers(self, access) -> None:
        holders = self.holders
        for name in access.covers:
            holders[name].discard(access)

    def mark(self) -> int:
        return len(self.trail)

    def undo(self, mark: int) -> None:
        """Back to the state when the trail was ``mark`` long."""
        trail, indexes = self.trail, self.indexes
        undone = trail[mark:]
        del trail[mark:]
        unfile, file = self._unfile_site, self._file_site
        for added, access in reversed(undone):
            if added:
                indexes[(access.root, access.write)].discard(access)
                unfile(access)
            else:
                indexes[(access.root, access.write)].add(access)
                file(access)

    def delta(self, mark: int) -> tuple[list, list]:
        """The net change since ``mark``: (accesses added, accesses removed), each once."""
        first: dict = {}  # access -> whether its first change since the mark added it
        last: dict = {}
        for added, access in self.trail[mark:]:
            if access not in first:
                first[access] = added
            last[access] = added
        plus, minus = [], []
        for access, added in last.items():
            if added is first[access]:  # (else its changes cancel out)
                (plus if added else minus).append(access)
        return plus, minus
