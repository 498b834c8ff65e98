"""A node cannot be reached from the entry.

## What it does
Follows the edges of each graph (static `to:`, and a condition's `then:` / `else:`) from its entry
and reports every declared node never reached. A graph with a routing callable that declares no
destination is skipped: it may route anywhere.

## Why is this bad?
graph-engine §2: compilation MUST fail on unreachable nodes (`unreachable_node`). In a fixture an
orphan node is usually a missing or misdirected edge — the node the author meant to test never runs,
and every assertion about it is vacuous or fails.

A case that expects `expected_compile_error: unreachable_node` is correct, not a finding.

## Example
Bad:
```yaml
entry: a
nodes:
  a: {update: {v: 1}}
  b: {update: {v: 2}}
edges:
  - {from: a, to: END}
```
Good:
```yaml
edges:
  - {from: a, to: b}
  - {from: b, to: END}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, edge_targets, routes_anywhere, text_of
from ..spec_terms import UNREACHABLE_NODE

CODE = "G003"
NAME = "node-unreachable"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = UNREACHABLE_NODE


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        entry = text_of(graph.entry)
        if entry not in graph.node_names:
            continue  # G001's finding; nothing is reachable from no entry
        successors: dict[str, list[str]] = {}
        edges = list(graph.edge_items())
        if any(routes_anywhere(edge) for edge in edges):
            continue
        for edge in edges:
            source = text_of(edge.from_)
            successors.setdefault(source, []).extend(text_of(t) for t in edge_targets(edge))
        reached = {entry}
        pending = [entry]
        while pending:
            for target in successors.get(pending.pop(), ()):
                if target not in reached:
                    reached.add(target)
                    pending.append(target)
        for name, _ in graph.node_items():
            if name not in reached:
                yield Finding(graph.nodes.key_span(name), f"node {name!r} of {graph.label} is unreachable from entry {entry!r}")
