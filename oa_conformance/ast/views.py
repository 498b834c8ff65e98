"""The typed views: one AST class per directive family, one attribute per directive it allows.

GENERATED from the vocabulary table (:mod:`oa_conformance.model.vocabulary`) by
``python -m tools.generate_views``: do not edit by hand; ``tests/test_views.py`` fails while this
file and the table disagree. An absent directive reads as ``None``. ``directive_attrs`` maps each
directive to its attribute (``from`` → ``from_``); ``holding`` names the directives whose value
can hold a section (what :func:`~oa_conformance.ast.visitor.sections_under` descends into).
"""

from __future__ import annotations

from typing import ClassVar

from .nodes import (
    BindingToken,
    FormatToken,
    Mapping,
    Placeholder,
    PredicateBlock,
    Scalar,
    Section,
    Sequence,
    TypeRef,
)


class Fixture(Section):
    """A fixture file's top level: one case inline, or `cases:` / `invocations:` (§4)."""

    family: ClassVar[str] = "fixture"
    directive_attrs: ClassVar[dict[str, str]] = {
        "conformance_version": "conformance_version", "cases": "cases",
        "invocations": "invocations", "name": "name", "description": "description",
        "graph": "graph", "run_count": "run_count", "state": "state", "entry": "entry",
        "nodes": "nodes", "edges": "edges", "subgraph": "subgraph", "subgraphs": "subgraphs",
        "observers": "observers", "initial_state": "initial_state", "invoke": "invoke",
        "invoke_with": "invoke_with", "caller_metadata": "caller_metadata",
        "caller_correlation_id": "caller_correlation_id",
        "caller_invocation_id": "caller_invocation_id", "expected": "expected",
        "expected_error": "expected_error", "expected_compile_error": "expected_compile_error",
        "expected_compile_warning": "expected_compile_warning", "invariants": "invariants",
        "middleware": "middleware", "clock_stub": "clock_stub", "checkpointer": "checkpointer",
        "populate_checkpointer_via_runs": "populate_checkpointer_via_runs",
        "first_run_expected_error": "first_run_expected_error",
        "crash_injection": "crash_injection", "resume": "resume",
        "expected_chain_ambiguity_error": "expected_chain_ambiguity_error",
        "seeded_record": "seeded_record", "runtime_state_subclass": "runtime_state_subclass",
        "migrations": "migrations", "saved_record_assertions": "saved_record_assertions",
        "every_save_assertions": "every_save_assertions", "subgraph_with_idx": "subgraph_with_idx",
        "queryable_observers": "queryable_observers", "inner_subgraphs": "inner_subgraphs",
        "caller_global_otel_active": "caller_global_otel_active",
        "disable_llm_spans": "disable_llm_spans",
        "disable_provider_payload": "disable_provider_payload",
        "disable_genai_semconv": "disable_genai_semconv", "otel_observer": "otel_observer",
        "enable_metrics": "enable_metrics", "detached_subgraphs": "detached_subgraphs",
        "detached_fan_outs": "detached_fan_outs", "langfuse_observer": "langfuse_observer",
        "langfuse_observer_config": "langfuse_observer_config",
        "first_run_expected": "first_run_expected", "langfuse_client": "langfuse_client",
        "requires_capability": "requires_capability",
        "expected_construction_error": "expected_construction_error",
        "prompt_backend": "prompt_backend", "render_variables": "render_variables",
        "provider": "provider", "informative": "informative",
        "sequential_invocations": "sequential_invocations", "direct_call": "direct_call",
        "call": "call", "calls": "calls", "mock_provider": "mock_provider", "mock_llm": "mock_llm",
        "mock_llm_stream": "mock_llm_stream", "mapping": "mapping",
        "expected_wire_request": "expected_wire_request",
        "expected_wire_request_absent_keys": "expected_wire_request_absent_keys",
        "expected_wire_request_checks": "expected_wire_request_checks",
        "expected_wire_bytes_identical": "expected_wire_bytes_identical",
        "typed_observers": "typed_observers", "tei_embedding_provider": "tei_embedding_provider",
        "tei_rerank_provider": "tei_rerank_provider",
        "jina_embedding_provider": "jina_embedding_provider",
        "jina_rerank_provider": "jina_rerank_provider",
        "openai_embedding_provider": "openai_embedding_provider",
        "cohere_embedding_provider": "cohere_embedding_provider",
        "cohere_rerank_provider": "cohere_rerank_provider", "mock_embedding": "mock_embedding",
        "mock_rerank": "mock_rerank", "shares_provider": "shares_provider",
        "expected_wire_request_count": "expected_wire_request_count",
        "expected_wire_url": "expected_wire_url", "expected_wire_headers": "expected_wire_headers",
        "backends": "backends", "manager": "manager", "secondary_manager": "secondary_manager",
        "tertiary_manager": "tertiary_manager", "label_resolver": "label_resolver",
        "tertiary_label_resolver": "tertiary_label_resolver", "secondary_calls": "secondary_calls",
        "tertiary_calls": "tertiary_calls", "expected_backend_state": "expected_backend_state",
        "expected_shared_prefix": "expected_shared_prefix",
        "expected_message_equal": "expected_message_equal", "session_store": "session_store",
        "session_id": "session_id", "auto_save": "auto_save", "session_state": "session_state",
        "seeded_session": "seeded_session", "session_migrations": "session_migrations",
        "harness": "harness", "transmissions": "transmissions", "chat_turns": "chat_turns",
        "signal_arrivals": "signal_arrivals",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cases", "invocations", "graph", "state", "nodes", "edges", "subgraph", "subgraphs",
        "observers", "invoke", "invoke_with", "expected", "expected_error", "middleware",
        "clock_stub", "checkpointer", "first_run_expected_error", "crash_injection", "resume",
        "expected_chain_ambiguity_error", "migrations", "saved_record_assertions",
        "every_save_assertions", "subgraph_with_idx", "queryable_observers", "inner_subgraphs",
        "otel_observer", "langfuse_observer", "langfuse_observer_config", "first_run_expected",
        "langfuse_client", "requires_capability", "expected_construction_error", "prompt_backend",
        "provider", "sequential_invocations", "direct_call", "call", "calls", "mock_provider",
        "mock_llm", "mock_llm_stream", "expected_wire_bytes_identical", "typed_observers",
        "tei_embedding_provider", "tei_rerank_provider", "jina_embedding_provider",
        "jina_rerank_provider", "openai_embedding_provider", "cohere_embedding_provider",
        "cohere_rerank_provider", "mock_embedding", "mock_rerank", "backends", "manager",
        "secondary_manager", "tertiary_manager", "label_resolver", "tertiary_label_resolver",
        "secondary_calls", "tertiary_calls", "expected_backend_state", "expected_shared_prefix",
        "expected_message_equal", "session_store", "session_state", "seeded_session",
        "session_migrations", "harness", "transmissions", "chat_turns", "signal_arrivals",
    ))
    _fields = (
        "order", "conformance_version", "cases", "invocations", "name", "description", "graph",
        "run_count", "state", "entry", "nodes", "edges", "subgraph", "subgraphs", "observers",
        "initial_state", "invoke", "invoke_with", "caller_metadata", "caller_correlation_id",
        "caller_invocation_id", "expected", "expected_error", "expected_compile_error",
        "expected_compile_warning", "invariants", "middleware", "clock_stub", "checkpointer",
        "populate_checkpointer_via_runs", "first_run_expected_error", "crash_injection", "resume",
        "expected_chain_ambiguity_error", "seeded_record", "runtime_state_subclass", "migrations",
        "saved_record_assertions", "every_save_assertions", "subgraph_with_idx",
        "queryable_observers", "inner_subgraphs", "caller_global_otel_active", "disable_llm_spans",
        "disable_provider_payload", "disable_genai_semconv", "otel_observer", "enable_metrics",
        "detached_subgraphs", "detached_fan_outs", "langfuse_observer", "langfuse_observer_config",
        "first_run_expected", "langfuse_client", "requires_capability",
        "expected_construction_error", "prompt_backend", "render_variables", "provider",
        "informative", "sequential_invocations", "direct_call", "call", "calls", "mock_provider",
        "mock_llm", "mock_llm_stream", "mapping", "expected_wire_request",
        "expected_wire_request_absent_keys", "expected_wire_request_checks",
        "expected_wire_bytes_identical", "typed_observers", "tei_embedding_provider",
        "tei_rerank_provider", "jina_embedding_provider", "jina_rerank_provider",
        "openai_embedding_provider", "cohere_embedding_provider", "cohere_rerank_provider",
        "mock_embedding", "mock_rerank", "shares_provider", "expected_wire_request_count",
        "expected_wire_url", "expected_wire_headers", "backends", "manager", "secondary_manager",
        "tertiary_manager", "label_resolver", "tertiary_label_resolver", "secondary_calls",
        "tertiary_calls", "expected_backend_state", "expected_shared_prefix",
        "expected_message_equal", "session_store", "session_id", "auto_save", "session_state",
        "seeded_session", "session_migrations", "harness", "transmissions", "chat_turns",
        "signal_arrivals",
    )

    conformance_version: Scalar | None = None
    """``conformance_version`` (conformance-adapter §4.4, since 0.48.0): The conformance-adapter
    version the fixture targets; newer than the adapter → fixture_version_unsupported.
    """

    cases: Sequence | None = None
    """``cases`` (conformance-adapter §4.2, since 0.48.0): Independent scenarios sharing only the
    file.
    """

    invocations: Scalar | Sequence | None = None
    """``invocations`` (conformance-adapter §4.3, since 0.48.0): Sequential invocations against one
    compiled graph and shared backends (or, as an integer, how many identical runs).
    """

    name: Scalar | None = None
    """``name`` (conformance-adapter §4.2, since 0.48.0): The case, invocation or subgraph name."""

    description: Scalar | None = None
    """``description`` (conformance-adapter §4.2, since 0.48.0): Prose; not executed."""

    graph: GraphDecl | None = None
    """``graph`` (graph-engine §4): The case's graph, when written as a block instead of inline
    keys.
    """

    run_count: Scalar | None = None
    """``run_count`` (graph-engine §10): Run the case this many times (determinism fixtures)."""

    state: StateDecl | None = None
    """``state`` (graph-engine §5.2, since 0.48.0): The typed state schema."""

    entry: Scalar | None = None
    """``entry`` (graph-engine §4.1, since 0.48.0): The entry node."""

    nodes: Mapping | None = None
    """``nodes`` (graph-engine §5.1, since 0.48.0): The nodes, by name."""

    edges: Sequence | None = None
    """``edges`` (graph-engine §5.3, since 0.48.0): Static and conditional edges."""

    subgraph: GraphDecl | None = None
    """``subgraph`` (graph-engine §5.4, since 0.48.0): One inline subgraph declaration (with
    `name:`).
    """

    subgraphs: Mapping | None = None
    """``subgraphs`` (graph-engine §5.4, since 0.48.0): Named subgraph declarations."""

    observers: Sequence | None = None
    """``observers`` (graph-engine §5.5, since 0.48.0): In-memory observer registrations."""

    initial_state: Mapping | None = None
    """``initial_state`` (graph-engine §5.2, since 0.48.0): The input state; omitted fields take
    their defaults.
    """

    invoke: InvokeDecl | None = None
    """``invoke`` (graph-engine §5.7, since 0.48.0): Per-invoke directives (same as `invoke_with`).
    """

    invoke_with: InvokeDecl | None = None
    """``invoke_with`` (graph-engine §5.7, since 0.48.0): Per-invoke directives (same as `invoke`).
    """

    caller_metadata: Mapping | None = None
    """``caller_metadata`` (observability §5.7): Invocation metadata passed to invoke()
    (observability §3.4).
    """

    caller_correlation_id: Scalar | None = None
    """``caller_correlation_id`` (observability §5.7): Correlation id passed to invoke()
    (observability §3.1).
    """

    caller_invocation_id: Scalar | None = None
    """``caller_invocation_id`` (observability §5.7): Invocation id passed to invoke()
    (observability §5.1).
    """

    expected: Mapping | Expected | None = None
    """``expected`` (conformance-adapter §5.8, since 0.48.0): What the run must produce.

    ``expected`` (prompt-management §3.2 header, since 0.15.0, this directory only): Captured
    results by `capture_as` name (fields listed are compared; `*_absent` matchers), plus the
    assertions `result_equivalence: {of, fields_must_match, fields_may_differ}` and
    `rendered_hash_equal` / `rendered_hash_different: [[<capture>, <capture>], ...]`.
    """

    expected_error: ErrorExpectation | None = None
    """``expected_error`` (conformance-adapter §5.8, since 0.48.0): The invocation fails with this
    error category, raised from this node.
    """

    expected_compile_error: Scalar | None = None
    """``expected_compile_error`` (graph-engine §5.8, since 0.89.0): Compilation fails with this
    graph-engine §2 category.
    """

    expected_compile_warning: Scalar | Sequence | None = None
    """``expected_compile_warning`` (graph-engine §5.8, since 0.89.0): Compilation succeeds with
    this warning (scalar: among those emitted; list: exactly these).
    """

    invariants: PredicateBlock | None = None
    """``invariants`` (conformance-adapter §5.9, since 0.48.0): Named invariant predicates."""

    middleware: MiddlewareConfig | None = None
    """``middleware`` (pipeline-utilities §6): Per-graph and per-node middleware."""

    clock_stub: ClockStub | None = None
    """``clock_stub`` (pipeline-utilities §6.2): A deterministic monotonic clock."""

    checkpointer: Scalar | CheckpointerDecl | None = None
    """``checkpointer`` (pipeline-utilities §5.6, since 0.48.0): The checkpointer backend:
    in_memory, sqlite, in_memory_batched (or a block with `kind`).
    """

    populate_checkpointer_via_runs: Scalar | None = None
    """``populate_checkpointer_via_runs`` (pipeline-utilities §5.6, since 0.48.0): Seed the
    checkpointer with N completed runs first.
    """

    first_run_expected_error: ErrorExpectation | None = None
    """``first_run_expected_error`` (pipeline-utilities §5.6): The error ending the first run."""

    crash_injection: CrashInjection | None = None
    """``crash_injection`` (pipeline-utilities §5.6): Abandon the first run after a save."""

    resume: ResumeDecl | None = None
    """``resume`` (pipeline-utilities §5.6): Resume and assert the resumed run."""

    expected_chain_ambiguity_error: Scalar | ErrorExpectation | None = None
    """``expected_chain_ambiguity_error`` (pipeline-utilities §10.12): This category surfaces at
    graph build (migration registration / compile) or when the run resumes.
    """

    seeded_record: Mapping | None = None
    """``seeded_record`` (pipeline-utilities §10): A checkpoint record saved before the run."""

    runtime_state_subclass: Mapping | None = None
    """``runtime_state_subclass`` (pipeline-utilities §10.10): Runtime state class attributes
    (schema_version).
    """

    migrations: Sequence | None = None
    """``migrations`` (pipeline-utilities §10.10): Registered state migrations."""

    saved_record_assertions: RecordAssertions | None = None
    """``saved_record_assertions`` (pipeline-utilities §5.8): Assertions on the record saved by the
    first run.
    """

    every_save_assertions: RecordAssertions | None = None
    """``every_save_assertions`` (pipeline-utilities §5.8): Assertions every save must satisfy."""

    subgraph_with_idx: GraphDecl | None = None
    """``subgraph_with_idx`` (pipeline-utilities §9): A second subgraph declaration (count-mode
    fan-out).
    """

    queryable_observers: Sequence | None = None
    """``queryable_observers`` (observability §3.2 header, since 0.40.0): Harness-defined queryable
    observers attached at invoke time.
    """

    inner_subgraphs: Mapping | None = None
    """``inner_subgraphs`` (observability §3.2 header, since 0.25.0): Subgraphs run by fan-out
    instances (`inner_subgraph`) or by name-listed parallel branches.
    """

    caller_global_otel_active: Scalar | None = None
    """``caller_global_otel_active`` (observability §5.5, since 0.7.0): Install a second exporter on
    the OTel global TracerProvider (the §6 isolation check).
    """

    disable_llm_spans: Scalar | None = None
    """``disable_llm_spans`` (observability §5.5, since 0.7.0): Construct the observer with the §5.5
    LLM-span opt-out.
    """

    disable_provider_payload: Scalar | None = None
    """``disable_provider_payload`` (observability §3.2 header, since 0.54.0): The §5.5.4
    provider-payload opt-out (default true), per observer; at case level (before `otel_observer`),
    both observers' unless the `langfuse_observer` block sets its own.
    """

    disable_genai_semconv: Scalar | None = None
    """``disable_genai_semconv`` (observability §3.2 header, since 0.17.0): The §5.5.4 GenAI-semconv
    opt-out of the OTel observer.
    """

    otel_observer: OtelObserverConfig | None = None
    """``otel_observer`` (observability §5.5, since 0.115.0): The bundled OTel observer's
    construction flags; a flag it sets wins over the case-level key of the same name.
    """

    enable_metrics: Scalar | None = None
    """``enable_metrics`` (observability §6.9, since 0.64.0): Turn on the observer's §11 metrics
    (default off).
    """

    detached_subgraphs: Sequence | None = None
    """``detached_subgraphs`` (observability §3.2 header, since 0.7.0): Subgraphs rendered as
    detached traces (observability §4.4).
    """

    detached_fan_outs: Sequence | None = None
    """``detached_fan_outs`` (observability §3.2 header, since 0.7.0): Fan-out nodes rendered as
    detached traces (observability §4.4).
    """

    langfuse_observer: LangfuseObserverConfig | None = None
    """``langfuse_observer`` (observability §3.2 header, since 0.23.0): Attach the bundled Langfuse
    observer, with these flags.
    """

    langfuse_observer_config: LangfuseObserverConfig | None = None
    """``langfuse_observer_config`` (observability §3.2 header, since 0.44.0): Same as
    `langfuse_observer` (an alternative spelling one fixture uses).
    """

    first_run_expected: Expected | None = None
    """``first_run_expected`` (observability §3.2 header, since 0.35.0, this directory only): What
    the first run of a resume case must produce (beside `first_run_expected_error`).
    """

    langfuse_client: LangfuseClientDecl | None = None
    """``langfuse_client`` (observability §5.5, since 0.109.0): Construct the Langfuse observer's
    client (the provider-faithful §6.4 fake).
    """

    requires_capability: AdapterCapabilityRequirement | None = None
    """``requires_capability`` (observability §5.5, since 0.110.0): Assert the case only under an
    adapter whose capabilities match (else a recognized skip naming the mismatch).
    """

    expected_construction_error: ConstructionErrorExpectation | None = None
    """``expected_construction_error`` (observability §5.5, since 0.110.0): Constructing the case's
    observers / clients, or their first use, raises this categorized error.
    """

    prompt_backend: ObsPromptBackend | None = None
    """``prompt_backend`` (observability §3.2 header, since 0.23.0): The backend serving
    `renders_prompt` prompts.
    """

    render_variables: Mapping | None = None
    """``render_variables`` (observability §3.2 header, since 0.23.0): The variables
    `renders_prompt` renders with.
    """

    provider: ObsLlmProvider | None = None
    """``provider`` (observability §3.2 header, since 0.17.0): The LLM provider instance `calls_llm`
    uses.
    """

    informative: Scalar | None = None
    """``informative`` (observability §3.2 header, since 0.40.0, this directory only): The fixture
    documents a contract boundary; a failure is not a conformance failure.
    """

    sequential_invocations: SequentialInvocations | None = None
    """``sequential_invocations`` (observability §3.2 header, since 0.40.0): Run the graph once per
    listed invocation with the same observer instances; assert `expected.per_invocation`.
    """

    direct_call: DirectCall | None = None
    """``direct_call`` (observability §3.2 header, since 0.40.0): Call an observability API outside
    any invocation (no graph runs).
    """

    call: LlmCall | None = None
    """``call`` (llm-provider §5.11, since 0.91.0): The one `complete()` / `ready()` call the case
    makes.
    """

    calls: Sequence | None = None
    """``calls`` (llm-provider §3.2 header, this directory only): Calls made in order against one
    mock provider, each with its own expected outcome.

    ``calls`` (prompt-management §3.2 header, since 0.15.0, this directory only): Operations
    performed in order, each with its own expectation.
    """

    mock_provider: LlmMockProvider | None = None
    """``mock_provider`` (llm-provider §5.11, since 0.91.0): The mock provider the call talks to."""

    mock_llm: Sequence | None = None
    """``mock_llm`` (observability §5.5): Canned OpenAI-compatible chat-completion responses for
    successive `complete()` calls (`calls_llm`).
    """

    mock_llm_stream: Sequence | None = None
    """``mock_llm_stream`` (observability §3.2 header): Streamed responses, one per
    `complete(stream=True)` call: a chunk list, or `{wire_attempts}` under call-level retry.
    """

    mapping: Scalar | None = None
    """``mapping`` (llm-provider §5.15, since 0.102.0): The §8.x vendor wire mapping under test;
    absent, the default (llm: OpenAI-compatible; retrieval: harness stand-in).
    """

    expected_wire_request: Mapping | Sequence | None = None
    """``expected_wire_request`` (llm-provider §5.15, since 0.102.0): The outbound request body,
    compared key by key (a list: one body per request, chunk-and-stitch).
    """

    expected_wire_request_absent_keys: Sequence | None = None
    """``expected_wire_request_absent_keys`` (llm-provider §5.15, since 0.102.0): Keys that must be
    absent from the outbound body.
    """

    expected_wire_request_checks: PredicateBlock | None = None
    """``expected_wire_request_checks`` (llm-provider §3.2 header): Facts about the outbound body a
    literal compare cannot express (`<key>_absent`, named checks).
    """

    expected_wire_bytes_identical: WireBytesIdentical | None = None
    """``expected_wire_bytes_identical`` (llm-provider §3.2 header): The named calls' wire bodies
    must be byte-identical (llm-provider §8 wire-byte stability).
    """

    typed_observers: Sequence | None = None
    """``typed_observers`` (graph-engine §5.5, since 0.102.0): Typed-event collectors keeping
    graph-engine §6 typed events in observer-internal storage.
    """

    tei_embedding_provider: TeiEmbeddingProvider | None = None
    """``tei_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a TEI
    EmbeddingProvider.
    """

    tei_rerank_provider: TeiRerankProvider | None = None
    """``tei_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a TEI RerankProvider.
    """

    jina_embedding_provider: JinaProvider | None = None
    """``jina_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Jina
    EmbeddingProvider.
    """

    jina_rerank_provider: JinaProvider | None = None
    """``jina_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Jina
    RerankProvider.
    """

    openai_embedding_provider: OpenaiEmbeddingProvider | None = None
    """``openai_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind an
    OpenAI-compatible EmbeddingProvider.
    """

    cohere_embedding_provider: CohereProvider | None = None
    """``cohere_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Cohere
    EmbeddingProvider.
    """

    cohere_rerank_provider: CohereProvider | None = None
    """``cohere_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Cohere
    RerankProvider.
    """

    mock_embedding: Sequence | None = None
    """``mock_embedding`` (retrieval-provider §5.15, since 0.102.0): The mock embedding provider's
    responses, one per request in arrival order.
    """

    mock_rerank: Sequence | None = None
    """``mock_rerank`` (retrieval-provider §5.15, since 0.102.0): The mock rerank provider's
    responses, one per request in arrival order.
    """

    shares_provider: Scalar | None = None
    """``shares_provider`` (retrieval-provider §3.2 header): Every call of one kind and model in the
    case goes to one provider instance.
    """

    expected_wire_request_count: Scalar | None = None
    """``expected_wire_request_count`` (retrieval-provider §5.15, since 0.102.0): How many outbound
    requests the call issues.
    """

    expected_wire_url: Scalar | BindingToken | FormatToken | None = None
    """``expected_wire_url`` (retrieval-provider §3.2 header): The fully resolved URL the outbound
    request goes to (base_url origin + the mapping's route), exactly.
    """

    expected_wire_headers: Mapping | None = None
    """``expected_wire_headers`` (retrieval-provider §5.15, since 0.102.0): Request headers that
    must be present with these values (subset, names case-insensitive).
    """

    backends: Sequence | None = None
    """``backends`` (prompt-management §3.2 header, since 0.15.0, this directory only): The mock
    PromptBackends, preloaded.
    """

    manager: PromptManagerDecl | None = None
    """``manager`` (prompt-management §3.2 header, since 0.15.0, this directory only): The
    PromptManager `target: manager` calls go through.
    """

    secondary_manager: PromptManagerDecl | None = None
    """``secondary_manager`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    second manager (`target: secondary_manager`).
    """

    tertiary_manager: PromptManagerDecl | None = None
    """``tertiary_manager`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    third manager (`target: tertiary_manager`).
    """

    label_resolver: LabelResolverDecl | None = None
    """``label_resolver`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    LabelResolver a manager may reference.
    """

    tertiary_label_resolver: LabelResolverDecl | None = None
    """``tertiary_label_resolver`` (prompt-management §3.2 header, since 0.26.0, this directory
    only): A second LabelResolver a manager may reference.
    """

    secondary_calls: Sequence | None = None
    """``secondary_calls`` (prompt-management §3.2 header, since 0.26.0, this directory only):
    Operations against the secondary manager, after `calls`.
    """

    tertiary_calls: Sequence | None = None
    """``tertiary_calls`` (prompt-management §3.2 header, since 0.26.0, this directory only):
    Operations against the tertiary manager, after `secondary_calls`.
    """

    expected_backend_state: Mapping | None = None
    """``expected_backend_state`` (prompt-management §6.8, since 0.63.0, this directory only): Each
    caching backend's state after all calls.
    """

    expected_shared_prefix: SharedPrefixExpectation | None = None
    """``expected_shared_prefix`` (prompt-management §3.2 header, since 0.39.0, this directory
    only): Two captured renders' messages share a byte-identical prefix.
    """

    expected_message_equal: MessageEqualExpectation | None = None
    """``expected_message_equal`` (prompt-management §3.2 header, since 0.39.0, this directory
    only): Two captured renders have byte-identical messages at the given indices.
    """

    session_store: Scalar | SessionStoreConfig | None = None
    """``session_store`` (sessions §5.6, since 0.48.0): The SessionStore backend registered on the
    graph (`in_memory`), or a block with `type` and options.
    """

    session_id: Scalar | None = None
    """``session_id`` (sessions §5.7, since 0.48.0): The session id passed to invoke() (sessions
    §3).
    """

    auto_save: Scalar | None = None
    """``auto_save`` (sessions §3.2 header, since 0.33.0, this directory only): The store
    registration's auto-save at invoke exit (default true; sessions §6.3).
    """

    session_state: SessionStateProjection | None = None
    """``session_state`` (sessions §3.2 header, since 0.33.0, this directory only): A SessionState
    projection narrower than the invoke state (sessions §4.2).
    """

    seeded_session: SeededSession | None = None
    """``seeded_session`` (sessions §3.2 header, since 0.33.0, this directory only): Save this
    record under the case's `session_id` before the run.
    """

    session_migrations: Sequence | None = None
    """``session_migrations`` (sessions §3.2 header, since 0.33.0, this directory only): Session
    state migrations registered on the graph (sessions §7).
    """

    harness: HarnessConfig | None = None
    """``harness`` (harness §3.2 header, since 0.49.0): Wrap the graph in the harness under test, in
    this mode.
    """

    transmissions: Sequence | None = None
    """``transmissions`` (harness §3.2 header, since 0.49.0, this directory only): Synthetic
    transmissions, dispatched in order.
    """

    chat_turns: Sequence | None = None
    """``chat_turns`` (harness-chat §3.2 header, since 0.50.0, this directory only): Sequential
    `send()` calls.
    """

    signal_arrivals: Sequence | None = None
    """``signal_arrivals`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only):
    External signals delivered after the turns, in order.
    """


