"""The one thread pool: ``run_as_completed`` runs its cases in a ``DaemonPool``, starts a case only
while fewer than ``workers`` are running or unseen, and never hangs on an adapter bug."""

from __future__ import annotations

import threading
import time

from oa_conformance.scheduling.runner import run_as_completed
from oa_conformance.verdicts.outcomes import Outcome
from oa_conformance.verdicts.results import ADAPTER_ERROR, CaseResult


def judging_into(started: list[int], threads: set[tuple[str, bool]]):
    lock = threading.Lock()

    def judged(job: int) -> CaseResult:
        with lock:
            started.append(job)
            threads.add((threading.current_thread().name, threading.current_thread().daemon))
        return CaseResult(None, Outcome.PASSED)

    return judged


def test_a_stopped_stream_starts_no_further_case():
    """Two side by side: the caller that stops after its first result has started at most those two
    (the second may not have been picked up yet when the stream closed: the pool then drops it),
    and one that reads on gets every case once, each on a daemon thread of the pool."""
    started: list[int] = []
    threads: set[tuple[str, bool]] = set()
    stream = run_as_completed(range(10), workers=2, judged_case=judging_into(started, threads))
    next(stream)
    stream.close()
    time.sleep(0.2)  # room for a case wrongly started after the close to show
    assert 0 in started and set(started) <= {0, 1}, started
    read_on: list[int] = []
    judged = judging_into(read_on, threads)
    assert sorted(index for index, _ in run_as_completed(range(10), workers=3, judged_case=judged)) == list(range(10))
    assert sorted(read_on) == list(range(10)) and threads == {("oa-case", True)}


def test_an_adapter_bug_is_one_case_error_not_a_hung_run():
    def judged(job: int) -> CaseResult:
        if job == 1:
            raise KeyError("oops")
        return CaseResult(None, Outcome.PASSED)

    results = dict(run_as_completed(range(3), workers=2, judged_case=judged))
    assert results[1].outcome == Outcome.ERROR and results[1].category == ADAPTER_ERROR and "KeyError" in results[1].reason
    assert [results[i].outcome for i in (0, 2)] == ["passed", "passed"]
