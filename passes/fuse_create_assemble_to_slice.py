"""fuse_create_assemble_to_slice: ssa -> ssa."""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from heapq import heappop, heappush
from typing import NamedTuple

from nanopass.errors import InternalError, UserError
from nanopass.languages import SSA
from nanopass.languages.statements import kept
from nanopass.languages.terms import BinOp, CmpOp, DType, LoopKind, ParamDir, ScopeMode, UnOp
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots, extend_buffer_roots
from .assembled_rows import (
    BlockUses, Counts, Placement, _constants, _tuple_new, assembled_rows, dead_assembles, drop_assembles, live_uses,
    read_names, same_exprs, stmt_reads, visible_binders,
)
from .hazards import storage_map, storage_with_slices, walk_storage
from .host_accesses import element_places, host_target
from .regions import FULL, UNKNOWN, overlaps
from .kernels import kernel_table, output_params
from . import remove_dead_values as dead_values
from .util import BODY_FIELDS, assigned_names, iter_stmts, scalar_names, var_reads

S = SSA
# Whether the pass hands ``storage_map`` of its output to the passes after it (``kept``), made from
# its input's (``storage_with_slices``) instead of a walk; off only in the tests that compare the two.
FORWARD_STORAGE = True
# Whether the analysis asks ``RemoveDeadValues.liveness`` for ``enough`` (the live names that show
# every removable value live, when they do); off only in the tests that compare the two.
LIVENESS_ENOUGH = True
# Whether a plain block's index of accesses is its index of live uses (``BlockUses.plain``: the
# same), without a walk of the block; off only in the tests that compare the two.
INDEX_FROM_USES = True
# Whether ``dead_assembles`` asks whether a target's root is read of the statements at the live uses
# of its names (``root_read``) instead of walking the function for every root read; off only in
# the tests that compare the two.
ROOT_READ_FROM_USES = True
# Whether ``names_of`` picks a root's names out of ``aliases_of`` instead of making ``named`` (a walk
# of every name); off only in the tests that compare the two.
NAMES_FROM_ALIASES = True
# Whether ``dead_assembles`` takes the blocks with assembles and the creates from ``live_uses``'
# walk (``parts``), and ``sequence`` finds a block's assembles and whether it has bodies there,
# instead of walks of their own; off only in the tests that compare the two.
BLOCKS_FROM_USES = True
# (an Enum member read off its class is a Python call each time in Python 3.11: read once)
_IN, _OUT = ParamDir.In, ParamDir.Out
_SEQ, _LT, _NOT, _AND, _OR = LoopKind.seq, CmpOp.lt, UnOp.not_, BinOp.and_, BinOp.or_
_EQ, _GE, _SUB, _MOD, _INDEX = CmpOp.eq, CmpOp.ge, BinOp.sub, BinOp.mod, DType.INDEX


