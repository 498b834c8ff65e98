"""The execution trace: everything one case did, recorded once, immutable.

The execute pass produces a :class:`CaseTrace`; the assert pass only reads it. Values taken from
the runtime (states, events, errors) are converted to plain data and frozen (pyrsistent maps and
vectors), so a rule can neither change the trace nor depend on runtime object identity.

    CaseTrace
      compile_error        ErrorRecord | None     compilation failed (expected_compile_error)
      construction_error   ErrorRecord | None     standing up an observer / client raised a categorized
                                                  error (expected_construction_error); no graph was built
      compile_warnings     (category, ...)        warnings emitted while compiling
      invocations          (InvocationTrace, ...) one per invoke(), in order
      middleware_log       (entry, ...)           trace records, timing records, and what harness
                                                  callbacks received: ("on_caught", {category,
                                                  message, type}), ("degraded_callable",
                                                  {state_in, returned})
      checkpoint_saves     (save, ...)            every record the checkpointer saved, in order
      notes                (str, ...)             what the harness did that a reader may want to know
      repeats              (CaseTrace, ...)       runs 2..N of a `run_count: N` case (this trace is run 1)
      mock_calls           {(mock, node): calls}  how often each failure mock ran (e.g. ("flaky", "target"))
      collections          {name: data}           what a capability harness captured (document.py)
      parameters           {nodes, graphs, observers} the case's own names, for rules to refer to
      wiring               {nodes: {node: {...}}, failure_isolation: [...]} what the harness built:
                           outer fan-out nodes {kind, collect_field, target_field, extra_outputs,
                           errors_field}, outer parallel-branches nodes {kind, errors_field,
                           branches: {name: {form: call|subgraph, outputs, when}}}, and each
                           failure-isolation middleware {node, event_name, catch,
                           predicate_category, degraded_update (a mapping, or "callable"), on_caught}

    InvocationTrace
      name, invocation_id, correlation_id
      outcome              InvocationOutcome: completed | errored | suspended | crashed (an injected crash, resume.py)
      final_state          the returned state (completed) — plain data
      error                ErrorRecord (errored)
      execution_order      outermost nodes that ran, in order
      events               {observer name: (event, ...)} as each observer received them, every
                           event type (NodeEvent, FailureIsolatedEvent, …); a case declaring no
                           observer gets the harness's own recording observer, "(harness)"
      deliveries           ((observer, invocation_id, event), ...) in global delivery order; the
                           invocation is the one whose context delivered the event (§6 tagging)
      accumulators         {observer: {invocation_id: (event, ...)}} at the end
      drain                the fixture's process-wide drain: {timeout_reached, undelivered_count,
                           timeout_s, elapsed_s, turns_after_deadline, delivered_at_return}
                           (elapsed: the loop's clock around the call; turns_after_deadline: event-loop
                           turns from the deadline to the return, capped; delivered_at_return:
                           {observer: deliveries in this invocation's context when the call returned})
      settle_drain         the adapter's own untimed drain after the invocation (same shape): it
                           collects what is still queued; whether it returned clean is evidence
                           about the graph's delivery state after a timed-out drain
      node_drains          {node: summary} from invoke_drain_events_for (this invocation's only),
                           shaped like ``drain`` plus the invocation_id the drain was given
      node_snapshots       {node: {observer: (event, ...)}} taken at those drains
      observers            ((name, behaviour), ...) in declaration order (``events`` is a map: its
                           order decides nothing; ``primary_observer`` picks from this)
      role                 None (an ordinary invocation) | populate (a run seeding the checkpointer,
                           asserts nothing) | first_run | resumed — the checkpoint
                           multi-run flow (interpreter/running/resume.py): the first run, which may end in a
                           failure or an injected crash (outcome ``crashed``: no asserted outcome),
                           then the run resuming it, each its own InvocationTrace
      call                 the keyword arguments the harness passed to invoke() (invocation_id,
                           correlation_id, resume_invocation, metadata)
      initial_state        the state the harness passed to invoke() — plain data
      node_log             ({event: entered | returned | raised | cleaned_up, node, namespace, fan_out_index,
                           fan_out_index_chain, attempt_index, invocation_id, correlation_id}, ...)
                           every harness node body at any depth, as the runtime's context reported
                           it inside the body, in the order it happened
      checkpoint           {saved_record, resumed_from, migrations_run}: the record the checkpointer
                           held for this invocation's id when it ended; for a resumed run, the
                           {invocation_id, record} it resumed from; the harness migrations run
                           during it ("from->to", in call order)

    checkpoint_saves entries (CaseTrace)
      {run, route, invocation_id, record, lost} — ``run`` indexes ``invocations``; ``route`` is the
      checkpointer entry point the runtime called (save | fan_out_internal | in_flight_failure);
      ``record`` is the CheckpointRecord as plain data (frozen at the save); ``lost`` marks saves
      after an injected crash, which never persisted
"""

