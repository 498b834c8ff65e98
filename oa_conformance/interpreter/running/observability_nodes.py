"""Node behaviours of the observability fixtures (conformance-adapter §5.1; the directory header).

Each is a node directive (listed in ``node_table.NODE_DIRECTIVES``) run in document order with the node's
other directives (§8.3). What they call is the runtime's own API: ``complete()`` on the real
``OpenAIProvider`` over the case's captured wire (``harness.instruments.services["llm"]``),
``set_invocation_metadata`` / ``get_invocation_metadata``, ``with_tool_call``, the stdlib
``logging`` bridged to OTel by the runtime's ``install_log_bridge``, and — for the isolation case —
the OTel *global* tracer.
"""

from __future__ import annotations

import logging
from typing import Any

from ...ast.nodes import Mapping, Scalar, Section
from .behaviors import NodeContext, NotImplementedDirective
from .middleware import BuildSite, TransientMarkerError, retry_middleware
from ...model.errors import HarnessPrimitiveMissing
from .harness import Harness, Instruments, _current_invocation
from ...model.synthetic import synthetic_base64
from ...model.trace.record import BARRIER  # the middleware-log kind a barrier logs each outcome under
from ...ast.values import literal, repeated_text
from ...model.vocabulary import VOCABULARY
from ...model.vocabulary.observability import STATE_OPERATIONS

# The logger `emits_log` records go through (capabilities/otel_capture.py routes them per case);
# its own level, so the root logger's default WARNING threshold does not swallow INFO records.
NODE_LOGGER = logging.getLogger("oa_conformance.node")
NODE_LOGGER.setLevel(logging.DEBUG)


# ---------------------------------------------------------------------------------------------
# State and logging


async def update_pure_from_state(ctx: NodeContext, spec: Mapping) -> None:
    """`update_pure_from_state: {<output>: <operation>}` — each output the named operation of the
    node's input state (``vocabulary.observability.STATE_OPERATIONS``: the input field and its multiplier)."""
    for output, operation in spec.items():
        found = STATE_OPERATIONS.get(operation.value)
        if found is None:
            raise HarnessPrimitiveMissing(f"state operation {operation.value!r}", operation.span)
        field, multiplier = found
        ctx.partial[output] = ctx.field(field) * multiplier


async def emits_log(ctx: NodeContext, spec: Section) -> None:
    level = spec.level
    name = level.value.upper() if level is not None else "INFO"
    number = logging.getLevelName(name)
    if not isinstance(number, int):
        raise HarnessPrimitiveMissing(f"log level {name!r}", level.span)
    NODE_LOGGER.log(number, spec.message.value)


async def global_span(ctx: NodeContext, spec: Section) -> None:
    """A span through the OTel global TracerProvider, as application code beside openarmature would."""
    from opentelemetry import trace

    with trace.get_tracer("oa_conformance.application").start_as_current_span(spec.span_name.value):
        pass


# ---------------------------------------------------------------------------------------------
# Invocation metadata (observability §3.4)


def _set_metadata(ctx: NodeContext, entries: dict[str, Any]) -> None:
    """``set_invocation_metadata`` at the call site; the accepted write is logged (what the
    augmentation predicates read: which keys node code added), a rejection is recorded (the
    call-site check) and propagates out of the node like any error a node body raises."""
    from ...host.observability import set_invocation_metadata

    try:
        set_invocation_metadata(**entries)
    except Exception as rejected:
        ctx.harness.log.middleware_log.append(("call_site_rejected", {
            "call": "set_invocation_metadata", "node": ctx.name, "type": type(rejected).__name__, "message": str(rejected)}))
        raise
    ctx.harness.log.middleware_log.append(("metadata_write", {"node": ctx.name, "entries": dict(entries)}))


async def augment_metadata(ctx: NodeContext, spec: Mapping) -> None:
    _set_metadata(ctx, literal(spec))


async def augment_metadata_from_field(ctx: NodeContext, spec: Mapping) -> None:
    _set_metadata(ctx, {key: ctx.field(field.value) for key, field in spec.items()})


