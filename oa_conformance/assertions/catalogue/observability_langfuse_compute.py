"""The compute functions of the observability rows about Langfuse Traces and typed events (their rows,
with why each cannot be a query, are in :mod:`.observability_langfuse`): per-family event counts
(the family is spelled snake_case in the name and CamelCase in the trace), trace-level derivations
joining a Trace with its invocation, and the §3.4 shared-parent boundary. Each takes the query
scope (scope.py) and the fixture's value.
"""

from __future__ import annotations

from typing import Any

from ...model.trace import InvocationOutcome
from .rows import flag, Verdict


# The typed event families as the predicate names spell them.
FAMILIES = {
    "llm_completion": "LlmCompletionEvent", "llm_failed": "LlmFailedEvent", "token": "LlmTokenEvent",
    "embedding": "EmbeddingEvent", "embedding_failed": "EmbeddingFailedEvent",
    "rerank": "RerankEvent", "rerank_success": "RerankEvent", "rerank_failed": "RerankFailedEvent",
    "tool_call": "ToolCallEvent", "tool_call_failed": "ToolCallFailedEvent",
}


FAMILY_CHOICES = "|".join(sorted(FAMILIES, key=len, reverse=True))


# ---- helpers over the scope ---------------------------------------------------------------------


def collectors_of(scope: dict) -> dict:
    if "typed_events" not in scope:
        raise LookupError("the case declares no typed-event collector")
    return scope["typed_events"]


def family_count(scope: dict, family: str) -> int:
    """How many events of the family a collector holds (the largest count over the case's
    collectors: a collector filtered to another family holds none)."""
    event_type = FAMILIES[family]
    return max((sum(1 for e in events if e["type"] == event_type) for events in collectors_of(scope).values()), default=0)


def count_is(expected_count: int):
    def judge(scope: dict, expected: Any, family: str, **_: str) -> Verdict:
        seen = family_count(scope, family)
        wanted = expected_count if expected is True else None
        if wanted is None:
            raise LookupError(f"the catalogue covers this predicate = true; the fixture gives {expected!r}")
        return Verdict(seen == wanted, f"{seen} {FAMILIES[family]} events, expected {wanted}")
    return judge


def traces_of(scope: dict) -> list:
    if "langfuse" not in scope:
        raise LookupError("the case recorded no Langfuse collection")
    return scope["langfuse"]["traces"]


def invocation_trace(scope: dict) -> dict:
    """The Trace of the block's invocation (by invocation id; else the only non-detached Trace)."""
    traces = traces_of(scope)
    wanted = scope.get("invocation", {}).get("id")
    found = [t for t in traces if wanted is not None and t["invocationId"] == wanted]
    if not found:
        found = [t for t in traces if "detached_from_invocation_id" not in t["metadata"]]
    if len(found) != 1:
        raise LookupError(f"{len(found)} candidate Langfuse Traces for the invocation")
    return found[0]


def trace_id_is_uuid_hex(scope: dict, expected: Any, **_: str) -> Verdict:
    trace = invocation_trace(scope)
    wanted = trace["invocationId"].replace("-", "").lower()
    return flag(expected, trace["id"] == wanted, f"trace.id {trace['id']!r}, invocation id {trace['invocationId']!r} without dashes is {wanted!r}")


def trace_id_is_sha256(scope: dict, expected: Any, **_: str) -> Verdict:
    import hashlib  # here, not at import: loading OpenSSL's bindings would cost every oa-lint run ~5 ms

    trace = invocation_trace(scope)
    wanted = hashlib.sha256(trace["invocationId"].encode("utf-8")).digest()[:16].hex()
    return flag(expected, trace["id"] == wanted, f"trace.id {trace['id']!r}, SHA-256(invocation id)[:16] is {wanted!r}")


def raw_id_in_metadata(scope: dict, expected: Any, **_: str) -> Verdict:
    trace = invocation_trace(scope)
    return flag(expected, trace["metadata"].get("invocation_id") == trace["invocationId"],
                f"metadata.invocation_id {trace['metadata'].get('invocation_id')!r}, invocation id {trace['invocationId']!r}")


