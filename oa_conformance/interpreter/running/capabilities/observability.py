"""The observability directory's harness contract (header comment of the directory's first fixture,
§3.2; conformance-adapter §6.3 OTel collector capture, §6.4 Langfuse mock, §6.9 metric capture).

A graph run in this directory is wrapped by a list of **captures**. Each capture is a factory
``(scenario, seams) -> async context manager`` yielding an object with ``collections() -> dict``:
it is entered before the graph is built (it may add runtime observers to
``seams.runtime_observers``, which the executor attaches to the outermost graph in list order),
and after the run its ``collections()`` become top-level collections of the trace document
(docs/TRACE.md). The case-level directives a capture honours are the vocabulary rows handled by
``capture("<its name>")``, so the executor's supported surface is derived, never listed here.

The seam is the capture table (``captures.CAPTURES``) and the order below. The OTel capture
(``otel_capture.py``: spans, log records, metrics, the global-provider leak check) is first.
Directives no capture claims, and no general executor handler serves, still fail the case as
"not implemented".
"""

from __future__ import annotations

from .contract import CapabilityHarness
from .observability_direct import is_direct, run_direct

HARNESS = CapabilityHarness(
    capability="observability",
    # The captures wrapped around every graph run of the directory, entered in this order (and
    # exited in reverse): langfuse after otel, as a supplied client binds to its global provider.
    captures=("otel", "providers", "langfuse", "typed_events", "queryable_observers", "metadata_reads", "prompts", "retrieval"),
    is_direct=is_direct,
    run_direct=run_direct,
)
