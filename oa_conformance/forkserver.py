"""The forkserver worker processes are forked from (``processes.py``), in a module of its own that
imports only the standard library: the command line starts it first thing, so that its imports of
the whole stack (the runtime, OTel, the catalogue: about 1 s, the longest step before the first case
can start in a worker) overlap the parent's own imports and its reading of the fixtures.

Never ``fork``: the parent has threads and the OTel SDK's state, which a forked child would inherit
half-made. The forkserver imports ``PRELOAD`` once and forks each worker from that clean,
single-threaded process.
"""

from __future__ import annotations

import signal
import threading

START_METHOD = "forkserver"
PRELOAD = ["oa_conformance.processes", "oa_conformance.interpreter.execute", "oa_conformance.assertions.assert_pass"]


def start_forkserver() -> None:
    """Start the forkserver (and its imports of the whole stack) if it is not running, early enough
    that they overlap what the parent does before the first case is handed out (reading fixtures).

    Ctrl-C is the parent's to handle, but the terminal sends SIGINT to the whole process group: the
    forkserver is started with SIGINT ignored, which it keeps through its imports (Python leaves an
    inherited SIG_IGN alone) and hands on to every worker it forks — none prints a traceback."""
    import multiprocessing.forkserver

    multiprocessing.get_context(START_METHOD).set_forkserver_preload(PRELOAD)
    if threading.current_thread() is not threading.main_thread():  # only the main thread sets handlers
        multiprocessing.forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)
