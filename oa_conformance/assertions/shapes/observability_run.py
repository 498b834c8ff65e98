"""Observability expectations about what one run did, read from its spans and its trace: boolean
claims over the exported spans, the one LLM span and response, invocation ids and counts, a direct
call's result, bounded final-state fields, per-invocation predicate blocks and the reserved-metadata
rejections (observability §3.4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ...model.diagnostics import Span
from ...ast.values import literal
from ...model.kinds import is_mapping
from ...model.trace import InvocationOutcome
from ..catalogue.predicate_rules import predicate_block, references
from ..matchers import Match, Mismatch, show
from ..rules import Check, CheckStatus, Context, Rule, ShapeRow, ValueRule, collection, final_state, invocation_of, verdict
from .otel_spans import OBS, _problem, forest

# ---------------------------------------------------------------------------------------------
# Flags over the captured spans


@dataclass(frozen=True)
class SpanFlagRule(Rule):
    """A boolean claim about the exported spans: ``offending`` lists the spans that would make the
    claim false; the fixture's ``true`` requires none, ``false`` at least one."""

    name: str
    span: Span | None
    expected: Any
    offending: Callable[[Context], list[Any]]
    claim: str

    def evaluate(self, ctx: Context, bindings: Any):
        found = self.offending(ctx)
        holds = not found
        if holds == bool(self.expected.value):
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        detail = (f"{self.claim}, but found {show([s.get('name') for s in found][:8])}" if found
                  else f"expected the opposite of: {self.claim}")
        return (Check(self.name, CheckStatus.FAILED, self.span, detail),), bindings


def _openarmature(span: Any) -> bool:
    return span.get("scope") == "openarmature" or span["name"].startswith("openarmature.") or any(
        key.startswith("openarmature.") for key in span["attributes"])


LLM_SPAN = "openarmature.llm.complete"


def _flag(directive: str, claim: str, offending: Callable[[Context], list[Any]]) -> ShapeRow:
    """The table row of a flag over the spans: ``offending`` lists the spans that falsify ``claim``."""
    return ShapeRow(directive, lambda node, span: SpanFlagRule(f"expected.{directive}", span, node, offending, claim), OBS)


def _spans(ctx: Context, which: str = "spans") -> list[Any]:
    return list(forest(ctx, which).spans)



def only(found: list[Any], what: str) -> Any:
    """The single item a shape about "the" LLM call reads; anything else is nothing to compare."""
    if len(found) != 1:
        raise LookupError(f"expected exactly one {what}, the case has {len(found)}")
    return found[0]


def llm_span(ctx: Context) -> Any:
    return only([s for s in _spans(ctx) if s["name"] == LLM_SPAN], f"{LLM_SPAN} span")


