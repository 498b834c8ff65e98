"""The pages without a browser: what the report and coverage pages hold for hand-made documents, and
`oa-conformance report`'s bad inputs through the installed command (one line, exit 2, no file left).
The page in a real browser: tests/test_report_page.py."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys

import pytest

from oa_conformance.frontends.pages import render_coverage_page, render_report_page
from oa_conformance.frontends.coverage.status import legend

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


def data_of(page: str) -> dict:
    """The data the page's script draws from: the matrix (``<script id="report-data">``) and what
    the cases open to (``<script id="report-details">``), as one dictionary."""
    data = {}
    for name in ("report-data", "report-details"):
        found = re.search(f'<script type="application/json" id="{name}">(.*?)</script>', page, re.S)
        assert found, f"no {name} in the page"
        data.update(json.loads(found.group(1)))
    return data


def rows_of(page: str) -> dict[str, list[str]]:
    """Each case id -> its verdict per run, as the page's data holds them (ids and verdicts decoded
    as report.js decodes them)."""
    data = data_of(page)
    runs, verdicts = len(data["runs"]), dict(zip(data["codes"], data["verdicts"]))
    out, index = {}, 0
    for capability, _, file, count in data["fx"]:
        for _ in range(count):
            name = data["names"][index]
            case_id = data["ids"].get(str(index)) or f"{data['caps'][capability]}/{file}" + (
                f"[{data['n'][name]}]" if name != -1 else "")
            out[case_id] = [verdicts[code] for code in data["v"][index * runs:(index + 1) * runs]]
            index += 1
    return out


def details_of(page: str, case_id: str) -> list:
    data = data_of(page)
    index = list(rows_of(page)).index(case_id)
    return data["d"].get(str(index), [])


def findings_of(page: str, case_id: str) -> dict[int, list[tuple[str, str, str]]]:
    """Per run (0-based) that says something of the case: its findings as (shown, link, message),
    decoded as report.js decodes them; a run that says what an earlier one said is left out."""
    data = data_of(page)
    index = list(rows_of(page)).index(case_id)
    counts = [count for *_, count in data["fx"]]
    folder, file = next(fx[1:3] for n, fx in enumerate(data["fx"]) if sum(counts[:n + 1]) > index)
    fixture = f"{data['folders'][folder]}/{file}.yaml"
    out = {}
    for entry in details_of(page, case_id):
        if len(entry) == 2:
            continue
        run, _, findings, _ = entry
        decoded = []
        for path, line, message in findings:
            shown, href = (fixture, data["bases"][run][-2 - path] + fixture) if path <= -2 else data["paths"][path]
            decoded.append((shown + (f":{line}" if line else ""), href, data["s"][message]))
        out[run] = decoded
    return out


def test_rows_are_the_union_with_missing_ones_not_run_and_findings_written_once():
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
    assert rows_of(page) == {
        "graph-engine/001-linear[a]": ["passed", "passed"],
        "graph-engine/001-linear[b]": ["xfail", "xfail"],
        "llm-provider/010-wire": ["skipped", "not implemented"],  # the adapter's gap, apart from failed
        "llm-provider/011-new": ["not run", "passed"],  # only the second corpus has it
    }
    data = data_of(page)
    # findings at the fixture's own path, whatever the root; the expectation's file by name and line
    entry_index = details_of(page, "graph-engine/001-linear[b]")[0][1]
    assert data["entries"][entry_index]["location"] == "oa-expectations.toml:12"
    # the second run says it of its own corpus's file: its own link, the message written once
    assert findings_of(page, "graph-engine/001-linear[b]") == {
        0: [("graph-engine/conformance/001-linear.yaml:9:5", "file:///corpus/spec/graph-engine/conformance/001-linear.yaml",
             "final_state.x: expected 1, got 2")],
        1: [("graph-engine/conformance/001-linear.yaml:9:5", "file:///other-corpus/spec/graph-engine/conformance/001-linear.yaml",
             "final_state.x: expected 1, got 2")]}
    assert data["s"].count("final_state.x: expected 1, got 2") == 1
    assert [data["s"][n] for n in details_of(page, "graph-engine/001-linear[a]")[0][3]] == ["log INFO node a executing"]
    # nothing in the data can end its script element; the text is there, escaped only as JSON
    assert "the <reason>" not in page and "the \\u003creason> & why" in page
    # the header: build, how installed, corpus, date, expectations files
    for text in ("openarmature 0.16.0", "wheel /site", "/other-corpus", "2026-11-27T10:00:00+00:00", "/repo/oa-expectations.toml"):
        assert html.escape(text) in page, text


def test_findings_of_one_fixture_read_alike_whatever_the_working_folder_or_root_given():
    """Defect 10: a root given relatively made every location relative to the run's working folder."""
    location = "spec/graph-engine/conformance/001-linear.yaml:9:5"
    one = document("0.17.0", [case(GE, None, "failed", findings=[(location, "x: expected 1, got 2")])], root="/w/spec")
    two = document("0.17.0", [case(GE, None, "failed", findings=[("../w/" + location, "x: expected 1, got 2")])], root="/w/spec")
    one["run"]["cwd"], two["run"]["cwd"] = "/w", "/elsewhere"
    page = render_report_page([("one.json", one), ("two.json", two)])
    first, second = details_of(page, "graph-engine/001-linear")
    assert second == [1, 0]  # "as in run 1"
    assert findings_of(page, "graph-engine/001-linear") == {
        0: [("graph-engine/conformance/001-linear.yaml:9:5", "file:///w/spec/graph-engine/conformance/001-linear.yaml", "x: expected 1, got 2")]}


