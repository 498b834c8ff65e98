"""A state field's default does not match its declared type.

## What it does
Checks each `default:` against the field's `type:` — `string`, `int`, `float` (an integer is a
float too), `bool`, `any`, `list` / `list<T>` (each item against `T`), `dict` / `dict<K,V>` (each key
and value), and a record type (a mapping, or `null` for "no record yet"). `null` is a valid default
only for `any` and record types.

## Why is this bad?
conformance-adapter §5.2: the default MUST match the declared type (a `fixture_schema_invalid`
problem: `check` and `run` report it too). Implementations validate state
at graph boundaries (graph-engine §2), so a mismatched default fails — or is coerced — differently in
each language, before the behaviour the fixture meant to test is reached.

## Example
Bad:
```yaml
fields:
  count: {type: int, default: "0"}
  trace: {type: list<string>, default: {}}
```
Good:
```yaml
fields:
  count: {type: int, default: 0}
  trace: {type: list<string>, default: []}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

# The check is a static pass (oa_conformance.interpreter.static.state_values), shared with `check` and `run`.
CODE = "S002"
NAME = "default-type-mismatch"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("default-type",)
