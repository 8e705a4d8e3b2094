"""The library embedded in another program (issue 23): an ``OrchestrationResult`` pickles, stages
and all, and unpickles in a fresh process; its stages are looked up by pass name."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from conftest import EXAMPLES, REPO, load_program

import nanopass
from nanopass.languages import EMISSION, SURFACE
from nanopass.passes.pipeline import PASSES


def result_of(stem: str):
    return nanopass.generate_orchestration(load_program(EXAMPLES / f"{stem}.py"))


def test_a_result_pickles_with_its_stages():
    result = result_of("manual_phases")
    again = pickle.loads(pickle.dumps(result))
    assert again.code == result.code and again.files == result.files and again.kernel_ids == result.kernel_ids
    assert [s.name for s in again.stages] == [s.name for s in result.stages]
    for before, after in zip(result.stages, again.stages):
        assert after.language is before.language  # the same language object, found by name
        assert after.tree == before.tree and after.notes == before.notes and after.contract == before.contract


def test_a_result_unpickles_in_a_fresh_process(tmp_path):
    result = result_of("basic")
    (tmp_path / "result.pickle").write_bytes(pickle.dumps(result))
    code = (
        "import pickle, sys\n"
        f"r = pickle.loads(open({str(tmp_path / 'result.pickle')!r}, 'rb').read())\n"
        "print(r.stages['lower_to_emission'].language.name, len(r.stages), r.code == open(sys.argv[1]).read())\n"
    )
    (tmp_path / "code.cpp").write_text(result.code)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "code.cpp")], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["emission", str(len(PASSES) + 1), "True"]


def test_stages_are_looked_up_by_pass_name():
    result = result_of("basic")
    assert result.stages["parse_dsl"] is result.stages[0] and result.stages["parse_dsl"].language is SURFACE
    assert result.stages["lower_to_emission"] is result.stages[-1] and result.stages[-1].language is EMISSION
    assert result.stages["bind_task_ids"].index == 1 + [p.name for p in PASSES].index("bind_task_ids")
    assert result.stages.get("no_such_pass") is None
    assert result.stages.names() == ["parse_dsl"] + [p.name for p in PASSES]
    with pytest.raises(KeyError, match="no stage of a pass named 'bind_task_id'.*bind_task_ids"):
        result.stages["bind_task_id"]
    assert result.stages[1:3] == [result.stages[1], result.stages[2]]  # still a list


def test_a_shadowed_language_refuses_to_pickle():
    from nanopass.language import Language

    shadow = Language(SURFACE.name + "-copy", terminals=SURFACE.terminals.values(),
                      nonterminals=SURFACE.nonterminals.values(), entry=SURFACE.entry)
    pickle.dumps(shadow)  # registered under its own name: fine
    Language(shadow.name, terminals=SURFACE.terminals.values(), nonterminals=SURFACE.nonterminals.values(),
             entry=SURFACE.entry)
    with pytest.raises(pickle.PicklingError, match="another language of that name has been defined since"):
        pickle.dumps(shadow)
