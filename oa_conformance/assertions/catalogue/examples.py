"""Builders for the hand-built trace documents of rows' ``holds=`` / ``fails=`` examples.

Only what a row reads needs to be there; these fill in the document's skeleton (docs/TRACE.md) so
an example states just its point:

    holds=Example(one_run(events=[node_event("a", "started"), node_event("a", "completed")]), value=2)
"""

from __future__ import annotations

from typing import Any

from .rows import Example


def node_event(node: str, phase: str, namespace: list | None = None, **fields: Any) -> dict:
    """A NodeEvent as the trace records it (namespace defaults to ``[node]``: an outermost node)."""
    return {"type": "NodeEvent", "node_name": node, "phase": phase, "namespace": namespace or [node],
            "fan_out_index": None, "branch_name": None, "attempt_index": 0, **fields}


def invocation(events: list | None = None, observer: str = "obs", **fields: Any) -> dict:
    """One invocation whose primary observer ``observer`` received ``events`` (numbered in order)."""
    found = {"index": 0, "outcome": "completed", "final_state": {}, "execution_order": [], "node_log": [],
             "observers": [{"name": observer, "behavior": "record"}], "primary_observer": observer,
             "deliveries": [], "events": {observer: [{**e, "seq": n} for n, e in enumerate(events or [])]},
             "accumulators": {}, "node_drains": {}, "node_snapshots": {}, "call": {}}
    found.update(fields)
    return found


def case(*invocations: dict, **fields: Any) -> dict:
    """A case document holding the given invocations (indexes renumbered) and top-level fields."""
    runs = [{**inv, "index": n} for n, inv in enumerate(invocations)]
    return {"compile_warnings": [], "invocations": runs, "middleware_log": [], "checkpoint_saves": [], "notes": [],
            "mock_calls": [], "wiring": {"nodes": {}, "failure_isolation": []}, **fields}


def one_run(events: list | None = None, observer: str = "obs", **fields: Any) -> dict:
    """A case of one invocation (``fields`` go on the invocation)."""
    return case(invocation(events, observer, **fields))


__all__ = ["Example", "case", "invocation", "node_event", "one_run"]
