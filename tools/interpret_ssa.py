"""The reference interpreter: run an orchestration program at the SSA level and record its trace.

It reads the ``directed`` language (the SSA language plus each task argument's call-site
direction, which is the runtime tag the trace records) and every language after it up to
``encoded``: the productions those languages add or change (scopes with an origin, carry plans,
resolved dependency edges, ``Alloc`` batches, ``Declare``s; the named..encoded languages change
only the function's tables, which the trace does not read) each have a handler,
so the trace of every stage of the pipeline can be compared with the one before. A production
without a handler is an ``InterpretError`` naming it.

Semantics (what the program means, independent of how the C++ spells it):

- values: scalars (computed with C semantics, ``tools/cvalues.py``), tensors (runtime views),
  TaskIds (the *set* of tasks a TaskId stands for: a submit's id, nothing for ``None``, every
  iteration's id for a TaskId carried through a ``pl.parallel`` loop in a manual scope), arrays
  (each SSA version its own value; the C++ keeps one storage for the names of an array, which
  agrees because the front end refuses a read through one name after a write through another, D18);
- ``pl.create_tensor`` and ``Alloc`` allocate; a task argument is recorded with its direction as
  the runtime tag; trailing ``pl.Out`` parameters a task omits get OUTPUT slots (fresh buffers);
  a kernel's result is the argument it writes (or that fresh buffer);
- a dependency contributes every task its TaskId stands for; a barrier with dependency entries
  that all stand for nothing is not submitted (its TaskId stands for nothing);
- loops run ``range(start, stop, step)``; a ``pl.parallel`` loop in a manual scope gives each
  iteration its TaskId carries' initial values and collects every iteration's yield; all other
  carries are sequential; each task records the ``pl.parallel`` iterations it runs in;
- runtime scopes open and close where the program (or, from ``scoped`` on, the compiler) has
  them, inside the executor's outer AUTO scope;
- ``pl.tensor.read``/``write`` go through the runtime's element access (``tools/sim_runtime.py``).

``pl.assemble`` is a copy, which the runtime cannot perform: it is interpreted only when asked
(``copies=True``, for the program as written, whose trace then has ``Copy`` events), and is an
error otherwise (the compiler must have made it a view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nanopass.errors import InternalError, UserError
from nanopass.language import walk
from nanopass.languages.terms import ArgDir, CoreType, DType, LoopKind, ScopeMode
from nanopass.passes.kernels import output_param_of_result
from nanopass.passes.util import var_reads

from .cvalues import COMPARE, SYMBOL, CError, arith, cast_u64, convert, ctype_of, f32, from_u64, to_u64
from .sim_runtime import TAG, CreateInfo, Halted, Inputs, SimRuntime, Tensor, clamped_extents
from .trace import Trace, site_ids

NO_TASK: frozenset[int] = frozenset()
MAX_WHILE_TRIPS = 100_000  # a pl.while_ loop that runs longer is taken not to end (a ProgramFault)


class InterpretError(InternalError):
    """The interpreter met a tree it cannot run (a compiler bug, or a construct it lacks)."""


class ProgramFault(UserError):
    """The program does something undefined for the given inputs (C semantics)."""


def launch_of(kernel, kernels: dict[str, Any]) -> tuple[int, int, int] | None:
    """The MixedKernels triple a kernel's tasks launch with (None before kernel ids exist)."""
    if not hasattr(kernel, "id") or not hasattr(kernel, "core"):
        return None
    if kernel.core is CoreType.MIX:
        aic, aiv = (kernels[m] for m in kernel.members)
        dual = kernel.dual_dispatch or aiv.dual_dispatch
        return (aic.id, aiv.id, aiv.id if dual else -1)
    target = kernels[kernel.members[0]] if kernel.members else kernel
    if target.id is None:
        return None
    return (target.id, -1, -1) if target.core is CoreType.AIC else (-1, target.id, -1)


def launch_table(program) -> dict[str, tuple[int, int, int]]:
    """Kernel name -> launch triple, for a program of ``numbered`` or a later language."""
    kernels = {k.name: k for k in program.kernels}
    out = {}
    for kernel in program.kernels:
        launch = launch_of(kernel, kernels)
        if launch is not None:
            out[kernel.name] = launch
    return out


