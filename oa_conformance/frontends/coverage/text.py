"""The coverage map as text: a table per capability and section, then the MUST-level statements
that nothing verifies or accounts for (pure functions over a :class:`~.build.CoverageMap`)."""

from __future__ import annotations

from collections import Counter

from .coverage_map import CoverageMap
from .prose import Statement

COLUMNS = ("must", "should", "may", "cited", "verified", "accounted")


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
    counts["cited"] = sum(1 for s in statements if coverage.cited_by.get(s.id))
    counts["verified"] = sum(1 for s in statements if coverage.verified_by.get(s.id))
    counts["accounted"] = sum(1 for s in statements if s.id in coverage.reasons)
    return counts


def _row(name: str, counts: Counter, width: int, with_results: bool) -> str:
    cells = [str(counts[c]) if c != "verified" or with_results else "-" for c in COLUMNS]
    return f"{name:<{width}}  " + "  ".join(f"{cell:>{max(len(c), 5)}}" for cell, c in zip(cells, COLUMNS))


def open_must(coverage: CoverageMap) -> list[Statement]:
    """The MUST-level statements still open: neither verified nor accounted (without results: neither
    cited nor accounted)."""
    done = coverage.verified_by if coverage.with_results else coverage.cited_by
    return [s for s in coverage.statements if s.level == "must" and not done.get(s.id) and s.id not in coverage.reasons]


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
            lines.append(_row(name[:width], _counts(members, coverage), width, coverage.with_results))
        lines.append(_row("total", _counts(statements, coverage), width, coverage.with_results))
        lines.append("")
    lines.append("MUST-level statements per capability:")
    for capability, statements in by_capability.items():
        musts = [s for s in statements if s.level == "must"]
        counts = _counts(musts, coverage)
        verified = f"{counts['verified']} verified, " if coverage.with_results else ""
        still = len([s for s in open_must(coverage) if s.capability == capability])
        lines.append(f"  {capability}: {len(musts)} statements, {counts['cited']} cited, {verified}{counts['accounted']} accounted, "
                     f"{still} neither")
    resolved = sum(1 for _, ids in coverage.citations if ids)
    lines.append(f"\n{coverage.fixtures} fixtures ({len(coverage.uncited)} uncited), {len(coverage.citations)} citations "
                 f"({resolved} resolved, {len(coverage.citations) - resolved} resolving to nothing)")
    still = open_must(coverage)
    if still:
        kind = "verified" if coverage.with_results else "cited (no --results given)"
        lines.append(f"\nMUST-level statements neither {kind} nor accounted ({len(still)}):")
        lines.extend(f"{s.path}:{s.line}: [{s.id}] {s.text}" for s in still)
    return "\n".join(lines)
