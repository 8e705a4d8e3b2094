"""Compile generated C++ with the recording runtime, run it, and read its trace.

``record(code, inputs)`` writes the orchestration source, compiles it with
``g++ -std=c++17 -Wall -Werror`` against the stand-in header and links it with the recording
runtime and the driver in one g++ invocation (their objects are compiled once per content hash
into a cache directory), runs the program on ``inputs`` and returns the ``Trace`` it wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from nanopass.errors import InternalError

from .precompiled_header import header_flags
from .sim_runtime import Inputs
from .trace import Trace

TOOLS = Path(__file__).resolve().parent
SOURCES = ("recording_runtime.cpp", "record_main.cpp")
HEADERS = ("pto_orchestration_api.h", "recording_runtime.h")
FLAGS = ("-std=c++17", "-Wall", "-Werror", "-O0")


class RecorderError(InternalError):
    """g++ rejected the generated code, or the compiled program failed (a compiler bug)."""


def gxx() -> str:
    path = shutil.which("g++")
    if path is None:
        raise RecorderError("g++ is required to run generated C++ (install g++)")
    return path


def _run(cmd: list[str], what: str, timeout: int = 300) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RecorderError(f"{what} failed ({result.returncode}):\n{result.stderr}{result.stdout}")
    return result


def runtime_objects(cache: Path | None = None) -> list[Path]:
    """The recording runtime and driver object files, compiled once per source content."""
    digest = hashlib.sha256()
    for name in SOURCES + HEADERS:
        digest.update((TOOLS / name).read_bytes())
    digest.update(" ".join(FLAGS).encode())
    directory = (cache or Path(tempfile.gettempdir())) / f"nanopass-recorder-{digest.hexdigest()[:16]}"
    objects = [directory / (Path(name).stem + ".o") for name in SOURCES]
    if all(o.exists() for o in objects):
        return objects
    directory.mkdir(parents=True, exist_ok=True)
    for name, obj in zip(SOURCES, objects):
        tmp = obj.with_suffix(f".tmp{os.getpid()}.o")
        _run([gxx(), *FLAGS, f"-I{TOOLS}", "-c", str(TOOLS / name), "-o", str(tmp)], f"compiling {name}")
        os.replace(tmp, obj)
    return objects


def record(code: str, inputs: Inputs, workdir: Path | None = None) -> Trace:
    """Compile ``code`` (a generated orchestration .cpp), run it on ``inputs``, return its trace."""
    own = workdir is None
    directory = Path(tempfile.mkdtemp(prefix="nanopass-record-")) if own else Path(workdir)
    try:
        source = directory / "orchestration.cpp"
        source.write_text(code)
        exe = directory / "record"
        objects = [str(o) for o in runtime_objects()]
        _run([gxx(), *FLAGS, *header_flags(gxx(), FLAGS), str(source), *objects, "-o", str(exe)],
             "g++ on the generated code")
        inputs_path, trace_path = directory / "inputs.json", directory / "trace.json"
        inputs_path.write_text(json.dumps(inputs.to_json()))
        _run([str(exe), str(inputs_path), str(trace_path)], "running the recorded program", timeout=60)
        return Trace.from_json(trace_path.read_text())
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
