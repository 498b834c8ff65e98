"""Expected-outcome shapes specific to pipeline-utilities fixtures (failure isolation, checkpoints).

The failure-isolation shapes read :class:`FailureIsolatedEvent` records — framework-emitted observer
events (pipeline-utilities §6.3) that the recording observers keep beside the NodeEvents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...ast.nodes import Mapping, Scalar, Sequence
from ...model.diagnostics import Span
from ...model.trace import primary_observer
from ..matchers import Match, Mismatch, explain, match, show
from ..rules import Check, CheckStatus, Context, Rule, ShapeRow, invocation_of, verdict

ISOLATED = "FailureIsolatedEvent"
STATES = ("pre_state", "post_state")


# ---------------------------------------------------------------------------------------------
# Selectors


def observed(ctx: Context, type_name: str | None = None) -> list[Any]:
    """Every event (of one type, if given) the case's primary observer recorded in this invocation."""
    invocation = invocation_of(ctx)
    events = invocation.events[primary_observer(invocation)]
    return [e for e in events if type_name is None or e.get("type") == type_name]


def isolation_events(ctx: Context) -> list[Any]:
    """The failure-isolation events observed in this invocation."""
    return observed(ctx, ISOLATED)


def derived_error_category(event: Any) -> Any:
    """The category of a NodeEvent's error, resolved through carriers (the runtime's classification)."""
    error = event.get("error")
    if error is None:
        return None
    chain = error.get("cause_chain")
    return chain.get("category") if chain is not None else error.get("category")


# ---------------------------------------------------------------------------------------------
# Matching one failure-isolation event


