"""The compute functions of the graph-engine rows (their rows are in :mod:`.graph_engine`): per-node maps,
groupings, and the drain contract.

The drain predicates (§6 ``invoke_drain_events_for`` / the process-wide drain) join an invocation's
drain summaries with its delivered event stream, its accumulator buckets and snapshots, and other
invocations of the case, and some judge promptness: joins, positions in a stream and timing,
which JMESPath cannot say. Each function takes the query scope (scope.py) and the fixture's value.
"""

from __future__ import annotations

from typing import Any

from ...model.kinds import is_sequence
from ...model.trace import InvocationOutcome
from ..matchers import show
from .rows import flag, Verdict
from .canonical import DRAIN_PROMPT_TURNS
from .scope import view

EDGE_FAILURES = frozenset(("routing_error", "edge_exception"))
SCALAR_IDENTITY = ("namespace", "fan_out_index", "branch_name", "attempt_index", "phase")



def identity(event: dict, *fields: str) -> tuple:
    """An event's identity tuple over ``fields`` (sequences made hashable)."""
    return tuple(tuple(v) if is_sequence(v) else v for v in (event.get(f) for f in fields))


def of_node(events: list, node: str) -> list:
    return [e for e in events if e.get("node_name") == node]


def inner(events: list) -> list:
    """Events from nodes inside a subgraph, fan-out instance or branch (namespace deeper than 1)."""
    return [e for e in events if len(e.get("namespace") or ()) > 1]


def distinct(values: list) -> list:
    return sorted({tuple(v) if is_sequence(v) else v for v in values}, key=repr)


# ---------------------------------------------------------------------------------------------
# Events of named nodes


def inner_branch_names(scope: dict, expected: Any) -> Verdict:
    problems = []
    for node, branch in expected.items():
        names = [e.get("branch_name") for e in of_node(view(scope, "node_events"), node)]
        if not names:
            problems.append(f"no events from {node!r}")
        elif any(name != branch for name in names):
            problems.append(f"{node!r} events carry branch_name {names}, expected {branch!r} on each")
    return Verdict(not problems, "; ".join(problems))


def scalar_collides(scope: dict, expected: Any, node: str) -> Verdict:
    outer_by_identity: dict[tuple, set] = {}
    events = of_node(view(scope, "node_events"), node)
    if not events:
        raise LookupError(f"no events from node {node!r}")
    for e in events:
        chain = tuple(e.get("fan_out_index_chain") or ())
        outer_by_identity.setdefault(identity(e, *SCALAR_IDENTITY), set()).add(chain[:-1])
    collides = any(len(outers) > 1 for outers in outer_by_identity.values())
    return flag(expected, collides, "scalar identities and the outer chains under each: "
                + show({str(k): sorted(v) for k, v in outer_by_identity.items()}))


def edge_failure_in_completed(scope: dict, expected: Any) -> Verdict:
    run = scope.get("invocation")
    if run is None:
        raise LookupError("this predicate is about one invocation")
    error = run.get("error")
    if error is None:
        return flag(expected, False, "the invocation did not fail")
    if error.get("category") not in EDGE_FAILURES:
        # An error without a category (a bare host exception) is named by its type and message.
        what = repr(error["category"]) if "category" in error else f"{error.get('type')}: {error.get('message')} (no category)"
        return flag(expected, False, f"the invocation failed with {what}, not an edge-resolution failure")
    if not run.get("events"):
        raise LookupError("the case declares no observer")
    problems = []
    for observer, received in run["events"].items():
        events = [e for e in received if e.get("type") == "NodeEvent"]
        carrying = [e for e in events if (e.get("error") or {}).get("category") == error["category"]]
        if len(carrying) != 1:
            problems.append(f"{observer!r}: {len(carrying)} events carry the {error['category']} error")
            continue
        event = carrying[0]
        where = (event.get("node_name"), event.get("phase"))
        if where != (error.get("node"), "completed") or event is not events[-1]:
            problems.append(f"{observer!r}: the error is on {where}, event {events.index(event) + 1} of {len(events)}; "
                            f"expected on {error.get('node')!r}'s completed event, the last one")
        if event.get("post_state") is not None:
            problems.append(f"{observer!r}: the completed event carrying the error has a post_state")
        opened = [e for e in of_node(events, error.get("node")) if e.get("phase") == "started"
                  and (e.get("step"), e.get("attempt_index")) == (event.get("step"), event.get("attempt_index"))]
        if len(opened) != 1:
            problems.append(f"{observer!r}: {len(opened)} started events open the pair the error closes")
    return flag(expected, not problems, "; ".join(problems))


