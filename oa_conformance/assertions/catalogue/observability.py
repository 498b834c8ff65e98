"""The `observability` table: the directory's rows, one module per backend family.

``PARTS`` lists the modules, in order; a module joins the table with one line here.
"""

from __future__ import annotations

import importlib

PARTS = (
    "observability_otel",  # OTel spans, log records, metric observations
    "observability_langfuse",  # Langfuse traces, typed events
)

ROWS = tuple(row for part in PARTS for row in importlib.import_module(f"{__package__}.{part}").ROWS)
