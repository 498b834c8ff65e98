"""One case's trace as a JSON-like document: the records of :mod:`.record`, thawed once.

``document(trace)`` is the boundary where the frozen records become plain ``dict`` / ``list`` /
scalar data — what catalogue queries (JMESPath) read. The schema is written in docs/TRACE.md; keep
the two in step. Two rules hold throughout:

- A field that was never set is **absent**, not ``null`` (§5.8 distinguishes the two): an
  invocation that completed has no ``error`` key; one that errored has no ``final_state`` key.
- A capability collection (``CaseTrace.collections``) appears at the top level under its own name
  only when the case instrumented it, so a query on a collection the case never recorded finds the
  key missing and is an error, never an empty (vacuously passing) result.

The document is built once per case and never mutated afterwards; queries only read it.
"""

from __future__ import annotations

from typing import Any

from ..kinds import is_mapping, is_sequence
from .record import _ATOMS, CaseTrace, ErrorRecord, InvocationOutcome, InvocationTrace, primary_observer

# CaseTrace's own top-level keys: a capability collection may not shadow one of them.
CORE_KEYS = frozenset((
    "case", "compile_error", "compile_warnings", "invocations", "middleware_log", "checkpoint_saves",
    "notes", "repeats", "mock_calls", "wiring", "collections",
))


