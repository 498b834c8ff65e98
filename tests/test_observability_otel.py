"""The observability harness's OTel capture: isolation from the OTel globals, determinism, and rules
that fail at the right line when a real fixture is made wrong."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from oa_conformance.model.discovery import FixtureRef, discover
from oa_conformance.pipeline import cases_of
from oa_conformance.scheduling.runner import run_all

from .conftest import shared_fixture

CONFORMANCE = "spec/observability/conformance"


def _globals():
    from opentelemetry import metrics, trace

    root = logging.getLogger()
    return (trace._TRACER_PROVIDER, trace._TRACER_PROVIDER_SET_ONCE._done, metrics._internal._METER_PROVIDER,
            tuple(root.handlers), logging.getLogRecordFactory())


def _verdicts(refs):
    return {result.ref.id: (result.outcome, result.reason) for result in run_all(refs)}


def test_a_full_run_leaves_the_otel_globals_untouched_and_repeats_identically(shared_spec):
    refs = [ref for fixture in discover([str(shared_spec)], ["observability"]) for ref in cases_of(fixture)]
    before = _globals()
    first = _verdicts(refs)
    assert _globals() == before  # tracer, meter provider, root handlers, record factory: as they were
    second = _verdicts(refs)
    assert _globals() == before
    # Cases that sleep or race on purpose may differ in timing text; their outcomes may not.
    assert {case: outcome for case, (outcome, _) in first.items()} == {case: outcome for case, (outcome, _) in second.items()}


def copy_with_fault(tmp_path: Path, name: str, old: str, new: str, occurrence: int = 1) -> tuple[FixtureRef, int]:
    """A copy of the shared fixture ``name`` with the ``occurrence``-th ``old`` replaced by ``new``;
    returns it and the 1-based line of the change."""
    text = shared_fixture(f"observability/conformance/{name}").read_text()
    at = -1
    for _ in range(occurrence):
        at = text.index(old, at + 1)
    line = text.count("\n", 0, at) + 1
    directory = tmp_path / CONFORMANCE
    directory.mkdir(parents=True)
    (directory / name).write_text(text[:at] + new + text[at + len(old):])
    return FixtureRef(str(directory / name), "observability", name), line


def only_result(ref: FixtureRef, case: str | None = None):
    refs = [r for r in cases_of(ref) if case is None or r.name == case]
    (result,) = run_all(refs)
    return result


FAULTS = [
    # (fixture, old text, new text, occurrence, what the message names)
    ("001-otel-basic-trace.yaml", '- name: "b"', '- name: "bb"', 1, "name"),  # a wrong span name
    ("001-otel-basic-trace.yaml", 'openarmature.node.name: "a"', 'openarmature.node.name: "a"\n            openarmature.node.missing: 1', 1,
     "openarmature.node.missing"),  # a missing attribute (the added line is the next one)
    ("097-otel-tool-span-attributes.yaml", "- gen_ai.tool.name", "- openarmature.tool.name", 1, "absent"),  # present made absent
    ("002-otel-subgraph-hierarchy.yaml", "children: []", 'children: [{name: "inner_x"}]', 2, "children"),  # a broken parent link
    ("088-llm-metrics-token-and-duration.yaml", 'gen_ai.system: "openai"', 'gen_ai.system: "anthropic"', 1, "gen_ai.system"),  # a wrong dimension
    ("005-otel-llm-provider-span-nested.yaml", 'span_name: "external.llm.call"', 'span_name: "openarmature.leaked"', 1,
     "no openarmature span"),  # a leaked global span
]


@pytest.mark.parametrize("fixture, old, new, occurrence, named", FAULTS, ids=[f"{f[0][:3]}-{f[4]}" for f in FAULTS])
def test_a_fault_in_a_real_fixture_fails_the_case_at_its_line(tmp_path, fixture, old, new, occurrence, named):
    ref, line = copy_with_fault(tmp_path, fixture, old, new, occurrence)
    cases = cases_of(ref)
    results = list(run_all(cases))
    failed = [r for r in results if r.outcome == "failed"]
    assert failed, [(r.ref.id, r.outcome, r.reason) for r in results]
    result = failed[0]
    if "\n" in new and named != "name":
        line += 1  # the fault is the added line
    if fixture.startswith("005"):  # the leak is judged where the fixture asserts no leak
        text = Path(ref.path).read_text()
        line = text.count("\n", 0, text.index("no_openarmature_spans_on_global")) + 1
    located = [check for check in result.checks if check.status == "failed" and f":{line}:" in str(check.location)]
    assert located, (line, [(c.name, str(c.location)) for c in result.checks if c.status != "verified"])
    assert named in located[0].detail or named in located[0].name


def test_the_unmodified_fixtures_pass():
    for name in sorted({fault[0] for fault in FAULTS}):
        fixture = FixtureRef(str(shared_fixture(f"observability/conformance/{name}")), "observability", name)
        for result in run_all(cases_of(fixture)):
            assert result.outcome == "passed", (result.ref.id, result.reason)


# (fixture, case or None, old text, new text, occurrence, the check that must fail at the changed line)
RULE_FAULTS = [
    # a §5.10 token in a predicate's value is a matcher: a dashed UUID is no <uuid-hex>
    ("009-otel-correlation-id-cross-cutting.yaml", "auto_generated_uuidv4_when_absent",
     'correlation_id_uniform_across_tree: "<uuid>"', 'correlation_id_uniform_across_tree: "<uuid-hex>"', 1,
     "correlation_id_uniform_across_tree"),
    # the dispatch spans' end order is compared, not just their names
    ("152-otel-parallel-branch-orphan-llm-fallback.yaml", None,
     '["branch_a", "branch_b"]', '["branch_b", "branch_a"]', 1, "dispatch_spans_close_in_declaration_order"),
    # the deepest node spans are counted (four `ask` spans), not every node span
    ("132-otel-nested-fan-out-span-keying-and-llm-exact-match.yaml", None,
     "inner_node_span_count: 4", "inner_node_span_count: 3", 1, "inner_node_span_count"),
    # the null counter reaches no surface: asserting that it does must fail
    ("147-otel-null-counter-reaches-no-span-histogram-or-budget.yaml", None,
     "null_prompt_tokens_reaches_no_span_histogram_or_budget_surface: true",
     "null_prompt_tokens_reaches_no_span_histogram_or_budget_surface: false", 1,
     "null_prompt_tokens_reaches_no_span_histogram_or_budget_surface"),
    # retry attempts: the sibling attempt spans are counted and their indices read in start order
    ("007-otel-retry-attempt-spans.yaml", "retry_exhausts_all_three_spans_error",
     "sibling_attempt_count_under_invocation: 3", "sibling_attempt_count_under_invocation: 2", 2, "sibling_attempt_count_under_invocation"),
    ("007-otel-retry-attempt-spans.yaml", "retry_exhausts_all_three_spans_error",
     "attempt_indices: [0, 1, 2]", "attempt_indices: [0, 2, 1]", 2, "attempt_indices"),
    # detached traces: each detached root is an invocation span sharing the parent's invocation_id
    ("008-otel-detached-trace-mode.yaml", "detached_fan_out_one_trace_per_instance",
     "each_instance_trace_roots_in_invocation_span_sharing_parent_invocation_id: true",
     "each_instance_trace_roots_in_invocation_span_sharing_parent_invocation_id: false", 1,
     "each_instance_trace_roots_in_invocation_span_sharing_parent_invocation_id"),
    ("008-otel-detached-trace-mode.yaml", "detached_fan_out_one_trace_per_instance",
     "no_instance_spans_in_parent_trace: true", "no_instance_spans_in_parent_trace: false", 1, "no_instance_spans_in_parent_trace"),
    ("008-otel-detached-trace-mode.yaml", "detached_fan_out_instance_raises_error_status_on_both_spans",
     "detached_invocation_id_equals_parent: true", "detached_invocation_id_equals_parent: false", 3, "detached_invocation_id_equals_parent"),
    ("008-otel-detached-trace-mode.yaml", "detached_fan_out_instance_raises_error_status_on_both_spans",
     "fan_out_node_span_link_count: 1", "fan_out_node_span_link_count: 3", 1, "fan_out_node_span_link_count"),
    # the nested fan-out's node spans are found (they carry the outer index) and checked one by one
    ("132-otel-nested-fan-out-span-keying-and-llm-exact-match.yaml", None,
     'unique_fan_out_indices_per_node_span_under: "inner_fan_out"', 'unique_fan_out_indices_per_node_span_under: "ask"', 1,
     "unique_fan_out_indices_per_node_span_under"),
    # the callable branch's §6 events under node-level retry (the spans are a known runtime deviation)
    ("119-otel-callable-branch-attempt-index-under-node-retry.yaml", None,
     "retrieve_node_attempt_indices_seen: [0, 1]", "retrieve_node_attempt_indices_seen: [0]", 1, "retrieve_node_attempt_indices_seen"),
    ("119-otel-callable-branch-attempt-index-under-node-retry.yaml", None,
     "vector_callable_branch_attempt_indices_seen: [0, 1]", "vector_callable_branch_attempt_indices_seen: [1]", 1,
     "vector_callable_branch_attempt_indices_seen"),
    ("119-otel-callable-branch-attempt-index-under-node-retry.yaml", None,
     "callable_branch_events_report_current_attempt_index: true", "callable_branch_events_report_current_attempt_index: false", 1,
     "callable_branch_events_report_current_attempt_index"),
    ("119-otel-callable-branch-attempt-index-under-node-retry.yaml", None,
     "callable_branch_started_and_completed_carry_attempt_index_one_on_retry: true",
     "callable_branch_started_and_completed_carry_attempt_index_one_on_retry: false", 1,
     "callable_branch_started_and_completed_carry_attempt_index_one_on_retry"),
    ("119-otel-callable-branch-attempt-index-under-node-retry.yaml", None,
     "sibling_parallel_branches_node_spans_per_attempt: 2", "sibling_parallel_branches_node_spans_per_attempt: 1", 1,
     "sibling_parallel_branches_node_spans_per_attempt"),
]


@pytest.mark.parametrize("fixture, case, old, new, occurrence, named", RULE_FAULTS, ids=[f[5] for f in RULE_FAULTS])
def test_a_predicate_rule_holds_on_the_real_fixture_and_fails_on_a_fault(tmp_path, fixture, case, old, new, occurrence, named):
    original = FixtureRef(str(shared_fixture(f"observability/conformance/{fixture}")), "observability", fixture)
    assert [c.status for c in only_result(original, case).checks if named in c.name] == ["verified"]
    ref, line = copy_with_fault(tmp_path, fixture, old, new, occurrence)
    result = only_result(ref, case)
    assert result.outcome == "failed", (result.outcome, result.reason)
    located = [c for c in result.checks if c.status == "failed" and f":{line}:" in str(c.location)]
    assert located and named in located[0].name, (line, [(c.name, str(c.location)) for c in result.checks if c.status != "verified"])


def test_a_pre_phase_wrapper_call_is_an_orphan_beside_its_node_span(tmp_path):
    """calls_llm_from_wrapper (conformance-adapter §5.1): the pre-phase call's span is emitted before
    the node's span opens, so it is the node span's sibling. A post-phase call made while the node
    span is still open nests under it, and the same fixture then fails at its orphan predicates."""
    fixture = "133-otel-nested-fan-out-orphan-llm-fallback.yaml"
    original = FixtureRef(str(shared_fixture(f"observability/conformance/{fixture}")), "observability", fixture)
    assert only_result(original).outcome == "passed"
    ref, _ = copy_with_fault(tmp_path, fixture, "phase: pre\n", "phase: post\n")
    result = only_result(ref)
    assert result.outcome == "failed", (result.outcome, result.reason)
    failed = {c.name for c in result.checks if c.status == "failed"}
    assert "expected.invariants.orphan_llm_span_sibling_of_calling_node_span" in failed, failed


def test_a_composite_nodes_own_directives_run_before_its_dispatch(tmp_path):
    """A subgraph node's `emits_log` runs (a record is captured) rather than being dropped; a state
    write among a composite node's own directives has nowhere to go and fails the run."""
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case
    from oa_conformance.model.trace.document import document

    fixture = "010-otel-log-correlation.yaml"
    case = "detached_subgraph_log_uses_detached_trace_id_keeps_correlation_id"
    original = FixtureRef(str(shared_fixture(f"observability/conformance/{fixture}")), "observability", fixture)
    (ref,) = [r for r in cases_of(original) if r.name == case]
    bodies = [record["body"] for record in document(execute_case(ref.scenario, contract=harness_for("observability")))["otel"]["logs"]]
    assert "before subgraph dispatch" in bodies, bodies
    faulty, _ = copy_with_fault(tmp_path, fixture, "      outer_dispatch:\n", "      outer_dispatch:\n        update_pure: {z: 1}\n")
    result = only_result(faulty, case)
    # raised inside the runtime's dispatch, the gap surfaces as the run's error: the case fails on it
    assert result.outcome == "failed", (result.outcome, result.reason)
    details = " ".join(check.detail for check in result.checks)
    assert "state write on a composite node" in details, details


