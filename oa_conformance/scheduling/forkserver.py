"""The forkserver worker processes are forked from (``processes.py``), in a module of its own that
imports only the standard library: the command line starts it first thing, so that its imports of
the whole stack (the runtime, OTel, the catalogue: about 1 s, the longest step before the first case
can start in a worker) overlap the parent's own imports and its reading of the fixtures.

Never ``fork``: the parent has threads and the OTel SDK's state, which a forked child would inherit
half-made. The forkserver imports ``PRELOAD`` once and forks each worker from that clean,
single-threaded process.
"""

from __future__ import annotations

import os
import signal
import threading

START_METHOD = "forkserver"
PRELOAD = ["oa_conformance.scheduling.processes", "oa_conformance.interpreter.running.execute", "oa_conformance.assertions.assert_pass"]


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


def end_forkserver() -> None:
    """End the forkserver this process started, at once, when the process is about to end (the
    command line, after its summary). Left to itself, it notices the end of its parent and runs a
    whole interpreter shutdown over the stack it imported — 0.1 to 0.15 s during which it still
    holds the caller's stdout, so a caller reading our output (a shell pipe, ``subprocess.run``)
    waits for it. It has nothing left to do: every worker has ended (``processes.end_workers``).
    SIGTERM: the forkserver sets no handler for it, so it ends without running Python."""
    import multiprocessing.forkserver

    pid = getattr(multiprocessing.forkserver._forkserver, "_forkserver_pid", None)  # no public handle before 3.14
    if pid is None:
        return
    try:
        # Still running? (Our child, so the pid is no other process's; asked without reaping it:
        # multiprocessing reaps it when a later run starts a new one.)
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            os.kill(pid, signal.SIGTERM)
    except ChildProcessError:  # already ended and reaped
        pass
