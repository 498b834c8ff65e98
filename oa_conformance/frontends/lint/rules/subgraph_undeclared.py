"""A node runs a subgraph that is not declared.

## What it does
Checks every subgraph a node, fan-out, branch or subgraph call names (`subgraph: <name>` and the
other `*_subgraph` references of the vocabulary) against the subgraphs the scenario can see:
`subgraphs:` keys and named `subgraph:` blocks of the case, its `graph:` or the top level, and those
declared inside them.

## Why is this bad?
conformance-adapter §5.4: a subgraph-as-node executes a named subgraph declared at the fixture top
level (`subgraph:` or `subgraphs:`). A reference to no declaration cannot be built; the adapter can
only fail the fixture, in every implementation.

## Example
Bad:
```yaml
subgraphs:
  inner: {entry: i, nodes: {i: {update: {x: 1}}}, edges: [{from: i, to: END}]}
nodes:
  outer: {subgraph: iner}
```
Good:
```yaml
nodes:
  outer: {subgraph: inner}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, did_you_mean, referencing_families, subgraph_reference

CODE = "G005"
NAME = "subgraph-undeclared"
SEVERITY = "error"
KIND = "scenario"


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    declared = ctx.declarations
    for family in referencing_families():
        for section in ctx.sections(family):
            reference = subgraph_reference(section)
            if reference is not None and reference.value not in declared:
                hint = did_you_mean(reference.value, declared)
                yield Finding(reference.span, f"subgraph {reference.value!r} is not declared{hint}")
