"""lower_to_emission: encoded -> emission."""

from __future__ import annotations

from typing import Any

from nanopass.errors import InternalError
from nanopass.language import walk
from nanopass.languages.statements import DEFINING, defined_binders
from nanopass.languages import EMISSION, ENCODED
from nanopass.languages.terms import ArgDir, BinOp, CoreType, DepSource, DType, ParamDir
from nanopass.rewrite import Pass, register

from .kernels import kernel_table, output_params
from .naming import NameTable
from .types import type_env
from .util import carry_arrays, iter_stmts, note_unrebound_yields, unrebound_positions

E = EMISSION
# Every emission node but the Unit is built unchecked (``make_trusted``): its symbols are the
# function's identifiers (symbols of the encoded grammar), names the NameTable hands out (made of
# identifiers and digits) or the input's; its numbers, element types and directions are the
# input's terminals of the same kinds or Python ints; its expressions are the input's (emission
# shares their classes) or built here. tests/test_lower_emission_trusted.py lowers every example,
# golden program, bench shape and random program with the checks on, to the same tree.

# The loop variables of TaskId array fills and copies (reference-behaviour.md section 5): one
# statement each, so nothing they shadow is read in them.
INIT_LOOP = "__init_i"
YIELD_LOOP = "__yield_i"


# A loop or if none of whose carries is rebound stands as None on the stack of open loops
# (``loops``): its Yields assign nothing and return at once (tests/test_emission_unrebound_yields.py
# sets this False, every loop and if then stacked and each of its Yields' values looked at).
UNREBOUND_YIELDS_SKIPPED = True

# ``survey`` leaves unread the reads of a statement met while every name asked so far is known
# read (tests/test_lower_emission_idle_reads.py sets this False: every statement's reads read).
IDLE_READS_SKIPPED = True

TASK_ID = DType.TASK_ID  # (read once: an enum member read through its class costs a descriptor call)


def is_tid(ty) -> bool:
    return ty._production == "ScalarType" and ty.dtype is TASK_ID


def note_unrebound(loop, yields: dict[int, tuple], followers: dict[str, list[str]]) -> None:
    """For a loop some of whose carries are not rebound: their positions in ``yields``
    (``note_unrebound_yields``: its Yield's values there read nothing), and under the name of each
    such carry's init, the carry's and its result's names in ``followers`` (the carry is the
    init's variable: a read of either reads the init's identifier). ``survey`` does it inline
    for a ``For``."""
    at = unrebound_positions(loop)
    if at:
        note_unrebound_yields(loop, yields, at)
        for i in at:
            it = loop.iters[i]
            if it.init._production == "Var":
                followers.setdefault(it.init.name, []).extend((it.var.name, loop.results[i].name))


