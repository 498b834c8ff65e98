"""The node directives' explicit tables (the node body that runs them: :mod:`.node_body`).

A vocabulary row handled by ``node("<key>")`` is a step of the node body (``NODE_DIRECTIVES[key]``,
``async (ctx, spec)``, run in document order, §8.3); one handled by ``node_middleware("<key>")`` is a
middleware graph build puts around the node (``NODE_MIDDLEWARE[key]``, ``(spec, site, node)``).
The node keys graph build reads itself (``node_modifier``, ``projection``) are derived from the
rows; ``tests/test_surface.py`` keeps these tables and the rows in step.
"""

from __future__ import annotations

from typing import Any, Callable

from ...model.vocabulary import VOCABULARY
from . import behaviors, observability_nodes
from .behaviors import NodeStep
from .capabilities import observability_prompts, retrieval_mock
from .middleware import BuildSite

NODE_DIRECTIVES: dict[str, NodeStep] = {
    "update": behaviors.update,
    "update_pure": behaviors.update,
    "update_from_field": behaviors.update_from_field,
    "noop": behaviors.noop,
    "sleep_ms": behaviors.sleep,
    "raises": behaviors.raises,
    "flaky": behaviors.flaky,
    "flaky_by_index": behaviors.flaky_by_index,
    "flaky_per_index": behaviors.flaky_per_index,
    "flaky_instance_only": behaviors.flaky_instance_only,
    "flaky_resume_aware": behaviors.flaky_resume_aware,
    "invoke_drain_events_for": behaviors.drain_events_for,
    "invoke_drain": behaviors.drain_in_node,
    "attempts_input_state_mutation": behaviors.mutate_input_state,
    "detaches_observer": behaviors.detach_observer,
    "invoke_checkpoint_delete": behaviors.checkpoint_delete,
    "reload_checkpoint_into": behaviors.checkpoint_reload,
    "lists_checkpoints_into": behaviors.checkpoint_list,
    "update_pure_from_state": observability_nodes.update_pure_from_state,
    "emits_log": observability_nodes.emits_log,
    "also_emits_via_global_tracer": observability_nodes.global_span,
    "augment_metadata": observability_nodes.augment_metadata,
    "augment_metadata_from_field": observability_nodes.augment_metadata_from_field,
    "capture_invocation_metadata_into": observability_nodes.capture_metadata,
    "capture_queryable_observer_read_into": observability_nodes.capture_queryable_read,
    "then_drop_for_current_invocation": observability_nodes.drop_for_current_invocation,
    "then_assert_bucket_absent_into": observability_nodes.bucket_absent_into,
    "per_attempt_behavior": observability_nodes.per_attempt_behavior,
    "calls_llm": observability_nodes.calls_llm,
    "calls_tool": observability_nodes.calls_tool,
    "calls_embed": retrieval_mock.calls_embed,
    "calls_rerank": retrieval_mock.calls_rerank,
    "renders_prompt": observability_prompts.renders_prompt,
    "renders_prompt_group": observability_prompts.renders_prompt_group,
}

# Node directives that are middleware around the node rather than steps of its body (a call made
# before / after ``next()``): directive -> factory(spec, site, node_name) -> middleware.
NODE_MIDDLEWARE: dict[str, Callable[[Any, BuildSite, str], Any]] = {
    "retry_middleware": observability_nodes.node_retry_middleware,
    "calls_llm_from_wrapper": observability_nodes.llm_from_wrapper,
}

# Directives the graph build applies around the body (middleware) or a sibling handler reads.
MODIFIERS = VOCABULARY.handled_by("node", ("node_modifier",))
# Subgraph boundary directives: they mean something only on a node that runs a subgraph.
PROJECTIONS = VOCABULARY.handled_by("node", ("projection",))
# The keys that make a node a composite (the runtime's subgraph / fan-out / parallel branches).
COMPOSITION_KEYS = VOCABULARY.handled_by("node", ("composition",))