from __future__ import annotations

from ..kinds import is_sequence

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Iterator

from pyrsistent import freeze, pmap, pvector


class InvocationOutcome(StrEnum):
    """How one ``invoke()`` ended (``InvocationTrace.outcome``). Each value is the fixture's word for
    it (``expected.outcome``, a resume placeholder's ``<from previous suspended outcome>``), so a
    fixture's string compares equal to its member; the trace's document holds the value."""

    COMPLETED = "completed"
    ERRORED = "errored"
    SUSPENDED = "suspended"
    CRASHED = "crashed"  # abandoned by an injected crash (resume.py): an outcome no fixture asserts


# The outcomes a fixture may name (the vocabulary's `outcome` values).
ASSERTED_OUTCOMES = tuple(o.value for o in InvocationOutcome if o is not InvocationOutcome.CRASHED)

# InvocationTrace.role: which run of a checkpoint flow an invocation is (None: an ordinary one).
FIRST_RUN, RESUMED = "first_run", "resumed"
POPULATE = "populate"  # a run made only to seed the checkpointer (`populate_checkpointer_via_runs`)

# The middleware-log kind an `await_event_delivery` barrier logs each outcome under (conformance-adapter §5.1).
BARRIER = "event_delivery_barrier"


@dataclass(frozen=True)
class CaseFacts:
    """What the execute pass knew about the case that the assert pass needs to judge it, so the
    assert pass never asks the execution layers again: whether the case ran no graph (a
    directory's direct case), the directory's case-level expectations, whether it is a checkpoint
    resume case (first run, then ``resume:``), and the values ``harness_parameterized`` compares
    against (the implementation's own identity, §5.10)."""

    direct: bool = False
    case_expectations: tuple[str, ...] = ()
    multi_run: bool = False
    harness_parameters: Any = field(default_factory=pmap)


@dataclass(frozen=True)
class ErrorRecord:
    """A raised error as data: its category, message, the node it surfaced from, its cause chain."""

    category: str | None
    message: str
    type_name: str
    node: str | None = None
    chain: tuple[Any, ...] = ()  # frozen {category, message, type, carrier} links, outermost first
    attributes: Any = field(default_factory=pmap)  # other fields the error exposes (frozen)
    # Why the runtime's classify_cause_chain gave no reading of the chain (what it raised), else None:
    # ``message`` is then the error's own, and a check comparing the derived message or category
    # fails, saying so (error_rules), rather than judging the wrong text.
    unclassified: str | None = None

    @property
    def summary(self) -> str:
        """``category: message``, or the message alone for an error without a §4 category (the
        adapter's own: an initial state the schema rejects)."""
        return f"{self.category}: {self.message}" if self.category else self.message