@register
class FuseCreateAssembleToSlice(Pass):
    """Make ``pl.assemble(target, src, offset)`` a view instead of a copy.

    The orchestration runtime has no copy primitive: ``src`` must be a tensor made by
    ``pl.create_tensor`` (in the same body, an enclosing one or a ``with`` block before it:
    ``fuse_across``), whose tasks then write straight into ``target``; a loop carry is that create
    only where every iteration leaves it the create's buffer, indexed as the create (the storage
    map's places of the source are the create's whole buffer alone: no other buffer, no transpose). The create of ``src`` becomes ``pl.tensor.slice(target, shape, offset)`` marked ``placed``, and the assemble's
    result becomes ``target`` itself (a copy the naming pass folds away). When ``target`` is
    itself created later in the same body, its create moves up to just before ``src``'s; when it
    is bound later to a buffer that exists there (a copy of a name, a task's result: one root),
    the slice is taken of that buffer; when an ``if`` between the two chooses the target among
    buffers that exist there (a swap of two names in one branch), the slice is taken of an ``if``
    over the same condition placed before it, yielding the buffer that branch chooses (each
    branch checked on its own). A source placed only where an assemble runs (``fuse_across``' ``if``)
    and assembled again into the same rows is a view there only: the second assemble, where it
    may run on no path of that ``if``'s condition, is checked as a placement of its own and the
    ``if`` widened to make the view where either runs (``place_again``). Through a ``pl.parallel``
    loop, whose iterations are unordered, only where nothing in the loop writes the source or the
    rows but the assembles themselves: each iteration copies the same value into the same rows,
    so they hold it from the first assemble on whichever iteration runs first, as the view does
    (``check_parallel_loops_copy_alike``; a write there is a user error naming it). An assemble of a placed
    source into other rows or another buffer is a user error naming the first. The placement must be invisible: from the source's creation to the assemble, the rows it takes
    in ``target`` are neither written (their old content would be lost, or a host write would
    land before the assembled rows instead of under them; an assemble of another source there is
    a write too, whether or not it is rewritten yet) nor read, by a task or the host (a
    host read whose value nothing uses reads nothing), an
    access to a source placed before counting as one to the rows it was placed in (the
    read would see the rows before the assemble, and a task that reads them while writing the
    source would read and write the same bytes). A source that is not such a create, one still
    used after the assemble (itself, a view of it, made before the assemble too, or a source
    placed in it) by a live value (one something observable needs:
    ``RemoveDeadValues.liveness``; a view, copy, element read or loop carry of the source that
    nothing reads observes nothing) other than a read (a task's ``In`` argument, a host element
    read, through views; an assemble of the source into the rows it is placed in, which becomes
    nothing) in the same block that no write of those rows or of the source comes before
    (placed, the source then holds what the copy holds), a target or offset not
    available where ``src`` is created (a name bound inside an earlier ``with`` block is available
    after it), or a placement that would be visible, is a user error saying why. A source made
    with an ``init_value`` is placed only when a task overwrites all of it (an ``Out`` argument,
    on every path) before anything reads it: a view is never filled (``fill_overwritten``). A
    source never written before its assemble may be read after a write of its rows: the copy
    holds undefined rows too (``never_written``). The uses after the assemble are every live use
    there of a name whose storage may be in the source's buffer (``aliases_of``: a view made
    before the assemble or after it, in a branch, a view of a view, a copy, an ``if`` result, a
    loop carry, swapped or not); a task's argument and a host element access are live always,
    so every write of those bytes is one. ``reads_after_see_the_copy`` accepts only when the
    uses it walked are, name by name, those ``live_uses`` counts after the assemble (a
    ``Yield``'s only for its owner's live results; one whose owner is not known is not walked):
    a use not reached refuses, no other use stands for it. A write of the source after the
    assemble, and every use after that write, is no such use when nothing reads or writes the
    rows it is placed in from that write on (``rows_unused_from``). An assemble whose rows nothing
    reads before they are overwritten (``assembled_rows.dead_assembles``: its target is never
    read, or a later assemble of the same block fills the same rows first) is dropped first: it
    places nothing. A source that may be one of several creates (``storage_map``'s roots, whole
    buffers) is one view only where no run needs two of their values at once. Each create of such
    a set must meet what a single create must (its rows unused from its creation to the assemble,
    a fill overwritten first, the uses after the assemble seeing the copy), and the later of two
    that one run makes, a view of the same rows, writes the bytes the earlier one's value is in:
    sound only where nothing reads that value from then on. ``share_exclusive_creates`` makes a
    pair one buffer where it proves that (the program, each assemble a copy, observes the same
    values), and that buffer is then placed, or refused, as a single create: creates at the top
    of the two branches of one ``if`` (every run makes exactly one; the same shape, dtype, fill
    and tracking, the shape read before the ``if``) become one made before the ``if``; a create
    before an ``if`` and one at the top of a branch of it (the same shape, dtype and tracking)
    where the second is overwritten by a task's ``Out`` argument in its branch before anything
    reads it, no name that may hold the first (a copy, view, task result or carry of it) has a
    live use from the second's creation on, and no manual scope is around or in the branch (its
    ``deps=`` know nothing of the sharing), the second becomes a copy of the first. A set that
    one run may all make is placed without sharing where ``if``s choose which one the assemble
    takes (``place_chosen``): the source an ``if``'s result (through copies and tasks' results),
    each branch yielding one create's whole buffer or such a result of an ``if`` in it, or the
    result of a ``pl.range`` loop of step 1 whose body passes its carries on so (its trip count
    chooses: ``loop_choice_leaves``), every condition on the paths to a create known where that
    create is made, in a block around the assemble. Those conditions part the paths, so each
    create becomes the view where the assemble will take it (its paths' conditions and
    ``route``'s) and its own buffer elsewhere (``fuse_across``' ``if``): no run makes two of them
    views of the rows, and where one is the view the others are buffers of their own. Each is
    checked as a single create placed where its assemble runs, the others not in the rows (its
    rows unused from its creation to the assemble, a fill overwritten first, the uses after the
    assemble reads that see the copy). A second assemble of one of them into the same rows is no
    copy on the paths where it is the view; where it may run on another path (the view there
    another create's) it is a user error, never a widened guard. Other sets (a choice made by a
    loop's counter or a ``pl.parallel`` loop, a condition not known at a create, a create made in
    a loop before the assemble, the pairs above that fail a condition) stay refused, the message
    saying why. A create made in a branch of an ``if`` before the assemble (ifs nested in it too,
    no loop: ``_find_create_in_branch``) is made only on the paths through that branch, where its
    conditions hold: it becomes the view where its paths' other conditions and ``route``'s do
    (the view itself when none is left), its own buffer elsewhere, and is checked from its
    creation on (the rest of its branch, then the block up to the assemble) as any other.
    Afterwards no ``AssembleTensor`` is left, and every read observes what it observed with the
    copy. What reads which rows is ``assembled_rows``' analysis; this pass rewrites by it and
    refuses what it cannot prove invisible.
    """

    name = "fuse_create_assemble_to_slice"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        if not any(
            s._production == "Let" and s.value._production == "AssembleTensor" for s in iter_stmts(func.body)
        ):
            return program
        self.kernels = kernel_table(program)
        self.analyse(func)
        # id(assemble) -> its Placement (``dead_assembles``' walk): of the function as analysed
        self.fills: dict[int, Placement] = {}
        self.creates: dict = {}  # the names bound to a CreateTensor -> its value (dropping assembles keeps them)
        dead = dead_assembles(
            func.body, self.kernels, self.roots, self.places, self.live, self.fills, self.creates,
            self.root_read if ROOT_READ_FROM_USES else None, self.parts if BLOCKS_FROM_USES else None,
        )
        if dead:
            func = func.replace(body=drop_assembles(func.body, dead))
            self.analyse(func)
            self.fills = {}
        while True:  # (a round per level of an elif chain: its creates are shared from the innermost out)
            shared = self.share_exclusive_creates(func)
            if shared is None:
                break
            func = shared
            self.analyse(func)
            self.fills = {}
        self.placed: dict[str, Placement] = {}  # source -> where it was placed
        self.placed_by: dict[str, object] = {}  # source -> the assemble that placed it
        self.guarded: dict[str, _Guarded] = {}  # source placed only where an assemble runs -> how
        self.sliced: dict[str, tuple] = {}  # source -> (base, shape, offset) of the slice its create became
        self.by_branch = False  # whether a source was placed by an ``if`` (``place_by_branch``)
        self.rows_of: dict[str, frozenset] = {}  # placed source -> the (root, region)s it now is
        self.in_loop = False  # whether the block being rewritten runs more than once
        # the names bound before the statement being rewritten, in binding order, each to its place
        # in that order (a body's own names are popped off the end when it is done)
        self.defined_before: dict[str, int] = {}
        _enter(self.defined_before, [p.name for p in func.params] + [d.name for d in func.dyn_dims])
        body = self.sequence(func.body)
        out = S.Program(program.name, program.kernels, func.replace(body=body), span=program.span)
        if FORWARD_STORAGE and not self.by_branch:  # (the If it inserts binds a name: walked as usual)
            places, sliced, holders = self.places, self.sliced, self.aliases_of
            kept(storage_map, (out.orch, *self.kernels.values()), lambda: storage_with_slices(places, sliced, holders))
        return out

    def share_exclusive_creates(self, func):
        """``func`` with pairs of creates made one buffer each, among those an assemble's source may
        be (``storage_map``'s roots, all whole buffers made by ``pl.create_tensor``), or None when
        no such source has such a pair: every pair of the first kind below at once (a round per
        level of an elif chain, not per pair: the pass stays linear in the ifs), else one of the
        second. Either pair keeps every value the program observes, each
        assemble a copy: a fresh buffer of the same shape and dtype stands for the one it replaces
        where nothing can tell the two apart. A create directly in each branch of one ``if``
        (``_exclusive_creates``): every run makes exactly one, and nothing refers to it before it is
        made, so the ``then`` branch's moves to just before the ``if`` and the ``else`` branch's
        becomes a copy of it. A create before an ``if`` in its block and one at the top of a branch
        of it that replaces it (``replaced_create``): the second becomes a copy of the first where
        the first one's value is dead from the second's creation on and the second is overwritten
        before anything reads it."""
        # (``func`` is the function as analysed: its assembles are those ``live_uses`` indexed in
        # each block, so a function with no source of several creates is not walked again)
        if not any(self.creates_chosen(uses.stmts[at]) for uses in self.parts.values() for at in uses.assembles):
            return None
        sets = []  # (in program order: the pairs are looked for in that order)
        for stmt in iter_stmts(func.body):
            if stmt._production == "Let" and stmt.value._production == "AssembleTensor":
                roots = self.creates_chosen(stmt)
                if roots:
                    sets.append(roots)
        # every if with a create directly in each branch, at once (each pair is two creates of its
        # own if's branches: no two pairs share one); else the first replaced create, alone (its proof
        # reads the uses of the first create, to which another pair's copy would add)
        pairs = {}
        for stmt in iter_stmts(func.body):
            if stmt._production == "If":
                pair = _exclusive_creates(stmt, sets)
                if pair is not None:
                    pairs[id(stmt)] = (*pair, True)
        if not pairs:
            found = self.find_shareable(func.body, sets, False)
            if found is None:
                return None
            pairs[id(found[0])] = found[1:]

        def rewrite(stmts) -> tuple:
            out = []
            for stmt in stmts:
                pair = pairs.get(id(stmt))
                if stmt._production in BODY_FIELDS:
                    stmt = stmt.replace(**{f: rewrite(getattr(stmt, f)) for f in BODY_FIELDS[stmt._production]})
                if pair is not None:  # (the bodies' rewrite keeps their lets as they are)
                    first, second, hoist = pair
                    copy = S.Let(second.var, S.Var(first.var.name, span=second.span), span=second.span)
                    if hoist:
                        out.append(first)
                    stmt = stmt.replace(**{
                        field: tuple(copy if s is second else s for s in getattr(stmt, field) if not (hoist and s is first))
                        for field in ("then", "orelse")
                    })
                out.append(stmt)
            return tuple(out)

        for _, second, _ in pairs.values():
            self.creates.pop(second.var.name, None)  # (a copy of the first now)
        return func.replace(body=rewrite(func.body))

    def creates_chosen(self, assemble) -> set[str] | None:
        """The creates the source of the assemble ``assemble`` may be when it may be several, each
        whole (``storage_map``'s roots, all made by ``pl.create_tensor``); else None."""
        source = assemble.value.source
        held = self.places.get(source.name, ()) if source._production == "Var" else ()
        roots = {root for root, _ in held}
        if len(roots) > 1 and roots <= self.creates.keys() and all(region is FULL for _, region in held):
            return roots
        return None

    def find_shareable(self, stmts, sets: list, manual: bool) -> tuple | None:
        """The first ``if`` in ``stmts`` (wherever nested) with a pair of creates that one buffer can
        stand for (``share_exclusive_creates``): ``(the if, the create kept, the one that becomes a
        copy of it, whether the kept one moves before the if)``; None when there is none. In a
        manual scope (``manual``) a create is replaced by none made earlier: the accesses to the two
        buffers are ordered by the user's ``deps=``, which know nothing of them sharing one."""
        for j, stmt in enumerate(stmts):
            kind = stmt._production
            if kind == "If":
                pair = _exclusive_creates(stmt, sets)
                if pair is not None:
                    return stmt, *pair, True
                pair = self.replaced_create(stmts, j, sets, manual)
                if pair is not None:
                    return stmt, *pair, False
            inner = manual or (kind in ("Scope", "CompilerScope") and stmt.mode is ScopeMode.manual)
            for field in BODY_FIELDS.get(kind, ()):
                found = self.find_shareable(getattr(stmt, field), sets, inner)
                if found is not None:
                    return found
        return None

    def replaced_create(self, stmts, j: int, sets: list, manual: bool) -> tuple | None:
        """``(first, second)``: a create ``first`` before the ``if`` ``stmts[j]`` in its block and a
        create ``second`` at the top of one of its branches, both in one set of ``sets``, such that
        ``second`` may be a copy of ``first``: the same shape, dtype and tracking; ``second``
        overwritten by a task's ``Out`` argument before anything reads it on every path through the
        rest of its branch (``fill_overwritten``: its fill, or what ``first`` held, never seen); and
        ``first`` dead from ``second``'s creation on: every live use of a name that may hold it, bound
        before the ``if`` or in that branch before ``second`` (a view, copy, task result or loop carry
        of it), comes before the ``if``, in its condition, in its other branch (which no run takes
        with this one) or in that branch before ``second``. Not in or around a manual scope. A pair
        that fails records why in ``unshared``; None when no pair qualifies."""
        branch = stmts[j]
        made = {s.var.name: s for s in stmts[:j] if s._production == "Let" and s.value._production == "CreateTensor"}
        if not made:
            return None
        for field, other in (("then", "orelse"), ("orelse", "then")):
            body = getattr(branch, field)
            for k, second in enumerate(body):
                if second._production != "Let" or second.value._production != "CreateTensor":
                    continue
                for roots in sets:
                    if second.var.name not in roots:
                        continue
                    for name, first in made.items():
                        if name not in roots:
                            continue
                        why = self.why_not_replaced(stmts, j, body, k, getattr(branch, other), first, second, manual)
                        if why is None:
                            return first, second
                        self.unshared[frozenset((name, second.var.name))] = why
        return None

    def why_not_replaced(self, stmts, j: int, body, k: int, other, first, second, manual: bool) -> str | None:
        """Why ``second`` (``body[k]``, a branch of the ``if`` ``stmts[j]``) cannot be a copy of
        ``first`` (``replaced_create``'s conditions), or None when it can."""
        a, b = first.value, second.value
        one, two = f"'{_base(first.var.name)}' (line {_line(first)})", f"'{_base(second.var.name)}' (line {_line(second)})"
        if a.dtype != b.dtype or a.manual_dep != b.manual_dep or not same_exprs(a.shape, b.shape):
            return f"{one} and {two} differ in shape, dtype or tracking"
        if manual or any(
            s._production in ("Scope", "CompilerScope") and s.mode is ScopeMode.manual for s in iter_stmts(body)
        ):
            return f"{two} is made in or around a manual scope, whose deps= order the two buffers apart"
        if self.fill_overwritten(list(body[k + 1:]), {second.var.name}, {second.var.name}) is not True:
            return f"{two} is not overwritten by a task's Out argument in its branch before anything reads it"
        block, inner = self.parts.get(id(stmts)), self.parts.get(id(body))
        if block is None or inner is None:
            return f"{one} is not known to be dead once {two} is made"
        later = assigned_names(stmts[j + 1:]) | assigned_names(other) | assigned_names(body[k:])
        later.update(r.name for r in stmts[j].results)
        for name in (self.aliases_of.get(first.var.name, set()) | {first.var.name}) - later:
            allowed = block.between(name, 0, j + 1) - inner.between(name, k, len(body))
            if self.uses.get(name, 0) != allowed:
                return f"{one} may still be read after {two} is made (through '{_base(name)}')"
        return None

    def analyse(self, func) -> None:
        self.func = func
        self.roots = buffer_roots(func, self.kernels)
        self.places = storage_map(func, self.kernels)
        # (every question asked of it is whether a removable value is live: ``enough`` answers
        # them all when every one is, without walking the expressions no effect reads by name)
        self.live, _ = dead_values.RemoveDeadValues.liveness(func.body, enough=LIVENESS_ENOUGH)
        # id(analysed block) -> the live uses of each of its statements, indexed, with its binders
        # and creates (``live_uses``' parts)
        self.parts: dict[int, BlockUses] = {}
        self.uses = live_uses(func.body, self.live, parts=self.parts)
        self.aliases_of: dict[str, set[str]] = {}  # root -> the names of it or stored in it
        aliases_of = self.aliases_of
        found = aliases_of.get  # (a set made only for a new root: ``setdefault`` makes one each time)
        for name, root in self.roots.items():
            names = found(root)
            if names is None:
                aliases_of[root] = {name}
            else:
                names.add(name)
        for name, places in self.places.items():
            for root, _ in places:
                names = found(root)
                if names is None:
                    aliases_of[root] = {name}
                else:
                    names.add(name)
        # a create ``hoist_target_create`` moved -> its place in the block (``_Available``)
        self.moved: dict[str, Fraction] = {}
        self._named: dict[str, set[str]] | None = None  # ``named``, made when first asked
        self.block = func.body  # the block being rewritten, as analysed (``sequence``'s)
        self.indexes: dict[int, _BlockIndex] = {}  # id(block) -> its index, made when first needed
        self.accesses_everywhere: dict[str, int] | None = None  # ``_accesses(func.body)``, made when first needed
        self.roots_of_buffers: dict[str, str] | None = None  # ``buffer_roots`` with every carry its own, when first needed
        self.placed_in: dict[str, set[str]] = {}  # root -> the placed sources whose rows are in it
        self.frames: list[_Frame] = []  # the blocks around the one being rewritten, outermost first
        self.analysed: dict[int, tuple] = {}  # id(a body fuse_across rewrote) -> the body as analysed
        # {two creates} -> why the second cannot be a copy of the first (``replaced_create``)
        self.unshared: dict[frozenset, str] = {}
        self.unchosen: dict[int, str] = {}  # id(an assemble) -> why ``place_chosen`` did not place its source
        self.loops_by_counter: dict[str, object] | None = None  # ``loop_of_counter``'s, made when first asked
        self.choosing = frozenset()  # the creates ``place_chosen`` is checking, each as the view where chosen
        self.was: dict[int, object] = {}  # id(a with block fuse_across rewrote) -> the block as analysed
        self.kept_bodies: list = []  # (what those tables' ids are of)

    @property
    def named(self):
        """``buffer_roots``' table the other way round (``_names_by_root``), made when first asked: only
        a target chosen by an ``if`` needs it (``names_of`` answers for a source made with an
        ``init_value``)."""
        if self._named is None:
            self._named = _names_by_root(self.roots)
        return self._named

    @named.setter
    def named(self, value) -> None:
        self._named = value

    def names_of(self, root: str) -> set[str]:
        """``named.get(root, set())``: while ``named`` is the function's own table and not made, the
        names of ``aliases_of`` (every name whose buffer root is ``root`` among them) whose root
        it is, without making it (``NAMES_FROM_ALIASES``)."""
        if NAMES_FROM_ALIASES and self._named is None:
            roots = self.roots
            return {name for name in self.aliases_of.get(root, ()) if roots.get(name) == root}
        return self.named.get(root, set())

    def root_read(self, root: str) -> bool:
        """Whether a statement of the function as analysed reads (``read_names``) a name stored in
        the buffer ``root``: a name it reads is one of its live uses, so only the statements at
        the positions of those names' live uses in the top block's index (there or in their
        bodies) may."""
        body = self.func.body
        positions = self.parts[id(body)].positions
        kernels, live, places = self.kernels, self.live, self.places
        for name in self.aliases_of.get(root, ()):
            at = positions.get(name)
            if not at:
                continue
            for r, _ in places.get(name, ()):  # (a plain loop: a generator is a call of its own)
                if r == root:
                    break
            else:
                continue
            for j in at:
                stmt = body[j]
                if stmt._production in BODY_FIELDS:
                    for inner in iter_stmts([stmt]):
                        if name in read_names(inner, kernels, live):
                            return True
                elif name in read_names(stmt, kernels, live):
                    return True
        return False

    def same_rows(self, stmt, src: str, placed: Placement) -> bool:
        """Whether ``stmt`` assembles ``src`` (all of its buffer) into the rows it was placed in:
        a copy of the rows onto themselves."""
        if stmt._production != "Let" or stmt.value._production != "AssembleTensor":
            return False
        value = stmt.value
        source = value.source.name
        return (
            placed.region is not None  # (one buffer, rows known: the same rows at both)
            and self.roots.get(source, source) == src
            and self.places.get(source) == self.places.get(src)
            and self.places.get(value.target.name) == placed.places
            and same_exprs(value.offset, placed.offset)
        )

    def levels_to(self, stmts: list, at: int) -> list:
        """The ``_Frame``s of the blocks around the one being rewritten, then that block's, down to
        the statement at ``stmts[at]``."""
        return [*self.frames, _Frame(stmts, self.block, at, stmts[at], None, self.block_start)]

    def placement(self, let, create) -> Placement:
        """Where the assemble ``let`` puts the source made by ``create``: ``dead_assembles``' own
        Placement of it when it made one (the same places, shape and offset), else a new one."""
        placed = self.fills.get(id(let))
        if placed is None:
            value = let.value
            placed = Placement.of(self.places.get(value.target.name), create.value.shape, value.offset)
        return placed

    def target_root_bound(self, target, available):
        """The buffer root of the assemble target ``target`` (a name not ``available`` where the
        source is created) as a name, when it is the target's one buffer (``target`` a copy or
        task result of it) and ``available``; else None."""
        name = target.name
        root = self.roots.get(name, name)
        if root in available and {r for r, _ in self.places.get(name, ())} == {root}:
            return S.Var(root, span=target.span)
        return None

    def record_slice(self, src: str, base, create, offset, placed: Placement) -> None:
        """Record that the create of ``src`` is now the slice of ``base`` at ``offset`` (the storage
        ``run`` forwards): the slice's places are its rows when ``base``'s are the target's."""
        rows = placed.rows if self.places.get(base.name) == placed.places else None
        self.sliced[src] = (base.name, create.value.shape, offset, rows)

    def record_placement(self, src: str, let, placed: Placement) -> None:
        """Record that the assemble ``let`` placed ``src`` in ``placed``' rows."""
        self.placed[src] = placed
        self.placed_by[src] = let
        self.place_rows(src, placed.rows)

    def sequence(self, stmts) -> tuple:
        # (the block as analysed: ``fuse`` rewrites, inserts and moves statements only at or before
        # the assemble it is at, so the statements from there on are the block's, shifted by
        # ``len(stmts) - len(self.block)``; the bodies are walked after the block's assembles)
        # (a body ``fuse_across`` rewrote before it was walked stands for the body it analysed)
        stmts_in = stmts
        self.block = analysed = self.analysed.get(id(stmts), stmts) if self.analysed else stmts
        self.block_start = start = len(self.defined_before)  # (the names bound before the block: the first ``start``)
        stmts = list(stmts)
        index = self.parts.get(id(analysed)) if BLOCKS_FROM_USES else None
        if index is not None:
            # (the assembles of the block as analysed, at their places in it shifted by what
            # ``fuse`` inserted before them)
            for at in index.assembles:
                self.fuse(stmts, at + len(stmts) - len(analysed))
            # (``fuse`` makes a statement with bodies only of one with bodies, but for the ``if``s
            # of ``place_by_branch`` and ``fuse_across``; a body ``fuse_across`` rewrote may hold one)
            if not index.nested and not self.by_branch and analysed is stmts_in:
                return tuple(stmts)
        else:
            i = 0
            while i < len(stmts):
                stmt = stmts[i]
                if stmt._production == "Let" and stmt.value._production == "AssembleTensor":
                    i = self.fuse(stmts, i)
                i += 1
        unbound = 0  # the statements from here on have not entered their names in defined_before
        for j, stmt in enumerate(stmts):
            fields = BODY_FIELDS.get(stmt._production)
            if fields:
                for before in stmts[unbound:j]:  # (read only inside a body: those of the statements before it)
                    _enter(self.defined_before, [b.name for b in visible_binders(before)])
                unbound = j
                outer, in_loop = len(self.defined_before), self.in_loop
                _enter(self.defined_before, [it.var.name for it in getattr(stmt, "iters", ())])
                if stmt._production == "For":  # (a While has no loop variable)
                    _enter(self.defined_before, [stmt.var.name])
                self.in_loop = in_loop or stmt._production in ("For", "While")
                bodies = {}
                for field in fields:
                    # (tuple.__new__: a NamedTuple's own __new__ is a Python call)
                    self.frames.append(_tuple_new(_Frame, (stmts, analysed, j, stmt, field, start)))
                    bodies[field] = self.sequence(getattr(stmt, field))
                    self.frames.pop()
                stmt = stmt.replace(**bodies)
                while len(self.defined_before) > outer:  # (SSA: each name bound once, so added last)
                    self.defined_before.popitem()
                self.in_loop = in_loop
                stmts[j] = stmt  # (its names are entered with the next statement with bodies)
        return tuple(stmts)

    def fuse(self, stmts: list, at: int) -> int:
        """Rewrite the assemble at ``stmts[at]``; returns the index of the rewritten assemble."""
        let = stmts[at]
        value = let.value
        target = value.target.name
        src = self.roots.get(value.source.name, value.source.name)
        # (``roots`` takes a loop carry for its init; the storage map knows what the loop yields:
        # another buffer, or a view of the create's own, a transpose of it, indexed otherwise; when
        # it holds one create's whole buffer on every path, that create is the source)
        held = self.places.get(value.source.name, ())
        if len(held) == 1:
            [(root, region)] = held
            if root != src and region is FULL and root in self.creates:
                src = root
        elif held:
            roots = {root for root, _ in held}
            if (len(roots) > 1 and roots <= self.creates.keys() and not roots & self.placed.keys()
                    and all(region is FULL for _, region in held)):
                done = self.place_chosen(stmts, at, roots)
                if done is not None:
                    return done
        for root, region in held:
            if root != src:
                raise self.source_not_one_create(value.source.name, let)
            if region is not FULL:
                raise _source_a_view(value.source.name, root, let)
        if src in self.placed:
            if self.same_rows(let, src, self.placed[src]):
                # (the placement's check accepted this assemble as a read: no write of the rows or
                # the source comes between the two)
                return self.place_again(stmts, at, src)
            raise self.placed_elsewhere(let, src)
        # (plain loops in what runs per assemble: a comprehension or generator is a call of its own)
        create_at = None
        for j in range(at - 1, -1, -1):  # (SSA: src is bound once)
            stmt = stmts[j]
            if stmt._production == "Let" and stmt.var.name == src and stmt.value._production == "CreateTensor":
                create_at = j
                break
        if create_at is None:
            return self.fuse_across(stmts, at, src)
        aliases = self.source_aliases(src)
        # (the uses in the function as analysed less those in the block up to the assemble as
        # analysed, the statements from the assemble on being the analysed block's shifted: the
        # placements before it read the targets they were made views of)
        block = self.uses_of(self.block)
        end = at + 1 - (len(stmts) - len(self.block))
        uses, after = self.uses, {}
        for n in aliases:
            k = uses.get(n, 0) - block.between(n, 0, end)
            if k:
                after[n] = k
        available = _Available(self.defined_before, block.bound, self.moved, src)
        placed = self.placement(let, stmts[create_at])
        if after:
            fresh = self.never_written(stmts[create_at], stmts[create_at + 1 : at], aliases)
            self.check_uses_after(stmts, at, aliases, after, stmts[create_at], placed, len(self.frames), [], fresh)
        base = value.target if target in available else self.target_root_bound(value.target, available)
        if base is None:
            moved = self.hoist_target_create(stmts, create_at, at, target, available)
            if not moved:
                placed = self.place_by_branch(stmts, create_at, at, available)
                if placed is not None:
                    return placed
                raise _target_missing(target, src, let)
            create_at += 1  # the target's create now stands before the source's; the assemble has not moved
            available.add(target)
            base = value.target
        _check_offset_known(value, src, available, let)
        create = stmts[create_at]
        self.check_placement_invisible(stmts[create_at + 1 : at], value, create, let, placed.rows)
        self.check_fill_overwritten(stmts[create_at + 1 : at], create, let, target)
        # (make_trusted: fields of checked nodes of the same kinds, and a node just made; the
        # class's constructor without the class call's packing of arguments nor the checks)
        view = S.SliceTensor.make_trusted(base, create.value.shape, value.offset, False, False, True, None)
        stmts[create_at] = S.Let.make_trusted(create.var, view, create.span)
        stmts[at] = S.Let.make_trusted(let.var, value.target, let.span)
        self.record_slice(src, base, create, value.offset, placed)
        self.record_placement(src, let, placed)
        return at

    def placed_elsewhere(self, let, src: str) -> UserError:
        """The error for an assemble of ``src`` into other rows (or another buffer) than those an
        earlier assemble of it made it a view of: a tensor is a view of one place."""
        first = self.placed_by[src]
        name, target, other = _base(src), _base(let.value.target.name), _base(first.value.target.name)
        return UserError(
            f"pl.assemble cannot make '{name}' a view of '{target}' (the runtime cannot copy): '{name}' is already "
            f"made a view of the rows of '{other}' it is assembled into at line {_line(first)} (where that "
            f"assemble runs), and a tensor is a view of one place only",
            let.span,
            hint=f"assemble a pl.create_tensor of its own, written by its own task, into each place, or assemble "
            f"'{name}' into the same rows both times",
        )

    def chosen_elsewhere(self, let, src: str) -> UserError:
        """The error for a second assemble of ``src`` into the rows ``place_chosen`` made it a view
        of only where a first assemble takes it among other creates, run where that may not hold:
        there another create is the view of those rows."""
        first = self.placed_by[src]
        name, target = _base(src), _base(let.value.target.name)
        return UserError(
            f"pl.assemble cannot make '{name}' a view of '{target}' (the runtime cannot copy): '{name}' is made a "
            f"view of those rows only where the assemble of line {_line(first)} takes it among other creates, "
            f"and this one may run where that one takes another, which is then the view of the same rows",
            let.span,
            hint=f"assemble '{name}' here only under the conditions that choose it at line {_line(first)}, or "
            "assemble a pl.create_tensor of its own",
        )

    def source_not_one_create(self, source: str, let) -> UserError:
        """The error for an assemble whose source ``source`` may be several buffers (``storage_map``'s
        roots): each named by its definition (a create, a parameter, ...) and its line, and why one
        placement cannot serve them all."""
        defined: dict[str, str] = {p.name: "a parameter" for p in self.func.params}
        for stmt in iter_stmts(self.func.body):
            kind = stmt._production
            if kind == "Let":
                what = "the pl.create_tensor" if stmt.value._production == "CreateTensor" else "bound"
                defined.setdefault(stmt.var.name, f"{what} of line {_line(stmt)}")
            elif kind == "Task":
                for out in stmt.outs:
                    defined.setdefault(out.name, f"the output of task {stmt.kernel} of line {_line(stmt)}")
        order = {name: k for k, name in enumerate(defined)}  # (parameters first, then in program order)
        roots = {root for root, _ in self.places.get(source, ())}
        first = self.roots.get(source, source)
        if len(roots) == 1 and first in defined:  # (a carry every iteration rebinds: also the buffer it starts as)
            roots.add(first)
        roots = sorted(roots, key=lambda r: (order.get(r, len(order)), r))
        described = [f"'{_base(r)}' ({defined.get(r, 'made before the assemble')})" for r in roots]
        choices = ", ".join(described[:-1]) + " or " + described[-1] if len(described) > 1 else described[0]
        target = _base(let.value.target.name)
        if all(r in self.creates for r in roots):
            reasons = sorted(why for pair, why in self.unshared.items() if pair <= set(roots))
            if reasons:
                why = (
                    "a create before an if that a branch replaces by a second shares the rows only where the second "
                    f"is overwritten before it is read and nothing reads the first from then on, but {reasons[0]}"
                )
            elif _in_both_branches(self.func.body, set(roots)):
                why = (
                    "they are made in the two branches of an if, but differ in shape, dtype or fill (or their shape "
                    "reads a name the if binds), so no one buffer can stand for both"
                )
            else:
                why = (
                    "two of them may both be made in one run (only creates directly in the two branches of one if, "
                    "which no run makes both, or one that a branch replaces while the first is dead, share the rows), "
                    "and as views of the same rows the writes of the later one would go to the bytes the earlier one "
                    "holds"
                )
                unchosen = self.unchosen.get(id(let))
                if unchosen is not None:
                    why += (
                        "; nor can each be the view only where the assemble takes it (ifs before it choosing by "
                        f"conditions known where each is made): {unchosen}"
                    )
            return UserError(
                f"pl.assemble needs a source made by pl.create_tensor, the same one on every path; '{_base(source)}' may "
                f"be {choices} here: each create is a buffer of its own, and a source is made a view of the rows of "
                f"'{target}' from its creation on; {why} (the runtime cannot copy)",
                let.span,
                hint="make one pl.create_tensor before the paths part, let the tasks of each path write it, "
                "and assemble that one",
            )
        return UserError(
            f"pl.assemble needs a source made by pl.create_tensor; '{_base(source)}' may be {choices} here: only "
            f"a pl.create_tensor can be made a view of the rows of '{target}' (the runtime cannot copy)",
            let.span,
            hint="the runtime cannot copy tensors: assemble the create itself, written by its tasks, on every path",
        )

    def source_aliases(self, src: str) -> set[str]:
        """The names whose uses after an assemble of ``src`` are uses of it: a view of the source
        shares its bytes too (a write through one after the assemble would go to the target's
        rows once the source is placed), and so does a source placed in the source (a use of it
        is one of the source's rows)."""
        aliases = self.aliases_of.get(src, set()) | {src}
        inner = list(self.placed_in.get(src, ()))
        while inner:
            held = inner.pop()
            aliases |= self.aliases_of.get(held, set())
            inner += self.placed_in.get(held, ())
        return aliases

    def fuse_across(self, stmts: list, at: int, src: str) -> int:
        """Rewrite the assemble at ``stmts[at]`` whose source ``src`` is created in another block:
        an enclosing one, or a ``with`` block before the assemble (in its block or an enclosing
        one: names escape a scope), the rule of docs/semantics.md's assemble placement. The blocks
        from the create's down to the assemble's are ``with`` blocks (each runs once), ``if``s and
        ``pl.range`` or ``pl.parallel`` loops (a positive constant step; a ``pl.parallel`` one
        writing neither the source nor the rows: ``check_parallel_loops_copy_alike``) whose
        conditions (a loop's: its start below its stop) are known at the create: the create becomes an ``if`` over their
        conjunction that yields the slice of the target when the assemble will run, a fresh
        buffer of its own otherwise. Checked as in the block: between the create and the
        assemble nothing touches the rows (in a loop, the body after the assemble comes before
        the next one too: there nothing writes them, nor reads them after a write of the
        source, the rows holding the source since the assemble); a fill is overwritten before
        the (first) assemble; the uses after it are reads (``check_uses_after``). The index of
        the rewritten assemble."""
        plan = self.plan_across(stmts, at, src)
        self.apply_across(stmts, at, stmts[at], src, plan)
        return at

    def plan_across(self, stmts: list, at: int, src: str, choice: list | None = None) -> _Across:
        """``fuse_across``' checks of the assemble at ``stmts[at]`` as the placement of ``src``, and
        how to place it (``apply_across``). With ``choice`` (``place_chosen``'s paths on which
        the assemble takes ``src``), the view is made where the assemble runs on one of them."""
        let = stmts[at]
        value = let.value
        target = value.target.name
        levels = self.levels_to(stmts, at)
        found = _find_create(levels, src)
        if found is None and choice is not None:
            found = _find_create_in_branch(levels, src)
        if found is None:
            raise UserError(
                f"pl.assemble needs a source made by pl.create_tensor; '{_base(src)}' is not",
                let.span,
                hint="the runtime cannot copy tensors: create the source, let its tasks write it, then assemble",
            )
        k, p, chain = found
        create = chain[-1]
        conds, loops = self.route(levels, k, let, target, src)
        guard = None
        for cond in conds:
            guard = cond if guard is None else S.Bin(_AND, guard, cond, span=cond.span)
        in_then = True
        if len(conds) == 1 and conds[0]._production == "Un":  # (an if's else branch alone: the if swapped)
            guard, in_then = guard.a, False
        available = self.available_at(levels, k, p, chain)
        block = levels[k].stmts
        base = value.target if target in available else self.target_root_bound(value.target, available)
        if base is None:
            raise _target_missing(target, src, let)
        _check_offset_known(value, src, available, let)
        if guard is not None and scalar_names([guard]) - available:
            missing = sorted(scalar_names([guard]) - available)[0]
            self.refuse_across(let, target, src, " and the ".join(_kind_names(levels[k:-1])),
                               f"whether the assemble runs is decided by '{_base(missing)}', which is not known where "
                               f"'{_base(src)}' is created")
        placed = self.placement(let, create)
        self.check_across(stmts, at, levels, k, p, chain, loops, placed)
        paths = [tuple(conds)] if choice is None else [(*conds, *path) for path in choice]
        if choice is not None:
            paths = _without_branch_conditions(paths, chain)
            guard, in_then = _guard_of(paths)
        return _Across(block, p, chain, base, placed, guard, in_then, paths, choice is not None)

    def apply_across(self, stmts: list, at: int, let, src: str, plan: _Across) -> None:
        """Make the create of ``src`` the view ``plan`` (``plan_across``'s) says, the assemble
        ``let`` at ``stmts[at]`` its target."""
        create, block, p = plan.chain[-1], plan.block, plan.p
        value, guard, placed, base = let.value, plan.guard, plan.placed, plan.base
        view = S.SliceTensor.make(base, create.value.shape, value.offset, False, False, True, None)
        if guard is None:
            made = S.Let.make(create.var, view, create.span)
            self.record_slice(src, base, create, value.offset, placed)
        else:  # (the view when the assemble will run, the source's own buffer otherwise)
            made = _view_or_own(create, view, guard, plan.in_then)
            self.by_branch = True  # (a walk of the output finds its storage: no slice to forward)
            self.guarded[src] = _Guarded(block, made, plan.chain, view, plan.paths, plan.chosen)
        if plan.chosen:  # (another create of the choice may have been made a view in the same statement)
            block[p] = self.swap_create(block[p], create, made)
        else:
            block[p] = self.with_create(block[p], plan.chain, made)
        stmts[at] = S.Let.make(let.var, value.target, let.span)
        self.record_placement(src, let, placed)

    def place_chosen(self, stmts: list, at: int, roots: set[str]) -> int | None:
        """Place the source of the assemble at ``stmts[at]``, which may be any of the creates
        ``roots`` (none placed yet), each where the assemble takes it. Sound when ``if``s before
        the assemble choose which one it takes (its source an ``if``'s result, through copies and
        tasks' results, whose branches each yield one create's whole buffer or such a result of
        an ``if`` in the branch) and each condition on the paths to a create is known where that create is made,
        in a block around the assemble or in a branch of an ``if`` before it (whose conditions then
        hold there: ``_without_branch_conditions``): the paths part by those conditions, so each create can
        be the view of the target's rows exactly where the assemble will take it (and runs:
        ``route``) and its own buffer elsewhere; no run makes two of them views of the rows. Each
        is checked as a single create placed by ``fuse_across`` (its rows unused from its creation
        to the assemble, a fill overwritten first, the uses after the assemble reads that see the
        copy), with the others of ``roots`` their own buffers: on the paths where it is the view
        they are. A loop's trip count chooses too (``loop_choice_leaves``: a condition on its
        bounds), and a create that no path takes is left its own buffer. The index of the
        rewritten assemble; None, the reason in ``unchosen``, when the choice is not made so (a
        loop's counter or a ``pl.parallel`` loop, a condition not known at a create, a create not
        in a block around the assemble nor in a branch of an ``if`` before it: in a loop there)."""
        let = stmts[at]
        levels = self.levels_to(stmts, at)
        scopes = [(frame.stmts, frame.at) for frame in levels]
        leaves: list = []
        carried = {it.var.name for frame in levels[:-1] for it in getattr(frame.stmt, "iters", ())}
        why = self.choice_leaves(let.value.source.name, scopes, (), leaves, carried)
        choice: dict[str, list] = {}
        for path, root in leaves:
            choice.setdefault(root, []).append(path)
        if why is None and not choice.keys() <= roots:
            why = "the ifs before it choose among other buffers too"
        plans = []
        for root in sorted(choice) if why is None else ():
            found = _find_create(levels, root) or _find_create_in_branch(levels, root)
            if found is None:
                loop = _loop_around_create(self.func.body, root)
                why = (f"'{_base(root)}' is made in the loop of line {_line(loop)}, a buffer of its own in each "
                       "iteration, and the assemble takes the last one made" if loop is not None else
                       f"'{_base(root)}' is not made in a block around the assemble, nor in a branch of an if before it")
                break
            k, p, chain = found
            missing = scalar_names([c for path in choice[root] for c in path]) - self.available_at(levels, k, p, chain)
            if missing:
                name = sorted(missing)[0]
                counter = self.loop_of_counter().get(name)
                what = f"the counter of the loop of line {_line(counter)}" if counter else f"'{_base(name)}'"
                why = (f"which of them it takes is decided by {what}, which is not known where '{_base(root)}' is "
                       f"created (line {_line(chain[-1])})")
                break
        if why is not None:
            self.unchosen[id(let)] = why
            return None
        self.choosing = set(choice)
        try:
            for root in sorted(choice):
                plans.append((root, self.plan_across(stmts, at, root, choice[root])))
        finally:
            self.choosing = frozenset()
        for root, plan in plans:  # (each checked with the others its own buffers: placed only now)
            self.apply_across(stmts, at, let, root, plan)
        return at

    def loop_of_counter(self) -> dict:
        """The ``pl.range`` and ``pl.parallel`` loops of the function as analysed by their counters'
        names (one walk of the function, made when first asked)."""
        if self.loops_by_counter is None:
            self.loops_by_counter = {s.var.name: s for s in iter_stmts(self.func.body) if s._production == "For"}
        return self.loops_by_counter

    def choice_leaves(
        self, name: str, scopes: list, path: tuple, leaves: list, carried: set[str], stop: frozenset = frozenset(),
    ) -> str | None:
        """Add to ``leaves`` a ``(path, create)`` for each path on which ``name`` holds one create's
        whole buffer: ``name`` such a name itself, or the result of an ``if`` (through copies)
        bound in ``scopes`` (the statements before: ``(block, end)`` pairs, each the statements of
        ``block`` before ``end``, the innermost block last; walked from the last statement back,
        with blocks entered), each branch's yielded value followed in that branch, its condition
        (negated in the ``else`` branch) added to ``path``. None, or why ``name`` is chosen
        otherwise (``carried``: the carries of the loops around the assemble). A task's result is
        the argument it writes back (the same buffer); a loop's result is followed as
        ``loop_choice_leaves`` says. A name of ``stop`` is a leaf itself (a loop's carry, in its
        body). The walk stops at the statement binding ``name`` (SSA: one), so it reads the
        statements from there to the assemble, not the blocks around it whole."""
        if name in stop:
            leaves.append((path, name))
            return None
        held = self.places.get(name, ())
        if len(held) == 1:
            [(root, region)] = held
            if region is FULL and root in self.creates:
                leaves.append((path, root))
                return None
        rest = list(scopes)  # (the statements not walked yet: those before the one at hand)
        while rest:
            block, end = rest.pop()
            if not end:
                continue
            stmt = block[end - 1]
            rest.append((block, end - 1))
            kind = stmt._production
            if kind == "Scope":
                rest.append((stmt.body, len(stmt.body)))
                continue
            if kind == "Let" and stmt.var.name == name:
                if stmt.value._production != "Var":
                    return f"'{_base(name)}' is bound otherwise than by an if or a copy (line {_line(stmt)})"
                return self.choice_leaves(stmt.value.name, rest, path, leaves, carried, stop)
            if kind == "If" and any(r.name == name for r in stmt.results):
                r = next(m for m, b in enumerate(stmt.results) if b.name == name)
                for field, cond in (("then", stmt.cond), ("orelse", S.Un(_NOT, stmt.cond, span=stmt.cond.span))):
                    body = getattr(stmt, field)
                    value = body[-1].values[r]
                    if value._production != "Var":
                        return f"the if of line {_line(stmt)} yields no name"
                    why = self.choice_leaves(
                        value.name, [*rest, (body, len(body) - 1)], (*path, cond), leaves, carried, stop,
                    )
                    if why is not None:
                        return why
                return None
            if kind == "Task" and any(b.name == name for b in stmt.outs):
                o = next(m for m, b in enumerate(stmt.outs) if b.name == name)
                written = output_params(self.kernels[stmt.kernel])[o]
                arg = stmt.args[written].value if written is not None and written < len(stmt.args) else None
                if arg is None or arg._production != "Var":
                    return f"'{_base(name)}' is a new output of task {stmt.kernel} (line {_line(stmt)})"
                return self.choice_leaves(arg.name, [*rest[:-1], (block, end)], path, leaves, carried, stop)
            if kind == "For" and any(b.name == name for b in stmt.results):
                return self.loop_choice_leaves(stmt, name, rest, path, leaves, carried, stop)
            if name in {b.name for b in visible_binders(stmt)}:
                what = "a loop" if kind in ("For", "While") else "a statement other than an if"
                return f"which of them it takes is decided by {what} (line {_line(stmt)}), not by an if before it"
        if name in carried:
            return f"which of them it takes is decided by the iterations of a loop ('{_base(name)}' is its carry)"
        return f"'{_base(name)}' is not bound in a block around the assemble"

    def loop_choice_leaves(
        self, loop, name: str, scopes: list, path: tuple, leaves: list, carried: set[str], stop: frozenset,
    ) -> str | None:
        """``choice_leaves`` of ``name``, a result of the sequential ``pl.range`` loop ``loop`` of step
        1 whose body passes its carries on (a swap, a copy of one to another), chosen by ``if``s
        of conditions known where the creates are (loop-invariant: each iteration takes the same
        branches; ``place_chosen`` checks them there). Under each truth assignment of those
        conditions the body is one map ``f`` of the carries (its yield at ``i`` the carry ``f(i)``
        of the iteration), so after ``T = max(0, stop - start)`` trips the result at ``i`` holds
        the init of carry ``f^T(i)``; the powers of ``f`` repeat from some ``first`` on, so which
        init that is is a condition on the bounds (``_trips_are``; none for constant bounds)."""
        where = f"which of them it takes is decided by a loop (line {_line(loop)})"
        if loop.kind is not _SEQ or loop.step._production != "Int" or loop.step.value != 1:
            return f"{where} that is not a pl.range of step 1"
        body = loop.body
        if not body or body[-1]._production != "Yield":
            return f"{where} that yields no carries"
        names = [it.var.name for it in loop.iters]
        inner = frozenset(names)
        scope = [(body, len(body) - 1)]
        r = next(m for m, b in enumerate(loop.results) if b.name == name)
        # carry position -> its (path, carry or create) leaves in the body: the carries the result
        # may come from (the others, a target's name or a task id, do not matter)
        each: dict[int, list] = {}
        todo = [r]
        while todo:
            i = todo.pop()
            if i in each:
                continue
            value, found = body[-1].values[i], []
            if value._production != "Var" or self.choice_leaves(value.name, scope, (), found, carried, inner) is not None:
                return f"{where} whose body passes its carries on otherwise than by copies, tasks and ifs"
            if any(leaf not in inner and leaf not in self.creates for _, leaf in found):
                return f"{where} whose body rebinds a carry to a buffer that is no create"
            each[i] = found
            todo += [names.index(leaf) for _, leaf in found if leaf in inner]
        bases: list = []
        for found in each.values():
            for conds, _ in found:
                for cond in conds:
                    base = cond.a if cond._production == "Un" and cond.op is _NOT else cond
                    if base not in bases:
                        bases.append(base)
        if len(bases) > 3:
            return f"{where} whose carries are chosen by more than 3 conditions"
        start, stop_at = loop.start, loop.stop
        for truth in range(1 << len(bases)):
            holds = {m: bool(truth >> m & 1) for m in range(len(bases))}

            def consistent(conds) -> bool:
                for cond in conds:
                    negated = cond._production == "Un" and cond.op is _NOT
                    if holds[bases.index(cond.a if negated else cond)] == negated:
                        return False
                return True

            f = {}  # carry position -> the position of the carry it takes, or the create it is
            for i, found in each.items():
                taken = {leaf for conds, leaf in found if consistent(conds)}
                if len(taken) != 1:
                    break  # (the paths of each carry part every run: no run has these truth values)
                leaf = taken.pop()
                f[i] = names.index(leaf) if leaf in inner else leaf
            if len(f) != len(each):
                continue
            assigned = tuple(b if holds[m] else S.Un(_NOT, b, span=b.span) for m, b in enumerate(bases))
            # f^T for T = 0, 1, ...: each carry the init of a carry (its position) or a create;
            # from T = first on, periodic with period len(powers) - first
            powers = [{i: i for i in f}]
            while (following := {i: m if isinstance(m, str) else powers[-1][m] for i, m in f.items()}) not in powers:
                powers.append(following)
            first = powers.index(following)
            for j, power in enumerate(powers):
                held = power[r]
                for trips in _trips_are(start, stop_at, j, first, len(powers) - first, loop.span):
                    at = (*path, *assigned, *trips)
                    if isinstance(held, str):  # (a create the body rebinds the carry to)
                        leaves.append((at, held))
                        continue
                    init = loop.iters[held].init
                    if init._production != "Var":
                        return f"{where} whose carry starts from no name"
                    why = self.choice_leaves(init.name, scopes, at, leaves, carried, stop)
                    if why is not None:
                        return why
        return None

    def route(self, levels: list, k: int, let, target: str, src: str) -> tuple[list, list]:
        """(the conditions for the assemble at the end of ``levels`` to run, one per ``if`` branch
        and loop of a bound not known to run, from the create's block ``k`` down; the levels of
        the loops around it, ``pl.parallel`` ones too: ``check_parallel_loops_copy_alike``). A
        ``pl.while_`` loop, or one whose step is not a positive constant, between the two is a
        user error: whether it assembles is not known at the create."""
        conds, loops = [], []
        for m in range(k, len(levels) - 1):
            frame = levels[m]
            stmt, kind = frame.stmt, frame.stmt._production
            if kind == "If":
                conds.append(stmt.cond if frame.field == "then" else S.Un(_NOT, stmt.cond, span=stmt.cond.span))
            elif kind == "While" or (kind == "For" and (stmt.step._production != "Int" or stmt.step.value <= 0)):
                what = "pl.while_ loop" if kind == "While" else "pl.parallel loop" if stmt.kind is not _SEQ else "loop"
                self.refuse_across(let, target, src, what, (
                    f"whether a pl.while_ loop runs the assemble is not known where '{_base(src)}' is created"
                    if kind == "While" else
                    f"its step is not a positive constant: whether it runs is not known where '{_base(src)}' is created"))
            elif kind == "For":
                start, stop = stmt.start, stmt.stop
                # (a loop of constant bounds known to run adds no condition)
                if not (start._production == stop._production == "Int" and start.value < stop.value):
                    conds.append(S.Cmp(_LT, start, stop, span=stmt.span))
                loops.append(m)
        return conds, loops

    def available_at(self, levels: list, k: int, p: int, chain: list):
        """The names bound where the create at the end of ``chain`` (in ``levels[k]``'s block at
        ``p``) is: before its block, in it before the create (in the with blocks around it too).
        A set's ``in`` and ``names - available`` (``_Available``), found from the block's binders
        as analysed and the places of the names bound before it, without a walk of the block."""
        frame, src = levels[k], chain[-1].var.name
        index = self.parts.get(id(frame.analysed))
        if index is None or (src not in index.bound and src not in self.moved):  # (walked)
            available = set(name for name, place in self.defined_before.items() if place < frame.start)
            for before in frame.stmts[:p]:
                available.update(b.name for b in visible_binders(before))
        else:
            available = _Available(_BoundBefore(self.defined_before, frame.start), index.bound, self.moved, src)
        for stmt in chain[:-1]:
            inner = _link_body(stmt, chain)
            for before in inner[: _position(inner, chain, stmt)]:
                for b in visible_binders(before):
                    available.add(b.name)
        return available

    def check_across(self, stmts, at: int, levels: list, k: int, p: int, chain: list, loops: list, placed) -> None:
        """``fuse_across``' checks of the assemble at ``stmts[at]`` (the end of ``levels``) as the
        placement of the source made at the end of ``chain`` (in ``levels[k]``'s block at ``p``)
        in ``placed``' rows: between the create and the assemble (the rest of the with blocks
        around the create, the create's block up to the statement holding the assemble, each
        block down to it up to it) nothing touches the rows; in a loop, the rest of each block
        in the loop (the next iteration's prefix) writes them not, nor reads them after a write
        of the source; a fill is overwritten before the assemble; the uses after it are reads
        (``check_uses_after``). Else a user error."""
        let, create = stmts[at], chain[-1]
        value, target = let.value, let.value.target.name
        loop = loops[0] if loops else None  # (the outermost: its body runs again after the assemble)
        between, again = [], []
        for stmt in reversed(chain[:-1]):
            inner = _link_body(stmt, chain)
            between += inner[_position(inner, chain, stmt) + 1:]
        block = levels[k].stmts
        between += block[p + 1 : levels[k].at]
        for m in range(k + 1, len(levels)):
            inner, pos = levels[m].stmts, levels[m].at
            between += inner[:pos]
            if loop is not None and m > loop:
                again += inner[pos + 1:]
        src = create.var.name
        aliases = self.source_aliases(src)
        self.check_parallel_loops_copy_alike(levels, loops, let, aliases, placed.rows)
        after = self.uses_after(levels, k, loops, aliases)
        if after:
            # (in a loop the next iteration's assemble follows this one's writes of the source)
            fresh = not loops and self.never_written(create, between, aliases)
            self.check_uses_after(stmts, at, aliases, after, create, placed, k, loops, fresh)
        self.check_placement_invisible(between, value, create, let, placed.rows)
        if again:  # (after an assemble the rows hold the source: a read sees it until one is written)
            self.check_placement_invisible(again, value, create, let, placed.rows, self.writes_any(again, aliases))
        self.check_fill_overwritten(between, create, let, target)

    def check_parallel_loops_copy_alike(self, levels: list, loops: list, let, aliases: set[str], rows) -> None:
        """``check_across``' check of each ``pl.parallel`` loop among ``loops`` (the levels of the
        loops between the source's create and the assemble ``let`` at the end of ``levels``). Its
        iterations are declared independent, so none is known to assemble first; the placement
        (the source a view of ``rows`` from its creation on, where the loop runs) is invisible when
        every iteration's assemble copies the same value into the same rows: nothing in the loop's
        body writes the source (a name of ``aliases``: a task's ``Out`` or ``InOut`` argument, a
        host element write) or ``rows`` (the same, through a name stored there, or an assemble of
        another source into them). Then, in the program run in order, the rows hold the source
        from the first iteration's assemble to the loop's end whichever iteration that is, as the
        view does; what the first iteration does before its assemble (the rows untouched) and
        after the loop (reads that see the copy) is checked as for a ``pl.range`` loop. Else a
        user error: a write there and another iteration's assemble are unordered, so what the
        rows hold depends on an order the loop declares irrelevant, and no view can stand for
        every order (the runtime cannot copy)."""
        for m in loops:
            loop = levels[m].stmt
            if loop._production != "For" or loop.kind is _SEQ:
                continue
            body = levels[m + 1].analysed
            what = self.parallel_write(body, aliases, rows)
            if what is None:
                continue
            src, target = _base(let.value.source.name), _base(let.value.target.name)
            raise UserError(
                f"pl.assemble cannot make '{src}' a view of '{target}' (the runtime cannot copy): the pl.parallel loop "
                f"of line {_line(loop)} around the assemble {what}; its iterations are not ordered, so that write and "
                f"another iteration's assemble may come in either order, and the rows the assemble fills would hold "
                f"a value that depends on it",
                let.span,
                hint=f"create '{src}' inside the pl.parallel loop (each iteration assembles a source of its own), or "
                f"use pl.range to order the iterations, or assemble '{src}' once outside the loop",
            )

    def parallel_write(self, body, aliases: set[str], rows) -> str | None:
        """What in ``body`` (a ``pl.parallel`` loop's, bodies included) writes the source (a name of
        ``aliases``) or ``rows`` (``check_placement_invisible``'s, a source placed there counting as
        them), said for a message ("writes 't' (task k, line 3)"); None when nothing does."""
        row_roots = {r for r, _ in rows}

        def in_rows(places) -> bool:
            for root, region in self.storage(places):
                if root in row_roots and any(root == r and overlaps(region, placed) for r, placed in rows):
                    return True
            return False

        def stored_in_rows(expr) -> bool:
            return expr._production == "Var" and in_rows(self.places.get(expr.name, ()))

        for stmt in iter_stmts(body):
            kind = stmt._production
            if kind == "Task":
                for arg in _written(stmt, self.kernels[stmt.kernel]):
                    if arg.name in aliases:
                        return f"writes '{_base(arg.name)}' (task {stmt.kernel}, line {_line(stmt)})"
                    if stored_in_rows(arg):
                        return f"writes the rows it fills (task {stmt.kernel}, line {_line(stmt)})"
            elif kind == "Let" and stmt.value._production == "AssembleTensor":
                value = stmt.value
                if value.source._production == "Var" and value.source.name in aliases:
                    continue  # (the same source: into the same rows, it becomes nothing; else ``placed_elsewhere``)
                created = self.creates.get(self.roots.get(value.source.name, value.source.name))
                target = self.places.get(value.target.name, ()) if value.target._production == "Var" else ()
                filled = assembled_rows(target, created.shape, value.offset) if created is not None else target
                if in_rows(filled):
                    return f"assembles another source into the rows it fills (line {_line(stmt)})"
            elif host_target(stmt) is not None:
                tensor, write = host_target(stmt)
                if not write or tensor._production != "Var":
                    continue
                if tensor.name in aliases:
                    return f"writes '{_base(tensor.name)}' (the host, line {_line(stmt)})"
                if in_rows(element_places(stmt, self.places, self.roots)):
                    return f"writes the rows it fills (the host, line {_line(stmt)})"
        return None

    def place_again(self, stmts: list, at: int, src: str) -> int:
        """Rewrite the assemble at ``stmts[at]`` of ``src`` into the rows ``src`` is already
        placed in: no copy, the target itself. A source ``fuse_across`` placed only where its
        first assemble runs (``guarded``) is a view only on those paths: where this assemble
        runs and no path of the guard holds (its conditions, ``route``'s, include those of no
        path), the source would still be its own buffer and the copy lost. There this assemble
        is checked as a placement of its own (``check_across``, the source's accesses its own,
        not the rows'), and the guard widened to hold where either runs: the view whenever the
        source will be assembled there. The index of the rewritten assemble."""
        let = stmts[at]
        guarded = self.guarded.get(src)
        if guarded is not None:
            levels = self.levels_to(stmts, at)
            k = next((m for m in range(len(levels)) if levels[m].stmts is guarded.block), None)
            if k is None:
                raise InternalError(
                    f"the block of the create of '{src}', placed where a first assemble runs, is not around a "
                    "second assemble of it", pass_name=self.name, node=let,
                )
            target = let.value.target.name
            conds, loops = self.route(levels, k, let, target, src)
            if not any(all(c in conds for c in path) for path in guarded.paths):
                if guarded.chosen:
                    raise self.chosen_elsewhere(let, src)
                self.widen_guard(stmts, at, levels, k, conds, loops, src, guarded)
        stmts[at] = S.Let.make(let.var, let.value.target, let.span)
        return at

    def widen_guard(self, stmts, at: int, levels: list, k: int, conds: list, loops: list, src: str, guarded) -> None:
        """``place_again``'s check of the assemble at ``stmts[at]``, run where ``conds`` hold, as
        the placement of ``src``, and the ``if`` ``guarded.made`` replaced by one that makes the
        view where a path of the guard or ``conds`` holds (the view itself when ``conds`` always do
        or contradict the one path), the source's own buffer otherwise."""
        let, block = stmts[at], guarded.block
        p = next((j for j, s in enumerate(block) if _holds(s, guarded.made)), None)
        if p is None:
            raise InternalError(f"the create of '{src}' is not in its block", pass_name=self.name, node=let)
        names = scalar_names(conds) - self.available_at(levels, k, p, guarded.chain)
        if names:
            self.refuse_across(
                let, let.value.target.name, src, " and the ".join(_kind_names(levels[k:-1])),
                f"whether this second assemble of it runs is decided by '{_base(sorted(names)[0])}', which is not "
                f"known where '{_base(src)}' is created",
            )
        rows = self.rows_of.pop(src)  # (checked as before its first placement: its accesses are its own)
        try:
            self.check_across(stmts, at, levels, k, p, guarded.chain, loops, self.placed[src])
        finally:
            self.rows_of[src] = rows
        paths = [path for path in guarded.paths if not all(c in path for c in conds)] + [tuple(conds)]
        if len(paths) == 2 and all(len(path) == 1 for path in paths) and (
            paths[0][0] == S.Un(_NOT, paths[1][0]) or paths[1][0] == S.Un(_NOT, paths[0][0])
        ):
            paths = [()]  # (a condition or its negation: every run)
        create = guarded.chain[-1]
        if () in paths:
            made = S.Let.make(create.var, guarded.view, create.span)
            del self.guarded[src]
        else:
            made = _view_or_own(create, guarded.view, *_guard_of(paths))
            self.guarded[src] = guarded._replace(made=made, paths=paths)
        block[p] = self.swap_create(block[p], guarded.made, made)

    def swap_create(self, stmt, old, new):
        """``stmt`` with ``old`` (``stmt`` itself, or a statement of the with blocks in it) replaced by
        ``new``; a rewritten body stands for the body as analysed (``with_create``'s)."""
        if stmt is old:
            return new
        if stmt._production == "If":
            return self.swap_in_branch(stmt, old, new)
        body = stmt.body
        pos = next(j for j, s in enumerate(body) if _holds(s, old))
        new_body = body[:pos] + (self.swap_create(body[pos], old, new),) + body[pos + 1:]
        self.analysed[id(new_body)] = self.analysed.get(id(body), body)
        out = stmt.replace(body=new_body)
        self.was[id(out)] = self.was.get(id(stmt), stmt)
        self.kept_bodies += [new_body, out]
        return out

    def swap_in_branch(self, stmt, old, new):
        """``swap_create`` of an ``if`` (a link of a chain ``_find_create_in_branch`` found): ``stmt``
        with ``old`` (in a branch, or the ifs in it) replaced by ``new``; the rewritten branch
        stands for the branch as analysed."""
        for field in ("then", "orelse"):
            body = getattr(stmt, field)
            pos = next((j for j, s in enumerate(body) if _holds_in_branches(s, old)), None)
            if pos is None:
                continue
            new_body = body[:pos] + (self.swap_create(body[pos], old, new),) + body[pos + 1:]
            self.analysed[id(new_body)] = self.analysed.get(id(body), body)
            out = stmt.replace(**{field: new_body})
            self.was[id(out)] = self.was.get(id(stmt), stmt)
            self.kept_bodies += [new_body, out]
            return out
        raise InternalError("a chosen create is in neither branch of the if that holds it", pass_name=self.name, node=stmt)

    def uses_after(self, levels: list, k: int, loops: list, aliases: set[str]) -> dict[str, int]:
        """The live uses of each name of ``aliases`` after the assemble at the end of ``levels``
        (``_Frame``s; the source made in block ``k``; ``loops``: the levels of the loops around the
        assemble, whose ``Yield``s carry the one buffer and are no use), ``uses_before`` the
        others: the names with a count other than 0."""
        after = {}
        for n in aliases:
            after[n] = self.uses.get(n, 0) - self.uses_before(levels[k:], n)
        for loop in loops:
            body = levels[loop + 1].analysed
            if body and body[-1]._production == "Yield":
                uses = self.uses_of(body)
                for n in aliases:
                    after[n] -= uses.between(n, len(body) - 1, len(body))
        return {n: k for n, k in after.items() if k}

    def check_uses_after(
        self, stmts, at: int, aliases, after: dict[str, int], create, placed, k: int, loops: list, fresh: bool = False,
    ) -> None:
        """The ``after`` live uses (of each name) of the source (``aliases``) after the assemble at ``stmts[at]``
        are reads that see what the copy holds (``reads_after_see_the_copy``): in its block, or in
        it and after the ``with`` blocks, ``if``s and ``pl.range`` loops around it, in program
        order (with blocks flattened): on a path where the assemble ran, each comes after it (the
        statements of a loop's body before the assemble run only before another assemble); on
        another, the source is not placed (``fuse_across``' condition) or not made. Else a user
        error. ``k`` and ``loops`` as ``uses_after``'s; ``fresh``, ``reads_after_see_the_copy``'s."""
        levels = self.levels_to(stmts, at)
        # (the Yields of the loops' bodies, which carry the one buffer: ``uses_after`` counts no use there)
        carried = set()
        for loop in loops:
            body = levels[loop + 1].analysed
            if body and body[-1]._production == "Yield":
                carried.add(id(body[-1]))
        # (the Yield ending the block passes the live results of the statement around it on)
        owners = {id(stmts[-1]): levels[-2].stmt} if len(levels) > 1 and stmts[-1]._production == "Yield" else None
        if self.reads_after_see_the_copy(stmts, at, aliases, after, create, placed, carried, fresh=fresh, owners=owners):
            return
        top = len(levels) - 1
        # (the blocks from the create's down are with blocks, ifs and loops ``fuse_across`` placed
        # through; above it, only a with block's names are seen after it)
        while top > 0 and (top - 1 >= k or levels[top - 1].stmt._production == "Scope"):
            top -= 1
        flat = [stmts[at]]
        for m in range(len(levels) - 1, top - 1, -1):
            flat += _flatten(levels[m].stmts[levels[m].at + 1 :])
        if top < len(levels) - 1 or len(flat) > len(stmts) - at:
            after = self.uses_after(levels, min(top, k), loops, aliases)
            index = _BlockIndex(flat, self.live)
            owners = {}
            for m in range(top, len(levels) - 1):  # (each flattened block's Yield ends the statement around it)
                block = levels[m + 1].stmts
                if block and block[-1]._production == "Yield":
                    owners[id(block[-1])] = levels[m].stmt
            if self.reads_after_see_the_copy(flat, 0, aliases, after, create, placed, carried, index, fresh, owners):
                return
        src, target = _base(create.var.name), _base(stmts[at].value.target.name)
        raise UserError(
            f"'{src}' is used after it was assembled into '{target}'",
            stmts[at].span,
            hint=f"the runtime cannot copy: '{src}' becomes the rows of '{target}' it is assembled into, so only "
            "reads of it that nothing writes either of before them see what the copy holds",
        )

    def never_written(self, create, between: list, aliases: set[str]) -> bool:
        """Whether the source made by ``create`` holds rows never written at its assemble: made
        without an ``init_value``, and nothing in ``between`` (the statements from the create to
        the assemble, bodies included) writes it (``writes_any``, or an assemble into it)."""
        if create.value.init is not None or self.writes_any(between, aliases):
            return False
        for stmt in _statements_in(between):
            if stmt._production == "Let" and stmt.value._production == "AssembleTensor":
                target = stmt.value.target
                if target._production != "Var" or target.name in aliases:
                    return False
        return True

    def writes_any(self, stmts: list, names: set[str]) -> bool:
        """Whether a statement in ``stmts`` (or their bodies) may write a name of ``names``: a task's
        ``Out`` or ``InOut`` argument, a host element write."""
        for stmt in _statements_in(stmts):
            kind = stmt._production
            if kind == "Task":
                if any(v.name in names for v in _written(stmt, self.kernels[stmt.kernel])):
                    return True
            elif kind == "WriteTensor" and stmt.tensor._production == "Var" and stmt.tensor.name in names:
                return True
        return False

    def with_create(self, stmt, chain: list, made):
        """``stmt`` (``chain[0]``) with the create at the end of ``chain`` (the with blocks around
        it, ``_create_chain``'s) replaced by ``made``; a rewritten body stands for the body as
        analysed (``sequence`` walks it later when it is in the block being rewritten)."""
        if len(chain) == 1:
            return made
        body = stmt.body
        pos = _position(body, chain, stmt)
        new = body[:pos] + (self.with_create(body[pos], chain[1:], made),) + body[pos + 1:]
        self.analysed[id(new)] = self.analysed.get(id(body), body)
        out = stmt.replace(body=new)
        self.was[id(out)] = self.was.get(id(stmt), stmt)
        self.kept_bodies += [new, out]  # (their ids must not be reused while the tables hold them)
        return out

    def uses_before(self, levels: list, name: str) -> int:
        """The live uses of ``name`` that come before the assemble at the end of ``levels`` (the
        blocks from the create's down to the assemble's, ``_Frame``s) or beside it: in each block
        up to the statement holding it, and that statement's own (a loop carry's init) and its
        other bodies' (an ``if``'s other branch)."""
        count = 0
        for frame in levels:
            analysed = frame.analysed
            if frame.field is None:  # (the assemble's block: up to it, as analysed)
                end = frame.at + 1 - (len(frame.stmts) - len(analysed))
            else:
                original = self.was.get(id(frame.stmt), frame.stmt)
                end = next((j for j, s in enumerate(analysed) if s is original), None)
                if end is None:
                    return -1  # (not found: no count, so no use after is taken for seen)
                # (the statement's own, a loop carry's init the same buffer, and its other
                # bodies', an if's other branch, that run instead of the assemble's)
                body = getattr(original, frame.field)
                count += self.uses_of(analysed).between(name, end, end + 1)
                count -= self.uses_of(body).between(name, 0, len(body))
            count += self.uses_of(analysed).between(name, 0, end)
        return count

    def refuse_across(self, let, target: str, src: str, what: str, why: str) -> None:
        src, target = _base(src), _base(target)
        raise UserError(
            f"pl.assemble cannot make '{src}' a view of '{target}' (the runtime cannot copy): '{src}' is created "
            f"outside the {what} around the assemble, and {why}",
            let.span,
            hint=f"create '{src}' inside the {what}, in the block of the assemble (a view of '{target}' only where "
            "the assemble runs)",
        )

    def place_by_branch(self, stmts: list, create_at: int, at: int, available: _Available) -> int | None:
        """Place the source when the assemble's target is, on each path, one buffer that exists
        where the source is created, and only an ``if`` between the two (in the same block)
        chooses which: its result (through copies and task results) is the target. The branch
        that will run is known at the create (its condition's names are available there and bound
        once), so the source becomes a slice of an ``if`` over the same condition that yields
        that branch's buffer. Each branch is checked on its own (the ``if`` replaced by that
        branch's statements): the target one buffer there, the placement invisible there. The
        index of the rewritten assemble, or None when the target is no such ``if``'s result."""
        let = stmts[at]
        value = let.value
        target, create = value.target.name, stmts[create_at]
        phi = self.roots.get(target, target)
        s_at = next(
            (
                j
                for j in range(create_at + 1, at)
                if stmts[j]._production == "If" and any(r.name == phi for r in stmts[j].results)
            ),
            None,
        )
        if s_at is None:
            return None
        branch = stmts[s_at]
        if scalar_names([branch.cond]) - available or scalar_names(value.offset) - available:
            return None
        if any(not body or body[-1]._production != "Yield" for body in (branch.then, branch.orelse)):
            return None
        bases = []
        rebound = assigned_names(stmts[s_at:at])
        for body in (branch.then, branch.orelse):
            inline = _inline_branch(branch, body)
            region = inline + stmts[s_at + 1 : at]
            places, roots, named, buffers = self.branch_tables(region, rebound)
            base = buffers.get(target, target)
            if base not in available or places.get(target) != places.get(base):
                return None
            between = stmts[create_at + 1 : s_at] + inline + stmts[s_at + 1 : at]
            outer = self.places, self.roots, self.named
            self.places, self.roots, self.named = places, roots, named
            try:
                rows = assembled_rows(places.get(target), create.value.shape, value.offset)
                self.check_placement_invisible(between, value, create, let, rows)
                self.check_fill_overwritten(between, create, let, target)
            finally:
                self.places, self.roots, self.named = outer
            bases.append(base)
        phi_type = next(r.type for r in branch.results if r.name == phi)
        chosen = S.Binder(f"{_base(create.var.name)}_target__placed", phi_type)
        select = S.If(
            branch.cond,
            [S.Yield([S.Var(bases[0], span=value.target.span)])],
            [S.Yield([S.Var(bases[1], span=value.target.span)])],
            [chosen],
            span=let.span,
        )
        chosen_var = S.Var(chosen.name, span=value.target.span)
        slice_ = S.SliceTensor(chosen_var, create.value.shape, value.offset, False, False, True)
        stmts[create_at] = S.Let(create.var, slice_, span=create.span)
        stmts.insert(create_at, select)  # (it binds a name of its own, never asked for: not in ``_Available``)
        self.by_branch = True
        stmts[at + 1] = S.Let(let.var, value.target, span=let.span)
        self.place_rows(create.var.name, frozenset((root, UNKNOWN) for base in bases for root, _ in self.places.get(base, ())))
        return at + 1

    def branch_tables(self, region: list, rebound) -> tuple:
        """The places, roots, names by root and roots with every loop carry its own buffer (it
        may hold another one in each iteration) of the whole function in which ``region`` (a
        branch of an ``if`` inlined, then the statements after it up to an assemble) stands for
        the statements binding ``rebound``: those are walked again, the rest keep theirs (places
        over every path: in a loop another iteration may take the other branch). What a name is
        depends only on what is bound before it, so the walks start from the function's tables
        with the rebound names left out, and cost the region, not the function."""
        if self.roots_of_buffers is None:
            self.roots_of_buffers = buffer_roots(self.func, self.kernels, lambda it: False)
        places, roots = _Shadowed(self.places, rebound), _Shadowed(self.roots, rebound)
        buffers = _Shadowed(self.roots_of_buffers, rebound)
        walk_storage(region, places, self.kernels)
        extend_buffer_roots(roots, region, self.kernels)
        extend_buffer_roots(buffers, region, self.kernels, lambda it: False)
        return places, roots, _ShadowedNames(self.named, roots), buffers

    def place_rows(self, src: str, rows: frozenset) -> None:
        """Record that the source ``src`` is now the ``(root, region)`` pairs ``rows``."""
        self.rows_of[src] = rows
        for root, _ in rows:
            self.placed_in.setdefault(root, set()).add(src)

    def storage(self, places) -> set:
        """``places`` (``storage_map``'s, made before any placement) with, for a source placed
        since, the rows of its target it now is: an access to it is an access to them."""
        rows_of = self.rows_of
        out = None
        for root, _ in places:
            rows = rows_of.get(root)
            if rows:
                if out is None:
                    out = set(places)
                out |= rows
        return places if out is None else out

    def hoist_target_create(self, stmts: list, create_at: int, at: int, target: str, available: _Available) -> int:
        """Move ``target``'s create (between create_at and at) to create_at; 0 if impossible."""
        for j in range(create_at + 1, at):
            stmt = stmts[j]
            if stmt._production == "Let" and stmt.var.name == target and stmt.value._production == "CreateTensor":
                if scalar_names(stmt.value.shape) - available:
                    return 0
                stmts.insert(create_at, stmts.pop(j))
                available.move(target)
                return j
        return 0

    def reads_after_see_the_copy(
        self, stmts, at: int, aliases: set[str], count: dict[str, int], create, placed: Placement, carried=frozenset(),
        index: "_BlockIndex | None" = None, fresh: bool = False, owners: dict | None = None,
    ) -> bool:
        """Whether the ``count`` live uses of the source after the assemble at ``stmts[at]`` are
        all in ``stmts`` and, up to the first statement that may write the source (a task's
        ``Out`` or ``InOut`` argument, a host element write), all reads (a task's ``In`` argument,
        a host element read, through views and copies made after it, an assemble of the source
        into the rows it is placed in) that nothing writes the rows the source is placed in, nor
        the source, between the assemble and them: placed, such a read sees the rows the assemble
        copied, which hold what the source holds. From a write of the source on, the source and
        the rows it is placed in may differ as written: the uses after it are invisible when
        nothing reads or writes those rows from there on (``rows_unused_from``). A ``Yield`` whose
        id is in ``carried`` (a loop's body's around which the source is made) is no use: it
        carries the one buffer; another passes the source on to a name of the ``if`` or loop it
        ends (``_held_copies``), whose uses are the source's; ``owners`` holds, by id, the
        statement a ``Yield`` ending a block around ``stmts`` ends (whose live results tell
        which of its values are uses). With ``index`` (of ``stmts`` as they are, not a block as
        analysed), a write of the source after the assemble is no read. With ``fresh`` (the
        source was never written before the assemble: ``never_written``), a write of the rows
        before a read is no matter: the copy and the source hold undefined rows, which a read of
        the source may see as anything (a statement that also reads the source still counts: it
        would read and write the same bytes through two arguments); a write of the source still
        is (from it on the rows must be unused)."""
        src = create.var.name
        names = set(aliases)
        seen: dict[str, int] = {}  # name -> its live uses walked
        last, diverged = None, None
        shift, analysed = 0, index is None  # (``rows_unused_from`` reads the block as analysed)
        if analysed:
            index, shift = self.index_of(self.block), len(stmts) - len(self.block)
        # (the other statements mention none of names; a plain block mentions none it does not access)
        pending = _Pending((index.positions, index.mentioned) if index.mentioned else (index.positions,), shift, at, names)
        owners = dict(owners or {})  # id(a Yield) -> the if or loop it ends
        for j in pending:
            if stmts[j]._production in BODY_FIELDS:
                # (the names its if results and loop carries may hold a name of names through: a
                # copy, whose uses are the source's; a carry's are so in every iteration)
                for name in _held_copies(stmts[j], names):
                    names.add(name)
                    pending.add(name)
                owners.update(_yield_owners([stmts[j]]))
            for stmt in _statements_in([stmts[j]]):
                kind = stmt._production
                if kind == "Yield" and id(stmt) not in owners and id(stmt) not in carried:
                    return False  # (which of its values are live uses is not known: not counted)
                if kind in BODY_FIELDS or kind == "Yield":  # (its live uses, as ``live_uses`` counts them)
                    uses = _live_control_uses(stmt, owners.get(id(stmt)), self.live)
                else:  # (a dead pure let's reads are no live uses: passed over below)
                    uses = stmt_reads(stmt)
                if not names & uses.keys() or (kind == "Yield" and id(stmt) in carried):
                    continue
                if kind == "Let" and stmt.value._production in dead_values.PURE and stmt.var.name not in self.live:
                    continue
                if kind == "Let" and stmt.value._production in VIEWS:
                    names.add(stmt.var.name)
                    pending.add(stmt.var.name)
                elif kind == "Let" and stmt.value._production == "ReadTensor":
                    pass
                elif kind in BODY_FIELDS or kind == "Yield":
                    pass  # (a carry's init or a yielded value: a copy, held by a name of names)
                elif self.same_rows(stmt, src, placed):
                    pass
                elif kind == "Task" and not _writes_one_of(stmt, self.kernels[stmt.kernel], names):
                    pass
                elif diverged is None and analysed and kind in ("Task", "WriteTensor"):
                    diverged = j
                elif diverged is None:
                    return False
                for n, k in uses.items():
                    if n in aliases:
                        seen[n] = seen.get(n, 0) + k
                last = j if diverged is None else last
        if seen != count:
            # (a use outside the block, after a with block the assemble is in; or one not walked:
            # name by name, so that no use counted twice stands for one not walked)
            return False
        if diverged is not None and not self.rows_unused_from(stmts, at, diverged, placed):
            return False
        end = diverged if diverged is not None else (last + 1 if last is not None else at + 1)
        # a write between of the rows the source is placed in, or of the source's own buffer,
        # would make the read see something else than the copy
        regions: dict[str, list] = {}  # root -> its regions among those rows and the source's places
        own: dict[str, list] = {}  # root -> its regions among the source's places
        for root, region in placed.rows:
            regions.setdefault(root, []).append(region)
        for n in aliases:  # (a name that may be another buffer too, a carry, is the source only in its own)
            for root, region in self.places.get(n, ()):
                if root == src:
                    regions.setdefault(root, []).append(region)
                    own.setdefault(root, []).append(region)
        places = self.places
        for stmt in _statements_in(stmts[at + 1 : end]):
            kind = stmt._production
            if kind == "Task":
                written = [places.get(e.name, ()) for e in _written(stmt, self.kernels[stmt.kernel])]
            elif kind == "WriteTensor":
                written = [element_places(stmt, places, self.roots)]
            elif kind == "Let" and stmt.value._production == "AssembleTensor" and not self.same_rows(stmt, src, placed):
                written = [self.rows_filled(stmt.value)]
            else:
                continue
            checked = own if fresh and not names & var_reads([stmt]).keys() else regions
            for where in written:
                for root, region in self.storage(where):
                    for placed_region in checked.get(root, ()):
                        if overlaps(region, placed_region):
                            return False
        return True

    def rows_filled(self, value) -> set | frozenset:
        """The places an assemble (``value``) writes: the rows of its target its source fills when
        the source is a name made by ``pl.create_tensor`` (its shape known), else the target's."""
        target, source = value.target, value.source
        if target._production != "Var":
            return ()
        places = self.places.get(target.name, ())
        create = self.creates.get(self.roots.get(source.name, source.name)) if source._production == "Var" else None
        if create is None or not places:
            return places
        return assembled_rows(places, create.shape, value.offset)

    def rows_unused_from(self, stmts, at: int, start: int, placed: Placement) -> bool:
        """Whether nothing reads or writes the rows ``placed`` in ``stmts[start:]`` or after them:
        every buffer they are in is made by ``pl.create_tensor`` (a parameter's rows are read by
        the caller), and the names stored there (a placed source's counting for its rows) occur
        only in ``stmts[:start]``, in a loop only after the assemble at ``stmts[at]`` unless the
        buffer is made in ``stmts[:at]`` (anew each iteration). A write of the source there then
        changes no value that anything reads in those rows."""
        roots = {root for root, _ in placed.rows}
        if not roots or not roots <= self.creates.keys():
            return False
        shift = len(self.block) - len(stmts)  # (as analysed: stmts before at may be rewritten)
        accesses = self.index_of(self.block)
        made = accesses.made
        first = at if self.in_loop and not all(made.get(root, at + shift) < at + shift for root in roots) else 0
        lo, hi = (first + shift if first else 0), start + shift
        everywhere = self.function_accesses()
        # (a name accessed only in ``stmts[lo:hi]`` passes whatever its storage: whether it is in
        # the rows is asked only of a name accessed elsewhere too)
        storage, places = self.storage, self.places
        for name in self.stored_in(roots):
            if everywhere.get(name, 0) != accesses.between(name, lo, hi) and any(
                r == root and overlaps(region, rows) for r, region in storage(places[name]) for root, rows in placed.rows
            ):
                return False
        return True

    def uses_of(self, block) -> BlockUses:
        """The live uses of ``block`` (of the function as analysed), indexed, with its binders."""
        return self.parts[id(block)]

    def index_of(self, block) -> "_BlockIndex | BlockUses":
        """The accesses of ``block`` (of the function as analysed), indexed (``_BlockIndex``): the
        index of its live uses when the block is plain (its accesses are its uses)."""
        found = self.indexes.get(id(block))
        if found is None:
            uses = self.parts.get(id(block))
            if INDEX_FROM_USES and uses is not None and uses.plain:
                found = uses
            else:
                found = _BlockIndex(block, self.live, uses)
            self.indexes[id(block)] = found
        return found

    def function_accesses(self) -> dict[str, int]:
        """``_accesses`` of the analysed function's body: the counts of its top block's
        statements (``index_of``, each statement's count holding its bodies')."""
        if self.accesses_everywhere is None:
            body = self.func.body
            top = self.index_of(body)
            if top is self.parts.get(id(body)):  # (the live uses' index: ``uses`` holds its counts)
                self.accesses_everywhere = self.uses
            else:
                self.accesses_everywhere = {name: len(at) for name, at in top.positions.items()}
        return self.accesses_everywhere

    def stored_in(self, roots: set[str]) -> set[str]:
        """Every name with places (``storage_map``'s) whose storage (``storage``) may be in a buffer
        of ``roots``: stored in one, or in a source placed in one (a superset)."""
        holders = set(roots)
        for root in roots:
            holders |= self.placed_in.get(root, set())
        out: set[str] = set()
        for holder in holders:
            out |= self.aliases_of.get(holder, set())
        return {name for name in out if name in self.places}

    def check_placement_invisible(self, between, value, create, let, rows: frozenset, reads: bool = True) -> None:
        """Nothing in ``between`` (the statements from the source's create to the assemble) reads
        or writes ``rows``, the rows of the target the source is placed in (``assembled_rows``);
        without ``reads``, nothing writes them (a read is checked only with a write of the
        source). A host read whose value is dead (``self.live``) reads nothing observable. An
        assemble of another source not rewritten yet (in a body walked after this block's, or
        later in it) writes the rows its source fills; a rewritten one is its source's accesses."""
        target, src = value.target.name, create.var.name

        row_roots = set()
        for r, _ in rows:
            row_roots.add(r)
        storage, places_of = self.storage, self.places

        def touches(expr, places=None) -> bool:
            if expr._production != "Var":
                return False
            for root, region in storage(places if places is not None else places_of.get(expr.name, ())):
                if root in row_roots:
                    for r, placed in rows:
                        if root == r and overlaps(region, placed):
                            return True
            return False

        for stmt in _statements_in(between):
            kind = stmt._production
            if kind == "Task":
                kernel = self.kernels[stmt.kernel]
                for arg, param in zip(stmt.args, kernel.params):
                    if not touches(arg.value):
                        continue
                    task = f"task {stmt.kernel} (line {_line(stmt)})"
                    if param.dir is not _IN:
                        self.refuse(let, target, src, f"{task} writes", "write")
                    if any(self.roots.get(o.name, o.name) == src for o in _written(stmt, kernel)):
                        self.refuse(let, target, src, f"{task}, which writes '{_base(src)}', reads", "same")
                    if reads:
                        self.refuse(let, target, src, f"{task} reads", "read")
            elif kind == "Let" and stmt.value._production == "AssembleTensor":
                assembled = stmt.value
                source = assembled.source
                if source._production == "Var":
                    held = {root for root, _ in self.places.get(source.name, ())}
                    held.add(self.roots.get(source.name, source.name))
                    if src in held or held & self.choosing or not held <= self.creates.keys():
                        # (the source itself, a name that may hold it, or another create of the
                        # choice placing it: an assemble of one of those into these rows is no
                        # copy where it is the view, and refused where it may run otherwise, in
                        # its turn: ``place_again``, ``chosen_elsewhere``, ``placed_elsewhere``; a
                        # source not made by pl.create_tensor is refused in its turn, naming it)
                        continue
                if touches(assembled.target, self.rows_filled(assembled)):
                    self.refuse(let, target, src, f"the pl.assemble of line {_line(stmt)} writes", "write")
            elif host_target(stmt) is not None:
                tensor, write = host_target(stmt)
                if not write and stmt.var.name not in self.live:
                    continue  # (a host read whose value nothing uses observes nothing: found/59)
                if (reads or write) and touches(
                    tensor, element_places(stmt, self.places, self.roots) if tensor._production == "Var" else None,
                ):
                    self.refuse(
                        let, target, src, f"the host (line {_line(stmt)}) {'writes' if write else 'reads'}",
                        "write" if write else "read",
                    )

    def check_fill_overwritten(self, between, create, let, target: str) -> None:
        """A source made with an ``init_value`` keeps its fill only as its own buffer: placed in the
        target it is a view, which nothing fills. The placement is invisible only when, on every
        path through ``between``, a task writes all of the source through an ``Out`` parameter
        before anything reads it (``fill_overwritten``)."""
        if create.value.init is None:
            return
        src = create.var.name
        aliases = self.names_of(src) | self.aliases_of.get(src, set()) | {src}
        if self.fill_overwritten(between, aliases, {src}):
            return
        src_name, target = _base(src), _base(target)
        raise UserError(
            f"pl.assemble cannot make '{src_name}' a view of '{target}' (the runtime cannot copy): '{src_name}' is "
            f"made with an init_value, and as a view of '{target}' nothing would fill it; a read of '{src_name}', "
            f"or of '{target}' after the assemble, would not see the fill",
            let.span,
            hint=f"write all of '{src_name}' with a task's Out argument before other uses, or drop the init_value",
        )

    def fill_overwritten(self, stmts, aliases: set[str], whole: set[str]) -> bool | None:
        """Whether ``stmts``, run in order, overwrite the source (``aliases``: the names stored in
        it, to which the views of them made in ``stmts`` are added) before anything reads it:
        True when, on every path, a task writes a name of ``whole`` (the source itself, a copy of
        it) through an ``Out`` parameter, every other argument of it stored in the source an
        ``Out`` one too, and nothing before reads the source (a view of it made, a host element
        write, a host read whose value nothing uses, a task writing it only through ``Out``
        arguments read nothing); False when something may read it first, or a ``Yield`` passes it
        on; None when ``stmts`` neither read nor overwrite it. Through an ``if`` whose branches
        both overwrite it (or neither mentions it), and the first iteration of a ``pl.range`` loop
        known to run (constant bounds, a positive constant step) whose body does, its carry
        started from a name of ``whole`` being the source there."""
        for stmt in stmts:
            if not _vars_in_stmt(stmt) & aliases:
                continue
            kind = stmt._production
            if kind == "Let":
                value = stmt.value
                if value._production in VIEWS:
                    aliases.add(stmt.var.name)  # (stored in the source: its reads are the source's)
                    if value._production == "Var" and value.name in whole:
                        whole = whole | {stmt.var.name}
                    continue
                if value._production == "ReadTensor" and stmt.var.name not in self.live:
                    continue
                return False
            if kind == "WriteTensor":
                if stmt.tensor._production == "Var" and stmt.tensor.name in aliases and not var_reads(
                    [stmt.value, *stmt.index]
                ).keys() & aliases:
                    continue
                return False
            if kind == "Task":
                kernel = self.kernels[stmt.kernel]
                uses = [(a.value, p) for a, p in zip(stmt.args, kernel.params)
                        if a.value._production == "Var" and a.value.name in aliases]
                if not uses or len(uses) != len([a for a in stmt.args if var_reads([a.value]).keys() & aliases]):
                    return False  # (the source read in an expression, or a launch's)
                if all(p.dir is _OUT for _, p in uses):
                    if any(v.name in whole for v, _ in uses):
                        return True
                    continue
                return False
            if kind == "If":
                then = self.fill_overwritten(stmt.then, aliases, whole)
                orelse = self.fill_overwritten(stmt.orelse, aliases, whole)
                if then is True and orelse is True:
                    return True
                if then is None and orelse is None:
                    continue  # (neither branch mentions the source but in views of it)
                return False
            if kind == "For" and stmt.kind is _SEQ and all(
                e._production == "Int" for e in (stmt.start, stmt.stop, stmt.step)
            ) and stmt.step.value > 0 and stmt.start.value < stmt.stop.value:
                first = whole | {it.var.name for it in stmt.iters if it.init._production == "Var" and it.init.name in whole}
                if self.fill_overwritten(stmt.body, aliases, first) is True:
                    return True
                return False
            return False  # (a Yield of the source among them: a result that may be it is no name of aliases)
        return None

    def refuse(self, let, target: str, src: str, use: str, kind: str) -> None:
        src, target = _base(src), _base(target)
        why = {
            "write": f"as a view, that write would go to the bytes '{src}' writes instead of being overwritten by the assemble",
            "read": f"as a view, the read would see '{src}' there before the assemble",
            "same": "as a view, the task would read the bytes it writes",
        }[kind]
        raise UserError(
            f"pl.assemble cannot make '{src}' a view of '{target}' (the runtime cannot copy): {use} the rows of "
            f"'{target}' that '{src}' would share, between the creation of '{src}' and the assemble; {why}",
            let.span,
            hint=f"move that use of '{target}' before the creation of '{src}', or after the assemble",
        )


