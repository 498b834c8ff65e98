"""The canonical predicates of conformance-adapter §5.9, shared by every capability.

A capability's own rows are consulted first; these answer every capability's fixtures.
"""

from __future__ import annotations

from typing import Any

from .rows import Compute, Example, Query, Verdict, flag
from .scope import view
from .examples import case, invocation, node_event, one_run

# "Returned within its timeout" is judged in turns of the case's event loop after the deadline, not
# in seconds (see interpreter.running.harness.timed_drain): a drain that honours its deadline returns within a
# handful of turns (measured: 2 for drain_events_for, 5 for drain), however loaded the machine; one
# that waits on a paced observer lets the loop turn freely until that observer's sleep ends.
DRAIN_PROMPT_TURNS = 20


def drains_of(run: dict) -> list[tuple[str, dict]]:
    """Every drain the fixture made in one invocation, labelled: its process-wide drain, its nodes' drains."""
    found = [("drain", run["drain"])] if "drain" in run else []
    return found + [(f"node {name!r} drain", summary) for name, summary in run.get("node_drains", {}).items()]



def drain_returned_within_timeout(scope: dict, expected: Any) -> Verdict:
    timed = [(f"{run['name'] + ': ' if run.get('name') else ''}{label}", drain) for run in scope["runs"]
             for label, drain in drains_of(run) if drain.get("timeout_s") is not None]
    if not timed:
        raise LookupError("no drain with a timeout was recorded")
    late = [f"{label} returned {d['turns_after_deadline']} event-loop turns after its {d['timeout_s']} s deadline "
            f"(at most {DRAIN_PROMPT_TURNS}; took {d['elapsed_s']:.3f} s)" for label, d in timed
            if d["turns_after_deadline"] > DRAIN_PROMPT_TURNS]
    return flag(expected, not late, "; ".join(late))


def delivered_per_observer(run: dict, invocation_id: str | None) -> dict[str, int]:
    """How many events each observer received during one invocation, in ``invocation_id``'s context."""
    counts: dict[str, int] = {}
    for delivery in run.get("deliveries", ()):
        if delivery.get("context") == invocation_id:
            counts[delivery["observer"]] = counts.get(delivery["observer"], 0) + 1
    return counts


def workers_not_cancelled(scope: dict, expected: Any) -> Verdict:
    problems, timed_out = [], 0
    for run in scope["runs"]:
        for name, summary in run.get("node_drains", {}).items():
            if not summary["timeout_reached"]:
                continue
            timed_out += 1
            total = delivered_per_observer(run, summary.get("invocation_id"))
            for observer, before in summary["delivered_at_return"].items():
                after = total.get(observer, 0)
                if after < before + summary["undelivered_count"]:
                    problems.append(f"{observer!r} received {after - before} events after node {name!r}'s drain timed out "
                                    f"with {summary['undelivered_count']} undelivered")
                if "InvocationCompletedEvent" not in [e.get("type") for e in run["events"].get(observer, ())]:
                    problems.append(f"{observer!r} never received the invocation's completed event")
    if not timed_out:
        raise LookupError("no in-node drain timed out")
    return flag(expected, not problems, "; ".join(problems))


def no_completed_for_suspending(scope: dict, expected: Any) -> Verdict:
    suspended = {e["node_name"] for e in view(scope, "node_events") if e.get("phase") == "suspended"}
    if not suspended:
        raise LookupError("no node suspended")
    completed = [e["node_name"] for e in view(scope, "node_events") if e.get("phase") == "completed" and e["node_name"] in suspended]
    return flag(expected, not completed, f"suspending nodes with a completed event: {completed}")


INNER = ["outer"], ["outer", "inner"]  # an outermost namespace, and one inside a subgraph / instance
_inner = [node_event("inner", "started", INNER[1], fan_out_index=0), node_event("inner", "completed", INNER[1], fan_out_index=0),
          node_event("inner", "started", INNER[1], fan_out_index=1), node_event("inner", "completed", INNER[1], fan_out_index=1)]
_outer = [node_event("outer", "started"), node_event("outer", "completed")]


