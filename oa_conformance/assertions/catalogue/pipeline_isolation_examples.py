"""The example documents of the pipeline-utilities rows over failure isolation and parallel branches:
hand-built trace documents (docs/TRACE.md) holding only what those rows read."""

from __future__ import annotations

from typing import Any

from .examples import case, invocation, node_event
from .pipeline_isolation_reads import derive


def isolation(namespace: list | None = None, chain: list | None = None, **fields: Any) -> dict:
    """A FailureIsolatedEvent; its caught exception is derived from ``chain`` unless given."""
    chain = chain if chain is not None else [{"category": "provider_unavailable", "message": "down", "carrier": False}]
    category, message = derive(chain)
    return {"type": "FailureIsolatedEvent", "event_name": "degraded", "namespace": namespace or ["n"], "fan_out_index": None,
            "branch_name": None, "attempt_index": 0,
            "caught_exception": {"category": category, "message": message, "chain": chain}, **fields}


def run(events: list, wiring: dict | None = None, log: list | None = None, error: dict | None = None, **fields: Any) -> dict:
    """A case of one invocation: observed ``events``, the harness ``wiring``, the middleware ``log``;
    with ``error`` the invocation errored."""
    outcome = {"outcome": "errored", "error": {"message": "m", "type": "E", **error}} if error else {}
    return case(invocation(events, **outcome, **fields),
                wiring=wiring or {"nodes": {}, "failure_isolation": []}, middleware_log=log or [])


def link(category: Any, message: str = "down", carrier: bool = False) -> dict:
    return {"category": category, "message": message, "carrier": carrier}


CARRIED = [link("node_exception", "wrapped", True), link("timeout", "slow")]
UNCATEGORIZED = [link("node_exception", "wrapped", True), link(None, "boom")]


def gate(catch: list | None = None, category: str | None = None) -> dict:
    return {"nodes": {}, "failure_isolation": [{"node": "n", "event_name": "degraded", "catch": catch,
                                                "predicate_category": category, "degraded_update": {}, "on_caught": None}]}


def inner_events(**fields: Any) -> list:
    """Inner events under node ``fan`` (two instances, the second retried)."""
    return [node_event("w", "started", ["fan", "w"], **{"fan_out_index": i, "attempt_index": a, **fields})
            for i, a in ((0, 0), (1, 0), (1, 1))]


def parallel(**branches: dict) -> dict:
    return {"nodes": {"par": {"kind": "parallel_branches", "errors_field": None,
                              "branches": {name: {"form": "call", "outputs": None, "when": None, **b} for name, b in branches.items()}}},
            "failure_isolation": []}


def outer(node: str, phase: str, **fields: Any) -> dict:
    return node_event(node, phase, [node], **fields)


def branch(name: str, phase: str, **fields: Any) -> dict:
    return node_event(name, phase, ["par"], branch_name=name, **fields)


def callable_run(merged: dict, extra: list | None = None) -> dict:
    events = [outer("par", "started", pre_state={"x": 0}), branch("b1", "started"),
              branch("b1", "completed", pre_state={"x": 0}, post_state={"x": 0, "y": 1}), *(extra or []),
              outer("par", "completed", post_state=merged)]
    return run(events, parallel(b1={}))


def conditional(go: bool, count: int, b1_events: list | None = None, merged: dict | None = None) -> dict:
    events = [outer("par", "started", pre_state={"go": go}, parallel_branches_config={"branch_count": count}),
              *(b1_events or []), branch("b2", "started"),
              branch("b2", "completed", pre_state={"go": go}, post_state={"go": go, "z": 1}),
              outer("par", "completed", post_state=merged or {"go": go, "z": 1})]
    return run(events, parallel(b1={"when": "go"}, b2={}))


def degraded_branch(merged: dict, sibling_error: dict | None = None) -> dict:
    events = [outer("par", "started", pre_state={}), isolation(["par"], branch_name="b1", post_state={"y": -1}),
              branch("b2", "started"), branch("b2", "completed", error=sibling_error), outer("par", "completed", post_state=merged)]
    return run(events, parallel(b1={}, b2={}), final_state=merged)


def retried(isolated_attempt: int, attempts: int = 2) -> dict:
    events = [e for a in range(attempts) for e in (node_event("n", "started", attempt_index=a),
                                                   node_event("n", "completed", attempt_index=a, error={"category": "timeout"}))]
    return run(events + [isolation(attempt_index=isolated_attempt)])


def on_caught(message: str, final: dict | None = None) -> dict:
    log = [{"kind": "on_caught", "record": {"category": "provider_unavailable", "message": message, "type": "E"}}]
    return run([isolation(post_state={"y": 1})], log=log, final_state=final or {"y": 1})


def degraded_callable(state_in: dict, final: dict) -> dict:
    log = [{"kind": "degraded_callable", "record": {"state_in": state_in, "returned": {"y": 2}}}]
    return run([isolation(pre_state={"x": 1}, post_state={"y": 2})], log=log, final_state=final)


def caught_as(category: Any, message: str, chain: list) -> dict:
    event = isolation(chain=chain)
    event["caught_exception"] = {"category": category, "message": message, "chain": chain}
    return run([event])


FAN = {"nodes": {"fan": {"kind": "fan_out", "collect_field": "r", "target_field": "results",
                         "extra_outputs": {"notes": "note"}, "errors_field": None}}, "failure_isolation": []}


def fanned(degraded: dict, final: dict, fan_error: dict | None = None, error: dict | None = None) -> dict:
    events = [outer("fan", "started", pre_state={"results": [], "notes": []}),
              isolation(["fan", "w"], fan_out_index=1, post_state=degraded), outer("fan", "completed", error=fan_error)]
    return run(events, FAN, error=error, **({} if error else {"final_state": final}))


PROJECTED = parallel(b1={"form": "subgraph", "outputs": {"summary": "s"}})


def uncovered(after: Any, final: Any) -> dict:
    events = [{"type": "InvocationStartedEvent", "initial_state": {"summary": "old"}},
              outer("par", "started", pre_state={"summary": "old"}), isolation(["par", "b1"], branch_name="b1", post_state={}),
              outer("par", "completed", post_state={"summary": after})]
    return run(events, PROJECTED, final_state={"summary": final})


BOTH = inner_events(branch_name="x")
