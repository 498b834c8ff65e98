"""The graph-engine / pipeline-utilities mechanisms of issue 8: each holds on the real fixture and
fails on a fault-injected copy (written under tmp_path in the spec's layout)."""

from __future__ import annotations

import pytest

from oa_conformance.assertions.matchers import match
from oa_conformance.ast.nodes import Scalar
from oa_conformance.pipeline import cases_of, run_case

from .conftest import BUNDLED_SPEC, shared_fixture
from .test_run import write_fixture


def results(tmp_path, relative: str, old: str | None = None, new: str | None = None, count: int = 1) -> dict:
    """Every case of a shared fixture (optionally with ``old`` replaced by ``new``) → {case name: result}."""
    source = shared_fixture(relative)
    text = source.read_text()
    if old is not None:
        assert text.count(old) >= count, old
        text = text.replace(old, new, count)
    capability = relative.split("/", 1)[0]
    ref = write_fixture(tmp_path, text, capability=capability, name=source.name)
    return {case.name: run_case(case, timeout=30) for case in cases_of(ref)}


def outcomes(found: dict) -> set[str]:
    return {r.outcome for r in found.values()}


PU = "pipeline-utilities/conformance/"
GE = "graph-engine/conformance/"


def test_expected_error_transient_uses_the_runtime_classifier(tmp_path):
    assert outcomes(results(tmp_path, PU + "030-checkpoint-not-found.yaml")) == {"passed"}
    wrong = results(tmp_path, PU + "030-checkpoint-not-found.yaml", "transient: false", "transient: true")
    failed = wrong["resume_against_empty_checkpointer"]
    assert failed.outcome == "failed" and "expected_error.transient" in failed.reason


def test_chain_ambiguity_error_at_build_or_at_resume(tmp_path):
    assert outcomes(results(tmp_path, PU + "047-state-migration-chain-ambiguous.yaml")) == {"passed"}
    wrong = results(tmp_path, PU + "047-state-migration-chain-ambiguous.yaml",
                    "expected_chain_ambiguity_error: checkpoint_state_migration_chain_ambiguous",
                    "expected_chain_ambiguity_error: checkpoint_not_found", count=2)
    assert outcomes(wrong) == {"failed"}
    assert "got 'checkpoint_state_migration_chain_ambiguous' at graph build" in wrong["duplicate_pair_at_registration"].reason
    assert "when the run resumed" in wrong["ambiguous_shortest_paths_at_resolution"].reason


def test_raises_exception_kind_is_a_bare_builtin_exception(tmp_path):
    found = results(tmp_path, PU + "063-failure-isolation-default-predicate-bare-exception.yaml",
                    "exception_kind: ValueError", "exception_kind: NoSuchError")
    (result,) = found.values()  # the node body raises harness_primitive_missing (failure isolation sees it)
    assert result.outcome != "passed"
    # With ValueError the event's caught_exception has no category (expected_failure_isolation_event holds).
    (real,) = results(tmp_path, PU + "063-failure-isolation-default-predicate-bare-exception.yaml").values()
    assert "expected_failure_isolation_event" not in (real.reason or "")


def test_empty_phases_probe(tmp_path):
    assert outcomes(results(tmp_path, GE + "018-observer-phase-subscription.yaml")) == {"passed"}
    wrong = results(tmp_path, GE + "018-observer-phase-subscription.yaml",
                    "empty_phases_raises_at_registration: true", "empty_phases_raises_at_registration: false")
    (result,) = wrong.values()
    assert result.outcome == "failed" and "empty_phases_raises_at_registration: expected False, got True" in result.reason


def test_compile_only_case_asserts_the_warnings_without_running(tmp_path):
    assert outcomes(results(tmp_path, PU + "077-fan-out-round-trip-warning.yaml")) == {"passed"}
    wrong = results(tmp_path, PU + "077-fan-out-round-trip-warning.yaml",
                    "expected_compile_warning: [projection_reducer_round_trip]", "expected_compile_warning: []")
    assert outcomes(wrong) == {"failed"}


