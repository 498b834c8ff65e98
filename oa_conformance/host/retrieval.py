"""Retrieval providers (retrieval-provider): the embedding and rerank providers and their per-call
configs — the runtime's public ``openarmature.retrieval``."""

from __future__ import annotations

from typing import Any, Mapping

from openarmature.retrieval import (
    CohereEmbeddingProvider,
    CohereRerankProvider,
    EmbeddingRuntimeConfig,
    JinaEmbeddingProvider,
    JinaRerankProvider,
    OpenAIEmbeddingProvider,
    RerankRuntimeConfig,
    TeiEmbeddingProvider,
    TeiRerankProvider,
)

from .detect import with_extras


def embedding_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``EmbeddingRuntimeConfig`` from a fixture's ``config`` block (extras adapted)."""
    return with_extras(EmbeddingRuntimeConfig, fields)


def rerank_config(fields: Mapping[str, Any]) -> Any:
    """The build's ``RerankRuntimeConfig`` from a fixture's ``config`` block (extras adapted)."""
    return with_extras(RerankRuntimeConfig, fields)


__all__ = [
    "CohereEmbeddingProvider", "CohereRerankProvider", "EmbeddingRuntimeConfig", "JinaEmbeddingProvider",
    "JinaRerankProvider", "OpenAIEmbeddingProvider", "RerankRuntimeConfig", "TeiEmbeddingProvider", "TeiRerankProvider",
    "embedding_config", "rerank_config",
]
