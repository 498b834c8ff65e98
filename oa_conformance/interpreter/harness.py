"""Harness primitives (conformance-adapter §6): the per-case instruments a fixture names.

One :class:`Harness` per case — nothing here is shared between cases. It owns the in-memory
observers (§6.1: record / accumulate / raise, paced, phase-filtered), the middleware log (§6.7),
the per-node attempt counters the failure mocks read, and the deterministic clock. Observers are
real ``openarmature`` observers: the runtime delivers to them, they only record.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..trace import plain


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
    from ..host.observability import current_invocation_id

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
    from ..host.graph import classify_cause_chain

    data = {"category": getattr(error, "category", None), "message": str(error), "type": type(error).__name__}
    if isinstance(error, Exception):
        data["cause_chain"] = classify_cause_chain(error)
    return data


# How many event-loop turns after its deadline a drain is followed before counting stops: far more
# than a drain that honours its deadline needs (a handful: timer fires, cancel, gather, resume), far
# fewer than the turns that pass while it waits on a paced observer instead.
TURNS_COUNTED_AFTER_DEADLINE = 1000


async def timed_drain(drain: Any, timeout: float | None, *args: Any) -> dict[str, Any]:
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
    would spin through the gap while the drain, honest, still waits for its own deadline."""
    loop = asyncio.get_running_loop()
    counter = {"turns": 0, "returned": False}

    def turn() -> None:  # one call per loop turn, from the deadline on, until the drain returns
        if not counter["returned"] and counter["turns"] < TURNS_COUNTED_AFTER_DEADLINE:
            counter["turns"] += 1
            loop.call_soon(turn)

    started = loop.time()
    call = loop.create_task(drain(*args, timeout=timeout))  # the context (invocation, case) is copied
    deadline = None
    try:
        await asyncio.sleep(0)  # the ready queue is FIFO: the drain's first step runs before we resume
        deadline = loop.call_at(loop.time() + (timeout or 0.0), turn)
        summary = await call
    finally:
        counter["returned"] = True
        if deadline is not None:
            deadline.cancel()
        call.cancel()  # a no-op once it returned; stops it when our own caller is cancelled
    return {"timeout_reached": summary.timeout_reached, "undelivered_count": summary.undelivered_count,
            "timeout_s": timeout, "elapsed_s": loop.time() - started, "turns_after_deadline": counter["turns"]}


@dataclass
class RecordingObserver:
    """An in-memory observer per §6.1. ``behavior`` is record, accumulate or raise."""

    name: str
    behavior: str
    harness: "Harness"
    sleep_ms: Any = 0  # int, or {first_invocation, subsequent_invocations}
    events: list[Any] = field(default_factory=list)
    buckets: dict[str, list[Any]] = field(default_factory=dict)

    def pace(self) -> float:
        if isinstance(self.sleep_ms, dict):
            key = "first_invocation" if self.harness.invocation.index == 0 else "subsequent_invocations"
            return self.sleep_ms.get(key, 0) / 1000.0
        return (self.sleep_ms or 0) / 1000.0

    async def __call__(self, event: Any) -> None:
        delay = self.pace()
        if delay:
            await asyncio.sleep(delay)
        record = event_record(event)
        # The invocation whose context delivered the event (the runtime's contextvar tagging, §6).
        self.harness.log.deliveries.append((self.name, _current_invocation(), record))
        if self.behavior == "raise":
            self.events.append(record)
            raise ObserverRaised(f"observer {self.name!r} raises on every event")
        if self.behavior == "accumulate":
            key = record.get("invocation_id") or _current_invocation() or "?"
            self.buckets.setdefault(key, []).append(record)
        self.events.append(record)

    def snapshot(self, invocation_id: str | None) -> tuple[Any, ...]:
        """The accumulator bucket for one invocation, as it is now."""
        return tuple(self.buckets.get(invocation_id or "", ()))


