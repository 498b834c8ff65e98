"""The Langfuse payload-leak invariant and error-message truncation (target corpus 157, 158, 160):
``requires_capability``, ``langfuse_client.preexisting_same_key_client`` / ``accept_shared_provider``,
``expected_construction_error``, the payload-scoped leak checks, ``log_records[].level``,
``message_repeat`` / ``mock_llm`` ``raises`` and ``metadata_truncation``. Each check is shown to fail
on a fault injected into the real fixture text or into the runtime."""

from __future__ import annotations

import pytest

from oa_conformance.assertions.shapes.otel_logs_metrics import _log_matcher
from oa_conformance.interpreter.running import adapter_capabilities
from oa_conformance.interpreter.running.adapter_capabilities import PROBES, Probed
from oa_conformance.ast.values import repeated_text
from oa_conformance.model.vocabulary import VOCABULARY

from .faults import line_of, replace_value, run_text, target_text

OBS = "observability"
F157, F158, F160 = ("157-langfuse-provider-isolation.yaml", "158-langfuse-payload-leak-fail-closed.yaml",
                    "160-langfuse-error-message-truncation.yaml")


def text_158() -> str:
    """Fixture 158 without its `otel_observer` block (one case's; another change implements it):
    the rest of the fixture is what these tests run."""
    lines = target_text(OBS, F158).splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("    otel_observer:"))
    return "".join(lines[:start] + lines[start + 2:])


def case(results, name: str):
    return next(r for r in results if r.ref.name == name)


def check_failed(result, name: str, line: int) -> None:
    """The named check failed, located at ``line`` of the fixture."""
    failed = [c for c in result.checks if c.name == name and c.status == "failed"]
    assert failed, (name, result.outcome, result.reason)
    assert f":{line}:" in str(failed[0].location), (failed[0].location, str(failed[0]))


# ---- requires_capability --------------------------------------------------------------------


def test_every_requirable_capability_has_a_probe():
    family = {d.name for d in VOCABULARY.directives_of("adapter_capability_requirement")}
    assert family == set(PROBES)


def test_the_probe_finds_this_runtime_detects_its_bound_provider():
    found = adapter_capabilities.probe_langfuse_bound_provider_detection()
    assert found.has is True, found.evidence


def test_a_mismatched_arm_is_a_skip_naming_the_capability(tmp_path, target_spec):
    results = run_text(tmp_path, text_158(), OBS, F158)
    suppress = case(results, "singleton_preexists_suppresses")
    assert suppress.outcome == "skipped"
    assert "langfuse_bound_provider_detection = false" in suppress.reason and "raised" in suppress.reason
    assert case(results, "singleton_preexists_raises").outcome == "passed"


def test_a_runtime_probed_non_capable_runs_the_suppress_arm(tmp_path, target_spec, monkeypatch):
    """Fault: the probe answers 'cannot detect' while the runtime still raises — the suppress arm
    then runs and fails (it expects no raise), and the raise arm is skipped, never passed."""
    monkeypatch.setattr(adapter_capabilities, "_PROBED", {"langfuse_bound_provider_detection": Probed(False, "fault")})
    results = run_text(tmp_path, text_158(), OBS, F158)
    assert case(results, "singleton_preexists_raises").outcome == "skipped"
    assert case(results, "singleton_preexists_suppresses").outcome in ("failed", "error")


def test_an_undecidable_probe_skips_both_arms(tmp_path, target_spec, monkeypatch):
    monkeypatch.setattr(adapter_capabilities, "_PROBED", {"langfuse_bound_provider_detection": Probed(None, "no API")})
    results = run_text(tmp_path, text_158(), OBS, F158)
    for name in ("singleton_preexists_raises", "singleton_preexists_suppresses"):
        assert case(results, name).outcome == "skipped" and "cannot be established" in case(results, name).reason


def test_an_unknown_capability_is_rejected(tmp_path, target_spec):
    text = text_158().replace("langfuse_bound_provider_detection: true", "langfuse_bound_provider_telepathy: true", 1)
    results = run_text(tmp_path, text, OBS, F158)
    assert results[0].outcome == "error" and "langfuse_bound_provider_telepathy" in results[0].reason


# ---- langfuse_client priming / opt-out, expected_construction_error -------------------------


@pytest.mark.parametrize(("written", "key", "faulty"), [
    # without priming the runtime isolates, so the raise expectation fails
    ("preexisting_same_key_client: true", "preexisting_same_key_client", "false"),
    # opting in to a shared provider is passed to the runtime, which then proceeds
    ("accept_shared_provider: false", "accept_shared_provider", "true"),
    # a wrong construction category
    ("category: langfuse_provider_isolation_unavailable", "category", "provider_unavailable"),
], ids=["unprimed", "opted_in", "wrong_category"])
def test_a_changed_construction_setup_fails_the_raise_expectation(tmp_path, target_spec, written, key, faulty):
    text = text_158()
    line = line_of(text, written, after="name: singleton_preexists_raises")
    results = run_text(tmp_path, replace_value(text, line, key, faulty), OBS, F158)
    check_failed(case(results, "singleton_preexists_raises"), "expected_construction_error",
                 line_of(text, "expected_construction_error:", after="name: singleton_preexists_raises"))


# ---- payload-scoped leak checks -------------------------------------------------------------


