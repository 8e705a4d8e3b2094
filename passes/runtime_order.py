"""Which runs of earlier tasks a task is ordered after, by the runtime and by its edges
(directed language). Used by the passes that drop compiler edges and barriers the rest of the
order makes unnecessary. It reads only what the directed language carries (task arguments with
their directions, SSA values, scopes, cells and dependency edges), not a hazard analysis, so it
composes with whichever analysis added the edges. What a loop's syntax alone says (its counter
and trips, the carries it moves, the regions it slices at its counter) is ``loop_facts``'.

Only the *relevant* tasks are tracked: those a dependency edge names (directly, through a cell,
through a join cell), those whose TaskId an array slot, a copy or a yield holds, and those a
caller asks for. For such a task ``S``:

- ``S in facts[v]`` (``v`` a tensor SSA name): a lookup of ``v`` by a task in an AUTO scope (an
  Input or InOut argument, runtime-api.md section 11) is ordered after the latest run of ``S``
  so far, or ``S`` has not run yet. A task ``W`` that writes ``v`` in an AUTO scope (InOut or
  OutputExisting: its TensorMap entry covers ``v``) or makes it (a runtime-allocated output,
  whose creator a later use retains) adds itself and everything it is ordered after. Nothing
  but a new run of ``S`` makes the fact false: the runtime removes an entry only when an InOut
  writer covers it, and that writer looked the entry up first, so a lookup that finds the
  writer is ordered after ``S`` too; a write in a MANUAL scope touches no entry.
- ``S in order[W]``: the latest run of ``W`` is ordered after the latest run of ``S``, or ``S``
  has not run. A task is ordered after what its lookups' facts hold and, for each dependency on
  the latest run of a task (a ``DerivedDep`` or user ``DepVar`` on a task's TaskId binder, which
  only tasks after it in the same block see; a cell that stores one task's TaskId; a join cell
  of one task), that task and what it is ordered after.
- *older runs*: each set holds two bits per task, one for its latest run and one for every run
  before the latest (``width + S``). A new run of ``S`` makes the older-runs bit of a set true
  where the set held both (every run so far is an older run now) and the latest-run bit false.
  A dependency on a join cell of ``S`` (every run of ``S``) orders after both; so does one on
  the latest run of ``S`` where ``chained`` holds ``S``: the latest run of ``S`` was ordered
  after every run before it (``S`` looked up what its previous run wrote, say).
- ``NR``: the relevant tasks that have not run on any path to a point (every set holds them, and
  their older-runs bits while they have run at most once).
- ``done``: the relevant tasks whose latest run a host element access waited for (the tensor's
  ``facts``: its creator and TensorMap producers, which cover the whole tensor, and those of the
  slices of it that hold the element; in a MANUAL scope too, where the access still waits for
  them, though a write there publishes nothing that a fact names); the access blocks the
  orchestration thread until they complete, so every task submitted after it is ordered after
  them. A host read whose value nothing needs is no such access: ``remove_dead_values`` removes
  it (``live_reads``: that pass's liveness). A host write waits for the consumers of the
  tensor's TensorMap producers too (``_Walker.producers``: those it follows).

A dependency of a task on the latest run of ``S`` (on every run of ``S``, for a join cell) is
*implied* when another of its dependencies waits for the same runs or more, or the task's lookups
or its dependencies on other tasks order it after those runs already. Dropping
every implied dependency at once keeps the order: the latest runs of distinct tasks that have
run are strictly ordered, so "implied by" has no cycle but among dependencies on tasks that have
not run, which insert nothing.

A host fence in an AUTO scope (a dummy task taking the tensor as INOUT, submitted when one of
its dependencies holds a run) is a producer of its tensor: a lookup of the tensor is ordered
after what the fence waits for, and so is the host access after it (``fence_ordered``; by its
lookup alone: ``fence_runtime``).

Merges (if results, loop headers, the state after an ``if`` or a loop) intersect; a loop's first
iteration is walked from the state before the loop, and the later ones from a header state
walked to a fixpoint from the end of the first (the sets only shrink); after the loop, the state
before it meets that header, unless the loop certainly runs. Where such a loop is not the last
statement of its block, the rest of the block is walked from each of the two states and the ends
meet instead (at most ``SPLITS`` times a walk, and while the rests so walked again cost at most
``SPLIT_STMTS`` statements plus ``SPLIT_STMTS_PER_STMT`` per statement of the function, a loop's
body counted twice: ``_Walker.affords_split``; each split walks its rest's loops again from states
of their own, which on irregular programs of a few hundred statements made an analysis visit over
a hundred statements per statement): a task after the loop is ordered after what each
path orders it after, through whichever values (a loop's own walk may spend the last of the
budget: the rest is then walked once, from the meet of its exits; each walk knows the bound of
the loop's stop that its exit implies, ``trip_bounds``: ``n <= 0`` on the no-trip exit of ``for
i in pl.range(n)``, ``n >= 1`` on the other, so that ``if n >= 1`` after it takes one branch in
each). A loop of unknown trips that
swaps its carries has three exits, the header split by the trips' parity (``walk_by_parity``),
and the rest's walks know that parity (``implied_at``, ``implied_where``; where such a loop is
in a loop and its bounds read only scalar parameters, every walk knows it from the start and
leaves the loop by the exits of that parity: ``invariant_parity_loops``; one of constant bounds
not walked iteration by iteration leaves by the exit of the parity its bounds say); those of a ``For`` of a
positive constant step (two exits or three) know whether it made a trip (``trips_any``; what
each exit knows: ``exit_scalars``); one whose second iteration is walked apart
(``second_and_rest``) has an exit after one trip of its own. A loop the walk reaches again
from an equal state, in the same context, with a budget that makes the same walk, is not walked
again: its exits are those of the first walk (``_Walker.exits``), and what the first recorded of
its tasks' ``implied_later`` is recorded again under this walk's first/later-iteration flags (its
journal). Each walk of a loop walks the loops in it from states and scalars of their own (the
first iteration's, the later ones'), so a loop nested ``d`` deep is reached in up to ``2 ** d``;
one walked ``LOOP_WALKS`` times already is walked from the state that knows nothing, with no
scalars and no split budget (``_Walker.walk_knowing_nothing``: fewer orders, the same walk each
time). No generated sample gets there (their most: 112 walks of a loop, in a manual program of
loops four deep whose exits split the rest of their blocks). Some loops are walked
iteration by iteration instead, with no back edge and their scalars known in each iteration, so
that an ``if`` on them takes one branch (``iterations``; in the other loops that count, by a
sequential ``For``'s variable or a ``while``'s carry, from a known start by a positive constant
step, the first iteration's walk knows the counter is the start, and the later ones' that it
is at least the start plus the step, which decides a comparison of it with a known value, ``if
i >= 1``: ``first_and_later``): a loop of constant bounds with one
iteration; one of at most ``UNROLL`` iterations (with the loops so walked around it) that has an
``if`` on its variable, swaps or rotates its carries, yields a carry a tensor named before it,
sets an array slot at its variable, or slices a tensor at an offset computed from it; a ``while``
whose carries, computed from constants, end it within ``UNROLL`` iterations. A counted loop of
constant bounds that runs but is not walked so (more iterations, up to ``SUMMARIZED``, or too
many with the loops walked so around it) and whose task writes a view sliced at an offset
computed from its variable, each iteration, leaves the region of each iteration's view with what every run of
the writer was ordered after, less the tasks of its body (``summarize_slice_writes``: each
iteration ran and inserted that entry). A task's results are
the intersection over every walk of it. A ``Let`` copy keeps its value's facts (shares them,
below), and so do the views of one region of a tensor with a stable name: slices
of offsets and extents the walk knows (not clamped), transposes, reshapes (``_Walker.region``: a
lookup of either finds the entries a write through the other inserts); every other value starts
from ``NR`` (a view's lookups may miss the entries of its base). A write through such a view
gives its facts to the tensor it views (``publish``: a lookup of the tensor overlaps every entry
a lookup of the view finds): as the tensor's own through a transpose or a reshape, which cover
all of it (and a covering view gets its tensor's facts likewise), else as *partial* facts, which
a task's lookup of the tensor counts (``looked_up``) and a host element access does not (it
counts those of the slices that hold the element, where the walk knows its index: ``wait``).
A slice at offsets computed from the counter of a loop whose bounds read only scalar parameters,
made and written once per iteration, views the same region in the iteration of each counter value
each time the loop runs (``repeated_regions``): after the loop, a key of those regions holds what
each of their writes was ordered after (less the tasks of the loop), which a later run's slice
starts from (and a view of a region the walk knows gets it too).

Names of one tensor share its facts (``State.alias``): a copy, a task's result on its Out or
InOut argument, a loop carry or result, an if's result (both branches yield that tensor, or the
branch the walk takes does) that holds a tensor with a *stable* name (a parameter, or
a name bound outside every loop body: ``stable_names``, never bound again on a path, so nothing
parts them; or a name a loop body binds, ``rebound_names``, whose binding in a later iteration
first gives each name that shares its facts, or those of a view of it, a copy of them as its
own: ``_Walker.detach``) is an alias of that name, and a write through either adds to both; a
merge keeps an alias both sides have (else the name gets the intersection of the two sides'
facts). A loop of
constant bounds whose carries swap or rotate (``pl.yield_(q, p)``) is walked iteration by
iteration, so that each carry is the tensor it holds in that iteration.

The TaskIds a name or an array slot holds are followed too (``State.tids``: the relevant task
whose latest run it holds; a copy, ``GetItem`` and ``SetItem`` at an index the walk knows, loop
carries and results; a new run of the task forgets them): a user dependency on such a name
(``p = ids[1]``) or slot orders the task after that run and what it is ordered after; one on a
whole array (``deps=[ids]``) after the run each slot holds, and one on the TaskId of the user's
``task_dummy`` (or of a phase fence's dummy) after what the dummy's entries order it after (the
facts of the dummy's binder: ``_Walker.Dummy``, ``held_after``); one on a ``pl.parallel`` loop's
TaskId result (every iteration's yield) after the last iteration's (``parallel_results``; such a
loop of constant bounds that runs leaves only after an iteration, and one that ran none holds no
TaskId there). In the body, such a carry orders after what both its init and the previous yield
order. A loop of constant bounds that sets a slot at an index computed from its variable is
walked iteration by iteration.

A ``manual_dep`` tensor (``manual_dep_names``: any value that may hold one) is neither looked up
nor inserted: it adds no fact, and a task's argument of it orders the task after nothing, but
where the walk knows the name holds a tracked tensor (an alias of a stable name that is no
``manual_dep`` tensor: a carry swapped with one, in the iterations it holds the other;
``tracked_here``). (A view of it made without ``manual_dep`` is tracked, like any view, from
``NR``.)

The facts table holds only what it must: a name whose facts are ``never_ran`` has no entry
(``State.bind``, ``meet``), an entry holds a name's facts less ``never_ran`` (every fact holds
``never_ran``: a task that has not run makes every "ordered after it, or it has not run" true),
and the walk forgets a name after the last statement that reads it (``dead_after``; a stable
name only once no other name is an alias of it), and a task's entry in ``order`` after the last
statement of the function's body that sets or reads it (``orders_unread_after``), so that a new
run of a task, which rewrites every entry naming it (none of ``facts`` on its first run), and a
meet cost the names and tasks in use, not every one so far.

The analysis gives up (``None``) on a program where the relevant tasks times the statements
exceed its ``budget`` (``BUDGET``, or ``PER_EDGE`` per dependency entry where that is more): a
relevant task's run updates every fact that names it, so the walk costs up to that product (a
program past it keeps its edges as the hazard passes made them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nanopass.languages.terms import ArgDir, LoopKind, ScopeMode

from .cells import D, copied_cell, declared_cells, join_cells, latest_run_cells
from .kernels import kernel_table, output_param_of_result, output_params
from .loop_facts import (
    MIN,
    WRITES,
    branches_on,
    evaluate_scalar,
    first_and_later,
    invariant_conditions,
    invariant_parity_loops,
    is_parallel,
    is_task_id,
    loop_counter,
    moves_carries,
    repeated_regions,
    replaces_carries,
    second_and_rest,
    sets_slots,
    slice_writes,
    slices_at,
    surely_runs,
    trip_bounds,
    yielded_name,
)
from .remove_dead_values import RemoveDeadValues
from .util import (BODY_FIELDS, binders_of, iter_stmts, last_yield, static_trip_count, unscoped,
                   var_reads)

BUDGET = 300_000
PER_EDGE = 100  # and the walk may cost this much per dependency entry of the program (``budget``)
# ``((PARITY, k), 0 or 1)`` in the walk's scalars: after loop k (``parity_loops``), its trips' parity
PARITY = "trips odd"
# ``((RAN, k), 0 or 1)`` in the walk's scalars: after loop k (``parity_loops``), whether it made a trip
RAN = "trips any"
ASSUME = "assumed"  # ``((ASSUME, key), bool)`` in the walk's scalars: the value of an invariant condition (``invariant_conditions``)
ASSUMED = 2  # at most this many invariant conditions split the walk (``_runtime_order``)
UNROLL = 8  # at most this many iterations of loops of constant bounds walked one by one, nested
SUMMARIZED = 64  # at most this many iterations' regions written by ``_Walker.summarize_slice_writes``
SPLITS = 16  # at most this many loops whose exits are walked apart (see ``_Walker.run``)
# and the rests so walked again cost at most this many statements in all, plus this many per
# statement of the function (``_Walker.affords_split``): a split walks the rest of its block once more
SPLIT_STMTS, SPLIT_STMTS_PER_STMT = 1000, 1
LOOP_WALKS = 256  # at most this many walks of one loop from the states it is reached in (``exits``)
VIEWS = ("SliceTensor", "TransposeTensor", "ReshapeTensor")  # (the views ``_Walker.region`` names)
LOOKUPS = (ArgDir.Input, ArgDir.InOut)


class State:
    """The facts at one point of the walk (mutable; ``copy`` before a branch or a loop). Sets of
    tasks are bitsets (ints) over task numbers."""

    __slots__ = ("never_ran", "facts", "order", "done", "chained", "width", "alias", "tids")

    def __init__(self, never_ran: int, facts: dict, order: dict, done: int = 0, chained: int = -1, width: int = 0,
                 alias: dict | None = None, tids: dict | None = None):
        self.never_ran = never_ran
        # SSA name -> its facts less ``never_ran`` (absent: 0); ``of`` adds ``never_ran`` back
        self.facts = facts
        # SSA name -> the stable name (``stable_names``) of the same tensor, whose facts it shares:
        # a write through either is a write of both
        self.alias = alias if alias is not None else {}
        # a TaskId name -> the relevant task whose latest run it holds; a TaskId array -> per slot,
        # that task or None (not known to hold one)
        self.tids = tids if tids is not None else {}
        # task number -> what its latest run is ordered after, less ``never_ran`` (absent: never
        # ran); ``after`` adds back ``never_ran`` but the task's own bits (its entry has none)
        self.order = order
        self.done = done  # the tasks whose latest run a host access waited for (with never_ran)
        # the tasks each of whose runs so far is ordered before the next one (or that ran at most
        # once): waiting for the latest run waits for them all
        self.chained = chained
        self.width = width  # the number of tasks: bit ``width + S`` stands for every run of ``S``

    @classmethod
    def knowing_nothing(cls, width: int) -> "State":
        """No task known not to have run, no fact, no order, no host wait, no chained task, no
        alias, no TaskId: every merge's result is at least this state (``meet``)."""
        return cls(0, {}, {}, 0, 0, width)

    def copy(self) -> "State":
        return State(self.never_ran, dict(self.facts), dict(self.order), self.done, self.chained, self.width,
                     dict(self.alias), dict(self.tids))

    def of(self, name: str) -> int:
        return self.facts.get(self.alias.get(name, name), 0) | self.never_ran

    def write(self, name: str, held: int) -> None:
        """The tensor ``name`` holds has the facts ``held`` (under every name of it)."""
        self.facts[self.alias.get(name, name)] = held & ~self.never_ran

    def bind(self, name: str, held: int) -> None:
        """``name`` is bound to a tensor of its own with the facts ``held``. Facts equal to
        ``never_ran`` are left absent, as ``of`` reads them: a new run changes both alike (``ran``),
        so only the names whose facts differ from it cost a meet anything."""
        self.alias.pop(name, None)
        if held == self.never_ran:
            self.facts.pop(name, None)
        else:
            self.facts[name] = held & ~self.never_ran

    def bind_same(self, name: str, value: str, stable: frozenset) -> None:
        """``name`` is bound to the tensor ``value`` holds: it shares its facts when that tensor
        has a stable name, else it starts from a copy of them."""
        root = self.alias.get(value, value)
        if root in stable and root != name:
            self.alias[name] = root
            self.facts.pop(name, None)
        else:
            self.bind(name, self.of(value))

    def after(self, task: int) -> int:
        held = self.order.get(task)
        if held is None:
            return self.never_ran
        return held | self.never_ran & ~((1 << task) | (1 << (self.width + task)))

    def forget(self, names, stable: frozenset) -> None:
        """``names`` are read nowhere further on (``dead_after``): their entries go, but the facts
        of a stable name another name is still an alias of."""
        for name in names:
            self.alias.pop(name, None)
            self.tids.pop(name, None)
        roots = None
        for name in names:
            if name in self.facts:
                if name in stable:
                    if roots is None:
                        roots = set(self.alias.values())
                    if name in roots:
                        continue
                del self.facts[name]

    def forget_orders(self, tasks) -> None:
        """The entries of ``tasks`` in ``order`` are read nowhere further on (``orders_unread_after``)."""
        for task in tasks:
            self.order.pop(task, None)

    def ran(self, task: int) -> None:
        """``task`` (a relevant one) has run: a fact about its latest run goes, and one about its
        older runs stays where the fact held every run of it (they are the older runs now)."""
        latest, older = 1 << task, 1 << (self.width + task)
        both = latest | older
        before = self.never_ran
        self.never_ran = after = _rerun(before, latest, both)
        self.done = _rerun(self.done, latest, both)
        kept, moved = ~both, latest ^ both  # (_rerun, inlined: called for every fact naming the task)
        if before & both != both:
            # A stored fact names the task only where it holds more than ``never_ran`` (before the
            # task's first run, never: ``never_ran`` held both bits): those are rewritten.
            # (A task's own bits in ``before`` are in ``after`` too: ``order`` is rewritten alike.)
            for table in (self.facts, self.order):  # (a value set in place: the keys stay)
                for key, held in table.items():
                    if held & both:
                        held |= before
                        table[key] = (held & kept | (moved if held & both == both else 0)) & ~after
        for key, held in list(self.tids.items()):  # (they hold an older run now)
            if held == task:
                del self.tids[key]
            elif isinstance(held, tuple) and task in held:
                self.tids[key] = tuple(None if t == task else t for t in held)

    def key(self) -> tuple:
        """A hashable value equal for two states exactly when they are equal (``__eq__``)."""
        return (self.never_ran, frozenset(self.facts.items()), frozenset(self.order.items()), self.done, self.chained,
                frozenset(self.alias.items()), frozenset(self.tids.items()))

    def __eq__(self, other) -> bool:
        return (self.never_ran, self.facts, self.order, self.done, self.chained, self.alias, self.tids) == (
            other.never_ran, other.facts, other.order, other.done, other.chained, other.alias, other.tids)


