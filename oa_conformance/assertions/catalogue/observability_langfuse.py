"""The observability predicates about Langfuse traces and typed events (the `langfuse` and
`typed_events` collections of docs/TRACE.md), named by the directory's fixtures and defined in their
prose. The OTel-side rows are in :mod:`.observability_otel`; both are the `observability` table.

Most rows restate an expectation of the same case (the fixture's `langfuse_trace` / `observers`
block already asserts exactly what the name says). The rest read the collections: per-family event
counts (the family is spelled snake_case in the name and CamelCase in the trace — a mapping JMESPath
cannot make), and trace-level derivations joining a Trace with its invocation.
"""

from __future__ import annotations

from typing import Any

from .rows import Compute, Example, Query, Restates, Verdict, flag
from .examples import case, invocation

LANGFUSE = "expected.langfuse_trace"
OBSERVERS = "expected.observers"
DIRECT_CALL = "expected.direct_call_result"

# The typed event families as the predicate names spell them.
FAMILIES = {
    "llm_completion": "LlmCompletionEvent", "llm_failed": "LlmFailedEvent", "token": "LlmTokenEvent",
    "embedding": "EmbeddingEvent", "embedding_failed": "EmbeddingFailedEvent",
    "rerank": "RerankEvent", "rerank_success": "RerankEvent", "rerank_failed": "RerankFailedEvent",
    "tool_call": "ToolCallEvent", "tool_call_failed": "ToolCallFailedEvent",
}
FAMILY_CHOICES = "|".join(sorted(FAMILIES, key=len, reverse=True))


# ---- helpers over the scope ---------------------------------------------------------------------


def _collectors(scope: dict) -> dict:
    if "typed_events" not in scope:
        raise LookupError("the case declares no typed-event collector")
    return scope["typed_events"]


def family_count(scope: dict, family: str) -> int:
    """How many events of the family a collector holds (the largest count over the case's
    collectors: a collector filtered to another family holds none)."""
    event_type = FAMILIES[family]
    return max((sum(1 for e in events if e["type"] == event_type) for events in _collectors(scope).values()), default=0)


def _count_is(expected_count: int):
    def judge(scope: dict, expected: Any, family: str, **_: str) -> Verdict:
        seen = family_count(scope, family)
        wanted = expected_count if expected is True else None
        if wanted is None:
            raise LookupError(f"the catalogue covers this predicate = true; the fixture gives {expected!r}")
        return Verdict(seen == wanted, f"{seen} {FAMILIES[family]} events, expected {wanted}")
    return judge


def _traces(scope: dict) -> list:
    if "langfuse" not in scope:
        raise LookupError("the case recorded no Langfuse collection")
    return scope["langfuse"]["traces"]


def invocation_trace(scope: dict) -> dict:
    """The Trace of the block's invocation (by invocation id; else the only non-detached Trace)."""
    traces = _traces(scope)
    wanted = scope.get("invocation", {}).get("id")
    found = [t for t in traces if wanted is not None and t["invocationId"] == wanted]
    if not found:
        found = [t for t in traces if "detached_from_invocation_id" not in t["metadata"]]
    if len(found) != 1:
        raise LookupError(f"{len(found)} candidate Langfuse Traces for the invocation")
    return found[0]


def _trace_id_is_uuid_hex(scope: dict, expected: Any, **_: str) -> Verdict:
    trace = invocation_trace(scope)
    wanted = trace["invocationId"].replace("-", "").lower()
    return flag(expected, trace["id"] == wanted, f"trace.id {trace['id']!r}, invocation id {trace['invocationId']!r} without dashes is {wanted!r}")


def _trace_id_is_sha256(scope: dict, expected: Any, **_: str) -> Verdict:
    import hashlib  # here, not at import: loading OpenSSL's bindings would cost every oa-lint run ~5 ms

    trace = invocation_trace(scope)
    wanted = hashlib.sha256(trace["invocationId"].encode("utf-8")).digest()[:16].hex()
    return flag(expected, trace["id"] == wanted, f"trace.id {trace['id']!r}, SHA-256(invocation id)[:16] is {wanted!r}")


def _raw_id_in_metadata(scope: dict, expected: Any, **_: str) -> Verdict:
    trace = invocation_trace(scope)
    return flag(expected, trace["metadata"].get("invocation_id") == trace["invocationId"],
                f"metadata.invocation_id {trace['metadata'].get('invocation_id')!r}, invocation id {trace['invocationId']!r}")


def _correlation_ids(scope: dict) -> list:
    """Every correlation id the case's backends rendered: Langfuse Trace and observation metadata,
    and OTel spans' `openarmature.correlation_id`."""
    found = []
    if "langfuse" in scope:
        found += [t["metadata"].get("correlation_id") for t in scope["langfuse"]["traces"]]
        found += [o["metadata"].get("correlation_id") for o in scope["langfuse"]["observations"]]
    if "otel" in scope:
        found += [s["attributes"].get("openarmature.correlation_id") for s in scope["otel"]["spans"]]
    return found


def _correlation_consistent(scope: dict, expected: Any, **_: str) -> Verdict:
    found = _correlation_ids(scope)
    if not found:
        raise LookupError("no Langfuse or OTel entity was recorded")
    distinct = sorted({repr(v) for v in found})
    return Verdict(None not in found and len(distinct) == 1, f"correlation ids seen: {distinct} over {len(found)} entities")


def _correlation_across_traces(scope: dict, expected: Any, **_: str) -> Verdict:
    traces = _traces(scope)
    values = {t["metadata"].get("correlation_id") for t in traces}
    return Verdict(len(traces) > 1 and len(values) == 1 and None not in values,
                   f"{len(traces)} traces with correlation ids {sorted(map(repr, values))}")


def _distinct_trace_ids(scope: dict, expected: Any, **_: str) -> Verdict:
    ids = [t["id"] for t in _traces(scope)]
    return Verdict(len(ids) > 1 and len(set(ids)) == len(ids), f"trace ids {ids}")


def _detached(scope: dict) -> list:
    return [t for t in _traces(scope) if "detached_from_invocation_id" in t["metadata"]]


def _instance_trace_ids_distinct(scope: dict, expected: Any, **_: str) -> Verdict:
    ids = [t["id"] for t in _detached(scope)]
    return Verdict(len(ids) > 1 and len(set(ids)) == len(ids), f"detached trace ids {ids}")


def _detached_from(scope: dict, expected: Any, **_: str) -> Verdict:
    """Every detached Trace points back to the parent invocation: the fixture's literal id, or (a
    ``<invocation_id_X>`` token naming it) the block's own invocation id."""
    values = [t["metadata"]["detached_from_invocation_id"] for t in _detached(scope)]
    if not values:
        raise LookupError("no detached Langfuse Trace")
    parent = scope.get("invocation", {}).get("id") if isinstance(expected, str) and expected.startswith("<") else expected
    return Verdict(all(v == parent for v in values), f"detached_from_invocation_id values {values}, parent invocation {parent!r}")


