"""The report page: ``oa-conformance run --json`` reports side by side, one column per run.

``render_report_page([(name, document), ...])`` takes the reports already read (``frontends/cli/report_command.py``
reads and checks them) and returns the page. The server side writes what is small — a header per run
(what sets runs of one build apart is marked), a summary bar and pass percentage per run and
capability — and one compact JSON document (``page_data``) the page's script draws the matrix from:
a row per fixture (folded) or case, a cell per run coloured by verdict and carrying its symbol (the
characters ``oa-conformance run`` prints while cases run), marked where it differs from the baseline
run (picked on the page) with the change's direction — worse or better as ``oa-conformance diff``
judges it (``GOOD`` → ``BAD`` is worse), other changes "Δ". The script draws only the rows in view
(a page at a time, more as the table is scrolled) and a case's findings only when it is opened, so a
page of 50,000 cases × 6 runs stays a few megabytes and opens and filters in well under a second.

In the data every repeated string (messages, notes, paths, expectations entries, case names) is
written once, in a table, and referred to by its index; a run whose findings for a case are an
earlier run's says so instead of repeating them. Locations are written as the fixture's own path
(``<capability>/conformance/<file>:line:col``, as the reports name fixtures), whatever root and
working folder the run had, and link to the file (``file://`` when the run recorded where it ran).
"""

from __future__ import annotations

import collections
import json
import os
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ...model.diagnostics import Span
from ...verdicts.outcomes import BAD, COLUMNS, GOOD, NOT_IMPLEMENTED_COLUMN, SYMBOLS, Outcome, column_of
from .environment import render

# A verdict is a column of the run's table (``outcomes.COLUMNS``), or a case the run lacks. Each has
# the symbol ``oa-conformance run`` prints while cases run (``outcomes.SYMBOLS``), the CSS class its
# cell gets, and one character in the page's data (``v``: a run's verdicts of a case side by side).
NOT_RUN = "not run"
NOT_RUN_SYMBOL = "–"
CLASSES = dict(zip((*COLUMNS, NOT_RUN), ("p", "f", "n", "s", "e", "xf", "xp", "nr"), strict=True))
CODES = dict(zip((*COLUMNS, NOT_RUN), "pfnsexX-", strict=True))
# Which verdict a fixture's cell shows when its cases differ: the one most in need of a look first.
SEVERITY = (Outcome.ERROR, Outcome.FAILED, NOT_IMPLEMENTED_COLUMN, Outcome.XPASS, Outcome.XFAIL, Outcome.SKIPPED, Outcome.PASSED, NOT_RUN)
# A change from a GOOD verdict to a BAD one is worse, the other way better, as `oa-conformance diff`
# judges it (``outcomes.GOOD``, ``outcomes.BAD``); any other change (passed → skipped, a case one run
# lacks) is only "changed".


def verdict(case: dict) -> str:
    """A case's outcome, with the adapter's own gaps (failed, not implemented) apart: the CLI's columns."""
    return str(column_of(case.get("outcome"), case.get("category")))


@dataclass(frozen=True)
class Corpus:
    """One spec root a run read, as its report records it."""

    root: str
    recorded: bool = False  # whether the report says what the corpus is (an older one names only its root)
    version: str | None = None  # what the corpus states; never the adapter's target
    fixtures: int | None = None
    digest: str | None = None

    @property
    def short(self) -> str:
        """The corpus in a column heading: its version, else its folder's name."""
        return f"spec {self.version}" if self.version else os.path.basename(self.root.rstrip(os.sep)) or self.root


@dataclass
class RunColumn:
    """One report: what the page's header says of it, and its counts."""

    number: int
    source: str  # the file it was read from
    build: str
    installed: str
    skips_by: str
    adapter: str
    corpora: list[Corpus]
    started: str
    expectations: list[str]
    python: str
    label: str | None = None  # run --label, or report RUN.json=LABEL
    cwd: str | None = None  # what relative locations in the report are relative to
    heading: str = ""  # the column's name: the label, else the build and what sets this run apart
    counts: collections.Counter = field(default_factory=collections.Counter)
    per_capability: dict[str, collections.Counter] = field(default_factory=lambda: collections.defaultdict(collections.Counter))

    @property
    def corpus_text(self) -> str:
        return ", ".join(corpus.short for corpus in self.corpora) or "corpus not recorded"

    @property
    def expectations_text(self) -> str:
        return " + ".join(os.path.basename(path) for path in self.expectations) or "no expectations"


