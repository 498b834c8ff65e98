"""The llm-provider directory's harness contract (the header comment of fixture 001, §3.2, and the
headers of 005 / 007 / 026 / 032 / 060 that add to it).

A case here is not a graph run: it builds one mock provider — the runtime's real
``OpenAIProvider`` over a :class:`~..wire.CapturedWire` preloaded with ``mock_provider.responses``
(:mod:`..llm_mock`) — and makes its calls directly: one ``call:`` (the case's ``expected:`` is
about it) or a ``calls:`` list (each entry carries its own ``expected:``), in order, against the
same provider. Each call's inputs become the runtime's own types (``Message``, ``Tool``,
``ForceTool``, ``RuntimeConfig``, ``LlmRetryConfig``); what it returned or raised is recorded.

Retry runs on the runtime's real retry loops (``complete(retry=LlmRetryConfig)`` and, for
``retry_middleware``, the real ``RetryMiddleware`` around the call) with a controlled clock: the
fixture's backoff function is the runtime's own (``deterministic_backoff``), wrapped so that the
delay it asks for is recorded on the case's virtual clock and the loop waits zero real seconds.

The trace's collections (docs/TRACE.md):

    wire    the captured wire (wire.py)
    calls[] {index, operation, requests: [wire request indices this call sent], inputs
             {response_schema} (when the call requested structured output),
             result (the Response as plain data) | error {category, message, type, chain,
             attributes}, messages_unmodified / config_unmodified (the caller's messages / config
             compare equal after the call, whatever its outcome)}
    clock   {now, sleeps: [{attempt, seconds}]} — the backoff delays the retry loops asked for
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from ....ast.nodes import Scalar, Section
from ...static.scenarios import Scenario
from ....model.trace import CaseTrace, plain
from ..error_record import error_record
from ..behaviors import NotImplementedDirective
from ..middleware import _backoff, _classifier
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing, harness_missing
from ..llm_mock import bound_model, mock_wire, openai_provider, readiness_probe
from ....ast.values import literal
from .contract import CapabilityHarness
from ....model.vocabulary import VOCABULARY

CAPABILITY = "llm-provider"

# What a call entry and the mock may hold (the rows their parent reads); anything else fails the
# case as not implemented.
CALL_DIRECTIVES = VOCABULARY.handled_by("llm_call", ("part",)) | VOCABULARY.handled_by("llm_call_step", ("part",))
MOCK_DIRECTIVES = VOCABULARY.handled_by("llm_mock_provider", ("part",))


@dataclass
class VirtualClock:
    """The case's clock: retry backoff and canned delays advance it without real waiting."""

    now: float = 0.0
    sleeps: list[dict[str, Any]] = field(default_factory=list)

    def backoff(self, real: Any) -> Any:
        """The runtime's backoff function, with the delay it asks for recorded here instead of slept."""

        if real is None:  # `backoff: {type: default}` names the graph retry middleware's default, not a call's
            raise HarnessPrimitiveMissing("backoff type 'default' on a direct llm-provider call")

        def wait(attempt: int) -> float:
            seconds = float(real(attempt))
            self.sleeps.append({"attempt": attempt, "seconds": seconds})
            self.now += seconds
            return 0.0

        return wait

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append({"attempt": None, "seconds": float(seconds)})
        self.now += seconds
        await asyncio.sleep(0)

    def document(self) -> dict[str, Any]:
        return {"now": self.now, "sleeps": list(self.sleeps)}


def is_direct(scenario: Scenario) -> bool:
    return scenario.view.call is not None or scenario.view.calls is not None


def call_steps(scenario: Scenario) -> list[Section]:
    """The calls the case makes, in order."""
    single = scenario.view.call
    return [single] if single is not None else list(scenario.view.calls.items)


async def run_direct(scenario: Scenario) -> CaseTrace:
    mapping = scenario.view.mapping
    if mapping is not None and mapping.value != "openai":  # anthropic / gemini are recognized skips (features.py)
        raise HarnessPrimitiveMissing(f"an llm-provider wire mapping {mapping.value!r}", mapping.span)
    mock = scenario.view.mock_provider
    for name in (mock.order if mock is not None else ()):
        if name not in MOCK_DIRECTIVES:
            raise NotImplementedDirective(f"mock_provider.{name}", mock.key_span(name))
    steps = call_steps(scenario)
    for step in steps:
        for name in step.order:
            if name not in CALL_DIRECTIVES:
                raise NotImplementedDirective(f"call.{name}", step.key_span(name))
        if step.operation.value == "complete" and step.messages is None:
            raise FixtureInvalid("a complete call needs `messages` (llm-provider §5)", step.key_span("operation"))
    clock = VirtualClock()
    wire = mock_wire(scenario, sleep=clock.sleep)
    if wire is None:
        raise HarnessPrimitiveMissing("a call without a mock_provider to call", scenario.section.span)
    provider = openai_provider(wire, model=bound_model(scenario), readiness_probe=readiness_probe(scenario),
                               force_prompt_augmentation_fallback=_uses_fallback(mock))
    records = []
    spans = _span_capture(scenario)
    try:
        for index, step in enumerate(steps):
            call = _call(provider, step, index, wire, clock)
            records.append(await (_inside_invocation(call, spans.observer) if spans is not None else call))
    finally:
        await provider.aclose()
    collections = {"wire": wire.document(), "calls": records, "clock": clock.document()}
    if spans is not None:
        spans.observer.shutdown()
        collections["otel"] = spans.collections()["otel"]
    return CaseTrace(collections=plain(collections))