def _walk_cost(body) -> int:
    """The statements a walk of ``body`` visits, a loop's body counted twice (its first
    iteration's walk and its later ones')."""
    cost = 0
    for stmt in body:
        cost += 1
        fields = BODY_FIELDS.get(stmt._production)
        if fields:
            inner = sum(_walk_cost(getattr(stmt, f)) for f in fields)
            cost += 2 * inner if stmt._production in ("For", "While") else inner
    return cost


def _rerun(held: int, latest: int, both: int) -> int:
    """``held`` after a new run of the task whose latest-run bit is ``latest``: its older-runs bit
    is set where both bits were."""
    return held & ~both | (latest ^ both if held & both == both else 0)


def meet(a: State, b: State) -> State:
    never_ran = a.never_ran & b.never_ran
    a_facts, a_alias, a_never, b_facts, b_alias, b_never = a.facts, a.alias, a.never_ran, b.facts, b.alias, b.never_ran
    if a_facts == b_facts and a_alias == b_alias and a_never == b_never:  # (the loops below have nothing to do)
        facts, alias = dict(a_facts), dict(a_alias)
    else:
        b_alias_get, b_facts_get = b_alias.get, b_facts.get
        alias = {n: root for n, root in a_alias.items() if b_alias_get(n) == root}
        # A name whose facts both sides store alike keeps them (a name with facts of its own is no
        # alias; a stored fact shares no bit with either side's ``never_ran``, so it is its own
        # meet less ``never_ran``; a name stored as 0 on both sides, never_ran on each, meets at
        # never_ran where those differ): only the names the two sides differ on are met one by one
        # (``State.of``, inlined; absent: never_ran, as ``State.bind`` leaves it).
        facts = {}
        differ = []
        same_never = a_never == b_never
        for n, held in a_facts.items():
            if b_facts_get(n) == held and (held or same_never):
                facts[n] = held
            elif n not in alias:
                differ.append(n)
        differ += [n for n in b_facts if n not in a_facts and n not in alias]
        differ += [n for n in a_alias if n not in alias and n not in a_facts and n not in b_facts]
        differ += [n for n in b_alias if n not in alias and n not in a_facts and n not in b_facts and n not in a_alias]
        for n in differ:
            held = (a_facts.get(a_alias.get(n, n), 0) | a_never) & (b_facts_get(b_alias_get(n, n), 0) | b_never)
            if held != never_ran:
                facts[n] = held & ~never_ran
    a_order, b_order = a.order, b.order
    if a_order == b_order and a_never == b_never:
        order = dict(a_order)
    else:  # (as the facts; an entry has none of its task's own bits, nor do the never_ran added to it)
        b_order_get = b_order.get
        order = {}
        differ = []
        for t, held in a_order.items():
            if b_order_get(t) == held:
                order[t] = held
            else:
                differ.append(t)
        differ += [t for t in b_order if t not in a_order]
        for t in differ:
            own = ~((1 << t) | (1 << (a.width + t)))
            held_a, held_b = a_order.get(t), b_order.get(t)
            order[t] = ((a_never if held_a is None else held_a | a_never & own)
                        & (b_never if held_b is None else held_b | b_never & own) & ~never_ran)
    tids = {}
    for name, held in a.tids.items():
        other = b.tids.get(name)
        if isinstance(held, tuple) and isinstance(other, tuple) and len(held) == len(other):
            tids[name] = tuple(t if t == o else None for t, o in zip(held, other))
        elif held == other:
            tids[name] = held
    return State(never_ran, facts, order, (a.done | a.never_ran) & (b.done | b.never_ran), a.chained & b.chained,
                 a.width, alias, tids)


@dataclass
class RuntimeOrder:
    """The analysis' result for one function."""

    tasks: list  # task statements in program order (a task's number is its index)
    number: dict  # id(task statement) -> its number
    tid_task: dict  # TaskId binder name -> the number of the task that binds it
    cells: object  # cells.Cells: the latest-run cells
    joins: dict  # join cell -> the number of the task it joins
    runtime: dict = field(default_factory=dict)  # task number -> bitset of tasks its lookups order it after
    implied: dict = field(default_factory=dict)  # task number -> positions of its implied dependencies
    fence_implied: dict = field(default_factory=dict)  # id(HostFence) -> positions of its implied dependencies
    # id(HostFence directly before a host write of its tensor) -> the positions of its
    # dependencies that are implied or that the write, without the fence, waits for (a consumer
    # of the tensor's producers, ``_Walker.producers``): where they are all, the fence may go
    fence_consumed: dict = field(default_factory=dict)
    # id(HostFence in an AUTO scope) -> bitset of the relevant tasks whose latest run the host
    # access after it is ordered after: by the fence's lookup and edges (``fence_ordered``), by
    # its lookup alone (``fence_runtime``)
    fence_ordered: dict = field(default_factory=dict)
    fence_runtime: dict = field(default_factory=dict)
    # task number -> bitset of the relevant tasks whose latest run it is ordered after, by its
    # lookups or its edges (its own number: every run is ordered after the one before)
    ordered: dict = field(default_factory=dict)
    # task number -> as ``runtime``, on the iterations after the first of each run of its innermost loop
    later: dict = field(default_factory=dict)
    # task number -> {the scalars of a walk (``_Walker.values``) -> the positions of its
    # dependencies implied in every walk with those scalars}
    implied_at: dict = field(default_factory=dict)
    fence_implied_at: dict = field(default_factory=dict)  # id(HostFence) -> as ``implied_at``
    # task number -> as ``implied_at``, less the dependencies on a task that has not run on any
    # path there (implied because nothing ran: a cell of its latest run holds none there)
    implied_run_at: dict = field(default_factory=dict)
    # task number -> {the scalars of a walk -> the positions of its dependencies that the task's
    # lookups and the host accesses before it imply in some walk with those scalars, after a run
    # of the task they name}
    implied_ran_at: dict = field(default_factory=dict)
    parity_loops: list = field(default_factory=list)  # the loops of ``(PARITY, k)`` and ``(RAN, k)``, k their index
    # task number -> {``d`` (1 for the outermost loop around the task walked, ``_Walker.later``
    # past its first entry) of a walk of an iteration after the first of the ``d``-th loop around
    # it -> the positions of its dependencies implied in every such walk}
    implied_later: dict = field(default_factory=dict)
    # task number -> the lengths of ``_Walker.later`` (1 + the loops around the task walked with
    # its flag) in the walks that recorded ``implied_later`` of it
    later_depths: dict = field(default_factory=dict)
    # task number (a relevant one) -> {the scalars of a walk -> bit 0 set where every run of the
    # task in every walk with those scalars is ordered after the task's previous run, bit 1 where
    # after every earlier run of it too}
    chained_at: dict = field(default_factory=dict)
    # task number -> as ``ordered``, with the older-runs bits (``width + S``): where a task's
    # number has both bits of ``S``, every run of it is ordered after every run of ``S`` so far
    ordered_every: dict = field(default_factory=dict)
    # ``(ASSUME, key)`` -> the condition of an ``if`` of that key (``invariant_conditions``: it
    # reads only the function's scalar parameters, and has the same value wherever it is tested)
    conditions: dict = field(default_factory=dict)
    # (a loop counter ``v``, ``m``) where a walk's ``(v, MIN)`` of ``m`` is that of the second
    # iteration of its loop walked apart (``second_and_rest``, of a constant start), and of no
    # other walk: there ``v`` is ``m``
    peeled: set = field(default_factory=set)

    def is_ordered(self, task: int, before: int) -> bool:
        """Every run of ``task`` is ordered after the latest run of ``before`` (or none ran)."""
        return bool(self.ordered.get(task, 0) >> before & 1)

    def is_ordered_every(self, task: int, before: int) -> bool:
        """Every run of ``task`` is ordered after every run of ``before`` so far (or none ran)."""
        both = 1 << before | 1 << (len(self.tasks) + before)
        return self.ordered_every.get(task, 0) & both == both

    def by_runtime(self, task: int, before: int) -> bool:
        return bool(self.runtime.get(task, 0) >> before & 1)

    def is_join(self, dep) -> bool:
        """``dep`` names a join cell (every run of its task), not a latest-run cell."""
        return dep._production == "CellDep" and dep.cell not in self.cells.task and dep.cell in self.joins

    def source_of(self, dep) -> int | None:
        """The task whose latest run ``dep`` names, if it names one."""
        kind = dep._production
        if kind == "CellDep":
            found = self.cells.task.get(dep.cell)
            return found if found is not None else self.joins.get(dep.cell)
        return _binder_source(dep, self.tid_task)

    def implied_after_first(self, task: int, position: int, depth: int) -> int | None:
        """The outermost ``d`` (1 for the outermost of the ``depth`` loops around ``task``) such
        that dependency ``position`` of ``task`` is implied in every walk of an iteration after the
        first of the ``d``-th loop around it (there is such a walk), or None."""
        if self.later_depths.get(task) != {depth + 1}:
            return None  # (a loop around the task walked without its flag: by the trips' parity)
        walks = self.implied_later[task]
        for d in range(1, depth + 1):
            implied = walks.get(d)
            if implied is not None and position in implied:
                return d
        return None

    def implied_where(self, task: int, position: int, fence=None) -> tuple | None:
        """(a loop counter ``v``, or ``(PARITY, k)`` for the trips' parity of a loop
        before the task, or ``(RAN, k)`` for whether it made a trip, the values ``K`` of it) where dependency ``position`` of
        ``task`` (of the host fence ``fence`` if given) is implied in every run in which ``v`` is
        in ``K`` (every walk of those runs knows ``v``, and no walk that leaves it needed may have
        ``v`` in ``K``), the largest ``K``; or None."""
        best = None
        for v, values in self.implied_each(task, position, fence):
            if best is None or len(values) > len(best[1]):
                best = (v, values)
        return best

    def chained_from(self, task: int, every: bool = False) -> tuple | None:
        """(a loop counter ``v``, ``m``) such that every run of ``task`` in which ``v`` is at least
        ``m`` is ordered after the task's previous run (with ``every``: after every earlier run
        of it) (every walk of such a run knows ``v`` and has it so, and some walk of such a run
        was taken), where some other run is not; or None."""
        bit = 2 if every else 1
        walks = {key: value & bit for key, value in self.chained_at.get(task, {}).items()}
        if not walks or all(walks.values()):
            return None
        counters = {name for key in walks for name, _ in key if isinstance(name, str)}
        for v in sorted(counters):
            bound, covered = None, False
            for key, chained in walks.items():
                known = dict(key)
                exact, low = known.get(v), known.get((v, MIN))
                if chained:
                    covered = covered or exact is not None or low is not None
                elif isinstance(exact, int) and not isinstance(exact, bool):
                    bound = exact + 1 if bound is None else max(bound, exact + 1)
                else:
                    break  # (an unchained walk of runs with ``v`` unknown or unbounded above)
            else:
                if bound is not None and covered and any(
                        chained and (dict(key).get((v, MIN)) is not None
                                     or (dict(key).get(v) is not None and dict(key)[v] >= bound))
                        for key, chained in walks.items()):
                    return v, bound
        return None

    def chained_each(self, task: int, every: bool = False) -> list:
        """Each (``v``, ``K``) as in ``implied_each``, of the runs of ``task`` ordered after the
        task's previous run (with ``every``: after every earlier run of it): every walk of a run
        in which loop counter ``v`` has a value of ``K`` is so ordered (``chained_at``), where
        some other run is not."""
        bit = 2 if every else 1
        walks = {key: (frozenset((0,)) if value & bit else frozenset()) for key, value in self.chained_at.get(task, {}).items()}
        if not walks or all(walks.values()):
            return []
        return _implied_each(walks, 0, assumed=True)

    def implied_from(self, task: int, position: int, fence=None) -> list:
        """Each ((``v``, ``MIN``), (``m``,)) such that dependency ``position`` of ``task`` (of
        the host fence ``fence`` if given) is implied in every run in which loop counter ``v``
        is at least ``m``, where the exact values of ``implied_each`` cannot say so
        (``_at_least_where``: the later iterations of a loop walked as one)."""
        walks = self.implied_at.get(task, {}) if fence is None else self.fence_implied_at.get(id(fence), {})
        return [((v, MIN), (m,)) for v, m in _at_least_where(walks, position)]

    def implied_each_run(self, task: int, position: int) -> list:
        """``implied_each``, where the task the dependency names has run in each walk of each
        ``K`` (``implied_run_at``), or where it is implied in each walk of ``K`` and the runtime
        implies it in some walk of ``K`` after a run of that task (``implied_ran_at``: a walk in
        which that task has not run, where a cell of its latest run holds none and the
        dependency inserts nothing, neither gives nor takes away the value; seed 49054): of a
        loop counter only, and only its values below each value at which the dependency is
        needed. A needed run before them in the loop's run (or, of a trips' parity, anywhere)
        lets the passes after ``drop_implied_dependencies`` clear the cell after it, for them
        and the waiters after the loop, which a guard's copy of the cell would keep them from
        (seed 36084; tests/test_lean_rotated_carries.py)."""
        out = dict(_implied_each(self.implied_run_at.get(task, {}), position))
        walks = self.implied_at.get(task, {})
        for v, values in _implied_each(walks, position, self.implied_ran_at.get(task, {})):
            if not isinstance(v, str):  # (a trips' parity, whether a loop made a trip: no order)
                continue
            needed = [dict(key).get(v, dict(key).get((v, MIN))) for key, implied in walks.items() if position not in implied]
            below = min((x for x in needed if isinstance(x, int) and not isinstance(x, bool)), default=None)
            values = [x for x in values if isinstance(x, int) and not isinstance(x, bool) and below is not None and x < below]
            if values:
                out[v] = tuple(sorted(set(out.get(v, ())) | set(values)))
        return list(out.items())

    def implied_each(self, task: int, position: int, fence=None) -> list:
        """Each (``v``, ``K``) as in ``implied_where``, for each counter ``v`` of a nonempty ``K``
        (the largest): where any of them holds, the dependency is implied."""
        walks = self.implied_at.get(task, {}) if fence is None else self.fence_implied_at.get(id(fence), {})
        return _implied_each(walks, position)