def _child_trace_id_count(scope: dict, expected: Any, **_: str) -> int:
    dispatching = [o for o in scope.get("langfuse", {}).get("observations", ()) if o["metadata"].get("detached")]
    if not dispatching:
        raise LookupError("no dispatching observation carries metadata.detached")
    return sum(len(o["metadata"].get("detached_child_trace_ids") or ()) for o in dispatching)


def _no_instances_in_parent(scope: dict, expected: Any, **_: str) -> Verdict:
    parent = invocation_trace(scope)
    inside = [o["name"] for o in scope["langfuse"]["observations"]
              if o["traceId"] == parent["id"] and o["metadata"].get("fan_out_index") is not None]
    if not _detached(scope):
        raise LookupError("no detached Langfuse Trace: nothing was moved out of the parent")
    return Verdict(not inside, f"fan-out instance observations in the parent Trace: {inside}")


def _instance_indices(scope: dict, parent: str | None = None) -> list:
    if "langfuse" not in scope:
        raise LookupError("the case recorded no Langfuse collection")
    return [o["metadata"]["fan_out_index"] for o in scope["langfuse"]["observations"]
            if o["metadata"].get("fan_out_parent_node_name") is not None
            and (parent is None or o["metadata"]["fan_out_parent_node_name"] == parent)]


def _unique_indices_under(scope: dict, expected: Any, **_: str) -> Verdict:
    indices = _instance_indices(scope, expected)
    return Verdict(bool(indices) and len(set(indices)) == len(indices), f"fan_out_index under {expected!r}: {indices}")


def _index_range(scope: dict, expected: Any, **_: str) -> Any:
    indices = _instance_indices(scope)
    if not indices:
        raise LookupError("no fan-out instance observation")
    return [min(indices), max(indices)]


def _generation_count(scope: dict, expected: Any, **_: str) -> int:
    return sum(1 for o in scope.get("langfuse", {}).get("observations", ()) if o["type"] == "generation")


def _call_ids(scope: dict, families: tuple[str, ...]) -> list:
    types = {FAMILIES[f] for f in families}
    found = [e.get("call_id") for events in _collectors(scope).values() for e in events if e["type"] in types]
    if not found:
        raise LookupError(f"no {sorted(types)} event was collected")
    return found


def _ids_present(*families: str):
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        ids = _call_ids(scope, families)
        return flag(expected, all(isinstance(i, str) and i for i in ids), f"call ids {ids}")
    return judge


def _ids_distinct(*families: str):
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        ids = _call_ids(scope, families)
        return flag(expected, len(ids) > 1 and len(set(ids)) == len(ids) and None not in ids, f"call ids {ids}")
    return judge


FAILED_FAMILIES = ("llm_failed", "embedding_failed", "rerank_failed", "tool_call_failed")
SUCCESS_FAMILIES = ("llm_completion", "embedding", "rerank", "tool_call")


def _exception_alongside_event(scope: dict, expected: Any, **_: str) -> Verdict:
    """The invocation errored (the exception propagated) and a failure event was collected too."""
    outcome = scope.get("invocation", {}).get("outcome")
    failures = sum(family_count(scope, f) for f in FAILED_FAMILIES)
    return flag(expected, outcome == "errored" and failures >= 1, f"invocation {outcome}, {failures} failure events")


def _no_success_event_on_failure(scope: dict, expected: Any, **_: str) -> Verdict:
    """The invocation errored and no success event was collected."""
    outcome = scope.get("invocation", {}).get("outcome")
    successes = sum(family_count(scope, f) for f in SUCCESS_FAMILIES)
    return flag(expected, outcome == "errored" and successes == 0, f"invocation {outcome}, {successes} success events")


def _with_call_ids(*pairs: tuple[str, Any]) -> dict:
    return case(invocation(), typed_events={"collector": [{"type": t, "call_id": i} for t, i in pairs]})


def _errored(*types: str) -> dict:
    return case(invocation(outcome="errored"), typed_events={"collector": [{"type": t} for t in types]})


def _hooks_refire(scope: dict, expected: Any, **_: str) -> Verdict:
    """Every Trace got exactly one call of each trace hook from its own invocation, and holds what
    that call returned; the resumed run has a Trace of its own (so the hooks fired on it too)."""
    traces = _traces(scope)
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


def _observations(scope: dict) -> list:
    _traces(scope)  # a LookupError when the case recorded no Langfuse collection
    return scope["langfuse"]["observations"]


def _not_augmented(*parents: str):
    """A compute row: the shared parents named (``trace``: the invocation's Langfuse Trace;
    ``fan_out`` / ``branches``: every fan-out / parallel-branches NODE observation) carry none of
    the augmented keys; at least one NODE observation of the kinds named must exist."""
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        keys, observations = augmented_keys(scope), _observations(scope)
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
    keys, observations = augmented_keys(scope), _observations(scope)
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


def _sibling_case(second_note: str) -> dict:
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


def _augmented_case(trace_metadata: dict, node_metadata: dict) -> dict:
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


def _count_examples(family: str, count: int, name: str) -> dict:
    other = FAMILIES["llm_failed" if family != "llm_failed" else "llm_completion"]
    wanted = [FAMILIES[family]] * count
    return {"holds": Example(events(*wanted, other), name=name),
            "fails": Example(events(*([FAMILIES[family]] * (count + 1)), other), name=name)}


def _resumed_with_hooks(resumed_input: dict, resumed_trace_input: dict) -> dict:
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


# ---- the rows ------------------------------------------------------------------------------------

COUNTS = (
    Compute(f"exactly_one_[terminal_]<family:{FAMILY_CHOICES}>_event[_observed][_per_failed_call]",
            "Exactly one event of the family named reached the collector (per the case's single call).",
            _count_is(1), "the family is snake_case in the name and CamelCase in the trace",
            **_count_examples("llm_completion", 1, "exactly_one_llm_completion_event_observed")),
    Compute(f"zero_<family:{FAMILY_CHOICES}>_events<when:|_observed|_on_failed_call|_on_failed_stream|_per_failed_call"
            "|_on_failure|_on_success|_on_non_streamed_call>",
            "No event of the family named reached the collector (the mutual-exclusion / absence side).",
            _count_is(0), "the family is snake_case in the name and CamelCase in the trace",
            **_count_examples("embedding", 0, "zero_embedding_events_on_failed_call")),
)

