"""The Langfuse capture of the observability harness (conformance-adapter §6.4 Langfuse mock; the
Langfuse-mapping header of the directory's fixtures; proposal 0115 ``langfuse_client``).

Per case, one real ``LangfuseObserver`` is attached to the outermost graph, built with the flags of
the ``langfuse_observer`` block (spelled ``langfuse_observer_config`` in one fixture). Where a flag is
not in the block, the case-level flag of the same name applies (``disable_provider_payload``,
``disable_llm_spans``), and ``detached_subgraphs`` / ``detached_fan_outs`` are the case's. Its client:

- **default** — the runtime's own ``InMemoryLangfuseClient`` (the recorder the runtime ships for
  conformance harnesses; no SDK, no network).
- **``langfuse_client: {mode: credentials}``** (§8.9 mode b) — the runtime's construct-from-credentials
  path, ``LangfuseObserver.from_credentials``: it builds a real Langfuse v4 SDK client on the
  provider it chooses. The adapter injects the *provider-faithful fake* (§6.4) into that path
  through the SDK's own constructor options: an in-memory span exporter instead of the OTLP/HTTP
  one and an httpx client whose transport refuses every request (and records it). The SDK still
  emits each observation as an OTel span through its bound TracerProvider, which is what the leak
  assertions observe.
- **``langfuse_client: {mode: supplied, provider}``** (mode a) — the harness builds that same SDK
  client itself, bound to the OTel global TracerProvider (``provider: global``, the default) or to a
  fresh one (``isolated``), and hands it in through the runtime's ``LangfuseSDKAdapter``.

With an SDK client the observer's client is wrapped by :class:`RecordingClient`, which forwards every
call to the SDK adapter and records the same call in an ``InMemoryLangfuseClient`` — one object
serving the recorded side (content, non-vacuity) and the provider side (§6.4).

Collection ``langfuse`` (docs/TRACE.md): ``traces`` and ``observations`` as Langfuse stores them
(camelCase field names, the trace id the 32-hex form the SDK adapter sends), ``client`` (how it was
built) and, with an SDK client, ``exported`` (the spans the SDK exported) and ``http_requests`` (any
request the SDK attempted: always refused, and asserted empty by the tests).
"""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from ..error_record import error_record
from ....model.errors import HarnessPrimitiveMissing
from ..harness import _current_invocation
from ....ast.values import literal


# `langfuse_observer` keys that are LangfuseObserver constructor fields, taken verbatim.
OBSERVER_FIELDS = ("disable_provider_payload", "disable_llm_spans", "payload_byte_cap", "disable_state_payload")

# A host no request may reach: the refusing transport fails before any resolution anyway.
NO_NETWORK_HOST = "http://langfuse.invalid"


# ---------------------------------------------------------------------------------------------
# Trace input / output hooks a fixture names (`trace_input_from_state` / `trace_output_from_state`)


def _fields_of(state: Any) -> dict[str, Any]:
    return state.model_dump() if hasattr(state, "model_dump") else dict(state)


# The named caller hooks of the directory's fixtures (§8.4.1 Trace input/output sourcing, lever 1):
# a domain summary, the language's null (falls through the decision tree), the state itself.
STATE_HOOKS = {
    "returns_job_input_summary": lambda state: {"summary": "job-input"},
    "returns_job_output_summary": lambda state: {"summary": "job-output"},
    "returns_null": lambda state: None,
    "returns_state_snapshot": _fields_of,
}


def _hook(node: Any, side: str, calls: list[dict[str, Any]]) -> Any:
    """The named hook, logging each call into ``calls``: which side (``input`` / ``output``), the
    invocation whose delivery called it (the observer runs in that invocation's context) and what
    it returned — so "the hooks fired on every invocation" is data, not an inference."""
    name = node.value
    if name not in STATE_HOOKS:
        raise HarnessPrimitiveMissing(f"trace state hook {name!r}", node.span)
    hook = STATE_HOOKS[name]

    def logged(state: Any) -> Any:
        returned = hook(state)
        calls.append({"hook": side, "mock": name, "invocationId": _current_invocation(), "returned": returned})
        return returned

    return logged


def _flag(value: Any) -> bool:
    """A boolean directive's value (absent: false)."""
    return bool(value.value) if value is not None else False


