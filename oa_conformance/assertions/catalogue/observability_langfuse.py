"""The observability predicates about Langfuse traces and typed events (the `langfuse` and
`typed_events` collections of docs/TRACE.md), named by the directory's fixtures and defined in their
prose. The OTel-side rows are in :mod:`.observability_otel`; both are the `observability` table.

Most rows restate an expectation of the same case (the fixture's `langfuse_trace` / `observers`
block already asserts exactly what the name says); those are in :mod:`.observability_restating`.
The rest read the collections: per-family event counts (the family is spelled snake_case in the
name and CamelCase in the trace — a mapping JMESPath cannot make), and trace-level derivations
joining a Trace with its invocation. Their compute functions are in
:mod:`.observability_langfuse_compute`, the example documents in :mod:`.observability_langfuse_examples`.
"""

from __future__ import annotations

from .examples import case, invocation
from .observability_langfuse_compute import (
    ALL_USAGE_ATTRIBUTES, COMPLETION, COUNTERS, EMBED, FAILED, FAMILY_CHOICES, INPUT_USAGE_ATTRIBUTES,
    child_trace_id_count, correlation_across_traces, correlation_consistent, count_is, detached_from,
    distinct_trace_ids, every_node_once, exception_alongside_event, generation_count, hooks_refire,
    ids_distinct, ids_present, index_range, input_bound_not_evaluated, instance_trace_ids_distinct,
    no_instances_in_parent, no_success_event_on_failure, not_augmented, nulled, parents_agree,
    raw_id_in_metadata, siblings_isolated, tool_call_id_from_llm, trace_id_is_sha256, trace_id_is_uuid_hex,
    unique_indices_under,
)
from .observability_langfuse_examples import (
    CHILD_A, CHILD_B, DURATION, EXCEEDED, HEX, NULL_PROMPT, PARENT, RUN_ONE, SHA, SNAPSHOT_READ, UUID,
    augmented_case, count_examples, errored, langfuse, llm_case, observation, reads, resumed_with_hooks,
    sibling_case, trace, usage_case, with_call_ids,
)
from .observability_restating import RESTATING
from .rows import Compute, Example, Query


# ---- the rows ------------------------------------------------------------------------------------

COUNTS = (
    Compute(f"exactly_one_[terminal_]<family:{FAMILY_CHOICES}>_event[_observed][_per_failed_call]",
            "Exactly one event of the family named reached the collector (per the case's single call).",
            count_is(1), "the family is snake_case in the name and CamelCase in the trace",
            **count_examples("llm_completion", 1, "exactly_one_llm_completion_event_observed")),
    Compute(f"zero_<family:{FAMILY_CHOICES}>_events<when:|_observed|_on_failed_call|_on_failed_stream|_per_failed_call"
            "|_on_failure|_on_success|_on_non_streamed_call>",
            "No event of the family named reached the collector (the mutual-exclusion / absence side).",
            count_is(0), "the family is snake_case in the name and CamelCase in the trace",
            **count_examples("embedding", 0, "zero_embedding_events_on_failed_call")),
)


