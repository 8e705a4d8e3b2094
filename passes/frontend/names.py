"""Name resolution: what a callee spells, and which names a program may bind."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .program import ProgramParser


def attr_path(node: ast.AST) -> list[str] | None:
    """``pl.tensor.read`` -> ['pl', 'tensor', 'read']; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def dsl_call(node: ast.AST) -> str | None:
    """The DSL op a call spells (``pl.tensor.read(...)`` -> 'tensor.read'); None otherwise."""
    if type(node) is not _CALL and not isinstance(node, _CALL):
        return None
    func = node.func
    if type(func) is _ATTRIBUTE:  # pl.op(...), the usual spelling (each field of a node read once:
        value = func.value  # an ast node's attribute is a dictionary lookup, not a slot)
        if type(value) is _NAME:
            return None if value.id == "self" else func.attr
    path = attr_path(func)
    if path is None or len(path) < 2 or path[0] == "self":
        return None
    return ".".join(path[1:])


_CALL, _ATTRIBUTE, _NAME = ast.Call, ast.Attribute, ast.Name


def check_call_receivers(program: ProgramParser, fdef: ast.FunctionDef) -> None:
    """Every ``x.op(...)`` in ``fdef`` calls on ``self`` or on the DSL module (``x`` bound to
    ``nanopass.dsl`` under any name, and not re-bound in ``fdef``): ``dsl_call`` reads the spelling
    only, so a call on another module, a constant or a variable would be taken for ``pl.op(...)``.
    Of several such calls, the first in ``ast.walk`` order is reported."""
    from nanopass import dsl

    local = {arg.arg for arg in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs}
    closure = program.src.closure
    if not program.src.printed and receivers_proved_by_text(program.src, fdef, local, dsl):
        return
    stores, receivers = _stores_and_receivers(fdef, None if program.src.printed else quiet_expressions(program.src))
    local.update(stores)

    def wrong(node: ast.Call) -> list[str] | None:
        path = attr_path(node.func)
        if path is None or path[0] == "self" or (path[0] not in local and closure.get(path[0]) is dsl):
            return None
        return path

    # The receivers (the name under each call's attributes) tell whether any call is wrong; only
    # a wrong one needs its path.
    receivers.discard("self")
    if all(r not in local and closure.get(r) is dsl for r in receivers):
        return
    for node in ast.walk(fdef):  # (rare: the walk that fixes which one is reported)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (path := wrong(node)) is not None:
            raise program.error(
                f"'{'.'.join(path)}' is not an operation of the DSL: '{path[0]}' is not the DSL module (nanopass.dsl)",
                node, hint=f"DSL operations are called on the imported module: pl.{'.'.join(path[1:])}(...)")


# The ASCII word characters, and a table that makes every other byte but a dot a blank.
_WORD_BYTES = bytes(c for c in range(128) if chr(c).isalnum() or chr(c) == "_")
_BLANK_TABLE = bytes(c if c in _WORD_BYTES or c == ord(".") else ord(" ") for c in range(256))
_NUMBER_HEAD = re.compile(rb"\.[0-9A-Za-z_]*[0-9] ")  # a number's head (0 of 0.5), in the reversed blanked text


