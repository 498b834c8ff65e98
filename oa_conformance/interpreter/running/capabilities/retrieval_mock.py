"""The mock embedding / rerank provider: the real openarmature retrieval providers over a captured wire.

Shared by every directory whose graphs call an embedding or rerank provider (retrieval-provider,
observability). The retrieval-provider header contract (its fixtures 001, 006, 013; conformance-
adapter §5.15) says:

- ``mock_embedding`` / ``mock_rerank: [{status, body?, raises?}, ...]`` — one entry per outbound
  request, in arrival order (a chunk-and-stitch call consumes one entry per chunk). An extension of
  this adapter, for requests the spec lets go out in any order (the chunks of a chunk-and-stitch
  call): ``when_request: {<JSON body>}`` on every entry of a list keys each entry by content — it
  answers the one request whose JSON body is exactly that, whatever its arrival position; a request
  no unused entry names fails (``wire.WireUnmatched``).
- Under ``mapping: <vendor>`` the body is that vendor's real wire shape; absent a mapping it is the
  harness stand-in: the OpenAI-compatible ``/v1/embeddings`` envelope (with a top-level ``id``) for
  embeddings and the Cohere-shaped ``{id, model?, results, meta.billed_units}`` for rerank. The
  stand-ins are exactly what the runtime's ``OpenAIEmbeddingProvider`` / ``CohereRerankProvider``
  parse, so the stand-in is served to those real providers, never imitated.
- A non-2xx entry drives the provider's own status → §7 category mapping; ``raises: {error_type,
  message | message_repeat}`` makes the call raise the literal exception instead: the class the
  provider raises for that status, renamed to ``error_type``, with the literal (or synthesized,
  ``values.raised_message``) message (``wire.CapturedWire.literal_exception``) — so the status still
  fixes the category. The vendor's error body carrying both is kept for the record.
- A construction block (``tei_embedding_provider``, ``cohere_rerank_provider`` …) names the vendor
  and its §8.x construction parameters; ``mapping:`` alone picks the vendor with its defaults.

:class:`RetrievalWire` is what a case gets: one :class:`~.wire.CapturedWire` with an ``embedding``
and a ``rerank`` lane, and :meth:`RetrievalWire.provider` constructing the real provider for a
call (optionally re-bound to another model — the model-binding error fixtures).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable

from ....ast.nodes import Scalar, Section
from ...static.scenarios import Scenario
from ....model.diagnostics import Span, article
from ....host.detect import RuntimeLacks
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ..harness import CaptureSeams
from ....ast.values import literal, raised_message
from ..wire import Canned, CapturedWire, hosts_of, status_classifier
from .typed_events import populates_caller_metadata

EMBEDDING, RERANK = "embedding", "rerank"
MOCKS = {EMBEDDING: "mock_embedding", RERANK: "mock_rerank"}

# Construction block -> (provider kind, vendor). The block name selects the vendor (§5.15).
BLOCKS = {
    "tei_embedding_provider": (EMBEDDING, "tei"),
    "jina_embedding_provider": (EMBEDDING, "jina"),
    "openai_embedding_provider": (EMBEDDING, "openai"),
    "cohere_embedding_provider": (EMBEDDING, "cohere"),
    "tei_rerank_provider": (RERANK, "tei"),
    "jina_rerank_provider": (RERANK, "jina"),
    "cohere_rerank_provider": (RERANK, "cohere"),
}
# Absent a mapping and a block: the vendor whose real wire shape the stand-in body is (see above).
STAND_IN = {EMBEDDING: "openai", RERANK: "cohere"}
# Where a host-less stand-in provider points (never reachable: the wire answers only these hosts).
STAND_IN_BASE_URL = "http://retrieval-mock.invalid"
# The model a stand-in provider is bound to when a case binds none: the vocabulary names no default
# (retrieval-provider 006's header: `model` optional), so it is the harness's choice. For rerank it is
# the model the suite's stand-in bodies serve (`model: rerank-test` in observability 099-109), so a
# failed call reports the model its successful siblings report; the embedding suite serves no one
# name (154 binds "test-embed-model", others serve "text-embedding-test"), so its stand-in keeps its own.
STAND_IN_MODEL = {EMBEDDING: "mock-embedding-model", RERANK: "rerank-test"}


def _provider_classes() -> dict[tuple[str, str], Any]:
    from ....host import retrieval as r

    return {
        (EMBEDDING, "openai"): r.OpenAIEmbeddingProvider,
        (EMBEDDING, "tei"): r.TeiEmbeddingProvider,
        (EMBEDDING, "jina"): r.JinaEmbeddingProvider,
        (EMBEDDING, "cohere"): r.CohereEmbeddingProvider,
        (RERANK, "tei"): r.TeiRerankProvider,
        (RERANK, "jina"): r.JinaRerankProvider,
        (RERANK, "cohere"): r.CohereRerankProvider,
    }


# How each vendor's error body carries a message (what its runtime classifier reads).
def _error_body(vendor: str, error_type: str, message: str) -> Any:
    if vendor == "openai":
        return {"error": {"message": message, "type": error_type}}
    if vendor == "jina":
        return {"detail": message, "code": error_type}
    if vendor == "tei":
        return {"error": message, "error_type": error_type}
    return {"message": message, "error_type": error_type}  # cohere


def canned(entry: Section, vendor: str) -> Canned:
    """One mock entry as the HTTP answer the provider reads."""
    status = entry.status.value
    if not 100 <= status <= 599:
        raise FixtureInvalid(f"mock status {status} is not an HTTP status", entry.key_span("status"))
    raises = entry.raises
    body = literal(entry.body) if entry.body is not None else None
    declared_at = str(entry.span) if entry.span else None
    if raises is not None:
        if status < 300:
            raise FixtureInvalid("`raises` belongs on a non-2xx mock entry (conformance-adapter §5.15)", entry.key_span("raises"))
        if body is not None:
            raise FixtureInvalid("a mock entry gives either `body` or `raises`, not both", entry.key_span("raises"))
        message = raised_message(raises)
        return Canned(status=status, body=_error_body(vendor, raises.error_type.value, message),
                      declared_at=declared_at, raises=(raises.error_type.value, message))
    if status < 300 and body is None:
        raise FixtureInvalid("a 2xx mock entry needs a `body` (the response the provider parses)", entry.span)
    when_request = literal(entry.when_request) if entry.when_request is not None else None
    return Canned(status=status, body=body, declared_at=declared_at, when_request=when_request)


@dataclass(frozen=True)
class ProviderSpec:
    """Which real provider a case binds for one kind, and with what construction parameters."""

    kind: str
    vendor: str
    options: dict[str, Any]
    span: Span | None = None

    @property
    def base_url(self) -> str | None:
        return self.options.get("base_url")


def provider_spec(scenario: Scenario, kind: str) -> ProviderSpec | None:
    """The provider the scenario binds for ``kind``: its construction block, else its ``mapping:``,
    else the stand-in; None when the mapping has no provider of that kind (OpenAI: no reranker)."""
    mapping = scenario.view.mapping
    vendor = mapping.value if mapping is not None else None
    for block_name, (block_kind, block_vendor) in BLOCKS.items():
        block = scenario.view.named(block_name)
        if block is None or block_kind != kind:
            continue
        if vendor is not None and vendor != block_vendor:
            raise FixtureInvalid(f"`{block_name}` binds {article(block_vendor)} {block_vendor} provider under `mapping: {vendor}`",
                                       scenario.where(block_name).key_span(block_name))
        return ProviderSpec(kind, block_vendor, literal(block), block.span)
    model = served_model(scenario, kind) or STAND_IN_MODEL[kind]
    if vendor is None:
        return ProviderSpec(kind, STAND_IN[kind], {"base_url": STAND_IN_BASE_URL, "model": model})
    if (kind, vendor) not in _provider_classes():
        return None
    return ProviderSpec(kind, vendor, {"model": model}, mapping.span)


def served_model(scenario: Scenario, kind: str) -> str | None:
    """The model the case's first canned response of ``kind`` reports having served: the mock stands
    for one deployed model, so a provider the fixture binds to no model is bound to that one."""
    entries = scenario.view.named(MOCKS[kind])
    for entry in (entries.items if entries is not None else ()):
        body = entry.body if hasattr(entry, "get") else None
        value = literal(body) if body is not None and not isinstance(body, Scalar) else None
        if isinstance(value, dict) and isinstance(value.get("model"), str) and value["model"]:
            return value["model"]
    return None


@dataclass
class RetrievalWire:
    """The case's captured wire and the providers bound over it (one lane per provider kind)."""

    wire: CapturedWire
    specs: dict[str, ProviderSpec | None]
    mapping: str | None
    transports: dict[str, Any]
    populate_caller_metadata: bool = True  # the fixture's typed-collector opt-in (typed_events.py)
    # `shares_provider: true` (an extension): one provider instance per (kind, model) for the case,
    # so repeated calls reach the same object; otherwise each call binds its own
    shared: dict[tuple[str, str | None], Any] | None = None
    made: list[Any] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)  # the `calls` collection (one entry per provider call)

    def collections(self) -> dict[str, Any]:
        """The trace document's ``wire`` and ``calls`` collections — present once a provider was
        bound or a response mocked (a graph that never touches retrieval instruments nothing)."""
        if not self.made and not self.wire.lanes.get(EMBEDDING) and not self.wire.lanes.get(RERANK):
            return {}
        return {"wire": self.wire.document(), "calls": list(self.calls)}

    def provider(self, kind: str, model: str | None = None, span: Span | None = None) -> Any:
        """A real provider of ``kind`` over this wire, bound to the spec's model or to ``model`` (the
        case's one instance for them under ``shares_provider``)."""
        if self.shared is not None and (kind, model) in self.shared:
            return self.shared[(kind, model)]
        provider = self.unrecorded_provider(kind, self.transports[kind], model, span)
        self.made.append(provider)
        if self.shared is not None:
            self.shared[(kind, model)] = provider
        return provider

    def unrecorded_provider(self, kind: str, transport: Any, model: str | None = None, span: Span | None = None) -> Any:
        """A real provider of ``kind`` over ``transport`` (the caller closes it)."""
        spec = self.specs[kind]
        cls = _provider_classes().get((kind, spec.vendor)) if spec is not None else None
        if cls is None:
            raise HarnessPrimitiveMissing(f"{article(kind)} {kind} provider for `mapping: {self.mapping}`", span)
        options = dict(spec.options)
        if model is not None:
            options["model"] = model
        if "base_url" not in options:  # a vendor without a default origin, bound by `mapping:` alone
            options["base_url"] = _default_base_url(spec)
        accepted = _parameters(cls)
        unknown = sorted(set(options) - accepted)
        if unknown:  # a construction parameter this runtime's provider does not take: the build lacks it
            raise RuntimeLacks(f"{cls.__name__} construction parameter(s) {unknown}", spec.span or span)
        return cls(transport=transport, populate_caller_metadata=self.populate_caller_metadata, **options)

    async def aclose(self) -> None:
        for provider in self.made:
            await provider.aclose()


