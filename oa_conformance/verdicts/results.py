"""One case to run (:class:`CaseRef`) and its verdict (:class:`CaseResult`: an ``outcomes.Outcome`` and what explains it).

The pipeline makes results (``pipeline.run_case``), the expectations file re-reads them
(``expectations.Expectations.apply``), the runner schedules them and the front ends present them;
this module is what they share, below all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from ..assertions.rules import Check, CheckStatus
from ..model.diagnostics import Diagnostic, Span
from ..model.discovery import FixtureRef
from .outcomes import Outcome

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from ..interpreter.static.scenarios import Scenario

ADAPTER_ERROR = "adapter_internal_error"  # an adapter-layer category (§9 allows them) for our own bugs


@dataclass(frozen=True)
class CaseRef:
    """One case to run: a fixture and, for `cases:` fixtures, the case."""

    fixture: FixtureRef
    scenario: Scenario | None  # None when the fixture did not read
    problems: tuple[Diagnostic, ...] = ()

    @property
    def name(self) -> str | None:
        return self.scenario.name if self.scenario is not None else None

    @property
    def id(self) -> str:
        base = f"{self.fixture.capability}/{self.fixture.name.removesuffix('.yaml')}"
        return f"{base}[{self.name}]" if self.name is not None else base

    @cached_property  # the schedulers ask several times; summed once (the frozen fields are untouched)
    def waits(self) -> float:
        """The seconds the case declares waiting (``Scenario.waits``: the rows with a wait unit)."""
        return self.scenario.waits if self.scenario is not None else 0.0


@dataclass(frozen=True)
class CaseResult:
    ref: CaseRef
    outcome: Outcome
    category: str | None = None
    reason: str | None = None
    checks: tuple[Check, ...] = ()
    duration_s: float = 0.0
    location: Span | None = None  # where the reason points (a check or problem carries its own)
    notes: tuple[str, ...] = field(default_factory=tuple)
    # The expectations-file entry applied to this case: an ``expectations.Expectation`` (that module
    # makes results from results, so it sits above this one, which does not import it).
    expectation: object | None = None

    @property
    def fails_run(self) -> bool:
        return self.outcome.fails_run

    def findings(self) -> tuple[tuple[Span | None, str], ...]:
        """What did not hold, as ``(location, text)`` entries — one per distinct check or problem,
        each with its own location and no location inside its text: the failed, unverified and
        warning (SHOULD-level, not met) checks; else the fixture's read problems; else the reason (a
        timeout, a skip, an error). A passed case's findings are its warnings."""
        failing = [c for c in self.checks if c.status != CheckStatus.VERIFIED]
        if failing:
            return tuple((c.location, str(c)) for c in failing)
        if self.ref.problems:
            return tuple((p.location, f"{p.category}: {p.message}") for p in self.ref.problems)
        return ((self.location, self.reason),) if self.reason else ()

    def counts(self) -> dict[str, int]:
        return {status.value: sum(c.status == status for c in self.checks) for status in CheckStatus}
