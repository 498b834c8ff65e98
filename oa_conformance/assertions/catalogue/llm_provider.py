"""The llm-provider predicates: rows named by its fixtures and defined in their prose (.md sidecars
and the case descriptions beside them).

Most restate an expectation the same case already makes: the exact outbound body
(`expected_wire_request`, key by key with unnamed keys absent), the returned Response
(`expected.response`), the raised error (`expected.raises`), the per-attempt requests
(`expected.wire_requests`) or LLM spans (`expected.llm_spans`). The rest are queries over the
``calls`` / ``wire`` collections (docs/TRACE.md) and the scope's ``requests`` (the block's call's). A direct case's predicate blocks are case-level
(``invocation=None``): ``calls[0]`` is the case's one ``call:``.
"""

from __future__ import annotations

from .rows import Compute, Example, Query, Restates, Verdict, flag

WIRE = "expected_wire_request"
RESPONSE = "expected.response"
RAISES = "expected.raises"
ATTEMPTS = "expected.wire_requests"
SPANS = "expected.llm_spans"


def _doc(requests: list, calls: list, responses: list | None = None) -> dict:
    """A hand-built trace document with the llm-provider collections."""
    return {"wire": {"requests": requests, "responses": responses or [], "declared": len(responses or []), "unused": 0,
                     "overrun": 0, "refused": []},
            "calls": calls, "invocations": []}


def _request(index: int, body: dict) -> dict:
    return {"index": index, "method": "POST", "path": "/v1/chat/completions", "json": body, "body": ""}


REJECTED = _doc([], [{"index": 0, "operation": "complete", "requests": [], "error": {"category": "provider_invalid_request"}}])
SENT = _doc([_request(0, {"model": "m"})], [{"index": 0, "operation": "complete", "requests": [0], "result": {}}])
MALFORMED_USAGE = {"prompt_tokens": "abc", "completion_tokens": 3, "total_tokens": 5}


def _usage_call(raw_usage: dict) -> dict:
    return _doc([_request(0, {"model": "m"})],
                [{"index": 0, "operation": "complete", "requests": [0], "result": {"raw": {"usage": raw_usage}}}],
                [{"index": 0, "request": 0, "status": 200, "body": {"usage": MALFORMED_USAGE}}])


def _schema_in_system_message(scope: dict, expected: object) -> Verdict:
    """Every property the call's response_schema names appears in the sent system message."""
    calls, requests = scope["calls"], scope["wire"]["requests"]
    schema = calls[0].get("inputs", {}).get("response_schema") if calls else None
    if not schema or not requests:
        raise LookupError("the case made no structured-output call that sent a request")
    system = [m.get("content") for m in requests[0].get("json", {}).get("messages", []) if m.get("role") == "system"]
    text = system[0] if system and isinstance(system[0], str) else ""
    names = list((schema.get("properties") or {}).keys())
    missing = [name for name in names if f'"{name}"' not in text]
    ok = bool(text) and bool(names) and not missing
    return flag(expected, ok, f"the system message {text[:80]!r} does not name {missing or 'a schema'}")


def _structured(system: str) -> dict:
    return _doc([_request(0, {"messages": [{"role": "system", "content": system}, {"role": "user", "content": "go"}]})],
                [{"index": 0, "operation": "complete", "requests": [0], "result": {},
                  "inputs": {"response_schema": {"type": "object", "properties": {"value": {"type": "integer"}}}}}])


# Predicates whose prose says no more than the exact outbound body the case asserts.

# Predicates whose prose says no more than the raised error the case asserts (the rejection).