def receivers_proved_by_text(src, fdef: ast.FunctionDef, params: set[str], dsl) -> bool:
    """True when the text of ``fdef`` (its lines, decorators included) proves what
    ``check_call_receivers`` checks, without a walk of its tree; False (the walk decides) when
    any step of the proof fails. The text is ASCII (``ast`` normalizes other identifiers), its
    other characters than word characters and dots read as blanks. Each dot must follow a word
    character (not ``(pl).op``, ``pl .op``, ``f(x).op``): a call's receiver is then a *head*, the
    word before a dot that follows a blank (strings and comments only add heads). Each head that
    is a name and not ``self`` must be ``dsl`` in the closure, no parameter (``params``) and
    never stored: it occurs in the text as a head only (a stored name is followed by ``=``,
    ``in``, ``:``, ``,`` or a bracket, never by a dot). For a tree whose nodes sit at their own
    text (not the printed form's).

    Counted, without a string per dot: the heads that are a name ``h`` are the occurrences of
    blank, ``h``, dot in the blanked text; those that are a number's (``0`` of ``0.5``) are
    found in the reversed text; all heads are the blank-dot pairs once the word characters are
    deleted (each head's word with them): the runs of dots left, each after a blank (the text
    begins with one), which ``split`` counts in fewer instructions than ``count`` counts the
    pairs. The heads of ``self``, of the names bound to ``dsl``
    and of numbers must add up to all of them."""
    first = min([fdef.lineno, *(d.lineno for d in fdef.decorator_list)])
    text = src.lines_text(first, fdef.end_lineno)
    if not text.isascii():
        return False
    data = text.encode()
    blanked = b" " + data.translate(_BLANK_TABLE)  # (the text begins with a blank)
    names = [name.encode() for name, value in src.closure.items()  # (a head is an ASCII identifier)
             if value is dsl and isinstance(name, str) and name.isascii() and name.isidentifier()
             and name != "self" and name not in params]
    counts = [blanked.count(b" " + name + b".") for name in names]
    found, heads = blanked.count(b" self.") + sum(counts), len(blanked.translate(None, _WORD_BYTES).split())
    if found != heads and found + len(_NUMBER_HEAD.findall(blanked[::-1])) != heads:
        return False  # (a dot after a blank, or another receiver)
    words = None
    for name, count in zip(names, counts):
        if count and data.count(name) != count:  # (occurrences inside other words, or not as a head)
            if words is None:
                words = blanked.replace(b".", b" ").split()
            if words.count(name) != count:
                return False
    return True


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # node class -> its fields that may hold nodes


def quiet_expressions(src) -> Callable[[ast.expr], bool]:
    """A test of an expression of ``src``'s file: True when its source text proves that it holds
    no call and no store. The text is the node's own (one line of ASCII text: ``ast`` columns
    count bytes); a call's text has a ``(``, a store in an expression is the target of ``:=`` or
    of a comprehension's ``for``, so text without ``(``, ``:`` and ``for`` has neither (a false
    alarm, such as ``for`` inside a name, only costs the walk). For a tree whose nodes sit at
    their own text: not the printed form's, which makes nodes at other nodes' places; a node
    without a position is entered."""
    lines, wide = src.lines(), src.wide_line_numbers()

    def quiet(node: ast.expr) -> bool:
        line = getattr(node, "lineno", None)  # (a node made by the compiler may have no position)
        if line is None or getattr(node, "end_lineno", None) != line or line in wide:
            return False
        text = lines[line - 1][node.col_offset:node.end_col_offset]
        return "(" not in text and ":" not in text and "for" not in text

    return quiet


