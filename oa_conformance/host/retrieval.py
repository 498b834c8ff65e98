"""Retrieval providers (retrieval-provider): the embedding and rerank providers and their per-call
configs — the runtime's public ``openarmature.retrieval``."""

from __future__ import annotations

from typing import Any, Mapping

from .detect import late_bound, with_extras

RUNTIME = {name: "openarmature.retrieval" for name in (
    "CohereEmbeddingProvider", "CohereRerankProvider", "EmbeddingRuntimeConfig", "JinaEmbeddingProvider",
    "JinaRerankProvider", "OpenAIEmbeddingProvider", "RerankRuntimeConfig", "TeiEmbeddingProvider", "TeiRerankProvider",
)}
__getattr__ = late_bound(__name__, RUNTIME)


def embedding_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``EmbeddingRuntimeConfig`` from a fixture's ``config`` block (extras adapted)."""
    return with_extras(__getattr__("EmbeddingRuntimeConfig"), fields)


def rerank_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``RerankRuntimeConfig`` from a fixture's ``config`` block (extras adapted)."""
    return with_extras(__getattr__("RerankRuntimeConfig"), fields)


__all__ = [*RUNTIME, "embedding_config", "rerank_config"]
