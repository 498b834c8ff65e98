"""The retrieval-provider directory: the runtime's real embedding / rerank providers over the captured
wire, and fault-injected copies of real fixtures that fail (or error) at the right line."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from oa_conformance.interpreter.running.wire import Canned, CapturedWire, WireExhausted, WireRefused, request_record
from . import faults
from .faults import failed_at, line_of

CAPABILITY = "retrieval-provider"


def fixture_text(name: str) -> str:
    return faults.shared_text(CAPABILITY, name)


def run_text(tmp_path, text: str, name: str = "001-case.yaml"):
    return faults.run_text(tmp_path, text, CAPABILITY, name)


def replace_once(text: str, old: str, new: str, after: str | None = None) -> str:
    start = text.index(after) if after else 0
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old):]


def test_real_fixtures_of_each_mapping_pass_unchanged(tmp_path):
    for name in ("001-embed-positive-control.yaml", "006-rerank-positive-control.yaml", "015-rerank-tei-chunk-and-stitch.yaml",
                 "018-rerank-jina-wire.yaml", "023-embed-openai-compatible-wire.yaml", "033-embed-cohere-input-type.yaml"):
        results = run_text(tmp_path, fixture_text(name), name)
        assert results and all(r.outcome == "passed" for r in results), [(r.ref.id, r.reason) for r in results]


def test_a_changed_expected_wire_field_fails_at_its_line(tmp_path):
    text = fixture_text("017-embed-tei-wire.yaml")
    faulty = replace_once(text, '"gamma string"]', '"delta string"]', after="expected_wire_request:")
    first, _ = run_text(tmp_path, faulty)
    failed_at(first, line_of(faulty, '"delta string"]'))
    assert "'gamma string'" in first.reason


def test_a_missing_request_fails_the_request_count_at_its_line(tmp_path):
    faulty = fixture_text("015-rerank-tei-chunk-and-stitch.yaml").replace("expected_wire_request_count: 3", "expected_wire_request_count: 4")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "expected_wire_request_count: 4"))
    assert "expected 4, got 3" in result.reason


def test_a_request_list_longer_than_what_was_sent_fails(tmp_path):
    text = fixture_text("015-rerank-tei-chunk-and-stitch.yaml")
    last = '      - query: "which animal is the fastest land mammal?"\n        texts:\n          - "doc 8 about horses"\n'
    faulty = text.replace(last, last + '        truncate: false\n        return_text: false\n' + last, 1)
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "expected_wire_request:", after="initial_state") + 1)  # the list it asserts
    assert "4 items" in result.reason


def test_an_extra_key_on_the_wire_fails(tmp_path):
    # The Jina mapping sends truncation: false; an expected body without it is missing a key.
    text = fixture_text("018-rerank-jina-wire.yaml")
    faulty = replace_once(text, "      truncation: false\n", "", after="expected_wire_request:")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "expected_wire_request:", after="initial_state") + 1)  # the body it asserts
    assert "also ['truncation']" in result.reason


def test_a_key_asserted_absent_that_was_sent_fails(tmp_path):
    text = fixture_text("017-embed-tei-wire.yaml")
    faulty = replace_once(text, "expected_wire_request_absent_keys: [prompt_name]", "expected_wire_request_absent_keys: [prompt_name, dimensions]")
    _, second = run_text(tmp_path, faulty)
    failed_at(second, line_of(faulty, "[prompt_name, dimensions]", after="embed_dimensions_maps"))


def test_a_wrong_header_fails_at_its_line(tmp_path):
    faulty = fixture_text("018-rerank-jina-wire.yaml").replace('Authorization: "Bearer test-jina-key"', 'Authorization: "Bearer other-key"')
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, '"Bearer other-key"'))


def test_a_wrong_error_category_fails_at_its_line_and_says_what_was_raised(tmp_path):
    text = fixture_text("022-jina-rate-limit.yaml")
    faulty = replace_once(text, "category: provider_rate_limit", "category: provider_unavailable")
    first, second = run_text(tmp_path, faulty)
    failed_at(first, line_of(faulty, "category: provider_unavailable"))
    assert "ProviderRateLimit" in first.reason
    assert second.outcome == "passed", second.reason


@pytest.mark.parametrize("old, new", [
    ("vectors_length: 3", "vectors_length: 4"),
    ("inner_vector_lengths_all_equal: 4", "inner_vector_lengths_all_equal: 5"),
    ("response_id: emb-001-id", "response_id: other-id"),
])
def test_a_wrong_response_record_field_or_view_fails_at_its_line(tmp_path, old, new):
    faulty = fixture_text("001-embed-positive-control.yaml").replace(old, new)
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, new))


def test_a_wrong_url_fails_at_its_line(tmp_path):
    text = fixture_text("025-embed-openai-compatible-base-url.yaml")
    faulty = text.replace('expected_wire_url: "http://vllm.invalid/v1/embeddings"', 'expected_wire_url: "http://vllm.invalid/embeddings"')
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "expected_wire_url:"))


def test_a_pre_send_predicate_fails_when_a_request_went_out(tmp_path):
    # 034: an unrecognized input_type is rejected before sending; with a recognized one the call
    # sends its request, so `no_embed_request_issued` must fail (and the expected error too).
    text = fixture_text("034-embed-cohere-input-type-rejected.yaml")
    assert "no_embed_request_issued: true" in text
    faulty = text.replace("input_type: summarization", "input_type: query")
    faulty += "    mock_embedding:\n      - status: 200\n        body: {id: x, embeddings: {float: [[0.1, 0.2]]}, texts: [a], meta: {billed_units: {input_tokens: 1}}}\n"
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "failed"
    failing = {c.name for c in result.checks if c.status != "verified"}
    assert "expected.invariants.no_embed_request_issued" in failing


@pytest.mark.parametrize("old, new, marker", [
    ("      - status: 200\n", "      - status: 999\n", "status: 999"),  # not an HTTP status
    ("      - status: 200\n", "      - status: 200\n        raises: {error_type: E, message: m}\n", "raises:"),  # raises on a 2xx
])
def test_a_malformed_mock_is_fixture_schema_invalid_at_its_line(tmp_path, old, new, marker):
    faulty = fixture_text("001-embed-positive-control.yaml").replace(old, new)
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "error" and result.category == "fixture_schema_invalid", (result.outcome, result.reason)
    assert f".yaml:{line_of(faulty, marker)}:" in str(result.location)


def test_a_provider_the_adapter_does_not_know_is_harness_primitive_missing(tmp_path):
    # OpenAI ships no reranker: a rerank mock under `mapping: openai` names a provider that does not exist.
    text = fixture_text("023-embed-openai-compatible-wire.yaml")
    faulty = text.replace("    mock_embedding:", "    mock_rerank:", 1)
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "error" and result.category == "harness_primitive_missing", (result.outcome, result.reason)
    assert f".yaml:{line_of(faulty, 'mock_rerank:')}:" in str(result.location)


def test_lanes_serve_their_own_responses_and_refuse_unknown_hosts():
    async def scenario():
        wire = CapturedWire([], hosts=frozenset({"embed.invalid"}))
        embedding = wire.lane("embedding", [Canned(body={"n": 1})])
        rerank = wire.lane("rerank", [Canned(body={"n": 2}), Canned(body={"n": 3})])
        async with httpx.AsyncClient(transport=rerank) as client:
            assert (await client.post("http://embed.invalid/rerank", json={})).json() == {"n": 2}
        async with httpx.AsyncClient(transport=embedding) as client:
            assert (await client.post("http://embed.invalid/embed", json={})).json() == {"n": 1}
            with pytest.raises(WireExhausted):
                await client.post("http://embed.invalid/embed", json={})
            with pytest.raises(WireRefused):
                await client.post("http://api.example.com/embed", json={})
        document = wire.document()
        assert [r["lane"] for r in document["requests"]] == ["rerank", "embedding", "embedding"]
        assert document["declared"] == 3 and document["unused"] == 1 and document["overrun"] == 1
        assert len(document["refused"]) == 1

    asyncio.run(scenario())


def test_the_wire_records_keys_a_body_text_repeats():
    # json.loads keeps the last of two equal keys; the record keeps the repetition, at any depth.
    request = httpx.Request("POST", "http://embed.invalid/embed")
    content = b'{"dimensions": 4, "inputs": ["a"], "dimensions": 4, "meta": {"k": 1, "k": 2, "k": 3}}'
    record = request_record(0, request, content)
    assert record["json"] == {"dimensions": 4, "inputs": ["a"], "meta": {"k": 3}}
    assert record["duplicate_keys"] == {"dimensions": 2, "k": 3}
    assert request_record(0, request, b'{"inputs": ["a"]}')["duplicate_keys"] == {}
    assert "duplicate_keys" not in request_record(0, request, b"not json")
