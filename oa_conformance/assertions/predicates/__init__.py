"""Invariant predicates (§5.9 and the fixture-specific ones) as named rules over the trace.

A predicate is looked up by name in :data:`PREDICATES` (exact names) or matched against
:data:`PATTERNS` (names with a part the fixture chooses, such as ``<node>_node_events_count``).
Each entry builds a :class:`PredicateRule` from the predicate's expected value; the rule computes
an actual value from the trace with shared building blocks — :func:`events_of`, :func:`count`,
:func:`values_of`, :func:`unique`, :func:`ordered` — and compares.

Nondeterministic order is never imposed (§7): "seen" predicates compare sets, counts compare
numbers, uniqueness compares tuples.

To add a predicate: define a function ``(ctx, expected) -> actual`` from the building blocks and
register it with ``@predicate("name")`` (or ``@pattern(r"(?P<node>.+)_suffix")``), with a one-line
docstring saying what it checks — ``oa-lint`` and the docs read it. Fixture-specific predicates
live in the module of the capability whose fixtures name them (``graph_engine.py`` …); the
§5.9 canonical ones and the building blocks live here.
"""

from __future__ import annotations

from ...kinds import is_sequence

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ...diagnostics import Span
from ..matchers import match, show
from ...trace import primary_observer
from ..rules import FAILED, VERIFIED, Check, Context, Rule, node_events

Compute = Callable[..., Any]
PREDICATES: dict[str, Compute] = {}
PATTERNS: list[tuple[re.Pattern, Compute]] = []


def predicate(name: str) -> Callable[[Compute], Compute]:
    def register(compute: Compute) -> Compute:
        PREDICATES[name] = compute
        return compute

    return register


def pattern(regex: str) -> Callable[[Compute], Compute]:
    def register(compute: Compute) -> Compute:
        PATTERNS.append((re.compile(regex + r"\Z"), compute))
        return compute

    return register


@dataclass(frozen=True)
class PredicateRule(Rule):
    name: str
    span: Span | None
    expected: Any  # the AST value the fixture wrote
    compute: Compute
    arguments: tuple[tuple[str, str], ...] = ()
    scope: str = "observer"

    def check(self, ctx: Context, bindings: Any):
        try:
            actual = self.compute(ctx, self.expected, **dict(self.arguments))
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, f"cannot evaluate: {missing}"),), bindings
        if isinstance(actual, Verdict):
            status = VERIFIED if actual.ok else FAILED
            return (Check(self.name, status, self.span, "" if actual.ok else actual.detail),), bindings
        result = match(self.expected, actual, bindings, self.name, "exact")
        if result.ok:
            return (Check(self.name, VERIFIED, self.span),), result.bindings
        return (Check(self.name, FAILED, self.span, "; ".join(str(m) for m in result.mismatches)),), bindings


@dataclass(frozen=True)
class Verdict:
    """A predicate's own verdict, when its expected value is a flag rather than a quantity."""

    ok: bool
    detail: str = ""


# The capabilities whose fixtures these not yet migrated predicates serve: another capability's
# names are never resolved here (the catalogue keys every row by capability).
CAPABILITIES = frozenset(("graph-engine", "pipeline-utilities"))


def resolve(name: str, capability: str | None = None) -> Compute | None:
    """The compute function for predicate ``name`` (with pattern arguments bound), or None."""
    if capability is not None and capability not in CAPABILITIES:
        return None
    found = PREDICATES.get(name)
    if found is not None:
        return found
    for regex, compute in PATTERNS:
        matched = regex.match(name)
        if matched:
            return lambda ctx, expected, _c=compute, _a=matched.groupdict(): _c(ctx, expected, **_a)
    return None


def predicate_rule(name: str, value: Any, span: Span | None, block: str, capability: str | None) -> Rule | None:
    compute = resolve(name, capability)
    if compute is None:
        return None
    return PredicateRule(f"{block}.{name}", span, value, compute)


# ---------------------------------------------------------------------------------------------
# Building blocks


