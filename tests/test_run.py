"""Running cases against the real runtime: verdicts, failures that point at the fixture, the
recognized skips, determinism, and the two front ends."""

from __future__ import annotations

import json
import re
from pathlib import Path


from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.model.discovery import FixtureRef, discover
from oa_conformance.verdicts.expectations import judge, load_expectations
from oa_conformance.pipeline import cases_of, run_case
from oa_conformance.scheduling.runner import run_all
from oa_conformance.verdicts.expectations import judge, load_expectations

from .conftest import BUNDLED_SPEC, REPO

pytest_plugins = ["pytester"]

LINEAR = BUNDLED_SPEC / "graph-engine" / "conformance" / "001-linear-reducers.yaml"


def write_fixture(tmp_path: Path, text: str, capability: str = "graph-engine", name: str = "001-case.yaml") -> FixtureRef:
    directory = tmp_path / "spec" / capability / "conformance"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return FixtureRef(str(path), capability, name)


def only_result(ref: FixtureRef):
    cases = cases_of(ref)
    assert len(cases) == 1
    return run_case(cases[0], timeout=20)


def test_bundled_fixtures_all_pass():
    """Every bundled case passes, except a known runtime violation: a case the expectations file lists
    with kind "runtime", which must fail exactly as its entry pins (xfail)."""
    violations = load_expectations(str(REPO / "oa-expectations-bundled.toml"))
    results = [judge(r, violations) for r in run_all(c for f in discover([str(BUNDLED_SPEC)]) for c in cases_of(f))]
    def as_expected(r) -> bool:
        entry = violations.lookup(r.ref.id)
        return r.outcome == "passed" if entry is None else (entry.kind == "runtime" and r.outcome == "xfail")
    assert results and all(map(as_expected, results)), [(r.ref.id, r.outcome, r.reason) for r in results if not as_expected(r)]
    assert all(r.counts()["verified"] >= 1 and r.counts()["unverified"] == 0 for r in results if r.outcome == "passed")


def test_a_wrong_expectation_fails_with_path_expected_actual_and_span(tmp_path):
    text = LINEAR.read_text().replace("count: 2\n", "count: 3\n")
    result = only_result(write_fixture(tmp_path, text))
    assert result.outcome == "failed"
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "count: 3" in l)
    assert "final_state.count: expected 3, got 2" in result.reason and str(result.location).endswith(f"001-case.yaml:{line}:12")


def test_an_unexpected_runtime_error_fails_the_case(tmp_path):
    text = LINEAR.read_text().replace("update_pure: {trace: [third]}", 'raises: "kaboom"')
    result = only_result(write_fixture(tmp_path, text))
    assert result.outcome == "failed"
    assert "node_exception" in result.reason and "kaboom" in result.reason


def test_an_unknown_checkpointer_is_harness_primitive_missing(tmp_path):
    text = LINEAR.read_text() + "checkpointer: on_the_moon\n"
    result = only_result(write_fixture(tmp_path, text))
    assert (result.outcome, result.category) == ("error", "harness_primitive_missing")
    assert "on_the_moon" in result.reason and str(result.location).endswith(f":{len(LINEAR.read_text().splitlines()) + 1}:15")


def test_an_unimplemented_predicate_is_unverified_and_the_case_fails(tmp_path):
    text = LINEAR.read_text() + "  invariants:\n    moon_is_cheese: true\n"
    result = only_result(write_fixture(tmp_path, text))
    assert result.outcome == "failed" and result.counts()["unverified"] == 1
    assert "not implemented: predicate 'moon_is_cheese'" in result.reason


def test_a_not_shipped_proposal_is_a_recognized_skip(tmp_path):
    text = LINEAR.read_text().replace("reducer: append, default: []}", "reducer: {bounded_append: {max_len: 2}}, default: []}", 1)
    result = only_result(write_fixture(tmp_path, text))
    assert result.outcome == "skipped"
    assert "0023" in result.reason and "bounded_append" in result.reason


