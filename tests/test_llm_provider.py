"""The mock LLM provider over the captured wire, and the llm-provider directory's execution:
fault-injected copies of real fixtures fail at the right line, and nothing leaves the process."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from oa_conformance.ast.scenarios import scenarios
from oa_conformance.interpreter import read_fixture
from oa_conformance.interpreter.llm_mock import MOCK_BASE_URL, bound_model, mock_wire, openai_provider

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
