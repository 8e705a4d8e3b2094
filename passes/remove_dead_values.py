"""remove_dead_values: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType, LoopKind, ScopeMode
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import walk_of
from nanopass.rewrite import Pass, register, trusted_maker

from .util import TYPE_PRODUCTIONS, iter_stmts, last_of_subtree, last_yield, renamed, static_trip_count

S = DIRECTED
TASK_ID, PARALLEL, MANUAL = DType.TASK_ID, LoopKind.parallel, ScopeMode.manual

# Right-hand sides without effects: computing one whose value nobody needs can be skipped.
PURE = frozenset(
    {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un", "CreateTensor", "ReadTensor", "SliceTensor",
     "TransposeTensor", "ReshapeTensor", "DimTensor", "CreateArray", "GetItem", "SetItem", "NoTask"}
)


@register
class RemoveDeadValues(Pass):
    """Remove values nothing observable needs: pure lets, loop carries and if results.

    Liveness starts from what has an effect (task arguments and dependencies, element writes,
    dummies, host fences, loop bounds, if conditions, returns) and flows back through lets,
    carries (a live carry needs its init and its yielded value) and if results (each branch's
    yielded value). A dead let goes; a dead carry or if result goes with its yielded values. A
    manual scope's TaskId ``pl.parallel`` carry is two values, the iter_arg (the init) and the
    result (an array of the yields): either may go alone. Afterwards every value left is read
    by something with an effect.

    Preserves the single definitions and the yields (``preserves``): only definitions go, each
    carry or if result with its value in the final yield of each body (an empty yield too), so
    every loop and if keeps one yielded value per carry or result, at the end.
    """

    name = "remove_dead_values"
    source = DIRECTED
    target = DIRECTED
    preserves = frozenset({check_single_definition, check_yields})

    def run(self, program):
        body = program.orch.body
        if every_value_read(body):
            return program  # no value is dead (``every_value_read``): no liveness to find
        self.live, removable = self.liveness(body, enough=True, apart=True)
        if removable <= self.live:
            return program  # every value that could go is needed
        return self.visit(program)

    @staticmethod
    def liveness(body, dummies: bool = False, enough: bool = False, apart: bool = False) -> tuple[set[str], set[str]]:
        """The live names, and the names of every value this pass could remove (pure lets, loop
        carries, if results). With ``dummies``, a dummy barrier is no effect but a value (its
        TaskId, which needs its dependencies), so a barrier nothing waits for is dead too.

        With ``enough``, the flow starts from the effects' reads that are names (a task argument
        or dependency that is a variable): when the names live from those alone hold every removable one, the
        flow stops there (the expressions of the other reads, scalar arithmetic mostly, are not
        walked) and the live names returned are those, which suffice to know that nothing goes;
        otherwise it goes on from the other reads to the whole live set.

        With ``apart``, a TaskId carry with a name for init of a per-iteration loop is two values
        (the class docstring): the iter_arg needs the init, the result both."""
        # name -> what its value reads: a pure let's value (an expression; a slice of a constant box:
        # its source), a dummy's dependencies (a tuple; a create of constant extents and initial
        # value: an empty one), a carry's [init, yielded value] (one list for its iter_arg and
        # its result, read once for both), an if result's yielded values (a list)
        feeds: dict[str, object] = {}
        partner: dict[str, str] = {}  # the iter_arg of every carry -> its result, and back
        # (with ``apart``: the last statement of the outermost manual scope being walked, None
        # outside any, and the statement met before; the walk is in program order, so the
        # statements up to that last one are inside)
        manual_last = previous = None
        roots: list = []  # the expressions read by effects
        add_root, add_roots = roots.append, roots.extend
        # (with ``enough``: the names a task's arguments and dependencies read as their whole value,
        # and the other expressions they read, unread: ``plain_names_read`` of them, written out)
        plain: set[str] = set()
        deferred: list = []
        named, defer = plain.add, deferred.append
        for stmt in iter_stmts(body):
            if manual_last is not None:
                if previous is manual_last:  # (the walk left the scope)
                    manual_last = None
                previous = stmt
            kind = stmt._production
            if kind == "Task":  # (the usual statements first; ``_reads_of`` inlined)
                if enough:
                    _note_task_reads(stmt, named, defer)
                else:
                    add_roots(stmt.args)
                    add_roots(stmt.deps)
                if stmt.launch is not None:
                    add_root(stmt.launch)
            elif kind == "Let":
                value = stmt.value
                vk = value._production
                if vk == "CreateTensor" and _constant_create(value):
                    feeds[stmt.var.name] = ()  # (it reads no name: nothing to walk when it is live)
                elif vk == "SliceTensor" and _constant_box(value):
                    feeds[stmt.var.name] = value.tensor  # (it reads what its source does, mostly a name)
                elif vk in PURE:
                    feeds[stmt.var.name] = value
                elif vk == "AssembleTensor" and _constants(value.offset):
                    add_root(value.target)  # (an effect: it reads its target and source, mostly names)
                    add_root(value.source)
                else:
                    add_root(value)
            elif kind == "Yield":
                continue  # (read through its loop's or if's carries)
            elif kind == "For" or kind == "While":
                if kind == "For":
                    add_roots((stmt.start, stmt.stop, stmt.step))
                else:
                    add_root(stmt.cond)
                if not stmt.iters:
                    continue
                yld = last_yield(stmt.body)
                values = yld.values if yld is not None else ()
                # a per-iteration loop (``per_iteration_loops``): a pl.parallel loop in a manual
                # scope with a static trip count; its carries that ``_split_carry`` accepts are TaskIds
                split = apart and manual_last is not None and kind == "For" and stmt.kind is PARALLEL and (
                    static_trip_count(stmt) or 0) > 0
                k = 0
                for it in stmt.iters:
                    sources = [it.init, values[k]] if values else [it.init]
                    carry, result = it.var.name, stmt.results[k].name
                    if split and _split_carry(it):
                        feeds[carry], feeds[result] = [it.init], sources
                    else:
                        feeds[carry] = feeds[result] = sources
                        partner[carry], partner[result] = result, carry
                    k += 1
            elif kind == "If":
                add_root(stmt.cond)
                if stmt.results:  # (each result's yielded values, by plain loops)
                    then_yield, else_yield = last_yield(stmt.then), last_yield(stmt.orelse)
                    k = 0
                    for res in stmt.results:
                        values = [then_yield.values[k]] if then_yield else []
                        if else_yield:
                            values.append(else_yield.values[k])
                        feeds[res.name] = values
                        k += 1
            elif kind == "Dummy" and dummies:
                feeds[stmt.var.name] = tuple(stmt.deps)
            elif kind in _EFFECTS:
                add_roots(_reads_of(stmt))
            elif (kind == "Scope" or kind == "CompilerScope") and apart and manual_last is None and stmt.mode is MANUAL:
                manual_last, previous = last_of_subtree(stmt), stmt
        removable = set(feeds)
        # Flow back one level at a time: the names found live at one level (``reads - live``,
        # with set operations in C) that this pass could remove are fed by the next level's
        # reads (a name at once, the other expressions through ``names_read``). The live set is
        # the same whatever order the reads come in: with ``enough`` the reads that are names
        # come first, and the others (``deferred``) only if need be. A carry is one value: its
        # iter_arg and its result are live together (their sources, one list, read once).
        live: set[str] = set()
        if enough:
            reads = plain_names_read(roots, deferred)
            reads |= plain
        else:
            reads = names_read(roots)
        fed, partner_get = feeds.keys(), partner.get
        while True:
            while reads:
                new = reads - live
                if not new:
                    break
                live |= new
                reads = set()
                read = reads.add
                pending: list = []  # (the expressions read that are no name)
                for name in fed & new:
                    sources = feeds[name]
                    kind = type(sources)
                    if kind is list:
                        if name not in new:
                            continue  # (read with its carry's other half, met first at this level)
                        other = partner_get(name)
                        if other is not None:
                            if other in live and other not in new:
                                continue  # (its sources read at an earlier level)
                            live.add(other)
                            new.discard(other)  # (a set that ``fed & new`` copied: read once for both)
                        for value in sources:
                            if value._production == "Var":
                                read(value.name)
                            else:
                                pending.append(value)
                    elif kind is tuple:
                        pending += sources  # (a dummy's dependencies)
                    elif sources._production == "Var":
                        read(sources.name)
                    else:
                        pending.append(sources)
                if pending:
                    reads |= names_read(pending)
            if not deferred or removable <= live:
                break
            reads, deferred = names_read(deferred), []
        return live, removable

    def Let(self, let):
        if let.value._production in PURE and let.var.name not in self.live:
            return []
        return let

    def For(self, loop):
        iters, body, results = self.carries_and_body(loop)
        if body is None:
            return loop
        return _make_for(loop.var, loop.start, loop.stop, loop.step, loop.kind, iters, body, results, loop.span)

    def While(self, loop):  # (a carry the condition reads is live: the condition is a root)
        iters, body, results = self.carries_and_body(loop)
        if body is None:
            return loop
        return _make_while(iters, loop.cond, body, results, loop.span)

    def carries_and_body(self, loop) -> tuple:
        """The loop's live carries (those whose result is live), its visited body (its final
        yield without the dead carries' values; reading the init for a per-iteration iter_arg
        still live) and the live carries' results; the body None when nothing changed."""
        live = self.live
        for res in loop.results:  # (most loops: every carry live, the body visited only)
            if res.name not in live:
                break
        else:
            body = self.visit_body(loop.body)
            return loop.iters, (None if body is loop.body else body), loop.results
        keep, iters, results, inits = [], [], [], {}  # (plain loops: a comprehension costs a call)
        k = 0
        for it, res in zip(loop.iters, loop.results):
            if res.name in live:
                keep.append(k)
                iters.append(it)
                results.append(res)
            elif it.var.name in live:  # (a per-iteration iter_arg: its reads read the init)
                inits[it.var.name] = it.init.name
            k += 1
        body = self.visit_body(loop.body)
        if len(keep) == len(loop.iters):
            return loop.iters, (None if body is loop.body else body), loop.results
        body = _drop_yield_values(body, keep)
        if inits:
            body = _renamed_tids(body, inits)
        return tuple(iters), body, tuple(results)

    def visit_body(self, body) -> tuple:
        """``visit_all(body)``: the body itself when each of its statements is of a class the pass
        returns as it is (``_inert``: no let, loop or if; tested in C), as most innermost loop
        bodies are."""
        if self._inert.issuperset(map(type, body)):
            return body
        return self.visit_all(body)

    def If(self, branch):
        live, results = self.live, branch.results
        keep, kept = [], []  # (the live results and their positions, in one plain loop)
        k = 0
        for res in results:
            if res.name in live:
                keep.append(k)
                kept.append(res)
            k += 1
        then, orelse = self.visit_body(branch.then), self.visit_body(branch.orelse)
        if len(keep) == len(results) and then is branch.then and orelse is branch.orelse:
            return branch
        if len(keep) != len(results):
            then, orelse = _drop_yield_values(then, keep), _drop_yield_values(orelse, keep)
            results = tuple(kept)
        return _make_if(branch.cond, then, orelse, results, branch.span)