def test_successful_attempt_index(tmp_path):
    marker = "      final_state: {v: 1, trace: [\"target\"]}\n"
    held = results(tmp_path, PU + "014-timing-and-retry-composition.yaml", marker,
                   marker + "      successful_attempt_index_during_resume: 2\n")
    assert held["timing_wraps_retry"].outcome == "passed", held["timing_wraps_retry"].reason
    wrong = results(tmp_path, PU + "014-timing-and-retry-composition.yaml", marker,
                    marker + "      successful_attempt_index_during_resume: 1\n")
    assert "successful_attempt_index_during_resume: expected 1, got 2" in wrong["timing_wraps_retry"].reason


def test_integer_expectations_tolerate_float_rounding_only():
    five = Scalar(value=5)
    assert match(five, 5.000000000000001).ok and match(five, 4.999999999999997).ok
    assert not match(five, 5.0001).ok and not match(five, 6).ok
    assert not match(Scalar(value=0), 1e-6).ok


@pytest.mark.parametrize("relative", [PU + "014-timing-and-retry-composition.yaml"])
def test_durations_from_the_stub_clock_compare_up_to_rounding(tmp_path, relative):
    assert outcomes(results(tmp_path, relative)) == {"passed"}
    wrong = results(tmp_path, relative, "- {node_name: target, duration_ms: 5, outcome: \"exception\"",
                    "- {node_name: target, duration_ms: 6, outcome: \"exception\"")
    assert wrong["retry_wraps_timing"].outcome == "failed"


@pytest.mark.parametrize("fixture, method", [("022-drain-timeout-elapses-with-undelivered.yaml", "drain"),
                                             ("030-drain-events-for-timeout.yaml", "drain_events_for")])
def test_a_drain_that_waits_for_paced_observers_fails_the_timeout_check(tmp_path, monkeypatch, fixture, method):
    """The timeout check counts event-loop turns after the deadline, so it survives a loaded machine;
    it must still fail a runtime drain that keeps waiting on its paced observers past the deadline."""
    from openarmature.graph.compiled import CompiledGraph

    honest = getattr(CompiledGraph, method)

    async def waits_past_deadline(self, *args, timeout=None):
        import asyncio

        if timeout is None:  # the adapter's own settle drain
            return await honest(self, *args, timeout=None)
        await asyncio.sleep(timeout + 0.15)  # less than one paced delivery (200-300 ms) late
        return await honest(self, *args, timeout=0)

    found = results(tmp_path, GE + fixture)
    assert outcomes(found) == {"passed"}
    monkeypatch.setattr(CompiledGraph, method, waits_past_deadline)
    failed = [r for r in results(tmp_path / "late", GE + fixture).values() if r.outcome == "failed"]
    assert failed and all("drain_returned_within_timeout: failed" in r.reason and "event-loop turns after" in r.reason
                          for r in failed), [r.reason for r in failed]


@pytest.mark.parametrize("fixture, method", [("022-drain-timeout-elapses-with-undelivered.yaml", "drain"),
                                             ("030-drain-events-for-timeout.yaml", "drain_events_for")])
def test_a_drain_descheduled_before_it_arms_its_timer_passes_the_timeout_check(tmp_path, monkeypatch, fixture, method):
    """On a loaded machine the thread can lose the CPU between the adapter's call and the drain arming
    its own timer; the drain then honours its deadline from where it began. The turn count must not
    blame it for the gap (it did once under load: 171 turns for a drain 22 ms late)."""
    import time

    from openarmature.graph.compiled import CompiledGraph

    honest = getattr(CompiledGraph, method)

    async def descheduled_then_honest(self, *args, timeout=None):
        if timeout is not None:
            time.sleep(0.08)  # the thread is off the CPU before the drain's first line
        return await honest(self, *args, timeout=timeout)

    monkeypatch.setattr(CompiledGraph, method, descheduled_then_honest)
    found = results(tmp_path, GE + fixture)
    assert outcomes(found) == {"passed"}, [r.reason for r in found.values()]


