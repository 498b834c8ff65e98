"""Reports over case results: the per-capability summary table and the JSON report (pure functions)."""

from __future__ import annotations

import collections
import datetime
import hashlib
import itertools
import json
import os
import platform
import re
from typing import Iterable

from ..model.diagnostics import Span, clipped
from ..verdicts.expectations import Expectation, restated
from ..host.manifest import DISTRIBUTION, host_document, runtime_build
from ..verdicts.outcomes import COLUMNS, Outcome, column_of
from ..verdicts.results import CaseResult
from ..model.version import ADAPTER_NAME, ADAPTER_VERSION, TARGET_SPEC_VERSION


class NotAReport(Exception):
    """A file that is not an ``oa-conformance run --json`` report; ``str()`` says why, in one line."""


def read_json_report(path: str) -> dict:
    """The document of a ``run --json`` report: a JSON object with a ``cases`` list; raises
    :class:`NotAReport` (unreadable, not JSON — a truncated file —, or another tool's)."""
    return read_json_document(path, "cases", "an oa-conformance run --json report")


def read_json_document(path: str, key: str, what: str) -> dict:
    """A JSON object with a ``key`` list (the one mark of the document ``what`` names); raises
    :class:`NotAReport` saying why the file is none."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as exc:
        raise NotAReport(f"cannot read it: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise NotAReport(f"not JSON: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get(key), list):
        raise NotAReport(f"no {key!r} list: not {what}")
    return document


def refuse_duplicate_ids(ids: Iterable[str]) -> None:
    """Raise :class:`NotAReport` at a report's second case of one id: every reader keys cases by id,
    and keeping one of two (the last, as a dict does) would hide the other's verdict."""
    first: dict[str, int] = {}
    for index, case_id in enumerate(ids):
        earlier = first.setdefault(case_id, index)
        if earlier != index:
            raise NotAReport(f"cases[{index}]: duplicate id {case_id!r} (first at cases[{earlier}]): "
                             "one run's cases have distinct ids")


def host() -> dict:
    """The build that ran (name, version, where it is installed from) and what decided the skips."""
    build = runtime_build()
    return {"name": DISTRIBUTION, "version": build.version, "python": platform.python_version(), **host_document()}


def run_document(started: float, roots: Iterable[str], expectations: Iterable[str], label: str | None = None) -> dict:
    """When the run started (UTC, ISO 8601), the spec roots it read (each with the corpus's version
    and a digest of its fixtures: ``corpus``) and the expectations files it applied, in order
    (absolute paths), the folder relative locations in the report are relative to (``cwd``), and the
    run's ``label`` (``run --label``): what a report page's header names beside the build."""
    roots = list(roots)
    return {"started": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).isoformat(timespec="seconds"),
            **({"label": label} if label else {}), "cwd": os.getcwd(),
            "roots": [os.path.abspath(root) for root in roots], "corpora": [corpus(root) for root in roots],
            "expectations": [os.path.abspath(path) for path in expectations]}


# What states a corpus's spec version: a changelog's latest release heading ("## [0.109.0] — ...",
# a spec checkout), or a readme's title naming it ("# ... at spec v0.118.2", a corpus taken from a
# runtime's source distribution).
_CHANGELOG_RELEASE = re.compile(r"^##\s*\[?v?(\d+\.\d+\.\d+)\]?", re.MULTILINE)
_README_TITLE = re.compile(r"\A#[^\n]*\bspec v?(\d+\.\d+\.\d+)\b")


def corpus(root: str) -> dict:
    """One spec root as the report records it: its absolute path, the spec version the corpus states
    (None when it states none: never the adapter's target), how many fixtures it holds and a digest
    of them (their paths below the root and their bytes), so two runs of different corpora differ
    in their headers even when neither states a version."""
    from ..model.discovery import DiscoveryError, discover

    absolute = os.path.abspath(root)
    digest = hashlib.sha256()
    try:
        fixtures = discover([absolute])
    except DiscoveryError:
        fixtures = []
    for ref in sorted(fixtures, key=lambda ref: ref.display):
        digest.update(ref.display.encode() + b"\0")
        try:
            with open(ref.path, "rb") as handle:
                digest.update(hashlib.sha256(handle.read()).digest())
        except OSError:
            digest.update(b"unreadable")
    return {"root": absolute, "version": stated_version(absolute), "fixtures": len(fixtures), "digest": digest.hexdigest()[:12]}


