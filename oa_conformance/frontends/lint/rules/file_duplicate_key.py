"""A mapping repeats a key.

## What it does
Reports every repeated key of a mapping at the repetition, naming the line of the first one.

## Why is this bad?
`yaml.safe_load` and most YAML libraries silently keep the last value, others keep the first or
fail: the same fixture then means different things in different implementations' adapters. A
repeated `expected:` or node name usually hides half of what the author meant to assert. This is
`fixture_schema_invalid` (conformance-adapter §9).

## Example
Bad:
```yaml
nodes:
  a: {update: {v: 1}}
  a: {update: {v: 2}}
```
Good:
```yaml
nodes:
  a: {update: {v: 1}}
  b: {update: {v: 2}}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y005"
NAME = "duplicate-key"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("duplicate-key",)
