"""Each dummy task's C++ comment says what it is for: the pass that makes a compiler barrier writes
its purpose on the ``directed`` Dummy, lower_to_emission prints it (``Barrier <b>: <purpose>``);
the user's ``pl.system.task_dummy`` and a phase fence keep the reference's comment
(reference-behaviour.md section 11.5)."""

from __future__ import annotations

import re
import textwrap

import pytest
from conftest import REPO, load_program
from test_lean_edges import JOIN_THEN_WRITER, JOIN_WAITERS, if_chain
from test_manual_scopes import PRELUDE

import nanopass
from nanopass.languages import DIRECTED, SSA
from nanopass.languages.terms import DType
from nanopass.text import parse, unparse

BARRIER_COMMENT = re.compile(r"^\s*// ((?:Phase-fence b|B)arrier \d+: .*)$")


def comments(tmp_path, text: str, **options) -> list[str]:
    """The comments over the dummy tasks of ``text``'s C++ (and over host fences, of which these
    programs have none)."""
    path = tmp_path / f"prog{len(list(tmp_path.iterdir()))}.py"  # (a file of its own: a module per program)
    path.write_text(text)
    code = nanopass.generate_orchestration(load_program(path), **options).code
    return [m.group(1) for line in code.splitlines() if (m := BARRIER_COMMENT.match(line))]


def manual(body: str) -> str:
    return PRELUDE + textwrap.indent(body, " " * 8)


def test_the_users_dummies_and_a_phase_fence_keep_the_references_comment(tmp_path):
    tids = comments(tmp_path, (REPO / "tests/golden/tid_sources.py").read_text())
    assert tids and all(c.endswith(": dependency-only dummy task") and c.startswith("Phase-fence barrier ") for c in tids)
    assert comments(tmp_path, (REPO / "tests/golden/phase_fence.py").read_text()) == [
        "Phase-fence barrier 0: dependency-only dummy task"]


def test_a_join_barrier_says_whose_runs_it_joins(tmp_path):
    # (lean_edges off: the join stays as dep_edges makes it, a barrier after each run of copy)
    text = JOIN_WAITERS.replace("BODY", JOIN_THEN_WRITER.replace("LATER", "w = self.acc(x, w)"))
    assert comments(tmp_path, text, lean_edges=False) == ["Barrier 0: joins every run of copy so far"]


def test_a_lagged_join_barrier_says_it_comes_before_the_next_run(tmp_path):
    # (drop_latest_runs_from_joins: acc reads the last copy's tensor, so the runtime orders it
    # after the latest run; the join takes each run when the next one starts)
    text = JOIN_WAITERS.replace("BODY", JOIN_THEN_WRITER.replace("LATER", "w = self.acc(last, w)"))
    assert comments(tmp_path, text) == ["Barrier 0: joins every run of copy so far, before its next run"]


def test_a_chain_barrier_names_the_kernels_of_its_chain(tmp_path):
    # (merge_cells_into_chains: six ifs, each reading y into a tensor of its own or writing it)
    assert comments(tmp_path, if_chain(6, chained_readers=False)) == [
        f"Barrier {b}: chains the latest runs of step so far" for b in range(4)]


def test_a_carry_join_and_a_yield_join_name_the_carry(tmp_path):
    # (insert_parallel_carry_joins: the iterations start from one barrier over the ids t holds; an
    # iteration whose if runs an inner pl.parallel loop yields one barrier over its ids)
    yields = manual(
        "t = None\nfor p in pl.range(2):\n    with pl.manual_scope():\n        for b in pl.parallel(4):\n"
        "            if n > 1:\n                for c in pl.parallel(4):\n"
        "                    o, t = pl.submit(self.k, a, o, deps=[t])\nreturn o\n")
    assert comments(tmp_path, yields) == ["Barrier 0: joins the TaskIds t holds before the pl.parallel loop",
                                "Barrier 1: joins the TaskIds a pl.parallel iteration yields as t"]
    carries = manual(
        "t = None\nfor p in pl.range(2):\n    with pl.manual_scope():\n        for b in pl.parallel(4):\n"
        "            for j in pl.range(n):\n                o, t = pl.submit(self.k, a, o, deps=[t])\nreturn o\n")
    assert comments(tmp_path, carries) == ["Barrier 0: joins the TaskIds t holds before the pl.parallel loop"]


def test_the_purpose_is_a_field_of_directed_only():
    """surface's and ssa's Dummy have no purpose (the user's dummy gets none where directed adds it)."""
    assert DIRECTED.nodes["Dummy"]._fields == ("var", "deps", "purpose")
    assert SSA.nodes["Dummy"]._fields == ("var", "deps")


@pytest.mark.parametrize("purpose", [None, "joins every run of copy so far"])
def test_the_purpose_round_trips_through_the_ir_text(purpose):
    D = DIRECTED
    dummy = D.Dummy(D.Binder("b", D.ScalarType(DType.TASK_ID)), [], purpose)
    assert parse(DIRECTED, unparse(dummy), "Stmt") == dummy