@dataclass
class Instruments:
    """The §6 primitives set up before the graph is built — graph build's input besides the scenario."""

    observers: dict[str, RecordingObserver] = field(default_factory=dict)  # the fixture's in-memory observers
    # Runtime observers a capability harness's instruments (OTel, Langfuse, typed-event collectors)
    # put here before the graph is built; attached to the outermost graph in this order.
    runtime_observers: list[Any] = field(default_factory=list)
    # Runtime objects a capability harness builds for node bodies (e.g. "llm": the mock providers;
    # "retrieval": the captured wire and providers of retrieval_mock.py).
    services: dict[str, Any] = field(default_factory=dict)
    checkpointer: Any = None  # the runtime checkpointer backend, wrapped to record its saves (resume.py)
    clock_step_ms: float | None = None  # a deterministic clock stub, when the case declares one
    clock_ms: float = 0.0
    # The case judges overlap between node bodies (`concurrency_invariant`): every harness body then
    # yields to the event loop once after its entry marker, so sibling fan-out instances really
    # interleave as far as the runtime's bound lets them (a body that never awaits runs to its end
    # before a sibling starts, and measured overlap would always be 1).
    concurrency_markers: bool = False
    # A categorized error a capture's construction raised (an observer / client the case stands up,
    # conformance-adapter §5.5 `expected_construction_error`): the case then builds no graph.
    construction_error: Any = None

    def clock(self) -> float:
        """Seconds: the deterministic stub (advancing a fixed step per read) or the real monotonic clock."""
        if self.clock_step_ms is None:
            import time

            return time.monotonic()
        self.clock_ms += self.clock_step_ms
        return self.clock_ms / 1000.0


@dataclass
class GraphWiring:
    """Graph build's output besides the compiled graph itself (``BuiltGraph``): what it wired where,
    read by node bodies and the resume pass while the graph runs."""

    compiled: Any = None  # the outermost compiled graph, once built
    wiring: dict[str, Any] = field(default_factory=lambda: {"nodes": {}, "failure_isolation": []})  # see trace.CaseTrace
    fan_out_item_fields: dict[str, str] = field(default_factory=dict)  # fan-out node -> its item_field
    abort_points: dict[str, int] = field(default_factory=dict)  # fan-out node -> abort_after_instance


@dataclass
class RunLog:
    """What the execute pass records while the runtime runs, in order — the trace's raw material
    (execute.py slices it per invocation and freezes it into the ``CaseTrace``)."""

    deliveries: list[tuple[str, str | None, Any]] = field(default_factory=list)  # (observer, invocation, event)
    middleware_log: list[Any] = field(default_factory=list)
    execution: list[str] = field(default_factory=list)  # outermost nodes dispatched
    invocation_ids: list[tuple[str | None, str | None]] = field(default_factory=list)  # (invocation, correlation) per dispatch
    node_log: list[dict[str, Any]] = field(default_factory=list)  # entered / returned / raised, per node body
    saves: list[dict[str, Any]] = field(default_factory=list)  # every save the checkpointer received
    migration_log: list[str] = field(default_factory=list)  # "from->to", per harness migration call
    attempts: dict[tuple, int] = field(default_factory=dict)  # failure-mock attempts per key

    def count_attempt(self, key: tuple) -> int:
        """How many times ``key`` was attempted before this one (0 on the first)."""
        seen = self.attempts.get(key, 0)
        self.attempts[key] = seen + 1
        return seen


@dataclass
class InvocationCursor:
    """The invocation under way: set by the execute and resume passes before each run, read by node
    bodies and observers during it."""

    index: int = 0  # 0 for the first invocation of the case
    node_drains: dict[str, Any] = field(default_factory=dict)  # this invocation's in-node drains
    node_snapshots: dict[str, Any] = field(default_factory=dict)
    crash: Any = None  # the crash armed for the running invocation (resume.Crash)


@dataclass
class Harness:
    """Everything one case's run may touch besides the runtime itself, in four parts with one owner
    each: ``instruments`` (built before graph build), ``graph`` (graph build's wiring), ``log``
    (appended while the runtime runs), ``invocation`` (the run under way)."""

    instruments: Instruments = field(default_factory=Instruments)
    graph: GraphWiring = field(default_factory=GraphWiring)
    log: RunLog = field(default_factory=RunLog)
    invocation: InvocationCursor = field(default_factory=InvocationCursor)

    @property
    def runtime_observers(self) -> list[Any]:
        """The capability harness contract's seam (capabilities/__init__.py): runtime observers a
        capture attaches before the graph is built."""
        return self.instruments.runtime_observers

    def delivered(self, invocation_id: str | None) -> dict[str, int]:
        """Deliveries so far, per observer, of events delivered in ``invocation_id``'s context."""
        counts = dict.fromkeys(self.instruments.observers, 0)
        for observer, invocation, _ in self.log.deliveries:
            if invocation == invocation_id:
                counts[observer] = counts.get(observer, 0) + 1
        return counts