def _stores_and_receivers(root: ast.AST, quiet: Callable[[ast.expr], bool] | None = None) -> tuple[list[str], set[str]]:
    """The names stored to (``ast.Name`` in a ``Store`` context) and the receivers of the calls
    ``x.attr(...)`` (the name under the call's attributes, ``x`` of ``x.a.b(...)``) in ``root``,
    every node included as ``ast.walk`` includes it (in another order): a walk without its
    generators, which costs most of what reading a large function costs otherwise. The
    commonest nodes of a DSL body (assignments, calls, attributes, keywords, lists, arithmetic,
    loops, ifs) are entered field by field, without looking their fields up; others through
    their ``_fields``; an assignment's or expression statement's value, a loop's iterator, a
    call's receiver name, an assignment's or a loop's one name target, and the names and
    constants among a call's arguments (or keyword values), under an argument's attributes
    (``pl.FP32``) and in an argument's list (``[16, 16]``) are looked at in place, without a
    trip through the stack. Another argument that ``quiet`` (``quiet_expressions``) proves
    holds no call and no store is not entered (None: every one is)."""
    stores: list[str] = []
    receivers: set[str] = set()
    stack = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    name_, constant, call, attribute, store, node_class = ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Store, ast.AST
    assign, expr, keyword, list_, tuple_ = ast.Assign, ast.Expr, ast.keyword, ast.List, ast.Tuple
    binop, for_, if_ = ast.BinOp, ast.For, ast.If
    receiver = receivers.add
    child_fields = _CHILD_FIELDS
    while stack:
        node = pop()
        kind = type(node)
        if kind is assign:  # targets, value (type_comment is a string); the value is read in place below
            targets = node.targets
            target = targets[0] if len(targets) == 1 else None
            if type(target) is name_:
                if isinstance(target.ctx, store):
                    stores.append(target.id)
            else:
                extend(targets)
            node = node.value
            kind = type(node)
        elif kind is expr:
            node = node.value
            kind = type(node)
        elif kind is for_:  # target, iter, body, orelse (type_comment is a string); the iter is read in place below
            target = node.target
            if type(target) is name_:
                if isinstance(target.ctx, store):
                    stores.append(target.id)
            else:
                push(target)
            extend(node.body)
            extend(node.orelse)
            node = node.iter
            kind = type(node)
        if kind is name_:
            if isinstance(node.ctx, store):
                stores.append(node.id)
            continue
        if kind is constant:
            continue
        if kind is call or kind is binop:  # func, args, keywords; left, right (a binop's op holds nothing)
            if kind is binop:
                items = (node.left, node.right)
            else:
                func = node.func
                if isinstance(func, attribute):  # its value (its attr is a string, its ctx holds nothing)
                    value = func if type(func) is not attribute else func.value
                    if type(value) is name_:  # pl.op(...), self.k(...): the receiver itself
                        receiver(value.id)
                        if isinstance(value.ctx, store):
                            stores.append(value.id)
                    else:
                        head = value
                        while isinstance(head, attribute):
                            head = head.value
                        if isinstance(head, name_):
                            receiver(head.id)
                        push(value)
                else:
                    push(func)
                items = node.args if not node.keywords else [*node.args, *node.keywords]
            for item in items:
                kind = type(item)
                if kind is keyword:  # (its arg is a string: its value only)
                    item = item.value
                    kind = type(item)
                if kind is attribute:  # pl.FP32: the name (or other node) under it, in place
                    while type(item) is attribute:
                        item = item.value
                    kind = type(item)
                elif kind is list_:  # [16, 16], [i, 0]: its names and constants in place
                    for elt in item.elts:
                        kind = type(elt)
                        if kind is name_:
                            if isinstance(elt.ctx, store):
                                stores.append(elt.id)
                        elif kind is not constant:
                            push(elt)
                    continue
                if kind is name_:
                    if isinstance(item.ctx, store):
                        stores.append(item.id)
                elif kind is not constant and (quiet is None or not quiet(item)):
                    push(item)
            continue
        if kind is attribute:
            push(node.value)
            continue
        if kind is list_ or kind is tuple_:
            extend(node.elts)
            continue
        if kind is if_:  # test, body, orelse
            push(node.test)
            extend(node.body)
            extend(node.orelse)
            continue
        fields = child_fields.get(kind)
        if fields is None:
            fields = child_fields[kind] = tuple(f for f in getattr(kind, "_fields", ()) if f != "ctx")
        for field in fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                extend(value)  # (a list may hold strings or None too: they have no fields)
            elif isinstance(value, node_class):
                push(value)
    return stores, receivers


def self_method(node: ast.AST) -> str | None:
    """``self.k`` -> 'k'."""
    if isinstance(node, _ATTRIBUTE):
        value = node.value  # (read once: an ast node's attribute is a dictionary lookup)
        if isinstance(value, _NAME) and value.id == "self":
            return node.attr
    return None


def check_user_name(program: ProgramParser, name: str, node: ast.AST) -> None:
    """A name the program gives a variable, a parameter or a dimension: an ASCII identifier (the
    C++ declares it; ``Binder`` and ``Var`` take ``symbol``s), without the ``__`` of the compiler's
    variable versions (allowed in the printed form, whose variables are those versions)."""
    if not (name.isascii() and name.isidentifier()):
        raise program.error(f"'{name}' is not a name the C++ can declare: a variable, parameter or dimension "
                            "name is letters, digits and '_' of ASCII", node, hint="rename it")
    if "__" in name and not program.src.printed:
        raise program.error(
            f"'{name}': names containing '__' are reserved for the compiler's variable versions", node
        )