TRACE_LEVEL = (
    Compute("trace_id_equals_invocation_id_dashes_stripped", "The Trace's id is the invocation_id, dashes stripped (§8.4.1).",
            trace_id_is_uuid_hex, "joins the Trace with its invocation and strips the dashes",
            holds=Example(langfuse([PARENT], invocation_id=UUID)), fails=Example(langfuse([trace(UUID, "0" * 32)], invocation_id=UUID))),
    Compute("langfuse_trace_id_is_uuid_hex_dashes_stripped", "A caller UUID invocation id becomes trace.id as its 32-hex form.",
            trace_id_is_uuid_hex, "joins the Trace with its invocation and strips the dashes",
            holds=Example(langfuse([PARENT], invocation_id=UUID)), fails=Example(langfuse([trace(UUID, UUID)], invocation_id=UUID))),
    Compute("langfuse_trace_id_is_sha256_first16_hex", "A non-UUID invocation id becomes trace.id = first 16 bytes of its SHA-256, as hex.",
            trace_id_is_sha256, "a hash JMESPath cannot compute",
            holds=Example(langfuse([trace("run_abc123", SHA)], invocation_id="run_abc123")),
            fails=Example(langfuse([trace("run_abc123", HEX)], invocation_id="run_abc123"))),
    Compute("raw_invocation_id_in_trace_metadata", "The raw (non-UUID) invocation id is kept in trace.metadata.invocation_id.",
            raw_id_in_metadata, "joins the Trace's metadata with its own invocation id",
            holds=Example(langfuse([trace("run_abc123", SHA, invocation_id="run_abc123")], invocation_id="run_abc123")),
            fails=Example(langfuse([trace("run_abc123", SHA)], invocation_id="run_abc123"))),
    Compute("correlation_id_consistency", "Every Trace, observation and span carries one and the same correlation_id (§8.5, §3).",
            correlation_consistent, "one value across two backends' collections",
            holds=Example(langfuse([PARENT], [observation(HEX, correlation_id="c")], UUID, otel=[{"attributes": {"openarmature.correlation_id": "c"}}])),
            fails=Example(langfuse([PARENT], [observation(HEX, correlation_id="d")], UUID))),
    Compute("correlation_id_consistent_across_traces", "The parent and detached Traces share one correlation_id.",
            correlation_across_traces, "one value across several Traces, at least two",
            holds=Example(langfuse([PARENT, CHILD_A], invocation_id=UUID)),
            fails=Example(langfuse([PARENT, trace("d1", "aa" * 16, correlation_id="other")], invocation_id=UUID))),
    Compute("hooks_refire_on_resumed_trace",
            "§8.4.1: the trace input/output hooks fired on each run, the resumed one included, and each Trace holds what its own run's calls returned.",
            hooks_refire, "joins the logged hook calls with the Traces and the runs by invocation id",
            holds=Example(resumed_with_hooks({"a": True}, {"a": True}), invocation=None),
            fails=Example(resumed_with_hooks({"a": True}, {"a": False}), invocation=None)),
    Compute("distinct_trace_ids", "Every Trace of the case has its own id.", distinct_trace_ids, "pairwise distinctness over at least two",
            holds=Example(langfuse([PARENT, CHILD_A], invocation_id=UUID)), fails=Example(langfuse([PARENT, PARENT], invocation_id=UUID))),
    Compute("all_instance_trace_ids_distinct", "Each detached fan-out instance got its own Trace id.", instance_trace_ids_distinct,
            "pairwise distinctness over the detached Traces",
            holds=Example(langfuse([PARENT, CHILD_A, CHILD_B], invocation_id=UUID)),
            fails=Example(langfuse([PARENT, CHILD_A, CHILD_A], invocation_id=UUID))),
    Compute("all_instance_traces_carry_detached_from_invocation_id", "Every detached Trace points back to the parent invocation id.",
            detached_from, "one common value over the detached Traces",
            holds=Example(langfuse([PARENT, CHILD_A, CHILD_B], invocation_id=UUID), value="<invocation_id_parent>"),
            fails=Example(langfuse([PARENT, CHILD_A, trace("d2", "bb" * 16, detached_from_invocation_id="x")], invocation_id=UUID), value=UUID)),
    Compute("dispatch_detached_child_trace_id_count", "The dispatching observation lists one child trace id per detached child.",
            child_trace_id_count, "sums list lengths over the dispatching observations",
            holds=Example(langfuse([PARENT], [observation(HEX, detached=True, detached_child_trace_ids=["x", "y"])], UUID), value=2),
            fails=Example(langfuse([PARENT], [observation(HEX, detached=True, detached_child_trace_ids=["x"])], UUID), value=2)),
    Compute("no_instance_spans_in_parent_trace", "No fan-out instance observation stays in the parent Trace when instances are detached.",
            no_instances_in_parent, "joins observations with the invocation's Trace",
            holds=Example(langfuse([PARENT, CHILD_A], [observation("aa" * 16, fan_out_index=0)], UUID)),
            fails=Example(langfuse([PARENT, CHILD_A], [observation(HEX, fan_out_index=0)], UUID))),
    Compute("unique_fan_out_indices_under", "The fan-out instances under the named node carry distinct fan_out_index values.",
            unique_indices_under, "pairwise distinctness filtered by a parameter",
            holds=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (0, 1)], UUID), value="p"),
            fails=Example(langfuse([PARENT], [observation(HEX, fan_out_index=0, fan_out_parent_node_name="p") for _ in (0, 1)], UUID), value="p")),
    Compute("fan_out_index_range", "The instances' fan_out_index values span exactly [min, max].", index_range, "a min / max over the instances",
            holds=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (0, 1, 2)], UUID), value=[0, 2]),
            fails=Example(langfuse([PARENT], [observation(HEX, fan_out_index=i, fan_out_parent_node_name="p") for i in (1, 2)], UUID), value=[0, 2])),
    Compute("generation_count", "The number of Generation observations the case recorded.", generation_count, "counts one type across Traces",
            holds=Example(langfuse([PARENT], [observation(HEX, type="generation")] * 2, UUID), value=2),
            fails=Example(langfuse([PARENT], [observation(HEX, type="generation")], UUID), value=2)),
)