def test_a_fixture_that_does_not_load_is_one_error_case(tmp_path):
    result = only_result(write_fixture(tmp_path, "entry: a\nentry: b\n"))
    assert (result.outcome, result.category) == ("error", "fixture_schema_invalid")
    assert str(result.location).endswith("001-case.yaml:2:1")


def test_two_runs_give_identical_outcomes(shared_spec):
    refs = [c for f in discover([str(shared_spec)], ["graph-engine"]) for c in cases_of(f)]
    refs += [c for f in discover([str(BUNDLED_SPEC)]) for c in cases_of(f)]
    first = [(r.ref.id, r.outcome, r.reason) for r in run_all(refs)]
    second = [(r.ref.id, r.outcome, r.reason) for r in run_all(refs)]
    assert first == second


def test_cli_run_writes_the_json_report(tmp_path, capsys):
    report = tmp_path / "report.json"
    expectations = str(REPO / "oa-expectations-bundled.toml")  # the bundled cases that find a runtime deviation
    assert cli(["run", str(BUNDLED_SPEC), "--expectations", expectations, "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"graph-engine\s+\d+\s+0\s+0\s+0", out)
    data = json.loads(report.read_text())
    assert data["adapter"] == {"name": "oa-conformance", "version": "0.1.0", "spec_version": "0.118.2"}
    assert data["host"]["name"] == "openarmature" and data["host"]["version"] == "0.17.0"
    # the run: when, over which roots, with which expectations files (the report page's header)
    assert data["run"]["roots"] == [str(BUNDLED_SPEC)] and data["run"]["expectations"] == [expectations]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", data["run"]["started"])
    case = data["cases"][0]
    assert set(case) >= {"fixture", "case", "outcome", "category", "reason", "checks", "duration_s"}
    assert case["fixture"].startswith("graph-engine/conformance/") and set(case["checks"]) == {"verified", "failed", "unverified", "warning"}


def test_cli_run_exit_status_and_keyword_selection(tmp_path, capsys):
    text = LINEAR.read_text().replace("count: 2\n", "count: 3\n")
    ref = write_fixture(tmp_path, text)
    assert cli(["run", str(tmp_path / "spec")]) == 1
    assert cli(["run", str(tmp_path / "spec"), "-k", "not linear and not case"]) == 2  # nothing matches
    assert cli(["run", str(tmp_path / "spec"), "-k", "001-case"]) == 1
    assert "FAILED  graph-engine/001-case" in capsys.readouterr().out
    assert Path(ref.path).exists()


def test_pytest_plugin_items_failures_and_load_errors(pytester, tmp_path):
    good = LINEAR.read_text()
    write_fixture(tmp_path, good, name="001-good.yaml")
    write_fixture(tmp_path, good.replace("count: 2\n", "count: 3\n"), name="002-wrong.yaml")
    write_fixture(tmp_path, "entry: a\nentry: b\n", name="003-broken.yaml")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--oa-spec-root={tmp_path / 'spec'}", "-v")
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "001-good.yaml::001-good PASSED" in out
    assert "final_state.count: expected 3, got 2" in out
    assert re.search(r">\s+\d+ \|\s+count: 3", out)  # the fixture snippet, failing line marked
    assert "duplicate key 'entry'" in out
    assert "Traceback" not in out and "oa_conformance/" not in out.replace(str(tmp_path), "")


def test_pytest_plugin_markers_select_by_capability(pytester, tmp_path):
    write_fixture(tmp_path, LINEAR.read_text(), name="001-good.yaml")
    result = pytester.runpytest("-p", "no:cacheprovider", f"--oa-spec-root={tmp_path / 'spec'}", "-m", "pipeline_utilities")
    result.assert_outcomes()
    assert "1 deselected" in result.stdout.str()


def test_wrap_with_middleware_logs_markers_around_the_node(tmp_path):
    from oa_conformance.interpreter.static.scenarios import scenarios
    from oa_conformance.pipeline import read_fixture
    from oa_conformance.interpreter.running.execute import execute_case

    text = LINEAR.read_text().replace(
        "  second:\n", "  second:\n    wrap_with_middleware:\n      - {name: outer, pre_log: outer.pre, post_log: outer.post}\n"
        "      - {name: inner, pre_log: inner.pre, post_log: inner.post}\n", 1)
    ref = write_fixture(tmp_path, text)
    assert only_result(ref).outcome == "passed"
    trace = execute_case(scenarios(read_fixture(ref.path).fixture)[0])
    markers = [entry[1] for entry in trace.middleware_log if entry[0] == "marker"]
    assert markers == ["outer.pre", "inner.pre", "inner.post", "outer.post"]


def test_a_projection_on_a_plain_node_is_not_silently_ignored(tmp_path):
    text = LINEAR.read_text().replace("  third:\n", "  third:\n    projects_in: [count]\n", 1)
    result = only_result(write_fixture(tmp_path, text))
    assert result.outcome == "failed" and "not implemented: projects_in on a node that runs no subgraph" in result.reason


def test_a_case_asks_for_its_directory_harness_once(tmp_path, monkeypatch):
    """The not-implemented gate, the execute pass and the case's facts share the one contract."""
    from oa_conformance.interpreter.running import capabilities

    asked = []

    class Harnesses(dict):
        def get(self, capability, default=None):
            asked.append(capability)
            return super().get(capability, default)

    monkeypatch.setattr(capabilities, "HARNESSES", Harnesses(capabilities.HARNESSES))
    assert only_result(write_fixture(tmp_path, LINEAR.read_text(), capability="observability")).outcome == "passed"
    assert asked == ["observability"]


def test_an_adapter_bug_errors_one_case_and_names_itself(tmp_path, monkeypatch):
    import oa_conformance.interpreter.running.execute as execute  # the runner imports it when a case runs

    def broken(scenario, timeout, contract=None):
        raise RuntimeError("simulated adapter bug")

    monkeypatch.setattr(execute, "execute_case", broken)
    result = only_result(write_fixture(tmp_path, LINEAR.read_text()))
    assert (result.outcome, result.category) == ("error", "adapter_internal_error")
    assert "RuntimeError: simulated adapter bug" in result.reason and str(result.location).endswith(":1:1")  # the case: the whole file


def test_an_exception_the_runtime_raises_while_the_case_is_set_up_fails_the_case(tmp_path, monkeypatch):
    """The runtime rejecting what a valid fixture builds is the runtime's outcome, not the adapter's
    bug: raised from openarmature's own code, the case fails (and blames the runtime)."""
    from openarmature.graph import GraphBuilder

    def rejecting(self, *args, **kwargs):
        raise ValueError("simulated runtime rejection")

    monkeypatch.setattr(GraphBuilder, "add_node", rejecting)
    rejecting.__code__ = rejecting.__code__.replace(co_filename=GraphBuilder.compile.__code__.co_filename)
    result = only_result(write_fixture(tmp_path, LINEAR.read_text()))
    assert result.outcome == "failed" and result.category is None, (result.outcome, result.reason)
    assert "the runtime raised ValueError while the case was set up: simulated runtime rejection" in result.reason


def test_a_rule_that_raises_errors_one_case_instead_of_escaping_run_case(tmp_path, monkeypatch):
    """run_case never raises: a rule's bug in the assert pass (the mutation audit found one, a
    determinism check unpacking a one-run `compare_runs`) is an adapter error of that case."""
    from oa_conformance.assertions.rules import ValueRule

    def broken(self, ctx, bindings):
        raise ValueError("simulated rule bug")

    monkeypatch.setattr(ValueRule, "evaluate", broken)
    result = only_result(write_fixture(tmp_path, LINEAR.read_text()))
    assert (result.outcome, result.category) == ("error", "adapter_internal_error")
    assert "assert pass ValueError: simulated rule bug" in result.reason and str(result.location).endswith(":1:1")