def correlation_ids(scope: dict) -> list:
    """Every correlation id the case's backends rendered: Langfuse Trace and observation metadata,
    and OTel spans' `openarmature.correlation_id`."""
    found = []
    if "langfuse" in scope:
        found += [t["metadata"].get("correlation_id") for t in scope["langfuse"]["traces"]]
        found += [o["metadata"].get("correlation_id") for o in scope["langfuse"]["observations"]]
    if "otel" in scope:
        found += [s["attributes"].get("openarmature.correlation_id") for s in scope["otel"]["spans"]]
    return found


def correlation_consistent(scope: dict, expected: Any, **_: str) -> Verdict:
    found = correlation_ids(scope)
    if not found:
        raise LookupError("no Langfuse or OTel entity was recorded")
    distinct = sorted({repr(v) for v in found})
    return Verdict(None not in found and len(distinct) == 1, f"correlation ids seen: {distinct} over {len(found)} entities")


def correlation_across_traces(scope: dict, expected: Any, **_: str) -> Verdict:
    traces = traces_of(scope)
    values = {t["metadata"].get("correlation_id") for t in traces}
    return Verdict(len(traces) > 1 and len(values) == 1 and None not in values,
                   f"{len(traces)} traces with correlation ids {sorted(map(repr, values))}")


def distinct_trace_ids(scope: dict, expected: Any, **_: str) -> Verdict:
    ids = [t["id"] for t in traces_of(scope)]
    return Verdict(len(ids) > 1 and len(set(ids)) == len(ids), f"trace ids {ids}")


def detached(scope: dict) -> list:
    return [t for t in traces_of(scope) if "detached_from_invocation_id" in t["metadata"]]


def instance_trace_ids_distinct(scope: dict, expected: Any, **_: str) -> Verdict:
    ids = [t["id"] for t in detached(scope)]
    return Verdict(len(ids) > 1 and len(set(ids)) == len(ids), f"detached trace ids {ids}")


def detached_from(scope: dict, expected: Any, **_: str) -> Verdict:
    """Every detached Trace points back to the parent invocation: the fixture's literal id, or (a
    ``<invocation_id_X>`` token naming it) the block's own invocation id."""
    values = [t["metadata"]["detached_from_invocation_id"] for t in detached(scope)]
    if not values:
        raise LookupError("no detached Langfuse Trace")
    parent = scope.get("invocation", {}).get("id") if isinstance(expected, str) and expected.startswith("<") else expected
    return Verdict(all(v == parent for v in values), f"detached_from_invocation_id values {values}, parent invocation {parent!r}")


def child_trace_id_count(scope: dict, expected: Any, **_: str) -> int:
    dispatching = [o for o in scope.get("langfuse", {}).get("observations", ()) if o["metadata"].get("detached")]
    if not dispatching:
        raise LookupError("no dispatching observation carries metadata.detached")
    return sum(len(o["metadata"].get("detached_child_trace_ids") or ()) for o in dispatching)


def no_instances_in_parent(scope: dict, expected: Any, **_: str) -> Verdict:
    parent = invocation_trace(scope)
    inside = [o["name"] for o in scope["langfuse"]["observations"]
              if o["traceId"] == parent["id"] and o["metadata"].get("fan_out_index") is not None]
    if not detached(scope):
        raise LookupError("no detached Langfuse Trace: nothing was moved out of the parent")
    return Verdict(not inside, f"fan-out instance observations in the parent Trace: {inside}")


def instance_indices(scope: dict, parent: str | None = None) -> list:
    if "langfuse" not in scope:
        raise LookupError("the case recorded no Langfuse collection")
    return [o["metadata"]["fan_out_index"] for o in scope["langfuse"]["observations"]
            if o["metadata"].get("fan_out_parent_node_name") is not None
            and (parent is None or o["metadata"]["fan_out_parent_node_name"] == parent)]


def unique_indices_under(scope: dict, expected: Any, **_: str) -> Verdict:
    indices = instance_indices(scope, expected)
    return Verdict(bool(indices) and len(set(indices)) == len(indices), f"fan_out_index under {expected!r}: {indices}")


def index_range(scope: dict, expected: Any, **_: str) -> Any:
    indices = instance_indices(scope)
    if not indices:
        raise LookupError("no fan-out instance observation")
    return [min(indices), max(indices)]


