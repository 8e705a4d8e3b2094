"""The DSL users write orchestration programs in: ``import nanopass.dsl as pl``.

Nothing in a ``@pl.function`` body is ever executed: ``@pl.program`` records where the class's
source is and a snapshot of the names visible where it was decorated, and the front end reads
the source with ``ast`` when the program is compiled. The objects here exist so that Python can
evaluate the annotations and decorators of a program class; the functions used only inside
bodies (``pl.range``, ``pl.submit``, tile ops ...) raise if someone calls them from Python.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any

from nanopass.languages.terms import DType, FuncKind

# -- element types --------------------------------------------------------------------------------

FP16 = DType.FP16
FP32 = DType.FP32
FP64 = DType.FP64
BF16 = DType.BF16
INT8 = DType.INT8
INT16 = DType.INT16
INT32 = DType.INT32
INT64 = DType.INT64
UINT8 = DType.UINT8
UINT16 = DType.UINT16
UINT32 = DType.UINT32
UINT64 = DType.UINT64
BOOL = DType.BOOL
INDEX = DType.INDEX
TASK_ID = DType.TASK_ID
DataType = DType


class FunctionType:
    """``@pl.function(type=pl.FunctionType.X)``."""

    Orchestration = FuncKind.Orchestration
    InCore = FuncKind.InCore
    AIC = FuncKind.AIC
    AIV = FuncKind.AIV
    Group = FuncKind.Group
    Opaque = FuncKind.Opaque
    Inline = FuncKind.Inline


class MemorySpace(Enum):
    Vec = "Vec"
    Left = "Left"
    Right = "Right"
    Acc = "Acc"
    Mat = "Mat"


class Layout(Enum):
    ND = "ND"
    DN = "DN"
    NZ = "NZ"


ND, DN, NZ = Layout.ND, Layout.DN, Layout.NZ


class ArgDirection(Enum):
    """A call site's direction of one argument: ``attrs={"arg_directions": [pl.adir.input, ...]}``."""

    input = "input"
    output = "output"
    inout = "inout"
    output_existing = "output_existing"
    no_dep = "no_dep"
    scalar = "scalar"


adir = arg_direction = ArgDirection


class SplitMode(Enum):
    """``attrs={"split": pl.SplitMode.X}`` on a kernel, ``pl.split(pl.SplitMode.X)`` in ``optimizations=``."""

    NONE = "NONE"
    UP_DOWN = "UP_DOWN"
    LEFT_RIGHT = "LEFT_RIGHT"


class ScopeMode(Enum):
    AUTO = "AUTO"
    MANUAL = "MANUAL"


# -- names the existing compiler's printed IR writes (passes/frontend/printed_form.py reads them) -----

Mem = MemorySpace
TensorLayout = Layout


class _PrintedNames:
    """``pl.Level.AIV``, ``pl.Role.Orchestrator``, ``pl.adir.inout``: any member is its own spelling
    (the front end reads the source; these exist so that a printed program's file can be imported)."""

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, name: str) -> str:
        if name.startswith("__"):
            raise AttributeError(name)
        return f"pl.{self._prefix}.{name}"


Level = _PrintedNames("Level")
Role = _PrintedNames("Role")
adir = _PrintedNames("adir")


def MemRef(*args: Any) -> tuple:  # noqa: N802 - the printed IR's spelling
    """``pl.MemRef(base, offset, size)`` in a printed type: where the other compiler placed the buffer."""
    return ("MemRef", *args)


def const(value: Any, _dtype: Any = None) -> Any:
    """``pl.const(0, pl.INT64)`` in a printed type: the value."""
    return value


# -- annotation objects -----------------------------------------------------------------------------


class DynamicDim:
    """``pl.dynamic("M")``: a shape extent known only at run time (the declaring tensor's)."""

    def __init__(self, name: str):
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"pl.dynamic needs an identifier name, got {name!r}")
        self.name = name

    def __repr__(self) -> str:
        return f"pl.dynamic({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, DynamicDim) and other.name == self.name

    def __hash__(self):
        return hash(("dynamic", self.name))


def dynamic(name: str) -> DynamicDim:
    return DynamicDim(name)


class _Annotation:
    """A subscripted type (``pl.Tensor[[16, 16], pl.FP32]``); the front end reads the source."""

    def __init__(self, kind: str, args: Any):
        self.kind = kind
        self.args = args

    def __repr__(self) -> str:  # as written: pl.Tensor[[16, 16], pl.FP32]
        items = self.args if isinstance(self.args, tuple) else (self.args,)
        return f"pl.{self.kind}[{', '.join(_source_text(item) for item in items)}]"


def _source_text(value: Any) -> str:
    if isinstance(value, DType):
        return f"pl.{value.name}"
    if isinstance(value, FuncKind):
        return f"pl.FunctionType.{value.name}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_source_text(item) for item in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    return repr(value)


class _TypeConstructor:
    def __init__(self, kind: str):
        self.kind = kind

    def __getitem__(self, args: Any) -> _Annotation:
        return _Annotation(self.kind, args)

    def __repr__(self) -> str:
        return f"pl.{self.kind}"


