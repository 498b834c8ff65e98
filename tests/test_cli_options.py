"""The command lines: options checked up front, --version, oa-lint -, streamed progress, -x /
--maxfail, the not-implemented column, Ctrl-C."""

from __future__ import annotations

import io
import json

import pytest

import oa_conformance.frontends.cli.oa_conformance as cli_module
import oa_conformance.scheduling.runner as runner
from oa_conformance.frontends.cli.oa_ast import main as oa_ast
from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.frontends.cli.oa_lint import main as oa_lint
from oa_conformance.verdicts.outcomes import Outcome
from oa_conformance.verdicts.results import CaseResult

from .conftest import BUNDLED_SPEC
from .test_run import LINEAR, write_fixture


@pytest.fixture
def ran(monkeypatch):
    seen: list[str] = []
    real = runner.run_case

    def recording(case, timeout=60.0):
        seen.append(case.id)
        return real(case, timeout)

    monkeypatch.setattr(runner, "run_case", recording)
    return seen


def three_fixtures(tmp_path):
    good = LINEAR.read_text()
    write_fixture(tmp_path, good.replace("count: 2\n", "count: 3\n"), name="001-wrong.yaml")
    write_fixture(tmp_path, good, name="002-good.yaml")
    write_fixture(tmp_path, good.replace("  third:\n", "  third:\n    projects_in: [count]\n", 1), name="003-gap.yaml")
    return str(tmp_path / "spec")


@pytest.mark.parametrize("option", [["--timeout", "nan"], ["--timeout", "-5"], ["--timeout", "inf"], ["--workers", "-3"],
                                    ["--workers", "0"], ["--maxfail", "0"]])
def test_bad_numbers_are_usage_errors(option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli(["run", str(BUNDLED_SPEC), *option])
    assert exit_info.value.code == 2
    assert "must be" in capsys.readouterr().err


def test_an_unwritable_json_path_is_refused_before_any_case_runs(tmp_path, capsys, ran):
    assert cli(["run", str(BUNDLED_SPEC), "--json", str(tmp_path / "missing" / "report.json")]) == 2
    assert cli(["run", str(BUNDLED_SPEC), "--json", str(tmp_path)]) == 2
    assert "--json" in capsys.readouterr().err and ran == []


def test_a_capability_name_with_underscores_gets_a_suggestion(capsys, ran):
    assert cli(["run", str(BUNDLED_SPEC), "--capability", "graph_engine"]) == 2
    assert "did you mean 'graph-engine'?" in capsys.readouterr().err and ran == []


@pytest.mark.parametrize("main,name", [(cli, "oa-conformance"), (oa_lint, "oa-lint"), (oa_ast, "oa-ast")])
def test_every_command_line_has_version(main, name, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith(f"{name} 0.")


def test_oa_lint_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"entyr: a\n")))
    assert oa_lint(["-"]) == 1
    assert "<stdin>:1:1: V001 unknown directive 'entyr'" in capsys.readouterr().out