def thaw(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """Frozen plain data (pyrsistent maps / vectors, tuples) → dicts and lists; scalars unchanged.

    With ``memo`` (one per document: :func:`document`), a frozen container met again — the trace
    interns equal subtrees (``record.Freezer``), so an unchanged state on every event is the same
    ``pmap`` — thaws to the same dict or list, so the document holds each distinct value once.
    The document is never mutated (queries only read it), so sharing is safe. The frozen value is
    kept alive by the trace while the document is built, so its identity is not reused."""
    if memo is None:
        memo = {}
    return _thaw(value, memo)


def _thaw(value: Any, memo: dict[int, Any]) -> Any:
    if type(value) in _ATOMS:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found[1]
    if is_mapping(value):
        result: Any = {key: _thaw(item, memo) for key, item in value.items()}
    elif is_sequence(value):
        result = [_thaw(item, memo) for item in value]
    else:
        return value
    memo[id(value)] = (value, result)
    return result


def _put(target: dict, key: str, value: Any) -> None:
    """Set ``key`` only when the record set it (None: never set → the key stays absent)."""
    if value is not None:
        target[key] = value


def error_document(error: ErrorRecord, memo: dict[int, Any] | None = None) -> dict:
    """An error: category (absent when the error has none), message, type, node, its cause chain
    (outermost first, each link {category?, message, type, carrier?}) and the other fields it exposes."""
    memo = {} if memo is None else memo
    found: dict[str, Any] = {"message": error.message, "type": error.type_name}
    _put(found, "category", error.category)
    _put(found, "node", error.node)
    found["chain"] = [{key: item for key, item in thaw(link, memo).items() if item is not None} for link in error.chain]
    attributes = thaw(error.attributes, memo)
    if attributes:
        found["attributes"] = attributes
    return found


def invocation_document(index: int, invocation: InvocationTrace, first_sequence: int, memo: dict[int, Any] | None = None) -> dict:
    """One invocation; ``first_sequence`` is the case-wide number of its first delivery."""
    memo = {} if memo is None else memo
    found: dict[str, Any] = {"index": index, "outcome": invocation.outcome.value}  # the document holds plain data
    _put(found, "name", invocation.name)
    _put(found, "role", invocation.role)
    _put(found, "id", invocation.invocation_id)
    _put(found, "correlation_id", invocation.correlation_id)
    if invocation.outcome is InvocationOutcome.COMPLETED:
        found["final_state"] = thaw(invocation.final_state, memo)
    if invocation.error is not None:
        found["error"] = error_document(invocation.error, memo)
    found["call"] = thaw(invocation.call, memo)
    if invocation.initial_state is not None:
        found["initial_state"] = thaw(invocation.initial_state, memo)
    found["execution_order"] = thaw(invocation.execution_order, memo)
    found["node_log"] = thaw(invocation.node_log, memo)
    found["observers"] = [{"name": name, "behavior": behavior} for name, behavior in invocation.observers]
    if invocation.observers:
        found["primary_observer"] = primary_observer(invocation)
    # Deliveries are numbered case-wide; each observer's k-th event is its k-th delivery (an
    # observer records an event right after its delivery), so events carry the same number.
    deliveries, received = [], {}
    for offset, (observer, context, event) in enumerate(invocation.deliveries):
        sequence = first_sequence + offset
        deliveries.append({"seq": sequence, "observer": observer, **({"context": context} if context is not None else {}),
                           "event": thaw(event, memo)})
        received.setdefault(observer, []).append(sequence)
    found["deliveries"] = deliveries
    events = {}
    for observer, recorded in invocation.events.items():
        numbers = received.get(observer, [])
        events[observer] = [{**thaw(event, memo), "seq": numbers[k]} if k < len(numbers) else thaw(event, memo)
                            for k, event in enumerate(recorded)]
    found["events"] = events
    found["accumulators"] = thaw(invocation.accumulators, memo)
    _put(found, "drain", thaw(invocation.drain, memo))
    _put(found, "settle_drain", thaw(invocation.settle_drain, memo))
    found["node_drains"] = thaw(invocation.node_drains, memo)
    found["node_snapshots"] = thaw(invocation.node_snapshots, memo)
    checkpoint = {key: item for key, item in thaw(invocation.checkpoint, memo).items() if item is not None}
    if checkpoint:
        found["checkpoint"] = checkpoint
    extra = thaw(invocation.extra, memo)
    if extra:
        found["extra"] = extra
    return found


def middleware_entry(entry: Any, memo: dict[int, Any] | None = None) -> dict:
    """A middleware-log entry ``(kind, ...)`` as ``{kind, ...}``: trace records {kind: trace,
    recorder, record}, markers {kind: marker, marker, middleware}, timing records {kind: timing,
    record}, harness callbacks {kind: on_caught | degraded_callable, record}."""
    memo = {} if memo is None else memo
    kind, *rest = list(entry)
    if kind == "trace" and len(rest) == 2:
        return {"kind": kind, "recorder": thaw(rest[0], memo), "record": thaw(rest[1], memo)}
    if kind == "marker" and len(rest) == 2:
        return {"kind": kind, "marker": thaw(rest[0], memo), "middleware": thaw(rest[1], memo)}
    if len(rest) == 1:
        return {"kind": kind, "record": thaw(rest[0], memo)}
    return {"kind": kind, "values": thaw(rest, memo)}


def document(trace: CaseTrace, memo: dict[int, Any] | None = None) -> dict:
    """The whole case trace as plain dicts and lists (docs/TRACE.md); shared frozen subtrees
    thaw once (one ``memo`` for the whole document, repeats included)."""
    memo = {} if memo is None else memo
    found: dict[str, Any] = {}
    parameters = thaw(trace.parameters, memo)
    if parameters:
        found["case"] = parameters
    if trace.compile_error is not None:
        found["compile_error"] = error_document(trace.compile_error, memo)
    found["compile_warnings"] = list(trace.compile_warnings)
    invocations, sequence = [], 0
    for index, invocation in enumerate(trace.invocations):
        invocations.append(invocation_document(index, invocation, sequence, memo))
        sequence += len(invocation.deliveries)
    found["invocations"] = invocations
    found["middleware_log"] = [middleware_entry(entry, memo) for entry in trace.middleware_log]
    found["checkpoint_saves"] = thaw(trace.checkpoint_saves, memo)
    found["notes"] = list(trace.notes)
    found["mock_calls"] = [{"mock": key[0], "node": key[1], **({"instance": thaw(key[2:], memo)} if len(key) > 2 else {}), "calls": calls}
                           for key, calls in trace.mock_calls.items()]
    found["wiring"] = thaw(trace.wiring, memo)
    if trace.repeats:
        found["repeats"] = [document(repeat, memo) for repeat in trace.repeats]
    for name, collection in trace.collections.items():
        if name in CORE_KEYS:
            raise ValueError(f"collection {name!r} would shadow the trace's own {name!r}")
        found[name] = thaw(collection, memo)
    return found


__all__ = ["document", "error_document", "thaw"]
