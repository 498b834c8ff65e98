"""The graph-engine predicates: rows named by its fixtures and defined in their prose (.md sidecars).

A node name in a ``<node>_…`` predicate may be followed by ``_node`` (``inner_fan_out_node_…`` and
``leaf_…`` both occur): ``[_node]`` makes it optional, and the shortest node name that makes the
whole name match is bound. Every per-node row is anchored on the node's own events, so a node with
no events fails the check instead of passing it vacuously.
"""

from __future__ import annotations

from .rows import Example, Query
from .examples import case, invocation, node_event, one_run
from .graph_engine_compute import ROWS as COMPUTED

OF_NODE = "node_events[?node_name == {node}]"


def of_node(condition: str) -> str:
    """The node's events that meet a JMESPath condition."""
    return f"node_events[?node_name == {{node}} && {condition}]"


def chained(node: str, fan_out: list, branch: list | None = None, **fields) -> list:
    """A started/completed pair of an inner node with its lineage chains (scalars: the innermost)."""
    branch = branch if branch is not None else [None] * len(fan_out)
    scalars = {"fan_out_index": ([i for i in fan_out if i is not None] or [None])[-1],
               "branch_name": ([b for b in branch if b is not None] or [None])[-1]}
    return [node_event(node, phase, ["outer", "mid", node], fan_out_index_chain=fan_out, branch_name_chain=branch,
                       **{**scalars, **fields}) for phase in ("started", "completed")]


LEAF = chained("leaf", [0, 0]) + chained("leaf", [0, 1]) + chained("leaf", [1, 0]) + chained("leaf", [1, 1])
TOP = [node_event("top", "started", fan_out_index_chain=[], branch_name_chain=[]),
       node_event("top", "completed", fan_out_index_chain=[], branch_name_chain=[])]
BRANCHED = [node_event("top", "started", branch_name="b"), node_event("top", "completed")]


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
    *COMPUTED,
)
