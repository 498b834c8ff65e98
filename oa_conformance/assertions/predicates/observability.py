"""Observability predicates over the OTel capture (spans, log records, metric observations).

Each reads the ``otel`` / ``metrics`` collections through the shapes module's selectors, so a case
that captured nothing fails the predicate instead of passing it vacuously: every "all spans …"
predicate first requires at least one span to judge.
"""

from __future__ import annotations

from typing import Any

from ..matchers import show
from ..observability_shapes import INVOCATION_SPAN, LLM_SPAN, forest, harness_parameter, metrics, otel
from ..rules import Context
from . import Verdict, flag, predicate

TOKEN_USAGE = "openarmature.gen_ai.client.token.usage"
DURATION = "openarmature.gen_ai.client.operation.duration"
TOOL_SPAN = "openarmature.tool.call"
CORRELATION = "openarmature.correlation_id"


def spans(ctx: Context) -> list[Any]:
    found = list(forest(ctx).spans)
    if not found:
        raise LookupError("no span was exported")
    return found


def named(ctx: Context, name: str) -> list[Any]:
    return [span for span in spans(ctx) if span["name"] == name]


def correlation_ids(ctx: Context) -> list[Any]:
    return [span["attributes"].get(CORRELATION) for span in spans(ctx) if span["scope"] == "openarmature"]


@predicate("correlation_id_consistency")
def _correlation_consistent(ctx: Context, expected: Any) -> Verdict:
    """Every openarmature span carries the same `openarmature.correlation_id`."""
    ids = correlation_ids(ctx)
    return flag(expected, None not in ids and len(set(ids)) == 1, f"correlation ids {show(sorted(set(map(str, ids))))}")


@predicate("correlation_id_uniform_across_tree")
def _correlation_uniform(ctx: Context, expected: Any) -> Any:
    """Every span carries one correlation id: the value the fixture gives (a matcher allowed)."""
    ids = set(correlation_ids(ctx))
    if len(ids) != 1:
        return Verdict(False, f"the spans carry {len(ids)} correlation ids: {show(sorted(map(str, ids)))}")
    return ids.pop()


@predicate("correlation_id_is_uuidv4")
def _correlation_uuid(ctx: Context, expected: Any) -> Verdict:
    """The (auto-generated) correlation id is a canonical UUIDv4 on every span."""
    from ..matchers import format_ok

    ids = correlation_ids(ctx)
    return flag(expected, all(format_ok("uuid", value) for value in ids), f"correlation ids {show(ids[:4])}")


@predicate("unique_fan_out_indices_under")
def _unique_indices_under(ctx: Context, expected: Any) -> Verdict:
    """Under each span of the named fan-out node, the instance spans carry pairwise distinct fan_out_index values."""
    every = spans(ctx)
    parents = [span for span in every if span["name"] == expected.value]
    if not parents:
        return Verdict(False, f"no span named {expected.value!r}")
    for parent in parents:
        indices = [span["attributes"].get("openarmature.node.fan_out_index") for span in every if span["parent_span_id"] == parent["span_id"]]
        if None in indices or len(set(indices)) != len(indices):
            return Verdict(False, f"instance indices under {expected.value!r}: {show(indices)}")
    return Verdict(True)


@predicate("fan_out_index_range")
def _fan_out_index_range(ctx: Context, expected: Any) -> Any:
    """The fan_out_index values on instance spans span exactly [min, max]."""
    indices = [span["attributes"]["openarmature.node.fan_out_index"] for span in spans(ctx)
               if "openarmature.node.fan_out_index" in span["attributes"]]
    if not indices:
        return Verdict(False, "no span carries openarmature.node.fan_out_index")
    return [min(indices), max(indices)]


@predicate("caller_metadata_cross_cutting")
def _caller_metadata_everywhere(ctx: Context, expected: Any) -> Verdict:
    """Every openarmature span carries the full `openarmature.user.*` set of the invocation span (§5.6)."""
    roots = named(ctx, INVOCATION_SPAN)
    if not roots:
        return Verdict(False, "no invocation span")
    wanted = {key: value for key, value in roots[0]["attributes"].items() if key.startswith("openarmature.user.")}
    missing = [span["name"] for span in spans(ctx) if span["scope"] == "openarmature"
               and any(span["attributes"].get(key) != value for key, value in wanted.items())]
    return flag(expected, bool(wanted) and not missing, f"spans without the caller metadata: {show(missing)}" if wanted else "no caller metadata on the invocation span")


