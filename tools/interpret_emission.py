"""The emission interpreter: run the C++ statements of the ``emission`` language and record the trace.

Each emission statement is executed as the C++ it prints to would execute, against the Python
recording runtime (``tools/sim_runtime.py``): variables live in C++ blocks (a name is visible
in the block that declares it and the blocks inside); scalars have C types and C arithmetic
(``tools/cvalues.py``); a ``Tensor``, ``TaskOutputTensors`` or create-info is a value; an
``Arg`` holds *pointers* to the tensors, create-infos and dependency array it was given (read at
submit time), as the runtime's ``Arg`` does; ``PTO2TaskId`` arrays start uninitialised, and
reading an uninitialised TaskId, overflowing a dependency array, or using a name no enclosing
block declares is an ``EmissionError`` naming the statement (g++ or the program would fail).
A statement without a handler is an ``EmissionError`` too.

``for`` loops evaluate their stop and step before every iteration, as C++ does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from nanopass.errors import InternalError
from nanopass.languages import EMISSION
from nanopass.languages.terms import ArgDir, DType, Encoding

from .cvalues import (
    COMPARE,
    SYMBOL,
    CError,
    arith,
    cast_u64,
    common_type,
    convert,
    ctype_of,
    f32,
    from_u64,
    literal_type,
    promote,
    to_u64,
)
from .interpret_ssa import MAX_WHILE_TRIPS, ProgramFault
from .sim_runtime import TAG, CreateInfo, Halted, Inputs, SimRuntime, Tensor, clamped_extents
from .trace import Fatal, Trace, site_ids

MAX_TENSOR_ARGS = 32
MAX_SCALAR_ARGS = 16


class EmissionError(InternalError):
    """The emission program does something its C++ cannot (a compiler bug)."""


class _Uninit:
    def __repr__(self) -> str:
        return "<uninitialised>"


UNINIT = _Uninit()


@dataclass
class Cell:
    """One C++ variable: what it is (``kind``), its C type for scalars, its value."""

    kind: str  # scalar tensor tid tid_array array u32_array info args outs mixed
    value: Any
    ctype: str | None = None


@dataclass
class ArgBuilder:
    """The runtime's ``Arg``: pointers to tensor / create-info cells, scalar slots, a deps pointer."""

    tensors: list[tuple[Cell, str]] = field(default_factory=list)
    scalars: list[int] = field(default_factory=list)
    deps: tuple[Cell, int] | None = None
    error: str | None = None

    def set_error(self, message: str) -> None:
        if self.error is None:
            self.error = message


@dataclass(frozen=True)
class Outs:
    """``TaskOutputTensors``: the task id (None: invalid) and its OUTPUT tensors."""

    task_id: int | None
    tensors: tuple[Tensor, ...] = ()


def interpret_emission(unit, inputs: Inputs) -> Trace:
    """The trace of an emission ``Unit`` run on ``inputs``."""
    return EmissionInterpreter(unit, inputs).run()


