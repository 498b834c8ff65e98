"""The retrieval-provider predicates: rows named by its fixtures and defined in their prose (headers,
.md sidecars).

Most of the directory's predicates name a fact another expectation of the same case already pins:
the outbound body (``expected_wire_request`` compares key by key with absent keys asserted absent,
so "carries X" and "omits Y" are both in it), the request headers, the URL, the raised error's §7
category and node (``expected_error``), the stored response record (``expected.final_state``) or
the typed event (``expected.observers``). Those are :class:`Restates` rows. The rest read the trace
document: how many requests reached the wire (``wire.requests``, per lane ``embedding`` /
``rerank``), whether the provider call raised or returned (``calls``), the run's outcome.
"""

from __future__ import annotations

from .rows import Example, Query, Restates
from .examples import case, invocation


# ---------------------------------------------------------------------------------------------
# Example documents: a case whose provider call sent ``sent`` requests and returned or raised


def _run(sent: int = 1, lane: str = "embedding", operation: str = "embed", raised: bool = False, outcome: str | None = None,
         config: dict | None = None, body: dict | None = None) -> dict:
    """``config``: the call's config as passed; ``body``: every sent request's JSON body."""
    call = {"operation": operation, "node": "n", "request": {"config": config}}
    call.update({"error": {"category": "provider_invalid_request", "message": "m", "type": "ProviderInvalidRequest"}} if raised
                else {"result": {}})
    requests = [{"index": i, "lane": lane, "json": body or {}, "duplicate_keys": {}, "headers": {}, "url": "http://x.invalid/", "path": "/"}
                for i in range(sent)]
    run = invocation(outcome=outcome or ("errored" if raised else "completed"))
    return case(run, wire={"requests": requests, "responses": [], "declared": sent, "unused": 0, "overrun": 0, "refused": []},
                calls=[call])


def _count(name: str, doc: str, n: int, lane: str | None, operation: str = "embed") -> Query:
    selected = f"wire.requests[?lane=='{lane}']" if lane else "wire.requests"
    other = n + 1
    return Query(name, doc, f"length({selected}) == `{n}`", "flag", anchor="calls",
                 holds=Example(_run(n, lane or "embedding", operation)), fails=Example(_run(other, lane or "embedding", operation)))


def _pre_send(name: str, doc: str, lane: str | None = None, operation: str = "embed") -> Query:
    """The call raised before anything reached the wire (a §7 category raised client-side)."""
    selected = f"wire.requests[?lane=='{lane}']" if lane else "wire.requests"
    return Query(name, doc, f"length({selected}) == `0` && length(calls[?error]) > `0`", "flag", anchor="calls",
                 holds=Example(_run(0, lane or "embedding", operation, raised=True)),
                 fails=Example(_run(1, lane or "embedding", operation, raised=True)))


def _completed(name: str, doc: str) -> Query:
    """The call returned (no error raised) after sending its request."""
    return Query(name, doc, "invocation.outcome == 'completed' && length(calls[?error]) == `0` && length(wire.requests) > `0`",
                 "flag", anchor="calls", holds=Example(_run(1)), fails=Example(_run(1, raised=True)))


def _nothing_stored(name: str, doc: str) -> Query:
    """The call raised and returned no response (nothing was stitched from the chunks that answered)."""
    return Query(name, doc, "length(calls[?result]) == `0` && length(calls[?error]) > `0`", "flag", anchor="calls",
                 holds=Example(_run(2, raised=True)), fails=Example(_run(2)))


def _wire(name: str, doc: str) -> Restates:
    return Restates(name, doc, "expected_wire_request")


def _state(name: str, doc: str) -> Restates:
    return Restates(name, doc, "expected.final_state")


def _error(name: str, doc: str) -> Restates:
    return Restates(name, doc, "expected_error")


def _event(name: str, doc: str) -> Restates:
    return Restates(name, doc, "expected.observers")