TRACE_LEVEL = (
    Compute("trace_id_equals_invocation_id_dashes_stripped", "The Trace's id is the invocation_id, dashes stripped (§8.4.1).",
            _trace_id_is_uuid_hex, "joins the Trace with its invocation and strips the dashes",
            holds=Example(langfuse([PARENT], invocation_id=UUID)), fails=Example(langfuse([trace(UUID, "0" * 32)], invocation_id=UUID))),
    Compute("langfuse_trace_id_is_uuid_hex_dashes_stripped", "A caller UUID invocation id becomes trace.id as its 32-hex form.",
            _trace_id_is_uuid_hex, "joins the Trace with its invocation and strips the dashes",
            holds=Example(langfuse([PARENT], invocation_id=UUID)), fails=Example(langfuse([trace(UUID, UUID)], invocation_id=UUID))),
    Compute("langfuse_trace_id_is_sha256_first16_hex", "A non-UUID invocation id becomes trace.id = first 16 bytes of its SHA-256, as hex.",
            _trace_id_is_sha256, "a hash JMESPath cannot compute",
            holds=Example(langfuse([trace("run_abc123", SHA)], invocation_id="run_abc123")),
            fails=Example(langfuse([trace("run_abc123", HEX)], invocation_id="run_abc123"))),
    Compute("raw_invocation_id_in_trace_metadata", "The raw (non-UUID) invocation id is kept in trace.metadata.invocation_id.",
            _raw_id_in_metadata, "joins the Trace's metadata with its own invocation id",
            holds=Example(langfuse([trace("run_abc123", SHA, invocation_id="run_abc123")], invocation_id="run_abc123")),
            fails=Example(langfuse([trace("run_abc123", SHA)], invocation_id="run_abc123"))),
    Compute("correlation_id_consistency", "Every Trace, observation and span carries one and the same correlation_id (§8.5, §3).",
            _correlation_consistent, "one value across two backends' collections",
            holds=Example(langfuse([PARENT], [observation(HEX, correlation_id="c")], UUID, otel=[{"attributes": {"openarmature.correlation_id": "c"}}])),
            fails=Example(langfuse([PARENT], [observation(HEX, correlation_id="d")], UUID))),
    Compute("correlation_id_consistent_across_traces", "The parent and detached Traces share one correlation_id.",
            _correlation_across_traces, "one value across several Traces, at least two",
            holds=Example(langfuse([PARENT, CHILD_A], invocation_id=UUID)),
            fails=Example(langfuse([PARENT, trace("d1", "aa" * 16, correlation_id="other")], invocation_id=UUID))),
    Compute("hooks_refire_on_resumed_trace",
            "§8.4.1: the trace input/output hooks fired on each run, the resumed one included, and each Trace holds what its own run's calls returned.",
            _hooks_refire, "joins the logged hook calls with the Traces and the runs by invocation id",
            holds=Example(_resumed_with_hooks({"a": True}, {"a": True}), invocation=None),
            fails=Example(_resumed_with_hooks({"a": True}, {"a": False}), invocation=None)),
    Compute("distinct_trace_ids", "Every Trace of the case has its own id.", _distinct_trace_ids, "pairwise distinctness over at least two",
            holds=Example(langfuse([PARENT, CHILD_A], invocation_id=UUID)), fails=Example(langfuse([PARENT, PARENT], invocation_id=UUID))),
    Compute("all_instance_trace_ids_distinct", "Each detached fan-out instance got its own Trace id.", _instance_trace_ids_distinct,
            "pairwise distinctness over the detached Traces",
            holds=Example(langfuse([PARENT, CHILD_A, CHILD_B], invocation_id=UUID)),
            fails=Example(langfuse([PARENT, CHILD_A, CHILD_A], invocation_id=UUID))),
    Compute("all_instance_traces_carry_detached_from_invocation_id", "Every detached Trace points back to the parent invocation id.",
            _detached_from, "one common value over the detached Traces",
            holds=Example(langfuse([PARENT, CHILD_A, CHILD_B], invocation_id=UUID), value="<invocation_id_parent>"),
            fails=Example(langfuse([PARENT, CHILD_A, trace("d2", "bb" * 16, detached_from_invocation_id="x")], invocation_id=UUID), value=UUID)),
    Compute("dispatch_detached_child_trace_id_count", "The dispatching observation lists one child trace id per detached child.",
            _child_trace_id_count, "sums list lengths over the dispatching observations",
            holds=Example(langfuse([PARENT], [observation(HEX, detached=True, detached_child_trace_ids=["x", "y"])], UUID), value=2),
            fails=Example(langfuse([PARENT], [observation(HEX, detached=True, detached_child_trace_ids=["x"])], UUID), value=2)),
    Compute("no_instance_spans_in_parent_trace", "No fan-out instance observation stays in the parent Trace when instances are detached.",
            _no_instances_in_parent, "joins observations with the invocation's Trace",
            holds=Example(langfuse([PARENT, CHILD_A], [observation("aa" * 16, fan_out_index=0)], UUID)),
            fails=Example(langfuse([PARENT, CHILD_A], [observation(HEX, fan_out_index=0)], UUID))),
    Compute("unique_fan_out_indices_under", "The fan-out instances under the named node carry distinct fan_out_index values.",
            _unique_indices_under, "pairwise distinctness filtered by a parameter",
            holds=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (0, 1)], UUID), value="p"),
            fails=Example(langfuse([PARENT], [observation(HEX, fan_out_index=0, fan_out_parent_node_name="p") for _ in (0, 1)], UUID), value="p")),
    Compute("fan_out_index_range", "The instances' fan_out_index values span exactly [min, max].", _index_range, "a min / max over the instances",
            holds=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (0, 1, 2)], UUID), value=[0, 2]),
            fails=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (1, 2)], UUID), value=[0, 2])),
    Compute("generation_count", "The number of Generation observations the case recorded.", _generation_count, "counts one type across Traces",
            holds=Example(langfuse([PARENT], [observation(HEX, type="generation")] * 2, UUID), value=2),
            fails=Example(langfuse([PARENT], [observation(HEX, type="generation")], UUID), value=2)),
)

COMPLETION, FAILED, EMBED, RERANK = "LlmCompletionEvent", "LlmFailedEvent", "EmbeddingEvent", "RerankEvent"