def _text(value: Any, default: str = "not recorded") -> str:
    return str(value) if value not in (None, "", [], {}) else default


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _corpora(run: dict) -> list[Corpus]:
    recorded = [c for c in run.get("corpora") or () if isinstance(c, dict) and c.get("root")]
    if recorded:
        return [Corpus(str(c["root"]), True, c.get("version"), c.get("fixtures"), c.get("digest")) for c in recorded]
    return [Corpus(str(root)) for root in run.get("roots") or ()]  # an older report: the roots only


def _run(number: int, source: str, document: dict) -> RunColumn:
    host, adapter, run = _mapping(document.get("host")), _mapping(document.get("adapter")), _mapping(document.get("run"))
    installed, decided = _mapping(host.get("installed")), _mapping(host.get("proposals_from"))
    build = " ".join(str(host[key]) for key in ("name", "version") if host.get(key)) or "build not recorded"
    target = f", targets spec {adapter['spec_version']}" if adapter.get("spec_version") else ""
    return RunColumn(
        number=number, source=source, build=build,
        installed=" ".join(str(installed[key]) for key in ("kind", "path") if installed.get(key)) or "not recorded",
        skips_by=" ".join(str(decided[key]) for key in ("source", "path") if decided.get(key)) or "not recorded",
        adapter=(" ".join(str(adapter[key]) for key in ("name", "version") if adapter.get(key)) or "not recorded") + target,
        corpora=_corpora(run), started=_text(run.get("started")),
        expectations=[str(path) for path in run.get("expectations") or ()], python=_text(host.get("python")),
        label=str(run["label"]) if run.get("label") else None, cwd=str(run["cwd"]) if run.get("cwd") else None,
    )


def _name_headings(runs: list[RunColumn]) -> None:
    """Each run's column name: its label; else its build, and — among runs of that build — the
    corpus, expectations files or installation when they differ, so no two columns read alike."""
    facets: tuple[Callable[[RunColumn], str], ...] = (lambda r: r.corpus_text, lambda r: r.expectations_text, lambda r: r.installed)
    for run in runs:
        if run.label:
            run.heading = run.label
            continue
        alike = [other for other in runs if other.build == run.build]
        parts = [run.build] + [facet(run) for facet in facets if len({facet(other) for other in alike}) > 1]
        run.heading = " · ".join(parts)


# The header's rows that can tell runs apart: a value that is not the same in every run is marked.
def _facts(run: RunColumn) -> dict[str, Any]:
    return {"build": run.build, "installed": run.installed, "skips": run.skips_by, "corpus": [c for c in run.corpora],
            "expectations": run.expectations, "adapter": run.adapter}


def _split(location: str) -> tuple[str, str]:
    """A stored report's ``path:line:col`` as (path, ``line:col``); a location naming no line is all path."""
    span = Span.read(location)
    return (span.path, span.position) if span is not None else (location, "")


def _place(path: str, run: RunColumn, fixture: str | None) -> tuple[str, str]:
    """A file a finding names, as (what the page shows, its link): the fixture's own path when it is
    the case's fixture, else relative to the root holding it; a ``file://`` link when the file's
    absolute path is known (an absolute location, or a relative one and the run's working folder)."""
    absolute = path if os.path.isabs(path) else os.path.normpath(os.path.join(run.cwd, path)) if run.cwd else None
    shown = path
    if fixture and (path == fixture or path.replace(os.sep, "/").endswith("/" + fixture)):
        shown = fixture
    elif absolute:
        for corpus in run.corpora:
            prefix = corpus.root.rstrip(os.sep) + os.sep
            if absolute.startswith(prefix):
                shown = absolute[len(prefix):]
                break
    href = "file://" + urllib.parse.quote(absolute) if absolute else urllib.parse.quote(path)
    return shown, href


