"""What node code got from ``get_invocation_metadata()`` (observability §3.4 read access), a capture
for the observability harness's ``instrument``.

``capture_invocation_metadata_into`` writes a copy of the read into state (what the fixture's
``final_state`` compares) and logs the read here: the kind of value returned and what happened when
the harness tried to change it (:func:`mutation_probe`) — §3.4 says the read is an immutable
snapshot, and the directory's prose fails "a mutable mapping that the caller can modify". After
the run the collection ``metadata_reads`` lists the reads in order (docs/TRACE.md); it is absent
when no node read the metadata.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from .observability_direct import value_kind

# A key no fixture or runtime uses: the probe's write, removed again when the write took effect.
PROBE_KEY = "oa_conformance.mutation_probe"


def mutation_probe(value: Any) -> dict[str, Any]:
    """Try to set a key on a returned mapping, as a caller might: ``{attempted, succeeded, exception}``.
    A write that took effect is undone at once, so the probe leaves the run's metadata as it was."""
    if not isinstance(value, Mapping):
        return {"attempted": False, "succeeded": False, "exception": None}
    try:
        value[PROBE_KEY] = True  # type: ignore[index]
    except Exception as error:  # the refusal is the outcome under test: recorded, not an adapter fault
        return {"attempted": True, "succeeded": False, "exception": {"type": type(error).__name__, "message": str(error)}}
    succeeded = PROBE_KEY in value
    if succeeded:
        del value[PROBE_KEY]  # type: ignore[attr-defined]
    return {"attempted": True, "succeeded": succeeded, "exception": None}


class MetadataReads:
    """The log ``capture_invocation_metadata_into`` appends to (``services["metadata_reads"]``)."""

    def __init__(self) -> None:
        self.reads: list[dict[str, Any]] = []

    def record(self, node: str, field: str, value: Any) -> None:
        self.reads.append({"node": node, "field": field, "type": value_kind(value), "mutation": mutation_probe(value)})

    def collections(self) -> dict[str, Any]:
        return {"metadata_reads": list(self.reads)} if self.reads else {}


@contextlib.asynccontextmanager
async def open_metadata_reads(scenario: Scenario, seams: CaptureSeams):
    capture = MetadataReads()
    seams.services["metadata_reads"] = capture
    yield capture
