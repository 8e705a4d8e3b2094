"""The DSL variables visible in the orchestration function, and the names no longer visible.

Scoping follows what the generated C++ can express: a name first bound inside a loop body or in
only one branch of an ``if`` is not visible after it (assign it before, so that it becomes a
carry or a branch result); ``with`` blocks do not hide names. The readers of loops and ifs push a
frame for each body or branch and say, when they pop it, why its names are gone (``closed``);
the reader of names reports that reason where such a name is used.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import Span, UserError
from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from .array_names import ArrayNames
from .names import check_user_name
from .type_reader import compatible, type_text

if TYPE_CHECKING:
    from .program import ProgramParser

L = S.LANGUAGE


class Binding:
    """What a visible name is bound to (never changed: a name bound again gets a new Binding;
    made by ``new_binding``). A slots class without ``__init__``, not a named tuple: the front end
    reads a binding at every name it meets, and a slot is read, and a binding made, in less than
    half a named tuple's time."""

    __slots__ = ("type", "kind", "span")
    type: Any
    kind: str  # param | local | loopvar | iter | dyn | unrolled (a pl.unroll variable: a constant per copy)
    span: Span


def new_binding(ty: Any, kind: str, span: Span) -> Binding:
    binding = Binding()
    binding.type, binding.kind, binding.span = ty, kind, span
    return binding


class Scope:
    """Frames of bindings, innermost last: the function's (parameters and dynamic dimensions),
    then one per loop body or if branch being read."""

    def __init__(self, program: ProgramParser, span: Callable[[ast.AST], Span]):
        self.program = program
        self.span = span
        self.frames: list[dict[str, Binding]] = [{}]  # written through ``set_binding`` only
        # name -> its innermost binding (what ``lookup`` answers, without a search of the frames),
        # and per frame the outer bindings its names hide (``pop`` puts them back)
        self.visible: dict[str, Binding] = {}
        self._hidden: list[dict[str, Binding]] = [{}]
        self.closed: dict[str, str] = {}  # name -> why it is no longer visible
        # per open ``with`` block (a runtime scope, whose C++ block ends with it), the TaskId and
        # TaskId array names last bound in it; ``closed_tids``: those last bound in a block that
        # has ended, still visible but with their C++ storage gone (D11) (``bound_tid``)
        self.with_tids: list[set[str]] = []
        self.closed_tids: set[str] = set()
        self.arrays = ArrayNames(span)  # which array names share an array (D18)

    def error(self, message: str, node: ast.AST, hint: str | None = None) -> UserError:
        return UserError(message, self.span(node), hint)

    def lookup(self, name: str) -> Binding | None:
        """The binding of ``name`` in the innermost frame that binds it (None: not visible)."""
        return self.visible.get(name)

    def set_binding(self, name: str, binding: Binding) -> None:
        """Bind ``name`` to ``binding`` in the innermost frame (unchecked: ``define`` checks)."""
        frame = self.frames[-1]
        if name not in frame:
            outer = self.visible.get(name)
            if outer is not None:
                self._hidden[-1][name] = outer
        frame[name] = binding
        self.visible[name] = binding
        self.bound_tid(name, binding.type)

    def define(self, name: str, ty: Any, node: ast.AST, kind: str = "local") -> Binding:
        """Bind ``name`` in the innermost frame; returns the binding (its span: ``node``'s)."""
        program = self.program
        if "__" in name or not name.isascii():
            check_user_name(program, name, node)
        if name in program.kernels or name == "self":
            raise self.error(f"'{name}' cannot be used as a variable name", node)
        binding = Binding()  # (new_binding and set_binding, inlined: a name is defined per statement)
        binding.type, binding.kind, binding.span = ty, kind, self.span(node)
        frame, visible = self.frames[-1], self.visible
        if name not in frame:
            outer = visible.get(name)
            if outer is not None:
                self._hidden[-1][name] = outer
        frame[name] = binding
        visible[name] = binding
        if name in self.closed:
            del self.closed[name]
        self.bound_tid(name, ty)
        return binding

    def bound_tid(self, name: str, ty: Any) -> None:
        """Note that ``name`` is (re)bound here, to a value of type ``ty``: a TaskId or TaskId array
        bound in an open ``with`` block is that block's (``with_tids``), and one bound anywhere is
        no longer one of an ended block (``closed_tids``)."""
        if not (self.with_tids or self.closed_tids):
            return  # (no with block so far: the usual case)
        if ty._production in ("ScalarType", "ArrayType") and ty.dtype is DType.TASK_ID:
            self.closed_tids.discard(name)
            if self.with_tids:
                self.with_tids[-1].add(name)

    def bind(self, name: str, ty: Any, node: ast.AST) -> Any:
        """Assign ``name``: re-assign a visible variable (same type) or define a new one."""
        if name == "_":
            return L.Binder.make("_", ty)
        existing = self.visible.get(name)  # (self.lookup, inlined)
        if existing is not None:
            if existing.kind in ("loopvar", "dyn", "unrolled"):
                what = "dynamic dimension" if existing.kind == "dyn" else "loop variable"
                raise self.error(f"cannot assign to '{name}' (a {what})", node)
            if existing.type is not ty and not compatible(existing.type, ty):  # (the same type object: compatible)
                raise self.error(
                    f"cannot re-assign '{name}' with a different type: was {type_text(existing.type)}, "
                    f"got {type_text(ty)}",
                    node,
                    hint="use a new name for a value of another type",
                )
            self.bound_tid(name, existing.type)
            # (trusted: the name and type of a binding, whose Binder was built checked with them)
            return L.Binder.make_trusted(name, existing.type, self.span(node))
        # (trusted: a name define has checked (an identifier of ast's, ASCII: check_user_name), a Type)
        return L.Binder.make_trusted(name, ty, self.define(name, ty, node).span)

    def push(self) -> None:
        self.frames.append({})
        self._hidden.append({})

    def pop(self) -> dict[str, Binding]:
        """Drop the innermost frame (its names' outer bindings visible again); returns it."""
        frame, hidden, visible = self.frames.pop(), self._hidden.pop(), self.visible
        for name in frame:
            outer = hidden.get(name)
            if outer is None:
                del visible[name]
            else:
                visible[name] = outer
        return frame

    def close(self, frame: dict[str, Binding], reason: str) -> None:
        """The names of a popped ``frame`` that are not visible outside it are closed for ``reason``."""
        visible = self.visible  # (self.lookup, inlined)
        for name in frame:
            if name not in visible:
                self.closed[name] = reason

    def outside(self, thunk: Callable[[], Any]) -> Any:
        """Evaluate ``thunk`` with the innermost frame hidden (init values see the outer scope)."""
        inner = self.pop()
        try:
            return thunk()
        finally:
            self.push()
            for name, binding in inner.items():
                self.set_binding(name, binding)