def generation_count(scope: dict, expected: Any, **_: str) -> int:
    return sum(1 for o in scope.get("langfuse", {}).get("observations", ()) if o["type"] == "generation")


def call_ids(scope: dict, families: tuple[str, ...]) -> list:
    types = {FAMILIES[f] for f in families}
    found = [e.get("call_id") for events in collectors_of(scope).values() for e in events if e["type"] in types]
    if not found:
        raise LookupError(f"no {sorted(types)} event was collected")
    return found


def ids_present(*families: str):
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        ids = call_ids(scope, families)
        return flag(expected, all(isinstance(i, str) and i for i in ids), f"call ids {ids}")
    return judge


def ids_distinct(*families: str):
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        ids = call_ids(scope, families)
        return flag(expected, len(ids) > 1 and len(set(ids)) == len(ids) and None not in ids, f"call ids {ids}")
    return judge


FAILED_FAMILIES = ("llm_failed", "embedding_failed", "rerank_failed", "tool_call_failed")


SUCCESS_FAMILIES = ("llm_completion", "embedding", "rerank", "tool_call")


def exception_alongside_event(scope: dict, expected: Any, **_: str) -> Verdict:
    """The invocation errored (the exception propagated) and a failure event was collected too."""
    outcome = scope.get("invocation", {}).get("outcome")
    failures = sum(family_count(scope, f) for f in FAILED_FAMILIES)
    return flag(expected, outcome == InvocationOutcome.ERRORED and failures >= 1, f"invocation {outcome}, {failures} failure events")


def no_success_event_on_failure(scope: dict, expected: Any, **_: str) -> Verdict:
    """The invocation errored and no success event was collected."""
    outcome = scope.get("invocation", {}).get("outcome")
    successes = sum(family_count(scope, f) for f in SUCCESS_FAMILIES)
    return flag(expected, outcome == InvocationOutcome.ERRORED and successes == 0, f"invocation {outcome}, {successes} success events")


def hooks_refire(scope: dict, expected: Any, **_: str) -> Verdict:
    """Every Trace got exactly one call of each trace hook from its own invocation, and holds what
    that call returned; the resumed run has a Trace of its own (so the hooks fired on it too)."""
    traces = traces_of(scope)
    calls = scope["langfuse"].get("hook_calls")
    if calls is None:
        raise LookupError("no trace_input_from_state / trace_output_from_state hook was called")
    resumed = [run["id"] for run in scope["invocations"] if run.get("role") == "resumed" and "id" in run]
    if not resumed:
        raise LookupError("the case has no resumed run that reached a node")
    wrong = [f"no Langfuse Trace for the resumed invocation {run_id}" for run_id in resumed
             if run_id not in {t["invocationId"] for t in traces}]
    for found in traces:
        for side in ("input", "output"):
            returned = [c["returned"] for c in calls if c["hook"] == side and c["invocationId"] == found["invocationId"]]
            if returned != [found[side]]:
                wrong.append(f"Trace {found['invocationId']}: {side} {found[side]!r}, its {side} hook calls returned {returned!r}")
    return flag(expected, len(traces) >= 2 and not wrong, "; ".join(wrong) or f"{len(traces)} Trace(s), expected one per run")


# ---- §3.4 shared-parent boundary: augmentation never reaches a fork point ----------------------

FAN_OUT_NODE = "fan_out_item_count"  # metadata only a fan-out NODE observation carries


BRANCHES_NODE = "parallel_branches_branch_count"  # metadata only a parallel-branches NODE observation carries


def augmented_keys(scope: dict) -> set:
    """The metadata keys node code added mid-invocation (the harness's accepted writes), less the
    caller's baseline keys (an overwrite of a baseline key cannot be told from the baseline)."""
    writes = [entry["record"] for entry in scope["middleware_log"] if entry["kind"] == "metadata_write"]
    if not writes:
        raise LookupError("no node augmented the invocation metadata in this case")
    baseline = {key for run in scope["runs"] for key in ((run.get("call") or {}).get("metadata") or {})}
    keys = {key for write in writes for key in write["entries"]} - baseline
    if not keys:
        raise LookupError("every key the nodes augmented is also caller baseline metadata")
    return keys


def observations_of(scope: dict) -> list:
    traces_of(scope)  # a LookupError when the case recorded no Langfuse collection
    return scope["langfuse"]["observations"]