@register
class LowerToEmission(Pass):
    """Spell out every statement as the C++ statements that implement it.

    Scopes become ``PTO2_SCOPE`` blocks; an ``Alloc`` becomes the create-infos of the
    tensors the C++ reads (a tensor only a return names, which emits nothing, is read by none: it
    is not made), one ``alloc_tensors`` call and one ``get_ref`` binding per such tensor; a task becomes a blank line,
    ``// Task <n>: <kernel>`` (a Group's ``// Group <g>: ...``, a ``with pl.spmd`` block's ``// Spmd
    <region>: <kernel>``), its ``Arg`` with one add call per argument (tensors, then scalars, each
    encoded as its kernel says; the create-infos of the
    outputs the call omits, which the runtime allocates, come before the blank line), one ``dump(...)``
    of the tensors it marks, its dependency array when it has edges (fresh ids unguarded, others
    guarded, arrays as a loop over their slots, D10), its launch spec (an SPMD task's block
    count, and the sync-start flag when it is true), ``set_allow_early_resolve(true)`` when asked
    (the dependencies after these two for a Group or a ``with pl.spmd`` region, as the reference
    orders a call through a launch function), and its submit (capturing ``task_<n>_outs`` when its TaskId or
    a runtime-allocated output is used); external tensors and scalar parameters are declared
    when the body uses them, so the C++ has no unused variable; loops and ifs declare their rebound carries before the
    statement and assign them at the yield (through temporaries when a yield permutes carries,
    D16; an array carry or if result, TaskIds or data, is copied element by element); a data
    array declared ahead of its value (a ``Declare``) is a zeroed ``T name[size]``; a tensor if result is declared with the first external tensor as its placeholder value
    (reference-behaviour.md section 7.4; uninitialised when no external tensor is declared). Names
    are spelled through the function's map; a let of one identifier to itself emits nothing; a host write's index array is ``indices_<the tensor's DSL name>``. Task numbers count dispatches in program order; helper names are fresh. Afterwards
    the program is a list of C++ statements.
    """

    name = "lower_to_emission"
    source = ENCODED
    target = EMISSION

    def run(self, program):
        func = program.orch
        self.prepare(program)
        self.launches: dict[str, Any] = {}  # kernel name -> the launch of its tasks (not a MixedKernels')
        self.param_of: dict[str, str] | None = None  # made when a host write first asks (``index_array``)
        self.types: dict[str, Any] | None = None  # name -> type, made when first asked (``type_of``)
        # node class (of the input language) -> its lower_<production> method
        self.lowerings = {
            ENCODED.nodes[name[len("lower_") :]]: getattr(self, name)
            for name in dir(self)
            if name.startswith("lower_") and name[len("lower_") :] in ENCODED.nodes
        }
        self.task_count = 0
        self.kernel_facts: dict[str, tuple] = {}  # kernel name -> ``facts_of`` it
        self.alloc_count = 0
        self.barrier_count = 0
        self.used, bound = self.survey(func.body, {s.param for s in func.slots})
        self.names = NameTable([*(self.cn(p.name) for p in func.params), *bound, *(d.name for d in func.dyn_defs)])
        self.loops: list[Any] = []
        self.array_sizes: dict[str, int] = {}
        self.declared: set[str] = set()  # names a (Declare var) already declared
        self.carry_arrays: dict[str, int] | None = None  # made when a Declare first asks (``carry_array_size``)
        externals = [
            E.External.make_trusted(self.cn(s.param), s.index)
            for s in func.slots
            if s._production == "TensorSlot" and self.cn(s.param) in self.used
        ]
        # a tensor if result starts as the first external tensor, as the reference's does (its
        # section 7.4); with none declared, it is declared uninitialised
        self.phi_placeholder = E.Var.make_trusted(min(externals, key=lambda e: e.slot).name) if externals else None
        params = {p.name: p for p in func.params}
        scalars = [
            E.EntryScalar.make_trusted(self.cn(s.param), params[s.param].type.dtype, s.index)
            for s in func.slots
            if s._production == "ScalarSlot" and self.cn(s.param) in self.used
        ]
        body = self.block(func.body)
        if body and body[0]._production == "Blank":
            body = body[1:]  # the entry already leaves a blank line before the body
        elif body and body[0]._production == "TaskArgs":
            body[0] = body[0].replace(blank=False)
        return E.Unit.make(func.name, func.arg_count, externals, scalars, func.dyn_defs, body, span=func.span)

    # -- helpers ----------------------------------------------------------------------------------

    def prepare(self, program) -> None:
        """What ``survey`` reads: the kernels, which outputs of their tasks the runtime allocates
        (``allocated_outs``), and the function's names (``take_names``)."""
        self.func = program.orch
        self.kernels = kernel_table(program)
        self.allocations: dict[tuple[str, int], tuple] = {}  # (kernel, argument count) -> ``allocated_outs``
        # kernel name -> the last parameter a result of it writes (-1: none): a task given more
        # arguments than that has no output the runtime allocates
        self.last_output = {name: last_output_param(kernel) for name, kernel in self.kernels.items()}
        self.take_names(program.orch)

    def take_names(self, func) -> None:
        """Read the function's map of C++ identifiers (``cpp``: the tree's name -> its identifier;
        a name not in it is its own; ``scalars_renamed``: whether a data scalar is in it) and the
        None seeds folded into carries (``none_seeds``)."""
        self.cpp = cpp = dict(zip(func.renamed, func.identifiers))
        self.scalars_renamed = func.scalars_renamed
        self.renamed_vars: dict[str, Any] = {}  # C++ identifier -> its Var without a span (``expr``)
        # A None-seeded TaskId used only to start carries is folded into them (the carries start
        # from PTO2TaskId::invalid()), and its own declaration is left out. (C++ identifiers)
        self.none_seeds = {
            cpp.get(t.var, t.var)
            for t in func.tids
            if t.source is NONE_SEED and cpp.get(t.storage, t.storage) == cpp.get(t.var, t.var)
        }

    def survey(self, body, asked: set[str] | None = None) -> tuple[set[str], list[str]]:
        """One walk of ``body``: the names the C++ reads, and the names its statements bind, both
        as C++ identifiers (the function's map, ``cpp``; ``asked`` names the tree's names).

        Read: every use except returns (which emit nothing), None seeds read as a carry's init
        (folded into the carry), and a carry's init and Yield values where the carry (an if
        result) is not rebound (it is its init's variable: nothing copies, the Yield assigns
        nothing; a read of the carry is one of the init's identifier), and a view's let (emitted
        only where the view is read) only once the view is read under a name of its C++ variable, as
        a create's extents and init (made only where it is read, ``lower_Alloc``). Every read field is entered (``READ_FIELDS``); the usual nodes
        are taken apart inline (a Task's arguments, a loop's bounds, an if's condition, a Yield's values, an
        operation's operands, a dependency edge's TaskId and index, a barrier's edges, a cell's
        store), a Var or an Int met as a
        child is read where it is met, never pushed. Bound: the names of the Binders the statements define (``defined_binders``) and
        of the cells they declare.

        With ``asked`` (the parameters), the result is complete for the names the lowering asks
        about: ``asked`` and the lets, creates, dummies, TaskIds and runtime-allocated outputs the
        statements define. The operations (``Bin``, most of a scalar expression) are read last, a level at a
        time, and no longer once every one of those names is read: a loop variable read only in
        a task's scalar argument is then left out, and the lowering never asks about it. A
        statement met while every name asked so far is known read has its reads left unread
        (``IDLE_READS_SKIPPED``): it reads only names defined before it, each asked about there
        if ever, so its reads answer nothing (and the names it defines are asked from then on)."""
        used: set[str] = set()
        add = used.add
        bound: list[str] = []
        bind = bound.append
        reads_all = asked is None
        # the names asked about, less those known read: a stack whose top is popped once read (a
        # name never read stays in it, and the names under it with it)
        pending = [] if reads_all else list(asked)
        ask, unask = pending.append, pending.pop
        skipping = not reads_all and IDLE_READS_SKIPPED
        fields_of = READ
        none_seeds, cpp = self.none_seeds, self.cpp
        stack: list = []
        pop, push, extend = stack.pop, stack.append, stack.extend
        operations: list = []  # the Bins met: read once the rest is
        defer = operations.append
        task, loop, yld, ret, iter_arg, bin_, var, int_, scope = TASK, FOR, YIELD, RETURN, ITER_ARG, BIN, VAR, INT, SCOPE
        dep_edge, alloc, let_, last_output = DEP_EDGE, ALLOC, LET, self.last_output
        dummy, cell_decl, cell_set, if_, cmp_ = DUMMY, CELL_DECL, CELL_SET, IF, CMP
        # Idle: every name asked so far is known read, so a statement's reads answer nothing. Looked
        # at where a scope begins (each loop body is one, and a look per statement costs more than
        # the reads it saves where few statements are idle); a statement that asks ends it after
        # its own reads.
        idle = False
        # Carries (if results) not rebound (``note_unrebound``): the id of a Yield -> the positions
        # it assigns nothing; a name -> the carries and results that are its variable, a read of
        # one of them a read of it (``read_through``). A loop or if met while idle is not noted:
        # its inits, and any value of a Yield of it that names their storage, are read or never
        # asked about (counting such a value read then changes no answer)
        unrebound: dict[int, tuple] = {}
        followers: dict[str, list[str]] = {}
        # name -> the value not read yet of a view's let or a create: each is made only where its name
        # is read (a view's let, ``lower_let_as``; a create, ``lower_Alloc``), so its tensor, extents
        # and init are read only then (a view read by nothing but a view that nothing reads declares
        # no C++ variable)
        unmade: dict[str, object] = {}
        same = None  # (a C++ variable of ``unmade`` -> the names it has in the tree: ``cpp``, asked once needed)
        while_, note_yields = WHILE, note_unrebound_yields

        def read_through(name: str) -> bool:
            """Whether ``name`` is known read, itself or through a carry that is its variable."""
            if name in used:
                return True
            for other in followers.get(name, ()):
                if read_through(other):
                    add(name)
                    return True
            return False
        for stmt in iter_stmts(body):
            kind = type(stmt)
            if kind is task:
                outs = stmt.outs
                for result in outs:
                    bind(result.name)
                args = stmt.args
                allocates = last_output[stmt.kernel] >= len(args)
                if allocates:
                    for i, _ in self.allocated_outs(stmt):
                        ask(outs[i].name)
                tid = stmt.tid
                if tid is not None:
                    bind(tid.name)
                    ask(tid.name)
                if idle:
                    idle = tid is None and not allocates
                    continue
                values = args  # (their values read below)
                if stmt.deps:
                    extend(stmt.deps)
                if stmt.launch is not None:
                    push(stmt.launch)
            elif kind is yld:
                if idle:
                    continue
                values = stmt.values
                if unrebound:
                    skipped = unrebound.get(id(stmt))
                    if skipped:  # (the values of carries not rebound: assigned nothing)
                        values = [v for i, v in enumerate(values) if i not in skipped]
            elif kind is scope:  # (it reads nothing itself)
                if skipping:
                    while pending and (pending[-1] in used or followers and read_through(pending[-1])):
                        unask()
                    idle = not pending
                continue
            elif kind is loop:
                bind(stmt.var.name)
                if idle:  # (its carries not rebound are not noted: every name asked so far is read)
                    for it in stmt.iters:
                        bind(it.var.name)
                else:
                    at = ()  # (``note_unrebound``, inlined)
                    for i, it in enumerate(stmt.iters):  # (an IterArg read in place: its init, unless a None seed or not rebound)
                        bind(it.var.name)
                        init = it.init
                        if not it.plan.rebind:
                            at += (i,)
                            if type(init) is var:
                                followers.setdefault(init.name, []).extend((it.var.name, stmt.results[i].name))
                        elif type(init) is not var:
                            push(init)
                        elif cpp.get(init.name, init.name) not in none_seeds:
                            add(init.name)
                    if at:
                        note_yields(stmt, unrebound, at)
                for result in stmt.results:
                    bind(result.name)
                if idle:
                    continue
                values = (stmt.start, stmt.stop, stmt.step)
            elif kind is alloc:  # (a create is made only where it is read: its extents and init read then, ``unmade``)
                for create in stmt.creates:
                    name = create.var.name
                    bind(name)
                    unmade[name] = create
                    ask(name)
                idle = False
                continue
            elif kind is let_:
                name = stmt.var.name
                bind(name)
                value = stmt.value
                if type(value) is var:
                    if self.names_one_storage(stmt):
                        continue  # (it emits nothing, so reads nothing)
                    if not idle:
                        add(value.name)
                elif type(value) in VIEW_LETS and not idle:
                    unmade[name] = value  # (read where the view is read: ``unmade``)
                elif type(value) is not int_ and not idle:
                    push(value)
                ask(name)
                idle = False
                continue
            elif kind is dummy:  # (its TaskId defined and asked about, its edges read)
                name = stmt.var.name
                bind(name)
                ask(name)
                if idle:
                    idle = False
                elif stmt.deps:
                    extend(stmt.deps)
                continue
            elif kind is cell_decl:  # (it reads nothing)
                bind(stmt.cell)
                continue
            elif kind is if_:  # (its results' names bound in place: Phis)
                if idle:
                    for phi in stmt.results:
                        bind(phi.var.name)
                    continue
                at = ()
                for i, phi in enumerate(stmt.results):
                    bind(phi.var.name)
                    if not phi.plan.rebind:
                        at += (i,)
                if at:
                    note_yields(stmt, unrebound, at)
                # its condition read here, a comparison's operands as a loop's bounds: a name read
                # there is known read from the next scope on (``idle``), not after the walk
                cond = stmt.cond
                values = (cond.a, cond.b) if type(cond) is cmp_ else (cond,)
            elif kind is cell_set:
                if idle:
                    continue
                value = stmt.value
                if type(value) is var:
                    add(value.name)
                elif type(value) is not int_:
                    push(value)
                continue
            else:
                production = stmt._production
                if production == "CellDecl":
                    bind(stmt.cell)
                elif production in DEFINING:
                    if kind is while_ and not idle:
                        note_unrebound(stmt, unrebound, followers)
                    bound += [b.name for b in defined_binders(stmt)]
                    if production == "Let" and type(stmt.value) is var and self.names_one_storage(stmt):
                        continue  # (it emits nothing, so reads nothing)
                    if production == "Let" or production == "Dummy":
                        ask(stmt.var.name)
                        if idle:
                            idle = False
                            continue
                if kind is ret or idle or not fields_of[kind]:  # a Scope reads nothing itself
                    continue
                push(stmt)
                continue
            for value in values:  # a Task's argument values, a loop's bounds, a Yield's values, an Alloc's extents and inits
                if kind is task:
                    value = value.value
                value_kind = type(value)
                if value_kind is var:
                    add(value.name)
                elif value_kind is bin_:
                    defer(value)
                elif value_kind is not int_:
                    push(value)
        while True:
            while stack:
                node = pop()
                kind = type(node)
                if kind is bin_:
                    defer(node)
                    continue
                if kind is dep_edge:  # its TaskId and its slot index (None, or a scalar)
                    for value in (node.tid, node.index):
                        if type(value) is var:
                            add(value.name)
                        elif value is not None and type(value) is not int_:
                            push(value)
                    continue
                if kind is iter_arg:  # its init, unless a None seed or the carry is not rebound
                    init = node.init
                    if type(init) is not var:
                        push(init)
                    elif node.plan.rebind and cpp.get(init.name, init.name) not in none_seeds:
                        add(init.name)
                    continue
                for name, many in fields_of[kind]:
                    value = getattr(node, name)
                    if many:
                        for item in value:
                            item_kind = type(item)
                            if item_kind is var:
                                add(item.name)
                            elif item_kind is not int_:  # (a number reads nothing)
                                push(item)
                    elif value is not None:
                        value_kind = type(value)
                        if value_kind is var:
                            add(value.name)
                        elif value_kind is not int_:
                            push(value)
            if unmade:  # (those read so far, under any name of their C++ variable: their values read now)
                if same is None:
                    identifiers = {cpp.get(name, name) for name in unmade}
                    same = {}
                    for tree_name, identifier in cpp.items():
                        if identifier in identifiers:
                            same.setdefault(identifier, []).append(tree_name)
                ready = [name for name in unmade
                         if read_through(name) or any(map(read_through, same.get(cpp.get(name, name), ())))]
                if ready:
                    extend(unmade.pop(name) for name in ready)
                    continue
            self.operations_unread = len(operations)
            if not operations or not reads_all and (
                used.issuperset(pending) or followers and all(map(read_through, pending))
            ):
                break
            for node in operations:  # their operands: the operations among them are met next round
                a, b = node.a, node.b
                a_kind, b_kind = type(a), type(b)
                if a_kind is var:
                    add(a.name)
                elif a_kind is not int_:
                    push(a)
                if b_kind is var:
                    add(b.name)
                elif b_kind is not int_:
                    push(b)
            operations.clear()
        return self.in_cpp_names(used, bound)

    def in_cpp_names(self, used: set[str], bound: list[str]) -> tuple[set[str], list[str]]:
        """``used`` and ``bound`` under the names the C++ gives them (``cpp``; ``used`` changed in
        place), by set and map operations: no Python loop."""
        cpp = self.cpp
        if cpp:
            renamed = used.intersection(cpp)
            used.difference_update(renamed)
            used.update(map(cpp.__getitem__, renamed))
            bound = list(map(cpp.get, bound, bound))
        return used, bound

    def allocated_outs(self, task) -> tuple:
        """``(i, index)`` for each output ``i`` of ``task`` that the runtime allocates, as
        ``task_<n>_outs.get_ref(index)``: one whose parameter is past the arguments (the call
        omits it). Made once per kernel and argument count."""
        key = (task.kernel, len(task.args))
        found = self.allocations.get(key)
        if found is None:
            nargs = key[1]
            found = self.allocations[key] = tuple(
                (i, p - nargs) for i, p in enumerate(output_params(self.kernels[task.kernel])) if p is not None and p >= nargs
            )
        return found

    def names_one_storage(self, let) -> bool:
        """Whether ``let`` gives a tensor or an array another name of the storage it holds (a
        tensor copy, an assemble's result): both names have one identifier, and the C++ has
        nothing to copy."""
        value, cpp = let.value, self.cpp
        return (
            value._production == "Var"
            and let.var.type._production in ("TensorType", "ArrayType")
            and cpp.get(value.name, value.name) == cpp.get(let.var.name, let.var.name)
        )

    def cn(self, name: str) -> str:
        """The C++ identifier of the tree's name ``name`` (the function's map)."""
        return self.cpp.get(name, name)

    def expr(self, expr):
        """``expr`` with every name it reads spelled as its C++ identifier: the expression an
        emission node holds (an unchanged expression is the same node)."""
        kind = type(expr)
        if kind is VAR:
            cpp = self.cpp.get(expr.name)
            if cpp is None:
                return expr
            if expr.span is not None:
                return E.Var.make_trusted(cpp, span=expr.span)
            var = self.renamed_vars.get(cpp)  # (immutable: one spanless Var per identifier)
            if var is None:
                var = self.renamed_vars[cpp] = E.Var.make_trusted(cpp)
            return var
        if kind is INT or not self.cpp:
            return expr
        if kind is BIN or kind is CMP:  # (most operations and conditions; an operand that is a number or a kept name is not visited)
            cpp, a, b = self.cpp, expr.a, expr.b
            a_kind, b_kind = type(a), type(b)
            new_a = a if a_kind is INT or a_kind is VAR and a.name not in cpp else self.expr(a)
            new_b = b if b_kind is INT or b_kind is VAR and b.name not in cpp else self.expr(b)
            # (the emission's Bin and Cmp are the input's classes)
            return expr if new_a is a and new_b is b else kind.make_trusted(expr.op, new_a, new_b, span=expr.span)
        changed = {}
        for name, many in READ[kind]:
            value = getattr(expr, name)
            if many:
                new = tuple(map(self.expr, value))
                if any(a is not b for a, b in zip(new, value)):
                    changed[name] = new
            elif value is not None:
                new = self.expr(value)
                if new is not value:
                    changed[name] = new
        return expr.replace(**changed) if changed else expr

    def exprs(self, exprs) -> tuple:
        """``expr`` of each of ``exprs``."""
        return tuple(map(self.expr, exprs)) if self.cpp else exprs

    def scalar_exprs(self, exprs) -> tuple:
        """``exprs`` (that read data scalars only) spelled in C++ identifiers: as they are while no
        data scalar has another identifier (``scalars_renamed``)."""
        return tuple(map(self.expr, exprs)) if self.scalars_renamed else exprs

    def type_of(self, name: str):
        """The type of a parameter or of a variable a statement defines (``type_env``), by the
        tree's name."""
        if self.types is None:
            self.types = type_env(self.func)
        return self.types[name]

    def carry_array_size(self, name: str) -> int | None:
        """The size of the TaskId array a loop or if result of C++ identifier ``name`` holds
        (``carry_arrays``), or None; the map is made when first asked (only a Declare asks)."""
        if self.carry_arrays is None:
            self.carry_arrays = {self.cn(result): size for result, size in carry_arrays(self.func).items()}
        return self.carry_arrays.get(name)

    def init_is_none_seed(self, it) -> bool:
        return it.init._production == "Var" and self.cn(it.init.name) in self.none_seeds

    def tid_init(self, it):
        return TID_INVALID if self.init_is_none_seed(it) else E.TidCopy.make_trusted(self.expr(it.init))

    def fresh(self, base: str) -> str:
        return self.names.reserve_generated(base)

    def block(self, stmts) -> list:
        out: list = []
        lowerings = self.lowerings
        for stmt in stmts:
            method = lowerings.get(type(stmt))
            if method is None:
                raise InternalError(f"no lowering for {stmt._production}", pass_name=self.name, node=stmt)
            method(stmt, out)
        return out

    # -- statements --------------------------------------------------------------------------------

    def lower_Scope(self, scope, out) -> None:
        out.append(E.ScopeBlock.make_trusted(scope.mode, self.block(scope.body), scope.span))

    def lower_Return(self, ret, out) -> None:
        pass

    def lower_CellDecl(self, decl, out) -> None:
        cell = decl.cell
        out.append(E.DeclTid.make_trusted(self.cpp.get(cell, cell), TID_INVALID, decl.span))

    def lower_CellSet(self, store, out) -> None:
        cpp, cell, value = self.cpp, store.cell, store.value
        if type(value) is not VAR or value.name in cpp:  # (a TaskId variable keeping its name: ``expr`` returns it)
            value = self.expr(value)
        out.append(E.AssignTid.make_trusted(cpp.get(cell, cell), E.TidCopy.make_trusted(value), store.span))

    def lower_Declare(self, decl, out) -> None:
        var = decl.var
        ty = var.type
        name = self.cn(var.name)
        self.declared.add(name)
        size = self.carry_array_size(name)
        if size is not None:
            out.append(E.DeclTidArray.make_trusted(name, size, span=decl.span))
            self.array_sizes[name] = size
        elif ty._production == "TensorType":
            out.append(E.DeclTensor.make_trusted(name, None, span=decl.span))
        elif ty._production == "ScalarType" and ty.dtype is not TASK_ID:
            out.append(E.DeclScalar.make_trusted(name, ty.dtype, None, span=decl.span))
        elif _is_data_array(ty):
            out.append(E.DeclArray.make_trusted(name, ty.dtype, ty.size, span=decl.span))
        else:
            raise InternalError(f"cannot declare '{name}' ahead of its value", pass_name=self.name, node=decl)

    def define(self, name: str, ty, value, out, span=None) -> None:
        """``T name = value;``, or ``name = value;`` when a Declare already declared ``name``
        (``value`` spelled in C++ identifiers already)."""
        if name in self.declared:
            out.append(self.assign(name, ty, value))
        else:
            node = self.declare(name, ty, value)
            out.append(node.replace(span=span) if span is not None else node)

    def lower_Alloc(self, alloc, out) -> None:
        cpp, used = self.cpp, self.used
        # (a create the C++ does not read, one only a return names, which emits nothing, is not
        # made: its reference would be an unused variable, and the buffer is never used)
        read = [(create, cpp.get(create.var.name, create.var.name)) for create in alloc.creates]
        read = [(create, name) for create, name in read if name in used]
        if not read:
            return
        infos = []
        for create, name in read:
            shapes, info = name + "_ci_shapes", name + "_ci"
            out.append(E.ShapeArray.make_trusted(shapes, self.scalar_exprs(create.shape), span=create.span))
            out.append(E.CreateInfo.make_trusted(info, shapes, len(create.shape), create.dtype, create.manual_dep))
            if create.init is not None:
                out.append(E.SetInitial.make_trusted(info, create.dtype, (self.expr(create.init) if self.scalars_renamed else create.init)))
            infos.append(info)
        batch = self.fresh(f"alloc_{self.alloc_count}")
        self.alloc_count += 1
        out.append(E.AllocTensors.make_trusted(batch, infos))
        for i, (_, name) in enumerate(read):
            out.append(E.BindRef.make_trusted(name, batch, i))

    def lower_Let(self, let, out) -> None:
        kind = type(let.value)
        if kind is ASSEMBLE:  # (the grammar has it; fuse_create_assemble_to_slice leaves none)
            raise InternalError("an assemble reached emission", pass_name=self.name, node=let)
        if kind is VAR and self.names_one_storage(let):
            return
        name = let.var.name
        name = self.cpp.get(name, name)
        if kind is NO_TASK:  # (``lower_let_as``'s case of the usual let, here: an invalid TaskId, declared when read)
            if name in self.used:
                out.append(E.DeclTid.make_trusted(name, TID_INVALID, let.span))
            return
        self.lower_let_as(name, let, out)

    def lower_let_as(self, name: str, let, out) -> None:
        """The C++ of ``let``, its variable spelled ``name``."""
        var, value = let.var, let.value
        if name not in self.used and value._production in PURE_LETS:
            return  # e.g. a TaskId copy whose readers now read its source directly
        if name in self.declared and value._production in ("SliceTensor", "TransposeTensor", "ReshapeTensor", "DimTensor", "ReadTensor", "GetItem"):
            temp = self.fresh(name + "_value")
            self.used.add(temp)  # read by the assignment below
            self.lower_let_as(temp, let, out)
            out.append(E.AssignVar.make_trusted(name, E.Var.make_trusted(temp)))
            return
        kind = value._production
        span = let.span
        cn, expr = self.cn, self.expr
        if kind == "NoTask":
            if name in self.used:
                out.append(E.DeclTid.make_trusted(name, TID_INVALID, span))
        elif kind == "CreateArray":
            if value.dtype is TASK_ID:
                out.append(E.FillTidArray.make_trusted(name, value.size, TID_INVALID, INIT_LOOP, True, span=span))
            else:
                out.append(E.DeclArray.make_trusted(name, value.dtype, value.size, span=span))
        elif kind == "GetItem":
            if is_tid(var.type):
                out.append(E.DeclTid.make_trusted(name, E.TidSlot.make_trusted(cn(value.array.name), expr(value.index)), span=span))
            else:
                out.append(E.DeclElement.make_trusted(name, var.type.dtype, cn(value.array.name), expr(value.index), span=span))
        elif kind == "SetItem":
            array = cn(value.array.name)
            if _elem_tid(self.type_of(value.array.name)):
                out.append(E.SetTidSlot.make_trusted(array, expr(value.index), E.TidCopy.make_trusted(expr(value.value)), span=span))
            else:
                out.append(E.SetArrayItem.make_trusted(array, expr(value.index), expr(value.value), span=span))
        elif kind == "ReadTensor":
            indices = self.fresh("indices_" + name)
            out.append(E.ShapeArray.make_trusted(indices, self.exprs(value.index), span=span))
            out.append(E.ReadElement.make_trusted(name, var.type.dtype, cn(value.tensor.name), indices, len(value.index)))
        elif kind == "SliceTensor":
            shapes, offsets = name + "_shapes", name + "_offsets"
            tensor = cn(value.tensor.name)
            offset, shape = value.offset, value.shape
            if self.scalars_renamed:
                offset, shape = self.exprs(offset), self.exprs(shape)
            out.append(E.ShapeArray.make_trusted(offsets, offset, span=span))
            out.append(E.ViewExtents.make_trusted(shapes, shape, tensor, offsets, value.clamp))
            out.append(E.ViewTensor.make_trusted(name, tensor, shapes, offsets, value.manual_dep))
        elif kind == "TransposeTensor":
            out.append(E.TransposeView.make_trusted(name, cn(value.tensor.name), value.axis1, value.axis2, value.manual_dep, span=span))
        elif kind == "ReshapeTensor":
            shapes = name + "_shapes"
            out.append(E.ShapeArray.make_trusted(shapes, self.scalar_exprs(value.shape), span=span))
            out.append(E.ReshapeView.make_trusted(name, cn(value.tensor.name), shapes, len(value.shape), value.manual_dep))
        elif kind == "DimTensor":
            out.append(E.ReadDim.make_trusted(name, cn(value.tensor.name), value.axis, span=span))
        elif kind == "Var" and is_tid(var.type) and self.array_sizes.get(cn(value.name)) and name not in self.declared:
            self.declare_tids(name, self.array_sizes[cn(value.name)], expr(value), out)  # a copy of a TaskId array
        elif var.type._production in ("TensorType", "ScalarType"):
            self.define(name, var.type, expr(value), out, span)
        else:
            raise InternalError(f"cannot lower a let of {kind}", pass_name=self.name, node=let)

    def lower_WriteTensor(self, write, out) -> None:
        tensor = self.cn(write.tensor.name)
        dtype = self.type_of(write.tensor.name).dtype
        value = self.expr(write.value)
        if not write.index:
            out.append(E.WriteElement.make_trusted(tensor, dtype, None, 0, value, span=write.span))
            return
        indices = self.index_array(write.tensor.name)  # local to the block
        array = E.ShapeArray.make_trusted(indices, self.exprs(write.index), span=write.span)
        out.append(E.Block.make_trusted([array, E.WriteElement.make_trusted(tensor, dtype, indices, len(write.index), value)], span=write.span))

    def index_array(self, tensor: str) -> str:
        """The name of a host write's index array: ``indices_`` and the tensor's DSL name (a
        parameter's, not its ``ext_`` identifier)."""
        if self.param_of is None:
            self.param_of = {self.cn(p.name): p.name for p in self.func.params}  # ext_<p> -> p
        cpp = self.cn(tensor)
        return "indices_" + self.param_of.get(cpp, cpp)

    def lower_Task(self, task, out) -> None:
        n = self.task_count
        self.task_count += 1
        facts = self.kernel_facts.get(task.kernel)
        if facts is None:
            facts = self.kernel_facts[task.kernel] = self.facts_of(task.kernel)
        kernel, last_output, param_count, grouped = facts
        args = self.names.reserve_generated(f"params_t{n}")
        used, declared, cpp = self.used, self.declared, self.cpp
        tid = task.tid
        nargs = len(task.args)
        allocated = []  # (C++ identifier, index) of the runtime-allocated outputs that are read (an unread C++ reference would not compile)
        if last_output >= nargs:
            for i, index in self.allocated_outs(task):
                name = task.outs[i].name
                name = cpp.get(name, name)
                if name in used or name in declared:
                    allocated.append((name, index))
        tid_name = None if tid is None else cpp.get(tid.name, tid.name)
        tid_used = tid_name is not None and tid_name in used
        outs_name = self.names.reserve_generated(f"task_{n}_outs") if allocated or tid_used else None
        append = out.append
        if param_count > nargs:
            synth = self.synthesized_outputs(task, kernel, args, out)  # before the task's block, as the reference
        else:
            synth = ()
        spec = task.launch
        tensors = []  # their C++ identifiers
        dirs = []
        scalars = []
        for arg in task.args:  # the tensors first, in order; then the scalars, in order
            if arg.dir is not SCALAR:
                name = arg.value.name
                tensors.append(cpp.get(name, name))
                dirs.append(arg.dir)
            else:
                scalars.append(arg.value)
        dumped = [tensors[i] for i in task.dumps] if task.dumps else None
        if synth:
            tensors += synth
            dirs += [OUTPUT] * len(synth)
        if self.scalars_renamed:  # (a scalar argument reads data scalars only)
            scalars = list(map(self.expr, scalars))
        if grouped or spec is not None and spec.region is not None:
            comment = task_comment(n, kernel, spec)
        else:  # (``task_comment``'s usual case, here)
            comment = f"Task {n}: {kernel.name}"
        append(E.TaskArgs.make_trusted(True, comment, args, dirs, tensors, scalars, kernel.encodings, task.span))
        if dumped:
            append(E.DumpArgs.make_trusted(args, list(dict.fromkeys(dumped))))
        # (a Group's MixedKernels, written by ``launch``, before the dependencies, as the reference)
        launch = self.launches.get(kernel.name) or self.launch(kernel, n, out)
        # reference-behaviour.md 10.5: a direct call sets its dependencies, launch spec, then early
        # resolve; a call through a launch function (a Group, a ``with pl.spmd`` region: 10.1) sets
        # its launch spec and early resolve before its dependencies.
        through_launch_function = grouped or (spec is not None and spec.region is not None)
        if task.deps:
            pushes, size = self.pushes(task.deps)
            deps = E.Deps.make_trusted(args, size, pushes)
        else:
            deps = None
        if deps is not None and not through_launch_function:
            append(deps)
        if spec is not None:
            append(E.SetBlockNum.make_trusted(args, self.expr(spec.blocks), spec.span))
            if spec.sync_start:
                append(E.SetSyncStart.make_trusted(args))
        if task.early_resolve:
            append(E.AllowEarlyResolve.make_trusted(args))
        if deps is not None and through_launch_function:
            append(deps)
        append(E.Submit.make_trusted(args, launch, outs_name, tid_name if tid_used else None))
        for name, index in allocated:
            bind = E.AssignRef if name in declared else E.BindRef
            append(bind.make_trusted(name, outs_name, index))

    def facts_of(self, name: str) -> tuple:
        """What lowering a task of kernel ``name`` reads of the kernel, once per kernel: the
        kernel (its ``encodings`` are its tasks' scalar arguments', D4), the last parameter a
        result of it writes (``last_output``), its parameter count, and whether it is a Group (its
        tasks go through a launch function)."""
        kernel = self.kernels[name]
        return kernel, self.last_output[name], len(kernel.params), bool(kernel.members)

    def synthesized_outputs(self, task, kernel, args: str, out) -> list[str]:
        infos = []
        for p in range(len(task.args), len(kernel.params)):
            param = kernel.params[p]
            if param.dir is not ParamDir.Out or param.type._production != "TensorType":
                raise InternalError(
                    f"task of '{kernel.name}' omits parameter '{param.name}', which is not an Out tensor",
                    pass_name=self.name,
                    node=task,
                )
            info = self.fresh(f"{args}_synth_out_{p}")
            shapes = self.fresh(info + "_shapes")
            out.append(E.ShapeArray.make_trusted(shapes, param.type.shape))
            out.append(E.CreateInfo.make_trusted(info, shapes, len(param.type.shape), param.type.dtype, False))
            infos.append(info)
        return infos

    def launch(self, kernel, n: int, out):
        if kernel.core is CoreType.MIX:
            members = {k.name: k for k in self.kernels.values()}
            aic, aiv = (members[m] for m in kernel.members)
            mixed = self.fresh(f"mixed_{n}")
            aiv1 = aiv.id if kernel.dual_dispatch or aiv.dual_dispatch else None
            out.append(E.DeclMixed.make_trusted(mixed, aic.id, aiv.id, aiv1))
            return E.MixedLaunch.make_trusted(mixed)
        launch = self.launches.get(kernel.name)
        if launch is None:  # one (immutable) launch node per kernel, shared by its tasks
            target = self.kernels[kernel.members[0]] if kernel.members else kernel
            if target.id is None:
                raise InternalError(f"kernel '{target.name}' has no id", pass_name=self.name)
            launch = E.AicLaunch.make_trusted(target.id) if target.core is CoreType.AIC else E.AivLaunch.make_trusted(target.id)
            self.launches[kernel.name] = launch
        return launch

    def pushes(self, deps) -> tuple[list, int]:
        """The entries of a dependency array, one per edge (fresh ids unguarded, others guarded, an
        array's valid slots in a loop: D10), and the array's size (``capacity``: a slot per edge,
        N for an edge of a whole array of N), both in one loop over the edges."""
        pushes = []
        push, cpp, make = pushes.append, self.cpp, E.PushDep.make_trusted  # (most entries are one)
        size = len(deps)
        for edge in deps:
            tid = edge.tid
            if type(tid) is not VAR:  # (resolve_dep_edges makes every edge's TaskId a Var)
                raise InternalError(f"a dependency on {tid._production}, not a TaskId variable", pass_name=self.name, node=edge)
            name = tid.name
            name = cpp.get(name, name)
            if edge.size:
                size += edge.size - 1
                push(E.PushDepSlots.make_trusted(name, edge.size, self.fresh("slot"), span=edge.span))
            elif edge.index is None:  # (most edges: a TaskId variable)
                push(make(name, None, edge.guarded, edge.span))
            else:
                push(make(name, self.expr(edge.index), edge.guarded, edge.span))
        return pushes, size

    def lower_Dummy(self, dummy, out) -> None:
        """A dummy task under its comment: ``Barrier <b>: <purpose>`` for a barrier a pass made,
        the reference's phase-fence comment for the user's dummy and a phase fence (no purpose)."""
        b = self.barrier_count
        self.barrier_count = b + 1
        reserve = self.names.reserve_generated
        args = reserve(f"params_phase_fence_barrier_{b}")
        purpose = dummy.purpose
        comment = f"Phase-fence barrier {b}: dependency-only dummy task" if purpose is None else f"Barrier {b}: {purpose}"
        out.append(E.TaskArgs.make_trusted(True, comment, args, (), (), (), (), dummy.span))
        name = dummy.var.name
        name = self.cpp.get(name, name)
        if name in self.used:  # (its TaskId read: captured from its outputs)
            outs = reserve(f"phase_fence_barrier_{b}_outs")
        else:
            outs = name = None
        if dummy.deps:
            pushes, size = self.pushes(dummy.deps)
            out.append(E.GuardedDummy.make_trusted(args, size, pushes, outs, name))
        else:
            out.append(E.Submit.make_trusted(args, DUMMY_LAUNCH, outs, name))

    def lower_HostFence(self, fence, out) -> None:
        b = self.barrier_count
        self.barrier_count += 1
        if fence.wait:
            self.lower_host_wait(fence, b, out)
            return
        args = self.fresh(f"params_host_fence_{b}")
        tensor = self.cn(fence.tensor.name)
        comment = f"Barrier {b}: a producer of {tensor} for the host access below"
        out.append(E.TaskArgs.make_trusted(True, comment, args, (ArgDir.InOut,), (tensor,), (), (), fence.span))
        pushes, size = self.pushes(fence.deps)
        out.append(E.GuardedDummy.make_trusted(args, size, pushes, None, None))

    def lower_host_wait(self, fence, b: int, out) -> None:
        """A dummy task creating one element after the fence's edges, and a host read of that
        element: get_tensor_data waits for the element's creator, so the host access of
        ``fence.tensor`` that follows comes after the edges' tasks (runtime-api.md section 11)."""
        args = self.fresh(f"params_host_wait_{b}")
        outs = self.fresh(f"host_wait_{b}_outs")
        info, shapes = self.fresh(f"host_wait_{b}_info"), self.fresh(f"host_wait_{b}_shapes")
        done, index = self.fresh(f"host_wait_{b}"), self.fresh(f"host_wait_{b}_index")
        out.append(BLANK)
        out.append(E.Comment.make_trusted(
            f"Barrier {b}: the host access of {self.cn(fence.tensor.name)} below waits, through this dummy's element, "
            "for the tasks of the manual scope it follows", span=fence.span))
        body = [
            E.ShapeArray.make_trusted(shapes, [E.Int.make_trusted(1, DType.INDEX)]),
            E.CreateInfo.make_trusted(info, shapes, 1, DType.INT32, False),
            E.TaskArgs.make_trusted(False, None, args, (ArgDir.Output,), (info,), (), ()),
        ]
        if fence.deps:
            pushes, size = self.pushes(fence.deps)
            body.append(E.Deps.make_trusted(args, size, pushes))
        body += [
            E.Submit.make_trusted(args, DUMMY_LAUNCH, outs, None),
            E.BindRef.make_trusted(done, outs, 0),
            E.ShapeArray.make_trusted(index, [E.Int.make_trusted(0, DType.INDEX)]),
            E.ReadElement.make_trusted(None, DType.INT32, done, index, 1),
        ]
        out.append(E.Block.make_trusted(body))

    # -- control flow ------------------------------------------------------------------------------

    def lower_For(self, loop, out) -> None:
        loops = self.loops
        loops.append(self.declare_carries(loop, out))
        body = self.block(loop.body)
        loops.pop()
        start, stop, step, var = loop.start, loop.stop, loop.step, loop.var.name
        cpp = self.cpp
        if cpp and not (type(start) is INT and type(step) is INT and (type(stop) is INT or type(stop) is VAR and stop.name not in cpp)):
            start, stop, step = self.expr(start), self.expr(stop), self.expr(step)  # (bounds are most often numbers)
        out.append(E.ForBlock.make_trusted(cpp.get(var, var), start, stop, step, body, loop.span))

    def lower_While(self, loop, out) -> None:
        self.loops.append(self.declare_carries(loop, out))
        body = self.block(loop.body)
        self.loops.pop()
        out.append(E.WhileBlock.make_trusted(self.expr(loop.cond), body, span=loop.span))

    def declare_carries(self, loop, out):
        """Declare the rebound carries of ``loop`` ahead of it; what stands for it on the stack of
        open loops: ``loop``, or None when none of its carries is rebound (its Yield emits nothing)."""
        for it in loop.iters:  # (most carries are not rebound: such a loop is passed without a zip)
            if it.plan.rebind:
                break
        else:
            return None if UNREBOUND_YIELDS_SKIPPED else loop
        for it, result in zip(loop.iters, loop.results):
            if it.plan.rebind:  # (a carry not rebound is its init's variable: nothing to declare)
                self.declare_carry(it, result, loop, out)
        return loop

    def declare_carry(self, it, result, loop, out) -> None:
        """Declare a rebound carry ahead of its loop, holding its init."""
        plan = it.plan
        name = self.cn(result.name)
        init = self.expr(it.init)
        ty = it.var.type
        if is_tid(ty) and plan.body != plan.array and not plan.per_iteration:
            # the carry's variable holds the init, the result's the value the last iteration yields
            self.declare_tids(self.cn(it.var.name), plan.body, None if self.init_is_none_seed(it) else init, out)
            if name not in self.declared:
                self.declare_tids(name, plan.array, None, out)
        elif plan.array > 0:
            if name not in self.declared:
                out.append(E.DeclTidArray.make_trusted(name, plan.array))
            if plan.per_iteration and plan.body not in (0, plan.array):
                init = None  # (every iteration writes its own slot: an array init of another size is not copied)
            self.array_sizes[name] = plan.array
            self.store_tids(name, plan.array, None if init is None or self.init_is_none_seed(it) else init, out)
        elif ty._production == "ArrayType":
            if ty.dtype is TASK_ID:
                out.append(E.DeclTidArray.make_trusted(name, ty.size))
                out.append(E.CopyTidArray.make_trusted(name, init.name, ty.size, INIT_LOOP))
            else:
                if name not in self.declared:
                    out.append(E.DeclArray.make_trusted(name, ty.dtype, ty.size))
                out.append(E.CopyArray.make_trusted(name, init.name, ty.size, INIT_LOOP))
        elif is_tid(ty):
            out.append(E.DeclTid.make_trusted(name, self.tid_init(it)))
        else:
            self.define(name, ty, init, out)

    def declare_tids(self, name: str, size: int, value, out) -> None:
        """``PTO2TaskId name`` (or ``name[size]``) holding ``value`` (None: invalid)."""
        if size == 0:
            out.append(E.DeclTid.make_trusted(name, TID_INVALID if value is None else E.TidCopy.make_trusted(value)))
            return
        out.append(E.DeclTidArray.make_trusted(name, size))
        self.array_sizes[name] = size
        self.store_tids(name, size, value, out)

    def store_tids(self, name: str, size: int, value, out, loop: str = INIT_LOOP, span=None) -> None:
        """Array ``name`` of ``size`` slots now holds ``value`` (None: nothing): an array of the same
        size is copied; a single id fills every slot; a smaller array fills the first slots and
        leaves the others invalid. ``loop`` names the copy loops' variable."""
        held = self.array_sizes.get(value.name, 0) if value is not None and value._production == "Var" else 0
        if value is not None and held == size:
            out.append(E.CopyTidArray.make_trusted(name, value.name, size, loop, span=span))
        elif value is None or held:
            out.append(E.FillTidArray.make_trusted(name, size, TID_INVALID, loop, False, span=span))
            if value is not None:
                out.append(E.CopyTidArray.make_trusted(name, value.name, held, loop))
        else:
            out.append(E.FillTidArray.make_trusted(name, size, E.TidCopy.make_trusted(value), loop, False, span=span))

    def lower_If(self, branch, out) -> None:
        owner = None  # (stands for an if none of whose results is rebound: its Yields emit nothing)
        for phi in branch.results:
            if not phi.plan.rebind:
                continue
            owner = branch
            name = self.cn(phi.var.name)
            if name in self.declared:
                continue
            ty = phi.var.type
            if phi.plan.array > 0:
                out.append(E.DeclTidArray.make_trusted(name, phi.plan.array))
                out.append(E.FillTidArray.make_trusted(name, phi.plan.array, TID_INVALID, INIT_LOOP, False))
                self.array_sizes[name] = phi.plan.array
            elif is_tid(ty):
                out.append(E.DeclTid.make_trusted(name, TID_INVALID))
            elif _elem_tid(ty):  # a pl.array of TaskIds: each branch's yield copies every slot
                out.append(E.DeclTidArray.make_trusted(name, ty.size))
            elif ty._production == "TensorType":
                out.append(E.DeclTensor.make_trusted(name, self.phi_placeholder))
            elif _is_data_array(ty):
                out.append(E.DeclArray.make_trusted(name, ty.dtype, ty.size))
            else:
                out.append(E.DeclScalar.make_trusted(name, ty.dtype, None))
        self.loops.append(owner if UNREBOUND_YIELDS_SKIPPED else branch)
        then = self.block(branch.then)
        orelse = self.block(branch.orelse)
        self.loops.pop()
        if _only_empty_scopes(orelse):
            orelse = []  # a branch that only yielded values already in place emits nothing
        out.append(E.IfBlock.make_trusted(self.expr(branch.cond), then, orelse, span=branch.span))

    def lower_Yield(self, yld, out) -> None:
        owner = self.loops[-1]
        if owner is None:  # a loop or if none of whose carries is rebound (``lower_For``): nothing to assign
            return
        is_if = owner._production == "If"
        carries = owner.results if is_if else owner.iters  # Phis, or IterArgs (their plans)
        assigns = []
        copies: list[tuple[str, Any, str]] = []
        cn = self.cn
        for i, value in enumerate(yld.values):
            it = carries[i]
            plan = it.plan
            if not plan.rebind:
                continue
            value = self.expr(value)
            name = cn(it.var.name) if is_if else cn(owner.results[i].name)
            ty = it.var.type
            if not is_if and plan.body != plan.array and not plan.per_iteration:
                carry = cn(it.var.name)  # the carry's own variable, and the result's
                if not (value._production == "Var" and value.name == carry):
                    self.store_tids(carry, plan.body, value, out, span=yld.span)
                if plan.array > 0:
                    self.store_tids(name, plan.array, value, out)
                else:
                    out.append(E.AssignTid.make_trusted(name, E.TidCopy.make_trusted(value)))
                continue
            if plan.array > 0:
                if plan.per_iteration:
                    out.append(E.SetTidSlot.make_trusted(name, self.slot_expr(owner), E.TidCopy.make_trusted(value), span=yld.span))
                else:
                    self.store_tids(name, plan.array, value, out, YIELD_LOOP, span=yld.span)
                continue
            if value._production == "Var" and value.name == name:
                continue
            if ty._production == "ArrayType":  # an array carried by value: copied element by element
                copies.append((name, ty, value.name))
                continue
            assigns.append((name, ty, value))
        if assigns:
            self.parallel_assign(assigns, out)
        if copies:
            self.parallel_copy(copies, yld.span, out)

    def slot_expr(self, loop):
        var = E.Var.make_trusted(self.cn(loop.var.name))
        if loop.start._production == "Int" and loop.start.value == 0 and loop.step._production == "Int" and loop.step.value == 1:
            return var
        return E.Bin.make_trusted(BinOp.floordiv, E.Bin.make_trusted(BinOp.sub, var, self.expr(loop.start)), self.expr(loop.step))

    def parallel_assign(self, assigns, out) -> None:
        """Assign carries as one parallel assignment (D16): read every value before any write."""
        targets = {name for name, _, _ in assigns}
        reads_target = len(assigns) > 1 and any(  # (one assignment reads no other target)
            n.name in targets - {name}
            for name, _, value in assigns
            for n in walk(value)
            if n._production == "Var"
        )
        if not reads_target:
            for name, ty, value in assigns:
                out.append(self.assign(name, ty, value))
            return
        temps = []
        for name, ty, value in assigns:
            temp = self.fresh(name + "_next")
            out.append(self.declare(temp, ty, value))
            temps.append((name, ty, temp))
        for name, ty, temp in temps:
            out.append(self.assign(name, ty, E.Var.make_trusted(temp)))

    def parallel_copy(self, copies, span, out) -> None:
        """Copy arrays carried by value element by element, as one parallel assignment: an array
        that another copy reads is first copied into a temporary."""
        targets = {name for name, _, _ in copies}
        staged = []
        for name, ty, source in copies:
            if source in targets - {name}:
                temp = self.fresh(name + "_next")
                out.append(E.DeclTidArray.make_trusted(temp, ty.size) if ty.dtype is TASK_ID else E.DeclArray.make_trusted(temp, ty.dtype, ty.size))
                self.copy_array(temp, ty, source, span, out)
                source = temp
            staged.append((name, ty, source))
        for name, ty, source in staged:
            self.copy_array(name, ty, source, span, out)

    def copy_array(self, dst: str, ty, src: str, span, out) -> None:
        if ty.dtype is TASK_ID:
            out.append(E.CopyTidArray.make_trusted(dst, src, ty.size, YIELD_LOOP, span=span))
        else:
            out.append(E.CopyArray.make_trusted(dst, src, ty.size, YIELD_LOOP, span=span))

    def assign(self, name: str, ty, value):
        if is_tid(ty):
            return E.AssignTid.make_trusted(name, E.TidCopy.make_trusted(value))
        return E.AssignVar.make_trusted(name, value)

    def declare(self, name: str, ty, value):
        if is_tid(ty):
            return E.DeclTid.make_trusted(name, E.TidCopy.make_trusted(value))
        if ty._production == "TensorType":
            return E.DeclTensor.make_trusted(name, value)
        return E.DeclScalar.make_trusted(name, ty.dtype, value)


