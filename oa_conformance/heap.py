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
