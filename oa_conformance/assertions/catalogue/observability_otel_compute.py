"""The compute functions of the observability rows about OTel spans and log records (their rows, with
why each cannot be a query, are in :mod:`.observability_otel`): joins of spans with each other or
with log records, which the tree shape cannot say. Each takes the query scope (scope.py) and the
fixture's value.
"""

from __future__ import annotations

from typing import Any

from .rows import flag, Verdict
from .scope import view

CORRELATION = "openarmature.correlation_id"
NAMESPACE = "openarmature.node.namespace"
INVOCATION = "openarmature.invocation"
INVOCATION_ID = "openarmature.invocation_id"
ATTEMPT = "openarmature.node.attempt_index"
ITEM_COUNT = "openarmature.fan_out.item_count"
INSTANCE_OF = "openarmature.fan_out.parent_node_name"
BRANCH_COUNT = "openarmature.parallel_branches.branch_count"
IMPL_NAME = "openarmature.implementation.name"
IMPL_VERSION = "openarmature.implementation.version"
DISPATCH_OF = "openarmature.parallel_branches.parent_node_name"


# ---- helpers over the scope -------------------------------------------------------------------


def _spans(scope: dict) -> list[dict]:
    if "otel" not in scope:
        raise LookupError("the case captured no OTel spans")
    spans = list(scope["otel"]["spans"])
    if not spans:
        raise LookupError("no span was exported")
    return spans


def _logs(scope: dict) -> list[dict]:
    if "otel" not in scope:
        raise LookupError("the case captured no log records")
    logs = list(scope["otel"]["logs"])
    if not logs:
        raise LookupError("no log record was captured")
    return logs


def _openarmature_correlation_ids(scope: dict) -> list[Any]:
    return [span["attributes"].get(CORRELATION) for span in _spans(scope) if span.get("scope") == "openarmature"]


def correlation_consistent(scope: dict, expected: Any) -> Verdict:
    ids = _openarmature_correlation_ids(scope)
    return flag(expected, None not in ids and len(set(ids)) == 1, f"correlation ids {sorted(set(map(str, ids)))}")


def correlation_uniform(scope: dict, expected: Any) -> Any:
    ids = set(_openarmature_correlation_ids(scope))
    if len(ids) != 1:
        return Verdict(False, f"the spans carry {len(ids)} correlation ids: {sorted(map(str, ids))}")
    return ids.pop()


def correlation_uuid(scope: dict, expected: Any) -> Verdict:
    from ..matchers import format_ok

    ids = _openarmature_correlation_ids(scope)
    return flag(expected, all(format_ok("uuid", value) for value in ids), f"correlation ids {ids[:4]}")


def deepest_node_span_count(scope: dict, expected: Any) -> int:
    depths = [len(span["attributes"].get(NAMESPACE) or ()) for span in _spans(scope)]
    deepest = max(depths)
    if not deepest:
        raise LookupError("no span carries openarmature.node.namespace")
    return depths.count(deepest)


def _correlation_ids_per_trace(scope: dict) -> dict[str, set]:
    """Each trace's (each invocation's) set of correlation ids on its openarmature spans."""
    per_trace: dict[str, set] = {}
    for span in _spans(scope):
        if span.get("scope") == "openarmature":
            per_trace.setdefault(span["trace_id"], set()).add(span["attributes"].get(CORRELATION))
    return per_trace


def correlation_uniform_per_trace(scope: dict, expected: Any) -> Verdict:
    per_trace = _correlation_ids_per_trace(scope)
    mixed = {trace: sorted(map(str, ids)) for trace, ids in per_trace.items() if None in ids or len(ids) != 1}
    return flag(expected, not mixed, f"traces with no single correlation id: {mixed}")


def correlation_differs_per_trace(scope: dict, expected: Any) -> Verdict:
    per_trace = _correlation_ids_per_trace(scope)
    ids = [next(iter(values)) for values in per_trace.values() if len(values) == 1]
    distinct = len(per_trace) > 1 and len(ids) == len(per_trace) and len(set(ids)) == len(ids)
    return flag(expected, distinct, f"correlation ids per trace: { {t: sorted(map(str, v)) for t, v in per_trace.items()} }")


