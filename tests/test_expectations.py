"""The expectations file: known deviations become xfail, a listed case that passes is xpass and
fails the run (strict), unmatched entries are reported, a malformed file points at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.model.discovery import discover
from oa_conformance.verdicts.expectations import ExpectationsError, Expectations, load_all, load_expectations, parse_expectations
from oa_conformance.verdicts.expectations import judged as judged_case
from oa_conformance.host.manifest import runtime_version
from oa_conformance.pipeline import cases_of
from oa_conformance.scheduling.runner import run_all

from .conftest import BUNDLED_SPEC, REPO
from .test_run import LINEAR, write_fixture

SHIPPED = REPO / "oa-expectations.toml"  # openarmature 0.17.0 against the target, spec 0.118.2
OVERLAY_0_109 = REPO / "oa-expectations-spec-0.109.0.toml"  # the 0.109.0 corpus, read after it
BUNDLED = REPO / "oa-expectations-bundled.toml"  # the runtime violations the bundled spec/ finds
ENTRY = '["{id}"]\noutcome = "{outcome}"\nkind = "{kind}"\nreason = "{reason}"\n'


def expectations_file(tmp_path: Path, *entries: dict, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(ENTRY.format(**{"outcome": "fail", "kind": "fixture", "reason": "because", **e}) for e in entries))
    return path


def wrong_fixture(tmp_path: Path):
    return write_fixture(tmp_path, LINEAR.read_text().replace("count: 2\n", "count: 3\n"), name="001-wrong.yaml")


def test_a_listed_failing_case_is_xfail_with_the_reason(tmp_path, capsys):
    wrong_fixture(tmp_path)
    path = expectations_file(tmp_path, {"id": "graph-engine/001-wrong", "reason": "the fixture says 3"})
    report = tmp_path / "report.json"
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path), "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"XFAIL   graph-engine/001-wrong\n{' ' * 10}{path}:1: expected to fail [fixture]: the fixture says 3\n" in out
    assert "final_state.count: expected 3, got 2" in out  # what actually failed is still shown
    assert next(line for line in out.splitlines() if line.startswith("capability ")).split()[-2:] == ["xfail", "xpass"]
    case = json.loads(report.read_text())["cases"][0]
    assert case["outcome"] == "xfail"
    assert case["expectation"]["reason"] == "the fixture says 3" and case["expectation"]["kind"] == "fixture"
    assert case["expectation"]["location"] == f"{path}:1"


def test_a_listed_case_that_passes_is_xpass_and_fails_the_run(tmp_path, capsys):
    write_fixture(tmp_path, LINEAR.read_text(), name="001-good.yaml")
    path = expectations_file(tmp_path, {"id": "graph-engine/001-good"})
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"XPASS   graph-engine/001-good\n{' ' * 10}{path}:1: passed, but the expectations file lists it" in out


def test_without_the_entry_the_failing_case_fails_the_run(tmp_path):
    wrong_fixture(tmp_path)
    path = expectations_file(tmp_path, {"id": "graph-engine/999-other"})
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path)]) == 1


def test_a_case_level_entry_wins_over_the_fixture_entry_and_unmatched_entries_are_reported(tmp_path, capsys):
    entries = Expectations(entries=parse_expectations({
        "graph-engine/001-x": {"outcome": "fail", "kind": "runtime", "reason": "fixture-wide"},
        "graph-engine/001-x[one]": {"outcome": "skip", "kind": "adapter", "reason": "this case"},
        "graph-engine/002-typo": {"outcome": "fail", "kind": "fixture", "reason": "nowhere"},
    }, {}, "e.toml").entries)
    assert entries.lookup("graph-engine/001-x[one]").reason == "this case"
    assert entries.lookup("graph-engine/001-x[two]").reason == "fixture-wide"
    assert entries.lookup("graph-engine/003-y") is None
    assert [e.case_id for e in entries.unmatched(["graph-engine/001-x[two]"])] == ["graph-engine/001-x[one]", "graph-engine/002-typo"]
    assert entries.unmatched([], {"pipeline-utilities"}) == ()  # a run of another directory judges no entry here
    wrong_fixture(tmp_path)
    path = expectations_file(tmp_path, {"id": "graph-engine/001-wrong"}, {"id": "graph-engine/002-typo"})
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path)]) == 0
    assert f"{path}:6: expectation 'graph-engine/002-typo' matched no case of this run" in capsys.readouterr().out


def test_a_runtime_scoped_entry_applies_only_to_the_builds_it_names(tmp_path, capsys, monkeypatch):
    wrong_fixture(tmp_path)
    scoped = expectations_file(tmp_path, {"id": "graph-engine/001-wrong"})
    scoped.write_text(scoped.read_text() + 'runtime = "<0.17"\n')
    args = ["run", str(tmp_path / "spec"), "--expectations", str(scoped)]
    monkeypatch.setattr("oa_conformance.host.manifest.runtime_version", lambda: "0.16.0")
    assert cli(args) == 0 and "XFAIL   graph-engine/001-wrong" in capsys.readouterr().out
    monkeypatch.setattr("oa_conformance.host.manifest.runtime_version", lambda: "0.17.0")
    out = capsys.readouterr().out if cli(args) == 1 else "exit was not 1"
    assert "FAILED  graph-engine/001-wrong" in out and "matched no case" not in out  # out of scope: not stale either


def test_a_later_file_replaces_an_earlier_entry_for_the_same_id(tmp_path, capsys):
    wrong_fixture(tmp_path)
    base = expectations_file(tmp_path, {"id": "graph-engine/001-wrong", "reason": "from the base"}, name="base.toml")
    overlay = expectations_file(tmp_path, {"id": "graph-engine/001-wrong", "outcome": "skip", "reason": "from the overlay"},
                                name="overlay.toml")
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(base), "--expectations", str(overlay)]) == 0
    out = capsys.readouterr().out
    assert "SKIPPED graph-engine/001-wrong" in out and "from the overlay" in out and "from the base" not in out


def _with_checks(path: Path, checks: list[str]) -> Path:
    path.write_text(path.read_text().replace('kind = "fixture"\n', f'kind = "fixture"\nchecks = {checks!r}\n'.replace("'", '"'), 1))
    return path


def test_a_per_check_entry_is_xfail_when_exactly_its_checks_fail(tmp_path, capsys):
    wrong_fixture(tmp_path)
    path = _with_checks(expectations_file(tmp_path, {"id": "graph-engine/001-wrong"}), ["expected.final_state"])
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path)]) == 0
    assert "XFAIL   graph-engine/001-wrong" in capsys.readouterr().out


def test_a_failure_the_entry_does_not_list_fails_the_case(tmp_path, capsys):
    """web-platform-tests' subtest expectations: a new failure beside a known one is not hidden."""
    text = LINEAR.read_text().replace("count: 2\n", "count: 3\n").replace("execution_order: [first, second, third]",
                                                                          "execution_order: [first, third, second]")
    write_fixture(tmp_path, text, name="001-wrong.yaml")
    path = _with_checks(expectations_file(tmp_path, {"id": "graph-engine/001-wrong"}), ["expected.final_state"])
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path), "-q"]) == 1
    out = capsys.readouterr().out
    assert "FAILED  graph-engine/001-wrong" in out and "expected.execution_order" in out