class Case(Section):
    """One scenario of a `cases:` list (§4.2)."""

    family: ClassVar[str] = "case"
    directive_attrs: ClassVar[dict[str, str]] = {
        "invocations": "invocations", "name": "name", "description": "description",
        "graph": "graph", "run_count": "run_count", "state": "state", "entry": "entry",
        "nodes": "nodes", "edges": "edges", "subgraph": "subgraph", "subgraphs": "subgraphs",
        "observers": "observers", "initial_state": "initial_state", "invoke": "invoke",
        "invoke_with": "invoke_with", "caller_metadata": "caller_metadata",
        "caller_correlation_id": "caller_correlation_id",
        "caller_invocation_id": "caller_invocation_id", "expected": "expected",
        "expected_error": "expected_error", "expected_compile_error": "expected_compile_error",
        "expected_compile_warning": "expected_compile_warning", "invariants": "invariants",
        "middleware": "middleware", "clock_stub": "clock_stub", "checkpointer": "checkpointer",
        "populate_checkpointer_via_runs": "populate_checkpointer_via_runs",
        "first_run_expected_error": "first_run_expected_error",
        "crash_injection": "crash_injection", "resume": "resume",
        "expected_chain_ambiguity_error": "expected_chain_ambiguity_error",
        "seeded_record": "seeded_record", "runtime_state_subclass": "runtime_state_subclass",
        "migrations": "migrations", "saved_record_assertions": "saved_record_assertions",
        "every_save_assertions": "every_save_assertions", "subgraph_with_idx": "subgraph_with_idx",
        "queryable_observers": "queryable_observers", "inner_subgraphs": "inner_subgraphs",
        "caller_global_otel_active": "caller_global_otel_active",
        "disable_llm_spans": "disable_llm_spans",
        "disable_provider_payload": "disable_provider_payload",
        "disable_genai_semconv": "disable_genai_semconv", "otel_observer": "otel_observer",
        "enable_metrics": "enable_metrics", "detached_subgraphs": "detached_subgraphs",
        "detached_fan_outs": "detached_fan_outs", "langfuse_observer": "langfuse_observer",
        "langfuse_observer_config": "langfuse_observer_config",
        "first_run_expected": "first_run_expected", "langfuse_client": "langfuse_client",
        "requires_capability": "requires_capability",
        "expected_construction_error": "expected_construction_error",
        "prompt_backend": "prompt_backend", "render_variables": "render_variables",
        "provider": "provider", "sequential_invocations": "sequential_invocations",
        "direct_call": "direct_call", "call": "call", "calls": "calls",
        "mock_provider": "mock_provider", "mock_llm": "mock_llm",
        "mock_llm_stream": "mock_llm_stream", "mapping": "mapping",
        "expected_wire_request": "expected_wire_request",
        "expected_wire_request_absent_keys": "expected_wire_request_absent_keys",
        "expected_wire_request_checks": "expected_wire_request_checks",
        "expected_wire_bytes_identical": "expected_wire_bytes_identical",
        "typed_observers": "typed_observers", "tei_embedding_provider": "tei_embedding_provider",
        "tei_rerank_provider": "tei_rerank_provider",
        "jina_embedding_provider": "jina_embedding_provider",
        "jina_rerank_provider": "jina_rerank_provider",
        "openai_embedding_provider": "openai_embedding_provider",
        "cohere_embedding_provider": "cohere_embedding_provider",
        "cohere_rerank_provider": "cohere_rerank_provider", "mock_embedding": "mock_embedding",
        "mock_rerank": "mock_rerank", "shares_provider": "shares_provider",
        "expected_wire_request_count": "expected_wire_request_count",
        "expected_wire_url": "expected_wire_url", "expected_wire_headers": "expected_wire_headers",
        "backends": "backends", "manager": "manager", "secondary_manager": "secondary_manager",
        "tertiary_manager": "tertiary_manager", "label_resolver": "label_resolver",
        "tertiary_label_resolver": "tertiary_label_resolver", "secondary_calls": "secondary_calls",
        "tertiary_calls": "tertiary_calls", "expected_backend_state": "expected_backend_state",
        "expected_shared_prefix": "expected_shared_prefix",
        "expected_message_equal": "expected_message_equal", "session_store": "session_store",
        "session_id": "session_id", "auto_save": "auto_save", "session_state": "session_state",
        "seeded_session": "seeded_session", "session_migrations": "session_migrations",
        "harness": "harness", "transmissions": "transmissions", "chat_turns": "chat_turns",
        "signal_arrivals": "signal_arrivals",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "invocations", "graph", "state", "nodes", "edges", "subgraph", "subgraphs", "observers",
        "invoke", "invoke_with", "expected", "expected_error", "middleware", "clock_stub",
        "checkpointer", "first_run_expected_error", "crash_injection", "resume",
        "expected_chain_ambiguity_error", "migrations", "saved_record_assertions",
        "every_save_assertions", "subgraph_with_idx", "queryable_observers", "inner_subgraphs",
        "otel_observer", "langfuse_observer", "langfuse_observer_config", "first_run_expected",
        "langfuse_client", "requires_capability", "expected_construction_error", "prompt_backend",
        "provider", "sequential_invocations", "direct_call", "call", "calls", "mock_provider",
        "mock_llm", "mock_llm_stream", "expected_wire_bytes_identical", "typed_observers",
        "tei_embedding_provider", "tei_rerank_provider", "jina_embedding_provider",
        "jina_rerank_provider", "openai_embedding_provider", "cohere_embedding_provider",
        "cohere_rerank_provider", "mock_embedding", "mock_rerank", "backends", "manager",
        "secondary_manager", "tertiary_manager", "label_resolver", "tertiary_label_resolver",
        "secondary_calls", "tertiary_calls", "expected_backend_state", "expected_shared_prefix",
        "expected_message_equal", "session_store", "session_state", "seeded_session",
        "session_migrations", "harness", "transmissions", "chat_turns", "signal_arrivals",
    ))
    _fields = (
        "order", "invocations", "name", "description", "graph", "run_count", "state", "entry",
        "nodes", "edges", "subgraph", "subgraphs", "observers", "initial_state", "invoke",
        "invoke_with", "caller_metadata", "caller_correlation_id", "caller_invocation_id",
        "expected", "expected_error", "expected_compile_error", "expected_compile_warning",
        "invariants", "middleware", "clock_stub", "checkpointer", "populate_checkpointer_via_runs",
        "first_run_expected_error", "crash_injection", "resume", "expected_chain_ambiguity_error",
        "seeded_record", "runtime_state_subclass", "migrations", "saved_record_assertions",
        "every_save_assertions", "subgraph_with_idx", "queryable_observers", "inner_subgraphs",
        "caller_global_otel_active", "disable_llm_spans", "disable_provider_payload",
        "disable_genai_semconv", "otel_observer", "enable_metrics", "detached_subgraphs",
        "detached_fan_outs", "langfuse_observer", "langfuse_observer_config", "first_run_expected",
        "langfuse_client", "requires_capability", "expected_construction_error", "prompt_backend",
        "render_variables", "provider", "sequential_invocations", "direct_call", "call", "calls",
        "mock_provider", "mock_llm", "mock_llm_stream", "mapping", "expected_wire_request",
        "expected_wire_request_absent_keys", "expected_wire_request_checks",
        "expected_wire_bytes_identical", "typed_observers", "tei_embedding_provider",
        "tei_rerank_provider", "jina_embedding_provider", "jina_rerank_provider",
        "openai_embedding_provider", "cohere_embedding_provider", "cohere_rerank_provider",
        "mock_embedding", "mock_rerank", "shares_provider", "expected_wire_request_count",
        "expected_wire_url", "expected_wire_headers", "backends", "manager", "secondary_manager",
        "tertiary_manager", "label_resolver", "tertiary_label_resolver", "secondary_calls",
        "tertiary_calls", "expected_backend_state", "expected_shared_prefix",
        "expected_message_equal", "session_store", "session_id", "auto_save", "session_state",
        "seeded_session", "session_migrations", "harness", "transmissions", "chat_turns",
        "signal_arrivals",
    )

    invocations: Scalar | Sequence | None = None
    """``invocations`` (conformance-adapter §4.3, since 0.48.0): Sequential invocations against one
    compiled graph and shared backends (or, as an integer, how many identical runs).
    """

    name: Scalar | None = None
    """``name`` (conformance-adapter §4.2, since 0.48.0): The case, invocation or subgraph name."""

    description: Scalar | None = None
    """``description`` (conformance-adapter §4.2, since 0.48.0): Prose; not executed."""

    graph: GraphDecl | None = None
    """``graph`` (graph-engine §4): The case's graph, when written as a block instead of inline
    keys.
    """

    run_count: Scalar | None = None
    """``run_count`` (graph-engine §10): Run the case this many times (determinism fixtures)."""

    state: StateDecl | None = None
    """``state`` (graph-engine §5.2, since 0.48.0): The typed state schema."""

    entry: Scalar | None = None
    """``entry`` (graph-engine §4.1, since 0.48.0): The entry node."""

    nodes: Mapping | None = None
    """``nodes`` (graph-engine §5.1, since 0.48.0): The nodes, by name."""

    edges: Sequence | None = None
    """``edges`` (graph-engine §5.3, since 0.48.0): Static and conditional edges."""

    subgraph: GraphDecl | None = None
    """``subgraph`` (graph-engine §5.4, since 0.48.0): One inline subgraph declaration (with
    `name:`).
    """

    subgraphs: Mapping | None = None
    """``subgraphs`` (graph-engine §5.4, since 0.48.0): Named subgraph declarations."""

    observers: Sequence | None = None
    """``observers`` (graph-engine §5.5, since 0.48.0): In-memory observer registrations."""

    initial_state: Mapping | None = None
    """``initial_state`` (graph-engine §5.2, since 0.48.0): The input state; omitted fields take
    their defaults.
    """

    invoke: InvokeDecl | None = None
    """``invoke`` (graph-engine §5.7, since 0.48.0): Per-invoke directives (same as `invoke_with`).
    """

    invoke_with: InvokeDecl | None = None
    """``invoke_with`` (graph-engine §5.7, since 0.48.0): Per-invoke directives (same as `invoke`).
    """

    caller_metadata: Mapping | None = None
    """``caller_metadata`` (observability §5.7): Invocation metadata passed to invoke()
    (observability §3.4).
    """

    caller_correlation_id: Scalar | None = None
    """``caller_correlation_id`` (observability §5.7): Correlation id passed to invoke()
    (observability §3.1).
    """

    caller_invocation_id: Scalar | None = None
    """``caller_invocation_id`` (observability §5.7): Invocation id passed to invoke()
    (observability §5.1).
    """

    expected: Mapping | Expected | None = None
    """``expected`` (conformance-adapter §5.8, since 0.48.0): What the run must produce.

    ``expected`` (prompt-management §3.2 header, since 0.15.0, this directory only): Captured
    results by `capture_as` name (fields listed are compared; `*_absent` matchers), plus the
    assertions `result_equivalence: {of, fields_must_match, fields_may_differ}` and
    `rendered_hash_equal` / `rendered_hash_different: [[<capture>, <capture>], ...]`.
    """

    expected_error: ErrorExpectation | None = None
    """``expected_error`` (conformance-adapter §5.8, since 0.48.0): The invocation fails with this
    error category, raised from this node.
    """

    expected_compile_error: Scalar | None = None
    """``expected_compile_error`` (graph-engine §5.8, since 0.89.0): Compilation fails with this
    graph-engine §2 category.
    """

    expected_compile_warning: Scalar | Sequence | None = None
    """``expected_compile_warning`` (graph-engine §5.8, since 0.89.0): Compilation succeeds with
    this warning (scalar: among those emitted; list: exactly these).
    """

    invariants: PredicateBlock | None = None
    """``invariants`` (conformance-adapter §5.9, since 0.48.0): Named invariant predicates."""

    middleware: MiddlewareConfig | None = None
    """``middleware`` (pipeline-utilities §6): Per-graph and per-node middleware."""

    clock_stub: ClockStub | None = None
    """``clock_stub`` (pipeline-utilities §6.2): A deterministic monotonic clock."""

    checkpointer: Scalar | CheckpointerDecl | None = None
    """``checkpointer`` (pipeline-utilities §5.6, since 0.48.0): The checkpointer backend:
    in_memory, sqlite, in_memory_batched (or a block with `kind`).
    """

    populate_checkpointer_via_runs: Scalar | None = None
    """``populate_checkpointer_via_runs`` (pipeline-utilities §5.6, since 0.48.0): Seed the
    checkpointer with N completed runs first.
    """

    first_run_expected_error: ErrorExpectation | None = None
    """``first_run_expected_error`` (pipeline-utilities §5.6): The error ending the first run."""

    crash_injection: CrashInjection | None = None
    """``crash_injection`` (pipeline-utilities §5.6): Abandon the first run after a save."""

    resume: ResumeDecl | None = None
    """``resume`` (pipeline-utilities §5.6): Resume and assert the resumed run."""

    expected_chain_ambiguity_error: Scalar | ErrorExpectation | None = None
    """``expected_chain_ambiguity_error`` (pipeline-utilities §10.12): This category surfaces at
    graph build (migration registration / compile) or when the run resumes.
    """

    seeded_record: Mapping | None = None
    """``seeded_record`` (pipeline-utilities §10): A checkpoint record saved before the run."""

    runtime_state_subclass: Mapping | None = None
    """``runtime_state_subclass`` (pipeline-utilities §10.10): Runtime state class attributes
    (schema_version).
    """

    migrations: Sequence | None = None
    """``migrations`` (pipeline-utilities §10.10): Registered state migrations."""

    saved_record_assertions: RecordAssertions | None = None
    """``saved_record_assertions`` (pipeline-utilities §5.8): Assertions on the record saved by the
    first run.
    """

    every_save_assertions: RecordAssertions | None = None
    """``every_save_assertions`` (pipeline-utilities §5.8): Assertions every save must satisfy."""

    subgraph_with_idx: GraphDecl | None = None
    """``subgraph_with_idx`` (pipeline-utilities §9): A second subgraph declaration (count-mode
    fan-out).
    """

    queryable_observers: Sequence | None = None
    """``queryable_observers`` (observability §3.2 header, since 0.40.0): Harness-defined queryable
    observers attached at invoke time.
    """

    inner_subgraphs: Mapping | None = None
    """``inner_subgraphs`` (observability §3.2 header, since 0.25.0): Subgraphs run by fan-out
    instances (`inner_subgraph`) or by name-listed parallel branches.
    """

    caller_global_otel_active: Scalar | None = None
    """``caller_global_otel_active`` (observability §5.5, since 0.7.0): Install a second exporter on
    the OTel global TracerProvider (the §6 isolation check).
    """

    disable_llm_spans: Scalar | None = None
    """``disable_llm_spans`` (observability §5.5, since 0.7.0): Construct the observer with the §5.5
    LLM-span opt-out.
    """

    disable_provider_payload: Scalar | None = None
    """``disable_provider_payload`` (observability §3.2 header, since 0.54.0): The §5.5.4
    provider-payload opt-out (default true), per observer; at case level (before `otel_observer`),
    both observers' unless the `langfuse_observer` block sets its own.
    """

    disable_genai_semconv: Scalar | None = None
    """``disable_genai_semconv`` (observability §3.2 header, since 0.17.0): The §5.5.4 GenAI-semconv
    opt-out of the OTel observer.
    """

    otel_observer: OtelObserverConfig | None = None
    """``otel_observer`` (observability §5.5, since 0.115.0): The bundled OTel observer's
    construction flags; a flag it sets wins over the case-level key of the same name.
    """

    enable_metrics: Scalar | None = None
    """``enable_metrics`` (observability §6.9, since 0.64.0): Turn on the observer's §11 metrics
    (default off).
    """

    detached_subgraphs: Sequence | None = None
    """``detached_subgraphs`` (observability §3.2 header, since 0.7.0): Subgraphs rendered as
    detached traces (observability §4.4).
    """

    detached_fan_outs: Sequence | None = None
    """``detached_fan_outs`` (observability §3.2 header, since 0.7.0): Fan-out nodes rendered as
    detached traces (observability §4.4).
    """

    langfuse_observer: LangfuseObserverConfig | None = None
    """``langfuse_observer`` (observability §3.2 header, since 0.23.0): Attach the bundled Langfuse
    observer, with these flags.
    """

    langfuse_observer_config: LangfuseObserverConfig | None = None
    """``langfuse_observer_config`` (observability §3.2 header, since 0.44.0): Same as
    `langfuse_observer` (an alternative spelling one fixture uses).
    """

    first_run_expected: Expected | None = None
    """``first_run_expected`` (observability §3.2 header, since 0.35.0, this directory only): What
    the first run of a resume case must produce (beside `first_run_expected_error`).
    """

    langfuse_client: LangfuseClientDecl | None = None
    """``langfuse_client`` (observability §5.5, since 0.109.0): Construct the Langfuse observer's
    client (the provider-faithful §6.4 fake).
    """

    requires_capability: AdapterCapabilityRequirement | None = None
    """``requires_capability`` (observability §5.5, since 0.110.0): Assert the case only under an
    adapter whose capabilities match (else a recognized skip naming the mismatch).
    """

    expected_construction_error: ConstructionErrorExpectation | None = None
    """``expected_construction_error`` (observability §5.5, since 0.110.0): Constructing the case's
    observers / clients, or their first use, raises this categorized error.
    """

    prompt_backend: ObsPromptBackend | None = None
    """``prompt_backend`` (observability §3.2 header, since 0.23.0): The backend serving
    `renders_prompt` prompts.
    """

    render_variables: Mapping | None = None
    """``render_variables`` (observability §3.2 header, since 0.23.0): The variables
    `renders_prompt` renders with.
    """

    provider: ObsLlmProvider | None = None
    """``provider`` (observability §3.2 header, since 0.17.0): The LLM provider instance `calls_llm`
    uses.
    """

    sequential_invocations: SequentialInvocations | None = None
    """``sequential_invocations`` (observability §3.2 header, since 0.40.0): Run the graph once per
    listed invocation with the same observer instances; assert `expected.per_invocation`.
    """

    direct_call: DirectCall | None = None
    """``direct_call`` (observability §3.2 header, since 0.40.0): Call an observability API outside
    any invocation (no graph runs).
    """

    call: LlmCall | None = None
    """``call`` (llm-provider §5.11, since 0.91.0): The one `complete()` / `ready()` call the case
    makes.
    """

    calls: Sequence | None = None
    """``calls`` (llm-provider §3.2 header, this directory only): Calls made in order against one
    mock provider, each with its own expected outcome.

    ``calls`` (prompt-management §3.2 header, since 0.15.0, this directory only): Operations
    performed in order, each with its own expectation.
    """

    mock_provider: LlmMockProvider | None = None
    """``mock_provider`` (llm-provider §5.11, since 0.91.0): The mock provider the call talks to."""

    mock_llm: Sequence | None = None
    """``mock_llm`` (observability §5.5): Canned OpenAI-compatible chat-completion responses for
    successive `complete()` calls (`calls_llm`).
    """

    mock_llm_stream: Sequence | None = None
    """``mock_llm_stream`` (observability §3.2 header): Streamed responses, one per
    `complete(stream=True)` call: a chunk list, or `{wire_attempts}` under call-level retry.
    """

    mapping: Scalar | None = None
    """``mapping`` (llm-provider §5.15, since 0.102.0): The §8.x vendor wire mapping under test;
    absent, the default (llm: OpenAI-compatible; retrieval: harness stand-in).
    """

    expected_wire_request: Mapping | Sequence | None = None
    """``expected_wire_request`` (llm-provider §5.15, since 0.102.0): The outbound request body,
    compared key by key (a list: one body per request, chunk-and-stitch).
    """

    expected_wire_request_absent_keys: Sequence | None = None
    """``expected_wire_request_absent_keys`` (llm-provider §5.15, since 0.102.0): Keys that must be
    absent from the outbound body.
    """

    expected_wire_request_checks: PredicateBlock | None = None
    """``expected_wire_request_checks`` (llm-provider §3.2 header): Facts about the outbound body a
    literal compare cannot express (`<key>_absent`, named checks).
    """

    expected_wire_bytes_identical: WireBytesIdentical | None = None
    """``expected_wire_bytes_identical`` (llm-provider §3.2 header): The named calls' wire bodies
    must be byte-identical (llm-provider §8 wire-byte stability).
    """

    typed_observers: Sequence | None = None
    """``typed_observers`` (graph-engine §5.5, since 0.102.0): Typed-event collectors keeping
    graph-engine §6 typed events in observer-internal storage.
    """

    tei_embedding_provider: TeiEmbeddingProvider | None = None
    """``tei_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a TEI
    EmbeddingProvider.
    """

    tei_rerank_provider: TeiRerankProvider | None = None
    """``tei_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a TEI RerankProvider.
    """

    jina_embedding_provider: JinaProvider | None = None
    """``jina_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Jina
    EmbeddingProvider.
    """

    jina_rerank_provider: JinaProvider | None = None
    """``jina_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Jina
    RerankProvider.
    """

    openai_embedding_provider: OpenaiEmbeddingProvider | None = None
    """``openai_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind an
    OpenAI-compatible EmbeddingProvider.
    """

    cohere_embedding_provider: CohereProvider | None = None
    """``cohere_embedding_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Cohere
    EmbeddingProvider.
    """

    cohere_rerank_provider: CohereProvider | None = None
    """``cohere_rerank_provider`` (retrieval-provider §5.15, since 0.102.0): Bind a Cohere
    RerankProvider.
    """

    mock_embedding: Sequence | None = None
    """``mock_embedding`` (retrieval-provider §5.15, since 0.102.0): The mock embedding provider's
    responses, one per request in arrival order.
    """

    mock_rerank: Sequence | None = None
    """``mock_rerank`` (retrieval-provider §5.15, since 0.102.0): The mock rerank provider's
    responses, one per request in arrival order.
    """

    shares_provider: Scalar | None = None
    """``shares_provider`` (retrieval-provider §3.2 header): Every call of one kind and model in the
    case goes to one provider instance.
    """

    expected_wire_request_count: Scalar | None = None
    """``expected_wire_request_count`` (retrieval-provider §5.15, since 0.102.0): How many outbound
    requests the call issues.
    """

    expected_wire_url: Scalar | BindingToken | FormatToken | None = None
    """``expected_wire_url`` (retrieval-provider §3.2 header): The fully resolved URL the outbound
    request goes to (base_url origin + the mapping's route), exactly.
    """

    expected_wire_headers: Mapping | None = None
    """``expected_wire_headers`` (retrieval-provider §5.15, since 0.102.0): Request headers that
    must be present with these values (subset, names case-insensitive).
    """

    backends: Sequence | None = None
    """``backends`` (prompt-management §3.2 header, since 0.15.0, this directory only): The mock
    PromptBackends, preloaded.
    """

    manager: PromptManagerDecl | None = None
    """``manager`` (prompt-management §3.2 header, since 0.15.0, this directory only): The
    PromptManager `target: manager` calls go through.
    """

    secondary_manager: PromptManagerDecl | None = None
    """``secondary_manager`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    second manager (`target: secondary_manager`).
    """

    tertiary_manager: PromptManagerDecl | None = None
    """``tertiary_manager`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    third manager (`target: tertiary_manager`).
    """

    label_resolver: LabelResolverDecl | None = None
    """``label_resolver`` (prompt-management §3.2 header, since 0.26.0, this directory only): A
    LabelResolver a manager may reference.
    """

    tertiary_label_resolver: LabelResolverDecl | None = None
    """``tertiary_label_resolver`` (prompt-management §3.2 header, since 0.26.0, this directory
    only): A second LabelResolver a manager may reference.
    """

    secondary_calls: Sequence | None = None
    """``secondary_calls`` (prompt-management §3.2 header, since 0.26.0, this directory only):
    Operations against the secondary manager, after `calls`.
    """

    tertiary_calls: Sequence | None = None
    """``tertiary_calls`` (prompt-management §3.2 header, since 0.26.0, this directory only):
    Operations against the tertiary manager, after `secondary_calls`.
    """

    expected_backend_state: Mapping | None = None
    """``expected_backend_state`` (prompt-management §6.8, since 0.63.0, this directory only): Each
    caching backend's state after all calls.
    """

    expected_shared_prefix: SharedPrefixExpectation | None = None
    """``expected_shared_prefix`` (prompt-management §3.2 header, since 0.39.0, this directory
    only): Two captured renders' messages share a byte-identical prefix.
    """

    expected_message_equal: MessageEqualExpectation | None = None
    """``expected_message_equal`` (prompt-management §3.2 header, since 0.39.0, this directory
    only): Two captured renders have byte-identical messages at the given indices.
    """

    session_store: Scalar | SessionStoreConfig | None = None
    """``session_store`` (sessions §5.6, since 0.48.0): The SessionStore backend registered on the
    graph (`in_memory`), or a block with `type` and options.
    """

    session_id: Scalar | None = None
    """``session_id`` (sessions §5.7, since 0.48.0): The session id passed to invoke() (sessions
    §3).
    """

    auto_save: Scalar | None = None
    """``auto_save`` (sessions §3.2 header, since 0.33.0, this directory only): The store
    registration's auto-save at invoke exit (default true; sessions §6.3).
    """

    session_state: SessionStateProjection | None = None
    """``session_state`` (sessions §3.2 header, since 0.33.0, this directory only): A SessionState
    projection narrower than the invoke state (sessions §4.2).
    """

    seeded_session: SeededSession | None = None
    """``seeded_session`` (sessions §3.2 header, since 0.33.0, this directory only): Save this
    record under the case's `session_id` before the run.
    """

    session_migrations: Sequence | None = None
    """``session_migrations`` (sessions §3.2 header, since 0.33.0, this directory only): Session
    state migrations registered on the graph (sessions §7).
    """

    harness: HarnessConfig | None = None
    """``harness`` (harness §3.2 header, since 0.49.0): Wrap the graph in the harness under test, in
    this mode.
    """

    transmissions: Sequence | None = None
    """``transmissions`` (harness §3.2 header, since 0.49.0, this directory only): Synthetic
    transmissions, dispatched in order.
    """

    chat_turns: Sequence | None = None
    """``chat_turns`` (harness-chat §3.2 header, since 0.50.0, this directory only): Sequential
    `send()` calls.
    """

    signal_arrivals: Sequence | None = None
    """``signal_arrivals`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only):
    External signals delivered after the turns, in order.
    """


class Invocation(Section):
    """One sequential `invoke()` of an `invocations:` list (§4.3, §5.7)."""

    family: ClassVar[str] = "invocation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "description": "description", "observers": "observers",
        "initial_state": "initial_state", "drain": "drain",
        "resume_invocation": "resume_invocation", "caller_metadata": "caller_metadata",
        "correlation_id": "correlation_id", "caller_invocation_id": "caller_invocation_id",
        "expected": "expected", "expected_error": "expected_error", "invariants": "invariants",
        "populate_checkpointer_via_runs": "populate_checkpointer_via_runs",
        "first_run_expected_error": "first_run_expected_error",
        "crash_injection": "crash_injection", "resume": "resume",
        "saved_record_assertions": "saved_record_assertions", "session_id": "session_id",
        "loaded_session_state": "loaded_session_state",
        "loaded_invoke_state_for_scratch": "loaded_invoke_state_for_scratch",
        "saved_session_assertions": "saved_session_assertions",
        "expected_final_state": "expected_final_state", "signal_payload": "signal_payload",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "observers", "drain", "expected", "expected_error", "first_run_expected_error",
        "crash_injection", "resume", "saved_record_assertions", "saved_session_assertions",
    ))
    _fields = (
        "order", "name", "description", "observers", "initial_state", "drain", "resume_invocation",
        "caller_metadata", "correlation_id", "caller_invocation_id", "expected", "expected_error",
        "invariants", "populate_checkpointer_via_runs", "first_run_expected_error",
        "crash_injection", "resume", "saved_record_assertions", "session_id",
        "loaded_session_state", "loaded_invoke_state_for_scratch", "saved_session_assertions",
        "expected_final_state", "signal_payload",
    )

    name: Scalar | None = None
    """``name`` (conformance-adapter §4.2, since 0.48.0): The case, invocation or subgraph name."""

    description: Scalar | None = None
    """``description`` (conformance-adapter §4.2, since 0.48.0): Prose; not executed."""

    observers: Sequence | None = None
    """``observers`` (graph-engine §5.5, since 0.48.0): In-memory observer registrations."""

    initial_state: Mapping | None = None
    """``initial_state`` (graph-engine §5.2, since 0.48.0): The input state; omitted fields take
    their defaults.
    """

    drain: DrainDecl | None = None
    """``drain`` (graph-engine §5.7, since 0.48.0): Call the process-wide `drain()` after invoke."""

    resume_invocation: Scalar | Placeholder | None = None
    """``resume_invocation`` (graph-engine §5.7, since 0.48.0): Resume a saved invocation: an id or
    a `<placeholder>` naming a prior outcome.
    """

    caller_metadata: Mapping | None = None
    """``caller_metadata`` (observability §5.7): Invocation metadata passed to invoke()
    (observability §3.4).
    """

    correlation_id: Scalar | None = None
    """``correlation_id`` (observability §5.7): Correlation id for this invocation."""

    caller_invocation_id: Scalar | None = None
    """``caller_invocation_id`` (observability §5.7): Invocation id passed to invoke()
    (observability §5.1).
    """

    expected: Expected | None = None
    """``expected`` (conformance-adapter §5.8, since 0.48.0): What the run must produce."""

    expected_error: ErrorExpectation | None = None
    """``expected_error`` (conformance-adapter §5.8, since 0.48.0): The invocation fails with this
    error category, raised from this node.
    """

    invariants: PredicateBlock | None = None
    """``invariants`` (conformance-adapter §5.9, since 0.48.0): Named invariant predicates."""

    populate_checkpointer_via_runs: Scalar | None = None
    """``populate_checkpointer_via_runs`` (pipeline-utilities §5.6, since 0.48.0): Seed the
    checkpointer with N completed runs first.
    """

    first_run_expected_error: ErrorExpectation | None = None
    """``first_run_expected_error`` (pipeline-utilities §5.6): The error ending the first run."""

    crash_injection: CrashInjection | None = None
    """``crash_injection`` (pipeline-utilities §5.6): Abandon the first run after a save."""

    resume: ResumeDecl | None = None
    """``resume`` (pipeline-utilities §5.6): Resume and assert the resumed run."""

    saved_record_assertions: RecordAssertions | None = None
    """``saved_record_assertions`` (pipeline-utilities §5.8): Assertions on the record saved by the
    first run.
    """

    session_id: Scalar | None = None
    """``session_id`` (sessions §5.7, since 0.48.0): The session id passed to invoke() (sessions
    §3).
    """

    loaded_session_state: Scalar | Mapping | None = None
    """``loaded_session_state`` (sessions §5.6, since 0.48.0): The session state loaded at invoke
    entry (null: no record existed).
    """

    loaded_invoke_state_for_scratch: Scalar | BindingToken | FormatToken | None = None
    """``loaded_invoke_state_for_scratch`` (sessions §3.2 header, since 0.33.0, this directory
    only): The value the non-projected `scratch` field held on entry (its default, not the prior
    invoke's).
    """

    saved_session_assertions: SessionRecordAssertions | None = None
    """``saved_session_assertions`` (sessions §5.6, since 0.48.0): The session record written to the
    store at invoke exit (or at suspend).
    """

    expected_final_state: Mapping | None = None
    """``expected_final_state`` (sessions §3.2 header, since 0.33.0, this directory only): The
    invocation's final state (as `expected.final_state`).
    """

    signal_payload: Mapping | None = None
    """``signal_payload`` (suspension §5.7, since 0.48.0): With `resume_invocation`: resume a
    suspended invocation, merging this payload into state (suspension §7).
    """


class GraphDecl(Section):
    """A graph definition: `graph:`, or a subgraph declared by `subgraph:` / `subgraphs:` (§5.4)."""

    family: ClassVar[str] = "graph"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "state": "state", "entry": "entry", "nodes": "nodes", "edges": "edges",
        "subgraph": "subgraph", "subgraphs": "subgraphs", "middleware": "middleware",
        "inner_subgraphs": "inner_subgraphs",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "state", "nodes", "edges", "subgraph", "subgraphs", "middleware", "inner_subgraphs",
    ))
    _fields = (
        "order", "name", "state", "entry", "nodes", "edges", "subgraph", "subgraphs", "middleware",
        "inner_subgraphs",
    )

    name: Scalar | None = None
    """``name`` (conformance-adapter §4.2, since 0.48.0): The case, invocation or subgraph name."""

    state: StateDecl | None = None
    """``state`` (graph-engine §5.2, since 0.48.0): The typed state schema."""

    entry: Scalar | None = None
    """``entry`` (graph-engine §4.1, since 0.48.0): The entry node."""

    nodes: Mapping | None = None
    """``nodes`` (graph-engine §5.1, since 0.48.0): The nodes, by name."""

    edges: Sequence | None = None
    """``edges`` (graph-engine §5.3, since 0.48.0): Static and conditional edges."""

    subgraph: GraphDecl | None = None
    """``subgraph`` (graph-engine §5.4, since 0.48.0): One inline subgraph declaration (with
    `name:`).
    """

    subgraphs: Mapping | None = None
    """``subgraphs`` (graph-engine §5.4, since 0.48.0): Named subgraph declarations."""

    middleware: MiddlewareConfig | None = None
    """``middleware`` (pipeline-utilities §6): Per-graph and per-node middleware."""

    inner_subgraphs: Mapping | None = None
    """``inner_subgraphs`` (observability §3.2 header, since 0.25.0): Subgraphs run by fan-out
    instances (`inner_subgraph`) or by name-listed parallel branches.
    """


class StateDecl(Section):
    """The typed state schema (§5.2)."""

    family: ClassVar[str] = "state"
    directive_attrs: ClassVar[dict[str, str]] = {
        "fields": "fields", "schema_version": "schema_version",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "fields",
    ))
    _fields = (
        "order", "fields", "schema_version",
    )

    fields: Mapping | None = None
    """``fields`` (graph-engine §5.2, since 0.48.0): The state fields, by name."""

    schema_version: Scalar | None = None
    """``schema_version`` (pipeline-utilities §10.10): The state schema version."""


