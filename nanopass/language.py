"""Languages as data: terminals, nonterminals, productions, and the node classes made from them.

A ``Language`` is declared from ``Terminal`` and ``Nonterminal`` objects. Each production becomes
a frozen node class (slots, tuple fields) whose constructor checks every field against the
grammar and raises ``GrammarError`` naming the production, the field, the expected kind and the
value received. Because nodes are checked when built, a tree whose root belongs to a language is
in that language all the way down.

``Language.extend`` declares a new language as a delta (terminals, nonterminals and productions
added or removed). A production whose fields are unchanged *and* whose referenced nonterminals are
unchanged keeps the parent's node class, so a pass can hand unchanged subtrees from its input to
its output without copying them.

Field kinds are written ``"name:Kind"`` with ``Kind`` a terminal or nonterminal name, followed by
``*`` for a tuple of them or ``?`` for an optional one (``None``).

An invariant that holds of each node of some productions on its own may declare it as
``node_rules`` (production -> a function of the node that raises where the node breaks it, with
an optional ``inline`` condition over the fields' names): the classes a language makes for its
invariants' rules run them in every constructor, unchecked ones too, and the language then
proves the invariant (``Language.proves``): ``verify`` walks no tree for it.
"""

from __future__ import annotations

import importlib
import pickle
import re
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .errors import GrammarError, Span

# ---------------------------------------------------------------------------------------------
# Terminals


class Terminal:
    """A leaf kind: a predicate on Python values plus its text form.

    ``unparse(value) -> str`` gives one token; ``parse(token) -> value`` reads it back, where
    ``token`` is the atom text or the decoded content of a quoted string. ``strategy`` (optional)
    is a zero-argument function returning a hypothesis strategy for valid values.

    ``inline`` (optional) is the predicate again, as a Python expression over ``{v}`` (the
    value) that node constructors inline instead of calling ``predicate``; it names the value's
    type ``_tp({v})``, ``inline_object`` ``{t}``, ``inline_known`` ``{k}`` (a container of
    values the predicate has accepted, which it may fill) and the predicate itself ``{c}`` (no
    other global: a field may be named like a builtin). It must agree with ``predicate`` on
    every value.
    """

    def __init__(
        self,
        name: str,
        predicate: Callable[[Any], bool],
        *,
        doc: str = "",
        unparse: Callable[[Any], str] | None = None,
        parse: Callable[[str], Any] | None = None,
        strategy: Callable[[], Any] | None = None,
        inline: str | None = None,
        inline_object: Any = None,
        inline_known: Any = None,
    ):
        self.name = name
        self.predicate = predicate
        self.doc = doc
        self.unparse = unparse or _quote_if_needed
        self.parse = parse or (lambda token: token)
        self.strategy = strategy
        self.inline = inline
        self.inline_object = inline_object
        self.inline_known = inline_known

    def __repr__(self) -> str:
        return f"Terminal({self.name})"


_BARE_ATOM = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
_RESERVED_ATOMS = {"_", "#t", "#f"}


def _quote_if_needed(value: str) -> str:
    if _BARE_ATOM.match(value) and value not in _RESERVED_ATOMS:
        return value
    return quote_string(value)


def quote_string(value: str) -> str:
    out = ['"']
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# Identifiers ``_is_identifier`` has accepted: node constructors test a symbol field's value for
# membership first (one hash lookup, the string's hash cached) and call the predicate only for a
# string they have not met. Bounded: emptied when full.
_KNOWN_IDENTIFIERS: set[str] = set()
_KNOWN_IDENTIFIERS_MAX = 1 << 16


def _is_identifier(value: Any) -> bool:
    if type(value) is str and value.isidentifier() and value.isascii():
        if len(_KNOWN_IDENTIFIERS) >= _KNOWN_IDENTIFIERS_MAX:
            _KNOWN_IDENTIFIERS.clear()
        _KNOWN_IDENTIFIERS.add(value)
        return True
    return False


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _parse_int(token: str) -> int:
    return int(token)


def _unparse_float(value: float) -> str:
    text = repr(value)
    if text in ("inf", "-inf", "nan"):
        return text
    if "." not in text and "e" not in text:
        text += ".0"
    return text


def _strategy_identifier():
    from hypothesis import strategies as st

    return st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True)


def _strategy_text():
    from hypothesis import strategies as st

    return st.text(max_size=12)


def _strategy_int():
    from hypothesis import strategies as st

    return st.integers(min_value=-(2**40), max_value=2**40)


def _strategy_float():
    from hypothesis import strategies as st

    return st.floats(allow_nan=False)


def _strategy_bool():
    from hypothesis import strategies as st

    return st.booleans()