@dataclass(frozen=True)
class InvocationTrace:
    name: str | None
    outcome: InvocationOutcome
    final_state: Any = None
    error: ErrorRecord | None = None
    invocation_id: str | None = None
    correlation_id: str | None = None
    execution_order: Any = field(default_factory=pvector)
    events: Any = field(default_factory=pmap)
    observers: tuple[tuple[str, str], ...] = ()  # (name, behaviour) in declaration order
    deliveries: Any = field(default_factory=pvector)
    accumulators: Any = field(default_factory=pmap)
    drain: Any = None
    settle_drain: Any = None
    node_drains: Any = field(default_factory=pmap)
    node_snapshots: Any = field(default_factory=pmap)
    extra: Any = field(default_factory=pmap)
    role: str | None = None
    call: Any = field(default_factory=pmap)
    initial_state: Any = None
    node_log: Any = field(default_factory=pvector)
    checkpoint: Any = field(default_factory=pmap)


def primary_observer(invocation: InvocationTrace) -> str:
    """The observer an unnamed assertion is about: the first declared ``record`` observer (else the
    first declared one). ``events`` is a map, so its own order must never decide this."""
    if not invocation.observers:
        raise LookupError("no observer recorded this invocation")
    for name, behavior in invocation.observers:
        if behavior == "record":
            return name
    return invocation.observers[0][0]


@dataclass(frozen=True)
class CaseTrace:
    compile_error: ErrorRecord | None = None
    construction_error: ErrorRecord | None = None
    compile_warnings: tuple[str, ...] = ()
    invocations: tuple[InvocationTrace, ...] = ()
    middleware_log: Any = field(default_factory=pvector)
    checkpoint_saves: Any = field(default_factory=pvector)
    notes: tuple[str, ...] = ()
    repeats: tuple["CaseTrace", ...] = ()
    mock_calls: Any = field(default_factory=pmap)
    wiring: Any = field(default_factory=lambda: pmap({"nodes": pmap(), "failure_isolation": pvector()}))
    # Named collections a capability harness recorded (wire requests, OTel spans, Langfuse
    # observations, metrics, provider results, backend state, ...): {name: frozen plain data}.
    # A collection is present only when the case instrumented it (see model/trace/document.py).
    collections: Any = field(default_factory=pmap)
    # The case's own parameters a rule may refer to: {nodes: [outer node names in declaration
    # order], graphs: {name: [node names]}, observers: [declared observer names]} (execute.py).
    parameters: Any = field(default_factory=pmap)
    # What the execute pass knew about the case that the assert pass needs (set by execute_case).
    facts: CaseFacts = field(default_factory=CaseFacts)

    @property
    def record_fields(self) -> frozenset[str]:
        """Outer state fields receiving records of implementation-defined shape (errors_fields, §9.5 / §11.1)."""
        return frozenset(n["errors_field"] for n in self.wiring["nodes"].values() if n.get("errors_field"))

    @property
    def main(self) -> InvocationTrace | None:
        """The invocation a single-invocation case's expectations are about (the last one)."""
        return self.invocations[-1] if self.invocations else None


# Values that are their own frozen form.
_ATOMS = frozenset((str, int, float, bool, type(None), bytes))