def _llm_span_attributes(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.llm_span_attributes", span, node, lambda ctx: llm_span(ctx)["attributes"], "subset")


@dataclass(frozen=True)
class AttributesAbsent(Rule):
    name: str
    span: Span | None
    expected: Any
    select: Callable[[Context], Any]

    def evaluate(self, ctx: Context, bindings: Any):
        attributes = self.select(ctx)
        problems = [_problem(f"{self.name}[{item.value}]", "absent", f"present = {show(attributes[item.value])}", item.span)
                    for item in self.expected.items if item.value in attributes]
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _llm_span_attributes_absent(node: Any, span: Span | None) -> Rule:
    return AttributesAbsent("expected.llm_span_attributes_absent", span, node, lambda ctx: llm_span(ctx)["attributes"])


def invocation_spans(ctx: Context) -> list[Any]:
    return [s for s in _spans(ctx) if s["name"] == "openarmature.invocation"]


def _invocation_id(node: Any, span: Span | None) -> Rule:
    def select(ctx: Context) -> Any:
        ids = {s["attributes"].get("openarmature.invocation_id") for s in invocation_spans(ctx)}
        if len(ids) != 1:
            raise LookupError(f"expected one invocation id on the invocation spans, found {sorted(map(str, ids))}")
        return ids.pop()

    return ValueRule("expected.invocation_id", span, node, select)


def _invocation_count(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.invocation_count", span, node, lambda ctx: len(ctx.trace.invocations))


def _direct_call_result(node: Any, span: Span | None) -> Rule:
    """What the case's ``direct_call`` returned (value, type, exception; observability_direct.py)."""
    def select(ctx: Context) -> Any:
        calls = collection(ctx, "calls", "the case made no direct call")
        if not calls or "result" not in calls[0]:
            raise LookupError("the case made no direct call")
        return calls[0]["result"]

    return ValueRule("expected.direct_call_result", span, node, select)


@dataclass(frozen=True)
class StateBoundsRule(Rule):
    """`final_state_bounds: {field: {min?, max?}}` — each field of the final state is a number
    within its inclusive bounds (a value the spec bounds but does not pin, e.g. a concurrent read)."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        state = final_state(ctx)
        problems: list[Mismatch] = []
        for field_name, bounds in self.expected.items():
            where = self.expected.key_span(field_name)
            value = state.get(field_name, "<absent>") if is_mapping(state) else getattr(state, field_name, "<absent>")
            low, high = literal(bounds.min), literal(bounds.max)
            wanted = f"a number in [{'-inf' if low is None else low}, {'inf' if high is None else high}]"
            integral = isinstance(low, int) and isinstance(high, int)  # integer bounds bound an integer
            if isinstance(value, bool) or not isinstance(value, int if integral else (int, float)):
                problems.append(Mismatch(f"final_state_bounds.{field_name}", wanted, show(value), where))
            elif (low is not None and value < low) or (high is not None and value > high):
                problems.append(Mismatch(f"final_state_bounds.{field_name}", wanted, show(value), where))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _final_state_bounds(node: Any, span: Span | None) -> Rule:
    return StateBoundsRule("expected.final_state_bounds", span, node)


@dataclass(frozen=True)
class PerInvocationRule(Rule):
    """`per_invocation: {invocation name: {predicate: value}}` — each block's named predicates (the
    catalogue's rows) judged against that invocation of the case (`sequential_invocations`)."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        checks: list[Check] = []
        runs = {invocation.name: invocation for invocation in ctx.trace.invocations}
        for run_name, block in self.expected.items():
            path = f"{self.name}.{run_name}"
            if run_name not in runs:
                checks.append(Check(path, CheckStatus.FAILED, self.expected.key_span(run_name), f"no invocation named {run_name!r} ran"))
                continue
            run_context = replace(ctx, invocation=runs[run_name])
            for rule in predicate_block(OBS, path, references(block), restating=False):  # a restatement reads a whole block's verdicts
                found, bindings = rule.check(run_context, bindings)
                checks.extend(found)
        return tuple(checks), bindings


def _per_invocation(node: Any, span: Span | None) -> Rule:
    return PerInvocationRule("expected.per_invocation", span, node)


# ---------------------------------------------------------------------------------------------
# Rejections (observability §3.4: reserved metadata keys)


@dataclass(frozen=True)
class RejectionRule(Rule):
    """`invoke_rejects_at_api_boundary` / `augment_rejects_at_call_site`: the run failed, and where.
    ``true`` accounts for the failure (the case expects it)."""

    name: str
    span: Span | None
    expected: Any
    where: str  # "api_boundary" | "call_site"

    @property
    def expects_failure(self) -> bool:
        return bool(self.expected.value)

    def evaluate(self, ctx: Context, bindings: Any):
        invocation = invocation_of(ctx)
        if self.where == "api_boundary":
            ran = [entry["node"] for entry in invocation.node_log]
            holds = invocation.outcome is InvocationOutcome.ERRORED and not ran and not invocation.execution_order
            detail = (f"invoke() {invocation.outcome}" if invocation.outcome is not InvocationOutcome.ERRORED
                      else f"invoke() raised only after work began: nodes ran {show(ran or list(invocation.execution_order))}")
        else:
            rejected = [entry for kind, entry in ctx.trace.middleware_log if kind == "call_site_rejected"]
            holds = invocation.outcome is InvocationOutcome.ERRORED and bool(rejected)
            detail = (f"invoke() {invocation.outcome}" if invocation.outcome is not InvocationOutcome.ERRORED
                      else "the run failed, but no set_invocation_metadata call raised at its call site")
        if holds == bool(self.expected.value):
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        return (Check(self.name, CheckStatus.FAILED, self.span, detail if not holds else "the rejection happened"),), bindings


def _invoke_rejects(node: Any, span: Span | None) -> Rule:
    return RejectionRule("expected.invoke_rejects_at_api_boundary", span, node, "api_boundary")


def _augment_rejects(node: Any, span: Span | None) -> Rule:
    return RejectionRule("expected.augment_rejects_at_call_site", span, node, "call_site")


def llm_response(ctx: Context) -> Any:
    responses = ctx.trace.collections.get("llm_responses")
    if responses is None:
        raise LookupError("the case captured no LLM response (no mock LLM)")
    return only(list(responses), "LLM response")


def _response_usage(node: Any, span: Span | None) -> Rule:
    """The one LLM call's `Response.usage`: the fields the fixture names (null: reported absent)."""
    return ValueRule("expected.response_usage", span, node, lambda ctx: llm_response(ctx)["usage"], "subset")


# directive → rule builder, in the observability vocabulary
SHAPES = (
    _flag("no_openarmature_spans_on_global", "no openarmature span reached the global TracerProvider",
          lambda ctx: [s for s in _spans(ctx, "global_spans") if _openarmature(s)]),
    _flag("no_spans_emitted", "no span was emitted", _spans),
    _flag("no_llm_provider_span", "no LLM provider span was emitted", lambda ctx: [s for s in _spans(ctx) if s["name"] == LLM_SPAN]),
    _flag("no_edge_spans", "no span was emitted for an edge",
          lambda ctx: [s for s in _spans(ctx) if any(key.startswith("openarmature.edge") for key in s["attributes"]) or "edge" in s["name"].lower()]),
    ShapeRow("llm_span_attributes", _llm_span_attributes, OBS),
    ShapeRow("llm_span_attributes_absent", _llm_span_attributes_absent, OBS),
    ShapeRow("invocation_id", _invocation_id, OBS),
    ShapeRow("invocation_count", _invocation_count, OBS),
    ShapeRow("direct_call_result", _direct_call_result, OBS),
    ShapeRow("final_state_bounds", _final_state_bounds, OBS),
    ShapeRow("per_invocation", _per_invocation, OBS),
    ShapeRow("invoke_rejects_at_api_boundary", _invoke_rejects, OBS),
    ShapeRow("augment_rejects_at_call_site", _augment_rejects, OBS),
    ShapeRow("response_usage", _response_usage, OBS),
)


__all__ = ["llm_span", "only"]
