"""The pytest front end behaves like pytest: selection before execution, node ids that round-trip
through --lf / --ff / xdist on pytest 8 and 9, collection only under spec roots, symlinks followed
once, rootdir left alone, and the expectations file as strict xfail."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import oa_conformance.frontends.pytest.hooks as plugin

pytest_plugins = ["pytester"]

# Five cases of one fixture; the ones named in FAILING expect the wrong route and fail.
CASE = """  - name: {name}
    state:
      fields:
        flag: {{type: string, default: ""}}
    entry: decide
    nodes:
      decide: {{update: {{flag: go}}}}
    edges:
      - {{from: decide, to: END}}
    initial_state: {{}}
    expected:
      final_state: {{flag: {flag}}}
"""
NAMES = ("c1", "c2", "c3", "c4", "c5")
FAILING = ("c2", "c4", "c5")


def five_cases(root: Path) -> Path:
    directory = root / "spec" / "graph-engine" / "conformance"
    directory.mkdir(parents=True, exist_ok=True)
    text = "cases:\n" + "".join(CASE.format(name=n, flag="stop" if n in FAILING else "go") for n in NAMES)
    (directory / "001-five.yaml").write_text(text, encoding="utf-8")
    return root / "spec"


@pytest.fixture
def ran(monkeypatch):
    """The ids of the cases the plugin actually executed (in this process)."""
    seen: list[str] = []
    real = plugin.run_case

    def recording(case, timeout):
        seen.append(case.id)
        return real(case, timeout)

    monkeypatch.setattr(plugin, "run_case", recording)
    return seen


def test_deselected_cases_never_run(pytester, ran):
    spec = five_cases(pytester.path)
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-k", "c3")
    result.assert_outcomes(passed=1, deselected=4)
    assert ran == ["graph-engine/001-five[c3]"]


def test_collect_only_runs_nothing(pytester, ran):
    spec = five_cases(pytester.path)
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "--collect-only", "-q")
    assert "001-five.yaml::001-five[c1]" in result.stdout.str()
    assert ran == []


def test_maxfail_stops_starting_cases(pytester, ran):
    spec = five_cases(pytester.path)
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-x", "--oa-workers=0")
    result.assert_outcomes(passed=1, failed=1)
    assert ran == ["graph-engine/001-five[c1]", "graph-engine/001-five[c2]"]


def _last_failed_round_trip(run) -> None:
    first = run("-q")
    assert "3 failed, 2 passed" in first
    again = run("-q", "--lf")
    assert "3 failed, 2 deselected" in again or "3 failed" in again and "passed" not in again, again
    for name in FAILING:
        assert f"001-five[{name}]" in again
    first_failed = run("-v", "--ff")
    order = [line.split("::")[1].split()[0] for line in first_failed.splitlines() if "001-five.yaml::" in line]
    assert order[:3] == [f"001-five[{n}]" for n in FAILING], order


def test_last_failed_reruns_exactly_the_failures(pytester):
    spec = five_cases(pytester.path)
    _last_failed_round_trip(lambda *args: pytester.runpytest_subprocess(f"--oa-spec-root={spec}", *args).stdout.str())


def _pytest8_path() -> Path | None:
    # ./dev setup installs pytest 8 beside each virtual environment (pip --target), for this test.
    path = Path(sys.prefix) / "pytest8"
    return path if (path / "pytest").is_dir() else None


def test_last_failed_round_trips_on_pytest_8(tmp_path):
    path = _pytest8_path()
    if path is None:
        if os.environ.get("OA_REQUIRE_SHARED_SPEC"):
            pytest.fail("pytest 8 is not installed beside the venv (./dev setup installs it)")
        pytest.skip("pytest 8 is not installed beside the venv (./dev setup installs it)")
    spec = five_cases(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(path))

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=300)
        return done.stdout + done.stderr

    assert "pytest 8." in run("--version")
    _last_failed_round_trip(run)


def test_xdist_round_trips_node_ids(pytester):
    pytest.importorskip("xdist")
    spec = five_cases(pytester.path)
    result = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=3)


def test_a_foreign_project_collects_nothing_from_its_conformance_folder(pytester):
    pytester.makefile(".yaml", **{"deploy/conformance/configmap": "apiVersion: v1\nkind: ConfigMap\n"})
    pytester.makepyfile(test_ok="def test_ok():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-W", "error::pytest.PytestUnknownMarkWarning")
    result.assert_outcomes(passed=1)
    assert "configmap" not in result.stdout.str()


def test_configured_roots_and_explicit_paths_collect(pytester):
    spec = five_cases(pytester.path)
    pytester.makeini("[pytest]\noa_spec_roots = spec\n")
    assert pytester.runpytest("-p", "no:cacheprovider").ret == 1  # 3 of 5 fail
    explicit = pytester.runpytest("-p", "no:cacheprovider", str(spec / "graph-engine" / "conformance" / "001-five.yaml"))
    explicit.assert_outcomes(passed=2, failed=3)


def test_symlinked_directories_are_followed_once_and_loops_reported(pytester):
    spec = five_cases(pytester.path)
    os.symlink(spec / "graph-engine", spec / "graph-engine" / "conformance" / "loop")
    os.symlink(spec / "graph-engine", spec / "again")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "--continue-on-collection-errors", "-q")
    result.assert_outcomes(passed=2, failed=3, errors=1)
    assert "symbolic link loop" in result.stdout.str()


def test_a_fixture_linked_in_from_elsewhere_takes_the_folder_it_is_linked_in(pytester, tmp_path_factory):
    """A link in ``graph-engine/conformance/`` to a file kept outside any capability folder is a
    graph-engine fixture (``discovery.capability_of``, as ``run`` reads it), not one of the folder
    two above the real file."""
    spec = five_cases(pytester.path)
    kept = tmp_path_factory.mktemp("kept") / "files" / "001-five.yaml"
    kept.parent.mkdir()
    (spec / "graph-engine" / "conformance" / "001-five.yaml").rename(kept)
    os.symlink(kept, spec / "graph-engine" / "conformance" / "001-five.yaml")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-m", "graph_engine", "-k", "c1", "-rA")
    result.assert_outcomes(passed=1)


def test_rootdir_stays_the_project(pytester, tmp_path_factory):
    spec = five_cases(tmp_path_factory.mktemp("elsewhere"))
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-k", "c1")
    assert f"rootdir: {pytester.path}" in result.stdout.str()
    spaced = pytester.runpytest("--oa-spec-root", str(spec), "-p", "no:cacheprovider")
    assert spaced.ret == pytest.ExitCode.USAGE_ERROR
    assert f"write --oa-spec-root={spec}" in spaced.stderr.str()


def test_expectations_become_strict_xfail(pytester, ran):
    spec = five_cases(pytester.path)
    expectations = pytester.path / "oa-expectations.toml"
    expectations.write_text(
        '["graph-engine/001-five[c2]"]\noutcome = "fail"\nkind = "fixture"\nreason = "wrong route"\n\n'
        '["graph-engine/001-five[c1]"]\noutcome = "fail"\nkind = "runtime"\nreason = "stale"\n\n'
        '["graph-engine/001-five[c4]"]\noutcome = "skip"\nkind = "runtime"\nreason = "hangs"\n', encoding="utf-8")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", f"--oa-expectations={expectations}", "-rxXs")
    result.assert_outcomes(passed=1, failed=2, xfailed=1, skipped=1)
    out = result.stdout.str()
    assert "XPASS(strict)" in out and "wrong route" in out and "hangs" in out
    assert "graph-engine/001-five[c4]" not in ran


def test_a_per_check_entry_is_judged_on_the_result(pytester):
    """xfail when exactly the listed checks fail, a real failure when another check fails (an xfail
    marker would have swallowed it), as `oa-conformance run` judges it."""
    spec = five_cases(pytester.path)
    expectations = pytester.path / "oa-expectations.toml"
    expectations.write_text(
        '["graph-engine/001-five[c2]"]\noutcome = "fail"\nkind = "fixture"\nchecks = ["expected.final_state"]\nreason = "r"\n\n'
        '["graph-engine/001-five[c4]"]\noutcome = "fail"\nkind = "fixture"\nchecks = ["expected.execution_order"]\nreason = "r"\n',
        encoding="utf-8")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", f"--oa-expectations={expectations}",
                                "-k", "c2 or c4", "-rxf")
    result.assert_outcomes(xfailed=1, failed=1)
    assert "the expectations entry lists expected.execution_order; expected.final_state failed too" in result.stdout.str()


@pytest.mark.parametrize("option", ["--oa-timeout=nan", "--oa-timeout=-5", "--oa-workers=-3"])
def test_bad_option_values_are_usage_errors(pytester, option):
    spec = five_cases(pytester.path)
    result = pytester.runpytest(f"--oa-spec-root={spec}", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_unmatched_entries_are_reported_as_run_judges_them(pytester, monkeypatch):
    """An entry is judged against every collected case, selected or not, as ``oa-conformance run``
    judges it: a `-k` selection never reports an entry for a deselected case; an entry naming no
    case of a collected fixture, or no fixture of a capability folder collected in full, is a
    warning at its line in the terminal summary (also under xdist, whose controller collects
    nothing); a single-file run says nothing about the fixtures beside it."""
    spec = five_cases(pytester.path)
    other = spec / "graph-engine" / "conformance" / "002-other.yaml"
    other.write_text((spec / "graph-engine" / "conformance" / "001-five.yaml").read_text(), encoding="utf-8")
    expectations = pytester.path / "oa-expectations.toml"
    expectations.write_text(
        '["graph-engine/001-five[c2]"]\noutcome = "fail"\nkind = "fixture"\nreason = "wrong route"\n\n'
        '["graph-engine/001-five[c9]"]\noutcome = "fail"\nkind = "fixture"\nreason = "no such case"\n\n'
        '["graph-engine/002-other[c4]"]\noutcome = "fail"\nkind = "fixture"\nreason = "wrong route"\n\n'
        '["graph-engine/003-gone"]\noutcome = "fail"\nkind = "fixture"\nreason = "no such fixture"\n', encoding="utf-8")
    common = ["-p", "no:cacheprovider", f"--oa-expectations={expectations}"]

    def reported(*args: str, run=pytester.runpytest) -> list[str]:
        out = run(*args, *common).stdout.str()
        return re.findall(r"oa-expectations.toml:(\d+): PytestWarning: expectation '(.+?)' matched no case of this run", out)

    stale, gone = ("6", "graph-engine/001-five[c9]"), ("16", "graph-engine/003-gone")
    assert reported(f"--oa-spec-root={spec}", "-k", "c3") == [stale, gone]
    assert reported(f"--oa-spec-root={spec}", "-k", "001-five and c1") == [stale, gone]
    assert reported(str(spec / "graph-engine" / "conformance" / "001-five.yaml"), "-k", "c1") == [stale]
    assert reported(str(other)) == []
    pytest.importorskip("xdist")
    # An xdist worker collects its share only, so it judges no entry: its warnings reach the
    # controller, and would name the other worker's cases (when they arrived before the summary).
    # (This suite run under xdist would hand its own worker's name to the inner controller.)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makeconftest("import os\n\n"
                          "def pytest_warning_recorded(warning_message):\n"
                          "    if os.environ.get('PYTEST_XDIST_WORKER'):\n"
                          "        with open('warned-' + os.environ['PYTEST_XDIST_WORKER'] + '.txt', 'a') as f:\n"
                          "            f.write(str(warning_message.message) + '\\n')\n")
    assert reported(f"--oa-spec-root={spec}", "-n", "2", run=pytester.runpytest_subprocess) == [stale, gone]
    warned = "".join(path.read_text() for path in pytester.path.glob("warned-gw*.txt"))
    assert "matched no case" not in warned, warned


def test_an_unusable_limit_is_a_usage_error(pytester, monkeypatch):
    """OA_MAX_DEPTH and the other loader limits are checked once, up front, never silently defaulted."""
    spec = five_cases(pytester.path)
    monkeypatch.setenv("OA_MAX_DEPTH", "deep")
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*OA_MAX_DEPTH='deep' is not a whole number*"])


# A conftest for a pytester project: each process writes the most cases it had in flight at once.
IN_FLIGHT_PROBE = """
import threading
import oa_conformance.frontends.pytest.hooks as plugin