@pytest.mark.parametrize("old, new", [
    ("type: immutable_mapping", "type: mutable_mapping"),  # the runtime returns a read-only mapping
    ("value: {}", "value: {tenant: acme}"),  # nothing is active outside an invocation
    ("exception: null", "exception: {type: RuntimeError}"),  # the read does not raise
])
def test_a_direct_call_result_fault_fails_the_case_at_its_line(tmp_path, old, new):
    """`direct_call:` (no graph) records what the API returned; each part of the result is checked."""
    name = "046-get-invocation-metadata-outside-invocation.yaml"
    assert only_result(FixtureRef(str(shared_fixture(f"observability/conformance/{name}")), "observability", name)).outcome == "passed"
    ref, line = copy_with_fault(tmp_path, name, old, new)
    result = only_result(ref)
    assert result.outcome == "failed", result.reason
    assert any(check.status == "failed" and f":{line}:" in str(check.location) for check in result.checks), result.reason


def test_the_invocations_count_form_runs_the_case_that_many_times(tmp_path):
    """`invocations: <n>` runs the same graph n times: one run fewer fails the count and the
    per-invocation correlation-id predicate at their lines."""
    name = "009-otel-correlation-id-cross-cutting.yaml"
    case = "context_reset_between_invocations"
    ref = FixtureRef(str(shared_fixture(f"observability/conformance/{name}")), "observability", name)
    assert only_result(ref, case).outcome == "passed"
    faulty, _ = copy_with_fault(tmp_path, name, "invocations: 2", "invocations: 1")
    result = only_result(faulty, case)
    text = Path(faulty.path).read_text()
    lines = [text.count("\n", 0, text.index(needle)) + 1 for needle in ("invocation_count: 2", "correlation_ids_differ_across_invocations")]
    failed = {check.location.line for check in result.checks if check.status == "failed"}
    assert result.outcome == "failed" and set(lines) <= failed, (lines, result.reason)


