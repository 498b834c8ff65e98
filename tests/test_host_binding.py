"""The host binding maps spec concepts onto whatever build runs, by detection: a config's vendor
extras nested where the model declares an `extras` container and flat where it does not; a name a
build lacks is a stand-in that fails the case that uses it (harness_primitive_missing at the case),
never an import crash and never a pass."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

import openarmature.checkpoint
import openarmature.graph
import openarmature.llm.retry
import openarmature.prompts

from oa_conformance.host import checkpoint, detect, llm, prompts
from oa_conformance.host.detect import Lacking, RuntimeLacks, optional, require, with_extras

from . import faults


class FlatConfig(BaseModel):
    """A config model as a build before proposal 0122 has it: undeclared fields ride flat."""

    model_config = ConfigDict(extra="allow")
    temperature: float | None = None


class ClosedConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    temperature: float | None = None


def test_extras_nest_where_the_model_declares_a_container():
    config = llm.runtime_config({"temperature": 0.5, "extras": {"repetition_penalty": 1.05}})
    assert config.extras == {"repetition_penalty": 1.05} and config.temperature == 0.5


def test_extras_ride_flat_where_the_model_has_no_container():
    config = with_extras(FlatConfig, {"temperature": 0.5, "extras": {"repetition_penalty": 1.05}})
    assert config.model_dump() == {"temperature": 0.5, "repetition_penalty": 1.05}
    assert with_extras(FlatConfig, {"extras": {}}).model_dump() == {"temperature": None}


def test_a_flat_extra_naming_a_declared_field_is_lacking_not_silently_that_field():
    with pytest.raises(RuntimeLacks, match=r"extras.*\['temperature'\]"):
        with_extras(FlatConfig, {"extras": {"temperature": 0.9}})
    with pytest.raises(RuntimeLacks, match="ClosedConfig"):
        with_extras(ClosedConfig, {"extras": {"repetition_penalty": 1.05}})


def test_a_name_the_build_lacks_is_a_stand_in_that_fails_when_used():
    stand_in = optional("openarmature.graph", "NoSuchPrimitive")
    assert isinstance(stand_in, Lacking) and not stand_in
    for use in (lambda: stand_in(), lambda: stand_in.anything, lambda: require(stand_in)):
        with pytest.raises(RuntimeLacks, match="openarmature.graph.NoSuchPrimitive"):
            use()
    assert optional("openarmature.graph", "GraphBuilder") is require(optional("openarmature.graph", "GraphBuilder"))


def test_call_retry_fields_the_build_lacks(monkeypatch):
    assert llm.call_retry_config(max_attempts=2, reask=None).max_attempts == 2
    monkeypatch.delattr(openarmature.llm.retry, "LlmRetryConfig")  # a build before call-level overrides
    assert type(llm.call_retry_config(max_attempts=2, reask=None)).__name__ == "RetryConfig"
    with pytest.raises(RuntimeLacks, match=r"\['reask'\]"):
        llm.call_retry_config(max_attempts=2, reask=lambda error: "again")


def test_prompt_manager_options_the_build_lacks(monkeypatch):
    class OldManager:
        def __init__(self, *backends, label_resolver=None):
            self.backends = backends

    monkeypatch.setattr(openarmature.prompts, "PromptManager", OldManager)
    assert prompts.prompt_manager("b", label_resolver=None).backends == ("b",)
    with pytest.raises(RuntimeLacks, match="default_cache_ttl_seconds"):
        prompts.prompt_manager("b", default_cache_ttl_seconds=5)


def test_sourced_sampling_and_budget_keep_declared_keys_only():
    sampling = prompts.sampling_config({"temperature": 0.2, "vendor_knob": 1, "token_budget": {}, "extras": {"top_k": 5}})
    assert sampling.temperature == 0.2 and sampling.extras == {"top_k": 5} and "vendor_knob" not in sampling.model_dump()
    budget = prompts.token_budget({"input_max_tokens": 10, "future_bound": 3})
    assert budget.input_max_tokens == 10
    assert prompts.token_budget({"input_max_tokens": None}) is None
    with pytest.raises(ValueError):
        prompts.token_budget(["not", "a", "mapping"])


def test_a_lineage_field_the_build_lacks(monkeypatch):
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class OldProgress:
        fan_out_node_name: str

    monkeypatch.setattr(openarmature.checkpoint, "FanOutProgress", OldProgress)
    assert checkpoint.fan_out_progress([], fan_out_node_name="f") == OldProgress("f")
    monkeypatch.delattr(openarmature.checkpoint, "EnclosingFanOutInstance")
    with pytest.raises(RuntimeLacks, match="EnclosingFanOutInstance"):
        checkpoint.fan_out_progress([{"namespace": (), "fan_out_node_name": "outer", "fan_out_index": 0}], fan_out_node_name="f")


def test_a_case_needing_what_the_build_lacks_is_a_recognized_skip_at_the_case(tmp_path, monkeypatch):
    """The real prompt-management fixture whose prompt carries a token budget, on a build without
    ``TokenBudget``: the build does not ship the feature, so the case is a skip naming it, at the
    case's line (never a pass, never blamed on the adapter)."""
    name = "037-token-budget-unrecognized-key-ignored.yaml"
    text = faults.target_text("prompt-management", name)
    (passing,) = faults.run_text(tmp_path / "as-is", text, "prompt-management", name)
    assert passing.outcome == "passed", passing.reason
    monkeypatch.delattr(openarmature.prompts, "TokenBudget")
    (result,) = faults.run_text(tmp_path / "lacking", text, "prompt-management", name)
    assert result.outcome == "skipped", result.reason
    assert "lacks openarmature.prompts.TokenBudget" in result.reason
    assert result.location is not None and f"{name}:" in str(result.location)