_lock, _now, _most = threading.Lock(), [0], [0]
_real = plugin.run_case


def _counting(*args, **kwargs):
    with _lock:
        _now[0] += 1
        _most[0] = max(_most[0], _now[0])
    try:
        return _real(*args, **kwargs)
    finally:
        with _lock:
            _now[0] -= 1


plugin.run_case = _counting


def pytest_sessionfinish(session):
    worker = getattr(session.config, "workerinput", None)  # (an outer xdist run sets the environment)
    with open(f"in-flight-{worker['workerid'] if worker else 'controller'}.txt", "w") as handle:
        handle.write(str(_most[0]))
"""


def sleeping_cases(root: Path, count: int, sleep_ms: int, files: int = 1) -> Path:
    """``count`` cases that each sleep ``sleep_ms``, spread over ``files`` fixture files."""
    directory = root / "spec" / "pipeline-utilities" / "conformance"
    directory.mkdir(parents=True, exist_ok=True)
    case = ("  - name: {name}\n    state:\n      fields:\n        v: {{type: int, default: 0}}\n    entry: a\n"
            "    nodes:\n      a: {{sleep_ms: {sleep_ms}, update: {{v: 1}}}}\n    edges:\n      - {{from: a, to: END}}\n"
            "    initial_state: {{}}\n    expected:\n      final_state: {{v: 1}}\n")
    for file in range(files):
        text = "cases:\n" + "".join(case.format(name=f"s{i}", sleep_ms=sleep_ms) for i in range(file, count, files))
        (directory / f"{file + 1:03d}-sleeping.yaml").write_text(text, encoding="utf-8")
    return root / "spec"


def test_each_xdist_worker_runs_its_share_side_by_side(pytester):
    """Under ``-n 2`` each worker runs its cases side by side, as the plugin does without xdist:
    both workers had several cases in flight at once (one at a time would be 1 in each). Each
    reads only its own fixture files (every other one), and the header counts every item."""
    pytest.importorskip("xdist")
    spec = sleeping_cases(pytester.path, 8, 300, files=4)
    pytester.makeconftest(IN_FLIGHT_PROBE + READ_PROBE)
    result = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=8)
    assert "2 workers [8 items]" in result.stdout.str()
    read = {path.name: path.read_text().split() for path in pytester.path.glob("read-gw*.txt")}
    assert read == {"read-gw0.txt": ["001-sleeping.yaml", "003-sleeping.yaml"],
                    "read-gw1.txt": ["002-sleeping.yaml", "004-sleeping.yaml"]}, read
    in_flight = {path.name: int(path.read_text()) for path in pytester.path.glob("in-flight-gw*.txt")}
    assert sorted(in_flight) == ["in-flight-gw0.txt", "in-flight-gw1.txt"]
    assert all(most >= 2 for most in in_flight.values()), in_flight


def test_other_tests_beside_spec_roots_run_once_under_xdist(pytester):
    """Python tests collected beside the fixtures are split too (every worker collects them, each
    keeps the ones its node id hashes to), also when a plugin orders each worker's items its own way:
    every test and every case runs exactly once."""
    pytest.importorskip("xdist")
    spec = sleeping_cases(pytester.path, 4, 0, files=2)
    pytester.makepyfile(test_plain="import pytest\n\n@pytest.mark.parametrize('i', range(10))\ndef test_plain(i):\n    pass\n")
    pytester.makeconftest("import os, random\n\n"
                          "def pytest_collection_modifyitems(items):\n"
                          "    random.Random(os.environ.get('PYTEST_XDIST_WORKER')).shuffle(items)\n")
    result = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "test_plain.py", "-n", "2", "-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=14)
    ran = re.findall(r"^PASSED (\S+)", result.stdout.str(), re.M)
    assert len(ran) == len(set(ran)) == 14, ran


# A conftest for a pytester project: worker gw0 dies once, at the hook named by CRASH_AT (a marker
# file makes the replacement, which takes over its share, live).
CRASH_PROBE = """
import os

