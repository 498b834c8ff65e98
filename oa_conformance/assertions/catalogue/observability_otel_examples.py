"""The example documents of the observability rows about OTel spans, log records and metric
observations: hand-built trace documents (docs/TRACE.md) holding only what those rows read."""

from __future__ import annotations

from typing import Any

from .rows import Example
from .examples import case, invocation, node_event, one_run
from .observability_otel_compute import (
    ATTEMPT, BRANCH_COUNT, CORRELATION, IMPL_NAME, IMPL_VERSION, INSTANCE_OF, INVOCATION, INVOCATION_ID,
    ITEM_COUNT, NAMESPACE,
)


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


def with_value(example: Example, value: Any) -> Example:
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


def callable_run(retry_reports: int) -> dict:
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


def metadata_read(kind: str, succeeded: bool) -> dict:
    """A case whose node read get_invocation_metadata() once: the value's kind and the probe's outcome."""
    refused = None if succeeded else {"type": "TypeError", "message": "'mappingproxy' object does not support item assignment"}
    return case(invocation(), metadata_reads=[{"node": "n", "field": "captured", "type": kind,
                                 "mutation": {"attempted": True, "succeeded": succeeded, "exception": refused}}])
