"""A key is not a directive of the mapping it is in.

## What it does
Reports every key, at a position where keys are directives, that the vocabulary does not declare
for that kind of mapping (fixture top level, case, node, edge, `expected:` …) in this directory —
with a near name when there is one.

## Why is this bad?
conformance-adapter §8.2: unknown directives MUST raise `fixture_directive_unknown` rather than be
skipped. A misspelt directive (`expeted:`, `final_sate:`) is the classic silent fixture bug: the
adapter that skips it passes a case that asserts nothing.

## Example
Bad:
```yaml
expected:
  final_sate: {v: 1}
```
Good:
```yaml
expected:
  final_state: {v: 1}
```
"""

from oa_conformance.model.diagnostics import FIXTURE_DIRECTIVE_UNKNOWN

CODE = "V001"
NAME = "unknown-directive"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_DIRECTIVE_UNKNOWN
CLAIMS = ("unknown-directive",)