# ---- log records (observability §7) --------------------------------------------------------


def logs(ctx: Context) -> list[Any]:
    found = list(otel(ctx)["logs"])
    if not found:
        raise LookupError("no log record was captured")
    return found


@predicate("all_logs_same_trace_id")
def _logs_one_trace(ctx: Context, expected: Any) -> Verdict:
    """Every log record carries one and the same trace id."""
    ids = [record["trace_id"] for record in logs(ctx)]
    return flag(expected, None not in ids and len(set(ids)) == 1, f"trace ids {show(ids)}")


@predicate("log_trace_ids_differ_when_detached")
def _logs_trace_differ(ctx: Context, expected: Any) -> Verdict:
    """The log records carry more than one trace id (a detached unit logs under its own trace)."""
    ids = [record["trace_id"] for record in logs(ctx)]
    return flag(expected, None not in ids and len(set(ids)) == len(ids) > 1, f"trace ids {show(ids)}")


@predicate("log_span_ids_match_active_span_at_emission")
def _logs_active_span(ctx: Context, expected: Any) -> Verdict:
    """Each record's span id is an exported node span of its trace whose node emitted it (the
    records follow the nodes' execution order, so the i-th record belongs to the i-th emitting node)."""
    by_id = {span["span_id"]: span for span in spans(ctx)}
    wrong = []
    for record in logs(ctx):
        span = by_id.get(record["span_id"])
        if span is None or span["trace_id"] != record["trace_id"] or span["name"] not in record["body"]:
            wrong.append((record["body"], span["name"] if span else None))
    return flag(expected, not wrong, f"records not under their emitting node's span: {show(wrong)}")


@predicate("all_logs_carry_correlation_id")
def _logs_correlation(ctx: Context, expected: Any) -> Any:
    """Every log record carries `openarmature.correlation_id`; the one value the fixture names."""
    ids = {record["attributes"].get(CORRELATION) for record in logs(ctx)}
    if len(ids) != 1:
        return Verdict(False, f"the records carry {show(sorted(map(str, ids)))}")
    return ids.pop()


# ---- implementation attribution (§5.1) -------------------------------------------------------


def invocation_attribute(ctx: Context, key: str) -> list[Any]:
    roots = named(ctx, INVOCATION_SPAN)
    if not roots:
        raise LookupError("no invocation span")
    return [span["attributes"].get(key) for span in roots]


@predicate("implementation_name_non_empty")
def _name_non_empty(ctx: Context, expected: Any) -> Verdict:
    """Every invocation span carries a non-empty `openarmature.implementation.name`."""
    values = invocation_attribute(ctx, "openarmature.implementation.name")
    return flag(expected, all(isinstance(v, str) and v for v in values), f"values {show(values)}")


@predicate("implementation_version_non_empty")
def _version_non_empty(ctx: Context, expected: Any) -> Verdict:
    """Every invocation span carries a non-empty `openarmature.implementation.version`."""
    values = invocation_attribute(ctx, "openarmature.implementation.version")
    return flag(expected, all(isinstance(v, str) and v for v in values), f"values {show(values)}")


@predicate("implementation_name_matches_canonical_value")
def _name_canonical(ctx: Context, expected: Any) -> Verdict:
    """`openarmature.implementation.name` is the implementation's own canonical name."""
    values = invocation_attribute(ctx, "openarmature.implementation.name")
    canonical = harness_parameter("implementation_name")
    return flag(expected, all(v == canonical for v in values), f"values {show(values)}, canonical {canonical!r}")


# ---- LLM and tool spans ----------------------------------------------------------------------


@predicate("exactly_one_llm_span_when_retry_absent")
def _one_llm_span(ctx: Context, expected: Any) -> Verdict:
    """Exactly one `openarmature.llm.complete` span (no call-level retry)."""
    found = named(ctx, LLM_SPAN)
    return flag(expected, len(found) == 1, f"{len(found)} LLM spans")


@predicate("attempt_index_defaults_to_zero")
def _attempt_zero(ctx: Context, expected: Any) -> Verdict:
    """Every LLM span carries `openarmature.llm.attempt_index` = 0."""
    values = [span["attributes"].get("openarmature.llm.attempt_index") for span in named(ctx, LLM_SPAN)]
    return flag(expected, bool(values) and all(v == 0 for v in values), f"attempt indices {show(values)}")


