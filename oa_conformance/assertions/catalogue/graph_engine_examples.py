"""The example documents of the graph-engine rows (per-node lineage, the drain contract, per-node
maps, edge failures): hand-built trace documents (docs/TRACE.md) holding only what those rows read."""

from __future__ import annotations

from typing import Any

from .examples import case, invocation, node_event, one_run


def drain(timeout_reached: bool = False, undelivered: int = 0, **fields: Any) -> dict:
    return {"timeout_reached": timeout_reached, "undelivered_count": undelivered, "timeout_s": None, "elapsed_s": 0.01,
            "turns_after_deadline": 0, **fields}


def pair(node: str, namespace: list | None = None, **fields: Any) -> list:
    return [node_event(node, "started", namespace, **fields), node_event(node, "completed", namespace, **fields)]


# An in-node drain at node "d" after two fan-out instances ran: the bucket holds the instances,
# d's started event, then d's completed event (emitted after the drain call).
INSTANCES = pair("w", ["fan", "w"], fan_out_index=0) + pair("w", ["fan", "w"], fan_out_index=1)
BUCKET = INSTANCES + pair("d")
COVERED = BUCKET[:5]  # everything up to and including d's started event


def snapshotting(snapshot: list, summary: dict | None = None, run_id: str = "i1", **fields: Any) -> dict:
    return one_run(id=run_id, accumulators={"acc": {"i1": BUCKET}}, node_drains={"d": summary or drain(invocation_id="i1")},
                   node_snapshots={"d": {"acc": snapshot}}, **fields)


def branched(branch: str) -> dict:
    return one_run(pair("a", ["par", "a"], branch_name=branch))


def edge_failed(events: list) -> dict:
    run = invocation(events, outcome="errored", error={"category": "routing_error", "message": "m", "type": "E", "node": "a", "chain": []})
    run.pop("final_state")
    return case(run)


EDGE_PAIR = [node_event("a", "started", step=0), node_event("a", "completed", step=0, error={"category": "routing_error"})]
COLLIDING = [node_event("leaf", "started", ["o", "m", "leaf"], fan_out_index=0, fan_out_index_chain=c) for c in ([0, 0], [1, 0])]
APART = [node_event("leaf", "started", ["o", "m", "leaf"], fan_out_index=c[-1], fan_out_index_chain=c) for c in ([0, 0], [1, 1])]


def delivered(observer: str, context: str, times: int) -> list:
    return [{"seq": n, "observer": observer, "context": context, "event": {}} for n in range(times)]


def process_drained(times: int, at_return: int) -> dict:
    return one_run(id="i1", drain=drain(delivered_at_return={"obs": at_return}), deliveries=delivered("obs", "i1", times))


def timed_out_then(settle: dict, later_outcome: str = "completed") -> dict:
    first = invocation(id="i1", drain=drain(True, 2, timeout_s=0.1), settle_drain=settle)
    return case(first, invocation(id="i2", outcome=later_outcome))


WHOLE = [{"type": "InvocationStartedEvent"}, *pair("a"), {"type": "InvocationCompletedEvent"}]


def after_node_timeout(events: list) -> dict:
    return case(invocation(id="i1", node_drains={"d": drain(True, 1, invocation_id="i1")}), invocation(events, id="i2"))


def two_drains(second_context: str) -> dict:
    return case(invocation(id="i1", drain=drain(True, 3, timeout_s=0.1)),
                invocation(id="i2", drain=drain(), deliveries=delivered("obs", second_context, 2)))


# Per-node rows: an inner node under two nested fan-outs, a top-level node, a node carrying a branch.
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


# Two runs of one graph from the same initial state (the determinism rows): ``change`` alters the
# second run (its final state, node order or deliveries).
def rerun(**change: Any) -> dict:
    same = {"initial_state": {}, "final_state": {"log": ["a", "b"]}, "execution_order": ["a", "b"],
            "deliveries": [{"seq": 0, "observer": "first", "context": "i1", "event": node_event("a", "started", invocation_id="i1")},
                           {"seq": 1, "observer": "second", "context": "i1", "event": node_event("a", "started", invocation_id="i1")}]}
    again = {**same, "id": "i2", "deliveries": [{**d, "seq": d["seq"] + 2, "context": "i2",
                                                   "event": {**d["event"], "invocation_id": "i2"}} for d in same["deliveries"]]}
    return case(invocation(id="i1", **same), invocation(**{**again, **change}))


REORDERED = list(reversed(rerun()["invocations"][1]["deliveries"]))


def mutated(refused: bool) -> dict:
    """One run whose `mutate` observer tried a subgraph node's pre_state, post_state and parent state."""
    attempts = [{"target": t, "refused": refused, "error_type": "ValidationError" if refused else None}
                for t in ("pre_state", "post_state", "parent_states[0]")]
    return one_run([node_event("inner", "completed", ["sub", "inner"], state_mutation_attempts=attempts)])