def test_the_spec_version_shown_is_the_corpus_read_and_runs_of_one_build_are_told_apart():
    """Defect 9: the column showed the adapter's target; two runs of one build read alike."""
    older = document("0.17.0", [case(GE, None, "passed")], root="/spec-0.109.0")
    newer = document("0.17.0", [case(GE, None, "passed")], root="/spec-0.118.2")
    older["run"]["corpora"] = [{"root": "/spec-0.109.0", "version": "0.109.0", "fixtures": 495, "digest": "aaaa"}]
    newer["run"]["corpora"] = [{"root": "/spec-0.118.2", "version": None, "fixtures": 502, "digest": "bbbb"}]
    newer["run"]["expectations"] = ["/repo/other.toml"]
    page = render_report_page([("a.json", older), ("b.json", newer)])
    assert "spec 0.109.0 · 495 fixtures · digest aaaa" in page and "states no spec version · 502 fixtures · digest bbbb" in page
    assert data_of(page)["runs"] == ["openarmature 0.17.0 · spec 0.109.0 · oa-expectations.toml",
                                     "openarmature 0.17.0 · spec-0.118.2 · other.toml"]
    assert 'class="vary"' in page  # the header's differing columns are marked
    labelled = render_report_page([("a.json", {**older, "run": {**older["run"], "label": "before"}}), ("b.json", newer)])
    assert data_of(labelled)["runs"][0] == "before"


def test_a_case_links_to_the_statements_it_proves_checks_and_cites():
    run = document("0.17.0", [case("graph-engine/conformance/001-x.yaml", None, "passed"), case("graph-engine/conformance/002-y.yaml", None, "passed")])
    page = render_report_page([("r.json", run)], COVERAGE, "coverage.html")
    data = data_of(page)
    assert data["coverage_page"] == "coverage.html"
    assert data["cov"] == {"0": [["graph-engine:6:aaaa"], [], []], "1": [[], [], ["graph-engine:6:bbbb"]]}  # proves, checks, cites
    assert data["statements"]["graph-engine:6:aaaa"].startswith("MUST §6 Per-invocation drain: The drain MUST")