Tensor = _TypeConstructor("Tensor")
Tile = _TypeConstructor("Tile")
Scalar = _TypeConstructor("Scalar")
Array = _TypeConstructor("Array")
Tuple = _TypeConstructor("Tuple")
Out = _TypeConstructor("Out")
InOut = _TypeConstructor("InOut")
TaskId = _Annotation("Scalar", TASK_ID)
Ptr = _Annotation("Ptr", ())


# -- decorators ---------------------------------------------------------------------------------------


def function(_func=None, *, type: FuncKind = FuncKind.Opaque, auto_scope: bool = True, **_ignored):  # noqa: A002
    """Mark a method of a ``@pl.program`` class. The front end re-reads the keywords from source."""

    def mark(func):
        func.__pl_function__ = {"type": type, "auto_scope": auto_scope}
        return func

    return mark(_func) if callable(_func) else mark


class Program:
    """What ``@pl.program`` returns: a handle on a program class's source and closure.

    The front end runs when the program is first compiled (``surface``), so a file can hold a
    broken program next to one that compiles.
    """

    def __init__(self, cls: type, closure: dict[str, Any]):
        self.name = cls.__name__
        self.cls = cls
        self.closure = closure
        self.parsed_file = None  # the loader's parse of the class's file (ParsedFile), until the front end runs
        # function -> (surface, hints, warnings, inline copies)
        self._read: dict[str | None, tuple[Any, Any, list, list]] = {}

    def __repr__(self) -> str:
        return f"<nanopass program {self.name}>"

    def source(self):
        from nanopass.passes.frontend.source import source_of_class

        return source_of_class(self.cls, self.closure, self.parsed_file)

    def surface(self, func_name: str | None = None):
        """The program in the ``surface`` language (runs the front end once per function).

        The loader's parse of the file is released once the front end has read it (a tree is large;
        another function's front end reads the file again).
        """
        return self._reading(func_name)[0]

    def warnings(self, func_name: str | None = None) -> list:
        """The front end's warnings for the function (``PassWarning``s of ``parse_dsl``)."""
        return self._reading(func_name)[2]

    def inline_copies(self, func_name: str | None = None) -> list:
        """The front end's records of the inline functions' copies in the function
        (``nanopass.inline_copies.InlineCopy``), in the order it made them."""
        return self._reading(func_name)[3]

    def hints(self, func_name: str | None = None):
        """The analysis results a class in the existing compiler's printed form carries (None for
        the DSL's own form); ``nanopass.printed_hints`` checks them."""
        return self._reading(func_name)[1]

    def _reading(self, func_name: str | None) -> tuple[Any, Any, list, list]:
        if func_name not in self._read:
            from nanopass.passes.frontend.parse_dsl import parse_program

            hints: list = []
            warnings: list = []
            copies: list = []
            try:
                tree = parse_program(self.source(), func_name, hints, warnings, copies)
            finally:
                self.parsed_file = None
            self._read[func_name] = (tree, hints[0] if hints else None, warnings, copies)
        return self._read[func_name]


def program(cls=None, **_options):
    """Class decorator: ``@pl.program``."""

    def wrap(klass):
        if not isinstance(klass, type):
            raise TypeError(f"@pl.program decorates a class, not {klass!r}")
        frame = sys._getframe(1)  # the frame applying the decorator
        return Program(klass, {**frame.f_globals, **frame.f_locals})

    if cls is None:
        return wrap
    if not isinstance(cls, type):
        raise TypeError(f"@pl.program takes no positional argument ({cls!r}); write @pl.program above a class")
    frame = sys._getframe(1)
    return Program(cls, {**frame.f_globals, **frame.f_locals})


# -- @pl.jit --------------------------------------------------------------------------------------------


class _Jit:
    """``@pl.jit`` and its forms (``.incore``, ``.opaque``, ...): marks on module-level functions. The
    loaders read the functions' source (``passes/frontend/jit.py``); nothing here runs them."""

    def __init__(self, form: str = "jit"):
        self._form = form

    def __call__(self, func=None, **_options):
        if func is None or not callable(func):  # @pl.jit.incore(level=...), @pl.jit.extern("name")
            return self
        func.__pl_jit__ = self._form
        return func

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Jit(f"jit.{name}")


jit = _Jit()


# -- body-only functions --------------------------------------------------------------------------------


def _body_only(name: str):
    def fail(*_args, **_kwargs):
        raise RuntimeError(f"pl.{name} is DSL syntax: it is compiled, not called from Python")

    fail.__name__ = name
    return fail


class _BodyNamespace:
    """``pl.tensor``, ``pl.array``, ``pl.system``: attribute access yields body-only functions."""

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _body_only(f"{self._prefix}.{name}")


tensor = _BodyNamespace("tensor")
array = _BodyNamespace("array")
system = _BodyNamespace("system")
tile = _BodyNamespace("tile")

for _name in [
    "range", "parallel", "yield_", "submit", "create_tensor", "no_dep", "manual_scope", "scope", "assemble",
    "load", "store", "add", "sub", "mul", "div", "matmul", "matmul_acc", "exp", "max", "min", "move", "cast",
]:
    globals()[_name] = _body_only(_name)
del _name


def __getattr__(name: str):
    """Any other ``pl.<op>`` (tile ops in kernel bodies) is a body-only function."""
    if name.startswith("__"):
        raise AttributeError(name)
    return _body_only(name)