def _note_task_reads(task, named, defer) -> None:
    """A task's arguments and dependencies: each value that is a name to ``named``, each other
    that may read one to ``defer`` (walked only if needed)."""
    for arg in task.args:
        node = arg.value
        if node._production == "Var":
            named(node.name)
        elif node._production not in _NO_NAME:
            defer(node)
    _note_edge_reads(task.deps, named, defer)


def _note_edge_reads(edges, named, defer) -> None:
    """Dependency edges (or a cell's stored value): each TaskId that is a name to ``named``, each
    other that may read one to ``defer``."""
    for node in edges:
        if node._production in _WRAPPERS:
            node = node.value
        if node._production == "Var":
            named(node.name)
        elif node._production not in _NO_NAME:
            defer(node)


def every_value_read(body) -> bool:
    """Whether each name of a value this pass could remove (a pure let's, a loop carry's iter_arg
    and result, an if result's) is read by something ``liveness`` counts as a read (an effect's
    reads, a pure let's value, a carry's init and final yielded value, an if result's final
    yielded values): then no value is dead, and the pass may return its input. False when some
    name is read by none of those (a value may be dead), and when a carrying body's final Yield
    is one ``liveness`` does not see (``last_yield``: behind a scope the user placed).

    Proof. Give each value a position in program order: a let's and a split iter_arg's
    (``apart``) their statement's; an if result's and a carry's (its two names one value, or a
    split carry's result) the end of its statement. (1) A name is read after it is bound (the
    single definitions of SSA, each read in its binder's scope; an iter_arg is bound at its
    loop's head, a result at the end of its statement), and (2) a value reads its sources at or
    before its own position (a let at its statement, a loop or if in its init or in the yields
    inside it). So when a value ``u`` reads a name ``n`` of a value ``v``, ``n`` is bound before
    ``u``'s position, and ``n``'s binding is ``v``'s position unless ``n`` is the iter_arg of a
    whole carry (which its loop's body, the carry's own yield too, reads before the carry's
    position: the carry that reads itself). Suppose some value is dead, and take the dead value
    ``d`` with the last position. No effect reads its names (they would be live), and a value
    that reads its name (a whole carry: its result) comes after ``d``, so is live, and so would
    ``d`` be: that name is read by nothing. Asking for both names of every carry read is
    stronger than asking for a whole carry's result read, so it holds of split carries too.

    The walk is in reverse program order, so that by (1) every read of a name is met before its
    binding: a name found unread there is unread, and the walk stops. Names read as a whole
    value (a task's argument or dependency, a carry's init, a yielded or returned value, a let's
    value) are collected as met; the other expressions are walked (``names_read``) only when a
    binding finds its name not among those."""
    read: set[str] = set()
    named = read.add
    deferred: list = []  # (the expressions met that read no single name, not walked yet)
    defer = deferred.append
    for stmt in reversed(walk_of(body).order):
        kind = stmt._production
        if kind == "Task":
            _note_task_reads(stmt, named, defer)
            if stmt.launch is not None:
                defer(stmt.launch)
        elif kind == "Yield":  # (the final Yield of the loop or if met next, by ``check_yields``)
            for node in stmt.values:
                if node._production == "Var":
                    named(node.name)
                else:
                    defer(node)
        elif kind == "Let":
            value = stmt.value
            vk = value._production
            if vk in PURE:  # (a value this pass could remove)
                name = stmt.var.name
                if name not in read and not _read_after_all(name, read, deferred):
                    return False
                if vk == "Var":
                    named(value.name)
                elif vk == "CreateTensor" and _constant_create(value):
                    pass
                elif vk == "SliceTensor" and _constant_box(value):
                    defer(value.tensor)
                else:
                    defer(value)
            elif vk == "AssembleTensor" and _constants(value.offset):
                defer(value.target)
                defer(value.source)
            else:
                defer(value)
        elif kind == "For" or kind == "While":
            if kind == "For":
                for node in (stmt.start, stmt.stop, stmt.step):
                    if node._production == "Var":
                        named(node.name)
                    elif node._production != "Int":
                        defer(node)
            else:
                defer(stmt.cond)
            if not stmt.iters:
                continue
            inner = stmt.body
            if (not inner or inner[-1]._production != "Yield") and last_yield(inner) is None:
                return False  # (the Yield met in it is no source ``liveness`` reads)
            for res in stmt.results:
                if res.name not in read and not _read_after_all(res.name, read, deferred):
                    return False
            for it in stmt.iters:
                name = it.var.name
                if name not in read and not _read_after_all(name, read, deferred):
                    return False
                node = it.init
                if node._production == "Var":
                    named(node.name)
                else:
                    defer(node)
        elif kind == "If":
            defer(stmt.cond)
            if stmt.results:
                for inner in (stmt.then, stmt.orelse):
                    if (not inner or inner[-1]._production != "Yield") and last_yield(inner) is None:
                        return False
                for res in stmt.results:
                    if res.name not in read and not _read_after_all(res.name, read, deferred):
                        return False
        elif kind == "Return":
            for node in stmt.values:
                if node._production == "Var":
                    named(node.name)
                else:
                    defer(node)
        elif kind == "Dummy" or kind == "CellSet":
            _note_edge_reads(stmt.deps if kind == "Dummy" else (stmt.value,), named, defer)
        elif kind in _EFFECTS:
            deferred += _reads_of(stmt)
    return True