def test_pass_percentages_per_run_and_capability():
    run = document("0.17.0", [case(GE, "a", "passed"), case(GE, "b", "failed"), case(GE, "c", "skipped"), case(LP, None, "passed")])
    page = render_report_page([("r.json", run)])
    assert re.findall(r'data-pct="([\d.]+)"', page) == ["50.0", "33.3", "100.0"]  # all, graph-engine, llm-provider


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
    assert "5 normative statements" in page and "1 proven · 0 violated · 1 checked · 1 accounted · 1 cited · 1 open" in page
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
    assert rows_of((tmp_path / "page.html").read_text()) == {"graph-engine/001-linear": ["passed", "passed"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html", "run.json"]  # no temporary file left
    to_stdout = command(str(report), "-o", "-")  # as run --json -: the page on standard output
    assert to_stdout.returncode == 0 and rows_of(to_stdout.stdout) == {"graph-engine/001-linear": ["passed"]}


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


def test_a_label_given_to_the_command_names_the_column(tmp_path):
    report = tmp_path / "run.json"
    report.write_text(json.dumps(document("0.17.0", [case(GE, None, "passed")])))
    odd = tmp_path / "a=b.json"  # a file whose own name holds "=" is taken whole
    odd.write_text(report.read_text())
    done = command(str(report) + "=before the fix", str(odd), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 0, done.stderr
    data = data_of((tmp_path / "page.html").read_text())
    assert data["runs"] == ["before the fix", "openarmature 0.17.0"]


def test_coverage_links_go_to_the_maps_page_beside_it_and_a_bad_map_is_one_line(tmp_path):
    report = tmp_path / "run.json"
    report.write_text(json.dumps(document("0.17.0", [case("graph-engine/conformance/001-x.yaml", None, "passed")])))
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "map.json").write_text(json.dumps(COVERAGE))
    (tmp_path / "out").mkdir()
    done = command(str(report), "--coverage", str(tmp_path / "maps" / "map.json"), "-o", str(tmp_path / "out" / "page.html"))
    assert done.returncode == 0, done.stderr
    data = data_of((tmp_path / "out" / "page.html").read_text())
    assert data["coverage_page"] == "../maps/map.html" and data["cov"] == {"0": [["graph-engine:6:aaaa"], [], []]}
    (tmp_path / "bad.json").write_text('{"cases": []}')
    done = command(str(report), "--coverage", str(tmp_path / "bad.json"), "-o", str(tmp_path / "page2.html"))
    assert done.returncode == 2 and done.stderr == (f"oa-conformance report: --coverage {tmp_path / 'bad.json'}: "
                                                    "no 'statements' list: not an oa-conformance coverage --json map\n")
    assert not (tmp_path / "page2.html").exists()


def test_the_run_record_names_the_label_the_working_folder_and_each_corpus_with_its_stated_version(tmp_path, monkeypatch):
    from oa_conformance.frontends.report import run_document

    checkout = tmp_path / "checkout"
    (checkout / "spec" / "graph-engine" / "conformance").mkdir(parents=True)
    (checkout / "spec" / "graph-engine" / "conformance" / "001-a.yaml").write_text("x: 1\n")
    (checkout / "CHANGELOG.md").write_text("# Changelog\n\ntext\n\n## [0.109.0] — 2026-08-07\n\n## [0.108.0]\n")
    bare = tmp_path / "bare"
    (bare / "spec" / "graph-engine" / "conformance").mkdir(parents=True)
    (bare / "spec" / "graph-engine" / "conformance" / "001-a.yaml").write_text("x: 2\n")
    titled = tmp_path / "titled"
    (titled / "spec").mkdir(parents=True)
    (titled / "README.md").write_text("# OpenArmature conformance corpus at spec v0.118.2\n")
    monkeypatch.chdir(tmp_path)
    record = run_document(0.0, ["checkout/spec", str(bare), "titled"], [], "nightly")
    assert record["label"] == "nightly" and record["cwd"] == str(tmp_path)
    corpora = record["corpora"]
    assert [(c["root"], c["version"], c["fixtures"]) for c in corpora] == [
        (str(checkout / "spec"), "0.109.0", 1), (str(bare), None, 1), (str(titled), "0.118.2", 0)]
    assert corpora[0]["digest"] != corpora[1]["digest"]  # one file, other bytes
    assert "label" not in run_document(0.0, [], [])


def test_run_label_is_kept_in_the_json_report(tmp_path):
    from oa_conformance.frontends.cli.oa_conformance import main as cli

    from .conftest import BUNDLED_SPEC

    out = tmp_path / "run.json"
    assert cli(["run", str(BUNDLED_SPEC / "graph-engine" / "conformance" / "001-linear-reducers.yaml"), "-q", "--label", "nightly",
                "--json", str(out)]) in (0, 1)
    assert json.loads(out.read_text())["run"]["label"] == "nightly"


def test_the_coverage_page_says_what_it_measured(tmp_path):
    measured = {"date": "2026-12-07T10:00:00+00:00", "roots": ["/corpus"], "prose": "/prose", "results": ["/runs/new.json"],
                "accounting": "/repo/spec-coverage.toml", "capabilities": []}
    page = render_coverage_page({"measured": measured, **COVERAGE})
    for text in ("/corpus", "/prose", "/runs/new.json", "/repo/spec-coverage.toml", "2026-12-07T10:00:00+00:00"):
        assert f"{text}" in page, text
    assert "not recorded" in render_coverage_page(COVERAGE)  # a map written before it said


def test_the_coverage_command_records_what_it_measured(tmp_path, shared_spec):
    from oa_conformance.frontends.cli.oa_conformance import main as cli

    from .conftest import BUNDLED_SPEC

    out = tmp_path / "map.json"
    assert cli(["coverage", str(BUNDLED_SPEC), "--prose", str(shared_spec), "--accounting", str(BUNDLED_SPEC.parent / "spec-coverage.toml"),
                "--capability", "graph-engine", "--json", str(out)]) == 0
    measured = json.loads(out.read_text())["measured"]
    assert measured["roots"] == [str(BUNDLED_SPEC)] and measured["prose"] == str(shared_spec)
    assert measured["accounting"] == str(BUNDLED_SPEC.parent / "spec-coverage.toml") and measured["results"] == []
    assert measured["capabilities"] == ["graph-engine"] and measured["date"].endswith("+00:00")
