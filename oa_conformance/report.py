"""Reports over case results: the per-capability summary table and the JSON report (pure functions)."""

from __future__ import annotations

import collections
import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Iterable

from .runner import CaseResult
from .version import ADAPTER_NAME, ADAPTER_VERSION, TARGET_SPEC_VERSION

OUTCOMES = ("passed", "failed", "skipped", "error")


def host() -> dict:
    try:
        runtime_version = version("openarmature")
    except PackageNotFoundError:  # pragma: no cover - a declared dependency
        runtime_version = None
    return {"name": "openarmature", "version": runtime_version, "python": platform.python_version()}


def json_report(results: Iterable[CaseResult]) -> dict:
    """The machine-readable report: adapter, host, and one entry per case."""
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
            }
            for r in results
        ],
    }


def summary_table(results: Iterable[CaseResult]) -> str:
    """Counts per capability, then every case that did not pass with its reason."""
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
            lines.append(f"{r.outcome.upper():7} {r.ref.id}{category}: {r.reason}{where}")
    return "\n".join(lines)
