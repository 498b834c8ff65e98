"""Expectations about the case as a whole rather than one invocation's outcome: how compilation and
construction failed or warned (`expected_compile_error`, `expected_construction_error`,
`expected_chain_ambiguity_error`, `expected_compile_warnings`) and that repeated runs agree
(`run_count`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ast.nodes import Scalar
from ..model.diagnostics import Span
from ..model.trace import CaseTrace
from .matchers import first_difference, show
from .rules import Check, CheckStatus, Context, Rule


@dataclass(frozen=True)
class CompileErrorRule(Rule):
    name: str
    span: Span | None
    expected: Scalar

    def evaluate(self, ctx: Context, bindings: Any):
        error = ctx.trace.compile_error
        if self.expected.value is True:  # the extension's `true`: any category, the spec names none
            if error is None:
                return (Check(self.name, CheckStatus.FAILED, self.span, "expected compilation to fail; it compiled"),), bindings
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        if error is None:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected compilation to fail with {self.expected.value!r}; it compiled"),), bindings
        if error.category != self.expected.value:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {self.expected.value!r}, got {error.category!r} ({error.message})"),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


@dataclass(frozen=True)
class ConstructionErrorRule(Rule):
    """``expected_construction_error: {category}`` (conformance-adapter §5.5): standing up the case's
    observers / clients raised the categorized error, or their first use did (the run's error).
    ``exception_kind`` (the adapter's extension) names the type raised; given alone, the refusal
    must be uncategorized (observability §5.5.5 names no category for a cap under 256 bytes)."""

    name: str
    span: Span | None
    expected: Any  # the construction_error_expectation section

    def evaluate(self, ctx: Context, bindings: Any):
        category, kind = self.expected.category, self.expected.exception_kind
        want = category.value if category is not None else None
        wanted = " ".join(part for part in (repr(want) if want is not None else "", kind.value if kind is not None else "") if part)
        error, when = ctx.trace.construction_error, "at construction"
        if error is None and ctx.trace.main is not None:
            error, when = ctx.trace.main.error, "at first use (the run's error)"
        if error is None:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {wanted} at construction or first use; nothing was raised"),), bindings
        if error.category != want:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {want!r}, got {error.category!r} {when} ({error.message})"),), bindings
        if kind is not None and error.type_name != kind.value:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected a {kind.value} {when}, got {error.type_name} ({error.message})"),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


@dataclass(frozen=True)
class BuildOrRunErrorRule(Rule):
    """An error category the spec lets surface either while the graph is built or when it runs
    (`expected_chain_ambiguity_error`: compile-time SHOULD, load-time acceptable, §10.12.2)."""

    name: str
    span: Span | None
    expected: Scalar

    def evaluate(self, ctx: Context, bindings: Any):
        want = self.expected.value
        error = ctx.trace.compile_error
        when = "at graph build"
        if error is None and ctx.invocation is not None:
            error, when = ctx.invocation.error, "when the run resumed"
        if error is None:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {want!r} at graph build or at run time; nothing was raised"),), bindings
        if error.category != want:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {want!r}, got {error.category!r} {when} ({error.message})"),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


@dataclass(frozen=True)
class CompileWarningRule(Rule):
    name: str
    span: Span | None
    expected: Any  # Scalar (presence) or Sequence (exhaustive set)

    def evaluate(self, ctx: Context, bindings: Any):
        seen = list(ctx.trace.compile_warnings)
        if ctx.trace.compile_error is not None:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"compilation failed: {ctx.trace.compile_error.message}"),), bindings
        if isinstance(self.expected, Scalar):
            ok = self.expected.value in seen
            detail = f"expected {self.expected.value!r} among the warnings, got {seen}"
        else:
            wanted = sorted(item.value for item in self.expected.items)
            ok = sorted(seen) == wanted
            detail = f"expected exactly {wanted}, got {sorted(seen)}"
        return (Check(self.name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, self.span, "" if ok else detail),), bindings


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
            "outcome": inv.outcome.value,
            "final_state": inv.final_state,
            "error": error(inv.error),
            "execution_order": inv.execution_order,
            "events": {name: [event(e) for e in events] for name, events in inv.events.items()},
        } for inv in trace.invocations],
    }




@dataclass(frozen=True)
class RunsAgree(Rule):
    """`run_count: N` (determinism): every repeated run did exactly what the first run did."""

    name: str
    span: Span | None

    def evaluate(self, ctx: Context, bindings: Any):
        runs = (ctx.trace,) + tuple(ctx.trace.repeats)
        if len(runs) < 2:
            return (Check(self.name, CheckStatus.FAILED, self.span, "the case ran once; there is nothing to compare"),), bindings
        reference = run_summary(runs[0])
        for number, repeat in enumerate(runs[1:], start=2):
            found = first_difference(reference, run_summary(repeat))
            if found:
                path, first, other = found
                detail = f"run {number} differs from run 1 at {path.lstrip('.')}: run 1 {show(first)}, run {number} {show(other)}"
                return (Check(self.name, CheckStatus.FAILED, self.span, detail),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
