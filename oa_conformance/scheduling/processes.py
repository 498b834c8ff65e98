"""Running cases on every core: worker processes, each running its share side by side on threads.

``run_in_processes`` has the contract of :func:`runner.run_as_completed` (``(input index, result)``
as each case completes; closing the stream stops the run promptly) and spreads the cases over
``processes`` worker processes, plus one for the cases that declare waits (a paced observer, a
slow node: ``CaseRef.waits``, the scenario pass's sum; :func:`waiting_cases`), which then wake from their sleeps without queueing behind busy
cases for the interpreter. Each worker is a ``ProcessPoolExecutor`` of one process (so a crash
breaks only its own share), forked by the forkserver (``forkserver.py``: it imports the whole stack
once, started by the command line before its own imports). A worker re-reads the fixtures of its
share (an AST does not cross the boundary), runs and judges them with ``run_as_completed`` (each
through :func:`expectations.judged`, as in one process) and sends each result back without its
``ref``; the parent puts the ref back. Which
case goes where is the only scheduling: the waiting cases together, the others longest expected
first (:func:`expected_seconds`), each to the share expected to finish first.
"""

from __future__ import annotations

import contextlib
import dataclasses
import heapq
import multiprocessing
import pickle
import queue
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Iterable, Iterator, Mapping

from ..verdicts.expectations import NO_EXPECTATIONS, Expectations, judged
from ..pipeline import DEFAULT_TIMEOUT, cases_of, run_case
from ..verdicts.outcomes import Outcome
from ..verdicts.results import ADAPTER_ERROR, CaseRef, CaseResult
from .runner import run_as_completed
from .forkserver import START_METHOD, start_forkserver

POLL_S = 0.1  # how often a waiting side looks at the stop flag / its workers' health
EXIT_GRACE_S = 2.0  # how long a worker told to end may take before it is killed (it needs milliseconds)
# A case's expected cost when nothing is known: what one case costs in CPU on average (the 0.118.2
# corpus: ~4.8 s over 771 cases), so a case's declared waits weigh what they cost in wall time.
BASE_SECONDS = 0.006


def expected_seconds(refs: list[CaseRef], durations: Mapping[str, float] | None = None) -> list[float]:
    """How long each case is expected to take: its duration in a previous report when given, else
    a base cost plus the waits it declares (``CaseRef.waits``: the scenario pass's sum of its rows
    with a wait unit)."""
    known = durations or {}
    return [known[ref.id] if ref.id in known else BASE_SECONDS + ref.waits for ref in refs]


def plan_shares(costs: Mapping[int, float], processes: int, loads: Mapping[int, float] | None = None,
                waiting: Iterable[int] = ()) -> list[list[int]]:
    """The cases ``waiting`` (see :func:`waiting_cases`) as a share of their own, first; the others
    longest expected first (``costs``), each to the one of ``processes`` shares with the least load
    so far (ties: the earlier share); each share in input order. ``loads`` is what a case costs the
    process that runs it (default: its expected time): a wait is expected time but no load."""
    loads = costs if loads is None else loads
    alone = sorted(set(waiting))
    heap = [(0.0, share) for share in range(max(1, processes))]
    shares: list[list[int]] = [[] for _ in heap]
    for index in sorted(set(costs) - set(alone), key=lambda i: (-costs[i], i)):
        load, share = heapq.heappop(heap)
        shares[share].append(index)
        heapq.heappush(heap, (load + loads[index], share))
    return [share for share in [alone] + [sorted(share) for share in shares] if share]


def waiting_cases(waits: Mapping[int, float], side_by_side: int) -> list[int]:
    """The cases that get a process of their own to wait in: those declaring waits, the longest
    first, as many as a process runs side by side. Such a case spends its time asleep, and one that
    shares an interpreter with busy cases wakes late from every sleep (each wake-up waits its turn
    for the GIL): graph-engine 030's sixteen 300 ms sleeps took 5.2 s beside ~380 busy cases, 4.85 s
    beside only the other waiting ones."""
    declaring = sorted((index for index, seconds in waits.items() if seconds > 0), key=lambda i: (-waits[i], i))
    return declaring[:side_by_side]


