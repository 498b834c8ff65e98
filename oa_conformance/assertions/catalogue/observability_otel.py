"""The observability predicates about OTel spans, log records and metric observations (the `otel`
and `metrics` collections of docs/TRACE.md), named by the directory's fixtures and defined in their
prose. The Langfuse / typed-event rows are in their own module; both are the `observability` table
(:mod:`.observability`).

Most rows restate an expectation of the same case: the fixture's `span_tree` / `traces` /
`metrics` block already asserts exactly what the name says (a span's name, an attribute present or
absent, an exhaustive children list, an exhaustive observation list). Compute rows are the few that
join spans with each other or with log records, which the tree shape cannot say.
"""

from __future__ import annotations

from typing import Any

from .rows import Compute, Example, Query, Restates, Verdict, flag
from .scope import view
from .examples import case, invocation, node_event, one_run

SPAN_TREE = "expected.span_tree"
TRACES = "expected.traces"
PARENT_TRACE = "expected.parent_trace"
METRICS = "expected.metrics"
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

# ---- example documents ------------------------------------------------------------------------


def span(name: str, span_id: str, parent: str | None = None, trace: str = "t1", **attributes: Any) -> dict:
    """An exported span as the `otel` collection records it."""
    return {"span_id": span_id, "parent_span_id": parent, "trace_id": trace, "name": name, "kind": "INTERNAL",
            "status": "OK", "status_description": None, "attributes": attributes, "events": [], "links": [],
            "scope": "openarmature", "start_sequence": 0, "end_sequence": 1, "export_sequence": 0}


def record(body: str, span_id: str, trace: str = "t1", **attributes: Any) -> dict:
    """A captured log record."""
    return {"body": body, "severity_text": "INFO", "severity_number": 9, "attributes": attributes, "trace_id": trace,
            "span_id": span_id, "event_name": None, "sequence": 0}


def otel(spans: list[dict], logs: list[dict] | None = None) -> Example:
    return Example(case(otel={"spans": spans, "logs": logs or []}), invocation=None)


def _with(example: Example, value: Any) -> Example:
    return Example(example.document, value, example.invocation)


TOKEN_USAGE = "openarmature.gen_ai.client.token.usage"
DURATION = "openarmature.gen_ai.client.operation.duration"
EXCEEDED = "openarmature.gen_ai.client.token_budget.exceeded"
UTILIZATION = "openarmature.gen_ai.client.token_budget.utilization"


def metric(instrument: str, value: Any = 1, **dimensions: Any) -> dict:
    """A metric observation as the `metrics` collection records it."""
    return {"instrument": instrument, "kind": "histogram", "unit": "", "dimensions": dimensions, "value": value}


C1 = {CORRELATION: "c1"}
C2 = {CORRELATION: "c2"}
TREE = [span("openarmature.invocation", "s0", **C1), span("a", "s1", "s0", **{**C1, "openarmature.node.name": "a"})]
SPLIT = [span("openarmature.invocation", "s0", **C1), span("a", "s1", "s0", **{CORRELATION: "c2"})]
FAN_OUT = [span("process", "p", **{ITEM_COUNT: 2}), span("process", "i0", "p", **{"openarmature.node.fan_out_index": 0}),
           span("process", "i1", "p", **{"openarmature.node.fan_out_index": 1})]
NESTED_NODES = [span("outer", "o", **{NAMESPACE: ["outer"]}), span("ask", "a0", "o", **{NAMESPACE: ["outer", "ask"]}),
                span("ask", "a1", "o", **{NAMESPACE: ["outer", "ask"]})]
ATTRIBUTED = [span(INVOCATION, "p0", **{IMPL_NAME: "openarmature-python", IMPL_VERSION: "0.17.0"}),
              span(INVOCATION, "q0", "p9", trace="t2", **{IMPL_NAME: "openarmature-python", IMPL_VERSION: "0.17.0"})]
DISPATCH_SPANS = [span("dispatcher", "d"),
                  {**span("b", "sb", "d", **{"openarmature.parallel_branches.parent_node_name": "dispatcher"}), "end_sequence": 5},
                  {**span("a", "sa", "d", **{"openarmature.parallel_branches.parent_node_name": "dispatcher"}), "end_sequence": 3}]
FAN_OUT_CLASH = [span("process", "p", **{ITEM_COUNT: 2}), span("process", "i0", "p", **{"openarmature.node.fan_out_index": 0}),
                 span("process", "i1", "p", **{"openarmature.node.fan_out_index": 0})]



def _at(start: int, found: dict) -> dict:
    return {**found, "start_sequence": start, "end_sequence": start + 1}


RETRIED = [span(INVOCATION, "s0")] + [_at(n, span("flaky", f"f{n}", "s0", **{ATTEMPT: n})) for n in range(3)]
FOLDED = [span(INVOCATION, "s0"), span("flaky", "f0", "s0", **{ATTEMPT: 0})]
PB_RETRIED = [span(INVOCATION, "s0")] + [_at(n, span("retrieve", f"r{n}", "s0", **{ATTEMPT: n, BRANCH_COUNT: 2})) for n in range(2)]
PB_COLLAPSED = [span(INVOCATION, "s0")] + [_at(n, span("retrieve", f"r{n}", "s0", **{ATTEMPT: 0, BRANCH_COUNT: 2})) for n in range(2)]