symbol = Terminal(
    "symbol",
    _is_identifier,
    doc="an identifier ([A-Za-z_][A-Za-z0-9_]*)",
    strategy=_strategy_identifier,
    inline="_tp({v}) is {t} and ({v} in {k} or {c}({v}))",
    inline_object=str,
    inline_known=_KNOWN_IDENTIFIERS,
)
text = Terminal(
    "text",
    lambda v: type(v) is str,
    doc="any string",
    strategy=_strategy_text,
    inline="_tp({v}) is {t}",
    inline_object=str,
)
integer = Terminal(
    "integer",
    lambda v: type(v) is int,
    doc="an integer",
    unparse=str,
    parse=_parse_int,
    strategy=_strategy_int,
    inline="_tp({v}) is {t}",
    inline_object=int,
)
real = Terminal(
    "real",
    lambda v: type(v) is float,
    doc="a float (inf and nan allowed)",
    unparse=_unparse_float,
    parse=float,
    strategy=_strategy_float,
    inline="_tp({v}) is {t}",
    inline_object=float,
)
boolean = Terminal(
    "boolean",
    lambda v: type(v) is bool,
    doc="#t or #f",
    unparse=lambda v: "#t" if v else "#f",
    parse=lambda t: {"#t": True, "#f": False}[t],
    strategy=_strategy_bool,
    inline="_tp({v}) is {t}",
    inline_object=bool,
)


def enum_terminal(name: str, enum_cls: type, doc: str = "") -> Terminal:
    """A terminal whose values are the members of ``enum_cls``, written by member name."""

    members = {m.name: m for m in enum_cls}

    def parse(token: str):
        return members[token]

    def strategy():
        from hypothesis import strategies as st

        return st.sampled_from(list(enum_cls))

    return Terminal(
        name,
        lambda v: type(v) is enum_cls,
        doc=doc or " | ".join(members),
        unparse=lambda v: v.name,
        parse=parse,
        strategy=strategy,
        inline="_tp({v}) is {t}",
        inline_object=enum_cls,
    )


# ---------------------------------------------------------------------------------------------
# Productions and nonterminals


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # terminal or nonterminal name
    many: bool = False  # a tuple of kind
    optional: bool = False  # kind or None

    @staticmethod
    def parse(spec: str) -> "Field":
        name, _, kind = spec.partition(":")
        name, kind = name.strip(), kind.strip()
        if not name or not kind:
            raise ValueError(f"bad field spec {spec!r}; write 'name:Kind', 'name:Kind*' or 'name:Kind?'")
        many = kind.endswith("*")
        optional = kind.endswith("?")
        kind = kind.rstrip("*?")
        return Field(name, kind, many, optional)

    def spec(self) -> str:
        return f"{self.name}:{self.kind}{'*' if self.many else ''}{'?' if self.optional else ''}"


class Production:
    """One alternative of a nonterminal: ``(Name field ...)``."""

    def __init__(self, name: str, *fields: str, doc: str = ""):
        self.name = name
        self.fields = tuple(Field.parse(f) for f in fields)
        self.doc = doc
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"production {name} repeats a field name: {names}")
        if {"span", "self", "make", "make_trusted"} & set(names) or any(n.startswith("_") for n in names):
            raise ValueError(
                f"production {name}: field names 'span', 'self', 'make', 'make_trusted' and '_...' are reserved"
            )

    def signature(self) -> tuple:
        return (self.name, tuple(self.fields))

    def with_fields(self, *fields: str, before: str | None = None, doc: str | None = None) -> "Production":
        """This production with more fields (appended, or inserted before the field ``before``)."""
        specs = [f.spec() for f in self.fields]
        at = len(specs) if before is None else [f.name for f in self.fields].index(before)
        return Production(self.name, *specs[:at], *fields, *specs[at:], doc=self.doc if doc is None else doc)

    def without_fields(self, *names: str) -> "Production":
        """This production without the named fields."""
        missing = set(names) - {f.name for f in self.fields}
        if missing:
            raise ValueError(f"production {self.name} has no field(s) {sorted(missing)}")
        return Production(self.name, *(f.spec() for f in self.fields if f.name not in names), doc=self.doc)

    def text(self) -> str:
        inner = " ".join(f.spec() for f in self.fields)
        return f"({self.name}{' ' + inner if inner else ''})"


class Nonterminal:
    """A named set of alternatives: productions, or other nonterminals by name."""

    def __init__(self, name: str, *alternatives: "Production | str", doc: str = ""):
        self.name = name
        self.productions = tuple(a for a in alternatives if isinstance(a, Production))
        self.includes = tuple(a for a in alternatives if isinstance(a, str))
        self.doc = doc


# ---------------------------------------------------------------------------------------------
# Node classes


