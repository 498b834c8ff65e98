"""The multi-run flow of checkpoint fixtures: first run → crash or failure → saved record → resume.

A case runs the graph once per :class:`Run` that :func:`planned_runs` yields. An ordinary case
yields one run per ``invocations:`` entry (or one run). A checkpoint case (conformance-adapter
§5.6) yields

    [seeded record]  ``seeded_record:`` is written to the checkpointer first (a harness write)
    first run        the scenario's own invocation; it ends with ``first_run_expected_error``, or
                     a crash (``crash_injection:`` / ``fan_out.abort_after_instance``), or completes
    resume           ``invoke(resume_invocation=<first run's id | the seeded record's id>)`` with
                     only what the ``resume:`` block supplies (``caller_invocation_id``); before it,
                     ``resume_with_modified_items`` rewrites fields of the stored record's state
                     (the user changed the input between runs)

Everything the runtime does here is its own: the checkpointer is the runtime's backend class
(subclassed only to record each save as it passes through — :func:`recording_checkpointer`), the
resume is the runtime's ``resume_invocation``, migrations are registered with
``with_state_migration``. A crash is the harness's: once the boundary's save has been persisted,
the process is gone — the checkpointer stops persisting, no harness node body runs any more, and
the harness cancels the in-flight invocation task. ``fan_out.abort_after_instance`` is the same
crash seen from inside the fan-out node (armed for a case's first invocation): a harness
middleware around that node turns the cancellation into a raised error, which the runtime then
surfaces as the node's own failure (``node_exception``), as the fixtures describe.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import re
import uuid
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, Mapping

from ...ast.nodes import Scalar, Section
from ..static.scenarios import Scenario
from ...model.errors import HarnessPrimitiveMissing
from .harness import Harness, InvocationCursor, RunLog
from ...model.trace import plain
from ...ast.values import literal

from ...model.trace.record import FIRST_RUN, POPULATE, RESUMED  # noqa: E402  (the trace's roles, re-exported)


@dataclass(frozen=True)
class Boundary:
    """Where a crash fires: right after the first save whose record shows the boundary reached.

    ``after_node`` (conformance-adapter §5.6) is the node's save on its completed event: the node is
    newest among the record's completed positions, or, for a node of a fan-out instance's subgraph,
    among that instance's inner positions."""

    node: str
    index: int | None = None  # a fan-out instance index; None: after the node's own completion

    def reached(self, record: Any) -> bool:
        if self.index is None:
            positions = record.completed_positions
            if positions and positions[-1].node_name == self.node:
                return True
            # A node inside a fan-out instance saves on its completed event too (pipeline-utilities
            # §10.3), recorded among its instance's inner positions, not the outer ones.
            return any(instance.completed_inner_positions and instance.completed_inner_positions[-1].node_name == self.node
                       for progress in record.fan_out_progress for instance in progress.instances)
        for progress in record.fan_out_progress:
            if progress.fan_out_node_name == self.node and self.index < len(progress.instances):
                if progress.instances[self.index].state == "completed":
                    return True
        return False

    def __str__(self) -> str:
        return f"after {self.node!r}" if self.index is None else f"after fan-out instance {self.index} of {self.node!r}"


@dataclass(frozen=True)
class Crash:
    """A crash armed for one run (the cursor's, set by :func:`crashable`): it fires once the
    boundary's save persisted, cancelling the invocation's task — or the task an abort point took the
    cancellation over with. Firing and taking over happen while the runtime runs, so they are
    appended to the case's log (``RunLog.crashes``), not written here."""

    boundary: Boundary
    run: int  # the invocation index it is armed for
    task: asyncio.Task

    def fired(self, log: RunLog) -> bool:
        return ("fired", self.run, None) in log.crashes

    def take_over(self, log: RunLog, task: asyncio.Task) -> None:
        """``task`` is the one the crash cancels from now on (an abort point's)."""
        log.crashes.append(("target", self.run, task))

    def fire(self, log: RunLog) -> None:
        log.crashes.append(("fired", self.run, None))
        targets = [task for kind, run, task in log.crashes if kind == "target" and run == self.run]
        (targets[-1] if targets else self.task).cancel()


