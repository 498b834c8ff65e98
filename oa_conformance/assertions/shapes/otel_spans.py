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
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ...ast.nodes import Mapping, Scalar, Sequence
from ...model.diagnostics import Span
from ...ast.values import literal
from ...model.kinds import is_mapping, is_sequence
from ..matchers import Bindings, Match, Mismatch, absorb, first_difference, match, show
from ..rules import Check, CheckStatus, Context, Rule, ShapeRow, collection, verdict
from .truncation import truncation_mismatches

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
    from ...model.synthetic import forbidden_prefixes

    return forbidden_prefixes(kind)



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


def harness_parameter(bindings: Bindings, name: str) -> Any:
    """A value the harness supplies for the implementation under test (the case's recorded identity,
    :attr:`~..matchers.Bindings.harness_parameters`; an attribute check never compares the spec version)."""
    values = {key: value for key, value in bindings.harness_parameters.items() if key != "spec_version"}
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
                        wanted = harness_parameter(bindings, rule.value)
                    except LookupError as missing:
                        problems.append(_problem(here, str(missing), value, want.key_span(check)))
                        continue
                    if value != wanted:
                        problems.append(_problem(here, f"{wanted!r} (the implementation's {rule.value})", value, want.key_span(check)))
            continue
        result = match(want, value, bindings, here, "subset")
        bindings = absorb(problems, result)
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
                bindings = absorb(problems, result)
            elif key in ("name", "status_description"):
                result = match(want, span[key], bindings, here)
                bindings = absorb(problems, result)
            elif key == "attributes":
                result = match_attributes(want, attributes, bindings, here)
                bindings = absorb(problems, result)
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
                    bindings = absorb(problems, result)
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
                problems += truncation_mismatches(want, attributes, None, here, "attribute")
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
        for earlier_actual in chosen:
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
        named = [i for i, item in enumerate(actual) if name is not None and is_mapping(item) and _name_ok(name, item, bindings)]
        closest = min(named or range(len(actual)), key=lambda i: (len(results[i].mismatches), i != index)) if actual else None
        if closest is None:
            return [_problem(f"{path}[{index}]", "a matching item", "nothing to match", getattr(want, "span", span))]
        return list(results[closest].mismatches)
    return [_problem(path, "one consistent assignment of the expected items (bindings, time order)",
                     "each matches alone, not all together", span)]


def _name_ok(name: Any, item: Any, bindings: Bindings) -> bool:
    return match(name, item.get("name"), bindings.fresh()).ok


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


def _span_tree(node: Any, span: Span | None) -> Rule:
    return SpanForestRule("expected.span_tree", span, node, all_roots())


def _span_tree_private(node: Any, span: Span | None) -> Rule:
    return SpanForestRule("expected.span_tree_private", span, node, all_roots())


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
            if want.trace_id is not None:
                result = match(want.trace_id, trace_id, current, f"{path}.trace_id")
                current, problems = result.bindings, list(result.mismatches)
                if problems:
                    return Match(False, current, tuple(problems))
            current, found = assign(want.span_tree.items, roots, SpanMatcher(spans).match, current, f"{path}.span_tree",
                                    want.key_span("span_tree"), ordered_by_time=True)
            return Match(not found, current, tuple(found))

        bindings, problems = assign(self.expected.items, traces, one, bindings, "traces", self.span)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _traces(node: Any, span: Span | None) -> Rule:
    return TracesRule("expected.traces", span, node)


def _parent_trace(node: Any, span: Span | None) -> Rule:
    def select(ctx: Context) -> tuple[Forest, list[Any]]:
        spans = forest(ctx)
        return spans, spans.traces()[_main_trace_id(spans)]

    return SpanForestRule("expected.parent_trace.span_tree", node.key_span("span_tree"), node.span_tree, select)


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
            return (Check(self.name, CheckStatus.FAILED, self.span, f"compare_runs: expected two distinct run indices, got {show(named)}",
                          self.expected.key_span("compare_runs")),), bindings
        first, second = named
        if max(first, second) >= len(runs):
            raise LookupError(f"runs {first} and {second} compared, but {len(runs)} traces were exported")
        aspects = set(literal(self.expected.get("compare")))
        unknown = aspects - set(DETERMINISM_ASPECTS)
        if unknown:
            return (Check(self.name, CheckStatus.UNVERIFIED, self.span, f"not implemented: compare {sorted(unknown)}"),), bindings
        ignored = list(literal(self.expected.get("ignore_attributes")) or [])
        trees = [[_deterministic(root, spans, aspects, ignored) for root in runs[index]] for index in (first, second)]
        difference = first_difference(trees[0], trees[1], "span_tree")
        want_equal = bool(literal(self.expected.get("require_equal")))
        if (difference is None) == want_equal:
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        if difference is None:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"runs {first} and {second} are identical, expected them to differ"),), bindings
        where, left, right = difference
        return (Check(self.name, CheckStatus.FAILED, self.span, f"runs {first} and {second} differ at {where}: {show(left)} vs {show(right)}"),), bindings


def _determinism_check(node: Any, span: Span | None) -> Rule:
    return DeterminismRule("expected.determinism_check", span, node)


# directive → rule builder: the span trees (general: sessions and suspension fixtures use them too)
SHAPES = (
    ShapeRow("span_tree", _span_tree),
    ShapeRow("span_tree_private", _span_tree_private),
    ShapeRow("span_tree_global", _span_tree_global),
    ShapeRow("traces", _traces, OBS),
    ShapeRow("parent_trace", _parent_trace, OBS),
    ShapeRow("determinism_check", _determinism_check, OBS),
)


__all__ = ["Forest", "SpanMatcher", "assign", "forest", "otel"]