class Node:
    """Base of every generated node class. Frozen; fields are set once by the constructor.

    ``span`` is a source position kept beside the fields: it is not part of equality and not
    part of the grammar.

    Each node class has a *builder* twin, its first base: the class that declares its slots (the
    fields, ``span`` and ``_hash``, the cached hash) and keeps the default ``__setattr__``; a
    node class adds no slot to it and derives from ``Node`` too. Construction makes a builder
    object by calling its class (the default ``__new__`` and ``__init__``: less than half the
    cost of ``object.__new__(builder)``, whose checks of the class walk its bases), fills it
    through plain attribute stores (which the interpreter specializes), then turns it into the
    node class by ``__class__`` assignment (the two classes have one layout); nothing else ever
    holds a builder object. Every slot is the builder's, none a common base's: one class of
    slots to clear when a node is freed. The assignment is about a third of a node's cost (490
    of 1,480 instructions, a three-field node built and freed, CPython 3.11), and each way
    without it costs more: ``object.__new__(cls)`` filled through the builder's member
    descriptors (``__set__``) 3,760, through ``object.__setattr__`` 5,680, a ``__setattr__``
    written in Python that lets the constructor's stores through at least 7,690.
    """

    __slots__ = ()
    _production: str = ""
    _fields: tuple[str, ...] = ()
    _field_specs: tuple[Field, ...] = ()
    _terminals: dict[str, Terminal] = {}
    _child_fields: tuple[tuple[str, bool], ...] = ()  # (field, is a tuple) of the nonterminal fields
    _rules: tuple[Callable[[Any], None], ...] = ()  # node rules every constructor runs (``Language``'s node_rules)

    def __setattr__(self, key, value):
        raise AttributeError(f"{type(self).__name__} nodes are immutable (tried to set {key!r})")

    def __delattr__(self, key):
        raise AttributeError(f"{type(self).__name__} nodes are immutable")

    def fields(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def _children(self) -> list:
        """A new list of the direct child nodes, in field order (see ``children_of``; each class
        generates its own from its fields)."""
        return []

    def replace(self, **changes) -> "Node":
        """A copy with some fields changed (checked like any construction)."""
        values = [changes.pop(f) if f in changes else getattr(self, f) for f in self._fields]
        span = changes.pop("span", self.span)
        if changes:
            raise TypeError(f"{self._production} has no field(s) {sorted(changes)}")
        return type(self).make(*values, span=span)

    def __eq__(self, other):
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        for name in self._fields:
            if getattr(self, name) != getattr(other, name):
                return False
        return True

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        try:
            return self._hash
        except AttributeError:
            value = hash((self._production,) + self.fields())
            object.__setattr__(self, "_hash", value)
            return value

    def __repr__(self):
        from .text import unparse

        return unparse(self, width=10**9)

    def __reduce__(self):
        """Pickled by language and production name (node classes are built at run time, so they
        are not importable by their qualified names): unpickling needs the language defined in the
        receiving process, as it needs any pickled object's class importable."""
        cls = type(self)
        language = _LANGUAGES.get(cls._origin)
        if language is None or language.nodes.get(cls._production) is not cls:
            why = "it no longer exists" if language is None else "another language of that name has been defined since"
            raise pickle.PicklingError(
                f"cannot pickle a {cls._production} node of language '{cls._origin}': {why}, "
                f"and a node is unpickled by its language's name"
            )
        return (_rebuild, (cls._origin, cls._production, self.fields(), self.span))

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fields())


# Every language by name (the latest of a name), for unpickling nodes; weak: a language made and
# dropped (a test's, a user's experiment) is not kept alive by this table.
_LANGUAGES: "weakref.WeakValueDictionary[str, Language]" = weakref.WeakValueDictionary()


def _language_named(name: str) -> "Language":
    """The language ``Language.__reduce__`` pickled: the one of that name defined in this process."""
    language = _LANGUAGES.get(name)
    if language is None:
        importlib.import_module("nanopass.languages")  # defines the pipeline's languages

        language = _LANGUAGES.get(name)
    if language is None:
        raise pickle.UnpicklingError(
            f"cannot unpickle the language '{name}': no language of that name is defined in this process "
            f"(import the module that defines it first)"
        )
    return language


def _rebuild(language_name: str, production: str, values: tuple, span: Span | None) -> Node:
    """The node that ``Node.__reduce__`` pickled (built and checked by its class's constructor)."""
    language = _LANGUAGES.get(language_name)
    if language is None:
        importlib.import_module("nanopass.languages")  # defines the pipeline's languages

        language = _LANGUAGES.get(language_name)
    if language is None or production not in language.nodes:
        raise pickle.UnpicklingError(
            f"cannot unpickle a {production} node: no language '{language_name}' with that production "
            f"is defined in this process (import the module that defines it first)"
        )
    return language.nodes[production](*values, span=span)


def children_of(node: Node) -> list:
    """Every direct child node (through tuple and optional fields), in field order."""
    return node._children()


def walk(node: "Node | tuple") -> Iterator[Node]:
    """Pre-order iteration over a tree (or a tuple of trees), without recursion."""
    stack = list(reversed(node)) if isinstance(node, (tuple, list)) else [node]
    pop, extend = stack.pop, stack.extend
    while stack:
        current = pop()
        yield current
        if current._child_fields:
            children = current._children()
            children.reverse()
            extend(children)


def _make_node_class(language_name: str, nonterminal: str, production: Production) -> type:
    """Create the class for ``production``; its field checks are installed later (_install_checks)."""
    fields = tuple(f.name for f in production.fields)
    slots = fields + ("span", "_hash")
    builder = type(production.name, (), {"__slots__": slots, "__doc__": "(the builder of a node class)"})
    namespace = {
        "__slots__": (),  # the builder's: a node class adds no slot to it (see Node)
        "_builder": builder,
        "__match_args__": fields,
        "_production": production.name,
        "_nonterminal": nonterminal,
        "_fields": fields,
        "_field_specs": production.fields,
        "_origin": language_name,
        "__doc__": production.doc or f"({production.name} ...) of {nonterminal}",
    }
    return type(production.name, (builder, Node), namespace)


