"""Observability graphs built from name-listed parallel branches over `inner_subgraphs`, and the
reads node code makes (queryable observers, invocation metadata) recorded as data: real fixtures
pass, and fault-injected copies fail at the line of the expectation they break."""

from __future__ import annotations

from pathlib import Path

import pytest

from oa_conformance.model.discovery import FixtureRef

from .conftest import shared_fixture
from .test_observability_langfuse import check
from .test_observability_otel import only_result

CONFORMANCE = "spec/observability/conformance"
BRANCHES = "055-llm-completion-event-branch-name-population.yaml"
ASYNC_SAFETY = "048-queryable-observer-async-safety.yaml"


def faulted(tmp_path: Path, name: str, *replacements: tuple[str, str]) -> FixtureRef:
    """A copy of the shared fixture ``name`` with each ``(old, new)`` replaced (every occurrence)."""
    text = shared_fixture(f"observability/conformance/{name}").read_text()
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    directory = tmp_path / CONFORMANCE
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(text)
    return FixtureRef(str(directory / name), "observability", name)


def line_of(name: str, needle: str) -> int:
    text = shared_fixture(f"observability/conformance/{name}").read_text()
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


METADATA = "043-get-invocation-metadata-roundtrip.yaml"
TRACE_IO = "037-langfuse-trace-input-output.yaml"
RESUME = "resume_hooks_refire_to_resumed_trace"

REAL = [  # (fixture, case, the checks this module's mechanisms serve)
    (BRANCHES, None, ["expected.invariants.sibling_branches_have_distinct_branch_name"]),
    (ASYNC_SAFETY, None, ["expected.invariants.snapshot_total_equals_sum_of_breakdown",
                          "expected.invariants.read_does_not_raise_on_concurrent_write"]),
    (METADATA, None, ["expected.invariants.read_returns_immutable_mapping"]),
    (TRACE_IO, RESUME, ["invariants.hooks_refire_on_resumed_trace"]),
]


@pytest.mark.parametrize("fixture, case, names", REAL, ids=[r[0][:3] for r in REAL])
def test_the_real_fixture_passes_with_its_checks_verified(tmp_path, fixture, case, names):
    result = only_result(faulted(tmp_path, fixture), case)
    assert result.outcome == "passed", result.reason
    for name in names:
        assert check(result, name).status == "verified"


def test_a_listed_branch_name_is_the_branch_name_the_events_carry(tmp_path):
    # Branch and inner subgraph renamed together: the run works, the events say `slower`.
    ref = faulted(tmp_path, BRANCHES, ("            - slow\n", "            - slower\n"), ("      slow:\n", "      slower:\n"))
    failed = check(only_result(ref), "expected.observers.collector.captured_event_field_values_cover")
    assert failed.status == "failed" and failed.location.line == line_of(BRANCHES, "values: [fast, slow]")
    assert "slow" in failed.detail


def test_a_listed_branch_without_its_inner_subgraph_is_a_missing_harness_primitive(tmp_path):
    result = only_result(faulted(tmp_path, BRANCHES, ("      slow:\n", "      slower:\n")))
    assert result.outcome == "error" and result.category == "harness_primitive_missing"
    assert "'slow'" in result.reason and str(result.location).endswith(f":{line_of(BRANCHES, '            - slow')}:15")


def test_a_torn_snapshot_fails_the_consistency_invariant(tmp_path, monkeypatch):
    from oa_conformance.interpreter.running.capabilities.queryable_observers import TypedEventCounter

    def torn(self):  # the total moved on, the breakdown did not: a read landing mid-update
        return {"total": self.total + 1, "by_type": dict(self.by_type)}

    monkeypatch.setattr(TypedEventCounter, "get_snapshot", torn)
    result = only_result(faulted(tmp_path, ASYNC_SAFETY))
    failed = check(result, "expected.invariants.snapshot_total_equals_sum_of_breakdown")
    assert failed.status == "failed" and failed.location.line == line_of(ASYNC_SAFETY, "snapshot_total_equals_sum_of_breakdown")
    assert check(result, "expected.invariants.read_does_not_raise_on_concurrent_write").status == "verified"


def test_a_read_that_raises_fails_the_no_raise_invariant(tmp_path):
    # `get_count` is not a read method of the typed counter: the read raises in the node.
    result = only_result(faulted(tmp_path, ASYNC_SAFETY, ("method: get_snapshot", "method: get_count")))
    failed = check(result, "expected.invariants.read_does_not_raise_on_concurrent_write")
    assert failed.status == "failed" and failed.location.line == line_of(ASYNC_SAFETY, "read_does_not_raise_on_concurrent_write")
    assert "AttributeError" in failed.detail


def test_only_a_graph_declaring_no_state_accepts_undeclared_fields():
    import pydantic

    from oa_conformance.interpreter.running.graph_build import UndeclaredState, state_class

    open_state = state_class("Inner", None)
    assert issubclass(open_state, UndeclaredState)
    assert open_state.model_validate({"score": "ok"}).score == "ok"
    closed = state_class("Outer", _empty_state_section())
    with pytest.raises(pydantic.ValidationError):
        closed.model_validate({"score": "ok"})


def _empty_state_section():
    """The `state: {fields: {}}` section of a minimal fixture, read through the real passes."""
    from oa_conformance.pipeline import read_fixture

    text = b"state: {fields: {}}\nentry: a\nnodes: {a: {noop: true}}\nedges: [{from: a, to: END}]\ninitial_state: {}\nexpected: {final_state: {}}\n"
    read = read_fixture("x.yaml", text, capability="graph-engine")
    assert read.ok, read.diagnostics
    return read.fixture.state


def test_a_mutable_metadata_read_fails_the_immutability_invariant(tmp_path, monkeypatch):
    import openarmature.observability as observability

    real = observability.get_invocation_metadata
    monkeypatch.setattr(observability, "get_invocation_metadata", lambda: dict(real()))  # a plain, writable dict
    result = only_result(faulted(tmp_path, METADATA))
    failed = check(result, "expected.invariants.read_returns_immutable_mapping")
    assert failed.status == "failed" and failed.location.line == line_of(METADATA, "read_returns_immutable_mapping")
    assert "mutable_mapping" in failed.detail
    assert check(result, "expected.final_state").status == "verified"  # the probe's write never reaches the state


def test_the_mutation_probe_leaves_a_writable_mapping_as_it_was():
    from types import MappingProxyType

    from oa_conformance.interpreter.running.capabilities.metadata_reads import mutation_probe

    writable = {"tenantId": "T1"}
    assert mutation_probe(writable) == {"attempted": True, "succeeded": True, "exception": None}
    assert writable == {"tenantId": "T1"}
    refused = mutation_probe(MappingProxyType(writable))
    assert refused["succeeded"] is False and refused["exception"]["type"] == "TypeError"


def test_an_observer_that_does_not_refire_its_input_hook_fails_the_invariant(tmp_path, monkeypatch):
    from openarmature.observability.langfuse import LangfuseObserver

    real = LangfuseObserver._resolve_trace_input

    def once(self, event):  # the hook fires for the first run only; the resume gets the stub
        value = real(self, event)
        self.trace_input_from_state = None
        return value

    monkeypatch.setattr(LangfuseObserver, "_resolve_trace_input", once)
    result = only_result(faulted(tmp_path, TRACE_IO), RESUME)
    failed = check(result, "invariants.hooks_refire_on_resumed_trace")
    assert failed.status == "failed" and failed.location.line == line_of(TRACE_IO, "hooks_refire_on_resumed_trace: true")
    assert "its input hook calls returned []" in failed.detail
