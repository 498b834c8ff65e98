"""Middleware a fixture describes: the runtime's built-in retry / timing / failure-isolation
middleware built from a ``middleware`` entry, and the harness's own test middleware (trace
recorders, short circuits, error recovery, ``wrap_with_middleware`` markers, metadata writes).

:data:`MIDDLEWARE` is the explicit table of middleware types; :data:`RETRY_CLASSIFIERS`,
:data:`DEGRADED_CALLABLES` and :data:`ON_CAUGHT` the named harness callables a directory header
defines.
"""

from __future__ import annotations

import contextvars
import itertools
import re
from dataclasses import dataclass
from typing import Any, Callable

from ...host import graph as oa

from ...ast.nodes import Mapping, Scalar, Section
from .behaviors import NotImplementedDirective
from .harness import Harness, RunLog, WiringDraft
from ...model.errors import HarnessPrimitiveMissing
from ...ast.values import literal


@dataclass(frozen=True)
class BuildSite:
    """What a middleware factory builds with, during graph build: the case's harness for the
    middleware it returns (which appends to ``harness.log`` while the graph runs), and graph build's
    draft wiring, where a factory records what it wired (failure isolation, a delivery barrier)."""

    harness: Harness
    draft: WiringDraft


def build_middleware(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    """One middleware entry → a runtime middleware (built-in) or a harness test middleware."""
    kind = spec.type
    name = kind.value if kind is not None else (spec.name.value if spec.name is not None else None)
    if name is None and tuple(spec.order) == ("retry",):  # the keyed form `- retry: {max_attempts: …}`
        return retry_middleware(spec.retry, site, node_name)
    factory = MIDDLEWARE.get(name)
    if factory is None:
        raise HarnessPrimitiveMissing(f"middleware type {name!r}", spec.span)
    return factory(spec, site, node_name)


def metadata_middleware(entries: dict[str, Any], log: RunLog, unit: str) -> Any:
    """A middleware that calls the runtime's ``set_invocation_metadata(**entries)`` before ``next()``:
    the write happens in the wrapped unit's own context (a branch's, an instance's), at the top of its body.
    The accepted write is logged like a node's (``metadata_write``, under the unit's name)."""
    from ...host.observability import set_invocation_metadata

    async def augment(state: Any, next_: Any) -> Any:
        set_invocation_metadata(**entries)
        log.middleware_log.append(("metadata_write", {"node": unit, "entries": dict(entries)}))
        return await next_(state)

    return augment


def _backoff(spec: Section | None):
    """The backoff a retry block names: omitted, none between attempts (the corpus's convention, so
    retry cases do not wait — §7 swaps the random jitter for a deterministic backoff); `deterministic`
    (`seconds`); `default`, the runtime's own default (None: RetryConfig picks it, §6.1)."""
    if spec is None:
        return oa.deterministic_backoff(0.0)
    kind = spec.type
    if kind is not None and kind.value == "default":
        return None
    if kind is not None and kind.value != "deterministic":
        raise HarnessPrimitiveMissing(f"backoff type {kind.value!r}", kind.span)
    seconds = spec.seconds
    return oa.deterministic_backoff(float(seconds.value) if seconds is not None else 0.0)


class TransientMarkerError(Exception):
    """The test-specific transient error (`raises: transient_marker_error`, observability's
    `per_attempt_behavior`) that the `transient_marker` classifier retries."""


# Named retry classifiers a capability directory's header defines (name -> classify(exc, state)).
RETRY_CLASSIFIERS: dict[str, Callable[[BaseException, Any], bool]] = {
    "transient_marker": lambda error, state: any(isinstance(cause, TransientMarkerError) for cause in _chain(error)),
    # Answers "transient" for whatever it is asked about: what cancellation must never reach (llm-provider §7.1,
    # pipeline-utilities §6.1 — the signal is re-raised before any classifier is consulted).
    "every_error": lambda error, state: True,
}


def _classifier(spec: Any):
    if spec is None:
        return None
    if isinstance(spec, Scalar) and spec.value in RETRY_CLASSIFIERS:
        return RETRY_CLASSIFIERS[spec.value]
    if isinstance(spec, Section) and spec.transient_categories is not None:
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
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:  # a cyclic chain ends at its repeat
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__


def retry_middleware(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    """The runtime's RetryMiddleware from a `retry` block (max_attempts, classifier, backoff)."""
    attempts = spec.max_attempts
    # An omitted max_attempts is the runtime's own default (pipeline-utilities §6.1), never ours.
    chosen = {"max_attempts": attempts.value} if attempts is not None else {}
    config = oa.RetryConfig(classifier=_classifier(spec.classifier), backoff=_backoff(spec.backoff), **chosen)
    return oa.RetryMiddleware(config)


def _timing(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    log = site.harness.log.middleware_log
    capture = spec.on_complete.capture_to if spec.on_complete is not None else None
    if capture is not None and capture.value != "timing_records":  # the one capture the trace keeps
        raise NotImplementedDirective(f"timing on_complete capture_to {capture.value!r}", capture.span)

    async def on_complete(record: Any) -> None:
        log.append(("timing", {"node_name": record.node_name, "duration_ms": record.duration_ms,
                               "outcome": record.outcome, "exception_category": record.exception_category}))

    name = spec.node_name
    # No clock is passed: the runtime reads its own monotonic clock (§6.2), which a case's clock stub
    # replaces at the edge (clock_edge.py).
    return oa.TimingMiddleware(node_name=name.value if name is not None else node_name, on_complete=on_complete)


def _failure_isolation(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    options: dict[str, Any] = {}
    degraded = spec.degraded_update
    options["degraded_update"] = _degraded_update(degraded, site.harness.log) if degraded is not None else {}
    event_name = spec.event_name
    options["event_name"] = event_name.value if event_name is not None else "failure_isolated"
    catch = spec.catch
    if catch is not None:
        options["catch"] = frozenset(literal(catch))
    predicate = spec.predicate
    if predicate is not None:
        category = predicate.matches_category.value
        options["predicate"] = lambda exc: any(getattr(e, "category", None) == category for e in _chain(exc))
    on_caught = spec.on_caught
    site.draft.wiring["failure_isolation"].append({
        "node": node_name,
        "event_name": options["event_name"],
        "catch": sorted(options["catch"]) if "catch" in options else None,
        "predicate_category": predicate.matches_category.value if predicate is not None else None,
        "degraded_update": "callable" if callable(options["degraded_update"]) else dict(options["degraded_update"]),
        "on_caught": on_caught.kind.value if on_caught is not None and on_caught.kind is not None else None,
    })
    if on_caught is None:
        return oa.FailureIsolationMiddleware(**options)
    kind = on_caught.kind
    factory = ON_CAUGHT.get(kind.value if kind is not None else None)
    if factory is None:
        raise HarnessPrimitiveMissing(f"on_caught kind {kind.value if kind is not None else None!r}", on_caught.span)
    return factory(on_caught, site.harness.log, options)


def _degraded_update(spec: Any, log: RunLog) -> Any:
    """A static degraded update, or — `{callable: <name>, ...}` — a harness callable ``state -> update``."""
    name = spec.get("callable") if isinstance(spec, Mapping) else None
    if not isinstance(name, Scalar) or not isinstance(name.value, str):
        return literal(spec)
    factory = DEGRADED_CALLABLES.get(name.value)
    if factory is None:
        raise HarnessPrimitiveMissing(f"degraded_update callable {name.value!r}", name.span)
    return factory(literal(spec), log, spec.span)


_STATE_REF = re.compile(r"\{\{\s*state\.(\w+)\s*\}\}")


def _state_derived(config: dict, run_log: RunLog, span: Any) -> Callable[[Any], dict]:
    """`state_derived`: ``{<target_field>: <template>}`` with each ``{{ state.<field> }}`` replaced by that field.

    Every call is logged (``degraded_callable``: the state it received, the update it returned).
    """
    template, target = config.get("template"), config.get("target_field")
    if not isinstance(template, str) or not isinstance(target, str) or "{{" in _STATE_REF.sub("", template):
        raise HarnessPrimitiveMissing("state_derived needs a `template` of {{ state.<field> }} references and a `target_field`", span)
    log = run_log.middleware_log

    def degrade(state: Any) -> dict:
        update = {target: _STATE_REF.sub(lambda m: str(getattr(state, m[1])), template)}
        log.append(("degraded_callable", {"state_in": state.model_dump(), "returned": dict(update)}))
        return update

    return degrade


DEGRADED_CALLABLES: dict[str, Callable[[dict, RunLog, Any], Callable[[Any], dict]]] = {"state_derived": _state_derived}


def _record_to_state_side_channel(spec: Section, run_log: RunLog, options: dict) -> Any:
    """`on_caught` that counts its calls and captures the caught message into state fields.

    The callback writes into a per-dispatch side channel (and logs ``on_caught`` with the
    exception it received); a harness middleware around the runtime's isolation middleware adds
    the side channel to the partial update it returns, so the fields reach state through the
    parent reducers like any node update.
    """
    counter = spec.increment_field
    capture = spec.capture_message_field
    channel: contextvars.ContextVar[dict | None] = contextvars.ContextVar("on_caught_channel", default=None)
    log = run_log.middleware_log

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


class OnCaughtRaised(Exception):
    """What the `raise` on_caught kind raises: the callback's own failure (an extension)."""


def _raise(spec: Section, run_log: RunLog, options: dict) -> Any:
    """`on_caught: {kind: raise}` — an extension of this adapter: the callback logs the exception it
    received (``on_caught``) and then raises :class:`OnCaughtRaised`. pipeline-utilities §6.3's
    reference sequence awaits ``on_caught`` after emitting the failure-isolation event, inside the
    catch: what the callback raises leaves the middleware, so the node fails."""
    log = run_log.middleware_log

    async def on_caught(exc: Exception) -> None:
        log.append(("on_caught", {"category": getattr(exc, "category", None), "message": str(exc), "type": type(exc).__name__}))
        raise OnCaughtRaised(f"on_caught raised after catching: {exc}")

    return oa.FailureIsolationMiddleware(**options, on_caught=on_caught)


ON_CAUGHT: dict[str, Callable[[Section, RunLog, dict], Any]] = {"record_to_state_side_channel": _record_to_state_side_channel,
                                                                 "raise": _raise}


_markers = itertools.count()


# The list field a trace_recorder's markers sandwich: it returns ``{trace: [pre] + <next's trace> + [post]}``.
TRACE_FIELD = "trace"


def _trace_recorder(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    """Records (state_in, partial_update_returned, pre_seen, post_seen) per dispatch (``trace_records``);
    with markers, wraps the inner update's ``trace`` list between its pre and post markers."""
    name = spec.name.value if spec.name is not None else f"recorder{next(_markers)}"
    pre = spec.pre_marker
    post = spec.post_marker
    log = site.harness.log.middleware_log

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


def _short_circuit(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    update = literal(spec.partial_update) if spec.partial_update is not None else {}

    async def short_circuit(state: Any, next_: Any) -> Any:
        return dict(update)

    return short_circuit


def _error_recovery(spec: Section, site: BuildSite, node_name: str | None) -> Any:
    update = literal(spec.partial_update) if spec.partial_update is not None else {}

    async def error_recovery(state: Any, next_: Any) -> Any:
        try:
            return await next_(state)
        except Exception:  # the fixture's recovery middleware catches the chain's exception by design
            return dict(update)

    return error_recovery


def wrap_middleware(spec: Section, run_log: RunLog) -> Any:
    """A `wrap_with_middleware` entry (§6.7): a named middleware logging its pre / post markers into
    the case's middleware log around ``next()``."""
    name = spec.name.value
    pre, post = spec.pre_log, spec.post_log
    log = run_log.middleware_log

    async def wrapped(state: Any, next_: Any) -> Any:
        if pre is not None:
            log.append(("marker", pre.value, name))
        partial = await next_(state)
        if post is not None:
            log.append(("marker", post.value, name))
        return partial

    wrapped.__name__ = f"wrap_{name}"
    return wrapped


MIDDLEWARE: dict[str, Callable[[Section, BuildSite, str | None], Any]] = {
    "retry": retry_middleware,
    "timing": _timing,
    "failure_isolation": _failure_isolation,
    "trace_recorder": _trace_recorder,
    "short_circuit": _short_circuit,
    "error_recovery": _error_recovery,
}
