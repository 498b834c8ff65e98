"""The supported surface is one table: each vocabulary row names its handler (``handled_by``), the
interpreter's explicit tables hold exactly the keys the rows name, and every list of supported
directives the gates read is derived from the rows."""

from __future__ import annotations

import dataclasses

import pytest

from oa_conformance.assertions.rule_builders import RULE_BUILDERS
from oa_conformance.assertions.shapes import SHAPES
from oa_conformance.interpreter.running import execute, node_table
from oa_conformance.interpreter.running.capabilities import HARNESSES
from oa_conformance.interpreter.running.capabilities.captures import CAPTURES
from oa_conformance.model.vocabulary import MODULES, VOCABULARY, Vocabulary
from oa_conformance.model.vocabulary.handlers import NOT_EXECUTED, node
from oa_conformance.model.vocabulary.registry import GENERAL_KINDS, GENERAL_PASSES, Handler, Judged

from . import faults


def surface_problems(vocabulary: Vocabulary, node_directives: dict, node_middleware: dict, captures: dict, harnesses: dict,
                     rule_builders: dict = RULE_BUILDERS, shapes: dict = SHAPES) -> list[str]:
    """Every way the rows and the interpreter's and the assert pass's tables disagree (empty when they agree)."""
    problems = []
    for directive in vocabulary.all_directives():
        for family in directive.where:
            if not directive.handlers_in(family):
                problems.append(f"{family}.{directive.name}: no handler and not marked not_executed")
    tables = {"node": node_directives, "node_middleware": node_middleware, "capture": captures,
              "direct": harnesses, "case_expectation": harnesses, **{kind: harnesses for kind in GENERAL_KINDS}}
    for kind, table in tables.items():
        for key in sorted(vocabulary.keys_of(kind) - {""} - set(table)):
            problems.append(f"handler {kind}:{key} names no table entry")
    for kind, table in (("node", node_directives), ("node_middleware", node_middleware)):
        for key in sorted(set(table) - vocabulary.keys_of(kind)):
            problems.append(f"{kind} table entry {key!r} has no vocabulary row")
    listed = {name for harness in harnesses.values() for name in harness.captures}
    problems += [f"capture {name!r} is entered by no harness" for name in sorted(set(captures) - listed)]
    problems += [f"a harness lists unknown capture {name!r}" for name in sorted(listed - set(captures))]
    return problems + expectation_problems(vocabulary, rule_builders, shapes)


def expectation_problems(vocabulary: Vocabulary, rule_builders: dict, shapes: dict) -> list[str]:
    """The expectation rows against the rule builder table and the shape table, both ways: a row's
    builder key names a builder, every builder is named by a row; an ``expected:`` key naming the
    shape builder has a shape (general or its directory's), one not executed has none; every shape
    is some row's (an ``expected:`` key, or a case-level directive of its directory)."""
    problems = []
    named = vocabulary.keys_of("expectation")
    problems += [f"handler expectation:{key} names no rule builder" for key in sorted(named - set(rule_builders))]
    problems += [f"rule builder {key!r} has no vocabulary row" for key in sorted(set(rule_builders) - named)]
    for directive in vocabulary.directives_of("expected"):
        kinds = {(h.kind, h.key) for h in directive.handlers_in("expected")}
        shaped = directive.name in shapes or (directive.capability, directive.name) in shapes
        if ("expectation", "shape") in kinds and not shaped:
            problems.append(f"expected.{directive.name}: names the shape builder, and no shape has its name")
        if ("not_executed", "") in kinds and shaped:
            problems.append(f"expected.{directive.name}: not executed, yet a shape has its name")
    for key in shapes:
        capability, name = key if isinstance(key, tuple) else (None, key)
        if all(vocabulary.lookup(family, name, capability) is None for family in ("expected", "fixture", "case")):
            problems.append(f"shape {key!r} has no vocabulary row")
    return problems


def _tables() -> tuple:
    return node_table.NODE_DIRECTIVES, node_table.NODE_MIDDLEWARE, CAPTURES, HARNESSES


def _doctored(name: str, family: str, handled_by) -> Vocabulary:
    """The vocabulary with the row ``name`` of ``family`` given other handlers."""
    target = VOCABULARY.lookup(family, name)
    rows = [dataclasses.replace(d, handled_by=handled_by) if d is target else d
            for module in MODULES for d in module.DIRECTIVES]
    return Vocabulary((f for module in MODULES for f in module.FAMILIES), rows)


def test_rows_and_tables_agree():
    assert surface_problems(VOCABULARY, *_tables()) == []


def test_a_row_without_a_handler_is_reported():
    doctored = _doctored("clock_stub", "case", ())
    assert "case.clock_stub: no handler and not marked not_executed" in surface_problems(doctored, *_tables())


def test_a_handler_naming_no_table_entry_is_reported():
    doctored = _doctored("update", "node", node("no_such_behaviour"))
    problems = surface_problems(doctored, *_tables())
    assert "handler node:no_such_behaviour names no table entry" in problems
    assert "node table entry 'update' has no vocabulary row" in problems


