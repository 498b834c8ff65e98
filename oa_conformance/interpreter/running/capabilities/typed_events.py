"""Typed-event collectors (conformance-adapter §5.5 ``typed_observers``), a capture for a capability
harness's ``instrument``.

A ``typed_event_collector`` is a real runtime observer attached to the graph: it keeps every
graph-engine §6 typed event it receives (``LlmCompletionEvent`` … ``NodeEvent``) in its own storage,
in delivery order — observers never write state (graph-engine §6). ``filter_event_type`` narrows a
collector to one family. After the run the capture's collection is ``typed_events``:
``{collector name: [event, ...]}``, each event the plain record of ``harness.event_record`` (its
dataclass fields plus ``type``, the event class name; an event carrying a caller-metadata snapshot
also records ``caller_invocation_metadata_mutable``, which plain data cannot show).

``include_caller_metadata`` is a property of the *provider*, not of the observer: the runtime's
providers snapshot the caller metadata onto the event when constructed with
``populate_caller_metadata=True`` (their default). :func:`populates_caller_metadata` is the one place
that reads the fixture's opt-in; whoever constructs a provider for a case asks it.
"""

from __future__ import annotations

import contextlib
from collections.abc import MutableMapping
from typing import Any

from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from ....model.errors import HarnessPrimitiveMissing
from ..harness import event_record


# The graph-engine §6 typed event families a collector keeps (conformance-adapter §5.5).
TYPED_EVENT_FAMILIES = frozenset((
    "LlmCompletionEvent", "LlmFailedEvent", "LlmTokenEvent", "LlmTokenFailedEvent",
    "EmbeddingEvent", "EmbeddingFailedEvent", "RerankEvent", "RerankFailedEvent",
    "ToolCallEvent", "ToolCallFailedEvent", "NodeEvent",
))


class TypedEventCollector:
    """One ``typed_event_collector``: keeps the typed events it receives, in arrival order."""

    def __init__(self, name: str, only: str | None = None):
        self.name = name
        self.only = only
        self.events: list[Any] = []

    async def __call__(self, event: Any) -> None:
        family = type(event).__name__
        if family in TYPED_EVENT_FAMILIES and (self.only is None or family == self.only):
            record = event_record(event)
            snapshot = getattr(event, "caller_invocation_metadata", None)
            if snapshot is not None:  # the trace keeps plain data: whether the snapshot could be changed is recorded here
                record = record.set("caller_invocation_metadata_mutable", isinstance(snapshot, MutableMapping))
            self.events.append(record)


def _declarations(scenario: Scenario) -> tuple[Any, ...]:
    declared = scenario.view.typed_observers
    return tuple(declared.items) if declared is not None else ()


def populates_caller_metadata(scenario: Scenario) -> bool:
    """Whether the case's providers snapshot caller metadata onto their typed events: the runtime's
    default (yes) unless the case declares typed-event collectors, whose ``include_caller_metadata``
    opt-in defaults to false (observability §3.2 header; fixture convention for collectors)."""
    declarations = _declarations(scenario)
    if not declarations:
        return True
    return any(d.include_caller_metadata is not None and d.include_caller_metadata.value for d in declarations)


class TypedEventCapture:
    """The case's typed-event collectors; collection ``typed_events``."""

    def __init__(self, scenario: Scenario):
        self.collectors: dict[str, TypedEventCollector] = {}
        for decl in _declarations(scenario):
            kind = decl.kind.value
            if kind != "typed_event_collector":
                raise HarnessPrimitiveMissing(f"typed observer kind {kind!r}", decl.kind.span)
            ordered = decl.retains_arrival_order  # a collector keeps arrival order; it cannot do otherwise
            if ordered is not None and not ordered.value:
                raise HarnessPrimitiveMissing("a typed event collector that does not retain arrival order", ordered.span)
            only = decl.filter_event_type
            self.collectors[decl.name.value] = TypedEventCollector(decl.name.value, only.value if only is not None else None)

    def collections(self) -> dict[str, Any]:
        if not self.collectors:  # a collection is present only when the case instrumented it
            return {}
        return {"typed_events": {name: list(c.events) for name, c in self.collectors.items()}}


@contextlib.asynccontextmanager
async def open_typed_events(scenario: Scenario, seams: CaptureSeams):
    """The capture entered around a graph run: the collectors attach to the outermost graph
    (``seams.runtime_observers``) in declaration order."""
    capture = TypedEventCapture(scenario)
    seams.runtime_observers.extend(capture.collectors.values())
    yield capture
