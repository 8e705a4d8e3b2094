"""Shared helpers: paths, the CLI in a subprocess, g++ against the stand-in runtime header."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# The test command draws the same examples on every run (a seed derived from each property), so
# that a red CI means a changed program, not a lucky draw. A long fuzzing run draws new ones:
# NANOPASS_FUZZ_SCALE above 1, or NANOPASS_FUZZ_RANDOM=1 at the default budget.
settings.register_profile("nanopass-fixed", derandomize=True)
settings.register_profile("nanopass-random", derandomize=False)
settings.load_profile(
    "nanopass-random"
    if os.environ.get("NANOPASS_FUZZ_RANDOM") == "1" or os.environ.get("NANOPASS_FUZZ_SCALE", "1") != "1"
    else "nanopass-fixed"
)

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
TOOLS = REPO / "tools"
PROGRAMS = REPO / "tests" / "programs"


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m nanopass ARGS`` in a subprocess (what a user types)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "nanopass", *args],
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=full_env,
        timeout=120,
    )


def gpp() -> str:
    path = shutil.which("g++")
    assert path, "g++ is required: the generated C++ is compiled in tests"
    return path


def compile_check(code: str, tmp_path: Path, name: str = "orch.cpp", extra: tuple[str, ...] = ()) -> None:
    """Assert that ``code`` passes ``g++ -std=c++17 -fsyntax-only -Wall -Werror`` against the stand-in."""
    source = tmp_path / name
    source.write_text(code)
    result = subprocess.run(
        [gpp(), "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", f"-I{TOOLS}", *extra, str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"g++ rejected the generated code:\n{result.stderr}\n---\n{code}"


def load_program(path: Path, name: str | None = None):
    from nanopass.loader import load_programs, pick_program

    return pick_program(load_programs(str(path)), name, str(path))


@pytest.fixture
def example():
    def get(stem: str, name: str | None = None):
        return load_program(EXAMPLES / f"{stem}.py", name)

    return get


def fuzz_budget(examples: int) -> int:
    """``max_examples`` for a property: sized for CI, multiplied by ``NANOPASS_FUZZ_SCALE`` for
    long fuzzing runs (``NANOPASS_FUZZ_SCALE=50 python -m pytest -k random``)."""
    scale = os.environ.get("NANOPASS_FUZZ_SCALE", "1")
    if not scale.isdigit() or int(scale) < 1:
        raise ValueError(f"NANOPASS_FUZZ_SCALE must be a positive integer, not {scale!r}")
    return examples * int(scale)


# -- a pass's shortcut tested both ways -------------------------------------------------------------
#
# A shortcut test compiles programs up to a pass's input, runs the pass with its shortcut and with
# the shortcut forced off (a monkeypatch), and compares. The programs: every example and golden
# program (``EXAMPLES_AND_GOLDEN``; ``CORPUS`` adds the found ones), the benchmark's shapes and
# random programs (``sample_paths``). A compile may be refused only with a located UserError
# (``check_refusal``, the one rule for every such test).

GOLDEN = REPO / "tests" / "golden"
FOUND = REPO / "tests" / "found"
EXAMPLES_AND_GOLDEN = sorted([*EXAMPLES.glob("*.py"), *GOLDEN.glob("*.py")])
CORPUS = sorted([*EXAMPLES_AND_GOLDEN, *FOUND.glob("*.py")])
SHAPES = ("straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses")  # the bench's


def counting(monkeypatch, owner, name: str) -> list:
    """Replace ``owner.name`` (a module's function, a class's method) by a wrapper that records
    each call's arguments; returns the record."""
    calls: list = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def bench_file(tmp_path: Path, shape: str, size: int) -> Path:
    """The benchmark's ``shape`` at ``size`` (``nanopass.tools.bench.source_of``), written in ``tmp_path``."""
    from nanopass.tools.bench import source_of

    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, size))
    return path


def nested_after_manual_file(tmp_path: Path, size: int) -> Path:
    """The bench's ``nested`` shape at ``size`` with one task in a manual scope before its loops
    (so the lean passes ask ``runtime_order``, and each block's first task may follow that one),
    written in ``tmp_path``."""
    from nanopass.tools.bench import source_of

    marker = "        for a0 in pl.range(2):"
    path = tmp_path / f"nested_after_manual_{size}.py"
    path.write_text(source_of("nested", size).replace(
        marker, "        with pl.manual_scope():\n            y = self.acc(x, 0, y)\n" + marker, 1))
    return path