CALLS = (
    Compute("<which:all_call_ids_present|all_call_ids_are_non_empty_strings|all_call_ids_non_null>",
            "Every collected call event carries a non-empty call_id.",
            _ids_present("llm_completion", "llm_failed", "embedding", "embedding_failed", "rerank", "rerank_failed"),
            "a predicate over every event of several families",
            holds=Example(_with_call_ids((COMPLETION, "c1"), (COMPLETION, "c2")), name="all_call_ids_present"),
            fails=Example(_with_call_ids((COMPLETION, "c1"), (COMPLETION, None)), name="all_call_ids_present")),
    Compute("<which:call_ids_pairwise_distinct|call_ids_distinct_across_embedding_events|call_ids_distinct_across_rerank_events"
            "|completion_and_failed_event_call_ids_distinct|two_call_ids_distinct_and_non_null>",
            "The collected call events carry pairwise distinct call_ids (one per call).",
            _ids_distinct("llm_completion", "llm_failed", "embedding", "embedding_failed", "rerank", "rerank_failed"),
            "pairwise distinctness over several families",
            holds=Example(_with_call_ids((EMBED, "e1"), (EMBED, "e2")), name="call_ids_distinct_across_embedding_events"),
            fails=Example(_with_call_ids((EMBED, "e1"), (EMBED, "e1")), name="call_ids_distinct_across_embedding_events")),
    Compute("completion_event_call_id_present_and_non_empty", "The LlmCompletionEvent carries a non-empty call_id.",
            _ids_present("llm_completion"), "a predicate over one family's events",
            holds=Example(_with_call_ids((COMPLETION, "c1"))), fails=Example(_with_call_ids((COMPLETION, "")))),
    Compute("failed_event_call_id_present_and_non_empty", "The LlmFailedEvent carries a non-empty call_id.",
            _ids_present("llm_failed"), "a predicate over one family's events",
            holds=Example(_with_call_ids((FAILED, "f1"))), fails=Example(_with_call_ids((FAILED, None)))),
    Compute("<which:exception_propagates_alongside_typed_event|exception_propagates_out_of_complete"
            "|exception_propagates_out_of_rerank_call>",
            "The call's exception still propagates (the invocation errors) while the failure event is delivered.",
            _exception_alongside_event, "joins the invocation's outcome with the collected events",
            holds=Example(_errored(FAILED), name="exception_propagates_alongside_typed_event"),
            fails=Example(case(invocation(), typed_events={"collector": [{"type": FAILED}]}), name="exception_propagates_alongside_typed_event")),
    Compute("<which:no_typed_event_on_failure|failure_surfaces_via_exception_path>",
            "A failed call emits no success event; the failure reaches the caller as the exception.",
            _no_success_event_on_failure, "joins the invocation's outcome with the collected events",
            holds=Example(_errored("NodeEvent"), name="no_typed_event_on_failure"),
            fails=Example(_errored(COMPLETION), name="no_typed_event_on_failure")),
)

def _tool_call_id_from_llm(scope: dict, expected: Any, **_: str) -> Verdict:
    """The ToolCallEvent's tool_call_id is one the LLM's completion requested (output_tool_calls)."""
    collectors = _collectors(scope).values()
    requested = [c.get("id") for events in collectors for e in events if e["type"] == COMPLETION for c in e.get("output_tool_calls") or ()]
    executed = [e.get("tool_call_id") for events in collectors for e in events if e["type"] == "ToolCallEvent"]
    if not executed:
        raise LookupError("no ToolCallEvent was collected")
    return flag(expected, all(i is not None and i in requested for i in executed), f"tool_call_id {executed}, requested {requested}")


def _langfuse_lineages(scope: dict) -> list:
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


def _otel_lineages(scope: dict) -> list:
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


def _parents_agree(scope: dict, expected: Any, **_: str) -> Verdict:
    if "langfuse" not in scope or "otel" not in scope:
        raise LookupError("the case recorded no Langfuse and OTel collections to compare")
    langfuse, otel = _langfuse_lineages(scope), _otel_lineages(scope)
    if not langfuse:
        raise LookupError("no Generation observation")
    return flag(expected, langfuse == otel, f"Generation lineages {langfuse}; LLM span lineages {otel}")


def _llm_case(generation_parent_index: int) -> dict:
    node = {"id": "o1", "type": "span", "name": "work", "metadata": {"fan_out_index": 0}, "parentObservationId": None}
    other = {"id": "o2", "type": "span", "name": "work", "metadata": {"fan_out_index": 1}, "parentObservationId": None}
    generation = {"id": "o3", "type": "generation", "name": "openarmature.llm.complete", "metadata": {},
                  "parentObservationId": ("o1", "o2")[generation_parent_index]}
    spans = [{"span_id": "s0", "parent_span_id": None, "name": "openarmature.invocation", "attributes": {}},
             {"span_id": "s1", "parent_span_id": "s0", "name": "work", "attributes": {"openarmature.node.fan_out_index": 0}},
             {"span_id": "s2", "parent_span_id": "s1", "name": "openarmature.llm.complete", "attributes": {}}]
    return case(invocation(), langfuse={"traces": [], "observations": [node, other, generation]}, otel={"spans": spans})


INPUT_USAGE_ATTRIBUTES = ("gen_ai.usage.input_tokens", "openarmature.llm.usage.prompt_tokens")
ALL_USAGE_ATTRIBUTES = INPUT_USAGE_ATTRIBUTES + ("gen_ai.usage.output_tokens", "openarmature.llm.usage.completion_tokens",
                                                 "openarmature.llm.usage.total_tokens")
COUNTERS = ("prompt_tokens", "completion_tokens", "total_tokens")


def _completion_usage(scope: dict) -> dict:
    usages = [e.get("usage") for events in _collectors(scope).values() for e in events if e["type"] == COMPLETION]
    if not usages:
        raise LookupError("no LlmCompletionEvent was collected")
    if any(u is None for u in usages):
        raise LookupError("an LlmCompletionEvent carries no usage record")
    return usages[0]


def _llm_span_attributes(scope: dict) -> list:
    if "otel" not in scope:
        raise LookupError("the case recorded no OTel spans")
    spans = [s["attributes"] for s in scope["otel"]["spans"] if s["name"] == "openarmature.llm.complete"]
    if not spans:
        raise LookupError("no LLM provider span")
    return spans


def _nulled(counters: tuple, attributes: tuple):
    """The malformed wire counters reach the event as present-but-null and no span as an attribute."""
    def judge(scope: dict, expected: Any, **_: str) -> Verdict:
        usage = _completion_usage(scope)
        on_spans = sorted({key for span in _llm_span_attributes(scope) for key in span if key in attributes})
        nulls = all(usage.get(c, "absent") is None for c in counters)
        return flag(expected, nulls and not on_spans, f"event usage {usage}; usage attributes on the LLM span: {on_spans}")
    return judge


def _input_bound_not_evaluated(scope: dict, expected: Any, **_: str) -> Verdict:
    """prompt_tokens is null, so no token-budget observation is of the input kind."""
    usage = _completion_usage(scope)
    budget = [m for m in scope.get("metrics", ()) if m["instrument"].startswith("openarmature.gen_ai.client.token_budget")]
    input_kind = [m for m in budget if "input" in m["dimensions"].values()]
    return flag(expected, usage.get("prompt_tokens", "absent") is None and not input_kind,
                f"prompt_tokens {usage.get('prompt_tokens', 'absent')!r}; input-kind budget observations {input_kind}")


