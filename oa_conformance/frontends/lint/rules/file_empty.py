"""The file holds no YAML document.

## What it does
Reports a fixture file that is empty or holds only comments.

## Why is this bad?
An empty fixture tests nothing, yet `yaml.safe_load` reads it as `None` and a lenient adapter may
count it as passed. Usually a file created and never filled, or a bad merge. This is
`fixture_schema_invalid` (conformance-adapter §9).

## Example
Bad:
```yaml
# TODO: write the drain-ordering fixture
```
Good:
```yaml
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a: {update: {v: 1}}
edges:
  - {from: a, to: END}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y003"
NAME = "empty-file"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("empty",)
