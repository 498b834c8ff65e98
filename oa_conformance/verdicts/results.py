"""One case to run (:class:`CaseRef`) and its verdict (:class:`CaseResult`), with the outcome names.

The pipeline makes results (``pipeline.run_case``), the expectations file re-reads them
(``expectations.Expectations.apply``), the runner schedules them and the front ends present them;
this module is what they share, below all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..assertions.rules import FAILED as CHECK_FAILED, UNVERIFIED, VERIFIED, WARNING, Check
from ..model.diagnostics import Diagnostic
from ..model.discovery import FixtureRef

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from ..interpreter.static.scenarios import Scenario

PASSED, FAILED, SKIPPED, ERROR = "passed", "failed", "skipped", "error"
XFAIL, XPASS = "xfail", "xpass"  # what the expectations file makes of a failure / a pass it lists
OUTCOMES = (PASSED, FAILED, SKIPPED, ERROR, XFAIL, XPASS)
RUN_FAILING = frozenset((FAILED, ERROR, XPASS))  # the outcomes that make a run fail (xpass: strict)
ADAPTER_ERROR = "adapter_internal_error"  # an adapter-layer category (§9 allows them) for our own bugs
# An adapter-layer category for a case that uses a directive the executor does not implement yet: it
# fails (nothing is silently skipped), but reports count it apart from the runtime's failures.
NOT_IMPLEMENTED = "not_implemented"

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

    @property
    def waits(self) -> float:
        """The seconds the case declares waiting (``Scenario.waits``, summed by the scenario pass)."""
        return self.scenario.waits if self.scenario is not None else 0.0


@dataclass(frozen=True)
class CaseResult:
    ref: CaseRef
    outcome: str  # passed | failed | skipped | error | xfail | xpass (the last two: expectations file)
    category: str | None = None
    reason: str | None = None
    checks: tuple[Check, ...] = ()
    duration_s: float = 0.0
    location: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    # The expectations-file entry applied to this case: an ``expectations.Expectation`` (that module
    # makes results from results, so it sits above this one, which does not import it).
    expectation: object | None = None

    @property
    def fails_run(self) -> bool:
        return self.outcome in RUN_FAILING

    def findings(self) -> tuple[tuple[str | None, str], ...]:
        """What did not hold, as ``(location, text)`` entries — one per distinct check or problem,
        each with its own location and no location inside its text: the failed, unverified and
        warning (SHOULD-level, not met) checks; else the fixture's read problems; else the reason (a
        timeout, a skip, an error). A passed case's findings are its warnings."""
        failing = [c for c in self.checks if c.status != VERIFIED]
        if failing:
            return tuple((str(c.location) if c.location else None, str(c)) for c in failing)
        if self.ref.problems:
            return tuple((p.location, f"{p.category}: {p.message}") for p in self.ref.problems)
        return ((self.location, self.reason),) if self.reason else ()

    def counts(self) -> dict[str, int]:
        return {
            "verified": sum(c.status == VERIFIED for c in self.checks),
            "failed": sum(c.status == CHECK_FAILED for c in self.checks),
            "unverified": sum(c.status == UNVERIFIED for c in self.checks),
            "warning": sum(c.status == WARNING for c in self.checks),
        }
