"""Every input, round two (issue 26): fixture mistakes the static passes now catch where they are
written — a misspelled predicate or capability folder, a state value of the wrong type, a run count
below one, YAML nested past the adapter's own bound, a refused tag said once — and ``oa-ast --format
yaml`` output that means what its input meant. Each through the real front ends: ``check``, ``run``,
``oa-lint`` and pytest (``every_front_end_reports``), and the installed commands where it matters."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from oa_conformance.ast.dump import unparse
from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.frontends.lint import lint_paths
from oa_conformance.pipeline import read_fixture

from .conftest import shared_spec_root, target_spec_root
from .test_every_input import LINEAR, cli_locations, every_front_end_reports, no_traceback, spec_with, target_fixture_text

pytest_plugins = ["pytester"]

REPOSITORY = Path(__file__).resolve().parent.parent


def command(module: str, *args: str) -> subprocess.CompletedProcess:
    """One of the installed front ends, run as its own process."""
    done = subprocess.run([sys.executable, "-m", f"oa_conformance.frontends.cli.{module}", *args], capture_output=True, text=True, timeout=300)
    no_traceback(done.stdout, done.stderr)
    return done


def located(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """(line, column) of ``needle`` in ``text`` plus ``offset`` characters, 1-based."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + offset + 1
    raise AssertionError(needle)


def lint_codes(spec: Path, where: str) -> list[str]:
    return [d.code for d in lint_paths([str(spec)]).diagnostics if str(d.location) == where]


# --- A misspelled predicate ---------------------------------------------------------------------

def with_invariants(body: str) -> str:
    return LINEAR.read_text() + f"  invariants:\n    {body}\n"