ROWS = (
    # ---- how many requests reached the wire ------------------------------------------------------
    _count("exactly_one_embed_request_issued", "The embed() call issued exactly one /embed request (no chunking, no retry).", 1, "embedding"),
    _count("exactly_two_embed_requests_issued", "The over-cap embed() call issued exactly two chunk requests.", 2, "embedding"),
    _count("exactly_three_embed_requests_issued", "The over-cap embed() call issued exactly three chunk requests.", 3, "embedding"),
    _count("exactly_one_rerank_request_issued", "The rerank() call issued exactly one /rerank request.", 1, "rerank", "rerank"),
    _count("exactly_three_rerank_requests_issued", "The chunked rerank() call issued exactly three /rerank requests.", 3, "rerank", "rerank"),
    _count("exactly_one_request_issued", "The call issued exactly one request (the whole multi-input chunk, not token sub-chunks).", 1, None),
    _count("no_retry_loop", "The adapter did not loop or retry: exactly one request for the failing call (retry is pipeline-utilities').", 1, None),
    Query("over_cap_request_chunked_not_sent_whole", "The over-cap input list went out as several chunk requests, never one over-cap request.",
          "length(wire.requests) > `1`", "flag", anchor="calls", holds=Example(_run(2)), fails=Example(_run(1))),
    Query("both_chunk_requests_reached_wire_before_raise", "Both chunk requests were sent before the call raised (fail loud after the failing chunk).",
          "length(wire.requests) == `2` && length(calls[?error]) > `0`", "flag", anchor="calls",
          holds=Example(_run(2, raised=True)), fails=Example(_run(1, raised=True))),

    # ---- rejected before sending (§7 category raised client-side, nothing on the wire) ------------
    _pre_send("no_embed_request_issued", "No /embed request was issued: the category was raised at the pre-send validation layer.", "embedding"),
    _pre_send("no_rerank_request_issued", "No /rerank request was issued: the category was raised at the pre-send validation layer.", "rerank", "rerank"),
    _pre_send("unrecognized_input_type_rejected_pre_send", "An input_type outside the mapping's closed set is rejected before sending."),
    _pre_send("not_silently_coerced_to_search_document_default", "The unrecognized input_type is rejected, not coerced to Cohere's search_document default (nothing sent)."),
    _pre_send("conflicting_managed_truncate_rejected_pre_send", "An extras `truncate` conflicting with the managed value is rejected before sending."),
    _pre_send("conflicting_managed_truncation_rejected_pre_send", "An extras `truncation` conflicting with the managed value is rejected before sending."),
    _pre_send("declared_dimensions_conflict_rejected_pre_send", "An extras `dimensions` conflicting with the declared dimensions is rejected before sending."),
    _pre_send("task_managed_while_input_type_set_conflict_rejected_pre_send", "An extras `task` while input_type manages `task` is rejected before sending."),
    _pre_send("conflicting_value_not_forwarded_to_wire", "The conflicting extras value never reaches the wire (no request is sent)."),
    _pre_send("extras_dimensions_neither_dropped_nor_forwarded", "The conflicting extras dimensions is neither silently dropped nor sent: the call raises, nothing is sent."),
    _pre_send("extras_task_neither_dropped_nor_forwarded", "The conflicting extras task is neither silently dropped nor sent: the call raises, nothing is sent."),
    _pre_send("relied_upon_default_reject_no_wire_field_to_intercept", "The conflict is rejected pre-send by the default reject arm (TEI /embed has no truncate field to carry it)."),
    _pre_send("declared_dimensions_conflict_on_renamed_wire_key_rejected_pre_send",
              "An extras `output_dimension` conflicting with the declared dimensions (realized as Cohere's output_dimension) is rejected before sending."),
    _pre_send("extras_output_dimension_neither_dropped_nor_forwarded",
              "The conflicting extras output_dimension is neither silently dropped nor sent: the call raises, nothing is sent."),
    _pre_send("always_managed_key_has_no_declared_absent_branch",
              "With input_type absent Cohere still emits its mandatory input_type, so a conflicting extras input_type is rejected before sending, not passed through."),
    _pre_send("conflicting_extras_input_type_rejected_pre_send", "An extras `input_type` conflicting with the one the mapping emits is rejected before sending."),
    _pre_send("conflicting_extras_prompt_name_rejected_pre_send", "An extras `prompt_name` conflicting with the one the mapping produces is rejected before sending."),

    # ---- the call returned ------------------------------------------------------------------------
    _completed("no_provider_invalid_response_raised", "The malformed secondary field (usage / id) did not fail the call: it returned."),
    _completed("mapping_does_not_error_on_input_type", "The mapping does not error on a supplied input_type (a no-op on its wire)."),
    _completed("mapping_does_not_error_on_return_documents", "The mapping does not error on return_documents (a silent no-op on the Cohere wire)."),
    _completed("no_error_raised_on_malformed_extras", "A malformed extras embedding_types is treated as absent; the call does not raise."),
    _completed("classification_not_rejected_pre_send", "input_type classification is in Cohere's recognized set: sent, not rejected."),
    _completed("clustering_not_rejected_pre_send", "input_type clustering is in Cohere's recognized set: sent, not rejected."),
    _completed("no_error_raised_on_unrecognized_precision", "A well-typed but unrecognized extras precision is no reason to raise: the call returns."),
    _completed("no_error_raised_when_declared_field_absent", "An extras output_dimension with dimensions absent raises nothing: the call returns."),

    # ---- what the mapping itself produced ---------------------------------------------------------
    # The wire cannot show the mapping's own body apart from the extras folded into it; it can show
    # that every prompt_name sent is one the caller put in extras, and that the call returned. A
    # prompt_name the mapping produced would be on the wire where the caller gave none, or collide
    # with the caller's and be rejected (§6); only a mapping that also let extras silently override
    # could hide one, which the prompt_name conflict case of the same mapping rules out.
    Query("mapping_produced_no_prompt_name",
          "The mapping produced no prompt_name: every prompt_name on the wire is the caller's extras one, and the call returned.",
          "length(calls[?error]) == `0` && length(wire.requests) > `0` && "
          "length(distinct([wire.requests[].json.prompt_name, calls[].request.config.extras.prompt_name][])) "
          "== length(distinct(calls[].request.config.extras.prompt_name))",
          "flag", anchor="calls",
          holds=Example(_run(1, config={"input_type": "query", "extras": {"prompt_name": "passage"}},
                             body={"inputs": ["query: q"], "prompt_name": "passage"})),
          fails=Example(_run(1, config={"input_type": "query"}, body={"inputs": ["q"], "prompt_name": "query"}))),

    # ---- the call raised and stored nothing -------------------------------------------------------
    _nothing_stored("fails_loud_no_embedding_response_stored", "The failing chunked call raised and produced no EmbeddingResponse."),
    _nothing_stored("no_embedding_response_stored_on_failure", "No EmbeddingResponse was returned for the failing call."),
    _nothing_stored("whole_call_fails_loud_no_partial_stitch", "The whole call fails loud: no partial stitch of the chunks that answered."),

    # ---- the outbound request body (expected_wire_request: key by key, absent keys absent) ---------
    *(_wire(name, doc) for name, doc in (
        ("wire_request_carries_model", "The request body carries the bound model."),
        ("wire_request_carries_dimensions_field", "dimensions maps onto the wire's dimensions field."),
        ("wire_request_carries_output_dimension_field", "dimensions maps onto Cohere's output_dimension."),
        ("wire_request_carries_prompt_name_query", "input_type query is sent as TEI prompt_name \"query\"."),
        ("wire_request_carries_prompt_name_passage", "input_type document is sent as TEI prompt_name \"passage\"."),
        ("wire_request_carries_task_retrieval_query", "input_type query is sent as Jina task retrieval.query."),
        ("wire_request_carries_task_retrieval_passage", "input_type document is sent as Jina task retrieval.passage."),
        ("wire_request_carries_task_text_matching", "The extras task rides to the wire as given."),
        ("wire_request_carries_input_type_search_query", "input_type query is sent as Cohere search_query."),
        ("wire_request_carries_input_type_search_document", "input_type document is sent as Cohere search_document."),
        ("wire_request_carries_input_type_search_document_when_input_type_absent", "An absent input_type sends Cohere's mandatory search_document default."),
        ("wire_request_carries_input_type_classification", "input_type classification is sent identity-mapped."),
        ("wire_request_carries_input_type_clustering", "input_type clustering is sent identity-mapped."),
        ("wire_request_input_type_search_document_default", "With no input_type the body carries input_type search_document."),
        ("wire_request_carries_top_n_from_top_k", "top_k is sent as the wire's top_n."),
        ("wire_request_omits_prompt_name_when_input_type_absent", "No prompt_name on the wire when input_type is absent."),
        ("wire_request_omits_task_when_input_type_absent", "No task on the wire when input_type is absent."),
        ("wire_request_omits_input_type_field", "The OpenAI wire carries no input_type field."),
        ("wire_request_omits_output_dimension_when_dimensions_absent", "No output_dimension on the wire without dimensions."),
        ("wire_request_omits_return_documents", "The Cohere body has no return_documents key."),
        ("wire_request_omits_return_documents_field", "return_documents is a no-op: no such key on the Cohere wire."),
        ("wire_request_omits_top_n_when_top_k_absent", "No top_n on the wire when top_k is absent."),
        ("wire_request_omits_truncation", "No truncation flag on the Cohere rerank wire."),
        ("wire_request_truncate_false", "truncate: false is sent explicitly (fail loud)."),
        ("wire_request_truncate_none", "truncate: NONE is sent explicitly (fail loud)."),
        ("wire_request_truncation_false", "truncation: false is sent explicitly (fail loud)."),
        ("wire_request_return_text_false", "return_documents false is sent as return_text: false."),
        ("wire_request_return_text_true", "return_documents true is sent as return_text: true."),
        ("wire_request_return_documents_false", "return_documents: false is sent explicitly."),
        ("wire_request_return_documents_false_explicit", "OA's default return_documents false is sent explicitly."),
        ("wire_request_return_documents_true", "return_documents: true is sent."),
        ("wire_request_overrides_jina_true_default", "The explicit false overrides Jina's wire default of true."),
        ("wire_request_embedding_types_float", "embedding_types: [float] is sent explicitly."),
        ("wire_request_embedding_types_contains_float", "The merged embedding_types keeps the managed float."),
        ("wire_request_embedding_types_contains_float_exactly_once", "float appears once in the merged embedding_types."),
        ("wire_request_embedding_types_contains_extras_precision", "The extras precision is merged into embedding_types."),
        ("wire_request_embedding_types_contains_all_extras_precisions", "Every extras precision is merged into embedding_types."),
        ("wire_request_embedding_types_is_float_only", "A malformed extras embedding_types leaves exactly [float] on the wire."),
        ("wire_request_input_carries_query_prefix", "The query prefix is prepended to each input client-side."),
        ("wire_request_input_carries_document_prefix", "The document prefix is prepended to each input client-side."),
        ("wire_request_input_sent_verbatim", "input_type is a wire no-op: input is sent verbatim."),
        ("wire_request_is_array_form", "The input is always sent in the array form."),
        ("wire_request_texts_match_documents_in_order", "The documents are sent as texts, in order."),
        ("wire_request_texts_match_in_order", "The inputs are sent as texts, in order."),
        ("wire_request_documents_match_in_order", "The documents are sent in order."),
        ("wire_request_documents_sent_as_string_array", "The documents are sent as a plain string array (no per-document wrapping)."),
        ("wire_body_byte_identical_to_symmetric_path", "The body equals the symmetric (no input_type) request's."),
        ("wire_body_byte_identical_to_default_path", "The body equals the default (no return_documents) request's."),
        ("wire_dimensions_is_declared_value_once", "The wire carries dimensions once, the declared value."),
        ("wire_truncate_is_managed_none_unduplicated", "The wire carries the managed truncate: NONE once."),
        ("wire_truncation_is_managed_false_unduplicated", "The wire carries the managed truncation: false once."),
        ("truncate_absent_from_wire", "The TEI /embed body carries no truncate field."),
        ("matching_value_omitted_body_stays_minimal", "A matching extras value leaves the body minimal."),
        ("matching_extras_truncate_is_noop", "An extras truncate equal to the managed value changes nothing on the wire."),
        ("matching_extras_truncation_is_noop", "An extras truncation equal to the managed value changes nothing on the wire."),
        ("matching_extras_dimensions_no_op", "An extras dimensions equal to the declared one changes nothing on the wire."),
        ("extras_task_rides_untouched_to_wire", "Without input_type the extras task reaches the wire untouched."),
        ("input_type_absent_no_managed_task", "With input_type absent the mapping manages no task."),
        ("encoding_format_base64_forwarded_to_wire", "The extras encoding_format base64 is forwarded on the wire."),
        ("extras_embedding_types_merged_not_replaced", "The extras embedding_types merge onto the managed float, not replace it."),
        ("managed_float_not_dropped_by_extras", "The managed float survives the extras embedding_types."),
        ("caller_supplied_float_not_duplicated", "A caller-supplied float is not sent twice."),
        ("malformed_extras_embedding_types_treated_as_absent", "A malformed extras embedding_types is treated as absent on the wire."),
        ("malformed_list_not_salvaged", "A partially malformed list is not salvaged element by element."),
        ("chunk_requests_omit_dimensions_and_encoding_format", "No chunk request carries dimensions or encoding_format."),
        ("chunk_requests_omit_output_dimension", "No chunk request carries output_dimension."),
        ("chunk_requests_omit_prompt_name_and_dimensions", "No chunk request carries prompt_name or dimensions."),
        ("chunk_inputs_sizes_2_2_1_consecutive_slices", "The chunks are the consecutive slices of sizes 2, 2, 1."),
        ("chunk_texts_sizes_4_4_1_consecutive_slices", "The chunks are the consecutive slices of sizes 4, 4, 1."),
        ("chunk_texts_sizes_96_4_consecutive_slices", "The chunks are the consecutive slices of sizes 96, 4."),
        ("chunked_by_count_into_sizes_2_1", "The inputs are chunked by count into sizes 2, 1."),
        ("identical_per_call_params_across_chunks", "Every field but the chunked list is identical across the chunk requests."),
        ("same_query_on_every_chunk_request", "Every chunk request carries the same query."),
        ("multi_input_chunk_sent_as_one_request_not_token_sub_chunked", "The multi-input chunk is sent as one request, not sub-chunked by tokens."),
        ("over_token_chunk_not_sub_chunked_by_tokens", "The over-token chunk is sent whole, not sub-chunked by tokens."),
        ("token_sub_chunker_would_issue_two_requests_and_fail", "The single request sent shows no token sub-chunking (a sub-chunker would send two)."),
        # declared-field collisions on renamed / conditionally produced wire keys (§6 clause (b))
        ("matching_extras_output_dimension_no_op", "An extras output_dimension equal to the declared dimensions changes nothing on the wire."),
        ("wire_output_dimension_is_declared_value_once", "The wire carries output_dimension once, the declared value."),
        ("unmanaged_when_declared_field_absent", "With dimensions absent output_dimension is unmanaged: the extras value is what the wire carries."),
        ("extras_output_dimension_forwarded_untouched", "The unmanaged extras output_dimension reaches the wire untouched."),
        ("matching_extras_input_type_no_op", "An extras input_type equal to the one the mapping emits changes nothing on the wire."),
        ("wire_input_type_emitted_once", "The wire carries input_type once, the mapping's value."),
        ("unmanaged_when_key_not_produced", "With no prompt_name produced the key is unmanaged: the extras value is what the wire carries."),
        ("extras_prompt_name_forwarded_untouched", "The unmanaged extras prompt_name reaches the wire untouched."),
        ("wire_body_stays_minimal_prompt_name_absent", "A matching extras dimensions leaves the body minimal: no prompt_name without input_type."),
        ("client_side_prefix_applied_to_input", "The input_type prefix is prepended to each input client-side."),
        # merge-arm malformation is structural, never a vocabulary check (Cohere embedding_types)
        ("unrecognized_precision_string_is_not_malformed", "A well-typed precision string the provider does not know is merged, not treated as malformed."),
        ("empty_string_element_is_not_malformed", "An empty-string precision is well-typed: merged, not treated as malformed."),
        ("wire_request_embedding_types_merged_mapping_value_first", "The merged embedding_types lists the mapping's float first, then the extras in order."),
    )),
    Restates("authorization_bearer_header_present", "The request carries Authorization: Bearer <api_key>.", "expected_wire_headers"),
    Restates("wire_request_routes_to_base_url", "The request goes to the overridden origin + the mapping's fixed route.", "expected_wire_url"),

    # ---- the raised error (expected_error: the §7 category raised out of the call, and the node) ---
    *(_error(name, doc) for name, doc in (
        ("exception_raised_out_of_embed_call", "The §7 category exception raises out of the embed() call."),
        ("exception_raised_out_of_rerank_call", "The §7 category exception raises out of the rerank() call."),
        ("duplicate_index_detected", "A duplicate result index is detected (provider_invalid_response)."),
        ("out_of_range_index_detected", "An out-of-range result index is detected (provider_invalid_response)."),
        ("top_k_violation_detected", "More results than top_k is detected (provider_invalid_response)."),
        ("non_object_scalar_document_echo_detected", "A scalar document echo is detected (provider_invalid_response)."),
        ("provider_invalid_response_raised", "The malformed echo raises provider_invalid_response."),
        ("rate_limit_not_misclassified_as_unavailable", "HTTP 429 maps to provider_rate_limit, not provider_unavailable."),
        ("bare_400_maps_to_provider_invalid_request", "A bare HTTP 400 maps to provider_invalid_request."),
        ("bare_400_not_misclassified_as_unavailable", "A bare HTTP 400 is not classified provider_unavailable."),
        ("over_token_400_maps_to_provider_invalid_request", "The over-token chunk's 400 maps to provider_invalid_request."),
        ("malformed_base64_raises_provider_invalid_response", "A malformed base64 vector raises provider_invalid_response."),
        ("non_conforming_embedding_shape_raises_provider_invalid_response", "A non-conforming embedding shape raises provider_invalid_response."),
        ("malformed_base64_not_truncated_or_padded", "The malformed base64 is rejected, not truncated or padded into a vector."),
        ("no_truncated_score_returned", "The over-length input fails loud: no score from a truncated document."),
        ("no_truncated_vector_returned", "The over-length input fails loud: no vector from a truncated input."),
        ("conflicting_value_not_silently_dropped", "The conflicting extras value raises rather than being dropped."),
    )),

    # ---- the stored response record (expected.final_state) --------------------------------------
    *(_state(name, doc) for name, doc in (
        ("vectors_length_matches_input_length", "One vector per input string."),
        ("all_vectors_same_dimensionality", "Every vector has the same length."),
        ("dimensions_field_matches_inner_vector_length", "The dimensions field equals the inner vector length."),
        ("vectors_in_input_order", "vector i is the embedding of input i."),
        ("vector_at_index_zero_matches_first_input", "vectors[0] is the first input's embedding."),
        ("vector_at_index_one_matches_second_input", "vectors[1] is the second input's embedding."),
        ("vector_at_index_two_matches_third_input", "vectors[2] is the third input's embedding."),
        ("vectors_assembled_from_embeddings_float_in_input_order", "embeddings.float assembles to the vectors in input order."),
        ("vectors_concatenated_in_input_order", "The chunks' vectors are concatenated in input order."),
        ("decoded_vectors_in_input_order", "The decoded vectors are in input order."),
        ("base64_embedding_decoded_to_float_vector", "A base64 embedding decodes to the float vector."),
        ("results_sorted_by_relevance_descending", "The results are sorted by relevance_score, descending."),
        ("results_globally_sorted_by_score_descending_across_chunks", "The stitched results are sorted globally, across chunks."),
        ("each_index_valid_into_input_documents", "Every result index is a valid position in the input documents."),
        ("result_count_matches_response", "As many results as the provider scored."),
        ("result_count_equals_top_k", "Exactly top_k results."),
        ("result_count_below_top_k_permitted", "Fewer results than top_k is accepted."),
        ("result_count_at_most_document_count", "No more results than documents."),
        ("result_count_at_most_top_k", "No more results than top_k."),
        ("top_k_exceeding_document_count_permitted", "A top_k above the document count is accepted."),
        ("top_k_honored_after_global_sort", "top_k applies after the global sort."),
        ("chunk_local_indices_rebased_to_absolute_positions", "Chunk-local indices are re-based to absolute positions."),
        ("result_indices_are_absolute_into_original_document_list", "Result indices are positions in the original document list."),
        ("no_duplicate_index_across_stitched_results", "No index appears twice in the stitched results."),
        ("echoed_documents_preserved_verbatim", "Echoed documents are kept verbatim."),
        ("echoed_document_preserved_verbatim", "The echoed document is kept verbatim."),
        ("echoed_text_preserved_verbatim_on_document", "TEI's text echo is kept verbatim on document."),
        ("omitted_echo_left_null_not_autofilled", "An omitted echo stays null, never filled from the input."),
        ("absent_echo_surfaced_as_null", "An absent echo surfaces as null."),
        ("document_null_when_provider_omits_echo", "document is null when the provider omits the echo."),
        ("every_document_null_when_cohere_omits_echo", "Every document is null: Cohere echoes none."),
        ("echo_not_fabricated_from_input_documents", "No echo is fabricated from the input documents."),
        ("empty_string_echo_present_surfaced_as_empty_string", "A present empty-string echo surfaces as \"\", distinct from absent."),
        ("imagedoc_maps_document_to_null", "An ImageDoc echo maps document to null."),
        ("textdoc_object_unwrapped_to_text", "A TextDoc echo object unwraps to its text."),
        ("per_result_document_shape_variance_preserved", "Each result's echo shape is handled on its own."),
        ("verbatim_response_preserved_on_raw", "raw is the verbatim response."),
        ("verbatim_imagedoc_object_on_raw", "raw keeps the ImageDoc object verbatim."),
        ("verbatim_textdoc_object_on_raw", "raw keeps the TextDoc object verbatim."),
        ("verbatim_mixed_shapes_on_raw", "raw keeps the mixed echo shapes verbatim."),
        ("raw_is_single_verbatim_response_object_not_list", "A single-request call's raw is the response object itself."),
        ("raw_is_list_of_per_chunk_response_objects", "A chunked call's raw is the list of per-chunk responses."),
        ("raw_preserves_base64_strings_verbatim", "raw keeps the base64 strings verbatim."),
        ("extra_precision_preserved_on_raw", "raw keeps the extra precisions' embeddings."),
        ("both_chunk_responses_preserved_verbatim_on_raw_list", "raw lists both chunk responses verbatim."),
        ("empty_id_preserved_verbatim_on_raw", "raw keeps the empty id verbatim."),
        ("malformed_id_preserved_verbatim_on_raw", "raw keeps the malformed id verbatim."),
        ("malformed_first_chunk_id_preserved_verbatim_on_raw", "raw keeps the first chunk's malformed id verbatim."),
        ("malformed_value_preserved_verbatim_on_raw", "raw keeps the malformed usage value verbatim."),
        ("prompt_tokens_maps_to_input_tokens", "usage.prompt_tokens maps to usage.input_tokens."),
        ("total_tokens_maps_to_input_tokens", "usage.total_tokens maps to usage.input_tokens."),
        ("billed_units_input_tokens_maps_to_input_tokens", "meta.billed_units.input_tokens maps to usage.input_tokens."),
        ("billed_units_input_tokens_summed_across_chunks", "The chunks' billed input tokens are summed."),
        ("input_tokens_summed_across_chunks", "The chunks' input tokens are summed."),
        ("search_units_maps_to_search_units", "meta.billed_units.search_units maps to usage.search_units."),
        ("search_units_null_when_jina_omits", "search_units is null: Jina meters by tokens."),
        ("input_tokens_null_when_cohere_omits", "input_tokens is null when Cohere reports none."),
        ("stitched_usage_is_sum_of_sound_chunk_figures", "The stitched usage sums the chunks' sound figures."),
        ("stitched_usage_not_partial_sum_of_wellformed_chunks", "One unsound chunk figure nulls the stitched usage (no partial sum)."),
        ("malformed_chunk_input_tokens_collapses_stitched_usage_null", "A malformed chunk figure collapses the stitched usage to null."),
        ("malformed_input_tokens_not_reported_usage_null", "A malformed input_tokens reads as not reported: usage is null."),
        ("malformed_search_units_not_reported_usage_null", "A malformed search_units reads as not reported: usage is null."),
        ("usage_not_clamped_or_fabricated", "The malformed figure is neither clamped nor replaced."),
        ("usage_not_coerced_or_fabricated", "The malformed figure is neither coerced nor replaced."),
        ("usage_unaffected_by_empty_response_id", "The usage is unaffected by the empty id."),
        ("usage_unaffected_by_malformed_first_chunk_id", "The usage is unaffected by the first chunk's malformed id."),
        ("usage_unaffected_by_malformed_response_id", "The usage is unaffected by the malformed id."),
        ("response_id_from_top_level_id", "response_id is the body's top-level id."),
        ("response_id_from_first_chunk_id", "response_id is the first chunk's id."),
        ("response_id_not_coerced_to_string", "A non-string id is not coerced: response_id is null."),
        ("response_id_null_openai_surfaces_none", "OpenAI embeddings carry no id: response_id is null."),
        ("response_id_null_tei_surfaces_none", "TEI surfaces no id: response_id is null."),
        ("response_id_null_when_jina_omits", "response_id is null when Jina gives no id."),
        ("response_id_null_when_openai_omits", "response_id is null when the OpenAI body has no id."),
        ("response_id_empty_string_not_surfaced", "An empty-string id is not surfaced."),
        ("empty_string_response_id_nulled", "An empty-string id becomes response_id null."),
        ("malformed_response_id_nulled", "A malformed id becomes response_id null."),
        ("malformed_first_chunk_id_nulled", "The first chunk's malformed id becomes response_id null."),
        ("no_fall_through_to_later_chunk_id", "response_id does not fall through to a later chunk's id."),
        ("model_is_bound_id", "model is the bound identifier."),
        ("model_is_bound_id_when_cohere_omits_echo", "model is the bound id: Cohere echoes no model."),
        ("model_is_bound_id_when_tei_omits_echo", "model is the bound id: TEI echoes no model."),
    )),

    # ---- the typed event (expected.observers ... contains_event) ----------------------------------
    *(_event(name, doc) for name, doc in (
        ("input_type_in_embedding_event_request_params", "input_type reaches EmbeddingEvent.request_params."),
        ("request_params_empty_when_input_type_absent", "EmbeddingEvent.request_params is empty when input_type is absent."),
        ("wire_mandatory_default_not_reflected_onto_event", "The wire's mandatory default is not reflected onto the event's request_params."),
        ("embedding_event_response_id_null_mirrors_response", "EmbeddingEvent.response_id is null, as on the response."),
        ("embedding_event_usage_null_mirrors_response", "EmbeddingEvent.usage is null, as on the response."),
        ("embedding_event_usage_summed_record_mirrors_response", "EmbeddingEvent.usage is the summed record, as on the response."),
        ("rerank_event_usage_null_mirrors_response", "RerankEvent.usage is null, as on the response."),
    )),
)
