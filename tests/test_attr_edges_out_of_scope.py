"""attrs['compiler_manual_dep_edges'] naming a TaskId last bound in a ``with`` block that has ended
(D11: a compiler edge whose TaskId no longer lives is dropped, never a user error). The front end
drops the entry, with a warning, before any analysis: kept, the hazard passes took it for the
ordering of the task's read of what the manual scope wrote, and resolve_dep_edges then dropped it
from the C++, which left the read unordered (found by fuzz_frontend --runs, seed 7397)."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

HEAD = '''\
import nanopass.dsl as pl


@pl.program
class AttrEdges:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, b: pl.Tensor[[16, 16], pl.FP32], c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
MADE_IN_BLOCK = """\
        with pl.manual_scope():
            d, t = pl.submit(self.acc, b, d)
        c = self.acc(d, c, attrs={'compiler_manual_dep_edges': [t]})
        return c
"""
REBOUND_IN_BLOCK = """\
        d, t = pl.submit(self.acc, b, d)
        with pl.manual_scope():
            d, t = pl.submit(self.acc, b, d)
        c = self.acc(d, c, attrs={'compiler_manual_dep_edges': [t]})
        return c
"""
USED_IN_BLOCK = """\
        with pl.manual_scope():
            d, t = pl.submit(self.acc, b, d)
            c, t2 = pl.submit(self.acc, d, c, attrs={'compiler_manual_dep_edges': [t]})
        return c
"""


@pytest.mark.parametrize("body", [MADE_IN_BLOCK, REBOUND_IN_BLOCK], ids=["made", "rebound"])
def test_an_entry_naming_a_taskid_of_an_ended_block_is_dropped_and_the_read_still_ordered(body, tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(HEAD + body)
    line = (HEAD + body).splitlines().index("        c = self.acc(d, c, attrs={'compiler_manual_dep_edges': [t]})") + 1
    done = run_cli("check", str(path), "--json")
    assert done.returncode == 0, done.stderr  # (before: an internal error, the traces differ)
    result = json.loads(done.stdout)
    assert result["hazards"] == 0 and result["mismatches"] == 0
    dropped = [w for w in result["compile_warnings"] if "compiler_manual_dep_edges" in w["message"]]
    assert len(dropped) == 1 and dropped[0]["location"].endswith(f":{line}:65"), dropped
    assert dropped[0]["message"].startswith("attrs['compiler_manual_dep_edges'] names 't', last bound in a 'with' block")
    code = run_cli("run", str(path)).stdout
    reader = code[code.index("params_t1"):]
    assert "set_dependencies" in reader and "acc_last" in reader  # (the compiler's own edge, through a cell)


def test_an_entry_used_inside_its_block_is_kept(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(HEAD + USED_IN_BLOCK)
    done = run_cli("run", str(path))
    assert done.returncode == 0, done.stderr
    assert "compiler_manual_dep_edges" not in done.stderr
    reader = done.stdout[done.stdout.index("params_t1"):]
    assert "params_t1_deps[params_t1_deps_count++] = t;" in reader  # (the entry, kept and resolved)