class ReadFields(dict):
    """node class -> the child fields ``survey`` enters: not the nested statements (the
    statement walk meets them), nor definitions and types (a Binder is a name and its type; types
    are never printed), nor a carry's plan (terminals only)."""

    SKIPPED_KINDS = frozenset({"Stmt", "Binder", "Phi", "Type", "Carry"})

    def __missing__(self, cls):
        skipped = self.SKIPPED_KINDS
        fields = tuple(
            (f.name, f.many) for f in cls._field_specs if f.kind not in cls._terminals and f.kind not in skipped
        )
        self[cls] = fields
        return fields


READ_FIELDS = ReadFields()

# The classes ``survey`` takes apart inline (their read fields, as ``READ_FIELDS`` lists them:
# a Task's args, launch and deps; a For's start, stop, step and iters; a Yield's values; an
# IterArg's init; a Bin's a and b; a DepEdge's tid and index; an Alloc's creates, a Create's shape
# and init; a Let's value; a Dummy's deps; a CellSet's value).
TASK, FOR, YIELD, RETURN, ITER_ARG, BIN, VAR, INT, DEP_EDGE, ASSEMBLE, ALLOC, LET, SCOPE = (
    ENCODED.Task, ENCODED.For, ENCODED.Yield, ENCODED.Return, ENCODED.IterArg, ENCODED.Bin, ENCODED.Var, ENCODED.Int,
    ENCODED.DepEdge, ENCODED.AssembleTensor, ENCODED.Alloc, ENCODED.Let, ENCODED.Scope,
)
DUMMY, CELL_DECL, CELL_SET, WHILE = ENCODED.Dummy, ENCODED.CellDecl, ENCODED.CellSet, ENCODED.While  # (a barrier's statements, also inline)
IF, CMP = ENCODED.If, ENCODED.Cmp  # (an if's results bound and its condition read inline)
NO_TASK = ENCODED.NoTask
# the lets of a view: emitted only where their name is read (``lower_let_as``), so their reads count only then (``survey``)
VIEW_LETS = frozenset({ENCODED.SliceTensor, ENCODED.TransposeTensor, ENCODED.ReshapeTensor})
# ``READ_FIELDS`` of every class of the input language, as a plain dict (a dict subclass's ``[]``
# goes through a method call): what ``survey`` and ``expr`` look up per node.
READ = {cls: READ_FIELDS[cls] for cls in ENCODED.nodes.values()}
# the enum members it reads (an enum member read through its class costs a descriptor call)
SCALAR, OUTPUT, NONE_SEED = ArgDir.Scalar, ArgDir.Output, DepSource.none_seed