def not_augmented(*parents: str):
    """A compute row: the shared parents named (``trace``: the invocation's Langfuse Trace;
    ``fan_out`` / ``branches``: every fan-out / parallel-branches NODE observation) carry none of
    the augmented keys; at least one NODE observation of the kinds named must exist."""
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        keys, observations = augmented_keys(scope), observations_of(scope)
        found: list[tuple[str, dict]] = []
        if "trace" in parents:
            found.append(("the Trace", invocation_trace(scope)["metadata"]))
        markers = [marker for kind, marker in (("fan_out", FAN_OUT_NODE), ("branches", BRANCHES_NODE)) if kind in parents]
        if markers:
            nodes = [o for o in observations if any(marker in (o.get("metadata") or {}) for marker in markers)]
            if not nodes:
                raise LookupError(f"no NODE observation: none carries {' or '.join(markers)}")
            found += [(f"observation {o['name']!r} ({o.get('id')})", o["metadata"]) for o in nodes]
        carrying = [f"{label} carries {', '.join(f'{k}={metadata[k]!r}' for k in sorted(keys & set(metadata)))}"
                    for label, metadata in found if keys & set(metadata)]
        return flag(expected, not carrying, "; ".join(carrying))
    return judge


def siblings_isolated(scope: dict, expected: Any, **_: str) -> Verdict:
    """No augmented (key, value) shows in two sibling subtrees (children of one observation or of the
    Trace) unless their parent carries it too (it then came from above the fork)."""
    keys, observations = augmented_keys(scope), observations_of(scope)
    root = invocation_trace(scope)
    children: dict[Any, list] = {}
    for found in observations:
        if found.get("traceId") == root["id"]:
            children.setdefault(found.get("parentObservationId"), []).append(found)

    def carried(found: dict) -> set:
        metadata = found.get("metadata") or {}
        return {(key, repr(metadata[key])) for key in keys & set(metadata)}

    def subtree(found: dict) -> set:
        pairs = carried(found)
        for child in children.get(found.get("id"), ()):
            pairs |= subtree(child)
        return pairs

    compared, leaks = 0, []
    for parent_id, siblings in children.items():
        if len(siblings) < 2:
            continue
        parent = root if parent_id is None else next((o for o in observations if o.get("id") == parent_id), {})
        inherited = carried(parent)
        subtrees = [(sibling, subtree(sibling) - inherited) for sibling in siblings]
        compared += sum(1 for _, pairs in subtrees if pairs)
        for n, (first, mine) in enumerate(subtrees):
            for second, theirs in subtrees[n + 1:]:
                for key, value in sorted(mine & theirs):
                    leaks.append(f"{key}={value} under both {first['name']!r} ({first.get('id')}) and {second['name']!r} ({second.get('id')})")
    if not compared:
        raise LookupError("no sibling subtrees carrying an augmented key to compare")
    return flag(expected, not leaks, "; ".join(leaks))


COMPLETION, FAILED, EMBED, RERANK = "LlmCompletionEvent", "LlmFailedEvent", "EmbeddingEvent", "RerankEvent"


def tool_call_id_from_llm(scope: dict, expected: Any, **_: str) -> Verdict:
    """The ToolCallEvent's tool_call_id is one the LLM's completion requested (output_tool_calls)."""
    collectors = collectors_of(scope).values()
    requested = [c.get("id") for events in collectors for e in events if e["type"] == COMPLETION for c in e.get("output_tool_calls") or ()]
    executed = [e.get("tool_call_id") for events in collectors for e in events if e["type"] == "ToolCallEvent"]
    if not executed:
        raise LookupError("no ToolCallEvent was collected")
    return flag(expected, all(i is not None and i in requested for i in executed), f"tool_call_id {executed}, requested {requested}")


def langfuse_lineages(scope: dict) -> list:
    """Per Generation, its ancestors from the Trace root down: (name, fan_out_index) pairs."""
    observations = {o["id"]: o for o in scope["langfuse"]["observations"]}
    lineages = []
    for observation in observations.values():
        if observation["type"] != "generation":
            continue
        path, parent = [], observation.get("parentObservationId")
        while parent is not None and parent in observations:
            ancestor = observations[parent]
            path.append((ancestor["name"], ancestor["metadata"].get("fan_out_index")))
            parent = ancestor.get("parentObservationId")
        lineages.append(tuple(reversed(path)))
    return sorted(lineages, key=repr)


