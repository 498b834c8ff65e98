"""Assert pass: every expectation of a scenario, checked against its trace as rule objects.

Builds one rule per expectation from the AST (:mod:`oa_conformance.assertions.rules` for the §5.8
shapes, :mod:`oa_conformance.assertions.predicates` for named invariants), runs them over the
trace with first-occurrence bindings threaded through, and returns every :class:`Check`. Nothing
passes vacuously: an expectation without a rule is an ``unverified`` check, and a failure the
fixture did not expect is a ``failed`` one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pyrsistent import pmap

from .case_rules import BuildOrRunErrorRule, CompileErrorRule, CompileWarningRule, ConstructionErrorRule, RunsAgree
from .catalogue.engine import RestatesRule, predicate_rule
from .error_rules import ErrorRule, invocation_error
from .rules import FAILED, UNVERIFIED, VERIFIED, Check, Context, Rule, Unverified, _AllOf
from .shapes import SHAPES, shape_rule
from .shapes.checkpoint import record_rules
from ..ast.nodes import PredicateBlock, Section
from ..interpreter.scenarios import FILE_ONLY, Scenario
from ..diagnostics import Span
from ..interpreter.capabilities import harness_for
from ..interpreter.observability_nodes import BARRIER  # the middleware-log kind a barrier logs its outcome under
from ..interpreter.resume import FIRST_RUN, POPULATE, RESUMED, is_multi_run
from ..trace import CaseTrace
from ..trace.document import document
from ..vocabulary import PREDICATE_BLOCKS

BUILD_OR_RUN_ERROR = "expected_chain_ambiguity_error"
CONSTRUCTION_ERROR = "expected_construction_error"


def assert_case(scenario: Scenario, trace: CaseTrace, capability: str | None = None, repeated: bool = True) -> tuple[Check, ...]:
    """All checks of one scenario against its trace (``repeated=False``: this run only, not its repeats)."""
    checks: list[Check] = []
    bindings: Any = pmap()
    # Restating predicates are judged last, against the checks of their own run: (rule, owner, run
    # number — None for a case-level block, which reads every check of the case).
    restating: list[tuple[RestatesRule, Any, int | None]] = []
    run_starts: list[int] = []  # where each run's checks begin in ``checks``
    owner: Any = scenario
    run_number: int | None = None

    def run(rule: Rule) -> None:
        nonlocal bindings
        if isinstance(rule, RestatesRule):
            restating.append((rule, owner, run_number))
            return
        found, bindings = rule.check(context, bindings)
        checks.extend(found)

    # The trace thawed once for the whole case; every rule's context carries it (catalogue queries read it).
    case_document = document(trace)

    def context_of(invocation: Any) -> Context:
        return Context(trace, invocation, document=case_document)

    context = context_of(None)
    compile_error = scenario.get("expected_compile_error")
    if compile_error is not None:
        run(CompileErrorRule("expected_compile_error", _span(scenario, "expected_compile_error"), compile_error))
        return tuple(checks)
    for holder in (scenario, scenario.get("resume")):  # an error allowed at build or at run time
        either = holder.get(BUILD_OR_RUN_ERROR) if holder is not None else None
        if either is not None:
            judged = trace.invocations[-1] if trace.invocations else None
            span = holder.key_span(BUILD_OR_RUN_ERROR) if holder is not scenario else _span(scenario, BUILD_OR_RUN_ERROR)
            found, _ = BuildOrRunErrorRule(BUILD_OR_RUN_ERROR, span, either).check(context_of(judged), bindings)
            return tuple(found)
    if trace.compile_error is not None:
        error = trace.compile_error
        return (Check("compile", FAILED, _compile_error_span(scenario, error), f"compilation failed unexpectedly: {error.category}: {error.message}"),)
    construction = scenario.get(CONSTRUCTION_ERROR)
    if construction is not None:  # raised standing the observers up, or at their first use in the run
        run(ConstructionErrorRule(CONSTRUCTION_ERROR, _span(scenario, CONSTRUCTION_ERROR), construction))
    if trace.construction_error is not None:
        if construction is None:
            error = trace.construction_error
            return (Check("construction", FAILED, scenario.section.span,
                          f"standing up the case's observers failed unexpectedly: {error.category}: {error.message}"),)
        # Nothing ran: the case-level `expected:` judges what the captures saw while the case stood up.
        for _, _, rule in expected_rules(scenario.get("expected"), capability):
            run(rule)
        stood_up = list(checks)
        return tuple(stood_up + [rule.judge(holder, stood_up) for rule, holder, _ in restating])
    warning = scenario.get("expected_compile_warning")
    if warning is not None:
        run(CompileWarningRule("expected_compile_warning", _span(scenario, "expected_compile_warning"), warning))
    contract = harness_for(capability)
    if contract is not None and contract.is_direct(scenario):  # no graph run: the directory's own expectations
        for directive, node, span in direct_expectations(scenario, capability):
            if directive in PREDICATE_BLOCKS and (capability, directive) not in SHAPES:  # the catalogue's rows
                for rule in predicate_rules(node, f"expected.{directive}", capability):
                    run(rule)
                continue
            for rule in _members(shape_rule(directive, node, span, capability)):
                run(rule)
        direct_checks = list(checks)
        for rule, holder, _ in restating:  # a restatement reads the verdicts of the case's other checks
            checks.append(rule.judge(holder, direct_checks))
        return tuple(checks)

    listed = scenario.get("invocations")
    sources = list(listed.items) if listed is not None and hasattr(listed, "items") and not hasattr(listed, "value") else [None]
    invocations = [i for i in trace.invocations if i.role != POPULATE]  # seeding runs assert nothing
    runs = list(zip(sources, invocations))
    if is_multi_run(scenario):  # checkpoint resume: the case is the first run, `resume:` the resumed run
        runs = [(scenario.get("resume") if invocation.role == RESUMED else None, invocation) for invocation in invocations]
    for source, invocation in runs:
        context = context_of(invocation)
        owner = source if source is not None else scenario
        run_number = len(run_starts)
        run_starts.append(len(checks))
        expects_error = construction is not None  # a first-use raise is the run's error
        error_key = "first_run_expected_error" if invocation.role == FIRST_RUN else "expected_error"
        for holder in ((source,) if source is not None else ()) + (scenario,):
            expected_error = holder.get(error_key)
            if expected_error is not None:
                span = holder.key_span(error_key) if isinstance(holder, Section) else _span(scenario, error_key)
                # `expected_error` may mean more in a directory (its own shape); the others are the general rule
                run(shape_rule(error_key, expected_error, span, capability) if error_key == "expected_error"
                    else ErrorRule(error_key, span, expected_error, invocation_error))
                expects_error = True
                break
        for directive in sorted(contract.case_expectations) if contract is not None else ():
            node = scenario.get(directive)  # the directory's case-level expectations (expected_wire_request …)
            if node is not None:
                run(shape_rule(directive, node, _span(scenario, directive), capability))
        # A resume case's first run may carry its own expectations beside its expected error.
        first_run = invocation.role == FIRST_RUN and owner.get("first_run_expected") is not None
        expected = owner.get("first_run_expected" if first_run else "expected")
        for directive, node, rule in expected_rules(expected, capability):
            if directive in ("error", "expected_error", "outcome", "final_state_at_error"):
                expects_error = expects_error or directive != "outcome" or getattr(node, "value", None) == "errored"
            # A shape whose expectation describes the failed run (an ERROR invocation span,
            # an invoke() rejected at its boundary) accounts for the error like expected_error.
            expects_error = expects_error or getattr(rule, "expects_failure", False)
            run(rule)
        invariants = owner.get("invariants")  # the run-level block, beside `expected:`
        if invariants is not None:
            for rule in predicate_rules(invariants, "invariants", capability):
                run(rule)
        for rule in record_rules(owner):  # saved_record_assertions / every_save_assertions
            run(rule)
        if invocation.outcome == "errored" and not expects_error:
            error = invocation.error
            checks.append(Check("outcome", FAILED, owner.span if isinstance(owner, Section) else scenario.section.span,
                                f"the invocation failed unexpectedly: {error.summary}"))
    runs_end = len(checks)
    if sources != [None]:  # `invocations:` — the case-level blocks are about the run as a whole
        context = context_of(None)
        owner, run_number = scenario, None
        invariants = scenario.get("invariants")
        if invariants is not None:
            for rule in predicate_rules(invariants, "invariants", capability):
                run(rule)
        if scenario.get("expected") is not None:
            checks.append(Check("expected", UNVERIFIED, _span(scenario, "expected"),
                                "not implemented: a case-level expected: beside invocations:"))
    checks.extend(barrier_checks(scenario, trace))
    case_checks = list(checks)
    bounds = run_starts + [runs_end]
    for rule, holder, number in restating:  # after every other check: a restatement reads their verdicts
        own = case_checks if number is None else case_checks[bounds[number]:bounds[number + 1]]
        checks.append(rule.judge(holder, own))
    run_count = scenario.get("run_count")
    if run_count is not None and repeated:
        checks.extend(_repeated_runs(scenario, trace, run_count, capability))
    return tuple(checks)


def barrier_checks(scenario: Scenario, trace: CaseTrace) -> list[Check]:
    """One check per barrier the graph build wired (``wiring.barriers``: the directive's node, line
    and column; `await_event_delivery`, conformance-adapter §5.1): verified when it ran and
    held every time, failed at the directive when it never ran or did not hold (§5.1: an adapter
    that cannot provide the barrier fails the case rather than run it without one)."""
    path = scenario.section.span.path
    outcomes: dict[tuple[int, int], list[Any]] = {}
    for entry in trace.middleware_log:
        if entry[0] == BARRIER:
            outcomes.setdefault((entry[1]["line"], entry[1]["column"]), []).append(entry[1])
    checks = []
    for barrier in trace.wiring.get("barriers", ()):
        span = Span(path, barrier["line"], barrier["column"])
        name = f"{barrier['node']}.calls_llm_from_wrapper.await_event_delivery"
        ran = outcomes.get((span.line, span.column), [])
        broken = [dict(outcome) for outcome in ran if not outcome["held"]]
        if not ran:
            checks.append(Check(name, FAILED, span, "the barrier never ran, so the case ran without it"))
        elif broken:
            checks.append(Check(name, FAILED, span, f"the barrier did not hold: {broken}"))
        else:
            checks.append(Check(name, VERIFIED, span, f"held {len(ran)} time(s)"))
    return checks


def expected_rules(expected: Section | None, capability: str | None):
    """The rules of an ``expected:`` block, in document order, as ``(directive, value, rule)``: a
    predicate block's rows one by one, every other key through its shape."""
    for directive, node in (expected.items() if expected is not None else ()):
        if directive in PREDICATE_BLOCKS:
            for rule in predicate_rules(node, f"expected.{directive}", capability):
                yield directive, node, rule
        else:
            yield directive, node, shape_rule(directive, node, expected.key_span(directive), capability)


