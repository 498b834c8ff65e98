"""Expected-outcome shapes over the ``langfuse`` and ``typed_events`` collections (observability §8
Langfuse mapping; conformance-adapter §5.5 typed-event collectors, §6.4 Langfuse mock).

**Langfuse.** ``langfuse_trace`` is the Trace of the invocation the block is about; ``langfuse_traces``
every Trace the case produced, in creation order. A Trace matches on ``id``, ``name``, ``metadata``
(subset), ``input`` / ``output`` / ``sessionId`` / ``userId`` (exact) and its ``observations`` tree.
An observation matches on ``type``, ``name``, ``metadata`` and ``modelParameters`` (subset),
``metadata_absent`` (metadata keys the observation does not carry, not even as null), the other
Langfuse fields exactly (``usage`` / ``usageDetails`` name exactly the counters reported), three
derived assertions (``input_parses_as_messages``, ``input_is_raw_string_with_marker``,
``prompt_entity_link`` / ``prompt_entity_link_absent``) and its ``children``.

Sibling order is asserted only where the spec determines it (conformance-adapter §7): siblings are
taken in creation order, except that an expected child naming a concurrent-instance identity
(``metadata.fan_out_index`` or ``metadata.branch_name``) is matched against whichever remaining
sibling carries it — fan-out instances and parallel branches start in no specified order.

**Leak checks** (proposal 0115) read the spans OTel exporters received (the ``otel`` collection):
a *Langfuse observation span* is one with a ``langfuse.observation.*`` attribute (§6.4).

**Typed events** (``expected.observers.<collector>``): ``contains_event`` (an event of the family
whose ``fields`` match — a literal null is present-and-null, a mapping a present record, an
omitted key unasserted), counts, order and cover assertions, over the collector's storage in
arrival order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from ..ast.nodes import Mapping, Scalar, Sequence
from ..diagnostics import Span
from ..trace import primary_observer
from .matchers import Match, Mismatch, match, show
from .rules import FAILED, collection, invocation_of, node_events, UNVERIFIED, VERIFIED, Check, Context, Rule, SelectingRule, Unverified, ValueRule, _AllOf, shape, verdict

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


class Index(NamedTuple):
    """What observation matching reads besides the observation itself: ``children`` by parent
    (``(traceId, parentObservationId)``, each list in creation order) and ``harvested`` — every
    value the run's events carried per field name (``error_message`` …), the untruncated source a
    ``metadata_truncation`` prefix is compared with."""

    children: dict[Any, list[Any]]
    harvested: dict[str, tuple[str, ...]]


def children_index(collection: Any, events: Any = ()) -> Index:
    children: dict[Any, list[Any]] = {}
    for observation in collection["observations"]:
        children.setdefault((observation["traceId"], observation["parentObservationId"]), []).append(observation)
    harvested: dict[str, list[str]] = {}
    for event in events:
        for field, value in event.items():
            if isinstance(value, str):
                harvested.setdefault(field, []).append(value)
    return Index(children, {field: tuple(values) for field, values in harvested.items()})


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
TRUNCATION_MARKER = "…[truncated"


def _merge(into: list, result: Match) -> Any:
    into.extend(result.mismatches)
    return result.bindings


def match_trace(expected: Mapping, trace: Any, index: Index, bindings: Any, path: str,
                unknown: list) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        if key in TRACE_EXACT:
            bindings = _merge(problems, match(want, trace[key], bindings, child, "exact"))
        elif key == "metadata":
            bindings = _merge(problems, match(want, trace["metadata"], bindings, child, "subset"))
        elif key == "observations":
            roots = index.children.get((trace["id"], None), [])
            bindings = _merge(problems, match_children(want, roots, index, bindings, child, unknown))
        else:
            unknown.append((child, expected.key_span(key)))
    return Match(not problems, bindings, tuple(problems))


def match_observation(expected: Mapping, observation: Any, index: Index, bindings: Any, path: str,
                      unknown: list) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        child = f"{path}.{key}"
        span = expected.key_span(key)
        if key in OBSERVATION_EXACT:
            bindings = _merge(problems, match(want, observation[key], bindings, child, "exact"))
        elif key in OBSERVATION_SUBSET:
            bindings = _merge(problems, match(want, observation[key], bindings, child, "subset"))
        elif key == "children":
            kids = index.children.get((observation["traceId"], observation["id"]), [])
            bindings = _merge(problems, match_children(want, kids, index, bindings, child, unknown))
        elif key == "metadata_absent":  # proposal 0118: keys the observation withholds (not even null)
            metadata = observation["metadata"] or {}
            if not isinstance(want, Sequence):
                problems.append(Mismatch(child, "a list of metadata keys", "a single value", span))
            for item in (want.items if isinstance(want, Sequence) else ()):
                if item.value in metadata:
                    problems.append(Mismatch(f"{child}[{item.value}]", "absent", f"present = {show(metadata[item.value])}", item.span))
        elif key == "prompt_entity_link":
            bindings = _merge(problems, match(want, observation["promptEntityLink"], bindings, child, "exact"))
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
                bindings = _merge(problems, match(want, parsed, bindings, child, "exact"))
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


# ``metadata_truncation: {<key>: {max_bytes, marker_pattern, utf8_valid, prefix_of_full_serialization}}``
# (conformance-adapter §5.5; observability §5.5.5 applied directly to a plain-string metadata value,
# proposal 0119). The metadata value must be present; each sub-key is one property of the cut.
TRUNCATION_PROPERTIES = ("max_bytes", "marker_pattern", "utf8_valid", "prefix_of_full_serialization")


def _cut_prefix(value: str, marker_pattern: str | None) -> str:
    """The value without its truncation marker (the pattern's match, else the §5.5.5 marker's text)."""
    if marker_pattern is not None:
        found = re.search(marker_pattern, value)
        if found is not None:
            return value[:found.start()]
    return value.split(TRUNCATION_MARKER, 1)[0]


def _truncation_holds(prop: str, want: Any, value: str, full_values: tuple[str, ...], marker: str | None) -> tuple[bool, str]:
    """Whether one property of a truncated value holds, with what was seen."""
    encoded = value.encode("utf-8", "surrogatepass")
    if prop == "max_bytes":
        return len(encoded) <= want, f"{len(encoded)} bytes"
    if prop == "marker_pattern":
        return re.search(want, value) is not None, f"ends {show(value[-48:])}"
    if prop == "utf8_valid":  # a split multi-byte sequence shows as a lone surrogate or U+FFFD after decoding
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            return not want, f"not encodable as UTF-8 ({error.reason})"
        broken = "\ufffd" in value and not any("\ufffd" in full for full in full_values)
        return broken != want, "a U+FFFD replacement character the source lacks" if broken else "valid UTF-8"
    # prefix_of_full_serialization: the kept part is a byte-exact prefix of an untruncated source value
    if not full_values:
        return False, "no untruncated value of this field in the run's events to compare with"
    kept = _cut_prefix(value, marker).encode("utf-8", "surrogatepass")
    prefixed = any(full.encode("utf-8", "surrogatepass").startswith(kept) for full in full_values)
    return prefixed == want, f"the kept {len(kept)} bytes are{'' if prefixed else ' not'} a prefix of a source value"


def truncation_mismatches(expected: Any, metadata: Any, harvested: dict[str, tuple[str, ...]], path: str) -> list[Mismatch]:
    problems: list[Mismatch] = []
    if not isinstance(expected, Mapping):
        return [Mismatch(path, "a mapping of metadata key → truncation properties", show(metadata), getattr(expected, "span", None))]
    for key, properties in expected.items():
        where = f"{path}.{key}"
        value = metadata.get(key)
        if not isinstance(value, str):
            problems.append(Mismatch(where, "a present string metadata value", show(value), expected.key_span(key)))
            continue
        marker = properties.get("marker_pattern").value if isinstance(properties.get("marker_pattern"), Scalar) else None
        for prop, want in properties.items():
            if prop not in TRUNCATION_PROPERTIES or not isinstance(want, Scalar):
                problems.append(Mismatch(f"{where}.{prop}", f"one of {', '.join(TRUNCATION_PROPERTIES)}", show(prop), properties.key_span(prop)))
                continue
            held, seen = _truncation_holds(prop, want.value, value, harvested.get(key, ()), marker)
            if not held:
                problems.append(Mismatch(f"{where}.{prop}", f"{prop}: {show(want.value)}", seen, properties.key_span(prop)))
    return problems


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


def match_children(expected: Any, actual: list, index: Index, bindings: Any, path: str, unknown: list) -> Match:
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
        bindings = _merge(problems, result)
        remaining.remove(candidate)
    return Match(not problems, bindings, tuple(problems))


def match_traces_in_order(expected: Sequence, traces: list, index: Index, bindings: Any, path: str, unknown: list) -> Match:
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
        bindings = _merge(problems, match_trace(want, traces[offset], index, bindings, where, unknown))
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
        checks += [Check(f"expected.{where}", UNVERIFIED, span, f"not implemented: Langfuse field {where.rsplit('.', 1)[-1]!r}")
                   for where, span in unknown]
        return tuple(checks), result.bindings


@shape("langfuse_trace", capability=OBS)
def _langfuse_trace(node: Mapping, span: Span | None) -> Rule:
    return LangfuseTraceRule("expected.langfuse_trace", span, node, invocation_trace)


@shape("langfuse_traces", capability=OBS)
def _langfuse_traces(node: Sequence, span: Span | None) -> Rule:
    return LangfuseTraceRule("expected.langfuse_traces", span, node, langfuse_traces)


@dataclass(frozen=True)
class FlagRule(SelectingRule):
    """A boolean expectation: ``select`` returns (holds, what was seen); ``anchor`` (optional)
    returns why the check would be vacuous, or None — an absence is only counted when something
    could have been present."""

    anchor: Callable[[Context], str | None] | None = None

    def evaluate(self, ctx: Context, bindings: Any):
        if self.anchor is not None:
            vacuous = self.anchor(ctx)
            if vacuous:
                return (Check(self.name, FAILED, self.span, f"nothing to compare: {vacuous}"),), bindings
        holds, seen = self.select(ctx)
        ok = holds == bool(self.expected.value)
        return (Check(self.name, VERIFIED if ok else FAILED, self.span, "" if ok else seen),), bindings


def _no_observations(ctx: Context) -> tuple[bool, str]:
    collection = langfuse_collection(ctx)
    observations = collection["observations"]
    return not observations and not collection["traces"], f"{len(collection['traces'])} traces, {len(observations)} observations: {show([(o['type'], o['name']) for o in observations])}"


@shape("no_langfuse_observations_emitted", capability=OBS)
def _no_langfuse_observations(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.no_langfuse_observations_emitted", span, node, _no_observations)


def _detached_count(ctx: Context) -> int:
    return sum(1 for trace in langfuse_traces(ctx) if _detached(trace))


@shape("detached_trace_count", capability=OBS)
def _detached_trace_count(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.detached_trace_count", span, node, _detached_count)


def _first_trace_unchanged(ctx: Context) -> tuple[bool, str]:
    """The first run's Trace after the resume: a Trace of its own (not the resumed run's), holding
    no observation created after the resumed Trace's first one, and not carrying the resumed
    Trace's output — a resume that reopened the first Trace would do one of these."""
    from ..trace.record import FIRST_RUN, RESUMED

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


