"""What the adversarial tester's generators share and draw (tools/attack/grammar.py): dead host
reads in the random and the exhaustive grammars, and the shape patterns of `--shapes` that select
the documented families of an exhaustive run (tools/attack/found/RUNS.md)."""

from __future__ import annotations

import json

import pytest

from nanopass.tools.attack import cli, exhaustive, generate, grammar, runner, scopes, semantics
from nanopass.tools.attack import program as P

# tests/found/class1_dead_host_read_stands_for_no_wait.py in the exhaustive grammar: cp reads a and
# updates b, a host read of b whose value nothing uses, then a task writes a
DEAD_READ_SHAPE = (("atom", "atom", "atom"), (("cp", "a", "b"), ("hd", "b"), ("wr", "a")))


def _walk(body):
    for s in body:
        yield s
        for ch in P.children(s):
            yield from _walk(ch)


def _reads(prog, call: P.Call) -> set:
    k = prog.kernel(call.kernel)
    return {a for a, (d, _) in zip(call.args, k.params) if a is not None and d != "out"}


def _writes(prog, call: P.Call) -> set:
    k = prog.kernel(call.kernel)
    return {a for a, (d, _) in zip(call.args, k.params) if a is not None and d != "in"}


def has_dead_read_between_a_read_and_a_write(prog: P.Program) -> bool:
    """In one statement list: a task reading X and writing Y, later a dead host read of Y (its
    value unused), later a task writing X: the shape of the class-1 defect."""
    for body in [prog.body] + [b for s in _walk(prog.body) for b in P.children(s)]:
        for i, first in enumerate(body):
            if not isinstance(first, P.Call):
                continue
            for j in range(i + 1, len(body)):
                dead = body[j]
                if not (isinstance(dead, P.HostRead) and not dead.live and dead.tensor in first.results):
                    continue
                if any(isinstance(last, P.Call) and _reads(prog, first) & _writes(prog, last)
                       for last in body[j + 1:]):
                    return True
    return False


def test_a_dead_read_renders_without_its_use_and_observes_nothing():
    shape, atoms = DEAD_READ_SHAPE
    prog = exhaustive.build(shape, iter(atoms))
    src = P.render(prog).source
    assert "v1 = pl.tensor.read(b, [3, 1])\n" in src and "pl.tensor.write(sink" not in src
    seq = semantics.run(prog, P.render(prog).lines, 1, 0)
    assert [e.kind for e in seq.events] == ["task", "task"]      # no access for the dead read
    assert has_dead_read_between_a_read_and_a_write(prog)


def test_the_exhaustive_grammar_enumerates_the_dead_read_of_class_1_at_size_3():
    assert ("hd", "a") in exhaustive.ATOMS and ("hd", "b") in exhaustive.ATOMS
    shape, atoms = DEAD_READ_SHAPE
    want = P.render(exhaustive.build(shape, iter(atoms))).source
    plain = list(exhaustive.programs(3, patterns=["atom,atom,atom"]))
    assert len(plain) == len(exhaustive.ATOMS) ** 3
    sources = [P.render(p).source for p in plain]
    assert want in sources
    assert sum(has_dead_read_between_a_read_and_a_write(p) for p in plain) > 1


def test_the_random_generator_draws_the_dead_read_of_class_1():
    progs = [generate.generate(seed) for seed in range(400)]
    dead = [p for p in progs if any(isinstance(s, P.HostRead) and not s.live for s in _walk(p.body))]
    assert len(dead) > 40
    assert any(has_dead_read_between_a_read_and_a_write(p) for p in progs)


class EveryName:
    """Holds every name: ``reads & EveryName()`` is ``reads``."""

    def __rand__(self, names):
        return names


def test_the_tester_finds_a_dead_read_taken_for_a_wait(monkeypatch):
    """With runtime_order counting every host read as a wait (the defect df8bc48 fixed), the
    class-1 shape of the exhaustive grammar is a write-after-read the emitted program leaves
    unordered; with the fix it passes."""
    from nanopass.passes import runtime_order

    shape, atoms = DEAD_READ_SHAPE
    prog = exhaustive.build(shape, iter(atoms))
    assert runner.check(prog, settings=((1, 0),)).classes() == set()

    monkeypatch.setattr(runtime_order, "live_names", lambda body: EveryName())
    assert runner.check(prog, settings=((1, 0),)).classes() == {"hazard WAR task>task AA", "value task latest-first"}