class _Guarded(NamedTuple):
    """A source ``fuse_across`` made a view only where an assemble of it runs: the block of its
    create (``sequence``'s list), the ``if`` that makes it there (the view, or its own buffer), the
    with blocks around the create and the create as analysed (``_create_chain``'s), the view, and
    the paths (each a tuple of conditions that all hold) on which the ``if`` makes the view."""

    block: list
    made: object
    chain: list
    view: object
    paths: list
    chosen: bool = False  # (made by ``place_chosen``: another create is the view on the other paths)


class _Across(NamedTuple):
    """How ``apply_across`` places a source made in another block (``plan_across``'s): the block
    of its create (``sequence``'s list) and the create's place in it, the with blocks around the
    create and the create (``_create_chain``'s), the buffer the view is of, the placement, the
    ``if``'s condition under which the create is the view (None: always) and whether the view is
    its ``then`` branch, the paths on which it is (``_Guarded``'s), and whether ``place_chosen``
    chose the create among others."""

    block: list
    p: int
    chain: list
    base: object
    placed: Placement
    guard: object
    in_then: bool
    paths: list
    chosen: bool


def _find_create(levels: list, src: str) -> tuple | None:
    """``(k, p, chain)``: the create of ``src`` in the block of ``levels[k]`` (``_Frame``s) at ``p``,
    before the statement of that block on the way to the last level (``_create_chain``'s chain:
    the with blocks around it, then the create); None when none of those blocks makes it."""
    for k in range(len(levels) - 1, -1, -1):
        block, q = levels[k].stmts, levels[k].at
        for p in range(q - 1, -1, -1):
            chain = _create_chain(block[p], src)
            if chain is not None:
                return k, p, chain
    return None


