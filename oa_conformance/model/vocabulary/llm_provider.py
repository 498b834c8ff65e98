"""Directives specific to the llm-provider fixtures (the capability's spec and its §3.2 header notes).

Also home of the provider-fixture surface llm-provider introduced and the other provider suites
share: the wire-mapping selector (`mapping:`), the outbound-request assertions
(`expected_wire_request*`), the mock LLM responses the observability suite drives `calls_llm`
with (`mock_llm`, `mock_llm_stream`), and the typed-event collectors with their assertion forms
(conformance-adapter §5.5) that the llm-provider, retrieval-provider and observability suites use.
"""

from __future__ import annotations

from .handlers import capture, direct, NOT_EXECUTED, PART, SHAPE
from .registry import Directive, Extension, Family, Handler, null_value, value_naming
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "llm-provider"
LP = CAPABILITY
GE = "graph-engine"
OBS = "observability"
CASE = ("fixture", "case")
CALL = ("llm_call", "llm_call_step")  # the call configuration: `call:` and each `calls:` entry
# Where the outbound-request assertions sit: a case, or (the `calls:` form) the call they belong to.
WIRE = CASE + ("llm_call_step",)

# The graph-engine §6 typed event families a typed-event collector captures (§5.5).
EVENT_TYPES = Enum((
    "LlmCompletionEvent", "LlmFailedEvent", "LlmTokenEvent", "LlmTokenFailedEvent",
    "EmbeddingEvent", "EmbeddingFailedEvent", "RerankEvent", "RerankFailedEvent",
    "ToolCallEvent", "ToolCallFailedEvent", "NodeEvent",
))

# The §8.x vendor wire mappings a `mapping:` selects: llm-provider §8.1–§8.3 (+ the §3.2 synthetic
# streaming-unsupported stub) and retrieval-provider §8.1–§8.4.
MAPPINGS = Enum(("openai", "anthropic", "gemini", "streaming_unsupported_stub", "tei", "jina", "cohere"))

FAMILIES = [
    Family("llm_call", "LlmCall", "The `complete()` / `ready()` call a case makes (`call:`, §5.11).", required=("operation",)),
    Family("llm_call_step", "LlmCallStep",
           "One entry of a `calls:` list: a call plus the wire request and outcome it must produce (llm-provider §3.2 header).",
           required=("operation",)),
    Family("llm_runtime_config", "LlmRuntimeConfig",
           "A llm-provider §6 RuntimeConfig: the declared sampling fields plus the undeclared `extras` bag."),
    Family("llm_call_retry", "LlmCallRetry",
           "Call-level retry (llm-provider §7.1): the pipeline-utilities §6.1 record plus the adaptive fields (§5.11)."),
    Family("llm_reask", "LlmReask", "The declarative reask builder: a template rendered on `structured_output_invalid` (§5.11).",
           required=("template",)),
    Family("llm_mock_provider", "LlmMockProvider", "The mock OpenAI-compatible (or `mapping:`-shaped) provider (§5.11)."),
    Family("llm_mock_response", "LlmMockResponse",
           "One canned provider response, consumed per attempt / call in order (§5.11, §5.5 `mock_llm`).",
           exclusive=(("body", "stream_body", "connection_failure", "cancelled", "raises"),)),
    Family("llm_mock_raise", "LlmMockRaise",
           "The exception a non-2xx `mock_llm` entry carries in its OpenAI error body (§5.5): the status still fixes "
           "the §7 category. The message is literal (`message`) or synthesized (`message_repeat`): exactly one.",
           required=("error_type",), exclusive=(("message", "message_repeat"),)),
    Family("llm_mock_capabilities", "LlmMockCapabilities", "Capability flags the mock provider's bound model declares."),
    Family("llm_health_endpoint", "LlmHealthEndpoint", "The mock health-check endpoint a `ready()` probe hits (llm-provider §5).",
           exclusive=(("body", "connection_failure"),)),
    Family("llm_stream_attempts", "LlmStreamAttempts",
           "A streamed call-level-retry mock: one chunk sub-stream (or failure marker) per wire attempt.",
           required=("wire_attempts",)),
    Family("llm_wire_request_expectation", "LlmWireRequestExpectation",
           "One retry-loop attempt's outbound request (`expected.wire_requests[]`, §5.11)."),
    Family("wire_bytes_identical", "WireBytesIdentical", "Which `calls:` entries must send byte-identical wire bodies.",
           required=("calls",)),
    Family("typed_observer", "TypedObserverDecl", "A typed-event collector registration (§5.5).", required=("name", "kind")),
    Family("typed_event_assertions", "TypedEventAssertions",
           "The assertions on one typed-event collector's storage (`expected.observers.<collector>`, §5.5)."),
    Family("typed_event_match", "TypedEventMatch", "An event of a type whose fields match (`contains_event`, §5.5).",
           required=("event_type",)),
    Family("typed_event_count", "TypedEventCount", "How many events of one type a collector holds (§5.5).",
           required=("event_type", "count")),
    Family("typed_event_sequence", "TypedEventSequence",
           "The collector's events of one type, in delivery order, matched positionally (observability §3.2 header).",
           required=("event_type", "events")),
    Family("typed_event_relative_order", "TypedEventRelativeOrder",
           "The relative arrival order of the events matching a filter (observability §3.2 header).",
           required=("expected_order",)),
    Family("typed_event_value_cover", "TypedEventValueCover",
           "Across the captured events, one field's values cover a set (observability §3.2 header).",
           required=("field", "values")),
]

