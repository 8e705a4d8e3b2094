"""fuse_create_assemble_to_slice: ssa -> ssa."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .kernels import kernel_table
from .util import BODY_FIELDS, binders_of, iter_stmts

S = SSA


def _vars_in(exprs) -> set[str]:
    out: set[str] = set()
    stack = [e for e in exprs if e is not None]
    while stack:
        e = stack.pop()
        if e._production == "Var":
            out.add(e.name)
        elif e._production in ("Bin", "Cmp"):
            stack += [e.a, e.b]
        elif e._production == "Un":
            stack.append(e.a)
    return out


@register
class FuseCreateAssembleToSlice(Pass):
    """Make ``pl.assemble(target, src, offset)`` a view instead of a copy.

    The orchestration runtime has no copy primitive: ``src`` must be a tensor made by
    ``pl.create_tensor`` in the same body, whose tasks then write straight into ``target``.
    The create of ``src`` becomes ``pl.tensor.slice(target, shape, offset)`` and the assemble's
    result becomes ``target`` itself (a copy the naming pass folds away). When ``target`` is
    itself created later in the same body, its create moves up to just before ``src``'s. A
    source that is not such a create, one still used after the assemble, a target or offset not
    available where ``src`` is created, or a target written by a task in between, is a user
    error. Afterwards no ``AssembleTensor`` is left.
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
        self.roots = buffer_roots(func, self.kernels)
        self.uses = self.count_uses(func.body)
        self.defined_before: set[str] = {p.name for p in func.params} | {d.name for d in func.dyn_dims}
        body = self.sequence(func.body)
        return S.Program(program.name, program.kernels, func.replace(body=body), span=program.span)

    def count_uses(self, body) -> dict[str, int]:
        from nanopass.language import walk

        counts: dict[str, int] = {}
        for node in walk(tuple(body)):
            if node._production == "Var":
                counts[node.name] = counts.get(node.name, 0) + 1
        return counts

    def sequence(self, stmts) -> tuple:
        stmts = list(stmts)
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            if stmt._production == "Let" and stmt.value._production == "AssembleTensor":
                i = self.fuse(stmts, i)
            i += 1
        out = []
        for stmt in stmts:
            fields = BODY_FIELDS.get(stmt._production)
            if fields:
                outer = set(self.defined_before)
                self.defined_before |= {it.var.name for it in getattr(stmt, "iters", ())}
                if stmt._production == "For":
                    self.defined_before.add(stmt.var.name)
                stmt = stmt.replace(**{f: self.sequence(getattr(stmt, f)) for f in fields})
                self.defined_before = outer
            self.defined_before |= {b.name for b in binders_of(stmt)}
            out.append(stmt)
        return tuple(out)

    def fuse(self, stmts: list, at: int) -> int:
        """Rewrite the assemble at ``stmts[at]``; returns the index of the rewritten assemble."""
        let = stmts[at]
        value = let.value
        target = value.target.name
        src = self.roots.get(value.source.name, value.source.name)
        create_at = next(
            (
                j
                for j in range(at)
                if stmts[j]._production == "Let"
                and stmts[j].var.name == src
                and stmts[j].value._production == "CreateTensor"
            ),
            None,
        )
        if create_at is None:
            raise UserError(
                f"pl.assemble needs a source made by pl.create_tensor in the same block; '{_base(src)}' is not",
                let.span,
                hint="the runtime cannot copy tensors: create the source, let its tasks write it, then assemble",
            )
        aliases = {n for n, r in self.roots.items() if r == src} | {src}
        if sum(self.uses.get(n, 0) for n in aliases) > self.uses_before(stmts, at, aliases):
            raise UserError(f"'{_base(src)}' is used after it was assembled into '{_base(target)}'", let.span)
        available = self.defined_before | {b.name for s in stmts[:create_at] for b in binders_of(s)}
        if target not in available:
            moved = self.hoist_target_create(stmts, create_at, at, target, available)
            if not moved:
                raise UserError(
                    f"the target '{_base(target)}' of pl.assemble must exist before its source '{_base(src)}' is created",
                    let.span,
                )
            create_at += 1  # the target's create now stands before the source's; the assemble has not moved
            available.add(target)
        missing = _vars_in(value.offset) - available
        if missing:
            raise UserError(
                f"the assemble offset uses '{_base(sorted(missing)[0])}', which is not known where "
                f"'{_base(src)}' is created",
                let.span,
            )
        self.check_target_not_written(stmts[create_at + 1 : at], target, let)
        create = stmts[create_at]
        stmts[create_at] = S.Let(
            create.var, S.SliceTensor(value.target, create.value.shape, value.offset, False, False), span=create.span
        )
        stmts[at] = S.Let(let.var, value.target, span=let.span)
        return at

    def uses_before(self, stmts, at: int, names: set[str]) -> int:
        from nanopass.language import walk

        return sum(1 for s in stmts[: at + 1] for node in walk(s) if node._production == "Var" and node.name in names)

    def hoist_target_create(self, stmts: list, create_at: int, at: int, target: str, available: set) -> int:
        """Move ``target``'s create (between create_at and at) to create_at; 0 if impossible."""
        for j in range(create_at + 1, at):
            stmt = stmts[j]
            if stmt._production == "Let" and stmt.var.name == target and stmt.value._production == "CreateTensor":
                if _vars_in(stmt.value.shape) - available:
                    return 0
                stmts.insert(create_at, stmts.pop(j))
                return j
        return 0

    def check_target_not_written(self, between, target: str, let) -> None:
        root = self.roots.get(target, target)
        for stmt in iter_stmts(between):
            if stmt._production != "Task":
                continue
            kernel = self.kernels[stmt.kernel]
            for arg, param in zip(stmt.args, kernel.params):
                if (
                    param.dir is not ParamDir.In
                    and arg.value._production == "Var"
                    and self.roots.get(arg.value.name, arg.value.name) == root
                ):
                    raise UserError(
                        f"'{_base(target)}' is written by a task between the creation of the assembled source "
                        "and the assemble, so the assemble cannot become a view",
                        let.span,
                    )


def _base(name: str) -> str:
    return name.split("__", 1)[0]