def test_not_implemented_counts_apart_from_failed_and_progress_streams(tmp_path, capsys):
    report = tmp_path / "report.json"
    assert cli(["run", three_fixtures(tmp_path), "--workers", "1", "--json", str(report)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("runtime: openarmature ") and lines[1].startswith("proposals: ")  # the run header
    assert lines[2] == "F.N"  # one character per case as it completes
    header, row = lines[3], lines[4]
    assert "not implemented" in header
    cells = row.split()
    assert cells[:4] == ["graph-engine", "1", "1", "1"]  # passed, failed, not implemented
    assert [c["category"] for c in json.loads(report.read_text())["cases"]] == [None, None, "not_implemented"]


def test_quiet_prints_no_header_and_no_progress(tmp_path, capsys):
    cli(["run", three_fixtures(tmp_path), "-q"])
    assert capsys.readouterr().out.splitlines()[0].startswith("capability")


@pytest.mark.parametrize("option", [["-x"], ["--maxfail", "1"]])
def test_exitfirst_stops_starting_cases(tmp_path, capsys, ran, option):
    assert cli(["run", three_fixtures(tmp_path), "--workers", "1", *option]) == 1
    assert len(ran) == 1
    assert "1 of 3 cases" in capsys.readouterr().out


def test_ctrl_c_prints_what_finished_and_exits_130(tmp_path, capsys, monkeypatch):
    def interrupted(column, count, quiet):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "_progress", interrupted)
    assert cli(["run", three_fixtures(tmp_path), "--workers", "1"]) == 130
    out = capsys.readouterr().out
    assert "1 of 3 cases" in out and "interrupted" in out and "Traceback" not in out


def test_a_multi_line_reason_stays_on_one_line(tmp_path, capsys, monkeypatch):
    real = runner.run_case
    monkeypatch.setattr(runner, "run_case", lambda case, timeout=60.0: CaseResult(case, Outcome.FAILED, reason="one\ntwo"))
    cli(["run", str(BUNDLED_SPEC / "graph-engine" / "conformance" / "001-linear-reducers.yaml"), "-q"])
    lines = capsys.readouterr().out.splitlines()
    header = lines.index("FAILED  graph-engine/001-linear-reducers")
    assert lines[header + 1] == " " * 10 + "one two"  # the entry under its case, on one line
    assert real


# One slow case (a 2 s sleep), written at the top level: a single-case file is the case.
SLOW_SINGLE = """\
# One slow case: the whole file is the case.
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a:
    sleep_ms: 2000
    update: {v: 1}
edges:
  - {from: a, to: END}
initial_state: {}
expected:
  final_state: {v: 1}
"""


def _as_case(name: str, body: str, first: str = "state:") -> str:
    """``body`` (a single-case file) as an entry of a ``cases:`` list, ``name:`` after ``first``."""
    lines = [line for line in body.splitlines() if not line.startswith("#")]
    at = next(i for i, line in enumerate(lines) if line.startswith(first)) + 1
    while at < len(lines) and lines[at].startswith(" "):
        at += 1
    lines.insert(at, f"name: {name}")
    return "\n".join(("  - " if i == 0 else "    ") + line for i, line in enumerate(lines)) + "\n"


# Two cases; the slow one's `name:` comes after its `state:`, which is not where the case is.
SLOW_CASES = "cases:\n" + _as_case("quick", SLOW_SINGLE.replace("    sleep_ms: 2000\n", "")) + _as_case("slow", SLOW_SINGLE)


def test_a_timed_out_case_points_at_the_case_not_its_first_directive(tmp_path, capsys):
    """The `name:` line of the `cases:` entry (here after `state:`, which is not the case); in the
    single-case form the whole file is the case: line 1, not the first directive."""
    ref = write_fixture(tmp_path, SLOW_CASES, "pipeline-utilities", "001-slow.yaml")
    report = tmp_path / "report.json"
    assert cli(["run", str(tmp_path / "spec"), "--timeout", "0.3", "-q", "--json", str(report)]) == 1
    lines = capsys.readouterr().out.splitlines()
    entry = lines[lines.index("FAILED  pipeline-utilities/001-slow[slow]") + 1]
    name_line = SLOW_CASES.splitlines().index("    name: slow") + 1
    assert entry == f"{' ' * 10}{ref.path}:{name_line}:5: the case did not finish within 0.3 s"
    (slow,) = [c for c in json.loads(report.read_text())["cases"] if c["case"] == "slow"]
    assert slow["location"] == f"{ref.path}:{name_line}:5"

    ref = write_fixture(tmp_path / "single", SLOW_SINGLE, "pipeline-utilities", "002-slow.yaml")
    assert cli(["run", str(tmp_path / "single" / "spec"), "--timeout", "0.3", "-q"]) == 1
    lines = capsys.readouterr().out.splitlines()
    entry = lines[lines.index("FAILED  pipeline-utilities/002-slow") + 1]
    assert entry == f"{' ' * 10}{ref.path}:1:1: the case did not finish within 0.3 s"