def _implied_each(walks: dict, position: int, chosen: dict | None = None, assumed: bool = False) -> list:
    """``RuntimeOrder.implied_each`` of the walks ``walks`` (scalars -> implied positions); with
    ``chosen`` (scalars -> positions), only of the values of the walks whose positions there
    hold ``position``; with ``assumed``, of the values of invariant conditions too (``(ASSUME,
    key)``, True or False: ``RuntimeOrder.conditions``)."""
    out = []
    kinds = (PARITY, RAN, ASSUME) if assumed else (PARITY, RAN)
    counters = {name for key in walks for name, _ in key if isinstance(name, str) or name[0] in kinds}
    for v in sorted(counters, key=lambda c: (0, c) if isinstance(c, str) else (2, repr(c)) if c[0] == ASSUME
                    else (1, c[0] != PARITY, c[1])):
        values = {dict(key).get(v) for key, implied in walks.items() if position in implied
                  and (chosen is None or position in chosen.get(key, ()))} - {None}
        for key, implied in walks.items():
            if position in implied:
                continue
            known = dict(key)
            if v in known:
                values.discard(known[v])
            elif (v, MIN) in known:
                values = {k for k in values if k < known[(v, MIN)]}
            else:
                values = set()
            if not values:
                break
        if values:
            out.append((v, tuple(sorted(values))))
    return out


def _at_least_where(walks: dict, position: int) -> list:
    """(``v``, ``m``) for each loop counter ``v`` such that dependency ``position`` is implied
    in every walk of ``walks`` (``implied_at``'s scalars -> implied positions) of runs in which
    ``v`` may be ``m`` or more: every walk that leaves it needed knows ``v`` exactly and below
    ``m`` (the least such ``m``), and some walk that implies it knows only a lower bound of ``v``
    (``(v, MIN)``: the later iterations, which the exact values cannot name)."""
    out = []
    counters = {name[0] for key in walks for name, _ in key if isinstance(name, tuple) and len(name) == 2
                and name[1] == MIN and isinstance(name[0], str)}
    for v in sorted(counters):
        bound, open_ended = None, False
        for key, implied in walks.items():
            known = dict(key)
            if position in implied:
                open_ended = open_ended or (v, MIN) in known
                continue
            exact = known.get(v)
            if not isinstance(exact, int) or isinstance(exact, bool):
                break  # (a walk that leaves it needed with ``v`` unknown or unbounded above)
            bound = exact + 1 if bound is None else max(bound, exact + 1)
        else:
            if bound is not None and open_ended:
                out.append((v, bound))
    return out


def _binder_source(dep, tid_task: dict) -> int | None:
    """The task whose latest run ``dep`` names through its TaskId binder, if it names one that way."""
    if dep._production in ("DerivedDep", "DepVar") and dep.value._production == "Var":
        return tid_task.get(dep.value.name)
    return None


def runtime_order(program, track=()) -> RuntimeOrder | None:
    """The analysis of ``program``'s orchestration function; ``track``: task statements to track
    besides the relevant ones (whose order after their own previous run a caller asks about).
    The result is the callers' to read, not to change: the passes after one that changed nothing
    are handed the same (``kept``)."""
    from nanopass.languages.statements import kept

    track = tuple(track)
    return kept(runtime_order, (program, *track), lambda: _runtime_order(program, track))


def _runtime_order(program, track: tuple) -> RuntimeOrder | None:
    func = program.orch
    kernels = kernel_table(program)
    stmts, tasks, tid_task, number, relevant, cell_deps, limit = _prelude(program)
    for task in track:
        relevant |= 1 << number[id(task)]
    if gives_up_before_cells(relevant, stmts, limit):
        return None
    joins = {}
    for cell, joined in join_cells(func).items():
        sources = {tid_task.get(tid) for _, tid in joined}
        if len(sources) == 1 and None not in sources:
            joins[cell] = next(iter(sources))
    out = RuntimeOrder(tasks, number, tid_task, latest_run_cells(func, tid_task), joins)
    for dep in cell_deps:
        n = out.source_of(dep)
        if n is not None:
            relevant |= 1 << n
        else:  # (a cell of several stores, some of no task: which run it holds, the walk knows where it knows the store)
            for name in out.cells.tids.get(dep.cell, ()):
                stored = tid_task.get(name)
                relevant |= 0 if stored is None else 1 << stored
    if relevant.bit_count() * len(stmts) > limit:
        return None
    width = len(tasks)
    reads = {s.var.name for s in stmts if s._production == "Let" and s.value._production == "ReadTensor"}
    live_reads = frozenset(reads & live_names(func.body)) if reads else frozenset()
    rebound = rebound_names(func)
    walker = _Walker(kernels, out, relevant, manual_dep_names(stmts, kernels), width, stable_names(func) | rebound,
                     live_reads, dead_after(func.body), orders_unread_after(func.body, stmts, out), rebound)
    walker.params = frozenset(p.name for p in func.params if p.type._production == "ScalarType")
    walker.split_limit = SPLIT_STMTS + SPLIT_STMTS_PER_STMT * len(stmts)
    if any(s._production == "WriteTensor" for s in stmts):  # (``_Walker.producers``: for host writes)
        walker.fixed = stable_names(func) - rebound
        walker.fence_writes = fences_before_writes(func.body)
        walker.buffers = may_buffers(stmts, [p.name for p in func.params if p.type._production == "TensorType"],
                                     kernels)
    cases = [{}]
    assumed = invariant_conditions(func, stmts)
    keys = sorted(set(assumed.values()), key=repr)
    if keys and len(keys) <= ASSUMED and relevant.bit_count() * len(stmts) << len(keys) <= limit:
        walker.assumed = assumed
        for stmt in stmts:
            if id(stmt) in assumed:
                out.conditions.setdefault((ASSUME, assumed[id(stmt)]), stmt.cond)
        cases = [{(ASSUME, key): bool(bits >> k & 1) for k, key in enumerate(keys)} for bits in range(1 << len(keys))]
    swaps = invariant_parity_loops(func, stmts)
    split = len(cases).bit_length() - 1 + len(swaps)  # (the walk's splits: by the conditions, then the parities)
    if swaps and split <= ASSUMED and relevant.bit_count() * len(stmts) << split <= limit:
        parities = [(PARITY, walker.parity_loop(loop)) for loop in swaps]
        cases = [{**case, **{key: bits >> k & 1 for k, key in enumerate(parities)}}
                 for case in cases for bits in range(1 << len(parities))]
    for case in cases:
        walker.values, walker.splits, walker.split_stmts = dict(case), SPLITS, 0
        walker.run(func.body, State(walker.both, {}, {}, width=width))
    return out


def _prelude(program) -> tuple:
    """What ``runtime_order`` reads of ``program`` whatever it tracks: the statements, the tasks
    (program order), TaskId binder -> task number, id(task) -> number, the relevant tasks no cell
    names (those a dependency names by their TaskId binder, those an array slot, a copy or a yield holds), the cell
    dependencies (one per copy of a cell, ``cells.copied_cell``), and the budget. Kept (``kept``) for the callers that ask of the same program
    with other tasks to track; theirs to read, not to change."""
    from nanopass.languages.statements import kept

    return kept(_prelude, (program,), lambda: _read_prelude(program))


def _read_prelude(program) -> tuple:
    func = program.orch
    stmts = list(iter_stmts(func.body))
    tasks = [s for s in stmts if s._production == "Task"]
    tid_task = {t.tid.name: i for i, t in enumerate(tasks) if t.tid is not None}
    number = {id(t): i for i, t in enumerate(tasks)}
    # The relevant tasks that no cell names: those a dependency names by their TaskId binder,
    # those an array slot, a copy or a yield holds (and those a caller asks for, ``_runtime_order``). Where they
    # alone exceed the budget, so do all of them: the analysis gives up before the cells are found.
    relevant = 0
    cell_deps = []
    edges = 0
    cells = declared_cells(stmts)
    for s in stmts:
        kind = s._production
        if kind == "CellSet":
            copied = copied_cell(s, cells)
            if copied is not None:  # (a copy reads its cell as a dependency on it would)
                edges += 1
                cell_deps.append(D.CellDep(copied))
        elif kind == "Task" or kind == "Dummy" or kind == "HostFence":
            edges += len(s.deps)
            for dep in s.deps:
                if dep._production == "CellDep":
                    cell_deps.append(dep)
                else:
                    n = _binder_source(dep, tid_task)
                    relevant |= 0 if n is None else 1 << n
        elif kind == "Let" and s.value._production in ("SetItem", "Var"):
            value = s.value.value if s.value._production == "SetItem" else s.value
            # (a task whose TaskId an array slot or a copy holds: a user dependency may name it)
            n = tid_task.get(value.name) if value._production == "Var" else None
            relevant |= 0 if n is None else 1 << n
        elif kind == "Yield":  # (a task whose TaskId a loop's or an if's result holds)
            for value in s.values:
                n = tid_task.get(value.name) if value._production == "Var" else None
                relevant |= 0 if n is None else 1 << n
    return stmts, tasks, tid_task, number, relevant, cell_deps, budget(edges)


def gives_up(program) -> bool:
    """Whether ``runtime_order(program, track)`` is None whatever ``track`` is: the relevant tasks
    no cell names alone exceed the budget (tracking more only adds to them). A pass that has
    nothing to do without the analysis asks it before looking for the tasks it would track."""
    stmts, _, _, _, relevant, _, limit = _prelude(program)
    return gives_up_before_cells(relevant, stmts, limit)


def known_to_give_up(program) -> bool:
    """``gives_up(program)`` where an earlier ask of the same program kept its prelude
    (``kept_result``), else False: nothing is computed. For a pass whose changes all need the
    analysis and that looks for them first: a program the analysis gives up on (the relevant
    tasks beyond the budget, as on long runs of manual scopes) is returned before that look."""
    from nanopass.languages.statements import kept_result

    prelude = kept_result(_prelude, (program,))
    if prelude is None:
        return False
    stmts, _, _, _, relevant, _, limit = prelude
    return gives_up_before_cells(relevant, stmts, limit)


