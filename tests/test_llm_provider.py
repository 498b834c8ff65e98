"""The mock LLM provider over the captured wire, and the llm-provider directory's execution:
fault-injected copies of real fixtures fail at the right line, and nothing leaves the process."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from oa_conformance.interpreter.static.scenarios import scenarios
from oa_conformance.pipeline import read_fixture
from oa_conformance.interpreter.running.llm_mock import MOCK_BASE_URL, bound_model, mock_wire, openai_provider

MOCK_FIXTURE = """\
mock_provider:
  responses:
    - status: 429
      headers: {Retry-After: "7"}
      body: {error: {type: rate_limit_error, message: "slow down"}}
    - connection_failure: true
    - status: 200
      body: "{not json"
    - status: 200
      stream_body:
        - {choices: [{index: 0, delta: {content: "a"}, finish_reason: null}]}
        - "[DONE]"
    - status: 200
      body:
        id: c1
        model: bound-one
        choices: [{index: 0, message: {role: assistant, content: "ok"}, finish_reason: stop}]
call:
  operation: complete
  messages: [{role: user, content: "hi"}]
expected:
  response: {finish_reason: stop}
"""


# The same mock without its streamed entry (a stream body makes the case a recognized 0062 skip).
UNSTREAMED = MOCK_FIXTURE.replace("""    - status: 200
      stream_body:
        - {choices: [{index: 0, delta: {content: "a"}, finish_reason: null}]}
        - "[DONE]"
