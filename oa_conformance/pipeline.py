"""The pipeline: every pass a fixture goes through, in order, and where each problem becomes a verdict.

    read_fixture (once per file)   load → schema check → build → version check, state values
                                   → the typed AST or problems
    cases_of (once per file)       scenarios: one CaseRef per case, its inherited declarations included
                                   (read_cases: every file's, for a process that keeps them all)
    run_case (once per case)       features → requires_capability → not implemented → execute → assert
                                   → one CaseResult

:func:`read_fixture` stops at the first pass that reports a problem, so later passes only ever see
input the earlier ones accepted; :func:`run_case` never raises for a fixture, harness or runtime
problem. Both front ends (``oa-conformance run``, the pytest plugin), ``oa-lint`` / ``check`` /
``oa-ast`` (the static passes only) and the tools go through these three functions.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from typing import TYPE_CHECKING, Callable, Iterable, NamedTuple

from .interpreter.static.build import build_fixture
from .interpreter.static.loader import Composed, load_bytes, load_path
from .ast.nodes import Section
from .model.diagnostics import FIXTURE_SCHEMA_INVALID, FIXTURE_VERSION_UNSUPPORTED, Diagnostic, Span
from .model.discovery import capability_of, misspelled_capability
from .model.heap import collector_paused
from .interpreter.static.scenarios import Scenario, scenarios
from .interpreter.static.schema_check import check_schema
from .interpreter.static.state_values import check_state_values
from .interpreter.static.version_check import check_version

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from .model.discovery import FixtureRef
    from .verdicts.outcomes import Outcome
    from .verdicts.results import CaseRef, CaseResult

# The passes that run a case (graph build, execute, assert: the runtime, OTel, the catalogue) and
# the results they make are imported by the first case that runs, not with this module: reading a
# fixture (oa-lint, check, oa-ast, the parent of worker processes) pays only for the static passes.

DEFAULT_TIMEOUT = 60.0

STAGES = ("load", "schema", "version")
_RECOVERABLE = frozenset(("duplicate-key", "tag"))  # loader findings after which the schema check still runs


class ReadResult(NamedTuple):
    """The typed ``Fixture`` (``None`` when a pass failed) and every problem found; with
    ``keep_composed``, also the document libyaml composed (see :class:`~oa_conformance.interpreter.static.loader.Composed`);
    when the version check ran, the fixture's scenarios (the scenario pass, run once for the state
    values check and kept for what reads the cases next: ``cases_of``, the linter)."""

    fixture: Section | None
    diagnostics: tuple[Diagnostic, ...]
    composed: Composed | None = None
    scenarios: tuple[Scenario, ...] | None = None

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def read_fixture(path: str, data: bytes | str | None = None, stop_after: str = "version", capability: str | None = None,
                 keep_composed: bool = False) -> ReadResult:
    """Load and check one fixture file (or ``data`` read from elsewhere, reported as ``path``).

    ``capability`` defaults to the fixture's directory (see :func:`~.model.discovery.capability_of`).
    ``keep_composed`` keeps the composed YAML document in the result (the linter reads it; a run
    does not, so it is dropped as soon as the value tree is built).
    """
    if capability is None and path != "-":
        capability = capability_of(path)
    misspelled = misspelled_capability(capability)
    if misspelled is not None:  # its vocabulary and executors would be the wrong ones: nothing else is worth reading
        return ReadResult(None, (Diagnostic.at(Span(path, 1, 1), FIXTURE_SCHEMA_INVALID, "capability-name",
                                               f"unknown capability {capability!r} (did you mean {misspelled!r}?): "
                                               f"the folder spec/{capability}/conformance/ names no capability of the spec"),))
    with collector_paused():  # many small immutable nodes, no cycles (heap.py)
        result = _read(path, data, stop_after, capability)
    return result._replace(composed=result.composed if keep_composed else None)


def _read(path: str, data: bytes | str | None, stop_after: str, capability: str | None) -> ReadResult:
    loaded = load_path(path) if data is None else load_bytes(data, path)
    composed = loaded.composed
    # A repeated key (the first one kept) or a refused tag (read as plain) leaves a tree worth checking.
    recoverable = all(d.code in _RECOVERABLE for d in loaded.diagnostics)
    if loaded.tree is None or stop_after == "load" or not recoverable:
        return ReadResult(None, loaded.diagnostics, composed)
    problems = check_schema(loaded.tree, capability, tokens=loaded.may_hold_tokens, predicate_misspelling=_predicate_misspelling)
    if loaded.diagnostics:  # the loader's findings first: what the schema check saw depends on them
        # A value under a refused tag is read as plain YAML: its shape is the tag's problem, said once.
        refused = {(d.line, d.column) for d in loaded.diagnostics if d.code == "tag"}
        problems = tuple(p for p in problems if (p.line, p.column) not in refused)
        return ReadResult(None, loaded.diagnostics + problems, composed)
    if problems:
        if stop_after != "schema":
            # A too-new fixture is expected to use directives this adapter lacks: say so first.
            too_new = tuple(d for d in check_version(loaded.tree) if d.category == FIXTURE_VERSION_UNSUPPORTED)
            problems = too_new + problems
        return ReadResult(None, problems, composed)
    fixture = build_fixture(loaded.tree, capability, tokens=loaded.may_hold_tokens)
    if stop_after == "schema":
        return ReadResult(fixture, (), composed)
    cases = tuple(scenarios(fixture))
    # The fixture is kept beside its wrong-typed state values: the linter's rules still read it.
    return ReadResult(fixture, check_version(fixture) + check_state_values(fixture, cases), composed, cases)


def _predicate_misspelling(capability: str | None, name: str) -> str | None:
    """The catalogue's judgement of a predicate name (imported by the first fixture that names one)."""
    from .assertions.catalogue.spelling import misspelling_of

    return misspelling_of(capability, name)


