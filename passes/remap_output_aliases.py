"""remap_output_aliases: hoisted -> named."""

from __future__ import annotations

from nanopass.errors import InternalError
from nanopass.languages import HOISTED, NAMED
from nanopass.languages.batched import check_alloc_size
from nanopass.languages.carried import check_plans
from nanopass.languages.named import named_binders
from nanopass.languages.dep_annotated import check_capacity
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.ssa import check_yields
from nanopass.languages.statements import walk_of
from nanopass.languages.terms import DType
from nanopass.rewrite import Pass, register

from .aliases import written_roots
from .naming import RESERVED, NameTable, base_name, ssa_role

N = NAMED

# Suffixes lower_to_emission derives from a created tensor's name.
CREATE_DERIVED = ("_ci", "_ci_shapes")
VIEW_DERIVED = ("_shapes", "_offsets")
TASK_ID = DType.TASK_ID  # (read once: an enum member read through its class costs a descriptor call)
LET, ALLOC, CELL_DECL, FOR, WHILE = HOISTED.Let, HOISTED.Alloc, HOISTED.CellDecl, HOISTED.For, HOISTED.While
SCALAR_TYPE = HOISTED.ScalarType
VIEWS = frozenset({HOISTED.SliceTensor, HOISTED.ReshapeTensor})  # the lets whose names lower_to_emission derives from


@register
class RemapOutputAliases(Pass):
    """Name every variable as the C++ will, so that one physical tensor has one name.

    A kernel's result is the Out/InOut argument it writes, an assemble's result its target, a
    tensor copy its source, a carry or if result that is not rebound its init or the common
    branch value: all of these take the name of their root (the seed's output-alias rule).
    Tensor parameters are ``ext_<p>``; every other root gets its user name (``c``), or its SSA
    name (``acc__rv_v2``) when that is taken or when its role is ``out`` (``ret0__out``), made
    unique against C++ keywords, runtime names and the names the emission generates. The names
    go into the function's map (``renamed`` and ``identifiers``; ``scalars_renamed`` when a data scalar's is there),
    not into the tree: the body is the input's, every statement of it the same node.

    Preserves every invariant of the body (``preserves``): the yields, the scope placement (the
    record hook's contract: the same statements, ``auto_scope`` kept), the carry plans, the
    dependency capacities and the allocation sizes.
    """

    name = "remap_output_aliases"
    source = HOISTED
    target = NAMED
    preserves = frozenset({check_yields, check_scope_placement, check_plans, check_capacity, check_alloc_size})

    def run(self, program):
        func = program.orch
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
        # a scalar or dim symbol keeps its name unless C++ or a header has it (``new``, ``errno``)
        reserved_outer = [name for name, c_name in names.items() if c_name in RESERVED]
        for name in reserved_outer:
            names[name] = table.reserve(name)
        walk = walk_of(func.body)  # (one walk for the uses below; kept with the body while compiling)
        self.derived, cells = self.derived_suffixes_and_cells(walk.order)
        derived_of, take_first = self.derived.get, table.take_first
        self.data_scalars = data_scalars = set(reserved_outer)  # (``scalars_renamed``)
        scalar_type = SCALAR_TYPE
        # every Binder in program order, an if's results before its branches: the reference names
        # them at the if, so a result takes the user's name and a branch's value the SSA name
        # (``m`` and ``m__ssa_v0``, section 7.4)
        for binder in named_binders(func.body):
            name = binder.name
            ty = binder.type
            if type(ty) is scalar_type and ty.dtype is not TASK_ID:
                data_scalars.add(name)
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
        return self.visit(program)

    def carry_names(self, compound, names: dict[str, str], roots: dict[str, str]) -> None:
        """A rebound carry is one C++ variable for the iter_arg and the result (named by the
        result); a TaskId array carry of a pl.parallel loop stands, inside the body, for its init;
        a TaskId carry that holds more ids in the body than its result has a variable of its own.
        ``compound``: every statement of the function that has a body (``Walk.compound``)."""
        for stmt in compound:
            kind = type(stmt)  # (by class: a string comparison per statement costs more)
            if kind is not FOR and kind is not WHILE:
                continue
            for it in stmt.iters:  # (most carries are not rebound: their loop is passed without a zip)
                if it.plan.rebind:
                    break
            else:
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
            kind = type(stmt)  # (by class: a string comparison per statement and kind costs more)
            if kind is LET:
                if type(stmt.value) in VIEWS:
                    out[stmt.var.name] = VIEW_DERIVED
            elif kind is ALLOC:
                for c in stmt.creates:
                    out[c.var.name] = CREATE_DERIVED
            elif kind is CELL_DECL:
                cells.append(stmt.cell)
        return out, cells

    # -- the output: the input's body under a function that holds the map ---------------------------

    def Program(self, program):
        return N.Program(program.name, program.kernels, self.visit(program.orch), span=program.span)

    def Function(self, func):
        # (its buffer groups are left behind: aliases now share their root's identifier)
        named = self.names
        renamed = [var for var, cpp in named.items() if cpp != var]
        scalars_renamed = not self.data_scalars.isdisjoint(renamed)  # (a data scalar renamed: in ``renamed``)
        # (unchecked: the fields are the input's, of the same kinds, but the map, whose names are
        # the input's and whose identifiers the NameTable made of identifiers)
        return N.Function.make_trusted(
            func.name, func.params, func.results, func.auto_scope, func.dyn_dims, func.slots, func.arg_count, func.tids,
            renamed, list(map(named.__getitem__, renamed)), scalars_renamed, func.body, span=func.span,
        )