def interpret(program, inputs: Inputs, *, copies: bool = False) -> Trace:
    """The trace of ``program`` (a ``directed``..``encoded`` Program) run on ``inputs``; with
    ``copies``, a ``pl.assemble`` runs as the copy it means (``Copy`` events: the program as
    written, ``check.written_program``), otherwise it is an error (the runtime cannot copy)."""
    return Interpreter(program, inputs, copies=copies).run()


def copy_roots(body) -> dict[str, str]:
    """Each TaskId or TaskId array name that copies another -> the name it copies at the root:
    a let of a name; an array's ``arr[i] = t`` version (an array's versions are one C++ array);
    a TaskId carried through a ``pl.parallel`` loop in a manual scope, in the body, its init's
    name (every iteration sees the initial value). The C++ holds both in one storage."""
    roots: dict[str, str] = {}

    def copies(name: str, source: str) -> None:
        roots[name] = roots.get(source, source)

    def block(stmts, manual: bool) -> None:
        for stmt in stmts:
            kind = stmt._production
            if kind == "Let":
                ty, value = stmt.var.type, stmt.value
                if ty._production in ("ScalarType", "ArrayType") and ty.dtype is DType.TASK_ID:
                    vk = value._production
                    if vk == "Var":
                        copies(stmt.var.name, value.name)
                    elif vk == "SetItem":
                        copies(stmt.var.name, value.array.name)
            elif kind == "Scope" or kind == "CompilerScope":
                block(stmt.body, manual or stmt.mode is ScopeMode.manual)
            elif kind == "If":
                block(stmt.then, manual)
                block(stmt.orelse, manual)
            elif kind == "For" or kind == "While":
                if manual and kind == "For" and stmt.kind is LoopKind.parallel:
                    for it in stmt.iters:
                        ty = it.var.type
                        if ty._production == "ScalarType" and ty.dtype is DType.TASK_ID and it.init._production == "Var":
                            copies(it.var.name, it.init.name)
                block(stmt.body, manual)

    block(body, False)
    return roots


@dataclass
class _YieldFrame:
    values: list | None = None


