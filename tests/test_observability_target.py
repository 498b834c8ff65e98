"""Observability directives and fields the 0.118.2 corpus added (the `otel_observer` block, the
`await_event_delivery` barrier, the Langfuse `metadata_absent` field and the proposal-0118
predicates): each runs on a real target fixture, and a fault injected into that fixture's text or
into the runtime fails the case at the line that says what went wrong."""

from __future__ import annotations

import pytest

from .faults import failed_at, line_of, replace_value, run_text, target_text

OBS = "observability"


def _only(results):
    result, = results
    return result


def _case(results, name: str):
    return next(result for result in results if result.ref.name == name)


# ---------------------------------------------------------------------------------------------
# `otel_observer` (conformance-adapter §5.5): the OTel observer's own flags


def test_the_otel_observer_block_sets_the_payload_flag(tmp_path, target_spec):
    text = target_text(OBS, "013-otel-llm-payload-enabled.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    block = line_of(text, "otel_observer:")
    faulty = replace_value(text, block + 1, "disable_provider_payload", "true")
    failed_at(_only(run_text(tmp_path / "fault", faulty, OBS)), line_of(text, "openarmature.llm.output.content", after="span_tree:"))


def test_the_otel_observer_block_sets_the_genai_semconv_opt_out(tmp_path, target_spec):
    text = target_text(OBS, "021-otel-llm-disable-genai-semconv.yaml")
    assert _only(run_text(tmp_path / "ok", text, OBS)).outcome == "passed"
    faulty = replace_value(text, line_of(text, "otel_observer:") + 1, "disable_genai_semconv", "false")
    failed_at(_only(run_text(tmp_path / "fault", faulty, OBS)), line_of(text, '- "gen_ai.system"'))


def test_the_otel_observer_block_wins_over_the_case_level_key(tmp_path, target_spec):
    text = target_text(OBS, "013-otel-llm-payload-enabled.yaml")
    both = text.replace("    otel_observer:\n", "    disable_provider_payload: true\n    otel_observer:\n", 1)
    assert _only(run_text(tmp_path, both, OBS)).outcome == "passed"


def test_the_otel_observer_block_leaves_the_langfuse_observer_at_its_own_default(tmp_path, target_spec):
    """098's default-posture case withholds the Langfuse error_message; an OTel-side block that lets
    the OTel observer emit payload must not turn the Langfuse one on (each keeps its own copy)."""
    text = target_text(OBS, "098-langfuse-tool-observation.yaml")
    case = "failed_tool_default_posture_withholds_message_without_smuggling"
    anchor = line_of(text, "    entry: run_tool", after=f"name: {case}")
    with_block = text.splitlines(keepends=True)
    with_block.insert(anchor - 1, "    otel_observer:\n      disable_provider_payload: false\n")
    assert _case(run_text(tmp_path, "".join(with_block), OBS), case).outcome == "passed"
