"""print_cpp: the emission language -> C++ text, one node at a time.

Statement handlers (``emit``) return their line, which ``emit_all`` writes at the current
indentation (most statements are one line), or write their lines through the ``Emitter`` and
return None (blocks, and the statements of several lines); expression handlers (``fmt``) return
strings (``fmt`` itself writes the atoms and the binary operations, the usual ones).
Both dispatch with multipledispatch in this module's private namespaces, on the node type and
the emitter, so no state lives on a shared dispatch object. The ABI (D1) is a table
of spellings carried by the emitter; no handler decides anything a pass could have decided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from multipledispatch import dispatch

from nanopass.languages import EMISSION as E
from nanopass.languages.terms import ArgDir, BinOp, CmpOp, DType, Encoding, ScopeMode, UnOp

EMIT_NS: dict = {}
FMT_NS: dict = {}


@dataclass(frozen=True)
class Abi:
    """How one runtime release spells the same program (D1, D15, D17).

    Every field is a spelling the printer applies, but ``max_creates_per_alloc``: a fact about the
    target that ``batch_tensor_creates`` reads as the option of that name (the API and the command
    line set it from the ABI chosen; no pass knows the ABI's name).
    """

    name: str
    orch_args_type: str
    task_args_type: str
    external: str  # format with {name}, {slot}
    scalar_decode: tuple[str, ...]  # lines, format with {ctype}, {name}, {slot}
    dyn_dim: str  # format with {name}, {slot}, {axis}
    header_comment: bool  # D3: the file starts with `// Orchestration Function: <name>`
    config_return: tuple[str, ...]  # the config's return statement, format with {count}
    full_parens: bool  # every arithmetic and comparison in parentheses: `if ((n > 2))`
    fixed_floats: bool  # float literals with six decimals (`1.000000f`), as C's %f
    bool_literals: tuple[str, str]  # false, true in an expression
    bare_scalar_vars: bool  # an integer scalar variable passed to add_scalar without a cast
    one_line_slot_loops: bool  # TaskId array fills and copies as one line each
    clamp_view_extents: bool  # a slice's extents clamped to what is left of its source
    max_creates_per_alloc: int  # D8 / D17: creates per alloc_tensors call


SEED_ABI = Abi(
    name="seed",
    orch_args_type="ChipStorageTaskArgs",
    task_args_type="Arg",
    external="Tensor {name} = from_tensor_arg(orch_args.tensor({slot}));",
    scalar_decode=(
        "union {{ uint64_t u64; {ctype} val; }} {name}_conv;",
        "{name}_conv.u64 = orch_args.scalar({slot});",
        "{ctype} {name} = {name}_conv.val;",
    ),
    dyn_dim="int64_t {name} = (int64_t)orch_args.tensor({slot}).shapes[{axis}];",
    header_comment=True,
    config_return=("return PTO2OrchestrationConfig{{ .expected_arg_count = {count} }};",),
    full_parens=False,
    fixed_floats=False,
    bool_literals=("false", "true"),
    bare_scalar_vars=False,
    one_line_slot_loops=False,
    clamp_view_extents=False,
    max_creates_per_alloc=32,
)

L2_ABI = Abi(
    name="l2",
    orch_args_type="L2TaskArgs",
    task_args_type="L0TaskArgs",
    external="const Tensor& {name} = orch_args.tensor({slot}).ref();",
    scalar_decode=("{ctype} {name} = from_u64<{ctype}>(orch_args.scalar({slot}));",),
    dyn_dim="int64_t {name} = (int64_t)orch_args.tensor({slot}).ref().shapes[{axis}];",
    header_comment=False,
    config_return=("return PTO2OrchestrationConfig{{", "    .expected_arg_count = {count},", "}};"),
    full_parens=True,
    fixed_floats=True,
    bool_literals=("0", "1"),
    bare_scalar_vars=True,
    one_line_slot_loops=True,
    clamp_view_extents=True,
    max_creates_per_alloc=16,
)

ABIS = {abi.name: abi for abi in (SEED_ABI, L2_ABI)}


@dataclass(frozen=True)
class Backend:
    """What the chip a program runs on changes in the C++ (reference-behaviour.md section 10.5): the
    launch spec's block-count setter of an SPMD task."""

    name: str
    block_count_setter: str  # launch_spec.<setter>(N)


BACKENDS = {b.name: b for b in (Backend("Ascend910B", "set_block_num"), Backend("Ascend950", "set_core_num"))}
DEFAULT_BACKEND = "Ascend910B"


class Emitter:
    """Lines of output with the current indentation (4 spaces a level, 2 more inside a Block)."""

    def __init__(self, abi: Abi, backend: Backend = BACKENDS[DEFAULT_BACKEND]):
        self.abi = abi
        self.backend = backend
        self.lines: list[str] = []
        self.indent = ""  # the current indentation, written before each line
        self.outer: list[str] = []  # the indentations of the enclosing levels, innermost last
        self.footers: list[str] = []  # the line closing each open block, innermost last
        self.launch_texts: dict[int, str] = {}  # id of a launch node -> its text (the unit keeps the nodes alive)

    def line(self, text: str) -> None:
        self.lines.append(self.indent + text if text else "")

    def deeper(self, by: str = "    ") -> None:
        """The next lines are indented ``by`` more (until ``shallower``)."""
        self.outer.append(self.indent)
        self.indent += by

    def shallower(self) -> None:
        self.indent = self.outer.pop()

    def open(self, header: str) -> None:
        """``header``, then the next lines one level deeper, until ``close``."""
        indent = self.indent
        self.lines.append(indent + header)
        self.outer.append(indent)
        self.indent = indent + "    "

    def close(self, footer: str = "}") -> None:
        """Back to the level of the last ``open``, and ``footer`` there."""
        indent = self.indent = self.outer.pop()
        self.lines.append(indent + footer)

    def block(self, header: str, footer: str = "}") -> "Emitter":
        """``with out.block(header):`` writes ``header``, the body one level deeper, then ``footer``."""
        self.line(header)
        self.deeper()
        self.footers.append(footer)
        return self

    def __enter__(self) -> "Emitter":
        return self

    def __exit__(self, *exc) -> None:
        self.shallower()
        self.line(self.footers.pop())

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def print_cpp(unit, abi: Abi | str = SEED_ABI, backend: Backend | str = DEFAULT_BACKEND) -> str:
    """The C++ file for an emission ``Unit``."""
    out = Emitter(ABIS[abi] if isinstance(abi, str) else abi, BACKENDS[backend] if isinstance(backend, str) else backend)
    emit(unit, out)
    return out.text()


def emit_all(nodes, out: Emitter) -> None:
    """Each statement of ``nodes`` in order: the line its handler returns, at the current
    indentation (or several, joined by a newline and that indentation: a ``Submit`` that names
    its TaskId), or the lines the handler writes itself (it returns None).

    Returning the line rather than writing it through ``Emitter.line`` saves a call per line:
    most of the printer's work is calls (a handler per statement, a formatter per operand)."""
    handlers = EMIT_HANDLERS
    lines = out.lines
    for node in nodes:
        try:
            handler = handlers[type(node)]
        except KeyError:
            raise NotImplementedError(f"Could not find signature for emit: <{type(node).__name__}>") from None
        text = handler(node, out)
        if text is not None:
            lines.append(out.indent + text)


def resolved(namespace: dict, name: str, *rest: type) -> dict:
    """node class -> the handler the dispatcher ``name`` picks for it (with the other argument
    types fixed), for every class of the emission language it has one for.

    multipledispatch resolves by argument types alone, so the handler of a class is resolved once;
    the statement and expression walks look it up here instead of going through the dispatcher's
    general call path for every node. (A plain dict: a subclass's ``[]`` goes through a method
    call.)"""
    dispatcher = namespace[name]
    table = {}
    for cls in E.nodes.values():
        handler = dispatcher.dispatch(cls, *rest)
        if handler is not None:
            table[cls] = handler
    return table


# The spellings of the element types, as tables: a lookup instead of a property's call per use.
C_TYPES = {dtype: dtype.c_type for dtype in DType}  # the host C++ type of a scalar
RUNTIME_TYPES = {dtype: dtype.runtime for dtype in DType}  # the runtime's ``DataType`` enumerator
# The text of each small non-negative integer (extents, counts, indices, kernel ids): a tuple
# index instead of a conversion (``str`` of an int costs several times more). Read as
# ``SMALL_INTS[v] if 0 <= v < SMALL else int_text(v)``.
SMALL = 4096
SMALL_INTS = tuple(str(i) for i in range(SMALL))


def int_text(v: int) -> str:
    """An integer literal: one past ``long``'s range carries ``UL`` (bare, g++ types it
    ``__int128`` with a warning; tools/cvalues.py reads it as ``uint64_t``)."""
    return str(v) if v <= 9223372036854775807 else f"{v}UL"


# The enum members the handlers compare against, read once (one read through the class costs a
# descriptor call).
MANUAL, TO_U64 = ScopeMode.manual, Encoding.to_u64


# -- the file ---------------------------------------------------------------------------------------


@dispatch(E.Unit, Emitter, namespace=EMIT_NS)
def emit(unit, out):
    abi = out.abi
    if abi.header_comment:
        out.line(f"// Orchestration Function: {unit.func}")
    for header in ("<stddef.h>", "<stdint.h>", "<stdio.h>"):
        out.line(f"#include {header}")
    out.line("")
    out.line('#include "pto_orchestration_api.h"')
    out.line("")
    out.line('extern "C" {')
    out.line("")
    out.line('__attribute__((visibility("default")))')
    with out.block(f"PTO2OrchestrationConfig aicpu_orchestration_config(const {abi.orch_args_type}& orch_args) {{"):
        out.line("(void)orch_args;")
        for line in abi.config_return:
            out.line(line.format(count=unit.arg_count))
    out.line("")
    out.line('__attribute__((visibility("default")))')
    with out.block(f"void aicpu_orchestration_entry(const {abi.orch_args_type}& orch_args) {{"):
        out.line("// External tensors")
        emit_all(unit.externals, out)
        if unit.scalars:
            out.line("")
            out.line("// Scalar params")
            emit_all(unit.scalars, out)
        if unit.dyn_defs:
            out.line("")
            out.line("// Dynamic-dim symbols (extent of the declaring argument)")
            emit_all(unit.dyn_defs, out)
        out.line("")
        emit_all(unit.body, out)
    out.line("")
    out.line('}  // extern "C"')


@dispatch(E.External, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811 - multipledispatch overloads
    return out.abi.external.format(name=node.name, slot=node.slot)


@dispatch(E.EntryScalar, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    for line in out.abi.scalar_decode:
        out.line(line.format(ctype=C_TYPES[node.dtype], name=node.name, slot=node.slot))


@dispatch(E.DynDef, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return out.abi.dyn_dim.format(name=node.name, slot=node.slot, axis=node.axis)


# -- statements --------------------------------------------------------------------------------------


@dispatch(E.Blank, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    out.line("")  # (no indentation on an empty line)


@dispatch(E.Comment, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"// {node.text}"


@dispatch(E.ScopeBlock, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    indent = out.indent  # (``open`` and ``close`` written here: the body's handlers leave the level as they found it)
    out.lines.append(f"{indent}PTO2_SCOPE(PTO2ScopeMode::MANUAL) {{" if node.mode is MANUAL else f"{indent}PTO2_SCOPE() {{")
    out.indent = indent + "    "
    emit_all(node.body, out)
    out.indent = indent
    out.lines.append(f"{indent}}}")


@dispatch(E.Block, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    out.line("{")
    out.deeper("  ")
    emit_all(node.body, out)
    out.shallower()
    out.line("}")


@dispatch(E.ForBlock, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    v, abi = node.var, out.abi
    start, stop, step = node.start, node.stop, node.step  # (most often numbers, or a name)
    start = SMALL_INTS[start.value] if type(start) is INT and 0 <= start.value < SMALL else fmt(start, abi)
    kind = type(stop)
    stop = stop.name if kind is VAR else SMALL_INTS[stop.value] if kind is INT and 0 <= stop.value < SMALL else fmt(stop, abi)
    step = SMALL_INTS[step.value] if type(step) is INT and 0 <= step.value < SMALL else fmt(step, abi)
    indent = out.indent  # (``open`` and ``close`` written here, as ScopeBlock's)
    out.lines.append(f"{indent}for (int64_t {v} = {start}; {v} < {stop}; {v} += {step}) {{")
    out.indent = indent + "    "
    emit_all(node.body, out)
    out.indent = indent
    out.lines.append(f"{indent}}}")


@dispatch(E.WhileBlock, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    out.open(f"while ({fmt(node.cond, out.abi)}) {{")
    emit_all(node.body, out)
    out.close()


@dispatch(E.IfBlock, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    out.open(f"if ({fmt(node.cond, out.abi)}) {{")
    emit_all(node.then, out)
    if node.orelse:
        out.close("} else {")
        out.deeper()
        emit_all(node.orelse, out)
    out.close()


@dispatch(E.DeclScalar, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    init = f" = {fmt(node.value, out.abi)}" if node.value is not None else ""
    return f"{C_TYPES[node.dtype]} {node.name}{init};"


@dispatch(E.DeclTensor, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    init = f" = {fmt(node.value, out.abi)}" if node.value is not None else ""
    return f"Tensor {node.name}{init};"


@dispatch(E.AssignVar, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.name} = {fmt(node.value, out.abi)};"


@dispatch(E.ShapeArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    values = node.values
    n = len(values)
    return f"uint32_t {node.name}[{SMALL_INTS[n] if n < SMALL else n}] = {{{', '.join(u32_texts(values, out.abi))}}};"


@dispatch(E.ViewExtents, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    values = u32_texts(node.values, out.abi)
    if node.clamp or out.abi.clamp_view_extents:
        t, o = node.tensor, node.offsets
        values = [
            f"({o}[{i}] >= {t}.shapes[{i}] ? 0u : std::min<uint32_t>({v}, {t}.shapes[{i}] - {o}[{i}]))"
            for i, v in enumerate(values)
        ]
    return f"uint32_t {node.name}[{len(node.values)}] = {{{', '.join(values)}}};"


@dispatch(E.CreateInfo, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    manual = ", /*manual_dep=*/true" if node.manual_dep else ""
    n = node.ndims
    return f"TensorCreateInfo {node.name}({node.shapes}, {SMALL_INTS[n] if 0 <= n < SMALL else n}, DataType::{RUNTIME_TYPES[node.dtype]}{manual});"


@dispatch(E.SetInitial, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    value = node.value
    if value._production == "Int" and value.value == 0:
        return f"{node.info}.set_initial_value(0);"
    return f"{node.info}.set_initial_value(static_cast<{C_TYPES[node.dtype]}>({fmt_literal(value, out.abi)}));"


@dispatch(E.AllocTensors, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"TaskOutputTensors {node.name} = alloc_tensors({', '.join(node.infos)});"


@dispatch(E.BindRef, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    i = node.index
    return f"const Tensor& {node.name} = {node.source}.get_ref({SMALL_INTS[i] if 0 <= i < SMALL else i});"


@dispatch(E.AssignRef, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.name} = {node.source}.get_ref({node.index});"


@dispatch(E.ReadElement, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    t = C_TYPES[node.dtype]
    read = f"get_tensor_data<{t}>({node.tensor}, {node.ndims}, {node.indices or 'nullptr'});"
    return f"{t} {node.name} = {read}" if node.name is not None else read  # (None: only its wait)


@dispatch(E.WriteElement, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    t = C_TYPES[node.dtype]
    return f"set_tensor_data<{t}>({node.tensor}, {node.ndims}, {node.indices or 'nullptr'}, {fmt(node.value, out.abi)});"


def _untracked(view) -> str:
    """A view op's trailing ``in_manual_dep`` argument (omitted when false, its default)."""
    return ", /*in_manual_dep=*/true" if view.manual_dep else ""


@dispatch(E.ViewTensor, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"Tensor {node.name} = {node.tensor}.view({node.shapes}, {node.offsets}{_untracked(node)});"


@dispatch(E.TransposeView, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"Tensor {node.name} = {node.tensor}.transpose({node.axis1}, {node.axis2}{_untracked(node)});"


@dispatch(E.ReshapeView, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"Tensor {node.name} = {node.tensor}.reshape({node.shapes}, {node.ndims}{_untracked(node)});"


@dispatch(E.ReadDim, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"int64_t {node.name} = (int64_t){node.tensor}.shapes[{node.axis}];"


ADD_METHOD = {
    ArgDir.Input: "add_input",
    ArgDir.Output: "add_output",
    ArgDir.OutputExisting: "add_output",
    ArgDir.InOut: "add_inout",
    ArgDir.NoDep: "add_no_dep",
}


@dispatch(E.TaskArgs, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    # (its lines appended here, the lists read by index: one call for the whole head)
    indent, name, abi = out.indent, node.name, out.abi
    lines = out.lines
    if node.blank:
        lines.append("")
    if node.comment is not None:
        lines.append(f"{indent}// {node.comment}")
    lines.append(f"{indent}{abi.task_args_type} {name};")
    call = indent + name
    dirs = node.dirs
    i = 0
    for tensor in node.tensors:
        lines.append(f"{call}.{ADD_METHOD[dirs[i]]}({tensor});")
        i += 1
    i = 0
    for value in node.scalars:  # (their encodings and the ABI read per scalar: most tasks have none)
        encoding = node.encodings[i]
        if encoding is not TO_U64 and not abi.bare_scalar_vars:  # (``fmt_scalar_arg``'s usual case, here: the value cast)
            lines.append(f"{call}.add_scalar((uint64_t){fmt(value, abi, PREC_UNARY)});")
        else:
            lines.append(f"{call}.add_scalar({fmt_scalar_arg(value, encoding, abi)});")
        i += 1


def fmt_scalar_arg(value, encoding: Encoding, abi: Abi) -> str:
    """A task's scalar argument as its uint64 slot (D4): floats by ``to_u64``, others cast. The l2
    spelling (the reference's) passes an integer variable bare and casts a literal to its own type
    first, ``(uint64_t)static_cast<int32_t>(7)`` (``(uint64_t)7`` for 64-bit and index literals)."""
    if encoding is TO_U64:
        return f"to_u64({fmt(value, abi)})"
    if abi.bare_scalar_vars:
        kind = value._production
        if kind == "Var":
            return value.name
        if kind == "Bool":
            return f"(uint64_t){int(value.value)}"
        if kind == "Int" and value.dtype not in (DType.INT64, DType.INDEX):
            return f"(uint64_t)static_cast<{C_TYPES[value.dtype]}>({value.value})"
    return f"(uint64_t){fmt(value, abi, PREC_UNARY)}"


@dispatch(E.Deps, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    """A dependency array, a ``Deps``' or a ``GuardedDummy``'s (``dep_lines``): declared, an entry
    per push (a loop over an array's slots), then set."""
    indent, abi = out.indent, out.abi
    lines = out.lines
    args, size = node.args, node.size
    deps = f"{args}_deps"
    lines.append(f"{indent}PTO2TaskId {deps}[{SMALL_INTS[size] if size < SMALL else size}];")
    lines.append(f"{indent}uint32_t {deps}_count = 0;")
    push = f"{deps}[{deps}_count++] = "
    for entry in node.pushes:
        if type(entry) is PUSH_DEP:
            tid, index = entry.tid, entry.index
            if index is not None:
                tid = f"{tid}[{fmt(index, abi)}]"
            lines.append(f"{indent}if ({tid}.is_valid()) {push}{tid};" if entry.guarded else f"{indent}{push}{tid};")
        else:
            k, a = entry.loop, entry.array
            lines.append(f"{indent}for (int64_t {k} = 0; {k} < {entry.size}; ++{k}) {{")
            lines.append(f"{indent}    if ({a}[{k}].is_valid()) {push}{a}[{k}];")
            lines.append(f"{indent}}}")
    lines.append(f"{indent}{args}.set_dependencies({deps}, {deps}_count);")


dep_lines = emit.dispatch(E.Deps, Emitter)  # (the Deps handler, a GuardedDummy's array too)


@dispatch(E.DumpArgs, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.args}.dump({', '.join(node.tensors)});"


@dispatch(E.AllowEarlyResolve, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.args}.set_allow_early_resolve(true);"


@dispatch(E.SetBlockNum, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.args}.launch_spec.{out.backend.block_count_setter}({fmt(node.value, out.abi)});"


@dispatch(E.SetSyncStart, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.args}.launch_spec.set_require_sync_start(true);"


@dispatch(E.DeclMixed, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    aiv1 = str(node.aiv1) if node.aiv1 is not None else "INVALID_KERNEL_ID"
    return f"MixedKernels {node.name} = {{{node.aic}, {node.aiv0}, {aiv1}}};"


@dispatch(E.Submit, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    launch = node.launch
    head = out.launch_texts.get(id(launch))  # (a kernel's tasks share its launch node)
    if head is None:
        head = out.launch_texts[id(launch)] = FMT_LAUNCH_HANDLERS[type(launch)](launch)  # (``launch_text``)
    call = f"{head}{node.args});"
    if node.outs is None:
        return call
    if node.tid is None:
        return f"TaskOutputTensors {node.outs} = {call}"
    # (two lines in one text, the second at the same indentation as the first: ``emit_all``'s)
    return f"TaskOutputTensors {node.outs} = {call}\n{out.indent}PTO2TaskId {node.tid} = {node.outs}.task_id();"


@dispatch(E.DeclTid, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"PTO2TaskId {node.name} = {tid_text(node.value, out.abi)};"


@dispatch(E.AssignTid, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.name} = {tid_text(node.value, out.abi)};"


@dispatch(E.DeclTidArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"PTO2TaskId {node.name}[{node.size}];"


@dispatch(E.FillTidArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    decl = f"PTO2TaskId {node.name}[{node.size}];"
    if node.declare and not out.abi.one_line_slot_loops:
        out.line(decl)
    k = node.loop
    slot_loop(out, k, node.size, f"{node.name}[{k}] = {tid_text(node.value, out.abi)};", decl if node.declare else "")


@dispatch(E.CopyTidArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    k = node.loop
    slot_loop(out, k, node.size, f"{node.dst}[{k}] = {node.src}[{k}];")


def slot_loop(out: Emitter, k: str, size: int, body: str, before: str = "") -> None:
    """``for (k = 0; k < size; ++k) body`` over a TaskId array's slots: a block of three lines, or
    one line (l2, after ``before`` on the same line)."""
    header = f"for (int64_t {k} = 0; {k} < {size}; ++{k})"
    if out.abi.one_line_slot_loops:
        out.line(f"{before} {header} {body}" if before else f"{header} {body}")
        return
    with out.block(header + " {"):
        out.line(body)


@dispatch(E.SetTidSlot, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.array}[{fmt(node.index, out.abi)}] = {tid_text(node.value, out.abi)};"


@dispatch(E.DeclArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{C_TYPES[node.dtype]} {node.name}[{node.size}] = {{}};"


@dispatch(E.CopyArray, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    k = node.loop
    slot_loop(out, k, node.size, f"{node.dst}[{k}] = {node.src}[{k}];")


@dispatch(E.DeclElement, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{C_TYPES[node.dtype]} {node.name} = {node.array}[{fmt(node.index, out.abi)}];"


@dispatch(E.SetArrayItem, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    return f"{node.array}[{fmt(node.index, out.abi)}] = {fmt(node.value, out.abi)};"


@dispatch(E.GuardedDummy, Emitter, namespace=EMIT_NS)
def emit(node, out):  # noqa: F811
    dep_lines(node, out)  # (never empty: emission.check_task_heads)
    # (the lines after the array appended here, each one format: no Emitter call per line or level)
    indent, args, tid = out.indent, node.args, node.tid
    inner = indent + "    "
    if tid is None:
        out.lines += (f"{indent}if ({args}_deps_count > 0) {{", f"{inner}rt_submit_dummy_task({args});", f"{indent}}}")
        return
    # one entry: the barrier is that TaskId, no dummy is submitted
    outs = node.outs
    out.lines += (
        f"{indent}PTO2TaskId {tid} = PTO2TaskId::invalid();",
        f"{indent}if ({args}_deps_count == 1) {{",
        f"{inner}{tid} = {args}_deps[0];",
        f"{indent}}} else if ({args}_deps_count > 1) {{",
        f"{inner}TaskOutputTensors {outs} = rt_submit_dummy_task({args});",
        f"{inner}{tid} = {outs}.task_id();",
        f"{indent}}}",
    )


# -- launches and TaskId values ------------------------------------------------------------------------


@dispatch(E.AicLaunch, namespace=FMT_NS)
def fmt_launch(node):
    i = node.id
    return f"rt_submit_aic_task({SMALL_INTS[i] if 0 <= i < SMALL else i}, "


@dispatch(E.AivLaunch, namespace=FMT_NS)
def fmt_launch(node):  # noqa: F811
    i = node.id
    return f"rt_submit_aiv_task({SMALL_INTS[i] if 0 <= i < SMALL else i}, "


@dispatch(E.MixedLaunch, namespace=FMT_NS)
def fmt_launch(node):  # noqa: F811
    return f"rt_submit_task({node.mixed}, "


@dispatch(E.DummyLaunch, namespace=FMT_NS)
def fmt_launch(node):  # noqa: F811
    return "rt_submit_dummy_task("


@dispatch(E.TidInvalid, Abi, namespace=FMT_NS)
def fmt_tid(node, abi):
    return "PTO2TaskId::invalid()"


@dispatch(E.TidCopy, Abi, namespace=FMT_NS)
def fmt_tid(node, abi):  # noqa: F811
    return fmt(node.value, abi)


@dispatch(E.TidSlot, Abi, namespace=FMT_NS)
def fmt_tid(node, abi):  # noqa: F811
    return f"{node.array}[{fmt(node.index, abi)}]"


# The handler of each launch and TaskId class, resolved once (as ``EMIT_HANDLERS``): a Submit and
# most TaskId statements format one of each, without the dispatcher's general call path.
FMT_LAUNCH_HANDLERS = resolved(FMT_NS, "fmt_launch")
FMT_TID_HANDLERS = resolved(FMT_NS, "fmt_tid", Abi)


def launch_text(node) -> str:
    """``fmt_launch(node)``."""
    return FMT_LAUNCH_HANDLERS[type(node)](node)


def tid_text(node, abi: Abi) -> str:
    """``fmt_tid(node, abi)``; the usual values, the invalid id and a copy of a TaskId variable,
    written here without their handlers' calls."""
    cls = type(node)
    if cls is TID_COPY:
        value = node.value
        if type(value) is VAR:
            return value.name
    elif cls is TID_INVALID:
        return "PTO2TaskId::invalid()"
    return FMT_TID_HANDLERS[cls](node, abi)


# -- expressions ---------------------------------------------------------------------------------------
# Precedence, higher binds tighter (C++). A child is parenthesized when it binds looser than its
# parent, or equally on the right of a left-associative operator: a - (b - c), but a - b - c.
# Besides, the operands g++ -Wparentheses (in -Wall) asks to see parenthesized are: a sum inside a
# shift, (a - 1) >> 63, a conjunction inside a disjunction, a || (b && c), and a comparison inside a
# comparison, (a < b) == c (``WARNED``).
# With ``Abi.full_parens`` every operation is parenthesized instead, the outermost too:
# ((a - b) - c), as the reference prints them.

PREC_OR, PREC_AND, PREC_EQ, PREC_REL, PREC_SHIFT, PREC_ADD, PREC_MUL, PREC_UNARY, PREC_ATOM = range(1, 10)

BINARY = {
    BinOp.or_: ("||", PREC_OR),
    BinOp.and_: ("&&", PREC_AND),
    BinOp.shl: ("<<", PREC_SHIFT),
    BinOp.shr: (">>", PREC_SHIFT),
    BinOp.add: ("+", PREC_ADD),
    BinOp.sub: ("-", PREC_ADD),
    BinOp.mul: ("*", PREC_MUL),
    BinOp.div: ("/", PREC_MUL),
    BinOp.floordiv: ("/", PREC_MUL),
    BinOp.mod: ("%", PREC_MUL),
}
COMPARE = {
    CmpOp.eq: ("==", PREC_EQ),
    CmpOp.ne: ("!=", PREC_EQ),
    CmpOp.lt: ("<", PREC_REL),
    CmpOp.le: ("<=", PREC_REL),
    CmpOp.gt: (">", PREC_REL),
    CmpOp.ge: (">=", PREC_REL),
}
WARNED = {  # an operation's precedence -> the operands' precedences parenthesized whatever they bind
    PREC_SHIFT: frozenset({PREC_ADD}),
    PREC_OR: frozenset({PREC_AND}),
    PREC_EQ: frozenset({PREC_EQ, PREC_REL}),
    PREC_REL: frozenset({PREC_EQ, PREC_REL}),
}
NOT_WARNED: frozenset = frozenset()
UNARY = {UnOp.neg: "-", UnOp.not_: "!", UnOp.invert: "~"}
OPERATIONS = frozenset({"Bin", "Cmp", "Un"})
VAR, INT, PUSH_DEP, TID_COPY, TID_INVALID = E.Var, E.Int, E.PushDep, E.TidCopy, E.TidInvalid
# the binary operations ``fmt`` writes itself: operator -> (text, precedence, the operands' precedences
# parenthesized whatever they bind)
OPERATORS = {
    cls: {op: (text, prec, WARNED.get(prec, NOT_WARNED)) for op, (text, prec) in table.items()}
    for cls, table in ((E.Bin, BINARY), (E.Cmp, COMPARE))
}
BIN, BIN_OPERATORS = E.Bin, OPERATORS[E.Bin]


def fmt(expr, abi: Abi, min_prec: int = 0, right: bool = False, warned: frozenset = NOT_WARNED) -> str:
    """An expression as C++, parenthesized for a context of precedence ``min_prec`` (and when its
    precedence is in ``warned``)."""
    cls = type(expr)
    if cls is VAR:  # the atoms, never parenthesized, written here without their handlers' call
        return expr.name
    if cls is INT:
        v = expr.value
        if 0 <= v < SMALL:
            return SMALL_INTS[v]
        if v >= 0:
            return int_text(v)
    operators = BIN_OPERATORS if cls is BIN else OPERATORS.get(cls)  # (an arithmetic operation: most operations)
    if operators is not None:  # a binary operation: written here from its table, an atom operand inline
        op, prec, inner = operators[expr.op]
        a, b = expr.a, expr.b
        kind = type(a)
        if kind is VAR:
            left = a.name
        elif kind is INT and a.value >= 0:
            v = a.value
            left = SMALL_INTS[v] if v < SMALL else int_text(v)
        else:
            left = fmt(a, abi, prec, False, inner)
        kind = type(b)
        if kind is VAR:
            text = f"{left} {op} {b.name}"
        elif kind is INT and b.value >= 0:
            v = b.value
            text = f"{left} {op} {SMALL_INTS[v] if v < SMALL else int_text(v)}"
        else:
            text = f"{left} {op} {fmt(b, abi, prec, True, inner)}"
    else:
        text, prec = FMT_EXPR_HANDLERS[cls](expr, abi)
    if abi.full_parens:
        return f"({text})" if expr._production in OPERATIONS else text
    if prec < min_prec or (right and prec == min_prec) or prec in warned:
        return f"({text})"
    return text


@dispatch(E.Var, Abi, namespace=FMT_NS)
def fmt_expr(node, abi):
    return node.name, PREC_ATOM


@dispatch(E.Int, Abi, namespace=FMT_NS)
def fmt_expr(node, abi):  # noqa: F811
    return fmt_literal(node, abi), PREC_ATOM if node.value >= 0 else PREC_UNARY


@dispatch(E.Float, Abi, namespace=FMT_NS)
def fmt_expr(node, abi):  # noqa: F811
    return fmt_literal(node, abi), PREC_ATOM if node.value >= 0 else PREC_UNARY


@dispatch(E.Bool, Abi, namespace=FMT_NS)
def fmt_expr(node, abi):  # noqa: F811
    return abi.bool_literals[bool(node.value)], PREC_ATOM


@dispatch(E.Un, Abi, namespace=FMT_NS)
def fmt_expr(node, abi):  # noqa: F811
    op, operand = UNARY[node.op], fmt(node.a, abi, PREC_UNARY)
    if operand[0] == op == "-":  # a negation of a negation or of a negative literal: `--x` is a decrement
        operand = f"({operand})"
    return f"{op}{operand}", PREC_UNARY


FMT_EXPR_HANDLERS = resolved(FMT_NS, "fmt_expr", Abi)


def fmt_literal(node, abi: Abi) -> str:
    """A number: an FP32 float carries ``f``; ``fixed_floats`` writes six decimals (``2.500000f``)
    when they hold the whole value (``1e-07f`` stays as it is)."""
    if node._production == "Int":
        return int_text(node.value)
    value = float(node.value)
    text = repr(value)
    if abi.fixed_floats and math.isfinite(value) and float(f"{value:f}") == value:  # only if nothing is lost
        text = f"{value:f}"
    return text + "f" if node.dtype is DType.FP32 else text


def fmt_u32(expr, abi: Abi) -> str:
    """A value in a uint32_t context: integer literals bare, anything else cast."""
    if type(expr) is INT and expr.value >= 0:
        return str(expr.value)
    return f"static_cast<uint32_t>({fmt(expr, abi)})"


def u32_texts(values, abi: Abi) -> list[str]:
    """``fmt_u32`` of each of ``values`` (a shape's extents: mostly small integer literals, written
    here without a call)."""
    texts = []
    for value in values:
        texts.append(SMALL_INTS[value.value] if type(value) is INT and 0 <= value.value < SMALL else fmt_u32(value, abi))
    return texts


# The handler of each statement class (every ``emit`` is defined by now).
EMIT_HANDLERS = resolved(EMIT_NS, "emit", Emitter)
