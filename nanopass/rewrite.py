"""Passes: a declared signature, handlers for the productions they change, generated traversal.

A pass is a class with a verb-first ``name``, a ``source`` and a ``target`` language and a
docstring (its contract: what it introduces or removes and what holds afterwards). Methods named
after productions of the source language are *handlers*; every other production is rebuilt by the
framework from its visited children, and a node whose children came back unchanged and whose class
also belongs to the target language is returned as is (no copy). Subtrees of nonterminals that no
handler can reach and that the two languages share are not visited at all.

A handler visiting an element of a tuple field may return a ``list`` of nodes: they are spliced
into the tuple in its place (an empty list deletes the element).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import InternalError, Span
from .language import Language, Node

# Verb-first names: the first word of every pass name must be one of these.
PASS_VERBS = frozenset(
    """
    add analyze assign attach batch bind check classify collect convert decide define derive drop
    elaborate encode expand expose flatten fuse hoist infer insert lift lower make materialize merge
    normalize order parse place print prune remap remove rename resolve scale select simplify size split
    uncover verify wrap
    """.split()
)

_NAME = re.compile(r"[a-z]+(_[a-z0-9]+)*\Z")


@dataclass
class Note:
    """Something a pass wants a human to see in the dump report (e.g. a dropped edge)."""

    pass_name: str
    kind: str
    message: str
    span: Span | None = None


@dataclass
class PassContext:
    """What a pass may read besides its input tree: options, and a place to leave notes."""

    options: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    current_pass: str = ""

    def option(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)

    def note(self, kind: str, message: str, span: Span | None = None) -> None:
        self.notes.append(Note(self.current_pass, kind, message, span))


class Pass:
    """Base class of every pass. Subclasses set ``name``, ``source``, ``target`` and a docstring."""

    name: ClassVar[str] = ""
    source: ClassVar[Language]
    target: ClassVar[Language]
    _handlers: ClassVar[dict[str, str]] = {}
    _touched: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            return
        _check_declaration(cls)
        cls._handlers = {
            prod: prod for prod in cls.source.nodes if callable(getattr(cls, prod, None))
        }
        cls._touched = _touched_nonterminals(cls)

    def __init__(self, ctx: PassContext | None = None):
        self.ctx = ctx or PassContext()
        self._plans: dict[type, tuple] = {}
        self._dispatch = {
            cls: getattr(self, prod) for prod in self._handlers for cls in [self.source.nodes[prod]]
        }

    @classmethod
    def contract(cls) -> str:
        """The pass's docstring, as one paragraph of text."""
        return " ".join((cls.__doc__ or "").split())

    # -- running ------------------------------------------------------------------------------

    def run(self, tree: Node) -> Node:
        """Transform a whole program. Override for passes that need a setup step first."""
        return self.visit(tree)

    def visit(self, node: Any) -> Any:
        """Apply the handler for ``node``'s production, or rebuild it from visited children."""
        handler = self._dispatch.get(type(node))
        if handler is not None:
            return handler(node)
        if isinstance(node, Node):
            return self.rebuild(node)
        if isinstance(node, tuple):
            return self.visit_all(node)
        return node

    def build(self, node: Node, **changes: Any) -> Node:
        """``node`` rebuilt as the target language's production of the same name, with the given
        fields changed (the others are reused as they are)."""
        cls = self.target.nodes.get(node._production)
        if cls is None:
            raise InternalError(
                f"language '{self.target.name}' has no production {node._production}", pass_name=self.name, node=node
            )
        span = changes.pop("span", node.span)
        values = [changes.pop(f) if f in changes else getattr(node, f) for f in node._fields]
        if changes:
            raise TypeError(f"{node._production} has no field(s) {sorted(changes)}")
        return cls(*values, span=span)

    def visit_all(self, items: tuple) -> tuple:
        """Visit each element of a tuple field, splicing list results; reuse the tuple if unchanged."""
        out = None
        for i, item in enumerate(items):
            new = self.visit(item)
            if out is None:
                if new is item:
                    continue
                out = list(items[:i])
            if isinstance(new, list):
                out.extend(new)
            else:
                out.append(new)
        return items if out is None else tuple(out)

    def rebuild(self, node: Node) -> Node:
        """The identity clause: visit the children this pass can change, then rebuild ``node``."""
        cls = type(node)
        plan = self._plans.get(cls)
        if plan is None:
            plan = self._plan(cls)
        fields, target_cls = plan
        values = []
        changed = False
        for name, mode in fields:
            value = getattr(node, name)
            if mode and value is not None:
                new = self.visit_all(value) if mode == 2 else self.visit(value)
                if new is not value:
                    if isinstance(new, list):
                        raise InternalError(
                            f"handler returned a list for the single field '{name}'", pass_name=self.name, node=node
                        )
                    changed = True
                    value = new
            values.append(value)
        if not changed and target_cls is cls:
            return node
        if target_cls is None:
            raise InternalError(
                f"no handler for production {cls._production}, which language "
                f"'{self.target.name}' does not have",
                pass_name=self.name,
                node=node,
            )
        return target_cls(*values, span=node.span)

    def _plan(self, cls: type):
        """How to rebuild nodes of ``cls``: per field, 0 keep / 1 visit / 2 visit each element;
        and the target language's class of the same production (None if it has none)."""
        touched = self._touched
        fields = tuple(
            (spec.name, (2 if spec.many else 1) if spec.kind in touched else 0) for spec in cls._field_specs
        )
        target_cls = cls if self.target.owns(cls) else self.target.nodes.get(cls._production)
        self._plans[cls] = plan = (fields, target_cls)
        return plan