def unique_indices_under(scope: dict, expected: Any) -> Verdict:
    spans = _spans(scope)
    # The fan-out node span(s): §5.4 puts `item_count` on the node span only. Its instance spans
    # share its name (§4.5) and carry the index; a fan-out nested in an outer instance has one node
    # span per outer instance, and that node span carries the outer index too (§5.4 propagation).
    parents = [span for span in spans if span["name"] == expected and ITEM_COUNT in span["attributes"]]
    if not parents:
        return Verdict(False, f"no fan-out node span named {expected!r} (a span carrying {ITEM_COUNT})")
    for parent in parents:
        indices = [s["attributes"].get("openarmature.node.fan_out_index") for s in spans if s["parent_span_id"] == parent["span_id"]]
        if not indices or None in indices or len(set(indices)) != len(indices):
            return Verdict(False, f"instance indices under the {expected!r} node span {parent['span_id']}: {indices}")
    return Verdict(True)


# ---- retry attempts: sibling node spans under the invocation span (§4.3, §5.2) -------------------


def attempt_siblings(scope: dict, only: str | None = None) -> list[dict]:
    """The largest group of same-named node spans directly under an invocation span (the attempts of
    one retried node, §4.3), in start order; ``only`` keeps node spans carrying that attribute."""
    spans = _spans(scope)
    roots = {s["span_id"] for s in spans if s["name"] == INVOCATION}
    groups: dict[tuple, list[dict]] = {}
    for span in spans:
        attributes = span["attributes"]
        if span["parent_span_id"] in roots and ATTEMPT in attributes and (only is None or only in attributes):
            groups.setdefault((span["trace_id"], span["name"]), []).append(span)
    if not groups:
        raise LookupError("no node span under an invocation span" + (f" carries {only}" if only else ""))
    return sorted(max(groups.values(), key=len), key=lambda s: s["start_sequence"])


def attempt_sibling_count(scope: dict, expected: Any) -> int:
    return len(attempt_siblings(scope))


def attempt_sibling_indices(scope: dict, expected: Any) -> list:
    return [s["attributes"][ATTEMPT] for s in attempt_siblings(scope)]


def node_spans_per_attempt(scope: dict, expected: Any) -> Any:
    siblings = attempt_siblings(scope, only=BRANCH_COUNT)
    indices = [s["attributes"][ATTEMPT] for s in siblings]
    if len(set(indices)) != len(indices):
        return Verdict(False, f"the {siblings[0]['name']!r} node spans share attempt indices: {indices}")
    return len(siblings)


# ---- the §6 source events of callable-branch dispatch spans (graph-engine §6, §5.7) ------------


def callable_branch_events(scope: dict) -> list[tuple[dict, int | None]]:
    """Each callable-branch event (``branch_name`` set, at a parallel-branches NODE's own namespace)
    with the attempt index of the NODE attempt it ran in: the NODE's latest ``started`` event at the
    same namespace before it."""
    current: dict[tuple, int] = {}
    found = []
    for event in view(scope, "node_events"):
        namespace = tuple(event.get("namespace") or ())
        if event.get("branch_name") is None:
            if event.get("phase") == "started":
                current[namespace] = event.get("attempt_index")
        elif namespace in current and event.get("node_name") == event.get("branch_name"):
            found.append((event, current[namespace]))
    if not found:
        raise LookupError("no callable-branch event (a branch_name event at a parallel-branches node's namespace)")
    return found


def _event_label(event: dict) -> str:
    return f"{event.get('node_name')}/{event.get('phase')}@{event.get('attempt_index')}"


def callable_branch_current_attempt(scope: dict, expected: Any) -> Verdict:
    wrong = [f"{_event_label(e)} in node attempt {node}" for e, node in callable_branch_events(scope) if e.get("attempt_index") != node]
    return flag(expected, not wrong, f"callable-branch events not at their node's attempt index: {wrong}")


def callable_branch_retry_phases(scope: dict, expected: Any) -> Verdict:
    on_retry = [e for e, node in callable_branch_events(scope) if node == 1]
    phases = {e.get("phase") for e in on_retry}
    holds = {"started", "completed"} <= phases and all(e.get("attempt_index") == 1 for e in on_retry)
    return flag(expected, holds, f"callable-branch events of node attempt 1: {[_event_label(e) for e in on_retry]}")


def dispatch_spans_close_before_parent(scope: dict, expected: Any) -> Verdict:
    """Each per-branch dispatch span (it names its parallel-branches node) ends before its parent span ends."""
    spans = _spans(scope)
    by_id = {s["span_id"]: s for s in spans}
    dispatch = [s for s in spans if DISPATCH_OF in s["attributes"]]
    if not dispatch:
        raise LookupError(f"no dispatch span (one carrying {DISPATCH_OF}) was exported")
    late = []
    for found in dispatch:
        parent = by_id.get(found["parent_span_id"])
        if parent is None:
            late.append(f"{found['name']} ({found['span_id']}) has no exported parent span")
        elif found["end_sequence"] >= parent["end_sequence"]:
            late.append(f"{found['name']} ends at {found['end_sequence']}, its parent {parent['name']} at {parent['end_sequence']}")
    return flag(expected, not late, "; ".join(late))


