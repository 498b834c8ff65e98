"""The mock LLM provider: the real ``openarmature.llm.OpenAIProvider`` over a :class:`CapturedWire`.

Shared by every directory whose fixtures talk to a mock LLM:

- llm-provider fixtures declare ``mock_provider: {responses: [...], health_endpoint, capabilities}``
  and call the provider directly (``call:`` / ``calls:``);
- observability (and other graph) fixtures declare ``mock_llm: [...]``, the same response entries,
  consumed by node bodies that call ``complete()`` (``calls_llm``).

Both forms are lists of ``llm_mock_response`` sections (``status``, ``body``, ``headers``,
``connection_failure``, ``cancelled``, ``stream_body``, ``raises``: a non-2xx entry's error envelope from a literal
``error_type`` and a ``message`` or synthesized ``message_repeat``). :func:`canned_responses` turns them into
:class:`~.wire.Canned` values, keeping each entry's ``path:line:col`` for messages;
:func:`mock_wire` builds the case's wire from whichever form the scenario declares; and
:func:`openai_provider` constructs the real provider over it. Nothing else is mocked: request
building, validation, error classification, retry and response parsing are the runtime's own.

Typical use in a node body or a capability harness::

    wire = mock_wire(scenario)                   # None when the case declares no mock LLM
    provider = openai_provider(wire, model=bound_model(scenario))
    response = await provider.complete([UserMessage(content="hi")])
    collections["wire"] = wire.document()

The provider's ``base_url`` is a host root (:data:`MOCK_BASE_URL`, no ``/v1``: the provider appends
``/v1/chat/completions`` and ``/v1/models`` itself and rejects a ``/v1`` suffix); the wire answers
only that host, so a request can never leave the process.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from ...ast.nodes import Scalar, Section
from ...model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ...ast.values import literal, raised_message
from .wire import Canned, CapturedWire, hosts_of, sse_body, status_classifier

# The mock provider's host root. `.invalid` (RFC 2606) can never resolve, so even a request that
# somehow bypassed the wire could not reach a server.
MOCK_BASE_URL = "http://mock-llm.invalid"

# The bound model when the fixture names none (llm-provider 001/007 headers: "the bound
# `test-model`"); otherwise the model the mock's canned completions report (see bound_model).
DEFAULT_MODEL = "test-model"

# The `health_endpoint.path` a fixture may mock → the OpenAIProvider readiness probe that hits it.
READINESS_PROBES = {"/v1/models": "models", "/v1/chat/completions": "chat_completions"}


def canned_response(entry: Section) -> Canned:
    """One ``llm_mock_response`` (or ``health_endpoint``) section as a canned HTTP answer; a status
    that is no HTTP status is ``FixtureInvalid`` (``fixture_schema_invalid`` at its line)."""
    status = entry.status
    if status is not None and not 100 <= status.value <= 599:
        raise FixtureInvalid(f"mock status {status.value} is not an HTTP status", entry.key_span("status"))
    headers = entry.get("headers")
    canned = Canned(
        status=status.value if status is not None else 200,
        headers=tuple((str(k), str(v)) for k, v in (literal(headers) or {}).items()) if headers is not None else (),
        declared_at=str(entry.span) if entry.span is not None else None,
    )
    failure = entry.connection_failure
    if failure is not None and failure.value:
        return replace(canned, failure="connect")
    cancelled = entry.get("cancelled")  # a mock response only (a health endpoint has no such directive)
    if cancelled is not None and cancelled.value:
        return replace(canned, failure="cancel")
    stream = entry.get("stream_body")
    if stream is not None:
        headers = canned.headers + (("content-type", "text/event-stream"),)
        return replace(canned, raw=sse_body(literal(stream)), headers=headers)
    raises = entry.get("raises")
    if raises is not None:
        if canned.status < 300:
            raise FixtureInvalid("`raises` belongs on a non-2xx mock entry (its status fixes the §7 category)", entry.key_span("raises"))
        # The call raises the literal exception (wire.CapturedWire.literal_exception); the envelope is
        # the OpenAI-compatible error body the status came with, kept for the record.
        message = raised_message(raises)
        return replace(canned, body={"error": {"message": message, "type": raises.error_type.value}},
                       raises=(raises.error_type.value, message))
    body = entry.body
    if body is None:
        return canned
    value = literal(body)
    if isinstance(value, str):  # a body the fixture wrote as text: sent verbatim (malformed JSON …)
        return replace(canned, raw=value.encode("utf-8"))
    return replace(canned, body=value)


def canned_responses(entries: Any) -> list[Canned]:
    """A ``mock_provider.responses`` / ``mock_llm`` list as canned answers, in order."""
    return [canned_response(entry) for entry in (entries.items if entries is not None else ())]


def mock_entries(scenario: Any) -> Any:
    """The scenario's canned-response list (the AST sequence): ``mock_provider.responses`` or
    ``mock_llm``; None when it declares neither."""
    provider = scenario.view.mock_provider
    if provider is not None and provider.responses is not None:
        return provider.responses
    return scenario.view.mock_llm


def mock_wire(scenario: Any, sleep: Any = None) -> CapturedWire | None:
    """The case's captured wire, serving its mock LLM responses; None without a mock LLM.

    A ``mock_provider.health_endpoint`` is served first: ``ready()`` probes it before anything else.
    ``sleep`` is the case's clock for canned delays (default: real ``asyncio.sleep``).
    """
    provider = scenario.view.mock_provider
    entries = mock_entries(scenario)
    if provider is None and entries is None:
        return None
    responses = canned_responses(entries)
    health = provider.health_endpoint if provider is not None else None
    if health is not None:
        responses = [canned_response(health)] + responses
    wire = CapturedWire(responses, hosts=hosts_of([MOCK_BASE_URL]))
    if sleep is not None:
        wire.sleep = sleep
    model = bound_model(scenario)
    wire.classifiers[None] = status_classifier(lambda transport: openai_provider(transport, model), _probe_completion)
    return wire


async def _probe_completion(provider: Any) -> Any:
    from ...host.llm import UserMessage

    return await provider.complete([UserMessage(content="probe")])


def bound_model(scenario: Any) -> str:
    """The model the mock provider is bound to: the ``model`` its first canned completion reports
    (the mock stands for one deployed model), else :data:`DEFAULT_MODEL`."""
    for entry in _items(mock_entries(scenario)):
        body = entry.body
        value = literal(body) if body is not None and not isinstance(body, Scalar) else None
        model = value.get("model") if isinstance(value, dict) else None
        if isinstance(model, str) and model:
            return model
    return DEFAULT_MODEL


def readiness_probe(scenario: Any) -> str:
    """The readiness probe the mocked ``health_endpoint.path`` implies (default: the runtime's)."""
    provider = scenario.view.mock_provider
    health = provider.health_endpoint if provider is not None else None
    path = health.path if health is not None else None
    if path is None:
        return "chat_completions"
    probe = READINESS_PROBES.get(path.value)
    if probe is None:
        raise HarnessPrimitiveMissing(f"a mock health endpoint at {path.value!r} (the OpenAI-compatible provider probes "
                                      f"{sorted(READINESS_PROBES)})", path.span)
    return probe


def openai_provider(wire: CapturedWire, model: str = DEFAULT_MODEL, **options: Any) -> Any:
    """The real ``OpenAIProvider`` bound to ``model``, talking only to ``wire``.

    ``options`` are the provider's own keyword arguments (``readiness_probe``,
    ``force_prompt_augmentation_fallback``, ``genai_system``, ``api_key`` …).
    """
    from ...host.llm import OpenAIProvider

    return OpenAIProvider(base_url=MOCK_BASE_URL, model=model, transport=wire, **options)


def _items(entries: Any) -> Iterable[Any]:
    return entries.items if entries is not None else ()


__all__ = ["DEFAULT_MODEL", "MOCK_BASE_URL", "bound_model", "canned_response", "canned_responses", "mock_entries",
           "mock_wire", "openai_provider", "readiness_probe"]
