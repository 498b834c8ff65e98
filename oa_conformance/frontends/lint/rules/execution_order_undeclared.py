"""`execution_order` names a node that is not declared.

## What it does
Checks every name in an `execution_order:` list (of an `expected:` block or an expected error)
against the nodes declared by the scenario's graph and its subgraphs.

## Why is this bad?
conformance-adapter §5.8: `execution_order` is the ordered list of the nodes that ran. A name no
graph declares can never appear in a run, so the assertion fails in every implementation — usually
a node renamed in `nodes:` but not in the expectation.

## Example
Bad:
```yaml
nodes:
  first: {update: {v: 1}}
  second: {update: {v: 2}}
expected:
  execution_order: [first, secnod]
```
Good:
```yaml
expected:
  execution_order: [first, second]
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Scalar, Sequence
from ..context import Finding, ScenarioContext, did_you_mean

CODE = "E003"
NAME = "execution-order-undeclared-node"
SEVERITY = "error"
KIND = "scenario"


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    if ctx.main is None:
        return
    names = ctx.all_node_names
    for section in ctx.sections("expected") + ctx.sections("error_expectation"):
        order = section.execution_order
        if type(order) is not Sequence:
            continue
        for item in order.items:
            if type(item) is Scalar and item.value not in names:
                yield Finding(item.span, f"execution_order names {item.value!r}, which is not a declared node{did_you_mean(item.value, names)}")
