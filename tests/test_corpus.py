"""The whole shared corpus and the bundled spec: every fixture reads cleanly, and the AST
survives dumping and re-reading."""

from __future__ import annotations

import json

import pytest
import yaml

from oa_conformance.ast.dump import dump_text, from_data, to_data, unparse
from oa_conformance.model.discovery import discover
from oa_conformance.pipeline import read_fixture

from .conftest import BUNDLED_SPEC


# Shared fixtures that do not read because the fixture is wrong (with the evidence in
# oa-expectations.toml): name → the problem that must be reported for it.
UNREADABLE: dict[str, str] = {}  # none since user-defined record types read (§5.2: 052's list<error_entry>)


def corpus(shared_spec, readable_only: bool = False):
    return [ref for ref in discover([str(shared_spec)]) if not (readable_only and ref.name in UNREADABLE)]


def test_the_unreadable_shared_fixtures_report_why(shared_spec):
    for ref in corpus(shared_spec):
        if ref.name in UNREADABLE:
            assert any(UNREADABLE[ref.name] in p.message for p in read_fixture(ref.path, capability=ref.capability).diagnostics)


def test_the_shared_corpus_has_every_capability(shared_spec):
    capabilities = {ref.capability for ref in corpus(shared_spec)}
    assert {"graph-engine", "pipeline-utilities", "observability", "llm-provider", "retrieval-provider",
            "prompt-management", "sessions", "suspension", "harness", "harness-chat"} <= capabilities
    assert len(corpus(shared_spec)) >= 400


def test_every_shared_fixture_reads_with_zero_problems(shared_spec):
    problems = []
    for ref in corpus(shared_spec, readable_only=True):
        problems.extend(read_fixture(ref.path, capability=ref.capability).diagnostics)
    assert problems == [], "\n".join(str(p) for p in problems[:40])


def test_every_bundled_fixture_reads_with_zero_problems():
    refs = discover([str(BUNDLED_SPEC)])
    assert refs
    for ref in refs:
        assert read_fixture(ref.path, capability=ref.capability).diagnostics == ()


def _round_trips(ref):
    fixture = read_fixture(ref.path, capability=ref.capability).fixture
    assert fixture is not None
    # JSON dump → re-read: an equal AST.
    assert from_data(json.loads(json.dumps(to_data(fixture)))) == fixture
    # Fixture YAML re-serialised from the AST → re-read: an equal AST (spans differ, unequal by design).
    text = yaml.safe_dump(unparse(fixture), sort_keys=False, allow_unicode=True)
    again = read_fixture(ref.path, text, capability=ref.capability)
    assert again.diagnostics == () and again.fixture == fixture
    assert dump_text(fixture)  # the text dump renders every node class


def test_every_shared_fixture_round_trips(shared_spec):
    for ref in corpus(shared_spec, readable_only=True):
        _round_trips(ref)


def test_every_bundled_fixture_round_trips():
    for ref in discover([str(BUNDLED_SPEC)]):
        _round_trips(ref)


def test_round_trip_would_notice_a_change():
    ref = discover([str(BUNDLED_SPEC)])[0]
    fixture = read_fixture(ref.path, capability=ref.capability).fixture
    data = to_data(fixture)
    data["order"] = list(reversed(data["order"]))
    assert from_data(data) != fixture


@pytest.mark.parametrize("family", ["node", "expected"])
def test_directive_document_order_is_kept(family):
    text = """\
state: {fields: {v: {type: int, default: 0}}}
entry: a
nodes:
  a: {update_pure: {v: 2}, update: {v: 1}}
edges: [{from: a, to: END}]
expected: {execution_order: [a], final_state: {v: 1}}
"""
    fixture = read_fixture("order.yaml", text).fixture
    node = fixture.nodes.get("a")
    section = node if family == "node" else fixture.expected
    expected_order = ("update_pure", "update") if family == "node" else ("execution_order", "final_state")
    assert section.order == expected_order
    assert [name for name, _ in section.items()] == list(expected_order)
