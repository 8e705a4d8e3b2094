"""fuse_create_assemble_to_slice: ssa -> ssa."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import SSA
from nanopass.languages.terms import ParamDir
from nanopass.rewrite import Pass, register

from .aliases import buffer_roots
from .hazards import _sub_region, storage_map
from .host_accesses import element_places, host_target
from .regions import overlaps
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
    The create of ``src`` becomes ``pl.tensor.slice(target, shape, offset)`` marked ``placed``, and the assemble's
    result becomes ``target`` itself (a copy the naming pass folds away). When ``target`` is
    itself created later in the same body, its create moves up to just before ``src``'s; when it
    is bound later to a buffer that exists there (a copy of a name, a task's result: one root),
    the slice is taken of that buffer. The
    placement must be invisible: from the source's creation to the assemble, the rows it takes
    in ``target`` are neither written (their old content would be lost, or a host write would
    land before the assembled rows instead of under them) nor read, by a task or the host (the
    read would see the rows before the assemble, and a task that reads them while writing the
    source would read and write the same bytes). A source that is not such a create, one still
    used after the assemble, a target or offset not available where ``src`` is created (a name
    bound inside an earlier ``with`` block is available after it), or a placement that would be
    visible, is a user error saying why. A source made with an ``init_value`` is placed only when a
    task overwrites all of it (an ``Out`` argument, on every path) before any other use: a view is
    never filled. Afterwards no ``AssembleTensor`` is left, and every
    read observes what it observed with the copy.
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
        self.places = storage_map(func, self.kernels)
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
                if stmt._production == "For":  # (a While has no loop variable)
                    self.defined_before.add(stmt.var.name)
                stmt = stmt.replace(**{f: self.sequence(getattr(stmt, f)) for f in fields})
                self.defined_before = outer
            self.defined_before |= {b.name for b in visible_binders(stmt)}
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
        available = self.defined_before | {b.name for s in stmts[:create_at] for b in visible_binders(s)}
        base = value.target
        root = self.roots.get(target, target)
        if target not in available and root in available and {r for r, _ in self.places.get(target, ())} == {root}:
            base = S.Var(root, span=value.target.span)  # a copy or result of it: the same buffer
        elif target not in available:
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
        create = stmts[create_at]
        self.check_placement_invisible(stmts[create_at + 1 : at], value, create, let)
        self.check_fill_overwritten(stmts[create_at + 1 : at], create, let, target)
        stmts[create_at] = S.Let(
            create.var, S.SliceTensor(base, create.value.shape, value.offset, False, False, True), span=create.span
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

    def check_placement_invisible(self, between, value, create, let) -> None:
        """Nothing in ``between`` (the statements from the source's create to the assemble) reads
        or writes the rows of the target the source is placed in."""
        target, src = value.target.name, create.var.name
        rows = {
            (root, _sub_region(region, create.value.shape, value.offset))
            for root, region in self.places.get(target, ())
        }

        def touches(expr, places=None) -> bool:
            if expr._production != "Var":
                return False
            return any(
                root == r and overlaps(region, placed)
                for root, region in (places if places is not None else self.places.get(expr.name, ()))
                for r, placed in rows
            )

        for stmt in iter_stmts(between):
            kind = stmt._production
            if kind == "Task":
                kernel = self.kernels[stmt.kernel]
                task = f"task {stmt.kernel} (line {_line(stmt)})"
                for arg, param in zip(stmt.args, kernel.params):
                    if not touches(arg.value):
                        continue
                    if param.dir is not ParamDir.In:
                        self.refuse(let, target, src, f"{task} writes", "write")
                    if any(self.roots.get(o.name, o.name) == src for o in _written(stmt, kernel)):
                        self.refuse(let, target, src, f"{task}, which writes '{_base(src)}', reads", "same")
                    self.refuse(let, target, src, f"{task} reads", "read")
            elif host_target(stmt) is not None:
                tensor, write = host_target(stmt)
                if touches(tensor, element_places(stmt, self.places, self.roots) if tensor._production == "Var" else None):
                    self.refuse(
                        let, target, src, f"the host (line {_line(stmt)}) {'writes' if write else 'reads'}",
                        "write" if write else "read",
                    )

    def check_fill_overwritten(self, between, create, let, target: str) -> None:
        """A source made with an ``init_value`` keeps its fill only as its own buffer: placed in the
        target it is a view, which nothing fills. The placement is invisible only when a task in
        ``between``, at the block's level (so on every path), writes all of the source through an
        ``Out`` parameter before anything else uses it."""
        if create.value.init is None:
            return
        src = create.var.name
        aliases = {n for n, r in self.roots.items() if r == src} | {src}
        for stmt in between:
            if not _vars_in_stmt(stmt) & aliases:
                continue
            if stmt._production == "Task":
                kernel = self.kernels[stmt.kernel]
                uses = [(a.value, p) for a, p in zip(stmt.args, kernel.params)
                        if a.value._production == "Var" and a.value.name in aliases]
                if uses and all(v.name == src and p.dir is ParamDir.Out for v, p in uses):
                    return
            break
        src_name, target = _base(src), _base(target)
        raise UserError(
            f"pl.assemble cannot make '{src_name}' a view of '{target}' (the runtime cannot copy): '{src_name}' is "
            f"made with an init_value, and as a view of '{target}' nothing would fill it; a read of '{src_name}', "
            f"or of '{target}' after the assemble, would not see the fill",
            let.span,
            hint=f"write all of '{src_name}' with a task's Out argument before other uses, or drop the init_value",
        )

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


def _vars_in_stmt(stmt) -> set[str]:
    from nanopass.language import walk

    return {node.name for node in walk(stmt) if node._production == "Var"}


def visible_binders(stmt) -> list:
    """The Binders a statement makes visible after it: its own (``binders_of``), and for a
    ``with`` block every one bound in it at its level (names escape a scope, not a loop or if)."""
    if stmt._production != "Scope":
        return binders_of(stmt)
    out = []
    for inner in stmt.body:
        out += visible_binders(inner)
    return out


def _written(task, kernel) -> list:
    """The arguments a task writes (its Out and InOut parameters)."""
    return [a.value for a, p in zip(task.args, kernel.params) if p.dir is not ParamDir.In and a.value._production == "Var"]


def _line(node) -> str:
    return str(node.span.line) if node.span is not None else "?"


def _base(name: str) -> str:
    return name.split("__", 1)[0]