def _usage_case(usage: dict, span_attributes: dict, metrics: list | None = None) -> dict:
    return case(invocation(), typed_events={"c": [{"type": COMPLETION, "usage": usage}]},
                otel={"spans": [{"name": "openarmature.llm.complete", "attributes": span_attributes}]}, metrics=metrics or [])


NULL_PROMPT = {"prompt_tokens": None, "completion_tokens": 5, "total_tokens": 15}
BUDGET_INSTRUMENTS = "metrics[?starts_with(instrument, 'openarmature.gen_ai.client.token_budget')]"
_DURATION = {"instrument": "openarmature.gen_ai.client.operation.duration"}
_EXCEEDED = {"instrument": "openarmature.gen_ai.client.token_budget.exceeded"}

LINKS_AND_METRICS = (
    Compute("tool_call_id_matches_requesting_llm_output_tool_calls_id",
            "The tool execution's tool_call_id is the id the LLM's response requested.",
            _tool_call_id_from_llm, "joins two event families on the tool-call id",
            holds=Example(case(invocation(), typed_events={"collector": [
                {"type": COMPLETION, "output_tool_calls": [{"id": "call_1"}]}, {"type": "ToolCallEvent", "tool_call_id": "call_1"}]})),
            fails=Example(case(invocation(), typed_events={"collector": [
                {"type": COMPLETION, "output_tool_calls": [{"id": "call_1"}]}, {"type": "ToolCallEvent", "tool_call_id": "call_2"}]}))),
    Query("snapshot_is_immutable_mapping", "The event's caller_invocation_metadata snapshot is an immutable mapping.",
          "values(typed_events)[] | [?caller_invocation_metadata != `null`].caller_invocation_metadata_mutable | [?@]", "absent",
          anchor="values(typed_events)[] | [?caller_invocation_metadata != `null`]",
          holds=Example(case(invocation(), typed_events={"c": [{"type": COMPLETION, "caller_invocation_metadata": {"u": 1},
                                                                 "caller_invocation_metadata_mutable": False}]})),
          fails=Example(case(invocation(), typed_events={"c": [{"type": COMPLETION, "caller_invocation_metadata": {"u": 1},
                                                                 "caller_invocation_metadata_mutable": True}]}))),
    Compute("malformed_wire_prompt_tokens_nulled_before_event_and_span",
            "A malformed wire prompt_tokens reaches the event as null and no LLM span as an input-usage attribute.",
            _nulled(("prompt_tokens",), INPUT_USAGE_ATTRIBUTES), "joins the typed event with the OTel span",
            holds=Example(_usage_case(NULL_PROMPT, {"gen_ai.usage.output_tokens": 5})),
            fails=Example(_usage_case(NULL_PROMPT, {"gen_ai.usage.input_tokens": 0}))),
    Compute("all_three_malformed_wire_counters_nulled_before_event_and_span",
            "All three malformed counters reach the event as a present record of nulls and no span as usage attributes.",
            _nulled(COUNTERS, ALL_USAGE_ATTRIBUTES), "joins the typed event with the OTel span",
            holds=Example(_usage_case(dict.fromkeys(COUNTERS), {})),
            fails=Example(_usage_case(dict.fromkeys(COUNTERS), {"openarmature.llm.usage.total_tokens": 1}))),
    Compute("<which:input_bound_not_evaluated_when_prompt_tokens_null|no_input_kind_budget_observation_when_prompt_tokens_null>",
            "With prompt_tokens null the input budget bound is not evaluated: no input-kind budget observation.",
            _input_bound_not_evaluated, "joins the typed event with the metric observations",
            holds=Example(_usage_case(NULL_PROMPT, {}, [{"instrument": "openarmature.gen_ai.client.token_budget.utilization",
                                                          "dimensions": {"kind": "total"}}]),
                          name="input_bound_not_evaluated_when_prompt_tokens_null"),
            fails=Example(_usage_case(NULL_PROMPT, {}, [{"instrument": "openarmature.gen_ai.client.token_budget.utilization",
                                                          "dimensions": {"kind": "input"}}]),
                          name="input_bound_not_evaluated_when_prompt_tokens_null")),
    Compute("shared_parent_spans_not_augmented",
            "The shared parents (fan-out and parallel-branches NODE observations, the Trace) carry no key node code augmented (§3.4).",
            _not_augmented("trace", "fan_out", "branches"),
            "joins the harness's metadata writes with the metadata of the observations identified as NODE spans",
            holds=Example(_augmented_case({}, {})), fails=Example(_augmented_case({}, {"note": "a"}))),
    Compute("fan_out_node_shared_parent_not_augmented",
            "No fan-out NODE observation (the instances' shared fork point) carries a key node code augmented (§3.4).",
            _not_augmented("fan_out"),
            "joins the harness's metadata writes with the metadata of the fan-out NODE observations",
            holds=Example(_augmented_case({"note": "a"}, {})), fails=Example(_augmented_case({}, {"note": "a"}))),
    Compute("invocation_span_not_augmented",
            "The invocation's Trace (a shared parent above every dispatch) carries no key node code augmented (§3.4).",
            _not_augmented("trace"),
            "joins the harness's metadata writes with the Trace's metadata",
            holds=Example(_augmented_case({}, {"note": "a"})), fails=Example(_augmented_case({"note": "a"}, {}))),
    *(Compute(name, f"{doc}: no augmented value shows in two sibling subtrees unless their parent carries it (§3.4, at every depth).",
              siblings_isolated, "compares the augmented metadata of every pair of sibling subtrees, a tree walk joined with the harness's writes",
              holds=Example(_sibling_case("b")), fails=Example(_sibling_case("a")))
      for name, doc in (("outer_dispatch_spans_isolated", "Sibling outer dispatch observations do not cross-pollinate"),
                        ("sibling_branch_isolated_from_probe_augmentation", "A sibling branch does not carry the augmenting branch's write"),
                        ("sibling_outer_instances_isolated", "Sibling outer-instance subtrees do not carry each other's writes"),
                        ("sibling_fan_out_instances_isolated", "Sibling fan-out instances do not cross-pollinate"))),
    Compute("langfuse_parent_matches_otel_parent", "For every Generation the Langfuse parent corresponds to the OTel span parent (§8.9).",
            _parents_agree, "walks two trees by parent links and compares the lineages",
            holds=Example(_llm_case(0)), fails=Example(_llm_case(1))),
    Query("<which:no_token_budget_instrument_observations_when_no_budget|no_token_budget_instrument_observations_without_usage>",
          "No token-budget instrument (exceeded counter, utilization histogram) recorded anything.",
          BUDGET_INSTRUMENTS, "absent", anchor="metrics",
          holds=Example(case(invocation(), metrics=[_DURATION]), name="no_token_budget_instrument_observations_when_no_budget"),
          fails=Example(case(invocation(), metrics=[_DURATION, _EXCEEDED]), name="no_token_budget_instrument_observations_when_no_budget")),
)

