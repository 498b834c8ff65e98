"""The rule objects every expectation becomes, and the selectors they read the trace with.

Each rule is built once from its piece of the AST (pure, immutable) and checked against a trace
with the first-occurrence bindings threaded in and out. A rule returns :class:`Check` records —
``verified``, ``failed`` (with the mismatch) or ``unverified`` (the adapter cannot check it: the
case then does not pass). The ``expected:`` shapes that build these rules are tabled in
:mod:`oa_conformance.assertions.shapes`; each shape module lists its :class:`ShapeRow` rows there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, Iterable, NamedTuple

from ..ast.nodes import Mapping
from ..model.diagnostics import Span
from ..model.trace import CaseTrace, InvocationOutcome, InvocationTrace, primary_observer
from .matchers import Match, Mismatch, explain, match


class CheckStatus(StrEnum):
    """What became of one expectation; each value is how reports spell it (a result's ``checks``
    counts, in this order)."""

    VERIFIED = "verified"
    FAILED = "failed"
    UNVERIFIED = "unverified"  # the adapter cannot check it: the case does not pass
    # A SHOULD-level expectation (a vocabulary row's ``should``) that did not hold: reported in the
    # case's findings, and the case still passes.
    WARNING = "warning"

    @property
    def holds(self) -> bool:
        """Whether a passing case's check may have this status: verified, or a SHOULD-level warning."""
        return self in (CheckStatus.VERIFIED, CheckStatus.WARNING)


NOTHING_TO_COMPARE = "nothing to compare: "  # a failed check's detail when the trace lacks what it reads


@dataclass(frozen=True)
class Check:
    """The verdict on one expectation of a case."""

    name: str
    status: CheckStatus
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
    # The case's trace document (docs/TRACE.md), thawed once by the assert pass for every rule of
    # the case (catalogue/scope.py reads it); None outside the assert pass.
    document: dict | None = None


class Rule:
    """A check over the trace. Subclasses are frozen dataclasses with at least ``name`` and ``span``.

    A subclass implements :meth:`evaluate`; whatever it needs and the trace does not hold (its
    selector raises ``LookupError``) fails the check with the reason, in one place.
    """

    # Whether the rule describes the failed run (an ``expected:`` key like ``error``): it accounts for
    # the run's error as ``expected_error`` does.
    expects_failure = False
    # Whether the assert pass holds it back and judges it last against the other checks (a
    # restating predicate, catalogue/predicate_rules.RestatesRule.judge).
    judged_last = False

    def members(self) -> tuple[Rule, ...] | None:
        """The rules a group stands for, judged one by one where a site opens groups (a direct
        case's shape, so the restatements among them are judged last); None: not a group."""
        return None

    def check(self, ctx: Context, bindings: Any) -> tuple[tuple[Check, ...], Any]:
        try:
            return self.evaluate(ctx, bindings)
        except LookupError as missing:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"{NOTHING_TO_COMPARE}{missing}"),), bindings

    def evaluate(self, ctx: Context, bindings: Any) -> tuple[tuple[Check, ...], Any]:  # pragma: no cover
        raise NotImplementedError


def at_should_level(checks: Iterable[Check], should: str) -> tuple[Check, ...]:
    """``checks`` of a SHOULD-level expectation (``should``: the prose that says so): each the runtime
    skipped — unverified, because it does not expose what the expectation reads — becomes a warning.
    A value it does expose and gets wrong still fails: the hint was given, and it is false."""
    return tuple(Check(c.name, CheckStatus.WARNING, c.span, f"SHOULD-level ({should}), not met: {c.detail}", c.at) if c.status == CheckStatus.UNVERIFIED else c
                 for c in checks)