# ---------------------------------------------------------------------------------------------
# Drains


def position(scope: dict) -> int:
    """The index of the block's invocation in the case (0 for a case-level block)."""
    return scope["invocation"]["index"] if "invocation" in scope else 0


def snapshot_drains(scope: dict) -> list[tuple[dict, str, str, dict, list, list]]:
    """(run, node, observer, drain summary, snapshot, the run's final bucket) for every in-node
    drain that snapshotted an accumulator, in the invocations the block is about."""
    found = []
    for run in scope["runs"]:
        for node, per_observer in run.get("node_snapshots", {}).items():
            summary = run["node_drains"][node]
            for observer, snapshot in per_observer.items():
                final = list((run.get("accumulators", {}).get(observer) or {}).get(summary["invocation_id"], ()))
                found.append((run, node, observer, summary, list(snapshot), final))
    if not found:
        raise LookupError("no in-node drain snapshotted an accumulator")
    return found


def drain_point(final: list, node: str) -> tuple[int, int | None]:
    """Where a node's in-body drain call sits in the delivered stream (FIFO: emission order): the
    index of the node's started event (emitted before the call) and of its completed event (after)."""
    started = [i for i, e in enumerate(final) if e.get("node_name") == node and e.get("phase") == "started"]
    if len(started) != 1:
        raise LookupError(f"node {node!r} started {len(started)} times in the stream; its drain cannot be placed")
    completed = [i for i, e in enumerate(final) if e.get("node_name") == node and e.get("phase") == "completed" and i > started[0]]
    return started[0], (completed[0] if completed else None)


def covers_pre_call_events(node: str, summary: dict, snapshot: list, final: list) -> list[str]:
    """Problems with "the snapshot holds every event emitted before the drain call"."""
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


def synchronized_read(scope: dict, expected: Any) -> Verdict:
    problems = [p for _, node, _, summary, snapshot, final in snapshot_drains(scope)
                for p in covers_pre_call_events(node, summary, snapshot, final)]
    return flag(expected, not problems, "; ".join(problems))


def not_blocking_on_later(scope: dict, expected: Any) -> Verdict:
    problems = []
    for _, node, _, summary, snapshot, final in snapshot_drains(scope):
        if summary["timeout_reached"]:
            problems.append(f"node {node!r}'s drain timed out (it waited on events emitted after the call)")
        _, completed = drain_point(final, node)
        if completed is None:
            problems.append(f"{node!r}'s completed event was never delivered")
        elif len(snapshot) > completed:
            problems.append(f"the snapshot at {node!r} already holds {node!r}'s completed event")
    return flag(expected, not problems, "; ".join(problems))


def covered_via_invocation(field: str, what: str):
    def covered(scope: dict, expected: Any) -> Verdict:
        problems = []
        for run, node, _, summary, snapshot, final in snapshot_drains(scope):
            if summary["invocation_id"] is None or summary["invocation_id"] != run.get("id"):
                problems.append(f"node {node!r} drained invocation {summary['invocation_id']!r}, not its own {run.get('id')!r}")
            problems.extend(covers_pre_call_events(node, summary, snapshot, final))
            started, _ = drain_point(final, node)
            emitted = [e for e in inner(final[: started + 1]) if e.get(field) is not None]
            held = [e for e in inner(snapshot) if e.get(field) is not None]
            if not emitted:
                problems.append(f"no inner events with a {field} were emitted before {node!r}'s drain")
            seen, wanted = distinct([e[field] for e in held]), distinct([e[field] for e in emitted])
            if seen != wanted or len(held) != len(emitted):
                problems.append(f"the snapshot at {node!r} holds {len(held)} inner events over {what} {seen}; "
                                f"{len(emitted)} over {wanted} were emitted before the call")
        return flag(expected, not problems, "; ".join(problems))
    covered.__name__ = f"covered_all_{what}"
    return covered


def waited_for_all(scope: dict, expected: Any) -> Verdict:
    problems, drained = [], 0
    for run in scope["runs"]:
        summary = run.get("drain")
        if summary is None:
            continue
        drained += 1
        if summary["timeout_s"] is not None:
            problems.append(f"the drain had a timeout ({summary['timeout_s']} s)")
        if summary["timeout_reached"] or summary["undelivered_count"]:
            problems.append(f"the drain reported {summary['undelivered_count']} undelivered (timeout_reached {summary['timeout_reached']})")
        total: dict[str, int] = {}
        for delivery in run.get("deliveries", ()):
            if delivery.get("context") == run.get("id"):
                total[delivery["observer"]] = total.get(delivery["observer"], 0) + 1
        late = {o: total.get(o, 0) - n for o, n in summary["delivered_at_return"].items() if total.get(o, 0) != n}
        if late:
            problems.append(f"events were still delivered after the drain returned: {late}")
    if not drained:
        raise LookupError("the case made no process-wide drain")
    return flag(expected, not problems, "; ".join(problems))