def _callable_run(retry_reports: int) -> dict:
    """A parallel-branches node `retrieve` retried once; its callable branch `vector` reports
    ``retry_reports`` as its attempt index on the retry."""
    events = []
    for attempt, reported in ((0, 0), (1, retry_reports)):
        events += [node_event("retrieve", "started", attempt_index=attempt),
                   node_event("vector", "started", ["retrieve"], branch_name="vector", attempt_index=reported),
                   node_event("vector", "completed", ["retrieve"], branch_name="vector", attempt_index=reported),
                   node_event("retrieve", "completed", attempt_index=attempt)]
    return one_run(events)


I1 = {INVOCATION_ID: "i1"}
PARENT_TRACE = [span(INVOCATION, "p0", **I1), span("fan", "p1", "p0", **{ITEM_COUNT: 1})]
DETACHED = PARENT_TRACE + [span(INVOCATION, "q0", "p9", trace="t2", **I1),
                           span("fan", "q1", "q0", trace="t2", **{INSTANCE_OF: "fan", "openarmature.node.fan_out_index": 0})]
DETACHED_OTHER_ID = PARENT_TRACE + [span(INVOCATION, "q0", "p9", trace="t2", **{INVOCATION_ID: "i2"})]
INSTANCE_LEFT_IN_PARENT = DETACHED + [span("fan", "p2", "p1", **{INSTANCE_OF: "fan", "openarmature.node.fan_out_index": 0})]
LINKED = [span(INVOCATION, "p0"), {**span("dispatch", "p1", "p0", **{ITEM_COUNT: 1}), "links": [{"trace_id": "t2", "span_id": "q9", "attributes": {}}]},
          span("dispatch", "q1", "q0", trace="t2")]
NESTED_FAN_OUT = [span("outer", "o"), span("outer", "o0", "o", **{"openarmature.node.fan_out_index": 0, INSTANCE_OF: "outer"}),
                  span("inner", "n", "o0", **{"openarmature.node.fan_out_index": 0, ITEM_COUNT: 2}),
                  span("inner", "n0", "n", **{"openarmature.node.fan_out_index": 0, INSTANCE_OF: "inner"}),
                  span("inner", "n1", "n", **{"openarmature.node.fan_out_index": 1, INSTANCE_OF: "inner"})]
# the same nesting with the inner instances' indices clashing under their one node span
NESTED_FAN_CLASH = NESTED_FAN_OUT[:4] + [span("inner", "n1", "n", **{"openarmature.node.fan_out_index": 0, INSTANCE_OF: "inner"})]


def _metadata_read(kind: str, succeeded: bool) -> dict:
    """A case whose node read get_invocation_metadata() once: the value's kind and the probe's outcome."""
    refused = None if succeeded else {"type": "TypeError", "message": "'mappingproxy' object does not support item assignment"}
    return case(invocation(), metadata_reads=[{"node": "n", "field": "captured", "type": kind,
                                 "mutation": {"attempted": True, "succeeded": succeeded, "exception": refused}}])


METADATA_READS = (
    Query("read_returns_immutable_mapping",
          "§3.4: every get_invocation_metadata() read in a node returned an immutable mapping: not a MutableMapping, "
          "and the harness's attempt to set a key on it did not take effect.",
          "metadata_reads[?type != 'immutable_mapping' || mutation.succeeded]", "absent", anchor="metadata_reads",
          holds=Example(_metadata_read("immutable_mapping", False)),
          fails=Example(_metadata_read("mutable_mapping", True))),
)