CALLS = (
    Compute("<which:all_call_ids_present|all_call_ids_are_non_empty_strings|all_call_ids_non_null>",
            "Every collected call event carries a non-empty call_id.",
            ids_present("llm_completion", "llm_failed", "embedding", "embedding_failed", "rerank", "rerank_failed"),
            "a predicate over every event of several families",
            holds=Example(with_call_ids((COMPLETION, "c1"), (COMPLETION, "c2")), name="all_call_ids_present"),
            fails=Example(with_call_ids((COMPLETION, "c1"), (COMPLETION, None)), name="all_call_ids_present")),
    Compute("<which:call_ids_pairwise_distinct|call_ids_distinct_across_embedding_events|call_ids_distinct_across_rerank_events"
            "|completion_and_failed_event_call_ids_distinct|two_call_ids_distinct_and_non_null>",
            "The collected call events carry pairwise distinct call_ids (one per call).",
            ids_distinct("llm_completion", "llm_failed", "embedding", "embedding_failed", "rerank", "rerank_failed"),
            "pairwise distinctness over several families",
            holds=Example(with_call_ids((EMBED, "e1"), (EMBED, "e2")), name="call_ids_distinct_across_embedding_events"),
            fails=Example(with_call_ids((EMBED, "e1"), (EMBED, "e1")), name="call_ids_distinct_across_embedding_events")),
    Compute("completion_event_call_id_present_and_non_empty", "The LlmCompletionEvent carries a non-empty call_id.",
            ids_present("llm_completion"), "a predicate over one family's events",
            holds=Example(with_call_ids((COMPLETION, "c1"))), fails=Example(with_call_ids((COMPLETION, "")))),
    Compute("failed_event_call_id_present_and_non_empty", "The LlmFailedEvent carries a non-empty call_id.",
            ids_present("llm_failed"), "a predicate over one family's events",
            holds=Example(with_call_ids((FAILED, "f1"))), fails=Example(with_call_ids((FAILED, None)))),
    Compute("<which:exception_propagates_alongside_typed_event|exception_propagates_out_of_complete"
            "|exception_propagates_out_of_rerank_call>",
            "The call's exception still propagates (the invocation errors) while the failure event is delivered.",
            exception_alongside_event, "joins the invocation's outcome with the collected events",
            holds=Example(errored(FAILED), name="exception_propagates_alongside_typed_event"),
            fails=Example(case(invocation(), typed_events={"collector": [{"type": FAILED}]}), name="exception_propagates_alongside_typed_event")),
    Compute("<which:no_typed_event_on_failure|failure_surfaces_via_exception_path>",
            "A failed call emits no success event; the failure reaches the caller as the exception.",
            no_success_event_on_failure, "joins the invocation's outcome with the collected events",
            holds=Example(errored("NodeEvent"), name="no_typed_event_on_failure"),
            fails=Example(errored(COMPLETION), name="no_typed_event_on_failure")),
)


BUDGET_INSTRUMENTS = "metrics[?starts_with(instrument, 'openarmature.gen_ai.client.token_budget')]"