class Crashed(Exception):
    """The run was abandoned by an injected crash (it has no outcome of its own)."""


class ProcessAborted(Exception):
    """What the `abort_after_instance` harness middleware raises out of the fan-out node."""


@dataclass(frozen=True)
class PlannedRun:
    """One invoke() of a case: where its directives are read, its role, its call, its crash."""

    name: str | None
    source: Section | None
    role: str | None = None
    call: dict[str, Any] | None = None  # the invoke() keyword arguments, when not read from the scenario
    crash: Boundary | None = None
    resumed_from: Any = None  # {invocation_id, record} the resume loads (frozen)


def is_multi_run(scenario: Scenario) -> bool:
    """Whether the case is a multi-run (checkpoint resume) case: one of these directives makes it one."""
    view = scenario.view
    return any(value is not None for value in (view.first_run_expected_error, view.crash_injection, view.resume, view.seeded_record))


async def planned_runs(scenario: Scenario, harness: Harness, traces: list) -> AsyncIterator[PlannedRun]:
    """The runs of a case, in order; ``traces`` holds the finished runs' traces as they complete."""
    checkpointer = harness.instruments.checkpointer
    if not is_multi_run(scenario):
        for index, (name, source) in enumerate(_invocations(scenario)):
            for _ in range(_populating_runs(scenario, source, checkpointer)):
                yield PlannedRun(name, source, POPULATE)
            yield PlannedRun(name, source, crash=_first_run_boundary(scenario, harness.graph.abort_points) if index == 0 else None)
        return
    if checkpointer is None:
        raise HarnessPrimitiveMissing("a resume case needs a `checkpointer:`", scenario.section.span)
    seeded = scenario.view.seeded_record
    if seeded is not None:
        origin = await seed_record(checkpointer, seeded, harness.graph.compiled.state_cls)
    else:
        yield PlannedRun(None, None, FIRST_RUN, crash=_first_run_boundary(scenario, harness.graph.abort_points))
        origin = _first_run_id(traces[-1], harness.log, harness.cursor)
    resume = scenario.view.resume
    if resume is None:
        return
    _check_origin(resume, seeded is not None)
    modified = resume.resume_with_modified_items
    if origin is None:
        raise HarnessPrimitiveMissing("the first run's invocation id was never observable (no node ran, nothing was saved)", resume.span)
    if modified is not None:
        await rewrite_record(checkpointer, origin, literal(modified))
    record = await checkpointer.load(origin)
    call: dict[str, Any] = {"resume_invocation": origin}
    caller = resume.caller_invocation_id
    if caller is not None:
        call["invocation_id"] = caller.value
    yield PlannedRun("resume", resume, RESUMED, call=call, resumed_from=plain({"invocation_id": origin, "record": record}))


def _populating_runs(scenario: Scenario, source: Section | None, checkpointer: Any) -> int:
    """How many completed runs seed the checkpointer before this invocation (§5.6)."""
    count = source.populate_checkpointer_via_runs if source is not None else None
    count = count if count is not None else scenario.view.populate_checkpointer_via_runs
    if count is None:
        return 0
    if checkpointer is None:
        raise HarnessPrimitiveMissing("`populate_checkpointer_via_runs` needs a `checkpointer:`", count.span)
    return count.value


