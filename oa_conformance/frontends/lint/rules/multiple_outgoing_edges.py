"""A node has more than one outgoing edge.

## What it does
Reports every edge whose `from:` node already has an earlier outgoing edge in the same graph.

## Why is this bad?
graph-engine §2: each node has exactly one outgoing edge; branching is a conditional edge, never two
static edges. Compilation MUST fail with `multiple_outgoing_edges`. Two static edges from one node
usually mean a conditional edge was intended.

A case that expects `expected_compile_error: multiple_outgoing_edges` is correct, not a finding; nor is
a `when:`-guarded edge (a directory's §3.2 conditional-edge form) beside its unguarded fallback.

## Example
Bad:
```yaml
edges:
  - {from: a, to: b}
  - {from: a, to: c}
```
Good:
```yaml
edges:
  - from: a
    condition: {if_field: route, equals: b, then: b, else: c}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, text_of
from ..spec_terms import MULTIPLE_OUTGOING_EDGES

CODE = "G004"
NAME = "multiple-outgoing-edges"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = MULTIPLE_OUTGOING_EDGES


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        first: dict[str, int] = {}
        for edge in graph.edge_items():
            source = edge.from_
            name = text_of(source)
            if name is None or edge.when is not None:
                continue  # a guarded edge (`when:`, §3.2) is one arm of a conditional with its fallback edge
            if name in first:
                yield Finding(source.span, f"node {name!r} of {graph.label} already has an outgoing edge (line {first[name]}); "
                                           "branch with one conditional edge instead")
            else:
                first[name] = source.span.line