def _find_create_in_branch(levels: list, src: str) -> tuple | None:
    """``_find_create``'s ``(k, p, chain)`` for a create of ``src`` made in a branch of an ``if`` (or
    of ifs nested in one) that stands before the assemble in the block of ``levels[k]`` at ``p``:
    ``chain`` the ifs from ``block[p]`` down, then the create (``_link_body`` tells an if's branch
    on the way). No loop is on that way: a create in a loop may be made several times before the
    assemble. None when no such if makes it."""
    for k in range(len(levels) - 1, -1, -1):
        block, q = levels[k].stmts, levels[k].at
        for p in range(q - 1, -1, -1):
            if block[p]._production == "If":
                chain = _branch_chain(block[p], src)
                if chain is not None:
                    return k, p, chain
    return None


def _branch_chain(stmt, src: str) -> list | None:
    """``_create_chain`` through the branches of ``if``s (not with blocks: a create in a with block in
    a branch is not looked for)."""
    kind = stmt._production
    if kind == "Let":
        return [stmt] if stmt.var.name == src and stmt.value._production == "CreateTensor" else None
    if kind != "If":
        return None
    for inner in stmt.then + stmt.orelse:
        chain = _branch_chain(inner, src)
        if chain is not None:
            return [stmt, *chain]
    return None


