"""remap_output_aliases: hoisted -> named."""

from __future__ import annotations

from nanopass.errors import InternalError
from nanopass.languages import HOISTED, NAMED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.ssa import check_yields
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import ArgDir
from nanopass.rewrite import Pass, register

from .aliases import written_roots
from .kernels import kernel_table, output_params
from .naming import NameTable, base_name, ssa_role

N = NAMED

# Suffixes lower_to_emission derives from a created tensor's name.
CREATE_DERIVED = ("_ci", "_ci_shapes")
VIEW_DERIVED = ("_shapes", "_offsets")
SCALAR = ArgDir.Scalar  # (read once: an enum member read through its class costs a descriptor call)


@register
class RemapOutputAliases(Pass):
    """Name every variable as the C++ will, so that one physical tensor has one name.

    A kernel's result is the Out/InOut argument it writes, an assemble's result its target, a
    tensor copy its source, a carry or if result that is not rebound its init or the common
    branch value: all of these take the name of their root, and no ``const Tensor& r = src;``
    rename is ever emitted (the seed's output-alias rule). Tensor parameters are ``ext_<p>``;
    every other root gets its user name (``c``), or its SSA name (``acc__rv_v2``) when that is
    taken or when its role is ``out`` (a compiler-made result buffer, ``ret0__out``), made
    unique against C++ keywords, runtime names and the names the emission generates. Task
    results become ``(Alias var)``; assemble lets and tensor copies disappear. A host write's
    index array is named after the tensor's DSL name (``indices_out`` for ``ext_out``; it lives
    in a block of its own, so it needs no suffix). Afterwards every ``Var`` and ``Binder``
    carries its C++ identifier.

    Preserves the yields, the carry plans, the dependency capacities and the allocation sizes
    (``preserves``): it renames, and drops only ``Let`` statements (never a loop, branch, scope
    or ``Yield``); every carry keeps its plan, every yield its values' count, every task its
    dependencies and capacity, every ``Alloc`` its creates. (Not the scope placement: its check
    asks which allocations a body yields, by name, and names now merge.)
    """

    name = "remap_output_aliases"
    source = HOISTED
    target = NAMED
    preserves = frozenset({check_yields, check_plans, check_capacity, check_alloc_size})

    def run(self, program):
        func = program.orch
        self.kernels = kernel_table(program)
        self.outputs: dict[str, tuple] = {}  # kernel name -> ``output_params``
        roots = written_roots(func)  # (aliases only: a name not in it is its own root)
        table = NameTable()
        names: dict[str, str] = {}
        for param in func.params:
            table.claim(param.name)
        for param in func.params:
            if param.type._production == "TensorType":
                names[param.name] = table.reserve("ext_" + base_name(param.name), generated=True)
            else:
                names[param.name] = param.name
        for dyn in func.dyn_dims:
            names[dyn.name] = dyn.name
            table.claim(dyn.name)
        walk = walk_of(func.body)  # (one walk for the uses below; kept with the body while compiling)
        self.derived, cells = self.derived_suffixes_and_cells(walk.order)
        scalars = [p.name for p in func.params if p.type._production == "ScalarType"]
        derived_of, take_first = self.derived.get, table.take_first
        for binder in self.binders(func):
            name = binder.name
            if binder.type._production == "ScalarType":
                scalars.append(name)
            if name in roots or name in names:  # an alias, or already named (Declare)
                continue
            # a compiler-made buffer (role out, ret0__out) keeps its whole name, as the reference's
            base = name if "out" in name and ssa_role(name) == "out" else base_name(name)
            # the user's name if free, else the SSA name
            names[name] = take_first(base if base != "_" else None, name, derived_of(name, ()))
        for cell in cells:
            names[cell] = table.reserve(base_name(cell))
        self.carry_names(walk.compound, names, roots)
        for group in func.buffer_groups:  # its aliases take its root's name (a root is none of the aliases)
            named = names.get(group.root)
            if named is None:
                raise InternalError(f"alias root '{group.root}' of '{group.aliases[0]}' has no name", pass_name=self.name)
            for alias in group.aliases:
                names[alias] = named
        self.names = names
        self.spanless_vars: dict[str, object] = {}  # C++ name -> its Var without a span (``spanless_var``)
        self.spanless_binders: dict[str, object] = {}  # C++ name -> its Binder without a span, of the type last asked for
        self.roots = roots
        self.param_of = {names[p.name]: p.name for p in func.params}  # ext_<p> -> p
        # a scalar argument reads scalars only (parameters, loop variables, scalar lets, dims)
        self.scalars_renamed = False
        for name in scalars:  # (a loop, not ``any`` over a generator: there is one a loop variable)
            if names.get(name, name) != name:
                self.scalars_renamed = True
                break
        return self.visit(program)

    def carry_names(self, compound, names: dict[str, str], roots: dict[str, str]) -> None:
        """A rebound carry is one C++ variable for the iter_arg and the result (named by the
        result); a TaskId array carry of a pl.parallel loop stands, inside the body, for its init;
        a TaskId carry that holds more ids in the body than its result has a variable of its own.
        ``compound``: every statement of the function that has a body (``Walk.compound``)."""
        for stmt in compound:
            if stmt._production not in ("For", "While"):
                continue
            for it, result in zip(stmt.iters, stmt.results):
                if not it.plan.rebind:
                    continue
                if it.plan.per_iteration and it.init._production == "Var":
                    names[it.var.name] = names[roots.get(it.init.name, it.init.name)]
                elif it.plan.body != it.plan.array and not it.plan.per_iteration:
                    continue  # (named as every binder is)
                else:
                    names[it.var.name] = names[result.name]

    def derived_suffixes_and_cells(self, stmts) -> tuple[dict[str, tuple[str, ...]], list[str]]:
        """Created or viewed tensor -> the suffixes of the names lower_to_emission derives from
        its name; and the cells declared (``CellDecl``), in program order. ``stmts``: every
        statement of the function (``Walk.order``)."""
        out: dict[str, tuple[str, ...]] = {}
        cells: list[str] = []
        for stmt in stmts:
            kind = stmt._production
            if kind == "Alloc":
                for c in stmt.creates:
                    out[c.var.name] = CREATE_DERIVED
            elif kind == "Let" and stmt.value._production in ("SliceTensor", "ReshapeTensor"):
                out[stmt.var.name] = VIEW_DERIVED
            elif kind == "CellDecl":
                cells.append(stmt.cell)
        return out, cells

    def binders(self, func):
        """Every Binder of the body in program order (loop variables and carries included), an
        if's results before its branches: the reference names them at the if, so a result takes
        the user's name and a branch's value the SSA name (``m`` and ``m__ssa_v0``, section 7.4)."""
        from nanopass.languages.statements import binder_list

        return binder_list(func.body, if_results_first=True)

    # -- rewriting ----------------------------------------------------------------------------------

    def Program(self, program):
        return N.Program(program.name, program.kernels, self.visit(program.orch), span=program.span)

    # (``make`` with every field, not ``replace``: a handler runs once per node)

    def Function(self, func):
        visit_all = self.visit_all  # (its buffer groups are left behind: aliases now share their root's name)
        return N.Function.make(
            func.name, visit_all(func.params), visit_all(func.results), func.auto_scope, visit_all(func.dyn_dims),
            visit_all(func.slots), func.arg_count, visit_all(func.tids), visit_all(func.body), span=func.span,
        )

    def Param(self, param):
        name = self.names[param.name]
        return param if name == param.name else N.Param.make(name, param.type, param.dir, span=param.span)

    # (the two languages share these nodes' classes: a node whose names stay is kept as it is)

    def TensorSlot(self, slot):
        name = self.names[slot.param]
        return slot if name == slot.param else N.TensorSlot.make(name, slot.index, span=slot.span)

    def ScalarSlot(self, slot):
        name = self.names[slot.param]
        return slot if name == slot.param else N.ScalarSlot.make(name, slot.index, span=slot.span)

    def DynDim(self, dyn):
        param = self.names[dyn.param]
        return dyn if param == dyn.param else N.DynDim.make(dyn.name, param, dyn.axis, span=dyn.span)

    def CellDecl(self, decl):
        cell = self.names[decl.cell]
        return decl if cell == decl.cell else N.CellDecl.make(cell, span=decl.span)

    def CellSet(self, store):
        cell, value = self.names[store.cell], self.visit(store.value)
        if cell == store.cell and value is store.value:
            return store
        return N.CellSet.make(cell, value, span=store.span)

    def TidSource(self, tid):
        names = self.names
        var, storage = names[tid.var], names[tid.storage]
        if var == tid.var and storage == tid.storage:
            return tid
        return N.TidSource.make(var, tid.source, storage, tid.size, span=tid.span)

    def Var(self, var):
        name = self.names.get(var.name)
        if name is None:
            raise InternalError(f"no C++ name for '{var.name}'", pass_name=self.name, node=var)
        if name == var.name:
            return var
        return self.spanless_var(name) if var.span is None else N.Var.make(name, span=var.span)

    # A shape, an offset or a create's fill value reads scalars only: while no scalar is renamed
    # (``scalars_renamed``) these handlers pass them on unvisited.

    def SliceTensor(self, view):
        if self.scalars_renamed:
            return self.rebuild(view)
        tensor = self.visit(view.tensor)
        return view if tensor is view.tensor else N.SliceTensor.make(
            tensor, view.shape, view.offset, view.manual_dep, view.clamp, view.placed, span=view.span
        )

    def ReshapeTensor(self, view):
        if self.scalars_renamed:
            return self.rebuild(view)
        tensor = self.visit(view.tensor)
        return view if tensor is view.tensor else N.ReshapeTensor.make(tensor, view.shape, view.manual_dep, span=view.span)

    def Create(self, create):
        if self.scalars_renamed:
            return self.rebuild(create)
        var = self.Binder(create.var)
        if var is create.var:
            return create
        return N.Create.make(var, create.shape, create.dtype, create.manual_dep, create.init, span=create.span)

    def Arg(self, arg):
        value = arg.value
        if value._production == "Var":  # most arguments: their identity clause and the Var handler, inlined
            name = self.names.get(value.name)
            if name is None:
                return self.Var(value)  # (which reports it)
            return arg if name == value.name else N.Arg.make(N.Var.make(name, span=value.span), arg.dir, span=arg.span)
        if not self.scalars_renamed and arg.dir is SCALAR:
            return arg  # its expression keeps every name
        return self.rebuild(arg)

    def Binder(self, binder):
        name = self.names[binder.name]
        if name == binder.name:
            return binder
        if binder.span is None:
            return self.spanless_binder(name, binder.type)
        return N.Binder.make(name, binder.type, span=binder.span)

    # A renamed Var or Binder without a span (a compiler-made one: a carry's init, a yield, an
    # iter_arg, a loop's result) is one node per C++ name, shared by every place that names it:
    # nodes are immutable values, and most of a big body's renamed nodes are these.

    def spanless_var(self, name: str):
        """``(Var name)`` without a span."""
        var = self.spanless_vars.get(name)
        if var is None:
            var = self.spanless_vars[name] = N.Var.make(name)
        return var

    def spanless_binder(self, name: str, type_):
        """``(Binder name type_)`` without a span."""
        binder = self.spanless_binders.get(name)
        if binder is None or binder.type is not type_:
            binder = self.spanless_binders[name] = N.Binder.make(name, type_)
        return binder

    def Let(self, let):
        value = let.value
        if value._production == "AssembleTensor":
            return []
        if (
            value._production == "Var"
            and let.var.type._production in ("TensorType", "ArrayType")
            and self.roots.get(let.var.name, let.var.name) != let.var.name
        ):
            return []
        return self.rebuild(let)

    def WriteTensor(self, write):
        tensor = self.visit(write.tensor)
        label = self.param_of.get(tensor.name, tensor.name)
        return N.WriteTensor.make(
            tensor, self.visit_all(write.index), self.visit(write.value), "indices_" + label, span=write.span
        )

    def Task(self, task):
        params = self.outputs.get(task.kernel)
        if params is None:
            params = self.outputs[task.kernel] = output_params(self.kernels[task.kernel])
        args = task.args
        nargs = len(args)
        names = self.names
        outs = []
        for i, binder in enumerate(task.outs):
            p = params[i]
            name = names[binder.name]  # (the Binder handler, inlined)
            new = binder if name == binder.name else N.Binder.make(name, binder.type, span=binder.span)
            # a parameter past the arguments is one the call omits: the runtime allocates it
            outs.append(N.Allocated.make(new, p - nargs) if p is not None and p >= nargs else N.Alias.make(new))
        tid = self.Binder(task.tid) if task.tid is not None else None
        launch = self.visit(task.launch) if task.launch is not None else None
        new_args = tuple(map(self.Arg, args))  # (every element is an Arg: visit_all's dispatch, inlined)
        deps = self.visit_all(task.deps) if task.deps else task.deps
        return N.Task.make(outs, tid, task.kernel, new_args, task.dumps, task.early_resolve, launch, deps,
                           task.capacity, span=task.span)