@pytest.mark.parametrize("old, new, needle", [
    ("require_equal: true", "require_equal: false", "determinism_check"),  # identical runs claimed to differ
    ("- openarmature.invocation_id  ", "- openarmature.unused_name  ", "determinism_check"),  # a per-run id compared
    ("invocations: 2", "invocations: 1", "determinism_check"),  # nothing to compare run 0 with
    # one run named (found by the mutation audit dropping a list's last item: the rule unpacked two
    # and raised ValueError out of run_case); the failure is at compare_runs
    ("compare_runs: [0, 1]", "compare_runs: [0]", "compare_runs"),
    ("compare_runs: [0, 1]", "compare_runs: [1, 1]", "compare_runs"),  # a run is identical to itself
])
def test_a_determinism_fault_fails_the_case_at_its_line(tmp_path, old, new, needle):
    name = "011-otel-determinism.yaml"
    fails_at_needle(tmp_path, name, old, new, needle)


@pytest.mark.parametrize("bound, flag", [(0, "true"), (5, "false")])
def test_an_edge_when_routes_by_its_comparison_else_the_unguarded_sibling(tmp_path, bound, flag):
    """011's conditional edge form: `when: {field, gt}` is taken when it holds, else the sibling edge."""
    from .faults import run_text

    name = "011-otel-determinism.yaml"
    text = shared_fixture(f"observability/conformance/{name}").read_text()
    cut = text.index("    invocations: 2")
    fixture = text[:cut].replace("gt: 0", f"gt: {bound}") + f"    expected:\n      final_state: {{counter: 1, flag: {flag}}}\n"
    (result,) = run_text(tmp_path, fixture, "observability", name)
    assert result.outcome == "passed", result.reason
    wrong = fixture.replace(f"final_state: {{counter: 1, flag: {flag}}}", f"final_state: {{counter: 1, flag: {'false' if flag == 'true' else 'true'}}}")
    (result,) = run_text(tmp_path / "wrong", wrong, "observability", name)
    assert result.outcome == "failed", result.reason


