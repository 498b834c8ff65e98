"""Directives specific to the retrieval-provider fixtures (the capability's spec and its §3.2 header notes).

The construction / call / mock / wire-assertion vocabulary of conformance-adapter §5.14–§5.15. The
wire selector and the outbound-request assertions it shares with llm-provider (`mapping:`,
`expected_wire_request*`) live in :mod:`.llm_provider`.
"""

from __future__ import annotations

from .handlers import capture, case_expectation, node, PART
from .registry import Directive, Extension, Family
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "retrieval-provider"
RP = CAPABILITY
OBS = "observability"
CASE = ("fixture", "case")
V_REPEAT = "0.116.0"  # proposal 0119: `message_repeat` (a synthesized oversized exception message)
NODE = ("node",)

FAMILIES = [
    Family("tei_embedding_provider", "TeiEmbeddingProvider", "A bound TEI EmbeddingProvider (retrieval-provider §8.1, §5.15).",
           required=("base_url", "model")),
    Family("tei_rerank_provider", "TeiRerankProvider", "A bound TEI RerankProvider (retrieval-provider §8.1, §5.15).",
           required=("base_url", "model")),
    Family("jina_provider", "JinaProvider", "A bound Jina embedding or rerank provider (retrieval-provider §8.2, §5.15).",
           required=("base_url", "model", "api_key")),
    Family("openai_embedding_provider", "OpenaiEmbeddingProvider",
           "A bound OpenAI-compatible EmbeddingProvider (retrieval-provider §8.3, §5.15).", required=("model", "api_key")),
    Family("cohere_provider", "CohereProvider", "A bound Cohere embedding or rerank provider (retrieval-provider §8.4, §5.15).",
           required=("base_url", "model", "api_key")),
    Family("embed_call", "EmbedCall", "`calls_embed`: the node calls `EmbeddingProvider.embed()` (§5.15).",
           required=("stores_response_in",), exclusive=(("input", "input_from_rendered_prompt"),)),
    Family("embed_config", "EmbedConfig", "An EmbeddingRuntimeConfig (retrieval-provider §6)."),
    Family("rerank_call", "RerankCall", "`calls_rerank`: the node calls `RerankProvider.rerank()` (§5.15).",
           required=("documents", "stores_response_in"), exclusive=(("query", "query_from_rendered_prompt"),)),
    Family("rerank_config", "RerankConfig", "A RerankRuntimeConfig (retrieval-provider §6)."),
    Family("ready_call", "ReadyCall", "`calls_ready`: the node calls the bound provider's `ready()` (retrieval-provider §3 / §5).",
           required=("provider",)),
    Family("retrieval_mock_response", "RetrievalMockResponse",
           "One mock embedding / rerank response, dispatched per call (per request when chunking) in arrival order (§5.15).",
           required=("status",)),
    Family("retrieval_mock_raise", "RetrievalMockRaise",
           "Literal exception values for a non-2xx mock entry; the status still fixes the §7 category (§5.15). "
           "The message is literal (`message`) or synthesized (`message_repeat`): exactly one.",
           required=("error_type",), exclusive=(("message", "message_repeat"),)),
    Family("message_repeat", "MessageRepeat",
           "A synthesized exception message: `char` repeated as many whole times as fit in `bytes` UTF-8 bytes "
           "(rounded down, §5.15).", required=("char", "bytes")),
]

PROVIDERS = ("tei_embedding_provider", "tei_rerank_provider", "jina_provider", "openai_embedding_provider", "cohere_provider")
KEYED = ("jina_provider", "openai_embedding_provider", "cohere_provider")
PREFIXED = ("tei_embedding_provider", "openai_embedding_provider")

