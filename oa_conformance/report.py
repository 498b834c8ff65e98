"""Reports over case results: the per-capability summary table and the JSON report (pure functions)."""

from __future__ import annotations

import collections
import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Iterable

from .expectations import Expectation
from .runner import OUTCOMES, CaseResult
from .version import ADAPTER_NAME, ADAPTER_VERSION, TARGET_SPEC_VERSION


def host() -> dict:
    try:
        runtime_version = version("openarmature")
    except PackageNotFoundError:  # pragma: no cover - a declared dependency
        runtime_version = None
    return {"name": "openarmature", "version": runtime_version, "python": platform.python_version()}


def json_report(results: Iterable[CaseResult], unmatched: Iterable[Expectation] = ()) -> dict:
    """The machine-readable report: adapter, host, one entry per case, and the expectations-file
    entries that matched no case of the run."""
    return {
        "adapter": {"name": ADAPTER_NAME, "version": ADAPTER_VERSION, "spec_version": TARGET_SPEC_VERSION},
        "host": host(),
        "cases": [
            {
                "fixture": r.ref.fixture.display,
                "case": r.ref.name,
                "outcome": r.outcome,
                "category": r.category,
                "reason": r.reason,
                "location": r.location,
                "checks": r.counts(),
                "duration_s": r.duration_s,
                "expectation": r.expectation.document() if r.expectation is not None else None,
            }
            for r in results
        ],
        "unmatched_expectations": [dict(e.document()) for e in unmatched],
    }


def summary_table(results: Iterable[CaseResult], unmatched: Iterable[Expectation] = ()) -> str:
    """Counts per capability, then every case that did not pass with its reason (an xfail with the
    expectations file's reason, then what actually failed), then entries that matched no case."""
    results = list(results)
    per: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        per[r.ref.fixture.capability or "-"][r.outcome] += 1
    width = max([len("capability")] + [len(c) for c in per])
    lines = [f"{'capability':<{width}}  " + "  ".join(f"{o:>7}" for o in OUTCOMES)]
    total: collections.Counter = collections.Counter()
    for capability in sorted(per):
        lines.append(f"{capability:<{width}}  " + "  ".join(f"{per[capability][o]:>7}" for o in OUTCOMES))
        total.update(per[capability])
    lines.append(f"{'total':<{width}}  " + "  ".join(f"{total[o]:>7}" for o in OUTCOMES))
    details = [r for r in results if r.outcome != "passed"]
    if details:
        lines.append("")
        for r in details:
            where = f"  ({r.location})" if r.location else ""
            category = f" [{r.category}]" if r.category else ""
            if r.outcome == "xfail" and r.expectation is not None:
                lines.append(f"{'XFAIL':7} {r.ref.id} [{r.expectation.kind}]: {r.expectation.reason} ({r.expectation.location})")
                lines.append(f"{'':7}   actual{category}: {r.reason}{where}")
            else:
                lines.append(f"{r.outcome.upper():7} {r.ref.id}{category}: {r.reason}{where}")
            lines.extend(f"{'':7}   note: {note}" for note in r.notes)
    unmatched = list(unmatched)
    if unmatched:
        lines.append("")
        lines.extend(f"{e.location}: expectation {e.case_id!r} matched no case of this run" for e in unmatched)
    return "\n".join(lines)
