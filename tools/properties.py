"""What every generated program must do on each of its runs, and the tally of many programs.

``check_text(text, runs, findings)`` compiles a program (every pass's output verified) and, for
each set of parameter values, interprets every stage from the first ``directed`` one on and
checks (``tools/check.py``) that

- the compiler accepts it (the generators write valid programs only: a user error is a
  *refusal*), unless it refuses what has no correct compilation on the runtime
  (``NO_CORRECT_COMPILATION``, docs/semantics.md "Refused": a ``pl.assemble`` placement a use
  would see; a create with an ``init_value`` the block writes in loops of a ``with`` block
  whose runs are not counted before it, used after it, "Still open" 10; a host access in a manual scope after a task before it whose fence nothing before
  the scope can take is no such refusal, and fails): those refusals are
  counted (``Findings.refused_by_design``), not failures. The adversarial tester (tools/attack)
  checks from its own semantics that such a program really has no correct compilation;
- every stage's trace agrees with the reference (on the first run; on the others, and without
  ``every_stage``, the emission program's does), and nothing crashes (a *crash*: an internal
  error, an emission program its C++ could not run, g++ rejecting the C++ with ``gxx``);
- the run has no *hazard* (every conflicting pair outside one manual scope instance is the
  compiler's to order; inside, the program's own dependencies order it) and no fatal error;
- every read observes the write it observes in the program as written (no value *mismatch*).

Each failure is filed under the defect class of issue 21 it shows (``classify``), and the
``Findings`` keep the smallest failing program of each kind of failure and class.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from nanopass.errors import InternalError, UserError

from .check import check_stages, program_inputs, stage_traces, written_program
from .hazards import Hazard, manual_scopes, with_parallel
from .trace import HostRead, HostWrite, Trace

CLASSES = {
    "1": "host access against a task (runtime-api 11: set/get_tensor_data)",
    "2": "manual scope instances (a manual scope in a loop)",
    "3": "write-after-read across loop iterations (conditional write or swap)",
    "4": "manual scope boundary",
    "5": "pl.assemble placement changes a value",
    "6": "invalid C++ or an emission program that cannot run",
    "7": "refusal of a valid program",
    "-": "other",
}


# The refusals of programs the runtime cannot run correctly in any compilation (docs/semantics.md).
NO_CORRECT_COMPILATION = (
    re.compile(r"pl\.assemble cannot make '[^']*' a view of"),
    # a create with an init_value that the block writes, in loops of a `with` block whose runs are
    # not counted before the block (bounds read from an outer loop's variable or computed in the
    # block otherwise, a step that is not a positive constant, a while loop), used after the block
    # (place_loop_allocations_before_scopes.NoBuffersBeforeTheBlock)
    re.compile(r"'[^']*' is created with an initial value in a loop inside a `with` block, written in the block"),
)

def has_no_correct_compilation(error: UserError) -> bool:
    """Is ``error`` a refusal of a program the runtime cannot run correctly in any compilation?"""
    return any(pattern.search(str(error)) for pattern in NO_CORRECT_COMPILATION)


KINDS = ("hazard", "mismatch", "fatal", "differs", "refusal", "crash", "gxx", "oracle")


@dataclass
class Failure:
    kind: str  # one of KINDS
    defect: str  # a key of CLASSES
    message: str
    program: str
    values: dict[str, str]
    name: str = ""  # what names the program in a list of failing runs (default: its first line)

    def source(self) -> str:
        """The failing program as a DSL file: what failed, its inputs (``# check:``), the text."""
        comment = "".join(f"# {line}\n" for line in self.message.splitlines()[:12])
        inputs = " ".join(f"{k}={v}" for k, v in sorted(self.values.items()))
        return f"# issue 21, class {self.defect}: {CLASSES[self.defect]}\n{comment}# check: {inputs}\n{self.program}"


@dataclass
class Findings:
    programs: int = 0
    runs: int = 0
    tasks: int = 0
    skipped: int = 0  # programs of shapes left out (pending)
    refused_by_design: int = 0  # refusals of programs with no correct compilation (NO_CORRECT_COMPILATION)
    counts: Counter = field(default_factory=Counter)  # (kind, defect) -> failing runs
    smallest: dict = field(default_factory=dict)  # (kind, defect) -> the shortest failing program
    failures: int = 0  # failing programs
    shapes: list[str] = field(default_factory=list)  # one line per failing run: class, kind, program's first line

    def add(self, failure: Failure) -> None:
        key = (failure.kind, failure.defect)
        first = failure.program.splitlines()[0].split(": ", 1)[-1] if failure.program else ""
        inputs = " ".join(f"{k}={v}" for k, v in sorted(failure.values.items()))
        self.shapes.append(f"class {failure.defect} {failure.kind} [{inputs}] {failure.name or first}")
        self.counts[key] += 1
        best = self.smallest.get(key)
        if best is None or len(failure.program) < len(best.program):
            self.smallest[key] = failure

    @staticmethod
    def merge(parts: list["Findings"]) -> "Findings":
        out = Findings()
        for part in parts:
            out.programs += part.programs
            out.runs += part.runs
            out.tasks += part.tasks
            out.skipped += part.skipped
            out.refused_by_design += part.refused_by_design
            out.failures += part.failures
            out.shapes += part.shapes
            out.counts.update(part.counts)
            for key, failure in part.smallest.items():
                best = out.smallest.get(key)
                if best is None or len(failure.program) < len(best.program):
                    out.smallest[key] = failure
        return out

    def summary(self, seconds: float) -> str:
        kinds = Counter()
        for (kind, _), count in self.counts.items():
            kinds[kind] += count
        lines = [
            f"checked {self.programs} programs, {self.runs} runs, {self.tasks} tasks in {seconds:.0f} s "
            f"({self.skipped} programs of pending shapes left out, {self.refused_by_design} refused with no "
            f"correct compilation); {self.failures} failing programs",
            "failing runs: " + ", ".join(f"{kinds[k]} {k}" for k in KINDS),
        ]
        for (kind, defect), count in sorted(self.counts.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            lines.append(f"  class {defect} ({CLASSES[defect]}): {count} {kind} runs")
        return "\n".join(lines)

    def save(self, directory: Path) -> list[Path]:
        directory.mkdir(parents=True, exist_ok=True)
        paths = []
        for (kind, defect), failure in sorted(self.smallest.items()):
            path = directory / f"class{defect if defect != '-' else 'X'}_{kind}.py"
            path.write_text(failure.source())
            paths.append(path)
        if self.shapes:
            path = directory / "failing_runs.txt"
            path.write_text("".join(line + "\n" for line in sorted(self.shapes)))
            paths.append(path)
        return paths


def compile_text(text: str, options: dict | None = None, recheck_preserved: bool = False):
    """(stages, program) of a program's source text, every pass's output verified (with
    ``recheck_preserved``, for the invariants the pass declares it preserves too)."""
    from nanopass.api import run_pipeline
    from nanopass.loader import load_programs
    from nanopass.pipeline import PipelineError

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "generated.py"
        path.write_text(text)
        program = load_programs(str(path))[0]
        try:
            return run_pipeline(program, options=options, recheck_preserved=recheck_preserved), program
        except PipelineError as failure:
            raise failure.error from None


def check_text(
    text: str, runs: list[dict[str, str]], findings: Findings, *, options: dict | None = None, gxx: bool = False,
    every_stage: bool = True, extra=None, name: str = "", recheck_preserved: bool = False, compiled=None,
) -> list[Failure]:
    """Check one program on each of ``runs``; every failure is added to ``findings`` and returned.
    Every stage is interpreted on the first run (with ``every_stage``); on the others, and
    without it, only the program as written, the first and last ``directed`` stages and the
    emission program are. ``extra``
    (result, values) -> message or None is one more check of each run (a message fails it).
    ``recheck_preserved`` is ``compile_text``'s (a wrong ``Pass.preserves`` is then a crash).
    ``compiled``: ``compile_text(text, options, recheck_preserved)``'s result when the caller has
    already made it (a caller that tells a refusal first), which is then not made again."""
    from nanopass.api import surface_of

    findings.programs += 1
    failures: list[Failure] = []

    def fail(kind: str, defect: str, message: str, values: dict[str, str]) -> None:
        failures.append(Failure(kind, defect, message, text, values, name))
        findings.add(failures[-1])

    try:
        stages, program = compiled if compiled is not None else compile_text(text, options, recheck_preserved)
    except UserError as error:
        if has_no_correct_compilation(error):
            findings.refused_by_design += 1
        else:
            fail("refusal", "7", f"refused: {error}", runs[0])
    except Exception as error:  # noqa: BLE001 - any other failure to compile is a compiler bug
        fail("crash", "6" if _emission_error(error) else "-", f"crash: {type(error).__name__}: {error}", runs[0])
    else:
        written = None
        for values in runs:
            findings.runs += 1
            try:
                inputs = program_inputs(surface_of(program), values)
                known = {}
                for item in stage_traces(stages, inputs) if every_stage and values is runs[0] else ():
                    if item.error is not None:
                        raise item.error
                    if item.difference is not None:
                        message = f"{item.stage.name}: trace differs: {item.difference}"
                        fail("differs", _unrefined(message, text), message, values)
                        break
                    known[item.stage.index] = item.trace
                else:
                    written = written if written is not None else written_program(stages[0].tree, options)
                    result = check_stages(stages, inputs, gxx=gxx, known=known, options=options, written=written)
                    findings.tasks += len(result.reference.tasks())
                    _judge(result, values, fail)
                    message = extra(result, values) if extra is not None and not result.fatal else None
                    if message:
                        fail("oracle", "-", message, values)
            except UserError as error:
                fail("refusal", "7", f"refused at run time: {error}", values)
            except Exception as error:  # noqa: BLE001
                from .recorder import RecorderError

                kind = "gxx" if isinstance(error, RecorderError) else "crash"
                message = f"{kind}: {type(error).__name__}: {error}"
                fail(kind, "6" if _emission_error(error) else _unrefined(message, text), message, values)
    findings.failures += bool(failures)
    return failures


def _judge(result, values, fail) -> None:
    trace = with_parallel(result.reference, result.emission)
    if result.fatal:
        fail("fatal", "-", f"fatal: {result.fatal}", values)
    if result.mismatches:
        fail("mismatch", "5", "\n".join(f"value mismatch: {m}" for m in result.mismatches), values)
    scopes = manual_scopes(trace)
    for hazard in result.failing:
        fail("hazard", classify(trace, hazard, scopes), "\n".join(result.lines()), values)
        break


def classify(trace: Trace, hazard: Hazard, scopes: dict[int, int]) -> str:
    """The defect class of issue 21 an unordered pair shows (see ``CLASSES``)."""
    events = (trace.events[hazard.first], trace.events[hazard.second])
    if any(isinstance(e, (HostRead, HostWrite)) for e in events):
        return "1"
    first, second = scopes.get(hazard.first), scopes.get(hazard.second)
    if first is not None and second is not None and first != second:
        return "2"
    if (first is None) != (second is None):
        return "4"
    if hazard.kind == "WAR":
        return "3"
    return "-"


def _unrefined(message: str, text: str) -> str:
    """The class of a pass that leaves unordered a pair the stage before it ordered: class 1 in a
    program that writes task tensors' elements from the host (a pass that makes AUTO code
    manual drops the order a host access had), else unknown."""
    if "leaves conflicting pairs unordered" in message and re.search(r"pl\.tensor\.write\((?!flags|sink)", text):
        return "1"
    return "-"


def _emission_error(error: Exception) -> bool:
    from .interpret_emission import EmissionError
    from .recorder import RecorderError

    return isinstance(error, (EmissionError, RecorderError)) or (
        isinstance(error, InternalError) and getattr(error, "pass_name", None) == "lower_to_emission"
    )
