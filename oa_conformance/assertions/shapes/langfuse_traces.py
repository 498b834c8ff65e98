"""Expected-outcome shapes over the ``langfuse`` collection (observability §8 Langfuse mapping;
conformance-adapter §6.4 Langfuse mock).

**Langfuse.** ``langfuse_trace`` is the Trace of the invocation the block is about; ``langfuse_traces``
every Trace the case produced, in creation order. A Trace matches on ``id``, ``name``, ``metadata``
(subset), ``metadata_absent`` (as on an observation), ``input`` / ``output`` / ``sessionId`` / ``userId`` (exact) and its ``observations`` tree.
An observation matches on ``type``, ``name``, ``metadata`` and ``modelParameters`` (subset),
``metadata_absent`` (metadata keys the observation does not carry, not even as null), the other
Langfuse fields exactly (``usage`` / ``usageDetails`` name exactly the counters reported), three
derived assertions (``input_parses_as_messages``, ``input_is_raw_string_with_marker``,
``prompt_entity_link`` / ``prompt_entity_link_absent``) and its ``children``.

Sibling order is asserted only where the spec determines it (conformance-adapter §7): siblings are
taken in creation order, except that an expected child naming a concurrent-instance identity
(``metadata.fan_out_index`` or ``metadata.branch_name``) is matched against whichever remaining
sibling carries it — fan-out instances and parallel branches start in no specified order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...ast.nodes import Mapping, Scalar, Sequence
from ...model.diagnostics import Span
from ...model.trace.record import FIRST_RUN, RESUMED
from ..matchers import Match, Mismatch, absorb, match, show
from ..rules import Check, CheckStatus, Context, FlagRule, Rule, SelectingRule, ShapeRow, ValueRule, collection, verdict
from .truncation import TRUNCATION_MARKER, truncation_mismatches

OBS = "observability"

# ---------------------------------------------------------------------------------------------
# Selectors over the langfuse collection


def langfuse_collection(ctx: Context) -> Any:
    return collection(ctx, "langfuse", "the case recorded no Langfuse collection (no Langfuse observer was attached)")


def _detached(trace: Any) -> bool:
    return "detached_from_invocation_id" in trace["metadata"]


def langfuse_traces(ctx: Context) -> Any:
    return langfuse_collection(ctx)["traces"]


def invocation_trace(ctx: Context) -> Any:
    """The Trace of the invocation a block is about: by its invocation id; when the id was never
    observable, the i-th non-detached Trace for the i-th invocation."""
    traces = langfuse_traces(ctx)
    invocation = ctx.invocation
    if invocation is not None and invocation.invocation_id is not None:
        found = [t for t in traces if t["invocationId"] == invocation.invocation_id]
        if found:
            return found[0]
        raise LookupError(f"no Langfuse Trace for invocation {invocation.invocation_id!r} ({len(traces)} recorded)")
    roots = [t for t in traces if not _detached(t)]
    invocations = ctx.trace.invocations
    if invocation is not None and len(roots) == len(invocations):
        return roots[invocations.index(invocation)]
    if len(roots) == 1:
        return roots[0]
    raise LookupError(f"{len(roots)} Langfuse Traces, and the invocation's id was never observable")


class ObservationIndex(NamedTuple):
    """What observation matching reads besides the observation itself: ``children`` by parent
    (``(traceId, parentObservationId)``, each list in creation order) and ``harvested`` — every
    value the run's events carried per field name (``error_message`` …), the untruncated source a
    ``metadata_truncation`` prefix is compared with."""

    children: dict[Any, list[Any]]
    harvested: dict[str, tuple[str, ...]]


def children_index(collection: Any, events: Any = ()) -> ObservationIndex:
    children: dict[Any, list[Any]] = {}
    for observation in collection["observations"]:
        children.setdefault((observation["traceId"], observation["parentObservationId"]), []).append(observation)
    harvested: dict[str, list[str]] = {}
    for event in events:
        for field, value in event.items():
            if isinstance(value, str):
                harvested.setdefault(field, []).append(value)
    return ObservationIndex(children, {field: tuple(values) for field, values in harvested.items()})


def run_events(ctx: Context) -> list[Any]:
    """Every event the case's observers received (the run's, or every run's for a case-level block)."""
    invocations = [ctx.invocation] if ctx.invocation is not None else list(ctx.trace.invocations)
    return [event for invocation in invocations for events in invocation.events.values() for event in events]


