"""The coverage map as text: a table per capability and section, the MUST-level statuses per
capability — the runtime's capabilities, then the adapter's own (conformance-adapter) — and the
MUST-level statements neither proven nor accounted (pure functions over a
:class:`~.build.CoverageMap`; the statuses are status.py's)."""

from __future__ import annotations

from collections import Counter

from .coverage_map import CoverageMap
from .prose import Statement
from .status import Status

ADAPTER = "conformance-adapter"  # the capability that binds the adapter itself
LEVELS = ("must", "should", "may")
COLUMNS = LEVELS + tuple(s.value for s in Status)


def _section_key(statement: Statement) -> tuple:
    if statement.number is None:
        return (1, (), statement.section.split(" › ")[0])
    return (0, tuple(int(p) for p in statement.number.split(".")), "")


def _section_name(statement: Statement) -> str:
    if statement.number is None:
        return statement.section.split(" › ")[0] or "(preamble)"
    return f"§{statement.number} {statement.heading.split(' › ')[0]}"


def _counts(statements: list[Statement], coverage: CoverageMap) -> Counter:
    counts: Counter = Counter(s.level for s in statements)
    counts.update(coverage.status(s).value for s in statements)
    return counts


def _row(name: str, counts: Counter, width: int) -> str:
    return f"{name:<{width}}  " + "  ".join(f"{counts[c]:>{max(len(c), 5)}}" for c in COLUMNS)


def not_done(coverage: CoverageMap) -> list[Statement]:
    """The MUST-level statements neither proven nor accounted (checked, cited or open)."""
    return [s for s in coverage.statements if s.level == "must" and coverage.status(s) not in (Status.PROVEN, Status.ACCOUNTED)]


def summary_line(capability: str, musts: list[Statement], coverage: CoverageMap) -> str:
    counts = Counter(coverage.status(s).value for s in musts)
    return f"  {capability}: {len(musts)} MUST: " + ", ".join(f"{counts[s.value]} {s.value}" for s in Status)


def render(coverage: CoverageMap) -> str:
    by_capability: dict[str, list[Statement]] = {}
    for statement in coverage.statements:
        by_capability.setdefault(statement.capability, []).append(statement)
    lines: list[str] = []
    for capability, statements in by_capability.items():
        sections: dict[str, list[Statement]] = {}
        for statement in sorted(statements, key=_section_key):
            sections.setdefault(_section_name(statement), []).append(statement)
        width = min(max([len(capability)] + [len(name) for name in sections]), 56)
        lines.append(f"{capability:<{width}}  " + "  ".join(f"{c:>{max(len(c), 5)}}" for c in COLUMNS))
        for name, members in sections.items():
            lines.append(_row(name[:width], _counts(members, coverage), width))
        lines.append(_row("total", _counts(statements, coverage), width))
        lines.append("")
    if not coverage.with_results:
        lines.append("(no --results given: no case passed, so nothing is proven or checked by a case)")
    runtime = [c for c in by_capability if c != ADAPTER]
    if runtime:
        lines.append("The runtime's conformance, MUST-level statements per capability:")
        for capability in runtime:
            lines.append(summary_line(capability, [s for s in by_capability[capability] if s.level == "must"], coverage))
        lines.append(summary_line("all", [s for c in runtime for s in by_capability[c] if s.level == "must"], coverage))
    if ADAPTER in by_capability:
        lines.append("The adapter's own conformance (its capability's MUST-level statements):")
        lines.append(summary_line(ADAPTER, [s for s in by_capability[ADAPTER] if s.level == "must"], coverage))
    resolved = sum(1 for _, ids in coverage.citations if ids)
    lines.append(f"\n{coverage.fixtures} fixtures ({len(coverage.uncited)} uncited), {len(coverage.citations)} citations "
                 f"({resolved} resolved, {len(coverage.citations) - resolved} resolving to nothing)")
    still = not_done(coverage)
    if still:
        lines.append(f"\nMUST-level statements neither proven nor accounted ({len(still)}):")
        lines.extend(f"{s.path}:{s.line}: [{s.id}] ({coverage.status(s).value}) {s.text}" for s in still)
    return "\n".join(lines)
