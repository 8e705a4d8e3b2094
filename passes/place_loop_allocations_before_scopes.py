"""place_loop_allocations_before_scopes: ssa -> ssa."""

from __future__ import annotations

from typing import NamedTuple

from nanopass.errors import UserError
from nanopass.languages import SSA
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import BinOp, DType, LoopKind, ParamDir
from nanopass.rewrite import register

from .kernels import output_param_of_result
from .loop_generations import generations, linear_index, plus, run_index, times
from . import place_scope_escaping_outputs as escaping
from .util import BODY_FIELDS, LOOPS, defined_binders, iter_stmts, pure_scalar, renamed, static_trip_count, var_reads

S = SSA


class Blocks(NamedTuple):
    """Where each run of an allocation goes: ``count`` row blocks of one buffer made before the
    block, run ``index`` (an expression of the loop's variable) taking block ``index``; one
    buffer (``count`` 1, ``index`` None) when the runs' buffers never live at once. ``ordered``:
    the runs share blocks, so every pair of their accesses is ordered in a MANUAL scope. A count
    known only at run time is a ``Var`` bound by ``lets``, scalar lets to put before the block."""

    count: object  # int, or a Var of ``lets``
    index: object = None
    ordered: bool = True
    each_run: bool = False  # a block for every run: the runs' buffers are as distinct as written
    lets: tuple = ()


ONE = Blocks(1)


class NoBuffersBeforeTheBlock(UserError):
    """An allocation made in a loop inside a ``with`` block and used after the block for which the
    compiler can make no buffers before the block: its shape is computed in the block, or its runs
    need buffers of their own (a create with an initial value the block writes: the runtime fills
    a buffer only when it allocates it; runs whose buffers may live at once) and the compiler
    cannot count them before the block (a loop of the block around it whose bounds are computed in
    the block otherwise than by scalar lets of names bound before it, an outer loop's variable
    among them, whose step is not a positive constant, or a ``while``). Refused, located at the
    allocation and naming the loop and why: left where it is, the buffer would be freed when the
    block ends and used after it."""


