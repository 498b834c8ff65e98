"""Harness behaviours: the node bodies, routing functions and test middleware a fixture describes.

These are the only parts of a graph the adapter writes itself, because the fixture describes them
as data: "this node returns {v: 1}", "this node fails twice then succeeds", "this middleware logs a
marker". Each directive family has one handler, registered by name in :data:`NODE_DIRECTIVES`;
a node body runs its directives in document order (§8.3). The runtime's own primitives —
retry, timing and failure-isolation middleware, drains — are constructed here, never imitated.

To support a new node directive: write ``async def handler(ctx, spec)`` and register it with
``@node_directive("name")``. A directive the vocabulary knows but no handler serves makes the case
fail as "not implemented: <directive>".
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from openarmature import graph as oa

from ..ast.nodes import Mapping, Scalar, Section
from .harness import Harness, HarnessPrimitiveMissing, HarnessRaised
from .values import literal


class NotImplementedDirective(Exception):
    """A directive the vocabulary accepts but this adapter cannot execute yet."""

    def __init__(self, directive: str, span: Any = None):
        super().__init__(f"not implemented: {directive}")
        self.directive = directive
        self.span = span


@dataclass
class NodeContext:
    """What one running node body can see: its state, its partial update, the harness."""

    name: str
    decl: Section
    state: Any
    partial: dict
    harness: Harness

    def field(self, name: str) -> Any:
        return getattr(self.state, name)


Handler = Callable[[NodeContext, Any], Awaitable[None]]
NODE_DIRECTIVES: dict[str, Handler] = {}
# Directives read by a sibling's handler rather than run on their own.
MODIFIERS = frozenset(("error_category", "middleware", "wrap_with_middleware", "inputs", "outputs", "mapping", "projects_in", "projects_out"))


def node_directive(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        NODE_DIRECTIVES[name] = handler
        return handler

    return register


def node_body(name: str, decl: Section, harness: Harness) -> Callable[[Any], Awaitable[dict]]:
    """The async node function for a node declared by behaviour directives."""
    steps = []
    for directive, spec in decl.items():
        if directive in MODIFIERS:
            continue
        handler = NODE_DIRECTIVES.get(directive)
        if handler is None:
            raise NotImplementedDirective(directive, decl.key_span(directive))
        steps.append((handler, spec))

    async def body(state: Any) -> dict:
        ctx = NodeContext(name, decl, state, {}, harness)
        for handler, spec in steps:
            await handler(ctx, spec)
        return ctx.partial

    body.__name__ = body.__qualname__ = f"fixture_node_{name}"
    return body


# ---------------------------------------------------------------------------------------------
# Node directives


@node_directive("update")
@node_directive("update_pure")
async def _update(ctx: NodeContext, spec: Mapping) -> None:
    ctx.partial.update(literal(spec))


@node_directive("update_from_field")
async def _update_from_field(ctx: NodeContext, spec: Mapping) -> None:
    mapping = literal(spec)
    multiplier = mapping.pop("multiplier", 1)
    for target, source in mapping.items():
        ctx.partial[target] = ctx.field(source) * multiplier


@node_directive("noop")
async def _noop(ctx: NodeContext, spec: Scalar) -> None:
    return None


@node_directive("sleep_ms")
async def _sleep(ctx: NodeContext, spec: Scalar) -> None:
    await asyncio.sleep(spec.value / 1000.0)


@node_directive("raises")
async def _raises(ctx: NodeContext, spec: Any) -> None:
    if isinstance(spec, Scalar):
        category = ctx.decl.get("error_category")
        raise HarnessRaised(spec.value, category.value if category is not None else None)
    raise raised_error(spec)


def raised_error(spec: Section) -> HarnessRaised:
    """The error a structured failure spec (`{category, message, cause}`) describes, cause-chained."""
    category = spec.get("category")
    message = spec.get("message")
    transient = spec.get("transient")
    error = HarnessRaised(
        message.value if isinstance(message, Scalar) and message.value is not None else "harness failure",
        category.value if isinstance(category, Scalar) else None,
        transient.value if isinstance(transient, Scalar) else None,
    )
    cause = spec.get("cause")
    if cause is not None:
        error.__cause__ = raised_error(cause)
    return error


@node_directive("flaky")
async def _flaky(ctx: NodeContext, spec: Section) -> None:
    if spec.get("fail_first_invocation_only") is not None:
        if spec.fail_first_invocation_only.value and ctx.harness.invocation_index == 0:
            raise HarnessRaised(f"{ctx.name} fails its first invocation", "node_exception")
        ctx.partial.update(success_update(ctx, spec.get("on_success")))
        return
    sequence = spec.get("failure_sequence")
    attempt = ctx.harness.count_attempt(("flaky", ctx.name))
    entries = sequence.items if sequence is not None else ()
    if attempt < len(entries):
        entry = entries[attempt]
        if isinstance(entry, Section):
            raise raised_error(entry)
    ctx.partial.update(success_update(ctx, spec.get("success_update") or spec.get("on_success")))


def success_update(ctx: NodeContext, spec: Any) -> dict:
    """A success-path update: a value naming a declared state field reads that field (§5.1)."""
    update = literal(spec) if spec is not None else {}
    fields = type(ctx.state).model_fields
    return {key: ctx.field(value) if isinstance(value, str) and value in fields else value for key, value in update.items()}


@node_directive("invoke_drain_events_for")
async def _drain_events_for(ctx: NodeContext, spec: Section) -> None:
    from openarmature.observability import current_invocation_id

    invocation_id = current_invocation_id()
    summary = await ctx.harness.compiled.drain_events_for(invocation_id, timeout=spec.timeout_seconds.value)
    ctx.harness.node_drains[ctx.name] = {"timeout_reached": summary.timeout_reached, "undelivered_count": summary.undelivered_count}
    observer_name = spec.get("snapshot_observer")
    if observer_name is not None:
        observer = ctx.harness.observers.get(observer_name.value)
        if observer is None:
            raise HarnessPrimitiveMissing(f"observer {observer_name.value!r} to snapshot", observer_name.span)
        ctx.harness.node_snapshots[ctx.name] = {observer_name.value: observer.snapshot(invocation_id)}


# ---------------------------------------------------------------------------------------------
# Routing


def condition_function(condition: Section, declared_to: Scalar | None) -> Callable[[Any], Any]:
    """The routing function of a conditional edge."""

    def destination(name: Any) -> Any:
        return oa.END if name == "END" else name

    callable_name = condition.get("callable")
    if callable_name is None:
        field_name = condition.if_field.value
        expected = literal(condition.get("equals"))
        then, otherwise = condition.then.value, condition.get("else").value

        def route(state: Any) -> Any:
            return destination(then if getattr(state, field_name) == expected else otherwise)

        return route
    factory = ROUTING_CALLABLES.get(callable_name.value)
    if factory is None:
        raise HarnessPrimitiveMissing(f"routing callable {callable_name.value!r}", callable_name.span)
    return factory(condition, destination)


def _state_field_read(condition: Section, destination: Callable) -> Callable:
    field_name = condition.field.value

    def route(state: Any) -> Any:
        extra = getattr(state, "__pydantic_extra__", None) or {}
        value = getattr(state, field_name, extra.get(field_name))
        return destination(value)

    return route


def _edge_raises(condition: Section, destination: Callable) -> Callable:
    message = condition.get("message")
    text = message.value if message is not None else "edge function raised"

    def route(state: Any) -> Any:
        raise HarnessRaised(text)

    return route


ROUTING_CALLABLES = {"state_field_read": _state_field_read, "edge_raises": _edge_raises}


# ---------------------------------------------------------------------------------------------
# Middleware


def build_middleware(spec: Section, harness: Harness, node_name: str | None) -> Any:
    """One middleware entry → a runtime middleware (built-in) or a harness test middleware."""
    kind = spec.get("type")
    name = kind.value if kind is not None else (spec.name.value if spec.get("name") is not None else None)
    factory = MIDDLEWARE.get(name)
    if factory is None:
        raise HarnessPrimitiveMissing(f"middleware type {name!r}", spec.span)
    return factory(spec, harness, node_name)


def _backoff(spec: Section | None):
    if spec is None:
        return oa.deterministic_backoff(0.0)
    kind = spec.get("type")
    if kind is not None and kind.value != "deterministic":
        raise HarnessPrimitiveMissing(f"backoff type {kind.value!r}", kind.span)
    seconds = spec.get("seconds")
    return oa.deterministic_backoff(float(seconds.value) if seconds is not None else 0.0)


def _classifier(spec: Any):
    if spec is None:
        return None
    if isinstance(spec, Section) and spec.get("transient_categories") is not None:
        categories = frozenset(literal(spec.transient_categories))

        def classify(exc: BaseException, state: Any) -> bool:
            return any(getattr(e, "category", None) in categories for e in _chain(exc))

        return classify
    kind = spec.type.value if isinstance(spec, Section) else spec.value
    raise HarnessPrimitiveMissing(f"retry classifier {kind!r}", spec.span)


def _chain(exc: BaseException | None):
    while exc is not None:
        yield exc
        exc = exc.__cause__


def _retry(spec: Section, harness: Harness, node_name: str | None) -> Any:
    attempts = spec.get("max_attempts")
    config = oa.RetryConfig(
        max_attempts=attempts.value if attempts is not None else 3,
        classifier=_classifier(spec.get("classifier")),
        backoff=_backoff(spec.get("backoff")),
    )
    return oa.RetryMiddleware(config)


def _timing(spec: Section, harness: Harness, node_name: str | None) -> Any:
    log = harness.middleware_log

    async def on_complete(record: Any) -> None:
        log.append(("timing", {"node_name": record.node_name, "duration_ms": record.duration_ms,
                               "outcome": record.outcome, "exception_category": record.exception_category}))

    name = spec.get("node_name")
    return oa.TimingMiddleware(node_name=name.value if name is not None else node_name, on_complete=on_complete, clock=harness.clock)


def _failure_isolation(spec: Section, harness: Harness, node_name: str | None) -> Any:
    options: dict[str, Any] = {}
    degraded = spec.get("degraded_update")
    options["degraded_update"] = literal(degraded) if degraded is not None else {}
    event_name = spec.get("event_name")
    options["event_name"] = event_name.value if event_name is not None else "failure_isolated"
    catch = spec.get("catch")
    if catch is not None:
        options["catch"] = frozenset(literal(catch))
    predicate = spec.get("predicate")
    if predicate is not None:
        category = predicate.matches_category.value
        options["predicate"] = lambda exc: any(getattr(e, "category", None) == category for e in _chain(exc))
    if spec.get("on_caught") is not None:
        raise NotImplementedDirective("failure_isolation.on_caught", spec.key_span("on_caught"))
    return oa.FailureIsolationMiddleware(**options)


_markers = itertools.count()


def _trace_recorder(spec: Section, harness: Harness, node_name: str | None) -> Any:
    """Records (state_in, partial_update_returned) per dispatch and optional pre/post markers."""
    name = spec.get("name").value if spec.get("name") is not None else f"recorder{next(_markers)}"
    pre = spec.get("pre_marker")
    post = spec.get("post_marker")
    log = harness.middleware_log

    async def trace_recorder(state: Any, next_: Any) -> Any:
        if pre is not None:
            log.append(("marker", pre.value))
        state_in = state.model_dump()
        partial = await next_(state)
        if post is not None:
            log.append(("marker", post.value))
        log.append(("trace", name, {"state_in": state_in, "partial_update_returned": dict(partial)}))
        return partial

    return trace_recorder


def _short_circuit(spec: Section, harness: Harness, node_name: str | None) -> Any:
    update = literal(spec.get("partial_update")) if spec.get("partial_update") is not None else {}

    async def short_circuit(state: Any, next_: Any) -> Any:
        return dict(update)

    return short_circuit


def _error_recovery(spec: Section, harness: Harness, node_name: str | None) -> Any:
    update = literal(spec.get("partial_update")) if spec.get("partial_update") is not None else {}

    async def error_recovery(state: Any, next_: Any) -> Any:
        try:
            return await next_(state)
        except Exception:  # the fixture's recovery middleware catches the chain's exception by design
            return dict(update)

    return error_recovery


MIDDLEWARE: dict[str, Callable[[Section, Harness, str | None], Any]] = {
    "retry": _retry,
    "timing": _timing,
    "failure_isolation": _failure_isolation,
    "trace_recorder": _trace_recorder,
    "short_circuit": _short_circuit,
    "error_recovery": _error_recovery,
}
