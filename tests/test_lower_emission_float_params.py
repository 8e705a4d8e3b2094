"""lower_to_emission casts every scalar argument of a kernel that has no float scalar parameter
without looking at the values (``FLOAT_PARAMS_DECIDE``): the front end refuses a float argument
for an integer parameter and the reverse, so a float reaches an argument (``float_reaches``)
exactly when its parameter is a float scalar. That must hold of every task's every scalar argument
of every example, golden program, bench shape and random program (manual scopes too), and with the
shortcut forced off (each value looked at) the emission must be the same; programs with float
arguments and without must both be met."""

from __future__ import annotations

from pathlib import Path

from conftest import EXAMPLES_AND_GOLDEN, corpus_tests, pass_runs, random_file, run_both_ways, running

from nanopass.languages.statements import iter_stmts
from nanopass.languages.terms import ArgDir
from nanopass.passes import lower_to_emission
from nanopass.passes.kernels import kernel_table
from nanopass.passes.lower_to_emission import FLOAT_DTYPES, LowerToEmission, float_reaches

OFF = [(lower_to_emission, "FLOAT_PARAMS_DECIDE", False)]
run = running(LowerToEmission)


def is_float_param(param) -> bool:
    return param.type._production == "ScalarType" and param.type.dtype in FLOAT_DTYPES


def check(path: Path, refusals: bool = False) -> list[bool]:
    """Per compile of ``path`` checked, whether a scalar argument in it has a float parameter."""
    met = []
    for given, compiled in pass_runs(path, "lower_to_emission", refusals=refusals):
        kernels = kernel_table(given)
        floats = frozenset(given.orch.float_scalars)
        float_args = False
        for task in iter_stmts(given.orch.body):
            if task._production != "Task":
                continue
            for arg, param in zip(task.args, kernels[task.kernel].params):
                if arg.dir is ArgDir.Scalar:
                    assert float_reaches(arg.value, floats) == is_float_param(param), (path.name, task.kernel, param.name)
                    float_args = float_args or is_float_param(param)
        fast, full = run_both_ways(run, given, OFF)
        assert fast == compiled, path.name
        assert fast == full, path.name
        met.append(float_args)
    return met


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    met = [m for seed in range(60) for m in check(random_file(tmp_path, seed, manual=seed % 2 == 1), refusals=True)]
    assert len(met) >= 40


def test_programs_with_and_without_float_arguments_are_met():
    assert {m for path in EXAMPLES_AND_GOLDEN for m in check(path)} == {True, False}