def budget(edges: int) -> int:
    """What the walk may cost (relevant tasks times statements) in a program of ``edges``
    dependency entries: ``BUDGET``, or ``PER_EDGE`` per entry where that is more. The entries are
    what the lean passes may remove, and each costs the rest of the compile (and the runtime) its
    share: a program whose hazards made quadratically many edges (each write after every earlier
    read of a buffer it may be) has them proved implied, at a cost in proportion to them, where a
    fixed budget left them all (19,900 insertions for 199 needed in one such program of 200
    blocks)."""
    return max(BUDGET, PER_EDGE * edges)


def gives_up_before_cells(relevant: int, stmts: list, limit: int) -> bool:
    """Whether the relevant tasks no cell names (``relevant``) alone exceed the budget ``limit``
    for ``stmts``: the relevant tasks, a superset, then do too, and the analysis gives up."""
    return relevant.bit_count() * len(stmts) > limit


def live_names(body) -> frozenset:
    """The names ``remove_dead_values`` keeps in ``body`` (``RemoveDeadValues.liveness``), computed
    once for the passes that ask of the same body (a lean pass tracking other tasks than the one
    before it asks ``runtime_order`` of the same program again)."""
    from nanopass.languages.statements import kept

    return kept(live_names, (body,), lambda: frozenset(RemoveDeadValues.liveness(body)[0]))


def stable_names(func) -> frozenset:
    """The names bound at most once on any path of the walk: the parameters and the names bound
    outside every loop body (a loop's results included). Another name may share the facts of
    such a name (``State.alias``): no later binding of it parts them."""
    out = {p.name for p in func.params}

    def block(body) -> None:
        for stmt in body:
            kind = stmt._production
            if kind == "Let":
                out.add(stmt.var.name)
            elif kind == "Task":
                out.update(getattr(o, "var", o).name for o in stmt.outs)
            elif kind in ("For", "While"):
                out.update(r.name for r in stmt.results)
            elif kind == "If":
                out.update(r.name for r in stmt.results)
                block(stmt.then)
                block(stmt.orelse)
            elif kind in ("Scope", "CompilerScope"):
                block(stmt.body)

    block(func.body)
    return frozenset(out)


def rebound_names(func) -> frozenset:
    """The names ``stable_names`` leaves out that a ``Let``, a task's result, a loop's or an if's
    result binds in a loop body: bound once per iteration, they too may be what other names share
    the facts of (``State.alias``), so that a write through a copy of a tensor made before an
    inner loop reaches it in that loop's later iterations; each binding of one parts the names
    that shared the facts of the tensor it held before (``_Walker.detach``)."""
    stable = stable_names(func)
    out = set()
    for stmt in iter_stmts(func.body):
        kind = stmt._production
        if kind == "Let":
            out.add(stmt.var.name)
        elif kind == "Task":
            out.update(getattr(o, "var", o).name for o in stmt.outs)
        elif kind in ("For", "While", "If"):
            out.update(r.name for r in stmt.results)
    return frozenset(out - stable)


def orders_unread_after(body, stmts: list, out: RuntimeOrder) -> dict[int, tuple]:
    """``id(statement of the function's body) -> the tasks whose entry in State.order no
    statement after it sets or reads``: the entry of a task is set by its run and read only by a
    dependency naming it (``RuntimeOrder.source_of``; a user dependency on a TaskId a name or an
    array slot holds, or one on a cell of several stores, may name any task whose TaskId a copy,
    an array slot or a cell store takes, ``State.tids``). Only the statements of the body itself (not nested) forget: every path of
    the walk passes each of them, so two states that meet have forgotten alike. ``stmts``: every
    statement of the body, nested ones included, in program order."""
    top = {id(stmt) for stmt in body}
    last: dict[int, int] = {}  # task -> the last statement of ``body`` setting or reading its entry
    held = set()  # the tasks whose TaskId a copy or an array slot takes
    anywhere = -1  # the last statement of ``body`` with a dependency that may name any of them
    k = -1
    for stmt in stmts:
        k += id(stmt) in top
        kind = stmt._production
        if kind == "Task":
            last[out.number[id(stmt)]] = k
        elif kind == "Let":
            value = stmt.value.value if stmt.value._production == "SetItem" else stmt.value
            if value._production == "Var" and value.name in out.tid_task:
                held.add(out.tid_task[value.name])
        elif kind == "CellSet" and stmt.value._production == "Var":  # (``_Walker.CellSet``)
            name = stmt.value.name
            n = out.tid_task.get(name, out.cells.task.get(name))
            if n is not None:
                held.add(n)
        if kind == "Task" or kind == "HostFence" or kind == "Dummy":
            for dep in stmt.deps:
                n = out.source_of(dep)
                if n is not None:
                    last[n] = k
                elif dep._production in ("DepVar", "DepItem") or dep._production == "CellDep" and dep.cell not in out.joins:
                    anywhere = k
    unread: dict[int, list] = {}
    for task, at in last.items():
        at = max(at, anywhere) if task in held else at
        if at < len(body) - 1:
            unread.setdefault(id(body[at]), []).append(task)
    return {key: tuple(tasks) for key, tasks in unread.items()}


def dead_after(body) -> dict[int, tuple]:
    """``id(statement) -> the names no statement reads after it``, for the statements after which
    the walk may forget names: a name bound in a block (directly, as a result of a loop or an if,
    as a loop's variable or carry, or in a ``with`` block at the block's level, whose names
    escape it) is forgotten after the statement of the block after which nothing reads it, but
    never after a block's last statement (the walk reads a body's ``Yield`` once the body is
    done): a name of a loop's body or an if's branch that is read by its last statement is
    forgotten after the loop or the if, which no statement after it sees (else each loop
    would leave its body's yielded names in the state, and every later copy, meet and state
    key would cost them). In a ``with`` block's body, a name something after the block reads
    is left to the enclosing block."""
    out: dict[int, tuple] = {}

    def bound_by(stmt) -> list[str]:
        kind = stmt._production
        if kind == "Scope" or kind == "CompilerScope":
            return [name for inner in stmt.body for name in bound_by(inner)]
        names = [b.name for b in binders_of(stmt)]
        if kind == "For" or kind == "While":
            names += [it.var.name for it in stmt.iters]
            if kind == "For":
                names.append(stmt.var.name)
        return names

    reads: dict[int, set] = {}  # id(statement) -> the names it reads, in its bodies too (``names_read``)

    def names_read(stmt) -> set:
        """``var_reads([stmt])``'s names, each statement of a body walked once (not once per
        statement it is nested in)."""
        found = reads.get(id(stmt))
        if found is None:
            fields = BODY_FIELDS.get(stmt._production)
            if fields is None:
                found = set(var_reads([stmt]))
            else:
                inner = [s for f in fields for s in getattr(stmt, f)]
                nested = {id(s) for s in inner}
                found = set(var_reads([c for c in stmt._children() if id(c) not in nested]))
                for s in inner:
                    found |= names_read(s)
            reads[id(stmt)] = found
        return found

    # (a block, the (last reads, position) of each enclosing block its names escape to, the loop
    # or if whose body or branch it is: None for the function's body and a ``with`` block's)
    blocks: list[tuple[tuple, tuple, object]] = [(body, (), None)]
    left: dict[int, list[str]] = {}  # id(loop or if) -> the names of its bodies no statement of theirs forgot
    while blocks:
        block, escapes, owner = blocks.pop()
        last: dict[str, int] = {}  # name -> the last statement of the block reading it
        for k, stmt in enumerate(block):
            for name in names_read(stmt):
                last[name] = k
        dying: dict[int, list[str]] = {}
        for k, stmt in enumerate(block):
            kind = stmt._production
            if kind == "Scope" or kind == "CompilerScope":
                blocks.append((stmt.body, ((last, k), *escapes), None))
            else:
                blocks += [(getattr(stmt, f), (), stmt) for f in BODY_FIELDS.get(kind, ())]
            for name in bound_by(stmt):
                at = max(k, last.get(name, k))
                if at < len(block) - 1 and not any(reads.get(name, -1) > j for reads, j in escapes):
                    dying.setdefault(at, []).append(name)
                elif owner is not None:  # (read by the body's yield: no statement after the loop or if sees it)
                    left.setdefault(id(owner), []).append(name)
        for k, names in dying.items():
            out[id(block[k])] = tuple(names)
    for key, names in left.items():  # forgotten after the loop or if that binds them in its bodies
        out[key] = out.get(key, ()) + tuple(names)
    return out


def manual_dep_names(stmts, kernels) -> frozenset:
    """The tensor SSA names that may hold a ``manual_dep`` tensor (made by a create or a view with
    ``manual_dep=True``, or holding one through a copy, an assemble into it, a task result
    aliasing its argument, a loop carry or an if result): the runtime neither looks them up nor
    inserts them."""
    out: set = set()
    rules = []  # (name, the names it may hold the value of)
    for s in stmts:
        kind = s._production
        if kind == "Let":
            if getattr(s.value, "manual_dep", False):
                out.add(s.var.name)
            elif s.value._production == "Var":
                rules.append((s.var.name, (s.value.name,)))
            elif s.value._production == "AssembleTensor" and s.value.target._production == "Var":
                rules.append((s.var.name, (s.value.target.name,)))  # the result is the target
        elif kind == "Task":
            kernel = kernels[s.kernel]
            for i, binder in enumerate(getattr(o, "var", o) for o in s.outs):
                p = output_param_of_result(kernel, i)
                if p is not None and p < len(s.args) and s.args[p].value._production == "Var":
                    rules.append((binder.name, (s.args[p].value.name,)))
        elif kind in ("For", "While"):
            yld = last_yield(s.body)
            for k, (it, result) in enumerate(zip(s.iters, s.results)):
                held = [e.name for e in (it.init, yld.values[k] if yld is not None else None)
                        if e is not None and e._production == "Var"]
                rules += [(it.var.name, tuple(held)), (result.name, tuple(held))]
        elif kind == "If":
            for k, result in enumerate(s.results):
                held = []
                for body in (s.then, s.orelse):
                    yld = last_yield(body)
                    if yld is not None and k < len(yld.values) and yld.values[k]._production == "Var":
                        held.append(yld.values[k].name)
                rules.append((result.name, tuple(held)))
    if not out:
        return frozenset()
    while True:
        grown = {name for name, held in rules if name not in out and any(h in out for h in held)}
        if not grown:
            return frozenset(out)
        out |= grown


def fences_before_writes(body) -> frozenset:
    """The ids of the host fences directly followed, in their block, by a host write of their
    tensor (the same name)."""
    out = set()
    blocks = [body] + [getattr(stmt, name) for stmt in iter_stmts(body) for name in BODY_FIELDS.get(stmt._production, ())]
    for block in blocks:
        for a, b in zip(block, block[1:]):
            if (a._production == "HostFence" and b._production == "WriteTensor" and a.tensor._production == "Var"
                    and b.tensor._production == "Var" and a.tensor.name == b.tensor.name):
                out.add(id(a))
    return frozenset(out)


def may_buffers(stmts, params, kernels) -> dict:
    """Tensor SSA name -> the buffers it may name (a tensor parameter's name, a create's or a
    runtime-allocated output's binder), through copies, views, assembles into it, a task result
    aliasing its argument, loop carries and if results; a name bound otherwise (or from such a
    name) is absent: it may name any buffer (``_Walker.retire``)."""
    base: dict = {p: frozenset((p,)) for p in params}
    rules = []  # (name, the names it may hold the value of)
    unknown: set = set()

    def held(name: str, exprs) -> None:
        if all(e is not None and e._production == "Var" for e in exprs):
            rules.append((name, tuple(e.name for e in exprs)))
        else:
            unknown.add(name)

    for s in stmts:
        kind = s._production
        if kind == "Let":
            value, name = s.value, s.var.name
            vk = value._production
            if vk == "CreateTensor":
                base[name] = frozenset((name,))
            elif vk == "Var":
                held(name, (value,))
            elif vk in VIEWS:
                held(name, (value.tensor,))
            elif vk == "AssembleTensor":
                held(name, (value.target,))
            else:
                unknown.add(name)
        elif kind == "Task":
            kernel = kernels[s.kernel]
            for i, binder in enumerate(getattr(o, "var", o) for o in s.outs):
                p = output_param_of_result(kernel, i)
                if p is None or p >= len(s.args):
                    base[binder.name] = frozenset((binder.name,))
                else:
                    held(binder.name, (s.args[p].value,))
        elif kind in ("For", "While"):
            yld = last_yield(s.body)
            for k, (it, result) in enumerate(zip(s.iters, s.results)):
                exprs = (it.init, yld.values[k] if yld is not None and k < len(yld.values) else None)
                held(it.var.name, exprs)
                held(result.name, exprs)
        elif kind == "If":
            for k, result in enumerate(s.results):
                exprs = []
                for body in (s.then, s.orelse):
                    yld = last_yield(body)
                    exprs.append(yld.values[k] if yld is not None and k < len(yld.values) else None)
                held(result.name, exprs)
    out = dict(base)
    named = set(base) | {name for name, _ in rules}
    while True:
        grown = False
        for name, sources in rules:
            if name in unknown:
                continue
            if any(h in unknown or h not in named for h in sources):
                unknown.add(name)
                out.pop(name, None)
                grown = True
                continue
            now = out.get(name, frozenset()).union(*(out.get(h, frozenset()) for h in sources))
            if now != out.get(name):
                out[name] = now
                grown = True
        if not grown:
            return {name: bufs for name, bufs in out.items() if name not in unknown}


