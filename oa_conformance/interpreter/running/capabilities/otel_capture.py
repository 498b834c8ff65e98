"""The OTel capture of the observability harness (conformance-adapter §6.3 spans, §6.9 metrics; the
directory header's log-record capture and global-provider isolation check).

Per case:

- **Spans**: the runtime's own ``OTelObserver`` built over the OTel SDK's ``SimpleSpanProcessor`` +
  ``InMemorySpanExporter``. The observer makes its private ``TracerProvider`` from that processor
  (observability §6 isolation); the harness never touches the global provider for it.
- **Metrics**: with ``enable_metrics: true``, a private ``MeterProvider`` with an
  ``InMemoryMetricReader`` is handed to the observer (§11.1 lets a caller inject it); nothing global.
- **Log records** and the **global provider** are process-wide by nature (the logs bridge hangs a
  handler on the root logger; ``caller_global_otel_active`` needs the OTel *global*
  TracerProvider). Cases run side by side in threads, so both are shared slots (``case_output.SharedSlot``): the first
  case that needs one installs a routing provider, the last one leaving restores exactly what was
  there before; every record / span is routed to the case whose context emitted it (a context
  variable, copied into every task the case's run creates). So the global providers are untouched
  after a run, and no case sees another case's records.

Collections (docs/TRACE.md): ``otel`` = {spans, logs, global_spans (only with
``caller_global_otel_active``)}, ``metrics`` = [observations] (only with ``enable_metrics``).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from typing import Any

from ....ast.nodes import Scalar
from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from ..case_output import SharedSlot
from ..error_record import error_record
from ....ast.values import literal

# The case whose context is running: where routed log records and global-provider spans go.
_ROUTE: contextvars.ContextVar["OtelCapture | None"] = contextvars.ContextVar("oa_otel_capture", default=None)



def _routing_exporters():
    from opentelemetry.sdk._logs.export import LogRecordExporter, LogRecordExportResult
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    class RoutingSpanExporter(SpanExporter):
        """Global-provider spans → the emitting case's ``global_spans``."""

        def export(self, spans):
            capture = _ROUTE.get()
            if capture is not None:
                capture.global_spans.extend(spans)
            return SpanExportResult.SUCCESS

    class RoutingLogExporter(LogRecordExporter):
        """Bridged log records → the emitting case's ``logs``."""

        def export(self, batch):
            capture = _ROUTE.get()
            if capture is not None:
                capture.logs.extend(batch)
            return LogRecordExportResult.SUCCESS

        def shutdown(self):
            return None

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return True

    return RoutingSpanExporter, RoutingLogExporter


def _install_global_tracer() -> Any:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    span_exporter, _ = _routing_exporters()
    saved = (trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE._done)
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(span_exporter()))
    # Installed directly (not set_tracer_provider, which may be called once per process) so the
    # previous global provider can be put back when the last case leaves.
    trace._TRACER_PROVIDER = provider
    trace._TRACER_PROVIDER_SET_ONCE._done = True
    return saved


def _restore_global_tracer(saved: Any) -> None:
    from opentelemetry import trace

    trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE._done = saved


def _install_log_bridge() -> Any:
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
    from ....host.observability import install_log_bridge

    _, log_exporter = _routing_exporters()
    root = logging.getLogger()
    saved = (list(root.handlers), logging.getLogRecordFactory())
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(log_exporter()))
    install_log_bridge(provider)  # the runtime's own bridge: root handler + correlation-id factory
    for handler in root.handlers:
        if handler not in saved[0]:
            # Its records go to in-memory exporters: nothing to flush at exit. Its flush starts a
            # thread, which logging.shutdown may not do (a case abandoned by -x / Ctrl-C keeps it alive).
            handler.flushOnClose = False
    return saved


def _restore_log_bridge(saved: Any) -> None:
    handlers, factory = saved
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    logging.setLogRecordFactory(factory)


GLOBAL_TRACER = SharedSlot(_install_global_tracer, _restore_global_tracer)
LOG_BRIDGE = SharedSlot(_install_log_bridge, _restore_log_bridge)


def _flag(value: Any, default: bool) -> bool:
    """A boolean directive's value, else ``default``."""
    return bool(value.value) if isinstance(value, Scalar) else default


