"""remove_dead_values returns its input without a liveness when each name of a value it could
remove is read by something the liveness counts (``every_value_read``, a sufficient condition
for no dead value, proved in its docstring). The bench shapes where nothing goes make no
liveness; where some value goes (mixed's dead if results, the scopes' dead ``pl.parallel``
TaskId results) the condition fails. Wherever it holds the full liveness finds every removable
value live, and the pass's output is the same with the early return forced off: on every
example, golden and found program, every bench shape, and random programs of
``tools/gen_programs.py`` (AUTO and manual) and of the attack's surface generator."""

from __future__ import annotations

import pytest

from conftest import CORPUS, SHAPES, bench_file, pass_inputs, random_file, running

from nanopass.passes import remove_dead_values
from nanopass.passes.remove_dead_values import RemoveDeadValues

PASS = "remove_dead_values"
NOTHING_DEAD = ("straight", "nested", "branches", "tiles", "reuses")  # (the shapes whose values are all needed)


def liveness_calls(monkeypatch) -> list:
    calls: list = []
    original = RemoveDeadValues.liveness

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(RemoveDeadValues, "liveness", staticmethod(counted))
    return calls


@pytest.mark.parametrize("shape", NOTHING_DEAD)
def test_a_shape_with_no_dead_value_makes_no_liveness(tmp_path, monkeypatch, shape):
    (given,) = pass_inputs(bench_file(tmp_path, shape, 12), PASS)
    calls = liveness_calls(monkeypatch)
    assert running(RemoveDeadValues)(given) is given
    assert calls == []


@pytest.mark.parametrize("shape", ["mixed", "scopes"])
def test_a_shape_with_dead_values_makes_the_liveness(tmp_path, monkeypatch, shape):
    (given,) = pass_inputs(bench_file(tmp_path, shape, 12), PASS)
    assert not remove_dead_values.every_value_read(given.orch.body)
    calls = liveness_calls(monkeypatch)
    assert running(RemoveDeadValues)(given) != given
    assert len(calls) == 1


def check(path) -> tuple[int, int]:
    """Checks every input of the pass from ``path``: where ``every_value_read`` holds, the full
    liveness finds no dead value; the output is the same with the early return forced off.
    Returns (inputs where it held, inputs where it did not)."""
    held = failed = 0
    run = running(RemoveDeadValues)
    for given in pass_inputs(path, PASS):
        body = given.orch.body
        if remove_dead_values.every_value_read(body):
            held += 1
            for apart in (False, True):
                live, removable = RemoveDeadValues.liveness(body, apart=apart)
                assert removable <= live, path.name
        else:
            failed += 1
        fast = run(given)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(remove_dead_values, "every_value_read", lambda body: False)
            full = run(given)
        assert fast == full, path.name
    return held, failed


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus(path):
    check(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes(tmp_path, shape):
    held, failed = check(bench_file(tmp_path, shape, 6))
    assert (held, failed) == ((1, 0) if shape in NOTHING_DEAD else (0, 1)) or shape == "assembles"


@pytest.mark.parametrize("manual", [False, True], ids=["auto", "manual"])
def test_random_programs(tmp_path, manual):
    held = failed = 0
    for seed in range(50):
        h, f = check(random_file(tmp_path, 7300 + seed, manual=manual))
        held, failed = held + h, failed + f
    assert held and failed  # (both ways met)


def test_random_surface_programs(tmp_path):
    from nanopass.tools.attack import program as P
    from nanopass.tools.attack import surface_generate

    held = failed = 0
    for seed in range(100):
        path = tmp_path / f"surface_{seed}.py"
        path.write_text(P.render(surface_generate.generate(9100 + seed)).source)
        h, f = check(path)
        held, failed = held + h, failed + f
    assert held and failed
