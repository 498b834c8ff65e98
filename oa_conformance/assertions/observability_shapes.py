"""Expected-outcome shapes of the observability directory over the OTel capture (conformance-adapter
§5.8, §6.3, §6.9; the directory's header contract): span trees, log records, metric observations,
and the global-provider leak checks. They read the ``otel`` and ``metrics`` collections
(docs/TRACE.md); a case that did not capture them fails the check, never passes it.

**Span trees.** An expected span is a mapping of: ``name``, ``status``, ``status_description``,
``attributes`` (a subset, with §5.10 matchers; ``<trace_id_X>`` / ``<span_id_X>`` bind across the
whole case), ``attributes_absent`` / ``attributes_present`` (keys), ``exception_recorded`` (an
``exception`` span event), ``links`` (each ``{target_trace_id, target_span_id}``) / ``link_count``,
the payload checks ``attribute_parses_as_messages`` / ``attribute_parses_as_object`` (the attribute
is JSON that matches), ``attribute_does_not_contain`` and ``attribute_truncation`` (§5.5.5), and
``children`` — when given, *exactly* those child spans. Any other key fails the check (nothing is
silently ignored).

Siblings are matched as a set (a backtracking assignment, bindings threaded through), because
§7 leaves the order of fan-out instances and parallel branches undetermined. Where the order *is*
determined — two sibling spans that did not overlap in time ran one after the other — the fixture's
order must agree with it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..ast.nodes import Mapping, Scalar, Sequence
from ..diagnostics import Span
from ..values import literal
from ..kinds import is_mapping, is_sequence
from .matchers import Match, Mismatch, match, show
from .rules import FAILED, UNVERIFIED, VERIFIED, Check, Context, Rule, collection, first_difference, shape, verdict

OBS = "observability"


# ---------------------------------------------------------------------------------------------
# The captured spans as a forest


def otel(ctx: Context) -> Any:
    return collection(ctx, "otel", "the case captured no OTel spans (no OTel capture is installed for it)")


@dataclass(frozen=True)
class Forest:
    """Spans indexed by id; children in start order; roots are spans whose parent was not exported."""

    spans: tuple[Any, ...]

    @property
    def by_id(self) -> dict[str, Any]:
        return {span["span_id"]: span for span in self.spans}

    def children(self, span: Any) -> list[Any]:
        return sorted((s for s in self.spans if s["parent_span_id"] == span["span_id"]), key=_started)

    def roots(self) -> list[Any]:
        ids = self.by_id
        return sorted((s for s in self.spans if s["parent_span_id"] not in ids), key=_started)

    def traces(self) -> dict[str, list[Any]]:
        """trace_id → that trace's root spans (a trace's spans may have several roots)."""
        grouped: dict[str, list[Any]] = {}
        for root in self.roots():
            grouped.setdefault(root["trace_id"], []).append(root)
        return grouped


def _started(span: Any) -> int:
    return span["start_sequence"]


def forest(ctx: Context, which: str = "spans") -> Forest:
    captured = otel(ctx)
    if which not in captured:
        raise LookupError(f"the case captured no {which} (caller_global_otel_active is not set)" if which == "global_spans"
                          else f"the OTel capture holds no {which}")
    return Forest(tuple(captured[which]))


# ---------------------------------------------------------------------------------------------
# Matching one expected span (and its subtree)


def _problem(path: str, expected: str, actual: Any, span: Span | None) -> Mismatch:
    return Mismatch(path, expected, actual if isinstance(actual, str) else show(actual), span)


def _json(value: Any) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"not a string: {show(value)}")
    return json.loads(value)


def _synthetic_prefixes(kind: str) -> list[str]:
    from ..synthetic import forbidden_prefixes

    return forbidden_prefixes(kind)


def _truncation_problems(key: str, rules: Mapping, value: Any, path: str) -> list[Mismatch]:
    """§5.5.5: byte cap, marker shape, UTF-8 validity, and the kept bytes being a prefix of the
    untruncated serialization (the marker's byte total must exceed what was kept)."""
    problems: list[Mismatch] = []
    if not isinstance(value, str):
        return [_problem(f"{path}.{key}", "a string attribute", value, rules.span)]
    encoded = value.encode("utf-8", errors="surrogatepass")
    for rule, want in rules.items():
        where = rules.key_span(rule)
        if rule == "max_bytes":
            if len(encoded) > want.value:
                problems.append(_problem(f"{path}.{key}", f"at most {want.value} bytes", f"{len(encoded)} bytes", where))
        elif rule == "marker_pattern":
            if re.search(want.value, value) is None:
                problems.append(_problem(f"{path}.{key}", f"to end with the marker /{want.value}/", value[-80:], where))
        elif rule == "utf8_valid":
            try:
                encoded.decode("utf-8")
                valid = True
            except UnicodeDecodeError:
                valid = False
            if valid != want.value:
                problems.append(_problem(f"{path}.{key}", f"utf8_valid {want.value}", valid, where))
        elif rule == "prefix_of_full_serialization":
            marker = re.search(r"…\[truncated, ([0-9]+) bytes total\]$", value)
            kept = len(value[: marker.start()].encode("utf-8")) if marker else None
            ok = marker is not None and int(marker.group(1)) > kept
            if ok != want.value:
                problems.append(_problem(f"{path}.{key}", "the kept bytes to be a proper prefix of the full serialization "
                                         "(marker total > bytes kept)", value[-80:], where))
        else:
            problems.append(_problem(f"{path}.{key}.{rule}", "a known truncation check", "unknown check", where))
    return problems


INVOCATION_SPAN = "openarmature.invocation"


def success_read_as_ok(span: Any) -> str:
    """The span's status as the fixtures name it. §4.2's table assigns `OK` to a successful *node*
    and has no success row for the invocation span; the runtime leaves that span `UNSET` on success
    (OTel's own guidance: instrumentation leaves success `UNSET`, exporters show it as OK). So an
    `UNSET` invocation span reads as `OK`; every other span must carry `OK` itself."""
    if span["status"] == "UNSET" and span["name"] == INVOCATION_SPAN:
        return "OK"
    return span["status"]


# Attribute expectations that are not values but checks (the directory's attribution fixtures):
# `{harness_parameterized: implementation_name}` — equals the implementation's own canonical name;
# `{non_empty_string: true}` — a non-empty string.
ATTRIBUTE_CHECKS = frozenset(("harness_parameterized", "non_empty_string"))


def harness_parameter(name: str) -> Any:
    """A value the harness supplies for the implementation under test."""
    from ..host.identity import implementation_identity

    values = {key: value for key, value in implementation_identity().items() if key != "spec_version"}
    if values.get(name) is None:
        raise LookupError(f"no harness parameter {name!r}")
    return values[name]


def match_attributes(expected: Any, actual: Any, bindings: Any, path: str) -> Match:
    """An attribute map, as a subset, where a value may be an attribute check (ATTRIBUTE_CHECKS)."""
    if not isinstance(expected, Mapping):
        return match(expected, actual, bindings, path, "subset")
    problems: list[Mismatch] = []
    for key, want in expected.items():
        here, where = f"{path}.{key}", expected.key_span(key)
        if key not in actual:
            problems.append(_problem(here, "present", "<absent>", where))
            continue
        value = actual[key]
        if isinstance(want, Mapping) and want.keys and set(want.keys) <= ATTRIBUTE_CHECKS:
            for check, rule in want.items():
                if check == "non_empty_string" and (isinstance(value, str) and value != "") != bool(rule.value):
                    problems.append(_problem(here, f"non_empty_string: {rule.value}", value, want.key_span(check)))
                if check == "harness_parameterized":
                    try:
                        wanted = harness_parameter(rule.value)
                    except LookupError as missing:
                        problems.append(_problem(here, str(missing), value, want.key_span(check)))
                        continue
                    if value != wanted:
                        problems.append(_problem(here, f"{wanted!r} (the implementation's {rule.value})", value, want.key_span(check)))
            continue
        result = match(want, value, bindings, here, "subset")
        bindings, problems = result.bindings, problems + list(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class SpanMatcher:
    """Matches expected span mappings against the spans of one forest."""

    forest: Forest

    def match(self, expected: Any, span: Any, bindings: Any, path: str) -> Match:
        problems: list[Mismatch] = []
        if not isinstance(expected, Mapping):
            return Match(False, bindings, (_problem(path, "a span mapping", literal(expected), getattr(expected, "span", None)),))
        attributes = span["attributes"]
        for key, want in expected.items():
            where = expected.key_span(key)
            here = f"{path}.{key}"
            if key == "status":
                result = match(want, success_read_as_ok(span), bindings, here)
                bindings, problems = result.bindings, problems + list(result.mismatches)
            elif key in ("name", "status_description"):
                result = match(want, span[key], bindings, here)
                bindings, problems = result.bindings, problems + list(result.mismatches)
            elif key == "attributes":
                result = match_attributes(want, attributes, bindings, here)
                bindings, problems = result.bindings, problems + list(result.mismatches)
            elif key in ("attributes_absent", "attributes_present"):
                present = key == "attributes_present"
                for item in want.items:
                    if (item.value in attributes) != present:
                        problems.append(_problem(f"{here}[{item.value}]", "present" if present else "absent",
                                                 "absent" if present else f"present = {show(attributes[item.value])}", item.span))
            elif key == "exception_recorded":
                recorded = any(event["name"] == "exception" for event in span["events"])
                if recorded != want.value:
                    problems.append(_problem(here, f"exception event recorded: {want.value}", recorded, where))
            elif key == "link_count":
                if len(span["links"]) != want.value:
                    problems.append(_problem(here, f"{want.value} links", len(span["links"]), where))
            elif key == "links":
                bindings, found = assign(want.items, list(span["links"]), _link_matcher, bindings, here, where)
                problems += found
            elif key == "children":
                bindings, found = assign(want.items, self.forest.children(span), self.match, bindings, here, where, ordered_by_time=True)
                problems += found
            elif key in ("attribute_parses_as_messages", "attribute_parses_as_object"):
                for attribute, shape_of in want.items():
                    at = f"{here}.{attribute}"
                    if attribute not in attributes:
                        problems.append(_problem(at, "present", "absent", want.key_span(attribute)))
                        continue
                    try:
                        parsed = _json(attributes[attribute])
                    except ValueError as error:
                        problems.append(_problem(at, "a JSON document", f"{error}", want.key_span(attribute)))
                        continue
                    result = match(shape_of, parsed, bindings, at, "subset")
                    bindings, problems = result.bindings, problems + list(result.mismatches)
            elif key == "attribute_does_not_contain":
                for attribute, rule in want.items():
                    at = f"{here}.{attribute}"
                    value = attributes.get(attribute)
                    if not isinstance(value, str):
                        problems.append(_problem(at, "a string attribute to search", value, want.key_span(attribute)))
                        continue
                    kind = rule.get("forbidden_substring_kind") if isinstance(rule, Mapping) else None
                    substrings = _synthetic_prefixes(kind.value) if kind is not None else [literal(rule)]
                    for substring in substrings:
                        if substring in value:
                            problems.append(_problem(at, f"not to contain {substring[:40]!r}", "it does", want.key_span(attribute)))
            elif key == "attribute_truncation":
                for attribute, rules in want.items():
                    problems += _truncation_problems(attribute, rules, attributes.get(attribute), here)
            else:
                problems.append(_problem(here, "a span expectation key this adapter checks", f"unknown key {key!r}", where))
        return Match(not problems, bindings, tuple(problems))


def _link_matcher(expected: Any, link: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        field = {"target_trace_id": "trace_id", "target_span_id": "span_id"}.get(key)
        if field is None and key == "attributes":
            result = match(want, link["attributes"], bindings, f"{path}.{key}", "subset")
        elif field is None:
            problems.append(_problem(f"{path}.{key}", "target_trace_id / target_span_id / attributes", f"unknown key {key!r}", expected.key_span(key)))
            continue
        else:
            result = match(want, link[field], bindings, f"{path}.{key}")
        bindings = result.bindings
        problems += result.mismatches
    return Match(not problems, bindings, tuple(problems))


def _overlap(a: Any, b: Any) -> bool:
    return a["start_sequence"] < b["end_sequence"] and b["start_sequence"] < a["end_sequence"]


def assign(expected: Iterable[Any], actual: list[Any], matcher: Callable[..., Match], bindings: Any, path: str,
           span: Span | None, ordered_by_time: bool = False) -> tuple[Any, list[Mismatch]]:
    """Match ``expected`` to ``actual`` one to one, in any order (backtracking; bindings threaded).

    With ``ordered_by_time``, two actual items that did not overlap in time must be matched by
    expected items in the same order. Returns the bindings and the mismatches (none on success)."""
    expected = list(expected)
    if len(expected) != len(actual):
        names = [item.get("name") for item in actual] if actual and is_mapping(actual[0]) else actual
        return bindings, [_problem(path, f"{len(expected)} items", f"{len(actual)}: {show(names)}", span)]
    chosen: list[int] = []

    def order_ok(index: int, candidate: int) -> bool:
        if not ordered_by_time:
            return True
        for earlier_expected, earlier_actual in enumerate(chosen):
            a, b = actual[earlier_actual], actual[candidate]
            if not _overlap(a, b) and a["start_sequence"] > b["start_sequence"]:
                return False
        return True

    def search(index: int, current: Any) -> Any:
        if index == len(expected):
            return current
        for candidate in range(len(actual)):
            if candidate in chosen or not order_ok(index, candidate):
                continue
            result = matcher(expected[index], actual[candidate], current, f"{path}[{index}]")
            if result.ok:
                chosen.append(candidate)
                found = search(index + 1, result.bindings)
                if found is not None:
                    return found
                chosen.pop()
        return None

    found = search(0, bindings)
    if found is not None:
        return found, []
    return bindings, _explain(expected, actual, matcher, bindings, path, span)


def _explain(expected: list[Any], actual: list[Any], matcher: Callable[..., Match], bindings: Any, path: str,
             span: Span | None) -> list[Mismatch]:
    """Why no assignment exists: the first expected item no actual item matches, against its
    closest candidate (same name, else same position); or, if each matches alone, the conflict."""
    for index, want in enumerate(expected):
        results = [matcher(want, item, bindings, f"{path}[{index}]") for item in actual]
        if any(result.ok for result in results):
            continue
        name = want.get("name") if isinstance(want, Mapping) else None
        named = [i for i, item in enumerate(actual) if name is not None and is_mapping(item) and _name_ok(name, item)]
        closest = min(named or range(len(actual)), key=lambda i: (len(results[i].mismatches), i != index)) if actual else None
        if closest is None:
            return [_problem(f"{path}[{index}]", "a matching item", "nothing to match", getattr(want, "span", span))]
        return list(results[closest].mismatches)
    return [_problem(path, "one consistent assignment of the expected items (bindings, time order)",
                     "each matches alone, not all together", span)]


def _name_ok(name: Any, item: Any) -> bool:
    return match(name, item.get("name")).ok


# ---------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class SpanForestRule(Rule):
    """Exactly the expected root spans (each with its subtree) among the selected roots."""

    name: str
    span: Span | None
    expected: Any  # Sequence of span mappings
    select: Callable[[Context], tuple[Forest, list[Any]]]

    @property
    def expects_failure(self) -> bool:
        """An expected ERROR invocation span describes a failed run (the case expects the error)."""
        return describes_failed_invocation(self.expected)

    def evaluate(self, ctx: Context, bindings: Any):
        spans, roots = self.select(ctx)
        items = self.expected.items if isinstance(self.expected, Sequence) else (self.expected,)
        bindings, problems = assign(items, roots, SpanMatcher(spans).match, bindings, self.name.split(".", 1)[-1], self.span,
                                    ordered_by_time=True)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def describes_failed_invocation(expected: Any) -> bool:
    items = expected.items if isinstance(expected, Sequence) else (expected,)
    for item in items:
        if isinstance(item, Mapping):
            name, status = item.get("name"), item.get("status")
            if isinstance(name, Scalar) and name.value == INVOCATION_SPAN and isinstance(status, Scalar) and status.value == "ERROR":
                return True
    return False


def all_roots(which: str = "spans") -> Callable[[Context], tuple[Forest, list[Any]]]:
    def select(ctx: Context) -> tuple[Forest, list[Any]]:
        spans = forest(ctx, which)
        return spans, spans.roots()

    return select


@shape("span_tree")
def _span_tree(node: Any, span: Span | None) -> Rule:
    return SpanForestRule("expected.span_tree", span, node, all_roots())


@shape("span_tree_private")
def _span_tree_private(node: Any, span: Span | None) -> Rule:
    return SpanForestRule("expected.span_tree_private", span, node, all_roots())


@shape("span_tree_global")
def _span_tree_global(node: Any, span: Span | None) -> Rule:
    return SpanForestRule("expected.span_tree_global", span, node, all_roots("global_spans"))


def _main_trace_id(spans: Forest) -> str:
    """The trace the invocation started in: the trace of the first span started."""
    if not spans.spans:
        raise LookupError("no span was exported")
    return min(spans.spans, key=_started)["trace_id"]


@dataclass(frozen=True)
class TracesRule(Rule):
    """`traces:` — exactly these traces, each `{trace_id, span_tree}`, matched in any order."""

    name: str
    span: Span | None
    expected: Any

    @property
    def expects_failure(self) -> bool:
        return any(describes_failed_invocation(item.span_tree) for item in self.expected.items)

    def evaluate(self, ctx: Context, bindings: Any):
        spans = forest(ctx)
        traces = list(spans.traces().items())

        def one(want: Any, actual: Any, current: Any, path: str) -> Match:
            trace_id, roots = actual
            problems: list[Mismatch] = []
            if want.get("trace_id") is not None:
                result = match(want.trace_id, trace_id, current, f"{path}.trace_id")
                current, problems = result.bindings, list(result.mismatches)
                if problems:
                    return Match(False, current, tuple(problems))
            current, found = assign(want.span_tree.items, roots, SpanMatcher(spans).match, current, f"{path}.span_tree",
                                    want.key_span("span_tree"), ordered_by_time=True)
            return Match(not found, current, tuple(found))

        bindings, problems = assign(self.expected.items, traces, one, bindings, "traces", self.span)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@shape("traces", capability=OBS)
def _traces(node: Any, span: Span | None) -> Rule:
    return TracesRule("expected.traces", span, node)


@shape("parent_trace", capability=OBS)
def _parent_trace(node: Any, span: Span | None) -> Rule:
    def select(ctx: Context) -> tuple[Forest, list[Any]]:
        spans = forest(ctx)
        return spans, spans.traces()[_main_trace_id(spans)]

    return SpanForestRule("expected.parent_trace.span_tree", node.key_span("span_tree"), node.get("span_tree"), select)


# What `determinism_check.compare` may name, and the part of a span each one keeps (§10: hierarchy,
# names, status, attributes minus the ignored ones; ids and timestamps are never compared).
DETERMINISM_ASPECTS = ("span_tree_structure", "span_names", "span_status", "span_attributes_excluding_ignored")


def _deterministic(span: Any, spans: Forest, aspects: set[str], ignored: list[str]) -> dict[str, Any]:
    import fnmatch

    kept: dict[str, Any] = {}
    if "span_names" in aspects:
        kept["name"] = span["name"]
    if "span_status" in aspects:
        kept["status"] = span["status"]
    if "span_attributes_excluding_ignored" in aspects:
        kept["attributes"] = {key: value for key, value in span["attributes"].items()
                              if not any(fnmatch.fnmatchcase(key, pattern) for pattern in ignored)}
    if "span_tree_structure" in aspects:  # siblings as a set (§7): ordered by their own content
        children = [_deterministic(child, spans, aspects, ignored) for child in spans.children(span)]
        kept["children"] = sorted(children, key=lambda child: json.dumps(child, sort_keys=True, default=str))
    return kept


@dataclass(frozen=True)
class DeterminismRule(Rule):
    """`determinism_check`: the span trees of two runs of the case (one trace per invocation, in run
    order) compared on the aspects `compare` names, minus `ignore_attributes` (glob patterns)."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        spans = forest(ctx)
        runs = list(spans.traces().values())
        named = literal(self.expected.get("compare_runs"))
        if not (is_sequence(named) and len(set(named)) == len(named) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in named)):  # a run equals itself
            return (Check(self.name, FAILED, self.span, f"compare_runs: expected two distinct run indices, got {show(named)}",
                          self.expected.key_span("compare_runs")),), bindings
        first, second = named
        if max(first, second) >= len(runs):
            raise LookupError(f"runs {first} and {second} compared, but {len(runs)} traces were exported")
        aspects = set(literal(self.expected.get("compare")))
        unknown = aspects - set(DETERMINISM_ASPECTS)
        if unknown:
            return (Check(self.name, UNVERIFIED, self.span, f"not implemented: compare {sorted(unknown)}"),), bindings
        ignored = list(literal(self.expected.get("ignore_attributes")) or [])
        trees = [[_deterministic(root, spans, aspects, ignored) for root in runs[index]] for index in (first, second)]
        difference = first_difference(trees[0], trees[1], "span_tree")
        want_equal = bool(literal(self.expected.get("require_equal")))
        if (difference is None) == want_equal:
            return (Check(self.name, VERIFIED, self.span),), bindings
        if difference is None:
            return (Check(self.name, FAILED, self.span, f"runs {first} and {second} are identical, expected them to differ"),), bindings
        where, left, right = difference
        return (Check(self.name, FAILED, self.span, f"runs {first} and {second} differ at {where}: {show(left)} vs {show(right)}"),), bindings


@shape("determinism_check", capability=OBS)
def _determinism_check(node: Any, span: Span | None) -> Rule:
    return DeterminismRule("expected.determinism_check", span, node)


# ---------------------------------------------------------------------------------------------
# Flags over the captured spans


@dataclass(frozen=True)
class SpanFlagRule(Rule):
    """A boolean claim about the exported spans: ``offending`` lists the spans that would make the
    claim false; the fixture's ``true`` requires none, ``false`` at least one."""

    name: str
    span: Span | None
    expected: Any
    offending: Callable[[Context], list[Any]]
    claim: str

    def evaluate(self, ctx: Context, bindings: Any):
        found = self.offending(ctx)
        holds = not found
        if holds == bool(self.expected.value):
            return (Check(self.name, VERIFIED, self.span),), bindings
        detail = (f"{self.claim}, but found {show([s.get('name') for s in found][:8])}" if found
                  else f"expected the opposite of: {self.claim}")
        return (Check(self.name, FAILED, self.span, detail),), bindings


def _openarmature(span: Any) -> bool:
    return span.get("scope") == "openarmature" or span["name"].startswith("openarmature.") or any(
        key.startswith("openarmature.") for key in span["attributes"])


LLM_SPAN = "openarmature.llm.complete"


def _flag(directive: str, claim: str, offending: Callable[[Context], list[Any]]) -> None:
    shape(directive, capability=OBS)(lambda node, span: SpanFlagRule(f"expected.{directive}", span, node, offending, claim))


def _spans(ctx: Context, which: str = "spans") -> list[Any]:
    return list(forest(ctx, which).spans)


_flag("no_openarmature_spans_on_global", "no openarmature span reached the global TracerProvider",
      lambda ctx: [s for s in _spans(ctx, "global_spans") if _openarmature(s)])
_flag("no_spans_emitted", "no span was emitted", _spans)
_flag("no_llm_provider_span", "no LLM provider span was emitted", lambda ctx: [s for s in _spans(ctx) if s["name"] == LLM_SPAN])
_flag("no_edge_spans", "no span was emitted for an edge",
      lambda ctx: [s for s in _spans(ctx) if any(key.startswith("openarmature.edge") for key in s["attributes"]) or "edge" in s["name"].lower()])


def only(found: list[Any], what: str) -> Any:
    """The single item a shape about "the" LLM call reads; anything else is nothing to compare."""
    if len(found) != 1:
        raise LookupError(f"expected exactly one {what}, the case has {len(found)}")
    return found[0]


def llm_span(ctx: Context) -> Any:
    return only([s for s in _spans(ctx) if s["name"] == LLM_SPAN], f"{LLM_SPAN} span")


@shape("llm_span_attributes", capability=OBS)
def _llm_span_attributes(node: Any, span: Span | None) -> Rule:
    from .rules import ValueRule

    return ValueRule("expected.llm_span_attributes", span, node, lambda ctx: llm_span(ctx)["attributes"], "subset")


@dataclass(frozen=True)
class AttributesAbsent(Rule):
    name: str
    span: Span | None
    expected: Any
    select: Callable[[Context], Any]

    def evaluate(self, ctx: Context, bindings: Any):
        attributes = self.select(ctx)
        problems = [_problem(f"{self.name}[{item.value}]", "absent", f"present = {show(attributes[item.value])}", item.span)
                    for item in self.expected.items if item.value in attributes]
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@shape("llm_span_attributes_absent", capability=OBS)
def _llm_span_attributes_absent(node: Any, span: Span | None) -> Rule:
    return AttributesAbsent("expected.llm_span_attributes_absent", span, node, lambda ctx: llm_span(ctx)["attributes"])


def invocation_spans(ctx: Context) -> list[Any]:
    return [s for s in _spans(ctx) if s["name"] == "openarmature.invocation"]


@shape("invocation_id", capability=OBS)
def _invocation_id(node: Any, span: Span | None) -> Rule:
    from .rules import ValueRule

    def select(ctx: Context) -> Any:
        ids = {s["attributes"].get("openarmature.invocation_id") for s in invocation_spans(ctx)}
        if len(ids) != 1:
            raise LookupError(f"expected one invocation id on the invocation spans, found {sorted(map(str, ids))}")
        return ids.pop()

    return ValueRule("expected.invocation_id", span, node, select)


@shape("invocation_count", capability=OBS)
def _invocation_count(node: Any, span: Span | None) -> Rule:
    from .rules import ValueRule

    return ValueRule("expected.invocation_count", span, node, lambda ctx: len(ctx.trace.invocations))


@shape("direct_call_result", capability=OBS)
def _direct_call_result(node: Any, span: Span | None) -> Rule:
    """What the case's ``direct_call`` returned (value, type, exception; observability_direct.py)."""
    from .rules import ValueRule

    def select(ctx: Context) -> Any:
        calls = collection(ctx, "calls", "the case made no direct call")
        if not calls or "result" not in calls[0]:
            raise LookupError("the case made no direct call")
        return calls[0]["result"]

    return ValueRule("expected.direct_call_result", span, node, select)


@dataclass(frozen=True)
class StateBoundsRule(Rule):
    """`final_state_bounds: {field: {min?, max?}}` — each field of the final state is a number
    within its inclusive bounds (a value the spec bounds but does not pin, e.g. a concurrent read)."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        from .rules import final_state

        state = final_state(ctx)
        problems: list[Mismatch] = []
        for field_name, bounds in self.expected.items():
            where = self.expected.key_span(field_name)
            value = state.get(field_name, "<absent>") if is_mapping(state) else getattr(state, field_name, "<absent>")
            low, high = literal(bounds.get("min")), literal(bounds.get("max"))
            wanted = f"a number in [{'-inf' if low is None else low}, {'inf' if high is None else high}]"
            integral = isinstance(low, int) and isinstance(high, int)  # integer bounds bound an integer
            if isinstance(value, bool) or not isinstance(value, int if integral else (int, float)):
                problems.append(Mismatch(f"final_state_bounds.{field_name}", wanted, show(value), where))
            elif (low is not None and value < low) or (high is not None and value > high):
                problems.append(Mismatch(f"final_state_bounds.{field_name}", wanted, show(value), where))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@shape("final_state_bounds", capability=OBS)
def _final_state_bounds(node: Any, span: Span | None) -> Rule:
    return StateBoundsRule("expected.final_state_bounds", span, node)


@dataclass(frozen=True)
class PerInvocationRule(Rule):
    """`per_invocation: {invocation name: {predicate: value}}` — each block's named predicates (the
    catalogue's rows) judged against that invocation of the case (`sequential_invocations`)."""

    name: str
    span: Span | None
    expected: Any

    def check(self, ctx: Context, bindings: Any):
        from dataclasses import replace

        from .catalogue.engine import RestatesRule, predicate_rule
        from .rules import Unverified

        checks: list[Check] = []
        runs = {invocation.name: invocation for invocation in ctx.trace.invocations}
        for run_name, block in self.expected.items():
            path = f"{self.name}.{run_name}"
            if run_name not in runs:
                checks.append(Check(path, FAILED, self.expected.key_span(run_name), f"no invocation named {run_name!r} ran"))
                continue
            run_context = replace(ctx, invocation=runs[run_name])
            for ref in block.predicates:
                rule = predicate_rule(OBS, ref.name, ref.value, ref.span, path)
                if rule is None or isinstance(rule, RestatesRule):  # a restatement reads a whole block's verdicts
                    rule = Unverified(f"{path}.{ref.name}", ref.span, f"not implemented: predicate {ref.name!r}")
                found, bindings = rule.check(run_context, bindings)
                checks.extend(found)
        return tuple(checks), bindings


@shape("per_invocation", capability=OBS)
def _per_invocation(node: Any, span: Span | None) -> Rule:
    return PerInvocationRule("expected.per_invocation", span, node)


# ---------------------------------------------------------------------------------------------
# Log records and metric observations


def _log_view(record: Any) -> dict[str, Any]:
    """A log record as the fixtures address it: its trace context (``trace_id`` / ``span_id``, the
    OTel LogRecord fields) is read under ``attributes`` beside the record's own attributes."""
    attributes = dict(record["attributes"])
    for key in ("trace_id", "span_id"):
        if record.get(key) is not None:
            attributes.setdefault(key, record[key])
    # `level` (conformance-adapter §5.5, proposal 0116): the record's severity, a first-class
    # LogRecord field, under one name whichever naming the emitter used (severity_level).
    return {"body": record["body"], "attributes": attributes, "severity_text": record["severity_text"],
            "level": severity_level(record["severity_text"]), "event_name": record.get("event_name")}


# The level names Python's logging and OpenTelemetry both use, under OpenTelemetry's short names:
# a fixture's `level: WARNING` is the record the OTel bridge names WARN.
_LEVEL_ALIASES = {"WARNING": "WARN", "CRITICAL": "FATAL"}


def severity_level(name: Any) -> Any:
    """A severity name as one level: upper case, Python's WARNING / CRITICAL as OTel's WARN / FATAL."""
    if not isinstance(name, str):
        return name
    return _LEVEL_ALIASES.get(name.upper(), name.upper())


def _log_matcher(expected: Any, record: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    view = _log_view(record)
    for key, want in expected.items():
        if key == "attributes_absent":
            problems += [_problem(f"{path}.attributes[{i.value}]", "absent", "present", i.span) for i in want.items if i.value in view["attributes"]]
            continue
        if key not in view:
            problems.append(_problem(f"{path}.{key}", "a log-record field (body, attributes, severity_text, level, event_name)", f"unknown key {key!r}", expected.key_span(key)))
            continue
        if key == "level" and isinstance(want, Scalar):
            want = want.set(value=severity_level(want.value))
        result = match(want, view[key], bindings, f"{path}.{key}", "subset")
        bindings, problems = result.bindings, problems + list(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class LogRecordsRule(Rule):
    """The expected log records, each matched by an emitted record, in emission order; records in
    between are allowed. Observability 158's sidecar states the reading: an expected record names
    what must have been logged ("without the name … an unrelated WARNING satisfies the assertion"),
    not every record the run emits."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        records = list(otel(ctx)["logs"])
        problems: list[Mismatch] = []
        start = 0
        for index, want in enumerate(self.expected.items):
            path = f"log_records[{index}]"
            for position in range(start, len(records)):
                result = _log_matcher(want, records[position], bindings, path)
                if result.ok:
                    bindings, start = result.bindings, position + 1
                    break
            else:
                left = records[start:]
                nearest = _log_matcher(want, left[0], bindings, path).mismatches if left else ()
                problems.append(_problem(path, "a matching record", f"none of the {len(left)} records after the "
                                         f"previous match matches: {show([r['body'] for r in left])}", want.span))
                problems.extend(nearest)
                break
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@shape("log_records")
def _log_records(node: Any, span: Span | None) -> Rule:
    return LogRecordsRule("expected.log_records", span, node)


def metrics(ctx: Context) -> list[Any]:
    collections = ctx.trace.collections
    if "metrics" not in collections:
        if "otel" in collections:  # the capture ran with metrics off: nothing was recorded
            return []
        raise LookupError("the case captured no metrics")
    return list(collections["metrics"])


def _metric_matcher(expected: Any, observation: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        here = f"{path}.{key}"
        if key == "instrument":
            result = match(want, observation["instrument"], bindings, here)
        elif key == "dimensions":  # §11.3: the observation's dimensions, exactly
            result = match(want, observation["dimensions"], bindings, here, "exact")
        elif key == "value":
            result = match(want, observation["value"], bindings, here)
        else:
            problems.append(_problem(here, "instrument / dimensions / value", f"unknown key {key!r}", expected.key_span(key)))
            continue
        bindings, problems = result.bindings, problems + list(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class MetricsRule(Rule):
    """The recorded observations as a set (§6.9): instrument + dimensions for each, the value where
    the fixture gives one (§11.4: durations are asserted for presence only).

    Exhaustive per instrument: on every instrument the list names, the observations are exactly the
    listed ones; `metrics: []` says nothing was recorded at all. (The token-budget fixtures list only
    the budget instruments beside token-usage and duration observations they leave unasserted.)"""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        observed = metrics(ctx)
        named = {item.instrument.value for item in self.expected.items}
        if named:
            observed = [o for o in observed if o["instrument"] in named]
        summary = lambda: show([(o["instrument"].rsplit(".", 1)[-1], dict(o["dimensions"]), o["value"]) for o in observed])
        if len(observed) != len(self.expected.items):
            problem = _problem("metrics", f"{len(self.expected.items)} observations", f"{len(observed)}: {summary()}", self.span)
            return (verdict(self.name, self.span, Match(False, bindings, (problem,))),), bindings
        bindings, problems = assign(self.expected.items, observed, _metric_matcher, bindings, "metrics", self.span)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@shape("metrics", capability=OBS)
def _metrics(node: Any, span: Span | None) -> Rule:
    return MetricsRule("expected.metrics", span, node)


__all__ = ["Forest", "SpanMatcher", "assign", "forest", "llm_span", "metrics", "otel"]


# ---------------------------------------------------------------------------------------------
# Rejections (observability §3.4: reserved metadata keys)


@dataclass(frozen=True)
class RejectionRule(Rule):
    """`invoke_rejects_at_api_boundary` / `augment_rejects_at_call_site`: the run failed, and where.
    ``true`` accounts for the failure (the case expects it)."""

    name: str
    span: Span | None
    expected: Any
    where: str  # "api_boundary" | "call_site"

    @property
    def expects_failure(self) -> bool:
        return bool(self.expected.value)

    def evaluate(self, ctx: Context, bindings: Any):
        from .rules import invocation_of

        invocation = invocation_of(ctx)
        if self.where == "api_boundary":
            ran = [entry["node"] for entry in invocation.node_log]
            holds = invocation.outcome == "errored" and not ran and not invocation.execution_order
            detail = (f"invoke() {invocation.outcome}" if invocation.outcome != "errored"
                      else f"invoke() raised only after work began: nodes ran {show(ran or list(invocation.execution_order))}")
        else:
            rejected = [entry for kind, entry in ctx.trace.middleware_log if kind == "call_site_rejected"]
            holds = invocation.outcome == "errored" and bool(rejected)
            detail = (f"invoke() {invocation.outcome}" if invocation.outcome != "errored"
                      else "the run failed, but no set_invocation_metadata call raised at its call site")
        if holds == bool(self.expected.value):
            return (Check(self.name, VERIFIED, self.span),), bindings
        return (Check(self.name, FAILED, self.span, detail if not holds else "the rejection happened"),), bindings


@shape("invoke_rejects_at_api_boundary", capability=OBS)
def _invoke_rejects(node: Any, span: Span | None) -> Rule:
    return RejectionRule("expected.invoke_rejects_at_api_boundary", span, node, "api_boundary")


@shape("augment_rejects_at_call_site", capability=OBS)
def _augment_rejects(node: Any, span: Span | None) -> Rule:
    return RejectionRule("expected.augment_rejects_at_call_site", span, node, "call_site")


def llm_response(ctx: Context) -> Any:
    responses = ctx.trace.collections.get("llm_responses")
    if responses is None:
        raise LookupError("the case captured no LLM response (no mock LLM)")
    return only(list(responses), "LLM response")


@shape("response_usage", capability=OBS)
def _response_usage(node: Any, span: Span | None) -> Rule:
    """The one LLM call's `Response.usage`: the fields the fixture names (null: reported absent)."""
    from .rules import ValueRule

    return ValueRule("expected.response_usage", span, node, lambda ctx: llm_response(ctx)["usage"], "subset")
