"""The Langfuse capture, the typed-event collectors and their shapes: fault-injected copies of real
observability fixtures fail at the line of the broken expectation; the provider-faithful Langfuse
client never reaches a network and leaves the global OTel provider as it found it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from oa_conformance.model.discovery import FixtureRef
from oa_conformance.pipeline import cases_of, run_case

from .conftest import shared_fixture

BASIC = "observability/conformance/022-langfuse-basic-trace.yaml"
DETACHED = "observability/conformance/033-langfuse-detached-trace-mode.yaml"


def write(tmp_path: Path, text: str, name: str = "022-langfuse-basic-trace.yaml") -> FixtureRef:
    directory = tmp_path / "spec" / "observability" / "conformance"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return FixtureRef(str(path), "observability", name)


def results(ref: FixtureRef):
    return [run_case(case, timeout=30) for case in cases_of(ref)]


def check(result, name: str):
    found = [c for c in result.checks if c.name == name]
    assert found, [c.name for c in result.checks]
    return found[0]


def line_of(text: str, needle: str, after: int = 0) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if n > after and needle in line)


def basic_text() -> str:
    return shared_fixture(BASIC).read_text(encoding="utf-8")


def test_the_langfuse_trace_of_a_real_fixture_is_verified(tmp_path):
    result, = results(write(tmp_path, basic_text()))
    assert check(result, "expected.langfuse_trace").status == "verified"


def test_a_wrong_observation_name_fails_at_its_line(tmp_path):
    text = basic_text()
    line = line_of(text, 'name: "b"', after=line_of(text, "observations:"))
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace('"b"', '"bee"')
    result, = results(write(tmp_path, "".join(lines)))
    failed = check(result, "expected.langfuse_trace")
    assert failed.status == "failed" and failed.location.line == line
    assert "observations[1].name: expected 'bee', got 'b'" in failed.detail


def test_a_missing_metadata_key_fails_at_its_line(tmp_path):
    text = basic_text()
    anchor = line_of(text, "step: 2")
    lines = text.splitlines(keepends=True)
    lines.insert(anchor, lines[anchor - 1].replace("step: 2", "retried_by: harness"))
    result, = results(write(tmp_path, "".join(lines)))
    failed = check(result, "expected.langfuse_trace")
    assert failed.status == "failed" and failed.location.line == anchor + 1
    assert "metadata.retried_by" in failed.detail and "<absent>" in failed.detail


def test_serial_siblings_are_matched_in_their_order(tmp_path):
    text = basic_text()
    observations = line_of(text, "observations:")
    first, second = line_of(text, 'name: "a"', observations), line_of(text, 'name: "b"', observations)
    lines = text.splitlines(keepends=True)
    block = second - first  # each observation block has the same length
    lines[first - 2:first - 2 + block], lines[second - 2:second - 2 + block] = lines[second - 2:second - 2 + block], lines[first - 2:first - 2 + block]
    result, = results(write(tmp_path, "".join(lines)))
    assert check(result, "expected.langfuse_trace").status == "failed"


def test_detached_subgraph_names_mean_the_nodes_running_them(tmp_path):
    from oa_conformance.interpreter.running.capabilities.langfuse_capture import detached_nodes

    ref = write(tmp_path, shared_fixture(DETACHED).read_text(encoding="utf-8"), "033-langfuse-detached-trace-mode.yaml")
    subgraph_case, fan_out_case = (case.scenario for case in cases_of(ref))
    assert detached_nodes(subgraph_case, subgraph_case.view.detached_subgraphs, fan_outs=False) == {"dispatch"}
    assert detached_nodes(fan_out_case, fan_out_case.view.detached_fan_outs, fan_outs=True) == {"per_document_scoring"}


# ---- typed-event collectors ---------------------------------------------------------------------

TYPED = """
typed_observers:
  - name: collector
    kind: typed_event_collector
    filter_event_type: NodeEvent
"""

TYPED_EXPECTED = """
  observers:
    collector:
      contains_event:
        event_type: NodeEvent
        fields:
          node_name: b
          phase: completed
          namespace: [b]
      event_count: {event_type: NodeEvent, count: 6}
      contains_events_in_order:
        event_type: NodeEvent
        events:
          - {node_name: a, phase: started}
          - {node_name: a, phase: completed}
          - {node_name: b, phase: started}
          - {node_name: b, phase: completed}
          - {node_name: c, phase: started}
          - {node_name: c, phase: completed}
      relative_order_of_events_matching:
        filter: {node_name: c}
        expected_order:
          - {event_type: NodeEvent, phase: started}
          - {event_type: NodeEvent, phase: completed}
      every_captured_event_has:
        attempt_index: 0
      captured_event_field_values_cover:
        field: node_name
        values: [a, b, c]