class FieldDecl(Section):
    """One state field: type, default, reducer (§5.2)."""

    family: ClassVar[str] = "field"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "default": "default", "reducer": "reducer", "alt_reducer": "alt_reducer",
        "required": "required",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "type", "default", "reducer", "alt_reducer", "required",
    )

    type: TypeRef | None = None
    """``type`` (graph-engine §5.2, since 0.48.0): The field's type string (primitive, list<T>,
    dict<K,V>, record).
    """

    default: Scalar | Mapping | Sequence | None = None
    """``default`` (graph-engine §5.2, since 0.48.0): The value when `initial_state` omits the
    field.
    """

    reducer: Scalar | Mapping | None = None
    """``reducer`` (graph-engine §5.2, since 0.48.0): A canonical reducer name, or `{<factory>:
    {kwargs}}` for a factory reducer (proposal 0023).
    """

    alt_reducer: Scalar | None = None
    """``alt_reducer`` (graph-engine §2): A second, conflicting reducer declaration (compile-error
    fixtures).
    """

    required: Scalar | None = None
    """``required`` (pipeline-utilities §10.10): The field has no default and must be supplied."""


class NodeDecl(Section):
    """One node: its behaviour directives, run in document order (§5.1, §8.3)."""

    family: ClassVar[str] = "node"
    directive_attrs: ClassVar[dict[str, str]] = {
        "update": "update", "update_pure": "update_pure", "update_from_field": "update_from_field",
        "raises": "raises", "on_cancelled": "on_cancelled", "error_category": "error_category",
        "sleep_ms": "sleep_ms", "noop": "noop", "subgraph": "subgraph", "inputs": "inputs",
        "outputs": "outputs", "mapping": "mapping", "projects_in": "projects_in",
        "projects_out": "projects_out", "invoke_drain_events_for": "invoke_drain_events_for",
        "attempts_input_state_mutation": "attempts_input_state_mutation",
        "detaches_observer": "detaches_observer", "invoke_drain": "invoke_drain",
        "fan_out": "fan_out", "parallel_branches": "parallel_branches", "middleware": "middleware",
        "wrap_with_middleware": "wrap_with_middleware", "flaky": "flaky",
        "flaky_by_index": "flaky_by_index", "flaky_per_index": "flaky_per_index",
        "flaky_instance_only": "flaky_instance_only", "flaky_resume_aware": "flaky_resume_aware",
        "invoke_checkpoint_delete": "invoke_checkpoint_delete",
        "lists_checkpoints_into": "lists_checkpoints_into",
        "reload_checkpoint_into": "reload_checkpoint_into", "calls_llm": "calls_llm",
        "calls_llm_from_wrapper": "calls_llm_from_wrapper", "calls_tool": "calls_tool",
        "renders_prompt": "renders_prompt", "renders_prompt_group": "renders_prompt_group",
        "augment_metadata": "augment_metadata",
        "augment_metadata_from_field": "augment_metadata_from_field",
        "capture_invocation_metadata_into": "capture_invocation_metadata_into",
        "capture_queryable_observer_read_into": "capture_queryable_observer_read_into",
        "then_drop_for_current_invocation": "then_drop_for_current_invocation",
        "then_assert_bucket_absent_into": "then_assert_bucket_absent_into",
        "update_pure_from_state": "update_pure_from_state", "emits_log": "emits_log",
        "also_emits_via_global_tracer": "also_emits_via_global_tracer",
        "per_attempt_behavior": "per_attempt_behavior", "subgraph_call": "subgraph_call",
        "retry_middleware": "retry_middleware", "calls_embed": "calls_embed",
        "calls_ready": "calls_ready", "calls_rerank": "calls_rerank",
        "explicit_save_session": "explicit_save_session",
        "suspend_with_descriptor": "suspend_with_descriptor",
        "conditional_suspend": "conditional_suspend", "on_other_indices": "on_other_indices",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "raises", "on_cancelled", "mapping", "invoke_drain_events_for", "invoke_drain", "fan_out",
        "parallel_branches", "middleware", "wrap_with_middleware", "flaky", "flaky_by_index",
        "flaky_per_index", "flaky_instance_only", "flaky_resume_aware", "calls_llm",
        "calls_llm_from_wrapper", "calls_tool", "renders_prompt_group",
        "capture_queryable_observer_read_into", "then_drop_for_current_invocation", "emits_log",
        "also_emits_via_global_tracer", "per_attempt_behavior", "subgraph_call", "retry_middleware",
        "calls_embed", "calls_ready", "calls_rerank", "suspend_with_descriptor",
        "conditional_suspend", "on_other_indices",
    ))
    _fields = (
        "order", "update", "update_pure", "update_from_field", "raises", "on_cancelled",
        "error_category", "sleep_ms", "noop", "subgraph", "inputs", "outputs", "mapping",
        "projects_in", "projects_out", "invoke_drain_events_for", "attempts_input_state_mutation",
        "detaches_observer", "invoke_drain", "fan_out", "parallel_branches", "middleware",
        "wrap_with_middleware", "flaky", "flaky_by_index", "flaky_per_index", "flaky_instance_only",
        "flaky_resume_aware", "invoke_checkpoint_delete", "lists_checkpoints_into",
        "reload_checkpoint_into", "calls_llm", "calls_llm_from_wrapper", "calls_tool",
        "renders_prompt", "renders_prompt_group", "augment_metadata", "augment_metadata_from_field",
        "capture_invocation_metadata_into", "capture_queryable_observer_read_into",
        "then_drop_for_current_invocation", "then_assert_bucket_absent_into",
        "update_pure_from_state", "emits_log", "also_emits_via_global_tracer",
        "per_attempt_behavior", "subgraph_call", "retry_middleware", "calls_embed", "calls_ready",
        "calls_rerank", "explicit_save_session", "suspend_with_descriptor", "conditional_suspend",
        "on_other_indices",
    )

    update: Mapping | None = None
    """``update`` (graph-engine §5.1, since 0.48.0): Return this partial update; each field merges
    through its reducer.
    """

    update_pure: Mapping | None = None
    """``update_pure`` (graph-engine §5.1, since 0.48.0): Same as `update`, a constant inlined
    verbatim.
    """

    update_from_field: Mapping | None = None
    """``update_from_field`` (pipeline-utilities §5.1, since 0.48.0): `{<target>: <source_field>,
    multiplier: <int>}`: return target = source × multiplier.
    """

    raises: Scalar | NodeRaise | None = None
    """``raises`` (graph-engine §5.1, since 0.48.0): Raise instead of returning."""

    on_cancelled: CancellationCleanup | None = None
    """``on_cancelled`` (pipeline-utilities §5.1): When the node body receives the language's
    cancellation signal, it cleans up (awaits `cleanup_ms`), logs `cleaned_up`, then re-raises the
    signal.
    """

    error_category: Scalar | None = None
    """``error_category`` (pipeline-utilities §5.1): The category the `raises:` error carries."""

    sleep_ms: Scalar | None = None
    """``sleep_ms`` (pipeline-utilities §5.1): Sleep this long before the node's other directives.
    """

    noop: Scalar | None = None
    """``noop`` (graph-engine §5.1): A node that returns no update."""

    subgraph: Scalar | None = None
    """``subgraph`` (graph-engine §5.4, since 0.48.0): Run the named subgraph as this node."""

    inputs: Mapping | None = None
    """``inputs`` (graph-engine §5.4): Explicit mapping parent field → subgraph field."""

    outputs: Mapping | None = None
    """``outputs`` (graph-engine §5.4): Explicit mapping subgraph field → parent field."""

    mapping: Projection | None = None
    """``mapping`` (graph-engine §5.4): The explicit mapping as one block."""

    projects_in: Sequence | None = None
    """``projects_in`` (graph-engine §2, since 0.89.0): Declared same-name boundary: fields copied
    in.
    """

    projects_out: Sequence | None = None
    """``projects_out`` (graph-engine §2, since 0.89.0): Declared same-name boundary: fields copied
    out.
    """

    invoke_drain_events_for: DrainEventsFor | None = None
    """``invoke_drain_events_for`` (graph-engine §5.1, since 0.48.0): Before returning, call
    `drain_events_for(invocation_id)` and snapshot an accumulator.
    """

    attempts_input_state_mutation: Scalar | None = None
    """``attempts_input_state_mutation`` (graph-engine §5.1): Assign the named field on the state
    object the node received, in place.
    """

    detaches_observer: Scalar | None = None
    """``detaches_observer`` (graph-engine §5.1): Remove the named graph-attached observer, from
    inside the node.
    """

    invoke_drain: DrainInNode | None = None
    """``invoke_drain`` (graph-engine §5.1): Before returning, call the process-wide
    `drain(timeout)`.
    """

    fan_out: FanOut | None = None
    """``fan_out`` (pipeline-utilities §5.4, since 0.48.0): Run a subgraph once per item (or count).
    """

    parallel_branches: ParallelBranches | None = None
    """``parallel_branches`` (pipeline-utilities §5.4, since 0.48.0): Run named branches
    concurrently.
    """

    middleware: Sequence | None = None
    """``middleware`` (pipeline-utilities §6): Middleware around this node."""

    wrap_with_middleware: Sequence | None = None
    """``wrap_with_middleware`` (pipeline-utilities §5.1, since 0.48.0): Run the node inside these
    middleware.
    """

    flaky: Flaky | None = None
    """``flaky`` (pipeline-utilities §5.1): Fail per attempt (sequence) or on the first invocation
    (compact).
    """

    flaky_by_index: FlakyByIndex | None = None
    """``flaky_by_index`` (pipeline-utilities §5.1): Fan-out mock: by item value or attempt count.
    """

    flaky_per_index: FlakyPerIndex | None = None
    """``flaky_per_index`` (pipeline-utilities §5.1): Fan-out mock keyed by invocation."""

    flaky_instance_only: FlakyInstanceOnly | None = None
    """``flaky_instance_only`` (pipeline-utilities §5.1): Fan-out mock failing whole instances."""

    flaky_resume_aware: FlakyResumeAware | None = None
    """``flaky_resume_aware`` (pipeline-utilities §5.1): Fails N attempts, then M after resume."""

    invoke_checkpoint_delete: Scalar | None = None
    """``invoke_checkpoint_delete`` (pipeline-utilities §10.1): Before returning, call the
    checkpointer's `delete` with this invocation id.
    """

    lists_checkpoints_into: Scalar | None = None
    """``lists_checkpoints_into`` (pipeline-utilities §10.1): Call the case's checkpointer's `list`
    and return the running invocation's summary (its four minimum fields; null when `list` does not
    enumerate it) in this field.
    """

    reload_checkpoint_into: Scalar | None = None
    """``reload_checkpoint_into`` (pipeline-utilities §10.1): Open the case's checkpointer backend
    again on the same storage, load this invocation's record, and return the count of its completed
    positions (-1: no record) in this field.
    """

    calls_llm: ObsLlmCall | None = None
    """``calls_llm`` (observability §5.1, since 0.7.0): Issue one real `complete()` against the mock
    provider (`mock_llm`) and store the response content in state.
    """

    calls_llm_from_wrapper: ObsLlmWrapperCall | None = None
    """``calls_llm_from_wrapper`` (observability §5.1, since 0.81.0): A middleware around the node
    issues one `complete()` before / after `next()`, orphaned from the node span.
    """

    calls_tool: ObsToolCall | None = None
    """``calls_tool`` (observability §3.2 header, since 0.69.0): Run a mock tool inside the
    tool-call instrumentation scope; OA emits ToolCallEvent / ToolCallFailedEvent.
    """

    renders_prompt: Scalar | None = None
    """``renders_prompt`` (observability §3.2 header, since 0.23.0): Render this `prompt_backend`
    prompt with `render_variables` and make it the active prompt for the node's calls.
    """

    renders_prompt_group: PromptGroupRender | None = None
    """``renders_prompt_group`` (observability §3.2 header, since 0.51.0): Make a PromptGroup and
    its `active_prompt` member the active contexts for the node's calls.
    """

    augment_metadata: Mapping | None = None
    """``augment_metadata`` (observability §5.1, since 0.25.0): Call
    `set_invocation_metadata(**kwargs)` (on a branch: at the top of the branch's body).
    """

    augment_metadata_from_field: Mapping | None = None
    """``augment_metadata_from_field`` (observability §5.1, since 0.25.0): `{<key>: <field>}`: set
    `<key>` to the field's value (on a fan-out: each instance, from its item).
    """

    capture_invocation_metadata_into: Scalar | None = None
    """``capture_invocation_metadata_into`` (observability §5.1, since 0.40.0): Write the
    `get_invocation_metadata()` snapshot into this state field.
    """

    capture_queryable_observer_read_into: QueryableObserverRead | None = None
    """``capture_queryable_observer_read_into`` (observability §3.2 header, since 0.40.0): Call a
    queryable observer's read method and write the value into a state field.
    """

    then_drop_for_current_invocation: QueryableObserverDrop | None = None
    """``then_drop_for_current_invocation`` (observability §3.2 header, since 0.40.0): Then call the
    observer's `drop(invocation_id)` for the current invocation.
    """

    then_assert_bucket_absent_into: Scalar | None = None
    """``then_assert_bucket_absent_into`` (observability §3.2 header, since 0.40.0): Then re-read
    the current invocation's bucket and write whether it is absent into this field.
    """

    update_pure_from_state: Mapping | None = None
    """``update_pure_from_state`` (observability §5.1, since 0.7.0): `{<output_field>:
    <operation>}`: return the field computed by a named harness operation (`input_times_two`).
    """

    emits_log: LogEmission | None = None
    """``emits_log`` (observability §3.2 header, since 0.7.0): Emit a log record through the OTel
    Logs Bridge while the node runs.
    """

    also_emits_via_global_tracer: GlobalTracerSpan | None = None
    """``also_emits_via_global_tracer`` (observability §3.2 header, since 0.7.0): The harness also
    emits a span through the global TracerProvider (the §6 isolation case).
    """

    per_attempt_behavior: Sequence | None = None
    """``per_attempt_behavior`` (observability §3.2 header, since 0.40.0): What the node does on
    each attempt under retry.
    """

    subgraph_call: SubgraphCall | None = None
    """``subgraph_call`` (observability §3.2 header, since 0.37.0): Run a declared subgraph as this
    node, with an explicit output mapping.
    """

    retry_middleware: MiddlewareDecl | None = None
    """``retry_middleware`` (observability §3.2 header, since 0.40.0, this directory only): Wrap the
    node in a pipeline-utilities §6.1 RetryMiddleware (`max_attempts`, `classifier`).
    """

    calls_embed: EmbedCall | None = None
    """``calls_embed`` (retrieval-provider §5.15, since 0.102.0): Call `embed()` and store the
    EmbeddingResponse in a state field.
    """

    calls_ready: ReadyCall | None = None
    """``calls_ready`` (retrieval-provider §3.2 header): Call the bound embedding or rerank
    provider's `ready()`.
    """

    calls_rerank: RerankCall | None = None
    """``calls_rerank`` (retrieval-provider §5.15, since 0.102.0): Call `rerank()` and store the
    RerankResponse in a state field.
    """

    explicit_save_session: Scalar | None = None
    """``explicit_save_session`` (sessions §3.2 header, since 0.33.0, this directory only): After
    its update merges, the node calls `save_session()` (sessions §6.2).
    """

    suspend_with_descriptor: SignalDescriptor | None = None
    """``suspend_with_descriptor`` (suspension §5.1, since 0.48.0): The node calls
    suspend(descriptor).
    """

    conditional_suspend: ConditionalSuspend | None = None
    """``conditional_suspend`` (suspension §5.1, since 0.48.0): Inside a fan-out instance: suspend
    when the item index matches, else run `on_other_indices`.
    """

    on_other_indices: NodeDecl | None = None
    """``on_other_indices`` (suspension §5.1, since 0.48.0): Node directives the other instances run
    (typically `update_from_field`); a sibling of `conditional_suspend` or, per §5.1, inside it.
    """


class EdgeDecl(Section):
    """A static or conditional edge (§5.3); a `condition.callable` edge may also name its `to`."""

    family: ClassVar[str] = "edge"
    directive_attrs: ClassVar[dict[str, str]] = {
        "from": "from_", "to": "to", "condition": "condition", "when": "when",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "condition", "when",
    ))
    _fields = (
        "order", "from_", "to", "condition", "when",
    )

    from_: Scalar | None = None
    """``from`` (graph-engine §5.3, since 0.48.0): The source node."""

    to: Scalar | None = None
    """``to`` (graph-engine §5.3, since 0.48.0): The destination node, or END."""

    condition: Condition | None = None
    """``condition`` (graph-engine §5.3, since 0.48.0): Route by post-update state."""

    when: EdgeWhen | None = None
    """``when`` (observability §3.2 header, this directory only): Take this edge only when the
    condition holds (else END).
    """


class Condition(Section):
    """The routing rule of a conditional edge (§5.3)."""

    family: ClassVar[str] = "condition"
    directive_attrs: ClassVar[dict[str, str]] = {
        "if_field": "if_field", "field": "field", "equals": "equals", "then": "then",
        "else": "else_", "callable": "callable", "message": "message",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "if_field", "field", "equals", "then", "else_", "callable", "message",
    )

    if_field: Scalar | None = None
    """``if_field`` (graph-engine §5.3, since 0.48.0): The field to compare."""

    field: Scalar | None = None
    """``field`` (graph-engine §5.3): The field a routing callable reads."""

    equals: Scalar | None = None
    """``equals`` (graph-engine §5.3, since 0.48.0): The comparison value."""

    then: Scalar | None = None
    """``then`` (graph-engine §5.3, since 0.48.0): Destination when equal."""

    else_: Scalar | None = None
    """``else`` (graph-engine §5.3, since 0.48.0): Destination otherwise."""

    callable: Scalar | None = None
    """``callable`` (graph-engine §5.3): A harness routing function (e.g. `edge_raises`,
    `state_field_read`), resolved when the graph is built.
    """

    message: Scalar | None = None
    """``message`` (graph-engine §5.3): The message a raising routing function raises."""


class InvokeDecl(Section):
    """Per-invoke directives of the single-invocation form; `invoke:` or `invoke_with:` (§5.7)."""

    family: ClassVar[str] = "invoke"
    directive_attrs: ClassVar[dict[str, str]] = {
        "drain": "drain", "resume_invocation": "resume_invocation",
        "signal_payload": "signal_payload",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "drain",
    ))
    _fields = (
        "order", "drain", "resume_invocation", "signal_payload",
    )

    drain: DrainDecl | None = None
    """``drain`` (graph-engine §5.7, since 0.48.0): Call the process-wide `drain()` after invoke."""

    resume_invocation: Scalar | Placeholder | None = None
    """``resume_invocation`` (graph-engine §5.7, since 0.48.0): Resume a saved invocation: an id or
    a `<placeholder>` naming a prior outcome.
    """

    signal_payload: Mapping | None = None
    """``signal_payload`` (suspension §5.7, since 0.48.0): With `resume_invocation`: resume a
    suspended invocation, merging this payload into state (suspension §7).
    """


class DrainDecl(Section):
    """A process-wide drain after the invocation (graph-engine §6, §6.6)."""

    family: ClassVar[str] = "drain"
    directive_attrs: ClassVar[dict[str, str]] = {
        "timeout_seconds": "timeout_seconds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "timeout_seconds",
    )

    timeout_seconds: Scalar | None = None
    """``timeout_seconds`` (graph-engine §6.6, since 0.48.0): Drain timeout; null or absent waits
    for all.
    """


class ObserverDecl(Section):
    """An in-memory observer registration (§5.5, §6.1)."""

    family: ClassVar[str] = "observer"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "attach": "attach", "target": "target", "behavior": "behavior",
        "sleep_ms_per_event": "sleep_ms_per_event", "phases": "phases",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "sleep_ms_per_event",
    ))
    _fields = (
        "order", "name", "attach", "target", "behavior", "sleep_ms_per_event", "phases",
    )

    name: Scalar | None = None
    """``name`` (graph-engine §5.5, since 0.48.0): The observer's name, referenced by assertions."""

    attach: Scalar | None = None
    """``attach`` (graph-engine §5.5, since 0.48.0): Graph-level or per-invocation."""

    target: Scalar | None = None
    """``target`` (graph-engine §5.5, since 0.48.0): `outer`, `inner` or a subgraph / node name."""

    behavior: Scalar | None = None
    """``behavior`` (graph-engine §5.5, since 0.48.0): What the observer does per event.

    ``behavior`` (suspension §3.2 header, this directory only): What the observer does per event;
    `otel` attaches the OTel observer with the in-memory span exporter.
    """

    sleep_ms_per_event: Scalar | Pacing | None = None
    """``sleep_ms_per_event`` (graph-engine §5.5, since 0.48.0): Pace the observer (drain fixtures).
    """

    phases: Sequence | None = None
    """``phases`` (graph-engine §5.5): Phase subscription filter (default started, completed)."""


class Pacing(Section):
    """Per-invocation observer pacing for `sleep_ms_per_event` (§5.5)."""

    family: ClassVar[str] = "pacing"
    directive_attrs: ClassVar[dict[str, str]] = {
        "first_invocation": "first_invocation", "subsequent_invocations": "subsequent_invocations",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "first_invocation", "subsequent_invocations",
    )

    first_invocation: Scalar | None = None
    """``first_invocation`` (graph-engine §5.5): Milliseconds per event on the first invocation."""

    subsequent_invocations: Scalar | None = None
    """``subsequent_invocations`` (graph-engine §5.5): Milliseconds per event on later invocations.
    """


