"""``hoist_scope_escapes`` numbers the statements by their places in the body's kept walk and finds
where each scope ends from the last statement of its subtree (``number``), with no walk of its
own but its walk of reads (``reads.read_walk``). Its numbering must equal the numbering by definition (program order, a scope ending at the
last statement of its subtree, each root last read where a statement's own expressions last
read a name of it), and the pass's output with it the output with the definition, on every
example and golden program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, GOLDEN, bench_file, pass_inputs, random_file, run_both_ways, running

from nanopass.languages.statements import BODY_FIELDS, iter_stmts
from nanopass.passes import hoist_scope_escapes as hoist
from nanopass.passes.util import var_reads

SEEDS = range(30)


def number_by_definition(self, body) -> None:
    """``HoistScopeEscapes.number`` as its docstring defines it, by recursion (the last reads by
    name, and by root: ``root_reads``)."""
    self.name_read, self.last_read, self.scope_end = {}, {}, {}
    position = 0

    def visit(stmts) -> None:
        nonlocal position
        for stmt in stmts:
            here = position
            position += 1
            bodies = BODY_FIELDS.get(stmt._production, ())
            if stmt._production != "Return":
                nodes = []
                for name, many in stmt._child_fields:
                    value = getattr(stmt, name)
                    if name not in bodies and value is not None:
                        nodes += value if many else [value]
                for name in var_reads(nodes):
                    self.name_read[name] = here
                    self.last_read[self.root(name)] = here
            for name in bodies:
                visit(getattr(stmt, name))
            if stmt._production == "Scope":
                self.scope_end[id(stmt)] = position - 1

    visit(body)


def numbering(given, number) -> tuple:
    """(last reads by name, by root, the end of each scope in program order) of ``number`` on
    ``given``'s body."""
    from nanopass.passes.aliases import written_roots
    from nanopass.rewrite import PassContext

    self = hoist.HoistScopeEscapes(PassContext())
    self.roots = written_roots(given.orch)
    number(self, given.orch.body)
    scopes = [s for s in iter_stmts(given.orch.body) if s._production == "Scope"]
    return self.name_read, self.root_reads(), [self.scope_end[id(s)] for s in scopes]


def check(path: Path) -> int:
    """The numbering and the output both ways for each program of ``path``; how many scopes."""
    scopes = 0
    for given in pass_inputs(path, "hoist_scope_escapes"):
        fast = numbering(given, hoist.HoistScopeEscapes.number)
        assert fast == numbering(given, number_by_definition)
        scopes += len(fast[2])
        out, by_definition = run_both_ways(running(hoist.HoistScopeEscapes), given,
                                           [(hoist.HoistScopeEscapes, "number", number_by_definition)])
        assert out == by_definition
    return scopes


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, seed, manual=manual)) for seed in SEEDS)


def test_scopes_end_where_their_subtrees_do(tmp_path):
    # nested scopes, an if whose else branch is empty, a scope ending with a loop
    assert check(GOLDEN / "array_carry_across_scope.py") and check(bench_file(tmp_path, "scopes", 8)) == 3


def test_a_wrong_end_changes_the_output():
    # (so the comparisons above can fail: a scope taken to end with the function hoists none of
    # the values read after it)
    path = GOLDEN / "array_carry_across_scope.py"
    (given,) = pass_inputs(path, "hoist_scope_escapes")

    number = hoist.HoistScopeEscapes.number

    def early(self, body):
        number(self, body)
        last = len(list(iter_stmts(body))) - 1
        self.scope_end = {scope: last for scope in self.scope_end}

    out, wrong = run_both_ways(running(hoist.HoistScopeEscapes), given, [(hoist.HoistScopeEscapes, "number", early)])
    assert out != wrong