def _read_after_all(name: str, read: set[str], deferred: list) -> bool:
    """Whether ``name`` is among the names ``deferred`` reads, which go into ``read`` (``deferred``
    emptied: each expression walked once)."""
    if not deferred:
        return False
    read |= names_read(deferred)
    deferred.clear()
    return name in read


_CONSTANTS = frozenset({"Int", "Float", "Bool"})


def _constant_create(value) -> bool:
    """Whether a ``CreateTensor`` reads no name: constant extents, and no initial value or a
    constant one (the usual create)."""
    init = value.init
    return (init is None or init._production in _CONSTANTS) and _constants(value.shape)


def _constant_box(view) -> bool:
    """Whether a ``SliceTensor``'s extents and offsets are constants (it reads its source alone)."""
    return _constants(view.shape) and _constants(view.offset)


def _constants(exprs) -> bool:
    """Whether each of ``exprs`` is an integer constant."""
    for expr in exprs:
        if expr._production != "Int":
            return False
    return True


def _split_carry(it) -> bool:
    """Whether a carry of a per-iteration loop is two values (a TaskId with a name for init)."""
    var = it.var
    return var.type._production == "ScalarType" and var.type.dtype is TASK_ID and it.init._production == "Var"


def _renamed_tids(body, inits: dict[str, str]) -> tuple:
    """``renamed(stmt, inits)`` of each statement of ``body``, the body of a per-iteration loop whose
    split carries' iter_args went (``inits``: each to its init, a TaskId). Where a TaskId is read
    by a name (a task's or a dummy's dependency, a task argument, a let's, a cell write's or a
    yield's value, an operand of a binary expression) the name is looked at in place and only a
    statement that reads one is rebuilt, its other fields the input's; any other read goes
    through ``renamed``."""
    out = []
    for stmt in body:
        kind = stmt._production
        if kind == "Task":
            new = stmt if stmt.launch is None and _reads_none(stmt.args, inits) else None
            if new is not None:
                deps = _renamed_deps(stmt.deps, inits)
                if deps is None:
                    new = None
                elif deps is not stmt.deps:
                    new = _make_task(stmt.outs, stmt.tid, stmt.kernel, stmt.args, stmt.dumps, stmt.early_resolve, deps,
                                     stmt.launch, stmt.span)
        elif kind == "Dummy":
            deps = _renamed_deps(stmt.deps, inits)
            new = None if deps is None else stmt if deps is stmt.deps else _make_dummy(stmt.var, deps, stmt.purpose, stmt.span)
        elif kind == "Yield" or kind == "CellSet" or kind == "Let":
            values = stmt.values if kind == "Yield" else (stmt.value,)
            new = stmt
            for value in values:
                if value._production != "Var" or value.name in inits:
                    new = None
                    break
        else:
            new = None
        out.append(renamed(stmt, inits) if new is None else new)
    return tuple(out)