class Expected(Section):
    """The expected-outcome block (§5.8)."""

    family: ClassVar[str] = "expected"
    directive_attrs: ClassVar[dict[str, str]] = {
        "expected_error": "expected_error", "invariants": "invariants",
        "final_state": "final_state", "execution_order": "execution_order", "outcome": "outcome",
        "error": "error", "final_state_at_error": "final_state_at_error",
        "drain_summary": "drain_summary", "observer_events": "observer_events",
        "observer_event_invariants": "observer_event_invariants",
        "node_drain_summaries": "node_drain_summaries",
        "node_accumulator_snapshots": "node_accumulator_snapshots",
        "node_accumulator_snapshot_invariants": "node_accumulator_snapshot_invariants",
        "final_accumulator_state": "final_accumulator_state",
        "recoverable_state": "recoverable_state",
        "empty_phases_raises_at_registration": "empty_phases_raises_at_registration",
        "delivery_order": "delivery_order", "no_propagated_error": "no_propagated_error",
        "successful_attempt_index_during_resume": "successful_attempt_index_during_resume",
        "instances_executed_during_resume": "instances_executed_during_resume",
        "instances_skipped_during_resume": "instances_skipped_during_resume",
        "nodes_executed_during_resume": "nodes_executed_during_resume",
        "nodes_skipped_during_resume": "nodes_skipped_during_resume",
        "migrations_run": "migrations_run", "latest_record_assertions": "latest_record_assertions",
        "checkpoint_saves": "checkpoint_saves", "trace_records": "trace_records",
        "timing_records": "timing_records", "expected_attempt_events": "expected_attempt_events",
        "expected_failure_isolation_event": "expected_failure_isolation_event",
        "no_failure_isolation_event": "no_failure_isolation_event",
        "expected_observer_event": "expected_observer_event",
        "concurrency_invariant": "concurrency_invariant",
        "first_trace_unchanged": "first_trace_unchanged", "span_tree": "span_tree",
        "otel_spans": "otel_spans", "log_records": "log_records",
        "no_openarmature_spans_on_global": "no_openarmature_spans_on_global", "metrics": "metrics",
        "span_tree_private": "span_tree_private", "span_tree_global": "span_tree_global",
        "parent_trace": "parent_trace", "determinism_check": "determinism_check",
        "traces": "traces", "no_edge_spans": "no_edge_spans",
        "no_llm_provider_span": "no_llm_provider_span", "no_spans_emitted": "no_spans_emitted",
        "llm_span_attributes": "llm_span_attributes",
        "llm_span_attributes_absent": "llm_span_attributes_absent",
        "invocation_count": "invocation_count", "invocation_id": "invocation_id",
        "langfuse_trace": "langfuse_trace", "langfuse_traces": "langfuse_traces",
        "no_langfuse_observations_on_global": "no_langfuse_observations_on_global",
        "no_langfuse_observations_on_private": "no_langfuse_observations_on_private",
        "langfuse_observations_on_global": "langfuse_observations_on_global",
        "no_payload_bearing_langfuse_observations_on_global": "no_payload_bearing_langfuse_observations_on_global",
        "payload_bearing_langfuse_observations_on_global": "payload_bearing_langfuse_observations_on_global",
        "no_langfuse_observations_emitted": "no_langfuse_observations_emitted",
        "detached_trace_count": "detached_trace_count",
        "invoke_rejects_at_api_boundary": "invoke_rejects_at_api_boundary",
        "augment_rejects_at_call_site": "augment_rejects_at_call_site",
        "direct_call_result": "direct_call_result", "final_state_bounds": "final_state_bounds",
        "per_invocation": "per_invocation",
        "node_completed_event_carries_error": "node_completed_event_carries_error",
        "response": "response", "raises": "raises", "success": "success",
        "no_token_events_emitted": "no_token_events_emitted", "response_usage": "response_usage",
        "wire_requests": "wire_requests", "llm_spans": "llm_spans",
        "caller_messages_unmodified": "caller_messages_unmodified",
        "provider_call_count": "provider_call_count",
        "reask_builder_after_attempts": "reask_builder_after_attempts", "observers": "observers",
        "loaded_session_state": "loaded_session_state",
        "saved_session_assertions": "saved_session_assertions",
        "no_session_load": "no_session_load", "no_session_save": "no_session_save",
        "no_auto_save_on_end": "no_auto_save_on_end", "store_untouched": "store_untouched",
        "store_after": "store_after", "inner_pre_state": "inner_pre_state",
        "instance_pre_states": "instance_pre_states", "suspended_state": "suspended_state",
        "descriptor": "descriptor", "suspending_node": "suspending_node",
        "middleware_log_captured": "middleware_log_captured",
        "checkpointer_assertions": "checkpointer_assertions",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "expected_error", "error", "latest_record_assertions", "metrics", "parent_trace", "traces",
        "final_state_bounds", "raises", "wire_requests", "observers", "saved_session_assertions",
        "store_after", "descriptor", "checkpointer_assertions",
    ))
    _fields = (
        "order", "expected_error", "invariants", "final_state", "execution_order", "outcome",
        "error", "final_state_at_error", "drain_summary", "observer_events",
        "observer_event_invariants", "node_drain_summaries", "node_accumulator_snapshots",
        "node_accumulator_snapshot_invariants", "final_accumulator_state", "recoverable_state",
        "empty_phases_raises_at_registration", "delivery_order", "no_propagated_error",
        "successful_attempt_index_during_resume", "instances_executed_during_resume",
        "instances_skipped_during_resume", "nodes_executed_during_resume",
        "nodes_skipped_during_resume", "migrations_run", "latest_record_assertions",
        "checkpoint_saves", "trace_records", "timing_records", "expected_attempt_events",
        "expected_failure_isolation_event", "no_failure_isolation_event", "expected_observer_event",
        "concurrency_invariant", "first_trace_unchanged", "span_tree", "otel_spans", "log_records",
        "no_openarmature_spans_on_global", "metrics", "span_tree_private", "span_tree_global",
        "parent_trace", "determinism_check", "traces", "no_edge_spans", "no_llm_provider_span",
        "no_spans_emitted", "llm_span_attributes", "llm_span_attributes_absent", "invocation_count",
        "invocation_id", "langfuse_trace", "langfuse_traces", "no_langfuse_observations_on_global",
        "no_langfuse_observations_on_private", "langfuse_observations_on_global",
        "no_payload_bearing_langfuse_observations_on_global",
        "payload_bearing_langfuse_observations_on_global", "no_langfuse_observations_emitted",
        "detached_trace_count", "invoke_rejects_at_api_boundary", "augment_rejects_at_call_site",
        "direct_call_result", "final_state_bounds", "per_invocation",
        "node_completed_event_carries_error", "response", "raises", "success",
        "no_token_events_emitted", "response_usage", "wire_requests", "llm_spans",
        "caller_messages_unmodified", "provider_call_count", "reask_builder_after_attempts",
        "observers", "loaded_session_state", "saved_session_assertions", "no_session_load",
        "no_session_save", "no_auto_save_on_end", "store_untouched", "store_after",
        "inner_pre_state", "instance_pre_states", "suspended_state", "descriptor",
        "suspending_node", "middleware_log_captured", "checkpointer_assertions",
    )

    expected_error: ErrorExpectation | None = None
    """``expected_error`` (conformance-adapter §5.8, since 0.48.0): The invocation fails with this
    error category, raised from this node.
    """

    invariants: PredicateBlock | None = None
    """``invariants`` (conformance-adapter §5.9, since 0.48.0): Named invariant predicates."""

    final_state: Mapping | None = None
    """``final_state`` (conformance-adapter §5.8, since 0.48.0): The final state, field by field."""

    execution_order: Sequence | None = None
    """``execution_order`` (conformance-adapter §5.8, since 0.48.0): The nodes that ran, in order.
    """

    outcome: Scalar | None = None
    """``outcome`` (conformance-adapter §5.8, since 0.48.0): The invoke outcome."""

    error: ErrorExpectation | None = None
    """``error`` (conformance-adapter §5.8, since 0.48.0): With `outcome: errored`, the error."""

    final_state_at_error: Mapping | None = None
    """``final_state_at_error`` (conformance-adapter §5.8, since 0.48.0): The state when the error
    surfaced.
    """

    drain_summary: Mapping | None = None
    """``drain_summary`` (graph-engine §5.8, since 0.48.0): The process-wide drain's summary
    (`timeout_reached`, `undelivered_count` / `undelivered_count_min`).
    """

    observer_events: Mapping | Sequence | None = None
    """``observer_events`` (graph-engine §5.8, since 0.48.0): The exact ordered events each observer
    received.
    """

    observer_event_invariants: PredicateBlock | None = None
    """``observer_event_invariants`` (graph-engine §5.9, since 0.48.0): Invariant predicates over
    recorded events.
    """

    node_drain_summaries: Mapping | None = None
    """``node_drain_summaries`` (graph-engine §5.8, since 0.48.0): Each node's
    `invoke_drain_events_for` summary.
    """

    node_accumulator_snapshots: Mapping | None = None
    """``node_accumulator_snapshots`` (graph-engine §5.8, since 0.48.0): Accumulator snapshots taken
    at each node's drain.
    """

    node_accumulator_snapshot_invariants: Mapping | None = None
    """``node_accumulator_snapshot_invariants`` (graph-engine §5.9, since 0.48.0): Invariant
    predicates over those snapshots.
    """

    final_accumulator_state: Mapping | None = None
    """``final_accumulator_state`` (graph-engine §5.8, since 0.48.0): Each accumulator's content
    after the invocation.
    """

    recoverable_state: Mapping | None = None
    """``recoverable_state`` (graph-engine §5.8): The last consistent state carried on the error."""

    empty_phases_raises_at_registration: Scalar | None = None
    """``empty_phases_raises_at_registration`` (graph-engine §6): Registering an observer with an
    empty phases set raises (a configuration error).
    """

    delivery_order: Sequence | None = None
    """``delivery_order`` (graph-engine §6): The order events reached observers."""

    no_propagated_error: Scalar | None = None
    """``no_propagated_error`` (graph-engine §6): The invocation raised nothing."""

    successful_attempt_index_during_resume: Scalar | None = None
    """``successful_attempt_index_during_resume`` (pipeline-utilities §10): The attempt_index of the
    resumed run's successful attempt (a fresh retry budget starts at 0).
    """

    instances_executed_during_resume: Sequence | None = None
    """``instances_executed_during_resume`` (pipeline-utilities §5.8): Fan-out instances re-run on
    resume.
    """

    instances_skipped_during_resume: Sequence | None = None
    """``instances_skipped_during_resume`` (pipeline-utilities §5.8): Fan-out instances rolled
    forward.
    """

    nodes_executed_during_resume: Sequence | None = None
    """``nodes_executed_during_resume`` (pipeline-utilities §10.4): Nodes re-run on resume."""

    nodes_skipped_during_resume: Sequence | None = None
    """``nodes_skipped_during_resume`` (pipeline-utilities §10.4): Nodes skipped on resume."""

    migrations_run: Sequence | None = None
    """``migrations_run`` (pipeline-utilities §10.10): Migrations applied on load."""

    latest_record_assertions: RecordAssertions | None = None
    """``latest_record_assertions`` (pipeline-utilities §5.8): Assertions on the latest saved
    record.
    """

    checkpoint_saves: Sequence | None = None
    """``checkpoint_saves`` (pipeline-utilities §10): The saves, in order."""

    trace_records: Mapping | None = None
    """``trace_records`` (pipeline-utilities §6): What each tracing middleware recorded (state_in,
    partial_update_returned).
    """

    timing_records: Sequence | None = None
    """``timing_records`` (pipeline-utilities §6.2): Records captured by timing on_complete."""

    expected_attempt_events: Sequence | None = None
    """``expected_attempt_events`` (pipeline-utilities §6.1): The per-attempt observer events."""

    expected_failure_isolation_event: Mapping | None = None
    """``expected_failure_isolation_event`` (pipeline-utilities §6.3): The failure-isolation event,
    with its `caught_exception` chain (§5.8).
    """

    no_failure_isolation_event: Scalar | None = None
    """``no_failure_isolation_event`` (pipeline-utilities §6.3): No failure-isolation event fired.
    """

    expected_observer_event: Mapping | None = None
    """``expected_observer_event`` (pipeline-utilities §6): One observer event that must be present.
    """

    concurrency_invariant: Mapping | None = None
    """``concurrency_invariant`` (pipeline-utilities §9): Bounds on concurrent instances
    (`max_in_flight`, `reached`).
    """

    first_trace_unchanged: Scalar | None = None
    """``first_trace_unchanged`` (observability §3.2 header, since 0.35.0, this directory only): The
    first run's Langfuse Trace is still as the first run left it after the resume.
    """

    span_tree: Sequence | None = None
    """``span_tree`` (observability §3.2 header, since 0.7.0): The exported spans as a tree: `name`,
    `status`, `attributes` (subset), `children`, and matcher keys (`attributes_absent`,
    `exception_recorded`, `attribute_parses_as_*` …).
    """

    otel_spans: Mapping | None = None
    """``otel_spans`` (observability §5.8, since 0.48.0): Per OTel observer, the root span's tree
    (`name`, `status`, `attributes`, `children`).
    """

    log_records: Sequence | None = None
    """``log_records`` (observability §3.2 header, since 0.7.0): The exported log records: `body`,
    `attributes` (subset), `attributes_absent`.
    """

    no_openarmature_spans_on_global: Scalar | None = None
    """``no_openarmature_spans_on_global`` (observability §5.5, since 0.7.0): No openarmature span
    reached the global TracerProvider's exporter.
    """

    metrics: Sequence | None = None
    """``metrics`` (observability §5.8, since 0.64.0): The recorded metric observations,
    exhaustively (`[]`: none).
    """

    span_tree_private: Sequence | None = None
    """``span_tree_private`` (observability §3.2 header, since 0.7.0): The spans on openarmature's
    private exporter.
    """

    span_tree_global: Sequence | None = None
    """``span_tree_global`` (observability §3.2 header, since 0.7.0): The spans on the global
    TracerProvider's exporter.
    """

    parent_trace: OtelTraceExpectation | None = None
    """``parent_trace`` (observability §3.2 header, since 0.7.0, this directory only): The trace the
    invocation started in (detached mode): its span tree.
    """

    determinism_check: Mapping | None = None
    """``determinism_check`` (observability §3.2 header, since 0.7.0, this directory only): Compare
    the span trees of two runs (`compare_runs`, `ignore_attributes`, `compare`, `require_equal`).
    """

    traces: Sequence | None = None
    """``traces`` (observability §3.2 header, since 0.44.0, this directory only): Several OTel
    traces (detached mode), each with its tree.
    """

    no_edge_spans: Scalar | None = None
    """``no_edge_spans`` (observability §3.2 header, since 0.7.0, this directory only): No span was
    emitted for an edge.
    """

    no_llm_provider_span: Scalar | None = None
    """``no_llm_provider_span`` (observability §3.2 header, since 0.7.0, this directory only): No
    LLM provider span was emitted.
    """

    no_spans_emitted: Scalar | None = None
    """``no_spans_emitted`` (observability §3.2 header, since 0.25.0, this directory only): No span
    was emitted at all.
    """

    llm_span_attributes: Mapping | None = None
    """``llm_span_attributes`` (observability §3.2 header, since 0.39.0, this directory only):
    Attributes the LLM provider span carries (subset).
    """

    llm_span_attributes_absent: Sequence | None = None
    """``llm_span_attributes_absent`` (observability §3.2 header, since 0.39.0, this directory
    only): Attributes the LLM provider span does not carry.
    """

    invocation_count: Scalar | None = None
    """``invocation_count`` (observability §3.2 header, since 0.7.0, this directory only): How many
    invocations ran (`invocations: <n>`).
    """

    invocation_id: Scalar | BindingToken | FormatToken | None = None
    """``invocation_id`` (observability §3.2 header, since 0.25.0, this directory only): The
    invocation span's `openarmature.invocation_id`.
    """

    langfuse_trace: Mapping | None = None
    """``langfuse_trace`` (observability §5.8, since 0.23.0): The recorded Langfuse Trace: `id`,
    `name`, `metadata` (subset), `metadata_absent`, `observations` tree (`type`, `name`, `metadata`,
    `metadata_absent`, `level`, Generation fields, `children`).
    """

    langfuse_traces: Sequence | None = None
    """``langfuse_traces`` (observability §5.8, since 0.23.0): Several recorded Langfuse Traces
    (detached mode).
    """

    no_langfuse_observations_on_global: Scalar | None = None
    """``no_langfuse_observations_on_global`` (observability §5.5, since 0.109.0): No
    `langfuse.observation.*` span reached the global TracerProvider's exporter.
    """

    no_langfuse_observations_on_private: Scalar | None = None
    """``no_langfuse_observations_on_private`` (observability §5.5, since 0.109.0): No
    `langfuse.observation.*` span reached openarmature's private OTel exporter.
    """

    langfuse_observations_on_global: Scalar | None = None
    """``langfuse_observations_on_global`` (observability §5.5, since 0.109.0): At least one
    `langfuse.observation.*` span reached the global exporter.
    """

    no_payload_bearing_langfuse_observations_on_global: Scalar | None = None
    """``no_payload_bearing_langfuse_observations_on_global`` (observability §5.5, since 0.110.0):
    No payload-bearing Langfuse observation (provider payload, non-stub Trace state, error_message)
    reached the global exporter (§6.4).
    """

    payload_bearing_langfuse_observations_on_global: Scalar | None = None
    """``payload_bearing_langfuse_observations_on_global`` (observability §5.5, since 0.110.0): At
    least one payload-bearing Langfuse observation reached the global exporter (§6.4).
    """

    no_langfuse_observations_emitted: Scalar | None = None
    """``no_langfuse_observations_emitted`` (observability §3.2 header, since 0.25.0, this directory
    only): No Langfuse observation was recorded.
    """

    detached_trace_count: Scalar | None = None
    """``detached_trace_count`` (observability §3.2 header, since 0.23.0, this directory only): How
    many detached Langfuse Traces were minted.
    """

    invoke_rejects_at_api_boundary: Scalar | None = None
    """``invoke_rejects_at_api_boundary`` (observability §3.2 header, since 0.25.0, this directory
    only): invoke() raised before any work (reserved metadata key).
    """

    augment_rejects_at_call_site: Scalar | None = None
    """``augment_rejects_at_call_site`` (observability §3.2 header, since 0.25.0, this directory
    only): `set_invocation_metadata` raised at the call site (reserved name).
    """

    direct_call_result: Mapping | None = None
    """``direct_call_result`` (observability §3.2 header, since 0.40.0): The `direct_call`'s result:
    `value`, `type`, `exception`.
    """

    final_state_bounds: Mapping | None = None
    """``final_state_bounds`` (observability §3.2 header, since 0.40.0, this directory only):
    Inclusive bounds on final-state fields whose exact value is nondeterministic.
    """

    per_invocation: Mapping | None = None
    """``per_invocation`` (observability §3.2 header, since 0.40.0): Named checks per
    `sequential_invocations` entry.
    """

    node_completed_event_carries_error: Mapping | None = None
    """``node_completed_event_carries_error`` (observability §3.2 header, since 0.51.0, this
    directory only): The node's completed event carries the error (`node_name`, `error_category`).
    """

    response: Mapping | None = None
    """``response`` (llm-provider §5.12): The returned Response (subset of message / finish_reason /
    usage / parsed; `raw_check.required_keys`).
    """

    raises: ErrorExpectation | None = None
    """``raises`` (llm-provider §5.12): The call raised this llm-provider §7 error (`category`,
    `message`, `carries`).
    """

    success: Scalar | None = None
    """``success`` (llm-provider §3.2 header): `ready()` returned without raising."""

    no_token_events_emitted: Scalar | None = None
    """``no_token_events_emitted`` (llm-provider §3.2 header): No LlmTokenEvent was emitted
    (rejected stream).
    """

    response_usage: Mapping | None = None
    """``response_usage`` (observability §3.2 header): The LLM Response's usage record."""

    wire_requests: Sequence | None = None
    """``wire_requests`` (llm-provider §5.11, since 0.91.0): One entry per retry-loop attempt,
    asserting that attempt's outbound request.
    """

    llm_spans: Sequence | None = None
    """``llm_spans`` (llm-provider §5.11, since 0.91.0, this directory only): The per-attempt LLM
    spans (`attempt_index`, `attributes`, `attributes_absent`, `error_category`, `status`).
    """

    caller_messages_unmodified: Scalar | None = None
    """``caller_messages_unmodified`` (llm-provider §3.2 header, this directory only): The caller's
    message list was not mutated.
    """

    provider_call_count: Scalar | None = None
    """``provider_call_count`` (llm-provider §3.2 header, this directory only): How many requests
    reached the provider.
    """

    reask_builder_after_attempts: Sequence | None = None
    """``reask_builder_after_attempts`` (llm-provider §3.2 header, this directory only): The
    attempts (0-based, ascending) after whose failure the call-level reask builder was invoked.
    """

    observers: Mapping | None = None
    """``observers`` (graph-engine §5.5, since 0.102.0): Assertions on each typed-event collector's
    storage.
    """

    loaded_session_state: Scalar | Mapping | None = None
    """``loaded_session_state`` (sessions §5.6, since 0.48.0): The session state loaded at invoke
    entry (null: no record existed).
    """

    saved_session_assertions: SessionRecordAssertions | None = None
    """``saved_session_assertions`` (sessions §5.6, since 0.48.0): The session record written to the
    store at invoke exit (or at suspend).
    """

    no_session_load: Scalar | None = None
    """``no_session_load`` (sessions §3.2 header, since 0.33.0, this directory only): The engine
    never called the store's `load()`.
    """

    no_session_save: Scalar | None = None
    """``no_session_save`` (sessions §3.2 header, since 0.33.0, this directory only): The engine
    never called the store's `save()`.
    """

    no_auto_save_on_end: Scalar | None = None
    """``no_auto_save_on_end`` (sessions §3.2 header, since 0.33.0, this directory only): The
    auto-save at END did not run (the invocation did not reach END).
    """

    store_untouched: Scalar | None = None
    """``store_untouched`` (sessions §3.2 header, since 0.33.0, this directory only): The store
    received no calls at all.
    """

    store_after: SessionStoreAfter | None = None
    """``store_after`` (sessions §3.2 header, since 0.33.0, this directory only): Load from the
    store after the run and assert the result.
    """

    inner_pre_state: Mapping | None = None
    """``inner_pre_state`` (sessions §3.2 header, since 0.33.0, this directory only): The state the
    subgraph's node saw on entry (sessions §9.1).
    """

    instance_pre_states: Sequence | None = None
    """``instance_pre_states`` (sessions §3.2 header, since 0.33.0, this directory only): The state
    each fan-out instance saw on entry, in item order (sessions §9.2).
    """

    suspended_state: Mapping | None = None
    """``suspended_state`` (suspension §5.8, since 0.48.0): With `outcome: suspended`: the state at
    the suspension point.
    """

    descriptor: DescriptorExpectation | None = None
    """``descriptor`` (suspension §5.8, since 0.48.0): With `outcome: suspended`: the signal
    descriptor on the suspended outcome.
    """

    suspending_node: Scalar | None = None
    """``suspending_node`` (suspension §5.8, since 0.48.0): With `outcome: suspended`: the
    (outer-graph) node the outcome names as suspending.
    """

    middleware_log_captured: Sequence | None = None
    """``middleware_log_captured`` (suspension §3.2 header, this directory only): The markers the
    wrapping test middleware logged, in order (a suspended node skips its post-next() marker).
    """

    checkpointer_assertions: CheckpointerAssertions | None = None
    """``checkpointer_assertions`` (suspension §5.6, since 0.48.0): The checkpointer backend's state
    when the invocation returned.
    """


class ErrorExpectation(Section):
    """An expected raised error: category, origin and the fields it carries (§5.8, §5.13)."""

    family: ClassVar[str] = "error_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "category": "category", "raised_from": "raised_from", "raised_at": "raised_at",
        "message": "message", "carries": "carries", "cause": "cause", "names": "names",
        "exception_kind": "exception_kind", "cause_message": "cause_message",
        "branch_name": "branch_name", "execution_order": "execution_order",
        "recoverable_state": "recoverable_state", "fan_out_category": "fan_out_category",
        "flaky_call_count": "flaky_call_count", "transient": "transient",
        "retry_after_seconds": "retry_after_seconds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "category", "raised_from", "raised_at", "message", "carries", "cause", "names",
        "exception_kind", "cause_message", "branch_name", "execution_order", "recoverable_state",
        "fan_out_category", "flaky_call_count", "transient", "retry_after_seconds",
    )

    category: Scalar | None = None
    """``category`` (conformance-adapter §5.8, since 0.48.0): The error category."""

    raised_from: Scalar | None = None
    """``raised_from`` (conformance-adapter §5.8, since 0.48.0): The node the error surfaced from.
    """

    raised_at: Scalar | None = None
    """``raised_at`` (conformance-adapter §5.8): The operation the error surfaced at."""

    message: Scalar | BindingToken | FormatToken | None = None
    """``message`` (conformance-adapter §5.8): The error message."""

    carries: Mapping | None = None
    """``carries`` (conformance-adapter §5.13, since 0.97.0): Fields the raised error exposes (bare
    = equal, `_present`, `_mentions`).
    """

    cause: Mapping | None = None
    """``cause`` (conformance-adapter §5.13): The error's cause (e.g. `exception_type`)."""

    names: Sequence | None = None
    """``names`` (conformance-adapter §5.13): Values the raised error names: its own message or a
    field it exposes mentions each as a whole word.
    """

    exception_kind: Scalar | None = None
    """``exception_kind`` (conformance-adapter §5.8): The host-language type of what the invocation
    raised (`CancelledError`: the language's cancellation signal).
    """

    cause_message: Scalar | BindingToken | FormatToken | None = None
    """``cause_message`` (pipeline-utilities §5.8): The message of the error's cause."""

    branch_name: Scalar | None = None
    """``branch_name`` (pipeline-utilities §5.8): The parallel branch the error came from."""

    execution_order: Sequence | None = None
    """``execution_order`` (graph-engine §5.8): The nodes that ran before the error."""

    recoverable_state: Mapping | None = None
    """``recoverable_state`` (graph-engine §5.8): The last consistent state carried on the error."""

    fan_out_category: Scalar | None = None
    """``fan_out_category`` (pipeline-utilities §9): The category the fan-out wrapper reports."""

    flaky_call_count: Scalar | None = None
    """``flaky_call_count`` (pipeline-utilities §6.1): How many times the failing node was
    attempted.
    """

    transient: Scalar | None = None
    """``transient`` (pipeline-utilities §6.1): Whether the runtime's default retry classifier
    treats the error as transient.
    """

    retry_after_seconds: Scalar | None = None
    """``retry_after_seconds`` (llm-provider §3.2 header, this directory only): The error's
    `retry_after` (llm-provider §7), when the implementation exposes it.
    """


class NodeRaise(Section):
    """A structured `raises:` — the error a node raises, with its category."""

    family: ClassVar[str] = "node_raise"
    directive_attrs: ClassVar[dict[str, str]] = {
        "category": "category", "message": "message", "exception_kind": "exception_kind",
        "cause": "cause",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "category", "message", "exception_kind", "cause",
    )

    category: Scalar | None = None
    """``category`` (graph-engine §5.1): The category of the raised error."""

    message: Scalar | None = None
    """``message`` (graph-engine §5.1): The message of the raised error."""

    exception_kind: Scalar | None = None
    """``exception_kind`` (graph-engine §5.1): The host-language exception type raised (a built-in
    such as ValueError): a bare error with no category. `CancelledError` names the language's
    cancellation signal (Python's asyncio.CancelledError).
    """

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """


class CancellationCleanup(Section):
    """`on_cancelled`: what a node body does when it is cancelled (an extension)."""

    family: ClassVar[str] = "cancellation_cleanup"
    directive_attrs: ClassVar[dict[str, str]] = {
        "cleanup_ms": "cleanup_ms",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "cleanup_ms",
    )

    cleanup_ms: Scalar | None = None
    """``cleanup_ms`` (pipeline-utilities §5.1): How long the awaited cleanup takes."""


class DrainEventsFor(Section):
    """`invoke_drain_events_for`: a per-invocation drain inside a node (graph-engine §6)."""

    family: ClassVar[str] = "drain_for"
    directive_attrs: ClassVar[dict[str, str]] = {
        "timeout_seconds": "timeout_seconds", "snapshot_observer": "snapshot_observer",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "timeout_seconds", "snapshot_observer",
    )

    timeout_seconds: Scalar | None = None
    """``timeout_seconds`` (graph-engine §6.6, since 0.48.0): The drain timeout."""

    snapshot_observer: Scalar | None = None
    """``snapshot_observer`` (graph-engine §6.6, since 0.48.0): The accumulate observer to snapshot.
    """


class DrainInNode(Section):
    """`invoke_drain`: the process-wide drain called inside a node (an extension; graph-engine §6)."""

    family: ClassVar[str] = "drain_in_node"
    directive_attrs: ClassVar[dict[str, str]] = {
        "timeout_seconds": "timeout_seconds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "timeout_seconds",
    )

    timeout_seconds: Scalar | None = None
    """``timeout_seconds`` (graph-engine §6): The drain timeout (negative or `NaN` allowed: the
    runtime must reject it).
    """


class Projection(Section):
    """An explicit subgraph boundary mapping: `inputs` / `outputs` (graph-engine §2)."""

    family: ClassVar[str] = "projection"
    directive_attrs: ClassVar[dict[str, str]] = {
        "inputs": "inputs", "outputs": "outputs",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "inputs", "outputs",
    )

    inputs: Mapping | None = None
    """``inputs`` (graph-engine §5.4): Explicit mapping parent field → subgraph field."""

    outputs: Mapping | None = None
    """``outputs`` (graph-engine §5.4): Explicit mapping subgraph field → parent field."""


class FanOut(Section):
    """A fan-out node: one subgraph instance per item or per count (§9)."""

    family: ClassVar[str] = "fan_out"
    directive_attrs: ClassVar[dict[str, str]] = {
        "subgraph": "subgraph", "items_field": "items_field", "count": "count",
        "item_field": "item_field", "collect_field": "collect_field",
        "target_field": "target_field", "error_policy": "error_policy",
        "errors_field": "errors_field", "concurrency": "concurrency",
        "concurrent_mode": "concurrent_mode", "on_empty": "on_empty", "count_field": "count_field",
        "extra_outputs": "extra_outputs", "inputs": "inputs", "mapping": "mapping",
        "instance_middleware": "instance_middleware",
        "abort_after_instance": "abort_after_instance",
        "augment_metadata_from_field": "augment_metadata_from_field",
        "inner_subgraph": "inner_subgraph",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "count", "concurrency", "mapping", "instance_middleware",
    ))
    _fields = (
        "order", "subgraph", "items_field", "count", "item_field", "collect_field", "target_field",
        "error_policy", "errors_field", "concurrency", "concurrent_mode", "on_empty", "count_field",
        "extra_outputs", "inputs", "mapping", "instance_middleware", "abort_after_instance",
        "augment_metadata_from_field", "inner_subgraph",
    )

    subgraph: Scalar | None = None
    """``subgraph`` (pipeline-utilities §5.4, since 0.48.0): The subgraph each instance / branch
    runs.
    """

    items_field: Scalar | None = None
    """``items_field`` (pipeline-utilities §5.4, since 0.48.0): The outer list field to fan out
    over.
    """

    count: Scalar | FanOutCount | None = None
    """``count`` (pipeline-utilities §5.4, since 0.48.0): Count mode: how many instances."""

    item_field: Scalar | None = None
    """``item_field`` (pipeline-utilities §5.4, since 0.48.0): The instance field that receives the
    item.
    """

    collect_field: Scalar | None = None
    """``collect_field`` (pipeline-utilities §5.4, since 0.48.0): The instance field collected back.
    """

    target_field: Scalar | None = None
    """``target_field`` (pipeline-utilities §5.4, since 0.48.0): The outer field receiving the
    collected results.
    """

    error_policy: Scalar | None = None
    """``error_policy`` (pipeline-utilities §5.4, since 0.48.0): fail_fast or collect."""

    errors_field: Scalar | None = None
    """``errors_field`` (pipeline-utilities §9.5): The outer field receiving collected errors."""

    concurrency: Scalar | FanOutCount | None = None
    """``concurrency`` (pipeline-utilities §5.4, since 0.48.0): The parallelism bound."""

    concurrent_mode: Scalar | None = None
    """``concurrent_mode`` (pipeline-utilities §5.4, since 0.81.0): Force serial or concurrent
    dispatch.
    """

    on_empty: Scalar | None = None
    """``on_empty`` (pipeline-utilities §9): What an empty item list does."""

    count_field: Scalar | None = None
    """``count_field`` (pipeline-utilities §9): The outer field receiving the instance count."""

    extra_outputs: Mapping | None = None
    """``extra_outputs`` (pipeline-utilities §9): More instance fields collected into outer fields.
    """

    inputs: Mapping | None = None
    """``inputs`` (pipeline-utilities §9): Fields projected into each instance / branch."""

    mapping: Projection | None = None
    """``mapping`` (pipeline-utilities §9): Explicit instance mapping (`<fan_out_item>` names the
    item).
    """

    instance_middleware: Sequence | None = None
    """``instance_middleware`` (pipeline-utilities §9): Middleware around each whole instance."""

    abort_after_instance: Scalar | None = None
    """``abort_after_instance`` (pipeline-utilities §10): Harness: abort the process after this
    instance completes.
    """

    augment_metadata_from_field: Mapping | None = None
    """``augment_metadata_from_field`` (observability §5.1, since 0.25.0): `{<key>: <field>}`: set
    `<key>` to the field's value (on a fan-out: each instance, from its item).
    """

    inner_subgraph: Scalar | None = None
    """``inner_subgraph`` (observability §3.2 header, since 0.25.0): The `inner_subgraphs` entry
    each fan-out instance runs (its items project in whole).
    """


class FanOutCount(Section):
    """A computed fan-out count or concurrency: from a field or a harness callable (§9)."""

    family: ClassVar[str] = "fan_out_count"
    directive_attrs: ClassVar[dict[str, str]] = {
        "field": "field", "callable": "callable", "chunk_size": "chunk_size",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "field", "callable", "chunk_size",
    )

    field: Scalar | None = None
    """``field`` (pipeline-utilities §9): The state field to read."""

    callable: Scalar | None = None
    """``callable`` (pipeline-utilities §9): A harness function computing the value."""

    chunk_size: Scalar | None = None
    """``chunk_size`` (pipeline-utilities §9): Items per instance when counting chunks."""


class ParallelBranches(Section):
    """A parallel-branches node (§11)."""

    family: ClassVar[str] = "parallel_branches"
    directive_attrs: ClassVar[dict[str, str]] = {
        "error_policy": "error_policy", "errors_field": "errors_field", "branches": "branches",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "branches",
    ))
    _fields = (
        "order", "error_policy", "errors_field", "branches",
    )

    error_policy: Scalar | None = None
    """``error_policy`` (pipeline-utilities §5.4, since 0.48.0): fail_fast or collect."""

    errors_field: Scalar | None = None
    """``errors_field`` (pipeline-utilities §9.5): The outer field receiving collected errors."""

    branches: Mapping | Sequence | None = None
    """``branches`` (pipeline-utilities §5.4, since 0.48.0): The branches, by name.

    ``branches`` (observability §3.2 header, since 0.40.0, this directory only): The branches, by
    name; or a list of names, each running the same-named `inner_subgraphs` entry.
    """


class Branch(Section):
    """One branch of a parallel-branches node (§11)."""

    family: ClassVar[str] = "branch"
    directive_attrs: ClassVar[dict[str, str]] = {
        "subgraph": "subgraph", "inputs": "inputs", "outputs": "outputs", "name": "name",
        "call": "call", "middleware": "middleware", "when": "when",
        "augment_metadata": "augment_metadata",
        "augment_metadata_from_outer_item": "augment_metadata_from_outer_item",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "call", "middleware", "when",
    ))
    _fields = (
        "order", "subgraph", "inputs", "outputs", "name", "call", "middleware", "when",
        "augment_metadata", "augment_metadata_from_outer_item",
    )

    subgraph: Scalar | None = None
    """``subgraph`` (pipeline-utilities §5.4, since 0.48.0): The subgraph each instance / branch
    runs.
    """

    inputs: Mapping | None = None
    """``inputs`` (pipeline-utilities §9): Fields projected into each instance / branch."""

    outputs: Mapping | None = None
    """``outputs`` (pipeline-utilities §11, since 0.48.0): Outer field ← branch subgraph field."""

    name: Scalar | None = None
    """``name`` (pipeline-utilities §11): The branch name (list form)."""

    call: NodeDecl | None = None
    """``call`` (pipeline-utilities §11): A plain-callable branch: node directives."""

    middleware: Sequence | None = None
    """``middleware`` (pipeline-utilities §11): Middleware around the branch."""

    when: BranchCondition | None = None
    """``when`` (pipeline-utilities §11): Run the branch only when a field is truthy."""

    augment_metadata: Mapping | None = None
    """``augment_metadata`` (observability §5.1, since 0.25.0): Call
    `set_invocation_metadata(**kwargs)` (on a branch: at the top of the branch's body).
    """

    augment_metadata_from_outer_item: Mapping | None = None
    """``augment_metadata_from_outer_item`` (observability §3.2 header, since 0.37.0): `{<key>:
    <field>}`: set `<key>` from the surrounding fan-out instance's item, at the top of the branch's
    body.
    """


class BranchCondition(Section):
    """When a branch runs (§11)."""

    family: ClassVar[str] = "branch_condition"
    directive_attrs: ClassVar[dict[str, str]] = {
        "field": "field",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "field",
    )

    field: Scalar | None = None
    """``field`` (pipeline-utilities §9): The state field to read."""


class MiddlewareConfig(Section):
    """Middleware per graph and per node (§6)."""

    family: ClassVar[str] = "middleware_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "per_graph": "per_graph", "per_node": "per_node",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "per_graph", "per_node",
    ))
    _fields = (
        "order", "per_graph", "per_node",
    )

    per_graph: Sequence | None = None
    """``per_graph`` (pipeline-utilities §6): Middleware around every node of the graph."""

    per_node: Mapping | None = None
    """``per_node`` (pipeline-utilities §6): Middleware by node."""


class MiddlewareDecl(Section):
    """One middleware: a built-in (`retry`, `timing`, `failure_isolation` …) or a harness marker."""

    family: ClassVar[str] = "middleware"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "name": "name", "node_name": "node_name", "pre_marker": "pre_marker",
        "post_marker": "post_marker", "partial_update": "partial_update",
        "max_attempts": "max_attempts", "backoff": "backoff", "classifier": "classifier",
        "retry": "retry", "degraded_update": "degraded_update", "event_name": "event_name",
        "catch": "catch", "predicate": "predicate", "on_caught": "on_caught",
        "on_complete": "on_complete",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "backoff", "classifier", "retry", "predicate", "on_caught", "on_complete",
    ))
    _fields = (
        "order", "type", "name", "node_name", "pre_marker", "post_marker", "partial_update",
        "max_attempts", "backoff", "classifier", "retry", "degraded_update", "event_name", "catch",
        "predicate", "on_caught", "on_complete",
    )

    type: Scalar | None = None
    """``type`` (pipeline-utilities §6): The middleware kind (retry, timing, failure_isolation,
    marker, …).
    """

    name: Scalar | None = None
    """``name`` (pipeline-utilities §6): A label for the middleware."""

    node_name: Scalar | None = None
    """``node_name`` (pipeline-utilities §6): The node the middleware applies to."""

    pre_marker: Scalar | None = None
    """``pre_marker`` (pipeline-utilities §6): Marker logged before next()."""

    post_marker: Scalar | None = None
    """``post_marker`` (pipeline-utilities §6): Marker logged after next()."""

    partial_update: Mapping | None = None
    """``partial_update`` (pipeline-utilities §6): The update an error-recovery middleware returns.
    """

    max_attempts: Scalar | None = None
    """``max_attempts`` (pipeline-utilities §6.1): Retry: total attempts."""

    backoff: Backoff | None = None
    """``backoff`` (pipeline-utilities §6.1): Retry: backoff."""

    classifier: Scalar | Classifier | None = None
    """``classifier`` (pipeline-utilities §6.1): Retry: which errors are transient."""

    retry: MiddlewareDecl | None = None
    """``retry`` (pipeline-utilities §6): A retry nested in a composite middleware."""

    degraded_update: Mapping | None = None
    """``degraded_update`` (pipeline-utilities §6.3): Failure isolation: the update on a caught
    failure.
    """

    event_name: Scalar | None = None
    """``event_name`` (pipeline-utilities §6.3): Failure isolation: the event name."""

    catch: Sequence | None = None
    """``catch`` (pipeline-utilities §6.3): Failure isolation: the categories caught."""

    predicate: CatchPredicate | None = None
    """``predicate`` (pipeline-utilities §6.3): Failure isolation: a catch predicate."""

    on_caught: OnCaught | None = None
    """``on_caught`` (pipeline-utilities §6.3): Failure isolation: the on_caught callback."""

    on_complete: OnComplete | None = None
    """``on_complete`` (pipeline-utilities §6.2): Timing: the on_complete callback."""


class Backoff(Section):
    """A retry backoff (§6.1)."""

    family: ClassVar[str] = "backoff"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "seconds": "seconds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "type", "seconds",
    )

    type: Scalar | None = None
    """``type`` (pipeline-utilities §6.1): The kind: `deterministic`, or `default` (the runtime's
    own).
    """

    seconds: Scalar | None = None
    """``seconds`` (pipeline-utilities §6.1): Seconds between attempts."""


class Classifier(Section):
    """A retry classifier (§6.1)."""

    family: ClassVar[str] = "classifier"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "transient_categories": "transient_categories",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "type", "transient_categories",
    )

    type: Scalar | None = None
    """``type`` (pipeline-utilities §6): The kind."""

    transient_categories: Sequence | None = None
    """``transient_categories`` (pipeline-utilities §6.1): Categories retried."""


class OnCaught(Section):
    """The failure-isolation `on_caught` callback (§6.3)."""

    family: ClassVar[str] = "on_caught"
    directive_attrs: ClassVar[dict[str, str]] = {
        "kind": "kind", "increment_field": "increment_field",
        "capture_message_field": "capture_message_field",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "kind", "increment_field", "capture_message_field",
    )

    kind: Scalar | None = None
    """``kind`` (pipeline-utilities §6.3): What the callback does."""

    increment_field: Scalar | None = None
    """``increment_field`` (pipeline-utilities §6.3): A counter field the callback increments."""

    capture_message_field: Scalar | None = None
    """``capture_message_field`` (pipeline-utilities §6.3): A field receiving the caught message."""


class OnComplete(Section):
    """The timing `on_complete` callback (§6.2)."""

    family: ClassVar[str] = "on_complete"
    directive_attrs: ClassVar[dict[str, str]] = {
        "capture_to": "capture_to",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "capture_to",
    )

    capture_to: Scalar | None = None
    """``capture_to`` (pipeline-utilities §6.2): Where timing records are captured."""


class CatchPredicate(Section):
    """Which errors failure isolation catches (§6.3)."""

    family: ClassVar[str] = "predicate"
    directive_attrs: ClassVar[dict[str, str]] = {
        "matches_category": "matches_category",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "matches_category",
    )

    matches_category: Scalar | None = None
    """``matches_category`` (pipeline-utilities §6.3): Catch errors of this category."""


class WrapMiddleware(Section):
    """A `wrap_with_middleware` entry (§6.7)."""

    family: ClassVar[str] = "wrap_middleware"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "pre_log": "pre_log", "post_log": "post_log",
        "pre_next_calls_suspend_with_descriptor": "pre_next_calls_suspend_with_descriptor",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "pre_next_calls_suspend_with_descriptor",
    ))
    _fields = (
        "order", "name", "pre_log", "post_log", "pre_next_calls_suspend_with_descriptor",
    )

    name: Scalar | None = None
    """``name`` (pipeline-utilities §6.7, since 0.48.0): The middleware name."""

    pre_log: Scalar | None = None
    """``pre_log`` (pipeline-utilities §6.7, since 0.48.0): Marker logged before next()."""

    post_log: Scalar | None = None
    """``post_log`` (pipeline-utilities §6.7, since 0.48.0): Marker logged after next()."""

    pre_next_calls_suspend_with_descriptor: SignalDescriptor | None = None
    """``pre_next_calls_suspend_with_descriptor`` (suspension §6.7, since 0.48.0): The middleware
    itself calls suspend() before next() (rejected per suspension §8.4).
    """


class Flaky(Section):
    """The `flaky` failure mock: sequence or compact form (§5.1)."""

    family: ClassVar[str] = "flaky"
    directive_attrs: ClassVar[dict[str, str]] = {
        "failure_sequence": "failure_sequence", "success_update": "success_update",
        "fail_first_invocation_only": "fail_first_invocation_only", "on_success": "on_success",
        "fail_count": "fail_count", "category": "category",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "failure_sequence",
    ))
    _fields = (
        "order", "failure_sequence", "success_update", "fail_first_invocation_only", "on_success",
        "fail_count", "category",
    )

    failure_sequence: Sequence | None = None
    """``failure_sequence`` (pipeline-utilities §5.1): One entry per attempt; null succeeds."""

    success_update: Mapping | None = None
    """``success_update`` (pipeline-utilities §5.1): The update once the sequence is exhausted."""

    fail_first_invocation_only: Scalar | None = None
    """``fail_first_invocation_only`` (pipeline-utilities §5.1): Compact form: fail the first
    invocation only.
    """

    on_success: Mapping | None = None
    """``on_success`` (pipeline-utilities §5.1): The update on success."""

    fail_count: Scalar | None = None
    """``fail_count`` (observability §3.2 header, since 0.7.0): Compact count form: the first N
    attempts fail.
    """

    category: Scalar | None = None
    """``category`` (observability §3.2 header, since 0.7.0): The category the failing attempts
    raise (compact count form).
    """


class Failure(Section):
    """One `failure_sequence` entry (§5.1)."""

    family: ClassVar[str] = "failure"
    directive_attrs: ClassVar[dict[str, str]] = {
        "transient": "transient", "category": "category", "message": "message", "cause": "cause",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "transient", "category", "message", "cause",
    )

    transient: Scalar | None = None
    """``transient`` (pipeline-utilities §5.1): A transient (retryable) failure."""

    category: Scalar | None = None
    """``category`` (pipeline-utilities §5.1): The error category."""

    message: Scalar | None = None
    """``message`` (pipeline-utilities §5.1): The error message."""

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """


class Cause(Section):
    """A mock-authored cause chained to the raised error (§5.1, proposal 0070)."""

    family: ClassVar[str] = "cause"
    directive_attrs: ClassVar[dict[str, str]] = {
        "category": "category", "message": "message", "cause": "cause",
        "cycles_back": "cycles_back",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "category", "message", "cause", "cycles_back",
    )

    category: Scalar | None = None
    """``category`` (pipeline-utilities §5.1): The error category."""

    message: Scalar | None = None
    """``message`` (pipeline-utilities §5.1): The error message."""

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """

    cycles_back: Scalar | None = None
    """``cycles_back`` (pipeline-utilities §5.1): This cause's own cause is the raised error itself:
    the chain is cyclic.
    """


class FlakyByIndex(Section):
    """Fan-out failure mock keyed by item value or attempt (§5.1)."""

    family: ClassVar[str] = "flaky_by_index"
    directive_attrs: ClassVar[dict[str, str]] = {
        "cause": "cause", "fail_when_idx": "fail_when_idx",
        "fail_count_per_idx": "fail_count_per_idx", "category": "category",
        "success_compute": "success_compute",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "cause", "fail_when_idx", "fail_count_per_idx", "category", "success_compute",
    )

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """

    fail_when_idx: Scalar | None = None
    """``fail_when_idx`` (pipeline-utilities §5.1): The item value that fails deterministically."""

    fail_count_per_idx: Scalar | None = None
    """``fail_count_per_idx`` (pipeline-utilities §5.1): Attempts each instance fails before
    succeeding.
    """

    category: Scalar | None = None
    """``category`` (pipeline-utilities §5.1): The failure category."""

    success_compute: Mapping | None = None
    """``success_compute`` (pipeline-utilities §5.1): The update on success (a string naming a field
    reads that field).
    """


class FlakyPerIndex(Section):
    """Fan-out failure mock keyed by invocation (§5.1)."""

    family: ClassVar[str] = "flaky_per_index"
    directive_attrs: ClassVar[dict[str, str]] = {
        "cause": "cause", "success_compute": "success_compute",
        "fail_first_run_indices": "fail_first_run_indices",
        "always_fail_indices": "always_fail_indices",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "cause", "success_compute", "fail_first_run_indices", "always_fail_indices",
    )

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """

    success_compute: Mapping | None = None
    """``success_compute`` (pipeline-utilities §5.1): The update on success (a string naming a field
    reads that field).
    """

    fail_first_run_indices: Sequence | None = None
    """``fail_first_run_indices`` (pipeline-utilities §5.1): Indices failing the first invocation
    only.
    """

    always_fail_indices: Sequence | None = None
    """``always_fail_indices`` (pipeline-utilities §5.1): Indices failing every invocation."""


class FlakyInstanceOnly(Section):
    """Fan-out failure mock failing whole instances (§5.1)."""

    family: ClassVar[str] = "flaky_instance_only"
    directive_attrs: ClassVar[dict[str, str]] = {
        "cause": "cause", "category": "category", "success_compute": "success_compute",
        "fail_count_per_instance": "fail_count_per_instance",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "cause", "category", "success_compute", "fail_count_per_instance",
    )

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """

    category: Scalar | None = None
    """``category`` (pipeline-utilities §5.1): The failure category."""

    success_compute: Mapping | None = None
    """``success_compute`` (pipeline-utilities §5.1): The update on success (a string naming a field
    reads that field).
    """

    fail_count_per_instance: Scalar | None = None
    """``fail_count_per_instance`` (pipeline-utilities §5.1): Whole-instance failures before
    success.
    """


class FlakyResumeAware(Section):
    """Failure mock counting attempts per invocation (§5.1)."""

    family: ClassVar[str] = "flaky_resume_aware"
    directive_attrs: ClassVar[dict[str, str]] = {
        "on_success": "on_success", "cause": "cause", "category": "category",
        "fail_first_invocation_count": "fail_first_invocation_count",
        "fail_resumed_invocation_count": "fail_resumed_invocation_count",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "cause",
    ))
    _fields = (
        "order", "on_success", "cause", "category", "fail_first_invocation_count",
        "fail_resumed_invocation_count",
    )

    on_success: Mapping | None = None
    """``on_success`` (pipeline-utilities §5.1): The update on success."""

    cause: Cause | None = None
    """``cause`` (pipeline-utilities §5.1, since 0.58.0): An originating cause chained to the raised
    error.
    """

    category: Scalar | None = None
    """``category`` (pipeline-utilities §5.1): The failure category."""

    fail_first_invocation_count: Scalar | None = None
    """``fail_first_invocation_count`` (pipeline-utilities §5.1): Failures on the first invocation.
    """

    fail_resumed_invocation_count: Scalar | None = None
    """``fail_resumed_invocation_count`` (pipeline-utilities §5.1): Failures on a resumed
    invocation.
    """


