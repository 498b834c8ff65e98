"""Directives specific to the observability fixtures (the capability's spec and its §3.2 header notes).

The observability suite drives real provider / tool calls from node bodies (``calls_llm``,
``calls_llm_from_wrapper``, ``calls_tool``), augments and reads the §3.4 invocation metadata,
configures the bundled OTel / Langfuse observers per case, and asserts what those observers rendered:
OTel span trees and log records (§6.3 collector capture), Langfuse traces (§6.4 mock), metric
observations (§6.9). What conformance-adapter §5 documents, and the header vocabulary other suites
share (``span_tree`` / ``log_records`` / ``emits_log`` in sessions, ``otel_spans`` in suspension) or
may reuse (the node behaviours, observer and prompt configuration), is general; assertions only this
directory's fixtures make are directory-scoped (``_local``).

The typed-event collectors (``typed_observers``, ``expected.observers``) and the mock providers
(``mock_llm``, ``mock_embedding`` …) the suite shares with the provider suites live in
:mod:`.llm_provider` / :mod:`.retrieval_provider`; ``calls_llm`` reuses that module's RuntimeConfig and
call-level-retry families.
"""

from __future__ import annotations

from .handlers import capture, COMPOSITION, direct, expectation, node, node_middleware, NOT_EXECUTED, PART, SHAPE, STATIC
from .registry import Directive, Extension, Family, Handler, Handlers, Judged
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "observability"
OBS = CAPABILITY
ADAPTER = "conformance-adapter"
CASE = ("fixture", "case")
GRAPH = ("fixture", "case", "graph")
NODE = ("node",)
EXPECTED = ("expected",)
HEADER = "§3.2 header"

# Spec versions the directives arrived in (CHANGELOG: the proposal that introduced the fixtures).
V_OTEL = "0.7.0"          # proposal 0007: the OTel mapping
V_GENAI = "0.17.0"        # proposal 0024: GenAI request / response attributes, opt-out flags
V_LANGFUSE = "0.23.0"     # proposal 0031: the Langfuse mapping (§8)
V_METADATA = "0.25.0"     # proposal 0034: caller-supplied invocation metadata (§3.4)
V_LINEAGE = "0.37.0"      # proposal 0045: nested-lineage augmentation
V_CACHE = "0.39.0"        # proposal 0047: OA-namespaced cache attributes (§5.5.3.1)
V_QUERY = "0.40.0"        # proposal 0048: get_invocation_metadata() and the queryable observer pattern (§9)
V_ATTRIBUTION = "0.44.0"  # proposal 0052: implementation attribution (§5.1, §8.4.1)
V_ADAPTER = "0.48.0"      # proposal 0055: conformance-adapter created
V_TYPED = "0.51.0"        # proposal 0057: typed LlmCompletionEvent (active prompt / group)
V_PAYLOAD = "0.54.0"      # proposal 0059: `disable_provider_payload` (renamed from disable_llm_payload)
V_METRICS = "0.64.0"      # proposal 0067: metrics (§11) and the §6.9 metric-capture primitive
V_TOOLS = "0.69.0"        # proposal 0063: tool-call instrumentation
V_ORPHAN = "0.81.0"       # proposal 0084: nested fan-out span lineage, `calls_llm_from_wrapper`
V_ISOLATION = "0.109.0"   # proposal 0115: Langfuse provider-isolation conformance
V_FAIL_CLOSED = "0.110.0" # proposal 0116: the payload-leak invariant's raise / suppress / opt-out arms
V_OTEL_BLOCK = "0.115.0"  # the `otel_observer` block (conformance-adapter §5.5; runtime CHANGELOG, proposal 0121 entry)
V_BARRIER = "0.118.0"     # proposal 0124: the `await_event_delivery` barrier (conformance-adapter §5.1)


def _general(name: str, where: tuple[str, ...], shape: Shape, since: str | None, doc: str, section: str = HEADER, handled_by: Handlers = (),
             judged: Judged | tuple[Judged, ...] = ()) -> Directive:
    """A directive of this directory's §3.2 header vocabulary that other suites may use too (general scope)."""
    return Directive(name, where, shape, section, OBS, since, doc, handled_by=handled_by, judged=judged)


def _local(name: str, where: tuple[str, ...], shape: Shape, since: str | None, doc: str, section: str = HEADER, handled_by: Handlers = (),
           judged: Judged | tuple[Judged, ...] = ()) -> Directive:
    """A directive of this directory's §3.2 header vocabulary (accepted in observability fixtures only)."""
    return Directive(name, where, shape, section, OBS, since, doc, scope="directory", handled_by=handled_by, judged=judged)