class _Walker:
    def __init__(self, kernels, out: RuntimeOrder, relevant: int, untracked: frozenset = frozenset(), width: int = 0,
                 stable: frozenset = frozenset(), live_reads: frozenset = frozenset(), dead: dict | None = None,
                 unread_orders: dict | None = None, rebound: frozenset = frozenset()):
        self.kernels = kernels
        self.out = out
        self.relevant = relevant
        self.width = width
        self.both = relevant | relevant << width  # the latest-run bits and the older-runs bits
        self.values: dict[str, int] = {}  # the loop variables of the loops walked iteration by iteration
        # the counters of the second iterations walked apart (``second_and_rest``) -> their
        # values there (in the keys of ``RuntimeOrder.chained_at``, ``implied_at`` and the tables
        # keyed as it is, beside the bound ``values`` has)
        self.exact: dict[str, int] = {}
        self.unrolled = 1  # the iterations of those loops around the walk, multiplied
        self.splits = SPLITS  # the rests of blocks still to walk once per exit of a loop before them
        self.split_stmts = 0  # the cost of the rests walked again by the splits so far (``affords_split``)
        self.split_limit = SPLIT_STMTS  # beyond which no rest is walked again
        self.rest_sizes: dict = {}  # (id(body), k) -> the cost of walking body[k:] (``_walk_cost``)
        self.manual = 0
        self.untracked = untracked  # manual_dep tensors: no lookup, no insert
        # the names bound at most once in a walk (``stable_names``), and the regions of views (``region``)
        self.stable = set(stable)
        self.rebound = rebound  # the stable names bound again in each iteration of a loop (``rebound_names``)
        self.views_of: dict[str, set] = {}  # a stable name or region -> the regions of views of it
        self.region_base: dict[str, str] = {}  # a region (``region``) -> the stable name of the tensor it is of
        self.slices: dict[str, dict] = {}  # a stable name -> its slices' regions -> (offsets, extents)
        self.covering: set[str] = set()  # the regions that cover all of their tensor (``region``)
        self.covering_views: dict[str, list] = {}  # a stable name -> those regions of it
        self.live_reads = live_reads  # the host element reads remove_dead_values keeps
        self.dead = dead or {}  # ``dead_after``: the names to forget after a statement
        self.unread_orders = unread_orders or {}  # ``orders_unread_after``: the tasks whose order to forget
        # (a loop, its entry state, the walk's scalars, unrolled and manual) -> [(the split budget
        # before its walk, the budget the walk spent, its exits)]: ``exits``
        self.walked: dict[tuple, list] = {}
        self.loop_walks: dict[int, int] = {}  # id(loop) -> the walks of it so far (``exits``: not those from the memo)
        self.plans: dict[int, tuple] = {}  # id(task statement) -> its ``plan``
        self.varying: dict[int, bool] = {}  # id(loop) -> ``varies``
        self.slice_writes: dict[int, tuple] = {}  # id(loop) -> ``slice_writes``
        # id(task statement) of a writer ``slice_writes`` found -> what its runs in the walk of
        # its loop (``walk_loop``) are ordered after, both bits, met over the walks of its body
        self.written_after: dict[int, int] = {}
        self.later = [False]  # per loop being walked, innermost last: the walk is of an iteration after its first
        self.assumed: dict[int, tuple] = {}  # ``invariant_conditions``, where the walk is split by them
        # per loop being walked (``exits``): (the length of ``later`` before it, its journal: its
        # tasks' ``implied_later`` records, ``later_group``)
        self.journals: list[tuple] = []
        self.params: frozenset = frozenset()  # the function's scalar parameters (``repeated_regions``)
        self.repeated: dict[int, tuple | None] = {}  # id(loop) -> ``repeated_regions``
        self.regions_in: list = []  # per loop walked that has repeated regions: (its plan, {key: facts so far})
        self.bound_at: dict[str, str] = {}  # a slice's name -> the key of its repeated region (``Let``)
        # ``producers``: the tensor names whose TensorMap producers the walk follows (the stable
        # names no loop body binds again), what each may name (``may_buffers``), those that got
        # a producer so far, and id(statement) -> the buffers its AUTO writes may name (``retire``)
        self.fixed: frozenset = frozenset()
        self.buffers: dict = {}
        self.producing: set = set()
        self.writes_of: dict = {}
        self.depth = 0  # the blocks around the walk (``run``)
        self.fence_writes: frozenset = frozenset()  # id(HostFence) directly before a host write of its tensor

    def run(self, body, state: State) -> State:
        """``walk``, and where the walk follows producers (``producers``), the block's end: a
        producer whose run it saw may be retired after it (its scope may end there), and a host
        write after it waits for none of the producer's consumers (its scope's reference is the
        one ``set_tensor_data``'s count leaves out: docs/decisions.md, "set_tensor_data after the
        producer's scope"): the tensor's consumer facts go."""
        if not self.fixed:
            return self.walk(body, state)
        self.depth += 1
        try:
            state = self.walk(body, state)
        finally:
            self.depth -= 1
        if self.producing:
            keep = (1 << (2 * self.width + self.depth + 1)) - 1
            facts = state.facts
            for root in self.producing:
                held = facts.get(root + PRODUCED)
                if held is not None and held & ~keep:
                    facts.pop(root + CONSUMED, None)
                    if held & keep:
                        facts[root + PRODUCED] = held & keep
                    else:
                        del facts[root + PRODUCED]
        return state

    def walk(self, body, state: State) -> State:
        for k, stmt in enumerate(body):
            kind = stmt._production
            dead = self.dead.get(id(stmt))
            unread = self.unread_orders.get(id(stmt))
            if (kind == "For" or kind == "While") and self.splits and k + 1 < len(body):
                paths = self.exits(stmt, state)
                for path in paths:
                    if dead:
                        path.forget(dead, self.stable)
                    if unread:
                        path.forget_orders(unread)
                # the rest of the block walked on each, then met, while the loop's own walk left
                # some of the budget (else the exits meet)
                if len(paths) > 1 and self.splits and not self.affords_split(body, k + 1):
                    self.splits = 0  # (the budget is spent: the memo of ``exits`` reads it so)
                if len(paths) > 1 and self.splits:
                    self.splits -= 1
                    ends, saved = [], self.values
                    for path, known in zip(paths, self.exit_scalars(stmt, len(paths))):
                        if known is None:
                            continue  # (an exit of the other parity than the walk's: ``invariant_parity_loops``)
                        self.values = {**saved, **known}
                        ends.append(self.run(body[k + 1:], path))
                    self.values = saved
                    return _meet_all(ends)
                state = _meet_all(self.consistent(stmt, paths))
                continue
            handler = getattr(self, kind, None)
            if handler is not None:
                state = handler(stmt, state)
            if dead:
                state.forget(dead, self.stable)
            if unread:
                state.forget_orders(unread)
        return state

    def affords_split(self, body, start: int) -> bool:
        """Whether walking ``body[start:]`` once more keeps what the splits walk again within
        ``split_limit`` (and if so, counts it): the rest's statements, a loop's body counted twice
        (``_walk_cost``), so that the splits cost at most a share of the function's size, not
        their number times the rests' sizes. A split refused spends the budget of splits
        (``walk``), as the memo of ``exits`` reads it."""
        key = (id(body), start)
        size = self.rest_sizes.get(key)
        if size is None:
            size = self.rest_sizes[key] = _walk_cost(body[start:])
        if self.split_stmts + size > self.split_limit:
            return False
        self.split_stmts += size
        return True

    def Let(self, let, state: State) -> State:
        value = let.value
        name = let.var.name
        held = self.tids_of(value, let.var.type, state)
        if held is None:
            state.tids.pop(name, None)
        else:
            state.tids[name] = held
        if value._production == "ReadTensor" and name in self.live_reads:
            self.wait(value.tensor, value.index, state)
        elif value._production == "AssembleTensor" and self.producing:  # (a copy into the target)
            self.retire(self.buffers.get(value.target.name) if value.target._production == "Var" else None, state)
        self.detach(name, state)
        if value._production == "Var":
            state.bind_same(name, value.name, self.stable)
            return state
        region = self.region(value, state)
        # (what every run of the loop around it left at each of its counter's regions)
        key = self.repeated_key(let, state) if self.regions_in else None
        if key is not None:
            self.bound_at[name] = key
        if region is not None:
            self.stable.add(region)
            state.alias[name] = region
            state.facts.pop(name, None)
            if region in self.covering:  # (a lookup of it finds every entry of its tensor)
                base = self.region_base[region]
                state.write(region, state.of(region) | state.of(base))
            if key is not None:
                state.write(region, state.of(region) | state.of(key))
        else:
            state.bind(name, state.never_ran if key is None else state.of(key))
        return state

    def repeated_key(self, let, state: State) -> str | None:
        """The key of the facts of the region ``let``'s slice views in each iteration of the loop
        around it (``repeated_regions``), where it is one of that loop's such slices."""
        plan = self.regions_in[-1][0]
        offsets = plan[0].get(id(let))
        if offsets is None:
            return None
        root = state.alias.get(let.value.tensor.name, let.value.tensor.name)
        if root not in self.stable:
            return None
        key = f"{root}[{offsets}]@{plan[3]}"
        self.views_of.setdefault(root, set()).add(key)  # (``detach``: a new tensor under ``root`` drops them)
        return key

    def region(self, value, state: State) -> str | None:
        """The name of the region a view ``value`` covers, shared by the views of that region
        (``State.alias``): a slice, at offsets and of extents the walk knows (constants, or computed
        from the scalars of the loops walked iteration by iteration; not clamped), a transpose or
        a reshape (to extents the walk knows) of a tensor with a stable name. A lookup of either
        finds the same TensorMap entries (those whose region overlaps it), and a write through
        either inserts an entry of that region. A slice's offsets and extents are noted
        (``slices``: ``wait`` finds the slices that hold an element)."""
        kind = value._production
        if kind not in VIEWS or value.manual_dep or value.tensor._production != "Var":
            return None
        root = state.alias.get(value.tensor.name, value.tensor.name)
        if root not in self.stable:
            return None
        if kind == "TransposeTensor":
            region = f"{root}^{value.axis1},{value.axis2}"
        else:
            shape = tuple(evaluate_scalar(e, self.values) for e in value.shape)
            if None in shape:
                return None
            if kind == "ReshapeTensor":
                region = f"{root} as {','.join(map(str, shape))}"
            else:
                offset = tuple(evaluate_scalar(e, self.values) for e in value.offset)
                if value.clamp or None in offset:
                    return None
                region = f"{root}[{','.join(map(str, shape))} at {','.join(map(str, offset))}]"
                self.slices.setdefault(root, {})[region] = (offset, shape)
        if kind != "SliceTensor" and region not in self.covering:
            self.covering.add(region)
            self.covering_views.setdefault(root, []).append(region)
        self.region_base[region] = root
        self.views_of.setdefault(root, set()).add(region)
        return region

    def detach(self, name: str, state: State) -> None:
        """``name`` (``rebound``) is about to be bound again: the names that share the facts of
        the tensor it held, or of a view of it (``region``), keep those facts as their own (they
        still hold that tensor), and the views' facts go (a view of the new tensor starts
        afresh), and so do the partial facts of both."""
        if name not in self.rebound:
            return
        gone = {name}
        stack = [name]
        while stack:
            for region in self.views_of.get(stack.pop(), ()):
                if region not in gone:
                    gone.add(region)
                    stack.append(region)
        alias = state.alias
        if alias:
            for other, root in list(alias.items()):
                if root in gone and other not in gone:
                    del alias[other]
                    held = state.facts.get(root)
                    if held:
                        state.facts[other] = held
                    else:
                        state.facts.pop(other, None)
        facts = state.facts
        for region in gone:
            if region != name:
                facts.pop(region, None)
            facts.pop(partial(region), None)

    def publish(self, name: str, state: State) -> None:
        """After a write through ``name``, the tensors it is a view of get its facts (a lookup of
        a tensor overlaps every entry a lookup of a view of it finds): as their own where each view
        on the way covers all of its tensor (a transpose or a reshape: ``covering``), else as
        *partial* facts (under ``partial``), which a host element access may not wait for
        (``wait`` reads the facts of the whole tensor and of the slices that hold the element).
        And the covering views of a tensor that got them get the tensor's facts (a lookup of such
        a view overlaps every entry of the tensor), and so, in turn, do the covering views of
        those views (a reshape of a reshape covers the tensor too: seed 82)."""
        root = state.alias.get(name, name)
        if root not in self.region_base and root not in self.covering_views:
            return
        whole = state.of(root)
        part = state.facts.get(partial(root), 0)
        reached = [root]  # (the tensors that got ``whole`` as their own facts)
        view, base = root, self.region_base.get(root)
        while base is not None:
            if whole and view in self.covering:
                state.write(base, state.of(base) | whole)
                reached.append(base)
            else:
                part |= whole & ~state.never_ran
                whole = 0
            if part:
                state.facts[partial(base)] = state.facts.get(partial(base), 0) | part
            view, base = base, self.region_base.get(base)
        stack = list(reached)
        while stack:  # (and so do the covering views of those views: a reshape of a reshape)
            tensor = stack.pop()
            for view in self.covering_views.get(tensor, ()):
                if view not in reached:
                    reached.append(view)
                    stack.append(view)
                    state.write(view, state.of(view) | state.of(tensor))

    def looked_up(self, name: str, state: State) -> int:
        """What a task's lookup of the tensor ``name`` (all of it) is ordered after: its facts and
        the partial facts of the views of its regions written (``publish``)."""
        held = state.of(name)
        if self.region_base:
            held |= state.facts.get(partial(state.alias.get(name, name)), 0)
        return held

    def Task(self, task, state: State) -> State:
        n, lookup_names, write_names, outs, maybe_manual = self.plan(task)
        auto = not self.manual
        if maybe_manual and auto:  # (those the walk knows hold a tracked tensor here count)
            held = [(d, name) for d, name in maybe_manual if self.tracked_here(name, state)]
            lookup_names += tuple(name for d, name in held if d in LOOKUPS)
            write_names += tuple(name for d, name in held if d in WRITES)
        lookups = 0
        if auto:
            for name in lookup_names:
                lookups |= self.looked_up(name, state)
        sources, through, implied = self.implied(task.deps, lookups | state.done, state)
        self._meet(self.out.runtime, n, (lookups | state.done) & self.relevant)
        if self.later[-1]:
            self._meet(self.out.later, n, (lookups | state.done) & self.relevant)
        self._meet(self.out.implied, n, frozenset(implied))
        if task.deps:
            key = self.implied_key()
            self._meet(self.out.implied_at.setdefault(n, {}), key, frozenset(implied))
            never = state.never_ran
            ran = frozenset(k for k in implied if sources[k] is None or not never >> sources[k] & 1)
            self._meet(self.out.implied_run_at.setdefault(n, {}), key, ran)
            runtime = self.closed(lookups | state.done, state)
            by_runtime = frozenset(k for k in ran if sources[k] is not None and runtime >> sources[k] & 1
                                   and not (self.out.is_join(task.deps[k]) and not runtime >> (self.width + sources[k]) & 1))
            if by_runtime:
                seen = self.out.implied_ran_at.setdefault(n, {})
                seen[key] = seen.get(key, frozenset()) | by_runtime
            self.implied_later_is(n, tuple(self.later), frozenset(implied))
        after = lookups | state.never_ran | state.done
        for t in through:
            after |= t
        after = self.closed(after, state) & self.both
        self._meet(self.out.ordered, n, after & self.relevant)
        self._meet(self.out.ordered_every, n, after)
        if id(task) in self.written_after:
            self.written_after[id(task)] &= after
        mine = after
        if self.relevant >> n & 1:
            own = (1 << n) | (1 << (self.width + n))
            self._meet(self.out.chained_at.setdefault(n, {}), frozenset({**self.values, **self.exact}.items()),
                       after >> n & 1 | (after & own == own) << 1)
            if after & own == own:  # this run comes after every earlier one
                state.chained |= 1 << n
            else:
                state.chained &= ~(1 << n)
            state.ran(n)
            after &= ~own
            state.order[n] = after & ~state.never_ran
            mine = after | (1 << n)
        self.producers(task, n, sources, implied, mine, state)
        if auto:
            for name in write_names:
                state.write(name, state.of(name) | mine)
                self.publish(name, state)
            if self.regions_in:
                plan, found = self.regions_in[-1]
                if id(task) in plan[1]:
                    for name in write_names:
                        key = self.bound_at.get(name)
                        if key is not None:
                            held = mine & ~plan[2]  # (the tasks of the loop's body run again: not theirs)
                            found[key] = held if key not in found else found[key] & held
        for binder, same in outs:
            self.detach(binder, state)
            if same is True:
                state.bind(binder, state.never_ran | mine)  # runtime-allocated: the creator is retained
            elif same:
                state.bind_same(binder, same, self.stable)
            else:
                state.bind(binder, state.never_ran)
        return state

    def implied_key(self) -> frozenset:
        """The key of the walk's records in ``implied_at`` (and the tables keyed as it is): its
        scalars, with the counters' values in the second iterations walked apart (``exact``)."""
        return frozenset({**self.values, **self.exact}.items())

    def plan(self, task) -> tuple:
        """What ``Task`` reads of a task statement, the same on every walk of it: (its number, the
        names its AUTO lookups read, the names its AUTO writes write, and per result (its binder's
        name, True for a runtime-allocated output, else the name of the argument it is, or None
        for an argument that is no name), and the (direction, name) of its arguments that may hold
        a ``manual_dep`` tensor (``tracked_here`` decides them on each walk))."""
        plan = self.plans.get(id(task))
        if plan is None:
            untracked = self.untracked
            tracked = [(arg.dir, arg.value.name) for arg in task.args
                       if arg.value._production == "Var" and arg.value.name not in untracked]
            maybe_manual = tuple((arg.dir, arg.value.name) for arg in task.args
                                 if arg.value._production == "Var" and arg.value.name in untracked
                                 and arg.dir in LOOKUPS + WRITES)
            params = output_params(self.kernels[task.kernel])
            outs = []
            for i, out in enumerate(task.outs):
                p = params[i]
                if p is None or p >= len(task.args):
                    same = True
                else:
                    value = task.args[p].value
                    same = value.name if value._production == "Var" else None
                outs.append((getattr(out, "var", out).name, same))
            plan = self.plans[id(task)] = (self.out.number[id(task)],
                                           tuple(name for d, name in tracked if d in LOOKUPS),
                                           tuple(name for d, name in tracked if d in WRITES), tuple(outs),
                                           maybe_manual)
        return plan

    def tracked_here(self, name: str, state: State) -> bool:
        """Whether ``name``, which may hold a ``manual_dep`` tensor on some path (``untracked``),
        holds a tensor the runtime tracks at this point of the walk: an alias (``State.alias``:
        it holds that tensor on every path here) of a stable name or region that is no
        ``manual_dep`` tensor (a carry swapped with a ``manual_dep`` one holds the other tensor
        in every other iteration)."""
        root = state.alias.get(name)
        return root is not None and root not in self.untracked

    def tids_of(self, value, type_, state: State):
        """What a TaskId or TaskId array value holds (``State.tids``), or None."""
        kind = value._production
        if kind == "Var":
            return self.tid_of(value.name, state)
        if kind == "CreateArray":
            return (None,) * value.size
        if kind not in ("GetItem", "SetItem") or value.array._production != "Var":
            return None
        slots = state.tids.get(value.array.name)
        index = evaluate_scalar(value.index, self.values)
        if kind == "GetItem":
            return slots[index] if isinstance(slots, tuple) and index is not None and 0 <= index < len(slots) else None
        size = type_.size if type_._production == "ArrayType" else None
        if index is None or size is None or not 0 <= index < size:
            return None  # (any slot may have changed)
        slots = list(slots) if isinstance(slots, tuple) and len(slots) == size else [None] * size
        slots[index] = self.tid_of(value.value.name, state) if value.value._production == "Var" else None
        return tuple(slots)

    def tid_of(self, name: str, state: State):
        """The relevant task whose latest run the TaskId (or array) ``name`` holds, or None."""
        if name in state.tids:
            return state.tids[name]
        task = self.out.tid_task.get(name)
        return task if task is not None and self.relevant >> task & 1 else None

    def CellSet(self, cell_set, state: State) -> State:
        """A store into a cell: the walk knows which relevant task's latest run the cell holds
        until that task runs again (``State.ran``) where it knows what the stored value holds (a
        TaskId, or a cell: a latest-run cell's task, or what the walk knows of it)."""
        value, cell = cell_set.value, cell_set.cell
        held = None
        if value._production == "Var":
            name = value.name
            if name in state.tids or name in self.out.tid_task:
                held = self.tid_of(name, state)
            else:
                held = self.out.cells.task.get(name)
                held = held if held is not None and self.relevant >> held & 1 else None
        if isinstance(held, int):
            state.tids[cell] = held
        else:
            state.tids.pop(cell, None)
        return state

    def WriteTensor(self, write, state: State) -> State:
        """A host element write waits as a read does (``wait``) and also for the consumers of the
        tensor's TensorMap producers (``producers``)."""
        self.wait(write.tensor, write.index, state)
        tensor = write.tensor
        if self.producing and tensor._production == "Var" and tensor.name not in self.untracked:
            held = state.facts.get(state.alias.get(tensor.name, tensor.name) + CONSUMED)
            if held:
                state.done |= held & self.both
        return state

    def producers(self, task, n: int, sources: list, implied, mine: int, state: State) -> None:
        """The consumers of a tensor's TensorMap producers, which a host element write of it waits
        for (runtime-api.md section 11: ``set_tensor_data`` waits for each producer's consumers to
        finish). Under ``root + PRODUCED`` the facts hold the relevant tasks whose latest run wrote
        all of the tensor of stable name ``root`` (InOut or OutputExisting, AUTO) and is still
        one of its TensorMap entries: no write that may cover it (an AUTO write of a tensor that may
        name the same buffer, ``retire``) came after it. Under ``root + CONSUMED`` they hold the
        tasks whose latest run (and what it is ordered after) a host write of the tensor waits
        for: an AUTO task that looks the tensor up while the block in which a producer's run was
        walked goes on (bit ``2 * width + depth`` of the producers' facts, for
        the ``depth`` of that block, ``run``: the runtime's scopes are whole blocks, so the
        producer's scope has not ended and it has not retired). A host write after it in the
        same block is ordered after it; at the block's end the consumer facts go (``run``).
        Not a task whose explicit dependency names the producer's run: a lean pass after the
        analysis may reroute that dependency through a later task ordered after the producer
        (``merge_cells_into_chains``' chained cells), which leaves the task no consumer of it
        (attack seed 5260's program 10: a host write raced a manual-scope writer)."""
        if self.fixed and not self.manual:
            plan = self.plan(task)
            facts = state.facts
            for name in plan[1] if self.producing else ():  # (a lookup finds the entry: a consumer)
                root = state.alias.get(name, name)
                if facts.get(root + PRODUCED, 0) >> (2 * self.width):
                    key = root + CONSUMED
                    facts[key] = (facts.get(key, 0) | mine) & ~state.never_ran
            self.retire(self.written(task), state)
            own = (1 << n if self.relevant >> n & 1 else 0) | 1 << (2 * self.width + self.depth)
            for name in plan[2]:
                root = state.alias.get(name, name)
                if root in self.fixed:
                    facts[root + PRODUCED] = own
                    self.producing.add(root)

    def written(self, stmt) -> frozenset | None:
        """The buffers the AUTO writes of task ``stmt`` (its InOut and OutputExisting arguments,
        ``manual_dep`` or not) may name; None: any."""
        found = self.writes_of.get(id(stmt), False)
        if found is False:
            found = frozenset()
            for arg in stmt.args:
                if arg.dir in WRITES:
                    held = self.buffers.get(arg.value.name) if arg.value._production == "Var" else None
                    if held is None:
                        found = None
                        break
                    found |= held
            self.writes_of[id(stmt)] = found
        return found

    def retire(self, buffers, state: State) -> None:
        """An AUTO write of a tensor that may name ``buffers`` (None: any) may cover, and so retire,
        the TensorMap entries of the producers ``producers`` follows: theirs and their consumers'
        facts go where the tensor may name the same buffer."""
        facts = state.facts
        for root in self.producing:
            if root + PRODUCED in facts or root + CONSUMED in facts:
                held = self.buffers.get(root)
                if buffers is None or held is None or held & buffers:
                    facts.pop(root + PRODUCED, None)
                    facts.pop(root + CONSUMED, None)

    def wait(self, tensor, index, state: State) -> None:
        """A host element access of ``tensor`` (at ``index``), in either scope mode, waits for the
        tensor's creator and TensorMap producers, which cover the whole tensor (``facts``: a task
        that wrote it all, or one ordered before such a task), and those of the slices of it
        (``region``) that hold the element, where the walk knows its index; it blocks the
        orchestration thread until they complete: every later task and host fence is submitted
        after their latest runs."""
        if tensor._production == "Var" and tensor.name not in self.untracked:
            held = state.of(tensor.name)
            slices = self.slices.get(state.alias.get(tensor.name, tensor.name))
            if slices:
                at = [evaluate_scalar(e, self.values) for e in index]
                if None not in at:
                    for region, (offset, shape) in slices.items():
                        if len(offset) == len(at) and all(o <= i < o + n for o, i, n in zip(offset, at, shape)):
                            held |= state.of(region)
            state.done |= held & self.both

    def implied(self, deps, lookups: int, state: State) -> tuple[list, list, set]:
        """(the task each dependency names or None, what each orders after, the positions of the
        implied ones) for dependencies ``deps`` of a node whose lookups order it after ``lookups``.
        A dependency on a join cell (every run of its task) is implied like one on the latest run
        where the task's runs so far are chained (``State.chained``); elsewhere only by another
        join of the same task."""
        if not deps:  # (a task of no dependency: none is implied)
            return [], [], set()
        sources = [self.out.source_of(dep) for dep in deps]
        for k, dep in enumerate(deps):  # a user dependency on a TaskId held by a name or an array slot
            if sources[k] is None and dep._production == "CellDep" and dep.cell not in self.out.joins:
                held = state.tids.get(dep.cell)  # (a cell whose store the walk saw)
                sources[k] = held if isinstance(held, int) else None
            elif sources[k] is None and dep._production == "DepVar" and dep.value._production == "Var":
                held = state.tids.get(dep.value.name)
                sources[k] = held if isinstance(held, int) else None
            elif dep._production == "DepItem" and dep.array._production == "Var":
                slots, index = state.tids.get(dep.array.name), evaluate_scalar(dep.index, self.values)
                if isinstance(slots, tuple) and index is not None and 0 <= index < len(slots):
                    sources[k] = slots[index]
        joins = [s is not None and self.out.is_join(dep) for s, dep in zip(sources, deps)]
        # what each dependency waits for: 2 every run of its task, 1 its latest run
        strength = [0 if s is None else 2 if j and not state.chained >> s & 1 else 1 for s, j in zip(sources, joins)]
        through = [self.held_after(dep, state) if s is None else (1 << s) | (j << (self.width + s)) | state.after(s)
                   for s, j, dep in zip(sources, joins, deps)]
        held = 0  # (what the user's dependencies that name no one task's latest run order after)
        for s, t in zip(sources, through):
            held |= t if s is None else 0
        implied = implied_positions(sources, joins, strength, through, lookups | held, self.width,
                                    lambda bits: self.closed(bits, state))
        return sources, through, implied

    def held_after(self, dep, state: State) -> int:
        """What a user dependency that names no one relevant task's latest run orders after: one
        on a whole TaskId array, after the latest run each slot is known to hold (``State.tids``;
        the emitted program inserts every valid slot) and what that run is ordered after; one on
        the TaskId of the user's ``task_dummy`` (or a copy, a carry of it), after what the dummy's
        entries order it after (``Dummy``: the facts of its binder, ``never_ran`` where there are
        none). A user dependency stays (no pass drops one), so what it orders holds whatever the
        lean passes drop."""
        if dep._production != "DepVar" or dep.value._production != "Var":
            return 0
        name = dep.value.name
        slots = state.tids.get(name)
        if isinstance(slots, tuple):
            out = 0
            for s in slots:
                if s is not None:
                    out |= (1 << s) | state.after(s)
            return out
        return state.of(name) & self.both

    def Dummy(self, dummy, state: State) -> State:
        """The user's ``task_dummy`` (and a phase fence's dummy: no ``purpose``) is ordered after
        what its user entries order after; its binder's facts hold that (``held_after`` reads
        them), as a task's order would. When the entries stand for no TaskId no dummy is
        submitted and the binder is invalid: a dependency on it then orders after nothing, but
        nothing valid was there to order after either (a fact on a task that has not run holds).
        When they stand for one, the binder is that TaskId: the same order. A compiler's barrier
        (``purpose``) is left out: the lean passes rewrite its entries."""
        name = dummy.var.name
        after = state.never_ran
        if dummy.purpose is None:
            deps = [dep for dep in dummy.deps if dep._production in ("DepVar", "DepItem")]
            _, through, _ = self.implied(deps, 0, state)
            for t in through:
                after |= t
            after = self.closed(after, state) & self.both
        state.tids.pop(name, None)
        state.bind(name, after)
        return state

    def closed(self, bits: int, state: State) -> int:
        """``bits`` with what they imply: the latest run of a task whose runs are chained comes
        after its older runs."""
        return bits | (bits & state.chained & self.relevant) << self.width

    def HostFence(self, fence, state: State) -> State:
        """A host fence's implied dependencies (its INOUT lookup of the tensor counts: the host
        access after it waits for the same producers). In an AUTO scope the fence, submitted when
        a dependency of it holds a run, is a producer of the tensor ordered after them: a lookup
        of the tensor is ordered after what they hold (an InOut writer that looked the entries up
        first removes no fact)."""
        lookups = 0
        tracked = not self.manual and fence.tensor._production == "Var" and fence.tensor.name not in self.untracked
        if tracked:
            lookups = state.of(fence.tensor.name)
        sources, through, implied = self.implied(fence.deps, lookups | state.done, state)
        self._meet(self.out.fence_implied, id(fence), frozenset(implied))
        if tracked and id(fence) in self.fence_writes:
            # (the host write after it waits for the consumers of the tensor's producers, where
            # no fence covers their entries first: ``fence_consumed``)
            held = state.facts.get(state.alias.get(fence.tensor.name, fence.tensor.name) + CONSUMED, 0)
            consumed = set(implied)
            for k, s in enumerate(sources):
                if s is not None:
                    need = 1 << s | (1 << (self.width + s) if self.out.is_join(fence.deps[k]) else 0)
                    if held & need == need:
                        consumed.add(k)
            self._meet(self.out.fence_consumed, id(fence), frozenset(consumed))
        if self.producing and not self.manual:  # (an INOUT writer of the tensor: it may cover an entry)
            self.retire(self.buffers.get(fence.tensor.name) if fence.tensor._production == "Var" else None, state)
        if fence.deps:
            self._meet(self.out.fence_implied_at.setdefault(id(fence), {}), self.implied_key(),
                       frozenset(implied))
        if tracked:
            after = lookups | state.never_ran | state.done
            for t in through:
                after |= t
            after = self.closed(after, state) & self.both
            self._meet(self.out.fence_ordered, id(fence), after & self.relevant)
            self._meet(self.out.fence_runtime, id(fence), (lookups | state.done) & self.relevant)
            state.write(fence.tensor.name, after)
            self.publish(fence.tensor.name, state)
        return state

    @staticmethod
    def _meet(table: dict, n: int, value) -> None:
        seen = table.get(n)
        table[n] = value if seen is None else seen & value

    def Scope(self, scope, state: State) -> State:
        manual = scope.mode is ScopeMode.manual
        self.manual += manual
        try:
            return self.run(scope.body, state)
        finally:
            self.manual -= manual

    CompilerScope = Scope

    def If(self, branch, state: State) -> State:
        taken = evaluate_scalar(branch.cond, self.values) if self.values else None
        if taken is None and self.assumed:
            key = self.assumed.get(id(branch))
            if key is not None:
                taken = self.values.get((ASSUME, key))
        if taken is not None:  # (in a loop walked iteration by iteration: one branch runs)
            body = branch.then if taken else branch.orelse
            out = self.run(body, state)
            for k, result in enumerate(branch.results):
                self.detach(result.name, out)
                name = yielded_name(body, k)
                if name is not None:  # (the tensor that name holds: shared where it has a stable name)
                    out.bind_same(result.name, name, self.stable)
                else:
                    out.bind(result.name, out.never_ran)
                out.tids.pop(result.name, None)
            return out
        then = self.run(branch.then, state.copy())
        orelse = self.run(branch.orelse, state)
        merged = meet(then, orelse)
        for k, result in enumerate(branch.results):
            self.detach(result.name, merged)
            root = _root(yielded_name(branch.then, k), then, self.stable)
            if root is not None and root == _root(yielded_name(branch.orelse, k), orelse, self.stable):
                merged.alias[result.name] = root  # (both branches yield that tensor: the result shares its facts)
                merged.facts.pop(result.name, None)
            else:
                merged.bind(result.name, _yielded(branch.then, k, then) & _yielded(branch.orelse, k, orelse))
            merged.tids.pop(result.name, None)
        return merged

    def For(self, loop, state: State) -> State:
        return _meet_all(self.consistent(loop, self.exits(loop, state)))

    def consistent(self, loop, paths: list) -> list:
        """``paths``, the exits of ``loop``, less those of another trips' parity than the walk's
        scalars say (``invariant_parity_loops``)."""
        parities = self.parities(loop, len(paths))
        if parities[0] is None:
            return paths
        want = self.values.get((PARITY, self.parity_loop(loop)))
        return paths if want is None else [path for path, parity in zip(paths, parities) if parity == want]

    While = For

    def exits(self, loop, state: State) -> list:
        """The state after the loop: one, or two for a loop that may not run (the state before
        it, and the state after one or more iterations), or three (``walk_by_parity``; or no
        trip, one, two or more, where the second iteration is walked apart), or four (both), each
        with the loop's results (``parities``: the trips' parity on each).

        A walk depends on the loop, the state before it, the walk's scalars, the loops unrolled
        and the MANUAL scopes around it, and on the split budget only through whether it is
        left at each loop that splits (``run``): a walk with budget ``b`` that spent ``s`` is
        the same walk from any budget ``b`` or, where it never ran out (``s < b``), any budget of
        ``s`` or more. Such a walk is not walked again: its exits are those of the first, the
        budget goes down by the same ``s``, and what it would record about tasks is recorded
        (``_meet`` of the same values changes nothing).

        A loop walked ``LOOP_WALKS`` times already is walked from nothing known instead
        (``walk_knowing_nothing``): each walk of a loop walks the loops in it from states and
        scalars of their own (its first iteration's, its later ones', ...), so the walks of a
        loop nested ``d`` deep grow as ``2 ** d`` (``for i in pl.range(n)`` nested 18 deep:
        2 ** 18); past the budget every loop costs at most ``LOOP_WALKS`` walks and those from
        nothing known, which are the same walk each time."""
        walks = self.loop_walks.get(id(loop), 0)
        if walks >= LOOP_WALKS:
            return self.walk_knowing_nothing(loop)
        return self.exits_from(loop, state)

    def walk_knowing_nothing(self, loop) -> list:
        """``exits`` of ``loop`` walked from ``State.knowing_nothing``, with no scalars (no branch
        taken for a known value, no counter known) and no split budget (the exits of the loops in
        it meet): the walk is monotone, so it finds fewer orders than the walk from any state the loop is
        reached in, each record it makes (``_meet``: the tables hold what every walk found) is at
        most what that walk would make, and a task it does not reach is recorded as implying
        nothing (the readers of the tables default to nothing). Its exits stand for those of
        every walk of the loop past the budget (``exits``' memo: the same key each time)."""
        saved = self.values, self.exact, self.splits
        self.values, self.exact, self.splits = {}, {}, 0
        try:
            return self.exits_from(loop, State.knowing_nothing(self.width))
        finally:
            self.values, self.exact, self.splits = saved

    def exits_from(self, loop, state: State) -> list:
        """``exits``, walked from ``state`` or taken from the memo of the walks so far."""
        key = (id(loop), state.key(), frozenset(self.values.items()), frozenset(self.exact.items()), self.unrolled,
               self.manual)
        budget = self.splits
        later = tuple(self.later)
        for before, spent, paths, journal in self.walked.get(key, ()):
            if budget == before or spent < before and budget >= spent:
                self.splits -= spent
                # (what the walk recorded of its tasks' ``implied_later``, recorded under ``later``)
                for n, (implied, levels, lengths) in journal.items():
                    self.later_group(n, later, implied, levels, lengths)
                return [path.copy() for path in paths]
        self.loop_walks[id(loop)] = self.loop_walks.get(id(loop), 0) + 1
        self.journals.append((len(later), {}))
        try:
            paths = self.walk_loop(loop, state)
        finally:
            _, journal = self.journals.pop()
        if self.journals:  # (the loop being walked around it recorded it all too)
            cut, around = self.journals[-1]
            for n, (implied, levels, lengths) in journal.items():
                self.journal_group(around, cut, n, later, implied, levels, lengths)
        self.walked.setdefault(key, []).append((budget, budget - self.splits, [path.copy() for path in paths], journal))
        return paths

    def implied_later_is(self, n: int, flags: tuple, implied: frozenset) -> None:
        """Record that task ``n``'s dependencies ``implied`` are implied in a walk under the
        first/later-iteration ``flags`` (``RuntimeOrder.implied_later``), and so in the journals
        of the loops being walked (``exits``: a walk of a loop taken again under other flags
        records its journal under them)."""
        self.later_group(n, flags, implied, {}, (0,))

    def later_group(self, n: int, prefix: tuple, implied: frozenset, levels: dict, lengths) -> None:
        """Record walks of task ``n`` under the first/later-iteration flags ``prefix`` followed
        by flags of their own: ``implied`` is implied in each, ``levels[j]`` in each whose flag
        ``len(prefix) + j`` is set, and the flags past ``prefix`` have the ``lengths``. A journal
        (``exits``) holds a loop's walk so, past the flags before the loop, per task: (what every
        record of it implies, ``levels``, ``lengths``), a task's and a level's records met; the
        tables ``implied_after_first`` reads need no more, and a loop nested ``d`` deep is in a
        journal of ``d`` entries per task where its records under each ``2 ** d`` flags were. Only
        the innermost loop's journal takes them: it goes into the one around it when its walk ends."""
        out = self.out
        self._add_later(out.implied_later.setdefault(n, {}), out.later_depths.setdefault(n, set()), 0, prefix,
                        implied, levels, lengths)
        if self.journals:
            cut, journal = self.journals[-1]
            self.journal_group(journal, cut, n, prefix, implied, levels, lengths)

    def journal_group(self, journal: dict, cut: int, n: int, prefix: tuple, implied: frozenset, levels: dict,
                      lengths) -> None:
        """``later_group`` into ``journal``, of a loop walked with ``cut`` flags before it."""
        entry = journal.get(n)
        if entry is None:
            entry = journal[n] = (implied, {}, set())
        elif not implied >= entry[0]:
            entry = journal[n] = (entry[0] & implied, entry[1], entry[2])
        self._add_later(entry[1], entry[2], cut, prefix, implied, levels, lengths)

    @staticmethod
    def _add_later(table: dict, depths: set, cut: int, prefix: tuple, implied: frozenset, levels: dict,
                   lengths) -> None:
        """``later_group`` into ``table`` and ``depths``, of the flags past the first ``cut``."""
        meet = _Walker._meet
        for d in range(cut, len(prefix)):
            if prefix[d]:
                meet(table, d - cut, implied)
        shift = len(prefix) - cut
        for j, held in levels.items():
            meet(table, shift + j, held)
        for length in lengths:
            depths.add(shift + length)

    def walk_loop(self, loop, state: State) -> list:
        """``exits``, walked; after a loop of ``repeated_regions``, the facts its writers left at
        the regions of its slices (every one it made, the trips being the same each time it runs:
        where it made none, it makes none in any run, and the facts are read by no slice)."""
        plan = self.repeated.get(id(loop), 0)
        if plan == 0:
            plan = self.repeated[id(loop)] = repeated_regions(loop, self.params, self.out.number)
        if plan is None:
            return self.walk_loop_once(loop, state)
        self.regions_in.append((plan, {}))
        try:
            paths = self.walk_loop_once(loop, state)
        finally:
            _, found = self.regions_in.pop()
        for path in paths:  # (and where it made no trip: then it makes none each time, and no slice is made)
            for key, held in found.items():
                path.write(key, path.of(key) | held)
        return paths

    def walk_loop_once(self, loop, state: State) -> list:
        """``walk_loop``, but for the facts of repeated regions."""
        iterations = self.iterations(loop)
        if iterations is not None:  # each iteration walked in turn (no back edge)
            header = self.enter(loop, state, None)
            saved, unrolled = self.values, self.unrolled
            self.unrolled *= max(1, len(iterations))
            for k, values in enumerate(iterations):
                self.values = {**saved, **values}
                self.later.append(k > 0)
                end = self.run(loop.body, header)
                self.later.pop()
                header = self.enter(loop, end, end)
            self.values, self.unrolled = saved, unrolled
            out = _with_results(loop, header, self)
            return [self.parallel_results(loop, out) if iterations else out]
        runs = surely_runs(loop)
        trips = static_trip_count(loop) if runs and not self.manual else None
        writes = self.slice_writes_of(loop) if trips is not None and trips <= SUMMARIZED else ()
        for _, task, _ in writes:
            self.written_after[id(task)] = -1
        entry = self.enter(loop, state, None)
        saved = self.values
        first, later = first_and_later(loop, saved)
        if not runs and self.parities(loop, 3)[0] is not None:
            return self.walk_by_parity(loop, entry, first, later)
        if (trips is not None and trips >= 2 and not writes and loop._production == "For"
                and loop.kind is LoopKind.seq and loop.step._production == "Int" and loop.step.value > 0
                and moves_carries(loop)):
            # (constant bounds, too many iterations to walk one by one: it leaves by the exit of
            # the parity its bounds say, each carry the tensor it holds after such trips)
            paths = self.walk_by_parity(loop, entry, first, later)
            return [paths[1] if trips % 2 == 0 else paths[-1]]
        # the first iteration, from the state before the loop (kept for the exit where it may not run)
        self.values = first
        self.later.append(False)
        end = self.run(loop.body, entry if runs else entry.copy())
        header = self.enter(loop, end, end)  # the state before every later iteration, to a fixpoint
        self.later[-1] = True
        peeled = second_and_rest(loop, saved)
        once = None
        if peeled is not None:  # (the second iteration apart: the state before the third on, to a fixpoint)
            once = header
            self.values = later
            self.exact[peeled[0]] = peeled[1]
            self.peeled(loop, peeled)
            end = self.run(loop.body, header.copy())
            del self.exact[peeled[0]]
            header = entered = self.enter(loop, end, end)
            later = peeled[2]
        self.values = later
        while True:
            end = self.run(loop.body, header.copy())
            entered = self.enter(loop, end, end)
            again = meet(header, entered)
            if again == header:
                break
            header = again
        self.later.pop()
        self.values = saved
        if runs:
            # it leaves after a run of its body, which starts from at least the header's facts
            # (the walk is monotone): the state at the end of that run holds at least ``end``'s
            if once is not None:  # (it may leave after one trip, unless its bounds say two or more, or two)
                entered = _meet_all([header, entered] if (static_trip_count(loop) or 0) >= 2 else [once, header, entered])
            if writes:
                self.summarize_slice_writes(loop, writes, entered)
            return [self.parallel_results(loop, _with_results(loop, entered, self))]
        unrun = _unrun_parallel(loop, _with_results(loop, entry, self))
        if once is not None:  # (it leaves before its first iteration, after one, or after two or more)
            return [unrun, _with_results(loop, once, self), _with_results(loop, header, self)]
        ran = self.parallel_results(loop, _with_results(loop, header, self))
        if is_parallel(loop) and (static_trip_count(loop) or 0) >= 1:
            return [ran]  # (a pl.parallel loop of constant bounds that runs: it leaves after an iteration)
        return [unrun, ran]  # (or before its first iteration)

    def slice_writes_of(self, loop) -> tuple:
        """``slice_writes`` of ``loop`` (found once)."""
        found = self.slice_writes.get(id(loop))
        if found is None:
            found = self.slice_writes[id(loop)] = slice_writes(loop, self.untracked, self.out.number)
        return found

    def summarize_slice_writes(self, loop, writes: tuple, state: State) -> None:
        """``state`` at the exit of ``loop``, a counted loop of constant bounds not walked iteration
        by iteration (``iterations``), whose body writes views sliced at offsets computed from its
        variable (``slice_writes``): each iteration ``k`` ran, and its writer ``W`` inserted an
        entry of the region ``R_k`` its view covers then, ordered after what every run of ``W``
        in the walk of the body is ordered after (``written_after``). A later lookup of ``R_k``
        finds that entry, or an InOut writer that covers it and looked it up first, so ``R_k``
        gets those facts, less the tasks that run in the body (a later iteration may have run
        them again): tasks outside the loop have not run since. Afterwards a view of ``R_k``
        (``region``: its offsets known) is ordered after them as after the unrolled walk. Only
        for loops of at most ``SUMMARIZED`` iterations (the work is a region per iteration; past
        that the regions keep what the back-edge walk found: fewer orders known, none wrong)."""
        saved = self.values
        var = loop.var.name
        trips = static_trip_count(loop)
        for let, task, inside in writes:
            held = self.written_after.pop(id(task), -1)
            if held == -1:
                continue  # (the body's walk did not reach the writer)
            held &= ~(inside | inside << self.width)
            if not held & ~state.never_ran:
                continue
            for k in range(trips):
                self.values = {**saved, var: loop.start.value + k * loop.step.value}
                region = self.region(let.value, state)
                if region is not None:
                    self.stable.add(region)
                    state.write(region, state.of(region) | held)
                    self.publish(region, state)
        self.values = saved

    def parallel_results(self, loop, state: State) -> State:
        """``state`` at the exit of ``loop`` after one iteration or more: a TaskId result of a
        ``pl.parallel`` loop holds every iteration's yield, the last one's too (what the yielded
        name holds there: its facts, or the latest run of the task it holds)."""
        if not is_parallel(loop):
            return state
        yld = last_yield(loop.body)
        for k, (it, result) in enumerate(zip(loop.iters, loop.results)):
            value = yld.values[k] if yld is not None and k < len(yld.values) else None
            if not is_task_id(it.var) or value is None or value._production != "Var":
                continue
            held = state.of(value.name) | state.of(result.name)
            task = self.tid_of(value.name, state)
            if isinstance(task, int):
                held |= (1 << task) | state.after(task)
            state.bind(result.name, held & self.both | state.never_ran)
        return state

    def parities(self, loop, paths: int) -> list:
        """The trips' parity of each of ``paths`` exits of ``loop`` (``walk_by_parity``: a
        sequential ``For`` of a positive constant step and bounds not both constant that swaps
        or rotates its carries, not walked iteration by iteration: no trip, an even number, an
        odd one; or, where its second iteration is walked apart, no trip, an even number, one
        trip, an odd number of three or more), else None each."""
        if (paths in (3, 4) and loop._production == "For" and loop.kind is LoopKind.seq
                and loop.step._production == "Int" and loop.step.value > 0
                and not (loop.start._production == "Int" and loop.stop._production == "Int")
                and moves_carries(loop)):
            return [0, 0, 1] if paths == 3 else [0, 0, 1, 1]
        return [None] * paths

    def exit_scalars(self, loop, paths: int) -> list:
        """Per exit of ``loop`` (``exits``: the state before it first, then after trips), the
        scalars the walk of the rest of its block knows there besides the walk's own: the
        trips' parity (``(PARITY, k)``, ``parities``), whether it made a trip (``(RAN, k)``,
        ``trips_any``), the bound of its stop (``trip_bounds``); None for an exit of another
        parity than the walk's scalars say (``invariant_parity_loops``). ``k`` is the loop's
        ``parity_loop``, asked only where one of the first two is known."""
        out = []
        for parity, made, known in zip(self.parities(loop, paths), self.trips_any(loop, paths),
                                       trip_bounds(loop, self.values, paths)):
            facts = dict(known)
            if parity is not None:
                if self.values.get((PARITY, self.parity_loop(loop)), parity) != parity:
                    out.append(None)
                    continue
                facts[(PARITY, self.parity_loop(loop))] = parity
            if made is not None:
                facts[(RAN, self.parity_loop(loop))] = made
            out.append(facts)
        return out

    def trips_any(self, loop, paths: int) -> list:
        """Whether ``loop`` made a trip, on each of ``paths`` exits (``exits``: the state before
        it first, then after trips): for a ``For`` of a positive constant step, whose bounds tell
        (``stop > start``); else None each."""
        if (loop._production == "For" and paths in (2, 3) and loop.step._production == "Int"
                and loop.step.value > 0):
            return [0] + [1] * (paths - 1)
        return [None] * paths

    def parity_loop(self, loop) -> int:
        """The index of ``loop`` in ``RuntimeOrder.parity_loops`` (added on its first walk)."""
        loops = self.out.parity_loops
        for k, other in enumerate(loops):
            if other is loop:
                return k
        loops.append(loop)
        return len(loops) - 1

    def peeled(self, loop, peeled: tuple) -> None:
        """Record ``RuntimeOrder.peeled`` of ``loop``'s second iteration walked apart
        (``peeled``: ``second_and_rest``'s), where its counter starts from a constant: every walk
        of the loop that knows its counter walks that iteration apart, and its later ones know a
        greater bound."""
        counter = loop_counter(loop)
        if counter is not None and counter[1]._production == "Int":
            self.out.peeled.add((peeled[0], peeled[1]))

    def walk_by_parity(self, loop, entry: State, first: dict, later: dict) -> list:
        """``exits`` of a loop ``parities`` splits: the state before it (no trip), after an even
        number of trips (the header before an odd iteration after the first) and after an odd
        number (the header before an even iteration), the last two to a fixpoint from each other."""
        saved = self.values
        self.values = first
        odd = self.after_iteration(loop, entry.copy())
        peeled = second_and_rest(loop, saved)
        if peeled is not None:
            self.values = saved
            return self.walk_by_parity_peeled(loop, entry, odd, peeled)
        self.values = later
        even = None
        while True:
            reached = self.after_iteration(loop, odd.copy())
            even_next = reached if even is None else meet(even, reached)
            odd_next = meet(odd, self.after_iteration(loop, even_next.copy()))
            if even is not None and even_next == even and odd_next == odd:
                break
            even, odd = even_next, odd_next
        self.values = saved
        return [_with_results(loop, entry, self), _with_results(loop, even, self),
                _with_results(loop, odd, self)]

    def walk_by_parity_peeled(self, loop, entry: State, once: State, peeled: tuple) -> list:
        """``walk_by_parity`` with the second iteration walked apart (``second_and_rest``):
        ``once`` is the state after the first; the states after the third trip on meet to a
        fixpoint from the one after the second. Four exits: no trip, an even number, one, an odd
        number of three or more."""
        saved = self.values
        self.values = first_and_later(loop, saved)[1]
        self.exact[peeled[0]] = peeled[1]
        self.peeled(loop, peeled)
        even = self.after_iteration(loop, once.copy())
        del self.exact[peeled[0]]
        self.values = peeled[2]
        odd = None
        while True:
            reached = self.after_iteration(loop, even.copy())
            odd_next = reached if odd is None else meet(odd, reached)
            even_next = meet(even, self.after_iteration(loop, odd_next.copy()))
            if odd is not None and even_next == even and odd_next == odd:
                break
            even, odd = even_next, odd_next
        self.values = saved
        return [_with_results(loop, entry, self), _with_results(loop, even, self),
                _with_results(loop, once, self), _with_results(loop, odd, self)]

    def after_iteration(self, loop, header: State) -> State:
        end = self.run(loop.body, header)
        return self.enter(loop, end, end)

    def iterations(self, loop) -> list | None:
        """The values of the loop's scalars in each of its iterations, when it is walked iteration
        by iteration: a loop of constant bounds that runs once, or runs at most ``UNROLL`` times
        (with the loops it is in) and has an ``if`` on its variable, swaps or rotates its carries,
        yields a carry a tensor named before it, sets an array slot at its variable or slices a
        tensor at an offset computed from it; a ``while`` whose carries' values, computed from
        constants, end it within ``UNROLL`` iterations. Else None."""
        room = UNROLL // self.unrolled
        if loop._production == "For":
            trips = static_trip_count(loop)
            if trips == 1 or (trips and trips <= room and self.varies(loop)):
                return [{loop.var.name: loop.start.value + k * loop.step.value} for k in range(trips)]
            return None
        yld = last_yield(loop.body)
        carried = {it.var.name: evaluate_scalar(it.init, self.values) for it in loop.iters}
        out = []
        while True:
            known = {name: v for name, v in carried.items() if v is not None}
            going = evaluate_scalar(loop.cond, {**self.values, **known})
            if going is None or (going and len(out) >= room):
                return None
            if not going:
                return out
            out.append(known)
            values = {**self.values, **known}
            for stmt in unscoped(loop.body):  # (a value the yield reads may be a let of the body)
                if stmt._production == "Let":
                    value = evaluate_scalar(stmt.value, values)
                    if value is not None:
                        values[stmt.var.name] = value
            if yld is None:
                return None
            carried = {it.var.name: evaluate_scalar(v, values) for it, v in zip(loop.iters, yld.values)}

    def varies(self, loop) -> bool:
        """Whether what the walk follows differs by iteration of ``loop``: an ``if`` on its
        variable, carries swapped, rotated or given a tensor named before the loop, a slot set or
        a slice taken at its variable (a fact of the loop alone, found once: the walk asks it each
        time it walks the loop)."""
        key = id(loop)
        found = self.varying.get(key)
        if found is None:
            found = self.varying[key] = (branches_on(loop) or moves_carries(loop) or sets_slots(loop)
                                         or slices_at(loop) or replaces_carries(loop))
        return found

    def enter(self, loop, state: State, end: State | None) -> State:
        """The state at the loop's header reached from ``state`` (before the loop, or the end of
        the body ``end``); a carry shares the facts of the tensor it is given when that has a
        stable name (where the header meets another path that gives it another, ``meet`` parts
        them)."""
        out = state.copy()
        yld = last_yield(loop.body)
        for k, it in enumerate(loop.iters):
            source = it.init if end is None else (yld.values[k] if yld is not None else None)
            root = state.alias.get(source.name, source.name) if source is not None and source._production == "Var" else None
            if end is not None and is_parallel(loop) and is_task_id(it.var):
                # (an iteration of a pl.parallel loop sees the init, in a manual scope, or the
                # previous yield: what a dependency on the TaskId orders after, on either)
                out.bind(it.var.name, _value(it.init, state) & _value(source, state))
            elif root in self.stable:
                out.alias[it.var.name] = root
                out.facts.pop(it.var.name, None)
            else:
                out.bind(it.var.name, _value(source, state))
            # (every iteration of a pl.parallel loop starts its TaskId carries from the init: the
            # yields fill the result array, one slot per iteration, and chain nothing)
            tid_source = it.init if is_parallel(loop) else source
            held = state.tids.get(tid_source.name) if tid_source is not None and tid_source._production == "Var" else None
            if held is None:
                out.tids.pop(it.var.name, None)
            else:
                out.tids[it.var.name] = held
        if loop._production == "For":
            out.bind(loop.var.name, out.never_ran)
        return out


