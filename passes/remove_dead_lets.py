"""remove_dead_lets: ssa -> ssa."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.rewrite import Pass, register

from .util import iter_stmts, var_reads

# Right-hand sides without effects: dropping one whose result is never read changes nothing.
PURE = frozenset(
    {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un", "CreateTensor", "ReadTensor", "SliceTensor",
     "TransposeTensor", "ReshapeTensor", "DimTensor", "CreateArray", "GetItem", "NoTask"}
)


@register
class RemoveDeadLets(Pass):
    """Remove lets whose value is never read and whose right-hand side has no effect.

    A value is dead when no statement reads it (directly, or through lets that are themselves
    dead); removing it may make the values it read dead too. Views, element reads, scalar
    arithmetic, unused tensor and array creations and None seeds go; tasks, writes, array
    element stores and everything with an effect stay. Afterwards every remaining pure let is
    read somewhere, so the C++ declares no unused variable.
    """

    name = "remove_dead_lets"
    source = SSA
    target = SSA

    def run(self, program):
        body = program.orch.body
        uses = var_reads(body)
        defs = {
            s.var.name: s for s in iter_stmts(body) if s._production == "Let" and s.value._production in PURE
        }
        dead: set[str] = set()
        work = [name for name in defs if uses.get(name, 0) == 0]
        while work:
            name = work.pop()
            if name in dead:
                continue
            dead.add(name)
            for read, count in var_reads(defs[name].value).items():
                uses[read] -= count
                if uses[read] == 0 and read in defs:
                    work.append(read)
        if not dead:
            return program
        self.dead = dead
        return self.visit(program)

    def Let(self, let):
        return [] if let.var.name in self.dead else let
