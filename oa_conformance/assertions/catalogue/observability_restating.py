"""The observability rows that restate another expectation of the same case: the fixture's
`langfuse_trace` / `observers` block (or its final state, a direct call's result …) already asserts
exactly what the name says, so the row is verified by that expectation's verdict.
"""

from __future__ import annotations

from .rows import Restates


LANGFUSE = "expected.langfuse_trace"


OBSERVERS = "expected.observers"


DIRECT_CALL = "expected.direct_call_result"


# What the case's `langfuse_trace` expectation already asserts, name by name (the fixture prose
# says no more than the expected Trace / observation fields it lists).
RESTATING_LANGFUSE = (
    ("parallel_branches_per_branch_metadata_isolation", "Each branch's observations carry only that branch's augmented metadata."),
    ("baseline_caller_metadata_universal", "The caller's baseline metadata reaches every observation of every branch."),
    ("fan_out_per_instance_metadata_isolation",
     "Each fan-out instance's observations carry that instance's own augmented metadata value, not a sibling's."),
    ("outer_dispatch_span_carries_inner_augmentation",
     "The augmenter's inner- and outer-instance dispatch observations both carry its augmentation (lineage-aware rule)."),
    ("outer_fan_out_instance_carries_branch_augmentation",
     "The augmenting branch's dispatch observation and its outer fan-out instance's both carry the augmentation."),
    ("serial_subgraph_wrapper_carries_inner_augmentation",
     "The serial subgraph wrapper observation carries augmentations made inside its fan-out instances (last writer wins)."),
    ("open_span_update_reaches_invocation_and_node_spans",
     "A key augmented mid-invocation reaches the already-open Trace and calling node span's metadata (updated in place)."),
    ("per_branch_oa_emitted_branch_name_isolation", "Every observation in a branch's subtree carries that branch's branch_name."),
    ("implementation_name_present_on_trace", "trace.metadata.implementation_name is the runtime's name (§8.4.1)."),
    ("implementation_version_present_on_trace", "trace.metadata.implementation_version is a non-empty string (§8.4.1)."),
    ("rows_emit_with_default_privacy_config", "The attribution rows emit under the default privacy posture."),
    ("rows_emit_with_state_payload_enabled", "The attribution rows emit with disable_state_payload off."),
    ("always_emit_invariant_inherited_from_spec_5_1", "Attribution rows are not gated by any privacy knob (§5.1)."),
    ("caller_metadata_top_level_on_trace", "Caller metadata keys sit at the top level of trace.metadata (§8.4.1)."),
    ("caller_metadata_top_level_on_every_observation", "Caller metadata keys sit at the top level of every observation's metadata."),
    ("observation_type_is_embedding_not_generation", "The embedding call renders as an Embedding observation, not a Generation."),
    ("observation_type_is_retriever_not_generation", "The rerank call renders as a Retriever observation, not a Generation."),
    ("renders_as_embedding_observation_not_generation", "A failed embedding call renders as an Embedding observation."),
    ("renders_as_retriever_observation_not_generation", "A failed rerank call renders as a Retriever observation."),
    ("renders_as_dedicated_tool_observation_not_generation", "A tool execution renders as a Tool observation."),
    ("input_and_output_suppressed_under_default_privacy_posture", "input / output are null under the default payload posture."),
    ("input_and_output_populated_when_payload_flag_disabled", "input / output carry the payload with disable_provider_payload off."),
    ("input_output_populated_with_payload_on", "The Tool observation carries input / output with the payload on."),
    ("tool_name_and_call_id_in_metadata", "tool_name / tool_call_id sit in the Tool observation's metadata."),
    ("failed_tool_renders_error_level", "A failed tool execution renders at ERROR level."),
    ("error_type_and_message_in_metadata", "error_type / error_message sit in the failed observation's metadata."),
    # Proposal 0118 (§5.5.4): the harvested error_message follows the payload flag; error_type and
    # the error category are classifications, never gated. The case states both sides in its
    # observation (`metadata` / `metadata_absent` / `statusMessage` / `output`).
    ("error_type_in_metadata", "error_type sits in the failed observation's metadata (error_message is asserted apart)."),
    ("error_message_gated_by_provider_payload_flag",
     "The failed observation carries error_message only where the Langfuse payload flag permits it (here: absent)."),
    ("error_message_withheld_with_output_under_payload_disabled",
     "Under the default posture the failed Generation withholds error_message along with its output."),
    ("error_category_retained_when_message_omitted", "With error_message withheld, the error category is still the statusMessage."),
    ("error_type_retained_under_default_posture", "A failed Tool observation keeps error_type under the default posture."),
    ("tool_failure_message_not_smuggled_into_status_message",
     "A failed Tool observation's withheld message is not substituted into statusMessage (null: a Tool failure has no category)."),
    ("caller_metadata_reaches_tool_observation", "The caller's metadata keys reach the Tool observation's metadata (§8.4.2)."),
    ("embedding_failure_renders_error_level", "A failed embedding call renders at ERROR level."),
    ("rerank_failure_renders_error_level", "A failed rerank call renders at ERROR level."),
    ("error_category_is_status_message", "The failure's error category is the observation's statusMessage."),
    ("failure_observation_carries_no_output", "A failed call's observation has no output."),
    ("no_output_even_with_payload_flag_off", "No output on failure even with the payload flag off."),
    ("request_side_input_populated_when_payload_flag_disabled", "The request-side input is kept on failure with the payload on."),
    ("error_level_and_status_message_unchanged_by_payload_flag", "Level and statusMessage do not depend on the payload flag."),
    ("error_message_asserted_literally_from_raises", "error_message is the raised message, verbatim."),
    ("error_type_asserted_literally_from_raises", "error_type is the raised type, verbatim."),
    ("error_category_still_from_status", "statusMessage still carries the error category."),
    ("usage_details_empty_when_no_usage_record", "usageDetails is empty when the provider reported no usage."),
    ("usage_details_input_omitted_when_no_usage_record", "usageDetails has no input when the provider reported no usage."),
    ("generation_usage_input_omitted_when_prompt_tokens_null", "The Generation's usage has no input when prompt_tokens is null."),
    ("generation_usage_output_and_total_present_when_sound", "The Generation's usage keeps output / total when they are sound."),
    ("failed_generation_carries_output_usage_finish_reason", "A failed Generation renders output, usage and finish_reason."),
    ("failed_generation_renders_error_level_and_category", "A failed Generation renders ERROR level and the category as statusMessage."),
    ("output_redacted_under_payload_disabled", "The failed Generation's output is null with the payload off."),
    ("usage_finish_reason_and_error_level_unchanged_under_payload_disabled", "Usage, finish_reason and level survive the payload gate."),
    ("exceeded_flag_present_and_false_under_budget", "metadata.token_budget_exceeded is present and false under budget."),
    ("exceeded_flag_survives_error_precedence_on_failed_generation", "token_budget_exceeded stays true on a failed Generation."),
    ("declared_bounds_present_on_failed_generation", "The declared budget bounds appear on the failed Generation."),
    ("error_level_and_category_unchanged", "The failed Generation keeps ERROR level and its category."),
    ("no_warning_level_under_budget", "An under-budget Generation stays at DEFAULT level."),
    ("generation_output_is_full_assembled_content", "Under streaming the Generation's output is the full assembled content."),
    ("exactly_one_generation_observation_under_stream", "Streaming renders one Generation, not one per token."),
    ("no_per_token_child_observations", "The streamed Generation has no per-token children."),
    ("trace_user_id_equals_metadata_userid", "trace.userId is the caller metadata's userId (§8.4.1)."),
    ("user_id_promotion_is_additive", "userId also stays in trace.metadata."),
    ("trace_user_id_unset", "Without a userId key, trace.userId is unset."),
    ("trace_session_id_unset", "Without a session, trace.sessionId is unset."),
    ("other_metadata_unaffected", "The other caller metadata keys are rendered as supplied."),
    ("generation_parents_under_own_lineage_calling_node_observation", "Each Generation nests under its own instance's calling node."),
    ("orphan_generation_parents_under_inner_fan_out_instance_observation", "An orphan Generation nests under its inner fan-out instance."),
    ("orphan_generation_sibling_of_calling_node_observation", "The orphan Generation is a sibling of the calling node's observation."),
    ("orphan_generation_not_under_fan_out_node_or_trace", "The orphan Generation is not under the fan-out node or the Trace root."),
    ("orphan_generation_not_under_coincidentally_indexed_sibling", "Nor under a sibling instance with the same index."),
    ("no_inner_observations_dropped_under_concurrent_nesting", "Every inner observation is present under concurrent nesting."),
)