@shape("first_trace_unchanged", capability=OBS)
def _first_trace_unchanged_shape(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.first_trace_unchanged", span, node, _first_trace_unchanged)


# ---- provider-isolation leak checks (proposal 0115) -----------------------------------------


def is_langfuse_span(span: Any) -> bool:
    return any(str(key).startswith("langfuse.observation.") for key in span["attributes"])


def _otel_spans(ctx: Context, key: str, what: str) -> Any:
    otel = ctx.trace.collections.get("otel")
    if otel is None or key not in otel:
        raise LookupError(f"no {what} exporter captured spans in this case")
    return otel[key]


def _langfuse_on(key: str, what: str) -> Callable[[Context], tuple[bool, str]]:
    def select(ctx: Context) -> tuple[bool, str]:
        leaked = [s["name"] for s in _otel_spans(ctx, key, what) if is_langfuse_span(s)]
        return bool(leaked), f"Langfuse observation spans on the {what} exporter: {show(leaked)}"
    return select


def _sdk_exported(ctx: Context) -> str | None:
    """An absence is meaningful only when the Langfuse client did emit observation spans."""
    exported = langfuse_collection(ctx).get("exported")
    if exported is None:
        return "the case's Langfuse client emits no OTel spans (no langfuse_client)"
    if not any(is_langfuse_span(span) for span in exported):
        return "the Langfuse client exported no observation span, so no leak could be seen"
    return None


def _leak_shape(directive: str, key: str, what: str, present: bool) -> None:
    select = _langfuse_on(key, what)

    def factory(node: Scalar, span: Span | None) -> Rule:
        if present:
            return FlagRule(f"expected.{directive}", span, node, select)
        negated = lambda ctx: (lambda held: (not held[0], held[1]))(select(ctx))  # noqa: E731
        return FlagRule(f"expected.{directive}", span, node, negated, _sdk_exported)

    shape(directive, capability=OBS)(factory)


# ---- payload-scoped leak checks (proposals 0116-0118: the §6 payload-leak invariant) --------
# A Langfuse observation span is *payload-bearing* (§6.4 as 158's sidecar narrows it) when it carries
# harvested payload: provider input / output, a Trace-level input / output other than the §8.4.1
# minimal stub, or a failed observation's error_message. Classifications (error_type, the error
# category in statusMessage) and caller-attached dimensions are payload-free.
PAYLOAD_ATTRIBUTES = ("langfuse.observation.input", "langfuse.observation.output")
TRACE_PAYLOAD_ATTRIBUTES = ("langfuse.trace.input", "langfuse.trace.output")
METADATA_ATTRIBUTE = "langfuse.observation.metadata"
HARVESTED_METADATA = ("error_message",)
# §8.4.1's minimal stubs, by their key sets: {entry_node, correlation_id} / {final_node, status}.
TRACE_STUBS = (frozenset(("entry_node", "correlation_id")), frozenset(("final_node", "status")))


def _json(value: Any) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return value


def payload_carried(span: Any) -> list[str]:
    """The payload attributes a Langfuse observation span carries (empty: payload-free). A dict
    metadata renders as one attribute per key (``langfuse.observation.metadata.<key>``), any other
    as one serialized blob under the bare name — both are read."""
    attributes = span["attributes"]
    carried = [name for name in PAYLOAD_ATTRIBUTES if attributes.get(name) is not None]
    for name in TRACE_PAYLOAD_ATTRIBUTES:
        value = _json(attributes.get(name))
        if value is not None and not (isinstance(value, dict) and frozenset(value) in TRACE_STUBS):
            carried.append(name)
    blob = _json(attributes.get(METADATA_ATTRIBUTE))
    for key in HARVESTED_METADATA:
        if attributes.get(f"{METADATA_ATTRIBUTE}.{key}") is not None or (isinstance(blob, dict) and key in blob):
            carried.append(f"{METADATA_ATTRIBUTE}.{key}")
    return carried


def _payload_bearing_on_global(ctx: Context) -> tuple[bool, str]:
    bearing = {s["name"]: payload_carried(s) for s in _otel_spans(ctx, "global_spans", "global TracerProvider's")
               if is_langfuse_span(s) and payload_carried(s)}
    return bool(bearing), f"payload-bearing Langfuse observation spans on the global exporter: {show(bearing)}"


def _global_capture_or_emission(ctx: Context) -> str | None:
    """A payload absence is meaningful when the global exporter captured the case and the Langfuse
    client emitted — or when standing the observer up raised, which is why nothing was emitted."""
    _otel_spans(ctx, "global_spans", "global TracerProvider's")  # LookupError: cannot evaluate
    return None if ctx.trace.construction_error is not None else _sdk_exported(ctx)


@shape("payload_bearing_langfuse_observations_on_global", capability=OBS)
def _payload_bearing(node: Scalar, span: Span | None) -> Rule:
    return FlagRule("expected.payload_bearing_langfuse_observations_on_global", span, node, _payload_bearing_on_global)


@shape("no_payload_bearing_langfuse_observations_on_global", capability=OBS)
def _no_payload_bearing(node: Scalar, span: Span | None) -> Rule:
    def none_bearing(ctx: Context) -> tuple[bool, str]:
        held, seen = _payload_bearing_on_global(ctx)
        return not held, seen
    return FlagRule("expected.no_payload_bearing_langfuse_observations_on_global", span, node, none_bearing,
                    _global_capture_or_emission)


_leak_shape("no_langfuse_observations_on_global", "global_spans", "global TracerProvider's", present=False)
_leak_shape("no_langfuse_observations_on_private", "spans", "openarmature private TracerProvider's", present=False)
_leak_shape("langfuse_observations_on_global", "global_spans", "global TracerProvider's", present=True)


# ---------------------------------------------------------------------------------------------
# The node's own completed event (typed-event fixtures that expect a failure without expected_error)


def _completed_event_of(node: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        invocation = invocation_of(ctx)
        events = node_events(invocation.events[primary_observer(invocation)])
        found = [e for e in events if e.get("node_name") == node and e.get("phase") == "completed"]
        if not found:
            raise LookupError(f"no completed event of node {node!r}")
        return found[-1]
    return select


@dataclass(frozen=True)
class NodeCompletedCarriesError(SelectingRule):
    """``node_completed_event_carries_error: {node_name, error_category}``: the node's completed
    event carries an error of that category (the derived one: a node_exception carrier names its
    cause). It describes a failed run, so the case expects the invocation's error."""

    expects_failure = True

    def evaluate(self, ctx: Context, bindings: Any):
        event = self.select(ctx)
        error = event.get("error")
        checks = []
        for key, want in self.expected.items():
            if key == "node_name":
                continue
            if key != "error_category":
                checks.append(Check(f"{self.name}.{key}", UNVERIFIED, self.expected.key_span(key), f"not implemented: {key!r}"))
                continue
            categories = []
            if error is not None:
                categories.append(error.get("category"))
                chain = error.get("cause_chain")
                categories.append(chain.get("category") if hasattr(chain, "get") else None)
            ok = want.value in categories
            checks.append(Check(f"{self.name}.{key}", VERIFIED if ok else FAILED, self.expected.key_span(key),
                                "" if ok else f"the completed event's error is {show(error)}"))
        return tuple(checks), bindings


@shape("node_completed_event_carries_error", capability=OBS)
def _node_completed_carries_error(node: Mapping, span: Span | None) -> Rule:
    return NodeCompletedCarriesError("expected.node_completed_event_carries_error", span, node,
                                     _completed_event_of(node.get("node_name").value))


# ---------------------------------------------------------------------------------------------
# Typed-event collectors (expected.observers.<collector>)


def collector_events(name: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        collection = ctx.trace.collections.get("typed_events")
        if collection is None or name not in collection:
            raise LookupError(f"no typed-event collector named {name!r}")
        return collection[name]
    return select


def of_type(events: Any, family: str) -> list[Any]:
    return [event for event in events if event["type"] == family]


@dataclass(frozen=True)
class ContainsEvent(SelectingRule):
    """``contains_event``: some event of ``event_type`` whose ``fields`` match (subset)."""

    def evaluate(self, ctx: Context, bindings: Any):
        family = self.expected.event_type.value
        candidates = of_type(self.select(ctx), family)
        fields = self.expected.get("fields")
        if not candidates:
            return (Check(self.name, FAILED, self.span, f"no {family} among {show([e['type'] for e in self.select(ctx)])}"),), bindings
        if fields is None and self.expected.get("fields_absent_keys") is None:
            return (Check(self.name, VERIFIED, self.span),), bindings
        absent = self.expected.get("fields_absent_keys")
        path = self.name.split(".", 1)[-1]

        def judged(event: Any) -> Match:
            fielded = match(fields, event, bindings, f"{path}.fields", "subset") if fields is not None else Match(True, bindings)
            return _with_absent_keys(absent, event, fielded, f"{path}.fields_absent_keys")

        results = [judged(event) for event in candidates]
        best = next((r for r in results if r.ok), None) or min(results, key=lambda r: len(r.mismatches))
        check = verdict(self.name, self.span, best)
        if not best.ok and len(candidates) > 1:
            check = Check(check.name, check.status, check.span, f"none of {len(candidates)} {family} events matches; closest: {check.detail}", check.at)
        return (check,), best.bindings


def _with_absent_keys(absent: Any, event: Any, result: Match, path: str) -> Match:
    """``fields_absent_keys: {field: [key, ...]}``: the field is a mapping holding none of the keys."""
    if absent is None:
        return result
    problems = list(result.mismatches)
    for field, keys in absent.items():
        value = event.get(field)
        span = absent.key_span(field)
        if not hasattr(value, "keys"):
            problems.append(Mismatch(f"{path}.{field}", "a mapping", show(value), span))
            continue
        present = [key.value for key in keys.items if key.value in value]
        if present:
            problems.append(Mismatch(f"{path}.{field}", f"none of {[k.value for k in keys.items]}", f"present: {present}", span))
    return Match(not problems, result.bindings, tuple(problems))


@dataclass(frozen=True)
class EventCount(SelectingRule):
    """How many events of one family the collector holds: ``compare`` is ``eq`` or ``ge``."""

    family: str = ""
    count: int = 0
    compare: str = "eq"

    def evaluate(self, ctx: Context, bindings: Any):
        seen = len(of_type(self.select(ctx), self.family))
        ok = seen == self.count if self.compare == "eq" else seen >= self.count
        want = f"{'' if self.compare == 'eq' else 'at least '}{self.count}"
        return (Check(self.name, VERIFIED if ok else FAILED, self.span, "" if ok else f"expected {want} {self.family}, got {seen}"),), bindings


@dataclass(frozen=True)
class EventsInOrder(SelectingRule):
    """``contains_events_in_order``: the family's events in arrival order, matched positionally."""

    def evaluate(self, ctx: Context, bindings: Any):
        family = self.expected.event_type.value
        events = of_type(self.select(ctx), family)
        wanted = self.expected.events
        path = self.name.split(".", 1)[-1]
        if len(events) != len(wanted.items):
            return (Check(self.name, FAILED, self.span, f"expected {len(wanted.items)} {family} events, got {len(events)}"),), bindings
        problems: list[Mismatch] = []
        for position, (want, event) in enumerate(zip(wanted.items, events)):
            bindings = _merge(problems, match(want, event, bindings, f"{path}.events[{position}]", "subset"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class EveryEventHas(SelectingRule):
    """``every_captured_event_has``: each captured event carries these values (none captured fails)."""

    def evaluate(self, ctx: Context, bindings: Any):
        events = self.select(ctx)
        if not events:
            return (Check(self.name, FAILED, self.span, "the collector captured no event"),), bindings
        problems: list[Mismatch] = []
        for position, event in enumerate(events):
            bindings = _merge(problems, match(self.expected, event, bindings, f"{self.name.split('.', 1)[-1]}[{position}]", "subset"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class ValuesCover(SelectingRule):
    """``captured_event_field_values_cover``: across the captured events, ``field`` takes every value listed."""

    def evaluate(self, ctx: Context, bindings: Any):
        from ..values import literal

        field = self.expected.field.value
        seen = [event.get(field) for event in self.select(ctx) if field in event]
        missing = [value for value in literal(self.expected.values) if value not in seen]
        ok = not missing
        return (Check(self.name, VERIFIED if ok else FAILED, self.span, "" if ok else f"{field} never took {show(missing)}; seen {show(seen)}",
                      None if ok else self.expected.key_span("values")),), bindings


@dataclass(frozen=True)
class RelativeOrder(SelectingRule):
    """``relative_order_of_events_matching``: the events matching ``filter``, in arrival order, are
    exactly ``expected_order`` (each entry: ``event_type`` and optional event fields such as ``phase``)."""

    def evaluate(self, ctx: Context, bindings: Any):
        events = [e for e in self.select(ctx) if match(self.expected.filter, e, bindings, "", "subset").ok]
        order = self.expected.expected_order
        path = self.name.split(".", 1)[-1]
        seen = [(e["type"], e.get("phase")) for e in events]
        if len(events) != len(order.items):
            return (Check(self.name, FAILED, self.span, f"expected {len(order.items)} matching events, got {len(events)}: {show(seen)}",
                          order.span),), bindings
        problems: list[Mismatch] = []
        for position, (want, event) in enumerate(zip(order.items, events)):
            for key, value in want.items():
                got = event["type"] if key == "event_type" else event.get(key)
                bindings = _merge(problems, match(value, got, bindings, f"{path}.expected_order[{position}].{key}", "exact"))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class Documents(Rule):
    """A key that documents an implementation-defined latitude and asserts nothing about the run:
    verified when it states the latitude (``true``), failed otherwise."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        ok = isinstance(self.expected, Scalar) and self.expected.value is True
        return (Check(self.name, VERIFIED if ok else FAILED, self.span, "" if ok else "expected the documentation flag true"),), bindings


def _collector_rules(collector: str, assertions: Mapping) -> list[Rule]:
    select = collector_events(collector)
    rules: list[Rule] = []
    for key, value in assertions.items():
        name, span = f"expected.observers.{collector}.{key}", assertions.key_span(key)
        if key == "contains_event":
            rules.append(ContainsEvent(name, span, value, select))
        elif key == "contains_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 1, "ge"))
        elif key == "contains_exactly_one_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 1))
        elif key == "does_not_contain_event_of_type":
            rules.append(EventCount(name, span, value, select, value.value, 0))
        elif key in ("event_count", "contains_exactly_n_events_of_type"):
            rules.append(EventCount(name, span, value, select, value.event_type.value, value.count.value))
        elif key == "event_counts":
            for position, entry in enumerate(value.items):
                rules.append(EventCount(f"{name}[{position}]", entry.span, entry, select, entry.event_type.value, entry.count.value))
        elif key == "contains_events_in_order":
            rules.append(EventsInOrder(name, span, value, select))
        elif key == "every_captured_event_has":
            rules.append(EveryEventHas(name, span, value, select))
        elif key == "captured_event_field_values_cover":
            rules.append(ValuesCover(name, span, value, select))
        elif key == "relative_order_of_events_matching":
            rules.append(RelativeOrder(name, span, value, select))
        elif key == "sentinel_node_event_emission_is_impl_defined":
            rules.append(Documents(name, span, value))
        else:
            rules.append(Unverified(name, span, f"not implemented: typed-event assertion {key!r}"))
    return rules


@shape("observers")
def _observers(node: Mapping, span: Span | None) -> Rule:
    """``expected.observers``: per typed-event collector, its assertions (conformance-adapter §5.5)."""
    return _AllOf(tuple(rule for collector, assertions in node.items() for rule in _collector_rules(collector, assertions)))


__all__ = ["invocation_trace", "is_langfuse_span", "langfuse_collection", "match_trace", "of_type"]
