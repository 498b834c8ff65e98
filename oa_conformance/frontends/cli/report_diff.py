"""``oa-conformance diff OLD.json NEW.json``: what changed between two runs' JSON reports.

The cases whose verdict changed, grouped by capability, each that now fails with its first finding;
the cases only one report has; one summary line. Exit status: 1 when a verdict got worse (passed,
xfail or skipped → failed, error, xpass or not implemented), 0 otherwise, 2 when a report cannot be
read or is not an ``oa-conformance run --json`` report. A case only NEW has is listed, never counted
worse: it has no earlier verdict to fall from. ``--same`` exits 1 on any difference at all (two builds
that must judge alike: a wheel and an editable checkout of it).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, TextIO

from ..report import NotAReport, one_line, read_json_report, refuse_duplicate_ids
from ...verdicts.outcomes import BAD, GOOD, column_of
INDENT = " " * 4


@dataclass(frozen=True)
class ReportedCase:
    """One case of a report, as the diff sees it."""

    id: str
    capability: str
    verdict: str  # an outcome, or "not implemented" (a failure the adapter owns; the table's column)
    finding: str | None  # the first finding, one line, with its location

    @classmethod
    def of(cls, case: Any) -> ReportedCase:
        if not isinstance(case, dict) or not isinstance(case.get("fixture"), str) or not isinstance(case.get("outcome"), str):
            raise NotAReport("a case without fixture and outcome")
        fixture = case["fixture"]  # <capability>/conformance/<file>, the display reports use
        capability = case.get("capability") or (fixture.split("/", 1)[0] if "/" in fixture else "-")
        stem = fixture.rsplit("/", 1)[-1].removesuffix(".yaml")
        case_id = case.get("id") or (f"{capability}/{stem}" + (f"[{case['case']}]" if case.get("case") is not None else ""))
        return cls(case_id, capability, column_of(case["outcome"], case.get("category")), _first_finding(case))


def _first_finding(case: dict) -> str | None:
    findings = case.get("findings") or []
    first = findings[0] if findings and isinstance(findings[0], dict) else None
    if first is not None:
        location, message = first.get("location"), first.get("message")
    else:
        location, message = case.get("location"), case.get("reason")
    if not message:
        return None
    return f"{location}: {one_line(message)}" if location else one_line(message)


@dataclass(frozen=True)
class Report:
    path: str
    host: str  # the build that ran, one line
    cases: dict[str, ReportedCase]


def read_report(path: str) -> Report:
    document = read_document(path)
    entries = [ReportedCase.of(case) for case in document["cases"]]
    return Report(path, _host_line(document.get("host")), {entry.id: entry for entry in entries})


def read_document(path: str) -> dict:
    """The parsed report, each case with its ``id`` and ``capability`` (derived as ``Entry.of`` does
    for an older report without them); ``NotAReport`` says in one line why it is none."""
    document = read_json_report(path)
    try:
        entries = [ReportedCase.of(case) for case in document["cases"]]
    except NotAReport as exc:
        raise NotAReport(f"{exc}: not an oa-conformance run --json report") from None
    refuse_duplicate_ids(entry.id for entry in entries)
    document["cases"] = [{**case, "id": entry.id, "capability": entry.capability} for case, entry in zip(document["cases"], entries)]
    return document


def _host_line(host: Any) -> str:
    if not isinstance(host, dict):
        return "build not recorded"
    name = " ".join(str(host[key]) for key in ("name", "version") if host.get(key))
    installed = host.get("installed") if isinstance(host.get("installed"), dict) else {}
    decided = host.get("proposals_from") if isinstance(host.get("proposals_from"), dict) else {}
    where = f", {installed['kind']} {installed.get('path')}" if installed.get("kind") else ""
    by = f"; skips by {decided['source']}" + (f" {decided['path']}" if decided.get("path") else "") if decided.get("source") else ""
    return f"{name or 'build not recorded'}{where}{by}"


def diff(old_path: str, new_path: str, out: TextIO | None = None, err: TextIO | None = None, same: bool = False) -> int:
    """Print the delta; exit 1 when a verdict got worse (``same``: when anything differs at all)."""
    out, err = out or sys.stdout, err or sys.stderr
    reports = []
    for path in (old_path, new_path):
        try:
            reports.append(read_report(path))
        except NotAReport as exc:
            print(f"oa-conformance diff: {path}: {exc}", file=err)
            return 2
    old, new = reports
    changed = [(old.cases[i], new.cases[i]) for i in new.cases if i in old.cases and old.cases[i].verdict != new.cases[i].verdict]
    worse = sum(before.verdict in GOOD and after.verdict in BAD for before, after in changed)
    better = sum(before.verdict in BAD and after.verdict in GOOD for before, after in changed)
    added = [new.cases[i] for i in new.cases if i not in old.cases]
    removed = [old.cases[i] for i in old.cases if i not in new.cases]
    lines = [f"old: {old.path}: {old.host}", f"new: {new.path}: {new.host}"]
    lines += _grouped([(b.verdict, a) for b, a in changed] + [("(new case)", a) for a in added]
                      + [(b.verdict, ReportedCase(b.id, b.capability, "(gone)", None)) for b in removed])
    summary = f"{len(changed)} verdict{'s' if len(changed) != 1 else ''} changed: {worse} worse, {better} better, {len(changed) - worse - better} other"
    summary += f"; {len(added)} case{'s' if len(added) != 1 else ''} only in new, {len(removed)} only in old"
    summary += f"; {len(set(old.cases) & set(new.cases))} cases in both"
    lines += ["", summary]
    print("\n".join(lines), file=out)
    if same:
        return 1 if changed or added or removed else 0
    return 1 if worse else 0


def _grouped(rows: list[tuple[str, ReportedCase]]) -> list[str]:
    """``capability`` headers, then ``  BEFORE -> AFTER  id`` per case, a failure's first finding under it."""
    lines: list[str] = []
    for capability in sorted({entry.capability for _, entry in rows}):
        lines += ["", capability]
        for before, entry in sorted((r for r in rows if r[1].capability == capability), key=lambda r: r[1].id):
            lines.append(f"  {before} -> {entry.verdict}  {entry.id}")
            if entry.verdict in BAD and entry.finding:
                lines.append(f"{INDENT}{entry.finding}")
    return lines
