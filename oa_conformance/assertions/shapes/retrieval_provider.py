"""Expectation shapes of the retrieval-provider directory (conformance-adapter §5.15, the 001 / 013 /
015 / 018 / 025 header contracts), over the ``wire`` collection the captured wire recorded.

- ``expected_wire_request`` — the outbound JSON body, key by key: every expected key matches and
  no other key is on the wire ("a field absent from expected_wire_request MUST be absent on the
  wire"), each once (a key the body text repeats fails, though the parsed body shows one value).
  One mapping: the call issued exactly one request; a list: one body per request, in arrival
  order, and exactly that many requests.
- ``expected_wire_request_count`` — how many requests the call issued.
- ``expected_wire_request_absent_keys`` — each named key is absent from every request body.
- ``expected_wire_headers`` — every request carries each header (names case-insensitive) with the
  value (§5.10 matchers); other headers may be present.
- ``expected_wire_url`` — every request went to exactly this URL.
- ``expected_error`` — ``{category, raised_from}``: the category is the §7 category the provider
  call raised (found through the node_exception carrier the engine wraps it in).
- ``final_state`` — the state, exact at the top level, where a provider response record (an
  ``EmbeddingResponse`` / ``RerankResponse`` the node stored) matches by the keys the fixture
  names, including the derived views the fixtures use (:data:`RECORD_VIEWS`).

Each needs requests to judge: a case whose call sent nothing fails them with that reason (a
pre-send rejection is asserted by ``no_embed_request_issued`` instead, a catalogue row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...ast.nodes import Mapping, Sequence
from ...model.kinds import is_mapping, is_sequence
from ..matchers import Match, Mismatch, match, show
from ..error_rules import ErrorRule, raised_error
from ..rules import Context, ShapeRow, StateRule, ValueRule, final_state, verdict

CAPABILITY = "retrieval-provider"


# ---------------------------------------------------------------------------------------------
# Selectors over the wire collection


def wire_requests(ctx: Context) -> list[Any]:
    """The requests the case's providers sent, in arrival order."""
    wire = ctx.trace.collections.get("wire")
    if wire is None:
        raise LookupError("the case recorded no wire (no provider was bound)")
    return list(wire["requests"])


def sent_requests(ctx: Context) -> list[Any]:
    """The requests, at least one: a rule about request contents has nothing to judge without."""
    requests = wire_requests(ctx)
    if not requests:
        raise LookupError(f"no request was sent{_why_nothing(ctx)}")
    return requests


def _why_nothing(ctx: Context) -> str:
    calls = ctx.trace.collections.get("calls") or ()
    errors = [call["error"] for call in calls if call.get("error") is not None]
    return f" (the call raised {errors[0]['type']}: {errors[0]['message']})" if errors else ""


def request_bodies(ctx: Context) -> list[Any]:
    bodies = []
    for request in sent_requests(ctx):
        if "json" not in request:
            raise LookupError(f"request {request['index']} has no JSON body: {request['body'][:80]!r}")
        bodies.append(request["json"])
    return bodies


# ---------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class WireBodies(ValueRule):
    """``expected_wire_request``: one body (exactly one request) or a list (one per request)."""

    def evaluate(self, ctx: Context, bindings: Any):
        bodies = request_bodies(ctx)
        expected = self.expected
        if isinstance(expected, Mapping):
            if len(bodies) != 1:
                problem = Mismatch(self.name, "exactly one request", f"{len(bodies)} requests", self.span)
                return (verdict(self.name, self.span, Match(False, bindings, (problem,))),), bindings
            result = match(expected, bodies[0], bindings, self.name, "exact")
        else:
            result = match(expected, bodies, bindings, self.name, "exact")
        repeated = self.repeated_keys(sent_requests(ctx))
        if repeated:  # an exact body sends each key once: a repeated one is two values on one field
            result = Match(False, result.bindings, (*repeated, *result.mismatches))
        return (verdict(self.name, self.span, result),), result.bindings

    def repeated_keys(self, requests: list[Any]) -> list[Mismatch]:
        """A mismatch for each key a request's body text repeats (the parsed body shows it once)."""
        problems = []
        for request in requests:
            for key, occurrences in request.get("duplicate_keys", {}).items():
                span = self.expected.key_span(key) if isinstance(self.expected, Mapping) and key in self.expected else self.span
                problems.append(Mismatch(f"{self.name}[request {request['index']}].{key}", "the key once in the body",
                                         f"{occurrences} occurrences", span))
        return problems


@dataclass(frozen=True)
class EveryRequest(ValueRule):
    """A judgement ``judge(expected, request, bindings, path) -> Match`` applied to every request."""

    judge: Callable[..., Match] = None  # type: ignore[assignment]

    def evaluate(self, ctx: Context, bindings: Any):
        problems: list[Mismatch] = []
        for request in sent_requests(ctx):
            result = self.judge(self.expected, request, bindings, f"{self.name}[request {request['index']}]")
            bindings = result.bindings
            problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def absent_keys(expected: Sequence, request: Any, bindings: Any, path: str) -> Match:
    body = request.get("json")
    problems = [Mismatch(f"{path}.{item.value}", "absent", show(body[item.value]), item.span)
                for item in expected.items if is_mapping(body) and item.value in body]
    if not is_mapping(body):
        problems.append(Mismatch(path, "a JSON object body", show(request.get("body")), expected.span))
    return Match(not problems, bindings, tuple(problems))


