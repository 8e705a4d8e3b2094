"""The benchmark tool: its generated programs compile to valid C++, and it reports every figure."""

from __future__ import annotations

import pytest

from conftest import compile_check

from nanopass.api import generate_orchestration
from nanopass.tools import bench

SHAPES = bench.ALL_SHAPES


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_is_a_program_whose_cpp_compiles(shape, tmp_path):
    from nanopass.loader import load_programs

    path = tmp_path / f"{shape}.py"
    path.write_text(bench.source_of(shape, 40, phases_shape=(3, 4)))
    result = generate_orchestration(load_programs(str(path))[0])
    assert "rt_submit_aiv_task" in result.code
    compile_check(result.code, tmp_path)


@pytest.mark.parametrize("shape", [s for s in SHAPES if s != "phases"])  # (phases: its size is a loop bound)
def test_each_shape_grows_with_its_size(shape):
    frame = len(bench._program([]))  # the kernels, the signature, the return
    small, large = len(bench.source_of(shape, 40)) - frame, len(bench.source_of(shape, 80)) - frame
    assert 1.8 < large / small < 2.2


def test_each_assembled_tile_is_a_view_of_its_rows(tmp_path):
    """The assembles shape measures the fuse pass at size: every tile is placed in its rows of the
    parameter (a view), none is made and copied."""
    from nanopass.loader import load_programs

    path = tmp_path / "assembles.py"
    path.write_text(bench.source_of("assembles", 40))
    code = generate_orchestration(load_programs(str(path))[0]).code
    assert code.count("= ext_big.view(") == 40
    assert "uint32_t t39_offsets[2] = {624, 0};" in code
    assert "TensorCreateInfo" not in code


def test_phase_fan_out_is_emitted_as_loops_not_unrolled(tmp_path):
    from nanopass.loader import load_programs

    sizes = []
    for branches in (4, 64):
        path = tmp_path / f"phases_{branches}.py"
        path.write_text(bench.phases(8, branches))
        code = generate_orchestration(load_programs(str(path))[0]).code
        assert code.count("rt_submit_aiv_task") == 1
        sizes.append(len(code))
    assert abs(sizes[1] - sizes[0]) < 64  # only the array extents' digits differ


def test_measure_reports_time_floor_memory_and_passes():
    figures = bench.measure("straight", 10, repeat=1)
    assert figures["total"] > 0 and figures["ast_parse"] > 0 and figures["mean"] == figures["total"]
    assert 0 < figures["peak_mib"] < 1024
    assert set(figures["passes"]) >= {"convert_to_ssa", "lower_to_emission"}
    assert figures["output_bytes"] > figures["source_bytes"] > 0


def test_summary_keeps_the_best_run_and_the_mean_and_growth_compares_them_against_n():
    runs = [
        {"total": 3.0, "ast_parse": 1.0, "peak_mib": 10.0, "passes": {}},
        {"total": 1.0, "ast_parse": 0.4, "peak_mib": 12.0, "passes": {}},
        {"total": 2.0, "ast_parse": 0.5, "peak_mib": 11.0, "passes": {}},
    ]
    small = bench.summarize(runs, "straight", 1000, 100)
    assert (small["total"], small["mean"], small["peak_mib"], small["ast_parse"]) == (1.0, 2.0, 12.0, 0.4)
    assert small["ratio"] == 3.0  # the median of 3/1, 1/0.4 and 2/0.5
    large = dict(small, size=16000, total=16.0 * 1.2, mean=16.0 * 2.0)
    assert bench.growth(small, large, "total") == pytest.approx(1.2)
    assert bench.growth(small, large, "mean") == pytest.approx(1.0)


def test_each_reused_tile_is_a_view_of_the_tensor_made_for_it(tmp_path):
    """The reuses shape measures the fuse pass's proof for a source written after its assemble:
    every tile is placed in the tensor made for it (a view), none is copied, and its second
    write goes to the tile itself."""
    from nanopass.loader import load_programs

    path = tmp_path / "reuses.py"
    path.write_text(bench.source_of("reuses", 40))
    code = generate_orchestration(load_programs(str(path))[0]).code
    assert [f"Tensor t{i} = u{i}.view(t{i}_shapes, t{i}_offsets);" in code for i in range(10)] == [True] * 10
    assert code.count("rt_submit_aiv_task") == 40


def test_smaller_sizes_run_more_often_in_the_same_rounds(monkeypatch):
    """Growth divides the largest size's mean by the smallest's, the noisier one: a smaller size
    runs largest // size times a round (at most SMALL_RUNS_FACTOR), in the rounds the largest runs in."""
    order = []

    def fake_child(path):
        order.append(path.rsplit("_", 1)[1])
        return {"total": 1.0, "peak_mib": 1.0, "ast_parse": 0.5}

    monkeypatch.setattr(bench, "_in_child", fake_child)
    results = bench.measure_all([("straight", 10), ("straight", 40), ("straight", 160)], repeat=2)
    assert bench.SMALL_RUNS_FACTOR == 5  # 160 // 10 = 16 is capped
    assert order == (["10.py"] * 5 + ["40.py"] * 4 + ["160.py"]) * 2
    assert [r["size"] for r in results] == [10, 40, 160]
