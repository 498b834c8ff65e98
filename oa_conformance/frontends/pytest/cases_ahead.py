"""The pytest plugin's cases run ahead of their items: :class:`CasesAhead`, on the scheduler's
:class:`~oa_conformance.scheduling.runner.DaemonPool`."""

from __future__ import annotations

import contextlib
from concurrent.futures import Future
from typing import Any, Callable

from ...scheduling.runner import DaemonPool, abandon_on_interrupt
from ...verdicts.expectations import Expectations, judged
from ...verdicts.results import CaseRef, CaseResult

WAIT_S = 0.1  # how long the wait for a case run ahead blocks before it lets a pending Ctrl-C in


class CasesAhead:
    """The pytest plugin's cases: each one's verdict (``expectations.judged``: a case listed skip
    is not run), run ahead of its item in pools of daemon threads or, with no workers, in the test
    itself; ``run(ref, timeout)`` runs one case, ``expected_seconds`` orders them. Items are the
    plugin's (``nodeid``, ``case``). Ctrl-C abandons the cases in flight
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
        if self.workers > 0 and item.case.waits > 0:
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
        expected = self.expected_seconds([item.case for item in items])
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
