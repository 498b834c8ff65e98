"""Harness primitives (conformance-adapter §6): the per-case instruments a fixture names.

One :class:`Harness` per case — nothing here is shared between cases — in four parts, each with one
writer: the :class:`Instruments` (in-memory observers, §6.1: record / accumulate / raise, paced,
phase-filtered; the checkpointer; the deterministic clock; what the capability captures add), frozen
before graph build; graph build's :class:`GraphWiring`, frozen when it returns; the :class:`RunLog`
the runtime's callbacks append to while it runs (deliveries, the middleware log §6.7, the failure
mocks' attempt counters …); and the :class:`InvocationCursor` the execute and resume passes move
between invocations. Observers are real ``openarmature`` observers: the runtime delivers to them,
they only record.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from ...model.trace import plain


class HarnessRaised(Exception):
    """The error a failure mock or a `raises:` directive raises; carries the fixture's category."""

    def __init__(self, message: str, category: str | None = None, transient: bool | None = None):
        super().__init__(message)
        self.category = category
        self.transient = transient


class ObserverRaised(Exception):
    """What a `raise` observer raises on every event (graph-engine §6 isolation)."""


def _current_invocation() -> str | None:
    """The invocation whose delivery worker is running (delivery runs in the invocation's context)."""
    from ...host.observability import current_invocation_id

    try:
        return current_invocation_id()
    except LookupError:
        return None


def event_record(event: Any) -> Any:
    """An observer event as frozen plain data, with its type name under ``type``."""
    data = {"type": type(event).__name__}
    for name in getattr(type(event), "__dataclass_fields__", {}) or getattr(event, "__slots__", ()) or ():
        data[name] = getattr(event, name, None)
    if len(data) == 1 and hasattr(event, "__dict__"):
        data.update(vars(event))
    error = data.get("error")
    if isinstance(error, BaseException):
        data["error"] = error_data(error)
    return plain(data)


def error_data(error: BaseException) -> dict[str, Any]:
    """An event's error as data; ``cause_chain`` is the runtime's own classification of its cause
    chain (``classify_cause_chain``: the derived category / message and the carrier-flagged links)."""
    from ...host.graph import classify_cause_chain

    data = {"category": getattr(error, "category", None), "message": str(error), "type": type(error).__name__}
    if isinstance(error, Exception) and classify_cause_chain:  # a build without the primitive: no chain
        # here (an observer's error would only be the runtime's warning); the case meets the lack where
        # the run's own error is read (error_record.error_record)
        data["cause_chain"] = classify_cause_chain(error)
    return data


# How many event-loop turns after its deadline a drain is followed before counting stops: far more
# than a drain that honours its deadline needs (a handful: timer fires, cancel, gather, resume), far
# fewer than the turns that pass while it waits on a paced observer instead.
TURNS_COUNTED_AFTER_DEADLINE = 1000


async def timed_drain(drain: Any, timeout: float | None, *args: Any, omit_timeout: bool = False) -> dict[str, Any]:
    """Call a runtime drain (``drain`` or ``drain_events_for``) and return its summary as data, with
    the timeout it was given, the time the call took on the event loop's own clock (``elapsed_s``),
    and ``turns_after_deadline``: how many turns of this event loop passed between the deadline and
    the drain's return.

    Why turns and not seconds: cases run side by side in threads on a shared machine, so the loop can
    wake long after a deadline (GIL, neighbouring cases, other processes) — wall time then blames the
    runtime for the scheduler. A turn is starved exactly as much as the drain's own steps are: a drain
    that honoured its deadline returns within a few turns of it however loaded the machine, one that
    waits on a paced observer lets the counter spin to its cap (``TURNS_COUNTED_AFTER_DEADLINE``).

    The deadline is ``timeout`` after the drain's first step — the step in which it arms its own timer
    (``asyncio.wait`` / ``wait_for`` do so before they first suspend) — not after the moment we called
    it: a thread descheduled between the two would otherwise start our clock first, and the counter
    would spin through the gap while the drain, honest, still waits for its own deadline.

    ``omit_timeout`` calls ``drain(*args)`` with no timeout argument at all (the adapter's own settling
    drain: graph-engine §6 lets the timeout be omitted). A result without the two summary fields is
    recorded as ``not_a_summary`` (its type; both fields none), for the drain-summary check to report."""
    loop = asyncio.get_running_loop()
    counter = {"turns": 0, "returned": False}

    def turn() -> None:  # one call per loop turn, from the deadline on, until the drain returns
        if not counter["returned"] and counter["turns"] < TURNS_COUNTED_AFTER_DEADLINE:
            counter["turns"] += 1
            loop.call_soon(turn)

    started = loop.time()
    # the context (invocation, case) is copied
    call = loop.create_task(drain(*args) if omit_timeout else drain(*args, timeout=timeout))
    deadline = None
    try:
        await asyncio.sleep(0)  # the ready queue is FIFO: the drain's first step runs before we resume
        # A negative or NaN timeout (which the runtime must reject) arms no timer at a NaN time.
        deadline = loop.call_at(loop.time() + (timeout if timeout is not None and timeout >= 0 else 0.0), turn)
        summary = await call
    finally:
        counter["returned"] = True
        if deadline is not None:
            deadline.cancel()
        call.cancel()  # a no-op once it returned; stops it when our own caller is cancelled
    timing = {"timeout_s": timeout, "elapsed_s": loop.time() - started, "turns_after_deadline": counter["turns"]}
    if not all(hasattr(summary, field) for field in SUMMARY_FIELDS):
        return {"not_a_summary": type(summary).__name__, **dict.fromkeys(SUMMARY_FIELDS), **timing}
    return {"timeout_reached": summary.timeout_reached, "undelivered_count": summary.undelivered_count, **timing}


