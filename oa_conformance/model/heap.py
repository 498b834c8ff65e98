"""Pausing Python's cyclic collector around work that builds many objects and no cycles.

Reading a fixture builds thousands of small immutable nodes, none in a cycle: the collector,
triggered every few hundred allocations, would rescan them (and everything read before them) over
and over and free nothing. Its cost grows with what is already alive: reading the 0.118.2 corpus
while keeping every tree, a third of the time went to collections.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """No cyclic collection inside the block; with ``freeze``, everything alive at its end is moved
    out of the collector's sight (``gc.freeze()``) — for what lives as long as the process, so no
    later collection scans it again."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()


_FROZEN_AT_EXIT: list[bool] = []


def frozen_at_exit() -> None:
    """At exit, everything alive is moved out of the collector's sight (``gc.freeze()``), so the
    interpreter's own collections while it finalizes do not scan it. A session that ran cases
    holds their traces and the runtime's state (and, after Ctrl-C, the abandoned cases' frames):
    those collections took 0.5-0.8 s after the last exit handler, most of the time from Ctrl-C to
    the end of a pytest session. Objects alive at exit are not freed by the collector then anyway
    (Python does not promise their finalizers run); every exit handler still runs, and what is
    freed by reference counting is freed as before. Registered once, when the session starts: the
    handlers the runtime and its exporters register later (LIFO) run before it."""
    if not _FROZEN_AT_EXIT:
        import atexit

        atexit.register(gc.freeze)
        _FROZEN_AT_EXIT.append(True)
