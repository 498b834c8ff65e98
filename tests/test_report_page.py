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
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oa_conformance.frontends.pages.report_page import verdict
from tools import browser
from tools.build_reports import DEFAULT_BUILD, run_report

OLD, NEW = "0.16.0", DEFAULT_BUILD  # the earlier wheel; the pinned 0.17.0 wheel this interpreter has


def require_browser() -> None:
    why = browser.missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(f"the report page's browser tests need a browser: {why}")


@pytest.fixture(scope="session")
def runs(target_spec, tmp_path_factory) -> dict:
    """The two runs' reports and the page over them, made once per test session: pytest-xdist
    workers share the directory above their own, and the first to take the lock writes them."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "report-page"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        page = shared / "report.html"
        if not page.exists():
            for name, version in (("old.json", OLD), ("new.json", NEW)):
                run_report(version, target_spec, shared / name)
            done = subprocess.run([sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "report",
                                   str(shared / "old.json"), str(shared / "new.json"), "-o", str(page)],
                                  capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stderr
    reports = [json.loads((shared / name).read_text(encoding="utf-8")) for name in ("old.json", "new.json")]
    return {"page": page, "old": reports[0], "new": reports[1]}


def verdicts(report: dict) -> dict[str, str]:
    return {case["id"]: verdict(case) for case in report["cases"]}


def changed_ids(runs: dict) -> set[str]:
    old, new = verdicts(runs["old"]), verdicts(runs["new"])
    return {i for i in old.keys() | new.keys() if old.get(i) != new.get(i)}


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
def page(chromium, runs):
    """The page opened from disk, watched; a test ends with no console error and no request out."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    watch = Watch(opened)
    opened.goto(runs["page"].as_uri())
    opened.watch = watch
    yield opened
    context.close()
    assert watch.errors == [], "console errors"
    assert watch.requests == [], "requests that left the page"


def visible_case_ids(page) -> set[str]:
    return set(page.evaluate("Array.from(document.querySelectorAll('#matrix tr.case'), r => r).filter(r => r.checkVisibility()).map(r => r.id)"))


def test_the_page_shows_each_runs_counts_and_the_changed_verdicts(page, runs):
    from playwright.sync_api import expect

    changed = changed_ids(runs)
    assert changed, "two builds that judge every case alike: nothing to compare"
    expect(page.locator("#changed-count")).to_have_text(str(len(changed)))
    all_ids = set(verdicts(runs["old"])) | set(verdicts(runs["new"]))
    expect(page.locator("#matrix tr.case")).to_have_count(len(all_ids))
    expect(page.locator("#matrix tr.case.ch")).to_have_count(len(changed))
    expect(page.locator("#matrix td.ch")).to_have_count(len(changed) + page.locator("#matrix tr.fh td.ch").count())
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


def test_changed_only_leaves_exactly_the_changed_rows(page, runs):
    from playwright.sync_api import expect

    changed = changed_ids(runs)
    page.get_by_label("changed only").check()
    expect(page.locator("#matrix tr.case:visible")).to_have_count(len(changed))
    assert visible_case_ids(page) == changed
    expect(page.locator("#f-count")).to_have_text(f"{len(changed)} of {len(page.locator('#matrix tr.case').all())} cases")
    page.get_by_label("changed only").uncheck()
    assert len(visible_case_ids(page)) < len(changed_ids(runs)) + len(verdicts(runs["new"]))  # fixtures fold again


def test_the_filters_hide_what_they_should(page, runs):
    from playwright.sync_api import expect

    ids = {case["id"]: case for report in (runs["old"], runs["new"]) for case in report["cases"]}
    page.get_by_label("capability").select_option("pipeline-utilities")
    wanted = {i for i, case in ids.items() if case["capability"] == "pipeline-utilities"}
    expect(page.locator("#matrix tr.case:visible")).to_have_count(len(wanted))
    assert visible_case_ids(page) == wanted
    page.get_by_label("capability").select_option("")
    page.get_by_label("outcome in any run").select_option("xfail")
    wanted = {i for i in ids if "xfail" in (verdicts(runs["old"]).get(i), verdicts(runs["new"]).get(i))}
    expect(page.locator("#matrix tr.case:visible")).to_have_count(len(wanted))
    assert visible_case_ids(page) == wanted
    page.get_by_label("outcome in any run").select_option("")
    page.get_by_label("case id").fill("DRAIN")  # over the case ids, in any case
    wanted = {i for i in ids if "drain" in i.lower()}
    assert wanted and visible_case_ids(page) == wanted
    page.get_by_label("case id").fill("")
    # no filter: a fixture of several cases is one row until opened
    several = page.locator("#matrix tr.fh").first
    name = several.locator("th").inner_text()
    body = several.locator("xpath=..")
    expect(body.locator("tr.case:visible")).to_have_count(0)
    several.get_by_role("button").click()
    assert body.locator("tr.case:visible").count() == body.locator("tr.case").count() > 1, name


def test_expanding_a_case_shows_its_findings_at_path_line_col(page, runs):
    from playwright.sync_api import expect

    root = runs["old"]["run"]["roots"][0].rstrip("/") + "/"
    case = next(c for c in runs["old"]["cases"] if c["outcome"] == "xfail" and c["case"] is not None and c["findings"])
    location = case["findings"][0]["location"].removeprefix(root)
    row = page.locator(f'tr[id="{case["id"]}"]')
    expect(row).to_be_hidden()  # folded under its fixture
    page.get_by_label("case id").fill(case["id"])
    expect(row).to_be_visible()
    finding = row.get_by_text(location, exact=True).first
    expect(finding).to_be_hidden()
    row.locator("summary").click()
    expect(finding).to_be_visible()
    assert location.rsplit(":", 2)[-2:] != [] and location.count(":") >= 2  # path:line:col
    expect(row.locator("p.exp").first).to_contain_text(case["expectation"]["reason"][:60])


def test_without_scripts_the_page_is_a_plain_table_of_every_case(chromium, runs):
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(runs["page"].as_uri())
    everything = set(verdicts(runs["old"])) | set(verdicts(runs["new"]))
    try:
        assert page.locator("#filters").is_hidden()
        assert len(visible_case_ids(page)) == len(everything)
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


def test_a_screenshot_is_kept_as_an_artifact(page, runs, tmp_path_factory):
    folder = Path(os.environ.get("OA_ARTIFACTS") or tmp_path_factory.getbasetemp())
    folder.mkdir(parents=True, exist_ok=True)
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
