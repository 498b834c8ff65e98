"""The assertion layer: value matchers, expected-outcome shapes and invariant predicates, all pure
rule objects over the recorded execution trace.

``load()`` registers every shape and predicate (the capability modules it imports are the explicit
registry); the assert pass calls it. Importing the package alone loads nothing, so ``oa-lint`` —
which needs only the predicate catalogue — does not pay for the shape modules and the runtime
pieces they reach.
"""


def load() -> None:
    """Import (once) every module that registers shapes and predicates."""
    from . import matchers, rules  # noqa: F401
    from .shapes import checkpoint, graph_engine, langfuse_traces, llm_provider, otel_spans, pipeline, prompt_management, retrieval_provider  # noqa: F401