# ---------------------------------------------------------------------------------------------
# Trace and observation matching

TRACE_EXACT = ("id", "name", "input", "output", "sessionId", "userId")
OBSERVATION_SUBSET = ("metadata", "modelParameters")
OBSERVATION_EXACT = ("type", "name", "level", "statusMessage", "model", "input", "output", "usage", "usageDetails", "id")
# Concurrent-instance identities: siblings carrying them start in no specified order (§7).
INSTANCE_IDENTITIES = ("fan_out_index", "branch_name")
# §5.5.5 / §8.7: a truncated payload keeps this marker, so the JSON no longer parses.

def match_trace(expected: Mapping, trace: Any, index: ObservationIndex, bindings: Any, path: str,
                unknown: list) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        if key in TRACE_EXACT:
            bindings = absorb(problems, match(want, trace[key], bindings, child, "exact"))
        elif key == "metadata":
            bindings = absorb(problems, match(want, trace["metadata"], bindings, child, "subset"))
        elif key == "metadata_absent":  # as on an observation: keys the Trace does not carry, not even null
            problems.extend(metadata_absent_mismatches(want, trace["metadata"], child, expected.key_span(key)))
        elif key == "observations":
            roots = index.children.get((trace["id"], None), [])
            bindings = absorb(problems, match_children(want, roots, index, bindings, child, unknown))
        else:
            unknown.append((child, expected.key_span(key)))
    return Match(not problems, bindings, tuple(problems))


def metadata_absent_mismatches(want: Any, metadata: Any, path: str, span: Span | None) -> list[Mismatch]:
    """``metadata_absent``: each listed key is missing from ``metadata`` (a key present as null is present)."""
    metadata = metadata or {}
    if not isinstance(want, Sequence):
        return [Mismatch(path, "a list of metadata keys", "a single value", span)]
    return [Mismatch(f"{path}[{item.value}]", "absent", f"present = {show(metadata[item.value])}", item.span)
            for item in want.items if item.value in metadata]


def match_observation(expected: Mapping, observation: Any, index: ObservationIndex, bindings: Any, path: str,
                      unknown: list) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        span = expected.key_span(key)
        if key in OBSERVATION_EXACT:
            bindings = absorb(problems, match(want, observation[key], bindings, child, "exact"))
        elif key in OBSERVATION_SUBSET:
            bindings = absorb(problems, match(want, observation[key], bindings, child, "subset"))
        elif key == "children":
            kids = index.children.get((observation["traceId"], observation["id"]), [])
            bindings = absorb(problems, match_children(want, kids, index, bindings, child, unknown))
        elif key == "metadata_absent":  # proposal 0118: keys the observation withholds (not even null)
            problems.extend(metadata_absent_mismatches(want, observation["metadata"], child, span))
        elif key == "prompt_entity_link":
            bindings = absorb(problems, match(want, observation["promptEntityLink"], bindings, child, "exact"))
        elif key == "prompt_entity_link_absent":
            absent = observation["promptEntityLink"] is None
            if absent != bool(want.value):
                problems.append(Mismatch(child, f"prompt entity link {'absent' if want.value else 'present'}",
                                         show(observation["promptEntityLink"]), span))
        elif key == "input_parses_as_messages":
            parsed, error = _parsed(observation["input"])
            if error:
                problems.append(Mismatch(child, "an input that parses as a message list", error, span))
            else:
                bindings = absorb(problems, match(want, parsed, bindings, child, "exact"))
        elif key == "metadata_truncation":
            problems.extend(truncation_mismatches(want, observation["metadata"], index.harvested, child))
        elif key == "input_is_raw_string_with_marker":
            value = observation["input"]
            raw = isinstance(value, str) and TRUNCATION_MARKER in value and _parsed(value)[1] is not None
            if raw != bool(want.value):
                problems.append(Mismatch(child, f"input is{'' if want.value else ' not'} a raw truncated string "
                                         f"(with {TRUNCATION_MARKER!r}, not parseable)", show(value), span))
        else:
            unknown.append((child, span))
    return Match(not problems, bindings, tuple(problems))


