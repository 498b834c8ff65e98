"""The report page: ``oa-conformance run --json`` reports side by side, one column per run.

``render_report_page([(name, document), ...])`` takes the reports already read (``frontends/cli/report_command.py``
reads and checks them) and returns the page: a header per run, a summary bar per run and capability,
and the matrix — a ``<tbody>`` per fixture, a row per case, a cell per run coloured by verdict and
carrying the verdict's symbol (the characters ``oa-conformance run`` prints while cases run). A cell
whose verdict differs from the first column's is marked; a case a run did not have is "not run"
(reports of different corpora: the rows are the union). Each case that has something to show opens
(``<details>``) to its findings per run, with the expectations entry and the notes; a run whose
findings are the same as an earlier run's says so instead of repeating them, and locations are
written relative to the corpus root the run read, which keeps three runs of 771 cases near 1 MB.
"""

from __future__ import annotations

import collections
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

from .environment import render

# Each verdict's symbol: the progress characters of ``oa-conformance run`` (tests/test_report_page.py
# keeps the two tables in step), and the CSS class its cell gets.
SYMBOLS = {"passed": ".", "failed": "F", "not implemented": "N", "skipped": "s", "error": "E", "xfail": "x", "xpass": "X"}
NOT_RUN = "not run"
NOT_RUN_SYMBOL = "–"
CLASSES = {"passed": "p", "failed": "f", "not implemented": "n", "skipped": "s", "error": "e", "xfail": "xf", "xpass": "xp",
           NOT_RUN: "nr"}
# Which verdict a fixture's cell shows when its cases differ: the one most in need of a look first.
SEVERITY = ("error", "failed", "not implemented", "xpass", "xfail", "skipped", "passed", NOT_RUN)


def verdict(case: dict) -> str:
    """A case's outcome, with the adapter's own gaps (failed, not implemented) apart: the CLI's columns."""
    if case.get("outcome") == "failed" and case.get("category") == "not_implemented":
        return "not implemented"
    return str(case.get("outcome"))


@dataclass
class RunColumn:
    """One report: what the page's header says of it, and its counts."""

    number: int
    source: str  # the file it was read from
    build: str
    installed: str
    skips_by: str
    spec_version: str
    adapter: str
    corpus: list[str]
    started: str
    expectations: list[str]
    python: str
    counts: collections.Counter = field(default_factory=collections.Counter)
    per_capability: dict[str, collections.Counter] = field(default_factory=lambda: collections.defaultdict(collections.Counter))

    @property
    def label(self) -> str:
        return f"{self.number} · {self.build}"


@dataclass(frozen=True)
class Cell:
    verdict: str
    changed: bool  # differs from the first column's verdict

    @property
    def css(self) -> str:
        return CLASSES.get(self.verdict, "e") + (" ch" if self.changed else "")

    @property
    def symbol(self) -> str:
        return NOT_RUN_SYMBOL if self.verdict == NOT_RUN else SYMBOLS.get(self.verdict, "?")


@dataclass(frozen=True)
class Detail:
    """What one run says of one case beyond its verdict: the expectations entry, findings, notes."""

    run: int
    verdict: str
    expectation: dict | None
    findings: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    same_as: int | None = None  # an earlier run (its number) that said exactly this

    @property
    def body(self) -> tuple:
        return (self.expectation and tuple(sorted(self.expectation.items())), self.findings, self.notes)

    @property
    def empty(self) -> bool:
        return not (self.expectation or self.findings or self.notes)


@dataclass
class Case:
    id: str
    name: str | None
    cells: list[Cell]
    details: list[Detail]

    @property
    def changed(self) -> bool:
        return any(cell.changed for cell in self.cells)

    @property
    def has_details(self) -> bool:
        return any(not d.empty for d in self.details)


@dataclass
class Fixture:
    path: str  # <capability>/conformance/<file>, as the reports write it
    capability: str
    cases: list[Case] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".yaml")

    def cells(self) -> list[tuple[str, str, bool]]:
        """Per run: (css class, text, changed) — the most severe verdict's colour, and each verdict's
        symbol with its count, so a mixed fixture reads ``3 . 1 x``."""
        out = []
        for column in range(len(self.cases[0].cells)):
            counts = collections.Counter(case.cells[column].verdict for case in self.cases)
            worst = min(counts, key=SEVERITY.index)
            text = "  ".join(f"{counts[v]}\u2009{Cell(v, False).symbol}" for v in SEVERITY if counts[v])
            changed = any(case.cells[column].changed for case in self.cases)
            out.append((CLASSES[worst] + (" ch" if changed else ""), text, changed))
        return out


def _text(value: Any, default: str = "not recorded") -> str:
    return str(value) if value not in (None, "", [], {}) else default