def test_concurrency_invariant_measures_real_overlap(tmp_path, monkeypatch):
    """The fan-out bodies yield to the loop when the case asserts concurrency, so the measured
    overlap is the runtime's: 2 under its semaphore (verified), 6 with the bound taken away (failed)."""
    import openarmature.graph.fan_out as fan_out

    fixture = PU + "022-fan-out-count-and-concurrency-modes.yaml"
    bounded = results(tmp_path / "bounded", fixture)["concurrency_callable_with_items_field"]
    assert bounded.outcome == "passed"
    (check,) = [c for c in bounded.checks if c.name == "expected.concurrency_invariant"]
    assert check.detail == "at most 2 instances were in flight at once"

    monkeypatch.setattr(fan_out, "_bounded_runner", lambda run_one, concurrency: run_one)  # unbounded
    unbounded = results(tmp_path / "unbounded", fixture)["concurrency_callable_with_items_field"]
    assert unbounded.outcome == "failed"
    assert "6 instances were in flight at once, more than 2" in unbounded.reason


def test_concurrency_invariant_fails_when_no_instance_ran(tmp_path):
    """An invariant over a fan-out that never dispatched an instance cannot pass vacuously."""
    found = results(tmp_path, PU + "022-fan-out-count-and-concurrency-modes.yaml",
                    "default: [10, 20, 30, 40, 50, 60]", "default: []")
    result = found["concurrency_callable_with_items_field"]
    assert result.outcome == "failed" and "no fan-out instance body ran" in result.reason


@pytest.mark.parametrize("change", ["drop the last delivery", "add a delivery"])
def test_delivery_order_is_the_whole_list_not_a_prefix(tmp_path, change):
    """`delivery_order` compares every delivery, not the first len(expected) (the mutation audit's
    list exploration found an expected list without its last delivery verifying)."""
    from .faults import failed_at, line_of, run_text, shared_text

    text = shared_text("graph-engine", "012-observer-basic-firing.yaml")
    last = "    - {observer: obs_invoke, step: 2, phase: completed}\n"
    assert text.count(last) == 1
    faulty = text.replace(last, "" if change.startswith("drop") else last + last, 1)
    result, = run_text(tmp_path, faulty, "graph-engine", "012-observer-basic-firing.yaml")
    failed_at(result, line_of(faulty, "delivery_order:"))


def test_a_file_checkpointer_leaves_no_files_behind(tmp_path, monkeypatch):
    """The SQLite backend writes under a temporary directory of the case, removed when the case ends
    (a run of the corpus once left one directory per sqlite case in the temp directory)."""
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    found = results(tmp_path / "spec", PU + "040-state-migration-chain.yaml")
    assert outcomes(found) == {"passed"}, [r.reason for r in found.values()]
    assert not list(scratch.iterdir())


EMPTY_OUTPUTS = """\
state:
  fields:
    x: {type: int, default: 0}
subgraphs:
  inner:
    state:
      fields:
        x: {type: int, default: 0}
    entry: s
    nodes:
      s: {update: {x: 5}}
    edges:
      - {from: s, to: END}
entry: run
nodes:
  run:
    subgraph: inner
    outputs: {}
edges:
  - {from: run, to: END}
initial_state: {}
expected:
  final_state: {x: 0}
"""


def test_a_present_empty_outputs_map_projects_nothing(tmp_path):
    """graph-engine §2: a present `outputs` map replaces field-name matching, so `{}` projects nothing
    (it was read as absent, and the same-named field came out)."""
    assert run_case(cases_of(write_fixture(tmp_path / "empty", EMPTY_OUTPUTS))[0]).outcome == "passed"
    without = EMPTY_OUTPUTS.replace("    outputs: {}\n", "")  # field-name matching: x comes out as 5
    result = run_case(cases_of(write_fixture(tmp_path / "absent", without))[0])
    assert result.outcome == "failed" and "final_state.x: expected 0, got 5" in result.reason


