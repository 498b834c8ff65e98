"""Prompts in observability graphs: the ``prompt_backend`` / ``render_variables`` case blocks and the
``renders_prompt`` / ``renders_prompt_group`` node directives (the directory's §3.2 header vocabulary;
observability §8.4.4 prompt linkage, §5.5.15 token budgets, the typed events' ``active_prompt``).

The backend is the prompt-management harness's preloaded mock (``PreloadedPromptBackend``, reused,
not forked), composed into the runtime's own ``PromptManager``. A prompt record's
``langfuse_prompt_reference`` becomes its ``observability_entities["langfuse_prompt"]`` — what a
backend exposing a Langfuse Prompt entity carries (prompt-management §3, observability §8.4.4); a
``filesystem`` backend exposes none. The capture makes the manager visible to node bodies through a
context variable (copied into every task the run creates), so cases run side by side never see each
other's backend.

``renders_prompt: <name>`` fetches and renders the prompt with ``render_variables`` and makes the
result the active prompt (``with_active_prompt``) for the rest of the node body; a later
``calls_llm`` without ``messages`` sends the rendered messages (``NodeContext.prompt``).
``renders_prompt_group`` renders every member, binds a ``PromptGroup`` of them
(``with_active_prompt_group``) and its ``active_prompt`` member as the active prompt.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any

from ...static.scenarios import Scenario
from ..harness import CaptureSeams
from ..behaviors import NodeContext
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ....ast.values import literal
from .prompt_backends import PreloadedPromptBackend


# The backend kinds of the header: `filesystem` exposes no Langfuse Prompt entity; the mock does.
BACKEND_KINDS = ("filesystem", "mock_with_langfuse_reference")

_PROMPTS: contextvars.ContextVar["CasePrompts | None"] = contextvars.ContextVar("oa_observability_prompts", default=None)


class CasePrompts:
    """One case's prompt manager and the variables its prompts render with."""

    def __init__(self, scenario: Scenario):
        from ....host.prompts import PromptManager

        declared = scenario.view.prompt_backend
        self.variables = literal(scenario.view.render_variables) if scenario.view.render_variables is not None else {}
        self.manager = None
        self.labels: dict[str, tuple[str, str]] = {}  # the fixture's prompt key -> (name, label)
        if declared is None:
            return
        kind = declared.type.value
        if kind not in BACKEND_KINDS:
            raise HarnessPrimitiveMissing(f"prompt_backend type {kind!r}", declared.type.span)
        records = []
        for key, decl in declared.prompts.items():
            record = {name: literal(value) for name, value in decl.items() if name != "langfuse_prompt_reference"}
            if decl.langfuse_prompt_reference is not None:
                record["observability_entities"] = {"langfuse_prompt": decl.langfuse_prompt_reference.value}
            records.append(record)
            self.labels[key] = (record["name"], record["label"])
        try:
            self.backend = PreloadedPromptBackend(kind, records)
        except ValueError as problem:
            raise FixtureInvalid(f"prompt_backend: {problem}", declared.span) from problem
        self.manager = PromptManager(self.backend)

    def collections(self) -> dict[str, Any]:
        return {}  # what a render produced is asserted through the typed events and observations

    async def render(self, key: str, span: Any) -> Any:
        if self.manager is None:
            raise HarnessPrimitiveMissing("renders_prompt needs a prompt_backend", span)
        if key not in self.labels:
            raise HarnessPrimitiveMissing(f"prompt {key!r} is not in the prompt_backend", span)
        name, label = self.labels[key]
        prompt = await self.manager.fetch(name, label)
        return self.manager.render(prompt, self.variables)


@contextlib.asynccontextmanager
async def open_prompts(scenario: Scenario, seams: CaptureSeams):
    """The capture entered around a graph run: the case's prompt manager, for node bodies."""
    prompts = CasePrompts(scenario)
    token = _PROMPTS.set(prompts)
    try:
        yield prompts
    finally:
        _PROMPTS.reset(token)


def _case_prompts(span: Any) -> CasePrompts:
    prompts = _PROMPTS.get()
    if prompts is None:
        raise HarnessPrimitiveMissing("renders_prompt outside an observability run (no prompt_backend capture)", span)
    return prompts


async def renders_prompt(ctx: NodeContext, spec: Any) -> None:
    from ....host.prompts import with_active_prompt

    result = await _case_prompts(spec.span).render(spec.value, spec.span)
    ctx.prompt = result
    ctx.scope.enter_context(with_active_prompt(result))


async def renders_prompt_group(ctx: NodeContext, spec: Any) -> None:
    from ....host.prompts import PromptGroup, with_active_prompt, with_active_prompt_group

    prompts = _case_prompts(spec.span)
    members = {key: await prompts.render(key, spec.members.span) for key in literal(spec.members)}
    active = spec.active_prompt.value
    if active not in members:
        raise FixtureInvalid(f"active_prompt {active!r} is not one of the members", spec.active_prompt.span)
    group = PromptGroup(group_name=spec.group_name.value, members=list(members.values()))
    ctx.prompt = members[active]
    ctx.scope.enter_context(with_active_prompt_group(group))
    ctx.scope.enter_context(with_active_prompt(members[active]))