def _install_checks(cls: type, kind_check: Callable[[Field], Any], terminals) -> None:
    """Generate ``cls.__new__``: convert list fields to tuples, check each field, set it; and
    ``cls.make``, the same with the span positional too (``L.Var.make(name, span)``): a plain
    function call, without the class call's packing of arguments, for a pass's inner loops; and
    ``cls.make_trusted``, ``make`` without the checks (a list field still becomes a tuple; the
    class's node rules, ``_rules``, still run), for a
    caller that has proved every value belongs to its field's kind: each is a field of a checked
    node of the same kind (in a language that shares its classes) or a node built by a
    constructor of that kind. Inside ``trusted_checked()`` it is ``make`` (the tests' way to
    prove a caller's claim on every program they compile). The other unchecked constructor,
    ``rewrite.trusted_maker``, trusts by the grammar's proof instead (its docstring compares them).

    The checks are written out (``construction_lines``): a terminal's predicate inlined where
    the terminal gives it as an expression; a nonterminal's value looked up by its exact class
    first (``isinstance`` only for another class: a subclass, or a value to reject), a tuple of
    them in one call. Fields are set through their slots (the class forbids ordinary assignment).
    """
    cls._terminals = terminals
    cls._kind_checks = tuple(kind_check(f) for f in cls._field_specs)
    specs = cls._field_specs
    args = ", ".join(f.name for f in specs)
    env: dict[str, Any] = {}
    lines = [f"def __new__(_cls{', ' if args else ''}{args}, *, span=None):", "    self = _builder()"]
    lines += construction_lines(cls, "self", [f.name for f in specs], "span", frozenset(), env, klass="_cls")
    lines += ["    return self", ""]
    lines += [f"def make({args}{', ' if args else ''}span=None):", "    self = _builder()"]
    lines += construction_lines(cls, "self", [f.name for f in specs], "span", frozenset(), env)
    lines += ["    return self", ""]
    lines += [f"def make_trusted({args}{', ' if args else ''}span=None):", "    self = _builder()"]
    lines += [f"    if _tp({f.name}) is not tuple: {f.name} = tuple({f.name})" for f in specs if f.many]
    lines += construction_lines(cls, "self", [f.name for f in specs], "span", frozenset(range(-1, len(specs))), env)
    lines += ["    return self"]
    env.update({"_builder": cls._builder, "_node_cls": cls})
    exec("\n".join(lines), env)  # noqa: S102 - generated constructors, built from the grammar only
    cls.__new__ = env["__new__"]
    cls.make = env["make"]
    cls.make_trusted = cls._make_trusted = env["make_trusted"]
    cls._child_fields = tuple((f.name, f.many) for f in specs if f.kind not in terminals)
    if cls._child_fields:
        cls._children = _children_method(cls)


_TRUSTED_CHECKED = [0]  # how many trusted_checked() blocks are open


@contextmanager
def trusted_checked() -> Iterator[None]:
    """Within the block every node class's ``make_trusted`` is its checked ``make`` (of the
    classes of the languages defined so far): a value a caller of ``make_trusted`` wrongly
    trusts raises ``GrammarError`` as it would from ``make``."""
    classes = {cls for language in list(_LANGUAGES.values()) for cls in language.nodes.values()}
    _TRUSTED_CHECKED[0] += 1
    for cls in classes:
        cls.make_trusted = cls.make
    try:
        yield
    finally:
        _TRUSTED_CHECKED[0] -= 1
        if not _TRUSTED_CHECKED[0]:
            for cls in classes:
                cls.make_trusted = cls._make_trusted


