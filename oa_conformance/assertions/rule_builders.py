"""The rule builders: one explicit table, keyed by what the vocabulary rows name.

An expectation directive's vocabulary row names its builder in ``handled_by``
(``expectation("<key>")``, spelled in ``model/vocabulary/handlers.py``), the way a node directive names
its behaviour (``node("<key>")``): :data:`RULE_BUILDERS` maps that key to the function that builds
the directive's rules from where the fixture wrote it (a :class:`Site`). ``tests/test_surface.py``
keeps the rows and this table in step, in both directions.

A directory's own case-level directive (a ``direct`` or ``case_expectation`` row: ``calls``,
``expected_wire_request`` …) names its directory, not a builder: it is judged by the directory's
shape (:data:`DIRECTORY_BUILDER`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..ast.nodes import Scalar
from ..model.diagnostics import Span
from ..model.trace import InvocationOutcome
from ..model.vocabulary import VOCABULARY
from .case_rules import BuildOrRunErrorRule, CompileErrorRule, CompileWarningRule, ConstructionErrorRule
from .catalogue.predicate_rules import predicate_block, references
from .error_rules import build_or_run_error, ErrorRule, invocation_error
from .rules import Context, Rule
from .shapes import shape_rule
from .shapes.checkpoint import EverySaveRule, RecordRule, saved_record


@dataclass(frozen=True)
class Site:
    """One expectation directive where the fixture wrote it, and what it is judged against."""

    family: str                 # the directive family it is written in (its row is looked up there)
    directive: str
    node: Any                   # the value the fixture gave it
    span: Span | None           # its key
    holder: Any                 # the block or scenario it is in (a restating predicate's owner)
    invocation: Any = None      # the run it is about (None: the case as a whole)
    run: int | None = None      # the run whose checks a restatement reads (None: the whole case's)
    name: str = ""              # the check name a predicate block's rows are under
    opens_groups: bool = False  # a direct case: a shape's grouped rules are judged one by one
    builder: str | None = None  # set only where a directory's whole-block shape wins (§3.2)
    rules: tuple[Rule, ...] | None = None  # an outcome the pass judges itself (no row: nothing written)

    def builder_key(self, capability: str | None) -> str:
        """The rule builder this directive's row names."""
        if self.builder is not None:
            return self.builder
        return VOCABULARY.rule_builder(self.family, self.directive, capability) or DIRECTORY_BUILDER


Build = Callable[[Site, "str | None"], Iterable[Rule]]


@dataclass(frozen=True)
class ExpectsFailure(Rule):
    """A rule whose expectation describes the failed run (``error``, ``final_state_at_error``,
    ``outcome: errored``): it accounts for the run's error as ``expected_error`` does."""

    rule: Rule
    expects_failure = True

    @property
    def name(self) -> str:
        return self.rule.name

    @property
    def span(self) -> Span | None:
        return self.rule.span  # type: ignore[attr-defined]

    def members(self) -> tuple[Rule, ...]:
        return (self.rule,)

    def evaluate(self, ctx: Context, bindings: Any):
        return self.rule.check(ctx, bindings)


# Keys of an ``expected:`` block that describe the run's failure (``outcome`` only when errored).
FAILURE_KEYS = frozenset(("error", "expected_error", "final_state_at_error"))


def _accounts_for_error(directive: str, node: Any) -> bool:
    return directive in FAILURE_KEYS or (directive == "outcome" and getattr(node, "value", None) == InvocationOutcome.ERRORED)


def expected_block(site: Site, capability: str | None) -> list[Rule]:
    """An ``expected:`` block: each key's own row names its builder, in document order."""
    rules: list[Rule] = []
    for directive, node in site.node.items():
        key = Site("expected", directive, node, site.node.key_span(directive), site.holder, site.invocation, site.run,
                   f"expected.{directive}", site.opens_groups)
        for rule in build_rules(key, capability):
            rules.append(ExpectsFailure(rule) if _accounts_for_error(directive, node) else rule)
    return rules


def predicates(site: Site, capability: str | None) -> list[Rule]:
    """A block of catalogue predicates, one rule per row referenced (unverified when none matches)."""
    return list(predicate_block(capability, site.name, references(site.node)))


def shape(site: Site, capability: str | None) -> list[Rule]:
    return [shape_rule(site.directive, site.node, site.span, capability)]


DIRECTORY_BUILDER = "shape"

RULE_BUILDERS: dict[str, Build] = {
    "expected": expected_block,
    "shape": shape,
    "predicates": predicates,
    "expected_error": shape,  # the general error shape, or the directory's own (`expected_error` may mean more there)
    "first_run_error": lambda site, _: [ErrorRule(site.directive, site.span, site.node, invocation_error)],
    "compile_error": lambda site, _: [CompileErrorRule(site.directive, site.span, site.node)],
    "compile_warning": lambda site, _: [CompileWarningRule(site.directive, site.span, site.node)],
    "construction_error": lambda site, _: [ConstructionErrorRule(site.directive, site.span, site.node)],
    "build_or_run_error": lambda site, _: [BuildOrRunErrorRule(site.directive, site.span, site.node) if isinstance(site.node, Scalar)
                                           else ErrorRule(site.directive, site.span, site.node, build_or_run_error)],
    "saved_record": lambda site, _: [RecordRule(site.directive, site.span, site.node, saved_record)],
    "every_save": lambda site, _: [EverySaveRule(site.directive, site.span, site.node)],
}


def build_rules(site: Site, capability: str | None) -> list[Rule]:
    """The rules of one site: the ones the pass made itself, else its row's builder's."""
    if site.rules is not None:
        return list(site.rules)
    return list(RULE_BUILDERS[site.builder_key(capability)](site, capability))


__all__ = ["DIRECTORY_BUILDER", "ExpectsFailure", "RULE_BUILDERS", "Site", "build_rules"]
