"""Observability (observability spec): the invocation context, caller metadata, tool-call scopes, and
the OTel and Langfuse observers — the runtime's public ``openarmature.observability``."""

from __future__ import annotations

from typing import Any, Callable

from .detect import RuntimeLacks, late_bound

OBSERVABILITY = "openarmature.observability"
RUNTIME = {
    **{name: OBSERVABILITY for name in (
        "current_attempt_index", "current_correlation_id", "current_fan_out_index", "current_invocation_id",
        "current_namespace_prefix", "get_invocation_metadata", "set_invocation_metadata", "with_tool_call")},
    "current_fan_out_index_chain": f"{OBSERVABILITY}.correlation",
    **{name: f"{OBSERVABILITY}.langfuse" for name in (
        "InMemoryLangfuseClient", "LangfuseObserver", "LangfuseSDKAdapter", "langfuse_trace_id")},
    **{name: f"{OBSERVABILITY}.otel" for name in ("OTelObserver", "install_log_bridge")},
}
__getattr__ = late_bound(__name__, RUNTIME)


def langfuse_credentials_constructor() -> Callable[..., Any]:
    """``LangfuseObserver.from_credentials``: an observer over a Langfuse SDK client the runtime
    builds from credentials (observability §8.9 mode b, proposal 0115) — not in every build."""
    build = getattr(__getattr__("LangfuseObserver"), "from_credentials", None)
    if build is None:
        raise RuntimeLacks("LangfuseObserver.from_credentials (an observer that builds its own Langfuse client)")
    return build


__all__ = [*RUNTIME, "langfuse_credentials_constructor"]
