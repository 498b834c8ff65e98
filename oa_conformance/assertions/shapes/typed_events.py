"""Typed-event collectors (``expected.observers.<collector>``, conformance-adapter §5.5) over the
``typed_events`` collection, and the node's own completed event for typed-event fixtures that expect
a failure without ``expected_error``.

**Typed events** (``expected.observers.<collector>``): ``contains_event`` (an event of the family
whose ``fields`` match — a literal null is present-and-null, a mapping a present record, an
omitted key unasserted), counts, order and cover assertions, over the collector's storage in
arrival order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...ast.nodes import Mapping, Scalar
from ...model.diagnostics import Span
from ...ast.values import literal
from ..matchers import Match, Mismatch, absorb, match, show
from ..rules import Check, CheckStatus, Context, Rule, SelectingRule, ShapeRow, Unverified, AllOf, node_events, \
    primary_events, verdict

OBS = "observability"

# ---------------------------------------------------------------------------------------------
# The node's own completed event (typed-event fixtures that expect a failure without expected_error)


def _completed_event_of(node: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        events = node_events(primary_events(ctx))
        found = [e for e in events if e.get("node_name") == node and e.get("phase") == "completed"]
        if not found:
            raise LookupError(f"no completed event of node {node!r}")
        return found[-1]
    return select


@dataclass(frozen=True)
class NodeCompletedCarriesError(SelectingRule):
    """``node_completed_event_carries_error: {node_name, error_category}``: the node's completed
    event carries an error of that category (the derived one: a node_exception carrier names its
    cause). It describes a failed run, so the case expects the invocation's error."""

    expects_failure = True

    def evaluate(self, ctx: Context, bindings: Any):
        event = self.select(ctx)
        error = event.get("error")
        checks = []
        for key, want in self.expected.items():
            if key == "node_name":
                continue
            if key != "error_category":
                checks.append(Check(f"{self.name}.{key}", CheckStatus.UNVERIFIED, self.expected.key_span(key), f"not implemented: {key!r}"))
                continue
            categories = []
            if error is not None:
                categories.append(error.get("category"))
                chain = error.get("cause_chain")
                categories.append(chain.get("category") if hasattr(chain, "get") else None)
            ok = want.value in categories
            checks.append(Check(f"{self.name}.{key}", CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.expected.key_span(key),
                                "" if ok else f"the completed event's error is {show(error)}"))
        return tuple(checks), bindings


def _node_completed_carries_error(node: Mapping, span: Span | None) -> Rule:
    return NodeCompletedCarriesError("expected.node_completed_event_carries_error", span, node,
                                     _completed_event_of(node.get("node_name").value))


# ---------------------------------------------------------------------------------------------
# Typed-event collectors (expected.observers.<collector>)


def collector_events(name: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        collection = ctx.trace.collections.get("typed_events")
        if collection is None or name not in collection:
            raise LookupError(f"no typed-event collector named {name!r}")
        return collection[name]
    return select


def of_type(events: Any, family: str) -> list[Any]:
    return [event for event in events if event["type"] == family]


@dataclass(frozen=True)
class ContainsEvent(SelectingRule):
    """``contains_event``: some event of ``event_type`` whose ``fields`` match (subset)."""

    def evaluate(self, ctx: Context, bindings: Any):
        family = self.expected.event_type.value
        candidates = of_type(self.select(ctx), family)
        fields = self.expected.fields
        if not candidates:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"no {family} among {show([e['type'] for e in self.select(ctx)])}"),), bindings
        if fields is None and self.expected.fields_absent_keys is None:
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        absent = self.expected.fields_absent_keys
        path = self.name.split(".", 1)[-1]

        def judged(event: Any) -> Match:
            fielded = match(fields, event, bindings, f"{path}.fields", "subset") if fields is not None else Match(True, bindings)
            return _with_absent_keys(absent, event, fielded, f"{path}.fields_absent_keys")

        results = [judged(event) for event in candidates]
        best = next((r for r in results if r.ok), None) or min(results, key=lambda r: len(r.mismatches))
        check = verdict(self.name, self.span, best)
        if not best.ok and len(candidates) > 1:
            check = Check(check.name, check.status, check.span, f"none of {len(candidates)} {family} events matches; closest: {check.detail}", check.at)
        return (check,), best.bindings


def _with_absent_keys(absent: Any, event: Any, result: Match, path: str) -> Match:
    """``fields_absent_keys: {field: [key, ...]}``: the field is a mapping holding none of the keys."""
    if absent is None:
        return result
    problems = list(result.mismatches)
    for field, keys in absent.items():
        value = event.get(field)
        span = absent.key_span(field)
        if not hasattr(value, "keys"):
            problems.append(Mismatch(f"{path}.{field}", "a mapping", show(value), span))
            continue
        present = [key.value for key in keys.items if key.value in value]
        if present:
            problems.append(Mismatch(f"{path}.{field}", f"none of {[k.value for k in keys.items]}", f"present: {present}", span))
    return Match(not problems, result.bindings, tuple(problems))


@dataclass(frozen=True)
class EventCount(SelectingRule):
    """How many events of one family the collector holds: ``compare`` is ``eq`` or ``ge``."""

    family: str = ""
    count: int = 0
    compare: str = "eq"

    def evaluate(self, ctx: Context, bindings: Any):
        seen = len(of_type(self.select(ctx), self.family))
        ok = seen == self.count if self.compare == "eq" else seen >= self.count
        want = f"{'' if self.compare == 'eq' else 'at least '}{self.count}"
        return (Check(self.name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.span, "" if ok else f"expected {want} {self.family}, got {seen}"),), bindings