class CheckpointerDecl(Section):
    """A checkpointer backend with options (§10)."""

    family: ClassVar[str] = "checkpointer"
    directive_attrs: ClassVar[dict[str, str]] = {
        "kind": "kind", "fan_out_internal_save_batching": "fan_out_internal_save_batching",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "fan_out_internal_save_batching",
    ))
    _fields = (
        "order", "kind", "fan_out_internal_save_batching",
    )

    kind: Scalar | None = None
    """``kind`` (pipeline-utilities §5.6): The backend."""

    fan_out_internal_save_batching: SaveBatching | None = None
    """``fan_out_internal_save_batching`` (pipeline-utilities §10): Batch fan-out saves."""


class SaveBatching(Section):
    """Batched fan-out-internal checkpoint saves (§10)."""

    family: ClassVar[str] = "save_batching"
    directive_attrs: ClassVar[dict[str, str]] = {
        "flush_every": "flush_every",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "flush_every",
    )

    flush_every: Scalar | None = None
    """``flush_every`` (pipeline-utilities §10): Saves per flush."""


class CrashInjection(Section):
    """Abandon the first run after a checkpoint boundary (§5.6)."""

    family: ClassVar[str] = "crash_injection"
    directive_attrs: ClassVar[dict[str, str]] = {
        "after_node": "after_node", "after_fan_out_instance": "after_fan_out_instance",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "after_fan_out_instance",
    ))
    _fields = (
        "order", "after_node", "after_fan_out_instance",
    )

    after_node: Scalar | None = None
    """``after_node`` (pipeline-utilities §5.6): Crash after this node's completed save."""

    after_fan_out_instance: FanOutInstanceRef | None = None
    """``after_fan_out_instance`` (pipeline-utilities §5.6): Crash after this fan-out instance's
    completed save.
    """


class FanOutInstanceRef(Section):
    """A fan-out instance: node and index (§5.6)."""

    family: ClassVar[str] = "fan_out_instance_ref"
    directive_attrs: ClassVar[dict[str, str]] = {
        "node": "node", "index": "index",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "node", "index",
    )

    node: Scalar | None = None
    """``node`` (pipeline-utilities §5.6): The fan-out node."""

    index: Scalar | None = None
    """``index`` (pipeline-utilities §5.6): The instance index."""


class ResumeDecl(Section):
    """Resume after the first run and assert the resumed run (§5.6)."""

    family: ClassVar[str] = "resume"
    directive_attrs: ClassVar[dict[str, str]] = {
        "from_first_run": "from_first_run", "from_seeded_record": "from_seeded_record",
        "expected": "expected", "expected_error": "expected_error",
        "expected_chain_ambiguity_error": "expected_chain_ambiguity_error",
        "invariants": "invariants", "caller_invocation_id": "caller_invocation_id",
        "resume_with_modified_items": "resume_with_modified_items",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "expected", "expected_error", "expected_chain_ambiguity_error",
    ))
    _fields = (
        "order", "from_first_run", "from_seeded_record", "expected", "expected_error",
        "expected_chain_ambiguity_error", "invariants", "caller_invocation_id",
        "resume_with_modified_items",
    )

    from_first_run: Scalar | None = None
    """``from_first_run`` (pipeline-utilities §5.6): Resume the first run's invocation id."""

    from_seeded_record: Scalar | None = None
    """``from_seeded_record`` (pipeline-utilities §10): Resume from the `seeded_record`."""

    expected: Expected | None = None
    """``expected`` (pipeline-utilities §5.6): The resumed run's expected outcome."""

    expected_error: ErrorExpectation | None = None
    """``expected_error`` (pipeline-utilities §5.6): The resume fails with this error."""

    expected_chain_ambiguity_error: Scalar | ErrorExpectation | None = None
    """``expected_chain_ambiguity_error`` (pipeline-utilities §10.12): This category surfaces at
    graph build (migration registration / compile) or when the run resumes.
    """

    invariants: PredicateBlock | None = None
    """``invariants`` (pipeline-utilities §5.6): Resume-specific invariant predicates."""

    caller_invocation_id: Scalar | None = None
    """``caller_invocation_id`` (pipeline-utilities §10): The invocation id passed on resume."""

    resume_with_modified_items: Mapping | None = None
    """``resume_with_modified_items`` (pipeline-utilities §10.11): State changes applied before
    resuming.
    """


class RecordAssertions(Section):
    """Named assertions against a saved checkpoint record (§5.8)."""

    family: ClassVar[str] = "record_assertions"
    directive_attrs: ClassVar[dict[str, str]] = {
        "completed_positions": "completed_positions",
        "fan_out_node_in_completed_positions": "fan_out_node_in_completed_positions",
        "fan_out_progress": "fan_out_progress", "parent_states_present": "parent_states_present",
        "parent_states_outermost_first": "parent_states_outermost_first",
        "parent_states": "parent_states", "state": "state", "schema_version": "schema_version",
        "invocation_id": "invocation_id", "correlation_id": "correlation_id",
        "last_saved_at": "last_saved_at",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "fan_out_progress",
    ))
    _fields = (
        "order", "completed_positions", "fan_out_node_in_completed_positions", "fan_out_progress",
        "parent_states_present", "parent_states_outermost_first", "parent_states", "state",
        "schema_version", "invocation_id", "correlation_id", "last_saved_at",
    )

    completed_positions: Sequence | None = None
    """``completed_positions`` (pipeline-utilities §5.8): The record's completed positions."""

    fan_out_node_in_completed_positions: Scalar | None = None
    """``fan_out_node_in_completed_positions`` (pipeline-utilities §5.8): The fan-out node is
    recorded completed.
    """

    fan_out_progress: Scalar | Mapping | None = None
    """``fan_out_progress`` (pipeline-utilities §5.8): Per-instance fan-out progress (null: none
    saved).
    """

    parent_states_present: Scalar | None = None
    """``parent_states_present`` (pipeline-utilities §5.8): The record carries parent states."""

    parent_states_outermost_first: Scalar | None = None
    """``parent_states_outermost_first`` (pipeline-utilities §5.8): Parent states are outermost
    first.
    """

    parent_states: Sequence | None = None
    """``parent_states`` (pipeline-utilities §5.8): The record's parent states."""

    state: Mapping | None = None
    """``state`` (pipeline-utilities §5.8): The saved state."""

    schema_version: Scalar | BindingToken | FormatToken | None = None
    """``schema_version`` (pipeline-utilities §10.10): The saved schema version."""

    invocation_id: Scalar | BindingToken | FormatToken | None = None
    """``invocation_id`` (pipeline-utilities §5.8): The saved invocation id."""

    correlation_id: Scalar | BindingToken | FormatToken | None = None
    """``correlation_id`` (pipeline-utilities §5.8): The saved correlation id."""

    last_saved_at: Scalar | BindingToken | FormatToken | None = None
    """``last_saved_at`` (pipeline-utilities §5.8): The save timestamp."""


class FanOutProgressAssertion(Section):
    """The saved per-instance progress of one fan-out (§5.8)."""

    family: ClassVar[str] = "fan_out_progress"
    directive_attrs: ClassVar[dict[str, str]] = {
        "instance_count": "instance_count", "instances": "instances",
        "enclosing_fan_out_lineage": "enclosing_fan_out_lineage",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "instance_count", "instances", "enclosing_fan_out_lineage",
    )

    instance_count: Scalar | None = None
    """``instance_count`` (pipeline-utilities §5.8): How many instances."""

    instances: Sequence | None = None
    """``instances`` (pipeline-utilities §5.8): Per instance: state / state_one_of, result,
    result_is_error, completed_inner_positions.
    """

    enclosing_fan_out_lineage: Sequence | None = None
    """``enclosing_fan_out_lineage`` (pipeline-utilities §10.11): The entry's enclosing fan-out
    instances, outermost first ({namespace, fan_out_node_name, fan_out_index}).
    """


class MigrationDecl(Section):
    """A state migration between schema versions (§10.10)."""

    family: ClassVar[str] = "migration"
    directive_attrs: ClassVar[dict[str, str]] = {
        "from_version": "from_version", "to_version": "to_version", "migrate": "migrate",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "from_version", "to_version", "migrate",
    )

    from_version: Scalar | None = None
    """``from_version`` (pipeline-utilities §10.10): Source schema version."""

    to_version: Scalar | None = None
    """``to_version`` (pipeline-utilities §10.10): Target schema version."""

    migrate: Scalar | None = None
    """``migrate`` (pipeline-utilities §10.10): The harness migration function."""


class ClockStub(Section):
    """A deterministic clock for timing middleware (§6.2)."""

    family: ClassVar[str] = "clock_stub"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "advance_ms_per_call": "advance_ms_per_call",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "type", "advance_ms_per_call",
    )

    type: Scalar | None = None
    """``type`` (pipeline-utilities §6.2): The kind: `deterministic_monotonic`, or `virtual_sleep`.
    """

    advance_ms_per_call: Scalar | None = None
    """``advance_ms_per_call`` (pipeline-utilities §6.2): Milliseconds per clock read."""


class ObsLlmCall(Section):
    """`calls_llm`: the node makes one real `complete()` call against the mock provider (§5.1)."""

    family: ClassVar[str] = "obs_llm_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "messages": "messages", "stores_response_in": "stores_response_in", "model": "model",
        "config": "config", "response_schema": "response_schema", "tools": "tools",
        "stream": "stream", "retry": "retry", "response": "response",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "config", "retry",
    ))
    _fields = (
        "order", "messages", "stores_response_in", "model", "config", "response_schema", "tools",
        "stream", "retry", "response",
    )

    messages: Sequence | None = None
    """``messages`` (observability §5.1, since 0.7.0): The llm-provider §3 messages sent (a
    `content_repeat: {char, bytes}` content expands to a long string).
    """

    stores_response_in: Scalar | None = None
    """``stores_response_in`` (observability §5.1, since 0.7.0): The state field receiving the
    response content.
    """

    model: Scalar | None = None
    """``model`` (observability §3.2 header): The model the call names."""

    config: LlmRuntimeConfig | None = None
    """``config`` (observability §3.2 header, since 0.17.0): The call's RuntimeConfig (llm-provider
    §6).
    """

    response_schema: Mapping | None = None
    """``response_schema`` (observability §3.2 header, since 0.77.0): The JSON Schema passed to
    `complete()`; unparseable content raises `structured_output_invalid`.
    """

    tools: Sequence | None = None
    """``tools`` (observability §3.2 header): The llm-provider §4 tools offered to the model."""

    stream: Scalar | None = None
    """``stream`` (observability §3.2 header, since 0.71.0): Call `complete(..., stream=True)`: the
    mock replays `mock_llm_stream` and token events fire.
    """

    retry: LlmCallRetry | None = None
    """``retry`` (observability §3.2 header): Call-level retry (llm-provider §7.1); its
    `mock_llm_stream` entry is `{wire_attempts}`.
    """

    response: Scalar | None = None
    """``response`` (observability §3.2 header): Inline canned response content, in place of a
    `mock_llm` entry.
    """


class ObsLlmWrapperCall(Section):
    """`calls_llm_from_wrapper`: a middleware around the node makes one `complete()` call while the node's span is not open (§5.1)."""

    family: ClassVar[str] = "obs_llm_wrapper_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "messages": "messages", "phase": "phase", "await_event_delivery": "await_event_delivery",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "messages", "phase", "await_event_delivery",
    )

    messages: Sequence | None = None
    """``messages`` (observability §5.1, since 0.7.0): The llm-provider §3 messages sent (a
    `content_repeat: {char, bytes}` content expands to a long string).
    """

    phase: Scalar | None = None
    """``phase`` (observability §5.1, since 0.81.0): `pre`: before `next()` (node span not yet
    open); `post`: after it returns. Default pre.
    """

    await_event_delivery: Scalar | None = None
    """``await_event_delivery`` (observability §5.1, since 0.118.0): Barrier: delivery of this
    call's provider event to every observer completes before the wrapper proceeds past the call site
    (`pre`: before `next()`); a barrier that cannot hold fails the case.
    """


class ObsToolCall(Section):
    """`calls_tool`: the node runs a mock tool inside the graph-engine §6 tool-call scope."""

    family: ClassVar[str] = "obs_tool_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "tool_name": "tool_name", "tool_call_id": "tool_call_id", "arguments": "arguments",
        "mock_tool": "mock_tool", "stores_result_in": "stores_result_in",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "mock_tool",
    ))
    _fields = (
        "order", "tool_name", "tool_call_id", "arguments", "mock_tool", "stores_result_in",
    )

    tool_name: Scalar | None = None
    """``tool_name`` (observability §3.2 header, since 0.69.0): The tool's name."""

    tool_call_id: Scalar | None = None
    """``tool_call_id`` (observability §3.2 header, since 0.69.0): The model's tool-call id; absent
    or null for a standalone instrumented function.
    """

    arguments: Mapping | None = None
    """``arguments`` (observability §3.2 header, since 0.69.0): The arguments the tool is called
    with.
    """

    mock_tool: ToolMock | None = None
    """``mock_tool`` (observability §3.2 header, since 0.69.0): What the tool does."""

    stores_result_in: Scalar | None = None
    """``stores_result_in`` (observability §3.2 header, since 0.69.0): The state field receiving the
    tool's result.
    """


class ToolMock(Section):
    """What the mock tool does: return a result or raise."""

    family: ClassVar[str] = "tool_mock"
    directive_attrs: ClassVar[dict[str, str]] = {
        "returns": "returns", "raises": "raises",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "raises",
    ))
    _fields = (
        "order", "returns", "raises",
    )

    returns: Scalar | Mapping | Sequence | None = None
    """``returns`` (observability §3.2 header, since 0.69.0): The tool returns this result
    (ToolCallEvent).
    """

    raises: ToolMockRaise | None = None
    """``raises`` (observability §3.2 header, since 0.69.0): The tool raises (ToolCallFailedEvent);
    the exception propagates out of the node.
    """


class ToolMockRaise(Section):
    """The exception a mock tool raises."""

    family: ClassVar[str] = "tool_mock_raise"
    directive_attrs: ClassVar[dict[str, str]] = {
        "error_type": "error_type", "message": "message",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "error_type", "message",
    )

    error_type: Scalar | None = None
    """``error_type`` (observability §3.2 header, since 0.69.0): The exception's type name."""

    message: Scalar | None = None
    """``message`` (observability §3.2 header, since 0.69.0): The exception's message."""


class LogEmission(Section):
    """`emits_log`: a log record the node emits through the OTel Logs Bridge (observability §7)."""

    family: ClassVar[str] = "log_emission"
    directive_attrs: ClassVar[dict[str, str]] = {
        "message": "message", "level": "level",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "message", "level",
    )

    message: Scalar | None = None
    """``message`` (observability §3.2 header, since 0.7.0): The record's body."""

    level: Scalar | None = None
    """``level`` (observability §3.2 header, since 0.7.0): The record's severity (e.g. INFO)."""


class GlobalTracerSpan(Section):
    """`also_emits_via_global_tracer`: a span the node emits directly through the OTel global TracerProvider."""

    family: ClassVar[str] = "global_tracer_span"
    directive_attrs: ClassVar[dict[str, str]] = {
        "span_name": "span_name",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "span_name",
    )

    span_name: Scalar | None = None
    """``span_name`` (observability §3.2 header, since 0.7.0): The external span's name."""


class PromptGroupRender(Section):
    """`renders_prompt_group`: make a PromptGroup and one of its members the active prompt contexts."""

    family: ClassVar[str] = "prompt_group_render"
    directive_attrs: ClassVar[dict[str, str]] = {
        "group_name": "group_name", "members": "members", "active_prompt": "active_prompt",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "group_name", "members", "active_prompt",
    )

    group_name: Scalar | None = None
    """``group_name`` (observability §3.2 header, since 0.51.0): The group's name."""

    members: Sequence | None = None
    """``members`` (observability §3.2 header, since 0.51.0): The member prompts (two or more
    `prompt_backend` prompts), in order.
    """

    active_prompt: Scalar | None = None
    """``active_prompt`` (observability §3.2 header, since 0.51.0): The member bound as the active
    Prompt.
    """


class AttemptBehavior(Section):
    """What a retried node does on one attempt (`per_attempt_behavior`)."""

    family: ClassVar[str] = "attempt_behavior"
    directive_attrs: ClassVar[dict[str, str]] = {
        "augment_metadata": "augment_metadata",
        "capture_invocation_metadata_into": "capture_invocation_metadata_into",
        "attempt": "attempt", "raises": "raises", "succeeds": "succeeds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "augment_metadata", "capture_invocation_metadata_into", "attempt", "raises",
        "succeeds",
    )

    augment_metadata: Mapping | None = None
    """``augment_metadata`` (observability §5.1, since 0.25.0): Call
    `set_invocation_metadata(**kwargs)` (on a branch: at the top of the branch's body).
    """

    capture_invocation_metadata_into: Scalar | None = None
    """``capture_invocation_metadata_into`` (observability §5.1, since 0.40.0): Write the
    `get_invocation_metadata()` snapshot into this state field.
    """

    attempt: Scalar | None = None
    """``attempt`` (observability §3.2 header, since 0.40.0): The attempt index (0-based) this entry
    applies to.
    """

    raises: Scalar | None = None
    """``raises`` (observability §3.2 header, since 0.40.0): Raise this harness error (a transient
    one the retry classifier matches).
    """

    succeeds: Scalar | None = None
    """``succeeds`` (observability §3.2 header, since 0.40.0): The attempt returns normally."""


class SubgraphCall(Section):
    """`subgraph_call`: run a declared subgraph as this node, with an explicit mapping."""

    family: ClassVar[str] = "subgraph_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "subgraph": "subgraph", "inputs": "inputs", "outputs": "outputs",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "subgraph", "inputs", "outputs",
    )

    subgraph: Scalar | None = None
    """``subgraph`` (observability §3.2 header, since 0.37.0): The declared subgraph."""

    inputs: Mapping | None = None
    """``inputs`` (observability §3.2 header, since 0.37.0): Parent field → subgraph field."""

    outputs: Mapping | None = None
    """``outputs`` (observability §3.2 header, since 0.37.0): Parent field ← subgraph field."""


class QueryableObserverDecl(Section):
    """A harness-defined queryable observer attached at invoke (observability §9)."""

    family: ClassVar[str] = "queryable_observer"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "kind": "kind",
        "persists_across_invocations": "persists_across_invocations",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "name", "kind", "persists_across_invocations",
    )

    name: Scalar | None = None
    """``name`` (observability §3.2 header, since 0.40.0): The observer's name."""

    kind: Scalar | None = None
    """``kind`` (observability §3.2 header, since 0.40.0): `event_counter` (get_count),
    `typed_event_counter` (get_snapshot), `per_invocation_accumulator` (get_bucket / drop).
    """

    persists_across_invocations: Scalar | None = None
    """``persists_across_invocations`` (observability §3.2 header, since 0.40.0): One instance stays
    attached across `sequential_invocations`.
    """


class QueryableObserverRead(Section):
    """Call a queryable observer's read method mid-invocation and capture the value into state (observability §9.1)."""

    family: ClassVar[str] = "queryable_observer_read"
    directive_attrs: ClassVar[dict[str, str]] = {
        "observer_name": "observer_name", "method": "method", "state_field": "state_field",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "observer_name", "method", "state_field",
    )

    observer_name: Scalar | None = None
    """``observer_name`` (observability §3.2 header, since 0.40.0): The `queryable_observers` entry.
    """

    method: Scalar | None = None
    """``method`` (observability §3.2 header, since 0.40.0): The read method (per observer kind)."""

    state_field: Scalar | None = None
    """``state_field`` (observability §3.2 header, since 0.40.0): The field receiving the value."""


class QueryableObserverDrop(Section):
    """Call a queryable observer's `drop(invocation_id)` for the current invocation (observability §9.4)."""

    family: ClassVar[str] = "queryable_observer_drop"
    directive_attrs: ClassVar[dict[str, str]] = {
        "observer_name": "observer_name",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "observer_name",
    )

    observer_name: Scalar | None = None
    """``observer_name`` (observability §3.2 header, since 0.40.0): The `queryable_observers` entry.
    """


