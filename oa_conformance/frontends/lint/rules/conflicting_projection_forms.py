"""A subgraph-as-node declares both projection forms.

## What it does
Reports a node that runs a subgraph and declares both the same-name boundary sets (`projects_in` /
`projects_out`) and an explicit map (`inputs` / `outputs`, or a `mapping:` block).

## Why is this bad?
graph-engine §2: a subgraph-as-node declares its projection with at most one of the default, the
declared same-name sets, or the explicit maps; declaring both MUST fail compilation with
`conflicting_projection_forms`. The two forms disagree on what an omitted direction means, so the
fixture has no single reading.

A case that expects `expected_compile_error: conflicting_projection_forms` is correct, not a finding.

## Example
Bad:
```yaml
nodes:
  a: {subgraph: inner, projects_in: [val], inputs: {val: val}}
```
Good:
```yaml
nodes:
  a: {subgraph: inner, projects_in: [val], projects_out: [val]}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, subgraph_reference
from ..spec_terms import CONFLICTING_PROJECTION_FORMS

CODE = "G007"
NAME = "conflicting-projection-forms"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = CONFLICTING_PROJECTION_FORMS

DECLARED_SETS = ("projects_in", "projects_out")
EXPLICIT_MAPS = ("inputs", "outputs", "mapping")


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for node in ctx.sections("node"):
        if subgraph_reference(node) is None:
            continue
        sets = [name for name in node.order if name in DECLARED_SETS]
        maps = [name for name in node.order if name in EXPLICIT_MAPS]
        if sets and maps:
            later = max(sets[0], maps[0], key=lambda name: node.order.index(name))
            yield Finding(node.key_span(later), f"node declares both the same-name sets ({', '.join(sets)}) and explicit maps "
                                                f"({', '.join(maps)}); a subgraph-as-node uses at most one projection form")
