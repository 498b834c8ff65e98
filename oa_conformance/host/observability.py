"""Observability (observability spec): the invocation context, caller metadata, tool-call scopes, and
the OTel and Langfuse observers — the runtime's public ``openarmature.observability``."""

from __future__ import annotations

from typing import Any, Callable

from openarmature.observability import (
    current_attempt_index,
    current_correlation_id,
    current_fan_out_index,
    current_invocation_id,
    current_namespace_prefix,
    get_invocation_metadata,
    set_invocation_metadata,
    with_tool_call,
)
from openarmature.observability.correlation import current_fan_out_index_chain
from openarmature.observability.langfuse import (
    InMemoryLangfuseClient,
    LangfuseObserver,
    LangfuseSDKAdapter,
    langfuse_trace_id,
)
from openarmature.observability.otel import OTelObserver, install_log_bridge

from .detect import RuntimeLacks


def langfuse_credentials_constructor() -> Callable[..., Any]:
    """``LangfuseObserver.from_credentials``: an observer over a Langfuse SDK client the runtime
    builds from credentials (observability §8.9 mode b, proposal 0115) — not in every build."""
    build = getattr(LangfuseObserver, "from_credentials", None)
    if build is None:
        raise RuntimeLacks("LangfuseObserver.from_credentials (an observer that builds its own Langfuse client)")
    return build

__all__ = [
    "InMemoryLangfuseClient", "LangfuseObserver", "LangfuseSDKAdapter", "OTelObserver", "current_attempt_index",
    "current_correlation_id", "current_fan_out_index", "current_fan_out_index_chain", "current_invocation_id",
    "current_namespace_prefix", "get_invocation_metadata", "install_log_bridge", "langfuse_credentials_constructor",
    "langfuse_trace_id",
    "set_invocation_metadata", "with_tool_call",
]