def _without_branch_conditions(paths: list, chain: list) -> list:
    """``paths`` without the conditions that hold where the create at the end of ``chain`` is made:
    those of the branches of the ``if``s on its way (``_find_create_in_branch``'s), an ``if``'s
    condition in its ``then`` branch, its negation in its ``else`` branch."""
    held = []
    for stmt in chain[:-1]:
        if stmt._production == "If":
            in_then = _link_body(stmt, chain) is stmt.then
            held.append(stmt.cond if in_then else S.Un(_NOT, stmt.cond, span=stmt.cond.span))
    if not held:
        return paths
    return [tuple(c for c in path if c not in held) for path in paths]


def _loop_around_create(stmts, src: str, loop=None):
    """The innermost ``pl.range``, ``pl.parallel`` or ``pl.while_`` loop in ``stmts`` around the
    create of ``src`` (``loop`` when the create is in ``stmts`` themselves); None when none is."""
    for stmt in stmts:
        kind = stmt._production
        if kind == "Let" and stmt.var.name == src and stmt.value._production == "CreateTensor":
            return loop
        for field in BODY_FIELDS.get(kind, ()):
            found = _loop_around_create(getattr(stmt, field), src, stmt if kind in ("For", "While") else loop)
            if found is not None:
                return found
    return None


