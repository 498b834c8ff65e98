"""Predicates named by the graph-engine fixtures and described in their `.md` sidecars.

Each is a named rule over the trace, built from the shared building blocks; none names a fixture.
Families:

- event-field predicates over one node's events (``<node>_…``): branch names, lineage chains;
- edge-failure predicates: where a routing / edge failure surfaced in the event stream;
- drain predicates: what the recorded drains (summaries, timings, the deliveries at their return,
  the accumulator snapshots taken there) show about the runtime's drain contract (§6).

A node name in a ``<node>_…`` predicate may be followed by ``_node`` (``inner_fan_out_node_…`` and
``leaf_…`` both occur); the shortest node name that makes the whole name parse is taken, and a
node with no events fails the check instead of passing it vacuously.
"""

from __future__ import annotations

from ...kinds import is_sequence

from typing import Any

from ...interpreter.values import literal
from ..matchers import show
from ..rules import Context
from ..catalogue.canonical import DRAIN_PROMPT_TURNS
from . import (
    Verdict,
    all_events_of,
    as_set,
    delivered_per_observer,
    drains_of,
    events_of,
    expected_set,
    flag,
    in_scope,
    inner,
    of_node,
    pattern,
    predicate,
    unique,
    values_of,
)

EDGE_FAILURES = frozenset(("routing_error", "edge_exception"))


def node_events_required(ctx: Context, node: str) -> list[Any]:
    """The events of one node; a node that produced none cannot satisfy a predicate about them."""
    found = of_node(events_of(ctx), node)
    if not found:
        raise LookupError(f"no events from node {node!r}")
    return found


def innermost(chain: Any) -> Any:
    """The deepest non-null element of a lineage chain (None when there is none)."""
    present = [v for v in (chain or ()) if v is not None]
    return present[-1] if present else None


def identity(event: Any, *fields: str) -> tuple:
    """An event's identity tuple over ``fields`` (sequences made hashable)."""
    return tuple(tuple(v) if is_sequence(v) else v
                 for v in (event.get(f) for f in fields))


SCALAR_IDENTITY = ("namespace", "fan_out_index", "branch_name", "attempt_index", "phase")
CHAIN_IDENTITY = ("namespace", "fan_out_index_chain", "branch_name_chain", "attempt_index", "phase")


# ---------------------------------------------------------------------------------------------
# Events of named nodes


@predicate("inner_events_carry_correct_branch_name")
def _inner_branch_names(ctx: Context, expected: Any) -> Verdict:
    """Every event of each listed node carries the ``branch_name`` given for it (``{node: branch}``)."""
    problems = []
    for node, branch in literal(expected).items():
        names = values_of(of_node(events_of(ctx), node), "branch_name")
        if not names:
            problems.append(f"no events from {node!r}")
        elif any(name != branch for name in names):
            problems.append(f"{node!r} events carry branch_name {names}, expected {branch!r} on each")
    return Verdict(not problems, "; ".join(problems))


# ---------------------------------------------------------------------------------------------
# Lineage chains (fan_out_index_chain / branch_name_chain) and the scalars they refine


@pattern(r"(?P<node>.+?)(?:_node)?_scalar_fan_out_index_not_unique_across_outer_instances")
def _scalar_collides(ctx: Context, expected: Any, node: str) -> Verdict:
    """The scalar identity (namespace, fan_out_index, branch_name, attempt_index, phase) repeats across
    events whose fan_out_index_chain differs in an enclosing (outer) position."""
    outer_by_identity: dict[tuple, set] = {}
    for e in node_events_required(ctx, node):
        chain = tuple(e.get("fan_out_index_chain") or ())
        outer_by_identity.setdefault(identity(e, *SCALAR_IDENTITY), set()).add(chain[:-1])
    collides = any(len(outers) > 1 for outers in outer_by_identity.values())
    return flag(expected, collides, f"scalar identities and the outer chains under each: {show({str(k): sorted(v) for k, v in outer_by_identity.items()})}")


# ---------------------------------------------------------------------------------------------
# Edge-resolution failures