def random_file(tmp_path: Path, seed: int, manual: bool = False, **options) -> Path:
    """The random program of ``seed`` (``nanopass.tools.gen_programs.generate``), written in ``tmp_path``."""
    from nanopass.tools.gen_programs import RandomChooser, generate

    path = tmp_path / f"random_{seed}.py"
    path.write_text(generate(RandomChooser(seed), manual=manual, **options).render())
    return path


def sample_paths(tmp_path: Path, shapes=SHAPES, size: int = 24, seeds=(), manual=lambda seed: False) -> list[Path]:
    """A file of each bench shape of ``shapes`` at ``size``, then one random program of each seed of
    ``seeds`` (manual scopes where ``manual(seed)``), all in ``tmp_path``."""
    paths = [bench_file(tmp_path, shape, size) for shape in shapes]
    return paths + [random_file(tmp_path, seed, manual(seed)) for seed in seeds]


def check_refusal(error: Exception, path: Path) -> None:
    """The one refusal a shortcut test accepts: a UserError located in the program's source, raised
    by the front end or around a pass (``PipelineError``). Anything else is re-raised."""
    from nanopass.errors import UserError
    from nanopass.pipeline import PipelineError

    cause = error.error if isinstance(error, PipelineError) else error
    if not isinstance(cause, UserError) or cause.span is None:
        raise AssertionError(f"{path.name}: refused without a located UserError: {cause!r}") from error


_COMPILED: dict[tuple[str, str], list] = {}
_KEPT = 400  # (compiles kept at most: the corpus and a test's own files; the oldest go first)


def _compile_outcomes(path: Path, through: str | None = None) -> list:
    """(stages reached, the refusal or None) for each program of ``path``, compiled through the pass
    ``through`` at least (None: every pass); kept per test process by the file's path and text.
    (Never for a compile a test has patched: a test that counts a pass's calls compiles by itself.)"""
    from nanopass.api import run_pipeline
    from nanopass.errors import UserError
    from nanopass.loader import load_programs
    from nanopass.passes.pipeline import PIPELINE
    from nanopass.pipeline import PipelineError

    names = PIPELINE.names()
    needed = len(names) + 1 if through is None else names.index(through) + 2  # (stage 0: the front end's)
    key = (str(path), path.read_text())
    kept = _COMPILED.get(key)
    if kept is not None and all(error is not None or len(stages) >= needed for stages, error in kept):
        return kept
    try:
        programs = load_programs(str(path))
    except UserError as error:
        outcomes = [([], _without_frames(error))]
    else:
        outcomes = []
        for program in programs:
            try:
                outcomes.append((run_pipeline(program, stop_after=through), None))
            except PipelineError as error:
                outcomes.append((error.stages, _without_frames(error)))
            except UserError as error:
                outcomes.append(([], _without_frames(error)))
    _COMPILED.pop(key, None)
    _COMPILED[key] = outcomes
    while len(_COMPILED) > _KEPT:
        del _COMPILED[next(iter(_COMPILED))]
    return outcomes


def _without_frames(error: Exception) -> Exception:
    """``error`` (kept by ``_compile_outcomes``) and the errors it wraps, their tracebacks dropped:
    a kept traceback keeps the frames of the compile alive, the pass objects in them with all they
    hold (test_library's check that no object of a compile outlives it would see them)."""
    pending, done = [error], set()
    while pending:
        e = pending.pop()
        if e is None or id(e) in done:
            continue
        done.add(id(e))
        e.__traceback__ = None
        pending += (getattr(e, "error", None), e.__cause__, e.__context__)
    return error


def stage_input(stages, pass_name: str):
    """The tree the pass ``pass_name`` was given in ``stages`` (a whole pipeline's, or a prefix)."""
    from nanopass.passes.pipeline import PIPELINE

    return stages[PIPELINE.names().index(pass_name)].tree


def pass_runs(path: Path, pass_name: str, *, refusals: bool = True) -> list[tuple]:
    """(input, output) of the pass ``pass_name`` for each program in ``path`` that compiles that
    far (the output None where the compile stopped in the pass); a program refused before
    (``check_refusal``; none, without ``refusals``) gives none. The compile is kept for the test
    process and served to every test that asks again: ask before patching what a compile runs."""
    from nanopass.passes.pipeline import PIPELINE

    index = PIPELINE.names().index(pass_name)
    out = []
    for stages, error in _compile_outcomes(path, pass_name):
        if len(stages) > index:
            out.append((stages[index].tree, stages[index + 1].tree if len(stages) > index + 1 else None))
        else:
            assert refusals, f"{path.name} refused before {pass_name}: {error}"
            check_refusal(error, path)
    return out