def cases_of(fixture: FixtureRef) -> list[CaseRef]:
    """The cases of one fixture file; a file that does not read is one case carrying its problems."""
    from .verdicts.results import CaseRef

    read = read_fixture(fixture.path, capability=fixture.capability)
    if read.fixture is None or read.diagnostics:
        return [CaseRef(fixture, None, read.diagnostics)]
    return [CaseRef(fixture, scenario) for scenario in read.scenarios]


def read_cases(fixtures: Iterable[FixtureRef]) -> list[CaseRef]:
    """Every case of ``fixtures``, in order, for a process that keeps them all until it ends (the
    command line): the trees are read with the collector paused and frozen after (``heap.py``) —
    collecting while the corpus accumulates cost a third of reading it, and freed nothing."""
    with collector_paused(freeze=True):
        return [case for fixture in fixtures for case in cases_of(fixture)]


def _output_as_notes(passes: Callable[..., CaseResult]) -> Callable[..., CaseResult]:
    """What a case's passes would have printed — runtime warnings, the runtime's log records —
    becomes its result's ``notes`` (``interpreter/running/case_output.py``), never stderr."""

    @functools.wraps(passes)
    def run(ref: CaseRef, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
        from .interpreter.running.case_output import captured, notes

        with captured() as caught:
            result = passes(ref, timeout)
        return dataclasses.replace(result, notes=result.notes + notes(caught)) if caught else result

    return run


@_output_as_notes
def run_case(ref: CaseRef, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """One case through every pass after reading, in order; each ``return`` is where a problem
    becomes the case's verdict. Never raises for a fixture, harness or runtime problem."""
    from .interpreter.running.adapter_capabilities import capability_mismatches
    from .assertions.assert_pass import assert_case
    from .interpreter.running.behaviors import NotImplementedDirective
    from .interpreter.running.capabilities import harness_for
    from .interpreter.running.execute import execute_case, unsupported
    from .interpreter.running.features import feature_needs
    from .verdicts.outcomes import Outcome
    from .verdicts.results import ADAPTER_ERROR

    verdict = _Verdict(ref)
    if ref.scenario is None:                                                # read: load → schema → build → version
        first = ref.problems[0]
        return verdict(Outcome.ERROR, category=first.category, reason="; ".join(p.message for p in ref.problems), location=first.location)
    scenario, capability = ref.scenario, ref.fixture.capability
    needs = feature_needs(capability, own_sections(scenario), scenario)     # features: does the build ship them?
    missing = list(needs.missing) + capability_mismatches(scenario)          # requires_capability: the arm asserted
    if missing:
        return verdict(Outcome.SKIPPED, reason="; ".join(map(str, missing)), location=scenario.span)
    verdict.notes = tuple(needs.undetermined)  # needed proposals whose status is unknown: the case runs, noted
    contract = harness_for(capability)                                      # the directory's harness, asked once
    gap = unsupported(scenario, contract)                                    # not implemented: a directive not executed
    if gap is not None:
        return _execution_verdict(verdict, scenario, NotImplementedDirective(*gap))
    try:
        trace = execute_case(scenario, timeout, contract)                    # harness → graph build → execute
    except Exception as exc:
        return _execution_verdict(verdict, scenario, exc, needs.claimed)
    try:
        checks = assert_case(scenario, trace, capability)                    # assert: every expectation a rule
    except Exception as exc:  # a rule's bug: this case errors, located at the case, the run goes on
        return verdict(Outcome.ERROR, category=ADAPTER_ERROR, reason=f"adapter error in the assert pass {type(exc).__name__}: {exc}",
                       location=scenario.span)
    failed = [c for c in checks if not c.status.holds]                     # verdict (a warning holds)
    if not checks:
        return verdict(Outcome.FAILED, reason="the case asserts nothing the adapter could check", location=scenario.span)
    if failed:
        first = failed[0]
        return verdict(Outcome.FAILED, reason="; ".join(str(c) for c in failed[:3]), checks=checks,
                       location=first.location)
    return verdict(Outcome.PASSED, checks=checks)


class _Verdict:
    """Makes one case's result: the outcome and what explains it, with the time since the case
    started and the notes gathered so far."""

    def __init__(self, ref: CaseRef):
        from .verdicts.results import CaseResult

        self.result_class, self.ref, self.started, self.notes = CaseResult, ref, time.perf_counter(), ()

    def __call__(self, outcome: Outcome, **details) -> CaseResult:
        return self.result_class(self.ref, outcome, duration_s=round(time.perf_counter() - self.started, 4), notes=self.notes, **details)


def _execution_verdict(verdict: _Verdict, scenario: Scenario, exc: Exception, claims: list[str] = ()) -> CaseResult:
    """What an exception out of setting up or executing a case makes of it. ``claims``: the
    proposals the case needs that the build's manifest claims it ships — a build that then lacks
    what the case needs contradicts its manifest (a failure naming both), not a skip."""
    from .model.errors import FixtureInvalid, HarnessPrimitiveMissing
    from .host.detect import RuntimeLacks
    from .host.required import claimed_contradiction
    from .interpreter.running.behaviors import NotImplementedDirective
    from .interpreter.running.execute import CaseTimeout
    from .verdicts.outcomes import NOT_IMPLEMENTED, Outcome
    from .verdicts.results import ADAPTER_ERROR

    at_case = scenario.span
    if isinstance(exc, RuntimeLacks) and claims:  # its manifest says it ships what it lacks
        return verdict(Outcome.FAILED, reason=f"{' and '.join(claims)}, but the runtime lacks {exc.lacking}",
                       location=exc.span or scenario.span)
    contradiction = claimed_contradiction(exc.lacking) if isinstance(exc, RuntimeLacks) else None
    if contradiction is not None:  # the spec version it claims requires what it lacks
        return verdict(Outcome.FAILED, reason=contradiction, location=exc.span or scenario.span)
    if isinstance(exc, RuntimeLacks):  # the build lacks the public API the case needs: it does not ship the feature
        return verdict(Outcome.SKIPPED, reason=f"{exc.what} the case needs", location=exc.span or scenario.span)
    if isinstance(exc, HarnessPrimitiveMissing):
        return verdict(Outcome.ERROR, category="harness_primitive_missing", reason=f"harness primitive missing: {exc.what}",
                       location=exc.span or scenario.span)
    if isinstance(exc, FixtureInvalid):
        return verdict(Outcome.ERROR, category=exc.category, reason=f"fixture invalid: {exc.what}", location=exc.span)
    if isinstance(exc, NotImplementedDirective):
        return verdict(Outcome.FAILED, category=NOT_IMPLEMENTED, reason=str(exc), location=exc.span)
    if isinstance(exc, CaseTimeout):
        return verdict(Outcome.FAILED, reason=str(exc), location=at_case)
    if raised_by_runtime(exc):  # the runtime rejected what the case builds from valid input: its outcome
        return verdict(Outcome.FAILED, reason=f"the runtime raised {type(exc).__name__} while the case was set up: {exc}", location=at_case)
    # an adapter bug: one case errors, the run goes on, the user sees what and where
    return verdict(Outcome.ERROR, category=ADAPTER_ERROR, reason=f"adapter error {type(exc).__name__}: {exc}", location=at_case)


def own_sections(scenario: Scenario) -> list[Section]:
    """The case and the fixture's top level without its other cases (what the case is made of)."""
    sections = [scenario.section]
    if scenario.case is not None:
        sections.extend(v for k, v in scenario.fixture.items() if k != "cases" and isinstance(v, Section))
        sections.extend(v for k, v in scenario.fixture.items() if k != "cases" and not isinstance(v, Section))
    return sections


def raised_by_runtime(exc: BaseException) -> bool:
    """Whether the exception was raised inside the runtime's own code (its innermost frame is in the
    openarmature package): the runtime's behaviour, judged as a failure, not the adapter's bug."""
    from .host.manifest import runtime_package

    package = runtime_package()
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return package is not None and tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename).startswith(package + os.sep)


__all__ = ["DEFAULT_TIMEOUT", "ReadResult", "STAGES", "cases_of", "own_sections", "raised_by_runtime", "read_cases", "read_fixture", "run_case"]
