"""The adapter's own exceptions that end a case with a §9 category, raised from several layers.

The host binding (``host/detect.py``: the build lacks an API), the harness and its capability
modules (a primitive the adapter does not provide, a block it cannot build from) and the values
the harness synthesizes all raise these; the pipeline (``pipeline.run_case``) turns each into the
case's verdict. They sit below every package that raises them, so none imports another for them.
"""

from __future__ import annotations

from .diagnostics import FIXTURE_SCHEMA_INVALID, HARNESS_PRIMITIVE_MISSING, Span


class HarnessPrimitiveMissing(Exception):
    """A fixture names a backend, callable or behaviour this adapter does not provide (§9)."""

    category = HARNESS_PRIMITIVE_MISSING

    def __init__(self, what: str, span: Span | None = None):
        super().__init__(what)
        self.what = what
        self.span = span


def harness_missing(error: BaseException | None) -> HarnessPrimitiveMissing | None:
    """The ``HarnessPrimitiveMissing`` an error is, or was raised from: a node body's own error
    reaches the caller wrapped by the runtime (``NodeException``), and a primitive the harness (or
    the build under test) lacks is never the outcome under test."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, HarnessPrimitiveMissing):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


class FixtureInvalid(Exception):
    """A block the schema accepts but the harness cannot build from (a call without the inputs its
    operation needs, a malformed template segment): ``fixture_schema_invalid`` at its line (§9)."""

    category = FIXTURE_SCHEMA_INVALID

    def __init__(self, what: str, span: Span | None = None):
        super().__init__(what)
        self.what = what
        self.span = span
