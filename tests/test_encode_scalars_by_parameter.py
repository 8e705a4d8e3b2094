"""encode_scalars decides each scalar argument's encoding (D4) by its kernel parameter alone
(``Kernel.encodings``, one per scalar parameter): the front end refuses a float argument for an
integer parameter and the reverse, so the parameter's encoding must be what the argument's value
says (``to_u64`` exactly when its value's dtype is a float: ``scalar_dtype.expr_dtype``, the C++
rule by values, computed here for every sub-expression) for every scalar
argument of every task of every example, golden program, bench shape and random program (manual
scopes too), with float arguments and without; the function is the input's node; and the
emission's task heads carry their kernel's encodings. A kernel whose encodings are not its
parameters' is refused by the encoded language."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, corpus_tests, pass_runs, random_file
from scalar_dtype import expr_dtype

from nanopass.errors import VerifyError
from nanopass.languages import ENCODED
from nanopass.languages.emission import statements
from nanopass.languages.statements import iter_stmts
from nanopass.languages.terms import ArgDir, Encoding
from nanopass.passes.kernels import kernel_table
from nanopass.passes.types import type_env


def check(path: Path, refusals: bool = False) -> list[bool]:
    """Per compile of ``path``, whether a scalar argument in it is a float's."""
    met = []
    for given, encoded in pass_runs(path, "encode_scalars", refusals=refusals):
        if encoded is None:
            continue
        assert encoded.orch is given.orch, path.name
        env = type_env(given.orch)
        kernels = kernel_table(encoded)
        float_args = False
        for task in iter_stmts(given.orch.body):
            if task._production != "Task":
                continue
            values = [arg.value for arg in task.args if arg.dir is ArgDir.Scalar]
            encodings = kernels[task.kernel].encodings
            assert len(values) == len(encodings), (path.name, task.kernel)
            for value, encoding in zip(values, encodings):
                by_value = Encoding.to_u64 if expr_dtype(value, env).is_float else Encoding.cast_u64
                assert encoding is by_value, (path.name, task.kernel, value)
                float_args = float_args or encoding is Encoding.to_u64
        met.append(float_args)
    return met


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    met = [m for seed in range(60) for m in check(random_file(tmp_path, seed, manual=seed % 2 == 1), refusals=True)]
    assert len(met) >= 40


def test_programs_with_and_without_float_arguments_are_met():
    assert {m for path in EXAMPLES_AND_GOLDEN for m in check(path)} == {True, False}


def test_task_heads_carry_their_kernels_encodings():
    heads = 0
    for path in EXAMPLES_AND_GOLDEN:
        for given, unit in pass_runs(path, "lower_to_emission"):
            if unit is None:
                continue
            encodings = {kernel.encodings for kernel in given.kernels}
            for node in statements(unit.body):
                if node._production == "TaskArgs" and node.scalars:
                    assert node.encodings in encodings, path.name
                    heads += 1
    assert heads


def test_a_kernel_whose_encodings_are_not_its_parameters_is_refused():
    for path in EXAMPLES_AND_GOLDEN:
        for _, encoded in pass_runs(path, "encode_scalars"):
            kernels = list(encoded.kernels)
            for i, kernel in enumerate(kernels):
                if kernel.encodings:
                    ENCODED.verify(encoded)  # (as made: accepted)
                    flipped = tuple(Encoding.cast_u64 if e is Encoding.to_u64 else Encoding.to_u64 for e in kernel.encodings)
                    kernels[i] = kernel.replace(encodings=flipped)
                    with pytest.raises(VerifyError, match="encodings"):
                        ENCODED.verify(encoded.replace(kernels=kernels))
                    return
    raise AssertionError("no kernel with a scalar parameter among the examples and golden programs")