def test_an_omitted_max_attempts_is_the_runtimes_default(monkeypatch):
    """A `retry` block without max_attempts leaves the runtime's default in force (it was the
    adapter's own 3): a runtime whose default is 5 gets 5."""
    import dataclasses

    from oa_conformance.interpreter.running import middleware as behaviors

    @dataclasses.dataclass(frozen=True)
    class DefaultFive(behaviors.oa.RetryConfig):
        max_attempts: int = 5

    monkeypatch.setattr(behaviors.oa, "RetryConfig", DefaultFive)
    from oa_conformance.ast.views import BY_FAMILY

    spec = BY_FAMILY["middleware"].make(order=(), key_spans=())  # `retry: {}`
    assert behaviors.retry_middleware(spec, None, "n").config.max_attempts == 5


def test_a_crash_after_a_node_inside_a_fan_out_instance_fires_on_that_nodes_save(tmp_path):
    """conformance-adapter §5.6 `after_node`: the node's save on its completed event — for a node of a
    fan-out instance's subgraph (pipeline-utilities §10.3), the save recording it among the instance's
    inner positions. Named elsewhere, the crash never fires: the first run completes every instance."""
    source = BUNDLED_SPEC / "pipeline-utilities" / "conformance" / "156-crash-before-instance-completed-save.yaml"
    text = source.read_text(encoding="utf-8")
    assert text.count("after_node: last") == 1
    for node, outcome in (("last", "passed"), ("first", "passed"), ("nowhere", "failed")):
        ref = write_fixture(tmp_path / node, text.replace("after_node: last", f"after_node: {node}"),
                            capability="pipeline-utilities", name=source.name)
        (case,) = cases_of(ref)
        result = run_case(case, timeout=30)
        assert result.outcome == outcome, (node, result)
        if outcome == "failed":
            failed = {c.name for c in result.checks if c.status == "failed"}
            assert "saved_record_assertions.fan_out_progress" in failed, failed


NODE_RAISES = """\
state:
  fields:
    log: {type: list<string>, reducer: append, default: []}
entry: a
nodes:
  a:
    raises: "boom"
edges:
  - {from: a, to: END}
initial_state: {}
expected_error:
  category: node_exception
  message: "boom"
"""


def test_a_raising_cause_chain_classifier_fails_the_check_that_needed_it(tmp_path, monkeypatch):
    """The runtime's ``classify_cause_chain`` raising is reported, not swallowed (house rule 2): the
    check comparing the message the chain derives fails at its own line, naming what was raised; the
    error's own category, which needs no classification, is still verified; nothing crashes."""
    from oa_conformance.host import graph

    ref = write_fixture(tmp_path, NODE_RAISES)
    (case,) = cases_of(ref)
    assert run_case(case, timeout=20).outcome == "passed"

    def classify_cause_chain(error):
        raise RuntimeError("the classifier broke")

    monkeypatch.setattr(graph, "classify_cause_chain", classify_cause_chain, raising=False)
    result = run_case(case, timeout=20)
    assert result.outcome == "failed" and result.category is None  # a failed check, not an adapter error
    failing = {c.name: c for c in result.checks if c.status != "verified"}
    assert list(failing) == ["expected_error.message"]
    check = failing["expected_error.message"]
    assert (check.location.line, check.location.column) == (NODE_RAISES.splitlines().index('  message: "boom"') + 1, 3)
    assert check.detail == "nothing to compare: the runtime's classify_cause_chain raised RuntimeError: the classifier broke"
    assert any(c.name == "expected_error.category" and c.status == "verified" for c in result.checks)