# What the case's `langfuse_trace` expectation already asserts, name by name (the fixture prose
# says no more than the expected Trace / observation fields it lists).
RESTATING_LANGFUSE = (
    ("parallel_branches_per_branch_metadata_isolation", "Each branch's observations carry only that branch's augmented metadata."),
    ("baseline_caller_metadata_universal", "The caller's baseline metadata reaches every observation of every branch."),
    ("fan_out_per_instance_metadata_isolation",
     "Each fan-out instance's observations carry that instance's own augmented metadata value, not a sibling's."),
    ("outer_dispatch_span_carries_inner_augmentation",
     "The augmenter's inner- and outer-instance dispatch observations both carry its augmentation (lineage-aware rule)."),
    ("outer_fan_out_instance_carries_branch_augmentation",
     "The augmenting branch's dispatch observation and its outer fan-out instance's both carry the augmentation."),
    ("serial_subgraph_wrapper_carries_inner_augmentation",
     "The serial subgraph wrapper observation carries augmentations made inside its fan-out instances (last writer wins)."),
    ("open_span_update_reaches_invocation_and_node_spans",
     "A key augmented mid-invocation reaches the already-open Trace and calling node span's metadata (updated in place)."),
    ("per_branch_oa_emitted_branch_name_isolation", "Every observation in a branch's subtree carries that branch's branch_name."),
    ("implementation_name_present_on_trace", "trace.metadata.implementation_name is the runtime's name (§8.4.1)."),
    ("implementation_version_present_on_trace", "trace.metadata.implementation_version is a non-empty string (§8.4.1)."),
    ("rows_emit_with_default_privacy_config", "The attribution rows emit under the default privacy posture."),
    ("rows_emit_with_state_payload_enabled", "The attribution rows emit with disable_state_payload off."),
    ("always_emit_invariant_inherited_from_spec_5_1", "Attribution rows are not gated by any privacy knob (§5.1)."),
    ("caller_metadata_top_level_on_trace", "Caller metadata keys sit at the top level of trace.metadata (§8.4.1)."),
    ("caller_metadata_top_level_on_every_observation", "Caller metadata keys sit at the top level of every observation's metadata."),
    ("observation_type_is_embedding_not_generation", "The embedding call renders as an Embedding observation, not a Generation."),
    ("observation_type_is_retriever_not_generation", "The rerank call renders as a Retriever observation, not a Generation."),
    ("renders_as_embedding_observation_not_generation", "A failed embedding call renders as an Embedding observation."),
    ("renders_as_retriever_observation_not_generation", "A failed rerank call renders as a Retriever observation."),
    ("renders_as_dedicated_tool_observation_not_generation", "A tool execution renders as a Tool observation."),
    ("input_and_output_suppressed_under_default_privacy_posture", "input / output are null under the default payload posture."),
    ("input_and_output_populated_when_payload_flag_disabled", "input / output carry the payload with disable_provider_payload off."),
    ("input_output_populated_with_payload_on", "The Tool observation carries input / output with the payload on."),
    ("tool_name_and_call_id_in_metadata", "tool_name / tool_call_id sit in the Tool observation's metadata."),
    ("failed_tool_renders_error_level", "A failed tool execution renders at ERROR level."),
    ("error_type_and_message_in_metadata", "error_type / error_message sit in the failed observation's metadata."),
    # Proposal 0118 (§5.5.4): the harvested error_message follows the payload flag; error_type and
    # the error category are classifications, never gated. The case states both sides in its
    # observation (`metadata` / `metadata_absent` / `statusMessage` / `output`).
    ("error_type_in_metadata", "error_type sits in the failed observation's metadata (error_message is asserted apart)."),
    ("error_message_gated_by_provider_payload_flag",
     "The failed observation carries error_message only where the Langfuse payload flag permits it (here: absent)."),
    ("error_message_withheld_with_output_under_payload_disabled",
     "Under the default posture the failed Generation withholds error_message along with its output."),
    ("error_category_retained_when_message_omitted", "With error_message withheld, the error category is still the statusMessage."),
    ("error_type_retained_under_default_posture", "A failed Tool observation keeps error_type under the default posture."),
    ("tool_failure_message_not_smuggled_into_status_message",
     "A failed Tool observation's withheld message is not substituted into statusMessage (null: a Tool failure has no category)."),
    ("caller_metadata_reaches_tool_observation", "The caller's metadata keys reach the Tool observation's metadata (§8.4.2)."),
    ("embedding_failure_renders_error_level", "A failed embedding call renders at ERROR level."),
    ("rerank_failure_renders_error_level", "A failed rerank call renders at ERROR level."),
    ("error_category_is_status_message", "The failure's error category is the observation's statusMessage."),
    ("failure_observation_carries_no_output", "A failed call's observation has no output."),
    ("no_output_even_with_payload_flag_off", "No output on failure even with the payload flag off."),
    ("request_side_input_populated_when_payload_flag_disabled", "The request-side input is kept on failure with the payload on."),
    ("error_level_and_status_message_unchanged_by_payload_flag", "Level and statusMessage do not depend on the payload flag."),
    ("error_message_asserted_literally_from_raises", "error_message is the raised message, verbatim."),
    ("error_type_asserted_literally_from_raises", "error_type is the raised type, verbatim."),
    ("error_category_still_from_status", "statusMessage still carries the error category."),
    ("usage_details_empty_when_no_usage_record", "usageDetails is empty when the provider reported no usage."),
    ("usage_details_input_omitted_when_no_usage_record", "usageDetails has no input when the provider reported no usage."),
    ("generation_usage_input_omitted_when_prompt_tokens_null", "The Generation's usage has no input when prompt_tokens is null."),
    ("generation_usage_output_and_total_present_when_sound", "The Generation's usage keeps output / total when they are sound."),
    ("failed_generation_carries_output_usage_finish_reason", "A failed Generation renders output, usage and finish_reason."),
    ("failed_generation_renders_error_level_and_category", "A failed Generation renders ERROR level and the category as statusMessage."),
    ("output_redacted_under_payload_disabled", "The failed Generation's output is null with the payload off."),
    ("usage_finish_reason_and_error_level_unchanged_under_payload_disabled", "Usage, finish_reason and level survive the payload gate."),
    ("exceeded_flag_present_and_false_under_budget", "metadata.token_budget_exceeded is present and false under budget."),
    ("exceeded_flag_survives_error_precedence_on_failed_generation", "token_budget_exceeded stays true on a failed Generation."),
    ("declared_bounds_present_on_failed_generation", "The declared budget bounds appear on the failed Generation."),
    ("error_level_and_category_unchanged", "The failed Generation keeps ERROR level and its category."),
    ("no_warning_level_under_budget", "An under-budget Generation stays at DEFAULT level."),
    ("generation_output_is_full_assembled_content", "Under streaming the Generation's output is the full assembled content."),
    ("exactly_one_generation_observation_under_stream", "Streaming renders one Generation, not one per token."),
    ("no_per_token_child_observations", "The streamed Generation has no per-token children."),
    ("trace_user_id_equals_metadata_userid", "trace.userId is the caller metadata's userId (§8.4.1)."),
    ("user_id_promotion_is_additive", "userId also stays in trace.metadata."),
    ("trace_user_id_unset", "Without a userId key, trace.userId is unset."),
    ("trace_session_id_unset", "Without a session, trace.sessionId is unset."),
    ("other_metadata_unaffected", "The other caller metadata keys are rendered as supplied."),
    ("generation_parents_under_own_lineage_calling_node_observation", "Each Generation nests under its own instance's calling node."),
    ("orphan_generation_parents_under_inner_fan_out_instance_observation", "An orphan Generation nests under its inner fan-out instance."),
    ("orphan_generation_sibling_of_calling_node_observation", "The orphan Generation is a sibling of the calling node's observation."),
    ("orphan_generation_not_under_fan_out_node_or_trace", "The orphan Generation is not under the fan-out node or the Trace root."),
    ("orphan_generation_not_under_coincidentally_indexed_sibling", "Nor under a sibling instance with the same index."),
    ("no_inner_observations_dropped_under_concurrent_nesting", "Every inner observation is present under concurrent nesting."),
)