LINKS_AND_METRICS = (
    Compute("tool_call_id_matches_requesting_llm_output_tool_calls_id",
            "The tool execution's tool_call_id is the id the LLM's response requested.",
            tool_call_id_from_llm, "joins two event families on the tool-call id",
            holds=Example(case(invocation(), typed_events={"collector": [
                {"type": COMPLETION, "output_tool_calls": [{"id": "call_1"}]}, {"type": "ToolCallEvent", "tool_call_id": "call_1"}]})),
            fails=Example(case(invocation(), typed_events={"collector": [
                {"type": COMPLETION, "output_tool_calls": [{"id": "call_1"}]}, {"type": "ToolCallEvent", "tool_call_id": "call_2"}]}))),
    Query("snapshot_is_immutable_mapping", "The event's caller_invocation_metadata snapshot is an immutable mapping.",
          "values(typed_events)[] | [?caller_invocation_metadata != `null`].caller_invocation_metadata_mutable | [?@]", "absent",
          anchor="values(typed_events)[] | [?caller_invocation_metadata != `null`]",
          holds=Example(case(invocation(), typed_events={"c": [{"type": COMPLETION, "caller_invocation_metadata": {"u": 1},
                                                                 "caller_invocation_metadata_mutable": False}]})),
          fails=Example(case(invocation(), typed_events={"c": [{"type": COMPLETION, "caller_invocation_metadata": {"u": 1},
                                                                 "caller_invocation_metadata_mutable": True}]}))),
    Compute("malformed_wire_prompt_tokens_nulled_before_event_and_span",
            "A malformed wire prompt_tokens reaches the event as null and no LLM span as an input-usage attribute.",
            nulled(("prompt_tokens",), INPUT_USAGE_ATTRIBUTES), "joins the typed event with the OTel span",
            holds=Example(usage_case(NULL_PROMPT, {"gen_ai.usage.output_tokens": 5})),
            fails=Example(usage_case(NULL_PROMPT, {"gen_ai.usage.input_tokens": 0}))),
    Compute("all_three_malformed_wire_counters_nulled_before_event_and_span",
            "All three malformed counters reach the event as a present record of nulls and no span as usage attributes.",
            nulled(COUNTERS, ALL_USAGE_ATTRIBUTES), "joins the typed event with the OTel span",
            holds=Example(usage_case(dict.fromkeys(COUNTERS), {})),
            fails=Example(usage_case(dict.fromkeys(COUNTERS), {"openarmature.llm.usage.total_tokens": 1}))),
    Compute("<which:input_bound_not_evaluated_when_prompt_tokens_null|no_input_kind_budget_observation_when_prompt_tokens_null>",
            "With prompt_tokens null the input budget bound is not evaluated: no input-kind budget observation.",
            input_bound_not_evaluated, "joins the typed event with the metric observations",
            holds=Example(usage_case(NULL_PROMPT, {}, [{"instrument": "openarmature.gen_ai.client.token_budget.utilization",
                                                          "dimensions": {"kind": "total"}}]),
                          name="input_bound_not_evaluated_when_prompt_tokens_null"),
            fails=Example(usage_case(NULL_PROMPT, {}, [{"instrument": "openarmature.gen_ai.client.token_budget.utilization",
                                                          "dimensions": {"kind": "input"}}]),
                          name="input_bound_not_evaluated_when_prompt_tokens_null")),
    Compute("shared_parent_spans_not_augmented",
            "The shared parents (fan-out and parallel-branches NODE observations, the Trace) carry no key node code augmented (§3.4).",
            not_augmented("trace", "fan_out", "branches"),
            "joins the harness's metadata writes with the metadata of the observations identified as NODE spans",
            holds=Example(augmented_case({}, {})), fails=Example(augmented_case({}, {"note": "a"}))),
    Compute("fan_out_node_shared_parent_not_augmented",
            "No fan-out NODE observation (the instances' shared fork point) carries a key node code augmented (§3.4).",
            not_augmented("fan_out"),
            "joins the harness's metadata writes with the metadata of the fan-out NODE observations",
            holds=Example(augmented_case({"note": "a"}, {})), fails=Example(augmented_case({}, {"note": "a"}))),
    Compute("invocation_span_not_augmented",
            "The invocation's Trace (a shared parent above every dispatch) carries no key node code augmented (§3.4).",
            not_augmented("trace"),
            "joins the harness's metadata writes with the Trace's metadata",
            holds=Example(augmented_case({}, {"note": "a"})), fails=Example(augmented_case({"note": "a"}, {}))),
    *(Compute(name, f"{doc}: no augmented value shows in two sibling subtrees unless their parent carries it (§3.4, at every depth).",
              siblings_isolated, "compares the augmented metadata of every pair of sibling subtrees, a tree walk joined with the harness's writes",
              holds=Example(sibling_case("b")), fails=Example(sibling_case("a")))
      for name, doc in (("outer_dispatch_spans_isolated", "Sibling outer dispatch observations do not cross-pollinate"),
                        ("sibling_branch_isolated_from_probe_augmentation", "A sibling branch does not carry the augmenting branch's write"),
                        ("sibling_outer_instances_isolated", "Sibling outer-instance subtrees do not carry each other's writes"),
                        ("sibling_fan_out_instances_isolated", "Sibling fan-out instances do not cross-pollinate"))),
    Compute("langfuse_parent_matches_otel_parent", "For every Generation the Langfuse parent corresponds to the OTel span parent (§8.9).",
            parents_agree, "walks two trees by parent links and compares the lineages",
            holds=Example(llm_case(0)), fails=Example(llm_case(1))),
    Query("<which:no_token_budget_instrument_observations_when_no_budget|no_token_budget_instrument_observations_without_usage>",
          "No token-budget instrument (exceeded counter, utilization histogram) recorded anything.",
          BUDGET_INSTRUMENTS, "absent", anchor="metrics",
          holds=Example(case(invocation(), metrics=[DURATION]), name="no_token_budget_instrument_observations_when_no_budget"),
          fails=Example(case(invocation(), metrics=[DURATION, EXCEEDED]), name="no_token_budget_instrument_observations_when_no_budget")),
)


