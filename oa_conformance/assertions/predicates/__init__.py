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


# The capabilities whose fixtures these not yet migrated patterns serve: another capability's names
# are never matched by them (the catalogue keys every row by capability).
CAPABILITIES = frozenset(("graph-engine", "pipeline-utilities"))


def resolve(name: str, capability: str | None = None) -> Compute | None:
    """The compute function for predicate ``name`` (with pattern arguments bound), or None."""
    found = PREDICATES.get(name)
    if found is not None:
        return found
    if capability is not None and capability not in CAPABILITIES:
        return None
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


# How late a drain may return past its timeout and still count as on time: the event loop's own
# scheduling latency (cases run side by side in threads), not a tolerance for the runtime.
# Scheduler slack for "returned within its timeout": cases run side by side in threads, so a loaded
# 2-core machine can wake a timed-out drain late. 0.25 s still separates a drain that honoured its
# timeout from one that waited for paced observers (fixtures pace them at hundreds of ms per event).
DRAIN_DEADLINE_SLACK_S = 0.25


# The capability modules register their predicates on import (explicit registry, in order).
from . import pipeline_utilities  # noqa: E402,F401