class Freezer:
    """Runtime values → frozen plain data, sharing instead of re-expanding.

    A state with an alias DAG (within the loader's bound) expands to many nodes; a case records it
    on every event of every node, then the execute pass freezes the event lists again. Three rules
    keep the cost proportional to the distinct values, not to events × expanded size:

    - each input object is frozen once: within one :meth:`plain` call by identity (a list the
      runtime shares within one value), and across the case for a frozen pydantic model (the
      runtime's states are: the started and completed events of a node carry the same
      ``pre_state`` object). Mutable inputs are never remembered across calls — an observer's
      bucket dict is frozen again after it grew — and every remembered input is kept alive with
      its result, so an identity is never reused while the memo lives;
    - a value this freezer produced is returned as is (pyrsistent structures are immutable: freezing
      a record list again keeps every record's identity instead of rebuilding it);
    - equal frozen containers are interned: one ``pmap`` / ``pvector`` per distinct structure (keyed
      by the item types and the items — atoms by value, containers by identity, since they are
      interned first), so the runtime's fresh copy of an unchanged state on every step shares every
      subtree with the copy before it.
    """

    def __init__(self) -> None:
        self.models: dict[int, tuple[Any, Any]] = {}  # frozen models, for the whole case
        self.call: dict[int, tuple[Any, Any]] = {}  # everything else, for one plain() call
        self.produced: dict[int, Any] = {}
        self.interned: dict[tuple, Any] = {}

    def plain(self, value: Any) -> Any:
        outer, self.call = self.call, {}
        try:
            return self.freeze(value)
        finally:
            self.call = outer

    def freeze(self, value: Any) -> Any:
        kind = type(value)
        if kind in _ATOMS:
            return value
        key = id(value)
        hit = self.call.get(key) or self.models.get(key)
        if hit is not None:
            return hit[1]
        if key in self.produced:
            return value
        if kind is list or kind is tuple:  # the runtime's own containers: no protocol probing
            frozen = self._vector(value)
        elif kind is dict:
            frozen = self._map(value)
        else:
            frozen = self._convert(value)
        config = getattr(value, "model_config", None) if kind is not list and kind is not dict else None
        memo = self.models if isinstance(config, dict) and config.get("frozen") else self.call
        memo[key] = (value, frozen)
        return frozen

    def _convert(self, value: Any) -> Any:
        if hasattr(value, "model_dump"):
            value = value.model_dump()
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
            value = {name: getattr(value, name) for name in value.__dataclass_fields__}
        if isinstance(value, dict) or hasattr(value, "items") and not isinstance(value, (str, bytes)):
            return self._map(value)
        if isinstance(value, (set, frozenset)):
            return self._vector(sorted(value, key=repr))
        if is_sequence(value):
            return self._vector(value)
        return value

    def _items(self, values: Any) -> tuple:
        """The frozen items; a run of atoms (most leaves) is taken as is, at C speed."""
        items = tuple(values)
        if _ATOMS.issuperset(map(type, items)):
            return items
        freeze = self.freeze
        return tuple([item if type(item) in _ATOMS else freeze(item) for item in items])

    def _vector(self, values: Any) -> Any:
        items = self._items(values)
        return self._intern(_VECTOR, items, pvector, items)

    def _map(self, mapping: Any) -> Any:
        keys = tuple(mapping.keys())
        items = self._items(mapping.values())
        return self._intern(("map", keys, tuple(map(type, keys))), items, _pmap_of, (keys, items))

    def _intern(self, head: tuple, items: tuple, build: Any, argument: Any) -> Any:
        """One frozen container per distinct (head, item types, items): atoms compared by value
        (their types apart, so ``1``, ``1.0`` and ``True`` stay distinct), containers by identity
        (already interned)."""
        types = tuple(map(type, items))
        if _ATOMS.issuperset(types):
            signature = (head, types, items)
        else:
            signature = (head, types, tuple([i if type(i) in _ATOMS else id(i) for i in items]))
        try:
            found = self.interned.get(signature)
        except TypeError:  # a map key that is not hashable in a tuple (cannot be a pmap key either)
            return build(argument) if build is pvector else build(*argument)
        if found is None:
            found = self.interned[signature] = pvector(argument) if build is pvector else build(*argument)
            self.produced[id(found)] = found
        return found


_VECTOR = ("vector",)


def _pmap_of(keys: tuple, items: tuple) -> Any:
    return pmap(dict(zip(keys, items)))


_FREEZER: ContextVar[Freezer | None] = ContextVar("oa_conformance_freezer", default=None)


@contextmanager
def freezing() -> Iterator[Freezer]:
    """One :class:`Freezer` for every :func:`plain` in this context (one case: execute.py)."""
    freezer = Freezer()
    token = _FREEZER.set(freezer)
    try:
        yield freezer
    finally:
        _FREEZER.reset(token)


def plain(value: Any) -> Any:
    """Runtime values → frozen plain data: models and mappings → maps, sequences → vectors (sets
    sorted by repr). Inside :func:`freezing`, shared with everything else frozen in that context."""
    freezer = _FREEZER.get()
    return (freezer if freezer is not None else Freezer()).plain(value)


__all__ = ["BARRIER", "CaseFacts", "CaseTrace", "ErrorRecord", "Freezer", "InvocationTrace", "freeze", "freezing", "plain"]
