"""`oa-conformance diff OLD.json NEW.json`: the verdicts that changed, grouped by capability, each
new failure with its first finding; exit 1 only when a verdict got worse, 2 for what is no report."""

from __future__ import annotations

import json

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli

from .conftest import BUNDLED_SPEC


def case(fixture: str, name: str | None, outcome: str, category: str | None = None, findings=(), reason=None) -> dict:
    return {"fixture": fixture, "case": name, "outcome": outcome, "category": category, "reason": reason,
            "findings": [{"location": loc, "message": msg} for loc, msg in findings]}


GE = "graph-engine/conformance/001-linear.yaml"
LP = "llm-provider/conformance/010-wire.yaml"


def write(tmp_path, name: str, cases: list[dict], host: dict | None = None):
    path = tmp_path / name
    path.write_text(json.dumps({"host": host or {"name": "openarmature", "version": "0.17.0"}, "cases": cases}))
    return str(path)


def test_a_verdict_that_got_worse_is_listed_with_its_first_finding_and_exits_1(tmp_path, capsys):
    old = write(tmp_path, "old.json", [case(GE, "a", "passed"), case(GE, "b", "skipped"), case(LP, None, "failed"),
                                       case(LP.replace("010", "011"), None, "xfail")])
    new = write(tmp_path, "new.json", [
        case(GE, "a", "failed", findings=[("f.yaml:3:5", "final_state.x: expected 1,\n got 2"), ("f.yaml:9:5", "second")]),
        case(GE, "b", "skipped"),
        case(LP, None, "passed"),
        case(LP.replace("010", "011"), None, "failed", category="not_implemented", reason="not implemented: stream_body"),
    ], host={"name": "openarmature", "version": "0.17.0", "installed": {"kind": "editable", "path": "/co"},
             "proposals_from": {"source": "checkout", "path": "/co/conformance.toml"}})
    assert cli(["diff", old, new]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [f"old: {old}: openarmature 0.17.0",
                         f"new: {new}: openarmature 0.17.0, editable /co; skips by checkout /co/conformance.toml"]
    assert lines[2:] == [
        "", "graph-engine",
        "  passed -> failed  graph-engine/001-linear[a]",
        "    f.yaml:3:5: final_state.x: expected 1, got 2",
        "", "llm-provider",
        "  failed -> passed  llm-provider/010-wire",
        "  xfail -> not implemented  llm-provider/011-wire",
        "    not implemented: stream_body",
        "", "3 verdicts changed: 2 worse, 1 better, 0 other; 0 cases only in new, 0 only in old; 4 cases in both",
    ]


def test_better_and_sideways_changes_exit_0_and_added_cases_are_listed_not_counted(tmp_path, capsys):
    old = write(tmp_path, "old.json", [case(GE, "a", "failed"), case(GE, "b", "passed"), case(GE, "gone", "passed")])
    new = write(tmp_path, "new.json", [case(GE, "a", "error", reason="adapter error"), case(GE, "b", "skipped"),
                                       case(GE, "added", "failed", reason="boom")])
    assert cli(["diff", old, new]) == 0
    out = capsys.readouterr().out
    assert "  failed -> error  graph-engine/001-linear[a]\n    adapter error\n" in out
    assert "  passed -> skipped  graph-engine/001-linear[b]\n" in out
    assert "  (new case) -> failed  graph-engine/001-linear[added]\n    boom\n" in out
    assert "  passed -> (gone)  graph-engine/001-linear[gone]\n" in out
    assert out.endswith("2 verdicts changed: 0 worse, 0 better, 2 other; 1 case only in new, 1 only in old; 2 cases in both\n")


def test_same_exits_1_on_any_difference_and_0_on_none(tmp_path, capsys):
    """Two builds that must judge alike (a wheel and an editable checkout of it)."""
    one = write(tmp_path, "one.json", [case(GE, "a", "passed"), case(GE, "b", "failed")])
    sideways = write(tmp_path, "two.json", [case(GE, "a", "skipped"), case(GE, "b", "failed")])
    assert cli(["diff", one, sideways]) == 0
    assert cli(["diff", "--same", one, sideways]) == 1
    assert cli(["diff", "--same", one, one]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("text,problem", [
    (None, "cannot read it"),
    ("{not json", "not JSON"),
    ('{"cases": {}}', "no 'cases' list"),
    ('[1, 2]', "no 'cases' list"),
    ('{"cases": [{"outcome": "passed"}]}', "a case without fixture and outcome"),
])
def test_what_is_not_a_report_is_a_usage_error(tmp_path, capsys, text, problem):
    good = write(tmp_path, "good.json", [case(GE, "a", "passed")])
    bad = tmp_path / "bad.json"
    if text is not None:
        bad.write_text(text)
    assert cli(["diff", good, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"oa-conformance diff: {bad}: ") and problem in err


def test_a_real_report_against_itself_changes_nothing(tmp_path, capsys):
    report = tmp_path / "report.json"
    cli(["run", str(BUNDLED_SPEC), "-q", "--json", str(report)])
    capsys.readouterr()
    assert cli(["diff", str(report), str(report)]) == 0
    total = len(json.loads(report.read_text())["cases"])
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"0 verdicts changed: 0 worse, 0 better, 0 other; 0 cases only in new, 0 only in old; {total} cases in both")