def _reads_none(args, inits: dict[str, str]) -> bool:
    """Whether no argument of ``args`` reads a name of ``inits``, known without a walk: each a
    name not in it, a number, or a binary expression of those."""
    for arg in args:
        value = arg.value
        kind = value._production
        if kind == "Bin":
            a, b = value.a, value.b
            if (a._production != "Var" or a.name in inits) and a._production != "Int":
                return False
            if (b._production != "Var" or b.name in inits) and b._production != "Int":
                return False
        elif kind == "Var":
            if value.name in inits:
                return False
        elif kind != "Int":
            return False
    return True


def _renamed_deps(deps, inits: dict[str, str]):
    """``deps`` with each dependency on a name of ``inits`` made one on its init (the tuple itself
    when none is); None when a dependency reads a name other than as its whole value (an index)."""
    out = None
    i = 0
    for dep in deps:
        kind = dep._production
        if kind == "DepVar" or kind == "DerivedDep":
            value = dep.value
            if value._production != "Var":
                return None
            to = inits.get(value.name)
            if to is not None:
                if out is None:
                    out = list(deps)
                out[i] = type(dep).make_trusted(type(value).make_trusted(to, span=value.span), span=dep.span)
        elif kind != "CellDep":
            return None
        i += 1
    return deps if out is None else tuple(out)


