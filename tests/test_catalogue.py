"""The predicate catalogue: every row holds on its holding example and fails on its failing one;
the engine's guarantees (scoping by capability, absence needs an anchor, missing collections are
errors, restatements read their directive's verdicts) hold."""

from __future__ import annotations

import json
import re

import pytest

from oa_conformance.assertions import catalogue
from oa_conformance.assertions.catalogue import Resolved, all_rows, pattern_regex, resolve
from oa_conformance.assertions.catalogue.rows import Compute, Example, Query, Restates
from oa_conformance.assertions.catalogue.predicate_rules import (
    QueryRule,
    RestatesRule,
    row_problems,
    rule_for,
)
from oa_conformance.assertions.catalogue.scope import scope_from
from oa_conformance.assertions.catalogue.examples import node_event, one_run
from oa_conformance.assertions.matchers import NO_BINDINGS
from oa_conformance.assertions.rules import Check, CheckStatus
from oa_conformance.interpreter.static.loader import load_bytes

ROWS = list(all_rows())


def row_id(entry) -> str:
    capability, row = entry
    return f"{capability or 'canonical'}:{row.name}"


def ast_value(value):
    """A plain value as the fixture AST gives it to a rule."""
    return load_bytes(json.dumps({"v": value})).tree.get("v")


def concrete_name(row, example: Example) -> str:
    if example.name is not None:
        return example.name
    return re.sub(r"<([^>:]+)(:([^|>]+)[^>]*)?>", lambda m: m.group(3) or "x", re.sub(r"\[([^\]]*)\]", "", row.name))


def judge(capability, row, example: Example):
    name = concrete_name(row, example)
    found = pattern_regex(row.name).match(name) if pattern_regex(row.name) else None
    assert pattern_regex(row.name) is None or found, f"example name {name!r} does not match the pattern {row.name!r}"
    bindings = tuple(found.groupdict().items()) if found else ()
    rule = rule_for(Resolved(capability, row, bindings), name, ast_value(example.value), None)
    checks, _ = rule.judge(scope_from(example.document, example.invocation), NO_BINDINGS)
    return checks[0]


@pytest.mark.parametrize("entry", ROWS, ids=row_id)
def test_row_is_well_formed(entry):
    _, row = entry
    assert row_problems(row) == []


@pytest.mark.parametrize("entry", [e for e in ROWS if not isinstance(e[1], Restates)], ids=row_id)
def test_row_holds_and_fails_on_its_examples(entry):
    capability, row = entry
    assert row.holds is not None and row.fails is not None, "give the row holds= and fails= examples"
    held = judge(capability, row, row.holds)
    assert held.status == CheckStatus.VERIFIED, held.detail
    failed = judge(capability, row, row.fails)
    assert failed.status == CheckStatus.FAILED, f"the failing example verified: {failed}"
    assert failed.detail


def owner_with(directive: str):
    """A fixture section asserting ``directive`` (a dotted path) with some value."""
    data: dict = {}
    node = data
    parts = directive.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = 1
    return load_bytes(json.dumps(data)).tree


@pytest.mark.parametrize("entry", [e for e in ROWS if isinstance(e[1], Restates)], ids=row_id)
def test_restating_row_follows_its_directive(entry):
    capability, row = entry
    rule = RestatesRule(row.name, None, ast_value(row.value), row)
    owner = owner_with(row.directive)
    assert rule.judge(owner, [Check(row.directive, CheckStatus.VERIFIED, None)]).status == CheckStatus.VERIFIED
    assert rule.judge(owner, [Check(row.directive, CheckStatus.FAILED, None, "expected 1, got 2")]).status == CheckStatus.FAILED
    assert rule.judge(owner, []).status == CheckStatus.UNVERIFIED  # present in the fixture, but nothing checked it
    assert rule.judge(owner_with("expected.something_else"), [Check(row.directive, CheckStatus.VERIFIED, None)]).status == CheckStatus.UNVERIFIED
    other = RestatesRule(row.name, None, ast_value("not the covered value"), row)
    assert other.judge(owner, [Check(row.directive, CheckStatus.VERIFIED, None)]).status == CheckStatus.UNVERIFIED


def test_query_and_restates_rows_outnumber_compute_rows_three_to_one():
    computed = sum(isinstance(row, Compute) for _, row in ROWS)
    declarative = sum(isinstance(row, (Query, Restates)) for _, row in ROWS)
    assert declarative >= 3 * computed, f"{declarative} query/restates rows, {computed} compute rows"


ABSENT = Query("none_from_x", "no events from node x", "node_events[?node_name == 'x']", "absent", anchor="node_events")


