"""An expected state names a field the schema does not declare.

## What it does
Checks the fields of every `final_state:`, `final_state_at_error:` and `suspended_state:` of an
`expected:` block (the scenario's, each invocation's, a resume's) against the scenario's `state:`
schema.

## Why is this bad?
conformance-adapter §5.8: `final_state` is an exact-equality assertion on the invocation's final
state, which only ever holds declared fields. An undeclared field in it can never match — usually a
field renamed in the schema but not in the expectation, or a typo that an adapter comparing only
the fields it knows would silently skip.

## Example
Bad:
```yaml
state:
  fields:
    count: {type: int, default: 0}
expected:
  final_state: {cuont: 2}
```
Good:
```yaml
expected:
  final_state: {count: 2}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Mapping
from ..context import Finding, ScenarioContext, did_you_mean

CODE = "E001"
NAME = "state-field-undeclared"
SEVERITY = "error"
KIND = "scenario"


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    fields = ctx.main.field_names if ctx.main is not None else None
    if fields is None:
        return
    for expected in ctx.sections("expected"):
        for directive, state in (("final_state", expected.final_state), ("final_state_at_error", expected.final_state_at_error),
                                 ("suspended_state", expected.suspended_state)):
            if type(state) is not Mapping:
                continue
            for key, span in zip(state.keys, state.key_spans):
                if key not in fields:
                    yield Finding(span, f"{directive} names field {key!r}, which the state schema does not declare{did_you_mean(key, fields)}")
