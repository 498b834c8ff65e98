"""The observability directory's no-graph case shape: ``direct_call: {operation}`` calls one public
observability API outside any invocation (spec/observability §3.4 read access) and records what it
returned, so ``expected.direct_call_result`` (value, type, exception) is checked over the trace.

The operations are the runtime's own functions, looked up by the fixture's operation name in
:data:`OPERATIONS` (add one line per operation the vocabulary admits)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any, Callable

from ...static.scenarios import Scenario
from ....model.trace import CaseTrace, plain


def _operations() -> dict[str, Callable[[], Any]]:
    from ....host.observability import get_invocation_metadata

    return {"get_invocation_metadata": get_invocation_metadata}


def value_kind(value: Any) -> str:
    """The fixture vocabulary's name for a returned value's type: a mapping or sequence is
    ``immutable_`` unless it supports in-place mutation (``MutableMapping`` / ``list``)."""
    if isinstance(value, Mapping):
        return "mutable_mapping" if isinstance(value, MutableMapping) else "immutable_mapping"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "mutable_sequence" if isinstance(value, list) else "immutable_sequence"
    return "none" if value is None else "scalar"


def is_direct(scenario: Scenario) -> bool:
    return scenario.view.direct_call is not None


async def run_direct(scenario: Scenario) -> CaseTrace:
    """Call the operation with no invocation active; an exception is recorded, never raised."""
    operation = scenario.view.direct_call.operation.value
    call: dict[str, Any] = {"operation": operation}
    try:
        value = _operations()[operation]()
    except Exception as error:  # the fixture asserts whether the call raised: record it as data
        call["result"] = {"value": None, "type": None,
                          "exception": {"type": type(error).__name__, "message": str(error)}}
    else:
        call["result"] = {"value": dict(value) if isinstance(value, Mapping) else value,
                          "type": value_kind(value), "exception": None}
    return CaseTrace(collections=plain({"calls": [call]}))