def test_absence_over_an_empty_collection_fails():
    checks, _ = QueryRule("none_from_x", None, ast_value(True), ABSENT).judge(scope_from(one_run([]), 0), NO_BINDINGS)
    assert checks[0].status == CheckStatus.FAILED and "anchor" in checks[0].detail
    checks, _ = QueryRule("none_from_x", None, ast_value(True), ABSENT).judge(scope_from(one_run([node_event("y", "started")]), 0), NO_BINDINGS)
    assert checks[0].status == CheckStatus.VERIFIED


def test_a_failed_absence_shows_the_offending_items():
    document = one_run([node_event("y", "started"), node_event("x", "completed")])
    checks, _ = QueryRule("none_from_x", None, ast_value(True), ABSENT).judge(scope_from(document, 0), NO_BINDINGS)
    assert checks[0].status == CheckStatus.FAILED and "'node_name': 'x'" in checks[0].detail


def test_a_query_on_a_collection_the_case_did_not_record_cannot_pass():
    row = Query("no_wire_requests", "no request reached the wire", "wire.requests", "absent", anchor="wire")
    checks, _ = QueryRule(row.name, None, ast_value(True), row).judge(scope_from(one_run([]), 0), NO_BINDINGS)
    assert checks[0].status == CheckStatus.FAILED and "cannot evaluate" in checks[0].detail and "'wire'" in checks[0].detail


def test_invocation_is_absent_in_a_case_level_block():
    row = Query("completed", "the run completed", "invocation.outcome", "equals")
    checks, _ = QueryRule(row.name, None, ast_value("completed"), row).judge(scope_from(one_run([]), None), NO_BINDINGS)
    assert checks[0].status == CheckStatus.FAILED and "'invocation'" in checks[0].detail


def test_absent_rows_require_an_anchor():
    assert row_problems(Query("n", "d", "node_events", "absent")) == ["an absent comparison needs an anchor"]


def test_patterns_are_scoped_to_their_capability():
    # A pipeline-utilities pattern must not answer an observability fixture's predicate.
    name = "input_count_matches_input_list_length"
    assert resolve("observability", name) is None or resolve("observability", name).capability != "pipeline-utilities"
    assert resolve("graph-engine", "outer_node_events_count").capability is None  # §5.9 canonical: shared
    assert resolve("graph-engine", "outer_node_events_count").bindings == (("node", "outer"),)


def test_pattern_syntax():
    regex = pattern_regex("<node>[_node]_<field:fan_out_index|branch_name>_chains_seen")
    assert regex.match("inner_fan_out_node_fan_out_index_chains_seen").groupdict() == {"node": "inner_fan_out", "field": "fan_out_index"}
    assert regex.match("leaf_branch_name_chains_seen").groupdict() == {"node": "leaf", "field": "branch_name"}
    assert pattern_regex("plain_name") is None


def test_every_registered_table_is_a_tuple_of_rows():
    for capability in catalogue.TABLES:
        assert isinstance(catalogue.rows_of(capability), tuple)


def test_a_pipeline_utilities_pattern_never_answers_an_observability_name():
    from oa_conformance.assertions.catalogue.predicate_rules import predicate_rule

    name = "input_count_matches_input_list_length"
    assert resolve("pipeline-utilities", name).row.name == "<field>_list_length"
    rule = predicate_rule("observability", name, ast_value(True), None, "invariants")
    assert rule is not None and rule.row in catalogue.rows_of("observability")  # observability's own row


def test_one_predicate_block_builder_names_unknown_and_demotes_restating_rows_only_when_asked():
    from oa_conformance.assertions.catalogue.predicate_rules import predicate_block

    capability, row = next((c, r) for c in catalogue.TABLES for r in catalogue.rows_of(c) if isinstance(r, Restates) and "{" not in r.name)
    refs = ((row.name, ast_value(row.value), None), ("no_such_predicate_anywhere", ast_value(True), None))
    kept, unknown = predicate_block(capability, "expected.invariants", refs)
    assert kept.judged_last and unknown.name == "expected.invariants.no_such_predicate_anywhere"
    demoted, _ = predicate_block(capability, "expected.invariants", refs, restating=False)
    assert not demoted.judged_last and "not implemented" in demoted.reason


def test_the_reference_page_is_current():
    from pathlib import Path

    from oa_conformance.assertions.catalogue.reference import markdown

    page = Path(__file__).resolve().parent.parent / "docs" / "PREDICATES.md"
    assert page.read_text() == markdown(), "regenerate it: .venv/bin/oa-lint --list-predicates > docs/PREDICATES.md"


RESTATED = Restates("log_holds_every_node", "the final log names every node", "expected.final_state.log")
FIXTURE = """\
state:
  fields:
    log: {type: list<string>, reducer: append, default: []}
entry: a
nodes:
  a: {update: {log: ["a"]}}
  b: {update: {log: ["b"]}}
edges:
  - {from: a, to: b}
  - {from: b, to: END}
initial_state: {}
expected:
  %s
  invariants:
    log_holds_every_node: true
"""