@register
class PlaceLoopAllocationsBeforeScopes(escaping.PlaceScopeEscapingOutputs):
    """Give an allocation made in a loop inside a ``with`` block, and read after the block, a
    buffer made before the block (the block's scope frees what is allocated in it: runtime-api.md
    section 11).

    Handles a ``pl.create_tensor`` or a runtime-allocated task output (``Out`` without an
    argument) in a loop inside the block (``place_scope_escaping_outputs`` those directly in it)
    held after it (``passes/allocations.py``), inner blocks first. The create's ``Let`` moves
    before the block (with copies, under new names, of the scalar lets of the block its shape
    reads); a task output gets ``(Let t (CreateTensor shape dtype))`` of the parameter's static
    type there as its ``Out`` argument. One buffer serves every iteration when no name bound
    before the allocation that may hold an earlier run's buffer is read when or after it runs
    (not in the other branch of an ``if`` around it: no run reaches both).
    When one is, the buffer has a row block for each run that may be live at once: ``k`` rotating
    blocks for a ``pl.range`` loop directly in the block (``k - 1`` the oldest run such a name may
    hold, ``passes/loop_generations.py``), ``T`` for a ``pl.parallel`` loop of constant trip count
    ``T > 1`` whose iterations read no earlier run's buffer, ``k * P`` for a nest of a ``pl.range``
    loop outermost and loops of constant trip counts inside (``P`` runs in an outer iteration),
    else a block for each run, counted before the block when the bounds are read there
    (``run_time_blocks``); docs/semantics.md (issue 21 sections) gives each layout. A create with
    an initial value (the runtime fills a buffer only when it allocates it: a buffer made before
    the block is filled once) gets one buffer when nothing in the function may write it (every run's buffer holds the value), the
    placements above when only code after the block may, a block for each run when the block may
    (``_each_run`` or ``run_time_blocks``). Any allocation that none of these places (no count of
    its runs before the block where they need buffers of their own: a triangular nest, a
    ``pl.while_``, bounds computed in the block otherwise than by scalar lets, a step that is not a
    positive constant; or a shape computed in the block otherwise than by scalar lets) is a
    located user error (``NoBuffersBeforeTheBlock``, naming the loop whose runs are not counted and
    why): left where it is, the buffer would be freed when the block ends and used after it
    (docs/semantics.md, issue 21 sections). A copy of a shared or rotated buffer is left in the
    loop: in a MANUAL scope, whose ``deps=`` order one run's accesses only,
    ``hazards.shared_in_loops`` then orders every pair of accesses to it
    (``order_write_after_read``); the blocks of a ``pl.parallel`` loop, or of every run, are
    each one run's. Afterwards no allocation made in a loop inside a user scope is read after
    it, but task outputs whose parameter shape reads a symbol the orchestration does not declare
    (``define_dynamic_dim_symbols`` refuses those).
    """

    name = "place_loop_allocations_before_scopes"
    source = SSA
    target = SSA

    def run(self, program):
        self.orch_body = program.orch.body
        return super().run(program)

    def applies(self, func) -> bool:
        """Whether an allocation is made in a loop inside a user scope (a cheap early exit): the
        outermost scopes found among the compound statements of the body's kept walk, the
        statements of each walked once with whether a loop is around them (not each loop inside
        each scope again); in a loop only a create's ``Let`` and a task (``may_allocate``) are
        asked about."""
        seen: set[int] = set()  # the scopes inside a scope walked already
        for scope in walk_of(func.body).compound:
            if scope._production != "Scope" or id(scope) in seen:
                continue
            # (the bodies still to walk, each with whether a loop inside the scope is around it)
            stack: list = [(scope.body, False)]
            while stack:
                stmts, looped = stack.pop()
                for stmt in stmts:
                    kind = stmt._production
                    if looped:
                        if kind == "Task":
                            if self.may_allocate(stmt):
                                return True
                            continue
                        if kind == "Let":
                            if stmt.value._production == "CreateTensor":  # (``_is_create``)
                                return True
                            continue
                    fields = BODY_FIELDS.get(kind)
                    if fields:
                        if kind == "Scope":
                            seen.add(id(stmt))
                        inner = looped or kind in LOOPS
                        for field in fields:
                            stack.append((getattr(stmt, field), inner))
        return False

    def place_scope(self, scope, after: tuple) -> list:
        if not hasattr(self, "marker"):
            self.marker: dict[str, object] = {}  # a placed buffer -> where the program allocates it
            self.copies: set[str] = set()  # the copies of placed buffers left where they were allocated
        self.scope_body = scope.body
        self.number(scope.body)
        self.defined_in_scope = {b.name for s in iter_stmts(scope.body) for b in defined_binders(s)}
        self.scope_lets = {s.var.name: s for s in iter_stmts(scope.body) if s._production == "Let"}
        before: list = []
        body = self.from_loops(scope.body, (), after, before)
        return before + [scope.replace(body=body)]

    def from_loops(self, stmts, loops: tuple, after: tuple, before: list) -> tuple:
        """``stmts`` with the escaping allocations of the loops ``loops`` (outermost first) placed
        into ``before``; inner scopes are not entered (``sequence`` placed theirs already)."""
        out = []
        for stmt in stmts:
            kind = stmt._production
            if kind in LOOPS:
                out.append(stmt.replace(body=self.from_loops(stmt.body, loops + (stmt,), after, before)))
            elif kind == "If":
                out.append(stmt.replace(then=self.from_loops(stmt.then, loops, after, before),
                                        orelse=self.from_loops(stmt.orelse, loops, after, before)))
            elif loops and _is_create(stmt) and self.escapes(stmt.var.name, after):
                marker = self.marker.get(stmt.var.name)
                # (placed for an inner block: the allocation is where the marker is)
                where = (loops, stmt) if marker is None else (self.loops_around(marker), marker)
                blocks = self.check_create(stmt, loops, where)
                stmt = self.shape_before(stmt, before)
                before += blocks.lets
                if blocks.count == 1:
                    out.append(self.share(stmt, before, marker or stmt))
                else:
                    out += self.share_blocks(stmt, before, blocks)
            elif loops and self.may_allocate(stmt):
                out += self.from_task(stmt, loops, after, before)
            else:
                out.append(stmt)
        return tuple(out)

    def from_task(self, task, loops: tuple, after: tuple, before: list) -> list:
        kernel = self.kernels[task.kernel]
        escaping = [out for i, out in enumerate(task.outs)
                    if (p := output_param_of_result(kernel, i)) is not None and p >= len(task.args)
                    and self.escapes(out.name, after)]
        if not escaping:
            return [task]
        blocks = _widest([self.check_shared(task, out, loops, task, loops) for out in escaping])
        *lets, placed = self.allocate(task, after)
        for i, out in enumerate(task.outs):  # a new buffer is held wherever its output was
            p = output_param_of_result(kernel, i)
            if p is not None and len(task.args) <= p < len(placed.args):
                buffer = placed.args[p].value.name
                self.holders[buffer] = self.holders.get(out.name, []) + [buffer]
        if blocks.count == 1:
            return [self.share(let, before, placed) for let in lets] + [placed]
        before += blocks.lets
        return [s for let in lets for s in self.share_blocks(let, before, blocks)] + [placed]

    def share(self, let, before: list, marker):
        """Move the create ``let`` into ``before`` under a new name, and leave where it was a copy
        of that buffer: the mark of a buffer every iteration shares (``hazards.shared_in_loops``).
        ``marker``: the statement where the program allocates it (a task, or the copy itself)."""
        name = self.fresh(let.var.name)
        self.holders[name] = self.holders.get(let.var.name, []) + [name]
        before.append(let.replace(var=S.Binder(name, let.var.type, span=let.var.span)))
        copy = let.replace(value=S.Var(name))
        self.copies.add(let.var.name)
        self.marker[name] = copy if marker is let else marker
        return copy

    def share_blocks(self, let, before: list, blocks: Blocks) -> list:
        """Move the create ``let`` into ``before`` as one buffer of ``blocks.count`` row blocks
        under a new name, and leave where it was the view of block ``blocks.index`` (through a
        copy of the buffer, the mark of ``hazards.shared_in_loops``, when the runs share blocks)."""
        name = self.fresh(let.var.name)
        shape = let.value.shape
        rows = shape[0]
        count = blocks.count
        if isinstance(count, int):
            total = (S.Int(count * rows.value, rows.dtype) if rows._production == "Int"
                     else S.Bin(BinOp.mul, S.Int(count, DType.INDEX), rows))
        else:
            total = S.Bin(BinOp.mul, count, rows)
        buffer = S.Binder(name, S.TensorType((total, *shape[1:]), let.value.dtype), span=let.var.span)
        before.append(let.replace(var=buffer, value=let.value.replace(shape=(total, *shape[1:]))))
        self.holders[name] = self.holders.get(let.var.name, []) + [name]
        self.copies.add(let.var.name)
        out = []
        source = name
        if blocks.ordered:
            source = self.fresh(let.var.name)
            out.append(S.Let(S.Binder(source, buffer.type, span=let.var.span), S.Var(name), span=let.span))
            self.copies.add(source)
        offset = (S.Bin(BinOp.mul, blocks.index, rows), *(S.Int(0, DType.INDEX) for _ in shape[1:]))
        out.append(let.replace(value=S.SliceTensor(S.Var(source), shape, offset, False, False, False)))
        return out

    def loops_around(self, marker) -> tuple:
        """The loops of the current scope's body around ``marker``, outermost first, inner scopes
        crossed."""
        def find(stmts, loops):
            for stmt in stmts:
                if stmt is marker:
                    return loops
                inner = loops + (stmt,) if stmt._production in LOOPS else loops
                for field in BODY_FIELDS.get(stmt._production, ()):
                    found = find(getattr(stmt, field), inner)
                    if found is not None:
                        return found
            return None

        return find(self.scope_body, ())

    def escapes(self, allocation: str, after: tuple) -> bool:
        return any(escaping._read_in(n, after) for n in self.holders.get(allocation, ()))

    def check_create(self, let, loops: tuple, where: tuple) -> Blocks:
        """The blocks the create ``let`` (in the loops ``loops`` of the block; ``where``: the loops
        around the allocation it stands for and that allocation) gets, or refused."""
        name = _base(let.var.name)
        init = let.value.init is not None
        # (the runtime fills a buffer only when it allocates it: a buffer made before the block
        # holds the initial value in every run only when nothing in the block writes it)
        written = init and self.written(let.var.name, self.scope_body)
        each = written and (_each_run(loops) or self.run_time_blocks(loops))
        if written and each is None:
            raise NoBuffersBeforeTheBlock(
                f"'{name}' is created with an initial value in a loop inside a `with` block, written in the "
                f"block and used after it, and the compiler cannot count its runs before the block ({self.uncounted(loops)}): "
                "the block frees what is allocated in it when it ends, so every run needs a buffer made before "
                "the block that starts from the initial value, and the runtime API fills a buffer only when it "
                "allocates it (it has no fill of an existing buffer); the compiler makes a filled block for each "
                "run only when every loop of the block around the create has bounds read before the block and "
                "a positive constant step (a rectangular nest: its runs are the product of the loops' counts)",
                let.span,
                hint="compute the loops' bounds before the `with` block (not from an outer loop's variable), or "
                     "create the buffer before the `with` block and fill it in each iteration with a kernel",
            )
        if self.shape_lets(let.value.shape) is None and written:
            # (a block in a loop of another block, the inner loop's bounds read from the outer's variable)
            raise NoBuffersBeforeTheBlock(
                f"'{name}' is created with an initial value in a loop inside a `with` block, written in the "
                "block and used after it, and its shape (for a buffer placed before an inner block: the row "
                "blocks of the inner loop's runs) is computed inside the block: the block frees what is "
                "allocated in it when it ends, so every run needs a buffer made before the block that starts "
                "from the initial value, and the runtime API fills a buffer only when it allocates it (it has "
                "no fill of an existing buffer)",
                let.span,
                hint="compute its shape and the loops' bounds before the outermost `with` block, or create the "
                     "buffer before the `with` block and fill it in each iteration with a kernel",
            )
        if self.shape_lets(let.value.shape) is None:
            raise NoBuffersBeforeTheBlock(
                f"'{name}' is created in a loop inside a `with` block and used after the block, and its shape "
                f"reads '{_base(self.computed_in_block(let.value.shape))}', computed in the block otherwise than "
                "from names bound before it by arithmetic that cannot fail: the block frees what is allocated in "
                "it when it ends, so the buffer must be made before the block, and its shape cannot be computed "
                "there",
                let.span,
                hint="compute its shape before the `with` block, or create the buffer before the `with` block "
                     "and use it in the loop",
            )
        if written:
            return each
        if init and not self.written(let.var.name, self.orch_body):
            return ONE  # (every run's buffer holds the initial value, whichever buffer it is)
        return self.check_shared(let, let.var, *where, loops)

    def written(self, allocation: str, stmts) -> bool:
        """Whether a statement of ``stmts`` (at any depth) may write the buffer of ``allocation``
        through a name that may hold it: a task's ``Out`` or ``InOut`` argument, a host write, an
        assemble into it."""
        names = set(self.holders.get(allocation, ())) | {allocation}

        def named(expr) -> bool:
            return expr is not None and expr._production == "Var" and expr.name in names

        for stmt in iter_stmts(stmts):
            kind = stmt._production
            if kind == "Task":
                params = self.kernels[stmt.kernel].params
                if any(p < len(params) and params[p].dir is not ParamDir.In and named(arg.value)
                       for p, arg in enumerate(stmt.args)):
                    return True
            elif kind == "WriteTensor" and named(stmt.tensor):
                return True
            elif kind == "Let" and stmt.value._production == "AssembleTensor" and named(stmt.value.target):
                return True
        return False

    def shape_lets(self, shape) -> list | None:
        """The lets of the block that compute the names of the block ``shape`` reads, each before
        those that read it: each a scalar expression (no division but by a nonzero constant: it
        would run before the block whether or not the program gets there) of names bound before
        the block and of such lets; ``None`` when a name is bound otherwise (a loop's variable, a
        tensor read, a task)."""
        out: list = []

        def need(node) -> bool:
            for name in sorted(var_reads(node).keys() & self.defined_in_scope):
                let = self.scope_lets.get(name)
                if let is None or not pure_scalar(let.value):
                    return False
                if let not in out:
                    if not need(let.value):
                        return False
                    out.append(let)
            return True

        return out if need(list(shape)) else None

    def shape_before(self, let, before: list):
        """``let`` with its shape read from copies of ``shape_lets`` put in ``before`` under new
        names (the block's own lets stay: SSA names are bound once)."""
        return let.replace(value=let.value.replace(shape=self.scalars_before(let.value.shape, before)))

    def scalars_before(self, exprs, before: list) -> tuple:
        """``exprs`` reading copies of their ``shape_lets`` put in ``before`` under new names."""
        names: dict[str, str] = {}
        for scalar in self.shape_lets(exprs) or ():
            names[scalar.var.name] = self.fresh(scalar.var.name)
            before.append(scalar.replace(var=scalar.var.replace(name=names[scalar.var.name]),
                                         value=renamed(scalar.value, names)))
        return tuple(renamed(e, names) for e in exprs)

    def run_time_blocks(self, loops: tuple) -> Blocks | None:
        """A block for each run of an allocation run at most once in every iteration of the
        innermost of ``loops``, the loops of the block around it (``For`` loops, ``pl.range`` or
        ``pl.parallel``; an ``if`` may be around any), a rectangular nest whose every loop's
        bounds are read before the block (names bound before it, or scalar lets of the block,
        ``shape_lets``, computed again before it: not an outer loop's variable) and whose steps
        are positive constants: one buffer of ``max(R, 1)`` row blocks, ``R`` the nest's runs
        (an empty nest allocates one unused block), counted by scalar lets before the block, run
        ``q`` taking block ``q``; ``None`` otherwise. For one loop ``R`` is its trip count
        ``ceil((stop - start) / step)``; for a nest ``R`` is the product of the loops' counts
        ``R_k = max(ceil(...), 0)`` (a loop that does not run makes the nest run nothing) and
        ``q`` the linear combination of the loops' run indices, ``(j0 * R_1 + j1) * R_2 + j2``
        (``R_k`` is the loop's trip count whenever the allocation runs). (Maxima without a
        branch, scalar lets an outer block's count can copy: ``d >> 63`` is -1 when ``d`` is
        negative and 0 else, so ``d * (1 + (d >> 63))`` is ``max(d, 0)``, and for ``d = R - 1``
        (the let ``runs__``) ``d * (1 + (d >> 63)) + 1`` is ``max(R, 1)``.)"""
        if not loops or any(loop._production != "For" or loop.step._production != "Int" or loop.step.value <= 0
                            for loop in loops):
            return None
        bounds = [bound for loop in loops for bound in (loop.start, loop.stop)]
        if self.shape_lets(bounds) is None:
            return None
        lets: list = []
        copies = self.scalars_before(bounds, lets)
        span = loops[-1].span

        def integer(value: int):
            return S.Int(value, DType.INDEX)

        def let(base: str, value):
            name = self.fresh(base)
            lets.append(S.Let(S.Binder(name, S.ScalarType(DType.INDEX), span=span), value, span=span))
            return S.Var(name)

        def at_least_zero(d):
            return S.Bin(BinOp.mul, d, S.Bin(BinOp.add, integer(1), S.Bin(BinOp.shr, d, integer(63))))

        runs, counts = None, []
        for k, loop in enumerate(loops):
            if (count := static_trip_count(loop)) is not None:
                counts.append(integer(count))
            else:
                start, stop = copies[2 * k], copies[2 * k + 1]
                step = loop.step.value
                count = S.Bin(BinOp.sub, stop, start)
                if step != 1:
                    count = S.Bin(BinOp.floordiv, S.Bin(BinOp.add, count, integer(step - 1)), integer(step))
                # (one loop: its count may be negative, the maximum below takes care of it)
                counts.append(count if len(loops) == 1 else let("runs", at_least_zero(let("runs", count))))
            runs = counts[-1] if runs is None else S.Bin(BinOp.mul, runs, counts[-1])
        less = let("runs", S.Bin(BinOp.sub, runs, integer(1)))
        count = let("blocks", S.Bin(BinOp.add, at_least_zero(less), integer(1)))
        index = None
        for loop, factor in zip(loops, counts):
            if index is not None:
                index = times(index, factor.value) if factor._production == "Int" else S.Bin(BinOp.mul, index, factor)
            index = run_index(loop) if index is None else plus(index, run_index(loop))
        return Blocks(count, index, ordered=False, each_run=True, lets=tuple(lets))

    def uncounted(self, loops: tuple) -> str:
        """What keeps ``run_time_blocks`` from counting the runs of the nest ``loops``."""
        for loop in loops:
            line = f"the loop at line {loop.span.line}" if loop.span is not None else "a loop"
            if loop._production != "For":
                return f"{line} is a pl.while_, whose trip count is known only when it ends"
            if loop.step._production != "Int" or loop.step.value <= 0:
                return f"{line} has a step that is not a positive constant"
            name = self.computed_in_block([loop.start, loop.stop])
            if name is None:
                continue
            if any(outer.var.name == name for outer in loops if outer._production == "For"):
                return (f"the bounds of {line} read '{_base(name)}', the variable of an outer loop: the nest "
                        "is not rectangular, its inner loop's count differs between outer runs")
            return (f"the bounds of {line} read '{_base(name)}', computed in the block otherwise than from "
                    "names bound before it by arithmetic that cannot fail")
        return "a loop's trip count is not known before the block"

    def computed_in_block(self, exprs) -> str | None:
        """The first name ``exprs`` read that ``shape_lets`` cannot compute again before the block."""
        for name in sorted(var_reads(list(exprs)).keys() & self.defined_in_scope):
            let = self.scope_lets.get(name)
            if let is None or not pure_scalar(let.value):
                return name
            if (inner := self.computed_in_block([let.value])) is not None:
                return inner
        return None

    def check_shared(self, stmt, binder, loops: tuple, where, here: tuple) -> Blocks:
        """The blocks the allocation ``where`` (in the loops ``loops``) needs, placed at ``stmt``
        (in the loops ``here``); refused unless each run can have a block no run whose buffer
        may still be read shares (class docstring). What the rules for one loop refuse, a nest
        of constant inner trip counts may take (``nested_blocks``), or a nest of constant trip
        counts a block for each run (``_each_run``), or a rectangular nest of bounds read before the
        block a block for each run counted there (``run_time_blocks``)."""
        try:
            return self.one_loop_blocks(stmt, binder, loops, where)
        except UserError as refused:
            blocks = self.nested_blocks(binder, loops, where) if where is stmt else None
            each = _each_run(here)
            if each is not None and (blocks is None or each.count <= blocks.count):
                return each
            if blocks is None and (each := self.run_time_blocks(here)) is not None:
                return each
            if blocks is None:
                raise NoBuffersBeforeTheBlock(
                    f"{refused.message}; nor can it count the runs before the block to give each a block of its "
                    f"own ({self.uncounted(here)}): the block frees what is allocated in it when it ends, so a "
                    "buffer allocated in it cannot be used after it",
                    refused.span,
                    hint=f"{refused.hint}; or give the loops of the block around it bounds read before the block "
                         "(not from an outer loop's variable) and a positive constant step (no pl.while_)",
                ) from None
            return blocks

    def nested_blocks(self, binder, loops: tuple, where) -> Blocks | None:
        """Row blocks for the allocation ``where``, run at most once in every iteration of the
        innermost of ``loops``: a ``pl.range`` loop outermost, then loops of constant trip counts
        (``P`` runs in each iteration of the outermost), each run of an outer iteration taking a
        block of its own (``q``, the linear index of the inner loops' runs) of ``P`` blocks, and
        ``k`` of those rotated over the outer iterations (``k - 1``: the oldest outer iteration
        whose buffer a name read when or after the allocation may hold,
        ``passes/loop_generations.py``): block ``(i % k) * P + q``. ``None`` when no such count is
        sure."""
        outer, inner = loops[0], loops[1:]
        if outer._production != "For" or outer.kind is LoopKind.parallel and static_trip_count(outer) != 1:
            return None
        counts = [static_trip_count(loop) for loop in inner]
        if any(count is None for count in counts):
            return None
        runs = 1
        for count in counts:
            runs *= count
        kept = self.kept_from_earlier_runs(binder, loops, where)
        ages = generations(outer, binder.name, self.kernels) if kept else {}
        # (a kept name the flow does not see holding an earlier run's buffer: no count is sure; in a
        # nest, one holding only this outer iteration's buffers keeps runs with blocks of their own)
        if ages is None or any(max(ages.get(name) or (-1,)) < (0 if inner else 1) for name in kept):
            return None
        rotate = 1 + max((d for name in kept for d in ages[name]), default=0)
        index = linear_index(inner, counts)
        outer_index = run_index(outer) if rotate == 1 else S.Bin(BinOp.mod, run_index(outer), S.Int(rotate, DType.INDEX))
        if index is None:
            return Blocks(rotate, outer_index)
        if rotate == 1:
            return Blocks(max(1, runs), index)
        return Blocks(rotate * max(1, runs), plus(times(outer_index, runs), index))

    def one_loop_blocks(self, stmt, binder, loops: tuple, where) -> Blocks:
        parallel = next((loop for loop in loops if loop._production == "For" and loop.kind is LoopKind.parallel
                         and static_trip_count(loop) != 1), None)
        kept = self.kept_from_earlier_runs(binder, loops, where)
        if parallel is not None:
            if not kept and static_trip_count(parallel) is None and (each := self.run_time_blocks(loops)):
                return each
            if kept or len(loops) != 1 or static_trip_count(parallel) is None:
                raise UserError(
                    f"'{_base(binder.name)}' is allocated anew in each iteration of a pl.parallel loop inside a "
                    "`with` block and used after the block: iterations that may run at once need a buffer each, "
                    "which the compiler makes before the block only for loops of bounds read before the block (a "
                    "block for each run) or one loop of constant bounds whose iterations read no other "
                    "iteration's buffer",
                    stmt.span,
                    hint="use pl.range for the loop, or create the buffers before the `with` block (e.g. one "
                         "tensor with a slice for each iteration)",
                )
            return Blocks(max(1, static_trip_count(parallel)), run_index(parallel), ordered=False)
        if not kept:
            return ONE
        loop, count = loops[-1], None
        if len(loops) == 1 and loop._production == "For" and any(s is where for s in loop.body):
            ages = generations(loop, binder.name, self.kernels) or {}
            # (a kept name the flow does not see holding an earlier run's buffer: no count is sure)
            if all(max(ages.get(name) or (0,)) > 0 for name in kept):
                count = 1 + max(d for name in kept for d in ages[name])
        if count is None:
            raise UserError(
                f"'{_base(binder.name)}' is allocated anew in each iteration of a loop inside a `with` "
                "block and used after the block, and an iteration still reads an earlier iteration's "
                f"buffer (through '{_base(kept[0])}') when or after it allocates its own: the compiler makes the "
                "buffers the iterations keep at once before the block only for an allocation run once in every "
                "iteration of a pl.range loop directly in the block that keeps a bounded number of them, or a "
                "block for each run of loops of bounds read before the block",
                stmt.span,
                hint="create the buffers the loop needs at once (one per value it keeps, e.g. two "
                     "swapped tensors) before the `with` block and write them in the loop, or use the "
                     "result only inside the block",
            )
        return Blocks(count, S.Bin(BinOp.mod, run_index(loop), S.Int(count, DType.INDEX)))

    def kept_from_earlier_runs(self, binder, loops: tuple, where) -> list[str]:
        """The names bound before the allocation ``where`` (in the loops ``loops``) that may hold
        an earlier run's buffer and are read when or after it runs in the same iteration."""
        at = self.position[id(where)]
        # (not the allocation itself, nor the copies of the buffer left where it was allocated)
        holders = set(self.holders.get(binder.name, ())) - self.dead - self.copies - {binder.name}
        kept = []
        for j, loop in enumerate(loops):
            start, end = self.body_span[id(loop)]
            cut = self.body_span[id(loops[j + 1])][0] if j + 1 < len(loops) else at
            for name in sorted(holders):
                bound = self.bound_at.get(name)
                if bound is None or not start <= bound < cut:
                    continue
                if any(cut <= read <= end and not self.exclusive(at, read) for read in self.read_at.get(name, ())):
                    kept.append(name)
        return kept

    def exclusive(self, at: int, read: int) -> bool:
        """Whether the statements at positions ``at`` and ``read`` are in different branches of one
        ``if``: no run of the iteration reaches both (a read in the branch that did not allocate
        sees an earlier run's buffer, but then this iteration allocates none)."""
        return any(
            a[0] <= at <= a[1] and b[0] <= read <= b[1] or b[0] <= at <= b[1] and a[0] <= read <= a[1]
            for a, b in self.branch_spans
        )

    def number(self, stmts) -> None:
        """Number the statements of a scope body in program order: where each is, where each name
        is bound and read (reads by copies nothing reads left out), and each loop body's span."""
        self.position: dict[int, int] = {}
        self.bound_at: dict[str, int] = {}
        self.read_at: dict[str, list[int]] = {}
        self.body_span: dict[int, tuple[int, int]] = {}
        self.branch_spans: list[tuple[tuple[int, int], ...]] = []  # each If's (then, orelse) spans
        counter = 0

        def reads(nodes, here: int) -> None:
            for name in var_reads(nodes):
                self.read_at.setdefault(name, []).append(here)

        def walk(body) -> None:
            nonlocal counter
            for stmt in body:
                here = counter
                counter += 1
                self.position[id(stmt)] = here
                kind = stmt._production
                fields = BODY_FIELDS.get(kind, ())
                if kind == "Let" and stmt.var.name in self.dead:
                    continue
                for name, many in stmt._child_fields:
                    if name not in fields and name not in ("iters", "results", "outs", "tid", "var"):
                        value = getattr(stmt, name)
                        reads(list(value) if many else [] if value is None else [value], here)
                if kind in LOOPS:
                    reads([it.init for it in stmt.iters], here)
                    start = counter
                    counter += 1
                    for it in stmt.iters:
                        self.bound_at[it.var.name] = start
                    walk(stmt.body)
                    self.body_span[id(stmt)] = (start, counter - 1)
                else:
                    spans = []
                    for field in fields:
                        first = counter
                        walk(getattr(stmt, field))
                        spans.append((first, counter - 1))
                    if kind == "If":
                        self.branch_spans.append(tuple(spans))
                after = counter if fields else here
                for binder in defined_binders(stmt):
                    if kind in LOOPS and binder.name in {it.var.name for it in stmt.iters}:
                        continue
                    self.bound_at[binder.name] = after
                counter += 1 if fields else 0

        walk(stmts)


def _widest(blocks: list) -> Blocks:
    """The blocks that serve every output of one task: a block for each run when one needs it,
    else the most blocks (each rule's count serves a count above it)."""
    return next((b for b in blocks if b.each_run), None) or max(blocks, key=lambda b: b.count)


def _each_run(loops: tuple) -> Blocks | None:
    """A block for each run of an allocation run at most once in every iteration of the innermost
    of ``loops``, all ``For`` loops of constant trip counts (block: the linear index of the
    iterations); ``None`` otherwise."""
    counts = [static_trip_count(loop) for loop in loops]
    if not loops or any(count is None for count in counts):
        return None
    total = 1
    for count in counts:
        total *= count
    return Blocks(max(1, total), linear_index(loops, counts), ordered=False, each_run=True)


def _is_create(stmt) -> bool:
    return stmt._production == "Let" and stmt.value._production == "CreateTensor"


def _base(name: str) -> str:
    return name.split("__", 1)[0]
