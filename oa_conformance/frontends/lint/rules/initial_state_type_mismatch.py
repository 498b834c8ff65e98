"""An initial state gives a field a value of another type than the field declares.

## What it does
Checks each value of a case's `initial_state` (and of each invocation's) against the declared type
of its field in the case's state schema, as S002 checks defaults. A case that expects the failure
(`expected_error` or `expected_compile_error` of category `state_validation_error`) is left alone.

## Why is this bad?
conformance-adapter §5.2: the initial state is validated against the state schema before the graph
runs, so the case fails at run time with every expectation unmet, far from the value that caused
it. A `fixture_schema_invalid` problem: `check` and `run` report it at the value.

## Example
Bad:
```yaml
state:
  fields:
    count: {type: int, default: 0}
initial_state: {count: "zero"}
```
Good:
```yaml
initial_state: {count: 0}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

# The check is a static pass (oa_conformance.interpreter.static.state_values), shared with `check` and `run`.
CODE = "E007"
NAME = "initial-state-type-mismatch"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("initial-state-type",)