ROWS = (
    Restates("no_schema_response_format_unmanaged_rides_untouched", "Without a response_schema, an extras response_format rides onto the wire untouched.", WIRE),
    Restates("extras_response_format_on_wire_when_unmanaged", "The unmanaged extras response_format is on the wire body.", WIRE),
    Restates("non_streaming_stream_options_unmanaged_rides_untouched", "Not streaming, an extras stream_options rides onto the wire untouched.", WIRE),
    Restates("matching_extras_temperature_no_op", "An extras temperature equal to the declared one is a no-op: one wire temperature.", WIRE),
    Restates("wire_temperature_is_declared_value_once", "The wire temperature is the declared value, once.", WIRE),
    Restates("wire_stop_is_merged_union", "The wire stop is the union of the declared stop_sequences and the extras stop.", WIRE),
    Restates("declared_first_in_merge_order", "In the merged wire stop the declared values come first.", WIRE),
    Restates("declared_stop_first_in_merge_order", "In the merged wire stop the declared stop_sequences come first.", WIRE),
    Restates("matching_stop_collapses_to_single_element", "A matching extras stop de-duplicates to the single declared element.", WIRE),
    Restates("scalar_string_extras_stop_coerced_to_list", "A scalar-string extras stop is coerced to a one-element list before the merge.", WIRE),
    Restates("malformed_extras_stop_treated_as_absent", "A malformed extras stop is treated as absent: the wire carries the declared stop only.", WIRE),
    Restates("wire_stop_is_declared_value_only", "The wire stop is exactly the declared stop_sequences.", WIRE),
    Restates("malformed_list_not_salvaged", "A partly malformed extras stop list is not salvaged element by element.", WIRE),
    Restates("matching_extras_stream_no_op", "A matching extras stream: false on a unary call is a no-op: nothing extra on the wire.", WIRE),
    Restates("conditionally_managed_response_format_conflict_rejected_pre_send", "A conflicting extras response_format beside a response_schema is rejected pre-send as provider_invalid_request.", RAISES),
    Restates("managed_structural_model_conflict_rejected_pre_send", "A conflicting extras model is rejected pre-send as provider_invalid_request.", RAISES),
    Restates("bound_model_not_silently_overridden", "The bound model is not silently replaced by the extras model: the call is rejected.", RAISES),
    Restates("declared_scalar_temperature_conflict_rejected_pre_send", "An extras temperature conflicting with the declared one is rejected pre-send as provider_invalid_request.", RAISES),
    Restates("declared_temperature_not_silently_overridden", "The declared temperature is not silently replaced: the call is rejected.", RAISES),
    Restates("final_structured_output_invalid_propagates", "After the reask budget is spent the final structured_output_invalid propagates.", RAISES),
    Restates("exhaustion_propagates_final_error", "On retry exhaustion the final attempt's error propagates to the caller.", RAISES),
    Restates("unary_call_conflicting_stream_rejected_pre_send", "An extras stream: true on a unary call is rejected pre-send as provider_invalid_request.", RAISES),
    Restates("stream_always_managed_on_unary_side", "stream is managed on a unary call too: a conflicting extras stream is rejected.", RAISES),
    Restates("wire_carries_no_stream_key", "The unary request body carries no stream key.", "expected_wire_request_absent_keys"),
    Restates("no_error_raised_on_malformed_extras", "A malformed extras value raises nothing: the call returns its response.", RESPONSE),
    Restates("call_returns_successful_response_after_transient_retry",
             "After a transient failure the retried call returns the successful response.", RESPONSE),
    Query("<key>_absent",
          "The outbound body carries no <key> key at all, not even as null (the `<field>_absent` wire-check convention).",
          "requests[?json == null || has(json, {key})].{request: index, {key!key}: json.{key!key}}", "absent",
          anchor="requests",
          holds=Example(_doc([_request(0, {"model": "m", "stop": ["END"]})], []), invocation=None, name="tool_choice_absent"),
          fails=Example(_doc([_request(0, {"model": "m", "tool_choice": None})], []), invocation=None, name="tool_choice_absent")),
    Query("no_request_issued", "The call was rejected before any request reached the provider.",
          "length(wire.requests) == `0`", "flag", anchor="calls",
          holds=Example(REJECTED, invocation=None), fails=Example(SENT, invocation=None)),
    *(Query(f"extras_{key}_neither_dropped_nor_forwarded",
            f"The conflicting extras {key} is neither dropped (the call raised) nor forwarded (nothing was sent).",
            "calls[0].error != `null` && length(wire.requests) == `0`", "flag", anchor="calls",
            holds=Example(REJECTED, invocation=None), fails=Example(SENT, invocation=None))
      for key in ("response_format", "model", "temperature")),
    Query("raw_usage_prompt_tokens_verbatim_malformed",
          "Response.raw keeps the provider's usage verbatim, the malformed prompt_tokens included.",
          "calls[0].result.raw.usage == wire.responses[-1].body.usage", "flag", anchor="calls[0].result",
          holds=Example(_usage_call(MALFORMED_USAGE), invocation=None),
          fails=Example(_usage_call({**MALFORMED_USAGE, "prompt_tokens": None}), invocation=None)),
    Query("raw_usage_all_counters_verbatim_malformed",
          "Response.raw keeps every malformed usage counter verbatim.",
          "calls[0].result.raw.usage == wire.responses[-1].body.usage", "flag", anchor="calls[0].result",
          holds=Example(_usage_call(MALFORMED_USAGE), invocation=None),
          fails=Example(_usage_call({"prompt_tokens": None, "completion_tokens": None, "total_tokens": None}), invocation=None)),
    Compute("system_message_content_references_schema",
            "On the prompt-augmentation fallback the sent system message carries the response_schema (its property names).",
            _schema_in_system_message,
            why="joins the call's response_schema input with the text of the request's system message",
            holds=Example(_structured('Return JSON for {"properties": {"value": {"type": "integer"}}}'), invocation=None),
            fails=Example(_structured("Return JSON."), invocation=None)),
    Query("no_backoff_sleep_invoked", "The loop never waited: no backoff delay was asked for.",
          "length(clock.sleeps) == `0`", "flag", anchor="calls",
          holds=Example({**REJECTED, "clock": {"now": 0, "sleeps": []}}, invocation=None),
          fails=Example({**REJECTED, "clock": {"now": 1, "sleeps": [{"attempt": 0, "seconds": 1}]}}, invocation=None)),
    Query("caller_messages_unmutated", "complete() never mutates the caller's message list (llm-provider §7.1).",
          "calls[0].messages_unmodified", "flag", anchor="calls",
          holds=Example(_doc([], [{"index": 0, "requests": [], "messages_unmodified": True}]), invocation=None),
          fails=Example(_doc([], [{"index": 0, "requests": [], "messages_unmodified": False}]), invocation=None)),
    Query("caller_config_unmutated", "complete() never mutates the caller's RuntimeConfig (each attempt config is a copy).",
          "calls[0].config_unmodified", "flag", anchor="calls",
          holds=Example(_doc([], [{"index": 0, "requests": [], "config_unmodified": True}]), invocation=None),
          fails=Example(_doc([], [{"index": 0, "requests": [], "config_unmodified": False}]), invocation=None)),
    # Retry-loop predicates (056-066): each says no more than the per-attempt requests or spans asserted.
    Restates("n_attempts_emit_n_llm_spans", "One LLM span per attempt the loop issued.", SPANS),
    Restates("attempt_index_attribute_distinct_per_span", "Each attempt's span carries its own attempt_index.", SPANS),
    Restates("every_attempt_span_carries_error_category", "Every failed attempt's span carries its error category.", SPANS),
    Restates("exactly_one_attempt_span_for_non_transient", "A non-transient failure emits exactly one attempt span.", SPANS),
    Restates("non_transient_exits_retry_loop_on_first_occurrence", "A non-transient error leaves the loop on its first occurrence.", SPANS),
    Restates("base_attempt_uses_caller_config", "Attempt 0 sends the caller's config unchanged.", ATTEMPTS),
    Restates("per_attempt_override_applies_to_retries_only", "per_attempt_override entries apply to retries only.", ATTEMPTS),
    Restates("reask_makes_structured_output_invalid_retryable", "With reask, structured_output_invalid is retried.", ATTEMPTS),
    Restates("appended_assistant_message_is_exactly_model_output", "The appended assistant message is exactly the model's output.", ATTEMPTS),
    Restates("appended_user_correction_is_exactly_builder_output", "The appended user message is exactly the builder's rendering.", ATTEMPTS),
    Restates("reask_exhausts_max_attempts_budget", "Reask retries consume the max_attempts budget.", ATTEMPTS),
    Restates("structured_output_invalid_not_retried_without_reask", "Without reask, structured_output_invalid is not retried.", ATTEMPTS),
    Restates("exactly_one_attempt_issued", "Exactly one attempt reached the provider.", ATTEMPTS),
    Restates("second_mock_response_never_consumed", "The second canned response is never consumed (one attempt).", ATTEMPTS),
    Restates("override_and_reask_compose_on_reask_retries", "Overrides and reask compose on reask retries.", ATTEMPTS),
    Restates("reask_transcript_accumulates_across_retries", "The reask transcript accumulates across retries.", ATTEMPTS),
    Restates("transient_retry_carries_accumulated_reask_transcript", "A transient retry resends the accumulated reask transcript.", ATTEMPTS),
    Restates("retry_reason_discriminates_reask_vs_transient_in_one_loop",
             "Each attempt's span names why it was retried (reask or transient).", SPANS),
)