def test_a_listed_check_that_passes_is_a_stale_xpass(tmp_path, capsys):
    wrong_fixture(tmp_path)
    path = _with_checks(expectations_file(tmp_path, {"id": "graph-engine/001-wrong"}),
                        ["expected.final_state", "expected.execution_order"])
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path), "-q"]) == 1
    out = capsys.readouterr().out
    assert "XPASS   graph-engine/001-wrong" in out and "listed checks passed: expected.execution_order" in out


def test_a_listed_check_covers_what_is_under_it_and_what_restates_it():
    from oa_conformance.assertions.rules import Check, CheckStatus

    entry = parse_expectations({"graph-engine/001-x": {"outcome": "fail", "kind": "runtime", "reason": "r",
                                                       "checks": ["expected_error", "expected.span_tree"]}}, {}, "e.toml").entries[0]
    assert entry.covers(Check("expected_error.category", CheckStatus.FAILED, None))
    assert entry.covers(Check("expected.invariants.p", CheckStatus.FAILED, None, "restates expected.span_tree, and expected.span_tree failed"))
    assert not entry.covers(Check("expected.span_tree_extra", CheckStatus.FAILED, None))
    assert not entry.covers(Check("expected.invariants.q", CheckStatus.FAILED, None, "restates expected.traces, and it failed"))


