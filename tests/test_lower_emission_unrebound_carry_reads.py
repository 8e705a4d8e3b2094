"""A carry (an if result) that is not rebound is its init's variable: the C++ declares nothing for
it, copies nothing into it and its Yield assigns nothing. An entry tensor read only there (a
while carry's init, as in tests/user_programs/valid/host_counter_while.py with its task dropped:
a fuzz_frontend mutant) was counted read by lower_to_emission (``survey``),
so the C++ declared ``Tensor ext_acc = ...`` and never used it, which g++ -Wall -Werror refuses
(unused-but-set-variable; -fsyntax-only alone accepts it). The entry tensor is now declared only
where the C++ reads it."""

from __future__ import annotations

import pytest

from conftest import REPO, compile_check, load_program, pass_input

import nanopass
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext

HOST_COUNTER = (REPO / "tests" / "user_programs" / "valid" / "host_counter_while.py").read_text()
WHILE = '''\
        for (i, a) in pl.while_(init_values=(0, acc)):
            pl.cond(i < limit)
            a = self.step(x, a)
            i2, a2 = pl.yield_(i + 1, a)
'''

# name -> the statements in WHILE's place (each returns a2, which holds acc's buffer)
VARIANTS = {
    "while without its task": WHILE.replace("            a = self.step(x, a)\n", ""),
    "for": '''\
        for i, (a,) in pl.range(limit, init_values=(acc,)):
            a2 = pl.yield_(a)
''',
    "if": '''\
        if limit > 2:
            a2 = acc
        else:
            a2 = acc
''',
    "for in a while": '''\
        for (i, a) in pl.while_(init_values=(0, acc)):
            pl.cond(i < limit)
            for j, (b,) in pl.range(limit, init_values=(a,)):
                b2 = pl.yield_(b)
            i2, a2 = pl.yield_(i + 1, b2)
''',
}


def program_file(tmp_path, body: str):
    assert WHILE in HOST_COUNTER
    path = tmp_path / "host_counter.py"
    path.write_text(HOST_COUNTER.replace(WHILE, body))
    return path


@pytest.mark.parametrize("name", list(VARIANTS))
def test_an_entry_tensor_only_a_carry_not_rebound_starts_from_is_not_declared(tmp_path, name):
    path = program_file(tmp_path, VARIANTS[name])
    code = nanopass.generate_orchestration(load_program(path)).code
    assert "ext_acc" not in code
    compile_check(code, tmp_path)  # (before: "variable 'ext_acc' set but not used")
    # lower_to_emission's survey of the names read
    given = pass_input(path, "lower_to_emission")
    lowering = LowerToEmission(PassContext())
    lowering.prepare(given)
    body = given.orch.body
    surveyed, _ = lowering.survey(body, {s.param for s in given.orch.slots})
    assert "ext_acc" not in surveyed
    assert "ext_cnt" in surveyed


def test_an_entry_tensor_a_carry_not_rebound_reads_is_declared(tmp_path):
    # the carry read in the loop (the task's input too): a read of acc's identifier
    path = program_file(tmp_path, WHILE.replace("a = self.step(x, a)", "a = self.step(a, a)"))
    code = nanopass.generate_orchestration(load_program(path)).code
    assert "Tensor ext_acc = from_tensor_arg(orch_args.tensor(2));" in code
    assert "params_t0.add_input(ext_acc);" in code
    compile_check(code, tmp_path)