# Expectations about the LLM spans (llm-provider §7.1 per-attempt spans, observability §5.5): the
# runtime emits its provider events only inside a graph invocation, so a case asserting them runs
# each call in the body of a one-node graph with the runtime's OTelObserver attached.
SPAN_EXPECTATIONS = frozenset(("llm_spans",))


def _span_capture(scenario: Scenario) -> Any:
    from ....ast.visitor import walk
    from .otel_capture import OtelCapture

    wanted = any(isinstance(node, Section) and node.family == "expected" and SPAN_EXPECTATIONS & set(node.order)
                 for source in scenario.sources() for node in walk(source))
    return OtelCapture(scenario) if wanted else None


async def _inside_invocation(call: Any, observer: Any) -> dict[str, Any]:
    """Run ``call`` (which records its own outcome and never raises) as the body of a one-node graph."""
    from ....host import graph as oa

    class CallState(oa.State):
        pass

    outcome: dict[str, Any] = {}

    async def body(state: Any) -> dict[str, Any]:
        outcome["record"] = await call
        return {}

    builder = oa.GraphBuilder(CallState)
    builder.add_node("llm_call", body)
    builder.set_entry("llm_call")
    builder.add_edge("llm_call", oa.END)
    compiled = builder.compile()
    compiled.attach_observer(observer)
    try:
        await compiled.invoke(CallState())
    except Exception as raised:  # only a missing primitive escapes the body (it records every other outcome)
        raise harness_missing(raised) or raised
    await compiled.drain()
    return outcome["record"]


def _uses_fallback(mock: Section | None) -> bool:
    """A model without native structured output gets the runtime's prompt-augmentation fallback
    (llm-provider §8.1.5.1). The other capability flag, ``supports_image_input``, has no
    construction knob: the OpenAI-compatible provider learns it from the server's rejection, which
    the fixture's canned response supplies."""
    flags = mock.capabilities if mock is not None else None
    if flags is None:
        return False
    for flag in (flags.supports_native_response_format, flags.supports_native_structured_output):
        if flag is not None and not flag.value:
            return True
    return False


async def _call(provider: Any, step: Section, index: int, wire: Any, clock: VirtualClock) -> dict[str, Any]:
    operation = step.operation.value
    first_request = len(wire.requests)
    record: dict[str, Any] = {"index": index, "operation": operation}
    arguments: dict[str, Any] = {}
    before: dict[str, Any] = {}
    try:
        if operation == "ready":
            await provider.ready()
            record["result"] = {"ready": True}
        else:
            arguments = _arguments(step, clock)
            builder = getattr(arguments.get("retry"), "reask", None)
            if builder is not None:
                builder.requests_sent = lambda: len(wire.requests) - first_request
            before = _caller_inputs(arguments)
            if "response_schema" in arguments:
                record["inputs"] = {"response_schema": arguments["response_schema"]}
            call = _with_retry_middleware(step, clock, lambda: provider.complete(**arguments))
            record["result"] = (await call()).model_dump(mode="json")
    except HarnessPrimitiveMissing:
        raise
    except Exception as raised:  # what the runtime raised is the outcome under test
        record["error"] = _error(raised)
    except asyncio.CancelledError as raised:
        # The outcome under test only when this call's wire served a `cancelled: true` response (llm-provider
        # §7.1 has the signal propagate); any other cancellation (the case's own deadline) is not the runtime's.
        if not any(served.get("failure") == "cancel" and served["request"] >= first_request for served in wire.served):
            raise
        record["error"] = _error(raised)
    if before:  # the caller's objects after the call, whatever its outcome (llm-provider §7.1: never mutated)
        after = _caller_inputs(arguments)
        record["messages_unmodified"] = after["messages"] == before["messages"]
        record["config_unmodified"] = after["config"] == before["config"]
    record["requests"] = list(range(first_request, len(wire.requests)))
    builder = getattr(arguments.get("retry"), "reask", None)
    if builder is not None:  # attempt k failed once k + 1 requests were sent
        record["reask_builder_after_attempts"] = sorted({sent - 1 for sent in builder.invoked_after})
    return record


