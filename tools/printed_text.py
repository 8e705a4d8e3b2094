"""A ``surface`` or ``ssa`` program printed as the existing compiler prints its IR (``python_print``).

``print_printed(program)`` writes the text that compiler would hand over: ``level=`` and
``role=`` on every function, kernels without ``self``, ``pl.MemRef(...)`` in tensor types,
``pl.Mem.*`` in tile types, every assignment annotated, ``pl.tensor.create(..., layout=...)``,
a kernel's several results and ``pl.submit``'s TaskId as a ``pl.Tuple`` read by index, a
``pl.no_dep`` argument as ``attrs={"arg_direction_overrides": [i]}``, loop carries as
``init_values=`` and ``pl.yield_``, an ``ssa`` if's results as ``pl.yield_`` at the end of both
branches, ``None`` as ``pl.system.task_invalid()``, an ``ssa`` array store into the array's next
version as ``pl.array.update_element``, a slice ``fuse_create_assemble_to_slice`` marked
``placed`` with ``placed=True``; a view's ``manual_dep`` (``decide_view_tracking``'s) is
left out. ``nanopass.printed_ir`` reads it back to the same tree, up to those flags
(``tests/test_printed_ir_roundtrip.py``). A node it has no form for is an ``InternalError`` naming it.
"""

from __future__ import annotations

from typing import Any

from nanopass.errors import InternalError
from nanopass.languages.terms import FuncKind, ParamDir, ScopeMode

HEADER = "# pypto.program: {name}\nimport pypto.language as pl\n\n@pl.program\nclass {name}:\n"
INDENT = "    "


def print_printed(program: Any) -> str:
    """The printed IR of a ``surface`` or ``ssa`` program."""
    return _Printer().program(program)