def _parsed(value: Any) -> tuple[Any, str | None]:
    """A payload as structure: a JSON string parsed, an already-structured value as it is."""
    if not isinstance(value, str):
        return value, None if value is not None else "no input recorded"
    try:
        return json.loads(value), None
    except ValueError as error:
        return None, f"{show(value)} does not parse as JSON ({error})"


def _names_identity(expected: Any) -> bool:
    metadata = expected.get("metadata") if isinstance(expected, Mapping) else None
    return isinstance(metadata, Mapping) and any(key in metadata for key in INSTANCE_IDENTITIES)


def match_children(expected: Any, actual: list, index: ObservationIndex, bindings: Any, path: str, unknown: list) -> Match:
    """An expected list of observations against actual siblings (creation order; see the module doc)."""
    if not isinstance(expected, Sequence):
        return Match(False, bindings, (Mismatch(path, "a list of observations", show(actual), expected.span),))
    summary = [(o["type"], o["name"]) for o in actual]
    if len(expected.items) != len(actual):
        return Match(False, bindings, (Mismatch(path, f"{len(expected.items)} observations", f"{len(actual)}: {show(summary)}", expected.span),))
    remaining = list(actual)
    problems: list[Mismatch] = []
    for position, want in enumerate(expected.items):
        child = f"{path}[{position}]"
        if not isinstance(want, Mapping):
            problems.append(Mismatch(child, "an observation mapping", show(remaining[0]), getattr(want, "span", None)))
            remaining.pop(0)
            continue
        candidates = remaining if _names_identity(want) else remaining[:1]
        tried = [(candidate, match_observation(want, candidate, index, bindings, child, [])) for candidate in candidates]
        chosen = next(((c, r) for c, r in tried if r.ok), None)
        if chosen is None:  # report against the closest candidate
            chosen = min(tried, key=lambda pair: len(pair[1].mismatches))
        candidate, _ = chosen
        result = match_observation(want, candidate, index, bindings, child, unknown)  # again, to collect unknown keys
        bindings = absorb(problems, result)
        remaining.remove(candidate)
    return Match(not problems, bindings, tuple(problems))


def match_traces_in_order(expected: Sequence, traces: list, index: ObservationIndex, bindings: Any, path: str, unknown: list) -> Match:
    """``langfuse_traces``: each expected Trace is a distinct recorded Trace, in creation order (an
    ordered subsequence — a fixture lists the Traces it describes and counts the others, e.g. with
    ``detached_trace_count``). An expected Trace no later recorded Trace matches is reported against
    the closest one."""
    problems: list[Mismatch] = []
    start = 0
    for position, want in enumerate(expected.items):
        where = f"{path}[{position}]"
        tried = [(offset, match_trace(want, trace, index, bindings, where, [])) for offset, trace in enumerate(traces) if offset >= start]
        if not tried:
            problems.append(Mismatch(where, "a Langfuse Trace", f"none left ({len(traces)} recorded)", want.span))
            continue
        offset, result = next(((o, r) for o, r in tried if r.ok), min(tried, key=lambda pair: len(pair[1].mismatches)))
        bindings = absorb(problems, match_trace(want, traces[offset], index, bindings, where, unknown))
        start = offset + 1
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class LangfuseTraceRule(SelectingRule):
    """One expected Trace (``expected`` a Mapping) or the list of all Traces (a Sequence)."""

    def evaluate(self, ctx: Context, bindings: Any):
        collection = langfuse_collection(ctx)
        index = children_index(collection, run_events(ctx))
        unknown: list = []
        path = self.name.split(".", 1)[-1]
        if isinstance(self.expected, Sequence):
            result = match_traces_in_order(self.expected, self.select(ctx), index, bindings, path, unknown)
        else:
            result = match_trace(self.expected, self.select(ctx), index, bindings, path, unknown)
        checks = [verdict(self.name, self.span, result)]
        checks += [Check(f"expected.{where}", CheckStatus.UNVERIFIED, span, f"not implemented: Langfuse field {where.rsplit('.', 1)[-1]!r}")
                   for where, span in unknown]
        return tuple(checks), result.bindings


