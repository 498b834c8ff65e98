"""The document is not a mapping of directives.

## What it does
Reports a fixture whose top-level YAML value is a list or a single scalar.

## Why is this bad?
conformance-adapter §4: a fixture takes one of three top-level shapes, all mappings (single case,
`cases:`, `invocations:`). A top-level list is usually a `cases:` key that went missing. This is
`fixture_schema_invalid` (§9).

## Example
Bad:
```yaml
- name: first_case
  entry: a
```
Good:
```yaml
cases:
  - name: first_case
    entry: a
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y004"
NAME = "not-a-mapping"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("top-level",)