DIRECTIVES = [
    # ---- provider construction (§5.14, §5.15) --------------------------------------------------
    Directive("tei_embedding_provider", CASE, SectionShape("tei_embedding_provider"), "§5.15", RP, "0.102.0", "Bind a TEI EmbeddingProvider.", handled_by=capture("retrieval")),
    Directive("tei_rerank_provider", CASE, SectionShape("tei_rerank_provider"), "§5.15", RP, "0.102.0", "Bind a TEI RerankProvider.", handled_by=capture("retrieval")),
    Directive("jina_embedding_provider", CASE, SectionShape("jina_provider"), "§5.15", RP, "0.102.0", "Bind a Jina EmbeddingProvider.", handled_by=capture("retrieval")),
    Directive("jina_rerank_provider", CASE, SectionShape("jina_provider"), "§5.15", RP, "0.102.0", "Bind a Jina RerankProvider.", handled_by=capture("retrieval")),
    Directive("openai_embedding_provider", CASE, SectionShape("openai_embedding_provider"), "§5.15", RP, "0.102.0",
              "Bind an OpenAI-compatible EmbeddingProvider.", handled_by=capture("retrieval")),
    Directive("cohere_embedding_provider", CASE, SectionShape("cohere_provider"), "§5.15", RP, "0.102.0", "Bind a Cohere EmbeddingProvider.", handled_by=capture("retrieval")),
    Directive("cohere_rerank_provider", CASE, SectionShape("cohere_provider"), "§5.15", RP, "0.102.0", "Bind a Cohere RerankProvider.", handled_by=capture("retrieval")),
    Directive("base_url", PROVIDERS, STR, "§5.15", RP, "0.102.0", "The provider origin (the mapping appends the path).", handled_by=PART),
    Directive("model", PROVIDERS, STR, "§5.15", RP, "0.102.0", "The bound model id.", handled_by=PART),
    Directive("api_key", KEYED, STR, "§5.15", RP, "0.102.0", "Sent as `Authorization: Bearer <key>`.", handled_by=PART),
    Directive("chunk_size", PROVIDERS, INT, "§5.14", RP, "0.98.0",
              "The per-request item cap for chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).", handled_by=PART),
    Directive("query_prefix", PREFIXED, STR, "§5.15", RP, "0.102.0", "Client-side prefix for `input_type: query` inputs.", handled_by=PART),
    Directive("document_prefix", PREFIXED, STR, "§5.15", RP, "0.102.0", "Client-side prefix for `input_type: document` inputs.", handled_by=PART),
    Directive("input_type_prompt_map", ("tei_embedding_provider",), MapOf(STR, "OA input_type"), "§5.15", RP, "0.102.0",
              "OA `input_type` → TEI `prompt_name`.", handled_by=PART),

    # ---- calls (§5.15) -------------------------------------------------------------------------
    Directive("calls_embed", NODE, SectionShape("embed_call"), "§5.15", RP, "0.102.0",
              "Call `embed()` and store the EmbeddingResponse in a state field.", handled_by=node("calls_embed")),
    Directive("input", ("embed_call",), ListOf(STR), "§5.15", RP, "0.102.0", "The input strings.", handled_by=PART),
    Directive("config", ("embed_call",), SectionShape("embed_config"), "§5.15", RP, "0.102.0", "The call's EmbeddingRuntimeConfig.", handled_by=PART),
    Directive("model", ("embed_call", "rerank_call"), STR, "§5.15", RP, "0.102.0", "The model the call names (model-binding errors).", handled_by=PART),
    Directive("stores_response_in", ("embed_call", "rerank_call"), STR, "§5.15", RP, "0.102.0", "The state field receiving the response.", handled_by=PART),
    Directive("input_from_rendered_prompt", ("embed_call",), BOOL, "§3.2 header", OBS, None,
              "Embed the most recently rendered prompt's text as a one-element input.", scope="directory", handled_by=PART),
    Directive("dimensions", ("embed_config",), INT, "§5.15", RP, "0.102.0", "Requested vector dimensionality.", handled_by=PART),
    Directive("input_type", ("embed_config",), STR, "§5.15", RP, "0.102.0", "The OA input type (`query`, `document`, …).", handled_by=PART),
    Directive("extras", ("embed_config", "rerank_config"), Data(("map",)), "§5.15", RP, "0.102.0",
              "Undeclared fields passed through to the request body (retrieval-provider §6).", handled_by=PART),

    Directive("calls_ready", NODE, SectionShape("ready_call"), "§3.2 header", RP, None,
              "Call the bound embedding or rerank provider's `ready()`.", handled_by=node("calls_ready"),
              extension=Extension("`calls_ready: {provider: embedding | rerank, model?}` on a node: the node calls that bound "
                                  "provider's `ready()` (optionally re-bound to `model`), answered by the case's mock list of that "
                                  "kind; a raised §7 error is the node's, as for `calls_embed` — the upstream fixture language "
                                  "calls only `embed()` / `rerank()`, so §3 / §5 `ready()` obligations have no other way in.")),
    Directive("provider", ("ready_call",), Enum(("embedding", "rerank")), "§3.2 header", RP, None,
              "Which bound provider's `ready()` to call.", handled_by=PART),
    Directive("model", ("ready_call",), STR, "§3.2 header", RP, None, "The model the provider is re-bound to for the call.", handled_by=PART),

    Directive("calls_rerank", NODE, SectionShape("rerank_call"), "§5.15", RP, "0.102.0",
              "Call `rerank()` and store the RerankResponse in a state field.", handled_by=node("calls_rerank")),
    Directive("query", ("rerank_call",), STR, "§5.15", RP, "0.102.0", "The query.", handled_by=PART),
    Directive("documents", ("rerank_call",), ListOf(STR), "§5.15", RP, "0.102.0", "The documents to rank.", handled_by=PART),
    Directive("top_k", ("rerank_call",), INT, "§5.15", RP, "0.102.0", "Return at most this many results.", handled_by=PART),
    Directive("config", ("rerank_call",), SectionShape("rerank_config"), "§5.15", RP, "0.102.0", "The call's RerankRuntimeConfig.", handled_by=PART),
    Directive("query_from_rendered_prompt", ("rerank_call",), BOOL, "§3.2 header", OBS, None,
              "Use the most recently rendered prompt's text as the query.", scope="directory", handled_by=PART),
    Directive("return_documents", ("rerank_config",), BOOL, "§5.15", RP, "0.102.0", "Ask the provider to echo each document.", handled_by=PART),

    # ---- response mocks (§5.15) ----------------------------------------------------------------
    Directive("mock_embedding", CASE, ListOf(SectionShape("retrieval_mock_response")), "§5.15", RP, "0.102.0",
              "The mock embedding provider's responses, one per request in arrival order.", handled_by=capture("retrieval")),
    Directive("mock_rerank", CASE, ListOf(SectionShape("retrieval_mock_response")), "§5.15", RP, "0.102.0",
              "The mock rerank provider's responses, one per request in arrival order.", handled_by=capture("retrieval")),
    Directive("status", ("retrieval_mock_response",), INT, "§5.15", RP, "0.102.0", "The HTTP status (non-2xx: the §7 error path).", handled_by=PART),
    Directive("body", ("retrieval_mock_response",), Data(), "§5.15", RP, "0.102.0",
              "The body: the vendor's wire shape under `mapping:`, else the harness stand-in.", handled_by=PART),
    Directive("when_request", ("retrieval_mock_response",), Data(("map",)), "§5.15", RP, None,
              "The JSON body of the one request this entry answers, whatever its arrival position (every entry of the list or none).",
              handled_by=PART,
              extension=Extension("`when_request: {<JSON body>}` on a `mock_embedding` / `mock_rerank` entry: the entry answers "
                                  "the one request whose JSON body is exactly that, whatever its arrival position (every entry of "
                                  "the list carries one, or none does) — a double keyed by content, for requests the spec lets go "
                                  "out in any order (§8 *Batch chunking* issues one request per chunk and pins no order among them); "
                                  "a request no unused entry names fails the call.")),
    Directive("raises", ("retrieval_mock_response",), SectionShape("retrieval_mock_raise"), "§5.15", RP, "0.102.0",
              "Literal `error_type` / `message` for the raised exception (non-2xx entries only).", handled_by=PART),
    Directive("error_type", ("retrieval_mock_raise",), STR, "§5.15", RP, "0.102.0", "The exception's literal error_type.", handled_by=PART),
    Directive("message", ("retrieval_mock_raise",), STR, "§5.15", RP, "0.102.0", "The exception's literal message (the event's error_message).", handled_by=PART),
    Directive("message_repeat", ("retrieval_mock_raise", "llm_mock_raise"), SectionShape("message_repeat"), "§5.15", RP, V_REPEAT,
              "The exception's message synthesized instead of written out (an oversized message, e.g. for truncation).", handled_by=PART),
    Directive("char", ("message_repeat",), STR, "§5.15", RP, V_REPEAT, "The repeated character (may be multi-byte).", handled_by=PART),
    Directive("bytes", ("message_repeat",), INT, "§5.15", RP, V_REPEAT,
              "The byte budget: the largest whole number of `char` repetitions fitting in it.", handled_by=PART),

    Directive("shares_provider", CASE, BOOL, "§3.2 header", RP, None,
              "Every call of one kind and model in the case goes to one provider instance.", handled_by=capture("retrieval"),
              extension=Extension("`shares_provider: true` on a case: its `calls_embed` / `calls_rerank` / `calls_ready` calls of "
                                  "one kind and model share one provider instance (otherwise each call binds its own), so a "
                                  "case can call one provider repeatedly — what §3 / §5's idempotent `ready()` and stateless "
                                  "`embed()` / `rerank()` are about.")),

    # ---- wire assertions (§5.15) ---------------------------------------------------------------
    Directive("expected_wire_request_count", CASE, INT, "§5.15", RP, "0.102.0", "How many outbound requests the call issues.", handled_by=case_expectation("retrieval-provider")),
    Directive("expected_wire_url", CASE, Expect(("scalar",)), "§3.2 header", RP, None,
              "The fully resolved URL the outbound request goes to (base_url origin + the mapping's route), exactly.", handled_by=case_expectation("retrieval-provider")),
    Directive("expected_wire_headers", CASE, MapOf(Expect(("scalar",)), "HTTP header name"), "§5.15", RP, "0.102.0",
              "Request headers that must be present with these values (subset, names case-insensitive).", handled_by=case_expectation("retrieval-provider")),
]
