"""The assertion layer: value matchers, expected-outcome shapes and invariant predicates, all pure
rule objects over the recorded execution trace.

Importing the package registers every shape and predicate (the capability modules below are the
explicit registry).
"""

from . import checkpoint_shapes, graph_engine_shapes, llm_provider_shapes, matchers, observability_shapes, pipeline_shapes, predicates, prompt_management_shapes, retrieval_provider_shapes, rules  # noqa: F401
from . import observability_langfuse_shapes  # noqa: F401,E402