def _invocations(scenario: Scenario) -> list[tuple[str | None, Any]]:
    """(name, source) for each invocation: the `invocations:` entries; for the count form
    (`invocations: <n>`) the scenario itself n times (the same graph, the same initial state); else
    the scenario once."""
    listed = scenario.view.invocations
    sequential = scenario.view.sequential_invocations  # observability: the same observers across runs
    if listed is None and sequential is not None:
        if sequential.observer_persists_across is not None and not sequential.observer_persists_across.value:
            raise HarnessPrimitiveMissing("sequential_invocations with observers re-attached per run", sequential.span)
        listed = sequential.invocations
    if isinstance(listed, Scalar):
        return [(None, None)] * listed.value
    if listed is not None:
        return [(inv.name.value if inv.name is not None else None, inv) for inv in listed.items]
    return [(None, None)]


def _first_run_boundary(scenario: Scenario, abort_points: Mapping[str, int]) -> Boundary | None:
    injected = scenario.view.crash_injection
    if injected is not None:
        if injected.after_node is not None:
            return Boundary(injected.after_node.value)
        instance = injected.after_fan_out_instance
        return Boundary(instance.node.value, instance.index.value)
    for node, index in abort_points.items():
        return Boundary(node, index)
    return None


def _first_run_id(trace: Any, log: RunLog, cursor: InvocationCursor) -> str | None:
    """The runtime's invocation id of the first run (seen by its nodes, the caller's, else on its saves)."""
    if trace.invocation_id is not None or trace.call.get("invocation_id") is not None:
        return trace.invocation_id or trace.call["invocation_id"]
    saves = [s for s in log.saves if s["run"] == cursor.index]
    return saves[0]["invocation_id"] if saves else None


def _check_origin(resume: Section, seeded: bool) -> None:
    wants_seeded = resume.from_seeded_record
    if wants_seeded is not None and wants_seeded.value and not seeded:
        raise HarnessPrimitiveMissing("resume.from_seeded_record without a `seeded_record:`", resume.key_span("from_seeded_record"))
    from_first = resume.from_first_run
    if from_first is not None and not from_first.value:
        raise HarnessPrimitiveMissing("resume.from_first_run: false (resume from what?)", resume.key_span("from_first_run"))


# ---------------------------------------------------------------------------------------------
# Invoking with a crash armed


async def crashable(invocation: Any, cursor: InvocationCursor, log: RunLog, boundary: Boundary | None) -> Any:
    """Await ``invocation`` (an ``invoke()`` coroutine) as a task the armed crash can cancel.

    Raises :class:`Crashed` when the crash cancelled it; while the crash has fired, every further
    save of this run is dropped (see :func:`recording_checkpointer`).
    """
    task = asyncio.ensure_future(invocation)
    cursor.crash = Crash(boundary, cursor.index, task) if boundary is not None else None
    try:
        return await task
    except asyncio.CancelledError:
        crash = cursor.crash
        current = asyncio.current_task()
        if crash is not None and crash.fired(log) and task.cancelled() and not (current and current.cancelling()):
            raise Crashed(f"crash injected {crash.boundary}") from None
        raise
    finally:
        cursor.crash = None


def abort_point(cursor: InvocationCursor, log: RunLog, node_name: str) -> Callable:
    """The middleware `fan_out.abort_after_instance` puts around its fan-out node.

    While the node runs, the armed crash cancels this middleware's task; the middleware turns that
    cancellation into :class:`ProcessAborted` raised out of the node (so the runtime reports the
    abort as the fan-out node's failure, as the fixture describes a process-level abort).
    """

    async def abort_after_instance(state: Any, next_: Any) -> Any:
        crash = cursor.crash
        if crash is None or crash.boundary.node != node_name:
            return await next_(state)
        crash.take_over(log, asyncio.current_task())
        try:
            return await next_(state)
        except asyncio.CancelledError:
            if not crash.fired(log):
                raise
            asyncio.current_task().uncancel()
            raise ProcessAborted(f"harness abort {crash.boundary} (simulated process crash)") from None

    return abort_after_instance


# ---------------------------------------------------------------------------------------------
# The checkpointer: the runtime's backend, every save recorded as it passes through