# What the case's `observers` (typed-event collector) expectations already assert, name by name.
RESTATING_EVENTS = (
    ("event_typed_fields_match_provider_response", "The event's typed fields equal the provider response's."),
    ("identity_scoping_fields_populated", "node_name / namespace / attempt_index / fan_out_index / branch_name are populated."),
    ("opt_in_disabled_yields_null_caller_metadata", "Without the opt-in, caller_invocation_metadata is null."),
    ("opt_in_enabled_yields_snapshot_caller_metadata", "With the opt-in, caller_invocation_metadata is the in-scope snapshot."),
    ("type_discrimination_filter_works", "A type-filtered collector holds exactly the typed events of its family."),
    ("type_filtered_count_independent_of_sentinel_emission", "The filtered count does not depend on sentinel NodeEvents."),
    ("per_instance_fan_out_index_populated", "Each fan-out instance's event carries its fan_out_index."),
    ("sibling_instances_have_distinct_fan_out_index", "Sibling instances' events carry distinct fan_out_index values."),
    ("branch_name_null_outside_parallel_branches", "branch_name is null outside parallel branches."),
    ("per_branch_branch_name_populated", "Each branch's event carries its branch_name."),
    ("sibling_branches_have_distinct_branch_name", "Sibling branches' events carry distinct branch names."),
    ("fan_out_index_null_outside_fan_out", "fan_out_index is null outside a fan-out."),
    ("typed_event_arrives_within_calling_node_span", "The typed event arrives between the node's started and completed events."),
    ("typed_event_arrives_after_node_started", "The typed event arrives after the node's started event."),
    ("typed_event_arrives_before_node_completed", "The typed event arrives before the node's completed event."),
    ("input_messages_populated_unconditionally", "input_messages carries the call's messages whatever the payload flags."),
    ("input_messages_shape_matches_llm_provider_section_3", "input_messages has the llm-provider §3 message shape."),
    ("output_content_null_when_tool_calls_present_with_empty_content", "output_content is null on a tool-call-only response."),
    ("request_params_carries_only_caller_supplied_keys", "request_params holds only the keys the caller supplied."),
    ("absence_distinct_from_zero_value", "An unsupplied parameter is absent, not zero."),
    ("request_extras_is_native_mapping_not_json_string", "request_extras is a mapping, not a JSON string."),
    ("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs", "active_prompt is the PromptResult identity snapshot."),
    ("active_prompt_null_parallels_prompt_attr_absence_on_span", "active_prompt is null outside a prompt context."),
    ("active_prompt_and_group_both_populated_inside_group_context", "active_prompt and active_prompt_group are both populated."),
    ("response_model_distinct_from_request_model", "response_model is the provider's, distinct from the requested model."),
    ("response_model_null_when_absent_from_response", "response_model is null when the response names none."),
    ("error_category_matches_raised_exception_category", "The failure event's category is the raised exception's."),
    ("input_strings_match_input_list_verbatim", "The embedding event's input strings are the call's inputs, verbatim."),
    ("request_params_empty_when_caller_supplied_none", "request_params is empty when the caller supplied none."),
    ("request_params_populated_with_caller_supplied_fields", "request_params carries the caller-supplied fields."),
    ("input_count_matches_input_list_length", "input_count is the number of inputs."),
    ("dimensions_matches_inner_vector_length", "dimensions is the vectors' length."),
    ("query_carried_verbatim", "The rerank event's query is the call's, verbatim."),
    ("documents_carried_verbatim", "The rerank event's documents are the call's, verbatim."),
    ("top_k_matches_caller_supplied_value", "top_k is the caller's value."),
    ("top_k_null_when_caller_passed_none", "top_k is null when the caller passed none."),
    ("document_count_matches_input", "document_count is the number of documents."),
    ("result_count_matches_response", "result_count is the number of results returned."),
    ("tool_call_event_carries_full_field_set", "The tool-call event carries its full field set."),
    ("latency_ms_present", "latency_ms is present."),
    ("standalone_tool_call_id_is_null", "A standalone instrumented function's tool_call_id is null."),
    ("no_error_category_field_on_tool_failure_event", "The tool failure event carries error_type / message, no category."),
    ("finish_reason_is_stop_not_truncation", "A schema mismatch reports finish_reason stop."),
    ("response_side_surface_null_for_non_structured_output_failure", "Response-side fields are null on a non-body failure."),
    ("event_usage_is_present_record_of_nulls_not_null_record", "usage is a present record of null counters, not null."),
    ("event_usage_prompt_tokens_null_not_verbatim_wire_value", "A malformed prompt_tokens surfaces as null, not the wire value."),
    ("token_budget_null_on_completion_event", "token_budget is null without a budgeted prompt."),
    ("token_budget_populated_but_not_evaluated_without_usage", "token_budget is populated though nothing could be evaluated."),
    ("atomic_path_unchanged_by_streaming_capability", "A non-streamed call emits its completion event as before streaming existed."),
    ("success_emits_one_event_zero_failures", "A successful call emits one success event and no failure event."),
    ("failure_emits_one_event_zero_successes", "A failed call emits one failure event and no success event."),
    ("success_one_tool_call_event_zero_failed", "A successful tool call emits one ToolCallEvent and no failure."),
    ("failure_one_tool_call_failed_event_zero_success", "A failed tool call emits one ToolCallFailedEvent and no success."),
)

