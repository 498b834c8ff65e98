"""Queryable observers (observability §9), a capture for the observability harness's ``instrument``.

A ``queryable_observers`` entry is a harness-defined runtime observer whose in-memory state node
code reads mid-invocation through a read method (§9.1): ``event_counter`` counts every NodeEvent it
receives (``get_count``); ``per_invocation_accumulator`` buckets NodeEvents by the invocation id
they carry (``get_bucket`` / ``drop``, §9.4: never dropped on completion). The observers attach to
the outermost graph (``harness.runtime_observers``) and are reachable by name from node directives
through ``harness.instruments.services["queryable_observers"]``. After the run the collection
``queryable_observers`` is ``{name: {kind, count?, buckets?}}`` (docs/TRACE.md).
"""

from __future__ import annotations

import contextlib
from typing import Any

from openarmature.graph import NodeEvent

from ...ast.scenarios import Scenario
from ..harness import HarnessPrimitiveMissing, _current_invocation

QUERYABLE_DIRECTIVES = frozenset(("queryable_observers",))


def _is_node_event(event: Any) -> bool:
    return isinstance(event, NodeEvent)


class EventCounter:
    """`event_counter`: how many node events it has received so far."""

    kind = "event_counter"

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, event: Any) -> None:
        if _is_node_event(event):
            self.count += 1

    def get_count(self) -> int:
        return self.count

    def state(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count}


class PerInvocationAccumulator:
    """`per_invocation_accumulator`: node events bucketed by the invocation that emitted them, kept until `drop`."""

    kind = "per_invocation_accumulator"

    def __init__(self) -> None:
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
        return {"kind": self.kind, "buckets": {key: list(value) for key, value in self.buckets.items()},
                "dropped": list(self.dropped)}


KINDS = {cls.kind: cls for cls in (EventCounter, PerInvocationAccumulator)}


class QueryableCapture:
    def __init__(self, scenario: Scenario):
        self.observers: dict[str, Any] = {}
        declared = scenario.get("queryable_observers")
        for decl in (declared.items if declared is not None else ()):
            factory = KINDS.get(decl.kind.value)
            if factory is None:
                raise HarnessPrimitiveMissing(f"queryable observer kind {decl.kind.value!r}", decl.kind.span)
            self.observers[decl.name.value] = factory()

    def collections(self) -> dict[str, Any]:
        if not self.observers:
            return {}
        return {"queryable_observers": {name: observer.state() for name, observer in self.observers.items()}}


@contextlib.asynccontextmanager
async def open_queryable_observers(scenario: Scenario, harness: Any):
    capture = QueryableCapture(scenario)
    harness.runtime_observers.extend(capture.observers.values())
    harness.instruments.services["queryable_observers"] = capture.observers
    yield capture
