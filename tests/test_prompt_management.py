"""The prompt-management directory: mock backends under the runtime's PromptManager, and
fault-injected copies of real fixtures that fail at the right line."""

from __future__ import annotations

import asyncio

import pytest

from oa_conformance.interpreter.running.capabilities.prompt_backends import CachingPromptBackend, prompt_from_record

from . import faults
from .faults import failed_at, line_of

CAPABILITY = "prompt-management"


def fixture_text(name: str) -> str:
    return faults.shared_text(CAPABILITY, name)


def run_text(tmp_path, text: str, name: str = "001-case.yaml"):
    return faults.run_text(tmp_path, text, CAPABILITY, name)


def test_the_real_fixtures_pass_unchanged(tmp_path):
    for name in ("004-render-success.yaml", "015-label-resolver-fallback-chain.yaml", "036-prompt-manager-default-cache-ttl.yaml"):
        results = run_text(tmp_path, fixture_text(name), name)
        assert all(r.outcome == "passed" for r in results), [(r.ref.id, r.reason) for r in results]


def test_a_wrong_rendered_text_fails_at_its_line(tmp_path):
    text = fixture_text("004-render-success.yaml")
    faulty = text.replace('{role: user, content: "Hello, Alice!"}', '{role: user, content: "Hello, Bob!"}')
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, '"Hello, Bob!"'))
    assert "'Hello, Alice!'" in result.reason


def test_a_wrong_error_category_fails_at_its_line_and_says_what_was_raised(tmp_path):
    faulty = fixture_text("002-fetch-not-found.yaml").replace("category: prompt_not_found", "category: prompt_render_error")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "category: prompt_render_error"))
    assert "PromptNotFound" in result.reason


def test_a_render_error_field_the_error_does_not_carry_fails(tmp_path):
    faulty = fixture_text("005-render-undefined-variable.yaml").replace('description_mentions: "day"', 'description_mentions: "night"')
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, 'description_mentions: "night"'))


def test_a_wrong_source_read_count_fails_at_its_line(tmp_path):
    faulty = fixture_text("034-prompt-backend-cache-ttl-max-age.yaml").replace("{source_read_count: 2}", "{source_read_count: 1}")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "{source_read_count: 1}"))
    assert "expected 1, got 2" in result.reason


def test_an_extra_key_in_a_nested_record_fails(tmp_path):
    # The backend serves all seven sampling fields; an expectation naming six is missing one.
    text = fixture_text("013-prompt-sampling-from-backend.yaml")
    lines = text.splitlines(keepends=True)
    seed = line_of(text, "seed: 42", after="expected:")
    faulty = "".join(lines[: seed - 1] + lines[seed:])
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "failed" and "also ['seed']" in result.reason
    assert f".yaml:{line_of(faulty, 'temperature: 0.0', after='expected:')}:" in str(result.location)


def test_a_dropped_key_reappearing_would_fail(tmp_path):
    # 037: the backend drops the unrecognized token_budget key; expecting it back fails.
    text = fixture_text("037-token-budget-unrecognized-key-ignored.yaml")
    assert text.endswith("      input_max_tokens: 10\n")  # the expected budget closes the file
    faulty = text + "      unknown: 5\n"
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, len(faulty.splitlines()))
    assert "prompt.token_budget.unknown" in result.reason


def test_a_call_that_raises_unexpectedly_fails_at_the_call(tmp_path):
    faulty = fixture_text("001-fetch-success.yaml").replace("    name: greeting\n    label: production\n", "    name: missing\n    label: production\n")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "- target: {backend: local}"))
    assert "raised unexpectedly: prompt_not_found" in result.reason


def test_hash_equivalence_assertions_can_fail(tmp_path):
    faulty = fixture_text("012-prompt-result-rendered-hash-stability.yaml").replace("- [r_alice_1, r_bob]", "- [r_alice_1, r_alice_2]")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, "- [r_alice_1, r_alice_2]", after="rendered_hash_different"))