_inside_save: contextvars.ContextVar[bool] = contextvars.ContextVar("oa_inside_save", default=False)
SAVE_ROUTES = {"save": "save", "save_fan_out_internal": "fan_out_internal",
               "save_fan_out_in_flight_failure": "in_flight_failure"}


def recording_checkpointer(backend: type, log: RunLog, cursor: InvocationCursor, *args: Any, **kwargs: Any) -> Any:
    """An instance of ``backend`` (a runtime checkpointer class) whose save entry points record each
    save into ``log.saves`` — {run, route, invocation_id, record, lost} — before the backend's own
    method persists it; the cursor says which run saves and which crash is armed. Only the seams the
    backend has are wrapped."""
    namespace = {}
    for method, route in SAVE_ROUTES.items():
        if hasattr(backend, method):
            namespace[method] = _recorded(getattr(backend, method), route)
    namespace["seed"] = lambda self, invocation_id, record: backend.save(self, invocation_id, record)
    checkpointer = type(f"Recording{backend.__name__}", (backend,), namespace)(*args, **kwargs)
    checkpointer.log, checkpointer.cursor = log, cursor
    # The backend as a new process would open it: the runtime's own class on the same storage
    # (`reload_checkpoint_into`; an in-memory backend reopens empty, as a restarted process does).
    checkpointer.reopen = lambda: backend(*args, **kwargs)
    return checkpointer


def _recorded(method: Callable, route: str) -> Callable:
    async def save(self: Any, invocation_id: str, record: Any) -> None:
        if _inside_save.get():  # a seam delegating to save(): one save, recorded once
            return await method(self, invocation_id, record)
        log, cursor = self.log, self.cursor
        crash = cursor.crash
        entry = {"run": cursor.index, "route": route, "invocation_id": invocation_id, "record": plain(record), "lost": False}
        if crash is not None and crash.fired(log):  # the process is gone: nothing more persists
            log.saves.append({**entry, "lost": True})
            return None
        token = _inside_save.set(True)
        try:
            await method(self, invocation_id, record)
        finally:
            _inside_save.reset(token)
        log.saves.append(entry)
        if crash is not None and crash.boundary.reached(record):
            crash.fire(log)
        return None

    save.__name__ = method.__name__
    return save


async def saved_record(checkpointer: Any, invocation_id: str | None) -> Any:
    """The record ``checkpointer`` holds for ``invocation_id`` now (frozen), or None."""
    if checkpointer is None or invocation_id is None:
        return None
    return plain(await checkpointer.load(invocation_id))


# ---------------------------------------------------------------------------------------------
# Harness writes to the store: a seeded record, a modified record


SEEDED_FIELDS = frozenset(("state", "correlation_id", "completed_positions", "parent_states", "last_saved_at", "schema_version",
                           "fan_out_progress"))


async def seed_record(checkpointer: Any, spec: Any, state_cls: type) -> str:
    """Write the fixture's ``seeded_record`` as a runtime ``CheckpointRecord``; return its id."""
    from ...host.checkpoint import CheckpointRecord

    data = literal(spec)
    unknown = sorted(set(data) - SEEDED_FIELDS)
    if unknown:
        raise HarnessPrimitiveMissing(f"seeded_record fields {unknown}", spec.span)
    invocation_id = f"seeded-{uuid.uuid4()}"
    record = CheckpointRecord(
        invocation_id=invocation_id,
        correlation_id=data.get("correlation_id") or str(uuid.uuid4()),
        state=data.get("state", {}),
        completed_positions=tuple(_position(p) for p in data.get("completed_positions", ())),
        parent_states=tuple(data.get("parent_states", ())),
        last_saved_at=float(data.get("last_saved_at", 0.0)),
        schema_version=data.get("schema_version", getattr(state_cls, "schema_version", "")),
        fan_out_progress=tuple(_fan_out_progress(p) for p in data.get("fan_out_progress", ())),
    )
    await checkpointer.seed(invocation_id, record)
    return invocation_id