@predicate("edge_resolution_failure_in_completed_event")
def _edge_failure_in_completed(ctx: Context, expected: Any) -> Verdict:
    """The invocation failed with routing_error / edge_exception, and each observer saw that error
    exactly once: on the completed event (no post_state) that closes the raising node's own
    started/completed pair, as the last event — no separate pair for the edge failure."""
    inv = ctx.invocation
    if inv is None or inv.error is None:
        return flag(expected, False, "the invocation did not fail")
    error = inv.error
    if error.category not in EDGE_FAILURES:
        return flag(expected, False, f"the invocation failed with {error.category!r}, not an edge-resolution failure")
    problems = []
    for observer, events in all_events_of(ctx).items():
        carrying = [e for e in events if (e.get("error") or {}).get("category") == error.category]
        if len(carrying) != 1:
            problems.append(f"{observer!r}: {len(carrying)} events carry the {error.category} error")
            continue
        event = carrying[0]
        where = (event.get("node_name"), event.get("phase"))
        if where != (error.node, "completed") or event is not events[-1]:
            problems.append(f"{observer!r}: the error is on {where}, event {events.index(event) + 1} of {len(events)}; "
                            f"expected on {error.node!r}'s completed event, the last one")
        if event.get("post_state") is not None:
            problems.append(f"{observer!r}: the completed event carrying the error has a post_state")
        opened = [e for e in of_node(events, error.node) if e.get("phase") == "started"
                  and (e.get("step"), e.get("attempt_index")) == (event.get("step"), event.get("attempt_index"))]
        if len(opened) != 1:
            problems.append(f"{observer!r}: {len(opened)} started events open the pair the error closes")
    return flag(expected, not problems, "; ".join(problems))


# ---------------------------------------------------------------------------------------------
# Drains


def position(ctx: Context) -> int:
    """The index of the block's invocation in the case (0 for a case-level block)."""
    return next((i for i, inv in enumerate(ctx.trace.invocations) if inv is ctx.invocation), 0)


def from_this_on(ctx: Context) -> tuple[Any, ...]:
    """The block's invocation and every later one (all of them, for a case-level block)."""
    return tuple(ctx.trace.invocations[position(ctx):])


def snapshot_drains(ctx: Context) -> list[tuple[Any, str, str, Any, Any, list]]:
    """(invocation, node, observer, drain summary, snapshot, the invocation's final bucket) for every
    in-node drain that snapshotted an accumulator, in the invocations the block is about."""
    found = []
    for inv in in_scope(ctx):
        for node, per_observer in inv.node_snapshots.items():
            summary = inv.node_drains[node]
            for observer, snapshot in per_observer.items():
                final = list((inv.accumulators.get(observer) or {}).get(summary["invocation_id"], ()))
                found.append((inv, node, observer, summary, list(snapshot), final))
    if not found:
        raise LookupError("no in-node drain snapshotted an accumulator")
    return found


def drain_point(final: list, node: str) -> tuple[int, int | None]:
    """Where a node's in-body drain call sits in the invocation's delivered event stream (delivery is
    FIFO, so the stream is emission order): the index of the node's started event (emitted before
    the call) and of its completed event (emitted after the call), or None when never emitted."""
    started = [i for i, e in enumerate(final) if e.get("node_name") == node and e.get("phase") == "started"]
    if len(started) != 1:
        raise LookupError(f"node {node!r} started {len(started)} times in the stream; its drain cannot be placed")
    completed = [i for i, e in enumerate(final) if e.get("node_name") == node and e.get("phase") == "completed" and i > started[0]]
    return started[0], (completed[0] if completed else None)


def covers_pre_call_events(node: str, summary: Any, snapshot: list, final: list) -> list[str]:
    """Problems with "the snapshot holds every event emitted before the drain call": the drain did
    not time out, and the snapshot is a prefix of the final stream reaching the node's started event."""
    problems = []
    if summary["timeout_reached"] or summary["undelivered_count"]:
        problems.append(f"node {node!r}'s drain timed out / left {summary['undelivered_count']} undelivered")
    started, _ = drain_point(final, node)
    if snapshot != final[: len(snapshot)]:
        problems.append(f"the snapshot at {node!r} is not what the stream delivered first")
    elif len(snapshot) <= started:
        missing = [(e.get("node_name"), e.get("phase")) for e in final[len(snapshot): started + 1]]
        problems.append(f"the snapshot at {node!r} misses events emitted before the drain call: {show(missing)}")
    return problems


@predicate("drain_events_for_synchronized_accumulator_read")
def _synchronized_read(ctx: Context, expected: Any) -> Verdict:
    """At each in-node drain's return the accumulator already held every event emitted before the
    call (through the node's own started event): a snapshot read after the drain is complete."""
    problems = [p for _, node, _, summary, snapshot, final in snapshot_drains(ctx)
                for p in covers_pre_call_events(node, summary, snapshot, final)]
    return flag(expected, not problems, "; ".join(problems))


