"""Expected-outcome shapes of the llm-provider directory (its §3.2 header contract, conformance-adapter
§5.11 / §5.12 / §5.15), over the ``calls`` and ``wire`` collections the directory's harness records
(interpreter/running/capabilities/llm_provider.py; docs/TRACE.md).

The assert pass checks a direct case's case-level directives that have a shape here and each key of
its ``expected:`` (assert_pass.plan). The ``call:`` shape checks the one call's
outcome; the ``calls:`` shape checks each entry's own ``expected:`` and wire directives with
``Context.call`` set to that entry's index. An expectation outside any entry is about the case's
only call (``call:`` form) or, for wire assertions, about every request the case sent. Wire assertions compare the outbound request
body **key by key**: every key the fixture names must be present with that value, and a key it
does not name must be absent (an unexpected key — even one sent as ``null`` — fails).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pyrsistent import pvector

from ...ast.nodes import FormatToken, Mapping, Scalar, Sequence
from ...model.diagnostics import Span
from ...model.trace import ErrorRecord
from ..matchers import Match, Mismatch, match, show
from ..catalogue.predicate_rules import predicate_block, references
from ..error_rules import ErrorRule
from ..rules import Check, CheckStatus, Context, Rule, SelectingRule, ShapeRow, ValueRule, AllOf, collection, verdict

LP = "llm-provider"


# ---------------------------------------------------------------------------------------------
# Selectors over the `calls` and `wire` collections


def calls_of(ctx: Context) -> Any:
    return collection(ctx, "calls", "the case made no direct provider calls")


def call_record(ctx: Context) -> Any:
    """The `calls` entry the block is about (the case's only call outside a `calls:` entry)."""
    calls = calls_of(ctx)
    if ctx.call is None:
        if len(calls) != 1:
            raise LookupError(f"this expectation is about one call, but the case made {len(calls)}")
        return calls[0]
    if ctx.call >= len(calls):
        raise LookupError(f"call {ctx.call} never ran (the case made {len(calls)} calls)")
    return calls[ctx.call]


def call_result(ctx: Context) -> Any:
    record = call_record(ctx)
    if record.get("error") is not None:
        error = record["error"]
        raise LookupError(f"{call_label(ctx)} raised {error['type']} ({error['category']}): {error['message']}")
    return record["result"]


def call_error(ctx: Context) -> ErrorRecord:
    record = call_record(ctx)
    error = record.get("error")
    if error is None:
        raise LookupError(f"{call_label(ctx)} returned without raising: {show(record.get('result'))}")
    return ErrorRecord(category=error["category"], message=error["message"], type_name=error["type"],
                       chain=tuple(error["chain"]), attributes=error["attributes"])


def wire_of(ctx: Context) -> Any:
    return collection(ctx, "wire", "the case captured no wire")


def block_requests(ctx: Context) -> list[Any]:
    """The outbound requests of the block's call (every call's, for the case as a whole)."""
    requests = wire_of(ctx)["requests"]
    if ctx.call is None:
        return list(requests)
    return [requests[i] for i in call_record(ctx)["requests"]]


def call_label(ctx: Context) -> str:
    return f"call {ctx.call}" if ctx.call is not None else "the call"


def one_request(ctx: Context) -> Any:
    """The single request the block's call sent (a wire assertion in mapping form is about one)."""
    requests = block_requests(ctx)
    if len(requests) != 1:
        raise LookupError(f"expected the call to send exactly one request; it sent {len(requests)}")
    return request_body(requests[0])


def request_body(request: Any) -> Any:
    if "json" not in request:
        raise LookupError(f"request {request['index']} has no JSON body: {request['body'][:200]!r}")
    return request["json"]


def served_body(ctx: Context) -> Any:
    """The canned body the block's call consumed last (what produced its Response)."""
    served = [r for r in wire_of(ctx)["responses"] if r["request"] in set(call_record(ctx)["requests"])]
    if not served:
        raise LookupError(f"{call_label(ctx)} consumed no canned response")
    return served[-1]["body"]


# ---------------------------------------------------------------------------------------------
# The calls: `call:` / `calls:` and the blocks inside them


@dataclass(frozen=True)
class InCall(Rule):
    """Rules about one `calls:` entry: they see ``Context.call`` set to its index."""

    name: str
    span: Span | None
    index: int
    rules: tuple[Rule, ...]

    def evaluate(self, ctx: Context, bindings: Any):
        return AllOf(self.rules).check(dataclasses.replace(ctx, call=self.index), bindings)


@dataclass(frozen=True)
class CallOutcome(Rule):
    """A call whose block expects no error must not have raised (nothing fails silently)."""

    name: str
    span: Span | None

    def evaluate(self, ctx: Context, bindings: Any):
        error = call_record(ctx).get("error")
        if error is not None:
            detail = f"{call_label(ctx)} raised unexpectedly: {error['type']} ({error['category']}): {error['message']}"
            return (Check(self.name, CheckStatus.FAILED, self.span, detail),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


def _expects_error(expected: Any) -> bool:
    return expected is not None and expected.raises is not None


def _expected(node: Any, span: Span | None, shape_rule: Any) -> Rule:
    """A call's `expected:` (the case's, for its one `call:`; an entry's, under `calls:`): each key
    through its shape (``shape_rule``: the package's table, which lists this row too), and — unless
    it expects `raises` — the call must not have raised."""

    rules: list[Rule] = [] if _expects_error(node) else [CallOutcome("expected", span)]
    rules.extend(shape_rule(key, value, node.key_span(key), LP) for key, value in node.items())
    return AllOf(tuple(rules))


def _calls(node: Any, span: Span | None, shape_rule: Any) -> Rule:
    """Each entry's own `expected:` keys and wire directives, about that call (through ``shape_rule``)."""

    rules: list[Rule] = []
    for index, step in enumerate(node.items):
        inner: list[Rule] = [] if step.expected is not None else [CallOutcome(f"calls[{index}]", step.span)]
        for directive, value in step.items():
            if directive in DIRECTIVES:  # `expected` and the wire directives
                inner.append(shape_rule(directive, value, step.key_span(directive), LP))
        rules.append(InCall(f"calls[{index}]", step.span, index, tuple(inner)))
    return AllOf(tuple(rules))


def _invariants(node: Any, span: Span | None) -> Rule:
    """An `invariants:` block under a call's `expected:`: catalogue predicates about the call."""
    return AllOf(predicate_block(LP, "expected.invariants", references(node)))


# ---------------------------------------------------------------------------------------------
# The call's outcome


# Response fields compared by the keys the fixture names (records the runtime may extend with
# optional fields, §5.13); any other field is compared exactly.
SUBSET_FIELDS = frozenset(("message", "usage"))


@dataclass(frozen=True)
class ResponseRule(SelectingRule):
    """`response:` — the returned Response: each named field, and `raw_check.required_keys` (each
    key present in ``raw`` with the value of the canned body the call consumed)."""

    def evaluate(self, ctx: Context, bindings: Any):
        response = self.select(ctx)
        problems: list[Mismatch] = []
        for key, want in self.expected.items():
            path = f"{self.name}.{key}"
            if key == "raw_check":
                problems.extend(_raw_check(want, response.get("raw"), served_body(ctx), path))
                continue
            if key not in response:
                problems.append(Mismatch(path, "present", "absent", self.expected.key_span(key)))
                continue
            result = match(want, response[key], bindings, path, "subset" if key in SUBSET_FIELDS else "exact")
            bindings = result.bindings
            problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _raw_check(spec: Mapping, raw: Any, canned: Any, path: str) -> list[Mismatch]:
    problems = []
    for key, value in spec.items():
        if key != "required_keys":
            problems.append(Mismatch(f"{path}.{key}", "a raw_check the adapter knows (required_keys)", "unknown", spec.key_span(key)))
            continue
        for item in value.items:
            name = item.value
            if raw is None or name not in raw:
                problems.append(Mismatch(f"{path}.raw.{name}", "present", "absent", item.span))
            elif not hasattr(canned, "get") or raw[name] != canned.get(name):
                problems.append(Mismatch(f"{path}.raw.{name}", f"the canned body's {show(canned.get(name) if hasattr(canned, 'get') else None)}",
                                         show(raw[name]), item.span))
    return problems


def _response(node: Any, span: Span | None) -> Rule:
    return ResponseRule("expected.response", span, node, call_result)


def _raises(node: Any, span: Span | None) -> Rule:
    return ErrorRule("expected.raises", span, node, call_error)


def _success(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.success", span, node, lambda ctx: call_record(ctx).get("error") is None)


def _provider_call_count(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.provider_call_count", span, node, lambda ctx: len(call_record(ctx)["requests"]))


def _reask_builder_after_attempts(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.reask_builder_after_attempts", span, node,
                     lambda ctx: call_record(ctx).get("reask_builder_after_attempts", []))


def _messages_unmodified(ctx: Context) -> Any:
    record = call_record(ctx)
    if "messages_unmodified" not in record:
        raise LookupError(f"{call_label(ctx)} did not return, so its messages were not compared after it")
    return record["messages_unmodified"]


def _caller_messages_unmodified(node: Any, span: Span | None) -> Rule:
    return ValueRule("expected.caller_messages_unmodified", span, node, _messages_unmodified)


# ---------------------------------------------------------------------------------------------
# The wire


# The directory's wire wildcard (headers of 021 / 026 / 027 / 041 / 051): the literal string "*" in
# an expected wire request means "present, a non-empty string, value exempt from comparison".
WIRE_WILDCARD = "*"


def with_wildcards(node: Any) -> Any:
    """The expectation with each ``"*"`` scalar rewritten to the §5.10 ``<any-string>`` matcher."""
    if isinstance(node, Scalar) and node.value == WIRE_WILDCARD:
        return FormatToken.make(kind="any-string", label=None, text='"*" (any non-empty string)', span=node.span)
    if isinstance(node, Mapping):
        return node.set(values=pvector(with_wildcards(value) for value in node.values))
    if isinstance(node, Sequence):
        return node.set(items=pvector(with_wildcards(item) for item in node.items))
    return node


@dataclass(frozen=True)
class WireRequestRule(ValueRule):
    """`expected_wire_request` — the body exactly; and, since the parsed body keeps only the last of a
    repeated key, each key the body text repeats (the wire's ``duplicate_keys``) is a mismatch too:
    an exact body sends each key once."""

    def evaluate(self, ctx: Context, bindings: Any):
        result = match(self.expected, self.select(ctx), bindings, self.name, self.mode)
        repeated = []
        for request in block_requests(ctx):
            for key, occurrences in request.get("duplicate_keys", {}).items():
                span = self.expected.key_span(key) if isinstance(self.expected, Mapping) and key in self.expected else self.span
                repeated.append(Mismatch(f"{self.name}[request {request['index']}].{key}", "the key once in the body",
                                         f"{occurrences} occurrences", span))
        if repeated:
            result = Match(False, result.bindings, (*repeated, *result.mismatches))
        return (verdict(self.name, self.span, result),), result.bindings


def _expected_wire_request(node: Any, span: Span | None) -> Rule:
    node = with_wildcards(node)
    if isinstance(node, Sequence):  # one body per request, in order
        return WireRequestRule("expected_wire_request", span, node, lambda ctx: [request_body(r) for r in block_requests(ctx)])
    return WireRequestRule("expected_wire_request", span, node, one_request)


@dataclass(frozen=True)
class AbsentKeysRule(SelectingRule):
    """Keys that must be absent from every request body of the block (`true`) — or, for the
    `<key>_absent: false` form, present."""

    def evaluate(self, ctx: Context, bindings: Any):
        requests = self.select(ctx)
        if not requests:
            return (Check(self.name, CheckStatus.FAILED, self.span, "no request was sent"),), bindings
        problems = []
        for key, absent, span in self.expected:
            for request in requests:
                body = request_body(request)
                if (key in body) == absent:
                    state = f"present ({show(body[key])})" if key in body else "absent"
                    problems.append(Mismatch(f"{self.name}.{key}", "absent" if absent else "present",
                                             f"{state} in request {request['index']}", span))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _absent_keys(node: Any, span: Span | None) -> Rule:
    keys = tuple((item.value, True, item.span) for item in node.items)
    return AbsentKeysRule("expected_wire_request_absent_keys", span, keys, block_requests)


def _wire_checks(node: Any, span: Span | None) -> Rule:
    """Each name is a catalogue predicate (`<key>_absent` is the catalogue's key check on the body)."""
    return AllOf(predicate_block(LP, "expected_wire_request_checks", references(node)))


@dataclass(frozen=True)
class BytesIdenticalRule(Rule):
    """`expected_wire_bytes_identical: {calls: [i, j, ...]}` — those calls sent byte-identical bodies."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        calls, requests = calls_of(ctx), wire_of(ctx)["requests"]
        named = [item.value for item in self.expected.calls.items]
        if len(set(named)) < 2:  # one call is identical to itself: nothing would be compared
            return (Check(self.name, CheckStatus.FAILED, self.span, f"calls: expected at least two distinct calls to compare, got {named}",
                          self.expected.key_span("calls")),), bindings
        bodies = []
        for item in self.expected.calls.items:
            index = item.value
            if index >= len(calls) or len(calls[index]["requests"]) != 1:
                sent = len(calls[index]["requests"]) if index < len(calls) else "no"
                return (Check(self.name, CheckStatus.FAILED, item.span, f"call {index} sent {sent} requests, not one"),), bindings
            bodies.append((index, requests[calls[index]["requests"][0]]["body"]))
        first_index, first = bodies[0]
        for index, body in bodies[1:]:
            if body != first:
                at = next(i for i, (a, b) in enumerate(zip(first + "\0", body + "\0")) if a != b)
                detail = (f"call {index}'s body differs from call {first_index}'s at byte {at}: "
                          f"{first[max(0, at - 20):at + 40]!r} vs {body[max(0, at - 20):at + 40]!r}")
                return (Check(self.name, CheckStatus.FAILED, self.span, detail),), bindings
        return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings


def _bytes_identical(node: Any, span: Span | None) -> Rule:
    return BytesIdenticalRule("expected_wire_bytes_identical", span, node)


# ---------------------------------------------------------------------------------------------
# Per-attempt requests of a retry loop (conformance-adapter §5.11)


@dataclass(frozen=True)
class WireRequestsRule(SelectingRule):
    """`wire_requests: [...]` — one entry per attempt the loop issued (length-exact): `sampling`
    (the named fields of that request body) and `appended_messages` (the messages after the
    caller's — those of attempt 0 — exact `content` or `content_contains` substrings)."""

    def evaluate(self, ctx: Context, bindings: Any):
        requests = [request_body(r) for r in self.select(ctx)]
        problems: list[Mismatch] = []
        if len(requests) != len(self.expected.items):
            problems.append(Mismatch(self.name, f"{len(self.expected.items)} attempts", f"{len(requests)} requests", self.span))
        caller_count = len(requests[0].get("messages", ())) if requests else 0
        for index, (entry, body) in enumerate(zip(self.expected.items, requests)):
            path = f"{self.name}[{index}]"
            for key, want in entry.items():
                if key == "sampling":
                    result = match(want, body, bindings, f"{path}.sampling", "subset")
                elif key == "appended_messages":
                    result = _appended(want, list(body.get("messages", ()))[caller_count:], bindings, f"{path}.appended_messages")
                else:
                    problems.append(Mismatch(f"{path}.{key}", "a per-attempt field the adapter knows", "unknown", entry.key_span(key)))
                    continue
                bindings = result.bindings
                problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _appended(expected: Sequence, actual: list[Any], bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    if len(actual) != len(expected.items):
        roles = [m.get("role") for m in actual]
        return Match(False, bindings, (Mismatch(path, f"{len(expected.items)} appended messages", f"{len(actual)}: roles {roles}", expected.span),))
    for index, (want, got) in enumerate(zip(expected.items, actual)):
        for key, value in want.items():
            child = f"{path}[{index}].{key}"
            if key == "content_contains":
                content = got.get("content")
                for needle in value.items:
                    if not isinstance(content, str) or str(needle.value) not in content:
                        problems.append(Mismatch(child, f"content containing {needle.value!r}", show(content), needle.span))
                continue
            result = match(value, got.get(key), bindings, child, "exact")
            bindings = result.bindings
            problems.extend(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


def _wire_requests(node: Any, span: Span | None) -> Rule:
    return WireRequestsRule("expected.wire_requests", span, node, block_requests)


__all__ = ["block_requests", "call_error", "call_record", "call_result", "calls_of", "one_request", "request_body",
           "served_body", "wire_of"]


# ---------------------------------------------------------------------------------------------
# Per-attempt LLM spans (llm-provider §7.1, conformance-adapter §5.11; observability §5.5)

LLM_SPAN = "openarmature.llm.complete"
# The span fields an `llm_spans` entry names, as the OTel attributes that carry them.
SPAN_FIELDS = {"attempt_index": "openarmature.llm.attempt_index", "error_category": "openarmature.error.category"}


def llm_spans(ctx: Context) -> list[Any]:
    """The case's LLM spans (the runtime's OTelObserver around the calls), in attempt order: by
    ``openarmature.llm.attempt_index``, what the spec tells the per-attempt spans apart by (llm-provider
    §7.1; observability §5.5). Start order is not it: observer delivery timing may differ (graph-engine
    §6 delivers off the caller's path). A span without the attribute sorts after those with it, in
    start order, so the entry-by-entry comparison reports it."""
    otel = collection(ctx, "otel", "the case captured no OTel spans")
    spans = [s for s in otel["spans"] if s["name"] == LLM_SPAN]

    def attempt_order(span: Any) -> tuple[int, Any, Any]:
        index = span["attributes"].get(SPAN_FIELDS["attempt_index"])
        numeric = isinstance(index, int) and not isinstance(index, bool)
        return (0, index, span["start_sequence"]) if numeric else (1, 0, span["start_sequence"])

    return sorted(spans, key=attempt_order)


def llm_span_status(want: Any, span: Any) -> str:
    """The attempt span's OTel status code name (``OK``, ``ERROR``, ``UNSET``). A failed attempt's span
    is ``ERROR`` (observability §4.2: an error maps to status ERROR); the prose does not say how a
    successful LLM span marks success, and OTel's own guidance leaves success ``UNSET``, so an expected
    ``OK`` accepts ``UNSET`` as well."""
    status = span.get("status")
    return "OK" if status == "UNSET" and getattr(want, "value", None) == "OK" else status


@dataclass(frozen=True)
class LlmSpansRule(SelectingRule):
    """`llm_spans: [...]` — one entry per attempt span, in order (length-exact): `attempt_index`,
    `error_category` (null: the attempt succeeded), `attributes` (the keys named),
    `attributes_absent` (keys the span must not carry) and — an extension of this adapter — `status`
    (``llm_span_status``)."""

    def evaluate(self, ctx: Context, bindings: Any):
        spans = self.select(ctx)
        problems: list[Mismatch] = []
        if len(spans) != len(self.expected.items):
            problems.append(Mismatch(self.name, f"{len(self.expected.items)} LLM spans", f"{len(spans)}", self.span))
        for index, (entry, span) in enumerate(zip(self.expected.items, spans)):
            attributes = span["attributes"]
            for key, want in entry.items():
                path = f"{self.name}[{index}].{key}"
                if key in SPAN_FIELDS:
                    result = match(want, attributes.get(SPAN_FIELDS[key]), bindings, path)
                elif key == "attributes":
                    result = match(want, attributes, bindings, path, "subset")
                elif key == "status":  # an extension (the vocabulary row says so)
                    result = match(want, llm_span_status(want, span), bindings, path)
                elif key == "attributes_absent":
                    present = [item for item in want.items if item.value in attributes]
                    result = Match(not present, bindings, tuple(
                        Mismatch(path, f"{item.value!r} absent", f"present ({show(attributes[item.value])})", item.span) for item in present))
                else:
                    problems.append(Mismatch(path, "a span field the adapter knows", "unknown", entry.key_span(key)))
                    continue
                bindings = result.bindings
                problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _llm_spans(node: Any, span: Span | None) -> Rule:
    return LlmSpansRule("expected.llm_spans", span, node, llm_spans)


# directive → rule builder, in the llm-provider vocabulary
SHAPES = (
    ShapeRow("expected", _expected, LP, nested=True),
    ShapeRow("calls", _calls, LP, nested=True),
    ShapeRow("invariants", _invariants, LP),
    ShapeRow("response", _response, LP),
    ShapeRow("raises", _raises, LP),
    ShapeRow("success", _success, LP),
    ShapeRow("provider_call_count", _provider_call_count, LP),
    ShapeRow("reask_builder_after_attempts", _reask_builder_after_attempts, LP),
    ShapeRow("caller_messages_unmodified", _caller_messages_unmodified, LP),
    ShapeRow("expected_wire_request", _expected_wire_request, LP),
    ShapeRow("expected_wire_request_absent_keys", _absent_keys, LP),
    ShapeRow("expected_wire_request_checks", _wire_checks, LP),
    ShapeRow("expected_wire_bytes_identical", _bytes_identical, LP),
    ShapeRow("wire_requests", _wire_requests, LP),
    ShapeRow("llm_spans", _llm_spans, LP),
)
# The directives a `calls:` entry may carry that have a shape here.
DIRECTIVES = frozenset(row.directive for row in SHAPES)