def observer_settings(scenario: Scenario, hook_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The LangfuseObserver keyword arguments the case configures (the trace hooks log their calls
    into ``hook_calls``)."""
    block = scenario.view.langfuse_observer or scenario.view.langfuse_observer_config
    settings: dict[str, Any] = {}
    view = scenario.view
    # Observer flags a case may set at case level for every observer (the header's OTel-side flags),
    # which the `langfuse_observer` block overrides for the Langfuse observer.
    for flag, value in (("disable_provider_payload", view.disable_provider_payload), ("disable_llm_spans", view.disable_llm_spans)):
        if value is not None:
            settings[flag] = value.value
    if block is not None:
        for name, value in block.items():
            if name in OBSERVER_FIELDS:
                settings[name] = value.value
            elif name in ("trace_input_from_state", "trace_output_from_state"):
                side = "input" if name == "trace_input_from_state" else "output"
                settings[name] = _hook(value, side, hook_calls if hook_calls is not None else [])
            else:
                raise HarnessPrimitiveMissing(f"langfuse_observer option {name!r}", block.key_span(name))
    for name, listed in (("detached_subgraphs", view.detached_subgraphs), ("detached_fan_outs", view.detached_fan_outs)):
        if listed is not None:
            settings[name] = detached_nodes(scenario, listed, fan_outs=name == "detached_fan_outs")
    return settings


def detached_nodes(scenario: Scenario, listed: Any, fan_outs: bool) -> frozenset[str]:
    """The node names a ``detached_subgraphs`` / ``detached_fan_outs`` list means. The header calls
    them "subgraph/fan-out names"; the runtime's observers take the names of the *nodes* running
    them. A listed name that is a node of the outer graph is that node; otherwise it names a
    declared subgraph, meaning every outer node that runs it (``subgraph:`` / ``fan_out.subgraph``)."""
    nodes = scenario.view.nodes
    declared = dict(nodes.items()) if nodes is not None else {}
    names: set[str] = set()
    for name in literal(listed):
        if name in declared:
            names.add(name)
            continue
        for node_name, decl in declared.items():
            runner = decl.fan_out if fan_outs else decl
            target = runner.subgraph if runner is not None and hasattr(runner, "get") else None
            if target is not None and getattr(target, "value", None) == name:
                names.add(node_name)
    return frozenset(names)


# ---------------------------------------------------------------------------------------------
# The provider-faithful fake: the real SDK client, kept off the network


class RefusingTransport:
    """An httpx transport that records and refuses every request: the SDK must never reach a network."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def handle_request(self, request: Any) -> Any:
        import httpx

        self.requests.append({"method": request.method, "url": str(request.url)})
        raise httpx.ConnectError("oa-conformance: the Langfuse SDK may not reach a network", request=request)

    def close(self) -> None:
        return None


def sdk_options(exporter: Any, transport: RefusingTransport) -> dict[str, Any]:
    """The Langfuse constructor options that make the SDK client the §6.4 fake: spans go to an
    in-memory exporter (no OTLP/HTTP exporter is built) and every HTTP call is refused."""
    import httpx

    return {"span_exporter": exporter, "httpx_client": httpx.Client(transport=transport), "media_upload_thread_count": 1}


def _bound_provider(provider: str, span: Any) -> Any:
    """The TracerProvider a `supplied` client is bound to."""
    from opentelemetry import trace as otel_trace
    from opentelemetry.sdk.trace import TracerProvider

    if provider == "isolated":
        return TracerProvider()
    bound = otel_trace.get_tracer_provider()
    if not isinstance(bound, TracerProvider):  # a proxy: no global provider to bind to
        raise HarnessPrimitiveMissing("langfuse_client provider 'global' needs caller_global_otel_active: true", span)
    return bound


class _TeeHandle:
    """An observation handle forwarding to the SDK's handle and the recorder's."""

    def __init__(self, real: Any, recorded: Any):
        self._real, self._recorded = real, recorded
        recorded.observation.id = real.id  # children name their parent by the SDK's id

    @property
    def id(self) -> str:
        return self._real.id

    def update(self, **fields: Any) -> None:
        self._real.update(**fields)
        self._recorded.update(**fields)

    def end(self, **fields: Any) -> None:
        self._real.end(**fields)
        self._recorded.end(**fields)


class RecordingClient:
    """A LangfuseClient forwarding every call to ``real`` (the SDK adapter) and recording it in an
    ``InMemoryLangfuseClient``. Anything else (the adapter's isolation status the observer reads)
    is the real client's."""

    OPENERS = ("span", "generation", "tool", "embedding", "retriever")

    def __init__(self, real: Any):
        from ....host.observability import InMemoryLangfuseClient

        self.real = real
        self.recorder = InMemoryLangfuseClient()

    def trace(self, **fields: Any) -> None:
        self.real.trace(**fields)
        self.recorder.trace(**fields)

    def update_trace(self, **fields: Any) -> None:
        self.real.update_trace(**fields)
        self.recorder.update_trace(**fields)

    def force_flush(self, timeout_ms: int = 30_000) -> bool:
        return self.real.force_flush(timeout_ms)

    def __getattr__(self, name: str) -> Any:
        if name in self.OPENERS:
            def open_observation(**fields: Any) -> _TeeHandle:
                return _TeeHandle(getattr(self.real, name)(**fields), getattr(self.recorder, name)(**fields))
            return open_observation
        return getattr(self.real, name)


# ---------------------------------------------------------------------------------------------
# The capture


class LangfuseCapture:
    """One case's Langfuse observer and what its client recorded."""

    def __init__(self, scenario: Scenario):
        from ....host.observability import InMemoryLangfuseClient, LangfuseObserver

        self.hook_calls: list[dict[str, Any]] = []
        settings = observer_settings(scenario, self.hook_calls)
        declared = scenario.view.langfuse_client
        self.mode = declared.mode.value if declared is not None else "in_memory"
        self.provider = None
        self.sdk = None  # the langfuse.Langfuse client, when the mode builds one
        self.primed = None  # the same-credential client the harness built first (preexisting_same_key_client)
        self.construction_error = None  # ErrorRecord: constructing the observer raised a categorized error
        self.exporter = None
        self.transport = RefusingTransport()
        if declared is None:
            self.recorder = InMemoryLangfuseClient()
            self.observer = LangfuseObserver(client=self.recorder, **settings)
            return
        from langfuse import Langfuse
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        self.exporter = InMemorySpanExporter()
        options = sdk_options(self.exporter, self.transport)
        public_key = f"pk-oa-conformance-{uuid.uuid4().hex}"  # one SDK client per case (the SDK caches per key)
        if self.mode == "credentials":
            from langfuse import get_client
            from pydantic import SecretStr

            from ....host.observability import langfuse_credentials_constructor

            if declared.provider is not None:
                raise HarnessPrimitiveMissing("langfuse_client provider applies to mode 'supplied' only", declared.key_span("provider"))
            if _flag(declared.preexisting_same_key_client):
                # §6.4 singleton priming: the same credential's client exists first, on the global
                # provider (the v4 default binding), exporting to this case's exporter.
                self.sdk = self.primed = Langfuse(public_key=public_key, secret_key="sk-oa-conformance", host=NO_NETWORK_HOST,
                                                  tracer_provider=_bound_provider("global", declared.span), **options)
            from_credentials = langfuse_credentials_constructor()  # outside the try: a build lacking it is no outcome
            try:
                self.observer = from_credentials(
                    public_key=public_key, secret_key=SecretStr("sk-oa-conformance"), host=NO_NETWORK_HOST,
                    accept_shared_provider=_flag(declared.accept_shared_provider), langfuse_kwargs=options, **settings)
            except Exception as raised:
                if getattr(raised, "category", None) is None:  # not a categorized construction outcome: ours or a bug
                    raise
                self.construction_error = error_record(raised)
                self.recorder = InMemoryLangfuseClient()  # nothing was recorded: the observer never existed
                return
            adapter = self.observer.client
            self.sdk = get_client(public_key=public_key)  # the SDK's client for this case's key, the one the runtime built
        else:
            for name, value in (("preexisting_same_key_client", declared.preexisting_same_key_client), ("accept_shared_provider", declared.accept_shared_provider)):
                if value is not None:
                    raise HarnessPrimitiveMissing(f"langfuse_client {name} applies to mode 'credentials' only", declared.key_span(name))
            from ....host.observability import LangfuseSDKAdapter

            self.provider = declared.provider.value if declared.provider is not None else "global"
            bound = _bound_provider(self.provider, declared.span)
            self.sdk = Langfuse(public_key=public_key, secret_key="sk-oa-conformance", host=NO_NETWORK_HOST,
                                tracer_provider=bound, **options)
            adapter = LangfuseSDKAdapter(self.sdk)
            self.observer = LangfuseObserver(client=adapter, **settings)
        # Both sides from here on: the SDK adapter (provider side) and the recorder (content side).
        recording = RecordingClient(adapter)
        self.observer.client = recording
        self.recorder = recording.recorder

    def close(self) -> None:
        """Flush the SDK client's exporter and stop its threads (no-op for the in-memory client)."""
        for client in {id(c): c for c in (self.sdk, self.primed) if c is not None}.values():
            client.shutdown()

    def collections(self) -> dict[str, Any]:
        traces = list(self.recorder.traces.values())
        document: dict[str, Any] = {
            "traces": [_trace(t) for t in traces],
            "observations": [_observation(o, t) for t in traces for o in t.observations],
            "client": {"mode": self.mode, "provider": self.provider},
        }
        if self.hook_calls:
            document["hook_calls"] = [dict(call) for call in self.hook_calls]
        if self.exporter is not None:
            document["exported"] = [_exported(span) for span in self.exporter.get_finished_spans()]
            document["http_requests"] = list(self.transport.requests)
        return {"langfuse": document}


@contextlib.asynccontextmanager
async def open_langfuse(scenario: Scenario, seams: CaptureSeams):
    """The capture entered around a graph run: its observer attaches to the outermost graph."""
    capture = LangfuseCapture(scenario)
    if capture.construction_error is not None:  # the case stands down before any graph is built
        seams.construction_error = capture.construction_error
    else:
        seams.runtime_observers.append(capture.observer)
    try:
        yield capture
    finally:
        capture.close()


# ---------------------------------------------------------------------------------------------
# Rendering: the recorded entities as Langfuse stores them


def _trace_id(raw: str) -> str:
    """The Langfuse ``trace.id`` for the id the observer passed (its invocation id): the runtime's
    own derivation (observability §8.4.1), which its SDK adapter applies on the way out."""
    from ....host.observability import langfuse_trace_id

    return langfuse_trace_id(raw)


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def _trace(trace: Any) -> dict[str, Any]:
    metadata = dict(trace.metadata)
    if not _is_uuid(trace.id):  # §8.4.1: a non-UUID id's derivation is one-way; the raw id rides in metadata
        metadata.setdefault("invocation_id", trace.id)
    return {
        "id": _trace_id(trace.id),
        "invocationId": trace.id,
        "name": trace.name,
        "metadata": metadata,
        "input": trace.input,
        "output": trace.output,
        "sessionId": trace.session_id,
        "userId": trace.user_id,
    }


def _usage(usage: Any) -> dict[str, Any] | None:
    """A Generation's ``usage`` {input, output, total}: the counters reported (None ones omitted)."""
    if usage is None:
        return None
    return {key: getattr(usage, key) for key in ("input", "output", "total") if getattr(usage, key) is not None}


def _usage_details(usage: Any) -> dict[str, Any] | None:
    """Langfuse v4 ``usageDetails``: the reported counters, with the §8.4.7 ``searchUnits`` key — an
    empty map when no usage was reported (an open-shape map Langfuse keeps for every observation)."""
    if usage is None:
        return {}
    details = _usage(usage)
    if usage.search_units is not None:
        details["searchUnits"] = usage.search_units
    return details


def _observation(observation: Any, trace: Any) -> dict[str, Any]:
    return {
        "id": observation.id,
        "traceId": _trace_id(trace.id),
        "parentObservationId": observation.parent_observation_id,
        "type": observation.type,
        "name": observation.name,
        "metadata": dict(observation.metadata),
        "level": observation.level,
        "statusMessage": observation.status_message,
        "model": observation.model,
        "modelParameters": dict(observation.model_parameters),
        "input": observation.input,
        "output": observation.output,
        "usage": _usage(observation.usage),
        "usageDetails": _usage_details(observation.usage),
        "promptEntityLink": observation.prompt_entity_link,
        "ended": observation.ended,
    }


def _exported(span: Any) -> dict[str, Any]:
    return {"name": span.name, "attributes": dict(span.attributes or {})}