class _Printer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tuples = 0  # the tuples named so far (_submit_tmp__ssa_v<k>)
        self.memrefs = 0  # the mem_ddr_<k> of the types printed so far
        self.annotated: set[str] = set()  # names annotated already (a re-assignment keeps the type)

    def emit(self, depth: int, text: str) -> None:
        self.lines.append(INDENT * depth + text)

    def program(self, program: Any) -> str:
        for kernel in program.kernels:
            self.kernel(kernel)
        self.function(program.orch)
        return HEADER.format(name=program.name) + "\n".join(self.lines) + "\n"

    # -- functions -----------------------------------------------------------------------------------

    def kernel(self, kernel: Any) -> None:
        dual = ", dual_aiv_dispatch=True" if kernel.dual_dispatch else ""
        self.emit(1, f"@pl.function(type=pl.FunctionType.{kernel.kind.name}, level=pl.Level.AIV, "
                     f"role=pl.Role.SubWorker{dual})")
        params = ", ".join(self.param(p) for p in kernel.params)
        self.emit(1, f"def {kernel.name}({params}){self.returns(kernel.results)}:")
        for stmt in kernel.body:
            if stmt._production == "KReturn":
                self.emit(2, "return" + (" " + ", ".join(self.karg(v) for v in stmt.values) if stmt.values else ""))
                continue
            call = f"pl.{stmt.op}({', '.join(self.karg(a) for a in stmt.args)})"
            if stmt.op.startswith("self."):
                call = f"{stmt.op}({', '.join(self.karg(a) for a in stmt.args)})"
            if not stmt.targets:
                self.emit(2, call)
            elif len(stmt.targets) == 1 and stmt.spaces:
                spaces = ", ".join(f"pl.Mem.{s}" for s in stmt.spaces)
                self.emit(2, f"{stmt.targets[0]}: pl.Tile[[16, 16], pl.FP32, {spaces}] = {call}")
            else:
                self.emit(2, f"{', '.join(stmt.targets)} = {call}")
        if not kernel.body:
            self.emit(2, "pass")

    def function(self, func: Any) -> None:
        auto = "" if func.auto_scope else ", auto_scope=False"
        self.emit(1, f"@pl.function(type=pl.FunctionType.{FuncKind.Orchestration.name}, level=pl.Level.CHIP, "
                     f"role=pl.Role.Orchestrator{auto})")
        params = ", ".join(["self"] + [self.param(p) for p in func.params])
        self.emit(1, f"def {func.name}({params}){self.returns(func.results)}:")
        self.block(func.body, 2)

    def param(self, param: Any) -> str:
        text = self.type(param.type)
        if param.dir is not ParamDir.In:
            text = f"pl.{param.dir.name}[{text}]"
        return f"{param.name}: {text}"

    def returns(self, results: Any) -> str:
        if not results:
            return ""
        if len(results) == 1:
            return " -> " + self.type(results[0], memref=False)
        return " -> tuple[" + ", ".join(self.type(t, memref=False) for t in results) + "]"

    # -- types and expressions -----------------------------------------------------------------------

    def type(self, t: Any, memref: bool = True) -> str:
        kind = t._production
        if kind == "ScalarType":
            return f"pl.Scalar[pl.{t.dtype.name}]"
        if kind == "ArrayType":
            return f"pl.Array[{t.size}, pl.{t.dtype.name}]"
        shape = "[" + ", ".join(self.dim(d) for d in t.shape) + "]"
        if kind == "TileType":
            space = f", pl.Mem.{t.space}" if t.space else ""
            return f"pl.Tile[{shape}, pl.{t.dtype.name}{space}]"
        if not memref:
            return f"pl.Tensor[{shape}, pl.{t.dtype.name}]"
        self.memrefs += 1
        return f'pl.Tensor[{shape}, pl.{t.dtype.name}, pl.MemRef("mem_ddr_{self.memrefs - 1}", pl.const(0, pl.INT64), 1024)]'

    def dim(self, d: Any) -> str:
        return f'pl.dynamic("{d.name}")' if d._production == "Var" else self.expr(d)

    def expr(self, e: Any) -> str:
        kind = e._production
        if kind == "Var":
            return e.name
        if kind == "Int":
            return str(e.value)
        if kind == "Float":
            return repr(e.value)
        if kind == "Bool":
            return repr(e.value)
        if kind in ("Bin", "Cmp"):
            return f"({self.expr(e.a)} {e.op.value} {self.expr(e.b)})"
        if kind == "Un":
            return f"({e.op.value} {self.expr(e.a)})" if e.op.value == "not" else f"({e.op.value}{self.expr(e.a)})"
        raise InternalError(f"the printed-IR printer has no form for a {kind} expression", node=e)

    def karg(self, a: Any) -> str:
        return a.text if a._production == "KOther" else self.expr(a)

    def rhs(self, r: Any) -> str:
        kind = r._production
        if kind == "CreateTensor":
            extra = ", manual_dep=True" if r.manual_dep else ""
            if r.init is not None:
                extra += f", init_value={self.expr(r.init)}"
            shape = ", ".join(self.expr(d) for d in r.shape)
            return f"pl.tensor.create([{shape}], dtype=pl.{r.dtype.name}, layout=pl.TensorLayout.ND{extra})"
        if kind == "NoTask":
            return "pl.system.task_invalid()"
        # A view's manual_dep is decide_view_tracking's, derived from the buffer's create: it is not
        # printed, and that pass derives it again from the program read back.
        if kind == "SliceTensor":
            marks = (", clamp=True" if r.clamp else "") + (", placed=True" if r.placed else "")
            return f"pl.tensor.slice({self.expr(r.tensor)}, {self.exprs(r.shape)}, {self.exprs(r.offset)}{marks})"
        if kind == "ReshapeTensor":
            return f"pl.tensor.reshape({self.expr(r.tensor)}, {self.exprs(r.shape)})"
        if kind == "TransposeTensor":
            return f"pl.tensor.transpose({self.expr(r.tensor)}, {r.axis1}, {r.axis2})"
        if kind == "DimTensor":
            return f"pl.tensor.dim({self.expr(r.tensor)}, {r.axis})"
        if kind == "AssembleTensor":
            return f"pl.assemble({self.expr(r.target)}, {self.expr(r.source)}, {self.exprs(r.offset)})"
        if kind == "ReadTensor":
            return f"pl.tensor.read({self.expr(r.tensor)}, {self.exprs(r.index)})"
        if kind == "CreateArray":
            return f"pl.array.create({r.size}, pl.{r.dtype.name})"
        if kind == "GetItem":
            return f"{self.expr(r.array)}[{self.expr(r.index)}]"
        return self.expr(r)

    def exprs(self, items: Any) -> str:
        return "[" + ", ".join(self.expr(e) for e in items) + "]"

    # -- statements ----------------------------------------------------------------------------------

    def block(self, stmts: Any, depth: int, targets: Any = ()) -> None:
        """``stmts`` at ``depth``; a final ``Yield`` assigns ``targets`` (a loop's or an if's results)."""
        if not stmts:
            self.emit(depth, "pass")
        for stmt in stmts:
            kind = stmt._production
            if kind == "Yield":
                names = ", ".join(b.name for b in targets)
                self.emit(depth, f"{names} = pl.yield_({', '.join(self.expr(v) for v in stmt.values)})")
            elif kind == "Let" and stmt.value._production == "SetItem":
                value = stmt.value
                if value.array._production == "Var" and value.array.name == stmt.var.name:
                    self.emit(depth, f"{stmt.var.name}[{self.expr(value.index)}] = {self.expr(value.value)}")
                else:  # the ssa form's next version of the array
                    self.emit(depth, f"{self.target(stmt.var)} = pl.array.update_element({self.expr(value.array)}, "
                                     f"{self.expr(value.index)}, {self.expr(value.value)})")
            elif kind == "Let":
                self.emit(depth, f"{self.target(stmt.var)} = {self.rhs(stmt.value)}")
            elif kind == "WriteTensor":
                self.emit(depth, f"pl.tensor.write({self.expr(stmt.tensor)}, {self.exprs(stmt.index)}, "
                                 f"{self.expr(stmt.value)})")
            elif kind == "Dummy":
                self.emit(depth, f"{self.target(stmt.var)} = pl.system.task_dummy(deps=[{self.deps(stmt.deps)}])")
            elif kind == "Task":
                self.task(stmt, depth)
            elif kind == "Return":
                self.emit(depth, "return " + ", ".join(self.expr(v) for v in stmt.values))
            elif kind == "Scope":
                mode = "" if stmt.mode is ScopeMode.auto else "mode=pl.ScopeMode.MANUAL"
                self.emit(depth, f"with pl.scope({mode}):")
                self.block(stmt.body, depth + 1)
            elif kind == "For":
                self.loop(stmt, depth)
            elif kind == "While":
                self.while_loop(stmt, depth)
            elif kind == "If":
                self.branch(stmt, depth)
            else:
                raise InternalError(f"the printed-IR printer has no form for a {kind} statement", node=stmt)

    def target(self, binder: Any) -> str:
        """An assignment's target: annotated with its type where the name is first assigned."""
        if binder.name in self.annotated:
            return binder.name
        self.annotated.add(binder.name)
        return f"{binder.name}: {self.type(binder.type)}"

    def task(self, task: Any, depth: int) -> None:
        args = [self.expr(a.value) for a in task.args]
        overrides = [str(i) for i, a in enumerate(task.args) if a.no_dep]
        attrs = f', attrs={{"arg_direction_overrides": [{", ".join(overrides)}]}}' if overrides else ""
        if task.tid is None:
            call = f"self.{task.kernel}({', '.join(args)}{attrs})"
        else:
            call = f"pl.submit(self.{task.kernel}, {', '.join(args)}, deps=[{self.deps(task.deps)}]{attrs})"
        results = list(task.outs) + ([task.tid] if task.tid is not None else [])
        if not results:
            self.emit(depth, call)
        elif len(results) == 1 and task.tid is None:  # (a submit's one name would be its whole tuple)
            self.emit(depth, f"{self.target(results[0])} = {call}")
        else:
            name = f"_submit_tmp__ssa_v{self.tuples}"
            self.tuples += 1
            types = ", ".join(self.type(b.type, memref=False) for b in results)
            self.emit(depth, f"{name}: pl.Tuple[{types}] = {call}")
            for index, binder in enumerate(results):
                self.emit(depth, f"{self.target(binder)} = {name}[{index}]")

    def deps(self, deps: Any) -> str:
        return ", ".join(self.expr(d.value) if d._production == "DepVar" else f"{self.expr(d.array)}[{self.expr(d.index)}]"
                         for d in deps)

    def loop(self, loop: Any, depth: int) -> None:
        bounds = f"{self.expr(loop.start)}, {self.expr(loop.stop)}, {self.expr(loop.step)}"
        kind = "parallel" if loop.kind.name == "parallel" else "range"
        if loop.iters:
            names = ", ".join(it.var.name for it in loop.iters) + ("," if len(loop.iters) == 1 else "")
            inits = ", ".join(self.expr(it.init) for it in loop.iters) + ("," if len(loop.iters) == 1 else "")
            self.emit(depth, f"for {loop.var.name}, ({names}) in pl.{kind}({bounds}, init_values=({inits})):")
        else:
            self.emit(depth, f"for {loop.var.name} in pl.{kind}({bounds}):")
        self.block(loop.body, depth + 1, loop.results)

    def while_loop(self, loop: Any, depth: int) -> None:
        names = ", ".join(it.var.name for it in loop.iters) + ("," if len(loop.iters) == 1 else "")
        inits = ", ".join(self.expr(it.init) for it in loop.iters) + ("," if len(loop.iters) == 1 else "")
        self.emit(depth, f"for ({names}) in pl.while_(init_values=({inits})):")
        self.emit(depth + 1, f"pl.cond({self.expr(loop.cond)})")
        self.block(loop.body, depth + 1, loop.results)

    def branch(self, branch: Any, depth: int) -> None:
        results = branch.results if "results" in branch._fields else ()
        self.emit(depth, f"if {self.expr(branch.cond)}:")
        self.block(branch.then, depth + 1, results)
        if branch.orelse:
            self.emit(depth, "else:")
            self.block(branch.orelse, depth + 1, results)
