"""Directives specific to the prompt-management fixtures (the capability's spec and its §3.2 header notes).

These fixtures run no graph: the harness preloads mock ``PromptBackend``s (``backends``), composes
them into ``PromptManager``s (``manager`` …), performs ``calls`` against them and asserts each call's
result, the captured results (``expected``) and the backends' source-read counts. Every directive is
directory-scoped: ``calls`` and ``expected`` mean something else elsewhere.
"""

from __future__ import annotations

from .handlers import direct, PART, SHAPE
from .registry import Directive, Extension, Family, Handlers, null_value
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "prompt-management"
PM = CAPABILITY
CASE = ("fixture", "case")
CALL = ("prompt_call",)


def _local(name: str, where: tuple[str, ...], shape: Shape, section: str, since: str | None, doc: str, handled_by: Handlers = ()) -> Directive:
    return Directive(name, where, shape, section, PM, since, doc, scope="directory", handled_by=handled_by)


FAMILIES: list[Family] = [
    Family("prompt_backend", "PromptBackendDecl",
           "A mock PromptBackend preloaded with prompts (§3.2 header; §6.8 caching), or the runtime's own filesystem "
           "or Langfuse backend.",
           required=("name",), exclusive=(("prompts", "filesystem_files", "langfuse_prompts"),)),
    Family("prompt_record", "PromptRecord", "One Prompt a mock backend serves: Text-prompt (`template`) or Chat-prompt (`chat_template`).",
           required=("name", "label", "version", "template_hash"), exclusive=(("template", "chat_template"),)),
    Family("prompt_manager", "PromptManagerDecl", "A PromptManager over the declared backends, in order (prompt-management §6)."),
    Family("label_resolver", "LabelResolverDecl", "A mapping-backed LabelResolver (prompt-management §7).", required=("mapping",)),
    Family("prompt_call", "PromptCall", "One operation against a backend, a manager or the PromptGroup constructor.", required=("target",)),
    Family("prompt_call_target", "PromptCallTarget", "A structured call target: a named backend, or the fixture's manager.",
           exclusive=(("backend", "manager"),)),
    Family("prompt_ref", "PromptRef", "The (name, label) of a prompt to fetch before rendering.", required=("name",)),
    Family("prompt_call_expected", "PromptCallExpected", "What one call returns or raises."),
    Family("prompt_backend_state", "PromptBackendState", "Assertions on a caching backend after all calls (§6.8)."),
    Family("shared_prefix_expectation", "SharedPrefixExpectation",
           "Two captured renders share a byte-identical message prefix (prompt-management §13).",
           required=("between", "message_index", "prefix")),
    Family("message_equal_expectation", "MessageEqualExpectation",
           "Two captured renders have byte-identical messages at these indices (prompt-management §13).",
           required=("between", "message_indices")),
]

MANAGER = SectionShape("prompt_manager")
CALLS = ListOf(SectionShape("prompt_call"))
RESOLVER = SectionShape("label_resolver")

