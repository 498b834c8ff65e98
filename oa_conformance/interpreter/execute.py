"""Execute pass: run one scenario against the real runtime and record its trace.

Each case runs in its own event loop with its own :class:`Harness` (observers, checkpointer,
counters): nothing is shared between cases, so cases can run side by side in threads and overlap
the sleeps fixtures make on purpose. A case that outlives its time limit is cut off and recorded as
timed out — a hung runtime fails one case, not the run.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from openarmature import graph as oa

from ..ast.nodes import Scalar, Section
from ..ast.scenarios import Scenario
from .behaviors import NotImplementedDirective
from .graph_build import build_graph
from .harness import Harness, HarnessPrimitiveMissing, RecordingObserver
from .trace import CaseTrace, ErrorRecord, InvocationTrace, plain
from .values import literal

# The scenario- and invocation-level directives this pass acts on (or the assert pass checks).
# Any other directive a case uses is one the adapter cannot honour yet: the case fails as
# "not implemented: <directive>" instead of running with the directive silently ignored.
CASE_DIRECTIVES = frozenset((
    "name", "description", "cases", "conformance_version", "graph", "state", "entry", "nodes", "edges",
    "subgraph", "subgraphs", "subgraph_with_idx", "initial_state", "observers", "invoke", "invoke_with",
    "invocations", "checkpointer", "clock_stub", "middleware", "caller_correlation_id", "caller_invocation_id",
    "caller_metadata", "expected", "expected_error", "expected_compile_error", "expected_compile_warning", "invariants",
))
INVOCATION_DIRECTIVES = frozenset((
    "name", "description", "initial_state", "expected", "expected_error", "invariants", "drain",
    "caller_invocation_id", "caller_metadata", "correlation_id",
))


def unsupported(scenario: Scenario) -> tuple[str, Any] | None:
    """The first directive of the scenario this pass cannot execute, with its span."""
    for source in scenario.sources():
        allowed = CASE_DIRECTIVES
        for name in source.order:
            if name not in allowed:
                return name, source.key_span(name)
    invocations = scenario.get("invocations")
    if invocations is not None and not isinstance(invocations, Scalar):
        for invocation in invocations.items:
            for name in invocation.order:
                if name not in INVOCATION_DIRECTIVES:
                    return f"invocations[].{name}", invocation.key_span(name)
    elif isinstance(invocations, Scalar):
        return "invocations (count form)", scenario.where("invocations").key_span("invocations")
    return None


class CaseTimeout(Exception):
    pass


def execute_case(scenario: Scenario, timeout: float = 60.0) -> CaseTrace:
    """Run ``scenario`` in a fresh event loop and return its trace (compile errors included)."""
    return asyncio.run(_with_limit(scenario, timeout))


async def _with_limit(scenario: Scenario, timeout: float) -> CaseTrace:
    try:
        return await asyncio.wait_for(_run(scenario), timeout)
    except (asyncio.TimeoutError, TimeoutError):
        raise CaseTimeout(f"the case did not finish within {timeout:g} s") from None


def error_record(error: BaseException) -> ErrorRecord:
    """A runtime error as data: category, message, originating node, cause chain, exposed fields."""
    node = None
    for attribute in ("node_name", "source_node", "producing_node"):
        node = node or getattr(error, attribute, None)
    chain = []
    current: BaseException | None = error
    while current is not None:
        chain.append(plain({
            "category": getattr(current, "category", None),
            "message": str(current),
            "type": type(current).__name__,
            "carrier": isinstance(current, oa.NodeException),
        }))
        current = current.__cause__
    attributes = {}
    for name in ("recoverable_state", "branch_name", "fan_out_category", "field_name", "reducer_name", "returned",
                 "fields", "from_version", "to_version", "registered_migrations_count"):
        if hasattr(error, name):
            attributes[name] = getattr(error, name)
    try:  # the runtime's own reading of the chain: the originating, non-carrier message
        derived = oa.classify_cause_chain(error).message or str(error)
    except Exception:  # a non-graph error (e.g. state validation before invoke) has no chain to read
        derived = str(error)
    attributes["raw_message"] = str(error)
    return ErrorRecord(
        category=getattr(error, "category", None),
        message=derived,
        type_name=type(error).__name__,
        node=node,
        chain=tuple(chain),
        attributes=plain(attributes),
    )


def _checkpointer(spec: Any) -> Any:
    from openarmature.checkpoint import FanOutInternalSaveBatching, InMemoryCheckpointer, SQLiteCheckpointer

    if spec is None:
        return None
    kind = spec.value if isinstance(spec, Scalar) else spec.kind.value
    if kind == "in_memory":
        return InMemoryCheckpointer()
    if kind == "in_memory_batched" or (isinstance(spec, Section) and spec.get("fan_out_internal_save_batching") is not None):
        flush = spec.fan_out_internal_save_batching.flush_every.value if isinstance(spec, Section) else 0
        return InMemoryCheckpointer(fan_out_internal_save_batching=FanOutInternalSaveBatching(flush_every=flush))
    if kind == "sqlite":
        import tempfile

        directory = tempfile.mkdtemp(prefix="oa-checkpoint-")
        return SQLiteCheckpointer(f"{directory}/checkpoints.db", serialization="json")
    raise HarnessPrimitiveMissing(f"checkpointer backend {kind!r}", spec.span)


def _observers(scenario: Scenario, harness: Harness, built: Any) -> list[Any]:
    """Create the case's observers; attach graph-level ones, return invocation-level ones."""
    per_invocation = []
    declared = scenario.get("observers")
    for decl in (declared.items if declared is not None else ()):
        name = decl.name.value
        behavior = decl.get("behavior").value if decl.get("behavior") is not None else "record"
        if behavior not in ("record", "accumulate", "raise"):
            raise HarnessPrimitiveMissing(f"observer behavior {behavior!r}", decl.behavior.span)
        pacing = decl.get("sleep_ms_per_event")
        observer = RecordingObserver(name, behavior, harness, literal(pacing) if pacing is not None else 0)
        harness.observers[name] = observer
        phases = decl.get("phases")
        phase_set = frozenset(literal(phases)) if phases is not None else None
        attach = decl.get("attach").value if decl.get("attach") is not None else "graph"
        target = _target_graph(decl, built)
        if attach == "graph":
            target.attach_observer(observer, phases=phase_set) if phase_set else target.attach_observer(observer)
        else:
            per_invocation.append(oa.SubscribedObserver(observer, phases=phase_set) if phase_set else observer)
    return per_invocation


