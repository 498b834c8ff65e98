"""The general ``expected:`` shapes (conformance-adapter §5.8): the outcome, states, errors and
the observer event lists every capability shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pyrsistent import pmap

from ...ast.nodes import Mapping, Scalar, Sequence
from ...model.diagnostics import Span
from ..error_rules import ErrorRule, invocation_error
from ..matchers import Match, Mismatch, explain, match, show
from ..rules import Check, CheckStatus, Context, Rule, SelectingRule, ShapeRow, StateRule, ValueRule, AllOf, final_state, \
    invocation_of, node_events, observer_events, primary_events, state_at_error


@dataclass(frozen=True)
class EventsRule(SelectingRule):
    """An exact ordered list of events; each expected event is a subset match of its fields.

    An event's ``error: <category>`` scalar is shorthand for ``error: {category: <category>}``.
    """

    def evaluate(self, ctx: Context, bindings: Any):
        actual = self.select(ctx)
        problems: list[Mismatch] = []
        if len(actual) != len(self.expected.items):
            summary = [(e.get("node_name"), e.get("phase"), e.get("attempt_index")) for e in actual]
            problems.append(Mismatch(self.name, f"{len(self.expected.items)} events", f"{len(actual)}: {show(summary)}", self.span))
        for index, (want, got) in enumerate(zip(self.expected.items, actual)):
            result = match_event(want, got, bindings, f"{self.name}[{index}]")
            bindings = result.bindings
            problems.extend(result.mismatches)
        if problems:
            return (Check(self.name, CheckStatus.FAILED, self.span, explain(problems), problems[0].span),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


def match_event(expected: Mapping, actual: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        if key == "error":
            got = actual.get("error")
            if isinstance(want, Scalar):
                category = got.get("category") if got is not None else None
                if want.value != category:
                    problems.append(Mismatch(child, repr(want.value), show(category), want.span))
                continue
            if got is None:
                problems.append(Mismatch(child, "an error", "none", want.span))
                continue
            result = match(want, got, bindings, child, "subset")
        else:
            if key not in actual:
                problems.append(Mismatch(child, "present", "absent", expected.key_span(key)))
                continue
            result = match(want, actual[key], bindings, child, "exact")
        bindings = result.bindings
        problems.extend(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class DrainSummaryRule(SelectingRule):
    """`{timeout_reached, undelivered_count | undelivered_count_min}` against a drain summary."""

    def evaluate(self, ctx: Context, bindings: Any):
        summary = self.select(ctx)
        if summary is None:
            return (Check(self.name, CheckStatus.FAILED, self.span, "no drain summary was recorded"),), bindings
        if "raised" in summary:  # graph-engine §6: drain MUST accept an optional timeout
            return (Check(self.name, CheckStatus.FAILED, self.span, f"the drain call raised {summary['raised']}"),), bindings
        if "not_a_summary" in summary:  # graph-engine §6: drain MUST return a summary
            return (Check(self.name, CheckStatus.FAILED, self.span, f"drain returned a {summary['not_a_summary']}, "
                          "not a summary with timeout_reached and undelivered_count"),), bindings
        problems = []
        for key, want in self.expected.items():
            if key == "undelivered_count_min":
                if not summary["undelivered_count"] >= want.value:
                    problems.append(Mismatch(f"{self.name}.undelivered_count", f">= {want.value}", show(summary["undelivered_count"]), want.span))
                continue
            result = match(want, summary.get(key), bindings, f"{self.name}.{key}")
            problems.extend(result.mismatches)
        if problems:
            return (Check(self.name, CheckStatus.FAILED, self.span, explain(problems, limit=len(problems)), problems[0].span),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


# ---------------------------------------------------------------------------------------------
# Rule builders


def _value(name: str, select: Callable, mode: str = "exact"):
    return lambda node, span: ValueRule(name, span, node, select, mode)


def _observer_events(node: Any, span: Span | None) -> Rule:
    if isinstance(node, Sequence):  # the one-observer list form
        return EventsRule("expected.observer_events", span, node, lambda ctx: node_events(primary_events(ctx)))
    return AllOf(tuple(EventsRule(f"expected.observer_events.{name}", node.key_span(name), events, observer_events(name)) for name, events in node.items()))


def _node_drains(node: Mapping, span: Span | None) -> Rule:
    def select_for(name: str):
        def select(ctx: Context) -> Any:
            drains = invocation_of(ctx).node_drains
            if name not in drains:
                raise LookupError(f"node {name!r} did not drain")
            return drains[name]
        return select

    return AllOf(tuple(DrainSummaryRule(f"expected.node_drain_summaries.{n}", node.key_span(n), v, select_for(n)) for n, v in node.items()))


def _snapshots(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for node_name, per_observer in node.items():
        for observer, events in per_observer.items():
            def select(ctx: Context, n=node_name, o=observer) -> Any:
                snapshots = invocation_of(ctx).node_snapshots
                if n not in snapshots or o not in snapshots[n]:
                    raise LookupError(f"no snapshot of {o!r} at node {n!r}")
                return node_events(snapshots[n][o])
            rules.append(EventsRule(f"expected.node_accumulator_snapshots.{node_name}.{observer}", per_observer.key_span(observer), events, select))
    return AllOf(tuple(rules))


def _final_accumulators(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for observer, events in node.items():
        def select(ctx: Context, o=observer) -> Any:
            buckets = invocation_of(ctx).accumulators.get(o)
            if buckets is None:
                raise LookupError(f"no accumulate observer named {o!r}")
            return node_events([e for bucket in buckets.values() for e in bucket])
        rules.append(EventsRule(f"expected.final_accumulator_state.{observer}", node.key_span(observer), events, select))
    return AllOf(tuple(rules))


def _delivery_order(node: Sequence, span: Span | None) -> Rule:
    def select(ctx: Context) -> Any:
        deliveries = invocation_of(ctx).deliveries
        rows = [pmap({"observer": name, **{k: v for k, v in event.items()}}) for name, _, event in deliveries if event.get("type") == "NodeEvent"]
        return rows

    return EventsRule("expected.delivery_order", span, node, select)


def _trace_records(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for recorder, records in node.items():
        def select(ctx: Context, r=recorder) -> Any:
            return [entry[2] for entry in ctx.trace.middleware_log if entry[0] == "trace" and entry[1] == r]
        rules.append(ValueRule(f"expected.trace_records.{recorder}", node.key_span(recorder), records, select, "subset"))
    return AllOf(tuple(rules))


def _timing_records(node: Sequence, span: Span | None) -> Rule:
    return ValueRule("expected.timing_records", span, node, lambda ctx: [e[1] for e in ctx.trace.middleware_log if e[0] == "timing"], "subset")


def _outcome(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.outcome", span, node, lambda ctx: invocation_of(ctx).outcome.value)  # the word, as the fixture spells it


# directive → rule builder, for every capability
SHAPES = (
    ShapeRow("final_state", lambda node, span: StateRule("expected.final_state", span, node, final_state)),
    ShapeRow("final_state_at_error", lambda node, span: StateRule("expected.final_state_at_error", span, node, state_at_error)),
    ShapeRow("recoverable_state", lambda node, span: StateRule("expected.recoverable_state", span, node, state_at_error)),
    ShapeRow("execution_order", _value("expected.execution_order", lambda ctx: invocation_of(ctx).execution_order)),
    ShapeRow("outcome", _outcome),
    ShapeRow("error", lambda node, span: ErrorRule("expected.error", span, node, invocation_error)),
    ShapeRow("expected_error", lambda node, span: ErrorRule("expected_error", span, node, invocation_error)),
    ShapeRow("observer_events", _observer_events),
    ShapeRow("drain_summary", lambda node, span: DrainSummaryRule("expected.drain_summary", span, node, lambda ctx: invocation_of(ctx).drain)),
    ShapeRow("node_drain_summaries", _node_drains),
    ShapeRow("node_accumulator_snapshots", _snapshots),
    ShapeRow("final_accumulator_state", _final_accumulators),
    ShapeRow("delivery_order", _delivery_order),
    ShapeRow("trace_records", _trace_records),
    ShapeRow("timing_records", _timing_records),
)