# --- the worker side ---------------------------------------------------------------------------

_results = None  # the queue results go back on (set in each worker by _start_worker)
_stop = None  # set by the parent when the run stops


def _start_worker(results, stop, runtime_manifest: str | None) -> None:
    """Each worker's initializer: Ctrl-C is the parent's (SIGINT ignored, as the forkserver already
    does when this process started it), and the build's source of truth is the parent's."""
    global _results, _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _results, _stop = results, stop
    # A stopped run stops reading results: a worker must not wait at exit for its queue's pipe to
    # drain (the parent joins its workers before it exits). A run that goes on reads every result
    # before it shuts the workers down, so nothing is lost.
    results.cancel_join_thread()
    from ..host.manifest import use_runtime_manifest

    use_runtime_manifest(runtime_manifest)


def _run_share(jobs: list[tuple[int, object, int]], workers: int, timeout: float, expectations: Expectations) -> None:
    """Run one share (``(input index, fixture, position among the fixture's cases)``, longest
    expected first) side by side, each job reading its case in the thread that runs it, so the first
    cases start at once; return as soon as every result is sent or the parent stops the run (the
    cases still in flight are daemon threads and end with the process)."""
    done = threading.Event()
    read: dict[str, list[CaseRef]] = {}
    failure: list[BaseException] = []

    def judged_case(job: tuple[int, object, int]) -> CaseResult:
        _, fixture, position = job
        if fixture.path not in read:  # two threads reading one fixture at once: the same cases twice
            read[fixture.path] = cases_of(fixture)
        return judged(read[fixture.path][position], expectations, lambda case: run_case(case, timeout))

    def run() -> None:
        try:
            for position, result in run_as_completed(jobs, workers=workers, timeout=timeout, judged_case=judged_case):
                _results.put((jobs[position][0], _portable(result, expectations)))
        except BaseException as exc:  # an adapter bug: the parent makes the unsent cases errors
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="oa-share", daemon=True).start()
    while not done.wait(POLL_S):
        if _stop.is_set():
            return
    if failure:
        raise RuntimeError(f"the share's runner failed: {type(failure[0]).__name__}: {failure[0]}")


def _portable(result: CaseResult, expectations: Expectations = NO_EXPECTATIONS) -> bytes:
    """The result without its ref, pickled here (a queue pickles in a background thread, where a
    failure would lose the result and leave the parent waiting): an error result (judged) if it cannot be."""
    try:
        return pickle.dumps(dataclasses.replace(result, ref=None))
    except Exception as exc:  # an adapter bug (a check carrying a live object): this case errors
        why = f"adapter error: the case's result cannot leave its worker ({type(exc).__name__}: {exc})"
        error = CaseResult(result.ref, Outcome.ERROR, category=ADAPTER_ERROR, duration_s=result.duration_s, reason=why)
        if result.ref is not None:
            error = judged(result.ref, expectations, lambda ref: error)
        return pickle.dumps(dataclasses.replace(error, ref=None))


# --- the parent side ---------------------------------------------------------------------------


