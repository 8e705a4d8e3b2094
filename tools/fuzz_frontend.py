"""Front-end fuzzing (issue 11): bad input never crashes the compiler.

    python -m nanopass.tools.fuzz_frontend [--seed N] [--budget SECONDS] [--save DIR] [--rounds K]
    python -m nanopass.tools.fuzz_frontend --refresh tests/corpus

Draws programs (mutations of the example, golden and test programs, see ``fuzz_mutations``, and
random programs of the test generators), compiles each in this process (every pass's output
checked for the invariants the pass declares it preserves too, ``recheck_preserved``: a wrong
``Pass.preserves`` is an internal error), and checks the property:

    the compiler either returns C++ that g++ accepts against the stand-in runtime header, or
    raises a ``UserError`` located inside the file; never an ``InternalError``, another exception,
    or a timeout. Reading the file without running it (``--no-exec``) gives the same C++.

With ``--runs K`` (the tool's default 2; 0 in the tests' ``Checker``), a program that compiles is
also run as ``nanopass check`` runs it (``check_runs``), on the first K value sets ``check``
chooses from the program: the interpreters' traces must agree, every read of the emitted program
must see the value it sees in the program as written (but the end-of-program read of an output
parameter the compile warned is returned rebound to a tensor the caller never sees: the warning
says the caller's buffer is not that tensor, ``unseen_output_reads``), and no two tasks both in AUTO scopes may
conflict unordered (in a MANUAL scope ordering is the program's to give, which a mutant may
drop). A run the program itself makes fail (an index out of range, a missing value: a
``UserError``) proves nothing and is passed over.

Every program that breaks the property is minimised (lines deleted while it still breaks it the
same way) and written to ``DIR/bugs/``. With ``--save DIR``, one minimised program per distinct
error message (at most ``--per-message``) is also written to ``DIR`` with its expectation, as
candidates for the checked-in corpus (``tests/corpus``), which are to be reviewed before use;
so are up to as many mutants per kind of mutation that still compile. The run prints the number
of programs tried and the outcomes. ``--refresh DIR`` re-checks a corpus and rewrites each file's
``# expect:`` line (after a deliberate change of a message), listing what changed.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

REPO = Path(__file__).resolve().parent.parent
HEADER_DIR = Path(__file__).resolve().parent  # pto_orchestration_api.h

COMPILED, USER_ERROR = "compiled", "user-error"
NOT_KNOWN_WITHOUT_RUNNING = "its value is not known without running the file"  # --no-exec may refuse what runs
BUGS = ("bad-location", "internal-error", "crash", "timeout", "g++-rejected", "no-exec-differs",
        "trace-mismatch", "value-mismatch", "hazard", "check-crash")


@dataclass
class Outcome:
    """What compiling one program gave. ``kind`` is COMPILED, USER_ERROR or one of BUGS."""

    kind: str
    message: str = ""  # the error's first line, without the file name: "LINE:COL: error: ..."
    detail: str = ""  # a traceback, the g++ diagnostics, ...
    code: str = ""
    result: Any = field(default=None, repr=False)  # the OrchestrationResult of a compiled program

    @property
    def is_bug(self) -> bool:
        return self.kind in BUGS

    def signature(self) -> str:
        """What must stay the same while a program is minimised."""
        if self.kind == USER_ERROR:
            return f"{self.kind}: {_without_position(self.message)}"
        if self.kind in ("crash", "internal-error"):
            return f"{self.kind}: {self.message}"
        return self.kind


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` of the compiler eats it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(_signum, _frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class GxxCache:
    """g++ -fsyntax-only of generated C++ against the stand-in header, memoised by content."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.seen: dict[str, str] = {}

    def errors(self, code: str) -> str:
        key = hashlib.sha256(code.encode()).hexdigest()
        if key not in self.seen:
            source = self.workdir / f"g{key[:16]}.cpp"
            source.write_text(code)
            result = subprocess.run(
                [shutil.which("g++") or "g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", f"-I{HEADER_DIR}",
                 str(source)], capture_output=True, text=True, timeout=300,
            )
            source.unlink()
            self.seen[key] = "" if result.returncode == 0 else result.stderr
        return self.seen[key]


