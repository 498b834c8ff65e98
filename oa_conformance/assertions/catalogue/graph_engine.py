"""The graph-engine predicates: rows named by its fixtures and defined in their prose (.md sidecars).

A node name in a ``<node>_…`` predicate may be followed by ``_node`` (``inner_fan_out_node_…`` and
``leaf_…`` both occur): ``[_node]`` makes it optional, and the shortest node name that makes the
whole name match is bound. Every per-node row is anchored on the node's own events, so a node with
no events fails the check instead of passing it vacuously.
"""

from __future__ import annotations

from .rows import Compute, Example, Query
from .examples import case, invocation, node_event, one_run
from .graph_engine_compute import (
    covered_via_invocation, drain_scoped, edge_failure_in_completed, inner_branch_names,
    intact_after_node_drain_timeout, intact_after_timeout, mutations_refused, not_blocking_on_later, runs_agree_on_event_sequence,
    runs_agree_on_outcome, scalar_collides, second_independent, synchronized_read, waited_for_all,
)
from .graph_engine_examples import (
    APART, BRANCHED, BUCKET, COLLIDING, COVERED, EDGE_PAIR, LEAF, TOP, WHOLE, after_node_timeout, branched,
    REORDERED, drain, edge_failed, mutated, pair, process_drained, rerun, snapshotting, timed_out_then, two_drains,
)

# Why the drain rows cannot be queries (their common part).
CONTEXTUAL = "the drain contract joins drain summaries with the delivered stream, buckets and snapshots"
OF_NODE = "node_events[?node_name == {node}]"


def of_node(condition: str) -> str:
    """The node's events that meet a JMESPath condition."""
    return f"node_events[?node_name == {{node}} && {condition}]"


def chain_rows(field: str, seen: list) -> tuple:
    """The rows about one lineage field (fan_out_index or branch_name) of a node's events."""
    other = [[0, 9]] if field == "fan_out_index" else [[None, "x"]]
    mismatched = [{**e, field: "wrong" if field == "branch_name" else 7} for e in LEAF]
    carrying = [{**e, field: 0 if field == "fan_out_index" else "b"} for e in TOP]
    return (
        Query(f"<node>[_node]_{field}_chains_seen", f"The set of distinct {field}_chain values on the node's events.",
              OF_NODE + f".{field}_chain", "set", anchor=OF_NODE,
              holds=Example(one_run(LEAF), seen, name=f"leaf_{field}_chains_seen"),
              fails=Example(one_run(LEAF), other, name=f"leaf_{field}_chains_seen")),
        Query(f"<node>[_node]_scalar_{field}_equals_innermost_chain_element",
              f"On every event of the node, the scalar {field} equals the deepest non-null element of its {field}_chain.",
              of_node(f"{field} != innermost({field}_chain)"), "absent", anchor=OF_NODE,
              holds=Example(one_run(LEAF), name=f"leaf_scalar_{field}_equals_innermost_chain_element"),
              fails=Example(one_run(mismatched), name=f"leaf_scalar_{field}_equals_innermost_chain_element")),
        Query(f"<node>[_node]_scalar_{field}_absent", f"No event of the node carries the scalar {field}.",
              of_node(f"{field} != null"), "absent", anchor=OF_NODE,
              holds=Example(one_run(TOP), name=f"top_scalar_{field}_absent"),
              fails=Example(one_run(carrying), name=f"top_scalar_{field}_absent")),
    )