"""


def typed_text(expected: str = TYPED_EXPECTED) -> str:
    """The basic Langfuse fixture with a typed-event collector and assertions on it."""
    text = basic_text()
    return text.replace("initial_state: {}\n", "initial_state: {}\n" + TYPED).replace("expected:\n", "expected:" + expected, 1)


def typed_names(result) -> dict[str, str]:
    return {c.name: c.status for c in result.checks if c.name.startswith("expected.observers")}


def test_typed_event_assertions_over_a_real_run_are_verified(tmp_path):
    result, = results(write(tmp_path, typed_text()))
    statuses = typed_names(result)
    assert len(statuses) == 6 and set(statuses.values()) == {"verified"}, statuses


@pytest.mark.parametrize("fault, needle", [
    ("node_name: b\n          phase: completed", "node_name: bee\n          phase: completed"),  # a wrong field
    ("count: 6}", "count: 7}"),  # an extra event expected
    ("- {node_name: b, phase: completed}", "- {node_name: b, phase: started}"),  # a wrong event in a sequence
    ("values: [a, b, c]", "values: [a, b, c, d]"),  # a value never seen
    ("attempt_index: 0\n", "attempt_index: 1\n"),  # a value some event lacks
])
def test_a_wrong_typed_event_expectation_fails_at_its_line(tmp_path, fault, needle):
    original = typed_text()
    text = original.replace(fault, needle, 1)
    changed = next(n for n, (a, b) in enumerate(zip(original.splitlines(), text.splitlines()), 1) if a != b)
    result, = results(write(tmp_path, text))
    failed = [c for c in result.checks if c.name.startswith("expected.observers") and c.status == "failed"]
    assert len(failed) == 1, typed_names(result)
    assert failed[0].location.line == changed


def test_an_empty_collector_fails_every_captured_event_has(tmp_path):
    text = typed_text().replace("filter_event_type: NodeEvent", "filter_event_type: LlmCompletionEvent")
    result, = results(write(tmp_path, text))
    assert typed_names(result)["expected.observers.collector.every_captured_event_has"] == "failed"


# ---- the provider-faithful client (proposal 0115) -----------------------------------------------

ISOLATION = """
langfuse_client:
  mode: {mode}
langfuse_observer:
  disable_provider_payload: false