def test_a_misspelled_predicate_is_a_schema_problem_with_a_suggestion(pytester, capsys):
    text = with_invariants("no_events_for_nod: third")
    spec = spec_with(pytester.path, "002-typo.yaml", text)
    line, column = located(text, "no_events_for_nod")
    where = f"{spec}/graph-engine/conformance/002-typo.yaml:{line}:{column}"
    every_front_end_reports(pytester, capsys, spec, where)  # run: was "failed" (1 unverified)
    capsys.readouterr()
    assert cli(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "fixture_schema_invalid" in out and "did you mean 'no_events_for_node'?" in out
    assert lint_codes(spec, where) == ["V004"]  # was the warning P001 "not implemented by this adapter"
    # The shipped pre-commit hook (it ignores P001) reports it.
    hook = yaml.safe_load((REPOSITORY / ".pre-commit-hooks.yaml").read_text())[0]
    linted = command("oa_lint", *hook["args"], str(spec / "graph-engine" / "conformance" / "002-typo.yaml"))
    assert linted.returncode == 1 and f"{where}: V004" in linted.stdout, linted.stdout


def test_a_new_predicate_name_stays_not_implemented(tmp_path, capsys):
    """§5.9: predicate names are open; a name far from every known one is the adapter's gap."""
    text = with_invariants("third_ran_after_second_exactly_once: true")
    spec = spec_with(tmp_path, "002-new.yaml", text)
    assert cli(["check", str(spec)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    line, column = located(text, "third_ran_after")
    assert lint_codes(spec, f"{spec}/graph-engine/conformance/002-new.yaml:{line}:{column}") == ["P001"]


# --- State values of the wrong type -------------------------------------------------------------

def test_an_initial_state_value_of_the_wrong_type_is_located_at_the_value(pytester, capsys):
    text = LINEAR.read_text().replace("initial_state: {}", 'initial_state: {count: "zero"}')
    spec = spec_with(pytester.path, "002-initial.yaml", text)
    line, column = located(text, '"zero"')
    where = f"{spec}/graph-engine/conformance/002-initial.yaml:{line}:{column}"
    every_front_end_reports(pytester, capsys, spec, where)  # check and lint were clean; run pointed elsewhere
    capsys.readouterr()
    assert cli(["run", str(spec), "-q"]) == 1
    out = capsys.readouterr().out
    assert "initial_state.count: 'zero' is not an int" in out and "expected.final_state" not in out
    assert lint_codes(spec, where) == ["E007"]


def test_a_case_that_expects_the_validation_error_may_give_a_wrong_type(tmp_path, capsys):
    text = LINEAR.read_text().replace("initial_state: {}", 'initial_state: {count: "zero"}\nexpected_error: {category: state_validation_error}')
    text = text[:text.index("expected:\n")]
    spec = spec_with(tmp_path, "002-expects.yaml", text)
    assert cli(["check", str(spec)]) == 0, capsys.readouterr().out


def test_a_runtime_initial_state_failure_names_no_none(tmp_path, capsys):
    """An initial state the runtime rejects has no §4 category: the message says so without a ``None``."""
    text = LINEAR.read_text().replace("initial_state: {}", "initial_state: {undeclared: 1}")
    spec = spec_with(tmp_path, "002-extra.yaml", text)
    assert cli(["run", str(spec), "-q"]) == 1
    out = capsys.readouterr().out
    assert "the invocation errored: initial_state does not validate" in out and "None" not in out, out


def test_a_default_of_the_wrong_type_is_reported_by_check_too(pytester, capsys):
    text = LINEAR.read_text().replace("count: {type: int, default: 0}", 'count: {type: int, default: "zero"}')
    spec = spec_with(pytester.path, "002-default.yaml", text)
    line, column = located(text, '"zero"')
    where = f"{spec}/graph-engine/conformance/002-default.yaml:{line}:{column}"
    every_front_end_reports(pytester, capsys, spec, where)  # only lint reported it
    capsys.readouterr()
    assert cli(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "field 'count': default 'zero' is not an int (declared type 'int')" in out  # was "a int"
    assert lint_codes(spec, where) == ["S002"]


# --- run_count ---------------------------------------------------------------------------------

@pytest.mark.parametrize("count", ["0", "-1"])
def test_a_run_count_below_one_is_a_schema_problem_at_the_value(pytester, capsys, count):
    text = LINEAR.read_text() + f"run_count: {count}\n"
    spec = spec_with(pytester.path, "002-runs.yaml", text)
    line = len(text.splitlines())
    where = f"{spec}/graph-engine/conformance/002-runs.yaml:{line}:12"
    every_front_end_reports(pytester, capsys, spec, where)
    capsys.readouterr()
    code, found = cli_locations(capsys, "run", spec)
    assert found == {where}  # was two contradictory entries at the key


# --- A misspelled capability folder -----------------------------------------------------------------

def test_a_misspelled_capability_folder_is_flagged_with_a_suggestion(pytester, capsys):
    spec = spec_with(pytester.path, "001-linear.yaml", LINEAR.read_text(), capability="graph_engine")
    where = f"{spec}/graph_engine/conformance/001-linear.yaml:1:1"
    every_front_end_reports(pytester, capsys, spec, where)  # ran as capability "graph_engine"
    done = command("oa_conformance", "check", str(spec))
    assert done.returncode == 1 and "unknown capability 'graph_engine' (did you mean 'graph-engine'?)" in done.stdout
    assert "L006" in lint_codes(spec, where)  # (beside L003: the test writes no sidecar)


def test_a_new_capability_folder_is_not_a_misspelling(tmp_path, capsys):
    spec = spec_with(tmp_path, "001-linear.yaml", LINEAR.read_text(), capability="voice-agents")
    cli(["check", str(spec)])
    assert "unknown capability" not in capsys.readouterr().out


# --- YAML the loader refuses ----------------------------------------------------------------------

def test_yaml_nested_ten_thousand_deep_meets_the_adapter_s_own_bound(pytester, capsys):
    text = LINEAR.read_text().replace("initial_state: {}", "initial_state: {x: " + "[" * 10_000 + "]" * 10_000 + "}")
    spec = spec_with(pytester.path, "002-deep.yaml", text)
    line, column = located(text, "{x: [", offset=4 + 99)  # the 100th bracket is the 101st level (inside `{`)
    where = f"{spec}/graph-engine/conformance/002-deep.yaml:{line}:{column}"
    every_front_end_reports(pytester, capsys, spec, where)
    capsys.readouterr()
    assert cli(["check", str(spec)]) == 1
    out = capsys.readouterr().out
    assert "nesting deeper than 100 levels (OA_MAX_DEPTH)" in out and "exceeded maximum nesting depth" not in out


@pytest.mark.parametrize("value", ["!!binary YQ==", "!!python/tuple [a]"])
def test_a_refused_tag_is_one_finding(tmp_path, capsys, value):
    text = LINEAR.read_text().replace("entry: first", f"entry: first\ndescription: {value}")
    spec = spec_with(tmp_path, "002-tag.yaml", text)
    line, column = located(text, value)
    where = f"{spec}/graph-engine/conformance/002-tag.yaml:{line}:{column}"
    assert lint_codes(spec, where) == ["Y001"]  # was Y001 + Y007, or V002 + Y001
    assert cli(["check", str(spec)]) == 1
    assert capsys.readouterr().out.count(where) == 1


# --- oa-ast --format yaml round-trips ----------------------------------------------------------------

TRICKY = ["1e3", "-1E-3", "0o17", "0x1F", "012", "yes", "off", "1_000", "2024-01-01", "<<", "~", "null", ".NaN", "+.inf", "1:20"]


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def round_trips(path: str, data: str | None = None) -> bool:
    from oa_conformance.interpreter.static.yaml_compose import dump_fixture_yaml  # what `oa-ast --format yaml` writes

    read = read_fixture(path, data)
    if read.fixture is None:
        return True  # nothing to dump
    dumped = dump_fixture_yaml(unparse(read.fixture))
    back = read_fixture(path, dumped)
    return back.diagnostics == read.diagnostics and back.fixture == read.fixture and same(unparse(back.fixture), unparse(read.fixture))


def test_strings_that_look_like_numbers_round_trip_through_oa_ast_yaml(tmp_path):
    strings = "".join(f"  s{i}: '{s}'\n" for i, s in enumerate(TRICKY))  # quoted: each is a string
    text = LINEAR.read_text().replace("initial_state: {}\n", "initial_state:\n" + strings)
    spec = spec_with(tmp_path, "002-strings.yaml", text)
    fixture = spec / "graph-engine" / "conformance" / "002-strings.yaml"
    read = read_fixture(str(fixture))
    assert read.fixture is not None, read.diagnostics
    assert unparse(read.fixture)["initial_state"] == {f"s{i}": s for i, s in enumerate(TRICKY)}
    assert round_trips(str(fixture))
    dumped = command("oa_ast", "--format", "yaml", str(fixture))  # the installed command, once
    assert dumped.returncode == 0 and "'1e3'" in dumped.stdout
    again = tmp_path / "again" / "spec" / "graph-engine" / "conformance" / "002-strings.yaml"
    again.parent.mkdir(parents=True)
    again.write_text(dumped.stdout)
    assert read_fixture(str(again)).fixture == read.fixture
    assert not [d for d in lint_paths([str(again)]).diagnostics if d.code == "Y007"]  # no warning about our own output


def corpus_fixtures() -> list[Path]:
    roots = [root for root in (target_spec_root(), shared_spec_root()) if root is not None]
    found = sorted((REPOSITORY / "spec").glob("*/conformance/*.yaml"))
    for root in roots:
        found += sorted((root / "spec").glob("*/conformance/*.yaml"))
    return found


def test_every_corpus_fixture_round_trips_through_oa_ast_yaml():
    fixtures = corpus_fixtures()
    if target_spec_root() is None or shared_spec_root() is None:
        pytest.skip("the spec corpora are not available: set OA_TARGET_SPEC and OA_SHARED_SPEC")
    assert len(fixtures) > 900
    broken = [str(path) for path in fixtures if not round_trips(str(path))]
    assert not broken, broken[:5]


def test_an_uncategorized_invocation_error_is_named_by_its_type_not_none(tmp_path, capsys):
    """Upstream graph-engine 020 on a runtime whose routing error has no category said "the
    invocation failed with None"; the predicate names the error's type and message instead."""
    from oa_conformance.assertions.catalogue.graph_engine_compute import edge_failure_in_completed

    verdict = edge_failure_in_completed({"invocation": {"error": {"type": "ValueError", "message": "no route"}}}, True)
    assert not verdict.ok and "failed with ValueError: no route (no category)" in verdict.detail, verdict
    spec = spec_with(tmp_path, "020-observer-edge-error-events.yaml", target_fixture_text("graph-engine", 20))
    cli(["run", str(spec), "-q"])
    out = capsys.readouterr().out
    assert "failed with None" not in out, out
