"""A conditional edge routes to a node that is not declared.

## What it does
For every conditional edge of the scenario's graph and of each declared subgraph, checks that the
condition's `then:` and `else:` name a declared node or `END`.

## Why is this bad?
graph-engine §4: a conditional edge that returns a name that is neither a declared node nor `END`
raises `routing_error` at run time — only when that branch is taken, so a misspelt branch target
hides until the one run that takes it. Fixtures that test routing errors do this on purpose, which
is why this is a warning: a case that expects `routing_error` (`expected_error` /
`expected.error`) is correct, not a finding.

## Example
Bad:
```yaml
edges:
  - from: decide
    condition: {if_field: flag, equals: go, then: acept, else: END}
  - {from: accept, to: END}
```
Good:
```yaml
edges:
  - from: decide
    condition: {if_field: flag, equals: go, then: accept, else: END}
  - {from: accept, to: END}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Section
from ..context import Finding, ScenarioContext, undeclared_target
from ..spec_terms import ROUTING_ERROR

CODE = "G008"
NAME = "condition-target-undeclared"
SEVERITY = "warning"
KIND = "scenario"
EXPECTED_AS = ROUTING_ERROR


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        for edge in graph.edge_items():
            condition = edge.condition
            if not isinstance(condition, Section):
                continue
            for branch, target in (("then", condition.then), ("else", condition.else_)):
                hint = undeclared_target(target, graph)
                if hint is not None:
                    yield Finding(target.span, f"condition {branch} {target.value!r} is neither END nor a declared node of {graph.label}: "
                                               f"taking it raises routing_error{hint}")
