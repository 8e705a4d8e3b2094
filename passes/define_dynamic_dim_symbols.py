"""define_dynamic_dim_symbols: named -> dimmed."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import DIMMED, NAMED
from nanopass.languages.named import check_name_map
from nanopass.rewrite import Pass, register

from .kernels import kernel_table
from .util import iter_stmts, var_reads

M = DIMMED


@register
class DefineDynamicDimSymbols(Pass):
    """Define, once at entry, each ``pl.dynamic`` symbol the body uses.

    A symbol is the runtime extent of the first tensor parameter that declares it; it becomes
    ``(DynDef name slot axis)``, read from that parameter's entry slot. Symbols that appear only
    in parameter types define nothing; the shape of an output the runtime allocates (a kernel's
    ``Out`` parameter a task leaves out, whose shape the emitted code spells) is a use. Such an
    output whose shape reads a symbol no tensor parameter of the orchestration declares is a
    located user error (nothing at run time knows its extent). Afterwards ``dyn_defs`` lists
    exactly the used symbols, in declaration order.
    """

    name = "define_dynamic_dim_symbols"
    source = NAMED
    target = DIMMED
    preserves = frozenset({check_name_map})  # (the map is the input's)

    def run(self, program):
        self.kernels = kernel_table(program)
        return super().run(program)

    def Function(self, func):
        extents = self.allocated_extents(func)
        used = set(var_reads(func.body)) | extents if func.dyn_dims else extents  # (no symbol: nothing to read)
        slots = {s.param: s.index for s in func.slots if s._production == "TensorSlot"}
        defs = [M.DynDef(d.name, slots[d.param], d.axis) for d in func.dyn_dims if d.name in used]
        # (unchecked: every field is the input's, of the same kind, but the defs, made checked above)
        return M.Function.make_trusted(
            func.name, func.params, func.results, func.auto_scope, defs, func.slots, func.arg_count, func.tids,
            func.renamed, func.identifiers, func.scalars_renamed, func.body, span=func.span,
        )

    def allocated_extents(self, func) -> set[str]:
        """The symbols the shapes of the outputs the runtime allocates for ``func``'s tasks read."""
        declared = {d.name for d in func.dyn_dims}
        out = set()
        if not any(_has_symbolic_extent(kernel) for kernel in self.kernels.values()):
            return out  # (no output of any kernel has a symbolic extent: no task need be looked at)
        for task in iter_stmts(func.body):
            if task._production != "Task":
                continue
            kernel = self.kernels[task.kernel]
            for param in kernel.params[len(task.args):]:
                for d in getattr(param.type, "shape", ()):
                    if d._production != "Var":
                        continue
                    if d.name not in declared:
                        raise UserError(
                            f"the runtime allocates the output '{param.name}' of '{kernel.name}' here, of extent "
                            f"'{d.name}', which no tensor parameter of '{func.name}' declares",
                            task.span,
                            hint=f"pass '{kernel.name}' a buffer for '{param.name}', or declare '{d.name}' in the "
                            f"shape of a tensor parameter of '{func.name}'",
                        )
                    out.add(d.name)
        return out


def _has_symbolic_extent(kernel) -> bool:
    """Whether a parameter of ``kernel`` has a shape that reads a symbol."""
    return any(d._production == "Var" for param in kernel.params for d in getattr(param.type, "shape", ()))