@dataclass(frozen=True)
class ShouldLevel(Rule):
    """A rule whose expectation is SHOULD-level (``at_should_level``): what the trace lacks (the
    runtime does not expose it) is a warning."""

    name: str
    span: Span | None
    rule: Rule
    should: str

    def evaluate(self, ctx: Context, bindings: Any):
        checks, bindings = self.rule.check(ctx, bindings)
        skipped = tuple(Check(c.name, CheckStatus.UNVERIFIED, c.span, c.detail, c.at) if c.status == CheckStatus.FAILED and c.detail.startswith(NOTHING_TO_COMPARE) else c
                        for c in checks)  # Rule.check: the trace lacks what it reads
        return at_should_level(skipped, self.should), bindings


def verdict(name: str, span: Span | None, result: Match) -> Check:
    if result.ok:
        return Check(name, CheckStatus.VERIFIED, span)
    return Check(name, CheckStatus.FAILED, span, explain(result.mismatches), result.mismatches[0].span)


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

    def evaluate(self, ctx: Context, bindings: Any):
        return (Check(self.name, CheckStatus.UNVERIFIED, self.span, self.reason),), bindings


# ---------------------------------------------------------------------------------------------
# Selectors over the trace


def invocation_of(ctx: Context) -> InvocationTrace:
    """The invocation a rule is about; a case that never invoked the graph has none to judge."""
    if ctx.invocation is None:
        raise LookupError("the case never invoked the graph (compilation failed)")
    return ctx.invocation


def final_state(ctx: Context) -> Any:
    inv = invocation_of(ctx)
    if inv.outcome is not InvocationOutcome.COMPLETED:
        raise LookupError(f"the invocation {inv.outcome}: {inv.error.summary}" if inv.error else f"the invocation {inv.outcome}")
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


def primary_events(ctx: Context) -> Any:
    """Every event the case's primary observer recorded in the invocation the rule is about."""
    invocation = invocation_of(ctx)
    return invocation.events[primary_observer(invocation)]


# ---------------------------------------------------------------------------------------------
# Combinators


@dataclass(frozen=True)
class AllOf(Rule):
    """Every rule of a group, checked in order with the bindings threaded through."""

    rules: tuple[Rule, ...]

    def members(self) -> tuple[Rule, ...]:
        return self.rules

    def evaluate(self, ctx: Context, bindings: Any):
        checks: list[Check] = []
        for rule in self.rules:
            found, bindings = rule.check(ctx, bindings)
            checks.extend(found)
        return tuple(checks), bindings


@dataclass(frozen=True)
class FlagRule(SelectingRule):
    """A boolean expectation: ``select`` returns (holds, what was seen); ``anchor`` (optional)
    returns why the check would be vacuous, or None — an absence is only counted when something
    could have been present."""

    anchor: Callable[[Context], str | None] | None = None

    def evaluate(self, ctx: Context, bindings: Any):
        if self.anchor is not None:
            vacuous = self.anchor(ctx)
            if vacuous:
                return (Check(self.name, CheckStatus.FAILED, self.span, f"nothing to compare: {vacuous}"),), bindings
        holds, seen = self.select(ctx)
        ok = holds == bool(self.expected.value)
        return (Check(self.name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.span, "" if ok else seen),), bindings


# ---------------------------------------------------------------------------------------------
# The shape table's row


Builder = Callable[[Any, Span | None], Rule]


class ShapeRow(NamedTuple):
    """One row of a shape module's table: the ``expected:`` directive, the function that builds its
    rule from the fixture's value and span, and — for a directory-scoped shape (§3.2) — the
    capability whose vocabulary it belongs to (it wins there over a general shape of the same name:
    ``response`` means one thing in llm-provider and another elsewhere)."""

    directive: str
    build: Builder
    capability: str | None = None
    # The builder reads other shapes (a call's `expected:` keys): the table hands it its own lookup as
    # ``shape_rule=`` (so the module need not import the table that lists it).
    nested: bool = False

    @property
    def key(self) -> Any:
        return (self.capability, self.directive) if self.capability else self.directive


__all__ = ["AllOf", "Check", "CheckStatus", "Context", "FlagRule", "Rule", "ShapeRow", "ShouldLevel", "at_should_level", "verdict"]