def test_an_expectation_row_naming_no_rule_builder_is_reported():
    doctored = _doctored("expected_compile_error", "case", Handler("expectation", "no_such_builder"))
    problems = surface_problems(doctored, *_tables())
    assert "handler expectation:no_such_builder names no rule builder" in problems
    assert "rule builder 'compile_error' has no vocabulary row" in problems


def test_an_expected_key_without_its_shape_is_reported():
    shapes = {key: build for key, build in SHAPES.items() if key != "final_state"}
    problems = surface_problems(VOCABULARY, *_tables(), RULE_BUILDERS, shapes)
    assert problems == ["expected.final_state: names the shape builder, and no shape has its name"]


def test_a_shape_without_a_row_is_reported():
    shapes = {**SHAPES, "no_such_expectation": SHAPES["final_state"], ("graph-engine", "first_trace_unchanged"): SHAPES["final_state"]}  # observability's own key
    problems = surface_problems(VOCABULARY, *_tables(), RULE_BUILDERS, shapes)
    assert problems == ["shape 'no_such_expectation' has no vocabulary row", "shape ('graph-engine', 'first_trace_unchanged') has no vocabulary row"]


def test_a_not_executed_expected_key_with_a_shape_is_reported():
    doctored = _doctored("final_state", "expected", NOT_EXECUTED)
    assert "expected.final_state: not executed, yet a shape has its name" in surface_problems(doctored, *_tables())


def test_a_table_entry_without_a_row_is_reported():
    node_directives = {**node_table.NODE_DIRECTIVES, "unlisted": node_table.NODE_DIRECTIVES["noop"]}
    problems = surface_problems(VOCABULARY, node_directives, *_tables()[1:])
    assert problems == ["node table entry 'unlisted' has no vocabulary row"]


def test_a_row_marked_not_executed_fails_its_case_at_the_directive(tmp_path, monkeypatch):
    """The gate reads the derived set: the same row marked not_executed fails a real fixture at it."""
    text = faults.target_text("pipeline-utilities", "012-timing-middleware-basic-firing.yaml")
    doctored = _doctored("clock_stub", "case", NOT_EXECUTED)
    derived = doctored.handled_by("fixture", GENERAL_PASSES) | doctored.handled_by("case", GENERAL_PASSES)
    assert derived == execute.CASE_DIRECTIVES - {"clock_stub"}
    monkeypatch.setattr(execute, "CASE_DIRECTIVES", derived)
    results = faults.run_text(tmp_path, text, "pipeline-utilities")
    assert any(r.reason == "not implemented: clock_stub" for r in results), [r.reason for r in results]
    for result in results:
        faults.failed_at(result, faults.line_of(text, "clock_stub:"))


def test_a_node_directive_without_its_handler_fails_at_the_directive(tmp_path, monkeypatch):
    text = faults.target_text("graph-engine", "001-linear-static-flow.yaml")
    monkeypatch.setattr(node_table, "NODE_DIRECTIVES", {k: v for k, v in node_table.NODE_DIRECTIVES.items() if k != "update"})
    [result] = faults.run_text(tmp_path, text, "graph-engine")
    assert result.reason == "not implemented: update"
    faults.failed_at(result, faults.line_of(text, "update:"))


@pytest.mark.parametrize("capability", sorted(HARNESSES))
def test_each_harness_adds_only_rows_keyed_to_it(capability):
    harness = HARNESSES[capability]
    for name in harness.case_directives:
        rows = [(d, f) for f in ("fixture", "case") for d in VOCABULARY.directives_of(f) if d.name == name]
        keys = {h.key for d, f in rows for h in d.handlers_in(f)}
        assert keys & ({capability} | set(harness.captures)), (name, keys)


def test_handler_kinds_are_closed():
    with pytest.raises(ValueError):
        Handler("somewhere")
    with pytest.raises(ValueError):
        Handler("node")  # a keyed kind needs its table entry
    with pytest.raises(ValueError):
        Handler("part", "x")


def test_a_nested_not_executed_key_fails_its_case_at_the_key(tmp_path):
    """`fan_out.inner_subgraph` is a not_executed row: the case fails as not implemented at the key,
    the one verdict that kind gives (graph build no longer refuses it with a verdict of its own)."""
    text = faults.target_text("observability", "029-caller-metadata-fan-out-per-instance.yaml")
    [result] = faults.run_text(tmp_path, text, "observability")
    assert result.reason == "not implemented: fan_out.inner_subgraph", result.reason
    faults.failed_at(result, faults.line_of(text, "inner_subgraph:"))



CASE_LEVEL = ("fixture", "case", "invocation")


def test_every_case_level_expectation_row_has_a_place_in_the_assert_plan():
    """The assert pass judges a case-level expectation directive only where its row says
    (``Directive.judged``); a directory's own is judged by its directory's shapes."""
    placeless = [d.name for d in VOCABULARY.all_directives()
                 if set(d.where) & set(CASE_LEVEL) and any(h.kind == "expectation" for h in d.handled_by)
                 and not d.judged and d.scope != "directory"]
    assert placeless == []


def test_a_first_run_row_comes_first_in_its_slot_and_an_unknown_step_is_refused():
    slot = [row.name for row, place in VOCABULARY.judged_at("run_block") if place.order == 0]
    assert slot == ["first_run_expected", "expected"]
    with pytest.raises(ValueError, match="unknown assert step"):
        Judged("nowhere")
