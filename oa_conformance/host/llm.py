"""LLM providers (llm-provider): messages, tools, per-call config, the OpenAI-compatible provider,
call-level retry and the provider error classes — the runtime's public ``openarmature.llm``."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any, Mapping

from .detect import RuntimeLacks, late_bound, with_extras

RUNTIME = {
    **{name: "openarmature.llm" for name in (
        "ForceTool", "LlmProviderError", "Message", "OpenAIProvider", "RuntimeConfig", "Tool", "UserMessage")},
    "LlmRetryConfig": "openarmature.llm.retry",  # call-level retry with overrides and reask (proposal 0095): not in every build
    "RetryConfig": "openarmature.graph",
}
__getattr__ = late_bound(__name__, RUNTIME)


def runtime_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``RuntimeConfig`` from a fixture's ``config`` block (its vendor knobs under
    ``extras``: nested where the model declares an ``extras`` container, flat where it does not)."""
    return with_extras(__getattr__("RuntimeConfig"), fields)


def call_retry_config(**fields: Any) -> Any:
    """The config ``complete(retry=)`` takes. A case setting only the pipeline-utilities §6.1 fields
    gets the engine's own ``RetryConfig``, the record a caller would pass to the §6.1 retry middleware
    (llm-provider §7.1: "Implementations MUST accept the same configuration record instance"); one
    setting an adaptive field gets the build's ``LlmRetryConfig`` where it has one — a build without
    it lacks any field the case sets beyond ``RetryConfig``."""
    plain = __getattr__("RetryConfig")
    known = {f.name for f in dataclasses.fields(plain)}
    adaptive = any(value is not None and name not in known for name, value in fields.items())
    cls = (__getattr__("LlmRetryConfig") or plain) if adaptive else plain
    known = {f.name for f in dataclasses.fields(cls)}
    beyond = sorted(name for name, value in fields.items() if value is not None and name not in known)
    if beyond:
        raise RuntimeLacks(f"call-level retry field(s) {beyond} ({cls.__name__} declares none)")
    return cls(**{name: value for name, value in fields.items() if name in known})


def provider_error_classes() -> list[type]:
    """Every provider error class the build's ``openarmature.llm.errors`` defines, in its order."""
    base = __getattr__("LlmProviderError")
    errors = importlib.import_module("openarmature.llm.errors")
    return [value for value in vars(errors).values() if isinstance(value, type) and issubclass(value, base)]


__all__ = [*RUNTIME, "call_retry_config", "provider_error_classes", "runtime_config"]
