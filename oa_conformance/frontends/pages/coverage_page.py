"""The coverage map page: the spec's normative statements, section by section, each coloured by what
covers it — the JSON ``oa-conformance coverage --json`` writes, rendered with the report page's
environment, base template and style sheet.

A statement's status is the first that holds of: *verified* (a case that cites it passed:
``verified_by`` is not empty), *cited* (a case cites it: ``cited_by``), *accounted* (a reason says why
no case can verify it: ``reason``), else *uncovered*. Each status has a letter as well as a colour.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass
from typing import Any

from .environment import render

STATUSES = ("verified", "cited", "accounted", "uncovered")
LETTERS = {"verified": "V", "cited": "C", "accounted": "A", "uncovered": "U"}
CLASSES = {"verified": "cv", "cited": "cc", "accounted": "ca", "uncovered": "cu"}
LEVELS = ("must", "should", "may")


def status(statement: dict) -> str:
    if statement.get("verified_by"):
        return "verified"
    if statement.get("cited_by"):
        return "cited"
    if statement.get("reason") is not None:
        return "accounted"
    return "uncovered"


@dataclass(frozen=True)
class StatementRow:
    id: str
    level: str
    location: str  # path:line
    text: str
    cited_by: tuple[str, ...]
    verified_by: tuple[str, ...]
    reason: str | None
    status: str

    @property
    def css(self) -> str:
        return CLASSES[self.status]

    @property
    def letter(self) -> str:
        return LETTERS[self.status]


def _statement(raw: dict) -> StatementRow:
    location = f"{raw.get('path', '')}:{raw['line']}" if raw.get("line") is not None else str(raw.get("path", ""))
    return StatementRow(str(raw.get("id", "")), str(raw.get("level", "")), location, str(raw.get("text", "")),
                     tuple(map(str, raw.get("cited_by") or ())), tuple(map(str, raw.get("verified_by") or ())),
                     raw.get("reason"), status(raw))


def _section_key(section: str) -> tuple:
    """``§6.2 Title`` sorts by its numbers (6, 2), so §10 comes after §9."""
    numbers = re.match(r"§?\s*([\d.]+)", section)
    return (tuple(int(n) for n in numbers.group(1).split(".") if n) if numbers else (float("inf"),), section)


def page_model(data: dict) -> dict:
    capabilities: dict[str, dict[str, list[StatementRow]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    counts: dict[str, dict[str, collections.Counter]] = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for raw in data.get("statements") or ():
        statement = _statement(raw)
        capability = str(raw.get("capability", "-"))
        capabilities[capability][str(raw.get("section", ""))].append(statement)
        counts[capability][statement.level][statement.status] += 1
        counts[capability]["all"][statement.status] += 1
    sections = {capability: sorted(by_section.items(), key=lambda item: _section_key(item[0]))
                for capability, by_section in sorted(capabilities.items())}
    citations: list[dict[str, Any]] = list(data.get("citations") or ())
    unresolved = [c for c in citations if not c.get("resolved")]
    total = collections.Counter(s.status for by_section in capabilities.values() for items in by_section.values() for s in items)
    return {"sections": sections, "counts": counts, "total": total, "statuses": STATUSES, "letters": LETTERS,
            "classes": CLASSES, "levels": LEVELS, "names": {s: s for s in STATUSES}, "citation_count": len(citations),
            "unresolved": unresolved}


def render_coverage_page(data: dict) -> str:
    """The page for one ``coverage --json`` document (``{"statements": [...], "citations": [...]}``)."""
    return render("coverage.html", **page_model(data))