def check_runs(result, runs: int) -> "Outcome | None":
    """The semantic half of the property, on the first ``runs`` value sets ``nanopass check``
    chooses for the compiled program (``result``, its stages kept): None when it holds, else the
    bug (see the module docstring)."""
    from nanopass.errors import UserError
    from nanopass.tools.check import TraceMismatch, check_stages, program_inputs
    from nanopass.tools.check_values import as_set_text, choose_values
    from nanopass.tools.hazards import with_parallel
    from nanopass.tools.trace import Task

    stages = result.stages
    surface = stages[0].tree
    warned = unseen_output_reads(stages)
    for values in choose_values(surface, {}).runs[:runs]:
        said = ", ".join(f"{k}={v}" for k, v in sorted(as_set_text(values).items())) or "no values"
        try:
            checked = check_stages(stages, program_inputs(surface, as_set_text(values)))
        except UserError:
            continue
        except TraceMismatch as error:
            return Outcome("trace-mismatch", f"{str(error).splitlines()[0]} ({said})", _traceback(error))
        except Exception as error:  # noqa: BLE001 - a crash of the checker on a program that compiled
            return Outcome("check-crash", f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
                           _traceback(error))
        mismatches = [m for m in checked.mismatches if m.read.key not in warned]
        if mismatches:
            return Outcome("value-mismatch", f"{mismatches[0]} ({said})", "\n".join(map(str, mismatches)))
        events = with_parallel(checked.reference, checked.emission).events  # (the trace the hazards index)
        for hazard in checked.failing:
            first, second = events[hazard.first], events[hazard.second]
            if isinstance(first, Task) and isinstance(second, Task) and first.mode == second.mode == "auto":
                lines = [line for line in checked.lines() if line.startswith("hazard: ")]
                return Outcome("hazard", f"{hazard.kind} between two tasks in AUTO scopes ({said})", "\n".join(lines))
    return None


def unseen_output_reads(stages) -> frozenset[tuple]:
    """The value reads (``values.Read.key``) the value check passes over: the end-of-program
    read of an output parameter the compile warned is returned rebound to a tensor the caller
    never sees (``check_output_params_written``; the program as written reads that tensor as
    the parameter, the emitted program the caller's buffer, as the warning says)."""
    from nanopass.passes.check_output_params_written import unseen_return

    outputs = {
        p.name for p in stages[0].tree.orch.params
        if p.type._production == "TensorType" and p.dir.name != "In"
    }
    names = {unseen_return(w) for stage in stages for w in stage.warnings}
    return frozenset(("final", name) for name in names & outputs)


class Checker:
    """Compiles programs in this process and classifies the outcome."""

    def __init__(self, workdir: Path, seconds: float = 30.0, gxx: bool = True, runs: int = 0):
        self.workdir = workdir
        self.seconds = seconds
        self.gxx = GxxCache(workdir) if gxx else None
        self.runs = runs  # value sets a compiled program is run on (``check_runs``)
        self.counter = 0

    def write(self, text: str, stem: str = "prog") -> Path:
        self.counter += 1
        path = self.workdir / f"{stem}_{self.counter}.py"
        path.write_text(text)
        return path

    def check(self, text: str, stem: str = "prog") -> Outcome:
        path = self.write(text, stem)
        try:
            outcome = self.check_file(path)
        finally:
            path.unlink()
        return outcome

    def check_file(self, path: Path) -> Outcome:
        from nanopass.loader import load_programs, pick_program
        from nanopass.static_loader import load_programs_static

        try:
            with time_limit(self.seconds):
                outcome = self._compile(path, lambda: pick_program(load_programs(str(path)), None, str(path)))
                if outcome.kind == COMPILED:
                    other = self._compile(path, lambda: pick_program(load_programs_static(str(path)), None, str(path)))
                    refused = other.kind == USER_ERROR and NOT_KNOWN_WITHOUT_RUNNING in other.message
                    if not refused and (other.kind != COMPILED or other.code != outcome.code):
                        return Outcome("no-exec-differs", other.message, other.detail or other.code)
        except _Timeout:
            return Outcome("timeout", f"no answer within {self.seconds:g} s")
        if outcome.kind == COMPILED and self.gxx is not None:
            problem = self.gxx.errors(outcome.result.code)
            if problem:
                return Outcome("g++-rejected", problem.splitlines()[0], problem, outcome.code)
        if outcome.kind == COMPILED and self.runs:
            try:
                with time_limit(self.seconds):
                    bug = check_runs(outcome.result, self.runs)
            except _Timeout:
                bug = None  # (a long run: the compile's property holds, and the rest is not known)
            if bug is not None:
                bug.code = outcome.code
                return bug
        return outcome

    def _compile(self, path: Path, load: Callable) -> Outcome:
        import nanopass

        try:
            result = nanopass.generate_orchestration(load(), recheck_preserved=True)  # (declarations tested too)
        except nanopass.UserError as error:
            return _user_error(error, path)
        except nanopass.InternalError as error:
            return Outcome("internal-error", str(error).splitlines()[0], _traceback(error))
        except _Timeout:
            raise
        except BaseException as error:  # noqa: BLE001 - exactly what the property forbids
            if isinstance(error, KeyboardInterrupt):
                raise
            return Outcome("crash", f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
                           _traceback(error))
        return Outcome(COMPILED, code=result.code, result=result)


