"""The execution trace: everything one case did, recorded once, immutable.

The execute pass produces a :class:`CaseTrace`; the assert pass only reads it. Values taken from
the runtime (states, events, errors) are converted to plain data and frozen (pyrsistent maps and
vectors), so a rule can neither change the trace nor depend on runtime object identity.

    CaseTrace
      compile_error        ErrorRecord | None     compilation failed (expected_compile_error)
      compile_warnings     (category, ...)        warnings emitted while compiling
      invocations          (InvocationTrace, ...) one per invoke(), in order
      middleware_log       (entry, ...)           pre/post markers, trace records, timing records
      checkpoint_saves     (save, ...)            every record the checkpointer saved, in order
      notes                (str, ...)             what the harness did that a reader may want to know

    InvocationTrace
      name, invocation_id, correlation_id
      outcome              completed | errored | suspended
      final_state          the returned state (completed) — plain data
      error                ErrorRecord (errored)
      execution_order      outermost nodes that ran, in order
      events               {observer name: (event, ...)} as each observer received them
      deliveries           ((observer, event index), ...) in global delivery order
      accumulators         {observer: {invocation_id: (event, ...)}} at the end
      drain                the process-wide drain summary, when the case drains
      node_drains          {node: summary} from invoke_drain_events_for
      node_snapshots       {node: {observer: (event, ...)}} taken at those drains
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyrsistent import freeze, pmap, pvector


@dataclass(frozen=True)
class ErrorRecord:
    """A raised error as data: its category, message, the node it surfaced from, its cause chain."""

    category: str | None
    message: str
    type_name: str
    node: str | None = None
    chain: tuple[Any, ...] = ()  # frozen {category, message, type, carrier} links, outermost first
    attributes: Any = field(default_factory=pmap)  # other fields the error exposes (frozen)


@dataclass(frozen=True)
class InvocationTrace:
    name: str | None
    outcome: str
    final_state: Any = None
    error: ErrorRecord | None = None
    invocation_id: str | None = None
    correlation_id: str | None = None
    execution_order: Any = field(default_factory=pvector)
    events: Any = field(default_factory=pmap)
    deliveries: Any = field(default_factory=pvector)
    accumulators: Any = field(default_factory=pmap)
    drain: Any = None
    node_drains: Any = field(default_factory=pmap)
    node_snapshots: Any = field(default_factory=pmap)
    extra: Any = field(default_factory=pmap)


@dataclass(frozen=True)
class CaseTrace:
    compile_error: ErrorRecord | None = None
    compile_warnings: tuple[str, ...] = ()
    invocations: tuple[InvocationTrace, ...] = ()
    middleware_log: Any = field(default_factory=pvector)
    checkpoint_saves: Any = field(default_factory=pvector)
    notes: tuple[str, ...] = ()

    @property
    def main(self) -> InvocationTrace | None:
        """The invocation a single-invocation case's expectations are about (the last one)."""
        return self.invocations[-1] if self.invocations else None


def plain(value: Any) -> Any:
    """Runtime values → frozen plain data: models and mappings → maps, sequences → vectors."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    elif hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
        value = {name: getattr(value, name) for name in value.__dataclass_fields__}
    if isinstance(value, dict) or hasattr(value, "items") and not isinstance(value, (str, bytes)):
        return pmap({key: plain(item) for key, item in value.items()})
    if isinstance(value, (list, tuple, set, frozenset)) or type(value).__name__ == "PVector":
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return pvector([plain(item) for item in items])
    return value


__all__ = ["CaseTrace", "ErrorRecord", "InvocationTrace", "freeze", "plain"]
