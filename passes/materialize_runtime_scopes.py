"""materialize_runtime_scopes: directed -> scoped."""

from __future__ import annotations

from operator import attrgetter

from nanopass.languages import DIRECTED, SCOPED
from nanopass.languages.scoped import check_no_alloc, check_no_declare
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import BODY_FIELDS
from nanopass.languages.terms import ScopeMode, ScopeOrigin
from nanopass.rewrite import Pass, register, trusted_maker

from .allocations import escaping_allocations, held_allocations, makes_allocations
from .kernels import kernel_table, output_param_of_result
from .util import last_yield

S = SCOPED
# (read once: an enum member read through its class costs a descriptor call)
AUTO, MANUAL = ScopeMode.auto, ScopeMode.manual
COMPILER, USER = ScopeOrigin.compiler, ScopeOrigin.user
_COMPOUND = frozenset(BODY_FIELDS)  # the statements with bodies
_production_of = attrgetter("_production")


@register
class MaterializeRuntimeScopes(Pass):
    """Make the runtime scopes explicit (D14).

    In a function with ``auto_scope`` (the default), the function body and every loop body and
    if branch outside a manual scope is wrapped in an AUTO ``(Scope auto compiler ...)``, so
    each becomes its own ``PTO2_SCOPE()``; nothing is inserted inside a manual scope (the runtime
    forbids AUTO inside MANUAL). User ``with`` scopes become ``(Scope mode user ...)``. With
    ``auto_scope=False`` only the user's scopes exist. A for body or if branch that yields a
    tensor it allocated (``pl.create_tensor`` or a runtime-allocated task output, through views,
    copies and carries: ``passes/allocations.py``) gets no scope of its own: the runtime frees a
    scope's buffers when the scope ends, and the yielded tensor is used after that (the next
    iteration, after the loop or the if); its allocation then belongs to the enclosing scope.
    Afterwards the scoped language's placement invariant holds. Scopes an earlier pass placed
    (``CompilerScope``) become ``(Scope mode compiler ...)``.

    Preserves the single definitions and the yields (``preserves``): a scope defines nothing, and
    the pass only moves statements into scopes (none is dropped, copied or renamed); a body it
    wraps becomes one compiler scope holding it as it was, which the yields' check sees through;
    and the absence of later languages' statements, which directed's grammar lacks and the pass
    does not make.
    """

    name = "materialize_runtime_scopes"
    source = DIRECTED
    target = SCOPED
    preserves = frozenset({check_single_definition, check_yields, check_no_alloc, check_no_declare})

    def run(self, program):
        self.program = program
        self.held = None  # held_allocations of the function, walked when a body first yields a name
        self.kernels = None  # the kernel table, made when first needed
        self.made = 0  # the allocations the visit has met so far in loop bodies and branches (``Let``, ``Task``)
        self.depth = 0  # the loop bodies and branches the visit is in (``visit_body``): none, nothing to count
        self.allocating: set[int] = set()  # ids of the input's loop bodies and branches that make one
        self.task_allocates: dict[tuple, bool] = {}  # (kernel, outs, args) -> whether such a task allocates
        return super().run(program)

    def Function(self, func):
        self.auto = func.auto_scope
        self.manual = 0
        # (a body without loops, ifs or scopes is its own output: the two languages share every other
        # statement, which the handlers return as it is; its statements' kinds are tested in C)
        body = func.body if _COMPOUND.isdisjoint(map(_production_of, func.body)) else self.visit_all(func.body)
        if self.auto:
            body = self.wrap(body)
        return S.Function(func.name, func.params, func.results, func.auto_scope, func.dyn_dims, body, span=func.span)

    def wrap(self, body):
        if len(body) == 1 and body[0]._production == "Scope" and body[0].mode is AUTO:
            return body
        # (unchecked: the mode and origin are members of their terminals, the body the visited
        # statements of a checked body; ``trusted_checked`` tests the claim)
        return (S.Scope.make_trusted(AUTO, COMPILER, body),)

    def wrap_unless_escaping(self, body, source_body):
        """``body`` (the visited ``source_body``: a loop body or branch, not empty, of an auto_scope
        function and outside every manual scope) wrapped in an auto scope, unless it yields a
        tensor it allocated. (Its handler tests the rest: no call for a body that stays as it is.)"""
        if (
            self.allocates_in(source_body)  # (first: a set's test)
            and self.yields_names(source_body)
            and self.holds_allocations()
            and escaping_allocations(source_body, self.allocations())
        ):
            return body  # a yielded tensor allocated here must outlive the body (docstring)
        return self.wrap(body)

    @staticmethod
    def yields_names(body) -> bool:
        """Whether ``body``'s final yield passes out a name (else it passes out no allocation)."""
        y = last_yield(body)
        if y is not None:
            for value in y.values:  # (a loop: no generator made per body)
                if value._production == "Var":
                    return True
        return False

    def allocates_in(self, body) -> bool:
        """Whether a statement of ``body`` (an input loop body or branch, at any depth) makes an
        allocation (``makes_allocations``' test): else its yield passes none out that it made
        (``held_allocations`` names allocations only), and the function's allocations need not
        be found for it. Counted as the visit meets them (``Let``, ``Task``): no walk of its own."""
        return id(body) in self.allocating

    def visit_body(self, body):
        """``visit_all(body)``, noting whether the statements under ``body`` make an allocation."""
        made = self.made
        self.depth += 1
        new = self.visit_all(body)
        self.depth -= 1
        if self.made != made:
            self.allocating.add(id(body))
        return new

    def Let(self, let):
        if self.depth and let.value._production == "CreateTensor":
            self.made += 1
        return let  # (the class both languages share)

    def Task(self, task):
        """A task allocates when a result has no output argument (``makes_allocations``). The
        task is returned as it is (the two languages share its class)."""
        if not self.depth:
            return task  # (outside every loop body and branch: no body asks)
        key = (task.kernel, len(task.outs), len(task.args))
        allocates = self.task_allocates.get(key)
        if allocates is None:
            if self.kernels is None:
                self.kernels = kernel_table(self.program)
            kernel, args = self.kernels[task.kernel], len(task.args)
            allocates = self.task_allocates[key] = any(
                p is None or p >= args for p in (output_param_of_result(kernel, i) for i in range(len(task.outs)))
            )
        if allocates:
            self.made += 1
        return task

    def holds_allocations(self) -> bool:
        """Whether some name of the function holds an allocation (else no yield passes one out)."""
        return bool(self.allocations())

    def allocations(self) -> dict[str, frozenset]:
        if self.held is None:
            if self.kernels is None:
                self.kernels = kernel_table(self.program)
            func, kernels = self.program.orch, self.kernels
            self.held = held_allocations(func, kernels) if makes_allocations(func, kernels) else {}
        return self.held

    def Scope(self, scope):
        manual = scope.mode is MANUAL
        self.manual += manual
        body = self.visit_all(scope.body)
        self.manual -= manual
        return _make_scope(scope.mode, getattr(scope, "origin", USER), body, scope.span)

    def CompilerScope(self, scope):
        manual = scope.mode is MANUAL
        self.manual += manual
        body = self.visit_all(scope.body)
        self.manual -= manual
        return S.Scope(scope.mode, COMPILER, body, span=scope.span)

    def For(self, loop):
        made = self.made  # (``visit_body``, inlined: most bodies are loops')
        self.depth += 1
        body = self.visit_all(loop.body)
        self.depth -= 1
        if self.made != made:
            self.allocating.add(id(loop.body))
        if body and self.auto and not self.manual:
            body = self.wrap_unless_escaping(body, loop.body)
        # (unchecked: every field but the body the input's, the body the visit's statements, wrapped or not)
        return S.For.make_trusted(loop.var, loop.start, loop.stop, loop.step, loop.kind, loop.iters, body, loop.results,
                                  span=loop.span)

    def While(self, loop):
        body = self.visit_body(loop.body)
        if body and self.auto and not self.manual:
            body = self.wrap_unless_escaping(body, loop.body)
        return _make_while(loop.iters, loop.cond, body, loop.results, loop.span)

    def If(self, branch):
        here = self.auto and not self.manual  # (an auto scope wraps a body only outside every manual scope)
        then = self.visit_body(branch.then)
        if here and then:
            then = self.wrap_unless_escaping(then, branch.then)
        orelse = self.visit_body(branch.orelse)
        if here and orelse:
            orelse = self.wrap_unless_escaping(orelse, branch.orelse)
        # (unchecked: the condition and results the input's, the bodies the visit's statements, wrapped or not)
        return S.If.make_trusted(branch.cond, then, orelse, branch.results, span=branch.span)


# The statements' fields but their bodies (and a scope's origin) are their input's: set unchecked
# (proved by the grammar)
_make_while = trusted_maker(MaterializeRuntimeScopes, "While", ("body",))
_make_scope = trusted_maker(MaterializeRuntimeScopes, "Scope", ("origin", "body"))