def run_in_processes(refs: Iterable[CaseRef], processes: int, workers: int = 16, timeout: float = DEFAULT_TIMEOUT,
                     expectations: Expectations = NO_EXPECTATIONS, runtime_manifest: str | None = None,
                     durations: Mapping[str, float] | None = None) -> Iterator[tuple[int, CaseResult]]:
    """Run cases in ``processes`` worker processes, and one more for the cases that declare waits
    (``workers`` threads each), and yield ``(input index, result)`` as each completes, seen through
    the expectations file (judged in the worker). A worker that dies makes each of its unfinished
    cases an error; closing the generator stops every worker."""
    refs = list(refs)
    positions = _positions(refs)
    if not refs:
        return
    waits = {index: ref.waits for index, ref in enumerate(refs)}
    todo = dict(enumerate(expected_seconds(refs, durations)))
    # Without a previous report, what a case costs its process is unknown: the same for each.
    loads = {index: todo[index] if durations and refs[index].id in durations else BASE_SECONDS for index in todo}
    start_forkserver()
    context = multiprocessing.get_context(START_METHOD)
    results, stop = context.Queue(), context.Event()
    pools: list[ProcessPoolExecutor] = []
    owner: dict[int, Future] = {}
    try:
        with _interrupts_deferred(redeliver=True):  # heard once every worker started is on record
            for share in plan_shares(todo, processes, loads, waiting_cases(waits, workers)):
                pool = ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker,
                                           initargs=(results, stop, runtime_manifest))
                pools.append(pool)
                longest_first = sorted(share, key=lambda i: (-todo[i], i))
                future = pool.submit(_run_share, [(i, refs[i].fixture, positions[i]) for i in longest_first], workers,
                                     timeout, expectations)
                owner.update((i, future) for i in share)
        while owner:
            try:
                index, plain = results.get(timeout=POLL_S)
            except queue.Empty:
                yield from _lost(refs, owner, results, expectations)
                continue
            owner.pop(index, None)
            yield index, _received(refs, index, plain)
    finally:
        with _interrupts_deferred(redeliver=False):  # the run is ending already: what it asked for
            stop.set()
            # The pool's own record of its worker (there is no public one before Python 3.14's
            # terminate_workers): the one handle that can end a worker that does not end by itself.
            workers = [worker for pool in pools for worker in (pool._processes or {}).values()]
            for pool in pools:
                pool.shutdown(wait=False, cancel_futures=True)
            end_workers(workers)


@contextlib.contextmanager
def _interrupts_deferred(redeliver: bool) -> Iterator[None]:
    """Hold Ctrl-C (and the output watcher's ``interrupt_main``, which arrives the same way) while
    workers are started or ended, then deliver it (``redeliver``) or let it go. A
    ``KeyboardInterrupt`` in the middle of ``submit`` could leave a worker the forkserver had forked
    but the pool had not recorded: nobody would end it, the parent would exit and unlink the
    semaphores it shares, and the worker, still unpickling them, would print a traceback onto the
    caller's stderr after the command had ended. Only the main thread can set a handler; a run on
    another thread hears no Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: heard.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if heard and redeliver:
            signal.raise_signal(signal.SIGINT)  # to the handler it had, now restored


def end_workers(workers, grace: float = EXIT_GRACE_S) -> list:
    """Let the workers end, and kill the ones still running after ``grace`` seconds; return those.

    A worker ends once told to (its share sent or the run stopped), unless a case left a thread
    running that is not a daemon: Python joins such threads before a process exits, and the pool
    joins its workers before the parent exits, so one leaked thread (a runtime client a faulty
    build never shut down) would keep the whole run from ending after it printed its summary. Every
    result has been received or the run was stopped, so nothing is lost by the kill."""
    deadline = time.monotonic() + grace
    killed = []
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.exitcode is None:
            worker.kill()
            worker.join()
            killed.append(worker)
    return killed


def _lost(refs, owner: dict[int, Future], results, expectations: Expectations) -> Iterator[tuple[int, CaseResult]]:
    """The unfinished cases of each worker that died, as errors (after the results it did send)."""
    dead = {future for future in owner.values() if future.done() and future.exception() is not None}
    if not dead:
        return
    while True:  # what a dead worker sent before it died comes first
        try:
            index, plain = results.get_nowait()
        except queue.Empty:
            break
        if owner.pop(index, None) is not None:
            yield index, _received(refs, index, plain)
    for index, future in sorted(owner.items()):
        if future in dead:
            del owner[index]
            why = f"{type(future.exception()).__name__}: {future.exception()}"
            lost = f"the worker process running this case did not finish it ({why})"
            yield index, judged(refs[index], expectations, lambda ref: CaseResult(ref, Outcome.ERROR, category=ADAPTER_ERROR, reason=lost))


def _received(refs, index: int, plain: bytes) -> CaseResult:
    """A worker's result (judged there) with its ref put back."""
    return dataclasses.replace(pickle.loads(plain), ref=refs[index])


def _positions(refs: list[CaseRef]) -> list[int]:
    """Each case's position among its fixture's cases (how a worker finds it again)."""
    return [ref.scenario.index if ref.scenario is not None and ref.scenario.index is not None else 0 for ref in refs]
