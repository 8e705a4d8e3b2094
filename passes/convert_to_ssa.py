"""convert_to_ssa: surface -> ssa."""

from __future__ import annotations

from collections import Counter
from typing import Any

from nanopass.errors import InternalError
from nanopass.languages import SSA, SURFACE
from nanopass.languages.ssa import hand_binder_names
from nanopass.languages.statements import BODY_FIELDS, DEFINING, defined_binders
from nanopass.rewrite import Pass, register

S = SSA
_BINDER = S.Binder  # (the surface's Binder: the two languages share it)
_CONSTANTS = frozenset({"Int", "Float", "Bool"})
assert S.Arg is SURFACE.Arg  # (``ConvertToSsa.arguments`` keeps a surface Arg as it is)
assert S.Let is SURFACE.Let and S.Task is SURFACE.Task  # (``stmt`` keeps a statement whose names keep)
_VAR, _INT, _BIN, _CMP = S.Var, S.Int, S.Bin, S.Cmp
_CONSTANT_CLASSES = frozenset(S.nodes[name] for name in _CONSTANTS)
_EXPRS = frozenset(S.classes("Expr"))
_CREATE = S.CreateTensor
assert _CREATE is SURFACE.CreateTensor  # (``ConvertToSsa.rhs`` keeps a surface create as it is)
# The nodes the pass builds take the fields of its input's (checked) nodes, names it versions
# from checked names, and nodes it built: made by ``make_trusted`` (but for the few a Dummy, a
# Return or a WriteTensor makes), whose trust tests/test_trusted_construction.py checks on every
# program it converts.