def observer_flag(in_block: Any, at_case_level: Any, default: bool) -> bool:
    """An OTel observer flag: the ``otel_observer`` block's (conformance-adapter §5.5, the 0.118
    spelling), else the case-level key of the same name (the earlier spelling), else the §5.5.4
    default. The block configures the OTel side only (the Langfuse observer keeps its own copy)."""
    return bool(in_block.value) if isinstance(in_block, Scalar) else _flag(at_case_level, default)


def _payload_cap(block: Any) -> dict[str, int]:
    """The ``otel_observer`` block's ``payload_byte_cap`` as the observer's ``payload_max_bytes``;
    left out when the block sets none, so the runtime's own §5.5.5 default (64 KiB) applies."""
    cap = block.payload_byte_cap if block is not None else None
    return {"payload_max_bytes": int(cap.value)} if isinstance(cap, Scalar) else {}


def _names(value: Any) -> frozenset[str]:
    return frozenset(literal(value)) if value is not None else frozenset()


def _dispatching_nodes(scenario: Scenario, subgraphs: frozenset[str]) -> frozenset[str]:
    """The fixture names detached *subgraphs*; the runtime's observer keys detachment by the node
    that runs one (its "subgraph wrapper node"). Both spellings are honoured: a listed name that is
    a node stays, and every outer node running a listed subgraph is added."""
    nodes = scenario.view.nodes
    wrappers = set(subgraphs)
    for node_name, decl in (nodes.items() if nodes is not None else ()):
        runs = decl.subgraph if hasattr(decl, "get") else None
        if isinstance(runs, Scalar) and runs.value in subgraphs:
            wrappers.add(node_name)
    return frozenset(wrappers)


class OtelCapture:
    """One case's OTel instruments and what they recorded."""

    def __init__(self, scenario: Scenario):
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from ....host.observability import OTelObserver

        self.exporter = InMemorySpanExporter()
        view, block = scenario.view, scenario.view.otel_observer
        self.global_active = _flag(view.caller_global_otel_active, False)
        self.global_spans: list[Any] = []
        self.logs: list[Any] = []
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader

        # A meter provider always, so what a case leaves at the §11.1 default (metrics off) is
        # recorded too: an observer that metered anyway would show its measurements.
        self.reader = InMemoryMetricReader()
        meter_provider = MeterProvider(metric_readers=[self.reader])
        settings = dict(
            span_processor=SimpleSpanProcessor(self.exporter),
            detached_subgraphs=_dispatching_nodes(scenario, _names(view.detached_subgraphs)),
            detached_fan_outs=_names(view.detached_fan_outs),
            disable_llm_spans=_flag(view.disable_llm_spans, False),
            disable_provider_payload=observer_flag(block.disable_provider_payload if block is not None else None, view.disable_provider_payload, True),
            disable_genai_semconv=observer_flag(block.disable_genai_semconv if block is not None else None, view.disable_genai_semconv, False),
            meter_provider=meter_provider,
            # Only when the case states it: a case that leaves it out runs the observer's own default.
            **({"enable_metrics": _flag(view.enable_metrics, False)} if view.enable_metrics is not None else {}),
            **_payload_cap(block),
        )
        self.construction_error = None  # ErrorRecord: the runtime refused the configuration
        self.observer = None
        try:
            self.observer = OTelObserver(**settings)
        except Exception as raised:
            # A refused configuration (§5.5.5: a cap under 256 bytes, rejected at construction; the
            # runtime raises ValueError, no category) or a categorized one is the case's outcome;
            # anything else (a signature the build lacks) is ours and propagates.
            if not isinstance(raised, ValueError) and getattr(raised, "category", None) is None:
                raise
            self.construction_error = error_record(raised)

    def collections(self) -> dict[str, Any]:
        spans = self.exporter.get_finished_spans()
        otel: dict[str, Any] = {"spans": span_records(spans), "logs": log_records(self.logs)}
        if self.global_active:
            otel["global_spans"] = span_records(self.global_spans)
        result: dict[str, Any] = {"otel": otel}
        result["metrics"] = metric_records(self.reader.get_metrics_data())
        return result


