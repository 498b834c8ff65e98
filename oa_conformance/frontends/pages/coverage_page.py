"""The coverage map page: the spec's normative statements, section by section, each coloured by its
status — the JSON ``oa-conformance coverage --json`` writes, rendered with the report page's
environment, base template and style sheet.

The statuses, their order, letters and meanings come from the document itself (its ``statuses``
list, written from ``oa_conformance/coverage/status.py``, the one place they are defined): the page
imports no other part of the package. The summary shows the runtime's capabilities, then the
adapter's own (conformance-adapter).
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass
from typing import Any

from .environment import render

LEVELS = ("must", "should", "may")
ADAPTER = "conformance-adapter"


@dataclass(frozen=True)
class StatementRow:
    id: str
    level: str
    location: str  # path:line
    text: str
    cited_by: tuple[str, ...]
    named_by: tuple[str, ...]
    proven_by: tuple[str, ...]  # "case (fault)" or "test"
    reason: str | None
    status: str
    letter: str

    @property
    def css(self) -> str:
        return f"c-{self.status}"


def _proof(entry: dict) -> str:
    if "test" in entry:
        return f"test {entry['test']}"
    return f"{entry.get('case', '')} catching fault {entry.get('fault', '')}"


def _statement(raw: dict, letters: dict[str, str]) -> StatementRow:
    location = f"{raw.get('path', '')}:{raw['line']}" if raw.get("line") is not None else str(raw.get("path", ""))
    status = str(raw.get("status", ""))
    return StatementRow(str(raw.get("id", "")), str(raw.get("level", "")), location, str(raw.get("text", "")),
                     tuple(map(str, raw.get("cited_by") or ())), tuple(map(str, raw.get("named_by") or ())),
                     tuple(_proof(p) for p in raw.get("proven_by") or ()), raw.get("reason"), status, letters.get(status, "?"))


def _section_key(section: str) -> tuple:
    """``§6.2 Title`` sorts by its numbers (6, 2), so §10 comes after §9."""
    numbers = re.match(r"§?\s*([\d.]+)", section)
    return (tuple(int(n) for n in numbers.group(1).split(".") if n) if numbers else (float("inf"),), section)


def page_model(data: dict) -> dict:
    legend = [dict(entry) for entry in data.get("statuses") or ()]
    statuses = tuple(str(entry["name"]) for entry in legend)
    letters = {str(entry["name"]): str(entry.get("letter", "?")) for entry in legend}
    classes = {name: f"c-{name}" for name in statuses}
    capabilities: dict[str, dict[str, list[StatementRow]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    counts: dict[str, dict[str, collections.Counter]] = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for raw in data.get("statements") or ():
        statement = _statement(raw, letters)
        capability = str(raw.get("capability", "-"))
        capabilities[capability][str(raw.get("section", ""))].append(statement)
        counts[capability][statement.level][statement.status] += 1
        counts[capability]["all"][statement.status] += 1
    ordered = sorted(capabilities, key=lambda c: (c == ADAPTER, c))  # the runtime's first, then the adapter's own
    sections = {capability: sorted(capabilities[capability].items(), key=lambda item: _section_key(item[0])) for capability in ordered}
    citations: list[dict[str, Any]] = list(data.get("citations") or ())
    unresolved = [c for c in citations if not c.get("resolved")]
    total = collections.Counter(s.status for by_section in capabilities.values() for items in by_section.values() for s in items)
    return {"sections": sections, "counts": counts, "total": total, "statuses": statuses, "letters": letters,
            "classes": classes, "levels": LEVELS, "names": {s: s for s in statuses}, "legend": legend,
            "adapter": ADAPTER, "citation_count": len(citations), "unresolved": unresolved}


def render_coverage_page(data: dict) -> str:
    """The page for one ``coverage --json`` document (``{"statements": [...], "citations": [...]}``)."""
    return render("coverage.html", **page_model(data))
