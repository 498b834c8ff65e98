"""Harness behaviours: the node bodies, routing functions and test middleware a fixture describes.

These are the only parts of a graph the adapter writes itself, because the fixture describes them
as data: "this node returns {v: 1}", "this node fails twice then succeeds", "this middleware logs a
marker". Each node directive has one handler, listed by name in the explicit table
``node_table.NODE_DIRECTIVES``; a node body runs its directives in document order (§8.3). The
runtime's own primitives — drains, and in ``middleware.py`` retry, timing and failure-isolation
middleware — are constructed, never imitated.

To support a new node directive: give its vocabulary row ``handled_by=node("name")``, write
``async def handler(ctx, spec)`` and list it in ``node_table.NODE_DIRECTIVES``. A directive the
vocabulary marks ``NOT_EXECUTED`` makes the case fail as "not implemented: <directive>".
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from ...host import graph as oa

from ...ast.nodes import Mapping, Scalar, Section
from ...model.diagnostics import Span
from ...model.errors import HarnessPrimitiveMissing
from .harness import Harness, HarnessRaised, timed_drain
from ...ast.values import literal


class NotImplementedDirective(Exception):
    """A directive the vocabulary accepts but this adapter cannot execute yet."""

    def __init__(self, directive: str, span: Span | None = None):
        super().__init__(f"not implemented: {directive}")
        self.directive = directive
        self.span = span


@dataclass
class NodeContext:
    """What one running node body can see: its state, its partial update, and the case's harness —
    whose instruments and wiring it reads, whose cursor it reads, and whose log it appends to."""

    name: str
    decl: Section
    state: Any
    partial: dict
    harness: Harness
    # Contexts a directive opens for the rest of the node body (an active prompt), closed when it ends.
    scope: contextlib.ExitStack = dataclasses.field(default_factory=contextlib.ExitStack)
    prompt: Any = None  # the PromptResult a `renders_prompt` rendered, for a later call without messages
    # The node directive table the body runs its steps from (node_table.NODE_DIRECTIVES), for a step
    # that runs others (`per_attempt_behavior`).
    steps: Any = dataclasses.field(default_factory=dict)

    def field(self, name: str) -> Any:
        return getattr(self.state, name)


# One node directive's step: ``async (ctx, spec)`` (the entries of node_table.NODE_DIRECTIVES).
NodeStep = Callable[[NodeContext, Any], Awaitable[None]]


# ---------------------------------------------------------------------------------------------
# Node directives


async def update(ctx: NodeContext, spec: Mapping) -> None:
    ctx.partial.update(literal(spec))


async def update_from_field(ctx: NodeContext, spec: Mapping) -> None:
    mapping = literal(spec)
    multiplier = mapping.pop("multiplier", 1)
    for target, source in mapping.items():
        ctx.partial[target] = ctx.field(source) * multiplier


async def noop(ctx: NodeContext, spec: Scalar) -> None:
    return None


async def sleep(ctx: NodeContext, spec: Scalar) -> None:
    await asyncio.sleep(spec.value / 1000.0)


async def raises(ctx: NodeContext, spec: Any) -> None:
    if isinstance(spec, Scalar):
        category = ctx.decl.error_category
        raise HarnessRaised(spec.value, category.value if category is not None else None)
    kind = spec.exception_kind
    if kind is not None:  # a bare host exception, no category (e.g. `exception_kind: ValueError`)
        message = spec.message
        raise builtin_exception(kind)(message.value if message is not None else "harness failure")
    raise cyclic(raised_error(spec), spec)


# The language's cancellation signal, by the name an `exception_kind` gives it: not an error (in
# Python a BaseException), so no built-in lookup finds it.
CANCELLATION_SIGNALS: dict[str, type[BaseException]] = {"CancelledError": asyncio.CancelledError}


def builtin_exception(kind: Scalar) -> type[BaseException]:
    """The built-in exception class an `exception_kind` names (Python's spelling of the kind), or the
    language's cancellation signal (`CancelledError`)."""
    import builtins

    if kind.value in CANCELLATION_SIGNALS:
        return CANCELLATION_SIGNALS[kind.value]
    found = getattr(builtins, str(kind.value), None)
    if not (isinstance(found, type) and issubclass(found, Exception)):
        raise HarnessPrimitiveMissing(f"exception_kind {kind.value!r} (not a built-in exception type)", kind.span)
    return found


def cyclic(error: HarnessRaised, spec: Section) -> HarnessRaised:
    """``error`` with its chain closed into a cycle where a `cause` says `cycles_back: true`: that
    cause's own cause is ``error`` itself (the chain ``error → … → cause → error``)."""
    link, described = error, spec
    while described is not None and link is not None:
        flag = described.get("cycles_back")
        if isinstance(flag, Scalar) and flag.value is True:
            link.__cause__ = error
            break
        described, link = described.get("cause"), link.__cause__
    return error


def raised_error(spec: Section) -> HarnessRaised:
    """The error a structured failure spec (`{category, message, cause}`) describes, cause-chained."""
    category = spec.category
    message = spec.message
    transient = spec.get("transient")
    error = HarnessRaised(
        message.value if isinstance(message, Scalar) and message.value is not None else "harness failure",
        category.value if isinstance(category, Scalar) else None,
        transient.value if isinstance(transient, Scalar) else None,
    )
    return with_cause(error, spec)


def with_cause(error: HarnessRaised, spec: Section) -> HarnessRaised:
    """``error`` chained to the originating cause the spec's `cause` describes, if any (§5.1)."""
    cause = spec.cause
    if cause is not None:
        error.__cause__ = raised_error(cause)
    return error


async def flaky(ctx: NodeContext, spec: Section) -> None:
    if spec.fail_first_invocation_only is not None:
        if spec.fail_first_invocation_only.value and ctx.harness.cursor.index == 0:
            raise HarnessRaised(f"{ctx.name} fails its first invocation", "node_exception")
        ctx.partial.update(success_update(ctx, spec.on_success))
        return
    sequence = spec.failure_sequence
    attempt = ctx.harness.log.count_attempt(("flaky", ctx.name))
    entries = sequence.items if sequence is not None else ()
    fail_count = spec.fail_count  # the compact count form: fail the first N attempts
    if fail_count is not None and attempt < fail_count.value:
        category = spec.category
        raise runtime_error(category.value if category is not None else "node_exception", f"{ctx.name} fails attempt {attempt}")
    if attempt < len(entries):
        entry = entries[attempt]
        if isinstance(entry, Section):
            raise raised_error(entry)
    ctx.partial.update(success_update(ctx, spec.success_update or spec.on_success))


def runtime_error(category: str, message: str) -> Exception:
    """The runtime's own error class for a category it defines (an LLM provider category raises
    e.g. ``ProviderRateLimit``, as a real provider call would); otherwise a harness error carrying it."""
    from ...host.llm import provider_error_classes

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
    from ...host.observability import current_fan_out_index_chain

    return tuple(current_fan_out_index_chain())


def _mock_failure(ctx: NodeContext, spec: Section, why: str, default_category: str | None = None) -> HarnessRaised:
    category = spec.get("category")
    return with_cause(HarnessRaised(f"{ctx.name} {why}", category.value if category is not None else default_category), spec)


async def flaky_by_index(ctx: NodeContext, spec: Section) -> None:
    """`fail_when_idx`: the instance whose item value equals it fails, every attempt;
    `fail_count_per_idx`: every instance fails its first N attempts. Category default provider_unavailable."""
    when = spec.fail_when_idx
    if when is not None and _item_value(ctx, when) == when.value:
        raise _mock_failure(ctx, spec, f"fails for item {when.value}", "provider_unavailable")
    count = spec.fail_count_per_idx
    if count is not None and ctx.harness.log.count_attempt(("flaky_by_index", ctx.name, _instance())) < count.value:
        raise _mock_failure(ctx, spec, "fails this attempt", "provider_unavailable")
    ctx.partial.update(success_update(ctx, spec.success_compute))


def _item_value(ctx: NodeContext, spec: Scalar) -> Any:
    """The fan-out item of the running instance: its state's item_field, from the nearest fan-out."""
    from ...host.observability import current_namespace_prefix

    for node in reversed(current_namespace_prefix()):
        item_field = ctx.harness.graph.fan_out_item_fields.get(node)
        if item_field is not None:
            return getattr(ctx.state, item_field, None)
    raise HarnessPrimitiveMissing("flaky_by_index.fail_when_idx outside an items_field fan-out instance", spec.span)


async def flaky_per_index(ctx: NodeContext, spec: Section) -> None:
    """Invocation-keyed: `fail_first_run_indices` fail on the case's first invocation only,
    `always_fail_indices` on every invocation (the index is the runtime's fan_out_index)."""
    from ...host.observability import current_fan_out_index

    index = current_fan_out_index()
    first = literal(spec.fail_first_run_indices) or []
    always = literal(spec.always_fail_indices) or []
    if index in always or (index in first and ctx.harness.cursor.index == 0):
        raise _mock_failure(ctx, spec, f"fails for fan-out index {index}")
    ctx.partial.update(success_update(ctx, spec.success_compute))


async def flaky_instance_only(ctx: NodeContext, spec: Section) -> None:
    """Each fan-out instance fails its first `fail_count_per_instance` runs of this node (one per
    whole-instance attempt), then succeeds."""
    attempt = ctx.harness.log.count_attempt(("flaky_instance_only", ctx.name, _instance()))
    if attempt < spec.fail_count_per_instance.value:
        raise _mock_failure(ctx, spec, f"fails instance attempt {attempt}")
    ctx.partial.update(success_update(ctx, spec.success_compute))


async def flaky_resume_aware(ctx: NodeContext, spec: Section) -> None:
    """Fails its first `fail_first_invocation_count` attempts in the case's first invocation and
    its first `fail_resumed_invocation_count` attempts in any later (resumed) invocation."""
    index = ctx.harness.cursor.index
    attempt = ctx.harness.log.count_attempt(("flaky_resume_aware", ctx.name, index, _instance()))
    limit = spec.fail_first_invocation_count if index == 0 else spec.fail_resumed_invocation_count
    if limit is not None and attempt < limit.value:
        raise _mock_failure(ctx, spec, f"fails attempt {attempt} of invocation {index}")
    ctx.partial.update(success_update(ctx, spec.on_success))


async def drain_events_for(ctx: NodeContext, spec: Section) -> None:
    from ...host.observability import current_invocation_id

    invocation_id = current_invocation_id()
    harness = ctx.harness
    timeout = spec.timeout_seconds.value
    timeout = float("nan") if timeout == "NaN" else timeout  # the extension's spelling of a NaN timeout
    summary = await timed_drain(harness.graph.compiled.drain_events_for, timeout, invocation_id)
    harness.log.node_drains.append((ctx.name, {**summary, "invocation_id": invocation_id,
                                               "delivered_at_return": harness.log.delivered(harness.instruments.observers, invocation_id)}))
    observer_name = spec.snapshot_observer
    if observer_name is not None:
        observer = harness.instruments.observers.get(observer_name.value)
        if observer is None:
            raise HarnessPrimitiveMissing(f"observer {observer_name.value!r} to snapshot", observer_name.span)
        harness.log.node_snapshots.append((ctx.name, {observer_name.value: observer.snapshot(invocation_id)}))


async def drain_in_node(ctx: NodeContext, spec: Section) -> None:
    """`invoke_drain` (an extension): the process-wide drain, called from inside the node."""
    timeout = spec.timeout_seconds.value
    timeout = float("nan") if timeout == "NaN" else timeout  # the extension's spelling of a NaN timeout
    await timed_drain(ctx.harness.graph.compiled.drain, timeout)


async def mutate_input_state(ctx: NodeContext, spec: Scalar) -> None:
    """`attempts_input_state_mutation` (an extension): assign a field of the received state object in
    place (its own value again, so a runtime that lets it through runs on unchanged). What the
    state-immutability strategy raises leaves the node as its failure."""
    setattr(ctx.state, spec.value, ctx.field(spec.value))


async def detach_observer(ctx: NodeContext, spec: Scalar) -> None:
    """`detaches_observer` (an extension): remove a graph-attached fixture observer through the
    handle the runtime's attach_observer returned, from inside the running node."""
    handle = ctx.harness.observer_handles.get(spec.value)
    if handle is None:
        raise HarnessPrimitiveMissing(f"a graph-attached observer {spec.value!r} to detach", spec.span)
    handle.remove()


async def checkpoint_delete(ctx: NodeContext, spec: Scalar) -> None:
    """`invoke_checkpoint_delete` (an extension): the case's checkpointer backend's `delete`, called
    from inside the node, so an error it raises fails the node."""
    checkpointer = ctx.harness.instruments.checkpointer
    if checkpointer is None:
        raise HarnessPrimitiveMissing("`invoke_checkpoint_delete` needs a `checkpointer:`", spec.span)
    await checkpointer.delete(spec.value)


async def checkpoint_reload(ctx: NodeContext, spec: Scalar) -> None:
    """`reload_checkpoint_into` (an extension): a second instance of the case's checkpointer backend,
    opened on the same storage as a new process would open it, loads the running invocation's record;
    the named field receives how many completed positions it holds (-1: it has no record)."""
    from ...host.observability import current_invocation_id

    checkpointer = ctx.harness.instruments.checkpointer
    if checkpointer is None:
        raise HarnessPrimitiveMissing("`reload_checkpoint_into` needs a `checkpointer:`", spec.span)
    record = await checkpointer.reopen().load(current_invocation_id())
    ctx.partial[spec.value] = -1 if record is None else len(record.completed_positions)


# The summary fields pipeline-utilities §10.1 requires `list` to give at minimum.
SUMMARY_FIELDS = ("invocation_id", "correlation_id", "last_saved_at", "completed_node_count")


async def checkpoint_list(ctx: NodeContext, spec: Scalar) -> None:
    """`lists_checkpoints_into` (an extension): the case's checkpointer backend's `list`, called from
    inside the node; the named field receives the summary it gave for the running invocation (its
    minimum fields, as the backend reports them; a field it lacks left out), or None when `list`
    enumerates none. What `list` raises fails the node."""
    from ...host.observability import current_invocation_id

    checkpointer = ctx.harness.instruments.checkpointer
    if checkpointer is None:
        raise HarnessPrimitiveMissing("`lists_checkpoints_into` needs a `checkpointer:`", spec.span)
    running = current_invocation_id()
    found = None
    for summary in await checkpointer.list():
        fields = _summary_fields(summary)
        if fields.get("invocation_id") == running:
            found = fields
            break
    ctx.partial[spec.value] = found


def _summary_fields(summary: Any) -> dict[str, Any]:
    """The §10.1 minimum fields a summary carries, read as attributes or mapping keys."""
    if isinstance(summary, dict):
        return {name: summary[name] for name in SUMMARY_FIELDS if name in summary}
    return {name: getattr(summary, name) for name in SUMMARY_FIELDS if hasattr(summary, name)}


# ---------------------------------------------------------------------------------------------
# Routing


def condition_function(condition: Section) -> Callable[[Any], Any]:
    """The routing function of a conditional edge."""

    def destination(name: Any) -> Any:
        return oa.END if name == "END" else name

    callable_name = condition.callable
    if callable_name is None:
        field_name = condition.if_field.value
        expected = literal(condition.equals)
        then, otherwise = condition.then.value, condition.else_.value

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
        when, target = edge.when, edge.to.value
        target = oa.END if target == "END" else target
        if when is None:
            fallback = target
            continue
        given = dict(when.items())
        tests = [(compare, literal(given[name])) for name, compare in WHEN_COMPARISONS.items() if name in given]
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
    message = condition.message
    text = message.value if message is not None else "edge function raised"

    def route(state: Any) -> Any:
        raise HarnessRaised(text)

    return route


ROUTING_CALLABLES = {"state_field_read": _state_field_read, "edge_raises": _edge_raises}


# ---------------------------------------------------------------------------------------------
# Fan-out count / concurrency (`{field}` or `{callable, field, chunk_size}`, resolved by the runtime)


def count_function(spec: Section) -> Callable[[Any], int]:
    """``state -> int`` for a computed fan-out count or concurrency."""
    callable_name = spec.callable
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