def _user_error(error, path: Path) -> Outcome:
    span = error.span
    first = error.message.splitlines()[0] if error.message else ""
    if span is None:
        # errors about the file as a whole name it in their message instead
        if error.message.startswith(f"{path}: "):
            return Outcome(USER_ERROR, f"error: {error.message[len(str(path)) + 2:]}")
        return Outcome("bad-location", f"error without a position: {first}")
    lines = path.read_text().splitlines()
    message = f"{span.line}:{span.display_col}: error: {first}"
    if span.file != str(path):
        return Outcome("bad-location", f"{span.file}:{message}", "the position is in another file")
    if not 1 <= span.line <= max(1, len(lines)) or span.col < 0 or span.col > len(lines[span.line - 1] if lines else ""):
        return Outcome("bad-location", message, "the position is outside the file")
    if "\n" in error.message:
        return Outcome("bad-location", message, "the message is not one line")
    return Outcome(USER_ERROR, message)


def _traceback(error: BaseException) -> str:
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def _without_position(message: str) -> str:
    return re.sub(r"^\d+:\d+: ", "", message)


def template(message: str) -> str:
    """An error message with its particulars (names, numbers, positions) blanked: a dedup key."""
    text = _without_position(message)
    text = re.sub(r"'[^']*'", "'_'", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return re.sub(r"pl\.(Tensor|Scalar|Array|Tile)\[[^ ]*\]", r"pl.\1[_]", text)


# -- minimisation ------------------------------------------------------------------------------------


def minimise(text: str, keeps: Callable[[str], bool], budget: float = 120.0) -> str:
    """Delete statements and parameters, then lines, while ``keeps`` still holds; tidy the result."""
    deadline = time.monotonic() + budget
    text = _minimise_ast(text, keeps, deadline)
    lines = text.splitlines()
    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        changed = False
        while i < len(lines) and time.monotonic() < deadline:
            candidate = lines[:i] + lines[i + chunk:]
            if candidate and keeps("\n".join(candidate) + "\n"):
                lines = candidate
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    result = "\n".join(lines) + "\n"
    tidy = _reformat(result)
    return tidy if tidy != result and keeps(tidy) else result


def _minimise_ast(text: str, keeps: Callable[[str], bool], deadline: float) -> str:
    """Remove whole statements (at every level) and function parameters while ``keeps`` holds."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return text
    if not keeps(ast.unparse(tree) + "\n"):
        return text
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for holder, field_name in _lists(tree):
            items = getattr(holder, field_name)
            i = 0
            while i < len(items) and time.monotonic() < deadline:
                if field_name == "args" and i == 0 and items[0].arg == "self":
                    i += 1
                    continue
                if len(items) == 1 and isinstance(items[0], ast.Pass):
                    break  # already as small as a block gets
                removed = items.pop(i)
                placeholder = not items and field_name != "args" and not isinstance(holder, ast.Module)
                if placeholder:
                    items.append(ast.Pass())
                if keeps(ast.unparse(tree) + "\n"):
                    changed = True
                    if placeholder:
                        break
                    continue
                if placeholder:
                    items.pop()
                items.insert(i, removed)
                i += 1
    return ast.unparse(tree) + "\n"


def _lists(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """Every statement list and parameter list of the tree, outermost first."""
    out = []
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                out.append((node, name))
        if isinstance(node, ast.arguments) and len(node.args) > 1:
            out.append((node, "args"))  # (``self`` stays: a mutant should read as a DSL program)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.decorator_list:
            out.append((node, "decorator_list"))
    return out


def _reformat(text: str) -> str:
    """The program as ``ast.unparse`` prints it (comments and blank-line noise gone), if it parses."""
    try:
        return ast.unparse(ast.parse(text)) + "\n"
    except (SyntaxError, ValueError, RecursionError):
        return text


# -- drawing programs -------------------------------------------------------------------------------


def draw_programs(seed: int, rounds: int) -> Iterator[tuple[str, str]]:
    """(description, source) forever: mostly mutants, some random programs of the test generators."""
    import random

    from nanopass.tools.fuzz_mutations import RandomChooser, mutate, seed_sources

    rng = random.Random(seed)
    sources = seed_sources()
    generators = _test_generators()
    while True:
        if generators and rng.random() < 0.15:
            name, strategy = generators[rng.randrange(len(generators))]
            yield f"random {name}", _draw_once(strategy, rng.randrange(2**32))
            continue
        name, text = sources[rng.randrange(len(sources))]
        new, done = mutate(text, RandomChooser(rng), rng.randint(1, rounds))
        if done:
            yield f"{name}: " + "; ".join(done), new


def _test_generators() -> list:
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from program_gen import control_flow_programs
        from test_manual_scopes import manual_programs
    except ImportError:
        return []
    finally:
        sys.path.pop(0)
    return [("control flow", control_flow_programs()), ("manual scopes", manual_programs())]


def _draw_once(strategy, seed: int) -> str:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    drawn: list[str] = []

    @hseed(seed)
    @settings(max_examples=1, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def take(value):
        drawn.append(value)

    take()
    return drawn[0]


# -- the tool ---------------------------------------------------------------------------------------


@dataclass
class Report:
    tried: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    bugs: dict[str, tuple[str, str, Outcome]] = field(default_factory=dict)  # signature -> (what, source, outcome)
    messages: dict[str, list[tuple[str, str, Outcome]]] = field(default_factory=dict)  # template -> examples
    compiled: dict[str, list[tuple[str, str, Outcome]]] = field(default_factory=dict)  # mutation kind -> examples


def run(seed: int, budget: float, rounds: int, per_message: int, seconds: float, workdir: Path, runs: int = 0) -> Report:
    checker = Checker(workdir, seconds, runs=runs)
    report = Report()
    deadline = time.monotonic() + budget
    for what, source in draw_programs(seed, rounds):
        if time.monotonic() >= deadline:
            break
        outcome = checker.check(source)
        report.tried += 1
        report.kinds[outcome.kind] = report.kinds.get(outcome.kind, 0) + 1
        if outcome.is_bug:
            report.bugs.setdefault(outcome.signature(), (what, source, outcome))
        elif outcome.kind == USER_ERROR:
            examples = report.messages.setdefault(template(outcome.message), [])
            if len(examples) < per_message:
                examples.append((what, source, outcome))
        elif ": " in what:  # a mutant that still compiles
            examples = report.compiled.setdefault(what.split(": ")[1], [])
            if len(examples) < per_message:
                examples.append((what, source, outcome))
    return report


def save(report: Report, directory: Path, checker: Checker) -> int:
    """Minimise and write the bugs (``bugs/``) and one program per error message; returns the count."""
    directory.mkdir(parents=True, exist_ok=True)
    written = 0
    for index, (signature, (what, source, outcome)) in enumerate(sorted(report.bugs.items())):
        small = minimise(source, lambda t, s=signature: checker.check(t).signature() == s)
        final = checker.check(small)
        bug_dir = directory / "bugs"
        bug_dir.mkdir(exist_ok=True)
        (bug_dir / f"bug_{index:03d}.py").write_text(
            f"# fuzz: {what}\n# {final.kind}: {final.message}\n" + "".join(f"# {line}\n" for line in final.detail.splitlines()[-12:]) + small
        )
        written += 1
    candidates = [*(("", k, v) for k, v in sorted(report.messages.items())),
                  *(("compiles_", k, v) for k, v in sorted(report.compiled.items()))]
    for prefix, key, examples in candidates:
        for what, source, outcome in examples:
            signature = outcome.signature()
            # a compiling mutant is kept whole: minimised, "still compiles" leaves an empty program
            small = source if prefix else minimise(source, lambda t, s=signature: checker.check(t).signature() == s,
                                                   budget=60)
            text = corpus_text(what, small, checker)
            if text is None:
                continue
            what_name = key if prefix else _slug(text.splitlines()[1][len(EXPECT):])  # compiles_<mutation kind>_...
            name = f"{prefix}{what_name}_{hashlib.sha256(small.encode()).hexdigest()[:6]}.py"
            (directory / name).write_text(text)
            written += 1
    return written


EXPECT = "# expect: "


def corpus_text(what: str, program: str, checker: Checker) -> str | None:
    """A corpus file: two comment lines (how it was made, what compiling it gives), then the program."""
    head = f"# fuzz: {what}\n{EXPECT}"
    outcome = checker.check(head + "?\n" + program)
    if outcome.is_bug:
        return None
    expect = "compiles" if outcome.kind == COMPILED else outcome.message
    return f"{head}{expect}\n{program}"


def refresh(directory: Path, checker: Checker) -> list[str]:
    """Re-check every corpus file of ``directory`` and rewrite its ``# expect:`` line; returns the changes."""
    changes = []
    for path in sorted(directory.glob("*.py")):
        lines = path.read_text().splitlines(keepends=True)
        if len(lines) < 2 or not lines[0].startswith("# fuzz: ") or not lines[1].startswith(EXPECT):
            changes.append(f"{path.name}: not a corpus file (no '# fuzz:' and '{EXPECT}' lines)")
            continue
        text = corpus_text(lines[0][len("# fuzz: "):].rstrip("\n"), "".join(lines[2:]), checker)
        if text is None:
            changes.append(f"{path.name}: BREAKS THE PROPERTY ({checker.check(''.join(lines)).kind})")
        elif text != "".join(lines):
            changes.append(f"{path.name}: {lines[1].strip()} -> {text.splitlines()[1]}")
            path.write_text(text)
    return changes


def _slug(message: str) -> str:
    words = re.findall(r"[a-z]+", _without_position(message).replace("error:", "").lower())
    return "_".join(words[:6]) or "error"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fuzz_frontend", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="random seed (a run is repeatable)")
    parser.add_argument("--budget", type=float, default=60.0, metavar="SECONDS", help="how long to draw programs")
    parser.add_argument("--rounds", type=int, default=2, help="at most this many mutations per program")
    parser.add_argument("--save", metavar="DIR", help="write minimised bugs and corpus candidates here")
    parser.add_argument("--per-message", type=int, default=2, help="corpus candidates kept per error message")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS", help="per program")
    parser.add_argument("--runs", type=int, default=2, metavar="K",
                        help="run each program that compiles on the first K value sets nanopass check chooses "
                             "(traces, values, hazards between AUTO-scope tasks); 0: compile only")
    parser.add_argument("--refresh", metavar="DIR", help="re-check a corpus and rewrite its expectations, then stop")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # Python's SyntaxWarnings about mutants ("perhaps you missed a comma?")
    if args.refresh:
        with tempfile.TemporaryDirectory(prefix="fuzz-frontend-") as tmp:
            changes = refresh(Path(args.refresh), Checker(Path(tmp), args.timeout))
        print("\n".join(changes) or "no expectation changed")
        return 1 if any("BREAKS" in c or "not a corpus" in c for c in changes) else 0
    with tempfile.TemporaryDirectory(prefix="fuzz-frontend-") as tmp:
        workdir = Path(tmp)
        report = run(args.seed, args.budget, args.rounds, args.per_message, args.timeout, workdir, args.runs)
        print(f"programs tried: {report.tried}")
        for kind, count in sorted(report.kinds.items()):
            print(f"  {kind}: {count}")
        print(f"distinct error messages: {len(report.messages)}; distinct bugs: {len(report.bugs)}")
        for signature, (what, _source, _outcome) in sorted(report.bugs.items()):
            print(f"  BUG {signature}\n      from {what}")
        if args.save:
            count = save(report, Path(args.save), Checker(workdir, args.timeout, runs=args.runs))
            print(f"wrote {count} minimised programs to {args.save}")
    return 1 if report.bugs else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
