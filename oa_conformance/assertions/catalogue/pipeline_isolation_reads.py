"""What the pipeline-utilities compute rows over failure isolation and parallel branches read.

Building blocks over the query scope (scope.py): the invocation's outcome and states, the primary
observer's events (an outer node's started / completed event found by name, the isolation events),
the wiring (each fan-out's and parallel node's configuration, each isolation gate), the middleware
log, and the §6.3 category derivation over a cause chain.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...model.trace import InvocationOutcome
from .scope import view


def observed(scope: dict, type_name: str | None = None) -> list:
    """The primary observer's events in the block's invocation, of one type (``None``: all)."""
    return [e for e in view(scope, "observed") if type_name is None or e.get("type") == type_name]


def isolation_events(scope: dict) -> list:
    return observed(scope, "FailureIsolatedEvent")


def inner(events: Iterable[Any]) -> list:
    return [e for e in events if len(e.get("namespace") or ()) > 1]


def values_of(events: Iterable[Any], field: str) -> list:
    return [e.get(field) for e in events]


def as_set(items: Iterable[Any]) -> list:
    return sorted({tuple(v) if isinstance(v, list) else v for v in items}, key=repr)


def completed(scope: dict) -> bool:
    return view(scope, "invocation")["outcome"] == InvocationOutcome.COMPLETED


def errored(scope: dict, category: str | None = None) -> bool:
    run = view(scope, "invocation")
    return run["outcome"] == InvocationOutcome.ERRORED and (category is None or run["error"]["category"] == category)


def outcome_text(scope: dict) -> str:
    run = view(scope, "invocation")
    error = run.get("error")
    return f"{run['outcome']}: {error['category']}: {error['message']}" if error is not None else run["outcome"]


def final_state(scope: dict) -> Any:
    run = view(scope, "invocation")
    if run["outcome"] != InvocationOutcome.COMPLETED:
        raise LookupError(f"the invocation did not complete ({outcome_text(scope)})")
    return run["final_state"]


def initial_state(scope: dict) -> Any:
    """The state the invocation started from (its InvocationStartedEvent)."""
    for event in observed(scope, "InvocationStartedEvent"):
        return event.get("initial_state")
    raise LookupError("no InvocationStartedEvent was observed")


def outer_event(scope: dict, node: str, phase: str) -> Any:
    """The outer node's NodeEvent of ``phase`` (its first), or None."""
    for event in observed(scope, "NodeEvent"):
        if event.get("node_name") == node and tuple(event.get("namespace") or ()) == (node,) and event.get("phase") == phase:
            return event
    return None


def wired(scope: dict, kind: str) -> dict[str, Any]:
    """The outer nodes of one kind (``fan_out`` / ``parallel_branches``) with their configuration."""
    return {name: config for name, config in scope["wiring"]["nodes"].items() if config["kind"] == kind}


def isolation_configs(scope: dict) -> list[Any]:
    return list(scope["wiring"]["failure_isolation"])


def logged(scope: dict, kind: str) -> list[Any]:
    """The data of the middleware-log entries of one kind (e.g. ``on_caught``, ``degraded_callable``)."""
    return [entry["record"] for entry in scope["middleware_log"] if entry["kind"] == kind]


def derive(chain: Iterable[Any]) -> tuple[Any, Any]:
    """§6.3's derivation over a cause chain: the outermost non-carrier link with a category (its
    category and message), else (None, the outermost non-carrier link's message)."""
    links = [link for link in chain if not link.get("carrier")]
    for link in links:
        if link.get("category"):
            return link.get("category"), link.get("message")
    return None, links[0].get("message") if links else None


def caught(event: Any) -> Any:
    return event.get("caught_exception") or {}


def lineage(event: Any) -> tuple:
    return tuple(event.get("namespace") or ()), event.get("fan_out_index"), event.get("branch_name")


def needs(found: Any, what: str) -> None:
    """A predicate about something the run must have produced fails (cannot evaluate) without it."""
    if not found:
        raise LookupError(f"no {what} to check")


def holds_in(state: Any, update: Any) -> list[str]:
    """The fields of ``update`` whose value ``state`` does not hold."""
    return [key for key, value in update.items() if state.get(key) != value]


def degraded_instances(scope: dict) -> list[tuple[str, Any, Any, int]]:
    """(fan-out node, its wiring, the isolation event, the instance's slot offset) for every
    instance of an outer fan-out node that failure isolation degraded."""
    found = []
    for node, config in wired(scope, "fan_out").items():
        started = outer_event(scope, node, "started")
        if started is None:
            continue
        for event in isolation_events(scope):
            namespace = tuple(event.get("namespace") or ())
            if namespace[:1] == (node,) and event.get("fan_out_index") is not None:
                found.append((node, config, event, event.get("fan_out_index")))
    return found


def slot(scope: dict, node: str, field: str, index: int) -> tuple[bool, Any]:
    """(present, value) of the fan-out's contribution to ``field`` for instance ``index``: the
    element after the field's value at the node's entry (its started event's pre_state)."""
    before = outer_event(scope, node, "started").get("pre_state").get(field) or ()
    after = final_state(scope).get(field) or ()
    position = len(before) + index
    return (position < len(after), after[position] if position < len(after) else None)
