"""Provider-isolation leak checks (proposal 0115) read the spans OTel exporters received (the ``otel`` collection):
a *Langfuse observation span* is one with a ``langfuse.observation.*`` attribute (§6.4).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ...ast.nodes import Scalar
from ...model.diagnostics import Span
from ..matchers import show
from ..rules import Context, FlagRule, Rule, ShapeRow
from .langfuse_traces import OBS, langfuse_collection


def is_langfuse_span(span: Any) -> bool:
    return any(str(key).startswith("langfuse.observation.") for key in span["attributes"])


def _otel_spans(ctx: Context, key: str, what: str) -> Any:
    otel = ctx.trace.collections.get("otel")
    if otel is None or key not in otel:
        raise LookupError(f"no {what} exporter captured spans in this case")
    return otel[key]


def _langfuse_on(key: str, what: str) -> Callable[[Context], tuple[bool, str]]:
    def select(ctx: Context) -> tuple[bool, str]:
        leaked = [s["name"] for s in _otel_spans(ctx, key, what) if is_langfuse_span(s)]
        return bool(leaked), f"Langfuse observation spans on the {what} exporter: {show(leaked)}"
    return select


def _sdk_exported(ctx: Context) -> str | None:
    """An absence is meaningful only when the Langfuse client did emit observation spans."""
    exported = langfuse_collection(ctx).get("exported")
    if exported is None:
        return "the case's Langfuse client emits no OTel spans (no langfuse_client)"
    if not any(is_langfuse_span(span) for span in exported):
        return "the Langfuse client exported no observation span, so no leak could be seen"
    return None


def _leak_shape(directive: str, key: str, what: str, present: bool) -> ShapeRow:
    """The table row of a check that Langfuse observation spans are (not) on the ``key`` exporter."""
    select = _langfuse_on(key, what)

    def factory(node: Scalar, span: Span | None) -> Rule:
        if present:
            return FlagRule(f"expected.{directive}", span, node, select)
        negated = lambda ctx: (lambda held: (not held[0], held[1]))(select(ctx))  # noqa: E731
        return FlagRule(f"expected.{directive}", span, node, negated, _sdk_exported)

    return ShapeRow(directive, factory, OBS)


# ---- payload-scoped leak checks (proposals 0116-0118: the §6 payload-leak invariant) --------
# A Langfuse observation span is *payload-bearing* (§6.4 as 158's sidecar narrows it) when it carries
# harvested payload: provider input / output, a Trace-level input / output other than the §8.4.1
# minimal stub, or a failed observation's error_message. Classifications (error_type, the error
# category in statusMessage) and caller-attached dimensions are payload-free.
PAYLOAD_ATTRIBUTES = ("langfuse.observation.input", "langfuse.observation.output")
TRACE_PAYLOAD_ATTRIBUTES = ("langfuse.trace.input", "langfuse.trace.output")
METADATA_ATTRIBUTE = "langfuse.observation.metadata"
HARVESTED_METADATA = ("error_message",)
# §8.4.1's minimal stubs, by their key sets: {entry_node, correlation_id} / {final_node, status}.
TRACE_STUBS = (frozenset(("entry_node", "correlation_id")), frozenset(("final_node", "status")))


def _json(value: Any) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return value


def payload_carried(span: Any) -> list[str]:
    """The payload attributes a Langfuse observation span carries (empty: payload-free). A dict
    metadata renders as one attribute per key (``langfuse.observation.metadata.<key>``), any other
    as one serialized blob under the bare name — both are read."""
    attributes = span["attributes"]
    carried = [name for name in PAYLOAD_ATTRIBUTES if attributes.get(name) is not None]
    for name in TRACE_PAYLOAD_ATTRIBUTES:
        value = _json(attributes.get(name))
        if value is not None and not (isinstance(value, dict) and frozenset(value) in TRACE_STUBS):
            carried.append(name)
    blob = _json(attributes.get(METADATA_ATTRIBUTE))
    for key in HARVESTED_METADATA:
        if attributes.get(f"{METADATA_ATTRIBUTE}.{key}") is not None or (isinstance(blob, dict) and key in blob):
            carried.append(f"{METADATA_ATTRIBUTE}.{key}")
    return carried


def _payload_bearing_on_global(ctx: Context) -> tuple[bool, str]:
    bearing = {s["name"]: payload_carried(s) for s in _otel_spans(ctx, "global_spans", "global TracerProvider's")
               if is_langfuse_span(s) and payload_carried(s)}
    return bool(bearing), f"payload-bearing Langfuse observation spans on the global exporter: {show(bearing)}"


def _global_capture_or_emission(ctx: Context) -> str | None:
    """A payload absence is meaningful when the global exporter captured the case and the Langfuse
    client emitted — or when standing the observer up raised, which is why nothing was emitted."""
    _otel_spans(ctx, "global_spans", "global TracerProvider's")  # LookupError: cannot evaluate
    return None if ctx.trace.construction_error is not None else _sdk_exported(ctx)


def _payload_bearing(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.payload_bearing_langfuse_observations_on_global", span, node, _payload_bearing_on_global)


def _no_payload_bearing(node: Scalar, span: Span | None) -> Rule:
    def none_bearing(ctx: Context) -> tuple[bool, str]:
        held, seen = _payload_bearing_on_global(ctx)
        return not held, seen
    return FlagRule("expected.no_payload_bearing_langfuse_observations_on_global", span, node, none_bearing,
                    _global_capture_or_emission)


# directive → rule builder, in the observability vocabulary
SHAPES = (
    _leak_shape("no_langfuse_observations_on_global", "global_spans", "global TracerProvider's", present=False),
    _leak_shape("no_langfuse_observations_on_private", "spans", "openarmature private TracerProvider's", present=False),
    _leak_shape("langfuse_observations_on_global", "global_spans", "global TracerProvider's", present=True),
    ShapeRow("payload_bearing_langfuse_observations_on_global", _payload_bearing, OBS),
    ShapeRow("no_payload_bearing_langfuse_observations_on_global", _no_payload_bearing, OBS),
)


__all__ = ["is_langfuse_span", "payload_carried"]
