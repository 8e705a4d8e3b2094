"""Runtime scopes the user places: ``with pl.manual_scope():`` and ``with pl.scope(mode=...):``."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import ScopeMode

from ..names import attr_path
from ..registry import CONTEXT, dsl_op

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE
_MANUAL, _AUTO = ScopeMode.manual, ScopeMode.auto  # (an Enum member is slow to look up on its class)


@dsl_op("manual_scope", CONTEXT)
def manual_scope(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    if call.args or call.keywords:
        raise cx.error("pl.manual_scope() takes no arguments", call)
    return scope_block(cx, stmt, _MANUAL)


@dsl_op("scope", CONTEXT)
def scope(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    return scope_block(cx, stmt, scope_mode(cx, call))


def scope_block(cx: FunctionContext, stmt: ast.With, mode: ScopeMode) -> list[Any]:
    if mode is _MANUAL and cx.manual_depth:
        raise cx.error("a manual scope may not be nested inside another manual scope", stmt)
    if mode is _AUTO:
        if cx.auto_scope:
            raise cx.error(
                "a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)", stmt
            )
        if cx.manual_depth:
            raise cx.error("an AUTO scope may not be nested inside a manual scope", stmt)
    cx.enter(stmt)
    cx.manual_depth += mode is _MANUAL
    cx.with_tids.append(set())
    try:
        body = cx.block(stmt.body)
    finally:
        cx.closed_tids.update(cx.with_tids.pop())  # (the block's C++ storage ends with it)
        cx.manual_depth -= mode is _MANUAL
        cx.leave()
    return [L.Scope.make_trusted(mode, body, cx.span(stmt))]  # (trusted: a ScopeMode, the statements cx.block built)


def scope_mode(cx: FunctionContext, call: ast.Call) -> ScopeMode:
    if call.args:
        raise cx.error("pl.scope takes only mode=", call.args[0])
    mode = ScopeMode.auto
    for kw in call.keywords:
        if kw.arg != "mode":
            raise cx.error(f"pl.scope has no keyword argument '{kw.arg}'", kw.value)
        name = (attr_path(kw.value) or [""])[-1]
        if name not in ("AUTO", "MANUAL"):
            raise cx.error("mode= must be pl.ScopeMode.AUTO or pl.ScopeMode.MANUAL", kw.value)
        mode = ScopeMode.auto if name == "AUTO" else ScopeMode.manual
    return mode