DIRECTIVES = [
    # ---- the call (§5.11; llm-provider §3.2 header) ---------------------------
    Directive("call", CASE, SectionShape("llm_call"), "§5.11", LP, "0.91.0", "The one `complete()` / `ready()` call the case makes.", handled_by=direct("llm-provider")),
    Directive("calls", CASE, ListOf(SectionShape("llm_call_step")), "§3.2 header", LP, None,
              "Calls made in order against one mock provider, each with its own expected outcome.", scope="directory", handled_by=direct("llm-provider")),
    Directive("operation", CALL, Enum(("complete", "ready")), "§3.2 header", LP, None, "The provider operation to invoke.", handled_by=PART),
    Directive("messages", CALL, Data(("list",)), "§5.11", LP, None, "The llm-provider §3 messages passed to `complete()`.", handled_by=PART),
    Directive("config", CALL, SectionShape("llm_runtime_config"), "§5.11", LP, None, "The call's RuntimeConfig (llm-provider §6).", handled_by=PART),
    Directive("tools", CALL, Data(("list",)), "§5.11", LP, None, "The llm-provider §4 tools offered to the model.", handled_by=PART),
    Directive("tool_choice", CALL, OneOf((STR, Data(("map",)))), "§5.11", LP, None,
              "The llm-provider §5 tool_choice: `auto` / `required` / `none`, or `{type: tool, name}`.", handled_by=PART),
    Directive("response_schema", CALL, Data(("map",)), "§5.12", LP, "0.14.0", "The JSON schema requested for structured output.", handled_by=PART),
    # No streaming call path yet (as `calls_llm.stream`): the gate skips `stream: true` while the runtime
    # lacks streaming, and a runtime that ships it gets `not implemented`, never a unary call in its place.
    Directive("stream", CALL, BOOL, "§3.2 header", LP, None, "Call `complete(..., stream=True)`.", handled_by=NOT_EXECUTED),
    Directive("retry", CALL, SectionShape("llm_call_retry"), "§5.11", LP, "0.91.0", "Call-level retry (llm-provider §7.1).", handled_by=PART),
    Directive("expected", ("llm_call_step",), SectionShape("expected"), "§3.2 header", LP, None,
              "What this call must return (`response`) or raise (`raises`).", handled_by=PART),
    Directive("retry_middleware", CALL, SectionShape("middleware"), "§3.2 header", LP, None,
              "Wrap the call in a pipeline-utilities §6.1 RetryMiddleware.", handled_by=PART),

    Directive("temperature", ("llm_runtime_config",), NUM, "§5.11", LP, None, "Sampling temperature.", handled_by=PART),
    Directive("top_p", ("llm_runtime_config",), NUM, "§5.11", LP, None, "Nucleus-sampling mass.", handled_by=PART),
    Directive("max_tokens", ("llm_runtime_config",), INT, "§5.11", LP, None, "The completion token cap.", handled_by=PART),
    Directive("seed", ("llm_runtime_config",), INT, "§5.11", LP, None, "The sampling seed.", handled_by=PART),
    Directive("frequency_penalty", ("llm_runtime_config",), NUM, "§5.11", LP, "0.24.0", "Frequency penalty.", handled_by=PART),
    Directive("presence_penalty", ("llm_runtime_config",), NUM, "§5.11", LP, "0.24.0", "Presence penalty.", handled_by=PART),
    Directive("stop_sequences", ("llm_runtime_config",), ListOf(STR), "§5.11", LP, "0.24.0", "Stop sequences.", handled_by=PART),
    Directive("extras", ("llm_runtime_config",), Data(("map",)), "§5.11", LP, "0.24.0",
              "Undeclared fields passed through to the request-body root (llm-provider §6).", handled_by=PART),

    Directive("max_attempts", ("llm_call_retry",), INT, "§5.11", LP, "0.91.0", "Total attempts, including the first.", handled_by=PART),
    Directive("backoff", ("llm_call_retry",), SectionShape("backoff"), "§5.11", LP, "0.91.0", "The backoff between attempts.", handled_by=PART),
    Directive("classifier", ("llm_call_retry",), STR, "§5.11", LP, None, "Which errors are transient (`default` or a harness name).", handled_by=PART),
    Directive("per_attempt_override", ("llm_call_retry",), ListOf(SectionShape("llm_runtime_config")), "§5.11", LP, "0.91.0",
              "Entry i is a RuntimeConfig partial merged onto the base config for retry i.", handled_by=PART),
    Directive("reask", ("llm_call_retry",), SectionShape("llm_reask"), "§5.11", LP, "0.91.0",
              "Make `structured_output_invalid` retryable, appending the model output and a rendered correction.", handled_by=PART),
    Directive("template", ("llm_reask",), STR, "§5.11", LP, "0.91.0",
              "The correction text, with `{output_content}` / `{error_message}` placeholders.", handled_by=PART),

    # ---- the mock provider (§5.11, §5.5) -------------------------------------------------------
    Directive("mock_provider", CASE, SectionShape("llm_mock_provider"), "§5.11", LP, "0.91.0", "The mock provider the call talks to.", handled_by=direct("llm-provider")),
    Directive("responses", ("llm_mock_provider",), ListOf(SectionShape("llm_mock_response")), "§5.11", LP, "0.91.0",
              "Responses consumed one per attempt / call, in order; `[]` makes any sent request fail the test.", handled_by=PART),
    Directive("capabilities", ("llm_mock_provider",), SectionShape("llm_mock_capabilities"), "§3.2 header", LP, None,
              "The capability flags the bound model declares.", handled_by=PART),
    Directive("health_endpoint", ("llm_mock_provider",), SectionShape("llm_health_endpoint"), "§3.2 header", LP, None,
              "The health-check endpoint `ready()` probes.", handled_by=PART),
    Directive("supports_image_input", ("llm_mock_capabilities",), BOOL, "§3.2 header", LP, None, "The model accepts image blocks.", handled_by=PART),
    Directive("supports_native_response_format", ("llm_mock_capabilities",), BOOL, "§3.2 header", LP, None,
              "The model supports OpenAI `response_format` (else the §8.1.5.1 fallback).", handled_by=PART),
    Directive("supports_native_structured_output", ("llm_mock_capabilities",), BOOL, "§3.2 header", LP, None,
              "The model supports the mapping's native structured output (else its fallback).", handled_by=PART),
    Directive("status", ("llm_mock_response", "llm_health_endpoint"), INT, "§5.11", LP, None, "The HTTP status.", handled_by=PART),
    Directive("body", ("llm_mock_response", "llm_health_endpoint"), Data(), "§5.11", LP, None, "The response body (the mapping's wire shape).", handled_by=PART),
    Directive("headers", ("llm_mock_response",), Data(("map",)), "§3.2 header", LP, None, "Response headers (e.g. `Retry-After`).", handled_by=PART),
    Directive("raises", ("llm_mock_response",), SectionShape("llm_mock_raise"), "§5.5", LP, "0.116.0",
              "A non-2xx entry's error body, from a literal `error_type` and a `message` / `message_repeat` (proposal 0119).", handled_by=PART),
    Directive("error_type", ("llm_mock_raise",), STR, "§5.5", LP, "0.116.0", "The error body's `type`.", handled_by=PART),
    Directive("message", ("llm_mock_raise",), STR, "§5.5", LP, "0.116.0", "The error body's literal `message`.", handled_by=PART),
    Directive("connection_failure", ("llm_mock_response", "llm_health_endpoint"), BOOL, "§3.2 header", LP, None,
              "Simulate a network failure instead of responding.", handled_by=PART),
    Directive("cancelled", ("llm_mock_response",), BOOL, "§3.2 header", LP, None,
              "The request is met by the language's cancellation signal instead of a response.", handled_by=PART,
              extension=Extension("`cancelled: true` on a mock response: the request raises the language's cancellation "
                                  "signal (Python's `asyncio.CancelledError`) instead of answering. llm-provider §7.1 "
                                  "requires call-level retry to detect cancellation and re-raise it before consulting the "
                                  "classifier (never transient), which only a call the signal interrupts can show; "
                                  "upstream's mock answers or fails as a network would.")),
    Directive("stream_body", ("llm_mock_response",), Data(("list",)), "§3.2 header", LP, None,
              "A streamed response: the SSE `data:` chunks in order, ending with \"[DONE]\".", handled_by=PART),
    Directive("path", ("llm_health_endpoint",), STR, "§3.2 header", LP, None, "The probed path (e.g. `/v1/models`).", handled_by=PART),

    Directive("mock_llm", CASE, ListOf(SectionShape("llm_mock_response")), "§5.5", OBS, None,
              "Canned OpenAI-compatible chat-completion responses for successive `complete()` calls (`calls_llm`).", handled_by=capture("providers")),
    Directive("mock_llm_stream", CASE, ListOf(OneOf((Data(("list",)), SectionShape("llm_stream_attempts")))), "§3.2 header", OBS, None,
              "Streamed responses, one per `complete(stream=True)` call: a chunk list, or `{wire_attempts}` under call-level retry.", handled_by=NOT_EXECUTED),
    Directive("wire_attempts", ("llm_stream_attempts",), ListOf(Data(("list",))), "§3.2 header", OBS, None,
              "One chunk sub-stream per wire attempt; `[{error: {status}}]` is a transient failure.", handled_by=PART),

    # ---- wire mapping and outbound-request assertions (§5.15, llm-provider §3.2) ---------------
    Directive("mapping", CASE, MAPPINGS, "§5.15", LP, "0.102.0",
              "The §8.x vendor wire mapping under test; absent, the default (llm: OpenAI-compatible; retrieval: harness stand-in).", handled_by=(capture("retrieval"), direct("llm-provider"))),
    Directive("expected_wire_request", WIRE, Expect(("map", "list")), "§5.15", LP, "0.102.0",
              "The outbound request body, compared key by key (a list: one body per request, chunk-and-stitch).", handled_by=(Handler("direct", "llm-provider", families=("fixture", "case")), Handler("case_expectation", "retrieval-provider", families=("fixture", "case")), Handler("part", families=("llm_call_step",)))),
    Directive("expected_wire_request_absent_keys", WIRE, ListOf(STR), "§5.15", LP, "0.102.0", "Keys that must be absent from the outbound body.", handled_by=(Handler("direct", "llm-provider", families=("fixture", "case")), Handler("case_expectation", "retrieval-provider", families=("fixture", "case")), Handler("part", families=("llm_call_step",)))),
    Directive("expected_wire_request_checks", WIRE, Predicates(), "§3.2 header", LP, None,
              "Facts about the outbound body a literal compare cannot express (`<key>_absent`, named checks).", handled_by=(Handler("direct", "llm-provider", families=("fixture", "case")), Handler("part", families=("llm_call_step",)))),
    Directive("expected_wire_bytes_identical", CASE, SectionShape("wire_bytes_identical"), "§3.2 header", LP, None,
              "The named calls' wire bodies must be byte-identical (llm-provider §8 wire-byte stability).", handled_by=direct("llm-provider")),
    Directive("calls", ("wire_bytes_identical",), ListOf(INT), "§3.2 header", LP, None, "Indices into `calls:`.", handled_by=PART),

    # ---- expected outcome (§5.11, §5.12) -------------------------------------------------------
    Directive("response", ("expected",), Expect(("map",)), "§5.12", LP, None,
              "The returned Response (subset of message / finish_reason / usage / parsed; `raw_check.required_keys`).", handled_by=SHAPE),
    Directive("raises", ("expected",), SectionShape("error_expectation"), "§5.12", LP, None,
              "The call raised this llm-provider §7 error (`category`, `message`, `carries`).", handled_by=SHAPE),
    Directive("success", ("expected",), BOOL, "§3.2 header", LP, None, "`ready()` returned without raising.", handled_by=SHAPE),
    Directive("no_token_events_emitted", ("expected",), BOOL, "§3.2 header", LP, None, "No LlmTokenEvent was emitted (rejected stream).", handled_by=NOT_EXECUTED),
    Directive("response_usage", ("expected",), Expect(("map",)), "§3.2 header", OBS, None, "The LLM Response's usage record.", handled_by=SHAPE),
    Directive("wire_requests", ("expected",), ListOf(SectionShape("llm_wire_request_expectation")), "§5.11", LP, "0.91.0",
              "One entry per retry-loop attempt, asserting that attempt's outbound request.", handled_by=SHAPE),
    Directive("sampling", ("llm_wire_request_expectation",), Expect(("map",)), "§5.11", LP, "0.91.0",
              "The attempt's effective sampling fields.", handled_by=PART),
    Directive("appended_messages", ("llm_wire_request_expectation",), Expect(("list",)), "§5.11", LP, "0.91.0",
              "Messages appended after the caller's, in order (`content` exact or `content_contains`).", handled_by=PART),
    Directive("llm_spans", ("expected",), Expect(("list",)), "§5.11", LP, "0.91.0",
              "The per-attempt LLM spans (`attempt_index`, `attributes`, `attributes_absent`, `error_category`, `status`).",
              scope="directory", handled_by=SHAPE,
              extension=Extension("`status` on an `llm_spans` entry: the attempt span's OTel status (`ERROR` for a failed "
                                  "attempt, observability §4.2; an expected `OK` accepts `UNSET`, which OTel leaves on success).",
                                  value_naming("status"))),
    Directive("caller_messages_unmodified", ("expected",), BOOL, "§3.2 header", LP, None,
              "The caller's message list was not mutated.", scope="directory", handled_by=SHAPE),
    Directive("provider_call_count", ("expected",), INT, "§3.2 header", LP, None,
              "How many requests reached the provider.", scope="directory", handled_by=SHAPE),
    Directive("reask_builder_after_attempts", ("expected",), ListOf(INT), "§3.2 header", LP, None,
              "The attempts (0-based, ascending) after whose failure the call-level reask builder was invoked.",
              scope="directory", handled_by=SHAPE,
              extension=Extension("`reask_builder_after_attempts: [0, ...]` in `expected`: the attempts (0-based, "
                                  "ascending, each once however often the builder ran after it) after which the call's "
                                  "reask builder (the `reask.template` the adapter renders) was invoked. llm-provider §7.1 "
                                  "requires the builder be invoked only when a further attempt remains, never on the "
                                  "terminal attempt; a builder invoked there, its correction discarded, changes no request, "
                                  "so only when it ran shows it.")),
    Directive("retry_after_seconds", ("error_expectation",), Nullable(NUM), "§3.2 header", LP, None,
              "The error's `retry_after` (llm-provider §7), when the implementation exposes it.", scope="directory", handled_by=PART,
              should="llm-provider §7: provider_rate_limit — \"Implementations SHOULD expose a `retry_after` accessor when the provider supplies one\"",
              extension=Extension("`retry_after_seconds: null`: the provider supplied no hint, so a runtime exposing the "
                                  "accessor reports none (a value there fails); a runtime without the accessor is a warning.", null_value)),

    # ---- typed-event collectors (§5.5) ---------------------------------------------------------
    Directive("typed_observers", CASE, ListOf(SectionShape("typed_observer")), "§5.5", GE, "0.102.0",
              "Typed-event collectors keeping graph-engine §6 typed events in observer-internal storage.", handled_by=capture("typed_events")),
    Directive("name", ("typed_observer",), STR, "§5.5", GE, "0.102.0", "The collector's name, referenced under `expected.observers`.", handled_by=PART),
    Directive("kind", ("typed_observer",), Enum(("typed_event_collector",)), "§5.5", GE, "0.102.0", "The observer kind.", handled_by=PART),
    Directive("filter_event_type", ("typed_observer",), EVENT_TYPES, "§5.5", GE, "0.102.0", "Keep only this event family.", handled_by=PART),
    Directive("include_caller_metadata", ("typed_observer",), BOOL, "§3.2 header", OBS, None,
              "Opt in to `caller_invocation_metadata` on LlmCompletionEvent.", scope="directory", handled_by=PART),
    Directive("retains_arrival_order", ("typed_observer",), BOOL, "§3.2 header", OBS, None,
              "Keep events in arrival order.", scope="directory", handled_by=PART),

    Directive("observers", ("expected",), MapOf(SectionShape("typed_event_assertions"), "collector name"), "§5.5", GE, "0.102.0",
              "Assertions on each typed-event collector's storage.", handled_by=SHAPE),
    Directive("contains_event", ("typed_event_assertions",), SectionShape("typed_event_match"), "§5.5", GE, "0.102.0",
              "The collector holds an event of `event_type` whose `fields` match.", handled_by=PART),
    Directive("contains_event_of_type", ("typed_event_assertions",), EVENT_TYPES, "§5.5", GE, "0.102.0",
              "The collector holds at least one event of this type.", handled_by=PART),
    Directive("contains_exactly_one_event_of_type", ("typed_event_assertions",), EVENT_TYPES, "§5.5", GE, "0.102.0",
              "The collector holds exactly one event of this type.", handled_by=PART),
    Directive("event_count", ("typed_event_assertions",), SectionShape("typed_event_count"), "§5.5", GE, "0.102.0",
              "The collector holds exactly `count` events of `event_type` (0: absent).", handled_by=PART),
    Directive("event_counts", ("typed_event_assertions",), ListOf(SectionShape("typed_event_count")), "§5.5", GE, "0.102.0",
              "Several per-type counts.", handled_by=PART),
    Directive("contains_exactly_n_events_of_type", ("typed_event_assertions",), SectionShape("typed_event_count"), "§3.2 header", OBS, None,
              "The collector holds exactly `count` events of `event_type`.", scope="directory", handled_by=PART),
    Directive("does_not_contain_event_of_type", ("typed_event_assertions",), EVENT_TYPES, "§3.2 header", OBS, None,
              "The collector holds no event of this type.", scope="directory", handled_by=PART),
    Directive("contains_events_in_order", ("typed_event_assertions",), SectionShape("typed_event_sequence"), "§3.2 header", OBS, None,
              "The collector's events of one type, in delivery order, match positionally.", scope="directory", handled_by=PART),
    Directive("every_captured_event_has", ("typed_event_assertions",), Expect(("map",)), "§3.2 header", OBS, None,
              "Every captured event carries these field values.", scope="directory", handled_by=PART),
    Directive("captured_event_field_values_cover", ("typed_event_assertions",), SectionShape("typed_event_value_cover"), "§3.2 header", OBS,
              None, "Across the captured events, `field` takes every value in `values`.", scope="directory", handled_by=PART),
    Directive("relative_order_of_events_matching", ("typed_event_assertions",), SectionShape("typed_event_relative_order"), "§3.2 header",
              OBS, None, "The events matching `filter` arrive in `expected_order`.", scope="directory", handled_by=PART),
    Directive("sentinel_node_event_emission_is_impl_defined", ("typed_event_assertions",), BOOL, "§3.2 header", OBS, None,
              "Documents that a sentinel-namespaced NodeEvent MAY also be held; asserts nothing.", scope="directory", handled_by=PART),

    Directive("event_type", ("typed_event_match", "typed_event_count", "typed_event_sequence"), EVENT_TYPES, "§5.5", GE, "0.102.0",
              "The typed event family.", handled_by=PART),
    Directive("fields", ("typed_event_match",), Expect(("map",)), "§5.5", GE, "0.102.0",
              "Field values to match (literal null = present-and-null; a mapping = a present record; omitted = unasserted).", handled_by=PART),
    Directive("fields_absent_keys", ("typed_event_match",), MapOf(ListOf(STR), "event field"), "§3.2 header", OBS, None,
              "Per event field: it is a mapping and none of the listed keys appear in it (absence, not null).",
              scope="directory", handled_by=PART),
    Directive("count", ("typed_event_count",), INT, "§5.5", GE, "0.102.0", "The exact number of events.", handled_by=PART),
    Directive("events", ("typed_event_sequence",), Expect(("list",)), "§3.2 header", OBS, None,
              "Per event, in order, the fields to match (length-exact).", handled_by=PART),
    Directive("filter", ("typed_event_relative_order",), Expect(("map",)), "§3.2 header", OBS, None, "Field values selecting the events.", handled_by=PART),
    Directive("expected_order", ("typed_event_relative_order",), Expect(("list",)), "§3.2 header", OBS, None,
              "The selected events' order (`event_type`, optional `phase`).", handled_by=PART),
    Directive("field", ("typed_event_value_cover",), STR, "§3.2 header", OBS, None, "The event field.", handled_by=PART),
    Directive("values", ("typed_event_value_cover",), Expect(("list",)), "§3.2 header", OBS, None, "The values it must cover.", handled_by=PART),
]