""", "")


def scenario_of(tmp_path, text: str, capability: str = "llm-provider"):
    directory = tmp_path / "spec" / capability / "conformance"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "001-case.yaml"
    path.write_text(text, encoding="utf-8")
    read = read_fixture(str(path))
    assert read.ok, read.diagnostics
    return scenarios(read.fixture)[0], str(path)


def test_canned_response_forms_become_wire_answers_with_their_fixture_lines(tmp_path):
    scenario, path = scenario_of(tmp_path, MOCK_FIXTURE)
    responses = mock_wire(scenario).responses
    assert [r.status for r in responses] == [429, 200, 200, 200, 200]
    assert responses[0].headers == (("Retry-After", "7"),) and responses[0].declared_at == f"{path}:3:7"
    assert responses[1].failure == "connect"
    assert responses[2].raw == b"{not json" and responses[2].body is None
    assert responses[3].raw == b'data: {"choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": null}]}\n\ndata: [DONE]\n\n'
    assert responses[4].body["model"] == "bound-one"
    assert bound_model(scenario) == "bound-one"


def test_the_real_provider_talks_only_to_the_wire_and_records_each_request(tmp_path):
    scenario, _ = scenario_of(tmp_path, MOCK_FIXTURE)
    wire = mock_wire(scenario)
    provider = openai_provider(wire, model="bound-one")
    from openarmature.llm import ProviderRateLimit, UserMessage

    with pytest.raises(ProviderRateLimit) as raised:
        asyncio.run(provider.complete([UserMessage(content="hi")]))
    assert raised.value.retry_after == 7
    document = wire.document()
    assert document["requests"][0]["url"] == f"{MOCK_BASE_URL}/v1/chat/completions"
    assert document["requests"][0]["json"]["model"] == "bound-one"
    assert document["unused"] == 4


def test_the_wire_refuses_unknown_hosts_and_never_opens_a_socket(tmp_path, monkeypatch):
    opened = []

    def guard(*args, **kwargs):  # any real connection attempt is a test failure
        opened.append(args)
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket, "create_connection", guard)
    monkeypatch.setattr(socket.socket, "connect", guard)
    scenario, _ = scenario_of(tmp_path, MOCK_FIXTURE)
    wire = mock_wire(scenario)

    async def elsewhere():
        async with httpx.AsyncClient(transport=wire) as client:
            await client.get("https://api.openai.com/v1/models")

    with pytest.raises(httpx.ConnectError, match="refuses host 'api.openai.com'"):
        asyncio.run(elsewhere())
    assert wire.document()["refused"][0]["host"] == "api.openai.com" and not wire.requests
    assert not opened


# ---------------------------------------------------------------------------------------------
# Fault injection into copies of real llm-provider fixtures: the case fails at the right line


from .conftest import shared_fixture  # noqa: E402
from .faults import replace_value  # noqa: E402
from .test_run import write_fixture  # noqa: E402

from oa_conformance.pipeline import cases_of, run_case  # noqa: E402


def run_copy(tmp_path, name: str, text: str, case: str | None = None):
    ref = write_fixture(tmp_path, text, capability="llm-provider", name=name)
    cases = [c for c in cases_of(ref) if case is None or c.scenario.name == case]
    assert cases, case
    return run_case(cases[0], timeout=20), ref.path


def real(name: str) -> str:
    return shared_fixture(f"llm-provider/conformance/{name}").read_text(encoding="utf-8")


def lines_of(text: str, needle: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]


def test_the_real_fixtures_pass_before_the_faults(tmp_path):
    for name, case in (("005-openai-wire-mapping.yaml", "simple_text_completion"), ("004-error-categories.yaml", "rate_limit_429"),
                       ("056-call-level-retry-transient.yaml", None), ("054-openai-wire-byte-stability.yaml", None)):
        result, _ = run_copy(tmp_path, name, real(name), case)
        assert result.outcome == "passed", (name, result.reason)


def test_a_changed_expected_wire_field_fails_at_its_line(tmp_path):
    text = real("005-openai-wire-mapping.yaml")
    line = lines_of(text, "model: test-model")[0]  # the first case's expected_wire_request.model
    faulty = replace_value(text, line, "model", "other-model")
    result, path = run_copy(tmp_path, "005-openai-wire-mapping.yaml", faulty, "simple_text_completion")
    assert result.outcome == "failed"
    assert str(result.location).startswith(f"{path}:{line}:")
    assert "expected_wire_request.model: expected 'other-model', got 'test-model'" in result.reason


def test_an_extra_expected_key_and_an_unexpected_wire_key_both_fail(tmp_path):
    text = real("005-openai-wire-mapping.yaml")
    line = lines_of(text, "model: test-model")[0]
    lines = text.splitlines(keepends=True)
    added = "".join(lines[:line] + ["      temperature: 0.5\n"] + lines[line:])  # asserted, never sent
    result, path = run_copy(tmp_path, "005-openai-wire-mapping.yaml", added, "simple_text_completion")
    assert result.outcome == "failed" and str(result.location).startswith(f"{path}:{line + 1}:")
    assert "temperature: expected 0.5 (present), got '<absent>'" in result.reason
    removed = "".join(lines[: line - 1] + lines[line:])  # `model` is sent but no longer named: it must be absent
    result, path = run_copy(tmp_path, "005-openai-wire-mapping.yaml", removed, "simple_text_completion")
    assert result.outcome == "failed" and "got also ['model']" in result.reason


def test_a_missing_request_fails_the_call(tmp_path):
    text = real("056-call-level-retry-transient.yaml")
    lines = text.splitlines(keepends=True)
    success = lines_of(text, "- status: 200")[0]
    end = lines_of(text, "usage: {prompt_tokens: 4")[0]
    faulty = "".join(lines[: success - 1] + lines[end:])  # the retry finds no second response
    result, path = run_copy(tmp_path, "056-call-level-retry-transient.yaml", faulty)
    assert result.outcome == "failed"
    assert "raised" in result.reason and "declares only 1 responses" in result.reason


def test_a_wrong_error_category_and_retry_after_fail_at_their_lines(tmp_path):
    text = real("004-error-categories.yaml")
    line = lines_of(text, "category: provider_rate_limit")[0]
    result, path = run_copy(tmp_path, "004-error-categories.yaml", replace_value(text, line, "category", "provider_unavailable"), "rate_limit_429")
    assert result.outcome == "failed" and str(result.location).startswith(f"{path}:{line}:")
    assert "expected 'provider_unavailable', got 'provider_rate_limit'" in result.reason
    line = lines_of(text, "retry_after_seconds: 30")[0]
    result, path = run_copy(tmp_path, "004-error-categories.yaml", replace_value(text, line, "retry_after_seconds", "31"), "rate_limit_429")
    assert result.outcome == "failed" and str(result.location).startswith(f"{path}:{line}:")


def test_different_wire_bytes_fail_the_identity_check(tmp_path):
    text = real("054-openai-wire-byte-stability.yaml")
    line = lines_of(text, "max_tokens: 64")[-1]  # call B's config
    result, _ = run_copy(tmp_path, "054-openai-wire-byte-stability.yaml", replace_value(text, line, "max_tokens", "65"))
    assert result.outcome == "failed" and "expected_wire_bytes_identical" in result.reason and "differs" in result.reason


@pytest.mark.parametrize("calls", ["[0]", "[1, 1]", "[]"])
def test_fewer_than_two_calls_to_compare_fail_the_identity_check_at_calls(tmp_path, calls):
    """A call's body is identical to itself: one named call verified vacuously (and none raised
    IndexError) before the mutation audit's list exploration found it."""
    text = real("054-openai-wire-byte-stability.yaml")
    line = lines_of(text, "calls: [0, 1]")[-1]
    result, path = run_copy(tmp_path, "054-openai-wire-byte-stability.yaml", replace_value(text, line, "calls", calls))
    assert result.outcome == "failed" and str(result.location) == f"{path}:{line}:3", (result.location, result.reason)
    assert "at least two distinct calls" in result.reason


def test_an_unexpected_error_fails_even_without_a_response_expectation(tmp_path):
    text = UNSTREAMED.replace("expected:\n  response: {finish_reason: stop}\n", "expected_wire_request: {model: bound-one, messages: [{role: user, content: hi}]}\nexpected: {}\n")
    result, _ = run_copy(tmp_path, "001-case.yaml", text)
    assert result.outcome == "failed" and "raised unexpectedly" in result.reason and "provider_rate_limit" in result.reason