class LangfuseObserverConfig(Section):
    """Construction flags of the bundled Langfuse observer (observability §8)."""

    family: ClassVar[str] = "langfuse_observer_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "disable_llm_spans": "disable_llm_spans",
        "disable_provider_payload": "disable_provider_payload",
        "payload_byte_cap": "payload_byte_cap", "trace_input_from_state": "trace_input_from_state",
        "trace_output_from_state": "trace_output_from_state",
        "disable_state_payload": "disable_state_payload",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "disable_llm_spans", "disable_provider_payload", "payload_byte_cap",
        "trace_input_from_state", "trace_output_from_state", "disable_state_payload",
    )

    disable_llm_spans: Scalar | None = None
    """``disable_llm_spans`` (observability §5.5, since 0.7.0): Construct the observer with the §5.5
    LLM-span opt-out.
    """

    disable_provider_payload: Scalar | None = None
    """``disable_provider_payload`` (observability §3.2 header, since 0.54.0): The §5.5.4
    provider-payload opt-out (default true), per observer; at case level (before `otel_observer`),
    both observers' unless the `langfuse_observer` block sets its own.
    """

    payload_byte_cap: Scalar | None = None
    """``payload_byte_cap`` (observability §3.2 header, since 0.23.0): The §5.5.5 per-payload
    truncation cap, per observer (the OTel observer's `payload_max_bytes`; default 64 KiB).
    """

    trace_input_from_state: Scalar | None = None
    """``trace_input_from_state`` (observability §3.2 header, since 0.35.0): The §8.4.1 caller hook
    (lever 1) sourcing `trace.input`, by harness name.
    """

    trace_output_from_state: Scalar | None = None
    """``trace_output_from_state`` (observability §3.2 header, since 0.35.0): The §8.4.1 caller hook
    (lever 1) sourcing `trace.output`, by harness name.
    """

    disable_state_payload: Scalar | None = None
    """``disable_state_payload`` (observability §3.2 header, since 0.35.0): The §8.4.1 trace
    input/output privacy knob (default true).
    """


class OtelObserverConfig(Section):
    """Construction flags of the bundled OTel observer (§5.5): the OTel side only; the Langfuse observer keeps its own."""

    family: ClassVar[str] = "otel_observer_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "disable_provider_payload": "disable_provider_payload",
        "disable_genai_semconv": "disable_genai_semconv", "payload_byte_cap": "payload_byte_cap",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "disable_provider_payload", "disable_genai_semconv", "payload_byte_cap",
    )

    disable_provider_payload: Scalar | None = None
    """``disable_provider_payload`` (observability §3.2 header, since 0.54.0): The §5.5.4
    provider-payload opt-out (default true), per observer; at case level (before `otel_observer`),
    both observers' unless the `langfuse_observer` block sets its own.
    """

    disable_genai_semconv: Scalar | None = None
    """``disable_genai_semconv`` (observability §3.2 header, since 0.17.0): The §5.5.4 GenAI-semconv
    opt-out of the OTel observer.
    """

    payload_byte_cap: Scalar | None = None
    """``payload_byte_cap`` (observability §3.2 header, since 0.23.0): The §5.5.5 per-payload
    truncation cap, per observer (the OTel observer's `payload_max_bytes`; default 64 KiB).
    """


class LangfuseClientDecl(Section):
    """How the Langfuse observer's client is constructed (§5.5, observability §8.9)."""

    family: ClassVar[str] = "langfuse_client"
    directive_attrs: ClassVar[dict[str, str]] = {
        "mode": "mode", "provider": "provider",
        "preexisting_same_key_client": "preexisting_same_key_client",
        "accept_shared_provider": "accept_shared_provider",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "mode", "provider", "preexisting_same_key_client", "accept_shared_provider",
    )

    mode: Scalar | None = None
    """``mode`` (observability §5.5, since 0.109.0): `credentials`: the implementation builds it
    (§8.9 mode b); `supplied`: the harness builds and hands it in (mode a).
    """

    provider: Scalar | None = None
    """``provider`` (observability §5.5, since 0.109.0): `supplied` only: the TracerProvider the
    client is bound to (default global).
    """

    preexisting_same_key_client: Scalar | None = None
    """``preexisting_same_key_client`` (observability §5.5, since 0.110.0): `credentials` only: the
    harness first builds a same-credential client on the global provider, so the implementation is
    not the SDK's first constructor for that key (default false).
    """

    accept_shared_provider: Scalar | None = None
    """``accept_shared_provider`` (observability §5.5, since 0.110.0): `credentials` only: the
    caller's single shared-provider opt-out on the observer's construction (default false).
    """


class AdapterCapabilityRequirement(Section):
    """The adapter capabilities a case is asserted under (§5.5, proposal 0116): one key per capability, the value the adapter must have; a case whose requirement the adapter does not meet is a recognized skip."""

    family: ClassVar[str] = "adapter_capability_requirement"
    directive_attrs: ClassVar[dict[str, str]] = {
        "langfuse_bound_provider_detection": "langfuse_bound_provider_detection",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "langfuse_bound_provider_detection",
    )

    langfuse_bound_provider_detection: Scalar | None = None
    """``langfuse_bound_provider_detection`` (observability §5.5, since 0.110.0): The implementation
    can establish which TracerProvider its Langfuse client is bound to (observability §6).
    """


class ConstructionErrorExpectation(Section):
    """Standing up the case's observers / clients (or their first use) raises this error (§5.5): a category, or (an extension) the type of an uncategorized refusal."""

    family: ClassVar[str] = "construction_error_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "category": "category", "exception_kind": "exception_kind",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "category", "exception_kind",
    )

    category: Scalar | None = None
    """``category`` (observability §5.5, since 0.110.0): The error's category token."""

    exception_kind: Scalar | None = None
    """``exception_kind`` (conformance-adapter §5.5): The host-language type of what construction
    raised (Python's spelling, e.g. `ValueError`).
    """


class ObsPromptBackend(Section):
    """The PromptBackend whose prompts `renders_prompt` renders."""

    family: ClassVar[str] = "obs_prompt_backend"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "prompts": "prompts",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "prompts",
    ))
    _fields = (
        "order", "type", "prompts",
    )

    type: Scalar | None = None
    """``type`` (observability §3.2 header, since 0.23.0): `filesystem`, or a mock exposing a
    Langfuse Prompt reference (§8.4.4).
    """

    prompts: Mapping | None = None
    """``prompts`` (observability §3.2 header, since 0.23.0): The prompts it serves."""


class ObsPrompt(Section):
    """One prompt the backend serves (prompt-management §3)."""

    family: ClassVar[str] = "obs_prompt"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "version": "version", "label": "label", "template": "template",
        "template_hash": "template_hash", "langfuse_prompt_reference": "langfuse_prompt_reference",
        "token_budget": "token_budget",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "token_budget",
    ))
    _fields = (
        "order", "name", "version", "label", "template", "template_hash",
        "langfuse_prompt_reference", "token_budget",
    )

    name: Scalar | None = None
    """``name`` (observability §3.2 header, since 0.23.0): The prompt's name."""

    version: Scalar | None = None
    """``version`` (observability §3.2 header, since 0.23.0): Its version."""

    label: Scalar | None = None
    """``label`` (observability §3.2 header, since 0.23.0): Its label."""

    template: Scalar | None = None
    """``template`` (observability §3.2 header, since 0.23.0): Its template."""

    template_hash: Scalar | None = None
    """``template_hash`` (observability §3.2 header, since 0.23.0): Its template hash, as served."""

    langfuse_prompt_reference: Scalar | None = None
    """``langfuse_prompt_reference`` (observability §3.2 header, since 0.23.0): The Langfuse Prompt
    entity the generation links to.
    """

    token_budget: ObsTokenBudget | None = None
    """``token_budget`` (observability §3.2 header, since 0.78.0): The budget the backend surfaces
    on Prompt.token_budget.
    """


class ObsTokenBudget(Section):
    """A prompt's token budget (prompt-management §3, observability §5.5.15)."""

    family: ClassVar[str] = "obs_token_budget"
    directive_attrs: ClassVar[dict[str, str]] = {
        "input_max_tokens": "input_max_tokens", "total_max_tokens": "total_max_tokens",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "input_max_tokens", "total_max_tokens",
    )

    input_max_tokens: Scalar | None = None
    """``input_max_tokens`` (observability §3.2 header, since 0.78.0): The input-token bound."""

    total_max_tokens: Scalar | None = None
    """``total_max_tokens`` (observability §3.2 header, since 0.78.0): The total-token bound."""


class ObsLlmProvider(Section):
    """The LLM provider instance `calls_llm` uses, when not the default mock."""

    family: ClassVar[str] = "obs_llm_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "genai_system": "genai_system",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "type", "genai_system",
    )

    type: Scalar | None = None
    """``type`` (observability §3.2 header, since 0.17.0): The provider kind."""

    genai_system: Scalar | None = None
    """``genai_system`` (observability §3.2 header, since 0.17.0): The configured `gen_ai.system`
    value (§5.5.3).
    """


class SequentialInvocations(Section):
    """Run the fixture's graph once per listed invocation, with the same observers attached."""

    family: ClassVar[str] = "sequential_invocations"
    directive_attrs: ClassVar[dict[str, str]] = {
        "observer_persists_across": "observer_persists_across", "invocations": "invocations",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "invocations",
    ))
    _fields = (
        "order", "observer_persists_across", "invocations",
    )

    observer_persists_across: Scalar | None = None
    """``observer_persists_across`` (observability §3.2 header, since 0.40.0): The observers stay
    attached between invocations.
    """

    invocations: Sequence | None = None
    """``invocations`` (observability §3.2 header, since 0.40.0): The invocations, in order."""


class DirectCall(Section):
    """Call an observability API directly, outside any invocation (no graph)."""

    family: ClassVar[str] = "direct_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "operation": "operation",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "operation",
    )

    operation: Scalar | None = None
    """``operation`` (observability §3.2 header, since 0.40.0): The API called."""


class OtelTraceExpectation(Section):
    """One OTel trace: its id (optional) and its span tree (detached trace mode)."""

    family: ClassVar[str] = "otel_trace_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "span_tree": "span_tree", "trace_id": "trace_id",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "span_tree", "trace_id",
    )

    span_tree: Sequence | None = None
    """``span_tree`` (observability §3.2 header, since 0.7.0): The exported spans as a tree: `name`,
    `status`, `attributes` (subset), `children`, and matcher keys (`attributes_absent`,
    `exception_recorded`, `attribute_parses_as_*` …).
    """

    trace_id: Scalar | BindingToken | FormatToken | None = None
    """``trace_id`` (observability §3.2 header, since 0.44.0, this directory only): The trace's id
    (a `<trace_id_X>` binding).
    """


class MetricObservation(Section):
    """One recorded metric observation (§5.8 `metrics`, §6.9)."""

    family: ClassVar[str] = "metric_observation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "instrument": "instrument", "dimensions": "dimensions", "value": "value",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "instrument", "dimensions", "value",
    )

    instrument: Scalar | None = None
    """``instrument`` (observability §5.8, since 0.64.0): The §11.2 instrument."""

    dimensions: Mapping | None = None
    """``dimensions`` (observability §5.8, since 0.64.0): The observation's §11.3 dimensions."""

    value: Scalar | None = None
    """``value`` (observability §5.8, since 0.64.0): The recorded value (omitted for durations)."""


class ValueBounds(Section):
    """Inclusive bounds on a numeric value."""

    family: ClassVar[str] = "value_bounds"
    directive_attrs: ClassVar[dict[str, str]] = {
        "min": "min", "max": "max",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "min", "max",
    )

    min: Scalar | None = None
    """``min`` (observability §3.2 header, since 0.40.0, this directory only): The lower bound."""

    max: Scalar | None = None
    """``max`` (observability §3.2 header, since 0.40.0, this directory only): The upper bound."""


class EdgeWhen(Section):
    """When a conditional edge is taken: a state field compared with a number."""

    family: ClassVar[str] = "edge_when"
    directive_attrs: ClassVar[dict[str, str]] = {
        "field": "field", "gt": "gt",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "field", "gt",
    )

    field: Scalar | None = None
    """``field`` (observability §3.2 header, this directory only): The state field compared."""

    gt: Scalar | None = None
    """``gt`` (observability §3.2 header, this directory only): Holds when the field is greater than
    this number.
    """


class LlmCall(Section):
    """The `complete()` / `ready()` call a case makes (`call:`, §5.11)."""

    family: ClassVar[str] = "llm_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "operation": "operation", "messages": "messages", "config": "config", "tools": "tools",
        "tool_choice": "tool_choice", "response_schema": "response_schema", "stream": "stream",
        "retry": "retry", "retry_middleware": "retry_middleware",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "config", "retry", "retry_middleware",
    ))
    _fields = (
        "order", "operation", "messages", "config", "tools", "tool_choice", "response_schema",
        "stream", "retry", "retry_middleware",
    )

    operation: Scalar | None = None
    """``operation`` (llm-provider §3.2 header): The provider operation to invoke."""

    messages: Sequence | None = None
    """``messages`` (llm-provider §5.11): The llm-provider §3 messages passed to `complete()`."""

    config: LlmRuntimeConfig | None = None
    """``config`` (llm-provider §5.11): The call's RuntimeConfig (llm-provider §6)."""

    tools: Sequence | None = None
    """``tools`` (llm-provider §5.11): The llm-provider §4 tools offered to the model."""

    tool_choice: Scalar | Mapping | None = None
    """``tool_choice`` (llm-provider §5.11): The llm-provider §5 tool_choice: `auto` / `required` /
    `none`, or `{type: tool, name}`.
    """

    response_schema: Mapping | None = None
    """``response_schema`` (llm-provider §5.12, since 0.14.0): The JSON schema requested for
    structured output.
    """

    stream: Scalar | None = None
    """``stream`` (llm-provider §3.2 header): Call `complete(..., stream=True)`."""

    retry: LlmCallRetry | None = None
    """``retry`` (llm-provider §5.11, since 0.91.0): Call-level retry (llm-provider §7.1)."""

    retry_middleware: MiddlewareDecl | None = None
    """``retry_middleware`` (llm-provider §3.2 header): Wrap the call in a pipeline-utilities §6.1
    RetryMiddleware.
    """


class LlmCallStep(Section):
    """One entry of a `calls:` list: a call plus the wire request and outcome it must produce (llm-provider §3.2 header)."""

    family: ClassVar[str] = "llm_call_step"
    directive_attrs: ClassVar[dict[str, str]] = {
        "operation": "operation", "messages": "messages", "config": "config", "tools": "tools",
        "tool_choice": "tool_choice", "response_schema": "response_schema", "stream": "stream",
        "retry": "retry", "expected": "expected", "retry_middleware": "retry_middleware",
        "expected_wire_request": "expected_wire_request",
        "expected_wire_request_absent_keys": "expected_wire_request_absent_keys",
        "expected_wire_request_checks": "expected_wire_request_checks",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "config", "retry", "expected", "retry_middleware",
    ))
    _fields = (
        "order", "operation", "messages", "config", "tools", "tool_choice", "response_schema",
        "stream", "retry", "expected", "retry_middleware", "expected_wire_request",
        "expected_wire_request_absent_keys", "expected_wire_request_checks",
    )

    operation: Scalar | None = None
    """``operation`` (llm-provider §3.2 header): The provider operation to invoke."""

    messages: Sequence | None = None
    """``messages`` (llm-provider §5.11): The llm-provider §3 messages passed to `complete()`."""

    config: LlmRuntimeConfig | None = None
    """``config`` (llm-provider §5.11): The call's RuntimeConfig (llm-provider §6)."""

    tools: Sequence | None = None
    """``tools`` (llm-provider §5.11): The llm-provider §4 tools offered to the model."""

    tool_choice: Scalar | Mapping | None = None
    """``tool_choice`` (llm-provider §5.11): The llm-provider §5 tool_choice: `auto` / `required` /
    `none`, or `{type: tool, name}`.
    """

    response_schema: Mapping | None = None
    """``response_schema`` (llm-provider §5.12, since 0.14.0): The JSON schema requested for
    structured output.
    """

    stream: Scalar | None = None
    """``stream`` (llm-provider §3.2 header): Call `complete(..., stream=True)`."""

    retry: LlmCallRetry | None = None
    """``retry`` (llm-provider §5.11, since 0.91.0): Call-level retry (llm-provider §7.1)."""

    expected: Expected | None = None
    """``expected`` (llm-provider §3.2 header): What this call must return (`response`) or raise
    (`raises`).
    """

    retry_middleware: MiddlewareDecl | None = None
    """``retry_middleware`` (llm-provider §3.2 header): Wrap the call in a pipeline-utilities §6.1
    RetryMiddleware.
    """

    expected_wire_request: Mapping | Sequence | None = None
    """``expected_wire_request`` (llm-provider §5.15, since 0.102.0): The outbound request body,
    compared key by key (a list: one body per request, chunk-and-stitch).
    """

    expected_wire_request_absent_keys: Sequence | None = None
    """``expected_wire_request_absent_keys`` (llm-provider §5.15, since 0.102.0): Keys that must be
    absent from the outbound body.
    """

    expected_wire_request_checks: PredicateBlock | None = None
    """``expected_wire_request_checks`` (llm-provider §3.2 header): Facts about the outbound body a
    literal compare cannot express (`<key>_absent`, named checks).
    """


class LlmRuntimeConfig(Section):
    """A llm-provider §6 RuntimeConfig: the declared sampling fields plus the undeclared `extras` bag."""

    family: ClassVar[str] = "llm_runtime_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "temperature": "temperature", "top_p": "top_p", "max_tokens": "max_tokens", "seed": "seed",
        "frequency_penalty": "frequency_penalty", "presence_penalty": "presence_penalty",
        "stop_sequences": "stop_sequences", "extras": "extras",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "temperature", "top_p", "max_tokens", "seed", "frequency_penalty",
        "presence_penalty", "stop_sequences", "extras",
    )

    temperature: Scalar | None = None
    """``temperature`` (llm-provider §5.11): Sampling temperature."""

    top_p: Scalar | None = None
    """``top_p`` (llm-provider §5.11): Nucleus-sampling mass."""

    max_tokens: Scalar | None = None
    """``max_tokens`` (llm-provider §5.11): The completion token cap."""

    seed: Scalar | None = None
    """``seed`` (llm-provider §5.11): The sampling seed."""

    frequency_penalty: Scalar | None = None
    """``frequency_penalty`` (llm-provider §5.11, since 0.24.0): Frequency penalty."""

    presence_penalty: Scalar | None = None
    """``presence_penalty`` (llm-provider §5.11, since 0.24.0): Presence penalty."""

    stop_sequences: Sequence | None = None
    """``stop_sequences`` (llm-provider §5.11, since 0.24.0): Stop sequences."""

    extras: Mapping | None = None
    """``extras`` (llm-provider §5.11, since 0.24.0): Undeclared fields passed through to the
    request-body root (llm-provider §6).
    """


class LlmCallRetry(Section):
    """Call-level retry (llm-provider §7.1): the pipeline-utilities §6.1 record plus the adaptive fields (§5.11)."""

    family: ClassVar[str] = "llm_call_retry"
    directive_attrs: ClassVar[dict[str, str]] = {
        "max_attempts": "max_attempts", "backoff": "backoff", "classifier": "classifier",
        "per_attempt_override": "per_attempt_override", "reask": "reask",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "backoff", "per_attempt_override", "reask",
    ))
    _fields = (
        "order", "max_attempts", "backoff", "classifier", "per_attempt_override", "reask",
    )

    max_attempts: Scalar | None = None
    """``max_attempts`` (llm-provider §5.11, since 0.91.0): Total attempts, including the first."""

    backoff: Backoff | None = None
    """``backoff`` (llm-provider §5.11, since 0.91.0): The backoff between attempts."""

    classifier: Scalar | None = None
    """``classifier`` (llm-provider §5.11): Which errors are transient (`default` or a harness
    name).
    """

    per_attempt_override: Sequence | None = None
    """``per_attempt_override`` (llm-provider §5.11, since 0.91.0): Entry i is a RuntimeConfig
    partial merged onto the base config for retry i.
    """

    reask: LlmReask | None = None
    """``reask`` (llm-provider §5.11, since 0.91.0): Make `structured_output_invalid` retryable,
    appending the model output and a rendered correction.
    """


class LlmReask(Section):
    """The declarative reask builder: a template rendered on `structured_output_invalid` (§5.11)."""

    family: ClassVar[str] = "llm_reask"
    directive_attrs: ClassVar[dict[str, str]] = {
        "template": "template",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "template",
    )

    template: Scalar | None = None
    """``template`` (llm-provider §5.11, since 0.91.0): The correction text, with `{output_content}`
    / `{error_message}` placeholders.
    """


class LlmMockProvider(Section):
    """The mock OpenAI-compatible (or `mapping:`-shaped) provider (§5.11)."""

    family: ClassVar[str] = "llm_mock_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "responses": "responses", "capabilities": "capabilities",
        "health_endpoint": "health_endpoint",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "responses", "capabilities", "health_endpoint",
    ))
    _fields = (
        "order", "responses", "capabilities", "health_endpoint",
    )

    responses: Sequence | None = None
    """``responses`` (llm-provider §5.11, since 0.91.0): Responses consumed one per attempt / call,
    in order; `[]` makes any sent request fail the test.
    """

    capabilities: LlmMockCapabilities | None = None
    """``capabilities`` (llm-provider §3.2 header): The capability flags the bound model declares.
    """

    health_endpoint: LlmHealthEndpoint | None = None
    """``health_endpoint`` (llm-provider §3.2 header): The health-check endpoint `ready()` probes.
    """


class LlmMockResponse(Section):
    """One canned provider response, consumed per attempt / call in order (§5.11, §5.5 `mock_llm`)."""

    family: ClassVar[str] = "llm_mock_response"
    directive_attrs: ClassVar[dict[str, str]] = {
        "status": "status", "body": "body", "headers": "headers", "raises": "raises",
        "connection_failure": "connection_failure", "cancelled": "cancelled",
        "stream_body": "stream_body",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "raises",
    ))
    _fields = (
        "order", "status", "body", "headers", "raises", "connection_failure", "cancelled",
        "stream_body",
    )

    status: Scalar | None = None
    """``status`` (llm-provider §5.11): The HTTP status."""

    body: Scalar | Mapping | Sequence | None = None
    """``body`` (llm-provider §5.11): The response body (the mapping's wire shape)."""

    headers: Mapping | None = None
    """``headers`` (llm-provider §3.2 header): Response headers (e.g. `Retry-After`)."""

    raises: LlmMockRaise | None = None
    """``raises`` (llm-provider §5.5, since 0.116.0): A non-2xx entry's error body, from a literal
    `error_type` and a `message` / `message_repeat` (proposal 0119).
    """

    connection_failure: Scalar | None = None
    """``connection_failure`` (llm-provider §3.2 header): Simulate a network failure instead of
    responding.
    """

    cancelled: Scalar | None = None
    """``cancelled`` (llm-provider §3.2 header): The request is met by the language's cancellation
    signal instead of a response.
    """

    stream_body: Sequence | None = None
    """``stream_body`` (llm-provider §3.2 header): A streamed response: the SSE `data:` chunks in
    order, ending with "[DONE]".
    """


class LlmMockRaise(Section):
    """The exception a non-2xx `mock_llm` entry carries in its OpenAI error body (§5.5): the status still fixes the §7 category. The message is literal (`message`) or synthesized (`message_repeat`): exactly one."""

    family: ClassVar[str] = "llm_mock_raise"
    directive_attrs: ClassVar[dict[str, str]] = {
        "error_type": "error_type", "message": "message", "message_repeat": "message_repeat",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "message_repeat",
    ))
    _fields = (
        "order", "error_type", "message", "message_repeat",
    )

    error_type: Scalar | None = None
    """``error_type`` (llm-provider §5.5, since 0.116.0): The error body's `type`."""

    message: Scalar | None = None
    """``message`` (llm-provider §5.5, since 0.116.0): The error body's literal `message`."""

    message_repeat: MessageRepeat | None = None
    """``message_repeat`` (retrieval-provider §5.15, since 0.116.0): The exception's message
    synthesized instead of written out (an oversized message, e.g. for truncation).
    """


class LlmMockCapabilities(Section):
    """Capability flags the mock provider's bound model declares."""

    family: ClassVar[str] = "llm_mock_capabilities"
    directive_attrs: ClassVar[dict[str, str]] = {
        "supports_image_input": "supports_image_input",
        "supports_native_response_format": "supports_native_response_format",
        "supports_native_structured_output": "supports_native_structured_output",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "supports_image_input", "supports_native_response_format",
        "supports_native_structured_output",
    )

    supports_image_input: Scalar | None = None
    """``supports_image_input`` (llm-provider §3.2 header): The model accepts image blocks."""

    supports_native_response_format: Scalar | None = None
    """``supports_native_response_format`` (llm-provider §3.2 header): The model supports OpenAI
    `response_format` (else the §8.1.5.1 fallback).
    """

    supports_native_structured_output: Scalar | None = None
    """``supports_native_structured_output`` (llm-provider §3.2 header): The model supports the
    mapping's native structured output (else its fallback).
    """


class LlmHealthEndpoint(Section):
    """The mock health-check endpoint a `ready()` probe hits (llm-provider §5)."""

    family: ClassVar[str] = "llm_health_endpoint"
    directive_attrs: ClassVar[dict[str, str]] = {
        "status": "status", "body": "body", "connection_failure": "connection_failure",
        "path": "path",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "status", "body", "connection_failure", "path",
    )

    status: Scalar | None = None
    """``status`` (llm-provider §5.11): The HTTP status."""

    body: Scalar | Mapping | Sequence | None = None
    """``body`` (llm-provider §5.11): The response body (the mapping's wire shape)."""

    connection_failure: Scalar | None = None
    """``connection_failure`` (llm-provider §3.2 header): Simulate a network failure instead of
    responding.
    """

    path: Scalar | None = None
    """``path`` (llm-provider §3.2 header): The probed path (e.g. `/v1/models`)."""


class LlmStreamAttempts(Section):
    """A streamed call-level-retry mock: one chunk sub-stream (or failure marker) per wire attempt."""

    family: ClassVar[str] = "llm_stream_attempts"
    directive_attrs: ClassVar[dict[str, str]] = {
        "wire_attempts": "wire_attempts",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "wire_attempts",
    )

    wire_attempts: Sequence | None = None
    """``wire_attempts`` (observability §3.2 header): One chunk sub-stream per wire attempt;
    `[{error: {status}}]` is a transient failure.
    """


class LlmWireRequestExpectation(Section):
    """One retry-loop attempt's outbound request (`expected.wire_requests[]`, §5.11)."""

    family: ClassVar[str] = "llm_wire_request_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "sampling": "sampling", "appended_messages": "appended_messages",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "sampling", "appended_messages",
    )

    sampling: Mapping | None = None
    """``sampling`` (llm-provider §5.11, since 0.91.0): The attempt's effective sampling fields."""

    appended_messages: Sequence | None = None
    """``appended_messages`` (llm-provider §5.11, since 0.91.0): Messages appended after the
    caller's, in order (`content` exact or `content_contains`).
    """


class WireBytesIdentical(Section):
    """Which `calls:` entries must send byte-identical wire bodies."""

    family: ClassVar[str] = "wire_bytes_identical"
    directive_attrs: ClassVar[dict[str, str]] = {
        "calls": "calls",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "calls",
    )

    calls: Sequence | None = None
    """``calls`` (llm-provider §3.2 header): Indices into `calls:`."""


class TypedObserverDecl(Section):
    """A typed-event collector registration (§5.5)."""

    family: ClassVar[str] = "typed_observer"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "kind": "kind", "filter_event_type": "filter_event_type",
        "include_caller_metadata": "include_caller_metadata",
        "retains_arrival_order": "retains_arrival_order",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "name", "kind", "filter_event_type", "include_caller_metadata",
        "retains_arrival_order",
    )

    name: Scalar | None = None
    """``name`` (graph-engine §5.5, since 0.102.0): The collector's name, referenced under
    `expected.observers`.
    """

    kind: Scalar | None = None
    """``kind`` (graph-engine §5.5, since 0.102.0): The observer kind."""

    filter_event_type: Scalar | None = None
    """``filter_event_type`` (graph-engine §5.5, since 0.102.0): Keep only this event family."""

    include_caller_metadata: Scalar | None = None
    """``include_caller_metadata`` (observability §3.2 header, this directory only): Opt in to
    `caller_invocation_metadata` on LlmCompletionEvent.
    """

    retains_arrival_order: Scalar | None = None
    """``retains_arrival_order`` (observability §3.2 header, this directory only): Keep events in
    arrival order.
    """


class TypedEventAssertions(Section):
    """The assertions on one typed-event collector's storage (`expected.observers.<collector>`, §5.5)."""

    family: ClassVar[str] = "typed_event_assertions"
    directive_attrs: ClassVar[dict[str, str]] = {
        "contains_event": "contains_event", "contains_event_of_type": "contains_event_of_type",
        "contains_exactly_one_event_of_type": "contains_exactly_one_event_of_type",
        "event_count": "event_count", "event_counts": "event_counts",
        "contains_exactly_n_events_of_type": "contains_exactly_n_events_of_type",
        "does_not_contain_event_of_type": "does_not_contain_event_of_type",
        "contains_events_in_order": "contains_events_in_order",
        "every_captured_event_has": "every_captured_event_has",
        "captured_event_field_values_cover": "captured_event_field_values_cover",
        "relative_order_of_events_matching": "relative_order_of_events_matching",
        "sentinel_node_event_emission_is_impl_defined": "sentinel_node_event_emission_is_impl_defined",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "contains_event", "event_count", "event_counts", "contains_exactly_n_events_of_type",
        "contains_events_in_order", "captured_event_field_values_cover",
        "relative_order_of_events_matching",
    ))
    _fields = (
        "order", "contains_event", "contains_event_of_type", "contains_exactly_one_event_of_type",
        "event_count", "event_counts", "contains_exactly_n_events_of_type",
        "does_not_contain_event_of_type", "contains_events_in_order", "every_captured_event_has",
        "captured_event_field_values_cover", "relative_order_of_events_matching",
        "sentinel_node_event_emission_is_impl_defined",
    )

    contains_event: TypedEventMatch | None = None
    """``contains_event`` (graph-engine §5.5, since 0.102.0): The collector holds an event of
    `event_type` whose `fields` match.
    """

    contains_event_of_type: Scalar | None = None
    """``contains_event_of_type`` (graph-engine §5.5, since 0.102.0): The collector holds at least
    one event of this type.
    """

    contains_exactly_one_event_of_type: Scalar | None = None
    """``contains_exactly_one_event_of_type`` (graph-engine §5.5, since 0.102.0): The collector
    holds exactly one event of this type.
    """

    event_count: TypedEventCount | None = None
    """``event_count`` (graph-engine §5.5, since 0.102.0): The collector holds exactly `count`
    events of `event_type` (0: absent).
    """

    event_counts: Sequence | None = None
    """``event_counts`` (graph-engine §5.5, since 0.102.0): Several per-type counts."""

    contains_exactly_n_events_of_type: TypedEventCount | None = None
    """``contains_exactly_n_events_of_type`` (observability §3.2 header, this directory only): The
    collector holds exactly `count` events of `event_type`.
    """

    does_not_contain_event_of_type: Scalar | None = None
    """``does_not_contain_event_of_type`` (observability §3.2 header, this directory only): The
    collector holds no event of this type.
    """

    contains_events_in_order: TypedEventSequence | None = None
    """``contains_events_in_order`` (observability §3.2 header, this directory only): The
    collector's events of one type, in delivery order, match positionally.
    """

    every_captured_event_has: Mapping | None = None
    """``every_captured_event_has`` (observability §3.2 header, this directory only): Every captured
    event carries these field values.
    """

    captured_event_field_values_cover: TypedEventValueCover | None = None
    """``captured_event_field_values_cover`` (observability §3.2 header, this directory only):
    Across the captured events, `field` takes every value in `values`.
    """

    relative_order_of_events_matching: TypedEventRelativeOrder | None = None
    """``relative_order_of_events_matching`` (observability §3.2 header, this directory only): The
    events matching `filter` arrive in `expected_order`.
    """

    sentinel_node_event_emission_is_impl_defined: Scalar | None = None
    """``sentinel_node_event_emission_is_impl_defined`` (observability §3.2 header, this directory
    only): Documents that a sentinel-namespaced NodeEvent MAY also be held; asserts nothing.
    """