def test_a_payload_leak_fails_no_payload_bearing(tmp_path, target_spec, monkeypatch):
    """Fault in the runtime: the payload-leak arms never run, so the primed shared client carries
    the Generation's payload to the global provider."""
    from openarmature.observability.langfuse import LangfuseObserver

    # The runtime as it is detects its bound provider, so the raise arm runs: probed here, before
    # the fault (the probe would see the fault), never taken from whatever an earlier test cached.
    capable = adapter_capabilities.probe_langfuse_bound_provider_detection()
    assert capable.has is True, capable.evidence
    monkeypatch.setattr(adapter_capabilities, "_PROBED", {"langfuse_bound_provider_detection": capable})
    monkeypatch.setattr(LangfuseObserver, "_apply_isolation_policy", lambda self: None)
    monkeypatch.setattr(LangfuseObserver, "_isolation_blocks_payload", lambda self: False)
    text = text_158()
    result = case(run_text(tmp_path, text, OBS, F158), "singleton_preexists_raises")
    check_failed(result, "expected.no_payload_bearing_langfuse_observations_on_global",
                 line_of(text, "no_payload_bearing_langfuse_observations_on_global: true", after="name: singleton_preexists_raises"))


def test_a_supplied_global_client_with_payload_is_payload_bearing(tmp_path, target_spec):
    """157's mode (a) client emits its Generation's output on the global provider: asserting no
    payload-bearing observation there fails, and asserting one holds."""
    text = target_text(OBS, F157)
    line = line_of(text, "langfuse_observations_on_global: true", after="name: mode_a_supplied_not_mutated")
    leak = text.replace("      langfuse_observations_on_global: true", "      no_payload_bearing_langfuse_observations_on_global: true")
    check_failed(case(run_text(tmp_path, leak, OBS, F157), "mode_a_supplied_not_mutated"),
                 "expected.no_payload_bearing_langfuse_observations_on_global", line)
    bearing = text.replace("      langfuse_observations_on_global: true", "      payload_bearing_langfuse_observations_on_global: true")
    assert case(run_text(tmp_path, bearing, OBS, F157), "mode_a_supplied_not_mutated").outcome == "passed"


def test_suppressed_payload_fails_payload_bearing(tmp_path, target_spec):
    text = text_158()
    flag = line_of(text, "disable_provider_payload: false", after="name: singleton_preexists_optout_proceeds")
    result = case(run_text(tmp_path, replace_value(text, flag, "disable_provider_payload", "true"), OBS, F158),
                  "singleton_preexists_optout_proceeds")
    check_failed(result, "expected.payload_bearing_langfuse_observations_on_global",
                 line_of(text, "payload_bearing_langfuse_observations_on_global: true", after="name: singleton_preexists_optout_proceeds"))


def test_log_record_level_is_the_severity():
    from oa_conformance.interpreter.static.loader import load_bytes

    expected = load_bytes(b"level: WARNING\n")[0]
    record = {"body": "b", "attributes": {}, "severity_text": "INFO", "trace_id": None, "span_id": None}
    assert not _log_matcher(expected, record, {}, "log_records[0]").ok
    assert _log_matcher(expected, dict(record, severity_text="WARNING"), {}, "log_records[0]").ok
    assert _log_matcher(expected, dict(record, severity_text="WARN"), {}, "log_records[0]").ok  # the OTel name


# ---- message_repeat, mock_llm raises, metadata_truncation -----------------------------------


def test_message_repeat_rounds_down_to_whole_characters():
    assert repeated_text("😀", 102400) == "😀" * 25600
    assert repeated_text("😀", 10) == "😀" * 2


@pytest.mark.parametrize("name", ["retriever_failure_error_message_truncated_to_cap", "generation_failure_error_message_truncated_to_cap"])
def test_a_message_under_the_cap_is_not_truncated(tmp_path, target_spec, name):
    """Fault in the fixture: message_repeat synthesizes 800 bytes (under the 1024 cap), so the
    message arrives whole — proving the synthesized message reaches the runtime through the mock
    (retrieval and mock_llm `raises` alike) and metadata_truncation judges it."""
    text = target_text(OBS, F160)
    line = line_of(text, "bytes: 102400", after=f"name: {name}")
    result = case(run_text(tmp_path, replace_value(text, line, "message_repeat", '{char: "😀", bytes: 800}'), OBS, F160), name)
    assert "metadata_truncation.error_message.marker_pattern" in result.reason, result.reason
    marker = line_of(text, "marker_pattern:", after=f"name: {name}")
    assert any(f".yaml:{marker}:" in str(location) or f"(at {marker}:" in message
               for location, message in result.findings()), result.findings()


@pytest.mark.parametrize("fault, property_", [
    (lambda value, cap: value.encode("utf-8")[:cap - 34].decode("utf-8", "replace") + "…[truncated, 400 bytes total]",
     "utf8_valid"),                                                                               # split a character
    (lambda value, cap: value[:40], "marker_pattern"),                                           # cut without the marker
    (lambda value, cap: "x" * 10 + "…[truncated, 400 bytes total]", "prefix_of_full_serialization"),  # not the message's prefix
    (lambda value, cap: value, "max_bytes"),                                                      # not cut at all
])
def test_a_wrong_truncation_fails_its_property(tmp_path, target_spec, monkeypatch, fault, property_):
    from openarmature.observability.langfuse import LangfuseObserver

    monkeypatch.setattr(LangfuseObserver, "_capped_error_message", lambda self, value: fault(value, self.payload_byte_cap))
    text = target_text(OBS, F160)
    name = "tool_failure_error_message_truncated_to_cap"
    result = case(run_text(tmp_path, text, OBS, F160), name)
    assert result.outcome == "failed"
    assert f"metadata_truncation.error_message.{property_}" in result.reason, result.reason


def test_the_tool_truncation_case_passes(tmp_path, target_spec):
    text = target_text(OBS, F160)
    result = case(run_text(tmp_path, text, OBS, F160), "tool_failure_error_message_truncated_to_cap")
    assert result.outcome == "passed", result.reason