# What graph-engine §6 requires every drain summary to include, by the runtime's attribute names.
SUMMARY_FIELDS = ("timeout_reached", "undelivered_count")


# Where a `mutate` observer notes its attempts in the record of the event it received.
STATE_MUTATION_ATTEMPTS = "state_mutation_attempts"


def attempt_state_mutations(event: Any) -> list[dict[str, Any]]:
    """A `mutate` observer's attempts on one event (graph-engine §6 *State immutability*): assign the
    first field of its ``pre_state``, ``post_state`` and each ``parent_states`` entry, in place, to
    that field's own value. Each attempt as ``{target, refused, error_type}``: refused when the
    assignment raised (the state-immutability strategy), with what it raised."""
    targets = [("pre_state", getattr(event, "pre_state", None)), ("post_state", getattr(event, "post_state", None))]
    targets += [(f"parent_states[{n}]", state) for n, state in enumerate(getattr(event, "parent_states", None) or ())]
    attempts = []
    for target, state in targets:
        if state is None:  # a started event has no post_state
            continue
        field = next(iter(getattr(type(state), "model_fields", None) or vars(state)), None)
        if field is None:
            continue
        try:
            setattr(state, field, getattr(state, field))
        except Exception as refused:  # the strategy's own error type (Python: a frozen-instance error)
            attempts.append({"target": target, "refused": True, "error_type": type(refused).__name__})
        else:
            attempts.append({"target": target, "refused": False, "error_type": None})
    return attempts


@dataclass(frozen=True)
class RecordingObserver:
    """An in-memory observer per §6.1. ``behavior`` is record, accumulate, raise or mutate (an
    extension: record after ``attempt_state_mutations``). What it receives
    goes to the case's log (``RunLog.deliveries``); it reads the cursor only for its pacing."""

    name: str
    behavior: str
    log: "RunLog"
    cursor: "InvocationCursor"
    sleep_ms: Any = 0  # int, or {first_invocation, subsequent_invocations}

    def pace(self) -> float:
        if isinstance(self.sleep_ms, dict):
            key = "first_invocation" if self.cursor.index == 0 else "subsequent_invocations"
            return self.sleep_ms.get(key, 0) / 1000.0
        return (self.sleep_ms or 0) / 1000.0

    async def __call__(self, event: Any) -> None:
        delay = self.pace()
        if delay:
            await asyncio.sleep(delay)
        record = event_record(event)
        if self.behavior == "mutate":
            record = {**record, STATE_MUTATION_ATTEMPTS: attempt_state_mutations(event)}
        # The invocation whose context delivered the event (the runtime's contextvar tagging, §6).
        self.log.deliveries.append((self.name, _current_invocation(), record))
        if self.behavior == "raise":
            raise ObserverRaised(f"observer {self.name!r} raises on every event")

    def buckets(self) -> dict[str, list[Any]]:
        """An accumulating observer's buckets, as they are now: its events by the invocation they
        carry (else the one whose context delivered them). Other observers keep none."""
        buckets: dict[str, list[Any]] = {}
        if self.behavior != "accumulate":
            return buckets
        for name, invocation, event in self.log.deliveries:
            if name == self.name:
                buckets.setdefault(event.get("invocation_id") or invocation or "?", []).append(event)
        return buckets

    def snapshot(self, invocation_id: str | None) -> tuple[Any, ...]:
        """The accumulator bucket for one invocation, as it is now."""
        return tuple(self.buckets().get(invocation_id or "", ()))


