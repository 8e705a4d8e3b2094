"""hoist_scope_escapes: batched -> hoisted."""

from __future__ import annotations

from operator import is_

from nanopass.errors import UserError
from nanopass.languages import BATCHED, HOISTED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_buffer_groups, check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.ssa import check_single_definition
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import DType, ScopeMode, ScopeOrigin
from nanopass.rewrite import Pass, register, trusted_maker

from .aliases import written_roots
from .allocations import held_allocations
from .kernels import kernel_table
from .reads import read_walk
from .util import carry_arrays, defined_binders, iter_stmts, last_of_subtree, var_reads

H = HOISTED
# (read once: an enum member read through its class costs a descriptor call)
USER, MANUAL, TASK_ID = ScopeOrigin.user, ScopeMode.manual, DType.TASK_ID
_MAY_MOVE = frozenset({"If", "Alloc", "Declare"})  # statements that may move out of a scope whatever is read
# (the input's statement classes, by which the walks below tell statements apart)
SCOPE, LET, DUMMY, TASK, FOR, WHILE, IF = (BATCHED.Scope, BATCHED.Let, BATCHED.Dummy, BATCHED.Task, BATCHED.For,
                                           BATCHED.While, BATCHED.If)
MAY_MOVE = frozenset(BATCHED.nodes[name] for name in _MAY_MOVE)


def _base(name: str) -> str:
    return name.split("__", 1)[0]


class ReadAfter:
    """The roots read after statement ``end`` (``root in after``), looked up in ``last_read``
    rather than collected: a set per scope would cost every root once per scope."""

    def __init__(self, last_read: dict[str, int], end: int):
        self.last_read = last_read
        self.end = end

    def __contains__(self, root: str) -> bool:
        return self.last_read.get(root, -1) > self.end