def _parameters(cls: type) -> frozenset[str]:
    import inspect

    return frozenset(inspect.signature(cls.__init__).parameters) - {"self"}


def retrieval_wire(scenario: Scenario, sleep: Callable[[float], Any] | None = None) -> RetrievalWire:
    """The wire for a scenario's embedding and rerank providers (a lane each, even when the case
    mocks no response: a pre-send rejection must still be seen to send nothing).

    Every mock entry is checked here, before anything runs: a malformed one is
    ``fixture_schema_invalid`` at its line even if the run would never reach it.
    """
    specs = {kind: provider_spec(scenario, kind) for kind in (EMBEDDING, RERANK)}
    hosts = hosts_of(spec.base_url or _default_base_url(spec) for spec in specs.values() if spec is not None)
    wire = CapturedWire([], hosts=hosts) if sleep is None else CapturedWire([], hosts=hosts, sleep=sleep)
    transports = {}
    for kind in (EMBEDDING, RERANK):
        entries = scenario.view.named(MOCKS[kind])
        if entries is not None and specs[kind] is None:
            raise HarnessPrimitiveMissing(f"{article(kind)} {kind} provider for `mapping: {scenario.view.mapping.value}`",
                                          scenario.where(MOCKS[kind]).key_span(MOCKS[kind]))
        items = entries.items if entries is not None else ()
        keyed = [entry for entry in items if entry.when_request is not None]
        if keyed and len(keyed) != len(items):  # half keyed by content, half by position: no one order to serve in
            unkeyed = next(entry for entry in items if entry.when_request is None)
            raise FixtureInvalid(f"`when_request` on some `{MOCKS[kind]}` entries but not this one: either every entry "
                                 "answers the request its `when_request` names, or none does", unkeyed.span)
        responses = [canned(entry, specs[kind].vendor) for entry in items]
        transports[kind] = wire.lane(kind, responses)
    mapping = scenario.view.mapping

    shares = scenario.view.shares_provider
    mock = RetrievalWire(wire, specs, mapping.value if mapping is not None else None, transports,
                         populate_caller_metadata=populates_caller_metadata(scenario),
                         shared={} if shares is not None and shares.value is True else None)
    for kind in (EMBEDDING, RERANK):
        if specs[kind] is not None:
            wire.classifiers[kind] = status_classifier(
                lambda transport, kind=kind: mock.unrecorded_provider(kind, transport), PROBES[kind])
    return mock


