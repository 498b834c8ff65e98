"""Observability directives and fields the 0.118.2 corpus added (the `otel_observer` block, the
`await_event_delivery` barrier, the Langfuse `metadata_absent` field and the proposal-0118
predicates): each runs on a real target fixture, and a fault injected into that fixture's text or
into the runtime fails the case at the line that says what went wrong."""

from __future__ import annotations

import pytest

from .faults import failed_at, line_of, replace_value, run_text, target_text

OBS = "observability"


def _only(results):
    result, = results
    return result


def _case(results, name: str):
    return next(result for result in results if result.ref.name == name)


# ---------------------------------------------------------------------------------------------
# `otel_observer` (conformance-adapter §5.5): the OTel observer's own flags


def test_the_otel_observer_block_sets_the_payload_flag(tmp_path, target_spec):
    text = target_text(OBS, "013-otel-llm-payload-enabled.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    block = line_of(text, "otel_observer:")
    faulty = replace_value(text, block + 1, "disable_provider_payload", "true")
    failed_at(_only(run_text(tmp_path / "fault", faulty, OBS)), line_of(text, "openarmature.llm.output.content", after="span_tree:"))


def test_the_otel_observer_block_sets_the_genai_semconv_opt_out(tmp_path, target_spec):
    text = target_text(OBS, "021-otel-llm-disable-genai-semconv.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    faulty = replace_value(text, line_of(text, "otel_observer:") + 1, "disable_genai_semconv", "false")
    failed_at(_only(run_text(tmp_path / "fault", faulty, OBS)), line_of(text, '- "gen_ai.system"'))


def test_the_otel_observer_block_wins_over_the_case_level_key(tmp_path, target_spec):
    text = target_text(OBS, "013-otel-llm-payload-enabled.yaml")
    both = text.replace("    otel_observer:\n", "    disable_provider_payload: true\n    otel_observer:\n", 1)
    assert _only(run_text(tmp_path, both, OBS)).outcome == "passed"


def test_the_otel_observer_block_leaves_the_langfuse_observer_at_its_own_default(tmp_path, target_spec):
    """098's default-posture case withholds the Langfuse error_message; an OTel-side block that lets
    the OTel observer emit payload must not turn the Langfuse one on (each keeps its own copy)."""
    text = target_text(OBS, "098-langfuse-tool-observation.yaml")
    case = "failed_tool_default_posture_withholds_message_without_smuggling"
    anchor = line_of(text, "    entry: run_tool", after=f"name: {case}")
    with_block = text.splitlines(keepends=True)
    with_block.insert(anchor - 1, "    otel_observer:\n      disable_provider_payload: false\n")
    assert _case(run_text(tmp_path, "".join(with_block), OBS), case).outcome == "passed"


def _bundled_text(name: str) -> str:
    from pathlib import Path

    return (Path(__file__).parent.parent / "spec" / OBS / "conformance" / name).read_text(encoding="utf-8")


def test_the_otel_observer_block_sets_the_payload_cap(tmp_path):
    """`otel_observer: {payload_byte_cap}` reaches the runtime's `payload_max_bytes` (bundled 190): at
    the default cap the 300-byte output content is not truncated, so the case fails at that attribute."""
    text = _bundled_text("190-otel-payload-cap-per-attribute.yaml")
    case = "output_content_truncated_at_the_configured_cap"
    assert _case(run_text(tmp_path / "ok", text, OBS), case).outcome == "passed"
    faulty = replace_value(text, line_of(text, "payload_byte_cap:", after=f"name: {case}"), "payload_byte_cap", "65536")
    failed_at(_case(run_text(tmp_path / "fault", faulty, OBS), case), line_of(text, "openarmature.llm.output.content:", after="span_tree:"))


def test_a_payload_cap_under_the_minimum_is_refused_and_a_cap_at_it_is_not(tmp_path):
    """Bundled 191: 255 bytes is refused at construction (an uncategorized ValueError, named by
    `exception_kind`); at 256 the observer is built and the expectation fails at its line."""
    text = _bundled_text("191-otel-payload-cap-minimum-enforced.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    accepted = replace_value(text, line_of(text, "payload_byte_cap:", after="    otel_observer:"), "payload_byte_cap", "256")
    failed_at(_only(run_text(tmp_path / "accepted", accepted, OBS)), line_of(text, "expected_construction_error:"))


def test_an_exception_kind_alone_needs_an_uncategorized_refusal_of_that_type(tmp_path):
    text = _bundled_text("191-otel-payload-cap-minimum-enforced.yaml")
    other_type = replace_value(text, line_of(text, "exception_kind:"), "exception_kind", "TypeError")
    failed_at(_only(run_text(tmp_path / "type", other_type, OBS)), line_of(text, "expected_construction_error:"))
    categorized = text.replace("      exception_kind: ValueError\n", "      category: some_category\n      exception_kind: ValueError\n")
    failed_at(_only(run_text(tmp_path / "category", categorized, OBS)), line_of(text, "expected_construction_error:"))


def test_a_construction_error_expectation_naming_neither_category_nor_type_is_a_schema_problem(tmp_path):
    text = _bundled_text("191-otel-payload-cap-minimum-enforced.yaml")
    empty = text.replace("      exception_kind: ValueError\n", "      {}\n").replace("expected_construction_error:\n      {}", "expected_construction_error: {}")
    result = _only(run_text(tmp_path, empty, OBS))
    assert result.outcome == "error" and result.category == "fixture_schema_invalid", (result.outcome, result.reason)
    assert "needs one of 'category', 'exception_kind'" in result.reason


def test_enable_metrics_left_out_runs_the_observer_default_with_the_capture_attached(tmp_path):
    """Bundled 192 leaves `enable_metrics` out and expects no measurement; the metric capture is
    attached either way, so turning metrics on fails the case at `metrics: []`."""
    text = _bundled_text("192-otel-metrics-off-by-default.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    metered = text.replace("    initial_state: {}\n", "    initial_state: {}\n    enable_metrics: true\n", 1)
    failed_at(_only(run_text(tmp_path / "on", metered, OBS)), line_of(metered, "metrics: []"))


# ---------------------------------------------------------------------------------------------
# Langfuse `metadata_absent` and the proposal-0118 predicates (the harvested error_message follows
# the payload flag; error_type and the error category are never gated)


def _failed_check(result, name: str):
    return next(check for check in result.checks if check.name == name and check.status == "failed")


def _predicates_fail(result, *names: str) -> None:
    for name in names:
        assert _failed_check(result, f"expected.invariants.{name}"), name


WITHHELD = (  # fixture, case, the 0118 predicates it names beside `metadata_absent: [error_message]`
    ("159-langfuse-llm-failure-error-message.yaml", "llm_failure_error_message_omitted_under_default_posture",
     ("error_message_gated_by_provider_payload_flag", "error_category_retained_when_message_omitted")),
    ("123-langfuse-failed-generation-renders-output-usage-finish-reason.yaml",
     "failed_generation_payload_disabled_redacts_output_keeps_usage_finish_reason",
     ("error_message_withheld_with_output_under_payload_disabled",)),
    ("137-langfuse-embedding-failure-observation.yaml", "embedding_failure_renders_error_level_observation_payload_suppressed",
     ("error_type_in_metadata", "error_message_gated_by_provider_payload_flag")),
    ("138-langfuse-rerank-failure-observation.yaml", "rerank_failure_renders_error_level_observation_payload_suppressed",
     ("error_type_in_metadata", "error_message_gated_by_provider_payload_flag")),
    ("098-langfuse-tool-observation.yaml", "failed_tool_default_posture_withholds_message_without_smuggling",
     ("error_type_retained_under_default_posture", "error_message_gated_by_provider_payload_flag")),
)


def test_a_trace_carrying_a_key_its_metadata_absent_lists_fails_at_that_item(tmp_path):
    """`metadata_absent` on the Trace (the adapter's extension, bundled 188): naming a key the Trace
    does carry (the caller's tenantId) fails the case at that item; the bundled case passes as written."""
    from pathlib import Path

    text = (Path(__file__).parent.parent / "spec" / OBS / "conformance"
            / "188-langfuse-branch-augmentation-stays-in-its-branch.yaml").read_text(encoding="utf-8")
    case = "shared_parents_carry_no_branch_key"
    assert _case(run_text(tmp_path / "ok", text, OBS), case).outcome == "passed"
    wrong = text.replace('metadata_absent: ["fraudTag", "auditTag"]\n        observations:',
                         'metadata_absent: ["fraudTag", "tenantId"]\n        observations:', 1)
    assert wrong != text
    result = _case(run_text(tmp_path / "wrong", wrong, OBS), case)
    trace = _failed_check(result, "expected.langfuse_trace")
    assert "metadata_absent[tenantId]: expected absent, got present" in trace.detail, trace.detail
    assert "fraudTag" not in trace.detail
    line = line_of(wrong, 'metadata_absent: ["fraudTag", "tenantId"]')
    assert trace.location.line == line or f"(at {line}:" in trace.detail, (line, trace.location, trace.detail)


@pytest.mark.parametrize(("fixture", "case", "predicates"), WITHHELD, ids=[row[0][:3] for row in WITHHELD])
def test_an_error_message_emitted_under_the_default_posture_fails_at_metadata_absent(
        tmp_path, target_spec, monkeypatch, fixture, case, predicates):
    """The runtime's gate made to emit the harvested message whatever the flag: the case fails at
    its `metadata_absent` item, and so does each predicate restating it."""
    from openarmature.observability.langfuse.observer import LangfuseObserver

    text = target_text(OBS, fixture)
    assert _case(run_text(tmp_path / "ok", text, OBS), case).outcome == "passed"
    monkeypatch.setattr(LangfuseObserver, "_emits_harvested_error_message", lambda self: True)
    result = _case(run_text(tmp_path / "fault", text, OBS), case)
    line = line_of(text, "metadata_absent: [error_message]", after=f"name: {case}")
    trace = _failed_check(result, "expected.langfuse_trace")
    # The first mismatch may be elsewhere (a Tool observation also puts the message in statusMessage);
    # the metadata_absent item is named at its own line either way.
    assert trace.location.line == line or f"(at {line}:" in trace.detail, (line, trace.location, trace.detail)
    assert "metadata_absent[error_message]: expected absent, got present" in trace.detail
    _predicates_fail(result, *predicates)


TOOL_DEFAULT = "failed_tool_default_posture_withholds_message_without_smuggling"


@pytest.mark.parametrize(("old", "new", "predicate"), (
    ("statusMessage: null", 'statusMessage: "tool timed out"', "tool_failure_message_not_smuggled_into_status_message"),
    ('error_type: "TimeoutError"', 'error_type: "KeyError"', "error_type_retained_under_default_posture"),
))
def test_a_wrong_default_posture_tool_observation_fails_its_predicate(tmp_path, target_spec, old, new, predicate):
    text = target_text(OBS, "098-langfuse-tool-observation.yaml")
    expected_from = line_of(text, "langfuse_trace:", after=f"name: {TOOL_DEFAULT}")
    line = next(n for n, content in enumerate(text.splitlines(), 1) if n > expected_from and old in content)
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(old, new)
    result = _case(run_text(tmp_path, "".join(lines), OBS), TOOL_DEFAULT)
    failed_at(result, line)
    _predicates_fail(result, predicate)


def test_caller_metadata_missing_from_the_tool_observation_fails_its_predicate(tmp_path, target_spec):
    text = target_text(OBS, "098-langfuse-tool-observation.yaml")
    line = line_of(text, 'tenantId: "acme-corp"', after="langfuse_trace:")
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace('"acme-corp"', '"other-corp"')
    result = _case(run_text(tmp_path, "".join(lines), OBS), "tool_execution_renders_dedicated_tool_observation")
    failed_at(result, line)
    _predicates_fail(result, "caller_metadata_reaches_tool_observation")


# ---------------------------------------------------------------------------------------------
# `await_event_delivery` (conformance-adapter §5.1, proposal 0124): a judged barrier

BARRIER_FIXTURES = ("133-otel-nested-fan-out-orphan-llm-fallback.yaml", "134-langfuse-nested-fan-out-parent-resolution.yaml",
                    "152-otel-parallel-branch-orphan-llm-fallback.yaml", "153-otel-mixed-nesting-orphan-llm-fallback.yaml")


def _barrier_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "await_event_delivery: true"]


def _barrier_checks(result) -> list:
    return [check for check in result.checks if check.name.endswith("calls_llm_from_wrapper.await_event_delivery")]


@pytest.mark.parametrize("fixture", BARRIER_FIXTURES, ids=[name[:3] for name in BARRIER_FIXTURES])
def test_every_declared_barrier_is_verified_on_the_real_fixture(tmp_path, target_spec, fixture):
    text = target_text(OBS, fixture)
    results = run_text(tmp_path, text, OBS)
    assert all(result.outcome == "passed" for result in results), [(r.ref.name, r.reason) for r in results]
    judged = {(check.location.line, check.status) for result in results for check in _barrier_checks(result)}
    assert {line for line, _ in judged} == set(_barrier_lines(text)) and {status for _, status in judged} == {"verified"}


def test_a_drain_that_returns_before_delivery_fails_the_barrier_at_its_line(tmp_path, target_spec, monkeypatch):
    """The runtime's drain answering at once (as it does for an id no live worker matches): the
    call's completion event has not reached the observers when the wrapper goes on."""
    from openarmature.graph.compiled import CompiledGraph
    from openarmature.graph.observer import DrainSummary

    async def unbound(self, invocation_id, *, timeout=5.0):
        return DrainSummary(undelivered_count=0, timeout_reached=False)

    text = target_text(OBS, "153-otel-mixed-nesting-orphan-llm-fallback.yaml")
    monkeypatch.setattr(CompiledGraph, "drain_events_for", unbound)
    result = _only(run_text(tmp_path, text, OBS))
    line, = _barrier_lines(text)
    failed = [check for check in _barrier_checks(result) if check.status == "failed"]
    assert failed and failed[0].location.line == line and "did not hold" in failed[0].detail, failed


def test_a_barrier_that_never_runs_fails_the_case_at_its_line(tmp_path, target_spec, monkeypatch):
    from oa_conformance.interpreter.running import observability_nodes

    async def skipped(*args):
        return None

    text = target_text(OBS, "152-otel-parallel-branch-orphan-llm-fallback.yaml")
    monkeypatch.setattr(observability_nodes, "_event_delivery_barrier", skipped)
    result = _only(run_text(tmp_path, text, OBS))
    assert result.outcome == "failed"
    failed = {check.location.line for check in _barrier_checks(result) if check.status == "failed" and "never ran" in check.detail}
    assert failed == set(_barrier_lines(text))


# ---------------------------------------------------------------------------------------------
# A mock entry's `raises: {error_type, message}` (conformance-adapter §5.15): the call raises the
# literal exception while the status fixes its category


@pytest.mark.parametrize(("fixture", "name", "error_type"), [
    ("150-langfuse-embedding-failure-literal-error-fields.yaml", None, "ServiceUnavailableError"),   # mock_embedding
    ("151-langfuse-rerank-failure-literal-error-fields.yaml", None, "ServiceUnavailableError"),      # mock_rerank
    ("160-langfuse-error-message-truncation.yaml", "generation_failure_error_message_truncated_to_cap", "server_error"),  # mock_llm
])
def test_the_literal_error_type_reaches_the_failure_observation(tmp_path, target_spec, fixture, name, error_type):
    """The mock's `raises.error_type` changed: the observation's error_type follows it (so the case
    fails at its expected value), proving the literal reaches the runtime's failure event."""
    text = target_text(OBS, fixture)
    pick = _only if name is None else (lambda results: _case(results, name))
    passed = pick(run_text(tmp_path / "ok", text, OBS, fixture))
    assert passed.outcome == "passed", passed.reason
    lines = text.splitlines()
    start = line_of(text, f"name: {name}") if name else 1
    block = next(n for n in range(start, len(lines) + 1) if lines[n - 1].strip() == "raises:")  # the mock entry's
    raised = block + 1
    faulty = replace_value(text, raised, "error_type", '"SomeOtherError"')  # what the mock raises, not what is expected
    result = pick(run_text(tmp_path / "fault", faulty, OBS, fixture))
    assert result.outcome == "failed", result.reason
    assert f"metadata.error_type: expected '{error_type}', got 'SomeOtherError'" in result.reason, result.reason


def test_the_literal_exception_keeps_the_category_the_status_gives(tmp_path, target_spec):
    """The status still fixes the §7 category: a 401 with the same literal raises is no longer
    provider_unavailable, so expected_error fails at its category line."""
    text = target_text(OBS, "150-langfuse-embedding-failure-literal-error-fields.yaml")
    faulty = replace_value(text, line_of(text, "- status: 503"), "- status", "401")
    failed_at(_only(run_text(tmp_path, faulty, OBS)), line_of(text, "category: provider_unavailable"))


# ---------------------------------------------------------------------------------------------
# `log_records`: each expected record matched by an emitted one, in order (158's sidecar)

F158 = "158-langfuse-payload-leak-fail-closed.yaml"
OPT_OUT = "singleton_preexists_optout_proceeds"


def test_an_expected_record_is_found_among_unrelated_ones(tmp_path, target_spec):
    assert _case(run_text(tmp_path, target_text(OBS, F158), OBS, F158), OPT_OUT).outcome == "passed"


def test_an_expected_record_nobody_emitted_fails_at_its_entry(tmp_path, target_spec):
    text = target_text(OBS, F158)
    line = line_of(text, "event_name: openarmature.langfuse.shared_provider_accepted")
    faulty = replace_value(text, line, "event_name", "openarmature.langfuse.payload_suppressed")
    result = _case(run_text(tmp_path, faulty, OBS, F158), OPT_OUT)
    assert result.outcome == "failed" and "log_records[0]" in result.reason, result.reason


def test_the_level_names_the_severity_the_runtime_logged(tmp_path, target_spec):
    text = target_text(OBS, F158)
    line = line_of(text, "- level: WARNING", after=f"name: {OPT_OUT}")
    faulty = replace_value(text, line, "- level", "ERROR")
    result = _case(run_text(tmp_path, faulty, OBS, F158), OPT_OUT)
    assert result.outcome == "failed" and "log_records[0].level" in result.reason, result.reason
