"""LLM providers (llm-provider): messages, tools, per-call config, the OpenAI-compatible provider,
call-level retry and the provider error classes — the runtime's public ``openarmature.llm``."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from openarmature.llm import errors
from openarmature.llm import ForceTool, LlmProviderError, Message, OpenAIProvider, RuntimeConfig, Tool
from openarmature.graph import RetryConfig

from .detect import RuntimeLacks, optional, with_extras

# Call-level retry with per-attempt overrides and reask (proposal 0095): not in every build.
LlmRetryConfig = optional("openarmature.llm.retry", "LlmRetryConfig")


def runtime_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``RuntimeConfig`` from a fixture's ``config`` block (its vendor knobs under
    ``extras``: nested where the model declares an ``extras`` container, flat where it does not)."""
    return with_extras(RuntimeConfig, fields)


def call_retry_config(**fields: Any) -> Any:
    """The config ``complete(retry=)`` takes: the build's ``LlmRetryConfig`` where it has one, else
    the engine's ``RetryConfig`` — which lacks any field the case sets beyond it."""
    cls = LlmRetryConfig or RetryConfig
    known = {f.name for f in dataclasses.fields(cls)}
    beyond = sorted(name for name, value in fields.items() if value is not None and name not in known)
    if beyond:
        raise RuntimeLacks(f"call-level retry field(s) {beyond} ({cls.__name__} declares none)")
    return cls(**{name: value for name, value in fields.items() if name in known})


def provider_error_classes() -> list[type]:
    """Every provider error class the build's ``openarmature.llm.errors`` defines, in its order."""
    return [value for value in vars(errors).values() if isinstance(value, type) and issubclass(value, LlmProviderError)]


__all__ = ["ForceTool", "LlmRetryConfig", "Message", "OpenAIProvider", "RuntimeConfig", "Tool", "call_retry_config",
           "provider_error_classes", "runtime_config"]
