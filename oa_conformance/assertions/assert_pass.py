"""Assert pass: every expectation of a scenario, checked against its trace as rule objects.

:func:`expectation_sites` lists the case's expectation directives in the order they are judged —
where the fixture wrote each and which run it is about — and stops where an outcome decides the
case (a compile error, a build-or-run error, a construction error). Each directive's vocabulary row
names its rule builder (:data:`~.rule_builders.RULE_BUILDERS`); :func:`assert_case` is the loop
that builds and checks the rules over the trace document, with first-occurrence bindings threaded
through, and :class:`Judge` judges the restating predicates (:mod:`.catalogue`) last, in one place.
Nothing passes vacuously: an expectation without a rule is an ``unverified`` check, and a failure
the fixture did not expect is a ``failed`` one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator

from pyrsistent import pmap

from .case_rules import RunsAgree
from .catalogue.predicate_rules import RestatesRule
from .rules import FAILED, UNVERIFIED, VERIFIED, Check, Context, Rule, Unverified, _AllOf
from .rule_builders import ExpectsFailure, Site, build_rules
from .matchers import HARNESS_PARAMETERS
from .shapes import SHAPES
from ..ast.nodes import Section
from ..model.diagnostics import Span
from ..model.trace import CaseTrace
from ..model.trace.document import document
from ..model.trace.record import BARRIER, FIRST_RUN, POPULATE, RESUMED
from ..model.vocabulary import FILE_ONLY

# A case's scenario (interpreter/static/scenarios.py: ``get``, ``where``, ``sources``, ``section``): the
# assert pass reads it and imports nothing from the execution layers.
Scenario = Any

BUILD_OR_RUN_ERROR = "expected_chain_ambiguity_error"
CONSTRUCTION_ERROR = "expected_construction_error"


def assert_case(scenario: Scenario, trace: CaseTrace, capability: str | None = None, repeated: bool = True) -> tuple[Check, ...]:
    """All checks of one scenario against its trace (``repeated=False``: this run only, not its repeats)."""
    judge = Judge(trace)
    parameters = HARNESS_PARAMETERS.set(trace.facts.harness_parameters)  # what harness_parameterized compares against
    try:
        for site in expectation_sites(scenario, trace, capability, judge):
            for rule in build_rules(site, capability):
                judge.run(rule, site)
    finally:
        HARNESS_PARAMETERS.reset(parameters)
    checks = judge.verdicts()
    run_count = scenario.view.run_count
    if run_count is not None and repeated and judge.ran_to_the_end:
        checks.extend(_repeated_runs(scenario, trace, run_count, capability))
    return tuple(checks)


class Judge:
    """The checks of one case as its rules run: the trace document thawed once for every rule's
    context, the bindings threaded through, and the restating predicates held back and judged
    last against the checks of their own run (or, for a case-level block, of the whole case)."""

    def __init__(self, trace: CaseTrace):
        self.trace, self.document = trace, document(trace)
        self.checks: list[Check] = []
        self.bindings: Any = pmap()
        self.restating: list[tuple[RestatesRule, Any, int | None]] = []
        self.run_bounds: list[int] = []  # where each run's checks begin, then where the runs end
        self.expects_error = False  # the current run's error is accounted for
        self.ran_to_the_end = False  # no outcome cut the case short (its repeats are judged)

    def begin_run(self, expects_error: bool) -> int:
        self.run_bounds.append(len(self.checks))
        self.expects_error = expects_error
        return len(self.run_bounds) - 1

    def end_runs(self) -> None:
        self.run_bounds.append(len(self.checks))
        self.ran_to_the_end = True

    def run(self, rule: Rule, site: Site) -> None:
        if site.opens_groups and isinstance(rule, (_AllOf, ExpectsFailure)):  # restatements among them judged last
            for member in (rule.rules if isinstance(rule, _AllOf) else (rule.rule,)):
                self.run(member, site)
            return
        if isinstance(rule, RestatesRule):
            self.restating.append((rule, site.holder, site.run))
            return
        self.expects_error = self.expects_error or getattr(rule, "expects_failure", False)
        found, self.bindings = rule.check(Context(self.trace, site.invocation, document=self.document), self.bindings)
        self.checks.extend(found)

    def verdicts(self) -> list[Check]:
        """Every check, the restating predicates' last: each reads the verdicts of its own run's checks."""
        done, bounds = list(self.checks), self.run_bounds
        for rule, holder, number in self.restating:
            done.append(rule.judge(holder, self.checks if number is None else self.checks[bounds[number]:bounds[number + 1]]))
        return done


def expectation_sites(scenario: Scenario, trace: CaseTrace, capability: str | None, judge: Judge) -> Iterator[Site]:
    """The case's expectation directives in the order they are judged, ending where an outcome
    decides the case: an expected compile or build-or-run error is all that is judged; an
    unexpected compile or construction error fails the case alone. ``judge`` is read between
    runs (whether a run's error was accounted for)."""
    case, view = _case_site(scenario), scenario.view
    compile_error = view.expected_compile_error
    if compile_error is not None:
        yield case("expected_compile_error", compile_error)
        return
    resume = view.resume
    for holder in (scenario, resume):  # an error allowed at build or at run time
        either = holder.get(BUILD_OR_RUN_ERROR) if holder is not None else None
        if either is not None:
            judged = trace.invocations[-1] if trace.invocations else None
            yield dataclasses.replace(case(BUILD_OR_RUN_ERROR, either), invocation=judged, holder=holder,
                                      family="case" if holder is scenario else "resume",
                                      span=view.key_span(BUILD_OR_RUN_ERROR) if holder is scenario else holder.key_span(BUILD_OR_RUN_ERROR))
            return
    if trace.compile_error is not None:
        error = trace.compile_error
        yield _outcome(Check("compile", FAILED, _compile_error_span(scenario, error), f"compilation failed unexpectedly: {error.category}: {error.message}"))
        return
    construction = view.expected_construction_error
    if construction is not None:  # raised standing the observers up, or at their first use in the run
        yield case(CONSTRUCTION_ERROR, construction)
    if trace.construction_error is not None:
        if construction is None:
            error = trace.construction_error
            yield _outcome(Check("construction", FAILED, scenario.section.span,
                                 f"standing up the case's observers failed unexpectedly: {error.category}: {error.message}"))
        elif view.expected is not None:  # nothing ran: `expected:` judges what the captures saw standing up
            yield case("expected", view.expected)
        return
    warning = view.expected_compile_warning
    if warning is not None:
        yield case("expected_compile_warning", warning)
    if trace.facts.direct:  # no graph run: the directory's own expectations
        yield from _direct_sites(scenario, capability)
        return
    yield from _run_sites(scenario, trace, judge, construction is not None)
    yield _outcome(BarrierRule("barriers", None, scenario.section.span.path))


def _run_sites(scenario: Scenario, trace: CaseTrace, judge: Judge, construction: bool) -> Iterator[Site]:
    """Each run's expectations (its error, the directory's case-level ones, its ``expected:``,
    ``invariants:`` and record assertions, then whether its error went unexpected), then the
    case-level blocks of an ``invocations:`` case."""
    view = scenario.view
    listed = view.invocations
    sources = list(listed.items) if listed is not None and hasattr(listed, "items") and not hasattr(listed, "value") else [None]
    invocations = [i for i in trace.invocations if i.role != POPULATE]  # seeding runs assert nothing
    runs = list(zip(sources, invocations))
    if trace.facts.multi_run:  # checkpoint resume: the case is the first run, `resume:` the resumed run
        runs = [(view.resume if invocation.role == RESUMED else None, invocation) for invocation in invocations]
    for source, invocation in runs:
        owner = source if source is not None else scenario
        family = "case" if source is None else ("resume" if invocation.role == RESUMED else "invocation")
        number = judge.begin_run(construction)  # a first-use raise is the run's error
        at = _run_site(scenario, owner, family, invocation, number)
        error_key = "first_run_expected_error" if invocation.role == FIRST_RUN else "expected_error"
        for holder in ((source,) if source is not None else ()) + (scenario,):
            if holder.get(error_key) is not None:
                yield at(error_key, holder.get(error_key), holder=holder, family=family if holder is source else "case")
                judge.expects_error = True
                break
        for directive in trace.facts.case_expectations:  # the directory's case-level expectations (expected_wire_request …)
            if view.get(directive) is not None:
                yield at(directive, view.get(directive), holder=scenario, family="case")
        # A resume case's first run may carry its own expectations beside its expected error.
        block = "first_run_expected" if invocation.role == FIRST_RUN and owner.get("first_run_expected") is not None else "expected"
        for directive in (block, "invariants", "saved_record_assertions", "every_save_assertions"):
            if owner.get(directive) is not None:
                yield at(directive, owner.get(directive))
        if invocation.outcome == "errored" and not judge.expects_error:
            error = invocation.error
            yield _outcome(Check("outcome", FAILED, owner.span if isinstance(owner, Section) else scenario.section.span,
                                 f"the invocation failed unexpectedly: {error.summary}"))
    judge.end_runs()
    if sources != [None]:  # `invocations:` — the case-level blocks are about the run as a whole
        case = _case_site(scenario)
        if view.invariants is not None:
            yield case("invariants", view.invariants)
        if view.expected is not None:
            yield _outcome(Unverified("expected", view.key_span("expected"), "not implemented: a case-level expected: beside invocations:"))


def _direct_sites(scenario: Scenario, capability: str | None) -> Iterator[Site]:
    """What a direct case (a capability's ``calls:``, no graph) asserts, in document order: every
    case-level directive its directory registers a shape for (``calls`` checks each call's own
    ``expected``; ``expected_backend_state`` …) — the directory's whole-block shape wins (§3.2) —
    and each key of ``expected:``."""
    seen = set()
    for source in scenario.sources():
        for name in source.order:
            if name in seen or (source is scenario.fixture and scenario.case is not None and name in FILE_ONLY):
                continue
            seen.add(name)
            if (capability, name) in SHAPES or name == "expected":
                yield Site("case", name, source.get(name), source.key_span(name), scenario, name=name, opens_groups=True,
                           builder="shape" if (capability, name) in SHAPES else None)


def _case_site(scenario: Scenario):
    """Sites of case-level directives: held by the scenario, about the case as a whole."""
    def site(directive: str, node: Any) -> Site:
        return Site("case", directive, node, scenario.view.key_span(directive), scenario, name=directive)
    return site


def _run_site(scenario: Scenario, owner: Any, family: str, invocation: Any, number: int):
    """Sites of one run's directives: held by ``owner`` (the scenario, an ``invocations:`` entry or
    ``resume:``), judged against ``invocation``, restatements reading run ``number``'s checks."""
    def site(directive: str, node: Any, holder: Any = owner, family: str = family) -> Site:
        span = holder.key_span(directive) if isinstance(holder, Section) else scenario.view.key_span(directive)
        return Site(family, directive, node, span, holder, invocation, number, directive)
    return site


@dataclass(frozen=True)
class Judged(Rule):
    """An outcome the pass judges itself (no directive wrote it): the check as it stands."""

    check_made: Check

    @property
    def name(self) -> str:
        return self.check_made.name

    @property
    def span(self) -> Span | None:
        return self.check_made.span

    def evaluate(self, ctx: Context, bindings: Any):
        return (self.check_made,), bindings


def _outcome(rule_or_check: Any) -> Site:
    rule = Judged(rule_or_check) if isinstance(rule_or_check, Check) else rule_or_check
    return Site("case", rule.name, None, rule.span, None, rules=(rule,))


@dataclass(frozen=True)
class BarrierRule(Rule):
    """One check per barrier the graph build wired (``wiring.barriers``: the directive's node, line
    and column; `await_event_delivery`, conformance-adapter §5.1): verified when it ran and
    held every time, failed at the directive when it never ran or did not hold (§5.1: an adapter
    that cannot provide the barrier fails the case rather than run it without one)."""

    name: str
    span: Span | None
    path: str

    def evaluate(self, ctx: Context, bindings: Any):
        outcomes: dict[tuple[int, int], list[Any]] = {}
        for entry in ctx.trace.middleware_log:
            if entry[0] == BARRIER:
                outcomes.setdefault((entry[1]["line"], entry[1]["column"]), []).append(entry[1])
        checks = []
        for barrier in ctx.trace.wiring.get("barriers", ()):
            span = Span(self.path, barrier["line"], barrier["column"])
            name = f"{barrier['node']}.calls_llm_from_wrapper.await_event_delivery"
            ran = outcomes.get((span.line, span.column), [])
            broken = [dict(outcome) for outcome in ran if not outcome["held"]]
            if not ran:
                checks.append(Check(name, FAILED, span, "the barrier never ran, so the case ran without it"))
            elif broken:
                checks.append(Check(name, FAILED, span, f"the barrier did not hold: {broken}"))
            else:
                checks.append(Check(name, VERIFIED, span, f"held {len(ran)} time(s)"))
        return tuple(checks), bindings


def _repeated_runs(scenario: Scenario, trace: CaseTrace, run_count: Any, capability: str | None) -> list[Check]:
    """`run_count: N`: every run is checked against the expectations, and all runs must agree."""
    span = scenario.view.key_span("run_count")
    runs = (trace,) + tuple(trace.repeats)
    checks = []
    if len(runs) != run_count.value:
        checks.append(Check("run_count", FAILED, span, f"expected {run_count.value} runs, the trace has {len(runs)}"))
    for number, repeat in enumerate(runs[1:], start=2):
        for check in assert_case(scenario, repeat, capability, repeated=False):
            checks.append(dataclasses.replace(check, name=f"run {number}: {check.name}"))
    found, _ = RunsAgree("run_count", span).check(Context(trace, trace.main), pmap())
    checks.extend(found)
    return checks


def _compile_error_span(scenario: Scenario, error: Any) -> Span:
    """Where the fixture wrote what an unexpected compile error names — the endpoint of a dangling
    edge, the node, the state field (the runtime's error exposes them) — else the case."""
    attributes = error.attributes or {}
    source, target = attributes.get("source"), attributes.get("target")
    edges = scenario.view.edges
    for edge in (edges.items if target is not None and edges is not None else ()):
        ends = {key: getattr(edge.get(key), "value", None) for key in ("from", "to")} if hasattr(edge, "get") else {}
        if ends.get("to") == target and ends.get("from") == source:
            return edge.get("to").span
    for directive, name in (("nodes", error.node), ("state", attributes.get("field_name"))):
        holder = getattr(scenario.view, directive)
        if directive == "state" and holder is not None:
            holder = holder.get("fields")
        if name is not None and holder is not None and name in getattr(holder, "keys", ()):
            return holder.key_span(name)
    return scenario.section.span


__all__ = ["UNVERIFIED", "assert_case", "expectation_sites"]