def construction_lines(
    cls: type,
    obj: str,
    values: list[str],
    span: str,
    trusted: frozenset,
    env: dict[str, Any],
    indent: str = "    ",
    klass: str | None = None,
    tuples: frozenset = frozenset(),
    trusted_if_same: dict[int, str] | None = None,
) -> list[str]:
    """Code that checks and sets the fields of ``obj``, a new object of ``cls._builder``, from
    the variables ``values`` (one per field; ``span`` the span's), then makes it a ``cls`` node
    (or of the class in the variable ``klass``), filling ``env`` with the names it uses.

    Fields in ``trusted`` (indices) are set unchecked: for a caller that has proved their values
    belong to the field's kind (``rewrite``'s identity clauses pass on values of their input's
    fields whose kind the two languages share). The span is checked unless it is trusted too
    (index ``-1``). The values of the tuple fields in ``tuples`` are tuples already (only their
    elements are checked); a field in ``trusted_if_same`` (index -> a variable) is set unchecked
    when its value is the variable's object, which the caller has proved to belong to the field's
    kind (an identity clause's visited field that comes back as it was in the input).
    """
    p = f"_{cls.__name__}_"  # a prefix per class: several constructions may share one env
    env.update({"_fail": _fail, "_Span": Span, "_tp": type, "_map": map, "_len": len, "_isinstance": isinstance})
    env.update({"_as_tuple": _as_tuple, "_fail_span": _fail_span})
    env[p + "cls"] = cls
    lines = []
    for i, (field, check) in enumerate(zip(cls._field_specs, cls._kind_checks)):
        v = values[i]
        if i not in trusted:
            checks = _check_lines(cls, p, i, field, check, v, env, i in tuples)
            same = (trusted_if_same or {}).get(i)
            if same is not None:
                checks = [f"if {v} is not {same}:"] + ["    " + line for line in checks]
            lines += checks
        lines.append(f"{obj}.{field.name} = {v}")
    if -1 not in trusted:
        lines.append(f"if {span} is not None and _tp({span}) is not _Span: _fail_span({p}cls, {span})")
    lines.append(f"{obj}.span = {span}")
    lines.append(f"{obj}.__class__ = {klass or p + 'cls'}")
    for j, rule in enumerate(cls._rules):  # (every constructor, unchecked ones too: see ``Language``)
        env[f"{p}r{j}"] = rule
        inline = getattr(rule, "inline", None)  # (the rule's condition, the rule called only where it fails)
        if inline is not None:
            fields = {spec.name: values[i] for i, spec in enumerate(cls._field_specs)}
            lines.append(f"if not ({inline.format(**fields, len='_len')}): {p}r{j}({obj})")
        else:
            lines.append(f"{p}r{j}({obj})")
    return [indent + line for line in lines]


def _check_lines(
    cls: type, p: str, i: int, field: Field, check, v: str, env: dict[str, Any], is_tuple: bool = False
) -> list[str]:
    """The check of field ``i`` of a ``cls`` node, whose value is in the variable ``v`` (a tuple
    already when ``is_tuple``)."""
    lines = []
    nonterminal = isinstance(check, tuple)
    if nonterminal:  # the classes of its productions
        env[f"{p}k{i}"] = check
        env[f"{p}s{i}"] = frozenset(check)
        test = f"(_tp({{x}}) in {p}s{i} or _isinstance({{x}}, {p}k{i}))"
    else:  # a terminal's predicate, inlined or called
        terminal = cls._terminals[field.kind]
        env[f"{p}c{i}"] = check
        env[f"{p}o{i}"] = terminal.inline_object
        env[f"{p}n{i}"] = terminal.inline_known
        inline = terminal.inline and terminal.inline.format(v="{x}", t=f"{p}o{i}", k=f"{p}n{i}", c=f"{p}c{i}")
        test = f"({inline})" if inline else f"{p}c{i}({{x}})"
    fail = f"_fail({p}cls, {i}"
    if field.many:
        if not is_tuple:
            lines.append(f"if _tp({v}) is not tuple:")
            lines.append(f"    {v} = tuple({v}) if _tp({v}) is list else _as_tuple({p}cls, {i}, {v})")
        if nonterminal:  # the usual cases cheaply: no element, one, or every element's class among them
            lines.append(f"if {v} and not (_tp({v}[0]) in {p}s{i} if _len({v}) == 1 else {p}s{i}.issuperset(_map(_tp, {v}))):")
            lines.append(f"    for _x in {v}:")
            lines.append(f"        if not _isinstance(_x, {p}k{i}): {fail}, _x, {v})")
        else:
            lines.append(f"for _x in {v}:")
            lines.append(f"    if not {test.format(x='_x')}: {fail}, _x, {v})")
    elif field.optional:
        lines.append(f"if {v} is not None and not {test.format(x=v)}: {fail}, {v}, None)")
    else:
        lines.append(f"if not {test.format(x=v)}: {fail}, {v}, None)")
    return lines


def _children_method(cls: type) -> Callable[[Node], list]:
    """Generate ``cls._children``: one list display of the child fields, e.g.
    ``[self.a, *self.args, *((self.tid,) if self.tid is not None else ())]``."""
    optional = {f.name for f in cls._field_specs if f.optional}
    parts = []
    for name, many in cls._child_fields:
        if many:
            parts.append(f"*self.{name}")
        elif name in optional:
            parts.append(f"*((self.{name},) if self.{name} is not None else ())")
        else:
            parts.append(f"self.{name}")
    env: dict[str, Any] = {}
    exec(f"def _children(self):\n    return [{', '.join(parts)}]", env)  # noqa: S102 - from the grammar only
    return env["_children"]


def _as_tuple(cls, index, value):
    if isinstance(value, list):
        return tuple(value)
    field = cls._field_specs[index]
    raise GrammarError(cls._production, field.name, f"a tuple of {field.kind}", value)


def _fail(cls, index, value, container):
    field = cls._field_specs[index]
    expected = field.kind + (" (each element)" if field.many else "") + (" or None" if field.optional else "")
    raise GrammarError(cls._production, field.name, expected, value)


def _fail_span(cls, span):
    raise GrammarError(cls._production, "span", "Span or None", span)


# ---------------------------------------------------------------------------------------------
# Languages