CRASH_AT = {crash_at!r}


def _crash_once(config, where):
    worker = getattr(config, "workerinput", None)
    if worker and worker["workerid"] == "gw0" and where == CRASH_AT and not os.path.exists("crashed"):
        open("crashed", "w").close()
        os._exit(1)


def pytest_collection_modifyitems(config, items):
    _crash_once(config, "collection")


def pytest_runtest_call(item):
    if item.name.endswith("[s0]"):
        _crash_once(item.config, "s0")
"""


@pytest.mark.parametrize("crash_at, outcomes", [("collection", {"passed": 8}), ("s0", {"passed": 7, "failed": 1})])
def test_a_crashed_workers_share_is_run_by_its_replacement(pytester, crash_at, outcomes):
    """A worker that dies while it collects, or while it runs its share, is replaced; the
    replacement collects the same share and runs what was left: every case is reported once (the
    one running at the crash as xdist's crash failure), none is lost to the fixed shares."""
    pytest.importorskip("xdist")
    spec = sleeping_cases(pytester.path, 8, 0, files=4)
    pytester.makeconftest(CRASH_PROBE.format(crash_at=crash_at))
    result = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-n", "2", "-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(**outcomes)
    out = result.stdout.str()
    assert "replacing crashed worker gw0" in out, out
    summary = re.findall(r"^(?:PASSED|FAILED) \S+\[(s\d)\]", out, re.M)
    assert sorted(summary) == [f"s{i}" for i in range(8)], out  # each case reported exactly once
    assert "[100%]" in out  # the progress counts the live workers' items
    if crash_at == "s0":
        assert "worker 'gw0' crashed while running" in out and "001-sleeping.yaml::001-sleeping[s0]" in out, out


# A conftest's addition: which fixture files each xdist worker read (written at its session's end).
READ_PROBE = """
import oa_conformance.frontends.pytest.collection as collection

_read = []
_real_cases_of = collection.cases_of


def _reading(fixture):
    _read.append(fixture.name)
    return _real_cases_of(fixture)


collection.cases_of = _reading


def pytest_collection_finish(session):
    # Written once the worker's collection (all its reading) is done, not at unconfigure: xdist's
    # controller ends a worker that has not exited some seconds after it reported finishing, and
    # under load its unconfigure could be cut off before writing.
    worker = getattr(session.config, "workerinput", None)
    if worker:
        with open(f"read-{worker['workerid']}.txt", "w") as handle:
            handle.write(" ".join(_read))
"""


# A conftest for a pytester project: which cases had started by the end of collection (before
# pytest_runtestloop, where the plugin starts the selected cases).
STARTED_PROBE = """
import threading
import oa_conformance.frontends.pytest.hooks as plugin

_lock, _started = threading.Lock(), []
_real = plugin.run_case


def _recording(case, timeout):
    with _lock:
        _started.append(case.id)
    return _real(case, timeout)


plugin.run_case = _recording


def pytest_collection_finish(session):
    import time

    deadline = time.monotonic() + 5  # a case handed to a thread during collection may take a moment to begin
    while len(_started) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    with _lock:
        print(f"started while collecting: {sorted(_started)}")
"""


def test_a_case_that_declares_waits_starts_as_it_is_collected(pytester):
    """A case that declares waits starts while the rest is still being collected (it would
    otherwise begin only once every fixture is read), one that does not waits for selection; a
    waiting case deselected after all is abandoned: never reported, the outcomes unchanged."""
    spec = sleeping_cases(pytester.path, 2, 300)
    five_cases(pytester.path)
    pytester.makeconftest(STARTED_PROBE)
    result = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=4, failed=3)
    result.stdout.fnmatch_lines(["started while collecting: ['pipeline-utilities/001-sleeping[s0]', "
                                 "'pipeline-utilities/001-sleeping[s1]']"])
    deselected = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-k", "s0 or c1", "-rA")
    deselected.assert_outcomes(passed=2, deselected=5)
    assert "s1" not in "".join(line for line in deselected.outlines if "PASSED" in line or "FAILED" in line)
    collect_only = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-s", "--co")
    collect_only.stdout.fnmatch_lines(["started while collecting: []"])


