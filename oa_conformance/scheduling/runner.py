"""Scheduling cases: many at once, each through ``pipeline.run_case``, seen through the expectations file.

:func:`run_all` (results in input order) and :func:`run_as_completed` (results as they complete, a
stop starting no further case) run cases side by side in threads — each case has its own event
loop and harness, so nothing is shared and the fixtures' deliberate sleeps overlap;
:class:`DaemonPool` is the pytest plugin's pool of threads that a stopped session does not wait for.
"""

from __future__ import annotations

import contextlib
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
        self._workers = max(1, workers)
        self._threads = [threading.Thread(target=self._work, name=name, daemon=True) for _ in range(self._workers)]
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
        for _ in range(self._workers):
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
    """Run cases side by side and yield ``(input index, result)`` as each one completes.

    Closing the generator early (``-x``, ``--maxfail``, Ctrl-C) starts no further case. The workers
    are daemon threads, so a case still in flight (a fixture sleeping towards its time limit) does
    not hold up the process's exit. ``judged_case`` turns one entry of ``refs`` into its result in
    the worker thread (default: :func:`expectations.judged` of :func:`run_case`; a worker process
    passes its jobs and reads each case's fixture there).
    """
    refs = list(refs)
    if judged_case is None:
        def judged_case(ref: CaseRef) -> CaseResult:
            return judged(ref, expectations, lambda case: run_case(case, timeout))
    pending: queue.SimpleQueue = queue.SimpleQueue()
    for index, ref in enumerate(refs):
        pending.put((index, ref))
    finished: queue.SimpleQueue = queue.SimpleQueue()
    stopping = threading.Event()
    # A worker starts a case only while fewer than `workers` cases are running or finished but not
    # yet seen by the caller: a caller that stops after seeing a result (-x) has started no other.
    count = max(1, min(workers, len(refs)))
    slots = threading.Semaphore(count)

    def work() -> None:
        while True:
            slots.acquire()
            if stopping.is_set():
                return
            try:
                index, ref = pending.get_nowait()
            except queue.Empty:
                return
            try:
                result = judged_case(ref)
            except Exception as exc:  # run_case never raises; an expectations bug must not hang the run
                result = CaseResult(ref, Outcome.ERROR, category=ADAPTER_ERROR, reason=f"adapter error {type(exc).__name__}: {exc}")
            finished.put((index, result))

    for _ in range(count):
        threading.Thread(target=work, name="oa-case", daemon=True).start()
    try:
        for _ in refs:
            while True:
                try:  # a bounded wait, so Ctrl-C reaches the main thread promptly
                    item = finished.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            yield item
            slots.release()  # the caller has seen this result and goes on: another case may start
    finally:
        stopping.set()
        for _ in range(count):
            slots.release()  # wake the workers waiting for a slot, so they see the stop and end


WAIT_S = 0.1  # how long the wait for a case run ahead blocks before it lets a pending Ctrl-C in


class CasesAhead:
    """The pytest plugin's cases: each one's verdict (``expectations.judged``: a case listed skip
    is not run), run ahead of its item in pools of daemon threads or, with no workers, in the test
    itself; ``run(ref, timeout)`` runs one case, ``expected_seconds`` orders them. Items are the
    plugin's (``nodeid``, ``case``, ``waits``). Ctrl-C abandons the cases in flight
    (:func:`abandon_on_interrupt`; ``once`` in an xdist worker)."""

    def __init__(self, workers: int, timeout: float, expectations: Expectations, run: Callable[[CaseRef, float], CaseResult],
                 expected_seconds: Callable[..., list[float]], once: bool = False):
        self.workers = workers
        self.timeout = timeout
        self.expectations = expectations
        self.run = run
        self.expected_seconds = expected_seconds  # processes.expected_seconds: longest first, as `run` starts them
        self.once = once
        self.pools: list[DaemonPool] = []
        self.futures: dict[str, Future] = {}
        self.restore_ctrl_c = lambda: None

    def judged(self, case: CaseRef) -> CaseResult:
        return judged(case, self.expectations, lambda ref: self.run(ref, self.timeout))

    def _pool(self) -> DaemonPool:
        if not self.pools:
            self.restore_ctrl_c = abandon_on_interrupt(lambda: [pool.abandon() for pool in self.pools], self.once)
        self.pools.append(DaemonPool(self.workers))
        return self.pools[-1]

    def start_early(self, item: Any) -> None:
        """A case that declares waits starts as soon as it is collected, in a pool of its own: it
        spends its time asleep (the slowest of a corpus sleeps 4.8 s), which would otherwise begin
        only once every fixture is read. One deselected after all is abandoned, never reported."""
        if self.workers > 0 and item.waits > 0:
            early = self.pools[0] if self.pools else self._pool()
            self.futures[item.nodeid] = early.submit(self.judged, item.case)

    def start(self, items: list[Any]) -> None:
        selected = {item.nodeid for item in items}
        for nodeid in [nodeid for nodeid in self.futures if nodeid not in selected]:
            self.futures.pop(nodeid).cancel()  # started early, then deselected (or another worker's)
        items = [item for item in items if item.nodeid not in self.futures]
        if self.workers <= 0 or not items:
            return
        pool = self._pool()
        waits = [item.waits for item in items]  # read as each fixture was collected
        expected = self.expected_seconds([item.case for item in items], waits=waits)
        for index in sorted(range(len(items)), key=lambda i: -expected[i]):  # the pool starts them in this order
            self.futures[items[index].nodeid] = pool.submit(self.judged, items[index].case)

    def result(self, item: Any) -> CaseResult:
        future = self.futures.pop(item.nodeid, None)
        while future is not None:  # a bounded wait, so Ctrl-C reaches this thread at once (as `run` waits)
            with contextlib.suppress(TimeoutError):
                return future.result(timeout=WAIT_S)
        return self.judged(item.case)

    def close(self) -> None:
        self.restore_ctrl_c()
        for pool in self.pools:
            pool.shutdown()
        self.pools = []
