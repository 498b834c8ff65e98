"""The pipeline-utilities predicates: rows named by its fixtures and defined in their prose (.md sidecars)."""

from __future__ import annotations

ROWS = ()