# One throwaway call per kind: what its provider raises for a canned answer (wire.status_classifier).
PROBES = {EMBEDDING: lambda provider: provider.embed(["probe"]),
          RERANK: lambda provider: provider.rerank("probe", ["probe"])}


def _default_base_url(spec: ProviderSpec) -> str:
    """The provider's own default origin (a hosted vendor's), read from the runtime's signature."""
    import inspect

    cls = _provider_classes().get((spec.kind, spec.vendor))
    default = inspect.signature(cls.__init__).parameters.get("base_url") if cls is not None else None
    if default is None or default.default is inspect.Parameter.empty:
        return STAND_IN_BASE_URL
    return default.default


def model_override(call: Section) -> str | None:
    model = call.model
    return model.value if isinstance(model, Scalar) else None




# ---------------------------------------------------------------------------------------------
# Installing the mock for a graph run, and the node directives that call it


def install(scenario: Scenario, seams: CaptureSeams) -> RetrievalWire:
    """Put the case's retrieval wire among the instruments' services (``seams.services["retrieval"]``), where the
    ``calls_embed`` / ``calls_rerank`` node directives find it. A capability harness calls this in
    its ``instrument`` and reports :meth:`RetrievalWire.collections` afterwards."""
    mock = retrieval_wire(scenario)
    seams.services["retrieval"] = mock
    return mock




