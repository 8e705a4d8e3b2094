"""A view's let is emitted only where its name is read (``lower_let_as``: a pure let nothing reads
is left out), so what it reads is read only then. ``survey`` counted a view's tensor read
wherever the let stood: a reshape of an output parameter read only by a second reshape that the
function returns (a return emits nothing: the second view is the parameter's bytes) left the
first view declared and unused (``Tensor s4 = ext_b.reshape(...)``), which g++ -Wall -Werror
refuses (unused-but-set-variable). Found by the attack tester's surface generator (seed 6403,
program 16). A view's reads are now counted once its name is read, through chains of views."""

from __future__ import annotations

import pytest

from conftest import compile_check, pass_input

import nanopass
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext

PROGRAM = '''\
import nanopass.dsl as pl


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[4, 8], pl.FP32], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
             w: pl.Out[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[4, 4], pl.FP32]]:
BODY
        return b, w
'''

UNREAD = {
    "reshape of a reshape": '''\
        s4 = pl.reshape(b, [4, 8])
        s17 = pl.reshape(s4, [8, 4])
        b = s17
        w = self.k(x, w)
''',
}


@pytest.mark.parametrize("name", list(UNREAD))
def test_a_view_read_only_by_an_unread_view_is_not_declared(tmp_path, name):
    code = nanopass.compile_text(PROGRAM.replace("BODY\n", UNREAD[name])).code
    assert "Tensor s4 " not in code and "s4_shapes" not in code and "ext_b" not in code
    compile_check(code, tmp_path)  # (before: "variable 's4' set but not used")


def test_a_view_read_through_another_name_of_a_read_view_is_declared(tmp_path):
    # ``b = s17``: one C++ variable, read by the task through ``b``; so s17 and s4 are declared
    body = UNREAD["reshape of a reshape"].replace("self.k(x, w)", "self.k(pl.reshape(b, [4, 8]), w)")
    code = nanopass.compile_text(PROGRAM.replace("BODY\n", body)).code
    assert "Tensor s4 = ext_b.reshape(s4_shapes, 2);" in code and "Tensor s17 = s4.reshape(s17_shapes, 2);" in code
    compile_check(code, tmp_path)  # (with the reads of views keyed by tree name alone: s4 undeclared)


def test_a_view_read_by_a_read_view_is_declared(tmp_path):
    body = '''\
        s4 = pl.reshape(b, [4, 8])
        v = pl.slice(s4, [4, 8], [0, 0])
        w = self.k(v, w)
'''
    code = nanopass.compile_text(PROGRAM.replace("BODY\n", body)).code
    assert "Tensor s4 = ext_b.reshape(s4_shapes, 2);" in code
    assert "params_t0.add_input(v);" in code
    compile_check(code, tmp_path)


@pytest.mark.parametrize("reader", ["nothing", "the task through b", "a read view"])
def test_survey_counts_a_view_read_only_where_the_view_is_read(tmp_path, reader):
    body = UNREAD["reshape of a reshape"]
    if reader == "the task through b":
        body = body.replace("self.k(x, w)", "self.k(pl.reshape(b, [4, 8]), w)")
    elif reader == "a read view":
        body = body.replace("self.k(x, w)", "self.k(pl.slice(s4, [4, 8], [0, 0]), w)")
    path = tmp_path / "views.py"
    path.write_text(PROGRAM.replace("BODY\n", body))
    given = pass_input(path, "lower_to_emission")
    lowering = LowerToEmission(PassContext())
    lowering.prepare(given)
    body = given.orch.body
    surveyed, _ = lowering.survey(body, {s.param for s in given.orch.slots})
    assert ("s4" in surveyed) == (reader != "nothing")
    assert ("ext_b" in surveyed) == (reader != "nothing")
