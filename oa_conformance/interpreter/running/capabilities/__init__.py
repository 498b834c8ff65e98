"""Per-directory harness contracts (spec §3.2 header comments; conformance-adapter §6): the
explicit tables. A capability directory whose header comment defines more than the graph surface
has one :class:`~.contract.CapabilityHarness` (one module per capability) listed in
:data:`HARNESSES`; the captures a harness may enter around a graph run are :data:`.captures.CAPTURES`.
What each adds to the supported surface is derived from the vocabulary rows (``handled_by``).
"""

from __future__ import annotations

from . import llm_provider, observability, prompt_management, retrieval_provider
from .contract import CapabilityHarness

HARNESSES: dict[str, CapabilityHarness] = {harness.capability: harness for harness in (
    observability.HARNESS,
    llm_provider.HARNESS,
    prompt_management.HARNESS,
    retrieval_provider.HARNESS,
)}


def harness_for(capability: str | None) -> CapabilityHarness | None:
    return HARNESSES.get(capability) if capability else None


__all__ = ["CapabilityHarness", "HARNESSES", "harness_for"]