def _target_graph(decl: Section, built: Any) -> Any:
    target = decl.get("target")
    name = target.value if target is not None else "outer"
    if name == "outer":
        return built.compiled
    if name == "inner":
        if len(built.subgraphs) != 1:
            raise HarnessPrimitiveMissing("observer target 'inner' needs exactly one subgraph", target.span)
        return next(iter(built.subgraphs.values()))
    if name in built.subgraphs:
        return built.subgraphs[name]
    raise HarnessPrimitiveMissing(f"observer target {name!r}", target.span)


def _invocations(scenario: Scenario) -> list[tuple[str | None, Any]]:
    """(name, source) for each invocation: the `invocations:` entries, or the scenario itself once."""
    listed = scenario.get("invocations")
    if listed is not None and not isinstance(listed, Scalar):
        return [(inv.name.value if inv.get("name") is not None else None, inv) for inv in listed.items]
    return [(None, None)]


async def _run(scenario: Scenario) -> CaseTrace:
    gap = unsupported(scenario)
    if gap is not None:
        raise NotImplementedDirective(*gap)
    harness = Harness()
    harness.checkpointer = _checkpointer(scenario.get("checkpointer"))
    clock = scenario.get("clock_stub")
    if clock is not None:
        harness.clock_step_ms = float(clock.advance_ms_per_call.value)
    try:
        built = build_graph(scenario, harness)
    except oa.CompileError as error:
        return CaseTrace(compile_error=error_record(error))
    invocation_observers = _observers(scenario, harness, built)
    traces = []
    for index, (name, source) in enumerate(_invocations(scenario)):
        harness.invocation_index = index
        traces.append(await _invoke(scenario, source, name, harness, built, invocation_observers))
    return CaseTrace(
        compile_warnings=built.warnings,
        invocations=tuple(traces),
        middleware_log=plain(harness.middleware_log),
    )


def _get(scenario: Scenario, source: Section | None, directive: str) -> Any:
    if source is not None and source.get(directive) is not None:
        return source.get(directive)
    return scenario.get(directive)


async def _invoke(scenario: Scenario, source: Section | None, name: str | None, harness: Harness, built: Any, observers: list) -> InvocationTrace:
    compiled = built.compiled
    initial = _get(scenario, source, "initial_state")
    execution_start = len(harness.execution)
    delivery_start = len(harness.deliveries)
    event_start = {n: len(o.events) for n, o in harness.observers.items()}
    kwargs: dict[str, Any] = {}
    correlation = _get(scenario, source, "caller_correlation_id") or _get(scenario, source, "correlation_id")
    if correlation is not None:
        kwargs["correlation_id"] = correlation.value
    caller_id = _get(scenario, source, "caller_invocation_id")
    if caller_id is not None:
        kwargs["invocation_id"] = caller_id.value
    metadata = _get(scenario, source, "caller_metadata")
    if metadata is not None:
        kwargs["metadata"] = literal(metadata)
    outcome, final_state, error = "completed", None, None
    try:
        state = built.state_cls(**(literal(initial) if initial is not None else {}))
        result = await compiled.invoke(state, observers=observers or None, **kwargs)
        final_state = plain(result)
    except (oa.GraphError, Exception) as raised:  # any failure is the outcome under test
        if isinstance(raised, HarnessPrimitiveMissing):
            raise
        outcome, error = "errored", error_record(raised)
    drain = None
    invoke_block = (source if source is not None else None) or scenario.get("invoke") or scenario.get("invoke_with")
    drain_spec = invoke_block.get("drain") if invoke_block is not None else None
    if drain_spec is not None:
        timeout = drain_spec.get("timeout_seconds")
        summary = await compiled.drain(timeout=timeout.value if timeout is not None else None)
        drain = plain({"timeout_reached": summary.timeout_reached, "undelivered_count": summary.undelivered_count})
    # Collect everything still queued so the recorded events are complete (the fixture's own drain,
    # if any, has already been measured above).
    await compiled.drain()
    invocation_id, correlation_id = harness.invocation_ids[-1] if harness.invocation_ids else (None, None)
    return InvocationTrace(
        name=name,
        outcome=outcome,
        final_state=final_state,
        error=error,
        invocation_id=invocation_id,
        correlation_id=correlation_id,
        execution_order=plain(harness.execution[execution_start:]),
        events=plain({n: o.events[event_start.get(n, 0):] for n, o in harness.observers.items()}),
        deliveries=plain(harness.deliveries[delivery_start:]),
        accumulators=plain({n: o.buckets for n, o in harness.observers.items() if o.behavior == "accumulate"}),
        drain=drain,
        node_drains=plain(harness.node_drains),
        node_snapshots=plain(harness.node_snapshots),
    )


def new_id() -> str:
    return str(uuid.uuid4())