class Interpreter:
    def __init__(self, program, inputs: Inputs, copies: bool = False):
        self.program = program
        self.copies = copies
        self.func = program.orch
        self.kernels = {k.name: k for k in program.kernels}
        self.rt = SimRuntime(inputs)
        self.env: dict[str, Any] = {}
        self.types: dict[str, Any] = {}
        self.storage: dict[str, str] = {}
        self.manual = 0
        self.par: list[tuple[int, int]] = []
        self.loop_ids = 0
        self.frames: list[_YieldFrame] = []
        self.sites = site_ids(program)
        self.waited: frozenset | None = None  # the names the function reads (a dummy's TaskId read)
        self.roots: dict[str, str] | None = None  # a TaskId (array) copy -> what it copies (``copy_roots``)

    # -- entry ---------------------------------------------------------------------------------------

    def run(self) -> Trace:
        self.bind_entry()
        self.rt.scope_begin("auto")
        try:
            self.block(self.func.body)
        except Halted:
            return self.rt.trace
        self.rt.scope_end()
        return self.rt.trace

    def bind_entry(self) -> None:
        """Types of every name; parameters, dynamic dims and TaskId storage from the inputs."""
        func = self.func
        for node in walk(func):
            if node._production == "Binder":
                self.types[node.name] = node.type
        for tid in getattr(func, "tids", ()):
            if tid.storage != tid.var:
                self.storage[tid.var] = tid.storage
        tensor_slot = scalar_slot = 0
        tensor_params = {}
        for param in func.params:
            self.types[param.name] = param.type
            if param.type._production == "TensorType":
                if tensor_slot >= len(self.rt.entries):
                    raise ProgramFault(f"no input tensor for parameter '{param.name}'", param.span)
                self.env[param.name] = self.rt.entries[tensor_slot]
                tensor_params[param.name] = tensor_slot
                tensor_slot += 1
            else:
                if scalar_slot >= len(self.rt.inputs.scalars):
                    raise ProgramFault(f"no input value for scalar parameter '{param.name}'", param.span)
                self.env[param.name] = from_u64(self.rt.inputs.scalars[scalar_slot], ctype_of(param.type.dtype))
                scalar_slot += 1
        for dyn in getattr(func, "dyn_dims", ()):
            self.types[dyn.name] = _INT64
            self.env[dyn.name] = self.rt.entries[tensor_params[dyn.param]].shape[dyn.axis]
        for dyn in getattr(func, "dyn_defs", ()):
            self.types[dyn.name] = _INT64
            self.env[dyn.name] = self.rt.entries[dyn.slot].shape[dyn.axis]

    # -- statements ------------------------------------------------------------------------------------

    def block(self, stmts) -> None:
        for stmt in stmts:
            handler = getattr(self, "exec_" + stmt._production, None)
            if handler is None:
                raise InterpretError(f"the reference interpreter has no rule for {stmt._production}", node=stmt)
            handler(stmt)
            if self.rt.fatal:
                raise Halted()

    def exec_Let(self, let) -> None:
        self.bind(let.var, self.rhs(let.value, let))

    def exec_Return(self, ret) -> None:
        returned = []
        for value in ret.values:
            if value._production == "Var" and isinstance(self.env.get(value.name), Tensor):
                returned.append((value.name, self.env[value.name].as_view()))
        self.rt.trace.returned = tuple(returned)

    def exec_Yield(self, yld) -> None:
        if not self.frames:
            raise InterpretError("a Yield outside a loop or branch body", node=yld)
        self.frames[-1].values = [self.value(v) for v in yld.values]

    def exec_Scope(self, scope) -> None:
        manual = scope.mode is ScopeMode.manual
        self.rt.scope_begin(scope.mode.value, _line(scope))
        self.manual += manual
        self.block(scope.body)
        self.manual -= manual
        self.rt.scope_end()

    exec_CompilerScope = exec_Scope  # a scope the compiler placed runs as any other

    def exec_Declare(self, decl) -> None:
        pass  # a C++ declaration ahead of the value: no runtime effect

    def exec_CellDecl(self, decl) -> None:
        self.env[decl.cell] = NO_TASK

    def exec_CellSet(self, store) -> None:
        self.env[store.cell] = self.tids(self.value(store.value))

    def exec_If(self, branch) -> None:
        cond = self.scalar(branch.cond)
        self.frames.append(_YieldFrame())
        self.block(branch.then if cond else branch.orelse)
        frame = self.frames.pop()
        results = [getattr(r, "var", r) for r in branch.results]
        if results and frame.values is None:
            raise InterpretError("an if with results whose branch yields nothing", node=branch)
        for binder, value in zip(results, frame.values or ()):
            self.bind(binder, value)

    def exec_For(self, loop) -> None:
        start, stop, step = (self.scalar(e) for e in (loop.start, loop.stop, loop.step))
        if step <= 0:
            raise ProgramFault(f"loop step {step} is not positive", loop.span)
        collect = [self.collects(loop, it) for it in loop.iters]
        for it in loop.iters:
            self.bind(it.var, self.value(it.init))
        gathered: list[list] = [[] for _ in loop.iters]
        parallel = loop.kind is LoopKind.parallel
        uid = self.loop_ids
        self.loop_ids += 1
        i, iteration = start, 0
        while i < stop:
            self.bind(loop.var, i)
            self.frames.append(_YieldFrame())
            if parallel:
                self.par.append((uid, iteration))
            try:
                self.block(loop.body)
            finally:
                if parallel:
                    self.par.pop()
                frame = self.frames.pop()
            if loop.iters:
                if frame.values is None:
                    raise InterpretError("a loop with carries whose body yields nothing", node=loop)
                for it, value, gather, bucket in zip(loop.iters, frame.values, collect, gathered):
                    if gather:
                        bucket.append(value)
                for it, value, gather in zip(loop.iters, frame.values, collect):
                    if not gather:
                        self.bind(it.var, value)
            i += step
            iteration += 1
        for it, result, gather, bucket in zip(loop.iters, loop.results, collect, gathered):
            if gather:
                self.bind(result, frozenset().union(*(self.tids(v) for v in bucket)))
            else:
                self.bind(result, self.env[it.var.name])

    def exec_While(self, loop) -> None:
        """The body runs while the condition, read on the carries at the top of each iteration,
        holds; the results hold the last carries (the inits when the body never ran)."""
        for it in loop.iters:
            self.bind(it.var, self.value(it.init))
        trips = 0
        while self.scalar(loop.cond):
            trips += 1
            if trips > MAX_WHILE_TRIPS:
                raise ProgramFault(f"the pl.while_ loop ran {MAX_WHILE_TRIPS} times and its condition still holds",
                                   loop.span)
            self.frames.append(_YieldFrame())
            try:
                self.block(loop.body)
            finally:
                frame = self.frames.pop()
            if frame.values is None:
                raise InterpretError("a while loop whose body yields nothing", node=loop)
            for it, value in zip(loop.iters, frame.values):
                self.bind(it.var, value)
        for it, result in zip(loop.iters, loop.results):
            self.bind(result, self.env[it.var.name])

    def collects(self, loop, it) -> bool:
        """A TaskId carried through a pl.parallel loop in a manual scope: every iteration sees the
        initial value, and the loop's result stands for every iteration's yield."""
        ty = it.var.type
        return (
            loop.kind is LoopKind.parallel
            and self.manual > 0
            and ty._production == "ScalarType"
            and ty.dtype is DType.TASK_ID
        )

    def exec_Task(self, task) -> None:
        kernel = self.kernels.get(task.kernel)
        if kernel is None:
            raise InterpretError(f"task of unknown kernel '{task.kernel}'", node=task)
        by_param = self.arguments(task, kernel)
        tensors: list[tuple[Any, str]] = []
        scalars: list[int] = []
        for param, (arg, value, direction) in zip(kernel.params, by_param):
            if direction is ArgDir.Scalar:
                scalars.append(self.encode(arg, value))
            else:
                if not isinstance(value, Tensor):
                    raise InterpretError(f"tensor argument '{param.name}' is not a tensor", node=arg)
                tensors.append((value, TAG[direction]))
        omitted = kernel.params[len(by_param):]
        for param in omitted:
            if param.type._production != "TensorType" or param.dir.name != "Out":
                raise InterpretError(f"task omits parameter '{param.name}', which is not an Out tensor", node=task)
            shape = tuple(self.scalar(d) for d in param.type.shape)
            tensors.append((CreateInfo(shape, param.type.dtype.runtime), "OUTPUT"))
        deps, derived = self.dep_ids(task.deps)
        if task.launch is not None:
            blocks = self.scalar(task.launch.blocks)
            if not 1 <= blocks <= 32767:  # PTO2LaunchSpec's block count: an int16_t, at least 1
                self.rt.fail(f"submit: Arg has an error: launch_spec.set_block_num({blocks})")
                raise Halted()
        task_id, outputs = self.rt.submit(
            launch_of(kernel, self.kernels), tensors, scalars, sorted(deps), kernel=kernel.name, line=_line(task),
            par=tuple(self.par), derived=tuple(sorted(derived)), site=self.sites.get(id(task), ""),
        )
        if task_id is None:
            raise Halted()
        self.bind_outs(task, kernel, by_param, outputs)
        if task.tid is not None:
            self.bind(task.tid, frozenset({task_id}))

    def arguments(self, task, kernel) -> list[tuple]:
        """Each given argument in kernel parameter order: (node, value, direction)."""
        return [(a, self.value(a.value), a.dir) for a in task.args]

    def bind_outs(self, task, kernel, by_param, outputs) -> None:
        for i, out in enumerate(task.outs):
            production = out._production
            binder = out if production == "Binder" else out.var
            if production == "Allocated":
                self.bind(binder, outputs[out.index])
                continue
            p = output_param_of_result(kernel, i)
            if p is None:
                raise InterpretError(f"result {i} of '{kernel.name}' writes no parameter", node=task)
            if p < len(by_param):
                self.bind(binder, by_param[p][1])
            else:
                self.bind(binder, outputs[p - len(by_param)])

    def exec_Dummy(self, dummy) -> None:
        deps, derived = self.dep_ids(dummy.deps)
        if dummy.deps and not deps:
            self.bind(dummy.var, NO_TASK)
            return
        if self.waited is None:
            self.waited = frozenset(var_reads(self.func.body))
        entries = self.dep_entries(dummy.deps)
        if len(entries) == 1 and len(entries[0]) == 1 and dummy.var.name in self.waited:
            self.bind(dummy.var, entries[0])  # one entry: the barrier is that TaskId, not submitted
            return
        task_id, _ = self.rt.submit(
            None, [], [], sorted(deps), dummy=True, line=_line(dummy), par=tuple(self.par), derived=tuple(sorted(derived)),
            site=self.sites.get(id(dummy), ""),
        )
        if task_id is None:
            raise Halted()
        self.bind(dummy.var, frozenset({task_id}))

    def exec_HostFence(self, fence) -> None:
        deps, derived = self.dep_ids(fence.deps)
        if fence.wait:  # a dummy creating one element after deps, and a host read of it
            task_id, outputs = self.rt.submit(
                None, [(CreateInfo((1,), DType.INT32.runtime), "OUTPUT")], [], sorted(deps), dummy=True,
                line=_line(fence), par=tuple(self.par), derived=tuple(sorted(derived)),
                site=self.sites.get(id(fence), ""),
            )
            if task_id is None:
                raise Halted()
            self.rt.get(outputs[0], (0,), _line(fence), tuple(self.par))
            if self.rt.fatal:
                raise Halted()
            return
        if not deps:
            return  # every dependency stands for nothing: not submitted
        task_id, _ = self.rt.submit(
            None, [(self.tensor(fence.tensor), "INOUT")], [], sorted(deps), dummy=True, line=_line(fence),
            par=tuple(self.par), derived=tuple(sorted(derived)), site=self.sites.get(id(fence), ""),
        )
        if task_id is None:
            raise Halted()

    def exec_WriteTensor(self, write) -> None:
        tensor = self.tensor(write.tensor)
        index = tuple(self.scalar(i) for i in write.index)
        ctype = ctype_of(self.types_dtype(write.tensor))
        bits = to_u64(convert(self.scalar(write.value), ctype), ctype)
        self.rt.set(tensor, index, bits, _line(write), tuple(self.par))

    def exec_Alloc(self, alloc) -> None:
        infos = [self.create_info(c.shape, c.dtype, c.manual_dep, c.init) for c in alloc.creates]
        labels = [_base(c.var.name) for c in alloc.creates]
        task_id, tensors = self.rt.alloc(infos, labels, _line(alloc))
        if task_id is None:
            raise Halted()
        for create, tensor in zip(alloc.creates, tensors):
            self.bind(create.var, tensor)

    # -- right-hand sides ----------------------------------------------------------------------------

    def rhs(self, value, let):
        kind = value._production
        handler = getattr(self, "rhs_" + kind, None)
        if handler is not None:
            return handler(value, let)
        if kind in _EXPRS:
            return self.value(value)
        raise InterpretError(f"the reference interpreter has no rule for {kind}", node=value)

    def rhs_CreateTensor(self, value, let):
        info = self.create_info(value.shape, value.dtype, value.manual_dep, value.init)
        task_id, tensors = self.rt.alloc([info], [_base(let.var.name)], _line(let))
        if task_id is None:
            raise Halted()
        return tensors[0]

    def rhs_ReadTensor(self, value, let):
        tensor = self.tensor(value.tensor)
        index = tuple(self.scalar(i) for i in value.index)
        bits = self.rt.get(tensor, index, _line(let), tuple(self.par))
        if self.rt.fatal:
            raise Halted()
        return from_u64(bits, ctype_of(self.types_dtype(value.tensor)))

    def rhs_SliceTensor(self, value, let):
        tensor = self.tensor(value.tensor)
        shape, offset = [self.u32(d) for d in value.shape], [self.u32(o) for o in value.offset]
        if value.clamp:
            shape = clamped_extents(shape, offset, tensor.shape)
        return tensor.view(shape, offset, value.manual_dep)

    def rhs_TransposeTensor(self, value, let):
        return self.tensor(value.tensor).transpose(value.axis1, value.axis2, value.manual_dep)

    def rhs_ReshapeTensor(self, value, let):
        return self.tensor(value.tensor).reshape([self.u32(d) for d in value.shape], value.manual_dep)

    def rhs_DimTensor(self, value, let):
        return self.tensor(value.tensor).shape[value.axis]

    def rhs_AssembleTensor(self, value, let):
        if not self.copies:
            raise InterpretError(
                "pl.assemble is a copy, which the runtime cannot perform; the reference interpreter runs programs "
                "whose assembles have become views (or, with copies=True, the program as written)",
                node=value,
            )
        target = self.tensor(value.target)
        source = self.tensor(value.source)
        place = target.view(list(source.shape), [self.u32(o) for o in value.offset])
        self.rt.copy(source, place, _line(let))
        if self.rt.fatal:
            raise Halted()
        return target

    def rhs_CreateArray(self, value, let):
        if value.dtype is DType.TASK_ID:
            return tuple(NO_TASK for _ in range(value.size))
        return tuple(convert(0, ctype_of(value.dtype)) for _ in range(value.size))

    def rhs_GetItem(self, value, let):
        array = self.value(value.array)
        return array[self.index(array, value.index, value)]

    def rhs_SetItem(self, value, let):
        array = self.value(value.array)
        i = self.index(array, value.index, value)
        item = self.value(value.value)
        return array[:i] + (item,) + array[i + 1:]

    def rhs_NoTask(self, value, let):
        return NO_TASK

    def create_info(self, shape, dtype, manual_dep, init) -> CreateInfo:
        dims = tuple(self.u32(d) for d in shape)
        bits = None
        if init is not None:
            if init._production == "Int" and init.value == 0:
                bits = 0
            else:
                ctype = ctype_of(dtype)
                bits = to_u64(convert(init.value, ctype), ctype)
        return CreateInfo(dims, dtype.runtime, manual_dep, bits)

    # -- dependencies ------------------------------------------------------------------------------------

    def dep_ids(self, deps) -> tuple[set[int], set[int]]:
        """The task ids a dependency list stands for, and those of them only compiler edges name."""
        user: set[int] = set()
        compiler: set[int] = set()
        for dep in deps:
            kind = dep._production
            if kind == "DepVar":
                user |= self.tids(self.value(dep.value))
            elif kind == "DerivedDep":
                compiler |= self.tids(self.value(dep.value))
            elif kind == "CellDep":
                compiler |= self.tids(self.env[dep.cell])
            elif kind == "DepItem":
                array = self.value(dep.array)
                user |= self.tids(array[self.index(array, dep.index, dep)])
            elif kind == "DepEdge":
                value = self.value(dep.tid)
                if dep.index is not None:
                    value = value[self.index(value, dep.index, dep)]
                (user if dep.user else compiler).update(self.tids(value))
            else:
                raise InterpretError(f"the reference interpreter has no rule for {kind}", node=dep)
        return user | compiler, compiler - user

    def dep_entries(self, deps) -> list[frozenset]:
        """The valid entries a dependency list puts in the C++ array, one per TaskId (a whole
        array: one per valid slot; a TaskId carried through a ``pl.parallel`` loop stands for
        every iteration's, one entry each in the C++: the caller counts each set's ids), the
        dependencies that name one TaskId (``entry_key``) giving its entries once."""
        out: list[frozenset] = []
        named: set[tuple] = set()
        for dep in deps:
            key = self.entry_key(dep)
            if key in named:
                continue
            named.add(key)
            kind = dep._production
            if kind in ("DepVar", "DerivedDep"):
                value = self.value(dep.value)
            elif kind == "CellDep":
                value = self.env[dep.cell]
            elif kind == "DepItem":
                array = self.value(dep.array)
                value = array[self.index(array, dep.index, dep)]
            else:  # DepEdge
                value = self.value(dep.tid)
                if dep.index is not None:
                    value = value[self.index(value, dep.index, dep)]
            out += [v for v in (value if isinstance(value, tuple) else (value,)) if v]
        return out

    def entry_key(self, dep) -> tuple:
        """What a dependency names: the TaskId, TaskId array slot (by its index expression) or
        whole array, with a copy taken for what it copies (``copy_roots``), or the cell. Two
        dependencies with one key hold one value wherever both are read, and a dependency list
        names it once (``docs/semantics.md``: a barrier of one distinct entry is not submitted)."""
        kind = dep._production
        if kind == "CellDep":
            return ("cell", dep.cell, None)
        if kind == "DepItem":
            ref, index = dep.array, dep.index
        elif kind == "DepEdge":
            ref, index = dep.tid, dep.index
        else:
            ref, index = dep.value, None
        if self.roots is None:
            self.roots = copy_roots(self.func.body)
        name = ref.name
        return ("tid", self.roots.get(name, name), None if index is None else repr(index))

    def tids(self, value) -> frozenset[int]:
        if isinstance(value, frozenset):
            return value
        if isinstance(value, tuple) and all(isinstance(v, frozenset) for v in value):
            return frozenset().union(*value)
        raise InterpretError(f"a dependency on a value that is not a TaskId: {value!r}")

    # -- values ------------------------------------------------------------------------------------------

    def bind(self, binder, value) -> None:
        ty = binder.type
        if ty._production == "ScalarType" and ty.dtype is not DType.TASK_ID:
            value = convert(value, ctype_of(ty.dtype))
        elif ty._production == "ScalarType":
            value = self.tids(value)
        self.env[binder.name] = value
        storage = self.storage.get(binder.name)
        if storage is not None:
            self.env[storage] = value

    def value(self, expr):
        return self.eval(expr)[0]

    def scalar(self, expr):
        value = self.value(expr)
        if isinstance(value, (Tensor, tuple, frozenset)):
            raise InterpretError("expected a scalar", node=expr)
        return value

    def u32(self, expr) -> int:
        return convert(self.scalar(expr), "uint32_t")

    def tensor(self, expr) -> Tensor:
        value = self.value(expr)
        if not isinstance(value, Tensor):
            raise InterpretError("expected a tensor", node=expr)
        return value

    def index(self, array, expr, node) -> int:
        i = self.scalar(expr)
        if not 0 <= i < len(array):
            raise ProgramFault(f"index {i} is outside an array of {len(array)}", getattr(node, "span", None))
        return i

    def types_dtype(self, expr) -> DType:
        ty = self.types.get(expr.name)
        if ty is None or not hasattr(ty, "dtype"):
            raise InterpretError(f"no type for '{expr.name}'", node=expr)
        return ty.dtype

    def encode(self, arg, value) -> int:
        """A scalar argument's u64 slot: a float's bits, an integer cast (the value's own type;
        the emission's encodings are checked by interpret_emission)."""
        dtype = self.eval(arg.value)[1]
        ctype = ctype_of(dtype)
        if dtype.is_float:
            return to_u64(value, ctype)
        return cast_u64(value, ctype)

    def eval(self, expr) -> tuple[Any, DType | None]:
        """(value, dtype) of an expression; dtype None for tensors, TaskIds and arrays."""
        kind = expr._production
        try:
            if kind == "Var":
                if expr.name not in self.env:
                    raise InterpretError(f"'{expr.name}' is read before it is defined", node=expr)
                ty = self.types.get(expr.name)
                dtype = ty.dtype if ty is not None and ty._production == "ScalarType" else None
                return self.env[expr.name], (None if dtype is DType.TASK_ID else dtype)
            if kind == "Int":
                return convert(expr.value, ctype_of(expr.dtype)), expr.dtype
            if kind == "Float":
                return (f32(expr.value) if expr.dtype is DType.FP32 else expr.value), expr.dtype
            if kind == "Bool":
                return expr.value, DType.BOOL
            if kind == "Cmp":
                a, _ = self.eval(expr.a)
                b, _ = self.eval(expr.b)
                return COMPARE[expr.op.name](a, b), DType.BOOL
            if kind == "Un":
                a, dtype = self.eval(expr.a)
                if expr.op.name == "not_":
                    return (not a), DType.BOOL
                ctype = ctype_of(dtype)
                if expr.op.name == "neg":
                    return arith("-", convert(0, ctype), a, ctype), dtype
                return convert(~int(a), ctype), dtype
            if kind == "Bin":
                return self.binary(expr)
        except CError as error:
            raise ProgramFault(f"{error} (C semantics)", getattr(expr, "span", None)) from None
        raise InterpretError(f"the reference interpreter has no rule for expression {kind}", node=expr)

    def binary(self, expr):
        op = expr.op.name
        if op in ("and_", "or_"):
            a, _ = self.eval(expr.a)
            if (op == "and_") != bool(a):
                return bool(a), DType.BOOL
            return bool(self.eval(expr.b)[0]), DType.BOOL
        a, da = self.eval(expr.a)
        b, db = self.eval(expr.b)
        if da is None or db is None:
            raise InterpretError("arithmetic on a value that is not a scalar", node=expr)
        dtype = da if da.is_float else db if db.is_float else (db if da is DType.INDEX else da)
        ctype = ctype_of(dtype)
        return arith(SYMBOL[op], convert(a, ctype), convert(b, ctype), ctype), dtype



class _ScalarType:
    """The type of a dynamic-dim symbol (only ``_production`` and ``dtype`` are read)."""

    _production = "ScalarType"

    def __init__(self, dtype):
        self.dtype = dtype


_INT64 = _ScalarType(DType.INT64)
_EXPRS = {"Var", "Int", "Float", "Bool", "Bin", "Cmp", "Un"}


def _line(node) -> int | None:
    span = getattr(node, "span", None)
    return span.line if span is not None else None


def _base(name: str) -> str:
    return name.split("__", 1)[0] or name
