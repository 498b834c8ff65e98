"""Per-directory harness contracts (spec §3.2 header comments; conformance-adapter §6).

The graph executor (``execute.py``) knows the general §4–§5 surface. A capability directory whose
header comment defines more — direct provider calls, a captured wire, OTel / Langfuse capture, a
prompt backend — registers one :class:`CapabilityHarness` here, in the explicit registry
:data:`HARNESSES` (one module per capability, imported at the bottom of this file):

- ``case_directives`` / ``invocation_directives`` / ``node_directives``: what the directory adds to
  the executor's supported surface; any other directive still fails as "not implemented".
- ``is_direct`` / ``run_direct``: a case that is not a graph run (``calls:`` against a provider, a
  prompt fetch) is executed by ``run_direct`` instead of the graph flow and returns its own trace.
- ``case_expectations``: case-level directives that are expectations (beside ``expected:``, e.g.
  ``expected_wire_request``); the assert pass checks each with the shape registered under its name
  for the capability (``@shape(name, capability=...)``).
- ``instrument``: an async context manager factory wrapped around a graph run (install an OTel
  capture, a mocked wire …). It yields an object with ``collections() -> dict`` called after the run;
  what it returns becomes ``CaseTrace.collections`` (the trace document's top-level collections).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, AsyncContextManager, Awaitable, Callable

from ..scenarios import Scenario
from ...trace import CaseTrace


@dataclass(frozen=True)
class CapabilityHarness:
    capability: str
    case_directives: frozenset[str] = frozenset()
    invocation_directives: frozenset[str] = frozenset()
    case_expectations: frozenset[str] = frozenset()
    is_direct: Callable[[Scenario], bool] = staticmethod(lambda scenario: False)
    run_direct: Callable[[Scenario], Awaitable[CaseTrace]] | None = None
    instrument: Callable[[Scenario, Any], AsyncContextManager[Any]] | None = None


HARNESSES: dict[str, CapabilityHarness] = {}


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
    async def instrument(scenario: Scenario, harness: Any):
        async with contextlib.AsyncExitStack() as stack:
            yield _Captured([await stack.enter_async_context(opener(scenario, harness)) for opener in openers])

    return instrument


def register(harness: CapabilityHarness) -> CapabilityHarness:
    HARNESSES[harness.capability] = harness
    return harness


def harness_for(capability: str | None) -> CapabilityHarness | None:
    return HARNESSES.get(capability) if capability else None


# The explicit registry: one module per capability directory registers its harness on import.
# (Modules are added here as each directory's executor lands.)
from . import observability  # noqa: E402,F401
from . import llm_provider  # noqa: E402,F401
from . import prompt_management  # noqa: E402,F401
from . import retrieval_provider  # noqa: E402,F401