def events_of(ctx: Context, observer: str | None = None) -> list[Any]:
    """The NodeEvents one observer recorded in this invocation (the primary observer by default), or
    those of the event list the block is scoped to (``ctx.events``: an accumulator snapshot)."""
    if ctx.events is not None:
        return node_events(ctx.events)
    if ctx.invocation is None:
        raise LookupError("this predicate reads one invocation's events; the block is about the whole case")
    recorded = ctx.invocation.events
    if not recorded:
        raise LookupError("the case declares no observer")
    if observer is None:
        observer = primary_observer(ctx.invocation)
    if observer not in recorded:
        raise LookupError(f"no observer named {observer!r}")
    return node_events(recorded[observer])


def all_events_of(ctx: Context) -> dict[str, list[Any]]:
    """Every observer's NodeEvents in this invocation, by observer name."""
    events_of(ctx)  # the same checks: an invocation, at least one observer
    return {name: node_events(events) for name, events in ctx.invocation.events.items()}


def in_scope(ctx: Context) -> tuple[Any, ...]:
    """The invocations a block is about: its own, or — for a case-level block — all of them."""
    return (ctx.invocation,) if ctx.invocation is not None else tuple(ctx.trace.invocations)


def drains_of(invocation: Any) -> list[tuple[str, Any]]:
    """Every drain the fixture made in one invocation, labelled: its process-wide drain, its nodes' drains."""
    found = [("drain", invocation.drain)] if invocation.drain is not None else []
    return found + [(f"node {name!r} drain", summary) for name, summary in invocation.node_drains.items()]


def delivered_per_observer(invocation: Any, invocation_id: str | None) -> dict[str, int]:
    """How many events each observer received, during one invocation, in ``invocation_id``'s context."""
    counts: dict[str, int] = {}
    for observer, context, _ in invocation.deliveries:
        if context == invocation_id:
            counts[observer] = counts.get(observer, 0) + 1
    return counts


def inner(events: Iterable[Any]) -> list[Any]:
    """Events from nodes inside a subgraph, fan-out instance or branch (namespace deeper than 1)."""
    return [e for e in events if len(e.get("namespace") or ()) > 1]


def of_node(events: Iterable[Any], node: str) -> list[Any]:
    return [e for e in events if e.get("node_name") == node]


def values_of(events: Iterable[Any], field: str) -> list[Any]:
    return [e.get(field) for e in events]


def unique(items: Iterable[Any]) -> bool:
    items = list(items)
    return len(items) == len(set(map(_hashable, items)))


def _hashable(value: Any) -> Any:
    if is_sequence(value):
        return tuple(_hashable(v) for v in value)
    return value


def as_set(items: Iterable[Any]) -> list[Any]:
    """Distinct values, sorted: "seen" predicates compare sets, never an order (§7)."""
    distinct = {_hashable(v) for v in items}
    return sorted(distinct, key=repr)


def expected_set(expected: Any) -> list[Any]:
    from ...interpreter.values import literal

    return as_set(literal(expected))


def flag(expected: Any, holds: bool, detail: str) -> Verdict:
    """Compare a predicate that holds or not with the flag the fixture expects."""
    want = getattr(expected, "value", expected)
    return Verdict(holds == bool(want), "" if holds == bool(want) else detail)


# ---------------------------------------------------------------------------------------------
# §5.9 canonical predicates


@predicate("inner_event_count")
def _inner_event_count(ctx: Context, expected: Any) -> int:
    """Total events from inner-instance / inner-branch nodes."""
    return len(inner(events_of(ctx)))


@predicate("inner_fan_out_indices_seen")
def _inner_fan_out_indices(ctx: Context, expected: Any) -> Verdict:
    """The set of ``fan_out_index`` values on inner events."""
    seen = as_set(v for v in values_of(inner(events_of(ctx)), "fan_out_index") if v is not None)
    want = expected_set(expected)
    return Verdict(seen == want, f"expected the set {want}, saw {seen}")


@predicate("inner_branch_names_seen")
def _inner_branch_names(ctx: Context, expected: Any) -> Verdict:
    """The set of ``branch_name`` values on inner events."""
    seen = as_set(v for v in values_of(inner(events_of(ctx)), "branch_name") if v is not None)
    want = expected_set(expected)
    return Verdict(seen == want, f"expected the set {want}, saw {seen}")


@predicate("inner_attempt_indices_seen")
def _inner_attempt_indices(ctx: Context, expected: Any) -> Verdict:
    """The set of ``attempt_index`` values on inner events."""
    seen = as_set(values_of(inner(events_of(ctx)), "attempt_index"))
    want = expected_set(expected)
    return Verdict(seen == want, f"expected the set {want}, saw {seen}")


