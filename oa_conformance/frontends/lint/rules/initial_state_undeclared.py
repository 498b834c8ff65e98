"""An initial state supplies a field the schema does not declare.

## What it does
Checks the fields of the scenario's `initial_state:` and of each invocation's against the
scenario's `state:` schema.

## Why is this bad?
conformance-adapter §5.2: adapters MUST validate the initial state against the schema before
invocation, so an undeclared field makes the invocation fail with `state_validation_error` (graph-
engine §4) — before the behaviour the fixture meant to test. Implementations that validate loosely
run it instead; the fixture then means different things in different languages.

A warning, because it is sometimes deliberate: a case that expects `state_validation_error` is
correct, not a finding.

## Example
Bad:
```yaml
state:
  fields:
    items: {type: list<int>, default: []}
initial_state: {itmes: [1, 2, 3]}
```
Good:
```yaml
initial_state: {items: [1, 2, 3]}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Mapping
from ..context import Finding, ScenarioContext, did_you_mean
from ..spec_terms import STATE_VALIDATION_ERROR

CODE = "E002"
NAME = "initial-state-field-undeclared"
SEVERITY = "warning"
KIND = "scenario"
EXPECTED_AS = STATE_VALIDATION_ERROR


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    fields = ctx.main.field_names if ctx.main is not None else None
    if fields is None:
        return
    states = [ctx.view.initial_state] + [invocation.initial_state for invocation in ctx.invocations()]
    for state in states:
        if type(state) is not Mapping:
            continue
        for key, span in zip(state.keys, state.key_spans):
            if key not in fields:
                yield Finding(span, f"initial_state supplies field {key!r}, which the state schema does not declare{did_you_mean(key, fields)}")