class Language:
    """A closed set of terminals and nonterminals, with node classes generated from them.

    ``entry`` names the nonterminal a whole program belongs to. ``invariants`` are functions
    ``tree -> None`` raising ``VerifyError``; they state context-sensitive rules the grammar
    cannot (checked by the pipeline driver after a pass produces this language).
    """

    def __init__(
        self,
        name: str,
        *,
        terminals: Iterable[Terminal],
        nonterminals: Iterable[Nonterminal],
        entry: str,
        doc: str = "",
        invariants: Iterable[Callable[[Node], None]] = (),
        parent: "Language | None" = None,
    ):
        self.name = name
        self.doc = doc
        self.entry = entry
        self.parent = parent
        self.terminals: dict[str, Terminal] = {}
        for t in terminals:
            if t.name in self.terminals:
                raise ValueError(f"language {name}: terminal {t.name} declared twice")
            self.terminals[t.name] = t
        self.nonterminals: dict[str, Nonterminal] = {}
        for nt in nonterminals:
            if nt.name in self.nonterminals or nt.name in self.terminals:
                raise ValueError(f"language {name}: {nt.name} declared twice")
            self.nonterminals[nt.name] = nt
        self.invariants = tuple(invariants)
        self._validate()
        self.nodes: dict[str, type] = {}
        self._build_classes()
        self._class_set = frozenset(self.nodes.values())
        # The invariants whose node rules every constructor of this language's classes runs
        # (``proves``): ``verify`` does not walk a tree for them.
        self._checked_invariants = tuple(i for i in self.invariants if not self._rules_prove(i))
        for production, cls in self.nodes.items():  # L.Var: a plain attribute (no __getattr__ hook: fast in hot loops)
            if production not in self.__dict__:
                self.__dict__[production] = cls
        _LANGUAGES[name] = self

    def __reduce__(self):
        """Pickled by name, as its nodes are (it holds functions: terminals' predicates,
        invariants): unpickled as the language of that name defined in the receiving process."""
        if _LANGUAGES.get(self.name) is not self:
            raise pickle.PicklingError(
                f"cannot pickle the language '{self.name}': another language of that name has been defined "
                f"since, or it was never registered, and a language is unpickled by its name"
            )
        return (_language_named, (self.name,))

    # -- declaration checks -------------------------------------------------------------------

    def _validate(self) -> None:
        if self.entry not in self.nonterminals:
            raise ValueError(f"language {self.name}: entry {self.entry} is not a nonterminal")
        seen: dict[str, str] = {}
        for nt in self.nonterminals.values():
            for inc in nt.includes:
                if inc not in self.nonterminals:
                    raise ValueError(f"language {self.name}: {nt.name} includes unknown nonterminal {inc}")
            for prod in nt.productions:
                if prod.name in seen:
                    raise ValueError(
                        f"language {self.name}: production {prod.name} appears in {seen[prod.name]} and {nt.name}"
                    )
                seen[prod.name] = nt.name
                for field in prod.fields:
                    if field.kind not in self.terminals and field.kind not in self.nonterminals:
                        raise ValueError(
                            f"language {self.name}: field {field.spec()} of {prod.name} names an unknown kind"
                        )
                    if field.many and field.optional:
                        raise ValueError(f"language {self.name}: field {field.spec()} cannot be both * and ?")

    # -- node classes ---------------------------------------------------------------------------

    def _build_classes(self) -> None:
        reusable = self._reusable_parent_classes()
        for nt in self.nonterminals.values():
            for prod in nt.productions:
                cls = reusable.get(prod.name)
                if cls is None:
                    cls = _make_node_class(self.name, nt.name, prod)
                    cls._pending = True
                self.nodes[prod.name] = cls
        self._nt_classes: dict[str, tuple[type, ...]] = {
            name: tuple(self._classes_of(name, set())) for name in self.nonterminals
        }
        rules: dict[str, list] = {}
        for invariant in self.invariants:
            for production, rule in getattr(invariant, "node_rules", {}).items():
                rules.setdefault(production, []).append(rule)
        for cls in self.nodes.values():
            if cls.__dict__.get("_pending"):
                del cls._pending
                cls._rules = tuple(rules.get(cls._production, ()))
                _install_checks(cls, self._kind_check, self.terminals)

    def _classes_of(self, name: str, visiting: set) -> list[type]:
        if name in visiting:
            return []
        visiting.add(name)
        nt = self.nonterminals[name]
        out = [self.nodes[p.name] for p in nt.productions]
        for inc in nt.includes:
            for cls in self._classes_of(inc, visiting):
                if cls not in out:
                    out.append(cls)
        return out

    def _kind_check(self, field: Field) -> "Callable[[Any], bool] | tuple[type, ...]":
        """A terminal's predicate, or the tuple of classes a nonterminal's value must be one of."""
        if field.kind in self.terminals:
            return self.terminals[field.kind].predicate
        return self._nt_classes[field.kind]

    def _reusable_parent_classes(self) -> dict[str, type]:
        """Parent classes this language can share: greatest fixpoint of 'unchanged'."""
        parent = self.parent
        if parent is None:
            return {}
        same_prod: dict[str, bool] = {}
        for nt in self.nonterminals.values():
            for prod in nt.productions:
                theirs = parent._production_decl(prod.name)
                same_prod[prod.name] = (
                    theirs is not None
                    and theirs[0] == nt.name
                    and theirs[1].signature() == prod.signature()
                    and all(
                        f.kind not in self.terminals or parent.terminals.get(f.kind) is self.terminals[f.kind]
                        for f in prod.fields
                    )
                )
        same_nt: dict[str, bool] = {}
        for name, nt in self.nonterminals.items():
            theirs = parent.nonterminals.get(name)
            same_nt[name] = (
                theirs is not None
                and {p.name for p in theirs.productions} == {p.name for p in nt.productions}
                and set(theirs.includes) == set(nt.includes)
            )
        changed = True
        while changed:
            changed = False
            for name, nt in self.nonterminals.items():
                for prod in nt.productions:
                    if same_prod[prod.name] and any(
                        f.kind in self.nonterminals and not same_nt[f.kind] for f in prod.fields
                    ):
                        same_prod[prod.name] = False
                        changed = True
                if same_nt[name] and (
                    any(not same_prod[p.name] for p in nt.productions)
                    or any(not same_nt[i] for i in nt.includes)
                ):
                    same_nt[name] = False
                    changed = True
        return {name: parent.nodes[name] for name, same in same_prod.items() if same}

    def _production_decl(self, name: str) -> tuple[str, Production] | None:
        for nt in self.nonterminals.values():
            for prod in nt.productions:
                if prod.name == name:
                    return nt.name, prod
        return None

    # -- queries --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Language {self.name}>"

    def classes(self, nonterminal: str) -> tuple[type, ...]:
        """The node classes that belong to ``nonterminal`` (through includes too)."""
        return self._nt_classes[nonterminal]

    def owns(self, node_or_class: Any) -> bool:
        cls = node_or_class if isinstance(node_or_class, type) else type(node_or_class)
        return cls in self._class_set

    def is_program(self, tree: Any) -> bool:
        """A tree belongs to this language iff its root is an entry node of it.

        Construction checks make the rest of the tree follow (every field was checked against
        this language's nonterminals when built).
        """
        return isinstance(tree, self._nt_classes[self.entry])

    def verify(self, tree: Any, known: frozenset = frozenset(), inherited: frozenset = frozenset()) -> frozenset:
        """Raise VerifyError unless ``tree`` is a program of this language meeting its invariants.

        Invariants in ``known`` are already established for this very tree and are not run again.
        Nor are those in ``inherited``: the pass that made ``tree`` preserves them, and its input
        met them; one that remembers the trees that passed it (its ``record`` function, if it has
        one) is given the tree to remember. Nor are those the constructors of this language's
        classes check (node rules, ``proves``): every tree meets them. Returns the invariants
        ``tree`` is now known to meet.
        """
        from .errors import VerifyError

        if not self.is_program(tree):
            raise VerifyError(
                f"expected a {self.entry} of language '{self.name}', got {type(tree).__name__}"
                + (f" of language '{tree._origin}'" if isinstance(tree, Node) else ""),
                node=tree,
            )
        for invariant in self._checked_invariants:  # (not those the constructors check: ``proves``)
            if invariant in inherited:
                record = getattr(invariant, "record", None)
                if record is not None:
                    record(tree)
            elif invariant not in known:
                invariant(tree)
        return known.union(self.invariants)

    def proves(self, invariant: Callable[[Node], None]) -> bool:
        """Whether the grammar alone makes every tree of this language meet ``invariant``: one
        that refuses the productions it names in ``excludes`` (an attribute of the function), of
        which this language has none; or one that holds of each node of some productions on its
        own, whose ``node_rules`` (production -> a function of the node that raises where the
        node breaks the invariant) every constructor of this language's classes of those
        productions runs (installed on the classes the language makes, for its invariants)."""
        excludes = getattr(invariant, "excludes", None)
        if excludes is not None and self.nodes.keys().isdisjoint(excludes):
            return True
        return self._rules_prove(invariant)

    def _rules_prove(self, invariant: Callable[[Node], None]) -> bool:
        """Whether ``invariant`` has ``node_rules`` and every class of this language of their
        productions runs them when built (a class shared with a language without the invariant
        may not)."""
        rules = getattr(invariant, "node_rules", None)
        if not rules:
            return False
        return all(
            production not in self.nodes or rule in self.nodes[production]._rules for production, rule in rules.items()
        )

    def production(self, name: str) -> Production:
        """The declaration of production ``name`` (to derive a changed one in an extension)."""
        decl = self._production_decl(name)
        if decl is None:
            raise KeyError(f"language {self.name} has no production {name}")
        return decl[1]

    # -- extension ------------------------------------------------------------------------------

    def extend(
        self,
        name: str,
        *,
        doc: str = "",
        add_terminals: Iterable[Terminal] = (),
        remove_terminals: Iterable[str] = (),
        add_nonterminals: Iterable[Nonterminal] = (),
        remove_nonterminals: Iterable[str] = (),
        add: dict[str, Iterable["Production | str"]] | None = None,
        remove: dict[str, Iterable[str]] | None = None,
        invariants: Iterable[Callable[[Node], None]] = (),
        drop_invariants: Iterable[Callable[[Node], None]] = (),
        inherit_invariants: bool = True,
        entry: str | None = None,
    ) -> "Language":
        """A new language = this one minus ``remove`` plus ``add`` (nanopass's ``-`` and ``+``).

        ``remove``/``add`` map a nonterminal name to production names (or included nonterminal
        names) to drop / productions (or nonterminal names) to add. Replacing a production is a
        remove plus an add of the same name.
        """
        add = add or {}
        remove = remove or {}
        terminals = {t.name: t for t in self.terminals.values()}
        for t in remove_terminals:
            if t not in terminals:
                raise ValueError(f"extend {name}: no terminal {t} to remove")
            del terminals[t]
        for t in add_terminals:
            terminals[t.name] = t
        nts: dict[str, tuple[list, list]] = {
            n: (list(nt.productions), list(nt.includes)) for n, nt in self.nonterminals.items()
        }
        docs = {n: nt.doc for n, nt in self.nonterminals.items()}
        for n in remove_nonterminals:
            if n not in nts:
                raise ValueError(f"extend {name}: no nonterminal {n} to remove")
            del nts[n]
        for nt in add_nonterminals:
            if nt.name in nts:
                raise ValueError(f"extend {name}: nonterminal {nt.name} already exists")
            nts[nt.name] = (list(nt.productions), list(nt.includes))
            docs[nt.name] = nt.doc
        for n, names in remove.items():
            if n not in nts:
                raise ValueError(f"extend {name}: no nonterminal {n}")
            prods, incs = nts[n]
            for p in names:
                if any(x.name == p for x in prods):
                    prods[:] = [x for x in prods if x.name != p]
                elif p in incs:
                    incs.remove(p)
                else:
                    raise ValueError(f"extend {name}: {n} has no alternative {p} to remove")
        for n, alts in add.items():
            if n not in nts:
                raise ValueError(f"extend {name}: no nonterminal {n}")
            prods, incs = nts[n]
            for alt in alts:
                if isinstance(alt, Production):
                    prods.append(alt)
                else:
                    incs.append(alt)
        dropped = set(map(id, drop_invariants))
        return Language(
            name,
            terminals=terminals.values(),
            nonterminals=[Nonterminal(n, *prods, *incs, doc=docs[n]) for n, (prods, incs) in nts.items()],
            entry=entry or self.entry,
            doc=doc,
            invariants=[i for i in self.invariants if inherit_invariants and id(i) not in dropped] + list(invariants),
            parent=self,
        )

    # -- text -----------------------------------------------------------------------------------

    def grammar_text(self) -> str:
        """The grammar in a nanopass-like notation, one alternative per line."""
        lines = [f"(language {self.name}", f"  (entry {self.entry})"]
        if self.doc:
            lines.insert(1, f"  ; {self.doc}")
        lines.append("  (terminals")
        for t in self.terminals.values():
            lines.append(f"    ({t.name}){'  ; ' + t.doc if t.doc else ''}")
        lines[-1] += ")"
        for nt in self.nonterminals.values():
            alts = [p.text() for p in nt.productions] + list(nt.includes)
            head = f"  ({nt.name} ::="
            lines.append(head + (" " + alts[0] if alts else ""))
            for alt in alts[1:]:
                lines.append(" " * (len(head) - 2) + "| " + alt)
            lines[-1] += ")"
        lines[-1] += ")"
        return "\n".join(lines) + "\n"

    def diff(self, other: "Language") -> str:
        """What ``other`` adds (+) and removes (-) relative to this language."""
        lines = [f"(diff {self.name} -> {other.name})"]
        for t in self.terminals:
            if t not in other.terminals:
                lines.append(f"  - terminal {t}")
        for t in other.terminals:
            if t not in self.terminals:
                lines.append(f"  + terminal {t}")
            elif other.terminals[t] is not self.terminals[t]:
                lines.append(f"  ~ terminal {t} (redefined)")
        for n, nt in self.nonterminals.items():
            if n not in other.nonterminals:
                lines.append(f"  - nonterminal {n}")
        for n, nt in other.nonterminals.items():
            if n not in self.nonterminals:
                lines.append(f"  + nonterminal {n}")
                for p in nt.productions:
                    lines.append(f"      + {n} ::= {p.text()}")
                for i in nt.includes:
                    lines.append(f"      + {n} ::= {i}")
                continue
            mine = self.nonterminals[n]
            my_prods = {p.name: p for p in mine.productions}
            their_prods = {p.name: p for p in nt.productions}
            for p in mine.productions:
                if p.name not in their_prods or their_prods[p.name].signature() != p.signature():
                    lines.append(f"  - {n} ::= {p.text()}")
            for p in nt.productions:
                if p.name not in my_prods or my_prods[p.name].signature() != p.signature():
                    lines.append(f"  + {n} ::= {p.text()}")
            for i in mine.includes:
                if i not in nt.includes:
                    lines.append(f"  - {n} ::= {i}")
            for i in nt.includes:
                if i not in mine.includes:
                    lines.append(f"  + {n} ::= {i}")
        if len(lines) == 1:
            lines.append("  (no differences)")
        return "\n".join(lines) + "\n"
