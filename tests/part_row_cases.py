"""Minimal cases for the `part` rows no corpus writes in a case that runs (tests/test_part_rows.py).

Each fixture below is written by the test into its capability's directory and walked exactly like
a corpus case: it proves the handler of each row its comments name reads that row. A row proven
here and later written by a running corpus case may leave; a new part row no corpus case reaches
gets a case here (the test names it).
"""

from __future__ import annotations

# capability directory -> one fixture (several cases), grouped by the parent directive whose handler reads the rows.
CASES = {
    "pipeline-utilities": """
subgraphs:
  by_index:    # flaky_by_index.cause, cause.category
    state: {fields: {idx: {type: int, default: -1}, out: {type: int, default: 0}}}
    entry: work
    nodes: {work: {flaky_by_index: {fail_when_idx: 0, cause: {category: provider_unavailable}}}}
    edges: [{from: work, to: END}]
  per_index:   # flaky_per_index.always_fail_indices, .cause
    state: {fields: {idx: {type: int, default: -1}, out: {type: int, default: 0}}}
    entry: work
    nodes: {work: {flaky_per_index: {always_fail_indices: [0], cause: {category: provider_unavailable}}}}
    edges: [{from: work, to: END}]
  instance_only:   # flaky_instance_only.cause
    state: {fields: {idx: {type: int, default: -1}, out: {type: int, default: 0}}}
    entry: work
    nodes: {work: {flaky_instance_only: {fail_count_per_instance: 1, cause: {category: provider_unavailable}}}}
    edges: [{from: work, to: END}]
  alpha:
    state: {fields: {a_out: {type: int, default: 0}}}
    entry: a
    nodes: {a: {update: {a_out: 1}}}
    edges: [{from: a, to: END}]
state: {fields: {items: {type: list<int>, default: [0]}, results: {type: list<int>, reducer: append, default: []}, a_out: {type: int, default: 0}}}
entry: work
edges: [{from: work, to: END}]
initial_state: {}
cases:
  - name: flaky_by_index_cause
    nodes: {work: {fan_out: {subgraph: by_index, items_field: items, item_field: idx, collect_field: out, target_field: results}}}
    expected_error: {category: node_exception, raised_from: work}
  - name: flaky_per_index_cause
    nodes: {work: {fan_out: {subgraph: per_index, items_field: items, item_field: idx, collect_field: out, target_field: results}}}
    expected_error: {category: node_exception, raised_from: work}
  - name: flaky_instance_only_cause
    nodes: {work: {fan_out: {subgraph: instance_only, items_field: items, item_field: idx, collect_field: out, target_field: results}}}
    expected_error: {category: node_exception, raised_from: work}
  - name: flaky_resume_aware_cause   # flaky_resume_aware.cause
    nodes: {work: {flaky_resume_aware: {fail_first_invocation_count: 1, cause: {category: provider_unavailable}}}}
    expected_error: {category: node_exception, raised_from: work}
  - name: structured_raise_chains_causes   # node_raise.category, node_raise.cause, cause.cause
    nodes: {work: {raises: {category: provider_invalid_response, message: surface, cause: {category: provider_unavailable, cause: {message: origin}}}}}
    expected_error: {category: node_exception, raised_from: work}
  - name: flaky_resume_aware_on_a_resumed_invocation   # flaky_resume_aware.fail_resumed_invocation_count, .on_success
    state: {fields: {ready: {type: bool, default: false}, success: {type: bool, default: false}}}
    entry: first
    nodes:
      first: {update: {ready: true}}
      flaky: {flaky_resume_aware: {fail_first_invocation_count: 1, fail_resumed_invocation_count: 0, on_success: {success: true}}}
    edges: [{from: first, to: flaky}, {from: flaky, to: END}]
    checkpointer: in_memory
    first_run_expected_error: {category: node_exception, raised_from: flaky}
    resume:
      from_first_run: true
      expected: {final_state: {ready: true, success: true}}
  - name: branches_in_list_form   # branch.name
    nodes: {work: {parallel_branches: {branches: [{name: alpha, subgraph: alpha, outputs: {a_out: a_out}}]}}}
    expected: {final_state: {items: [0], results: [], a_out: 1}}
  - name: wrapped_by_middleware   # wrap_middleware.name, .pre_log, .post_log
    nodes: {work: {update: {a_out: 2}, wrap_with_middleware: [{name: logged, pre_log: before, post_log: after}]}}
    expected: {final_state: {items: [0], results: [], a_out: 2}}
""",
    "observability": """
state: {fields: {answer: {type: string, default: ""}, seed: {type: int, default: 1}, got: {type: int, default: 0}}}
edges: [{from: work, to: END}]
initial_state: {}
cases:
  - name: subgraph_nodes_declared_in_the_graph_block   # graph.inner_subgraphs, subgraph_call.*, projection.inputs
    graph:
      inner_subgraphs:
        inner:
          state: {fields: {x: {type: int, default: 0}, y: {type: int, default: 0}}}
          entry: copy
          nodes: {copy: {update: {y: 2}}}
          edges: [{from: copy, to: END}]
    entry: work
    nodes:
      work: {subgraph_call: {subgraph: inner, inputs: {x: seed}, outputs: {got: y}}}
      again: {subgraph: inner, mapping: {inputs: {x: got}, outputs: {seed: y}}}
    edges: [{from: work, to: again}, {from: again, to: END}]
    expected: {final_state: {answer: "", seed: 2, got: 2}}
  - name: typed_events_in_order   # typed_event_assertions.contains_events_in_order, typed_event_sequence.*, langfuse_observer_config.disable_llm_spans
    entry: work
    nodes: {work: {calls_llm: {messages: [{role: user, content: "hi"}], stores_response_in: answer}}}
    mock_llm:
      - status: 200
        body:
          id: cc-1
          object: chat.completion
          model: test-model
          choices: [{index: 0, message: {role: assistant, content: "ok"}, finish_reason: stop}]
          usage: {prompt_tokens: 1, completion_tokens: 1, total_tokens: 2}
    langfuse_observer: {disable_llm_spans: true}
    typed_observers: [{name: collector, kind: typed_event_collector}]
    expected:
      observers:
        collector:
          contains_events_in_order: {event_type: LlmCompletionEvent, events: [{node_name: work}]}
""",
    "llm-provider": """
mock_provider:
  capabilities: {supports_native_structured_output: true}   # llm_mock_capabilities.supports_native_structured_output
  responses:
    - status: 200
      body:
        id: chatcmpl-1
        object: chat.completion
        created: 1700000000
        model: test-model
        choices: [{index: 0, message: {role: assistant, content: "ok"}, finish_reason: stop}]
        usage: {prompt_tokens: 1, completion_tokens: 1, total_tokens: 2}
cases:
  - name: one_call_with_retry_and_middleware   # llm_call.retry_middleware, llm_call_retry.classifier
    call:
      operation: complete
      messages: [{role: user, content: "go"}]
      retry: {max_attempts: 1, classifier: default}
      retry_middleware: {max_attempts: 1}
    expected:
      response: {finish_reason: stop}
  - name: calls_with_retry_and_tool_choice   # llm_call_step.retry, .tool_choice, .expected_wire_request_absent_keys
    calls:
      - operation: complete
        messages: [{role: user, content: "go"}]
        tools: [{name: pick, description: "pick one", parameters: {type: object, properties: {}}}]
        tool_choice: auto
        retry: {max_attempts: 1, classifier: default}
        expected_wire_request_absent_keys: [stream]
        expected:
          response: {finish_reason: stop}
""",
    "retrieval-provider": """
state: {fields: {embedding_response: {type: record, default: null}}}
entry: embed_node
nodes: {embed_node: {calls_embed: {input: ["alpha"], stores_response_in: embedding_response}}}
edges: [{from: embed_node, to: END}]
initial_state: {}
cases:
  - name: cohere_chunk_cap   # cohere_provider.chunk_size (this build's provider takes no chunk_size: a recognized skip once read)
    mapping: cohere
    cohere_embedding_provider: {base_url: "https://api.cohere.invalid", model: m, api_key: k, chunk_size: 1}
    mock_embedding:
      - status: 200
        body: {id: e1, embeddings: {float: [[0.1, 0.2]]}, texts: ["alpha"], meta: {billed_units: {input_tokens: 1}}}
  - name: jina_chunk_cap   # jina_provider.chunk_size
    mapping: jina
    jina_embedding_provider: {base_url: "https://api.jina.invalid", model: m, api_key: k, chunk_size: 1}
    mock_embedding:
      - status: 200
        body: {model: m, object: list, data: [{object: embedding, index: 0, embedding: [0.1, 0.2]}], usage: {total_tokens: 1, prompt_tokens: 1}}
""",
}
