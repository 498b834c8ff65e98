"""A directive's value has the wrong shape.

## What it does
Reports what the schema check finds besides unknown keys: a value of the wrong kind (a list where a
mapping belongs) or type (a string where an integer belongs), a value outside a closed set, a
missing required directive, two mutually exclusive directives together, a malformed resume
placeholder or `conformance_version`. (Malformed type strings and value tokens have their own codes,
S001 and E004.)

## Why is this bad?
conformance-adapter §9: a structurally broken fixture MUST raise `fixture_schema_invalid` rather
than have defaults inferred. Each implementation would otherwise guess differently.

## Example
Bad:
```yaml
edges:
  - {from: a, to: [b, c]}
```
Good:
```yaml
edges:
  - {from: a, to: b}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "V002"
NAME = "schema-invalid"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("schema",)