# ---- shape patterns -----------------------------------------------------------------------------

def test_shape_patterns_parse_and_match_by_class():
    pattern = grammar.parse_pattern("with(loop(atom)), atom")
    assert pattern == (("with", (("loop", ("atom",)),)), "atom")
    assert grammar.matches(pattern, (("manual", (("range_n", ("atom",)),)), "atom"))
    assert grammar.matches(pattern, (("scope", (("swap_n", ("atom",)),)), "atom"))
    assert not grammar.matches(pattern, (("scope", (("if_n", ("atom",)),)), "atom"))
    assert not grammar.matches(pattern, (("range_n", (("scope", ("atom",)),)), "atom"))
    assert not grammar.matches(pattern, (("manual", (("range_n", ("atom",)),)),))
    assert grammar.pattern_size("with(loop(atom)),atom") == 4
    for bad in ("with(atom", "atom atom", "loop", "with()", "atom,"):
        with pytest.raises(ValueError):
            grammar.parse_pattern(bad)
    with pytest.raises(ValueError):
        grammar.shape_filter(["range_n(atom)"], exhaustive.BLOCKS)     # not a block of this grammar


def test_shape_pattern_counts_at_size_3_counted_by_hand():
    # scopes: 18 atoms, no atom its own renaming image, so 18 * 18 / 2 = 162 classes of two atoms
    assert scopes.count(3, patterns=["block(atom),atom"]) == 7 * 162 == 1134
    assert scopes.count(3, patterns=["with(atom),atom"]) == 2 * 162
    assert scopes.count(3, patterns=["loop(atom,atom)"]) == 4 * 162
    assert scopes.count(3, patterns=["with(loop(atom))"]) == (4 + 4) * 9     # a loop in scope or manual
    assert scopes.count(3, patterns=["with(atom),atom", "atom,with(atom)"]) == 4 * 162
    srcs = [P.render(p).source for p in scopes.programs(3, patterns=["with(atom),atom"])]
    assert len(set(srcs)) == 324 and all("with pl." in s for s in srcs)
    # the two-tensor grammar: 14 atoms, no reduction
    assert exhaustive.count(3, patterns=["loop(atom,atom)"]) == 2 * 14 ** 2
    assert exhaustive.count(3, patterns=["manual(block(atom))"]) == 3 * 14       # no manual in a manual


def test_the_documented_families_have_the_documented_counts():
    """tools/attack/found/RUNS.md, "The families of the scopes grammar": A, B and C."""
    assert scopes.count(4, patterns=["with(block(atom)),atom"]) == 1944
    family_b = ["loop(with(atom,atom))", "loop(with(atom),atom)", "loop(atom,with(atom))", "loop(with(atom)),atom"]
    assert scopes.count(4, patterns=family_b) == 5184
    assert scopes.count(5, patterns=["with(loop(loop(atom))),atom"]) == 5184


def test_the_command_line_runs_a_family(tmp_path, monkeypatch):
    """`--exhaustive --grammar scopes --shapes P` enumerates P's programs alone, at P's size."""
    seen = []

    def work(name, prog, host_region):
        seen.append(name)
        return {"name": name, "prog": prog, "source": "", "classes": [], "failures": [], "refusal": None,
                "invalid": None, "right refusal": False, "runs": 4, "tasks": 1, "seconds": 0.0, "text": ""}

    monkeypatch.setattr(cli, "work", work)
    monkeypatch.setattr(cli, "ProcessPoolExecutor", _InlinePool)
    assert cli.main(["--exhaustive", "--grammar", "scopes", "--shapes", "with(atom),atom", "--jobs", "1",
                     "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["programs in the grammar"] == summary["figures"]["programs"] == len(seen) == 324
    assert seen[0] == "scopes3s-00000" and "shapes with(atom),atom" in summary["mode"]
    with pytest.raises(SystemExit):
        cli.main(["--shapes", "atom", "--out", str(tmp_path)])          # a filter of exhaustive runs only


class _InlinePool:
    """A ProcessPoolExecutor that runs each job at once, in this process."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        from concurrent.futures import Future
        f = Future()
        f.set_result(fn(*args))
        return f

    def shutdown(self, *args, **kwargs):
        pass