def stated_version(root: str) -> str | None:
    """The spec version the corpus at ``root`` states, looked for in the root and up to two folders
    above it (a root may be a checkout, its spec/ folder or one capability's conformance/ folder)."""
    folder = root if os.path.isdir(root) else os.path.dirname(root)
    for _ in range(4):
        for name, pattern in (("CHANGELOG.md", _CHANGELOG_RELEASE), ("README.md", _README_TITLE)):
            try:
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                    found = pattern.search(handle.read(20_000))
            except OSError:
                continue
            if found:
                return found.group(1)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


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
                "location": written(r.location),
                "checks": r.counts(),
                "duration_s": r.duration_s,
                "notes": list(r.notes),
                "findings": [{"location": written(location), "message": text} for location, text in r.findings()],
                # What `expectations update` reads: each check that did not hold, and what it restates.
                "failing_checks": [{"name": c.name, "status": c.status, "restates": restated(c)} for c in r.checks if not c.status.holds],
                "expectation": r.expectation.document() if r.expectation is not None else None,
            }
            for r in results
        ],
        "unmatched_expectations": [dict(e.document()) for e in unmatched],
    }


def written(location: Span | None) -> str | None:
    """A location as the JSON report writes it: ``path:line:col`` (``Span.read`` reads it back)."""
    return str(location) if location is not None else None


def column(result: CaseResult) -> str:
    """The summary column a result counts in (``outcomes.COLUMNS``)."""
    return column_of(result.outcome, result.category)


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
    findings = result.findings()
    line = entry_line(result, findings)
    if line:
        lines.append(f"{INDENT}{one_line(line)}")
    for location, text in findings:
        lines.append(f"{INDENT}{f'{location}: ' if location else ''}{one_line(text)}")
    lines.extend(f"{INDENT}note: {one_line(note)}" for note in result.notes)
    return lines


def entry_line(result: CaseResult, findings: tuple[tuple[Span | None, str], ...]) -> str | None:
    """The expectations entry's line above a case's findings: the entry's reason for an xfail (and
    an intermittent entry's pass), why a per-check entry did not hold — unless a finding says it
    already (a per-check entry on a case that passed: its xpass)."""
    entry = result.expectation
    if entry is None:
        return None
    if result.outcome == Outcome.XFAIL or (result.outcome == Outcome.PASSED and entry.intermittent):
        return f"{entry.location}: expected to {entry.expected} [{entry.kind}]: {entry.reason}"
    if entry.checks and (entry.location, result.reason) not in findings:
        return f"{entry.location}: {result.reason or ''}"
    return None


def _intermittent(result: CaseResult) -> bool:
    return result.expectation is not None and result.expectation.intermittent


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
    # A passed case is listed for its warnings (SHOULD-level expectations not met; not under -q) and
    # when an intermittent entry covers it.
    details = [r for r in results
               if (r.outcome != Outcome.PASSED or _intermittent(r) or (not quiet and r.findings())) and (r.fails_run or not quiet)]
    if details:
        lines.append("")
        for r in details:
            lines.extend(case_lines(r))
    unmatched = list(unmatched)
    if unmatched:
        lines.append("")
        lines.extend(f"{e.location}: expectation {e.case_id!r} matched no case of this run" for e in unmatched)
    return "\n".join(lines)


SNIPPET_CONTEXT = 3


def failure_text(result: CaseResult) -> str:
    """A case that did not pass as the pytest plugin shows it: the fixture's YAML around the failing
    expectation, then what did not match."""
    lines = [f"{result.outcome}{' [' + result.category + ']' if result.category else ''}: {result.ref.id}"]
    findings = result.findings()  # each failed check (or problem, or the reason) with its own location
    line = entry_line(result, findings)  # a per-check entry that did not hold: why
    if line:
        lines.append(line)
    location = result.location
    if location:
        lines.append(f"at {location}")
        lines.extend(_snippet(location))
    if findings:
        lines.append("")
        lines.extend(f"  {f'{where}: ' if where else ''}{text}" for where, text in findings)
    if result.notes:  # what the run would have printed (runtime warnings, log records)
        lines.append("")
        lines.extend(f"  note: {note}" for note in result.notes)
    return "\n".join(lines)


def _snippet(location: Span) -> list[str]:
    """The numbered lines around ``location``, read only as far as the last one shown, and only
    from a regular file (a FIFO would block, a huge fixture would be read whole); a long line is
    clipped as the command line clips a value (``diagnostics.clipped``)."""
    line = location.line
    try:
        if not os.path.isfile(location.path):
            return []
        start, end = max(1, line - SNIPPET_CONTEXT), line + SNIPPET_CONTEXT
        with open(location.path, encoding="utf-8", errors="replace") as handle:
            shown = list(itertools.islice(enumerate(handle, 1), start - 1, end))
    except OSError:
        return []
    return [f"{'>' if number == line else ' '}{number:5d} | {clipped(text.rstrip(chr(10)).rstrip(chr(13)))}" for number, text in shown]
