"""The example documents of the observability rows about Langfuse Traces and typed events:
hand-built trace documents (docs/TRACE.md) holding only what those rows read.
"""

from __future__ import annotations

from typing import Any

from .examples import case, invocation
from .observability_langfuse_compute import BRANCHES_NODE, COMPLETION, FAMILIES, FAN_OUT_NODE
from .rows import Example


def with_call_ids(*pairs: tuple[str, Any]) -> dict:
    return case(invocation(), typed_events={"collector": [{"type": t, "call_id": i} for t, i in pairs]})


def errored(*types: str) -> dict:
    return case(invocation(outcome="errored"), typed_events={"collector": [{"type": t} for t in types]})


def sibling_case(second_note: str) -> dict:
    found = langfuse([trace(UUID, HEX, tenantId="t")],
                     [{**observation(HEX, "outer", **{FAN_OUT_NODE: 2, "tenantId": "t"}), "id": "o0", "parentObservationId": None},
                      {**observation(HEX, "outer", tenantId="t", note="a"), "id": "o1", "parentObservationId": "o0"},
                      {**observation(HEX, "ask", tenantId="t", note="a"), "id": "o2", "parentObservationId": "o1"},
                      {**observation(HEX, "outer", tenantId="t", note="b"), "id": "o3", "parentObservationId": "o0"},
                      {**observation(HEX, "ask", tenantId="t", note=second_note), "id": "o4", "parentObservationId": "o3"}],
                     invocation_id=UUID)
    found["invocations"][0]["call"] = {"metadata": {"tenantId": "t"}}
    found["middleware_log"] = [{"kind": "metadata_write", "record": {"node": "ask", "entries": {"note": v}}} for v in ("a", "b")]
    return found


def augmented_case(trace_metadata: dict, node_metadata: dict) -> dict:
    found = langfuse([trace(UUID, HEX, tenantId="t", **trace_metadata)],
                     [{**observation(HEX, "outer", **{FAN_OUT_NODE: 2, "tenantId": "t"}, **node_metadata), "id": "o0"},
                      {**observation(HEX, "outer", tenantId="t", note="a"), "id": "o1"},
                      {**observation(HEX, "dispatcher", **{BRANCHES_NODE: 2, "tenantId": "t"}), "id": "o2"}],
                     invocation_id=UUID)
    found["invocations"][0]["call"] = {"metadata": {"tenantId": "t"}}
    found["middleware_log"] = [{"kind": "metadata_write", "record": {"node": "ask", "entries": {"note": "a"}}}]
    return found


# ---- example documents ---------------------------------------------------------------------------


def events(*types: str, collector: str = "collector") -> dict:
    return case(invocation(), typed_events={collector: [{"type": t} for t in types]})


def langfuse(traces: list, observations: list | None = None, invocation_id: str = "inv-1", otel: list | None = None) -> dict:
    fields: dict[str, Any] = {"langfuse": {"traces": traces, "observations": observations or []}}
    if otel is not None:
        fields["otel"] = {"spans": otel}
    return case(invocation(id=invocation_id), **fields)


def trace(raw: str, trace_id: str, **metadata: Any) -> dict:
    return {"id": trace_id, "invocationId": raw, "name": "a", "metadata": metadata}


def observation(trace_id: str, name: str = "a", type: str = "span", **metadata: Any) -> dict:
    return {"traceId": trace_id, "name": name, "type": type, "metadata": metadata}


UUID = "550e8400-e29b-41d4-a716-446655440000"


HEX = "550e8400e29b41d4a716446655440000"


SHA = "29b50a6c08dabfeaeb1696301f4fabe1"  # the first 16 bytes of SHA-256(b"run_abc123"), as hex (the row's holds example checks it)


PARENT = trace(UUID, HEX, correlation_id="c")


CHILD_A = trace("d1", "aa" * 16, correlation_id="c", detached_from_invocation_id=UUID)


CHILD_B = trace("d2", "bb" * 16, correlation_id="c", detached_from_invocation_id=UUID)


def count_examples(family: str, count: int, name: str) -> dict:
    other = FAMILIES["llm_failed" if family != "llm_failed" else "llm_completion"]
    wanted = [FAMILIES[family]] * count
    return {"holds": Example(events(*wanted, other), name=name),
            "fails": Example(events(*([FAMILIES[family]] * (count + 1)), other), name=name)}


def resumed_with_hooks(resumed_input: dict, resumed_trace_input: dict) -> dict:
    """A first run and its resume, each with a Trace and its logged hook calls; the resumed Trace's
    input is ``resumed_trace_input`` while its input hook returned ``resumed_input``."""
    first, again = trace("i1", "11" * 16), trace("i2", "22" * 16)
    first.update(input={"a": False}, output={"a": True})
    again.update(input=resumed_trace_input, output={"a": True})
    calls = [{"hook": "input", "invocationId": "i1", "returned": {"a": False}},
             {"hook": "output", "invocationId": "i1", "returned": {"a": True}},
             {"hook": "input", "invocationId": "i2", "returned": resumed_input},
             {"hook": "output", "invocationId": "i2", "returned": {"a": True}}]
    return case(invocation(id="i1", role="first_run"), invocation(id="i2", role="resumed"),
                langfuse={"traces": [first, again], "observations": [], "hook_calls": calls})


def llm_case(generation_parent_index: int) -> dict:
    node = {"id": "o1", "type": "span", "name": "work", "metadata": {"fan_out_index": 0}, "parentObservationId": None}
    other = {"id": "o2", "type": "span", "name": "work", "metadata": {"fan_out_index": 1}, "parentObservationId": None}
    generation = {"id": "o3", "type": "generation", "name": "openarmature.llm.complete", "metadata": {},
                  "parentObservationId": ("o1", "o2")[generation_parent_index]}
    spans = [{"span_id": "s0", "parent_span_id": None, "name": "openarmature.invocation", "attributes": {}},
             {"span_id": "s1", "parent_span_id": "s0", "name": "work", "attributes": {"openarmature.node.fan_out_index": 0}},
             {"span_id": "s2", "parent_span_id": "s1", "name": "openarmature.llm.complete", "attributes": {}}]
    return case(invocation(), langfuse={"traces": [], "observations": [node, other, generation]}, otel={"spans": spans})


def usage_case(usage: dict, span_attributes: dict, metrics: list | None = None) -> dict:
    return case(invocation(), typed_events={"c": [{"type": COMPLETION, "usage": usage}]},
                otel={"spans": [{"name": "openarmature.llm.complete", "attributes": span_attributes}]}, metrics=metrics or [])


NULL_PROMPT = {"prompt_tokens": None, "completion_tokens": 5, "total_tokens": 15}


DURATION = {"instrument": "openarmature.gen_ai.client.operation.duration"}


EXCEEDED = {"instrument": "openarmature.gen_ai.client.token_budget.exceeded"}


RUN_ONE = {"name": "invocation_1", "final_state": {"captured_bucket": {"invocation_id": "i1", "events": ["a.started"]}}}


def reads(*reads: dict) -> dict:
    """A case whose typed_event_counter observer logged these reads."""
    return case(invocation(), queryable_observers={"counter": {"kind": "typed_event_counter", "reads": list(reads)}})


SNAPSHOT_READ = {"node": "reader", "method": "get_snapshot", "exception": None}