def every_node_once(scope: dict, expected: Any) -> Verdict:
    declared = set(scope["wiring"].get("declared_nodes", ()))
    if not declared or not scope["invocations"]:
        raise LookupError("the case built no nodes or ran no invocation")
    wrong = [run["execution_order"] for run in scope["invocations"]
             if run["outcome"] != "completed" or sorted(run["execution_order"]) != sorted(declared)]
    holds = not wrong
    return flag(expected, holds, f"runs that did not run each node once: {wrong}")


ROUTING = (
    Compute("observer_does_not_mutate_state_or_influence_routing",
            "With the observer attached and read, every declared node still runs exactly once and the run completes.",
            every_node_once, "compares each run's dispatch order with the graph's declared nodes (a set join)",
            holds=Example(case(invocation(execution_order=["a", "b"]), wiring={"nodes": {}, "failure_isolation": [], "declared_nodes": ["a", "b"]})),
            fails=Example(case(invocation(execution_order=["a", "a"]), wiring={"nodes": {}, "failure_isolation": [], "declared_nodes": ["a", "b"]}))),
)

_RUN_ONE = {"name": "invocation_1", "final_state": {"captured_bucket": {"invocation_id": "i1", "events": ["a.started"]}}}
BUCKETS = (
    Query("captured_bucket_is_non_empty", "The bucket the run's last node read held the run's own events.",
          "length(invocation.final_state.captured_bucket.events || `[]`) > `0`",
          holds=Example(case(invocation(**_RUN_ONE)), invocation=0),
          fails=Example(case(invocation(name="invocation_1", final_state={"captured_bucket": {}})), invocation=0)),
    Query("bucket_after_drop_is_absent", "After drop(invocation_id) the re-read found no bucket.",
          "invocation.final_state.bucket_after_drop_is_absent",
          holds=Example(case(invocation(final_state={"bucket_after_drop_is_absent": True})), invocation=0),
          fails=Example(case(invocation(final_state={"bucket_after_drop_is_absent": False})), invocation=0)),
    Query("captured_bucket_disjoint_from_invocation_1", "The run's bucket is keyed by its own invocation, not invocation_1's.",
          "invocation.final_state.captured_bucket.invocation_id != `null` && length(invocations[?name=='invocation_1']) == `1` && "
          "!contains(invocations[?name=='invocation_1'].final_state.captured_bucket.invocation_id, invocation.final_state.captured_bucket.invocation_id)",
          holds=Example(case(invocation(**_RUN_ONE), invocation(name="invocation_2", final_state={"captured_bucket": {"invocation_id": "i2"}})), invocation=1),
          fails=Example(case(invocation(**_RUN_ONE), invocation(name="invocation_2", final_state={"captured_bucket": {"invocation_id": "i1"}})), invocation=1)),
)

def _reads(*reads: dict) -> dict:
    """A case whose typed_event_counter observer logged these reads."""
    return case(invocation(), queryable_observers={"counter": {"kind": "typed_event_counter", "reads": list(reads)}})


_SNAPSHOT_READ = {"node": "reader", "method": "get_snapshot", "exception": None}
_GET_SNAPSHOT = "queryable_observers.*.reads[] | [?method == 'get_snapshot']"
READS = (
    Query("snapshot_total_equals_sum_of_breakdown",
          "§9.2: every get_snapshot() read is internally consistent: its total equals the sum of its per-type breakdown.",
          _GET_SNAPSHOT + " | [?exception != null || value.total != sum(values(value.by_type))]", "absent", anchor=_GET_SNAPSHOT,
          holds=Example(_reads({**_SNAPSHOT_READ, "value": {"total": 3, "by_type": {"NodeEvent": 2, "InvocationStartedEvent": 1}}})),
          fails=Example(_reads({**_SNAPSHOT_READ, "value": {"total": 3, "by_type": {"NodeEvent": 2}}}))),
    Query("read_does_not_raise_on_concurrent_write",
          "§9.2: no read of a queryable observer raised while events were being delivered to it.",
          "queryable_observers.*.reads[] | [?exception != null]", "absent", anchor="queryable_observers.*.reads[]",
          holds=Example(_reads({**_SNAPSHOT_READ, "value": {"total": 0, "by_type": {}}})),
          fails=Example(_reads({**_SNAPSHOT_READ, "value": None,
                                "exception": {"type": "RuntimeError", "message": "dictionary changed size during iteration"}}))),
)

ROWS = (
    *COUNTS,
    *BUCKETS,
    *READS,
    *ROUTING,
    *CALLS,
    *LINKS_AND_METRICS,
    *TRACE_LEVEL,
    *(Restates(name, doc, LANGFUSE) for name, doc in RESTATING_LANGFUSE),
    *(Restates(name, doc, OBSERVERS) for name, doc in RESTATING_EVENTS),
    *(Restates(name, doc, DIRECT_CALL) for name, doc in (
        ("outside_invocation_returns_empty_mapping", "Outside an invocation the read returns an empty mapping."),
        ("outside_invocation_does_not_raise", "Outside an invocation the read raises nothing."),
        ("outside_invocation_return_is_immutable", "Outside an invocation the returned mapping is immutable."),
    )),
    *(Restates(name, doc, "expected.final_state") for name, doc in (
        ("prior_failed_attempt_writes_discarded", "The retry attempt's read lacks what the failed attempt wrote."),
        ("successful_attempt_writes_visible_downstream", "The downstream node reads what the successful attempt wrote."),
        ("caller_baseline_stable_across_attempts", "Every attempt and the downstream node read the caller's baseline."),
        ("per_instance_reads_isolated_from_siblings",
         "Each fan-out instance's read holds the baseline and its own augmentation only, no sibling's (the state lists each exactly)."),
        ("outermost_read_sees_pre_fan_out_baseline_only",
         "The outermost read after the join sees exactly the pre-fan-out baseline (the state lists it exactly)."),
        ("no_global_aggregator_layered_across_join",
         "No instance's augmentation flows back across the join: the outermost read carries none of them."),
    )),
    *(Restates(name, doc, "expected.final_state_bounds") for name, doc in (
        ("observer_attach_emit_consume_cycle_works", "A node reads the attached observer's count mid-invocation into state."),
        ("read_returns_non_negative_integer", "The read value is a non-negative integer."),
        ("read_is_consistent_no_torn_view", "The read value lies within the bounds of what was emitted before the read."),
    )),
    *(Restates(name, doc, "expected.per_invocation") for name, doc in (
        ("no_auto_drop_on_completion_signal", "Each run's bucket was still readable at its last node: completion does not drop it."),
        ("explicit_drop_removes_bucket", "drop(invocation_id) removes the run's bucket."),
        ("per_invocation_id_bucket_isolation", "Each run reads only the bucket of its own invocation id."),
        ("accumulator_exposes_drop_method", "The accumulator's drop method is callable from node code."),
    )),
)