async def capture_metadata(ctx: NodeContext, spec: Scalar) -> None:
    """Write a copy of the read into the state field, then log the read itself (its kind, and
    whether the harness could change it: capabilities/metadata_reads.py)."""
    from ...host.observability import get_invocation_metadata

    reads = ctx.harness.instruments.services.get("metadata_reads")
    if reads is None:
        raise HarnessPrimitiveMissing("capture_invocation_metadata_into: no metadata-read log in this directory's harness", spec.span)
    value = get_invocation_metadata()
    ctx.partial[spec.value] = dict(value)
    reads.record(ctx.name, spec.value, value)


# ---------------------------------------------------------------------------------------------
# Queryable observers (observability §9; capabilities/queryable_observers.py)


def _queryable(ctx: NodeContext, spec: Section) -> Any:
    observers = ctx.harness.instruments.services.get("queryable_observers", {})
    observer = observers.get(spec.observer_name.value)
    if observer is None:
        raise HarnessPrimitiveMissing(f"no queryable observer {spec.observer_name.value!r} in this case", spec.observer_name.span)
    return observer


def _current_invocation_id() -> str:
    from ...host.observability import current_invocation_id

    return current_invocation_id()


def _bucket_or_empty(observer: Any) -> dict[str, Any]:
    """The current invocation's bucket, or the empty mapping when it has none (yet): the §9.4
    lifecycle sidecar reads an absent bucket as "empty / not-present", and the field it lands in is
    a mapping, so ``None`` would fail the runtime's state validation, not the assertion on the read."""
    bucket = observer.get_bucket(_current_invocation_id())
    return {} if bucket is None else bucket


# The read methods `capture_queryable_observer_read_into.method` names: observer -> value.
QUERYABLE_READS = {
    "get_count": lambda observer: observer.get_count(),
    "get_snapshot": lambda observer: observer.get_snapshot(),
    "get_bucket_for_current_invocation": _bucket_or_empty,
}


async def capture_queryable_read(ctx: NodeContext, spec: Section) -> None:
    method = spec.method.value
    read = QUERYABLE_READS.get(method)
    if read is None:
        raise HarnessPrimitiveMissing(f"queryable observer read {method!r}", spec.method.span)
    observer = _queryable(ctx, spec)
    try:
        value = read(observer)
    except Exception as error:  # §9.2: whether a read raised is asserted, so it is logged, then propagates
        observer.record_read(ctx.name, method, error=error)
        raise
    observer.record_read(ctx.name, method, value)
    ctx.partial[spec.state_field.value] = value


async def drop_for_current_invocation(ctx: NodeContext, spec: Section) -> None:
    _queryable(ctx, spec).drop(_current_invocation_id())


async def bucket_absent_into(ctx: NodeContext, spec: Scalar) -> None:
    """Re-read the bucket of the observer the node just dropped from: absent → true."""
    drop = ctx.decl.then_drop_for_current_invocation
    ctx.partial[spec.value] = _queryable(ctx, drop).get_bucket(_current_invocation_id()) is None


# ---------------------------------------------------------------------------------------------
# Retried nodes (observability §3.4 per-attempt scoping; pipeline-utilities §6.1)


# The harness errors `per_attempt_behavior` may raise, by the fixture's name.
HARNESS_ERRORS = {"transient_marker_error": TransientMarkerError}

def node_retry_middleware(spec: Section, site: BuildSite, node: str) -> Any:
    """The runtime's RetryMiddleware around this one node."""
    return retry_middleware(spec, site, node)


# `per_attempt_behavior` entry keys it reads itself (the others are node directives).
ATTEMPT_KEYS = VOCABULARY.handled_by("attempt_behavior", ("part",))


async def per_attempt_behavior(ctx: NodeContext, spec: Any) -> None:
    """On the attempt the runtime is running (its attempt index), the entry for that attempt: its
    node directives in document order, then `raises:` a harness error (or `succeeds: true`)."""
    from ...host.observability import current_attempt_index

    attempt = current_attempt_index()
    entry = next((item for item in spec.items if item.attempt.value == attempt), None)
    if entry is None:
        raise HarnessPrimitiveMissing(f"per_attempt_behavior has no entry for attempt {attempt}", spec.span)
    for key, value in entry.items():
        if key in ATTEMPT_KEYS:
            continue
        handler = ctx.steps.get(key)
        if handler is None:
            raise NotImplementedDirective(f"per_attempt_behavior.{key}", entry.key_span(key))
        await handler(ctx, value)
    raised = entry.raises
    if raised is not None:
        error = HARNESS_ERRORS.get(raised.value)
        if error is None:
            raise HarnessPrimitiveMissing(f"harness error {raised.value!r}", raised.span)
        raise error(f"{ctx.name} raises {raised.value} on attempt {attempt}")