@pytest.mark.parametrize("old, new, needle", [
    # the retry attempt claimed to see the failed attempt's write: the runtime discards it
    ('          tenantId: "T1"\n        downstream_read:', '          tenantId: "T1"\n          attempt_marker: "first"\n        downstream_read:', 'attempt_marker: "first"\n        downstream_read'),
    ('attempt_marker: "second"\n      invariants', 'attempt_marker: "first"\n      invariants', 'attempt_marker: "first"\n      invariants'),
    ("max_attempts: 2", "max_attempts: 1", "final_state"),  # no retry: the transient error fails the run
])
def test_a_per_attempt_fault_fails_the_retried_case_at_its_line(tmp_path, old, new, needle):
    """`retry_middleware` + `per_attempt_behavior`: each attempt runs its own entry under the
    runtime's RetryMiddleware, and the reads the fixture captured are judged exactly."""
    name = "045-get-invocation-metadata-retry-scoping.yaml"
    fails_at_needle(tmp_path, name, old, new, needle)


@pytest.mark.parametrize("old, new, needle", [
    ("max: 5", "max: -1", "observed_count:\n          min"),  # the counter's read is out of the bounds
    ("min: 0", "min: 6", "observed_count:\n          min"),
])
def test_a_queryable_observer_read_fault_fails_the_case_at_its_line(tmp_path, old, new, needle):
    """`queryable_observers` + `capture_queryable_observer_read_into`: the read lands in state and
    `final_state_bounds` judges it."""
    name = "047-queryable-observer-pattern.yaml"
    fails_at_needle(tmp_path, name, old, new, needle)


