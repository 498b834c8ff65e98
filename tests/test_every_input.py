"""Every bad input, through every front end (issue 19): a fixture's problem never stops the others,
each ends as a §9 category (or a usage error) at the ``path:line:col`` of the offending text, with no
traceback, and pytest reports the same set of problems as the command-line tools."""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from xml.etree import ElementTree
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_ast import main as oa_ast
from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.frontends.cli.oa_lint import main as oa_lint
from oa_conformance.frontends.lint import lint_paths

from .conftest import interruptible, target_spec_root
from .test_run import LINEAR

pytest_plugins = ["pytester"]

GOOD = "001-good.yaml"


def target_fixture_text(capability: str, number: int) -> str:
    """The text of fixture ``number`` of a capability in the 0.118.2 corpus."""
    root = target_spec_root()
    if root is None:
        pytest.skip("a spec corpus is not available: set OA_TARGET_SPEC")
    folder = root / "spec" / capability / "conformance"
    return next(folder.glob(f"{number:03d}-*.yaml")).read_text(encoding="utf-8")


def spec_with(root: Path, name: str, text: str | None = None, capability: str = "graph-engine") -> Path:
    """A spec tree holding the good linear fixture and, beside it, ``name`` with ``text`` (when given)."""
    (root / "spec" / "graph-engine" / "conformance").mkdir(parents=True, exist_ok=True)
    (root / "spec" / "graph-engine" / "conformance" / GOOD).write_text(LINEAR.read_text(), encoding="utf-8")
    folder = root / "spec" / capability / "conformance"
    folder.mkdir(parents=True, exist_ok=True)
    if text is not None:
        (folder / name).write_text(text, encoding="utf-8")
    return root / "spec"


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and "Error:" not in text.replace("_error", ""), text


def cli_locations(capsys, command: str, spec: Path) -> tuple[int, set[str]]:
    """The exit status and the ``path:line:col`` locations one command-line command reports."""
    code = cli([command, str(spec), "-q"] if command == "run" else [command, str(spec)])
    captured = capsys.readouterr()
    no_traceback(captured.out, captured.err)
    return code, set(re.findall(r"(\S+\.yaml:\d+:\d+)", captured.out))


def pytest_locations(pytester, spec: Path, *args: str):
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", *args)
    no_traceback(result.stdout.str(), result.stderr.str())
    return result, set(re.findall(r"(\S+\.yaml:\d+:\d+)", result.stdout.str()))


def every_front_end_reports(pytester, capsys, spec: Path, where: str) -> None:
    """``check``, ``run``, ``oa-lint`` and pytest each report the problem at ``where`` (and run the good
    fixture beside it)."""
    for command in ("check", "run"):
        code, found = cli_locations(capsys, command, spec)
        assert code == 1 and where in found, (command, found)
    assert any(str(d.location) == where for d in lint_paths([str(spec)]).diagnostics)
    result, found = pytest_locations(pytester, spec)
    result.assert_outcomes(passed=1, failed=1)
    assert where in found, result.stdout.str()


# --- High -----------------------------------------------------------------------------------------

def test_an_integer_of_thousands_of_digits_is_located_and_stops_nothing(pytester, capsys):
    text = LINEAR.read_text().replace("count: 2\n", "count: " + "9" * 5000 + "\n", 1)
    spec = spec_with(pytester.path, "002-big.yaml", text)
    line = text.splitlines().index("    count: " + "9" * 5000) + 1
    path = f"{spec}/graph-engine/conformance/002-big.yaml"
    every_front_end_reports(pytester, capsys, spec, f"{path}:{line}:12")
    assert oa_ast([path, "--stop-after", "load"]) == 1
    assert "an integer of 5000 digits" in capsys.readouterr().out


def odd_entries(spec: Path) -> list[str]:
    folder = spec / "graph-engine" / "conformance"
    (folder / "002-a-directory.yaml").mkdir()
    os.symlink(folder / "missing.yaml", folder / "003-dangling.yaml")
    os.symlink(folder / "004-loop.yaml", folder / "004-loop.yaml")
    os.mkfifo(folder / "005-fifo.yaml")
    return [f"{folder}/{name}:1:1" for name in ("002-a-directory.yaml", "003-dangling.yaml", "004-loop.yaml", "005-fifo.yaml")]