def intact_after_timeout(scope: dict, expected: Any) -> Verdict:
    problems, timed_out = [], False
    for run in scope["invocations"][position(scope):]:
        if timed_out and run["outcome"] != InvocationOutcome.COMPLETED:
            problems.append(f"a later invocation {run['outcome']}")
        if (run.get("drain") or {}).get("timeout_reached"):
            timed_out = True
            settle = run.get("settle_drain")
            if settle is None:
                raise LookupError("the adapter made no drain after the timed-out one")
            if settle["timeout_reached"] or settle["undelivered_count"]:
                problems.append(f"the next drain reported {settle['undelivered_count']} undelivered")
            # A drain with no live worker returns at once (counted in turns of the event loop, as a
            # timed drain's promptness: canonical.DRAIN_PROMPT_TURNS); one that waits found workers.
            if settle["turns_after_deadline"] > DRAIN_PROMPT_TURNS:
                problems.append(f"the next drain waited {settle['turns_after_deadline']} event-loop turns "
                                f"({settle['elapsed_s']:.3f} s): workers outlived the timed-out drain")
    if not timed_out:
        raise LookupError("no process-wide drain reached its timeout")
    return flag(expected, not problems, "; ".join(problems))


def drains_of(run: dict) -> list[dict]:
    """Every drain the fixture made in one invocation: its process-wide drain, its nodes' drains."""
    return ([run["drain"]] if run.get("drain") is not None else []) + list(run.get("node_drains", {}).values())


def intact_after_node_drain_timeout(scope: dict, expected: Any) -> Verdict:
    run = scope.get("invocation")
    if run is None:
        raise LookupError("this predicate is about one invocation")
    if not any(d["timeout_reached"] for earlier in scope["invocations"][: run["index"]] for d in drains_of(earlier)):
        raise LookupError("no earlier invocation's drain timed out")
    problems = []
    if run["outcome"] != InvocationOutcome.COMPLETED:
        problems.append(f"the invocation {run['outcome']}")
    for observer, events in run.get("events", {}).items():
        kinds = [e.get("type") for e in events]
        pairs = [sorted((identity(e, *SCALAR_IDENTITY[:-1]) for e in events if e.get("type") == "NodeEvent"
                         and e.get("phase") == phase), key=repr) for phase in ("started", "completed")]
        if "InvocationCompletedEvent" not in kinds or pairs[0] != pairs[1]:
            problems.append(f"{observer!r} did not receive the whole invocation: "
                            f"{show([(e.get('node_name'), e.get('phase')) for e in events])}")
    settle = run.get("settle_drain")
    if settle is not None and (settle["timeout_reached"] or settle["undelivered_count"]):
        problems.append(f"its drain reported {settle['undelivered_count']} undelivered")
    return flag(expected, not problems, "; ".join(problems))


def second_independent(scope: dict, expected: Any) -> Verdict:
    if len(scope["invocations"]) < 2:
        raise LookupError("the case has fewer than two invocations")
    first, second = scope["invocations"][0], scope["invocations"][1]
    if not (first.get("drain") or {}).get("timeout_reached"):
        raise LookupError("the first invocation's drain did not time out")
    problems = []
    if second.get("drain") is None:
        problems.append("the second invocation did not drain")
    elif second["drain"]["timeout_reached"] or second["drain"]["undelivered_count"]:
        problems.append(f"the second drain reported {second['drain']['undelivered_count']} undelivered "
                        f"(timeout_reached {second['drain']['timeout_reached']})")
    foreign = [(d["observer"], d.get("context")) for d in second.get("deliveries", ()) if d.get("context") != second.get("id")]
    if second.get("id") is None or foreign:
        problems.append(f"deliveries during the second invocation from other contexts: {show(foreign)}")
    if first.get("id") == second.get("id"):
        problems.append("both invocations have the same invocation_id")
    return flag(expected, not problems, "; ".join(problems))