_EFFECTS = frozenset({"Dummy", "HostFence", "WriteTensor", "Return", "CellSet"})  # (besides tasks)


def _reads_of(node):
    """The expressions an effectful statement reads (its own binders excluded)."""
    kind = node._production
    if kind == "Task":
        return node.args + node.deps + ((node.launch,) if node.launch is not None else ())
    if kind == "Dummy":
        return node.deps
    if kind == "CellSet":
        return (node.value,)  # (a Var mostly: read as one name)
    return (node,)


def names_read(nodes: list) -> set[str]:
    """The names ``nodes`` read (types excluded): ``var_reads`` without the counts, which
    liveness never needed."""
    names: set[str] = set()
    add = names.add
    stack = list(nodes)
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        production = node._production
        if production == "Var":
            add(node.name)
        elif production == "Arg":
            push(node.value)  # (the usual nodes, with one or two children: _children() inlined)
        elif production == "Bin":
            push(node.a)
            push(node.b)
        elif production != "Int" and production not in TYPE_PRODUCTIONS:
            extend(node._children())
    return names


_WRAPPERS = frozenset({"Arg", "DepVar", "DerivedDep"})  # (reads whose value is an expression of its own)
_NO_NAME = frozenset({"Int", "CellDep"})  # (reads of no name: a loop's constant bounds, a cell's dependency)