@pytest.mark.parametrize("group", ["[r_alice_1]", "[r_alice_1, r_alice_1]"])
def test_an_equality_group_of_one_capture_fails_instead_of_holding_vacuously(tmp_path, group):
    """A capture's hash equals itself: a group naming one capture compared nothing and verified
    (found by the mutation audit dropping a list's last item)."""
    faulty = fixture_text("012-prompt-result-rendered-hash-stability.yaml").replace("- [r_alice_1, r_alice_2]", f"- {group}")
    (result,) = run_text(tmp_path, faulty)
    failed_at(result, line_of(faulty, f"- {group}"))
    assert "at least two distinct captures" in result.reason


def test_a_message_equality_between_one_capture_fails_instead_of_holding_vacuously(tmp_path):
    faulty = fixture_text("032-cross-variable-substring-stability.yaml").replace("between: [chat_a, chat_b]", "between: [chat_a, chat_a]")
    line = line_of(faulty, "message_indices: [0]", after="between: [chat_a, chat_a]")
    result = next(r for r in run_text(tmp_path, faulty) if any(c.name.startswith("expected_message_equal") for c in r.checks))
    failed_at(result, line)
    assert "at least two distinct captures" in result.reason


def test_a_wrong_group_member_order_fails(tmp_path):
    faulty = fixture_text("011-prompt-group-shape.yaml").replace("members_refs: [m1, m2, m3]", "members_refs: [m2, m1, m3]")
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "failed"
    assert "member_order_preserved" not in result.reason  # the order is the one the call gave ...
    assert "member_names" in result.reason  # ... but not the names the fixture expects


def test_an_undeclared_backend_is_harness_primitive_missing(tmp_path):
    faulty = fixture_text("004-render-success.yaml").replace("backends: [local]", "backends: [nowhere]")
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "error" and result.category == "harness_primitive_missing"
    assert f".yaml:{line_of(faulty, 'backends: [nowhere]')}:" in str(result.location)


def test_a_malformed_call_is_fixture_schema_invalid_at_its_line(tmp_path):
    faulty = fixture_text("004-render-success.yaml").replace("    fetched_prompt: {name: greeting, label: production}\n", "")
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "error" and result.category == "fixture_schema_invalid"
    assert f".yaml:{line_of(faulty, '- target: manager')}:" in str(result.location)


def test_a_malformed_chat_segment_is_fixture_schema_invalid_at_its_backend(tmp_path):
    faulty = fixture_text("017-chat-prompt-per-segment-render.yaml").replace(
        '- {role: system, content: "You classify {{ topic }} requests."}', '- {speaker: system, content: "x"}')
    (result,) = run_text(tmp_path, faulty)
    assert result.outcome == "error" and result.category == "fixture_schema_invalid"
    assert "chat_template[0]" in result.reason and f".yaml:{line_of(faulty, '- name: local')}:" in str(result.location)


RECORD = {"name": "greeting", "label": "production", "version": "v1", "template": "Hi", "template_hash": "sha256:x"}


def test_the_caching_backend_honours_cache_ttl_on_its_clock():
    backend = CachingPromptBackend("cached", [RECORD])

    async def fetches():
        first = await backend.fetch("greeting")
        assert await backend.fetch("greeting") is first  # None: served from the cache
        backend.clock.advance(30)
        assert await backend.fetch("greeting", cache_ttl_seconds=30) is not first  # not younger than 30 s
        await backend.fetch("greeting", cache_ttl_seconds=0)
        with pytest.raises(ValueError):
            await backend.fetch("greeting", cache_ttl_seconds=-1)

    asyncio.run(fetches())
    assert backend.state()["source_read_count"] == 3 and backend.state()["fetch_count"] == 5


def test_invalid_chat_templates_reach_render_unvalidated():
    prompt = prompt_from_record({**{k: v for k, v in RECORD.items() if k != "template"},
                                 "chat_template": [{"placeholder": "1bad"}, {"placeholder": "1bad"}]})
    assert [segment.placeholder for segment in prompt.chat_template] == ["1bad", "1bad"]