def drain_scoped(scope: dict, expected: Any) -> Verdict:
    problems = []
    for run, node, _, summary, snapshot, _ in snapshot_drains(scope):
        label = f"{run.get('name') or 'invocation'}: node {node!r}"
        if summary["invocation_id"] is None or summary["invocation_id"] != run.get("id"):
            problems.append(f"{label} drained {summary['invocation_id']!r}, not its own {run.get('id')!r}")
        if summary["timeout_reached"]:
            problems.append(f"{label}'s drain timed out")
        others = [e.get("invocation_id") for e in snapshot if e.get("invocation_id") not in (None, summary["invocation_id"])]
        if others:
            problems.append(f"{label}'s snapshot holds events of {others}")
        identities = [identity(e, "step", *SCALAR_IDENTITY) for e in snapshot if e.get("type") == "NodeEvent"]
        if len(identities) != len(set(identities)):
            problems.append(f"{label}'s snapshot repeats events: {show(identities)}")
    return flag(expected, not problems, "; ".join(problems))


# Determinism across runs (graph-engine §5, §6 *Determinism*): every invocation of the case is a run
# of the same compiled graph. What differs by definition between two runs is left out of the
# comparison: the ids each invocation mints (observability §5.1, §3.1), the delivery's position in
# the case's log, and wall-clock readings (§5 puts them out of scope).
VARIES_PER_RUN = frozenset(("invocation_id", "correlation_id", "seq", "latency_ms"))


def _same_input_runs(scope: dict) -> list[dict]:
    """The case's invocations, when there are at least two and all start from the same state."""
    runs = scope["invocations"]
    if len(runs) < 2:
        raise LookupError("the case has fewer than two invocations to compare")
    if any(run.get("initial_state") != runs[0].get("initial_state") for run in runs):
        raise LookupError("the invocations start from different initial states")
    return runs


def _first_difference(label: str, runs: list[dict], read: Any) -> str:
    """Where a later run's ``read`` first differs from the first run's ('' when none does); for a
    sequence, the first position that differs."""
    first = read(runs[0])
    for run in runs[1:]:
        other = read(run)
        if other == first:
            continue
        name = run.get("name") or f"invocation {run['index']}"
        if is_sequence(first) and is_sequence(other):
            at = next((n for n, (a, b) in enumerate(zip(first, other)) if a != b), min(len(first), len(other)))
            mine, theirs = (other[at] if at < len(other) else "nothing"), (first[at] if at < len(first) else "nothing")
            return f"{name}: {label}[{at}] is {show(mine)}, the first run's {show(theirs)}"
        return f"{name}: {label} {show(other)}, the first run's {show(first)}"
    return ""


def runs_agree_on_outcome(scope: dict, expected: Any) -> Verdict:
    runs = _same_input_runs(scope)
    problems = [p for p in (_first_difference("final state", runs, lambda r: r.get("final_state")),
                            _first_difference("node-execution order", runs, lambda r: r.get("execution_order"))) if p]
    return flag(expected, not problems, "; ".join(problems))


def _delivered_sequence(run: dict) -> list:
    """The run's deliveries in order: each observer with the event it received, less what varies per run."""
    return [(d["observer"], {k: v for k, v in d["event"].items() if k not in VARIES_PER_RUN}) for d in run.get("deliveries", ())]


def runs_agree_on_event_sequence(scope: dict, expected: Any) -> Verdict:
    runs = _same_input_runs(scope)
    if not _delivered_sequence(runs[0]):
        raise LookupError("the first run delivered no events")
    problem = _first_difference("delivery", runs, _delivered_sequence)
    return flag(expected, not problem, problem)


# The targets a `mutate` observer's attempts must cover (graph-engine §6 *State immutability*).
MUTATION_TARGETS = ("pre_state", "post_state", "parent_states")


def mutations_refused(scope: dict, expected: Any) -> Verdict:
    attempts = [(observer, event.get("node_name"), attempt) for observer, events in (scope["invocation"].get("events") or {}).items()
                for event in events for attempt in event.get("state_mutation_attempts") or ()]
    tried = {attempt["target"].split("[", 1)[0] for _, _, attempt in attempts}
    missing = [target for target in MUTATION_TARGETS if target not in tried]
    if missing:
        raise LookupError(f"no observer attempted to mutate a {' or '.join(missing)} (a `mutate` observer on a subgraph node)")
    accepted = [f"{observer} on {node}'s {attempt['target']}" for observer, node, attempt in attempts if not attempt["refused"]]
    return flag(expected, not accepted, f"mutations went through: {show(accepted)}")
