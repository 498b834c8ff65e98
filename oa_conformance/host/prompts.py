"""Prompt management (prompt-management): prompts, templates, managers, label resolvers, groups, the
active-prompt scopes and the sourced sampling config — the runtime's public ``openarmature.prompts``."""

from __future__ import annotations

from typing import Any, Mapping

from openarmature.prompts import (
    ChatPrompt,
    ContentSegment,
    ImageInlineBlockTemplate,
    ImageURLBlockTemplate,
    MappingLabelResolver,
    PlaceholderSegment,
    PromptGroup,
    PromptManager,
    PromptNotFound,
    PromptStoreUnavailable,
    SamplingConfig,
    TextBlockTemplate,
    TextPrompt,
    with_active_prompt,
    with_active_prompt_group,
)

from .detect import RuntimeLacks, accepts, optional, with_extras

# A prompt's token budget (proposal 0083): not in every build.
TokenBudget = optional("openarmature.prompts", "TokenBudget")


def sampling_config(raw: Mapping[str, Any]) -> Any:
    """A backend's reading of a prompt's sourced sampling config (prompt-management §5): the keys
    ``SamplingConfig`` declares, its vendor knobs from ``extras`` (nested or flat, as the build's
    model takes them), any other key dropped (``token_budget`` is a sibling, read on its own)."""
    declared = {key: value for key, value in raw.items() if key in SamplingConfig.model_fields and key != "extras"}
    if isinstance(raw.get("extras"), Mapping):
        declared["extras"] = dict(raw["extras"])
    return with_extras(SamplingConfig, declared)


def token_budget(raw: Any) -> Any:
    """A backend's reading of a prompt's ``token_budget`` record: the bounds ``TokenBudget``
    declares (any other key dropped); a budget that bounds nothing is no budget (``None``).
    Raises ``ValueError`` for a record that is not a mapping."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ValueError(f"token_budget must be a mapping, got {type(raw).__name__}")
    model = TokenBudget or _lacking_budget()
    bounds = {key: value for key, value in raw.items() if key in model.model_fields}
    return model(**bounds) if any(value is not None for value in bounds.values()) else None


def _lacking_budget() -> Any:
    raise RuntimeLacks("openarmature.prompts.TokenBudget (a prompt's token budget)")


def prompt_manager(*backends: Any, **options: Any) -> PromptManager:
    """A ``PromptManager`` over ``backends``; an option the build's constructor does not take
    (``default_cache_ttl_seconds`` …) is one the build lacks."""
    lacking = sorted(name for name in options if not accepts(PromptManager, name))
    if lacking:
        raise RuntimeLacks(f"PromptManager option(s) {lacking}")
    return PromptManager(*backends, **options)


__all__ = [
    "ChatPrompt", "ContentSegment", "ImageInlineBlockTemplate", "ImageURLBlockTemplate", "MappingLabelResolver",
    "PlaceholderSegment", "PromptGroup", "PromptManager", "PromptNotFound", "PromptStoreUnavailable",
    "SamplingConfig", "TextBlockTemplate", "TextPrompt", "TokenBudget", "prompt_manager", "sampling_config",
    "token_budget", "with_active_prompt", "with_active_prompt_group",
]