def _run(number: int, source: str, document: dict) -> RunColumn:
    host = document.get("host") if isinstance(document.get("host"), dict) else {}
    adapter = document.get("adapter") if isinstance(document.get("adapter"), dict) else {}
    run = document.get("run") if isinstance(document.get("run"), dict) else {}
    installed = host.get("installed") if isinstance(host.get("installed"), dict) else {}
    decided = host.get("proposals_from") if isinstance(host.get("proposals_from"), dict) else {}
    build = " ".join(str(host[key]) for key in ("name", "version") if host.get(key)) or "build not recorded"
    return RunColumn(
        number=number, source=source, build=build,
        installed=" ".join(str(installed[key]) for key in ("kind", "path") if installed.get(key)) or "not recorded",
        skips_by=" ".join(str(decided[key]) for key in ("source", "path") if decided.get(key)) or "not recorded",
        spec_version=_text(adapter.get("spec_version")),
        adapter=" ".join(str(adapter[key]) for key in ("name", "version") if adapter.get(key)) or "not recorded",
        corpus=[str(root) for root in run.get("roots") or ()], started=_text(run.get("started")),
        expectations=[str(path) for path in run.get("expectations") or ()], python=_text(host.get("python")),
    )


def _short(location: str | None, roots: Sequence[str]) -> str:
    """A location relative to the corpus root the run read (``spec/<capability>/…:line:col``)."""
    if not location:
        return ""
    for root in roots:
        prefix = root.rstrip(os.sep) + os.sep
        if location.startswith(prefix):
            return location[len(prefix):]
    return location


def _expectation(entry: Any) -> dict | None:
    if not isinstance(entry, dict):
        return None
    shown = {key: entry[key] for key in ("outcome", "kind", "checks", "runtime", "reason") if entry.get(key) not in (None, "", [])}
    location = entry.get("location")
    if isinstance(location, str):  # the file is named in the run's header: its base name and line suffice here
        shown["location"] = os.path.basename(location)
    return shown


def _detail(run: RunColumn, case: dict | None) -> Detail:
    if case is None:
        return Detail(run.number, NOT_RUN, None, (), ())
    findings = tuple((_short(f.get("location"), run.corpus), str(f.get("message", "")))
                     for f in case.get("findings") or () if isinstance(f, dict))
    notes = tuple(str(note) for note in case.get("notes") or ())
    return Detail(run.number, verdict(case), _expectation(case.get("expectation")), findings, notes)


def _deduplicated(details: list[Detail]) -> list[Detail]:
    """Each run that says what an earlier run said points at that run instead of repeating it."""
    out: list[Detail] = []
    for detail in details:
        earlier = next((d for d in out if not d.empty and d.same_as is None and d.body == detail.body), None)
        out.append(Detail(detail.run, detail.verdict, None, (), (), earlier.run) if earlier and not detail.empty else detail)
    return out


def page_model(reports: Sequence[tuple[str, dict]]) -> dict:
    """Runs, fixtures (capability, then path; cases in report order), and the counts the page shows."""
    runs = [_run(number, source, document) for number, (source, document) in enumerate(reports, start=1)]
    by_run: list[dict[str, dict]] = []
    order: dict[str, tuple[str, str, str | None]] = {}  # case id -> (capability, fixture path, case name), first seen
    for run, (_, document) in zip(runs, reports):
        cases = {}
        for case in document.get("cases") or ():
            case_id = str(case.get("id"))
            cases[case_id] = case
            fixture = str(case.get("fixture"))
            capability = case.get("capability") or fixture.split("/", 1)[0]
            order.setdefault(case_id, (capability, fixture, case.get("case")))
            run.counts[verdict(case)] += 1
            run.per_capability[capability][verdict(case)] += 1
        by_run.append(cases)
    fixtures: dict[str, Fixture] = {}
    for case_id, (capability, path, name) in order.items():
        verdicts = [verdict(cases[case_id]) if case_id in cases else NOT_RUN for cases in by_run]
        cells = [Cell(v, v != verdicts[0]) for v in verdicts]
        details = _deduplicated([_detail(run, cases.get(case_id)) for run, cases in zip(runs, by_run)])
        fixtures.setdefault(path, Fixture(path, capability)).cases.append(Case(case_id, name, cells, details))
    ordered = sorted(fixtures.values(), key=lambda f: (f.capability, f.path))
    capabilities = sorted({f.capability for f in ordered})
    cases = [case for fixture in ordered for case in fixture.cases]
    return {
        "runs": runs, "fixtures": ordered, "capabilities": capabilities,
        "verdicts": list(SYMBOLS), "names": {v: v for v in SYMBOLS}, "symbols": SYMBOLS, "classes": CLASSES, "not_run": NOT_RUN,
        "not_run_symbol": NOT_RUN_SYMBOL, "case_count": len(cases), "changed_count": sum(case.changed for case in cases),
    }


def render_report_page(reports: Sequence[tuple[str, dict]]) -> str:
    """The page for these reports (``(file name, parsed JSON)`` each, in column order)."""
    return render("report.html", **page_model(reports))
