"""The report page in a real browser: headless Debian Chromium driven by Playwright, over the page
`oa-conformance report` writes for two real runs — the 0.16.0 and 0.17.0 openarmature wheels on the
target corpus with the shipped expectations. What the page shows is checked against the two JSON
reports, never against numbers written here.

Without /usr/bin/chromium these tests skip, naming why — except under CI (``CI`` set), where a
missing browser fails them: `.ci/run` installs Debian's chromium first. A screenshot of the page is
saved as a CI artifact in ``$OA_ARTIFACTS`` (default: the session's temporary directory).
The 0.16.0 environment is ``.venv-report-wheel-0.16.0`` (tools/build_reports.py), made once.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oa_conformance.frontends.pages.report_page import BAD, GOOD, verdict
from oa_conformance.model.diagnostics import Span
from tools import browser
from tools.build_reports import DEFAULT_BUILD, REPO, run_report

OLD, NEW = "0.16.0", DEFAULT_BUILD  # the earlier wheel; the pinned 0.17.0 wheel this interpreter has


def require_browser() -> None:
    why = browser.missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(f"the report page's browser tests need a browser: {why}")


def worsened(report: dict) -> dict:
    """The report with three passed cases failed and two skipped ones in error: a build that
    regressed, for the better / worse marks (the real builds' differences are all good to good)."""
    cases, failed, errored = [], 0, 0
    for case in report["cases"]:
        case = dict(case)
        if case["outcome"] == "passed" and failed < 3:
            failed += 1
            case.update(outcome="failed", findings=[{"location": case["location"] or case["fixture"], "message": "a regression (made by the test)"}])
        elif case["outcome"] == "skipped" and errored < 2:
            errored += 1
            case.update(outcome="error", category="adapter_internal_error")
        cases.append(case)
    return {**report, "run": {**report.get("run", {}), "label": "regressed"}, "cases": cases}


def oa_conformance(*args: str, cwd=None) -> None:
    done = subprocess.run([sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", *args],
                          capture_output=True, text=True, check=False, cwd=cwd)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture(scope="session")
def runs(target_spec, shared_spec, tmp_path_factory) -> dict:
    """The two runs' reports and the page over them, a third page over them and a regressed copy of
    the second (with the coverage map of the second run, linked), made once per test session:
    pytest-xdist workers share the directory above their own, and the first to take the lock writes them."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "report-page"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        page, three = shared / "report.html", shared / "three.html"
        if not three.exists():
            for name, version in (("old.json", OLD), ("new.json", NEW)):
                run_report(version, target_spec, shared / name)
            oa_conformance("report", str(shared / "old.json"), str(shared / "new.json"), "-o", str(page))
            (shared / "worse.json").write_text(json.dumps(worsened(json.loads((shared / "new.json").read_text()))))
            oa_conformance("coverage", str(target_spec), "--prose", str(shared_spec), "--results", str(shared / "new.json"),
                           "--json", str(shared / "map.json"), "--html", str(shared / "map.html"), cwd=REPO)
            oa_conformance("report", str(shared / "old.json"), str(shared / "new.json"), str(shared / "worse.json"),
                           "--coverage", str(shared / "map.json"), "-o", str(three))
    reports = [json.loads((shared / name).read_text(encoding="utf-8")) for name in ("old.json", "new.json", "worse.json")]
    return {"page": page, "three": three, "old": reports[0], "new": reports[1], "worse": reports[2],
            "map": json.loads((shared / "map.json").read_text(encoding="utf-8")), "coverage_page": shared / "map.html"}


def verdicts(report: dict) -> dict[str, str]:
    return {case["id"]: verdict(case) for case in report["cases"]}


def changed_ids(runs: dict, names=("old", "new")) -> set[str]:
    tables = [verdicts(runs[name]) for name in names]
    every = set().union(*tables)
    return {i for i in every if len({table.get(i) for table in tables}) > 1}


def worse_ids(runs: dict, baseline: str, other: str) -> set[str]:
    before, after = verdicts(runs[baseline]), verdicts(runs[other])
    return {i for i in before.keys() & after.keys() if before[i] in GOOD and after[i] in BAD}


@pytest.fixture(scope="module")
def chromium():
    """One browser for this module's tests. Module-scoped, never longer: Playwright's synchronous API
    keeps an event loop running in this thread while it lives, and a test of another module that
    runs its own loop (asyncio.run) in the same pytest-xdist worker must not meet it."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = browser.launch(playwright)
        yield launched
        launched.close()


class Watch:
    """What the page did that it must not: console errors, uncaught exceptions, requests leaving it."""

    def __init__(self, page):
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.route("**/*", self.route)

    def route(self, route):
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            self.requests.append(url)
            route.abort()


@pytest.fixture
def page(chromium, runs, request):
    """The page opened from disk (the two-run page; the three-run one for a test marked
    ``three_runs``), watched; a test ends with no console error and no request out."""
    which = getattr(request, "param", "page")
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    watch = Watch(opened)
    opened.goto(runs[which].as_uri())
    opened.watch = watch
    yield opened
    context.close()
    assert watch.errors == [], "console errors"
    assert watch.requests == [], "requests that left the page"


three_runs = pytest.mark.parametrize("page", ["three"], indirect=True)  # the three-run page


def draw_all(page) -> None:
    """Every row the filters leave: the page draws a few screens of rows at a time, more as it is
    scrolled or asked ("show N more rows")."""
    # clicked from the page's own script: scrolling a real click's target into view may draw the
    # rest first (the page draws more as the table is scrolled), and the button is then gone
    page.evaluate("() => { while (!document.getElementById('more').hidden) document.getElementById('more-button').click(); }")


def visible_case_ids(page) -> set[str]:
    draw_all(page)
    return set(page.evaluate("Array.from(document.querySelectorAll('#matrix tr.case'), r => r).filter(r => r.checkVisibility()).map(r => r.id)"))


def column_marks(page, run: int) -> dict[str, str]:
    """Case id -> the mark its cell in run ``run`` carries (wo, be, ch), for the case rows drawn."""
    return page.evaluate("""(run) => Object.fromEntries(Array.from(document.querySelectorAll('#matrix tr.case'), (row) => {
        const cell = row.cells[run], mark = ['wo', 'be', 'ch'].find((c) => cell.classList.contains(c));
        return [row.id, mark || ''];
    }).filter(([, mark]) => mark))""", run)


def test_the_page_shows_each_runs_counts_and_the_changed_verdicts(page, runs):
    from playwright.sync_api import expect

    changed = changed_ids(runs)
    assert changed, "two builds that judge every case alike: nothing to compare"
    expect(page.locator("#changed-count")).to_have_text(str(len(changed)))
    all_ids = set(verdicts(runs["old"])) | set(verdicts(runs["new"]))
    expect(page.locator("#f-count")).to_have_text(f"{len(all_ids)} of {len(all_ids)} cases")
    page.get_by_label("changed only").check()
    draw_all(page)
    expect(page.locator("#matrix tr.case")).to_have_count(len(changed))
    assert set(column_marks(page, 2)) == changed
    for number, report in enumerate((runs["old"], runs["new"]), start=1):
        counts: dict[str, dict[str, int]] = {}
        for case in report["cases"]:
            for row in ("all", case["capability"]):
                counts.setdefault(row, {}).setdefault(verdict(case), 0)
                counts[row][verdict(case)] += 1
        shown = page.evaluate("""(run) => {
            const out = {};
            for (const row of document.querySelectorAll('#summary tbody tr')) {
                const name = row.dataset.cap || 'all', cell = row.querySelector(`td[data-run="${run}"]`);
                out[name] = Object.fromEntries(Array.from(cell.querySelectorAll('[data-verdict]'),
                    (n) => [n.dataset.verdict, parseInt(n.textContent, 10)]));
            }
            return out;
        }""", number)
        assert shown == counts, f"run {number}"


def test_pass_percentages_are_shown_per_run_and_capability(page, runs):
    for number, report in enumerate((runs["old"], runs["new"]), start=1):
        wanted: dict[str, list[int]] = {}
        for case in report["cases"]:
            for row in ("all", case["capability"]):
                wanted.setdefault(row, [0, 0])
                wanted[row][0] += verdict(case) == "passed"
                wanted[row][1] += 1
        shown = page.evaluate("""(run) => Object.fromEntries(Array.from(document.querySelectorAll('#summary tbody tr'),
            (row) => [row.dataset.cap || 'all', row.querySelector(`td[data-run="${run}"] .pct`).innerText]))""", number)
        assert shown == {row: f"{100 * passed / total:.1f}\u00a0% passed" for row, (passed, total) in wanted.items()}, f"run {number}"


def test_changed_only_leaves_exactly_the_changed_rows(page, runs):
    from playwright.sync_api import expect

    changed = changed_ids(runs)
    page.get_by_label("changed only").check()
    assert visible_case_ids(page) == changed
    total = len(set(verdicts(runs["old"])) | set(verdicts(runs["new"])))
    expect(page.locator("#f-count")).to_have_text(f"{len(changed)} of {total} cases")
    page.get_by_label("changed only").uncheck()
    assert len(visible_case_ids(page)) < total  # fixtures fold again


@three_runs
def test_a_baseline_picked_marks_each_change_worse_or_better(page, runs):
    from playwright.sync_api import expect

    worse = worse_ids(runs, "new", "worse")
    assert len(worse) == 5
    page.get_by_label("baseline").select_option("2")
    expect(page.locator("#worse-count")).to_have_text(str(len(worse_ids(runs, "new", "old") | worse)))
    page.get_by_label("changed only").check()
    draw_all(page)
    marks = column_marks(page, 3)  # run 3 against run 2: the regressions, worse
    assert {i for i, mark in marks.items() if mark == "wo"} == worse and set(marks) == changed_ids(runs, ("new", "worse"))
    expect(page.locator("#matrix thead th.baseline")).to_have_text(re.compile("run 2"))
    page.get_by_label("baseline").select_option("3")  # and the other way: run 2 is better than run 3
    draw_all(page)
    marks = column_marks(page, 2)
    assert {i for i, mark in marks.items() if mark == "be"} == worse
    assert page.locator("#matrix tr.case td.be").first.get_attribute("title") == "better than run 3"


@three_runs
def test_regressions_only_and_failing_in_run_n_leave_those_cases(page, runs):
    from playwright.sync_api import expect

    page.get_by_label("baseline").select_option("2")
    page.get_by_label("regressions only").check()
    worse = worse_ids(runs, "new", "worse") | worse_ids(runs, "new", "old")
    assert visible_case_ids(page) == worse
    page.get_by_label("regressions only").uncheck()
    page.get_by_label("failing in").select_option("3")
    failing = {i for i, v in verdicts(runs["worse"]).items() if v in BAD}
    assert visible_case_ids(page) == failing


@three_runs
def test_the_view_is_in_the_url_fragment_and_a_reload_restores_it(page, runs):
    from playwright.sync_api import expect

    page.get_by_label("baseline").select_option("2")
    page.get_by_label("capability").select_option("graph-engine")
    page.get_by_label("regressions only").check()
    page.get_by_label("case id").fill("0")
    fragment = page.evaluate("location.hash")
    assert fragment == "#base=2&cap=graph-engine&reg=1&q=0"
    shown = visible_case_ids(page)
    page.reload()
    expect(page.get_by_label("baseline")).to_have_value("2")
    expect(page.get_by_label("capability")).to_have_value("graph-engine")
    expect(page.get_by_label("regressions only")).to_be_checked()
    expect(page.get_by_label("case id")).to_have_value("0")
    assert visible_case_ids(page) == shown
    page.goto(runs["three"].as_uri() + "#fail=3")  # a link to a view, followed
    expect(page.get_by_label("failing in")).to_have_value("3")
    assert visible_case_ids(page) == {i for i, v in verdicts(runs["worse"]).items() if v in BAD}


def test_the_filters_hide_what_they_should(page, runs):
    from playwright.sync_api import expect

    ids = {case["id"]: case for report in (runs["old"], runs["new"]) for case in report["cases"]}
    page.get_by_label("capability").select_option("pipeline-utilities")
    wanted = {i for i, case in ids.items() if case["capability"] == "pipeline-utilities"}
    assert visible_case_ids(page) == wanted
    page.get_by_label("capability").select_option("")
    page.get_by_label("outcome in any run").select_option("xf")
    wanted = {i for i in ids if "xfail" in (verdicts(runs["old"]).get(i), verdicts(runs["new"]).get(i))}
    assert visible_case_ids(page) == wanted
    page.get_by_label("outcome in any run").select_option("")
    page.get_by_label("case id").fill("DRAIN")  # over the case ids, in any case
    wanted = {i for i in ids if "drain" in i.lower()}
    assert wanted and visible_case_ids(page) == wanted
    page.get_by_label("case id").fill("")
    # no filter: a fixture of several cases is one row until opened
    several = page.locator("#matrix tr.fh").first
    name, count = re.fullmatch(r"\W*(\S+) (\d+) cases", several.locator("th").inner_text()).groups()
    its_cases = page.locator(f'#matrix tr.case[id^="{name}["]')
    expect(its_cases).to_have_count(0)
    several.get_by_role("button").click()
    expect(its_cases).to_have_count(int(count))
    page.locator("#matrix tr.fh").first.get_by_role("button").click()  # and folds again
    expect(its_cases).to_have_count(0)


def test_expanding_a_case_shows_its_findings_at_path_line_col_linked_to_the_fixture(page, runs):
    from playwright.sync_api import expect

    case = next(c for c in runs["old"]["cases"] if c["outcome"] == "xfail" and c["case"] is not None and c["findings"])
    span = Span.read(case["findings"][0]["location"])
    path = span.path
    shown = f"{case['fixture']}:{span.position}"  # the fixture's own path, whatever the root was
    row = page.locator(f'tr[id="{case["id"]}"]')
    expect(row).to_be_hidden()  # folded under its fixture
    page.get_by_label("case id").fill(case["id"])
    expect(row).to_be_visible()
    expect(row.get_by_text(shown, exact=True)).to_have_count(0)  # drawn when opened, not before
    row.locator("summary").click()
    finding = row.get_by_text(shown, exact=True).first
    expect(finding).to_be_visible()
    link = row.locator("a.loc").first
    assert link.get_attribute("href") == Path(REPO, path).resolve().as_uri()  # the run's working folder: the repository
    assert Path(REPO, path).resolve().is_file()
    expect(row.locator("p.exp").first).to_contain_text(case["expectation"]["reason"][:60])


@three_runs
def test_a_case_links_to_the_statements_it_names_on_the_coverage_page(page, runs):
    from playwright.sync_api import expect

    cases = set(verdicts(runs["new"]))  # (named_by may hold the adapter's own tests as well)
    statement, case_id = next((s, named) for s in runs["map"]["statements"] for named in s["named_by"] if named in cases)
    page.get_by_label("case id").fill(case_id)
    row = page.locator(f'tr[id="{case_id}"]')
    row.locator("summary").click()
    link = row.locator(f'a.st[href$="#st-{statement["id"]}"]')
    expect(link).to_have_count(1)
    assert link.get_attribute("href") == f"map.html#st-{statement['id']}"
    link.click()  # the coverage page, that statement open
    expect(page.locator(f'details.st[id="st-{statement["id"]}"]')).to_have_attribute("open", "")
    expect(page.locator("#measured")).to_contain_text(str(runs["coverage_page"].parent / "new.json"))


def test_without_scripts_the_page_still_shows_the_runs_and_the_summary(chromium, runs):
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(runs["page"].as_uri())
    try:
        assert page.locator("#filters").is_hidden() and page.locator("#matrix").is_hidden()
        assert page.get_by_text("The table of cases is drawn by the page's script").is_visible()
        assert page.locator("#summary tbody tr").count() > 1 and page.locator("#runs tbody tr").count() == 2
    finally:
        context.close()


def waited_for(page, seen, seconds: float = 30.0) -> None:
    """Let the browser's events arrive until ``seen()`` holds, or ``seconds`` pass (only so a broken
    page cannot hang the suite: the assertions after say what is missing)."""
    deadline = time.monotonic() + seconds
    while not seen() and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # the sync API delivers events while it waits


def test_the_watch_sees_a_request_leaving_the_page(chromium, runs):
    """The no-request check can fail: with the page's own policy set aside, a fetch to elsewhere
    is seen (and aborted); with it, the browser refuses the fetch and says so on the console."""
    seen = {}
    for bypass in (True, False):
        context = chromium.new_context(bypass_csp=bypass)
        page = context.new_page()
        watch = Watch(page)
        page.goto(runs["page"].as_uri())
        page.evaluate("fetch('https://example.invalid/x').catch(() => null)")
        # Until the browser has reported what it did (a fixed 300 ms pause was too short for a
        # loaded machine): the request, or the refusal, which comes before any request could.
        waited_for(page, lambda: watch.requests if bypass else watch.errors)
        context.close()
        seen[bypass] = watch
    assert seen[True].requests == ["https://example.invalid/x"]
    assert seen[False].requests == [] and any("Content Security Policy" in error for error in seen[False].errors)


@three_runs
def test_a_screenshot_is_kept_as_an_artifact(page, runs, tmp_path_factory):
    folder = Path(os.environ.get("OA_ARTIFACTS") or tmp_path_factory.getbasetemp())
    folder.mkdir(parents=True, exist_ok=True)
    page.get_by_label("baseline").select_option("2")
    page.get_by_label("changed only").check()
    shot = folder / "report-page.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    print(f"report page screenshot: {shot}")


def test_without_a_browser_the_tests_skip_naming_why_and_fail_under_ci(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no Chromium at /nonexistent/chromium"):
        require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the browser tests: no Chromium"):
        require_browser()