def _meet_all(states: list) -> State:
    out = states[0]
    for other in states[1:]:
        out = meet(out, other)
    return out


def _with_results(loop, state: State, walker: "_Walker") -> State:
    """``state`` at the loop's exit: each result holds what its iter_arg holds."""
    for it, result in zip(loop.iters, loop.results):
        walker.detach(result.name, state)
        state.bind_same(result.name, it.var.name, walker.stable)
        held = None if is_parallel(loop) else state.tids.get(it.var.name)  # (a pl.parallel result: every iteration's)
        if held is None:
            state.tids.pop(result.name, None)
        else:
            state.tids[result.name] = held
    return state


def _unrun_parallel(loop, state: State) -> State:
    """``state`` at the exit of ``loop`` where it ran no iteration: the TaskId results of a
    ``pl.parallel`` loop hold every iteration's yield, none (a dependency on them orders after
    nothing; ``_Walker.Dummy``'s facts of an init stay with the init)."""
    if is_parallel(loop):
        for it, result in zip(loop.iters, loop.results):
            if is_task_id(it.var):
                state.bind(result.name, state.never_ran)
    return state


def _value(expr, state: State) -> int:
    return state.of(expr.name) if expr is not None and expr._production == "Var" else state.never_ran


PRODUCED = "~produced"  # (``_Walker.producers``: the facts keys, named apart from every SSA name and region)
CONSUMED = "~consumed"


