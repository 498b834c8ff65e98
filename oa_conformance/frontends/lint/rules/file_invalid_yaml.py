"""The file is not valid YAML (or uses YAML a fixture may not).

## What it does
Reports what the loader refuses: a syntax error, several documents in one file, a tag that would
construct an object (`!!python/…`, `!!set`, a local `!tag`), a merge key (`<<`), a complex key, a
recursive alias, or aliases that expand beyond the loader's bound (a "billion laughs"). The location
is where the YAML parser stopped.

## Why is this bad?
Every implementation's adapter must read the fixture (conformance-adapter §8.2); a fixture that does
not parse, or parses differently in different YAML libraries, fails everywhere at once. This is
`fixture_schema_invalid` (§9: "invalid YAML syntax").

## Example
Bad:
```yaml
nodes:
  a: {update: {v: 1}
```
Good:
```yaml
nodes:
  a: {update: {v: 1}}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y001"
NAME = "invalid-yaml"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("yaml", "tag")
