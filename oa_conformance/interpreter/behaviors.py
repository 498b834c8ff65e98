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
import contextlib
import contextvars
import itertools
import re
import dataclasses
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from ..host import graph as oa

from ..ast.nodes import Mapping, Scalar, Section
from ..errors import HarnessPrimitiveMissing
from .harness import Harness, HarnessRaised, timed_drain
from ..values import literal


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
    # Contexts a directive opens for the rest of the node body (an active prompt), closed when it ends.
    scope: contextlib.ExitStack = dataclasses.field(default_factory=contextlib.ExitStack)
    prompt: Any = None  # the PromptResult a `renders_prompt` rendered, for a later call without messages

    def field(self, name: str) -> Any:
        return getattr(self.state, name)


Handler = Callable[[NodeContext, Any], Awaitable[None]]
NODE_DIRECTIVES: dict[str, Handler] = {}
# Directives the graph build applies around the body (middleware) or a sibling handler reads.
MODIFIERS = frozenset(("error_category", "middleware", "wrap_with_middleware"))
# Subgraph boundary directives: they mean something only on a node that runs a subgraph.
PROJECTIONS = frozenset(("inputs", "outputs", "mapping", "projects_in", "projects_out"))


# Node directives that are middleware around the node rather than steps of its body (a call made
# before / after ``next()``): directive -> factory(spec, harness, node_name) -> middleware.
NODE_MIDDLEWARE: dict[str, Callable[[Any, Harness, str], Any]] = {}


def node_middleware(name: str) -> Callable:
    def register(factory: Callable) -> Callable:
        NODE_MIDDLEWARE[name] = factory
        return factory

    return register