class TypedEventMatch(Section):
    """An event of a type whose fields match (`contains_event`, §5.5)."""

    family: ClassVar[str] = "typed_event_match"
    directive_attrs: ClassVar[dict[str, str]] = {
        "event_type": "event_type", "fields": "fields", "fields_absent_keys": "fields_absent_keys",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "event_type", "fields", "fields_absent_keys",
    )

    event_type: Scalar | None = None
    """``event_type`` (graph-engine §5.5, since 0.102.0): The typed event family."""

    fields: Mapping | None = None
    """``fields`` (graph-engine §5.5, since 0.102.0): Field values to match (literal null =
    present-and-null; a mapping = a present record; omitted = unasserted).
    """

    fields_absent_keys: Mapping | None = None
    """``fields_absent_keys`` (observability §3.2 header, this directory only): Per event field: it
    is a mapping and none of the listed keys appear in it (absence, not null).
    """


class TypedEventCount(Section):
    """How many events of one type a collector holds (§5.5)."""

    family: ClassVar[str] = "typed_event_count"
    directive_attrs: ClassVar[dict[str, str]] = {
        "event_type": "event_type", "count": "count",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "event_type", "count",
    )

    event_type: Scalar | None = None
    """``event_type`` (graph-engine §5.5, since 0.102.0): The typed event family."""

    count: Scalar | None = None
    """``count`` (graph-engine §5.5, since 0.102.0): The exact number of events."""


class TypedEventSequence(Section):
    """The collector's events of one type, in delivery order, matched positionally (observability §3.2 header)."""

    family: ClassVar[str] = "typed_event_sequence"
    directive_attrs: ClassVar[dict[str, str]] = {
        "event_type": "event_type", "events": "events",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "event_type", "events",
    )

    event_type: Scalar | None = None
    """``event_type`` (graph-engine §5.5, since 0.102.0): The typed event family."""

    events: Sequence | None = None
    """``events`` (observability §3.2 header): Per event, in order, the fields to match
    (length-exact).
    """


class TypedEventRelativeOrder(Section):
    """The relative arrival order of the events matching a filter (observability §3.2 header)."""

    family: ClassVar[str] = "typed_event_relative_order"
    directive_attrs: ClassVar[dict[str, str]] = {
        "filter": "filter", "expected_order": "expected_order",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "filter", "expected_order",
    )

    filter: Mapping | None = None
    """``filter`` (observability §3.2 header): Field values selecting the events."""

    expected_order: Sequence | None = None
    """``expected_order`` (observability §3.2 header): The selected events' order (`event_type`,
    optional `phase`).
    """


class TypedEventValueCover(Section):
    """Across the captured events, one field's values cover a set (observability §3.2 header)."""

    family: ClassVar[str] = "typed_event_value_cover"
    directive_attrs: ClassVar[dict[str, str]] = {
        "field": "field", "values": "values",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "field", "values",
    )

    field: Scalar | None = None
    """``field`` (observability §3.2 header): The event field."""

    values: Sequence | None = None
    """``values`` (observability §3.2 header): The values it must cover."""


class TeiEmbeddingProvider(Section):
    """A bound TEI EmbeddingProvider (retrieval-provider §8.1, §5.15)."""

    family: ClassVar[str] = "tei_embedding_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "base_url": "base_url", "model": "model", "chunk_size": "chunk_size",
        "query_prefix": "query_prefix", "document_prefix": "document_prefix",
        "input_type_prompt_map": "input_type_prompt_map",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "base_url", "model", "chunk_size", "query_prefix", "document_prefix",
        "input_type_prompt_map",
    )

    base_url: Scalar | None = None
    """``base_url`` (retrieval-provider §5.15, since 0.102.0): The provider origin (the mapping
    appends the path).
    """

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The bound model id."""

    chunk_size: Scalar | None = None
    """``chunk_size`` (retrieval-provider §5.14, since 0.98.0): The per-request item cap for
    chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).
    """

    query_prefix: Scalar | None = None
    """``query_prefix`` (retrieval-provider §5.15, since 0.102.0): Client-side prefix for
    `input_type: query` inputs.
    """

    document_prefix: Scalar | None = None
    """``document_prefix`` (retrieval-provider §5.15, since 0.102.0): Client-side prefix for
    `input_type: document` inputs.
    """

    input_type_prompt_map: Mapping | None = None
    """``input_type_prompt_map`` (retrieval-provider §5.15, since 0.102.0): OA `input_type` → TEI
    `prompt_name`.
    """


class TeiRerankProvider(Section):
    """A bound TEI RerankProvider (retrieval-provider §8.1, §5.15)."""

    family: ClassVar[str] = "tei_rerank_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "base_url": "base_url", "model": "model", "chunk_size": "chunk_size",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "base_url", "model", "chunk_size",
    )

    base_url: Scalar | None = None
    """``base_url`` (retrieval-provider §5.15, since 0.102.0): The provider origin (the mapping
    appends the path).
    """

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The bound model id."""

    chunk_size: Scalar | None = None
    """``chunk_size`` (retrieval-provider §5.14, since 0.98.0): The per-request item cap for
    chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).
    """


class JinaProvider(Section):
    """A bound Jina embedding or rerank provider (retrieval-provider §8.2, §5.15)."""

    family: ClassVar[str] = "jina_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "base_url": "base_url", "model": "model", "api_key": "api_key", "chunk_size": "chunk_size",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "base_url", "model", "api_key", "chunk_size",
    )

    base_url: Scalar | None = None
    """``base_url`` (retrieval-provider §5.15, since 0.102.0): The provider origin (the mapping
    appends the path).
    """

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The bound model id."""

    api_key: Scalar | None = None
    """``api_key`` (retrieval-provider §5.15, since 0.102.0): Sent as `Authorization: Bearer <key>`.
    """

    chunk_size: Scalar | None = None
    """``chunk_size`` (retrieval-provider §5.14, since 0.98.0): The per-request item cap for
    chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).
    """


class OpenaiEmbeddingProvider(Section):
    """A bound OpenAI-compatible EmbeddingProvider (retrieval-provider §8.3, §5.15)."""

    family: ClassVar[str] = "openai_embedding_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "base_url": "base_url", "model": "model", "api_key": "api_key", "chunk_size": "chunk_size",
        "query_prefix": "query_prefix", "document_prefix": "document_prefix",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "base_url", "model", "api_key", "chunk_size", "query_prefix", "document_prefix",
    )

    base_url: Scalar | None = None
    """``base_url`` (retrieval-provider §5.15, since 0.102.0): The provider origin (the mapping
    appends the path).
    """

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The bound model id."""

    api_key: Scalar | None = None
    """``api_key`` (retrieval-provider §5.15, since 0.102.0): Sent as `Authorization: Bearer <key>`.
    """

    chunk_size: Scalar | None = None
    """``chunk_size`` (retrieval-provider §5.14, since 0.98.0): The per-request item cap for
    chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).
    """

    query_prefix: Scalar | None = None
    """``query_prefix`` (retrieval-provider §5.15, since 0.102.0): Client-side prefix for
    `input_type: query` inputs.
    """

    document_prefix: Scalar | None = None
    """``document_prefix`` (retrieval-provider §5.15, since 0.102.0): Client-side prefix for
    `input_type: document` inputs.
    """


class CohereProvider(Section):
    """A bound Cohere embedding or rerank provider (retrieval-provider §8.4, §5.15)."""

    family: ClassVar[str] = "cohere_provider"
    directive_attrs: ClassVar[dict[str, str]] = {
        "base_url": "base_url", "model": "model", "api_key": "api_key", "chunk_size": "chunk_size",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "base_url", "model", "api_key", "chunk_size",
    )

    base_url: Scalar | None = None
    """``base_url`` (retrieval-provider §5.15, since 0.102.0): The provider origin (the mapping
    appends the path).
    """

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The bound model id."""

    api_key: Scalar | None = None
    """``api_key`` (retrieval-provider §5.15, since 0.102.0): Sent as `Authorization: Bearer <key>`.
    """

    chunk_size: Scalar | None = None
    """``chunk_size`` (retrieval-provider §5.14, since 0.98.0): The per-request item cap for
    chunk-and-stitch (a real cap on TEI; a test-only override of a fixed vendor cap).
    """


class EmbedCall(Section):
    """`calls_embed`: the node calls `EmbeddingProvider.embed()` (§5.15)."""

    family: ClassVar[str] = "embed_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "input": "input", "config": "config", "model": "model",
        "stores_response_in": "stores_response_in",
        "input_from_rendered_prompt": "input_from_rendered_prompt",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "config",
    ))
    _fields = (
        "order", "input", "config", "model", "stores_response_in", "input_from_rendered_prompt",
    )

    input: Sequence | None = None
    """``input`` (retrieval-provider §5.15, since 0.102.0): The input strings."""

    config: EmbedConfig | None = None
    """``config`` (retrieval-provider §5.15, since 0.102.0): The call's EmbeddingRuntimeConfig."""

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The model the call names (model-binding
    errors).
    """

    stores_response_in: Scalar | None = None
    """``stores_response_in`` (retrieval-provider §5.15, since 0.102.0): The state field receiving
    the response.
    """

    input_from_rendered_prompt: Scalar | None = None
    """``input_from_rendered_prompt`` (observability §3.2 header, this directory only): Embed the
    most recently rendered prompt's text as a one-element input.
    """


class EmbedConfig(Section):
    """An EmbeddingRuntimeConfig (retrieval-provider §6)."""

    family: ClassVar[str] = "embed_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "dimensions": "dimensions", "input_type": "input_type", "extras": "extras",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "dimensions", "input_type", "extras",
    )

    dimensions: Scalar | None = None
    """``dimensions`` (retrieval-provider §5.15, since 0.102.0): Requested vector dimensionality."""

    input_type: Scalar | None = None
    """``input_type`` (retrieval-provider §5.15, since 0.102.0): The OA input type (`query`,
    `document`, …).
    """

    extras: Mapping | None = None
    """``extras`` (retrieval-provider §5.15, since 0.102.0): Undeclared fields passed through to the
    request body (retrieval-provider §6).
    """


class RerankCall(Section):
    """`calls_rerank`: the node calls `RerankProvider.rerank()` (§5.15)."""

    family: ClassVar[str] = "rerank_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "model": "model", "stores_response_in": "stores_response_in", "query": "query",
        "documents": "documents", "top_k": "top_k", "config": "config",
        "query_from_rendered_prompt": "query_from_rendered_prompt",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "config",
    ))
    _fields = (
        "order", "model", "stores_response_in", "query", "documents", "top_k", "config",
        "query_from_rendered_prompt",
    )

    model: Scalar | None = None
    """``model`` (retrieval-provider §5.15, since 0.102.0): The model the call names (model-binding
    errors).
    """

    stores_response_in: Scalar | None = None
    """``stores_response_in`` (retrieval-provider §5.15, since 0.102.0): The state field receiving
    the response.
    """

    query: Scalar | None = None
    """``query`` (retrieval-provider §5.15, since 0.102.0): The query."""

    documents: Sequence | None = None
    """``documents`` (retrieval-provider §5.15, since 0.102.0): The documents to rank."""

    top_k: Scalar | None = None
    """``top_k`` (retrieval-provider §5.15, since 0.102.0): Return at most this many results."""

    config: RerankConfig | None = None
    """``config`` (retrieval-provider §5.15, since 0.102.0): The call's RerankRuntimeConfig."""

    query_from_rendered_prompt: Scalar | None = None
    """``query_from_rendered_prompt`` (observability §3.2 header, this directory only): Use the most
    recently rendered prompt's text as the query.
    """


class RerankConfig(Section):
    """A RerankRuntimeConfig (retrieval-provider §6)."""

    family: ClassVar[str] = "rerank_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "extras": "extras", "return_documents": "return_documents",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "extras", "return_documents",
    )

    extras: Mapping | None = None
    """``extras`` (retrieval-provider §5.15, since 0.102.0): Undeclared fields passed through to the
    request body (retrieval-provider §6).
    """

    return_documents: Scalar | None = None
    """``return_documents`` (retrieval-provider §5.15, since 0.102.0): Ask the provider to echo each
    document.
    """


class ReadyCall(Section):
    """`calls_ready`: the node calls the bound provider's `ready()` (retrieval-provider §3 / §5)."""

    family: ClassVar[str] = "ready_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "provider": "provider", "model": "model",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "provider", "model",
    )

    provider: Scalar | None = None
    """``provider`` (retrieval-provider §3.2 header): Which bound provider's `ready()` to call."""

    model: Scalar | None = None
    """``model`` (retrieval-provider §3.2 header): The model the provider is re-bound to for the
    call.
    """


class RetrievalMockResponse(Section):
    """One mock embedding / rerank response, dispatched per call (per request when chunking) in arrival order (§5.15)."""

    family: ClassVar[str] = "retrieval_mock_response"
    directive_attrs: ClassVar[dict[str, str]] = {
        "status": "status", "body": "body", "when_request": "when_request", "raises": "raises",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "raises",
    ))
    _fields = (
        "order", "status", "body", "when_request", "raises",
    )

    status: Scalar | None = None
    """``status`` (retrieval-provider §5.15, since 0.102.0): The HTTP status (non-2xx: the §7 error
    path).
    """

    body: Scalar | Mapping | Sequence | None = None
    """``body`` (retrieval-provider §5.15, since 0.102.0): The body: the vendor's wire shape under
    `mapping:`, else the harness stand-in.
    """

    when_request: Mapping | None = None
    """``when_request`` (retrieval-provider §5.15): The JSON body of the one request this entry
    answers, whatever its arrival position (every entry of the list or none).
    """

    raises: RetrievalMockRaise | None = None
    """``raises`` (retrieval-provider §5.15, since 0.102.0): Literal `error_type` / `message` for
    the raised exception (non-2xx entries only).
    """


class RetrievalMockRaise(Section):
    """Literal exception values for a non-2xx mock entry; the status still fixes the §7 category (§5.15). The message is literal (`message`) or synthesized (`message_repeat`): exactly one."""

    family: ClassVar[str] = "retrieval_mock_raise"
    directive_attrs: ClassVar[dict[str, str]] = {
        "error_type": "error_type", "message": "message", "message_repeat": "message_repeat",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "message_repeat",
    ))
    _fields = (
        "order", "error_type", "message", "message_repeat",
    )

    error_type: Scalar | None = None
    """``error_type`` (retrieval-provider §5.15, since 0.102.0): The exception's literal error_type.
    """

    message: Scalar | None = None
    """``message`` (retrieval-provider §5.15, since 0.102.0): The exception's literal message (the
    event's error_message).
    """

    message_repeat: MessageRepeat | None = None
    """``message_repeat`` (retrieval-provider §5.15, since 0.116.0): The exception's message
    synthesized instead of written out (an oversized message, e.g. for truncation).
    """


class MessageRepeat(Section):
    """A synthesized exception message: `char` repeated as many whole times as fit in `bytes` UTF-8 bytes (rounded down, §5.15)."""

    family: ClassVar[str] = "message_repeat"
    directive_attrs: ClassVar[dict[str, str]] = {
        "char": "char", "bytes": "bytes",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "char", "bytes",
    )

    char: Scalar | None = None
    """``char`` (retrieval-provider §5.15, since 0.116.0): The repeated character (may be
    multi-byte).
    """

    bytes: Scalar | None = None
    """``bytes`` (retrieval-provider §5.15, since 0.116.0): The byte budget: the largest whole
    number of `char` repetitions fitting in it.
    """


class PromptBackendDecl(Section):
    """A mock PromptBackend preloaded with prompts (§3.2 header; §6.8 caching), or the runtime's own filesystem or Langfuse backend."""

    family: ClassVar[str] = "prompt_backend"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "prompts": "prompts", "simulate_unavailable": "simulate_unavailable",
        "caching": "caching", "filesystem_files": "filesystem_files",
        "filesystem_config_source": "filesystem_config_source",
        "langfuse_prompts": "langfuse_prompts",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "prompts",
    ))
    _fields = (
        "order", "name", "prompts", "simulate_unavailable", "caching", "filesystem_files",
        "filesystem_config_source", "langfuse_prompts",
    )

    name: Scalar | None = None
    """``name`` (prompt-management §3.2 header, since 0.15.0, this directory only): The backend's
    name (targets and managers refer to it).
    """

    prompts: Sequence | None = None
    """``prompts`` (prompt-management §3.2 header, since 0.15.0, this directory only): The prompts
    it serves.
    """

    simulate_unavailable: Scalar | None = None
    """``simulate_unavailable`` (prompt-management §3.2 header, since 0.15.0, this directory only):
    Every fetch raises `prompt_store_unavailable` (an infrastructure failure).
    """

    caching: Scalar | None = None
    """``caching`` (prompt-management §6.8, since 0.63.0, this directory only): The caching prompt
    backend: caches by (name, label), counts source reads, has a controllable clock.
    """

    filesystem_files: Mapping | None = None
    """``filesystem_files`` (prompt-management prompt-management §5, this directory only): The
    runtime's own filesystem PromptBackend, over a directory holding these files (templates
    `<label>/<name>.j2`, sidecars `<label>/<name>.config.json`).
    """

    filesystem_config_source: Scalar | None = None
    """``filesystem_config_source`` (prompt-management prompt-management §5, this directory only):
    Where that filesystem backend sources `sampling` and `token_budget` (default `none`).
    """

    langfuse_prompts: Sequence | None = None
    """``langfuse_prompts`` (prompt-management prompt-management §5, this directory only): The
    runtime's own LangfusePromptBackend, over a double of the Langfuse SDK client serving these
    prompts: `{name, label, type: text | chat, prompt, version, config?}` (a chat `prompt` is a list
    of `{role, content}` / `{type: placeholder, name}`). The double keeps the SDK's client-side
    cache by (name, label) on the backend's controllable clock (`advance_clock`):
    `cache_ttl_seconds` 0 reads the source, N > 0 serves an entry younger than N seconds, absent the
    SDK default (60 s).
    """


class PromptRecord(Section):
    """One Prompt a mock backend serves: Text-prompt (`template`) or Chat-prompt (`chat_template`)."""

    family: ClassVar[str] = "prompt_record"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "label": "label", "version": "version", "template": "template",
        "chat_template": "chat_template", "template_hash": "template_hash", "sampling": "sampling",
        "observability_entities": "observability_entities", "token_budget": "token_budget",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "name", "label", "version", "template", "chat_template", "template_hash",
        "sampling", "observability_entities", "token_budget",
    )

    name: Scalar | None = None
    """``name`` (prompt-management prompt-management §3, since 0.15.0, this directory only): The
    prompt's name.
    """

    label: Scalar | None = None
    """``label`` (prompt-management prompt-management §3, since 0.15.0, this directory only): The
    label it is served under.
    """

    version: Scalar | None = None
    """``version`` (prompt-management prompt-management §3, since 0.15.0, this directory only): The
    prompt's version.
    """

    template: Scalar | None = None
    """``template`` (prompt-management prompt-management §3, since 0.15.0, this directory only): A
    Text-prompt's template.
    """

    chat_template: Sequence | None = None
    """``chat_template`` (prompt-management prompt-management §3.1, since 0.38.0, this directory
    only): A Chat-prompt's segments: `{role, content}` (text or content blocks) or `{placeholder:
    <name>}`.
    """

    template_hash: Scalar | None = None
    """``template_hash`` (prompt-management prompt-management §3, since 0.15.0, this directory
    only): The template's content hash, as served.
    """

    sampling: Mapping | None = None
    """``sampling`` (prompt-management prompt-management §3, since 0.26.0, this directory only): The
    per-prompt SamplingConfig.
    """

    observability_entities: Mapping | None = None
    """``observability_entities`` (prompt-management prompt-management §3, since 0.26.0, this
    directory only): Backend-keyed observability references (e.g. a `langfuse_prompt` sentinel).
    """

    token_budget: Mapping | None = None
    """``token_budget`` (prompt-management prompt-management §5, since 0.78.0, this directory only):
    The raw sourced token-budget config; the backend parses it, dropping unrecognized keys.
    """


class PromptManagerDecl(Section):
    """A PromptManager over the declared backends, in order (prompt-management §6)."""

    family: ClassVar[str] = "prompt_manager"
    directive_attrs: ClassVar[dict[str, str]] = {
        "backends": "backends", "label_resolver_ref": "label_resolver_ref",
        "default_cache_ttl_seconds": "default_cache_ttl_seconds",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "backends", "label_resolver_ref", "default_cache_ttl_seconds",
    )

    backends: Sequence | None = None
    """``backends`` (prompt-management prompt-management §9, since 0.15.0, this directory only): The
    backends it composes, in fallback order (default: all declared backends, in order).
    """

    label_resolver_ref: Scalar | None = None
    """``label_resolver_ref`` (prompt-management prompt-management §7, since 0.26.0, this directory
    only): The fixture-level label resolver it consults (`label_resolver` /
    `tertiary_label_resolver`).
    """

    default_cache_ttl_seconds: Scalar | None = None
    """``default_cache_ttl_seconds`` (prompt-management §6.8, since 0.79.0, this directory only):
    The manager's construction-time default `cache_ttl_seconds` (prompt-management §6).
    """


class LabelResolverDecl(Section):
    """A mapping-backed LabelResolver (prompt-management §7)."""

    family: ClassVar[str] = "label_resolver"
    directive_attrs: ClassVar[dict[str, str]] = {
        "mapping": "mapping",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "mapping",
    )

    mapping: Mapping | None = None
    """``mapping`` (prompt-management prompt-management §7, since 0.26.0, this directory only):
    Per-name labels, plus an optional `default`.
    """


class PromptCall(Section):
    """One operation against a backend, a manager or the PromptGroup constructor."""

    family: ClassVar[str] = "prompt_call"
    directive_attrs: ClassVar[dict[str, str]] = {
        "target": "target", "operation": "operation", "name": "name", "label": "label",
        "variables": "variables", "placeholders": "placeholders",
        "fetched_prompt": "fetched_prompt", "fetched_prompt_ref": "fetched_prompt_ref",
        "capture_as": "capture_as", "cache_ttl_seconds": "cache_ttl_seconds", "seconds": "seconds",
        "group_name": "group_name", "members_refs": "members_refs", "expected": "expected",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "target", "fetched_prompt", "expected",
    ))
    _fields = (
        "order", "target", "operation", "name", "label", "variables", "placeholders",
        "fetched_prompt", "fetched_prompt_ref", "capture_as", "cache_ttl_seconds", "seconds",
        "group_name", "members_refs", "expected",
    )

    target: Scalar | PromptCallTarget | None = None
    """``target`` (prompt-management §3.2 header, since 0.15.0, this directory only): What the call
    addresses: a manager, `{backend: <name>}`, `{manager: true}`, or `construct_prompt_group`.
    """

    operation: Scalar | None = None
    """``operation`` (prompt-management §3.2 header, since 0.15.0, this directory only): The
    operation (`advance_clock` advances a caching backend's clock, §6.8).
    """

    name: Scalar | None = None
    """``name`` (prompt-management prompt-management §5, since 0.15.0, this directory only): fetch /
    get: the prompt name.
    """

    label: Scalar | None = None
    """``label`` (prompt-management prompt-management §6, since 0.15.0, this directory only): fetch
    / get: the label (absent: the label resolver or `production`).
    """

    variables: Mapping | None = None
    """``variables`` (prompt-management prompt-management §6, since 0.15.0, this directory only):
    render / get: the template variables.
    """

    placeholders: Mapping | None = None
    """``placeholders`` (prompt-management prompt-management §6, since 0.38.0, this directory only):
    render: the messages injected at each Chat-prompt placeholder slot.
    """

    fetched_prompt: PromptRef | None = None
    """``fetched_prompt`` (prompt-management §3.2 header, since 0.15.0, this directory only):
    render: fetch this prompt first, then render it.
    """

    fetched_prompt_ref: Scalar | None = None
    """``fetched_prompt_ref`` (prompt-management §3.2 header, since 0.15.0, this directory only):
    render: the prompt captured by an earlier call's `capture_as`.
    """

    capture_as: Scalar | None = None
    """``capture_as`` (prompt-management §3.2 header, since 0.15.0, this directory only): Keep the
    call's result under this name for later calls and `expected`.
    """

    cache_ttl_seconds: Scalar | None = None
    """``cache_ttl_seconds`` (prompt-management §6.8, since 0.63.0, this directory only): fetch /
    get: the per-call cache control (0 bypasses any cache); absent, the argument is not passed.
    """

    seconds: Scalar | None = None
    """``seconds`` (prompt-management §6.8, since 0.63.0, this directory only): advance_clock:
    seconds to advance the caching backend's clock.
    """

    group_name: Scalar | None = None
    """``group_name`` (prompt-management prompt-management §10, since 0.75.0, this directory only):
    construct_prompt_group: the group's name.
    """

    members_refs: Sequence | None = None
    """``members_refs`` (prompt-management prompt-management §10, since 0.75.0, this directory
    only): construct_prompt_group: the captured members, in order.
    """

    expected: PromptCallExpected | None = None
    """``expected`` (prompt-management §3.2 header, since 0.15.0, this directory only): What this
    call returns or raises.
    """


class PromptCallTarget(Section):
    """A structured call target: a named backend, or the fixture's manager."""

    family: ClassVar[str] = "prompt_call_target"
    directive_attrs: ClassVar[dict[str, str]] = {
        "backend": "backend", "manager": "manager",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "backend", "manager",
    )

    backend: Scalar | None = None
    """``backend`` (prompt-management §3.2 header, since 0.15.0, this directory only): A declared
    backend, called directly.
    """

    manager: Scalar | None = None
    """``manager`` (prompt-management §6.8, since 0.79.0, this directory only): The fixture's
    manager (the §6 cache-TTL precedence chain).
    """


class PromptRef(Section):
    """The (name, label) of a prompt to fetch before rendering."""

    family: ClassVar[str] = "prompt_ref"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "label": "label",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "name", "label",
    )

    name: Scalar | None = None
    """``name`` (prompt-management prompt-management §5, since 0.15.0, this directory only): The
    prompt name.
    """

    label: Scalar | None = None
    """``label`` (prompt-management prompt-management §5, since 0.15.0, this directory only): The
    label.
    """


class PromptCallExpected(Section):
    """What one call returns or raises."""

    family: ClassVar[str] = "prompt_call_expected"
    directive_attrs: ClassVar[dict[str, str]] = {
        "prompt": "prompt", "prompt_result": "prompt_result", "raises": "raises",
        "backend_call_counts": "backend_call_counts",
        "secondary_backend_call_count": "secondary_backend_call_count",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "raises",
    ))
    _fields = (
        "order", "prompt", "prompt_result", "raises", "backend_call_counts",
        "secondary_backend_call_count",
    )

    prompt: Mapping | None = None
    """``prompt`` (prompt-management prompt-management §3, since 0.15.0, this directory only): The
    fetched Prompt (fields listed are compared).
    """

    prompt_result: Mapping | None = None
    """``prompt_result`` (prompt-management prompt-management §4, since 0.15.0, this directory
    only): The rendered PromptResult (with `rendered_hash_present` /
    `rendered_hash_non_empty_string` matchers).
    """

    raises: ErrorExpectation | None = None
    """``raises`` (prompt-management prompt-management §11, since 0.15.0, this directory only): The
    call raises an error of this category, carrying these fields.
    """

    backend_call_counts: Mapping | None = None
    """``backend_call_counts`` (prompt-management prompt-management §9, since 0.15.0, this directory
    only): How many times each named backend's `fetch` was invoked (the §9 fallback walk; a
    catalogue predicate).
    """

    secondary_backend_call_count: Scalar | None = None
    """``secondary_backend_call_count`` (prompt-management prompt-management §9, since 0.15.0, this
    directory only): How many times the backend named `secondary` was fetched from
    (`<backend>_backend_call_count`, a catalogue predicate).
    """


class PromptBackendState(Section):
    """Assertions on a caching backend after all calls (§6.8)."""

    family: ClassVar[str] = "prompt_backend_state"
    directive_attrs: ClassVar[dict[str, str]] = {
        "source_read_count": "source_read_count",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "source_read_count",
    )

    source_read_count: Scalar | None = None
    """``source_read_count`` (prompt-management §6.8, since 0.63.0, this directory only): Fetches
    that reached the backing store (not the cache).
    """


class SharedPrefixExpectation(Section):
    """Two captured renders share a byte-identical message prefix (prompt-management §13)."""

    family: ClassVar[str] = "shared_prefix_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "between": "between", "message_index": "message_index", "prefix": "prefix",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "between", "message_index", "prefix",
    )

    between: Sequence | None = None
    """``between`` (prompt-management §3.2 header, since 0.39.0, this directory only): The two
    captures compared.
    """

    message_index: Scalar | None = None
    """``message_index`` (prompt-management §3.2 header, since 0.39.0, this directory only): The
    message compared.
    """

    prefix: Scalar | None = None
    """``prefix`` (prompt-management §3.2 header, since 0.39.0, this directory only): The shared
    prefix of its content.
    """


class MessageEqualExpectation(Section):
    """Two captured renders have byte-identical messages at these indices (prompt-management §13)."""

    family: ClassVar[str] = "message_equal_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "between": "between", "message_indices": "message_indices",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "between", "message_indices",
    )

    between: Sequence | None = None
    """``between`` (prompt-management §3.2 header, since 0.39.0, this directory only): The two
    captures compared.
    """

    message_indices: Sequence | None = None
    """``message_indices`` (prompt-management §3.2 header, since 0.39.0, this directory only): The
    messages compared.
    """


class SessionStoreConfig(Section):
    """A SessionStore backend with options (§5.6, sessions §5)."""

    family: ClassVar[str] = "session_store_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "type": "type", "behavior": "behavior",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "behavior",
    ))
    _fields = (
        "order", "type", "behavior",
    )

    type: Scalar | None = None
    """``type`` (sessions §5.6, since 0.50.0): The backend (`in_memory`)."""

    behavior: SessionStoreBehavior | None = None
    """``behavior`` (harness-chat §3.2 header, since 0.50.0, this directory only): Failures the
    harness store injects.

    ``behavior`` (harness §3.2 header, since 0.49.0, this directory only): Failures the harness
    store injects.
    """


class SessionStoreBehavior(Section):
    """Synthetic failures the harness store injects (sessions §10)."""

    family: ClassVar[str] = "session_store_behavior"
    directive_attrs: ClassVar[dict[str, str]] = {
        "load_raises": "load_raises",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "load_raises",
    )

    load_raises: Scalar | None = None
    """``load_raises`` (harness-chat §3.2 header, since 0.50.0, this directory only): `load()`
    raises this sessions §10 error category.

    ``load_raises`` (harness §3.2 header, since 0.49.0, this directory only): `load()` raises this
    sessions §10 error category.
    """


