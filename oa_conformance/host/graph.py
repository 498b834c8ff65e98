"""The graph engine (graph-engine, pipeline-utilities): states, builders, projections, reducers, the
built-in middleware, events and errors — the runtime's public ``openarmature.graph``."""

from __future__ import annotations

import dataclasses
from typing import Any

from .detect import RuntimeLacks, declares, late_bound

GRAPH = "openarmature.graph"
RUNTIME = {name: GRAPH for name in (
    "END", "BranchSpec", "CompileError", "ExplicitMapping", "FailureIsolationMiddleware", "GraphBuilder", "GraphError",
    "NodeEvent", "NodeException", "RetryConfig", "RetryMiddleware", "State", "SubscribedObserver", "TimingMiddleware",
    "append", "classify_cause_chain", "concat_flatten", "default_classifier", "deterministic_backoff",
    "last_write_wins", "merge", "merge_all",
    "bounded_append", "dedupe_append", "merge_by_key",  # the factory reducers (proposal 0023): not in every build
    "DeclaredSameName",  # the declared same-name projection (projects_in / projects_out): not in every build
)}
__getattr__ = late_bound(__name__, RUNTIME)


def with_subgraph_identity(builder: Any, node_name: str, identity: str) -> None:
    """Give a subgraph node its compiled subgraph's identity (the name it is declared under), which
    observers report as ``subgraph_name`` (observability §5.3 / §8.4.2).

    The runtime's ``SubgraphNode`` carries the field, but ``add_subgraph_node`` takes no argument
    for it (its fan-out sibling ``add_fan_out_node(subgraph_identity=)`` does), so the registered
    node is replaced by a copy carrying it — the binding's one reach into the builder's private
    node table. A build whose ``SubgraphNode`` has no identity field has nothing to carry it.
    """
    nodes = getattr(builder, "_nodes", None)
    node = nodes.get(node_name) if isinstance(nodes, dict) else None
    if node is not None and not declares(type(node), "subgraph_identity"):
        return
    if node is None or not dataclasses.is_dataclass(node):
        raise RuntimeLacks(f"a way to set subgraph node {node_name!r}'s subgraph_identity "
                           "(add_subgraph_node takes none; the builder's node table is not reachable)")
    nodes[node_name] = dataclasses.replace(node, subgraph_identity=identity)


__all__ = [*RUNTIME, "with_subgraph_identity"]
