"""batch_tensor_creates: dep-annotated -> batched."""

from __future__ import annotations

from itertools import compress
from operator import attrgetter

from nanopass.languages import BATCHED, DEP_ANNOTATED
from nanopass.languages.batched import MAX_TENSORS_PER_ARG
from nanopass.languages.carried import check_buffer_groups, check_plans
from nanopass.languages.dep_annotated import check_capacity, check_no_declare
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.rewrite import Pass, register

from nanopass.languages.dep_annotated import statement_kinds
from nanopass.languages.statements import BODY_FIELDS, walk_of

from .util import assigned_names, iter_stmts, scalar_names

B = BATCHED
_LET, _CREATE = "Let", "CreateTensor"
_production_of, _value_of = attrgetter("_production"), attrgetter("value")


@register
class BatchTensorCreates(Pass):
    """Batch the tensor creates of each statement sequence into ``alloc_tensors`` calls (D8).

    In every body (function, scope, loop, branch), the ``pl.create_tensor`` lets whose shapes do
    not use a value defined in that same body (or in a scope within it) move to its start as ``(Alloc creates)``, in
    order, split into chunks of at most ``max_creates_per_alloc`` (option; 32 by default, D8: one
    runtime ``Arg``; 16 for the l2 runtime, D17); a create whose shape uses a
    value defined in the body stays where it is, as an ``Alloc`` of one. Afterwards no
    ``CreateTensor`` is left.

    Preserves the single definitions, the yields, the scope placement, the carry plans, the
    buffer groups, the resolved dependencies and the absence of ``Declare`` (``preserves``; it
    makes none): each create's binder (the same
    object) is defined once, in a ``Create``, in the body it was in; only create lets move, to
    the start of their body, so each body keeps its other statements in order and ends as it did
    (a body that is one scope or empty stays so; what a body allocates and yields is the same:
    a create in an ``Alloc`` is an allocation as its let was); carries, dependencies and buffer
    groups are the input's. A statement whose bodies hold no create is kept as it was.
    """

    name = "batch_tensor_creates"
    source = DEP_ANNOTATED
    target = BATCHED
    preserves = frozenset(
        {check_single_definition, check_yields, check_scope_placement, check_plans, check_buffer_groups, check_capacity,
         check_no_declare}
    )

    def run(self, program):
        self.chunk = self.ctx.option("max_creates_per_alloc", MAX_TENSORS_PER_ARG)
        if not 1 <= self.chunk <= MAX_TENSORS_PER_ARG:
            raise ValueError(f"max_creates_per_alloc must be 1..{MAX_TENSORS_PER_ARG}, not {self.chunk}")
        if not any(
            s._production == "Let" and s.value._production == "CreateTensor" for s in iter_stmts(program.orch.body)
        ):
            return self.convert(program)  # nothing to batch
        self.body = program.orch.body
        self.total = None  # how many creates the function has (counted when first asked)
        self.batched = 0  # how many of them are batched
        return self.visit(program)

    def nothing_left(self) -> bool:
        """Whether every create has been batched: the statements left to visit hold none, and are
        kept as they are without a visit."""
        if self.total is None:
            walk = walk_of(self.body)
            lets = compress(walk.order, map(_LET.__eq__, statement_kinds(walk.order)))  # (the kinds kept from the verification)
            self.total = sum(map(_CREATE.__eq__, map(_production_of, map(_value_of, lets))))
        return self.batched == self.total

    def batch(self, stmts) -> tuple:
        if self.total is not None and self.nothing_left():
            return stmts
        for stmt in stmts:
            if stmt._production == "Let" and stmt.value._production == "CreateTensor":
                break
        else:  # no create of its own: its statements visited (the tuple kept if none changes)
            return self.visit_all(stmts)
        defined = None  # names defined in this body, nested bodies included; walked only when needed
        hoisted: list = []
        rest: list = []
        step_of = self._dispatch.get
        make_create = B.Create.make_trusted
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let" and stmt.value._production == "CreateTensor":
                self.batched += 1
                value = stmt.value
                # (``create``, inlined: the let's binder and its CreateTensor's fields, unchecked)
                create = make_create(stmt.var, value.shape, value.dtype, value.manual_dep, value.init, span=stmt.span)
                names = None
                for extent in value.shape:  # (a constant shape reads no name)
                    if extent._production != "Int":
                        names = scalar_names(value.shape)
                        break
                if names and defined is None:
                    defined = assigned_names(stmts)  # nested bodies too: a value computed in a scope outlives it
                if names and names & defined:
                    rest.append(B.Alloc([create], span=stmt.span))
                else:
                    hoisted.append(create)
                continue
            if kind not in BODY_FIELDS or self.nothing_left():  # (no body, or no create left in any: kept)
                rest.append(stmt)
                continue
            step = step_of(type(stmt))
            new = step(stmt) if step is not None else self.visit(stmt)
            if type(new) is list:
                rest += new
            else:
                rest.append(new)
        chunks = [
            B.Alloc(hoisted[i : i + self.chunk]) for i in range(0, len(hoisted), self.chunk)
        ]
        return tuple(chunks + rest)

    def create(self, let):
        value = let.value
        # (unchecked: each field is the same field of a checked node, the let's binder or its
        # CreateTensor's shape, dtype, flag and init, of the same kind in the one shared grammar)
        return B.Create.make_trusted(let.var, value.shape, value.dtype, value.manual_dep, value.init, span=let.span)

    def Function(self, func):
        body = self.batch(func.body)
        return func if body is func.body else self.build(func, body=body)

    def Scope(self, scope):
        body = self.batch(scope.body)
        return scope if body is scope.body else self.build(scope, body=body)

    For = While = Scope  # (a body with no create comes back as it was: the statement is kept)

    def If(self, branch):
        then, orelse = self.batch(branch.then), self.batch(branch.orelse)
        if then is branch.then and orelse is branch.orelse:
            return branch
        return self.build(branch, then=then, orelse=orelse)
