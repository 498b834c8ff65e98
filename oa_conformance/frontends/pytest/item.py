"""The item: one fixture case, whose judged result (run ahead by the session's scheduler) becomes
pytest's outcome; a failure shows the fixture's YAML and the mismatch, never a traceback."""

from __future__ import annotations

from typing import Any

import pytest

from ..report import failure_text
from ...model.diagnostics import Span
from ...verdicts.outcomes import Outcome
from ...verdicts.results import CaseRef, CaseResult
from .stash import SCHEDULER


class CaseFailed(Exception):
    def __init__(self, result: CaseResult):
        super().__init__(result.reason)
        self.result = result


class CaseItem(pytest.Item):
    def __init__(self, *, case: CaseRef, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.skipped_at: Span | None = None  # where a recognized skip is (a fixture's line, or an expectations entry's)
        self.case_seconds: float | None = None  # how long the case itself ran (it may have run ahead)

    def runtest(self) -> None:
        """The judged result (the one judge, ``expectations.judge``) as pytest's outcome."""
        result = self.config.stash[SCHEDULER].result(self)
        self.user_properties.append(("oa_outcome", result.outcome.value))  # a plain str: xdist sends it as it is
        self.case_seconds = result.duration_s
        entry = result.expectation
        if entry is not None and entry.intermittent and result.outcome in (Outcome.PASSED, Outcome.XFAIL):
            self.user_properties.append(("oa_intermittent", f"{entry.location}: {self.case.id} is intermittent "
                                         f"(expected to fail or pass): {'passed' if result.outcome == Outcome.PASSED else 'failed'}"))
        if result.outcome == Outcome.SKIPPED:
            self.skipped_at = result.location  # reported there (pytest_runtest_makereport), not at this line
            pytest.skip(result.reason or "skipped")
        if result.outcome == Outcome.XFAIL:
            checks = f"; checks {', '.join(entry.checks)}" if entry.checks else ""
            pytest.xfail(f"{'intermittent, ' if entry.intermittent else ''}{entry.kind}: {entry.reason} ({entry.location}{checks})")
        if result.outcome == Outcome.XPASS:  # pytest's own strict XPASS: a failure that says to remove the entry
            why = f"{entry.kind}: {entry.reason}" if result.reason and result.reason.startswith("passed,") else result.reason
            self.add_marker(pytest.mark.xfail(reason=f"{why} ({entry.location})", strict=True))
            return
        if result.outcome != Outcome.PASSED:
            raise CaseFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            if (style or self.config.getoption("tbstyle", "auto")) == "line":
                return self._crash_line(excinfo.value.result)
            return failure_text(excinfo.value.result)
        if excinfo.errisinstance(pytest.xfail.Exception):
            # An expected failure is reported by its reason (the report's ``wasxfail``: -rx, JUnit's
            # <skipped>). pytest's own rendering — the plugin's traceback, each frame's whole source
            # file parsed — is shown nowhere, and cost about 80 ms of CPU per xfailed case.
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def _crash_line(self, result: CaseResult) -> Any:
        """``--tb=line``: the first finding as ``path:line: message``, pytest's one line per failure
        (a crash location with no traceback, so pytest-xdist carries it as it is)."""
        from _pytest._code.code import ReprExceptionInfo, ReprFileLocation, ReprTraceback

        from ..report import one_line

        findings = result.findings()
        where, text = findings[0] if findings else (result.location, result.reason or result.outcome)
        path, line = (where.path, where.line) if where is not None else (str(self.path), self._span().line if self._span() else 0)
        return ReprExceptionInfo(reprtraceback=ReprTraceback([], None, "line"),
                                 reprcrash=ReprFileLocation(path, line, one_line(text) or ""))

    def reportinfo(self):
        span = self._span()
        return self.path, (span.line - 1 if span else 0), self.name

    def _span(self):
        if self.case.scenario is not None:
            return self.case.scenario.section.span
        return None
