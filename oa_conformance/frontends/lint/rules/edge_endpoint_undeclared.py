"""An edge starts or ends at a node that is not declared.

## What it does
For every edge of the scenario's graph and of each declared subgraph, checks that `from:` names a
declared node and that `to:` names a declared node or `END`. (A condition's `then:` / `else:` are
G008's.)

## Why is this bad?
graph-engine §2: compilation MUST fail on dangling edges (`dangling_edge`). A misspelt target is the
commonest hand-written-graph mistake; a fixture that does not mean to test it fails to compile.

A case that expects `expected_compile_error: dangling_edge` is correct, not a finding.

## Example
Bad:
```yaml
nodes:
  first: {update: {v: 1}}
  second: {update: {v: 2}}
edges:
  - {from: first, to: secnod}
  - {from: second, to: END}
```
Good:
```yaml
edges:
  - {from: first, to: second}
  - {from: second, to: END}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, did_you_mean, text_of, undeclared_target
from ..spec_terms import DANGLING_EDGE

CODE = "G002"
NAME = "edge-endpoint-undeclared"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = DANGLING_EDGE


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        names = graph.node_names
        for edge in graph.edge_items():
            source = edge.from_
            if source is not None and text_of(source) not in names:
                yield Finding(source.span, f"edge source {source.value!r} is not a declared node of {graph.label}{did_you_mean(source.value, names)}")
            target = edge.to
            hint = undeclared_target(target, graph)
            if hint is not None:
                yield Finding(target.span, f"edge target {target.value!r} is neither END nor a declared node of {graph.label}{hint}")