DIRECTIVES: list[Directive] = [
    # ---- backends ------------------------------------------------------------------------------
    _local("backends", CASE, ListOf(SectionShape("prompt_backend")), "§3.2 header", "0.15.0", "The mock PromptBackends, preloaded.", handled_by=direct("prompt-management")),
    _local("name", ("prompt_backend",), STR, "§3.2 header", "0.15.0", "The backend's name (targets and managers refer to it).", handled_by=PART),
    _local("prompts", ("prompt_backend",), ListOf(SectionShape("prompt_record")), "§3.2 header", "0.15.0", "The prompts it serves.", handled_by=PART),
    _local("simulate_unavailable", ("prompt_backend",), BOOL, "§3.2 header", "0.15.0",
           "Every fetch raises `prompt_store_unavailable` (an infrastructure failure).", handled_by=PART),
    _local("caching", ("prompt_backend",), BOOL, "§6.8", "0.63.0",
           "The caching prompt backend: caches by (name, label), counts source reads, has a controllable clock.", handled_by=PART),

    Directive("filesystem_files", ("prompt_backend",), MapOf(STR, "a path under the backend's root"), "prompt-management §5", PM, None,
              "The runtime's own filesystem PromptBackend, over a directory holding these files (templates `<label>/<name>.j2`, "
              "sidecars `<label>/<name>.config.json`).", scope="directory", handled_by=PART,
              extension=Extension("`filesystem_files` on a backend: the adapter writes the files under a fresh directory and the "
                                  "backend is the runtime's own filesystem PromptBackend over it (per-label layout), not a mock: "
                                  "prompt-management §3 / §5 bind the backend that computes `version` and `template_hash`, "
                                  "raises `prompt_not_found` / `prompt_store_unavailable` and parses the sourced "
                                  "sampling / token_budget config, and upstream's backends are harness mocks serving a "
                                  "fixture's declared values.")),
    Directive("filesystem_config_source", ("prompt_backend",), Enum(("none", "per-prompt-sidecar", "unified")), "prompt-management §5", PM, None,
              "Where that filesystem backend sources `sampling` and `token_budget` (default `none`).", scope="directory", handled_by=PART,
              extension=Extension("`filesystem_config_source` on a backend: the sidecar convention (prompt-management §5 "
                                  "*Filesystem sidecar conventions*) the runtime's filesystem backend reads sampling and "
                                  "token_budget from.")),

    Directive("langfuse_prompts", ("prompt_backend",), ListOf(Data(("map",))), "prompt-management §5", PM, None,
              "The runtime's own LangfusePromptBackend, over a double of the Langfuse SDK client serving these "
              "prompts: `{name, label, type: text | chat, prompt, version, config?}` (a chat `prompt` is a list of "
              "`{role, content}` / `{type: placeholder, name}`). The double keeps the SDK's client-side cache by "
              "(name, label) on the backend's controllable clock (`advance_clock`): `cache_ttl_seconds` 0 reads the "
              "source, N > 0 serves an entry younger than N seconds, absent the SDK default (60 s).",
              scope="directory", handled_by=PART,
              extension=Extension("`langfuse_prompts` on a backend: the backend is the runtime's own "
                                  "LangfusePromptBackend and only the Langfuse SDK client it calls is a double (the "
                                  "wire edge): the double answers `get_prompt` with the SDK's own TextPromptClient / "
                                  "ChatPromptClient built from these records, keeps the SDK's client-side cache by "
                                  "(name, label) on a controllable clock and counts source reads. prompt-management "
                                  "§3 / §3.1 / §5 bind the backend that forwards `cache_ttl_seconds`, stamps "
                                  "`fetched_at`, hashes a chat template and projects the vendor config onto "
                                  "SamplingConfig, and upstream's backends are harness mocks serving declared values.")),

    _local("name", ("prompt_record",), STR, "prompt-management §3", "0.15.0", "The prompt's name.", handled_by=PART),
    _local("label", ("prompt_record",), STR, "prompt-management §3", "0.15.0", "The label it is served under.", handled_by=PART),
    _local("version", ("prompt_record",), STR, "prompt-management §3", "0.15.0", "The prompt's version.", handled_by=PART),
    _local("template", ("prompt_record",), STR, "prompt-management §3", "0.15.0", "A Text-prompt's template.", handled_by=PART),
    _local("chat_template", ("prompt_record",), Data(("list",)), "prompt-management §3.1", "0.38.0",
           "A Chat-prompt's segments: `{role, content}` (text or content blocks) or `{placeholder: <name>}`.", handled_by=PART),
    _local("template_hash", ("prompt_record",), STR, "prompt-management §3", "0.15.0", "The template's content hash, as served.", handled_by=PART),
    _local("sampling", ("prompt_record",), Data(("map",)), "prompt-management §3", "0.26.0", "The per-prompt SamplingConfig.", handled_by=PART),
    _local("observability_entities", ("prompt_record",), Data(("map",)), "prompt-management §3", "0.26.0",
           "Backend-keyed observability references (e.g. a `langfuse_prompt` sentinel).", handled_by=PART),
    _local("token_budget", ("prompt_record",), Data(("map",)), "prompt-management §5", "0.78.0",
           "The raw sourced token-budget config; the backend parses it, dropping unrecognized keys.", handled_by=PART),

    # ---- managers and label resolvers ----------------------------------------------------------
    _local("manager", CASE, MANAGER, "§3.2 header", "0.15.0", "The PromptManager `target: manager` calls go through.", handled_by=direct("prompt-management")),
    _local("secondary_manager", CASE, MANAGER, "§3.2 header", "0.26.0", "A second manager (`target: secondary_manager`).", handled_by=direct("prompt-management")),
    _local("tertiary_manager", CASE, MANAGER, "§3.2 header", "0.26.0", "A third manager (`target: tertiary_manager`).", handled_by=direct("prompt-management")),
    _local("backends", ("prompt_manager",), ListOf(STR), "prompt-management §9", "0.15.0",
           "The backends it composes, in fallback order (default: all declared backends, in order).", handled_by=PART),
    _local("label_resolver_ref", ("prompt_manager",), STR, "prompt-management §7", "0.26.0",
           "The fixture-level label resolver it consults (`label_resolver` / `tertiary_label_resolver`).", handled_by=PART),
    _local("default_cache_ttl_seconds", ("prompt_manager",), INT, "§6.8", "0.79.0",
           "The manager's construction-time default `cache_ttl_seconds` (prompt-management §6).", handled_by=PART),
    _local("label_resolver", CASE, RESOLVER, "§3.2 header", "0.26.0", "A LabelResolver a manager may reference.", handled_by=direct("prompt-management")),
    _local("tertiary_label_resolver", CASE, RESOLVER, "§3.2 header", "0.26.0", "A second LabelResolver a manager may reference.", handled_by=direct("prompt-management")),
    _local("mapping", ("label_resolver",), MapOf(STR, "prompt name or `default`"), "prompt-management §7", "0.26.0",
           "Per-name labels, plus an optional `default`.", handled_by=PART),

    # ---- calls ---------------------------------------------------------------------------------
    _local("calls", CASE, CALLS, "§3.2 header", "0.15.0", "Operations performed in order, each with its own expectation.", handled_by=direct("prompt-management")),
    _local("secondary_calls", CASE, CALLS, "§3.2 header", "0.26.0", "Operations against the secondary manager, after `calls`.", handled_by=direct("prompt-management")),
    _local("tertiary_calls", CASE, CALLS, "§3.2 header", "0.26.0", "Operations against the tertiary manager, after `secondary_calls`.", handled_by=direct("prompt-management")),

    _local("target", CALL, OneOf((Enum(("manager", "secondary_manager", "tertiary_manager", "construct_prompt_group")),
                                  SectionShape("prompt_call_target"))), "§3.2 header", "0.15.0",
           "What the call addresses: a manager, `{backend: <name>}`, `{manager: true}`, or `construct_prompt_group`.", handled_by=PART),
    _local("backend", ("prompt_call_target",), STR, "§3.2 header", "0.15.0", "A declared backend, called directly.", handled_by=PART),
    _local("manager", ("prompt_call_target",), BOOL, "§6.8", "0.79.0", "The fixture's manager (the §6 cache-TTL precedence chain).", handled_by=PART),
    _local("operation", CALL, Enum(("fetch", "render", "get", "advance_clock")), "§3.2 header", "0.15.0",
           "The operation (`advance_clock` advances a caching backend's clock, §6.8).", handled_by=PART),
    _local("name", CALL, STR, "prompt-management §5", "0.15.0", "fetch / get: the prompt name.", handled_by=PART),
    _local("label", CALL, STR, "prompt-management §6", "0.15.0", "fetch / get: the label (absent: the label resolver or `production`).", handled_by=PART),
    _local("variables", CALL, Data(("map",)), "prompt-management §6", "0.15.0", "render / get: the template variables.", handled_by=PART),
    _local("placeholders", CALL, MapOf(Data(("list",)), "placeholder name"), "prompt-management §6", "0.38.0",
           "render: the messages injected at each Chat-prompt placeholder slot.", handled_by=PART),
    _local("fetched_prompt", CALL, SectionShape("prompt_ref"), "§3.2 header", "0.15.0", "render: fetch this prompt first, then render it.", handled_by=PART),
    _local("fetched_prompt_ref", CALL, STR, "§3.2 header", "0.15.0", "render: the prompt captured by an earlier call's `capture_as`.", handled_by=PART),
    _local("capture_as", CALL, STR, "§3.2 header", "0.15.0", "Keep the call's result under this name for later calls and `expected`.", handled_by=PART),
    Directive("cache_ttl_seconds", CALL, Nullable(INT), "§6.8", PM, "0.63.0",
              "fetch / get: the per-call cache control (0 bypasses any cache); absent, the argument is not passed.",
              scope="directory", handled_by=PART,
              extension=Extension("`cache_ttl_seconds: null` on a call: the argument is passed as the language's explicit "
                                  "unset value (Python's None), where an absent key omits it — prompt-management §6: an "
                                  "implementation whose language tells the two apart MUST treat both identically.", null_value)),
    _local("seconds", CALL, INT, "§6.8", "0.63.0", "advance_clock: seconds to advance the caching backend's clock.", handled_by=PART),
    _local("group_name", CALL, STR, "prompt-management §10", "0.75.0", "construct_prompt_group: the group's name.", handled_by=PART),
    _local("members_refs", CALL, ListOf(STR), "prompt-management §10", "0.75.0", "construct_prompt_group: the captured members, in order.", handled_by=PART),
    _local("expected", CALL, SectionShape("prompt_call_expected"), "§3.2 header", "0.15.0", "What this call returns or raises.", handled_by=PART),
    _local("name", ("prompt_ref",), STR, "prompt-management §5", "0.15.0", "The prompt name.", handled_by=PART),
    _local("label", ("prompt_ref",), STR, "prompt-management §5", "0.15.0", "The label.", handled_by=PART),

    _local("prompt", ("prompt_call_expected",), Expect(("map",)), "prompt-management §3", "0.15.0", "The fetched Prompt (fields listed are compared).", handled_by=PART),
    _local("prompt_result", ("prompt_call_expected",), Expect(("map",)), "prompt-management §4", "0.15.0",
           "The rendered PromptResult (with `rendered_hash_present` / `rendered_hash_non_empty_string` matchers).", handled_by=PART),
    _local("raises", ("prompt_call_expected",), SectionShape("error_expectation"), "prompt-management §11", "0.15.0",
           "The call raises an error of this category, carrying these fields.", handled_by=PART),
    _local("backend_call_counts", ("prompt_call_expected",), MapOf(INT, "backend name"), "prompt-management §9", "0.15.0",
           "How many times each named backend's `fetch` was invoked (the §9 fallback walk; a catalogue predicate).", handled_by=PART),
    _local("secondary_backend_call_count", ("prompt_call_expected",), INT, "prompt-management §9", "0.15.0",
           "How many times the backend named `secondary` was fetched from (`<backend>_backend_call_count`, a catalogue predicate).", handled_by=PART),

    # ---- fixture-level expectations ------------------------------------------------------------
    _local("expected", CASE, MapOf(Expect(), "capture name"), "§3.2 header", "0.15.0",
           "Captured results by `capture_as` name (fields listed are compared; `*_absent` matchers), plus the "
           "assertions `result_equivalence: {of, fields_must_match, fields_may_differ}` and "
           "`rendered_hash_equal` / `rendered_hash_different: [[<capture>, <capture>], ...]`.", handled_by=SHAPE),
    _local("expected_backend_state", CASE, MapOf(SectionShape("prompt_backend_state"), "backend name"), "§6.8", "0.63.0",
           "Each caching backend's state after all calls.", handled_by=direct("prompt-management")),
    _local("source_read_count", ("prompt_backend_state",), INT, "§6.8", "0.63.0", "Fetches that reached the backing store (not the cache).", handled_by=PART),
    _local("expected_shared_prefix", CASE, SectionShape("shared_prefix_expectation"), "§3.2 header", "0.39.0",
           "Two captured renders' messages share a byte-identical prefix.", handled_by=direct("prompt-management")),
    _local("between", ("shared_prefix_expectation", "message_equal_expectation"), ListOf(STR), "§3.2 header", "0.39.0",
           "The two captures compared.", handled_by=PART),
    _local("message_index", ("shared_prefix_expectation",), INT, "§3.2 header", "0.39.0", "The message compared.", handled_by=PART),
    _local("prefix", ("shared_prefix_expectation",), STR, "§3.2 header", "0.39.0", "The shared prefix of its content.", handled_by=PART),
    _local("expected_message_equal", CASE, SectionShape("message_equal_expectation"), "§3.2 header", "0.39.0",
           "Two captured renders have byte-identical messages at the given indices.", handled_by=direct("prompt-management")),
    _local("message_indices", ("message_equal_expectation",), ListOf(INT), "§3.2 header", "0.39.0", "The messages compared.", handled_by=PART),
]
