"""Scheduling cases: many at once, each through ``pipeline.run_case``, seen through the expectations file.

:func:`run_all` (results in input order) and :func:`run_as_completed` (results as they complete, a
stop starting no further case) run cases side by side in threads — each case has its own event
loop and harness, so nothing is shared and the fixtures' deliberate sleeps overlap. The threads are
one pool, :class:`DaemonPool`, which a stopped run does not wait for: :func:`run_as_completed` (with
which each worker process also runs its share) and the pytest plugin's cases run ahead use it.
"""

from __future__ import annotations

import itertools
import queue
import signal
import sys
import threading
from concurrent.futures import Future
from typing import Any, Callable, Iterable, Iterator

from ..verdicts.expectations import NO_EXPECTATIONS, Expectations, judged
from ..pipeline import DEFAULT_TIMEOUT, run_case
from ..verdicts.outcomes import Outcome
from ..verdicts.results import ADAPTER_ERROR, CaseRef, CaseResult


def run_all(refs: Iterable[CaseRef], workers: int = 16, timeout: float = DEFAULT_TIMEOUT,
            expectations: Expectations = NO_EXPECTATIONS) -> Iterator[CaseResult]:
    """Run cases concurrently (threads, one event loop each); results come back in input order,
    seen through the expectations file (a case listed ``skip`` is not run)."""
    waiting: dict[int, CaseResult] = {}
    following = 0
    for index, result in run_as_completed(refs, workers, timeout, expectations):
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


class DaemonPool:
    """Functions run in ``workers`` daemon threads, each call a :class:`~concurrent.futures.Future`.

    ``ThreadPoolExecutor``'s threads are joined when the interpreter exits, even after
    ``shutdown(wait=False)``: a case sleeping towards its time limit would keep a stopped run
    (``-x``, Ctrl-C) alive for up to that limit. These are not joined; :meth:`shutdown` cancels the
    calls not started and lets the workers end once idle.
    """

    def __init__(self, workers: int, name: str = "oa-case"):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.workers = max(1, workers)
        self._threads = [threading.Thread(target=self._work, name=name, daemon=True) for _ in range(self.workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, function, *args) -> Future:
        future: Future = Future()
        self._jobs.put((future, function, args))
        return future

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, function, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:  # handed to whoever waits for the result
                future.set_exception(exc)

    def shutdown(self) -> None:
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                job[0].cancel()
        for _ in range(self.workers):
            self._jobs.put(None)

    def abandon(self) -> None:
        """Ctrl-C: :meth:`shutdown`, and the calls in flight are abandoned for good — each of the
        pool's threads blocks at its next Python call or return (where it holds no lock of the
        import system, logging, threading or warnings, which the ending process may still need).

        A thread cannot be stopped, and a running case keeps competing for the interpreter lock:
        beside a CPU-bound case, every system call of the main thread (pytest rendering the
        interrupt, writing its summary) queued for that lock, and the session took 5 to 10 s to
        end. Parked, the threads take no more of it; they are daemons, so the process still exits."""
        self.shutdown()
        ours = {thread.ident for thread in self._threads}
        never = threading.Event()

        def park(frame, event, arg) -> None:
            if threading.get_ident() not in ours:
                sys.setprofile(None)  # any other thread: its next call removes the hook for it
            elif not any(_holds_shared_locks(f) for f in _calls_of_the_job(frame)):
                never.wait()

        threading.setprofile_all_threads(park)


def abandon_on_interrupt(abandon: Callable[[], None], once: bool = False) -> Callable[[], None]:
    """Ctrl-C first calls ``abandon`` (:meth:`DaemonPool.abandon` on the pools in use), then raises
    ``KeyboardInterrupt`` as Python's own handler does; returns what puts that handler back. With
    ``once``, a later Ctrl-C is ignored (an xdist worker: its controller, which owns the terminal,
    passes the first on and ends the worker if it must). Only the main thread's default handler
    is wrapped (another one is left alone)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return lambda: None

    def interrupted(signum, frame) -> None:
        if once:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        abandon()
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, interrupted)

    def restore() -> None:
        if signal.getsignal(signal.SIGINT) is interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    return restore


# Modules whose functions may hold a lock the rest of the process needs (an import's module lock, a
# logging handler's, a condition a waiter shares; the exporters and clients that exit handlers flush —
# OTel's span processors, Langfuse's client, the HTTP transports they send through): a thread is not
# parked inside them.
_SHARED_LOCK_MODULES = ("importlib", "_frozen_importlib", "logging", "threading", "concurrent", "queue", "warnings",
                        "opentelemetry", "langfuse", "httpx", "httpcore", "anyio", "openarmature.observability")


def _calls_of_the_job(frame):
    """The frames from ``frame`` down to the pool's ``_work`` (the thread's own frames below it are
    the threading module's, holding nothing)."""
    while frame is not None and frame.f_code is not DaemonPool._work.__code__:
        yield frame
        frame = frame.f_back


def _holds_shared_locks(frame) -> bool:
    module = frame.f_globals.get("__name__", "") or ""
    return module.startswith(_SHARED_LOCK_MODULES) or frame.f_code.co_filename.startswith("<frozen importlib")


def run_as_completed(refs: Iterable[CaseRef], workers: int = 16, timeout: float = DEFAULT_TIMEOUT,
                     expectations: Expectations = NO_EXPECTATIONS,
                     judged_case: Callable[[Any], CaseResult] | None = None) -> Iterator[tuple[int, CaseResult]]:
    """Run cases side by side in a :class:`DaemonPool` and yield ``(input index, result)`` as each
    one completes.

    A case starts only while fewer than ``workers`` cases are running or finished but not yet seen
    by the caller, so closing the generator early (``-x``, ``--maxfail``, Ctrl-C) starts no further
    case; the pool's threads are daemons, so a case still in flight (a fixture sleeping towards its
    time limit) does not hold up the process's exit. ``judged_case`` turns one entry of ``refs``
    into its result in the pool's thread (default: :func:`expectations.judged` of :func:`run_case`;
    a worker process passes its jobs and reads each case's fixture there).
    """
    refs = list(refs)
    if judged_case is None:
        def judged_case(ref: CaseRef) -> CaseResult:
            return judged(ref, expectations, lambda case: run_case(case, timeout))
    finished: queue.SimpleQueue = queue.SimpleQueue()

    def judge(index: int) -> None:
        try:
            result = judged_case(refs[index])
        except Exception as exc:  # run_case never raises; an expectations bug must not hang the run
            result = CaseResult(refs[index], Outcome.ERROR, category=ADAPTER_ERROR, reason=f"adapter error {type(exc).__name__}: {exc}")
        finished.put((index, result))

    upcoming = iter(range(len(refs)))
    pool = DaemonPool(min(workers, len(refs)))
    for index in itertools.islice(upcoming, pool.workers):
        pool.submit(judge, index)
    try:
        for _ in refs:
            while True:
                try:  # a bounded wait, so Ctrl-C reaches the main thread promptly
                    item = finished.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            yield item
            following = next(upcoming, None)  # the caller has seen this result and goes on: another case may start
            if following is not None:
                pool.submit(judge, following)
    finally:
        pool.shutdown()