@contextlib.asynccontextmanager
async def open_otel(scenario: Scenario, seams: CaptureSeams):
    capture = OtelCapture(scenario)
    if capture.construction_error is not None:  # the case stands down before any graph is built
        seams.construction_error = capture.construction_error
    else:
        seams.runtime_observers.append(capture.observer)
    token = _ROUTE.set(capture)
    try:
        with contextlib.ExitStack() as slots:
            slots.enter_context(LOG_BRIDGE.held())
            if capture.global_active:
                slots.enter_context(GLOBAL_TRACER.held())
            try:
                yield capture
            finally:
                # The runtime never ends invocation spans on its own (close_invocation / shutdown are
                # the caller's); the graph has drained by now, so every span is final.
                if capture.observer is not None:
                    capture.observer.shutdown()
    finally:
        _ROUTE.reset(token)


# ---------------------------------------------------------------------------------------------
# Runtime records → plain data (the trace document's schema, docs/TRACE.md)


def _hex_span(value: int | None) -> str | None:
    return format(value, "016x") if value else None


def _hex_trace(value: int | None) -> str | None:
    return format(value, "032x") if value else None


def _attributes(attributes: Any) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in (attributes or {}).items()}


def span_records(spans: Any) -> list[dict[str, Any]]:
    """Finished spans in export order. ``start_sequence`` / ``end_sequence`` are positions on one
    timeline of every span's start and end, so two spans overlapped in time exactly when each
    started before the other ended."""
    spans = list(spans)
    moments = sorted([(span.start_time or 0, 0, index) for index, span in enumerate(spans)]
                     + [(span.end_time or 0, 1, index) for index, span in enumerate(spans)])
    sequence: dict[tuple[int, int], int] = {(edge, index): position for position, (_, edge, index) in enumerate(moments)}
    records = []
    for index, span in enumerate(spans):
        context = span.get_span_context()
        records.append({
            "span_id": _hex_span(context.span_id),
            "parent_span_id": _hex_span(span.parent.span_id) if span.parent is not None else None,
            "trace_id": _hex_trace(context.trace_id),
            "name": span.name,
            "kind": span.kind.name,
            "status": span.status.status_code.name,
            "status_description": span.status.description,
            "attributes": _attributes(span.attributes),
            "events": [{"name": event.name, "attributes": _attributes(event.attributes)} for event in span.events],
            "links": [{"trace_id": _hex_trace(link.context.trace_id), "span_id": _hex_span(link.context.span_id),
                       "attributes": _attributes(link.attributes)} for link in span.links],
            "scope": span.instrumentation_scope.name if span.instrumentation_scope is not None else None,
            "start_sequence": sequence[(0, index)],
            "end_sequence": sequence[(1, index)],
            "export_sequence": index,
        })
    return records


def log_records(batch: Any) -> list[dict[str, Any]]:
    records = []
    for sequence, readable in enumerate(batch):
        record = getattr(readable, "log_record", readable)
        severity = getattr(record, "severity_number", None)
        records.append({
            "body": record.body,
            "severity_text": record.severity_text,
            "severity_number": severity.value if severity is not None else None,
            "attributes": _attributes(record.attributes),
            "trace_id": _hex_trace(record.trace_id),
            "span_id": _hex_span(record.span_id),
            "event_name": getattr(record, "event_name", None),
            "sequence": sequence,
        })
    return records


def metric_records(data: Any) -> list[dict[str, Any]]:
    """Every recorded observation: {instrument, kind, unit, dimensions, value}.

    The reader aggregates; a histogram data point of ``count`` observations with the same
    dimensions is expanded back: one observation is its sum, two are its min and max; for more the
    individual values are not recoverable and are recorded as ``None`` between min and max."""
    observations = []
    for resource_metrics in (data.resource_metrics if data is not None else ()):
        for scope_metrics in resource_metrics.scope_metrics:
            for metric in scope_metrics.metrics:
                kind = type(metric.data).__name__.lower()
                for point in metric.data.data_points:
                    base = {"instrument": metric.name, "kind": kind, "unit": metric.unit,
                            "dimensions": _attributes(point.attributes)}
                    for value in _point_values(point):
                        observations.append({**base, "value": value})
    return observations


def _point_values(point: Any) -> list[Any]:
    count = getattr(point, "count", None)
    if count is None:  # a counter's sum point: one observation of its cumulative value
        return [point.value]
    if count == 1:
        return [point.sum]
    if count == 2:
        return [point.min, point.max]
    return [point.min] + [None] * (count - 2) + [point.max]



