"""The node body: a declared node's behaviour directives run in document order (§8.3).

A node's steps are the entries of :data:`.node_table.NODE_DIRECTIVES` its directives name; the
context each step sees carries that table (``NodeContext.steps``), so a step that runs other steps
(``per_attempt_behavior``) finds them without importing the table that lists it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from ...ast.nodes import Section
from .behaviors import NodeContext, NotImplementedDirective
from .harness import Harness
from . import node_table  # its tables read when a node is built (a test may swap one)


def node_body(name: str, decl: Section, harness: Harness) -> Callable[[Any], Awaitable[dict]]:
    """The async node function for a node declared by behaviour directives."""
    steps = []
    for directive, spec in decl.items():
        if directive in node_table.MODIFIERS or directive in node_table.NODE_MIDDLEWARE:
            continue
        if directive in node_table.PROJECTIONS:
            raise NotImplementedDirective(f"{directive} on a node that runs no subgraph", decl.key_span(directive))
        handler = node_table.NODE_DIRECTIVES.get(directive)
        if handler is None:
            raise NotImplementedDirective(directive, decl.key_span(directive))
        steps.append((handler, spec))

    cleanup = decl.on_cancelled

    async def body(state: Any) -> dict:
        crash = harness.cursor.crash
        if crash is not None and crash.fired(harness.log):  # an injected crash: the process is gone
            raise asyncio.CancelledError()
        ctx = NodeContext(name, decl, state, {}, harness, steps=node_table.NODE_DIRECTIVES)
        harness.log.node_log.append(_body_event("entered", name))
        try:
            if harness.instruments.concurrency_markers:  # let siblings start: overlap is what is measured
                await asyncio.sleep(0)
            with ctx.scope:
                for handler, spec in steps:
                    await handler(ctx, spec)
        except asyncio.CancelledError:
            harness.log.node_log.append(_body_event("raised", name))
            if cleanup is not None:  # `on_cancelled`: the body cleans up before the signal goes on
                await asyncio.sleep(cleanup.cleanup_ms.value / 1000.0)
                harness.log.node_log.append(_body_event("cleaned_up", name))
            raise
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
    steps = [(node_table.NODE_DIRECTIVES[directive], directive, spec) for directive, spec in decl.items() if directive in node_table.NODE_DIRECTIVES]
    if not steps:
        return None

    async def prelude(state: Any, next_: Any) -> Any:
        ctx = NodeContext(name, decl, state, {}, harness, steps=node_table.NODE_DIRECTIVES)
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
    from ...host import observability as obs
    from ...host.observability import current_fan_out_index_chain

    return {"event": event, "node": name, "namespace": obs.current_namespace_prefix(), "fan_out_index": obs.current_fan_out_index(),
            "fan_out_index_chain": current_fan_out_index_chain(), "attempt_index": obs.current_attempt_index(),
            "invocation_id": obs.current_invocation_id(), "correlation_id": obs.current_correlation_id()}


__all__ = ["composite_prelude", "node_body"]