def _link_body(stmt, chain: list):
    """The statements of ``stmt`` (a link of ``chain``) that hold the chain's next link: a with
    block's body, or the branch of an ``if`` that does."""
    if stmt._production != "If":
        return stmt.body
    following = chain[chain.index(stmt) + 1]
    return stmt.then if any(s is following for s in stmt.then) else stmt.orelse


def _holds_in_branches(stmt, inner) -> bool:
    """Whether ``stmt`` is ``inner`` or holds it in the branches of its ``if``s (``_branch_chain``'s)."""
    if stmt is inner:
        return True
    return stmt._production == "If" and any(_holds_in_branches(s, inner) for s in stmt.then + stmt.orelse)


def _trips_are(start, stop, j: int, first: int, period: int, span) -> list:
    """The paths (each a tuple of conditions) on which a loop from ``start`` to ``stop`` of step 1
    runs ``T`` trips with ``T == j`` (``j < first``) or ``T >= first`` and ``T - first`` equal to
    ``j - first`` modulo ``period``: none when the bounds are constants and it does not, one
    empty path when they are and it does."""
    if start._production == stop._production == "Int":
        trips = max(0, stop.value - start.value)
        return [()] if (trips == j if j < first else trips >= first and (trips - first) % period == j - first) else []
    runs = S.Cmp(_LT, start, stop, span=span)
    trips = stop if start._production == "Int" and start.value == 0 else S.Bin(_SUB, stop, start, span=span)

    def number(value: int):
        return S.Int(value, _INDEX, span=span)

    if j < first:
        return [(S.Un(_NOT, runs, span=span),)] if j == 0 else [(runs, S.Cmp(_EQ, trips, number(j), span=span))]
    conds = [] if first == 0 else [S.Cmp(_GE, trips, number(first), span=span)]
    if period > 1:
        beyond = trips if first == 0 else S.Bin(_SUB, trips, number(first), span=span)
        conds.append(S.Cmp(_EQ, S.Bin(_MOD, beyond, number(period), span=span), number(j - first), span=span))
    if first == 0 and j == 0:  # (no trip at all is T = 0 too)
        return [(S.Un(_NOT, runs, span=span),), (runs, *conds)]
    return [(runs, *conds)]