@dataclass(frozen=True)
class Instruments:
    """The §6 primitives the instruments step sets up before the graph is built, frozen before graph
    build reads them (execute.instruments, then ``with_captures``)."""

    observers: Mapping[str, RecordingObserver] = MappingProxyType({})  # the fixture's in-memory observers
    # Runtime observers a capability harness's captures (OTel, Langfuse, typed-event collectors)
    # add before the graph is built; attached to the outermost graph in this order.
    runtime_observers: tuple[Any, ...] = ()
    # Runtime objects a capability harness builds for node bodies (e.g. "llm": the mock providers;
    # "retrieval": the captured wire and providers of capabilities/retrieval_mock.py).
    services: Mapping[str, Any] = MappingProxyType({})
    checkpointer: Any = None  # the runtime checkpointer backend, wrapped to record its saves (resume.py)
    clock_step_ms: float | None = None  # a deterministic clock stub, when the case declares one
    virtual_sleep: bool = False  # the runtime's sleeps recorded, not waited (`clock_stub: {type: virtual_sleep}`)
    # The case judges overlap between node bodies (`concurrency_invariant`): every harness body then
    # yields to the event loop once after its entry marker, so sibling fan-out instances really
    # interleave as far as the runtime's bound lets them (a body that never awaits runs to its end
    # before a sibling starts, and measured overlap would always be 1).
    concurrency_markers: bool = False
    # A categorized error a capture's construction raised (an observer / client the case stands up,
    # conformance-adapter §5.5 `expected_construction_error`): the case then builds no graph.
    construction_error: Any = None

    def with_captures(self, seams: "CaptureSeams") -> "Instruments":
        """These instruments with what the capability captures added, frozen."""
        return dataclasses.replace(self, runtime_observers=tuple(seams.runtime_observers), services=MappingProxyType(dict(seams.services)),
                                   construction_error=seams.construction_error)

    def clock(self, log: "RunLog") -> Callable[[], float]:
        """The case's clock, in seconds: the deterministic stub (advancing a fixed step per read, each
        reading appended to ``log``) or the real monotonic clock."""
        step = self.clock_step_ms
        if step is None:
            import time

            return time.monotonic

        def read() -> float:
            log.clock_ms.append((log.clock_ms[-1] if log.clock_ms else 0.0) + step)
            return log.clock_ms[-1] / 1000.0

        return read


@dataclass
class CaptureSeams:
    """What a capability capture adds to the instruments while the instruments step runs (its
    ``(scenario, seams)`` opener): runtime observers, services for node bodies, a construction
    error. Frozen into the :class:`Instruments` by ``Instruments.with_captures``."""

    runtime_observers: list[Any] = field(default_factory=list)
    services: dict[str, Any] = field(default_factory=dict)
    construction_error: Any = None


@dataclass(frozen=True)
class GraphWiring:
    """Graph build's output besides the compiled graph's own classes (``BuiltGraph``): what it wired
    where, read by node bodies and the resume pass while the graph runs. Frozen: nothing writes it
    after graph build returns."""

    compiled: Any  # the outermost compiled graph
    wiring: Mapping[str, Any]  # see trace.CaseTrace
    fan_out_item_fields: Mapping[str, str]  # fan-out node -> its item_field
    abort_points: Mapping[str, int]  # fan-out node -> abort_after_instance


@dataclass
class WiringDraft:
    """What graph build records while it builds (the middleware factories that wire something
    record it here too); ``freeze`` turns it into the :class:`GraphWiring` graph build returns."""

    wiring: dict[str, Any] = field(default_factory=lambda: {"nodes": {}, "failure_isolation": []})
    fan_out_item_fields: dict[str, str] = field(default_factory=dict)
    abort_points: dict[str, int] = field(default_factory=dict)

    def freeze(self, compiled: Any) -> GraphWiring:
        return GraphWiring(compiled, plain(self.wiring), MappingProxyType(dict(self.fan_out_item_fields)),
                           MappingProxyType(dict(self.abort_points)))


