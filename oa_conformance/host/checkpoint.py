"""Checkpointing and resume (pipeline-utilities §10): backends, records, positions and fan-out
progress — the runtime's public ``openarmature.checkpoint``."""

from __future__ import annotations

from typing import Any, Iterable

from openarmature.checkpoint import (
    CheckpointError,
    CheckpointRecord,
    FanOutInstanceProgress,
    FanOutInternalSaveBatching,
    FanOutProgress,
    InMemoryCheckpointer,
    NodePosition,
    SQLiteCheckpointer,
)

from .detect import dataclass_with, optional

# A nested fan-out's lineage entry (per-enclosing-instance resume): not in every build.
EnclosingFanOutInstance = optional("openarmature.checkpoint", "EnclosingFanOutInstance")


def fan_out_progress(lineage: Iterable[dict], **fields: Any) -> Any:
    """A ``FanOutProgress`` record; its enclosing fan-out lineage only where the build records one
    (an empty lineage is what a build without the field means)."""
    entries = tuple(EnclosingFanOutInstance(**entry) for entry in lineage)
    return dataclass_with(FanOutProgress, fields, {"enclosing_fan_out_lineage": entries})


__all__ = [
    "CheckpointError", "CheckpointRecord", "EnclosingFanOutInstance", "FanOutInstanceProgress",
    "FanOutInternalSaveBatching", "FanOutProgress", "InMemoryCheckpointer", "NodePosition", "SQLiteCheckpointer",
    "fan_out_progress",
]
