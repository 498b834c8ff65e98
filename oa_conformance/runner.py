"""Running fixtures: read → scenarios → (skip | build + execute → assert) → one result per case.

Both front ends (the pytest plugin and ``oa-conformance run``) use :func:`run_case` and
:func:`cases_of`; :func:`run_all` runs many cases side by side in threads — each case has its own
event loop and harness, so nothing is shared and the fixtures' deliberate sleeps overlap.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import dataclasses
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from .ast.nodes import Section
from .ast.scenarios import Scenario, scenarios
from .assertions.rules import UNVERIFIED, VERIFIED, Check
from .diagnostics import Diagnostic
from .discovery import FixtureRef
from .expectations import NO_EXPECTATIONS, XFAIL, XPASS, Expectation, Expectations
from .interpreter import read_fixture

# The passes that run a case (graph build, execute, assert: the runtime, OTel, the catalogue) are
# imported by the first case that runs, not with this module: a run that selects nothing, and the
# parent of worker processes (processes.py), only read fixtures and present results.

PASSED, FAILED, SKIPPED, ERROR = "passed", "failed", "skipped", "error"
OUTCOMES = (PASSED, FAILED, SKIPPED, ERROR, XFAIL, XPASS)
RUN_FAILING = frozenset((FAILED, ERROR, XPASS))  # the outcomes that make a run fail (xpass: strict)
ADAPTER_ERROR = "adapter_internal_error"  # an adapter-layer category (§9 allows them) for our own bugs
# An adapter-layer category for a case that uses a directive the executor does not implement yet: it
# fails (nothing is silently skipped), but reports count it apart from the runtime's failures.
NOT_IMPLEMENTED = "not_implemented"

DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class CaseRef:
    """One case to run: a fixture and, for `cases:` fixtures, the case."""

    fixture: FixtureRef
    scenario: Scenario | None  # None when the fixture did not read
    problems: tuple[Diagnostic, ...] = ()

    @property
    def name(self) -> str | None:
        return self.scenario.name if self.scenario is not None else None

    @property
    def id(self) -> str:
        base = f"{self.fixture.capability}/{self.fixture.name.removesuffix('.yaml')}"
        return f"{base}[{self.name}]" if self.name is not None else base


@dataclass(frozen=True)
class CaseResult:
    ref: CaseRef
    outcome: str  # passed | failed | skipped | error | xfail | xpass (the last two: expectations file)
    category: str | None = None
    reason: str | None = None
    checks: tuple[Check, ...] = ()
    duration_s: float = 0.0
    location: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    expectation: Expectation | None = None  # the expectations-file entry applied to this case

    @property
    def fails_run(self) -> bool:
        return self.outcome in RUN_FAILING

    def findings(self) -> tuple[tuple[str | None, str], ...]:
        """What did not hold, as ``(location, text)`` entries — one per distinct check or problem,
        each with its own location and no location inside its text: the failed and unverified
        checks; else the fixture's read problems; else the reason (a timeout, a skip, an error)."""
        failing = [c for c in self.checks if c.status != VERIFIED]
        if failing:
            return tuple((str(c.location) if c.location else None, str(c)) for c in failing)
        if self.ref.problems:
            return tuple((p.location, f"{p.category}: {p.message}") for p in self.ref.problems)
        return ((self.location, self.reason),) if self.reason else ()

    def counts(self) -> dict[str, int]:
        return {
            "verified": sum(c.status == VERIFIED for c in self.checks),
            "failed": sum(c.status == FAILED for c in self.checks),
            "unverified": sum(c.status == UNVERIFIED for c in self.checks),
        }


def raised_by_runtime(exc: BaseException) -> bool:
    """Whether the exception was raised inside the runtime's own code (its innermost frame is in the
    openarmature package): the runtime's behaviour, judged as a failure, not the adapter's bug."""
    from .host.manifest import runtime_package

    package = runtime_package()
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return package is not None and tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename).startswith(package + os.sep)


def cases_of(fixture: FixtureRef) -> list[CaseRef]:
    """The cases of one fixture file; a file that does not read is one case carrying its problems."""
    read = read_fixture(fixture.path, capability=fixture.capability)
    if read.fixture is None or read.diagnostics:
        return [CaseRef(fixture, None, read.diagnostics)]
    return [CaseRef(fixture, scenario) for scenario in scenarios(read.fixture)]


def _own_sections(scenario: Scenario) -> list[Section]:
    """The case and the fixture's top level without its other cases (what the case is made of)."""
    sections = [scenario.section]
    if scenario.case is not None:
        sections.extend(v for k, v in scenario.fixture.items() if k != "cases" and isinstance(v, Section))
        sections.extend(v for k, v in scenario.fixture.items() if k != "cases" and not isinstance(v, Section))
    return sections