def test_a_node_body_needing_what_the_build_lacks_is_not_the_outcome_under_test(tmp_path, monkeypatch):
    """A call-level reask on a build without ``LlmRetryConfig``: raised inside the one-node graph the
    call runs in (the runtime wraps it in NodeException), still the build's lack: a skip, not the
    outcome under test."""
    name = "062-call-level-reask-success.yaml"
    monkeypatch.delattr(openarmature.llm.retry, "LlmRetryConfig")
    (result,) = faults.run_text(tmp_path, faults.target_text("llm-provider", name), "llm-provider", name)
    assert result.outcome == "skipped", result.reason
    assert "['reask']" in result.reason


def test_runtime_names_resolve_when_used_so_a_patched_runtime_reaches_the_adapter(monkeypatch):
    from oa_conformance.host import graph

    assert graph.GraphBuilder is openarmature.graph.GraphBuilder
    monkeypatch.setattr(openarmature.graph, "GraphBuilder", "patched")
    assert graph.GraphBuilder == "patched"
    with pytest.raises(AttributeError):
        graph.NotReExported  # noqa: B018 — the binding's surface is its table, nothing more


def test_detection_reads_fields_and_parameters():
    assert detect.declares(llm.RuntimeConfig, "temperature") and not detect.declares(llm.RuntimeConfig, "no_such_field")
    assert detect.declares(checkpoint.NodePosition, "node_name")
    assert detect.accepts(prompts.PromptManager, "label_resolver") and not detect.accepts(prompts.PromptManager, "nope")


# ---- a core name the build's claimed spec requires (host.required) --------------------------------

RETRY_FIXTURE = "007-retry-middleware-success-on-second-attempt.yaml"


def test_a_build_claiming_a_spec_that_requires_a_name_it_lacks_fails_naming_it_and_both_versions(tmp_path, monkeypatch):
    """The retry middleware is core since spec 0.5.0: a build that claims a later spec and lacks it
    contradicts its own claim — a failure at the case naming the name and both versions, not a skip."""
    import openarmature

    monkeypatch.delattr(openarmature.graph, "RetryMiddleware")
    text = faults.target_text("pipeline-utilities", RETRY_FIXTURE)
    (result,) = faults.run_text(tmp_path, text, "pipeline-utilities", RETRY_FIXTURE)
    assert result.outcome == "failed", result.reason
    assert result.reason == (f"runtime claims spec {openarmature.__spec_version__}; openarmature.graph.RetryMiddleware "
                             "(pipeline-utilities §6.1 retry middleware) required since 0.5.0 not found")
    assert result.location is not None and f"{RETRY_FIXTURE}:" in str(result.location)


def test_a_build_claiming_an_older_spec_or_none_still_skips_what_it_lacks(tmp_path, monkeypatch):
    import openarmature

    monkeypatch.delattr(openarmature.graph, "RetryMiddleware")
    text = faults.target_text("pipeline-utilities", RETRY_FIXTURE)
    for claim in ("0.4.0", None):
        if claim is None:
            monkeypatch.delattr(openarmature, "__spec_version__")
        else:
            monkeypatch.setattr(openarmature, "__spec_version__", claim)
        (result,) = faults.run_text(tmp_path / str(claim), text, "pipeline-utilities", RETRY_FIXTURE)
        assert result.outcome == "skipped", (claim, result.reason)
        assert "lacks openarmature.graph.RetryMiddleware" in result.reason


def test_a_required_name_its_proposal_brought_skips_when_the_build_declares_the_proposal_unshipped(monkeypatch):
    import openarmature

    from oa_conformance.host import manifest, required

    monkeypatch.setattr(openarmature, "__spec_version__", "0.118.2")
    lacking = "openarmature.graph.classify_cause_chain"
    assert "required since 0.65.0 not found" in required.claimed_contradiction(lacking)
    monkeypatch.setattr(manifest, "proposal_status", lambda number: manifest.ProposalStatus(manifest.NOT_SHIPPED, "test"))
    assert required.claimed_contradiction(lacking) is None
    assert required.claimed_contradiction("openarmature.graph.NotRequiredAnywhere") is None