@pytest.mark.parametrize("name, old, new, needle", [
    # determinism: the second render with other variables no longer matches the first
    ("006-render-determinism.yaml", '    variables: {user: "Alice"}\n    capture_as: result2', '    variables: {user: "Bob"}\n    capture_as: result2',
     "fields_must_match: [messages"),
    ("032-cross-variable-substring-stability.yaml", 'prefix: "You are a precise', 'prefix: "You are a sloppy', 'prefix: "You are a sloppy'),
    ("032-cross-variable-substring-stability.yaml", "message_indices: [0]", "message_indices: [1]", "message_indices: [1]"),
    ("014-prompt-sampling-absent.yaml", "sampling_absent: true", "sampling_absent: false", "sampling_absent: false"),
    ("011-prompt-group-shape.yaml", "member_count: 3", "member_count: 2", "member_count: 2"),
    ("011-prompt-group-shape.yaml", 'group_name: "multi_stage_classification"\n    member_count', 'group_name: "other"\n    member_count',
     'group_name: "other"'),
    ("004-render-success.yaml", "rendered_hash_non_empty_string: true", "rendered_hash_non_empty_string: false",
     "rendered_hash_non_empty_string: false"),
    ("016-prompt-observability-entities-propagation.yaml", 'name: greet\n        observability_entities_absent: true\n      rendered',
     'name: greet\n        observability_entities_absent: false\n      rendered', "observability_entities_absent: false"),
    ("033-prompt-backend-cache-ttl-force-fresh.yaml", "cached_force_fresh: {source_read_count: 2}", "cached_elsewhere: {source_read_count: 2}",
     "cached_elsewhere:"),
    ("010-manager-get-fetch-and-render.yaml", "fields_may_differ: [fetched_at, rendered_at]", "fields_may_differ: [fetched_at, cached_at]",
     "fields_may_differ: [fetched_at, cached_at]"),
])
def test_case_level_assertions_fail_at_their_line(tmp_path, name, old, new, needle):
    text = fixture_text(name)
    assert old in text
    faulty = text.replace(old, new)
    results = run_text(tmp_path, faulty, name)
    failed = [r for r in results if r.outcome != "passed"]
    assert len(failed) == 1, [(r.ref.id, r.outcome, r.reason) for r in results]
    failed_at(failed[0], line_of(faulty, needle))


def test_member_order_is_judged_against_the_constructing_call():
    from oa_conformance.assertions.shapes.prompt_management import _order_preserved
    from oa_conformance.assertions.rules import Context
    from oa_conformance.model.trace import CaseTrace, plain

    m1, m2 = {"name": "a", "rendered_hash": "h1"}, {"name": "b", "rendered_hash": "h2"}
    def trace(members):
        calls = [{"block": "calls", "index": 0, "operation": "construct_prompt_group", "capture_as": "g", "members_refs": ["m1", "m2"]}]
        return CaseTrace(collections=plain({"calls": calls, "prompts": {"captures": {"m1": m1, "m2": m2, "g": {"members": members}}}}))
    assert _order_preserved("g")(Context(trace([m1, m2]), None)) is True
    assert _order_preserved("g")(Context(trace([m2, m1]), None)) is False


@pytest.mark.parametrize("name, old, new", [
    ("008-manager-fetch-fallback-not-found-no-fallback.yaml", "secondary_backend_call_count: 0", "secondary_backend_call_count: 1"),
    ("009-manager-fetch-all-backends-unavailable.yaml", "        secondary: 1", "        secondary: 2"),
])
def test_wrong_fetch_counts_fail_at_their_line(tmp_path, name, old, new):
    faulty = fixture_text(name).replace(old, new)
    (result,) = run_text(tmp_path, faulty, name)
    failed_at(result, line_of(faulty, new.strip().split(":")[0] if "secondary_" in new else "backend_call_counts"))
