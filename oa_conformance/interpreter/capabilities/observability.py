"""The observability directory's harness contract (header comment of the directory's first fixture,
§3.2; conformance-adapter §6.3 OTel collector capture, §6.4 Langfuse mock, §6.9 metric capture).

A graph run in this directory is wrapped by a list of **captures**. Each capture is a factory
``(scenario, harness) -> async context manager`` yielding an object with ``collections() -> dict``:
it is entered before the graph is built (it may attach runtime observers through
``harness.runtime_observers``, which the executor attaches to the outermost graph in list order),
and after the run its ``collections()`` become top-level collections of the trace document
(docs/TRACE.md). A capture also names the case-level directives it honours, so the executor's
supported surface stays explicit.

The seam is :data:`CAPTURES` below: one line per capture module. The OTel capture
(``otel_capture.py``: spans, log records, metrics, the global-provider leak check) is first; a
Langfuse capture and a typed-event capture are added as their own modules with one line each.
Directives a capture does not claim, and no general executor handler serves, still fail the case
as "not implemented".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, AsyncContextManager, Callable

from ..scenarios import Scenario
from . import CapabilityHarness, captures, register
from .. import observability_nodes  # noqa: F401 - registers the directory's node directives
from .observability_direct import is_direct, run_direct
from .langfuse_capture import LANGFUSE_DIRECTIVES, open_langfuse
from .observability_prompts import PROMPT_DIRECTIVES, open_prompts
from .otel_capture import OTEL_DIRECTIVES, open_otel
from .provider_capture import PROVIDER_DIRECTIVES, open_providers
from .typed_events import TYPED_EVENT_DIRECTIVES, open_typed_events
from .queryable_observers import QUERYABLE_DIRECTIVES, open_queryable_observers
from .metadata_reads import open_metadata_reads
from ..retrieval_mock import DIRECTIVES as RETRIEVAL_DIRECTIVES, open_retrieval


@dataclass(frozen=True)
class Capture:
    """One instrument of the observability harness."""

    name: str
    open: Callable[[Scenario, Any], AsyncContextManager[Any]]  # yields an object with collections()
    case_directives: frozenset[str] = frozenset()
    invocation_directives: frozenset[str] = frozenset()


# The captures wrapped around every graph run of the directory, entered in this order (and exited
# in reverse). Add a capture with one line here.
CAPTURES: list[Capture] = [
    Capture("otel", open_otel, OTEL_DIRECTIVES),
    Capture("providers", open_providers, PROVIDER_DIRECTIVES),
    Capture("langfuse", open_langfuse, LANGFUSE_DIRECTIVES),  # after otel: a supplied client binds to its global provider
    Capture("typed_events", open_typed_events, TYPED_EVENT_DIRECTIVES),
    Capture("queryable_observers", open_queryable_observers, QUERYABLE_DIRECTIVES),
    Capture("metadata_reads", open_metadata_reads),  # what get_invocation_metadata() gave node code
    Capture("prompts", open_prompts, PROMPT_DIRECTIVES),
    Capture("retrieval", open_retrieval, RETRIEVAL_DIRECTIVES),  # the mock embedding / rerank providers
]

# Case-level directives the directory's general graph directives add (executed in execute.py /
# the node directives); listed here so the executor accepts them in this directory.
# `inner_subgraphs` declares named graphs like `subgraphs:` (graph build finds them by name: a
# name-listed parallel branch runs the entry of its own name).
GRAPH_DIRECTIVES: frozenset[str] = frozenset(("inner_subgraphs",))
# `informative: true` marks a fixture documenting a contract boundary (its .md sidecar). It changes
# nothing the adapter runs or checks: the case is judged like any other, so a failure is reported.
MARKER_DIRECTIVES = frozenset(("informative",))

# The no-graph case shape (observability_direct.py).
DIRECT_DIRECTIVES = frozenset(("direct_call",))
# Runs of one graph with the case's observers attached throughout (interpreter/resume.py).
SEQUENTIAL_DIRECTIVES = frozenset(("sequential_invocations",))


# Enter every capture around the graph run, in list order; their collections merge into the trace.
instrument = captures(*(capture.open for capture in CAPTURES))


def _union(attribute: str) -> frozenset[str]:
    return frozenset().union(*(getattr(capture, attribute) for capture in CAPTURES))


HARNESS = register(CapabilityHarness(
    capability="observability",
    case_directives=_union("case_directives") | GRAPH_DIRECTIVES | MARKER_DIRECTIVES | DIRECT_DIRECTIVES | SEQUENTIAL_DIRECTIVES,
    invocation_directives=_union("invocation_directives"),
    instrument=instrument,
    is_direct=is_direct,
    run_direct=run_direct,
))
