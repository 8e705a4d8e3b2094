"""infer_core_types: carried -> core-typed."""

from __future__ import annotations

from nanopass.errors import UserError
from nanopass.languages import CARRIED, CORE_TYPED
from nanopass.languages.terms import CoreType, FuncKind
from nanopass.rewrite import Pass, register

K = CORE_TYPED

CUBE_SPACES = {"Left", "Right", "Acc", "Mat"}
CUBE_OPS = {"matmul", "matmul_acc", "matmul_bias", "gemv", "gemv_acc"}


def uses_cube(kernel) -> bool:
    """The seed's memory-space rule: Left/Right/Acc/Mat tiles (e.g. matmul) mean the cube core."""
    for stmt in kernel.body:
        if stmt._production != "KAssign":
            continue
        if CUBE_SPACES & set(stmt.spaces) or stmt.op.split(".")[-1] in CUBE_OPS:
            return True
    for param in kernel.params:
        if param.type._production == "TileType" and param.type.space in CUBE_SPACES:
            return True
    return False


SPLIT_ON_CUBE = (
    "kernel '{name}' uses the cube core (Left/Right/Acc/Mat tiles or a matmul) and asks to split its vector "
    "part across the AIV sub-cores (attrs={{'split': ...}} or dual_aiv_dispatch=True): the existing compiler "
    "expands such a mixed kernel into a cube kernel and a vector kernel launched as one Group, which nanopass "
    "does not do (an InCore kernel runs on one core, D6), so the split would be lost"
)


@register
class InferCoreTypes(Pass):
    """Decide where each kernel runs (D6).

    ``AIC`` and ``AIV`` functions run on their core; an untyped ``InCore`` kernel runs on the
    cube (AIC) when its body uses Left/Right/Acc/Mat tiles or a matmul, else on the vector core
    (AIV); a cube kernel that asks for its vector part to be split (``attrs={"split": ...}``, which
    the reference's mixed-kernel expansion honours) is a user error. A ``Group`` launches the kernels its body calls: its core is ``MIX`` with members
    [AIC kernel, AIV kernel], or ``AIV`` when it calls only an AIV kernel; a second call on either
    core is a user error (it would not run). Afterwards every kernel has a core type.
    """

    name = "infer_core_types"
    source = CARRIED
    target = CORE_TYPED

    def run(self, program):
        self.kinds = {}
        for kernel in program.kernels:
            if kernel.kind in (FuncKind.AIC, FuncKind.AIV):
                self.kinds[kernel.name] = CoreType[kernel.kind.name]
            elif kernel.kind is FuncKind.InCore:
                self.kinds[kernel.name] = CoreType.AIC if uses_cube(kernel) else CoreType.AIV
                if kernel.dual_dispatch and self.kinds[kernel.name] is CoreType.AIC:
                    raise UserError(SPLIT_ON_CUBE.format(name=kernel.name), kernel.span,
                                    "write the cube and vector parts as AIC and AIV kernels, the AIV one with the "
                                    "split attribute, and launch them together: with pl.cluster(): ...")
        kernels = [self.kernel(k) for k in program.kernels]
        return K.Program(program.name, kernels, program.orch, span=program.span)

    def kernel(self, kernel):
        members: list[str] = []
        if kernel.kind is FuncKind.Group:
            calls = [s for s in kernel.body if s._production == "KAssign" and s.op.startswith("self.")]
            self.check_one_call_per_core(kernel, calls)
            names = [s.op[len("self."):] for s in calls]
            aic = [c for c in names if self.kinds.get(c) is CoreType.AIC]
            aiv = [c for c in names if self.kinds.get(c) is CoreType.AIV]
            if aiv and not aic:
                core, members = CoreType.AIV, [aiv[0]]
            elif aic and aiv:
                core, members = CoreType.MIX, [aic[0], aiv[0]]
            else:
                raise UserError(
                    f"Group function '{kernel.name}' must call an AIV kernel (and optionally an AIC kernel)",
                    kernel.span,
                )
        else:
            core = self.kinds.get(kernel.name, CoreType.AIV)
        return K.Kernel(
            kernel.name, kernel.kind, kernel.params, kernel.results, kernel.body, kernel.dual_dispatch, core,
            members, span=kernel.span,
        )

    def check_one_call_per_core(self, group, calls) -> None:
        """A Group task runs one AIC and one AIV kernel, each once (``MixedKernels``' slots): a
        second call on a core would not run, so it is a user error at that call."""
        first: dict = {}
        for stmt in calls:
            name = stmt.op[len("self."):]
            core = self.kinds.get(name)
            if core not in (CoreType.AIC, CoreType.AIV):
                continue
            if core in first:
                earlier = first[core]
                raise UserError(
                    f"'{group.name}' calls a second {core.name} kernel '{name}' "
                    f"(after '{earlier.op[len('self.'):]}' at line {earlier.span.line}): a Group task runs "
                    f"one AIC and one AIV kernel, each once, so this call would not run",
                    stmt.span,
                    "launch the other call in a block of its own, or outside the pl.cluster / pl.spmd block",
                )
            first[core] = stmt