def _check_declaration(cls: type) -> None:
    name = cls.__dict__["name"]
    if not _NAME.match(name):
        raise TypeError(f"pass name {name!r} must be snake_case")
    verb = name.split("_")[0]
    if verb not in PASS_VERBS:
        raise TypeError(f"pass name {name!r} must start with a verb (one of PASS_VERBS), not {verb!r}")
    for attr in ("source", "target"):
        if not isinstance(getattr(cls, attr, None), Language):
            raise TypeError(f"pass {name} must declare {attr} as a Language")
    if not (cls.__doc__ or "").strip():
        raise TypeError(f"pass {name} needs a docstring stating its contract")
    for attr in cls.__dict__:
        if attr[:1].isupper() and attr not in cls.source.nodes:
            raise TypeError(
                f"pass {name}: method {attr} looks like a handler but {cls.source.name} has no such production"
            )


def _touched_nonterminals(cls: type) -> frozenset[str]:
    """Source nonterminals whose subtrees this pass may change, so traversal must enter them."""
    source, target = cls.source, cls.target
    handled = set(cls._handlers)
    touched: set[str] = set()
    changed = True
    while changed:
        changed = False
        for nt in source.nonterminals:
            if nt in touched:
                continue
            for node_cls in source.classes(nt):
                if (
                    node_cls._production in handled
                    or not target.owns(node_cls)
                    or any(f.kind in touched for f in node_cls._field_specs)
                ):
                    touched.add(nt)
                    changed = True
                    break
    return frozenset(touched)


# ---------------------------------------------------------------------------------------------
# Registry


class PassRegistry:
    """Name -> pass class. Refuses a second pass with the same name."""

    def __init__(self):
        self._passes: dict[str, type[Pass]] = {}

    def register(self, cls: type[Pass]) -> type[Pass]:
        name = cls.__dict__.get("name")
        if not name:
            raise TypeError(f"{cls.__name__} declares no pass name")
        if name in self._passes and self._passes[name] is not cls:
            raise ValueError(f"a pass named {name!r} is already registered ({self._passes[name].__qualname__})")
        self._passes[name] = cls
        return cls

    def __getitem__(self, name: str) -> type[Pass]:
        return self._passes[name]

    def __contains__(self, name: str) -> bool:
        return name in self._passes

    def items(self):
        return self._passes.items()

    def names(self) -> list[str]:
        return list(self._passes)


REGISTRY = PassRegistry()


def register(cls: type[Pass]) -> type[Pass]:
    """Class decorator: add a pass to the global registry."""
    return REGISTRY.register(cls)
