"""SHOULD-level expectations (a vocabulary row's ``should``) and the attempt order of LLM spans.

A check the runtime skips at SHOULD level is a warning in the case's findings and the case passes;
a wrong value it does expose still fails. Per-attempt LLM spans are matched by attempt_index, not by
when each span started (observer delivery timing is not specified)."""

from __future__ import annotations

from oa_conformance.assertions.rules import Check, CheckStatus, Context, ShouldLevel, Unverified, at_should_level
from oa_conformance.assertions.shapes.llm_provider import llm_spans
from oa_conformance.model.trace import CaseTrace
from oa_conformance.model.vocabulary import VOCABULARY

from pyrsistent import freeze

from .conftest import shared_fixture
from .test_llm_provider import run_copy

SHOULD = "llm-provider §7: SHOULD expose retry_after"


def test_the_retry_after_hint_is_should_level_in_the_vocabulary():
    row = VOCABULARY.lookup("error_expectation", "retry_after_seconds", "llm-provider")
    assert "SHOULD" in row.should and "§7" in row.should


def test_a_skipped_should_level_check_is_a_warning_and_a_wrong_one_still_fails():
    checks = (Check("a", CheckStatus.VERIFIED, None), Check("b", CheckStatus.UNVERIFIED, None, "not implemented: error field 'retry_after'"),
              Check("c", CheckStatus.FAILED, None, "expected 0, got 3"))
    assert [c.status for c in at_should_level(checks, SHOULD)] == [CheckStatus.VERIFIED, CheckStatus.WARNING, CheckStatus.FAILED]
    assert SHOULD in at_should_level(checks, SHOULD)[1].detail


def test_a_should_level_rule_whose_trace_lacks_the_value_warns():
    class Missing(Unverified):
        def check(self, ctx, bindings):
            return (Check(self.name, CheckStatus.FAILED, self.span, "nothing to compare: the case captured no wire"),), bindings

    checks, _ = ShouldLevel("expected.x", None, Missing("expected.x", None, ""), SHOULD).check(None, {})
    assert [c.status for c in checks] == [CheckStatus.WARNING]


def test_a_runtime_without_the_hint_passes_with_a_warning_finding(tmp_path, monkeypatch):
    """The real 004 rate-limit case against a provider error that exposes no retry_after."""
    from openarmature.llm import errors

    original = errors.ProviderRateLimit.__init__

    def without_hint(self, *args, retry_after=None):
        original(self, *args, retry_after=None)

    monkeypatch.setattr(errors.ProviderRateLimit, "__init__", without_hint)
    text = shared_fixture("llm-provider/conformance/004-error-categories.yaml").read_text(encoding="utf-8")
    result, path = run_copy(tmp_path, "004-error-categories.yaml", text, "rate_limit_429")
    assert result.outcome == "passed", result.reason
    (location, finding), = result.findings()
    assert str(location).startswith(f"{path}:") and "SHOULD-level" in finding and "retry_after_seconds" in finding
    assert result.counts()["warning"] == 1
    from oa_conformance.frontends.report import summary_table

    shown = summary_table([result])
    assert "PASSED  llm-provider/004-error-categories[rate_limit_429]" in shown and "SHOULD-level" in shown
    assert "SHOULD-level" not in summary_table([result], quiet=True)  # -q lists only what fails the run


def _spans(*spans):
    otel = {"spans": [{"name": "openarmature.llm.complete", "start_sequence": seq,
                       "attributes": {"openarmature.llm.attempt_index": index} if index is not None else {}}
                      for seq, index in spans]}
    return Context(trace=CaseTrace(collections=freeze({"otel": otel})), invocation=None)


def test_llm_spans_are_in_attempt_order_whatever_order_they_started_in():
    ordered = llm_spans(_spans((0, 2), (1, 0), (2, 1)))
    assert [s["attributes"]["openarmature.llm.attempt_index"] for s in ordered] == [0, 1, 2]


def test_a_span_without_an_attempt_index_comes_last():
    ordered = llm_spans(_spans((0, None), (1, 1), (2, 0)))
    assert [s["attributes"].get("openarmature.llm.attempt_index") for s in ordered] == [0, 1, None]
