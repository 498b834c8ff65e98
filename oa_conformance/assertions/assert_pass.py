"""Assert pass: every expectation of a scenario, checked against its trace as rule objects.

:func:`plan` lists the case's steps in the order they are judged — each expectation directive where
the fixture wrote it and which run it is about, where each run begins and whether its error was
accounted for — read off the vocabulary rows (``Directive.judged``: the step and order of each
expectation directive, ``model/vocabulary/registry.ASSERT_STEPS``), and stops where an outcome
decides the case (a compile error, a build-or-run error, a construction error). Each directive's
row names its rule builder (:data:`~.rule_builders.RULE_BUILDERS`); :func:`assert_case` has the
:class:`Judge` take the steps: it builds and checks the rules over the trace document, with
first-occurrence bindings threaded through, and judges the restating predicates (:mod:`.catalogue`)
last, in one place. Nothing passes vacuously: an expectation without a rule is an ``unverified``
check, and a failure the fixture did not expect is a ``failed`` one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator

from .case_rules import RunsAgree
from .rules import Check, CheckStatus, Context, Rule, Unverified
from .rule_builders import DIRECTORY_BUILDER, Site, build_rules
from .matchers import NO_BINDINGS, Bindings
from .shapes import SHAPES
from ..model.diagnostics import Span
from ..model.trace import CaseTrace, InvocationOutcome
from ..model.trace.document import document
from ..model.trace.record import BARRIER, FIRST_RUN, POPULATE, RESUMED
from ..model.vocabulary import FILE_ONLY, VOCABULARY, Directive

# A case's scenario (interpreter/static/scenarios.py: ``get``, ``where``, ``sources``, ``section``): the
# assert pass reads it and imports nothing from the execution layers.
Scenario = Any

def assert_case(scenario: Scenario, trace: CaseTrace, capability: str | None = None, repeated: bool = True) -> tuple[Check, ...]:
    """All checks of one scenario against its trace (``repeated=False``: this run only, not its repeats)."""
    judge = Judge(trace)
    for step in plan(scenario, trace, capability):
        step.take(judge, capability)
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
        # threaded through every rule: nothing bound yet, the harness parameters harness_parameterized compares against
        self.bindings = Bindings(harness_parameters=trace.facts.harness_parameters)
        self.restating: list[tuple[Rule, Any, int | None]] = []
        self.run_bounds: list[int] = []  # where each run's checks begin, then where the runs end
        self.expects_error = False  # the current run's error is accounted for
        self.ran_to_the_end = False  # no outcome cut the case short (its repeats are judged)

    def run(self, rule: Rule, site: Site) -> None:
        members = rule.members() if site.opens_groups else None
        if members is not None:  # restatements among them judged last
            for member in members:
                self.run(member, site)
            return
        if rule.judged_last:
            self.restating.append((rule, site.holder, site.run))
            return
        self.expects_error = self.expects_error or rule.expects_failure
        found, self.bindings = rule.check(Context(self.trace, site.invocation, document=self.document), self.bindings)
        self.checks.extend(found)

    def verdicts(self) -> list[Check]:
        """Every check, the restating predicates' last: each reads the verdicts of its own run's checks."""
        done, bounds = list(self.checks), self.run_bounds
        for rule, holder, number in self.restating:
            done.append(rule.judge(holder, self.checks if number is None else self.checks[bounds[number]:bounds[number + 1]]))
        return done


# ---------------------------------------------------------------------------------------------
# The plan: what the case asserts, in order, as data the judge takes step by step


@dataclass(frozen=True)
class Judging:
    """Judge one site's rules; ``accounts_for_error``: the run's error is then expected (an
    expected error directive)."""

    site: Site
    accounts_for_error: bool = False

    def take(self, judge: Judge, capability: str | None) -> None:
        for rule in build_rules(self.site, capability):
            judge.run(rule, self.site)
        if self.accounts_for_error:
            judge.expects_error = True


@dataclass(frozen=True)
class BeginRun:
    """A run's checks begin; ``expects_error``: its error is accounted for already (a construction
    error the case expects may be raised at the observers' first use in the run)."""

    expects_error: bool

    def take(self, judge: Judge, capability: str | None) -> None:
        judge.run_bounds.append(len(judge.checks))
        judge.expects_error = self.expects_error


@dataclass(frozen=True)
class EndRuns:
    """Every run was judged: the case ran to the end (its repeats are judged too)."""

    def take(self, judge: Judge, capability: str | None) -> None:
        judge.run_bounds.append(len(judge.checks))
        judge.ran_to_the_end = True


@dataclass(frozen=True)
class RunErrorAccounted:
    """A run that errored fails the case unless something of the run expected its error."""

    invocation: Any
    span: Span | None

    def take(self, judge: Judge, capability: str | None) -> None:
        if self.invocation.outcome is InvocationOutcome.ERRORED and not judge.expects_error:
            check = Check("outcome", CheckStatus.FAILED, self.span, f"the invocation failed unexpectedly: {self.invocation.error.summary}")
            _judged(check).take(judge, capability)


Step = Judging | BeginRun | EndRuns | RunErrorAccounted