# (immutable and without a span: one node for every use)
BLANK, TID_INVALID, DUMMY_LAUNCH = E.Blank.make_trusted(), E.TidInvalid.make_trusted(), E.DummyLaunch.make_trusted()

# Lets without effects (a value the C++ never reads need not be computed).
PURE_LETS = frozenset(
    {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un", "NoTask", "GetItem", "SliceTensor", "TransposeTensor",
     "ReshapeTensor", "DimTensor", "ReadTensor", "CreateArray"}
)


def last_output_param(kernel) -> int:
    """The last parameter a result of ``kernel`` writes (-1: none): a task giving more arguments
    than that has no output the runtime allocates (``allocated_outs`` need not be asked)."""
    return max((p for p in output_params(kernel) if p is not None), default=-1)


def task_comment(n: int, kernel, launch=None) -> str:
    """``Task <n>: <kernel>`` (D3); a Group's as the reference writes it (``Group <g>: ...``), and a
    ``with pl.spmd`` block's (``Spmd <func>_spmd_<k>: <kernel>``)."""
    if launch is not None and launch.region is not None:
        return f"Spmd {launch.region}: {kernel.name}"
    if not kernel.members:
        return f"Task {n}: {kernel.name}"
    lanes = "MixedKernels (AIC + AIV lanes)" if kernel.core is CoreType.MIX else "AIV-only SPMD"
    return f"Group {kernel.name}: {lanes}"


def _is_data_array(ty) -> bool:
    return ty._production == "ArrayType" and ty.dtype is not TASK_ID


def _elem_tid(array_type) -> bool:
    return array_type._production == "ArrayType" and array_type.dtype is TASK_ID


def _only_empty_scopes(stmts) -> bool:
    """Whether every statement of ``stmts`` is a scope holding only such scopes (plain loops: no
    generator per body)."""
    for stmt in stmts:
        if stmt._production != "ScopeBlock" or not _only_empty_scopes(stmt.body):
            return False
    return True
