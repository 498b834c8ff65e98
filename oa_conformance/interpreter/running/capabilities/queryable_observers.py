"""Queryable observers (observability §9), a capture for the observability harness's ``instrument``.

A ``queryable_observers`` entry is a harness-defined runtime observer whose in-memory state node
code reads mid-invocation through a read method (§9.1): ``event_counter`` counts every NodeEvent it
receives (``get_count``); ``typed_event_counter`` counts every event it receives, in total and per
event type, and ``get_snapshot`` returns both as one point-in-time copy (§9.2: a read is never a
torn view); ``per_invocation_accumulator`` buckets NodeEvents by the invocation id they carry
(``get_bucket`` / ``drop``, §9.4: never dropped on completion). The observers attach to the
outermost graph (``seams.runtime_observers``) and are reachable by name from node directives
through ``harness.instruments.services["queryable_observers"]``; every read a node makes is logged
on its observer (``record_read``: the value, or the exception the read raised). After the run the
collection ``queryable_observers`` is ``{name: {kind, reads, count? | total?, by_type? | buckets?}}``
(docs/TRACE.md).
"""

from __future__ import annotations

import contextlib
from typing import Any

from ....host.graph import NodeEvent

from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from ....model.errors import HarnessPrimitiveMissing
from ..harness import _current_invocation



def _is_node_event(event: Any) -> bool:
    return isinstance(event, NodeEvent)


class QueryableObserver:
    """What every queryable observer shares: the log of the reads node code made of it."""

    kind = ""

    def __init__(self) -> None:
        self.reads: list[dict[str, Any]] = []

    def record_read(self, node: str, method: str, value: Any = None, error: BaseException | None = None) -> None:
        """One read a node made: the value it returned, or the exception it raised (then re-raised)."""
        exception = None if error is None else {"type": type(error).__name__, "message": str(error)}
        self.reads.append({"node": node, "method": method, "value": None if error is not None else value, "exception": exception})

    def state(self) -> dict[str, Any]:
        return {"kind": self.kind, "reads": list(self.reads)}


class EventCounter(QueryableObserver):
    """`event_counter`: how many node events it has received so far."""

    kind = "event_counter"

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    async def __call__(self, event: Any) -> None:
        if _is_node_event(event):
            self.count += 1

    def get_count(self) -> int:
        return self.count

    def state(self) -> dict[str, Any]:
        return {**super().state(), "count": self.count}


class TypedEventCounter(QueryableObserver):
    """`typed_event_counter`: every event it receives, counted in total and per event type (the
    event's class name, as the trace's ``type``). Both counts change together in one synchronous
    step, and ``get_snapshot`` copies both: a read is one consistent point in the event stream."""

    kind = "typed_event_counter"

    def __init__(self) -> None:
        super().__init__()
        self.total = 0
        self.by_type: dict[str, int] = {}

    async def __call__(self, event: Any) -> None:
        name = type(event).__name__
        self.by_type[name] = self.by_type.get(name, 0) + 1
        self.total += 1

    def get_snapshot(self) -> dict[str, Any]:
        return {"total": self.total, "by_type": dict(self.by_type)}

    def state(self) -> dict[str, Any]:
        return {**super().state(), **self.get_snapshot()}


class PerInvocationAccumulator(QueryableObserver):
    """`per_invocation_accumulator`: node events bucketed by the invocation that emitted them, kept until `drop`."""

    kind = "per_invocation_accumulator"

    def __init__(self) -> None:
        super().__init__()
        self.buckets: dict[str, list[str]] = {}
        self.dropped: list[str] = []

    async def __call__(self, event: Any) -> None:
        if _is_node_event(event):
            # the invocation whose delivery runs this call (delivery runs in the invocation's context)
            self.buckets.setdefault(_current_invocation() or "?", []).append(f"{event.node_name}.{event.phase}")

    def get_bucket(self, invocation_id: str) -> dict[str, Any] | None:
        events = self.buckets.get(invocation_id)
        return None if events is None else {"invocation_id": invocation_id, "events": list(events)}

    def drop(self, invocation_id: str) -> None:
        self.buckets.pop(invocation_id, None)
        self.dropped.append(invocation_id)

    def state(self) -> dict[str, Any]:
        return {**super().state(), "buckets": {key: list(value) for key, value in self.buckets.items()},
                "dropped": list(self.dropped)}


KINDS = {cls.kind: cls for cls in (EventCounter, TypedEventCounter, PerInvocationAccumulator)}


class QueryableCapture:
    def __init__(self, scenario: Scenario):
        self.observers: dict[str, Any] = {}
        declared = scenario.view.queryable_observers
        for decl in (declared.items if declared is not None else ()):
            factory = KINDS.get(decl.kind.value)
            if factory is None:
                raise HarnessPrimitiveMissing(f"queryable observer kind {decl.kind.value!r}", decl.kind.span)
            persists = decl.persists_across_invocations  # one instance, attached for the whole case
            if persists is not None and not persists.value:
                raise HarnessPrimitiveMissing("a queryable observer re-attached per invocation", persists.span)
            self.observers[decl.name.value] = factory()

    def collections(self) -> dict[str, Any]:
        if not self.observers:
            return {}
        return {"queryable_observers": {name: observer.state() for name, observer in self.observers.items()}}


@contextlib.asynccontextmanager
async def open_queryable_observers(scenario: Scenario, seams: CaptureSeams):
    capture = QueryableCapture(scenario)
    seams.runtime_observers.extend(capture.observers.values())
    seams.services["queryable_observers"] = capture.observers
    yield capture