def _rows(step: str) -> tuple[Directive, ...]:
    """The rows the vocabulary judges at ``step`` (``Directive.judged``), in their order."""
    return tuple(row for row, _ in VOCABULARY.judged_at(step))


def plan(scenario: Scenario, trace: CaseTrace, capability: str | None) -> Iterator[Step]:
    """The case's steps in the order they are judged, read off the vocabulary rows' places
    (``Directive.judged``, ``ASSERT_STEPS``), ending where an outcome decides the case: an expected
    compile or build-or-run error is all that is judged; an unexpected compile or construction
    error fails the case alone. Pure: it reads the scenario and the trace, the judge takes the steps."""
    case, view = _case_site(scenario), scenario.view
    for row in _rows("compile_error"):
        if view.given(row) is not None:
            yield Judging(case(row.name, view.given(row)))
            return
    for holder, section in ((scenario, view), (view.resume, view.resume)):  # an error allowed at build or at run time
        for row in _rows("build_or_run_error"):
            either = section.given(row) if section is not None else None
            if either is not None:
                judged = trace.invocations[-1] if trace.invocations else None
                yield Judging(dataclasses.replace(case(row.name, either), invocation=judged, holder=holder, family="case" if holder is scenario else "resume",
                                                  span=section.key_span(row.name)))
                return
    if trace.compile_error is not None:
        error = trace.compile_error
        yield _judged(Check("compile", CheckStatus.FAILED, _compile_error_span(scenario, error), f"compilation failed unexpectedly: {error.category}: {error.message}"))
        return
    expected_construction = yield from _present(case, view, "construction_error")
    if trace.construction_error is not None:
        if not expected_construction:
            error = trace.construction_error
            yield _judged(Check("construction", CheckStatus.FAILED, scenario.section.span,
                                f"standing up the case's observers failed unexpectedly: {error.category}: {error.message}"))
        else:  # nothing ran: the run's block judges what the captures saw standing up
            yield from _present(case, view, "construction_observed")
        return
    yield from _present(case, view, "compile_warning")
    if trace.facts.direct:  # no graph run: the directory's own expectations
        yield from _direct_sites(scenario, capability)
        return
    yield from _run_steps(scenario, trace, expected_construction, capability)
    yield Judging(_outcome(BarrierRule("barriers", None, scenario.section.span.path)))


def _present(case: Any, view: Any, step: str) -> Iterator[Step]:
    """A case-level step's directives the case gives (whether it gave any: the generator's value)."""
    given = False
    for row in _rows(step):
        if view.given(row) is not None:
            given = True
            yield Judging(case(row.name, view.given(row)))
    return given


def _run_steps(scenario: Scenario, trace: CaseTrace, construction: bool, capability: str | None) -> Iterator[Step]:
    """Each run's steps (its error, the directory's case-level expectations, its blocks in their
    order, then whether its error went unexpected), then the case-level blocks of an
    ``invocations:`` case."""
    view = scenario.view
    listed = view.invocations
    sources = list(listed.items) if listed is not None and hasattr(listed, "items") and not hasattr(listed, "value") else [None]
    invocations = [i for i in trace.invocations if i.role != POPULATE]  # seeding runs assert nothing
    runs = list(zip(sources, invocations))
    if trace.facts.multi_run:  # checkpoint resume: the case is the first run, `resume:` the resumed run
        runs = [(view.resume if invocation.role == RESUMED else None, invocation) for invocation in invocations]
    for number, (source, invocation) in enumerate(runs):
        owner = source if source is not None else scenario
        family = "case" if source is None else ("resume" if invocation.role == RESUMED else "invocation")
        yield BeginRun(construction)  # a first-use raise is the run's error
        at = _run_site(scenario, owner, family, invocation, number)
        first_run = invocation.role == FIRST_RUN
        yield from _run_error(at, scenario, source, family, first_run)
        for row in _case_expectations(trace, capability):  # the directory's case-level expectations (expected_wire_request …)
            if view.given(row) is not None:
                yield Judging(at(row.name, view.given(row), holder=scenario, family="case"))
        for row in _first_in_each_slot(view if owner is scenario else owner, "run_block", first_run):
            yield Judging(at(row.name, (view if owner is scenario else owner).given(row)))
        yield RunErrorAccounted(invocation, owner.span if owner is not scenario else scenario.section.span)
    yield EndRuns()
    if sources != [None]:  # `invocations:` — the case-level blocks are about the run as a whole
        case = _case_site(scenario)
        yield from _present(case, view, "whole_case")
        for row in _rows("whole_case_unverified"):
            if view.given(row) is not None:
                yield Judging(_outcome(Unverified(row.name, view.key_span(row.name), f"not implemented: a case-level {row.name}: beside invocations:")))


def _run_error(at: Any, scenario: Scenario, source: Any, family: str, first_run: bool) -> Iterator[Step]:
    """The run's expected error: the first holder giving it (the run's own entry, then the case)."""
    for holder, section in ((source, source),) * (source is not None) + ((scenario, scenario.view),):
        for row in _first_in_each_slot(section, "run_error", first_run):
            yield Judging(at(row.name, section.given(row), holder=holder, family=family if holder is source else "case"), accounts_for_error=True)
            return


