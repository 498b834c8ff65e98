"""A graph has no `entry`, or its entry is not a declared node.

## What it does
For the scenario's graph and every declared subgraph that declares `nodes:`, checks that `entry:`
is present and names one of them.

## Why is this bad?
graph-engine §2: the entry node MUST be declared explicitly — there is no "first node" default — and
compilation fails with `no_declared_entry` otherwise. A fixture that omits it (or misspells it) fails
to compile in every implementation, or worse, compiles in a lenient one that picks a node.

A case that expects `expected_compile_error: no_declared_entry` is correct, not a finding.

## Example
Bad:
```yaml
entry: frist
nodes:
  first: {update: {v: 1}}
```
Good:
```yaml
entry: first
nodes:
  first: {update: {v: 1}}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, did_you_mean, text_of
from ..spec_terms import NO_DECLARED_ENTRY

CODE = "G001"
NAME = "entry-undeclared"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = NO_DECLARED_ENTRY


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        if graph.entry is None:
            yield Finding(graph.anchor, f"{graph.label} declares nodes but no `entry`")
            continue
        entry = text_of(graph.entry)
        if entry not in graph.node_names:
            hint = did_you_mean(entry, graph.node_names)
            yield Finding(graph.entry.span, f"entry {graph.entry.value!r} is not a declared node of {graph.label}{hint}")
