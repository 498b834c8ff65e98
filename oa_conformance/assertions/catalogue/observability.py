"""The observability table: one capability, two data modules (the OTel-side rows and the Langfuse /
typed-event rows), concatenated here so the registry stays one module per capability."""

from __future__ import annotations

from .observability_langfuse import ROWS as LANGFUSE_ROWS
from .observability_otel import ROWS as OTEL_ROWS

ROWS = (*OTEL_ROWS, *LANGFUSE_ROWS)
