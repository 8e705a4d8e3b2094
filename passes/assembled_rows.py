"""What reads the rows a ``pl.assemble`` fills: the analysis ``fuse_create_assemble_to_slice`` rewrites by.

An assemble copies its source into rows of its target. Placing the source in those rows (the
rewrite) is invisible only where no read can tell the copy from the placement; these functions
answer, on the SSA function as it is, which reads there are:

- ``live_uses``: how often each name is read by values something observable needs;
- ``read_names``: the names one statement reads (its own reads, not its bodies');
- ``dead_assembles``: the assembles whose rows nothing reads before they are overwritten (the
  target is never read, or a later assemble of the same block fills the same rows first);
- ``Placement``: the rows a placed source is, with the target's places and the offset.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import NamedTuple

from nanopass.languages.terms import ParamDir

from . import remove_dead_values as dead_values
from .hazards import sub_region
from .kernels import output_params
from .regions import FULL, Box, covers, overlaps
from .util import BODY_FIELDS, binders_of, iter_stmts, var_reads

_OUT = ParamDir.Out  # (an Enum member read off its class is a Python call each time in Python 3.11)


class Placement(NamedTuple):
    """Where an assemble puts its source: the target's places (``storage_map``'s), the offset and
    the source's shape (expressions), the rows of the target the source is (``(root, region)``
    pairs), and ``region``: the one region of the one buffer the target is, when it is known
    (the whole buffer or a box), else None (found once, as the placement is made)."""

    places: frozenset | None
    offset: tuple
    shape: tuple
    rows: frozenset
    region: object = None

    @classmethod
    def of(cls, places, shape, offset) -> "Placement":
        one = None
        if places is not None and len(places) == 1:
            for _, region in places:
                if region is FULL or isinstance(region, Box):
                    one = region
        # (tuple.__new__: a NamedTuple's own __new__ is a Python call)
        return _tuple_new(cls, (places, tuple(offset), tuple(shape), assembled_rows(places, shape, offset), one))


def assembled_rows(places, shape, offset) -> frozenset:
    """The ``(root, region)`` pairs a source of ``shape`` assembled at ``offset`` into a target
    stored in ``places`` fills."""
    rows = []  # (a plain loop: a comprehension is a call of its own)
    for root, region in places or ():
        rows.append((root, sub_region(region, shape, offset)))
    return frozenset(rows)


_tuple_new = tuple.__new__


def same_exprs(a, b) -> bool:
    """Whether two expression lists are the same names and constants (the same values where both are read)."""

    keys_a, keys_b = [_expr_key(e) for e in a], [_expr_key(e) for e in b]
    return len(a) == len(b) and None not in keys_a and keys_a == keys_b


def read_names(stmt, kernels: dict, live: set[str]) -> set[str]:
    """The names ``stmt`` itself reads where the reading is observable: a pure let whose name is
    dead reads nothing; an assemble reads its source and offset, not its target (it overwrites the
    target's rows and passes the rest on); a task reads its ``In`` and ``InOut`` arguments; a
    statement with bodies or a ``Yield`` reads nothing here (a loop carry or if result holding a
    tensor is stored where that tensor is, so its own reads count)."""
    kind = stmt._production
    if kind == "Let":
        value = stmt.value
        if value._production in dead_values.PURE and stmt.var.name not in live:
            return set()
        if value._production != "AssembleTensor":
            return set(value_reads(value))
        source = value.source
        if source._production == "Var" and _constants(value.offset):  # (mostly: read without a walk)
            return {source.name}
        read = [source, *value.offset]
    elif kind == "Task":  # (a name or a constant argument read without a walk)
        names = set()
        for a, p in zip(stmt.args, kernels[stmt.kernel].params):
            if p.dir is not _OUT:
                value = a.value
                production = value._production
                if production == "Var":
                    names.add(value.name)
                elif production != "Int":
                    names.update(var_reads([value]))
        return names
    elif kind in BODY_FIELDS or kind == "Yield":
        return set()
    else:
        read = [stmt]
    return set(var_reads(read))


def dead_assembles(
    body, kernels: dict, roots: dict, places: dict, live: set[str], fills: dict | None = None,
    creates: dict | None = None, root_read=None, walked: dict | None = None,
) -> set[int]:
    """The ids of the assembles whose rows nothing reads, wherever nested. An assemble is dead when
    every buffer its target may be is made in the body (by ``pl.create_tensor``, or by the runtime
    for a task's output no argument is passed for) and nothing reads a name stored in one of them (only assembles write into them, and tasks through ``Out``
    arguments), or when a later assemble in the same block fills all of its rows (one buffer, the
    same or a larger box) before anything reads a name stored in an overlapping part of them.
    Dropped (its target taken as it is), such an assemble changes no value anything reads, and its
    source's later uses are no uses after it. One walk of the body; a block with an assemble into
    one known region indexes its statements once (``LaterFills``). What a statement reads is found
    only where a read can decide: for the whole body when a target is only created buffers, for a
    block when a later fill there covers an earlier one. With ``fills``, the ``Placement``
    of each assemble of a created source that the walk made is entered there by the id of the
    assemble. With ``creates``, the function's ``pl.create_tensor`` values are entered there by
    name (the walk finds them with the assembles). With ``root_read`` (a root -> whether a statement reads
    a name stored in it), that question is asked of a target's roots instead of a walk of the
    body for the roots every statement reads. With ``walked`` (``live_uses``' ``parts`` of the
    body: every block of it, with its assembles and creates), the blocks with assembles and the
    creates are taken from there instead of a walk of the body, and the results of tasks the
    runtime allocates are walked for only when a target's root is not created."""
    creates = {} if creates is None else creates
    blocks: list[tuple] = []  # (a block, the positions of its assembles), for each block with one
    allocated: set[str] | None = None  # the results of tasks the runtime allocates (no argument passed)
    outputs: dict[str, tuple] = {}  # kernel name -> ``output_params``

    def collect(stmts, tasks: bool = False, assembles: bool = True) -> None:
        positions = []
        at = 0
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                if assembles:
                    production = stmt.value._production
                    if production == "AssembleTensor":
                        positions.append(at)
                    elif production == "CreateTensor":
                        creates[stmt.var.name] = stmt.value
            elif kind == "Task":
                if tasks:
                    params = outputs.get(stmt.kernel)
                    if params is None:
                        params = outputs[stmt.kernel] = output_params(kernels[stmt.kernel])
                    passed = len(stmt.args)
                    for out, param in zip(stmt.outs, params):
                        if param is not None and param >= passed:
                            allocated.add(out.name)
            elif kind in BODY_FIELDS:
                for field in BODY_FIELDS[kind]:
                    collect(getattr(stmt, field), tasks, assembles)
            at += 1
        if positions:
            blocks.append((stmts, positions))

    def allocated_by_runtime() -> set[str]:
        nonlocal allocated
        if allocated is None:
            allocated = set()
            collect(body, True, False)
        return allocated

    # What statements read is asked only where it can decide: of the whole body, when a target
    # is only created buffers; of a block, when a later fill covers an earlier one (``LaterFills``).
    own_reads: dict[int, list] = {}  # id(statement) -> the (root, region)s it reads itself, when asked
    read_roots: set[str] | None = None  # the roots any statement reads, when asked
    dead: set[int] = set()

    def reads_itself(stmt) -> list:
        found = own_reads.get(id(stmt))
        if found is None:
            names = read_names(stmt, kernels, live)
            found = own_reads[id(stmt)] = [where for name in names for where in places.get(name, ())]
        return found

    def roots_read() -> set[str]:
        nonlocal read_roots
        if read_roots is None:
            # (``reads_itself`` of every statement written out, its roots kept and not its list:
            # a call and a comprehension per statement were most of the walk)
            read_roots = set()
            add = read_roots.add
            for stmt in iter_stmts(body):
                for name in read_names(stmt, kernels, live):
                    for root, _ in places.get(name, ()):
                        add(root)
        return read_roots

    def filled(stmt) -> Placement | None:
        if stmt._production != "Let" or stmt.value._production != "AssembleTensor":
            return None
        value = stmt.value
        create = creates.get(roots.get(value.source.name, value.source.name))
        if create is None:
            return None
        placement = Placement.of(places.get(value.target.name), create.shape, value.offset)
        if fills is not None:
            fills[id(stmt)] = placement
        return placement

    def decide(stmts, assembles: list[int]) -> None:
        later: LaterFills | None = None  # made on the block's first assemble that may be overwritten
        for at in assembles:
            stmt = stmts[at]
            target_roots = set()  # (plain loops: a comprehension or generator is a call of its own)
            made = True  # whether every buffer of the target is made in the body
            for root, _ in places.get(stmt.value.target.name, ()):
                target_roots.add(root)
                if root not in creates and made and root not in allocated_by_runtime():
                    made = False
            if target_roots and made:
                if root_read is None:
                    read = bool(target_roots & roots_read())
                else:
                    read = False
                    for root in target_roots:
                        if root_read(root):
                            read = True
                            break
                if not read:
                    dead.add(id(stmt))
                    continue
            placement = later.fills.get(at) if later is not None else filled(stmt)
            if placement is None or placement.region is None:
                continue
            if later is None:
                block_fills = {}  # (only an assemble is one)
                for i in assembles:
                    fill = placement if i == at else filled(stmts[i])
                    if fill is not None:
                        block_fills[i] = fill
                later = LaterFills(block_fills, lambda stmts=stmts: [reads_of(s) for s in stmts])
            if later.overwritten(at, placement):
                dead.add(id(stmt))

    def reads_of(stmt) -> list:
        """The (root, region)s of the names ``stmt`` and the statements in its bodies read."""
        if stmt._production not in BODY_FIELDS:
            return reads_itself(stmt)
        return [where for inner in iter_stmts([stmt]) for where in reads_itself(inner)]

    # (every create first: a loop carry's target may be made later in the loop)
    if walked is None:
        allocated = set()
        collect(body, True)
    else:
        for uses in walked.values():
            if uses.assembles:
                blocks.append((uses.stmts, uses.assembles))
            if uses.made:
                stmts = uses.stmts
                for name, at in uses.made.items():
                    creates[name] = stmts[at].value
    for stmts, assembles in blocks:
        decide(stmts, assembles)
    return dead


# Whether ``LaterFills`` answers that no fill is overwritten without a search when no two fills of
# a block can cover one another (``none_covered``); off only in the tests that compare the two.
COVER_SHORTCUT = True


class LaterFills:
    """The fills and reads of one block's statements, indexed so that whether a later assemble of
    the block overwrites an earlier one before anything reads its rows costs a few lookups.

    ``fills[i]`` is the ``Placement`` of statement ``i`` when it is an assemble of a created
    source (``fills`` a dict of those, or a list with None for the other statements); ``reads[i]`` the ``(root, region)``s statement ``i`` (with its bodies)
    reads (``reads`` may be a function that makes that list: it is called, and the reads
    indexed, only when a later fill covers an earlier one, the only case a read decides). A
    later fill overwrites an earlier one when it has the same places and its rows cover the
    earlier's (a box of equal size is the same box; only a larger box can cover otherwise) or
    are the same expressions. A box is made only of constant offsets and shapes, which it
    determines (its corner the offset within the one region of the places, its size the shape):
    fills of boxes are indexed by their rows, the others by their expressions."""

    def __init__(self, fills, reads):
        if isinstance(fills, list):
            fills = {at: fill for at, fill in enumerate(fills) if fill is not None}
        self.fills: dict = fills
        self.reads = reads
        self.by_rows: dict = {}     # (places, box) -> positions of fills of exactly those rows
        self.by_exprs: dict = {}    # (places, offset keys, shape keys) -> positions of fills not of a box
        self.by_size: dict = {}     # places -> {box volume -> [(position, box)]}
        self.keys: dict = {}        # position -> ``_exprs_key`` of its fill (one region of one buffer, not a box)
        self.volumes: dict = {}     # position -> the volume of its fill's box
        for at, fill in fills.items():
            if fill.region is None:
                continue
            [(_, rows)] = fill.rows
            if isinstance(rows, Box):
                volume = self.volumes[at] = _volume(rows)
                self.by_rows.setdefault((fill.places, rows), []).append(at)
                self.by_size.setdefault(fill.places, {}).setdefault(volume, []).append((at, rows))
                continue
            key = self.keys[at] = _exprs_key(fill)
            if key is not None:
                self.by_exprs.setdefault(key, []).append(at)
        self.any_reads: dict | None = None  # root -> positions of the statements reading a non-box region of it
        self.box_reads: dict | None = None  # root -> [(position, box)] read, in order
        # Whether no fill can overwrite another (``first_covering`` finds none for every indexed
        # fill): no two have the same rows or the same expressions, and each buffer's boxes
        # are of one volume, not 0 (only a larger box covers an unequal one otherwise)
        self.none_covered = COVER_SHORTCUT and (
            all(len(at) == 1 for at in self.by_rows.values())
            and all(len(at) == 1 for at in self.by_exprs.values())
            and all(len(sizes) == 1 and 0 not in sizes for sizes in self.by_size.values())
        )

    def index_reads(self) -> None:
        reads = self.reads() if callable(self.reads) else self.reads
        self.any_reads, self.box_reads = {}, {}
        for at, where in enumerate(reads):
            for root, region in where:
                if isinstance(region, Box):
                    self.box_reads.setdefault(root, []).append((at, region))
                else:
                    self.any_reads.setdefault(root, []).append(at)

    def overwritten(self, at: int, earlier: Placement) -> bool:
        """Whether a fill after statement ``at`` overwrites ``earlier`` (one region of one buffer)
        before a statement reads a name stored in an overlapping part of that buffer."""
        if self.none_covered and self.fills.get(at) is earlier:
            return False
        [(root, rows)] = earlier.rows
        by = self.first_covering(at, earlier, rows)
        if by is None:
            return False
        if self.any_reads is None:
            self.index_reads()
        read_at = _next(self.any_reads.get(root, ()), at)
        if read_at is not None and read_at < by:
            return False
        reads = self.box_reads.get(root, ())
        for i in range(bisect_right(reads, at, key=lambda r: r[0]), len(reads)):
            pos, region = reads[i]
            if pos >= by:
                break
            if overlaps(region, rows):
                return False
        return True

    def first_covering(self, at: int, earlier: Placement, rows) -> int | None:
        """The position of the first fill after ``at`` that overwrites ``earlier``, if any."""
        candidates = []
        if not isinstance(rows, Box):  # (the same expressions make the same box: a box is found by its rows)
            key = self.keys[at] if at in self.keys and self.fills.get(at) is earlier else _exprs_key(earlier)
            if key is not None:
                candidates.append(_next(self.by_exprs.get(key, ()), at))
        else:
            candidates.append(_next(self.by_rows.get((earlier.places, rows), ()), at))
            size = self.volumes[at] if at in self.volumes and self.fills.get(at) is earlier else _volume(rows)
            for volume, fills in self.by_size.get(earlier.places, {}).items():
                if volume > size or size == 0:  # (an empty box is covered by unequal empty boxes too)
                    later = range(bisect_right(fills, at, key=lambda f: f[0]), len(fills))
                    candidates.append(next((fills[i][0] for i in later if covers(fills[i][1], rows)), None))
        return min((c for c in candidates if c is not None), default=None)


def _next(positions, at: int) -> int | None:
    i = bisect_right(positions, at)
    return positions[i] if i < len(positions) else None


def _volume(box: Box) -> int:
    volume = 1
    for lo, hi in zip(box.lo, box.hi):
        volume *= hi - lo
    return volume


def _exprs_key(fill: Placement):
    offset, shape = _exprs_keys(fill.offset), _exprs_keys(fill.shape)
    if offset is None or shape is None:
        return None
    return fill.places, offset, shape


def _exprs_keys(exprs) -> tuple | None:
    """The ``_expr_key``s of ``exprs``, or None when one has none."""
    keys = []
    for e in exprs:
        production = e._production
        if production == "Int":
            keys.append(("int", e.value))
        elif production == "Var":
            keys.append(("var", e.name))
        else:
            return None
    return tuple(keys)


def _expr_key(e):
    if e._production == "Var":
        return ("var", e.name)
    if e._production == "Int":
        return ("int", e.value)
    return None


def drop_assembles(stmts, dead: set[int]) -> tuple:
    """``stmts`` with each assemble whose id is in ``dead``, wherever nested, replaced by a copy of
    its target (the target keeps its rows: nothing reads the assembled ones)."""
    from nanopass.languages import SSA

    out = []
    for stmt in stmts:
        if id(stmt) in dead:
            stmt = SSA.Let(stmt.var, stmt.value.target, span=stmt.span)
        else:
            fields = BODY_FIELDS.get(stmt._production)
            if fields:
                stmt = stmt.replace(**{f: drop_assembles(getattr(stmt, f), dead) for f in fields})
        out.append(stmt)
    return tuple(out)


class Counts:
    """How often each statement of one block reads each name (``parts``, one dict a statement),
    indexed: for each name the positions of the statements that read it, a position once per
    read (in order), so that the count of a range of the block is a difference of two bisections
    and the block's count the list's length."""

    def __init__(self, parts: list = ()):
        self.positions: dict[str, list[int]] = {}
        j = 0
        for counts in parts:
            self.add(j, counts)
            j += 1

    def add(self, j: int, counts: dict[str, int]) -> None:
        """Count ``counts``, the reads of ``block[j]`` (``j`` past every position counted)."""
        positions = self.positions
        for name, k in counts.items():
            found = positions.get(name)
            if found is None:
                positions[name] = [j] if k == 1 else [j] * k
            elif k == 1:
                found.append(j)
            else:
                found += [j] * k

    def between(self, name: str, lo: int, hi: int) -> int:
        """How often ``block[lo:hi]`` reads ``name``."""
        positions = self.positions.get(name)
        if not positions:
            return 0
        return bisect_left(positions, hi) - bisect_left(positions, lo)


class BlockUses(Counts):
    """``live_uses``' index of one block (``Counts``) and what its walk sees of the block's
    statements besides: ``bound``, the position of the statement that makes each name visible
    after it (``visible_binders``; SSA: one); ``made``, the position of each ``pl.create_tensor``;
    ``plain``, whether every statement's accesses (a ``Var`` of a name where it may be read or
    written) are its live uses: none has bodies or is a ``Yield``, and no let is a dead pure
    value (whose reads are no uses). A plain block mentions no name it does not access.
    ``stmts``, the block; ``assembles``, the positions of its ``pl.assemble``s, in order; ``nested``,
    whether a statement of it has bodies."""

    mentioned: dict = {}  # (a plain block's: none; never written)

    def __init__(self, stmts=()) -> None:
        super().__init__()
        self.bound: dict[str, int] = {}
        self.made: dict[str, int] = {}
        self.plain = True
        self.stmts = stmts
        self.assembles: list[int] = []
        self.nested = False


def visible_binders(stmt) -> list:
    """The Binders a statement makes visible after it: its own (``binders_of``), and for a
    ``with`` block every one bound in it at its level (names escape a scope, not a loop or if)."""
    if stmt._production != "Scope":
        return binders_of(stmt)
    out = []
    for inner in stmt.body:
        out += visible_binders(inner)
    return out


def live_uses(stmts, live: set[str], kept=None, parts: dict | None = None) -> dict[str, int]:
    """How often each name is read by ``stmts`` where the reading value is live
    (``RemoveDeadValues.liveness``): a pure let whose name is dead, a dead loop carry's init and
    yielded value, and a dead if result's yielded values read nothing that anything observes.
    ``kept`` marks, for the ``Yield`` ending ``stmts``, which of its values are live; a statement
    without bodies counts its ``own_live_uses``. With ``parts``, each block walked (``stmts`` and
    every body in it) is entered there by its id: ``parts[id(block)]`` is how often each of its
    statements (its bodies included) reads each name so, indexed, with the block's binders and
    creates (``BlockUses``; the block's counts are its positions' lengths)."""
    counts: dict[str, int] = {}
    index = bound = None
    if parts is not None:
        index = parts[id(stmts)] = BlockUses(stmts)
        bound, made, assembles = index.bound, index.made, index.assembles
    plain = True
    j = 0
    pure = dead_values.PURE
    for stmt in stmts:
        kind = stmt._production
        if kind in BODY_FIELDS or kind == "Yield":
            plain = False
            uses: dict[str, int] = {}
            if kind == "Yield":
                if kept is not None:
                    _merge(uses, var_reads([v for v, keep in zip(stmt.values, kept) if keep]))
                else:
                    uses = stmt_reads(stmt)
            elif kind in ("For", "While"):
                carried = [it.var.name in live or res.name in live for it, res in zip(stmt.iters, stmt.results)]
                _merge(uses, var_reads([stmt.start, stmt.stop, stmt.step] if kind == "For" else [stmt.cond]))
                _merge(uses, var_reads([it.init for it, keep in zip(stmt.iters, carried) if keep]))
                _merge(uses, live_uses(stmt.body, live, carried, parts))
            elif kind == "If":
                merged = [res.name in live for res in stmt.results]
                _merge(uses, var_reads([stmt.cond]))
                _merge(uses, live_uses(stmt.then, live, merged, parts))
                _merge(uses, live_uses(stmt.orelse, live, merged, parts))
            else:  # (a with block)
                uses = live_uses(stmt.body, live, kept, parts)
            if bound is not None:
                if kind != "Yield":
                    index.nested = True
                for b in visible_binders(stmt):
                    bound[b.name] = j
        else:  # (own_live_uses written out: most statements are these)
            if kind == "Let":
                value = stmt.value
                name = stmt.var.name
                if value._production in pure and name not in live:
                    uses = {}
                    plain = False  # (its reads are accesses, not uses)
                else:
                    uses = value_reads(value)
                if bound is not None:
                    bound[name] = j
                    if value._production == "CreateTensor":
                        made[name] = j
                    elif value._production == "AssembleTensor":
                        assembles.append(j)
            else:
                uses = stmt_reads(stmt)
                if bound is None:
                    pass
                elif kind == "Task":  # (its outs and task id, ``defined_binders``')
                    for out in stmt.outs:
                        bound[out.name] = j
                    if stmt.tid is not None:
                        bound[stmt.tid.name] = j
                else:
                    for b in binders_of(stmt):
                        bound[b.name] = j
        if index is None:
            for name, k in uses.items():
                counts[name] = counts.get(name, 0) + k
        else:  # (the positions, once per read, are the counts)
            index.add(j, uses)
            j += 1
    if index is not None:
        index.plain = plain
        for name, found in index.positions.items():
            counts[name] = len(found)
    return counts


def own_live_uses(stmt, live: set[str]) -> dict[str, int]:
    """``live_uses`` of one statement without bodies (a ``Yield`` counts all its values)."""
    if stmt._production == "Let":
        value = stmt.value
        if value._production in dead_values.PURE and stmt.var.name not in live:
            return {}
        return value_reads(value)
    return stmt_reads(stmt)


def stmt_reads(stmt) -> dict[str, int]:
    """``var_reads`` of a statement without bodies; a let, and a task whose arguments are names
    and constants (no dependency, no launch spec), read without a walk (a binder's type is
    never read)."""
    kind = stmt._production
    if kind == "Let":
        return value_reads(stmt.value)
    if kind == "Task" and not stmt.deps and stmt.launch is None:
        counts: dict[str, int] = {}
        for arg in stmt.args:
            value = arg.value
            production = value._production
            if production == "Var":
                counts[value.name] = counts.get(value.name, 0) + 1
            elif production != "Int":
                return var_reads(stmt)
        return counts
    return var_reads(stmt)


def value_reads(value) -> dict[str, int]:
    """``var_reads`` of a let's value; a name, a create (its fill a constant or none), an assemble
    or a slice whose other operands are names and constants read without a walk."""
    production = value._production
    if production == "Var":
        return {value.name: 1}
    if production == "CreateTensor":
        init = value.init
        if (init is None or init._production == "Float" or init._production == "Int") and _constants(value.shape):
            return {}
    elif production == "AssembleTensor":
        target, source = value.target, value.source
        if target._production == "Var" and source._production == "Var" and _constants(value.offset):
            if target.name == source.name:
                return {target.name: 2}
            return {target.name: 1, source.name: 1}
    elif production == "SliceTensor":
        if value.tensor._production == "Var" and _constants(value.shape) and _constants(value.offset):
            return {value.tensor.name: 1}
    return var_reads(value)


def _constants(exprs) -> bool:
    for e in exprs:
        if e._production != "Int":
            return False
    return True


def _merge(counts: dict[str, int], more: dict[str, int]) -> None:
    for name, k in more.items():
        counts[name] = counts.get(name, 0) + k