@predicate("drain_returned_without_blocking_on_post_call_events")
def _not_blocking_on_later(ctx: Context, expected: Any) -> Verdict:
    """Each in-node drain returned (no timeout) before the node's own completed event — emitted after
    the call — was delivered, and that event was delivered later all the same."""
    problems = []
    for _, node, _, summary, snapshot, final in snapshot_drains(ctx):
        if summary["timeout_reached"]:
            problems.append(f"node {node!r}'s drain timed out (it waited on events emitted after the call)")
        _, completed = drain_point(final, node)
        if completed is None:
            problems.append(f"{node!r}'s completed event was never delivered")
        elif len(snapshot) > completed:
            problems.append(f"the snapshot at {node!r} already holds {node!r}'s completed event")
    return flag(expected, not problems, "; ".join(problems))


def covered_via_invocation(ctx: Context, expected: Any, field: str, what: str) -> Verdict:
    """Each in-node drain was given its own invocation's id and returned with every inner event
    emitted before the call, covering every distinct ``field`` value (instance / branch) seen there."""
    problems = []
    for inv, node, _, summary, snapshot, final in snapshot_drains(ctx):
        if summary["invocation_id"] != inv.invocation_id or summary["invocation_id"] is None:
            problems.append(f"node {node!r} drained invocation {summary['invocation_id']!r}, not its own {inv.invocation_id!r}")
        problems.extend(covers_pre_call_events(node, summary, snapshot, final))
        started, _ = drain_point(final, node)
        emitted = [e for e in inner(final[: started + 1]) if e.get(field) is not None]
        held = [e for e in inner(snapshot) if e.get(field) is not None]
        if not emitted:
            problems.append(f"no inner events with a {field} were emitted before {node!r}'s drain")
        if as_set(values_of(held, field)) != as_set(values_of(emitted, field)) or len(held) != len(emitted):
            problems.append(f"the snapshot at {node!r} holds {len(held)} inner events over {what} {as_set(values_of(held, field))}; "
                            f"{len(emitted)} over {as_set(values_of(emitted, field))} were emitted before the call")
    return flag(expected, not problems, "; ".join(problems))


@predicate("drain_covered_all_fan_out_instances_via_shared_invocation_id")
def _covered_fan_out(ctx: Context, expected: Any) -> Verdict:
    """A drain scoped to the invocation's id covered the events of every fan-out instance (each ``fan_out_index``)."""
    return covered_via_invocation(ctx, expected, "fan_out_index", "instances")


@predicate("drain_covered_all_parallel_branches_via_shared_invocation_id")
def _covered_branches(ctx: Context, expected: Any) -> Verdict:
    """A drain scoped to the invocation's id covered the events of every parallel branch (each ``branch_name``)."""
    return covered_via_invocation(ctx, expected, "branch_name", "branches")


@predicate("drain_waited_for_all_events")
def _waited_for_all(ctx: Context, expected: Any) -> Verdict:
    """The fixture's untimed process-wide drain returned only once every observer had received every
    event of the invocation: nothing was delivered after it returned, and nothing was reported undelivered."""
    problems, drained = [], 0
    for inv in in_scope(ctx):
        summary = inv.drain
        if summary is None:
            continue
        drained += 1
        if summary["timeout_s"] is not None:
            problems.append(f"the drain had a timeout ({summary['timeout_s']} s)")
        if summary["timeout_reached"] or summary["undelivered_count"]:
            problems.append(f"the drain reported {summary['undelivered_count']} undelivered (timeout_reached {summary['timeout_reached']})")
        total = delivered_per_observer(inv, inv.invocation_id)
        late = {o: total.get(o, 0) - n for o, n in summary["delivered_at_return"].items() if total.get(o, 0) != n}
        if late:
            problems.append(f"events were still delivered after the drain returned: {late}")
    if not drained:
        raise LookupError("the case made no process-wide drain")
    return flag(expected, not problems, "; ".join(problems))


@predicate("graph_state_intact_after_timeout")
def _intact_after_timeout(ctx: Context, expected: Any) -> Verdict:
    """A process-wide drain reached its timeout, and the graph's delivery state was clean afterwards:
    the next (untimed) drain returned at once with nothing undelivered, and later invocations completed."""
    problems, timed_out = [], False
    for inv in from_this_on(ctx):
        if timed_out and inv.outcome != "completed":
            problems.append(f"a later invocation {inv.outcome}")
        if inv.drain is not None and inv.drain["timeout_reached"]:
            timed_out = True
            settle = inv.settle_drain
            if settle["timeout_reached"] or settle["undelivered_count"]:
                problems.append(f"the next drain reported {settle['undelivered_count']} undelivered")
            # A drain with no live worker returns at once (in turns of the loop, as for a timed
            # drain's deadline); one that waits found workers still running.
            if settle["turns_after_deadline"] > DRAIN_PROMPT_TURNS:
                problems.append(f"the next drain waited {settle['turns_after_deadline']} event-loop turns "
                                f"({settle['elapsed_s']:.3f} s): workers outlived the timed-out drain")
    if not timed_out:
        raise LookupError("no process-wide drain reached its timeout")
    return flag(expected, not problems, "; ".join(problems))


