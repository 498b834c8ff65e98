"""The §6 managed-field collision predicates of the retrieval mappings (the target 0.118.2 corpus:
Cohere embedding_types malformation, declared-field collisions on renamed and conditionally produced
wire keys). Each test runs a real fixture against the runtime made to misbehave the way the fixture's
prose says a wrong implementation would, and asserts the case's predicates then fail at their lines."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from . import faults
from .faults import line_of

CAPABILITY = "retrieval-provider"
MALFORMED = "053-embed-cohere-embedding-types-malformed.yaml"
COHERE = "054-embed-cohere-declared-field-collisions.yaml"
TEI = "055-embed-tei-declared-field-collisions.yaml"
TEI_PREFIX = "056-embed-tei-prompt-name-not-produced.yaml"


def _cohere():
    from openarmature.retrieval.providers.cohere import CohereEmbeddingProvider

    return CohereEmbeddingProvider


def _tei():
    from openarmature.retrieval.providers.tei import TeiEmbeddingProvider

    return TeiEmbeddingProvider


def _reject(key: str) -> None:
    from openarmature.llm.errors import ProviderInvalidRequest

    raise ProviderInvalidRequest(f"extras key {key!r} is reserved")


def _wrap_body(monkeypatch, provider: type, fault: Callable[..., Any]) -> None:
    """Make ``provider._build_request_body`` misbehave: ``fault(self, original, *args)`` builds the body."""
    original = provider._build_request_body
    monkeypatch.setattr(provider, "_build_request_body", lambda self, *args: fault(self, original, *args))


# ---------------------------------------------------------------------------------------------
# The wrong implementations the fixtures' prose names


def extras_override_managed_keys(monkeypatch, provider: type) -> None:
    """The pre-0105 mappings: extras spread over the body, so a colliding key silently wins."""
    def override(self, original, *args):
        *rest, extras = args
        body = original(self, *rest, {})
        body.update(extras)
        return body
    _wrap_body(monkeypatch, provider, override)


def reject_even_matching_extras(monkeypatch, provider: type) -> None:
    """A collision rule that bans the key instead of comparing values: a matching extra raises too."""
    def ban(self, original, *args):
        *rest, extras = args
        body = original(self, *rest, {})
        for key in extras:
            if key in body:
                _reject(key)
        return original(self, *args)
    _wrap_body(monkeypatch, provider, ban)


def _reserving(key: str, provider):
    """A mapping that reserves an extras ``key`` unconditionally (its body builder rejects it)."""
    def fault(monkeypatch, _provider: type = None) -> None:
        def reserve(self, original, *args):
            if key in args[-1]:  # the builder's last argument is the extras
                _reject(key)
            return original(self, *args)
        _wrap_body(monkeypatch, provider(), reserve)
    return fault


# The over-applied 0122 correction: output_dimension reserved even with dimensions absent.
cohere_reserves_output_dimension = _reserving("output_dimension", _cohere)
# prompt_name reserved whether or not the mapping produces it.
tei_reserves_prompt_name = _reserving("prompt_name", _tei)


def tei_manages_by_declared_presence(monkeypatch, _provider: type = None) -> None:
    """§6 clause (b) keyed to the declared field's presence rather than to production: an extras
    prompt_name is rejected whenever input_type is set, even on the client-side prefix path."""
    def by_presence(self, original, inputs, input_type, dimensions, extras):
        if input_type is not None and "prompt_name" in extras:
            _reject("prompt_name")
        return original(self, inputs, input_type, dimensions, extras)
    _wrap_body(monkeypatch, _tei(), by_presence)


def tei_sends_prompt_name_on_prefix_path(monkeypatch, _provider: type = None) -> None:
    """A mapping that prefixes client-side and still writes input_type as a prompt_name."""
    def also_prompt(self, original, inputs, input_type, dimensions, extras):
        body = original(self, inputs, input_type, dimensions, extras)
        if input_type is not None:
            body.setdefault("prompt_name", input_type)
        return body
    _wrap_body(monkeypatch, _tei(), also_prompt)


KNOWN_PRECISIONS = frozenset({"float", "int8", "uint8", "binary", "ubinary", "base64"})


def cohere_checks_precision_vocabulary(monkeypatch, _provider: type = None) -> None:
    """Malformation read as a vocabulary check: an unknown precision string drops the whole extra."""
    def vocabulary(self, original, chunk, input_type, dimensions, extras):
        types = extras.get("embedding_types")
        if isinstance(types, list) and not set(types) <= KNOWN_PRECISIONS:
            extras = {key: value for key, value in extras.items() if key != "embedding_types"}
        return original(self, chunk, input_type, dimensions, extras)
    _wrap_body(monkeypatch, _cohere(), vocabulary)


def cohere_appends_float_last(monkeypatch, _provider: type = None) -> None:
    """The pre-0099 merge order: the caller's precisions first, the mapping's float appended."""
    def float_last(self, original, *args):
        body = original(self, *args)
        body["embedding_types"] = [*body["embedding_types"][1:], "float"]
        return body
    _wrap_body(monkeypatch, _cohere(), float_last)


def cohere_raises_on_unknown_precision(monkeypatch, _provider: type = None) -> None:
    """A mapping that rejects a precision it does not know instead of leaving that to the provider."""
    def strict(self, original, chunk, input_type, dimensions, extras):
        types = extras.get("embedding_types")
        if isinstance(types, list) and not set(types) <= KNOWN_PRECISIONS:
            _reject("embedding_types")
        return original(self, chunk, input_type, dimensions, extras)
    _wrap_body(monkeypatch, _cohere(), strict)


def emit_key_twice(key: str) -> Callable[..., None]:
    """The runtime's request encoding writes ``key`` twice into the JSON text (same value): the parsed
    body still shows it once, so only the repetition the wire records can tell."""
    def install(monkeypatch, _provider: type = None) -> None:
        import httpx._content

        def dumps(obj: Any, **options: Any) -> str:
            text = json.dumps(obj, **options)
            if isinstance(obj, dict) and key in obj:
                text = text[:-1] + "," + json.dumps({key: obj[key]}, **options)[1:]
            return text
        monkeypatch.setattr(httpx._content, "json_dumps", dumps)
    return install


# (fixture, fault, provider, case, predicates the fault must fail)
FAULTS = [
    (COHERE, extras_override_managed_keys, _cohere, "conflicting_extras_output_dimension_rejected_pre_send",
     ["declared_dimensions_conflict_on_renamed_wire_key_rejected_pre_send", "extras_output_dimension_neither_dropped_nor_forwarded"]),
    (COHERE, extras_override_managed_keys, _cohere, "conflicting_extras_input_type_rejected_even_with_declared_absent",
     ["always_managed_key_has_no_declared_absent_branch", "conflicting_extras_input_type_rejected_pre_send"]),
    (COHERE, reject_even_matching_extras, _cohere, "matching_extras_output_dimension_is_no_op",
     ["matching_extras_output_dimension_no_op", "wire_output_dimension_is_declared_value_once"]),
    (COHERE, reject_even_matching_extras, _cohere, "matching_extras_input_type_is_no_op",
     ["matching_extras_input_type_no_op", "wire_input_type_emitted_once"]),
    (COHERE, emit_key_twice("output_dimension"), _cohere, "matching_extras_output_dimension_is_no_op",
     ["wire_output_dimension_is_declared_value_once"]),
    (COHERE, emit_key_twice("input_type"), _cohere, "matching_extras_input_type_is_no_op", ["wire_input_type_emitted_once"]),
    (COHERE, cohere_reserves_output_dimension, _cohere, "extras_output_dimension_rides_untouched_when_declared_absent",
     ["unmanaged_when_declared_field_absent", "extras_output_dimension_forwarded_untouched", "no_error_raised_when_declared_field_absent"]),
    (TEI, reject_even_matching_extras, _tei, "matching_extras_dimensions_is_no_op", ["wire_body_stays_minimal_prompt_name_absent"]),
    (TEI, extras_override_managed_keys, _tei, "conflicting_extras_prompt_name_rejected_when_produced",
     ["conflicting_extras_prompt_name_rejected_pre_send"]),
    (TEI, tei_reserves_prompt_name, _tei, "extras_prompt_name_rides_untouched_when_not_produced",
     ["unmanaged_when_key_not_produced", "extras_prompt_name_forwarded_untouched"]),
    (TEI_PREFIX, tei_manages_by_declared_presence, _tei, "extras_prompt_name_rides_untouched_on_client_side_prefix_path",
     ["client_side_prefix_applied_to_input", "mapping_produced_no_prompt_name", "extras_prompt_name_forwarded_untouched"]),
    (TEI_PREFIX, tei_sends_prompt_name_on_prefix_path, _tei, "no_extras_prompt_name_absent_on_client_side_prefix_path",
     ["mapping_produced_no_prompt_name"]),
    (MALFORMED, cohere_checks_precision_vocabulary, _cohere, "unrecognized_precision_strings_merge_rather_than_malform",
     ["unrecognized_precision_string_is_not_malformed", "empty_string_element_is_not_malformed",
      "wire_request_embedding_types_merged_mapping_value_first"]),
    (MALFORMED, cohere_appends_float_last, _cohere, "unrecognized_precision_strings_merge_rather_than_malform",
     ["wire_request_embedding_types_merged_mapping_value_first"]),
    (MALFORMED, cohere_raises_on_unknown_precision, _cohere, "unrecognized_precision_strings_merge_rather_than_malform",
     ["no_error_raised_on_unrecognized_precision"]),
]


def _result_of(tmp_path, name: str, case: str):
    text = faults.target_text(CAPABILITY, name)
    results = faults.run_text(tmp_path, text, CAPABILITY, name)
    (result,) = [r for r in results if r.ref.id.endswith(f"[{case}]")]
    return text, result


def test_the_real_fixtures_pass_unfaulted(tmp_path):
    for name in (MALFORMED, COHERE, TEI, TEI_PREFIX):
        results = faults.run_text(tmp_path, faults.target_text(CAPABILITY, name), CAPABILITY, name)
        assert results and all(r.outcome == "passed" for r in results), [(r.ref.id, r.reason) for r in results]


@pytest.mark.parametrize("name, fault, provider, case, predicates", FAULTS,
                         ids=[f"{name[:3]}-{fault.__name__}-{case}" for name, fault, _, case, _ in FAULTS])
def test_a_wrong_mapping_fails_the_predicates_at_their_lines(tmp_path, monkeypatch, name, fault, provider, case, predicates):
    fault(monkeypatch, provider())
    text, result = _result_of(tmp_path, name, case)
    assert result.outcome == "failed", (result.outcome, result.reason)
    failing = {c.name: c for c in result.checks if c.status != "verified"}
    for predicate in predicates:
        check = failing.get(f"expected.invariants.{predicate}")
        assert check is not None, (predicate, result.reason)
        assert check.location.line == line_of(text, f"{predicate}: true", after=f"name: {case}"), (predicate, check.location)


def test_a_key_the_body_text_repeats_fails_the_wire_request_at_that_key(tmp_path, monkeypatch):
    # The parsed body holds output_dimension once either way; the wire's duplicate_keys tells.
    emit_key_twice("output_dimension")(monkeypatch)
    text, result = _result_of(tmp_path, COHERE, "matching_extras_output_dimension_is_no_op")
    (wire,) = [c for c in result.checks if c.name == "expected_wire_request"]
    assert wire.status == "failed" and "2 occurrences" in wire.detail, wire
    assert wire.location.line == line_of(text, "output_dimension: 4", after="expected_wire_request:"), wire.location