class Table:
    """Values written once in the page's data, referred to by index."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[Any, int] = {}

    def __call__(self, value: Any) -> int:
        key = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.items)
            self.items.append(value)
        return found


def _expectation(entry: Any, run: RunColumn) -> dict | None:
    if not isinstance(entry, dict):
        return None
    shown = {key: entry[key] for key in ("outcome", "kind", "checks", "runtime", "reason") if entry.get(key) not in (None, "", [])}
    location = entry.get("location")
    if isinstance(location, str):  # the file is named in the run's header: its base name and line suffice here
        path, line = _split(location)
        shown["location"] = os.path.basename(path) + (f":{line}" if line else "")
        shown["href"] = _place(path, run, None)[1]
    return shown


NO_PLACE = -1  # a finding's path index when it names no file; -2 - k: the case's own fixture, after the run's base k


def _detail(run: RunColumn, case: dict, strings: Table, paths: Table, entries: Table, bases: list[list[str]]) -> tuple | None:
    """What one run says of one case beyond its verdict — ``(entry, findings, notes)`` as indexes
    into the data's tables — or None when it says nothing more. A finding in the case's own fixture
    is written ``-2 - k`` when its link is the run's base k (``bases``: what comes before a fixture's
    path in its links, the roots a run read) followed by the fixture's path: most findings, written
    without their path."""
    fixture = case.get("fixture") if isinstance(case.get("fixture"), str) else None
    findings = []
    for finding in case.get("findings") or ():
        if not isinstance(finding, dict):
            continue
        location = finding.get("location")
        message = strings(str(finding.get("message", "")))
        if isinstance(location, str) and location:
            path, line = _split(location)
            shown, href = _place(path, run, fixture)
            # (a fixture path with characters a link must escape keeps its own entry in ``paths``)
            if fixture and shown == fixture and urllib.parse.quote(fixture) == fixture and href.endswith(fixture):
                known = bases[run.number - 1]
                base = href[:-len(fixture)]
                if base not in known:
                    known.append(base)
                findings.append([-2 - known.index(base), line, message])
                continue
            findings.append([paths([shown, href]), line, message])
        else:
            findings.append([NO_PLACE, "", message])
    notes = [strings(str(note)) for note in case.get("notes") or ()]
    entry = _expectation(case.get("expectation"), run)
    if not (entry or findings or notes):
        return None
    return (entries(entry) if entry else -1, findings, notes)


def _coverage(statements: dict | None) -> tuple[dict[str, tuple[list[str], list[str], list[str]]], dict[str, str]]:
    """Per case id, the statements it proves (a fault it catches breaks the statement:
    ``proven_by``), those it checks (it names them and passed: ``named_by``; an older map's
    ``verified_by``) and those it only cites; each such statement's text for its link's title."""
    per_case: dict[str, tuple[list[str], list[str], list[str]]] = collections.defaultdict(lambda: ([], [], []))
    texts = {}
    for statement in (statements or {}).get("statements") or ():
        if not isinstance(statement, dict) or not statement.get("id"):
            continue
        ident = str(statement["id"])
        proven = {str(p.get("case")) if isinstance(p, dict) else str(p) for p in statement.get("proven_by") or ()}  # {case, fault}
        checked = set(map(str, statement.get("named_by") or statement.get("verified_by") or ())) - proven
        cited = set(map(str, statement.get("cited_by") or ())) - proven - checked
        for column, cases in enumerate((proven, checked, cited)):
            for case_id in cases:
                per_case[case_id][column].append(ident)
        if proven or checked or cited:
            texts[ident] = f"{str(statement.get('level', '')).upper()} {statement.get('section', '')}: {statement.get('text', '')}"[:240]
    return per_case, texts


# What the page's script reads when it draws the rows; the rest (what a case opens to) it reads when
# a case is first opened: two JSON documents, the second parsed only then.
MATRIX = ("runs", "codes", "classes", "symbols", "verdicts", "severity", "good", "bad", "caps", "folders", "fx", "n", "names",
          "ids", "v")


def _derived_id(capability: str, fixture: str, name: str | None) -> str:
    stem = fixture.rsplit("/", 1)[-1].removesuffix(".yaml")
    return f"{capability}/{stem}" + (f"[{name}]" if name is not None else "")


def page_data(runs: list[RunColumn], by_run: list[dict[str, dict]], statements: dict | None = None,
              coverage_page: str | None = None) -> dict:
    """The matrix as the page's script reads it (every key documented in ``report.js``)."""
    order: dict[str, tuple[str, str, str | None]] = {}  # case id -> (capability, fixture path, case name), first seen
    for cases in by_run:
        for case_id, case in cases.items():
            fixture = str(case.get("fixture"))
            order.setdefault(case_id, (str(case.get("capability") or fixture.split("/", 1)[0]), fixture, case.get("case")))
    fixtures: dict[tuple[str, str], list[str]] = {}
    for case_id, (capability, fixture, _) in order.items():
        fixtures.setdefault((capability, fixture), []).append(case_id)
    capabilities = sorted({capability for capability, _ in fixtures})
    cap_index = {capability: index for index, capability in enumerate(capabilities)}
    strings, paths, entries, folders, case_names = Table(), Table(), Table(), Table(), Table()
    bases: list[list[str]] = [[] for _ in runs]  # per run: what comes before a fixture's path in its links
    per_case, statement_texts = _coverage(statements)
    fx, names, verdicts, ids, details, coverage = [], [], [], {}, {}, {}
    index = 0
    for (capability, fixture), case_ids in sorted(fixtures.items()):
        folder, _, file = fixture.rpartition("/")
        fx.append([cap_index[capability], folders(folder), file.removesuffix(".yaml"), len(case_ids)])
        for case_id in case_ids:
            name = order[case_id][2]
            names.append(case_names(str(name)) if name is not None else -1)
            if case_id != _derived_id(capability, fixture, name):
                ids[index] = case_id
            said: list[tuple[int, tuple]] = []  # (run index, what it said), each distinct thing once
            row = []
            for number, (run, cases) in enumerate(zip(runs, by_run)):
                case = cases.get(case_id)
                verdicts.append(CODES.get(verdict(case), CODES[NOT_RUN]) if case is not None else CODES[NOT_RUN])
                detail = _detail(run, case, strings, paths, entries, bases) if case is not None else None
                if detail is None:
                    continue
                # what is compared: the detail, and where its links to the fixture go
                said_here = (detail, tuple(bases[number]) if any(f[0] <= -2 for f in detail[1]) else None)
                earlier = next((n for n, body in said if body == said_here), None)
                if earlier is None:
                    said.append((number, said_here))
                    row.append([number, *detail])
                else:
                    row.append([number, earlier])
            if row:
                details[index] = row
            linked = per_case.get(case_id)
            if linked:
                coverage[index] = [sorted(ids) for ids in linked]
            index += 1
    return {
        "runs": [run.heading for run in runs],
        "codes": "".join(CODES[v] for v in (*SYMBOLS, NOT_RUN)), "classes": [CLASSES[v] for v in (*SYMBOLS, NOT_RUN)],
        "symbols": [*SYMBOLS.values(), NOT_RUN_SYMBOL], "verdicts": [*SYMBOLS, NOT_RUN],
        "severity": "".join(CODES[v] for v in SEVERITY), "good": "".join(CODES[v] for v in GOOD), "bad": "".join(CODES[v] for v in BAD),
        "caps": capabilities, "folders": folders.items, "fx": fx, "n": case_names.items, "names": names, "ids": ids, "v": "".join(verdicts),
        "s": strings.items, "paths": paths.items, "bases": bases, "entries": entries.items, "d": details,
        "cov": coverage, "statements": statement_texts, "coverage_page": coverage_page,
    }


