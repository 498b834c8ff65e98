"""An invariant predicate name misspells a known one.

## What it does
Reports a predicate name in an `invariants:`-like block that no catalogue table knows (in any
capability) and that is one or two keystrokes (insert, delete, replace, swap) from a name one does,
with that name as the suggestion. A name further from every known name is a new predicate, which
§5.9 allows (reported by P001 until the adapter implements it).

## Why is this bad?
conformance-adapter §9: a structurally broken fixture MUST raise `fixture_schema_invalid`. A
misspelled predicate would otherwise be reported as an adapter gap ("not implemented") and the check
the author meant would never run.

## Example
Bad:
```yaml
invariants:
  no_events_for_nod: b
```
Good:
```yaml
invariants:
  no_events_for_node: b
```
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "V004"
NAME = "predicate-misspelled"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("predicate-name",)
