"""The observability table: one capability, two data modules (the OTel-side rows and the Langfuse /
typed-event rows), concatenated here so the registry stays one module per capability.

A few names the fixtures use for both backends (the same invariant asserted of the span tree and of
the Langfuse trace) have a row in each module; here they become one row that holds only when it
holds for every backend the case recorded (a backend whose collection is absent is skipped; none
present is "cannot evaluate")."""

from __future__ import annotations

import dataclasses
from typing import Any

from .rows import Compute, Verdict
from .observability_langfuse import ROWS as LANGFUSE_ROWS
from .observability_otel import ROWS as OTEL_ROWS


def _both(first: Compute, second: Compute) -> Compute:
    def judge(scope: dict, expected: Any, **bindings: str) -> Verdict:
        verdicts = []
        for row in (first, second):
            try:
                actual = row.function(scope, expected, **bindings)
            except LookupError:
                continue
            verdicts.append(actual if isinstance(actual, Verdict) else Verdict(actual == expected, f"{actual!r}, expected {expected!r}"))
        if not verdicts:
            raise LookupError("neither backend recorded what the predicate reads")
        failing = [v for v in verdicts if not v.ok]
        return failing[0] if failing else Verdict(True)

    return dataclasses.replace(first, function=judge, why=f"{first.why}; and over the Langfuse trace: {second.why}")


_LANGFUSE = {row.name: row for row in LANGFUSE_ROWS}
_SHARED = {row.name for row in OTEL_ROWS} & set(_LANGFUSE)

ROWS = (
    *(_both(row, _LANGFUSE[row.name]) if row.name in _SHARED else row for row in OTEL_ROWS),
    *(row for row in LANGFUSE_ROWS if row.name not in _SHARED),
)