def page_model(reports: Sequence[tuple[str, dict]], statements: dict | None = None, coverage_page: str | None = None) -> dict:
    """Runs (named, counted), the header's rows that differ between runs, and the matrix's data."""
    runs = [_run(number, source, document) for number, (source, document) in enumerate(reports, start=1)]
    _name_headings(runs)
    by_run: list[dict[str, dict]] = []
    for run, (_, document) in zip(runs, reports):
        cases = {}
        for case in document.get("cases") or ():
            cases[str(case.get("id"))] = case
            capability = str(case.get("capability") or str(case.get("fixture")).split("/", 1)[0])
            run.counts[verdict(case)] += 1
            run.per_capability[capability][verdict(case)] += 1
        by_run.append(cases)
    data = page_data(runs, by_run, statements, coverage_page)
    facts = [_facts(run) for run in runs]
    differing = {key for key in (facts[0] if facts else {}) if any(f[key] != facts[0][key] for f in facts)}
    return {
        "runs": runs, "capabilities": data["caps"], "differing": differing, "data": data,
        "verdicts": list(SYMBOLS), "names": {v: v for v in SYMBOLS}, "symbols": SYMBOLS, "classes": CLASSES, "not_run": NOT_RUN,
        "not_run_symbol": NOT_RUN_SYMBOL, "case_count": len(data["names"]), "fixture_count": len(data["fx"]),
    }


def script_json(value: Any) -> str:
    """JSON to sit inside a ``<script type="application/json">``: nothing in it can end the element."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def render_report_page(reports: Sequence[tuple[str, dict]], statements: dict | None = None, coverage_page: str | None = None) -> str:
    """The page for these reports (``(file name, parsed JSON)`` each, in column order); with a
    ``coverage --json`` map (``statements``), each case links to its statements on ``coverage_page``."""
    model = page_model(reports, statements, coverage_page)
    data = model["data"]
    return render("report.html", **model, data_json=script_json({key: data[key] for key in MATRIX}),
                  details_json=script_json({key: value for key, value in data.items() if key not in MATRIX}))