def test_sequential_invocations_run_each_entry_and_judge_its_per_invocation_block():
    """049 runs twice (`sequential_invocations`) with one accumulator attached throughout; each
    `per_invocation` block is judged against its own run — here the mid-run read is empty (the
    runtime delivers the events after the read, as §9.2 allows), so both runs' checks fail at their lines.
    The empty read lands in the mapping field as an empty mapping, so each run completes and its
    drop check is judged (verified), rather than the run dying on a ``None`` in a dict field."""
    name = "049-queryable-observer-lifecycle-drop.yaml"
    result = only_result(FixtureRef(str(shared_fixture(f"observability/conformance/{name}")), "observability", name))
    text = shared_fixture(f"observability/conformance/{name}").read_text()
    first = text.count("\n", 0, text.index("captured_bucket_is_non_empty")) + 1
    second = text.count("\n", 0, text.index("captured_bucket_is_non_empty", text.index("invocation_2:"))) + 1
    failed = {str(check.location) for check in result.checks if check.status == "failed"}
    assert result.outcome == "failed"
    assert any(f":{first}:" in where for where in failed) and any(f":{second}:" in where for where in failed), failed
    drops = [check.status for check in result.checks if check.name.endswith(".bucket_after_drop_is_absent")]
    assert drops == ["verified", "verified"], [(c.name, c.status, c.detail) for c in result.checks]