@asynccontextmanager
async def open_retrieval(scenario: Scenario, seams: CaptureSeams) -> AsyncIterator[RetrievalWire]:
    """The mock as a capture around a graph run: installed before, its providers closed after; the
    yielded object's ``collections()`` are the ``wire`` and ``calls`` collections."""
    mock = install(scenario, seams)
    try:
        yield mock
    finally:
        await mock.aclose()


def _mock_of(ctx: Any, directive: str, span: Span | None) -> RetrievalWire:
    mock = ctx.harness.instruments.services.get("retrieval")
    if mock is None:  # the directory's harness never installed the wire: nothing to call over
        raise HarnessPrimitiveMissing(f"{directive}: no mock retrieval provider is installed for this directory", span)
    return mock


async def _call(ctx: Any, spec: Section, kind: str, operation: str, request: dict[str, Any], invoke: Callable) -> None:
    """Bind the provider, call it, record the call (``calls`` collection), store the response."""
    mock = _mock_of(ctx, f"calls_{operation}", spec.span)
    provider = mock.provider(kind, model_override(spec), spec.span)
    entry: dict[str, Any] = {"operation": operation, "node": ctx.name, "vendor": mock.specs[kind].vendor,  # type: ignore[union-attr]
                             "model": provider.model, "request": request}
    mock.calls.append(entry)
    try:
        response = await invoke(provider)
    except Exception as raised:  # the provider's §7 error is the outcome under test: recorded, re-raised
        entry["error"] = {"category": getattr(raised, "category", None), "message": str(raised), "type": type(raised).__name__}
        raise
    entry["result"] = response.model_dump(mode="json")
    ctx.partial[spec.stores_response_in.value] = response


