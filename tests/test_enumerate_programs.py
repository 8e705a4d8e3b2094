"""Issue 21: the bounded-exhaustive generator (``tools/enumerate_programs.py``): its grammar, the
runs of each program, and the CI run of every program up to the fast size."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

from nanopass.tools import pending
from nanopass.tools.enumerate_programs import (
    OPS,
    TENSORS,
    Atom,
    Bracket,
    enumerate_all,
    features,
    programs,
    render,
    runs,
    shape,
)
from nanopass.tools.properties import Findings, check_text

FAST_SIZE = 3  # statements; `python -m nanopass.tools.enumerate_programs --size 4` is the longer run


def named(size: int) -> dict[str, tuple]:
    return {shape(items): items for items in programs(size)}


def test_the_grammar_has_every_order_of_two_atoms_and_every_nesting_of_the_brackets():
    assert [sum(1 for _ in programs(k)) for k in (1, 2, 3)] == [10, 130, 1960]
    two = named(2)
    for first in OPS:
        for second in OPS:
            for a in TENSORS:
                for b in TENSORS:
                    assert f"{first} {a}; {second} {b}" in two
    three = named(3)
    for outer in ("loop", "branch", "manual"):
        for inner in ("loop", "branch", "manual"):
            if inner != outer:
                assert f"{outer}[{inner}[host_write a]]" in three
    assert {"loop[read b; inout b]", "manual[out a]; host_read a", "read a; branch[inout a]"} <= set(three)


def test_each_program_runs_for_loop_trips_0_1_2_and_both_branch_outcomes():
    three = named(3)
    assert runs(three["loop[branch[inout a]]"]) == [{"n": n, "c": c} for n in "012" for c in "01"]
    assert runs(three["loop[read a; inout a]"]) == [{"n": n, "c": "1"} for n in "012"]
    assert runs(three["read a; host_write a; out b"]) == [{"n": "1", "c": "1"}]


def test_rendering_orders_a_manual_scope_by_a_chain_and_keeps_host_reads_live():
    items = (Bracket("loop", (Bracket("manual", (Atom("read", "b"), Bracket("branch", (Atom("inout", "a"),)))),)),)
    assert shape(items) == "loop[manual[read b; branch[inout a]]]"
    text = render(items)
    body = text.split("init_value=0)\n", 1)[1]
    assert body == (
        "        for i in pl.range(n):\n"
        "            with pl.manual_scope():\n"
        "                p = None\n"
        "                r0: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)\n"
        "                r0, q0 = pl.submit(self.k_copy, b, r0, deps=[p])\n"
        "                p = q0\n"
        "                if i >= c:\n"
        "                    a, q1 = pl.submit(self.k_acc, x, a, deps=[p])\n"
        "                    p = q1\n"
        "        return a\n"
    )
    assert "v0 = pl.tensor.read(a, [0, 0])\n        pl.tensor.write(sink, [0], v0)\n" in render(named(1)["host_read a"])


def test_the_pending_shapes_are_named_by_their_features():
    three = named(3)
    assert features(three["read a; host_write a; out b"]) == {"host_write_after_read"}
    assert features(three["read a; host_write b; out b"]) == set()
    assert features(three["loop[host_write a; read a]"]) == {"host_write_after_read"}
    assert features(three["manual[out a]; host_read a"]) == {"host_after_manual_task"}
    assert features(three["host_read a; manual[out a]"]) == set()
    assert features(three["loop[manual[inout a]]"]) == {"manual_in_loop"}
    assert features(three["manual[loop[inout a]]"]) == set()
    read_a, write_a = Atom("read", "a"), Atom("inout", "a")
    assert features((Bracket("loop", (read_a, Bracket("branch", (write_a,)))),)) == {"cond_write_in_loop"}
    assert features((Bracket("branch", (read_a, Bracket("loop", (write_a,)))),)) == set()
    assert not (pending.PENDING - pending.FEATURES) - {
        "host_write_after_read", "host_after_manual_task", "manual_in_loop", "cond_write_in_loop"
    }


def test_every_program_up_to_the_fast_size_passes_every_check():
    findings = Findings()
    enumerate_all(FAST_SIZE, pending.all_shapes(), findings)
    failing = "\n\n".join(failure.source() for failure in findings.smallest.values())
    assert findings.failures == 0, findings.summary(0) + "\n" + failing
    assert findings.programs + findings.skipped == 2100 and findings.programs > 1500
    assert findings.runs > findings.programs  # programs with a loop or a branch run several times


def test_the_checks_find_the_write_after_read_pairs_the_compiler_orders_when_it_does_not():
    # with order_write_after_read off, the smallest write-after-read program fails
    items = named(2)["read a; inout a"]
    findings = Findings()
    [failure] = check_text(render(items), runs(items), findings, options={"order_war": False}, every_stage=False)
    assert failure.kind == "hazard" and failure.defect == "3" and "WAR on a" in failure.message
    assert check_text(render(items), runs(items), Findings(), every_stage=False) == []


def test_the_command_line_runs_a_size_and_prints_the_figures():
    result = subprocess.run(
        [sys.executable, "-m", "nanopass.tools.enumerate_programs", "--size", "1"],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("checked 10 programs, 10 runs, ")
    assert "0 failing programs" in result.stdout