@dataclass(frozen=True)
class EventsInOrder(SelectingRule):
    """``contains_events_in_order``: the family's events in arrival order, matched positionally."""

    def evaluate(self, ctx: Context, bindings: Any):
        family = self.expected.event_type.value
        events = of_type(self.select(ctx), family)
        wanted = self.expected.events
        path = self.name.split(".", 1)[-1]
        if len(events) != len(wanted.items):
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {len(wanted.items)} {family} events, got {len(events)}"),), bindings
        problems: list[Mismatch] = []
        for position, (want, event) in enumerate(zip(wanted.items, events)):
            bindings = absorb(problems, match(want, event, bindings, f"{path}.events[{position}]", "subset"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class EveryEventHas(SelectingRule):
    """``every_captured_event_has``: each captured event carries these values (none captured fails)."""

    def evaluate(self, ctx: Context, bindings: Any):
        events = self.select(ctx)
        if not events:
            return (Check(self.name, CheckStatus.FAILED, self.span, "the collector captured no event"),), bindings
        problems: list[Mismatch] = []
        for position, event in enumerate(events):
            bindings = absorb(problems, match(self.expected, event, bindings, f"{self.name.split('.', 1)[-1]}[{position}]", "subset"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class ValuesCover(SelectingRule):
    """``captured_event_field_values_cover``: across the captured events, ``field`` takes every value listed."""

    def evaluate(self, ctx: Context, bindings: Any):
        field = self.expected.field.value
        seen = [event.get(field) for event in self.select(ctx) if field in event]
        missing = [value for value in literal(self.expected.values) if value not in seen]
        ok = not missing
        return (Check(self.name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.span, "" if ok else f"{field} never took {show(missing)}; seen {show(seen)}",
                      None if ok else self.expected.key_span("values")),), bindings


@dataclass(frozen=True)
class RelativeOrder(SelectingRule):
    """``relative_order_of_events_matching``: the events matching ``filter``, in arrival order, are
    exactly ``expected_order`` (each entry: ``event_type`` and optional event fields such as ``phase``)."""

    def evaluate(self, ctx: Context, bindings: Any):
        events = [e for e in self.select(ctx) if match(self.expected.filter, e, bindings, "", "subset").ok]
        order = self.expected.expected_order
        path = self.name.split(".", 1)[-1]
        seen = [(e["type"], e.get("phase")) for e in events]
        if len(events) != len(order.items):
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {len(order.items)} matching events, got {len(events)}: {show(seen)}",
                          order.span),), bindings
        problems: list[Mismatch] = []
        for position, (want, event) in enumerate(zip(order.items, events)):
            for key, value in want.items():
                got = event["type"] if key == "event_type" else event.get(key)
                bindings = absorb(problems, match(value, got, bindings, f"{path}.expected_order[{position}].{key}", "exact"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class Documents(Rule):
    """A key that documents an implementation-defined latitude and asserts nothing about the run:
    verified when it states the latitude (``true``), failed otherwise."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        ok = isinstance(self.expected, Scalar) and self.expected.value is True
        return (Check(self.name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.span, "" if ok else "expected the documentation flag true"),), bindings


def _collector_rules(collector: str, assertions: Mapping) -> list[Rule]:
    select = collector_events(collector)
    rules: list[Rule] = []
    for key, value in assertions.items():
        name, span = f"expected.observers.{collector}.{key}", assertions.key_span(key)
        if key == "contains_event":
            rules.append(ContainsEvent(name, span, value, select))
        elif key == "contains_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 1, "ge"))
        elif key == "contains_exactly_one_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 1))
        elif key == "does_not_contain_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 0))
        elif key in ("event_count", "contains_exactly_n_events_of_type"):
            rules.append(EventCount(name, span, value, select, value.event_type.value, value.count.value))
        elif key == "event_counts":
            for position, entry in enumerate(value.items):
                rules.append(EventCount(f"{name}[{position}]", entry.span, entry, select, entry.event_type.value, entry.count.value))
        elif key == "contains_events_in_order":
            rules.append(EventsInOrder(name, span, value, select))
        elif key == "every_captured_event_has":
            rules.append(EveryEventHas(name, span, value, select))
        elif key == "captured_event_field_values_cover":
            rules.append(ValuesCover(name, span, value, select))
        elif key == "relative_order_of_events_matching":
            rules.append(RelativeOrder(name, span, value, select))
        elif key == "sentinel_node_event_emission_is_impl_defined":
            rules.append(Documents(name, span, value))
        else:
            rules.append(Unverified(name, span, f"not implemented: typed-event assertion {key!r}"))
    return rules


def _observers(node: Mapping, span: Span | None) -> Rule:
    """``expected.observers``: per typed-event collector, its assertions (conformance-adapter §5.5)."""
    return AllOf(tuple(rule for collector, assertions in node.items() for rule in _collector_rules(collector, assertions)))


# directive → rule builder
SHAPES = (
    ShapeRow("node_completed_event_carries_error", _node_completed_carries_error, OBS),
    ShapeRow("observers", _observers),
)


__all__ = ["collector_events", "of_type"]
