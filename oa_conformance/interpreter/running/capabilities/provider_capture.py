"""The mock providers node bodies call in observability graphs (the directory header: ``mock_llm`` —
"canned responses for an OpenAI-compatible mock provider (per llm-provider §8 wire format)" — and
the case-level ``provider`` block).

One :class:`~..wire.CapturedWire` per case serves the canned responses in the order requests
arrive; the providers are the runtime's real ``OpenAIProvider`` over it (``llm_mock.py``), one per
model a node names. Node bodies find them on ``harness.instruments.services["llm"]``. What the wire saw becomes
the ``wire`` collection.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from ...static.scenarios import Scenario
from ....model.errors import HarnessPrimitiveMissing
from ..harness import CaptureSeams
from ..llm_mock import MOCK_BASE_URL, bound_model, hosts_of, mock_wire, openai_provider
from ..wire import CapturedWire
from .typed_events import populates_caller_metadata


# A dated snapshot suffix: providers answer a request for a model alias with the snapshot that served
# it (OpenAI: `gpt-4o` is answered as `gpt-4o-2024-08-06`; observability §5.5.3 keeps the two apart
# as gen_ai.request.model and gen_ai.response.model).
SNAPSHOT_SUFFIX = re.compile(r"-\d{4}-\d{2}-\d{2}\Z")


def requested_model(served: str) -> str:
    """The model a node's call requests when it names none: the one the canned completion reports
    having served, without a dated snapshot suffix."""
    return SNAPSHOT_SUFFIX.sub("", served)


class LlmProviders:
    """The case's mock LLM providers, built on first use (one per model, all on one wire)."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.wire = mock_wire(scenario)
        self.default_model = requested_model(bound_model(scenario))
        self._providers: dict[str, Any] = {}
        self.responses: list[Any] = []  # every completed call's Response, as plain data, in completion order
        self._returned: dict[str | None, int] = {}  # completed calls per invocation id
        declared = scenario.view.provider
        # Whether the typed events snapshot caller metadata: the typed-event collectors' opt-in.
        self.options: dict[str, Any] = {"populate_caller_metadata": populates_caller_metadata(scenario)}
        if declared is not None:
            kind = declared.type  # the provider the captured wire serves
            if kind is not None and kind.value != "openai_compatible":
                raise HarnessPrimitiveMissing(f"provider type {kind.value!r}", kind.span)
            system = declared.genai_system
            if system is not None:
                self.options["genai_system"] = system.value

    def record(self, response: Any, invocation: str | None) -> None:
        """A call that returned ``response`` inside ``invocation``."""
        self.responses.append(response.model_dump(mode="json"))
        self._returned[invocation] = self._returned.get(invocation, 0) + 1

    def returned_in(self, invocation: str | None) -> int:
        """How many calls have returned inside ``invocation`` so far."""
        return self._returned.get(invocation, 0)

    def provider(self, model: str | None, span: Any = None) -> Any:
        if self.wire is None:
            # No canned responses: a call the runtime rejects before sending (llm-provider §3
            # validation) still needs a provider; any request that does go out overruns the empty
            # wire and is recorded there as a failure.
            self.wire = CapturedWire([], hosts=hosts_of([MOCK_BASE_URL]))
        model = model or self.default_model
        if model not in self._providers:
            self._providers[model] = openai_provider(self.wire, model=model, **self.options)
        return self._providers[model]

    def collections(self) -> dict[str, Any]:
        if self.wire is None:
            return {}
        return {"wire": self.wire.document(), "llm_responses": list(self.responses)}


@contextlib.asynccontextmanager
async def open_providers(scenario: Scenario, seams: CaptureSeams):
    providers = LlmProviders(scenario)
    seams.services["llm"] = providers
    yield providers



__all__ = ["LlmProviders", "open_providers"]
