"""Checkpointing and resume (pipeline-utilities §10): backends, records, positions and fan-out
progress — the runtime's public ``openarmature.checkpoint``."""

from __future__ import annotations

from typing import Any, Iterable

from .detect import dataclass_with, late_bound

RUNTIME = {name: "openarmature.checkpoint" for name in (
    "CheckpointError", "CheckpointRecord", "FanOutInstanceProgress", "FanOutInternalSaveBatching", "FanOutProgress",
    "InMemoryCheckpointer", "NodePosition", "SQLiteCheckpointer",
    "EnclosingFanOutInstance",  # a nested fan-out's lineage entry (per-enclosing-instance resume): not in every build
)}
__getattr__ = late_bound(__name__, RUNTIME)


def fan_out_progress(lineage: Iterable[dict], **fields: Any) -> Any:
    """A ``FanOutProgress`` record; its enclosing fan-out lineage only where the build records one
    (an empty lineage is what a build without the field means)."""
    entries = tuple(__getattr__("EnclosingFanOutInstance")(**entry) for entry in lineage)
    return dataclass_with(__getattr__("FanOutProgress"), fields, {"enclosing_fan_out_lineage": entries})


__all__ = [*RUNTIME, "fan_out_progress"]
