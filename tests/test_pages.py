"""The pages without a browser: what the report and coverage pages hold for hand-made documents, and
`oa-conformance report`'s bad inputs through the installed command (one line, exit 2, no file left).
The page in a real browser: tests/test_report_page.py."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from oa_conformance.frontends.cli.oa_conformance import PROGRESS
from oa_conformance.frontends.pages import render_coverage_page, render_report_page
from oa_conformance.frontends.coverage.status import legend
from oa_conformance.frontends.pages.report_page import SYMBOLS

from .test_every_input import unprivileged

GE = "graph-engine/conformance/001-linear.yaml"
LP = "llm-provider/conformance/010-wire.yaml"


def case(fixture: str, name: str | None, outcome: str, findings=(), expectation=None, notes=(), category=None) -> dict:
    stem = fixture.rsplit("/", 1)[-1].removesuffix(".yaml")
    capability = fixture.split("/", 1)[0]
    return {"id": f"{capability}/{stem}" + (f"[{name}]" if name else ""), "capability": capability, "fixture": fixture,
            "case": name, "outcome": outcome, "category": category, "notes": list(notes), "expectation": expectation,
            "findings": [{"location": loc, "message": msg} for loc, msg in findings]}


def document(version: str, cases: list[dict], root: str = "/corpus") -> dict:
    return {"adapter": {"name": "oa-conformance", "version": "0.1.0", "spec_version": "0.118.2"},
            "host": {"name": "openarmature", "version": version, "python": "3.12.1",
                     "installed": {"kind": "wheel", "path": "/site"}, "proposals_from": {"source": "probing", "path": None}},
            "run": {"started": "2026-11-27T10:00:00+00:00", "roots": [root], "expectations": ["/repo/oa-expectations.toml"]},
            "cases": cases}


class Rows(HTMLParser):
    """The matrix's case rows: id -> the classes of its cells after the first (``v p``, ``v s ch`` …)."""

    def __init__(self):
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.current: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "case" in (attrs.get("class") or "").split():
            self.current = attrs["id"]
            self.rows[self.current] = []
        elif tag == "td" and self.current is not None and (attrs.get("class") or "").startswith("v "):
            self.rows[self.current].append(attrs["class"])

    def handle_endtag(self, tag):
        if tag == "tr":
            self.current = None


def rows_of(page: str) -> dict[str, list[str]]:
    parser = Rows()
    parser.feed(page)
    return parser.rows


def test_the_page_symbols_are_the_run_commands_progress_characters():
    assert SYMBOLS == PROGRESS


def test_rows_are_the_union_cells_marked_where_they_differ_from_the_first_run_and_missing_ones_not_run():
    entry = {"outcome": "fail", "kind": "runtime", "reason": "the <reason> & why", "location": "/repo/oa-expectations.toml:12"}
    old = document("0.16.0", [
        case(GE, "a", "passed"),
        case(GE, "b", "xfail", findings=[("/corpus/spec/graph-engine/conformance/001-linear.yaml:9:5", "final_state.x: expected 1, got 2")],
             expectation=entry),
        case(LP, None, "skipped", findings=[("/corpus/spec/llm-provider/conformance/010-wire.yaml:3:1", "lacks proposal 0020")]),
    ])
    new = document("0.17.0", [
        case(GE, "a", "passed", notes=["log INFO node a executing"]),
        case(GE, "b", "xfail", findings=[("/other-corpus/spec/graph-engine/conformance/001-linear.yaml:9:5", "final_state.x: expected 1, got 2")],
             expectation=entry),
        case(LP, None, "failed", category="not_implemented", findings=[("/other-corpus/spec/llm-provider/conformance/010-wire.yaml:4:1", "stream_body")]),
        case("llm-provider/conformance/011-new.yaml", None, "passed"),
    ], root="/other-corpus")
    page = render_report_page([("old.json", old), ("new.json", new)])
    rows = rows_of(page)
    assert rows == {
        "graph-engine/001-linear[a]": ["v p", "v p"],
        "graph-engine/001-linear[b]": ["v xf", "v xf"],
        "llm-provider/010-wire": ["v s", "v n ch"],  # not implemented: the adapter's gap, apart from failed
        "llm-provider/011-new": ["v nr", "v p ch"],  # only the second corpus has it
    }
    assert re.search(r'id="changed-count">2<', page)
    # the findings relative to the corpus root, the expectation's file by name and line, escaped text
    assert "<code>spec/graph-engine/conformance/001-linear.yaml:9:5</code>" in page
    assert "<code>oa-expectations.toml:12</code>" in page and "the &lt;reason&gt; &amp; why" in page
    assert "the <reason>" not in page
    # what the second run says of [b] is what the first said: written once, pointed at
    assert page.count("final_state.x: expected 1, got 2") == 1 and "as in run 1" in page
    assert "<li>note: log INFO node a executing</li>" in page
    # the header: build, how installed, corpus, date, expectations files
    for text in ("openarmature 0.16.0", "wheel /site", "/other-corpus", "2026-11-27T10:00:00+00:00", "/repo/oa-expectations.toml"):
        assert html.escape(text) in page, text