class WiringSlot:
    """Where the callbacks graph build makes (node bodies, middleware) read its frozen wiring, which
    exists only once the build they are part of has returned: filled once, by ``build_graph``."""

    __slots__ = ("_wiring",)

    def __init__(self) -> None:
        self._wiring: GraphWiring | None = None

    def fill(self, wiring: GraphWiring) -> None:
        if self._wiring is not None:
            raise RuntimeError("graph build's wiring is filled once")
        self._wiring = wiring

    def get(self) -> GraphWiring:
        if self._wiring is None:
            raise RuntimeError("graph build's wiring read before graph build returned")
        return self._wiring


@dataclass
class RunLog:
    """What the runtime's callbacks append while it runs, in order — the only part of a case
    written then, and the trace's raw material (execute.py slices it per invocation and freezes it
    into the ``CaseTrace``)."""

    deliveries: list[tuple[str, str | None, Any]] = field(default_factory=list)  # (observer, invocation, event)
    middleware_log: list[Any] = field(default_factory=list)
    execution: list[str] = field(default_factory=list)  # outermost nodes dispatched
    invocation_ids: list[tuple[str | None, str | None]] = field(default_factory=list)  # (invocation, correlation) per dispatch
    node_log: list[dict[str, Any]] = field(default_factory=list)  # entered / returned / raised, per node body
    node_drains: list[tuple[str, Any]] = field(default_factory=list)  # (node, summary) per in-node drain
    node_snapshots: list[tuple[str, Any]] = field(default_factory=list)  # (node, {observer: bucket}) per in-node drain
    saves: list[dict[str, Any]] = field(default_factory=list)  # every save the checkpointer received
    migration_log: list[str] = field(default_factory=list)  # "from->to", per harness migration call
    attempts: dict[tuple, int] = field(default_factory=dict)  # failure-mock attempts per key
    clock_ms: list[float] = field(default_factory=list)  # each reading of the deterministic clock stub
    # The armed crashes' course (resume.py): ("target", run, task) an abort point took over the
    # cancellation; ("fired", run, None) the boundary's save persisted.
    crashes: list[tuple[str, int, Any]] = field(default_factory=list)

    def count_attempt(self, key: tuple) -> int:
        """How many times ``key`` was attempted before this one (0 on the first)."""
        seen = self.attempts.get(key, 0)
        self.attempts[key] = seen + 1
        return seen

    def events_of(self, observer: str, since: int = 0) -> list[Any]:
        """The events ``observer`` received, from delivery ``since`` on."""
        return [event for name, _, event in self.deliveries[since:] if name == observer]

    def delivered(self, observers: Iterable[str], invocation_id: str | None) -> dict[str, int]:
        """Deliveries so far, per observer, of events delivered in ``invocation_id``'s context."""
        counts = dict.fromkeys(observers, 0)
        for observer, invocation, _ in self.deliveries:
            if invocation == invocation_id:
                counts[observer] = counts.get(observer, 0) + 1
        return counts


@dataclass
class InvocationCursor:
    """The invocation under way: written by the execute and resume passes between invocations, read
    by node bodies, observers and the checkpointer during one."""

    index: int = 0  # 0 for the first invocation of the case
    crash: Any = None  # the crash armed for the running invocation (resume.Crash)


@dataclass(frozen=True)
class Harness:
    """One case's parts besides the runtime itself, each with one writer: ``instruments`` (frozen by
    the instruments step), the wiring (frozen, returned by graph build; read through ``wired``),
    ``log`` (appended by the runtime's callbacks while it runs) and ``cursor`` (the execute and resume
    passes, between invocations). Graph build hands it to the callbacks it makes."""

    instruments: Instruments
    log: RunLog
    cursor: InvocationCursor
    wired: WiringSlot
    # The handle attach_observer returned for each fixture observer attached to a graph, by name:
    # filled once when the execute pass attaches them, read by a node that detaches one mid-run.
    observer_handles: dict[str, Any] = field(default_factory=dict)

    @property
    def graph(self) -> GraphWiring:
        return self.wired.get()