def restating(monkeypatch):
    """The graph-engine table answers one extra name with a restating row."""
    from oa_conformance.assertions.catalogue import predicate_rules as engine

    real = engine.resolve

    def resolve_with(capability, name):
        return Resolved(capability, RESTATED) if name == RESTATED.name else real(capability, name)

    monkeypatch.setattr(engine, "resolve", resolve_with)
    monkeypatch.setattr(catalogue, "resolve", resolve_with)


def run_fixture(tmp_path, final_state: str, fixture: str = FIXTURE):
    from oa_conformance.model.discovery import discover
    from oa_conformance.pipeline import cases_of, run_case

    path = tmp_path / "spec" / "graph-engine" / "conformance" / "901-restated.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fixture % final_state)
    (ref,) = cases_of(discover([str(tmp_path)])[0])
    return run_case(ref)


@pytest.mark.parametrize("final_state, outcome, status", [
    ("final_state: {log: [a, b]}", "passed", CheckStatus.VERIFIED),
    ("final_state: {log: [a, c]}", "failed", CheckStatus.FAILED),  # the restated expectation fails: so does the predicate
    ("execution_order: [a, b]", "failed", CheckStatus.UNVERIFIED),  # the case does not assert the restated directive
])
def test_a_restating_row_in_a_real_case(monkeypatch, tmp_path, final_state, outcome, status):
    restating(monkeypatch)
    result = run_fixture(tmp_path, final_state)
    assert result.outcome == outcome
    (check,) = [c for c in result.checks if c.name.endswith(RESTATED.name)]
    assert check.status == status


def test_p002_reports_a_restating_predicate_without_its_directive(monkeypatch, tmp_path):
    from oa_conformance.frontends.lint import lint_paths, Selection

    restating(monkeypatch)
    path = tmp_path / "spec" / "graph-engine" / "conformance" / "901-restated.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(FIXTURE % "execution_order: [a, b]")
    found = [d for d in lint_paths([str(path.parent)], Selection.parse(["P002"], [])).diagnostics]
    assert [d.code for d in found] == ["P002"] and "expected.final_state.log" in found[0].message
    path.write_text(FIXTURE % "final_state: {log: [a, b]}")
    assert not lint_paths([str(path.parent)], Selection.parse(["P002"], [])).diagnostics


@pytest.mark.parametrize("entry", [e for e in ROWS if not isinstance(e[1], Restates) and isinstance(e[1].holds.value, bool)],
                         ids=row_id)
def test_boolean_row_fails_on_the_other_boolean(entry):
    """A row whose value is a boolean compares it: on the trace where it holds as ``true``, the
    fixture's ``false`` fails (and the other way round) — a check that reads only the trace would
    verify whatever the fixture says (the mutation audit, ``./dev audit``, found such rows)."""
    capability, row = entry
    flipped = Example(row.holds.document, not row.holds.value, row.holds.invocation, row.holds.name)
    found = judge(capability, row, flipped)
    assert found.status == CheckStatus.FAILED, f"{row.name}: the fixture's {str(flipped.value).lower()} verified on the holding example"
    assert found.detail


def test_a_rule_outside_the_assert_pass_has_no_document_and_cannot_pass():
    """The trace document reaches rules only through the assert pass's context: no cache to fall back on."""
    from oa_conformance.assertions.rules import Context
    from oa_conformance.model.trace import CaseTrace

    checks, _ = QueryRule("none_from_x", None, ast_value(True), ABSENT).check(Context(CaseTrace(), None), NO_BINDINGS)
    assert checks[0].status == CheckStatus.FAILED and "no trace document" in checks[0].detail


def test_the_assert_pass_thaws_the_trace_once_per_case(monkeypatch, tmp_path):
    """Every catalogue rule of a case reads the one document the assert pass built for it; a second
    run of the same case builds its own (nothing kept between cases)."""
    from oa_conformance.assertions import assert_pass

    built = []
    real = assert_pass.document

    def counting(trace):
        built.append(trace)
        return real(trace)

    monkeypatch.setattr(assert_pass, "document", counting)
    fixture = FIXTURE.replace("  invariants:\n    log_holds_every_node: true\n",
                              "  invariants:\n    a_node_events_count: 2\n    b_node_events_count: 2\n")
    for _ in range(2):
        result = run_fixture(tmp_path, "final_state: {log: [a, b]}", fixture)
        assert result.outcome == "passed", [str(c) for c in result.checks]
    assert len(built) == 2 and built[0] is not built[1]