ROWS = (
    Query("no_events_for_node", "No observer received any event from the named node(s) (a node that never ran).",
          "invocation.events.*[] | [?contains(to_array({value}), node_name)]", "absent", anchor="invocation.observers",
          holds=Example(one_run([node_event("a", "started")]), ["b"]),
          fails=Example(one_run([node_event("a", "started"), node_event("b", "started")]), ["b"])),
    Query("each_invocation_has_unique_invocation_id", "Every invocation of the case ran under its own, distinct invocation_id.",
          "length(runs[].id) == length(runs) && unique(runs[].id)", "flag", anchor="runs",
          holds=Example(case(invocation(id="i1"), invocation(id="i2")), invocation=None),
          fails=Example(case(invocation(id="i1"), invocation(id="i1")), invocation=None)),
    Query("outermost_events_have_no_branch_name",
          "Each listed node ({nodes: [...]}) has outermost-graph events, and none of them carries a branch_name.",
          "node_events[?contains({value}.nodes, node_name) && length(namespace) == `1` && branch_name != null]", "absent",
          anchor="length(distinct(node_events[?contains({value}.nodes, node_name) && length(namespace) == `1`].node_name))"
                 " == length({value}.nodes)",
          holds=Example(one_run(TOP), {"nodes": ["top"]}), fails=Example(one_run(BRANCHED), {"nodes": ["top"]})),
    Query("<node>[_node]_<phase:started|completed>_present",
          "Whether an event of the node in that phase is present (true) or absent (false).",
          of_node("phase == {phase}"), "flag",
          holds=Example(one_run(TOP[:1]), True, name="top_started_present"),
          fails=Example(one_run(TOP[:1]), True, name="top_completed_present")),
    Query("<node>[_node]_fan_out_index_chain_empty",
          "Every event of the node has an empty fan_out_index_chain (top level: no enclosing instance).",
          of_node("fan_out_index_chain != `[]`"), "absent", anchor=OF_NODE,
          holds=Example(one_run(TOP), name="top_node_fan_out_index_chain_empty"),
          fails=Example(one_run(LEAF), name="leaf_fan_out_index_chain_empty")),
    *chain_rows("fan_out_index", [[0, 0], [0, 1], [1, 0], [1, 1]]),
    *chain_rows("branch_name", [[None, None]]),
    Query("<node>[_node]_event_identities_unique_by_chain",
          "The node's events are unique by (namespace, fan_out_index_chain, branch_name_chain, attempt_index, phase).",
          "unique(" + OF_NODE + ".[namespace, fan_out_index_chain, branch_name_chain, attempt_index, phase])", "flag",
          anchor=OF_NODE,
          holds=Example(one_run(LEAF), name="leaf_event_identities_unique_by_chain"),
          fails=Example(one_run(LEAF + LEAF[:1]), name="leaf_event_identities_unique_by_chain")),
    # ---- compute rows: per-node maps, groupings, the drain contract (graph_engine_compute.py) ----
    Compute("inner_events_carry_correct_branch_name",
            "Every event of each listed node carries the branch_name given for it ({node: branch}).", inner_branch_names,
            why="the value is a {node: branch} map: each event's branch_name is compared with the entry its own "
                "node_name selects, a key lookup JMESPath cannot make from a field of the item",
            holds=Example(branched("left"), {"a": "left"}), fails=Example(branched("right"), {"a": "left"})),
    Compute("<node>[_node]_scalar_fan_out_index_not_unique_across_outer_instances",
            "The node's scalar identity (namespace, fan_out_index, branch_name, attempt_index, phase) repeats across "
            "events whose fan_out_index_chain differs in an enclosing position.", scalar_collides,
            why="a group-by (events by scalar identity, then the outer chains within each group); JMESPath has no grouping",
            holds=Example(one_run(COLLIDING), name="leaf_scalar_fan_out_index_not_unique_across_outer_instances"),
            fails=Example(one_run(APART), name="leaf_scalar_fan_out_index_not_unique_across_outer_instances")),
    Compute("edge_resolution_failure_in_completed_event",
            "The invocation failed with routing_error / edge_exception, and each observer saw that error once: on the "
            "completed event (no post_state) closing the raising node's own started/completed pair, as the last event.",
            edge_failure_in_completed,
            why="joins the invocation's error (its node and category) with every observer's stream, by position "
                "(the last event) and by pairing the completed event with its started event on (step, attempt_index)",
            holds=Example(edge_failed(EDGE_PAIR)), fails=Example(edge_failed(EDGE_PAIR + [node_event("b", "started")]))),
    Compute("drain_events_for_synchronized_accumulator_read",
            "At each in-node drain's return the accumulator already held every event emitted before the call "
            "(through the node's own started event).", synchronized_read,
            why=CONTEXTUAL + ", by position of the node's started event in the stream",
            holds=Example(snapshotting(COVERED)), fails=Example(snapshotting(BUCKET[:3]))),
    Compute("drain_returned_without_blocking_on_post_call_events",
            "Each in-node drain returned (no timeout) before the node's own completed event, emitted after the call, "
            "was delivered, and that event was delivered later all the same.", not_blocking_on_later,
            why=CONTEXTUAL + ", by position of the node's completed event in the stream",
            holds=Example(snapshotting(COVERED)), fails=Example(snapshotting(BUCKET))),
    Compute("drain_covered_all_fan_out_instances_via_shared_invocation_id",
            "A drain scoped to the invocation's id covered the events of every fan-out instance (each fan_out_index).",
            covered_via_invocation("fan_out_index", "instances"),
            why=CONTEXTUAL + ", comparing the instances in the snapshot with those emitted before the call",
            holds=Example(snapshotting(COVERED)), fails=Example(snapshotting(COVERED, drain(invocation_id="other")))),
    Compute("drain_covered_all_parallel_branches_via_shared_invocation_id",
            "A drain scoped to the invocation's id covered the events of every parallel branch (each branch_name).",
            covered_via_invocation("branch_name", "branches"),
            why=CONTEXTUAL + ", comparing the branches in the snapshot with those emitted before the call",
            holds=Example(one_run(id="i1", accumulators={"acc": {"i1": pair("a", ["p", "a"], branch_name="x") + pair("d")}},
                                  node_drains={"d": drain(invocation_id="i1")},
                                  node_snapshots={"d": {"acc": pair("a", ["p", "a"], branch_name="x") + pair("d")[:1]}})),
            fails=Example(snapshotting(COVERED))),
    Compute("drain_waited_for_all_events",
            "The untimed process-wide drain returned only once every observer had received every event of the "
            "invocation: nothing delivered after it returned, nothing reported undelivered.", waited_for_all,
            why="compares each observer's delivery count at the drain's return with its deliveries over the whole "
                "invocation, counted per observer in the invocation's own context (a grouped count)",
            holds=Example(process_drained(4, 4)), fails=Example(process_drained(4, 3))),
    Compute("graph_state_intact_after_timeout",
            "A process-wide drain reached its timeout and the delivery state was clean afterwards: the next drain "
            "returned at once with nothing undelivered, and later invocations completed.", intact_after_timeout,
            why="timing (the next drain's event-loop turns against a bound) across this and later invocations",
            holds=Example(timed_out_then(drain()), invocation=None),
            fails=Example(timed_out_then(drain(elapsed_s=2.0, turns_after_deadline=1000)), invocation=None)),
    Compute("graph_state_intact_after_per_invocation_drain_timeout",
            "After an earlier invocation's in-node drain timed out, this invocation ran cleanly: it completed, each "
            "observer received all of it (through its completed event), and its drains returned.",
            intact_after_node_drain_timeout,
            why="reads earlier invocations' drains and pairs every started event with a completed one per observer",
            holds=Example(after_node_timeout(WHOLE), invocation=1), fails=Example(after_node_timeout(WHOLE[:2]), invocation=1)),
    Compute("second_invocation_drain_independent_of_first",
            "The first invocation's drain timed out; the second's then returned clean, and everything delivered during "
            "the second was delivered in the second's own context.", second_independent,
            why="joins two invocations: the first's drain, the second's drain and the contexts of its deliveries",
            holds=Example(two_drains("i2"), invocation=None), fails=Example(two_drains("i1"), invocation=None)),
    Compute("runs_reach_the_same_final_state_and_node_order",
            "Every invocation of the case (each a run of the same graph from the same initial state) ends in the same "
            "final state after the same node-execution order (graph-engine §5).", runs_agree_on_outcome,
            why="compares whole invocations with one another (JMESPath compares values of one document position)",
            holds=Example(rerun(), invocation=None),
            fails=Example(rerun(final_state={"log": ["a", "b", "a", "b"]}), invocation=None)),
    Compute("runs_deliver_the_same_event_sequence",
            "Every invocation of the case (each a run of the same graph from the same initial state) passes observers "
            "the same sequence of events — each delivery's observer and event, in delivery order — apart from what "
            "differs by definition between runs (each invocation's own ids, wall-clock latencies) (graph-engine §6 "
            "*Determinism*).", runs_agree_on_event_sequence,
            why="compares whole invocations' delivery streams with one another, each event less its per-run fields",
            holds=Example(rerun(), invocation=None), fails=Example(rerun(deliveries=REORDERED), invocation=None)),
    Compute("observer_state_mutation_attempts_refused",
            "Every attempt a `mutate` observer (an extension, docs/PREDICATES.md) made to assign a field of an event's "
            "pre_state, post_state or parent_states entry was refused (graph-engine §6 *State immutability*); attempts "
            "were made on each of the three.", mutations_refused,
            why="reads the attempts the mutate observers noted beside each event, across observers, and requires each target kind",
            holds=Example(mutated(True)), fails=Example(mutated(False))),
    Compute("drain_scopes_strictly_to_supplied_invocation_id",
            "Each in-node drain was given its own invocation's id, returned without timing out, and its snapshot holds "
            "only that invocation's events, none repeated.", drain_scoped,
            why=CONTEXTUAL + ", and checks the snapshot's event identities are unique",
            holds=Example(snapshotting(COVERED)), fails=Example(snapshotting(COVERED + COVERED))),
)
