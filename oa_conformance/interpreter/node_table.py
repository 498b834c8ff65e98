"""The node directives' explicit tables, and the node body that runs them.

A vocabulary row handled by ``node("<key>")`` is a step of the node body (``NODE_DIRECTIVES[key]``,
``async (ctx, spec)``, run in document order, §8.3); one handled by ``node_middleware("<key>")`` is a
middleware graph build puts around the node (``NODE_MIDDLEWARE[key]``, ``(spec, site, node)``).
The node keys graph build reads itself (``node_modifier``, ``projection``) are derived from the
rows; ``tests/test_surface.py`` keeps these tables and the rows in step.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from ..ast.nodes import Section
from ..vocabulary import VOCABULARY
from . import behaviors, observability_nodes, retrieval_mock
from .behaviors import Handler, NodeContext, NotImplementedDirective
from .capabilities import observability_prompts
from .harness import Harness
from .middleware import BuildSite

NODE_DIRECTIVES: dict[str, Handler] = {
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


def node_body(name: str, decl: Section, harness: Harness) -> Callable[[Any], Awaitable[dict]]:
    """The async node function for a node declared by behaviour directives."""
    steps = []
    for directive, spec in decl.items():
        if directive in MODIFIERS or directive in NODE_MIDDLEWARE:
            continue
        if directive in PROJECTIONS:
            raise NotImplementedDirective(f"{directive} on a node that runs no subgraph", decl.key_span(directive))
        handler = NODE_DIRECTIVES.get(directive)
        if handler is None:
            raise NotImplementedDirective(directive, decl.key_span(directive))
        steps.append((handler, spec))

    async def body(state: Any) -> dict:
        crash = harness.cursor.crash
        if crash is not None and crash.fired(harness.log):  # an injected crash: the process is gone
            raise asyncio.CancelledError()
        ctx = NodeContext(name, decl, state, {}, harness)
        harness.log.node_log.append(_body_event("entered", name))
        try:
            if harness.instruments.concurrency_markers:  # let siblings start: overlap is what is measured
                await asyncio.sleep(0)
            with ctx.scope:
                for handler, spec in steps:
                    await handler(ctx, spec)
        except BaseException:
            harness.log.node_log.append(_body_event("raised", name))
            raise
        harness.log.node_log.append(_body_event("returned", name))
        return ctx.partial

    body.__name__ = body.__qualname__ = f"fixture_node_{name}"
    return body


def composite_prelude(name: str, decl: Section, harness: Harness) -> Callable | None:
    """A middleware running the behaviour directives a composite node (subgraph, fan-out, parallel
    branches) declares beside its composition key — an `emits_log` on a subgraph node — just before
    the runtime dispatches it: the runtime runs no body of ours there, so without this the
    directives would be silently dropped. None when the node declares none. A state write among them
    has nowhere to go (the composite's output is its projection), so it is not implemented."""
    steps = [(NODE_DIRECTIVES[directive], directive, spec) for directive, spec in decl.items() if directive in NODE_DIRECTIVES]
    if not steps:
        return None

    async def prelude(state: Any, next_: Any) -> Any:
        ctx = NodeContext(name, decl, state, {}, harness)
        with ctx.scope:
            for handler, directive, spec in steps:
                await handler(ctx, spec)
                if ctx.partial:
                    raise NotImplementedDirective(f"{directive}: a state write on a composite node", decl.key_span(directive))
        return await next_(state)

    prelude.__name__ = f"composite_prelude_{name}"
    return prelude


def _body_event(event: str, name: str) -> dict[str, Any]:
    """A node-body log row: where the runtime says the body runs (its context, read in the body;
    the namespace is the runtime's, ending with the node itself)."""
    from ..host import observability as obs
    from ..host.observability import current_fan_out_index_chain

    return {"event": event, "node": name, "namespace": obs.current_namespace_prefix(), "fan_out_index": obs.current_fan_out_index(),
            "fan_out_index_chain": current_fan_out_index_chain(), "attempt_index": obs.current_attempt_index(),
            "invocation_id": obs.current_invocation_id(), "correlation_id": obs.current_correlation_id()}