def match_isolation_event(expected: Mapping, event: Any, bindings: Any, path: str) -> Match:
    """An expected failure-isolation event against a recorded one.

    ``wrapped_node_lineage`` names the event's lineage fields; ``pre_state`` / ``post_state`` are
    exact; ``caught_exception`` (and anything else) matches the keys named — each ``chain`` link
    by the keys it names, so a carrier link's engine-internal message stays unpinned (§5.8).
    """
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        if key == "wrapped_node_lineage" and isinstance(want, Mapping):
            pairs = [(f"{child}.{k}", want.key_span(k), v, k) for k, v in want.items()]
        else:
            pairs = [(child, expected.key_span(key), want, key)]
        for where, span, value, field in pairs:
            if field not in event:
                problems.append(Mismatch(where, "present", "absent", span))
                continue
            result = match(value, event[field], bindings, where, "exact" if field in STATES else "subset")
            bindings = result.bindings
            problems.extend(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class EventsJudged(Rule):
    """A rule over the observed events of this invocation: ``events`` selects, ``judge`` decides."""

    name: str
    span: Span | None
    expected: Any

    def events(self, ctx: Context) -> list[Any]:  # pragma: no cover - each rule selects
        raise NotImplementedError

    def judge(self, events: list[Any], bindings: Any) -> tuple[Check, Any]:  # pragma: no cover
        raise NotImplementedError

    def evaluate(self, ctx: Context, bindings: Any):
        events = self.events(ctx)
        found, bindings = self.judge(events, bindings)
        return (found,), bindings

    def any_matches(self, events: list[Any], results: list[Match], what: str, bindings: Any, extra: str = "") -> tuple[Check, Any]:
        """Verified by the first event that matched; else the closest event's mismatches."""
        for result in results:
            if result.ok:
                return Check(self.name, CheckStatus.VERIFIED, self.span), result.bindings
        if not results:
            return Check(self.name, CheckStatus.FAILED, self.span, f"no {what} was observed"), bindings
        closest = min(results, key=lambda r: len(r.mismatches))
        prefix = f"none of the {len(events)} {what}s matches; closest: " if len(events) > 1 else ""
        detail = prefix + explain(closest.mismatches) + extra
        return Check(self.name, CheckStatus.FAILED, self.span, detail, closest.mismatches[0].span), bindings


@dataclass(frozen=True)
class IsolationEventRule(EventsJudged):
    """A failure-isolation event matching the expectation was observed (§6.3)."""

    def events(self, ctx: Context) -> list[Any]:
        return isolation_events(ctx)

    def judge(self, events: list[Any], bindings: Any) -> tuple[Check, Any]:
        path = self.name.split(".", 1)[-1]
        return self.any_matches(events, [match_isolation_event(self.expected, e, bindings, path) for e in events], "failure-isolation event", bindings)


def _expected_isolation_event(node: Mapping, span: Span | None) -> Rule:
    return IsolationEventRule("expected.expected_failure_isolation_event", span, node)


@dataclass(frozen=True)
class NoIsolationEventRule(EventsJudged):
    """`no_failure_isolation_event: true` — no failure-isolation event fired (false: at least one did)."""

    def events(self, ctx: Context) -> list[Any]:
        return isolation_events(ctx)

    def judge(self, events: list[Any], bindings: Any) -> tuple[Check, Any]:
        want_none = bool(self.expected.value)
        if want_none == (not events):
            return Check(self.name, CheckStatus.VERIFIED, self.span), bindings
        detail = (f"{len(events)} failure-isolation events fired: {show([e.get('event_name') for e in events])}"
                  if want_none else "no failure-isolation event fired")
        return Check(self.name, CheckStatus.FAILED, self.span, detail), bindings


def _no_isolation_event(node: Scalar, span: Span | None) -> Rule:
    return NoIsolationEventRule("expected.no_failure_isolation_event", span, node)


# ---------------------------------------------------------------------------------------------
# Per-attempt and single observer events


@dataclass(frozen=True)
class AttemptEventsRule(EventsJudged):
    """`expected_attempt_events`: the NodeEvents of the nodes named, in order, one per listed event.

    Each entry matches the keys it names; ``error_category`` is the category of the event's error
    resolved through carriers (the node's originating failure, §6.1 / §6.4).
    """

    def nodes(self) -> set[str]:
        return {item.get("node_name").value for item in self.expected.items if item.get("node_name") is not None}

    def events(self, ctx: Context) -> list[Any]:
        nodes = self.nodes()
        return [e for e in observed(ctx, "NodeEvent") if not nodes or e.get("node_name") in nodes]

    def judge(self, actual: list[Any], bindings: Any) -> tuple[Check, Any]:
        nodes = self.nodes()
        problems: list[Mismatch] = []
        if len(actual) != len(self.expected.items):
            summary = [(e.get("node_name"), e.get("phase"), e.get("attempt_index")) for e in actual]
            problems.append(Mismatch(self.name, f"{len(self.expected.items)} events of {sorted(nodes)}", f"{len(actual)}: {show(summary)}", self.span))
        for index, (want, event) in enumerate(zip(self.expected.items, actual)):
            for key, value in want.items():
                where = f"{self.name}[{index}].{key}"
                got = derived_error_category(event) if key == "error_category" else event.get(key, "<absent>")
                result = match(value, got, bindings, where, "exact")
                bindings = result.bindings
                problems.extend(result.mismatches)
        return verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))), bindings


def _expected_attempt_events(node: Sequence, span: Span | None) -> Rule:
    return AttemptEventsRule("expected.expected_attempt_events", span, node)


ABSENT = "_absent"


@dataclass(frozen=True)
class ObserverEventRule(EventsJudged):
    """`expected_observer_event`: some observed event has the fields named (exact values);
    ``<field>_absent: true`` requires the field to be absent or null."""

    def events(self, ctx: Context) -> list[Any]:
        return observed(ctx)

    def judge(self, events: list[Any], bindings: Any) -> tuple[Check, Any]:
        extra = ""
        node = self.expected.get("node_name")
        if isinstance(node, Scalar):  # what that node's events did carry
            seen = [(e.get("phase"), (e.get("error") or {}).get("category"), e.get("post_state")) for e in events if e.get("node_name") == node.value]
            extra = f"; {node.value!r} events (phase, error, post_state): {show(seen)}"
        return self.any_matches(events, [self._match(e, bindings) for e in events], "observed event", bindings, extra)

    def _match(self, event: Any, bindings: Any) -> Match:
        problems: list[Mismatch] = []
        path = self.name.split(".", 1)[-1]
        for key, want in self.expected.items():
            span = self.expected.key_span(key)
            if isinstance(key, str) and key.endswith(ABSENT) and isinstance(want, Scalar):
                field = key[: -len(ABSENT)]
                absent = event.get(field) is None
                if absent != bool(want.value):
                    problems.append(Mismatch(f"{path}.{field}", "absent" if want.value else "present", show(event.get(field)), span))
                continue
            if key not in event:
                problems.append(Mismatch(f"{path}.{key}", "present", "absent", span))
                continue
            result = match(want, event[key], bindings, f"{path}.{key}", "exact")
            bindings = result.bindings
            problems.extend(result.mismatches)
        return Match(not problems, bindings, tuple(problems))


