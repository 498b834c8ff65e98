"""Reports over case results: the per-capability summary table and the JSON report (pure functions)."""

from __future__ import annotations

import collections
import datetime
import os
import platform
from typing import Iterable

from .expectations import Expectation
from .host.manifest import DISTRIBUTION, host_document, runtime_build
from .results import FAILED, NOT_IMPLEMENTED, OUTCOMES, CaseResult
from .version import ADAPTER_NAME, ADAPTER_VERSION, TARGET_SPEC_VERSION


def host() -> dict:
    """The build that ran (name, version, where it is installed from) and what decided the skips."""
    build = runtime_build()
    return {"name": DISTRIBUTION, "version": build.version, "python": platform.python_version(), **host_document()}


def run_document(started: float, roots: Iterable[str], expectations: Iterable[str]) -> dict:
    """When the run started (UTC, ISO 8601), the spec roots it read and the expectations files it
    applied, in order (absolute paths): what a report page's header names beside the build."""
    return {"started": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).isoformat(timespec="seconds"),
            "roots": [os.path.abspath(root) for root in roots], "expectations": [os.path.abspath(path) for path in expectations]}


def json_report(results: Iterable[CaseResult], unmatched: Iterable[Expectation] = (), run: dict | None = None) -> dict:
    """The machine-readable report: adapter, host, the run (``run_document``), one entry per case,
    and the expectations-file entries that matched no case of the run."""
    return {
        "adapter": {"name": ADAPTER_NAME, "version": ADAPTER_VERSION, "spec_version": TARGET_SPEC_VERSION},
        "host": host(),
        **({"run": run} if run is not None else {}),
        "cases": [
            {
                "id": r.ref.id,
                "capability": r.ref.fixture.capability,
                "fixture": r.ref.fixture.display,
                "case": r.ref.name,
                "outcome": r.outcome,
                "category": r.category,
                "reason": r.reason,
                "location": r.location,
                "checks": r.counts(),
                "duration_s": r.duration_s,
                "notes": list(r.notes),
                "findings": [{"location": location, "message": text} for location, text in r.findings()] if r.outcome != "passed" else [],
                "expectation": r.expectation.document() if r.expectation is not None else None,
            }
            for r in results
        ],
        "unmatched_expectations": [dict(e.document()) for e in unmatched],
    }


NOT_IMPLEMENTED_COLUMN = "not implemented"
# The table's columns: the outcomes, with "failed" split so adapter gaps stand apart from the runtime's.
COLUMNS = tuple(o for outcome in OUTCOMES for o in ((outcome, NOT_IMPLEMENTED_COLUMN) if outcome == FAILED else (outcome,)))


def column(result: CaseResult) -> str:
    """The summary column a result counts in: its outcome, or "not implemented" for an adapter gap."""
    if result.outcome == FAILED and result.category == NOT_IMPLEMENTED:
        return NOT_IMPLEMENTED_COLUMN
    return result.outcome


def one_line(text: str | None) -> str | None:
    """A message on one line (a report entry is one line per case)."""
    return " ".join(text.split()) if text is not None else None


INDENT = " " * 10  # under "OUTCOME " — each entry of a case on its own line


def case_lines(result: CaseResult) -> list[str]:
    """One case that did not pass: ``OUTCOME id [category]``, then one line per distinct entry —
    the expectations-file entry for an xfail/xpass, each failed or unverified check (or problem, or
    the reason), each note — every entry with its own location once, every message on one line."""
    category = f" [{result.category}]" if result.category else ""
    lines = [f"{result.outcome.upper():7} {result.ref.id}{category}"]
    entry = result.expectation
    if entry is not None and result.outcome == "xfail":
        lines.append(f"{INDENT}{entry.location}: expected to fail [{entry.kind}]: {one_line(entry.reason)}")
    elif entry is not None and entry.checks:  # a per-check entry that did not hold: why, before what failed
        lines.append(f"{INDENT}{entry.location}: {one_line(result.reason or '')}")
    for location, text in result.findings():
        lines.append(f"{INDENT}{location + ': ' if location else ''}{one_line(text)}")
    lines.extend(f"{INDENT}note: {one_line(note)}" for note in result.notes)
    return lines


def summary_table(results: Iterable[CaseResult], unmatched: Iterable[Expectation] = (), quiet: bool = False) -> str:
    """Counts per capability, then every case that did not pass with its reason (an xfail with the
    expectations file's reason, then what actually failed), then entries that matched no case.
    ``quiet`` (``-q``) lists only the cases that fail the run: a skip or an expected failure is
    counted, not spelled out (a passing corpus run would print hundreds of lines of them)."""
    results = list(results)
    per: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        per[r.ref.fixture.capability or "-"][column(r)] += 1
    width = max([len("capability")] + [len(c) for c in per])
    widths = [max(7, len(c)) for c in COLUMNS]

    def row(name: str, counts: collections.Counter) -> str:
        return f"{name:<{width}}  " + "  ".join(f"{counts[c]:>{w}}" for c, w in zip(COLUMNS, widths))

    lines = [f"{'capability':<{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(COLUMNS, widths))]
    total: collections.Counter = collections.Counter()
    for capability in sorted(per):
        lines.append(row(capability, per[capability]))
        total.update(per[capability])
    lines.append(row("total", total))
    details = [r for r in results if r.outcome != "passed" and (r.fails_run or not quiet)]
    if details:
        lines.append("")
        for r in details:
            lines.extend(case_lines(r))
    unmatched = list(unmatched)
    if unmatched:
        lines.append("")
        lines.extend(f"{e.location}: expectation {e.case_id!r} matched no case of this run" for e in unmatched)
    return "\n".join(lines)
