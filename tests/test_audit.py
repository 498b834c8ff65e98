"""The mutation audit (``tools/audit.py``, ``./dev audit``): every expectation of a bounded slice of
the target corpus fails when its value changes, and the audit itself fails when a rule stops
comparing."""

from __future__ import annotations

import pytest

from oa_conformance.assertions.rules import Check, CheckStatus, ValueRule
from oa_conformance.model.discovery import discover
from oa_conformance.verdicts.expectations import load_all
from oa_conformance.host.manifest import runtime_version
from oa_conformance.pipeline import cases_of
from tools import audit

from .conftest import REPO

# The slice: whole capabilities whose cases call a provider or a prompt backend directly or run
# small graphs without deliberate sleeps — every case of them, chosen by directory, not by timing
# (about 450 mutants in a few seconds).
SLICE = ("prompt-management", "llm-provider")
EXPECTATIONS = str(REPO / "oa-expectations.toml")


def cases(root, capabilities=None, keyword=None):
    return [case for fixture in discover([str(root)], capabilities) for case in cases_of(fixture)
            if keyword is None or keyword in case.id]


def test_no_expectation_of_the_slice_survives_its_mutation(target_spec):
    result = audit.audit(cases(target_spec, SLICE), load_all([EXPECTATIONS], runtime_version()), workers=8, lists=True)
    assert len(result.passing) > 100 and len(result.verdicts) > 450, audit.render(result)
    assert any(m.new == "without its last item" for m in (v.mutant for v in result.verdicts))
    assert result.clean, audit.render(result)


def test_a_rule_that_always_verifies_is_reported_as_a_survivor(shared_spec, monkeypatch, capsys):
    """The audit can fail: with the value rules verifying whatever the fixture says, the mutants of
    ``execution_order`` survive, each reported at its leaf's path:line:col, and the tool exits 1."""
    fixture = shared_spec / "spec/graph-engine/conformance/001-linear-static-flow.yaml"
    text = fixture.read_text(encoding="utf-8")
    monkeypatch.setattr(ValueRule, "evaluate", lambda self, ctx, bindings: ((Check(self.name, CheckStatus.VERIFIED, self.span),), bindings))
    result = audit.audit(cases(fixture))
    survivors = {m.expectation: m for m in result.survivors}
    assert "expected.execution_order" in survivors, audit.render(result)
    survivor = survivors["expected.execution_order"]
    line = next(n for n, content in enumerate(text.splitlines(), 1) if content.strip().startswith("execution_order:"))
    assert (survivor.line, survivor.old, survivor.new) == (line, "a", '"a-mutated"')
    assert str(survivor) == f"{fixture}:{line}:{survivor.column} expected.execution_order: mutation 'a' -> '\"a-mutated\"' still passes"
    assert not result.clean
    assert audit.main([str(fixture), "--expectations", ""]) == 1
    out = capsys.readouterr().out
    assert "survivors:" in out and str(survivor) in out


def test_the_unpatched_fixture_has_no_survivor(shared_spec, capsys):
    fixture = shared_spec / "spec/graph-engine/conformance/001-linear-static-flow.yaml"
    assert audit.main([str(fixture), "--expectations", ""]) == 0
    assert "survivors:" not in capsys.readouterr().out


# ---- the mutation generator's rules, on small fixtures ---------------------------------------

FIXTURE = """\
spec_version: "0.1.0"
expected:
  concurrency_invariant:
    max_in_flight: 2
  pair: {calls: [0, 1]}
  wire_absent_keys: [top_n, dimensions]
  note: |
    first line
    second line
"""


@pytest.mark.parametrize("value, path, want", [
    (2, ("concurrency_invariant", "max_in_flight"), -1),  # an upper bound tightens below any count: +1 would loosen it
    (4, ("drain_summary", "undelivered_count_min"), 1_000_004),  # a lower bound rises past any count
    (0, ("pair", "calls"), 1),  # [1, 1]: a call compared with itself, which the rules refuse
    (True, ("flag",), False),
    ("x", ("name",), "x-mutated"),
    (None, ("name",), "mutated"),
])
def test_mutated_values(value, path, want):
    from oa_conformance.ast.nodes import Scalar

    assert audit.mutated_value(audit.Leaf(Scalar(value=value), path)) == want


def test_names_under_an_excluding_key_and_alternatives_are_neutral_and_booleans_are_not():
    from oa_conformance.ast.nodes import Scalar

    assert audit.leaf_neutral(("expected_wire_request_absent_keys",), Scalar(value="top_n"))
    assert audit.leaf_neutral(("error_category_not",), Scalar(value="node_exception"))
    assert not audit.leaf_neutral(("no_typed_event_on_failure",), Scalar(value=True))
    assert not audit.leaf_neutral(("final_state", "notes"), Scalar(value="x"))  # a word, not a prefix
    assert audit.leaf_neutral(("instances", "state_one_of"), Scalar(value="in_flight"))  # one alternative of several


def test_edits_land_at_the_leaf_and_keep_the_rest_of_the_text():
    extents = audit.scalar_extents(FIXTURE)
    lines = FIXTURE.splitlines()
    from oa_conformance.ast.nodes import Scalar

    flow = next((line, column) for (line, column, *drop) in extents if not drop and lines[line - 1][column - 1:].startswith("top_n"))
    text, old, new = audit.edit(FIXTURE, extents[flow], audit.Leaf(Scalar(value="top_n"), ("k",)))
    assert (old, new) == ("top_n", '"top_n-mutated"')
    assert text.splitlines()[flow[0] - 1] == '  wire_absent_keys: ["top_n-mutated", dimensions]'
    block = next(key for key, extent in extents.items() if extent[2] == "|")
    text, old, new = audit.edit(FIXTURE, extents[block], audit.Leaf(Scalar(value="first line\nsecond line\n"), ("note",)))
    assert (old, new) == ("first line", "first line-mutated")
    assert text == FIXTURE.replace("first line", "first line-mutated")


def test_a_list_loses_its_last_item_unless_its_items_are_each_to_be_found():
    from oa_conformance.interpreter.static.loader import load_bytes

    text = """\
execution_order: [a, b, c]
required_keys: [id, model]
deliveries:
  - {step: 0}
  - {step: 1}
"""
    tree = load_bytes(text).tree
    extents = audit.scalar_extents(text)
    order = audit.list_to_shorten("execution_order", tree.get("execution_order"))
    assert order is not None
    new, old, _ = audit.edit(text, extents[(order.node.span.line, order.node.span.column, audit.DROP)], order)
    assert (new.splitlines()[0], old) == ("execution_order: [a, b]", "a list of 3")
    block = audit.list_to_shorten("deliveries", tree.get("deliveries"))
    new, _, _ = audit.edit(text, extents[(block.node.span.line, block.node.span.column, audit.DROP)], block)
    assert new.endswith("  - {step: 0}\n")
    assert audit.list_to_shorten("required_keys", tree.get("required_keys")) is None  # one fewer is present too
    assert audit.list_to_shorten("metrics", tree.get("execution_order")) is None