def _view_or_own(create, view, guard, in_then: bool):
    """The ``if`` over ``guard`` that binds the name of ``create`` to ``view`` (in its ``then``
    branch when ``in_then``) or to a buffer of its own made as ``create`` makes it."""
    span, src, kind = create.span, create.var.name, create.var.type
    view_b, own_b = S.Binder(f"{src}__placed", kind), S.Binder(f"{src}__own", kind)
    branches = [
        [S.Let(view_b, view, span=span), S.Yield([S.Var(view_b.name, span=span)], span=span)],
        [S.Let(own_b, create.value, span=span), S.Yield([S.Var(own_b.name, span=span)], span=span)],
    ]
    if not in_then:
        branches.reverse()
    return S.If(guard, *branches, [create.var], span=span)


def _guard_of(paths: list) -> tuple:
    """``(guard, in_then)``: the disjunction of ``paths`` (each a tuple of conditions that all
    hold), and whether an ``if`` over it takes its ``then`` branch where a path holds (False: the
    guard is the negated condition of a lone path, given without its negation)."""
    guard, in_then = None, True
    if () in paths:  # (a path with no condition: every run)
        return None, True
    for path in paths:
        both = None
        for cond in path:
            both = cond if both is None else S.Bin(_AND, both, cond, span=cond.span)
        guard = both if guard is None else S.Bin(_OR, guard, both, span=both.span)
    if guard._production == "Un" and guard.op is _NOT:  # (an if's else branch alone: the if swapped)
        guard, in_then = guard.a, False
    return guard, in_then


class _Frame(NamedTuple):
    """A block around the one being rewritten (``sequence``'s): its statements (as rewritten so
    far), the block as analysed, the position of the statement whose body is walked, that
    statement, which of its bodies, and how many names ``defined_before`` held before the block."""

    stmts: list
    analysed: tuple
    at: int
    stmt: object
    field: str | None
    start: int


def _check_offset_known(value, src: str, available, let) -> None:
    """The assemble's offset reads only names ``available`` where its source ``src`` is created."""
    if _constants(value.offset):  # (mostly: it reads no name)
        return
    missing = scalar_names(value.offset) - available
    if missing:
        raise UserError(
            f"the assemble offset uses '{_base(sorted(missing)[0])}', which is not known where '{_base(src)}' is created",
            let.span,
        )


def _source_a_view(src: str, other: str, let) -> UserError:
    return UserError(
        f"pl.assemble needs a source made by pl.create_tensor; '{_base(src)}' may be a view of '{_base(other)}' here",
        let.span,
        hint="the runtime cannot copy tensors: assemble the create itself, written by its tasks, on every path",
    )


def _target_missing(target: str, src: str, let) -> UserError:
    return UserError(
        f"the target '{_base(target)}' of pl.assemble must exist before its source '{_base(src)}' is created", let.span,
    )


def _kind_names(levels: list) -> list[str]:
    """What the user calls the ``if``s and loops among the statements of ``levels`` (``_Frame``s)."""
    return ["if" if f.stmt._production == "If" else "pl.range loop" for f in levels if f.stmt._production != "Scope"]


