"""Expected-outcome shapes (§5.8) as rule objects over the trace.

Each rule is built once from its piece of the AST (pure, immutable) and checked against a trace
with the first-occurrence bindings threaded in and out. A rule returns :class:`Check` records —
``verified``, ``failed`` (with the mismatch) or ``unverified`` (the adapter cannot check it: the
case then does not pass). :data:`SHAPES` maps each ``expected:`` directive to its rule.

To add a shape: write a function ``(node, span) -> Rule`` (usually a :class:`ValueRule` over a
trace selector) and register it in :data:`SHAPES`.
"""

from __future__ import annotations

from ..kinds import is_sequence

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from pyrsistent import pmap

from ..ast.nodes import Mapping, Node, Scalar, Sequence
from ..diagnostics import Span
from ..trace import CaseTrace, InvocationTrace, primary_observer
from .matchers import Match, Mismatch, explain, match, show

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

    def __str__(self) -> str:  # no location: a report puts ``location`` beside it once
        detail = self.detail.removeprefix(f"{self.name}: ")  # a mismatch at the check's own path says it once
        return f"{self.name}: {self.status}{': ' + detail if detail else ''}"


@dataclass(frozen=True)
class Context:
    """What a rule reads: the whole case trace and the invocation the block is about."""

    trace: CaseTrace
    invocation: InvocationTrace | None
    # The event list a scoped predicate block reads instead of an observer's recording (an
    # accumulator snapshot, for `node_accumulator_snapshot_invariants`); None: the observers'.
    events: Any = None
    # A direct case (no graph run, e.g. llm-provider `calls:`): the index of the `calls` collection
    # entry the block is about; None for the case as a whole.
    call: int | None = None


class Rule:
    """A check over the trace. Subclasses are frozen dataclasses with at least ``name`` and ``span``.

    A subclass implements :meth:`evaluate`; whatever it needs and the trace does not hold (its
    selector raises ``LookupError``) fails the check with the reason, in one place.
    """

    def check(self, ctx: Context, bindings: Any) -> tuple[tuple[Check, ...], Any]:
        try:
            return self.evaluate(ctx, bindings)
        except LookupError as missing:
            return (Check(self.name, FAILED, self.span, f"nothing to compare: {missing}"),), bindings

    def evaluate(self, ctx: Context, bindings: Any) -> tuple[tuple[Check, ...], Any]:  # pragma: no cover
        raise NotImplementedError


def verdict(name: str, span: Span | None, result: Match) -> Check:
    if result.ok:
        return Check(name, VERIFIED, span)
    return Check(name, FAILED, span, explain(result.mismatches), result.mismatches[0].span)


@dataclass(frozen=True)
class SelectingRule(Rule):
    """A rule about one value ``select`` reads from the context, judged against ``expected``."""

    name: str
    span: Span | None
    expected: Any  # the AST the fixture wrote
    select: Callable[[Context], Any]


@dataclass(frozen=True)
class ValueRule(SelectingRule):
    """Match an expected value against what ``select`` reads from the context."""
    mode: str = "exact"
    needs: str = ""  # why the selected value can be missing, for the message

    def evaluate(self, ctx: Context, bindings: Any):
        actual = self.select(ctx)
        result = match(self.expected, actual, bindings, self.name.split(".", 1)[-1], self.mode)
        return (verdict(self.name, self.span, result),), result.bindings


@dataclass(frozen=True)
class StateRule(ValueRule):
    """An outer-graph state: exact, except that the records of a ``record_fields`` field (an
    errors_field, whose record shape the spec leaves to the implementation) match by the keys named."""

    def evaluate(self, ctx: Context, bindings: Any):
        record_fields = ctx.trace.record_fields
        if not record_fields or not isinstance(self.expected, Mapping):
            return super().evaluate(ctx, bindings)
        actual = self.select(ctx)
        path = self.name.split(".", 1)[-1]
        problems: list[Mismatch] = []
        extra = sorted(str(key) for key in actual.keys() if key not in self.expected)
        if extra:
            problems.append(Mismatch(path, f"exactly the keys {list(self.expected.keys)}", f"also {extra}", self.span))
        for key, want in self.expected.items():
            if key not in actual:
                problems.append(Mismatch(f"{path}.{key}", "present", "absent", self.expected.key_span(key)))
                continue
            result = match(want, actual[key], bindings, f"{path}.{key}", "subset" if key in record_fields else "exact")
            bindings = result.bindings
            problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class Unverified(Rule):
    name: str
    span: Span | None
    reason: str

    def check(self, ctx: Context, bindings: Any):
        return (Check(self.name, UNVERIFIED, self.span, self.reason),), bindings