def _langfuse_trace(node: Mapping, span: Span | None) -> Rule:
    return LangfuseTraceRule("expected.langfuse_trace", span, node, invocation_trace)


def _langfuse_traces(node: Sequence, span: Span | None) -> Rule:
    return LangfuseTraceRule("expected.langfuse_traces", span, node, langfuse_traces)


def _no_observations(ctx: Context) -> tuple[bool, str]:
    collection = langfuse_collection(ctx)
    observations = collection["observations"]
    return not observations and not collection["traces"], f"{len(collection['traces'])} traces, {len(observations)} observations: {show([(o['type'], o['name']) for o in observations])}"


def _no_langfuse_observations(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.no_langfuse_observations_emitted", span, node, _no_observations)


def _detached_count(ctx: Context) -> int:
    return sum(1 for trace in langfuse_traces(ctx) if _detached(trace))


def _detached_trace_count(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.detached_trace_count", span, node, _detached_count)


def _first_trace_unchanged(ctx: Context) -> tuple[bool, str]:
    """The first run's Trace after the resume: a Trace of its own (not the resumed run's), holding
    no observation created after the resumed Trace's first one, and not carrying the resumed
    Trace's output — a resume that reopened the first Trace would do one of these."""
    runs = {invocation.role: invocation for invocation in ctx.trace.invocations}
    if FIRST_RUN not in runs or RESUMED not in runs:
        raise LookupError("the case has no first run and resumed run")
    first, resumed = (invocation_trace(Context(ctx.trace, runs[role])) for role in (FIRST_RUN, RESUMED))
    if first["id"] == resumed["id"]:
        return False, f"the resumed run wrote into the first run's Trace {first['id']}"
    observations = langfuse_collection(ctx)["observations"]
    order = {id(o): position for position, o in enumerate(observations)}
    resumed_start = min((order[id(o)] for o in observations if o["traceId"] == resumed["id"]), default=len(observations))
    late = [o["name"] for o in observations if o["traceId"] == first["id"] and order[id(o)] > resumed_start]
    if late:
        return False, f"observations added to the first Trace during the resume: {show(late)}"
    if first["output"] is not None and first["output"] == resumed["output"]:
        return False, f"the first Trace carries the resumed run's output {show(first['output'])}"
    return True, ""


def _first_trace_unchanged_shape(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.first_trace_unchanged", span, node, _first_trace_unchanged)


# directive → rule builder, in the observability vocabulary
SHAPES = (
    ShapeRow("langfuse_trace", _langfuse_trace, OBS),
    ShapeRow("langfuse_traces", _langfuse_traces, OBS),
    ShapeRow("no_langfuse_observations_emitted", _no_langfuse_observations, OBS),
    ShapeRow("detached_trace_count", _detached_trace_count, OBS),
    ShapeRow("first_trace_unchanged", _first_trace_unchanged_shape, OBS),
)


__all__ = ["invocation_trace", "langfuse_collection", "match_trace"]
