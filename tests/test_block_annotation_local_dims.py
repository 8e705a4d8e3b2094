"""An annotation inside a block outlined into a kernel (``pl.at``) is read as a function body's is
(type_reader.TypeReader.annotation): a dimension may compute from the function's variables or
dynamic dimensions; the annotation must then be the value's type itself where the block tells it
(an elementwise operation's), and may not name a variable the block defines."""

from __future__ import annotations

import pytest
from conftest import load_program
from test_annotation_local_dims import SOURCE as FUNCTION_SOURCE

from nanopass.api import generate_orchestration
from nanopass.errors import UserError

# the program of test_annotation_local_dims up to its orchestration function (its kernel k), then one
# whose annotations are inside a pl.at block
HEADER = FUNCTION_SOURCE[:FUNCTION_SOURCE.index("    @pl.function(type=pl.FunctionType.Orchestration)")]
SOURCE = HEADER + """    @pl.function
    def orch(self, y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], g: pl.Scalar[pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:
        d: pl.Scalar[pl.INT64] = pl.tensor.dim(y, 1)
        e: pl.Scalar[pl.INT64] = d - 1
        with pl.at(level=pl.Level.CORE_GROUP):
            LOCAL = d + 1
            v: pl.Tensor[[1, DIM], pl.FP32] = pl.tensor.slice(y, [1, d], [0, 0])
            w: pl.Tensor[[1, SCALED], pl.FP32] = pl.muls(v, g)
            y = pl.assemble(y, w, [0, 0])
        AFTER
        return y
"""


def compiled(tmp_path, dim: str = "d", scaled: str = "d", local: str = "c", after: str = "pass") -> str:
    path = tmp_path / "block_dims.py"
    path.write_text(SOURCE.replace("DIM", dim).replace("SCALED", scaled).replace("LOCAL", local).replace("AFTER", after))
    return generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("dim", ["d", "2 * e + 1", "(N + 1) // 2"])
def test_a_computed_dimension_of_the_value_s_type_is_accepted(dim, tmp_path):
    code = compiled(tmp_path, dim=dim, scaled=dim)
    assert "params_t0.add_inout(ext_y);\n        params_t0.add_scalar((uint64_t)d);" in code
    assert "rt_submit_aiv_task(0, params_t0);" in code


def test_a_value_of_such_a_shape_leaves_the_block_in_a_buffer_of_that_shape(tmp_path):
    code = compiled(tmp_path, dim="(N + 1) // 2", scaled="(N + 1) // 2", after="w = self.k(w)")
    assert "ret0__out_ci_shapes[2] = {1, static_cast<uint32_t>((N + 1) / 2)};" in code
    assert "params_t0.add_output(ret0__out);" in code and "params_t1.add_inout(ret0__out);" in code


@pytest.mark.parametrize("scaled, message", [
    ("e", r"type annotation of 'w' is pl.Tensor\[\[1, e\], pl.FP32\] but the value is pl.Tensor\[\[1, d\], pl.FP32\]"),
    ("d + 0", r"type annotation of 'w' is pl.Tensor\[\[1, d \+ 0\], pl.FP32\] but the value is "
              r"pl.Tensor\[\[1, d\], pl.FP32\]"),
    ("c", "'c' is not a constant defined at module level"),  # the block's own variable, not the function's
    ("h", "'h' is not a constant defined at module level"),
])
def test_another_dimension_is_refused_at_the_statement(scaled, message, tmp_path):
    with pytest.raises(UserError, match=message) as e:
        compiled(tmp_path, scaled=scaled)
    assert e.value.span is not None and e.value.span.line == 20
    assert str(e.value).startswith(f"{tmp_path / 'block_dims.py'}:20:")


def test_a_dimension_computed_from_a_variable_the_block_redefines_is_refused(tmp_path):
    with pytest.raises(UserError, match="the annotation of 'w' computes a dimension from 'e', which this pl.at "
                                        "block defines") as e:
        compiled(tmp_path, scaled="e + 1", local="e")
    assert e.value.span is not None and str(e.value).startswith(f"{tmp_path / 'block_dims.py'}:20:30: error: ")