def rendered_text(ctx: Any, spec: Section, directive: str) -> str:
    """The text of the prompt a `renders_prompt` earlier in the node body rendered (its messages'
    text content, in order): what `input_from_rendered_prompt` / `query_from_rendered_prompt` send."""
    if ctx.prompt is None:
        raise HarnessPrimitiveMissing(f"{directive} needs a renders_prompt earlier in the node", spec.key_span(directive))
    return "\n".join(m.content for m in ctx.prompt.messages if isinstance(m.content, str))


async def calls_embed(ctx: Any, spec: Section) -> None:
    """`calls_embed`: the node calls the bound EmbeddingProvider's embed() (retrieval-provider 001 header)."""
    from ....host.retrieval import embedding_config

    if spec.input_from_rendered_prompt is not None:  # the observability header's RAG form
        strings = [rendered_text(ctx, spec, "input_from_rendered_prompt")]
    else:
        strings = literal(spec.input)
    config = literal(spec.config) if spec.config is not None else None
    runtime_config = embedding_config(config) if config is not None else None
    await _call(ctx, spec, EMBEDDING, "embed", {"input": strings, "config": config},
                lambda provider: provider.embed(strings, config=runtime_config))


async def calls_ready(ctx: Any, spec: Section) -> None:
    """`calls_ready` (an extension): the node calls the bound embedding or rerank provider's ready()
    (retrieval-provider §3 / §5), over the case's mock list of that kind; a raised §7 error is the
    node's, recorded on the call as for embed / rerank."""
    kind = EMBEDDING if spec.provider.value == "embedding" else RERANK
    mock = _mock_of(ctx, "calls_ready", spec.span)
    provider = mock.provider(kind, model_override(spec), spec.span)
    entry: dict[str, Any] = {"operation": "ready", "node": ctx.name, "vendor": mock.specs[kind].vendor,  # type: ignore[union-attr]
                             "model": provider.model, "request": {}}
    mock.calls.append(entry)
    try:
        await provider.ready()
    except Exception as raised:  # the provider's §7 error is the outcome under test: recorded, re-raised
        entry["error"] = {"category": getattr(raised, "category", None), "message": str(raised), "type": type(raised).__name__}
        raise
    entry["result"] = None


async def calls_rerank(ctx: Any, spec: Section) -> None:
    """`calls_rerank`: the node calls the bound RerankProvider's rerank() (retrieval-provider 006 header)."""
    from ....host.retrieval import rerank_config

    if spec.query_from_rendered_prompt is not None:  # the observability header's RAG form
        query = rendered_text(ctx, spec, "query_from_rendered_prompt")
    else:
        query = spec.query.value
    documents = literal(spec.documents)
    top_k = spec.top_k.value if spec.top_k is not None else None
    config = literal(spec.config) if spec.config is not None else None
    runtime_config = rerank_config(config) if config is not None else None
    await _call(ctx, spec, RERANK, "rerank", {"query": query, "documents": documents, "top_k": top_k, "config": config},
                lambda provider: provider.rerank(query, documents, top_k=top_k, config=runtime_config))


__all__ = ["EMBEDDING", "RERANK", "open_retrieval", "ProviderSpec", "RetrievalWire", "calls_embed", "calls_ready", "calls_rerank", "canned", "install",
           "provider_spec", "retrieval_wire"]
