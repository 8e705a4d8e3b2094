"""Minimise a failing abstract program while it keeps failing with the same class.

Greedy, to a fixed point: delete a statement, replace a block by its body (a loop with explicit
carries becomes aliases around its body), keep one branch of an if, give a loop a constant trip,
make a pl.parallel loop a pl.range one. A candidate the tester's own semantics cannot run, or
that the compiler refuses, fails differently and is dropped.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Iterator

from . import program as P
from .surface import holds_block


def _paths(body: tuple, prefix=()) -> Iterator[tuple]:
    for i, s in enumerate(body):
        yield prefix + (i,)
        for j, ch in enumerate(P.children(s)):
            yield from _paths(ch, prefix + (i, j))


def _replace_at(body: tuple, path: tuple, new: list) -> tuple:
    """Replace the statement at `path` by the statements `new`."""
    i = path[0]
    if len(path) == 1:
        return body[:i] + tuple(new) + body[i + 1:]
    s = body[i]
    lists = [list(c) for c in P.children(s)]
    lists[path[1]] = list(_replace_at(tuple(lists[path[1]]), path[2:], new))
    return body[:i] + (P.with_children(s, lists),) + body[i + 1:]


def _get(body: tuple, path: tuple):
    s = body[path[0]]
    if len(path) == 1:
        return s
    return _get(P.children(s)[path[1]], path[2:])


def _unwrap(s) -> list:
    if isinstance(s, P.Loop):
        pre = [P.Alias(inner, init) for inner, init in s.carries]
        post = [P.Alias(res, y) for res, y in zip(s.results, s.yields)]
        return pre + list(s.body) + post
    if isinstance(s, P.If):
        return list(s.then)
    return list(s.body)


def candidates(prog: P.Program) -> Iterator[P.Program]:
    """The programs one step smaller than ``prog``; a plain ``@pl.function`` orchestration keeps an
    outlined block (without one it is no orchestration function: another failure). A program of a
    model of its own (scalars.py) names its own candidates and measure."""
    if hasattr(prog, "shrink_candidates"):
        yield from prog.shrink_candidates()
        return
    for cand in _candidates(prog):
        if not cand.plain_orch or holds_block(cand.body, cand.functions):
            yield cand


def _candidates(prog: P.Program) -> Iterator[P.Program]:
    body = prog.body
    paths = list(_paths(body))
    for path in paths:
        yield replace(prog, body=_replace_at(body, path, []))
    for path in paths:
        s = _get(body, path)
        if isinstance(s, P.BLOCKS):
            yield replace(prog, body=_replace_at(body, path, _unwrap(s)))
        if isinstance(s, P.If) and s.orelse:
            yield replace(prog, body=_replace_at(body, path, list(s.orelse)))
            yield replace(prog, body=_replace_at(body, path, [replace(s, orelse=())]))
        if isinstance(s, P.Loop):
            if s.kind == "parallel":
                yield replace(prog, body=_replace_at(body, path, [replace(s, kind="range")]))
            for trip in (1, 2):
                if s.trip != trip:
                    yield replace(prog, body=_replace_at(body, path, [replace(s, trip=trip)]))
        if isinstance(s, P.Call) and s.submit and not s.deps and None not in s.args:
            yield replace(prog, body=_replace_at(body, path, [replace(s, submit=False, tid=None)]))
        if isinstance(s, P.Call) and any(s.nodep):
            yield replace(prog, body=_replace_at(body, path, [replace(s, nodep=())]))
        if isinstance(s, P.Create) and (s.init is not None or s.manual_dep):
            yield replace(prog, body=_replace_at(body, path, [replace(s, init=None, manual_dep=False)]))
    if not prog.auto_scope:
        yield replace(prog, auto_scope=True)


def used_kernels(prog: P.Program) -> P.Program:
    if hasattr(prog, "without_unused_kernels"):
        return prog.without_unused_kernels()
    return replace(prog, kernels=P.kernels_used(prog.kernels, prog.body))


def measure(prog: P.Program) -> tuple:
    """What shrinking decreases: statements other than aliases, their complexity, then aliases."""
    if hasattr(prog, "shrink_measure"):
        return prog.shrink_measure()
    stmts = extra = aliases = 0

    def walk(body):
        nonlocal stmts, extra, aliases
        for s in body:
            if isinstance(s, (P.Alias, P.TidNone, P.Barrier)):
                aliases += 1
            else:
                stmts += 1
            if isinstance(s, P.Loop):
                extra += {1: 1, 2: 2}.get(s.trip, 3) + (s.kind == "parallel") + len(s.carries)
            elif isinstance(s, P.If):
                extra += 1 + bool(s.orelse)
            elif isinstance(s, P.Call):
                extra += s.submit + any(s.nodep)
            elif isinstance(s, P.Create):
                extra += (s.init is not None) + s.manual_dep
            for ch in P.children(s):
                walk(ch)
    walk(prog.body)
    return stmts, extra + (not prog.auto_scope), aliases


def shrink(prog: P.Program, still_fails: Callable[[P.Program], bool], budget_s: float = 120.0) -> P.Program:
    """The smallest program found (within `budget_s` seconds) for which `still_fails` holds."""
    deadline = time.monotonic() + budget_s
    best = used_kernels(prog)
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for cand in candidates(best):
            if time.monotonic() >= deadline:
                break
            cand = used_kernels(cand)
            if measure(cand) >= measure(best):
                continue
            if still_fails(cand):
                best = cand
                progress = True
                break
    return best
