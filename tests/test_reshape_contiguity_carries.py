"""A reshape of a loop result that held a transposed view on some trip but not on the last one
(``check_reshape_sources_contiguous`` follows a constant loop trip by trip): fuzz_deps --tally
seed 6511 (manual) was refused, although its swap loop of two trips hands back the buffer, not
the transpose (that program: tests/found/class7_reshape_of_a_swap_loops_result_that_two_trips_give_back.py).
A reshape of what the last trip does hand back is still refused, located."""

from __future__ import annotations

import pytest

from conftest import load_program, run_cli

import nanopass
from nanopass.tools.check import check_program

T = "pl.Tensor[[16, 16], pl.FP32]"

# the loop swaps its carries: after k trips (p, q) is (t, x) for even k, (x, t) for odd k; the
# results (o1, o2) are the last trip's yield, the (p, q) after it
SWAP = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, a: pl.Tensor[[256], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.InOut[{T}]) -> {T}:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[{T}], n: pl.Scalar[pl.INT64]):
        t = pl.tensor.transpose(x, 0, 1)
        for i, (p, q) in pl.range({{trips}}, init_values=(t, x)):
            q = self.upd(q)
            o1, o2 = pl.yield_(q, p)
        r = pl.tensor.reshape({{reshaped}}, [256])
        self.rd(r)
        o1 = self.upd(o1)
        return
"""
RESHAPE_LINE = 20  # (the reshape's line in SWAP, counted by hand; located at its statement, column 9)


def write(tmp_path, trips: str, reshaped: str):
    path = tmp_path / "prog.py"
    path.write_text(SWAP.format(trips=trips, reshaped=reshaped))
    assert "pl.tensor.reshape(" in path.read_text().splitlines()[RESHAPE_LINE - 1]
    return path


# By hand: o2 is the q after the last trip's swap: x (contiguous) after 0 or 2 trips, t after 1
# or 3; o1 is the other one (t after 0 or 2 trips); with n trips it is either.
@pytest.mark.parametrize("trips,reshaped", [("0", "o2"), ("2", "o2"), ("1", "o1"), ("3", "o1")])
def test_a_reshape_of_a_swap_loops_result_that_is_the_buffer_compiles_and_agrees(tmp_path, trips, reshaped):
    path = write(tmp_path, trips, reshaped)
    result = check_program(load_program(path), {"n": "2"}, gxx=False)
    assert result.failing == [] and result.fatal is None


REFUSED = [("1", "o2"), ("3", "o2"), ("2", "o1"), ("0", "o1"), ("n", "o2"), ("n", "o1")]


@pytest.mark.parametrize("trips,reshaped", REFUSED)
def test_a_reshape_of_a_swap_loops_result_that_is_the_transpose_is_refused_at_the_reshape(tmp_path, trips, reshaped):
    path = write(tmp_path, trips, reshaped)
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    error = caught.value
    assert (error.span.line, error.span.col + 1) == (RESHAPE_LINE, 9)  # (a span's column counts from 0)
    assert f"cannot reshape '{reshaped}', which may be a view of the transposed 't' (line 16)" in error.message


def test_the_cli_prints_the_refusal_of_the_odd_trip_count_with_file_line_col(tmp_path):
    path = write(tmp_path, "3", "o2")
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{path}:{RESHAPE_LINE}:9: error: cannot reshape 'o2'")



@pytest.mark.parametrize("seed", range(4))
def test_the_generators_swap_loop_over_a_transposed_view_marks_its_results_not_contiguous(seed):
    # gen_shapes' init_swap: `for i, (p, q) in pl.range(K, init_values=(a, b))` yielding (q, p);
    # with a = v (transposed) and b = y0, o1 is v after an even K (or 0 trips), o2 after an odd
    # one: either may be v, so neither may be reshaped (the generator reshapes only names it
    # keeps contiguous)
    from nanopass.tools import gen_programs as g

    gen = g.Generator(g.RandomChooser(seed), False, 9)
    top = g._Block(next(gen.block_ids))
    top.names.update({"x0": g._Var("tile"), "y0": g._Var("tile", writable=True), "n": g._Var("index"),
                      "v": g._Var("tile", writable=True, contiguous=False)})
    gen.blocks.append(top)
    gen.stmt_init_swap(0)
    loop = next(line.text for line in gen.lines if "init_values=" in line.text)
    assert "init_values=(v, y0)" in loop or "init_values=(y0, v)" in loop
    results = next(line.text for line in gen.lines if "pl.yield_(" in line.text).split(" = ")[0].split(", ")
    assert [gen.visible()[name].contiguous for name in results] == [False, False]