def plain_names_read(nodes: list, deferred: list) -> set[str]:
    """``names_read`` of those of ``nodes`` that read one name and nothing else (a Var, or an
    Arg, DepVar or DerivedDep whose value is one), entering no expression; those that read no
    name (an Int, a CellDep) are dropped, and each of the others is appended to ``deferred``
    unread (for ``names_read`` to walk if need be)."""
    names: set[str] = set()
    add, defer = names.add, deferred.append
    for node in nodes:
        kind = node._production
        if kind in _WRAPPERS:
            node = node.value
            kind = node._production
        if kind == "Var":
            add(node.name)
        elif kind not in _NO_NAME:
            defer(node)
    return names


def _drop_yield_values(body, keep: list[int]) -> tuple:
    last = body[-1] if body else None
    if last is None or last._production != "Yield":
        return tuple(body)
    if not keep:
        return tuple(body[:-1])  # (a yield left empty goes)
    values = last.values
    kept = []
    for k in keep:
        kept.append(values[k])
    return (*body[:-1], _make_yield(tuple(kept), last.span))


# A statement's fields but its bodies are its input's, its carries and results some of them: set
# unchecked (proved by the grammar)
_make_for = trusted_maker(RemoveDeadValues, "For", ("body",))
_make_while = trusted_maker(RemoveDeadValues, "While", ("body",))
_make_if = trusted_maker(RemoveDeadValues, "If", ("then", "orelse"))
_make_yield = trusted_maker(RemoveDeadValues, "Yield", ())  # (values: some of the input Yield's)
# (a task's and a dummy's dependencies: the input's, some of them of the same productions reading a name instead of another)
_make_task = trusted_maker(RemoveDeadValues, "Task", ())
_make_dummy = trusted_maker(RemoveDeadValues, "Dummy", ())
