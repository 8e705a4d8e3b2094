"""Host element reads and writes as accesses of the static hazard analysis.

``pl.tensor.read`` / ``t[i, j]`` (a ``ReadTensor`` let) and ``pl.tensor.write`` (``WriteTensor``)
run on the orchestration thread: ``get_tensor_data`` and ``set_tensor_data`` return only once
what they wait for has completed, so every task submitted later comes after them, and a host
access is only ever the *later* access of a pair. What they wait for (runtime-api.md section 11):

- the tensor's creator (``owner_task_id``: the task that allocated it as an OUTPUT);
- ``get`` and ``set``: every TensorMap producer whose region overlaps, i.e. every earlier write
  in an AUTO scope by an InOut or OutputExisting slot (a covering InOut that retired an entry
  waited for it itself);
- ``set`` also: each such producer's consumers. A task that only read the tensor (an Input
  slot) is a consumer of a producer only if the tensor had one; the analysis does not count on
  it, so a read by an Input slot is waited for only by a read-write task of its own (InOut:
  a producer itself).

Nothing a task in a MANUAL scope does is published: a host access waits for such a task only
if it created the tensor. ``host_waits_for`` is that rule; every other pair needs a producer the
access waits for (``passes/order_write_after_read``'s host fence), or, in a manual scope after a
task of the same instance, a creator: a host wait (a dummy task after the task creating one
element, read by the host first).
"""

from __future__ import annotations

from typing import Any

from nanopass.languages.terms import ArgDir

from .regions import FULL, Box


class HostAccess:
    """A host element read or write of a region of one root: the later access of a pair."""

    __slots__ = ("site", "write", "root", "region", "scope", "parallel", "certain", "earlier_iteration", "closed", "stale")
    host = True
    dir = None
    covers = frozenset()

    def __init__(
        self, site: int, write: bool, root: str, region: Any, scope: int | None, parallel: frozenset, certain: bool
    ):
        self.site, self.write, self.root, self.region = site, write, root, region
        self.scope, self.parallel, self.certain = scope, parallel, certain
        self.earlier_iteration, self.closed, self.stale = frozenset(), False, False

    def _key(self):
        return (self.site, self.write, self.root, self.region, self.scope, self.parallel)

    def __eq__(self, other):
        return isinstance(other, HostAccess) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self) -> str:
        return f"HostAccess(h{self.site} {'W' if self.write else 'R'} {self.root}{self.region!r})"


def host_target(stmt):
    """The tensor expression a host access statement reads or writes, and whether it writes;
    None for any other statement."""
    kind = stmt._production
    if kind == "Let" and stmt.value._production == "ReadTensor":
        return stmt.value.tensor, False
    if kind == "WriteTensor":
        return stmt.tensor, True
    return None


def host_accesses(
    stmt, site: int, scope: int | None, parallel: frozenset, store: dict, written: set[str],
    renewed: frozenset = frozenset(), roots: dict | None = None,
) -> list[HostAccess]:
    """The accesses of a host access statement to ``written`` roots (``element_places``; with
    ``roots``, ``buffer_roots``, so that a name a task rebound has its element's box too). An
    access is ``certain`` when the tensor is one place on every run: one root, not in ``renewed``
    (an allocation a loop carry may hold, a new buffer each run); only a certain access is known
    to have waited for what it met, and only for what covers its region (the region may be one
    around the element, and the runtime waits for what overlaps the element)."""
    tensor, write = host_target(stmt)
    if tensor._production != "Var":
        return []
    places = element_places(stmt, store, roots)
    return [
        HostAccess(site, write, root, region, scope, parallel, len(places) == 1 and root not in renewed)
        for root, region in places
        if root in written
    ]


def element_places(stmt, store: dict, roots: dict | None = None) -> list:
    """(root, region) of the element a host access statement reads or writes: the element's box
    when the index is constant and the tensor is a root itself (its region the whole buffer; with
    ``roots``, ``buffer_roots``, also a name whose storage is that root and no other) or a box of
    one (a slice), else the tensor's region."""
    tensor, write = host_target(stmt)
    index = stmt.index if write else stmt.value.index
    consts = [e.value for e in index] if all(e._production == "Int" for e in index) else None
    out = []
    places = store.get(tensor.name, ())
    same = roots is not None and len(places) == 1 and roots.get(tensor.name) in {root for root, _ in places}
    for root, region in places:
        if consts is not None:
            if region is FULL and (root == tensor.name or same):
                region = Box(tuple(consts), tuple(c + 1 for c in consts))
            elif isinstance(region, Box) and len(region.lo) == len(consts):
                lo = tuple(b + c for b, c in zip(region.lo, consts))
                region = Box(lo, tuple(c + 1 for c in lo))
        out.append((root, region))
    return out


def host_waits_for(earlier, access) -> bool:
    """Whether the runtime makes host access ``access`` wait for task access ``earlier``."""
    if earlier.dir is ArgDir.Output:
        return True  # the tensor's creator
    if earlier.scope is not None:
        return False  # a task in a MANUAL scope publishes nothing
    if earlier.write:
        return True  # a TensorMap producer
    return earlier.dir is ArgDir.InOut  # a reader that is a producer itself (an Input reader: not counted on)