def _caller_inputs(arguments: dict[str, Any]) -> dict[str, Any]:
    config = arguments.get("config")
    return {"messages": [m.model_dump() for m in arguments["messages"]],
            "config": config.model_dump() if config is not None else None}


def _arguments(step: Section, clock: VirtualClock) -> dict[str, Any]:
    """The call's inputs as the runtime's own types (constructing them is the runtime's validation)."""
    from pydantic import TypeAdapter
    from ....host.llm import ForceTool, Message, Tool, runtime_config

    messages = [_without_nulls(m) for m in literal(step.messages)]
    arguments: dict[str, Any] = {"messages": TypeAdapter(list[Message]).validate_python(messages)}
    if step.tools is not None:
        arguments["tools"] = [Tool(**tool) for tool in literal(step.tools)]
    choice = step.tool_choice
    if choice is not None:
        arguments["tool_choice"] = choice.value if isinstance(choice, Scalar) else ForceTool(**literal(choice))
    if step.config is not None:
        arguments["config"] = runtime_config(literal(step.config))
    if step.response_schema is not None:
        arguments["response_schema"] = literal(step.response_schema)
    if step.retry is not None:
        arguments["retry"] = _retry_config(step.retry, clock)
    return arguments


def _without_nulls(message: Any) -> Any:
    """A message with its null fields left out: the fixtures write an absent field as ``null``
    (an assistant's ``content: null`` beside ``tool_calls``), the runtime's types as a default."""
    return {key: value for key, value in message.items() if value is not None} if isinstance(message, dict) else message


def _retry_config(spec: Section, clock: VirtualClock) -> Any:
    """`call.retry` as the runtime's retry record: the §6.1 ``RetryConfig``, or ``LlmRetryConfig`` when
    the case sets an adaptive field (llm-provider §7.1, conformance-adapter §5.11; see call_retry_config)."""
    from ....host.llm import call_retry_config, runtime_config

    attempts = spec.max_attempts
    overrides = spec.per_attempt_override
    reask = spec.reask
    return call_retry_config(
        max_attempts=attempts.value if attempts is not None else 3,
        classifier=_classifier(spec.classifier),
        backoff=clock.backoff(_backoff(spec.backoff)),
        per_attempt_override=[runtime_config(entry) for entry in literal(overrides)] if overrides is not None else None,
        reask=_reask_builder(reask.template.value) if reask is not None else None,
    )


_PLACEHOLDER = re.compile(r"\{(output_content|error_message)\}")


def _reask_builder(template: str) -> Any:
    """The declarative reask builder (§5.11): the template with the error's ``output_content`` /
    ``error_message`` substituted, and not one character more."""

    def build(error: Any) -> str:
        # `expected.reask_builder_after_attempts` (llm-provider §7.1: only while a further attempt remains): the
        # requests sent so far when the builder runs (_call sets `requests_sent`)
        build.invoked_after.append(build.requests_sent())
        return _PLACEHOLDER.sub(lambda m: str(getattr(error, m.group(1))), template)

    build.invoked_after = []
    build.requests_sent = lambda: 0
    return build


def _with_retry_middleware(step: Section, clock: VirtualClock, call: Any) -> Any:
    """`retry_middleware:` wraps the call in the runtime's pipeline-utilities §6.1 RetryMiddleware."""
    spec = step.retry_middleware
    if spec is None:
        return call
    from ....host import graph as oa

    attempts = spec.max_attempts
    middleware = oa.RetryMiddleware(oa.RetryConfig(
        max_attempts=attempts.value if attempts is not None else 3,
        classifier=_classifier(spec.classifier),
        backoff=clock.backoff(_backoff(spec.backoff)),
    ))

    async def wrapped() -> Any:
        async def next_(state: Any) -> Any:
            return {"response": await call()}

        return (await middleware(None, next_))["response"]

    return wrapped


# The error fields llm-provider §7 defines, as the runtime exposes them (conformance-adapter §5.13).
ERROR_FIELDS = ("retry_after", "block_type", "reason", "response_schema", "output_content", "error_message",
                "finish_reason", "usage", "response_id", "response_model")


def _error(raised: BaseException) -> dict[str, Any]:
    """A raised error as plain data: the executor's record plus the llm-provider §7 fields."""
    record = error_record(raised)
    attributes = dict(record.attributes)
    for name in ERROR_FIELDS:
        if hasattr(raised, name):
            attributes[name] = getattr(raised, name)
    if "retry_after" in attributes:  # the fixtures' unit-explicit name (004); None: the accessor reports no hint
        attributes["retry_after_seconds"] = attributes["retry_after"]
    return {"category": record.category, "message": record.message, "type": record.type_name,
            "chain": list(record.chain), "attributes": plain(attributes)}


HARNESS = CapabilityHarness(capability=CAPABILITY, is_direct=is_direct, run_direct=run_direct)