def partial(root: str) -> str:
    """The facts entry of the partial facts of ``root``'s tensor (``_Walker.publish``), named
    apart from every SSA name and region."""
    return root + "+"


def _root(name: str | None, state: State, stable: frozenset) -> str | None:
    """The stable name of the tensor ``name`` holds in ``state`` (``State.alias``), if it has one."""
    if name is None:
        return None
    root = state.alias.get(name, name)
    return root if root in stable else None


def _yielded(body, k: int, state: State) -> int:
    yld = last_yield(body)
    return _value(yld.values[k], state) if yld is not None and k < len(yld.values) else state.never_ran


def implied_positions(sources: list, joins: list, strength: list, through: list, lookups: int, width: int,
                      closed) -> set:
    """The positions of the implied dependencies (``_Walker.implied``): of those naming the same
    task, all but the first of the strongest (``strength``: 2 every run, 1 the latest run); and
    one that stays, where ``closed`` of what the lookups and the dependencies on every other task
    order after (``through``) holds the runs it waits for. Grouped by task, the groups' orders
    ORed as a prefix and a suffix: linear in the dependencies (a pairwise comparison was
    quadratic: a task with 400 compiler edges)."""
    if len(sources) == 1:  # (one dependency: implied where what the lookups order after holds its runs)
        s = sources[0]
        if s is None:
            return set()
        need = (1 << s) | (joins[0] << (width + s))
        return {0} if closed(lookups) & need == need else set()
    best: dict[int, int] = {}  # task -> the position of the dependency on it that stays
    group: dict[int, int] = {}  # task -> what the dependencies on it order after
    for i, s in enumerate(sources):
        if s is None:
            continue
        b = best.get(s)
        if b is None or strength[i] > strength[b]:
            best[s] = i
        group[s] = group.get(s, 0) | through[i]
    implied = {i for i, s in enumerate(sources) if s is not None and best[s] != i}
    named = list(group)
    suffix = [0] * (len(named) + 1)
    for k in range(len(named) - 1, -1, -1):
        suffix[k] = suffix[k + 1] | group[named[k]]
    prefix = lookups
    for k, s in enumerate(named):
        i = best[s]
        need = (1 << s) | (joins[i] << (width + s))
        if closed(prefix | suffix[k + 1]) & need == need:
            implied.add(i)
        prefix |= group[s]
    return implied