def pass_inputs(path: Path, pass_name: str, *, refusals: bool = True) -> list:
    """The input of the pass ``pass_name`` for each program in ``path`` that compiles that far
    (``pass_runs``)."""
    return [given for given, _ in pass_runs(path, pass_name, refusals=refusals)]


def pass_input(path: Path, pass_name: str):
    """The input of the pass ``pass_name`` in the compile of the one program of ``path`` (kept
    like ``pass_runs``')."""
    (tree,) = pass_inputs(path, pass_name, refusals=False)
    return tree


def compiled_stages(path: Path) -> list:
    """Every stage of the compile of the one program of ``path`` (kept like ``pass_input``'s)."""
    ((stages, error),) = _compile_outcomes(path)
    if error is not None:
        raise error
    return stages


def run_both_ways(run, given, patches):
    """``(run(given), run(given) with patches made)``: what a pass (an analysis, a compile) gives
    with its shortcut and with it forced off, ``patches`` a list of (module or class, attribute,
    value)."""
    fast = run(given)
    with pytest.MonkeyPatch.context() as patch:
        for owner, name, value in patches:
            patch.setattr(owner, name, value)
        full = run(given)
    return fast, full


def running(pass_cls):
    """A ``run`` for ``run_both_ways``: a fresh instance of ``pass_cls`` run on a tree, keeping its
    walks as a compile does (``reusing_walks``; each run apart from the others)."""
    from nanopass.languages.statements import reusing_walks
    from nanopass.rewrite import PassContext

    def run(tree):
        with reusing_walks():
            return pass_cls(PassContext()).run(tree)

    return run


def cpp_of(paths) -> list[str]:
    """The C++ of the one program of each file of ``paths`` (``nanopass.generate_orchestration``)."""
    import nanopass

    return [nanopass.generate_orchestration(load_program(path)).code for path in paths]


def corpus_tests(check):
    """The cases a both-ways test of a pass runs on every program: (a test of every example and
    golden program, a test of every bench shape at 24), each running ``check`` on a file's path.
    Bind them to ``test_`` names in the test module."""

    @pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
    def programs(path: Path):
        check(path)

    @pytest.mark.parametrize("shape", SHAPES)
    def shapes(tmp_path, shape):
        check(bench_file(tmp_path, shape, 24))

    return programs, shapes


def outcome_running(pass_cls):
    """Like ``running``, but a program the pass refuses (a ``UserError``) gives ("refused",
    message): for a both-ways test on programs some of which the pass refuses."""
    from nanopass.errors import UserError

    run = running(pass_cls)

    def outcome(tree):
        try:
            return run(tree)
        except UserError as error:
            return ("refused", str(error))

    return outcome


def trusted_both_ways(pass_cls, path: Path) -> None:
    """``pass_cls`` gives, on each of its inputs from ``path`` (``pass_inputs``), the same output as
    built (``make_trusted`` unchecked) and with every construction checked (``trusted_checked()``,
    where a wrong value would raise), or the same refusal both ways (``outcome_running``)."""
    from nanopass.language import trusted_checked

    run = outcome_running(pass_cls)
    for given in pass_inputs(path, pass_cls.name):
        trusted = run(given)
        with trusted_checked():
            checked = run(given)
        assert trusted == checked


def same_fusion_on_random_and_rows(both_ways, tmp_path: Path, seed: int, count: int = 120, least: int = 140) -> None:
    """``both_ways(path)`` (fuse_create_assemble_to_slice's output or refusal with a shortcut and
    without, None where the compile stops before the pass) agrees on the bench shapes, 24 random
    programs and ``count`` programs of the rows grammar (``corpus``, from ``seed``), most of them
    fused, at least ``least`` of them compared."""
    from test_call_directions_in_one_loop import corpus

    from nanopass.tools.attack import rows

    compared = refused = 0
    for path in corpus(tmp_path, seed, rows, (2, 3), count):
        got = both_ways(path)
        if got is None:
            continue
        assert got[0] == got[1], path.name
        compared += 1
        refused += isinstance(got[0], str)
    assert compared >= least and refused < compared
