"""The graph-engine predicates: rows named by its fixtures and defined in their prose (.md sidecars)."""

from __future__ import annotations

from . import Example, Query
from .examples import case, invocation, node_event, one_run

ROWS = (
    Query("no_events_for_node", "No observer received any event from the named node(s) (a node that never ran).",
          "invocation.events.*[] | [?contains(to_array({value}), node_name)]", "absent", anchor="invocation.observers",
          holds=Example(one_run([node_event("a", "started")]), ["b"]),
          fails=Example(one_run([node_event("a", "started"), node_event("b", "started")]), ["b"])),
    Query("each_invocation_has_unique_invocation_id", "Every invocation of the case ran under its own, distinct invocation_id.",
          "length(runs[].id) == length(runs) && unique(runs[].id)", "flag", anchor="runs",
          holds=Example(case(invocation(id="i1"), invocation(id="i2")), invocation=None),
          fails=Example(case(invocation(id="i1"), invocation(id="i1")), invocation=None)),
)
