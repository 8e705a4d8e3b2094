"""Issue 8: ``nanopass run --dump-all DIR [--set NAME=VALUE ...]`` runs the interpreter on every
stage it can: the report draws each stage's instance graph (one node per task of the run) and
lists the hazards the checker finds at that stage."""

from __future__ import annotations

import re

import pytest

from conftest import EXAMPLES, REPO, load_program, run_cli
from test_report import graph_file, section_of

from nanopass.api import run_pipeline, surface_of
from nanopass.printer.dot import static_graph
from nanopass.tools.check import program_inputs, sample_values
from nanopass.tools.instances import StageRuns

WAR = REPO / "tests" / "semantics" / "hazards" / "war_in_auto.py"


def edges(dot: str) -> list[tuple[str, str, str]]:
    """(source, target, colour) of each edge of a DOT graph."""
    return re.findall(r"(\w+) -> (\w+) \[color=(\w+)", dot)


def test_manual_phases_instance_graph_has_twelve_tasks_in_three_fences(tmp_path):
    result = run_cli("run", str(EXAMPLES / "manual_phases.py"), "--dump-all", str(tmp_path), "-q")
    assert result.returncode == 0, result.stderr
    dot = graph_file(tmp_path, "lower_to_emission", ".instances.dot").read_text()
    assert len(re.findall(r"^\s*i\d+ \[", dot, flags=re.M)) == 12 and "#11 kernel_stripe" in dot
    found = edges(dot)
    # tasks 4..11 each wait for the 4 tasks of the phase before, through the user's deps (blue)
    assert sorted((int(a[1:]), int(b[1:])) for a, b, _ in found) == sorted(
        (src, dst) for dst in range(4, 12) for src in range(4 * (dst // 4 - 1), 4 * (dst // 4))
    )
    assert {colour for _, _, colour in found} == {"blue"}
    assert "12 task instances" in section_of(tmp_path, "lower_to_emission")
    assert "Instance graph: the interpreter runs the directed language" in section_of(tmp_path, "parse_dsl")
    assert "Hazards found: none." in section_of(tmp_path, "lower_to_emission")


def test_hazards_are_listed_per_stage_and_the_war_edge_is_drawn_as_the_compilers(tmp_path):
    off, on = tmp_path / "off", tmp_path / "on"
    assert run_cli("run", str(WAR), "--dump-all", str(off), "--no-war-ordering", "-q").returncode == 0
    assert run_cli("run", str(WAR), "--dump-all", str(on), "-q").returncode == 0
    for name in ("derive_call_directions", "remove_dead_values", "resolve_dep_edges", "lower_to_emission"):
        assert "Hazards found (1)" in section_of(off, name) and "WAR on x (entry tensor 0)" in section_of(off, name)
    assert "Hazards: not checked" in section_of(off, "convert_to_ssa")
    assert "Hazards found (1)" in section_of(on, "derive_call_directions")  # the program as written
    for name in ("order_write_after_read", "resolve_dep_edges", "lower_to_emission"):
        assert "Hazards found: none." in section_of(on, name)
    emission = graph_file(on, "lower_to_emission", ".instances.dot")
    assert edges(emission.read_text()) == [("i0", "i1", "darkgreen")]  # explicit, derived by the compiler
    written = graph_file(on, "derive_call_directions", ".instances.dot")
    assert edges(written.read_text()) == []


def test_values_come_from_set_and_missing_ones_are_named(tmp_path):
    bare = run_cli("run", str(EXAMPLES / "loop_scalar.py"), "--dump-all", str(tmp_path / "bare"), "-q")
    assert bare.returncode == 0
    page = (tmp_path / "bare" / "index.html").read_text()
    assert "needs a value for each scalar parameter and dynamic dimension (--set alpha=..., --set steps=...)" in page
    assert not list((tmp_path / "bare").glob("*.instances.dot"))
    given = run_cli("run", str(EXAMPLES / "loop_scalar.py"), "--dump-all", str(tmp_path / "given"),
                    "--set", "steps=4", "--set", "alpha=0.5", "-q")
    assert given.returncode == 0
    emission = graph_file(tmp_path / "given", "lower_to_emission", ".instances.dot")
    assert len(re.findall(r"^\s*i\d+ \[", emission.read_text(), flags=re.M)) == 5  # 1 + 4 tasks
    assert run_cli("run", str(EXAMPLES / "loop_scalar.py"), "--set", "steps=4").returncode == 2


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_every_instance_names_its_submit_site_as_the_static_graph_does(path):
    program = load_program(path)
    runs = StageRuns(program_inputs(surface_of(program), sample_values(surface_of(program), integer=2)))
    checked = 0
    for stage in run_pipeline(program):
        instances = runs.instances_of(stage)
        if isinstance(instances, str):
            assert stage.language.name in ("surface", "ssa"), instances
            continue
        nodes = static_graph(stage.tree).nodes
        for instance in instances:
            label = nodes[instance.site].label
            assert label.startswith(f"{instance.site}: {instance.label}"), (stage.name, label, instance)
        checked += len(instances)
    assert checked > 0