# ---------------------------------------------------------------------------------------------
# LLM calls


def expand_message(message: Any) -> Any:
    """A fixture message with its harness primitives expanded: ``content_repeat: {char, bytes}``
    (a long text content) and an image source's ``base64_data_synthetic: {bytes}``."""
    if isinstance(message, dict):
        message = dict(message)
        repeat = message.pop("content_repeat", None)
        if repeat is not None:
            message["content"] = repeated_text(repeat["char"], repeat["bytes"])
        synthetic = message.pop("base64_data_synthetic", None)
        if synthetic is not None:
            message["base64_data"] = synthetic_base64(synthetic["bytes"])
        return {key: expand_message(value) for key, value in message.items()}
    if isinstance(message, list):
        return [expand_message(item) for item in message]
    return message


def llm_arguments(spec: Section) -> dict[str, Any]:
    """The ``complete()`` arguments a call block describes, as the runtime's own types."""
    from pydantic import TypeAdapter
    from ...host.llm import Message, Tool, runtime_config

    messages = expand_message(literal(spec.messages)) if spec.messages is not None else []
    arguments: dict[str, Any] = {"messages": TypeAdapter(list[Message]).validate_python(messages)}
    if spec.get("tools") is not None:
        arguments["tools"] = [Tool(**tool) for tool in literal(spec.tools)]
    if spec.get("config") is not None:
        arguments["config"] = runtime_config(literal(spec.config))
    if spec.get("response_schema") is not None:
        arguments["response_schema"] = literal(spec.response_schema)
    return arguments


# calls_llm / calls_llm_from_wrapper keys the call reads; any other one fails the case as not implemented.
LLM_CALL_KEYS = VOCABULARY.handled_by("obs_llm_call", ("part",)) | VOCABULARY.handled_by("obs_llm_wrapper_call", ("part",))


async def call_llm(instruments: Instruments, spec: Section, directive: str, prompt: Any = None) -> Any:
    for key in spec.order:
        if key not in LLM_CALL_KEYS:
            raise NotImplementedDirective(f"{directive}.{key}", spec.key_span(key))
    providers = instruments.services.get("llm")
    if providers is None:
        raise HarnessPrimitiveMissing(f"{directive}: no mock LLM provider in this directory's harness", spec.span)
    model = spec.get("model")
    provider = providers.provider(model.value if model is not None else None, spec.span)
    arguments = llm_arguments(spec)
    if spec.messages is None and prompt is not None:  # a `renders_prompt` earlier in the body
        arguments["messages"] = prompt.messages
    response = await provider.complete(**arguments)
    providers.record(response, _current_invocation())
    return response


async def calls_llm(ctx: NodeContext, spec: Section) -> None:
    response = await call_llm(ctx.harness.instruments, spec, "calls_llm", ctx.prompt)
    target = spec.stores_response_in
    if target is not None:
        ctx.partial[target.value] = response.message.content


