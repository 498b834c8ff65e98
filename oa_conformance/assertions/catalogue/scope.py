"""What a catalogue rule reads: the case's trace document and the views of the block it is in.

The assert pass thaws the case's trace into its document (docs/TRACE.md) once per case and hands it
to every rule in its ``rules.Context`` (``document``) — the way LibCST's ``MetadataWrapper`` computes metadata once
and hands it to every visitor; nothing is cached between cases. A rule's query scope is that document
plus the views of its block, computed from the context (a shape may narrow it to one call or to a
snapshot's events with ``dataclasses.replace``, so the views are derived per block, not stored):

    invocation     the invocation the block is about (absent in a case-level block)
    runs           [invocation] — or, in a case-level block, every invocation
    node_events    the NodeEvents the block reads: the primary observer's in ``invocation``, or an
                   accumulator snapshot's in a snapshot-scoped block (absent when neither exists)
    inner_events   node_events from inner nodes (namespace deeper than 1: a subgraph, fan-out
                   instance or branch, §5.9)
    observed       every event the primary observer received in ``invocation`` (all types)
    isolation_events  the FailureIsolatedEvents among them (pipeline-utilities §6.3)
    saves          the checkpoint saves made during ``invocation`` that persisted (every run's, in a
                   case-level block)
    first_run, resumed_run  the invocations with those roles (absent when the case has none)
    requests       the outbound wire requests of the block's direct call (a ``calls:`` entry's), or
                   every captured request in a block about the case as a whole (absent without a wire)

Compute rows read a view through :func:`view` (one selector per view), never by indexing the scope
themselves, so a view the block lacks fails "cannot evaluate" with the same reason everywhere.
"""

from __future__ import annotations

from typing import Any



# Why a block lacks a view: the one reason each view's selector gives.
MISSING_VIEW = {
    "invocation": "this predicate reads one invocation; the block is about the whole case",
    "observed": "the invocation has no observer to read",
    "node_events": "the block has no observer events",
}


def view(scope: dict, name: str) -> Any:
    """The scope's view ``name``; a LookupError naming why the block lacks it."""
    if name not in scope:
        raise LookupError(MISSING_VIEW.get(name, f"the trace has no {name!r} here"))
    return scope[name]


def scope_of(ctx: Any) -> dict:
    """The query scope of a block (module docstring) from the rule context (``rules.Context``)."""
    from ...model.trace.document import thaw  # imported when a rule runs: the linter reads the tables alone

    case = ctx.document
    if case is None:
        raise LookupError("the rule context carries no trace document (a catalogue rule runs inside the assert pass)")
    index = next((i for i, inv in enumerate(ctx.trace.invocations) if inv is ctx.invocation), None)
    if ctx.invocation is not None and index is None:
        raise LookupError("the block's invocation is not one of the case's")
    return scope_from(case, index, thaw(ctx.events) if ctx.events is not None else None, ctx.call)


def scope_from(case: dict, invocation: int | None, events: list | None = None, call: int | None = None) -> dict:
    """The scope over a trace document: ``invocation`` indexes ``case["invocations"]`` (None: a
    case-level block); ``events``, when given, is the event list a scoped block reads; ``call``
    indexes ``case["calls"]`` when the block is one direct call's."""
    scope = dict(case)
    if "wire" in case:
        requests = case["wire"]["requests"]
        if call is None:
            scope["requests"] = list(requests)
        else:
            calls = case.get("calls", [])
            if call >= len(calls):
                raise LookupError(f"call {call} never ran (the case made {len(calls)} calls)")
            scope["requests"] = [requests[i] for i in calls[call]["requests"]]
    invocations = case.get("invocations", [])
    persisted = [save for save in case.get("checkpoint_saves", []) if not save.get("lost")]
    if invocation is not None:
        current = invocations[invocation]
        scope["invocation"] = current
        scope["runs"] = [current]
        scope["saves"] = [save for save in persisted if save.get("run") == invocation]
        primary = current.get("primary_observer")
        if primary is not None and primary in current.get("events", {}):
            scope["observed"] = current["events"][primary]
            scope["isolation_events"] = [e for e in scope["observed"] if e.get("type") == "FailureIsolatedEvent"]
            if events is None:
                events = scope["observed"]
    else:
        scope["runs"] = list(invocations)
        scope["saves"] = persisted
    for run in invocations:
        if run.get("role") in ("first_run", "resumed"):
            scope.setdefault("first_run" if run["role"] == "first_run" else "resumed_run", run)
    if events is not None:
        scope["node_events"] = [e for e in events if e.get("type") == "NodeEvent"]
        scope["inner_events"] = [e for e in scope["node_events"] if len(e.get("namespace") or ()) > 1]
    return scope


__all__ = ["MISSING_VIEW", "scope_from", "scope_of", "view"]