caller_global_otel_active: true
"""


def isolation_text(mode: str, expected: str) -> str:
    text = basic_text().replace("initial_state: {}\n", "initial_state: {}\n" + ISOLATION.format(mode=mode))
    return text.replace("  invariants:", f"  {expected}: true\n  invariants:", 1)


@pytest.fixture
def no_network(monkeypatch):
    """Any socket connection attempt is recorded (and refused)."""
    attempts = []

    def refuse(self, address, *args):
        attempts.append(address)
        raise OSError("the tests allow no network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


def global_provider():
    from opentelemetry import trace

    return trace.get_tracer_provider()


@pytest.mark.parametrize("mode, expected", [
    ("credentials", "no_langfuse_observations_on_global"),
    ("credentials", "no_langfuse_observations_on_private"),
    ("supplied", "langfuse_observations_on_global"),
])
def test_the_sdk_client_reaches_no_network_and_leaves_the_global_provider(tmp_path, no_network, mode, expected):
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case

    before = global_provider()
    ref = write(tmp_path, isolation_text(mode, expected))
    result, = results(ref)
    assert check(result, f"expected.{expected}").status == "verified", result.reason
    assert check(result, "expected.langfuse_trace").status == "verified", result.reason
    trace = execute_case(cases_of(ref)[0].scenario, 30, harness_for("observability"))
    langfuse = trace.collections["langfuse"]
    assert langfuse["http_requests"] == [] and no_network == []
    assert any(k.startswith("langfuse.observation.") for span in langfuse["exported"] for k in span["attributes"])
    assert global_provider() is before


def test_a_leak_the_isolation_forbids_fails_the_case(tmp_path, no_network):
    # mode supplied on the global provider: the observations DO reach the global exporter
    result, = results(write(tmp_path, isolation_text("supplied", "no_langfuse_observations_on_global")))
    failed = check(result, "expected.no_langfuse_observations_on_global")
    assert failed.status == "failed" and "langfuse" in failed.detail.lower()


def test_an_absence_without_a_langfuse_client_is_not_evidence(tmp_path):
    text = basic_text().replace("initial_state: {}\n", "initial_state: {}\ncaller_global_otel_active: true\n")
    result, = results(write(tmp_path, text.replace("  invariants:", "  no_langfuse_observations_on_global: true\n  invariants:", 1)))
    failed = check(result, "expected.no_langfuse_observations_on_global")
    assert failed.status == "failed" and "nothing to compare" in failed.detail


# ---- prompts in observability graphs ------------------------------------------------------------

ACTIVE_PROMPT = "observability/conformance/064-llm-completion-event-active-prompt-populated.yaml"
PROMPT_GROUP = "observability/conformance/066-llm-completion-event-active-prompt-group-populated.yaml"


def node_spec(relative: str, tmp_path: Path, directive: str):
    ref = write(tmp_path, shared_fixture(relative).read_text(encoding="utf-8"), Path(relative).name)
    scenario = cases_of(ref)[0].scenario
    node = next(decl for _, decl in scenario.get("nodes").items() if decl.get(directive) is not None)
    return scenario, node.get(directive)


def render_in_node(scenario, directive: str, spec):
    """Run one prompt directive inside a node body's scope; what was active inside and after."""
    import asyncio

    from openarmature.prompts.context import current_prompt_group, current_prompt_result

    from oa_conformance.interpreter.running.behaviors import NodeContext
    from oa_conformance.interpreter.running.node_table import NODE_DIRECTIVES
    from oa_conformance.interpreter.running.capabilities.observability_prompts import open_prompts

    async def run():
        async with open_prompts(scenario, None):
            ctx = NodeContext("node", None, None, {}, None)
            with ctx.scope:
                await NODE_DIRECTIVES[directive](ctx, spec)
                inside = (current_prompt_result(), current_prompt_group(), ctx.prompt)
        return inside, (current_prompt_result(), current_prompt_group())

    return asyncio.run(run())


def test_renders_prompt_binds_the_rendered_prompt_for_the_rest_of_the_node_only(tmp_path):
    scenario, spec = node_spec(ACTIVE_PROMPT, tmp_path, "renders_prompt")
    (active, group, rendered), after = render_in_node(scenario, "renders_prompt", spec)
    assert (active.name, active.version, active.template_hash) == ("classify", "v7", "abc123")
    assert rendered is active and group is None and "weather" in active.messages[0].content
    assert after == (None, None)


def test_renders_prompt_group_binds_the_group_and_its_active_member(tmp_path):
    scenario, spec = node_spec(PROMPT_GROUP, tmp_path, "renders_prompt_group")
    (active, group, _), after = render_in_node(scenario, "renders_prompt_group", spec)
    assert active.name == "classify" and group.group_name == "classification_pipeline" and len(group.members) == 2
    assert after == (None, None)


# ---- faults in real typed-event and Langfuse fixtures driven by the mock provider -----------------

REAL_FAULTS = [
    # (fixture, original line text, faulty text, the check that must fail)
    ("050-llm-completion-event-dispatch.yaml", "response_id: cc-050-id", "response_id: cc-other-id",
     "expected.observers.collector.contains_event"),
    ("053-llm-completion-event-no-event-on-failure.yaml", "error_category: provider_unavailable", "error_category: provider_rate_limit",
     "expected.node_completed_event_carries_error.error_category"),
    ("023-langfuse-generation-rendering.yaml", 'response_model: "test-model-v2"', 'response_model: "test-model-v3"',
     "expected.langfuse_trace"),
    # A Compute row's boolean is compared, not only the trace read (the mutation audit found rows
    # that verified whatever boolean the fixture gave: tests/test_catalogue.py now flips every one).
    ("022-langfuse-basic-trace.yaml", "trace_id_equals_invocation_id_dashes_stripped: true",
     "trace_id_equals_invocation_id_dashes_stripped: false", "expected.invariants.trace_id_equals_invocation_id_dashes_stripped"),
    ("067-llm-completion-event-call-id-always-present-and-distinct.yaml", "all_call_ids_present: true",
     "all_call_ids_present: false", "expected.invariants.all_call_ids_present"),
    ("053-llm-completion-event-no-event-on-failure.yaml", "no_typed_event_on_failure: true",
     "no_typed_event_on_failure: false", "expected.invariants.no_typed_event_on_failure"),
]


