"""The captures a capability harness may enter around a graph run: the explicit table.

Each entry opens an async context manager over ``(scenario, seams)`` (``harness.CaptureSeams``: what it
adds to the instruments before they are frozen) that yields an object with
``collections()``; a vocabulary row handled by ``capture("<name>")`` is read by the entry of that
name, and a harness that lists the name accepts the row's directive.
"""

from __future__ import annotations

import contextlib
from typing import Any, AsyncContextManager, Callable

from ...static.scenarios import Scenario
from .contract import CapabilityHarness
from .retrieval_mock import open_retrieval
from .langfuse_capture import open_langfuse
from .metadata_reads import open_metadata_reads
from .observability_prompts import open_prompts
from .otel_capture import open_otel
from .provider_capture import open_providers
from .queryable_observers import open_queryable_observers
from .typed_events import open_typed_events

CAPTURES: dict[str, Callable[[Scenario, Any], AsyncContextManager[Any]]] = {
    "otel": open_otel,
    "providers": open_providers,
    "langfuse": open_langfuse,
    "typed_events": open_typed_events,
    "queryable_observers": open_queryable_observers,
    "metadata_reads": open_metadata_reads,  # what get_invocation_metadata() gave node code
    "prompts": open_prompts,
    "retrieval": open_retrieval,  # the mock embedding / rerank providers
}


def instrument_of(harness: CapabilityHarness | None) -> Callable[[Scenario, Any], AsyncContextManager[Any]] | None:
    """The harness's captures entered around a graph run, or None when it has none."""
    if harness is None or not harness.captures:
        return None
    return captures(*(CAPTURES[name] for name in harness.captures))


class _Captured:
    """The captures entered around one run; their collections merge into the trace."""

    def __init__(self, captures: list[Any]):
        self._captures = captures

    def collections(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for capture in self._captures:
            merged.update(capture.collections())
        return merged


def captures(*openers: Callable[[Scenario, Any], AsyncContextManager[Any]]) -> Callable[[Scenario, Any], AsyncContextManager[Any]]:
    """An ``instrument`` entering each capture factory in order (exiting in reverse): each yields an
    object with ``collections()``, and the instrument's collections are theirs merged."""

    @contextlib.asynccontextmanager
    async def instrument(scenario: Scenario, seams: Any):
        async with contextlib.AsyncExitStack() as stack:
            yield _Captured([await stack.enter_async_context(opener(scenario, seams)) for opener in openers])

    return instrument