def test_the_package_is_loaded_as_python_loads_it(pytester, monkeypatch):
    """pytest marks the whole distribution of an entry-point plugin for assert rewriting and then
    compiles each module from source wherever it cannot cache them; the plugin takes its package
    off that list. Run where pytest does mark it (the project on ``sys.path``, as for a wheel)."""
    pytester.makepyfile(test_loaders="""
        import _pytest.config
        import oa_conformance.interpreter.running.execute
        import oa_conformance.pipeline

        def test_marked_yet_loaded_plainly():
            assert _pytest.config._plugin_rewrite_name("oa_conformance.frontends.pytest.hooks") == "oa_conformance"
            for module in (oa_conformance.pipeline, oa_conformance.interpreter.running.execute):
                assert type(module.__loader__).__name__ != "AssertionRewritingHook", module.__name__
    """)
    project = str(Path(plugin.__file__).resolve().parents[3])  # oa_conformance/frontends/pytest/hooks.py
    monkeypatch.setenv("PYTHONPATH", project + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=1)


def test_a_spec_is_collected_with_the_collector_paused_and_kept_frozen(pytester):
    """While a spec is collected the cyclic collector is paused, and what was collected is frozen
    after; a session without spec roots is left alone."""
    spec = five_cases(pytester.path)
    pytester.makeconftest("""
        import gc

        def pytest_collection_finish(session):
            print(f"collecting: collector on {gc.isenabled()}")

        def pytest_sessionfinish(session):
            print(f"finished: collector on {gc.isenabled()}, frozen {gc.get_freeze_count()}")
    """)

    def frozen(output: str) -> int:
        return int(re.search(r"finished: collector on True, frozen (\d+)", output).group(1))

    with_spec = pytester.runpytest_subprocess(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-s", "--co").stdout.str()
    assert "collecting: collector on False" in with_spec
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    plain = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-s", "test_plain.py").stdout.str()
    assert "collecting: collector on True" in plain
    assert frozen(with_spec) > frozen(plain) + 10_000  # the session's objects, the spec's trees among them