# What the case's `observers` (typed-event collector) expectations already assert, name by name.
RESTATING_EVENTS = (
    ("event_typed_fields_match_provider_response", "The event's typed fields equal the provider response's."),
    ("identity_scoping_fields_populated", "node_name / namespace / attempt_index / fan_out_index / branch_name are populated."),
    ("opt_in_disabled_yields_null_caller_metadata", "Without the opt-in, caller_invocation_metadata is null."),
    ("opt_in_enabled_yields_snapshot_caller_metadata", "With the opt-in, caller_invocation_metadata is the in-scope snapshot."),
    ("type_discrimination_filter_works", "A type-filtered collector holds exactly the typed events of its family."),
    ("type_filtered_count_independent_of_sentinel_emission", "The filtered count does not depend on sentinel NodeEvents."),
    ("per_instance_fan_out_index_populated", "Each fan-out instance's event carries its fan_out_index."),
    ("sibling_instances_have_distinct_fan_out_index", "Sibling instances' events carry distinct fan_out_index values."),
    ("branch_name_null_outside_parallel_branches", "branch_name is null outside parallel branches."),
    ("per_branch_branch_name_populated", "Each branch's event carries its branch_name."),
    ("sibling_branches_have_distinct_branch_name", "Sibling branches' events carry distinct branch names."),
    ("fan_out_index_null_outside_fan_out", "fan_out_index is null outside a fan-out."),
    ("typed_event_arrives_within_calling_node_span", "The typed event arrives between the node's started and completed events."),
    ("typed_event_arrives_after_node_started", "The typed event arrives after the node's started event."),
    ("typed_event_arrives_before_node_completed", "The typed event arrives before the node's completed event."),
    ("input_messages_populated_unconditionally", "input_messages carries the call's messages whatever the payload flags."),
    ("input_messages_shape_matches_llm_provider_section_3", "input_messages has the llm-provider §3 message shape."),
    ("output_content_null_when_tool_calls_present_with_empty_content", "output_content is null on a tool-call-only response."),
    ("request_params_carries_only_caller_supplied_keys", "request_params holds only the keys the caller supplied."),
    ("absence_distinct_from_zero_value", "An unsupplied parameter is absent, not zero."),
    ("request_extras_is_native_mapping_not_json_string", "request_extras is a mapping, not a JSON string."),
    ("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs", "active_prompt is the PromptResult identity snapshot."),
    ("active_prompt_null_parallels_prompt_attr_absence_on_span", "active_prompt is null outside a prompt context."),
    ("active_prompt_and_group_both_populated_inside_group_context", "active_prompt and active_prompt_group are both populated."),
    ("response_model_distinct_from_request_model", "response_model is the provider's, distinct from the requested model."),
    ("response_model_null_when_absent_from_response", "response_model is null when the response names none."),
    ("error_category_matches_raised_exception_category", "The failure event's category is the raised exception's."),
    ("input_strings_match_input_list_verbatim", "The embedding event's input strings are the call's inputs, verbatim."),
    ("request_params_empty_when_caller_supplied_none", "request_params is empty when the caller supplied none."),
    ("request_params_populated_with_caller_supplied_fields", "request_params carries the caller-supplied fields."),
    ("input_count_matches_input_list_length", "input_count is the number of inputs."),
    ("dimensions_matches_inner_vector_length", "dimensions is the vectors' length."),
    ("query_carried_verbatim", "The rerank event's query is the call's, verbatim."),
    ("documents_carried_verbatim", "The rerank event's documents are the call's, verbatim."),
    ("top_k_matches_caller_supplied_value", "top_k is the caller's value."),
    ("top_k_null_when_caller_passed_none", "top_k is null when the caller passed none."),
    ("document_count_matches_input", "document_count is the number of documents."),
    ("result_count_matches_response", "result_count is the number of results returned."),
    ("tool_call_event_carries_full_field_set", "The tool-call event carries its full field set."),
    ("latency_ms_present", "latency_ms is present."),
    ("standalone_tool_call_id_is_null", "A standalone instrumented function's tool_call_id is null."),
    ("no_error_category_field_on_tool_failure_event", "The tool failure event carries error_type / message, no category."),
    ("finish_reason_is_stop_not_truncation", "A schema mismatch reports finish_reason stop."),
    ("response_side_surface_null_for_non_structured_output_failure", "Response-side fields are null on a non-body failure."),
    ("event_usage_is_present_record_of_nulls_not_null_record", "usage is a present record of null counters, not null."),
    ("event_usage_prompt_tokens_null_not_verbatim_wire_value", "A malformed prompt_tokens surfaces as null, not the wire value."),
    ("token_budget_null_on_completion_event", "token_budget is null without a budgeted prompt."),
    ("token_budget_populated_but_not_evaluated_without_usage", "token_budget is populated though nothing could be evaluated."),
    ("atomic_path_unchanged_by_streaming_capability", "A non-streamed call emits its completion event as before streaming existed."),
    ("success_emits_one_event_zero_failures", "A successful call emits one success event and no failure event."),
    ("failure_emits_one_event_zero_successes", "A failed call emits one failure event and no success event."),
    ("success_one_tool_call_event_zero_failed", "A successful tool call emits one ToolCallEvent and no failure."),
    ("failure_one_tool_call_failed_event_zero_success", "A failed tool call emits one ToolCallFailedEvent and no success."),
)


