"""The stand-in runtime header, precompiled once per content, compiler and flags.

The tools that compile many generated programs (tools/recorder.py, tools/attack/record.py) spend
most of each g++ run reading ``pto_orchestration_api.h`` and the standard headers it includes.
``header_flags(cxx, flags)`` returns the g++ arguments that make a compile with ``flags`` read the
header from a precompiled copy instead:

    -I CACHE -include pto_orchestration_api.h

where ``CACHE`` is a directory holding a copy of the header and its ``.gch``, built with the same
``flags`` (g++ uses a ``.gch`` only for a compile whose flags it was built with; otherwise it reads
the header's text, so a mismatch costs time, never a different result). The header is included
before the generated file's first line; its include guard makes the file's own
``#include "pto_orchestration_api.h"`` a no-op. The check that generated C++ compiles on its own
(including the header itself) is the tests' ``g++ -fsyntax-only``, which does not use this.

If the copy cannot be built (no g++, a read-only temporary directory, a header g++ rejects under
``flags``), ``header_flags`` returns ``-I TOOLS`` alone: the plain compile, whose diagnostics then
say what is wrong.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
HEADER = "pto_orchestration_api.h"

_built: dict = {}


def header_flags(cxx: str, flags: tuple) -> list:
    """g++ arguments that include the stand-in header, precompiled for a compile with ``flags``."""
    key = (cxx, tuple(flags))
    built = _built.get(key)
    # (built again when the temporary directory lost the copy: a long run outlives a cleaning)
    if built is None or len(built) > 2 and not (Path(built[1]) / (HEADER + ".gch")).exists():
        directory = _precompile(cxx, tuple(flags))
        built = _built[key] = ["-I", str(TOOLS)] if directory is None else ["-I", str(directory), "-include", HEADER]
    return list(built)


def _precompile(cxx: str, flags: tuple) -> Path | None:
    text = (TOOLS / HEADER).read_bytes()
    digest = hashlib.sha256(text + "\0".join((cxx, *flags)).encode()).hexdigest()[:16]
    directory = Path(tempfile.gettempdir()) / f"nanopass-pch-{os.getuid()}-{digest}"
    header, gch = directory / HEADER, directory / (HEADER + ".gch")
    if gch.exists():
        return directory
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp_header = directory / f"{HEADER}.{os.getpid()}.tmp"
        tmp_header.write_bytes(text)
        os.replace(tmp_header, header)
        tmp_gch = directory / f"{HEADER}.{os.getpid()}.gch.tmp"
        done = subprocess.run([cxx, *flags, "-x", "c++-header", str(header), "-o", str(tmp_gch)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            tmp_gch.unlink(missing_ok=True)
            return None
        os.replace(tmp_gch, gch)
    except OSError:
        return None
    return directory