def node_directive(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        NODE_DIRECTIVES[name] = handler
        return handler

    return register


def node_body(name: str, decl: Section, harness: Harness) -> Callable[[Any], Awaitable[dict]]:
    """The async node function for a node declared by behaviour directives."""
    steps = []
    for directive, spec in decl.items():
        if directive in MODIFIERS or directive in NODE_MIDDLEWARE:
            continue
        if directive in PROJECTIONS:
            raise NotImplementedDirective(f"{directive} on a node that runs no subgraph", decl.key_span(directive))
        handler = NODE_DIRECTIVES.get(directive)
        if handler is None:
            raise NotImplementedDirective(directive, decl.key_span(directive))
        steps.append((handler, spec))

    async def body(state: Any) -> dict:
        if harness.invocation.crash is not None and harness.invocation.crash.fired:  # an injected crash: the process is gone
            raise asyncio.CancelledError()
        ctx = NodeContext(name, decl, state, {}, harness)
        harness.log.node_log.append(_body_event("entered", name))
        try:
            if harness.instruments.concurrency_markers:  # let siblings start: overlap is what is measured
                await asyncio.sleep(0)
            with ctx.scope:
                for handler, spec in steps:
                    await handler(ctx, spec)
        except BaseException:
            harness.log.node_log.append(_body_event("raised", name))
            raise
        harness.log.node_log.append(_body_event("returned", name))
        return ctx.partial

    body.__name__ = body.__qualname__ = f"fixture_node_{name}"
    return body


def composite_prelude(name: str, decl: Section, harness: Harness) -> Callable | None:
    """A middleware running the behaviour directives a composite node (subgraph, fan-out, parallel
    branches) declares beside its composition key — an `emits_log` on a subgraph node — just before
    the runtime dispatches it: the runtime runs no body of ours there, so without this the
    directives would be silently dropped. None when the node declares none. A state write among them
    has nowhere to go (the composite's output is its projection), so it is not implemented."""
    steps = [(NODE_DIRECTIVES[directive], directive, spec) for directive, spec in decl.items() if directive in NODE_DIRECTIVES]
    if not steps:
        return None

    async def prelude(state: Any, next_: Any) -> Any:
        ctx = NodeContext(name, decl, state, {}, harness)
        with ctx.scope:
            for handler, directive, spec in steps:
                await handler(ctx, spec)
                if ctx.partial:
                    raise NotImplementedDirective(f"{directive}: a state write on a composite node", decl.key_span(directive))
        return await next_(state)

    prelude.__name__ = f"composite_prelude_{name}"
    return prelude


def _body_event(event: str, name: str) -> dict[str, Any]:
    """A node-body log row: where the runtime says the body runs (its context, read in the body;
    the namespace is the runtime's, ending with the node itself)."""
    from ..host import observability as obs
    from ..host.observability import current_fan_out_index_chain

    return {"event": event, "node": name, "namespace": obs.current_namespace_prefix(), "fan_out_index": obs.current_fan_out_index(),
            "fan_out_index_chain": current_fan_out_index_chain(), "attempt_index": obs.current_attempt_index(),
            "invocation_id": obs.current_invocation_id(), "correlation_id": obs.current_correlation_id()}


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
    kind = spec.get("exception_kind")
    if kind is not None:  # a bare host exception, no category (e.g. `exception_kind: ValueError`)
        message = spec.get("message")
        raise builtin_exception(kind)(message.value if message is not None else "harness failure")
    raise raised_error(spec)


def builtin_exception(kind: Scalar) -> type[Exception]:
    """The built-in exception class an `exception_kind` names (Python's spelling of the kind)."""
    import builtins

    found = getattr(builtins, str(kind.value), None)
    if not (isinstance(found, type) and issubclass(found, Exception)):
        raise HarnessPrimitiveMissing(f"exception_kind {kind.value!r} (not a built-in exception type)", kind.span)
    return found


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
    return with_cause(error, spec)


def with_cause(error: HarnessRaised, spec: Section) -> HarnessRaised:
    """``error`` chained to the originating cause the spec's `cause` describes, if any (§5.1)."""
    cause = spec.get("cause")
    if cause is not None:
        error.__cause__ = raised_error(cause)
    return error


@node_directive("flaky")
async def _flaky(ctx: NodeContext, spec: Section) -> None:
    if spec.get("fail_first_invocation_only") is not None:
        if spec.fail_first_invocation_only.value and ctx.harness.invocation.index == 0:
            raise HarnessRaised(f"{ctx.name} fails its first invocation", "node_exception")
        ctx.partial.update(success_update(ctx, spec.get("on_success")))
        return
    sequence = spec.get("failure_sequence")
    attempt = ctx.harness.log.count_attempt(("flaky", ctx.name))
    entries = sequence.items if sequence is not None else ()
    fail_count = spec.get("fail_count")  # the compact count form: fail the first N attempts
    if fail_count is not None and attempt < fail_count.value:
        category = spec.get("category")
        raise runtime_error(category.value if category is not None else "node_exception", f"{ctx.name} fails attempt {attempt}")
    if attempt < len(entries):
        entry = entries[attempt]
        if isinstance(entry, Section):
            raise raised_error(entry)
    ctx.partial.update(success_update(ctx, spec.get("success_update") or spec.get("on_success")))


def runtime_error(category: str, message: str) -> Exception:
    """The runtime's own error class for a category it defines (an LLM provider category raises
    e.g. ``ProviderRateLimit``, as a real provider call would); otherwise a harness error carrying it."""
    from ..host.llm import provider_error_classes

    for value in provider_error_classes():
        if getattr(value, "category", None) == category:
            try:
                return value(message)
            except TypeError:  # a class whose constructor needs more than a message
                break
    return HarnessRaised(message, category)


def success_update(ctx: NodeContext, spec: Any) -> dict:
    """A success-path update: a value naming a declared state field reads that field (§5.1)."""
    update = literal(spec) if spec is not None else {}
    fields = type(ctx.state).model_fields
    return {key: ctx.field(value) if isinstance(value, str) and value in fields else value for key, value in update.items()}


# The fan-out failure mocks (§5.1). An instance is identified by the runtime's fan-out index chain
# (read inside the body), so nested instances and retried instances are told apart.


def _instance() -> tuple[int | None, ...]:
    from ..host.observability import current_fan_out_index_chain

    return tuple(current_fan_out_index_chain())


def _mock_failure(ctx: NodeContext, spec: Section, why: str, default_category: str | None = None) -> HarnessRaised:
    category = spec.get("category")
    return with_cause(HarnessRaised(f"{ctx.name} {why}", category.value if category is not None else default_category), spec)


@node_directive("flaky_by_index")
async def _flaky_by_index(ctx: NodeContext, spec: Section) -> None:
    """`fail_when_idx`: the instance whose item value equals it fails, every attempt;
    `fail_count_per_idx`: every instance fails its first N attempts. Category default provider_unavailable."""
    when = spec.get("fail_when_idx")
    if when is not None and _item_value(ctx, when) == when.value:
        raise _mock_failure(ctx, spec, f"fails for item {when.value}", "provider_unavailable")
    count = spec.get("fail_count_per_idx")
    if count is not None and ctx.harness.log.count_attempt(("flaky_by_index", ctx.name, _instance())) < count.value:
        raise _mock_failure(ctx, spec, "fails this attempt", "provider_unavailable")
    ctx.partial.update(success_update(ctx, spec.get("success_compute")))


def _item_value(ctx: NodeContext, spec: Scalar) -> Any:
    """The fan-out item of the running instance: its state's item_field, from the nearest fan-out."""
    from ..host.observability import current_namespace_prefix

    for node in reversed(current_namespace_prefix()):
        item_field = ctx.harness.graph.fan_out_item_fields.get(node)
        if item_field is not None:
            return getattr(ctx.state, item_field, None)
    raise HarnessPrimitiveMissing("flaky_by_index.fail_when_idx outside an items_field fan-out instance", spec.span)


@node_directive("flaky_per_index")
async def _flaky_per_index(ctx: NodeContext, spec: Section) -> None:
    """Invocation-keyed: `fail_first_run_indices` fail on the case's first invocation only,
    `always_fail_indices` on every invocation (the index is the runtime's fan_out_index)."""
    from ..host.observability import current_fan_out_index

    index = current_fan_out_index()
    first = literal(spec.get("fail_first_run_indices")) or []
    always = literal(spec.get("always_fail_indices")) or []
    if index in always or (index in first and ctx.harness.invocation.index == 0):
        raise _mock_failure(ctx, spec, f"fails for fan-out index {index}")
    ctx.partial.update(success_update(ctx, spec.get("success_compute")))


@node_directive("flaky_instance_only")
async def _flaky_instance_only(ctx: NodeContext, spec: Section) -> None:
    """Each fan-out instance fails its first `fail_count_per_instance` runs of this node (one per
    whole-instance attempt), then succeeds."""
    attempt = ctx.harness.log.count_attempt(("flaky_instance_only", ctx.name, _instance()))
    if attempt < spec.fail_count_per_instance.value:
        raise _mock_failure(ctx, spec, f"fails instance attempt {attempt}")
    ctx.partial.update(success_update(ctx, spec.get("success_compute")))


@node_directive("flaky_resume_aware")
async def _flaky_resume_aware(ctx: NodeContext, spec: Section) -> None:
    """Fails its first `fail_first_invocation_count` attempts in the case's first invocation and
    its first `fail_resumed_invocation_count` attempts in any later (resumed) invocation."""
    index = ctx.harness.invocation.index
    attempt = ctx.harness.log.count_attempt(("flaky_resume_aware", ctx.name, index, _instance()))
    limit = spec.get("fail_first_invocation_count" if index == 0 else "fail_resumed_invocation_count")
    if limit is not None and attempt < limit.value:
        raise _mock_failure(ctx, spec, f"fails attempt {attempt} of invocation {index}")
    ctx.partial.update(success_update(ctx, spec.get("on_success")))


@node_directive("invoke_drain_events_for")
async def _drain_events_for(ctx: NodeContext, spec: Section) -> None:
    from ..host.observability import current_invocation_id

    invocation_id = current_invocation_id()
    summary = await timed_drain(ctx.harness.graph.compiled.drain_events_for, spec.timeout_seconds.value, invocation_id)
    ctx.harness.invocation.node_drains[ctx.name] = {**summary, "invocation_id": invocation_id,
                                         "delivered_at_return": ctx.harness.delivered(invocation_id)}
    observer_name = spec.get("snapshot_observer")
    if observer_name is not None:
        observer = ctx.harness.instruments.observers.get(observer_name.value)
        if observer is None:
            raise HarnessPrimitiveMissing(f"observer {observer_name.value!r} to snapshot", observer_name.span)
        ctx.harness.invocation.node_snapshots[ctx.name] = {observer_name.value: observer.snapshot(invocation_id)}


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


# The comparisons an edge's `when:` may make (vocabulary: `edge_when`), by directive name.
WHEN_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {"gt": lambda value, bound: value > bound}


def guarded_route(edges: list[Section]) -> Callable[[Any], Any]:
    """The routing function of a node's edges when one carries ``when:``: the first guarded edge
    (in declaration order) whose condition holds, else the unguarded sibling edge, else END."""
    guarded, fallback = [], oa.END
    for edge in edges:
        when, target = edge.get("when"), edge.get("to").value
        target = oa.END if target == "END" else target
        if when is None:
            fallback = target
            continue
        tests = [(WHEN_COMPARISONS[name], literal(when.get(name))) for name in WHEN_COMPARISONS if when.get(name) is not None]
        guarded.append((when.field.value, tests, target))

    def route(state: Any) -> Any:
        for field_name, tests, target in guarded:
            value = getattr(state, field_name)
            if all(test(value, bound) for test, bound in tests):
                return target
        return fallback

    return route


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
# Fan-out count / concurrency (`{field}` or `{callable, field, chunk_size}`, resolved by the runtime)


def count_function(spec: Section) -> Callable[[Any], int]:
    """``state -> int`` for a computed fan-out count or concurrency."""
    callable_name = spec.get("callable")
    name = callable_name.value if callable_name is not None else "state_field_read"
    factory = COUNT_CALLABLES.get(name)
    if factory is None:
        raise HarnessPrimitiveMissing(f"harness callable {name!r}", callable_name.span)
    return factory(spec)


def _count_from_field(spec: Section) -> Callable[[Any], int]:
    """`state_field_read`: the value of ``state.<field>``."""
    return lambda state, f=spec.field.value: getattr(state, f)


def _queue_chunk(spec: Section) -> Callable[[Any], int]:
    """`queue_chunk`: ``max(1, len(state.<field>) // chunk_size)``."""
    return lambda state, f=spec.field.value, size=spec.chunk_size.value: max(1, len(getattr(state, f)) // size)


COUNT_CALLABLES: dict[str, Callable[[Section], Callable[[Any], int]]] = {
    "state_field_read": _count_from_field,
    "queue_chunk": _queue_chunk,
}


# ---------------------------------------------------------------------------------------------
# Middleware


def build_middleware(spec: Section, harness: Harness, node_name: str | None) -> Any:
    """One middleware entry → a runtime middleware (built-in) or a harness test middleware."""
    kind = spec.get("type")
    name = kind.value if kind is not None else (spec.name.value if spec.get("name") is not None else None)
    if name is None and tuple(spec.order) == ("retry",):  # the keyed form `- retry: {max_attempts: …}`
        return retry_middleware(spec.retry, harness, node_name)
    factory = MIDDLEWARE.get(name)
    if factory is None:
        raise HarnessPrimitiveMissing(f"middleware type {name!r}", spec.span)
    return factory(spec, harness, node_name)


def metadata_middleware(entries: dict[str, Any], harness: Any, unit: str) -> Any:
    """A middleware that calls the runtime's ``set_invocation_metadata(**entries)`` before ``next()``:
    the write happens in the wrapped unit's own context (a branch's, an instance's), at the top of its body.
    The accepted write is logged like a node's (``metadata_write``, under the unit's name)."""
    from ..host.observability import set_invocation_metadata

    async def augment(state: Any, next_: Any) -> Any:
        set_invocation_metadata(**entries)
        harness.log.middleware_log.append(("metadata_write", {"node": unit, "entries": dict(entries)}))
        return await next_(state)

    return augment


def _backoff(spec: Section | None):
    if spec is None:
        return oa.deterministic_backoff(0.0)
    kind = spec.get("type")
    if kind is not None and kind.value != "deterministic":
        raise HarnessPrimitiveMissing(f"backoff type {kind.value!r}", kind.span)
    seconds = spec.get("seconds")
    return oa.deterministic_backoff(float(seconds.value) if seconds is not None else 0.0)


# Named retry classifiers a capability directory's header defines (name -> classify(exc, state)),
# registered by that directory's node-directive module.
RETRY_CLASSIFIERS: dict[str, Callable[[BaseException, Any], bool]] = {}


def _classifier(spec: Any):
    if spec is None:
        return None
    if isinstance(spec, Scalar) and spec.value in RETRY_CLASSIFIERS:
        return RETRY_CLASSIFIERS[spec.value]
    if isinstance(spec, Section) and spec.get("transient_categories") is not None:
        categories = frozenset(literal(spec.transient_categories))

        def classify(exc: BaseException, state: Any) -> bool:
            return any(getattr(e, "category", None) in categories for e in _chain(exc))

        return classify
    kind = spec.type.value if isinstance(spec, Section) else spec.value
    if kind == "default":  # the runtime's own (transient categories, cause-walking)
        return None
    state_aware = re.fullmatch(r"state_aware_(?P<field>\w+)", kind or "")
    if state_aware is not None:
        return _state_aware_classifier(state_aware["field"])
    raise HarnessPrimitiveMissing(f"retry classifier {kind!r}", spec.span)


def _state_aware_classifier(field_name: str):
    """The harness classifier `state_aware_<field>`: retry exactly while ``state.<field> > 0``."""

    def classify(exc: BaseException, state: Any) -> bool:
        return getattr(state, field_name) > 0

    return classify


def _chain(exc: BaseException | None):
    while exc is not None:
        yield exc
        exc = exc.__cause__


def retry_middleware(spec: Section, harness: Harness, node_name: str | None) -> Any:
    """The runtime's RetryMiddleware from a `retry` block (max_attempts, classifier, backoff)."""
    attempts = spec.get("max_attempts")
    # An omitted max_attempts is the runtime's own default (pipeline-utilities §6.1), never ours.
    chosen = {"max_attempts": attempts.value} if attempts is not None else {}
    config = oa.RetryConfig(classifier=_classifier(spec.get("classifier")), backoff=_backoff(spec.get("backoff")), **chosen)
    return oa.RetryMiddleware(config)


def _timing(spec: Section, harness: Harness, node_name: str | None) -> Any:
    log = harness.log.middleware_log
    capture = spec.get("on_complete").get("capture_to") if spec.get("on_complete") is not None else None
    if capture is not None and capture.value != "timing_records":  # the one capture the trace keeps
        raise NotImplementedDirective(f"timing on_complete capture_to {capture.value!r}", capture.span)

    async def on_complete(record: Any) -> None:
        log.append(("timing", {"node_name": record.node_name, "duration_ms": record.duration_ms,
                               "outcome": record.outcome, "exception_category": record.exception_category}))

    name = spec.get("node_name")
    return oa.TimingMiddleware(node_name=name.value if name is not None else node_name, on_complete=on_complete, clock=harness.instruments.clock)


def _failure_isolation(spec: Section, harness: Harness, node_name: str | None) -> Any:
    options: dict[str, Any] = {}
    degraded = spec.get("degraded_update")
    options["degraded_update"] = _degraded_update(degraded, harness) if degraded is not None else {}
    event_name = spec.get("event_name")
    options["event_name"] = event_name.value if event_name is not None else "failure_isolated"
    catch = spec.get("catch")
    if catch is not None:
        options["catch"] = frozenset(literal(catch))
    predicate = spec.get("predicate")
    if predicate is not None:
        category = predicate.matches_category.value
        options["predicate"] = lambda exc: any(getattr(e, "category", None) == category for e in _chain(exc))
    on_caught = spec.get("on_caught")
    harness.graph.wiring["failure_isolation"].append({
        "node": node_name,
        "event_name": options["event_name"],
        "catch": sorted(options["catch"]) if "catch" in options else None,
        "predicate_category": predicate.matches_category.value if predicate is not None else None,
        "degraded_update": "callable" if callable(options["degraded_update"]) else dict(options["degraded_update"]),
        "on_caught": on_caught.kind.value if on_caught is not None and on_caught.get("kind") is not None else None,
    })
    if on_caught is None:
        return oa.FailureIsolationMiddleware(**options)
    kind = on_caught.get("kind")
    factory = ON_CAUGHT.get(kind.value if kind is not None else None)
    if factory is None:
        raise HarnessPrimitiveMissing(f"on_caught kind {kind.value if kind is not None else None!r}", on_caught.span)
    return factory(on_caught, harness, options)


def _degraded_update(spec: Any, harness: Harness) -> Any:
    """A static degraded update, or — `{callable: <name>, ...}` — a harness callable ``state -> update``."""
    name = spec.get("callable") if isinstance(spec, Mapping) else None
    if not isinstance(name, Scalar) or not isinstance(name.value, str):
        return literal(spec)
    factory = DEGRADED_CALLABLES.get(name.value)
    if factory is None:
        raise HarnessPrimitiveMissing(f"degraded_update callable {name.value!r}", name.span)
    return factory(literal(spec), harness, spec.span)


_STATE_REF = re.compile(r"\{\{\s*state\.(\w+)\s*\}\}")


def _state_derived(config: dict, harness: Harness, span: Any) -> Callable[[Any], dict]:
    """`state_derived`: ``{<target_field>: <template>}`` with each ``{{ state.<field> }}`` replaced by that field.

    Every call is logged (``degraded_callable``: the state it received, the update it returned).
    """
    template, target = config.get("template"), config.get("target_field")
    if not isinstance(template, str) or not isinstance(target, str) or "{{" in _STATE_REF.sub("", template):
        raise HarnessPrimitiveMissing("state_derived needs a `template` of {{ state.<field> }} references and a `target_field`", span)
    log = harness.log.middleware_log

    def degrade(state: Any) -> dict:
        update = {target: _STATE_REF.sub(lambda m: str(getattr(state, m[1])), template)}
        log.append(("degraded_callable", {"state_in": state.model_dump(), "returned": dict(update)}))
        return update

    return degrade


DEGRADED_CALLABLES: dict[str, Callable[[dict, Harness, Any], Callable[[Any], dict]]] = {"state_derived": _state_derived}


def _record_to_state_side_channel(spec: Section, harness: Harness, options: dict) -> Any:
    """`on_caught` that counts its calls and captures the caught message into state fields.

    The callback writes into a per-dispatch side channel (and logs ``on_caught`` with the
    exception it received); a harness middleware around the runtime's isolation middleware adds
    the side channel to the partial update it returns, so the fields reach state through the
    parent reducers like any node update.
    """
    counter = spec.get("increment_field")
    capture = spec.get("capture_message_field")
    channel: contextvars.ContextVar[dict | None] = contextvars.ContextVar("on_caught_channel", default=None)
    log = harness.log.middleware_log

    async def on_caught(exc: Exception) -> None:
        log.append(("on_caught", {"category": getattr(exc, "category", None), "message": str(exc), "type": type(exc).__name__}))
        found = channel.get()
        if found is not None:
            found["calls"] = found.get("calls", 0) + 1
            found["message"] = str(exc)

    isolation = oa.FailureIsolationMiddleware(**options, on_caught=on_caught)

    async def side_channel(state: Any, next_: Any) -> Any:
        found: dict = {}
        token = channel.set(found)
        try:
            partial = await isolation(state, next_)
        finally:
            channel.reset(token)
        if not found:
            return partial
        update = dict(partial)
        if counter is not None:
            update[counter.value] = getattr(state, counter.value) + found["calls"]
        if capture is not None:
            update[capture.value] = found["message"]
        return update

    return side_channel


ON_CAUGHT: dict[str, Callable[[Section, Harness, dict], Any]] = {"record_to_state_side_channel": _record_to_state_side_channel}


_markers = itertools.count()


# The list field a trace_recorder's markers sandwich: it returns ``{trace: [pre] + <next's trace> + [post]}``.
TRACE_FIELD = "trace"


def _trace_recorder(spec: Section, harness: Harness, node_name: str | None) -> Any:
    """Records (state_in, partial_update_returned, pre_seen, post_seen) per dispatch (``trace_records``);
    with markers, wraps the inner update's ``trace`` list between its pre and post markers."""
    name = spec.get("name").value if spec.get("name") is not None else f"recorder{next(_markers)}"
    pre = spec.get("pre_marker")
    post = spec.get("post_marker")
    log = harness.log.middleware_log

    async def trace_recorder(state: Any, next_: Any) -> Any:
        record = {"state_in": state.model_dump(), "pre_seen": True, "post_seen": False}
        try:
            partial = await next_(state)
            record["partial_update_returned"] = dict(partial)
            record["post_seen"] = True
        finally:  # the record is kept when next() raises: pre ran, post did not
            log.append(("trace", name, record))
        if pre is None and post is None:
            return partial
        markers = ([pre.value] if pre is not None else []) + list(partial.get(TRACE_FIELD, ())) + ([post.value] if post is not None else [])
        return {**partial, TRACE_FIELD: markers}

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


def wrap_middleware(spec: Section, harness: Harness) -> Any:
    """A `wrap_with_middleware` entry (§6.7): a named middleware logging its pre / post markers into
    the case's middleware log around ``next()``."""
    if spec.get("pre_next_calls_suspend_with_descriptor") is not None:  # suspension §8.4 (not shipped)
        raise NotImplementedDirective("wrap_with_middleware.pre_next_calls_suspend_with_descriptor", spec.key_span("pre_next_calls_suspend_with_descriptor"))
    name = spec.name.value
    pre, post = spec.get("pre_log"), spec.get("post_log")
    log = harness.log.middleware_log

    async def wrapped(state: Any, next_: Any) -> Any:
        if pre is not None:
            log.append(("marker", pre.value, name))
        partial = await next_(state)
        if post is not None:
            log.append(("marker", post.value, name))
        return partial

    wrapped.__name__ = f"wrap_{name}"
    return wrapped


MIDDLEWARE: dict[str, Callable[[Section, Harness, str | None], Any]] = {
    "retry": retry_middleware,
    "timing": _timing,
    "failure_isolation": _failure_isolation,
    "trace_recorder": _trace_recorder,
    "short_circuit": _short_circuit,
    "error_recovery": _error_recovery,
}
