"""Expected-outcome shapes specific to graph-engine fixtures (observer isolation, drain snapshots)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ...model.diagnostics import Span
from ..catalogue.predicate_rules import predicate_block, references
from ..rules import Check, CheckStatus, Context, Rule, ShapeRow, ValueRule, AllOf, invocation_of, node_events


@dataclass(frozen=True)
class NoPropagatedError(Rule):
    """`no_propagated_error: true` — invoke() returned normally: nothing reached the caller."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        inv = invocation_of(ctx)
        propagated = inv.error is not None
        if propagated == bool(self.expected.value):
            detail = (f"invoke() raised {inv.error.type_name} ({inv.error.category}): {inv.error.message}" if propagated
                      else "invoke() returned normally")
            return (Check(self.name, CheckStatus.FAILED, self.span, detail),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


def _no_propagated_error(node: Any, span: Span | None) -> Rule:
    return NoPropagatedError("expected.no_propagated_error", span, node)


@dataclass(frozen=True)
class SnapshotScope(Rule):
    """Predicates evaluated over one accumulator snapshot taken at a node's in-body drain."""

    name: str
    span: Span | None
    node: str
    observer: str
    rules: tuple[Rule, ...]

    def evaluate(self, ctx: Context, bindings: Any):
        snapshots = invocation_of(ctx).node_snapshots
        if self.node not in snapshots or self.observer not in snapshots[self.node]:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"no snapshot of {self.observer!r} at node {self.node!r}"),), bindings
        scoped = dataclasses.replace(ctx, events=node_events(snapshots[self.node][self.observer]))
        checks: list[Check] = []
        for rule in self.rules:
            found, bindings = rule.check(scoped, bindings)
            checks.extend(found)
        return tuple(checks), bindings


def _snapshot_invariants(node: Any, span: Span | None) -> Rule:
    """`{<node>: {<observer>: {<predicate>: <value>}}}` — each predicate over that snapshot's events."""
    scopes = []
    for node_name, per_observer in node.items():
        for observer, block in per_observer.items():
            name = f"expected.node_accumulator_snapshot_invariants.{node_name}.{observer}"
            # The directive is graph-engine's (§6 drains): its predicates are graph-engine rows.
            rules = predicate_block("graph-engine", name, references(block))
            scopes.append(SnapshotScope(name, per_observer.key_span(observer), node_name, observer, rules))
    return AllOf(tuple(scopes))


__all__ = ["NoPropagatedError", "SnapshotScope"]


def _empty_phases_raised(ctx: Context) -> Any:
    """Whether registering an observer with an empty phase set raised (the execute pass's probe)."""
    return ((ctx.trace.wiring or {}).get("registration_probes") or {}).get("empty_phases", {}).get("raised")


def _empty_phases(node: Any, span: Span | None) -> Rule:
    """§6: an empty phases set is a configuration error, raised at registration time."""
    return ValueRule("expected.empty_phases_raises_at_registration", span, node, _empty_phases_raised)


# directive → rule builder (general shapes a graph-engine fixture uses)
SHAPES = (
    ShapeRow("no_propagated_error", _no_propagated_error),
    ShapeRow("node_accumulator_snapshot_invariants", _snapshot_invariants),
    ShapeRow("empty_phases_raises_at_registration", _empty_phases),
)