def _expected_observer_event(node: Mapping, span: Span | None) -> Rule:
    return ObserverEventRule("expected.expected_observer_event", span, node)


# ---------------------------------------------------------------------------------------------
# Fan-out concurrency


def max_in_flight(node_log: list[Any]) -> int:
    """The most fan-out instances in flight at once, from the node bodies' own entry / exit markers
    (the trace's ``node_log``, appended synchronously by each harness body): an instance — a
    ``fan_out_index_chain`` under one fan-out's namespace — is in flight from its first body entry
    to its last body exit. Real overlap needs bodies that yield to the event loop, which they do
    when the case asserts concurrency (``node_body.node_body``, ``Instruments.concurrency_markers``)."""
    spans: dict[tuple, list[int]] = {}
    for position, row in enumerate(node_log):
        chain = tuple(row.get("fan_out_index_chain") or ())
        if chain:
            namespace = tuple(row.get("namespace") or ())
            spans.setdefault((namespace[:-1], chain), []).append(position)
    edges = sorted([(p[0], 1) for p in spans.values()] + [(p[-1], -1) for p in spans.values()], key=lambda e: (e[0], -e[1]))
    most = current = 0
    for _, step in edges:
        current += step
        most = max(most, current)
    return most


@dataclass(frozen=True)
class ConcurrencyRule(EventsJudged):
    """`concurrency_invariant: {max_in_flight: N}` — at no point were more than N fan-out instances in
    flight (measured over the bodies' entry / exit markers, :func:`max_in_flight`). A run in which no
    fan-out instance body ran at all proves nothing and fails. With `reached: true` (an extension of
    this adapter) the bound must also be reached: at some point exactly N were in flight, so a runtime
    that runs the instances one at a time does not pass a bound of 2."""

    def events(self, ctx: Context) -> list[Any]:
        return list(invocation_of(ctx).node_log)

    def judge(self, events: list[Any], bindings: Any) -> tuple[Check, Any]:
        unknown = [key for key, _ in self.expected.items() if key not in ("max_in_flight", "reached")]
        if unknown:
            return Check(self.name, CheckStatus.UNVERIFIED, self.span, f"not implemented: concurrency_invariant keys {unknown}"), bindings
        bound, seen = self.expected.get("max_in_flight").value, max_in_flight(events)
        reached = self.expected.get("reached")  # an extension: the bound must also be used, not only respected
        if seen == 0:
            return Check(self.name, CheckStatus.FAILED, self.span, "no fan-out instance body ran: nothing to measure"), bindings
        if seen > bound:
            return Check(self.name, CheckStatus.FAILED, self.span, f"{seen} instances were in flight at once, more than {bound}"), bindings
        if reached is not None and reached.value is True and seen < bound:
            return Check(self.name, CheckStatus.FAILED, self.expected.key_span("reached"),
                         f"expected the bound reached ({bound} instances in flight at once), at most {seen} were"), bindings
        return Check(self.name, CheckStatus.VERIFIED, self.span, f"at most {seen} instances were in flight at once"), bindings


def _concurrency_invariant(node: Mapping, span: Span | None) -> Rule:
    return ConcurrencyRule("expected.concurrency_invariant", span, node)


# directive → rule builder (general shapes a pipeline-utilities fixture uses)
SHAPES = (
    ShapeRow("expected_failure_isolation_event", _expected_isolation_event),
    ShapeRow("no_failure_isolation_event", _no_isolation_event),
    ShapeRow("expected_attempt_events", _expected_attempt_events),
    ShapeRow("expected_observer_event", _expected_observer_event),
    ShapeRow("concurrency_invariant", _concurrency_invariant),
)