def _position(data: dict) -> Any:
    from ...host.checkpoint import NodePosition

    return NodePosition(namespace=tuple(data.get("namespace", ())), node_name=data["node_name"], step=data.get("step", 0),
                        attempt_index=data.get("attempt_index", 0), fan_out_index=data.get("fan_out_index"))


def _fan_out_progress(data: dict) -> Any:
    from ...host.checkpoint import FanOutInstanceProgress, fan_out_progress

    instances = tuple(FanOutInstanceProgress(state=i["state"], result=i.get("result"), result_is_error=i.get("result_is_error", False),
                                             completed_inner_positions=tuple(_position(p) for p in i.get("completed_inner_positions", ())))
                      for i in data.get("instances", ()))
    lineage = [{"namespace": tuple(e.get("namespace", ())), "fan_out_node_name": e["fan_out_node_name"],
                "fan_out_index": e["fan_out_index"]} for e in data.get("enclosing_fan_out_lineage", ())]
    return fan_out_progress(lineage, fan_out_node_name=data["fan_out_node_name"], namespace=tuple(data.get("namespace", ())),
                            instance_count=data.get("instance_count", len(instances)), instances=instances)


async def rewrite_record(checkpointer: Any, invocation_id: str, fields: dict) -> None:
    """`resume_with_modified_items`: set fields of the stored record's (outer) state."""
    record = await checkpointer.load(invocation_id)
    if record is None:
        return
    state = record.state
    state = state.model_copy(update=fields) if hasattr(state, "model_copy") else {**state, **fields}
    await checkpointer.seed(invocation_id, dataclasses.replace(record, state=state))


# ---------------------------------------------------------------------------------------------
# State migrations (§10.12): harness migration functions, named by the fixture


def migration_function(name: str, from_version: str, to_version: str, log: RunLog, state: Section | None, span: Any) -> Callable:
    """The harness migration ``name`` (a pure ``dict -> dict``); every call is logged as ``from->to``.

    ``add_<field>`` / ``add_<field>_default`` add the field with the default the current state
    schema declares; ``identity_passthrough`` / ``irrelevant`` return the state unchanged;
    ``should_not_run`` and ``raises_keyerror`` raise (``KeyError``).
    """
    step = _MIGRATIONS.get(name)
    if step is None:
        field_name = _added_field(name, state)
        if field_name is None:
            raise HarnessPrimitiveMissing(f"state migration {name!r}", span)
        default = literal(state.fields.get(field_name).default)
        step = lambda data, f=field_name, d=default: {**data, f: d}  # noqa: E731

    def migrate(data: dict) -> dict:
        log.migration_log.append(f"{from_version}->{to_version}")
        return step(dict(data))

    migrate.__name__ = name
    return migrate


def _added_field(name: str, state: Section | None) -> str | None:
    declared = state.fields if state is not None else None
    found = re.fullmatch(r"add_(?P<field>\w+?)(?:_default)?", name)
    if found is None or declared is None:
        return None
    field_name = found["field"]
    decl = declared.get(field_name)
    return field_name if decl is not None and decl.default is not None else None


def _raise_key_error(data: dict) -> dict:
    raise KeyError("harness migration raises KeyError")


def _must_not_run(data: dict) -> dict:
    raise KeyError("harness migration `should_not_run` was called")


_MIGRATIONS: dict[str, Callable[[dict], dict]] = {
    "identity_passthrough": lambda data: data,
    "irrelevant": lambda data: data,
    "should_not_run": _must_not_run,
    "raises_keyerror": _raise_key_error,
}


__all__ = ["Boundary", "Crashed", "FIRST_RUN", "RESUMED", "PlannedRun", "abort_point", "crashable", "is_multi_run", "migration_function",
           "planned_runs", "recording_checkpointer", "saved_record"]
