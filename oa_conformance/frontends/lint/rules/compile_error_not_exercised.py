"""A compile-error case does not contain the error it expects.

## What it does
For a case with `expected_compile_error: <category>` whose category the linter checks statically
(`no_declared_entry`, `dangling_edge`, `unreachable_node`, `multiple_outgoing_edges`,
`mapping_references_undeclared_field`, `conflicting_projection_forms`,
`reducer_configuration_invalid`, `conflicting_reducers`), reports when none of those checks finds
that error in the case.

## Why is this bad?
The case asserts that compilation fails for a reason the graph does not contain. An implementation
that rejects it anyway (for another reason, or with the right category for the wrong field) passes,
and one that compiles it correctly fails. Usually the offending part was fixed or renamed while the
expectation stayed.

## Example
Bad (the orphan has an edge, so every node is reachable):
```yaml
entry: a
nodes:
  a: {update: {v: 1}}
  orphan: {update: {v: 2}}
edges:
  - {from: a, to: orphan}
  - {from: orphan, to: END}
expected_compile_error: unreachable_node
```
Good:
```yaml
edges:
  - {from: a, to: END}
expected_compile_error: unreachable_node
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext

CODE = "E006"
NAME = "compile-error-not-exercised"
SEVERITY = "warning"
KIND = "outcome"


def check(ctx: ScenarioContext, raised: frozenset[str], detectable: frozenset[str]) -> Iterator[Finding]:
    expected = ctx.compile_error
    if expected in detectable and expected not in raised:
        where = ctx.scenario.where("expected_compile_error")
        yield Finding(where.key_span("expected_compile_error"), f"the case expects compile error {expected!r}, but its graph contains none")
