"""``oa-conformance report RUN.json [RUN.json ...] -o report.html``: the runs as one self-contained page.

Each report is read as ``diff`` reads it (``report_diff.read_document``), its outcomes checked against
the ones ``run`` writes; the page is rendered (``pages.render_report_page``) into a temporary file
beside the target and renamed over it, so a failure leaves no partial page. Reports of different
corpora are allowed (the page shows the union of their cases). Exit status: 0 when written, 2 when a
report cannot be read or is none, or the page cannot be written — each with one line on stderr.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import TextIO

from ..pages.report_page import SYMBOLS
from .report_diff import NotAReport, read_document


class CannotWrite(Exception):
    pass


def read_reports(paths: list[str]) -> list[tuple[str, dict]]:
    """Each report as ``(path, document)``; ``NotAReport`` names the file and why it is none."""
    reports = []
    for path in paths:
        try:
            document = read_document(path)
        except NotAReport as exc:
            raise NotAReport(f"{path}: {exc}") from None
        unknown = next((case for case in document["cases"] if case["outcome"] not in SYMBOLS), None)
        if unknown is not None:
            raise NotAReport(f"{path}: case {unknown['id']}: unknown outcome {unknown['outcome']!r}: "
                             "not an oa-conformance run --json report")
        reports.append((path, document))
    return reports


def write_atomically(path: str, text: str) -> None:
    """``text`` at ``path``, all or nothing: a temporary file in the same directory, then a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CannotWrite("is a directory")
    if not os.path.isdir(directory):
        raise CannotWrite(f"no such directory {directory}")
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".oa-report-", suffix=".html.tmp")
    except OSError as exc:
        raise CannotWrite(f"cannot write there: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # as a plain open() would have made it, not mkstemp's 0600
        os.replace(temporary, path)
    except OSError as exc:
        os.unlink(temporary)
        raise CannotWrite(f"cannot write there: {exc.strerror or exc}") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def report(paths: list[str], output: str, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from ..pages import render_report_page  # Jinja2 only for this command

    out, err = out or sys.stdout, err or sys.stderr
    try:
        reports = read_reports(paths)
    except NotAReport as exc:
        print(f"oa-conformance report: {exc}", file=err)
        return 2
    page = render_report_page(reports)
    try:
        write_atomically(output, page)
    except CannotWrite as exc:
        print(f"oa-conformance report: -o {output}: {exc}", file=err)
        return 2
    print(f"wrote {output}: {len(reports)} run{'s' if len(reports) != 1 else ''}, {len(page.encode()) / 1e3:.0f} kB", file=out)
    return 0
