"""Pausing Python's cyclic garbage collector for a compile, safely when compiles overlap.

The collector's switch is one per process, and a host may run several compiles at once (from
several threads). Pauses are therefore counted: the first to begin records whether the host had the
collector running and switches it off; the last to end switches it back on if it was. While any
compile runs, the collector stays off; when none does, it is as the host left it.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0  # compiles inside ``collector_paused`` now
_resume = False  # whether the host had the collector running when the first of them began


@contextmanager
def collector_paused():
    """Pause the cyclic collector for the block (compiler data is acyclic and freed by reference
    counting; see ``Pipeline.run``).

    Pause it once around a whole compile (front end, passes, printer): resumed in between, its
    first collection would walk every node built so far, and later ones again as they age. Nested
    and concurrent pauses are counted (see the module's docstring)."""
    global _pauses, _resume
    with _lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()