# ---------------------------------------------------------------------------------------------
# Selectors over the trace


def invocation_of(ctx: Context) -> InvocationTrace:
    """The invocation a rule is about; a case that never invoked the graph has none to judge."""
    if ctx.invocation is None:
        raise LookupError("the case never invoked the graph (compilation failed)")
    return ctx.invocation


def final_state(ctx: Context) -> Any:
    inv = invocation_of(ctx)
    if inv.outcome != "completed":
        raise LookupError(f"the invocation {inv.outcome}: {inv.error.category if inv.error else ''} {inv.error.message if inv.error else ''}".strip())
    return inv.final_state


def state_at_error(ctx: Context) -> Any:
    inv = invocation_of(ctx)
    if inv.error is None:
        raise LookupError("the invocation did not fail")
    state = inv.error.attributes.get("recoverable_state")
    if state is None:
        raise LookupError(f"the {inv.error.type_name} carries no recoverable_state")
    return state


def collection(ctx: Context, name: str, missing: str | None = None) -> Any:
    """The case's trace collection ``name`` (docs/TRACE.md); a LookupError saying ``missing`` (default:
    the name) when the case did not record it, so a check over it fails instead of passing vacuously."""
    found = ctx.trace.collections.get(name)
    if found is None:
        raise LookupError(missing or f"the case recorded no {name!r} collection")
    return found


def node_events(events: Iterable[Any]) -> list[Any]:
    """The NodeEvents of a recorded event list (what observer_events assertions list)."""
    return [e for e in events if e.get("type") == "NodeEvent"]


