"""order_write_after_read follows, outside MANUAL scopes, only the roots ``hazards.war_roots``
finds (an Input read and an InOut or OutputExisting write of the root, an InOut read and an
OutputExisting write, or a host write): the pass's output is the same with the shortcut on and
off (``hazards.WAR_ROOTS``) on every example, golden and found program, the benchmark's shapes
and random programs of two generators; the shortcut is taken (the ``reuses`` shape follows no
access of its InOut-only tensor), and a ``war_roots`` that misses a kind of pair changes outputs.
"""

from __future__ import annotations


import pytest

from conftest import EXAMPLES, REPO
from test_runtime_order_state import attack_programs

from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes import hazards
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate

NAMES = [p.name for p in PIPELINE.passes]
WAR = PIPELINE.passes[NAMES.index("order_write_after_read")]
CORPUS = sorted(
    [*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py"), *(REPO / "tests" / "found").glob("*.py")]
)
SHAPES = ("straight", "nested", "branches", "tiles", "scopes", "mixed", "assembles", "reuses")


def war_inputs(path) -> list:
    """The programs order_write_after_read is given for each program of ``path`` that compiles that far."""
    out = []
    for program in load_programs(str(path)):
        try:
            stages = run_pipeline(program, stop_after=NAMES[NAMES.index("order_write_after_read") - 1])
        except Exception:  # noqa: BLE001 - (a program the compiler refuses: nothing to compare)
            continue
        out.append(stages[-1].tree)
    return out


def outputs(tree, monkeypatch, on: bool):
    """The pass's output and notes on ``tree`` with the shortcut on or off."""
    monkeypatch.setattr(hazards, "WAR_ROOTS", on)
    ctx = PassContext()
    return WAR(ctx).run(tree), [(n.kind, n.message) for n in ctx.notes]


def same_both_ways(path, monkeypatch) -> int:
    """Asserts the outputs agree on every program of ``path``; how many programs there were."""
    trees = war_inputs(path)
    for tree in trees:
        assert outputs(tree, monkeypatch, True) == outputs(tree, monkeypatch, False)
    return len(trees)


def random_sources() -> list[str]:
    out = []
    for seed in range(24):  # (AUTO programs: the shortcut is for those; a few manual ones too)
        out.append(generate(RandomChooser(3710 + seed), manual=seed % 6 == 5).render())
    return out


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_war_roots_shortcut_changes_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_war_roots_shortcut_changes_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch) == 1


@pytest.mark.parametrize("index", range(24))
def test_the_war_roots_shortcut_changes_nothing_on_random_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch)


@pytest.mark.parametrize("index", range(12))
def test_the_war_roots_shortcut_changes_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch)


def test_the_reuses_shape_follows_no_access_of_its_inout_only_tensor(tmp_path, monkeypatch):
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 16))
    tree = war_inputs(path)[0]
    followed = []
    find = hazards.find_hazards

    def spy(*args, **kwargs):
        followed.append(kwargs.get("followed"))
        return find(*args, **kwargs)

    monkeypatch.setattr("nanopass.passes.order_write_after_read.find_hazards", spy)
    out, notes = outputs(tree, monkeypatch, True)
    assert followed and followed[0] is not None and "y" not in followed[0]
    assert len(followed[0]) == 4 and notes  # (the four tiles' buffers: each read, then written in place)
    monkeypatch.setattr(hazards, "WAR_ROOTS", False)
    followed.clear()
    WAR(PassContext()).run(tree)
    assert followed == [None]


def test_a_war_roots_that_misses_a_kind_of_pair_changes_outputs(tmp_path, monkeypatch):
    """(The comparison can fail: without the Input-read-then-write roots, edges go missing.)"""
    missing = lambda input_read, inout, existing, host_written: (inout & existing) | host_written  # noqa: E731
    differ = 0
    sources = [source_of("reuses", 16), *random_sources()[:12]]
    for k, source in enumerate(sources):
        path = tmp_path / f"p{k}.py"
        path.write_text(source)
        for tree in war_inputs(path):
            right = outputs(tree, monkeypatch, True)
            with monkeypatch.context() as m:
                m.setattr(hazards, "war_roots", missing)
                wrong = outputs(tree, monkeypatch, True)
            differ += right != wrong
    assert differ >= 2