def test_retry_backoff_runs_on_the_virtual_clock(tmp_path):
    text = real("056-call-level-retry-transient.yaml").replace("seconds: 0}", "seconds: 30}")
    ref = write_fixture(tmp_path, text, capability="llm-provider", name="056-call-level-retry-transient.yaml")
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case

    import time
    started = time.perf_counter()
    trace = execute_case(cases_of(ref)[0].scenario, 20, harness_for("llm-provider"))
    assert time.perf_counter() - started < 5
    assert [dict(s) for s in trace.collections["clock"]["sleeps"]] == [{"attempt": 0, "seconds": 30.0}]
    assert len(trace.collections["wire"]["requests"]) == 2 and trace.collections["calls"][0]["result"]["finish_reason"] == "stop"


def test_an_unknown_provider_mapping_is_harness_primitive_missing(tmp_path):
    result, path = run_copy(tmp_path, "001-case.yaml", "mapping: tei\n" + UNSTREAMED)
    assert result.outcome == "error" and result.category == "harness_primitive_missing"
    assert str(result.location) == f"{path}:1:10"


def test_a_malformed_mock_is_fixture_schema_invalid_at_its_line(tmp_path):
    ref = write_fixture(tmp_path, MOCK_FIXTURE.replace("- status: 429", "- status: often"), capability="llm-provider")
    read = read_fixture(ref.path)
    assert [(d.category, d.location.line) for d in read.diagnostics] == [("fixture_schema_invalid", 3)]


def test_a_wrong_attempt_span_fails_at_its_line(tmp_path):
    text = real("056-call-level-retry-transient.yaml")
    line = lines_of(text, "error_category: provider_unavailable")[0]
    result, path = run_copy(tmp_path, "056-call-level-retry-transient.yaml", replace_value(text, line, "error_category", "provider_rate_limit"))
    assert result.outcome == "failed" and str(result.location).startswith(f"{path}:{line}:")
    assert "expected.llm_spans[0].error_category: expected 'provider_rate_limit', got 'provider_unavailable'" in result.reason
    absent = lines_of(text, "error_category: null")[0]
    lines = text.splitlines(keepends=True)
    lines.insert(absent, '      attributes_absent: ["openarmature.llm.retry_reason"]\n')  # attempt 1 carries it
    result, path = run_copy(tmp_path, "056-call-level-retry-transient.yaml", "".join(lines))
    assert result.outcome == "failed" and "'openarmature.llm.retry_reason' absent" in result.reason


def test_a_mock_status_that_is_no_http_status_and_a_call_without_messages_are_fixture_schema_invalid(tmp_path):
    result, path = run_copy(tmp_path, "001-case.yaml", UNSTREAMED.replace("- status: 429", "- status: 42"))
    assert (result.outcome, result.category, str(result.location)) == ("error", "fixture_schema_invalid", f"{path}:3:7")
    result, path = run_copy(tmp_path, "001-case.yaml", UNSTREAMED.replace('  messages: [{role: user, content: "hi"}]\n', ""))
    assert (result.outcome, result.category) == ("error", "fixture_schema_invalid") and str(result.location).startswith(f"{path}:")


def test_the_mock_llm_form_of_graph_fixtures_builds_the_same_wire(tmp_path):
    graph_case = "mock_llm:\n" + "\n".join("  " + line[4:] for line in UNSTREAMED.split("responses:\n", 1)[1].split("call:")[0].splitlines()) + "\n"
    graph_case += "state: {fields: {x: {type: int, default: 0}}}\nentry: a\nnodes: {a: {update: {x: 1}}}\nedges: [{from: a, to: END}]\n"
    scenario, path = scenario_of(tmp_path, graph_case, capability="observability")
    wire = mock_wire(scenario)
    assert [r.status for r in wire.responses] == [429, 200, 200, 200] and wire.responses[0].declared_at == f"{path}:2:5"
    assert bound_model(scenario) == "bound-one"


def test_a_wire_key_absence_check_fails_on_a_sent_key_and_on_the_other_boolean(tmp_path):
    name = "032-runtime-config-declared-fields-and-null-skip.yaml"
    text = real(name)
    assert run_copy(tmp_path, name, text, "partial_config_null_skip")[0].outcome == "passed"
    sent = text.replace("        max_tokens: 32\n", "        max_tokens: 32\n        top_p: 0.5\n", 1)
    result, path = run_copy(tmp_path, name, sent, "partial_config_null_skip")
    assert result.outcome == "failed", result.reason
    assert "expected_wire_request_checks.top_p_absent: failed: expected none, found [{'request': 0, 'top_p': 0.5}]" in result.reason
    # In a `calls:` entry the check reads that call's requests; `false` asks for the key.
    name = "027-structured-output-openai-wire-mapping-fallback.yaml"
    result, path = run_copy(tmp_path, name, real(name).replace("response_format_absent: true", "response_format_absent: false"))
    assert result.outcome == "failed" and "response_format_absent: failed: expected some, found none" in result.reason, result.reason