ROWS = (
    *METADATA_READS,
    # ---- retry attempts: one sibling node span per attempt (§4.3, §5.2) ---------------------------
    Compute("sibling_attempt_count_under_invocation", "How many same-named node spans (one per retry attempt) sit directly under the invocation span.",
            attempt_sibling_count, "joins spans with the invocation span by parent id, then groups the children by name",
            holds=_with(otel(RETRIED), 3), fails=_with(otel(FOLDED), 3)),
    Compute("attempt_indices", "The retried node's sibling attempt spans carry these attempt_index values, in start order.",
            attempt_sibling_indices, "the same join and grouping as sibling_attempt_count_under_invocation, then ordered by start",
            holds=_with(otel(RETRIED), [0, 1, 2]), fails=_with(otel(RETRIED), [0, 2, 1])),
    Compute("sibling_parallel_branches_node_spans_per_attempt", "How many sibling parallel-branches node spans sit under the invocation span, each with its own attempt_index.",
            node_spans_per_attempt, "joins spans with the invocation span by parent id, then groups the children by name",
            holds=_with(otel(PB_RETRIED), 2), fails=_with(otel(PB_COLLAPSED), 2)),
    *(Restates(name, doc, SPAN_TREE) for name, doc in (
        ("retry_callable_branch_dispatch_span_attempt_index_is_one", "The retry attempt's callable-branch dispatch spans carry attempt_index 1 (the tree's attributes)."),
        ("callable_branch_attempt_index_sourced_from_node_event_not_zero", "The dispatch spans' attempt_index is the node's current attempt, not 0 (the tree's attributes)."),
    )),
    # ---- the §6 events the callable-branch dispatch spans render from (graph-engine §6) ------------
    Query("<node>_node_attempt_indices_seen", "The attempt_index values seen on the named node's own events (not its branches').",
          "node_events[?node_name == {node} && branch_name == null].attempt_index", "set",
          holds=Example(_callable_run(1), [0, 1], name="retrieve_node_attempt_indices_seen"),
          fails=Example(_callable_run(1), [0], name="retrieve_node_attempt_indices_seen")),
    Query("<branch>_callable_branch_attempt_indices_seen", "The attempt_index values seen on the named callable branch's events.",
          "node_events[?branch_name == {branch} && node_name == {branch}].attempt_index", "set",
          holds=Example(_callable_run(1), [0, 1], name="vector_callable_branch_attempt_indices_seen"),
          fails=Example(_callable_run(0), [0, 1], name="vector_callable_branch_attempt_indices_seen")),
    Compute("callable_branch_events_report_current_attempt_index", "Every callable-branch event carries the attempt_index of the node attempt it ran in.",
            callable_branch_current_attempt, "pairs each branch event with the node's latest started event before it (an ordered join)",
            holds=Example(_callable_run(1)), fails=Example(_callable_run(0))),
    Compute("callable_branch_started_and_completed_carry_attempt_index_one_on_retry", "On the node's retry (attempt 1) the callable-branch started and completed events both carry attempt_index 1.",
            callable_branch_retry_phases, "pairs each branch event with the node's latest started event before it (an ordered join)",
            holds=Example(_callable_run(1)), fails=Example(_callable_run(0))),
    # ---- detached traces (§4.3 *Detached-dispatch invocation spans*, §4.4) -------------------------
    *(Compute(name, "Every detached trace roots in one openarmature.invocation span carrying the parent invocation span's invocation_id.",
              detached_roots_share_invocation_id, "groups spans by trace and finds each trace's root (a parent id no span of the trace has)",
              holds=otel(DETACHED), fails=otel(DETACHED_OTHER_ID))
      for name in ("detached_invocation_id_equals_parent", "each_instance_trace_roots_in_invocation_span_sharing_parent_invocation_id")),
    Query("fan_out_node_span_link_count", "How many Links the fan-out node span(s) carry (one per detached instance trace).",
          f"sum(otel.spans[?has(attributes, '{ITEM_COUNT}')].length(links))", "equals",
          holds=_with(otel(LINKED), 1), fails=_with(otel(LINKED), 3)),
    Query("<node>_span_link_count", "How many Links the named node's spans carry (one per detached trace it dispatched).",
          "sum(otel.spans[?name == {node}].length(links))", "equals",
          holds=Example(otel(LINKED).document, 1, invocation=None, name="dispatch_span_link_count"),
          fails=Example(otel(LINKED).document, 0, invocation=None, name="dispatch_span_link_count")),
    *(Restates(name, doc, TRACES) for name, doc in (
        ("error_status_on_parent_dispatch_span", "The parent trace's dispatch span is ERROR (the traces' status)."),
        ("error_status_on_detached_invocation_span", "The detached trace's invocation span is ERROR (the traces' status)."),
        ("error_status_on_parent_fan_out_node_span", "The parent trace's fan-out node span is ERROR (the traces' status)."),
        ("error_status_on_detached_instance_invocation_span", "The detached instance trace's invocation span is ERROR (the traces' status)."),
        ("exception_event_on_both_error_spans", "Both ERROR spans record an exception event (the traces' exception_recorded)."),
        ("attribution_attrs_on_parent_invocation_span",
         "The parent trace's invocation span carries implementation.name and .version (the traces' attributes)."),
        ("attribution_attrs_on_detached_child_invocation_span",
         "The detached child trace's invocation span carries implementation.name and .version (the traces' attributes)."),
        ("attribution_attrs_absent_on_inner_spans_both_traces",
         "No inner span of either trace carries the attribution attributes (the traces' attributes_absent)."),
    )),
    Query("always_emit_invariant_applies_to_every_invocation_span",
          "Every openarmature.invocation span, the detached ones too, carries implementation.name and .version as non-empty strings (§5.1).",
          f"otel.spans[?name == '{INVOCATION}' && !(type(attributes.\"{IMPL_NAME}\") == 'string' && attributes.\"{IMPL_NAME}\" != '' "
          f"&& type(attributes.\"{IMPL_VERSION}\") == 'string' && attributes.\"{IMPL_VERSION}\" != '')]"
          f".{{span_id: span_id, trace_id: trace_id, name: attributes.\"{IMPL_NAME}\", version: attributes.\"{IMPL_VERSION}\"}}",
          "absent", anchor=f"otel.spans[?name == '{INVOCATION}']",
          holds=otel(ATTRIBUTED), fails=otel(ATTRIBUTED[:1] + [span(INVOCATION, "q0", "p9", trace="t2", **{IMPL_NAME: "openarmature-python"})])),
    Compute("dispatch_spans_close_before_node_span",
            "Every per-branch dispatch span ends before its parallel-branches node span, its parent (children before parents).",
            dispatch_spans_close_before_parent, "joins each dispatch span to its parent span by id and compares their end positions",
            holds=otel([{**DISPATCH_SPANS[0], "end_sequence": 9}, *DISPATCH_SPANS[1:]]),
            fails=otel([{**DISPATCH_SPANS[0], "end_sequence": 4}, *DISPATCH_SPANS[1:]])),
    # Names the Langfuse rows share (observability.py judges each on every backend recorded).
    Compute("distinct_trace_ids", "Every invocation span (parent and detached) is in its own trace.", distinct_invocation_traces,
            "pairwise distinctness over at least two invocation spans",
            holds=otel(DETACHED), fails=otel([span(INVOCATION, "p0"), span(INVOCATION, "q0", "p9")])),
    Compute("all_instance_trace_ids_distinct", "Each detached instance's invocation span has its own trace id, distinct from the parent's.",
            distinct_invocation_traces, "pairwise distinctness over at least two invocation spans",
            holds=otel(DETACHED), fails=otel([span(INVOCATION, "p0"), span(INVOCATION, "q0", "p9")])),
    Compute("correlation_id_consistent_across_traces", "The parent and detached traces' spans all carry one correlation_id.",
            correlation_across_traces, "one value across the spans of at least two traces",
            holds=otel([span(INVOCATION, "p0", **C1), span(INVOCATION, "q0", "p9", trace="t2", **C1)]),
            fails=otel([span(INVOCATION, "p0", **C1), span(INVOCATION, "q0", "p9", trace="t2", **C2)])),
    Compute("no_instance_spans_in_parent_trace", "No fan-out instance span stays in the parent trace when instances are detached.",
            no_instances_in_parent_trace, "groups spans by trace, the parent trace being the root invocation span's",
            holds=otel(DETACHED), fails=otel(INSTANCE_LEFT_IN_PARENT)),
    # ---- span hierarchy, names, attributes: what the case's tree already asserts ----------------
    *(Restates(name, doc, SPAN_TREE) for name, doc in (
        ("tool_span_name_is_openarmature_tool_call", "The tool execution renders as a span named openarmature.tool.call (the tree names it)."),
        ("oa_namespace_tool_attributes_emitted", "The tool span carries the openarmature.tool.* attributes (the tree's attributes_present)."),
        ("gen_ai_tool_attributes_not_emitted_in_v1", "The tool span carries no gen_ai.tool.* attribute (the tree's attributes_absent)."),
        ("execute_tool_span_name_not_used", "No span is named execute_tool (the tree lists every span exhaustively)."),
        ("exactly_one_llm_span_when_retry_absent", "One openarmature.llm.complete span under the node (the tree's exhaustive children)."),
        ("attempt_index_defaults_to_zero", "The LLM span carries openarmature.llm.attempt_index 0 (the tree's attributes)."),
        ("baseline_attributes_still_emit_alongside_attempt_index", "The LLM span keeps its baseline attributes (the tree's attributes)."),
        ("implementation_name_non_empty", "openarmature.implementation.name is a non-empty string (the tree's attribute check)."),
        ("implementation_version_non_empty", "openarmature.implementation.version is a non-empty string (the tree's attribute check)."),
        ("implementation_name_matches_canonical_value", "openarmature.implementation.name is the implementation's canonical name (the tree's harness_parameterized check)."),
        ("attributes_on_invocation_span_only", "The attribution attributes sit on the invocation span (the tree's attributes)."),
        ("attributes_absent_on_inner_spans", "Inner node spans carry no attribution attribute (the tree's attributes_absent)."),
        ("caller_metadata_cross_cutting", "Every span carries the full openarmature.user.* set (the tree lists it on every span)."),
        ("callable_branch_renders_one_span_keyed_by_branch_name", "Each callable branch renders one span keyed by its branch name (the tree)."),
        ("callable_branch_span_has_no_inner_node_spans", "A callable branch's span has no children (the tree's children: [])."),
        ("when_skipped_branch_emits_no_span", "A branch whose `when` is false emits no span (the tree's exhaustive children)."),
        ("branch_count_is_dispatched_count_not_declared", "The dispatch span has one child per dispatched branch (the tree's exhaustive children)."),
        ("no_inner_spans_dropped_under_concurrent_nesting", "Every nested fan-out instance span is present (the tree's exhaustive children)."),
        ("llm_span_parents_under_own_lineage_calling_node", "Each LLM span parents under its own calling node span (the tree's hierarchy)."),
        ("embedding_span_name_is_openarmature_embedding_complete", "The embedding call renders as openarmature.embedding.complete (the tree)."),
        ("rerank_span_name_is_openarmature_rerank_complete", "The rerank call renders as openarmature.rerank.complete (the tree)."),
        ("operation_name_attribute_not_emitted_in_v1", "No gen_ai.operation.name attribute (the tree's attributes_absent)."),
        ("all_attempt_spans_error", "Every attempt span has status ERROR (the tree's statuses)."),
        # §5.5 orphan fallback: a wrapper-issued call's span parents under the nearest enclosing
        # wrapper; the tree places each orphan span exhaustively under its own wrapper.
        ("orphan_llm_span_parents_under_inner_fan_out_instance", "The orphan LLM span parents under its inner fan-out instance span (the tree's hierarchy)."),
        ("orphan_llm_span_not_under_coincidentally_indexed_sibling", "Each orphan LLM span sits under its own chain's inner instance, not a same-index sibling (the tree)."),
        ("orphan_llm_span_not_under_fan_out_node_or_invocation", "No orphan LLM span parents under the fan-out node span or the invocation (the tree's exhaustive children)."),
        ("orphan_llm_span_sibling_of_calling_node_span", "The orphan LLM span is a sibling of the calling node's span, not its child (the tree)."),
        ("orphan_llm_span_parents_under_branch_dispatch_span", "The orphan LLM span parents under its branch's dispatch span (the tree's hierarchy)."),
        ("orphan_llm_span_routed_to_correct_branch_by_name", "Each branch's orphan LLM span sits under that branch's own dispatch span (the tree)."),
        ("orphan_llm_span_not_under_dispatcher_node_or_invocation", "No orphan LLM span parents under the parallel-branches node span or the invocation (the tree)."),
        ("orphan_llm_span_sibling_of_guard_node_span", "The orphan LLM span is a sibling of the guard node's span, not its child (the tree)."),
        ("orphan_llm_span_parents_under_innermost_fan_out_instance", "Under mixed nesting the orphan LLM span parents under the innermost (fan-out instance) wrapper (the tree)."),
        ("orphan_llm_span_not_under_work_branch_dispatch_span", "The orphan LLM span is not directly under the enclosing branch dispatch span (the tree's exhaustive children)."),
        ("orphan_llm_span_not_under_node_or_invocation", "No orphan LLM span parents under a node span or the invocation (the tree's exhaustive children)."),
        ("same_named_inner_spans_disambiguated_by_dispatch_parent",
         "Same-named inner spans of different branches sit each under its own branch's dispatch span (the tree's hierarchy)."),
    )),
    Query("dispatch_spans_close_in_declaration_order", "The per-branch dispatch spans end in the branches' declaration order (the listed names, by end order).",
          "sort_by(otel.spans[?attributes.\"openarmature.parallel_branches.parent_node_name\"], &end_sequence)[].name", "equals",
          holds=_with(otel(DISPATCH_SPANS), ["a", "b"]), fails=_with(otel(DISPATCH_SPANS), ["b", "a"])),
    Query("null_prompt_tokens_reaches_no_span_histogram_or_budget_surface",
          "A null prompt_tokens reaches no surface: no input usage span attribute, no input token-usage or token-budget observation.",
          "[otel.spans[?has(attributes, 'gen_ai.usage.input_tokens') || has(attributes, 'openarmature.llm.usage.prompt_tokens')],"
          " metrics[?dimensions.\"openarmature.gen_ai.token.type\" == 'input' || contains(instrument, 'token_budget')]][]",
          "absent", anchor="otel.spans[?name == 'openarmature.llm.complete']",
          holds=Example(case(otel={"spans": [span("openarmature.llm.complete", "l1")], "logs": []}, metrics=[metric(DURATION)]), invocation=None),
          fails=Example(case(otel={"spans": [span("openarmature.llm.complete", "l1")], "logs": []},
                             metrics=[metric(TOKEN_USAGE, **{"openarmature.gen_ai.token.type": "input"})]), invocation=None)),
    Query("llm_provider_span_count", "How many openarmature.llm.complete spans were exported.",
          "otel.spans[?name == 'openarmature.llm.complete']", "count",
          holds=_with(otel([span("openarmature.llm.complete", "l1")]), 1), fails=_with(otel(TREE), 1)),
    # ---- metrics: the exhaustive observation list already says it ------------------------------
    *(Restates(name, doc, METRICS) for name, doc in (
        ("two_token_usage_observations_input_and_output", "Token usage is recorded twice, input and output (the exhaustive metrics list)."),
        ("one_duration_observation_per_call", "One duration observation per call (the exhaustive metrics list)."),
        ("duration_value_not_asserted", "Durations are asserted for presence and dimensions only (§11.4; the metrics list gives no value)."),
        ("no_measurements_recorded_when_metrics_off", "With metrics off nothing is recorded (the metrics list is [])."),
        ("errored_call_records_duration_with_error_type", "A failed call records its duration with error.type (the metrics list)."),
        ("embedding_records_input_token_only", "An embedding records input tokens only (the exhaustive metrics list)."),
        ("no_output_token_observation_for_embedding", "No output-token observation for an embedding (the exhaustive metrics list)."),
    )),
    *(Restates(name, doc, SPAN_TREE) for name, doc in (
        ("tool_call_names_and_ids_index_aligned", "The requested tool-call name and id arrays align index by index (the tree's attributes)."),
        ("tool_call_arrays_in_request_order", "The tool-call arrays keep the model's request order (the tree's attributes)."),
        ("count_equals_names_length", "The tool-call count equals the names array's length (the tree's attributes)."),
        ("tool_call_attributes_omitted_when_none_requested", "No tool-call attribute when the model requested none (the tree's attributes_absent)."),
        ("identity_projections_survive_payload_off", "The tool-call identity attributes survive payload gating (the tree's attributes)."),
        ("gated_output_tool_calls_suppressed_when_payload_off", "The full tool-call payload is gated off (the tree's attributes_absent)."),
        ("identity_projections_present_regardless_of_flag", "The identity attributes are present with payloads on too (the tree's attributes)."),
        ("payload_off_suppresses_tool_arguments_and_result", "Payloads off: no tool arguments / result attribute (the tree's attributes_absent)."),
        ("identity_attributes_present_with_payload_off", "Payloads off: the tool identity attributes remain (the tree's attributes)."),
        ("payload_on_populates_tool_arguments_and_result", "Payloads on: tool arguments and result are attributes (the tree's attributes)."),
        ("error_span_carries_output_usage_finish_reason", "The error LLM span carries output, usage and finish reason (the tree's attributes)."),
        ("error_status_and_exception_event_unchanged", "The error LLM span keeps ERROR status and its exception event (the tree)."),
        ("output_content_redacted_under_payload_disabled", "Payloads off: no output content attribute on the error span (the tree's attributes_absent)."),
        ("finish_reason_usage_and_error_status_unchanged_under_payload_disabled", "Payloads off: finish reason, usage and ERROR status remain (the tree)."),
        ("input_usage_attributes_omitted_when_prompt_tokens_null", "A null prompt_tokens omits the input usage attributes (the tree's attributes_absent)."),
        ("output_and_total_usage_attributes_emitted_when_sound", "Sound output / total counters are emitted (the tree's attributes)."),
        ("gen_ai_input_tokens_never_sourced_from_null_counter", "gen_ai.usage.input_tokens is absent for a null counter (the tree's attributes_absent)."),
        ("span_omits_both_input_usage_attributes", "Both input usage attributes are absent (the tree's attributes_absent)."),
        ("span_omits_both_input_usage_attributes_on_malformed_wire_counter", "A malformed wire counter omits both input usage attributes (the tree's attributes_absent)."),
        ("span_omits_all_usage_attributes_when_all_counters_malformed", "All counters malformed: no usage attribute (the tree's attributes_absent)."),
        ("exceeded_span_signal_absent_not_false", "The exceeded signal is absent, not false (the tree's attributes_absent)."),
        ("exceeded_span_signal_absent_not_false_when_only_bound_unevaluable", "The exceeded signal is absent, not false, when its only bound is unevaluable (the tree's attributes_absent)."),
    )),
    *(Restates(name, doc, METRICS) for name, doc in (
        ("no_token_budget_instrument_observation_for_unevaluable_input_bound", "An unevaluable input bound records no token-budget observation (the exhaustive metrics list)."),
        ("token_usage_recorded_on_structured_output_failure", "Token usage is recorded for a structured-output failure (the metrics list)."),
        ("duration_records_error_type_on_failure", "The failed call's duration carries error.type (the metrics list's dimensions)."),
        ("utilization_records_under_budget", "Utilization is recorded under budget (the metrics list)."),
        ("output_token_usage_observation_recorded_when_completion_sound", "The output token-usage observation is recorded (the metrics list)."),
        ("total_bound_evaluated_when_total_tokens_sound", "The total bound is evaluated when total_tokens is sound (the metrics list)."),
    )),
    *(Restates(name, doc, "expected.final_state") for name, doc in (
        ("capture_after_augment_sees_write", "A capture after the augment in the same node sees the write (§8.3 order; the final state)."),
        ("capture_before_augment_misses_write", "A capture before the augment misses the write (§8.3 order; the final state)."),
        ("read_returns_caller_baseline", "get_invocation_metadata() returns the caller's metadata (the final state)."),
        ("read_returns_in_node_write", "get_invocation_metadata() returns the node's own write (the final state)."),
    )),
    *(Restates(name, doc, directive) for name, doc, directive in (
        ("cache_attribute_absent_when_field_unpopulated", "No cache attribute when the provider reports no cache field.", "expected.llm_span_attributes_absent"),
        ("absent_distinct_from_zero", "An unreported cache counter is absent, not 0.", "expected.llm_span_attributes_absent"),
        ("cache_read_attribute_emits_zero_when_reported", "A reported 0 cache read is emitted as 0.", "expected.llm_span_attributes"),
        ("reported_zero_distinct_from_absent", "A reported 0 is emitted, not omitted.", "expected.llm_span_attributes"),
        ("cache_read_attribute_equals_usage_field", "The cache-read attribute equals Usage.cached_tokens (the span attribute the case lists).", "expected.llm_span_attributes"),
        ("cache_creation_attribute_absent_for_openai_compatible", "No cache-creation attribute for an OpenAI-compatible provider.", "expected.llm_span_attributes_absent"),
    )),
    Restates("caller_invocation_id_verbatim_on_attribute", "The caller's invocation id is the invocation span's attribute, verbatim.",
             "expected.invocation_id"),
    *(Restates(name, doc, SPAN_TREE) for name, doc in (
        ("core_genai_semconv_subset_emitted", "The core GenAI semconv attributes are on the provider span (the tree's attributes)."),
        ("stable_genai_semconv_subset_emitted", "The stable GenAI semconv attributes are on the provider span (the tree's attributes)."),
        ("input_tokens_omitted_when_provider_reports_none", "No input-token attribute when the provider reports none (the tree's attributes_absent)."),
        ("input_tokens_emitted_when_provider_reports_it", "The input-token attribute when the provider reports it (the tree's attributes)."),
        ("search_units_emitted_when_provider_reports_it", "The search-units attribute when reported (the tree's attributes)."),
        ("search_units_omitted_when_provider_reports_none", "No search-units attribute when not reported (the tree's attributes_absent)."),
        ("usage_input_tokens_attribute_omitted_when_no_usage_record", "No usage attribute without a usage record (the tree's attributes_absent)."),
        ("rerank_usage_attributes_omitted_when_no_usage_record", "No rerank usage attribute without a usage record (the tree's attributes_absent)."),
    )),
    *(Restates(name, doc, METRICS) for name, doc in (
        ("rerank_records_input_token_when_reported", "A rerank records its input tokens when reported (the metrics list)."),
        ("rerank_operation_dimension_is_rerank", "The rerank observations carry operation rerank (the metrics list's dimensions)."),
        ("duration_recorded_for_rerank", "A rerank records its duration (the metrics list)."),
        ("errored_rerank_records_duration_with_error_type", "A failed rerank's duration carries error.type (the metrics list)."),
        ("duration_recorded_when_usage_absent", "The duration is recorded without usage (the metrics list)."),
        ("errored_embedding_records_duration_with_error_type", "A failed embedding's duration carries error.type (the metrics list)."),
    )),
    *(Query(name, doc, f"metrics[?instrument == '{TOKEN_USAGE}']", "absent", anchor="metrics",
            holds=Example(case(metrics=[metric(DURATION)]), invocation=None),
            fails=Example(case(metrics=[metric(DURATION), metric(TOKEN_USAGE)]), invocation=None)) for name, doc in (
        ("no_token_usage_observation_on_failure", "A failed call records no token usage (its duration is recorded)."),
        ("no_token_usage_observation_when_search_units_only", "A rerank reporting only search units records no token usage."),
        ("no_token_usage_observation_when_usage_absent", "A call without a usage record records no token usage."),
    )),
    *(Query(name, doc, f"metrics[?instrument == '{TOKEN_USAGE}' && dimensions.\"openarmature.gen_ai.token.type\" == 'input']",
            "absent", anchor="metrics",
            holds=Example(case(metrics=[metric(TOKEN_USAGE, **{"openarmature.gen_ai.token.type": "output"})]), invocation=None),
            fails=Example(case(metrics=[metric(TOKEN_USAGE, **{"openarmature.gen_ai.token.type": "input"})]), invocation=None))
      for name, doc in (
        ("no_input_token_usage_observation_when_prompt_tokens_null", "A null prompt_tokens records no input token-usage observation."),
        ("no_input_token_usage_observation", "No input token-usage observation is recorded."),
    )),
    Query("no_token_budget_exceeded_observation_when_under_budget", "Under budget the exceeded counter records nothing.",
          "metrics[?instrument == 'openarmature.gen_ai.client.token_budget.exceeded']", "absent", anchor="metrics",
          holds=Example(case(metrics=[metric(UTILIZATION)]), invocation=None),
          fails=Example(case(metrics=[metric(UTILIZATION), metric(EXCEEDED)]), invocation=None)),
    *(Query(name, doc, "metrics[?contains(instrument, 'token_budget')]", "absent", anchor="metrics",
            holds=Example(case(metrics=[metric(TOKEN_USAGE)]), invocation=None),
            fails=Example(case(metrics=[metric(TOKEN_USAGE), metric(UTILIZATION)]), invocation=None)) for name, doc in (
        ("no_token_budget_instrument_observations_when_no_budget", "No token-budget observation when the prompt declares no budget."),
        ("no_token_budget_instrument_observations_without_usage", "No token-budget observation when the failure reported no usage."),
    )),
    Compute("unique_fan_out_indices_per_node_span_under", "Under every span of the named fan-out node, instance indices are pairwise distinct.",
            unique_indices_under, "groups spans by their parent span (a join of span_id with parent_span_id)",
            holds=_with(otel(NESTED_FAN_OUT), "inner"), fails=_with(otel(NESTED_FAN_CLASH), "inner")),
    # ---- joins the tree cannot say ----------------------------------------------------------------
    Compute("correlation_id_consistency", "All openarmature spans share the same correlation_id (one value, on every span).",
            correlation_consistent, "the tree matches each span's id against <uuid> on its own; equality across spans is a join",
            holds=otel(TREE), fails=otel(SPLIT)),
    Compute("correlation_id_is_uuidv4", "The auto-generated correlation id on every openarmature span is a canonical UUIDv4.",
            correlation_uuid, "a format check applied to every span's attribute (JMESPath has no UUID test)",
            holds=otel([span("a", "s1", **{CORRELATION: "0b6e3f1c-2a4d-4e8f-9a1b-3c5d7e9f1a2b"})]), fails=otel(TREE)),
    Compute("correlation_id_uniform_across_tree", "Every span carries one correlation id, the value the fixture gives.",
            correlation_uniform, "one value across all spans, then compared: a join over the whole span list",
            holds=_with(otel(TREE), "c1"), fails=_with(otel(SPLIT), "c1")),
    Compute("inner_node_span_count", "How many node spans sit at the deepest nesting (the innermost subgraph's node spans).",
            deepest_node_span_count, "the deepest namespace over all spans, then the spans at it: JMESPath cannot refer back to the whole list inside a filter",
            holds=_with(otel(NESTED_NODES), 2), fails=_with(otel(NESTED_NODES[:2]), 2)),
    *(Restates(name, doc, "expected.determinism_check") for name, doc in (
        ("same_execution_path", "Both runs take the same route (the same node spans, under the same parents)."),
        ("span_count_equal_across_runs", "Both runs export the same number of spans."),
    )),
    Compute("each_invocation_correlation_id_uniform", "Within each invocation (its trace) every openarmature span carries one correlation id.",
            correlation_uniform_per_trace, "groups spans by trace (one trace per invocation), then one value per group",
            holds=otel([span("a", "s1", **C1), span("a", "s2", trace="t2", **C2)]),
            fails=otel([span("a", "s1", **C1), span("b", "s3", **C2)])),
    Compute("correlation_ids_differ_across_invocations", "Each invocation (trace) has its own correlation id: no two invocations share one.",
            correlation_differs_per_trace, "pairwise distinctness across per-trace groups",
            holds=otel([span("a", "s1", **C1), span("a", "s2", trace="t2", **C2)]),
            fails=otel([span("a", "s1", **C1), span("a", "s2", trace="t2", **C1)])),
    Compute("all_correlation_ids_uuidv4", "Every invocation's auto-generated correlation id is a canonical UUIDv4.",
            correlation_uuid, "a format check applied to every span's attribute (JMESPath has no UUID test)",
            holds=otel([span("a", "s1", **{CORRELATION: "0b6e3f1c-2a4d-4e8f-9a1b-3c5d7e9f1a2b"})]), fails=otel(TREE)),
    Compute("unique_fan_out_indices_under", "Under the named fan-out node's span, instance spans carry pairwise distinct fan_out_index values.",
            unique_indices_under, "groups spans by their parent span (a join of span_id with parent_span_id)",
            holds=_with(otel(FAN_OUT), "process"), fails=_with(otel(FAN_OUT_CLASH), "process")),
    Compute("fan_out_index_range", "The instance spans' fan_out_index values run from the fixture's min to its max.",
            index_range, "min and max over the spans carrying the attribute (JMESPath has them, but not the absent-key filter)",
            holds=_with(otel(FAN_OUT), [0, 1]), fails=_with(otel(FAN_OUT), [0, 2])),
    Compute("all_logs_same_trace_id", "Every log record carries one and the same trace id.", logs_one_trace,
            "equality across records, requiring at least one",
            holds=otel(TREE, [record("x", "s1"), record("y", "s1")]), fails=otel(TREE, [record("x", "s1"), record("y", "s1", "t2")])),
    Compute("log_trace_ids_differ_when_detached", "Each log record carries its own trace id (a detached unit logs under its own trace).",
            logs_traces_differ, "pairwise distinctness across records",
            holds=otel(TREE, [record("x", "s1"), record("y", "s1", "t2")]), fails=otel(TREE, [record("x", "s1"), record("y", "s1")])),
    Compute("log_span_ids_match_active_span_at_emission", "Each record's span id is an exported node span of its own trace (the active span when it was emitted).",
            logs_under_active_span, "joins each record's span_id with the exported spans",
            holds=otel(TREE, [record("x", "s1")]), fails=otel(TREE, [record("x", "s9")])),
    Compute("all_logs_carry_correlation_id", "Every log record carries openarmature.correlation_id, the value the fixture gives.",
            logs_correlation, "one value across all records, then compared",
            holds=_with(otel(TREE, [record("x", "s1", **C1)]), "c1"), fails=_with(otel(TREE, [record("x", "s1")]), "c1")),
)