def otel_lineages(scope: dict) -> list:
    """Per LLM span, its ancestors below the invocation span: (name, fan_out_index) pairs."""
    spans = {s["span_id"]: s for s in scope["otel"]["spans"]}
    lineages = []
    for span in spans.values():
        if span["name"] != "openarmature.llm.complete":
            continue
        path, parent = [], span.get("parent_span_id")
        while parent is not None and parent in spans and spans[parent]["name"] != "openarmature.invocation":
            ancestor = spans[parent]
            path.append((ancestor["name"], ancestor["attributes"].get("openarmature.node.fan_out_index")))
            parent = ancestor.get("parent_span_id")
        lineages.append(tuple(reversed(path)))
    return sorted(lineages, key=repr)


def parents_agree(scope: dict, expected: Any, **_: str) -> Verdict:
    if "langfuse" not in scope or "otel" not in scope:
        raise LookupError("the case recorded no Langfuse and OTel collections to compare")
    langfuse, otel = langfuse_lineages(scope), otel_lineages(scope)
    if not langfuse:
        raise LookupError("no Generation observation")
    return flag(expected, langfuse == otel, f"Generation lineages {langfuse}; LLM span lineages {otel}")


INPUT_USAGE_ATTRIBUTES = ("gen_ai.usage.input_tokens", "openarmature.llm.usage.prompt_tokens")


ALL_USAGE_ATTRIBUTES = INPUT_USAGE_ATTRIBUTES + ("gen_ai.usage.output_tokens", "openarmature.llm.usage.completion_tokens",
                                                 "openarmature.llm.usage.total_tokens")


COUNTERS = ("prompt_tokens", "completion_tokens", "total_tokens")


def completion_usage(scope: dict) -> dict:
    usages = [e.get("usage") for events in collectors_of(scope).values() for e in events if e["type"] == COMPLETION]
    if not usages:
        raise LookupError("no LlmCompletionEvent was collected")
    if any(u is None for u in usages):
        raise LookupError("an LlmCompletionEvent carries no usage record")
    return usages[0]


def llm_span_attributes(scope: dict) -> list:
    if "otel" not in scope:
        raise LookupError("the case recorded no OTel spans")
    spans = [s["attributes"] for s in scope["otel"]["spans"] if s["name"] == "openarmature.llm.complete"]
    if not spans:
        raise LookupError("no LLM provider span")
    return spans


def nulled(counters: tuple, attributes: tuple):
    """The malformed wire counters reach the event as present-but-null and no span as an attribute."""
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        usage = completion_usage(scope)
        on_spans = sorted({key for span in llm_span_attributes(scope) for key in span if key in attributes})
        nulls = all(usage.get(c, "absent") is None for c in counters)
        return flag(expected, nulls and not on_spans, f"event usage {usage}; usage attributes on the LLM span: {on_spans}")
    return judge


def input_bound_not_evaluated(scope: dict, expected: Any, **_: str) -> Verdict:
    """prompt_tokens is null, so no token-budget observation is of the input kind."""
    usage = completion_usage(scope)
    budget = [m for m in scope.get("metrics", ()) if m["instrument"].startswith("openarmature.gen_ai.client.token_budget")]
    input_kind = [m for m in budget if "input" in m["dimensions"].values()]
    return flag(expected, usage.get("prompt_tokens", "absent") is None and not input_kind,
                f"prompt_tokens {usage.get('prompt_tokens', 'absent')!r}; input-kind budget observations {input_kind}")


def every_node_once(scope: dict, expected: Any) -> Verdict:
    declared = set(scope["wiring"].get("declared_nodes", ()))
    if not declared or not scope["invocations"]:
        raise LookupError("the case built no nodes or ran no invocation")
    wrong = [run["execution_order"] for run in scope["invocations"]
             if run["outcome"] != InvocationOutcome.COMPLETED or sorted(run["execution_order"]) != sorted(declared)]
    holds = not wrong
    return flag(expected, holds, f"runs that did not run each node once: {wrong}")
