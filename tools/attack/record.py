"""Compile a DSL file with nanopass, the C++ with g++ against the stand-in header and this
tester's own recorder (recorder.cpp), and run it: one JSON log per set of scalar values."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..precompiled_header import header_flags

HERE = Path(__file__).resolve().parent
HEADER_DIR = HERE.parent            # tools/: holds pto_orchestration_api.h
RECORDER = HERE / "recorder.cpp"
CXX = os.environ.get("CXX", "g++")


def _cache_dir() -> Path:
    d = Path(tempfile.gettempdir()) / f"nanopass-attack-{os.getuid()}"
    d.mkdir(parents=True, exist_ok=True)
    return d


def recorder_object() -> Path:
    """The compiled recorder, built once per version of recorder.cpp and the header."""
    h = hashlib.sha256(RECORDER.read_bytes() + (HEADER_DIR / "pto_orchestration_api.h").read_bytes())
    obj = _cache_dir() / f"recorder-{h.hexdigest()[:16]}.o"
    if not obj.exists():
        tmp = obj.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run([CXX, "-std=c++17", "-O1", "-c", "-I", str(HEADER_DIR), str(RECORDER), "-o", str(tmp)],
                       check=True, capture_output=True, text=True)
        os.replace(tmp, obj)
    return obj


@dataclass
class Compiled:
    """What nanopass made of a DSL file: C++ and kernel ids, or an error."""

    code: Optional[str] = None
    kernel_ids: dict = field(default_factory=dict)
    others: dict = field(default_factory=dict)   # the other orchestration functions' C++, by name
    warnings: list = field(default_factory=list)  # "LINE: [pass] message" of each warning the compile printed
    stages: list = field(default_factory=list)    # the pipeline's stages (runner.values_noting's input)
    error_kind: Optional[str] = None   # "user" (located), "user-unlocated", "internal", "crash"
    error: str = ""


def compile_dsl(path: Path, **options) -> Compiled:
    """Import the file (the decorator reads its source) and run nanopass's library entry
    (`options`: generate_orchestration's keywords, e.g. abi="l2", backend="Ascend950"), every
    pass's output checked for the invariants the pass declares it preserves too
    (`recheck_preserved`: a wrong declaration is an internal error of that pass)."""
    import nanopass
    from nanopass.errors import InternalError, UserError

    name = f"attack_prog_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
            cls = getattr(mod, "Attack")
            result = nanopass.generate_orchestration(cls, **{"recheck_preserved": True, **options})
        finally:
            sys.modules.pop(name, None)
    except UserError as e:
        span = getattr(e, "span", None)
        located = span is not None and getattr(span, "line", None)
        return Compiled(error_kind="user" if located else "user-unlocated", error=str(e))
    except InternalError as e:
        return Compiled(error_kind="internal", error=f"{type(e).__name__}: {e}")
    except RecursionError as e:
        return Compiled(error_kind="crash", error=f"RecursionError: {e}")
    except Exception as e:  # noqa: BLE001 - anything else is a compiler crash, the thing to report
        tb = traceback.format_exc(limit=-3)
        return Compiled(error_kind="crash", error=f"{type(e).__name__}: {e}\n{tb}")
    others = {name: r.code for name, r in getattr(result, "functions", {}).items() if r is not result}
    warnings = [f"{getattr(w.span, 'line', '?')}: [{w.pass_name}] {w.message}"
                for stage in (getattr(result, "stages", None) or ()) for w in stage.warnings]
    return Compiled(code=result.code, kernel_ids=dict(result.kernel_ids), others=others, warnings=warnings,
                    stages=list(getattr(result, "stages", None) or ()))


@dataclass
class Built:
    binary: Optional[Path]
    gxx_error: str = ""


def build(code: str, workdir: Path) -> Built:
    src = workdir / "orch.cpp"
    src.write_text(code)
    exe = workdir / "orch.bin"
    flags = ("-std=c++17", "-O0", "-w")
    p = subprocess.run([CXX, *flags, *header_flags(CXX, flags), str(src), str(recorder_object()), "-o", str(exe)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return Built(None, p.stderr[-4000:] or f"g++ exited with status {p.returncode} and no message")
    return Built(exe)


def syntax_error(code: str, workdir: Path, name: str, warnings: bool = False) -> str:
    """g++ -fsyntax-only against the stand-in header (with -Wall -Werror when `warnings`): its
    errors, or ''."""
    src = workdir / f"{name}.cpp"
    src.write_text(code)
    flags = ("-std=c++17", *(("-Wall", "-Werror") if warnings else ("-w",)))
    p = subprocess.run([CXX, "-fsyntax-only", *flags, *header_flags(CXX, flags), str(src)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return p.stderr[-4000:] or f"g++ exited with status {p.returncode} and no message"
    return ""


def run(binary: Path, args: list, timeout: float = 20.0) -> tuple:
    """Run the recorder binary; returns (log as a list of dicts, error text or '')."""
    try:
        p = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], "timeout"
    log = []
    for line in p.stdout.splitlines():
        try:
            log.append(json.loads(line))
        except json.JSONDecodeError:
            return log, f"bad log line: {line[:200]}"
    if p.returncode != 0:
        return log, f"exit {p.returncode}: {p.stderr[-2000:]}"
    if not log or log[-1].get("ev") != "end":
        return log, "the run did not reach its end"
    return log, ""
