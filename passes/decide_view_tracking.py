"""decide_view_tracking: ssa -> ssa."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.rewrite import Pass, register

from .hazards import storage_map, untracked_roots
from .kernels import kernel_table


@register
class DecideViewTracking(Pass):
    """Decide which views the runtime must leave untracked (``manual_dep``).

    A buffer created with ``manual_dep=True`` is the user's to order: the runtime keeps it out
    of its TensorMap, and the compiler derives no edges for it. The runtime's view operations
    (``view``, ``transpose``, ``reshape``) reset ``manual_dep`` unless passed
    ``in_manual_dep = true``, so a view of such a buffer would be tracked while the compiler
    treats it like its buffer: a write through it inside a manual scope never enters the
    TensorMap, and a later read in an AUTO scope would wait for nothing. This pass sets
    ``manual_dep`` on every ``SliceTensor``, ``TransposeTensor`` and ``ReshapeTensor`` whose
    source may hold only buffers created ``manual_dep`` (through views, kernel results and loop
    carries). A view whose source may hold a tracked buffer stays tracked: the compiler orders
    its accesses as it does that buffer's. Afterwards a view is ``manual_dep`` exactly when every
    buffer it may alias was created ``manual_dep``.
    """

    name = "decide_view_tracking"
    source = SSA
    target = SSA

    def run(self, program):
        func = program.orch
        self.untracked = untracked_roots(func)
        if not self.untracked:
            return program
        self.store = storage_map(func, kernel_table(program))
        return self.visit(program)

    def untracked_source(self, view) -> bool:
        source = view.tensor
        roots = self.store.get(source.name) if source._production == "Var" else None
        return bool(roots) and all(root in self.untracked for root, _ in roots)

    def marked(self, view):
        manual_dep = self.untracked_source(view)
        return view if view.manual_dep == manual_dep else view.replace(manual_dep=manual_dep)

    SliceTensor = TransposeTensor = ReshapeTensor = marked