def headers_subset(expected: Mapping, request: Any, bindings: Any, path: str) -> Match:
    headers = request["headers"]  # names lower-cased by the wire
    problems: list[Mismatch] = []
    for name, want in expected.items():
        where = f"{path}.{name}"
        if name.lower() not in headers:
            problems.append(Mismatch(where, "present", "absent", expected.key_span(name)))
            continue
        result = match(want, headers[name.lower()], bindings, where)
        bindings = result.bindings
        problems.extend(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


def url_equals(expected: Any, request: Any, bindings: Any, path: str) -> Match:
    return match(expected, request["url"], bindings, path)


def _wire_request(node: Any, span: Any) -> WireBodies:
    return WireBodies("expected_wire_request", span, node, request_bodies)


def _wire_count(node: Any, span: Any) -> ValueRule:
    return ValueRule("expected_wire_request_count", span, node, lambda ctx: len(wire_requests(ctx)))


def _wire_absent(node: Any, span: Any) -> EveryRequest:
    return EveryRequest("expected_wire_request_absent_keys", span, node, sent_requests, judge=absent_keys)


def _wire_headers(node: Any, span: Any) -> EveryRequest:
    return EveryRequest("expected_wire_headers", span, node, sent_requests, judge=headers_subset)


def _wire_url(node: Any, span: Any) -> EveryRequest:
    return EveryRequest("expected_wire_url", span, node, sent_requests, judge=url_equals)


# ---------------------------------------------------------------------------------------------
# The final state, with provider response records


def _common_inner_length(record: Any) -> Any:
    """`inner_vector_lengths_all_equal: N` — every vector has length N (the lengths, when they differ)."""
    lengths = sorted({len(vector) for vector in record["vectors"]})
    return lengths[0] if len(lengths) == 1 else lengths


# Views of a response record the fixtures name beside its fields (retrieval-provider 001, 006):
# `<list field>_length` is the list's length; `inner_vector_lengths_all_equal` the common vector length.
RECORD_VIEWS: dict[str, Callable[[Any], Any]] = {"inner_vector_lengths_all_equal": _common_inner_length}


def record_view(record: Any) -> dict[str, Any]:
    """A response record with its views: the fields as stored, plus each view the record supports."""
    view = dict(record.items())
    for key, value in record.items():
        if is_sequence(value):
            view[f"{key}_length"] = len(value)
    for name, derive in RECORD_VIEWS.items():
        try:
            view[name] = derive(record)
        except (KeyError, TypeError):
            continue
    return view


@dataclass(frozen=True)
class ResponseStateRule(StateRule):
    """The final state: exact field set; a field holding a response record matches by the keys named."""

    def evaluate(self, ctx: Context, bindings: Any):
        if not isinstance(self.expected, Mapping):
            return super().evaluate(ctx, bindings)
        state = self.select(ctx)
        path = self.name.split(".", 1)[-1]
        problems: list[Mismatch] = []
        extra = sorted(str(key) for key in state.keys() if key not in self.expected)
        if extra:
            problems.append(Mismatch(path, f"exactly the keys {list(self.expected.keys)}", f"also {extra}", self.span))
        for key, want in self.expected.items():
            if key not in state:
                problems.append(Mismatch(f"{path}.{key}", "present", "absent", self.expected.key_span(key)))
                continue
            actual = state[key]
            if is_mapping(actual) and isinstance(want, Mapping):
                result = match(want, record_view(actual), bindings, f"{path}.{key}", "subset")
            else:
                result = match(want, actual, bindings, f"{path}.{key}", "exact")
            bindings = result.bindings
            problems.extend(result.mismatches)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _final_state(node: Any, span: Any) -> ResponseStateRule:
    return ResponseStateRule("expected.final_state", span, node, final_state)


# ---------------------------------------------------------------------------------------------
# The raised error: the provider call's §7 category


def _expected_error(node: Any, span: Any) -> ErrorRule:
    return ErrorRule("expected_error", span, node, raised_error)


# directive → rule builder, in the retrieval-provider vocabulary
SHAPES = (
    ShapeRow("expected_wire_request", _wire_request, CAPABILITY),
    ShapeRow("expected_wire_request_count", _wire_count, CAPABILITY),
    ShapeRow("expected_wire_request_absent_keys", _wire_absent, CAPABILITY),
    ShapeRow("expected_wire_headers", _wire_headers, CAPABILITY),
    ShapeRow("expected_wire_url", _wire_url, CAPABILITY),
    ShapeRow("final_state", _final_state, CAPABILITY),
    ShapeRow("expected_error", _expected_error, CAPABILITY),
)