# In table order: the Langfuse Trace, the typed events, then the other restated directives.
RESTATING = (
    *(Restates(name, doc, LANGFUSE) for name, doc in RESTATING_LANGFUSE),
    *(Restates(name, doc, OBSERVERS) for name, doc in RESTATING_EVENTS),
    *(Restates(name, doc, DIRECT_CALL) for name, doc in (
        ("outside_invocation_returns_empty_mapping", "Outside an invocation the read returns an empty mapping."),
        ("outside_invocation_does_not_raise", "Outside an invocation the read raises nothing."),
        ("outside_invocation_return_is_immutable", "Outside an invocation the returned mapping is immutable."),
    )),
    *(Restates(name, doc, "expected.final_state") for name, doc in (
        ("prior_failed_attempt_writes_discarded", "The retry attempt's read lacks what the failed attempt wrote."),
        ("successful_attempt_writes_visible_downstream", "The downstream node reads what the successful attempt wrote."),
        ("caller_baseline_stable_across_attempts", "Every attempt and the downstream node read the caller's baseline."),
        ("per_instance_reads_isolated_from_siblings",
         "Each fan-out instance's read holds the baseline and its own augmentation only, no sibling's (the state lists each exactly)."),
        ("outermost_read_sees_pre_fan_out_baseline_only",
         "The outermost read after the join sees exactly the pre-fan-out baseline (the state lists it exactly)."),
        ("no_global_aggregator_layered_across_join",
         "No instance's augmentation flows back across the join: the outermost read carries none of them."),
    )),
    *(Restates(name, doc, "expected.final_state_bounds") for name, doc in (
        ("observer_attach_emit_consume_cycle_works", "A node reads the attached observer's count mid-invocation into state."),
        ("read_returns_non_negative_integer", "The read value is a non-negative integer."),
        ("read_is_consistent_no_torn_view", "The read value lies within the bounds of what was emitted before the read."),
    )),
    *(Restates(name, doc, "expected.per_invocation") for name, doc in (
        ("no_auto_drop_on_completion_signal", "Each run's bucket was still readable at its last node: completion does not drop it."),
        ("explicit_drop_removes_bucket", "drop(invocation_id) removes the run's bucket."),
        ("per_invocation_id_bucket_isolation", "Each run reads only the bucket of its own invocation id."),
        ("accumulator_exposes_drop_method", "The accumulator's drop method is callable from node code."),
    )),
)