def test_a_skip_entry_does_not_run_the_case(tmp_path, capsys):
    wrong_fixture(tmp_path)
    path = expectations_file(tmp_path, {"id": "graph-engine/001-wrong", "outcome": "skip", "kind": "runtime", "reason": "hangs"})
    assert cli(["run", str(tmp_path / "spec"), "--expectations", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"SKIPPED graph-engine/001-wrong\n{' ' * 10}{path}:1: listed in the expectations file: expected to skip (runtime): hangs" in out


@pytest.mark.parametrize(("text", "line", "message"), [
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\n', 1, "missing required key 'reason'"),
    ('# c\n\n["graph-engine/001-x"]\noutcome = "flaky"\nkind = "fixture"\nreason = "r"\n', 3, "outcome 'flaky' is not one of fail, skip, pass"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "nobody"\nreason = "r"\n', 1, "kind 'nobody' is not one of runtime, fixture, adapter"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "  "\n', 1, "reason must be a non-empty string"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "r"\nwhy = "w"\n', 1, "unknown key 'why'"),
    ('["001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "r"\n', 1, "is not a case id"),
    ('outcome = "fail"\n', 1, "expected a table"),
    ('["graph-engine/001-x"]\noutcome = fail\n', 2, "invalid TOML"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "r"\nruntime = "before 0.17"\n', 1,
     "runtime 'before 0.17' is not a PEP 440 version specifier"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "r"\nruntime = 17\n', 1,
     "runtime 17 is not a PEP 440 version specifier"),
    ('["graph-engine/001-x"]\noutcome = "fail"\nkind = "fixture"\nreason = "r"\nchecks = []\n', 1,
     "checks must be a non-empty list of check names"),
    ('["graph-engine/001-x"]\noutcome = "skip"\nkind = "fixture"\nreason = "r"\nchecks = ["expected"]\n', 1,
     'checks apply to outcome "fail" only'),
])
def test_a_malformed_file_names_its_line_and_exits_2(tmp_path, capsys, text, line, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ExpectationsError) as raised:
        load_expectations(str(path))
    assert str(raised.value).startswith(f"{path}:{line}: ") and message in str(raised.value)
    assert cli(["run", str(BUNDLED_SPEC), "--expectations", str(path)]) == 2
    assert f"{path}:{line}: " in capsys.readouterr().err


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert cli(["run", str(BUNDLED_SPEC), "--expectations", str(tmp_path / "none.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_shipped_file_reads_and_every_entry_has_evidence():
    shipped = load_expectations(str(SHIPPED))
    assert len(shipped) >= 6
    assert {e.kind for e in shipped.entries} >= {"fixture", "runtime"}
    assert all(len(e.reason) > 40 for e in shipped.entries if e.kind != "adapter")


CAPABILITIES = ("graph-engine", "pipeline-utilities")


def test_the_shipped_file_makes_the_target_corpus_run_exit_0(target_spec, capsys):
    args = ["run", str(target_spec), "--expectations", str(SHIPPED), "--workers", "8"]
    assert cli(args + [f"--capability={c}" for c in CAPABILITIES]) == 0
    assert "XPASS" not in capsys.readouterr().out


def _each_entry_is_needed(root, files: list[Path], judged: Path) -> None:
    """Each entry of ``judged`` is load-bearing on ``root`` read with ``files``: without it, some case
    of the run fails (and every entry matches a case)."""
    shipped = load_all([str(f) for f in files], runtime_version())  # as the run reads them
    version = runtime_version()
    own = Expectations(str(judged), tuple(e for e in load_expectations(str(judged)).entries  # those for this build
                                          if e.holds_for(version) and e.outcome != "pass"))
    listed = sorted({e.case_id.split("/", 1)[0] for e in own.entries})  # every directory with an entry
    refs = [c for f in discover([str(root)], listed) for c in cases_of(f)]
    raw = list(run_all(refs, workers=8))
    assert not own.unmatched(r.ref.id for r in raw)
    def fails(expectations: Expectations, result) -> bool:  # as a run judges it: skip entries first
        return judged_case(result.ref, expectations, lambda ref: result).fails_run

    for entry in own.entries:
        without = Expectations(shipped.path, tuple(e for e in shipped.entries if e.case_id != entry.case_id))
        assert any(fails(without, r) for r in raw), f"{entry.case_id} is not needed"
    assert not any(fails(shipped, r) for r in raw)


def test_removing_any_shipped_entry_makes_the_target_run_fail(target_spec):
    _each_entry_is_needed(target_spec, [SHIPPED], SHIPPED)


def test_removing_any_overlay_entry_makes_the_0_109_run_fail(shared_spec):
    _each_entry_is_needed(shared_spec, [SHIPPED, OVERLAY_0_109], OVERLAY_0_109)


def test_removing_any_bundled_entry_makes_the_bundled_run_fail():
    """A known runtime violation a bundled case finds is a failing case with its entry (issue 32)."""
    _each_entry_is_needed(BUNDLED_SPEC, [BUNDLED], BUNDLED)


def test_the_cli_exits_1_when_a_shipped_entry_is_removed(target_spec, tmp_path):
    """The command-line form of the removal check, on one listed fixture."""
    text = SHIPPED.read_text()
    start = text.index('["pipeline-utilities/006-middleware-error-recovery"]')
    end = text.index("\n[", start + 1)
    without = tmp_path / "without-006.toml"
    without.write_text(text[:start] + text[end + 1:])
    args = ["run", str(target_spec), "--capability", "pipeline-utilities", "-k", "006-middleware-error-recovery"]
    assert cli(args + ["--expectations", str(SHIPPED)]) == 0
    assert cli(args + ["--expectations", str(without)]) == 1


def test_the_cli_judges_entries_against_every_case_read_and_only_fixtures_it_can_judge(tmp_path, capsys):
    """`-k` deselects no entry; a fixture given as a file says nothing about its neighbours; a
    directory read in full still reports an entry for a fixture no longer there."""
    wrong_fixture(tmp_path)
    good = write_fixture(tmp_path, LINEAR.read_text(), name="002-good.yaml")
    path = expectations_file(tmp_path, {"id": "graph-engine/001-wrong"}, {"id": "graph-engine/002-good[nope]"},
                             {"id": "graph-engine/003-gone"})

    def unmatched(*args: str) -> list[str]:
        cli(["run", *args, "--expectations", str(path), "-q"])
        return [line.split("'")[1] for line in capsys.readouterr().out.splitlines() if "matched no case" in line]

    spec = str(tmp_path / "spec")
    assert unmatched(spec) == ["graph-engine/002-good[nope]", "graph-engine/003-gone"]
    assert unmatched(spec, "-k", "002-good") == ["graph-engine/002-good[nope]", "graph-engine/003-gone"]
    assert unmatched(good.path) == ["graph-engine/002-good[nope]"]


# --- an entry pins what fails: its checks, or for a case that cannot run, its category ------------


def _result(case_id: str, outcome: str, category: str | None, reason: str = "why"):
    from oa_conformance.model.discovery import FixtureRef
    from oa_conformance.verdicts.outcomes import Outcome
    from oa_conformance.verdicts.results import CaseRef, CaseResult

    capability, rest = case_id.split("/", 1)
    ref = CaseRef(FixtureRef(f"{rest}.yaml", capability, f"{rest}.yaml"), None)
    return CaseResult(ref, Outcome(outcome), category=category, reason=reason)


def _pinned(category: str) -> Expectations:
    data = {"graph-engine/001-x": {"outcome": "fail", "kind": "fixture", "reason": "r", "category": category}}
    return parse_expectations(data, {"graph-engine/001-x": 3}, "exp.toml")


def test_a_whole_case_entry_excuses_only_the_category_it_pins():
    from oa_conformance.verdicts.expectations import judge

    pinned = _pinned("fixture_schema_invalid")
    assert judge(_result("graph-engine/001-x", "failed", "fixture_schema_invalid"), pinned).outcome == "xfail"
    other = judge(_result("graph-engine/001-x", "error", "adapter_internal_error", "boom"), pinned)
    assert other.outcome == "error"
    assert other.reason.startswith("the expectations entry (exp.toml:3) excuses a failure with category "
                                   "fixture_schema_invalid; the case failed with adapter_internal_error: boom")
    checks_failed = judge(_result("graph-engine/001-x", "failed", None), pinned)
    assert checks_failed.outcome == "failed" and "the case failed with failing checks" in checks_failed.reason


@pytest.mark.parametrize("body, message", [
    ({"checks": ["expected.x"], "category": "not_implemented"}, "category pins a whole-case failure"),
    ({"outcome": "skip", "category": "not_implemented"}, "category pins a whole-case failure"),
    ({"category": ""}, "category must be a non-empty string"),
])
def test_a_category_goes_only_on_a_whole_case_fail_entry(body, message):
    data = {"graph-engine/001-x": {"outcome": "fail", "kind": "fixture", "reason": "r", **body}}
    with pytest.raises(ExpectationsError, match=message) as caught:
        parse_expectations(data, {"graph-engine/001-x": 7}, "exp.toml")
    assert str(caught.value).startswith("exp.toml:7: ")


@pytest.mark.parametrize("path", [SHIPPED, OVERLAY_0_109, BUNDLED], ids=lambda p: p.name)
def test_every_shipped_fail_entry_pins_what_fails(path):
    unpinned = [e.case_id for e in load_expectations(str(path)).entries
                if e.outcome == "fail" and not e.checks and e.category is None]
    assert not unpinned, f"{path.name}: entries that excuse any failure (give checks or category): {unpinned}"


def test_an_extras_key_that_realizes_a_declared_field_needs_its_proposal(tmp_path):
    """llm-provider §6: an extras `stream` is managed only as the realization of complete(stream=…)
    (proposal 0062); without it the key is unmanaged pass-through, so the case is a recognized skip."""
    from oa_conformance.interpreter.running.features import needed_proposals
    from oa_conformance.pipeline import read_fixture

    body = ("cases:\n  - name: c\n    call:\n      operation: complete\n      messages: [{role: user, content: hi}]\n"
            "      config:\n        extras:\n          {key}: true\n    mock_provider: {responses: []}\n"
            "    expected: {raises: {category: provider_invalid_request}}\n")
    needs = {}
    for key in ("stream", "seed_like"):
        path = tmp_path / f"001-{key}.yaml"
        path.write_text(body.replace("{key}", key))
        read = read_fixture(str(path))
        assert read.fixture is not None, read.diagnostics
        needs[key] = needed_proposals("llm-provider", [read.fixture], None)
    assert "0062" in needs["stream"] and "0062" not in needs["seed_like"]


def test_outcomes_are_spelled_as_the_reports_write_them():
    """An outcome is an enum member everywhere; its value is what the JSON report, the table and
    ``expectations update`` read: renaming one would break every stored report."""
    from oa_conformance.assertions.rules import CheckStatus
    from oa_conformance.verdicts.outcomes import Outcome

    assert [str(o) for o in Outcome] == ["passed", "failed", "skipped", "error", "xfail", "xpass"]
    assert json.dumps({"outcome": Outcome.XFAIL, "status": CheckStatus.WARNING}) == '{"outcome": "xfail", "status": "warning"}'
    assert {o for o in Outcome if o.fails_run} == {Outcome.FAILED, Outcome.ERROR, Outcome.XPASS}
    assert {s for s in CheckStatus if s.holds} == {CheckStatus.VERIFIED, CheckStatus.WARNING}