def run_case(ref: CaseRef, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """One case through the whole pass chain (:func:`_judge`); never raises for a fixture, harness or
    runtime problem. What the run would have printed — runtime warnings, the runtime's log records —
    becomes the result's ``notes`` (``interpreter/case_output.py``), never stderr."""
    from .interpreter.case_output import captured, notes

    with captured() as caught:
        result = _judge(ref, timeout)
    return dataclasses.replace(result, notes=result.notes + notes(caught)) if caught else result


def _judge(ref: CaseRef, timeout: float) -> CaseResult:
    """One case through the whole pass chain.

        load → schema check → build → version check   interpreter.read_fixture  } cases_of(), once per
        scenarios (one per case, inherited decls)      ast.scenarios.scenarios   } fixture → CaseRef
        features (runtime ships what the case needs?)  features.feature_needs → recognized skip
                                                       (and host.detect.RuntimeLacks while it runs)
        adapter capabilities (requires_capability)     adapter_capabilities.capability_mismatches → skip
        harness primitives → graph build → execute     execute.execute_case (its _run_once, one screen)
        assert (every expectation a rule)              assert_pass.assert_case   → checks → verdict
    """
    from .host.detect import RuntimeLacks
    from .interpreter.adapter_capabilities import capability_mismatches
    from .assertions.assert_pass import assert_case
    from .interpreter.behaviors import NotImplementedDirective
    from .interpreter.execute import CaseTimeout, execute_case
    from .interpreter.features import feature_needs
    from .interpreter.graph_build import FactoryReducerMissing
    from .interpreter.harness import FixtureInvalid, HarnessPrimitiveMissing

    started = time.perf_counter()
    undetermined: tuple[str, ...] = ()  # needed proposals whose status is unknown: the case runs, noted

    def done(outcome: str, **kwargs) -> CaseResult:
        return CaseResult(ref, outcome, duration_s=round(time.perf_counter() - started, 4), notes=undetermined, **kwargs)

    if ref.scenario is None:
        first = ref.problems[0]
        return done(ERROR, category=first.category, reason="; ".join(p.message for p in ref.problems), location=first.location)
    scenario = ref.scenario
    needs = feature_needs(ref.fixture.capability, _own_sections(scenario), scenario)  # features
    missing = list(needs.missing) + capability_mismatches(scenario)  # requires_capability: the arm asserted
    if missing:
        return done(SKIPPED, reason="; ".join(map(str, missing)), location=str(scenario.span))
    undetermined = tuple(needs.undetermined)
    try:
        trace = execute_case(scenario, timeout, ref.fixture.capability)  # harness → graph build → execute
    except FactoryReducerMissing as exc:
        return done(SKIPPED, reason=f"the runtime does not ship proposal 0023: {exc}", location=str(scenario.span))
    except RuntimeLacks as exc:  # the build lacks the public API the case needs: it does not ship the feature
        return done(SKIPPED, reason=f"{exc.what} the case needs", location=str(exc.span or scenario.span))
    except HarnessPrimitiveMissing as exc:
        return done(ERROR, category="harness_primitive_missing", reason=f"harness primitive missing: {exc.what}", location=str(exc.span or scenario.span))
    except FixtureInvalid as exc:
        return done(ERROR, category=exc.category, reason=f"fixture invalid: {exc.what}", location=str(exc.span) if exc.span else None)
    except NotImplementedDirective as exc:
        return done("failed", category=NOT_IMPLEMENTED, reason=str(exc), location=str(exc.span) if exc.span else None)
    except CaseTimeout as exc:
        return done("failed", reason=str(exc), location=str(scenario.span))
    except Exception as exc:
        if raised_by_runtime(exc):  # the runtime rejected what the case builds from valid input: its outcome
            return done("failed", reason=f"the runtime raised {type(exc).__name__} while the case was set up: {exc}",
                        location=str(scenario.span))
        # an adapter bug: one case errors, the run goes on, the user sees what and where
        return done(ERROR, category=ADAPTER_ERROR, reason=f"adapter error {type(exc).__name__}: {exc}", location=str(scenario.span))
    try:
        checks = assert_case(scenario, trace, ref.fixture.capability)  # assert
    except Exception as exc:  # a rule's bug: this case errors, located at the case, the run goes on
        return done(ERROR, category=ADAPTER_ERROR, reason=f"adapter error in the assert pass {type(exc).__name__}: {exc}",
                    location=str(scenario.span))
    failed = [c for c in checks if c.status != VERIFIED]
    if not checks:
        return done("failed", reason="the case asserts nothing the adapter could check", location=str(scenario.span))
    if failed:
        first = failed[0]
        reason = "; ".join(str(c) for c in failed[:3])
        return done("failed", reason=reason, checks=checks, location=str(first.location) if first.location else None)
    return done(PASSED, checks=checks)


def run_all(refs: Iterable[CaseRef], workers: int = 16, timeout: float = DEFAULT_TIMEOUT,
            expectations: Expectations = NO_EXPECTATIONS) -> Iterator[CaseResult]:
    """Run cases concurrently (threads, one event loop each); results come back in input order,
    seen through the expectations file (a case listed ``skip`` is not run)."""
    refs = list(refs)

    def one(ref: CaseRef) -> CaseResult:
        return expectations.skip(ref) or expectations.apply(run_case(ref, timeout))

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        yield from pool.map(one, refs)


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
        for _ in range(self._workers):
            threading.Thread(target=self._work, name=name, daemon=True).start()

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


def run_as_completed(refs: Iterable[CaseRef], workers: int = 16, timeout: float = DEFAULT_TIMEOUT,
                     expectations: Expectations = NO_EXPECTATIONS,
                     judge: Callable[[Any], CaseResult] | None = None) -> Iterator[tuple[int, CaseResult]]:
    """Run cases side by side and yield ``(input index, result)`` as each one completes.

    Closing the generator early (``-x``, ``--maxfail``, Ctrl-C) starts no further case. The workers
    are daemon threads, so a case still in flight (a fixture sleeping towards its time limit) does
    not hold up the process's exit. ``judge`` turns one entry of ``refs`` into its result in the
    worker thread (default: the expectations' skip, else :func:`run_case` seen through them; a
    worker process passes its jobs and reads each case's fixture there).
    """
    refs = list(refs)
    if judge is None:
        def judge(ref: CaseRef) -> CaseResult:
            return expectations.skip(ref) or expectations.apply(run_case(ref, timeout))
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
                result = judge(ref)
            except Exception as exc:  # run_case never raises; an expectations bug must not hang the run
                result = CaseResult(ref, ERROR, category=ADAPTER_ERROR, reason=f"adapter error {type(exc).__name__}: {exc}")
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