def fails_at_needle(tmp_path: Path, name: str, old: str, new: str, needle: str) -> None:
    """The unmodified fixture passes; the copy with ``old`` → ``new`` fails a check at the line of
    ``needle`` (searched in the modified text)."""
    assert only_result(FixtureRef(str(shared_fixture(f"observability/conformance/{name}")), "observability", name)).outcome == "passed"
    faulty, _ = copy_with_fault(tmp_path, name, old, new)
    text = Path(faulty.path).read_text()
    line = text.count("\n", 0, text.index(needle)) + 1
    result = only_result(faulty)
    assert result.outcome == "failed", result.reason
    assert any(check.status == "failed" and f":{line}:" in str(check.location) for check in result.checks), (line, result.reason)


def test_a_branch_augment_metadata_fault_fails_the_case_at_its_line(tmp_path):
    """`branch.augment_metadata` writes at the top of that branch's body, in its own context: without
    it, the branch's observations lack the key the fixture expects on them."""
    fails_at_needle(tmp_path, "030-caller-metadata-parallel-branches-per-branch.yaml",
                    '              augment_metadata:\n                branchName: "policy_audit"\n', "",
                    'branchName: "policy_audit"')


SUBGRAPH_CALL = """\
cases:
  - name: subgraph_call_maps_in_and_out
    subgraphs:
      doubler:
        state:
          fields:
            n: {type: int, default: 0}
            doubled: {type: int, default: 0}
        entry: double
        nodes:
          double:
            update_pure: {doubled: 14}
        edges:
          - {from: double, to: END}
    state:
      fields:
        seed: {type: int, default: 7}
        result: {type: int, default: 0}
    entry: wrap
    nodes:
      wrap:
        subgraph_call:
          subgraph: doubler
          inputs: {n: seed}
          outputs: {result: doubled}
    edges:
      - {from: wrap, to: END}
    initial_state: {}
    expected:
      final_state: {seed: 7, result: 14}
      traces:
        - trace_id: "<trace_id_a>"
          span_tree:
            - name: "openarmature.invocation"
              children:
                - name: "wrap"
                  children:
                    - name: "double"
                      children: []
"""


@pytest.mark.parametrize("old, new, needle", [
    (None, None, None),
    ("outputs: {result: doubled}", "outputs: {seed: doubled}", "final_state"),   # the mapping is the one applied
    ('- name: "double"', '- name: "wrap"', "traces"),                           # the subgraph's node ran inside it
])
def test_a_subgraph_call_node_runs_its_subgraph_with_its_mapping(tmp_path, old, new, needle):
    """`subgraph_call: {subgraph, inputs, outputs}` is a subgraph node whose mapping sits in one block."""
    from .test_run import only_result, write_fixture

    text = SUBGRAPH_CALL if old is None else SUBGRAPH_CALL.replace(old, new)
    result = only_result(write_fixture(tmp_path, text, capability="observability"))
    if needle is None:
        assert result.outcome == "passed", result.reason
    else:
        assert result.outcome == "failed" and f"expected.{needle}" in result.reason, result.reason