def _timed_drain(turns: int) -> dict:
    return one_run(drain={"timeout_reached": True, "undelivered_count": 2, "timeout_s": 0.1,
                          "elapsed_s": 0.1 + turns / 1000, "turns_after_deadline": turns})


def _node_drain_case(later: int) -> dict:
    summary = {"timeout_reached": True, "undelivered_count": 2, "invocation_id": "i", "delivered_at_return": {"obs": 1}}
    deliveries = [{"seq": n, "observer": "obs", "context": "i", "event": {}} for n in range(1 + later)]
    completed = [{"type": "InvocationCompletedEvent"}] if later else []
    return case(invocation([{"type": "InvocationStartedEvent"}] + completed, node_drains={"n": summary}, deliveries=deliveries))


ROWS = (
    Query("inner_event_count", "§5.9: total events from inner-instance / inner-branch nodes.",
          "inner_events", "count",
          holds=Example(one_run(_outer + _inner), 4), fails=Example(one_run(_outer + _inner[:2]), 4)),
    Query("inner_fan_out_indices_seen", "§5.9: the set of fan_out_index values observed on inner events.",
          "inner_events[?fan_out_index != null].fan_out_index", "set",
          holds=Example(one_run(_inner), [1, 0]), fails=Example(one_run(_inner[:2]), [0, 1])),
    Query("inner_branch_names_seen", "§5.9: the set of branch_name values observed on inner events.",
          "inner_events[?branch_name != null].branch_name", "set",
          holds=Example(one_run([node_event("x", "started", INNER[1], branch_name="b")]), ["b"]),
          fails=Example(one_run([node_event("x", "started", INNER[1], branch_name="c")]), ["b"])),
    Query("inner_attempt_indices_seen", "The set of attempt_index values observed on inner events (the §5.9 *_seen family).",
          "inner_events[].attempt_index", "set",
          holds=Example(one_run(_inner), [0]), fails=Example(one_run(_inner), [0, 1])),
    Query("inner_event_identities_unique",
          "§5.9: (namespace, fan_out_index, branch_name, attempt_index, phase) is unique across all inner events.",
          "unique(inner_events[].[namespace, fan_out_index, branch_name, attempt_index, phase])", "flag", anchor="inner_events",
          holds=Example(one_run(_inner)), fails=Example(one_run(_inner + _inner[:1]))),
    Query("<node>_node_events_count", "§5.9: events from a specific node.",
          "node_events[?node_name == {node}]", "count",
          holds=Example(one_run(_outer + _inner), 2, name="outer_node_events_count"),
          fails=Example(one_run(_outer + _inner), 3, name="outer_node_events_count")),
    Query("<node>_node_fan_out_index_absent", "§5.9: events from a non-fan-out node don't carry fan_out_index.",
          "node_events[?node_name == {node} && fan_out_index != null]", "absent", anchor="node_events[?node_name == {node}]",
          holds=Example(one_run(_outer), name="outer_node_fan_out_index_absent"),
          fails=Example(one_run(_inner), name="inner_node_fan_out_index_absent")),
    Compute("drain_returned_within_timeout", "§5.9: the drain timeout discipline — every drain given a timeout returned "
            "no later than the timeout after the call began.", drain_returned_within_timeout,
            why="timing: event-loop turns between the deadline and the return, against a bound (JMESPath has no arithmetic)",
            holds=Example(_timed_drain(5)), fails=Example(_timed_drain(1000))),
    Compute("workers_not_cancelled_on_per_invocation_drain_timeout", "§5.9 (graph-engine §6 Per-invocation drain): after an "
            "in-node drain timed out, delivery went on through the invocation's completed event.", workers_not_cancelled,
            why="a join: each timed-out drain's per-observer delivery count at return against the deliveries made later",
            holds=Example(_node_drain_case(3)), fails=Example(_node_drain_case(0))),
    Compute("no_completed_event_for_suspending_node", "§5.9 (graph-engine §6 terminal phases): the suspending node has no "
            "completed event.", no_completed_for_suspending,
            why="a join: the completed events of exactly the nodes that emitted a suspended event",
            holds=Example(one_run([node_event("s", "started"), node_event("s", "suspended")])),
            fails=Example(one_run([node_event("s", "started"), node_event("s", "suspended"), node_event("s", "completed")]))),
)
