"""``oa-conformance report RUN.json [RUN.json ...] -o report.html``: the runs as one self-contained page.

Each report is read as ``diff`` reads it (``report_diff.read_document``), its outcomes checked against
the ones ``run`` writes; the page is rendered (``pages.render_report_page``) and written whole or not
at all (``files.write_whole``: a temporary file beside the target, renamed over it). Reports of different
corpora are allowed (the page shows the union of their cases). Exit status: 0 when written, 2 when a
report cannot be read or is none, or the page cannot be written or would replace one of the reports — each with one line on stderr.

``RUN.json=LABEL`` names a run's column (a file whose own name holds ``=`` is taken whole when it
exists). ``--coverage MAP.json`` (``coverage --json``) tells the page which statements each case
proves, checks and cites, linked on the coverage page (``--coverage-page``, default: the map's name with
``.html``, written relative to the report page's folder).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

from .files import unwritable_because, why_not_written, write_whole
from ..report import read_json_document
from ...verdicts.outcomes import SYMBOLS
from .report_diff import NotAReport, read_document


def labelled(argument: str) -> tuple[str, str | None]:
    """``RUN.json=LABEL`` as (path, label); a path that exists as given is a path, ``=`` or not."""
    path, sep, label = argument.rpartition("=")
    if not sep or os.path.exists(argument) or not path:
        return argument, None
    return path, label


def read_reports(paths: list[str]) -> list[tuple[str, dict]]:
    """Each report as ``(path, document)``, a ``=LABEL`` put in its run record; ``NotAReport``
    names the file and why it is none."""
    reports = []
    for argument in paths:
        path, label = labelled(argument)
        try:
            document = read_document(path)
        except NotAReport as exc:
            raise NotAReport(f"{path}: {exc}") from None
        unknown = next((case for case in document["cases"] if case["outcome"] not in SYMBOLS), None)
        if unknown is not None:
            raise NotAReport(f"{path}: case {unknown['id']}: unknown outcome {unknown['outcome']!r}: "
                             "not an oa-conformance run --json report")
        if label:
            run = document.get("run") if isinstance(document.get("run"), dict) else {}
            document["run"] = {**run, "label": label}
        reports.append((path, document))
    return reports


def read_coverage(path: str) -> dict:
    """The statements of a ``coverage --json`` map; ``NotAReport`` says why it is none."""
    try:
        return read_json_document(path, "statements", "an oa-conformance coverage --json map")
    except NotAReport as exc:
        raise NotAReport(f"--coverage {path}: {exc}") from None


def _one_of(output: str, paths: list[str]) -> str | None:
    """Why the page may not be written there: it would replace one of the runs it is made from."""
    if output == "-" or not os.path.exists(output):
        return None
    for path in (labelled(argument)[0] for argument in paths):  # RUN.json=LABEL is RUN.json
        with contextlib.suppress(OSError):
            if os.path.samefile(output, path):
                return f"is one of the reports read ({path}): name another file for the page"
    return None


def coverage_href(map_path: str, page: str | None, output: str) -> str:
    """The coverage page's address from the report page: as given, else the map's .html beside it."""
    if page:
        return page
    target = os.path.splitext(map_path)[0] + ".html"
    if output == "-":
        return target
    return os.path.relpath(os.path.abspath(target), os.path.dirname(os.path.abspath(output)))


def report(paths: list[str], output: str, out: TextIO | None = None, err: TextIO | None = None,
           coverage: str | None = None, coverage_page: str | None = None) -> int:
    from ..pages import render_report_page  # Jinja2 only for this command

    out, err = out or sys.stdout, err or sys.stderr
    problem = unwritable_because(output) or _one_of(output, paths)  # found before any report is read
    if problem:
        print(f"oa-conformance report: -o {output}: {problem}", file=err)
        return 2
    try:
        reports = read_reports(paths)
        statements = read_coverage(coverage) if coverage else None
    except NotAReport as exc:
        print(f"oa-conformance report: {exc}", file=err)
        return 2
    page = render_report_page(reports, statements, coverage_href(coverage, coverage_page, output) if coverage else None)
    if output == "-":  # as run --json -: the page is standard output
        out.write(page)
        return 0
    try:
        write_whole(output, page)
    except OSError as exc:  # a full disk, a file system that takes no new file: the earlier page stays
        print(f"oa-conformance report: -o {output}: cannot write the page: {why_not_written(exc)}", file=err)
        return 2
    print(f"wrote {output}: {len(reports)} run{'s' if len(reports) != 1 else ''}, {len(page.encode()) / 1e3:.0f} kB", file=out)
    return 0