class SeededSession(Section):
    """A session record saved in the store before the run (sessions §5, §7)."""

    family: ClassVar[str] = "seeded_session"
    directive_attrs: ClassVar[dict[str, str]] = {
        "schema_version": "schema_version", "state": "state",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "schema_version", "state",
    )

    schema_version: Scalar | None = None
    """``schema_version`` (sessions §3.2 header, since 0.33.0, this directory only): The seeded
    record's schema version.
    """

    state: Mapping | None = None
    """``state`` (sessions §3.2 header, since 0.33.0, this directory only): The seeded record's
    state.
    """


class SessionStateProjection(Section):
    """The SessionState projection: which state fields persist across invokes (sessions §4.2)."""

    family: ClassVar[str] = "session_state_projection"
    directive_attrs: ClassVar[dict[str, str]] = {
        "fields": "fields",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "fields",
    )

    fields: Sequence | None = None
    """``fields`` (sessions §3.2 header, since 0.33.0, this directory only): The state fields
    persisted across invokes.
    """


class SessionRecordAssertions(Section):
    """Assertions on the session record written to the store (§5.6)."""

    family: ClassVar[str] = "session_record_assertions"
    directive_attrs: ClassVar[dict[str, str]] = {
        "state": "state", "excludes_fields": "excludes_fields", "schema_version": "schema_version",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "state", "excludes_fields", "schema_version",
    )

    state: Mapping | None = None
    """``state`` (sessions §5.6, since 0.48.0): The saved session state."""

    excludes_fields: Sequence | None = None
    """``excludes_fields`` (sessions §3.2 header, since 0.33.0, this directory only): Fields absent
    from the saved record (outside the projection).
    """

    schema_version: Scalar | BindingToken | FormatToken | None = None
    """``schema_version`` (sessions §3.2 header, since 0.33.0, this directory only): The saved
    record's schema version (after a session migration, sessions §7).
    """


class SessionStoreAfter(Section):
    """A `load()` against the store after the run, and what it returns (sessions §5, §6)."""

    family: ClassVar[str] = "session_store_after"
    directive_attrs: ClassVar[dict[str, str]] = {
        "load_returns_none_for_session_id": "load_returns_none_for_session_id",
        "load_returns_for_session_id": "load_returns_for_session_id",
        "loaded_state": "loaded_state", "loaded_schema_version": "loaded_schema_version",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "load_returns_none_for_session_id", "load_returns_for_session_id", "loaded_state",
        "loaded_schema_version",
    )

    load_returns_none_for_session_id: Scalar | None = None
    """``load_returns_none_for_session_id`` (sessions §3.2 header, since 0.33.0, this directory
    only): `load(<id>)` returns no record.
    """

    load_returns_for_session_id: Scalar | None = None
    """``load_returns_for_session_id`` (sessions §3.2 header, since 0.33.0, this directory only):
    `load(<id>)` returns a record (asserted by the `loaded_*` keys).
    """

    loaded_state: Mapping | None = None
    """``loaded_state`` (sessions §3.2 header, since 0.33.0, this directory only): The loaded
    record's state.
    """

    loaded_schema_version: Scalar | BindingToken | FormatToken | None = None
    """``loaded_schema_version`` (sessions §3.2 header, since 0.33.0, this directory only): The
    loaded record's schema version.
    """


class SignalDescriptor(Section):
    """A suspension signal descriptor (suspension §3)."""

    family: ClassVar[str] = "descriptor"
    directive_attrs: ClassVar[dict[str, str]] = {
        "signal_id": "signal_id", "metadata": "metadata",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "signal_id", "metadata",
    )

    signal_id: Scalar | None = None
    """``signal_id`` (suspension §5.1, since 0.48.0): The signal the suspension waits for."""

    metadata: Mapping | None = None
    """``metadata`` (suspension §5.1, since 0.48.0): Descriptor metadata."""


class DescriptorExpectation(Section):
    """The signal descriptor expected on a suspended outcome: exact `metadata` or `metadata_includes` (§5.8)."""

    family: ClassVar[str] = "descriptor_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "signal_id": "signal_id", "metadata": "metadata", "metadata_includes": "metadata_includes",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "signal_id", "metadata", "metadata_includes",
    )

    signal_id: Scalar | BindingToken | FormatToken | None = None
    """``signal_id`` (suspension §5.8, since 0.48.0): The descriptor's signal id."""

    metadata: Mapping | None = None
    """``metadata`` (suspension §5.8, since 0.48.0): The descriptor's metadata, exactly."""

    metadata_includes: Mapping | None = None
    """``metadata_includes`` (suspension §5.8, since 0.48.0): Keys the descriptor's metadata
    contains at least (e.g. the engine-annotated `fan_out_index` / `branch_name`).
    """


class ConditionalSuspend(Section):
    """Suspend only in the fan-out instance whose item index matches (§5.1, suspension §8.2)."""

    family: ClassVar[str] = "conditional_suspend"
    directive_attrs: ClassVar[dict[str, str]] = {
        "suspend_on_item_index": "suspend_on_item_index", "descriptor": "descriptor",
        "on_other_indices": "on_other_indices",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "descriptor", "on_other_indices",
    ))
    _fields = (
        "order", "suspend_on_item_index", "descriptor", "on_other_indices",
    )

    suspend_on_item_index: Scalar | None = None
    """``suspend_on_item_index`` (suspension §5.1, since 0.48.0): The instance (item index) that
    calls suspend().
    """

    descriptor: SignalDescriptor | None = None
    """``descriptor`` (suspension §5.1, since 0.48.0): The descriptor the matching instance suspends
    with.
    """

    on_other_indices: NodeDecl | None = None
    """``on_other_indices`` (suspension §5.1, since 0.48.0): Node directives the other instances run
    (typically `update_from_field`); a sibling of `conditional_suspend` or, per §5.1, inside it.
    """


class CheckpointerAssertions(Section):
    """Assertions on the checkpointer backend after the invocation (§5.6, suspension §8.5)."""

    family: ClassVar[str] = "checkpointer_assertions"
    directive_attrs: ClassVar[dict[str, str]] = {
        "paused_invocation_record_exists": "paused_invocation_record_exists",
        "record_type": "record_type",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "paused_invocation_record_exists", "record_type",
    )

    paused_invocation_record_exists: Scalar | None = None
    """``paused_invocation_record_exists`` (suspension §5.6, since 0.48.0): A paused-invocation
    record was written to the configured backend.
    """

    record_type: Scalar | None = None
    """``record_type`` (suspension §5.6, since 0.48.0): The stored record's type discriminator
    (`suspended` for a paused-invocation record).
    """


class HarnessConfig(Section):
    """The harness under test: its mode and signal coordinator (harness §2)."""

    family: ClassVar[str] = "harness_config"
    directive_attrs: ClassVar[dict[str, str]] = {
        "mode": "mode", "signal_coordinator": "signal_coordinator",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "mode", "signal_coordinator",
    )

    mode: Scalar | None = None
    """``mode`` (harness §3.2 header, since 0.49.0): Sessioned (resolves a session id per
    transmission) or stateless (never does; harness §3.0).
    """

    signal_coordinator: Scalar | None = None
    """``signal_coordinator`` (harness §3.2 header, since 0.49.0): The signal coordinator backend
    (`in_memory`; harness §6).
    """


class Transmission(Section):
    """One synthetic inbound transmission the harness dispatches (harness §3)."""

    family: ClassVar[str] = "transmission"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "payload": "payload", "dispatch_intent": "dispatch_intent",
        "signal_payload": "signal_payload", "expected": "expected",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "expected",
    ))
    _fields = (
        "order", "name", "payload", "dispatch_intent", "signal_payload", "expected",
    )

    name: Scalar | None = None
    """``name`` (harness §3.2 header, since 0.49.0, this directory only): The transmission's name
    (placeholders refer to it).
    """

    payload: Mapping | None = None
    """``payload`` (harness §3.2 header, since 0.49.0, this directory only): The transport payload
    the harness receives.
    """

    dispatch_intent: Scalar | None = None
    """``dispatch_intent`` (harness harness §3.4, since 0.49.0, this directory only): The caller
    intent the harness classifies the transmission by.
    """

    signal_payload: Mapping | None = None
    """``signal_payload`` (harness harness §3.3, since 0.49.0, this directory only): The payload a
    signal-resume transmission delivers.
    """

    expected: TransmissionExpected | None = None
    """``expected`` (harness §3.2 header, since 0.49.0, this directory only): What the harness did
    with the transmission.
    """


class TransmissionExpected(Section):
    """What the harness did with one transmission (harness §3–§7)."""

    family: ClassVar[str] = "transmission_expected"
    directive_attrs: ClassVar[dict[str, str]] = {
        "dispatch_path": "dispatch_path", "invoke_args": "invoke_args",
        "invoke_outcome": "invoke_outcome", "final_state": "final_state",
        "descriptor": "descriptor", "descriptor_read_from_outcome": "descriptor_read_from_outcome",
        "signal_subscription_registered": "signal_subscription_registered",
        "harness_did_not_block": "harness_did_not_block",
        "harness_signal_subscription_registered": "harness_signal_subscription_registered",
        "harness_auto_retried": "harness_auto_retried",
        "signal_correlation_resolved": "signal_correlation_resolved",
        "resolved_to_invocation_id": "resolved_to_invocation_id",
        "error_category": "error_category", "error_bucket": "error_bucket",
        "outbound_shape": "outbound_shape",
        "outbound_payload_includes": "outbound_payload_includes",
        "session_store_load_calls": "session_store_load_calls",
        "session_store_save_calls": "session_store_save_calls",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "invoke_args", "descriptor",
    ))
    _fields = (
        "order", "dispatch_path", "invoke_args", "invoke_outcome", "final_state", "descriptor",
        "descriptor_read_from_outcome", "signal_subscription_registered", "harness_did_not_block",
        "harness_signal_subscription_registered", "harness_auto_retried",
        "signal_correlation_resolved", "resolved_to_invocation_id", "error_category",
        "error_bucket", "outbound_shape", "outbound_payload_includes", "session_store_load_calls",
        "session_store_save_calls",
    )

    dispatch_path: Scalar | None = None
    """``dispatch_path`` (harness harness §3.4, since 0.49.0, this directory only): The inbound
    dispatch path taken.
    """

    invoke_args: HarnessInvokeArgs | None = None
    """``invoke_args`` (harness harness §3, since 0.49.0, this directory only): The arguments passed
    to invoke().
    """

    invoke_outcome: Scalar | None = None
    """``invoke_outcome`` (harness harness §5, since 0.49.0, this directory only): The outcome
    invoke() returned.
    """

    final_state: Mapping | None = None
    """``final_state`` (harness harness §5.1, since 0.49.0, this directory only): The invocation's
    final state.
    """

    descriptor: DescriptorExpectation | None = None
    """``descriptor`` (harness harness §5.3, since 0.49.0, this directory only): The signal
    descriptor on the suspended outcome.
    """

    descriptor_read_from_outcome: Scalar | None = None
    """``descriptor_read_from_outcome`` (harness harness §5.3, since 0.49.0, this directory only):
    The harness read the descriptor from the outcome.
    """

    signal_subscription_registered: Scalar | None = None
    """``signal_subscription_registered`` (harness harness §5.3, since 0.49.0, this directory only):
    The harness registered a signal subscription with the coordinator.
    """

    harness_did_not_block: Scalar | None = None
    """``harness_did_not_block`` (harness harness §5.3, since 0.49.0, this directory only): The
    harness exited without blocking on the suspended turn.
    """

    harness_signal_subscription_registered: Scalar | None = None
    """``harness_signal_subscription_registered`` (harness harness §5.3, since 0.49.0, this
    directory only): The harness registered a signal subscription for the suspended invocation (§5.3
    step 2).
    """

    harness_auto_retried: Scalar | None = None
    """``harness_auto_retried`` (harness harness §7.1, since 0.49.0, this directory only): Whether
    the harness retried the invocation on its own (SHOULD NOT for session-terminating errors).
    """

    signal_correlation_resolved: Scalar | None = None
    """``signal_correlation_resolved`` (harness harness §6, since 0.49.0, this directory only): The
    coordinator found the paused invocation by signal id.
    """

    resolved_to_invocation_id: Scalar | Placeholder | None = None
    """``resolved_to_invocation_id`` (harness harness §6, since 0.49.0, this directory only): The
    paused invocation the signal resolved to (a `<from <transmission> suspended outcome>`
    placeholder).
    """

    error_category: Scalar | None = None
    """``error_category`` (harness harness §7, since 0.49.0, this directory only): The category of
    the error invoke() surfaced.
    """

    error_bucket: Scalar | None = None
    """``error_bucket`` (harness harness §7, since 0.49.0, this directory only): The harness §7
    bucket the error was classified into.
    """

    outbound_shape: Scalar | None = None
    """``outbound_shape`` (harness harness §5, since 0.49.0, this directory only): The shape of the
    harness's outbound response.
    """

    outbound_payload_includes: Mapping | None = None
    """``outbound_payload_includes`` (harness harness §5, since 0.49.0, this directory only): Keys
    the outbound payload contains at least.
    """

    session_store_load_calls: Scalar | None = None
    """``session_store_load_calls`` (harness harness §8.1, since 0.49.0, this directory only): How
    many times the SessionStore's `load()` was called.
    """

    session_store_save_calls: Scalar | None = None
    """``session_store_save_calls`` (harness harness §8.1, since 0.49.0, this directory only): How
    many times the SessionStore's `save()` was called.
    """


class HarnessInvokeArgs(Section):
    """The arguments the harness passed to invoke() (harness §3, §8)."""

    family: ClassVar[str] = "harness_invoke_args"
    directive_attrs: ClassVar[dict[str, str]] = {
        "session_id": "session_id", "session_id_caller_supplied": "session_id_caller_supplied",
        "session_id_present": "session_id_present",
        "session_id_auto_generated": "session_id_auto_generated",
        "session_id_absent_verified": "session_id_absent_verified",
        "resume_invocation": "resume_invocation", "signal_payload": "signal_payload",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "session_id", "session_id_caller_supplied", "session_id_present",
        "session_id_auto_generated", "session_id_absent_verified", "resume_invocation",
        "signal_payload",
    )

    session_id: Scalar | BindingToken | FormatToken | None = None
    """``session_id`` (harness harness §3, since 0.49.0, this directory only): The session id
    passed.
    """

    session_id_caller_supplied: Scalar | None = None
    """``session_id_caller_supplied`` (harness harness §3.1, since 0.49.0, this directory only): The
    session id came from the payload, not auto-generated.
    """

    session_id_present: Scalar | None = None
    """``session_id_present`` (harness harness §3.0, since 0.49.0, this directory only): Whether a
    session id was passed at all.
    """

    session_id_auto_generated: Scalar | None = None
    """``session_id_auto_generated`` (harness harness §3.1, since 0.49.0, this directory only): The
    session id was minted by the harness, not supplied by the caller.
    """

    session_id_absent_verified: Scalar | None = None
    """``session_id_absent_verified`` (harness harness §3.0, since 0.49.0, this directory only): The
    adapter verified the call site passed no session id.
    """

    resume_invocation: Scalar | Placeholder | None = None
    """``resume_invocation`` (harness harness §3.3, since 0.49.0, this directory only): The
    invocation resumed (a placeholder).
    """

    signal_payload: Mapping | None = None
    """``signal_payload`` (harness harness §3.3, since 0.49.0, this directory only): The signal
    payload passed on resume.
    """


class ChatTurn(Section):
    """One `send()` call of the chat harness (harness-chat §5)."""

    family: ClassVar[str] = "chat_turn"
    directive_attrs: ClassVar[dict[str, str]] = {
        "name": "name", "session_id": "session_id", "user_message": "user_message",
        "subscribe_listener": "subscribe_listener", "expected": "expected",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "expected",
    ))
    _fields = (
        "order", "name", "session_id", "user_message", "subscribe_listener", "expected",
    )

    name: Scalar | None = None
    """``name`` (harness-chat §3.2 header, since 0.50.0, this directory only): The turn's name."""

    session_id: Scalar | None = None
    """``session_id`` (harness-chat harness-chat §5.1, since 0.50.0, this directory only): The
    session the message is sent under.
    """

    user_message: Mapping | None = None
    """``user_message`` (harness-chat harness-chat §3, since 0.50.0, this directory only): The
    inbound `ChatMessage`.
    """

    subscribe_listener: Scalar | None = None
    """``subscribe_listener`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only):
    Register a subscribed listener under this name for the turn's post-resume reply.
    """

    expected: ChatTurnExpected | None = None
    """``expected`` (harness-chat harness-chat §5.2, since 0.50.0, this directory only): The turn's
    `ChatTurnOutcome`.
    """


class ChatTurnExpected(Section):
    """The `ChatTurnOutcome` one `send()` returned (harness-chat §5.2)."""

    family: ClassVar[str] = "chat_turn_expected"
    directive_attrs: ClassVar[dict[str, str]] = {
        "outcome": "outcome", "dispatch_path": "dispatch_path", "replies": "replies",
        "final_state": "final_state", "pending_messages": "pending_messages",
        "signal_descriptor": "signal_descriptor", "error_bucket": "error_bucket",
        "error_category": "error_category", "reply": "reply",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "signal_descriptor",
    ))
    _fields = (
        "order", "outcome", "dispatch_path", "replies", "final_state", "pending_messages",
        "signal_descriptor", "error_bucket", "error_category", "reply",
    )

    outcome: Scalar | None = None
    """``outcome`` (harness-chat harness-chat §5.2, since 0.50.0, this directory only): The
    `ChatTurnOutcome` variant.
    """

    dispatch_path: Scalar | None = None
    """``dispatch_path`` (harness-chat harness-chat §6, since 0.50.0, this directory only): The
    harness §3 dispatch path taken.
    """

    replies: Sequence | None = None
    """``replies`` (harness-chat harness-chat §7, since 0.50.0, this directory only): The new
    assistant messages of this turn only.
    """

    final_state: Mapping | None = None
    """``final_state`` (harness-chat harness-chat §4, since 0.50.0, this directory only): The
    session state after the turn (with `messages_count` / `messages_history_contains` matchers).
    """

    pending_messages: Sequence | None = None
    """``pending_messages`` (harness-chat harness-chat §8.1, since 0.50.0, this directory only): The
    messages a suspended turn carries.
    """

    signal_descriptor: DescriptorExpectation | None = None
    """``signal_descriptor`` (harness-chat harness-chat §8.1, since 0.50.0, this directory only):
    The signal descriptor a suspended turn carries.
    """

    error_bucket: Scalar | None = None
    """``error_bucket`` (harness-chat harness-chat §10, since 0.50.0, this directory only): The
    harness §7 bucket of the error.
    """

    error_category: Scalar | None = None
    """``error_category`` (harness-chat harness-chat §10, since 0.50.0, this directory only): The
    underlying error category.
    """

    reply: Mapping | None = None
    """``reply`` (harness-chat harness-chat §10, since 0.50.0, this directory only): The
    system-shaped error reply (`content_matches_template` / `content_includes` matchers).
    """


class SignalArrival(Section):
    """An external signal delivered through the harness signal coordinator (harness-chat §8.2)."""

    family: ClassVar[str] = "signal_arrival"
    directive_attrs: ClassVar[dict[str, str]] = {
        "signal_id": "signal_id", "signal_payload": "signal_payload",
        "expected_listener_callback": "expected_listener_callback",
    }
    holding: ClassVar[frozenset[str]] = frozenset((
        "expected_listener_callback",
    ))
    _fields = (
        "order", "signal_id", "signal_payload", "expected_listener_callback",
    )

    signal_id: Scalar | None = None
    """``signal_id`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only): The signal
    id delivered.
    """

    signal_payload: Mapping | None = None
    """``signal_payload`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only): The
    signal's payload.
    """

    expected_listener_callback: ListenerCallbackExpectation | None = None
    """``expected_listener_callback`` (harness-chat harness-chat §8.2, since 0.50.0, this directory
    only): The listener callback the resumed turn fires.
    """


class ListenerCallbackExpectation(Section):
    """The subscribed listener's callback after a resumed turn (harness-chat §8.2)."""

    family: ClassVar[str] = "listener_callback_expectation"
    directive_attrs: ClassVar[dict[str, str]] = {
        "outcome": "outcome", "replies": "replies", "listener": "listener",
    }
    holding: ClassVar[frozenset[str]] = frozenset(())
    _fields = (
        "order", "outcome", "replies", "listener",
    )

    outcome: Scalar | None = None
    """``outcome`` (harness-chat harness-chat §5.2, since 0.50.0, this directory only): The
    `ChatTurnOutcome` variant.
    """

    replies: Sequence | None = None
    """``replies`` (harness-chat harness-chat §7, since 0.50.0, this directory only): The new
    assistant messages of this turn only.
    """

    listener: Scalar | None = None
    """``listener`` (harness-chat harness-chat §8.2, since 0.50.0, this directory only): The
    subscribed listener's name.
    """


# Every view class, by family name.
BY_FAMILY: dict[str, type[Section]] = {
    "fixture": Fixture,
    "case": Case,
    "invocation": Invocation,
    "graph": GraphDecl,
    "state": StateDecl,
    "field": FieldDecl,
    "node": NodeDecl,
    "edge": EdgeDecl,
    "condition": Condition,
    "invoke": InvokeDecl,
    "drain": DrainDecl,
    "observer": ObserverDecl,
    "pacing": Pacing,
    "expected": Expected,
    "error_expectation": ErrorExpectation,
    "node_raise": NodeRaise,
    "cancellation_cleanup": CancellationCleanup,
    "drain_for": DrainEventsFor,
    "drain_in_node": DrainInNode,
    "projection": Projection,
    "fan_out": FanOut,
    "fan_out_count": FanOutCount,
    "parallel_branches": ParallelBranches,
    "branch": Branch,
    "branch_condition": BranchCondition,
    "middleware_config": MiddlewareConfig,
    "middleware": MiddlewareDecl,
    "backoff": Backoff,
    "classifier": Classifier,
    "on_caught": OnCaught,
    "on_complete": OnComplete,
    "predicate": CatchPredicate,
    "wrap_middleware": WrapMiddleware,
    "flaky": Flaky,
    "failure": Failure,
    "cause": Cause,
    "flaky_by_index": FlakyByIndex,
    "flaky_per_index": FlakyPerIndex,
    "flaky_instance_only": FlakyInstanceOnly,
    "flaky_resume_aware": FlakyResumeAware,
    "checkpointer": CheckpointerDecl,
    "save_batching": SaveBatching,
    "crash_injection": CrashInjection,
    "fan_out_instance_ref": FanOutInstanceRef,
    "resume": ResumeDecl,
    "record_assertions": RecordAssertions,
    "fan_out_progress": FanOutProgressAssertion,
    "migration": MigrationDecl,
    "clock_stub": ClockStub,
    "obs_llm_call": ObsLlmCall,
    "obs_llm_wrapper_call": ObsLlmWrapperCall,
    "obs_tool_call": ObsToolCall,
    "tool_mock": ToolMock,
    "tool_mock_raise": ToolMockRaise,
    "log_emission": LogEmission,
    "global_tracer_span": GlobalTracerSpan,
    "prompt_group_render": PromptGroupRender,
    "attempt_behavior": AttemptBehavior,
    "subgraph_call": SubgraphCall,
    "queryable_observer": QueryableObserverDecl,
    "queryable_observer_read": QueryableObserverRead,
    "queryable_observer_drop": QueryableObserverDrop,
    "langfuse_observer_config": LangfuseObserverConfig,
    "otel_observer_config": OtelObserverConfig,
    "langfuse_client": LangfuseClientDecl,
    "adapter_capability_requirement": AdapterCapabilityRequirement,
    "construction_error_expectation": ConstructionErrorExpectation,
    "obs_prompt_backend": ObsPromptBackend,
    "obs_prompt": ObsPrompt,
    "obs_token_budget": ObsTokenBudget,
    "obs_llm_provider": ObsLlmProvider,
    "sequential_invocations": SequentialInvocations,
    "direct_call": DirectCall,
    "otel_trace_expectation": OtelTraceExpectation,
    "metric_observation": MetricObservation,
    "value_bounds": ValueBounds,
    "edge_when": EdgeWhen,
    "llm_call": LlmCall,
    "llm_call_step": LlmCallStep,
    "llm_runtime_config": LlmRuntimeConfig,
    "llm_call_retry": LlmCallRetry,
    "llm_reask": LlmReask,
    "llm_mock_provider": LlmMockProvider,
    "llm_mock_response": LlmMockResponse,
    "llm_mock_raise": LlmMockRaise,
    "llm_mock_capabilities": LlmMockCapabilities,
    "llm_health_endpoint": LlmHealthEndpoint,
    "llm_stream_attempts": LlmStreamAttempts,
    "llm_wire_request_expectation": LlmWireRequestExpectation,
    "wire_bytes_identical": WireBytesIdentical,
    "typed_observer": TypedObserverDecl,
    "typed_event_assertions": TypedEventAssertions,
    "typed_event_match": TypedEventMatch,
    "typed_event_count": TypedEventCount,
    "typed_event_sequence": TypedEventSequence,
    "typed_event_relative_order": TypedEventRelativeOrder,
    "typed_event_value_cover": TypedEventValueCover,
    "tei_embedding_provider": TeiEmbeddingProvider,
    "tei_rerank_provider": TeiRerankProvider,
    "jina_provider": JinaProvider,
    "openai_embedding_provider": OpenaiEmbeddingProvider,
    "cohere_provider": CohereProvider,
    "embed_call": EmbedCall,
    "embed_config": EmbedConfig,
    "rerank_call": RerankCall,
    "rerank_config": RerankConfig,
    "ready_call": ReadyCall,
    "retrieval_mock_response": RetrievalMockResponse,
    "retrieval_mock_raise": RetrievalMockRaise,
    "message_repeat": MessageRepeat,
    "prompt_backend": PromptBackendDecl,
    "prompt_record": PromptRecord,
    "prompt_manager": PromptManagerDecl,
    "label_resolver": LabelResolverDecl,
    "prompt_call": PromptCall,
    "prompt_call_target": PromptCallTarget,
    "prompt_ref": PromptRef,
    "prompt_call_expected": PromptCallExpected,
    "prompt_backend_state": PromptBackendState,
    "shared_prefix_expectation": SharedPrefixExpectation,
    "message_equal_expectation": MessageEqualExpectation,
    "session_store_config": SessionStoreConfig,
    "session_store_behavior": SessionStoreBehavior,
    "seeded_session": SeededSession,
    "session_state_projection": SessionStateProjection,
    "session_record_assertions": SessionRecordAssertions,
    "session_store_after": SessionStoreAfter,
    "descriptor": SignalDescriptor,
    "descriptor_expectation": DescriptorExpectation,
    "conditional_suspend": ConditionalSuspend,
    "checkpointer_assertions": CheckpointerAssertions,
    "harness_config": HarnessConfig,
    "transmission": Transmission,
    "transmission_expected": TransmissionExpected,
    "harness_invoke_args": HarnessInvokeArgs,
    "chat_turn": ChatTurn,
    "chat_turn_expected": ChatTurnExpected,
    "signal_arrival": SignalArrival,
    "listener_callback_expectation": ListenerCallbackExpectation,
}

__all__ = [
    "AdapterCapabilityRequirement",
    "AttemptBehavior",
    "BY_FAMILY",
    "Backoff",
    "Branch",
    "BranchCondition",
    "CancellationCleanup",
    "Case",
    "CatchPredicate",
    "Cause",
    "ChatTurn",
    "ChatTurnExpected",
    "CheckpointerAssertions",
    "CheckpointerDecl",
    "Classifier",
    "ClockStub",
    "CohereProvider",
    "Condition",
    "ConditionalSuspend",
    "ConstructionErrorExpectation",
    "CrashInjection",
    "DescriptorExpectation",
    "DirectCall",
    "DrainDecl",
    "DrainEventsFor",
    "DrainInNode",
    "EdgeDecl",
    "EdgeWhen",
    "EmbedCall",
    "EmbedConfig",
    "ErrorExpectation",
    "Expected",
    "Failure",
    "FanOut",
    "FanOutCount",
    "FanOutInstanceRef",
    "FanOutProgressAssertion",
    "FieldDecl",
    "Fixture",
    "Flaky",
    "FlakyByIndex",
    "FlakyInstanceOnly",
    "FlakyPerIndex",
    "FlakyResumeAware",
    "GlobalTracerSpan",
    "GraphDecl",
    "HarnessConfig",
    "HarnessInvokeArgs",
    "Invocation",
    "InvokeDecl",
    "JinaProvider",
    "LabelResolverDecl",
    "LangfuseClientDecl",
    "LangfuseObserverConfig",
    "ListenerCallbackExpectation",
    "LlmCall",
    "LlmCallRetry",
    "LlmCallStep",
    "LlmHealthEndpoint",
    "LlmMockCapabilities",
    "LlmMockProvider",
    "LlmMockRaise",
    "LlmMockResponse",
    "LlmReask",
    "LlmRuntimeConfig",
    "LlmStreamAttempts",
    "LlmWireRequestExpectation",
    "LogEmission",
    "MessageEqualExpectation",
    "MessageRepeat",
    "MetricObservation",
    "MiddlewareConfig",
    "MiddlewareDecl",
    "MigrationDecl",
    "NodeDecl",
    "NodeRaise",
    "ObsLlmCall",
    "ObsLlmProvider",
    "ObsLlmWrapperCall",
    "ObsPrompt",
    "ObsPromptBackend",
    "ObsTokenBudget",
    "ObsToolCall",
    "ObserverDecl",
    "OnCaught",
    "OnComplete",
    "OpenaiEmbeddingProvider",
    "OtelObserverConfig",
    "OtelTraceExpectation",
    "Pacing",
    "ParallelBranches",
    "Projection",
    "PromptBackendDecl",
    "PromptBackendState",
    "PromptCall",
    "PromptCallExpected",
    "PromptCallTarget",
    "PromptGroupRender",
    "PromptManagerDecl",
    "PromptRecord",
    "PromptRef",
    "QueryableObserverDecl",
    "QueryableObserverDrop",
    "QueryableObserverRead",
    "ReadyCall",
    "RecordAssertions",
    "RerankCall",
    "RerankConfig",
    "ResumeDecl",
    "RetrievalMockRaise",
    "RetrievalMockResponse",
    "SaveBatching",
    "SeededSession",
    "SequentialInvocations",
    "SessionRecordAssertions",
    "SessionStateProjection",
    "SessionStoreAfter",
    "SessionStoreBehavior",
    "SessionStoreConfig",
    "SharedPrefixExpectation",
    "SignalArrival",
    "SignalDescriptor",
    "StateDecl",
    "SubgraphCall",
    "TeiEmbeddingProvider",
    "TeiRerankProvider",
    "ToolMock",
    "ToolMockRaise",
    "Transmission",
    "TransmissionExpected",
    "TypedEventAssertions",
    "TypedEventCount",
    "TypedEventMatch",
    "TypedEventRelativeOrder",
    "TypedEventSequence",
    "TypedEventValueCover",
    "TypedObserverDecl",
    "ValueBounds",
    "WireBytesIdentical",
    "WrapMiddleware",
]