ROUTING = (
    Compute("observer_does_not_mutate_state_or_influence_routing",
            "With the observer attached and read, every declared node still runs exactly once and the run completes.",
            every_node_once, "compares each run's dispatch order with the graph's declared nodes (a set join)",
            holds=Example(case(invocation(execution_order=["a", "b"]), wiring={"nodes": {}, "failure_isolation": [], "declared_nodes": ["a", "b"]})),
            fails=Example(case(invocation(execution_order=["a", "a"]), wiring={"nodes": {}, "failure_isolation": [], "declared_nodes": ["a", "b"]}))),
)


BUCKETS = (
    Query("captured_bucket_is_non_empty", "The bucket the run's last node read held the run's own events.",
          "length(invocation.final_state.captured_bucket.events || `[]`) > `0`",
          holds=Example(case(invocation(**RUN_ONE)), invocation=0),
          fails=Example(case(invocation(name="invocation_1", final_state={"captured_bucket": {}})), invocation=0)),
    Query("bucket_after_drop_is_absent", "After drop(invocation_id) the re-read found no bucket.",
          "invocation.final_state.bucket_after_drop_is_absent",
          holds=Example(case(invocation(final_state={"bucket_after_drop_is_absent": True})), invocation=0),
          fails=Example(case(invocation(final_state={"bucket_after_drop_is_absent": False})), invocation=0)),
    Query("captured_bucket_disjoint_from_invocation_1", "The run's bucket is keyed by its own invocation, not invocation_1's.",
          "invocation.final_state.captured_bucket.invocation_id != `null` && length(invocations[?name=='invocation_1']) == `1` && "
          "!contains(invocations[?name=='invocation_1'].final_state.captured_bucket.invocation_id, invocation.final_state.captured_bucket.invocation_id)",
          holds=Example(case(invocation(**RUN_ONE), invocation(name="invocation_2", final_state={"captured_bucket": {"invocation_id": "i2"}})), invocation=1),
          fails=Example(case(invocation(**RUN_ONE), invocation(name="invocation_2", final_state={"captured_bucket": {"invocation_id": "i1"}})), invocation=1)),
)


GET_SNAPSHOT = "queryable_observers.*.reads[] | [?method == 'get_snapshot']"


READS = (
    Query("snapshot_total_equals_sum_of_breakdown",
          "§9.2: every get_snapshot() read is internally consistent: its total equals the sum of its per-type breakdown.",
          GET_SNAPSHOT + " | [?exception != null || value.total != sum(values(value.by_type))]", "absent", anchor=GET_SNAPSHOT,
          holds=Example(reads({**SNAPSHOT_READ, "value": {"total": 3, "by_type": {"NodeEvent": 2, "InvocationStartedEvent": 1}}})),
          fails=Example(reads({**SNAPSHOT_READ, "value": {"total": 3, "by_type": {"NodeEvent": 2}}}))),
    Query("read_does_not_raise_on_concurrent_write",
          "§9.2: no read of a queryable observer raised while events were being delivered to it.",
          "queryable_observers.*.reads[] | [?exception != null]", "absent", anchor="queryable_observers.*.reads[]",
          holds=Example(reads({**SNAPSHOT_READ, "value": {"total": 0, "by_type": {}}})),
          fails=Example(reads({**SNAPSHOT_READ, "value": None,
                                "exception": {"type": "RuntimeError", "message": "dictionary changed size during iteration"}}))),
)


ROWS = (
    *COUNTS,
    *BUCKETS,
    *READS,
    *ROUTING,
    *CALLS,
    *LINKS_AND_METRICS,
    *TRACE_LEVEL,
    *RESTATING,
)