FAMILIES: list[Family] = [
    # ---- node behaviours (conformance-adapter §5.1; §3.2 header) ------------------------------
    Family("obs_llm_call", "ObsLlmCall", "`calls_llm`: the node makes one real `complete()` call against the mock provider (§5.1)."),
    Family("obs_llm_wrapper_call", "ObsLlmWrapperCall",
           "`calls_llm_from_wrapper`: a middleware around the node makes one `complete()` call while the node's span is not open (§5.1).",
           required=("messages",)),
    Family("obs_tool_call", "ObsToolCall", "`calls_tool`: the node runs a mock tool inside the graph-engine §6 tool-call scope.",
           required=("tool_name", "mock_tool")),
    Family("tool_mock", "ToolMock", "What the mock tool does: return a result or raise.", exclusive=(("returns", "raises"),)),
    Family("tool_mock_raise", "ToolMockRaise", "The exception a mock tool raises.", required=("error_type", "message")),
    Family("log_emission", "LogEmission", "`emits_log`: a log record the node emits through the OTel Logs Bridge (observability §7).",
           required=("message",)),
    Family("global_tracer_span", "GlobalTracerSpan",
           "`also_emits_via_global_tracer`: a span the node emits directly through the OTel global TracerProvider.",
           required=("span_name",)),
    Family("prompt_group_render", "PromptGroupRender",
           "`renders_prompt_group`: make a PromptGroup and one of its members the active prompt contexts.",
           required=("group_name", "members", "active_prompt")),
    Family("attempt_behavior", "AttemptBehavior", "What a retried node does on one attempt (`per_attempt_behavior`).",
           required=("attempt",)),
    Family("subgraph_call", "SubgraphCall", "`subgraph_call`: run a declared subgraph as this node, with an explicit mapping.",
           required=("subgraph",)),
    Family("queryable_observer", "QueryableObserverDecl", "A harness-defined queryable observer attached at invoke (observability §9).",
           required=("name", "kind")),
    Family("queryable_observer_read", "QueryableObserverRead",
           "Call a queryable observer's read method mid-invocation and capture the value into state (observability §9.1).",
           required=("observer_name", "method", "state_field")),
    Family("queryable_observer_drop", "QueryableObserverDrop",
           "Call a queryable observer's `drop(invocation_id)` for the current invocation (observability §9.4).",
           required=("observer_name",)),

    # ---- case configuration (§5.5; §3.2 header) ------------------------------------------------
    Family("langfuse_observer_config", "LangfuseObserverConfig", "Construction flags of the bundled Langfuse observer (observability §8)."),
    Family("otel_observer_config", "OtelObserverConfig",
           "Construction flags of the bundled OTel observer (§5.5): the OTel side only; the Langfuse observer keeps its own."),
    Family("langfuse_client", "LangfuseClientDecl", "How the Langfuse observer's client is constructed (§5.5, observability §8.9).",
           required=("mode",)),
    Family("adapter_capability_requirement", "AdapterCapabilityRequirement",
           "The adapter capabilities a case is asserted under (§5.5, proposal 0116): one key per capability, "
           "the value the adapter must have; a case whose requirement the adapter does not meet is a recognized skip."),
    Family("construction_error_expectation", "ConstructionErrorExpectation",
           "Standing up the case's observers / clients (or their first use) raises this error (§5.5): "
           "a category, or (an extension) the type of an uncategorized refusal.",
           any_of=(("category", "exception_kind"),)),
    Family("obs_prompt_backend", "ObsPromptBackend", "The PromptBackend whose prompts `renders_prompt` renders.",
           required=("type", "prompts")),
    Family("obs_prompt", "ObsPrompt", "One prompt the backend serves (prompt-management §3).",
           required=("name", "version", "label", "template", "template_hash")),
    Family("obs_token_budget", "ObsTokenBudget", "A prompt's token budget (prompt-management §3, observability §5.5.15)."),
    Family("obs_llm_provider", "ObsLlmProvider", "The LLM provider instance `calls_llm` uses, when not the default mock.", required=("type",)),
    Family("sequential_invocations", "SequentialInvocations",
           "Run the fixture's graph once per listed invocation, with the same observers attached.",
           required=("invocations",)),
    Family("direct_call", "DirectCall", "Call an observability API directly, outside any invocation (no graph).", required=("operation",)),

    # ---- expected outcome (§5.8; §3.2 header) --------------------------------------------------
    Family("otel_trace_expectation", "OtelTraceExpectation", "One OTel trace: its id (optional) and its span tree (detached trace mode).",
           required=("span_tree",)),
    Family("metric_observation", "MetricObservation", "One recorded metric observation (§5.8 `metrics`, §6.9).",
           required=("instrument", "dimensions")),
    Family("value_bounds", "ValueBounds", "Inclusive bounds on a numeric value."),
]

# The operations `update_pure_from_state` maps a state field through (the observability header notes:
# `doubled: input_times_two` — "doubled = input * 2"): name → (the input field, its multiplier). The one
# table: the schema's enum and the node step both read it.
STATE_OPERATIONS = {"input_times_two": ("input", 2)}
# The caller hooks a `langfuse_observer` names for §8.4.1 Trace input/output sourcing: a domain
# summary, the language's null (falls through the decision tree), the state itself.
TRACE_HOOKS = Enum(("returns_job_input_summary", "returns_job_output_summary", "returns_null", "returns_state_snapshot"))
# The §11.2 instruments the §6.9 metric capture records.
INSTRUMENTS = Enum((
    "openarmature.gen_ai.client.token.usage",
    "openarmature.gen_ai.client.operation.duration",
    "openarmature.gen_ai.client.token_budget.exceeded",
    "openarmature.gen_ai.client.token_budget.utilization",
))

