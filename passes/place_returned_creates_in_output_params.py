"""place_returned_creates_in_output_params: ssa -> ssa."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.language import walk
from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .hazards import FULL, storage_map
from .kernels import kernel_table
from .naming import base_name
from .util import BODY_FIELDS, LOOPS, iter_stmts

S = SSA


@register
class PlaceReturnedCreatesInOutputParams(Pass):
    """Make a rebound output parameter's new tensor the caller's buffer.

    ``y = pl.create_tensor(...)``, tasks writing ``y``, ``return y``, for an ``Out`` or ``InOut``
    parameter ``y``: the name now holds a new buffer, which the caller never sees, while the
    caller's ``y`` keeps its old contents. What the program means is the caller's ``y``: when the
    returned value is that one create on every path (its only buffer), the create runs at most
    once (not in a loop), has the parameter's shape and dtype, no ``init_value`` (the runtime
    fills only a buffer it allocates) and no ``manual_dep``, and nothing else in the function
    uses the parameter's buffer (so no access could tell the two buffers apart), the create
    becomes a copy of the parameter: ``(Let y__ssa_v1 (Var y))``. A returned value whose name is
    an output parameter's and whose buffers are all such creates, but that cannot be placed,
    is a user error at the return saying why; so only for creates bound to the parameter's own
    name (``y = pl.create_tensor``), not for another name's tensor the parameter ends on. (A returned output parameter rebound to an output
    the runtime allocates, e.g. an ``Out`` argument a short ``pl.submit`` shifted, is left to
    ``check_output_params_written``'s warning.) Afterwards a returned output parameter's name
    holds the parameter's buffer or an allocation of the runtime.
    """

    name = "place_returned_creates_in_output_params"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        outputs = {
            p.name: p for p in func.params if p.type._production == "TensorType" and p.dir is not ParamDir.In
        }
        returns = [s for s in func.body if s._production == "Return"]
        candidates = [
            v for r in returns for v in r.values
            if v._production == "Var" and v.name not in outputs and base_name(v.name) in outputs
        ]
        if not candidates:
            return program
        # the names bound to a create (``iter_stmts``), found only when a candidate may be creates
        # alone: one of a parameter's buffer is not (a parameter is never a Let's binder); where
        # each is and whether a loop runs it is found only when a candidate is such creates
        params = {p.name for p in func.params}
        created = None
        creates: dict[str, tuple] = {}  # name -> (its Let, whether a loop runs it), when needed
        store = storage_map(func, kernel_table(program))
        placed: dict[str, object] = {}  # create name -> the parameter it becomes
        for value in candidates:
            places = store.get(value.name, frozenset())
            roots = {root for root, _ in places}
            if not roots or not roots.isdisjoint(params):
                continue  # an allocation of the runtime, or a parameter's buffer after all
            if created is None:
                created = {s.var.name for s in iter_stmts(func.body) if s._production == "Let" and s.value._production == "CreateTensor"}
            if not roots <= created:
                continue  # (as above)
            if not creates:
                self.find_creates(func.body, False, creates)
            param = outputs[base_name(value.name)]
            if any(base_name(root) != param.name for root in roots):
                continue  # a tensor the program made under another name: check_output_params_written warns
            reason = self.unplaceable(func, value, places, creates, param, store)
            if reason is not None:
                raise UserError(
                    f"'{func.name}' returns '{base_name(value.name)}', rebound to a new tensor, not the caller's "
                    f"'{param.name}': the caller would never see it, and it cannot be made the caller's buffer: "
                    f"{reason}",
                    value.span or returns[0].span,
                    hint=f"let the kernels write '{param.name}' itself (pass it as their output argument) instead of "
                    "rebinding it to pl.create_tensor",
                )
            placed[next(iter(roots))] = param
        if not placed:
            return program
        return self.build(program, orch=func.replace(body=self.rewrite(func.body, placed)))

    def find_creates(self, stmts, in_loop: bool, creates: dict) -> None:
        for stmt in stmts:
            if stmt._production == "Let" and stmt.value._production == "CreateTensor":
                creates[stmt.var.name] = (stmt, in_loop)
            for field in BODY_FIELDS.get(stmt._production, ()):
                self.find_creates(getattr(stmt, field), in_loop or stmt._production in LOOPS, creates)

    def unplaceable(self, func, value, places, creates, param, store) -> str | None:
        """Why the create ``value`` holds cannot be the caller's buffer (None: it can)."""
        if len(places) != 1 or next(iter(places))[1] is not FULL:
            return "it may be one of several tensors (made on different paths)"
        root = next(iter(places))[0]
        let, in_loop = creates[root]
        create = let.value
        line = f" at line {let.span.line}" if let.span is not None else ""
        if in_loop:
            return f"it is created{line} in a loop, a new tensor every iteration"
        if create.dtype is not param.type.dtype or tuple(create.shape) != tuple(param.type.shape):
            return f"the tensor created{line} has another shape or dtype than the parameter"  # (the front end refuses it)
        if create.init is not None:
            return f"the tensor created{line} has an init_value, which the runtime puts only in a buffer it allocates"
        if create.manual_dep:
            return f"the tensor created{line} is manual_dep, the parameter is not"
        for stmt in _statements(func.body):
            if stmt._production == "Return":
                continue
            for node in _own_nodes(stmt):
                if node._production == "Var" and any(r == param.name for r, _ in store.get(node.name, ())):
                    where = f"line {stmt.span.line}" if stmt.span is not None else "the function"
                    return f"'{param.name}' (the caller's buffer) is used at {where}, which would see the new tensor"
        return None

    def rewrite(self, stmts, placed: dict) -> tuple:
        out = []
        for stmt in stmts:
            if stmt._production == "Let" and stmt.var.name in placed:
                stmt = stmt.replace(value=S.Var(placed[stmt.var.name].name, span=stmt.value.span))
            fields = BODY_FIELDS.get(stmt._production, ())
            if fields:
                stmt = stmt.replace(**{f: self.rewrite(getattr(stmt, f), placed) for f in fields})
            out.append(stmt)
        return tuple(out)


def _statements(stmts):
    """Every statement, nested ones included, in program order."""
    for stmt in stmts:
        yield stmt
        for field in BODY_FIELDS.get(stmt._production, ()):
            yield from _statements(getattr(stmt, field))


def _own_nodes(stmt):
    """The nodes of ``stmt`` outside its nested bodies (their statements are visited on their own)."""
    bodies = BODY_FIELDS.get(stmt._production, ())
    for name, many in stmt._child_fields:
        if name in bodies:
            continue
        value = getattr(stmt, name)
        for child in (value if many else [value]):
            if child is not None:
                yield from walk(child)
