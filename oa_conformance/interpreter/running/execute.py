"""Execute pass: run one scenario against the real runtime and record its trace.

Each case runs in its own event loop with its own :class:`Harness` (observers, checkpointer,
counters): nothing is shared between cases, so cases can run side by side in threads and overlap
the sleeps fixtures make on purpose. A case that outlives its time limit is cut off and recorded as
timed out — a hung runtime fails one case, not the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from types import MappingProxyType
from typing import Any

from ...host import checkpoint as oa_checkpoint
from ...host import graph as oa

from ...ast.nodes import Node, Scalar, Section
from ...ast.visitor import walk
from ..static.scenarios import Scenario
from .error_record import error_record
from .capabilities import CapabilityHarness
from .capabilities.captures import instrument_of
from .case_output import run_loop
from .graph_build import BuiltGraph, ConfigurationRejected, build_graph
from ...model.errors import FixtureInvalid, HarnessPrimitiveMissing, harness_missing
from .harness import CaptureSeams, Harness, Instruments, InvocationCursor, RecordingObserver, RunLog, SUMMARY_FIELDS, timed_drain
from .clock_edge import stubbed_monotonic, virtual_sleeps
from .resume import POPULATE, RESUMED, Crashed, PlannedRun, crashable, is_multi_run, planned_runs, recording_checkpointer, saved_record
from ...model.trace import CaseFacts, CaseTrace, InvocationOutcome, InvocationTrace, plain
from ...model.trace.record import freezing
from ...ast.values import literal
from ...model.vocabulary import VOCABULARY
from ...model.vocabulary.registry import GENERAL_PASSES

# The scenario- and invocation-level directives the general passes act on: the vocabulary rows a
# general handler (graph build, execute, assert …) consumes in any directory. Any other directive a
# case uses is one the adapter cannot honour yet (unless the directory's harness adds it): the case
# fails as "not implemented: <directive>" instead of running with the directive silently ignored.
CASE_DIRECTIVES = VOCABULARY.handled_by("fixture", GENERAL_PASSES) | VOCABULARY.handled_by("case", GENERAL_PASSES)
INVOCATION_DIRECTIVES = VOCABULARY.handled_by("invocation", GENERAL_PASSES)
INVOKE_DIRECTIVES = VOCABULARY.handled_by("invoke", GENERAL_PASSES)  # inside `invoke:` / `invoke_with:`


def unsupported(scenario: Scenario, contract: CapabilityHarness | None = None) -> tuple[str, Any] | None:
    """The first directive of the scenario this pass cannot execute, with its span (the general
    surface plus what the capability directory's harness contract adds)."""
    allowed = CASE_DIRECTIVES | contract.case_directives if contract is not None else CASE_DIRECTIVES
    allowed_in_invocation = INVOCATION_DIRECTIVES | contract.invocation_directives if contract is not None else INVOCATION_DIRECTIVES
    for source in scenario.sources():
        for name in source.order:
            if name not in allowed:
                return name, source.key_span(name)
        for block in (source.get("invoke"), source.get("invoke_with")):
            for name in (block.order if block is not None else ()):
                if name not in INVOKE_DIRECTIVES:
                    return f"invoke.{name}", block.key_span(name)
    invocations = scenario.view.invocations
    if invocations is not None and not isinstance(invocations, Scalar):
        for invocation in invocations.items:
            for name in invocation.order:
                if name not in allowed_in_invocation:
                    return f"invocations[].{name}", invocation.key_span(name)
    return not_executed_within(scenario, contract.capability if contract is not None else None)


# The families the gate above reads by their handled sets, and those a node step reads as the node
# runs (a node's directives, a `calls_llm` block), refusing what it does not execute there.
_GATED = frozenset(("fixture", "case", "invocation", "invoke", "node", "obs_llm_call"))


def not_executed_within(scenario: Scenario, capability: str | None) -> tuple[str, Any] | None:
    """The first directive nested in what the case declares (a fan-out, a branch, an ``expected:``
    key …) whose row marks it not executed in its family: the case fails as not implemented at it,
    the one verdict that kind gives, instead of a handler refusing it mid-build."""
    for _, value in scenario.view.items():
        for node in walk(value) if isinstance(value, Node) else ():
            if isinstance(node, Section) and node.family not in _GATED:
                for name in node.order:
                    row = VOCABULARY.lookup(node.family, name, capability)
                    if row is not None and any(h.kind == "not_executed" for h in row.handlers_in(node.family)):
                        return f"{node.family}.{name}", node.key_span(name)
    return None



def _build_errors() -> tuple[type[BaseException], ...]:
    # A checkpoint configuration error (a duplicate migration pair, pipeline-utilities §10.12.1) is
    # raised by the builder while the graph is built: it is a build-time outcome like a compile error.
    return (oa.CompileError, oa_checkpoint.CheckpointError)


BUILD_ERRORS = _build_errors()


# The recording observer a case that declares none gets (its events are under this name).
HARNESS_OBSERVER = "(harness)"


class CaseTimeout(Exception):
    pass


class InitialStateInvalid(Exception):
    """The fixture's initial_state failed the schema validation the adapter runs before invoking."""


def execute_case(scenario: Scenario, timeout: float = 60.0, contract: CapabilityHarness | None = None) -> CaseTrace:
    """Run ``scenario`` in a fresh event loop and return its trace (compile errors included).
    ``contract`` is the harness of the case's capability directory (``capabilities.harness_for``,
    which ``pipeline.run_case`` asks once per case), None for one that has none.

    Everything the case freezes shares one :class:`~oa_conformance.model.trace.record.Freezer`, so the
    trace holds each distinct value once however many events carry it."""
    with freezing():
        trace = run_loop(_with_limit(scenario, timeout, contract))
    return with_facts(trace, case_facts(scenario, contract))


def case_facts(scenario: Scenario, contract: CapabilityHarness | None) -> CaseFacts:
    """What the assert pass needs to know about the case, recorded with its trace."""
    from ...host.identity import implementation_identity

    return CaseFacts(direct=contract is not None and contract.is_direct(scenario),
                     case_expectations=tuple(sorted(contract.case_expectations)) if contract is not None else (),
                     multi_run=is_multi_run(scenario), harness_parameters=plain(implementation_identity()))


def with_facts(trace: CaseTrace, facts: CaseFacts) -> CaseTrace:
    """The trace (and its repeats: each is judged on its own) carrying the case's facts."""
    repeats = tuple(with_facts(repeat, facts) for repeat in trace.repeats)
    return dataclasses.replace(trace, facts=facts, repeats=repeats)


async def _with_limit(scenario: Scenario, timeout: float, contract: CapabilityHarness | None) -> CaseTrace:
    try:
        return await asyncio.wait_for(_run(scenario, contract), timeout)
    except (asyncio.TimeoutError, TimeoutError):
        raise CaseTimeout(f"the case did not finish within {timeout:g} s") from None


def _checkpointer(spec: Any, log: RunLog, cursor: InvocationCursor, case_files: contextlib.ExitStack) -> Any:
    """The runtime checkpointer backend the fixture names, recording its saves (resume.py). A file
    backend writes under a directory the case removes when it ends (``case_files``)."""
    from ...host.checkpoint import FanOutInternalSaveBatching, InMemoryCheckpointer, SQLiteCheckpointer

    if spec is None:
        return None
    kind = spec.value if isinstance(spec, Scalar) else spec.kind.value
    if kind == "in_memory":
        return recording_checkpointer(InMemoryCheckpointer, log, cursor)
    if kind == "in_memory_batched" or (isinstance(spec, Section) and spec.fan_out_internal_save_batching is not None):
        flush = spec.fan_out_internal_save_batching.flush_every.value if isinstance(spec, Section) else 0
        batching = FanOutInternalSaveBatching(flush_every=flush)
        return recording_checkpointer(InMemoryCheckpointer, log, cursor, fan_out_internal_save_batching=batching)
    if kind == "sqlite":
        import tempfile

        directory = case_files.enter_context(tempfile.TemporaryDirectory(prefix="oa-checkpoint-"))
        return recording_checkpointer(SQLiteCheckpointer, log, cursor, f"{directory}/checkpoints.db", serialization="json")
    raise HarnessPrimitiveMissing(f"checkpointer backend {kind!r}", spec.span)


def _recording_observers(scenario: Scenario, log: RunLog, cursor: InvocationCursor) -> dict[str, RecordingObserver]:
    """The case's in-memory observers (§6.1), by name; one recording under ``HARNESS_OBSERVER``
    when it declares none (the harness still watches the run: events are evidence for the assertions)."""
    declared = scenario.view.observers
    if declared is None:
        return {HARNESS_OBSERVER: RecordingObserver(HARNESS_OBSERVER, "record", log, cursor)}
    observers = {}
    for decl in declared.items:
        name = decl.name.value
        behavior = decl.behavior.value if decl.behavior is not None else "record"
        if behavior not in ("record", "accumulate", "raise", "mutate"):
            raise HarnessPrimitiveMissing(f"observer behavior {behavior!r}", decl.behavior.span)
        pacing = decl.sleep_ms_per_event
        observers[name] = RecordingObserver(name, behavior, log, cursor, literal(pacing) if pacing is not None else 0)
    return observers


def _attach_observers(scenario: Scenario, instruments: Instruments, built: Any, handles: dict[str, Any]) -> list[Any]:
    """Attach the capture's runtime observers and the graph-level recording ones to the built
    graph (each one's remove handle into ``handles``, by name); return the invocation-level ones."""
    per_invocation = []
    for observer in instruments.runtime_observers:  # a capability harness's instruments (capabilities/)
        built.compiled.attach_observer(observer)
    declared = scenario.view.observers
    if declared is None:
        built.compiled.attach_observer(instruments.observers[HARNESS_OBSERVER])
    for decl in (declared.items if declared is not None else ()):
        observer = instruments.observers[decl.name.value]
        phases = decl.phases
        phase_set = frozenset(literal(phases)) if phases is not None else None
        attach = decl.attach.value if decl.attach is not None else "graph"
        target = _target_graph(decl, built)
        if attach == "graph":
            handles[decl.name.value] = target.attach_observer(observer, phases=phase_set) if phase_set else target.attach_observer(observer)
        else:
            per_invocation.append(oa.SubscribedObserver(observer, phases=phase_set) if phase_set else observer)
    return per_invocation


# What a case may declare about a run; a case with none of them beside `expected_compile_warning`
# asserts compilation only (§5.8: "asserts that compilation succeeds while emitting warnings") and
# is not invoked.
def compile_only(scenario: Scenario) -> bool:
    view = scenario.view
    run_directives = (view.initial_state, view.expected, view.expected_error, view.invariants, view.invocations, view.invoke,
                      view.invoke_with, view.resume, view.first_run_expected_error, view.saved_record_assertions,
                      view.every_save_assertions, view.run_count)
    return view.expected_compile_warning is not None and all(value is None for value in run_directives)


async def _no_runs() -> Any:
    return
    yield


def _probe_empty_phases(built: Any) -> dict[str, Any]:
    """Register an observer with an empty phase set (graph-engine §6: a configuration error the
    runtime SHOULD raise at registration) and record whether it did."""
    async def probe(event: Any) -> None:  # never delivered to: it subscribes to no phase
        return None

    try:
        built.compiled.attach_observer(probe, phases=frozenset())
    except Exception as raised:
        return {"raised": True, "type": type(raised).__name__, "message": str(raised)}
    return {"raised": False}


# Registration checks a fixture asks for beside the event sequence, keyed by the `expected:`
# directive that asserts them; each result lands in the trace's wiring under `registration_probes`.
REGISTRATION_PROBES = {"empty_phases_raises_at_registration": ("empty_phases", _probe_empty_phases)}


def _probe_registration(scenario: Scenario, built: Any) -> dict[str, Any]:
    """The registration probes the case's expectations ask for, by name (empty when none)."""
    expected = scenario.view.expected
    return {name: probe(built) for directive, (name, probe) in REGISTRATION_PROBES.items()
            if expected is not None and expected.named(directive) is not None}


def _target_graph(decl: Section, built: Any) -> Any:
    target = decl.target
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


async def _run(scenario: Scenario, contract: CapabilityHarness | None = None) -> CaseTrace:
    count = scenario.view.run_count
    if count is None:
        return await _run_once(scenario, contract)
    # `run_count: N` (determinism): N independent runs — each its own harness and graph build, so no
    # harness state (attempt counters, observers) carries over; runs 2..N ride along as `repeats`.
    runs = [await _run_once(scenario, contract) for _ in range(max(1, count.value))]
    return dataclasses.replace(runs[0], repeats=tuple(runs[1:]))


async def _run_once(scenario: Scenario, contract: CapabilityHarness | None = None) -> CaseTrace:
    """One run of a case: harness primitives → capture → graph build → execute (→ the trace)."""
    if contract is not None and contract.run_direct is not None and contract.is_direct(scenario):
        return await contract.run_direct(scenario)  # not a graph run: the directory's own contract
    log, cursor = RunLog(), InvocationCursor()  # appended by the runtime's callbacks; moved between invocations
    with contextlib.ExitStack() as case_files:                                   # removed when the run ends
        primitives = instruments(scenario, log, cursor, case_files)             # §6 harness primitives
        seams = CaptureSeams()
        # A deterministic clock stub stands in for the monotonic clock the runtime reads (clock_edge.py),
        # from graph build on: the runtime's timing middleware is never handed a clock.
        clock = stubbed_monotonic(primitives.clock(log)) if primitives.clock_step_ms is not None else contextlib.nullcontext()
        async with _captured(scenario, seams, contract) as capture:              # the directory's captures (OTel …)
            with clock:
                trace = await _build_and_execute(scenario, primitives.with_captures(seams), log, cursor)
    return trace if capture is None else dataclasses.replace(trace, collections=plain(capture.collections()))


async def _build_and_execute(scenario: Scenario, instruments: Instruments, log: RunLog, cursor: InvocationCursor) -> CaseTrace:
    """Graph build → execute, unless standing up the case's observers already failed (a categorized
    construction error: the case stands down, §5.5 ``expected_construction_error``)."""
    if instruments.construction_error is not None:
        return CaseTrace(construction_error=instruments.construction_error, parameters=plain(case_parameters(scenario)))
    try:
        built, harness = build_graph(scenario, instruments, log, cursor)   # graph build
    except BUILD_ERRORS as error:  # compile and registration-time configuration errors
        return CaseTrace(compile_error=error_record(error), parameters=plain(case_parameters(scenario)))
    except ConfigurationRejected as error:  # a configuration literal the builder refused (no category)
        return CaseTrace(compile_error=error_record(error.rejected), parameters=plain(case_parameters(scenario)))
    return await execute_graph(scenario, built, harness)                   # execute


def _captured(scenario: Scenario, seams: CaptureSeams, contract: CapabilityHarness | None) -> Any:
    """The capability harness's capture around a graph run (``instrument``), or none."""
    instrument = instrument_of(contract)
    if instrument is None:
        return contextlib.nullcontext(None)
    return instrument(scenario, seams)


def asks_for_overlap(scenario: Scenario) -> bool:
    """Whether any expected block of the case (case level or per invocation) judges how node bodies
    overlapped in time (``concurrency_invariant``): such a case gets bodies that yield to the event
    loop (``Instruments.concurrency_markers``)."""
    blocks = [scenario.view.expected]
    invocations = scenario.view.invocations
    if invocations is not None and not isinstance(invocations, Scalar):
        blocks += [invocation.expected for invocation in invocations.items]
    return any(block is not None and block.concurrency_invariant is not None for block in blocks)


def instruments(scenario: Scenario, log: RunLog, cursor: InvocationCursor, case_files: contextlib.ExitStack) -> Instruments:
    """The harness primitives the scenario declares, before the graph is built: the in-memory
    observers, the checkpointer backend (both recording into ``log``) and the clock. They attach to
    the graph once it exists (``_attach_observers``); the captures add theirs (``with_captures``)."""
    clock = scenario.view.clock_stub
    kind = clock.type if clock is not None else None
    # The clocks the harness provides: a deterministic monotonic clock for timing middleware (§6.2),
    # or the runtime's sleeps recorded instead of waited (an extension, clock_edge.py).
    if kind is not None and kind.value not in ("deterministic_monotonic", "virtual_sleep"):
        raise HarnessPrimitiveMissing(f"clock_stub type {kind.value!r}", kind.span)
    virtual_sleep = kind is not None and kind.value == "virtual_sleep"
    step = clock.advance_ms_per_call if clock is not None else None
    if clock is not None and not virtual_sleep and step is None:
        raise FixtureInvalid("a deterministic_monotonic clock_stub needs `advance_ms_per_call`", clock.span)
    return Instruments(
        observers=MappingProxyType(_recording_observers(scenario, log, cursor)),
        checkpointer=_checkpointer(scenario.view.checkpointer, log, cursor, case_files),
        clock_step_ms=float(step.value) if step is not None else None,
        virtual_sleep=virtual_sleep,
        concurrency_markers=asks_for_overlap(scenario),
    )


async def execute_graph(scenario: Scenario, built: BuiltGraph, harness: Harness) -> CaseTrace:
    """The execute pass over a built graph: attach observers, run every planned invocation (one run,
    ``invocations:``, or first run → resume), freeze what the harness recorded into the trace."""
    invocation_observers = _attach_observers(scenario, harness.instruments, built, harness.observer_handles)
    probes = _probe_registration(scenario, built)
    traces: list[InvocationTrace] = []
    with virtual_sleeps(harness.log.middleware_log) if harness.instruments.virtual_sleep else contextlib.nullcontext():
        async for run in (planned_runs(scenario, harness, traces) if not compile_only(scenario) else _no_runs()):
            harness.cursor.index = len(traces)
            traces.append(await _invoke(scenario, run, harness, built, invocation_observers, traces))
    wiring = harness.graph.wiring
    return CaseTrace(
        compile_warnings=built.warnings,
        invocations=tuple(traces),
        middleware_log=plain(harness.log.middleware_log),
        checkpoint_saves=plain(harness.log.saves),
        mock_calls=plain(harness.log.attempts),
        wiring=plain({**wiring, "registration_probes": probes}) if probes else wiring,
        parameters=plain(case_parameters(scenario)),
    )


def case_parameters(scenario: Scenario) -> dict[str, Any]:
    """The names the case itself declares, for rules that refer to them (the trace's ``parameters``)."""
    def node_names(graph: Any) -> list[str]:
        nodes = graph.get("nodes") if graph is not None else None  # graph: a `graph:` block or the scenario
        return [str(name) for name, _ in nodes.items()] if nodes is not None else []

    graph = scenario.view.graph
    outer = node_names(graph if isinstance(graph, Section) else scenario)
    observers = scenario.view.observers
    return {
        "nodes": outer,
        "graphs": {name: node_names(decl) for name, decl in scenario.graph_declarations().items()},
        "observers": [decl.name.value for decl in (observers.items if observers is not None else ())],
    }


def _get(scenario: Scenario, source: Section | None, attribute: str) -> Any:
    """The run's own value (its `invocations:` entry; a `resume:` block gives few), else the case's."""
    own = getattr(source, attribute, None)
    return own if own is not None else getattr(scenario.view, attribute, None)


def resume_target(reference: Any, previous: list[InvocationTrace]) -> str:
    """The invocation id a `resume_invocation` names: a literal id, or a placeholder resolved from
    the outcomes of the invocations that already ran (§5.7)."""
    if isinstance(reference, Scalar):
        return reference.value
    if reference.source == "previous":
        candidates = previous[-1:]
    elif reference.source == "initial":
        candidates = previous[:1]
    else:
        candidates = [t for t in previous if t.name == reference.source]
    if not candidates:
        raise HarnessPrimitiveMissing(f"{reference.text}: no earlier invocation {reference.source!r} to resolve it from", reference.span)
    target = candidates[-1]
    if reference.outcome is not None and target.outcome != reference.outcome:
        raise HarnessPrimitiveMissing(f"{reference.text}: that invocation {target.outcome}, not {reference.outcome}", reference.span)
    if target.invocation_id is None:
        raise HarnessPrimitiveMissing(f"{reference.text}: the invocation's id was never observable", reference.span)
    return target.invocation_id


def _invoke_arguments(scenario: Scenario, run: PlannedRun, invoke_block: Any, previous: list[InvocationTrace]) -> dict[str, Any]:
    """The keyword arguments of one ``invoke()``: the caller's ids and metadata, the invocation a
    resume continues — or, for a resume run, only what its resume block supplies."""
    if run.call is not None:
        return dict(run.call)
    source = run.source
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
    resume = (source.resume_invocation if source is not None else None) or (
        invoke_block.resume_invocation if invoke_block is not None and source is None else None)
    if resume is not None and run.role != POPULATE:
        kwargs["resume_invocation"] = resume_target(resume, previous)
    return kwargs


async def _fixture_drain(drain_spec: Any, compiled: Any, harness: Harness, invocation_id: str | None) -> dict | None:
    """The drain the fixture asks for after this invocation (None when it asks for none), with what
    its observers had been delivered when it returned."""
    if drain_spec is None:
        return None
    timeout = drain_spec.timeout_seconds
    seconds = timeout.value if timeout is not None else None
    try:
        drain = await timed_drain(compiled.drain, seconds)
    except Exception as raised:  # a drain refusing a valid timeout: the drain-summary check reports it
        drain = {"raised": f"{type(raised).__name__}: {raised}", **dict.fromkeys(SUMMARY_FIELDS), "timeout_s": seconds}
    drain["delivered_at_return"] = harness.log.delivered(harness.instruments.observers, invocation_id)
    return drain


async def _invoke(scenario: Scenario, run: PlannedRun, harness: Harness, built: Any, observers: list,
                  previous: list[InvocationTrace]) -> InvocationTrace:
    compiled, source = built.compiled, run.source
    initial = _get(scenario, source, "initial_state")
    execution_start = len(harness.log.execution)
    delivery_start = len(harness.log.deliveries)
    ids_start = len(harness.log.invocation_ids)
    drains_start, snapshots_start = len(harness.log.node_drains), len(harness.log.node_snapshots)  # this invocation's in-node drains only
    log_start, migrations_start = len(harness.log.node_log), len(harness.log.migration_log)
    invoke_block = scenario.view.invoke or scenario.view.invoke_with
    kwargs = _invoke_arguments(scenario, run, invoke_block, previous)
    outcome, final_state, error, state = InvocationOutcome.COMPLETED, None, None, None
    try:
        try:  # the adapter validates the initial state against the schema before invoking (§5.2)
            # A resume's state comes from the loaded record (§10.4); the one passed is a placeholder.
            make_state = built.input_cls.model_construct if run.role == RESUMED else built.input_cls
            state = make_state(**(literal(initial) if initial is not None else {}))
        except Exception as invalid:
            raise InitialStateInvalid(f"initial_state does not validate against the state schema: {invalid}") from invalid
        result = await crashable(compiled.invoke(state, observers=observers or None, **kwargs), harness.cursor, harness.log, run.crash)
        final_state = plain(result)
    except Crashed:  # abandoned by an injected crash: no outcome of its own
        outcome = InvocationOutcome.CRASHED
    except asyncio.CancelledError as raised:
        # A cancellation the invocation raised on its own (a node or the runtime cancelling itself)
        # is its outcome, judged like any error; one aimed at this case's task (its time limit, an
        # interrupt) is not ours to keep. Left to escape, it ended the case's worker and the run
        # waited for it forever.
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        outcome, error = InvocationOutcome.ERRORED, error_record(raised)
    except (oa.GraphError, Exception) as raised:  # any failure is the outcome under test
        missing = harness_missing(raised)
        if missing is not None:  # the harness (or the build) lacks what the case needs: not the outcome under test
            raise missing
        outcome, error = InvocationOutcome.ERRORED, error_record(raised)
    new_ids = harness.log.invocation_ids[ids_start:]
    if new_ids:
        invocation_id, correlation_id = new_ids[-1]
    elif harness.log.invocation_ids and len(harness.log.execution) > execution_start:  # same ids as the previous run
        invocation_id, correlation_id = harness.log.invocation_ids[-1]
    else:  # no node ran: the ids were never observable
        invocation_id, correlation_id = None, None
    drain_block = source if source is not None else invoke_block
    drain = await _fixture_drain(drain_block.get("drain") if drain_block is not None else None,
                                 compiled, harness, invocation_id)
    # Collect everything still queued so the recorded events are complete (the fixture's own drain,
    # if any, has already been measured above); how this drain returned is recorded too. Called with
    # the timeout omitted, so that a drain refusing the fixture's timeout still settles the run.
    settle = await timed_drain(compiled.drain, None, omit_timeout=True)
    return InvocationTrace(
        name=run.name,
        outcome=outcome,
        final_state=final_state,
        error=error,
        invocation_id=invocation_id,
        correlation_id=correlation_id,
        execution_order=plain(harness.log.execution[execution_start:]),
        events=plain({n: harness.log.events_of(n, delivery_start) for n in harness.instruments.observers}),
        observers=tuple((n, o.behavior) for n, o in harness.instruments.observers.items()),
        deliveries=plain(harness.log.deliveries[delivery_start:]),
        accumulators=plain({n: o.buckets() for n, o in harness.instruments.observers.items() if o.behavior == "accumulate"}),
        drain=plain(drain),
        settle_drain=plain(settle),
        node_drains=plain(dict(harness.log.node_drains[drains_start:])),
        node_snapshots=plain(dict(harness.log.node_snapshots[snapshots_start:])),
        role=run.role,
        call=plain(kwargs),
        initial_state=plain(state),
        node_log=plain(harness.log.node_log[log_start:]),
        checkpoint=plain({"saved_record": await saved_record(harness.instruments.checkpointer, invocation_id), "resumed_from": run.resumed_from,
                          "migrations_run": harness.log.migration_log[migrations_start:]}),
    )