@predicate("graph_state_intact_after_per_invocation_drain_timeout")
def _intact_after_node_drain_timeout(ctx: Context, expected: Any) -> Verdict:
    """After an earlier invocation's in-node drain timed out, this invocation ran cleanly: it completed,
    each observer received every event of it (through its completed event), and its drains returned."""
    inv = ctx.invocation
    if inv is None:
        raise LookupError("this predicate is about one invocation")
    earlier = ctx.trace.invocations[: position(ctx)]
    if not any(s["timeout_reached"] for e in earlier for _, s in drains_of(e)):
        raise LookupError("no earlier invocation's drain timed out")
    problems = []
    if inv.outcome != "completed":
        problems.append(f"the invocation {inv.outcome}")
    for observer, events in inv.events.items():
        kinds = [e.get("type") for e in events]
        started = [identity(e, *SCALAR_IDENTITY[:-1]) for e in node_events_of(events, "started")]
        completed = [identity(e, *SCALAR_IDENTITY[:-1]) for e in node_events_of(events, "completed")]
        if "InvocationCompletedEvent" not in kinds or sorted(started, key=repr) != sorted(completed, key=repr):
            problems.append(f"{observer!r} did not receive the whole invocation: {show([(e.get('node_name'), e.get('phase')) for e in events])}")
    settle = inv.settle_drain
    if settle is not None and (settle["timeout_reached"] or settle["undelivered_count"]):
        problems.append(f"its drain reported {settle['undelivered_count']} undelivered")
    return flag(expected, not problems, "; ".join(problems))


def node_events_of(events: Any, phase: str) -> list[Any]:
    return [e for e in events if e.get("type") == "NodeEvent" and e.get("phase") == phase]


@predicate("second_invocation_drain_independent_of_first")
def _second_independent(ctx: Context, expected: Any) -> Verdict:
    """The first invocation's drain timed out; the second's drain then returned clean, and everything
    the observers received during the second was delivered in the second invocation's own context
    (no residue of the first's undelivered queue)."""
    if len(ctx.trace.invocations) < 2:
        raise LookupError("the case has fewer than two invocations")
    first, second = ctx.trace.invocations[0], ctx.trace.invocations[1]
    if first.drain is None or not first.drain["timeout_reached"]:
        raise LookupError("the first invocation's drain did not time out")
    problems = []
    if second.drain is None:
        problems.append("the second invocation did not drain")
    elif second.drain["timeout_reached"] or second.drain["undelivered_count"]:
        problems.append(f"the second drain reported {second.drain['undelivered_count']} undelivered (timeout_reached {second.drain['timeout_reached']})")
    foreign = [(observer, invocation) for observer, invocation, _ in second.deliveries if invocation != second.invocation_id]
    if second.invocation_id is None or foreign:
        problems.append(f"deliveries during the second invocation from other contexts: {show(foreign)}")
    if first.invocation_id == second.invocation_id:
        problems.append("both invocations have the same invocation_id")
    return flag(expected, not problems, "; ".join(problems))


@predicate("drain_scopes_strictly_to_supplied_invocation_id")
def _drain_scoped(ctx: Context, expected: Any) -> Verdict:
    """Each in-node drain was given its own invocation's id, returned without timing out, and its
    snapshot holds only that invocation's events: every id-carrying event names it, and no event
    identity repeats (another run of the same graph would repeat them)."""
    problems = []
    for inv, node, observer, summary, snapshot, _ in snapshot_drains(ctx):
        label = f"{inv.name or 'invocation'}: node {node!r}"
        if summary["invocation_id"] is None or summary["invocation_id"] != inv.invocation_id:
            problems.append(f"{label} drained {summary['invocation_id']!r}, not its own {inv.invocation_id!r}")
        if summary["timeout_reached"]:
            problems.append(f"{label}'s drain timed out")
        others = [e.get("invocation_id") for e in snapshot if e.get("invocation_id") not in (None, summary["invocation_id"])]
        if others:
            problems.append(f"{label}'s snapshot holds events of {others}")
        identities = [identity(e, "step", *SCALAR_IDENTITY) for e in snapshot if e.get("type") == "NodeEvent"]
        if not unique(identities):
            problems.append(f"{label}'s snapshot repeats events: {show(identities)}")
    return flag(expected, not problems, "; ".join(problems))
