"""Expected-outcome shapes (§5.8) as rule objects over the trace.

Each rule is built once from its piece of the AST (pure, immutable) and checked against a trace
with the first-occurrence bindings threaded in and out. A rule returns :class:`Check` records —
``verified``, ``failed`` (with the mismatch) or ``unverified`` (the adapter cannot check it: the
case then does not pass). :data:`SHAPES` maps each ``expected:`` directive to its rule.

To add a shape: write a function ``(node, span) -> Rule`` (usually a :class:`ValueRule` over a
trace selector) and register it in :data:`SHAPES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from pyrsistent import pmap

from ..ast.nodes import Mapping, Node, Scalar, Sequence
from ..diagnostics import Span
from ..interpreter.trace import CaseTrace, InvocationTrace
from .matchers import Match, Mismatch, match, show

VERIFIED, FAILED, UNVERIFIED = "verified", "failed", "unverified"


@dataclass(frozen=True)
class Check:
    """The verdict on one expectation of a case."""

    name: str
    status: str
    span: Span | None
    detail: str = ""
    at: Span | None = None  # where the first mismatch is (inside the expectation), when known

    @property
    def location(self) -> Span | None:
        return self.at or self.span

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        return f"{where}{self.name}: {self.status}{' — ' + self.detail if self.detail else ''}"


@dataclass(frozen=True)
class Context:
    """What a rule reads: the whole case trace and the invocation the block is about."""

    trace: CaseTrace
    invocation: InvocationTrace | None


class Rule:
    """A check over the trace. Subclasses are frozen dataclasses with at least ``name`` and ``span``."""

    def check(self, ctx: Context, bindings: Any) -> tuple[tuple[Check, ...], Any]:  # pragma: no cover
        raise NotImplementedError


def verdict(name: str, span: Span | None, result: Match) -> Check:
    if result.ok:
        return Check(name, VERIFIED, span)
    return Check(name, FAILED, span, "; ".join(str(m) for m in result.mismatches[:5]), result.mismatches[0].span)


@dataclass(frozen=True)
class ValueRule(Rule):
    """Match an expected value against what ``select`` reads from the context."""

    name: str
    span: Span | None
    expected: Any
    select: Callable[[Context], Any]
    mode: str = "exact"
    needs: str = ""  # why the selected value can be missing, for the message

    def check(self, ctx: Context, bindings: Any):
        try:
            actual = self.select(ctx)
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, f"nothing to compare: {missing}"),), bindings
        result = match(self.expected, actual, bindings, self.name.split(".", 1)[-1], self.mode)
        return (verdict(self.name, self.span, result),), result.bindings


@dataclass(frozen=True)
class Unverified(Rule):
    name: str
    span: Span | None
    reason: str

    def check(self, ctx: Context, bindings: Any):
        return (Check(self.name, UNVERIFIED, self.span, self.reason),), bindings


# ---------------------------------------------------------------------------------------------
# Selectors over the trace


def _invocation(ctx: Context) -> InvocationTrace:
    if ctx.invocation is None:
        raise LookupError("the case never invoked the graph (compilation failed)")
    return ctx.invocation


def final_state(ctx: Context) -> Any:
    inv = _invocation(ctx)
    if inv.outcome != "completed":
        raise LookupError(f"the invocation {inv.outcome}: {inv.error.category if inv.error else ''} {inv.error.message if inv.error else ''}".strip())
    return inv.final_state


def state_at_error(ctx: Context) -> Any:
    inv = _invocation(ctx)
    if inv.error is None:
        raise LookupError("the invocation did not fail")
    state = inv.error.attributes.get("recoverable_state")
    if state is None:
        raise LookupError(f"the {inv.error.type_name} carries no recoverable_state")
    return state


def node_events(events: Iterable[Any]) -> list[Any]:
    """The NodeEvents of a recorded event list (what observer_events assertions list)."""
    return [e for e in events if e.get("type") == "NodeEvent"]


def observer_events(name: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        events = _invocation(ctx).events
        if name not in events:
            raise LookupError(f"no observer named {name!r}")
        return node_events(events[name])

    return select


# ---------------------------------------------------------------------------------------------
# Rules with their own logic


@dataclass(frozen=True)
class EventsRule(Rule):
    """An exact ordered list of events; each expected event is a subset match of its fields.

    An event's ``error: <category>`` scalar is shorthand for ``error: {category: <category>}``.
    """

    name: str
    span: Span | None
    expected: Sequence
    select: Callable[[Context], Any]

    def check(self, ctx: Context, bindings: Any):
        try:
            actual = self.select(ctx)
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, str(missing)),), bindings
        problems: list[Mismatch] = []
        if len(actual) != len(self.expected.items):
            summary = [(e.get("node_name"), e.get("phase"), e.get("attempt_index")) for e in actual]
            problems.append(Mismatch(self.name, f"{len(self.expected.items)} events", f"{len(actual)}: {show(summary)}", self.span))
        for index, (want, got) in enumerate(zip(self.expected.items, actual)):
            result = match_event(want, got, bindings, f"{self.name}[{index}]")
            bindings = result.bindings
            problems.extend(result.mismatches)
        if problems:
            return (Check(self.name, FAILED, self.span, "; ".join(str(p) for p in problems[:5])),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


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
class ErrorRule(Rule):
    """An expected error (`expected_error`, `error`, `first_run_expected_error`)."""

    name: str
    span: Span | None
    expected: Any  # the ErrorExpectation section
    select: Callable[[Context], Any]

    def check(self, ctx: Context, bindings: Any):
        try:
            error = self.select(ctx)
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, str(missing)),), bindings
        checks = []
        for key, want in self.expected.items():
            name = f"{self.name}.{key}"
            span = self.expected.key_span(key)
            if key == "category":
                actual = error.category
            elif key == "raised_from":
                actual = error.node
            elif key == "message":
                actual = error.message
            elif key == "execution_order":
                actual = _invocation(ctx).execution_order
            elif key in error.attributes:
                actual = error.attributes[key]
            else:
                checks.append(Check(name, UNVERIFIED, span, f"not implemented: error field {key!r}"))
                continue
            result = match(want, actual, bindings, name, "exact")
            bindings = result.bindings
            checks.append(verdict(name, span, result))
        return tuple(checks), bindings


def invocation_error(ctx: Context) -> Any:
    inv = _invocation(ctx)
    if inv.error is None:
        raise LookupError(f"the invocation {inv.outcome} without an error (final state {show(inv.final_state)})")
    return inv.error


@dataclass(frozen=True)
class CompileErrorRule(Rule):
    name: str
    span: Span | None
    expected: Scalar

    def check(self, ctx: Context, bindings: Any):
        error = ctx.trace.compile_error
        if error is None:
            return (Check(self.name, FAILED, self.span, f"expected compilation to fail with {self.expected.value!r}; it compiled"),), bindings
        if error.category != self.expected.value:
            return (Check(self.name, FAILED, self.span, f"expected {self.expected.value!r}, got {error.category!r} ({error.message})"),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


@dataclass(frozen=True)
class CompileWarningRule(Rule):
    name: str
    span: Span | None
    expected: Any  # Scalar (presence) or Sequence (exhaustive set)

    def check(self, ctx: Context, bindings: Any):
        seen = list(ctx.trace.compile_warnings)
        if ctx.trace.compile_error is not None:
            return (Check(self.name, FAILED, self.span, f"compilation failed: {ctx.trace.compile_error.message}"),), bindings
        if isinstance(self.expected, Scalar):
            ok = self.expected.value in seen
            detail = f"expected {self.expected.value!r} among the warnings, got {seen}"
        else:
            wanted = sorted(item.value for item in self.expected.items)
            ok = sorted(seen) == wanted
            detail = f"expected exactly {wanted}, got {sorted(seen)}"
        return (Check(self.name, VERIFIED if ok else FAILED, self.span, "" if ok else detail),), bindings


@dataclass(frozen=True)
class DrainSummaryRule(Rule):
    """`{timeout_reached, undelivered_count | undelivered_count_min}` against a drain summary."""

    name: str
    span: Span | None
    expected: Mapping
    select: Callable[[Context], Any]

    def check(self, ctx: Context, bindings: Any):
        try:
            summary = self.select(ctx)
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, str(missing)),), bindings
        if summary is None:
            return (Check(self.name, FAILED, self.span, "no drain summary was recorded"),), bindings
        problems = []
        for key, want in self.expected.items():
            if key == "undelivered_count_min":
                if not summary["undelivered_count"] >= want.value:
                    problems.append(Mismatch(f"{self.name}.undelivered_count", f">= {want.value}", show(summary["undelivered_count"]), want.span))
                continue
            result = match(want, summary.get(key), bindings, f"{self.name}.{key}")
            problems.extend(result.mismatches)
        if problems:
            return (Check(self.name, FAILED, self.span, "; ".join(map(str, problems))),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


# ---------------------------------------------------------------------------------------------
# The shape table: expected directive → rule


def _value(name: str, select: Callable, mode: str = "exact"):
    return lambda node, span: ValueRule(name, span, node, select, mode)


def _observer_events(node: Any, span: Span | None) -> Rule:
    if isinstance(node, Sequence):  # the one-observer list form
        return EventsRule("expected.observer_events", span, node, lambda ctx: node_events(next(iter(_invocation(ctx).events.values()), ())))
    return _AllOf(tuple(EventsRule(f"expected.observer_events.{name}", node.key_span(name), events, observer_events(name)) for name, events in node.items()))


def _node_drains(node: Mapping, span: Span | None) -> Rule:
    def select_for(name: str):
        def select(ctx: Context) -> Any:
            drains = _invocation(ctx).node_drains
            if name not in drains:
                raise LookupError(f"node {name!r} did not drain")
            return drains[name]
        return select

    return _AllOf(tuple(DrainSummaryRule(f"expected.node_drain_summaries.{n}", node.key_span(n), v, select_for(n)) for n, v in node.items()))


def _snapshots(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for node_name, per_observer in node.items():
        for observer, events in per_observer.items():
            def select(ctx: Context, n=node_name, o=observer) -> Any:
                snapshots = _invocation(ctx).node_snapshots
                if n not in snapshots or o not in snapshots[n]:
                    raise LookupError(f"no snapshot of {o!r} at node {n!r}")
                return node_events(snapshots[n][o])
            rules.append(EventsRule(f"expected.node_accumulator_snapshots.{node_name}.{observer}", per_observer.key_span(observer), events, select))
    return _AllOf(tuple(rules))


def _final_accumulators(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for observer, events in node.items():
        def select(ctx: Context, o=observer) -> Any:
            buckets = _invocation(ctx).accumulators.get(o)
            if buckets is None:
                raise LookupError(f"no accumulate observer named {o!r}")
            return node_events([e for bucket in buckets.values() for e in bucket])
        rules.append(EventsRule(f"expected.final_accumulator_state.{observer}", node.key_span(observer), events, select))
    return _AllOf(tuple(rules))


def _delivery_order(node: Sequence, span: Span | None) -> Rule:
    def select(ctx: Context) -> Any:
        deliveries = _invocation(ctx).deliveries
        rows = [pmap({"observer": name, **{k: v for k, v in event.items()}}) for name, event in deliveries if event.get("type") == "NodeEvent"]
        return rows[: len(node.items)]

    return EventsRule("expected.delivery_order", span, node, select)


def _trace_records(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for recorder, records in node.items():
        def select(ctx: Context, r=recorder) -> Any:
            return [entry[2] for entry in ctx.trace.middleware_log if entry[0] == "trace" and entry[1] == r]
        rules.append(ValueRule(f"expected.trace_records.{recorder}", node.key_span(recorder), records, select, "subset"))
    return _AllOf(tuple(rules))


def _timing_records(node: Sequence, span: Span | None) -> Rule:
    return ValueRule("expected.timing_records", span, node, lambda ctx: [e[1] for e in ctx.trace.middleware_log if e[0] == "timing"], "subset")


@dataclass(frozen=True)
class _AllOf(Rule):
    rules: tuple[Rule, ...]

    def check(self, ctx: Context, bindings: Any):
        checks: list[Check] = []
        for rule in self.rules:
            found, bindings = rule.check(ctx, bindings)
            checks.extend(found)
        return tuple(checks), bindings


def _outcome(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.outcome", span, node, lambda ctx: _invocation(ctx).outcome)


SHAPES: dict[str, Callable[[Any, Span | None], Rule]] = {
    "final_state": _value("expected.final_state", final_state),
    "final_state_at_error": _value("expected.final_state_at_error", state_at_error),
    "recoverable_state": _value("expected.recoverable_state", state_at_error),
    "execution_order": _value("expected.execution_order", lambda ctx: _invocation(ctx).execution_order),
    "outcome": _outcome,
    "error": lambda node, span: ErrorRule("expected.error", span, node, invocation_error),
    "expected_error": lambda node, span: ErrorRule("expected_error", span, node, invocation_error),
    "observer_events": _observer_events,
    "drain_summary": lambda node, span: DrainSummaryRule("expected.drain_summary", span, node, lambda ctx: _invocation(ctx).drain),
    "node_drain_summaries": _node_drains,
    "node_accumulator_snapshots": _snapshots,
    "final_accumulator_state": _final_accumulators,
    "delivery_order": _delivery_order,
    "trace_records": _trace_records,
    "timing_records": _timing_records,
}


def shape(name: str) -> Callable:
    """Register a rule factory ``(node, span) -> Rule`` for the ``expected:`` directive ``name``."""

    def register(factory: Callable) -> Callable:
        SHAPES[name] = factory
        return factory

    return register


def shape_rule(directive: str, node: Any, span: Span | None) -> Rule:
    factory = SHAPES.get(directive)
    if factory is None:
        return Unverified(f"expected.{directive}", span, f"not implemented: expected shape {directive!r}")
    return factory(node, span)


__all__ = ["Check", "Context", "FAILED", "Node", "Rule", "SHAPES", "UNVERIFIED", "VERIFIED", "shape", "shape_rule"]