def test_pytest_reports_every_unreadable_entry_the_cli_reports(pytester, capsys):
    spec = spec_with(pytester.path, "")
    expected = set(odd_entries(spec))
    code, found = cli_locations(capsys, "check", spec)
    assert code == 1 and found == expected
    result, found = pytest_locations(pytester, spec)
    result.assert_outcomes(passed=1, failed=4)
    assert found == expected
    assert "a symbolic link loop" in result.stdout.str() and "a FIFO" in result.stdout.str()


# --- Medium ---------------------------------------------------------------------------------------

def unprivileged(*command: str) -> list[str]:
    """``command`` without the power to read past permissions (root reads everything: drop the two
    capabilities that let it, with setpriv)."""
    if os.geteuid() != 0:
        return list(command)
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a folder unreadable")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]


def test_an_unreadable_conformance_folder_is_one_finding_and_the_rest_runs(pytester):
    spec = spec_with(pytester.path, "")
    folder = spec / "pipeline-utilities" / "conformance"
    folder.mkdir(parents=True)
    folder.chmod(0)
    where = f"{folder}:1:1: fixture_schema_invalid: cannot read the folder: Permission denied"
    try:
        for command in ("check", "run"):
            done = pytester.run(*unprivileged(sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", command, str(spec)))
            assert done.ret == 1 and where in done.stdout.str(), done.stdout.str()
            no_traceback(done.stdout.str(), done.stderr.str())
        linted = pytester.run(*unprivileged(sys.executable, "-m", "oa_conformance.frontends.cli.oa_lint", str(spec)))
        assert f"{folder}:1:1: Y006 cannot read the folder" in linted.stdout.str()
        result = pytester.run(*unprivileged(sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider"))
        result.assert_outcomes(passed=1, failed=1)
        assert where in result.stdout.str()
    finally:
        folder.chmod(0o755)


def test_a_fixture_outside_a_conformance_folder_runs_only_with_its_capability(tmp_path, capsys):
    loose = tmp_path / "021-stray.yaml"
    loose.write_text(target_fixture_text("llm-provider", 1), encoding="utf-8")
    assert cli(["run", "-q", str(loose)]) == 2  # was: None/021-stray, "not implemented"
    assert "not in a <capability>/conformance/ folder" in capsys.readouterr().err
    for command in (["run", "-q"], ["check"]):
        assert cli([*command, str(loose), "--capability", "llm-provider"]) == 0  # was: "no fixtures"
        out = capsys.readouterr().out
        assert "None/" not in out and "llm-provider" in out
    assert cli(["check", str(loose), "--capability", "nonsense"]) == 2
    # oa-lint applies --capability to it (it was ignored): the capability's own rules run
    assert oa_lint([str(loose), "--capability", "llm-provider", "--select", "V"]) == 0
    assert oa_lint([str(loose), "--capability", "graph-engine", "--select", "V"]) == 1


@pytest.mark.parametrize("tool", [oa_ast, oa_lint])
@pytest.mark.parametrize("name", ["llm_provider", "nonsense"])
def test_an_unknown_capability_is_a_usage_error(tool, name, capsys):
    with pytest.raises(SystemExit) as stopped:
        tool([str(LINEAR), "--capability", name])
    assert stopped.value.code == 2 and "no such capability" in capsys.readouterr().err


def test_standard_input_without_a_capability_has_no_false_p001(monkeypatch, capsys):
    text = target_fixture_text("graph-engine", 20).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert oa_lint(["-", "--select", "P001"]) == 0, capsys.readouterr().out


# A case that runs for 20 s (its observer sleeps on every event) while it holds the runtime's OTel
# log bridge, beside a broken fixture that fails at once.
SLOW_OBSERVER = """\
observers:
  - name: slow_obs
    attach: graph
    target: outer
    behavior: record
    sleep_ms_per_event: 20000
"""


def slow_spec(root: Path) -> Path:
    folder = root / "spec" / "observability" / "conformance"
    folder.mkdir(parents=True)
    (folder / "000-broken.yaml").write_text("entyr: x\n", encoding="utf-8")
    (folder / "001-slow.yaml").write_text(target_fixture_text("observability", 3) + SLOW_OBSERVER, encoding="utf-8")
    return root / "spec"


def timed(command: list[str], cwd: Path, until: str, interrupt: bool = False) -> tuple[float, str, str]:
    """Run ``command``; once ``until`` appears on its standard output (interrupted with SIGINT then,
    if asked), the seconds it still takes to exit, its output and its standard error."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"), preexec_fn=interruptible)
    seen = b""
    while until.encode() not in seen:
        chunk = process.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    if interrupt:
        time.sleep(0.5)  # the case is well under way
        process.send_signal(signal.SIGINT)
    started = time.monotonic()
    out, err = process.communicate(timeout=60)
    return time.monotonic() - started, (seen + out).decode(), err.decode()


PROMPT = 10.0  # seconds: the issue asks for 2 (about 1.3 on an idle machine); room for a loaded one (it was 60)


@pytest.mark.parametrize("stop", [["-x"], ["--maxfail", "1"]])
def test_x_and_maxfail_return_promptly_with_nothing_on_stderr(tmp_path, stop):
    spec = slow_spec(tmp_path)
    pytest_run = [sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-q", *stop]
    elapsed, out, err = timed(pytest_run, tmp_path, "stopping after 1 failures")
    assert elapsed < PROMPT and err == "", (elapsed, err)
    cli_run = [sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "run", str(spec), "-q", *stop]
    elapsed, out, err = timed(cli_run, tmp_path, "stopped after 1 failing case")
    assert elapsed < PROMPT and err == "", (elapsed, err)


def test_ctrl_c_returns_promptly_with_nothing_on_stderr_but_the_summary(tmp_path):
    spec = slow_spec(tmp_path)
    pytest_run = [sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-v"]
    elapsed, out, err = timed(pytest_run, tmp_path, "001-slow.yaml::001-slow", interrupt=True)
    assert elapsed < PROMPT and err == "" and "KeyboardInterrupt" in out, (elapsed, err)
    cli_run = [sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "run", str(spec)]
    elapsed, out, err = timed(cli_run, tmp_path, "\nE", interrupt=True)  # the broken fixture's progress mark
    assert elapsed < PROMPT and err == "" and "interrupted (Ctrl-C)" in out, (elapsed, err)


def test_oa_ast_reports_a_fifo_instead_of_waiting_on_it(tmp_path):
    fifo = tmp_path / "spec" / "graph-engine" / "conformance" / "001-fifo.yaml"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "oa_conformance.frontends.cli.oa_ast", str(fifo)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and f"{fifo}:1:1: fixture_schema_invalid: cannot read fixture: a FIFO" in done.stderr


def cases_text(*names: str) -> str:
    """The linear fixture as a ``cases:`` list of one case per name (``None``: a case without a name)."""
    body = [line for line in LINEAR.read_text().splitlines() if line and not line.startswith("#")]
    cases = []
    for name in names:
        head = [f"  - name: {name}"] if name is not None else []
        lines = head + [("  - " if not head and i == 0 else "    ") + line for i, line in enumerate(body)]
        cases.append("\n".join(lines))
    return "cases:\n" + "\n".join(cases) + "\n"


@pytest.mark.parametrize("names, line, message", [
    (("dup", "dup"), "second", "'dup' again (first at line 2); case names must be unique"),
    (('""',), "first", "empty; a case needs a name"),
    (("a::b",), "first", "'a::b' holds '::'"),
])
def test_case_names_that_collide_or_break_an_id_are_located(pytester, capsys, names, line, message):
    text = cases_text(*names)
    spec = spec_with(pytester.path, "002-cases.yaml", text)
    name_lines = [i for i, l in enumerate(text.splitlines(), 1) if l.startswith("  - name:")]
    where = f"{spec}/graph-engine/conformance/002-cases.yaml:{name_lines[0 if line == 'first' else 1]}:11"
    every_front_end_reports(pytester, capsys, spec, where)
    assert cli(["check", str(spec)]) == 1 and message in capsys.readouterr().out


def test_an_empty_cases_list_is_located_in_every_front_end(pytester, capsys):
    spec = spec_with(pytester.path, "002-none.yaml", "# nothing to run\ncases: []\n")
    every_front_end_reports(pytester, capsys, spec, f"{spec}/graph-engine/conformance/002-none.yaml:2:8")
    only = spec / "graph-engine" / "conformance" / "002-none.yaml"
    assert cli(["run", str(only), "-q"]) == 1  # was "no case matches" (exit 2); pytest exited 5
    assert "an empty list" in capsys.readouterr().out


def test_runtime_skips_are_located_at_their_fixtures(pytester):
    folder = pytester.path / "spec" / "sessions" / "conformance"  # proposal 0020: not shipped by the runtime
    folder.mkdir(parents=True)
    for number in (1, 2):
        (folder / f"00{number}-session.yaml").write_text(target_fixture_text("sessions", number), encoding="utf-8")
    result = pytester.runpytest(f"--oa-spec-root={pytester.path / 'spec'}", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=2)
    skips = [line for line in result.stdout.lines if line.startswith("SKIPPED")]
    assert len(skips) == 2 and all("frontends/pytest/" not in line for line in skips), skips
    assert [re.search(r"(00\d-session\.yaml):\d+:", line).group(1) for line in skips] == ["001-session.yaml", "002-session.yaml"]


@pytest.mark.parametrize("command", [
    ["oa_conformance.frontends.cli.oa_lint", "--explain", "X001"],
    ["oa_conformance.frontends.cli.oa_lint", "--list-rules"],
    ["oa_conformance.frontends.cli.oa_ast", str(LINEAR)],
    ["oa_conformance.frontends.cli.oa_conformance", "check", str(LINEAR.parent.parent.parent)],
    ["oa_conformance.frontends.cli.oa_conformance", "run", str(LINEAR)],
])
def test_a_closed_pipe_stops_the_output_not_the_command(command):
    """``… | head -1``: the reader is gone before the first write. `run` abandons its cases then
    (status 141, as a process ended by SIGPIPE: tests/test_front_end_edges.py); the others finish."""
    process = subprocess.Popen([sys.executable, "-m", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    with process.stderr:
        err = process.stderr.read().decode()
    assert process.wait(timeout=120) == (141 if "run" in command else 0) and err == "", err


def test_ctrl_c_in_oa_lint_is_one_line_and_status_130(monkeypatch, capsys):
    import oa_conformance.frontends.lint as lint  # oa_lint imports lint_paths from here when it runs

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt  # Ctrl-C while the fixtures are linted

    monkeypatch.setattr(lint, "lint_paths", interrupted)
    assert oa_lint([str(LINEAR)]) == 130
    assert capsys.readouterr().err == "oa-lint: interrupted\n"


# --- Low ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("capability, number, old, new", [
    ("graph-engine", 22, "timeout_seconds: 0.1", "timeout_seconds: .nan"),
    ("graph-engine", 22, "timeout_seconds: 0.1", "timeout_seconds: -1"),
    ("graph-engine", 22, "sleep_ms_per_event: 200", "sleep_ms_per_event: -5"),
    ("pipeline-utilities", 33, "sleep_ms: ", "sleep_ms: -5 #"),
    ("pipeline-utilities", 33, "sleep_ms: ", "sleep_ms: " + "9" * 400 + " #"),
])
def test_a_duration_out_of_range_is_a_schema_problem_where_it_is_written(pytester, capsys, capability, number, old, new):
    text = target_fixture_text(capability, number)
    assert old in text
    broken = text.replace(old, new, 1)
    spec = spec_with(pytester.path, "002-duration.yaml", broken, capability)
    line = next(i for i, l in enumerate(broken.splitlines(), 1) if new in l)
    column = broken.splitlines()[line - 1].index(new) + len(new.split(":")[0]) + 3
    every_front_end_reports(pytester, capsys, spec, f"{spec}/{capability}/conformance/002-duration.yaml:{line}:{column}")
    assert cli(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "fixture_schema_invalid" in out and "from 0 to" in out and "adapter" not in out and "nan, found" not in out


def check_output(capsys, tmp_path, text: str, status: int = 1) -> str:
    folder = tmp_path / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "001-words.yaml").write_text(text, encoding="utf-8")
    assert cli(["check", str(tmp_path / "spec")]) == status
    out = capsys.readouterr().out
    no_traceback(out)
    return out


def test_keys_one_and_true_are_two_keys(tmp_path, capsys):
    out = check_output(capsys, tmp_path, LINEAR.read_text().replace("initial_state: {}", "initial_state: {1: a, true: b}"), status=0)
    assert "duplicate key" not in out


def test_a_null_key_is_named_as_yaml_writes_it(tmp_path, capsys):
    out = check_output(capsys, tmp_path, LINEAR.read_text() + "~: x\n")
    assert "unknown directive null (a directive name is a string)" in out and "None" not in out


def test_every_bad_tag_and_the_schema_problems_beside_a_duplicate_key_are_reported(tmp_path, capsys):
    text = LINEAR.read_text().replace("entry: first", "entry: !!python/name:os.system first\nentyr: x")
    text = text.replace("count: 2\n", "count: !!binary Mg==\n").replace("initial_state: {}", "initial_state: {}\ninitial_state: {}")
    out = check_output(capsys, tmp_path, text)
    lines = text.splitlines()
    for needle, what in (("entry: !!", "tag 'tag:yaml.org,2002:python/name:os.system'"), ("count: !!binary", "tag 'tag:yaml.org,2002:binary'"),
                         ("entyr", "unknown directive 'entyr'")):
        line = next(i for i, l in enumerate(lines, 1) if needle in l)
        assert f"001-words.yaml:{line}:" in out and what in out, (needle, out)
    assert "duplicate key 'initial_state'" in out


def test_an_expected_nan_matches_a_nan(tmp_path):
    text = (LINEAR.read_text().replace("    count: {type: int, default: 0}\n", "    count: {type: int, default: 0}\n    ratio: {type: float, default: 0.0}\n")
            .replace("update: {count: 1,", "update: {ratio: .nan, count: 1,").replace("    count: 2\n", "    count: 2\n    ratio: .nan\n"))
    folder = tmp_path / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    (folder / "001-nan.yaml").write_text(text, encoding="utf-8")
    assert cli(["run", str(folder / "001-nan.yaml"), "-q"]) == 0  # was: "expected nan, got nan"


def test_an_expectations_file_with_a_byte_order_mark_reads(tmp_path, capsys):
    expectations = tmp_path / "oa-expectations.toml"
    expectations.write_bytes(b"\xef\xbb\xbf# known deviations\n")
    assert cli(["run", str(LINEAR), "-q", "--expectations", str(expectations)]) == 0, capsys.readouterr().err


def test_option_words_and_version_on_every_command(capsys):
    with pytest.raises(SystemExit) as stopped:
        cli(["run", "--workers", "-3"])
    assert stopped.value.code == 2 and "must be 1 or more" in capsys.readouterr().err
    for command in ("run", "check"):
        with pytest.raises(SystemExit) as stopped:
            cli([command, "--version"])
        assert stopped.value.code == 0 and "conformance-adapter spec" in capsys.readouterr().out


def test_a_fifo_given_as_a_path_is_reported_as_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "spec" / "graph-engine" / "conformance" / "001-fifo.yaml"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    assert cli(["check", str(fifo)]) == 1
    assert f"{fifo}:1:1: fixture_schema_invalid: cannot read fixture: a FIFO" in capsys.readouterr().out


@pytest.mark.parametrize("old, new, line, column, words", [
    ("  first:\n    update: {count: 1, trace: [first], tags: {a: x}}", "  first:\n    update: {count: 1, trace: [first], tags: {a: x}", 12, 13,
     "a flow mapping that opens here is not closed"),
    ("entry: first", "entry: fi\x00rst", 9, 10, "character U+0000 is not allowed"),
])
def test_yaml_errors_are_located_where_the_offending_text_is(pytester, capsys, old, new, line, column, words):
    text = LINEAR.read_text()
    assert old in text
    spec = spec_with(pytester.path, "002-yaml.yaml", text.replace(old, new))
    every_front_end_reports(pytester, capsys, spec, f"{spec}/graph-engine/conformance/002-yaml.yaml:{line}:{column}")
    assert cli(["check", str(spec)]) == 1 and words in capsys.readouterr().out


def test_junitxml_and_durations_report_each_case_s_own_time(pytester):
    folder = pytester.path / "spec" / "pipeline-utilities" / "conformance"
    folder.mkdir(parents=True)
    slow = LINEAR.read_text().replace("  first:\n", "  first:\n    sleep_ms: 1000\n")
    for number in (1, 2):  # side by side: the second is done by the time pytest asks for it
        (folder / f"00{number}-slow.yaml").write_text(slow, encoding="utf-8")
    report = pytester.path / "junit.xml"
    result = pytester.runpytest(f"--oa-spec-root={pytester.path / 'spec'}", "-p", "no:cacheprovider", f"--junitxml={report}", "--durations=0")
    result.assert_outcomes(passed=2)
    times = [float(case.get("time")) for case in ElementTree.parse(report).iter("testcase")]
    assert len(times) == 2 and all(t >= 0.9 for t in times), times


def test_the_failure_snippet_of_a_huge_fixture_reads_only_what_it_shows(pytester):
    folder = pytester.path / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    with open(folder / "001-huge.yaml", "w", encoding="utf-8") as handle:
        handle.write("# padding\n" * 5_000_000)  # 50 MB, over the size cap: refused at 1:1
    # The peak from collection on, in a pytest of its own: tracemalloc counts every thread, and in
    # this process the plugin's early-started cases (the bundled spec's) may be allocating too.
    pytester.makeconftest(PEAK_FROM_COLLECTION_ON)
    result = pytester.runpytest_subprocess(f"--oa-spec-root={pytester.path / 'spec'}", "-p", "no:cacheprovider", "-s")
    result.assert_outcomes(failed=1)
    assert "over the" in result.stdout.str() and ">    1 | # padding" in result.stdout.str()
    peak = int(result.stdout.str().split("traced peak: ")[1].split()[0])
    assert peak < 20 << 20, f"{peak / (1 << 20):.0f} MiB"


# A conftest that traces allocations from collection on (past the imports) and prints the peak.
PEAK_FROM_COLLECTION_ON = """
import tracemalloc


def pytest_collection():
    tracemalloc.start()


def pytest_unconfigure():
    print("traced peak:", tracemalloc.get_traced_memory()[1])
"""


def test_quiet_hides_the_detail_of_skips_and_expected_failures(tmp_path, capsys):
    folder = tmp_path / "spec" / "sessions" / "conformance"  # proposal 0020: a recognized skip
    folder.mkdir(parents=True)
    (folder / "001-session.yaml").write_text(target_fixture_text("sessions", 1), encoding="utf-8")
    assert cli(["run", str(tmp_path / "spec")]) == 0
    assert "SKIPPED" in capsys.readouterr().out
    assert cli(["run", str(tmp_path / "spec"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "SKIPPED" not in out and "proposal 0020" not in out


def test_an_unexpected_compile_error_is_located_where_lint_locates_it(pytester, capsys):
    text = LINEAR.read_text().replace("  - {from: third, to: END}", "  - {from: third, to: nowhere}")
    spec = spec_with(pytester.path, "002-dangling.yaml", text)
    where = f"{spec}/graph-engine/conformance/002-dangling.yaml:20:23"
    assert any(str(d.location) == where and d.code == "G002" for d in lint_paths([str(spec)]).diagnostics)
    code, found = cli_locations(capsys, "run", spec)
    assert code == 1 and where in found, found  # was the case's first line