@register
class ConvertToSsa(Pass):
    """Give every definition its own name and make loop carries and branch merges explicit.

    A name defined more than once gets a new version ``<name>__<role>_v<k>`` at each of its
    definitions (roles: ``ssa`` for an assignment, ``idx`` for a loop variable, ``iter`` for a
    carry inside a loop, ``rv`` for a loop's result, ``phi`` for an if's result), but for a
    parameter's or dynamic-dim symbol's own; a name defined once keeps it (its uses need no
    rewriting). Versions count per name in the reference's order: a parameter is version 0, a
    loop's results are numbered right after its carries, before its body (``acc__iter_v1``,
    ``acc__rv_v2``, then ``acc__ssa_v3`` in the body), an if's results after its branches. A name
    visible before a loop (a ``For`` or a ``While``, whose condition reads the carries) and assigned in its body becomes a carry: an iter_arg
    initialised with the value before the loop, yielded at the end of the body, and a result
    after the loop (after the explicit ``init_values`` carries, in name order). A name changed
    in a branch of an if, or defined in both branches, becomes a result of the if, yielded by
    both branches (in name order). ``with`` scopes are transparent. Afterwards every name is
    defined exactly once and every reference names the version in force.
    """

    name = "convert_to_ssa"
    source = SURFACE
    target = SSA

    def run(self, program):
        self.counters: dict[str, int] = {}
        # user name -> the version in force; changed in place, each change logged on the trail
        # so that a loop or branch body's changes are undone in time proportional to them
        self.env: dict[str, str] = {}
        self.trail: list[tuple[str, str | None]] = []  # (name, version before the change; None: unbound)
        self.types: dict[str, Any] = {}
        self.names: list[str] = []  # the name of every Binder of the output body, once per definition
        func = program.orch
        for param in func.params:
            self.env[param.name] = param.name
            self.types[param.name] = param.type
            self.counters[param.name] = 1  # the parameter is version 0
        for dyn in func.dyn_dims:
            self.env[dyn.name] = dyn.name
        self.once, self.assigned = definitions(func)  # (and id(body) -> the names it assigns)
        body = self.block(func.body)
        new_func = S.Function(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, body, span=func.span
        )
        hand_binder_names(new_func.body, self.names)  # (read by check_single_definition)
        return S.Program(program.name, program.kernels, new_func, span=program.span)

    # -- names -------------------------------------------------------------------------------------

    def fresh(self, base: str, role: str) -> str:
        """``f"{base}__{role}_v{k}"``, ``k`` the next version of ``base`` (counted per name)."""
        counters = self.counters
        k = counters.get(base, 0)
        counters[base] = k + 1
        return f"{base}__{role}_v{k}"

    def version(self, name: str, role: str) -> str:
        """The name of a new definition of ``name`` (itself when it is defined once)."""
        return name if name in self.once else self.fresh(name, role)

    def define(self, binder, role: str = "ssa", new: str | None = None):
        name, env = binder.name, self.env
        if new is None:
            new = name if name in self.once else self.fresh(name, role)
        self.trail.append((name, env.get(name)))  # (every change of env is logged on the trail)
        env[name] = new
        self.types[new] = binder.type
        self.names.append(new)
        if new == name and type(binder) is _BINDER:  # a name defined once keeps its binder
            return binder
        return S.Binder.make_trusted(new, binder.type, span=binder.span)

    def changes_since(self, mark: int) -> dict[str, str]:
        """The versions in force of the names assigned since the trail was ``mark`` long."""
        env, changes = self.env, {}
        for name, _ in self.trail[mark:]:  # (a plain loop: a comprehension costs a call)
            changes[name] = env[name]
        return changes

    def undo(self, mark: int) -> None:
        """Back to the names in force when the trail was ``mark`` long."""
        trail, env = self.trail, self.env
        while len(trail) > mark:
            name, before = trail.pop()
            if before is None:
                del env[name]
            else:
                env[name] = before

    def Var(self, node):
        name = self.env.get(node.name)
        if name is None:
            raise InternalError(f"'{node.name}' is used before any definition", pass_name=self.name, node=node)
        return node if name == node.name else S.Var.make_trusted(name, span=node.span)

    def renamed(self, expr):
        """``expr`` (an ``Expr``, whose productions the two languages share) with the versions in
        force: the same node when none of its variables changes. Read by its own recursion, not
        through ``visit``'s dispatch: task arguments, loop bounds and conditions are most of the
        expressions of a body; an operand that is a constant or a name that keeps is looked at
        in place, one that is an operation proved to keep by ``_keeps``."""
        kind = type(expr)
        if kind is _VAR:
            return self.Var(expr)
        if kind is _BIN or kind is _CMP:
            env, a, b = self.env, expr.a, expr.b
            a_kind, b_kind = type(a), type(b)
            if a_kind is _INT or (a_kind is _VAR and env.get(a.name) == a.name):
                new_a = a
            elif (a_kind is _BIN or a_kind is _CMP) and _keeps(a, env):
                new_a = a
            else:
                new_a = self.renamed(a)
            if b_kind is _INT or (b_kind is _VAR and env.get(b.name) == b.name):
                new_b = b
            elif (b_kind is _BIN or b_kind is _CMP) and _keeps(b, env):
                new_b = b
            else:
                new_b = self.renamed(b)
            return expr if new_a is a and new_b is b else kind.make_trusted(expr.op, new_a, new_b, span=expr.span)
        if kind in _CONSTANT_CLASSES:
            return expr
        return self.visit(expr)  # (Un, and any production added to Expr)

    def rhs(self, value):
        """A ``Let``'s value with the versions in force: ``renamed`` for an expression; a
        ``CreateTensor`` whose extents are numbers or names that keep, and whose fill is a
        number or none, is the same node (looked at in place: most creates); any other value
        goes through ``visit``."""
        kind = type(value)
        if kind in _EXPRS:
            return self.renamed(value)
        if kind is _CREATE:
            env = self.env
            for expr in value.shape:
                expr_kind = type(expr)
                if not (expr_kind is _INT or (expr_kind is _VAR and env.get(expr.name) == expr.name)):
                    return self.visit(value)
            if value.init is None or type(value.init) in _CONSTANT_CLASSES:
                return value
        return self.visit(value)

    def arguments(self, args) -> tuple:
        """A task's arguments with the versions in force (``visit_all``'s result). An argument
        whose value does not change is the same node in both languages (the ``Arg`` production
        is shared): kept without a rebuild."""
        env, renamed = self.env, self.renamed
        out = []
        changed = False
        for arg in args:
            value = arg.value
            kind = type(value)
            if kind is _VAR:
                if env.get(value.name) == value.name:
                    out.append(arg)
                    continue
            elif kind in _CONSTANT_CLASSES or ((kind is _BIN or kind is _CMP) and _keeps(value, env)):
                out.append(arg)  # (an index expression mostly)
                continue
            new = renamed(value)
            if new is not value:
                arg = S.Arg.make_trusted(new, arg.no_dep, arg.hint, span=arg.span)
                changed = True
            out.append(arg)
        return tuple(out) if changed else args

    # -- statements --------------------------------------------------------------------------------

    def block(self, stmts) -> list:
        out, stmt = [], self.stmt  # (a loop: calls from Python code cost less than map's)
        for each in stmts:
            out.append(stmt(each))
        return out

    def stmt(self, stmt):
        """The statement in single-assignment form (one statement for one)."""
        kind = stmt._production
        if kind == "Task":
            args = self.arguments(stmt.args)
            deps = self.visit_all(stmt.deps) if stmt.deps else stmt.deps
            outs, kept = [], True
            env, once, names = self.env, self.once, self.names
            for out in stmt.outs:  # (``define``, inlined: a task's outputs are most definitions)
                name = out.name
                new = name if name in once else self.fresh(name, "ssa")
                self.trail.append((name, env.get(name)))
                env[name] = new
                self.types[new] = out.type
                names.append(new)
                if new != name or type(out) is not _BINDER:
                    out = S.Binder.make_trusted(new, out.type, span=out.span)
                    kept = False
                outs.append(out)
            tid = self.define(stmt.tid) if stmt.tid is not None else None
            launch = self.visit(stmt.launch) if stmt.launch is not None else None
            if kept and args is stmt.args and deps is stmt.deps and launch is stmt.launch and tid is stmt.tid:
                return stmt  # (every name keeps: the same statement in both languages)
            return S.Task.make_trusted(
                outs, tid, stmt.kernel, args, stmt.dumps, stmt.early_resolve, deps, launch, span=stmt.span
            )
        if kind == "For" or kind == "While":
            return self.loop(stmt)
        if kind == "Let":
            value = self.rhs(stmt.value)
            var = self.define(stmt.var)
            return stmt if var is stmt.var and value is stmt.value else S.Let.make_trusted(var, value, span=stmt.span)
        if kind == "Dummy":
            deps = self.visit_all(stmt.deps)
            return S.Dummy(self.define(stmt.var), deps, span=stmt.span)
        if kind == "WriteTensor":
            return self.visit(stmt)
        if kind == "Scope":
            return S.Scope.make_trusted(stmt.mode, self.block(stmt.body), span=stmt.span)
        if kind == "Return":
            return S.Return(self.visit_all(stmt.values), span=stmt.span)
        if kind == "If":
            return self.branch(stmt)
        raise InternalError(f"unexpected statement {kind} in a body", pass_name=self.name, node=stmt)

    def loop(self, stmt):
        counted = stmt._production == "For"
        renamed = self.renamed
        env, trail, types, fresh, names = self.env, self.trail, self.types, self.fresh, self.names
        if counted:  # (a bound that is a number or a name that keeps is looked at in place)
            start, stop, step = stmt.start, stmt.stop, stmt.step
            kind = type(start)
            if not (kind is _INT or (kind is _VAR and env.get(start.name) == start.name)):
                start = renamed(start)
            kind = type(stop)
            if not (kind is _INT or (kind is _VAR and env.get(stop.name) == stop.name)):
                stop = renamed(stop)
            kind = type(step)
            if not (kind is _INT or (kind is _VAR and env.get(step.name) == step.name)):
                step = renamed(step)
        explicit = [(it, renamed(it.init)) for it in stmt.iters] if stmt.iters else ()
        visible = self.assigned[id(stmt.body)] & env.keys()  # (a new set: the kept one stays as it is)
        if counted:
            visible.discard(stmt.var.name)  # (a counted loop's variable is no carry)
        if explicit:
            visible.difference_update([it.var.name for it, _ in explicit])
        carried = sorted(visible) if len(visible) > 1 else [*visible]  # (most loops carry one name or none)
        before = []  # the versions the carries start from
        mark = len(trail)
        iters = [S.IterArg(self.define(it.var, "iter"), init, span=it.span) for it, init in explicit] if explicit else []
        # (the carries' loops read their lists in step by index, not through zip: most loops
        # carry one name or none, where a zip object costs more than the loop)
        make_iter_arg, make_binder, make_var = S.IterArg.make_trusted, S.Binder.make_trusted, S.Var.make_trusted
        for name in carried:
            old = env[name]  # (read before its own change: the names are distinct)
            before.append(old)
            ty = types[old]
            iter_name = fresh(name, "iter")
            types[iter_name] = ty
            names.append(iter_name)
            iters.append(make_iter_arg(make_binder(iter_name, ty), make_var(old)))
            trail.append((name, old))
            env[name] = iter_name
        # (a carried name is defined more than once, or a parameter's: never in ``once``)
        result_names = [self.version(b.name, "rv") for b in stmt.results] if stmt.results else []
        for name in carried:
            result_names.append(fresh(name, "rv"))
        if counted:
            var = self.define(stmt.var, "idx")
        else:
            cond = renamed(stmt.cond)  # on the carries, at the top of each iteration
        body_stmts = stmt.body
        user_yield = None
        if explicit:
            user_yield = body_stmts[-1]
            body_stmts = body_stmts[:-1]
            if user_yield._production != "Yield":
                raise InternalError("a loop with init_values must end with a Yield", pass_name=self.name, node=stmt)
        body = self.block(body_stmts)
        values = list(self.visit_all(user_yield.values)) if user_yield is not None else []
        result_types = []
        k = 0
        for name in carried:
            last = env[name]  # the version the body ends with: yielded, and its type the result's
            values.append(make_var(last))
            ty = types.get(last)
            result_types.append(ty if ty is not None else types[before[k]])
            k += 1
        if values:
            body.append(S.Yield.make_trusted(values, span=user_yield.span if user_yield is not None else None))
        self.undo(mark)  # the body's names end with it; the results follow (explicit ones first)
        explicit_count = len(stmt.results)
        results = [self.define(binder, new=new) for binder, new in zip(stmt.results, result_names)] if explicit_count else []
        k = 0
        for name in carried:
            new, ty = result_names[explicit_count + k], result_types[k]
            k += 1
            trail.append((name, env.get(name)))
            env[name] = new
            types[new] = ty
            names.append(new)
            results.append(make_binder(new, ty))
        if not counted:
            return S.While.make_trusted(iters, cond, body, results, span=stmt.span)
        return S.For.make_trusted(var, start, stop, step, stmt.kind, iters, body, results, span=stmt.span)

    def branch(self, stmt):
        cond = self.renamed(stmt.cond)
        mark = len(self.trail)
        then = self.block(stmt.then)
        then_changes = self.changes_since(mark)
        self.undo(mark)
        orelse = self.block(stmt.orelse)
        else_changes = self.changes_since(mark)
        self.undo(mark)
        env = self.env

        merged = []  # the names changed in a branch, or defined in both (plain loops: no closure, no generator)
        for name in then_changes.keys() | else_changes.keys():
            current = env.get(name)
            if current is None:
                if name in then_changes and name in else_changes:  # defined in both branches
                    merged.append(name)
            elif then_changes.get(name, current) != current or else_changes.get(name, current) != current:
                merged.append(name)
        if not merged:
            return S.If.make_trusted(cond, then, orelse, (), span=stmt.span)
        if len(merged) > 1:
            merged.sort()
        make_var = S.Var.make_trusted
        then_versions, then_values, else_values = [], [], []
        for name in merged:
            then_version = then_changes.get(name) or env[name]
            then_versions.append(then_version)
            then_values.append(make_var(then_version))
            else_values.append(make_var(else_changes.get(name) or env[name]))
        then.append(S.Yield.make_trusted(then_values))  # (the lists ``block`` made)
        orelse.append(S.Yield.make_trusted(else_values))
        results = []
        trail, types, version, names = self.trail, self.types, self.version, self.names
        for name, then_version in zip(merged, then_versions):  # (``define`` of a new binder, inlined)
            new, ty = version(name, "phi"), types[then_version]
            trail.append((name, env.get(name)))
            env[name] = new
            types[new] = ty
            names.append(new)
            results.append(S.Binder.make_trusted(new, ty))
        return S.If.make_trusted(cond, then, orelse, results, span=stmt.span)