DIRECTIVES: list[Directive] = [
    # ---- provider and tool calls from a node (§5.1) --------------------------------------------
    Directive("calls_llm", NODE, SectionShape("obs_llm_call"), "§5.1", OBS, V_OTEL,
              "Issue one real `complete()` against the mock provider (`mock_llm`) and store the response content in state.", handled_by=node("calls_llm")),
    Directive("messages", ("obs_llm_call", "obs_llm_wrapper_call"), Data(("list",)), "§5.1", OBS, V_OTEL,
              "The llm-provider §3 messages sent (a `content_repeat: {char, bytes}` content expands to a long string).", handled_by=PART),
    Directive("stores_response_in", ("obs_llm_call",), STR, "§5.1", OBS, V_OTEL, "The state field receiving the response content.", handled_by=PART),
    Directive("model", ("obs_llm_call",), STR, HEADER, OBS, None, "The model the call names.", handled_by=PART),
    Directive("config", ("obs_llm_call",), SectionShape("llm_runtime_config"), HEADER, OBS, V_GENAI, "The call's RuntimeConfig (llm-provider §6).", handled_by=PART),
    Directive("response_schema", ("obs_llm_call",), Data(("map",)), HEADER, OBS, "0.77.0",
              "The JSON Schema passed to `complete()`; unparseable content raises `structured_output_invalid`.", handled_by=PART),
    Directive("tools", ("obs_llm_call",), Data(("list",)), HEADER, OBS, None, "The llm-provider §4 tools offered to the model.", handled_by=PART),
    Directive("stream", ("obs_llm_call",), BOOL, HEADER, OBS, "0.71.0",
              "Call `complete(..., stream=True)`: the mock replays `mock_llm_stream` and token events fire.", handled_by=NOT_EXECUTED),
    Directive("retry", ("obs_llm_call",), SectionShape("llm_call_retry"), HEADER, OBS, None,
              "Call-level retry (llm-provider §7.1); its `mock_llm_stream` entry is `{wire_attempts}`.", handled_by=NOT_EXECUTED),
    Directive("response", ("obs_llm_call",), STR, HEADER, OBS, None,
              "Inline canned response content, in place of a `mock_llm` entry.", handled_by=NOT_EXECUTED),

    Directive("calls_llm_from_wrapper", NODE, SectionShape("obs_llm_wrapper_call"), "§5.1", OBS, V_ORPHAN,
              "A middleware around the node issues one `complete()` before / after `next()`, orphaned from the node span.", handled_by=node_middleware("calls_llm_from_wrapper")),
    Directive("phase", ("obs_llm_wrapper_call",), Enum(("pre", "post")), "§5.1", OBS, V_ORPHAN,
              "`pre`: before `next()` (node span not yet open); `post`: after it returns. Default pre.", handled_by=PART),
    Directive("await_event_delivery", ("obs_llm_wrapper_call",), BOOL, "§5.1", OBS, V_BARRIER,
              "Barrier: delivery of this call's provider event to every observer completes before the wrapper "
              "proceeds past the call site (`pre`: before `next()`); a barrier that cannot hold fails the case.", handled_by=PART),

    Directive("calls_tool", NODE, SectionShape("obs_tool_call"), HEADER, OBS, V_TOOLS,
              "Run a mock tool inside the tool-call instrumentation scope; OA emits ToolCallEvent / ToolCallFailedEvent.", handled_by=node("calls_tool")),
    Directive("tool_name", ("obs_tool_call",), STR, HEADER, OBS, V_TOOLS, "The tool's name.", handled_by=PART),
    Directive("tool_call_id", ("obs_tool_call",), Nullable(STR), HEADER, OBS, V_TOOLS,
              "The model's tool-call id; absent or null for a standalone instrumented function.", handled_by=PART),
    Directive("arguments", ("obs_tool_call",), Data(("map",)), HEADER, OBS, V_TOOLS, "The arguments the tool is called with.", handled_by=PART),
    Directive("mock_tool", ("obs_tool_call",), SectionShape("tool_mock"), HEADER, OBS, V_TOOLS, "What the tool does.", handled_by=PART),
    Directive("stores_result_in", ("obs_tool_call",), STR, HEADER, OBS, V_TOOLS, "The state field receiving the tool's result.", handled_by=PART),
    Directive("returns", ("tool_mock",), Data(), HEADER, OBS, V_TOOLS, "The tool returns this result (ToolCallEvent).", handled_by=PART),
    Directive("raises", ("tool_mock",), SectionShape("tool_mock_raise"), HEADER, OBS, V_TOOLS,
              "The tool raises (ToolCallFailedEvent); the exception propagates out of the node.", handled_by=PART),
    Directive("error_type", ("tool_mock_raise",), STR, HEADER, OBS, V_TOOLS, "The exception's type name.", handled_by=PART),
    Directive("message", ("tool_mock_raise",), STR, HEADER, OBS, V_TOOLS, "The exception's message.", handled_by=PART),

    # ---- prompts (§3.2 header) -----------------------------------------------------------------
    Directive("renders_prompt", NODE, STR, HEADER, OBS, V_LANGFUSE,
              "Render this `prompt_backend` prompt with `render_variables` and make it the active prompt for the node's calls.", handled_by=node("renders_prompt")),
    Directive("renders_prompt_group", NODE, SectionShape("prompt_group_render"), HEADER, OBS, V_TYPED,
              "Make a PromptGroup and its `active_prompt` member the active contexts for the node's calls.", handled_by=node("renders_prompt_group")),
    Directive("group_name", ("prompt_group_render",), STR, HEADER, OBS, V_TYPED, "The group's name.", handled_by=PART),
    Directive("members", ("prompt_group_render",), ListOf(STR), HEADER, OBS, V_TYPED,
              "The member prompts (two or more `prompt_backend` prompts), in order.", handled_by=PART),
    Directive("active_prompt", ("prompt_group_render",), STR, HEADER, OBS, V_TYPED, "The member bound as the active Prompt.", handled_by=PART),

    # ---- invocation metadata (§5.1, observability §3.4) ----------------------------------------
    Directive("augment_metadata", NODE + ("branch", "attempt_behavior"), Data(("map",)), "§5.1", OBS, V_METADATA,
              "Call `set_invocation_metadata(**kwargs)` (on a branch: at the top of the branch's body).", handled_by=(Handler("node", "augment_metadata", families=("node", "attempt_behavior")), Handler("part", families=("branch",)))),
    Directive("augment_metadata_from_field", NODE + ("fan_out",), MapOf(STR, "metadata key"), "§5.1", OBS, V_METADATA,
              "`{<key>: <field>}`: set `<key>` to the field's value (on a fan-out: each instance, from its item).", handled_by=(Handler("node", "augment_metadata_from_field", families=("node",)), Handler("not_executed", families=("fan_out",)))),
    Directive("augment_metadata_from_outer_item", ("branch",), MapOf(STR, "metadata key"), HEADER, OBS, V_LINEAGE,
              "`{<key>: <field>}`: set `<key>` from the surrounding fan-out instance's item, at the top of the branch's body.", handled_by=NOT_EXECUTED),
    Directive("capture_invocation_metadata_into", NODE + ("attempt_behavior",), STR, "§5.1", OBS, V_QUERY,
              "Write the `get_invocation_metadata()` snapshot into this state field.", handled_by=node("capture_invocation_metadata_into")),

    # ---- queryable observers (observability §9) ------------------------------------------------
    Directive("capture_queryable_observer_read_into", NODE, SectionShape("queryable_observer_read"), HEADER, OBS, V_QUERY,
              "Call a queryable observer's read method and write the value into a state field.", handled_by=node("capture_queryable_observer_read_into")),
    Directive("observer_name", ("queryable_observer_read", "queryable_observer_drop"), STR, HEADER, OBS, V_QUERY,
              "The `queryable_observers` entry.", handled_by=PART),
    Directive("method", ("queryable_observer_read",), Enum(("get_count", "get_snapshot", "get_bucket_for_current_invocation")),
              HEADER, OBS, V_QUERY, "The read method (per observer kind).", handled_by=PART),
    Directive("state_field", ("queryable_observer_read",), STR, HEADER, OBS, V_QUERY, "The field receiving the value.", handled_by=PART),
    Directive("then_drop_for_current_invocation", NODE, SectionShape("queryable_observer_drop"), HEADER, OBS, V_QUERY,
              "Then call the observer's `drop(invocation_id)` for the current invocation.", handled_by=node("then_drop_for_current_invocation")),
    Directive("then_assert_bucket_absent_into", NODE, STR, HEADER, OBS, V_QUERY,
              "Then re-read the current invocation's bucket and write whether it is absent into this field.", handled_by=node("then_assert_bucket_absent_into")),
    Directive("queryable_observers", CASE, ListOf(SectionShape("queryable_observer")), HEADER, OBS, V_QUERY,
              "Harness-defined queryable observers attached at invoke time.", handled_by=capture("queryable_observers")),
    Directive("name", ("queryable_observer",), STR, HEADER, OBS, V_QUERY, "The observer's name.", handled_by=PART),
    Directive("kind", ("queryable_observer",), Enum(("event_counter", "typed_event_counter", "per_invocation_accumulator")),
              HEADER, OBS, V_QUERY,
              "`event_counter` (get_count), `typed_event_counter` (get_snapshot), `per_invocation_accumulator` (get_bucket / drop).", handled_by=PART),
    Directive("persists_across_invocations", ("queryable_observer",), BOOL, HEADER, OBS, V_QUERY,
              "One instance stays attached across `sequential_invocations`.", handled_by=PART),

    # ---- other node behaviours -----------------------------------------------------------------
    Directive("update_pure_from_state", NODE, MapOf(Enum(tuple(STATE_OPERATIONS)), "output field"), "§5.1", OBS, V_OTEL,
              "`{<output_field>: <operation>}`: return the field computed by a named harness operation (`input_times_two`).", handled_by=node("update_pure_from_state")),
    Directive("emits_log", NODE, SectionShape("log_emission"), HEADER, OBS, V_OTEL,
              "Emit a log record through the OTel Logs Bridge while the node runs.", handled_by=node("emits_log")),
    Directive("message", ("log_emission",), STR, HEADER, OBS, V_OTEL, "The record's body.", handled_by=PART),
    Directive("level", ("log_emission",), STR, HEADER, OBS, V_OTEL, "The record's severity (e.g. INFO).", handled_by=PART),
    Directive("also_emits_via_global_tracer", NODE, SectionShape("global_tracer_span"), HEADER, OBS, V_OTEL,
              "The harness also emits a span through the global TracerProvider (the §6 isolation case).", handled_by=node("also_emits_via_global_tracer")),
    Directive("span_name", ("global_tracer_span",), STR, HEADER, OBS, V_OTEL, "The external span's name.", handled_by=PART),
    Directive("per_attempt_behavior", NODE, ListOf(SectionShape("attempt_behavior")), HEADER, OBS, V_QUERY,
              "What the node does on each attempt under retry.", handled_by=node("per_attempt_behavior")),
    Directive("subgraph_call", NODE, SectionShape("subgraph_call"), HEADER, OBS, V_LINEAGE,
              "Run a declared subgraph as this node, with an explicit output mapping.", handled_by=COMPOSITION),
    Directive("inner_subgraph", ("fan_out",), STR, HEADER, OBS, V_METADATA,
              "The `inner_subgraphs` entry each fan-out instance runs (its items project in whole).", handled_by=NOT_EXECUTED),
    Directive("inner_subgraphs", GRAPH, MapOf(SectionShape("graph"), "subgraph name"), HEADER, OBS, V_METADATA,
              "Subgraphs run by fan-out instances (`inner_subgraph`) or by name-listed parallel branches.", handled_by=(Handler("graph", "observability", families=("fixture", "case")), Handler("part", families=("graph",)))),

    _general("attempt", ("attempt_behavior",), INT, V_QUERY, "The attempt index (0-based) this entry applies to.", handled_by=PART),
    _general("raises", ("attempt_behavior",), STR, V_QUERY, "Raise this harness error (a transient one the retry classifier matches).", handled_by=PART),
    _general("succeeds", ("attempt_behavior",), BOOL, V_QUERY, "The attempt returns normally.", handled_by=PART),
    _local("retry_middleware", NODE, SectionShape("middleware"), V_QUERY,
           "Wrap the node in a pipeline-utilities §6.1 RetryMiddleware (`max_attempts`, `classifier`).", handled_by=node_middleware("retry_middleware")),
    _general("subgraph", ("subgraph_call",), STR, V_LINEAGE, "The declared subgraph.", handled_by=PART),
    _general("inputs", ("subgraph_call",), Data(("map",)), V_LINEAGE, "Parent field → subgraph field.", handled_by=PART),
    _general("outputs", ("subgraph_call",), Data(("map",)), V_LINEAGE, "Parent field ← subgraph field.", handled_by=PART),
    _local("branches", ("parallel_branches",), OneOf((MapOf(SectionShape("branch"), "branch name"), ListOf(STR))), V_QUERY,
           "The branches, by name; or a list of names, each running the same-named `inner_subgraphs` entry.", handled_by=PART),

    # ---- observer configuration (§5.5; §3.2 header) --------------------------------------------
    Directive("caller_global_otel_active", CASE, BOOL, "§5.5", OBS, V_OTEL,
              "Install a second exporter on the OTel global TracerProvider (the §6 isolation check).", handled_by=capture("otel")),
    Directive("disable_llm_spans", CASE + ("langfuse_observer_config",), BOOL, "§5.5", OBS, V_OTEL,
              "Construct the observer with the §5.5 LLM-span opt-out.", handled_by=(Handler("capture", "otel", families=("fixture", "case")), Handler("part", families=("langfuse_observer_config",)))),
    Directive("disable_provider_payload", CASE + ("langfuse_observer_config", "otel_observer_config"), BOOL, HEADER, OBS, V_PAYLOAD,
              "The §5.5.4 provider-payload opt-out (default true), per observer; at case level (before `otel_observer`), "
              "both observers' unless the `langfuse_observer` block sets its own.", handled_by=(Handler("capture", "otel", families=("fixture", "case")), Handler("part", families=("langfuse_observer_config", "otel_observer_config")))),
    Directive("disable_genai_semconv", CASE + ("otel_observer_config",), BOOL, HEADER, OBS, V_GENAI,
              "The §5.5.4 GenAI-semconv opt-out of the OTel observer.", handled_by=(Handler("capture", "otel", families=("fixture", "case")), Handler("part", families=("otel_observer_config",)))),
    Directive("otel_observer", CASE, SectionShape("otel_observer_config"), "§5.5", OBS, V_OTEL_BLOCK,
              "The bundled OTel observer's construction flags; a flag it sets wins over the case-level key of the same name.", handled_by=capture("otel")),
    Directive("enable_metrics", CASE, BOOL, "§6.9", OBS, V_METRICS, "Turn on the observer's §11 metrics (default off).", handled_by=capture("otel")),
    Directive("detached_subgraphs", CASE, ListOf(STR), HEADER, OBS, V_OTEL, "Subgraphs rendered as detached traces (observability §4.4).", handled_by=capture("otel")),
    Directive("detached_fan_outs", CASE, ListOf(STR), HEADER, OBS, V_OTEL, "Fan-out nodes rendered as detached traces (observability §4.4).", handled_by=capture("otel")),
    Directive("langfuse_observer", CASE, SectionShape("langfuse_observer_config"), HEADER, OBS, V_LANGFUSE,
              "Attach the bundled Langfuse observer, with these flags.", handled_by=capture("langfuse")),
    Directive("langfuse_observer_config", CASE, SectionShape("langfuse_observer_config"), HEADER, OBS, V_ATTRIBUTION,
              "Same as `langfuse_observer` (an alternative spelling one fixture uses).", handled_by=capture("langfuse")),
    Directive("payload_byte_cap", ("langfuse_observer_config", "otel_observer_config"), INT, HEADER, OBS, V_LANGFUSE,
              "The §5.5.5 per-payload truncation cap, per observer (the OTel observer's `payload_max_bytes`; default 64 KiB).", handled_by=PART),
    Directive("trace_input_from_state", ("langfuse_observer_config",), TRACE_HOOKS, HEADER, OBS, "0.35.0",
              "The §8.4.1 caller hook (lever 1) sourcing `trace.input`, by harness name.", handled_by=PART),
    Directive("trace_output_from_state", ("langfuse_observer_config",), TRACE_HOOKS, HEADER, OBS, "0.35.0",
              "The §8.4.1 caller hook (lever 1) sourcing `trace.output`, by harness name.", handled_by=PART),
    _local("first_run_expected", CASE, SectionShape("expected"), "0.35.0",
           "What the first run of a resume case must produce (beside `first_run_expected_error`).", handled_by=expectation("expected"),
           judged=Judged("run_block", 0, first_run=True)),
    _local("first_trace_unchanged", EXPECTED, BOOL, "0.35.0",
           "The first run's Langfuse Trace is still as the first run left it after the resume.", handled_by=SHAPE),
    Directive("disable_state_payload", ("langfuse_observer_config",), BOOL, HEADER, OBS, "0.35.0",
              "The §8.4.1 trace input/output privacy knob (default true).", handled_by=PART),
    Directive("langfuse_client", CASE, SectionShape("langfuse_client"), "§5.5", OBS, V_ISOLATION,
              "Construct the Langfuse observer's client (the provider-faithful §6.4 fake).", handled_by=capture("langfuse")),
    Directive("mode", ("langfuse_client",), Enum(("credentials", "supplied")), "§5.5", OBS, V_ISOLATION,
              "`credentials`: the implementation builds it (§8.9 mode b); `supplied`: the harness builds and hands it in (mode a).", handled_by=PART),
    Directive("provider", ("langfuse_client",), Enum(("global", "isolated")), "§5.5", OBS, V_ISOLATION,
              "`supplied` only: the TracerProvider the client is bound to (default global).", handled_by=PART),
    Directive("preexisting_same_key_client", ("langfuse_client",), BOOL, "§5.5", OBS, V_FAIL_CLOSED,
              "`credentials` only: the harness first builds a same-credential client on the global provider, so the "
              "implementation is not the SDK's first constructor for that key (default false).", handled_by=PART),
    Directive("accept_shared_provider", ("langfuse_client",), BOOL, "§5.5", OBS, V_FAIL_CLOSED,
              "`credentials` only: the caller's single shared-provider opt-out on the observer's construction (default false).", handled_by=PART),
    _general("requires_capability", CASE, SectionShape("adapter_capability_requirement"), V_FAIL_CLOSED,
             "Assert the case only under an adapter whose capabilities match (else a recognized skip naming the mismatch).",
             section="§5.5", handled_by=STATIC),
    _general("langfuse_bound_provider_detection", ("adapter_capability_requirement",), BOOL, V_FAIL_CLOSED,
             "The implementation can establish which TracerProvider its Langfuse client is bound to (observability §6).",
             section="§5.5", handled_by=PART),
    _general("expected_construction_error", CASE, SectionShape("construction_error_expectation"), V_FAIL_CLOSED,
             "Constructing the case's observers / clients, or their first use, raises this categorized error.", section="§5.5", handled_by=expectation("construction_error"),
             judged=Judged("construction_error")),
    _general("category", ("construction_error_expectation",), STR, V_FAIL_CLOSED, "The error's category token.", section="§5.5", handled_by=PART),
    Directive("exception_kind", ("construction_error_expectation",), STR, "§5.5", ADAPTER, None,
              "The host-language type of what construction raised (Python's spelling, e.g. `ValueError`).", handled_by=PART,
              extension=Extension("`exception_kind` on an expected construction error: the type of an UNCATEGORIZED refusal, "
                                  "as `expected_error.exception_kind` names the type of what an invocation raised. "
                                  "Observability §5.5.5 requires a payload cap under 256 bytes to be rejected at observer "
                                  "construction and names no category for it, so `category` cannot say the runtime refused; "
                                  "with `exception_kind` alone the error must carry no category.")),
    Directive("prompt_backend", CASE, SectionShape("obs_prompt_backend"), HEADER, OBS, V_LANGFUSE, "The backend serving `renders_prompt` prompts.", handled_by=capture("prompts")),
    Directive("render_variables", CASE, Data(("map",)), HEADER, OBS, V_LANGFUSE, "The variables `renders_prompt` renders with.", handled_by=capture("prompts")),

    _general("type", ("obs_prompt_backend",), Enum(("filesystem", "mock_with_langfuse_reference")), V_LANGFUSE,
           "`filesystem`, or a mock exposing a Langfuse Prompt reference (§8.4.4).", handled_by=PART),
    _general("prompts", ("obs_prompt_backend",), MapOf(SectionShape("obs_prompt"), "prompt name"), V_LANGFUSE, "The prompts it serves.", handled_by=PART),
    _general("name", ("obs_prompt",), STR, V_LANGFUSE, "The prompt's name.", handled_by=PART),
    _general("version", ("obs_prompt",), STR, V_LANGFUSE, "Its version.", handled_by=PART),
    _general("label", ("obs_prompt",), STR, V_LANGFUSE, "Its label.", handled_by=PART),
    _general("template", ("obs_prompt",), STR, V_LANGFUSE, "Its template.", handled_by=PART),
    _general("template_hash", ("obs_prompt",), STR, V_LANGFUSE, "Its template hash, as served.", handled_by=PART),
    _general("langfuse_prompt_reference", ("obs_prompt",), STR, V_LANGFUSE, "The Langfuse Prompt entity the generation links to.", handled_by=PART),
    _general("token_budget", ("obs_prompt",), SectionShape("obs_token_budget"), "0.78.0", "The budget the backend surfaces on Prompt.token_budget.", handled_by=PART),
    _general("input_max_tokens", ("obs_token_budget",), Nullable(INT), "0.78.0", "The input-token bound.", handled_by=PART),
    _general("total_max_tokens", ("obs_token_budget",), Nullable(INT), "0.78.0", "The total-token bound.", handled_by=PART),
    _general("provider", CASE, SectionShape("obs_llm_provider"), V_GENAI, "The LLM provider instance `calls_llm` uses.", handled_by=capture("providers")),
    _general("type", ("obs_llm_provider",), Enum(("openai_compatible",)), V_GENAI, "The provider kind.", handled_by=PART),
    _general("genai_system", ("obs_llm_provider",), STR, V_GENAI, "The configured `gen_ai.system` value (§5.5.3).", handled_by=PART),

    _local("informative", ("fixture",), BOOL, V_QUERY, "The fixture documents a contract boundary; a failure is not a conformance failure.", handled_by=Handler("static", "observability")),
    _general("sequential_invocations", CASE, SectionShape("sequential_invocations"), V_QUERY,
           "Run the graph once per listed invocation with the same observer instances; assert `expected.per_invocation`.", handled_by=Handler("run", "observability")),
    _general("observer_persists_across", ("sequential_invocations",), BOOL, V_QUERY, "The observers stay attached between invocations.", handled_by=PART),
    _general("invocations", ("sequential_invocations",), ListOf(SectionShape("invocation")), V_QUERY, "The invocations, in order.", handled_by=PART),
    _general("direct_call", CASE, SectionShape("direct_call"), V_QUERY, "Call an observability API outside any invocation (no graph runs).", handled_by=direct("observability")),
    _general("operation", ("direct_call",), Enum(("get_invocation_metadata",)), V_QUERY, "The API called.", handled_by=PART),

    # ---- expected: OTel (§5.8, §6.3; §3.2 header) ----------------------------------------------
    Directive("span_tree", EXPECTED + ("otel_trace_expectation",), Expect(("list",)), HEADER, OBS, V_OTEL,
              "The exported spans as a tree: `name`, `status`, `attributes` (subset), `children`, and matcher keys "
              "(`attributes_absent`, `exception_recorded`, `attribute_parses_as_*` …).", handled_by=(Handler("expectation", "shape", families=("expected",)), Handler("part", families=("otel_trace_expectation",)))),
    Directive("otel_spans", EXPECTED, MapOf(Expect(("map",)), "observer name"), "§5.8", OBS, V_ADAPTER,
              "Per OTel observer, the root span's tree (`name`, `status`, `attributes`, `children`).", handled_by=NOT_EXECUTED),
    Directive("log_records", EXPECTED, Expect(("list",)), HEADER, OBS, V_OTEL,
              "The exported log records: `body`, `attributes` (subset), `attributes_absent`.", handled_by=SHAPE),
    Directive("no_openarmature_spans_on_global", EXPECTED, BOOL, "§5.5", OBS, V_OTEL,
              "No openarmature span reached the global TracerProvider's exporter.", handled_by=SHAPE),
    Directive("metrics", EXPECTED, ListOf(SectionShape("metric_observation")), "§5.8", OBS, V_METRICS,
              "The recorded metric observations, exhaustively (`[]`: none).", handled_by=SHAPE),
    Directive("instrument", ("metric_observation",), INSTRUMENTS, "§5.8", OBS, V_METRICS, "The §11.2 instrument.", handled_by=PART),
    Directive("dimensions", ("metric_observation",), Expect(("map",)), "§5.8", OBS, V_METRICS, "The observation's §11.3 dimensions.", handled_by=PART),
    Directive("value", ("metric_observation",), NUM, "§5.8", OBS, V_METRICS, "The recorded value (omitted for durations).", handled_by=PART),

    _general("span_tree_private", EXPECTED, Expect(("list",)), V_OTEL, "The spans on openarmature's private exporter.", handled_by=SHAPE),
    _general("span_tree_global", EXPECTED, Expect(("list",)), V_OTEL, "The spans on the global TracerProvider's exporter.", handled_by=SHAPE),
    _local("parent_trace", EXPECTED, SectionShape("otel_trace_expectation"), V_OTEL,
           "The trace the invocation started in (detached mode): its span tree.", handled_by=SHAPE),
    _local("determinism_check", EXPECTED, Expect(("map",)), V_OTEL,
           "Compare the span trees of two runs (`compare_runs`, `ignore_attributes`, `compare`, `require_equal`).", handled_by=SHAPE),
    _general("fail_count", ("flaky",), INT, V_OTEL, "Compact count form: the first N attempts fail.", handled_by=PART),
    _general("category", ("flaky",), STR, V_OTEL, "The category the failing attempts raise (compact count form).", handled_by=PART),
    _local("traces", EXPECTED, ListOf(SectionShape("otel_trace_expectation")), V_ATTRIBUTION, "Several OTel traces (detached mode), each with its tree.", handled_by=SHAPE),
    _local("trace_id", ("otel_trace_expectation",), Expect(("scalar",)), V_ATTRIBUTION, "The trace's id (a `<trace_id_X>` binding).", handled_by=PART),
    _local("no_edge_spans", EXPECTED, BOOL, V_OTEL, "No span was emitted for an edge.", handled_by=SHAPE),
    _local("no_llm_provider_span", EXPECTED, BOOL, V_OTEL, "No LLM provider span was emitted.", handled_by=SHAPE),
    _local("no_spans_emitted", EXPECTED, BOOL, V_METADATA, "No span was emitted at all.", handled_by=SHAPE),
    _local("llm_span_attributes", EXPECTED, Expect(("map",)), V_CACHE, "Attributes the LLM provider span carries (subset).", handled_by=SHAPE),
    _local("llm_span_attributes_absent", EXPECTED, ListOf(STR), V_CACHE, "Attributes the LLM provider span does not carry.", handled_by=SHAPE),
    _local("invocation_count", EXPECTED, INT, V_OTEL, "How many invocations ran (`invocations: <n>`).", handled_by=SHAPE),
    _local("invocation_id", EXPECTED, Expect(("scalar",)), V_METADATA, "The invocation span's `openarmature.invocation_id`.", handled_by=SHAPE),

    # ---- expected: Langfuse (§5.5, §5.8; §3.2 header) ------------------------------------------
    Directive("langfuse_trace", EXPECTED, Expect(("map",)), "§5.8", OBS, V_LANGFUSE,
              "The recorded Langfuse Trace: `id`, `name`, `metadata` (subset), `metadata_absent`, `observations` tree "
              "(`type`, `name`, `metadata`, `metadata_absent`, `level`, Generation fields, `children`).", handled_by=SHAPE),
    Directive("langfuse_traces", EXPECTED, Expect(("list",)), "§5.8", OBS, V_LANGFUSE, "Several recorded Langfuse Traces (detached mode).", handled_by=SHAPE),
    Directive("no_langfuse_observations_on_global", EXPECTED, BOOL, "§5.5", OBS, V_ISOLATION,
              "No `langfuse.observation.*` span reached the global TracerProvider's exporter.", handled_by=SHAPE),
    Directive("no_langfuse_observations_on_private", EXPECTED, BOOL, "§5.5", OBS, V_ISOLATION,
              "No `langfuse.observation.*` span reached openarmature's private OTel exporter.", handled_by=SHAPE),
    Directive("langfuse_observations_on_global", EXPECTED, BOOL, "§5.5", OBS, V_ISOLATION,
              "At least one `langfuse.observation.*` span reached the global exporter.", handled_by=SHAPE),
    Directive("no_payload_bearing_langfuse_observations_on_global", EXPECTED, BOOL, "§5.5", OBS, V_FAIL_CLOSED,
              "No payload-bearing Langfuse observation (provider payload, non-stub Trace state, error_message) reached the "
              "global exporter (§6.4).", handled_by=SHAPE),
    Directive("payload_bearing_langfuse_observations_on_global", EXPECTED, BOOL, "§5.5", OBS, V_FAIL_CLOSED,
              "At least one payload-bearing Langfuse observation reached the global exporter (§6.4).", handled_by=SHAPE),
    _local("no_langfuse_observations_emitted", EXPECTED, BOOL, V_METADATA, "No Langfuse observation was recorded.", handled_by=SHAPE),
    _local("detached_trace_count", EXPECTED, INT, V_LANGFUSE, "How many detached Langfuse Traces were minted.", handled_by=SHAPE),

    # ---- expected: metadata, queryable observers, events ---------------------------------------
    _local("invoke_rejects_at_api_boundary", EXPECTED, BOOL, V_METADATA, "invoke() raised before any work (reserved metadata key).", handled_by=SHAPE),
    _local("augment_rejects_at_call_site", EXPECTED, BOOL, V_METADATA, "`set_invocation_metadata` raised at the call site (reserved name).", handled_by=SHAPE),
    _general("direct_call_result", EXPECTED, Expect(("map",)), V_QUERY, "The `direct_call`'s result: `value`, `type`, `exception`.", handled_by=SHAPE),
    _local("final_state_bounds", EXPECTED, MapOf(SectionShape("value_bounds"), "state field"), V_QUERY,
           "Inclusive bounds on final-state fields whose exact value is nondeterministic.", handled_by=SHAPE),
    _local("min", ("value_bounds",), NUM, V_QUERY, "The lower bound.", handled_by=PART),
    _local("max", ("value_bounds",), NUM, V_QUERY, "The upper bound.", handled_by=PART),
    _general("per_invocation", EXPECTED, MapOf(Predicates(), "invocation name"), V_QUERY,
           "Named checks per `sequential_invocations` entry.", handled_by=SHAPE),
    _local("node_completed_event_carries_error", EXPECTED, Expect(("map",)), V_TYPED,
           "The node's completed event carries the error (`node_name`, `error_category`).", handled_by=SHAPE),
]

# Fixture 011's conditional edge (its own comment: "when counter > 0, go to set_flag; else END"):
# an edge taken only when a state field compares greater than a number.
FAMILIES.append(Family("edge_when", "EdgeWhen", "When a conditional edge is taken: a state field compared with a number.",
                       required=("field", "gt")))
DIRECTIVES.extend([
    _local("when", ("edge",), SectionShape("edge_when"), None, "Take this edge only when the condition holds (else END).", handled_by=PART),
    _local("field", ("edge_when",), STR, None, "The state field compared.", handled_by=PART),
    _local("gt", ("edge_when",), NUM, None, "Holds when the field is greater than this number.", handled_by=PART),
])
