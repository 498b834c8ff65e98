"""The pytest front end: one test item per fixture case.

Registered by entry point (``pytest11``), so installing the package is enough:

    pytest spec/                                        the bundled fixtures (also in the default testpaths)
    pytest --oa-spec-root ../shared/openarmature-spec   a spec repository, or its spec/ folder (repeatable)
    pytest --oa-spec-root DIR -m graph_engine -k drain  markers per capability, -k over case ids

A YAML file under ``<capability>/conformance/`` is collected as a fixture; each case becomes an
item named ``capability/NNN-name[case]``. A fixture that fails to load is one failing item, not a
collection error. Failures show the fixture's YAML around the failing expectation and the
mismatch — never the adapter's traceback. Cases run ahead in a thread pool once collection is
final (each with its own event loop and harness), so fixtures' deliberate sleeps overlap while
pytest still reports item by item.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .discovery import FixtureRef, spec_dir
from .runner import DEFAULT_TIMEOUT, CaseRef, CaseResult, cases_of, run_case

_SCHEDULER = pytest.StashKey["_Scheduler"]()
SNIPPET_CONTEXT = 3


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("oa-conformance", "OpenArmature conformance fixtures")
    group.addoption("--oa-spec-root", action="append", default=[], metavar="DIR",
                    help="collect fixtures from this spec repository or spec/ folder (repeatable)")
    group.addoption("--oa-timeout", type=float, default=DEFAULT_TIMEOUT, help="per-case time limit in seconds")
    group.addoption("--oa-workers", type=int, default=16, help="cases run ahead side by side (0: run each in its test)")


def pytest_configure(config: pytest.Config) -> None:
    from .vocabulary.registry import Vocabulary  # noqa: F401 - import errors surface here, once

    # Expected output of cases that exercise graph-engine §6 observer-error isolation on purpose.
    config.addinivalue_line("filterwarnings", "ignore:observer raised:UserWarning")
    for capability in ("graph-engine", "pipeline-utilities", "observability", "llm-provider", "retrieval-provider",
                       "prompt-management", "sessions", "suspension", "harness", "harness-chat"):
        config.addinivalue_line("markers", f"{marker_name(capability)}: conformance fixtures of {capability}")
    roots = config.getoption("oa_spec_root")
    if roots:
        paths = []
        for root in roots:
            spec = spec_dir(root)
            if spec is None:
                raise pytest.UsageError(f"--oa-spec-root {root}: not a spec repository or a spec/ folder")
            paths.append(os.path.abspath(spec))
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            config.args[:] = paths  # the roots replace the default test paths
        else:
            config.args.extend(paths)
    config.stash[_SCHEDULER] = _Scheduler(config.getoption("oa_workers"), config.getoption("oa_timeout"))


def pytest_unconfigure(config: pytest.Config) -> None:
    scheduler = config.stash.get(_SCHEDULER, None)
    if scheduler is not None:
        scheduler.close()


def marker_name(capability: str | None) -> str:
    return (capability or "unknown").replace("-", "_")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "conformance":
        return FixtureFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Once the item list is final (after -k / -m), start running the cases ahead."""
    config.stash[_SCHEDULER].start([item for item in items if isinstance(item, CaseItem)])


class _Scheduler:
    def __init__(self, workers: int, timeout: float):
        self.workers = workers
        self.timeout = timeout
        self.pool: ThreadPoolExecutor | None = None
        self.futures: dict[str, Future] = {}

    def start(self, items: list["CaseItem"]) -> None:
        if self.workers <= 0 or not items:
            return
        self.pool = ThreadPoolExecutor(max_workers=self.workers)
        for item in items:
            self.futures[item.nodeid] = self.pool.submit(run_case, item.case, self.timeout)

    def result(self, item: "CaseItem") -> CaseResult:
        future = self.futures.get(item.nodeid)
        return future.result() if future is not None else run_case(item.case, self.timeout)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


class FixtureFile(pytest.File):
    def collect(self):
        parent = self.path.parent
        fixture = FixtureRef(str(self.path), parent.parent.name, self.path.name)
        for case in cases_of(fixture):
            item = CaseItem.from_parent(self, name=case.id, case=case)
            item.add_marker(marker_name(fixture.capability))
            yield item


class CaseFailed(Exception):
    def __init__(self, result: CaseResult):
        super().__init__(result.reason)
        self.result = result


class CaseItem(pytest.Item):
    def __init__(self, *, case: CaseRef, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        result = self.config.stash[_SCHEDULER].result(self)
        self.user_properties.append(("oa_outcome", result.outcome))
        if result.outcome == "skipped":
            pytest.skip(result.reason or "skipped")
        if result.outcome != "passed":
            raise CaseFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return render_failure(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        span = self._span()
        return self.path, (span.line - 1 if span else 0), self.name

    def _span(self):
        if self.case.scenario is not None:
            return self.case.scenario.section.span
        return None


def render_failure(result: CaseResult) -> str:
    """The fixture's YAML around the failing expectation, then what did not match."""
    lines = [f"{result.outcome}{' [' + result.category + ']' if result.category else ''}: {result.ref.id}"]
    location = result.location
    if location:
        lines.append(f"at {location}")
        lines.extend(_snippet(location))
    failing = [c for c in result.checks if c.status != "verified"]
    if failing:
        lines.append("")
        for check in failing:
            lines.append(f"  {check.status.upper()} {check.name}: {check.detail}")
    elif result.reason:
        lines.append("")
        lines.append(f"  {result.reason}")
    return "\n".join(lines)


def _snippet(location: str) -> list[str]:
    path, _, rest = location.rpartition(":")
    path, _, line_text = path.rpartition(":")
    try:
        line = int(line_text)
        with open(path, encoding="utf-8") as handle:
            source = handle.read().splitlines()
    except (ValueError, OSError):
        return []
    start, end = max(0, line - 1 - SNIPPET_CONTEXT), min(len(source), line + SNIPPET_CONTEXT)
    return [f"{'>' if n + 1 == line else ' '}{n + 1:5d} | {source[n]}" for n in range(start, end)]