def _first_in_each_slot(section: Any, step: str, first_run: bool) -> Iterator[Directive]:
    """The rows of ``step`` the section gives, judged in this run: in each slot (an order of the
    step), the first the section gives."""
    taken: set[int] = set()
    for row, place in VOCABULARY.judged_at(step):
        if place.order not in taken and place.in_run(first_run) and section.given(row) is not None:
            taken.add(place.order)
            yield row


def _case_expectations(trace: CaseTrace, capability: str | None) -> Iterator[Directive]:
    """The rows of the case-level expectations the case's directory judges beside ``expected:``."""
    for name in trace.facts.case_expectations:
        row = VOCABULARY.lookup("case", name, capability)
        if row is not None:
            yield row


def _direct_sites(scenario: Scenario, capability: str | None) -> Iterator[Step]:
    """What a direct case (a capability's ``calls:``, no graph) asserts, in document order: every
    case-level directive its directory registers a shape for (``calls`` checks each call's own
    ``expected``; ``expected_backend_state`` …) — the directory's whole-block shape wins (§3.2) —
    and each directive the vocabulary judges beside them (``direct``)."""
    seen, beside = set(), frozenset(row.name for row in _rows("direct"))
    for source in scenario.sources():
        for name, value in source.items():
            if name in seen or (source is scenario.fixture and scenario.case is not None and name in FILE_ONLY):
                continue
            seen.add(name)
            if (capability, name) in SHAPES or name in beside:
                yield Judging(Site("case", name, value, source.key_span(name), scenario, name=name, opens_groups=True,
                                   builder=DIRECTORY_BUILDER if (capability, name) in SHAPES else None))


def _case_site(scenario: Scenario):
    """Sites of case-level directives: held by the scenario, about the case as a whole."""
    def site(directive: str, node: Any) -> Site:
        return Site("case", directive, node, scenario.view.key_span(directive), scenario, name=directive)
    return site


def _run_site(scenario: Scenario, owner: Any, family: str, invocation: Any, number: int):
    """Sites of one run's directives: held by ``owner`` (the scenario, an ``invocations:`` entry or
    ``resume:``), judged against ``invocation``, restatements reading run ``number``'s checks."""
    def site(directive: str, node: Any, holder: Any = owner, family: str = family) -> Site:
        span = holder.key_span(directive) if holder is not scenario else scenario.view.key_span(directive)
        return Site(family, directive, node, span, holder, invocation, number, directive)
    return site


@dataclass(frozen=True)
class SelfJudged(Rule):
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


def _outcome(rule: Rule) -> Site:
    """A site for a rule the pass made itself (no directive wrote it)."""
    return Site("case", rule.name, None, rule.span, None, rules=(rule,))


def _judged(check: Check) -> Judging:
    """The step judging an outcome the pass decided: the check as it stands."""
    return Judging(_outcome(SelfJudged(check)))


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
                checks.append(Check(name, CheckStatus.FAILED, span, "the barrier never ran, so the case ran without it"))
            elif broken:
                checks.append(Check(name, CheckStatus.FAILED, span, f"the barrier did not hold: {broken}"))
            else:
                checks.append(Check(name, CheckStatus.VERIFIED, span, f"held {len(ran)} time(s)"))
        return tuple(checks), bindings


def _repeated_runs(scenario: Scenario, trace: CaseTrace, run_count: Any, capability: str | None) -> list[Check]:
    """`run_count: N`: every run is checked against the expectations, and all runs must agree."""
    span = scenario.view.key_span("run_count")
    runs = (trace,) + tuple(trace.repeats)
    checks = []
    if len(runs) != run_count.value:
        checks.append(Check("run_count", CheckStatus.FAILED, span, f"expected {run_count.value} runs, the trace has {len(runs)}"))
    for number, repeat in enumerate(runs[1:], start=2):
        for check in assert_case(scenario, repeat, capability, repeated=False):
            checks.append(dataclasses.replace(check, name=f"run {number}: {check.name}"))
    found, _ = RunsAgree("run_count", span).check(Context(trace, trace.main), NO_BINDINGS)
    checks.extend(found)
    return checks


def _compile_error_span(scenario: Scenario, error: Any) -> Span:
    """Where the fixture wrote what an unexpected compile error names — the endpoint of a dangling
    edge, the node, the state field (the runtime's error exposes them) — else the case."""
    attributes = error.attributes or {}
    source, target = attributes.get("source"), attributes.get("target")
    edges = scenario.view.edges
    for edge in (edges.items if target is not None and edges is not None else ()):
        if getattr(edge.to, "value", None) == target and getattr(edge.from_, "value", None) == source:
            return edge.to.span
    state = scenario.view.state
    for holder, name in ((scenario.view.nodes, error.node), (state.fields if state is not None else None, attributes.get("field_name"))):
        if name is not None and holder is not None and name in getattr(holder, "keys", ()):
            return holder.key_span(name)
    return scenario.section.span


__all__ = ["assert_case", "plan"]