class EmissionInterpreter:
    def __init__(self, unit, inputs: Inputs):
        self.unit = unit
        self.rt = SimRuntime(inputs)
        self.blocks: list[dict[str, Cell]] = [{}]
        self.kernel: str | None = None
        self.line: int | None = None
        self.sites = site_ids(unit)

    # -- blocks and variables --------------------------------------------------------------------------

    def declare(self, name: str, cell: Cell, node) -> None:
        if name in self.blocks[-1]:
            raise EmissionError(f"'{name}' is declared twice in one C++ block", node=node)
        self.blocks[-1][name] = cell

    def cell(self, name: str, node, kind: str | tuple[str, ...] | None = None) -> Cell:
        for block in reversed(self.blocks):
            if name in block:
                found = block[name]
                kinds = (kind,) if isinstance(kind, str) else kind
                if kinds is not None and found.kind not in kinds:
                    raise EmissionError(f"'{name}' is a {found.kind}, not a {' or '.join(kinds)}", node=node)
                return found
        raise EmissionError(f"'{name}' is not declared in any enclosing C++ block", node=node)

    def nested(self, stmts) -> None:
        self.blocks.append({})
        try:
            self.block(stmts)
        finally:
            self.blocks.pop()

    # -- entry ---------------------------------------------------------------------------------------------

    def run(self) -> Trace:
        unit = self.unit
        inputs = self.rt.inputs
        given = len(inputs.tensors) + len(inputs.scalars)
        if unit.arg_count > 0 and given < unit.arg_count:
            self.rt.trace.events.append(Fatal(f"config: expected_arg_count {unit.arg_count} > {given} arguments"))
            return self.rt.trace
        for ext in unit.externals:
            if ext.slot >= len(self.rt.entries):
                raise ProgramFault(f"no input tensor for entry slot {ext.slot}")
            self.declare(ext.name, Cell("tensor", self.rt.entries[ext.slot]), ext)
        for scalar in unit.scalars:
            ctype = ctype_of(scalar.dtype)
            if scalar.slot >= len(inputs.scalars):
                raise ProgramFault(f"no input value for entry scalar slot {scalar.slot}")
            self.declare(scalar.name, Cell("scalar", from_u64(inputs.scalars[scalar.slot], ctype), ctype), scalar)
        for dyn in unit.dyn_defs:
            self.declare(dyn.name, Cell("scalar", self.rt.entries[dyn.slot].shape[dyn.axis], "int64_t"), dyn)
        self.rt.scope_begin("auto")
        try:
            self.nested(unit.body)
        except Halted:
            return self.rt.trace
        self.rt.scope_end()
        return self.rt.trace

    def block(self, stmts) -> None:
        for stmt in stmts:
            span = getattr(stmt, "span", None)
            if span is not None:
                self.line = span.line
            handler = getattr(self, "exec_" + stmt._production, None)
            if handler is None:
                raise EmissionError(f"the emission interpreter has no rule for {stmt._production}", node=stmt)
            try:
                handler(stmt)
            except CError as error:
                raise ProgramFault(f"{error} (C semantics)", span) from None
            if self.rt.fatal:
                raise Halted()

    # -- structure -------------------------------------------------------------------------------------------

    def exec_Blank(self, node) -> None:
        pass

    def exec_Comment(self, node) -> None:
        text = node.text
        if text.startswith("Task ") and ": " in text:  # Task <n>: <kernel>
            self.kernel = text.split(": ", 1)[1]
        elif text.startswith("Group ") and ": " in text:  # Group <group>: <its lanes>
            self.kernel = text[len("Group "):].split(": ", 1)[0]
        else:
            self.kernel = None

    def exec_ScopeBlock(self, node) -> None:
        self.rt.scope_begin(node.mode.value, self.line)
        if self.rt.fatal:
            raise Halted()
        self.nested(node.body)
        self.rt.scope_end()

    def exec_Block(self, node) -> None:
        self.nested(node.body)

    def exec_ForBlock(self, node) -> None:
        self.blocks.append({})
        try:
            var = Cell("scalar", convert(self.scalar(node.start), "int64_t"), "int64_t")
            self.declare(node.var, var, node)
            while self.compare_lt(var.value, node.stop):
                self.nested(node.body)
                step, ctype = self.eval(node.step)
                var.value = arith("+", var.value, convert(step, common_type("int64_t", ctype)), "int64_t")
        finally:
            self.blocks.pop()

    def compare_lt(self, value: int, stop_expr) -> bool:
        stop, ctype = self.eval(stop_expr)
        common = common_type("int64_t", ctype)
        return convert(value, common) < convert(stop, common)

    def exec_WhileBlock(self, node) -> None:
        trips = 0
        while self.scalar(node.cond):
            trips += 1
            if trips > MAX_WHILE_TRIPS:
                raise ProgramFault(f"the while loop ran {MAX_WHILE_TRIPS} times and its condition still holds",
                                   getattr(node, "span", None))
            self.nested(node.body)

    def exec_IfBlock(self, node) -> None:
        self.nested(node.then if self.scalar(node.cond) else node.orelse)

    # -- scalars, tensors, arrays ---------------------------------------------------------------------------

    def exec_DeclScalar(self, node) -> None:
        ctype = ctype_of(node.dtype)
        value = UNINIT if node.value is None else convert(self.scalar(node.value), ctype)
        self.declare(node.name, Cell("scalar", value, ctype), node)

    def exec_DeclTensor(self, node) -> None:
        value = UNINIT if node.value is None else self.tensor(node.value)
        self.declare(node.name, Cell("tensor", value), node)

    def exec_AssignVar(self, node) -> None:
        target = self.cell(node.name, node, ("scalar", "tensor"))
        if target.kind == "tensor":
            target.value = self.tensor(node.value)
        else:
            target.value = convert(self.scalar(node.value), target.ctype)

    def exec_ShapeArray(self, node) -> None:
        values = [convert(self.scalar(v), "uint32_t") for v in node.values]
        self.declare(node.name, Cell("u32_array", values, "uint32_t"), node)

    def exec_ViewExtents(self, node) -> None:
        # Clamped as printed when the slice asked for it; otherwise as the default ABI prints them
        # (--abi l2 clamps them to the source, which changes nothing for a window inside it; one
        # outside it is the runtime's fatal error)
        self.exec_ShapeArray(node)
        if node.clamp:
            cell = self.cell(node.name, node, ("u32_array",))
            tensor = self.tensor_var(node.tensor, node)
            offsets = self.u32_array(node.offsets, node, len(tensor.shape))
            cell.value = clamped_extents(cell.value, offsets, tensor.shape)

    def exec_ReadDim(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        if not 0 <= node.axis < len(tensor.shape):
            raise EmissionError(f"shapes[{node.axis}] of a rank-{len(tensor.shape)} tensor", node=node)
        self.declare(node.name, Cell("scalar", tensor.shape[node.axis], "int64_t"), node)

    def exec_ViewTensor(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        shapes = self.u32_array(node.shapes, node, len(tensor.shape))
        offsets = self.u32_array(node.offsets, node, len(tensor.shape))
        self.declare(node.name, Cell("tensor", tensor.view(shapes, offsets, node.manual_dep)), node)

    def exec_TransposeView(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        if not (node.axis1 < len(tensor.shape) and node.axis2 < len(tensor.shape)):
            raise EmissionError("transpose axis out of range", node=node)
        self.declare(node.name, Cell("tensor", tensor.transpose(node.axis1, node.axis2, node.manual_dep)), node)

    def exec_ReshapeView(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        shapes = self.u32_array(node.shapes, node, node.ndims)
        self.declare(node.name, Cell("tensor", tensor.reshape(shapes, node.manual_dep)), node)

    def exec_ReadElement(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        index = self.u32_array(node.indices, node, node.ndims) if node.indices is not None else []
        ctype = ctype_of(node.dtype)
        bits = self.rt.get(tensor, tuple(index), self.line)
        if node.name is not None:  # (None: a read for its wait only)
            self.declare(node.name, Cell("scalar", from_u64(bits, ctype), ctype), node)

    def exec_WriteElement(self, node) -> None:
        tensor = self.tensor_var(node.tensor, node)
        index = self.u32_array(node.indices, node, node.ndims) if node.indices is not None else []
        ctype = ctype_of(node.dtype)
        self.rt.set(tensor, tuple(index), to_u64(convert(self.scalar(node.value), ctype), ctype), self.line)

    def exec_DeclArray(self, node) -> None:
        ctype = ctype_of(node.dtype)
        self.declare(node.name, Cell("array", [convert(0, ctype)] * node.size, ctype), node)

    def exec_CopyArray(self, node) -> None:
        dst = self.cell(node.dst, node, "array")
        src = self.cell(node.src, node, "array")
        for k in range(node.size):
            dst.value[self.bounded(dst, k, node)] = convert(src.value[self.bounded(src, k, node)], dst.ctype)

    def exec_DeclElement(self, node) -> None:
        array = self.cell(node.array, node, "array")
        ctype = ctype_of(node.dtype)
        self.declare(node.name, Cell("scalar", convert(array.value[self.slot(array, node.index, node)], ctype), ctype), node)

    def exec_SetArrayItem(self, node) -> None:
        array = self.cell(node.array, node, "array")
        array.value[self.slot(array, node.index, node)] = convert(self.scalar(node.value), array.ctype)

    # -- tensor creation ---------------------------------------------------------------------------------------

    def exec_CreateInfo(self, node) -> None:
        shapes = self.u32_array(node.shapes, node, node.ndims)
        info = CreateInfo(tuple(shapes), node.dtype.runtime, node.manual_dep)
        self.declare(node.name, Cell("info", info), node)

    def exec_SetInitial(self, node) -> None:
        info = self.cell(node.info, node, "info")
        value = node.value
        if value._production == "Int" and value.value == 0:
            bits = 0
        else:
            ctype = ctype_of(node.dtype)
            bits = to_u64(convert(value.value, ctype), ctype)
        info.value = replace(info.value, init=bits)

    def exec_AllocTensors(self, node) -> None:
        infos = [self.cell(name, node, "info").value for name in node.infos]
        labels = [name[: -len("_ci")] if name.endswith("_ci") else name for name in node.infos]
        task_id, tensors = self.rt.alloc(infos, labels, self.line)
        if task_id is None:
            raise Halted()
        self.declare(node.name, Cell("outs", Outs(task_id, tuple(tensors))), node)

    def exec_BindRef(self, node) -> None:
        outs = self.cell(node.source, node, "outs").value
        if not 0 <= node.index < len(outs.tensors):
            raise EmissionError(f"get_ref({node.index}) of {len(outs.tensors)} outputs", node=node)
        self.declare(node.name, Cell("tensor", outs.tensors[node.index]), node)

    def exec_AssignRef(self, node) -> None:
        outs = self.cell(node.source, node, "outs").value
        if not 0 <= node.index < len(outs.tensors):
            raise EmissionError(f"get_ref({node.index}) of {len(outs.tensors)} outputs", node=node)
        self.cell(node.name, node, "tensor").value = outs.tensors[node.index]

    # -- task arguments and submits --------------------------------------------------------------------------

    def exec_TaskArgs(self, node) -> None:
        """Its comment (when it has one), its argument object, then an add call per tensor and an
        add_scalar per scalar."""
        if node.comment is not None:
            self.exec_Comment(EMISSION.Comment(node.comment))
        self.declare(node.name, Cell("args", ArgBuilder()), node)
        for d, tensor in zip(node.dirs, node.tensors):
            self.add_tensor(node.name, d, tensor, node)
        for value, encoding in zip(node.scalars, node.encodings):
            self.add_scalar(node.name, value, encoding, node)

    def add_tensor(self, args_name: str, direction, tensor: str, node) -> None:
        args = self.cell(args_name, node, "args").value
        target = self.cell(tensor, node, "info" if direction is ArgDir.Output else "tensor")
        if args.scalars:
            args.set_error("tensor added after add_scalar")
        elif len(args.tensors) >= MAX_TENSOR_ARGS:
            args.set_error("too many tensors")
        else:
            args.tensors.append((target, TAG[direction]))

    def add_scalar(self, args_name: str, expr, encoding, node) -> None:
        args = self.cell(args_name, node, "args").value
        value, ctype = self.eval(expr)
        if ctype is None:
            raise EmissionError("add_scalar of a value that is not a scalar", node=node)
        bits = to_u64(value, ctype) if encoding is Encoding.to_u64 else cast_u64(value, ctype)
        if len(args.scalars) >= MAX_SCALAR_ARGS:
            args.set_error("too many scalars")
        else:
            args.scalars.append(bits)

    def exec_Deps(self, node) -> None:
        """The dependency array declared, each push, then set on the argument object."""
        self.dep_array(node.args, node.size, node.pushes, node)
        args = self.cell(node.args, node, "args").value
        deps = self.cell(f"{node.args}_deps", node, "tid_array")
        count = self.cell(f"{node.args}_deps_count", node, "scalar").value
        if count == 0:
            args.deps = None
        elif args.deps is not None:
            args.set_error("set_dependencies called twice")
        else:
            args.deps = (deps, count)

    def dep_array(self, args_name: str, size: int, pushes, node) -> None:
        """``args_name``'s dependency array and its count declared, and each of ``pushes`` made."""
        self.declare(f"{args_name}_deps", Cell("tid_array", [UNINIT] * size), node)
        self.declare(f"{args_name}_deps_count", Cell("scalar", 0, "uint32_t"), node)
        for push in pushes:
            if push._production == "PushDep":
                self.push_dep(args_name, push)
            else:
                self.push_dep_slots(args_name, push)

    def push(self, args_name: str, value, node) -> None:
        deps = self.cell(f"{args_name}_deps", node, "tid_array")
        count = self.cell(f"{args_name}_deps_count", node, "scalar")
        if count.value >= len(deps.value):
            raise EmissionError(f"{args_name}_deps[{len(deps.value)}] overflows", node=node)
        deps.value[count.value] = value
        count.value += 1

    def push_dep(self, args_name: str, node) -> None:
        tid = node.tid  # (an identifier)
        if node.index is not None:
            array = self.cell(tid, node, "tid_array")
            value = array.value[self.slot(array, node.index, node)]
        else:
            value = self.cell(tid, node, "tid").value
        if value is UNINIT:
            raise EmissionError(f"reads '{tid}' before it is initialised", node=node)
        if node.guarded and value is None:
            return
        self.push(args_name, value, node)

    def push_dep_slots(self, args_name: str, node) -> None:
        array = self.cell(node.array, node, "tid_array")
        if len(array.value) < node.size:
            raise EmissionError(f"reads {node.size} slots of '{node.array}[{len(array.value)}]'", node=node)
        for k in range(node.size):
            value = array.value[k]
            if value is UNINIT:
                raise EmissionError(f"reads '{node.array}[{k}]' before it is initialised", node=node)
            if value is not None:
                self.push(args_name, value, node)

    def exec_DumpArgs(self, node) -> None:  # a debugging mark: no effect on what the tasks do
        self.cell(node.args, node, "args")

    def exec_AllowEarlyResolve(self, node) -> None:  # a scheduling hint: no effect on the order the runtime enforces
        self.cell(node.args, node, "args")

    def exec_SetBlockNum(self, node) -> None:
        args = self.cell(node.args, node, "args").value
        value, _ctype = self.eval(node.value)
        if not 1 <= value <= 32767:  # PTO2LaunchSpec: an int16_t, at least 1
            args.set_error(f"launch_spec.set_block_num({value})")

    def exec_SetSyncStart(self, node) -> None:
        self.cell(node.args, node, "args")

    def exec_DeclMixed(self, node) -> None:
        triple = (node.aic, node.aiv0, node.aiv1 if node.aiv1 is not None else -1)
        self.declare(node.name, Cell("mixed", triple), node)

    def exec_Submit(self, node) -> None:
        args = self.cell(node.args, node, "args").value
        launch = node.launch
        kind = launch._production
        if kind == "AicLaunch":
            triple = (launch.id, -1, -1)
        elif kind == "AivLaunch":
            triple = (-1, launch.id, -1)
        elif kind == "MixedLaunch":
            triple = self.cell(launch.mixed, node, "mixed").value
        elif kind == "DummyLaunch":
            triple = None
        else:
            raise EmissionError(f"the emission interpreter has no rule for {kind}", node=launch)
        outs = self.submit(args, triple, node)
        if node.outs is not None:
            self.declare(node.outs, Cell("outs", outs), node)
        if node.tid is not None:  # the TaskId declared with the submit (outs.task_id())
            self.declare(node.tid, Cell("tid", outs.task_id), node)

    def submit(self, args: ArgBuilder, launch, node) -> Outs:
        if args.error is not None:
            self.rt.fail(f"submit: Arg has an error: {args.error}")
            raise Halted()
        tensors = []
        for target, tag in args.tensors:
            if target.value is UNINIT:
                raise EmissionError("a task argument is an uninitialised tensor", node=node)
            tensors.append((target.value, tag))
        deps = []
        if args.deps is not None:
            array, count = args.deps
            for value in array.value[:count]:
                if value is UNINIT:
                    raise EmissionError("a dependency slot is uninitialised at submit", node=node)
                deps.append(-1 if value is None else value)
        kernel = self.kernel if launch is not None else None
        task_id, outputs = self.rt.submit(
            launch, tensors, list(args.scalars), deps, dummy=launch is None, kernel=kernel, line=self.line,
            site=self.sites.get(id(node), ""),
        )
        if task_id is None:
            raise Halted()
        return Outs(task_id, tuple(outputs))

    def exec_GuardedDummy(self, node) -> None:
        if node.pushes:
            self.exec_Deps(node)  # (its array, set on its argument object)
        tid = Cell("tid", None)
        if node.tid is not None:
            self.declare(node.tid, tid, node)
        count = self.cell(f"{node.args}_deps_count", node, "scalar").value
        if count == 1 and node.tid is not None:  # one entry: the barrier is that TaskId
            tid.value = self.cell(f"{node.args}_deps", node, "tid_array").value[0]
            return
        if count > 0:
            args = self.cell(node.args, node, "args").value
            outs = self.submit(args, None, node)
            if node.tid is not None:  # the submit's TaskOutputTensors live in the if's block only
                tid.value = outs.task_id

    # -- TaskIds ---------------------------------------------------------------------------------------------

    def tid_value(self, value, node):
        kind = value._production
        if kind == "TidInvalid":
            return None
        if kind == "TidCopy":
            if value.value._production != "Var":
                raise EmissionError("a TaskId copy of an expression", node=node)
            found = self.cell(value.value.name, node, "tid").value
        elif kind == "TidSlot":
            array = self.cell(value.array, node, "tid_array")
            found = array.value[self.slot(array, value.index, node)]
        else:
            raise EmissionError(f"the emission interpreter has no rule for {kind}", node=value)
        if found is UNINIT:
            raise EmissionError("reads a TaskId before it is initialised", node=node)
        return found

    def exec_DeclTid(self, node) -> None:
        self.declare(node.name, Cell("tid", self.tid_value(node.value, node)), node)

    def exec_AssignTid(self, node) -> None:
        self.cell(node.name, node, "tid").value = self.tid_value(node.value, node)

    def exec_DeclTidArray(self, node) -> None:
        self.declare(node.name, Cell("tid_array", [UNINIT] * node.size), node)

    def exec_FillTidArray(self, node) -> None:
        if node.declare:
            self.exec_DeclTidArray(node)
        array = self.cell(node.name, node, "tid_array")
        value = self.tid_value(node.value, node)
        for k in range(node.size):
            array.value[self.bounded(array, k, node)] = value

    def exec_CopyTidArray(self, node) -> None:
        dst = self.cell(node.dst, node, "tid_array")
        src = self.cell(node.src, node, "tid_array")
        for k in range(node.size):
            value = src.value[self.bounded(src, k, node)]
            if value is UNINIT:
                raise EmissionError(f"copies '{node.src}[{k}]' before it is initialised", node=node)
            dst.value[self.bounded(dst, k, node)] = value

    def exec_SetTidSlot(self, node) -> None:
        array = self.cell(node.array, node, "tid_array")
        array.value[self.slot(array, node.index, node)] = self.tid_value(node.value, node)

    # -- helpers ---------------------------------------------------------------------------------------------

    def slot(self, array: Cell, index_expr, node) -> int:
        return self.bounded(array, self.scalar(index_expr), node)

    def bounded(self, array: Cell, index: int, node) -> int:
        if not 0 <= index < len(array.value):
            raise ProgramFault(f"index {index} is outside an array of {len(array.value)}", getattr(node, "span", None))
        return index

    def u32_array(self, name: str, node, length: int) -> list[int]:
        array = self.cell(name, node, "u32_array")
        if len(array.value) < length:
            raise EmissionError(f"'{name}' has {len(array.value)} entries, {length} are read", node=node)
        return array.value[:length]

    def tensor_var(self, name: str, node) -> Tensor:
        value = self.cell(name, node, "tensor").value
        if value is UNINIT:
            raise EmissionError(f"reads tensor '{name}' before it is initialised", node=node)
        return value

    def tensor(self, expr) -> Tensor:
        if expr._production != "Var":
            raise EmissionError("a tensor value that is not a variable", node=expr)
        return self.tensor_var(expr.name, expr)

    def scalar(self, expr):
        return self.eval(expr)[0]

    def eval(self, expr) -> tuple[Any, str | None]:
        """(value, C type) of an expression; the C type is None for tensors and TaskIds."""
        kind = expr._production
        if kind == "Var":
            cell = self.cell(expr.name, expr)
            if cell.value is UNINIT:
                raise EmissionError(f"reads '{expr.name}' before it is initialised", node=expr)
            return cell.value, cell.ctype if cell.kind == "scalar" else None
        if kind == "Int":
            ctype = literal_type(expr.value)
            return convert(expr.value, ctype), ctype
        if kind == "Float":
            if expr.dtype is DType.FP32:
                return f32(expr.value), "float"
            return float(expr.value), "double"
        if kind == "Bool":
            return expr.value, "bool"
        if kind == "Cmp":
            (a, ta), (b, tb) = self.eval(expr.a), self.eval(expr.b)
            common = common_type(ta, tb)
            return COMPARE[expr.op.name](convert(a, common), convert(b, common)), "bool"
        if kind == "Un":
            a, ta = self.eval(expr.a)
            if expr.op.name == "not_":
                return (not a), "bool"
            ctype = promote(ta)
            if expr.op.name == "neg":
                return arith("-", convert(0, ctype), convert(a, ctype), ctype), ctype
            return convert(~int(a), ctype), ctype
        if kind == "Bin":
            op = expr.op.name
            if op in ("and_", "or_"):
                a, _ = self.eval(expr.a)
                if (op == "and_") != bool(a):
                    return bool(a), "bool"
                return bool(self.eval(expr.b)[0]), "bool"
            (a, ta), (b, tb) = self.eval(expr.a), self.eval(expr.b)
            if ta is None or tb is None:
                raise EmissionError("arithmetic on a value that is not a scalar", node=expr)
            ctype = promote(ta) if op in ("shl", "shr") else common_type(ta, tb)
            return arith(SYMBOL[op], convert(a, ctype), convert(b, promote(tb) if op in ("shl", "shr") else ctype), ctype), ctype
        raise EmissionError(f"the emission interpreter has no rule for expression {kind}", node=expr)