def test_the_page_is_self_contained():
    page = render_report_page([("r.json", document("0.17.0", [case(GE, None, "passed")]))])
    assert "default-src 'none'" in page  # the page's own policy forbids every request
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page), "a reference leaves the page"
    assert "@import" not in page and "url(" not in page


def test_an_older_report_without_the_run_record_still_renders():
    report = document("0.16.0", [case(GE, None, "passed")])
    del report["run"], report["host"]["installed"]
    page = render_report_page([("old.json", report)])
    assert page.count("not recorded") >= 3 and rows_of(page) == {"graph-engine/001-linear": ["v p"]}


COVERAGE = {
    "statuses": legend(),
    "statements": [
        {"id": "graph-engine:6:aaaa", "capability": "graph-engine", "section": "§6 Per-invocation drain", "path": "spec/graph-engine/spec.md",
         "line": 120, "level": "must", "text": "The drain MUST complete before <return>.", "status": "proven", "cited_by": ["graph-engine/001-x"],
         "named_by": ["graph-engine/001-x"], "proven_by": [{"case": "graph-engine/001-x", "fault": "ge-drain-returns-early"}], "reason": None},
        {"id": "graph-engine:6:bbbb", "capability": "graph-engine", "section": "§6 Per-invocation drain", "path": "spec/graph-engine/spec.md",
         "line": 124, "level": "should", "text": "It SHOULD log.", "status": "cited", "cited_by": ["graph-engine/002-y"], "named_by": [],
         "proven_by": [], "reason": None},
        {"id": "graph-engine:10:cccc", "capability": "graph-engine", "section": "§10 Errors", "path": "spec/graph-engine/spec.md",
         "line": 300, "level": "must", "text": "Errors MUST carry a category.", "status": "accounted", "cited_by": [], "named_by": [],
         "proven_by": [], "reason": "documentation-only: the category list is documentation"},
        {"id": "graph-engine:2:dddd", "capability": "graph-engine", "section": "§2 State", "path": "spec/graph-engine/spec.md",
         "line": 40, "level": "may", "text": "State MAY be frozen.", "status": "open", "cited_by": [], "named_by": [], "proven_by": [], "reason": None},
        {"id": "conformance-adapter:9:eeee", "capability": "conformance-adapter", "section": "§9 Errors", "path": "spec/conformance-adapter/spec.md",
         "line": 9, "level": "must", "text": "The adapter MUST raise.", "status": "checked", "cited_by": [],
         "named_by": ["tests/test_x.py::test_raises"], "proven_by": [], "reason": None},
    ],
    "citations": [
        {"fixture": "graph-engine/conformance/001-x.yaml", "case": None, "path": "spec/graph-engine/conformance/001-x.md", "line": 7,
         "text": "§6: the drain completes", "resolved": ["graph-engine:6:aaaa"]},
        {"fixture": "graph-engine/conformance/003-z.yaml", "case": "one", "path": "spec/graph-engine/conformance/003-z.md", "line": 9,
         "text": "§99: a section the prose lacks", "resolved": []},
    ],
}


def test_the_coverage_page_colours_each_statement_by_its_status():
    page = render_coverage_page(COVERAGE)
    chips = dict(re.findall(r'id="st-([^"]+)"><summary class="chip c-([a-z]+)"', page))
    assert chips == {"graph-engine:6:aaaa": "proven", "graph-engine:6:bbbb": "cited", "graph-engine:10:cccc": "accounted",
                     "graph-engine:2:dddd": "open", "conformance-adapter:9:eeee": "checked"}
    # sections in their numbers' order (§10 after §6), statements in prose order
    assert page.index("§2 State") < page.index("§6 Per-invocation drain") < page.index("§10 Errors")
    assert page.index("graph-engine:6:aaaa") < page.index("graph-engine:6:bbbb")
    assert "The drain MUST complete before &lt;return&gt;." in page and "<code>spec/graph-engine/spec.md:120</code>" in page
    assert "accounted: documentation-only: the category list is documentation" in page
    assert "<code>graph-engine/001-x catching fault ge-drain-returns-early</code>" in page
    assert "named by <code>tests/test_x.py::test_raises</code>" in page
    # the runtime's capabilities first, then the adapter's own conformance
    summary = page[page.index('id="summary"'):page.index('id="map"')]
    assert summary.index("the runtime's conformance") < summary.index('data-cap="graph-engine"') \
        < summary.index("the adapter's own conformance") < summary.index('data-cap="conformance-adapter"')
    # the one citation that resolves to nothing, with where it is
    assert "spec/graph-engine/conformance/003-z.md:9" in page and "spec/graph-engine/conformance/001-x.md:7" not in page
    assert "5 normative statements" in page and "1 proven · 1 checked · 1 accounted · 1 cited · 1 open" in page
    assert "default-src 'none'" in page and '<style>' in page  # the report page's base template and style sheet