def _members(rule: Rule) -> list[Rule]:
    """A shape's rules with ``_AllOf`` groups opened, so restating predicates among them are judged
    last like everywhere else."""
    return [member for inner in rule.rules for member in _members(inner)] if isinstance(rule, _AllOf) else [rule]


def _repeated_runs(scenario: Scenario, trace: CaseTrace, run_count: Any, capability: str | None) -> list[Check]:
    """`run_count: N`: every run is checked against the expectations, and all runs must agree."""
    span = _span(scenario, "run_count")
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


def predicate_rules(block: PredicateBlock, name: str, capability: str | None) -> list[Rule]:
    rules = []
    for ref in block.predicates:
        rule = predicate_rule(capability, ref.name, ref.value, ref.span, name)
        rules.append(rule if rule is not None else Unverified(f"{name}.{ref.name}", ref.span, f"not implemented: predicate {ref.name!r}"))
    return rules


def direct_expectations(scenario: Scenario, capability: str | None):
    """What a direct case (a capability's ``calls:``, no graph) asserts, in document order: every
    case-level directive its directory registers a shape for (``calls`` checks each call's own
    ``expected``; ``expected_backend_state`` …), and each key of ``expected:`` — through a shape for
    the whole block when the directory registers one (its keys are then the directory's to read)."""
    seen = set()
    for source in scenario.sources():
        for name in source.order:
            if name in seen or (source is scenario.fixture and scenario.case is not None and name in FILE_ONLY):
                continue
            seen.add(name)
            node, span = source.get(name), source.key_span(name)
            if (capability, name) in SHAPES:
                yield name, node, span
            elif name == "expected":
                for directive, value in node.items():
                    yield directive, value, node.key_span(directive)


def _compile_error_span(scenario: Scenario, error: Any) -> Span:
    """Where the fixture wrote what an unexpected compile error names — the endpoint of a dangling
    edge, the node, the state field (the runtime's error exposes them) — else the case."""
    attributes = error.attributes or {}
    source, target = attributes.get("source"), attributes.get("target")
    edges = scenario.get("edges")
    for edge in (edges.items if target is not None and edges is not None else ()):
        ends = {key: getattr(edge.get(key), "value", None) for key in ("from", "to")} if hasattr(edge, "get") else {}
        if ends.get("to") == target and ends.get("from") == source:
            return edge.get("to").span
    for directive, name in (("nodes", error.node), ("state", attributes.get("field_name"))):
        holder = scenario.get(directive)
        if directive == "state" and holder is not None:
            holder = holder.get("fields")
        if name is not None and holder is not None and name in getattr(holder, "keys", ()):
            return holder.key_span(name)
    return scenario.section.span


def _span(scenario: Scenario, directive: str):
    where = scenario.where(directive)
    return where.key_span(directive) if where is not None else scenario.section.span


__all__ = ["UNVERIFIED", "assert_case"]