def observer_events(name: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        events = invocation_of(ctx).events
        if name not in events:
            raise LookupError(f"no observer named {name!r}")
        return node_events(events[name])

    return select


# ---------------------------------------------------------------------------------------------
# Rules with their own logic


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
            return (Check(self.name, FAILED, self.span, explain(problems), problems[0].span),), bindings
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
class ErrorRule(SelectingRule):
    """An expected error (`expected_error`, `error`, `first_run_expected_error`)."""

    def evaluate(self, ctx: Context, bindings: Any):
        error = self.select(ctx)
        checks = []
        for key, want in self.expected.items():
            name = f"{self.name}.{key}"
            span = self.expected.key_span(key)
            if key == "category":
                # A node_exception carrier (graph-engine §4) wraps the originating error: a fixture may
                # name the carrier's category or the one the cause chain derives (conformance-adapter §5.8).
                derived = error.attributes.get("derived_category")
                actual = derived if derived is not None and getattr(want, "value", None) == derived else error.category
            elif key == "raised_from":
                actual = error.node
            elif key == "message":
                actual = error.message
            elif key == "execution_order":
                actual = invocation_of(ctx).execution_order
            elif key in ("carries", "cause"):  # §5.13 fields the error exposes / its cause link
                found, bindings = (_carries if key == "carries" else _cause)(want, error, bindings, name)
                checks.extend(found)
                continue
            elif key in DERIVED_ERROR_FIELDS:
                try:
                    actual = DERIVED_ERROR_FIELDS[key](ctx, error)
                except LookupError as missing:
                    checks.append(Check(name, FAILED, span, f"nothing to compare: {missing}"))
                    continue
            elif key in error.attributes:
                actual = error.attributes[key]
            else:
                checks.append(Check(name, UNVERIFIED, span, f"not implemented: error field {key!r}"))
                continue
            result = match(want, actual, bindings, name, "exact")
            bindings = result.bindings
            check = verdict(name, span, result)
            if key == "category" and not result.ok:  # say what was raised instead
                check = dataclasses.replace(check, detail=f"{check.detail} (raised {error.type_name}: {error.message})")
            checks.append(check)
        return tuple(checks), bindings


def _carries(expected: Mapping, error: Any, bindings: Any, path: str) -> tuple[list[Check], Any]:
    """`carries` (conformance-adapter §5.13): each key names a field the error exposes — bare
    (exact; a mapping by the keys named), ``_present`` (present / absent) or ``_mentions`` (substring)."""
    checks = []
    for key, want in expected.items():
        name, span = f"{path}.{key}", expected.key_span(key)
        stem, flavor = key, "exact"
        for suffix in ("_present", "_mentions"):
            if key.endswith(suffix):
                stem, flavor = key[: -len(suffix)], suffix[1:]
        actual = error.attributes.get(stem)
        if flavor == "present":
            ok = (actual is not None) == bool(want.value)
            checks.append(Check(name, VERIFIED if ok else FAILED, span, "" if ok else f"{stem} is {show(actual)}"))
        elif stem not in error.attributes:
            checks.append(Check(name, FAILED, span, f"the {error.type_name} exposes no field {stem!r}"))
        elif flavor == "mentions":
            ok = isinstance(actual, str) and str(want.value) in actual
            checks.append(Check(name, VERIFIED if ok else FAILED, span, "" if ok else f"{show(actual)} does not mention {want.value!r}"))
        else:
            result = match(want, actual, bindings, name, "subset")
            bindings = result.bindings
            checks.append(verdict(name, span, result))
    return checks, bindings


CAUSE_FIELDS = {"exception_type": "type", "message": "message", "category": "category"}


def _cause(expected: Mapping, error: Any, bindings: Any, path: str) -> tuple[list[Check], Any]:
    """`cause`: the error's direct cause (the next link of its chain) — exception_type, message, category."""
    checks = []
    link = error.chain[1] if len(error.chain) > 1 else None
    for key, want in expected.items():
        name, span = f"{path}.{key}", expected.key_span(key)
        if link is None:
            checks.append(Check(name, FAILED, span, f"the {error.type_name} has no cause"))
        elif key not in CAUSE_FIELDS:
            checks.append(Check(name, UNVERIFIED, span, f"not implemented: cause field {key!r}"))
        else:
            result = match(want, link.get(CAUSE_FIELDS[key]), bindings, name, "exact")
            bindings = result.bindings
            checks.append(verdict(name, span, result))
    return checks, bindings


def cause_message(ctx: Context, error: Any) -> Any:
    """The message of the outermost non-carrier link below the raised error (what it wraps)."""
    below = [link for link in error.chain[1:] if not link.get("carrier")]
    if not below:
        raise LookupError(f"the {error.type_name} has no non-carrier cause")
    return below[0].get("message")


def flaky_call_count(ctx: Context, error: Any) -> Any:
    """How many times the `flaky` failure mock of the node the error surfaced from was called."""
    return sum(n for key, n in ctx.trace.mock_calls.items() if key[0] == "flaky" and key[1] == error.node)


# Error fields an expectation may name that are read off the trace rather than the error object.
DERIVED_ERROR_FIELDS: dict[str, Callable[[Context, Any], Any]] = {
    "cause_message": cause_message,
    "flaky_call_count": flaky_call_count,
}


def invocation_error(ctx: Context) -> Any:
    inv = invocation_of(ctx)
    if inv.error is None:
        raise LookupError(f"the invocation {inv.outcome} without an error (final state {show(inv.final_state)})")
    return inv.error


def raised_error(ctx: Context) -> Any:
    """The invocation's error as the code inside the node raised it: the category (and type) of
    the outermost non-carrier link of the chain that has one — a provider's §7 category raised
    through the node_exception carrier the engine wraps it in. A chain with no such link (an
    uncategorized exception) keeps the carrier's own. For directories whose `expected_error` is
    about what raised out of a provider call (retrieval-provider 022 header: "Asserts the §7
    category and the raising node")."""
    error = invocation_error(ctx)
    raised = next((link for link in error.chain if not link.get("carrier") and link.get("category")), None)
    if raised is None:
        return error
    return dataclasses.replace(error, category=raised.get("category"), type_name=raised.get("type"))


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
class ConstructionErrorRule(Rule):
    """``expected_construction_error: {category}`` (conformance-adapter §5.5): standing up the case's
    observers / clients raised the categorized error, or their first use did (the run's error)."""

    name: str
    span: Span | None
    expected: Any  # the construction_error_expectation section

    def check(self, ctx: Context, bindings: Any):
        want = self.expected.category.value
        error, when = ctx.trace.construction_error, "at construction"
        if error is None and ctx.trace.main is not None:
            error, when = ctx.trace.main.error, "at first use (the run's error)"
        if error is None:
            return (Check(self.name, FAILED, self.span, f"expected {want!r} at construction or first use; nothing was raised"),), bindings
        if error.category != want:
            return (Check(self.name, FAILED, self.span, f"expected {want!r}, got {error.category!r} {when} ({error.message})"),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


@dataclass(frozen=True)
class BuildOrRunErrorRule(Rule):
    """An error category the spec lets surface either while the graph is built or when it runs
    (`expected_chain_ambiguity_error`: compile-time SHOULD, load-time acceptable, §10.12.2)."""

    name: str
    span: Span | None
    expected: Scalar

    def check(self, ctx: Context, bindings: Any):
        want = self.expected.value
        error = ctx.trace.compile_error
        when = "at graph build"
        if error is None and ctx.invocation is not None:
            error, when = ctx.invocation.error, "when the run resumed"
        if error is None:
            return (Check(self.name, FAILED, self.span, f"expected {want!r} at graph build or at run time; nothing was raised"),), bindings
        if error.category != want:
            return (Check(self.name, FAILED, self.span, f"expected {want!r}, got {error.category!r} {when} ({error.message})"),), bindings
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
class DrainSummaryRule(SelectingRule):
    """`{timeout_reached, undelivered_count | undelivered_count_min}` against a drain summary."""

    def evaluate(self, ctx: Context, bindings: Any):
        summary = self.select(ctx)
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
            return (Check(self.name, FAILED, self.span, explain(problems, limit=len(problems)), problems[0].span),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


# ---------------------------------------------------------------------------------------------
# The shape table: expected directive → rule


def _value(name: str, select: Callable, mode: str = "exact"):
    return lambda node, span: ValueRule(name, span, node, select, mode)


def _observer_events(node: Any, span: Span | None) -> Rule:
    if isinstance(node, Sequence):  # the one-observer list form
        return EventsRule("expected.observer_events", span, node, lambda ctx: node_events(invocation_of(ctx).events[primary_observer(invocation_of(ctx))]))
    return _AllOf(tuple(EventsRule(f"expected.observer_events.{name}", node.key_span(name), events, observer_events(name)) for name, events in node.items()))


def _node_drains(node: Mapping, span: Span | None) -> Rule:
    def select_for(name: str):
        def select(ctx: Context) -> Any:
            drains = invocation_of(ctx).node_drains
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
                snapshots = invocation_of(ctx).node_snapshots
                if n not in snapshots or o not in snapshots[n]:
                    raise LookupError(f"no snapshot of {o!r} at node {n!r}")
                return node_events(snapshots[n][o])
            rules.append(EventsRule(f"expected.node_accumulator_snapshots.{node_name}.{observer}", per_observer.key_span(observer), events, select))
    return _AllOf(tuple(rules))


def _final_accumulators(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for observer, events in node.items():
        def select(ctx: Context, o=observer) -> Any:
            buckets = invocation_of(ctx).accumulators.get(o)
            if buckets is None:
                raise LookupError(f"no accumulate observer named {o!r}")
            return node_events([e for bucket in buckets.values() for e in bucket])
        rules.append(EventsRule(f"expected.final_accumulator_state.{observer}", node.key_span(observer), events, select))
    return _AllOf(tuple(rules))


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


# Event fields that identify one invocation (minted afresh per run), not what the run did.
PER_RUN_IDENTITIES = frozenset(("invocation_id", "correlation_id"))


def run_summary(trace: CaseTrace) -> Any:
    """What a run observably did, without its per-run identities: what repeated runs must agree on."""
    def event(e: Any) -> Any:
        return {k: v for k, v in e.items() if k not in PER_RUN_IDENTITIES}

    def error(e: Any) -> Any:
        return None if e is None else {"category": e.category, "message": e.message, "type": e.type_name, "node": e.node}

    return {
        "compile_error": error(trace.compile_error),
        "invocations": [{
            "outcome": inv.outcome,
            "final_state": inv.final_state,
            "error": error(inv.error),
            "execution_order": inv.execution_order,
            "events": {name: [event(e) for e in events] for name, events in inv.events.items()},
        } for inv in trace.invocations],
    }


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place two plain values differ, as (path, a's value, b's value), or None."""
    def sequence(value: Any) -> bool:
        return is_sequence(value)

    if hasattr(a, "keys") and hasattr(b, "keys"):
        for key in list(a.keys()) + [k for k in b.keys() if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "<absent>"), b.get(key, "<absent>")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if sequence(a) and sequence(b):
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if a == b else (path, a, b)


@dataclass(frozen=True)
class RunsAgree(Rule):
    """`run_count: N` (determinism): every repeated run did exactly what the first run did."""

    name: str
    span: Span | None

    def check(self, ctx: Context, bindings: Any):
        runs = (ctx.trace,) + tuple(ctx.trace.repeats)
        if len(runs) < 2:
            return (Check(self.name, FAILED, self.span, "the case ran once; there is nothing to compare"),), bindings
        reference = run_summary(runs[0])
        for number, repeat in enumerate(runs[1:], start=2):
            found = first_difference(reference, run_summary(repeat))
            if found:
                path, first, other = found
                detail = f"run {number} differs from run 1 at {path.lstrip('.')}: run 1 {show(first)}, run {number} {show(other)}"
                return (Check(self.name, FAILED, self.span, detail),), bindings
        return (Check(self.name, VERIFIED, self.span),), bindings


def _outcome(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.outcome", span, node, lambda ctx: invocation_of(ctx).outcome)


# directive -> factory (general) or (capability, directive) -> factory (directory-scoped, §3.2)
SHAPES: dict[Any, Callable[[Any, Span | None], Rule]] = {
    "final_state": lambda node, span: StateRule("expected.final_state", span, node, final_state),
    "final_state_at_error": lambda node, span: StateRule("expected.final_state_at_error", span, node, state_at_error),
    "recoverable_state": lambda node, span: StateRule("expected.recoverable_state", span, node, state_at_error),
    "execution_order": _value("expected.execution_order", lambda ctx: invocation_of(ctx).execution_order),
    "outcome": _outcome,
    "error": lambda node, span: ErrorRule("expected.error", span, node, invocation_error),
    "expected_error": lambda node, span: ErrorRule("expected_error", span, node, invocation_error),
    "observer_events": _observer_events,
    "drain_summary": lambda node, span: DrainSummaryRule("expected.drain_summary", span, node, lambda ctx: invocation_of(ctx).drain),
    "node_drain_summaries": _node_drains,
    "node_accumulator_snapshots": _snapshots,
    "final_accumulator_state": _final_accumulators,
    "delivery_order": _delivery_order,
    "trace_records": _trace_records,
    "timing_records": _timing_records,
}


def shape(name: str, capability: str | None = None) -> Callable:
    """Register a rule factory ``(node, span) -> Rule`` for the ``expected:`` directive ``name``.

    With ``capability`` the shape belongs to that directory's vocabulary (§3.2) and wins there over
    a general shape of the same name (``response`` means one thing in llm-provider and another
    elsewhere); without it, the shape is general.
    """

    def register(factory: Callable) -> Callable:
        SHAPES[(capability, name) if capability else name] = factory
        return factory

    return register


def shape_rule(directive: str, node: Any, span: Span | None, capability: str | None = None) -> Rule:
    factory = SHAPES.get((capability, directive)) if capability else None
    factory = factory or SHAPES.get(directive)
    if factory is None:
        return Unverified(f"expected.{directive}", span, f"not implemented: expected shape {directive!r}")
    return factory(node, span)


__all__ = ["Check", "Context", "FAILED", "Node", "Rule", "SHAPES", "UNVERIFIED", "VERIFIED", "shape", "shape_rule"]