def llm_from_wrapper(spec: Section, site: BuildSite, node: str) -> Any:
    """A middleware around the node that makes one `complete()` before `next()` (`phase: pre`, the
    default) or after it returns (`post`): a call made while the node's own span is not open.

    With `await_event_delivery: true` (conformance-adapter §5.1, proposal 0124) the wrapper holds a
    barrier right after its call: it proceeds past the call site (for `pre`, into `next()`) only once
    that call's provider event has reached every observer, and the case fails if it did not hold.
    With `false` the wrapper goes straight on. Without the key (the fixtures before 0124) a `pre`
    wrapper lets its call's event be delivered before `next()`, unjudged: the earlier §5.1 contract
    is that the node's span is not open when the provider span is *emitted*, and the runtime emits
    it on the delivery queue while the node's span opens synchronously inside `next()`."""
    phase = spec.phase
    before = phase is None or phase.value == "pre"
    barrier = spec.await_event_delivery
    awaits = barrier is not None and bool(barrier.value)
    at = spec.key_span("await_event_delivery") if awaits else None  # the directive, where its check points
    if awaits:  # declared, so judged: a barrier that never runs fails the case (barrier_checks)
        declared = {"node": node, "line": at.line, "column": at.column}
        barriers = site.draft.wiring.setdefault("barriers", [])
        if declared not in barriers:  # a subgraph built again for another caller is the same directive
            barriers.append(declared)
    harness = site.harness

    async def call() -> None:
        await call_llm(harness.instruments, spec, "calls_llm_from_wrapper")
        if awaits:
            await _event_delivery_barrier(harness, node, at)
        elif barrier is None and before:
            await harness.graph.compiled.drain_events_for(_current_invocation_id(), timeout=BARRIER_TIMEOUT_S)

    async def wrapper(state: Any, next_: Any) -> Any:
        if before:
            await call()
        partial = await next_(state)
        if not before:
            await call()
        return partial

    wrapper.__name__ = f"calls_llm_from_wrapper_{node}"
    return wrapper


# How long a barrier waits for its call's event to reach the observers (a stuck observer is the
# runtime's defect, reported as the barrier not holding, not a hang of the harness).
BARRIER_TIMEOUT_S = 5.0
# The middleware-log kind of a barrier's outcome (docs/TRACE.md).
# The provider event a returned complete() dispatched (llm-provider §9: one per completed call).
COMPLETION_EVENT = "LlmCompletionEvent"


async def _event_delivery_barrier(harness: Harness, node: str, span: Any) -> None:
    """Drain this invocation's events (the runtime's ``drain_events_for``: every event dispatched
    before the call, and a returned ``complete()`` has dispatched its own), then check the drain did
    what it says: every recording observer (attached after the capability observers, and the
    runtime delivers one event to all observers before the next) has received as many completion
    events of this invocation as its calls returned so far. ``drain_events_for`` answers an id with
    no live worker with a clean summary, so the summary alone cannot prove the barrier held.

    The outcome is logged, not raised: a raise inside middleware under a fan-out's `collect` policy
    becomes a dropped error record, and the case could still pass. ``barrier_checks`` judges it."""
    invocation = _current_invocation_id()
    returned = harness.instruments.services["llm"].returned_in(invocation)
    summary = await harness.graph.compiled.drain_events_for(invocation, timeout=BARRIER_TIMEOUT_S)
    delivered = {name: sum(1 for observer, run, event in harness.log.deliveries
                           if observer == name and run == invocation and event["type"] == COMPLETION_EVENT)
                 for name in harness.instruments.observers}
    held = (not summary.timeout_reached and bool(delivered)
            and all(count >= returned for count in delivered.values()))
    harness.log.middleware_log.append((BARRIER, {
        "node": node, "line": span.line, "column": span.column, "held": held, "completed_calls": returned,
        "completion_events_delivered": delivered, "timeout_reached": summary.timeout_reached,
        "undelivered_count": summary.undelivered_count}))


# ---------------------------------------------------------------------------------------------
# Tool calls (observability §5.5.11)


class HarnessToolError(Exception):
    """What a mock tool raises; its type name is the fixture's ``error_type``."""


def tool_error(error_type: str, message: str) -> Exception:
    """An exception whose class name is the fixture's ``error_type`` (the events carry the name)."""
    return type(error_type, (HarnessToolError,), {})(message)


async def calls_tool(ctx: NodeContext, spec: Section) -> None:
    from ...host.observability import with_tool_call

    arguments = literal(spec.arguments) if spec.arguments is not None else {}
    call_id = spec.tool_call_id
    mock = spec.mock_tool
    with with_tool_call(spec.tool_name.value, arguments, tool_call_id=call_id.value if call_id is not None else None) as scope:
        if mock.raises is not None:
            raise tool_error(mock.raises.error_type.value, mock.raises.message.value)
        result = literal(mock.returns)
        scope.set_result(result)
    target = spec.stores_result_in
    if target is not None:
        ctx.partial[target.value] = result


__all__ = ["NODE_LOGGER", "call_llm", "expand_message", "llm_arguments"]
