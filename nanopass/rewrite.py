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
from typing import Any, Callable, ClassVar

from .errors import InternalError, Span
from .language import Language, Node, _check_lines, _fail, construction_lines

# Verb-first names: the first word of every pass name must be one of these.
PASS_VERBS = frozenset(
    """
    add analyze assign attach batch bind check classify clear collect convert decide define derive drop
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
class PassWarning:
    """A likely mistake in the program that does not stop the compile: located, with a help line;
    the command line prints it as an error is printed, as ``warning:``."""

    pass_name: str
    message: str
    span: Span | None = None
    hint: str | None = None
    notes: tuple[str, ...] = ()  # as ``UserError.notes``


@dataclass
class PassContext:
    """What a pass may read besides its input tree: options, and a place to leave notes and warnings."""

    options: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    current_pass: str = ""
    warnings: list[PassWarning] = field(default_factory=list)

    def option(self, key: str, default: Any = None) -> Any:
        return self.options.get(key, default)

    def note(self, kind: str, message: str, span: Span | None = None) -> None:
        self.notes.append(Note(self.current_pass, kind, message, span))

    def warn(self, message: str, span: Span | None = None, hint: str | None = None) -> None:
        self.warnings.append(PassWarning(self.current_pass, message, span, hint))


class Pass:
    """Base class of every pass. Subclasses set ``name``, ``source``, ``target`` and a docstring."""

    name: ClassVar[str] = ""
    source: ClassVar[Language]
    target: ClassVar[Language]
    # Invariants of both languages that the pass cannot break, by its contract (its docstring
    # says why): the pipeline does not check them again on the output of an input that met them
    # (``Pipeline.run``'s ``recheck_preserved`` checks them all the same). One of the target's
    # alone may be declared when the source's grammar proves it (``Language.proves``): the pass
    # builds none of the productions it refuses.
    preserves: ClassVar[frozenset] = frozenset()
    # Invariants of both languages that the pass reflects, by its contract (its docstring says
    # why): its output meets one only if its input does (what the invariant reads of a tree
    # the pass keeps). The pipeline checks them on the pass's output in place of its input, the
    # output of the pass before (``Pipeline.run``; ``recheck_preserved`` checks both).
    reflects: ClassVar[frozenset] = frozenset()
    _handlers: ClassVar[dict[str, str]] = {}
    _touched: ClassVar[frozenset[str]] = frozenset()
    _inert: ClassVar[frozenset[type]] = frozenset()
    _clause_code: ClassVar[dict[type, tuple[Any, dict[str, Any]]]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            return
        _check_declaration(cls)
        cls._prepare()

    @classmethod
    def _prepare(cls) -> None:
        """Derive the class's handlers, touched nonterminals and inert classes from its declaration."""
        cls._handlers = {
            prod: prod for prod in cls.source.nodes if callable(getattr(cls, prod, None))
        }
        cls._touched = _touched_nonterminals(cls)
        # node class -> its identity clause's code and the names the code uses that do not depend
        # on the pass instance (the instance's dispatch table and methods are bound per run)
        cls._clause_code = {}
        cls._inert = frozenset(
            node_cls
            for node_cls in cls.source.nodes.values()
            if node_cls._production not in cls._handlers
            and cls.target.owns(node_cls)
            and not any(f.kind in cls._touched for f in node_cls._field_specs)
        )

    def __init__(self, ctx: PassContext | None = None):
        self.ctx = ctx or PassContext()
        self.converted: tuple[Node, Node] | None = None  # (input, output) of the last ``convert``
        # How this pass treats a node of each class: its handler; the identity for classes it
        # returns as they are (no handler, kept by the target, nothing to visit inside); the
        # generated identity clause (``_rebuilder``) for other node classes, added on first sight.
        self._dispatch: dict[type, Callable[[Any], Any]] = dict.fromkeys(self._inert, _same)
        self._clauses: dict[type, Callable[[Node], Node]] = {}  # node class -> its identity clause
        self._dispatch.update(
            (cls, getattr(self, prod)) for prod in self._handlers for cls in [self.source.nodes[prod]]
        )

    def release(self) -> None:
        """Drop everything the run kept (the pipeline calls it once the pass is done). A pass's
        dispatch table holds its bound methods, so a pass object is a reference cycle: with the
        cyclic collector paused (``Pipeline.run``) it would keep the trees its fields hold alive
        until the compile ends."""
        vars(self).clear()

    @classmethod
    def contract(cls) -> str:
        """The pass's docstring as text: its paragraphs apart (a blank line between), each on one
        line. The first paragraph is the summary the report's page shows.

        Made once per class and docstring (the pipeline gives every stage its pass's contract:
        formatting the docstrings again cost each compile about 6 million instructions); kept
        on the class itself beside the docstring it was made of, and made again if that changes."""
        doc = cls.__doc__
        made = cls.__dict__.get("_contract_text")
        if made is not None and made[0] is doc:
            return made[1]
        paragraphs = re.split(r"\n\s*\n", (doc or "").strip())
        text = "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())
        cls._contract_text = (doc, text)
        return text

    # -- running ------------------------------------------------------------------------------

    def run(self, tree: Node) -> Node:
        """Transform a whole program. Override for passes that need a setup step first."""
        return self.visit(tree)

    def convert(self, tree: Node) -> Node:
        """``tree`` as it is, rebuilt in the target language: the identity clauses alone, no
        handler of this pass runs. The pipeline knows the result meets every invariant ``tree``
        met (the two trees differ in their node classes only) and does not check those again."""
        conversion = _conversion(type(self).source, type(self).target)(self.ctx)
        result = conversion.visit(tree)
        conversion.release()
        self.converted = (tree, result)
        return result

    def visit(self, node: Any) -> Any:
        """Apply the handler for ``node``'s production, or rebuild it from visited children."""
        step = self._dispatch.get(type(node))
        if step is None:
            step = self._step_for(type(node))
        return step(node)

    def _step_for(self, cls: type) -> Callable[[Any], Any]:
        """What ``visit`` does with a value of a class seen for the first time (then kept)."""
        if issubclass(cls, Node):
            step = self._clause(cls)
        elif issubclass(cls, tuple):
            step = self.visit_all
        else:  # a terminal's value (a name, a number, an enum, None)
            step = _same
        self._dispatch[cls] = step
        return step

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
        return cls.make(*values, span=span)

    def visit_all(self, items: tuple, kinds: frozenset | None = None, odd: Callable[[Any], None] | None = None) -> tuple:
        """Visit each element of a tuple field, splicing list results; reuse the tuple if unchanged.

        With ``kinds`` (an identity clause's, for a field whose input elements the grammar proves
        to belong to the target's field, ``_proved_kind``), each element that a step returned in
        place of another (a list's elements too) is checked as it comes: its class is one of
        ``kinds``, else ``odd(element)`` says whether it belongs (and raises if not). The elements
        that come back as they were need no check, and the clause sets the tuple unchecked."""
        step_of, visit = self._dispatch.get, self.visit
        if len(items) == 1:  # most tuple fields (a loop's carries and its body's one scope)
            item = items[0]
            step = step_of(type(item))
            new = step(item) if step is not None else visit(item)
            if new is item:
                return items
            return tuple(new) if isinstance(new, list) else (new,)
        rest = iter(items)
        for item in rest:  # the elements before the first that changes are kept as they are
            step = step_of(type(item))
            new = step(item) if step is not None else visit(item)
            if new is not item:
                break
        else:
            return items
        out = list(items[: len(items) - 1 - rest.__length_hint__()])  # (a tuple's iterator knows what is left)
        if isinstance(new, list):
            out.extend(new)
            if kinds is not None:
                _check_new(new, kinds, odd)
        else:
            out.append(new)
            if kinds is not None and type(new) not in kinds:
                odd(new)
        for item in rest:
            step = step_of(type(item))
            new = step(item) if step is not None else visit(item)
            if isinstance(new, list):
                out.extend(new)
                if kinds is not None:
                    _check_new(new, kinds, odd)
            else:
                out.append(new)
                if kinds is not None and new is not item and type(new) not in kinds:
                    odd(new)
        return tuple(out)

    def rebuild(self, node: Node) -> Node:
        """The identity clause: visit the children this pass can change, then rebuild ``node``."""
        return self._clause(type(node))(node)

    def _clause(self, cls: type) -> Callable[[Node], Node]:
        clause = self._clauses.get(cls)
        if clause is None:
            clause = self._clauses[cls] = _rebuilder(self, cls)
        return clause

    def _not_in_target(self, node: Node):
        raise InternalError(
            f"no handler for production {node._production}, which language '{self.target.name}' does not have",
            pass_name=self.name,
            node=node,
        )

    def _list_for_single_field(self, node: Node, name: str):
        raise InternalError(f"handler returned a list for the single field '{name}'", pass_name=self.name, node=node)


_CONVERSIONS: dict[tuple[Language, Language], type[Pass]] = {}


def _conversion(source: Language, target: Language) -> type[Pass]:
    """The pass without handlers from ``source`` to ``target`` (made once per pair)."""
    conversion = _CONVERSIONS.get((source, target))
    if conversion is None:
        conversion = type(f"_Convert_{source.name}_to_{target.name}", (Pass,), {"source": source, "target": target})
        conversion.name = f"convert_{source.name}_to_{target.name}"
        conversion._prepare()
        _CONVERSIONS[source, target] = conversion
    return conversion


def _rebuilder(pass_: Pass, cls: type) -> Callable[[Node], Node]:
    """Generate the identity clause of ``pass_`` for nodes of ``cls``: visit the fields whose
    nonterminal the pass can change (each element of a tuple field), reuse the node if no child
    changed and the target language keeps the class, else build the target's class.

    The target node is built in the clause itself (``construction_lines``); a field passed on
    unvisited is not checked again when the grammar proves its value belongs to the target's
    field (``_proved_fields``), nor is the span (the input node's).
    """
    compiled = pass_._clause_code.get(cls)
    if compiled is None:
        compiled = pass_._clause_code[cls] = _compile_clause(pass_, cls)
    code, shared = compiled
    env = dict(shared)
    env["visit"] = pass_.visit
    env["step_of"] = pass_._dispatch.get
    env["visit_all"] = pass_.visit_all
    env["missing"] = pass_._not_in_target
    env["bad_list"] = pass_._list_for_single_field
    exec(code, env)  # noqa: S102 - defines the clause (compiled once per pass and node class)
    return env["rebuild"]


def _compile_clause(pass_: Pass, cls: type) -> tuple[Any, dict[str, Any]]:
    touched = pass_._touched
    target_cls = cls if pass_.target.owns(cls) else pass_.target.nodes.get(cls._production)
    env: dict[str, Any] = {
        "target": target_cls, "List": list, "tp": type, "len": len, "spliced": _spliced
    }
    if target_cls is not None:
        env["builder"] = target_cls._builder
    lines = ["def rebuild(node):"]
    values, compare = [], []
    # The tuple fields whose elements the clause checks as they come back from their steps (only
    # those a step replaced: the others, the input's, belong to the target's field by the grammar,
    # ``_proved_kind``), so that the construction sets them unchecked. For a clause that builds
    # the target's class of the same fields, and a pass whose ``visit_all`` is the framework's.
    checked_here = frozenset()
    if target_cls is not None and target_cls._field_specs == cls._field_specs and type(pass_).visit_all is Pass.visit_all:
        checked_here = frozenset(
            i for i, spec in enumerate(cls._field_specs)
            if spec.many and spec.kind in touched and _proved_kind(pass_, spec.kind)
        )
    for i, spec in enumerate(cls._field_specs):
        lines.append(f"    v{i} = node.{spec.name}")
        values.append(f"n{i}" if spec.kind in touched else f"v{i}")
        if spec.kind not in touched:
            continue
        compare.append(f"n{i} is v{i}")
        if i in checked_here:
            lines += _checked_tuple_lines(target_cls, i, env)
        elif spec.many:
            # visit_all(v), with its one- and two-element cases (most tuple fields that have
            # elements: a loop's carries, a body's one scope, a body of a statement and a Yield,
            # shapes, offsets, arguments, dependencies) done here
            lines.append(f"    if not v{i}:")
            lines.append(f"        n{i} = v{i}")
            lines.append(f"    elif len(v{i}) == 1:")
            lines.append(f"        e{i} = v{i}[0]")
            lines.append(f"        s{i} = step_of(tp(e{i}))")
            lines.append(f"        m{i} = s{i}(e{i}) if s{i} is not None else visit(e{i})")
            lines.append(f"        n{i} = v{i} if m{i} is e{i} else tuple(m{i}) if tp(m{i}) is List else (m{i},)")
            lines.append(f"    elif len(v{i}) == 2:")
            lines.append(f"        e{i}, f{i} = v{i}")
            lines.append(f"        s{i} = step_of(tp(e{i}))")
            lines.append(f"        m{i} = s{i}(e{i}) if s{i} is not None else visit(e{i})")
            lines.append(f"        s{i} = step_of(tp(f{i}))")
            lines.append(f"        k{i} = s{i}(f{i}) if s{i} is not None else visit(f{i})")
            lines.append(f"        if m{i} is e{i} and k{i} is f{i}: n{i} = v{i}")
            lines.append(f"        elif tp(m{i}) is List or tp(k{i}) is List: n{i} = spliced(m{i}, k{i})")
            lines.append(f"        else: n{i} = (m{i}, k{i})")
            lines.append("    else:")
            lines.append(f"        n{i} = visit_all(v{i})")
        else:
            # visit(v), with visit's dispatch lookup done here
            lines.append(f"    s{i} = step_of(tp(v{i}))")
            lines.append(f"    n{i} = s{i}(v{i}) if s{i} is not None else visit(v{i})")
            lines.append(f"    if tp(n{i}) is List: bad_list(node, {spec.name!r})")
    if target_cls is None:
        lines.append("    return missing(node)")
    elif target_cls._field_specs != cls._field_specs:  # another production: its constructor decides
        args = "".join(v + ", " for v in values)
        lines.append(f"    return target({args}span=node.span)")
    else:
        if target_cls is cls:
            lines.append(f"    if {' and '.join(compare) or 'True'}: return node")
        lines.append("    out = builder()")
        lines.append("    span = node.span")
        trusted = _proved_fields(pass_, cls) | checked_here | {-1}
        visited = [i for i, spec in enumerate(cls._field_specs) if spec.kind in touched]
        tuples = frozenset(i for i in visited if cls._field_specs[i].many)  # (see above: always a tuple)
        same = {i: f"v{i}" for i in visited if _proved_kind(pass_, cls._field_specs[i].kind)}
        lines += construction_lines(
            target_cls, "out", values, "span", frozenset(trusted), env, tuples=tuples, trusted_if_same=same
        )
        lines.append("    return out")
    code = compile("\n".join(lines), f"<identity clause of {cls._production} in {pass_.name}>", "exec")
    return code, env


def _checked_tuple_lines(target_cls: type, i: int, env: dict[str, Any]) -> list[str]:
    """The identity clause's visit of the tuple field ``i`` (in ``v{i}``) into ``n{i}``, each
    element a step replaced checked against the field of ``target_cls`` (``visit_all``'s
    ``kinds``); its one- and two-element cases (most tuple fields that have elements: a loop's
    carries, a body's one scope, a body of a statement and a Yield, two arguments) done here."""
    spec = target_cls._field_specs[i]
    env[f"S{i}"] = frozenset(target_cls._kind_checks[i])
    env[f"odd{i}"] = _element_check(target_cls, i)
    whole = [  # (a list a step returned: every element checked, as the constructor checks a tuple)
        "            " + line
        for line in _check_lines(target_cls, f"_{target_cls.__name__}_", i, spec, target_cls._kind_checks[i], f"n{i}", env, True)
    ]
    return [
        f"    if not v{i}:",
        f"        n{i} = v{i}",
        f"    elif len(v{i}) == 1:",
        f"        e{i} = v{i}[0]",
        f"        s{i} = step_of(tp(e{i}))",
        f"        m{i} = s{i}(e{i}) if s{i} is not None else visit(e{i})",
        f"        if m{i} is e{i}:",
        f"            n{i} = v{i}",
        f"        elif tp(m{i}) is List:",
        f"            n{i} = tuple(m{i})",
        *whole,
        "        else:",
        f"            n{i} = (m{i},)",
        f"            if tp(m{i}) not in S{i}: odd{i}(m{i})",
        f"    elif len(v{i}) == 2:",
        f"        e{i}, f{i} = v{i}",
        f"        s{i} = step_of(tp(e{i}))",
        f"        m{i} = s{i}(e{i}) if s{i} is not None else visit(e{i})",
        f"        s{i} = step_of(tp(f{i}))",
        f"        k{i} = s{i}(f{i}) if s{i} is not None else visit(f{i})",
        f"        if m{i} is e{i} and k{i} is f{i}:",
        f"            n{i} = v{i}",
        f"        elif tp(m{i}) is List or tp(k{i}) is List:",
        f"            n{i} = spliced(m{i}, k{i})",
        *whole,
        "        else:",
        f"            n{i} = (m{i}, k{i})",
        f"            if m{i} is not e{i} and tp(m{i}) not in S{i}: odd{i}(m{i})",
        f"            if k{i} is not f{i} and tp(k{i}) not in S{i}: odd{i}(k{i})",
        "    else:",
        f"        n{i} = visit_all(v{i}, S{i}, odd{i})",
    ]


def _check_new(elements: list, kinds: frozenset, odd: Callable[[Any], None]) -> None:
    """``visit_all``'s check of the elements a step returned as a list (see its ``kinds``)."""
    for element in elements:
        if type(element) not in kinds:
            odd(element)


def _element_check(cls: type, index: int) -> Callable[[Any], None]:
    """The check of an element of the tuple field ``index`` of a ``cls`` node whose class is not
    one of the field's classes exactly: an instance of one of them (a subclass) passes, anything
    else raises ``GrammarError`` as the constructor would (``language._fail``)."""
    classes = cls._kind_checks[index]

    def odd(element: Any) -> None:
        if not isinstance(element, classes):
            _fail(cls, index, element, None)

    return odd


def _spliced(*results: Any) -> tuple:
    """The visited elements of a tuple field as a tuple, each list a handler returned spliced in."""
    out: list = []
    for result in results:
        if type(result) is list:
            out += result
        else:
            out.append(result)
    return tuple(out)


def _proved_fields(pass_: Pass, cls: type) -> set[int]:
    """The fields of ``cls`` that an identity clause passes on unvisited and whose values the
    grammar proves to belong to the target's same field (``_proved_kind``)."""
    return {
        i for i, spec in enumerate(cls._field_specs) if spec.kind not in pass_._touched and _proved_kind(pass_, spec.kind)
    }


def _proved_kind(pass_: Pass, kind: str) -> bool:
    """Whether the grammar proves that a value of ``kind`` in the pass's source language is one
    of ``kind`` in its target: a terminal the two languages share, or a nonterminal every class
    of which (in the source) is one of the target's."""
    source, target = pass_.source, pass_.target
    if kind in source.terminals:
        return target.terminals.get(kind) is source.terminals[kind]
    return kind in target.nonterminals and set(source.classes(kind)) <= set(target.classes(kind))


def trusted_maker(pass_cls: type[Pass], production: str, checked: tuple[str, ...]) -> Callable[..., Node]:
    """``pass_cls.target.nodes[production].make`` (the span positional) that sets the span and
    every field but those in ``checked`` unchecked.

    The framework's two unchecked constructors differ in who proves the values. ``make_trusted``
    (``nanopass.language``, every node class has one) checks no field: its caller claims every
    value belongs to its field's kind, a claim the tests check by compiling under
    ``trusted_checked()``. This one checks the fields named in ``checked`` and trusts the others
    only where the grammar proves them: a pass that gives them the values of the same fields of
    its input's node of the same production, of a kind the two languages share (``_proved_kind``,
    the rule the generated identity clauses trust fields by). Raises TypeError where a trusted
    field is not so proved."""
    cls = pass_cls.target.nodes[production]
    source = {spec.name: spec for spec in pass_cls.source.nodes[production]._field_specs}
    names = [spec.name for spec in cls._field_specs]
    trusted = {-1}
    for i, spec in enumerate(cls._field_specs):
        if spec.name in checked:
            continue
        mine = source.get(spec.name)
        if mine is None or (mine.kind, mine.many, mine.optional) != (spec.kind, spec.many, spec.optional) or not _proved_kind(
            pass_cls, spec.kind
        ):
            raise TypeError(f"{pass_cls.name}: field {spec.name} of {production} is not proved by the grammar")
        trusted.add(i)
    env: dict = {}
    lines = [f"def make({', '.join(names)}, span):", "    self = _builder()"]
    lines += construction_lines(cls, "self", names, "span", frozenset(trusted), env)
    lines.append("    return self")
    env.update({"_builder": cls._builder})
    exec(compile("\n".join(lines), f"<trusted make of {production} in {pass_cls.name}>", "exec"), env)  # noqa: S102 - from the grammar only
    return env["make"]


def _same(node: Node) -> Node:
    return node


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
    for invariant in cls.preserves:  # (inherited too: a subclass may declare other languages)
        if invariant not in cls.target.invariants or not (
            invariant in cls.source.invariants or cls.source.proves(invariant)
        ):
            raise TypeError(
                f"pass {name} preserves {getattr(invariant, '__name__', invariant)!r}, which is not an invariant of "
                f"both {cls.source.name} and {cls.target.name} (nor one of {cls.target.name}'s that "
                f"{cls.source.name}'s grammar proves)"
            )
    for invariant in cls.reflects:
        if invariant not in cls.target.invariants or invariant not in cls.source.invariants:
            raise TypeError(
                f"pass {name} reflects {getattr(invariant, '__name__', invariant)!r}, which is not an invariant of "
                f"both {cls.source.name} and {cls.target.name}"
            )
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
