"""A recording runtime in Python: what both interpreters call instead of PTO2.

It mirrors ``tools/recording_runtime.cpp`` call for call, so that the Python interpreters and the
compiled C++ produce the same trace for the same program: ids are handed out to allocs and
submits from one counter; OUTPUT slots and ``alloc_tensors`` make fresh buffers whose Tensors
carry their creator as owner; element reads and writes go to a memory model in which kernels
never write (a read returns the last host write, else the buffer's fill value, else 0); after a
fatal error every call is a no-op. ``Tensor`` mirrors the runtime's struct and its view
operations (a view is ``manual_dep`` only when its ``in_manual_dep`` argument says so, as in
``Tensor::view``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from nanopass.languages.terms import ArgDir

from .cvalues import ELEMENT_SIZE, element_bits
from .trace import (
    Alloc,
    Buffer,
    Copy,
    Fatal,
    HostRead,
    HostWrite,
    ScopeBegin,
    ScopeEnd,
    Task,
    TensorArg,
    Trace,
    View,
    row_major_strides,
)

MAX_TENSOR_DIMS = 5

# The runtime tag of each call-site direction (ArgDir.Scalar has none).
TAG = {
    ArgDir.Input: "INPUT",
    ArgDir.Output: "OUTPUT",
    ArgDir.InOut: "INOUT",
    ArgDir.OutputExisting: "OUTPUT_EXISTING",
    ArgDir.NoDep: "NO_DEP",
}


class Halted(Exception):
    """Raised by an interpreter when the runtime has gone fatal: the trace ends there."""


@dataclass(frozen=True)
class Tensor:
    """The fields of the runtime's ``Tensor`` that the trace needs (version is always 0)."""

    buffer: str
    owner: int | None
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str
    manual_dep: bool = False

    def view(self, shape, offsets, in_manual_dep: bool = False) -> "Tensor":
        offset = self.offset + sum(o * s for o, s in zip(offsets, self.strides))
        return replace(self, offset=offset, shape=tuple(shape), manual_dep=in_manual_dep)

    def transpose(self, x: int, y: int, in_manual_dep: bool = False) -> "Tensor":
        shape, strides = list(self.shape), list(self.strides)
        shape[x], shape[y] = shape[y], shape[x]
        strides[x], strides[y] = strides[y], strides[x]
        return replace(self, shape=tuple(shape), strides=tuple(strides), manual_dep=in_manual_dep)

    def reshape(self, shape, in_manual_dep: bool = False) -> "Tensor":
        shape = tuple(shape)
        return replace(self, shape=shape, strides=row_major_strides(shape), manual_dep=in_manual_dep)

    def as_view(self) -> View:
        return View(self.buffer, self.offset, self.shape, self.strides)


@dataclass(frozen=True)
class CreateInfo:
    shape: tuple[int, ...]
    dtype: str
    manual_dep: bool = False
    init: int | None = None  # set_initial_value's bits


@dataclass(frozen=True)
class EntryTensor:
    shape: tuple[int, ...]
    dtype: str
    label: str = ""


@dataclass(frozen=True)
class Inputs:
    """The orchestration entry's arguments: tensors (shape, dtype) and scalar slots (uint64 bits)."""

    tensors: tuple[EntryTensor, ...] = ()
    scalars: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {
            "tensors": [{"shape": list(t.shape), "dtype": t.dtype, "label": t.label} for t in self.tensors],
            "scalars": list(self.scalars),
        }


class RuntimeFault(Exception):
    """A call the runtime would reject fatally; the runtime records it and becomes a no-op."""