@predicate("inner_event_identities_unique")
def _identities_unique(ctx: Context, expected: Any) -> Verdict:
    """(namespace, fan_out_index, branch_name, attempt_index, phase) is unique across inner events."""
    identities = [(tuple(e.get("namespace") or ()), e.get("fan_out_index"), e.get("branch_name"), e.get("attempt_index"), e.get("phase"))
                  for e in inner(events_of(ctx))]
    return flag(expected, unique(identities), f"identity tuples repeat: {show(identities)}")


@pattern(r"(?P<node>.+)_node_events_count")
def _node_events_count(ctx: Context, expected: Any, node: str) -> int:
    """Events from one node."""
    return len(of_node(events_of(ctx), node))


@pattern(r"(?P<node>.+)_node_fan_out_index_absent")
def _node_fan_out_index_absent(ctx: Context, expected: Any, node: str) -> Verdict:
    """Events from a non-fan-out node carry no ``fan_out_index``."""
    carrying = [e for e in of_node(events_of(ctx), node) if e.get("fan_out_index") is not None]
    return flag(expected, not carrying, f"{len(carrying)} events of {node!r} carry a fan_out_index")


# How late a drain may return past its timeout and still count as on time: the event loop's own
# scheduling latency (cases run side by side in threads), not a tolerance for the runtime.
# Scheduler slack for "returned within its timeout": cases run side by side in threads, so a loaded
# 2-core machine can wake a timed-out drain late. 0.25 s still separates a drain that honoured its
# timeout from one that waited for paced observers (fixtures pace them at hundreds of ms per event).
DRAIN_DEADLINE_SLACK_S = 0.25


@predicate("drain_returned_within_timeout")
def _drain_within_timeout(ctx: Context, expected: Any) -> Verdict:
    """Every drain given a timeout returned no later than the timeout (plus scheduler slack) after
    the call began, measured around the call (``elapsed_s``)."""
    timed = [(f"{inv.name + ': ' if inv.name else ''}{label}", d) for inv in in_scope(ctx) for label, d in drains_of(inv)
             if d.get("timeout_s") is not None]
    if not timed:
        raise LookupError("no drain with a timeout was recorded")
    late = [f"{label} took {d['elapsed_s']:.3f} s (timeout {d['timeout_s']} s)" for label, d in timed
            if d["elapsed_s"] > d["timeout_s"] + DRAIN_DEADLINE_SLACK_S]
    return flag(expected, not late, "; ".join(late))


@predicate("workers_not_cancelled_on_per_invocation_drain_timeout")
def _workers_not_cancelled(ctx: Context, expected: Any) -> Verdict:
    """After every in-node drain that timed out, delivery went on: each observer later received at
    least the events the drain reported undelivered, through the invocation's completed event."""
    problems, timed_out = [], 0
    for inv in in_scope(ctx):
        for name, summary in inv.node_drains.items():
            if not summary["timeout_reached"]:
                continue
            timed_out += 1
            total = delivered_per_observer(inv, summary["invocation_id"])
            for observer, before in summary["delivered_at_return"].items():
                after = total.get(observer, 0)
                if after < before + summary["undelivered_count"]:
                    problems.append(f"{observer!r} received {after - before} events after node {name!r}'s drain timed out "
                                    f"with {summary['undelivered_count']} undelivered")
                stream = [e.get("type") for e in inv.events.get(observer, ())]
                if "InvocationCompletedEvent" not in stream:
                    problems.append(f"{observer!r} never received the invocation's completed event")
    if not timed_out:
        raise LookupError("no in-node drain timed out")
    return flag(expected, not problems, "; ".join(problems))


@predicate("no_completed_event_for_suspending_node")
def _no_completed_for_suspending(ctx: Context, expected: Any) -> Verdict:  # pragma: no cover - suspension is not shipped
    """The suspending node has no completed event (graph-engine §6 terminal phases)."""
    raise LookupError("suspension is not shipped by the runtime")


# The capability modules register their predicates on import (explicit registry, in order).
from . import graph_engine, pipeline_checkpoint, pipeline_utilities  # noqa: E402,F401