@register
class HoistScopeEscapes(Pass):
    """Keep every C++ identifier inside the block that declares it (the seed's #1697 case).

    SSA sees through ``with`` scopes, but each becomes a C++ block. For every user scope (and
    every manual scope the compiler placed):
    allocations in a manual scope's body move before the scope (a buffer is a storage
    reservation, not a scheduled task, so it belongs to the enclosing scope); an allocation of
    any user scope whose tensor is read after the scope moves out too, from the scope's body or
    its ``if`` branches (one whose shape is computed in the scope is a user error); a tensor or scalar value,
    a rebound loop carry or if result, or a runtime-allocated task output defined directly in
    the scope and read after it gets a ``(Declare var)`` before the scope and is assigned
    inside; so is a TaskId array carry (its storage then belongs to the enclosing scope, the
    seed's #1811 case); an array created in the scope and read after it is created before it. Any other TaskId read after the scope that produced it is a user error
    (D11: a binding made inside a scope does not outlive it); so is an escaping create whose
    shape is computed inside the scope. Afterwards nothing is read outside the block that declares it.

    Preserves the single definitions, the carry plans, the buffer groups, the dependency capacities
    and the allocation sizes (``preserves``): statements move, none is copied (an ``Alloc`` is split
    into the creates that move and those that stay, each non-empty), a ``Declare`` defines nothing,
    and carries, dependencies and buffer groups are the input's. (Not the yields nor the scope
    placement: an allocation moved before a compiler's scope changes which bodies are one scope
    and what they allocate.)
    """

    name = "hoist_scope_escapes"
    source = BATCHED
    target = HOISTED
    preserves = frozenset({check_single_definition, check_plans, check_buffer_groups, check_capacity, check_alloc_size})

    def run(self, program):
        func = program.orch
        if not any(
            s._production == "Scope" and (s.origin is USER or s.mode is MANUAL)
            for s in walk_of(func.body).compound  # (a scope is a compound statement)
        ):
            return self.convert(program)  # nothing to hoist
        self.kernels = kernel_table(program)
        self.func = func
        self.holders: dict[str, set[str]] | None = None  # allocation -> the names that may hold it
        self.roots = written_roots(func)
        # TaskId array carries: their storage may belong to an enclosing scope (the seed's #1811)
        # (found when a TaskId read after the scope that produces it is first met)
        self.array_carries: set[str] | None = None
        self.number(func.body)
        if self.nothing_to_hoist(func.body):
            return self.convert(program)
        body = self.visit_all(func.body)
        if body is func.body:  # nothing moved: the input as it is (its invariants known to hold)
            return self.convert(program)
        return self.build(program, orch=self.build(func, body=body))

    def root(self, name: str) -> str:
        return self.roots.get(name, name)

    def number(self, body) -> None:
        """Number statements in program order (their places in the body's walk); note where each
        scope ends and when each name is last read (by a statement's own expressions:
        ``read_walk``; returns emit nothing and read nothing; by root: ``root_reads``)."""
        ends: dict[int, list] = {}  # id of the last statement of a scope's subtree -> the ids of the scopes it ends
        for stmt in walk_of(body).compound:
            if stmt._production == "Scope":
                ends.setdefault(id(last_of_subtree(stmt)), []).append(id(stmt))
        reads = read_walk(body, ends.keys())
        self.scope_end = {scope: place for last, place in reads.marked.items() for scope in ends[last]}
        self.name_read = reads.last  # name -> the place of its last read
        self.last_read: dict[str, int] | None = None  # root -> the same, its aliases' folded in (``root_reads``)

    def root_reads(self) -> dict[str, int]:
        """root -> the place of the last read of any name of it (each alias's read folded into its
        root's), made when first asked."""
        if self.last_read is None:
            self.last_read = last_read = dict(self.name_read)
            for name, root in self.roots.items():
                here = last_read.pop(name, None)
                if here is not None and last_read.get(root, -1) < here:
                    last_read[root] = here
        return self.last_read

    def nothing_to_hoist(self, body) -> bool:
        """Whether no scope has anything to move or declare, so that the visit would hand back
        every scope as it is: no user or manual scope holds an ``if``, an allocation or a
        ``Declare`` directly (they may move), nor defines directly a value that is its own root
        and is read after the scope (an array create too). One look at each such scope's body.

        A name that is no alias nor the root of one (most TaskIds and scalars) is read last where
        its own last read is: the reads are folded by root (``root_reads``) only when a name of a
        root or alias is asked about."""
        name_read, roots, scope_end, declared_by = self.name_read, self.roots, self.scope_end, self.declared_by
        aliased = set(roots.values())  # the roots some name is an alias of
        scope_cls, may_move, let_, dummy = SCOPE, MAY_MOVE, LET, DUMMY
        for scope in walk_of(body).compound:
            if type(scope) is not scope_cls or not (scope.origin is USER or scope.mode is MANUAL):
                continue
            end = scope_end[id(scope)]
            for stmt in scope.body:
                kind = type(stmt)
                if kind in may_move:
                    return False
                # (``declared_by``'s usual case, a Let's or a Dummy's one binder, here)
                for binder in (stmt.var,) if kind is let_ or kind is dummy else declared_by(stmt):
                    name = binder.name
                    root = roots.get(name, name)
                    if root in aliased or root in roots:
                        read = self.root_reads().get(root, -1)
                    else:
                        read = name_read.get(root, -1)
                    if read > end:
                        return False
        return True

    # The statements are visited by the identity clauses (a loop's, an if's: rebuilt in the target
    # language around their visited bodies, their other fields passed on unchecked), but for scopes.
    def Scope(self, scope):
        body = self.visit_all(scope.body)
        if scope.origin is USER or scope.mode is MANUAL:
            return self.hoist(scope, body, ReadAfter(self.root_reads(), self.scope_end[id(scope)]))
        return scope if body is scope.body else _make_scope(scope.mode, scope.origin, body, scope.span)

    def hoist(self, scope, body, after: "ReadAfter") -> list:
        manual = scope.mode is MANUAL
        roots, last_read, end = self.roots, after.last_read, after.end
        inside_defs = None  # the names the body defines (made when an if or a moving create needs them)
        before: list = []
        kept: list = []
        for stmt in body:
            if stmt._production == "If":
                if inside_defs is None:
                    inside_defs = self.defined(body)
                stmt = self.hoist_from_branches(stmt, after, before, inside_defs)
            if stmt._production == "Alloc":
                moving = [c for c in stmt.creates if manual or self.escapes(c.var.name, after)]
                staying = [c for c in stmt.creates if c not in moving]
                if moving and inside_defs is None:
                    inside_defs = self.defined(body)
                for create in moving:
                    if var_reads(create.shape).keys() & inside_defs:
                        if self.root(create.var.name) in after:
                            raise UserError(
                                f"'{_base(create.var.name)}' is created inside the scope with a shape computed there, "
                                "and used after the scope",
                                create.span,
                                hint="compute its shape before the scope",
                            )
                        staying.append(create)
                moving = [c for c in moving if c not in staying]
                if moving:
                    before.append(H.Alloc(moving, span=stmt.span))
                if staying:
                    kept.append(H.Alloc(staying, span=stmt.span))
                continue
            if stmt._production == "Declare" and stmt.var.name in after:
                before.append(stmt)
                continue
            if stmt._production == "Let" and stmt.value._production == "CreateArray" and self.root(stmt.var.name) in after:
                before.append(stmt)  # an array is storage of a constant size, like an allocation
                continue
            for binder in self.declared_by(stmt):
                name = binder.name
                if roots.get(name, name) != name or last_read.get(name, -1) <= end:  # (not its own root, or not read after the scope)
                    continue
                if (
                    binder.type._production == "ScalarType"
                    and binder.type.dtype is TASK_ID
                    and binder.name not in self.carried_arrays()
                ):
                    raise UserError(
                        f"TaskId '{_base(binder.name)}' is produced inside a scope and used after it; a TaskId does "
                        "not outlive the scope that produces it",
                        binder.span or stmt.span,
                        hint="use it inside the scope, or produce it before the scope",
                    )
                before.append(H.Declare.make(binder, stmt.span))
            kept.append(stmt)
        if not before and body is scope.body and len(kept) == len(body) and all(map(is_, kept, body)):
            return scope  # nothing moved or declared: the scope as it was
        return before + [_make_scope(scope.mode, scope.origin, tuple(kept), scope.span)]

    def hoist_from_branches(self, stmt, after: "ReadAfter", before: list, inside_defs: set[str]):
        """Move the allocations of an ``if`` directly in a scope (at any depth of ``if``s) whose
        tensor is read after the scope into ``before``: the scope would free them."""
        if stmt._production != "If":
            return stmt
        inside = inside_defs | {b.name for s in iter_stmts(stmt.then + stmt.orelse) for b in defined_binders(s)}

        def branch(stmts) -> tuple:
            kept = []
            for inner in stmts:
                inner = self.hoist_from_branches(inner, after, before, inside)
                if inner._production == "Alloc":
                    moving = [c for c in inner.creates if self.escapes(c.var.name, after)]
                    for create in moving:
                        if var_reads(create.shape).keys() & inside:
                            raise UserError(
                                f"'{_base(create.var.name)}' is created in a branch inside the scope with a shape "
                                "computed there, and used after the scope",
                                create.span,
                                hint="compute its shape before the scope",
                            )
                    if moving:
                        before.append(H.Alloc(moving, span=inner.span))
                        staying = [c for c in inner.creates if c not in moving]
                        if staying:
                            kept.append(H.Alloc(staying, span=inner.span))
                        continue
                kept.append(inner)
            return tuple(kept)

        then, orelse = branch(stmt.then), branch(stmt.orelse)
        if then == stmt.then and orelse == stmt.orelse:
            return stmt
        return stmt.replace(then=then, orelse=orelse)

    def carried_arrays(self) -> set[str]:
        """The TaskId array carries of the function (``util.carry_arrays``), made when first asked."""
        if self.array_carries is None:
            self.array_carries = set(carry_arrays(self.func))
        return self.array_carries

    def escapes(self, name: str, after: "ReadAfter") -> bool:
        """May a name read after the scope hold allocation ``name`` (an if result may)?"""
        if self.holders is None:
            self.holders = {}
            for holder, allocations in held_allocations(self.func, self.kernels).items():
                for allocation in allocations:
                    self.holders.setdefault(allocation, set()).add(holder)
        return self.root(name) in after or any(self.root(n) in after for n in self.holders.get(name, ()))

    def defined(self, body) -> set[str]:
        return {b.name for stmt in body for b in self.declared_by(stmt)} | {
            c.var.name for stmt in body if stmt._production == "Alloc" for c in stmt.creates
        }

    def declared_by(self, stmt) -> list | tuple:
        """Binders a statement declares as C++ variables in its own block."""
        kind = type(stmt)  # (by class: a string comparison per statement and kind costs more)
        if kind is LET or kind is DUMMY:
            return (stmt.var,)
        if kind is TASK:
            outs = stmt.outs  # a result that is not its own root is an alias (filtered by root)
            return outs if stmt.tid is None else outs + (stmt.tid,)
        if kind is FOR or kind is WHILE:
            for it in stmt.iters:  # (most carries are not rebound: such a loop declares nothing)
                if it.plan.rebind:
                    return [r for it, r in zip(stmt.iters, stmt.results) if it.plan.rebind]
            return ()
        if kind is IF:
            return [phi.var for phi in stmt.results if phi.plan.rebind]
        return ()


# A scope's mode and origin are its input's: set unchecked (proved by the grammar); its body checked
_make_scope = trusted_maker(HoistScopeEscapes, "Scope", ("body",))