@dataclass
class SimRuntime:
    inputs: Inputs
    trace: Trace = field(default_factory=Trace)

    def __post_init__(self):
        self.next_id = 0
        self.fatal = False
        self.scopes: list[str] = []
        self.memory: dict[str, dict[int, int]] = {}
        self.known_ids: set[int] = set()
        self.entries: list[Tensor] = []
        for slot, entry in enumerate(self.inputs.tensors):
            name = f"in{slot}"
            self.trace.buffers[name] = Buffer(name, entry.shape, entry.dtype, "entry", slot, label=entry.label)
            self.memory[name] = {}
            self.entries.append(Tensor(name, None, 0, entry.shape, row_major_strides(entry.shape), entry.dtype))

    # -- state -------------------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        return "manual" if "manual" in self.scopes else "auto"

    def fail(self, message: str) -> None:
        if not self.fatal:
            self.trace.events.append(Fatal(message))
        self.fatal = True

    def new_buffer(self, info: CreateInfo, origin: str, label: str = "") -> str:
        name = f"b{len(self.trace.buffers) - len(self.inputs.tensors)}"
        self.trace.buffers[name] = Buffer(name, info.shape, info.dtype, origin, None, info.manual_dep, info.init, label)
        self.memory[name] = {}
        return name

    def fresh_id(self) -> int:
        task_id = self.next_id
        self.next_id += 1
        self.known_ids.add(task_id)
        return task_id

    # -- the API -----------------------------------------------------------------------------------

    def scope_begin(self, mode: str, line: int | None = None) -> None:
        if self.fatal:
            return
        if mode == "auto" and "manual" in self.scopes:
            self.fail("rt_scope_begin: AUTO scope inside a MANUAL scope")
            return
        self.scopes.append(mode)
        self.trace.events.append(ScopeBegin(mode, line))

    def scope_end(self) -> None:
        if self.fatal:
            return
        if not self.scopes:
            self.fail("rt_scope_end: no open scope")
            return
        self.scopes.pop()
        self.trace.events.append(ScopeEnd())

    def alloc(self, infos: list[CreateInfo], labels: list[str] | None = None, line: int | None = None):
        """``alloc_tensors``: (task id, the new Tensors), or (None, []) when fatal."""
        if self.fatal:
            return None, []
        if not 1 <= len(infos) <= 32:
            self.fail("alloc_tensors: needs 1..32 create-infos")
            return None, []
        if not all(self.check_info(info) for info in infos):
            return None, []
        task_id = self.fresh_id()
        tensors, names = [], []
        for i, info in enumerate(infos):
            name = self.new_buffer(info, "alloc", labels[i] if labels else "")
            names.append(name)
            tensors.append(self.made(name, info, task_id))
        self.trace.events.append(Alloc(task_id, tuple(names), line))
        return task_id, tensors

    def check_info(self, info: CreateInfo) -> bool:
        if not 1 <= len(info.shape) <= MAX_TENSOR_DIMS:
            self.fail("TensorCreateInfo: ndims must be 1..5")
            return False
        return True

    def made(self, name: str, info: CreateInfo, owner: int) -> Tensor:
        return Tensor(name, owner, 0, info.shape, row_major_strides(info.shape), info.dtype, info.manual_dep)

    def submit(
        self,
        launch: tuple[int, int, int] | None,
        tensors: list[tuple["Tensor | CreateInfo", str]],
        scalars: list[int],
        deps: list[int],
        *,
        dummy: bool = False,
        kernel: str | None = None,
        line: int | None = None,
        par: tuple = (),
        derived: tuple[int, ...] = (),
        site: str = "",
    ):
        """A kernel submit or a dummy task: (task id, OUTPUT Tensors). ``launch`` may be None for a
        kernel whose id the caller does not know yet (the trace then names only the kernel)."""
        if self.fatal:
            return None, []
        if launch is not None and all(k < 0 for k in launch):
            self.fail("submit: MixedKernels has no valid kernel")
            return None, []
        if len(tensors) > 32 or len(scalars) > 16:
            self.fail("submit: too many arguments")
            return None, []
        for dep in deps:
            if dep not in self.known_ids:
                self.fail("submit: invalid explicit dependency")
                return None, []
        for value, tag in tensors:
            if tag != "OUTPUT" and not self.inside(value):
                self.fail("submit: a tensor view lies outside its buffer")
                return None, []
        task_id = self.fresh_id()
        args, outputs, out_names = [], [], []
        for value, tag in tensors:
            if tag == "OUTPUT":
                if not isinstance(value, CreateInfo) or not self.check_info(value):
                    self.fail("submit: OUTPUT slot without a create-info")
                    return None, []
                name = self.new_buffer(value, "output")
                made = self.made(name, value, task_id)
                outputs.append(made)
                out_names.append(name)
                args.append(TensorArg(made.as_view(), tag, value.manual_dep, task_id))
            else:
                args.append(TensorArg(value.as_view(), tag, value.manual_dep, value.owner))
        kind = "dummy" if dummy else "kernel"
        self.trace.events.append(
            Task(task_id, kind, launch, tuple(args), tuple(scalars), tuple(deps), self.mode, tuple(out_names), kernel,
                 line, par, derived, site)
        )
        return task_id, outputs

    def inside(self, tensor: Tensor) -> bool:
        """Every element of the view lies in its buffer."""
        numel = 1
        for d in self.trace.buffers[tensor.buffer].shape:
            numel *= d
        if any(s == 0 for s in tensor.shape):
            return True
        last = tensor.offset + sum((s - 1) * st for s, st in zip(tensor.shape, tensor.strides))
        return last < numel

    def get(self, tensor: Tensor, index, line: int | None = None, par: tuple = ()) -> int:
        """``get_tensor_data``: the element's bits (0 when fatal)."""
        if self.fatal:
            return 0
        flat = self.flat(tensor, index)
        if flat is None:
            return 0
        bits = self.load(tensor.buffer, flat)
        self.trace.events.append(
            HostRead(tensor.as_view(), tuple(index), bits, tensor.manual_dep, tensor.owner, line, par)
        )
        return bits

    def set(self, tensor: Tensor, index, bits: int, line: int | None = None, par: tuple = ()) -> None:
        if self.fatal:
            return
        flat = self.flat(tensor, index)
        if flat is None:
            return
        bits = element_bits(bits, tensor.dtype)
        self.memory[tensor.buffer][flat] = bits
        self.trace.events.append(
            HostWrite(tensor.as_view(), tuple(index), bits, tensor.manual_dep, tensor.owner, line, par)
        )

    def copy(self, source: Tensor, target: Tensor, line: int | None = None) -> None:
        """``pl.assemble`` as written (no runtime call does this): the source's elements into the
        target view of the same shape."""
        if self.fatal:
            return
        if source.shape != target.shape or not (self.inside(source) and self.inside(target)):
            self.fail("assemble: the source does not fit its place in the target")
            return
        for index in _indices(source.shape):
            value = self.load(source.buffer, source.offset + sum(i * s for i, s in zip(index, source.strides)))
            self.memory[target.buffer][target.offset + sum(i * s for i, s in zip(index, target.strides))] = value
        self.trace.events.append(Copy(source.as_view(), target.as_view(), line))

    def flat(self, tensor: Tensor, index) -> int | None:
        buf = self.trace.buffers[tensor.buffer]
        numel = 1
        for d in buf.shape:
            numel *= d
        if len(index) != len(tensor.shape) or any(not 0 <= i < s for i, s in zip(index, tensor.shape)):
            self.fail("tensor data access: index out of bounds")
            return None
        flat = tensor.offset + sum(i * s for i, s in zip(index, tensor.strides))
        if not 0 <= flat < numel:
            self.fail("tensor data access: index out of bounds")
            return None
        return flat

    def load(self, buffer: str, flat: int) -> int:
        stored = self.memory[buffer].get(flat)
        if stored is not None:
            return stored
        buf = self.trace.buffers[buffer]
        return element_bits(buf.init, buf.dtype) if buf.init is not None else 0


def clamped_extents(shape, offsets, source_shape) -> list[int]:
    """A slice's extents cut to what is left of the source after the offsets (0 past its end), as
    the printed ``(o >= s ? 0u : std::min<uint32_t>(e, s - o))`` computes them."""
    return [0 if o >= s else min(e, s - o) for e, o, s in zip(shape, offsets, source_shape)]


def _indices(shape):
    out = [()]
    for extent in shape:
        out = [index + (i,) for index in out for i in range(extent)]
    return out


def element_size(dtype: str) -> int:
    return ELEMENT_SIZE[dtype]