def _exclusive_creates(branch, sets: list) -> tuple | None:
    """Two ``pl.create_tensor`` lets, one directly in each branch of the ``if`` ``branch`` (not in
    a loop or an ``if`` inside it: each runs exactly once when its branch runs, and no run takes
    both), both in one set of ``sets``
    (the buffers an assemble's source may be), of the same shape, dtype, fill and tracking, the
    shape and fill reading no name the ``if`` binds (the same values at both, and before the
    ``if``): the ``then`` branch's and the ``else`` branch's; None when there are none."""
    made = [
        {s.var.name: s for s in body if s._production == "Let" and s.value._production == "CreateTensor"}
        for body in (branch.then, branch.orelse)
    ]
    if not made[0] or not made[1]:
        return None
    bound = None
    for roots in sets:
        for a, first in made[0].items():
            if a not in roots:
                continue
            for b, second in made[1].items():
                if b not in roots or not _same_create(first.value, second.value):
                    continue
                if bound is None:
                    bound = assigned_names([branch])
                if not scalar_names([*first.value.shape, first.value.init]) & bound:
                    return first, second
    return None


def _in_both_branches(stmts, roots: set[str]) -> bool:
    """Whether an ``if`` in ``stmts`` (wherever nested) makes a create of ``roots`` at the top of
    each of its branches."""
    for stmt in iter_stmts(stmts):
        if stmt._production == "If" and all(
            any(s._production == "Let" and s.var.name in roots and s.value._production == "CreateTensor" for s in body)
            for body in (stmt.then, stmt.orelse)
        ):
            return True
    return False


def _same_create(a, b) -> bool:
    """Whether two ``CreateTensor`` values make buffers no read can tell apart: the same shape
    (names and constants), dtype, tracking and fill (none, or the same literal or name)."""
    if a.dtype != b.dtype or a.manual_dep != b.manual_dep or not same_exprs(a.shape, b.shape):
        return False
    if a.init is None or b.init is None:
        return a.init is None and b.init is None
    if a.init._production in ("Int", "Float") and a.init._production == b.init._production:
        return a.init.value == b.init.value and a.init.dtype == b.init.dtype
    return same_exprs([a.init], [b.init])


def _holds(stmt, inner) -> bool:
    """Whether ``stmt`` is ``inner`` or holds it in its with blocks."""
    if stmt is inner:
        return True
    return stmt._production == "Scope" and any(_holds(s, inner) for s in stmt.body)


def _create_chain(stmt, src: str) -> list | None:
    """``[stmt]`` when it is the ``pl.create_tensor`` of ``src``; the with blocks from ``stmt`` in
    which it is made (names escape a scope), then the create, when it is made in one; else None."""
    kind = stmt._production
    if kind == "Let":
        return [stmt] if stmt.var.name == src and stmt.value._production == "CreateTensor" else None
    if kind != "Scope":
        return None
    for inner in stmt.body:
        chain = _create_chain(inner, src)
        if chain is not None:
            return [stmt, *chain]
    return None


def _position(body, chain: list, stmt) -> int:
    """The position in ``body`` (of ``stmt``, a with block of ``chain``) of the chain's next link."""
    following = chain[chain.index(stmt) + 1]
    return next(j for j, s in enumerate(body) if s is following)


def _flatten(stmts) -> list:
    """``stmts`` with each with block replaced by its statements, wherever it is nested in them."""
    out = []
    for stmt in stmts:
        if stmt._production == "Scope":
            out += _flatten(stmt.body)
        else:
            out.append(stmt)
    return out


def _statements_in(stmts: list):
    """``iter_stmts`` of a few statements of a block: the list itself when none has bodies (as
    between a source's create and its assemble, mostly), without making a walk of it."""
    for stmt in stmts:
        if stmt._production in BODY_FIELDS:
            return iter_stmts(stmts)
    return stmts


def _accesses(stmts) -> dict[str, int]:
    """How often each name occurs in ``stmts`` (wherever nested) where it may be read or written:
    not in a ``Yield`` nor as a loop carry's init (the carry is stored where its init is, and
    its own occurrences count)."""
    counts: dict[str, int] = {}
    for stmt in iter_stmts(stmts):
        kind = stmt._production
        if kind == "Yield":
            continue
        if kind == "For":
            nodes = [stmt.start, stmt.stop, stmt.step]
        elif kind in ("While", "If"):
            nodes = [stmt.cond]
        else:
            nodes = [] if kind in BODY_FIELDS else [stmt]
        for name, k in var_reads(nodes).items():
            counts[name] = counts.get(name, 0) + k
    return counts


class _BlockIndex(Counts):
    """One block of the analysed function, indexed in one pass over its statements: how often each
    statement accesses each name (``_accesses``, indexed as ``Counts``); the positions of those
    that mention a name (a ``Var`` of it anywhere in the statement, its bodies included) without
    accessing it (``mentioned``: in a ``Yield`` or as a loop carry's init); and ``made``, the
    position of each ``pl.create_tensor``. A statement without bodies but a ``Yield`` accesses
    what it mentions, its reads (``stmt_reads``). When every statement's accesses are its live
    uses (none has bodies or is a ``Yield``, none is a let reading something whose pure value is
    dead: not ``live``), the block's live uses (``uses``, ``live_uses``' index of them, when
    given) are its accesses: their index is shared."""

    def __init__(self, block, live: set[str], uses: Counts | None = None):
        self.mentioned: dict[str, list[int]] = {}
        self.made: dict[str, int] = {}
        made, parts = self.made, []
        shared = uses is not None
        for j, stmt in enumerate(block):
            kind = stmt._production
            if kind in BODY_FIELDS or kind == "Yield":
                shared = False
                counts = _accesses([stmt])
                for name in var_reads([stmt]):
                    if name not in counts:
                        self.mentioned.setdefault(name, []).append(j)
            else:
                counts = stmt_reads(stmt)
                if shared and counts and kind == "Let" and stmt.value._production in dead_values.PURE and (
                    stmt.var.name not in live
                ):
                    shared = False  # (its reads are accesses, not live uses)
                if kind == "Let" and stmt.value._production == "CreateTensor":
                    made[stmt.var.name] = j
            parts.append(counts)
        if shared:
            self.positions = uses.positions
        else:
            super().__init__(parts)


class _Pending:
    """An iterator over the positions after ``at`` (increasing, each once) of the statements that
    mention a name of ``names`` or one ``add``-ed since (its positions after the last one given),
    from ``tables`` of the positions of a block's statements (each table some of them), the
    statements from ``at`` on ``shift`` further on than there."""

    def __init__(self, tables: tuple, shift: int, at: int, names):
        self.tables, self.shift, self.current = tables, shift, at
        self.heap: list[int] = []
        self.queued: set[int] = set()
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        for table in self.tables:
            positions = table.get(name, ())
            for p in positions[bisect_right(positions, self.current - self.shift):]:
                if p not in self.queued:
                    self.queued.add(p)
                    heappush(self.heap, p)

    def __iter__(self) -> "_Pending":
        return self

    def __next__(self) -> int:
        if not self.heap:
            raise StopIteration
        self.current = heappop(self.heap) + self.shift
        return self.current


def _inline_branch(branch, body) -> list:
    """``body`` of the ``if`` ``branch`` as statements of the enclosing block: its statements
    without the ending ``Yield``, then each result bound to the value the branch yields for it."""
    stmts = list(body)
    if not branch.results:
        return stmts
    yielded = stmts.pop()  # (the SSA invariant: a branch of an if with results ends with a Yield)
    return stmts + [S.Let(res, val, span=branch.span) for res, val in zip(branch.results, yielded.values)]


VIEWS = frozenset({"Var", "SliceTensor", "TransposeTensor", "ReshapeTensor"})


def _yield_owners(stmts) -> dict:
    """id(a ``Yield`` in ``stmts``, wherever nested) -> the ``if`` or loop whose body it ends."""
    owners = {}
    for stmt in iter_stmts(stmts):
        for field in BODY_FIELDS.get(stmt._production, ()):
            body = getattr(stmt, field)
            if body and body[-1]._production == "Yield":
                owners[id(body[-1])] = stmt
    return owners


def _live_control_uses(stmt, owner, live: set[str]) -> dict[str, int]:
    """The live uses (``live_uses``') of a statement with bodies itself (its condition or bounds,
    the inits of its live carries) or of a ``Yield`` (the values of its ``owner``'s live results;
    all of them when its owner is not known)."""
    kind = stmt._production
    if kind == "Yield":
        values = stmt.values
        if owner is not None and owner._production == "If":
            values = [v for v, res in zip(values, owner.results) if res.name in live]
        elif owner is not None and owner._production in ("For", "While"):
            values = [v for v, it, res in zip(values, owner.iters, owner.results)
                      if it.var.name in live or res.name in live]
        return var_reads(values)
    if kind == "For":
        heads = [stmt.start, stmt.stop, stmt.step]
    elif kind in ("While", "If"):
        heads = [stmt.cond]
    else:
        return {}
    inits = [it.init for it, res in zip(getattr(stmt, "iters", ()), getattr(stmt, "results", ()))
             if it.var.name in live or res.name in live]
    return var_reads(heads + inits)


def _held_copies(stmt, names: set[str]) -> set[str]:
    """The names bound in ``stmt`` (a statement with bodies) or by it that may hold one of
    ``names`` or of each other (its storage): a view or copy of one (``VIEWS``), an ``if`` result
    a branch yields one for, a loop carry and its result whose init or yielded value is one;
    found to a fixpoint (a carry yielded in one iteration is read in the next's body)."""
    held = set(names)
    stmts = list(iter_stmts([stmt]))
    changed = True
    while changed:
        changed = False
        for inner in stmts:
            kind = inner._production
            new = []
            if kind == "Let":
                if inner.value._production in VIEWS and var_reads([inner.value]).keys() & held:
                    new.append(inner.var.name)
            elif kind == "If":
                for branch in (inner.then, inner.orelse):
                    if branch and branch[-1]._production == "Yield":
                        new += [r.name for r, v in zip(inner.results, branch[-1].values)
                                if v._production == "Var" and v.name in held]
            elif kind in ("For", "While"):
                body = inner.body
                values = body[-1].values if body and body[-1]._production == "Yield" else ()
                for k, (it, res) in enumerate(zip(inner.iters, inner.results)):
                    init = it.init
                    value = values[k] if k < len(values) else None
                    if (init._production == "Var" and init.name in held) or (
                        value is not None and value._production == "Var" and value.name in held
                    ):
                        new += [it.var.name, res.name]
            for name in new:
                if name not in held:
                    held.add(name)
                    changed = True
    return held - names


class _Available:
    """The names visible where the source ``src`` is created: ``before`` (bound before the block),
    those the block (``bound``: ``BlockUses``', as analysed) binds before it, and those ``add``-ed.
    A create ``hoist_target_create`` moved (``move``: just before the source's create) stands at
    its place in ``moved``, a fraction between its neighbours' (SSA: the statements of the block
    are ordered by their names' places). ``names - available`` is the names not in it."""

    def __init__(self, before, bound: dict[str, int], moved: dict, src: str):
        self.before, self.bound, self.moved, self.added = before, bound, moved, set()
        self.src, self.at = src, moved.get(src, bound.get(src))

    def place(self, name: str):
        found = self.moved.get(name)
        return found if found is not None else self.bound.get(name)

    def __contains__(self, name: str) -> bool:
        if name in self.before or name in self.added:
            return True
        place = self.place(name)
        return place is not None and place < self.at

    def move(self, name: str) -> None:
        """``name``'s create now stands just before the source's (after every statement before it)."""
        self.moved[name] = self.at - Fraction(1, 2 ** (len(self.moved) + 1))

    def add(self, name: str) -> None:
        self.added.add(name)

    def __rsub__(self, names: set[str]) -> set[str]:
        out = set()
        for name in names:
            if name not in self:
                out.add(name)
        return out


class _BoundBefore:
    """The names of ``defined`` (``defined_before``: each name to its place in binding order) bound
    before the first ``start`` of them: those bound before a block around the one being
    rewritten."""

    def __init__(self, defined: dict[str, int], start: int) -> None:
        self.defined, self.start = defined, start

    def __contains__(self, name: str) -> bool:
        place = self.defined.get(name)
        return place is not None and place < self.start


def _enter(defined: dict[str, int], names) -> None:
    """Bind ``names`` in ``defined`` (``defined_before``) after the names it holds, in order."""
    for name in names:
        if name not in defined:
            defined[name] = len(defined)


class _Shadowed:
    """A table of the whole function (``buffer_roots``', ``storage_map``'s) as seen by a walk
    that binds the names ``hidden`` again: those are left out of ``base``, and what the walk
    writes is kept apart, in ``local``, so the base table is unchanged and the view costs the
    names the walk binds, not a copy of the table."""

    __slots__ = ("base", "hidden", "local")

    def __init__(self, base, hidden) -> None:
        self.base, self.hidden, self.local = base, hidden, {}

    def get(self, name: str, default=None):
        local = self.local
        if name in local:
            return local[name]
        if name in self.hidden:
            return default
        return self.base.get(name, default)

    def __getitem__(self, name: str):
        value = self.get(name, _Shadowed)
        if value is _Shadowed:
            raise KeyError(name)
        return value

    def __contains__(self, name: str) -> bool:
        return self.get(name, _Shadowed) is not _Shadowed

    def __setitem__(self, name: str, value) -> None:
        self.local[name] = value


class _ShadowedNames:
    """``_names_by_root`` of a ``_Shadowed`` roots table, from the whole function's (``named``):
    a root's names there that the walk did not bind again, and those it bound to the root."""

    __slots__ = ("named", "roots")

    def __init__(self, named: dict[str, set[str]], roots: _Shadowed) -> None:
        self.named, self.roots = named, roots

    def get(self, root: str, default=None):
        roots = self.roots
        out = {n for n in self.named.get(root, ()) if n not in roots.hidden and n not in roots.local}
        out.update(n for n, r in roots.local.items() if r == root)
        return out if out else default


def _names_by_root(roots: dict[str, str]) -> dict[str, set[str]]:
    """``buffer_roots``' table the other way round: each root's names."""
    named: dict[str, set[str]] = {}
    for name, root in roots.items():
        named.setdefault(root, set()).add(name)
    return named


def _vars_in_stmt(stmt):
    """The names of the ``Var``s in ``stmt``, its bodies included (for a statement without bodies
    its reads, ``stmt_reads``: a binder's type names only dimension symbols, never a tensor)."""
    if stmt._production not in BODY_FIELDS:
        return stmt_reads(stmt).keys()
    from nanopass.language import walk

    return {node.name for node in walk(stmt) if node._production == "Var"}


def _writes_one_of(task, kernel, names) -> bool:
    """Whether a task writes (an Out or InOut argument) a name of ``names``."""
    for a, p in zip(task.args, kernel.params):
        if p.dir is not _IN and a.value._production == "Var" and a.value.name in names:
            return True
    return False


def _written(task, kernel) -> list:
    """The arguments a task writes (its Out and InOut parameters)."""
    return [a.value for a, p in zip(task.args, kernel.params) if p.dir is not _IN and a.value._production == "Var"]


def _line(node) -> str:
    return str(node.span.line) if node.span is not None else "?"


def _base(name: str) -> str:
    return name.split("__", 1)[0]