@pytest.mark.parametrize("fixture, original, faulty, failing", REAL_FAULTS)
def test_a_fault_in_a_real_provider_fixture_fails_at_its_line(tmp_path, fixture, original, faulty, failing):
    text = shared_fixture(f"observability/conformance/{fixture}").read_text(encoding="utf-8")
    assert original in text
    line = line_of(text, original)
    faulted = text.replace(original, faulty, 1)
    for result in results(write(tmp_path, faulted, fixture)):
        found = [c for c in result.checks if c.name == failing]
        if found:
            assert found[0].status == "failed" and found[0].location.line == line, found[0]
            return
    pytest.fail(f"no {failing} check")


def test_the_unfaulted_provider_fixtures_pass(tmp_path):
    for fixture, *_ in REAL_FAULTS:
        text = shared_fixture(f"observability/conformance/{fixture}").read_text(encoding="utf-8")
        outcomes = [r.outcome for r in results(write(tmp_path, text, fixture))]
        assert outcomes[0] == "passed", (fixture, outcomes)


def test_a_payload_that_must_be_suppressed_made_present_fails(tmp_path):
    # 083: with the payload disabled the Embedding observation's input is null; turning the payload
    # on in the same case makes the suppressed input present, and the case fails at `input: null`.
    fixture = "083-langfuse-embedding-observation.yaml"
    text = shared_fixture(f"observability/conformance/{fixture}").read_text(encoding="utf-8")
    faulted = text.replace("      disable_provider_payload: true\n", "      disable_provider_payload: false\n", 1)
    assert faulted != text
    result = results(write(tmp_path, faulted, fixture))[0]
    failed = check(result, "expected.langfuse_trace")
    assert failed.status == "failed" and failed.location.line == line_of(faulted, "input: null")


BRANCHES = "observability/conformance/030-caller-metadata-parallel-branches-per-branch.yaml"
SERIAL = "observability/conformance/034-caller-metadata-open-span-update-serial.yaml"
NOT_AUGMENTED = ("        shared_parent_spans_not_augmented: true\n        invocation_span_not_augmented: true\n"
                 "        fan_out_node_shared_parent_not_augmented: true\n        sibling_branch_isolated_from_probe_augmentation: true\n")


def test_augmentation_never_reaching_a_shared_parent_is_verified_and_an_updated_trace_fails_it(tmp_path):
    # Each branch augments branchName: neither the Trace nor the parallel-branches NODE carries it.
    text = shared_fixture(BRANCHES).read_text(encoding="utf-8") + NOT_AUGMENTED
    result, = results(write(tmp_path, text, "030-caller-metadata-parallel-branches-per-branch.yaml"))
    assert check(result, "expected.invariants.invocation_span_not_augmented").status == "verified"
    assert check(result, "expected.invariants.shared_parent_spans_not_augmented").status == "verified"
    fan_out = check(result, "expected.invariants.fan_out_node_shared_parent_not_augmented")  # the case has no fan-out node
    assert fan_out.status == "failed" and "no NODE observation: none carries fan_out_item_count" in fan_out.detail
    assert check(result, "expected.invariants.sibling_branch_isolated_from_probe_augmentation").status == "verified"
    # Both branches writing one value: it shows in two sibling subtrees its parent does not carry.
    leaked = text.replace('branchName: "policy_audit"', 'branchName: "fraud_check"', 1)
    leaked = leaked.replace("        fan_out_node_shared_parent_not_augmented: true\n", "")
    result, = results(write(tmp_path, leaked, "030-caller-metadata-parallel-branches-per-branch.yaml"))
    isolated = check(result, "expected.invariants.sibling_branch_isolated_from_probe_augmentation")
    assert isolated.status == "failed" and "branchName='fraud_check' under both 'fraud_check'" in isolated.detail, isolated.detail
    # A serial node augments in the outermost context: the open Trace is updated in place.
    text = shared_fixture(SERIAL).read_text(encoding="utf-8") + "        invocation_span_not_augmented: true\n"
    result, = results(write(tmp_path, text, "034-caller-metadata-open-span-update-serial.yaml"))
    updated = check(result, "expected.invariants.invocation_span_not_augmented")
    assert updated.status == "failed" and "the Trace carries requestId='req-xyz'" in updated.detail, updated.detail