# --- the command --------------------------------------------------------------------------------

def command(*args: str, privileged: bool = True) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "report", *args]
    return subprocess.run(argv if privileged else unprivileged(*argv), capture_output=True, text=True, timeout=60)


def test_the_command_writes_the_page(tmp_path):
    report = tmp_path / "run.json"
    report.write_text(json.dumps(document("0.17.0", [case(GE, None, "passed")])))
    done = command(str(report), str(report), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 0 and done.stderr == "" and done.stdout.startswith(f"wrote {tmp_path / 'page.html'}: 2 runs")
    assert rows_of((tmp_path / "page.html").read_text()) == {"graph-engine/001-linear": ["v p", "v p"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html", "run.json"]  # no temporary file left
    to_stdout = command(str(report), "-o", "-")  # as run --json -: the page on standard output
    assert to_stdout.returncode == 0 and rows_of(to_stdout.stdout) == {"graph-engine/001-linear": ["v p"]}


@pytest.mark.parametrize("name, text, problem", [
    ("coverage.json", '{"meta": {"version": "7.4"}, "files": {}}', "no 'cases' list: not an oa-conformance run --json report"),
    ("other.json", '{"cases": [{"name": "t", "status": "ok"}]}', "a case without fixture and outcome: not an oa-conformance run --json report"),
    ("odd.json", json.dumps({"cases": [case(GE, None, "great")]}), "unknown outcome 'great': not an oa-conformance run --json report"),
    ("truncated.json", json.dumps(document("0.17.0", [case(GE, None, "passed")]))[:150], "not JSON: "),
    ("missing.json", None, "cannot read it: No such file or directory"),
])
def test_what_is_not_a_report_is_one_line_and_exit_2_and_no_page(tmp_path, name, text, problem):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(document("0.17.0", [case(GE, None, "passed")])))
    if text is not None:
        (tmp_path / name).write_text(text)
    done = command(str(good), str(tmp_path / name), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"oa-conformance report: {tmp_path / name}: ") and problem in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "page.html").exists()


def test_an_unreadable_report_and_an_unwritable_page_are_one_line_and_exit_2(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(document("0.17.0", [case(GE, None, "passed")])))
    secret = tmp_path / "secret.json"
    secret.write_text(good.read_text())
    secret.chmod(0)
    done = command(str(secret), "-o", str(tmp_path / "page.html"), privileged=False)
    assert done.returncode == 2 and done.stderr == f"oa-conformance report: {secret}: cannot read it: Permission denied\n"
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "page.html").write_text("the earlier page")
    locked.chmod(0o555)
    try:
        # not writable: found before reading — by access(2), or, where access(2) says yes (real uid 0
        # without the capability), by the probe file beside the target being refused
        for target, problem in ((locked / "page.html", "(not writable|Permission denied)"),
                                (tmp_path / "no" / "page.html", f"no such directory {re.escape(str(tmp_path / 'no'))}"),
                                (tmp_path, "is a directory")):
            done = command(str(good), "-o", str(target), privileged=False)
            assert done.returncode == 2 and re.fullmatch(f"oa-conformance report: -o {re.escape(str(target))}: {problem}\n", done.stderr), done.stderr
        assert (locked / "page.html").read_text() == "the earlier page" and sorted(locked.iterdir()) == [locked / "page.html"]
    finally:
        locked.chmod(0o755)


def test_a_write_that_fails_midway_leaves_the_earlier_page_and_no_temporary_file(tmp_path, monkeypatch, capsys):
    from oa_conformance.frontends.cli import files, report_command

    good = tmp_path / "good.json"
    good.write_text(json.dumps(document("0.17.0", [case(GE, None, "passed")])))
    (tmp_path / "page.html").write_text("the earlier page")

    def disk_full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", disk_full)
    assert report_command.report([str(good)], str(tmp_path / "page.html")) == 2
    assert capsys.readouterr().err == f"oa-conformance report: -o {tmp_path / 'page.html'}: cannot write the page: No space left on device\n"
    assert (tmp_path / "page.html").read_text() == "the earlier page" and sorted(p.name for p in tmp_path.iterdir()) == ["good.json", "page.html"]


def test_rendering_a_page_imports_no_runtime():
    """The pages render plain data: neither the command nor the renderer loads openarmature."""
    probe = ("import sys, oa_conformance.frontends.pages, oa_conformance.frontends.cli.report_command; "
             "oa_conformance.frontends.pages.render_report_page([]); print(sorted(m for m in sys.modules if m.startswith('openarmature')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