@predicate("baseline_attributes_still_emit_alongside_attempt_index")
def _baseline_llm_attributes(ctx: Context, expected: Any) -> Verdict:
    """The LLM span keeps its baseline attributes (model, finish reason, usage) beside the attempt index."""
    baseline = ("openarmature.llm.model", "openarmature.llm.finish_reason", "openarmature.llm.usage.total_tokens",
                "openarmature.llm.attempt_index")
    missing = [key for span in named(ctx, LLM_SPAN) for key in baseline if key not in span["attributes"]]
    return flag(expected, bool(named(ctx, LLM_SPAN)) and not missing, f"missing {show(missing)}")


@predicate("llm_provider_span_count")
def _llm_span_count(ctx: Context, expected: Any) -> int:
    """How many `openarmature.llm.complete` spans were exported."""
    return len(named(ctx, LLM_SPAN))


@predicate("tool_span_name_is_openarmature_tool_call")
def _tool_span_name(ctx: Context, expected: Any) -> Verdict:
    """The tool execution renders as a span named `openarmature.tool.call`."""
    return flag(expected, len(named(ctx, TOOL_SPAN)) >= 1, f"span names {show(sorted({s['name'] for s in spans(ctx)}))}")


@predicate("execute_tool_span_name_not_used")
def _no_execute_tool(ctx: Context, expected: Any) -> Verdict:
    """No span uses the GenAI `execute_tool` name."""
    offending = [s["name"] for s in spans(ctx) if s["name"].startswith("execute_tool")]
    return flag(expected, not offending, f"spans {show(offending)}")


@predicate("oa_namespace_tool_attributes_emitted")
def _tool_oa_attributes(ctx: Context, expected: Any) -> Verdict:
    """The tool span carries `openarmature.tool.name` and `openarmature.tool.call.id`."""
    found = named(ctx, TOOL_SPAN)
    ok = bool(found) and all(key in s["attributes"] for s in found for key in ("openarmature.tool.name", "openarmature.tool.call.id"))
    return flag(expected, ok, f"tool span attributes {show([sorted(s['attributes']) for s in found])}")


@predicate("gen_ai_tool_attributes_not_emitted_in_v1")
def _tool_no_gen_ai(ctx: Context, expected: Any) -> Verdict:
    """The tool span carries no `gen_ai.tool.*` / `gen_ai.operation.name` attribute."""
    found = named(ctx, TOOL_SPAN)
    offending = [key for s in found for key in s["attributes"] if key.startswith("gen_ai.tool.") or key == "gen_ai.operation.name"]
    return flag(expected, bool(found) and not offending, f"attributes {show(offending)}" if found else "no tool span")


# ---- metrics (§11) ---------------------------------------------------------------------------


def observations(ctx: Context, instrument: str) -> list[Any]:
    return [o for o in metrics(ctx) if o["instrument"] == instrument]


@predicate("two_token_usage_observations_input_and_output")
def _two_token_observations(ctx: Context, expected: Any) -> Verdict:
    """Token usage is recorded twice: once with `openarmature.gen_ai.token.type` input, once output."""
    kinds = sorted(str(o["dimensions"].get("openarmature.gen_ai.token.type")) for o in observations(ctx, TOKEN_USAGE))
    return flag(expected, kinds == ["input", "output"], f"token types {show(kinds)}")


@predicate("one_duration_observation_per_call")
def _one_duration(ctx: Context, expected: Any) -> Verdict:
    """One duration observation per provider call (the wire served one call per request)."""
    calls = len(ctx.trace.collections.get("wire", {}).get("requests", ())) if "wire" in ctx.trace.collections else None
    found = len(observations(ctx, DURATION))
    return flag(expected, calls is not None and found == calls and found > 0, f"{found} duration observations for {calls} calls")


@predicate("duration_value_not_asserted")
def _duration_not_asserted(ctx: Context, expected: Any) -> Verdict:
    """Durations are asserted for presence only (§11.4): a duration observation exists, with a non-negative value."""
    found = observations(ctx, DURATION)
    return flag(expected, bool(found) and all(o["value"] is None or o["value"] >= 0 for o in found), f"durations {show(found)}")


@predicate("no_measurements_recorded_when_metrics_off")
def _no_measurements(ctx: Context, expected: Any) -> Verdict:
    """With metrics off nothing was recorded — while the run itself exported spans (non-vacuous)."""
    return flag(expected, not metrics(ctx) and bool(spans(ctx)), f"observations {show(metrics(ctx))}")


__all__ = ["logs", "named", "observations", "spans"]
