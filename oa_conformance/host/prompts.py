"""Prompt management (prompt-management): prompts, templates, managers, label resolvers, groups, the
active-prompt scopes and the sourced sampling config — the runtime's public ``openarmature.prompts``."""

from __future__ import annotations

import threading
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Any, Mapping

from .detect import RuntimeLacks, accepts, late_bound, require, with_extras

RUNTIME = {name: "openarmature.prompts" for name in (
    "ChatPrompt", "ContentSegment", "FilesystemPromptBackend", "ImageInlineBlockTemplate", "ImageURLBlockTemplate", "MappingLabelResolver",
    "PlaceholderSegment", "PromptGroup", "PromptManager", "PromptNotFound", "PromptStoreUnavailable", "SamplingConfig",
    "TextBlockTemplate", "TextPrompt", "with_active_prompt", "with_active_prompt_group",
    "TokenBudget",  # a prompt's token budget (proposal 0083): not in every build
)}
__getattr__ = late_bound(__name__, RUNTIME)


def sampling_config(raw: Mapping[str, Any]) -> Any:
    """A backend's reading of a prompt's sourced sampling config (prompt-management §5): the keys
    ``SamplingConfig`` declares, its vendor knobs from ``extras`` (nested or flat, as the build's
    model takes them), any other key dropped (``token_budget`` is a sibling, read on its own)."""
    model = __getattr__("SamplingConfig")
    declared = {key: value for key, value in raw.items() if key in model.model_fields and key != "extras"}
    if isinstance(raw.get("extras"), Mapping):
        declared["extras"] = dict(raw["extras"])
    return with_extras(model, declared)


def token_budget(raw: Any) -> Any:
    """A backend's reading of a prompt's ``token_budget`` record: the bounds ``TokenBudget``
    declares (any other key dropped); a budget that bounds nothing is no budget (``None``).
    Raises ``ValueError`` for a record that is not a mapping."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ValueError(f"token_budget must be a mapping, got {type(raw).__name__}")
    model = require(__getattr__("TokenBudget"))
    bounds = {key: value for key, value in raw.items() if key in model.model_fields}
    return model(**bounds) if any(value is not None for value in bounds.values()) else None


def prompt_manager(*backends: Any, **options: Any) -> Any:
    """A ``PromptManager`` over ``backends``; an option the build's constructor does not take
    (``default_cache_ttl_seconds`` …) is one the build lacks."""
    manager = __getattr__("PromptManager")
    lacking = sorted(name for name in options if not accepts(manager, name))
    if lacking:
        raise RuntimeLacks(f"PromptManager option(s) {lacking}")
    return manager(*backends, **options)


__all__ = [*RUNTIME, "prompt_manager", "sampling_config", "token_budget"]


# The Langfuse SDK's lazy submodules deadlock when two cases' threads import them at once: one import,
# under a lock, shared.
_LANGFUSE_IMPORT = threading.Lock()


def langfuse_prompt_backend(client: Any) -> Any:
    """The runtime's own ``LangfusePromptBackend`` over ``client`` (the Langfuse SDK surface it calls),
    or ``None`` when the build (or its ``[langfuse]`` extra) has none."""
    backend = _langfuse_backend_class()
    return backend(client) if backend is not None else None


def _langfuse_backend_class() -> Any:
    with _LANGFUSE_IMPORT:
        return _import_langfuse_backend_class()


def _import_langfuse_backend_class() -> Any:
    # Not cached: the class is looked up in sys.modules each time (a dict hit once imported), so a
    # module imported afresh (pytest's pytester restores sys.modules after each run) is the one used.
    try:
        from openarmature.prompts.backends import langfuse as module
    except ImportError:
        return None
    if isinstance(getattr(module, "datetime", None), type) and issubclass(module.datetime, datetime):
        module.datetime = CaseClockDatetime  # the clock edge: see CaseClockDatetime
    return module.LangfusePromptBackend


# The controllable clock of the case whose Langfuse backend is fetching (None: the wall clock).
CASE_CLOCK: ContextVar[Any] = ContextVar("oa_case_clock", default=None)
CASE_CLOCK_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class CaseClockDatetime(datetime):
    """The wall clock the runtime's Langfuse backend stamps ``fetched_at`` from, as a double (a clock
    edge): inside a fetch of a case's ``langfuse_prompts`` backend, ``now()`` is that case's
    controllable clock (a fixed epoch plus the seconds ``advance_clock`` added), so a case's times are
    the same on every run; anywhere else the real time."""

    @classmethod
    def now(cls, tz: Any = None) -> datetime:
        clock = CASE_CLOCK.get()
        if clock is None:
            return datetime.now(tz)
        at = CASE_CLOCK_EPOCH + timedelta(seconds=clock.seconds)
        return at.astimezone(tz) if tz is not None else at.replace(tzinfo=None)


def langfuse_sdk() -> Any:
    with _LANGFUSE_IMPORT:
        return _import_langfuse_sdk()


def _import_langfuse_sdk() -> Any:
    """The Langfuse SDK pieces a double of its client answers with: the prompt models, the prompt
    clients and the not-found / unavailable errors (``None`` when the SDK is not installed); looked up
    afresh each time, as the backend class is."""
    try:
        from langfuse.api import NotFoundError, ServiceUnavailableError
        from langfuse.api.prompts.types.prompt import Prompt_Chat, Prompt_Text
        from langfuse.model import ChatPromptClient, TextPromptClient
    except ImportError:
        return None
    return {"Prompt_Chat": Prompt_Chat, "Prompt_Text": Prompt_Text, "ChatPromptClient": ChatPromptClient,
            "TextPromptClient": TextPromptClient, "NotFoundError": NotFoundError,
            "ServiceUnavailableError": ServiceUnavailableError}