def _keeps(expr, env: dict[str, str]) -> bool:
    """Whether ``expr`` (a Bin or a Cmp) is all Bin, Cmp, constants and names whose version in
    force is themselves (``env``): renamed, it is itself. One loop down the left operands (the
    front end's chains ``a + b * 1 + c - d`` lean left), the right operands that are operations
    kept for later: no call per node, and most expressions (task arguments, bounds) keep."""
    later = None
    node = expr
    while True:
        b = node.b
        kind = type(b)
        if kind is _VAR:
            if env.get(b.name) != b.name:
                return False
        elif kind is _BIN or kind is _CMP:
            if later is None:
                later = [b]
            else:
                later.append(b)
        elif kind is not _INT and kind not in _CONSTANT_CLASSES:
            return False
        a = node.a
        kind = type(a)
        if kind is _BIN or kind is _CMP:
            node = a
            continue
        if kind is _VAR:
            if env.get(a.name) != a.name:
                return False
        elif kind is not _INT and kind not in _CONSTANT_CLASSES:
            return False
        if not later:
            return True
        node = later.pop()


def definitions(func) -> tuple[set[str], dict[int, set[str]]]:
    """In one walk of the body: the user names the function defines exactly once (parameters and
    dynamic dims count as definitions; every Binder of the body does, ``Walk.binder_names``):
    in single-assignment form already, they keep their names; and ``id(body) -> the names
    assigned in it`` for the body of every loop (``assigned_names_by_body``'s entries for those
    bodies: a loop's results, not its variable or iter_args), the only bodies whose names
    ``ConvertToSsa.loop`` asks. A name with ``__`` (the shape of a version;
    the front end refuses it, a surface tree built by hand may not) is versioned whatever it is,
    so that it cannot meet a version of another name."""
    defined: list[str] = []  # the name of every Binder of the body, once per definition
    define = defined.append
    by_loop_body: dict[int, set[str]] = {}

    def body_names(body, assigned: set[str]) -> None:
        """Add the names assigned in ``body`` to ``assigned`` (each of its binders also put on
        ``defined``); a loop's body gets a set of its own (``by_loop_body``), an if's branches and a
        with block's body add to ``assigned`` directly (no set made and merged per branch)."""
        assign = assigned.add
        for stmt in body:
            kind = stmt._production
            if kind == "Task":  # (the usual statements first, their binders read inline)
                for out in stmt.outs:
                    name = out.name if out._production == "Binder" else out.var.name
                    define(name)
                    assign(name)
                if stmt.tid is not None:
                    define(stmt.tid.name)
                    assign(stmt.tid.name)
            elif kind == "Let" or kind == "Dummy":
                define(stmt.var.name)
                assign(stmt.var.name)
            elif kind == "For" or kind == "While":
                if kind == "For":
                    define(stmt.var.name)  # (bound inside the loop: not assigned in ``body``)
                for it in stmt.iters:
                    define(it.var.name)
                for result in stmt.results:
                    define(result.name)
                    assign(result.name)
                inner: set[str] = set()
                body_names(stmt.body, inner)
                by_loop_body[id(stmt.body)] = inner
                assigned |= inner
            elif kind == "If":
                for binder in defined_binders(stmt):  # (its results: none in surface)
                    define(binder.name)
                    assign(binder.name)
                body_names(stmt.then, assigned)
                body_names(stmt.orelse, assigned)
            else:
                if kind in DEFINING:
                    for binder in defined_binders(stmt):
                        define(binder.name)
                        assign(binder.name)
                for field in BODY_FIELDS.get(kind, ()):
                    body_names(getattr(stmt, field), assigned)

    body_names(func.body, set())
    outer = {p.name for p in func.params} | {d.name for d in func.dyn_dims}
    once = {name for name, count in Counter(defined).items() if count == 1 and name not in outer and "__" not in name}
    return once, by_loop_body