# ---- detached traces (§4.3 *Detached-dispatch invocation spans*, §4.4) -------------------------


def traces_of(scope: dict) -> tuple[dict, dict[str, list[dict]]]:
    """The parent invocation span (the invocation span that is a true root) and every other trace's
    spans by trace id (the detached traces)."""
    spans = _spans(scope)
    parents = [s for s in spans if s["name"] == INVOCATION and s["parent_span_id"] is None]
    if len(parents) != 1:
        raise LookupError(f"{len(parents)} root invocation spans, expected the one parent invocation span")
    detached: dict[str, list[dict]] = {}
    for span in spans:
        if span["trace_id"] != parents[0]["trace_id"]:
            detached.setdefault(span["trace_id"], []).append(span)
    return parents[0], detached


def detached_roots_share_invocation_id(scope: dict, expected: Any) -> Verdict:
    parent, detached = traces_of(scope)
    if not detached:
        return flag(expected, False, "no detached trace was exported")
    wanted = parent["attributes"].get(INVOCATION_ID)
    wrong = []
    for trace_id, spans in detached.items():
        ids = {s["span_id"] for s in spans}
        roots = [s for s in spans if s["parent_span_id"] not in ids]
        found = [(s["name"], s["attributes"].get(INVOCATION_ID)) for s in roots]
        if found != [(INVOCATION, wanted)]:
            wrong.append((trace_id, found))
    return flag(expected, not wrong and wanted is not None,
                f"parent invocation_id {wanted!r}; detached traces whose root is not one invocation span carrying it: {wrong}")


def no_instances_in_parent_trace(scope: dict, expected: Any) -> Verdict:
    parent, detached = traces_of(scope)
    if not detached:
        raise LookupError("no detached trace: nothing was moved out of the parent trace")
    inside = [s["name"] for s in _spans(scope) if s["trace_id"] == parent["trace_id"] and INSTANCE_OF in s["attributes"]]
    return flag(expected, not inside, f"fan-out instance spans in the parent trace: {inside}")


def index_range(scope: dict, expected: Any) -> Any:
    indices = [s["attributes"]["openarmature.node.fan_out_index"] for s in _spans(scope) if "openarmature.node.fan_out_index" in s["attributes"]]
    if not indices:
        return Verdict(False, "no span carries openarmature.node.fan_out_index")
    return [min(indices), max(indices)]


def logs_one_trace(scope: dict, expected: Any) -> Verdict:
    ids = [record["trace_id"] for record in _logs(scope)]
    return flag(expected, None not in ids and len(set(ids)) == 1, f"trace ids {ids}")


def logs_traces_differ(scope: dict, expected: Any) -> Verdict:
    ids = [record["trace_id"] for record in _logs(scope)]
    return flag(expected, None not in ids and len(ids) > 1 and len(set(ids)) == len(ids), f"trace ids {ids}")


def logs_under_active_span(scope: dict, expected: Any) -> Verdict:
    by_id = {span["span_id"]: span for span in _spans(scope)}
    wrong = []
    for record in _logs(scope):
        span = by_id.get(record["span_id"])
        if span is None or span["trace_id"] != record["trace_id"] or span.get("attributes", {}).get("openarmature.node.name") is None:
            wrong.append((record["body"], span["name"] if span else None))
    return flag(expected, not wrong, f"records not under an exported node span of their trace: {wrong}")


def logs_correlation(scope: dict, expected: Any) -> Any:
    ids = {record["attributes"].get(CORRELATION) for record in _logs(scope)}
    if len(ids) != 1:
        return Verdict(False, f"the records carry {sorted(map(str, ids))}")
    return ids.pop()



def distinct_invocation_traces(scope: dict, expected: Any) -> Verdict:
    ids = [s["trace_id"] for s in _spans(scope) if s["name"] == INVOCATION]
    return flag(expected, len(ids) > 1 and len(set(ids)) == len(ids), f"invocation spans' trace ids {ids}")


def correlation_across_traces(scope: dict, expected: Any) -> Verdict:
    ids = _openarmature_correlation_ids(scope)
    traces = {s["trace_id"] for s in _spans(scope)}
    return flag(expected, len(traces) > 1 and None not in ids and len(set(ids)) == 1,
                 f"{len(traces)} traces, correlation ids {sorted(set(map(str, ids)))}")
